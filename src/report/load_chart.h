/*
 * The load chart of `clyde report`: latency against achieved load, one
 * line per run and test that has a --curve (clyde dev --curve: the JSON's
 * curve[], results/loaded.h clyde_loaded_curve), the requests per second
 * achieved on the x axis and the p99 latency (from each request's due
 * time) on the y axis, both from 0.  A step that did not reach its rate
 * is a hollow mark with a <title> saying so.  Inline SVG in the style of
 * the zcav chart.
 */
#ifndef CLYDE_REPORT_LOAD_CHART_H
#define CLYDE_REPORT_LOAD_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "report/compare.h"

/* True when some run of cmp has a curve (then the chart is drawn). */
bool clyde_load_chart_wanted(const struct clyde_compare *cmp);

/* Write the <svg> chart (nothing when no run has a curve). */
void clyde_load_chart(FILE *f, const struct clyde_compare *cmp);

#endif
