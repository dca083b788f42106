/*
 * bench_decide: the verdict of one bench row (bench/verdict.py calls it),
 * with the rule clyde's `--until-decided` uses, so the bench says only
 * what its pairs support.
 *
 *   bench_decide [-m MAX] TARGET CLYDE PEER
 *
 *   TARGET  what clyde / peer should be: >=R, <=R or LO-HI (0.9-1.1)
 *   CLYDE, PEER
 *           the interleaved pairs' values, comma separated, the same
 *           count on both sides, each a finite number > 0
 *   -m MAX  the most pairs the bench will run (default: the pairs given);
 *           each look at the data is made at Pocock's nominal level for
 *           the looks at 2 .. MAX pairs (clyde_exp_decide_level(), as
 *           `clyde run -x MAX --until-decided`), so looking after every
 *           pair does not find differences that are not there
 *
 * Prints one line, tab separated: the verdict (`ok`, `MISSED` or
 * `within noise`), the pairs, `repeat` or `stop`, and the reason.
 *
 * The rule.  Every pair's ratio on the target's side: ok; every one
 * outside it on the same side: MISSED (the per-repeat range does not span
 * the target).  Otherwise the range spans the target and the pairs alone
 * do not say: for each bound B of the target, clyde's values are decided
 * against B times the peer's (clyde_decide(), analysis/decide.h: Welch's
 * t-test on log values at the level above, and equivalence when the
 * interval of the ratio lies inside +-5% of B).  Significantly on the
 * target's side of every bound: ok; significantly outside one: MISSED;
 * equivalent to a bound: within noise, at the target, and more pairs are
 * not asked for (`stop`); else within noise, and `repeat` while there are
 * fewer than MAX pairs.
 *
 * Bad input: one line on stderr naming what is wrong, exit 2.
 *
 * Build: cmake --build build --target bench_decide (built with clyde).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/decide.h"
#include "analysis/exp_decide.h"

#define MAX_PAIRS 64

struct target {
	double lo, hi; /* clyde/peer in [lo, hi]; -inf / +inf when open */
};

static int parse_num(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return (end == s || *end != '\0' || errno != 0 || !isfinite(*out) ||
		*out <= 0) ?
		       -1 :
		       0;
}

static int parse_target(const char *s, struct target *t)
{
	char buf[64];
	char *dash;

	t->lo = -INFINITY;
	t->hi = INFINITY;
	if (strncmp(s, ">=", 2) == 0)
		return parse_num(s + 2, &t->lo);
	if (strncmp(s, "<=", 2) == 0)
		return parse_num(s + 2, &t->hi);
	if (strlen(s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	dash = strchr(buf, '-');
	if (!dash)
		return -1;
	*dash = '\0';
	if (parse_num(buf, &t->lo) || parse_num(dash + 1, &t->hi))
		return -1;
	return t->lo < t->hi ? 0 : -1;
}

/* Comma separated values into v[0..MAX_PAIRS); the count, or -1. */
static int parse_list(const char *s, double *v)
{
	char buf[4096];
	char *tok, *save = NULL;
	int n = 0;

	if (strlen(s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_PAIRS || parse_num(tok, &v[n]))
			return -1;
		n++;
	}
	return n;
}

/* clyde against bound * peer: +1 significantly above, -1 below, 2
 * equivalent to the bound, 0 cannot tell; *p the test's p. */
static int against(const double *c, const double *p, int n, double bound,
		   double alpha, double *pval)
{
	double b[MAX_PAIRS];
	struct clyde_decide_rule r = clyde_decide_rule_default(true);
	struct clyde_decision d;
	int i;

	for (i = 0; i < n; i++)
		b[i] = bound * p[i];
	r.alpha = alpha;
	clyde_decide(c, (size_t)n, b, (size_t)n, &r, &d);
	*pval = d.p;
	switch (d.verdict) {
	case CLYDE_VERDICT_BETTER:
		return 1;
	case CLYDE_VERDICT_WORSE:
		return -1;
	case CLYDE_VERDICT_EQUIVALENT:
		return 2;
	default:
		return 0;
	}
}

static void say(const char *verdict, int n, int repeat, const char *why)
{
	printf("%s\t%d\t%s\t%s\n", verdict, n, repeat ? "repeat" : "stop", why);
}

static int usage(const char *what)
{
	fprintf(stderr,
		"bench_decide: %s (usage: bench_decide [-m MAX] "
		"TARGET CLYDE PEER; TARGET >=R, <=R or LO-HI, values "
		"comma separated, > 0, the same count)\n",
		what);
	return 2;
}

/* Judge the pairs against the target; 0 after printing the line. */
static int judge(const struct target *t, const double *c, const double *p,
		 int n, int max)
{
	char why[256];
	double alpha = clyde_exp_decide_level((unsigned)max), pl = 1, ph = 1;
	int in = 0, below = 0, above = 0, i, vl = 1, vh = -1;

	for (i = 0; i < n; i++) {
		double r = c[i] / p[i];

		if (r < t->lo)
			below++;
		else if (r > t->hi)
			above++;
		else
			in++;
	}
	if (in == n || below == n || above == n) {
		snprintf(why, sizeof(why), "every pair's ratio %s the target",
			 in == n ? "meets" : "misses");
		say(in == n ? "ok" : "MISSED", n, 0, why);
		return 0;
	}
	if (isfinite(t->lo))
		vl = against(c, p, n, t->lo, alpha, &pl);
	if (isfinite(t->hi))
		vh = against(c, p, n, t->hi, alpha, &ph);
	if (vl == -1 || vh == 1) {
		snprintf(why, sizeof(why),
			 "the pairs span the target; significantly %s it "
			 "(Welch on log values, p = %.3g < %.3g)",
			 vl == -1 ? "below" : "above", vl == -1 ? pl : ph,
			 alpha);
		say("MISSED", n, 0, why);
	} else if (vl == 1 && vh == -1) {
		snprintf(why, sizeof(why),
			 "the pairs span the target; significantly on its "
			 "side (Welch on log values, p = %.3g < %.3g)",
			 isfinite(t->lo) ? pl : ph, alpha);
		say("ok", n, 0, why);
	} else if (vl == 2 || vh == 2) {
		say("within noise", n, 0,
		    "the pairs span the target; at it (the interval of the "
		    "ratio is within +-5% of the bound): more pairs would not "
		    "decide");
	} else {
		snprintf(why, sizeof(why),
			 "the pairs span the target; neither side significant "
			 "at %.3g%s",
			 alpha, n < max ? "" : " after the most pairs allowed");
		say("within noise", n, n < max, why);
	}
	return 0;
}

int main(int argc, char **argv)
{
	double c[MAX_PAIRS], p[MAX_PAIRS];
	struct target t;
	int opt, max = 0, nc, np;
	char *end;

	while ((opt = getopt(argc, argv, "m:")) != -1) {
		if (opt != 'm')
			return usage("unknown option");
		max = (int)strtol(optarg, &end, 10);
		if (*end != '\0' || max < 2 || max > MAX_PAIRS)
			return usage("-m: a count of pairs, 2 to 64");
	}
	if (argc - optind != 3)
		return usage("needs TARGET CLYDE PEER");
	if (parse_target(argv[optind], &t))
		return usage("TARGET: not >=R, <=R or LO-HI with R > 0");
	nc = parse_list(argv[optind + 1], c);
	np = parse_list(argv[optind + 2], p);
	if (nc < 1 || np != nc)
		return usage("CLYDE and PEER: 1 to 64 numbers > 0 each, "
			     "the same count");
	if (max < nc)
		max = nc < 2 ? 2 : nc;
	return judge(&t, c, p, nc, max);
}
