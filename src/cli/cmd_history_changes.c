/*
 * `clyde history changes`: when did this machine's results change, and
 * what changed with them.  Reads every stored run (read-only, as list
 * does), oldest first, and prints the change points of each figure of
 * each comparable series (report/history_changes.h; the method is
 * analysis/changepoint.h, docs/history.md).
 *
 *   clyde history changes [--alpha P] [--min-segment N] [--permutations N]
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/hist_changes.h"
#include "cli/optmodel.h"
#include "core/vis.h"
#include "report/history_changes.h"
#include "report/html.h"
#include "store/history.h"

struct changes_opts {
	const char *db;
	double alpha;
	uint64_t min_segment;
	uint64_t permutations;
};

#define CH_FIELD(M) CLYDE_OPT_FIELD(struct changes_opts, M)

static const struct clyde_opt changes_opts[] = {
	CLYDE_CLI_OPT_DB(0, "the database", CH_FIELD(db)),
	{ .name = "alpha",
	  .type = CLYDE_OPT_DOUBLE,
	  .arg = "P",
	  CH_FIELD(alpha),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 0.5,
	  .show_range = true,
	  .show_default = true,
	  .help = "the significance level: the chance of a false alarm in "
		  "a figure without change" },
	{ .name = "min-segment",
	  .type = CLYDE_OPT_UINT,
	  .arg = "N",
	  CH_FIELD(min_segment),
	  .min = 2,
	  .max = 1000,
	  .show_range = true,
	  .show_default = true,
	  .help = "runs on each side of a change at least" },
	{ .name = "permutations",
	  .type = CLYDE_OPT_UINT,
	  .arg = "N",
	  CH_FIELD(permutations),
	  .min = 19,
	  .max = 1000000,
	  .show_range = true,
	  .show_default = true,
	  .help = "random orders each test compares with" },
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .help = "this help" },
};

#define NOPTS (sizeof(changes_opts) / sizeof(changes_opts[0]))

static void defaults(struct changes_opts *o, const char *db)
{
	memset(o, 0, sizeof(*o));
	o->db = db;
	o->alpha = CLYDE_CP_ALPHA;
	o->min_segment = CLYDE_CP_MIN_SEGMENT;
	o->permutations = CLYDE_CP_PERMUTATIONS;
}

void clyde_history_changes_help(FILE *f)
{
	struct clyde_opt own[NOPTS];
	struct clyde_optset set = { .prog = "clyde history", .opts = own };
	struct changes_opts d;

	defaults(&d, NULL);
	clyde_opt_help_line(f, "changes",
			    "when each figure of each comparable series of "
			    "runs (same host, stack and settings) changed: "
			    "its size, p-value and what differs");
	for (size_t k = 0; k < NOPTS; k++)
		if (changes_opts[k].type != CLYDE_OPT_HELP &&
		    strcmp(changes_opts[k].name, "db"))
			own[set.nopts++] = changes_opts[k];
	clyde_opt_help(&set, &d, f);
}

/* Load every stored run, oldest first, into set; ids[i] is set->runs[i]'s.
 * Returns 0, 1 (nothing stored: said, not an error) or -1 (said). */
static int load_all(struct clyde_ctx *ctx, const char *db,
		    struct clyde_loaded_set *set, int64_t **ids)
{
	struct clyde_history_entry *e = NULL;
	struct clyde_history *h;
	size_t n = 0, cap = 0;
	int rc = clyde_history_open_readonly(ctx, db, &h);
	char vis[1024];

	if (rc == -ENOENT) {
		fprintf(stderr, "clyde history changes: %s\n",
			clyde_vis(vis, sizeof(vis), clyde_errmsg(ctx), 0));
		return 1;
	}
	if (rc < 0)
		goto fail;
	rc = clyde_history_list(ctx, h, 0, &e, &n);
	/* list is newest first: the series run oldest first. */
	for (size_t k = n; k-- > 0 && rc == 0;) {
		char name[64], *doc = NULL;
		size_t len = 0, before = set->nruns, errs = set->nerrors;

		rc = clyde_history_get(ctx, h, e[k].id, NULL, &doc, &len);
		if (rc < 0)
			break;
		snprintf(name, sizeof(name), "history:%" PRId64, e[k].id);
		rc = clyde_loaded_read_buffer(ctx, doc, len, name, set);
		free(doc);
		for (size_t i = errs; i < set->nerrors; i++)
			fprintf(stderr, "clyde history changes: %s\n",
				clyde_vis(vis, sizeof(vis), set->errors[i], 0));
		/* A run that does not read any more (kind "unreadable") is
		 * said above and left out of its series. */
		if (rc == 0 && set->nruns > cap) {
			size_t ncap = set->nruns * 2;
			int64_t *ni = realloc(*ids, ncap * sizeof(*ni));

			if (!ni) {
				rc = clyde_err(ctx, ENOMEM,
					       "loading the history");
				break;
			}
			*ids = ni;
			cap = ncap;
		}
		for (size_t i = before; i < set->nruns; i++)
			(*ids)[i] = e[k].id;
	}
	clyde_history_entries_free(e, n);
	clyde_history_close(h);
	if (rc == 0)
		return 0;
fail:
	fprintf(stderr, "clyde history changes: %s\n",
		clyde_vis(vis, sizeof(vis), clyde_errmsg(ctx), 0));
	return -1;
}

int clyde_history_changes_main(struct clyde_ctx *ctx, const char *db, int argc,
			       char **argv)
{
	const struct clyde_optset set = { .prog = "clyde history changes",
					  .opts = changes_opts,
					  .nopts = NOPTS };
	struct changes_opts o;
	struct clyde_cp_opts cp;
	struct clyde_loaded_set runs;
	struct clyde_changes_run *cr = NULL;
	struct clyde_changes ch;
	int64_t *ids = NULL;
	char err[512];
	int rc;

	defaults(&o, db);
	rc = clyde_opt_parse(&set, argc, argv, &o, NULL, NULL, err,
			     sizeof(err));
	if (rc == CLYDE_OPT_STOP_HELP) {
		clyde_history_changes_help(stdout);
		return CLYDE_EXIT_OK;
	}
	if (rc != CLYDE_OPT_PARSED) {
		fprintf(stderr, "clyde history changes: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (o.db && !o.db[0]) {
		fprintf(stderr, "clyde history changes: --db needs a path\n");
		return CLYDE_EXIT_USAGE;
	}
	clyde_cp_opts_default(&cp);
	cp.alpha = o.alpha;
	cp.min_segment = (size_t)o.min_segment;
	cp.permutations = (unsigned)o.permutations;

	clyde_loaded_set_init(&runs);
	rc = load_all(ctx, o.db, &runs, &ids);
	if (rc) {
		clyde_loaded_set_release(&runs);
		free(ids);
		return rc > 0 ? CLYDE_EXIT_OK : CLYDE_EXIT_USAGE;
	}
	cr = calloc(runs.nruns ? runs.nruns : 1, sizeof(*cr));
	if (!cr) {
		rc = clyde_err(ctx, ENOMEM, "loading the history");
	} else {
		for (size_t i = 0; i < runs.nruns; i++)
			cr[i] = (struct clyde_changes_run){ ids[i],
							    &runs.runs[i] };
		rc = clyde_changes_find(ctx, cr, runs.nruns, &cp, &ch);
	}
	if (rc == 0) {
		rc = clyde_changes_write_text(stdout, &ch, cr, &cp);
		clyde_changes_release(&ch);
		if (rc < 0) {
			clyde_cli_stdout_failed("clyde history changes", -rc);
			rc = CLYDE_EXIT_USAGE;
		}
	} else {
		char vis[1024];

		fprintf(stderr, "clyde history changes: %s\n",
			clyde_vis(vis, sizeof(vis), clyde_errmsg(ctx), 0));
		rc = CLYDE_EXIT_USAGE;
	}
	free(cr);
	free(ids);
	clyde_loaded_set_release(&runs);
	return rc;
}

int clyde_history_report_write(struct clyde_ctx *ctx, FILE *f,
			       const struct clyde_compare *cmp,
			       const char *title)
{
	struct clyde_html_mark *marks = NULL;
	struct clyde_cp_opts cp;
	size_t n = 0;
	int rc;

	clyde_cp_opts_default(&cp);
	rc = clyde_changes_marks(ctx, cmp, &cp, &marks, &n);
	if (rc == 0)
		rc = clyde_html_write_marked(f, cmp, title, marks, n);
	free(marks);
	return rc;
}
