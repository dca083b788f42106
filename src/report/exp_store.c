/*
 * Experiments in the results history: see exp_store.h.  The tables live
 * in history.c's database (one connection, history.c's migrations); this
 * file only adds and reads its own tables, and stores clyde results
 * through clyde_history_add() like any run.
 */
#include "report/exp_store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/loaded.h"
#include "results/json_read.h"

#ifdef CLYDE_HAVE_SQLITE
#include <sqlite3.h>
#endif

void clyde_exp_info_release(struct clyde_exp_info *i)
{
	if (!i)
		return;
	free(i->id);
	free(i->name);
	free(i->title);
	free(i->file);
	free(i->text);
	free(i->defines);
	free(i->state);
	memset(i, 0, sizeof(*i));
}

#ifndef CLYDE_HAVE_SQLITE

static int no_sqlite(struct clyde_ctx *ctx)
{
	return clyde_err(ctx, 0,
			 "experiments: clyde was built without "
			 "SQLite (Debian: libsqlite3-dev)"),
	       -ENOTSUP;
}

int clyde_exp_store_migrate_v2(struct clyde_ctx *ctx, struct clyde_history *h)
{
	(void)h;
	return no_sqlite(ctx);
}

int clyde_exp_store_create(struct clyde_ctx *ctx, struct clyde_history *h,
			   const struct clyde_exp_new *e, char **id_out)
{
	(void)h, (void)e, (void)id_out;
	return no_sqlite(ctx);
}

int clyde_exp_store_get(struct clyde_ctx *ctx, struct clyde_history *h,
			const char *id, struct clyde_exp_info *out)
{
	(void)h, (void)id, (void)out;
	return no_sqlite(ctx);
}

int clyde_exp_store_list(struct clyde_ctx *ctx, struct clyde_history *h,
			 struct clyde_exp_info **out, size_t *n)
{
	(void)h, (void)out, (void)n;
	return no_sqlite(ctx);
}

int clyde_exp_store_set_state(struct clyde_ctx *ctx, struct clyde_history *h,
			      const char *id, const char *state)
{
	(void)h, (void)id, (void)state;
	return no_sqlite(ctx);
}

int clyde_exp_store_add_run(struct clyde_ctx *ctx, struct clyde_history *h,
			    const char *id, const struct clyde_exp_run_rec *r,
			    int64_t *run_id)
{
	(void)h, (void)id, (void)r, (void)run_id;
	return no_sqlite(ctx);
}

int clyde_exp_store_runs(struct clyde_ctx *ctx, struct clyde_history *h,
			 const char *id, struct clyde_exp_done **out, size_t *n)
{
	(void)h, (void)id, (void)out, (void)n;
	return no_sqlite(ctx);
}

int clyde_history_load_experiment(struct clyde_ctx *ctx,
				  struct clyde_history *h, const char *id,
				  struct clyde_exp *out)
{
	(void)h, (void)id, (void)out;
	return no_sqlite(ctx);
}

#else

static int db_fail(struct clyde_ctx *ctx, struct clyde_history *h,
		   const char *what)
{
	sqlite3 *db = clyde_history_sqlite(h);
	int code = sqlite3_errcode(db);

	clyde_err(ctx, 0, "%s: %s: %s", clyde_history_path(h), what,
		  sqlite3_errmsg(db));
	return code == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

static int exec(struct clyde_ctx *ctx, struct clyde_history *h, const char *sql)
{
	if (sqlite3_exec(clyde_history_sqlite(h), sql, NULL, NULL, NULL) !=
	    SQLITE_OK)
		return db_fail(ctx, h, sql);
	return 0;
}

static int prepare(struct clyde_ctx *ctx, struct clyde_history *h,
		   const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(clyde_history_sqlite(h), sql, -1, st, NULL) !=
	    SQLITE_OK)
		return db_fail(ctx, h, "prepare");
	return 0;
}

static void rollback(struct clyde_history *h)
{
	sqlite3 *db = clyde_history_sqlite(h);

	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

static int commit(struct clyde_ctx *ctx, struct clyde_history *h)
{
	int rc = exec(ctx, h, "COMMIT");

	if (rc < 0)
		rollback(h);
	return rc;
}

static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return strdup(t ? (const char *)t : "");
}

int clyde_exp_store_migrate_v2(struct clyde_ctx *ctx, struct clyde_history *h)
{
	return exec(ctx, h,
		    "CREATE TABLE experiments (id TEXT PRIMARY KEY, "
		    "name TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', "
		    "file TEXT NOT NULL DEFAULT '', text TEXT NOT NULL, "
		    "defines TEXT NOT NULL DEFAULT '', "
		    "axes TEXT NOT NULL DEFAULT '', "
		    "workloads TEXT NOT NULL DEFAULT '', "
		    "state TEXT NOT NULL DEFAULT 'running', "
		    "created_unix INTEGER NOT NULL, updated_unix INTEGER);"
		    "CREATE TABLE experiment_points (exp_id TEXT NOT NULL, "
		    "point INTEGER NOT NULL, axis_values TEXT NOT NULL, "
		    "PRIMARY KEY (exp_id, point));"
		    "CREATE TABLE experiment_runs (id INTEGER PRIMARY KEY "
		    "AUTOINCREMENT, exp_id TEXT NOT NULL, "
		    "point INTEGER NOT NULL, repeat INTEGER NOT NULL, "
		    "workload TEXT NOT NULL, kind TEXT NOT NULL, "
		    "status TEXT NOT NULL, run_id INTEGER, document TEXT, "
		    "message TEXT NOT NULL DEFAULT '', "
		    "saved_unix INTEGER NOT NULL);"
		    "CREATE INDEX experiment_runs_by_exp ON experiment_runs "
		    "(exp_id, point, repeat);");
}

/* Join n strings with sep into a new string (NULL: no memory). */
static char *join(char *const *v, size_t n, char sep)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(v[i]);

		if (i)
			*p++ = sep;
		memcpy(p, v[i], l + 1);
		p += l;
	}
	return s;
}

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

static bool id_taken(struct clyde_history *h, const char *id)
{
	sqlite3_stmt *st = NULL;
	bool taken = true;

	if (sqlite3_prepare_v2(clyde_history_sqlite(h),
			       "SELECT 1 FROM experiments WHERE id = ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return true;
	bind_text(st, 1, id);
	taken = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return taken;
}

static int insert_points(struct clyde_ctx *ctx, struct clyde_history *h,
			 const char *id, const struct clyde_exp_new *e)
{
	sqlite3_stmt *st = NULL;
	int rc = prepare(ctx, h,
			 "INSERT INTO experiment_points (exp_id, point, "
			 "axis_values) VALUES (?1, ?2, ?3)",
			 &st);

	for (size_t p = 0; rc == 0 && p < e->npoints; p++) {
		char *vals = join((char *const *)(e->values + p * e->naxes),
				  e->naxes, '\t');

		if (!vals) {
			rc = clyde_err(ctx, ENOMEM, "%s",
				       clyde_history_path(h));
			break;
		}
		sqlite3_reset(st);
		bind_text(st, 1, id);
		sqlite3_bind_int64(st, 2, (int64_t)p);
		bind_text(st, 3, vals);
		free(vals);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(ctx, h, "store the experiment's points");
	}
	sqlite3_finalize(st);
	return rc;
}

int clyde_exp_store_create(struct clyde_ctx *ctx, struct clyde_history *h,
			   const struct clyde_exp_new *e, char **id_out)
{
	char id[256], base[64], stamp[32];
	char *axes = NULL, *wls = NULL;
	time_t now = time(NULL);
	struct tm tm;
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	/* The name goes into a shell-friendly id: letters, digits, - _ . */
	for (i = 0; e->name[i] && i < sizeof(base) - 1; i++) {
		char c = e->name[i];

		base[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					  (c >= '0' && c <= '9') || c == '-' ||
					  c == '_' || c == '.' ?
				  c :
				  '-';
	}
	base[i] = '\0';
	axes = join(e->axis_names, e->naxes, '\t');
	{
		char **pairs = calloc(e->nworkloads + 1, sizeof(char *));

		for (i = 0; pairs && i < e->nworkloads; i++) {
			size_t l = strlen(e->wl_names[i]) +
				   strlen(e->wl_kinds[i]) + 2;

			if (!(pairs[i] = malloc(l)))
				break;
			snprintf(pairs[i], l, "%s %s", e->wl_names[i],
				 e->wl_kinds[i]);
		}
		if (pairs && i == e->nworkloads)
			wls = join(pairs, e->nworkloads, '\t');
		free_strv(pairs, e->nworkloads);
	}
	if (!axes || !wls) {
		free(axes);
		free(wls);
		return clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	}
	rc = exec(ctx, h, "BEGIN IMMEDIATE");
	if (rc == 0) {
		snprintf(id, sizeof(id), "%s-%s", stamp, base);
		for (i = 2; id_taken(h, id) && i < 1000; i++)
			snprintf(id, sizeof(id), "%s-%s-%zu", stamp, base, i);
		rc = prepare(ctx, h,
			     "INSERT INTO experiments (id, name, title, file, "
			     "text, defines, axes, workloads, state, "
			     "created_unix, updated_unix) VALUES (?1, ?2, ?3, "
			     "?4, ?5, ?6, ?7, ?8, 'running', ?9, ?9)",
			     &st);
	}
	if (rc == 0) {
		bind_text(st, 1, id);
		bind_text(st, 2, e->name);
		bind_text(st, 3, e->title);
		bind_text(st, 4, e->file);
		bind_text(st, 5, e->text);
		bind_text(st, 6, e->defines);
		bind_text(st, 7, axes);
		bind_text(st, 8, wls);
		sqlite3_bind_int64(st, 9, (int64_t)now);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(ctx, h, "store the experiment");
		sqlite3_finalize(st);
	}
	free(axes);
	free(wls);
	if (rc == 0)
		rc = insert_points(ctx, h, id, e);
	if (rc == 0)
		rc = commit(ctx, h);
	else
		rollback(h);
	if (rc == 0 && !(*id_out = strdup(id)))
		rc = clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	return rc;
}

#define INFO_COLS "id, name, title, file, text, defines, state, created_unix"

static int info_from_row(struct clyde_ctx *ctx, struct clyde_history *h,
			 sqlite3_stmt *st, struct clyde_exp_info *o)
{
	memset(o, 0, sizeof(*o));
	o->id = col_dup(st, 0);
	o->name = col_dup(st, 1);
	o->title = col_dup(st, 2);
	o->file = col_dup(st, 3);
	o->text = col_dup(st, 4);
	o->defines = col_dup(st, 5);
	o->state = col_dup(st, 6);
	o->created_unix = sqlite3_column_int64(st, 7);
	if (!o->id || !o->name || !o->title || !o->file || !o->text ||
	    !o->defines || !o->state) {
		clyde_exp_info_release(o);
		return clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	}
	return 0;
}

int clyde_exp_store_get(struct clyde_ctx *ctx, struct clyde_history *h,
			const char *id, struct clyde_exp_info *out)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	rc = prepare(ctx, h,
		     "SELECT " INFO_COLS " FROM experiments WHERE id = ?1",
		     &st);
	if (rc < 0)
		return rc;
	bind_text(st, 1, id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		rc = info_from_row(ctx, h, st, out);
	else if (step == SQLITE_DONE)
		rc = clyde_err(ctx, 0, "no experiment %s in %s", id,
			       clyde_history_path(h)),
		rc = -ENOENT;
	else
		rc = db_fail(ctx, h, "read the experiment");
	sqlite3_finalize(st);
	return rc;
}

int clyde_exp_store_list(struct clyde_ctx *ctx, struct clyde_history *h,
			 struct clyde_exp_info **out, size_t *n)
{
	sqlite3_stmt *st = NULL;
	struct clyde_exp_info *v = NULL;
	size_t nv = 0;
	int rc, step;

	*out = NULL;
	*n = 0;
	rc = prepare(ctx, h,
		     "SELECT " INFO_COLS " FROM experiments "
		     "ORDER BY created_unix DESC, rowid DESC",
		     &st);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct clyde_exp_info *p = realloc(v, (nv + 1) * sizeof(*v));

		if (!p) {
			rc = clyde_err(ctx, ENOMEM, "%s",
				       clyde_history_path(h));
			break;
		}
		v = p;
		rc = info_from_row(ctx, h, st, &v[nv]);
		if (rc == 0)
			nv++;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_fail(ctx, h, "list the experiments");
	sqlite3_finalize(st);
	if (rc < 0) {
		for (size_t i = 0; i < nv; i++)
			clyde_exp_info_release(&v[i]);
		free(v);
		return rc;
	}
	*out = v;
	*n = nv;
	return 0;
}

int clyde_exp_store_set_state(struct clyde_ctx *ctx, struct clyde_history *h,
			      const char *id, const char *state)
{
	sqlite3_stmt *st = NULL;
	int rc = prepare(ctx, h,
			 "UPDATE experiments SET state = ?1, updated_unix = ?2 "
			 "WHERE id = ?3",
			 &st);

	if (rc < 0)
		return rc;
	bind_text(st, 1, state);
	sqlite3_bind_int64(st, 2, (int64_t)time(NULL));
	bind_text(st, 3, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(ctx, h, "update the experiment's state");
	sqlite3_finalize(st);
	return rc;
}

int clyde_exp_store_add_run(struct clyde_ctx *ctx, struct clyde_history *h,
			    const char *id, const struct clyde_exp_run_rec *r,
			    int64_t *run_id)
{
	sqlite3_stmt *st = NULL;
	int64_t rid = 0;
	bool is_time = !strcmp(r->kind, "time");
	int rc = 0;

	if (run_id)
		*run_id = 0;
	/* A clyde result is a run like any other; the row points to it. */
	if (!r->failed && !is_time && r->doc) {
		rc = clyde_history_add(ctx, h, r->doc, r->len, NULL, &rid);
		if (rc < 0)
			return rc;
	}
	rc = prepare(ctx, h,
		     "INSERT INTO experiment_runs (exp_id, point, repeat, "
		     "workload, kind, status, run_id, document, message, "
		     "saved_unix) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
		     "?10)",
		     &st);
	if (rc < 0)
		return rc;
	bind_text(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)r->point);
	sqlite3_bind_int64(st, 3, (int64_t)r->repeat);
	bind_text(st, 4, r->workload);
	bind_text(st, 5, r->kind);
	bind_text(st, 6, r->failed ? "failed" : "ok");
	if (rid)
		sqlite3_bind_int64(st, 7, rid);
	if (is_time && r->doc)
		sqlite3_bind_text64(st, 8, r->doc, r->len, SQLITE_TRANSIENT,
				    SQLITE_UTF8);
	bind_text(st, 9, r->message);
	sqlite3_bind_int64(st, 10, (int64_t)time(NULL));
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(ctx, h, "store the experiment's run");
	sqlite3_finalize(st);
	if (rc == 0 && run_id)
		*run_id = rid;
	return rc;
}

int clyde_exp_store_runs(struct clyde_ctx *ctx, struct clyde_history *h,
			 const char *id, struct clyde_exp_done **out, size_t *n)
{
	sqlite3_stmt *st = NULL;
	struct clyde_exp_done *v = NULL;
	size_t nv = 0;
	int rc, step;

	*out = NULL;
	*n = 0;
	rc = prepare(ctx, h,
		     "SELECT point, repeat, workload, status FROM "
		     "experiment_runs WHERE exp_id = ?1 ORDER BY id",
		     &st);
	if (rc < 0)
		return rc;
	bind_text(st, 1, id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct clyde_exp_done *p = realloc(v, (nv + 1) * sizeof(*v));
		const unsigned char *wl = sqlite3_column_text(st, 2);
		const unsigned char *status = sqlite3_column_text(st, 3);

		if (!p) {
			rc = clyde_err(ctx, ENOMEM, "%s",
				       clyde_history_path(h));
			break;
		}
		v = p;
		memset(&v[nv], 0, sizeof(v[nv]));
		v[nv].point = (size_t)sqlite3_column_int64(st, 0);
		v[nv].repeat = (unsigned)sqlite3_column_int64(st, 1);
		snprintf(v[nv].workload, sizeof(v[nv].workload), "%s",
			 wl ? (const char *)wl : "");
		v[nv].ok = status && !strcmp((const char *)status, "ok");
		nv++;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_fail(ctx, h, "read the experiment's runs");
	sqlite3_finalize(st);
	if (rc < 0) {
		free(v);
		return rc;
	}
	*out = v;
	*n = nv;
	return 0;
}

/* ---- the analysis model ------------------------------------------------- */

/* What the bonnie++ tests are called in an experiment table. */
static const struct {
	const char *name, *label;
} test_labels[] = {
	{ "putc", "char write" },
	{ "put_block", "block write" },
	{ "rewrite", "rewrite" },
	{ "getc", "char read" },
	{ "get_block", "block read" },
	{ "seeks", "seeks" },
	{ "seq_create", "seq create" },
	{ "seq_stat", "seq stat" },
	{ "seq_del", "seq delete" },
	{ "ran_create", "random create" },
	{ "ran_stat", "random stat" },
	{ "ran_del", "random delete" },
	{ "extract", "extract" },
	{ "stat_walk", "stat walk" },
	{ "read_walk", "read walk" },
	{ "par_stat_walk", "par stat walk" },
	{ "par_read_walk", "par read walk" },
	{ "delete", "delete" },
};

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

/* higher: 1 higher is better, 0 lower is better, AMOUNT no direction. */
#define AMOUNT (-1)
static int add_sample_flag(struct clyde_exp *e, size_t point, const char *key,
			   const char *label, const char *unit, int higher,
			   double x, bool imprecise);

static int add_sample(struct clyde_exp *e, size_t point, const char *key,
		      const char *label, const char *unit, int higher, double x)
{
	return add_sample_flag(e, point, key, label, unit, higher, x, false);
}

/* add_sample(), counting a sample of a test that ran under 0.5 s. */
static int add_sample_flag(struct clyde_exp *e, size_t point, const char *key,
			   const char *label, const char *unit, int higher,
			   double x, bool imprecise)
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
			for (size_t i = 0;
			     i < sizeof(test_labels) / sizeof(test_labels[0]);
			     i++)
				if (!strcmp(test_labels[i].name, lt->name))
					label = test_labels[i].label;
			snprintf(key, sizeof(key), "%s.%s", wl, lt->name);
			rc = add_sample_flag(
				e, point, key, label, lt->unit, true, lt->rate,
				lt->state == CLYDE_LOADED_TOO_FAST);
		}
	}
	clyde_loaded_set_release(&set);
	if (rc == -ENOMEM)
		clyde_err(ctx, ENOMEM, "experiment %s", e->id);
	return rc;
}

/* A timed command's document: seconds, CPU seconds, device rates. */
static int add_timed(struct clyde_ctx *ctx, struct clyde_exp *e, size_t point,
		     const char *wl, const char *doc, size_t len)
{
	struct clyde_json root;
	struct clyde_json_error jerr;
	const struct clyde_json *dev;
	uint64_t el = 0, cu = 0, cs = 0, rb, wb;
	char key[128], label[128];
	int rc;

	if (clyde_json_parse(doc, len, NULL, &root, &jerr) < 0)
		return 0; /* an unreadable document is no sample */
	if (!clyde_json_u64(clyde_json_get(&root, "elapsed_ns"), &el)) {
		clyde_json_free(&root);
		return 0;
	}
	clyde_json_u64(clyde_json_get(&root, "cpu_user_ns"), &cu);
	clyde_json_u64(clyde_json_get(&root, "cpu_sys_ns"), &cs);
	snprintf(key, sizeof(key), "time.%s", wl);
	snprintf(label, sizeof(label), "%s time", wl);
	rc = add_sample(e, point, key, label, "s", false, (double)el / 1e9);
	snprintf(key, sizeof(key), "time.%s.cpu", wl);
	snprintf(label, sizeof(label), "%s CPU", wl);
	if (rc == 0)
		rc = add_sample(e, point, key, label, "s", false,
				(double)(cu + cs) / 1e9);
	dev = clyde_json_get(&root, "device");
	if (rc == 0 && dev && el > 0 &&
	    clyde_json_u64(clyde_json_get(dev, "read_bytes"), &rb) &&
	    clyde_json_u64(clyde_json_get(dev, "write_bytes"), &wb)) {
		const char *dn = clyde_json_str(clyde_json_get(dev, "name"));
		char cfg[256];

		/* Amounts, not rates to maximise: a mode that writes twice
		 * the bytes is not "best" for it. */
		snprintf(key, sizeof(key), "time.%s.read_bytes", wl);
		snprintf(label, sizeof(label), "%s device read", wl);
		rc = add_sample(e, point, key, label, "B", AMOUNT, (double)rb);
		snprintf(key, sizeof(key), "time.%s.write_bytes", wl);
		snprintf(label, sizeof(label), "%s device write", wl);
		if (rc == 0)
			rc = add_sample(e, point, key, label, "B", AMOUNT,
					(double)wb);
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

		if (!mb)
			break;
		if (!mn ||
		    !clyde_json_u64(clyde_json_get(mb, "read_bytes"), &rb) ||
		    !clyde_json_u64(clyde_json_get(mb, "write_bytes"), &wb))
			continue;
		/* By position in `device =`: loop device names change from
		 * visit to visit, positions do not.  The label names the
		 * device of the first sample. */
		snprintf(key, sizeof(key), "time.%s.m%zu.read_bytes", wl,
			 i + 1);
		snprintf(label, sizeof(label), "%s %s read", wl, mn);
		rc = add_sample(e, point, key, label, "B", AMOUNT, (double)rb);
		snprintf(key, sizeof(key), "time.%s.m%zu.write_bytes", wl,
			 i + 1);
		snprintf(label, sizeof(label), "%s %s write", wl, mn);
		if (rc == 0)
			rc = add_sample(e, point, key, label, "B", AMOUNT,
					(double)wb);
	}
	clyde_json_free(&root);
	if (rc == -ENOMEM)
		clyde_err(ctx, ENOMEM, "experiment %s", e->id);
	return rc;
}

static int load_points(struct clyde_ctx *ctx, struct clyde_history *h,
		       struct clyde_exp *e)
{
	sqlite3_stmt *st = NULL;
	int rc, step;
	size_t cap = 0;

	rc = prepare(ctx, h,
		     "SELECT point, axis_values FROM experiment_points "
		     "WHERE exp_id = ?1 ORDER BY point",
		     &st);
	if (rc < 0)
		return rc;
	bind_text(st, 1, e->id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 1);
		struct clyde_exp_point *p;
		char **vals;
		size_t n;

		if (e->npoints == cap) {
			cap = cap ? cap * 2 : 16;
			p = realloc(e->points, cap * sizeof(*p));
			if (!p) {
				rc = -ENOMEM;
				break;
			}
			e->points = p;
		}
		p = &e->points[e->npoints];
		memset(p, 0, sizeof(*p));
		if (split(t ? (const char *)t : "", '\t', &vals, &n) < 0) {
			rc = -ENOMEM;
			break;
		}
		/* Always naxes values, even from a damaged row. */
		p->values = calloc(e->naxes + 1, sizeof(char *));
		if (!p->values) {
			free_strv(vals, n);
			rc = -ENOMEM;
			break;
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
		if (rc < 0)
			break;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_fail(ctx, h, "read the experiment's points");
	if (rc == -ENOMEM)
		clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	sqlite3_finalize(st);
	return rc;
}

/* The samples, workload by workload in file order, runs in saved order. */
static int load_runs(struct clyde_ctx *ctx, struct clyde_history *h,
		     struct clyde_exp *e, char **wl, size_t nwl)
{
	sqlite3_stmt *st = NULL;
	bool *any_ok = NULL, *any_fail = NULL;
	int rc, step = SQLITE_DONE;

	any_ok = calloc(e->npoints + 1, sizeof(bool));
	any_fail = calloc(e->npoints + 1, sizeof(bool));
	if (!any_ok || !any_fail) {
		free(any_ok);
		free(any_fail);
		return clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	}
	rc = prepare(ctx, h,
		     "SELECT r.point, r.kind, r.status, r.document, "
		     "d.document FROM experiment_runs r LEFT JOIN runs d "
		     "ON d.id = r.run_id WHERE r.exp_id = ?1 AND "
		     "r.workload = ?2 ORDER BY r.id",
		     &st);
	for (size_t w = 0; rc == 0 && w < nwl; w++) {
		char *name = wl[w], *sp = strchr(name, ' ');

		if (sp)
			*sp = '\0'; /* "name kind" */
		sqlite3_reset(st);
		bind_text(st, 1, e->id);
		bind_text(st, 2, name);
		while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
			size_t p = (size_t)sqlite3_column_int64(st, 0);
			const char *kind =
				(const char *)sqlite3_column_text(st, 1);
			const char *status =
				(const char *)sqlite3_column_text(st, 2);
			bool timed = kind && !strcmp(kind, "time");
			int col = timed ? 3 : 4;
			const char *doc =
				(const char *)sqlite3_column_blob(st, col);
			size_t len = (size_t)sqlite3_column_bytes(st, col);

			if (p >= e->npoints)
				continue;
			if (!status || strcmp(status, "ok")) {
				any_fail[p] = true;
				continue;
			}
			any_ok[p] = true;
			if (!doc)
				continue;
			rc = timed ? add_timed(ctx, e, p, name, doc, len) :
				     add_result(ctx, e, p, name, doc, len);
		}
		if (rc == 0 && step != SQLITE_DONE)
			rc = db_fail(ctx, h, "read the experiment's runs");
	}
	sqlite3_finalize(st);
	for (size_t p = 0; rc == 0 && p < e->npoints; p++)
		e->points[p].failed = any_fail[p] && !any_ok[p];
	free(any_ok);
	free(any_fail);
	return rc;
}

/* "clyde sweep FILE -D A=1 -D B=2" from the file and the defines
 * ("A=1\nB=2") columns (NULL: no memory). */
static char *command_line(sqlite3_stmt *st, int file, int defines)
{
	const char *f = (const char *)sqlite3_column_text(st, file);
	const char *d = (const char *)sqlite3_column_text(st, defines);
	size_t len = strlen("clyde sweep ") + (f ? strlen(f) : 0) + 1, o;
	char *s;

	for (const char *p = d; p && *p; p++)
		len += *p == '\n' ? 4 : 1;
	len += d && *d ? 4 : 0;
	if (!(s = malloc(len)))
		return NULL;
	o = (size_t)snprintf(s, len, "clyde sweep %s%s", f ? f : "",
			     d && *d ? " -D " : "");
	for (const char *p = d; p && *p && o + 1 < len; p++) {
		if (*p != '\n')
			s[o++] = *p;
		else if (p[1])
			o += (size_t)snprintf(s + o, len - o, " -D ");
	}
	s[o] = '\0';
	return s;
}

int clyde_history_load_experiment(struct clyde_ctx *ctx,
				  struct clyde_history *h, const char *id,
				  struct clyde_exp *out)
{
	sqlite3_stmt *st = NULL;
	char *axes = NULL, *wls = NULL, **wl = NULL;
	size_t nwl = 0;
	int rc, step;

	memset(out, 0, sizeof(*out));
	rc = prepare(ctx, h,
		     "SELECT id, name, title, axes, workloads, file, defines "
		     "FROM experiments WHERE id = ?1",
		     &st);
	if (rc < 0)
		return rc;
	bind_text(st, 1, id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		const unsigned char *title = sqlite3_column_text(st, 2);

		out->id = col_dup(st, 0);
		out->title = title && *title ? col_dup(st, 2) : col_dup(st, 1);
		axes = col_dup(st, 3);
		wls = col_dup(st, 4);
		out->command = command_line(st, 5, 6);
		if (!out->id || !out->title || !axes || !wls || !out->command)
			rc = clyde_err(ctx, ENOMEM, "%s",
				       clyde_history_path(h));
	} else if (step == SQLITE_DONE) {
		rc = clyde_err(ctx, 0, "no experiment %s in %s", id,
			       clyde_history_path(h)),
		rc = -ENOENT;
	} else {
		rc = db_fail(ctx, h, "read the experiment");
	}
	sqlite3_finalize(st);
	if (rc == 0 && (split(axes, '\t', &out->axis_names, &out->naxes) < 0 ||
			split(wls, '\t', &wl, &nwl) < 0))
		rc = clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	if (rc == 0)
		rc = load_points(ctx, h, out);
	if (rc == 0)
		rc = load_runs(ctx, h, out, wl, nwl);
	free(axes);
	free(wls);
	free_strv(wl, nwl);
	if (rc < 0)
		clyde_exp_release(out);
	return rc;
}

#endif
