/*
 * An experiment of the history as the analysis model (exp_load.h): the
 * store hands over its rows (store/exp_store.h), and this file decodes
 * them -- clyde results through results/loaded.h, timed commands'
 * documents through core/json_read.h -- into metrics and samples.
 */
#include "analysis/exp_load.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "results/kinds.h"
#include "results/loaded.h"
#include "results/result.h"
#include "results/tree_result.h"
#include "store/exp_store.h"

/* Split s at sep into a new vector (an empty s gives none). */
static int split(const char *s, char sep, char ***out, size_t *n)
{
	size_t cap = 1;
	const char *p;
	char **v;

	*out = NULL;
	*n = 0;
	if (!*s)
		return 0;
	for (p = s; *p; p++)
		cap += *p == sep;
	v = calloc(cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (p = s;; p++) {
		const char *e = strchr(p, sep);
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (!(v[*n] = strndup(p, l))) {
			for (size_t i = 0; i < *n; i++)
				free(v[i]);
			free(v);
			return -ENOMEM;
		}
		(*n)++;
		if (!e)
			break;
		p = e;
	}
	*out = v;
	return 0;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* What a test or tree phase is called in an experiment table: the label
 * of results/'s one table (a name it does not know stays as it is). */
static const char *test_label(const char *name)
{
	int t = clyde_test_from_name(name);

	if (t >= 0)
		return clyde_test_label((enum clyde_test)t);
	t = clyde_tree_phase_from_name(name);
	return t >= 0 ? clyde_tree_phase_label((enum clyde_tree_phase)t) : name;
}

/* Find or add metric key; returns its index or -1 (no memory). */
static long metric_index(struct clyde_exp *e, const char *key,
			 const char *label, const char *unit, int higher)
{
	struct clyde_exp_metric *m;

	for (size_t i = 0; i < e->nmetrics; i++)
		if (!strcmp(e->metrics[i].key, key))
			return (long)i;
	m = realloc(e->metrics, (e->nmetrics + 1) * sizeof(*m));
	if (!m)
		return -1;
	e->metrics = m;
	m = &e->metrics[e->nmetrics];
	memset(m, 0, sizeof(*m));
	m->key = strdup(key);
	m->label = strdup(label);
	m->unit = strdup(unit);
	m->higher_better = higher > 0;
	m->amount = higher < 0;
	if (!m->key || !m->label || !m->unit) {
		free(m->key);
		free(m->label);
		free(m->unit);
		return -1;
	}
	/* Every point gets the new (empty) cell. */
	for (size_t p = 0; p < e->npoints; p++) {
		struct clyde_exp_cell *c = realloc(
			e->points[p].cells, (e->nmetrics + 1) * sizeof(*c));

		if (!c)
			return -1; /* nmetrics not yet counted: safe */
		e->points[p].cells = c;
		memset(&c[e->nmetrics], 0, sizeof(*c));
	}
	return (long)e->nmetrics++;
}

/* higher: enum clyde_metric_dir (1 higher is better, 0 lower is better,
 * -1 an amount: no direction). */
static int add_sample_flag(struct clyde_exp *e, size_t point, const char *key,
			   const char *label, const char *unit, int higher,
			   double x, bool imprecise, bool degraded,
			   bool inflated);

static int add_sample(struct clyde_exp *e, size_t point, const char *key,
		      const char *label, const char *unit, int higher, double x)
{
	return add_sample_flag(e, point, key, label, unit, higher, x, false,
			       false, false);
}

/* add_sample(), counting a sample of a test that ran under 0.5 s, one
 * measured while an md array lost members and one a mount or export
 * setting inflates. */
static int add_sample_flag(struct clyde_exp *e, size_t point, const char *key,
			   const char *label, const char *unit, int higher,
			   double x, bool imprecise, bool degraded,
			   bool inflated)
{
	long m = metric_index(e, key, label, unit, higher);
	struct clyde_exp_cell *c;
	double *s;

	if (m < 0 || point >= e->npoints)
		return m < 0 ? -ENOMEM : 0;
	c = &e->points[point].cells[m];
	s = realloc(c->samples, (c->n + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	c->samples = s;
	s[c->n++] = x;
	c->nimprecise += imprecise;
	c->ndegraded += degraded;
	c->ninflated += inflated;
	return 0;
}

/* The cell of metric `key` at point takes the series s, unless it has
 * one already (the first repeat's is shown). */
static int add_series(struct clyde_exp *e, size_t point, const char *key,
		      const struct clyde_loaded_series *s)
{
	struct clyde_exp_series *d = NULL;

	if (s->n < 2 || point >= e->npoints)
		return 0;
	for (size_t m = 0; m < e->nmetrics; m++)
		if (!strcmp(e->metrics[m].key, key))
			d = &e->points[point].cells[m].series;
	if (!d || d->n)
		return 0;
	d->rate = malloc(s->n * sizeof(double));
	d->dirty = malloc(s->n * sizeof(double));
	if (!d->rate || !d->dirty) {
		free(d->rate);
		free(d->dirty);
		d->rate = d->dirty = NULL;
		return -ENOMEM;
	}
	memcpy(d->rate, s->rate, s->n * sizeof(double));
	memcpy(d->dirty, s->dirty, s->n * sizeof(double));
	d->interval_s = s->interval_s;
	d->n = s->n;
	return 0;
}

/* Set a point's config text once, from its first result. */
static int set_config(struct clyde_exp_point *p, const char *text)
{
	if (p->config || !text || !*text)
		return 0;
	return (p->config = strdup(text)) ? 0 : -ENOMEM;
}

/* The experiment's machine, once, from the first result that names it. */
static int set_machine(struct clyde_exp *e, const struct clyde_loaded_run *run)
{
	const char *host = clyde_loaded_kv_get(run, "host");
	const char *kernel = clyde_loaded_kv_get(run, "kernel");
	const char *cpu = clyde_loaded_kv_get(run, "CPU");
	const char *ncpu = clyde_loaded_kv_get(run, "CPUs");
	const char *ram = clyde_loaded_kv_get(run, "RAM");
	char m[1024];

	if (e->machine || !host)
		return 0;
	snprintf(m, sizeof(m), "host %s%s%s%s%s%s%s%s%s", host,
		 kernel ? ", kernel " : "", kernel ? kernel : "",
		 cpu ? ", CPU " : "", cpu ? cpu : "", ncpu ? " x " : "",
		 ncpu ? ncpu : "", ram ? ", RAM " : "", ram ? ram : "");
	return (e->machine = strdup(m)) ? 0 : -ENOMEM;
}

/* A clyde run or tree result: one sample per test that has a rate. */
static int add_result(struct clyde_ctx *ctx, struct clyde_exp *e, size_t point,
		      const char *wl, const char *doc, size_t len)
{
	struct clyde_loaded_set set;
	int rc;

	clyde_loaded_set_init(&set);
	rc = clyde_loaded_read_buffer(ctx, doc, len, wl, &set);
	for (size_t r = 0; rc == 0 && r < set.nruns; r++) {
		const struct clyde_loaded_run *run = &set.runs[r];
		const char *fs = clyde_loaded_kv_get(run, "filesystem");
		const char *mo = clyde_loaded_kv_get(run, "mount options");
		const char *dev = clyde_loaded_kv_get(run, "block device");
		const struct clyde_result_kind *k =
			clyde_result_kind_loaded(run->kind);
		int higher = k ? (int)k->dir : CLYDE_METRIC_HIGHER;
		char cfg[1024];

		snprintf(cfg, sizeof(cfg), "%s%s%s%s%s%s",
			 fs ? "filesystem " : "", fs ? fs : "",
			 mo ? "; mount options " : "", mo ? mo : "",
			 dev ? "; device " : "", dev ? dev : "");
		if (set_config(&e->points[point], cfg) < 0 ||
		    set_machine(e, run) < 0)
			rc = -ENOMEM;
		for (size_t t = 0; rc == 0 && t < run->ntests; t++) {
			const struct clyde_loaded_test *lt = &run->tests[t];
			const char *label = lt->name;
			char key[128];

			if (!(lt->state == CLYDE_LOADED_VALUE ||
			      (lt->state == CLYDE_LOADED_TOO_FAST &&
			       lt->has_rate)))
				continue;
			label = test_label(lt->name);
			snprintf(key, sizeof(key), "%s.%s", wl, lt->name);
			rc = add_sample_flag(e, point, key, label, lt->unit,
					     higher, lt->rate,
					     lt->state == CLYDE_LOADED_TOO_FAST,
					     lt->ndegraded > 0,
					     lt->ninflated > 0);
			if (rc == 0)
				rc = add_series(e, point, key, &lt->series);
		}
	}
	clyde_loaded_set_release(&set);
	if (rc == -ENOMEM)
		clyde_err(ctx, ENOMEM, "experiment %s", e->id);
	return rc;
}

/* Sample `x` of the fixed metric m of kind k (a timed command's) for
 * workload wl; `member` names a counted device's position ("m2") or is
 * NULL, and `dev` its name for the label. */
static int add_fixed(struct clyde_exp *e, size_t point,
		     const struct clyde_result_kind *k, size_t m,
		     const char *wl, const char *member, const char *dev,
		     double x)
{
	const struct clyde_result_metric *mt = &k->metrics[m];
	char key[128], label[128];

	if (member) {
		/* "device read" -> "DEV read": the member's own name. */
		const char *word = strrchr(mt->label, ' ');

		snprintf(key, sizeof(key), "%s.%s.%s%s", k->name, wl, member,
			 mt->suffix);
		snprintf(label, sizeof(label), "%s %s%s", wl, dev,
			 word ? word : "");
	} else {
		snprintf(key, sizeof(key), "%s.%s%s", k->name, wl, mt->suffix);
		snprintf(label, sizeof(label), "%s %s", wl, mt->label);
	}
	return add_sample(e, point, key, label, mt->unit, (int)mt->dir, x);
}

/* A timed command's document: seconds, CPU seconds, device rates (the
 * metrics of its kind, results/kinds.c). */
static int add_timed(struct clyde_ctx *ctx, struct clyde_exp *e, size_t point,
		     const struct clyde_result_kind *k, const char *wl,
		     const char *doc, size_t len)
{
	struct clyde_json root;
	struct clyde_json_error jerr;
	const struct clyde_json *dev;
	uint64_t el = 0, cu = 0, cs = 0, rb, wb;
	int rc;

	if (clyde_json_parse(doc, len, NULL, &root, &jerr) < 0)
		return 0; /* an unreadable document is no sample */
	if (!clyde_json_u64(clyde_json_get(&root, "elapsed_ns"), &el)) {
		clyde_json_free(&root);
		return 0;
	}
	clyde_json_u64(clyde_json_get(&root, "cpu_user_ns"), &cu);
	clyde_json_u64(clyde_json_get(&root, "cpu_sys_ns"), &cs);
	rc = add_fixed(e, point, k, CLYDE_TIME_ELAPSED, wl, NULL, NULL,
		       (double)el / 1e9);
	if (rc == 0)
		rc = add_fixed(e, point, k, CLYDE_TIME_CPU, wl, NULL, NULL,
			       (double)(cu + cs) / 1e9);
	dev = clyde_json_get(&root, "device");
	if (rc == 0 && dev && el > 0 &&
	    clyde_json_u64(clyde_json_get(dev, "read_bytes"), &rb) &&
	    clyde_json_u64(clyde_json_get(dev, "write_bytes"), &wb)) {
		const char *dn = clyde_json_str(clyde_json_get(dev, "name"));
		char cfg[256];

		rc = add_fixed(e, point, k, CLYDE_TIME_READ_BYTES, wl, NULL,
			       NULL, (double)rb);
		if (rc == 0)
			rc = add_fixed(e, point, k, CLYDE_TIME_WRITE_BYTES, wl,
				       NULL, NULL, (double)wb);
		snprintf(cfg, sizeof(cfg), "device %s", dn ? dn : "?");
		if (rc == 0)
			rc = set_config(&e->points[point], cfg);
	}
	/* Each member of several counted devices: its own rates, so that a
	 * member doing more than its share shows. */
	for (size_t i = 0; rc == 0 && el > 0; i++) {
		const struct clyde_json *mb =
			clyde_json_at(clyde_json_get(&root, "members"), i);
		const char *mn = clyde_json_str(clyde_json_get(mb, "name"));
		char pos[32];

		if (!mb)
			break;
		if (!mn ||
		    !clyde_json_u64(clyde_json_get(mb, "read_bytes"), &rb) ||
		    !clyde_json_u64(clyde_json_get(mb, "write_bytes"), &wb))
			continue;
		/* By position in `device =`: loop device names change from
		 * visit to visit, positions do not.  The label names the
		 * device of the first sample. */
		snprintf(pos, sizeof(pos), "m%zu", i + 1);
		rc = add_fixed(e, point, k, CLYDE_TIME_READ_BYTES, wl, pos, mn,
			       (double)rb);
		if (rc == 0)
			rc = add_fixed(e, point, k, CLYDE_TIME_WRITE_BYTES, wl,
				       pos, mn, (double)wb);
	}
	clyde_json_free(&root);
	if (rc == -ENOMEM)
		clyde_err(ctx, ENOMEM, "experiment %s", e->id);
	return rc;
}

/* One planned point: always naxes values, even from a damaged row. */
static int add_point(void *arg, size_t point, const char *values)
{
	struct clyde_exp *e = arg;
	struct clyde_exp_point *p;
	char **vals;
	size_t n;
	int rc = 0;

	(void)point; /* in order: the walk sorts by it */
	p = realloc(e->points, (e->npoints + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	e->points = p;
	p = &e->points[e->npoints];
	memset(p, 0, sizeof(*p));
	if (split(values, '\t', &vals, &n) < 0)
		return -ENOMEM;
	p->values = calloc(e->naxes + 1, sizeof(char *));
	if (!p->values) {
		free_strv(vals, n);
		return -ENOMEM;
	}
	for (size_t a = 0; a < e->naxes; a++) {
		p->values[a] = a < n ? vals[a] : strdup("?");
		if (a < n)
			vals[a] = NULL;
	}
	free_strv(vals, n);
	e->npoints++;
	for (size_t a = 0; a < e->naxes; a++)
		if (!p->values[a])
			rc = -ENOMEM;
	return rc;
}

/* What the walk over one workload's runs needs. */
struct run_walk {
	struct clyde_ctx *ctx;
	struct clyde_exp *e;
	const char *workload;
	bool *any_ok, *any_fail;
};

static int add_run(void *arg, const struct clyde_exp_row *r)
{
	struct run_walk *w = arg;
	const struct clyde_result_kind *k;

	if (r->point >= w->e->npoints)
		return 0;
	/* Not a failure: a sample the user deleted, counted and said. */
	if (r->deleted) {
		w->e->ndeleted++;
		return 0;
	}
	if (!r->ok) {
		w->any_fail[r->point] = true;
		return 0;
	}
	w->any_ok[r->point] = true;
	if (!r->doc)
		return 0;
	k = clyde_result_kind_stored(r->kind);
	/* A kind the loader reads (or one this clyde does not know, as
	 * before): its rows; else its own document's fixed metrics. */
	if (k && !k->decoded)
		return add_timed(w->ctx, w->e, r->point, k, w->workload, r->doc,
				 r->len);
	return add_result(w->ctx, w->e, r->point, w->workload, r->doc, r->len);
}

/* The samples, workload by workload in file order, runs in saved order. */
static int load_runs(struct clyde_ctx *ctx, struct clyde_history *h,
		     struct clyde_exp *e, char **wl, size_t nwl)
{
	struct run_walk w = { .ctx = ctx, .e = e };
	int rc = 0;

	w.any_ok = calloc(e->npoints + 1, sizeof(bool));
	w.any_fail = calloc(e->npoints + 1, sizeof(bool));
	if (!w.any_ok || !w.any_fail)
		rc = clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	for (size_t i = 0; rc == 0 && i < nwl; i++) {
		char *sp = strchr(wl[i], ' ');

		if (sp)
			*sp = '\0'; /* "name kind" */
		w.workload = wl[i];
		rc = clyde_exp_store_each_run(ctx, h, e->id, wl[i], add_run,
					      &w);
	}
	for (size_t p = 0; rc == 0 && p < e->npoints; p++)
		e->points[p].failed = w.any_fail[p] && !w.any_ok[p];
	free(w.any_ok);
	free(w.any_fail);
	return rc;
}

/* "clyde sweep FILE --define A=1 --define B=2" from the file and the
 * defines ("A=1\nB=2") of the experiment (NULL: no memory). */
static char *command_line(const char *f, const char *d)
{
	static const char def[] = " --define ";
	const size_t dl = sizeof(def) - 1;
	size_t len = strlen("clyde sweep ") + (f ? strlen(f) : 0) + 1, o;
	char *s;

	for (const char *p = d; p && *p; p++)
		len += *p == '\n' ? dl : 1;
	len += d && *d ? dl : 0;
	if (!(s = malloc(len)))
		return NULL;
	o = (size_t)snprintf(s, len, "clyde sweep %s%s", f ? f : "",
			     d && *d ? def : "");
	for (const char *p = d; p && *p && o + 1 < len; p++) {
		if (*p != '\n')
			s[o++] = *p;
		else if (p[1])
			o += (size_t)snprintf(s + o, len - o, "%s", def);
	}
	s[o] = '\0';
	return s;
}

int clyde_history_load_experiment(struct clyde_ctx *ctx,
				  struct clyde_history *h, const char *id,
				  struct clyde_exp *out)
{
	struct clyde_exp_info info;
	char **wl = NULL;
	size_t nwl = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&info, 0, sizeof(info));
	rc = clyde_exp_store_get(ctx, h, id, &info);
	if (rc < 0)
		return rc;
	out->id = strdup(info.id);
	out->title = strdup(info.title[0] ? info.title : info.name);
	out->command = command_line(info.file, info.defines);
	if (!out->id || !out->title || !out->command ||
	    split(info.axes, '\t', &out->axis_names, &out->naxes) < 0 ||
	    split(info.workloads, '\t', &wl, &nwl) < 0)
		rc = clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	if (rc == 0) {
		rc = clyde_exp_store_each_point(ctx, h, out->id, add_point,
						out);
		if (rc == -ENOMEM)
			clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	}
	if (rc == 0)
		rc = load_runs(ctx, h, out, wl, nwl);
	free_strv(wl, nwl);
	clyde_exp_info_release(&info);
	if (rc < 0)
		clyde_exp_release(out);
	return rc;
}
