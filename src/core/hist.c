#include "core/hist.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void clyde_hist_init(struct clyde_hist *h)
{
	memset(h, 0, sizeof(*h));
	/* So that the first value recorded or merged becomes the min
	 * without a special case. */
	h->min = UINT64_MAX;
}

void clyde_hist_reset(struct clyde_hist *h)
{
	clyde_hist_init(h);
}

/*
 * v | SUB_COUNT puts values below SUB_COUNT into the group of exponent
 * SUB_BITS, where the shift is 0 and the index comes out as v itself; so
 * one formula covers the exact range and the log-linear groups, without a
 * branch.  For v in [2^e, 2^(e+1)), e >= SUB_BITS, the bucket is the
 * top SUB_BITS+1 bits of v (SUB_COUNT + sub) placed after the (e - SUB_BITS)
 * groups before it: index = (e - SUB_BITS + 1) * SUB_COUNT + sub.
 */
unsigned clyde_hist_bucket_index(uint64_t v)
{
	unsigned e, shift;

	if (v >= CLYDE_HIST_LIMIT)
		return CLYDE_HIST_BUCKETS - 1;
	e = 63u - (unsigned)__builtin_clzll(v | CLYDE_HIST_SUB_COUNT);
	shift = e - CLYDE_HIST_SUB_BITS;
	return ((shift + 1) << CLYDE_HIST_SUB_BITS) + (unsigned)(v >> shift) -
	       CLYDE_HIST_SUB_COUNT;
}

/* The inverse of clyde_hist_bucket_index(): lower bound and width. */
static uint64_t bucket_lo(unsigned i, uint64_t *width)
{
	unsigned shift;

	if (i < CLYDE_HIST_SUB_COUNT) {
		*width = 1;
		return i;
	}
	shift = (i >> CLYDE_HIST_SUB_BITS) - 1;
	*width = (uint64_t)1 << shift;
	return ((uint64_t)CLYDE_HIST_SUB_COUNT +
		(i & (CLYDE_HIST_SUB_COUNT - 1)))
	       << shift;
}

void clyde_hist_bucket_bounds(unsigned index, uint64_t *lo, uint64_t *hi)
{
	uint64_t width;

	*lo = bucket_lo(index, &width);
	*hi = *lo + width - 1;
}

/* 64 x 64 -> 128-bit product as hi:lo, from 32-bit halves, so that the sum
 * stays exact without relying on a non-standard 128-bit type. */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32;
	uint64_t b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;

	*lo = (mid << 32) | (uint32_t)p00;
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static void add_sum(struct clyde_hist *h, uint64_t hi, uint64_t lo)
{
	h->sum_lo += lo;
	h->sum_hi += hi + (h->sum_lo < lo);
}

void clyde_hist_record_n(struct clyde_hist *h, uint64_t v, uint64_t n)
{
	uint64_t hi, lo;

	if (!n)
		return;
	h->counts[clyde_hist_bucket_index(v)] += n;
	h->count += n;
	if (v >= CLYDE_HIST_LIMIT)
		h->clamped += n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	mul_64x64(v, n, &hi, &lo);
	add_sum(h, hi, lo);
}

/* One value: what clyde_hist_record_n(h, v, 1) does, without the 64x64
 * multiplication (the sum grows by v).  The per-char tests record one
 * call in 16 twice (histogram and series): callgrind counted 58
 * instructions per call through clyde_hist_record_n. */
void clyde_hist_record(struct clyde_hist *h, uint64_t v)
{
	h->counts[clyde_hist_bucket_index(v)]++;
	h->count++;
	if (v >= CLYDE_HIST_LIMIT)
		h->clamped++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	add_sum(h, 0, v);
}

void clyde_hist_merge(struct clyde_hist *dst, const struct clyde_hist *src)
{
	/* Read src's scalars first: dst may be src. */
	uint64_t count = src->count, min = src->min, max = src->max;
	uint64_t sum_hi = src->sum_hi, sum_lo = src->sum_lo;
	uint64_t clamped = src->clamped;

	if (!count)
		return;
	for (unsigned i = 0; i < CLYDE_HIST_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	dst->count += count;
	dst->clamped += clamped;
	if (min < dst->min)
		dst->min = min;
	if (max > dst->max)
		dst->max = max;
	add_sum(dst, sum_hi, sum_lo);
}

uint64_t clyde_hist_count(const struct clyde_hist *h)
{
	return h->count;
}

uint64_t clyde_hist_min(const struct clyde_hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t clyde_hist_max(const struct clyde_hist *h)
{
	return h->max;
}

double clyde_hist_mean(const struct clyde_hist *h)
{
	long double sum;

	if (!h->count)
		return 0.0;
	sum = ldexpl((long double)h->sum_hi, 64) + (long double)h->sum_lo;
	return (double)(sum / (long double)h->count);
}

int clyde_hist_sum(const struct clyde_hist *h, uint64_t *sum)
{
	if (h->sum_hi) {
		*sum = UINT64_MAX;
		return -EOVERFLOW;
	}
	*sum = h->sum_lo;
	return 0;
}

uint64_t clyde_hist_quantile(const struct clyde_hist *h, double q)
{
	uint64_t rank, seen = 0, lo, width, v;
	double r;
	unsigned i;

	if (!h->count)
		return 0;
	if (!(q > 0.0)) /* also NaN */
		return h->min;
	if (q >= 1.0)
		return h->max;
	r = ceil(q * (double)h->count);
	/* count may be beyond double's exact range: keep rank in [1, count]. */
	if (r < 1.0)
		rank = 1;
	else if (r >= (double)h->count)
		rank = h->count;
	else
		rank = (uint64_t)r;
	for (i = 0; i < CLYDE_HIST_BUCKETS - 1; i++) {
		if (h->counts[i] >= rank - seen)
			break;
		seen += h->counts[i];
	}
	/* In the top bucket the in-range values sort before the clamped
	 * ones; a rank among the clamped values has no bucket bound. */
	if (i == CLYDE_HIST_BUCKETS - 1 &&
	    rank - seen > h->counts[i] - h->clamped)
		return h->max;
	lo = bucket_lo(i, &width);
	v = lo + width / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

void clyde_hist_iter_init(struct clyde_hist_iter *it,
			  const struct clyde_hist *h)
{
	it->h = h;
	it->next = 0;
}

int clyde_hist_iter_next(struct clyde_hist_iter *it,
			 struct clyde_hist_bucket *b)
{
	const struct clyde_hist *h = it->h;

	while (it->next < CLYDE_HIST_BUCKETS && !h->counts[it->next])
		it->next++;
	if (it->next >= CLYDE_HIST_BUCKETS)
		return 0;
	clyde_hist_bucket_bounds(it->next, &b->lo, &b->hi);
	b->count = h->counts[it->next];
	if (it->next == CLYDE_HIST_BUCKETS - 1 && h->clamped)
		b->hi = h->max;
	it->next++;
	return 1;
}
