#include "report/chart_axes.h"

#include <math.h>

double clyde_chart_nice_max(double v)
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

void clyde_chart_axes(FILE *f, double xmax, double ymax, double pw, double ph,
		      enum clyde_chart_xticks xticks, const char *xlabel,
		      const char *ylabel)
{
	for (int i = 0; i <= CLYDE_CHART_TICKS; i++) {
		double y = CLYDE_CHART_TOP + ph - ph * i / CLYDE_CHART_TICKS;
		double x = CLYDE_CHART_LEFT + pw * i / CLYDE_CHART_TICKS;
		double xv = xmax * i / CLYDE_CHART_TICKS;

		fprintf(f,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" "
			"x2=\"%.0f\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%g</text>\n",
			CLYDE_CHART_LEFT, y, CLYDE_CHART_LEFT + pw, y,
			CLYDE_CHART_LEFT - 6, y + 4,
			ymax * i / CLYDE_CHART_TICKS);
		if (xticks == CLYDE_CHART_X_WHOLE)
			fprintf(f,
				"<text x=\"%.1f\" y=\"%.0f\" "
				"text-anchor=\"middle\">%.0f</text>\n",
				x, CLYDE_CHART_TOP + ph + 18, xv);
		else
			fprintf(f,
				"<text x=\"%.1f\" y=\"%.0f\" "
				"text-anchor=\"middle\">%.3g</text>\n",
				x, CLYDE_CHART_TOP + ph + 18, xv);
	}
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%.0f\"/><line class=\"axis\" x1=\"%d\" y1=\"%.0f\" "
		"x2=\"%.0f\" y2=\"%.0f\"/>\n",
		CLYDE_CHART_LEFT, CLYDE_CHART_TOP, CLYDE_CHART_LEFT,
		CLYDE_CHART_TOP + ph, CLYDE_CHART_LEFT, CLYDE_CHART_TOP + ph,
		CLYDE_CHART_LEFT + pw, CLYDE_CHART_TOP + ph);
	fprintf(f,
		"<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">%s</text>"
		"<text x=\"14\" y=\"%.0f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 14 %.0f)\">%s</text>\n",
		CLYDE_CHART_LEFT + pw / 2, CLYDE_CHART_HEIGHT - 8, xlabel,
		CLYDE_CHART_TOP + ph / 2, CLYDE_CHART_TOP + ph / 2, ylabel);
}
