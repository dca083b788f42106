/*
 * The series of `clyde run` (job_run.c): -x N runs, or runs until every
 * test settles or is decided, handed to clyde_exp_repeat() (exp/repeat.h),
 * each run to the command to render.
 */
#include <errno.h>

#include "job/job_run_internal.h"

/* One run of the suite.  Every run starts from the same seed, as in
 * bonnie++. */
static int series_run(void *arg, unsigned i, struct clyde_run *run)
{
	struct run_job *r = arg;

	(void)i;
	return clyde_bonnie_run(&r->job.ctx, r->cfg, r->scratch, r->seed,
				r->ext, (size_t)r->n_ext, &r->hooks, run);
}

static int series_done(void *arg, const struct clyde_run *runs, unsigned i)
{
	struct run_job *r = arg;

	return r->a->run_done ? r->a->run_done(r->job.ui->arg, runs, i) : 0;
}

static void series_say(void *arg, const char *msg)
{
	struct run_job *r = arg;

	clyde_job_say(&r->job, "%s", msg);
}

/* --until-decided's end, said. */
static void say_decided(struct run_job *r, const struct clyde_repeat *rep,
			const struct clyde_repeat_out *ro)
{
	struct clyde_job *j = &r->job;

	if (!ro->ncompared)
		clyde_job_say(j,
			      "until-decided: no test of these runs has a "
			      "value in the baseline %s",
			      rep->baseline->name);
	else if (ro->decided)
		clyde_job_say(j,
			      "until-decided: every test decided against %s "
			      "after %u run%s",
			      rep->baseline->name, ro->done,
			      ro->done == 1 ? "" : "s");
	else
		clyde_job_say(j,
			      "until-decided: %u of %u test%s still open after "
			      "%u runs (-x %u)",
			      ro->nopen, ro->ncompared,
			      ro->ncompared == 1 ? "" : "s", ro->done,
			      rep->cap);
}

int clyde_job_run_series(struct run_job *r)
{
	const struct clyde_job_run *a = r->a;
	const struct clyde_bonnie_config *cfg = r->cfg;
	void *ui = r->job.ui->arg;
	struct clyde_repeat rep = {
		.cap = r->cap,
		.until_stable_pct = cfg->until_stable_pct,
		.until_decided_pct = a->until_decided_pct,
		.baseline = a->baseline ? &r->base : NULL,
		.rd = &r->job.rd,
		.scratch = r->scratch,
		.hooks = { .arg = r,
			   .run = series_run,
			   .done = series_done,
			   .say = series_say },
	};
	bool series = cfg->runs > 0 || cfg->until_stable_pct > 0;
	struct clyde_repeat_out ro;
	int ret;

	r->done = 0;
	/* Before the first run: nothing is lost by stopping.  -x 1 is
	 * bonnie++'s one CSV line without a header. */
	if (r->leader &&
	    (cfg->runs > 1 || cfg->until_stable_pct > 0 ||
	     a->until_decided_pct > 0) &&
	    a->series_begin && a->series_begin(ui))
		return -EIO;
	ret = clyde_exp_repeat(&r->job.ctx, &rep, r->runs, &r->jextra, &ro);
	r->done = ro.done;
	if (ret < 0)
		return ret;
	if (r->leader && a->until_decided_pct > 0)
		say_decided(r, &rep, &ro);
	if (r->leader && series && a->series_end &&
	    a->series_end(ui, r->runs, r->done, &r->jextra) < 0)
		return -EIO;
	return 0;
}
