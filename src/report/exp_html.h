/*
 * The experiment report: one self-contained HTML page (inline CSS and
 * SVG, no script, nothing fetched) with, in order,
 *  - per metric a line chart (<svg class="chart exp">) of the metric
 *    against the first axis: a log scale for sizes and positive values
 *    spanning a factor of ten, a linear one for other numbers, evenly
 *    spaced categories otherwise; one line (<polyline class="series">)
 *    per value of the other axes, each with its colour, marker and legend
 *    entry, its 95% confidence interval as a shaded band (<polygon
 *    class="band">) and the best point ringed and starred;
 *  - the plain sentences (clyde_exp_sentences());
 *  - the table (the marks and legend of exp_table.h);
 *  - per point its configuration text in a <details> block;
 *  - "Over time" (exp_html_series.c), when points carry time series: per
 *    metric one small chart per point (<figure class="exp-ts-point">),
 *    side by side on shared axes (the longest span, the largest rate),
 *    the rate a line (<path class="ts-rate">), the host's dirty memory a
 *    dashed one (<path class="ts-dirty">) on a right axis.
 * Every string from the experiment is escaped.
 */
#ifndef CLYDE_REPORT_EXP_HTML_H
#define CLYDE_REPORT_EXP_HTML_H

#include <stdio.h>

#include "analysis/exp_analysis.h"
#include "analysis/experiment.h"

/*
 * Write the page for e to f with `title` (escaped; NULL: the experiment's
 * title, else "clyde experiment").  Returns 0, -ENOMEM, or -EIO when the
 * stream failed.
 */
int clyde_exp_html_write(FILE *f, const struct clyde_exp *e, const char *title);

/* Whether some point of e has a time series of two intervals or more. */
bool clyde_exp_has_series(const struct clyde_exp *e);

/* The "Over time" sections, one per metric with series (ms: the metrics'
 * statistics, for their units).  Nothing for a metric without. */
void clyde_exp_html_series(FILE *f, const struct clyde_exp *e,
			   const struct clyde_exp_mstat *ms);

#endif
