/*
 * core/loadcurve: the limiter's schedule (due times from the request's
 * number, no drift), the option parsers (one line naming what is
 * accepted) and the bisection of --latency-target against a device
 * modelled by a latency that climbs with the rate.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "core/loadcurve.h"
#include "tap.h"

static void test_schedule(void)
{
	uint64_t t0 = 1000000000ull;

	CHECK(clyde_rate_due_ns(t0, 0, 1000) == t0);
	CHECK(clyde_rate_due_ns(t0, 1, 1000) == t0 + 1000000);
	CHECK(clyde_rate_due_ns(t0, 1000, 1000) == t0 + 1000000000ull);
	/* 3 per second: 333333333.33 ns apart, rounded each time from i,
	 * so request 3 million is exactly a million seconds on. */
	CHECK(clyde_rate_due_ns(t0, 1, 3) == t0 + 333333333);
	CHECK(clyde_rate_due_ns(t0, 2, 3) == t0 + 666666667);
	CHECK(clyde_rate_due_ns(t0, 3000000, 3) ==
	      t0 + 1000000ull * 1000000000ull);
	/* A fractional rate: 0.5 per second is 2 s apart. */
	CHECK(clyde_rate_due_ns(t0, 5, 0.5) == t0 + 10000000000ull);
	/* Summing a rounded interval would drift: 7 per second summed as
	 * 142857143 ns is 1 ns a request late; from i it stays exact. */
	CHECK(clyde_rate_due_ns(0, 7000000, 7) == 1000000ull * 1000000000ull);
	/* Monotonic, and the spacing is the rate's. */
	for (uint64_t i = 1; i < 100000; i += 997) {
		uint64_t a = clyde_rate_due_ns(t0, i - 1, 123456.7);
		uint64_t b = clyde_rate_due_ns(t0, i, 123456.7);

		CHECK(b > a && b - a >= 8099 && b - a <= 8101);
	}
}

static void test_rate_parse(void)
{
	struct clyde_rate_spec r = { 0 };
	char err[300];

	CHECK(clyde_rate_parse("5000", &r, err, sizeof(err)) == 0 &&
	      r.value == 5000 && !r.bytes);
	CHECK(clyde_rate_parse("2500.5iops", &r, err, sizeof(err)) == 0 &&
	      r.value == 2500.5 && !r.bytes);
	CHECK(clyde_rate_parse("200m/s", &r, err, sizeof(err)) == 0 &&
	      r.value == 200.0 * 1048576 && r.bytes);
	CHECK(clyde_rate_ops(&r, 1048576) == 200);
	CHECK(clyde_rate_ops(&r, 4096) == 51200);
	r.bytes = false;
	r.value = 5000;
	CHECK(clyde_rate_ops(&r, 4096) == 5000);
	const char *bad[] = {
		"",   "0",   "-5",   "abc", "5x",  "5000 ", "1e3",
		"/s", "0/s", "5q/s", "inf", "nan", "2e10",  "iops"
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK(clyde_rate_parse(bad[i], &r, err, sizeof(err)) ==
		      -EINVAL);
		CHECK(strstr(err, "is not a rate") != NULL);
	}
}

static void test_curve_parse(void)
{
	double pct[CLYDE_CURVE_MAX_STEPS];
	unsigned n = 99;
	char err[300];

	CHECK(clyde_curve_parse("10,25,50,75,90,100", pct, &n, err,
				sizeof(err)) == 0 &&
	      n == 6 && pct[0] == 10 && pct[5] == 100);
	CHECK(clyde_curve_parse(CLYDE_CURVE_DEFAULT, pct, &n, err,
				sizeof(err)) == 0 &&
	      n == 10 && pct[9] == 100);
	CHECK(clyde_curve_parse("2.5", pct, &n, err, sizeof(err)) == 0 &&
	      n == 1 && pct[0] == 2.5);
	CHECK(clyde_curve_parse("50,10", pct, &n, err, sizeof(err)) ==
		      -EINVAL &&
	      strstr(err, "must increase"));
	CHECK(clyde_curve_parse("10,10", pct, &n, err, sizeof(err)) == -EINVAL);
	const char *bad[] = { "", ",", "10,", "0", "101", "-5", "a", "10,,20" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(clyde_curve_parse(bad[i], pct, &n, err, sizeof(err)) ==
			      -EINVAL &&
		      strstr(err, "not a list of steps"));
	CHECK(clyde_curve_parse("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,"
				"19,20,21",
				pct, &n, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "at most"));
}

static void test_target_parse(void)
{
	struct clyde_lat_target t = { 0 };
	char err[300], name[48];

	CHECK(clyde_lat_target_parse("p99=5ms", &t, err, sizeof(err)) == 0 &&
	      t.pctile == 99 && t.ns == 5000000);
	clyde_lat_target_name(&t, name, sizeof(name));
	CHECK_STR(name, "p99 5 ms");
	CHECK(clyde_lat_target_parse("P99.9=800us", &t, err, sizeof(err)) ==
		      0 &&
	      t.pctile == 99.9 && t.ns == 800000);
	clyde_lat_target_name(&t, name, sizeof(name));
	CHECK_STR(name, "p99.9 800 us");
	CHECK(clyde_lat_target_parse("p50=2s", &t, err, sizeof(err)) == 0 &&
	      t.ns == 2000000000ull);
	CHECK(clyde_lat_target_parse("p90=250ns", &t, err, sizeof(err)) == 0 &&
	      t.ns == 250);
	CHECK(clyde_lat_target_parse("p99=1.5ms", &t, err, sizeof(err)) == 0 &&
	      t.ns == 1500000);
	const char *bad[] = { "",	   "p99",      "99=5ms",  "p99=5",
			      "p99=ms",	   "p100=5ms", "p0=5ms",  "p99=5xs",
			      "p99=-5ms",  "p=5ms",    "p99=0ms", "p99=2h",
			      "p99=0.1ns", "p99=5m" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK(clyde_lat_target_parse(bad[i], &t, err, sizeof(err)) ==
		      -EINVAL);
		CHECK(strstr(err, "is not a latency target") != NULL);
	}
}

/* A device whose p99 climbs with the load: 100 us + 10 ms * (r/max)^4;
 * the target is met below a known rate. */
static double p99_at(double rate, double max)
{
	return 100e3 + 10e6 * pow(rate / max, 4);
}

static double search(double max, double target_ns, unsigned steps,
		     struct clyde_bisect *b)
{
	double rate, best = 0;

	clyde_bisect_init(b, max, steps);
	while (clyde_bisect_next(b, &rate)) {
		bool met = p99_at(rate, max) <= target_ns;

		CHECK(rate > b->lo && rate < b->hi);
		clyde_bisect_report(b, met);
		if (met)
			best = rate;
	}
	return best;
}

static void test_bisect(void)
{
	struct clyde_bisect b;
	double max = 100000;
	/* p99 <= 5 ms: (r/max)^4 <= 0.49, r <= 83666. */
	double truth = max * pow(0.49, 0.25);
	double got = search(max, 5e6, 7, &b);

	CHECK(b.done == 7);
	CHECK(got == b.lo);
	CHECK(b.lo <= truth && b.hi >= truth);
	/* 7 probes narrow the bracket to max / 2^7. */
	CHECK(fabs(b.hi - b.lo - max / 128) < 1e-6);
	CHECK(truth - got <= max / 128);
	/* More probes, tighter. */
	got = search(max, 5e6, 20, &b);
	CHECK(truth - got <= max / (1 << 20) && got <= truth);
	/* A target under the floor (100 us) is never met: lo stays 0 and
	 * hi comes down to max / 2^steps. */
	got = search(max, 50e3, 5, &b);
	CHECK(got == 0 && b.lo == 0 && fabs(b.hi - max / 32) < 1e-9);
	/* No maximum: nothing to search. */
	double rate;

	clyde_bisect_init(&b, 0, 7);
	CHECK(!clyde_bisect_next(&b, &rate));
}

int main(void)
{
	test_schedule();
	test_rate_parse();
	test_curve_parse();
	test_target_parse();
	test_bisect();
	return tap_done();
}
