/*
 * The job of `clyde dev` and `clyde zcav` (job.h): the destinations
 * opened before the device is touched, the tests (their guards first),
 * the result handed to the command to render, then --json, --csv, zcav's
 * log and the history written.
 */
#ifndef CLYDE_JOB_JOB_DEV_H
#define CLYDE_JOB_JOB_DEV_H

#include <stdbool.h>

#include "job/job.h"
#include "results/dev_result.h"

struct clyde_job_dev {
	const char *who; /* "clyde dev", "clyde zcav" */
	struct clyde_dev_config *cfg;
	bool seed_given; /* else cfg->seed is made from the time */
	const char *json, *csv, *zcav_log;
	const char *db; /* NULL: the default history */
	bool no_save;
	/* Render the run (the table, zcav's lines when there is no log, the
	 * advice); 0, or -1 when an output could not be written. */
	int (*show)(void *arg, const struct clyde_dev_run *run);
};

/* Run a's tests on a->cfg->path; returns the status (enum
 * clyde_job_status). */
int clyde_job_dev_run(const struct clyde_job_dev *a,
		      const struct clyde_job_ui *ui);

#endif
