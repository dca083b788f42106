/*
 * The zcav chart of `clyde report`: throughput by position, one line per
 * run that has a zcav curve (clyde dev --tests zcav, clyde zcav), position
 * in GiB on the x axis and MiB/s on the y axis, both from 0.  Inline SVG in
 * the style of html.c's charts.  Flagged blocks (too short to time, or
 * over holes of a sparse file: clyde_loaded_zcav.flags) are left out of
 * the line and drawn as hollow circles (class "zcav-flag") with a <title>
 * saying why; the y axis is scaled to the measured blocks.
 */
#ifndef CLYDE_REPORT_ZCAV_CHART_H
#define CLYDE_REPORT_ZCAV_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "report/compare.h"

/* True when some run of cmp has a zcav curve (then the chart is drawn). */
bool clyde_zcav_chart_wanted(const struct clyde_compare *cmp);

/* Write the <svg> chart (nothing when no run has a curve). */
void clyde_zcav_chart(FILE *f, const struct clyde_compare *cmp);

#endif
