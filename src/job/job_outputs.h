/*
 * Where a job's result goes, for the jobs that write it once at the end
 * (`clyde tree`, `clyde dev`, `clyde zcav`): --json FILE, --csv FILE
 * (appended to), a log file (zcav -l) and the results history.
 *
 * Every destination is opened before the work starts, so that a mistyped
 * path costs nothing (exit 1, nothing run), and written at the end
 * through a temporary file renamed over it (core/outfile.h), so that a
 * full disk or an interruption keeps the old content.  Messages are the
 * job's (job.h), one line each: "clyde CMD: ...".
 *
 * Typical use:
 *
 *	if (clyde_job_outputs_open(&o, job, &dest) < 0) ... abort, exit 1
 *	... run ...
 *	f = clyde_job_outputs_file(&o, CLYDE_JOB_OUT_JSON);
 *	if (f) ret |= clyde_job_outputs_commit(&o, CLYDE_JOB_OUT_JSON,
 *					       write_json(f, run));
 *	...
 *	clyde_job_outputs_abort(&o);   (always: drops what was not committed)
 */
#ifndef CLYDE_JOB_JOB_OUTPUTS_H
#define CLYDE_JOB_JOB_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/outfile.h"
#include "job/job.h"

struct clyde_history;

enum clyde_job_out {
	CLYDE_JOB_OUT_JSON, /* --json */
	CLYDE_JOB_OUT_CSV,  /* --csv, appended to */
	CLYDE_JOB_OUT_LOG,  /* zcav -l */
	CLYDE_JOB_OUT_COUNT
};

/* What the command line asked for; NULL: not wanted. */
struct clyde_job_dest {
	const char *path[CLYDE_JOB_OUT_COUNT];
	const char *db; /* NULL: the default history */
	bool no_save;
};

struct clyde_job_outputs {
	const struct clyde_job *job; /* its messages */
	const char *path[CLYDE_JOB_OUT_COUNT];
	struct clyde_outfile file[CLYDE_JOB_OUT_COUNT];
	bool open[CLYDE_JOB_OUT_COUNT];
	struct clyde_history *h; /* NULL: not saved */
	bool db_created;	 /* the history did not exist before */
	const char *db;		 /* --db (NULL: the default), borrowed */
	bool deferred;		 /* busy at the start: opened only to save */
};

/*
 * Open every destination of d, and the history unless d->no_save (a --db
 * the user named must work; the default history only costs a warning,
 * unless it is damaged).  A --csv file that exists must be readable: its
 * lines are copied into the new one at the end.  Returns 0, or -1 after
 * saying one line; clyde_job_outputs_abort() then releases what was
 * opened.
 */
int clyde_job_outputs_open(struct clyde_job_outputs *o,
			   const struct clyde_job *job,
			   const struct clyde_job_dest *d);

/* The stream to write destination `which` to, or NULL when it is not
 * open (not asked for, or already committed). */
FILE *clyde_job_outputs_file(struct clyde_job_outputs *o,
			     enum clyde_job_out which);

/*
 * Start the --csv file: copy the old file's lines (and its mode) into the
 * new one, ending with a line end.  *header is set when the file was new
 * or empty, so that the caller writes the column names first.  Returns 0
 * or a negative errno (to hand to clyde_job_outputs_commit()).
 */
int clyde_job_outputs_csv_begin(struct clyde_job_outputs *o, bool *header);

/*
 * The whole --csv destination, when it is open: clyde_job_outputs_csv_begin(),
 * header(f) when the file is new or empty, line(f, run), then the commit.
 * header and line return 0 or a negative errno.  Returns 0 (also when
 * --csv was not asked for), or -1 as clyde_job_outputs_commit().
 */
int clyde_job_outputs_csv(struct clyde_job_outputs *o, int (*header)(FILE *f),
			  int (*line)(FILE *f, const void *run),
			  const void *run);

/*
 * Finish destination `which`, written with result rc (0 or a negative
 * errno): commit it, or drop it when rc < 0.  Returns 0, or -1 after
 * saying "clyde CMD: OPT: cannot write PATH: ..." (the old content is
 * kept).
 */
int clyde_job_outputs_commit(struct clyde_job_outputs *o,
			     enum clyde_job_out which, int rc);

/*
 * Save the result document doc (len bytes, the run's JSON) in the history
 * when one is open, then close it.  doc NULL: the document could not be
 * made, for the reason `why`.  Returns 0, or -1 after saying one line
 * when the result was not saved: the job then ends with status 3 (what
 * it printed and wrote is complete, but the run is not kept).
 */
int clyde_job_outputs_save(struct clyde_job_outputs *o, const char *doc,
			   size_t len, const char *why);

/* Will clyde_job_outputs_save() save (the history open, or busy at the
 * start and opened at the save)? */
bool clyde_job_outputs_saving(const struct clyde_job_outputs *o);

/* Drop every destination not committed (removing the temporary files),
 * and close the history, removing one this run created and did not use.
 * Safe to call more than once. */
void clyde_job_outputs_abort(struct clyde_job_outputs *o);

#endif
