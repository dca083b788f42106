/*
 * The parts of `clyde sweep` (cmd_sweep.c: the command line and the
 * run), in files of their own: cmd_sweep_check.c, the checks before
 * anything runs; cmd_sweep_show.c, the progress line, the messages and
 * the table.  Internal to the command.
 */
#ifndef CLYDE_CLI_CMD_SWEEP_H
#define CLYDE_CLI_CMD_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/progress.h"
#include "core/ctx.h"
#include "exp/exp.h"
#include "exp/plan.h"

struct clyde_history;

struct sweep_cli {
	const char *file;
	const char *resume;
	const char *show;
	bool list;
	const char *db;
	const char *metrics; /* --metrics KEY,... or "all" */
	bool dry_run;
	bool keep_going;
	bool quiet;
	char **defines; /* point into argv */
	size_t ndefines;
};

/* What the progress line shows; written by the main thread. */
struct sweep_progress {
	struct clyde_live live; /* the line's thread (cli/progress.h) */
	const struct clyde_ctx *ctx;
	uint64_t start_ns;
	size_t visits_total, visits_done, visits_skipped;
	size_t point, npoints;
	unsigned repeat, nrepeats;
	const struct clyde_sweep *s;
	char label[96]; /* the point's axis values */
	char what[160];
};

/* The engine's workload kinds, with clyde run's and clyde tree's own
 * parsers to check their options. */
struct sweep_ops {
	struct clyde_exp_wl_ops kinds[CLYDE_SWEEP_KINDS];
	const struct clyde_exp_wl_ops *v[CLYDE_SWEEP_KINDS];
};

/* An experiment file is a regular file of a sane size: a directory would
 * read as empty and /dev/zero would never end.  Returns 0, or -1 after
 * printing one line. */
int clyde_sweep_cli_check_file(const char *path);

/* The engine's workload kinds, run's and tree's with the parsers of
 * clyde run and clyde tree as their check. */
void clyde_sweep_cli_ops_init(struct sweep_ops *o);

/* The workload part of each metric key of `keys` (from `where`, named
 * `what` in the message); 0, or -1 after printing one line. */
int clyde_sweep_cli_check_metrics(const struct clyde_sweep *s, const char *keys,
				  const char *where, const char *what);

/* The progress line's draw (cli/progress.h) and the engine's hooks
 * (struct clyde_exp_hooks), arg a struct sweep_progress. */
bool clyde_sweep_cli_draw(void *arg);
void clyde_sweep_cli_say(void *arg, const char *msg);
void clyde_sweep_cli_progress(void *arg, size_t point, unsigned repeat,
			      const char *what);
void clyde_sweep_cli_visit(void *arg, bool skipped);

/* Print experiment id's table with `metrics` on f; 0, or -1 with the
 * message in ctx. */
int clyde_sweep_cli_show_table(struct clyde_ctx *ctx, struct clyde_history *h,
			       const char *id, const char *metrics, FILE *f);

/* Open the history; 0, or -1 after printing one line. */
int clyde_sweep_cli_open_history(struct clyde_ctx *ctx, const char *db,
				 bool create, struct clyde_history **h);

/* --list: one line per experiment; 0, or -1 with the message in ctx. */
int clyde_sweep_cli_list(struct clyde_ctx *ctx, struct clyde_history *h);

#endif
