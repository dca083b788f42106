/*
 * The compare table (see compare.h): building the model from loaded runs,
 * and writing it as text, Markdown or CSV.
 *
 * The model holds every decision (which rows, which unit, which cell is
 * best, changes, significance); the writers only lay it out, so the three
 * formats and the HTML report cannot disagree.
 */
#include "report/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "results/format.h"

const char *clyde_cmp_metric_name(enum clyde_cmp_metric m)
{
	switch (m) {
	case CLYDE_CMP_RATE:
		return "rate";
	case CLYDE_CMP_CPU:
		return "cpu";
	case CLYDE_CMP_LAT_MAX:
		return "latency max";
	case CLYDE_CMP_LAT_P99:
		return "latency p99";
	}
	return "?";
}

void clyde_compare_release(struct clyde_compare *cmp)
{
	size_t i;

	if (cmp->labels)
		for (i = 0; i < cmp->ncols; i++)
			free(cmp->labels[i]);
	free(cmp->labels);
	free(cmp->runs);
	for (i = 0; i < cmp->nrows; i++)
		free(cmp->rows[i].cells);
	free(cmp->rows);
	memset(cmp, 0, sizeof(*cmp));
}

static bool label_taken(char **labels, size_t n, const char *l)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(labels[i], l))
			return true;
	return false;
}

/* Labels: the caller's, else the run's name, else "run<N>"; a label seen
 * before gets "#2", "#3", ... (the first free one). */
static int make_labels(struct clyde_compare *cmp,
		       const struct clyde_compare_opts *o)
{
	size_t i;

	for (i = 0; i < cmp->ncols; i++) {
		const char *base = i < o->nlabels ? o->labels[i] :
						    cmp->runs[i]->label;
		char *l = NULL;
		unsigned k;

		if (!base || !base[0]) {
			if (asprintf(&l, "run%zu", i + 1) < 0)
				return -ENOMEM;
		} else {
			l = strdup(base);
			if (!l)
				return -ENOMEM;
		}
		for (k = 2; label_taken(cmp->labels, i, l); k++) {
			char *nl;

			if (asprintf(&nl, "%s#%u",
				     base && base[0] ? base : "run", k) < 0) {
				free(l);
				return -ENOMEM;
			}
			free(l);
			l = nl;
		}
		cmp->labels[i] = l;
	}
	return 0;
}

static const struct clyde_loaded_test *
find_test(const struct clyde_loaded_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ntests; i++)
		if (!strcmp(r->tests[i].name, name))
			return &r->tests[i];
	return NULL;
}

/* Fill one cell of a row from a run's test (NULL: the run lacks it). */
static void fill_cell(struct clyde_cmp_cell *c, enum clyde_cmp_metric m,
		      const struct clyde_loaded_test *t)
{
	bool known = false;
	double v = 0;

	memset(c, 0, sizeof(*c));
	if (!t)
		return;
	c->n = t->nsamples ? t->nsamples : 1;
	switch (m) {
	case CLYDE_CMP_RATE:
		c->state = t->state;
		if (t->has_rate && (t->state == CLYDE_LOADED_VALUE ||
				    t->state == CLYDE_LOADED_TOO_FAST)) {
			c->has_value = true;
			c->value = t->rate;
		}
		return;
	case CLYDE_CMP_CPU:
		known = t->has_cpu;
		v = t->cpu_pct;
		break;
	case CLYDE_CMP_LAT_MAX:
		known = t->has_latency_max;
		v = (double)t->latency_max_ns;
		break;
	case CLYDE_CMP_LAT_P99:
		known = t->has_latency;
		v = (double)t->latency.p99_ns;
		break;
	}
	if (known && t->state != CLYDE_LOADED_NOT_RUN &&
	    t->state != CLYDE_LOADED_SKIPPED) {
		c->state = CLYDE_LOADED_VALUE;
		c->has_value = true;
		c->value = v;
	} else if (t->state == CLYDE_LOADED_SKIPPED ||
		   (m == CLYDE_CMP_CPU && t->state == CLYDE_LOADED_TOO_FAST)) {
		/* bonnie++ writes "+++" for the CPU of a test too fast to
		 * time; a latency it did not record is simply unknown. */
		c->state = t->state;
	}
}

/* The shown unit: the largest binary prefix the row's largest value
 * reaches (rates in bytes), or the time unit (latencies). */
static void choose_unit(struct clyde_cmp_row *row, size_t ncols)
{
	double max = 0;
	size_t i;

	for (i = 0; i < ncols; i++)
		if (row->cells[i].has_value && row->cells[i].value > max)
			max = row->cells[i].value;
	row->divisor = 1;
	snprintf(row->unit, sizeof(row->unit), "%s", row->base_unit);
	if (!strcmp(row->base_unit, "B/s")) {
		static const char *const u[] = { "KiB/s", "MiB/s", "GiB/s" };
		double d = 1024;

		for (i = 0; i < 3 && max >= d; i++, d *= 1024) {
			row->divisor = d;
			snprintf(row->unit, sizeof(row->unit), "%s", u[i]);
		}
	} else if (!strcmp(row->base_unit, "ns")) {
		if (max >= 1e9) {
			row->divisor = 1e9;
			snprintf(row->unit, sizeof(row->unit), "s");
		} else if (max >= 1e6) {
			row->divisor = 1e6;
			snprintf(row->unit, sizeof(row->unit), "ms");
		} else if (max >= 1e3) {
			row->divisor = 1e3;
			snprintf(row->unit, sizeof(row->unit), "us");
		}
	}
}

/* Mark the best measured value(s) of a row: only VALUE cells take part
 * (a "too fast" number is imprecise), and only when there is a choice. */
static void mark_best(struct clyde_cmp_row *row, size_t ncols)
{
	double best = 0, first = 0;
	size_t i, n = 0;
	bool differ = false;

	for (i = 0; i < ncols; i++) {
		const struct clyde_cmp_cell *c = &row->cells[i];

		if (c->state != CLYDE_LOADED_VALUE || !c->has_value)
			continue;
		if (!n) {
			best = first = c->value;
		} else {
			if (c->value != first)
				differ = true;
			if (row->higher_better ? c->value > best :
						 c->value < best)
				best = c->value;
		}
		n++;
	}
	if (n < 2 || !differ)
		return;
	for (i = 0; i < ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];

		if (c->state == CLYDE_LOADED_VALUE && c->has_value &&
		    c->value == best)
			c->best = true;
	}
}

static void mark_changes(struct clyde_compare *cmp, struct clyde_cmp_row *row)
{
	const struct clyde_cmp_cell *b;
	size_t i;

	if (cmp->baseline < 0)
		return;
	b = &row->cells[cmp->baseline];
	if (!b->has_value || b->value == 0)
		return;
	for (i = 0; i < cmp->ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];

		if ((long)i == cmp->baseline || !c->has_value)
			continue;
		c->has_change = true;
		c->change_pct = (c->value - b->value) / b->value * 100.0;
	}
}

/* Welch's test of each column's samples against the reference column's,
 * for rates where both have at least two. */
static void mark_sig(struct clyde_compare *cmp, struct clyde_cmp_row *row)
{
	const struct clyde_loaded_test *ref, *t;
	struct clyde_stats_welch w;
	size_t i;

	if (row->metric != CLYDE_CMP_RATE)
		return;
	ref = find_test(cmp->runs[cmp->ref], row->test);
	if (!ref || ref->nsamples < 2)
		return;
	for (i = 0; i < cmp->ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];

		if (i == cmp->ref)
			continue;
		t = find_test(cmp->runs[i], row->test);
		if (!t || t->nsamples < 2 || !c->has_value)
			continue;
		if (clyde_stats_welch(ref->samples, ref->nsamples, t->samples,
				      t->nsamples, &w))
			continue;
		c->p = w.p;
		c->sig = w.p < 0.05 ? CLYDE_CMP_SIG_YES : CLYDE_CMP_SIG_NO;
		cmp->any_sig = true;
	}
}

static int add_row(struct clyde_compare *cmp, const struct clyde_loaded_test *t,
		   enum clyde_cmp_metric m, size_t *rows_cap)
{
	struct clyde_cmp_row row;
	bool any = false, any_value = false;
	size_t i;

	memset(&row, 0, sizeof(row));
	row.cells = calloc(cmp->ncols, sizeof(*row.cells));
	if (!row.cells)
		return -ENOMEM;
	for (i = 0; i < cmp->ncols; i++) {
		fill_cell(&row.cells[i], m, find_test(cmp->runs[i], t->name));
		if (row.cells[i].state != CLYDE_LOADED_NOT_RUN)
			any = true;
		if (row.cells[i].has_value)
			any_value = true;
	}
	/* A rate row shows even when every run was too fast or skipped: that
	 * is a result.  CPU and latency rows need a number somewhere. */
	if (!any || (m != CLYDE_CMP_RATE && !any_value)) {
		free(row.cells);
		return 0;
	}
	snprintf(row.test, sizeof(row.test), "%s", t->name);
	row.group = t->group;
	row.metric = m;
	switch (m) {
	case CLYDE_CMP_RATE:
		snprintf(row.base_unit, sizeof(row.base_unit), "%s", t->unit);
		row.higher_better = true;
		break;
	case CLYDE_CMP_CPU:
		snprintf(row.base_unit, sizeof(row.base_unit), "%%");
		break;
	default:
		snprintf(row.base_unit, sizeof(row.base_unit), "ns");
		break;
	}
	choose_unit(&row, cmp->ncols);
	mark_best(&row, cmp->ncols);
	if (cmp->nrows == *rows_cap) {
		size_t cap = *rows_cap ? *rows_cap * 2 : 16;
		struct clyde_cmp_row *nr =
			realloc(cmp->rows, cap * sizeof(*nr));

		if (!nr) {
			free(row.cells);
			return -ENOMEM;
		}
		cmp->rows = nr;
		*rows_cap = cap;
	}
	cmp->rows[cmp->nrows++] = row;
	mark_changes(cmp, &cmp->rows[cmp->nrows - 1]);
	mark_sig(cmp, &cmp->rows[cmp->nrows - 1]);
	return 0;
}

int clyde_compare_build(struct clyde_ctx *ctx,
			const struct clyde_loaded_set *set,
			const struct clyde_compare_opts *opts,
			struct clyde_compare *cmp)
{
	static const struct clyde_compare_opts none = { NULL, 0, 0 };
	const struct clyde_loaded_test **seen = NULL;
	size_t i, j, k, nseen = 0, rows_cap = 0;
	int rc;

	memset(cmp, 0, sizeof(*cmp));
	if (!opts)
		opts = &none;
	/* Usage errors: the message alone says it all (no strerror). */
	if (!set->nruns) {
		clyde_err(ctx, 0, "no results to compare");
		return -EINVAL;
	}
	if (opts->nlabels > set->nruns) {
		clyde_err(ctx, 0, "%zu labels given for %zu result%s",
			  opts->nlabels, set->nruns,
			  set->nruns == 1 ? "" : "s");
		return -EINVAL;
	}
	if (opts->baseline < 0 || (size_t)opts->baseline > set->nruns) {
		clyde_err(ctx, 0,
			  "baseline %ld is not a result number (1 to %zu)",
			  opts->baseline, set->nruns);
		return -EINVAL;
	}
	cmp->ncols = set->nruns;
	cmp->baseline = opts->baseline - 1;
	cmp->ref = cmp->baseline >= 0 ? (size_t)cmp->baseline : 0;
	cmp->labels = calloc(cmp->ncols, sizeof(*cmp->labels));
	cmp->runs = calloc(cmp->ncols, sizeof(*cmp->runs));
	if (!cmp->labels || !cmp->runs)
		goto nomem;
	for (i = 0; i < cmp->ncols; i++)
		cmp->runs[i] = &set->runs[i];
	if (make_labels(cmp, opts))
		goto nomem;
	for (i = 0; i < cmp->ncols; i++) {
		const struct clyde_loaded_run *r = cmp->runs[i];

		for (j = 0; j < r->ntests; j++) {
			const struct clyde_loaded_test **ns;

			for (k = 0; k < nseen; k++)
				if (!strcmp(seen[k]->name, r->tests[j].name))
					break;
			if (k < nseen)
				continue;
			ns = realloc(seen, (nseen + 1) * sizeof(*ns));
			if (!ns)
				goto nomem;
			seen = ns;
			seen[nseen++] = &r->tests[j];
		}
	}
	for (k = 0; k < nseen; k++) {
		static const enum clyde_cmp_metric metrics[] = {
			CLYDE_CMP_RATE, CLYDE_CMP_CPU, CLYDE_CMP_LAT_MAX,
			CLYDE_CMP_LAT_P99
		};

		for (j = 0; j < 4; j++) {
			rc = add_row(cmp, seen[k], metrics[j], &rows_cap);
			if (rc)
				goto nomem;
		}
	}
	free(seen);
	return 0;
nomem:
	free(seen);
	clyde_compare_release(cmp);
	return clyde_err(ctx, ENOMEM, "building the compare table");
}

int clyde_compare_parse_format(const char *s, enum clyde_compare_format *f)
{
	if (!strcmp(s, "text"))
		*f = CLYDE_COMPARE_TEXT;
	else if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		*f = CLYDE_COMPARE_MARKDOWN;
	else if (!strcmp(s, "csv"))
		*f = CLYDE_COMPARE_CSV;
	else
		return -EINVAL;
	return 0;
}

/* A shown number: no decimals from 1000 on, one from 10, two from 1,
 * and below 1 three significant digits (a row's unit follows its largest
 * value, so a small one may be 0.0000500 s); CPU without decimals, as
 * bonnie++ prints it. */
static void number(char *buf, size_t len, const struct clyde_cmp_row *row,
		   double v)
{
	double s = v / row->divisor;
	int dec = s >= 1000 ? 0 : s >= 10 ? 1 : s >= 1 ? 2 : 3;

	if (!isfinite(s))
		s = 0;
	if (s > 0 && s < 0.1) {
		dec = 2 - (int)floor(log10(s));
		if (dec > 12)
			dec = 12;
	}
	if (row->metric == CLYDE_CMP_CPU)
		dec = 0;
	snprintf(buf, len, "%.*f", dec, s);
}

/* A change in percent: one decimal below 1000%, none above. */
static void change_text(char *buf, size_t len, double pct, bool sign)
{
	int dec = fabs(pct) >= 1000 ? 0 : 1;

	if (sign)
		snprintf(buf, len, "%+.*f%%", dec, pct);
	else
		snprintf(buf, len, "%.*f", dec, pct);
}

char *clyde_compare_cell_text(char *buf, size_t len,
			      const struct clyde_cmp_row *row,
			      const struct clyde_cmp_cell *cell)
{
	char n[64];

	switch (cell->state) {
	case CLYDE_LOADED_NOT_RUN:
		snprintf(buf, len, "%s", "");
		break;
	case CLYDE_LOADED_SKIPPED:
		snprintf(buf, len, "skipped");
		break;
	case CLYDE_LOADED_TOO_FAST:
		if (cell->has_value) {
			number(n, sizeof(n), row, cell->value);
			snprintf(buf, len, "~%s", n);
		} else {
			snprintf(buf, len, "too fast");
		}
		break;
	case CLYDE_LOADED_VALUE:
		if (cell->has_value)
			number(buf, len, row, cell->value);
		else
			snprintf(buf, len, "%s", "");
		break;
	}
	return buf;
}

char *clyde_compare_row_label(char *buf, size_t len,
			      const struct clyde_cmp_row *row)
{
	static const char *const m[] = { "", "CPU", "lat max", "lat p99" };

	if (row->metric == CLYDE_CMP_RATE)
		snprintf(buf, len, "%s %s", row->test, row->unit);
	else
		snprintf(buf, len, "%s %s %s", row->test, m[row->metric],
			 row->unit);
	return buf;
}

/* ---- layout --------------------------------------------------------- */

/*
 * The table as strings first (header row + one row per model row), so
 * that the text writer can size its columns; markdown and CSV use the
 * same grid.  Column kinds: the three row headings, then per run its
 * value and (with a baseline, for the other runs) its change.
 */
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

/* marks: add " *" for the best and the significance mark (text and
 * markdown), or nothing (CSV). */
static int build_grid(const struct clyde_compare *cmp, bool marks,
		      struct grid *g)
{
	size_t i, r, c, col;
	char buf[256], val[128];

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
			snprintf(buf, sizeof(buf), "%s change %%",
				 cmp->labels[i]);
			if (grid_set(g, 0, col++, marks ? "change" : buf))
				return -ENOMEM;
		}
	}
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];
		static const char *const mname[] = { "rate", "CPU", "lat max",
						     "lat p99" };

		if (grid_set(g, r + 1, 0, row->test) ||
		    grid_set(g, r + 1, 1, mname[row->metric]) ||
		    grid_set(g, r + 1, 2, row->unit))
			return -ENOMEM;
		col = 3;
		for (c = 0; c < cmp->ncols; c++) {
			const struct clyde_cmp_cell *cell = &row->cells[c];

			clyde_compare_cell_text(val, sizeof(val), row, cell);
			snprintf(buf, sizeof(buf), "%s%s%s", val,
				 marks && cell->best ? " *" : "",
				 !marks				? "" :
				 cell->sig == CLYDE_CMP_SIG_YES ? " (s)" :
				 cell->sig == CLYDE_CMP_SIG_NO	? " (ns)" :
								  "");
			g->bold[(r + 1) * g->ncols + col] = cell->best;
			if (grid_set(g, r + 1, col++, buf))
				return -ENOMEM;
			if (!has_change_col(cmp, c))
				continue;
			if (cell->has_change)
				change_text(buf, sizeof(buf), cell->change_pct,
					    marks);
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

/* A user's string made safe for a terminal: control characters become
 * '_'. */
static void clean(char *dst, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		dst[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '_' :
									s[i];
	dst[i] = '\0';
}

static void legend(FILE *f, const struct clyde_compare *cmp, const char *pre)
{
	size_t i, ri, ci;
	char l[512], src[1024];
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
		fprintf(f,
			"%s* best in its row (rates: highest; CPU and latency: "
			"lowest)\n",
			pre);
	if (approx)
		fprintf(f,
			"%s~ ran under 0.5 s (bonnie++ prints +++++): "
			"measured, but imprecise; never marked best\n",
			pre);
	if (fast)
		fprintf(f,
			"%stoo fast: ran under 0.5 s (+++++), no number "
			"recorded\n",
			pre);
	if (cmp->baseline >= 0) {
		clean(l, sizeof(l), cmp->labels[cmp->baseline]);
		fprintf(f, "%schange: against %s\n", pre, l);
	}
	if (cmp->any_sig) {
		clean(l, sizeof(l), cmp->labels[cmp->ref]);
		fprintf(f,
			"%s(s) significant / (ns) not significant difference "
			"from %s (Welch's t-test, 95%%)\n",
			pre, l);
	}
	fputc('\n', f);
	for (i = 0; i < cmp->ncols; i++) {
		const struct clyde_loaded_run *r = cmp->runs[i];

		clean(l, sizeof(l), cmp->labels[i]);
		clean(src, sizeof(src), r->source);
		fprintf(f, "%s%s: %s (%s", pre, l, src, r->format);
		if (r->nrepeats > 1)
			fprintf(f, ", %zu repeats", r->nrepeats);
		fprintf(f, ")\n");
	}
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
	legend(f, cmp, "");
	free(w);
	return 0;
}

/* Markdown: escape what would change the table or turn into markup. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch == 0x7f)
			fputc('_', f);
		else if (strchr("\\`*_|<>[]#~", ch))
			fprintf(f, "\\%c", ch);
		else
			fputc(ch, f);
	}
}

static int write_markdown(FILE *f, const struct grid *g,
			  const struct clyde_compare *cmp)
{
	size_t r, c;

	for (r = 0; r < g->nrows; r++) {
		fputc('|', f);
		for (c = 0; c < g->ncols; c++) {
			bool b = g->bold[r * g->ncols + c];

			fputc(' ', f);
			if (b)
				fputs("**", f);
			md_cell(f, g->cells[r * g->ncols + c]);
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
	{
		/* The legend, each line its own paragraph-safe line. */
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);
		const char *p;

		if (!m)
			return -ENOMEM;
		legend(m, cmp, "");
		fclose(m);
		for (p = text; p && *p;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			char *line = strndup(p, n);

			if (!line) {
				free(text);
				return -ENOMEM;
			}
			if (n) {
				md_cell(f, line);
				fputs("  ", f);
			}
			fputc('\n', f);
			free(line);
			p += n + (nl ? 1 : 0);
		}
		free(text);
	}
	return 0;
}

static int write_csv(FILE *f, const struct grid *g,
		     const struct clyde_compare *cmp)
{
	char head[600];
	size_t r, c, i;

	for (r = 0; r < g->nrows; r++) {
		for (c = 0; c < g->ncols; c++) {
			if (c)
				fputc(',', f);
			clyde_fmt_csv_field(f, g->cells[r * g->ncols + c]);
		}
		fputc(',', f);
		if (r == 0) {
			fputs("best", f);
			if (cmp->any_sig) {
				snprintf(head, sizeof(head),
					 "significant vs %s",
					 cmp->labels[cmp->ref]);
				fputc(',', f);
				clyde_fmt_csv_field(f, head);
			}
			fputc('\n', f);
			continue;
		}
		{
			const struct clyde_cmp_row *row = &cmp->rows[r - 1];
			char *list = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&list, &len);
			bool first = true;

			if (!m)
				return -ENOMEM;
			for (i = 0; i < cmp->ncols; i++) {
				if (!row->cells[i].best)
					continue;
				fprintf(m, "%s%s", first ? "" : ";",
					cmp->labels[i]);
				first = false;
			}
			fclose(m);
			clyde_fmt_csv_field(f, list ? list : "");
			free(list);
			if (cmp->any_sig) {
				list = NULL;
				m = open_memstream(&list, &len);
				if (!m)
					return -ENOMEM;
				first = true;
				for (i = 0; i < cmp->ncols; i++) {
					if (row->cells[i].sig !=
					    CLYDE_CMP_SIG_YES)
						continue;
					fprintf(m, "%s%s", first ? "" : ";",
						cmp->labels[i]);
					first = false;
				}
				fclose(m);
				fputc(',', f);
				clyde_fmt_csv_field(f, list ? list : "");
				free(list);
			}
		}
		fputc('\n', f);
	}
	return 0;
}

int clyde_compare_write(FILE *f, const struct clyde_compare *cmp,
			enum clyde_compare_format fmt)
{
	struct grid g;
	int rc;

	rc = build_grid(cmp, fmt != CLYDE_COMPARE_CSV, &g);
	if (!rc) {
		switch (fmt) {
		case CLYDE_COMPARE_TEXT:
			rc = write_text(f, &g, cmp);
			break;
		case CLYDE_COMPARE_MARKDOWN:
			rc = write_markdown(f, &g, cmp);
			break;
		case CLYDE_COMPARE_CSV:
			rc = write_csv(f, &g, cmp);
			break;
		}
	}
	grid_free(&g);
	if (rc)
		return rc;
	errno = 0;
	if (fflush(f) || ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}
