/*
 * The destination options of the commands that write a run's result once
 * at the end (`clyde tree`, `clyde dev`, `clyde zcav`), as entries of
 * their option tables; the job opens, writes and commits them
 * (job/job_outputs.h).
 */
#ifndef CLYDE_CLI_OUTPUTS_H
#define CLYDE_CLI_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cli_args.h"

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

#endif
