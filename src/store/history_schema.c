/*
 * The history's schema versions, every table of the store's (the runs and
 * the experiments): one function per version and the table that applies
 * them in order.  The caller (history_db.c) holds the write
 * transaction and has judged the file to be a clyde history.
 */
#include "store/history.h"

#ifdef CLYDE_HAVE_SQLITE

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/history_internal.h"

/* Version 0, the legacy layout: what the first histories held. */
static int migrate_create_v0(struct clyde_ctx *ctx, struct clyde_history *h)
{
	return clyde_db_exec(
		ctx, h,
		"CREATE TABLE meta (key TEXT PRIMARY KEY, "
		"value TEXT NOT NULL);"
		"INSERT INTO meta VALUES ('application', 'clyde'), "
		"('schema_version', '0');"
		"CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, "
		"saved_unix INTEGER NOT NULL, document TEXT NOT NULL);");
}

/* What a migration stores for one described run. */
typedef int (*store_fn)(struct clyde_ctx *ctx, struct clyde_history *h,
			int64_t id, const struct clyde_history_entry *e,
			const char *doc, size_t len);

/* Describe every stored run again and hand it to `store`.  A document
 * that cannot be read any more is described as kind "unreadable" with no
 * figures: a migration never drops data. */
static int describe_each(struct clyde_ctx *ctx, struct clyde_history *h,
			 store_fn store)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	rc = clyde_db_prepare(ctx, h, "SELECT id, document FROM runs", &st);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct clyde_history_entry e;
		int64_t id = sqlite3_column_int64(st, 0);
		const char *doc = (const char *)sqlite3_column_blob(st, 1);
		size_t n = (size_t)sqlite3_column_bytes(st, 1);
		char what[64];
		struct clyde_ctx quiet;

		snprintf(what, sizeof(what), "run %lld", (long long)id);
		/* Describe in a scratch context: an unreadable document is
		 * not this migration's error. */
		clyde_ctx_init(&quiet);
		if (clyde_history_describe(&quiet, what, doc ? doc : "", n,
					   &e) < 0) {
			memset(&e, 0, sizeof(e));
			e.started_unix = -1;
			e.kind = strdup("unreadable");
			if (!e.kind || clyde_history_entry_fill_strings(&e) < 0)
				rc = clyde_err(ctx, ENOMEM, "%s", h->path);
		}
		clyde_ctx_release(&quiet);
		if (rc == 0)
			rc = store(ctx, h, id, &e, doc ? doc : "", n);
		clyde_history_entry_release(&e);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "read runs to migrate");
	sqlite3_finalize(st);
	return rc;
}

static int store_v1(struct clyde_ctx *ctx, struct clyde_history *h, int64_t id,
		    const struct clyde_history_entry *e, const char *doc,
		    size_t len)
{
	(void)doc, (void)len;
	return clyde_history_store_columns(ctx, h, id, e);
}

/* Version 1: the extracted columns and the figures, filled in for the
 * runs already stored.  A document that cannot be read any more stays,
 * with kind "unreadable" and no figures: a migration never drops data. */
static int migrate_v1(struct clyde_ctx *ctx, struct clyde_history *h)
{
	int rc;

	rc = clyde_db_exec(
		ctx, h,
		"ALTER TABLE runs ADD COLUMN started_unix INTEGER;"
		"ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN target_path TEXT NOT NULL "
		"DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN fstype TEXT NOT NULL DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN mount_opts TEXT NOT NULL "
		"DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT '';"
		"CREATE INDEX runs_by_date ON runs (started_unix);"
		"CREATE TABLE figures (run_id INTEGER NOT NULL, "
		"test TEXT NOT NULL, unit TEXT NOT NULL, "
		"state INTEGER NOT NULL, value REAL, "
		"too_fast INTEGER NOT NULL DEFAULT 0, cpu_pct REAL, "
		"PRIMARY KEY (run_id, test));");
	if (rc < 0)
		return rc;
	return describe_each(ctx, h, store_v1);
}

/* Version 2: the experiments of clyde sweep (exp_store.h). */
static int migrate_v2(struct clyde_ctx *ctx, struct clyde_history *h)
{
	return clyde_db_exec(
		ctx, h,
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

/* Version 3: what tells runs apart (the user's label -- in the label
 * column since v1 -- and note; file size, file count and IO chunk; the
 * CSV line a run was imported from) and the document hash that finds
 * duplicates.  Filled in for the runs already stored; their source line
 * stays unknown (NULL). */
static int migrate_v3(struct clyde_ctx *ctx, struct clyde_history *h)
{
	int rc;

	rc = clyde_db_exec(
		ctx, h,
		"ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN source_line INTEGER;"
		"ALTER TABLE runs ADD COLUMN file_size TEXT NOT NULL "
		"DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN files TEXT NOT NULL DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN io_chunk TEXT NOT NULL "
		"DEFAULT '';"
		"ALTER TABLE runs ADD COLUMN doc_hash INTEGER;"
		"CREATE INDEX runs_by_hash ON runs (doc_hash);");
	if (rc < 0)
		return rc;
	return describe_each(ctx, h, clyde_history_store_v3_columns);
}

/* Version 4: each figure's flags (served from memory, busy device,
 * degraded array, cache not controlled: results/loaded.h), filled in for
 * the runs already stored. */
static int migrate_v4(struct clyde_ctx *ctx, struct clyde_history *h)
{
	int rc = clyde_db_exec(ctx, h,
			       "ALTER TABLE figures ADD COLUMN flags "
			       "INTEGER NOT NULL DEFAULT 0;");

	if (rc < 0)
		return rc;
	return describe_each(ctx, h, clyde_history_store_v4_flags);
}

/*
 * One entry per schema version, in order: entry i brings a database from
 * version i - 1 (-1: an empty file) to version i.  A new version is one
 * function and one line here, and CLYDE_HISTORY_SCHEMA_VERSION + 1.
 */
static const struct migration {
	int to;
	int (*apply)(struct clyde_ctx *ctx, struct clyde_history *h);
} migrations[] = {
	{ 0, migrate_create_v0 }, { 1, migrate_v1 },
	{ 2, migrate_v2 }, /* experiments (clyde sweep) */
	{ 3, migrate_v3 },	  { 4, migrate_v4 }, /* figures' flags */
};

_Static_assert(sizeof(migrations) / sizeof(migrations[0]) ==
		       CLYDE_HISTORY_SCHEMA_VERSION + 1,
	       "one migration per schema version");

int clyde_db_apply_migrations(struct clyde_ctx *ctx, struct clyde_history *h,
			      int version)
{
	sqlite3_stmt *st = NULL;
	char vbuf[16];
	int rc = 0;

	for (size_t i = 0; i < sizeof(migrations) / sizeof(migrations[0]);
	     i++) {
		if (migrations[i].to <= version)
			continue;
		rc = migrations[i].apply(ctx, h);
		if (rc < 0)
			return rc;
	}
	snprintf(vbuf, sizeof(vbuf), "%d", CLYDE_HISTORY_SCHEMA_VERSION);
	rc = clyde_db_prepare(ctx, h,
			      "UPDATE meta SET value = ?1 WHERE key = "
			      "'schema_version'",
			      &st);
	if (rc < 0)
		return rc;
	clyde_db_bind_text(st, 1, vbuf);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "write schema_version");
	sqlite3_finalize(st);
	return rc;
}

#endif /* CLYDE_HAVE_SQLITE */
