/*
 * clyde's bonnie++ command line, as one table of the option model
 * (cli/optmodel.h): each option is one entry that names its field in
 * struct run_opts, its type, its bounds and its help line.  The parser,
 * the range messages and --help are all made from the table.
 *
 * To add an option: add its field to struct clyde_bonnie_config (with its
 * default in clyde_bonnie_config_init) or struct clyde_cli_extra, then one
 * entry in run_table below, e.g.
 *
 *	{ .name = "settle", .type = CLYDE_OPT_SECONDS, .arg = "SECONDS",
 *	  .group = GROUP_CLYDE, RUN_FIELD(cfg.settle_ns), .dmax = 3600,
 *	  .show_default = true, .help = "wait for the device to go idle" },
 *
 * and a line for it in docs/clyde.1 (t_help_man checks they agree).  A
 * .call is only for an argument with an inner syntax of its own (-s, -n)
 * or bonnie++'s special values (-p -1, a bare -f); a plain number, size,
 * name, choice, seconds or flag needs none.
 */
#include "cli/opts.h"
#include "cli/opts_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_args.h"
#include "cli/optmodel.h"
#include "core/series.h"
#include "core/size.h"
#include "env/settle.h"

enum opt_group {
	GROUP_BONNIE,
	GROUP_CLYDE,
};

#define RUN_FIELD(M) CLYDE_OPT_FIELD(struct run_opts, M)
#define RUN_GIVEN(M) CLYDE_OPT_GIVEN(struct run_opts, M)

static int fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record the one-line message and return -1. */
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const struct clyde_opt_choice sync_choices[] = {
	{ "s", CLYDE_SYNC_SEM },
	{ "p", CLYDE_SYNC_PROMPT },
	{ NULL, 0 },
};

static const struct clyde_opt_choice pattern_choices[] = {
	{ "random", CLYDE_PATTERN_RANDOM },
	{ "zeros", CLYDE_PATTERN_ZEROS },
	{ NULL, 0 },
};

/* --log-interval MS (cli_args.h). */

/*
 * Every option, in the order --help shows them: bonnie++'s in the order of
 * its usage message (its letters are bonnie++'s, kept for its users'
 * command lines), then clyde's own.  Help lines are kept short enough
 * that --help fits 80 columns; the model wraps longer ones.
 */
static const struct clyde_opt run_table[] = {
	{ .short_name = 'd',
	  .name = "dir",
	  .type = CLYDE_OPT_STRING,
	  .arg = "DIR",
	  RUN_FIELD(cfg.dir),
	  .kind = "directory name",
	  .help = "scratch directory clyde.<pid> goes in DIR (default .)" },
	{ .short_name = 's',
	  .name = "size",
	  .type = CLYDE_OPT_CALL,
	  .call = clyde_opts_size_opt,
	  .arg = "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]",
	  .suffixes = "mgt",
	  .max = MAX_MIB,
	  .form = "use MiB with an optional m, g or t suffix, "
		  "e.g. 512m or 4g[:chunk[:seeks[:seekers]]]",
	  .help = "IO tests: size in MiB (0 skips), chunk, seeks, seekers" },
	{ .short_name = 'n',
	  .name = "files",
	  .type = CLYDE_OPT_CALL,
	  .call = clyde_opts_files_opt,
	  .arg = "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]",
	  .suffixes = "m",
	  .shift = 10,
	  .max = MAX_NUM_UNITS,
	  .kind = "a number",
	  .form = "use a count of 1024 files with an optional m suffix, "
		  "e.g. 16 or 1m[:max[:min[:dirs[:chunk]]]]",
	  .note = "(units of 1024 files)",
	  .help = "file tests: NUM*1024 files (0 skips) of MIN..MAX bytes" },
	{ .short_name = 'm',
	  .name = "machine",
	  .type = CLYDE_OPT_CALL,
	  .call = clyde_opts_machine_opt,
	  .arg = "NAME",
	  .help = "machine name in the output (default: the host name)" },
	{ .short_name = 'r',
	  .name = "ram",
	  .type = CLYDE_OPT_UINT,
	  .arg = "MiB",
	  RUN_FIELD(cfg.ram_mib),
	  .suffixes = "mgt",
	  .max = MAX_MIB,
	  .form = "use MiB with an optional m, g or t suffix, e.g. 4096 or "
		  "4g (0 disables the RAM checks)",
	  .note = "(0 disables the RAM checks)",
	  .help = "RAM to assume; 0 disables the RAM checks" },
	{ .short_name = 'x',
	  .name = "runs",
	  .type = CLYDE_OPT_UINT,
	  .arg = "N",
	  RUN_FIELD(cfg.runs),
	  .min = 1,
	  .max = UINT32_MAX,
	  .form = "use a count of at least 1, e.g. 3",
	  .help = "run N times, CSV output only (header line once)" },
	{ .short_name = 'u',
	  .name = "user",
	  .type = CLYDE_OPT_CALL,
	  .call = clyde_opts_user_opt,
	  .arg = "USER[:GROUP]",
	  .help = "run the tests as USER (and GROUP)" },
	{ .short_name = 'g',
	  .name = "group",
	  .type = CLYDE_OPT_STRING,
	  .arg = "GROUP",
	  RUN_FIELD(cfg.group),
	  .kind = "group name",
	  .help = "run the tests as GROUP" },
	CLYDE_CLI_OPT_QUIET(0,
			    "only CSV on stdout, table on stderr, no progress",
			    RUN_FIELD(cfg.quiet)),
	{ .short_name = 'f',
	  .name = "fast",
	  .type = CLYDE_OPT_CALL,
	  .has_arg = CLYDE_ARG_OPTIONAL,
	  .call = clyde_opts_fast_opt,
	  .arg = "MiB",
	  .suffixes = "mgt",
	  .min = 1,
	  .max = MAX_MIB,
	  .form = "attach MiB with an optional m, g or t suffix, as in -f8 "
		  "or --fast=8; a bare -f skips the per-char tests",
	  .note = "a bare -f skips the per-char tests",
	  .help = "per-char test size (default 3); bare: skip those tests" },
	{ .short_name = 'b',
	  .name = "fsync",
	  .type = CLYDE_OPT_FLAG,
	  RUN_FIELD(cfg.fsync_each),
	  .help = "fsync after each write in the seek and file tests" },
	{ .short_name = 'D',
	  .name = "direct",
	  .type = CLYDE_OPT_FLAG,
	  RUN_FIELD(cfg.direct),
	  .help = "O_DIRECT on all IO tests (per-char tests skipped)" },
	{ .short_name = 'c',
	  .name = "concurrency",
	  .type = CLYDE_OPT_UINT,
	  .arg = "N",
	  RUN_FIELD(cfg.concurrency),
	  .min = 1,
	  .max = CLYDE_MAX_CONCURRENCY,
	  .show_range = true,
	  .show_default = true,
	  .help = "run N copies of each test at once" },
	{ .short_name = 'p',
	  .name = "processes",
	  .type = CLYDE_OPT_CALL,
	  .call = clyde_opts_processes_opt,
	  .arg = "N",
	  .min = 1,
	  .max = MAX_SYNC_PROCS,
	  .form = "use the number of processes, e.g. 4, or -1 to remove the "
		  "semaphores",
	  .note = "or -1 to remove the semaphores",
	  .help = "make semaphores for N processes and exit; -1 removes" },
	{ .short_name = 'y',
	  .name = "sync",
	  .type = CLYDE_OPT_ENUM,
	  .choices = sync_choices,
	  RUN_FIELD(cfg.sync_mode),
	  RUN_GIVEN(sync_mode_given),
	  .kind = "a sync mode",
	  .help = "wait at each test for -p processes (s) or stdin (p)" },
	CLYDE_CLI_OPT_SEED(0, "seed of the random number generator",
			   .short_name = 'z', .arg = "SEED",
			   .form = "use a decimal number, e.g. 12345",
			   RUN_FIELD(cfg.seed), RUN_GIVEN(cfg.seed_given)),
	{ .short_name = 'Z',
	  .name = "random-file",
	  .type = CLYDE_OPT_STRING,
	  .arg = "FILE",
	  RUN_FIELD(cfg.random_file),
	  .kind = "file name",
	  .help = "read the random numbers from FILE instead" },
	/* bonnie++ 2.00a's getopt string has "l:", but its option switch has
	 * no case for it, so "-l ARG" is consumed and does nothing (checked:
	 * a run with -l PATH creates nothing and prints the same). */
	{ .short_name = 'l',
	  .type = CLYDE_OPT_IGNORE,
	  .arg = "ARG",
	  .help = "accepted and ignored, as bonnie++ 2.00a does" },
	{ .name = "pattern",
	  .type = CLYDE_OPT_ENUM,
	  .group = GROUP_CLYDE,
	  .choices = pattern_choices,
	  RUN_FIELD(cfg.pattern),
	  .kind = "a pattern",
	  .show_default = true,
	  .help = "data: random or bonnie++'s zeros" },
	{ .name = "compress-percentage",
	  .type = CLYDE_OPT_UINT,
	  .group = GROUP_CLYDE,
	  .arg = "PCT",
	  RUN_FIELD(cfg.compress_pct),
	  .min = 0,
	  .max = 100,
	  .kind = "a percentage",
	  .help = "random data PCT% compressible (fio's "
		  "buffer_compress_percentage; 0: none)" },
	{ .name = "json",
	  .type = CLYDE_OPT_STRING,
	  .group = GROUP_CLYDE,
	  .arg = "FILE",
	  RUN_FIELD(extra.json_path),
	  .kind = "file name",
	  .help = "also write the results as JSON to FILE (- = stdout)" },
	{ .name = "no-evict",
	  .type = CLYDE_OPT_FLAG,
	  .group = GROUP_CLYDE,
	  RUN_FIELD(cfg.no_evict),
	  .help = "leave cached data in the page cache (not honest)" },
	{ .name = "drop-caches",
	  .type = CLYDE_OPT_FLAG,
	  .group = GROUP_CLYDE,
	  RUN_FIELD(cfg.drop_caches),
	  .help = "root: drop all caches before the metadata tests" },
	{ .name = "verify",
	  .type = CLYDE_OPT_FLAG,
	  .group = GROUP_CLYDE,
	  RUN_FIELD(cfg.verify),
	  .help = "read back and check every block the block write and "
		  "rewrite wrote (exit 3 on a wrong one)" },
	CLYDE_CLI_OPT_SETTLE(GROUP_CLYDE,
			     "before each test wait up to SECONDS (5) for idle "
			     "disks",
			     RUN_FIELD(cfg.settle_ns),
			     RUN_GIVEN(cfg.settle_given)),
	{ .name = "until-stable",
	  .type = CLYDE_OPT_DOUBLE,
	  .group = GROUP_CLYDE,
	  .arg = "PCT",
	  RUN_FIELD(cfg.until_stable_pct),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 100,
	  .kind = "a percentage",
	  .help = "repeat until each 95% CI is within PCT% of the mean" },
	{ .name = "max-runs",
	  .type = CLYDE_OPT_UINT,
	  .group = GROUP_CLYDE,
	  .arg = "N",
	  RUN_FIELD(cfg.max_runs),
	  .min = 1,
	  .max = 1000,
	  .kind = "a number of runs",
	  .show_default = true,
	  .help = "at most N runs for --until-stable" },
	{ .name = "until-decided",
	  .type = CLYDE_OPT_DOUBLE,
	  .group = GROUP_CLYDE,
	  .arg = "PCT",
	  RUN_FIELD(extra.until_decided_pct),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 100,
	  .kind = "a percentage",
	  .help = "with -x N and --baseline: stop once each test is "
		  "significantly better or worse than the baseline, or "
		  "within +-PCT% of it" },
	{ .name = "baseline",
	  .type = CLYDE_OPT_STRING,
	  .group = GROUP_CLYDE,
	  .arg = "RESULT",
	  RUN_FIELD(extra.baseline),
	  .kind = "a result file or history id",
	  .help = "what --until-decided decides against: a clyde run "
		  "result (JSON, CSV) of two runs or more, or a history id" },
	CLYDE_CLI_OPT_DB(GROUP_CLYDE,
			 "results history database (default under "
			 "XDG_DATA_HOME)",
			 RUN_FIELD(extra.db_path)),
	{ .name = "no-save",
	  .type = CLYDE_OPT_FLAG,
	  .group = GROUP_CLYDE,
	  RUN_FIELD(extra.no_save),
	  .help = "do not save this run in the results history" },
	{ .short_name = 'v',
	  .name = "verbose",
	  .type = CLYDE_OPT_FLAG,
	  .group = GROUP_CLYDE,
	  RUN_FIELD(extra.verbose),
	  .help = "also a table of each member disk's I/O per test" },
	{ .name = "no-advice",
	  .type = CLYDE_OPT_FLAG,
	  .group = GROUP_CLYDE,
	  RUN_FIELD(extra.no_advice),
	  .help = "no advice on the storage stack after the table" },
	{ .name = "engine",
	  .type = CLYDE_OPT_ENGINE,
	  .group = GROUP_CLYDE,
	  RUN_FIELD(cfg.engine),
	  .show_default = true,
	  .help = "I/O engine of the block and seek tests" },
	{ .name = "iodepth",
	  .type = CLYDE_OPT_UINT,
	  .group = GROUP_CLYDE,
	  .arg = "N",
	  RUN_FIELD(cfg.iodepth),
	  .min = 1,
	  .max = CLYDE_ENGINE_MAX_DEPTH,
	  .kind = "a queue depth",
	  .show_range = true,
	  .show_default = true,
	  .help = "queue depth of each worker/seeker" },
	{ .name = "iodepth-batch",
	  .type = CLYDE_OPT_UINT,
	  .group = GROUP_CLYDE,
	  .arg = "N",
	  RUN_FIELD(cfg.iodepth_batch),
	  .min = 1,
	  .max = CLYDE_ENGINE_MAX_DEPTH,
	  .kind = "a number of requests",
	  .show_range = true,
	  .show_default = true,
	  .help = "io_uring: submit N requests in one call (1: each at once, "
		  "as fio)" },
	{ .name = "runtime",
	  .type = CLYDE_OPT_SECONDS,
	  .group = GROUP_CLYDE,
	  .arg = "SECONDS",
	  RUN_FIELD(cfg.runtime_ns),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 1e6,
	  .kind = "a time",
	  .form = "use a number of seconds above 0 and up to 1000000, "
		  "e.g. 30 or 2.5",
	  .help = "IO tests by time: each runs SECONDS (round -s's file)" },
	{ .name = "stonewall",
	  .type = CLYDE_OPT_SECONDS,
	  .group = GROUP_CLYDE,
	  .arg = "SECONDS",
	  RUN_FIELD(cfg.stonewall_ns),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 1e6,
	  .kind = "a time",
	  .form = "use a number of seconds above 0 and up to 1000000, "
		  "e.g. 30 or 2.5",
	  .help = "end every test SECONDS after it starts (IOR's -D)" },
	CLYDE_CLI_OPT_LOG_INTERVAL(GROUP_CLYDE,
				   "time series interval in the JSON (1000; 0: "
				   "none)",
				   RUN_FIELD(cfg.log_interval_ns)),
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .group = GROUP_CLYDE,
	  .help = "print this help and exit" },
	{ .short_name = 'V',
	  .name = "version",
	  .type = CLYDE_OPT_VERSION,
	  .group = GROUP_CLYDE,
	  .help = "print the version and exit" },
};

static const char *const run_groups[] = {
	[GROUP_BONNIE] =
		"\nbonnie++ options (bonnie++'s letters and meanings):",
	[GROUP_CLYDE] = "\nclyde options:",
};

static const struct clyde_optset run_set = {
	.prog = "clyde",
	.opts = run_table,
	.nopts = sizeof(run_table) / sizeof(run_table[0]),
	.groups = run_groups,
	.ngroups = sizeof(run_groups) / sizeof(run_groups[0]),
};

/* Checks that need the whole command line, in bonnie++'s order. */
static int final_checks(const struct run_opts *r, char *err, size_t len)
{
	const struct clyde_bonnie_config *cfg = &r->cfg;

	/* bonnie++ rejects -p with -y: -p only creates the semaphores. */
	if (cfg->sync_procs && r->sync_mode_given)
		return fail(err, len,
			    "-p and -y cannot be combined: -p N only "
			    "creates the semaphores and exits; then run each "
			    "clyde with -y s");
	if (cfg->seed_given && cfg->random_file)
		return fail(err, len,
			    "-z and -Z cannot be combined: use -z to seed "
			    "the generator or -Z to read the numbers from a "
			    "file");
	if (cfg->runtime_ns && cfg->stonewall_ns)
		return fail(err, len,
			    "--runtime and --stonewall cannot be combined: "
			    "--runtime runs the IO tests by time, "
			    "--stonewall cuts every test at a deadline");
	if (r->extra.until_decided_pct > 0 && !r->extra.baseline)
		return fail(err, len,
			    "--until-decided needs --baseline RESULT, the "
			    "result to decide against (a clyde run result of "
			    "two runs or more, or a history id)");
	if (r->extra.baseline && !(r->extra.until_decided_pct > 0))
		return fail(err, len,
			    "--baseline is what --until-decided PCT decides "
			    "against; give both (clyde compare compares saved "
			    "results)");
	if (r->extra.until_decided_pct > 0 && cfg->until_stable_pct > 0)
		return fail(err, len,
			    "--until-stable and --until-decided cannot be "
			    "combined: give one");
	if (r->extra.until_decided_pct > 0 && cfg->runs < 2)
		return fail(err, len,
			    "--until-decided needs -x N, the most runs (2 or "
			    "more: the rule needs two runs on each side)");
	if (cfg->sync_procs)
		return 0;
	if (cfg->size_given && cfg->file_size_mib == 0 && cfg->num_files == 0)
		return fail(err, len,
			    "-s 0 and -n 0 leave no test to run; give a "
			    "size, a number of files, or both");
	return 0;
}

int clyde_opts_parse(int argc, char **argv, struct clyde_bonnie_config *cfg,
		     struct clyde_cli_extra *extra, char *err, size_t errlen)
{
	struct run_opts r;
	int rc;

	memset(&r, 0, sizeof(r));
	clyde_bonnie_config_init(&r.cfg);
	rc = clyde_opt_parse(&run_set, argc, argv, &r, NULL, NULL, err, errlen);
	if (rc == CLYDE_OPT_PARSED && final_checks(&r, err, errlen))
		rc = CLYDE_OPT_FAILED;
	*cfg = r.cfg;
	*extra = r.extra;
	switch (rc) {
	case CLYDE_OPT_PARSED:
		return CLYDE_OPTS_RUN;
	case CLYDE_OPT_STOP_HELP:
		return CLYDE_OPTS_HELP;
	case CLYDE_OPT_STOP_VERSION:
		return CLYDE_OPTS_VERSION;
	default:
		return CLYDE_OPTS_ERROR;
	}
}

int clyde_opts_help(FILE *f)
{
	struct run_opts defaults;

	memset(&defaults, 0, sizeof(defaults));
	clyde_bonnie_config_init(&defaults.cfg);
	fputs("Usage: clyde [run] [OPTION]...\n"
	      "Run the bonnie++ 2.00a suite (sequential output and input, "
	      "random seeks,\n"
	      "file creation, stat and deletion) with bonnie++'s options and "
	      "output, and\n"
	      "its measurement bugs fixed.\n",
	      f);
	clyde_opt_help(&run_set, &defaults, f);
	fputs("\nSizes are a number whose last character may be a suffix, "
	      "each 1024 times\n"
	      "the one before: -s, -r and -f take MiB (m, g, t), chunks and "
	      "seeks k, -n m,\n"
	      "max and min k, m, g.  Without -s clyde sizes the file from a "
	      "short\n"
	      "calibration write (with -r: twice that RAM, at least 300m).\n"
	      "Exit status: 0 success, 1 invalid option or directory, 3 a "
	      "test failed,\n"
	      "5 interrupted.  See clyde(1).\n"
	      "Option letters: run's are bonnie++'s and zcav's are zcav(8)'s; "
	      "elsewhere a\n"
	      "letter means one thing in every command, and a size's plain "
	      "number is bytes.\n"
	      "\n"
	      "Other commands (each has --help):\n"
	      "  clyde tree ...               file-tree workloads: extract, "
	      "stat and read walks\n"
	      "  clyde compare RESULT...      runs side by side (clyde JSON, "
	      "bonnie++ CSV)\n"
	      "  clyde report RESULT... -o F  an HTML report with charts\n"
	      "  clyde history ...            the saved results "
	      "(list, show, compare, ...)\n"
	      "  clyde sweep FILE             an experiment: settings swept, "
	      "repeats, resume\n"
	      "  clyde stack PATH|DEVICE      the storage stack below, "
	      "--advise on it\n"
	      "  clyde dev DEVICE             raw device tests at a queue "
	      "depth, guarded\n"
	      "  clyde zcav DEVICE            zcav(8): throughput by "
	      "position\n",
	      f);
	return ferror(f) ? -EIO : 0;
}

uint64_t clyde_opts_auto_size_mib(int64_t ram_mib)
{
	if (ram_mib > 150 && (uint64_t)ram_mib <= MAX_MIB / 2)
		return (uint64_t)ram_mib * 2;
	if (ram_mib > 150)
		return MAX_MIB;
	return 300;
}
