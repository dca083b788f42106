/*
 * `clyde [bonnie++ options]` / `clyde run ...`: the bonnie++ suite.  Parses
 * the command line, prepares what bonnie++ prepares (size from RAM, seed,
 * privileges, the synchronisation of -y), makes the scratch directory,
 * hands the series (-x, --until-stable, --until-decided) to
 * clyde_exp_repeat() (exp/repeat.h) and renders each run.  The only place
 * (with main) that prints to the user or decides the exit status.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "env/advise.h"
#include "env/privs.h"
#include "cli/progress.h"
#include "core/outfile.h"
#include "dist/run_dist.h"
#include "dist/semsync.h"
#include "exp/repeat.h"
#include "io/engine.h"
#include "io/scratch.h"
#include "store/history.h"
#include "results/format.h"
#include "results/members_text.h"
#include "results/series_out.h"
#include "results/summary.h"
#include "workloads/bonnie.h"

/* What the progress lines say, as bonnie++ words them. */
static const char *const progress[CLYDE_TEST_COUNT] = {
	[CLYDE_PUTC] = "Writing a byte at a time",
	[CLYDE_PUT_BLOCK] = "Writing intelligently",
	[CLYDE_REWRITE] = "Rewriting",
	[CLYDE_GETC] = "Reading a byte at a time",
	[CLYDE_GET_BLOCK] = "Reading intelligently",
	[CLYDE_SEEKS] = "Seeking randomly",
	[CLYDE_SEQ_CREATE] = "Create files in sequential order",
	[CLYDE_SEQ_STAT] = "Stat files in sequential order",
	[CLYDE_SEQ_DEL] = "Delete files in sequential order",
	[CLYDE_RAN_CREATE] = "Create files in random order",
	[CLYDE_RAN_STAT] = "Stat files in random order",
	[CLYDE_RAN_DEL] = "Delete files in random order",
};

struct run_hooks {
	struct clyde_ctx *ctx;
	const struct clyde_bonnie_config *cfg;
	struct clyde_semsync sem;
	int show_progress;		     /* bonnie++'s "...done" lines */
	struct clyde_progress_display *live; /* the live line, or NULL */
	struct clyde_run_dist *rd;	     /* clyde-mpi's ranks, or none */
};

static int before_test(void *arg, enum clyde_test t)
{
	struct run_hooks *h = arg;

	/* clyde-mpi: every rank starts the test together, or all stop. */
	if (h->rd->d) {
		int all = clyde_dist_agree(h->rd->d, 0, NULL);

		if (all)
			return all < 0 ? all : CLYDE_DIST_PEER_FAILED;
		/* Another rank's failure stops this test too. */
		all = clyde_dist_watch(h->rd->d, &h->ctx->failed);
		if (all < 0)
			return all;
	}
	if (h->cfg->sync_mode == CLYDE_SYNC_SEM) {
		int ret = clyde_semsync_wait(h->ctx, &h->sem);

		if (ret < 0)
			return ret;
	} else if (h->cfg->sync_mode == CLYDE_SYNC_PROMPT) {
		char line[256];

		fprintf(stderr, "%s: press Enter to start\n", progress[t]);
		if (!fgets(line, sizeof(line), stdin) && ferror(stdin))
			return clyde_cli_interrupted() ? -EINTR : -EIO;
	}
	if (h->show_progress && !h->live) {
		fprintf(stderr, "%s...", progress[t]);
		fflush(stderr);
	}
	return 0;
}

static void after_test(void *arg, enum clyde_test t,
		       const struct clyde_test_result *r)
{
	struct run_hooks *h = arg;

	if (h->live)
		clyde_progress_erase(h->live);
	if (r->state == CLYDE_SKIPPED) {
		/* Shown even with -q: the table has a hole to explain. */
		fprintf(stderr, "clyde: %s %s\n", clyde_test_label(t), r->note);
		return;
	}
	if (h->show_progress)
		fprintf(stderr, h->live ? "%s...done\n" : "done\n",
			progress[t]);
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
static int json_dest_commit(struct clyde_outdest *d, const char *doc,
			    size_t len)
{
	bool atomic = clyde_outdest_atomic(d);
	int rc = clyde_outdest_commit(d, doc, len);

	if (rc == -EPIPE)
		fprintf(stderr, "clyde: --json: the output was closed "
				"(SIGPIPE)\n");
	else if (rc)
		fprintf(stderr, "clyde: --json: cannot write %s: %s%s\n",
			d->path, strerror(-rc),
			atomic ? " (the file was left as it was)" : "");
	return rc;
}

/*
 * The results history must be usable before the first test, so that a
 * long run does not end in "not saved" (clyde_history_check()).  Returns
 * 0, or -1 with the one-line message printed.
 */
static int check_history(const struct clyde_cli_extra *extra)
{
	const char *opt = extra->db_path ? "--db" : "the results history";
	struct clyde_ctx hctx;
	int rc;

	if (extra->no_save || !clyde_history_available())
		return 0;
	clyde_ctx_init(&hctx);
	rc = clyde_history_check(&hctx, extra->db_path);
	if (rc)
		fprintf(stderr, "clyde: %s: %s (give %s--db or --no-save)\n",
			opt, clyde_errmsg(&hctx), rc > 0 ? "" : "another ");
	clyde_ctx_release(&hctx);
	return rc ? -1 : 0;
}

/* Size the IO tests when -s was not given.  -r N keeps bonnie++'s rule
 * (twice the RAM, at least 300 MiB; -r 0 gives 300); without -r clyde
 * calibrates, since it evicts the file instead of outgrowing the RAM. */
static int choose_size(struct clyde_ctx *ctx, struct clyde_bonnie_config *cfg,
		       struct clyde_scratch *scratch)
{
	if (cfg->size_given)
		return 0;
	if (cfg->ram_mib >= 0) {
		cfg->file_size_mib = clyde_opts_auto_size_mib(cfg->ram_mib);
		return 0;
	}
	return clyde_bonnie_calibrate(ctx, cfg, scratch, &cfg->file_size_mib);
}

/* The table or CSV output that could not be written, and why. */
struct out_failure {
	FILE *f; /* NULL: none failed */
	int err;
};

/* What the hooks of the series (exp/repeat.h) need. */
struct series_cli {
	struct clyde_ctx *ctx;
	struct clyde_bonnie_config *cfg;
	struct clyde_scratch *scratch;
	uint64_t seed;
	const uint32_t *ext;
	size_t n_ext;
	const struct clyde_bonnie_hooks *hooks;
	const struct clyde_cli_extra *cli;
	FILE *out;
	bool series; /* -x or --until-stable: CSV lines, one summary */
	struct out_failure *failed; /* set when an output failed */
};

/* One run of the suite.  Every run starts from the same seed, as in
 * bonnie++. */
static int series_run(void *arg, unsigned i, struct clyde_run *run)
{
	struct series_cli *sc = arg;

	(void)i;
	return clyde_bonnie_run(sc->ctx, sc->cfg, sc->scratch, sc->seed,
				sc->ext, sc->n_ext, sc->hooks, run);
}

/* The errno of a failed write to f: standard output's writer keeps it
 * (cli_common.h); elsewhere errno, when it says anything. */
static int output_errno(FILE *f)
{
	int e = f == stdout ? clyde_cli_stdout_errno() : 0;

	return e ? e : errno ? errno : EIO;
}

/* What the advice weighs of a run: its data pattern (env/advise.h). */
static unsigned run_advise(const struct clyde_run *r)
{
	return !strcmp(r->params.pattern, "zeros") ? CLYDE_ADVISE_ZEROS : 0;
}

/*
 * A run is made: bonnie++'s table alone, or a CSV line of the series.
 * An output that cannot be written (a closed pipe, a full disk) loses
 * nothing measured: the series ends with the runs made so far, which
 * still go to --json and the history; the caller then says so
 * (say_output_failed) and exits non-zero.
 */
static int series_done(void *arg, const struct clyde_run *runs, unsigned i)
{
	struct series_cli *sc = arg;
	const struct clyde_run *r = &runs[i];
	FILE *f = sc->cfg->quiet ? stderr : sc->out;

	errno = 0;
	if (!sc->series &&
	    (clyde_text_write(f, r, CLYDE_VERSION) < 0 ||
	     clyde_text_extra_write(f, r, 1, NULL) < 0 ||
	     clyde_series_text_write(f, r) < 0 ||
	     clyde_members_text_write(f, r, 1, sc->cli->verbose) < 0 ||
	     (!sc->cli->no_advice &&
	      clyde_advice_section(f, &r->env.stack, run_advise(r)) < 0))) {
		*sc->failed = (struct out_failure){ f, output_errno(f) };
		return 1;
	}
	errno = 0;
	if (clyde_csv_write(sc->out, r, CLYDE_VERSION) < 0 ||
	    fflush(sc->out) != 0) {
		*sc->failed =
			(struct out_failure){ sc->out, output_errno(sc->out) };
		return 1;
	}
	return 0;
}

static void series_say(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "clyde: %s\n", msg);
}

/* The series: -x N runs, or runs until every test settles or is decided
 * (exp/repeat.h), then the statistics. */
static int run_series(struct series_cli *sc, struct clyde_repeat *rep,
		      struct clyde_run *runs, unsigned *done,
		      struct clyde_json_extra *extra, struct clyde_run_dist *rd)
{
	const struct clyde_bonnie_config *cfg = sc->cfg;
	bool leader = clyde_run_dist_leader(rd);
	struct clyde_repeat_out ro;
	int ret;

	*done = 0;
	if (leader &&
	    (cfg->runs > 1 || cfg->until_stable_pct > 0 ||
	     rep->until_decided_pct > 0) &&
	    clyde_csv_header(sc->out) < 0) {
		/* Before the first run: nothing is lost by stopping. */
		*sc->failed =
			(struct out_failure){ sc->out, output_errno(sc->out) };
		return -EIO;
	}
	rep->hooks = (struct clyde_repeat_hooks){ .arg = sc,
						  .run = series_run,
						  .done = series_done,
						  .say = series_say };
	ret = clyde_exp_repeat(sc->ctx, rep, runs, extra, &ro);
	*done = ro.done;
	if (ret < 0)
		return ret;
	if (leader && rep->until_decided_pct > 0) {
		if (!ro.ncompared)
			fprintf(stderr,
				"clyde: until-decided: no test of these runs "
				"has a value in the baseline %s\n",
				rep->baseline->name);
		else if (ro.decided)
			fprintf(stderr,
				"clyde: until-decided: every test decided "
				"against %s after %u run%s\n",
				rep->baseline->name, ro.done,
				ro.done == 1 ? "" : "s");
		else
			fprintf(stderr,
				"clyde: until-decided: %u of %u test%s still "
				"open after %u runs (-x %u)\n",
				ro.nopen, ro.ncompared,
				ro.ncompared == 1 ? "" : "s", ro.done,
				rep->cap);
	}
	if (leader && sc->series &&
	    (clyde_text_extra_write(stderr, runs, *done, extra) < 0 ||
	     clyde_members_text_write(stderr, runs, *done, sc->cli->verbose) <
		     0 ||
	     (!sc->cli->no_advice &&
	      clyde_advice_section(stderr, &runs[0].env.stack,
				   run_advise(&runs[0])) < 0)))
		return -EIO;
	return 0;
}

/*
 * Keep the series in the results history (unless --no-save).  A save that
 * fails (a full disk, a database damaged since check_history()) is a
 * failed run, exit status 3: what was printed and the --json file are
 * complete, but the run the user asked to keep is not kept.  Returns 0,
 * or -1 after printing one line.
 */
static int save_history(const struct clyde_cli_extra *extra, const char *doc,
			size_t len, int64_t *id)
{
	struct clyde_history_wait wait;
	struct clyde_ctx hctx;
	int ret = 0, rc;

	*id = 0;
	if (extra->no_save || !clyde_history_available())
		return 0;
	clyde_ctx_init(&hctx);
	clyde_cli_history_wait(&wait, "clyde");
	rc = clyde_history_save_waiting(&hctx, extra->db_path, &wait, doc, len,
					id);
	if (rc == -EBUSY) {
		ret = clyde_cli_history_spill("clyde", extra->db_path, doc, len,
					      wait.max_ms);
	} else if (rc < 0) {
		fprintf(stderr,
			"clyde: the results were not saved in the history: %s "
			"(--no-save skips it)\n",
			clyde_errmsg(&hctx));
		ret = -1;
	}
	clyde_ctx_release(&hctx);
	return ret;
}

/* Where the results of a run went: its --json file, its history id. */
struct kept {
	const char *json; /* NULL: not written */
	int64_t id;	  /* 0: not saved */
};

/* Say where the results are, for an end that was not clean: a user who
 * sees a failure must not run it again to keep them. */
static void say_kept(const struct kept *k)
{
	bool json = k->json && strcmp(k->json, "-");
	int64_t id = k->id;

	if (!json && !id) {
		fputs("clyde: the results were not kept (no --json file, "
		      "nothing saved in the history)\n",
		      stderr);
		return;
	}
	fputs("clyde: the results are kept", stderr);
	if (json)
		fprintf(stderr, " in %s", k->json);
	if (json && id)
		fputs(" and", stderr);
	if (id)
		fprintf(stderr, " in the history as run %lld", (long long)id);
	fputs(" (do not run it again to keep them)\n", stderr);
}

/*
 * The table or the CSV could not be written (o): after the runs were
 * measured, written to --json and saved, say which output failed and
 * where the results are (k; NULL: before the first run, nothing
 * measured).  Returns the exit status: 5 for a reader that went away
 * (SIGPIPE), 3 otherwise.
 */
static int say_output_failed(const struct out_failure *o, const struct kept *k)
{
	if (o->f == stdout)
		clyde_cli_stdout_failed("clyde", o->err);
	else
		fprintf(stderr, "clyde: standard error: write error: %s\n",
			strerror(o->err));
	if (k)
		say_kept(k);
	return o->err == EPIPE ? CLYDE_EXIT_INTERRUPTED :
				 CLYDE_EXIT_TEST_FAILED;
}

static int report_failure(struct clyde_ctx *ctx, int ret,
			  const struct clyde_scratch *scratch,
			  struct clyde_run_dist *rd)
{
	if (rd->d)
		return clyde_cli_run_dist_failed(rd, ctx, ret);
	if (clyde_cli_output_closed()) {
		fprintf(stderr,
			"clyde: the output was closed (SIGPIPE); removing %s\n",
			scratch->path);
		return CLYDE_EXIT_INTERRUPTED;
	}
	if (ret == -EINTR || clyde_cli_interrupted()) {
		fprintf(stderr, "clyde: interrupted; removing %s\n",
			scratch->path);
		return CLYDE_EXIT_INTERRUPTED;
	}
	if (ret == -EIO && !*clyde_errmsg(ctx))
		fprintf(stderr, "clyde: cannot write the results: %s\n",
			strerror(errno));
	else
		fprintf(stderr, "clyde: %s\n", clyde_errmsg(ctx));
	return CLYDE_EXIT_TEST_FAILED;
}

/* Release what the run holds; returns status. */
static int finish(struct clyde_ctx *ctx, struct clyde_outdest *jd,
		  uint32_t *ext, struct clyde_run_dist *rd,
		  struct clyde_repeat_baseline *base, int status)
{
	status = clyde_run_dist_finish(rd, ctx, status);
	clyde_repeat_baseline_release(base);
	clyde_outdest_abort(jd);
	free(ext);
	clyde_ctx_release(ctx);
	return status;
}

int clyde_cmd_run(int argc, char **argv)
{
	return clyde_cmd_run_dist(argc, argv, NULL);
}

int clyde_cmd_run_dist(int argc, char **argv, struct clyde_dist *dist)
{
	struct clyde_run_dist rdist = CLYDE_CLI_RUN_DIST(dist), *rd = &rdist;
	struct clyde_bonnie_config cfg;
	struct clyde_cli_extra extra = { 0 };
	struct clyde_json_extra jextra = { 0 };
	struct clyde_ctx ctx;
	struct clyde_scratch *scratch = NULL;
	struct clyde_progress_display live;
	struct run_hooks hk;
	struct clyde_bonnie_hooks hooks = { .arg = &hk,
					    .before_test = before_test,
					    .after_test = after_test };
	struct clyde_run *runs = NULL;
	struct clyde_repeat_baseline base = { .name = "" };
	struct clyde_outdest jd = { .fd = -1 };
	uint32_t *ext = NULL;
	long n_ext = 0;
	unsigned cap = 1, done = 0;
	uint64_t seed;
	struct kept kept = { NULL, 0 };
	struct out_failure out_failed = { NULL, 0 };
	char err[1024];
	FILE *out = stdout;
	bool drop;
	int status = CLYDE_EXIT_OK, ret = 0;

	switch (clyde_opts_parse(argc, argv, &cfg, &extra, err, sizeof(err))) {
	case CLYDE_OPTS_HELP:
		/* Standard output is checked at exit (main.c). */
		clyde_opts_help(stdout);
		return CLYDE_EXIT_OK;
	case CLYDE_OPTS_VERSION:
		printf("clyde %s\n", CLYDE_VERSION);
		return CLYDE_EXIT_OK;
	case CLYDE_OPTS_RUN:
		break;
	default:
		/* The same on every rank: rank 0 says it once. */
		if (clyde_run_dist_leader(rd))
			fprintf(stderr, "clyde: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	/* clyde-mpi and -y: the ranks (processes) agree at each test's
	 * start, and a wait of each one's own after that would start them
	 * apart.  Unless asked for, the devices are looked at once and not
	 * waited for. */
	if (!cfg.settle_given &&
	    clyde_cli_settle_env(&cfg.settle_ns, err, sizeof(err))) {
		if (clyde_run_dist_leader(rd))
			fprintf(stderr, "clyde: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if ((rd->d || cfg.sync_mode != CLYDE_SYNC_NONE) && !cfg.settle_given &&
	    !getenv("CLYDE_SETTLE"))
		cfg.settle_ns = 0;

	/* One deadline flag per test: clyde-mpi's stonewall or --runtime's
	 * end, not both. */
	if (dist && dist->stonewall_s > 0 && cfg.runtime_ns) {
		if (clyde_run_dist_leader(rd))
			fprintf(stderr,
				"clyde: --runtime and clyde-mpi --stonewall "
				"cannot be combined: --runtime runs the IO "
				"tests by time, --stonewall cuts every test at "
				"a deadline\n");
		return CLYDE_EXIT_USAGE;
	}
	clyde_ctx_init(&ctx);
	ctx.interrupted = clyde_cli_catch_signals();
	if (!clyde_run_dist_leader(rd)) {
		/* Rank 0 alone prints, writes --json and saves. */
		extra.json_path = NULL;
		extra.no_save = true;
		cfg.quiet = true;
	}
	if (dist) {
		/* Every rank's workers have their own data, seeds and file
		 * names, so that ranks in one --shared directory never
		 * collide. */
		cfg.worker_base = (unsigned)dist->comm->rank *
				  (cfg.concurrency ? cfg.concurrency : 1);
		/* --stonewall: the watchdog ends each test at the deadline. */
		dist->wall = &ctx.stonewall;
		/* run's own --stonewall under clyde-mpi is the job's: its
		 * watchdog keeps the deadline for every rank. */
		if (cfg.stonewall_ns && !(dist->stonewall_s > 0))
			dist->stonewall_s = (double)cfg.stonewall_ns / 1e9;
		cfg.stonewall_ns = 0;
		/* --shared: the file tests too create in one directory. */
		cfg.shared_files = dist->shared;
	}

	if (cfg.sync_procs) {
		/* -p N only prepares (or -p -1 removes) the semaphores. */
		ret = cfg.sync_procs < 0 ?
			      clyde_semsync_remove(&ctx) :
			      clyde_semsync_create(&ctx, cfg.sync_procs);
		if (ret < 0)
			fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		clyde_ctx_release(&ctx);
		return ret < 0 ? CLYDE_EXIT_USAGE : CLYDE_EXIT_OK;
	}
	if (cfg.drop_caches && (geteuid() != 0 || cfg.user || cfg.group)) {
		fprintf(stderr, "clyde: --drop-caches: only root can drop the "
				"kernel's caches (and not with -u or -g)\n");
		clyde_ctx_release(&ctx);
		return CLYDE_EXIT_USAGE;
	}

	if (cfg.random_file) {
		n_ext = clyde_bonnie_load_random(cfg.random_file, &ctx, &ext,
						 err, sizeof(err));
		if (n_ext == -EINTR) {
			fprintf(stderr,
				"clyde: -Z: interrupted while reading "
				"%s\n",
				cfg.random_file);
			return finish(&ctx, &jd, ext, rd, &base,
				      CLYDE_EXIT_INTERRUPTED);
		}
		if (n_ext <= 0) {
			fprintf(stderr, "clyde: %s\n", err);
			return finish(&ctx, &jd, ext, rd, &base,
				      CLYDE_EXIT_USAGE);
		}
	}
	seed = cfg.seed_given ? cfg.seed :
	       ext	      ? ext[0] :
		     ((uint64_t)time(NULL) ^ (uint64_t)getpid()) & 0xffffffffu;
	if (!cfg.seed_given) {
		cfg.seed = seed;
		cfg.seed_given = true;
	}

	/* The outputs, before the first test and before -u/-g. */
	drop = geteuid() == 0 && (cfg.user || cfg.group);
	if (extra.json_path) {
		clyde_cli_note_stale_tmp("clyde", extra.json_path);
		ret = clyde_outdest_open(&jd, extra.json_path, drop);
		if (ret < 0) {
			fprintf(stderr, "clyde: --json: cannot write %s: %s\n",
				extra.json_path, strerror(-ret));
			return finish(&ctx, &jd, ext, rd, &base,
				      CLYDE_EXIT_USAGE);
		}
		/* --json -: standard output is the JSON's alone. */
		if (!strcmp(extra.json_path, "-"))
			out = stderr;
	}
	/* --baseline: read before the first test (rank 0 decides). */
	if (extra.baseline && clyde_run_dist_leader(rd) &&
	    clyde_repeat_baseline_load(&ctx, extra.baseline, extra.db_path,
				       &base) < 0) {
		fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		return finish(&ctx, &jd, ext, rd, &base, CLYDE_EXIT_USAGE);
	}

	if (clyde_drop_privileges(cfg.user, cfg.group, err, sizeof(err)) < 0) {
		fprintf(stderr, "clyde: %s\n", err);
		return finish(&ctx, &jd, ext, rd, &base, CLYDE_EXIT_USAGE);
	}
	/* The history is written at the end as the user the tests ran as
	 * (-u/-g): checked as that user, so that a history only root may
	 * write is refused now, not after the whole run. */
	if (check_history(&extra) < 0)
		return finish(&ctx, &jd, ext, rd, &base, CLYDE_EXIT_USAGE);
	/* --engine: one instance now says whether the engine can run here
	 * (built in, permitted, a ring of --iodepth entries), before the
	 * scratch directory is made. */
	if (clyde_engine_check(cfg.engine, cfg.iodepth, err, sizeof(err)) < 0) {
		fprintf(stderr, "clyde: %s\n", err);
		return finish(&ctx, &jd, ext, rd, &base, CLYDE_EXIT_USAGE);
	}

	memset(&hk, 0, sizeof(hk));
	hk.ctx = &ctx;
	hk.cfg = &cfg;
	hk.show_progress = !cfg.quiet && cfg.runs == 0;
	hk.rd = rd;
	if (cfg.sync_mode == CLYDE_SYNC_SEM &&
	    clyde_semsync_open(&ctx, &hk.sem) < 0) {
		fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		return finish(&ctx, &jd, ext, rd, &base, CLYDE_EXIT_USAGE);
	}

	if ((dist ? clyde_run_dist_scratch(rd, &ctx, cfg.dir, &cfg.dir, &seed,
					   &scratch) :
		    clyde_scratch_create(&ctx, cfg.dir, &scratch)) < 0) {
		if (*clyde_errmsg(&ctx))
			fprintf(stderr, "clyde: -d: %s\n", clyde_errmsg(&ctx));
		if (dist && scratch) {
			status = CLYDE_EXIT_USAGE;
			goto out;
		}
		return finish(&ctx, &jd, ext, rd, &base, CLYDE_EXIT_USAGE);
	}
	if (clyde_run_dist_leader(rd) || !rd->d->shared)
		clyde_cli_note_stale(scratch, cfg.dir);
	cfg.seed = seed; /* under clyde-mpi, rank 0's */
	ret = choose_size(&ctx, &cfg, scratch);
	if (ret < 0) {
		status =
			ret == -EINTR && dist ? CLYDE_EXIT_INTERRUPTED :
			ret == -EINTR ? report_failure(&ctx, ret, scratch, rd) :
					CLYDE_EXIT_USAGE;
		if (ret != -EINTR)
			fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		goto out;
	}
	if (clyde_bonnie_check_space(&cfg, scratch, err, sizeof(err)) < 0) {
		fprintf(stderr, "clyde: %s\n", err);
		status = CLYDE_EXIT_USAGE;
		goto out;
	}
	status = clyde_run_dist_setup(rd, 0, &cfg.file_size_mib);
	if (status)
		goto out;
	if (dist && clyde_run_dist_leader(rd)) {
		jextra.more = clyde_dist_json;
		jextra.more_arg = dist;
	}

	if (cfg.until_stable_pct > 0)
		cap = cfg.max_runs;
	else if (cfg.runs)
		cap = cfg.runs;
	runs = calloc(cap, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "clyde: out of memory\n");
		status = CLYDE_EXIT_TEST_FAILED;
		goto out;
	}
	if (!cfg.quiet && isatty(STDERR_FILENO) &&
	    clyde_progress_start(&live, &ctx) == 0) {
		hk.live = &live;
		hooks.progress = &live.state;
	}
	{
		struct series_cli sc = {
			.ctx = &ctx,
			.cfg = &cfg,
			.scratch = scratch,
			.seed = seed,
			.ext = ext,
			.n_ext = (size_t)n_ext,
			.hooks = &hooks,
			.cli = &extra,
			.out = out,
			.series = cfg.runs > 0 || cfg.until_stable_pct > 0,
			.failed = &out_failed,
		};
		struct clyde_repeat rep = {
			.cap = cap,
			.until_stable_pct = cfg.until_stable_pct,
			.until_decided_pct = extra.until_decided_pct,
			.baseline = extra.baseline ? &base : NULL,
			.rd = rd,
			.scratch = scratch,
		};

		ret = run_series(&sc, &rep, runs, &done, &jextra, rd);
	}
	if (hk.live)
		clyde_progress_stop(hk.live);
	if (ret < 0) {
		if (hk.show_progress && !hk.live)
			fputc('\n', stderr);
		status = out_failed.f ? say_output_failed(&out_failed, NULL) :
					report_failure(&ctx, ret, scratch, rd);
	} else {
		char *doc = NULL;
		size_t len = 0;

		if (render_json(runs, done, &jextra, &doc, &len) < 0) {
			fprintf(stderr,
				"clyde: cannot make the JSON document\n");
			status = CLYDE_EXIT_TEST_FAILED;
		} else {
			if (jd.open) {
				if (json_dest_commit(&jd, doc, len) == 0)
					kept.json = extra.json_path;
				else
					status =
						clyde_cli_output_closed() ?
							CLYDE_EXIT_INTERRUPTED :
							CLYDE_EXIT_TEST_FAILED;
			}
			if (save_history(&extra, doc, len, &kept.id) < 0 &&
			    status == CLYDE_EXIT_OK)
				status = CLYDE_EXIT_TEST_FAILED;
			free(doc);
			/* For tests (e2e/t_interrupt): a SIGINT once the
			 * results are kept, a point no timing reaches. */
			if (getenv("CLYDE_TEST_SIGINT_KEPT"))
				raise(SIGINT);
			/* The table or CSV failed: said now that the
			 * results are written (series_done). */
			if (out_failed.f) {
				int st = say_output_failed(&out_failed, &kept);

				if (status == CLYDE_EXIT_OK)
					status = st;
			}
		}
	}
out:
	status = clyde_run_dist_setup(rd, status, NULL);
	clyde_err_clear(&ctx);
	if (clyde_run_dist_remove(rd, &ctx, scratch) < 0) {
		fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		if (status == CLYDE_EXIT_OK)
			status = CLYDE_EXIT_TEST_FAILED;
	}
	if (runs)
		for (unsigned i = 0; i < cap; i++)
			clyde_run_release(&runs[i]);
	free(runs);
	if (clyde_cli_interrupted() && status == CLYDE_EXIT_OK) {
		/* The signal came after the last test, the results written
		 * and saved: a script must not run it again to keep them. */
		if (clyde_run_dist_leader(rd)) {
			fputs("clyde: interrupted after the run was complete\n",
			      stderr);
			say_kept(&kept);
		}
		status = CLYDE_EXIT_INTERRUPTED;
	}
	return finish(&ctx, &jd, ext, rd, &base, status);
}
