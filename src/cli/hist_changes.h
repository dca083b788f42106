/*
 * `clyde history changes` (cmd_history_changes.c), called by `clyde
 * history`'s dispatcher (cmd_history.c) with its context and the --db
 * given before the command.
 */
#ifndef CLYDE_CLI_HIST_CHANGES_H
#define CLYDE_CLI_HIST_CHANGES_H

#include <stdio.h>

#include "core/ctx.h"

/* Run the subcommand: argv[0] is "changes".  Returns the exit status. */
int clyde_history_changes_main(struct clyde_ctx *ctx, const char *db, int argc,
			       char **argv);

/* `clyde history report`'s page: clyde_html_write() with the change
 * points among its columns marked on the throughput charts.  Returns 0
 * or a negative errno (the message in ctx, or the stream's). */
struct clyde_compare;
int clyde_history_report_write(struct clyde_ctx *ctx, FILE *f,
			       const struct clyde_compare *cmp,
			       const char *title);

/* Its lines of `clyde history --help`. */
void clyde_history_changes_help(FILE *f);

#endif
