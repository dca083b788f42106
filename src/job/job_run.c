/*
 * `clyde run` after the command line (job_run.h): prepares what bonnie++
 * prepares (seed, privileges, the synchronisation of -y), makes the
 * scratch directory, hands the series (-x, --until-stable,
 * --until-decided) to clyde_exp_repeat() (exp/repeat.h) and each run to
 * the command to render (job_run_series.c), writes --json and saves in
 * the history.  One way
 * out: whatever stops it, the end (the set-up agreement, the removal, the
 * clyde-mpi finish, the release) runs once, in finish().
 */
#include "job/job_run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/outfile.h"
#include "dist/semsync.h"
#include "env/privs.h"
#include "exp/repeat.h"
#include "io/engine.h"
#include "io/scratch.h"
#include "job/job_run_internal.h"
#include "store/history.h"

/* The state of one job: job_run_internal.h. */

/* A test starts: clyde-mpi's ranks together, -y's semaphore, then the
 * command's prompt and progress. */
static int before_test(void *arg, enum clyde_test t)
{
	struct run_job *r = arg;
	struct clyde_job *j = &r->job;

	/* clyde-mpi: every rank starts the test together, or all stop. */
	if (j->rd.d) {
		int all = clyde_dist_agree(j->rd.d, 0, NULL);

		if (all)
			return all < 0 ? all : CLYDE_DIST_PEER_FAILED;
		/* Another rank's failure stops this test too. */
		all = clyde_dist_watch(j->rd.d, &j->ctx.failed);
		if (all < 0)
			return all;
	}
	if (r->cfg->sync_mode == CLYDE_SYNC_SEM) {
		int ret = clyde_semsync_wait(&j->ctx, &r->sem);

		if (ret < 0)
			return ret;
	}
	return r->a->test_begin ? r->a->test_begin(j->ui->arg, t) : 0;
}

/* The last test ended here: under clyde-mpi the ranks meet, so that it
 * has ended everywhere (bonnie.h: server_late). */
static int tests_ended(void *arg)
{
	struct run_job *r = arg;
	int all;

	if (!r->job.rd.d)
		return 0;
	all = clyde_dist_agree(r->job.rd.d, 0, NULL);
	return all ? (all < 0 ? all : CLYDE_DIST_PEER_FAILED) : 0;
}

static void after_test(void *arg, enum clyde_test t,
		       const struct clyde_test_result *res)
{
	struct run_job *r = arg;

	if (r->a->test_end)
		r->a->test_end(r->job.ui->arg, t, res);
}

/* The series as one JSON document in memory: the same bytes go to
 * --json and to the history.  Returns 0 (free *doc) or -errno. */
static int render_json(const struct clyde_run *runs, unsigned n,
		       const struct clyde_json_extra *extra, char **doc,
		       size_t *len)
{
	FILE *mem = open_memstream(doc, len);
	int ret;

	if (!mem)
		return -errno;
	ret = clyde_json_write(mem, runs, n, extra, CLYDE_VERSION);
	if (fclose(mem) != 0 && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*doc);
		*doc = NULL;
	}
	return ret;
}

/* Write the --json document; a failure is said (the old content kept when
 * it could be).  Returns 0 or -errno. */
static int json_dest_commit(struct run_job *r, const char *doc, size_t len)
{
	struct clyde_outdest *d = &r->jd;
	bool atomic = clyde_outdest_atomic(d);
	int rc = clyde_outdest_commit(d, doc, len);

	if (rc == -EPIPE)
		clyde_job_say(&r->job, "--json: the output was closed "
				       "(SIGPIPE)");
	else if (rc)
		clyde_job_say(&r->job, "--json: cannot write %s: %s%s", d->path,
			      strerror(-rc),
			      atomic ? " (the file was left as it was)" : "");
	return rc;
}

/*
 * The results history must be usable before the first test, so that a
 * long run does not end in "not saved" (clyde_history_check()).  Returns
 * 0, or -1 with the one-line message said.
 */
static int check_history(struct run_job *r)
{
	const struct clyde_job_run *a = r->a;
	const char *opt = a->db_path ? "--db" : "the results history";
	struct clyde_ctx hctx;
	int rc;

	if (a->no_save || !r->leader || !clyde_history_available())
		return 0;
	clyde_ctx_init(&hctx);
	rc = clyde_history_check(&hctx, a->db_path);
	if (rc)
		clyde_job_say(&r->job, "%s: %s (give %s--db or --no-save)", opt,
			      clyde_errmsg(&hctx), rc > 0 ? "" : "another ");
	clyde_ctx_release(&hctx);
	return rc ? -1 : 0;
}

/*
 * Keep the series in the results history (unless --no-save).  A save that
 * fails (a full disk, a database damaged since check_history()) is a
 * failed run, exit status 3: what was printed and the --json file are
 * complete, but the run the user asked to keep is not kept.  Returns 0,
 * or -1 after saying one line.
 */
static int save_history(struct run_job *r, const char *doc, size_t len)
{
	const struct clyde_job_run *a = r->a;
	struct clyde_history_wait wait;
	struct clyde_ctx hctx;
	int ret = 0, rc;

	r->kept.id = 0;
	if (a->no_save || !r->leader || !clyde_history_available())
		return 0;
	clyde_ctx_init(&hctx);
	clyde_job_history_wait(&r->job, &wait);
	rc = clyde_history_save_waiting(&hctx, a->db_path, &wait, doc, len,
					&r->kept.id);
	if (rc == -EBUSY) {
		ret = clyde_job_history_spill(&r->job, a->db_path, doc, len,
					      wait.max_ms);
	} else if (rc < 0) {
		clyde_job_say(&r->job,
			      "the results were not saved in the history: %s "
			      "(--no-save skips it)",
			      clyde_errmsg(&hctx));
		ret = -1;
	}
	clyde_ctx_release(&hctx);
	return ret;
}

/* Say where the results are, for an end that was not clean: a user who
 * sees a failure must not run it again to keep them. */
static void say_kept(const struct run_job *r)
{
	const struct kept *k = &r->kept;
	bool json = k->json && strcmp(k->json, "-");
	char line[8192];
	size_t n;

	if (!json && !k->id) {
		clyde_job_say(&r->job, "the results were not kept (no --json "
				       "file, nothing saved in the history)");
		return;
	}
	snprintf(line, sizeof(line), "the results are kept%s%s%s",
		 json ? " in " : "", json ? k->json : "",
		 json && k->id ? " and" : "");
	n = strlen(line);
	if (k->id)
		snprintf(line + n, sizeof(line) - n,
			 " in the history as run %lld", (long long)k->id);
	clyde_job_say(&r->job, "%s (do not run it again to keep them)", line);
}

/* A run that failed (ret): say why; returns the status. */
static int report_failure(struct run_job *r, int ret)
{
	struct clyde_job *j = &r->job;

	if (j->rd.d)
		return clyde_job_dist_failed(j, ret);
	if (clyde_job_closed(j)) {
		clyde_job_say(j, "the output was closed (SIGPIPE); removing %s",
			      r->scratch->path);
		return CLYDE_JOB_INTERRUPTED;
	}
	if (ret == -EINTR || clyde_job_interrupted(j)) {
		clyde_job_say(j, "interrupted; removing %s", r->scratch->path);
		return CLYDE_JOB_INTERRUPTED;
	}
	if (ret == -EIO && !*clyde_errmsg(&j->ctx))
		clyde_job_say(j, "cannot write the results: %s",
			      strerror(errno));
	else
		clyde_job_say(j, "%s", clyde_errmsg(&j->ctx));
	return CLYDE_JOB_FAILED;
}

/* The job-wide number of rank `rank`'s first worker (each rank has
 * cfg's workers). */
static unsigned first_worker(const struct clyde_bonnie_config *cfg, int rank)
{
	return (unsigned)rank * (cfg->concurrency ? cfg->concurrency : 1);
}

/* clyde-mpi: each rank's workers, deadline and files; a rank other than
 * 0 neither prints nor writes nor saves. */
static void ranks(struct run_job *r, struct clyde_dist *dist)
{
	struct clyde_bonnie_config *cfg = r->cfg;

	if (!dist)
		return;
	/* Every rank's workers have their own data, seeds and file names,
	 * so that ranks in one --shared directory never collide. */
	cfg->worker_base = first_worker(cfg, dist->comm->rank);
	/* --stonewall: the watchdog ends each test at the deadline. */
	dist->wall = &r->job.ctx.stonewall;
	/* run's own --stonewall under clyde-mpi is the job's: its
	 * watchdog keeps the deadline for every rank. */
	if (cfg->stonewall_ns && !(dist->stonewall_s > 0))
		dist->stonewall_s = (double)cfg->stonewall_ns / 1e9;
	cfg->stonewall_ns = 0;
	/* --shared: the file tests too create in one directory. */
	cfg->shared_files = dist->shared;
	/* Rank 0 keeps the server's side for all: read once all ended. */
	cfg->server_late = dist->comm->rank == 0;
	dist->reads_other = clyde_bonnie_reads_other;
}

/* clyde-mpi --read-shift: the read-side tests take the other rank's
 * files (bonnie.h: read_path), and rank 0 says so once. */
static void read_shift(struct run_job *r)
{
	struct clyde_bonnie_config *cfg = r->cfg;
	struct clyde_run_dist *rd = &r->job.rd;
	long n = rd->d->read_shift;
	int size = rd->d->comm->size;

	if (n < 0)
		return;
	if (rd->read_path[0]) {
		cfg->read_path = rd->read_path;
		cfg->read_base = first_worker(cfg, rd->read_rank);
	}
	if (!r->leader)
		return;
	if (n % size)
		clyde_job_say(&r->job,
			      "--read-shift %ld: the per-char read, block read "
			      "and seeks of rank r read the files rank (r + "
			      "%ld) mod %d wrote (rank 0 those of rank %d, in "
			      "%s)",
			      n, n % size, size, rd->read_rank, rd->read_path);
	else
		clyde_job_say(&r->job,
			      "--read-shift %ld: a multiple of the %d ranks: "
			      "every rank reads the files it wrote itself",
			      n, size);
}

/* -Z's random numbers and the seed: 0 or the status. */
static int seed(struct run_job *r)
{
	struct clyde_bonnie_config *cfg = r->cfg;
	char err[1024];

	if (cfg->random_file) {
		r->n_ext = clyde_bonnie_load_random(cfg->random_file,
						    &r->job.ctx, &r->ext, err,
						    sizeof(err));
		if (r->n_ext == -EINTR) {
			clyde_job_say(&r->job,
				      "-Z: interrupted while reading %s",
				      cfg->random_file);
			return CLYDE_JOB_INTERRUPTED;
		}
		if (r->n_ext <= 0) {
			clyde_job_say(&r->job, "%s", err);
			return CLYDE_JOB_USAGE;
		}
	}
	r->seed = cfg->seed_given ? cfg->seed :
		  r->ext	  ? r->ext[0] :
				    clyde_job_seed();
	if (!cfg->seed_given) {
		cfg->seed = r->seed;
		cfg->seed_given = true;
	}
	return 0;
}

/*
 * Everything that can be refused before the scratch directory: -p's
 * semaphores (r->stop), --drop-caches, -Z and the seed, --json (before
 * -u/-g), --baseline, the privileges, the history, the engine, -y's
 * semaphores.  Returns 0 or the status.
 */
static int prepare(struct run_job *r)
{
	const struct clyde_job_run *a = r->a;
	struct clyde_bonnie_config *cfg = r->cfg;
	struct clyde_job *j = &r->job;
	char err[1024];
	bool drop;
	int ret;

	if (cfg->sync_procs) {
		/* -p N only prepares (or -p -1 removes) the semaphores. */
		r->stop = true;
		ret = cfg->sync_procs < 0 ?
			      clyde_semsync_remove(&j->ctx) :
			      clyde_semsync_create(&j->ctx, cfg->sync_procs);
		if (ret < 0)
			clyde_job_say(j, "%s", clyde_errmsg(&j->ctx));
		return ret < 0 ? CLYDE_JOB_USAGE : CLYDE_JOB_OK;
	}
	if (cfg->drop_caches && (geteuid() != 0 || cfg->user || cfg->group)) {
		clyde_job_say(j, "--drop-caches: only root can drop the "
				 "kernel's caches (and not with -u or -g)");
		return CLYDE_JOB_USAGE;
	}
	ret = seed(r);
	if (ret)
		return ret;
	/* The outputs, before the first test and before -u/-g. */
	drop = geteuid() == 0 && (cfg->user || cfg->group);
	if (a->json_path && r->leader) {
		clyde_job_note_stale_tmp(j, j->who, a->json_path);
		ret = clyde_outdest_open(&r->jd, a->json_path, drop);
		if (ret < 0) {
			clyde_job_say(j, "--json: cannot write %s: %s",
				      a->json_path, strerror(-ret));
			return CLYDE_JOB_USAGE;
		}
	}
	/* --baseline: read before the first test (rank 0 decides). */
	if (a->baseline && r->leader &&
	    clyde_repeat_baseline_load(&j->ctx, a->baseline, a->db_path,
				       &r->base) < 0) {
		clyde_job_say(j, "%s", clyde_errmsg(&j->ctx));
		return CLYDE_JOB_USAGE;
	}
	if (clyde_drop_privileges(cfg->user, cfg->group, err, sizeof(err)) <
	    0) {
		clyde_job_say(j, "%s", err);
		return CLYDE_JOB_USAGE;
	}
	/* The history is written at the end as the user the tests ran as
	 * (-u/-g): checked as that user, so that a history only root may
	 * write is refused now, not after the whole run. */
	if (check_history(r) < 0)
		return CLYDE_JOB_USAGE;
	/* --engine: one instance now says whether the engine can run here
	 * (built in, permitted, a ring of --iodepth entries), before the
	 * scratch directory is made. */
	if (clyde_engine_check(cfg->engine, cfg->iodepth, err, sizeof(err)) <
	    0) {
		clyde_job_say(j, "%s", err);
		return CLYDE_JOB_USAGE;
	}
	if (cfg->sync_mode == CLYDE_SYNC_SEM &&
	    clyde_semsync_open(&j->ctx, &r->sem) < 0) {
		clyde_job_say(j, "%s", clyde_errmsg(&j->ctx));
		return CLYDE_JOB_USAGE;
	}
	return 0;
}

/* The scratch directory, the size, the space: 0 or the status. */
static int make_scratch(struct run_job *r)
{
	struct clyde_bonnie_config *cfg = r->cfg;
	struct clyde_job *j = &r->job;
	struct clyde_dist *dist = j->rd.d;
	char err[1024];
	int ret;

	if ((dist ? clyde_run_dist_scratch(&j->rd, &j->ctx, cfg->dir, &cfg->dir,
					   &r->seed, &r->scratch) :
		    clyde_scratch_create(&j->ctx, cfg->dir, &r->scratch)) < 0) {
		if (*clyde_errmsg(&j->ctx))
			clyde_job_say(j, "-d: %s", clyde_errmsg(&j->ctx));
		return CLYDE_JOB_USAGE;
	}
	if (r->leader || !dist->shared)
		clyde_job_note_stale(j, r->scratch, cfg->dir);
	if (dist)
		read_shift(r);
	cfg->seed = r->seed; /* under clyde-mpi, rank 0's */
	/* Without -s and -r clyde calibrates the size (-r N: the command
	 * applied bonnie++'s rule), since it evicts the file instead of
	 * outgrowing the RAM. */
	ret = cfg->size_given || cfg->ram_mib >= 0 ?
		      0 :
		      clyde_bonnie_calibrate(&j->ctx, cfg, r->scratch,
					     &cfg->file_size_mib);
	if (ret == -EINTR)
		return dist ? CLYDE_JOB_INTERRUPTED : report_failure(r, ret);
	if (ret < 0) {
		clyde_job_say(j, "%s", clyde_errmsg(&j->ctx));
		return CLYDE_JOB_USAGE;
	}
	if (clyde_bonnie_check_space(cfg, r->scratch, err, sizeof(err)) < 0) {
		clyde_job_say(j, "%s", err);
		return CLYDE_JOB_USAGE;
	}
	return 0;
}

/* The runs are made: --json, the history, a failed output said.
 * Returns the status. */
static int keep_results(struct run_job *r)
{
	void *ui = r->job.ui->arg;
	int status = CLYDE_JOB_OK, st;
	char *doc = NULL;
	size_t len = 0;

	if (render_json(r->runs, r->done, &r->jextra, &doc, &len) < 0) {
		clyde_job_say(&r->job, "cannot make the JSON document");
		return CLYDE_JOB_FAILED;
	}
	if (r->jd.open) {
		if (json_dest_commit(r, doc, len) == 0)
			r->kept.json = r->a->json_path;
		else
			status = clyde_job_closed(&r->job) ?
					 CLYDE_JOB_INTERRUPTED :
					 CLYDE_JOB_FAILED;
	}
	if (save_history(r, doc, len) < 0 && status == CLYDE_JOB_OK)
		status = CLYDE_JOB_FAILED;
	free(doc);
	/* For tests (e2e/t_interrupt): a SIGINT once the results are
	 * kept, a point no timing reaches. */
	if (getenv("CLYDE_TEST_SIGINT_KEPT"))
		raise(SIGINT);
	/* The table or CSV failed: said now that the results are written
	 * (run_done). */
	st = r->a->output_failed ? r->a->output_failed(ui) : 0;
	if (st) {
		say_kept(r);
		if (status == CLYDE_JOB_OK)
			status = st;
	}
	return status;
}

/* The series, from the progress to the kept results: the status. */
static int run_all(struct run_job *r)
{
	const struct clyde_job_run *a = r->a;
	const struct clyde_bonnie_config *cfg = r->cfg;
	void *ui = r->job.ui->arg;
	int ret, st;

	if (r->job.rd.d && r->leader) {
		r->jextra.more = clyde_dist_json;
		r->jextra.more_arg = r->job.rd.d;
	}
	r->cap = cfg->until_stable_pct > 0 ? cfg->max_runs :
		 cfg->runs		   ? cfg->runs :
					     1;
	r->runs = calloc(r->cap, sizeof(*r->runs));
	if (!r->runs) {
		clyde_job_say(&r->job, "out of memory");
		return CLYDE_JOB_FAILED;
	}
	r->ran = true;
	r->hooks = (struct clyde_bonnie_hooks){ .arg = r,
						.before_test = before_test,
						.after_test = after_test,
						.tests_ended = tests_ended };
	if (!cfg->quiet && a->progress_start)
		r->hooks.progress = a->progress_start(ui, &r->job.ctx);
	ret = clyde_job_run_series(r);
	if (r->hooks.progress && a->progress_stop)
		a->progress_stop(ui);
	if (ret >= 0)
		return keep_results(r);
	if (a->broken)
		a->broken(ui);
	st = a->output_failed ? a->output_failed(ui) : 0;
	return st ? st : report_failure(r, ret);
}

/* The one way out: the set-up agreement when it was not reached, the
 * scratch directory removed, everything released.  Returns the status. */
static int finish(struct run_job *r, int status)
{
	struct clyde_job *j = &r->job;

	status = clyde_run_dist_setup(&j->rd, status, NULL);
	clyde_err_clear(&j->ctx);
	if ((r->scratch || j->rd.d) &&
	    clyde_run_dist_remove(&j->rd, &j->ctx, r->scratch) < 0) {
		clyde_job_say(j, "%s", clyde_errmsg(&j->ctx));
		if (status == CLYDE_JOB_OK)
			status = CLYDE_JOB_FAILED;
	}
	if (r->runs)
		for (unsigned i = 0; i < r->cap; i++)
			clyde_run_release(&r->runs[i]);
	free(r->runs);
	if (r->ran && clyde_job_interrupted(j) && status == CLYDE_JOB_OK) {
		/* The signal came after the last test, the results written
		 * and saved: a script must not run it again to keep them. */
		if (r->leader) {
			clyde_job_say(j, "interrupted after the run was "
					 "complete");
			say_kept(r);
		}
		status = CLYDE_JOB_INTERRUPTED;
	}
	status = clyde_job_finish(j, status);
	clyde_repeat_baseline_release(&r->base);
	clyde_outdest_abort(&r->jd);
	free(r->ext);
	return status;
}

int clyde_job_run_bonnie(const struct clyde_job_run *a,
			 const struct clyde_job_ui *ui, struct clyde_dist *dist)
{
	struct run_job r = { .a = a,
			     .cfg = a->cfg,
			     .jd = { .fd = -1 },
			     .base = { .name = "" } };
	int status;

	clyde_job_init(&r.job, "clyde", ui, dist);
	r.leader = clyde_run_dist_leader(&r.job.rd);
	if (!r.leader)
		/* Rank 0 alone prints, writes --json and saves. */
		r.cfg->quiet = true;
	ranks(&r, dist);
	status = prepare(&r);
	if (!status && !r.stop)
		status = make_scratch(&r);
	if (!status && !r.stop)
		status = clyde_run_dist_setup(&r.job.rd, 0,
					      &r.cfg->file_size_mib);
	if (!status && !r.stop)
		status = run_all(&r);
	return finish(&r, status);
}
