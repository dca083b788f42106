#include "report/load_chart.h"

#include "report/chart_axes.h"
#include "report/html.h"

bool clyde_load_chart_wanted(const struct clyde_compare *cmp)
{
	for (size_t c = 0; c < cmp->ncols; c++)
		if (cmp->runs[c]->ncurves)
			return true;
	return false;
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
			CLYDE_CHART_LEFT + pw * c->iops[i] / xmax,
			CLYDE_CHART_TOP + ph - ph * y / ymax_ms);
	}
	fputs("\"/>\n", f);
	for (size_t i = 0; i < c->n; i++) {
		double y = c->p99_ns[i] / 1e6 < ymax_ms ? c->p99_ns[i] / 1e6 :
							  ymax_ms;

		fprintf(f,
			"<circle class=\"load-step\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"3.5\" fill=\"%s\" stroke=\"%s\"><title>%s: %.0f "
			"requests/s, p99 %.3g ms%s</title></circle>\n",
			CLYDE_CHART_LEFT + pw * c->iops[i] / xmax,
			CLYDE_CHART_TOP + ph - ph * y / ymax_ms,
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
	xmax = clyde_chart_nice_max(xmax);
	ymax = clyde_chart_nice_max(ymax);
	pw = CLYDE_CHART_WIDTH - CLYDE_CHART_LEFT - CLYDE_CHART_RIGHT;
	ph = CLYDE_CHART_HEIGHT - CLYDE_CHART_TOP - CLYDE_CHART_BOTTOM;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
		"load\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"p99 latency against requests/s "
		"achieved\"><title>p99 latency against requests/s "
		"achieved</title>\n",
		CLYDE_CHART_WIDTH, CLYDE_CHART_HEIGHT, CLYDE_CHART_WIDTH,
		CLYDE_CHART_HEIGHT);
	clyde_chart_axes(f, xmax, ymax, pw, ph, CLYDE_CHART_X_WHOLE,
			 "requests/s achieved", "p99 latency (ms)");
	for (size_t c = 0; c < cmp->ncols; c++)
		for (size_t k = 0; k < cmp->runs[c]->ncurves; k++) {
			const struct clyde_loaded_curve *lc =
				&cmp->runs[c]->curves[k];
			size_t colour = nleg;

			if (!lc->n)
				continue;
			curve(f, lc, clyde_html_color(colour), xmax, ymax, pw,
			      ph);
			y = CLYDE_CHART_TOP + 14 + 18 * (double)nleg++;
			fprintf(f,
				"<rect x=\"%.0f\" y=\"%.1f\" width=\"12\" "
				"height=\"12\" fill=\"%s\"/><text x=\"%.0f\" "
				"y=\"%.1f\">",
				CLYDE_CHART_LEFT + pw + 16, y - 10,
				clyde_html_color(colour),
				CLYDE_CHART_LEFT + pw + 32, y);
			clyde_html_esc(f, cmp->labels[c]);
			fputs(" ", f);
			clyde_html_esc(f, lc->test);
			fputs("</text>\n", f);
		}
	fputs("</svg>\n", f);
}
