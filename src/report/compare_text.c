/*
 * The compare table as plain text and as Markdown (see compare.h): the
 * table as a grid of strings first, so that the text writer can size its
 * columns and Markdown uses the very same cells; then the legend, which
 * names every mark used, the settings groups and what sets them apart,
 * and the runs.
 */
#include "report/compare.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/vis.h"

struct grid {
	size_t ncols, nrows;
	char **cells; /* nrows x ncols, row-major, owned */
	bool *right;  /* per column: right-aligned */
	bool *bold;   /* nrows x ncols: markdown shows it in bold */
};

static void grid_free(struct grid *g)
{
	size_t i;

	if (g->cells)
		for (i = 0; i < g->ncols * g->nrows; i++)
			free(g->cells[i]);
	free(g->cells);
	free(g->right);
	free(g->bold);
}

static int grid_set(struct grid *g, size_t r, size_t c, const char *s)
{
	char *d = strdup(s);

	if (!d)
		return -ENOMEM;
	free(g->cells[r * g->ncols + c]);
	g->cells[r * g->ncols + c] = d;
	return 0;
}

static bool has_change_col(const struct clyde_compare *cmp, size_t col)
{
	return cmp->baseline >= 0 && (long)col != cmp->baseline;
}

/* Does the row's scope split its runs into settings groups? */
static bool split_row(const struct clyde_compare *cmp,
		      const struct clyde_cmp_row *row)
{
	return row->scope < CLYDE_SCOPE_COUNT &&
	       cmp->scopes[row->scope].nclasses > 1;
}

/* A cell's best mark: " *", " *=" (marked: equivalent to the best),
 * " *?" (marked: the data cannot tell it from the best), or "". */
static const char *best_mark(const struct clyde_cmp_cell *cell)
{
	if (!cell->best)
		return "";
	if (cell->decided && cell->verdict == CLYDE_VERDICT_EQUIVALENT)
		return " *=";
	if (cell->decided && cell->verdict == CLYDE_VERDICT_CANNOT_TELL)
		return " *?";
	return " *";
}

/* A cell with its marks: value, " ±ci", "!", " !!", " *", " [A]",
 * " (s)". */
static void cell_with_marks(char *buf, size_t len,
			    const struct clyde_compare *cmp,
			    const struct clyde_cmp_row *row,
			    const struct clyde_cmp_cell *cell)
{
	char val[160], ci[64], cls[16] = "";

	/* The flags beside every figure that is ranked (CPU is not). */
	if (row->metric != CLYDE_CMP_CPU)
		clyde_compare_flagged_text(val, sizeof(val), row, cell);
	else
		clyde_compare_cell_text(val, sizeof(val), row, cell);
	clyde_compare_ci_text(ci, sizeof(ci), row, cell);
	if (split_row(cmp, row) && row->metric != CLYDE_CMP_CPU &&
	    cell->state != CLYDE_LOADED_NOT_RUN)
		clyde_compare_class_name(cls, sizeof(cls), cell->cls);
	snprintf(buf, len, "%s%s%s%s%s%s%s%s%s", val, ci[0] ? " \xc2\xb1" : "",
		 ci, cell->disagree ? "!" : "",
		 cell->runs_disagree ? " !!" : "", best_mark(cell),
		 cls[0] ? " [" : "", cls, cls[0] ? "]" : "");
	if (cell->sig != CLYDE_CMP_SIG_NONE) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "%s",
			 cell->sig == CLYDE_CMP_SIG_YES ? " (s)" : " (ns)");
	}
}

static int build_grid(const struct clyde_compare *cmp, struct grid *g)
{
	static const char *const mname[] = { "rate", "CPU", "lat max",
					     "lat p99" };
	size_t i, r, c, col;
	char buf[256];

	memset(g, 0, sizeof(*g));
	g->ncols = 3 + cmp->ncols;
	for (i = 0; i < cmp->ncols; i++)
		if (has_change_col(cmp, i))
			g->ncols++;
	g->nrows = cmp->nrows + 1;
	g->cells = calloc(g->ncols * g->nrows, sizeof(*g->cells));
	g->right = calloc(g->ncols, sizeof(*g->right));
	g->bold = calloc(g->ncols * g->nrows, sizeof(*g->bold));
	if (!g->cells || !g->right || !g->bold)
		return -ENOMEM;
	if (grid_set(g, 0, 0, "test") || grid_set(g, 0, 1, "metric") ||
	    grid_set(g, 0, 2, "unit"))
		return -ENOMEM;
	col = 3;
	for (i = 0; i < cmp->ncols; i++) {
		g->right[col] = true;
		if (grid_set(g, 0, col++, cmp->labels[i]))
			return -ENOMEM;
		if (has_change_col(cmp, i)) {
			g->right[col] = true;
			if (grid_set(g, 0, col++, "change"))
				return -ENOMEM;
		}
	}
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];

		if (grid_set(g, r + 1, 0, row->test) ||
		    grid_set(g, r + 1, 1, mname[row->metric]) ||
		    grid_set(g, r + 1, 2, row->unit))
			return -ENOMEM;
		col = 3;
		for (c = 0; c < cmp->ncols; c++) {
			const struct clyde_cmp_cell *cell = &row->cells[c];

			cell_with_marks(buf, sizeof(buf), cmp, row, cell);
			g->bold[(r + 1) * g->ncols + col] = cell->best;
			if (grid_set(g, r + 1, col++, buf))
				return -ENOMEM;
			if (!has_change_col(cmp, c))
				continue;
			if (cell->has_change)
				clyde_compare_change_text(buf, sizeof(buf),
							  cell->change_pct);
			else
				buf[0] = '\0';
			if (grid_set(g, r + 1, col++, buf))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Display width of a cleaned string: one column per UTF-8 character. */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* A user's string made safe for a terminal: control characters
 * escaped (core/vis.h). */
static void clean(char *dst, size_t len, const char *s)
{
	clyde_vis(dst, len, s, 0);
}

/* The settings groups of one scope: which settings differ, and per group
 * its values and its runs. */
static void legend_scope(FILE *f, const struct clyde_compare *cmp, size_t s)
{
	const struct clyde_cmp_scope *sc = &cmp->scopes[s];
	char keys[512], text[1024], name[16], l[512];
	size_t c, o;
	unsigned k;

	for (o = 0; o < s; o++)
		if (cmp->scopes[o].used && cmp->scopes[o].nclasses > 1 &&
		    clyde_compare_scope_same(cmp, o, s))
			return; /* told with scope o */
	fputs(clyde_scope_name((enum clyde_scope)s), f);
	for (o = s + 1; o < CLYDE_SCOPE_COUNT; o++)
		if (cmp->scopes[o].used && clyde_compare_scope_same(cmp, o, s))
			fprintf(f, " and %s",
				clyde_scope_name((enum clyde_scope)o));
	clyde_compare_scope_keys(keys, sizeof(keys), sc);
	fprintf(f,
		": the runs differ in %s, so they are compared (*) only "
		"within a settings group:\n",
		keys);
	for (k = 0; k < sc->nclasses; k++) {
		bool first = true;

		for (c = 0; c < cmp->ncols; c++) {
			if (!sc->in[c] || sc->cls[c] != k)
				continue;
			if (first) {
				clyde_compare_class_name(name, sizeof(name), k);
				clyde_compare_class_text(text, sizeof(text),
							 cmp, sc, c);
				clean(l, sizeof(l), text);
				fprintf(f, "  [%s] %s:", name, l);
			}
			clean(l, sizeof(l), cmp->labels[c]);
			fprintf(f, "%s %s", first ? "" : ",", l);
			first = false;
		}
		fputc('\n', f);
	}
}

void clyde_compare_write_flags(FILE *f, const struct clyde_compare *cmp)
{
	for (unsigned i = 0; i < CLYDE_LOADED_FLAG_COUNT; i++)
		if (cmp->any_flags & (1u << i))
			fprintf(f, "(%s) %s\n", clyde_loaded_flag_name(1u << i),
				clyde_loaded_flag_text(1u << i));
	if (cmp->any_unranked)
		fputs("  a flagged figure is not ranked (no *) against "
		      "figures without a flag\n",
		      f);
	else if (cmp->any_flags)
		fputs("  figures with a flag are ranked only when every "
		      "figure of their group has one\n",
		      f);
}

/* "seq_create rate: 93 files/s (a) to 2419 (b), 26.0x", one line per
 * row and set of runs made alike (compare.h: runs_disagree). */
static void runs_disagree(FILE *f, const struct clyde_compare *cmp)
{
	size_t ri, ci, tw;

	fputs("!! runs made alike (every recorded setting that changes the "
	      "measurement, machine,\n   filesystem and device the same), "
	      "results 2x apart or more:\n   noise, or something the results "
	      "do not record:\n",
	      f);
	for (ri = 0; ri < cmp->nrows; ri++) {
		const struct clyde_cmp_row *row = &cmp->rows[ri];

		for (tw = 0; tw < cmp->ncols; tw++) {
			size_t lo = cmp->ncols, hi = cmp->ncols;
			char a[64], b[64], la[256], lb[256];

			for (ci = 0; ci < cmp->ncols; ci++) {
				const struct clyde_cmp_cell *c =
					&row->cells[ci];

				if (!c->runs_disagree || c->twins != tw)
					continue;
				if (lo == cmp->ncols ||
				    c->value < row->cells[lo].value)
					lo = ci;
				if (hi == cmp->ncols ||
				    c->value > row->cells[hi].value)
					hi = ci;
			}
			if (lo == cmp->ncols)
				continue;
			clyde_compare_cell_text(a, sizeof(a), row,
						&row->cells[lo]);
			clyde_compare_cell_text(b, sizeof(b), row,
						&row->cells[hi]);
			clean(la, sizeof(la), cmp->labels[lo]);
			clean(lb, sizeof(lb), cmp->labels[hi]);
			fprintf(f, "  %s %s: %s %s (%s) to %s (%s), %.1fx\n",
				row->test, clyde_cmp_metric_name(row->metric),
				a, row->unit, la, b, lb,
				row->cells[hi].value / row->cells[lo].value);
		}
	}
}

static int legend(FILE *f, const struct clyde_compare *cmp)
{
	int rc;
	size_t i, ri, ci;
	char l[512], src[1024], date[64];
	bool approx = false, fast = false, best = false;

	for (ri = 0; ri < cmp->nrows; ri++)
		for (ci = 0; ci < cmp->ncols; ci++) {
			best |= cmp->rows[ri].cells[ci].best;
			if (cmp->rows[ri].cells[ci].state ==
			    CLYDE_LOADED_TOO_FAST) {
				if (cmp->rows[ri].cells[ci].has_value)
					approx = true;
				else
					fast = true;
			}
		}
	/* No mark, no legend for it (one run, as history show prints). */
	if (best)
		fputs("* best in its row (rates: highest; latency: lowest; CPU is "
		      "not ranked: less CPU for less work is no gain)\n",
		      f);
	if (cmp->any_best_by_value)
		fputs("  with a single sample (no repeats on the best or the "
		      "runner-up) * is by value only:\n  the noise was not "
		      "measured\n",
		      f);
	if (cmp->any_best_tie)
		fputs("  several * in a row with repeats: a tie, the best is "
		      "not better than them\n  (Welch's t-test on log values, "
		      "95%; docs/compare.md)\n",
		      f);
	if (cmp->any_best_equivalent)
		fputs("  *= equivalent to the best: the difference is within "
		      "\xc2\xb1"
		      "5%\n",
		      f);
	if (cmp->any_best_cannot_tell)
		fputs("  *? cannot tell from the best: neither significantly "
		      "worse nor within \xc2\xb1"
		      "5%;\n  more repeats would "
		      "decide\n",
		      f);
	if (cmp->any_ci)
		fputs("\xc2\xb1 95% confidence interval of the mean over the "
		      "repeats (Student's t)\n",
		      f);
	if (cmp->any_disagree)
		fputs("! the repeats disagree: the largest is at least twice "
		      "the smallest, the mean hides that\n",
		      f);
	if (approx)
		fputs("~ ran under 0.5 s (bonnie++ prints +++++): measured, "
		      "but imprecise; ranked by its value\n",
		      f);
	clyde_compare_write_flags(f, cmp);
	if (fast)
		fputs("too fast: ran under 0.5 s (+++++), no number "
		      "recorded\n",
		      f);
	if (cmp->baseline >= 0) {
		clean(l, sizeof(l), cmp->labels[cmp->baseline]);
		fprintf(f, "change: against %s\n", l);
	}
	if (cmp->any_sig) {
		clean(l, sizeof(l), cmp->labels[cmp->ref]);
		fprintf(f,
			"(s) significant / (ns) not significant difference "
			"from %s (Welch's t-test on log values, 95%%)\n",
			l);
	}
	if (cmp->any_runs_disagree)
		runs_disagree(f, cmp);
	for (i = 0; i < CLYDE_SCOPE_COUNT; i++)
		if (cmp->scopes[i].used && cmp->scopes[i].nclasses > 1)
			legend_scope(f, cmp, i);
	rc = clyde_compare_write_differs(f, cmp);
	fputc('\n', f);
	for (i = 0; i < cmp->ncols; i++) {
		const struct clyde_loaded_run *r = cmp->runs[i];

		clean(l, sizeof(l), cmp->labels[i]);
		clean(src, sizeof(src), r->source);
		fprintf(f, "%s: %s (%s", l, src, r->format);
		if (clyde_compare_run_date(date, sizeof(date), r)[0])
			fprintf(f, ", %s", date);
		if (r->nrepeats > 1)
			fprintf(f, ", %zu repeats", r->nrepeats);
		fprintf(f, ")\n");
	}
	return rc;
}

static int write_text(FILE *f, const struct grid *g,
		      const struct clyde_compare *cmp)
{
	size_t *w = calloc(g->ncols, sizeof(*w));
	char buf[1024];
	size_t r, c;

	if (!w)
		return -ENOMEM;
	for (r = 0; r < g->nrows; r++)
		for (c = 0; c < g->ncols; c++) {
			size_t cw;

			clean(buf, sizeof(buf), g->cells[r * g->ncols + c]);
			cw = width(buf);
			if (cw > w[c])
				w[c] = cw;
		}
	for (r = 0; r < g->nrows; r++) {
		char *line = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&line, &len);

		if (!m) {
			free(w);
			return -ENOMEM;
		}
		for (c = 0; c < g->ncols; c++) {
			size_t pad;

			clean(buf, sizeof(buf), g->cells[r * g->ncols + c]);
			pad = w[c] - width(buf);
			if (c)
				fputs("  ", m);
			if (g->right[c])
				fprintf(m, "%*s%s", (int)pad, "", buf);
			else
				fprintf(m, "%s%*s", buf, (int)pad, "");
		}
		fclose(m);
		if (!line) {
			free(w);
			return -ENOMEM;
		}
		/* Empty cells at the end leave no trailing blanks. */
		while (len && line[len - 1] == ' ')
			len--;
		fwrite(line, 1, len, f);
		fputc('\n', f);
		free(line);
	}
	fputc('\n', f);
	free(w);
	return legend(f, cmp);
}

/* Markdown: escape only what would end a cell or start markup (a pipe, a
 * backslash, code, emphasis with '*', HTML, links); '_', '~' and '#' in
 * the middle of a cell are text to every renderer. */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch == 0x7f)
			fputc('_', f);
		else if (strchr("\\`*|<>[]", ch))
			fprintf(f, "\\%c", ch);
		else
			fputc(ch, f);
	}
}

static int write_markdown(FILE *f, const struct grid *g,
			  const struct clyde_compare *cmp)
{
	char *text = NULL;
	size_t len = 0, r, c;
	FILE *m;
	const char *p;
	int rc;

	for (r = 0; r < g->nrows; r++) {
		fputc('|', f);
		for (c = 0; c < g->ncols; c++) {
			bool b = g->bold[r * g->ncols + c];

			fputc(' ', f);
			if (b)
				fputs("**", f);
			md_text(f, g->cells[r * g->ncols + c]);
			if (b)
				fputs("**", f);
			fputs(" |", f);
		}
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (c = 0; c < g->ncols; c++)
				fputs(g->right[c] ? " ---: |" : " --- |", f);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
	/* The legend, each line ending in a hard break. */
	m = open_memstream(&text, &len);
	if (!m)
		return -ENOMEM;
	rc = legend(m, cmp);
	fclose(m);
	if (rc) {
		free(text);
		return rc;
	}
	for (p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n);

		if (!line) {
			free(text);
			return -ENOMEM;
		}
		if (n) {
			md_text(f, line);
			fputs("  ", f);
		}
		fputc('\n', f);
		free(line);
		p += n + (nl ? 1 : 0);
	}
	free(text);
	return 0;
}

int clyde_compare_write_text(FILE *f, const struct clyde_compare *cmp,
			     bool markdown)
{
	struct grid g;
	int rc = build_grid(cmp, &g);

	if (!rc)
		rc = markdown ? write_markdown(f, &g, cmp) :
				write_text(f, &g, cmp);
	grid_free(&g);
	return rc;
}
