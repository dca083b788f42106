/*
 * Change points (analysis/changepoint.h) on replayed synthetic series:
 * one shift found where it is, several shifts, a trend, outliers that are
 * not changes, and the false-alarm rate on stationary noisy series of 50
 * runs kept below the stated level.  Every series is made from
 * core/rng.h with a fixed seed, so the test is the same every time.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/changepoint.h"
#include "core/rng.h"
#include "tap.h"

/* A standard normal deviate (Box-Muller) from rng. */
static double gauss(struct clyde_rng *rng)
{
	double u = ((double)(clyde_rng_next(rng) >> 11) + 0.5) /
		   9007199254740992.0;
	double v = ((double)(clyde_rng_next(rng) >> 11) + 0.5) /
		   9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* x[from, to) := level with a relative noise of sd `rel`. */
static void fill(double *x, size_t from, size_t to, double level, double rel,
		 struct clyde_rng *rng)
{
	for (size_t i = from; i < to; i++)
		x[i] = level * (1 + rel * gauss(rng));
}

static size_t find(const double *x, size_t n, const struct clyde_cp_opts *o,
		   struct clyde_cp_change **ch)
{
	size_t nch = 0;
	int rc = clyde_cp_find(x, n, o, ch, &nch);

	CHECK(rc == 0);
	return nch;
}

static size_t dist(size_t a, size_t b)
{
	return a > b ? a - b : b - a;
}

/* 30 runs at 100 +-3%, then 20 at 80 +-3%: one change at 30 +-1, its
 * medians near the levels, over several seeds. */
static void one_shift(void)
{
	struct clyde_cp_opts o;
	double x[50];
	int good = 0;

	clyde_cp_opts_default(&o);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct clyde_rng rng;
		struct clyde_cp_change *ch = NULL;
		size_t n;

		clyde_rng_seed(&rng, seed);
		fill(x, 0, 30, 100, 0.03, &rng);
		fill(x, 30, 50, 80, 0.03, &rng);
		n = find(x, 50, &o, &ch);
		if (n == 1 && dist(ch[0].at, 30) <= 1 && ch[0].from == 0 &&
		    ch[0].to == 50 && fabs(ch[0].before - 100) < 3 &&
		    fabs(ch[0].after - 80) < 3 && ch[0].p < o.alpha)
			good++;
		else
			fprintf(stderr,
				"seed %llu: %zu changes, first at %zu\n",
				(unsigned long long)seed, n, n ? ch[0].at : 0);
		free(ch);
	}
	CHECK(good == 20);
}

/* 100 / 80 / 95 / 60 in runs 0..15..30..45..60: three changes, each
 * within one run of where it is. */
static void several_shifts(void)
{
	static const size_t at[] = { 15, 30, 45 };
	struct clyde_cp_opts o;
	double x[60];
	int good = 0;

	clyde_cp_opts_default(&o);
	for (uint64_t seed = 100; seed < 110; seed++) {
		struct clyde_rng rng;
		struct clyde_cp_change *ch = NULL;
		size_t n;
		bool ok;

		clyde_rng_seed(&rng, seed);
		fill(x, 0, 15, 100, 0.03, &rng);
		fill(x, 15, 30, 80, 0.03, &rng);
		fill(x, 30, 45, 95, 0.03, &rng);
		fill(x, 45, 60, 60, 0.03, &rng);
		n = find(x, 60, &o, &ch);
		ok = n == 3;
		for (size_t i = 0; ok && i < 3; i++)
			ok = dist(ch[i].at, at[i]) <= 1;
		/* Each change's segments are its neighbours'. */
		ok = ok && ch[1].from == ch[0].at && ch[1].to == ch[2].at &&
		     ch[0].after < ch[0].before && ch[1].after > ch[1].before &&
		     ch[2].after < ch[2].before;
		good += ok;
		free(ch);
	}
	CHECK(good == 10);
}

/* A trend, 100 down to 70 over 50 runs (1% noise): changes are found,
 * each a step down, at least min_segment apart. */
static void trend(void)
{
	struct clyde_cp_opts o;
	struct clyde_cp_change *ch = NULL;
	struct clyde_rng rng;
	double x[50];
	size_t n;
	bool down = true;

	clyde_cp_opts_default(&o);
	clyde_rng_seed(&rng, 7);
	for (size_t i = 0; i < 50; i++)
		x[i] = (100 - 30.0 * (double)i / 49) * (1 + 0.01 * gauss(&rng));
	n = find(x, 50, &o, &ch);
	CHECK(n >= 1);
	for (size_t i = 0; i < n; i++) {
		down = down && ch[i].after < ch[i].before;
		down = down && ch[i].at - ch[i].from >= o.min_segment &&
		       ch[i].to - ch[i].at >= o.min_segment;
	}
	CHECK(down);
	free(ch);
}

/* Stationary series of 50 runs with 5% noise and, in some, a wild run
 * (3x or a third of the level): how many report a change?  Returns the
 * count over `series` seeds. */
static int false_alarms(const struct clyde_cp_opts *o, int series,
			bool outliers)
{
	int alarms = 0;

	for (int s = 0; s < series; s++) {
		struct clyde_rng rng;
		struct clyde_cp_change *ch = NULL;
		double x[50];

		clyde_rng_seed(&rng, 1000 + (uint64_t)s);
		fill(x, 0, 50, 100, 0.05, &rng);
		if (outliers) {
			x[clyde_rng_below(&rng, 50)] *= 3;
			x[clyde_rng_below(&rng, 50)] /= 3;
		}
		alarms += find(x, 50, o, &ch) > 0;
		free(ch);
	}
	return alarms;
}

static void no_false_alarm(void)
{
	struct clyde_cp_opts o;
	int a;

	clyde_cp_opts_default(&o);
	/* At the default level (0.001) 200 series expect 0.2 alarms. */
	a = false_alarms(&o, 200, false);
	printf("# default alpha %.3f: %d of 200 stationary series alarmed\n",
	       o.alpha, a);
	CHECK(a == 0);
	a = false_alarms(&o, 200, true);
	printf("# with two wild runs each: %d of 200\n", a);
	CHECK(a == 0);
	/* The level is the rate: at 0.05, 200 series expect 10 alarms (sd
	 * 3.1); more than 17 would be a test that alarms too often, none a
	 * test that never could. */
	o.alpha = 0.05;
	o.permutations = 999;
	a = false_alarms(&o, 200, false);
	printf("# alpha 0.05: %d of 200\n", a);
	CHECK(a <= 17);
	CHECK(a >= 3);
}

/* The same series and seed give the same answer; a series too short has
 * no change; bad options are refused. */
static void edges(void)
{
	struct clyde_cp_opts o;
	struct clyde_cp_change *a = NULL, *b = NULL;
	struct clyde_rng rng;
	double x[40], flat[20];
	size_t na, nb;

	clyde_cp_opts_default(&o);
	clyde_rng_seed(&rng, 3);
	fill(x, 0, 20, 100, 0.05, &rng);
	fill(x, 20, 40, 90, 0.05, &rng);
	na = find(x, 40, &o, &a);
	nb = find(x, 40, &o, &b);
	CHECK(na == nb && na >= 1);
	for (size_t i = 0; i < na && i < nb; i++)
		CHECK(a[i].at == b[i].at && a[i].p == b[i].p);
	free(a);
	free(b);
	/* 9 runs and min_segment 5: nothing. */
	CHECK(find(x, 9, &o, &a) == 0 && !a);
	/* All alike: nothing, and no NaN on the way. */
	for (size_t i = 0; i < 20; i++)
		flat[i] = 42;
	CHECK(find(flat, 20, &o, &a) == 0);
	o.min_segment = 1;
	CHECK(clyde_cp_find(x, 40, &o, &a, &na) == -EINVAL);
	clyde_cp_opts_default(&o);
	o.alpha = 0;
	CHECK(clyde_cp_find(x, 40, &o, &a, &na) == -EINVAL);
	CHECK(clyde_cp_median(x, 0) == 0);
	CHECK(clyde_cp_median((const double[]){ 3, 1, 2, 10 }, 4) == 2.5);
}

int main(void)
{
	one_shift();
	several_shifts();
	trend();
	no_false_alarm();
	edges();
	return tap_done();
}
