/*
 * The data clyde writes.  By default every byte is new: it comes straight
 * from a fast generator (CLYDE_PATTERN_LANES independent xoshiro256++
 * streams, interleaved 8 bytes at a time), seeded from the run's seeded
 * generator, so the data is incompressible, never repeats, and is the same
 * for the same seed.  CLYDE_PATTERN_ZEROS reproduces bonnie++'s data
 * (zeros, one byte changed per chunk) for comparisons with old results.
 *
 * Making the data costs about as much as a memcpy of it (docs/pattern.md):
 * the lanes are independent, so the compiler vectorises the loop, and on
 * x86-64 a copy of it built for AVX2 or AVX-512 is chosen at run time when
 * the CPU has them.  Every implementation gives the same bytes.
 */
#ifndef CLYDE_IO_PATTERN_H
#define CLYDE_IO_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"

#define CLYDE_PATTERN_LANES 32
/* Bytes made by one step of every lane. */
#define CLYDE_PATTERN_BLOCK (8 * CLYDE_PATTERN_LANES)

struct clyde_pattern_gen {
	int zeros; /* bonnie++'s pattern */
	/* Random bytes at the start of every CLYDE_PATTERN_BLOCK, the rest
	 * zeros (clyde_pattern_compressible); CLYDE_PATTERN_BLOCK: all. */
	unsigned keep;
	uint64_t counter; /* chunks made so far (zeros) */
	/* s[j][k]: state word j of lane k (the layout the vectoriser wants). */
	uint64_t s[4][CLYDE_PATTERN_LANES];
	/* Bytes for clyde_pattern_byte, made one block at a time. */
	unsigned char bytes[CLYDE_PATTERN_BLOCK];
	unsigned byte_pos;
};

/* The implementations of the random data; each gives the same bytes. */
enum clyde_pattern_impl {
	CLYDE_PATTERN_IMPL_AUTO,    /* the best this CPU has */
	CLYDE_PATTERN_IMPL_GENERIC, /* the compiler's baseline ISA */
	CLYDE_PATTERN_IMPL_AVX2,
	CLYDE_PATTERN_IMPL_AVX512,
	CLYDE_PATTERN_IMPL_COUNT
};

/* Set up a generator; zeros != 0 selects bonnie++'s pattern.  The state is
 * seeded from a copy of `rng` (left as it is: fork a stream per generator).
 * Nothing is allocated; returns 0, and a generator needs no release, but
 * callers pair init with release as for any other object. */
int clyde_pattern_init(struct clyde_pattern_gen *g, int zeros,
		       const struct clyde_rng *rng);
void clyde_pattern_release(struct clyde_pattern_gen *g);

/*
 * Make the random data `percent` compressible (0..100, as fio's
 * buffer_compress_percentage): of every CLYDE_PATTERN_BLOCK bytes the
 * first (100 - percent)% (rounded) stay random and the rest are zeros, so
 * that a compressor (lz4, zstd) shrinks the data to about (100 -
 * percent)% of its size.  0 is the default, incompressible data; the
 * stream of random bytes is the same, only cut.  No effect on bonnie++'s
 * zeros.
 */
void clyde_pattern_compressible(struct clyde_pattern_gen *g, unsigned percent);

/* Fill buf[0..len) with the next chunk's data. */
void clyde_pattern_fill(struct clyde_pattern_gen *g, void *buf, size_t len);

/* One byte for the per-char write test: inline, since that test makes one
 * system call per byte and every instruction around it shows; a new block
 * of bytes every CLYDE_PATTERN_BLOCK bytes (clyde_pattern_byte_refill,
 * which returns its first byte). */
unsigned char clyde_pattern_byte_refill(struct clyde_pattern_gen *g);
static inline unsigned char clyde_pattern_byte(struct clyde_pattern_gen *g)
{
	if (g->zeros)
		return 0;
	if (g->byte_pos == CLYDE_PATTERN_BLOCK)
		return clyde_pattern_byte_refill(g);
	return g->bytes[g->byte_pos++];
}

/*
 * The bytes clyde_pattern_byte would give next, in place, for a caller
 * that takes them one at a time without a call per byte (the per-char
 * write): a pointer to *n >= 1 of them (what is left of the current block,
 * or a new block), all marked as taken.  Bytes the caller leaves unused are
 * skipped: the stream goes on after them.  bonnie++'s pattern gives a
 * block of zeros.
 */
const unsigned char *clyde_pattern_take(struct clyde_pattern_gen *g,
					unsigned *n);

/* clyde_pattern_fill with a given implementation, for the tests and
 * bench/pattern_cost.c.  Returns -ENOTSUP (and fills nothing) when this
 * build or CPU lacks it. */
int clyde_pattern_fill_impl(struct clyde_pattern_gen *g, void *buf, size_t len,
			    enum clyde_pattern_impl impl);

/* The implementation IMPL_AUTO picks on this CPU, and a name for one. */
enum clyde_pattern_impl clyde_pattern_best_impl(void);
const char *clyde_pattern_impl_name(enum clyde_pattern_impl impl);

#endif
