/*
 * `clyde dev` and `clyde zcav` after the command line (job_dev.h): every
 * destination is opened before the device is touched (a mistyped path
 * costs nothing), the workload runs (its guards first), and the outputs
 * are written through temporary files renamed over the old ones
 * (job_outputs.h, shared with `clyde tree`).
 */
#include "job/job_dev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job_outputs.h"
#include "results/dev_out.h"
#include "workloads/dev.h"

/* The run's JSON document in memory, for the history; NULL with *why. */
static char *json_doc(const struct clyde_dev_run *run, size_t *len,
		      const char **why)
{
	char *doc = NULL;
	FILE *m = open_memstream(&doc, len);
	int rc = m ? clyde_dev_json_write(m, run, CLYDE_VERSION) : -ENOMEM;

	if (m && fclose(m) != 0 && rc == 0)
		rc = -ENOMEM;
	if (rc == 0)
		return doc;
	*why = strerror(-rc);
	free(doc);
	return NULL;
}

/* The files of the run: zcav's log, --json, --csv, the history. */
/* The run's CSV line (clyde_job_outputs_csv()). */
static int csv_line(FILE *f, const void *run)
{
	return clyde_dev_csv_write(f, run, CLYDE_VERSION);
}

static int outputs_write(struct clyde_job_outputs *o,
			 const struct clyde_dev_run *run)
{
	FILE *f = clyde_job_outputs_file(o, CLYDE_JOB_OUT_LOG);
	int ret = 0;

	if (run->tests[CLYDE_DEV_ZCAV].ran && f)
		ret |= clyde_job_outputs_commit(o, CLYDE_JOB_OUT_LOG,
						clyde_zcav_text_write(f, run));
	f = clyde_job_outputs_file(o, CLYDE_JOB_OUT_JSON);
	if (f)
		ret |= clyde_job_outputs_commit(
			o, CLYDE_JOB_OUT_JSON,
			clyde_dev_json_write(f, run, CLYDE_VERSION));
	ret |= clyde_job_outputs_csv(o, clyde_dev_csv_header, csv_line, run);
	if (clyde_job_outputs_saving(o)) {
		const char *why = NULL;
		size_t len = 0;
		char *doc = json_doc(run, &len, &why);

		ret |= clyde_job_outputs_save(o, doc, len, why);
		free(doc);
	}
	return ret;
}

/* A refusal or a setting the device cannot take: nothing was written. */
static bool refused(int rc)
{
	return rc == -EINVAL || rc == -EBUSY || rc == -EEXIST ||
	       rc == -ENOENT || rc == -EACCES || rc == -ENOTSUP;
}

int clyde_job_dev_run(const struct clyde_job_dev *a,
		      const struct clyde_job_ui *ui)
{
	struct clyde_job job;
	struct clyde_dev_run run;
	struct clyde_job_outputs outs;
	struct clyde_job_dest dest = {
		.path = { [CLYDE_JOB_OUT_JSON] = a->json,
			  [CLYDE_JOB_OUT_CSV] = a->csv,
			  [CLYDE_JOB_OUT_LOG] = a->zcav_log },
		.db = a->db,
		.no_save = a->no_save,
	};
	int status = CLYDE_JOB_OK, rc;

	clyde_job_init(&job, a->who, ui, NULL);
	memset(&run, 0, sizeof(run));
	memset(&outs, 0, sizeof(outs));
	if (!a->seed_given)
		a->cfg->seed = clyde_job_seed();
	/* A line of this format is never appended to a CSV of another
	 * (an older clyde's): refused before anything runs. */
	if (a->csv && strcmp(a->csv, "-")) {
		char why[256];
		int bad = clyde_dev_csv_check(a->csv, why, sizeof(why));

		if (bad < 0) {
			clyde_job_say(&job, "--csv %s: %s", a->csv,
				      bad == -EINVAL ? why : strerror(-bad));
			status = CLYDE_JOB_USAGE;
			goto out;
		}
	}
	if (clyde_job_outputs_open(&outs, &job, &dest) < 0) {
		status = CLYDE_JOB_USAGE;
		goto out;
	}
	rc = clyde_dev_run(&job.ctx, a->cfg, NULL, &run);
	if (rc == -EINTR || (rc < 0 && clyde_job_interrupted(&job))) {
		clyde_job_say(&job, "interrupted");
		status = CLYDE_JOB_INTERRUPTED;
	} else if (rc < 0) {
		clyde_job_say(&job, "%s", clyde_errmsg(&job.ctx));
		status = refused(rc) ? CLYDE_JOB_USAGE : CLYDE_JOB_FAILED;
	} else {
		/* The text first, then the files, each whatever the other
		 * did. */
		int shown = a->show ? a->show(ui->arg, &run) : 0;

		if (outputs_write(&outs, &run) < 0 || shown < 0)
			status = CLYDE_JOB_FAILED;
	}
	clyde_dev_run_release(&run);
out:
	clyde_job_outputs_abort(&outs);
	return clyde_job_finish(&job, status);
}
