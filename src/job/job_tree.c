/*
 * `clyde tree` after the command line (job_tree.h): generate a tree (or
 * take an existing one, read-only), run the extract / walk / delete
 * phases, hand the run to the command and write its files.  One way out:
 * whatever stops it, the end (the set-up agreement, the removal, the
 * clyde-mpi finish) runs once.
 */
#include "job/job_tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/scratch.h"
#include "job/job_outputs.h"
#include "results/tree_out.h"

struct tree_job {
	struct clyde_job job;
	const struct clyde_job_tree *a;
	bool leader; /* prints, writes the files, saves */
	/* clyde-mpi: when each phase's ranks were released (this rank's
	 * clock). */
	uint64_t start_ns[CLYDE_TREE_PHASE_COUNT];
};

/* clyde-mpi: every rank starts the phase together, or all stop. */
static int start_phase(void *arg, enum clyde_tree_phase p)
{
	struct tree_job *t = arg;
	int all = clyde_dist_agree(t->job.rd.d, 0, NULL);

	if (all)
		return all < 0 ? all : CLYDE_DIST_PEER_FAILED;
	t->start_ns[p] = clyde_now(&t->job.ctx);
	/* Another rank's failure stops this phase too. */
	return clyde_dist_watch(t->job.rd.d, &t->job.ctx.failed);
}

static void before_phase(void *arg, enum clyde_tree_phase p)
{
	struct tree_job *t = arg;

	if (t->leader && t->a->phase_begin)
		t->a->phase_begin(t->job.ui->arg, p);
}

static void after_phase(void *arg, enum clyde_tree_phase p,
			const struct clyde_tree_phase_result *r)
{
	struct tree_job *t = arg;

	if (t->leader && t->a->phase_end)
		t->a->phase_end(t->job.ui->arg, p, r);
}

/* The run's JSON document in memory, for the history.  NULL on failure. */
static char *json_doc(const struct clyde_tree_run *run, size_t *len,
		      const struct clyde_dist *dist)
{
	char *doc = NULL;
	FILE *m = open_memstream(&doc, len);

	if (!m)
		return NULL;
	if (clyde_tree_json_write_more(m, run, CLYDE_VERSION,
				       dist ? clyde_dist_json : NULL,
				       dist) < 0) {
		fclose(m);
		free(doc);
		return NULL;
	}
	if (fclose(m) != 0) {
		free(doc);
		return NULL;
	}
	return doc;
}

/* Write and commit every file.  Returns 0 or -1 (each failure said; a
 * destination that failed keeps its old content). */
/* The run's CSV line (clyde_job_outputs_csv()). */
static int csv_line(FILE *f, const void *run)
{
	return clyde_tree_csv_write(f, run, CLYDE_VERSION);
}

static int outputs_write(struct clyde_job_outputs *o,
			 const struct clyde_tree_run *run,
			 const struct clyde_dist *dist)
{
	FILE *f = clyde_job_outputs_file(o, CLYDE_JOB_OUT_JSON);
	int ret = 0;

	if (f)
		ret |= clyde_job_outputs_commit(
			o, CLYDE_JOB_OUT_JSON,
			clyde_tree_json_write_more(
				f, run, CLYDE_VERSION,
				dist ? clyde_dist_json : NULL, dist));
	ret |= clyde_job_outputs_csv(o, clyde_tree_csv_header, csv_line, run);
	if (clyde_job_outputs_saving(o)) {
		size_t len = 0;
		char *doc = json_doc(run, &len, dist);

		/* As `clyde run`: a result that was not saved is a
		 * failure (exit 3), after everything else was written. */
		ret |= clyde_job_outputs_save(o, doc, len, "out of memory");
		free(doc);
	}
	return ret;
}

static bool any_phase_ran(const struct clyde_tree_run *run)
{
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++)
		if (run->phases[p].ran)
			return true;
	return false;
}

/* A run that failed (ret < 0): say why; returns the status. */
static int failed(struct tree_job *t, int ret,
		  const struct clyde_scratch *scratch,
		  const struct clyde_tree_run *run)
{
	struct clyde_job *j = &t->job;

	if (t->leader && t->a->phase_broken)
		t->a->phase_broken(j->ui->arg);
	if (j->rd.d)
		return clyde_job_dist_failed(j, ret);
	if (ret == -EINTR || clyde_job_interrupted(j)) {
		clyde_job_say(j, "interrupted%s%s",
			      scratch ? "; removing " : "",
			      scratch ? scratch->path : "");
		return CLYDE_JOB_INTERRUPTED;
	}
	clyde_job_say(j, "%s", clyde_errmsg(&j->ctx));
	return ret == -EINVAL && !any_phase_ran(run) ? CLYDE_JOB_USAGE :
						       CLYDE_JOB_FAILED;
}

/* Make the scratch directory (none for --existing): 0, or the status. */
static int make_scratch(struct tree_job *t, const char **dir,
			struct clyde_scratch **scratch)
{
	struct clyde_job *j = &t->job;
	struct clyde_dist *dist = j->rd.d;
	struct clyde_tree_config *cfg = t->a->cfg;

	if (cfg->existing)
		return 0;
	if ((dist ? clyde_run_dist_scratch(&j->rd, &j->ctx, *dir, dir,
					   &cfg->seed, scratch) :
		    clyde_scratch_create(&j->ctx, *dir, scratch)) < 0) {
		if (*clyde_errmsg(&j->ctx))
			clyde_job_say(j, "-d: %s", clyde_errmsg(&j->ctx));
		return CLYDE_JOB_USAGE;
	}
	if (t->leader || !dist->shared)
		clyde_job_note_stale(j, *scratch, *dir);
	/* --shared: one tree per rank, side by side. */
	if (dist && dist->shared)
		snprintf(cfg->tree_name, sizeof(cfg->tree_name), "tree.r%d",
			 dist->comm->rank);
	return 0;
}

/* The phases, on every rank together; returns the status. */
static int run_phases(struct tree_job *t, struct clyde_scratch *scratch,
		      struct clyde_job_outputs *outs,
		      struct clyde_tree_run *run)
{
	struct clyde_job *j = &t->job;
	struct clyde_dist *dist = j->rd.d;
	struct clyde_tree_hooks hooks = { .arg = t,
					  .before_phase = before_phase,
					  .after_phase = after_phase };
	int ret;

	if (dist)
		hooks.start_phase = start_phase;
	ret = clyde_tree_run(&j->ctx, t->a->cfg, scratch, &hooks, run);
	if (dist && ret < 0)
		clyde_run_dist_remove_early(&j->rd, &j->ctx, scratch);
	if (dist)
		ret = clyde_dist_end_tree(dist, ret, run, t->start_ns);
	if (ret < 0)
		return failed(t, ret, scratch, run);
	if (!t->leader)
		return CLYDE_JOB_OK;
	/* The text first, then the files, each whatever the other did. */
	ret = t->a->show ? t->a->show(j->ui->arg, run) : 0;
	if ((outputs_write(outs, run, dist) < 0) | (ret < 0))
		return CLYDE_JOB_FAILED;
	return CLYDE_JOB_OK;
}

int clyde_job_tree_run(const struct clyde_job_tree *a,
		       const struct clyde_job_ui *ui, struct clyde_dist *dist)
{
	struct tree_job t = { .a = a };
	struct clyde_job *j = &t.job;
	struct clyde_scratch *scratch = NULL;
	struct clyde_tree_run run;
	struct clyde_job_outputs outs;
	struct clyde_job_dest dest = {
		.path = { [CLYDE_JOB_OUT_JSON] = a->json,
			  [CLYDE_JOB_OUT_CSV] = a->csv },
		.db = a->db,
		.no_save = a->no_save,
	};
	const char *dir = a->dir;
	char err[1024];
	int status = CLYDE_JOB_OK;

	clyde_job_init(j, "clyde tree", ui, dist);
	memset(&run, 0, sizeof(run));
	memset(&outs, 0, sizeof(outs));
	t.leader = clyde_run_dist_leader(&j->rd);
	if (!a->seed_given)
		a->cfg->seed = clyde_job_seed();
	if (!t.leader) {
		/* Rank 0 alone writes --json and --csv and saves. */
		dest = (struct clyde_job_dest){ .no_save = true };
	}
	clyde_tree_raise_nofile();
	if (a->cfg->existing &&
	    clyde_tree_check_existing(a->cfg->existing, err, sizeof(err)) < 0) {
		clyde_job_say(j, "%s", err);
		status = CLYDE_JOB_USAGE;
	} else if (clyde_job_outputs_open(&outs, j, &dest) < 0) {
		status = CLYDE_JOB_USAGE;
	} else {
		status = make_scratch(&t, &dir, &scratch);
	}
	/* Every rank can run, or none does (each failing one said why). */
	status = clyde_run_dist_setup(&j->rd, status, NULL);
	if (status == CLYDE_JOB_OK)
		status = run_phases(&t, scratch, &outs, &run);
	clyde_job_outputs_abort(&outs);
	clyde_err_clear(&j->ctx);
	if (scratch && a->keep && status == CLYDE_JOB_OK) {
		clyde_job_say(j, "kept %s/tree", scratch->path);
		clyde_scratch_keep(scratch);
	} else if ((scratch || dist) &&
		   clyde_run_dist_remove(&j->rd, &j->ctx, scratch) < 0) {
		clyde_job_say(j, "%s", clyde_errmsg(&j->ctx));
		if (status == CLYDE_JOB_OK)
			status = CLYDE_JOB_FAILED;
	}
	clyde_tree_run_release(&run);
	status = clyde_job_finish(j, status);
	if (clyde_job_interrupted(j) && status == CLYDE_JOB_OK)
		status = CLYDE_JOB_INTERRUPTED;
	return status;
}
