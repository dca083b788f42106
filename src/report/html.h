/*
 * The HTML report of `clyde report`: one self-contained file (inline CSS
 * and SVG; no script, no fonts, nothing fetched from the network), laid
 * out for a 1400 px window and scaling down, that reads as well with 24
 * results as with 3:
 *  - the title, the number of results and the generation date;
 *  - an overview heat map: one row per result, one column per test's
 *    rate, each cell shaded by its share of the best of its settings
 *    group (html_overview.c);
 *  - the results with their run dates and sources (collapsed past ten);
 *  - a chart per test group (sequential output, sequential input, random
 *    seeks, sequential create, random create, tree walk): a panel per
 *    test across the page width, a bar per result with CI whiskers, "too
 *    fast" and "skipped" written where the bar would be, never drawn as 0;
 *    the same charts for the maximum latencies (bonnie++ 1.96 and later);
 *    a latency percentile chart per test where some result has
 *    percentiles (html_chart.c);
 *  - "what differs": the settings groups, then one row per result and one
 *    column per setting that differs, then the shared settings, collapsed
 *    in a <details> element (html_differs.c);
 *  - the full compare table (the same model as `clyde compare`), changes
 *    against a baseline coloured.
 * A result has a colour and, past ten, a marker shape too.  Every string
 * that came from a user (labels, paths, notes, mount options) is escaped
 * for HTML text or attributes.
 */
#ifndef CLYDE_REPORT_HTML_H
#define CLYDE_REPORT_HTML_H

#include <stdio.h>

#include "report/compare.h"
#include "results/loaded.h"

/*
 * The style both reports share (page, headings, tables, SVG charts,
 * details, legends); each report appends its own rules.  A string literal,
 * so that it joins a report's own at compile time.
 */
#define CLYDE_HTML_BASE_CSS                                                \
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,"      \
	"'DejaVu Sans',sans-serif;margin:2em auto;max-width:1100px;"       \
	"padding:0 1em;color:#222;background:#fff}"                        \
	"h1{font-size:1.6em;margin-bottom:.2em}"                           \
	"h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:2em}" \
	"h3{font-size:1.05em;margin:1.2em 0 .3em}"                         \
	".meta{color:#666;margin-top:0}"                                   \
	"table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"     \
	"th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left;"  \
	"vertical-align:top}"                                              \
	"th{background:#f4f4f4}"                                           \
	"td.num{text-align:right;font-variant-numeric:tabular-nums;"       \
	"white-space:nowrap}"                                              \
	"td.best{font-weight:bold;background:#e6f4e6}"                     \
	"svg{display:block;max-width:100%;height:auto;margin:.3em 0 1em}"  \
	"svg text{font-family:inherit;font-size:12px;fill:#222}"           \
	"svg .axis{stroke:#999;stroke-width:1}"                            \
	"svg .grid{stroke:#e3e3e3;stroke-width:1}"                         \
	"svg .note{fill:#777;font-style:italic}"                           \
	"details{margin:.5em 0}summary{cursor:pointer;color:#444}"         \
	".legend{font-size:.85em;color:#555}"

/*
 * Write s escaped for HTML text and attribute values alike: & < > " '
 * become entities and control characters (which HTML does not allow)
 * become U+FFFD, so that no name a user chose can close a tag or an
 * attribute or start one.  NULL writes nothing.  The experiment report
 * (exp_html.c) uses it too.
 */
void clyde_html_esc(FILE *f, const char *s);

/* The colour of run i in every chart ("#1f77b4", ...). */
const char *clyde_html_color(size_t i);

/* How many <svg> charts clyde_html_write() draws for this table: one per
 * group with a rate row, one per group with a maximum latency, plus one
 * per test with percentiles.  (Tests use it to check what a browser
 * rendered.) */
size_t clyde_html_chart_count(const struct clyde_compare *cmp);

/*
 * Write the report for `cmp` (built from the runs the report shows) with
 * `title` (escaped; NULL for "clyde report").  The generation date is the
 * clock's, or SOURCE_DATE_EPOCH's when that is set.  Returns 0, -ENOMEM,
 * or a negative errno when the stream failed.
 */
int clyde_html_write(FILE *f, const struct clyde_compare *cmp,
		     const char *title);

/* A change point (report/history_changes.h) marked on a throughput chart:
 * in test `test`'s panel, a dashed line above column `col` (the first run
 * after the change), with `text` as its tooltip. */
struct clyde_html_mark {
	char test[32];
	size_t col;
	char text[200];
};

/* clyde_html_write() with the change points marks[0..nmarks) drawn on
 * the throughput charts and named in their legend (`clyde history
 * report`).  marks is borrowed. */
int clyde_html_write_marked(FILE *f, const struct clyde_compare *cmp,
			    const char *title,
			    const struct clyde_html_mark *marks, size_t nmarks);

#endif
