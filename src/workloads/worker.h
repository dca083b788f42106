/*
 * What a test body sees: one worker of `-c N`, its directory, its random
 * generator and the span it fills.  The suite (bonnie.c) starts one thread
 * per worker for each test, and the body calls clyde_worker_go() when its
 * set-up is done: that waits until every worker is ready, so all of them are
 * released together, and starts the worker's clock.  clyde_worker_end()
 * stops it.  Work between the two is what the test measures.
 */
#ifndef CLYDE_WORKLOADS_WORKER_H
#define CLYDE_WORKLOADS_WORKER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "core/rng.h"
#include "io/pattern.h"
#include "results/result.h"
#include "workloads/bonnie.h"

/* A thread's CPU time at one moment (clyde_cpu_mark). */
struct clyde_cpu_mark {
	uint64_t ns;	  /* CLOCK_THREAD_CPUTIME_ID: exact */
	uint64_t user_ns; /* RUSAGE_THREAD: for the user/system split */
	uint64_t sys_ns;
};

struct clyde_worker {
	struct clyde_ctx *ctx;
	const struct clyde_bonnie_config *cfg;
	unsigned index; /* 0 .. concurrency-1 */

	int scratch_fd;	     /* the run's scratch directory */
	const char *scratch; /* its path, for messages */
	int dirfd;	     /* this worker's own directory (file tests) */
	char dir_path[4096]; /* its path, for messages */
	bool dir_reopen;     /* dirfd was open when the suite let it go */
	char io_name[64];    /* this worker's IO test file, in scratch_fd */

	uint64_t seed;		      /* the run's (--verify's headers) */
	struct clyde_rng rng;	      /* this worker's stream */
	struct clyde_pattern_gen pat; /* data to write */

	enum clyde_test test;	 /* the test running now */
	const char *test_label;	 /* "block write", ... for messages */
	struct clyde_span *span; /* this worker's share of the test */

	pthread_barrier_t *start; /* shared by the workers of one test */
	/* The test's dirty/writeback sampler (core/series.h; may be NULL). */
	struct clyde_series_sampler *sampler;
	/* The target's traffic counters for the series (NULL: not a
	 * network mount). */
	clyde_series_wire_fn wire;
	void *wire_arg;
	struct clyde_progress *progress; /* may be NULL */
	struct clyde_cpu_mark cpu0;	 /* this thread's CPU at the start */

	/* State a body keeps from one test to the next (the random-order
	 * names from random create, used by random stat and delete); the
	 * body that allocates it frees it, or clyde_worker_release does. */
	void *state;
	void (*state_free)(void *state);
	/* The files the last sequential or random create made: all of them,
	 * or fewer when --stonewall cut it (its stat and delete take these). */
	size_t files_made;
};

/* --verify's generations of the IO file's blocks. */
#define CLYDE_VERIFY_GEN_WRITE 1u
#define CLYDE_VERIFY_GEN_REWRITE 2u

/* Wait for all workers, then start this worker's clock.  Returns the start
 * time.  Must be called exactly once by every body, even one that failed
 * during set-up (pass the error as `err`: the others are then released
 * and stop too). */
uint64_t clyde_worker_go(struct clyde_worker *w, int err);

/* Stop this worker's clock (after the last op of the timed region).  The
 * span's CPU is then this thread's over the window; a body that ran the
 * test in helper threads (the seekers) adds theirs to the span. */
void clyde_worker_end(struct clyde_worker *w);

/* The calling thread's CPU time now, and the CPU it used since mark `m`
 * (taken by the same thread): exact in total, split into user and system
 * time as getrusage(RUSAGE_THREAD) samples it. */
void clyde_cpu_mark(struct clyde_cpu_mark *m);
void clyde_cpu_since(const struct clyde_cpu_mark *m, uint64_t *user_ns,
		     uint64_t *sys_ns);

/* Account one operation that began at `t0`: counts it in span->ops when
 * `count` is true and keeps the slowest latency.  Returns the time now,
 * which can serve as the next operation's start. */
uint64_t clyde_worker_op(struct clyde_worker *w, uint64_t t0, int count);

/* The same for an operation whose latency `ns` is already known (requests
 * timed by an engine from submission to completion). */
void clyde_worker_latency(struct clyde_worker *w, uint64_t ns, int count);

/* Add `n` units (bytes, seeks or files) to the progress display. */
static inline void clyde_worker_progress(struct clyde_worker *w, uint64_t n)
{
	if (w->progress)
		atomic_fetch_add_explicit(&w->progress->done, n,
					  memory_order_relaxed);
}

/* Record an error for this worker's test ("<test>: <what> <path>: errno")
 * and return -errnum. */
int clyde_worker_err(struct clyde_worker *w, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The test bodies.  Each returns 0 or a negative errno (-EINTR when the run
 * was interrupted).  bonnie_io.c: */
int clyde_test_putc(struct clyde_worker *w);
int clyde_test_put_block(struct clyde_worker *w);
int clyde_test_rewrite(struct clyde_worker *w);
int clyde_test_getc(struct clyde_worker *w);
int clyde_test_get_block(struct clyde_worker *w);
int clyde_test_seeks(struct clyde_worker *w);
/* bonnie_files.c: */
int clyde_test_create(struct clyde_worker *w); /* seq and random create */
int clyde_test_stat(struct clyde_worker *w);   /* seq and random stat */
int clyde_test_delete(struct clyde_worker *w); /* seq and random delete */

#endif
