/*
 * The experiment analysis (see exp_analysis.h): axis order, per-metric
 * statistics against the best point, column units and the sentences.
 *
 * The sentence rules, in the order they are tried for one metric and one
 * group of points (all points when there is one axis; the points sharing
 * the values of the other axes when there are more):
 *  1. fewer than two points with a value: nothing is said; fewer than two
 *     samples at the best point or at the runner-up: no difference can be
 *     tested, and the data cannot tell (one_sample(): "Cannot tell
 *     whether X changes M: a single sample at v and w (n=1): ..."), never
 *     a best;
 *  2. the best differs from the runner-up (Welch p < 0.05): "X v is best
 *     for M: +18% against w, the runner-up (significant, p = ...)";
 *  3. every point has two samples or more and is equivalent to the best
 *     (the 95% interval of the difference inside +-5% of the best's mean):
 *     "X does not change M: every value is within +-5% of the best, b";
 *     when none differs but some are not shown equivalent, the data cannot
 *     tell: "Cannot tell whether X changes M: with n=2 the 95% intervals
 *     are up to +-N%; about K repeats would detect a 10% difference" (K
 *     from clyde_stats_repeats_for(), 80% power);
 *  4. a numeric axis with a plateau: walking from the largest value down
 *     (then from the smallest up) while points are equivalent to the
 *     best, at least two points are passed and the walk stops at a point
 *     that differs significantly: "X v and above does not change M
 *     (within +-5% of the best, b); w is 23% worse (significant, p = ...)";
 *  5. otherwise: "X v is best for M, but not significantly better than w
 *     (+2%, p = 0.41)", followed by the power clause of rule 3.
 * An amount metric (device bytes) gets no sentence: nothing is best.
 * With two axes or more, when rule 2 names different best values in
 * different groups, one more sentence says the best depends on them.
 */
#include "analysis/exp_analysis.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/size.h"
#include "analysis/decide.h"
#include "core/stats.h"

/* ---- axes -------------------------------------------------------------- */

bool clyde_exp_value_number(const char *s, double *out, bool *sized)
{
	uint64_t u;
	char *end;
	double d;

	if (!s || !*s)
		return false;
	if (!clyde_size_parse(s, "kmgt", 10, &u)) {
		*out = (double)u;
		if (sized) {
			size_t l = strlen(s);

			*sized = s[l - 1] < '0' || s[l - 1] > '9';
		}
		return true;
	}
	if ((*s < '0' || *s > '9') && *s != '-' && *s != '.')
		return false;
	errno = 0;
	d = strtod(s, &end);
	if (*end || errno || !isfinite(d))
		return false;
	*out = d;
	if (sized)
		*sized = false;
	return true;
}

int clyde_exp_axis_init(const struct clyde_exp *e, size_t a,
			struct clyde_exp_axis *ax)
{
	size_t i, j;

	memset(ax, 0, sizeof(*ax));
	ax->values = calloc(e->npoints ? e->npoints : 1, sizeof(*ax->values));
	ax->num = calloc(e->npoints ? e->npoints : 1, sizeof(*ax->num));
	if (!ax->values || !ax->num) {
		clyde_exp_axis_release(ax);
		return -ENOMEM;
	}
	for (i = 0; i < e->npoints; i++) {
		const char *v = e->points[i].values[a];

		if (clyde_exp_axis_index(ax, v) == ax->n)
			ax->values[ax->n++] = v;
	}
	ax->numeric = ax->n > 0;
	for (i = 0; i < ax->n && ax->numeric; i++) {
		bool sz = false;

		ax->numeric =
			clyde_exp_value_number(ax->values[i], &ax->num[i], &sz);
		ax->sized |= sz;
	}
	if (!ax->numeric) {
		ax->sized = false;
		return 0;
	}
	/* Insertion sort by value: a handful of values, and stable. */
	for (i = 1; i < ax->n; i++) {
		const char *v = ax->values[i];
		double x = ax->num[i];

		for (j = i; j > 0 && ax->num[j - 1] > x; j--) {
			ax->values[j] = ax->values[j - 1];
			ax->num[j] = ax->num[j - 1];
		}
		ax->values[j] = v;
		ax->num[j] = x;
	}
	ax->log_scale = ax->num[0] > 0 &&
			(ax->sized || ax->num[ax->n - 1] / ax->num[0] >= 10);
	return 0;
}

void clyde_exp_axis_release(struct clyde_exp_axis *ax)
{
	free(ax->values);
	free(ax->num);
	memset(ax, 0, sizeof(*ax));
}

size_t clyde_exp_axis_index(const struct clyde_exp_axis *ax, const char *v)
{
	size_t i;

	for (i = 0; i < ax->n; i++)
		if (!strcmp(ax->values[i], v))
			return i;
	return ax->n;
}

/* ---- statistics -------------------------------------------------------- */

bool clyde_exp_better(const struct clyde_exp_metric *m, double a, double b)
{
	if (m->amount)
		return false;
	return m->higher_better ? a > b : a < b;
}

static bool has_value(const struct clyde_exp *e, size_t p, size_t m)
{
	return !e->points[p].failed && e->points[p].cells[m].n > 0;
}

bool clyde_exp_metric_log(const struct clyde_exp *e, size_t m)
{
	size_t p, i;

	for (p = 0; p < e->npoints; p++) {
		const struct clyde_exp_cell *c = &e->points[p].cells[m];

		if (e->points[p].failed)
			continue;
		for (i = 0; i < c->n; i++)
			if (!(c->samples[i] > 0) || !isfinite(c->samples[i]))
				return false;
	}
	return true;
}

void clyde_exp_compare(const struct clyde_exp *e, size_t m, size_t b, size_t p,
		       double alpha, double margin_pct,
		       struct clyde_decision *d)
{
	const struct clyde_exp_cell *cp = &e->points[p].cells[m];
	const struct clyde_exp_cell *cb = &e->points[b].cells[m];
	struct clyde_decide_rule r = {
		.higher_better = e->metrics[m].higher_better,
		.alpha = alpha,
		.margin_pct = margin_pct,
		.raw = !clyde_exp_metric_log(e, m),
	};

	clyde_decide(cp->samples, cp->n, cb->samples, cb->n, &r, d);
}

/* Are the samples 2x apart or more (the compare table's "disagree")? */
static bool spread_2x(const struct clyde_exp_cell *c)
{
	double lo, hi;
	size_t i;

	if (c->n < 2)
		return false;
	lo = hi = c->samples[0];
	for (i = 1; i < c->n; i++) {
		if (c->samples[i] < lo)
			lo = c->samples[i];
		if (c->samples[i] > hi)
			hi = c->samples[i];
	}
	return lo > 0 ? hi >= 2 * lo : hi > 0 && lo < hi;
}

/* Relation of point p to point b (the best) for metric m: the verdict
 * of the one rule (analysis/decide.h) at 95% and +-CLYDE_EXP_MARGIN.  A
 * point better than the best (on log values; the best is the best plain
 * mean) is not different, or equivalent when within the margin. */
static enum clyde_exp_rel relation(const struct clyde_exp *e, size_t m,
				   size_t p, size_t b, double *pval)
{
	struct clyde_decision c;

	*pval = 1;
	if (p == b)
		return CLYDE_EXP_REL_BEST;
	if (e->metrics[m].amount)
		return CLYDE_EXP_REL_UNTESTED;
	clyde_exp_compare(e, m, b, p, CLYDE_EXP_ALPHA, CLYDE_EXP_MARGIN * 100,
			  &c);
	if (!c.tested)
		return CLYDE_EXP_REL_UNTESTED;
	*pval = c.p;
	if (c.verdict == CLYDE_VERDICT_WORSE)
		return CLYDE_EXP_REL_DIFF;
	return c.within ? CLYDE_EXP_REL_EQUIV : CLYDE_EXP_REL_SAME;
}

/* Not different, or the same for all one can tell? */
static bool alike(enum clyde_exp_rel r)
{
	return r == CLYDE_EXP_REL_SAME || r == CLYDE_EXP_REL_EQUIV;
}

/* The best of the points idx[0..k) for metric m, or SIZE_MAX. */
static size_t best_of(const struct clyde_exp *e, size_t m, const size_t *idx,
		      size_t k, size_t skip)
{
	size_t i, best = SIZE_MAX;
	double bm = 0;

	for (i = 0; i < k; i++) {
		const struct clyde_exp_cell *c = &e->points[idx[i]].cells[m];
		double mean;

		if (idx[i] == skip || !has_value(e, idx[i], m))
			continue;
		mean = clyde_stats_mean(c->samples, c->n);
		if (best == SIZE_MAX ||
		    clyde_exp_better(&e->metrics[m], mean, bm)) {
			best = idx[i];
			bm = mean;
		}
	}
	return best;
}

int clyde_exp_mstat_init(const struct clyde_exp *e, size_t m,
			 struct clyde_exp_mstat *ms)
{
	size_t p, *all;

	memset(ms, 0, sizeof(*ms));
	ms->best = e->npoints;
	ms->runner = e->npoints;
	ms->least = e->npoints;
	ms->npoints = e->npoints;
	ms->log_scale = clyde_exp_metric_log(e, m);
	ms->cells = calloc(e->npoints ? e->npoints : 1, sizeof(*ms->cells));
	all = malloc((e->npoints ? e->npoints : 1) * sizeof(*all));
	if (!ms->cells || !all) {
		free(all);
		clyde_exp_mstat_release(ms);
		return -ENOMEM;
	}
	for (p = 0; p < e->npoints; p++)
		all[p] = p;
	if (!e->metrics[m].amount) {
		p = best_of(e, m, all, e->npoints, SIZE_MAX);
		if (p != SIZE_MAX) {
			ms->best = p;
			p = best_of(e, m, all, e->npoints, ms->best);
			if (p != SIZE_MAX)
				ms->runner = p;
		}
	}
	free(all);
	for (p = 0; p < e->npoints; p++) {
		const struct clyde_exp_cell *c = &e->points[p].cells[m];
		struct clyde_exp_cellstat *s = &ms->cells[p];

		s->p = 1;
		if (!has_value(e, p, m))
			continue;
		ms->nvalid++;
		s->n = c->n;
		s->mean = clyde_stats_mean(c->samples, c->n);
		s->ci95 = clyde_stats_ci_halfwidth(c->samples, c->n, 0.95);
		clyde_stats_log_ci(c->samples, c->n, 0.95, &s->lo, &s->hi);
		s->nimprecise = c->nimprecise;
		s->ndegraded = c->ndegraded;
		s->ninflated = c->ninflated;
		s->disagree = spread_2x(c);
		if (e->metrics[m].amount) {
			s->rel = CLYDE_EXP_REL_UNTESTED;
			if (ms->least == e->npoints ||
			    s->mean < ms->cells[ms->least].mean)
				ms->least = p;
			continue;
		}
		s->rel = relation(e, m, p, ms->best, &s->p);
	}
	if (ms->least < e->npoints)
		for (p = 0; p < e->npoints; p++)
			if (ms->cells[p].n && ms->cells[ms->least].mean > 0)
				ms->cells[p].ratio = ms->cells[p].mean /
						     ms->cells[ms->least].mean;
	ms->clear = ms->best < e->npoints && ms->runner < e->npoints &&
		    ms->cells[ms->best].n >= 2 &&
		    ms->cells[ms->runner].rel == CLYDE_EXP_REL_DIFF;
	return 0;
}

const char *clyde_exp_mark(const struct clyde_exp_mstat *ms, size_t p)
{
	const struct clyde_exp_cellstat *c = &ms->cells[p];
	enum clyde_exp_rel r = c->rel;

	if (r == CLYDE_EXP_REL_BEST) {
		if (ms->clear)
			return "\xe2\x98\x85";
		if (c->n < 2 || ms->runner >= ms->npoints ||
		    !ms->cells[ms->runner].n)
			return "";
		r = ms->cells[ms->runner].rel;
	}
	switch (r) {
	case CLYDE_EXP_REL_SAME:
		return "~";
	case CLYDE_EXP_REL_EQUIV:
		return "=";
	case CLYDE_EXP_REL_DIFF:
		return "*";
	default:
		return "";
	}
}

bool clyde_exp_power(const struct clyde_exp *e, size_t m, const size_t *idx,
		     size_t k, double *wide_pct, double *low_pct, size_t *nmin,
		     size_t *need)
{
	bool lg = clyde_exp_metric_log(e, m);
	double cv = 0, wide = 0, low = 0, effect = CLYDE_EXP_EFFECT;
	size_t i, n = SIZE_MAX;

	for (i = 0; i < k; i++) {
		const struct clyde_exp_cell *c = &e->points[idx[i]].cells[m];
		double mean, sd, h, st[64], *x = NULL, w;

		if (!has_value(e, idx[i], m) || c->n < 2)
			continue;
		if (lg &&
		    (x = clyde_decide_logs(c->samples, c->n, st, 64)) != NULL) {
			/* The spread of log(x); the interval mapped back,
			 * its upper (larger) side. */
			sd = clyde_stats_stddev(x, c->n);
			h = clyde_stats_ci_halfwidth(x, c->n, 0.95);
			w = expm1(h) * 100;
			if (w > wide)
				low = expm1(-h) * 100;
			if (x != st)
				free(x);
		} else {
			mean = fabs(clyde_stats_mean(c->samples, c->n));
			if (mean == 0)
				continue;
			sd = clyde_stats_stddev(c->samples, c->n) / mean;
			h = clyde_stats_ci_halfwidth(c->samples, c->n, 0.95);
			w = h / mean * 100;
			if (w > wide)
				low = -w;
		}
		if (sd > cv)
			cv = sd;
		if (w > wide)
			wide = w;
		if (c->n < n)
			n = c->n;
	}
	if (n == SIZE_MAX)
		return false;
	if (lg)
		effect = log1p(CLYDE_EXP_EFFECT);
	*wide_pct = wide;
	if (low_pct)
		*low_pct = low;
	*nmin = n;
	*need = clyde_stats_repeats_for(cv, effect, CLYDE_EXP_ALPHA, 0.80,
					1000);
	return true;
}

void clyde_exp_mstat_release(struct clyde_exp_mstat *ms)
{
	free(ms->cells);
	memset(ms, 0, sizeof(*ms));
}

/* ---- selection --------------------------------------------------------- */

static size_t metric_index(const struct clyde_exp *e, const char *k, size_t l)
{
	size_t i;

	for (i = 0; i < e->nmetrics; i++)
		if (strlen(e->metrics[i].key) == l &&
		    !memcmp(e->metrics[i].key, k, l))
			return i;
	return e->nmetrics;
}

int clyde_exp_select(struct clyde_ctx *ctx, struct clyde_exp *e,
		     const char *keys)
{
	size_t *pick, npick = 0, i, j, p;
	struct clyde_exp_cell **keeps;
	struct clyde_exp_metric *nm;
	const char *s = keys;

	if (!keys || !*keys || !strcmp(keys, "all"))
		return 0;
	pick = calloc(e->nmetrics + 1, sizeof(*pick));
	if (!pick)
		return -ENOMEM;
	while (*s) {
		const char *k, *end;
		size_t l, m;

		while (*s == ' ' || *s == ',')
			s++;
		if (!*s)
			break;
		k = s;
		end = strchr(s, ',');
		if (!end)
			end = s + strlen(s);
		s = end;
		while (end > k && end[-1] == ' ')
			end--;
		l = (size_t)(end - k);
		m = metric_index(e, k, l);
		for (j = 0; m < e->nmetrics && j < npick; j++)
			if (pick[j] == m)
				break;
		if (m == e->nmetrics || j < npick) {
			free(pick);
			return clyde_err(ctx, EINVAL, "metric \"%.*s\": %s",
					 (int)l, k,
					 m == e->nmetrics ?
						 "not in the experiment" :
						 "given twice");
		}
		pick[npick++] = m;
	}
	if (!npick) {
		free(pick);
		return 0;
	}
	/* Allocate everything first, so that a failure leaves e as it was. */
	nm = calloc(npick, sizeof(*nm));
	keeps = calloc(e->npoints ? e->npoints : 1, sizeof(*keeps));
	for (p = 0; nm && keeps && p < e->npoints; p++)
		if (!(keeps[p] = calloc(npick, sizeof(**keeps))))
			break;
	if (!nm || !keeps || p < e->npoints) {
		for (i = 0; keeps && i < e->npoints; i++)
			free(keeps[i]);
		free(keeps);
		free(nm);
		free(pick);
		return -ENOMEM;
	}
	for (p = 0; p < e->npoints; p++) {
		struct clyde_exp_cell *c = e->points[p].cells;

		for (i = 0; i < npick; i++) {
			keeps[p][i] = c[pick[i]];
			c[pick[i]].samples = NULL;
		}
		for (i = 0; i < e->nmetrics; i++)
			free(c[i].samples);
		free(c);
		e->points[p].cells = keeps[p];
	}
	free(keeps);
	for (i = 0; i < npick; i++) {
		nm[i] = e->metrics[pick[i]];
		e->metrics[pick[i]].key = NULL;
		e->metrics[pick[i]].label = NULL;
		e->metrics[pick[i]].unit = NULL;
	}
	for (i = 0; i < e->nmetrics; i++) {
		free(e->metrics[i].key);
		free(e->metrics[i].label);
		free(e->metrics[i].unit);
	}
	free(e->metrics);
	e->metrics = nm;
	e->nmetrics = npick;
	free(pick);
	return 0;
}

/* ---- units and numbers ------------------------------------------------- */

static int decimals(double ref)
{
	double a = fabs(ref);

	if (a >= 1000)
		return 0;
	if (a >= 100)
		return 1;
	if (a >= 10 || a == 0)
		return 2;
	if (a >= 1)
		return 3;
	return 4;
}

void clyde_exp_unit_choose(const struct clyde_exp_metric *m, double maxabs,
			   struct clyde_exp_unit *u)
{
	const char *unit = m->unit ? m->unit : "";

	u->name = unit;
	u->div = 1;
	u->dec = 0;
	if (!strcmp(unit, "B")) {
		if (maxabs >= 1024.0 * 1024 * 1024 * 10)
			*u = (struct clyde_exp_unit){ "GiB", 1073741824.0, 0 };
		else if (maxabs >= 1024.0 * 1024)
			*u = (struct clyde_exp_unit){ "MiB", 1048576.0, 0 };
		else if (maxabs >= 1024.0)
			*u = (struct clyde_exp_unit){ "KiB", 1024.0, 0 };
	} else if (!strcmp(unit, "B/s")) {
		if (maxabs >= 1024.0 * 1024 * 1024 * 10)
			*u = (struct clyde_exp_unit){ "GiB/s", 1073741824.0,
						      0 };
		else if (maxabs >= 1024.0 * 1024)
			*u = (struct clyde_exp_unit){ "MiB/s", 1048576.0, 0 };
		else if (maxabs >= 1024.0)
			*u = (struct clyde_exp_unit){ "KiB/s", 1024.0, 0 };
	} else if (!strcmp(unit, "s")) {
		if (maxabs < 1)
			*u = (struct clyde_exp_unit){ "ms", 1e-3, 0 };
	} else if (!strcmp(unit, "ns")) {
		if (maxabs >= 1e9)
			*u = (struct clyde_exp_unit){ "s", 1e9, 0 };
		else if (maxabs >= 1e6)
			*u = (struct clyde_exp_unit){ "ms", 1e6, 0 };
		else if (maxabs >= 1e3)
			*u = (struct clyde_exp_unit){ "us", 1e3, 0 };
	} else if (!strcmp(unit, "ops/s") && m->key) {
		if (strstr(m->key, "seek"))
			u->name = "seeks/s";
		else if (strstr(m->key, "create") || strstr(m->key, "delete") ||
			 strstr(m->key, "stat"))
			u->name = "files/s";
	}
	u->dec = decimals(maxabs / u->div);
}

void clyde_exp_unit_for(const struct clyde_exp_metric *m,
			const struct clyde_exp_mstat *ms, size_t npoints,
			struct clyde_exp_unit *u)
{
	double max = 0;
	size_t p;

	for (p = 0; p < npoints; p++)
		if (ms->cells[p].n && fabs(ms->cells[p].mean) > max)
			max = fabs(ms->cells[p].mean);
	clyde_exp_unit_choose(m, max, u);
}

void clyde_exp_num(char *buf, size_t len, double v,
		   const struct clyde_exp_unit *u)
{
	snprintf(buf, len, "%.*f", u->dec, v);
}

/* ---- sentences --------------------------------------------------------- */

/* A growing string; on allocation failure `oom` is set and text dropped. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

__attribute__((format(printf, 2, 3))) static void sb_add(struct sbuf *b,
							 const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->len + (size_t)n + 1) * 2;
		char *s = realloc(b->s, cap);

		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

struct sentences {
	char **s;
	size_t n, cap;
	bool oom;
};

static void emit(struct sentences *out, struct sbuf *b)
{
	if (b->oom || out->oom) {
		free(b->s);
		out->oom = true;
	} else {
		if (out->n == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 8;
			char **s = realloc(out->s, cap * sizeof(*s));

			if (!s) {
				free(b->s);
				out->oom = true;
				memset(b, 0, sizeof(*b));
				return;
			}
			out->s = s;
			out->cap = cap;
		}
		out->s[out->n++] = b->s;
	}
	memset(b, 0, sizeof(*b));
}

static void p_text(struct sbuf *b, double p)
{
	if (p < 0.001)
		sb_add(b, "p < 0.001");
	else
		sb_add(b, "p = %.3f", p);
}

static double mean_of(const struct clyde_exp *e, size_t p, size_t m)
{
	const struct clyde_exp_cell *c = &e->points[p].cells[m];

	return clyde_stats_mean(c->samples, c->n);
}

/* The change of point a against point b for metric m, in percent. */
static double pct(const struct clyde_exp *e, size_t m, size_t a, size_t b)
{
	double ma = mean_of(e, a, m), mb = mean_of(e, b, m);

	return mb != 0 ? (ma - mb) / fabs(mb) * 100 : 0;
}

static void prefix(struct sbuf *b, const struct clyde_exp *e, size_t p)
{
	size_t a;

	if (e->naxes < 2)
		return;
	sb_add(b, "With ");
	for (a = 1; a < e->naxes; a++)
		sb_add(b, "%s%s %s", a > 1 ? ", " : "", e->axis_names[a],
		       e->points[p].values[a]);
	sb_add(b, ", ");
}

/* The metric's name in a sentence: its label, else its key. */
static const char *mname(const struct clyde_exp_metric *m)
{
	return m->label && *m->label ? m->label : m->key;
}

/*
 * Try rule 4 (the plateau) on points idx[0..k), sorted by axis 0, for
 * metric m with best point `best`.  Returns true when a sentence was
 * written.
 */
static bool plateau(const struct clyde_exp *e, size_t m, const size_t *idx,
		    size_t k, size_t best, struct sbuf *b)
{
	int dir;

	for (dir = 0; dir < 2; dir++) {
		size_t i, len = 0, stop = SIZE_MAX, edge = SIZE_MAX;
		double pv = 1;

		for (i = 0; i < k; i++) {
			size_t q = idx[dir ? i : k - 1 - i];
			enum clyde_exp_rel r;

			if (!has_value(e, q, m))
				continue; /* failed: neither in nor out */
			r = relation(e, m, q, best, &pv);

			if (r == CLYDE_EXP_REL_BEST ||
			    r == CLYDE_EXP_REL_EQUIV) {
				/* The best itself counts only with repeats. */
				if (r == CLYDE_EXP_REL_BEST &&
				    e->points[q].cells[m].n < 2)
					break;
				edge = q;
				len++;
				continue;
			}
			if (r == CLYDE_EXP_REL_DIFF)
				stop = q;
			break;
		}
		if (len < 2 || stop == SIZE_MAX)
			continue;
		sb_add(b,
		       "%s %s and %s does not change %s (within "
		       "\xc2\xb1%.0f%% of the best, %s); %s %s is %.0f%% "
		       "worse (significant, ",
		       e->axis_names[0], e->points[edge].values[0],
		       dir ? "below" : "above", mname(&e->metrics[m]),
		       CLYDE_EXP_MARGIN * 100, e->points[best].values[0],
		       e->axis_names[0], e->points[stop].values[0],
		       fabs(pct(e, m, stop, best)));
		p_text(b, pv);
		sb_add(b, ").");
		return true;
	}
	return false;
}

/* The end of a sentence that could not decide: ": with n=2 the 95%
 * intervals are +-N%; about K repeats would detect a 10% difference." */
static void power_clause(struct sbuf *b, const struct clyde_exp *e, size_t m,
			 const size_t *idx, size_t k)
{
	double wide, low;
	size_t n, need;

	if (!clyde_exp_power(e, m, idx, k, &wide, &low, &n, &need)) {
		sb_add(b, ".");
		return;
	}
	/* On the log scale the interval is asymmetric: both sides. */
	if (clyde_exp_metric_log(e, m))
		sb_add(b,
		       ": with n=%zu the 95%% intervals are up to %.0f%% .. "
		       "+%.0f%%; ",
		       n, low, wide);
	else
		sb_add(b,
		       ": with n=%zu the 95%% intervals are up to "
		       "\xc2\xb1%.0f%%; ",
		       n, wide);
	if (need > 1000)
		sb_add(b, "more than 1000 repeats");
	else
		sb_add(b, "about %zu repeats", need);
	sb_add(b, " would detect a %.0f%% difference.", CLYDE_EXP_EFFECT * 100);
}

/* Rule 1's sentence when the best or the runner-up has a single sample:
 * nothing is tested on one, so neither is named best.  The points of the
 * group with a single sample are listed. */
static void one_sample(struct sbuf *b, const struct clyde_exp *e, size_t m,
		       const size_t *idx, size_t k)
{
	size_t i, n1 = 0, j = 0;

	for (i = 0; i < k; i++)
		n1 += has_value(e, idx[i], m) &&
		      e->points[idx[i]].cells[m].n == 1;
	sb_add(b, "%cannot tell whether %s changes %s: a single sample at ",
	       e->naxes >= 2 ? 'c' : 'C', e->axis_names[0],
	       mname(&e->metrics[m]));
	for (i = 0; i < k; i++) {
		if (!has_value(e, idx[i], m) ||
		    e->points[idx[i]].cells[m].n != 1)
			continue;
		j++;
		sb_add(b, "%s%s",
		       j == 1  ? "" :
		       j == n1 ? " and " :
				 ", ",
		       e->points[idx[i]].values[0]);
	}
	sb_add(b, " (n=1): no difference is tested without two samples at "
		  "each point (repeat = 2 or more).");
}

/* Rules 1-5 for metric m over the points idx[0..k) (sorted by axis 0).
 * Returns the best point when rule 2 applied, else SIZE_MAX. */
static size_t group_sentence(const struct clyde_exp *e, size_t m,
			     const size_t *idx, size_t k, bool numeric,
			     struct sentences *out)
{
	const struct clyde_exp_metric *mt = &e->metrics[m];
	size_t best, runner, i, nsame = 0, nequiv = 0, nvalid = 0;
	struct sbuf b = { 0 };
	double p;

	if (mt->amount)
		return SIZE_MAX; /* no direction: nothing is better */
	best = best_of(e, m, idx, k, SIZE_MAX);
	if (best == SIZE_MAX)
		return SIZE_MAX;
	runner = best_of(e, m, idx, k, best);
	if (runner == SIZE_MAX)
		return SIZE_MAX;
	prefix(&b, e, best);
	if (e->points[best].cells[m].n < 2 ||
	    e->points[runner].cells[m].n < 2) {
		one_sample(&b, e, m, idx, k);
		emit(out, &b);
		return SIZE_MAX;
	}
	if (relation(e, m, runner, best, &p) == CLYDE_EXP_REL_DIFF) {
		sb_add(&b,
		       "%s %s is best for %s: %+.0f%% against %s, the "
		       "runner-up (significant, ",
		       e->axis_names[0], e->points[best].values[0], mname(mt),
		       pct(e, m, best, runner), e->points[runner].values[0]);
		p_text(&b, p);
		sb_add(&b, ").");
		emit(out, &b);
		return best;
	}
	for (i = 0; i < k; i++) {
		enum clyde_exp_rel r;
		double q;

		if (!has_value(e, idx[i], m))
			continue;
		nvalid++;
		r = relation(e, m, idx[i], best, &q);
		if (e->points[idx[i]].cells[m].n >= 2 &&
		    (r == CLYDE_EXP_REL_BEST || alike(r)))
			nsame++;
		if (e->points[idx[i]].cells[m].n >= 2 &&
		    (r == CLYDE_EXP_REL_BEST || r == CLYDE_EXP_REL_EQUIV))
			nequiv++;
	}
	if (nequiv == nvalid) {
		sb_add(&b,
		       "%s does not change %s: every value is within "
		       "\xc2\xb1%.0f%% of the best, %s (the 95%% interval of "
		       "each difference lies inside the margin).",
		       e->axis_names[0], mname(mt), CLYDE_EXP_MARGIN * 100,
		       e->points[best].values[0]);
	} else if (nsame == nvalid) {
		sb_add(&b, "%cannot tell whether %s changes %s",
		       e->naxes >= 2 ? 'c' : 'C', e->axis_names[0], mname(mt));
		power_clause(&b, e, m, idx, k);
	} else if (!(numeric && plateau(e, m, idx, k, best, &b))) {
		sb_add(&b,
		       "%s %s is best for %s, but not significantly "
		       "better than %s (%+.0f%%, ",
		       e->axis_names[0], e->points[best].values[0], mname(mt),
		       e->points[runner].values[0], pct(e, m, best, runner));
		p_text(&b, p);
		sb_add(&b, ")");
		power_clause(&b, e, m, idx, k);
	}
	emit(out, &b);
	return SIZE_MAX;
}

/* Do points p and q share the values of every axis but the first? */
static bool same_group(const struct clyde_exp *e, size_t p, size_t q)
{
	size_t a;

	for (a = 1; a < e->naxes; a++)
		if (strcmp(e->points[p].values[a], e->points[q].values[a]))
			return false;
	return true;
}

int clyde_exp_sentences(const struct clyde_exp *e, char ***out, size_t *n)
{
	struct sentences s = { 0 };
	struct clyde_exp_axis ax;
	size_t *idx = NULL, *lead = NULL, *bests = NULL, m, p, i, g, ng;

	*out = NULL;
	*n = 0;
	if (!e->naxes || !e->npoints)
		return 0;
	if (clyde_exp_axis_init(e, 0, &ax) < 0)
		return -ENOMEM;
	idx = calloc(e->npoints, sizeof(*idx));
	lead = calloc(e->npoints, sizeof(*lead));
	bests = calloc(e->npoints, sizeof(*bests));
	if (!idx || !lead || !bests) {
		s.oom = true;
		goto out;
	}
	/* The groups: the first point of each set of points sharing the
	 * other axes' values, in file order. */
	for (ng = 0, p = 0; p < e->npoints; p++) {
		for (g = 0; g < ng; g++)
			if (same_group(e, lead[g], p))
				break;
		if (g == ng)
			lead[ng++] = p;
	}
	for (m = 0; m < e->nmetrics && !s.oom; m++) {
		size_t nbest = 0, first = SIZE_MAX;
		bool differ = false;
		struct sbuf b = { 0 };

		for (g = 0; g < ng; g++) {
			size_t k = 0, v, best;

			/* The group's points in axis order. */
			for (v = 0; v < ax.n; v++)
				for (p = 0; p < e->npoints; p++)
					if (same_group(e, lead[g], p) &&
					    !strcmp(e->points[p].values[0],
						    ax.values[v]))
						idx[k++] = p;
			best = group_sentence(e, m, idx, k, ax.numeric, &s);
			if (best == SIZE_MAX)
				continue;
			bests[nbest++] = best;
			if (first == SIZE_MAX)
				first = best;
			else if (strcmp(e->points[first].values[0],
					e->points[best].values[0]))
				differ = true;
		}
		if (!differ)
			continue;
		sb_add(&b, "The best %s for %s depends on ", e->axis_names[0],
		       mname(&e->metrics[m]));
		for (i = 1; i < e->naxes; i++)
			sb_add(&b, "%s%s", i > 1 ? " and " : "",
			       e->axis_names[i]);
		sb_add(&b, ":");
		for (i = 0; i < nbest; i++) {
			size_t a, q = bests[i];

			sb_add(&b, "%s %s with", i ? "," : "",
			       e->points[q].values[0]);
			for (a = 1; a < e->naxes; a++)
				sb_add(&b, "%s %s %s", a > 1 ? "," : "",
				       e->axis_names[a],
				       e->points[q].values[a]);
		}
		sb_add(&b, ".");
		emit(&s, &b);
	}
out:
	free(idx);
	free(lead);
	free(bests);
	clyde_exp_axis_release(&ax);
	if (s.oom) {
		clyde_exp_sentences_free(s.s, s.n);
		return -ENOMEM;
	}
	*out = s.s;
	*n = s.n;
	return 0;
}

void clyde_exp_sentences_free(char **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

/* The default columns: every metric but a timed command's CPU seconds and
 * device bytes (the bonnie++ and tree rates, the timed seconds). */
static bool default_metric(const char *key)
{
	static const char *const extra[] = { ".cpu", ".read_bytes",
					     ".write_bytes" };
	size_t n = strlen(key);

	if (strncmp(key, "time.", 5))
		return true;
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		size_t l = strlen(extra[i]);

		if (n > l && !strcmp(key + n - l, extra[i]))
			return false;
	}
	return true;
}

int clyde_exp_select_columns(struct clyde_ctx *ctx, struct clyde_exp *e,
			     const char *metrics)
{
	char *keys;
	size_t len = 1;
	int rc;

	if (metrics && !strcmp(metrics, "all"))
		return 0;
	if (metrics)
		return clyde_exp_select(ctx, e, metrics);
	for (size_t m = 0; m < e->nmetrics; m++)
		len += strlen(e->metrics[m].key) + 1;
	keys = calloc(1, len);
	if (!keys)
		return clyde_err(ctx, ENOMEM, "experiment %s", e->id);
	for (size_t m = 0; m < e->nmetrics; m++) {
		if (!default_metric(e->metrics[m].key))
			continue;
		if (*keys)
			strcat(keys, ",");
		strcat(keys, e->metrics[m].key);
	}
	/* An experiment with nothing measured yet keeps its (no) columns. */
	rc = *keys ? clyde_exp_select(ctx, e, keys) : 0;
	free(keys);
	return rc;
}
