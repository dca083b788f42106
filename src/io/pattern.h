/*
 * The data clyde writes.  By default it is incompressible and never repeats
 * a 4 KiB block: chunks are cut at random offsets from a pool of seeded
 * random bytes, and every 4 KiB block is stamped with its chunk number.
 * CLYDE_PATTERN_ZEROS reproduces bonnie++'s data (zeros, one byte changed
 * per chunk) for comparisons with old results.
 */
#ifndef CLYDE_IO_PATTERN_H
#define CLYDE_IO_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"

struct clyde_pattern_gen {
	int zeros;	     /* bonnie++'s pattern */
	unsigned char *pool; /* random bytes */
	size_t pool_len;
	int owns_pool;	      /* 0 when borrowed from another generator */
	uint64_t counter;     /* chunks made so far */
	struct clyde_rng rng; /* borrowed copy: picks pool offsets */
};

/* Set up a generator; zeros != 0 selects bonnie++'s pattern.  The random
 * pool is filled from `rng`.  Returns 0 or -ENOMEM. */
int clyde_pattern_init(struct clyde_pattern_gen *g, int zeros,
		       const struct clyde_rng *rng);
void clyde_pattern_release(struct clyde_pattern_gen *g);

/* Like clyde_pattern_init but borrowing the random pool of `src` (which must
 * outlive g), so that many workers share one pool; `rng` still gives each
 * its own sequence of offsets. */
void clyde_pattern_init_shared(struct clyde_pattern_gen *g,
			       const struct clyde_pattern_gen *src,
			       const struct clyde_rng *rng);

/* Fill buf[0..len) with the next chunk's data. */
void clyde_pattern_fill(struct clyde_pattern_gen *g, void *buf, size_t len);

/* One byte for the per-char write test. */
unsigned char clyde_pattern_byte(struct clyde_pattern_gen *g);

#endif
