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

/*
 * --verify of a write job: every request's buffer is stamped (io/verify.h)
 * with its offset, the seed and a generation of its own (the requests'
 * count, from 1), and the generation of the last write of each request's
 * place is kept, so that the place can be checked when it is read back
 * (clyde_dev_verify_read).  Two writes of one place in flight together
 * may land in either order: the place then accepts either.  Memory: 5
 * bytes per place of the range (span / len), at most
 * CLYDE_DEV_VERIFY_MAX_PLACES.
 */
#define CLYDE_DEV_VERIFY_MAX_PLACES (1ull << 26)
struct clyde_dev_verify {
	uint64_t seed;
	uint64_t nplaces;
	uint32_t *gen;	   /* per place; CLYDE_DEV_VERIFY_EITHER marks two
			    * in flight together; 0: not written */
	uint8_t *inflight; /* per place: writes in the engine */
	uint32_t next_gen;
};
#define CLYDE_DEV_VERIFY_EITHER 0x80000000u

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
	/* --verify (writes): the places' generations; NULL: no stamps.
	 * Borrowed. */
	struct clyde_dev_verify *verify;
	/* What completes after the ramp, per interval from the ramp's end
	 * (core/series.h); may be NULL.  Borrowed. */
	struct clyde_series *series;
	/* --until-steady (by time only, with a series): stop once the
	 * least-squares slope of the IOPS over the last steady_window full
	 * intervals is within steady_pct percent of their mean per second
	 * (fio's ss=iops_slope); 0: off. */
	double steady_pct;
	uint32_t steady_window;
	/* --rate: requests per second (0: as fast as the depth allows).
	 * Request i is due at the job's start + i / rate_ops (ramp
	 * included, core/loadcurve.h) and is sent then, or at once when
	 * the schedule is behind (at most depth in flight); its latency
	 * runs from its due time, not from when it was sent, so a device
	 * that falls behind shows in the latencies (coordinated omission). */
	double rate_ops;
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
	/* --rate: how late the counted requests were sent after their due
	 * times (the schedule measured): summed and the most. */
	uint64_t lag_sum_ns, lag_max_ns;
};

int clyde_dev_job_run(struct clyde_ctx *ctx, struct clyde_dev_job *job,
		      struct clyde_dev_job_out *out);

/* The places of a job (span / len) for --verify, allocated; 0, -ENOMEM,
 * or -E2BIG (with a message) beyond CLYDE_DEV_VERIFY_MAX_PLACES. */
int clyde_dev_verify_init(struct clyde_ctx *ctx, struct clyde_dev_verify *v,
			  const struct clyde_dev_job *job, uint64_t seed);
void clyde_dev_verify_release(struct clyde_dev_verify *v);

/*
 * Read back, after a write job, every place it wrote and check it
 * (io/verify.h) through the job's descriptor (O_DIRECT: from the device,
 * not the page cache).  Returns 0, or -EIO with one line naming job->what,
 * the first wrong block's offset, what was expected and what was found.
 * *blocks gets the 4 KiB blocks checked.
 */
int clyde_dev_verify_read(struct clyde_ctx *ctx,
			  const struct clyde_dev_job *job,
			  const struct clyde_dev_verify *v, uint64_t *blocks);

#endif
