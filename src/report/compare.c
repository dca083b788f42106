/*
 * The compare table (see compare.h): building the model from loaded runs.
 *
 * The model holds every decision (which rows, which unit, which runs are
 * comparable, which cell is best, spread, changes, significance); the
 * writers (compare_text.c, compare_csv.c, html.c) only lay it out, so the
 * formats cannot disagree.
 */
#include "report/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "analysis/decide.h"
#include "core/stats.h"
#include "core/strmap.h"
#include "results/format.h"

const char *clyde_cmp_metric_name(enum clyde_cmp_metric m)
{
	switch (m) {
	case CLYDE_CMP_RATE:
		return "rate";
	case CLYDE_CMP_CPU:
		return "cpu";
	case CLYDE_CMP_LAT_MAX:
		return "latency max";
	case CLYDE_CMP_LAT_P99:
		return "latency p99";
	}
	return "?";
}

void clyde_compare_release(struct clyde_compare *cmp)
{
	size_t i;

	if (cmp->labels)
		for (i = 0; i < cmp->ncols; i++)
			free(cmp->labels[i]);
	free(cmp->labels);
	free(cmp->runs);
	for (i = 0; i < cmp->nrows; i++)
		free(cmp->rows[i].cells);
	free(cmp->rows);
	for (i = 0; i < CLYDE_SCOPE_COUNT; i++) {
		free(cmp->scopes[i].cls);
		free(cmp->scopes[i].in);
	}
	memset(cmp, 0, sizeof(*cmp));
}

/* Labels: the caller's, else the run's name, else "run<N>"; a label seen
 * before gets "#2", "#3", ... (the first free one).  `taken` holds the
 * labels so far; `next` per base the number after the last one tried
 * (those before it are all taken, and labels are never given back), so
 * that a thousand runs named "vm" take a thousand look-ups, not a
 * million. */
static int make_labels(struct clyde_compare *cmp,
		       const struct clyde_compare_opts *o)
{
	struct clyde_strmap taken, next;
	int rc = 0;

	clyde_strmap_init(&taken);
	clyde_strmap_init(&next);
	for (size_t i = 0; i < cmp->ncols && !rc; i++) {
		const char *base = i < o->nlabels ? o->labels[i] :
						    cmp->runs[i]->label;
		const char *stem = base && base[0] ? base : "run";
		char *l = NULL;
		size_t *k = NULL;

		if (!base || !base[0]) {
			if (asprintf(&l, "run%zu", i + 1) < 0)
				l = NULL;
		} else {
			l = strdup(base);
		}
		if (!l || clyde_strmap_put(&next, stem, 2, &k) < 0) {
			free(l);
			rc = -ENOMEM;
			break;
		}
		while (clyde_strmap_get(&taken, l)) {
			free(l);
			if (asprintf(&l, "%s#%zu", stem, (*k)++) < 0) {
				l = NULL;
				break;
			}
		}
		if (!l || clyde_strmap_put(&taken, l, i, NULL) < 0) {
			free(l);
			rc = -ENOMEM;
			break;
		}
		cmp->labels[i] = l;
	}
	clyde_strmap_release(&taken);
	clyde_strmap_release(&next);
	return rc;
}

/* What building the table keeps besides the table: per column its tests
 * sorted by name (find_test), the first column of the runs made alike
 * with it (runs_identical) and room for one row's groups of those. */
struct build {
	const struct clyde_loaded_test ***tests; /* ncols, each ntests */
	size_t *alike; /* ncols: a column, or NOT_ALIKE */
	size_t *first, *n;
	double *lo, *hi;
	/* build_orders: per scope (the last: no scope) the columns by
	 * settings group, and where each group starts in it. */
	size_t *order[CLYDE_SCOPE_COUNT + 1], *start[CLYDE_SCOPE_COUNT + 1];
	size_t rows_cap;
};

#define NOT_ALIKE ((size_t)-1)

static int by_test_name(const void *a, const void *b)
{
	const struct clyde_loaded_test *x =
		*(const struct clyde_loaded_test *const *)a;
	const struct clyde_loaded_test *y =
		*(const struct clyde_loaded_test *const *)b;
	int c = strcmp(x->name, y->name);

	/* Of two tests of one name the earlier comes first, as a search in
	 * order would find it. */
	return c ? c : (x > y) - (x < y);
}

/* The run of column col's test called name (the first of that name), by
 * a binary search of its sorted tests. */
static const struct clyde_loaded_test *
find_test(const struct build *b, size_t col, const char *name,
	  const struct clyde_compare *cmp)
{
	const struct clyde_loaded_test **t = b->tests[col];
	size_t lo = 0, hi = cmp->runs[col]->ntests;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cmp->runs[col]->ntests && !strcmp(t[lo]->name, name) ?
		       t[lo] :
		       NULL;
}

/* '%zu:' and s appended to *sig: strings joined so that no two lists
 * give the same text.  Returns 0 or -ENOMEM. */
static int sig_add(FILE *sig, const char *s)
{
	return fprintf(sig, "%zu:%s", strlen(s), s) < 0 ? -ENOMEM : 0;
}

static int by_kv(const void *a, const void *b)
{
	const struct clyde_loaded_kv *x =
		*(const struct clyde_loaded_kv *const *)a;
	const struct clyde_loaded_kv *y =
		*(const struct clyde_loaded_kv *const *)b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->value, y->value);
}

/*
 * The text of everything run r recorded, its settings sorted by key, in
 * *out (owned by the caller): two runs are made alike (every recorded
 * setting the same, a key one of them lacks a difference) exactly when
 * their texts are equal.  *out is NULL for a run never alike to any
 * other: a setting without a value, or a key with two values.  Keys that
 * do not change the measurement (settings.h) are left out.
 */
static int run_text(const struct clyde_loaded_run *r, char **out)
{
	const struct clyde_loaded_kv **kv;
	char *text = NULL;
	size_t len = 0, i, n = 0;
	FILE *f;
	int rc = 0;

	*out = NULL;
	for (i = 0; i < r->nkv; i++)
		if (!r->kv[i].value)
			return 0;
	kv = calloc(r->nkv + 1, sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	for (i = 0; i < r->nkv; i++)
		if (!clyde_setting_not_measured(r->kv[i].key))
			kv[n++] = &r->kv[i];
	qsort(kv, n, sizeof(*kv), by_kv);
	f = open_memstream(&text, &len);
	if (!f) {
		free(kv);
		return -ENOMEM;
	}
	for (i = 0; i < n && !rc; i++) {
		if (i && !strcmp(kv[i]->key, kv[i - 1]->key)) {
			if (strcmp(kv[i]->value, kv[i - 1]->value))
				break; /* two values: alike to nothing */
			continue;
		}
		rc = sig_add(f, kv[i]->key);
		if (!rc)
			rc = sig_add(f, kv[i]->value);
	}
	if (fclose(f) || !text)
		rc = -ENOMEM;
	if (!rc && i == n)
		*out = text;
	else
		free(text);
	free(kv);
	return rc;
}

static void build_release(struct build *b, size_t ncols)
{
	if (b->tests)
		for (size_t i = 0; i < ncols; i++)
			free(b->tests[i]);
	free(b->tests);
	free(b->alike);
	free(b->first);
	free(b->n);
	free(b->lo);
	free(b->hi);
	for (size_t s = 0; s <= CLYDE_SCOPE_COUNT; s++) {
		free(b->order[s]);
		free(b->start[s]);
	}
}

/* Sort each column's tests and group the columns made alike. */
static int build_init(struct build *b, const struct clyde_compare *cmp)
{
	struct clyde_strmap alike;
	size_t nc = cmp->ncols;
	int rc = 0;

	memset(b, 0, sizeof(*b));
	b->tests = calloc(nc, sizeof(*b->tests));
	b->alike = calloc(nc, sizeof(*b->alike));
	b->first = calloc(nc, sizeof(*b->first));
	b->n = calloc(nc, sizeof(*b->n));
	b->lo = calloc(nc, sizeof(*b->lo));
	b->hi = calloc(nc, sizeof(*b->hi));
	if (!b->tests || !b->alike || !b->first || !b->n || !b->lo || !b->hi)
		return -ENOMEM;
	for (size_t c = 0; c < nc; c++) {
		const struct clyde_loaded_run *r = cmp->runs[c];

		b->tests[c] = calloc(r->ntests + 1, sizeof(*b->tests[c]));
		if (!b->tests[c])
			return -ENOMEM;
		for (size_t j = 0; j < r->ntests; j++)
			b->tests[c][j] = &r->tests[j];
		qsort(b->tests[c], r->ntests, sizeof(*b->tests[c]),
		      by_test_name);
	}
	clyde_strmap_init(&alike);
	for (size_t c = 0; c < nc && !rc; c++) {
		char *text;
		size_t *first;

		rc = run_text(cmp->runs[c], &text);
		b->alike[c] = NOT_ALIKE;
		if (rc || !text)
			continue;
		rc = clyde_strmap_put(&alike, text, c, &first);
		if (rc >= 0) {
			b->alike[c] = *first;
			rc = 0;
		}
		free(text);
	}
	clyde_strmap_release(&alike);
	return rc;
}

/* Fill one cell of a row from a run's test (NULL: the run lacks it). */
static void fill_cell(struct clyde_cmp_cell *c, enum clyde_cmp_metric m,
		      const struct clyde_loaded_test *t)
{
	bool known = false;
	double v = 0;

	memset(c, 0, sizeof(*c));
	if (!t)
		return;
	c->n = t->nsamples ? t->nsamples : 1;
	c->flags = t->flags;
	switch (m) {
	case CLYDE_CMP_RATE:
		c->state = t->state;
		if (t->has_rate && (t->state == CLYDE_LOADED_VALUE ||
				    t->state == CLYDE_LOADED_TOO_FAST)) {
			c->has_value = true;
			c->value = t->rate;
		}
		if (c->has_value && t->nsamples >= 2) {
			c->ci95 = clyde_stats_ci_halfwidth(t->samples,
							   t->nsamples, 0.95);
			if (!isfinite(c->ci95))
				c->ci95 = 0;
			c->disagree = clyde_loaded_test_disagree(t, NULL, NULL);
		}
		return;
	case CLYDE_CMP_CPU:
		known = t->has_cpu;
		v = t->cpu_pct;
		break;
	case CLYDE_CMP_LAT_MAX:
		known = t->has_latency_max;
		v = (double)t->latency_max_ns;
		break;
	case CLYDE_CMP_LAT_P99:
		known = t->has_latency;
		v = (double)t->latency.p99_ns;
		break;
	}
	if (known && t->state != CLYDE_LOADED_NOT_RUN &&
	    t->state != CLYDE_LOADED_SKIPPED) {
		c->state = CLYDE_LOADED_VALUE;
		c->has_value = true;
		c->value = v;
	} else if (t->state == CLYDE_LOADED_SKIPPED ||
		   (m == CLYDE_CMP_CPU && t->state == CLYDE_LOADED_TOO_FAST)) {
		/* bonnie++ writes "+++" for the CPU of a test too fast to
		 * time; a latency it did not record is simply unknown. */
		c->state = t->state;
	}
}

/* The shown unit (compare.h): rates by the row's largest value, latency
 * cells each their own (the row's unit stays ""); whole when every value
 * is a whole number in the shown unit. */
static void choose_unit(struct clyde_cmp_row *row, size_t ncols)
{
	double max = 0;
	size_t i;

	for (i = 0; i < ncols; i++)
		if (row->cells[i].has_value && row->cells[i].value > max)
			max = row->cells[i].value;
	row->divisor = 1;
	if (!strcmp(row->base_unit, "ns"))
		row->unit[0] = '\0';
	else
		snprintf(row->unit, sizeof(row->unit), "%s",
			 clyde_fmt_pick_unit(row->base_unit, max,
					     &row->divisor));
	row->whole = row->metric == CLYDE_CMP_CPU;
	if (row->metric != CLYDE_CMP_RATE)
		return;
	row->whole = true;
	for (i = 0; i < ncols; i++) {
		double v = row->cells[i].value / row->divisor;

		if (row->cells[i].has_value && v != floor(v))
			row->whole = false;
	}
}

/* A value at display precision, for telling ties: the cell's text, but
 * rates always with their decimals (a whole 100 and 100.0 are a tie). */
static void tie_text(char *buf, size_t len, const struct clyde_cmp_row *row,
		     const struct clyde_cmp_cell *c)
{
	if (row->metric == CLYDE_CMP_RATE)
		clyde_fmt_readable(buf, len, c->value / row->divisor, false);
	else
		clyde_compare_cell_text(buf, len, row, c);
}

/* Does cell c of a row take part in ranking?  A measured value, or a
 * rate that ran under 0.5 s but has its number (imprecise, marked "~"
 * where it shows, yet ranked and shaded by its value). */
static bool ranked(const struct clyde_cmp_row *row,
		   const struct clyde_cmp_cell *c)
{
	return c->has_value && !c->unranked &&
	       (c->state == CLYDE_LOADED_VALUE ||
		(row->metric == CLYDE_CMP_RATE &&
		 c->state == CLYDE_LOADED_TOO_FAST));
}

/* The repeats of column col in a rate row (*x, returns how many; 0 for
 * other rows or a run without the test). */
static size_t repeats_of(const struct clyde_compare *cmp,
			 const struct build *bd,
			 const struct clyde_cmp_row *row, size_t col,
			 const double **x)
{
	const struct clyde_loaded_test *t;

	*x = NULL;
	if (row->metric != CLYDE_CMP_RATE)
		return 0;
	t = find_test(bd, col, row->test, cmp);
	if (!t)
		return 0;
	*x = t->samples;
	return t->nsamples;
}

/* Decide column a against column b of a rate row by the one rule
 * (analysis/decide.h, the tables' level and margin).  False, with d
 * untouched, when either has fewer than two repeats. */
static bool decide_cols(const struct clyde_compare *cmp, const struct build *bd,
			const struct clyde_cmp_row *row, size_t a, size_t b,
			struct clyde_decision *d)
{
	struct clyde_decide_rule r =
		clyde_decide_rule_default(row->higher_better);
	const double *xa, *xb;
	size_t na = repeats_of(cmp, bd, row, a, &xa);
	size_t nb = repeats_of(cmp, bd, row, b, &xb);

	if (na < 2 || nb < 2)
		return false;
	clyde_decide(xa, na, xb, nb, &r, d);
	return true;
}

/*
 * Mark the best value(s) of each settings group of a row, only when there
 * is a choice (two ranked cells that do not show alike).  CPU rows get no
 * mark (compare.h).  The best is the best value (the mean of the
 * repeats).  When it and the runner-up both have repeats, the one rule
 * (analysis/decide.h) decides every cell with repeats against it: the
 * best is marked alone when every one of them is worse; otherwise each
 * that is not worse is marked too (a tie: equivalent, or the data cannot
 * tell), and the best itself is not marked when one is better than it
 * (on log values; the rule's centre is not the plain mean), so that no
 * mark points at a configuration the rule calls worse.  When the best or
 * the runner-up has a single sample the marks are by value only (values
 * that show alike are marked alike), and best_by_value says so.
 */
static void mark_best(struct clyde_compare *cmp, const struct build *bd,
		      struct clyde_cmp_row *row, const size_t *cols,
		      size_t ncls)
{
	char text[64], best_text[64] = "", first[64] = "";
	size_t ncols = cmp->ncols, i, j, n = 0, bi = 0, ri = ncols;
	bool differ = false, tie = false, by_value, beaten = false;
	bool clean = false, flagged = false;
	const double *x;

	if (row->metric == CLYDE_CMP_CPU)
		return;
	/* A flagged figure (memory, busy, degraded, cache: compare.h) is
	 * ranked only when every ranked figure of the group is flagged. */
	for (j = 0; j < ncls; j++) {
		const struct clyde_cmp_cell *c = &row->cells[cols[j]];

		if (ranked(row, c)) {
			clean |= !c->flags;
			flagged |= c->flags != 0;
		}
	}
	if (clean && flagged) {
		for (j = 0; j < ncls; j++) {
			struct clyde_cmp_cell *c = &row->cells[cols[j]];

			if (ranked(row, c) && c->flags)
				c->unranked = true;
		}
		cmp->any_unranked = true;
	}
	for (j = 0; j < ncls; j++) {
		const struct clyde_cmp_cell *c = &row->cells[i = cols[j]];

		if (!ranked(row, c))
			continue;
		tie_text(text, sizeof(text), row, c);
		if (!n) {
			bi = i;
			snprintf(first, sizeof(first), "%s", text);
		} else {
			if (strcmp(text, first))
				differ = true;
			if (row->higher_better ?
				    c->value > row->cells[bi].value :
				    c->value < row->cells[bi].value)
				bi = i;
		}
		n++;
	}
	if (n < 2 || !differ)
		return;
	tie_text(best_text, sizeof(best_text), row, &row->cells[bi]);
	/* The runner-up: the best of the cells that do not show as the
	 * best. */
	for (j = 0; j < ncls; j++) {
		const struct clyde_cmp_cell *c = &row->cells[i = cols[j]];

		if (!ranked(row, c))
			continue;
		tie_text(text, sizeof(text), row, c);
		if (!strcmp(text, best_text))
			continue;
		if (ri == ncols ||
		    (row->higher_better ? c->value > row->cells[ri].value :
					  c->value < row->cells[ri].value))
			ri = i;
	}
	by_value = ri == ncols || repeats_of(cmp, bd, row, bi, &x) < 2 ||
		   repeats_of(cmp, bd, row, ri, &x) < 2;
	if (!by_value)
		for (j = 0; j < ncls; j++) {
			struct clyde_cmp_cell *c = &row->cells[i = cols[j]];
			struct clyde_decision d;

			if (i == bi || !ranked(row, c) ||
			    !decide_cols(cmp, bd, row, i, bi, &d))
				continue;
			c->decided = true;
			c->verdict = d.verdict;
			beaten |= d.verdict == CLYDE_VERDICT_BETTER;
			tie |= d.verdict != CLYDE_VERDICT_WORSE;
		}
	for (j = 0; j < ncls; j++) {
		struct clyde_cmp_cell *c = &row->cells[i = cols[j]];

		if (!ranked(row, c))
			continue;
		if (i == bi) {
			if (beaten)
				continue;
		} else if (c->decided) {
			if (c->verdict == CLYDE_VERDICT_WORSE)
				continue;
		} else {
			tie_text(text, sizeof(text), row, c);
			if (strcmp(text, best_text))
				continue;
		}
		c->best = true;
		c->best_by_value = by_value;
		cmp->any_best_by_value |= by_value;
		cmp->any_best_tie |= tie;
		if (c->decided && c->verdict == CLYDE_VERDICT_EQUIVALENT)
			cmp->any_best_equivalent = true;
		if (c->decided && c->verdict == CLYDE_VERDICT_CANNOT_TELL)
			cmp->any_best_cannot_tell = true;
	}
}

const char *clyde_compare_tie_text(const struct clyde_cmp_cell *cell)
{
	if (!cell->best || !cell->decided)
		return NULL;
	if (cell->verdict == CLYDE_VERDICT_EQUIVALENT)
		return "equivalent to the best";
	if (cell->verdict == CLYDE_VERDICT_CANNOT_TELL)
		return "cannot tell from the best";
	return NULL;
}

/* Identical runs, wildly different results: the ranked cells of a rate
 * row whose runs were made alike (build.alike: every recorded setting,
 * the machine, the filesystem and its mount options, the device the same;
 * a key one of them lacks counts as a difference, so that a doubt never
 * raises an alarm) and whose largest is at least twice the smallest
 * (CLYDE_LOADED_DISAGREE, the rule for repeats) are all flagged: what
 * differs is noise or something the results do not record.  One pass
 * gathers each group of alike runs, a second marks its cells. */
static void mark_runs_disagree(struct clyde_compare *cmp, struct build *bd,
			       struct clyde_cmp_row *row)
{
	size_t i, g;

	if (row->metric != CLYDE_CMP_RATE)
		return;
	for (i = 0; i < cmp->ncols; i++)
		if ((g = bd->alike[i]) != NOT_ALIKE)
			bd->n[g] = 0;
	for (i = 0; i < cmp->ncols; i++) {
		const struct clyde_cmp_cell *c = &row->cells[i];

		g = bd->alike[i];
		if (g == NOT_ALIKE || !ranked(row, c))
			continue;
		if (!bd->n[g]++) {
			bd->first[g] = i;
			bd->lo[g] = bd->hi[g] = c->value;
		}
		if (c->value < bd->lo[g])
			bd->lo[g] = c->value;
		if (c->value > bd->hi[g])
			bd->hi[g] = c->value;
	}
	for (i = 0; i < cmp->ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];
		double lo, hi;

		if (!ranked(row, c))
			continue;
		g = bd->alike[i];
		c->twins = g == NOT_ALIKE ? i : bd->first[g];
		if (g == NOT_ALIKE || bd->n[g] < 2)
			continue;
		lo = bd->lo[g];
		hi = bd->hi[g];
		if (lo > 0 ? hi >= CLYDE_LOADED_DISAGREE * lo : hi > 0) {
			c->runs_disagree = true;
			cmp->any_runs_disagree = true;
		}
	}
}

static void mark_changes(struct clyde_compare *cmp, struct clyde_cmp_row *row)
{
	const struct clyde_cmp_cell *b;
	size_t i;

	if (cmp->baseline < 0)
		return;
	b = &row->cells[cmp->baseline];
	if (!b->has_value || b->value == 0)
		return;
	for (i = 0; i < cmp->ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];

		if ((long)i == cmp->baseline || !c->has_value)
			continue;
		c->has_change = true;
		c->change_pct = (c->value - b->value) / b->value * 100.0;
	}
}

/* Each column against the reference column by the one rule
 * (analysis/decide.h), for rates where both have two repeats or more:
 * significant when better or worse. */
static void mark_sig(struct clyde_compare *cmp, const struct build *bd,
		     struct clyde_cmp_row *row)
{
	struct clyde_decision d;
	size_t i;

	if (row->metric != CLYDE_CMP_RATE)
		return;
	for (i = 0; i < cmp->ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];

		/* Runs of other settings are not compared at all. */
		if (i == cmp->ref || c->cls != row->cells[cmp->ref].cls ||
		    !c->has_value ||
		    !decide_cols(cmp, bd, row, i, cmp->ref, &d))
			continue;
		c->p = d.p;
		c->sig = d.verdict == CLYDE_VERDICT_BETTER ||
					 d.verdict == CLYDE_VERDICT_WORSE ?
				 CLYDE_CMP_SIG_YES :
				 CLYDE_CMP_SIG_NO;
		cmp->any_sig = true;
	}
}

/* Does run r have a test of scope s that is not NOT_RUN? */
static bool run_in_scope(const struct clyde_loaded_run *r, enum clyde_scope s)
{
	size_t i;

	for (i = 0; i < r->ntests; i++)
		if (clyde_scope_of(r->tests[i].group) == s &&
		    r->tests[i].state != CLYDE_LOADED_NOT_RUN)
			return true;
	return false;
}

/*
 * Split the runs of each scope into settings groups.  The settings looked
 * at are those that matter for the scope and that every run of it records
 * (a CSV line does not record -D: "unknown" is no difference); runs with
 * the same values of the ones that differ form a group, numbered in the
 * order of their first run.
 */
/* Number the settings groups of scope sc in the order of their first
 * run: the runs of one group have the same values of sc's keys, so the
 * text of those values finds the group. */
static int number_groups(struct clyde_compare *cmp, struct clyde_cmp_scope *sc)
{
	struct clyde_strmap groups;
	int rc = 0;

	clyde_strmap_init(&groups);
	sc->nclasses = 0;
	for (size_t c = 0; c < cmp->ncols && !rc; c++) {
		char *text = NULL;
		size_t len = 0, *cls;
		FILE *f;

		if (!sc->in[c])
			continue;
		f = open_memstream(&text, &len);
		if (!f)
			return clyde_strmap_release(&groups), -ENOMEM;
		/* Every run in the scope records each key (build_scopes). */
		for (size_t k = 0; k < sc->nkeys && !rc; k++)
			rc = sig_add(f, clyde_loaded_kv_get(cmp->runs[c],
							    sc->keys[k]));
		if (fclose(f) || !text)
			rc = -ENOMEM;
		if (!rc &&
		    clyde_strmap_put(&groups, text, sc->nclasses, &cls) < 0)
			rc = -ENOMEM;
		if (!rc) {
			sc->cls[c] = (unsigned)*cls;
			if (*cls == sc->nclasses)
				sc->nclasses++;
		}
		free(text);
	}
	clyde_strmap_release(&groups);
	return rc;
}

static int build_scopes(struct clyde_compare *cmp)
{
	size_t s, c, i;

	for (s = 0; s < CLYDE_SCOPE_COUNT; s++) {
		struct clyde_cmp_scope *sc = &cmp->scopes[s];
		const char *key;

		sc->cls = calloc(cmp->ncols, sizeof(*sc->cls));
		sc->in = calloc(cmp->ncols, sizeof(*sc->in));
		if (!sc->cls || !sc->in)
			return -ENOMEM;
		sc->nclasses = 1;
		for (c = 0; c < cmp->ncols; c++) {
			sc->in[c] =
				run_in_scope(cmp->runs[c], (enum clyde_scope)s);
			sc->used |= sc->in[c];
		}
		for (i = 0; (key = clyde_setting_key(i)) != NULL; i++) {
			const char *first = NULL;
			bool all = true, differ = false;

			if (!clyde_setting_matters(key, (enum clyde_scope)s))
				continue;
			for (c = 0; c < cmp->ncols && all; c++) {
				const char *v;

				if (!sc->in[c])
					continue;
				v = clyde_loaded_kv_get(cmp->runs[c], key);
				if (!v)
					all = false;
				else if (!first)
					first = v;
				else if (strcmp(first, v))
					differ = true;
			}
			if (all && differ && sc->nkeys < CLYDE_CMP_MAX_KEYS)
				sc->keys[sc->nkeys++] = key;
		}
		if (sc->nkeys && number_groups(cmp, sc))
			return -ENOMEM;
	}
	return 0;
}

/* Per scope (and one more for rows of no scope) the columns in the order
 * of their settings groups, and where each group starts: mark_best looks
 * at the columns of one group only. */
static int build_orders(struct build *bd, const struct clyde_compare *cmp)
{
	for (size_t s = 0; s <= CLYDE_SCOPE_COUNT; s++) {
		const struct clyde_cmp_scope *sc =
			s < CLYDE_SCOPE_COUNT ? &cmp->scopes[s] : NULL;
		size_t ng = sc ? sc->nclasses : 1, *at;

		bd->order[s] = calloc(cmp->ncols + 1, sizeof(size_t));
		bd->start[s] = calloc(ng + 1, sizeof(size_t));
		if (!bd->order[s] || !bd->start[s])
			return -ENOMEM;
		/* A counting sort: the sizes, their sums, then the places. */
		for (size_t c = 0; c < cmp->ncols; c++)
			bd->start[s][(sc ? sc->cls[c] : 0) + 1]++;
		for (size_t k = 0; k < ng; k++)
			bd->start[s][k + 1] += bd->start[s][k];
		at = calloc(ng + 1, sizeof(*at));
		if (!at)
			return -ENOMEM;
		memcpy(at, bd->start[s], ng * sizeof(*at));
		for (size_t c = 0; c < cmp->ncols; c++)
			bd->order[s][at[sc ? sc->cls[c] : 0]++] = c;
		free(at);
	}
	return 0;
}

static int add_row(struct clyde_compare *cmp, struct build *bd,
		   const struct clyde_loaded_test *t, enum clyde_cmp_metric m)
{
	struct clyde_cmp_row row;
	bool any = false, any_value = false;
	size_t i;

	memset(&row, 0, sizeof(row));
	row.cells = calloc(cmp->ncols, sizeof(*row.cells));
	if (!row.cells)
		return -ENOMEM;
	for (i = 0; i < cmp->ncols; i++) {
		fill_cell(&row.cells[i], m, find_test(bd, i, t->name, cmp));
		if (row.cells[i].state != CLYDE_LOADED_NOT_RUN)
			any = true;
		if (row.cells[i].has_value)
			any_value = true;
	}
	/* A rate row shows even when every run was too fast or skipped: that
	 * is a result.  CPU and latency rows need a number somewhere. */
	if (!any || (m != CLYDE_CMP_RATE && !any_value)) {
		free(row.cells);
		return 0;
	}
	snprintf(row.test, sizeof(row.test), "%s", t->name);
	row.group = t->group;
	row.metric = m;
	row.scope = clyde_scope_of(t->group);
	for (i = 0; i < cmp->ncols; i++) {
		if (row.scope < CLYDE_SCOPE_COUNT)
			row.cells[i].cls = cmp->scopes[row.scope].cls[i];
		if (row.cells[i].ci95 > 0)
			cmp->any_ci = true;
		if (row.cells[i].disagree)
			cmp->any_disagree = true;
		cmp->any_flags |= row.cells[i].flags;
	}
	switch (m) {
	case CLYDE_CMP_RATE:
		snprintf(row.base_unit, sizeof(row.base_unit), "%s", t->unit);
		row.higher_better = true;
		break;
	case CLYDE_CMP_CPU:
		snprintf(row.base_unit, sizeof(row.base_unit), "%%");
		break;
	default:
		snprintf(row.base_unit, sizeof(row.base_unit), "ns");
		break;
	}
	choose_unit(&row, cmp->ncols);
	{
		size_t s = row.scope < CLYDE_SCOPE_COUNT ? row.scope :
							   CLYDE_SCOPE_COUNT;
		size_t ng = s < CLYDE_SCOPE_COUNT ? cmp->scopes[s].nclasses : 1;

		for (i = 0; i < ng; i++)
			mark_best(cmp, bd, &row, bd->order[s] + bd->start[s][i],
				  bd->start[s][i + 1] - bd->start[s][i]);
	}
	mark_runs_disagree(cmp, bd, &row);
	if (cmp->nrows == bd->rows_cap) {
		size_t cap = bd->rows_cap ? bd->rows_cap * 2 : 16;
		struct clyde_cmp_row *nr =
			realloc(cmp->rows, cap * sizeof(*nr));

		if (!nr) {
			free(row.cells);
			return -ENOMEM;
		}
		cmp->rows = nr;
		bd->rows_cap = cap;
	}
	cmp->rows[cmp->nrows++] = row;
	mark_changes(cmp, &cmp->rows[cmp->nrows - 1]);
	mark_sig(cmp, bd, &cmp->rows[cmp->nrows - 1]);
	return 0;
}

int clyde_compare_build(struct clyde_ctx *ctx,
			const struct clyde_loaded_set *set,
			const struct clyde_compare_opts *opts,
			struct clyde_compare *cmp)
{
	static const struct clyde_compare_opts none = { NULL, 0, 0 };
	static const enum clyde_cmp_metric metrics[] = { CLYDE_CMP_RATE,
							 CLYDE_CMP_CPU,
							 CLYDE_CMP_LAT_MAX,
							 CLYDE_CMP_LAT_P99 };
	const struct clyde_loaded_test **seen = NULL;
	struct clyde_strmap names;
	struct build bd;
	size_t i, j, k, nseen = 0, ntests = 0;

	memset(cmp, 0, sizeof(*cmp));
	memset(&bd, 0, sizeof(bd));
	clyde_strmap_init(&names);
	if (!opts)
		opts = &none;
	/* Usage errors: the message alone says it all (no strerror). */
	if (!set->nruns) {
		clyde_err(ctx, 0, "no results to compare");
		return -EINVAL;
	}
	if (opts->nlabels > set->nruns) {
		clyde_err(ctx, 0, "%zu labels given for %zu result%s",
			  opts->nlabels, set->nruns,
			  set->nruns == 1 ? "" : "s");
		return -EINVAL;
	}
	if (opts->baseline < 0 || (size_t)opts->baseline > set->nruns) {
		clyde_err(ctx, 0,
			  "baseline %ld is not a result number (1 to %zu)",
			  opts->baseline, set->nruns);
		return -EINVAL;
	}
	cmp->ncols = set->nruns;
	cmp->baseline = opts->baseline - 1;
	cmp->ref = cmp->baseline >= 0 ? (size_t)cmp->baseline : 0;
	cmp->labels = calloc(cmp->ncols, sizeof(*cmp->labels));
	cmp->runs = calloc(cmp->ncols, sizeof(*cmp->runs));
	if (!cmp->labels || !cmp->runs)
		goto nomem;
	for (i = 0; i < cmp->ncols; i++) {
		cmp->runs[i] = &set->runs[i];
		ntests += set->runs[i].ntests;
	}
	if (make_labels(cmp, opts) || build_init(&bd, cmp))
		goto nomem;
	/* The tests in the order first seen, each name once. */
	seen = calloc(ntests + 1, sizeof(*seen));
	if (!seen)
		goto nomem;
	for (i = 0; i < cmp->ncols; i++) {
		const struct clyde_loaded_run *r = cmp->runs[i];

		for (j = 0; j < r->ntests; j++) {
			int added = clyde_strmap_put(&names, r->tests[j].name,
						     nseen, NULL);

			if (added < 0)
				goto nomem;
			if (added)
				seen[nseen++] = &r->tests[j];
		}
	}
	if (build_scopes(cmp) || build_orders(&bd, cmp))
		goto nomem;
	for (k = 0; k < nseen; k++)
		for (j = 0; j < 4; j++)
			if (add_row(cmp, &bd, seen[k], metrics[j]))
				goto nomem;
	free(seen);
	clyde_strmap_release(&names);
	build_release(&bd, cmp->ncols);
	return 0;
nomem:
	free(seen);
	clyde_strmap_release(&names);
	build_release(&bd, cmp->ncols);
	clyde_compare_release(cmp);
	return clyde_err(ctx, ENOMEM, "building the compare table");
}

/* A shown number: the row's unit and clyde_fmt_readable(); a latency
 * with its own unit ("215 us"). */
static void number(char *buf, size_t len, const struct clyde_cmp_row *row,
		   double v)
{
	char n[64];

	if (!strcmp(row->base_unit, "ns")) {
		double div;
		const char *u = clyde_fmt_pick_unit("ns", v, &div);

		clyde_fmt_readable(n, sizeof(n), v / div,
				   v / div == floor(v / div));
		snprintf(buf, len, "%s %s", n, u);
		return;
	}
	/* A whole number in the unit its source wrote (files/s, seeks/s,
	 * KiB/s) shows whole: a CSV's 93 files/s next to a JSON's 508.7.  A
	 * rate that happens to be 100 MiB/s keeps its decimal. */
	clyde_fmt_readable(buf, len, v / row->divisor,
			   row->whole || (row->divisor <= 1024 &&
					  v / row->divisor ==
						  floor(v / row->divisor)));
}

char *clyde_compare_change_text(char *buf, size_t len, double pct)
{
	snprintf(buf, len, "%+.*f%%", fabs(pct) >= 1000 ? 0 : 1, pct);
	return buf;
}

char *clyde_compare_cell_text(char *buf, size_t len,
			      const struct clyde_cmp_row *row,
			      const struct clyde_cmp_cell *cell)
{
	char n[64];

	switch (cell->state) {
	case CLYDE_LOADED_NOT_RUN:
		snprintf(buf, len, "%s", "");
		break;
	case CLYDE_LOADED_SKIPPED:
		/* A dev test's --latency-target row (results/loaded.c):
		 * skipped is a target no rate tried met. */
		snprintf(buf, len, "%s",
			 strstr(row->test, " rate at p") ? "not met" :
							   "skipped");
		break;
	case CLYDE_LOADED_TOO_FAST:
		if (cell->has_value) {
			number(n, sizeof(n), row, cell->value);
			snprintf(buf, len, "~%s", n);
		} else {
			snprintf(buf, len, "too fast");
		}
		break;
	case CLYDE_LOADED_VALUE:
		if (cell->has_value)
			number(buf, len, row, cell->value);
		else
			snprintf(buf, len, "%s", "");
		break;
	}
	return buf;
}

char *clyde_compare_flagged_text(char *buf, size_t len,
				 const struct clyde_cmp_row *row,
				 const struct clyde_cmp_cell *cell)
{
	char fl[96];
	size_t n;

	clyde_compare_cell_text(buf, len, row, cell);
	if (!cell->flags || cell->state == CLYDE_LOADED_NOT_RUN)
		return buf;
	n = strlen(buf);
	clyde_loaded_flags_text(fl, sizeof(fl), cell->flags, ", ");
	snprintf(buf + n, len - n, " (%s)", fl);
	return buf;
}

char *clyde_compare_row_label(char *buf, size_t len,
			      const struct clyde_cmp_row *row)
{
	static const char *const m[] = { "", "CPU", "lat max", "lat p99" };

	if (row->metric == CLYDE_CMP_RATE)
		snprintf(buf, len, "%s %s", row->test, row->unit);
	else if (row->unit[0])
		snprintf(buf, len, "%s %s %s", row->test, m[row->metric],
			 row->unit);
	else
		snprintf(buf, len, "%s %s", row->test, m[row->metric]);
	return buf;
}

char *clyde_compare_ci_text(char *buf, size_t len,
			    const struct clyde_cmp_row *row,
			    const struct clyde_cmp_cell *cell)
{
	if (cell->ci95 > 0)
		clyde_fmt_readable(buf, len, cell->ci95 / row->divisor, false);
	else
		snprintf(buf, len, "%s", "");
	return buf;
}

char *clyde_compare_class_name(char *buf, size_t len, unsigned cls)
{
	if (cls < 26)
		snprintf(buf, len, "%c", 'A' + cls);
	else
		snprintf(buf, len, "G%u", cls + 1);
	return buf;
}

char *clyde_compare_scope_keys(char *buf, size_t len,
			       const struct clyde_cmp_scope *sc)
{
	size_t k, n = 0;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < sc->nkeys && n < len; k++) {
		int w = snprintf(buf + n, len - n, "%s%s", k ? ", " : "",
				 sc->keys[k]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
	return buf;
}

char *clyde_compare_class_text(char *buf, size_t len,
			       const struct clyde_compare *cmp,
			       const struct clyde_cmp_scope *sc, size_t col)
{
	size_t k, n = 0;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < sc->nkeys && n < len; k++) {
		const char *v =
			clyde_loaded_kv_get(cmp->runs[col], sc->keys[k]);
		int w = snprintf(buf + n, len - n, "%s%s %s", k ? ", " : "",
				 sc->keys[k], v ? v : "?");

		if (w < 0)
			break;
		n += (size_t)w;
	}
	return buf;
}

char *clyde_compare_run_date(char *buf, size_t len,
			     const struct clyde_loaded_run *r)
{
	time_t t = (time_t)r->started_unix;
	struct tm tm;

	if (!r->started_unix || !gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, len, "%s", "");
	return buf;
}

bool clyde_compare_key_differs(const struct clyde_compare *cmp, const char *key)
{
	const char *first = clyde_loaded_kv_get(cmp->runs[0], key);
	size_t c;

	if (cmp->ncols < 2)
		return false;
	for (c = 1; c < cmp->ncols; c++) {
		const char *v = clyde_loaded_kv_get(cmp->runs[c], key);

		if (!v || !first || strcmp(v, first))
			return true;
	}
	return !first;
}

/* A key as clyde_compare_keys() meets it: the value of its first run,
 * the runs that have it and whether two of them differ. */
struct key_seen {
	const char *first;
	size_t runs, last;
	bool differ;
};

/* One pass over every run's settings, each key looked up once: a
 * thousand runs of the same forty settings take forty thousand look-ups,
 * where asking clyde_compare_key_differs() of each took forty million. */
const char **clyde_compare_keys(const struct clyde_compare *cmp, bool differing,
				size_t *n)
{
	struct clyde_strmap at; /* key -> its index in keys[] */
	struct key_seen *ks = NULL;
	const char **keys = NULL;
	size_t total = 0, nk = 0, c, i;

	*n = 0;
	for (c = 0; c < cmp->ncols; c++)
		total += cmp->runs[c]->nkv;
	if (!total)
		return NULL;
	clyde_strmap_init(&at);
	keys = calloc(total, sizeof(*keys));
	ks = calloc(total, sizeof(*ks));
	if (!keys || !ks)
		goto nomem;
	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_run *r = cmp->runs[c];

		for (i = 0; i < r->nkv; i++) {
			const struct clyde_loaded_kv *kv = &r->kv[i];
			struct key_seen *e;
			size_t *k;
			int added = clyde_strmap_put(&at, kv->key, nk, &k);

			if (added < 0)
				goto nomem;
			if (added) {
				keys[nk] = kv->key;
				ks[nk++] = (struct key_seen){ kv->value, 1, c,
							      !kv->value };
				continue;
			}
			e = &ks[*k];
			if (e->last == c)
				continue; /* a run's first value counts */
			e->last = c;
			e->runs++;
			if (!kv->value || !e->first ||
			    strcmp(kv->value, e->first))
				e->differ = true;
		}
	}
	/* A key differs when two runs have other values or one lacks it. */
	for (i = 0; i < nk; i++)
		if (!differing || (cmp->ncols > 1 &&
				   (ks[i].differ || ks[i].runs < cmp->ncols)))
			keys[(*n)++] = keys[i];
	clyde_strmap_release(&at);
	free(ks);
	if (!*n) {
		free(keys);
		return NULL;
	}
	return keys;
nomem:
	clyde_strmap_release(&at);
	free(ks);
	free(keys);
	*n = 1;
	return NULL;
}

int clyde_compare_write(FILE *f, const struct clyde_compare *cmp,
			enum clyde_compare_format fmt)
{
	int rc = fmt == CLYDE_COMPARE_CSV ?
			 clyde_compare_write_csv(f, cmp) :
			 clyde_compare_write_text(
				 f, cmp, fmt == CLYDE_COMPARE_MARKDOWN);

	if (rc)
		return rc;
	errno = 0;
	if (fflush(f) || ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}

bool clyde_compare_scope_same(const struct clyde_compare *cmp, size_t a,
			      size_t b)
{
	const struct clyde_cmp_scope *x = &cmp->scopes[a], *y = &cmp->scopes[b];
	size_t c;

	if (x->nkeys != y->nkeys || x->nclasses != y->nclasses)
		return false;
	for (c = 0; c < x->nkeys; c++)
		if (strcmp(x->keys[c], y->keys[c]))
			return false;
	for (c = 0; c < cmp->ncols; c++)
		if (x->in[c] != y->in[c] || x->cls[c] != y->cls[c])
			return false;
	return true;
}
