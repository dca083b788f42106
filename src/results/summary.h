/*
 * Run-to-run statistics of a series of runs of one configuration (-x N,
 * --until-stable): for each test, the mean of its per-run rates, their
 * spread and a 95% Student's t confidence interval, and whether that
 * interval is already as narrow as the user asked for.
 *
 * The values are the per-run rates of clyde_test_rate() (bytes/s for putc
 * .. get_block, seeks/s, files/s) of the runs where the test is CLYDE_DONE
 * and was timed (elapsed_ns > 0).  A test shorter than CLYDE_TOO_FAST_NS,
 * which bonnie++'s formats show as "+++++", still has a measured rate and
 * counts.  Skipped and not-run tests contribute nothing.
 *
 * Pure computation over the caller's runs (borrowed, never kept).
 */
#ifndef CLYDE_RESULTS_SUMMARY_H
#define CLYDE_RESULTS_SUMMARY_H

#include <stdbool.h>

#include "results/result.h"

/* Whether a test's interval met the target (--until-stable PCT). */
enum clyde_settled {
	CLYDE_SETTLED_NA = 0, /* no target given: JSON null */
	CLYDE_SETTLED_NO,
	CLYDE_SETTLED_YES,
};

struct clyde_summary {
	enum clyde_test test;
	unsigned n; /* runs that gave a value; 0: nothing to summarise */
	double mean;
	/* Sample standard deviation and the half-width of the 95% interval
	 * mean +- ci95.  Both are 0 when n < 2: nothing is known about the
	 * spread then, and a display must say "n/a", not "+-0". */
	double stddev;
	double ci95;
	double low;	  /* mean - ci95 */
	double high;	  /* mean + ci95 */
	const char *unit; /* "B/s", "seeks/s" or "files/s" (static) */
	enum clyde_settled settled;
};

/* The unit of test t's rate as clyde_test_rate() gives it. */
const char *clyde_summary_unit(enum clyde_test t);

/* The values of test t over runs[0..n) that the summary uses, in run
 * order, into x (room for n).  Returns how many. */
unsigned clyde_summary_samples(const struct clyde_run *runs, unsigned n,
			       enum clyde_test t, double *x);

/*
 * Summarise every test over runs[0..n).  out[t] is filled for every test
 * (n = 0 where the test gave no value).  With target_pct > 0 a test is
 * CLYDE_SETTLED_YES when clyde_stats_settled() says so (at least
 * CLYDE_STATS_SETTLE_MIN_N values, 3, and ci95 <= target_pct / 100 *
 * |mean|), else CLYDE_SETTLED_NO; with
 * target_pct <= 0 (or NaN) every test is CLYDE_SETTLED_NA.  Nothing is
 * ever NaN or infinite.  Returns the number of tests with n > 0 (0..12),
 * or -EINVAL when runs is NULL with n > 0 or out is NULL, or -ENOMEM.
 */
int clyde_summary_compute(const struct clyde_run *runs, unsigned n,
			  double target_pct,
			  struct clyde_summary out[CLYDE_TEST_COUNT]);

/*
 * True when every test that has a value (n > 0) is CLYDE_SETTLED_YES and
 * at least one test has a value.  A test with no target (NA) is not
 * settled, so without a target this is false: there is nothing to stop on.
 */
bool clyde_summary_all_settled(const struct clyde_summary s[CLYDE_TEST_COUNT]);

/*
 * List the tests that have a value but are not CLYDE_SETTLED_YES, in
 * bonnie++'s order, into out (room for CLYDE_TEST_COUNT).  Returns how
 * many.
 */
unsigned clyde_summary_unsettled(const struct clyde_summary s[CLYDE_TEST_COUNT],
				 enum clyde_test out[CLYDE_TEST_COUNT]);

#endif
