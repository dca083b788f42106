/*
 * The parts of the run report (html.h), one file each: the overview heat
 * map (html_overview.c), the SVG charts (html_chart.c) and the "what
 * differs" table (html_differs.c); html.c puts them on the page.  Private
 * to src/report: the page's structure is html.c's business.
 *
 * Runs are told apart by a colour and, from the eleventh run on, a marker
 * shape as well (circle, square, triangle, diamond), so that no two of
 * the first forty runs look alike; bar charts also name every bar.
 */
#ifndef CLYDE_REPORT_HTML_PARTS_H
#define CLYDE_REPORT_HTML_PARTS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/compare.h"

struct clyde_html_mark; /* html.h */

/* Run i's colour ("#1f77b4"). */
const char *clyde_html_color(size_t i);

/* Run i's marker as an SVG element centred at (x, y), radius r. */
void clyde_html_marker(FILE *f, size_t i, double x, double y, double r);

/* Run i's swatch for an HTML table: a small inline block of its colour in
 * its marker's shape. */
void clyde_html_swatch(FILE *f, size_t i);

/* A cell's flags (compare.h, Flags) as " <span class="flag" title="what
 * it means">memory</span>" per flag; nothing without one. */
void clyde_html_flags(FILE *f, const struct clyde_cmp_cell *cell);

/* The legend's sentences for the flags the table has. */
void clyde_html_flags_legend(FILE *f, const struct clyde_compare *cmp);

/* The CSS the parts rely on. */
#define CLYDE_HTML_PARTS_CSS                                                   \
	".sw{display:inline-block;width:.85em;height:.85em;margin-right:.4em;" \
	"vertical-align:middle}"                                               \
	".sw.m0{border-radius:50%}.sw.m2{clip-path:polygon(50% 0,100% 100%,"   \
	"0 100%)}.sw.m3{clip-path:polygon(50% 0,100% 50%,50% 100%,0 50%)}"     \
	"span.flag{color:#b3261e;font-size:.85em;font-weight:normal}"

/* One chart of the rows of `metric` (CLYDE_CMP_RATE or CLYDE_CMP_LAT_MAX)
 * in group g: a panel per test side by side across the page, a bar per
 * run (its label on the left), each test on its own scale, CI as error
 * bars, the best starred; "too fast", "skipped", "not run" written where a
 * bar would be.  Nothing when the group has no such row. */
void clyde_html_bar_chart(FILE *f, const struct clyde_compare *cmp,
			  enum clyde_loaded_group g,
			  enum clyde_cmp_metric metric);

/* The same with change points marked (html.h: struct clyde_html_mark);
 * marks is borrowed. */
void clyde_html_bar_chart_marked(FILE *f, const struct clyde_compare *cmp,
				 enum clyde_loaded_group g,
				 enum clyde_cmp_metric metric,
				 const struct clyde_html_mark *marks,
				 size_t nmarks);

/* Does group g have a row of `metric` with a value? */
bool clyde_html_group_has(const struct clyde_compare *cmp,
			  enum clyde_loaded_group g,
			  enum clyde_cmp_metric metric);

/* The latency percentiles of test `name` (p50 .. p99.9 of the runs that
 * have them, and max: the largest over all repeats, as in the table), a
 * line and markers per run on a log scale. */
void clyde_html_latency_chart(FILE *f, const struct clyde_compare *cmp,
			      const char *name);

/* Does some run have latency percentiles for test `name`? */
bool clyde_html_has_percentiles(const struct clyde_compare *cmp,
				const char *name);

/* The overview: one row per run, one column per test's rate, each cell
 * coloured by its share of the best of its settings group. */
void clyde_html_overview(FILE *f, const struct clyde_compare *cmp);

/* "What differs": one row per run, one column per setting whose value is
 * not the same in all runs; then the shared settings, collapsed.
 * Returns 0 or -ENOMEM. */
int clyde_html_differs(FILE *f, const struct clyde_compare *cmp);

/* "Member disks": per run with member counters (clyde JSON), one row per
 * test and member, then its members-check findings; nothing when no run
 * has any (html_members.c). */
void clyde_html_members(FILE *f, const struct clyde_compare *cmp);

/* "Over time" (html_series.c): per test, a chart per run with a time
 * series: rate and p99 latency over time, dirty memory on a second axis.
 * Nothing when no run has a series. */
bool clyde_html_series_wanted(const struct clyde_compare *cmp);
void clyde_html_series(FILE *f, const struct clyde_compare *cmp);

/* The CSS of those charts. */
#define CLYDE_HTML_SERIES_CSS                                     \
	".ts-row{display:flex;flex-wrap:wrap;gap:1em}"            \
	".ts{margin:0}.ts figcaption{font-size:.85em;color:#444}" \
	"svg .ts-rate,svg .ts-p99{fill:none;stroke-width:1.6}"    \
	"svg .ts-dirty{fill:none;stroke:#888;stroke-width:1.2;"   \
	"stroke-dasharray:4 3}svg .ax{stroke:#999}"               \
	"svg .ts-writeback{fill:none;stroke:#b07020;"             \
	"stroke-width:1.2;stroke-dasharray:1 2}"                  \
	".ts-scale{font-size:.85em;color:#444;margin:.2em 0}"     \
	"svg .tick,svg .cap{font-size:10px;fill:#444}svg .tick.dirty{fill:#888}"

#endif
