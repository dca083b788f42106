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

/* Its lines of `clyde history --help`. */
void clyde_history_changes_help(FILE *f);

#endif
