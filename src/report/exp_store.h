/*
 * Experiments in the results history (`clyde sweep`): what was planned and
 * what finished, kept beside the runs so that an interrupted experiment
 * can be resumed and a finished one analysed.
 *
 * Tables (schema version 2, added by clyde_exp_store_migrate_v2()):
 *  - experiments: one row per experiment: its id, name, title, the file
 *    it came from and that file's whole text (resume does not need the
 *    file), the -D defines, the axis and workload names, its state
 *    ("running", "finished", "stopped", "failed"), dates;
 *  - experiment_points: one row per point: its axis values;
 *  - experiment_runs: one row per finished workload run at a point and
 *    repeat: status "ok" or "failed" (with the message); a clyde run or
 *    tree result is stored as a normal run in `runs` (so `clyde history
 *    list/show` see it) and referenced by run_id; a timed command's
 *    measurement is a small JSON document kept in the row itself
 *    ({"kind": "timed", "elapsed_ns": ..., ...}, see docs/sweep.md).
 *
 * Nothing here prints; errors name the database path and are returned as
 * negative errno values (history.h).  Without SQLite every function
 * returns -ENOTSUP.
 */
#ifndef CLYDE_REPORT_EXP_STORE_H
#define CLYDE_REPORT_EXP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "report/experiment.h"
#include "report/history.h"

/* The schema step that adds the tables above (history.c's migrations). */
int clyde_exp_store_migrate_v2(struct clyde_ctx *ctx, struct clyde_history *h);

/* What a new experiment is: borrowed strings, copied into the database. */
struct clyde_exp_new {
	const char *name;
	const char *title; /* may be NULL */
	const char *file;
	const char *text;    /* the experiment file's text */
	const char *defines; /* the -D NAME=VALUE, one per line ("" none) */
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

/*
 * Fill *out (which the caller releases with clyde_exp_release()) with
 * experiment `id` as experiment.h describes it: axes and points as
 * planned (in file order), one metric per figure any run gave
 * ("<workload>.<test>" for run and tree workloads, "time.<workload>" and
 * "time.<workload>.cpu" for timed commands, plus
 * "time.<workload>.read_bytes"/".write_bytes", amounts, when a device
 * was counted),
 * the samples of every finished repeat in run order, `failed` for points
 * whose every run failed, and `config` from the first result of a point
 * (filesystem, mount options, device).  Returns 0, -ENOENT for an unknown
 * id, or another negative errno, with a message in ctx.  This is the one
 * call `clyde report --experiment ID` needs.  *out is zeroed after a
 * failure; releasing it then (as the caller may) is harmless.
 */
int clyde_history_load_experiment(struct clyde_ctx *ctx,
				  struct clyde_history *h, const char *id,
				  struct clyde_exp *out);

#endif
