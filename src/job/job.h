/*
 * A job: one run of a workload from its settings to its exit status, the
 * lifecycle `clyde run` (the bonnie++ suite), `clyde tree` and `clyde dev`
 * / `clyde zcav` share, on one process or on every rank of clyde-mpi:
 * the seed, the ranks, the semaphores of -y, the output destinations and
 * the history opened before anything runs, the baseline, the privileges
 * (-u/-g), the engine check, the scratch directory, calibration, the
 * set-up agreement of the ranks, the progress, the repeats, the hand-off
 * of each result to the caller for rendering, the commit of --json and
 * --csv, the save in the history and the clean-up.
 *
 * Each entry point (job_run.c, job_tree.c, job_dev.c) has one exit path:
 * whatever stops the job, the clyde-mpi protocol (dist/run_dist.h: the
 * set-up agreement, the removal, the finish) runs once, at its end.
 *
 * Library code: nothing here prints or exits.  What the user must read
 * goes to the caller's hooks (struct clyde_job_ui): a whole line to say,
 * the progress of a test or phase, a result to render.  The returned
 * status is one of enum clyde_job_status, the exit status of the command
 * (cli/commands.h has the same values).
 */
#ifndef CLYDE_JOB_JOB_H
#define CLYDE_JOB_JOB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/ctx.h"
#include "dist/dist.h"
#include "dist/run_dist.h"

/* The statuses a job ends with: the command's exit statuses. */
enum clyde_job_status {
	CLYDE_JOB_OK = 0,
	CLYDE_JOB_USAGE = 1,	   /* refused before anything ran */
	CLYDE_JOB_FAILED = 3,	   /* a test failed, a result not kept */
	CLYDE_JOB_INTERRUPTED = 5, /* a signal, a closed output */
};

/*
 * What the command that runs a job gives it to reach the user.  Every
 * hook is called on the job's own thread.
 */
struct clyde_job_ui {
	void *arg;
	/* One line for standard error, without its newline; the job put
	 * the command's name first ("clyde tree: ..."). */
	void (*say)(void *arg, const char *line);
	/* The flags the command's signal handlers set (SIGINT, SIGTERM,
	 * SIGHUP, SIGPIPE; SIGPIPE alone for `closed`). */
	volatile sig_atomic_t *interrupted;
	volatile sig_atomic_t *closed;
};

/* The part of every job: its name in messages, its hooks, its context
 * (made and released by the entry point), clyde-mpi's ranks. */
struct clyde_job {
	const char *who; /* "clyde", "clyde tree", "clyde dev": prefixes */
	const struct clyde_job_ui *ui;
	struct clyde_ctx ctx;
	struct clyde_run_dist rd; /* rd.d NULL: not distributed */
};

/* Start a job: its context (ctx.interrupted is ui's flag) and clyde-mpi's
 * ranks (dist NULL: plain clyde). */
void clyde_job_init(struct clyde_job *j, const char *who,
		    const struct clyde_job_ui *ui, struct clyde_dist *dist);

/* The one way out of a job: the clyde-mpi protocol's last call
 * (clyde_run_dist_finish) and the context released.  Returns the
 * status every rank ends with. */
int clyde_job_finish(struct clyde_job *j, int status);

/* Say "WHO: MSG" (printf's format). */
void clyde_job_say(const struct clyde_job *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Say a line as it is (it has its own prefix). */
void clyde_job_say_line(const struct clyde_job *j, const char *line);

/* True once a signal arrived / the reader of an output went away. */
bool clyde_job_interrupted(const struct clyde_job *j);
bool clyde_job_closed(const struct clyde_job *j);

/* A seed from the time and the process id, as bonnie++ makes one. */
uint64_t clyde_job_seed(void);

/* clyde_run_dist_failed(), its message said as "clyde-mpi: ...". */
int clyde_job_dist_failed(struct clyde_job *j, int ret);

/*
 * Say a note for each temporary file an earlier write to `path` left
 * (a clyde killed while writing it), with the command that removes it.
 * Call it before opening path.  `prog` prefixes the notes.
 */
void clyde_job_note_stale_tmp(const struct clyde_job *j, const char *prog,
			      const char *path);

/* Say a note for each scratch directory a killed run left in `dir`
 * (scratch's parent), with the command that removes it. */
struct clyde_scratch;
void clyde_job_note_stale(const struct clyde_job *j,
			  const struct clyde_scratch *scratch, const char *dir);

/* Append s to buf (size len, NUL-terminated) quoted for a POSIX shell. */
void clyde_job_put_quoted(char *buf, size_t len, const char *s);

struct clyde_history_wait;

/* How a save waits for a history another process holds: CLYDE_HISTORY_WAIT
 * seconds, else 120, saying "WHO: the results history PATH is busy ...;
 * waiting up to N s" once.  j must outlive w. */
void clyde_job_history_wait(const struct clyde_job *j,
			    struct clyde_history_wait *w);

/* The history at db (NULL: the default) stayed busy for max_ms: write the
 * result beside it and say where, with the `clyde history import` that
 * stores it.  Returns -1 after saying so. */
int clyde_job_history_spill(const struct clyde_job *j, const char *db,
			    const char *doc, size_t len, unsigned max_ms);

#endif
