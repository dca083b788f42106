#include "report/zcav_chart.h"

#include "report/chart_axes.h"
#include "report/html.h"

bool clyde_zcav_chart_wanted(const struct clyde_compare *cmp)
{
	for (size_t c = 0; c < cmp->ncols; c++)
		if (cmp->runs[c]->zcav.n)
			return true;
	return false;
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
			CLYDE_CHART_LEFT +
				pw * z->offset_bytes[i] / 1073741824.0 / xmax,
			CLYDE_CHART_TOP + ph - ph * y / ymax, color,
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
	xmax = clyde_chart_nice_max(xmax);
	ymax = clyde_chart_nice_max(ymax);
	pw = CLYDE_CHART_WIDTH - CLYDE_CHART_LEFT - CLYDE_CHART_RIGHT;
	ph = CLYDE_CHART_HEIGHT - CLYDE_CHART_TOP - CLYDE_CHART_BOTTOM;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
		"zcav\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"zcav: MiB/s by position\">"
		"<title>zcav: MiB/s by position</title>\n",
		CLYDE_CHART_WIDTH, CLYDE_CHART_HEIGHT, CLYDE_CHART_WIDTH,
		CLYDE_CHART_HEIGHT);
	clyde_chart_axes(f, xmax, ymax, pw, ph, CLYDE_CHART_X_G3,
			 "position (GiB)", "MiB/s");
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
					CLYDE_CHART_LEFT +
						pw * z->offset_bytes[i] /
							1073741824.0 / xmax,
					CLYDE_CHART_TOP + ph -
						ph * z->mib_per_s[i] / ymax);
		fputs("\"/>\n", f);
		flag_marks(f, z, clyde_html_color(c), xmax, ymax, pw, ph);
		y = CLYDE_CHART_TOP + 14 + 18 * (double)nleg++;
		fprintf(f,
			"<rect x=\"%.0f\" y=\"%.1f\" width=\"12\" "
			"height=\"12\" fill=\"%s\"/><text x=\"%.0f\" "
			"y=\"%.1f\">",
			CLYDE_CHART_LEFT + pw + 16, y - 10, clyde_html_color(c),
			CLYDE_CHART_LEFT + pw + 32, y);
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</text>\n", f);
	}
	if (nflag) {
		y = CLYDE_CHART_TOP + 14 + 18 * (double)nleg;
		fprintf(f,
			"<circle cx=\"%.0f\" cy=\"%.1f\" r=\"4\" "
			"fill=\"none\" stroke=\"#555\"/><text class=\"zcav-"
			"flag-legend\" x=\"%.0f\" y=\"%.1f\">flagged (%zu): "
			"under 0.5 s</text><text x=\"%.0f\" y=\"%.1f\">or over "
			"holes; off the line</text>\n",
			CLYDE_CHART_LEFT + pw + 22, y - 4,
			CLYDE_CHART_LEFT + pw + 32, y, nflag,
			CLYDE_CHART_LEFT + pw + 32, y + 16);
	}
	fputs("</svg>\n", f);
}
