/*
 * The part of `clyde dev` and `clyde zcav` after the command line: every
 * destination is opened before the device is touched (a mistyped path
 * costs nothing), the workload runs (its guards first), and the outputs
 * are written through temporary files renamed over the old ones, as
 * `clyde tree` does.
 */
#include "cli/dev_cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "core/outfile.h"
#include "report/history.h"
#include "results/dev_out.h"
#include "workloads/dev.h"

struct outputs {
	struct clyde_outfile json, csv, log;
	bool json_open, csv_open, log_open;
	struct clyde_history *h; /* NULL: not saved */
	bool db_created;
};

static int open_one(const char *cmd, const char *opt, const char *path,
		    struct clyde_outfile *o, bool *is_open)
{
	int rc = clyde_outfile_open(o, path);

	if (rc < 0) {
		fprintf(stderr, "clyde %s: %s %s: %s\n", cmd, opt, path,
			strerror(-rc));
		return -1;
	}
	*is_open = true;
	return 0;
}

/* Open the history as `clyde run` does: a --db the user named must work,
 * the default one only costs a warning. */
static int open_history(const char *cmd, const struct clyde_dev_cli *c,
			struct outputs *o)
{
	struct clyde_ctx hctx;
	char path[PATH_MAX];
	struct stat st;
	int ret = 0;

	clyde_ctx_init(&hctx);
	if (c->db)
		snprintf(path, sizeof(path), "%s", c->db);
	else if (clyde_history_default_path(&hctx, path, sizeof(path)) < 0)
		path[0] = '\0';
	o->db_created = !path[0] || lstat(path, &st) < 0;
	if (clyde_history_open(&hctx, c->db, true, &o->h) < 0) {
		if (c->db) {
			fprintf(stderr,
				"clyde %s: --db: %s (--no-save skips the "
				"history)\n",
				cmd, clyde_errmsg(&hctx));
			ret = -1;
		} else {
			fprintf(stderr,
				"clyde %s: warning: the result will not be "
				"saved in the history: %s (--no-save skips "
				"it)\n",
				cmd, clyde_errmsg(&hctx));
		}
		o->h = NULL;
	}
	clyde_ctx_release(&hctx);
	return ret;
}

static int outputs_open(const char *cmd, const struct clyde_dev_cli *c,
			struct outputs *o)
{
	memset(o, 0, sizeof(*o));
	if (c->json &&
	    open_one(cmd, "--json", c->json, &o->json, &o->json_open) < 0)
		return -1;
	if (c->csv) {
		/* The old lines are copied at the end: readable now. */
		if (strcmp(c->csv, "-") && access(c->csv, F_OK) == 0 &&
		    access(c->csv, R_OK) < 0) {
			fprintf(stderr, "clyde %s: --csv %s: %s\n", cmd, c->csv,
				strerror(errno));
			return -1;
		}
		if (open_one(cmd, "--csv", c->csv, &o->csv, &o->csv_open) < 0)
			return -1;
	}
	if (c->zcav_log &&
	    open_one(cmd, "-l", c->zcav_log, &o->log, &o->log_open) < 0)
		return -1;
	if (!c->no_save && clyde_history_available())
		return open_history(cmd, c, o);
	return 0;
}

static void outputs_abort(struct outputs *o)
{
	if (o->json_open)
		clyde_outfile_abort(&o->json);
	if (o->csv_open)
		clyde_outfile_abort(&o->csv);
	if (o->log_open)
		clyde_outfile_abort(&o->log);
	if (o->h && o->db_created)
		clyde_history_close_discard_empty(o->h);
	else
		clyde_history_close(o->h);
	memset(o, 0, sizeof(*o));
}

/* Copy the old CSV file (when there is one) to f; the byte count or -1. */
static long long copy_old(const char *path, FILE *f)
{
	char buf[65536];
	long long total = 0;
	int last = '\n';
	size_t n;
	FILE *in = fopen(path, "re");

	if (!in)
		return errno == ENOENT ? 0 : -1;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		if (fwrite(buf, 1, n, f) != n) {
			fclose(in);
			return -1;
		}
		total += (long long)n;
		last = buf[n - 1];
	}
	fclose(in);
	if (last != '\n' && fputc('\n', f) == EOF)
		return -1;
	return total;
}

/* Commit one output written by rc (0 or -errno); prints a failure. */
static int commit(const char *cmd, const char *opt, const char *path,
		  struct clyde_outfile *o, bool *is_open, int rc)
{
	*is_open = false;
	if (rc < 0)
		clyde_outfile_abort(o);
	else
		rc = clyde_outfile_commit(o);
	if (rc < 0)
		fprintf(stderr, "clyde %s: %s: cannot write %s: %s\n", cmd, opt,
			path, strerror(-rc));
	return rc < 0 ? -1 : 0;
}

static void save(const char *cmd, struct outputs *o,
		 const struct clyde_dev_run *run)
{
	struct clyde_ctx hctx;
	char *doc = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&doc, &len);
	int rc = m ? clyde_dev_json_write(m, run, CLYDE_VERSION) : -ENOMEM;

	if (m && fclose(m) != 0 && rc == 0)
		rc = -ENOMEM;
	clyde_ctx_init(&hctx);
	if (rc < 0)
		fprintf(stderr,
			"clyde %s: warning: the result was not saved in the "
			"history: %s\n",
			cmd, strerror(-rc));
	else if (clyde_history_add(&hctx, o->h, doc, len, NULL, NULL) < 0)
		fprintf(stderr,
			"clyde %s: warning: the result was not saved in the "
			"history: %s (--no-save skips it)\n",
			cmd, clyde_errmsg(&hctx));
	clyde_ctx_release(&hctx);
	free(doc);
	if (o->db_created)
		clyde_history_close_discard_empty(o->h);
	else
		clyde_history_close(o->h);
	o->h = NULL;
}

static int outputs_write(const char *cmd, const struct clyde_dev_cli *c,
			 struct outputs *o, const struct clyde_dev_run *run)
{
	/* --json -: standard output is the JSON's alone. */
	bool json_out = c->json && !strcmp(c->json, "-");
	FILE *text = json_out ? stderr : stdout;
	bool zcav = run->tests[CLYDE_DEV_ZCAV].ran;
	int ret = 0;

	if (!c->quiet && c->table &&
	    clyde_dev_text_write(text, run, CLYDE_VERSION) < 0)
		ret = -1;
	if (zcav && o->log_open)
		ret |= commit(cmd, "-l", c->zcav_log, &o->log, &o->log_open,
			      clyde_zcav_text_write(o->log.f, run));
	else if (zcav && !c->quiet && clyde_zcav_text_write(text, run) < 0)
		ret = -1;
	if (o->json_open)
		ret |= commit(cmd, "--json", c->json, &o->json, &o->json_open,
			      clyde_dev_json_write(o->json.f, run,
						   CLYDE_VERSION));
	if (o->csv_open) {
		long long old = o->csv.is_stdout ? 0 :
						   copy_old(c->csv, o->csv.f);
		int rc = old < 0 ? -errno : 0;

		if (rc == 0 && old == 0)
			rc = clyde_dev_csv_header(o->csv.f);
		if (rc == 0)
			rc = clyde_dev_csv_write(o->csv.f, run, CLYDE_VERSION);
		ret |= commit(cmd, "--csv", c->csv, &o->csv, &o->csv_open, rc);
	}
	if (o->h)
		save(cmd, o, run);
	return ret;
}

int clyde_dev_cli_execute(const char *cmd, struct clyde_dev_cli *c)
{
	struct clyde_ctx ctx;
	struct clyde_dev_run run;
	struct outputs outs;
	int status = CLYDE_EXIT_OK, rc;

	if (!c->seed_given)
		c->cfg.seed = ((uint64_t)time(NULL) ^ (uint64_t)getpid()) &
			      0xffffffffu;
	clyde_ctx_init(&ctx);
	ctx.interrupted = clyde_cli_catch_signals();
	if (outputs_open(cmd, c, &outs) < 0) {
		outputs_abort(&outs);
		clyde_ctx_release(&ctx);
		return CLYDE_EXIT_USAGE;
	}
	rc = clyde_dev_run(&ctx, &c->cfg, NULL, &run);
	if (rc == -EINTR || (rc < 0 && clyde_cli_interrupted())) {
		fprintf(stderr, "clyde %s: interrupted\n", cmd);
		status = CLYDE_EXIT_INTERRUPTED;
	} else if (rc < 0) {
		fprintf(stderr, "clyde %s: %s\n", cmd, clyde_errmsg(&ctx));
		/* A refusal or a setting the device cannot take: nothing
		 * was written. */
		status = rc == -EINVAL || rc == -EBUSY || rc == -EEXIST ||
					 rc == -ENOENT || rc == -EACCES ?
				 CLYDE_EXIT_USAGE :
				 CLYDE_EXIT_TEST_FAILED;
	} else if (outputs_write(cmd, c, &outs, &run) < 0) {
		status = CLYDE_EXIT_TEST_FAILED;
	}
	outputs_abort(&outs);
	clyde_dev_run_release(&run);
	clyde_ctx_release(&ctx);
	if (clyde_cli_stdout_done(cmd) < 0 && status == CLYDE_EXIT_OK)
		status = CLYDE_EXIT_TEST_FAILED;
	return status;
}
