/*
 * The HTML report (see html.h).  One pass over the compare model writes
 * the whole page; charts are plain SVG drawn here, so the file needs
 * nothing but a browser: no script, no web fonts, no external URL.
 *
 * Layout numbers (pixels) are constants below; every coordinate is
 * written with a '.' decimal point (clyde never changes LC_NUMERIC).
 */
#include "report/html.h"
#include "report/zcav_chart.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Run colours: distinguishable, also in greyscale order. */
static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static const char *color(size_t i)
{
	return palette[i % NPALETTE];
}

const char *clyde_html_color(size_t i)
{
	return color(i);
}

/*
 * Write s escaped for HTML text and attribute values alike: & < > " '
 * become entities and control characters (which HTML does not allow)
 * become U+FFFD, so that no name a user chose can close a tag or an
 * attribute or start one.
 */
void clyde_html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				fputs("&#xfffd;", f);
			else
				fputc(c, f);
		}
	}
}

static const char css[] = CLYDE_HTML_BASE_CSS
	"td.fast,td.skip{color:#777;font-style:italic}"
	".sw{display:inline-block;width:.9em;height:.9em;margin-right:.4em;"
	"vertical-align:middle;border-radius:2px}"
	"td.wrap{word-break:break-all}";

/* ---- helpers over the model ---------------------------------------- */

static const struct clyde_loaded_test *
run_test(const struct clyde_loaded_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ntests; i++)
		if (!strcmp(r->tests[i].name, name))
			return &r->tests[i];
	return NULL;
}

/* True when some run has latency percentiles for test `name`. */
static bool has_percentiles(const struct clyde_compare *cmp, const char *name)
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

/* Is rate row r the first of its group (so the group gets a chart)? */
static bool first_of_group(const struct clyde_compare *cmp, size_t r)
{
	size_t i;

	if (cmp->rows[r].metric != CLYDE_CMP_RATE)
		return false;
	for (i = 0; i < r; i++)
		if (cmp->rows[i].metric == CLYDE_CMP_RATE &&
		    cmp->rows[i].group == cmp->rows[r].group)
			return false;
	return true;
}

size_t clyde_html_chart_count(const struct clyde_compare *cmp)
{
	size_t r, n = 0;

	for (r = 0; r < cmp->nrows; r++) {
		if (first_of_group(cmp, r))
			n++;
		if (cmp->rows[r].metric == CLYDE_CMP_RATE &&
		    has_percentiles(cmp, cmp->rows[r].test))
			n++;
	}
	return n + clyde_zcav_chart_wanted(cmp);
}

/* ---- bar charts ----------------------------------------------------- */

#define CH_WIDTH 960
#define CH_LEFT 250    /* test and run names */
#define CH_BAR_MAX 560 /* the longest bar */
#define CH_BAR_H 18
#define CH_BAR_GAP 4
#define CH_TEST_GAP 14
#define CH_TOP 8

/* One horizontal bar chart for the rate rows of group g: per test a block
 * of one bar per run, each with its value written after it.  Each test
 * has its own scale (its best run is the longest bar): the tests of one
 * group differ by orders of magnitude (putc and put_block), the runs of
 * one test are what is compared. */
static void bar_chart(FILE *f, const struct clyde_compare *cmp,
		      enum clyde_loaded_group g)
{
	double max;
	size_t r, c, ntests = 0;
	double y, h;
	char val[64];

	for (r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].metric == CLYDE_CMP_RATE &&
		    cmp->rows[r].group == g)
			ntests++;
	h = CH_TOP * 2 +
	    (double)ntests * ((double)cmp->ncols * (CH_BAR_H + CH_BAR_GAP) +
			      CH_TEST_GAP + 16);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart bars\""
		" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"role=\"img\" aria-label=\"",
		CH_WIDTH, h, CH_WIDTH, h);
	clyde_html_esc(f, clyde_loaded_group_name(g));
	fputs("\"><title>", f);
	clyde_html_esc(f, clyde_loaded_group_name(g));
	fputs("</title>\n", f);
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%.0f\"/>\n",
		CH_LEFT, CH_TOP, CH_LEFT, h - CH_TOP);
	y = CH_TOP;
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];

		if (row->metric != CLYDE_CMP_RATE || row->group != g)
			continue;
		max = 0;
		for (c = 0; c < cmp->ncols; c++)
			if (row->cells[c].has_value &&
			    row->cells[c].value > max)
				max = row->cells[c].value;
		fprintf(f, "<text x=\"6\" y=\"%.1f\" font-weight=\"bold\">",
			y + 13);
		clyde_html_esc(f, row->test);
		fprintf(f, " (");
		clyde_html_esc(f, row->unit);
		fputs(")</text>\n", f);
		y += 16;
		for (c = 0; c < cmp->ncols; c++) {
			const struct clyde_cmp_cell *cell = &row->cells[c];
			double w = 0;

			fprintf(f,
				"<text x=\"%d\" y=\"%.1f\" "
				"text-anchor=\"end\">",
				CH_LEFT - 6, y + 13);
			clyde_html_esc(f, cmp->labels[c]);
			fputs("</text>\n", f);
			clyde_compare_cell_text(val, sizeof(val), row, cell);
			if (cell->has_value && max > 0) {
				w = cell->value / max * CH_BAR_MAX;
				if (w < 1)
					w = 1;
				fprintf(f,
					"<rect x=\"%d\" y=\"%.1f\" "
					"width=\"%.1f\" height=\"%d\" "
					"fill=\"%s\"%s>",
					CH_LEFT, y, w, CH_BAR_H, color(c),
					cell->state == CLYDE_LOADED_TOO_FAST ?
						" fill-opacity=\"0.4\"" :
						"");
				fputs("<title>", f);
				clyde_html_esc(f, cmp->labels[c]);
				fputs(": ", f);
				clyde_html_esc(f, val);
				fputc(' ', f);
				clyde_html_esc(f, row->unit);
				fputs("</title></rect>\n", f);
			}
			if (!val[0])
				snprintf(val, sizeof(val), "not run");
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s>",
				CH_LEFT + w + 6, y + 13,
				cell->has_value && cell->state ==
							   CLYDE_LOADED_VALUE ?
					"" :
					" class=\"note\"");
			clyde_html_esc(f, val);
			if (cell->has_value) {
				fputc(' ', f);
				clyde_html_esc(f, row->unit);
			}
			if (cell->best)
				fputs(" \xe2\x98\x85", f); /* a star */
			fputs("</text>\n", f);
			y += CH_BAR_H + CH_BAR_GAP;
		}
		y += CH_TEST_GAP;
	}
	fputs("</svg>\n", f);
}

/* ---- latency percentile charts ------------------------------------ */

#define LC_WIDTH 960
#define LC_HEIGHT 300
#define LC_LEFT 80
#define LC_RIGHT 200 /* the legend */
#define LC_TOP 16
#define LC_BOTTOM 40

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

/* Percentiles p50 .. max of test `name`, one line per run that has them,
 * on a log scale. */
static void latency_chart(FILE *f, const struct clyde_compare *cmp,
			  const char *name)
{
	static const char *const xl[] = { "p50", "p90", "p99", "p99.9", "max" };
	double lo = INFINITY, hi = 0, l0, l1, pw, ph, d;
	size_t c, k, nleg = 0;
	char buf[64];

	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_test *t =
			run_test(cmp->runs[c], name);
		double v[5];

		if (!t || !t->has_latency)
			continue;
		v[0] = (double)t->latency.p50_ns;
		v[1] = (double)t->latency.p90_ns;
		v[2] = (double)t->latency.p99_ns;
		v[3] = (double)t->latency.p999_ns;
		v[4] = (double)t->latency.max_ns;
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
	pw = LC_WIDTH - LC_LEFT - LC_RIGHT;
	ph = LC_HEIGHT - LC_TOP - LC_BOTTOM;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
		"latency\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"",
		LC_WIDTH, LC_HEIGHT, LC_WIDTH, LC_HEIGHT);
	clyde_html_esc(f, name);
	fputs(" latency percentiles\"><title>", f);
	clyde_html_esc(f, name);
	fputs(" latency percentiles</title>\n", f);
	/* Decades as grid lines. */
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
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s"
			"</text>\n",
			x, LC_HEIGHT - LC_BOTTOM + 18, xl[k]);
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
		v[0] = (double)t->latency.p50_ns;
		v[1] = (double)t->latency.p90_ns;
		v[2] = (double)t->latency.p99_ns;
		v[3] = (double)t->latency.p999_ns;
		v[4] = (double)t->latency.max_ns;
		fprintf(f,
			"<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\" points=\"",
			color(c));
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
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
				"fill=\"%s\"><title>",
				x, y, color(c));
			clyde_html_esc(f, cmp->labels[c]);
			fprintf(f, " %s: %s</title></circle>\n", xl[k], buf);
		}
		/* The legend entry, with the run's p99 as its value. */
		y = LC_TOP + 14 + 18 * (double)nleg++;
		ns_text(buf, sizeof(buf), v[2]);
		fprintf(f,
			"<rect x=\"%.0f\" y=\"%.1f\" width=\"12\" "
			"height=\"12\" fill=\"%s\"/><text x=\"%.0f\" "
			"y=\"%.1f\">",
			LC_LEFT + pw + 16, y - 10, color(c), LC_LEFT + pw + 32,
			y);
		clyde_html_esc(f, cmp->labels[c]);
		fprintf(f, " (p99 %s)</text>\n", buf);
	}
	fputs("</svg>\n", f);
}

/* ---- what differs --------------------------------------------------- */

/* Every config key any run records, each once, in the order first seen. */
static const char **all_keys(const struct clyde_compare *cmp, size_t *n)
{
	const char **keys = NULL;
	size_t c, i, k;

	*n = 0;
	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_run *r = cmp->runs[c];

		for (i = 0; i < r->nkv; i++) {
			const char **nk;

			for (k = 0; k < *n; k++)
				if (!strcmp(keys[k], r->kv[i].key))
					break;
			if (k < *n)
				continue;
			nk = realloc(keys, (*n + 1) * sizeof(*nk));
			if (!nk) {
				free(keys);
				*n = 0;
				return NULL;
			}
			keys = nk;
			keys[(*n)++] = r->kv[i].key;
		}
	}
	return keys;
}

static bool key_differs(const struct clyde_compare *cmp, const char *key)
{
	const char *first = clyde_loaded_kv_get(cmp->runs[0], key);
	size_t c;

	for (c = 1; c < cmp->ncols; c++) {
		const char *v = clyde_loaded_kv_get(cmp->runs[c], key);

		if (!v || !first || strcmp(v, first))
			return true;
	}
	return !first;
}

static int what_differs(FILE *f, const struct clyde_compare *cmp)
{
	size_t nkeys = 0, k, c, ndiff = 0, nsame = 0;
	const char **keys = all_keys(cmp, &nkeys);

	if (!keys && nkeys)
		return -ENOMEM;
	for (k = 0; k < nkeys; k++) {
		if (cmp->ncols > 1 && key_differs(cmp, keys[k]))
			ndiff++;
		else
			nsame++;
	}
	fputs("<h2 id=\"differs\">What differs</h2>\n", f);
	if (cmp->ncols < 2)
		fputs("<p>One result: nothing to set apart.</p>\n", f);
	else if (!ndiff)
		fputs("<p>The results record the same configuration.</p>\n", f);
	if (ndiff) {
		fputs("<table class=\"differs\"><tr><th>setting</th>", f);
		for (c = 0; c < cmp->ncols; c++) {
			fprintf(f,
				"<th><span class=\"sw\" style=\"background:"
				"%s\"></span>",
				color(c));
			clyde_html_esc(f, cmp->labels[c]);
			fputs("</th>", f);
		}
		fputs("</tr>\n", f);
		for (k = 0; k < nkeys; k++) {
			if (!key_differs(cmp, keys[k]))
				continue;
			fputs("<tr><th>", f);
			clyde_html_esc(f, keys[k]);
			fputs("</th>", f);
			for (c = 0; c < cmp->ncols; c++) {
				const char *v = clyde_loaded_kv_get(
					cmp->runs[c], keys[k]);

				fputs("<td class=\"wrap\">", f);
				if (v)
					clyde_html_esc(f, v);
				else
					fputs("<i>not recorded</i>", f);
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	if (nsame) {
		fprintf(f,
			"<details><summary>Same in all results (%zu "
			"setting%s)</summary>\n<table class=\"same\">"
			"<tr><th>setting</th><th>value</th></tr>\n",
			nsame, nsame == 1 ? "" : "s");
		for (k = 0; k < nkeys; k++) {
			if (cmp->ncols > 1 && key_differs(cmp, keys[k]))
				continue;
			fputs("<tr><th>", f);
			clyde_html_esc(f, keys[k]);
			fputs("</th><td class=\"wrap\">", f);
			clyde_html_esc(f, clyde_loaded_kv_get(cmp->runs[0],
							      keys[k]));
			fputs("</td></tr>\n", f);
		}
		fputs("</table></details>\n", f);
	}
	free(keys);
	return 0;
}

/* ---- the full table ------------------------------------------------- */

static void full_table(FILE *f, const struct clyde_compare *cmp)
{
	static const char *const mname[] = { "rate", "CPU", "lat max",
					     "lat p99" };
	char val[64];
	size_t r, c;

	fputs("<h2 id=\"table\">All results</h2>\n<table class=\"compare\">"
	      "<tr><th>test</th><th>metric</th><th>unit</th>",
	      f);
	for (c = 0; c < cmp->ncols; c++) {
		fputs("<th>", f);
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</th>", f);
		if (cmp->baseline >= 0 && (long)c != cmp->baseline)
			fputs("<th>change</th>", f);
	}
	fputs("</tr>\n", f);
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];

		fputs("<tr><td>", f);
		clyde_html_esc(f, row->test);
		fprintf(f, "</td><td>%s</td><td>", mname[row->metric]);
		clyde_html_esc(f, row->unit);
		fputs("</td>", f);
		for (c = 0; c < cmp->ncols; c++) {
			const struct clyde_cmp_cell *cell = &row->cells[c];

			clyde_compare_cell_text(val, sizeof(val), row, cell);
			fprintf(f, "<td class=\"num%s\">",
				cell->best			     ? " best" :
				cell->state == CLYDE_LOADED_TOO_FAST ? " fast" :
				cell->state == CLYDE_LOADED_SKIPPED  ? " skip" :
								       "");
			clyde_html_esc(f, val);
			if (cell->sig == CLYDE_CMP_SIG_YES)
				fputs(" (s)", f);
			else if (cell->sig == CLYDE_CMP_SIG_NO)
				fputs(" (ns)", f);
			fputs("</td>", f);
			if (cmp->baseline < 0 || (long)c == cmp->baseline)
				continue;
			if (cell->has_change)
				fprintf(f, "<td class=\"num\">%+.*f%%</td>",
					fabs(cell->change_pct) >= 1000 ? 0 : 1,
					cell->change_pct);
			else
				fputs("<td></td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"legend\">Bold: best in its row (rates: "
	      "highest; CPU and latency: lowest). ~: ran under 0.5 s "
	      "(bonnie++ prints +++++), measured but imprecise; "
	      "&#8220;too fast&#8221;: no number recorded.",
	      f);
	if (cmp->baseline >= 0) {
		fputs(" Change: against ", f);
		clyde_html_esc(f, cmp->labels[cmp->baseline]);
		fputc('.', f);
	}
	if (cmp->any_sig) {
		fputs(" (s) / (ns): the difference from ", f);
		clyde_html_esc(f, cmp->labels[cmp->ref]);
		fputs(" is / is not significant (Welch&#8217;s t-test, "
		      "95%).",
		      f);
	}
	fputs("</p>\n", f);
}

/* ---- the page ------------------------------------------------------- */

static void runs_table(FILE *f, const struct clyde_compare *cmp)
{
	size_t c;

	fputs("<table class=\"runs\"><tr><th>result</th><th>source</th>"
	      "<th>format</th><th>repeats</th></tr>\n",
	      f);
	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_run *r = cmp->runs[c];

		fprintf(f,
			"<tr><td class=\"label\"><span class=\"sw\" "
			"style=\"background:%s\"></span>",
			color(c));
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</td><td class=\"wrap\">", f);
		clyde_html_esc(f, r->source);
		fputs("</td><td>", f);
		clyde_html_esc(f, r->format);
		fprintf(f, "</td><td class=\"num\">%zu</td></tr>\n",
			r->nrepeats);
	}
	fputs("</table>\n", f);
}

int clyde_html_write(FILE *f, const struct clyde_compare *cmp,
		     const char *title)
{
	size_t r;
	int rc;

	if (!title)
		title = "clyde report";
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"clyde\">\n<title>",
	      f);
	clyde_html_esc(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	clyde_html_esc(f, title);
	fprintf(f,
		"</h1>\n<p class=\"meta\">%zu result%s compared by "
		"clyde.</p>\n",
		cmp->ncols, cmp->ncols == 1 ? "" : "s");
	runs_table(f, cmp);

	fputs("<h2 id=\"throughput\">Throughput</h2>\n<p class=\"legend\">"
	      "Each test&#8217;s bars are scaled to its highest value; "
	      "&#9733; marks the best; pale bars and ~ ran under 0.5 s "
	      "(imprecise).</p>\n",
	      f);
	for (r = 0; r < cmp->nrows; r++) {
		if (!first_of_group(cmp, r))
			continue;
		fputs("<section class=\"group\"><h3>", f);
		clyde_html_esc(f, clyde_loaded_group_name(cmp->rows[r].group));
		fputs("</h3>\n", f);
		bar_chart(f, cmp, cmp->rows[r].group);
		fputs("</section>\n", f);
	}
	for (r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].metric == CLYDE_CMP_RATE &&
		    has_percentiles(cmp, cmp->rows[r].test))
			break;
	if (r < cmp->nrows) {
		fputs("<h2 id=\"latency\">Latency percentiles</h2>\n", f);
		for (; r < cmp->nrows; r++) {
			if (cmp->rows[r].metric != CLYDE_CMP_RATE ||
			    !has_percentiles(cmp, cmp->rows[r].test))
				continue;
			fputs("<section class=\"latency\"><h3>", f);
			clyde_html_esc(f, cmp->rows[r].test);
			fputs("</h3>\n", f);
			latency_chart(f, cmp, cmp->rows[r].test);
			fputs("</section>\n", f);
		}
	}
	if (clyde_zcav_chart_wanted(cmp)) {
		fputs("<h2 id=\"zcav\">Throughput by position (zcav)</h2>\n",
		      f);
		clyde_zcav_chart(f, cmp);
	}
	rc = what_differs(f, cmp);
	if (rc)
		return rc;
	full_table(f, cmp);
	fputs("</body>\n</html>\n", f);
	errno = 0;
	if (fflush(f) || ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}
