/*
 * `clyde history compare`, `report`, `export` and `import` (see
 * cmd_history.h): stored runs as clyde compare's table and clyde
 * report's HTML, the stored documents as they were saved, and files into
 * the history.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_args.h"
#include "cli/cmd_history.h"
#include "cli/hist_changes.h"
#include "core/outfile.h"
#include "core/vis.h"
#include "report/compare.h"
#include "report/html.h"
#include "results/loaded.h"
#include "store/history.h"

/* The options of history compare and report: clyde compare's
 * (CLYDE_CLI_RESULTS_OPTS: --label, --baseline, --merge-repeats) and
 * --db; --format (compare); -o/--output and --title (report). */
struct table_opts {
	struct clyde_cli_results r;
	struct hist_cli *c;
	bool report;
	enum clyde_compare_format fmt;
	const char *db, *out, *title;
};

#define TABLE_FIELD(M) CLYDE_OPT_FIELD(struct table_opts, M)
#define OPT_T_DB CLYDE_CLI_OPT_DB(0, "the database", TABLE_FIELD(db))

/* clyde compare's --label, --baseline and --merge-repeats
 * (CLYDE_CLI_RESULTS_OPTS) in the words of stored runs: --baseline names
 * a run id. */
#define OPT_T_RESULTS                                                      \
	{ .name = "baseline",                                              \
	  .type = CLYDE_OPT_UINT,                                          \
	  .arg = "ID",                                                     \
	  TABLE_FIELD(r.baseline),                                         \
	  .min = 1,                                                        \
	  .max = INT64_MAX,                                                \
	  .kind = "a run id",                                              \
	  .form = "use a run id from clyde history list",                  \
	  .help = "change in percent against run ID" },                    \
		{ .name = "label",                                         \
		  .type = CLYDE_OPT_CALL,                                  \
		  .arg = "A,B,...",                                        \
		  .call = clyde_cli_results_label_opt,                     \
		  TABLE_FIELD(r),                                          \
		  .help = "name the columns in order (repeatable)" },      \
		{ .name = "merge-repeats",                                 \
		  .type = CLYDE_OPT_FLAG,                                  \
		  TABLE_FIELD(r.merge),                                    \
		  .help = "fold runs of one file with the same name and "  \
			  "settings into one column" },                    \
	{                                                                  \
		.short_name = 'h', .name = "help", .type = CLYDE_OPT_HELP, \
		.help = "this help"                                        \
	}

const struct clyde_opt hist_compare_opts[] = {
	OPT_T_DB,
	{ .name = "format",
	  .type = CLYDE_OPT_ENUM,
	  .arg = "FMT",
	  .choices = clyde_cli_compare_formats,
	  TABLE_FIELD(fmt),
	  .kind = "a format",
	  .help = "the table as text (default), markdown or csv" },
	OPT_T_RESULTS,
};

const struct clyde_opt hist_report_opts[] = {
	OPT_T_DB,
	{ .short_name = 'o',
	  .name = "output",
	  .type = CLYDE_OPT_STRING,
	  .arg = "FILE",
	  TABLE_FIELD(out),
	  .kind = "file name",
	  .help = "the HTML file (- for standard output)" },
	{ .name = "title",
	  .type = CLYDE_OPT_STRING,
	  .arg = "TEXT",
	  TABLE_FIELD(title),
	  .empty_ok = true,
	  .help = "the page title" },
	OPT_T_RESULTS,
};

/* The usage for --help; after a usage error the one line that named it
 * is enough. */
static void table_usage(FILE *f)
{
	if (f == stdout)
		hist_usage(f);
}

/* The command line of compare or report: the same as `clyde compare`'s
 * (clyde_cli_results_parse(): --label split at commas, --baseline,
 * --merge-repeats) with ids for files, into *r, *ids and *n; --baseline
 * names a run id, whose column goes into *baseline (1-based).  Returns
 * 0, 2 after --help, or an exit status (printed). */
static int table_args(struct hist_cli *c, int argc, char **argv,
		      struct table_opts *t, struct clyde_cli_results *r,
		      int64_t **ids, size_t *n, long *baseline)
{
	const struct clyde_optset oset = {
		.prog = "clyde history",
		.opts = t->report ? hist_report_opts : hist_compare_opts,
		.nopts = t->report ? sizeof(hist_report_opts) /
					     sizeof(hist_report_opts[0]) :
				     sizeof(hist_compare_opts) /
					     sizeof(hist_compare_opts[0]),
	};
	char name[64];
	int rc;

	snprintf(name, sizeof(name), "history %s", c->cmd);
	t->db = c->db;
	rc = clyde_cli_results_parse(name, &oset, argc, argv, t, &t->r,
				     table_usage);
	c->db = t->db;
	*r = t->r;
	memset(&t->r, 0, sizeof(t->r));
	if (rc != 0)
		return rc > 0 ? 2 : CLYDE_EXIT_USAGE;
	rc = hist_parse_ids(c, (int)r->nfiles, r->files, 0, 1, 0, ids, n);
	if (rc)
		return rc;
	if (r->nlabels > *n)
		return hist_usage_error(c, "%zu labels for %zu runs",
					r->nlabels, *n);
	if (r->baseline && r->merge)
		return hist_usage_error(
			c, "--baseline and --merge-repeats together: compare "
			   "the merged runs without a baseline");
	for (size_t i = 0; i < *n && r->baseline && !*baseline; i++)
		if ((*ids)[i] == r->baseline)
			*baseline = (long)i + 1;
	if (r->baseline && !*baseline)
		return hist_usage_error(
			c, "--baseline %ld is not one of the runs compared",
			r->baseline);
	return 0;
}

/*
 * Parse the command line of compare or report (table_args), load the
 * stored runs it names and build the table.  Columns are "#ID label"
 * unless --label names them; with --merge-repeats they keep the runs'
 * labels (folded runs share one).  Returns 0 with *cmp built over *set,
 * 2 after --help, or an exit status (printed).
 */
static int stored_table(struct hist_cli *c, int argc, char **argv,
			struct table_opts *t, struct clyde_loaded_set *set,
			struct clyde_compare *cmp)
{
	struct clyde_compare_opts copts = { 0 };
	struct clyde_cli_results r = { 0 };
	struct clyde_history *h = NULL;
	const char **labels = NULL;
	char **names = NULL;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	rc = table_args(c, argc, argv, t, &r, &ids, &n, &copts.baseline);
	if (rc || (rc = hist_open_db_ro(c, &h)))
		goto out;
	labels = calloc(n, sizeof(*labels));
	names = calloc(n, sizeof(*names));
	rc = labels && names ? clyde_history_load_all(&c->ctx, h, ids, n,
						      r.merge, set, names) :
			       clyde_err(&c->ctx, ENOMEM, "history %s", c->cmd);
	clyde_history_close(h);
	rc = hist_loaded(c, set, rc);
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++)
		labels[i] = i < r.nlabels ? r.labels[i] : names[i];
	if (r.merge) {
		if (clyde_loaded_merge_repeats(&c->ctx, set) < 0) {
			rc = hist_fail(c);
			goto out;
		}
		copts.labels = (const char *const *)r.labels;
		/* More labels than merged columns: compare refuses it. */
		copts.nlabels = r.nlabels;
	} else {
		copts.labels = labels;
		copts.nlabels = n;
	}
	if (clyde_compare_build(&c->ctx, set, &copts, cmp) < 0)
		rc = hist_fail(c);
out:
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(labels);
	free(ids);
	clyde_cli_results_release(&r);
	return rc;
}

int hist_cmd_compare(struct hist_cli *c, int argc, char **argv)
{
	struct table_opts t = { .c = c, .fmt = CLYDE_COMPARE_TEXT };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	int rc;

	clyde_loaded_set_init(&set);
	rc = stored_table(c, argc, argv, &t, &set, &cmp);
	if (rc == 0) {
		rc = clyde_compare_write(stdout, &cmp, t.fmt);
		if (rc < 0)
			rc = hist_stdout_failed(c, rc);
		clyde_compare_release(&cmp);
	}
	clyde_loaded_set_release(&set);
	return rc == 2 ? CLYDE_EXIT_OK : rc;
}

/* The report, through a temporary file renamed over `out`: a failure
 * keeps what was there. */
int hist_cmd_report(struct hist_cli *c, int argc, char **argv)
{
	struct table_opts t = { .c = c, .report = true };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_outfile of;
	int rc;

	clyde_loaded_set_init(&set);
	rc = stored_table(c, argc, argv, &t, &set, &cmp);
	if (rc) {
		clyde_loaded_set_release(&set);
		return rc == 2 ? CLYDE_EXIT_OK : rc;
	}
	if (!t.out) {
		rc = hist_usage_error(c, "no output file (-o FILE.html)");
	} else if ((rc = clyde_outfile_open(&of, t.out)) < 0) {
		fprintf(stderr, "clyde history report: %s: %s\n", t.out,
			strerror(-rc));
		rc = CLYDE_EXIT_USAGE;
	} else if ((rc = clyde_history_report_write(&c->ctx, of.f, &cmp,
						    t.title)) < 0) {
		clyde_outfile_abort(&of);
		fprintf(stderr, "clyde history report: %s: write: %s\n", t.out,
			strerror(-rc));
		rc = CLYDE_EXIT_USAGE;
	} else if ((rc = clyde_outfile_commit(&of)) < 0) {
		fprintf(stderr, "clyde history report: %s: write: %s\n",
			strcmp(t.out, "-") ? t.out : "standard output",
			strerror(-rc));
		rc = CLYDE_EXIT_USAGE;
	}
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	return rc;
}

/* Write one document to `path` (- for standard output) through a
 * temporary file: a full disk keeps the old content, never half of it. */
static int export_docs(const char *path, char **docs, size_t *lens, size_t n)
{
	struct clyde_outfile of;
	int rc = clyde_outfile_open(&of, path);

	if (rc < 0) {
		fprintf(stderr, "clyde history export: %s: %s\n", path,
			strerror(-rc));
		return CLYDE_EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++) {
		fwrite(docs[i], 1, lens[i], of.f);
		/* A CSV line is stored without its line end. */
		if (lens[i] == 0 || docs[i][lens[i] - 1] != '\n')
			fputc('\n', of.f);
	}
	rc = clyde_outfile_commit(&of);
	if (rc < 0 && !strcmp(path, "-")) {
		clyde_cli_stdout_failed("clyde history export", -rc);
		return CLYDE_EXIT_USAGE;
	}
	if (rc < 0) {
		fprintf(stderr, "clyde history export: %s: write: %s\n", path,
			strerror(-rc));
		return CLYDE_EXIT_USAGE;
	}
	return 0;
}

/* The stored documents of ids[0..n) into docs and lens (n slots each,
 * the caller frees them); *njson counts the JSON results.  0 or exit
 * status 1 (printed). */
static int fetch_docs(struct hist_cli *c, struct clyde_history *h,
		      const int64_t *ids, size_t n, char **docs, size_t *lens,
		      size_t *njson)
{
	for (size_t i = 0; i < n; i++) {
		if (clyde_history_get(&c->ctx, h, ids[i], NULL, &docs[i],
				      &lens[i]) < 0)
			return hist_fail(c);
		if (clyde_history_doc_is_json(docs[i], lens[i]))
			(*njson)++;
	}
	return 0;
}

/* Write the documents to `out`: one file per run (DIR/ID.json or
 * DIR/ID.csv, their paths printed) when it is a directory, else all of
 * them into one file, which JSON results one after the other are not. */
static int write_docs(struct hist_cli *c, const char *out, const int64_t *ids,
		      size_t n, char **docs, size_t *lens, size_t njson)
{
	struct stat sb;
	int rc = 0;

	if (!strcmp(out, "-") || stat(out, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		if (njson > 0 && n > 1)
			return hist_usage_error(
				c,
				"%zu of the %zu runs are JSON results: export "
				"several runs with JSON results into a "
				"directory (-o DIR)",
				njson, n);
		return export_docs(out, docs, lens, n);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		char path[PATH_MAX];
		bool json = clyde_history_doc_is_json(docs[i], lens[i]);

		snprintf(path, sizeof(path), "%s/%" PRId64 ".%s", out, ids[i],
			 json ? "json" : "csv");
		rc = export_docs(path, &docs[i], &lens[i], 1);
		if (rc == 0)
			printf("%s\n", path);
	}
	return rc;
}

int hist_cmd_export(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts ho;
	struct clyde_history *h = NULL;
	int64_t *ids = NULL;
	char **docs = NULL;
	size_t n = 0, *lens = NULL, njson = 0;
	int rc;

	rc = hist_parse(c, HIST_OPTS(hist_export_opts), &argc, &argv, &ho);
	if (rc)
		return rc;
	if (ho.all && argc > 1)
		return hist_usage_error(c, "--all and run ids: give one or the "
					   "other");
	if (!ho.all) {
		rc = hist_parse_ids(c, argc, argv, 1, 1, 0, &ids, &n);
		if (rc)
			return rc;
	}
	if (hist_open_db_ro(c, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	if (ho.all && clyde_history_all_ids(&c->ctx, h, &ids, &n) < 0)
		rc = hist_fail(c);
	if (rc == 0 && n == 0) {
		fprintf(stderr, "clyde history export: %s: no runs stored\n",
			clyde_history_path(h));
		rc = CLYDE_EXIT_USAGE;
	}
	if (rc == 0) {
		docs = calloc(n, sizeof(*docs));
		lens = calloc(n, sizeof(*lens));
		rc = docs && lens ?
			     fetch_docs(c, h, ids, n, docs, lens, &njson) :
			     (fprintf(stderr, "clyde history: out of "
					      "memory\n"),
			      CLYDE_EXIT_USAGE);
	}
	clyde_history_close(h);
	if (rc == 0)
		rc = write_docs(c, ho.output ? ho.output : "-", ids, n, docs,
				lens, njson);
	for (size_t i = 0; docs && i < n; i++)
		free(docs[i]);
	free(docs);
	free(lens);
	free(ids);
	return rc;
}

/* Print what importing one file did; returns its exit status. */
static int import_report(const char *path,
			 const struct clyde_history_import *imp)
{
	int status = CLYDE_EXIT_OK;

	char vis[PATH_MAX + 64];

	for (size_t j = 0; j < imp->nerrors; j++)
		fprintf(stderr, "clyde history import: %s\n",
			clyde_vis(vis, sizeof(vis), imp->errors[j], 0));
	if (imp->nerrors)
		status = CLYDE_EXIT_USAGE;
	/* A duplicate skipped is not an error: it is there already. */
	for (size_t j = 0; j < imp->nskipped; j++)
		printf("%s, skipped (--force stores it again)\n",
		       clyde_vis(vis, sizeof(vis), imp->skipped[j], 0));
	if (imp->nids == 0 && imp->nskipped == 0) {
		fprintf(stderr, "clyde history import: %s: no results in it\n",
			clyde_vis(vis, sizeof(vis), path, 0));
		return CLYDE_EXIT_USAGE;
	}
	if (imp->nids == 0)
		return status;
	printf("%s: %zu run%s imported, id%s",
	       clyde_vis(vis, sizeof(vis), path, 0), imp->nids,
	       imp->nids == 1 ? "" : "s", imp->nids == 1 ? "" : "s");
	for (size_t j = 0; j < imp->nids; j++)
		printf("%s%" PRId64, j ? ", " : " ", imp->ids[j]);
	putchar('\n');
	return status;
}

/* --labels must match the results one for one: counted before anything
 * is stored, so that a mismatch stores nothing.  0 or an exit status
 * (printed). */
static int check_labels(struct hist_cli *c, int argc, char **argv,
			size_t nlabels)
{
	size_t nresults = 0;

	for (int i = 1; nlabels && i < argc; i++) {
		size_t k;

		if (clyde_history_count_results(&c->ctx, argv[i], &k) < 0)
			return hist_fail(c);
		nresults += k;
	}
	if (nlabels && nlabels != nresults)
		return hist_usage_error(
			c,
			"--labels: %zu label%s for %zu result%s (one "
			"per CSV line, JSON file or fio job, in "
			"order); nothing imported",
			nlabels, nlabels == 1 ? "" : "s", nresults,
			nresults == 1 ? "" : "s");
	return 0;
}

int hist_cmd_import(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts ho;
	struct clyde_cli_results lab = { 0 };
	struct clyde_history *h = NULL;
	const char *label = NULL;
	char path[PATH_MAX];
	struct stat st;
	size_t nstored = 0, used = 0;
	bool existed, force = false;
	int o, status = CLYDE_EXIT_OK;

	o = hist_parse(c, HIST_OPTS(hist_import_opts), &argc, &argv, &ho);
	if (o)
		return o;
	lab = ho.labels;
	label = ho.label;
	force = ho.force;
	if (argc <= 1) {
		clyde_cli_results_release(&lab);
		return hist_usage_error(c, "no file to import");
	}
	o = check_labels(c, argc, argv, lab.nlabels);
	if (o) {
		clyde_cli_results_release(&lab);
		return o;
	}
	if (c->db)
		snprintf(path, sizeof(path), "%s", c->db);
	else if (clyde_history_default_path(&c->ctx, path, sizeof(path)) < 0) {
		clyde_cli_results_release(&lab);
		return hist_fail(c);
	}
	existed = lstat(path, &st) == 0;
	if (hist_open_db(c, true, &h)) {
		clyde_cli_results_release(&lab);
		return CLYDE_EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++) {
		struct clyde_history_import imp;

		clyde_history_import_init(&imp);
		imp.label = label;
		imp.force = force;
		if (used < lab.nlabels) {
			imp.labels = (const char *const *)lab.labels + used;
			imp.nlabels = lab.nlabels - used;
		}
		if (clyde_history_import_file(&c->ctx, h, argv[i], &imp) < 0) {
			hist_fail(c);
			clyde_err_clear(&c->ctx);
			status = CLYDE_EXIT_USAGE;
		} else {
			if (import_report(argv[i], &imp))
				status = CLYDE_EXIT_USAGE;
			nstored += imp.nids;
		}
		used += imp.nresults;
		clyde_history_import_release(&imp);
	}
	clyde_cli_results_release(&lab);
	/* An import that stored nothing in a database it created removes
	 * it again: a mistyped file name leaves no empty history behind. */
	if (!existed && nstored == 0)
		clyde_history_close_discard_empty(h);
	else
		clyde_history_close(h);
	return status;
}
