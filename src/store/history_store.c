/*
 * Storing in the history: one run (its document, extracted columns and
 * figures), and deleting one.  See history.h.
 */
#include "store/history.h"

#ifdef CLYDE_HAVE_SQLITE

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/history_internal.h"

static const char *fig_unit(enum clyde_test t)
{
	if (clyde_test_is_io(t))
		return "B/s";
	return t == CLYDE_SEEKS ? "seeks/s" : "files/s";
}

/* Store e's columns and figures for run `id` (inside a transaction). */
int clyde_history_store_columns(struct clyde_ctx *ctx, struct clyde_history *h,
				int64_t id, const struct clyde_history_entry *e)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = clyde_db_prepare(
		ctx, h,
		"UPDATE runs SET started_unix = ?1, kind = ?2, "
		"label = ?3, host = ?4, target_path = ?5, fstype = ?6, "
		"mount_opts = ?7 WHERE id = ?8",
		&st);
	if (rc < 0)
		return rc;
	if (e->started_unix >= 0)
		sqlite3_bind_int64(st, 1, e->started_unix);
	clyde_db_bind_text(st, 2, e->kind);
	clyde_db_bind_text(st, 3, e->label);
	clyde_db_bind_text(st, 4, e->host);
	clyde_db_bind_text(st, 5, e->target_path);
	clyde_db_bind_text(st, 6, e->fstype);
	clyde_db_bind_text(st, 7, e->mount_opts);
	sqlite3_bind_int64(st, 8, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "store the run's columns");
	sqlite3_finalize(st);
	if (rc < 0)
		return rc;

	rc = clyde_db_prepare(
		ctx, h,
		"INSERT OR REPLACE INTO figures (run_id, test, unit, "
		"state, value, too_fast, cpu_pct) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		&st);
	if (rc < 0)
		return rc;
	for (int t = 0; t < CLYDE_TEST_COUNT && rc == 0; t++) {
		const struct clyde_history_figure *f = &e->fig[t];

		if (f->state == CLYDE_HIST_FIG_NONE)
			continue;
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		sqlite3_bind_int64(st, 1, id);
		clyde_db_bind_text(st, 2, clyde_test_name((enum clyde_test)t));
		clyde_db_bind_text(st, 3, fig_unit((enum clyde_test)t));
		sqlite3_bind_int(st, 4, (int)f->state);
		if (f->state == CLYDE_HIST_FIG_VALUE)
			sqlite3_bind_double(st, 5, f->value);
		sqlite3_bind_int(st, 6, f->too_fast);
		if (f->has_cpu)
			sqlite3_bind_double(st, 7, f->cpu_pct);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = clyde_db_fail(ctx, h, "store the run's figures");
	}
	sqlite3_finalize(st);
	return rc;
}

int clyde_history_store_v3_columns(struct clyde_ctx *ctx,
				   struct clyde_history *h, int64_t id,
				   const struct clyde_history_entry *e,
				   const char *doc, size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = clyde_db_prepare(ctx, h,
			      "UPDATE runs SET file_size = ?1, files = ?2, "
			      "io_chunk = ?3, doc_hash = ?4 WHERE id = ?5",
			      &st);
	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, e->file_size ? e->file_size : "");
	clyde_db_bind_text(st, 2, e->files ? e->files : "");
	clyde_db_bind_text(st, 3, e->io_chunk ? e->io_chunk : "");
	/* SQLite integers are signed: the hash's bits, as they are. */
	sqlite3_bind_int64(st, 4, (int64_t)clyde_history_doc_hash(doc, len));
	sqlite3_bind_int64(st, 5, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "store the run's settings");
	sqlite3_finalize(st);
	return rc;
}

int clyde_history_store_v4_flags(struct clyde_ctx *ctx, struct clyde_history *h,
				 int64_t id,
				 const struct clyde_history_entry *e,
				 const char *doc, size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc;

	(void)doc, (void)len;
	rc = clyde_db_prepare(ctx, h,
			      "UPDATE figures SET flags = ?1 WHERE "
			      "run_id = ?2 AND test = ?3",
			      &st);
	if (rc < 0)
		return rc;
	for (int t = 0; t < CLYDE_TEST_COUNT && rc == 0; t++) {
		if (e->fig[t].state == CLYDE_HIST_FIG_NONE || !e->fig[t].flags)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, e->fig[t].flags);
		sqlite3_bind_int64(st, 2, id);
		clyde_db_bind_text(st, 3, clyde_test_name((enum clyde_test)t));
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = clyde_db_fail(ctx, h, "store the figures' flags");
	}
	sqlite3_finalize(st);
	return rc;
}

/* Insert one described document (inside a transaction). */
int clyde_history_insert_run(struct clyde_ctx *ctx, struct clyde_history *h,
			     const char *doc, size_t len, const char *source,
			     unsigned long line,
			     const struct clyde_history_entry *e,
			     int64_t *id_out)
{
	sqlite3_stmt *st = NULL;
	int64_t id;
	int rc;

	rc = clyde_db_prepare(
		ctx, h,
		"INSERT INTO runs (saved_unix, document, source, source_line) "
		"VALUES (?1, ?2, ?3, ?4)",
		&st);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	sqlite3_bind_text64(st, 2, doc, len, SQLITE_TRANSIENT, SQLITE_UTF8);
	clyde_db_bind_text(st, 3, source ? source : "");
	if (line > 0)
		sqlite3_bind_int64(st, 4, (int64_t)line);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "store the run");
	sqlite3_finalize(st);
	if (rc < 0)
		return rc;
	id = sqlite3_last_insert_rowid(h->db);
	rc = clyde_history_store_columns(ctx, h, id, e);
	if (rc == 0)
		rc = clyde_history_store_v3_columns(ctx, h, id, e, doc, len);
	if (rc == 0)
		rc = clyde_history_store_v4_flags(ctx, h, id, e, doc, len);
	if (rc == 0 && id_out)
		*id_out = id;
	return rc;
}

int clyde_history_add(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *doc, size_t len, const char *source,
		      int64_t *id_out)
{
	struct clyde_history_entry e;
	int rc;

	rc = clyde_history_describe(ctx, source ? source : "result", doc, len,
				    &e);
	if (rc < 0)
		return rc;
	rc = clyde_db_begin(ctx, h);
	if (rc == 0)
		rc = clyde_history_insert_run(ctx, h, doc, len, source, 0, &e,
					      id_out);
	if (rc == 0)
		rc = clyde_db_commit(ctx, h);
	else
		clyde_db_rollback(h);
	clyde_history_entry_release(&e);
	return rc;
}

int clyde_history_save(struct clyde_ctx *ctx, const char *db_path,
		       const char *json_text, size_t len, int64_t *id_out)
{
	return clyde_history_save_waiting(ctx, db_path, NULL, json_text, len,
					  id_out);
}

int clyde_history_save_waiting(struct clyde_ctx *ctx, const char *db_path,
			       const struct clyde_history_wait *wait,
			       const char *json_text, size_t len,
			       int64_t *id_out)
{
	struct clyde_history *h;
	int rc;

	if (!clyde_history_starts_json(json_text, len))
		return clyde_err(ctx, 0,
				 "results history: not a clyde JSON result"),
		       -EINVAL;
	rc = clyde_history_open_waiting(ctx, db_path, true, wait, &h);
	if (rc < 0)
		return rc;
	rc = clyde_history_add(ctx, h, json_text, len, NULL, id_out);
	clyde_history_close(h);
	return rc;
}

/* Run statement st, which changes run id; -ENOENT (said) when there is no
 * such run.  st is finalized. */
static int step_one_run(struct clyde_ctx *ctx, struct clyde_history *h,
			sqlite3_stmt *st, int64_t id, const char *what)
{
	int rc = 0;

	if (sqlite3_step(st) != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, what);
	else if (sqlite3_changes(h->db) == 0)
		rc = clyde_err(ctx, 0, "no run with id %lld in %s",
			       (long long)id, h->path),
		rc = -ENOENT;
	sqlite3_finalize(st);
	return rc;
}

int clyde_history_delete(struct clyde_ctx *ctx, struct clyde_history *h,
			 int64_t id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = clyde_db_begin(ctx, h);
	if (rc < 0)
		return rc;
	rc = clyde_db_prepare(ctx, h, "DELETE FROM figures WHERE run_id = ?1",
			      &st);
	if (rc == 0) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = clyde_db_fail(ctx, h, "delete figures");
		sqlite3_finalize(st);
	}
	/* A sweep's sample that pointed to it is gone too: no dangling id
	 * left "ok", so that its table says so and resume measures it. */
	if (rc == 0)
		rc = clyde_db_prepare(ctx, h,
				      "UPDATE experiment_runs SET status = "
				      "'deleted', run_id = NULL WHERE "
				      "run_id = ?1",
				      &st);
	if (rc == 0) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = clyde_db_fail(ctx, h,
					   "mark the sweep's sample deleted");
		sqlite3_finalize(st);
	}
	if (rc == 0)
		rc = clyde_db_prepare(ctx, h, "DELETE FROM runs WHERE id = ?1",
				      &st);
	if (rc == 0) {
		sqlite3_bind_int64(st, 1, id);
		rc = step_one_run(ctx, h, st, id, "delete run");
	}
	if (rc == 0)
		return clyde_db_commit(ctx, h);
	clyde_db_rollback(h);
	return rc;
}

int clyde_history_find_same(struct clyde_ctx *ctx, struct clyde_history *h,
			    const char *doc, size_t len, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	size_t start, n;
	int rc, step;

	clyde_history_normalise(doc, len, &start, &n);
	rc = clyde_db_prepare(ctx, h,
			      "SELECT id, document FROM runs "
			      "WHERE doc_hash = ?1 ORDER BY id",
			      &st);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, (int64_t)clyde_history_doc_hash(doc, len));
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_blob(st, 1);
		size_t dl = (size_t)sqlite3_column_bytes(st, 1), ds, dn;

		clyde_history_normalise(d ? d : "", d ? dl : 0, &ds, &dn);
		if (dn == n && (n == 0 || !memcmp(d + ds, doc + start, n))) {
			*id = sqlite3_column_int64(st, 0);
			rc = 1;
			break;
		}
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "look for the same run");
	sqlite3_finalize(st);
	return rc;
}

/* Set one text column of run id (label or note: never user SQL). */
static int set_text(struct clyde_ctx *ctx, struct clyde_history *h, int64_t id,
		    const char *sql, const char *value)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = clyde_db_begin(ctx, h);
	if (rc < 0)
		return rc;
	rc = clyde_db_prepare(ctx, h, sql, &st);
	if (rc == 0) {
		clyde_db_bind_text(st, 1, value);
		sqlite3_bind_int64(st, 2, id);
		rc = step_one_run(ctx, h, st, id, "update run");
	}
	if (rc == 0)
		return clyde_db_commit(ctx, h);
	clyde_db_rollback(h);
	return rc;
}

int clyde_history_set_label(struct clyde_ctx *ctx, struct clyde_history *h,
			    int64_t id, const char *label)
{
	return set_text(ctx, h, id, "UPDATE runs SET label = ?1 WHERE id = ?2",
			label);
}

int clyde_history_set_note(struct clyde_ctx *ctx, struct clyde_history *h,
			   int64_t id, const char *note)
{
	return set_text(ctx, h, id, "UPDATE runs SET note = ?1 WHERE id = ?2",
			note);
}

#endif /* CLYDE_HAVE_SQLITE */
