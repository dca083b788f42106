/*
 * A run spread over the ranks of a communicator (comm.h): clyde-mpi.  The
 * suite runs unchanged on every rank; this module adds what makes the ranks
 * one run:
 *
 *  - agreement: clyde_dist_agree() before every test and at the end of
 *    every run.  Each rank passes its status (0, or the positive errno it
 *    failed with) and all get the largest.  A rank that fails announces it
 *    at its next agreement, which is the one the others are waiting in
 *    (before their next test, or at the end), so every rank stops after
 *    the same agreement and the collectives never go out of step.  The
 *    test that was running when a rank failed runs to its end elsewhere.
 *  - merging: clyde_dist_merge_run() moves every rank's spans (start and end
 *    on rank 0's clock, comm.h) and latency histogram to rank 0, which
 *    folds them as `-c N` folds its workers (clyde_test_sum_spans: total
 *    work over the last end minus the first start; histograms merged
 *    bucket by bucket, so exactly) and keeps every rank's share for the
 *    JSON (clyde_dist_json).
 *  - failures: clyde_dist_failures() brings every rank's message to rank 0.
 *
 * Library code: nothing here prints or exits (except comm->ops->abort).
 */
#ifndef CLYDE_DIST_DIST_H
#define CLYDE_DIST_DIST_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "dist/comm.h"
#include "dist/dist_wire.h"
#include "results/result.h"

/* A peer failed: returned where the local rank was told, not the cause. */
#define CLYDE_DIST_PEER_FAILED (-ECANCELED)

/* The most items (tests of the suite, phases of a tree) of one run. */
#define CLYDE_DIST_MAX_ITEMS CLYDE_TEST_COUNT

/* The room for a path one rank tells another. */
#define CLYDE_DIST_PATH 4096

/* One rank's part of one test (or tree phase), on rank 0's clock. */
struct clyde_dist_share {
	uint64_t start_ns; /* its first worker's start */
	uint64_t end_ns;   /* its last worker's end */
	uint64_t bytes;
	uint64_t ops;		 /* operations; entries for a tree phase */
	bool in_bytes;		 /* the rate counts bytes, not ops */
	bool stonewalled;	 /* --stonewall cut a worker of this rank */
	struct clyde_hist *hist; /* owned; NULL when none */
	/* Its own figures of the test, of its target kind (its mount's
	 * traffic: dist/dist_wire.h); kept false when no rank's were
	 * merged. */
	struct clyde_dist_figs figs;
};

struct clyde_dist {
	struct clyde_comm *comm; /* borrowed */
	bool shared;		 /* --shared: one scratch directory */
	/* --stonewall: every test ends this long after the ranks were
	 * released (0: off).  At the deadline the watchdog sets *wall (the
	 * context's `stonewall`); the command that honours it sets wall. */
	double stonewall_s;
	atomic_int *wall;
	/* --read-shift N: rank r's read-side tests read the files of rank
	 * (r + N) mod size (-1: not given).  Rank 0: where each rank found
	 * them (its own path to the other's scratch directory; "" its own
	 * files), for the JSON. */
	long read_shift;
	char (*read_from)[CLYDE_DIST_PATH];
	/* The tests that read the other rank's files (set by the command:
	 * workloads/bonnie.h's clyde_bonnie_reads_other). */
	bool (*reads_other)(enum clyde_test t);
	/* Rank 0: every rank's host. */
	char (*hosts)[CLYDE_HOST_MAX];
	/* Rank 0: per merged run, per item, comm->size shares (NULL for an
	 * item that did not run), and the items' names. */
	unsigned nruns;
	struct clyde_dist_share *(*shares)[CLYDE_DIST_MAX_ITEMS];
	const char *(*item_name)(int item);

	/* The watchdog of the running test (clyde_dist_watch). */
	pthread_t watch;
	bool watching;
	atomic_bool watch_quit;
	atomic_bool peer_stopped; /* another rank's failure stopped this one */
	atomic_int *watch_stop;	  /* set when it does: the ctx's `failed` */
	uint64_t wall_at_ns;	  /* the running test's deadline, or 0 */
};

/*
 * While a test (or tree phase) runs, watch for another rank's failure: a
 * thread polls comm->ops->notified and, when told, sets *stop (the
 * context's `failed`, which every workload loop polls), so this rank stops
 * in the middle of its test instead of at its end.  The next agreement
 * (clyde_dist_agree, clyde_dist_end) stops the watchdog first, so that
 * only one thread uses the communicator at a time.  With a stonewall
 * (d->stonewall_s and d->wall set) it clears *wall now and sets it
 * stonewall_s seconds later (CLOCK_MONOTONIC, from this call, which
 * follows the agreement that released the ranks).  Does nothing without
 * notify support.  Returns 0 or a negative errno.
 */
int clyde_dist_watch(struct clyde_dist *d, atomic_int *stop);

/* Learn every rank's host (collective).  Returns 0 or a negative errno. */
int clyde_dist_init(struct clyde_dist *d, struct clyde_comm *comm);
void clyde_dist_release(struct clyde_dist *d);

/*
 * Write `pattern` to out[0..cap) with %r replaced by the rank, %h by the
 * host name and %% by %.  Returns 0, or -EINVAL for another % sequence and
 * -ENAMETOOLONG when it does not fit.
 */
int clyde_dist_expand(const struct clyde_comm *c, const char *pattern,
		      char *out, size_t cap);

/* The largest status any rank passed (collective), or a negative errno
 * when the communicator failed.  Every agreement has the same shape (two
 * numbers), so that a rank announcing a failure from any point meets the
 * others wherever they agree next; `value`, when not NULL, is the second
 * number: every rank gets the largest (NULL passes INT64_MIN). */
int clyde_dist_agree(struct clyde_dist *d, int status, int64_t *value);

/*
 * End one run on every rank (collective): `ret` is what the suite returned
 * here.  Unless this rank already learned of a failure (ret ==
 * CLYDE_DIST_PEER_FAILED) it announces its status; when all succeeded, the
 * run is merged into rank 0's `run` (whose params say ranks * c workers).
 * Returns 0, the local error, CLYDE_DIST_PEER_FAILED, or a communicator
 * error.
 */
int clyde_dist_end_run(struct clyde_dist *d, int ret, struct clyde_run *run);

/*
 * The end of a run, whatever it measured: announce `ret` as
 * clyde_dist_end_run() does and, when every rank succeeded, call
 * merge(d, arg) on every rank (a collective), then agree on its outcome.
 */
int clyde_dist_end(struct clyde_dist *d, int ret,
		   int (*merge)(struct clyde_dist *d, void *arg), void *arg);

/* Rank 0: a new row of shares for the run being merged (the other ranks
 * do nothing).  Returns 0 or -ENOMEM. */
int clyde_dist_add_run(struct clyde_dist *d);

/* The same for a tree run (dist_tree.c): `start_ns` are this rank's phase
 * starts on its own clock (when the ranks were released). */
struct clyde_tree_run;
int clyde_dist_end_tree(struct clyde_dist *d, int ret,
			struct clyde_tree_run *run, const uint64_t *start_ns);

/*
 * Bring every rank's status and message to rank 0 (collective).  On rank 0
 * `out` receives one line per rank that failed by itself ("rank R on HOST:
 * MESSAGE"), the peers that only stopped left out; *interrupted is set on
 * every rank when any rank was interrupted (exit 5 rather than 3).
 */
int clyde_dist_failures(struct clyde_dist *d, int ret, const char *msg,
			char *out, size_t cap, bool *interrupted);

struct clyde_jw;
/* The "mpi" member of the result document: ranks, hosts, clocks, every
 * rank's and every host's share of every test (docs/mpi.md).  `arg` is a
 * const struct clyde_dist * (rank 0's). */
void clyde_dist_json(struct clyde_jw *w, const void *arg);

#endif
