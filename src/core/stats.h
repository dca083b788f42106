/*
 * Statistics over repeated runs: the mean, the sample standard deviation,
 * the standard error and a Student's t confidence interval of one set of
 * results, and Welch's unequal-variance t-test between two sets.
 *
 * Everything is pure computation on arrays the caller owns (borrowed, never
 * kept), thread safe, with no allocation.  Degenerate input never produces
 * NaN or a crash; each function says what it returns for it:
 *   - n == 0: mean 0, spread 0;
 *   - n == 1: the mean is the value, stddev / stderr / CI half-width are 0
 *     (there is no spread to measure: a caller must show "n/a", not "+-0",
 *     when n < 2);
 *   - all values equal: stddev 0 and CI half-width 0, which is the truth.
 * The t-test's edge cases are listed at clyde_stats_welch().  (A NaN or
 * infinite value in the input is the caller's error and is not filtered.)
 */
#ifndef CLYDE_CORE_STATS_H
#define CLYDE_CORE_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* The arithmetic mean (0 when n == 0). */
double clyde_stats_mean(const double *x, size_t n);

/* The sample standard deviation, divisor n - 1 (0 when n < 2). */
double clyde_stats_stddev(const double *x, size_t n);

/* The standard error of the mean, stddev / sqrt(n) (0 when n < 2). */
double clyde_stats_stderr(const double *x, size_t n);

/*
 * The half-width h of the two-sided confidence interval mean +- h at
 * `level` (0.95 for 95%): t(1 - (1 - level) / 2, n - 1) * stderr.  0 when
 * n < 2 (no interval can be given) or when level is not in (0, 1).
 */
double clyde_stats_ci_halfwidth(const double *x, size_t n, double level);

/* All of the above for one set of results, with the 95% interval. */
struct clyde_stats_summary {
	size_t n;
	double mean;
	double stddev;
	double stderr_mean;
	double ci95; /* half-width: the interval is mean +- ci95 */
	double min;  /* 0 when n == 0 */
	double max;
};

void clyde_stats_summarize(const double *x, size_t n,
			   struct clyde_stats_summary *s);

/*
 * The regularized incomplete beta function I_x(a, b) for a, b > 0 and x in
 * [0, 1], from its continued fraction (evaluated with Lentz's method).
 * Accurate to about 1e-13 relative for moderate a, b; the error grows
 * like 1e-16 * max(a, b).  NaN for arguments outside the domain.
 */
double clyde_stats_betainc(double a, double b, double x);

/* P(T <= t) for Student's t with df > 0 degrees of freedom (df may be
 * fractional or INFINITY, the normal distribution).  Good to about 1e-11
 * relative for every df (above df = 1e5 near the centre it uses the
 * expansion around the normal).  NaN when df <= 0 or an argument is NaN. */
double clyde_stats_t_cdf(double t, double df);

/*
 * The p-quantile of Student's t with df > 0 degrees of freedom (fractional
 * allowed; INFINITY gives the normal quantile): the t with
 * clyde_stats_t_cdf(t, df) == p, found by bisection; good to about 1e-11
 * relative.  p <= 0 gives -INFINITY, p >= 1 INFINITY; NaN when df <= 0 or
 * an argument is NaN.  t(0.975, 1) = 12.706, t(0.975, 10) = 2.228.
 */
double clyde_stats_t_quantile(double p, double df);

/* Welch's t-test of "a and b have the same mean". */
struct clyde_stats_welch {
	double mean_a, mean_b;
	double diff; /* mean_b - mean_a */
	double t;    /* (mean_a - mean_b) / sqrt(var_a/na + var_b/nb) */
	double df;   /* Welch-Satterthwaite degrees of freedom */
	double p;    /* two-sided p-value */
};

/*
 * Run Welch's test on a[0..na) and b[0..nb).  Returns 0, or -EINVAL when
 * na < 2 or nb < 2: a sample variance needs two values, so nothing can be
 * said; w then holds the means, t = 0, df = 0 and p = 1.
 * When both samples have zero variance the difference is known exactly:
 * equal means give t = 0, p = 1; different means give t = +-INFINITY and
 * p = 0.  In both cases df = na + nb - 2.  If only one variance is zero the
 * ordinary formulas apply (df reduces to n - 1 of the other sample).
 * Nothing is ever NaN, but t may be infinite: a writer must check isfinite().
 */
int clyde_stats_welch(const double *a, size_t na, const double *b, size_t nb,
		      struct clyde_stats_welch *w);

/*
 * True when Welch's test rejects equal means at significance level alpha
 * (p < alpha, e.g. alpha = 0.05).  False when either sample has fewer than
 * two values; true for two different constant samples, false for two equal
 * ones.
 */
bool clyde_stats_significant(const double *a, size_t na, const double *b,
			     size_t nb, double alpha);

/*
 * The --until-stable rule of clyde run and clyde sweep alike: n samples
 * whose mean is `mean` and whose 95% confidence interval half-width is
 * `hw` are settled for a target of pct% when there are at least
 * CLYDE_STATS_SETTLE_MIN_N of them and hw <= pct% of |mean|.  Fewer are
 * never settled: with two, Student's t for one degree of freedom is 12.7
 * and the interval says little.
 */
#define CLYDE_STATS_SETTLE_MIN_N 3
bool clyde_stats_settled(size_t n, double mean, double hw, double pct);

/*
 * The two-sided `level` confidence interval [*lo, *hi] of mean(b) -
 * mean(a), from Welch's t (the same standard error and degrees of freedom
 * as clyde_stats_welch()).  Returns 0, or -EINVAL when na < 2 or nb < 2 or
 * level is not in (0, 1): then the interval is (-INFINITY, INFINITY),
 * nothing is known.  Two constant samples give the exact difference.
 */
int clyde_stats_diff_ci(const double *a, size_t na, const double *b, size_t nb,
			double level, double *lo, double *hi);

/*
 * A confidence interval that stays positive, for rates and times: the
 * Student t interval of the mean of log(x), mapped back with exp() (an
 * interval for the geometric mean, asymmetric around it).  Returns 0, or
 * -EINVAL when n < 2, a value is not > 0 or level is not in (0, 1)
 * (then *lo = *hi = 0).
 */
int clyde_stats_log_ci(const double *x, size_t n, double level, double *lo,
		       double *hi);

/*
 * A power estimate: the smallest number of repeats per side (n >= 2) with
 * which a two-sample t-test at significance alpha detects a relative
 * difference `effect` (0.10 for 10%) with probability `power` (0.80),
 * when the coefficient of variation (stddev / mean) of one sample is cv:
 * the n with (t(1 - alpha/2, 2n - 2) + t(power, 2n - 2)) * cv * sqrt(2/n)
 * <= effect.  cap + 1 when no n up to cap is enough (or cv is not a
 * number >= 0 or effect is not > 0).
 */
size_t clyde_stats_repeats_for(double cv, double effect, double alpha,
			       double power, size_t cap);

/*
 * Pocock's boundary for repeated significance tests: the constant c such
 * that a normal statistic looked at k times, with the information at look
 * i being info[i] (increasing, > 0; the samples so far), crosses |Z| >= c
 * at some look with probability alpha when there is no difference.  A
 * test made at every look at the nominal level 2 (1 - Phi(c)) then has an
 * overall false-positive rate of alpha (Pocock 1977; Jennison and
 * Turnbull, Group Sequential Methods, 2000, ch. 2: for k equally spaced
 * looks at alpha 0.05, c is 1.960, 2.178, 2.289, 2.361, 2.413 for k = 1 ..
 * 5).  Computed by numerical integration of the random walk between the
 * looks (Armitage, McPherson and Rowe 1969) on a grid, to about 1e-4.
 * NAN when k is 0, alpha is not in (0, 1) or info does not increase.
 */
double clyde_stats_pocock(const double *info, size_t k, double alpha);

/* The nominal two-sided level of that boundary: 2 (1 - Phi(c)). */
double clyde_stats_pocock_level(const double *info, size_t k, double alpha);

#endif
