/*
 * Experiments in the results history (`clyde sweep`): what was planned and
 * what finished, kept beside the runs so that an interrupted experiment
 * can be resumed and a finished one analysed.
 *
 * Tables (schema version 2, added in history_schema.c):
 *  - experiments: one row per experiment: its id, name, title, the file
 *    it came from and that file's whole text (resume does not need the
 *    file), the --define values, the axis and workload names, its state
 *    ("running", "finished", "stopped", "failed"), dates;
 *  - experiment_points: one row per point: its axis values;
 *  - experiment_runs: one row per finished workload run at a point and
 *    repeat: status "ok" or "failed" (with the message); a clyde run or
 *    tree result is stored as a normal run in `runs` (so `clyde history
 *    list/show` see it) and referenced by run_id; a timed command's
 *    measurement is a small JSON document kept in the row itself
 *    ({"kind": "timed", "elapsed_ns": ..., ...}, see docs/sweep.md).
 *
 * This is the database only: what the rows mean for an analysis (struct
 * clyde_exp, analysis/experiment.h) is built by analysis/exp_load.h from
 * clyde_exp_store_get() and the two row walks at the end.
 *
 * Nothing here prints; errors name the database path and are returned as
 * negative errno values (history.h).  Without SQLite every function
 * returns -ENOTSUP (store/nosqlite.c).
 */
#ifndef CLYDE_STORE_EXP_STORE_H
#define CLYDE_STORE_EXP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "store/history.h"

/* What a new experiment is: borrowed strings, copied into the database. */
struct clyde_exp_new {
	const char *name;
	const char *title; /* may be NULL */
	const char *file;
	const char *text;    /* the experiment file's text */
	const char *defines; /* the --define NAME=VALUE, one per line ("" none) */
	size_t naxes;
	char *const *axis_names;
	size_t nworkloads;
	char *const *wl_names;
	const char *const *wl_kinds; /* "run", "tree", "time" */
	size_t npoints;
	const char *const *values; /* npoints * naxes: point p axis a at
				    * [p * naxes + a] */
};

/*
 * Store a new experiment and its points (one transaction).  Its id is
 * "YYYYMMDD-HHMMSS-NAME" (UTC; -2, -3 ... appended when taken); *id_out
 * is a malloc'ed copy the caller frees.
 */
int clyde_exp_store_create(struct clyde_ctx *ctx, struct clyde_history *h,
			   const struct clyde_exp_new *e, char **id_out);

/* A stored experiment's header.  Strings owned; release with
 * clyde_exp_info_release(). */
struct clyde_exp_info {
	char *id, *name, *title, *file, *text, *defines, *state;
	char *axes;	 /* the axis names, tab-separated */
	char *workloads; /* "NAME KIND" per workload, tab-separated */
	int64_t created_unix;
};

void clyde_exp_info_release(struct clyde_exp_info *i);

/* Read experiment `id`: 0, -ENOENT (recorded) when there is none. */
int clyde_exp_store_get(struct clyde_ctx *ctx, struct clyde_history *h,
			const char *id, struct clyde_exp_info *out);

/* The experiments, newest first (*out: n entries, the caller releases each
 * and frees the array). */
int clyde_exp_store_list(struct clyde_ctx *ctx, struct clyde_history *h,
			 struct clyde_exp_info **out, size_t *n);

/* Set the state ("running", "finished", "stopped", "failed"). */
int clyde_exp_store_set_state(struct clyde_ctx *ctx, struct clyde_history *h,
			      const char *id, const char *state);

/* One finished (or failed) workload run at a point and repeat. */
struct clyde_exp_run_rec {
	size_t point;	      /* 0-based */
	unsigned repeat;      /* 1-based */
	const char *workload; /* its name */
	const char *kind;     /* "run", "tree", "time" */
	bool failed;
	const char *message; /* why it failed (may be NULL) */
	const char *doc;     /* ok: the clyde JSON result (run, tree) or the
			      * timed document (time); may be NULL if failed */
	size_t len;
};

/*
 * Save one run at once: a clyde result goes into `runs` (clyde_history_add)
 * and then its experiment row is written.  *run_id (may be NULL) gets the
 * id in `runs`, or 0.  Returns 0 or a negative errno.
 */
int clyde_exp_store_add_run(struct clyde_ctx *ctx, struct clyde_history *h,
			    const char *id, const struct clyde_exp_run_rec *r,
			    int64_t *run_id);

/* Whether (point, repeat, workload) finished ("ok") in experiment id. */
struct clyde_exp_done {
	size_t point;
	unsigned repeat;
	char workload[64];
	bool ok;
};

/* Every run row of experiment id, in the order saved.  *out is the
 * caller's to free. */
int clyde_exp_store_runs(struct clyde_ctx *ctx, struct clyde_history *h,
			 const char *id, struct clyde_exp_done **out,
			 size_t *n);

/* One point as planned: its 0-based number and its axis values
 * (tab-separated, in axis order).  Returning non-zero stops the walk and
 * is returned. */
typedef int (*clyde_exp_point_fn)(void *arg, size_t point, const char *values);

/* Every point of experiment id, in order. */
int clyde_exp_store_each_point(struct clyde_ctx *ctx, struct clyde_history *h,
			       const char *id, clyde_exp_point_fn fn,
			       void *arg);

/* One run row of a workload (borrowed for the call only). */
struct clyde_exp_row {
	size_t point;
	const char *kind; /* "run", "tree", "time" */
	bool ok;
	bool deleted;	 /* its run was deleted (clyde_history_delete) */
	const char *doc; /* the timed document (time) or the clyde result
			  * stored in `runs` (run, tree); NULL when none */
	size_t len;
};

typedef int (*clyde_exp_run_fn)(void *arg, const struct clyde_exp_row *r);

/* Every run row of `workload` in experiment id, in the order saved. */
int clyde_exp_store_each_run(struct clyde_ctx *ctx, struct clyde_history *h,
			     const char *id, const char *workload,
			     clyde_exp_run_fn fn, void *arg);

#endif
