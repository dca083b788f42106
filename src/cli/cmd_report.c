/*
 * `clyde report RESULT... -o report.html`: the same inputs as `clyde
 * compare`, written as one self-contained HTML page (src/report/html.h).
 *
 * The page is written to a temporary file next to the output and renamed
 * over it at the end, so a failed report never leaves half a page where
 * a good one was.  Exit status as `clyde compare`: 0 when a report was
 * written, 1 for a usage error, when an input gave no result or the
 * output could not be written.
 *
 * `clyde report --experiment ID` (from the results history) and
 * `clyde report --experiment-json FILE` render one experiment of
 * `clyde sweep` instead (src/report/exp_html.h), or its table with
 * --format text|markdown|csv; they take no RESULT.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "core/outfile.h"
#include "cli/commands.h"
#include "core/ctx.h"
#include "report/compare.h"
#include "analysis/exp_analysis.h"
#include "report/exp_html.h"
#include "report/exp_json.h"
#include "analysis/exp_load.h"
#include "store/exp_store.h"
#include "report/exp_table.h"
#include "store/history.h"
#include "report/html.h"
#include "results/loaded.h"

/* Write the report to `out` through a temporary file in its directory. */
static int write_report(const struct clyde_compare *cmp, const char *title,
			const char *out)
{
	struct clyde_outfile o;
	int rc;

	clyde_cli_note_stale_tmp("clyde report", out);
	rc = clyde_outfile_open(&o, out);

	if (rc < 0)
		return rc;
	rc = clyde_html_write(o.f, cmp, title);
	if (rc) {
		clyde_outfile_abort(&o);
		return rc;
	}
	return clyde_outfile_commit(&o);
}

struct report_opts {
	struct clyde_cli_results r;
	const char *out;
	const char *title;
};

/* The options of `clyde report RESULT...`, one entry each
 * (cli/optmodel.h); an experiment's are exp_table below. */
static const struct clyde_opt report_table[] = {
	{ .short_name = 'o',
	  .name = "output",
	  .type = CLYDE_OPT_STRING,
	  .arg = "FILE",
	  CLYDE_OPT_FIELD(struct report_opts, out),
	  .kind = "file name",
	  .help = "the HTML file to write (- for stdout)" },
	{ .name = "title",
	  .type = CLYDE_OPT_STRING,
	  .arg = "TEXT",
	  CLYDE_OPT_FIELD(struct report_opts, title),
	  .empty_ok = true,
	  .help = "the page title (default \"clyde report\")" },
	/* An experiment's options (exp_table), refused with results. */
	{ .name = "format",
	  .type = CLYDE_OPT_REFUSE,
	  .help = "only with --experiment ID or --experiment-json FILE (the "
		  "table of results is clyde compare --format FMT)" },
	{ .name = "metrics",
	  .type = CLYDE_OPT_REFUSE,
	  .help = "only with --experiment ID or --experiment-json FILE" },
	{ .name = "db",
	  .type = CLYDE_OPT_REFUSE,
	  .help = "only with --experiment ID (the results history)" },
	CLYDE_CLI_RESULTS_OPTS(struct report_opts),
};

static const struct clyde_optset report_set = {
	.prog = "clyde report",
	.opts = report_table,
	.nopts = sizeof(report_table) / sizeof(report_table[0]),
};

/* ---- experiments ------------------------------------------------------ */

struct exp_opts {
	const char *id, *json, *db, *out, *title, *metrics;
	int format; /* EXP_HTML or an enum clyde_exp_format */
};

/* --format's choices: the page, or the experiment's table. */
#define EXP_HTML (-1)
static const struct clyde_opt_choice exp_formats[] = {
	{ "html", EXP_HTML },
	{ "text", CLYDE_EXP_TEXT },
	{ "markdown", CLYDE_EXP_MARKDOWN },
	{ "md", CLYDE_EXP_MARKDOWN },
	{ "csv", CLYDE_EXP_CSV },
	{ NULL, 0 },
};

/* Is this command line about an experiment (before any "--")? */
static bool experiment_mode(int argc, char **argv)
{
	for (int a = 1; a < argc && strcmp(argv[a], "--"); a++)
		if (!strcmp(argv[a], "--experiment") ||
		    !strncmp(argv[a], "--experiment=", 13) ||
		    !strcmp(argv[a], "--experiment-json") ||
		    !strncmp(argv[a], "--experiment-json=", 18))
			return true;
	return false;
}

#define EXP_FIELD(M) CLYDE_OPT_FIELD(struct exp_opts, M)

/* The options of `clyde report --experiment...`, one entry each
 * (cli/optmodel.h). */
static const struct clyde_opt exp_table[] = {
	{ .name = "experiment",
	  .type = CLYDE_OPT_STRING,
	  .arg = "ID",
	  EXP_FIELD(id),
	  .kind = "experiment id",
	  .help = "render experiment ID of clyde sweep from the history" },
	{ .name = "experiment-json",
	  .type = CLYDE_OPT_STRING,
	  .arg = "FILE",
	  EXP_FIELD(json),
	  .kind = "file name",
	  .help = "render the experiment described in FILE" },
	CLYDE_CLI_OPT_DB(0, "the history database (with --experiment)",
			 EXP_FIELD(db)),
	{ .short_name = 'o',
	  .name = "output",
	  .type = CLYDE_OPT_STRING,
	  .arg = "FILE",
	  EXP_FIELD(out),
	  .kind = "file name",
	  .help = "the HTML file to write (- for stdout)" },
	{ .name = "title",
	  .type = CLYDE_OPT_STRING,
	  .arg = "TEXT",
	  EXP_FIELD(title),
	  .empty_ok = true,
	  .help = "the page title" },
	{ .name = "metrics",
	  .type = CLYDE_OPT_STRING,
	  .arg = "KEY,...",
	  EXP_FIELD(metrics),
	  .kind = "metric list",
	  .help = "the experiment's metrics to show, in order (all: every "
		  "one, the default)" },
	{ .name = "format",
	  .type = CLYDE_OPT_ENUM,
	  .arg = "FMT",
	  .choices = exp_formats,
	  EXP_FIELD(format),
	  .kind = "a format",
	  .help = "html (default), or the experiment's table as text, "
		  "markdown or csv" },
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .help = "this text" },
};

static const struct clyde_optset exp_set = {
	.prog = "clyde report",
	.opts = exp_table,
	.nopts = sizeof(exp_table) / sizeof(exp_table[0]),
	.max_operands = 1, /* none; the first is named below */
};

/* --help, made from report_table and exp_table. */
static void usage(FILE *f)
{
	fputs("usage: clyde report [options] RESULT... -o FILE.html\n"
	      "   or: clyde report --experiment ID [--db PATH] [options] "
	      "-o FILE.html\n"
	      "   or: clyde report --experiment-json FILE [options] "
	      "-o FILE.html\n"
	      "\n",
	      f);
	clyde_opt_help_line(f, "RESULT",
			    "a clyde JSON result, fio's JSON output (fio 3.x, "
			    "json or json+; one run per job), a file of "
			    "bonnie++/clyde CSV lines (formats 1.03, 1.96, "
			    "1.98), or - for stdin");
	fputs("\nWith results:\n", f);
	clyde_opt_help(&report_set, NULL, f);
	fputs("\nWith an experiment of clyde sweep:\n", f);
	clyde_opt_help(&exp_set, NULL, f);
}

/* Parse the experiment command line: 0, 1 for --help, -1 (printed). */
static int exp_parse(int argc, char **argv, struct exp_opts *o)
{
	const char *operand[1];
	char err[512];
	int n = 0, rc = clyde_opt_parse(&exp_set, argc, argv, o, operand, &n,
					err, sizeof(err));

	if (rc == CLYDE_OPT_STOP_HELP) {
		usage(stdout);
		return 1;
	}
	if (rc != CLYDE_OPT_PARSED) {
		fprintf(stderr, "clyde report: %s\n", err);
		return -1;
	}
	if (n) {
		fprintf(stderr,
			"clyde report: unexpected argument \"%s\" with an "
			"experiment\n",
			operand[0]);
		return -1;
	}
	if (o->id && o->json) {
		fprintf(stderr, "clyde report: --experiment and "
				"--experiment-json exclude each other\n");
		return -1;
	}
	if (!o->out) {
		fprintf(stderr,
			"clyde report: no output file (-o FILE.html)\n");
		return -1;
	}
	return 0;
}

/* Load the experiment from the history or the JSON file into *e. */
static int exp_load(struct clyde_ctx *ctx, const struct exp_opts *o,
		    struct clyde_exp *e)
{
	struct clyde_history *h;
	int rc;

	if (o->json)
		return clyde_exp_json_load(ctx, o->json, e);
	/* Reading only: a history on a read-only filesystem, in a read-only
	 * directory or another user's is reported as `clyde history` reads
	 * it, with nothing written beside it. */
	rc = clyde_history_open_readonly(ctx, o->db, &h);
	if (rc < 0)
		return rc;
	rc = clyde_history_load_experiment(ctx, h, o->id, e);
	clyde_history_close(h);
	return rc;
}

/* Writing the page to `out` failed with rc: say so, unless `out` is
 * standard output, which the dispatcher names at exit with its reason. */
static void say_write_failed(const char *out, int rc)
{
	if (!strcmp(out, "-") && ferror(stdout))
		return;
	fprintf(stderr, "clyde report: writing %s: %s\n", out, strerror(-rc));
}

static int report_experiment(int argc, char **argv)
{
	struct exp_opts o = { .format = EXP_HTML };
	bool html;
	struct clyde_outfile of;
	struct clyde_exp e = { 0 };
	struct clyde_ctx ctx;
	int status = CLYDE_EXIT_USAGE, rc;

	rc = exp_parse(argc, argv, &o);
	if (rc)
		return rc > 0 ? CLYDE_EXIT_OK : CLYDE_EXIT_USAGE;
	html = o.format == EXP_HTML;
	clyde_ctx_init(&ctx);
	rc = exp_load(&ctx, &o, &e);
	if (!rc)
		rc = clyde_exp_select(&ctx, &e, o.metrics);
	if (rc) {
		fprintf(stderr, "clyde report: %s\n", clyde_errmsg(&ctx));
		goto out;
	}
	clyde_cli_note_stale_tmp("clyde report", o.out);
	rc = clyde_outfile_open(&of, o.out);
	if (!rc) {
		rc = html ? clyde_exp_html_write(of.f, &e, o.title) :
			    clyde_exp_table_write(
				    of.f, &e, (enum clyde_exp_format)o.format);
		if (rc)
			clyde_outfile_abort(&of);
		else
			rc = clyde_outfile_commit(&of);
	}
	if (rc) {
		say_write_failed(o.out, rc);
		goto out;
	}
	status = CLYDE_EXIT_OK;
out:
	clyde_exp_release(&e);
	clyde_ctx_release(&ctx);
	return status;
}

int clyde_cmd_report(int argc, char **argv)
{
	struct report_opts ro;
	struct clyde_cli_results *r = &ro.r;
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	int status = CLYDE_EXIT_USAGE, rc;

	if (experiment_mode(argc, argv))
		return report_experiment(argc, argv);
	memset(&ro, 0, sizeof(ro));
	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	rc = clyde_cli_results_parse("report", &report_set, argc, argv, &ro, r,
				     usage);
	if (rc > 0)
		status = CLYDE_EXIT_OK;
	if (rc)
		goto out;
	if (!ro.out) {
		fprintf(stderr, "clyde report: no output file: give -o "
				"FILE.html (- for standard output)\n");
		goto out;
	}
	if (clyde_cli_results_table(&ctx, "report", r, &set, &cmp) < 0)
		goto out;
	rc = write_report(&cmp, ro.title, ro.out);
	clyde_compare_release(&cmp);
	if (rc) {
		say_write_failed(ro.out, rc);
		goto out;
	}
	status = CLYDE_EXIT_OK;
out:
	clyde_cli_results_release(r);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
	return status;
}
