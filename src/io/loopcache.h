/*
 * Cache truth below the filesystem: a loop device without direct I/O
 * reads and writes its backing file through the page cache, so a test
 * that clyde made cold on the filesystem above can still be served from
 * memory: the pages of the backing file are warm (on ext4-on-loop a
 * "cold" 1 GiB block read ran at memory speed while the test file's own
 * residency said 0%).
 *
 * Before each read-side test, for every loop device among the target's
 * members whose /sys/block/loopN/loop/dio is 0: write back and evict
 * (posix_fadvise DONTNEED) the backing file's range when clyde evicts the
 * test's files, then measure with mincore how much of that range is still
 * cached.  `losetup --direct-io=on` removes the double caching for good.
 */
#ifndef CLYDE_IO_LOOPCACHE_H
#define CLYDE_IO_LOOPCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"
#include "env/members.h"

/* One loop device and the range of its backing file it uses. */
struct clyde_loop_backing {
	char dev[CLYDE_MEMBER_NAME]; /* loop3 */
	char file[4096];	     /* /sys/block/loop3/loop/backing_file */
	bool dio;		     /* .../loop/dio is 1 */
	uint64_t offset;	     /* .../loop/offset */
	uint64_t sizelimit;	     /* .../loop/sizelimit, 0 = to the end */
};

/* The non-dio loop devices of a run. */
struct clyde_loopcache {
	unsigned n;
	struct clyde_loop_backing b[CLYDE_MAX_MEMBERS];
};

/* What one look before a test saw, summed over the loop devices. */
struct clyde_loopcache_seen {
	bool measured;		  /* at least one backing file was measured */
	bool evicted;		  /* ... and evicted first */
	uint64_t resident_before; /* cached bytes of the ranges before eviction */
	uint64_t resident_bytes;     /* ... when the test starts */
	uint64_t range_bytes;	     /* the ranges' size */
	char dev[CLYDE_MEMBER_NAME]; /* the first loop device, for messages */
};

/* Read loop device `dev`'s attributes under sysfs root `root`.  Returns
 * 0, or -ENOENT when `dev` is not a loop device with a backing file. */
int clyde_loop_backing_read(const char *root, const char *dev,
			    struct clyde_loop_backing *b);

/* Collect the members of w that are loop devices without direct I/O. */
void clyde_loopcache_find(struct clyde_loopcache *lc,
			  const struct clyde_member_watch *w);

/*
 * Before a read-side test: evict each backing range when `evict` (after
 * an fdatasync, so that its pages are clean), and measure its residency.
 * A backing file that cannot be opened or measured (no permission) is
 * skipped; nothing here fails a run.  *seen is zeroed first.
 */
void clyde_loopcache_prepare(const struct clyde_loopcache *lc, bool evict,
			     struct clyde_loopcache_seen *seen);

#endif
