/*
 * The experiment report's "Over time" part (exp_html.h): per metric whose
 * points carry a time series (the first repeat's, experiment.h), one small
 * chart per point, side by side, all on the same axes -- the same time
 * span and the same rate scale, and the same dirty-memory scale on the
 * right -- so one point's course sits beside another's and a rate that
 * falls off a cliff at one point and not at the next shows as such.
 * Plain SVG like the rest of the page: nothing fetched, no script.
 */
#include "report/exp_html.h"
#include "report/html.h"

#include <stdio.h>
#include <string.h>

#include "analysis/exp_analysis.h"
#include "results/format.h"

#define W 350.0
#define H 180.0
#define X0 78.0
#define X1 (W - 52.0)
#define Y0 12.0
#define Y1 (H - 34.0)

bool clyde_exp_has_series(const struct clyde_exp *e)
{
	for (size_t p = 0; p < e->npoints; p++)
		for (size_t m = 0; m < e->nmetrics; m++)
			if (e->points[p].cells[m].series.n >= 2)
				return true;
	return false;
}

/* The shared frame of metric m: the longest span (s), the largest rate
 * (base unit) and the largest dirty memory (bytes) over the points. */
struct frame {
	double span, rtop, dtop;
};

static struct frame frame_of(const struct clyde_exp *e, size_t m)
{
	struct frame fr = { 0, 0, 0 };

	for (size_t p = 0; p < e->npoints; p++) {
		const struct clyde_exp_series *s =
			&e->points[p].cells[m].series;

		if (s->n < 2)
			continue;
		if ((double)s->n * s->interval_s > fr.span)
			fr.span = (double)s->n * s->interval_s;
		for (size_t i = 0; i < s->n; i++) {
			if (s->rate[i] > fr.rtop)
				fr.rtop = s->rate[i];
			if (s->dirty[i] > fr.dtop)
				fr.dtop = s->dirty[i];
		}
	}
	return fr;
}

/* A line through v[i] >= 0 scaled to [0, top]; a gap where v[i] < 0.
 * Returns the points drawn. */
static size_t path(FILE *f, const struct clyde_exp_series *s, const double *v,
		   const struct frame *fr, double top)
{
	bool pen = false;
	size_t drawn = 0;

	fputs(" d=\"", f);
	for (size_t i = 0; i < s->n; i++) {
		double x, y;

		if (v[i] < 0 || top <= 0 || fr->span <= 0) {
			pen = false;
			continue;
		}
		x = X0 +
		    ((double)i + 0.5) * s->interval_s / fr->span * (X1 - X0);
		y = Y1 - v[i] / top * (Y1 - Y0);
		fprintf(f, "%s%.1f %.1f ", pen ? "L" : "M", x, y);
		pen = true;
		drawn++;
	}
	fputc('"', f);
	return drawn;
}

static void point_name(FILE *f, const struct clyde_exp *e, size_t p)
{
	for (size_t a = 0; a < e->naxes; a++) {
		fputs(a ? ", " : "", f);
		clyde_html_esc(f, e->axis_names[a]);
		fputc(' ', f);
		clyde_html_esc(f, e->points[p].values[a]);
	}
}

static void small_chart(FILE *f, const struct clyde_exp *e, size_t m, size_t p,
			const struct frame *fr, const struct clyde_exp_unit *u)
{
	const struct clyde_exp_series *s = &e->points[p].cells[m].series;
	bool dirty = false;
	char top[64], dtop[64];
	size_t nr, nd = 0;

	for (size_t i = 0; i < s->n; i++)
		dirty |= s->dirty[i] >= 0;
	snprintf(top, sizeof(top), "%.4g %s", fr->rtop / u->div, u->name);
	clyde_fmt_human_bytes(dtop, sizeof(dtop), fr->dtop);
	fprintf(f,
		"<figure class=\"exp-ts-point\" data-point=\"%zu\" "
		"data-intervals=\"%zu\" data-span=\"%.6g\" data-top=\"%.6g\">",
		p, s->n, fr->span, fr->rtop);
	fprintf(f,
		"<svg class=\"ts-chart\" viewBox=\"0 0 %.0f %.0f\" "
		"width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>",
		W, H, W, H);
	point_name(f, e, p);
	fputs(": ", f);
	clyde_html_esc(f, e->metrics[m].label);
	fputs(" over time</title>", f);
	fprintf(f,
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/><line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" "
		"x2=\"%.1f\" y2=\"%.1f\"/>",
		X0, Y1, X1, Y1, X0, Y0, X0, Y1);
	fprintf(f,
		"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"end\">",
		X0 - 4, Y0 + 8);
	clyde_html_esc(f, top);
	fprintf(f,
		"</text><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"end\">0</text>",
		X0 - 4, Y1);
	fprintf(f,
		"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"middle\">0</text><text class=\"tick\" "
		"x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.4g s</text>",
		X0, Y1 + 14, X1, Y1 + 14, fr->span);
	if (fr->dtop > 0) {
		fprintf(f, "<text class=\"tick dirty\" x=\"%.1f\" y=\"%.1f\">",
			X1 + 4, Y0 + 8);
		clyde_html_esc(f, dtop);
		fputs("</text>", f);
	}
	fputs("<path class=\"ts-rate\" fill=\"none\" stroke-width=\"1.5\"", f);
	nr = path(f, s, s->rate, fr, fr->rtop);
	fprintf(f, " stroke=\"%s\" data-points=\"%zu\"/>", clyde_html_color(p),
		nr);
	if (dirty) {
		fputs("<path class=\"ts-dirty\" fill=\"none\" stroke=\"#777\" "
		      "stroke-dasharray=\"4 3\"",
		      f);
		nd = path(f, s, s->dirty, fr, fr->dtop);
		fprintf(f, " data-points=\"%zu\"/>", nd);
	}
	fputs("</svg><figcaption>", f);
	point_name(f, e, p);
	fprintf(f, ": %zu &#215; %.4g s", s->n, s->interval_s);
	if (dirty)
		fputs("; dirty memory dashed (right axis)", f);
	fputs("</figcaption></figure>\n", f);
}

void clyde_exp_html_series(FILE *f, const struct clyde_exp *e,
			   const struct clyde_exp_mstat *ms)
{
	for (size_t m = 0; m < e->nmetrics; m++) {
		struct frame fr = frame_of(e, m);
		struct clyde_exp_unit u;
		size_t without = 0, with = 0;

		for (size_t p = 0; p < e->npoints; p++) {
			if (e->points[p].cells[m].series.n >= 2)
				with++;
			else
				without++;
		}
		if (!with)
			continue;
		clyde_exp_unit_for(&e->metrics[m], &ms[m], e->npoints, &u);
		fputs("<section class=\"exp-ts\" data-metric=\"", f);
		clyde_html_esc(f, e->metrics[m].key);
		fputs("\"><h3>", f);
		clyde_html_esc(f, e->metrics[m].label);
		fputs(" <small>(", f);
		clyde_html_esc(f, u.name);
		fputs(" over time)</small></h3>\n<div class=\"ts-row\">\n", f);
		for (size_t p = 0; p < e->npoints; p++)
			if (e->points[p].cells[m].series.n >= 2)
				small_chart(f, e, m, p, &fr, &u);
		fputs("</div>\n", f);
		if (without)
			fprintf(f,
				"<p class=\"legend\">%zu point%s without a "
				"time series here (failed, none recorded, or "
				"a single interval).</p>\n",
				without, without == 1 ? "" : "s");
		fputs("</section>\n", f);
	}
}
