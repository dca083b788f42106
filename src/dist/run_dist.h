/*
 * What `clyde run` and `clyde tree` do differently when they run on every
 * rank of clyde-mpi (dist/dist.h): the directory of -d with %r and %h, the
 * shared scratch directory of --shared, the agreement that ends the
 * set-up, the failures rank 0 names, and the clean-up order.  Plain clyde
 * passes no clyde_run_dist and none of this runs.
 *
 * Library code: nothing here prints or exits.  The statuses it agrees on
 * are the caller's exit statuses (a larger one is worse, the agreement
 * keeps the largest); the three it returns of its own are the caller's
 * too (struct clyde_run_dist_status).  What the user must be told of a
 * failure is left in rd->msg for the caller to print.
 */
#ifndef CLYDE_DIST_RUN_DIST_H
#define CLYDE_DIST_RUN_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"
#include "dist/dist.h"
#include "io/scratch.h"

/* The room for one rank's "HOST:PATH" of its scratch directory. */
#define CLYDE_RUN_DIST_WHERE 512

/* The caller's exit statuses this module returns. */
struct clyde_run_dist_status {
	int usage;	 /* bad options or set-up */
	int failed;	 /* a rank failed or was lost */
	int interrupted; /* SIGINT, SIGTERM, a broken communicator */
};

/* The room for clyde_run_dist_failed()'s message. */
#define CLYDE_RUN_DIST_MSG 4608

struct clyde_run_dist {
	struct clyde_dist *d; /* NULL: not distributed */
	struct clyde_run_dist_status st;
	bool setup_agreed; /* clyde_run_dist_setup has run */
	bool failed;	   /* an agreement said a rank failed */
	bool removed;	   /* clyde_run_dist_remove has run */
	bool made_dir;	   /* this rank created dir */
	char dir[4096];	   /* -d after %r/%h */
	/* --read-shift: the directory of the other rank's files as this
	 * rank reaches it ("" for its own), and that rank. */
	char read_path[CLYDE_DIST_PATH];
	int read_rank;
	/* Where each rank's scratch directory is ("HOST:PATH"), so that the
	 * one of a rank that is lost can be named: every rank's on rank 0
	 * (malloc'ed, size slots), rank 0's on every rank. */
	char (*where)[CLYDE_RUN_DIST_WHERE];
	char where0[CLYDE_RUN_DIST_WHERE];
	/* clyde_run_dist_failed(): what to tell the user on this rank (one
	 * or more lines, without a "clyde-mpi: " prefix or a final newline),
	 * "" for nothing. */
	char msg[CLYDE_RUN_DIST_MSG];
};

/* True on the rank that prints, saves and writes --json (rank 0), and
 * always without MPI. */
bool clyde_run_dist_leader(const struct clyde_run_dist *rd);

/*
 * The scratch directory of this rank: -d's `pattern` expanded (created when
 * missing, its parent must exist), then a scratch directory made in it; with
 * --shared rank 0 makes it and the others open the same one.  On success
 * *dir is the expanded directory (rd->dir) and *seed rank 0's seed, which
 * every rank then uses.  Returns 0, CLYDE_DIST_PEER_FAILED when another
 * rank failed before, or a negative errno with the message in ctx.
 */
int clyde_run_dist_scratch(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			   const char *pattern, const char **dir,
			   uint64_t *seed, struct clyde_scratch **out);

/*
 * --read-shift N (rd->d->read_shift >= 0; else returns 0 at once): find
 * the scratch directory of rank (rank + N) mod size as this rank reaches
 * it: through this rank's own -d (the other's scratch directory name in
 * it: one export mounted once per client, -d /mnt/c%r), else at the other
 * rank's own path (one shared filesystem, -d /scratch/r%r); with --shared
 * the one directory.  A directory that is this rank's own scratch
 * directory does not count.  rd->read_path gets it ("" when the other
 * rank is this one), rank 0's d->read_from every rank's.  Collective:
 * every rank calls it after clyde_run_dist_scratch(), `s` its scratch
 * directory or NULL.  Returns 0, or a negative errno with the message in
 * ctx.
 */
int clyde_run_dist_read_from(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			     const struct clyde_scratch *s);

/*
 * End the set-up on every rank: `status` is this rank's exit status so far
 * (0 when it can run).  Returns the status every rank then uses: 0 when all
 * can run, else the largest of the ranks' (each failing rank printed its
 * reason).
 * When `size_mib` is not NULL every rank's becomes the smallest (the sizes
 * each rank calibrated differ).  Runs once; later calls return `status`.
 */
int clyde_run_dist_setup(struct clyde_run_dist *rd, int status,
			 uint64_t *size_mib);

/*
 * A run that failed here (`ret`, the message in ctx) or elsewhere
 * (CLYDE_DIST_PEER_FAILED): on rank 0 rd->msg gets one line per failed
 * rank with its host and reason.  When a rank was lost (killed, its node
 * down), the lowest rank still running (rank 0, or rank 1 when rank 0 was
 * lost) gets one line naming it and the scratch directory it leaves.
 * Every other rank gets "" (or what it alone knows when the communicator
 * broke).  Returns the exit status, the same on every rank:
 * st.interrupted when any rank was interrupted (or ctx->interrupted is
 * set here), else st.failed.
 */
int clyde_run_dist_failed(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			  int ret);

/*
 * Remove the scratch directory (with --shared only rank 0 does, after
 * every rank has stopped using it) and, once every rank has removed its
 * own, the directory clyde made for -d.  Returns 0 or a negative errno with
 * the message in ctx.
 */
int clyde_run_dist_remove(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			  struct clyde_scratch *scratch);

/*
 * Interrupted (SIGINT, or the SIGTERM mpirun sends when a rank died): remove
 * this rank's own scratch directory (and the -d directory it made) at
 * once, before any more waiting for the other ranks, since mpirun kills
 * the ranks a second after its SIGTERM.  Not with --shared (rank 0 removes
 * the one directory when every rank has stopped).  `scratch` stays
 * allocated: clyde_run_dist_remove() frees it later (finding it gone).
 */
void clyde_run_dist_remove_early(struct clyde_run_dist *rd,
				 struct clyde_ctx *ctx,
				 struct clyde_scratch *scratch);

/* The last call on every path out of a command (collective): the set-up
 * agreement and the removal's wait when this rank has not made them, so
 * that a rank that stops early never leaves the others waiting.  Returns
 * `status`, or the set-up's agreed status. */
int clyde_run_dist_finish(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			  int status);

#endif
