/*
 * `clyde [bonnie++ options]` / `clyde run ...`: the bonnie++ suite.  Parses
 * the command line, prepares what bonnie++ prepares (size from RAM, seed,
 * privileges, the synchronisation of -y), makes the scratch directory, runs
 * the suite -x times and renders each run.  The only place (with main) that
 * prints to the user or decides the exit status.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/privs.h"
#include "cli/progress.h"
#include "dist/semsync.h"
#include "io/scratch.h"
#include "report/history.h"
#include "results/format.h"
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
};

static int before_test(void *arg, enum clyde_test t)
{
	struct run_hooks *h = arg;

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
		fprintf(stderr, "clyde: %s %s\n", clyde_bonnie_test_label(t),
			r->note);
		return;
	}
	if (h->show_progress)
		fprintf(stderr, h->live ? "%s...done\n" : "done\n",
			progress[t]);
}

/* -Z: the file's contents as 32-bit integers.  Returns the count, or 0
 * with a message in err. */
static size_t load_random_file(const char *path, uint32_t **out, char *err,
			       size_t errlen)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, n = 0;
	uint32_t *v = NULL;

	*out = NULL;
	if (!f) {
		snprintf(err, errlen, "-Z: cannot open %s: %s", path,
			 strerror(errno));
		return 0;
	}
	for (;;) {
		if (n == cap) {
			uint32_t *nv;

			cap = cap ? cap * 2 : 4096;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (fread(&v[n], sizeof(*v), 1, f) != 1)
			break;
		n++;
	}
	if (ferror(f) || n == 0) {
		snprintf(err, errlen,
			 "-Z: %s holds no random numbers (4-byte integers, "
			 "as generate_randfile writes)",
			 path);
		free(v);
		v = NULL;
		n = 0;
	}
	fclose(f);
	*out = v;
	return n;
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

static int write_json(const char *path, const char *doc, size_t len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int ret = 0;

	if (!f) {
		fprintf(stderr, "clyde: --json: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (fwrite(doc, 1, len, f) != len || fflush(f) != 0)
		ret = -errno;
	if (f != stdout && fclose(f) != 0 && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "clyde: --json: cannot write %s: %s\n", path,
			strerror(-ret));
	return ret;
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

/* The series: -x N runs, or runs until every test settles. */
static int run_series(struct clyde_ctx *ctx, struct clyde_bonnie_config *cfg,
		      struct clyde_scratch *scratch, uint64_t seed,
		      const uint32_t *ext, size_t n_ext,
		      const struct clyde_bonnie_hooks *hooks,
		      struct clyde_run *runs, unsigned cap, unsigned *done,
		      struct clyde_json_extra *extra)
{
	bool series = cfg->runs > 0 || cfg->until_stable_pct > 0;
	struct clyde_summary sum[CLYDE_TEST_COUNT];
	int ret = 0;

	*done = 0;
	if ((cfg->runs > 1 || cfg->until_stable_pct > 0) &&
	    clyde_csv_header(stdout) < 0)
		return -EIO;
	for (unsigned i = 0; i < cap; i++) {
		clyde_run_init(&runs[i]);
		/* Every run starts from the same seed, as in bonnie++. */
		ret = clyde_bonnie_run(ctx, cfg, scratch, seed, ext, n_ext,
				       hooks, &runs[i]);
		if (ret < 0)
			return ret;
		*done = i + 1;
		if (!series &&
		    (clyde_text_write(cfg->quiet ? stderr : stdout, &runs[i],
				      CLYDE_VERSION) < 0 ||
		     clyde_text_extra_write(cfg->quiet ? stderr : stdout,
					    &runs[i], 1, NULL) < 0))
			return -EIO;
		if (clyde_csv_write(stdout, &runs[i], CLYDE_VERSION) < 0)
			return -EIO;
		fflush(stdout);
		/* Three runs at least: two give an interval too wide to
		 * trust (Student's t for one degree of freedom is 12.7). */
		if (cfg->until_stable_pct > 0 && i + 1 >= 3 &&
		    clyde_summary_compute(runs, i + 1, cfg->until_stable_pct,
					  sum) > 0 &&
		    clyde_summary_all_settled(sum))
			break;
	}
	extra->target_pct = cfg->until_stable_pct;
	extra->max_runs = cap;
	extra->runs_done = *done;
	if (cfg->until_stable_pct > 0 &&
	    clyde_summary_compute(runs, *done, cfg->until_stable_pct, sum) >= 0)
		extra->n_unsettled =
			clyde_summary_unsettled(sum, extra->unsettled);
	if (series && clyde_text_extra_write(stderr, runs, *done, extra) < 0)
		return -EIO;
	return 0;
}

/*
 * Keep the series in the results history (unless --no-save).  A history
 * that cannot be written costs the user nothing already printed, so it is
 * a warning, not a failed run.
 */
static void save_history(const struct clyde_cli_extra *extra, const char *doc,
			 size_t len)
{
	struct clyde_ctx hctx;
	int64_t id = 0;

	if (extra->no_save || !clyde_history_available())
		return;
	clyde_ctx_init(&hctx);
	if (clyde_history_save(&hctx, extra->db_path, doc, len, &id) < 0)
		fprintf(stderr,
			"clyde: warning: the results were not saved in the "
			"history: %s (--no-save skips it)\n",
			clyde_errmsg(&hctx));
	clyde_ctx_release(&hctx);
}

static int report_failure(struct clyde_ctx *ctx, int ret,
			  const struct clyde_scratch *scratch)
{
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

int clyde_cmd_run(int argc, char **argv)
{
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
	uint32_t *ext = NULL;
	size_t n_ext = 0;
	unsigned cap = 1, done = 0;
	uint64_t seed;
	char err[1024];
	int status = CLYDE_EXIT_OK, ret = 0;

	switch (clyde_opts_parse(argc, argv, &cfg, &extra, err, sizeof(err))) {
	case CLYDE_OPTS_HELP:
		return clyde_opts_help(stdout) < 0 ? CLYDE_EXIT_USAGE :
						     CLYDE_EXIT_OK;
	case CLYDE_OPTS_VERSION:
		printf("clyde %s\n", CLYDE_VERSION);
		return CLYDE_EXIT_OK;
	case CLYDE_OPTS_RUN:
		break;
	default:
		fprintf(stderr, "clyde: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}

	clyde_ctx_init(&ctx);
	ctx.interrupted = clyde_cli_catch_signals();

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
		n_ext = load_random_file(cfg.random_file, &ext, err,
					 sizeof(err));
		if (!n_ext) {
			fprintf(stderr, "clyde: %s\n", err);
			clyde_ctx_release(&ctx);
			return CLYDE_EXIT_USAGE;
		}
	}
	seed = cfg.seed_given ? cfg.seed :
	       ext	      ? ext[0] :
		     ((uint64_t)time(NULL) ^ (uint64_t)getpid()) & 0xffffffffu;
	if (!cfg.seed_given) {
		cfg.seed = seed;
		cfg.seed_given = true;
	}

	if (clyde_drop_privileges(cfg.user, cfg.group, err, sizeof(err)) < 0) {
		fprintf(stderr, "clyde: %s\n", err);
		free(ext);
		clyde_ctx_release(&ctx);
		return CLYDE_EXIT_USAGE;
	}

	memset(&hk, 0, sizeof(hk));
	hk.ctx = &ctx;
	hk.cfg = &cfg;
	hk.show_progress = !cfg.quiet && cfg.runs == 0;
	if (cfg.sync_mode == CLYDE_SYNC_SEM &&
	    clyde_semsync_open(&ctx, &hk.sem) < 0) {
		fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		free(ext);
		clyde_ctx_release(&ctx);
		return CLYDE_EXIT_USAGE;
	}

	if (clyde_scratch_create(&ctx, cfg.dir, &scratch) < 0) {
		fprintf(stderr, "clyde: -d: %s\n", clyde_errmsg(&ctx));
		free(ext);
		clyde_ctx_release(&ctx);
		return CLYDE_EXIT_USAGE;
	}
	ret = choose_size(&ctx, &cfg, scratch);
	if (ret < 0) {
		status = ret == -EINTR ? report_failure(&ctx, ret, scratch) :
					 CLYDE_EXIT_USAGE;
		if (ret != -EINTR)
			fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		goto out;
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
	ret = run_series(&ctx, &cfg, scratch, seed, ext, n_ext, &hooks, runs,
			 cap, &done, &jextra);
	if (hk.live)
		clyde_progress_stop(hk.live);
	if (ret < 0) {
		if (hk.show_progress && !hk.live)
			fputc('\n', stderr);
		status = report_failure(&ctx, ret, scratch);
	} else {
		char *doc = NULL;
		size_t len = 0;

		if (render_json(runs, done, &jextra, &doc, &len) < 0) {
			fprintf(stderr,
				"clyde: cannot make the JSON document\n");
			status = CLYDE_EXIT_TEST_FAILED;
		} else {
			if (extra.json_path &&
			    write_json(extra.json_path, doc, len) < 0)
				status = CLYDE_EXIT_TEST_FAILED;
			save_history(&extra, doc, len);
			free(doc);
		}
	}
out:
	clyde_err_clear(&ctx);
	if (clyde_scratch_remove(&ctx, scratch) < 0) {
		fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		if (status == CLYDE_EXIT_OK)
			status = CLYDE_EXIT_TEST_FAILED;
	}
	if (runs)
		for (unsigned i = 0; i < cap; i++)
			clyde_run_release(&runs[i]);
	free(runs);
	free(ext);
	clyde_ctx_release(&ctx);
	if (clyde_cli_interrupted() && status == CLYDE_EXIT_OK)
		status = CLYDE_EXIT_INTERRUPTED;
	return status;
}
