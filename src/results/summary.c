/*
 * Run-to-run statistics (summary.h).  The arithmetic is core/stats.c's;
 * this file only picks the values and decides what "settled" means.
 */
#include "results/summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/stats.h"

const char *clyde_summary_unit(enum clyde_test t)
{
	if (clyde_test_is_io(t))
		return "B/s";
	if (t == CLYDE_SEEKS)
		return "seeks/s";
	return "files/s";
}

/* Only finite values may reach the statistics: a test with elapsed_ns 0
 * has no rate at all (clyde_test_rate() says 0), so it is left out. */
unsigned clyde_summary_samples(const struct clyde_run *runs, unsigned n,
			       enum clyde_test t, double *x)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct clyde_test_result *r = &runs[i].tests[t];
		double v;

		if (r->state != CLYDE_DONE || !r->elapsed_ns)
			continue;
		v = clyde_test_rate(r, t);
		if (isfinite(v))
			x[k++] = v;
	}
	return k;
}

int clyde_summary_compute(const struct clyde_run *runs, unsigned n,
			  double target_pct,
			  struct clyde_summary out[CLYDE_TEST_COUNT])
{
	bool target = target_pct > 0.0 && isfinite(target_pct);
	double *x;
	int have = 0;

	if (!out || (n && !runs))
		return -EINVAL;
	x = malloc((n ? n : 1) * sizeof(*x));
	if (!x)
		return -ENOMEM;
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		enum clyde_test t = (enum clyde_test)i;
		struct clyde_summary *s = &out[i];
		struct clyde_stats_summary st;
		unsigned k = clyde_summary_samples(runs, n, t, x);

		clyde_stats_summarize(x, k, &st);
		*s = (struct clyde_summary){
			.test = t,
			.n = k,
			.mean = st.mean,
			.stddev = k > 1 ? st.stddev : 0.0,
			.ci95 = k > 1 ? st.ci95 : 0.0,
			.unit = clyde_summary_unit(t),
			.settled = CLYDE_SETTLED_NA,
		};
		/* Rates far apart could in principle overflow the spread;
		 * show no interval rather than an infinite one. */
		if (!isfinite(s->stddev) || !isfinite(s->ci95))
			s->stddev = s->ci95 = 0.0;
		s->low = s->mean - s->ci95;
		s->high = s->mean + s->ci95;
		if (k)
			have++;
		if (!target)
			continue;
		/* The one rule of run and sweep (core/stats.h). */
		if (clyde_stats_settled(k, s->mean, s->ci95, target_pct))
			s->settled = CLYDE_SETTLED_YES;
		else
			s->settled = CLYDE_SETTLED_NO;
	}
	free(x);
	return have;
}

bool clyde_summary_all_settled(const struct clyde_summary s[CLYDE_TEST_COUNT])
{
	bool any = false;

	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		if (!s[i].n)
			continue;
		any = true;
		if (s[i].settled != CLYDE_SETTLED_YES)
			return false;
	}
	return any;
}

unsigned clyde_summary_unsettled(const struct clyde_summary s[CLYDE_TEST_COUNT],
				 enum clyde_test out[CLYDE_TEST_COUNT])
{
	unsigned k = 0;

	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		if (s[i].n && s[i].settled != CLYDE_SETTLED_YES)
			out[k++] = (enum clyde_test)i;
	return k;
}
