/*
 * What the line charts of `clyde report` share (the zcav chart, the load
 * chart): one frame of inline SVG, a round upper bound for each axis, and
 * the axes with their grid, ticks and labels.
 */
#ifndef CLYDE_REPORT_CHART_AXES_H
#define CLYDE_REPORT_CHART_AXES_H

#include <stdio.h>

#define CLYDE_CHART_WIDTH 960
#define CLYDE_CHART_HEIGHT 380
#define CLYDE_CHART_LEFT 80
#define CLYDE_CHART_RIGHT 230 /* the legend */
#define CLYDE_CHART_TOP 12
#define CLYDE_CHART_BOTTOM 48
#define CLYDE_CHART_TICKS 5

/* A round upper bound for an axis: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8
 * times a power of ten, so that the curves fill most of the chart; 1 for
 * a bound that is not above 0. */
double clyde_chart_nice_max(double v);

/* How the x axis's tick values are printed. */
enum clyde_chart_xticks {
	CLYDE_CHART_X_WHOLE, /* "16000": requests/s */
	CLYDE_CHART_X_G3,    /* three significant digits: "1.5" GiB */
};

/* The grid, both axes from 0 to xmax and ymax over a plot of pw x ph,
 * their ticks and their labels. */
void clyde_chart_axes(FILE *f, double xmax, double ymax, double pw, double ph,
		      enum clyde_chart_xticks xticks, const char *xlabel,
		      const char *ylabel);

#endif
