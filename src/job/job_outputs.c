/*
 * The destinations of `clyde tree`, `clyde dev` and `clyde zcav`: opened
 * first, written last, through temporary files (see job_outputs.h).
 */
#include "job/job_outputs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "store/history.h"

static const char *const opt_name[CLYDE_JOB_OUT_COUNT] = {
	[CLYDE_JOB_OUT_JSON] = "--json",
	[CLYDE_JOB_OUT_CSV] = "--csv",
	[CLYDE_JOB_OUT_LOG] = "-l",
};

static int open_one(struct clyde_job_outputs *o, enum clyde_job_out which)
{
	const char *path = o->path[which];
	int rc;

	if (which == CLYDE_JOB_OUT_CSV && strcmp(path, "-") &&
	    access(path, F_OK) == 0 && access(path, R_OK) < 0) {
		clyde_job_say(o->job, "%s %s: %s", opt_name[which], path,
			      strerror(errno));
		return -1;
	}
	clyde_job_note_stale_tmp(o->job, o->job->who, path);
	rc = clyde_outfile_open(&o->file[which], path);
	if (rc < 0) {
		clyde_job_say(o->job, "%s %s: %s", opt_name[which], path,
			      strerror(-rc));
		return -1;
	}
	o->open[which] = true;
	return 0;
}

/* The history closes without a trace when this run created it and added
 * nothing. */
static void close_history(struct clyde_job_outputs *o)
{
	if (o->h && o->db_created)
		clyde_history_close_discard_empty(o->h);
	else
		clyde_history_close(o->h);
	o->h = NULL;
}

static int open_history(struct clyde_job_outputs *o, const char *db)
{
	static const struct clyde_history_wait glance = { 100, NULL, NULL };
	struct clyde_ctx hctx;
	char path[PATH_MAX];
	struct stat st;
	int ret = 0, rc;

	clyde_ctx_init(&hctx);
	if (db)
		snprintf(path, sizeof(path), "%s", db);
	else if (clyde_history_default_path(&hctx, path, sizeof(path)) < 0)
		path[0] = '\0';
	o->db_created = !path[0] || lstat(path, &st) < 0;
	/* Another process may hold it: a glance now (busy now is usable,
	 * the save opens it then), the whole wait, said, at the save. */
	o->db = db;
	rc = clyde_history_open_waiting(&hctx, db, true, &glance, &o->h);
	if (rc == -EBUSY) {
		o->deferred = true;
		o->h = NULL;
		clyde_ctx_release(&hctx);
		return 0;
	}
	if (rc < 0) {
		/* A damaged default history is refused too: the run would
		 * end unsaved, and the user should know before it starts. */
		if (db || rc == -EUCLEAN) {
			clyde_job_say(o->job,
				      "%s: %s (--no-save skips the history)",
				      db ? "--db" : "the results history",
				      clyde_errmsg(&hctx));
			ret = -1;
		} else {
			clyde_job_say(o->job,
				      "warning: the result will not be saved "
				      "in the history: %s (--no-save skips it)",
				      clyde_errmsg(&hctx));
		}
		o->h = NULL;
	}
	clyde_ctx_release(&hctx);
	return ret;
}

int clyde_job_outputs_open(struct clyde_job_outputs *o,
			   const struct clyde_job *job,
			   const struct clyde_job_dest *d)
{
	memset(o, 0, sizeof(*o));
	o->job = job;
	for (int i = 0; i < CLYDE_JOB_OUT_COUNT; i++) {
		o->path[i] = d->path[i];
		if (o->path[i] && open_one(o, (enum clyde_job_out)i) < 0)
			return -1;
	}
	if (!d->no_save && clyde_history_available())
		return open_history(o, d->db);
	return 0;
}

FILE *clyde_job_outputs_file(struct clyde_job_outputs *o,
			     enum clyde_job_out which)
{
	return o->open[which] ? o->file[which].f : NULL;
}

int clyde_job_outputs_csv_begin(struct clyde_job_outputs *o, bool *header)
{
	struct clyde_outfile *csv = &o->file[CLYDE_JOB_OUT_CSV];
	/* Appending, safely: the old lines and the new one go to the
	 * temporary file, which then replaces the old file. */
	long long old = csv->is_stdout ? 0 : clyde_outfile_copy_old(csv);

	*header = old == 0;
	return old < 0 ? -errno : 0;
}

int clyde_job_outputs_csv(struct clyde_job_outputs *o, int (*header)(FILE *f),
			  int (*line)(FILE *f, const void *run),
			  const void *run)
{
	FILE *f = clyde_job_outputs_file(o, CLYDE_JOB_OUT_CSV);
	bool fresh;
	int rc;

	if (!f)
		return 0;
	rc = clyde_job_outputs_csv_begin(o, &fresh);
	if (rc == 0 && fresh)
		rc = header(f);
	if (rc == 0)
		rc = line(f, run);
	return clyde_job_outputs_commit(o, CLYDE_JOB_OUT_CSV, rc);
}

int clyde_job_outputs_commit(struct clyde_job_outputs *o,
			     enum clyde_job_out which, int rc)
{
	o->open[which] = false;
	if (rc < 0)
		clyde_outfile_abort(&o->file[which]);
	else
		rc = clyde_outfile_commit(&o->file[which]);
	if (rc < 0) {
		clyde_job_say(o->job, "%s: cannot write %s: %s",
			      opt_name[which], o->path[which], strerror(-rc));
		return -1;
	}
	return 0;
}

int clyde_job_outputs_save(struct clyde_job_outputs *o, const char *doc,
			   size_t len, const char *why)
{
	struct clyde_history_wait wait;
	struct clyde_ctx hctx;
	int ret = 0, rc;

	if (!o->h && !o->deferred)
		return 0;
	clyde_ctx_init(&hctx);
	clyde_job_history_wait(o->job, &wait);
	if (o->h)
		clyde_history_set_wait(o->h, &wait);
	if (!doc) {
		clyde_job_say(o->job,
			      "the result was not saved in the history: %s",
			      why);
		ret = -1;
	} else if ((rc = o->h ? clyde_history_add(&hctx, o->h, doc, len, NULL,
						  NULL) :
				clyde_history_save_waiting(&hctx, o->db, &wait,
							   doc, len, NULL)) ==
		   -EBUSY) {
		ret = clyde_job_history_spill(o->job, o->db, doc, len,
					      wait.max_ms);
	} else if (rc < 0) {
		clyde_job_say(o->job,
			      "the result was not saved in the history: %s "
			      "(--no-save skips it)",
			      clyde_errmsg(&hctx));
		ret = -1;
	}
	clyde_ctx_release(&hctx);
	close_history(o);
	return ret;
}

bool clyde_job_outputs_saving(const struct clyde_job_outputs *o)
{
	return o->h || o->deferred;
}

void clyde_job_outputs_abort(struct clyde_job_outputs *o)
{
	for (int i = 0; i < CLYDE_JOB_OUT_COUNT; i++)
		if (o->open[i])
			clyde_outfile_abort(&o->file[i]);
	close_history(o);
	memset(o, 0, sizeof(*o));
}
