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

#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/privs.h"
#include "dist/semsync.h"
#include "io/scratch.h"
#include "results/format.h"
#include "workloads/bonnie.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking wait (a semaphore, stdin for -y p)
	 * must return so that the run can stop and clean up. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

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
	int show_progress;
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
			return interrupted ? -EINTR : -EIO;
	}
	if (h->show_progress) {
		fprintf(stderr, "%s...", progress[t]);
		fflush(stderr);
	}
	return 0;
}

static void after_test(void *arg, enum clyde_test t,
		       const struct clyde_test_result *r)
{
	struct run_hooks *h = arg;

	if (r->state == CLYDE_SKIPPED) {
		/* Shown even with -q: the table has a hole to explain. */
		fprintf(stderr, "clyde: %s %s\n", clyde_bonnie_test_label(t),
			r->note);
		return;
	}
	if (h->show_progress)
		fprintf(stderr, "done\n");
}

static uint64_t machine_ram_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)psize >> 20;
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

static int write_json(const char *path, struct clyde_run *runs, unsigned n)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int ret = 0;

	if (!f) {
		fprintf(stderr, "clyde: --json: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (n > 1)
		fputs("[\n", f);
	for (unsigned i = 0; i < n && !ret; i++) {
		if (i)
			fputs(",\n", f);
		ret = clyde_json_write(f, &runs[i], CLYDE_VERSION);
	}
	if (n > 1)
		fputs("]\n", f);
	if (f != stdout) {
		if (fclose(f) != 0)
			ret = -1;
	} else if (fflush(f) != 0) {
		ret = -1;
	}
	if (ret)
		fprintf(stderr, "clyde: --json: cannot write %s\n", path);
	return ret;
}

static int exit_for(int ret)
{
	if (ret == -EINTR || interrupted)
		return CLYDE_EXIT_INTERRUPTED;
	return CLYDE_EXIT_TEST_FAILED;
}

int clyde_cmd_run(int argc, char **argv)
{
	struct clyde_bonnie_config cfg;
	struct clyde_cli_extra extra = { 0 };
	struct clyde_ctx ctx;
	struct clyde_scratch *scratch = NULL;
	struct run_hooks hk;
	struct clyde_bonnie_hooks hooks = { .arg = &hk,
					    .before_test = before_test,
					    .after_test = after_test };
	struct clyde_run *runs = NULL;
	uint32_t *ext = NULL;
	size_t n_ext = 0;
	unsigned nruns;
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
	ctx.interrupted = &interrupted;
	install_signals();

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

	if (cfg.ram_mib < 0)
		cfg.ram_mib = (int64_t)machine_ram_mib();
	if (!cfg.size_given)
		cfg.file_size_mib = clyde_opts_auto_size_mib(cfg.ram_mib);
	if (cfg.file_size_mib && cfg.ram_mib > 0 &&
	    cfg.file_size_mib * cfg.concurrency < (uint64_t)cfg.ram_mib * 2)
		fprintf(stderr,
			"clyde: warning: file size should be double RAM for "
			"good results, RAM is %lldM (the page cache may serve "
			"the reads; -r 0 silences this)\n",
			(long long)cfg.ram_mib);

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

	nruns = cfg.runs ? cfg.runs : 1;
	runs = calloc(nruns, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "clyde: out of memory\n");
		status = CLYDE_EXIT_TEST_FAILED;
		goto out;
	}
	if (cfg.runs > 1 && clyde_csv_header(stdout) < 0)
		ret = -EIO;
	for (unsigned i = 0; i < nruns && !ret; i++) {
		clyde_run_init(&runs[i]);
		/* Every run starts from the same seed, as in bonnie++. */
		ret = clyde_bonnie_run(&ctx, &cfg, scratch, seed, ext, n_ext,
				       &hooks, &runs[i]);
		if (ret < 0)
			break;
		if (cfg.runs == 0 &&
		    clyde_text_write(cfg.quiet ? stderr : stdout, &runs[i],
				     CLYDE_VERSION) < 0)
			ret = -EIO;
		if (!ret &&
		    clyde_csv_write(stdout, &runs[i], CLYDE_VERSION) < 0)
			ret = -EIO;
		fflush(stdout);
	}
	if (ret < 0) {
		if (hk.show_progress)
			fputc('\n', stderr);
		if (ret == -EINTR || interrupted)
			fprintf(stderr, "clyde: interrupted; removing %s\n",
				scratch->path);
		else if (ret == -EIO && !*clyde_errmsg(&ctx))
			fprintf(stderr, "clyde: cannot write the results: %s\n",
				strerror(errno));
		else
			fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		status = exit_for(ret);
	} else if (extra.json_path &&
		   write_json(extra.json_path, runs, nruns) < 0) {
		status = CLYDE_EXIT_TEST_FAILED;
	}
out:
	clyde_err_clear(&ctx);
	if (clyde_scratch_remove(&ctx, scratch) < 0) {
		fprintf(stderr, "clyde: %s\n", clyde_errmsg(&ctx));
		if (status == CLYDE_EXIT_OK)
			status = CLYDE_EXIT_TEST_FAILED;
	}
	if (runs)
		for (unsigned i = 0; i < nruns; i++)
			clyde_run_release(&runs[i]);
	free(runs);
	free(ext);
	clyde_ctx_release(&ctx);
	if (interrupted && status == CLYDE_EXIT_OK)
		status = CLYDE_EXIT_INTERRUPTED;
	return status;
}
