/*
 * Change points by binary segmentation with a permutation-tested rank
 * CUSUM (see changepoint.h for the method and why).
 */
#include "analysis/changepoint.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

void clyde_cp_opts_default(struct clyde_cp_opts *o)
{
	o->min_segment = CLYDE_CP_MIN_SEGMENT;
	o->alpha = CLYDE_CP_ALPHA;
	o->permutations = CLYDE_CP_PERMUTATIONS;
	o->seed = CLYDE_CP_SEED;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double clyde_cp_median(const double *x, size_t n)
{
	double small[256], *s = small, m;

	if (!n)
		return 0;
	if (n > sizeof(small) / sizeof(small[0]) &&
	    !(s = malloc(n * sizeof(*s))))
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (s != small)
		free(s);
	return m;
}

/* A value and where it was, for ranking. */
struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}

/* rank[i] := the rank (1..n) of x[i], ties their mean rank.  tmp holds n
 * entries. */
static void ranks(const double *x, size_t n, struct ranked *tmp, double *rank)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		tmp[i] = (struct ranked){ x[i], i };
	qsort(tmp, n, sizeof(*tmp), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double r;

		for (j = i + 1; j < n && tmp[j].v == tmp[i].v; j++)
			;
		r = (double)(i + 1 + j) / 2; /* mean of ranks i+1 .. j */
		for (size_t k = i; k < j; k++)
			rank[tmp[k].i] = r;
	}
}

/* The largest standardised rank sum |z| over the splits t in [m, n - m],
 * and the first t where it is. */
static double max_z(const double *rank, size_t n, size_t m, size_t *at)
{
	double s = 0, best = -1, mid = (double)(n + 1) / 2;
	size_t t;

	for (t = 0; t < m - 1; t++)
		s += rank[t];
	for (t = m; t + m <= n; t++) {
		double dt = (double)t, var, z;

		s += rank[t - 1];
		var = dt * (double)(n - t) * (double)(n + 1) / 12;
		z = fabs(s - dt * mid) / sqrt(var);
		if (z > best + 1e-12) {
			best = z;
			if (at)
				*at = t;
		}
	}
	return best;
}

/* Where the change is, once the test found one: the split t in
 * [m, n - m] with the largest sqrt(t(n-t)/n) |mean before - mean after|
 * (the CUSUM's place) of the values clipped to the segment's median +-
 * 3 robust deviations (1.4826 MAD), so one wild run does not pull it.
 * The rank sum tests well but places a change poorly: the gap between
 * two levels is one rank, so a split a run or two early, which moves the
 * lowest ranks of the higher level across, scores as well as the true
 * one; the values keep the gap.  w holds n values. */
static size_t locate(const double *x, size_t n, size_t m, double *w)
{
	double med = clyde_cp_median(x, n), mad, lo, hi, total = 0, s = 0;
	double best = -1;
	size_t at = m, t;

	for (t = 0; t < n; t++)
		w[t] = fabs(x[t] - med);
	mad = 1.4826 * clyde_cp_median(w, n);
	lo = med - 3 * mad;
	hi = med + 3 * mad;
	for (t = 0; t < n; t++) {
		w[t] = mad > 0 ? fmin(fmax(x[t], lo), hi) : x[t];
		total += w[t];
	}
	for (t = 0; t + 1 < m; t++)
		s += w[t];
	for (t = m; t + m <= n; t++) {
		double nt = (double)t, rest = (double)(n - t), d;

		s += w[t - 1];
		d = fabs(s / nt - (total - s) / rest) *
		    sqrt(nt * rest / (double)n);
		if (d > best * (1 + 1e-12)) {
			best = d;
			at = t;
		}
	}
	return at;
}

/* The segment's best split and its permutation p-value.  rank and perm
 * hold n values; tmp n entries. */
static double split_p(const double *x, size_t n, const struct clyde_cp_opts *o,
		      struct ranked *tmp, double *rank, double *perm,
		      size_t *at)
{
	struct clyde_rng rng;
	double obs, tol;
	unsigned k, hits = 0;
	/* Once this many orders reach the statistic, p >= alpha whatever
	 * the rest do: stop early (a series without change costs little). */
	double stop = o->alpha * (o->permutations + 1.0);

	ranks(x, n, tmp, rank);
	obs = max_z(rank, n, o->min_segment, at);
	if (obs <= 0)
		return 1; /* all values equal: nothing can change */
	tol = 1e-9 * obs;
	/* Every segment gets its own generator from the seed and its
	 * length, so a split's p depends on the segment's values alone,
	 * not on the order the segments are examined in. */
	clyde_rng_seed(&rng, clyde_rng_mix(o->seed ^ clyde_rng_mix(n)));
	memcpy(perm, rank, n * sizeof(*perm));
	for (k = 0; k < o->permutations; k++) {
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)clyde_rng_below(&rng, i + 1);
			double t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		if (max_z(perm, n, o->min_segment, NULL) >= obs - tol &&
		    ++hits >= stop)
			return (hits + 1.0) / (o->permutations + 1.0);
	}
	return (hits + 1.0) / (o->permutations + 1.0);
}

static int cmp_change(const void *a, const void *b)
{
	const struct clyde_cp_change *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

int clyde_cp_find(const double *x, size_t n, const struct clyde_cp_opts *o,
		  struct clyde_cp_change **out, size_t *nout)
{
	struct ranked *tmp = NULL;
	double *rank = NULL, *perm = NULL;
	struct clyde_cp_change *ch = NULL;
	size_t *stack = NULL, nst = 0, nch = 0, m;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (!o || o->min_segment < 2 || !(o->alpha > 0 && o->alpha <= 0.5) ||
	    o->permutations < 19)
		return -EINVAL;
	m = o->min_segment;
	if (n < 2 * m)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	rank = malloc(n * sizeof(*rank));
	perm = malloc(n * sizeof(*perm));
	/* At most n / m segments, each pushed once: two slots each. */
	stack = malloc(2 * (n / m + 1) * sizeof(*stack));
	ch = calloc(n / m + 1, sizeof(*ch));
	if (!tmp || !rank || !perm || !stack || !ch) {
		rc = -ENOMEM;
		goto out;
	}
	stack[nst++] = 0;
	stack[nst++] = n;
	while (nst) {
		size_t b = stack[--nst], a = stack[--nst], t = 0;
		double p;

		if (b - a < 2 * m)
			continue;
		p = split_p(x + a, b - a, o, tmp, rank, perm, &t);
		if (!(p < o->alpha))
			continue;
		t = locate(x + a, b - a, m, perm);
		ch[nch++] = (struct clyde_cp_change){ .at = a + t, .p = p };
		stack[nst++] = a;
		stack[nst++] = a + t;
		stack[nst++] = a + t;
		stack[nst++] = b;
	}
	qsort(ch, nch, sizeof(*ch), cmp_change);
	for (size_t i = 0; i < nch; i++) {
		ch[i].from = i ? ch[i - 1].at : 0;
		ch[i].to = i + 1 < nch ? ch[i + 1].at : n;
		ch[i].before =
			clyde_cp_median(x + ch[i].from, ch[i].at - ch[i].from);
		ch[i].after =
			clyde_cp_median(x + ch[i].at, ch[i].to - ch[i].at);
	}
	if (nch) {
		*out = ch;
		*nout = nch;
		ch = NULL;
	}
out:
	free(ch);
	free(stack);
	free(perm);
	free(rank);
	free(tmp);
	return rc;
}
