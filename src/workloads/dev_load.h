/*
 * clyde dev's --curve and --latency-target over one request test that
 * has just run at full speed (its rate is the maximum): the curve runs it
 * again at each step's share of that rate, the target bisects between 0
 * and it (core/loadcurve.h), each run rate-limited (dev_job.h: latencies
 * from the due times).  dev.c hands over how to run the test once at a
 * rate (step); nothing prints.
 */
#ifndef CLYDE_WORKLOADS_DEV_LOAD_H
#define CLYDE_WORKLOADS_DEV_LOAD_H

#include "core/ctx.h"
#include "results/dev_result.h"

/* Run the test once at rate_ops requests per second into *into (zeroed
 * first; its latency and series are the caller's to free with
 * clyde_dev_test_result_free).  0 or a negative errno. */
typedef int (*clyde_dev_step_fn)(void *arg, double rate_ops,
				 struct clyde_dev_test_result *into);

/* --curve and --latency-target of test t (run->tests[t] ran at full
 * speed).  0 or the first step's error. */
int clyde_dev_load_run(struct clyde_ctx *ctx, struct clyde_dev_run *run,
		       enum clyde_dev_test t, clyde_dev_step_fn step,
		       void *arg);

/* A run's figures as a point (pct and asked are the caller's). */
void clyde_dev_point_of(const struct clyde_dev_test_result *r,
			const struct clyde_lat_target *target,
			struct clyde_dev_load_point *p);

/* Free what a step's result owns. */
void clyde_dev_test_result_free(struct clyde_dev_test_result *r);

#endif
