/*
 * What an experiment's numbers say: the analysis the experiment table
 * (exp_table.h), the plain sentences and the experiment report
 * (exp_html.h) share, so that all three agree.
 *
 * Axis values.  A value that parses as a size ("64k", "1m", "2G": digits
 * and one of k m g t, powers of 1024) or as a plain number ("4096",
 * "0.5") is numeric; an axis whose every value is numeric is ordered by
 * value, any other axis keeps the order of first appearance in the file.
 *
 * Per metric and point: the mean, the 95% Student t half-width (only when
 * n >= 2), a 95% interval that stays positive (the t interval of log x,
 * mapped back: what charts draw as a band), the best point (highest or
 * lowest mean as the metric says, over points that did not fail and have
 * a sample, imprecise ones included; the first on a tie) and each point's
 * relation to the best by the one rule of analysis/decide.h (the rule of
 * compare and run -x too): Welch's t-test at alpha 0.05, which is only run
 * when both sides have at least two samples.  A point not significantly
 * different is "equivalent" when the 95% interval of its difference to
 * the best lies inside +-CLYDE_EXP_MARGIN of the best's mean (an
 * equivalence test); only then does a sentence say "does not change".
 *
 * The scale (clyde_exp_compare()).  Benchmark noise is multiplicative:
 * the spread of a point grows with its mean.  So the tests are made on
 * log(x): Welch's test of the means of log(x), and the interval of the
 * difference of those means mapped back to a ratio, exp(lo) - 1 ..
 * exp(hi) - 1 (in percent of the best); the margin +-5% is then the
 * bounds log(0.95) .. log(1.05), and the power estimate uses the standard
 * deviation of log(x) and a difference of log(1.10).  A metric any of
 * whose samples (at a point that did not fail) is not > 0 cannot be
 * logged: the whole metric is then tested on raw values as before (the
 * difference of the means in percent of the best's mean), and says so
 * (clyde_exp_mstat.log_scale false).  A point whose log-scale mean is
 * better than the best's (the best is chosen by the plain mean) is never
 * "worse": it is at most not different.
 * The best is "clear" (its mark a star) only when it has two samples or
 * more and differs significantly from the runner-up.  An amount metric
 * (experiment.h) has no best and no relations: each point's ratio to the
 * least.
 *
 * Everything here borrows the experiment (never kept past the call) and
 * never prints.  Results that own memory say so.
 */
#ifndef CLYDE_ANALYSIS_EXP_ANALYSIS_H
#define CLYDE_ANALYSIS_EXP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/decide.h"
#include "core/ctx.h"
#include "analysis/experiment.h"

#define CLYDE_EXP_ALPHA 0.05
/* The equivalence margin: "does not change" needs the 95% interval of the
 * difference to the best inside +-5% of the best's mean. */
#define CLYDE_EXP_MARGIN 0.05
/* The difference the power estimate of "cannot tell" is about (10%). */
#define CLYDE_EXP_EFFECT 0.10

/* ---- axes -------------------------------------------------------------- */

/* The distinct values of one axis, in display order. */
struct clyde_exp_axis {
	size_t n;
	const char **values; /* borrowed from the experiment's points */
	double *num;	     /* n numbers when `numeric` */
	bool numeric;	     /* every value is a size or a number */
	bool sized;	     /* numeric, and some value has a size suffix */
	bool log_scale;	     /* chart it on a log scale: sizes, or positive
			      * values spanning a factor of 10 or more */
};

/* Parse an axis value: a size with k/m/g/t (1024-based, either case) or a
 * decimal number.  Returns true and *out, or false when it is neither;
 * *sized tells which (may be NULL). */
bool clyde_exp_value_number(const char *s, double *out, bool *sized);

/* Fill ax with axis `a` of e (a < e->naxes).  Owns two arrays:
 * release with clyde_exp_axis_release().  0 or -ENOMEM. */
int clyde_exp_axis_init(const struct clyde_exp *e, size_t a,
			struct clyde_exp_axis *ax);
void clyde_exp_axis_release(struct clyde_exp_axis *ax);

/* The position of value v in ax, or ax->n when it is not there. */
size_t clyde_exp_axis_index(const struct clyde_exp_axis *ax, const char *v);

/* ---- one metric over the points --------------------------------------- */

/* Can metric m be tested on log(x): every sample of every point that did
 * not fail is a finite number > 0? */
bool clyde_exp_metric_log(const struct clyde_exp *e, size_t m);

/* Decide point p against point b for metric m (p != b) by the one rule
 * (analysis/decide.h) at level alpha (CLYDE_EXP_ALPHA in the table; the
 * look's level in until-decided) and margin margin_pct, on the scale
 * clyde_exp_metric_log() gives for the whole metric.  Fills *d; never
 * fails. */
void clyde_exp_compare(const struct clyde_exp *e, size_t m, size_t b, size_t p,
		       double alpha, double margin_pct,
		       struct clyde_decision *d);

enum clyde_exp_rel {
	CLYDE_EXP_REL_NONE = 0, /* no value: failed point or no sample */
	CLYDE_EXP_REL_BEST,	/* this is the best point */
	CLYDE_EXP_REL_SAME,	/* Welch p >= 0.05 against the best, but the
				 * difference may still be large */
	CLYDE_EXP_REL_DIFF,	/* Welch p < 0.05: significantly worse */
	CLYDE_EXP_REL_UNTESTED, /* it or the best has fewer than 2 samples,
				 * or the metric is an amount */
	CLYDE_EXP_REL_EQUIV,	/* not different, and the 95% interval of the
				 * difference inside +-CLYDE_EXP_MARGIN */
};

struct clyde_exp_cellstat {
	size_t n;
	double mean;
	double ci95;   /* half-width; 0 and meaningless when n < 2 */
	double lo, hi; /* the positive (log-scale) 95% interval; both 0 when
			* n < 2 or a sample is not > 0 */
	enum clyde_exp_rel rel;
	double p;	   /* Welch p against the best (1 when not tested) */
	double ratio;	   /* amount metrics: mean / the least mean (0: none) */
	size_t nimprecise; /* samples of tests that ran under 0.5 s */
	size_t ninflated;  /* samples inflated by a mount or export setting */
	size_t ndegraded;  /* samples measured while an md array lost
			    * members */
	bool disagree;	   /* the repeats of this point, made alike, are
			    * 2x apart or more (largest / smallest) */
};

struct clyde_exp_mstat {
	size_t best;	/* index of the best point; npoints when none (and
			* always for an amount metric) */
	size_t runner;	/* the runner-up; npoints when none */
	bool clear;	/* the best has n >= 2 and differs significantly from
			* the runner-up: it earns a star */
	bool log_scale; /* tested on log(x) (clyde_exp_metric_log()) */
	size_t least;	/* amount metrics: the point with the least mean */
	size_t nvalid;	/* points with a value */
	size_t npoints;
	struct clyde_exp_cellstat *cells; /* npoints, owned */
};

/* Analyse metric m (m < e->nmetrics) over all points.  0 or -ENOMEM;
 * release with clyde_exp_mstat_release(). */
int clyde_exp_mstat_init(const struct clyde_exp *e, size_t m,
			 struct clyde_exp_mstat *ms);
void clyde_exp_mstat_release(struct clyde_exp_mstat *ms);

/* Is a better than b for metric m (by mean)?  Never for an amount. */
bool clyde_exp_better(const struct clyde_exp_metric *m, double a, double b);

/*
 * The mark of point p in ms (a table cell's or chart's): "★" the clear
 * best; "~" not significantly different from the best; "=" equivalent to
 * the best (within the margin); "*" significantly worse; "" untested, a
 * single sample or an amount.  A best that is not clear is marked as the
 * runner-up's relation (a tie is marked alike: "~" or "=").
 */
const char *clyde_exp_mark(const struct clyde_exp_mstat *ms, size_t p);

/*
 * "Cannot tell" for points idx[0..k) of metric m: the widest 95%
 * interval of one of them in percent of its mean (*wide_pct), the fewest
 * samples (*nmin), and the repeats per point that would detect a
 * CLYDE_EXP_EFFECT difference with 80% power at alpha 0.05 given the
 * largest spread among them (*need; 1001 for more than 1000).  On the
 * log scale the interval is the log one mapped back (*wide_pct is its
 * upper side, 100 (exp(h) - 1), the larger; *low_pct, when not NULL,
 * the same interval's lower side, 100 (exp(-h) - 1); -*wide_pct on raw
 * values) and the spread the standard
 * deviation of log(x) against a difference of log(1 + EFFECT); on raw
 * values the t half-width and the coefficient of variation against
 * EFFECT.  Points with fewer than two samples are left out; false when
 * none is left.
 */
bool clyde_exp_power(const struct clyde_exp *e, size_t m, const size_t *idx,
		     size_t k, double *wide_pct, double *low_pct, size_t *nmin,
		     size_t *need);

/* ---- selection --------------------------------------------------------- */

/*
 * Keep only the metrics named in `keys` ("run.put_block,time.tar": keys
 * separated by commas, blanks around them ignored), in that order,
 * dropping the others and their cells from e.  An unknown or repeated key
 * is -EINVAL with a message in ctx naming it; e is then unchanged.  NULL
 * or "" keeps everything.  0, -EINVAL or -ENOMEM.
 */
int clyde_exp_select(struct clyde_ctx *ctx, struct clyde_exp *e,
		     const char *keys);

/*
 * The columns of a sweep's table (and the metrics until-decided decides
 * on): `metrics` as clyde_exp_select() takes it, "all" for every metric,
 * or NULL for the default ones: every metric but a timed command's CPU
 * seconds and device bytes (amounts, not rates).  0 or a negative errno.
 */
int clyde_exp_select_columns(struct clyde_ctx *ctx, struct clyde_exp *e,
			     const char *metrics);

/* ---- units and numbers ------------------------------------------------ */

/* The human unit of a column: show value / div followed by name. */
struct clyde_exp_unit {
	const char *name; /* "MiB/s", "files/s", "s", "ms", ... (static) */
	double div;
	int dec; /* decimals for the column: 3 significant figures of its
		  * largest value, at least (0 from 1000 up) */
};

/* The unit for metric m whose largest absolute mean is maxabs: B/s as
 * KiB/s, MiB/s or GiB/s, seconds as s or ms, nanoseconds as ns, us, ms or
 * s; ops/s as files/s, seeks/s or ops/s by the key; anything else as is. */
void clyde_exp_unit_choose(const struct clyde_exp_metric *m, double maxabs,
			   struct clyde_exp_unit *u);

/* The unit for metric m over the means of ms. */
void clyde_exp_unit_for(const struct clyde_exp_metric *m,
			const struct clyde_exp_mstat *ms, size_t npoints,
			struct clyde_exp_unit *u);

/* Write v (already in the unit) with u's decimals. */
void clyde_exp_num(char *buf, size_t len, double v,
		   const struct clyde_exp_unit *u);

/* ---- the plain sentences ----------------------------------------------- */

/*
 * The sentences the data supports, for every metric (rules in
 * docs/sweep-report.md): on return *out holds *n heap strings, owned by
 * the caller (free each, then the array; clyde_exp_sentences_free()).
 * A metric the data says nothing clear about gets no sentence.
 * 0 or -ENOMEM (then *out is NULL and *n 0).
 */
int clyde_exp_sentences(const struct clyde_exp *e, char ***out, size_t *n);
void clyde_exp_sentences_free(char **s, size_t n);

#endif
