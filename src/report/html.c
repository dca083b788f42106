/*
 * The HTML report (see html.h).  One pass over the compare model writes
 * the whole page; charts are plain SVG drawn here, so the file needs
 * nothing but a browser: no script, no web fonts, no external URL.
 *
 * Layout numbers (pixels) are constants below; every coordinate is
 * written with a '.' decimal point (clyde never changes LC_NUMERIC).
 */
#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/html_parts.h"
#include "report/load_chart.h"
#include "report/zcav_chart.h"

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

static const char css[] =
	CLYDE_HTML_BASE_CSS CLYDE_HTML_PARTS_CSS CLYDE_HTML_SERIES_CSS
	"body{max-width:1400px}"
	"td.fast,td.skip,td.na{color:#777;font-style:italic}"
	"td.better{color:#1a7f37;font-weight:600}"
	"td.worse{color:#c62828;font-weight:600}"
	"th.run,td.label{white-space:nowrap}"
	"th.test{white-space:nowrap;text-align:center}"
	".unit{font-weight:normal;color:#666;font-size:.85em}"
	"td.heat{color:#111}td.heat.best{font-weight:bold}"
	"td.alone{background:#f1f1f1}"
	".scroll{overflow-x:auto}"
	"table.differs td,table.same td{overflow-wrap:normal;"
	"word-break:normal;min-width:4em}"
	"table.compare td{white-space:nowrap}"
	"td.src{overflow-wrap:anywhere;font-size:.85em}"
	"svg .err{stroke:#222;stroke-width:1.2;fill:none}"
	"svg .mk{stroke:#fff;stroke-width:.6}";

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
		if (!first_of_group(cmp, r))
			continue;
		n++;
		if (clyde_html_group_has(cmp, cmp->rows[r].group,
					 CLYDE_CMP_LAT_MAX))
			n++;
	}
	for (r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].metric == CLYDE_CMP_RATE &&
		    clyde_html_has_percentiles(cmp, cmp->rows[r].test))
			n++;
	return n + clyde_zcav_chart_wanted(cmp) + clyde_load_chart_wanted(cmp);
}

/* ---- the full table ------------------------------------------------- */

/* A change cell, coloured: better (green) or worse (red) than the
 * baseline by the row's sense; CPU is neither. */
static void change_cell(FILE *f, const struct clyde_cmp_row *row,
			const struct clyde_cmp_cell *cell)
{
	char buf[32];
	const char *cls = "";

	if (!cell->has_change) {
		fputs("<td></td>", f);
		return;
	}
	if (row->metric != CLYDE_CMP_CPU && cell->change_pct != 0) {
		bool up = cell->change_pct > 0;

		cls = up == row->higher_better ? " better" : " worse";
	}
	fprintf(f, "<td class=\"num%s\">%s</td>", cls,
		clyde_compare_change_text(buf, sizeof(buf), cell->change_pct));
}

static void full_table(FILE *f, const struct clyde_compare *cmp)
{
	static const char *const mname[] = { "rate", "CPU", "lat max",
					     "lat p99" };
	char val[64], ci[64], cls[16];
	size_t r, c;

	fputs("<h2 id=\"table\">All results</h2>\n<div class=\"scroll\">"
	      "<table class=\"compare\"><tr><th>test</th><th>metric</th>"
	      "<th>unit</th>",
	      f);
	for (c = 0; c < cmp->ncols; c++) {
		fputs("<th class=\"run\">", f);
		clyde_html_swatch(f, c);
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</th>", f);
		if (cmp->baseline >= 0 && (long)c != cmp->baseline)
			fputs("<th>change</th>", f);
	}
	fputs("</tr>\n", f);
	for (r = 0; r < cmp->nrows; r++) {
		const struct clyde_cmp_row *row = &cmp->rows[r];
		bool split = row->scope < CLYDE_SCOPE_COUNT &&
			     cmp->scopes[row->scope].nclasses > 1 &&
			     row->metric != CLYDE_CMP_CPU;

		fputs("<tr><td>", f);
		clyde_html_esc(f, row->test);
		fprintf(f, "</td><td>%s</td><td>", mname[row->metric]);
		clyde_html_esc(f, row->unit);
		fputs("</td>", f);
		for (c = 0; c < cmp->ncols; c++) {
			const struct clyde_cmp_cell *cell = &row->cells[c];

			clyde_compare_cell_text(val, sizeof(val), row, cell);
			clyde_compare_ci_text(ci, sizeof(ci), row, cell);
			fprintf(f, "<td class=\"num%s\">",
				cell->best			     ? " best" :
				cell->state == CLYDE_LOADED_TOO_FAST ? " fast" :
				cell->state == CLYDE_LOADED_SKIPPED  ? " skip" :
								       "");
			clyde_html_esc(f, val);
			if (row->metric != CLYDE_CMP_CPU)
				clyde_html_flags(f, cell);
			if (ci[0]) {
				fputs(" &#177;", f);
				clyde_html_esc(f, ci);
			}
			if (cell->disagree)
				fputs("!", f);
			if (cell->runs_disagree)
				fputs(" !!", f);
			if (clyde_compare_tie_text(cell))
				fprintf(f, " <span title=\"%s\">%s</span>",
					clyde_compare_tie_text(cell),
					cell->verdict ==
							CLYDE_VERDICT_EQUIVALENT ?
						"=" :
						"?");
			if (split && cell->state != CLYDE_LOADED_NOT_RUN)
				fprintf(f, " [%s]",
					clyde_compare_class_name(
						cls, sizeof(cls), cell->cls));
			if (cell->sig == CLYDE_CMP_SIG_YES)
				fputs(" (s)", f);
			else if (cell->sig == CLYDE_CMP_SIG_NO)
				fputs(" (ns)", f);
			fputs("</td>", f);
			if (cmp->baseline >= 0 && (long)c != cmp->baseline)
				change_cell(f, row, cell);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n<p class=\"legend\">Bold: best in its row "
	      "among results with the same settings (rates: highest; "
	      "latency: lowest; CPU is not ranked). [A], [B]: settings "
	      "groups (see What differs). &#177;: 95% confidence interval "
	      "of the mean over the repeats; !: the repeats disagree (the "
	      "largest is at least twice the smallest); !!: results with "
	      "the same settings differ 2x or more. ~: ran under 0.5 s "
	      "(bonnie++ prints +++++), measured but imprecise, ranked by "
	      "value; "
	      "&#8220;too fast&#8221;: no number recorded. Latency max is "
	      "the largest over all repeats.",
	      f);
	if (cmp->baseline >= 0) {
		fputs(" Change: against ", f);
		clyde_html_esc(f, cmp->labels[cmp->baseline]);
		fputs(", green when better, red when worse.", f);
	}
	if (cmp->any_best_tie)
		fputs(" Several bold in a row with repeats: a tie, the best "
		      "is not better than them (Welch&#8217;s t-test on log "
		      "values, 95%).",
		      f);
	if (cmp->any_best_equivalent)
		fputs(" =: equivalent to the best (within &#177;5%).", f);
	if (cmp->any_best_cannot_tell)
		fputs(" ?: cannot tell from the best (neither significantly "
		      "worse nor within &#177;5%; more repeats would decide).",
		      f);
	clyde_html_flags_legend(f, cmp);
	if (cmp->any_sig) {
		fputs(" (s) / (ns): the difference from ", f);
		clyde_html_esc(f, cmp->labels[cmp->ref]);
		fputs(" is / is not significant (Welch&#8217;s t-test on log "
		      "values, 95%).",
		      f);
	}
	fputs("</p>\n", f);
}

/* ---- the page ------------------------------------------------------- */

/* The results and where they came from; collapsed past ten runs (the
 * overview names them all already).  The date column only when some run
 * recorded one. */
static void runs_table(FILE *f, const struct clyde_compare *cmp)
{
	char date[64];
	bool dates = false;
	size_t c;

	for (c = 0; c < cmp->ncols; c++)
		if (cmp->runs[c]->started_unix)
			dates = true;
	fprintf(f,
		"<details class=\"runs\"%s><summary>The %zu result%s and "
		"their sources</summary>\n<div class=\"scroll\"><table "
		"class=\"runs\"><tr><th>result</th>%s<th>repeats</th>"
		"<th>format</th><th>source</th></tr>\n",
		cmp->ncols > 10 ? "" : " open", cmp->ncols,
		cmp->ncols == 1 ? "" : "s", dates ? "<th>started</th>" : "");
	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_run *r = cmp->runs[c];

		fputs("<tr><td class=\"label\">", f);
		clyde_html_swatch(f, c);
		clyde_html_esc(f, cmp->labels[c]);
		fputs("</td>", f);
		if (dates) {
			fputs("<td class=\"label\">", f);
			clyde_html_esc(f, clyde_compare_run_date(
						  date, sizeof(date), r));
			fputs("</td>", f);
		}
		fprintf(f, "<td class=\"num\">%zu</td><td>", r->nrepeats);
		clyde_html_esc(f, r->format);
		fputs("</td><td class=\"src\">", f);
		clyde_html_esc(f, r->source);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div></details>\n", f);
}

/* When the page was made: now, or SOURCE_DATE_EPOCH when set (the
 * reproducible-builds convention), so that tests can compare pages. */
static void generated(FILE *f)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	time_t now = time(NULL);
	struct tm tm;
	char buf[64];

	if (e && *e)
		now = (time_t)strtoll(e, NULL, 10);
	if (gmtime_r(&now, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm))
		fprintf(f, " Generated %s.", buf);
}

static void charts(FILE *f, const struct clyde_compare *cmp,
		   enum clyde_cmp_metric metric,
		   const struct clyde_html_mark *marks, size_t nmarks)
{
	size_t r;

	for (r = 0; r < cmp->nrows; r++) {
		enum clyde_loaded_group g = cmp->rows[r].group;

		if (!first_of_group(cmp, r) ||
		    !clyde_html_group_has(cmp, g, metric))
			continue;
		fputs("<section class=\"group\"><h3>", f);
		clyde_html_esc(f, clyde_loaded_group_name(g));
		fputs("</h3>\n", f);
		clyde_html_bar_chart_marked(f, cmp, g, metric, marks, nmarks);
		fputs("</section>\n", f);
	}
}

int clyde_html_write(FILE *f, const struct clyde_compare *cmp,
		     const char *title)
{
	return clyde_html_write_marked(f, cmp, title, NULL, 0);
}

int clyde_html_write_marked(FILE *f, const struct clyde_compare *cmp,
			    const char *title,
			    const struct clyde_html_mark *marks, size_t nmarks)
{
	size_t r, g;
	bool any_lat = false;
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
	fprintf(f, "</h1>\n<p class=\"meta\">%zu result%s compared by clyde.",
		cmp->ncols, cmp->ncols == 1 ? "" : "s");
	generated(f);
	fputs("</p>\n", f);
	clyde_html_overview(f, cmp);
	runs_table(f, cmp);

	fputs("<h2 id=\"throughput\">Throughput</h2>\n<p class=\"legend\">"
	      "Each test&#8217;s bars are scaled to its highest value; "
	      "&#9733; marks the best of a settings group ([A], [B]); "
	      "whiskers show the 95% confidence interval over repeats; pale "
	      "bars and ~ ran under 0.5 s (imprecise, still ranked by "
	      "value); !! results with the same settings that differ 2x or "
	      "more.</p>\n",
	      f);
	if (nmarks)
		fprintf(f,
			"<p class=\"legend\">A red dashed line marks a change "
			"point (clyde history changes over these runs, in the "
			"order shown): the figure's level moved between the "
			"run above and the run below it; its tooltip says "
			"how much. %zu change point%s marked.</p>\n",
			nmarks, nmarks == 1 ? "" : "s");
	charts(f, cmp, CLYDE_CMP_RATE, marks, nmarks);
	for (g = 0; g < CLYDE_GROUP_COUNT; g++)
		if (clyde_html_group_has(cmp, (enum clyde_loaded_group)g,
					 CLYDE_CMP_LAT_MAX))
			any_lat = true;
	if (any_lat) {
		fputs("<h2 id=\"latmax\">Maximum latency</h2>\n<p class=\""
		      "legend\">The slowest single operation of each test "
		      "(bonnie++ 1.96 and later record it), the largest over "
		      "all repeats; shorter is better, &#9733; marks the "
		      "best.</p>\n",
		      f);
		charts(f, cmp, CLYDE_CMP_LAT_MAX, NULL, 0);
	}
	for (r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].metric == CLYDE_CMP_RATE &&
		    clyde_html_has_percentiles(cmp, cmp->rows[r].test))
			break;
	if (r < cmp->nrows) {
		fputs("<h2 id=\"latency\">Latency percentiles</h2>\n"
		      "<p class=\"legend\">p50 to p99.9 of the first repeat "
		      "with a histogram; max is the largest over all "
		      "repeats, as in the table.</p>\n",
		      f);
		for (; r < cmp->nrows; r++) {
			if (cmp->rows[r].metric != CLYDE_CMP_RATE ||
			    !clyde_html_has_percentiles(cmp, cmp->rows[r].test))
				continue;
			fputs("<section class=\"latency\"><h3>", f);
			clyde_html_esc(f, cmp->rows[r].test);
			fputs("</h3>\n", f);
			clyde_html_latency_chart(f, cmp, cmp->rows[r].test);
			fputs("</section>\n", f);
		}
	}
	if (clyde_html_series_wanted(cmp)) {
		fputs("<h2 id=\"timeseries\">Over time</h2>\n<p class=\"legend"
		      "\">Per interval of the first repeat with a time series: "
		      "the rate (top) and the p99 latency (bottom), with the "
		      "host's dirty memory dashed on the right axis.</p>\n",
		      f);
		clyde_html_series(f, cmp);
	}
	if (clyde_zcav_chart_wanted(cmp)) {
		fputs("<h2 id=\"zcav\">Throughput by position (zcav)</h2>\n",
		      f);
		clyde_zcav_chart(f, cmp);
	}
	if (clyde_load_chart_wanted(cmp)) {
		fputs("<h2 id=\"load\">Latency against load (--curve)</h2>\n"
		      "<p class=\"legend\">Each step of clyde dev --curve: the "
		      "requests per second achieved and the p99 latency, timed "
		      "from each request's due time; a hollow mark did not "
		      "reach its rate.</p>\n",
		      f);
		clyde_load_chart(f, cmp);
	}
	rc = clyde_html_differs(f, cmp);
	if (rc)
		return rc;
	clyde_html_members(f, cmp);
	full_table(f, cmp);
	fputs("</body>\n</html>\n", f);
	errno = 0;
	if (fflush(f) || ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}
