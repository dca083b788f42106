/*
 * `clyde [bonnie++ options]` / `clyde run ...`: the bonnie++ suite.  Parses
 * the command line, hands the settings to the job (job/job_run.h: seed,
 * privileges, scratch directory, the series, the results kept) and prints
 * what it hands back: the progress, each run's table or CSV line, the
 * series' sections.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/progress.h"
#include "dist/run_dist.h"
#include "env/advise.h"
#include "job/job_run.h"
#include "results/format.h"
#include "results/members_text.h"
#include "results/series_out.h"
#include "workloads/bonnie.h"

/* What the progress lines say, as bonnie++ words them. */
static const char *const progress[CLYDE_TEST_COUNT] = {
	[CLYDE_PUTC] = "Writing a byte at a time",
	[CLYDE_PUT_BLOCK] = "Writing intelligently",
	[CLYDE_REWRITE] = "Rewriting",
	[CLYDE_GETC] = "Reading a byte at a time",
	[CLYDE_GET_BLOCK] = "Reading intelligently",
	[CLYDE_SEEKS] = "Seeking randomly",
	[CLYDE_SEQ_CREATE] = "Create files in sequential order",
	[CLYDE_SEQ_STAT] = "Stat files in sequential order",
	[CLYDE_SEQ_DEL] = "Delete files in sequential order",
	[CLYDE_RAN_CREATE] = "Create files in random order",
	[CLYDE_RAN_STAT] = "Stat files in random order",
	[CLYDE_RAN_DEL] = "Delete files in random order",
};

/* The table or CSV output that could not be written, and why. */
struct out_failure {
	FILE *f; /* NULL: none failed */
	int err;
};

/* What the command prints of a run, and where. */
struct run_cli {
	struct clyde_bonnie_config cfg;
	struct clyde_cli_extra extra;
	FILE *out;			    /* the table or CSV: stdout */
	struct clyde_progress_display live; /* the live line ... */
	bool live_on;			    /* ... when it runs */
	struct out_failure failed;	    /* an output that failed */
};

/* bonnie++'s "...done" lines: one run, not quiet. */
static bool show_progress(const struct run_cli *c)
{
	return !c->cfg.quiet && c->cfg.runs == 0;
}

static int test_begin(void *arg, enum clyde_test t)
{
	struct run_cli *c = arg;

	if (c->cfg.sync_mode == CLYDE_SYNC_PROMPT) {
		char line[256];

		fprintf(stderr, "%s: press Enter to start\n", progress[t]);
		if (!fgets(line, sizeof(line), stdin) && ferror(stdin))
			return clyde_cli_interrupted() ? -EINTR : -EIO;
	}
	if (show_progress(c) && !c->live_on) {
		fprintf(stderr, "%s...", progress[t]);
		fflush(stderr);
	}
	return 0;
}

static void test_end(void *arg, enum clyde_test t,
		     const struct clyde_test_result *r)
{
	struct run_cli *c = arg;

	if (c->live_on)
		clyde_progress_erase(&c->live);
	if (r->state == CLYDE_SKIPPED) {
		/* Shown even with -q: the table has a hole to explain. */
		fprintf(stderr, "clyde: %s %s\n", clyde_test_label(t), r->note);
		return;
	}
	if (show_progress(c))
		fprintf(stderr, c->live_on ? "%s...done\n" : "done\n",
			progress[t]);
}

/* The live line on a terminal. */
static struct clyde_progress *progress_start(void *arg,
					     const struct clyde_ctx *ctx)
{
	struct run_cli *c = arg;

	if (!isatty(STDERR_FILENO) || clyde_progress_start(&c->live, ctx) < 0)
		return NULL;
	c->live_on = true;
	return &c->live.state;
}

static void progress_stop(void *arg)
{
	struct run_cli *c = arg;

	clyde_progress_stop(&c->live);
}

static void broken(void *arg)
{
	struct run_cli *c = arg;

	if (show_progress(c) && !c->live_on)
		fputc('\n', stderr);
}

/* The errno of a failed write to f: standard output's writer keeps it
 * (cli_common.h); elsewhere errno, when it says anything. */
static int output_errno(FILE *f)
{
	int e = f == stdout ? clyde_cli_stdout_errno() : 0;

	return e ? e : errno ? errno : EIO;
}

/* A series prints CSV lines: their header first. */
static int series_begin(void *arg)
{
	struct run_cli *c = arg;

	if (clyde_csv_header(c->out) < 0) {
		c->failed =
			(struct out_failure){ c->out, output_errno(c->out) };
		return -1;
	}
	return 0;
}

/*
 * A run is made: bonnie++'s table alone, or a CSV line of the series.
 * An output that cannot be written (a closed pipe, a full disk) loses
 * nothing measured: the series ends with the runs made so far, which
 * still go to --json and the history; output_failed() then says so and
 * the exit status is non-zero.
 */
static int run_done(void *arg, const struct clyde_run *runs, unsigned i)
{
	struct run_cli *c = arg;
	const struct clyde_run *r = &runs[i];
	FILE *f = c->cfg.quiet ? stderr : c->out;
	bool series = c->cfg.runs > 0 || c->cfg.until_stable_pct > 0;

	errno = 0;
	if (!series &&
	    (clyde_text_write(f, r, CLYDE_VERSION) < 0 ||
	     clyde_text_extra_write(f, r, 1, NULL) < 0 ||
	     clyde_series_text_write(f, r) < 0 ||
	     clyde_members_text_write(f, r, 1, c->extra.verbose) < 0 ||
	     (!c->extra.no_advice &&
	      clyde_advice_section(f, &r->env.stack,
				   clyde_run_advise(&r->params)) < 0))) {
		c->failed = (struct out_failure){ f, output_errno(f) };
		return 1;
	}
	errno = 0;
	if (clyde_csv_write(c->out, r, CLYDE_VERSION) < 0 ||
	    fflush(c->out) != 0) {
		c->failed =
			(struct out_failure){ c->out, output_errno(c->out) };
		return 1;
	}
	return 0;
}

/* The series' own sections, on standard error. */
static int series_end(void *arg, const struct clyde_run *runs, unsigned n,
		      const struct clyde_json_extra *extra)
{
	struct run_cli *c = arg;

	if (clyde_text_extra_write(stderr, runs, n, extra) < 0 ||
	    clyde_members_text_write(stderr, runs, n, c->extra.verbose) < 0 ||
	    (!c->extra.no_advice &&
	     clyde_advice_section(stderr, &runs[0].env.stack,
				  clyde_run_advise(&runs[0].params)) < 0))
		return -EIO;
	return 0;
}

/*
 * The table or the CSV could not be written: say which output failed
 * (the job then says where the results are).  Returns the exit status:
 * 5 for a reader that went away (SIGPIPE), 3 otherwise; 0 when none
 * failed.
 */
static int output_failed(void *arg)
{
	struct run_cli *c = arg;
	const struct out_failure *o = &c->failed;

	if (!o->f)
		return 0;
	if (o->f == stdout)
		clyde_cli_stdout_failed("clyde", o->err);
	else
		fprintf(stderr, "clyde: standard error: write error: %s\n",
			strerror(o->err));
	return o->err == EPIPE ? CLYDE_EXIT_INTERRUPTED :
				 CLYDE_EXIT_TEST_FAILED;
}

/* The checks of the command line that need clyde-mpi's or the
 * environment's view: 0, or -1 with the line in err. */
static int check_args(struct run_cli *c, const struct clyde_dist *dist,
		      char *err, size_t len)
{
	struct clyde_bonnie_config *cfg = &c->cfg;

	/* clyde-mpi and -y: the ranks (processes) agree at each test's
	 * start, and a wait of each one's own after that would start them
	 * apart.  Unless asked for, the devices are looked at once and not
	 * waited for. */
	if (!cfg->settle_given &&
	    clyde_cli_settle_env(&cfg->settle_ns, err, len))
		return -1;
	if ((dist || cfg->sync_mode != CLYDE_SYNC_NONE) && !cfg->settle_given &&
	    !getenv("CLYDE_SETTLE"))
		cfg->settle_ns = 0;
	/* One deadline flag per test: clyde-mpi's stonewall or --runtime's
	 * end, not both. */
	if (dist && dist->stonewall_s > 0 && cfg->runtime_ns) {
		snprintf(err, len,
			 "--runtime and clyde-mpi --stonewall cannot be "
			 "combined: --runtime runs the IO tests by time, "
			 "--stonewall cuts every test at a deadline");
		return -1;
	}
	/* -r N keeps bonnie++'s rule for the size (twice the RAM, at least
	 * 300 MiB; -r 0 gives 300); without -s or -r the job calibrates. */
	if (!cfg->size_given && cfg->ram_mib >= 0)
		cfg->file_size_mib = clyde_opts_auto_size_mib(cfg->ram_mib);
	return 0;
}

int clyde_cmd_run(int argc, char **argv)
{
	return clyde_cmd_run_dist(argc, argv, NULL);
}

int clyde_cmd_run_dist(int argc, char **argv, struct clyde_dist *dist)
{
	struct clyde_run_dist rd = CLYDE_CLI_RUN_DIST(dist);
	struct run_cli c = { .out = stdout };
	struct clyde_job_ui ui = { .arg = &c };
	struct clyde_job_run job;
	char err[1024];
	int rc = clyde_opts_parse(argc, argv, &c.cfg, &c.extra, err,
				  sizeof(err));

	if (rc == CLYDE_OPTS_HELP) {
		/* Standard output is checked at exit (main.c). */
		clyde_opts_help(stdout);
		return CLYDE_EXIT_OK;
	}
	if (rc == CLYDE_OPTS_VERSION) {
		printf("clyde %s\n", CLYDE_VERSION);
		return CLYDE_EXIT_OK;
	}
	if (rc != CLYDE_OPTS_RUN || check_args(&c, dist, err, sizeof(err))) {
		/* The same on every rank: rank 0 says it once. */
		if (clyde_run_dist_leader(&rd))
			fprintf(stderr, "clyde: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	/* --json -: standard output is the JSON's alone. */
	if (c.extra.json_path && !strcmp(c.extra.json_path, "-") &&
	    clyde_run_dist_leader(&rd))
		c.out = stderr;
	job = (struct clyde_job_run){
		.cfg = &c.cfg,
		.json_path = c.extra.json_path,
		.db_path = c.extra.db_path,
		.baseline = c.extra.baseline,
		.no_save = c.extra.no_save,
		.until_decided_pct = c.extra.until_decided_pct,
		.test_begin = test_begin,
		.test_end = test_end,
		.progress_start = progress_start,
		.progress_stop = progress_stop,
		.broken = broken,
		.series_begin = series_begin,
		.run_done = run_done,
		.series_end = series_end,
		.output_failed = output_failed,
	};
	clyde_cli_job_ui(&ui);
	return clyde_job_run_bonnie(&job, &ui, dist);
}
