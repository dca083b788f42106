/*
 * zcav: throughput by position, as bonnie++'s zcav(8) measures it.  The
 * range is cut into blocks (-b, 512 MiB); each block is read (or, with -w,
 * written and fsync'ed after every chunk) in chunks (-b B:C, 1 MiB) one
 * request at a time, and its time recorded.  zcav(8) writes zeros; clyde
 * writes new data from the run's generator (zeros with --pattern zeros).  -s N reads only
 * every N-th block; -c N makes N passes, and a position's time is zcav's
 * average of its passes: with more than two, the highest and lowest thirds
 * are dropped and the rest averaged.
 *
 * Flags (struct clyde_zcav_point): a block whose time is under
 * CLYDE_ZCAV_MIN_NS is imprecise; when reading, the holes of the file
 * behind the device are looked up before the first pass with
 * SEEK_DATA/SEEK_HOLE (the target itself when it is a regular file, a
 * loop device's backing file from its loop/offset), and a block with
 * holes is flagged: a sparse image's holes are read from no disk.
 */
#ifndef CLYDE_WORKLOADS_ZCAV_H
#define CLYDE_WORKLOADS_ZCAV_H

#include "core/ctx.h"
#include "io/engine.h"
#include "io/pattern.h"
#include "results/dev_result.h"

#define CLYDE_ZCAV_DEFAULT_BLOCK (512ull << 20)
#define CLYDE_ZCAV_DEFAULT_CHUNK (1ull << 20)
#define CLYDE_ZCAV_MAX_LOOPS 1000u
#define CLYDE_ZCAV_MIN_SKIP 2u
#define CLYDE_ZCAV_MAX_SKIP 20u

void clyde_zcav_config_init(struct clyde_zcav_config *z);

/* The zcav settings against the run's range and logical block (after
 * run->range_bytes is known).  0 or -EINVAL with the message. */
int clyde_zcav_check(struct clyde_ctx *ctx, const struct clyde_dev_run *run);

/* Run zcav on the open fd (O_DIRECT) into run->zcav and
 * run->tests[CLYDE_DEV_ZCAV], with bufs holding at least one chunk and
 * -w's data from pat.  0 or a negative errno. */
int clyde_zcav_run(struct clyde_ctx *ctx, struct clyde_dev_run *run, int fd,
		   unsigned char *bufs, const struct clyde_engine_ops *engine,
		   struct clyde_pattern_gen *pat);

/* The bytes of [off, off + len) of fd that are holes (SEEK_DATA and
 * SEEK_HOLE); -errno when the filesystem cannot tell. */
int64_t clyde_zcav_hole_bytes(int fd, uint64_t off, uint64_t len);

/* zcav's average of n times (see above); 0 for n == 0.  Sorts t. */
uint64_t clyde_zcav_average(uint64_t *t, size_t n);

#endif
