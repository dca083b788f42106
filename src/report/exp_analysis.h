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
 * n >= 2), the best point (highest or lowest mean as the metric says,
 * over points that did not fail and have a sample; the first on a tie)
 * and each point's relation to the best by Welch's t-test at alpha 0.05,
 * which is only run when both sides have at least two samples.
 *
 * Everything here borrows the experiment (never kept past the call) and
 * never prints.  Results that own memory say so.
 */
#ifndef CLYDE_REPORT_EXP_ANALYSIS_H
#define CLYDE_REPORT_EXP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ctx.h"
#include "report/experiment.h"

#define CLYDE_EXP_ALPHA 0.05

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

enum clyde_exp_rel {
	CLYDE_EXP_REL_NONE = 0, /* no value: failed point or no sample */
	CLYDE_EXP_REL_BEST,	/* this is the best point */
	CLYDE_EXP_REL_SAME,	/* Welch p >= 0.05 against the best */
	CLYDE_EXP_REL_DIFF,	/* Welch p < 0.05: significantly worse */
	CLYDE_EXP_REL_UNTESTED, /* it or the best has fewer than 2 samples */
};

struct clyde_exp_cellstat {
	size_t n;
	double mean;
	double ci95; /* half-width; 0 and meaningless when n < 2 */
	enum clyde_exp_rel rel;
	double p; /* Welch p against the best (1 when not tested) */
};

struct clyde_exp_mstat {
	size_t best;   /* index of the best point; npoints when none */
	size_t nvalid; /* points with a value */
	struct clyde_exp_cellstat *cells; /* npoints, owned */
};

/* Analyse metric m (m < e->nmetrics) over all points.  0 or -ENOMEM;
 * release with clyde_exp_mstat_release(). */
int clyde_exp_mstat_init(const struct clyde_exp *e, size_t m,
			 struct clyde_exp_mstat *ms);
void clyde_exp_mstat_release(struct clyde_exp_mstat *ms);

/* Is a better than b for metric m (by mean)? */
bool clyde_exp_better(const struct clyde_exp_metric *m, double a, double b);

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
