/*
 * The one decision clyde makes between two configurations: given the
 * samples (repeats) of a and of b in the metric's base unit and which way
 * the metric is better, is a better than b, worse, equivalent, or can the
 * data not tell?  `clyde compare` (its stars and its significance marks),
 * the HTML report, `clyde history compare`, the sweep's table and
 * sentences, until-decided and `clyde run -x --until-decided` all call
 * this, so the same samples get the same verdict everywhere
 * (docs/compare.md says the rule in words).
 *
 * The rule.  Benchmark noise is multiplicative (the spread of a
 * configuration grows with its mean), so the test is made on log(x) when
 * every sample of both is a finite number > 0, else on raw values:
 *  - both sides need two samples or more, else CANNOT_TELL (tested false:
 *    nothing is known about the noise);
 *  - Welch's t-test of the means (of log x) at p < alpha: BETTER or WORSE,
 *    by the side a's centre lies on;
 *  - else EQUIVALENT when the 1 - alpha interval of the difference lies
 *    inside +-margin_pct% of b: on log(x) the interval of the ratio, exp(lo) - 1
 *    .. exp(hi) - 1, so the margin is log(1 - m%) .. log(1 + m%); on raw
 *    values the difference over |mean(b)|;
 *  - else CANNOT_TELL: neither a difference nor an equivalence is shown;
 *    more repeats would decide.
 * A difference significant and yet inside the margin is BETTER or WORSE:
 * significance is looked at first (until-decided has always stopped such
 * a point as worse).
 *
 * Pure computation over the caller's arrays (borrowed, never kept); never
 * prints and never fails (out of memory for more than 64 samples falls
 * back to raw values and says so in log_scale).
 */
#ifndef CLYDE_ANALYSIS_DECIDE_H
#define CLYDE_ANALYSIS_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

/* The tables' level and margin: 95%, +-5%. */
#define CLYDE_DECIDE_ALPHA 0.05
#define CLYDE_DECIDE_MARGIN_PCT 5.0

enum clyde_verdict {
	CLYDE_VERDICT_CANNOT_TELL = 0,
	CLYDE_VERDICT_BETTER,
	CLYDE_VERDICT_WORSE,
	CLYDE_VERDICT_EQUIVALENT,
};

struct clyde_decide_rule {
	bool higher_better; /* rates: true; seconds, latencies: false */
	double alpha;	    /* the test's level; the interval is 1 - alpha */
	double margin_pct;  /* the equivalence margin in percent (5) */
	bool raw;	    /* test raw values even when every sample is > 0
			     * (a sweep's metric with a sample <= 0 at
			     * another point is tested raw throughout) */
};

/* The tables' rule for a metric of that direction. */
struct clyde_decide_rule clyde_decide_rule_default(bool higher_better);

struct clyde_decision {
	enum clyde_verdict verdict;
	bool tested;	/* both sides had two samples or more */
	bool log_scale; /* tested on log(x); false: raw values */
	bool worse;	/* a's centre is on the worse side of b's */
	double p;	/* Welch's two-sided p (1 when not tested) */
	bool known;	/* lo, hi are known */
	double lo, hi;	/* the 1 - alpha interval of a against b in percent
			 * of b (log: 100 (exp(lo) - 1) ..; raw: the
			 * difference over |mean(b)|); 0 .. 0 when not known */
	bool within;	/* known, and lo .. hi inside +-margin_pct */
};

/* Decide a[0..na) against b[0..nb) by rule r; fills *d. */
void clyde_decide(const double *a, size_t na, const double *b, size_t nb,
		  const struct clyde_decide_rule *r, struct clyde_decision *d);

/* Can x[0..n) be tested on log(x): every sample a finite number > 0? */
bool clyde_decide_loggable(const double *x, size_t n);

/* "better", "worse", "equivalent", "cannot tell". */
const char *clyde_verdict_name(enum clyde_verdict v);

/* log(x[i]) for i < n, into stack (ns of room) when it fits, else into
 * memory the caller frees when the result is not stack; NULL without
 * memory.  The log scale the rule decides on. */
double *clyde_decide_logs(const double *x, size_t n, double *stack, size_t ns);

#endif
