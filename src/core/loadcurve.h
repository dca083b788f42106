/*
 * The arithmetic of clyde dev's load options, kept pure so that the unit
 * tests can hold it (tests/unit/test_loadcurve.c):
 *
 *   --rate R            the limiter's schedule: request i (from 0) of a
 *                       test is due at t0 + i / R seconds, computed from i
 *                       every time (no sum of intervals, so no drift); a
 *                       request's latency runs from that due time, not
 *                       from when it was sent (coordinated omission)
 *   --curve STEPS       percentages of the maximum, increasing, (0, 100]
 *   --latency-target P=T  a percentile and a latency; the highest rate
 *                       that keeps it is found by bisection between 0 and
 *                       the maximum in a bounded number of probes
 *
 * Nothing prints: the parsers return 0 or -EINVAL and leave one line in
 * err saying what is accepted.
 */
#ifndef CLYDE_CORE_LOADCURVE_H
#define CLYDE_CORE_LOADCURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --rate: requests per second ("5000", "5000iops") or bytes per second
 * (a size with k, m, g, t (KiB...) followed by "/s": "200m/s"). */
struct clyde_rate_spec {
	double value; /* 0: no limit */
	bool bytes;   /* value is bytes/s, else requests/s */
};
int clyde_rate_parse(const char *s, struct clyde_rate_spec *r, char *err,
		     size_t len);
/* The spec as requests per second for requests of len bytes. */
double clyde_rate_ops(const struct clyde_rate_spec *r, uint32_t len);

/* The due time of request i of a schedule started at t0 at ops_per_s. */
uint64_t clyde_rate_due_ns(uint64_t t0, uint64_t i, double ops_per_s);

/* A rate achieved under this share of the rate asked did not reach it. */
#define CLYDE_RATE_REACHED 0.95

/* --curve: up to CLYDE_CURVE_MAX_STEPS percentages, increasing. */
#define CLYDE_CURVE_MAX_STEPS 20
#define CLYDE_CURVE_DEFAULT "10,20,30,40,50,60,70,80,90,100"
int clyde_curve_parse(const char *s, double *pct, unsigned *n, char *err,
		      size_t len);

/* --latency-target pP=T: "p99=5ms", "p99.9=800us", "p50=2ms"; the units
 * ns, us, ms, s (a unit is required). */
struct clyde_lat_target {
	double pctile; /* 0 < pctile < 100, e.g. 99 */
	uint64_t ns;   /* 0: no target */
};
int clyde_lat_target_parse(const char *s, struct clyde_lat_target *t, char *err,
			   size_t len);
/* "p99 5 ms", "p99.9 800 us": the target in words (the metric's name). */
void clyde_lat_target_name(const struct clyde_lat_target *t, char *buf,
			   size_t len);

/*
 * The bisection of --latency-target between 0 (met: no load) and the
 * maximum (not met, else there is nothing to search): each probe is the
 * middle of the bracket; a probe that met the target raises lo, one that
 * did not lowers hi.  After `steps` probes the answer is lo (0: no rate
 * probed met it) and the bracket [lo, hi] is what was searched down to.
 */
#define CLYDE_BISECT_DEFAULT_STEPS 7u
#define CLYDE_BISECT_MAX_STEPS 30u
struct clyde_bisect {
	double lo, hi; /* met at lo (or lo is 0), not met at hi */
	double probe;  /* the probe in hand */
	unsigned left; /* probes still to make */
	unsigned done; /* probes made */
};
void clyde_bisect_init(struct clyde_bisect *b, double max, unsigned steps);
/* The next rate to probe in *rate; false when the search is over. */
bool clyde_bisect_next(struct clyde_bisect *b, double *rate);
/* What the probe in hand gave. */
void clyde_bisect_report(struct clyde_bisect *b, bool met);

#endif
