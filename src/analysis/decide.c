/*
 * The one decision rule (see decide.h).
 */
#include "analysis/decide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

struct clyde_decide_rule clyde_decide_rule_default(bool higher_better)
{
	struct clyde_decide_rule r = { higher_better, CLYDE_DECIDE_ALPHA,
				       CLYDE_DECIDE_MARGIN_PCT, false };

	return r;
}

bool clyde_decide_loggable(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
	return true;
}

double *clyde_decide_logs(const double *x, size_t n, double *stack, size_t ns)
{
	double *d = n <= ns ? stack : malloc(n * sizeof(*d));
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < n; i++)
		d[i] = log(x[i]);
	return d;
}

void clyde_decide(const double *a, size_t na, const double *b, size_t nb,
		  const struct clyde_decide_rule *r, struct clyde_decision *d)
{
	double sa[64], sb[64], *la = NULL, *lb = NULL, lo, hi, ref;
	const double *xa = a, *xb = b;
	struct clyde_stats_welch w;

	memset(d, 0, sizeof(*d));
	d->verdict = CLYDE_VERDICT_CANNOT_TELL;
	d->p = 1;
	d->log_scale = !r->raw && clyde_decide_loggable(a, na) &&
		       clyde_decide_loggable(b, nb);
	if (na < 2 || nb < 2)
		return;
	if (d->log_scale) {
		la = clyde_decide_logs(a, na, sa, 64);
		lb = clyde_decide_logs(b, nb, sb, 64);
		if (la && lb) {
			xa = la;
			xb = lb;
		} else {
			d->log_scale = false; /* no memory: raw values */
		}
	}
	d->tested = true;
	/* Welch's diff is mean(a) - mean(b) with b first: a against b. */
	clyde_stats_welch(xb, nb, xa, na, &w);
	d->p = w.p;
	d->worse = r->higher_better ? w.diff < 0 : w.diff > 0;
	if (clyde_stats_diff_ci(xb, nb, xa, na, 1 - r->alpha, &lo, &hi) == 0) {
		if (d->log_scale) {
			d->lo = expm1(lo) * 100;
			d->hi = expm1(hi) * 100;
			d->known = true;
		} else if ((ref = fabs(w.mean_a)) > 0) {
			d->lo = lo / ref * 100;
			d->hi = hi / ref * 100;
			d->known = true;
		}
	}
	d->within = d->known && d->lo >= -r->margin_pct &&
		    d->hi <= r->margin_pct;
	if (d->p < r->alpha)
		d->verdict = d->worse ? CLYDE_VERDICT_WORSE :
					CLYDE_VERDICT_BETTER;
	else if (d->within)
		d->verdict = CLYDE_VERDICT_EQUIVALENT;
	if (la != sa)
		free(la);
	if (lb != sb)
		free(lb);
}

const char *clyde_verdict_name(enum clyde_verdict v)
{
	switch (v) {
	case CLYDE_VERDICT_BETTER:
		return "better";
	case CLYDE_VERDICT_WORSE:
		return "worse";
	case CLYDE_VERDICT_EQUIVALENT:
		return "equivalent";
	case CLYDE_VERDICT_CANNOT_TELL:
		break;
	}
	return "cannot tell";
}
