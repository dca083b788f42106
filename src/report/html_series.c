/*
 * The report's "Over time" section: per test, one small chart per run
 * that recorded a time series of two intervals or more (the JSON's
 * "series"; one interval is no course), side by side so one
 * run's course sits beside another's.  A chart has two panels on a common
 * time axis: the rate (top) and the p99 latency (bottom), each with the
 * host's dirty memory as a dashed line and its writeback as a dotted one on
 * a second axis at the right, so a write rate that falls when the dirty
 * limit is reached shows as the lines meeting.  Every run's chart of one
 * test has the same rate and latency scale (the largest of them, said
 * above the charts), so that two courses side by side compare by eye.  An interval in which nothing completed has a rate of 0
 * and no p99: the latency line breaks there.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/html.h"
#include "report/html_parts.h"
#include "results/format.h"

#define W 560.0
#define H 300.0
#define X0 64.0
#define X1 (W - 64.0)
#define TOP0 14.0
#define TOP1 134.0
#define BOT0 168.0
#define BOT1 272.0

static const struct clyde_loaded_test *
find_test(const struct clyde_loaded_run *r, const char *name)
{
	for (size_t i = 0; i < r->ntests; i++)
		if (!strcmp(r->tests[i].name, name))
			return &r->tests[i];
	return NULL;
}

static bool row_has_series(const struct clyde_compare *cmp, const char *name)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_test *t =
			find_test(cmp->runs[c], name);

		if (t && t->series.n >= 2)
			return true;
	}
	return false;
}

bool clyde_html_series_wanted(const struct clyde_compare *cmp)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].metric == CLYDE_CMP_RATE &&
		    row_has_series(cmp, cmp->rows[r].test))
			return true;
	return false;
}

static double top_of(const double *v, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

static double x_of(const struct clyde_loaded_series *s, size_t i)
{
	double span = (double)s->n * s->interval_s;

	return X0 + (s->t_s[i] + s->interval_s / 2) / span * (X1 - X0);
}

/* A line through v[i] (those >= 0) scaled to [0, top] in [y0, y1]; gaps
 * where v[i] < 0.  Returns the points drawn. */
static size_t line(FILE *f, const struct clyde_loaded_series *s,
		   const double *v, double top, double y0, double y1,
		   const char *cls, const char *panel)
{
	bool pen = false;
	size_t drawn = 0;

	fprintf(f, "<path class=\"%s\" data-panel=\"%s\" d=\"", cls, panel);
	for (size_t i = 0; i < s->n; i++) {
		double y;

		if (v[i] < 0 || top <= 0) {
			pen = false;
			continue;
		}
		y = y1 - v[i] / top * (y1 - y0);
		fprintf(f, "%s%.1f %.1f ", pen ? "L" : "M", x_of(s, i), y);
		pen = true;
		drawn++;
	}
	fputs("\"", f);
	return drawn;
}

static void rate_text(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "B/s"))
		clyde_fmt_human_rate(buf, len, v, CLYDE_PUT_BLOCK);
	else
		snprintf(buf, len, "%.4g %s", v, unit);
}

/* The axes' labels of a panel: the top value on the left, the dirty
 * memory's on the right. */
static void labels(FILE *f, double y0, double y1, const char *left,
		   const char *right)
{
	fprintf(f,
		"<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/><line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" "
		"x2=\"%.1f\" y2=\"%.1f\"/>",
		X0, y1, X1, y1, X0, y0, X0, y1);
	fprintf(f,
		"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"end\">",
		X0 - 4, y0 + 8);
	clyde_html_esc(f, left);
	fprintf(f,
		"</text><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"end\">0</text>",
		X0 - 4, y1);
	if (right) {
		fprintf(f, "<text class=\"tick dirty\" x=\"%.1f\" y=\"%.1f\">",
			X1 + 4, y0 + 8);
		clyde_html_esc(f, right);
		fputs("</text>", f);
	}
}

/* The chart of one run's series of test t, its rate and latency panels
 * on the scales rtop and ltop that every run of the test shares. */
static void chart(FILE *f, const struct clyde_compare *cmp, size_t col,
		  const struct clyde_loaded_test *t, double rtop, double ltop)
{
	const struct clyde_loaded_series *s = &t->series;
	double dtop = top_of(s->dirty, s->n), wtop = top_of(s->writeback, s->n);
	char a[64], b[64], c[64];
	size_t nr, nl, nd = 0;
	bool dirty = false, wb = false;

	for (size_t i = 0; i < s->n; i++) {
		dirty |= s->dirty[i] >= 0;
		wb |= s->writeback[i] >= 0;
	}
	/* Writeback on the dirty memory's axis: pages on their way out. */
	if (wtop > dtop)
		dtop = wtop;
	fputs("<figure class=\"ts\" data-test=\"", f);
	clyde_html_esc(f, t->name);
	fprintf(f,
		"\" data-run=\"%zu\" data-intervals=\"%zu\" "
		"data-scale=\"shared\" data-rate-top=\"%.6g\">",
		col, s->n, rtop);
	fprintf(f,
		"<svg class=\"ts-chart\" viewBox=\"0 0 %.0f %.0f\" "
		"width=\"%.0f\" height=\"%.0f\" role=\"img\">",
		W, H, W, H);
	fputs("<title>", f);
	clyde_html_esc(f, cmp->labels[col]);
	fputs(": ", f);
	clyde_html_esc(f, t->name);
	fputs(" over time</title>", f);
	rate_text(a, sizeof(a), rtop, t->unit);
	clyde_fmt_human_bytes(c, sizeof(c), dtop);
	labels(f, TOP0, TOP1, a, dirty ? c : NULL);
	clyde_fmt_human_ns(b, sizeof(b), ltop);
	labels(f, BOT0, BOT1, b, dirty ? c : NULL);
	fprintf(f,
		"<text class=\"cap\" x=\"%.1f\" y=\"%.1f\">rate</text>"
		"<text class=\"cap\" x=\"%.1f\" y=\"%.1f\">p99 latency</text>",
		X0 + 4, TOP0 + 8, X0 + 4, BOT0 + 8);
	fprintf(f,
		"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"end\">%.4g s</text>",
		X1, H - 8, (double)s->n * s->interval_s);
	nr = line(f, s, s->rate, rtop, TOP0, TOP1, "ts-rate", "rate");
	fprintf(f, " stroke=\"%s\" data-points=\"%zu\"/>",
		clyde_html_color(col), nr);
	nl = line(f, s, s->p99_ns, ltop, BOT0, BOT1, "ts-p99", "latency");
	fprintf(f, " stroke=\"%s\" data-points=\"%zu\"/>",
		clyde_html_color(col), nl);
	if (dirty) {
		nd = line(f, s, s->dirty, dtop, TOP0, TOP1, "ts-dirty", "rate");
		fprintf(f, " data-points=\"%zu\"/>", nd);
		nd = line(f, s, s->dirty, dtop, BOT0, BOT1, "ts-dirty",
			  "latency");
		fprintf(f, " data-points=\"%zu\"/>", nd);
	}
	if (wb) {
		nd = line(f, s, s->writeback, dtop, TOP0, TOP1, "ts-writeback",
			  "rate");
		fprintf(f, " data-points=\"%zu\"/>", nd);
		nd = line(f, s, s->writeback, dtop, BOT0, BOT1, "ts-writeback",
			  "latency");
		fprintf(f, " data-points=\"%zu\"/>", nd);
	}
	fputs("</svg><figcaption>", f);
	clyde_html_swatch(f, col);
	clyde_html_esc(f, cmp->labels[col]);
	fprintf(f, ": %zu &#215; %.4g s", s->n, s->interval_s);
	if (s->has_steady)
		fprintf(f,
			"; <span class=\"steady\">cv %.1f%%, slope "
			"%+.2f%%/s</span>",
			s->cv * 100.0, s->slope_rel * 100.0);
	if (dirty)
		fprintf(f, "; dirty memory up to %s (dashed, right axis)", c);
	if (wb) {
		clyde_fmt_human_bytes(c, sizeof(c), wtop);
		fprintf(f, "; writeback up to %s (dotted, right axis)", c);
	}
	fputs("</figcaption></figure>\n", f);
}

/* The largest rate and p99 of test `name` over every run's series. */
static void shared_tops(const struct clyde_compare *cmp, const char *name,
			double *rtop, double *ltop)
{
	*rtop = *ltop = 0;
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_test *t =
			find_test(cmp->runs[c], name);
		double r, l;

		if (!t || t->series.n < 2)
			continue;
		r = top_of(t->series.rate, t->series.n);
		l = top_of(t->series.p99_ns, t->series.n);
		*rtop = r > *rtop ? r : *rtop;
		*ltop = l > *ltop ? l : *ltop;
	}
}

void clyde_html_series(FILE *f, const struct clyde_compare *cmp)
{
	for (size_t r = 0; r < cmp->nrows; r++) {
		const char *name = cmp->rows[r].test;
		double rtop, ltop;
		char top[64];

		if (cmp->rows[r].metric != CLYDE_CMP_RATE ||
		    !row_has_series(cmp, name))
			continue;
		fputs("<section class=\"ts-test\" data-test=\"", f);
		clyde_html_esc(f, name);
		fputs("\"><h3>", f);
		clyde_html_esc(f, name);
		shared_tops(cmp, name, &rtop, &ltop);
		rate_text(top, sizeof(top), rtop, cmp->rows[r].base_unit);
		fputs("</h3><p class=\"ts-scale\">One scale for every result "
		      "of this test: rate up to ",
		      f);
		clyde_html_esc(f, top);
		clyde_fmt_human_ns(top, sizeof(top), ltop);
		fputs(", p99 latency up to ", f);
		clyde_html_esc(f, top);
		fputs(".</p><div class=\"ts-row\">\n", f);
		for (size_t c = 0; c < cmp->ncols; c++) {
			const struct clyde_loaded_test *t =
				find_test(cmp->runs[c], name);

			if (t && t->series.n >= 2)
				chart(f, cmp, c, t, rtop, ltop);
		}
		fputs("</div></section>\n", f);
	}
}
