/*
 * until-decided: which points of an experiment still need repeats to
 * settle their rank against the best, and why each other one stopped.
 *
 * `until-stable` repeats every point until its own interval is narrow;
 * what a user wants is the decision.  This is the rule, a pure function
 * of the samples so far (the sweep calls it between rounds; tests replay
 * a recorded experiment through it):
 *
 * For every metric with a direction (amounts have none, experiment.h) the
 * best point is the one with the best mean.  Another point with a value
 * is decided for that metric when
 *   - it is significantly worse (Welch's t-test, both sides with two
 *     samples or more, p < alpha, and on the worse side), or
 *   - it is equivalent: the 1 - alpha interval of its difference to the
 *     best lies inside +-pct% of the best's mean;
 * both on the table's scale (clyde_exp_compare(), exp_analysis.h): on
 * log(x), the interval of the ratio exp(lo) - 1 .. exp(hi) - 1, so the
 * margin is log(1 - pct%) .. log(1 + pct%); on raw values for a metric
 * with a sample <= 0.  The rule and the table thus always agree: what
 * the rule stops as worse with some samples the table, given the same
 * samples, marks worse;
 * where alpha is clyde_exp_decide_level(max_runs): the rule looks at the
 * data after every round, and a rule that stops at the first look that
 * finds a difference would find ones that are not there; so every look
 * is made at Pocock's nominal level for the looks at n = 2 .. max_runs
 * (clyde_stats_pocock_level(): the chance of a false stop at any look is
 * 0.05; 0.0204 for max_runs 5, 0.0126 for 10; 0.05 when max_runs <= 2);
 * and open otherwise (also with fewer than two samples on either side).
 * The best is decided for a metric when every other point is, or has
 * stopped (stopped[q]: a point that stopped runs no more and its decision
 * stands; its test is not made again with the best's later samples).  A point
 * stops when it is decided for every metric (or failed: every run of it
 * failed, nothing more to learn); one still open with max_runs samples
 * stops at the limit.  The reason names the metric and the figures.
 *
 * Everything borrows the experiment and never prints.
 */
#ifndef CLYDE_ANALYSIS_EXP_DECIDE_H
#define CLYDE_ANALYSIS_EXP_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/experiment.h"

enum clyde_exp_stop {
	CLYDE_EXP_OPEN = 0,	/* repeat it: its rank is still open */
	CLYDE_EXP_STOP_WORSE,	/* significantly worse than the best */
	CLYDE_EXP_STOP_EQUIV,	/* equivalent to the best within pct */
	CLYDE_EXP_STOP_BEST,	/* the best, every other point decided */
	CLYDE_EXP_STOP_LIMIT,	/* max_runs samples, still open */
	CLYDE_EXP_STOP_FAILED,	/* every run failed */
	CLYDE_EXP_STOP_NOTHING, /* no metric with a direction has a value */
};

struct clyde_exp_decision {
	enum clyde_exp_stop stop;
	size_t n;	/* samples so far (the fewest over its metrics) */
	size_t metric;	/* the metric that decided it (WORSE, EQUIV: the
			 * first such), or that keeps it open (OPEN, LIMIT) */
	size_t against; /* that metric's best point */
	double p;	/* Welch's p against it (1 when not tested) */
	double lo_pct;	/* the interval of the difference (at 1 - alpha), in
			 * percent */
	double hi_pct;	/* of the best's mean (0 when not known) */
};

/*
 * Decide every point of e (out: e->npoints entries) for an equivalence
 * margin of pct percent (> 0) and a cap of max_runs samples (0: none),
 * each look at level alpha: clyde_exp_decide_level(max_runs), which the
 * caller computes once for all its looks (it is an integration).  stopped
 * (NULL: none) marks the points that already stopped (e->npoints
 * entries).  Returns the number of points still OPEN, not counting those.
 */
size_t clyde_exp_decide(const struct clyde_exp *e, double pct,
			unsigned max_runs, double alpha, const bool *stopped,
			struct clyde_exp_decision *out);

/* The most looks for which the level is Pocock's (computed, about 0.3 s
 * at 40); past it, 0.05 / looks. */
#define CLYDE_EXP_POCOCK_LOOKS 40

/* The level each look is made at, with looks at n = 2 .. max_runs. */
double clyde_exp_decide_level(unsigned max_runs);

/* "worse", "equivalent", "best", "open", "max-runs", "failed",
 * "nothing to decide". */
const char *clyde_exp_stop_name(enum clyde_exp_stop s);

/*
 * Why point d stopped (or is open), one line without the point's name:
 * "significantly worse than chunk 64k for block write (-23%, p = 0.002)",
 * "equivalent to chunk 64k within +-5% for block write (-1.2% .. +2.0%)",
 * "the best; every other point is decided", "open: block write against
 * chunk 64k (-8% .. +12%)", "max-runs (5) reached, block write still open
 * (-8% .. +12%)", "every run failed".  Returns buf.
 */
char *clyde_exp_decision_text(char *buf, size_t len, const struct clyde_exp *e,
			      const struct clyde_exp_decision *d, double pct,
			      unsigned max_runs);

#endif
