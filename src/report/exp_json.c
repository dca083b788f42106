/*
 * The experiment JSON reader (see exp_json.h), over the project's JSON
 * parser (src/core/json_read.h).  Each member is checked where it is
 * read, so the first problem is reported with its line.
 */
#include "report/exp_json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"

struct reader {
	struct clyde_ctx *ctx;
	const char *path;
};

/* Record "PATH:LINE: reason" and return -EINVAL. */
__attribute__((format(printf, 3, 4))) static int
bad(const struct reader *r, const struct clyde_json *at, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	clyde_err(r->ctx, 0, "%s:%lu: %s", r->path, at ? at->line : 1UL, why);
	return -EINVAL;
}

/* A copy of the string member `key` of obj into *out; NULL when absent
 * and not required. */
static int get_str(const struct reader *r, const struct clyde_json *obj,
		   const char *key, bool required, char **out)
{
	const struct clyde_json *v = clyde_json_get(obj, key);

	*out = NULL;
	if (!v) {
		if (required)
			return bad(r, obj, "no \"%s\" member", key);
		return 0;
	}
	if (v->type == CLYDE_JSON_NULL && !required)
		return 0;
	if (v->type != CLYDE_JSON_STRING || strlen(v->str) != v->n)
		return bad(r, v, "\"%s\" must be a string", key);
	*out = strdup(v->str);
	return *out ? 0 : -ENOMEM;
}

static int get_array(const struct reader *r, const struct clyde_json *obj,
		     const char *key, const struct clyde_json **out)
{
	const struct clyde_json *v = clyde_json_get(obj, key);

	if (!v)
		return bad(r, obj, "no \"%s\" member", key);
	if (v->type != CLYDE_JSON_ARRAY)
		return bad(r, v, "\"%s\" must be an array", key);
	*out = v;
	return 0;
}

static int read_metrics(const struct reader *r, const struct clyde_json *arr,
			struct clyde_exp *e)
{
	size_t i, j;
	int rc;

	if (!arr->n)
		return bad(r, arr, "\"metrics\" is empty");
	e->metrics = calloc(arr->n, sizeof(*e->metrics));
	if (!e->metrics)
		return -ENOMEM;
	for (i = 0; i < arr->n; i++) {
		const struct clyde_json *o = &arr->items[i];
		struct clyde_exp_metric *m = &e->metrics[i];
		const struct clyde_json *hb;

		if (o->type != CLYDE_JSON_OBJECT)
			return bad(r, o, "a metric must be an object");
		e->nmetrics++;
		rc = get_str(r, o, "key", true, &m->key);
		if (!rc)
			rc = get_str(r, o, "label", false, &m->label);
		if (!rc)
			rc = get_str(r, o, "unit", false, &m->unit);
		if (rc)
			return rc;
		if (!*m->key)
			return bad(r, o, "a metric key is empty");
		for (j = 0; j < i; j++)
			if (!strcmp(e->metrics[j].key, m->key))
				return bad(r, o, "metric \"%s\" given twice",
					   m->key);
		if (!m->label && !(m->label = strdup(m->key)))
			return -ENOMEM;
		if (!m->unit && !(m->unit = strdup("")))
			return -ENOMEM;
		m->higher_better = strcmp(m->unit, "s") &&
				   strcmp(m->unit, "ns");
		hb = clyde_json_get(o, "higher_better");
		if (hb && !clyde_json_bool(hb, &m->higher_better))
			return bad(r, hb,
				   "\"higher_better\" must be true or "
				   "false");
		/* Bytes are amounts unless the file says otherwise. */
		m->amount = !strcmp(m->unit, "B");
		hb = clyde_json_get(o, "amount");
		if (hb && !clyde_json_bool(hb, &m->amount))
			return bad(r, hb, "\"amount\" must be true or false");
	}
	return 0;
}

static size_t find_metric(const struct clyde_exp *e, const char *key)
{
	size_t m;

	for (m = 0; m < e->nmetrics; m++)
		if (!strcmp(e->metrics[m].key, key))
			return m;
	return e->nmetrics;
}

/* A point's "series": {"KEY": {"interval_s": 1, "rate": [...],
 * "dirty": [...]}}: rates (>= 0) per interval, dirty bytes (null: not
 * read; the member may be left out). */
static int read_series(const struct reader *r, const struct clyde_json *s,
		       struct clyde_exp *e, struct clyde_exp_point *p)
{
	if (s->type != CLYDE_JSON_OBJECT)
		return bad(r, s, "\"series\" must be an object");
	for (size_t i = 0; i < s->n; i++) {
		const struct clyde_json *o = &s->items[i], *rate, *dirty;
		size_t m = find_metric(e, o->key);
		struct clyde_exp_series *d;

		if (m == e->nmetrics)
			return bad(r, o,
				   "series of \"%s\", which is not in "
				   "\"metrics\"",
				   o->key);
		d = &p->cells[m].series;
		if (d->rate)
			return bad(r, o, "series of \"%s\" given twice",
				   o->key);
		if (o->type != CLYDE_JSON_OBJECT ||
		    !clyde_json_double(clyde_json_get(o, "interval_s"),
				       &d->interval_s) ||
		    !(d->interval_s > 0) || !isfinite(d->interval_s))
			return bad(r, o,
				   "series of \"%s\" needs \"interval_s\", "
				   "a number above 0",
				   o->key);
		rate = clyde_json_get(o, "rate");
		dirty = clyde_json_get(o, "dirty");
		if (!rate || rate->type != CLYDE_JSON_ARRAY)
			return bad(r, o,
				   "series of \"%s\" needs \"rate\", "
				   "an array of numbers",
				   o->key);
		if (dirty &&
		    (dirty->type != CLYDE_JSON_ARRAY || dirty->n != rate->n))
			return bad(r, dirty,
				   "\"dirty\" must be an array as long as "
				   "\"rate\"");
		d->rate = calloc(rate->n ? rate->n : 1, sizeof(double));
		d->dirty = calloc(rate->n ? rate->n : 1, sizeof(double));
		if (!d->rate || !d->dirty)
			return -ENOMEM;
		for (size_t k = 0; k < rate->n; k++) {
			const struct clyde_json *dv = dirty ? &dirty->items[k] :
							      NULL;

			if (!clyde_json_double(&rate->items[k], &d->rate[k]) ||
			    !(d->rate[k] >= 0) || !isfinite(d->rate[k]))
				return bad(r, &rate->items[k],
					   "a rate must be a number of 0 or "
					   "more");
			d->dirty[k] = -1;
			if (dv && dv->type != CLYDE_JSON_NULL &&
			    (!clyde_json_double(dv, &d->dirty[k]) ||
			     !(d->dirty[k] >= 0) || !isfinite(d->dirty[k])))
				return bad(r, dv,
					   "a dirty figure must be a number of "
					   "0 or more, or null");
		}
		d->n = rate->n;
	}
	return 0;
}

static int read_point(const struct reader *r, const struct clyde_json *o,
		      struct clyde_exp *e, struct clyde_exp_point *p)
{
	const struct clyde_json *vals, *s, *fl;
	size_t a, i, k;
	int rc;

	if (o->type != CLYDE_JSON_OBJECT)
		return bad(r, o, "a point must be an object");
	p->values = calloc(e->naxes, sizeof(*p->values));
	p->cells = calloc(e->nmetrics, sizeof(*p->cells));
	if (!p->values || !p->cells)
		return -ENOMEM;
	rc = get_array(r, o, "values", &vals);
	if (rc)
		return rc;
	if (vals->n != e->naxes)
		return bad(r, vals, "%zu values for %zu axes", vals->n,
			   e->naxes);
	for (a = 0; a < e->naxes; a++) {
		const char *v = clyde_json_str(&vals->items[a]);

		if (!v || strlen(v) != vals->items[a].n || !*v)
			return bad(r, &vals->items[a],
				   "an axis value must be a non-empty string");
		if (!(p->values[a] = strdup(v)))
			return -ENOMEM;
	}
	rc = get_str(r, o, "config", false, &p->config);
	if (rc)
		return rc;
	fl = clyde_json_get(o, "failed");
	if (fl && !clyde_json_bool(fl, &p->failed))
		return bad(r, fl, "\"failed\" must be true or false");
	s = clyde_json_get(o, "series");
	if (s && (rc = read_series(r, s, e, p)) != 0)
		return rc;
	s = clyde_json_get(o, "samples");
	if (!s)
		return 0;
	if (s->type != CLYDE_JSON_OBJECT)
		return bad(r, s, "\"samples\" must be an object");
	for (i = 0; i < s->n; i++) {
		const struct clyde_json *arr = &s->items[i];
		size_t m = find_metric(e, arr->key);
		struct clyde_exp_cell *c;

		if (m == e->nmetrics)
			return bad(r, arr,
				   "samples of \"%s\", which is not "
				   "in \"metrics\"",
				   arr->key);
		c = &p->cells[m];
		if (c->samples)
			return bad(r, arr, "samples of \"%s\" given twice",
				   arr->key);
		if (arr->type != CLYDE_JSON_ARRAY)
			return bad(r, arr,
				   "samples of \"%s\" must be an "
				   "array of numbers",
				   arr->key);
		c->samples = calloc(arr->n ? arr->n : 1, sizeof(double));
		if (!c->samples)
			return -ENOMEM;
		for (k = 0; k < arr->n; k++)
			if (!clyde_json_double(&arr->items[k],
					       &c->samples[c->n++]))
				return bad(r, &arr->items[k],
					   "a sample must be a number");
	}
	return 0;
}

static int read_root(const struct reader *r, const struct clyde_json *root,
		     struct clyde_exp *e)
{
	const struct clyde_json *axes, *metrics, *points, *ver;
	char *schema = NULL;
	uint64_t v;
	size_t i;
	int rc;

	if (root->type != CLYDE_JSON_OBJECT)
		return bad(r, root, "not a clyde experiment (not an object)");
	rc = get_str(r, root, "schema", true, &schema);
	if (rc)
		return rc;
	if (strcmp(schema, CLYDE_EXP_SCHEMA)) {
		free(schema);
		return bad(r, clyde_json_get(root, "schema"),
			   "not a clyde experiment (schema is not \"%s\")",
			   CLYDE_EXP_SCHEMA);
	}
	free(schema);
	ver = clyde_json_get(root, "schema_version");
	if (!clyde_json_u64(ver, &v) || v != CLYDE_EXP_SCHEMA_VERSION)
		return bad(r, ver ? ver : root, "\"schema_version\" must be %d",
			   CLYDE_EXP_SCHEMA_VERSION);
	rc = get_str(r, root, "id", false, &e->id);
	if (!rc)
		rc = get_str(r, root, "title", false, &e->title);
	if (!rc)
		rc = get_array(r, root, "axes", &axes);
	if (!rc)
		rc = get_array(r, root, "metrics", &metrics);
	if (!rc)
		rc = get_array(r, root, "points", &points);
	if (rc)
		return rc;
	if (!axes->n)
		return bad(r, axes, "\"axes\" is empty");
	e->axis_names = calloc(axes->n, sizeof(*e->axis_names));
	if (!e->axis_names)
		return -ENOMEM;
	for (i = 0; i < axes->n; i++) {
		const char *s = clyde_json_str(&axes->items[i]);

		if (!s || !*s || strlen(s) != axes->items[i].n)
			return bad(r, &axes->items[i],
				   "an axis name must be a non-empty string");
		if (!(e->axis_names[i] = strdup(s)))
			return -ENOMEM;
		e->naxes++;
	}
	rc = read_metrics(r, metrics, e);
	if (rc)
		return rc;
	e->points = calloc(points->n ? points->n : 1, sizeof(*e->points));
	if (!e->points)
		return -ENOMEM;
	for (i = 0; i < points->n; i++) {
		/* Counted first, so that a half-read point is released. */
		e->npoints++;
		rc = read_point(r, &points->items[i], e, &e->points[i]);
		if (rc)
			return rc;
	}
	return 0;
}

int clyde_exp_json_load(struct clyde_ctx *ctx, const char *path,
			struct clyde_exp *out)
{
	struct reader r = { ctx, path };
	struct clyde_json root;
	struct clyde_json_error err;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = clyde_json_parse_file(ctx, path, NULL, &root, &err);
	if (rc == -EINVAL || (rc == -ENOMEM && err.line)) {
		clyde_err(ctx, 0, "%s:%lu: %s", path, err.line, err.why);
		return rc;
	}
	if (rc)
		return rc;
	rc = read_root(&r, &root, out);
	clyde_json_free(&root);
	if (rc == -ENOMEM)
		clyde_err(ctx, ENOMEM, "reading %s", path);
	return rc;
}
