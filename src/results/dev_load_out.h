/*
 * The text and JSON of clyde dev's load options (--rate, --curve,
 * --latency-target; workloads/dev_load.h): a line per rate-limited test,
 * a table per curve, the search's bracket and answer.
 */
#ifndef CLYDE_RESULTS_DEV_LOAD_OUT_H
#define CLYDE_RESULTS_DEV_LOAD_OUT_H

#include <stdio.h>

#include "core/json_out.h"
#include "results/dev_result.h"

/* Under the table: the limiter's lines, the curves, the searches. */
void clyde_dev_load_text(FILE *f, const struct clyde_dev_run *run);

/* In a test's JSON object: "rate" (null without --rate), "curve" (an
 * array, or null) and "latency_target" (an object, or null). */
void clyde_dev_load_json(struct clyde_jw *w, const struct clyde_dev_run *run,
			 int t);

/* In the JSON's config: rate, curve_pct, latency_target. */
void clyde_dev_load_json_config(struct clyde_jw *w,
				const struct clyde_dev_config *c);

#endif
