/*
 * One stream of direct I/O requests over a range, kept `depth` deep through
 * an I/O engine (io/engine.h) by the queue-depth driver (io/depth_driver.h):
 * what both the device tests (dev.c) and zcav (zcav.c) time.  Requests are `len` bytes; sequential ones go from
 * `start` up, random ones land at a uniformly chosen multiple of `len` in
 * [start, start + span).  Each request's latency, from submission to
 * completion as the engine stamps it, goes into `hist` when there is one.
 *
 * Nothing prints; errors are recorded in ctx naming `what` (the device)
 * and the offset, and returned as negative errno values (-EINTR when the
 * context says stop).
 */
#ifndef CLYDE_WORKLOADS_DEV_JOB_H
#define CLYDE_WORKLOADS_DEV_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"
#include "core/hist.h"
#include "core/rng.h"
#include "core/series.h"
#include "io/engine.h"
#include "io/pattern.h"

struct clyde_dev_job {
	const char *what; /* the device's name, for messages */
	int fd;
	bool write;
	uint32_t len;	/* bytes per request */
	uint64_t n;	/* requests; 0: as many as runtime_ns allows */
	uint64_t start; /* bytes */
	uint64_t span;	/* random: the range the requests land in */
	bool random;
	struct clyde_rng rng; /* random offsets */
	unsigned depth;
	unsigned batch; /* submitted together (clyde_engine_set_batch) */
	const struct clyde_engine_ops *engine;
	bool fsync_each;	 /* fsync after every request (zcav -w) */
	bool fsync_end;		 /* fsync once all are done (timed) */
	struct clyde_hist *hist; /* may be NULL */
	/* By time (0: by count): no request starts after ramp_ns +
	 * runtime_ns from the job's start; a sequential job goes round its
	 * range again as often as it takes.  What completes in the first
	 * ramp_ns is done but not counted (bytes, ops, latency), and
	 * elapsed_ns runs from the ramp's end (ramp_ns only with
	 * runtime_ns). */
	uint64_t runtime_ns, ramp_ns;
	/* depth buffers of len bytes each (aligned); borrowed. */
	unsigned char *bufs;
	/* Writes: the data.  Each request's buffer is filled with the next
	 * len bytes of the generator just before the request is handed to
	 * the engine, so every byte written is new (or bonnie++'s zeros, as
	 * the generator was made); the filling counts in elapsed_ns but not
	 * in any request's latency, as in clyde run's block write.
	 * Borrowed; NULL only for reads. */
	struct clyde_pattern_gen *pat;
	/* What completes after the ramp, per interval from the ramp's end
	 * (core/series.h); may be NULL.  Borrowed. */
	struct clyde_series *series;
	/* --until-steady (by time only, with a series): stop once the
	 * least-squares slope of the IOPS over the last steady_window full
	 * intervals is within steady_pct percent of their mean per second
	 * (fio's ss=iops_slope); 0: off. */
	double steady_pct;
	uint32_t steady_window;
};

/* The outcome: bytes moved, requests done, time from the first submission
 * (or the ramp's end) to the last completion (and the final fsync). */
struct clyde_dev_job_out {
	uint64_t bytes;
	uint64_t ops;
	uint64_t elapsed_ns;
	uint64_t ramp_ops;     /* done during the ramp, not counted */
	unsigned max_inflight; /* the engine's (io/engine.h) */
	double mean_inflight;  /* clyde_engine_mean_inflight() */
	uint64_t submit_calls; /* the engine's (io/engine.h) */
	uint64_t submitted;
	/* --until-steady: the test stopped because it was steady, at
	 * steady_ns after the ramp (the end of the window that was). */
	bool steady;
	uint64_t steady_ns;
};

int clyde_dev_job_run(struct clyde_ctx *ctx, struct clyde_dev_job *job,
		      struct clyde_dev_job_out *out);

#endif
