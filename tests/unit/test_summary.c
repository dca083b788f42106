/*
 * Run-to-run statistics over a series of runs (results/summary.h).
 *
 * Reference values, computed by hand (the same sample as test_stats.c):
 * rates {2,4,4,4,5,5,7,9} x 10^6 have mean 5 x 10^6, sample variance 32/7
 * x 10^12, sd sqrt(32/7) x 10^6 = 2.1380899353 x 10^6, standard error
 * sd / sqrt(8) = 0.7559289460 x 10^6 and a 95% half-width of
 * t(0.975, 7) * se = 2.3646242516 * 0.7559289460 x 10^6
 * = 1.7874879182 x 10^6, i.e. 35.75% of the mean.
 */
#include "results/summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "tap.h"

#define SEC 1000000000ull

static int near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

/* Run i: put_block at v[i] x 10^6 B/s over one second, seeks too fast
 * (0.1 s, 1000 seeks/s), seq_create done only in run 0, getc skipped,
 * rewrite done but with nothing timed. */
static struct clyde_run *series(const double *v, unsigned n)
{
	struct clyde_run *runs = calloc(n, sizeof(*runs));

	for (unsigned i = 0; runs && i < n; i++) {
		struct clyde_run *r = &runs[i];

		clyde_run_init(r);
		r->tests[CLYDE_PUT_BLOCK].state = CLYDE_DONE;
		r->tests[CLYDE_PUT_BLOCK].bytes = (uint64_t)(v[i] * 1e6);
		r->tests[CLYDE_PUT_BLOCK].elapsed_ns = SEC;
		r->tests[CLYDE_SEEKS].state = CLYDE_DONE;
		r->tests[CLYDE_SEEKS].ops = 100;
		r->tests[CLYDE_SEEKS].elapsed_ns = SEC / 10;
		r->tests[CLYDE_GETC].state = CLYDE_SKIPPED;
		r->tests[CLYDE_GETC].bytes = 12345; /* must be ignored */
		r->tests[CLYDE_GETC].elapsed_ns = SEC;
		r->tests[CLYDE_REWRITE].state = CLYDE_DONE;
		if (i == 0) {
			r->tests[CLYDE_SEQ_CREATE].state = CLYDE_DONE;
			r->tests[CLYDE_SEQ_CREATE].ops = 4096;
			r->tests[CLYDE_SEQ_CREATE].elapsed_ns = 2 * SEC;
		}
	}
	return runs;
}

static void test_known_sample(void)
{
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct clyde_summary s[CLYDE_TEST_COUNT];
	struct clyde_run *runs = series(v, 8);
	const struct clyde_summary *pb = &s[CLYDE_PUT_BLOCK];

	CHECK(runs != NULL);
	if (!runs)
		return;
	/* put_block, seeks, seq_create have values; rewrite (not timed),
	 * getc (skipped) and the not-run tests do not */
	CHECK(clyde_summary_compute(runs, 8, 0.0, s) == 3);
	CHECK(pb->test == CLYDE_PUT_BLOCK && pb->n == 8);
	CHECK(pb->mean == 5e6);
	CHECK(near(pb->stddev, 2.1380899353e6, 1e-9));
	CHECK(near(pb->ci95, 1.7874879182e6, 1e-9));
	CHECK(near(pb->low, 5e6 - 1.7874879182e6, 1e-9));
	CHECK(near(pb->high, 5e6 + 1.7874879182e6, 1e-9));
	CHECK_STR(pb->unit, "B/s");
	CHECK(pb->settled == CLYDE_SETTLED_NA);

	/* a too-fast test keeps its measured rate; a constant one has no
	 * spread */
	CHECK(s[CLYDE_SEEKS].n == 8 && s[CLYDE_SEEKS].mean == 1000.0);
	CHECK(s[CLYDE_SEEKS].stddev == 0.0 && s[CLYDE_SEEKS].ci95 == 0.0);
	CHECK_STR(s[CLYDE_SEEKS].unit, "seeks/s");
	/* one value: the mean, and no interval */
	CHECK(s[CLYDE_SEQ_CREATE].n == 1 && s[CLYDE_SEQ_CREATE].mean == 2048.0);
	CHECK(s[CLYDE_SEQ_CREATE].stddev == 0.0 &&
	      s[CLYDE_SEQ_CREATE].ci95 == 0);
	CHECK(s[CLYDE_SEQ_CREATE].low == 2048.0);
	CHECK_STR(s[CLYDE_SEQ_CREATE].unit, "files/s");
	CHECK(s[CLYDE_REWRITE].n == 0 && s[CLYDE_GETC].n == 0);
	CHECK(s[CLYDE_PUTC].n == 0 && s[CLYDE_RAN_DEL].n == 0);
	CHECK(s[CLYDE_RAN_DEL].test == CLYDE_RAN_DEL);

	/* settled: half-width 35.75% of the mean */
	CHECK(clyde_summary_compute(runs, 8, 36.0, s) == 3);
	CHECK(s[CLYDE_PUT_BLOCK].settled == CLYDE_SETTLED_YES);
	CHECK(s[CLYDE_SEEKS].settled == CLYDE_SETTLED_YES);
	/* a single value is never settled: its spread is unknown */
	CHECK(s[CLYDE_SEQ_CREATE].settled == CLYDE_SETTLED_NO);
	CHECK(s[CLYDE_PUTC].settled == CLYDE_SETTLED_NO);
	CHECK(clyde_summary_compute(runs, 8, 35.0, s) == 3);
	CHECK(s[CLYDE_PUT_BLOCK].settled == CLYDE_SETTLED_NO);
	CHECK(s[CLYDE_SEEKS].settled == CLYDE_SETTLED_YES);
	CHECK(clyde_summary_compute(runs, 8, NAN, s) == 3);
	CHECK(s[CLYDE_PUT_BLOCK].settled == CLYDE_SETTLED_NA);
	CHECK(clyde_summary_compute(runs, 8, -1.0, s) == 3);
	CHECK(s[CLYDE_SEEKS].settled == CLYDE_SETTLED_NA);

	for (unsigned i = 0; i < 8; i++)
		clyde_run_release(&runs[i]);
	free(runs);
}

static void test_all_settled(void)
{
	static const double v[] = { 100, 101, 99, 100 };
	struct clyde_summary s[CLYDE_TEST_COUNT];
	enum clyde_test list[CLYDE_TEST_COUNT];
	struct clyde_run *runs = series(v, 4);

	CHECK(runs != NULL);
	if (!runs)
		return;
	/* put_block: sd 0.8165, hw 3.182 * 0.8165 / 2 = 1.299 = 1.3% */
	CHECK(clyde_summary_compute(runs, 4, 1.0, s) == 3);
	CHECK(s[CLYDE_PUT_BLOCK].settled == CLYDE_SETTLED_NO);
	CHECK(clyde_summary_unsettled(s, list) == 2);
	CHECK(list[0] == CLYDE_PUT_BLOCK && list[1] == CLYDE_SEQ_CREATE);
	CHECK(!clyde_summary_all_settled(s));

	/* seq_create only ran once: drop it and the rest settles at 1.5% */
	runs[0].tests[CLYDE_SEQ_CREATE].state = CLYDE_NOT_RUN;
	CHECK(clyde_summary_compute(runs, 4, 1.5, s) == 2);
	CHECK(clyde_summary_unsettled(s, list) == 0);
	CHECK(clyde_summary_all_settled(s));
	CHECK(clyde_summary_compute(runs, 4, 1.2, s) == 2);
	CHECK(clyde_summary_unsettled(s, list) == 1 &&
	      list[0] == CLYDE_PUT_BLOCK);
	CHECK(!clyde_summary_all_settled(s));
	/* no target: nothing to stop on */
	CHECK(clyde_summary_compute(runs, 4, 0.0, s) == 2);
	CHECK(!clyde_summary_all_settled(s));
	CHECK(clyde_summary_unsettled(s, list) == 2);

	/* nothing ran at all: not settled either */
	CHECK(clyde_summary_compute(runs, 0, 5.0, s) == 0);
	CHECK(s[CLYDE_PUT_BLOCK].n == 0 && s[CLYDE_PUT_BLOCK].mean == 0.0);
	CHECK(!clyde_summary_all_settled(s));
	CHECK(clyde_summary_unsettled(s, list) == 0);

	CHECK(clyde_summary_compute(NULL, 2, 5.0, s) == -EINVAL);
	CHECK(clyde_summary_compute(runs, 2, 5.0, NULL) == -EINVAL);

	for (unsigned i = 0; i < 4; i++)
		clyde_run_release(&runs[i]);
	free(runs);
}

static void test_units(void)
{
	CHECK_STR(clyde_summary_unit(CLYDE_PUTC), "B/s");
	CHECK_STR(clyde_summary_unit(CLYDE_GET_BLOCK), "B/s");
	CHECK_STR(clyde_summary_unit(CLYDE_SEEKS), "seeks/s");
	CHECK_STR(clyde_summary_unit(CLYDE_SEQ_CREATE), "files/s");
	CHECK_STR(clyde_summary_unit(CLYDE_RAN_DEL), "files/s");
}

int main(void)
{
	test_known_sample();
	test_all_settled();
	test_units();
	return tap_done();
}
