#include "report/load_chart.h"

#include <math.h>

#include "report/html.h"

#define LC_WIDTH 960
#define LC_HEIGHT 380
#define LC_LEFT 80
#define LC_RIGHT 230 /* the legend */
#define LC_TOP 12
#define LC_BOTTOM 48
#define LC_TICKS 5

bool clyde_load_chart_wanted(const struct clyde_compare *cmp)
{
	for (size_t c = 0; c < cmp->ncols; c++)
		if (cmp->runs[c]->ncurves)
			return true;
	return false;
}

/* A round upper bound: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power
 * of ten. */
static double nice_max(double v)
{
	static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 };
	double p;

	if (!(v > 0))
		return 1;
	p = pow(10, floor(log10(v)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (v <= steps[i] * p * (1 + 1e-9))
			return steps[i] * p;
	return 10 * p;
}

static void axes(FILE *f, double xmax, double ymax_ms, double pw, double ph)
{
	for (int i = 0; i <= LC_TICKS; i++) {
		double y = LC_TOP + ph - ph * i / LC_TICKS;
		double x = LC_LEFT + pw * i / LC_TICKS;

		fprintf(f,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" "
			"x2=\"%.0f\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%g</text>\n",
			LC_LEFT, y, LC_LEFT + pw, y, LC_LEFT - 6, y + 4,
			ymax_ms * i / LC_TICKS);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
			"%.0f</text>\n",
			x, LC_TOP + ph + 18, xmax * i / LC_TICKS);
	}
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%.0f\"/><line class=\"axis\" x1=\"%d\" y1=\"%.0f\" "
		"x2=\"%.0f\" y2=\"%.0f\"/>\n",
		LC_LEFT, LC_TOP, LC_LEFT, LC_TOP + ph, LC_LEFT, LC_TOP + ph,
		LC_LEFT + pw, LC_TOP + ph);
	fprintf(f,
		"<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">requests/s "
		"achieved</text><text x=\"14\" y=\"%.0f\" "
		"text-anchor=\"middle\" transform=\"rotate(-90 14 %.0f)\">"
		"p99 latency (ms)</text>\n",
		LC_LEFT + pw / 2, LC_HEIGHT - 8, LC_TOP + ph / 2,
		LC_TOP + ph / 2);
}

/* One curve: its line, a mark per step (hollow when the step did not
 * reach its rate), each with its figures in a <title>. */
static void curve(FILE *f, const struct clyde_loaded_curve *c,
		  const char *color, double xmax, double ymax_ms, double pw,
		  double ph)
{
	fprintf(f,
		"<polyline class=\"load-line\" fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2\" points=\"",
		color);
	for (size_t i = 0; i < c->n; i++) {
		double y = c->p99_ns[i] / 1e6 < ymax_ms ? c->p99_ns[i] / 1e6 :
							  ymax_ms;

		fprintf(f, "%s%.1f,%.1f", i ? " " : "",
			LC_LEFT + pw * c->iops[i] / xmax,
			LC_TOP + ph - ph * y / ymax_ms);
	}
	fputs("\"/>\n", f);
	for (size_t i = 0; i < c->n; i++) {
		double y = c->p99_ns[i] / 1e6 < ymax_ms ? c->p99_ns[i] / 1e6 :
							  ymax_ms;

		fprintf(f,
			"<circle class=\"load-step\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"3.5\" fill=\"%s\" stroke=\"%s\"><title>%s: %.0f "
			"requests/s, p99 %.3g ms%s</title></circle>\n",
			LC_LEFT + pw * c->iops[i] / xmax,
			LC_TOP + ph - ph * y / ymax_ms,
			c->reached[i] ? color : "none", color, c->test,
			c->iops[i], c->p99_ns[i] / 1e6,
			c->reached[i] ? "" : " (did not reach its rate)");
	}
}

void clyde_load_chart(FILE *f, const struct clyde_compare *cmp)
{
	double xmax = 0, ymax = 0, pw, ph, y;
	size_t nleg = 0;

	if (!clyde_load_chart_wanted(cmp))
		return;
	for (size_t c = 0; c < cmp->ncols; c++)
		for (size_t k = 0; k < cmp->runs[c]->ncurves; k++) {
			const struct clyde_loaded_curve *lc =
				&cmp->runs[c]->curves[k];

			for (size_t i = 0; i < lc->n; i++) {
				if (lc->iops[i] > xmax)
					xmax = lc->iops[i];
				if (lc->p99_ns[i] / 1e6 > ymax)
					ymax = lc->p99_ns[i] / 1e6;
			}
		}
	xmax = nice_max(xmax);
	ymax = nice_max(ymax);
	pw = LC_WIDTH - LC_LEFT - LC_RIGHT;
	ph = LC_HEIGHT - LC_TOP - LC_BOTTOM;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
		"load\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"p99 latency against requests/s "
		"achieved\"><title>p99 latency against requests/s "
		"achieved</title>\n",
		LC_WIDTH, LC_HEIGHT, LC_WIDTH, LC_HEIGHT);
	axes(f, xmax, ymax, pw, ph);
	for (size_t c = 0; c < cmp->ncols; c++)
		for (size_t k = 0; k < cmp->runs[c]->ncurves; k++) {
			const struct clyde_loaded_curve *lc =
				&cmp->runs[c]->curves[k];
			size_t colour = nleg;

			if (!lc->n)
				continue;
			curve(f, lc, clyde_html_color(colour), xmax, ymax, pw,
			      ph);
			y = LC_TOP + 14 + 18 * (double)nleg++;
			fprintf(f,
				"<rect x=\"%.0f\" y=\"%.1f\" width=\"12\" "
				"height=\"12\" fill=\"%s\"/><text x=\"%.0f\" "
				"y=\"%.1f\">",
				LC_LEFT + pw + 16, y - 10,
				clyde_html_color(colour), LC_LEFT + pw + 32, y);
			clyde_html_esc(f, cmp->labels[c]);
			fputs(" ", f);
			clyde_html_esc(f, lc->test);
			fputs("</text>\n", f);
		}
	fputs("</svg>\n", f);
}
