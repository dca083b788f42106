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

#include "core/stats.h"
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

static bool label_taken(char **labels, size_t n, const char *l)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(labels[i], l))
			return true;
	return false;
}

/* Labels: the caller's, else the run's name, else "run<N>"; a label seen
 * before gets "#2", "#3", ... (the first free one). */
static int make_labels(struct clyde_compare *cmp,
		       const struct clyde_compare_opts *o)
{
	size_t i;

	for (i = 0; i < cmp->ncols; i++) {
		const char *base = i < o->nlabels ? o->labels[i] :
						    cmp->runs[i]->label;
		char *l = NULL;
		unsigned k;

		if (!base || !base[0]) {
			if (asprintf(&l, "run%zu", i + 1) < 0)
				return -ENOMEM;
		} else {
			l = strdup(base);
			if (!l)
				return -ENOMEM;
		}
		for (k = 2; label_taken(cmp->labels, i, l); k++) {
			char *nl;

			if (asprintf(&nl, "%s#%u",
				     base && base[0] ? base : "run", k) < 0) {
				free(l);
				return -ENOMEM;
			}
			free(l);
			l = nl;
		}
		cmp->labels[i] = l;
	}
	return 0;
}

static const struct clyde_loaded_test *
find_test(const struct clyde_loaded_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ntests; i++)
		if (!strcmp(r->tests[i].name, name))
			return &r->tests[i];
	return NULL;
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
	return c->has_value && (c->state == CLYDE_LOADED_VALUE ||
				(row->metric == CLYDE_CMP_RATE &&
				 c->state == CLYDE_LOADED_TOO_FAST));
}

/* Welch's p between the repeats of columns a and b of a rate row, or -1
 * when either has fewer than two. */
static double welch_p(const struct clyde_compare *cmp,
		      const struct clyde_cmp_row *row, size_t a, size_t b)
{
	const struct clyde_loaded_test *ta, *tb;
	struct clyde_stats_welch w;

	if (row->metric != CLYDE_CMP_RATE)
		return -1;
	ta = find_test(cmp->runs[a], row->test);
	tb = find_test(cmp->runs[b], row->test);
	if (!ta || !tb || ta->nsamples < 2 || tb->nsamples < 2 ||
	    clyde_stats_welch(ta->samples, ta->nsamples, tb->samples,
			      tb->nsamples, &w) < 0)
		return -1;
	return w.p;
}

/*
 * Mark the best value(s) of each settings group of a row, only when there
 * is a choice (two ranked cells that do not show alike).  CPU rows get no
 * mark (compare.h).  Values that show alike are marked alike.  When the
 * best and the runner-up both have repeats, the best must beat the
 * runner-up beyond noise (Welch, p < 0.05); otherwise every cell whose
 * repeats do not differ significantly from the best's is marked too (a
 * tie).  When either has a single sample the mark is by value only, and
 * best_by_value says so.
 */
static void mark_best(struct clyde_compare *cmp, struct clyde_cmp_row *row,
		      unsigned cls)
{
	char text[64], best_text[64] = "", first[64] = "";
	size_t ncols = cmp->ncols, i, n = 0, bi = 0, ri = ncols;
	bool differ = false, tie = false, by_value = false;
	double p;

	if (row->metric == CLYDE_CMP_CPU)
		return;
	for (i = 0; i < ncols; i++) {
		const struct clyde_cmp_cell *c = &row->cells[i];

		if (c->cls != cls || !ranked(row, c))
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
	for (i = 0; i < ncols; i++) {
		const struct clyde_cmp_cell *c = &row->cells[i];

		if (c->cls != cls || !ranked(row, c))
			continue;
		tie_text(text, sizeof(text), row, c);
		if (!strcmp(text, best_text))
			continue;
		if (ri == ncols ||
		    (row->higher_better ? c->value > row->cells[ri].value :
					  c->value < row->cells[ri].value))
			ri = i;
	}
	p = ri < ncols ? welch_p(cmp, row, bi, ri) : -1;
	if (p < 0)
		by_value = true;
	else if (p >= 0.05)
		tie = true;
	for (i = 0; i < ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];
		double q;

		if (c->cls != cls || !ranked(row, c))
			continue;
		tie_text(text, sizeof(text), row, c);
		if (strcmp(text, best_text) &&
		    !(tie && (q = welch_p(cmp, row, bi, i)) >= 0 && q >= 0.05))
			continue;
		c->best = true;
		c->best_by_value = by_value;
		cmp->any_best_by_value |= by_value;
		cmp->any_best_tie |= tie;
	}
}

/* Were runs a and b made alike: every recorded setting, the machine, the
 * filesystem and its mount options, the device (every config key either
 * has) the same?  A key one of them lacks counts as a difference, so that
 * a doubt never raises an alarm. */
static bool runs_identical(const struct clyde_loaded_run *a,
			   const struct clyde_loaded_run *b)
{
	size_t i;

	for (i = 0; i < a->nkv; i++) {
		const char *v = clyde_loaded_kv_get(b, a->kv[i].key);

		if (!v || !a->kv[i].value || strcmp(v, a->kv[i].value))
			return false;
	}
	for (i = 0; i < b->nkv; i++)
		if (!clyde_loaded_kv_get(a, b->kv[i].key))
			return false;
	return true;
}

/* Identical runs, wildly different results: the ranked cells of a rate
 * row whose runs were made alike (runs_identical()) and whose largest is
 * at least twice the smallest (CLYDE_LOADED_DISAGREE, the rule for
 * repeats) are all flagged: what differs is noise or something the
 * results do not record. */
static void mark_runs_disagree(struct clyde_compare *cmp,
			       struct clyde_cmp_row *row)
{
	size_t i, j;

	if (row->metric != CLYDE_CMP_RATE)
		return;
	for (i = 0; i < cmp->ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];
		double lo = c->value, hi = c->value;
		size_t n = 1;

		if (!ranked(row, c))
			continue;
		c->twins = i;
		for (j = 0; j < cmp->ncols; j++) {
			const struct clyde_cmp_cell *d = &row->cells[j];

			if (j == i || !ranked(row, d) ||
			    !runs_identical(cmp->runs[i], cmp->runs[j]))
				continue;
			if (j < c->twins)
				c->twins = j;
			n++;
			if (d->value < lo)
				lo = d->value;
			if (d->value > hi)
				hi = d->value;
		}
		if (n >= 2 &&
		    (lo > 0 ? hi >= CLYDE_LOADED_DISAGREE * lo : hi > 0)) {
			row->cells[i].runs_disagree = true;
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

/* Welch's test of each column's samples against the reference column's,
 * for rates where both have at least two. */
static void mark_sig(struct clyde_compare *cmp, struct clyde_cmp_row *row)
{
	const struct clyde_loaded_test *ref, *t;
	struct clyde_stats_welch w;
	size_t i;

	if (row->metric != CLYDE_CMP_RATE)
		return;
	ref = find_test(cmp->runs[cmp->ref], row->test);
	if (!ref || ref->nsamples < 2)
		return;
	for (i = 0; i < cmp->ncols; i++) {
		struct clyde_cmp_cell *c = &row->cells[i];

		/* Runs of other settings are not compared at all. */
		if (i == cmp->ref || c->cls != row->cells[cmp->ref].cls)
			continue;
		t = find_test(cmp->runs[i], row->test);
		if (!t || t->nsamples < 2 || !c->has_value)
			continue;
		if (clyde_stats_welch(ref->samples, ref->nsamples, t->samples,
				      t->nsamples, &w))
			continue;
		c->p = w.p;
		c->sig = w.p < 0.05 ? CLYDE_CMP_SIG_YES : CLYDE_CMP_SIG_NO;
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

static bool same_value(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/*
 * Split the runs of each scope into settings groups.  The settings looked
 * at are those that matter for the scope and that every run of it records
 * (a CSV line does not record -D: "unknown" is no difference); runs with
 * the same values of the ones that differ form a group, numbered in the
 * order of their first run.
 */
static int build_scopes(struct clyde_compare *cmp)
{
	size_t s, c, d, k, i;

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
		if (!sc->nkeys)
			continue;
		sc->nclasses = 0;
		for (c = 0; c < cmp->ncols; c++) {
			if (!sc->in[c])
				continue;
			for (d = 0; d < c; d++) {
				if (!sc->in[d])
					continue;
				for (k = 0; k < sc->nkeys; k++)
					if (!same_value(clyde_loaded_kv_get(
								cmp->runs[c],
								sc->keys[k]),
							clyde_loaded_kv_get(
								cmp->runs[d],
								sc->keys[k])))
						break;
				if (k == sc->nkeys)
					break;
			}
			sc->cls[c] = d < c ? sc->cls[d] :
					     (unsigned)sc->nclasses++;
		}
	}
	return 0;
}

static int add_row(struct clyde_compare *cmp, const struct clyde_loaded_test *t,
		   enum clyde_cmp_metric m, size_t *rows_cap)
{
	struct clyde_cmp_row row;
	bool any = false, any_value = false;
	size_t i;

	memset(&row, 0, sizeof(row));
	row.cells = calloc(cmp->ncols, sizeof(*row.cells));
	if (!row.cells)
		return -ENOMEM;
	for (i = 0; i < cmp->ncols; i++) {
		fill_cell(&row.cells[i], m, find_test(cmp->runs[i], t->name));
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
	for (i = 0; i < (row.scope < CLYDE_SCOPE_COUNT ?
				 cmp->scopes[row.scope].nclasses :
				 1);
	     i++)
		mark_best(cmp, &row, (unsigned)i);
	mark_runs_disagree(cmp, &row);
	if (cmp->nrows == *rows_cap) {
		size_t cap = *rows_cap ? *rows_cap * 2 : 16;
		struct clyde_cmp_row *nr =
			realloc(cmp->rows, cap * sizeof(*nr));

		if (!nr) {
			free(row.cells);
			return -ENOMEM;
		}
		cmp->rows = nr;
		*rows_cap = cap;
	}
	cmp->rows[cmp->nrows++] = row;
	mark_changes(cmp, &cmp->rows[cmp->nrows - 1]);
	mark_sig(cmp, &cmp->rows[cmp->nrows - 1]);
	return 0;
}

int clyde_compare_build(struct clyde_ctx *ctx,
			const struct clyde_loaded_set *set,
			const struct clyde_compare_opts *opts,
			struct clyde_compare *cmp)
{
	static const struct clyde_compare_opts none = { NULL, 0, 0 };
	const struct clyde_loaded_test **seen = NULL;
	size_t i, j, k, nseen = 0, rows_cap = 0;
	int rc;

	memset(cmp, 0, sizeof(*cmp));
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
	for (i = 0; i < cmp->ncols; i++)
		cmp->runs[i] = &set->runs[i];
	if (make_labels(cmp, opts))
		goto nomem;
	for (i = 0; i < cmp->ncols; i++) {
		const struct clyde_loaded_run *r = cmp->runs[i];

		for (j = 0; j < r->ntests; j++) {
			const struct clyde_loaded_test **ns;

			for (k = 0; k < nseen; k++)
				if (!strcmp(seen[k]->name, r->tests[j].name))
					break;
			if (k < nseen)
				continue;
			ns = realloc(seen, (nseen + 1) * sizeof(*ns));
			if (!ns)
				goto nomem;
			seen = ns;
			seen[nseen++] = &r->tests[j];
		}
	}
	if (build_scopes(cmp))
		goto nomem;
	for (k = 0; k < nseen; k++) {
		static const enum clyde_cmp_metric metrics[] = {
			CLYDE_CMP_RATE, CLYDE_CMP_CPU, CLYDE_CMP_LAT_MAX,
			CLYDE_CMP_LAT_P99
		};

		for (j = 0; j < 4; j++) {
			rc = add_row(cmp, seen[k], metrics[j], &rows_cap);
			if (rc)
				goto nomem;
		}
	}
	free(seen);
	return 0;
nomem:
	free(seen);
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
		snprintf(buf, len, "skipped");
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

const char **clyde_compare_keys(const struct clyde_compare *cmp, bool differing,
				size_t *n)
{
	const char **keys = NULL;
	size_t c, i, k;

	*n = 0;
	for (c = 0; c < cmp->ncols; c++) {
		const struct clyde_loaded_run *r = cmp->runs[c];

		for (i = 0; i < r->nkv; i++) {
			const char **nk;

			for (k = 0; k < *n; k++)
				if (!strcmp(keys[k], r->kv[i].key))
					break;
			if (k < *n || (differing && !clyde_compare_key_differs(
							    cmp, r->kv[i].key)))
				continue;
			nk = realloc(keys, (*n + 1) * sizeof(*nk));
			if (!nk) {
				free(keys);
				*n = 1;
				return NULL;
			}
			keys = nk;
			keys[(*n)++] = r->kv[i].key;
		}
	}
	return keys;
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
