/*
 * What `clyde dev` and `clyde zcav` share once their command lines are
 * read: hand the settings to the job (job/job_dev.h), which opens the
 * destinations, runs the tests and writes the files, and print the run
 * it hands back.
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
#include "job/job_dev.h"
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

/* What `clyde dev` and `clyde zcav` print of a run: the table, zcav's
 * lines (unless -l takes them), the advice on the stack. */
static int show(void *arg, const struct clyde_dev_run *run)
{
	const struct clyde_dev_cli *c = arg;
	/* --json -: standard output is the JSON's alone. */
	FILE *text = c->json && !strcmp(c->json, "-") ? stderr : stdout;
	bool zcav = run->tests[CLYDE_DEV_ZCAV].ran;
	int ret = 0;

	if (!c->quiet && c->table &&
	    clyde_dev_text_write(text, run, CLYDE_VERSION) < 0)
		ret = -1;
	if (zcav && !c->zcav_log && !c->quiet &&
	    clyde_zcav_text_write(text, run) < 0)
		ret = -1;
	/* The advice on the stack, as clyde run prints it: after the table,
	 * or on standard error when there is no table (clyde zcav's text
	 * keeps zcav's lines). */
	if (clyde_advice_section(c->quiet || !c->table ? stderr : text,
				 &run->env.stack,
				 clyde_dev_advise(&run->cfg)) < 0)
		ret = -1;
	return ret;
}

/* Run c's tests on c->cfg.path as command `cmd` and report; returns the
 * exit status. */
static int execute(const char *cmd, struct clyde_dev_cli *c)
{
	char who[32];
	struct clyde_job_ui ui = { .arg = c };
	struct clyde_job_dev job = {
		.who = who,
		.cfg = &c->cfg,
		.seed_given = c->seed_given,
		.json = c->json,
		.csv = c->csv,
		.zcav_log = c->zcav_log,
		.db = c->db,
		.no_save = c->no_save,
		.show = show,
	};

	snprintf(who, sizeof(who), "clyde %s", cmd);
	clyde_cli_job_ui(&ui);
	return clyde_job_dev_run(&job, &ui);
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
