/*
 * What the files of `clyde history` share: cmd_history.c (the
 * dispatcher, the options, --help, label, note and delete),
 * cmd_history_show.c (list and show) and cmd_history_table.c (compare,
 * report, export and import).  Not a public header.  Each subcommand
 * parses, calls store/history.h and prints; exit statuses as
 * cmd_history.c says.
 */
#ifndef CLYDE_CLI_CMD_HISTORY_H
#define CLYDE_CLI_CMD_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/optmodel.h"
#include "core/ctx.h"
#include "store/history.h"

/* What every subcommand gets. */
struct hist_cli {
	struct clyde_ctx ctx;
	const char *db; /* NULL: the default path */
	const char *cmd;
	char **operands; /* hist_parse's argv of operands; freed at the end */
};

/* The options of the subcommands, as fields of one struct. */
struct hist_opts {
	const char *db;
	uint64_t limit;
	const char *output;
	bool all;
	const char *label;
	bool force;
	struct clyde_cli_results labels; /* --labels, split at commas */
	bool labels_failed;		 /* out of memory in --labels */
};

/* A table and its length, as hist_parse() takes them. */
#define HIST_OPTS(T) (T), sizeof(T) / sizeof((T)[0])

/* Each subcommand's options (cmd_history.c, cmd_history_table.c). */
extern const struct clyde_opt hist_list_opts[2], hist_db_opts[1],
	hist_export_opts[3], hist_import_opts[4], hist_compare_opts[6],
	hist_report_opts[7];

/* "clyde history CMD: MESSAGE; see clyde history --help" (the message
 * escaped); returns exit status 1. */
int hist_usage_error(const struct hist_cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print the context's message (escaped) and return exit status 1. */
int hist_fail(struct hist_cli *c);
/* Writing the result on standard output failed with -err. */
int hist_stdout_failed(struct hist_cli *c, int err);
/* The positional ids argv[first..argc): at least min, at most max (0:
 * any); an exit status after the message. */
int hist_parse_ids(struct hist_cli *c, int argc, char **argv, int first,
		   int min, int max, int64_t **ids, size_t *n);
/* Parse a subcommand's argv with its table into o (see cmd_history.c). */
int hist_parse(struct hist_cli *c, const struct clyde_opt *table, size_t n,
	       int *argc, char ***argv, struct hist_opts *o);
/* Open the history for writing, or reading only; 0 or 1 after the
 * message. */
int hist_open_db(struct hist_cli *c, bool create, struct clyde_history **h);
int hist_open_db_ro(struct hist_cli *c, struct clyde_history **h);
/* A run date as the list shows it ("-" when unknown). */
void hist_fmt_date(char *buf, size_t len, int64_t t);
/* s, or "-" when it is empty. */
const char *hist_or_dash(const char *s);
/* "file:line" (or "file") of an imported run into buf. */
const char *hist_source_text(char *buf, size_t len,
			     const struct clyde_history_entry *e);
/* The loader's messages about set (escaped), then the failure rc of
 * loading stored runs, if any: 0, or exit status 1. */
struct clyde_loaded_set;
int hist_loaded(struct hist_cli *c, const struct clyde_loaded_set *set, int rc);
/* The --help of clyde history. */
void hist_usage(FILE *f);

/* The subcommands of cmd_history_show.c and cmd_history_table.c. */
int hist_cmd_list(struct hist_cli *c, int argc, char **argv);
int hist_cmd_show(struct hist_cli *c, int argc, char **argv);
int hist_cmd_compare(struct hist_cli *c, int argc, char **argv);
int hist_cmd_report(struct hist_cli *c, int argc, char **argv);
int hist_cmd_export(struct hist_cli *c, int argc, char **argv);
int hist_cmd_import(struct hist_cli *c, int argc, char **argv);

#endif
