/*
 * until-decided (analysis/exp_decide.h): the rule on small experiments whose
 * answers are known, and four recorded 5-repeat sweeps replayed through
 * it (tests/fixtures/sweep-dd-bs-5.json, sweep-dd-bs-sep-5.json,
 * sweep-dd-bs-rank-5.json and -5b.json, live loop-device sweeps): the
 * same conclusions with fewer runs (27 and 23 of 30, 19 and 21 of 25;
 * not half: docs/sweep.md, "What until-decided saves").  The
 * rule and the table test on the same scale, log(x) (test_scale()).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "core/stats.h"
#include "analysis/exp_analysis.h"
#include "analysis/exp_decide.h"
#include "report/exp_json.h"
#include "tap.h"

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

/* One axis "x", one metric (higher is better unless hb is 0). */
static void exp1(struct clyde_exp *e, int hb)
{
	memset(e, 0, sizeof(*e));
	e->naxes = 1;
	e->axis_names = calloc(1, sizeof(char *));
	e->axis_names[0] = xstrdup("x");
	e->nmetrics = 1;
	e->metrics = calloc(1, sizeof(*e->metrics));
	e->metrics[0].key = xstrdup("run.put_block");
	e->metrics[0].label = xstrdup("block write");
	e->metrics[0].unit = xstrdup("B/s");
	e->metrics[0].higher_better = hb != 0;
	e->points = calloc(16, sizeof(*e->points));
}

/* A point with value v and n samples (doubles). */
static void pt(struct clyde_exp *e, const char *v, int n, ...)
{
	struct clyde_exp_point *p = &e->points[e->npoints++];
	va_list ap;
	int i;

	p->values = calloc(1, sizeof(char *));
	p->values[0] = xstrdup(v);
	p->cells = calloc(1, sizeof(*p->cells));
	p->cells[0].samples = calloc((size_t)n + 1, sizeof(double));
	p->cells[0].n = (size_t)n;
	p->failed = n == 0;
	va_start(ap, n);
	for (i = 0; i < n; i++)
		p->cells[0].samples[i] = va_arg(ap, double);
	va_end(ap);
}

static void test_rule(void)
{
	struct clyde_exp e;
	struct clyde_exp_decision d[8];
	char buf[256];

	/* a is the best; b is far worse (decided at n = 2); c is equal to a
	 * within 5% (decided); d overlaps a but is wide (open). */
	exp1(&e, 1);
	pt(&e, "a", 3, 100.0, 101.0, 102.0);
	pt(&e, "b", 2, 50.0, 51.0);
	pt(&e, "c", 3, 100.5, 101.0, 101.5);
	pt(&e, "d", 2, 80.0, 120.0);
	pt(&e, "e", 0); /* failed */
	CHECK(clyde_exp_decide(&e, 5, 10, clyde_exp_decide_level(10), NULL,
			       d) == 2);
	CHECK(d[1].stop == CLYDE_EXP_STOP_WORSE && d[1].against == 0);
	CHECK(d[1].p < 0.05 && d[1].hi_pct < 0);
	CHECK(d[2].stop == CLYDE_EXP_STOP_EQUIV);
	CHECK(d[2].lo_pct >= -5 && d[2].hi_pct <= 5);
	CHECK(d[3].stop == CLYDE_EXP_OPEN && d[3].n == 2);
	/* The best stays open while d is. */
	CHECK(d[0].stop == CLYDE_EXP_OPEN && d[0].against == 3);
	CHECK(d[4].stop == CLYDE_EXP_STOP_FAILED);
	CHECK_STR(clyde_exp_decision_text(buf, sizeof(buf), &e, &d[1], 5, 10),
		  "significantly worse than x a for block write (-56% .. "
		  "-43%, p < 0.001)");
	CHECK_STR(clyde_exp_decision_text(buf, sizeof(buf), &e, &d[2], 5, 10),
		  "equivalent to x a within \xc2\xb1"
		  "5% for block write (-3.4% .. +3.6%)");
	CHECK(strncmp(clyde_exp_decision_text(buf, sizeof(buf), &e, &d[3], 5,
					      10),
		      "open: block write against x a (", 31) == 0);
	CHECK_STR(clyde_exp_decision_text(buf, sizeof(buf), &e, &d[4], 5, 10),
		  "every run failed");
	/* At the limit, d stops, saying so, and so does a (open only for
	 * d's sake); the decided ones keep their reasons. */
	CHECK(clyde_exp_decide(&e, 5, 2, clyde_exp_decide_level(2), NULL, d) ==
	      0);
	CHECK(d[3].stop == CLYDE_EXP_STOP_LIMIT);
	CHECK(d[0].stop == CLYDE_EXP_STOP_LIMIT);
	CHECK(d[1].stop == CLYDE_EXP_STOP_WORSE);
	CHECK(strncmp(clyde_exp_decision_text(buf, sizeof(buf), &e, &d[3], 5,
					      2),
		      "max-runs (2) reached, still open: block write",
		      45) == 0);
	/* A wide enough margin (d: -93% .. +1164%, the ratio's interval on
	 * the log scale, which never goes below -100%) takes d in:
	 * everything decided, a is the best. */
	CHECK(clyde_exp_decide(&e, 1200, 0, clyde_exp_decide_level(0), NULL,
			       d) == 0);
	CHECK(d[3].stop == CLYDE_EXP_STOP_EQUIV);
	CHECK(d[0].stop == CLYDE_EXP_STOP_BEST);
	CHECK_STR(clyde_exp_decision_text(buf, sizeof(buf), &e, &d[0], 1200, 0),
		  "the best; every other point is decided");
	clyde_exp_release(&e);

	/* The looks are corrected: p = 0.02 decides with no more looks to
	 * come (max_runs 2: alpha 0.05), not when nine may follow (alpha
	 * 0.05 / 9). */
	exp1(&e, 1);
	pt(&e, "a", 3, 10.0, 11.0, 12.0);
	pt(&e, "b", 3, 8.0, 8.8, 9.6);
	CHECK(clyde_exp_decide(&e, 1, 2, clyde_exp_decide_level(2), NULL, d) ==
	      0);
	CHECK(d[1].stop == CLYDE_EXP_STOP_WORSE && d[1].p < 0.05 &&
	      d[1].p > 0.05 / 9);
	CHECK(clyde_exp_decide(&e, 1, 10, clyde_exp_decide_level(10), NULL,
			       d) == 2);
	CHECK(d[1].stop == CLYDE_EXP_OPEN);
	clyde_exp_release(&e);

	/* One sample: nothing can be decided yet. */
	exp1(&e, 0);
	pt(&e, "a", 1, 1.0);
	pt(&e, "b", 1, 9.0);
	CHECK(clyde_exp_decide(&e, 5, 0, clyde_exp_decide_level(0), NULL, d) ==
	      2);
	CHECK_STR(clyde_exp_stop_name(d[1].stop), "open");
	clyde_exp_release(&e);

	/* An amount has no direction: nothing to decide on. */
	exp1(&e, 1);
	e.metrics[0].amount = true;
	pt(&e, "a", 2, 1.0, 1.0);
	pt(&e, "b", 2, 2.0, 2.0);
	CHECK(clyde_exp_decide(&e, 5, 0, clyde_exp_decide_level(0), NULL, d) ==
	      0);
	CHECK(d[0].stop == CLYDE_EXP_STOP_NOTHING);
	clyde_exp_release(&e);
}

/*
 * The scale.  Noise grows with the mean: the 2K point of the second
 * recording, after three runs (2.5 .. 6.2 s), against the best's three
 * (0.115 .. 0.138 s): every sample at least 18x slower.  On raw seconds
 * Welch's test gives p = 0.055 (2K's spread is 15x the best's mean): it
 * stayed open.  On log(x) it is worse, for the rule (alpha 0.05 / 4) and
 * for the table, which must agree.
 */
static void test_scale(void)
{
	struct clyde_exp e;
	struct clyde_exp_decision d[4];
	struct clyde_exp_mstat ms;
	struct clyde_decision c;
	double lo, hi, ref;
	char buf[256], want[256];
	static const double a0[] = { 100.0, 101.0, 102.0 };
	static const double b0[] = { 0.0, 2.0 };

	exp1(&e, 0);
	pt(&e, "2K", 3, 5.329478964, 2.488052053, 6.209130176);
	pt(&e, "1M", 3, 0.131600837, 0.138061718, 0.115321638);
	CHECK(clyde_exp_metric_log(&e, 0));
	CHECK(clyde_exp_decide(&e, 10, 5, clyde_exp_decide_level(5), NULL, d) ==
	      0);
	CHECK(d[0].stop == CLYDE_EXP_STOP_WORSE && d[0].against == 1);
	CHECK(d[0].p < 0.05 / 4);
	CHECK(d[1].stop == CLYDE_EXP_STOP_BEST);
	CHECK(d[0].lo_pct > 0);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.log_scale);
	CHECK(ms.best == 1 && ms.cells[0].rel == CLYDE_EXP_REL_DIFF);
	CHECK_STR(clyde_exp_mark(&ms, 0), "*");
	CHECK_STR(clyde_exp_mark(&ms, 1), "\xe2\x98\x85");
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);

	/* A sample <= 0 cannot be logged: the whole metric is tested on raw
	 * values (the difference in percent of the best's mean), and the
	 * table says so (log_scale false); so are the rule's figures. */
	exp1(&e, 1);
	pt(&e, "a", 3, a0[0], a0[1], a0[2]);
	pt(&e, "b", 2, b0[0], b0[1]);
	pt(&e, "c", 3, 100.5, 101.0, 101.5);
	CHECK(!clyde_exp_metric_log(&e, 0));
	clyde_exp_compare(&e, 0, 0, 1, 0.05, 5, &c);
	CHECK(!c.log_scale && c.tested && c.worse && c.known);
	CHECK(clyde_stats_diff_ci(a0, 3, b0, 2, 1 - clyde_exp_decide_level(10),
				  &lo, &hi) == 0);
	ref = 101.0;
	CHECK(clyde_exp_decide(&e, 5, 10, clyde_exp_decide_level(10), NULL,
			       d) == 0);
	CHECK(d[1].stop == CLYDE_EXP_STOP_WORSE);
	snprintf(want, sizeof(want),
		 "significantly worse than x a for block write (%+.0f%% .. "
		 "%+.0f%%, p < 0.001)",
		 lo / ref * 100, hi / ref * 100);
	CHECK(d[1].p < 0.001);
	CHECK_STR(clyde_exp_decision_text(buf, sizeof(buf), &e, &d[1], 5, 10),
		  want);
	/* c against a on raw values: -0.5% .. +0.5% or so, equivalent. */
	CHECK(d[2].stop == CLYDE_EXP_STOP_EQUIV);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(!ms.log_scale);
	CHECK(ms.cells[1].rel == CLYDE_EXP_REL_DIFF);
	CHECK(ms.cells[2].rel == CLYDE_EXP_REL_EQUIV);
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);

	/* The best is the best plain mean (a: one 2000 among ten 10s, mean
	 * 176); on log values b (100 .. 102, mean 101) is far above it
	 * (p ~ 0.001).  That is not "b is worse": b is at most not
	 * different, for the rule and the table. */
	exp1(&e, 1);
	pt(&e, "a", 12, 2000.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0,
	   10.0, 10.0, 10.0);
	pt(&e, "b", 3, 100.0, 101.0, 102.0);
	clyde_exp_compare(&e, 0, 0, 1, 0.05, 5, &c);
	CHECK(c.log_scale && c.p < 0.01 && !c.worse);
	CHECK(clyde_exp_decide(&e, 5, 0, clyde_exp_decide_level(0), NULL, d) ==
	      2);
	CHECK(d[1].stop == CLYDE_EXP_OPEN);
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	CHECK(ms.best == 0 && ms.cells[1].rel == CLYDE_EXP_REL_SAME);
	clyde_exp_mstat_release(&ms);
	clyde_exp_release(&e);

	/* A negative sample can no more be logged; a failed point's samples
	 * do not count. */
	exp1(&e, 1);
	pt(&e, "a", 3, a0[0], a0[1], a0[2]);
	pt(&e, "b", 2, b0[0], b0[1]);
	e.points[1].cells[0].samples[0] = -1.0;
	CHECK(!clyde_exp_metric_log(&e, 0));
	e.points[1].failed = true;
	CHECK(clyde_exp_metric_log(&e, 0));
	clyde_exp_release(&e);
}

/*
 * Replay, as the sweep runs it: start every point with its first `first`
 * samples, then round by round give one more sample to each point the
 * rule leaves open, up to all of them.  A point that stopped never runs
 * again and keeps the reason it stopped for (the sweep says it then).
 * Returns the samples used; the reasons in out.
 */
static size_t replay(struct clyde_exp *e, const size_t *full, size_t first,
		     double pct, struct clyde_exp_decision *out)
{
	struct clyde_exp_decision now[64];
	bool stopped[64] = { false };
	size_t p, m, runs = 0, r, max = 0;
	double alpha;

	for (p = 0; p < e->npoints; p++)
		if (full[p] > max)
			max = full[p];
	alpha = clyde_exp_decide_level((unsigned)max);
	for (p = 0; p < e->npoints; p++)
		for (m = 0; m < e->nmetrics; m++)
			e->points[p].cells[m].n = full[p] < first ? full[p] :
								    first;
	for (r = first;; r++) {
		clyde_exp_decide(e, pct, (unsigned)max, alpha, stopped, now);
		for (p = 0; p < e->npoints; p++)
			if (!stopped[p] &&
			    (now[p].stop != CLYDE_EXP_OPEN || r >= max)) {
				stopped[p] = true;
				out[p] = now[p];
			}
		for (p = 0; p < e->npoints && stopped[p]; p++)
			;
		if (p == e->npoints)
			break;
		for (p = 0; p < e->npoints; p++)
			if (!stopped[p])
				for (m = 0; m < e->nmetrics; m++)
					if (e->points[p].cells[m].n < full[p])
						e->points[p].cells[m].n++;
	}
	for (p = 0; p < e->npoints; p++)
		runs += e->points[p].failed ? 0 : e->points[p].cells[0].n;
	return runs;
}

/*
 * Are the conclusions the same as those of all the repeats (the table's,
 * exp_analysis.h, at p < 0.05)?  The best is the same point; a point the
 * replay stopped as worse is significantly worse with every repeat; one
 * it stopped as equivalent is not.  A point that ran every repeat has
 * every sample: the same data, the same conclusion.
 */
static bool same_conclusion(const struct clyde_exp_mstat *full, size_t p,
			    const struct clyde_exp_decision *part)
{
	switch (part->stop) {
	case CLYDE_EXP_STOP_WORSE:
		return full->cells[p].rel == CLYDE_EXP_REL_DIFF &&
		       part->against == full->best;
	case CLYDE_EXP_STOP_EQUIV:
		return full->cells[p].rel != CLYDE_EXP_REL_DIFF;
	case CLYDE_EXP_STOP_BEST:
		return p == full->best;
	default:
		return true;
	}
}

/* Replay the recorded experiment `name` (every point with `repeats`
 * samples) and check its conclusions; the runs it used. */
static size_t test_replay(const char *name, size_t repeats, size_t *total_out)
{
	const char *dir = getenv("CLYDE_FIXTURES");
	char path[4096];
	struct clyde_exp e = { 0 };
	struct clyde_exp_decision dpart[64];
	struct clyde_exp_mstat ms;
	size_t full[64], p, total = 0, runs = 0;
	struct clyde_ctx ctx;
	char buf[256];

	clyde_ctx_init(&ctx);
	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s",
			 dir ? dir : CLYDE_FIXTURES_DIR, name);
	CHECK(clyde_exp_json_load(&ctx, path, &e) == 0);
	CHECK(e.npoints >= 3 && e.npoints <= 64);
	if (e.npoints < 3 || e.npoints > 64)
		goto out;
	for (p = 0; p < e.npoints; p++) {
		full[p] = e.points[p].failed ? 0 : e.points[p].cells[0].n;
		CHECK(full[p] == repeats);
		total += full[p];
	}
	/* The conclusions of all five repeats: the table's. */
	CHECK(clyde_exp_mstat_init(&e, 0, &ms) == 0);
	runs = replay(&e, full, 2, 10, dpart);
	printf("# %s: replay: %zu of %zu runs\n", name, runs, total);
	for (p = 0; p < e.npoints; p++) {
		printf("# %s: all repeats: %s; replay stopped after %zu: %s\n",
		       e.points[p].values[0],
		       p == ms.best			     ? "the best" :
		       ms.cells[p].rel == CLYDE_EXP_REL_DIFF ? "worse" :
							       "not different",
		       e.points[p].cells[0].n,
		       clyde_exp_decision_text(buf, sizeof(buf), &e, &dpart[p],
					       10, (unsigned)repeats));
		CHECK(same_conclusion(&ms, p, &dpart[p]));
	}
	CHECK(runs < total);
	clyde_exp_mstat_release(&ms);
out:
	clyde_exp_release(&e);
	clyde_ctx_release(&ctx);
	*total_out = total;
	return runs;
}

/*
 * A point that stopped stays decided: the best is not held open by a
 * test of it made again with the best's later samples.  b stopped as
 * worse after 2 runs; the best's later samples spread, so that test
 * alone would be open again.
 */
static void test_stopped(void)
{
	struct clyde_exp e = { 0 };
	struct clyde_exp_decision d[3];
	bool stopped[3] = { false, true, false };

	exp1(&e, 1);
	pt(&e, "a", 4, 100.0, 101.0, 60.0, 140.0);
	pt(&e, "b", 2, 50.0, 51.0);
	CHECK(clyde_exp_decide(&e, 5, 5, clyde_exp_decide_level(5), NULL, d) ==
	      2);
	CHECK(d[0].stop == CLYDE_EXP_OPEN && d[0].against == 1);
	CHECK(d[1].stop == CLYDE_EXP_OPEN);
	CHECK(clyde_exp_decide(&e, 5, 5, clyde_exp_decide_level(5), stopped,
			       d) == 0);
	CHECK(d[0].stop == CLYDE_EXP_STOP_BEST);
	clyde_exp_release(&e);
}

/* The level of each look: Pocock's for looks at n = 2 .. max_runs,
 * between Bonferroni's and 0.05. */
static void test_level(void)
{
	CHECK(clyde_exp_decide_level(0) == 0.05);
	CHECK(clyde_exp_decide_level(2) == 0.05);
	for (unsigned m = 3; m <= 12; m++) {
		double a = clyde_exp_decide_level(m);

		CHECK(a > 0.05 / (m - 1) && a < 0.05);
		CHECK(a < clyde_exp_decide_level(m - 1));
	}
	CHECK(fabs(clyde_exp_decide_level(5) - 0.0204) < 0.0003);
	CHECK(clyde_exp_decide_level(CLYDE_EXP_POCOCK_LOOKS + 2) ==
	      0.05 / (CLYDE_EXP_POCOCK_LOOKS + 1));
}

int main(int argc, char **argv)
{
	size_t total, runs;

	/* ./test_exp_decide PATH/FILE.json [REPEATS]: replay one recording
	 * (a path with a slash) and print what the rule did with it. */
	if (argc > 1) {
		runs = test_replay(
			argv[1], argc > 2 ? (size_t)atoi(argv[2]) : 5, &total);
		return tap_done();
	}
	test_rule();
	test_scale();
	test_stopped();
	test_level();

	/* Fewer runs, never more, and the same conclusions.  On the first
	 * recording (a loaded machine, the top four points within noise of
	 * each other after five repeats: the table itself cannot tell them
	 * apart) any rule that does not stop an undecided point needs at
	 * least 4 x 5 + 2 x 2 = 24 of the 30 runs: see docs/sweep.md. */
	runs = test_replay("sweep-dd-bs-5.json", 5, &total);
	CHECK(runs <= 26 && total == 30);
	/* The second: three points clearly slower (2K, 8K, 32K), two close
	 * to the best (256K, 4M).  On log(x) 2K stops after 3 (on raw
	 * seconds its 2.5 .. 12.3 s spread kept it open to the end: 27
	 * runs), 4M after 4; 256K and the best run to the limit, as the
	 * data cannot rank them.  A bound, so that a change that costs runs
	 * shows. */
	runs = test_replay("sweep-dd-bs-sep-5.json", 5, &total);
	CHECK(runs <= 23 && total == 30);
	/* The third design was meant to rank every point (bs 4K .. 1M, each
	 * 4x the last, 64 MiB), recorded twice under load.  First: 4K and
	 * 16K stop after 2; 64K (worse in the table at p < 0.05, not at the
	 * rule's level), 256K (the table's ~) and the best run to the
	 * limit. */
	runs = test_replay("sweep-dd-bs-rank-5.json", 5, &total);
	CHECK(runs <= 19 && total == 25);
	/* Second: the table ranks every point (256K worse than 1M, p < 0.05)
	 * but not at the rule's level, so 256K and the best run to the
	 * limit: 21 of 25, not half (12.5). */
	runs = test_replay("sweep-dd-bs-rank-5b.json", 5, &total);
	CHECK(runs <= 21 && total == 25);
	/* The same design on a quiet machine, 1 GiB per run: every point
	 * decided at the first look, 10 of 25 (with Bonferroni's level
	 * 14; holding the best open for points that had stopped, 14 too). */
	runs = test_replay("sweep-dd-bs-rank-1g-5.json", 5, &total);
	CHECK(2 * runs <= total && total == 25);
	/* 256 MiB per run: 13 of 25 (with the best held open by 64K, which
	 * stopped after 2, the best ran to the limit: 15). */
	runs = test_replay("sweep-dd-bs-rank-256m-5.json", 5, &total);
	CHECK(runs <= 13 && total == 25);
	return tap_done();
}
