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

struct compare_cli {
	struct clyde_cli_results r;
	enum clyde_compare_format fmt;
};

/* The options of `clyde compare`, one entry each (cli/optmodel.h). */
static const struct clyde_opt compare_table[] = {
	{ .name = "format",
	  .type = CLYDE_OPT_ENUM,
	  .arg = "FMT",
	  .choices = clyde_cli_compare_formats,
	  CLYDE_OPT_FIELD(struct compare_cli, fmt),
	  .kind = "a format",
	  .help = "text (default), markdown, md or csv (one line per result, "
		  "raw numbers in the unit of each column header, flags in "
		  "their own columns)" },
	CLYDE_CLI_RESULTS_OPTS(struct compare_cli),
};

static const struct clyde_optset compare_set = {
	.prog = "clyde compare",
	.opts = compare_table,
	.nopts = sizeof(compare_table) / sizeof(compare_table[0]),
};

static void usage(FILE *f)
{
	fputs("usage: clyde compare [options] [--] RESULT...\n"
	      "  RESULT: a clyde JSON result, fio's JSON output (fio 3.x, json\n"
	      "          or json+; one run per job), a file of bonnie++/clyde\n"
	      "          CSV lines (formats 1.03, 1.96, 1.98; one run per\n"
	      "          line), or - for standard input\n",
	      f);
	clyde_opt_help(&compare_set, NULL, f);
	fputs("Options with a value also take --option=VALUE.  Results whose "
	      "settings\n"
	      "differ (file size, chunk, -D, file counts) are compared only "
	      "within\n"
	      "their settings group ([A], [B]), named under the table.\n",
	      f);
}

int clyde_cmd_compare(int argc, char **argv)
{
	struct compare_cli cc = { .fmt = CLYDE_COMPARE_TEXT };
	struct clyde_cli_results *r = &cc.r;
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	int status = CLYDE_EXIT_USAGE, rc;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	rc = clyde_cli_results_parse("compare", &compare_set, argc, argv, &cc,
				     r, usage);
	if (rc > 0)
		status = CLYDE_EXIT_OK;
	if (rc || clyde_cli_results_table(&ctx, "compare", r, &set, &cmp) < 0)
		goto out;
	rc = clyde_compare_write(stdout, &cmp, cc.fmt);
	clyde_compare_release(&cmp);
	/* A failed standard output is named at exit, with its reason. */
	if (rc && !ferror(stdout)) {
		fprintf(stderr, "clyde compare: writing the table: %s\n",
			strerror(-rc));
		goto out;
	}
	status = CLYDE_EXIT_OK; /* stdout is checked at exit (main.c) */
out:
	clyde_cli_results_release(r);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
	return status;
}
