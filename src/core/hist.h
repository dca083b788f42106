/*
 * A mergeable log-linear latency histogram of uint64 nanosecond values.
 *
 * Layout (docs/latency-histogram.md explains it at length): values below
 * 2 * CLYDE_HIST_SUB_COUNT (128) have a bucket each and are exact.  Above
 * that, every power-of-two range [2^e, 2^(e+1)) is cut into
 * CLYDE_HIST_SUB_COUNT (64) buckets of equal width 2^(e-6), so a bucket is
 * never wider than 1/64 (1.56%) of its lower bound.  Values from
 * CLYDE_HIST_LIMIT (2^44 ns, about 4.9 hours) up are clamped into the top
 * bucket and counted in `clamped` as well.
 *
 * The struct is plain data with a fixed array (about 20 KiB): no
 * allocation, no release, constant memory whatever is recorded.  Recording
 * is O(1) (one count-leading-zeros and a few shifts).  min, max, count and
 * the sum are exact, so the mean is exact up to the final division.
 *
 * Threads: a histogram is not synchronised.  Give each thread its own,
 * record into it without locks, and after the threads are joined merge them
 * into one with clyde_hist_merge(); merging is exact (counts add), so the
 * result equals the histogram of all values recorded by one thread.
 */
#ifndef CLYDE_CORE_HIST_H
#define CLYDE_CORE_HIST_H

#include <stdint.h>

#define CLYDE_HIST_SUB_BITS 6
#define CLYDE_HIST_SUB_COUNT (1u << CLYDE_HIST_SUB_BITS)
/* Values below 2^CLYDE_HIST_LIMIT_BITS are bucketed with the error bound. */
#define CLYDE_HIST_LIMIT_BITS 44
#define CLYDE_HIST_LIMIT ((uint64_t)1 << CLYDE_HIST_LIMIT_BITS)
/* Values below this have a bucket of width 1: they are recorded exactly. */
#define CLYDE_HIST_EXACT_LIMIT ((uint64_t)2 * CLYDE_HIST_SUB_COUNT)
/* 128 exact buckets, then 64 per power of two from 2^7 to 2^43. */
#define CLYDE_HIST_BUCKETS                                   \
	((CLYDE_HIST_LIMIT_BITS - CLYDE_HIST_SUB_BITS + 1) * \
	 CLYDE_HIST_SUB_COUNT)

struct clyde_hist {
	uint64_t count;
	uint64_t min; /* UINT64_MAX while empty; read it with clyde_hist_min() */
	uint64_t max;
	/* The exact sum of all values as a 128-bit number hi:lo. */
	uint64_t sum_lo;
	uint64_t sum_hi;
	/* How many values were >= CLYDE_HIST_LIMIT (also counted in the top
	 * bucket). */
	uint64_t clamped;
	uint64_t counts[CLYDE_HIST_BUCKETS];
};

/* One non-empty bucket: `count` values, each in [lo, hi] (inclusive). */
struct clyde_hist_bucket {
	uint64_t lo;
	uint64_t hi;
	uint64_t count;
};

/* Walks the non-empty buckets of a histogram from the lowest up. */
struct clyde_hist_iter {
	const struct clyde_hist *h; /* borrowed */
	unsigned next;
};

/* Make h empty.  clyde_hist_reset() is the same; there is nothing to free. */
void clyde_hist_init(struct clyde_hist *h);
void clyde_hist_reset(struct clyde_hist *h);

/* Record one value / n equal values (n == 0 records nothing). */
void clyde_hist_record(struct clyde_hist *h, uint64_t v);
void clyde_hist_record_n(struct clyde_hist *h, uint64_t v, uint64_t n);

/*
 * Add everything src holds into dst.  Exact: afterwards dst is, bucket for
 * bucket and in min/max/count/sum, the histogram of both data sets.  src is
 * not changed; dst == src doubles every count.
 */
void clyde_hist_merge(struct clyde_hist *dst, const struct clyde_hist *src);

uint64_t clyde_hist_count(const struct clyde_hist *h);
/* Exact smallest / largest value recorded; 0 when the histogram is empty. */
uint64_t clyde_hist_min(const struct clyde_hist *h);
uint64_t clyde_hist_max(const struct clyde_hist *h);
/* Exact sum / count (rounded once to double); 0 when empty. */
double clyde_hist_mean(const struct clyde_hist *h);
/* The exact sum in *sum, or -EOVERFLOW (and *sum = UINT64_MAX) when it does
 * not fit in 64 bits. */
int clyde_hist_sum(const struct clyde_hist *h, uint64_t *sum);

/*
 * The q-quantile by the nearest-rank rule: the value of rank
 * r = ceil(q * count) (r at least 1) in the sorted data.  q = 0 gives the
 * exact min, q = 1 the exact max.  Otherwise the result is the midpoint
 * lo + width/2 of the bucket holding the rank-r value, pulled into
 * [min, max]; it lies in that bucket, and for a true value v it is off by
 * at most width/2, i.e. |result - v| / v <= 1/128 (0.78%); values below
 * CLYDE_HIST_EXACT_LIMIT come back exact.  When rank r falls on a clamped
 * value (>= CLYDE_HIST_LIMIT) the result is the max: no bound holds there.
 * q is clamped to [0, 1] (NaN counts as 0).  An empty histogram gives 0.
 */
uint64_t clyde_hist_quantile(const struct clyde_hist *h, double q);

/* The bounds [*lo, *hi] (inclusive) of bucket `index` < CLYDE_HIST_BUCKETS.
 * The top bucket's hi is CLYDE_HIST_LIMIT - 1: clamped values lie above. */
void clyde_hist_bucket_bounds(unsigned index, uint64_t *lo, uint64_t *hi);
/* The index of the bucket v is counted in. */
unsigned clyde_hist_bucket_index(uint64_t v);

/*
 * Iterate: clyde_hist_iter_init(&it, h); while (clyde_hist_iter_next(&it,
 * &b)) ...  Each call fills b with the next non-empty bucket and returns 1,
 * or returns 0 at the end.  The counts add up to clyde_hist_count(h); every
 * value counted in b lies in [b.lo, b.hi], so when values were clamped the
 * top bucket reports hi = max.  h must not change during the walk.
 */
void clyde_hist_iter_init(struct clyde_hist_iter *it,
			  const struct clyde_hist *h);
int clyde_hist_iter_next(struct clyde_hist_iter *it,
			 struct clyde_hist_bucket *b);

#endif
