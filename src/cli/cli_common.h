/* Pieces several subcommands share. */
#ifndef CLYDE_CLI_COMMON_H
#define CLYDE_CLI_COMMON_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/ctx.h"
#include "report/compare.h"
#include "report/loaded.h"

/*
 * Catch SIGINT, SIGTERM and SIGHUP: each sets the returned flag, which the
 * command hands to its context (ctx.interrupted) so that running work stops
 * and cleans up.  No SA_RESTART: a blocking wait (a semaphore, stdin) must
 * return.  The flag is process-wide, as signal dispositions are.
 */
volatile sig_atomic_t *clyde_cli_catch_signals(void);

/* True once one of those signals arrived. */
bool clyde_cli_interrupted(void);

/*
 * Load result files (clyde JSON, bonnie++ or clyde CSV) into set for
 * compare and report, printing "clyde CMD: ..." on stderr for each file
 * that cannot be read and each malformed line (the rest is still used),
 * then merge repeats when asked.  Returns 0 when at least one run was
 * read, -1 when nothing could be (the message is printed).
 */
int clyde_cli_load_results(struct clyde_ctx *ctx, const char *cmd, char **files,
			   size_t nfiles, bool merge,
			   struct clyde_loaded_set *set);

#endif
