/*
 * The until-decided rule (see exp_decide.h).
 */
#include "analysis/exp_decide.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/stats.h"
#include "analysis/exp_analysis.h"

/* One point's state for one metric. */
enum mstate {
	M_NONE = 0,
	M_OPEN,
	M_WORSE,
	M_EQUIV,
	M_BEST
};

struct mres {
	enum mstate st;
	size_t best;
	double p, lo, hi; /* lo, hi: percent of the best's mean */
};

static bool valued(const struct clyde_exp *e, size_t p, size_t m)
{
	return !e->points[p].failed && e->points[p].cells[m].n > 0;
}

static double mean(const struct clyde_exp_cell *c)
{
	return clyde_stats_mean(c->samples, c->n);
}

/* The best point of metric m, or SIZE_MAX when no point has a value. */
static size_t best_point(const struct clyde_exp *e, size_t m)
{
	size_t p, b = SIZE_MAX;

	for (p = 0; p < e->npoints; p++)
		if (valued(e, p, m) &&
		    (b == SIZE_MAX ||
		     clyde_exp_better(&e->metrics[m],
				      mean(&e->points[p].cells[m]),
				      mean(&e->points[b].cells[m]))))
			b = p;
	return b;
}

/* Point p against the best b for metric m (p != b, both valued): the one
 * rule (analysis/decide.h) on the table's scale, at level alpha and margin
 * pct.  A point better than the best (on log values; the best is the best
 * plain mean) is never worse: equivalent within the margin, else open. */
static struct mres against(const struct clyde_exp *e, size_t m, size_t p,
			   size_t b, double pct, double alpha)
{
	struct mres r = { M_OPEN, b, 1, 0, 0 };
	struct clyde_decision c;

	clyde_exp_compare(e, m, b, p, alpha, pct, &c);
	if (!c.tested)
		return r;
	r.p = c.p;
	if (c.known) {
		r.lo = c.lo;
		r.hi = c.hi;
	}
	if (c.verdict == CLYDE_VERDICT_WORSE)
		r.st = M_WORSE;
	else if (c.within)
		r.st = M_EQUIV;
	return r;
}

double clyde_exp_decide_level(unsigned max_runs)
{
	/* Each look at the data is a test; a rule that stops at the first
	 * look that finds a difference finds ones that are not there (with
	 * four looks at 0.05, about one in eight).  The looks are at n = 2 ..
	 * max_runs samples (the sweep starts every point with 2), so every
	 * look is made at Pocock's nominal level for those looks: one for
	 * which the chance of a false stop at any of them is 0.05.  Past
	 * CLYDE_EXP_POCOCK_LOOKS looks (the integration grows with them),
	 * Bonferroni's 0.05 / looks, which is lower. */
	double info[CLYDE_EXP_POCOCK_LOOKS];
	size_t k = max_runs > 2 ? max_runs - 1 : 1, i;
	double a;

	if (k == 1)
		return CLYDE_EXP_ALPHA;
	if (k > CLYDE_EXP_POCOCK_LOOKS)
		return CLYDE_EXP_ALPHA / (double)k;
	for (i = 0; i < k; i++)
		info[i] = (double)(i + 2);
	a = clyde_stats_pocock_level(info, k, CLYDE_EXP_ALPHA);
	return isnan(a) ? CLYDE_EXP_ALPHA / (double)k : a;
}

size_t clyde_exp_decide(const struct clyde_exp *e, double pct,
			unsigned max_runs, double alpha, const bool *stopped,
			struct clyde_exp_decision *out)
{
	size_t p, m, open = 0;

	for (p = 0; p < e->npoints; p++) {
		memset(&out[p], 0, sizeof(out[p]));
		out[p].stop = CLYDE_EXP_STOP_NOTHING;
		out[p].n = SIZE_MAX;
		out[p].metric = e->nmetrics;
		out[p].against = e->npoints;
		out[p].p = 1;
	}
	/* Per point and metric, the point against the metric's best; the
	 * first open, worse and equivalent metric (in metric order) decide
	 * what is said. */
	for (p = 0; p < e->npoints; p++) {
		struct mres first_open = { M_NONE, 0, 1, 0, 0 };
		struct mres first_worse = first_open, first_equiv = first_open;
		size_t mo = e->nmetrics, mw = e->nmetrics, me = e->nmetrics;
		bool any = false, is_best_somewhere = false;

		if (e->points[p].failed) {
			out[p].stop = CLYDE_EXP_STOP_FAILED;
			out[p].n = 0;
			continue;
		}
		for (m = 0; m < e->nmetrics; m++) {
			size_t b, q;
			struct mres r;

			if (e->metrics[m].amount || !valued(e, p, m))
				continue;
			any = true;
			if (e->points[p].cells[m].n < out[p].n)
				out[p].n = e->points[p].cells[m].n;
			b = best_point(e, m);
			if (b == p) {
				/* The best: decided when every other point
				 * is. */
				r = (struct mres){ M_BEST, b, 1, 0, 0 };
				for (q = 0; q < e->npoints; q++) {
					struct mres o;

					/* One that stopped is decided: it
					 * runs no more, and its test is not
					 * looked at again. */
					if (q == b || !valued(e, q, m) ||
					    (stopped && stopped[q]))
						continue;
					o = against(e, m, q, b, pct, alpha);
					if (o.st == M_OPEN) {
						r = o;
						r.best = q; /* who is open */
						break;
					}
				}
				is_best_somewhere = true;
			} else {
				r = against(e, m, p, b, pct, alpha);
			}
			if (r.st == M_OPEN && mo == e->nmetrics) {
				mo = m;
				first_open = r;
			} else if (r.st == M_WORSE && mw == e->nmetrics) {
				mw = m;
				first_worse = r;
			} else if (r.st == M_EQUIV && me == e->nmetrics) {
				me = m;
				first_equiv = r;
			}
		}
		if (!any) {
			out[p].n = 0;
			continue;
		}
		if (mo < e->nmetrics) {
			bool limit = max_runs && out[p].n >= max_runs;

			out[p].stop = limit ? CLYDE_EXP_STOP_LIMIT :
					      CLYDE_EXP_OPEN;
			out[p].metric = mo;
			out[p].against = first_open.best;
			out[p].p = first_open.p;
			out[p].lo_pct = first_open.lo;
			out[p].hi_pct = first_open.hi;
			if (!limit && !(stopped && stopped[p]))
				open++;
		} else if (mw < e->nmetrics) {
			out[p].stop = CLYDE_EXP_STOP_WORSE;
			out[p].metric = mw;
			out[p].against = first_worse.best;
			out[p].p = first_worse.p;
			out[p].lo_pct = first_worse.lo;
			out[p].hi_pct = first_worse.hi;
		} else if (me < e->nmetrics) {
			out[p].stop = CLYDE_EXP_STOP_EQUIV;
			out[p].metric = me;
			out[p].against = first_equiv.best;
			out[p].p = first_equiv.p;
			out[p].lo_pct = first_equiv.lo;
			out[p].hi_pct = first_equiv.hi;
		} else if (is_best_somewhere) {
			out[p].stop = CLYDE_EXP_STOP_BEST;
		}
	}
	return open;
}

const char *clyde_exp_stop_name(enum clyde_exp_stop s)
{
	static const char *const n[] = {
		[CLYDE_EXP_OPEN] = "open",
		[CLYDE_EXP_STOP_WORSE] = "worse",
		[CLYDE_EXP_STOP_EQUIV] = "equivalent",
		[CLYDE_EXP_STOP_BEST] = "best",
		[CLYDE_EXP_STOP_LIMIT] = "max-runs",
		[CLYDE_EXP_STOP_FAILED] = "failed",
		[CLYDE_EXP_STOP_NOTHING] = "nothing to decide",
	};

	return (size_t)s < sizeof(n) / sizeof(n[0]) ? n[s] : "?";
}

/* "chunk 64k" or "chunk 64k, level raid5": point p's axis values. */
static void point_name(char *buf, size_t len, const struct clyde_exp *e,
		       size_t p)
{
	size_t a, o = 0;

	buf[0] = '\0';
	for (a = 0; a < e->naxes && o < len; a++) {
		int k = snprintf(buf + o, len - o, "%s%s %s", a ? ", " : "",
				 e->axis_names[a], e->points[p].values[a]);

		if (k < 0)
			break;
		o += (size_t)k;
	}
}

static const char *mlabel(const struct clyde_exp *e, size_t m)
{
	const struct clyde_exp_metric *mt = &e->metrics[m];

	return mt->label && *mt->label ? mt->label : mt->key;
}

char *clyde_exp_decision_text(char *buf, size_t len, const struct clyde_exp *e,
			      const struct clyde_exp_decision *d, double pct,
			      unsigned max_runs)
{
	char who[256] = "", pv[32];
	bool known = d->metric < e->nmetrics && d->against < e->npoints;

	if (known)
		point_name(who, sizeof(who), e, d->against);
	if (d->p < 0.001)
		snprintf(pv, sizeof(pv), "p < 0.001");
	else
		snprintf(pv, sizeof(pv), "p = %.3f", d->p);
	switch (d->stop) {
	case CLYDE_EXP_STOP_WORSE:
		snprintf(buf, len,
			 "significantly worse than %s for %s (%+.0f%% .. "
			 "%+.0f%%, %s)",
			 who, known ? mlabel(e, d->metric) : "?", d->lo_pct,
			 d->hi_pct, pv);
		break;
	case CLYDE_EXP_STOP_EQUIV:
		snprintf(buf, len,
			 "equivalent to %s within \xc2\xb1%g%% for %s "
			 "(%+.1f%% .. %+.1f%%)",
			 who, pct, known ? mlabel(e, d->metric) : "?",
			 d->lo_pct, d->hi_pct);
		break;
	case CLYDE_EXP_STOP_BEST:
		snprintf(buf, len, "the best; every other point is decided");
		break;
	case CLYDE_EXP_OPEN:
	case CLYDE_EXP_STOP_LIMIT: {
		char head[64];

		if (d->stop == CLYDE_EXP_OPEN)
			snprintf(head, sizeof(head), "open:");
		else
			snprintf(
				head, sizeof(head),
				"max-runs (%u) reached, still open:", max_runs);
		if (!known)
			snprintf(buf, len, "%s", head);
		else if (d->lo_pct == 0 && d->hi_pct == 0)
			snprintf(buf, len, "%s %s against %s (too few samples)",
				 head, mlabel(e, d->metric), who);
		else
			snprintf(buf, len,
				 "%s %s against %s (%+.0f%% .. %+.0f%%)", head,
				 mlabel(e, d->metric), who, d->lo_pct,
				 d->hi_pct);
		break;
	}
	case CLYDE_EXP_STOP_FAILED:
		snprintf(buf, len, "every run failed");
		break;
	default:
		snprintf(buf, len, "no metric with a direction to decide on");
	}
	return buf;
}
