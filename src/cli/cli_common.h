/* Pieces several subcommands share. */
#ifndef CLYDE_CLI_COMMON_H
#define CLYDE_CLI_COMMON_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/optmodel.h"

#include "core/ctx.h"
#include "dist/run_dist.h"
#include "io/scratch.h"
#include "job/job.h"
#include "report/compare.h"
#include "results/loaded.h"

/*
 * Catch SIGINT, SIGTERM, SIGHUP and SIGPIPE: each sets the returned flag,
 * which the command hands to its context (ctx.interrupted) so that running
 * work stops and cleans up.  SIGPIPE (the reader of standard output or
 * error went away, as in `clyde ... | head -1`) would otherwise kill the
 * process and leave the scratch directory behind; caught, the write fails
 * with EPIPE and the run stops like any other interruption.  No
 * SA_RESTART: a blocking wait (a semaphore, stdin, opening a FIFO) must
 * return.  The flag is process-wide, as signal dispositions are.
 */
volatile sig_atomic_t *clyde_cli_catch_signals(void);

/* True once one of those signals arrived. */
bool clyde_cli_interrupted(void);

/* What every command gives a job (job/job.h): its lines said on stderr,
 * the flags of those signals (caught now).  ui->arg is left as it is. */
void clyde_cli_job_ui(struct clyde_job_ui *ui);

/* A struct clyde_run_dist for clyde-mpi's `dist` (NULL: plain clyde)
 * with the exit statuses of cli/commands.h. */
#define CLYDE_CLI_RUN_DIST(dist)                               \
	{                                                      \
		.d = (dist),                                   \
		.st = {.usage = CLYDE_EXIT_USAGE,              \
		       .failed = CLYDE_EXIT_TEST_FAILED,       \
		       .interrupted = CLYDE_EXIT_INTERRUPTED } \
	}

/*
 * Flush standard output and look at its error flag: a full disk, a closed
 * pipe or /dev/full must not pass for success.  A command whose exit
 * status depends on it before it returns (a history subcommand naming
 * itself) calls this; the dispatcher's clyde_cli_stdout_close() then says
 * nothing more.  Returns 0, or -1 after printing "clyde CMD: standard
 * output: write error: ..." on stderr.
 */
int clyde_cli_stdout_done(const char *cmd);

/*
 * The dispatcher's check, once, after the command returned `status`:
 * flush and close standard output; when that fails (or an earlier write
 * did), print "PROG: standard output: write error: REASON" on stderr
 * unless clyde_cli_stdout_done() already said it, and return `failed`
 * in place of a status of 0 (a non-zero status stands).  Otherwise
 * returns status.  Nothing may write to stdout afterwards.
 */
/* "PROG: standard output: write error: strerror(err)" on stderr (err 0:
 * the reason is gone, an earlier printf failed), for a command that found
 * the failure itself; the check at exit then says nothing more. */
void clyde_cli_stdout_failed(const char *prog, int err);

/* The errno of the first write to standard output that failed, 0 when
 * none did (or clyde_cli_stdout_open() was not called). */
int clyde_cli_stdout_errno(void);

/* Before the command: route stdout through a writer that keeps the
 * errno of the first failed write, which stdio forgets, so that the check
 * at exit names the reason (ENOSPC for /dev/full, EPIPE). */
void clyde_cli_stdout_open(void);

int clyde_cli_stdout_close(const char *prog, int status, int failed);

/*
 * Print a note on stderr ("PROG: note: ...") for each temporary file that
 * an earlier write to the output `path` left (clyde_outfile_find_stale():
 * a clyde killed while writing its JSON), with the command that removes
 * it.  Call it before opening path.
 */
void clyde_cli_note_stale_tmp(const char *prog, const char *path);

/* Print s for a POSIX shell, in single quotes. */
void clyde_cli_put_quoted(FILE *f, const char *s);

/*
 * Load result files (clyde JSON, bonnie++ or clyde CSV) into set for
 * compare and report, printing "clyde CMD: ..." on stderr for each file
 * that cannot be read (missing, too big: see CLYDE_LOADED_MAX_FILE) and
 * each malformed line (the other lines of a file are still used), then
 * merge repeats when asked.  Returns 0 when every file gave at least one
 * run, -1 otherwise (a mistyped name must not drop a column in silence;
 * the messages are printed).
 */
int clyde_cli_load_results(struct clyde_ctx *ctx, const char *cmd, char **files,
			   size_t nfiles, bool merge,
			   struct clyde_loaded_set *set);

/*
 * The command line compare and report share: RESULT files ("-" is
 * standard input; "--" ends the options), --label A,B,... (repeatable,
 * adding to the list), --baseline N, --merge-repeats, -h/--help, as the
 * option-model entries of CLYDE_CLI_RESULTS_OPTS (cli/optmodel.h) in the
 * command's own table, over a struct TYPE with a member `r` of this type.
 */
struct clyde_cli_results {
	char **files; /* point into argv */
	size_t nfiles;
	char **labels; /* point into `store` */
	size_t nlabels;
	char **store; /* copies of the --label arguments; owned */
	size_t nstore;
	long baseline; /* 0: none */
	bool merge;
};

/* --label's entry: appends to the struct clyde_cli_results at o->off. */
int clyde_cli_results_label_opt(void *base, const struct clyde_opt *o,
				const char *name, const char *arg, char *err,
				size_t len);

/* --format of clyde compare and clyde history compare: the compare
 * table's formats by name, for a CLYDE_OPT_ENUM entry (the one list). */
extern const struct clyde_opt_choice clyde_cli_compare_formats[];

#define CLYDE_CLI_RESULTS_OPTS(TYPE)                                              \
	{ .name = "label",                                                        \
	  .type = CLYDE_OPT_CALL,                                                 \
	  .arg = "A,B,...",                                                       \
	  .call = clyde_cli_results_label_opt,                                    \
	  CLYDE_OPT_FIELD(TYPE, r),                                               \
	  .help = "name the results in order (repeatable)" },                     \
		{ .name = "baseline",                                             \
		  .type = CLYDE_OPT_UINT,                                         \
		  .arg = "N",                                                     \
		  CLYDE_OPT_FIELD(TYPE, r.baseline),                              \
		  .min = 1,                                                       \
		  .max = INT64_MAX,                                               \
		  .kind = "a result number",                                      \
		  .form = "use a result number from 1",                           \
		  .help = "add each result's change in % against result N" },     \
		{ .name = "merge-repeats",                                        \
		  .type = CLYDE_OPT_FLAG,                                         \
		  CLYDE_OPT_FIELD(TYPE, r.merge),                                 \
		  .help = "fold consecutive CSV lines of one file with the same " \
			  "name and settings (bonnie++ -x) into one result with " \
			  "repeats; warn when they disagree" },                   \
	{                                                                         \
		.short_name = 'h', .name = "help", .type = CLYDE_OPT_HELP,        \
		.help = "this text"                                               \
	}

/*
 * Parse argv with set (whose entries include CLYDE_CLI_RESULTS_OPTS) into
 * base; r is base's member r, whose files are the operands.  Returns 0 to
 * go on, 1 when --help was printed with usage(stdout) (exit 0), -1 on a
 * usage error (one line "clyde CMD: ..." on stderr).
 */
int clyde_cli_results_parse(const char *cmd, const struct clyde_optset *set,
			    int argc, char **argv, void *base,
			    struct clyde_cli_results *r,
			    void (*usage)(FILE *f));
void clyde_cli_results_release(struct clyde_cli_results *r);

/* Append the labels of "A,B,C" to r->labels, split at every comma (in a
 * copy kept in r->store): what --label does for compare, report and
 * history.  Returns 0 or -ENOMEM. */
int clyde_cli_results_add_labels(struct clyde_cli_results *r, const char *s);

/*
 * Load the results, build the compare table (labels, baseline) and hand
 * it to the caller; messages are printed as "clyde CMD: ...".  Returns 0
 * with *cmp to release with clyde_compare_release(), or -1.
 */
int clyde_cli_results_table(struct clyde_ctx *ctx, const char *cmd,
			    const struct clyde_cli_results *r,
			    struct clyde_loaded_set *set,
			    struct clyde_compare *cmp);

#endif
