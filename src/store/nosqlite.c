/*
 * A build without SQLite: every function of the store that needs the
 * database (the history, history.h, and its experiments, exp_store.h)
 * records "built without SQLite" and returns -ENOTSUP.  The one file of
 * stubs: a new store function gets its stub here.
 */
#include "store/exp_store.h"
#include "store/history.h"

#ifndef CLYDE_HAVE_SQLITE

#include <errno.h>

static int no_sqlite(struct clyde_ctx *ctx)
{
	return clyde_err(ctx, 0,
			 "clyde was built without SQLite: no results history "
			 "(install libsqlite3-dev and rebuild)"),
	       -ENOTSUP;
}

bool clyde_history_available(void)
{
	return false;
}

void clyde_history_set_wait(struct clyde_history *h,
			    const struct clyde_history_wait *wait)
{
	(void)h, (void)wait;
}

int clyde_history_open_waiting(struct clyde_ctx *ctx, const char *db_path,
			       bool create,
			       const struct clyde_history_wait *wait,
			       struct clyde_history **out)
{
	(void)wait;
	return clyde_history_open(ctx, db_path, create, out);
}

int clyde_history_open(struct clyde_ctx *ctx, const char *db_path, bool create,
		       struct clyde_history **out)
{
	(void)db_path;
	(void)create;
	*out = NULL;
	return no_sqlite(ctx);
}

int clyde_history_open_readonly(struct clyde_ctx *ctx, const char *db_path,
				struct clyde_history **out)
{
	(void)db_path;
	*out = NULL;
	return no_sqlite(ctx);
}

void clyde_history_close(struct clyde_history *h)
{
	(void)h;
}

int clyde_history_close_discard_empty(struct clyde_history *h)
{
	(void)h;
	return 0;
}

const char *clyde_history_path(const struct clyde_history *h)
{
	(void)h;
	return "";
}

int clyde_history_found_version(const struct clyde_history *h)
{
	(void)h;
	return -1;
}

int clyde_history_add(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *doc, size_t len, const char *source,
		      int64_t *id_out)
{
	(void)h, (void)doc, (void)len, (void)source, (void)id_out;
	return no_sqlite(ctx);
}

int clyde_history_save(struct clyde_ctx *ctx, const char *db_path,
		       const char *json_text, size_t len, int64_t *id_out)
{
	(void)db_path, (void)json_text, (void)len, (void)id_out;
	return no_sqlite(ctx);
}

int clyde_history_save_waiting(struct clyde_ctx *ctx, const char *db_path,
			       const struct clyde_history_wait *wait,
			       const char *json_text, size_t len,
			       int64_t *id_out)
{
	(void)db_path, (void)wait, (void)json_text, (void)len, (void)id_out;
	return no_sqlite(ctx);
}

int clyde_history_import_file(struct clyde_ctx *ctx, struct clyde_history *h,
			      const char *path,
			      struct clyde_history_import *imp)
{
	(void)h, (void)path, (void)imp;
	return no_sqlite(ctx);
}

int clyde_history_list(struct clyde_ctx *ctx, struct clyde_history *h,
		       size_t limit, struct clyde_history_entry **out,
		       size_t *n)
{
	(void)h, (void)limit;
	*out = NULL;
	*n = 0;
	return no_sqlite(ctx);
}

int clyde_history_get(struct clyde_ctx *ctx, struct clyde_history *h,
		      int64_t id, struct clyde_history_entry *e, char **doc,
		      size_t *len)
{
	(void)h, (void)id, (void)e, (void)doc, (void)len;
	return no_sqlite(ctx);
}

int clyde_history_delete(struct clyde_ctx *ctx, struct clyde_history *h,
			 int64_t id)
{
	(void)h, (void)id;
	return no_sqlite(ctx);
}

int clyde_history_find_same(struct clyde_ctx *ctx, struct clyde_history *h,
			    const char *doc, size_t len, int64_t *id)
{
	(void)h, (void)doc, (void)len, (void)id;
	return no_sqlite(ctx);
}

int clyde_history_set_label(struct clyde_ctx *ctx, struct clyde_history *h,
			    int64_t id, const char *label)
{
	(void)h, (void)id, (void)label;
	return no_sqlite(ctx);
}

int clyde_history_set_note(struct clyde_ctx *ctx, struct clyde_history *h,
			   int64_t id, const char *note)
{
	(void)h, (void)id, (void)note;
	return no_sqlite(ctx);
}

/* ---- experiments (exp_store.h) ---------------------------------------- */

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

int clyde_exp_store_each_point(struct clyde_ctx *ctx, struct clyde_history *h,
			       const char *id, clyde_exp_point_fn fn, void *arg)
{
	(void)h, (void)id, (void)fn, (void)arg;
	return no_sqlite(ctx);
}

int clyde_exp_store_each_run(struct clyde_ctx *ctx, struct clyde_history *h,
			     const char *id, const char *workload,
			     clyde_exp_run_fn fn, void *arg)
{
	(void)h, (void)id, (void)workload, (void)fn, (void)arg;
	return no_sqlite(ctx);
}

#endif /* !CLYDE_HAVE_SQLITE */
