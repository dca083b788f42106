/*
 * The run report's SVG charts (see html_parts.h): bar charts of a group's
 * rates or maximum latencies, and latency percentile charts.  Plain SVG,
 * sized for the page width (a viewBox that scales down on a narrower
 * window); every coordinate is written with a '.' decimal point (clyde
 * never changes LC_NUMERIC).
 */
#include <math.h>
#include <string.h>

#include "report/html.h"
#include "report/html_parts.h"

/* Run colours: distinguishable, also in greyscale order. */
static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))
#define NMARKERS 4

const char *clyde_html_color(size_t i)
{
	return palette[i % NPALETTE];
}

static unsigned marker_of(size_t i)
{
	return (unsigned)((i / NPALETTE) % NMARKERS);
}

void clyde_html_marker(FILE *f, size_t i, double x, double y, double r)
{
	const char *c = clyde_html_color(i);

	switch (marker_of(i)) {
	case 0:
		fprintf(f,
			"<circle class=\"mk\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"%.1f\" fill=\"%s\"/>",
			x, y, r, c);
		break;
	case 1:
		fprintf(f,
			"<rect class=\"mk\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>",
			x - r, y - r, 2 * r, 2 * r, c);
		break;
	case 2:
		fprintf(f,
			"<polygon class=\"mk\" points=\"%.1f,%.1f %.1f,%.1f "
			"%.1f,%.1f\" fill=\"%s\"/>",
			x, y - r * 1.2, x + r * 1.2, y + r, x - r * 1.2, y + r,
			c);
		break;
	default:
		fprintf(f,
			"<polygon class=\"mk\" points=\"%.1f,%.1f %.1f,%.1f "
			"%.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>",
			x, y - r * 1.3, x + r * 1.3, y, x, y + r * 1.3,
			x - r * 1.3, y, c);
	}
}

void clyde_html_swatch(FILE *f, size_t i)
{
	fprintf(f, "<span class=\"sw m%u\" style=\"background:%s\"></span>",
		i < NPALETTE ? 0 : marker_of(i), clyde_html_color(i));
}

/* ---- bar charts ----------------------------------------------------- */

#define CH_WIDTH 1300
#define CH_TOP 24    /* a panel's heading */
#define CH_VALUE 130 /* room for the value after the longest bar */
#define CH_PANEL_GAP 16

bool clyde_html_group_has(const struct clyde_compare *cmp,
			  enum clyde_loaded_group g,
			  enum clyde_cmp_metric metric)
{
	size_t r, c;

	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];

		if (row->group != g || row->metric != metric)
			continue;
		if (metric == CLYDE_CMP_RATE)
			return true; /* even all too fast is a result */
		for (c = 0; c < cmp->ncols; c++)
			if (row->cells[c].has_value)
				return true;
	}
	return false;
}

static bool split_row(const struct clyde_compare *cmp,
		      const struct clyde_cmp_row *row)
{
	return row->scope < CLYDE_SCOPE_COUNT &&
	       cmp->scopes[row->scope].nclasses > 1;
}

/* The width of the label column: the longest label, roughly. */
static double label_width(const struct clyde_compare *cmp)
{
	size_t c, n = 0;
	double w;

	for (c = 0; c < cmp->ncols; c++)
		if (strlen(cmp->labels[c]) > n)
			n = strlen(cmp->labels[c]);
	w = 7.0 * (double)n + 24;
	return w < 90 ? 90 : w > 300 ? 300 : w;
}

/* The value written after a bar: "171.4 ±3.2 ★ [A]" (the unit is in the
 * panel's heading). */
static void bar_value(FILE *f, const struct clyde_compare *cmp,
		      const struct clyde_cmp_row *row,
		      const struct clyde_cmp_cell *cell)
{
	char val[64], ci[64], cls[16];

	clyde_compare_cell_text(val, sizeof(val), row, cell);
	clyde_compare_ci_text(ci, sizeof(ci), row, cell);
	clyde_html_esc(f, val[0] ? val : "not run");
	if (cell->flags && cell->state != CLYDE_LOADED_NOT_RUN) {
		char fl[96];

		fprintf(f, " (%s)",
			clyde_loaded_flags_text(fl, sizeof(fl), cell->flags,
						", "));
	}
	if (ci[0]) {
		fputs(" \xc2\xb1", f);
		clyde_html_esc(f, ci);
	}
	if (cell->disagree)
		fputs(" !", f);
	if (cell->runs_disagree)
		fputs(" !!", f);
	if (cell->best)
		fputs(" \xe2\x98\x85", f); /* a star */
	if (split_row(cmp, row) && cell->state != CLYDE_LOADED_NOT_RUN) {
		clyde_compare_class_name(cls, sizeof(cls), cell->cls);
		fprintf(f, " [%s]", cls);
	}
}

void clyde_html_bar_chart(FILE *f, const struct clyde_compare *cmp,
			  enum clyde_loaded_group g,
			  enum clyde_cmp_metric metric)
{
	clyde_html_bar_chart_marked(f, cmp, g, metric, NULL, 0);
}

/* The change points of `row` in its panel at x0 (width pw): a dashed
 * line between the run before and the first run after each. */
static void change_marks(FILE *f, const struct clyde_cmp_row *row, double x0,
			 double pw, double bh, double gap,
			 const struct clyde_html_mark *marks, size_t nmarks)
{
	for (size_t i = 0; i < nmarks; i++) {
		double y = CH_TOP + (double)marks[i].col * (bh + gap) - gap / 2;

		if (strcmp(marks[i].test, row->test) || !marks[i].col)
			continue;
		fprintf(f,
			"<line class=\"change\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
			"stroke-width=\"2\" stroke-dasharray=\"5 3\"><title>",
			x0, y, x0 + pw - CH_PANEL_GAP, y);
		clyde_html_esc(f, marks[i].text);
		fputs("</title></line>\n", f);
	}
}

void clyde_html_bar_chart_marked(FILE *f, const struct clyde_compare *cmp,
				 enum clyde_loaded_group g,
				 enum clyde_cmp_metric metric,
				 const struct clyde_html_mark *marks,
				 size_t nmarks)
{
	const bool dense = cmp->ncols > 10;
	const double bh = dense ? 12 : 18, gap = dense ? 3 : 4;
	double left = label_width(cmp), pw, h, x0, y;
	size_t r, c, ntests = 0, k = 0;
	const char *what = metric == CLYDE_CMP_RATE ? "rate" : "latmax";

	for (r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].metric == metric && cmp->rows[r].group == g)
			ntests++;
	if (!ntests)
		return;
	pw = (CH_WIDTH - left) / (double)ntests;
	h = CH_TOP + (double)cmp->ncols * (bh + gap) + 8;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart bars "
		"%s\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"role=\"img\" aria-label=\"",
		what, CH_WIDTH, h, CH_WIDTH, h);
	clyde_html_esc(f, clyde_loaded_group_name(g));
	fputs(metric == CLYDE_CMP_RATE ? "\"><title>" :
					 " maximum latency\"><title>",
	      f);
	clyde_html_esc(f, clyde_loaded_group_name(g));
	if (metric != CLYDE_CMP_RATE)
		fputs(" maximum latency", f);
	fprintf(f, "</title>\n<g font-size=\"%d\">\n", dense ? 11 : 12);
	/* The runs' names and markers, once, on the left. */
	for (c = 0; c < cmp->ncols; c++) {
		y = CH_TOP + (double)c * (bh + gap);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			left - 16, y + bh - 3);
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</text>", f);
		clyde_html_marker(f, c, left - 8, y + bh / 2, 4);
		fputc('\n', f);
	}
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];
		double max = 0, bl;

		if (row->metric != metric || row->group != g)
			continue;
		x0 = left + (double)k++ * pw;
		bl = pw - CH_VALUE - CH_PANEL_GAP;
		if (bl < 40)
			bl = 40;
		for (c = 0; c < cmp->ncols; c++) {
			const struct clyde_cmp_cell *cell = &row->cells[c];

			if (cell->has_value && cell->value > max)
				max = cell->value;
		}
		fprintf(f, "<text x=\"%.1f\" y=\"14\" font-weight=\"bold\">",
			x0 + 2);
		clyde_html_esc(f, row->test);
		if (row->unit[0]) {
			fputs(" (", f);
			clyde_html_esc(f, row->unit);
			fputc(')', f);
		}
		fprintf(f,
			"</text>\n<line class=\"axis\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%.0f\"/>\n",
			x0, CH_TOP - 4, x0, h - 6);
		for (c = 0; c < cmp->ncols; c++) {
			const struct clyde_cmp_cell *cell = &row->cells[c];
			double w = 0, end = 0;

			y = CH_TOP + (double)c * (bh + gap);
			if (cell->has_value && max > 0) {
				w = cell->value / max * bl;
				if (w < 1)
					w = 1;
				fprintf(f,
					"<rect x=\"%.1f\" y=\"%.1f\" "
					"width=\"%.1f\" height=\"%.0f\" "
					"fill=\"%s\"%s><title>",
					x0, y, w, bh, clyde_html_color(c),
					cell->state == CLYDE_LOADED_TOO_FAST ?
						" fill-opacity=\"0.4\"" :
						"");
				clyde_html_esc(f, cmp->labels[c]);
				fputs(": ", f);
				bar_value(f, cmp, row, cell);
				fputs("</title></rect>\n", f);
			}
			end = w;
			if (cell->ci95 > 0 && max > 0) {
				double lo = (cell->value - cell->ci95) / max *
					    bl,
				       hi = (cell->value + cell->ci95) / max *
					    bl;
				double ym = y + bh / 2;

				/* A whisker past the panel is cut (and has
				 * no tick there): two repeats can give a
				 * CI far wider than the mean. */
				if (lo < 0)
					lo = 0;
				if (hi > bl + 10)
					hi = bl + 10;
				fprintf(f,
					"<path class=\"err\" d=\"M%.1f %.1fH%.1f"
					"M%.1f %.1fV%.1fM%.1f %.1fV%.1f\"/>\n",
					x0 + lo, ym, x0 + hi, x0 + lo, ym - 4,
					ym + 4, x0 + hi, ym - 4, ym + 4);
				end = hi;
			}
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s>",
				x0 + end + 5, y + bh - 3,
				cell->has_value && cell->state ==
							   CLYDE_LOADED_VALUE ?
					"" :
					" class=\"note\"");
			bar_value(f, cmp, row, cell);
			fputs("</text>\n", f);
		}
		if (metric == CLYDE_CMP_RATE)
			change_marks(f, row, x0, pw, bh, gap, marks, nmarks);
	}
	fputs("</g>\n</svg>\n", f);
}

/* ---- latency percentile charts ------------------------------------ */

#define LC_WIDTH 1300
#define LC_LEFT 80
#define LC_RIGHT 300 /* the legend */
#define LC_TOP 16
#define LC_BOTTOM 40
#define LC_LEGEND_ROW 17

static const struct clyde_loaded_test *
run_test(const struct clyde_loaded_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ntests; i++)
		if (!strcmp(r->tests[i].name, name))
			return &r->tests[i];
	return NULL;
}

bool clyde_html_has_percentiles(const struct clyde_compare *cmp,
				const char *name)
{
	size_t i;

	for (i = 0; i < cmp->ncols; i++) {
		const struct clyde_loaded_test *t =
			run_test(cmp->runs[i], name);

		if (t && t->has_latency)
			return true;
	}
	return false;
}

static void ns_text(char *buf, size_t len, double ns)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.3g s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.3g ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.3g us", ns / 1e3);
	else
		snprintf(buf, len, "%.3g ns", ns);
}

/* The five points of a run: percentiles of its (first) histogram and the
 * maximum over all its repeats, the number the table shows. */
static void points(const struct clyde_loaded_test *t, double v[5])
{
	v[0] = (double)t->latency.p50_ns;
	v[1] = (double)t->latency.p90_ns;
	v[2] = (double)t->latency.p99_ns;
	v[3] = (double)t->latency.p999_ns;
	v[4] = (double)(t->has_latency_max ? t->latency_max_ns :
					     t->latency.max_ns);
}

void clyde_html_latency_chart(FILE *f, const struct clyde_compare *cmp,
			      const char *name)
{
	static const char *const xl[] = { "p50", "p90", "p99", "p99.9", "max" };
	double lo = INFINITY, hi = 0, l0, l1, pw, ph, d, height;
	size_t c, k, nleg = 0, nruns = 0;
	char buf[64];

	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_test *t =
			run_test(cmp->runs[c], name);
		double v[5];

		if (!t || !t->has_latency)
			continue;
		nruns++;
		points(t, v);
		for (k = 0; k < 5; k++) {
			double x = v[k] < 1 ? 1 : v[k];

			if (x < lo)
				lo = x;
			if (x > hi)
				hi = x;
		}
	}
	if (!(hi > 0))
		lo = hi = 1;
	l0 = floor(log10(lo));
	l1 = ceil(log10(hi));
	if (l1 <= l0)
		l1 = l0 + 1;
	height = LC_TOP + 14 + LC_LEGEND_ROW * (double)nruns + 10;
	if (height < 300)
		height = 300;
	pw = LC_WIDTH - LC_LEFT - LC_RIGHT;
	ph = height - LC_TOP - LC_BOTTOM;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
		"latency\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"role=\"img\" aria-label=\"",
		LC_WIDTH, height, LC_WIDTH, height);
	clyde_html_esc(f, name);
	fputs(" latency percentiles\"><title>", f);
	clyde_html_esc(f, name);
	fputs(" latency percentiles</title>\n", f);
	for (d = l0; d <= l1 + 1e-9; d += 1) {
		double y = LC_TOP + ph - (d - l0) / (l1 - l0) * ph;

		ns_text(buf, sizeof(buf), pow(10, d));
		fprintf(f,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" "
			"x2=\"%.0f\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n",
			LC_LEFT, y, LC_LEFT + pw, y, LC_LEFT - 6, y + 4, buf);
	}
	for (k = 0; k < 5; k++) {
		double x = LC_LEFT + pw * ((double)k + 0.5) / 5;

		fprintf(f,
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s"
			"</text>\n",
			x, height - LC_BOTTOM + 18, xl[k]);
	}
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%.0f\"/>\n",
		LC_LEFT, LC_TOP, LC_LEFT, LC_TOP + ph);
	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_test *t =
			run_test(cmp->runs[c], name);
		double v[5], x, y;

		if (!t || !t->has_latency)
			continue;
		points(t, v);
		fprintf(f,
			"<polyline class=\"series\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\" points=\"",
			clyde_html_color(c));
		for (k = 0; k < 5; k++) {
			x = LC_LEFT + pw * ((double)k + 0.5) / 5;
			y = LC_TOP + ph -
			    (log10(v[k] < 1 ? 1 : v[k]) - l0) / (l1 - l0) * ph;
			fprintf(f, "%s%.1f,%.1f", k ? " " : "", x, y);
		}
		fputs("\"/>\n", f);
		for (k = 0; k < 5; k++) {
			x = LC_LEFT + pw * ((double)k + 0.5) / 5;
			y = LC_TOP + ph -
			    (log10(v[k] < 1 ? 1 : v[k]) - l0) / (l1 - l0) * ph;
			ns_text(buf, sizeof(buf), v[k]);
			fputs("<g><title>", f);
			clyde_html_esc(f, cmp->labels[c]);
			fprintf(f, " %s: %s</title>", xl[k], buf);
			clyde_html_marker(f, c, x, y, 3.5);
			fputs("</g>\n", f);
		}
		/* The legend entry, with the run's p99 and max. */
		y = LC_TOP + 14 + LC_LEGEND_ROW * (double)nleg++;
		clyde_html_marker(f, c, LC_LEFT + pw + 22, y - 4, 5);
		fprintf(f, "<text class=\"legend\" x=\"%.0f\" y=\"%.1f\">",
			LC_LEFT + pw + 34, y);
		clyde_html_esc(f, cmp->labels[c]);
		ns_text(buf, sizeof(buf), v[2]);
		fprintf(f, " (p99 %s, ", buf);
		ns_text(buf, sizeof(buf), v[4]);
		fprintf(f, "max %s)</text>\n", buf);
	}
	fputs("</svg>\n", f);
}
