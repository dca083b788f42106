/*
 * The time series (core/series.h) in the outputs: a "series" object and a
 * "steadiness" object in the JSON (docs/json-schema.md, "Time series"),
 * and the steadiness lines of the text report.
 */
#ifndef CLYDE_RESULTS_SERIES_OUT_H
#define CLYDE_RESULTS_SERIES_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/series.h"
#include "core/json_out.h"
#include "results/result.h"

/* Member `key`: interval_ns, complete, and one object per interval (t_ns
 * from the start, dur_ns, bytes, ops, latency p50/p99/max, dirty and
 * writeback bytes); null when the series was not recorded. */
void clyde_jw_series(struct clyde_jw *w, const char *key,
		     const struct clyde_series *s);

/* Member `key`: the rate's steadiness over the series (bytes per second
 * when `bytes`, else operations): intervals, mean, cv, slope; null with
 * fewer than two full intervals. */
void clyde_jw_steadiness(struct clyde_jw *w, const char *key,
			 const struct clyde_series *s, bool bytes);

/* One line of the text report for a test: "NAME  cv C%  slope S%/s over N
 * x I intervals" into buf; "" when there are too few intervals. */
char *clyde_series_steady_cell(char *buf, size_t len,
			       const struct clyde_series *s, bool bytes);

/* The steadiness of clyde run's tests, after its latency table; nothing
 * when no test has two intervals.  Returns 0 or -errno. */
int clyde_series_text_write(FILE *f, const struct clyde_run *run);

#endif
