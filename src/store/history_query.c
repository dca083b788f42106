/*
 * Reading the history: the list of runs and one run with its document.
 * See history.h.
 */
#include "store/history.h"

#ifdef CLYDE_HAVE_SQLITE

#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "results/kinds.h"
#include "store/history_internal.h"

/*
 * The columns of `runs` an entry is made of, then what is read from the
 * stored document and the experiment tables (no column of their own, so
 * no schema step): the settings that tell runs apart (SETTINGS_PATHS, in
 * one JSON array) and, for a run of a sweep, its experiment, point and
 * workload.  A document SQLite cannot read (a CSV line, a damaged one)
 * gives NULL.  ENTRY_FROM is the FROM clause they need.
 */
#define SETTINGS_PATHS                                                     \
	"'$.config.direct', '$.config.engine', '$.config.iodepth', "       \
	"'$.jobs[0].\"job options\".direct', "                             \
	"'$.jobs[0].\"job options\".ioengine', "                           \
	"'$.jobs[0].\"job options\".iodepth', "                            \
	"'$.\"global options\".direct', '$.\"global options\".ioengine', " \
	"'$.\"global options\".iodepth'"
#define ENTRY_COLUMNS                                                 \
	"runs.id, runs.saved_unix, runs.started_unix, runs.kind, "    \
	"runs.label, runs.host, runs.target_path, runs.fstype, "      \
	"runs.mount_opts, runs.source, runs.source_line, runs.note, " \
	"runs.file_size, runs.files, runs.io_chunk, "                 \
	"CASE WHEN json_valid(runs.document) THEN "                   \
	"json_extract(runs.document, " SETTINGS_PATHS ") END, "       \
	"x.id, x.axes, x.workloads, p.axis_values, r.workload"
#define ENTRY_FROM                                                      \
	" FROM runs LEFT JOIN (SELECT run_id, min(id) AS first FROM "   \
	"experiment_runs WHERE run_id IS NOT NULL GROUP BY run_id) e "  \
	"ON e.run_id = runs.id LEFT JOIN experiment_runs r ON r.id = "  \
	"e.first LEFT JOIN experiment_points p ON p.exp_id = r.exp_id " \
	"AND p.point = r.point LEFT JOIN experiments x ON x.id = "      \
	"r.exp_id"
/* The column after ENTRY_COLUMNS. */
#define ENTRY_NCOLUMNS 21

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
	int rc = clyde_db_prepare(ctx, h, sql, st);

	if (rc == 0)
		rc = clyde_db_prepare(
			ctx, h,
			"SELECT test, state, value, too_fast, "
			"cpu_pct, flags FROM figures WHERE run_id = ?1",
			figs);
	return rc;
}

/* A scalar of the settings array as text ("" for null or absent); a
 * bool as "yes"/"no", and so fio's direct=1/0. */
static void setting_text(const struct clyde_json *v, bool is_direct, char *buf,
			 size_t len)
{
	buf[0] = '\0';
	if (!v)
		return;
	switch (v->type) {
	case CLYDE_JSON_TRUE:
	case CLYDE_JSON_FALSE:
		snprintf(buf, len, "%s",
			 v->type == CLYDE_JSON_TRUE ? "yes" : "no");
		break;
	case CLYDE_JSON_NUMBER:
		if (is_direct)
			snprintf(buf, len, "%s", v->num != 0 ? "yes" : "no");
		else if (v->is_int)
			snprintf(buf, len, "%" PRId64, v->inum);
		else
			snprintf(buf, len, "%g", v->num);
		break;
	case CLYDE_JSON_STRING:
		if (is_direct && v->str[0])
			snprintf(buf, len, "%s",
				 strcmp(v->str, "0") ? "yes" : "no");
		else
			snprintf(buf, len, "%s", v->str);
		break;
	default:
		break;
	}
}

/* O_DIRECT, engine and depth from the array of SETTINGS_PATHS: clyde's
 * config first, else the fio job's options, else fio's global ones. */
static int settings_from_row(sqlite3_stmt *st, int col,
			     struct clyde_history_entry *e)
{
	const char *text = (const char *)sqlite3_column_text(st, col);
	char v[3][64] = { "", "", "" };
	const struct clyde_result_kind *rk;
	struct clyde_json arr;
	struct clyde_json_error jerr;

	if (text &&
	    clyde_json_parse(text, strlen(text), NULL, &arr, &jerr) == 0) {
		if (arr.type == CLYDE_JSON_ARRAY)
			for (size_t k = 0; k < 3; k++)
				for (size_t src = 0; src < 3 && !v[k][0]; src++)
					setting_text(clyde_json_at(&arr,
								   src * 3 + k),
						     k == 0, v[k],
						     sizeof(v[k]));
		/* A sync engine (psync) performs one request at a time
		 * whatever --iodepth said: the depth that ran is 1. */
		const char *engine = clyde_json_str(clyde_json_at(&arr, 1));

		if (engine && clyde_result_engine_sync(engine) && v[2][0])
			snprintf(v[2], sizeof(v[2]), "1");
		clyde_json_free(&arr);
	}
	/* A kind that records only the options it was given (fio): what
	 * it ran without one is its default (psync, buffered, depth 1), and
	 * a sync engine runs at depth 1 whatever was asked. */
	rk = clyde_result_kind_find(e->kind);
	if (rk && rk->unrecorded[1]) {
		for (size_t i = 0; i < 3; i++)
			if (!v[i][0] && rk->unrecorded[i])
				snprintf(v[i], sizeof(v[i]), "%s",
					 rk->unrecorded[i]);
		if (clyde_result_engine_sync(v[1]))
			snprintf(v[2], sizeof(v[2]), "1");
	}
	e->direct = strdup(v[0]);
	e->engine = strdup(v[1]);
	e->iodepth = strdup(v[2]);
	return e->direct && e->engine && e->iodepth ? 0 : -1;
}

/* The nth field (0-based) of a tab-separated list: its start and
 * length, or NULL past the end. */
static const char *tab_field(const char *s, size_t nth, size_t *len)
{
	for (; nth > 0 && s; nth--) {
		s = strchr(s, '\t');
		if (s)
			s++;
	}
	if (!s)
		return NULL;
	*len = strcspn(s, "\t");
	return s;
}

/* A sweep run's point from the columns after the settings: experiment
 * id, axis names, workloads ("name kind" each), axis values and the
 * run's workload; "" for a run of no sweep. */
static int point_from_row(sqlite3_stmt *st, int col,
			  struct clyde_history_entry *e)
{
	const char *id = (const char *)sqlite3_column_text(st, col);
	const char *axes = (const char *)sqlite3_column_text(st, col + 1);
	const char *wls = (const char *)sqlite3_column_text(st, col + 2);
	const char *vals = (const char *)sqlite3_column_text(st, col + 3);
	const char *wl = (const char *)sqlite3_column_text(st, col + 4);
	char buf[1024];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; id && axes && vals && used < sizeof(buf); i++) {
		size_t an, vn;
		const char *a = tab_field(axes, i, &an);
		const char *v = tab_field(vals, i, &vn);

		if (!a || !v || !an)
			break;
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "%s%.*s=%.*s", used ? " " : "",
					 (int)an, a, (int)vn, v);
	}
	e->experiment = strdup(id ? id : "");
	e->point = strdup(buf);
	e->workload = strdup(id && wl && wls && strchr(wls, '\t') ? wl : "");
	return e->experiment && e->point && e->workload ? 0 : -1;
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
	if (settings_from_row(st, 15, e) < 0 || point_from_row(st, 16, e) < 0 ||
	    clyde_history_entry_fill_strings(e) < 0)
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
		f->flags = (unsigned)sqlite3_column_int64(figs, 5);
	}
	if (step != SQLITE_DONE)
		rc = clyde_db_fail(ctx, h, "read figures");
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
			   /* The newest ids first: the documents of the
			    * runs --limit leaves out are not read. */
			   "SELECT " ENTRY_COLUMNS ", NULL" ENTRY_FROM
			   " WHERE runs.id IN (SELECT id FROM runs ORDER BY "
			   "started_unix IS NULL, started_unix DESC, id DESC "
			   "LIMIT ?1) ORDER BY runs.started_unix IS NULL, "
			   "runs.started_unix DESC, runs.id DESC",
			   &st, &figs);
	if (rc < 0)
		goto out;
	sqlite3_bind_int64(
		st, 1, limit > 0 && limit < INT64_MAX ? (int64_t)limit : -1);
	/* One read transaction, so the list is one consistent snapshot. */
	rc = clyde_db_exec(ctx, h, "BEGIN");
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
		rc = clyde_db_fail(ctx, h, "list runs");
	sqlite3_finalize(st);
	st = NULL;
	clyde_db_rollback(h);
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
			   "SELECT " ENTRY_COLUMNS ", runs.document" ENTRY_FROM
			   " WHERE runs.id = ?1",
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
		rc = clyde_db_fail(ctx, h, "read run");
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
