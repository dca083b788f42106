/*
 * The part of `clyde dev` and `clyde zcav` after the command line: every
 * destination is opened before the device is touched (a mistyped path
 * costs nothing), the workload runs (its guards first), and the outputs
 * are written through temporary files renamed over the old ones
 * (cli/outputs.h, shared with `clyde tree`).
 */
#include "cli/dev_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/outputs.h"
#include "io/engine.h"
#include "results/dev_out.h"
#include "results/members_text.h"
#include "workloads/dev.h"

int clyde_dev_cli_set_path(struct clyde_dev_cli *c, const char *path, char *err,
			   size_t len)
{
	if (strlen(path) >= sizeof(c->cfg.path))
		return clyde_cli_bad(err, len, "%s: path too long", path);
	snprintf(c->cfg.path, sizeof(c->cfg.path), "%s", path);
	return 0;
}

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

static int outputs_write(const struct clyde_dev_cli *c,
			 struct clyde_cli_outputs *o,
			 const struct clyde_dev_run *run)
{
	/* --json -: standard output is the JSON's alone. */
	bool json_out = c->json && !strcmp(c->json, "-");
	FILE *text = json_out ? stderr : stdout;
	bool zcav = run->tests[CLYDE_DEV_ZCAV].ran;
	FILE *log = clyde_cli_outputs_file(o, CLYDE_CLI_OUT_LOG);
	FILE *f;
	int ret = 0;

	if (!c->quiet && c->table &&
	    clyde_dev_text_write(text, run, CLYDE_VERSION) < 0)
		ret = -1;
	if (zcav && log)
		ret |= clyde_cli_outputs_commit(
			o, CLYDE_CLI_OUT_LOG, clyde_zcav_text_write(log, run));
	else if (zcav && !c->quiet && clyde_zcav_text_write(text, run) < 0)
		ret = -1;
	/* The advice on the stack, as clyde run prints it: after the table,
	 * or on standard error when there is no table (clyde zcav's text
	 * keeps zcav's lines). */
	if (clyde_advice_section(c->quiet || !c->table ? stderr : text,
				 &run->env.stack, 0) < 0)
		ret = -1;
	f = clyde_cli_outputs_file(o, CLYDE_CLI_OUT_JSON);
	if (f)
		ret |= clyde_cli_outputs_commit(
			o, CLYDE_CLI_OUT_JSON,
			clyde_dev_json_write(f, run, CLYDE_VERSION));
	f = clyde_cli_outputs_file(o, CLYDE_CLI_OUT_CSV);
	if (f) {
		bool header;
		int rc = clyde_cli_outputs_csv_begin(o, &header);

		if (rc == 0 && header)
			rc = clyde_dev_csv_header(f);
		if (rc == 0)
			rc = clyde_dev_csv_write(f, run, CLYDE_VERSION);
		ret |= clyde_cli_outputs_commit(o, CLYDE_CLI_OUT_CSV, rc);
	}
	if (clyde_cli_outputs_saving(o)) {
		const char *why = NULL;
		size_t len = 0;
		char *doc = json_doc(run, &len, &why);

		ret |= clyde_cli_outputs_save(o, doc, len, why);
		free(doc);
	}
	return ret;
}

/* Run c's tests on c->cfg.path as command `cmd` and report; returns the
 * exit status. */
static int execute(const char *cmd, struct clyde_dev_cli *c)
{
	struct clyde_ctx ctx;
	struct clyde_dev_run run;
	struct clyde_cli_outputs outs;
	struct clyde_cli_dest dest = {
		.path = { [CLYDE_CLI_OUT_JSON] = c->json,
			  [CLYDE_CLI_OUT_CSV] = c->csv,
			  [CLYDE_CLI_OUT_LOG] = c->zcav_log },
		.db = c->db,
		.no_save = c->no_save,
	};
	int status = CLYDE_EXIT_OK, rc;

	if (!c->seed_given)
		c->cfg.seed = ((uint64_t)time(NULL) ^ (uint64_t)getpid()) &
			      0xffffffffu;
	/* A line of this format is never appended to a CSV of another
	 * (an older clyde's): refused before anything runs. */
	if (c->csv && strcmp(c->csv, "-")) {
		char why[256];
		int bad = clyde_dev_csv_check(c->csv, why, sizeof(why));

		if (bad < 0) {
			fprintf(stderr, "clyde %s: --csv %s: %s\n", cmd, c->csv,
				bad == -EINVAL ? why : strerror(-bad));
			return CLYDE_EXIT_USAGE;
		}
	}
	clyde_ctx_init(&ctx);
	ctx.interrupted = clyde_cli_catch_signals();
	if (clyde_cli_outputs_open(&outs, cmd, &dest) < 0) {
		clyde_cli_outputs_abort(&outs);
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
					 rc == -ENOENT || rc == -EACCES ||
					 rc == -ENOTSUP ?
				 CLYDE_EXIT_USAGE :
				 CLYDE_EXIT_TEST_FAILED;
	} else if (outputs_write(c, &outs, &run) < 0) {
		status = CLYDE_EXIT_TEST_FAILED;
	}
	clyde_cli_outputs_abort(&outs);
	clyde_dev_run_release(&run);
	clyde_ctx_release(&ctx);
	return status;
}

const struct clyde_opt_choice clyde_dev_patterns[] = {
	{ "random", 0 },
	{ "zeros", 1 },
	{ NULL, 0 },
};

void clyde_dev_cli_init(struct clyde_dev_cli *c)
{
	memset(c, 0, sizeof(*c));
	clyde_dev_config_init(&c->cfg);
	c->table = true;
	c->engine = clyde_engine_find(c->cfg.engine);
	c->pattern = c->cfg.zeros ? 1 : 0;
}

void clyde_dev_cli_apply(struct clyde_dev_cli *c)
{
	if (c->engine)
		snprintf(c->cfg.engine, sizeof(c->cfg.engine), "%s",
			 c->engine->name);
	c->cfg.zeros = c->pattern == 1;
}

int clyde_dev_cli_main(const char *cmd, int (*print_help)(void),
		       clyde_dev_cli_parse_fn parse, int argc, char **argv)
{
	struct clyde_dev_cli c;
	char err[512];
	bool help;

	if (parse(argc, argv, &c, &help, err, sizeof(err)) < 0) {
		fprintf(stderr, "clyde %s: %s\n", cmd, err);
		return CLYDE_EXIT_USAGE;
	}
	if (help)
		return print_help();
	return execute(cmd, &c);
}
