/*
 * What job_run.c and job_run_series.c share: the state of one `clyde run`
 * job.  Private to job/.
 */
#ifndef CLYDE_JOB_JOB_RUN_INTERNAL_H
#define CLYDE_JOB_JOB_RUN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/outfile.h"
#include "dist/semsync.h"
#include "exp/repeat.h"
#include "io/scratch.h"
#include "job/job_run.h"

/* Where the results of a run went: its --json file, its history id. */
struct kept {
	const char *json; /* NULL: not written */
	int64_t id;	  /* 0: not saved */
};

struct run_job {
	struct clyde_job job;
	const struct clyde_job_run *a;
	struct clyde_bonnie_config *cfg;
	bool leader;		  /* prints, writes --json, saves */
	bool ran;		  /* the series started */
	bool stop;		  /* -p: nothing more to do */
	struct clyde_semsync sem; /* -y */
	struct clyde_outdest jd;  /* --json */
	struct clyde_repeat_baseline base;
	uint32_t *ext; /* -Z's numbers */
	long n_ext;
	uint64_t seed;
	struct clyde_scratch *scratch;
	struct clyde_bonnie_hooks hooks;
	struct clyde_run *runs;
	unsigned cap, done;
	struct clyde_json_extra jextra;
	struct kept kept;
};

/* The series: -x N runs, or runs until every test settles or is decided
 * (exp/repeat.h), then the statistics (job_run_series.c).  0, -EIO when
 * the command's series_begin or series_end failed, or a negative errno
 * from the repeats. */
int clyde_job_run_series(struct run_job *r);

#endif
