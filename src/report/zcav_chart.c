#include "report/zcav_chart.h"

#include <math.h>

#include "report/html.h"

#define ZC_WIDTH 960
#define ZC_HEIGHT 380
#define ZC_LEFT 80
#define ZC_RIGHT 230 /* the legend */
#define ZC_TOP 12
#define ZC_BOTTOM 48
#define ZC_TICKS 5

bool clyde_zcav_chart_wanted(const struct clyde_compare *cmp)
{
	for (size_t c = 0; c < cmp->ncols; c++)
		if (cmp->runs[c]->zcav.n)
			return true;
	return false;
}

/* A round upper bound for an axis: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8
 * times a power of ten, so that the curves fill most of the chart. */
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

static void axes(FILE *f, double xmax, double ymax, double pw, double ph)
{
	for (int i = 0; i <= ZC_TICKS; i++) {
		double y = ZC_TOP + ph - ph * i / ZC_TICKS;
		double x = ZC_LEFT + pw * i / ZC_TICKS;

		fprintf(f,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" "
			"x2=\"%.0f\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%g</text>\n",
			ZC_LEFT, y, ZC_LEFT + pw, y, ZC_LEFT - 6, y + 4,
			ymax * i / ZC_TICKS);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
			"%.3g</text>\n",
			x, ZC_TOP + ph + 18, xmax * i / ZC_TICKS);
	}
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%.0f\"/><line class=\"axis\" x1=\"%d\" y1=\"%.0f\" "
		"x2=\"%.0f\" y2=\"%.0f\"/>\n",
		ZC_LEFT, ZC_TOP, ZC_LEFT, ZC_TOP + ph, ZC_LEFT, ZC_TOP + ph,
		ZC_LEFT + pw, ZC_TOP + ph);
	fprintf(f,
		"<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">position "
		"(GiB)</text><text x=\"14\" y=\"%.0f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 14 %.0f)\">MiB/s</text>\n",
		ZC_LEFT + pw / 2, ZC_HEIGHT - 8, ZC_TOP + ph / 2,
		ZC_TOP + ph / 2);
}

static bool flagged(const struct clyde_loaded_zcav *z, size_t i)
{
	return z->flags && z->flags[i];
}

/* The flagged points of one run: hollow circles off the line, each with
 * its position, rate and why in a <title>; a rate above the axis is drawn
 * at its top. */
static void flag_marks(FILE *f, const struct clyde_loaded_zcav *z,
		       const char *color, double xmax, double ymax, double pw,
		       double ph)
{
	for (size_t i = 0; i < z->n; i++) {
		double y = z->mib_per_s[i] < ymax ? z->mib_per_s[i] : ymax;

		if (!flagged(z, i))
			continue;
		fprintf(f,
			"<circle class=\"zcav-flag\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"4\" fill=\"none\" stroke=\"%s\"><title>%.2f GiB: "
			"%.0f MiB/s, flagged:%s%s</title></circle>\n",
			ZC_LEFT + pw * z->offset_bytes[i] / 1073741824.0 / xmax,
			ZC_TOP + ph - ph * y / ymax, color,
			z->offset_bytes[i] / 1073741824.0, z->mib_per_s[i],
			z->flags[i] & CLYDE_LOADED_ZCAV_IMPRECISE ?
				" under 0.5 s (too short to time)" :
				"",
			z->flags[i] & CLYDE_LOADED_ZCAV_HOLES ?
				" over holes of a sparse file" :
				"");
	}
}

void clyde_zcav_chart(FILE *f, const struct clyde_compare *cmp)
{
	double xmax = 0, ymax = 0, fmax = 0, pw, ph;
	size_t nleg = 0, nflag = 0;

	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_zcav *z = &cmp->runs[c]->zcav;

		for (size_t i = 0; i < z->n; i++) {
			double *m = flagged(z, i) ? &fmax : &ymax;

			nflag += flagged(z, i);
			if (z->offset_bytes[i] / 1073741824.0 > xmax)
				xmax = z->offset_bytes[i] / 1073741824.0;
			if (z->mib_per_s[i] > *m)
				*m = z->mib_per_s[i];
		}
	}
	/* The axis is the measured blocks': a hole read at memory speed
	 * would flatten the curve.  Only flagged points: theirs. */
	if (!(ymax > 0))
		ymax = fmax;
	if (!clyde_zcav_chart_wanted(cmp))
		return;
	xmax = nice_max(xmax);
	ymax = nice_max(ymax);
	pw = ZC_WIDTH - ZC_LEFT - ZC_RIGHT;
	ph = ZC_HEIGHT - ZC_TOP - ZC_BOTTOM;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
		"zcav\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"zcav: MiB/s by position\">"
		"<title>zcav: MiB/s by position</title>\n",
		ZC_WIDTH, ZC_HEIGHT, ZC_WIDTH, ZC_HEIGHT);
	axes(f, xmax, ymax, pw, ph);
	double y;

	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_zcav *z = &cmp->runs[c]->zcav;

		if (!z->n)
			continue;
		/* The line joins the blocks that were measured; flagged
		 * ones are marks beside it. */
		fprintf(f,
			"<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\" points=\"",
			clyde_html_color(c));
		for (size_t i = 0, k = 0; i < z->n; i++)
			if (!flagged(z, i))
				fprintf(f, "%s%.1f,%.1f", k++ ? " " : "",
					ZC_LEFT + pw * z->offset_bytes[i] /
							  1073741824.0 / xmax,
					ZC_TOP + ph -
						ph * z->mib_per_s[i] / ymax);
		fputs("\"/>\n", f);
		flag_marks(f, z, clyde_html_color(c), xmax, ymax, pw, ph);
		y = ZC_TOP + 14 + 18 * (double)nleg++;
		fprintf(f,
			"<rect x=\"%.0f\" y=\"%.1f\" width=\"12\" "
			"height=\"12\" fill=\"%s\"/><text x=\"%.0f\" "
			"y=\"%.1f\">",
			ZC_LEFT + pw + 16, y - 10, clyde_html_color(c),
			ZC_LEFT + pw + 32, y);
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</text>\n", f);
	}
	if (nflag) {
		y = ZC_TOP + 14 + 18 * (double)nleg;
		fprintf(f,
			"<circle cx=\"%.0f\" cy=\"%.1f\" r=\"4\" "
			"fill=\"none\" stroke=\"#555\"/><text class=\"zcav-"
			"flag-legend\" x=\"%.0f\" y=\"%.1f\">flagged (%zu): "
			"under 0.5 s</text><text x=\"%.0f\" y=\"%.1f\">or over "
			"holes; off the line</text>\n",
			ZC_LEFT + pw + 22, y - 4, ZC_LEFT + pw + 32, y, nflag,
			ZC_LEFT + pw + 32, y + 16);
	}
	fputs("</svg>\n", f);
}
