/*
 * The experiment report (see exp_html.h).  Like the run report
 * (html.c), charts are plain SVG written here with '.' decimals and fixed
 * layout constants, so the page needs nothing but a browser.
 */
#include "report/exp_html.h"
#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/exp_analysis.h"
#include "report/exp_table.h"

/* The run report's palette: distinguishable, also in greyscale order. */
static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))
#define NMARKERS 5

static const char css[] = CLYDE_HTML_BASE_CSS
	"td.failed{color:#b00;font-style:italic}"
	"pre{background:#f8f8f8;padding:.5em;overflow-x:auto;"
	"white-space:pre-wrap}"
	"svg.chart.exp{width:100%;height:auto}"
	"dl.meta{display:grid;grid-template-columns:max-content auto;"
	"gap:.2em 1em}dl.meta dt{font-weight:bold}dl.meta dd{margin:0}"
	".flag{color:#b00;font-weight:bold}"
	"svg .sample{fill-opacity:.55}"
	".ts-row{display:flex;flex-wrap:wrap;gap:1em}"
	"figure.exp-ts-point{margin:0}"
	"figure.exp-ts-point figcaption{font-size:.85em;color:#444}"
	"svg.ts-chart .axis{stroke:#999}"
	"svg.ts-chart .tick{font-size:10px;fill:#555}";

/* The band of a point: its positive 95% interval (the t interval of log
 * x mapped back, exp_analysis.h), or the mean when it has none. */
static double band_lo(const struct clyde_exp_cellstat *c)
{
	return c->n >= 2 && c->hi > 0 ? c->lo : c->mean;
}

static double band_hi(const struct clyde_exp_cellstat *c)
{
	return c->n >= 2 && c->hi > 0 ? c->hi : c->mean;
}

/* ---- series: the points sharing the values of axes 1.. ---------------- */

static bool same_series(const struct clyde_exp *e, size_t p, size_t q)
{
	size_t a;

	for (a = 1; a < e->naxes; a++)
		if (strcmp(e->points[p].values[a], e->points[q].values[a]))
			return false;
	return true;
}

/* The series name: "level raid5" or "level raid5, fs ext4"; "" for one
 * axis. */
static void series_name(FILE *f, const struct clyde_exp *e, size_t p)
{
	size_t a;

	for (a = 1; a < e->naxes; a++) {
		if (a > 1)
			fputs(", ", f);
		clyde_html_esc(f, e->axis_names[a]);
		fputc(' ', f);
		clyde_html_esc(f, e->points[p].values[a]);
	}
}

/* ---- the chart ---------------------------------------------------------- */

#define CW 960
#define CH 360
#define CL 80  /* y labels */
#define CR 190 /* the legend (with a second axis) */
#define CR1 24 /* no legend: the plot takes the width */
#define CT 20
#define CB 56 /* x labels and the axis name */
#define CPAD 24

struct frame {
	double x0, x1; /* data range of x (after log) */
	double y0, y1; /* data range of y, in the display unit */
	const struct clyde_exp_axis *ax;
	int cr; /* right margin: CR with a legend, else CR1 */
};

static double xdata(const struct frame *fr, size_t vi)
{
	const struct clyde_exp_axis *ax = fr->ax;

	if (!ax->numeric)
		return (double)vi;
	return ax->log_scale ? log10(ax->num[vi]) : ax->num[vi];
}

static double xpix(const struct frame *fr, size_t vi)
{
	double w = CW - CL - fr->cr - 2 * CPAD;

	if (fr->x1 <= fr->x0)
		return CL + CPAD + w / 2;
	return CL + CPAD + (xdata(fr, vi) - fr->x0) / (fr->x1 - fr->x0) * w;
}

static double ypix(const struct frame *fr, double v)
{
	double h = CH - CT - CB;

	return CT + h - (v - fr->y0) / (fr->y1 - fr->y0) * h;
}

/* A tick step of 1, 2 or 5 times a power of ten giving about 5 ticks. */
static double tick_step(double span)
{
	double raw = span / 5, p = pow(10, floor(log10(raw))), m = raw / p;

	if (m < 1.5)
		return p;
	if (m < 3.5)
		return 2 * p;
	if (m < 7.5)
		return 5 * p;
	return 10 * p;
}

/* Marker k (circle, square, triangle, diamond, cross) at x, y. */
static void marker(FILE *f, size_t k, double x, double y, const char *col)
{
	switch (k % NMARKERS) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"", x, y);
		break;
	case 1:
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" "
			"height=\"8\"",
			x - 4, y - 4);
		break;
	case 2:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"",
			x, y - 5.5, x - 5, y + 4, x + 5, y + 4);
		break;
	case 3:
		fprintf(f,
			"<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f "
			"%.1f,%.1f\"",
			x, y - 6, x + 6, y, x, y + 6, x - 6, y);
		break;
	default:
		fprintf(f,
			"<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f "
			"%.1f\" stroke-width=\"2.5\" stroke=\"%s\"",
			x - 4.5, y - 4.5, x + 4.5, y + 4.5, x - 4.5, y + 4.5,
			x + 4.5, y - 4.5, col);
	}
	fprintf(f, " class=\"marker\" fill=\"%s\">", col);
}

static void marker_end(FILE *f, size_t k)
{
	static const char *const end[NMARKERS] = { "</circle>", "</rect>",
						   "</polygon>", "</polygon>",
						   "</path>" };

	fputs(end[k % NMARKERS], f);
	fputc('\n', f);
}

/* The points of the series led by point `lead`, in axis order, that have
 * a value for the metric: their indexes into idx, their count returned. */
static size_t series_points(const struct clyde_exp *e,
			    const struct clyde_exp_axis *ax,
			    const struct clyde_exp_mstat *ms, size_t lead,
			    size_t *idx)
{
	size_t v, p, k = 0;

	for (v = 0; v < ax->n; v++)
		for (p = 0; p < e->npoints; p++)
			if (same_series(e, lead, p) && ms->cells[p].n &&
			    !strcmp(e->points[p].values[0], ax->values[v]))
				idx[k++] = p;
	return k;
}

static void chart(FILE *f, const struct clyde_exp *e, size_t m,
		  const struct clyde_exp_axis *ax,
		  const struct clyde_exp_mstat *ms, const size_t *lead,
		  size_t nseries, size_t *idx)
{
	const struct clyde_exp_metric *mt = &e->metrics[m];
	struct clyde_exp_unit u;
	struct frame fr = { 0, 0, 0, 0, ax, e->naxes > 1 ? CR : CR1 };
	double lo = 0, hi = 0, step, t;
	size_t s, i, p;
	char buf[64], cell[96];

	clyde_exp_unit_for(mt, ms, e->npoints, &u);
	for (p = 0; p < e->npoints; p++) {
		const struct clyde_exp_cellstat *c = &ms->cells[p];
		const struct clyde_exp_cell *cc = &e->points[p].cells[m];

		if (!c->n)
			continue;
		if (band_lo(c) / u.div < lo)
			lo = band_lo(c) / u.div;
		if (band_hi(c) / u.div > hi)
			hi = band_hi(c) / u.div;
		for (i = 0; i < cc->n; i++) {
			if (cc->samples[i] / u.div < lo)
				lo = cc->samples[i] / u.div;
			if (cc->samples[i] / u.div > hi)
				hi = cc->samples[i] / u.div;
		}
	}
	if (!(hi > lo))
		hi = lo + 1;
	step = tick_step(hi - lo);
	fr.y0 = floor(lo / step) * step;
	fr.y1 = ceil(hi * 1.02 / step) * step;
	if (ax->n) {
		fr.x0 = xdata(&fr, 0);
		fr.x1 = xdata(&fr, ax->n - 1);
	}
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart exp\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"aria-label=\"",
		CW, CH, CW, CH);
	clyde_html_esc(f, mt->label);
	fputs("\"><title>", f);
	clyde_html_esc(f, mt->label);
	fputs("</title>\n", f);
	/* The y grid and its labels. */
	for (t = fr.y0; t <= fr.y1 + step / 2; t += step) {
		double y = ypix(&fr, t);

		fprintf(f,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
			"y2=\"%.1f\"/>\n",
			CL, y, CW - fr.cr, y);
		/* Ticks are round: %g drops a zero fraction. */
		snprintf(buf, sizeof(buf), "%g", fabs(t) < step / 1e6 ? 0 : t);
		fprintf(f,
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s"
			"</text>\n",
			CL - 6, y + 4, buf);
	}
	fprintf(f,
		"<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" "
		"text-anchor=\"middle\">",
		CT + (CH - CT - CB) / 2, CT + (CH - CT - CB) / 2);
	clyde_html_esc(f, u.name);
	fputs("</text>\n", f);
	/* The x axis: one label per axis value. */
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\"/>\n<line class=\"axis\" x1=\"%d\" y1=\"%d\" "
		"x2=\"%d\" y2=\"%d\"/>\n",
		CL, CH - CB, CW - fr.cr, CH - CB, CL, CT, CL, CH - CB);
	for (i = 0; i < ax->n; i++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			xpix(&fr, i), CH - CB + 18);
		clyde_html_esc(f, ax->values[i]);
		fputs("</text>\n", f);
	}
	/* An axis value no point has a number for: say why on the axis. */
	for (i = 0; i < ax->n; i++) {
		bool any = false, failed = false;

		for (p = 0; p < e->npoints; p++) {
			if (strcmp(e->points[p].values[0], ax->values[i]))
				continue;
			any |= ms->cells[p].n > 0;
			failed |= e->points[p].failed;
		}
		if (!any)
			fprintf(f,
				"<text class=\"note\" x=\"%.1f\" y=\"%d\" "
				"text-anchor=\"middle\">%s</text>\n",
				xpix(&fr, i), CH - CB - 6,
				failed ? "failed" : "no value");
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		CL + (CW - CL - fr.cr) / 2, CH - 10);
	clyde_html_esc(f, e->axis_names[0]);
	if (ax->log_scale)
		fputs(" (log scale)", f);
	fputs("</text>\n", f);
	/* Per series: the band, the line, the markers, the legend entry. */
	for (s = 0; s < nseries; s++) {
		const char *col = palette[s % NPALETTE];
		size_t k = series_points(e, ax, ms, lead[s], idx);
		double ly = CT + 8 + (double)s * 20;

		fprintf(f,
			"<g class=\"series-group\">\n<polygon class=\"band\" "
			"fill=\"%s\" fill-opacity=\"0.18\" stroke=\"none\" "
			"points=\"",
			col);
		for (i = 0; i < k; i++) {
			const struct clyde_exp_cellstat *c = &ms->cells[idx[i]];

			fprintf(f, "%s%.1f,%.1f", i ? " " : "",
				xpix(&fr,
				     clyde_exp_axis_index(
					     ax, e->points[idx[i]].values[0])),
				ypix(&fr, band_hi(c) / u.div));
		}
		for (i = k; i-- > 0;) {
			const struct clyde_exp_cellstat *c = &ms->cells[idx[i]];

			fprintf(f, " %.1f,%.1f",
				xpix(&fr,
				     clyde_exp_axis_index(
					     ax, e->points[idx[i]].values[0])),
				ypix(&fr, band_lo(c) / u.div));
		}
		fprintf(f,
			"\"/>\n<polyline class=\"series\" fill=\"none\" "
			"stroke=\"%s\" stroke-width=\"2\" points=\"",
			col);
		for (i = 0; i < k; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "",
				xpix(&fr,
				     clyde_exp_axis_index(
					     ax, e->points[idx[i]].values[0])),
				ypix(&fr, ms->cells[idx[i]].mean / u.div));
		fputs("\"/>\n", f);
		for (i = 0; i < k; i++) {
			const struct clyde_exp_cellstat *c = &ms->cells[idx[i]];
			double x = xpix(
				&fr, clyde_exp_axis_index(
					     ax, e->points[idx[i]].values[0]));
			double y = ypix(&fr, c->mean / u.div);
			const struct clyde_exp_cell *cc =
				&e->points[idx[i]].cells[m];
			size_t a, j;

			/* Each sample, a dot beside the mean, so that two
			 * repeats far apart show as such. */
			for (j = 0; j < cc->n; j++)
				fprintf(f,
					"<circle class=\"sample\" cx=\"%.1f\" "
					"cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
					x + 9,
					ypix(&fr, cc->samples[j] / u.div), col);
			marker(f, s, x, y, col);
			fputs("<title>", f);
			for (a = 0; a < e->naxes; a++) {
				fputs(a ? ", " : "", f);
				clyde_html_esc(f, e->axis_names[a]);
				fputc(' ', f);
				clyde_html_esc(f, e->points[idx[i]].values[a]);
			}
			clyde_exp_cell_text(cell, sizeof(cell),
					    &e->points[idx[i]], c, &u, true);
			fputs(": ", f);
			clyde_html_esc(f, cell);
			fputc(' ', f);
			clyde_html_esc(f, u.name);
			if (c->nimprecise)
				fprintf(f, "; %zu imprecise (under 0.5 s)",
					c->nimprecise);
			if (c->disagree)
				fputs("; repeats 2x apart", f);
			if (c->ndegraded)
				fprintf(f, "; %zu measured on a degraded array",
					c->ndegraded);
			if (c->ninflated)
				fprintf(f,
					"; %zu inflated by a mount or export "
					"setting",
					c->ninflated);
			fputs("</title>", f);
			marker_end(f, s);
			if (idx[i] == ms->best && ms->clear)
				fprintf(f,
					"<circle class=\"best\" cx=\"%.1f\" "
					"cy=\"%.1f\" r=\"9\" fill=\"none\" "
					"stroke=\"#222\" stroke-width=\"1.5\"/>"
					"\n<text x=\"%.1f\" y=\"%.1f\" "
					"text-anchor=\"middle\">\xe2\x98\x85"
					"</text>\n",
					x, y, x, y - 13);
		}
		if (e->naxes > 1) {
			fprintf(f,
				"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
				"y2=\"%.1f\" stroke=\"%s\" "
				"stroke-width=\"2\"/>\n",
				CW - fr.cr + 12, ly, CW - fr.cr + 36, ly, col);
			marker(f, s, CW - fr.cr + 24, ly, col);
			marker_end(f, s);
			fprintf(f,
				"<text class=\"legend\" x=\"%d\" y=\"%.1f\">",
				CW - fr.cr + 42, ly + 4);
			series_name(f, e, lead[s]);
			fputs("</text>\n", f);
		}
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
}

/* ---- the table ----------------------------------------------------------- */

static int table(FILE *f, const struct clyde_exp *e,
		 const struct clyde_exp_mstat *ms)
{
	size_t a, m, p;

	fputs("<table class=\"exp\">\n<tr>", f);
	for (a = 0; a < e->naxes; a++) {
		fputs("<th>", f);
		clyde_html_esc(f, e->axis_names[a]);
		fputs("</th>", f);
	}
	for (m = 0; m < e->nmetrics; m++) {
		struct clyde_exp_unit u;

		clyde_exp_unit_for(&e->metrics[m], &ms[m], e->npoints, &u);
		fputs("<th>", f);
		clyde_html_esc(f, e->metrics[m].label);
		fputs(" (", f);
		clyde_html_esc(f, u.name);
		fputs(")</th>", f);
	}
	fputs("</tr>\n", f);
	for (p = 0; p < e->npoints; p++) {
		fputs("<tr>", f);
		for (a = 0; a < e->naxes; a++) {
			fputs("<td>", f);
			clyde_html_esc(f, e->points[p].values[a]);
			fputs("</td>", f);
		}
		for (m = 0; m < e->nmetrics; m++) {
			const struct clyde_exp_cellstat *c = &ms[m].cells[p];
			const char *mark = clyde_exp_mark(&ms[m], p);
			struct clyde_exp_unit u;
			char cell[96];

			clyde_exp_unit_for(&e->metrics[m], &ms[m], e->npoints,
					   &u);
			clyde_exp_cell_text(
				cell, sizeof(cell), &e->points[p], c, &u,
				clyde_exp_counts_differ(&ms[m], e->npoints));
			fprintf(f, "<td class=\"num%s\">",
				e->points[p].failed ? " failed" :
				c->rel == CLYDE_EXP_REL_BEST && ms[m].clear ?
						      " best" :
						      "");
			clyde_html_esc(f, cell);
			if (e->metrics[m].amount && c->n && c->ratio > 0)
				fprintf(f, " x%.2f", c->ratio);
			if (c->nimprecise)
				fprintf(f,
					" <span class=\"flag\" title=\"%zu of "
					"%zu samples ran under 0.5 s: "
					"imprecise\">?</span>",
					c->nimprecise, c->n);
			if (c->disagree)
				fputs(" <span class=\"flag\" title=\"the "
				      "repeats are 2x apart or more\">!</span>",
				      f);
			if (c->ndegraded)
				fprintf(f,
					" <span class=\"flag\" title=\"%zu of "
					"%zu samples measured while an md array "
					"lost members\">degraded</span>",
					c->ndegraded, c->n);
			if (c->ninflated)
				fprintf(f,
					" <span class=\"flag\" title=\"%zu of "
					"%zu samples inflated by a mount or "
					"export setting (an async export "
					"acknowledges writes before they are on "
					"disk)\">inflated</span>",
					c->ninflated, c->n);
			if (*mark) {
				fputc(' ', f);
				clyde_html_esc(f, mark);
			}
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"legend\">", f);
	clyde_html_esc(f, clyde_exp_legend);
	fputs("</p>\n", f);
	return 0;
}

int clyde_exp_html_write(FILE *f, const struct clyde_exp *e, const char *title)
{
	struct clyde_exp_mstat *ms;
	struct clyde_exp_axis ax = { 0 };
	size_t *lead, *idx, nseries = 0, m, p, s, a, nsent = 0;
	char **sent = NULL;
	int rc = 0;

	if (!title)
		title = e->title && *e->title ? e->title : "clyde experiment";
	ms = calloc(e->nmetrics ? e->nmetrics : 1, sizeof(*ms));
	lead = calloc(e->npoints ? e->npoints : 1, sizeof(*lead));
	idx = calloc(e->npoints ? e->npoints : 1, sizeof(*idx));
	if (!ms || !lead || !idx)
		rc = -ENOMEM;
	for (m = 0; !rc && m < e->nmetrics; m++)
		rc = clyde_exp_mstat_init(e, m, &ms[m]);
	if (!rc && e->naxes)
		rc = clyde_exp_axis_init(e, 0, &ax);
	if (!rc)
		rc = clyde_exp_sentences(e, &sent, &nsent);
	if (rc)
		goto out;
	for (p = 0; e->naxes && p < e->npoints; p++) {
		for (s = 0; s < nseries; s++)
			if (same_series(e, lead[s], p))
				break;
		if (s == nseries)
			lead[nseries++] = p;
	}

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	      "content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	clyde_html_esc(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	clyde_html_esc(f, title);
	fputs("</h1>\n<p class=\"meta\">", f);
	if (e->id) {
		fputs("experiment ", f);
		clyde_html_esc(f, e->id);
		fputs(" &middot; ", f);
	}
	fprintf(f, "%zu points &middot; axes: ", e->npoints);
	for (a = 0; a < e->naxes; a++) {
		fputs(a ? ", " : "", f);
		clyde_html_esc(f, e->axis_names[a]);
	}
	fputs("</p>\n", f);
	/* What was run, where, on what: the command line, the machine and
	 * the stack (each point's own is under Points). */
	fputs("<dl class=\"meta\">\n<dt>command</dt><dd><code>", f);
	clyde_html_esc(f, e->command ? e->command : "(not recorded)");
	fputs("</code></dd>\n<dt>machine</dt><dd>", f);
	clyde_html_esc(f, e->machine ? e->machine : "(not recorded)");
	fputs("</dd>\n<dt>stack</dt><dd>", f);
	clyde_html_esc(f, e->npoints && e->points[0].config ?
				  e->points[0].config :
				  "(not recorded)");
	if (e->npoints > 1)
		fputs(" (first point; every point's under Points)", f);
	fputs("</dd>\n</dl>\n", f);

	fputs("<h2>Charts</h2>\n", f);
	for (m = 0; e->naxes && m < e->nmetrics; m++) {
		fputs("<h3>", f);
		clyde_html_esc(f, e->metrics[m].label);
		fputs(" <small>(", f);
		clyde_html_esc(f, e->metrics[m].key);
		fputs(e->metrics[m].amount	  ? ", an amount: neither "
						    "more nor less is better)" :
		      e->metrics[m].higher_better ? ", higher is better)" :
						    ", lower is better)",
		      f);
		fputs("</small></h3>\n", f);
		if (!ms[m].nvalid)
			fputs("<p class=\"legend\">No point has a value.</p>\n",
			      f);
		else
			chart(f, e, m, &ax, &ms[m], lead, nseries, idx);
	}
	fputs("<p class=\"legend\">Lines join the means; the small dots "
	      "beside each mean are its samples; the shaded band is the 95% "
	      "confidence interval on the log scale (the t interval of the "
	      "logarithms, mapped back: it never goes below zero; none for a "
	      "single sample); \xe2\x98\x85 marks a best point that beats "
	      "the runner-up beyond noise (none when they tie or with a "
	      "single sample).</p>\n",
	      f);

	if (clyde_exp_has_series(e)) {
		fputs("<h2 id=\"overtime\">Over time</h2>\n<p class=\"legend"
		      "\">Each point's course through its tests, from the "
		      "time series of its first repeat (the run's "
		      "<code>--log-interval</code>): the rate per interval, "
		      "and the host's dirty memory dashed on the right axis. "
		      "The charts of a metric share their axes, so one "
		      "point's course can be read beside another's.</p>\n",
		      f);
		clyde_exp_html_series(f, e, ms);
	}

	fputs("<h2>What the data says</h2>\n", f);
	if (!nsent)
		fputs("<p>Nothing clear: too few repeats or points to say "
		      "more than the table.</p>\n",
		      f);
	else
		fputs("<ul class=\"sentences\">\n", f);
	for (s = 0; s < nsent; s++) {
		fputs("<li>", f);
		clyde_html_esc(f, sent[s]);
		fputs("</li>\n", f);
	}
	if (nsent)
		fputs("</ul>\n", f);

	fputs("<h2>Table</h2>\n", f);
	table(f, e, ms);

	fputs("<h2>Points</h2>\n", f);
	for (p = 0; p < e->npoints; p++) {
		fputs("<details class=\"point\"><summary>", f);
		for (a = 0; a < e->naxes; a++) {
			fputs(a ? ", " : "", f);
			clyde_html_esc(f, e->axis_names[a]);
			fputs(" = ", f);
			clyde_html_esc(f, e->points[p].values[a]);
		}
		if (e->points[p].failed)
			fputs(" (failed)", f);
		fputs("</summary>\n<pre>", f);
		clyde_html_esc(f, e->points[p].config ?
					  e->points[p].config :
					  "(no configuration recorded)");
		fputs("</pre></details>\n", f);
	}
	fputs("</body>\n</html>\n", f);
	if (ferror(f))
		rc = -EIO;
out:
	for (m = 0; ms && m < e->nmetrics; m++)
		clyde_exp_mstat_release(&ms[m]);
	free(ms);
	free(lead);
	free(idx);
	clyde_exp_axis_release(&ax);
	clyde_exp_sentences_free(sent, nsent);
	return rc;
}
