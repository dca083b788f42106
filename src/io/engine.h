/*
 * I/O engines: how a test moves buffers to and from a file, with one or
 * many requests in flight.  The contract has the shape of fio's
 * ioengine_ops: a caller fills requests, QUEUES them, COMMITS what is
 * queued, and REAPS completions with getevents(min, max).  Every engine is
 * one file that fills one struct clyde_engine_ops (psync: engine_psync.c,
 * io_uring: engine_uring.c) and one line of the table in engine.c.
 *
 * Who goes through it: the tests that move a file's or a device's data in
 * requests, and only they: clyde run's per-char, block and seek tests
 * (workloads/bonnie_io.c), clyde dev's tests and zcav (workloads/dev_job.c)
 * and the calibration's probe (workloads/calibrate.c).  The file tests
 * (workloads/bonnie_files.c, which write each created file's data and
 * read it back) and the tree generator and walker (workloads/tree_gen.c,
 * tree_walk.c) call write() and read() themselves: they measure
 * metadata, each file's data is a few transfers on a descriptor of its
 * own, and an engine would add only a call.
 *
 * Instances.  An engine instance (struct clyde_engine) belongs to ONE
 * thread: it is made with clyde_engine_init() for a queue depth (the most
 * requests the caller may have handed to it and not yet reaped) and freed
 * with clyde_engine_release().  Instances are not shared between threads.
 *
 * A request's life:
 *
 *   fill op, fd, buf, len, off (and user, for the caller's bookkeeping)
 *   clyde_engine_queue()      the engine takes the request; a synchronous
 *                             engine (psync) performs it right here
 *   clyde_engine_commit()     submits everything queued since the last
 *                             commit (a no-op for a synchronous engine)
 *   clyde_engine_getevents()  waits for at least `min` completed requests
 *                             and hands back up to `max`, in completion
 *                             order; a request handed back is the caller's
 *                             again and may be refilled and queued at once
 *
 * The caller owns the request and its buffer throughout: both must stay
 * valid and untouched from queue until the request comes back from
 * getevents.  Callers never see the difference between a synchronous and an
 * asynchronous engine: a request a synchronous engine completed in queue is
 * returned by the next getevents like any other.
 *
 * Results are raw: `result` is the byte count of one transfer (which may be
 * short: the caller resubmits the rest, see clyde_engine_read_full) or a
 * negative errno; an fsync gives 0 or -errno.  Errors of one request never
 * fail queue/commit/getevents: those return a negative errno only when the
 * engine itself cannot go on (a full queue, a ring that cannot be entered).
 *
 * Time.  When the instance has a clock, a request's submit_ns is read just
 * before the engine hands it to the kernel and complete_ns once the engine
 * has seen it complete (for a batch reaped together, once for the batch),
 * both from that clock (CLOCK_MONOTONIC unless a test replaced the
 * context's clock): complete_ns - submit_ns is the request's latency.
 * Without a clock (clyde_engine_init with clock == NULL) both stay 0, so
 * that callers timing per-byte system calls pay for no clock reads.
 *
 * The library never prints: clyde_engine_init() returns a negative errno
 * and leaves one line in e->err ("io_uring: not built in", "io_uring: not
 * permitted (...)") for the caller to report.
 */
#ifndef CLYDE_IO_ENGINE_H
#define CLYDE_IO_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/ctx.h"

#define CLYDE_ENGINE_MAX_DEPTH 1024u

enum clyde_io_op {
	CLYDE_IO_READ,
	CLYDE_IO_WRITE,
	CLYDE_IO_FSYNC, /* buf, len and off are ignored */
};

struct clyde_io_req {
	enum clyde_io_op op;
	int fd;
	void *buf;
	size_t len;
	off_t off;
	ssize_t result;	      /* set at completion: bytes, 0, or -errno */
	uint64_t submit_ns;   /* set by the engine (see "Time" above) */
	uint64_t complete_ns; /* set by the engine */
	void *user;	      /* the caller's; the engine never touches it */
};

struct clyde_engine;

/* What a queue operation did with a request. */
enum clyde_engine_q {
	CLYDE_ENGINE_QUEUED,	/* taken: submitted by the next commit */
	CLYDE_ENGINE_COMPLETED, /* already done (synchronous engines) */
};

/*
 * One engine.  The public functions below check the depth and keep the
 * bookkeeping; an engine implements only what the kernel interface needs.
 */
struct clyde_engine_ops {
	const char *name;
	/* Capabilities, which the layers above read instead of the name. */
	/* One request at a time, done in queue (no commit, no getevents):
	 * a depth above 1 runs as 1. */
	bool sync;
	/* The depth when none is asked for (clyde dev's --iodepth). */
	unsigned default_depth;
	/* Set up e->priv for e->depth requests in flight; 0 or a negative
	 * errno with one line in e->err.  May be NULL. */
	int (*init)(struct clyde_engine *e);
	/* Free what init made.  Called only after a successful init, with
	 * nothing in flight.  May be NULL. */
	void (*cleanup)(struct clyde_engine *e);
	/* Take one request: a clyde_engine_q, or a negative errno when the
	 * engine cannot take it. */
	int (*queue)(struct clyde_engine *e, struct clyde_io_req *r);
	/* Submit what was queued; 0 or a negative errno.  NULL for a
	 * synchronous engine. */
	int (*commit)(struct clyde_engine *e);
	/* Wait for at least min (<= the number in flight) completions and
	 * store up to max of them in out; the count or a negative errno.
	 * NULL for a synchronous engine. */
	int (*getevents)(struct clyde_engine *e, unsigned min, unsigned max,
			 struct clyde_io_req **out);
	/* Wait for at least one completion or until the clock passes
	 * deadline_ns (the instance's clock), whichever comes first, and
	 * store up to max in out; the count (0: the deadline came) or a
	 * negative errno.  NULL for a synchronous engine. */
	int (*getevents_until)(struct clyde_engine *e, uint64_t deadline_ns,
			       unsigned max, struct clyde_io_req **out);
};

/* One thread's engine instance.  The fields are the engine's and the
 * public functions'; callers read only `ops`, `depth`, `max_inflight` and
 * `err`. */
struct clyde_engine {
	const struct clyde_engine_ops *ops;
	unsigned depth;
	/* The most requests queued before the engine submits them itself
	 * (clyde_engine_set_batch; 1 from init: each at once, as fio's
	 * default iodepth_batch_submit=1). */
	unsigned batch;
	clyde_clock_fn clock; /* NULL: no timestamps */
	void *clock_arg;
	void *priv;	   /* the engine's state */
	unsigned queued;   /* queued, not yet committed (async engines) */
	unsigned inflight; /* committed, not yet reaped (async engines) */
	unsigned ndone;	   /* completed in queue, not yet reaped */
	struct clyde_io_req **done; /* those, oldest first (depth slots) */
	/* The most requests this instance ever had in the kernel at once:
	 * for an asynchronous engine, committed and not yet reaped, counted
	 * after each commit; 1 for a synchronous engine once it performed a
	 * request (it performs them one at a time); 0 before any. */
	unsigned max_inflight;
	/* How full the queue was kept: the integral over time of the
	 * requests committed and not yet reaped (request-nanoseconds), and
	 * the time at least one was (ns), measured between the engine's
	 * stamps at each commit and each reap.  Their ratio is the mean in
	 * flight while busy (clyde_engine_mean_inflight); a caller that
	 * batches its reaping and refilling keeps it below max_inflight by
	 * the time a freed slot waits to be refilled.  Asynchronous engines
	 * with a clock only (both stay 0 otherwise). */
	uint64_t inflight_area;
	uint64_t busy_ns;
	/* The calls that handed queued requests to the kernel, and the
	 * requests they handed: their ratio is the mean a call (1 one at a
	 * time, up to the batch of clyde_engine_set_batch).  Asynchronous
	 * engines only; both stay 0 for one that performs requests as they
	 * are queued. */
	uint64_t submit_calls;
	uint64_t submitted;
	uint64_t last_ns; /* the stamp of the last change (0: none yet) */
	uint64_t now_ns;  /* the engine's latest stamp (engine_uring.c) */
	char err[160];
};

extern const struct clyde_engine_ops clyde_engine_psync;
extern const struct clyde_engine_ops clyde_engine_io_uring;

/* Look an engine up by name ("psync", "io_uring"); NULL when there is
 * none.  An engine that was not built in is still found: its init fails
 * with a message that says so. */
const struct clyde_engine_ops *clyde_engine_find(const char *name);

/* Whether the engine called `name` (a result's, a stored run's) performs
 * one request at a time, whatever the depth it was given; false for a
 * name no engine has. */
bool clyde_engine_name_sync(const char *name);

/* The engines' names for messages and help texts: "psync|io_uring", made
 * from the engine table in its order, so no list of names is typed
 * anywhere else (test_engine checks the text). */
const char *clyde_engine_names(void);

/*
 * Make an instance of `ops` for `depth` (1..CLYDE_ENGINE_MAX_DEPTH)
 * requests in flight, timestamping with `clock` (may be NULL).  Returns 0,
 * or a negative errno with one line in e->err; after a failure there is
 * nothing to release.
 */
int clyde_engine_init(struct clyde_engine *e,
		      const struct clyde_engine_ops *ops, unsigned depth,
		      clyde_clock_fn clock, void *clock_arg);

/* Whether `ops` can make an instance of `depth` here, and whether it can
 * keep that depth: 0, or a negative errno with one line in err (errlen
 * bytes): init's, or -EINVAL for psync at a depth above 1 (it performs one
 * request at a time; the line names --iodepth and --engine io_uring). */
int clyde_engine_check(const struct clyde_engine_ops *ops, unsigned depth,
		       char *err, size_t errlen);

/* Free an instance.  Requests still in flight are waited for first (their
 * buffers must stay valid until this returns). */
void clyde_engine_release(struct clyde_engine *e);

/* Requests handed to the engine and not yet reaped. */
static inline unsigned clyde_engine_busy(const struct clyde_engine *e)
{
	return e->queued + e->inflight + e->ndone;
}

/* Hand `r` to the engine: 0, or -EBUSY when depth requests are already
 * busy, or the engine's negative errno.  An asynchronous engine submits
 * what is queued once `batch` requests are (clyde_engine_set_batch). */
int clyde_engine_queue(struct clyde_engine *e, struct clyde_io_req *r);

/*
 * Submit queued requests in batches of up to n (1..CLYDE_ENGINE_MAX_DEPTH;
 * --iodepth-batch): with 1, the default, each request goes to the kernel
 * as soon as it is queued, as fio submits by default; with more, queue
 * waits for n (getevents submits a smaller rest before it waits; fio's
 * --iodepth_batch_submit=n groups only its first fill so, docs/dev.md).
 * One system call carries up to n requests (submit_calls, submitted), which
 * costs less CPU, and the block layer receives them together (plugged),
 * which some devices take better and others worse (docs/dev.md has the
 * figures of this project's VM).
 */
void clyde_engine_set_batch(struct clyde_engine *e, unsigned n);

/* Submit what was queued: 0 or a negative errno. */
int clyde_engine_commit(struct clyde_engine *e);

/*
 * Reap completed requests: waits until at least `min` are complete (min is
 * lowered to the number busy, so min = 1 with nothing busy returns 0 at
 * once) and stores up to `max` in out.  Returns the count or a negative
 * errno.
 */
int clyde_engine_getevents(struct clyde_engine *e, unsigned min, unsigned max,
			   struct clyde_io_req **out);

/*
 * Reap what completes until deadline_ns (the instance's clock, which
 * must be set): returns as soon as at least one request is complete, or
 * when the deadline comes (then 0); with nothing busy it sleeps until the
 * deadline (a signal ends the wait early, with 0).  Stores up to max in
 * out; the count or a negative errno.  clyde dev's --rate waits for a request's due time with it, so that a
 * completion that comes meanwhile is stamped when it comes.
 */
int clyde_engine_wait_until(struct clyde_engine *e, uint64_t deadline_ns,
			    unsigned max, struct clyde_io_req **out);
/*
 * The mean number of requests in flight while any was (see inflight_area):
 * for an asynchronous engine with a clock, from its stamps; 1 for a
 * synchronous engine that performed a request (one at a time); 0 when it
 * cannot tell (no clock, or nothing done).
 */
double clyde_engine_mean_inflight(const struct clyde_engine *e);

/* The clock reading an engine stamps requests with (0 without a clock). */
static inline uint64_t clyde_engine_stamp(const struct clyde_engine *e)
{
	return e->clock ? e->clock(e->clock_arg) : 0;
}

/*
 * Blocking helpers for synchronous callers, for an instance with nothing
 * else busy.  clyde_engine_do performs one request (queue, commit, wait)
 * and returns its result.  read_full/write_full transfer exactly len bytes,
 * resubmitting short transfers; they return 0, a negative errno, or
 * -ENODATA when a read meets the end of the file early.  clyde_engine_fsync
 * returns 0 or a negative errno.
 */
ssize_t clyde_engine_do(struct clyde_engine *e, struct clyde_io_req *r);
int clyde_engine_read_full(struct clyde_engine *e, int fd, void *buf,
			   size_t len, off_t off);
int clyde_engine_write_full(struct clyde_engine *e, int fd, const void *buf,
			    size_t len, off_t off);
int clyde_engine_fsync(struct clyde_engine *e, int fd);

#endif
