/*
 * `clyde report RESULT... -o report.html`: the same inputs as `clyde
 * compare`, written as one self-contained HTML page (src/report/html.h).
 *
 * The page is written to a temporary file next to the output and renamed
 * over it at the end, so a failed report never leaves half a page where
 * a good one was.  Exit status as `clyde compare`: 0 when a report was
 * written, 1 for a usage error, when an input gave no result or the
 * output could not be written.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "core/outfile.h"
#include "cli/commands.h"
#include "core/ctx.h"
#include "report/compare.h"
#include "report/html.h"
#include "report/loaded.h"

static void usage(FILE *f)
{
	fputs("usage: clyde report [options] RESULT... -o FILE.html\n"
	      "  RESULT: a clyde JSON result, or a file of bonnie++/clyde CSV\n"
	      "          lines (formats 1.03, 1.96, 1.98), or - for stdin\n"
	      "  -o, --output FILE the HTML file to write (- for stdout)\n"
	      "  --title TEXT      the page title (default \"clyde report\")\n"
	      "  --label A,B,...   name the results in order\n"
	      "  --baseline N      add each result's change in % against "
	      "result N\n"
	      "  --merge-repeats   fold consecutive identical CSV lines "
	      "(bonnie++ -x)\n"
	      "                    into one result with repeats\n"
	      "  -h, --help        this text\n",
	      f);
}

/* Write the report to `out` through a temporary file in its directory. */
static int write_report(const struct clyde_compare *cmp, const char *title,
			const char *out)
{
	struct clyde_outfile o;
	int rc = clyde_outfile_open(&o, out);

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
	const char *out;
	const char *title;
};

/* report's own options: -o/--output FILE and --title TEXT. */
static int own_option(void *arg, int argc, char **argv, int *a)
{
	struct report_opts *ro = arg;
	const char *opt = argv[*a], *v;
	bool missing;

	v = clyde_cli_option_value(argc, argv, a, "--output", "-o", &missing);
	if (!v && !missing)
		v = clyde_cli_option_value(argc, argv, a, "--title", NULL,
					   &missing);
	if (missing) {
		fprintf(stderr, "clyde report: %s needs a value\n", opt);
		return -1;
	}
	if (!v)
		return 0;
	if (!strncmp(opt, "--title", 7))
		ro->title = v;
	else
		ro->out = v;
	return 1;
}

int clyde_cmd_report(int argc, char **argv)
{
	struct report_opts ro = { NULL, NULL };
	struct clyde_cli_results r;
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	int status = CLYDE_EXIT_USAGE, rc;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	rc = clyde_cli_results_parse("report", argc, argv, &r, own_option, &ro,
				     usage);
	if (rc > 0)
		status = CLYDE_EXIT_OK;
	if (rc)
		goto out;
	if (!ro.out) {
		fprintf(stderr,
			"clyde report: no output file (-o FILE.html)\n");
		usage(stderr);
		goto out;
	}
	if (clyde_cli_results_table(&ctx, "report", &r, &set, &cmp) < 0)
		goto out;
	rc = write_report(&cmp, ro.title, ro.out);
	clyde_compare_release(&cmp);
	if (rc) {
		fprintf(stderr, "clyde report: writing %s: %s\n", ro.out,
			strerror(-rc));
		goto out;
	}
	status = CLYDE_EXIT_OK;
out:
	clyde_cli_results_release(&r);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
	return status;
}
