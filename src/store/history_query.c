/*
 * Reading the history: the list of runs and one run with its document.
 * See history.h.
 */
#include "store/history.h"

#ifdef CLYDE_HAVE_SQLITE

#include <errno.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/history_internal.h"

#define ENTRY_COLUMNS                                                    \
	"id, saved_unix, started_unix, kind, label, host, target_path, " \
	"fstype, mount_opts, source, source_line, note, file_size, "     \
	"files, io_chunk"
/* The column after ENTRY_COLUMNS. */
#define ENTRY_NCOLUMNS 15

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return strdup(s ? (const char *)s : "");
}

/* The two statements entry_from_row reads: `sql`, whose columns start
 * with ENTRY_COLUMNS, and the figures of one run. */
static int prepare_entry(struct clyde_ctx *ctx, struct clyde_history *h,
			 const char *sql, sqlite3_stmt **st,
			 sqlite3_stmt **figs)
{
	int rc = clyde_hist_prepare(ctx, h, sql, st);

	if (rc == 0)
		rc = clyde_hist_prepare(
			ctx, h,
			"SELECT test, state, value, too_fast, "
			"cpu_pct FROM figures WHERE run_id = ?1",
			figs);
	return rc;
}

/* Fill e from a row of ENTRY_COLUMNS, then its figures. */
static int entry_from_row(struct clyde_ctx *ctx, struct clyde_history *h,
			  sqlite3_stmt *st, sqlite3_stmt *figs,
			  struct clyde_history_entry *e)
{
	int rc = 0, step;

	memset(e, 0, sizeof(*e));
	e->id = sqlite3_column_int64(st, 0);
	e->saved_unix = sqlite3_column_int64(st, 1);
	e->started_unix = sqlite3_column_type(st, 2) == SQLITE_NULL ?
				  -1 :
				  sqlite3_column_int64(st, 2);
	e->kind = col_text(st, 3);
	e->label = col_text(st, 4);
	e->host = col_text(st, 5);
	e->target_path = col_text(st, 6);
	e->fstype = col_text(st, 7);
	e->mount_opts = col_text(st, 8);
	e->source = col_text(st, 9);
	e->source_line = sqlite3_column_type(st, 10) == SQLITE_NULL ?
				 0 :
				 (unsigned long)sqlite3_column_int64(st, 10);
	e->note = col_text(st, 11);
	e->file_size = col_text(st, 12);
	e->files = col_text(st, 13);
	e->io_chunk = col_text(st, 14);
	if (clyde_hist_entry_fill_strings(e) < 0)
		return clyde_err(ctx, ENOMEM, "%s", h->path);

	sqlite3_reset(figs);
	sqlite3_bind_int64(figs, 1, e->id);
	while ((step = sqlite3_step(figs)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(figs, 0);
		struct clyde_history_figure *f = NULL;

		for (int t = 0; name && t < CLYDE_TEST_COUNT; t++)
			if (!strcmp(name, clyde_test_name((enum clyde_test)t)))
				f = &e->fig[t];
		if (!f)
			continue; /* a figure a later clyde added */
		f->state = (enum clyde_history_fig_state)sqlite3_column_int(
			figs, 1);
		if (f->state != CLYDE_HIST_FIG_VALUE &&
		    f->state != CLYDE_HIST_FIG_TOO_FAST)
			f->state = CLYDE_HIST_FIG_NONE;
		f->value = sqlite3_column_double(figs, 2);
		f->too_fast = sqlite3_column_int(figs, 3) != 0;
		f->has_cpu = sqlite3_column_type(figs, 4) != SQLITE_NULL;
		f->cpu_pct = f->has_cpu ? sqlite3_column_double(figs, 4) : 0;
	}
	if (step != SQLITE_DONE)
		rc = clyde_hist_db_fail(ctx, h, "read figures");
	return rc;
}

int clyde_history_list(struct clyde_ctx *ctx, struct clyde_history *h,
		       size_t limit, struct clyde_history_entry **out,
		       size_t *n)
{
	sqlite3_stmt *st = NULL, *figs = NULL;
	struct clyde_history_entry *v = NULL;
	size_t cnt = 0, cap = 0;
	int rc, step;

	*out = NULL;
	*n = 0;
	rc = prepare_entry(ctx, h,
			   "SELECT " ENTRY_COLUMNS " FROM runs "
			   "ORDER BY started_unix IS NULL, started_unix DESC, "
			   "id DESC LIMIT ?1",
			   &st, &figs);
	if (rc < 0)
		goto out;
	sqlite3_bind_int64(
		st, 1, limit > 0 && limit < INT64_MAX ? (int64_t)limit : -1);
	/* One read transaction, so the list is one consistent snapshot. */
	rc = clyde_hist_exec(ctx, h, "BEGIN");
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct clyde_history_entry *p =
				realloc(v, ncap * sizeof(*p));

			if (!p) {
				rc = clyde_err(ctx, ENOMEM, "%s", h->path);
				break;
			}
			v = p;
			cap = ncap;
		}
		rc = entry_from_row(ctx, h, st, figs, &v[cnt]);
		cnt++;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = clyde_hist_db_fail(ctx, h, "list runs");
	sqlite3_finalize(st);
	st = NULL;
	clyde_hist_rollback(h);
out:
	sqlite3_finalize(st);
	sqlite3_finalize(figs);
	if (rc < 0) {
		clyde_history_entries_free(v, cnt);
		return rc;
	}
	*out = v;
	*n = cnt;
	return 0;
}

int clyde_history_get(struct clyde_ctx *ctx, struct clyde_history *h,
		      int64_t id, struct clyde_history_entry *e, char **doc,
		      size_t *len)
{
	sqlite3_stmt *st = NULL, *figs = NULL;
	int rc, step;

	rc = prepare_entry(ctx, h,
			   "SELECT " ENTRY_COLUMNS ", document FROM runs "
			   "WHERE id = ?1",
			   &st, &figs);
	if (rc < 0)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	step = sqlite3_step(st);
	if (step == SQLITE_DONE) {
		rc = clyde_err(ctx, 0, "no run with id %lld in %s",
			       (long long)id, h->path);
		rc = -ENOENT;
		goto out;
	}
	if (step != SQLITE_ROW) {
		rc = clyde_hist_db_fail(ctx, h, "read run");
		goto out;
	}
	if (doc) {
		const void *p = sqlite3_column_blob(st, ENTRY_NCOLUMNS);
		size_t n = (size_t)sqlite3_column_bytes(st, ENTRY_NCOLUMNS);

		*doc = malloc(n + 1);
		if (!*doc) {
			rc = clyde_err(ctx, ENOMEM, "%s", h->path);
			goto out;
		}
		if (n)
			memcpy(*doc, p, n);
		(*doc)[n] = '\0';
		if (len)
			*len = n;
	}
	if (e) {
		rc = entry_from_row(ctx, h, st, figs, e);
		if (rc < 0) {
			clyde_history_entry_release(e);
			if (doc) {
				free(*doc);
				*doc = NULL;
			}
		}
	}
out:
	sqlite3_finalize(st);
	sqlite3_finalize(figs);
	return rc;
}

#endif /* CLYDE_HAVE_SQLITE */
