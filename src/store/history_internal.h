/*
 * What the store's files (history_*.c, exp_store.c) share and nothing
 * else uses: the open history's struct and the one set of small SQLite
 * helpers (clyde_db_*; clyde_hist_* is core/hist.h's latency histogram
 * only), and the history's own pieces (clyde_history_*).  Not a public
 * header: other modules include store/history.h and store/exp_store.h.
 *
 * Every helper that fails records "PATH: what: sqlite's message" in ctx
 * and returns -EIO (-ENOMEM when SQLite ran out of memory, -EBUSY when
 * another process held the database past the wait).
 */
#ifndef CLYDE_STORE_HISTORY_INTERNAL_H
#define CLYDE_STORE_HISTORY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "store/history.h"

/* Make every string of e non-NULL ("" where unset).  Returns 0 or -1. */
int clyde_history_entry_fill_strings(struct clyde_history_entry *e);

/* True when doc's first non-blank byte (after a UTF-8 BOM) is '{'. */
bool clyde_history_starts_json(const char *doc, size_t len);

/* The normalised part of doc (history.h, "Already stored"):
 * doc[*start .. *start + *n). */
void clyde_history_normalise(const char *doc, size_t len, size_t *start,
			     size_t *n);

#ifdef CLYDE_HAVE_SQLITE

#include <sqlite3.h>

struct clyde_history {
	sqlite3 *db;
	char *path;
	int found_version;
	/* A writer's wait for another process (clyde_history_wait; NULL
	 * waiting: SQLite's own busy timeout), and when this wait began. */
	struct clyde_history_wait wait;
	uint64_t wait_start_ns;
	bool wait_said;
};

int clyde_db_fail(struct clyde_ctx *ctx, struct clyde_history *h,
		  const char *what);
int clyde_db_exec(struct clyde_ctx *ctx, struct clyde_history *h,
		  const char *sql);
int clyde_db_prepare(struct clyde_ctx *ctx, struct clyde_history *h,
		     const char *sql, sqlite3_stmt **st);
/* Bind s (NULL: "") as text, copied. */
int clyde_db_bind_text(sqlite3_stmt *st, int i, const char *s);

/* BEGIN IMMEDIATE (the write lock now), COMMIT (rolled back when it
 * fails), and ROLLBACK when a transaction is open. */
int clyde_db_begin(struct clyde_ctx *ctx, struct clyde_history *h);
int clyde_db_commit(struct clyde_ctx *ctx, struct clyde_history *h);
void clyde_db_rollback(struct clyde_history *h);

/* Store e's columns and figures for run `id` (inside a transaction). */
int clyde_history_store_columns(struct clyde_ctx *ctx, struct clyde_history *h,
				int64_t id,
				const struct clyde_history_entry *e);

/* Insert one described document (inside a transaction); the new id in
 * *id_out. */
int clyde_history_insert_run(struct clyde_ctx *ctx, struct clyde_history *h,
			     const char *doc, size_t len, const char *source,
			     unsigned long line,
			     const struct clyde_history_entry *e,
			     int64_t *id_out);

/* Store what schema version 3 added for run `id`: the settings columns
 * of e and the document's hash (inside a transaction). */
int clyde_history_store_v3_columns(struct clyde_ctx *ctx,
				   struct clyde_history *h, int64_t id,
				   const struct clyde_history_entry *e,
				   const char *doc, size_t len);

/* Store what schema version 4 added for run `id`: each figure's flags
 * (CLYDE_LOADED_FLAG_*; inside a transaction, after its figures). */
int clyde_history_store_v4_flags(struct clyde_ctx *ctx, struct clyde_history *h,
				 int64_t id,
				 const struct clyde_history_entry *e,
				 const char *doc, size_t len);

/* Bring a clyde history of schema `version` (-1: an empty file) to
 * CLYDE_HISTORY_SCHEMA_VERSION, inside the caller's write transaction
 * (history_schema.c). */
int clyde_db_apply_migrations(struct clyde_ctx *ctx, struct clyde_history *h,
			      int version);

#endif /* CLYDE_HAVE_SQLITE */

#endif
