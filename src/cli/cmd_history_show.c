/*
 * `clyde history list` and `show` (see cmd_history.h): the stored runs as
 * a table of what tells them apart and their key figures, and one run
 * whole.  Every text from the history is escaped (core/vis.h).
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_history.h"
#include "core/vis.h"
#include "report/compare.h"
#include "results/loaded.h"
#include "store/history.h"

/* A column of key figures: its test and unit. */
struct fig_col {
	enum clyde_test test;
	const char *base_unit; /* of the stored value */
	double divisor;	       /* to the unit in the header */
};

/* One key figure as the list shows it, rounded by the compare table's
 * own function (clyde_compare_cell_text(), clyde_fmt_readable()), so that
 * one value reads alike in both; "+++++" for a bonnie++ "too fast"
 * without a number. */
static void fmt_fig(char *buf, size_t len, const struct clyde_history_figure *f,
		    const struct fig_col *col)
{
	double v = f->value / col->divisor;
	struct clyde_cmp_row row = { .metric = CLYDE_CMP_RATE,
				     .divisor = col->divisor };
	struct clyde_cmp_cell cell = { .n = 1 };

	snprintf(row.base_unit, sizeof(row.base_unit), "%s", col->base_unit);
	switch (f->state) {
	case CLYDE_HIST_FIG_VALUE:
		cell.state = f->too_fast ? CLYDE_LOADED_TOO_FAST :
					   CLYDE_LOADED_VALUE;
		cell.has_value = true;
		cell.value = f->value;
		/* A whole number (a CSV's 888 files/s) is a row of whole
		 * numbers to compare: no false decimals. */
		row.whole = !f->too_fast && v == floor(v);
		cell.flags = f->flags;
		clyde_compare_flagged_text(buf, len, &row, &cell);
		break;
	case CLYDE_HIST_FIG_TOO_FAST:
		snprintf(buf, len, "+++++");
		break;
	default:
		snprintf(buf, len, "-");
	}
}

static const struct fig_col fig_cols[] = {
	{ CLYDE_PUT_BLOCK, "B/s", 1048576.0 },
	{ CLYDE_GET_BLOCK, "B/s", 1048576.0 },
	{ CLYDE_SEEKS, "seeks/s", 1.0 },
	{ CLYDE_SEQ_CREATE, "files/s", 1.0 },
};

#define LIST_COLS 17
#define CELL 256

static const struct {
	const char *head;
	int right; /* right-aligned (numbers) */
} list_cols[LIST_COLS] = {
	{ "ID", 1 },	      { "DATE", 0 },	   { "LABEL", 0 },
	{ "KIND", 0 },	      { "TARGET", 0 },	   { "FS", 0 },
	{ "SIZE", 1 },	      { "FILES", 1 },	   { "CHUNK", 1 },
	{ "O_DIRECT", 0 },    { "ENGINE", 0 },	   { "DEPTH", 1 },
	{ "WRITE MiB/s", 1 }, { "READ MiB/s", 1 }, { "SEEKS/s", 1 },
	{ "CREATE/s", 1 },    { "NOTE", 0 },
};

/* The label column in buf: a sweep's run that kept the default label
 * (the host name, which every run of the sweep shares) is named by its
 * point's axis values instead ("b: sz=8m ch=4k" when the experiment has
 * several workloads); a label of the user's stays. */
static const char *list_label(char *buf, size_t len,
			      const struct clyde_history_entry *e)
{
	if (!e->point[0] || (e->label[0] && strcmp(e->label, e->host)))
		return e->label;
	snprintf(buf, len, "%s%s%s", e->workload, e->workload[0] ? ": " : "",
		 e->point);
	return buf;
}

/* Fill the cells of one list row. */
static void list_row(char *r, const struct clyde_history_entry *e)
{
	char label[CELL];
	const char *text[] = { list_label(label, sizeof(label), e),
			       e->kind,
			       e->target_path,
			       e->fstype,
			       e->file_size,
			       e->files,
			       e->io_chunk,
			       e->direct,
			       e->engine,
			       e->iodepth };
	const size_t ntext = sizeof(text) / sizeof(text[0]);

	snprintf(r, CELL, "%" PRId64, e->id);
	hist_fmt_date(r + CELL, CELL, e->started_unix);
	/* Labels, notes, paths and host names are the user's or a file's
	 * text: a control character would move the cursor or end the row. */
	for (size_t j = 0; j < ntext; j++)
		clyde_vis(r + (2 + j) * CELL, CELL, hist_or_dash(text[j]), 0);
	for (size_t j = 0; j < sizeof(fig_cols) / sizeof(fig_cols[0]); j++)
		fmt_fig(r + (2 + ntext + j) * CELL, CELL,
			&e->fig[fig_cols[j].test], &fig_cols[j]);
	clyde_vis(r + (LIST_COLS - 1) * CELL, CELL, e->note, 0);
}

int hist_cmd_list(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts o;
	struct clyde_history_entry *e = NULL;
	struct clyde_history *h;
	char *cells = NULL;
	size_t n = 0, limit = 0, w[LIST_COLS];
	int rc;

	rc = hist_parse(c, HIST_OPTS(hist_list_opts), &argc, &argv, &o);
	if (rc)
		return rc;
	limit = (size_t)o.limit;
	if (argc > 1)
		return hist_usage_error(c, "unexpected argument \"%s\"",
					argv[1]);

	rc = clyde_history_open_readonly(&c->ctx, c->db, &h);
	if (rc == -ENOENT) {
		/* Nothing saved yet is not an error of `list`. */
		fprintf(stderr, "clyde history list: %s\n",
			clyde_errmsg(&c->ctx));
		return CLYDE_EXIT_OK;
	}
	if (rc < 0)
		return hist_fail(c);
	rc = clyde_history_list(&c->ctx, h, limit, &e, &n);
	clyde_history_close(h);
	if (rc < 0)
		return hist_fail(c);

	/* Render every cell first: the columns are as wide as their
	 * widest cell. */
	cells = calloc((n + 1) * LIST_COLS, CELL);
	if (!cells) {
		clyde_history_entries_free(e, n);
		fprintf(stderr, "clyde history list: out of memory\n");
		return CLYDE_EXIT_USAGE;
	}
	for (int j = 0; j < LIST_COLS; j++)
		snprintf(cells + j * CELL, CELL, "%s", list_cols[j].head);
	for (size_t i = 0; i < n; i++)
		list_row(cells + (i + 1) * LIST_COLS * CELL, &e[i]);
	for (int j = 0; j < LIST_COLS; j++) {
		w[j] = 0;
		for (size_t i = 0; i <= n; i++) {
			size_t l = strlen(cells + (i * LIST_COLS + j) * CELL);

			if (l > w[j])
				w[j] = l;
		}
	}
	for (size_t i = 0; i <= n; i++) {
		for (int j = 0; j < LIST_COLS; j++) {
			const char *s = cells + (i * LIST_COLS + j) * CELL;
			int last = j == LIST_COLS - 1;

			if (list_cols[j].right)
				printf("%*s", (int)w[j], s);
			else if (last)
				printf("%s", s);
			else
				printf("%-*s", (int)w[j], s);
			/* No trailing blanks before an empty note. */
			if (!last && !(j == LIST_COLS - 2 &&
				       !cells[(i * LIST_COLS + j + 1) * CELL]))
				fputs("  ", stdout);
		}
		putchar('\n');
	}
	free(cells);
	clyde_history_entries_free(e, n);
	return CLYDE_EXIT_OK;
}

/* The lines about run e (loaded as r) before its table: where and how
 * it ran, every setting it recorded and the note last. */
static void show_head(const struct clyde_history_entry *e,
		      const struct clyde_loaded_run *r)
{
	char date[64], saved[64], src[PATH_MAX + 32], v[PATH_MAX + 64], k[256];
	size_t w;

	hist_fmt_date(date, sizeof(date), e->started_unix);
	hist_fmt_date(saved, sizeof(saved), e->saved_unix);
	/* Keys in one column as wide as the longest. */
	w = strlen("imported from");
	for (size_t i = 0; i < r->nkv; i++) {
		clyde_vis(k, sizeof(k), r->kv[i].key, 0);
		if (strlen(k) > w)
			w = strlen(k);
	}
	/* Every text below is the user's or a file's: escaped (vis.h), so
	 * that a label cannot set the window title or add a line. */
	printf("Run %" PRId64 ": %s\n", e->id,
	       clyde_vis(v, sizeof(v), e->label[0] ? e->label : "-", 0));
	printf("  %-*s  %s\n", (int)w, "date", date);
	printf("  %-*s  %s\n", (int)w, "kind",
	       clyde_vis(v, sizeof(v), e->kind, 0));
	printf("  %-*s  %s\n", (int)w, "saved", saved);
	printf("  %-*s  %s\n", (int)w, "imported from",
	       clyde_vis(v, sizeof(v), hist_source_text(src, sizeof(src), e),
			 0));
	if (e->experiment[0]) {
		snprintf(src, sizeof(src), "%s, point %s%s%s", e->experiment,
			 e->point, e->workload[0] ? ", workload " : "",
			 e->workload);
		printf("  %-*s  %s\n", (int)w, "sweep",
		       clyde_vis(v, sizeof(v), src, 0));
	}
	/* What the run recorded about itself (machine, target, options),
	 * and the user's note last. */
	for (size_t i = 0; i < r->nkv; i++) {
		clyde_vis(k, sizeof(k), r->kv[i].key, 0);
		printf("  %-*s  %s\n", (int)w, k,
		       clyde_vis(v, sizeof(v), r->kv[i].value, 0));
	}
	putchar('\n');
}

int hist_cmd_show(struct hist_cli *c, int argc, char **argv)
{
	struct hist_opts ho;
	struct clyde_history_entry e = { 0 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_compare_opts copts = { 0 };
	struct clyde_history *h = NULL;
	int64_t *ids = NULL;
	size_t n;
	int rc;

	rc = hist_parse(c, HIST_OPTS(hist_db_opts), &argc, &argv, &ho);
	if (rc)
		return rc;
	rc = hist_parse_ids(c, argc, argv, 1, 1, 1, &ids, &n);
	if (rc)
		return rc;
	if (hist_open_db_ro(c, &h)) {
		free(ids);
		return CLYDE_EXIT_USAGE;
	}
	clyde_loaded_set_init(&set);
	rc = clyde_history_load(&c->ctx, h, ids[0], false, &e, &set);
	clyde_history_close(h);
	rc = hist_loaded(c, &set, rc);
	if (rc)
		goto out;

	show_head(&e, &set.runs[0]);

	rc = clyde_compare_build(&c->ctx, &set, &copts, &cmp);
	if (rc < 0) {
		rc = hist_fail(c);
		goto out;
	}
	rc = clyde_compare_write(stdout, &cmp, CLYDE_COMPARE_TEXT);
	if (rc < 0)
		rc = hist_stdout_failed(c, rc);
	clyde_compare_release(&cmp);
out:
	clyde_loaded_set_release(&set);
	clyde_history_entry_release(&e);
	free(ids);
	return rc;
}
