/*
 * `clyde compare RESULT...`: read clyde JSON results and bonnie++ CSV
 * files (any format, any mix) and print them side by side.
 *
 * Exit status: 0 when a table was printed (even if some lines were
 * malformed: each got one "path:line: reason" message on stderr), 1 for a
 * usage error, when an input gave no result (missing, unreadable, too
 * big, nothing in it: the table would silently lack its column) or when
 * standard output could not be written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "core/ctx.h"
#include "report/compare.h"
#include "results/loaded.h"

static void usage(FILE *f)
{
	fputs("usage: clyde compare [options] [--] RESULT...\n"
	      "  RESULT: a clyde JSON result, fio's JSON output (fio 3.x, json\n"
	      "          or json+; one run per job), a file of bonnie++/clyde\n"
	      "          CSV lines (formats 1.03, 1.96, 1.98; one run per\n"
	      "          line), or - for standard input\n"
	      "  --format FMT      text (default), markdown, md or csv (one line\n"
	      "                    per result, raw numbers in the unit of each\n"
	      "                    column header, flags in their own columns)\n"
	      "  --label A,B,...   name the results in order (else their run\n"
	      "                    names, made unique: vm, vm#2); repeatable\n"
	      "  --baseline N      add each result's change in % against "
	      "result N\n"
	      "  --merge-repeats   fold consecutive CSV lines of one file "
	      "with the\n"
	      "                    same name and settings (bonnie++ -x) into "
	      "one\n"
	      "                    result with repeats; warn when they "
	      "disagree\n"
	      "  -h, --help        this text\n"
	      "Options with a value also take --option=VALUE.  Results whose "
	      "settings\n"
	      "differ (file size, chunk, -D, file counts) are compared only "
	      "within\n"
	      "their settings group ([A], [B]), named under the table.\n",
	      f);
}

/* compare's own option: --format. */
static int own_option(void *arg, int argc, char **argv, int *a)
{
	enum clyde_compare_format *fmt = arg;
	bool missing;
	const char *v = clyde_cli_option_value(argc, argv, a, "--format", NULL,
					       &missing);

	if (missing) {
		fprintf(stderr, "clyde compare: --format needs a value\n");
		return -1;
	}
	if (!v)
		return 0;
	if (clyde_compare_parse_format(v, fmt)) {
		fprintf(stderr,
			"clyde compare: unknown format '%s' (text, markdown or "
			"csv)\n",
			v);
		return -1;
	}
	return 1;
}

int clyde_cmd_compare(int argc, char **argv)
{
	enum clyde_compare_format fmt = CLYDE_COMPARE_TEXT;
	struct clyde_cli_results r;
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	int status = CLYDE_EXIT_USAGE, rc;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	rc = clyde_cli_results_parse("compare", argc, argv, &r, own_option,
				     &fmt, usage);
	if (rc > 0)
		status = CLYDE_EXIT_OK;
	if (rc || clyde_cli_results_table(&ctx, "compare", &r, &set, &cmp) < 0)
		goto out;
	rc = clyde_compare_write(stdout, &cmp, fmt);
	clyde_compare_release(&cmp);
	if (rc) {
		fprintf(stderr, "clyde compare: writing the table: %s\n",
			strerror(-rc));
		goto out;
	}
	if (clyde_cli_stdout_done("compare") == 0)
		status = CLYDE_EXIT_OK;
out:
	clyde_cli_results_release(&r);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
	return status;
}
