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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "dist/comm.h"
#include "results/result.h"

/* A peer failed: returned where the local rank was told, not the cause. */
#define CLYDE_DIST_PEER_FAILED (-ECANCELED)

/* One rank's part of one test, on rank 0's clock. */
struct clyde_dist_share {
	uint64_t start_ns; /* its first worker's start */
	uint64_t end_ns;   /* its last worker's end */
	uint64_t bytes;
	uint64_t ops;
	struct clyde_hist *hist; /* owned; NULL when none */
};

struct clyde_dist {
	struct clyde_comm *comm; /* borrowed */
	bool shared;		 /* --shared: one scratch directory */
	double stonewall_s;	 /* reserved: 0 */
	/* Rank 0: every rank's host. */
	char (*hosts)[CLYDE_HOST_MAX];
	/* Rank 0: per merged run, per test, comm->size shares. */
	unsigned nruns;
	struct clyde_dist_share *(*shares)[CLYDE_TEST_COUNT];
};

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
