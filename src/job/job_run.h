/*
 * The job of `clyde run` (job.h), the bonnie++ suite, on one process or
 * on every rank of clyde-mpi: the ranks' workers and deadlines, -p's
 * semaphores, -Z's random numbers and the seed, the --json destination,
 * --baseline, the privileges of -u/-g, the history and engine checks, the
 * semaphores of -y, the scratch directory, the size (calibrated when -s
 * and -r are not given), the set-up agreement, the progress, the series
 * of -x / --until-stable / --until-decided (exp/repeat.h), each run
 * handed to the command to render, the JSON document written and saved,
 * the clean-up.
 */
#ifndef CLYDE_JOB_JOB_RUN_H
#define CLYDE_JOB_JOB_RUN_H

#include <stdbool.h>

#include "job/job.h"
#include "results/format.h"
#include "workloads/bonnie.h"

struct clyde_job_run {
	/* The suite's settings; the job completes them (the seed, the
	 * ranks' workers, the size) and, on a rank other than 0, sets
	 * quiet: the hooks may read them. */
	struct clyde_bonnie_config *cfg;
	const char *json_path;	  /* --json FILE, "-" = stdout; NULL */
	const char *db_path;	  /* --db: the results history; NULL */
	const char *baseline;	  /* --baseline RESULT; NULL */
	bool no_save;		  /* --no-save */
	double until_decided_pct; /* --until-decided PCT; 0: off */
	/*
	 * The command's hooks, with the ui's arg.  test_begin: a test
	 * starts (every rank's together, after -y's semaphore): -y's
	 * prompt and the progress; 0 or a negative errno that stops the
	 * run.  test_end: the test ended (r->state CLYDE_SKIPPED: its
	 * note).  progress_start: a live progress display for the suite
	 * to keep current, or NULL; progress_stop ends it.  broken: the
	 * series stopped on a failure, a progress line may be left open.
	 */
	int (*test_begin)(void *arg, enum clyde_test t);
	void (*test_end)(void *arg, enum clyde_test t,
			 const struct clyde_test_result *r);
	struct clyde_progress *(*progress_start)(void *arg,
						 const struct clyde_ctx *ctx);
	void (*progress_stop)(void *arg);
	void (*broken)(void *arg);
	/*
	 * Rendering, on rank 0 only.  series_begin: before the first run
	 * of a series (-x, --until-*), the CSV header.  run_done: run i of
	 * runs is made.  series_end: after the last, the series' own
	 * sections.  Each returns 0, or non-zero when an output could not
	 * be written: the series ends with the runs made so far, which
	 * still go to --json and the history.  output_failed: 0 when no
	 * output failed, else the status after saying which one did.
	 */
	int (*series_begin)(void *arg);
	int (*run_done)(void *arg, const struct clyde_run *runs, unsigned i);
	int (*series_end)(void *arg, const struct clyde_run *runs, unsigned n,
			  const struct clyde_json_extra *extra);
	int (*output_failed)(void *arg);
};

/* Run the suite; returns the status (enum clyde_job_status).  dist:
 * clyde-mpi's ranks, NULL for plain clyde. */
int clyde_job_run_bonnie(const struct clyde_job_run *a,
			 const struct clyde_job_ui *ui,
			 struct clyde_dist *dist);

#endif
