/*
 * Experiments in the results history: see exp_store.h.  The tables live
 * in history_db.c's database (one connection; their schema step is in
 * history_schema.c with the others); this file adds and reads their rows
 * with history_internal.h's SQL helpers, and stores clyde results through
 * clyde_history_add() like any run.  What the rows mean for an analysis
 * is analysis/exp_load.c's business.
 */
#include "store/exp_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	free(i->axes);
	free(i->workloads);
	memset(i, 0, sizeof(*i));
}

#ifdef CLYDE_HAVE_SQLITE

#include <sqlite3.h>

#include "results/kinds.h"
#include "store/history_internal.h"

/* A text column, "" for NULL (NULL: no memory). */
static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return strdup(t ? (const char *)t : "");
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

	if (sqlite3_prepare_v2(h->db, "SELECT 1 FROM experiments WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return true;
	clyde_db_bind_text(st, 1, id);
	taken = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return taken;
}

static int insert_points(struct clyde_ctx *ctx, struct clyde_history *h,
			 const char *id, const struct clyde_exp_new *e)
{
	sqlite3_stmt *st = NULL;
	int rc = clyde_db_prepare(
		ctx, h,
		"INSERT INTO experiment_points (exp_id, point, "
		"axis_values) VALUES (?1, ?2, ?3)",
		&st);

	for (size_t p = 0; rc == 0 && p < e->npoints; p++) {
		char *vals = join((char *const *)(e->values + p * e->naxes),
				  e->naxes, '\t');

		if (!vals) {
			rc = clyde_err(ctx, ENOMEM, "%s", h->path);
			break;
		}
		sqlite3_reset(st);
		clyde_db_bind_text(st, 1, id);
		sqlite3_bind_int64(st, 2, (int64_t)p);
		clyde_db_bind_text(st, 3, vals);
		free(vals);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = clyde_db_fail(ctx, h,
					   "store the experiment's points");
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
		return clyde_err(ctx, ENOMEM, "%s", h->path);
	}
	rc = clyde_db_begin(ctx, h);
	if (rc == 0) {
		snprintf(id, sizeof(id), "%s-%s", stamp, base);
		for (i = 2; id_taken(h, id) && i < 1000; i++)
			snprintf(id, sizeof(id), "%s-%s-%zu", stamp, base, i);
		rc = clyde_db_prepare(
			ctx, h,
			"INSERT INTO experiments (id, name, title, file, "
			"text, defines, axes, workloads, state, "
			"created_unix, updated_unix) VALUES (?1, ?2, ?3, "
			"?4, ?5, ?6, ?7, ?8, 'running', ?9, ?9)",
			&st);
	}
	if (rc == 0) {
		clyde_db_bind_text(st, 1, id);
		clyde_db_bind_text(st, 2, e->name);
		clyde_db_bind_text(st, 3, e->title);
		clyde_db_bind_text(st, 4, e->file);
		clyde_db_bind_text(st, 5, e->text);
		clyde_db_bind_text(st, 6, e->defines);
		clyde_db_bind_text(st, 7, axes);
		clyde_db_bind_text(st, 8, wls);
		sqlite3_bind_int64(st, 9, (int64_t)now);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = clyde_db_fail(ctx, h, "store the experiment");
		sqlite3_finalize(st);
	}
	free(axes);
	free(wls);
	if (rc == 0)
		rc = insert_points(ctx, h, id, e);
	if (rc == 0)
		rc = clyde_db_commit(ctx, h);
	else
		clyde_db_rollback(h);
	if (rc == 0 && !(*id_out = strdup(id)))
		rc = clyde_err(ctx, ENOMEM, "%s", h->path);
	return rc;
}

#define INFO_COLS \
	"id, name, title, file, text, defines, state, created_unix, axes, workloads"

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
	o->axes = col_dup(st, 8);
	o->workloads = col_dup(st, 9);
	if (!o->id || !o->name || !o->title || !o->file || !o->text ||
	    !o->defines || !o->state || !o->axes || !o->workloads) {
		clyde_exp_info_release(o);
		return clyde_err(ctx, ENOMEM, "%s", h->path);
	}
	return 0;
}

int clyde_exp_store_get(struct clyde_ctx *ctx, struct clyde_history *h,
			const char *id, struct clyde_exp_info *out)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	rc = clyde_db_prepare(ctx, h,
			      "SELECT " INFO_COLS
			      " FROM experiments WHERE id = ?1",
			      &st);
	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		rc = info_from_row(ctx, h, st, out);
	else if (step == SQLITE_DONE)
		rc = clyde_err(ctx, 0, "no experiment %s in %s", id, h->path),
		rc = -ENOENT;
	else
		rc = clyde_db_fail(ctx, h, "read the experiment");
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
	rc = clyde_db_prepare(ctx, h,
			      "SELECT " INFO_COLS " FROM experiments "
			      "ORDER BY created_unix DESC, rowid DESC",
			      &st);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct clyde_exp_info *p = realloc(v, (nv + 1) * sizeof(*v));

		if (!p) {
			rc = clyde_err(ctx, ENOMEM, "%s", h->path);
			break;
		}
		v = p;
		rc = info_from_row(ctx, h, st, &v[nv]);
		if (rc == 0)
			nv++;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "list the experiments");
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
	int rc = clyde_db_prepare(
		ctx, h,
		"UPDATE experiments SET state = ?1, updated_unix = ?2 "
		"WHERE id = ?3",
		&st);

	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, state);
	sqlite3_bind_int64(st, 2, (int64_t)time(NULL));
	clyde_db_bind_text(st, 3, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "update the experiment's state");
	sqlite3_finalize(st);
	return rc;
}

/* Remove the rows marked "deleted" (clyde_history_delete) of r's point,
 * repeat and workload in experiment id. */
static int forget_deleted(struct clyde_ctx *ctx, struct clyde_history *h,
			  const char *id, const struct clyde_exp_run_rec *r)
{
	sqlite3_stmt *st = NULL;
	int rc = clyde_db_prepare(
		ctx, h,
		"DELETE FROM experiment_runs WHERE exp_id = ?1 AND point = ?2 "
		"AND repeat = ?3 AND workload = ?4 AND status = 'deleted'",
		&st);

	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)r->point);
	sqlite3_bind_int64(st, 3, (int64_t)r->repeat);
	clyde_db_bind_text(st, 4, r->workload);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "replace a deleted sample");
	sqlite3_finalize(st);
	return rc;
}

int clyde_exp_store_add_run(struct clyde_ctx *ctx, struct clyde_history *h,
			    const char *id, const struct clyde_exp_run_rec *r,
			    int64_t *run_id)
{
	sqlite3_stmt *st = NULL;
	int64_t rid = 0;
	const struct clyde_result_kind *k = clyde_result_kind_stored(r->kind);
	/* A timed command's document is kept in the row. */
	bool in_row = k && k->doc_in_row;
	int rc = 0;

	if (run_id)
		*run_id = 0;
	/* A clyde result is a run like any other; the row points to it. */
	if (!r->failed && !in_row && r->doc) {
		rc = clyde_history_add(ctx, h, r->doc, r->len, NULL, &rid);
		if (rc < 0)
			return rc;
	}
	rc = clyde_db_prepare(
		ctx, h,
		"INSERT INTO experiment_runs (exp_id, point, repeat, "
		"workload, kind, status, run_id, document, message, "
		"saved_unix) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
		"?10)",
		&st);
	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)r->point);
	sqlite3_bind_int64(st, 3, (int64_t)r->repeat);
	clyde_db_bind_text(st, 4, r->workload);
	clyde_db_bind_text(st, 5, r->kind);
	clyde_db_bind_text(st, 6, r->failed ? "failed" : "ok");
	if (rid)
		sqlite3_bind_int64(st, 7, rid);
	if (in_row && r->doc)
		sqlite3_bind_text64(st, 8, r->doc, r->len, SQLITE_TRANSIENT,
				    SQLITE_UTF8);
	clyde_db_bind_text(st, 9, r->message);
	sqlite3_bind_int64(st, 10, (int64_t)time(NULL));
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "store the experiment's run");
	sqlite3_finalize(st);
	/* A sample measured again (resume) replaces the one deleted. */
	if (rc == 0 && !r->failed)
		rc = forget_deleted(ctx, h, id, r);
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
	rc = clyde_db_prepare(ctx, h,
			      "SELECT point, repeat, workload, status FROM "
			      "experiment_runs WHERE exp_id = ?1 ORDER BY id",
			      &st);
	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct clyde_exp_done *p = realloc(v, (nv + 1) * sizeof(*v));
		const unsigned char *wl = sqlite3_column_text(st, 2);
		const unsigned char *status = sqlite3_column_text(st, 3);

		if (!p) {
			rc = clyde_err(ctx, ENOMEM, "%s", h->path);
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
		rc = clyde_db_fail(ctx, h, "read the experiment's runs");
	sqlite3_finalize(st);
	if (rc < 0) {
		free(v);
		return rc;
	}
	*out = v;
	*n = nv;
	return 0;
}

/* ---- reading an experiment back, row by row ---------------------------- */

int clyde_exp_store_each_point(struct clyde_ctx *ctx, struct clyde_history *h,
			       const char *id, clyde_exp_point_fn fn, void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, step = SQLITE_DONE;

	rc = clyde_db_prepare(ctx, h,
			      "SELECT point, axis_values FROM "
			      "experiment_points WHERE exp_id = ?1 ORDER BY "
			      "point",
			      &st);
	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, id);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 1);

		rc = fn(arg, (size_t)sqlite3_column_int64(st, 0),
			t ? (const char *)t : "");
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "read the experiment's points");
	sqlite3_finalize(st);
	return rc;
}

int clyde_exp_store_each_run(struct clyde_ctx *ctx, struct clyde_history *h,
			     const char *id, const char *workload,
			     clyde_exp_run_fn fn, void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, step = SQLITE_DONE;

	rc = clyde_db_prepare(ctx, h,
			      "SELECT r.point, r.kind, r.status, r.document, "
			      "d.document FROM experiment_runs r LEFT JOIN "
			      "runs d ON d.id = r.run_id WHERE r.exp_id = ?1 "
			      "AND r.workload = ?2 ORDER BY r.id",
			      &st);
	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, id);
	clyde_db_bind_text(st, 2, workload);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *kind = (const char *)sqlite3_column_text(st, 1);
		const char *status = (const char *)sqlite3_column_text(st, 2);
		struct clyde_exp_row row = {
			.point = (size_t)sqlite3_column_int64(st, 0),
			.kind = kind ? kind : "",
			.ok = status && !strcmp(status, "ok"),
			.deleted = status && !strcmp(status, "deleted"),
		};
		/* A timed command's document is in the row, a clyde
		 * result in `runs`. */
		const struct clyde_result_kind *k =
			clyde_result_kind_stored(row.kind);
		int col = k && k->doc_in_row ? 3 : 4;

		row.doc = (const char *)sqlite3_column_blob(st, col);
		row.len = (size_t)sqlite3_column_bytes(st, col);
		rc = fn(arg, &row);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "read the experiment's runs");
	sqlite3_finalize(st);
	return rc;
}

#endif /* CLYDE_HAVE_SQLITE */
