/*
 * The history as series and their change points (history_changes.h).
 */
#include "report/history_changes.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/vis.h"
#include "report/compare.h"
#include "report/html.h"
#include "results/kinds.h"

/* The stack's shape: what a series shares besides its settings. */
static const char *const shape_keys[] = { "host", "filesystem", "mount point",
					  "disk" };

#define NSHAPE (sizeof(shape_keys) / sizeof(shape_keys[0]))

static const char *kind_name(enum clyde_loaded_kind k)
{
	const struct clyde_result_kind *rk = clyde_result_kind_loaded(k);

	return rk ? rk->name : "?";
}

/* The run's host: its machine's, or a CSV line's name. */
static const char *host_of(const struct clyde_loaded_run *r)
{
	const char *h = clyde_loaded_kv_get(r, "host");

	return h ? h : r->label;
}

static const char *shape_value(const struct clyde_loaded_run *r, size_t k)
{
	return k == 0 ? host_of(r) : clyde_loaded_kv_get(r, shape_keys[k]);
}

/* Does setting `key` split the series of scope s? */
static bool splits(const char *key, enum clyde_scope s)
{
	return s >= CLYDE_SCOPE_COUNT || clyde_setting_matters(key, s);
}

/* A growing string. */
struct buf {
	char *s;
	size_t len, cap;
	bool nomem;
};

static void put(struct buf *b, const char *s)
{
	size_t l = strlen(s);

	if (b->nomem)
		return;
	if (b->len + l + 1 > b->cap) {
		size_t cap = (b->len + l + 1) * 2;
		char *n = realloc(b->s, cap);

		if (!n) {
			b->nomem = true;
			return;
		}
		b->s = n;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, l + 1);
	b->len += l;
}

/* The series key of run r for scope s: fields separated by \x1f, an
 * absent value by \x1e. */
static void series_key(struct buf *b, const struct clyde_loaded_run *r,
		       enum clyde_scope s)
{
	char sc[16];
	const char *key;

	put(b, kind_name(r->kind));
	snprintf(sc, sizeof(sc), "\x1f%d", (int)s);
	put(b, sc);
	for (size_t k = 0; k < NSHAPE; k++) {
		const char *v = shape_value(r, k);

		put(b, "\x1f");
		put(b, v ? v : "\x1e");
	}
	for (size_t i = 0; (key = clyde_setting_key(i)); i++) {
		const char *v;

		if (!splits(key, s))
			continue;
		v = clyde_loaded_kv_get(r, key);
		put(b, "\x1f");
		put(b, v ? v : "\x1e");
	}
}

/* "host vm1, xfs at /mnt/t on loop3; IO tests: file size 64.0 MiB, ..." */
static char *series_what(const struct clyde_loaded_run *r, enum clyde_scope s)
{
	struct buf b = { 0 };
	const char *fs = clyde_loaded_kv_get(r, "filesystem");
	const char *mp = clyde_loaded_kv_get(r, "mount point");
	const char *disk = clyde_loaded_kv_get(r, "disk");
	const char *key;
	bool first = true;

	put(&b, kind_name(r->kind));
	put(&b, " runs of host ");
	put(&b, host_of(r)[0] ? host_of(r) : "(unnamed)");
	if (fs) {
		put(&b, ", ");
		put(&b, fs);
	}
	if (mp) {
		put(&b, " at ");
		put(&b, mp);
	}
	if (disk) {
		put(&b, " on ");
		put(&b, disk);
	}
	put(&b, "; ");
	put(&b, clyde_scope_name(s));
	for (size_t i = 0; (key = clyde_setting_key(i)); i++) {
		const char *v = clyde_loaded_kv_get(r, key);

		if (!v || !splits(key, s))
			continue;
		put(&b, first ? ": " : ", ");
		first = false;
		put(&b, key);
		put(&b, " ");
		put(&b, v);
	}
	if (b.nomem) {
		free(b.s);
		return NULL;
	}
	return b.s ? b.s : strdup("");
}

/* Does test t of run r belong to the figures of scope s? */
static bool in_scope(const struct clyde_loaded_run *r,
		     const struct clyde_loaded_test *t, enum clyde_scope s)
{
	if (r->kind != CLYDE_LOADED_BONNIE)
		return s == CLYDE_SCOPE_NONE;
	return clyde_scope_of(t->group) == s;
}

static bool has_value(const struct clyde_loaded_test *t)
{
	return t->state == CLYDE_LOADED_VALUE && t->has_rate &&
	       isfinite(t->rate);
}

static int add_item(struct clyde_changes *c, size_t *cap,
		    const struct clyde_changes_item *it)
{
	if (c->nitems == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct clyde_changes_item *n =
			realloc(c->items, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->items = n;
		*cap = ncap;
	}
	c->items[c->nitems++] = *it;
	return 0;
}

/* Search every figure of series `si`.  x and pos hold a value per run of
 * the series. */
static int search_series(struct clyde_changes *c, size_t si,
			 const struct clyde_changes_run *runs,
			 const struct clyde_cp_opts *o, double *x, size_t *pos,
			 size_t *cap)
{
	const struct clyde_changes_series *s = &c->series[si];
	struct clyde_strmap seen;
	size_t order = 0;
	int rc = 0;

	clyde_strmap_init(&seen);
	/* The figures in the order the series first has them. */
	for (size_t a = 0; a < s->n && !rc; a++) {
		const struct clyde_loaded_run *ra = runs[s->runs[a]].run;

		for (size_t ti = 0; ti < ra->ntests && !rc; ti++) {
			const struct clyde_loaded_test *t = &ra->tests[ti];
			struct clyde_cp_change *ch = NULL;
			size_t nv = 0, nch = 0;
			int added;

			if (!has_value(t) || !in_scope(ra, t, s->scope))
				continue;
			added = clyde_strmap_put(&seen, t->name, order, NULL);
			if (added <= 0) {
				rc = added;
				continue;
			}
			for (size_t b = a; b < s->n; b++) {
				const struct clyde_loaded_run *rb =
					runs[s->runs[b]].run;

				for (size_t k = 0; k < rb->ntests; k++)
					if (!strcmp(rb->tests[k].name,
						    t->name) &&
					    has_value(&rb->tests[k])) {
						x[nv] = rb->tests[k].rate;
						pos[nv++] = s->runs[b];
						break;
					}
			}
			if (nv < 2 * o->min_segment) {
				c->nshort++;
				order++;
				continue;
			}
			c->nfigures++;
			rc = clyde_cp_find(x, nv, o, &ch, &nch);
			for (size_t k = 0; k < nch && !rc; k++) {
				struct clyde_changes_item it = {
					.series = si,
					.order = order,
					.before = pos[ch[k].at - 1],
					.after = pos[ch[k].at],
					.nbefore = ch[k].at - ch[k].from,
					.nafter = ch[k].to - ch[k].at,
					.median_before = ch[k].before,
					.median_after = ch[k].after,
					.p = ch[k].p,
				};

				snprintf(it.test, sizeof(it.test), "%s",
					 t->name);
				snprintf(it.unit, sizeof(it.unit), "%s",
					 t->unit);
				rc = add_item(c, cap, &it);
			}
			free(ch);
			order++;
		}
	}
	clyde_strmap_release(&seen);
	return rc;
}

static int cmp_item(const void *a, const void *b)
{
	const struct clyde_changes_item *x = a, *y = b;

	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	if (x->after != y->after)
		return x->after < y->after ? -1 : 1;
	if (x->before != y->before)
		return x->before < y->before ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* Append run index i to the series of key (made when new). */
static int add_to_series(struct clyde_changes *c, struct clyde_strmap *map,
			 size_t *scap, const char *key,
			 const struct clyde_loaded_run *r, enum clyde_scope s,
			 size_t i, size_t n)
{
	size_t *slot;
	int added = clyde_strmap_put(map, key, c->nseries, &slot);
	struct clyde_changes_series *se;

	if (added < 0)
		return added;
	if (added) {
		if (c->nseries == *scap) {
			size_t ncap = *scap ? *scap * 2 : 8;
			struct clyde_changes_series *ns =
				realloc(c->series, ncap * sizeof(*ns));

			if (!ns)
				return -ENOMEM;
			c->series = ns;
			*scap = ncap;
		}
		se = &c->series[c->nseries];
		memset(se, 0, sizeof(*se));
		se->scope = s;
		se->runs = malloc(n * sizeof(*se->runs));
		se->what = series_what(r, s);
		c->nseries++;
		if (!se->runs || !se->what)
			return -ENOMEM;
	}
	se = &c->series[*slot];
	se->runs[se->n++] = i;
	return 0;
}

int clyde_changes_find(struct clyde_ctx *ctx,
		       const struct clyde_changes_run *runs, size_t n,
		       const struct clyde_cp_opts *o, struct clyde_changes *out)
{
	struct clyde_strmap map;
	size_t scap = 0, icap = 0;
	double *x = NULL;
	size_t *pos = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!o || o->min_segment < 2 || !(o->alpha > 0 && o->alpha <= 0.5) ||
	    o->permutations < 19)
		return clyde_err(ctx, EINVAL,
				 "change points: options out of range");
	clyde_strmap_init(&map);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct clyde_loaded_run *r = runs[i].run;

		for (int s = 0; s <= CLYDE_SCOPE_COUNT && !rc; s++) {
			struct buf key = { 0 };
			bool any = false;

			for (size_t t = 0; t < r->ntests && !any; t++)
				any = has_value(&r->tests[t]) &&
				      in_scope(r, &r->tests[t],
					       (enum clyde_scope)s);
			if (!any)
				continue;
			series_key(&key, r, (enum clyde_scope)s);
			rc = key.nomem ?
				     -ENOMEM :
				     add_to_series(out, &map, &scap, key.s, r,
						   (enum clyde_scope)s, i, n);
			free(key.s);
		}
	}
	clyde_strmap_release(&map);
	x = malloc((n ? n : 1) * sizeof(*x));
	pos = malloc((n ? n : 1) * sizeof(*pos));
	if (!rc && (!x || !pos))
		rc = -ENOMEM;
	for (size_t si = 0; si < out->nseries && !rc; si++)
		rc = search_series(out, si, runs, o, x, pos, &icap);
	free(x);
	free(pos);
	if (rc) {
		clyde_changes_release(out);
		return clyde_err(ctx, -rc, "change points");
	}
	if (out->nitems)
		qsort(out->items, out->nitems, sizeof(*out->items), cmp_item);
	return 0;
}

void clyde_changes_release(struct clyde_changes *c)
{
	for (size_t i = 0; i < c->nseries; i++) {
		free(c->series[i].runs);
		free(c->series[i].what);
	}
	free(c->series);
	free(c->items);
	memset(c, 0, sizeof(*c));
}

/* ---- text ------------------------------------------------------------ */

static void put_clean(FILE *f, const char *s)
{
	char vis[1024];

	fputs(clyde_vis(vis, sizeof(vis), s, 0), f);
}

/* A rate in the unit people read it in: B/s as MiB/s. */
static void put_rate(FILE *f, double v, const char *unit)
{
	if (!strcmp(unit, "B/s"))
		fprintf(f, "%.1f", v / (1024.0 * 1024.0));
	else
		fprintf(f, v >= 100 ? "%.0f" : "%.1f", v);
}

static void put_item(FILE *f, const struct clyde_changes_item *it)
{
	double ratio = it->median_before != 0 ?
			       it->median_after / it->median_before :
			       NAN;

	fputs("    ", f);
	put_clean(f, it->test);
	fputs(": ", f);
	put_rate(f, it->median_before, it->unit);
	fputs(" -> ", f);
	put_rate(f, it->median_after, it->unit);
	fprintf(f, " %s", strcmp(it->unit, "B/s") ? it->unit : "MiB/s");
	if (isfinite(ratio))
		fprintf(f, " (x%.2f, %+.1f%%)", ratio, (ratio - 1) * 100);
	fprintf(f,
		", p %.4f (confidence %.2f%%), medians of %zu runs before "
		"and %zu after\n",
		it->p, (1 - it->p) * 100, it->nbefore, it->nafter);
}

/* What differs between the two runs either side of a change: compare's
 * own writer over a table of those two runs (it reads their labels and
 * settings only), indented under the change. */
static int put_differs(FILE *f, const struct clyde_changes_run *runs,
		       size_t before, size_t after)
{
	char la[32], lb[32], *text = NULL;
	char *labels[2] = { la, lb };
	const struct clyde_loaded_run *pair[2] = { runs[before].run,
						   runs[after].run };
	struct clyde_compare cmp = { 0 };
	size_t len = 0;
	FILE *m;
	int rc;

	snprintf(la, sizeof(la), "#%" PRId64, runs[before].id);
	snprintf(lb, sizeof(lb), "#%" PRId64, runs[after].id);
	cmp.ncols = 2;
	cmp.labels = labels;
	cmp.runs = pair;
	m = open_memstream(&text, &len);
	if (!m)
		return -ENOMEM;
	rc = clyde_compare_write_differs(m, &cmp);
	if (fclose(m) || !text) {
		free(text);
		return -ENOMEM;
	}
	if (!rc && !len)
		fprintf(f, "    nothing recorded differs between %s and %s\n",
			la, lb);
	for (char *line = text; !rc && *line;) {
		char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);

		if (line == text && !strncmp(line, "what differs:", 13))
			fprintf(f, "    what differs between %s and %s:\n", la,
				lb);
		else
			fprintf(f, "    %.*s\n", (int)l, line);
		line += l + (nl ? 1 : 0);
	}
	free(text);
	return rc;
}

int clyde_changes_write_text(FILE *f, const struct clyde_changes *c,
			     const struct clyde_changes_run *runs,
			     const struct clyde_cp_opts *o)
{
	size_t nseries_changed = 0, nchanges = 0;
	int rc = 0;

	fprintf(f,
		"change points: binary segmentation, rank CUSUM permutation "
		"test (alpha %g, %u permutations, at least %zu runs a side)\n",
		o->alpha, o->permutations, o->min_segment);
	for (size_t i = 0; i < c->nitems && !rc; i++) {
		const struct clyde_changes_item *it = &c->items[i];
		const struct clyde_changes_series *s = &c->series[it->series];
		bool new_series = !i || c->items[i - 1].series != it->series;
		bool new_change = new_series ||
				  c->items[i - 1].after != it->after ||
				  c->items[i - 1].before != it->before;

		if (new_series) {
			fprintf(f, "\nseries %zu: ", it->series + 1);
			put_clean(f, s->what);
			fprintf(f,
				" (%zu runs, #%" PRId64 " .. #%" PRId64 ")\n",
				s->n, runs[s->runs[0]].id,
				runs[s->runs[s->n - 1]].id);
			nseries_changed++;
		}
		if (new_change) {
			char da[40], db[40];

			clyde_compare_run_date(da, sizeof(da),
					       runs[it->before].run);
			clyde_compare_run_date(db, sizeof(db),
					       runs[it->after].run);
			fprintf(f,
				"  change between #%" PRId64 " and #%" PRId64,
				runs[it->before].id, runs[it->after].id);
			if (da[0] && db[0])
				fprintf(f, " (%s -> %s)", da, db);
			fputs(":\n", f);
			nchanges++;
		}
		put_item(f, it);
		if (i + 1 == c->nitems ||
		    c->items[i + 1].series != it->series ||
		    c->items[i + 1].after != it->after ||
		    c->items[i + 1].before != it->before)
			rc = put_differs(f, runs, it->before, it->after);
	}
	if (rc)
		return rc;
	if (!c->nitems)
		fprintf(f, "no change found in %zu figures of %zu series",
			c->nfigures, c->nseries);
	else
		fprintf(f,
			"\n%zu change%s (%zu figure%s) in %zu of %zu series; "
			"%zu figures searched",
			nchanges, nchanges == 1 ? "" : "s", c->nitems,
			c->nitems == 1 ? "" : "s", nseries_changed, c->nseries,
			c->nfigures);
	if (c->nshort)
		fprintf(f, "; %zu with fewer than %zu runs not searched",
			c->nshort, 2 * o->min_segment);
	fputs("\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- marks for the report --------------------------------------------- */

int clyde_changes_marks(struct clyde_ctx *ctx, const struct clyde_compare *cmp,
			const struct clyde_cp_opts *o,
			struct clyde_html_mark **marks, size_t *n)
{
	struct clyde_changes_run *runs;
	struct clyde_changes ch;
	int rc;

	*marks = NULL;
	*n = 0;
	runs = calloc(cmp->ncols ? cmp->ncols : 1, sizeof(*runs));
	if (!runs)
		return clyde_err(ctx, ENOMEM, "change points");
	for (size_t c = 0; c < cmp->ncols; c++)
		runs[c] = (struct clyde_changes_run){ (int64_t)c + 1,
						      cmp->runs[c] };
	rc = clyde_changes_find(ctx, runs, cmp->ncols, o, &ch);
	free(runs);
	if (rc < 0)
		return rc;
	if (ch.nitems) {
		*marks = calloc(ch.nitems, sizeof(**marks));
		if (!*marks) {
			clyde_changes_release(&ch);
			return clyde_err(ctx, ENOMEM, "change points");
		}
	}
	for (size_t i = 0; i < ch.nitems; i++) {
		const struct clyde_changes_item *it = &ch.items[i];
		struct clyde_html_mark *m = &(*marks)[i];
		bool bytes = !strcmp(it->unit, "B/s");
		double div = bytes ? 1024.0 * 1024.0 : 1;

		snprintf(m->test, sizeof(m->test), "%s", it->test);
		m->col = it->after;
		snprintf(m->text, sizeof(m->text),
			 "change between %s and %s: %s %.1f -> %.1f %s "
			 "(x%.2f), p %.4f",
			 cmp->labels[it->before], cmp->labels[it->after],
			 it->test, it->median_before / div,
			 it->median_after / div, bytes ? "MiB/s" : it->unit,
			 it->median_before != 0 ?
				 it->median_after / it->median_before :
				 0,
			 it->p);
	}
	*n = ch.nitems;
	clyde_changes_release(&ch);
	return 0;
}
