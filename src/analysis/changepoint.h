/*
 * Change points in a series of results: where the level of one figure
 * (a run's put_block rate, its seq_create rate, ...) shifts from one run
 * to the next and stays there, as the performance CI systems find them
 * (MongoDB's E-Divisive, Hunter, Apache Otava), so that `clyde history
 * changes` can say when a machine's results changed.
 *
 * The method: binary segmentation with a permutation-tested rank CUSUM.
 *   1. In a segment of L values, replace each value by its rank (ties
 *      get their mean rank), so one wild run moves the statistic no more
 *      than any other run above the rest: the test is distribution-free
 *      and robust to outliers, as E-Divisive with medians is.
 *   2. For every split t with at least min_segment values on each side,
 *      the standardised rank sum of the first t values (the Mann-Whitney
 *      z: (S_t - t(L+1)/2) / sqrt(t(L-t)(L+1)/12)); the statistic is the
 *      largest |z|.
 *   3. Its p-value: the same statistic over `permutations` random
 *      orders of the segment (Fisher-Yates, from core/rng.h seeded with
 *      `seed`, so the answer is the same every time), p = (1 + the
 *      orders whose statistic reaches the observed one) / (1 +
 *      permutations).  The segment has a change when p < alpha.  It is
 *      placed at the split with the largest sqrt(t(L-t)/L) |mean before -
 *      mean after| of the values clipped to the segment's median +- 3
 *      robust deviations (1.4826 MAD): ranks test well but blur where
 *      a step is; the clipped values keep the step and ignore a wild run.
 *   4. A change splits the segment in two and each half is examined the
 *      same way, until no half has a significant split (or is shorter
 *      than 2 * min_segment).
 * A half's test is made only after its parent's found a change, so on
 * a series without any change the chance of a false alarm is that of the
 * first test: alpha.  Defaults: min_segment 5, alpha 0.001, 4999
 * permutations (the smallest p they can give is 0.0002).
 *
 * Pure computation: the input is borrowed and never kept; nothing prints.
 */
#ifndef CLYDE_ANALYSIS_CHANGEPOINT_H
#define CLYDE_ANALYSIS_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

struct clyde_cp_opts {
	size_t min_segment;    /* values on each side of a change, >= 2 */
	double alpha;	       /* significance level, in (0, 0.5] */
	unsigned permutations; /* >= 19 */
	uint64_t seed;	       /* of the permutations' generator */
};

#define CLYDE_CP_MIN_SEGMENT 5
#define CLYDE_CP_ALPHA 0.001
#define CLYDE_CP_PERMUTATIONS 4999
#define CLYDE_CP_SEED 0x636c796465ull /* "clyde" */

/* The defaults above. */
void clyde_cp_opts_default(struct clyde_cp_opts *o);

/* One change: the series is at one level in x[from, at) and at another
 * in x[at, to) (the neighbouring changes, or the ends). */
struct clyde_cp_change {
	size_t at;     /* the first value after the change */
	size_t from;   /* the segment before starts here */
	size_t to;     /* the segment after ends here (exclusive) */
	double before; /* median of x[from, at) */
	double after;  /* median of x[at, to) */
	double p;      /* the permutation p-value of the split */
};

/*
 * Find the change points of x[0..n).  On success *out is a malloc'd
 * array of *nout changes ordered by `at` (NULL when there are none; the
 * caller frees it).  Returns 0, -EINVAL for options out of range, or
 * -ENOMEM.  A series shorter than 2 * min_segment has no change.
 */
int clyde_cp_find(const double *x, size_t n, const struct clyde_cp_opts *o,
		  struct clyde_cp_change **out, size_t *nout);

/* The median of x[0..n) (0 when n is 0; NAN when a copy of more than
 * 256 values finds no memory); x is not changed. */
double clyde_cp_median(const double *x, size_t n);

#endif
