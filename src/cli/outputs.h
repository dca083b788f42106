/*
 * Where a run's result goes, for the commands that write it once at the
 * end (`clyde tree`, `clyde dev`, `clyde zcav`): --json FILE, --csv FILE
 * (appended to), a log file (zcav -l) and the results history.
 *
 * Every destination is opened before the work starts, so that a mistyped
 * path costs nothing (exit 1, nothing run), and written at the end
 * through a temporary file renamed over it (core/outfile.h), so that a
 * full disk or an interruption keeps the old content.  Messages go to
 * stderr as "clyde CMD: ...", one line each.
 *
 * Typical use:
 *
 *	if (clyde_cli_outputs_open(&o, cmd, &dest) < 0) ... abort, exit 1
 *	... run ...
 *	f = clyde_cli_outputs_file(&o, CLYDE_CLI_OUT_JSON);
 *	if (f) ret |= clyde_cli_outputs_commit(&o, CLYDE_CLI_OUT_JSON,
 *					       write_json(f, run));
 *	...
 *	clyde_cli_outputs_abort(&o);   (always: drops what was not committed)
 */
#ifndef CLYDE_CLI_OUTPUTS_H
#define CLYDE_CLI_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cli_args.h"
#include "core/outfile.h"

struct clyde_history;

enum clyde_cli_out {
	CLYDE_CLI_OUT_JSON, /* --json */
	CLYDE_CLI_OUT_CSV,  /* --csv, appended to */
	CLYDE_CLI_OUT_LOG,  /* zcav -l */
	CLYDE_CLI_OUT_COUNT
};

/*
 * The destination options of `clyde tree`, `clyde dev` and `clyde zcav`
 * as entries of their option tables (cli/optmodel.h): -m/--label (not in
 * zcav), and --json, --csv, --db and --no-save.  TYPE is the command's
 * struct; it has cfg.label (a char array), json, csv, db and no_save.
 */
#define CLYDE_CLI_LABEL_OPT(TYPE, GROUP)                                   \
	{                                                                  \
		.short_name = 'm', .name = "label", .type = CLYDE_OPT_BUF, \
		.group = (GROUP), .arg = "NAME",                           \
		CLYDE_OPT_FIELD(TYPE, cfg.label), .kind = "label",         \
		.help = "name of the run (default: host name)"             \
	}
#define CLYDE_CLI_DEST_OPTS(TYPE, GROUP)                                           \
	{ .name = "json",                                                          \
	  .type = CLYDE_OPT_STRING,                                                \
	  .group = (GROUP),                                                        \
	  .arg = "FILE",                                                           \
	  CLYDE_OPT_FIELD(TYPE, json),                                             \
	  .kind = "file name",                                                     \
	  .help = "write the result as JSON (- for stdout)" },                     \
		{ .name = "csv",                                                   \
		  .type = CLYDE_OPT_STRING,                                        \
		  .group = (GROUP),                                                \
		  .arg = "FILE",                                                   \
		  CLYDE_OPT_FIELD(TYPE, csv),                                      \
		  .kind = "file name",                                             \
		  .help = "append a CSV line, a header first when FILE is new or " \
			  "empty (-: header and line on stdout)" },                \
		CLYDE_CLI_OPT_DB(                                                  \
			(GROUP),                                                   \
			"results history to save the run in (default: "            \
			"$XDG_DATA_HOME/clyde/results.db)",                        \
			CLYDE_OPT_FIELD(TYPE, db)),                                \
	{                                                                          \
		.name = "no-save", .type = CLYDE_OPT_FLAG, .group = (GROUP),       \
		CLYDE_OPT_FIELD(TYPE, no_save),                                    \
		.help = "do not save the run in the history"                       \
	}

/* What the command line asked for; NULL: not wanted. */
struct clyde_cli_dest {
	const char *path[CLYDE_CLI_OUT_COUNT];
	const char *db; /* NULL: the default history */
	bool no_save;
};

struct clyde_cli_outputs {
	const char *cmd; /* "tree", "dev", ...: for the messages */
	const char *path[CLYDE_CLI_OUT_COUNT];
	struct clyde_outfile file[CLYDE_CLI_OUT_COUNT];
	bool open[CLYDE_CLI_OUT_COUNT];
	struct clyde_history *h; /* NULL: not saved */
	bool db_created;	 /* the history did not exist before */
	const char *db;		 /* --db (NULL: the default), borrowed */
	char who[32];		 /* "clyde tree": the history's messages */
	bool deferred;		 /* busy at the start: opened only to save */
};

/*
 * Open every destination of d, and the history unless d->no_save (a --db
 * the user named must work; the default history only costs a warning,
 * unless it is damaged).  A --csv file that exists must be readable: its lines
 * are copied into the new one at the end.  Returns 0, or -1 after printing
 * one line; clyde_cli_outputs_abort() then releases what was opened.
 */
int clyde_cli_outputs_open(struct clyde_cli_outputs *o, const char *cmd,
			   const struct clyde_cli_dest *d);

/* The stream to write destination `which` to, or NULL when it is not
 * open (not asked for, or already committed). */
FILE *clyde_cli_outputs_file(struct clyde_cli_outputs *o,
			     enum clyde_cli_out which);

/*
 * Start the --csv file: copy the old file's lines (and its mode) into the
 * new one, ending with a line end.  *header is set when the file was new
 * or empty, so that the caller writes the column names first.  Returns 0
 * or a negative errno (to hand to clyde_cli_outputs_commit()).
 */
int clyde_cli_outputs_csv_begin(struct clyde_cli_outputs *o, bool *header);

/*
 * Finish destination `which`, written with result rc (0 or a negative
 * errno): commit it, or drop it when rc < 0.  Returns 0, or -1 after
 * printing "clyde CMD: OPT: cannot write PATH: ..." (the old content is
 * kept).
 */
int clyde_cli_outputs_commit(struct clyde_cli_outputs *o,
			     enum clyde_cli_out which, int rc);

/*
 * Save the result document doc (len bytes, the run's JSON) in the history
 * when one is open, then close it.  doc NULL: the document could not be
 * made, for the reason `why`.  Returns 0, or -1 after printing one line
 * when the result was not saved: the command then exits 3 (what it
 * printed and wrote is complete, but the run is not kept).
 */
int clyde_cli_outputs_save(struct clyde_cli_outputs *o, const char *doc,
			   size_t len, const char *why);

/* Will clyde_cli_outputs_save() save (the history open, or busy at the
 * start and opened at the save)? */
bool clyde_cli_outputs_saving(const struct clyde_cli_outputs *o);

/* Drop every destination not committed (removing the temporary files),
 * and close the history, removing one this run created and did not use.
 * Safe to call more than once. */
void clyde_cli_outputs_abort(struct clyde_cli_outputs *o);

#endif
