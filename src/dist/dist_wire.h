/*
 * clyde-mpi: every rank's own figures of a test (its target kind's, such
 * as its NFS or SMB mount's traffic) merged into the aggregate test and
 * kept per rank (docs/nfs.md, "Many clients").  The kind does the merge
 * and writes each rank's JSON (io/target.h's struct clyde_target_figs:
 * merge, rank_json); nothing here names a kind.
 *
 * Per test every rank sends one record of the same size: which kind its
 * figures are (its place in io's table, clyde_target_kinds; -1 for none,
 * or a kind without a merge hook), and their figs_size bytes, in room for
 * the largest kind with a merge hook (the table is the binary's, the same
 * on every rank; a kind whose record would pass CLYDE_DIST_FIGS_MAX is
 * not merged).  Rank 0 hands the first kind in table order that some
 * rank's figures are of the n ranks' figures (zeros for a rank with
 * another kind's or none); when its merge took them (some rank measured
 * any), the sum is the test's figures of that kind and every rank's own
 * stay in its share.
 */
#ifndef CLYDE_DIST_DIST_WIRE_H
#define CLYDE_DIST_DIST_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/json_out.h"
#include "dist/comm.h"
#include "io/target.h"
#include "results/result.h"

#define CLYDE_DIST_FIGS_MAX 65536

/* One rank's own figures of one test, in its share. */
struct clyde_dist_figs {
	bool kept;			     /* the ranks' were merged */
	const struct clyde_target_ops *kind; /* NULL: the rank had none */
	void *data;			     /* kind->figs_size bytes, owned */
};

/* Every rank's figures of test t to rank 0's *all (malloc'ed there, n
 * records of *stride bytes; collective).  Returns 0 or a negative
 * errno. */
int clyde_dist_figs_gather(struct clyde_comm *c,
			   const struct clyde_test_result *t,
			   unsigned char **all, size_t *stride);

/* Rank 0: the n ranks' records merged into t by their kind's merge,
 * each rank's own figures into shares[r].figs. */
struct clyde_dist_share;
void clyde_dist_figs_fold(struct clyde_test_result *t, const unsigned char *all,
			  size_t stride, size_t n,
			  struct clyde_dist_share *shares);

/* One rank's members in its share's JSON: every kind's with rank_json,
 * in table order (a null for those not the rank's). */
void clyde_dist_figs_json(struct clyde_jw *w, const struct clyde_dist_figs *f);

/* Free f's data. */
void clyde_dist_figs_free(struct clyde_dist_figs *f);

#endif
