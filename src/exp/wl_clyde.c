/*
 * The run, tree and dev workload kinds: clyde itself (`run = OPTIONS` is
 * `clyde run OPTIONS --json TMP --no-save -q`, `tree = OPTIONS` is
 * `clyde tree OPTIONS --json TMP -q`, `dev = OPTIONS DEVICE` is
 * `clyde dev OPTIONS DEVICE --json TMP --no-save -q`), its JSON result
 * read back and stored.  Their options are checked by the caller's
 * ops->check (the commands' own parsers live in cli/).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exp/exp_internal.h"

/* `clyde KIND ARGS`; `extra` goes before -q ("--no-save "). */
static int wl_clyde(const struct clyde_exp_wl_call *c,
		    struct clyde_exp_wl_result *o, const char *kind,
		    const char *extra)
{
	const struct clyde_sweep_workload *w = c->w;
	struct clyde_exp_wl_files f;
	char sh[CLYDE_EXP_SHOW_MAX + 1], what[CLYDE_EXP_SHOW_MAX + 64];
	int rc, status = 0;
	char *cmd;

	clyde_exp_wl_files(c, "result.json", "CLYDE_SWEEP_JSON", &f);
	if (asprintf(&cmd,
		     "exec \"$CLYDE_SWEEP_EXE\" %s %s --json "
		     "\"$CLYDE_SWEEP_JSON\" %s-q",
		     kind, c->args, extra) < 0)
		return clyde_err(clyde_exp_ctx(c), ENOMEM, "workload %s",
				 w->name);
	rc = clyde_exp_run_command(c, cmd, f.env, f.log, &status, NULL, NULL);
	free(cmd);
	if (rc < 0)
		return rc;
	snprintf(what, sizeof(what), "clyde %s %s", kind,
		 clyde_exp_show(sh, c->args));
	if (clyde_exp_wl_failed(o, w->name, what, status, f.log))
		return 0;
	o->doc = clyde_exp_slurp(f.result, &o->len);
	if (!o->doc || o->len == 0) {
		o->failed = true;
		snprintf(o->message, sizeof(o->message),
			 "workload %s: clyde %s wrote no result", w->name,
			 kind);
	}
	return 0;
}

static int wl_run(const struct clyde_exp_wl_call *c,
		  struct clyde_exp_wl_result *o)
{
	return wl_clyde(c, o, "run", "--no-save ");
}

static int wl_tree(const struct clyde_exp_wl_call *c,
		   struct clyde_exp_wl_result *o)
{
	return wl_clyde(c, o, "tree", "");
}

static int wl_dev(const struct clyde_exp_wl_call *c,
		  struct clyde_exp_wl_result *o)
{
	return wl_clyde(c, o, "dev", "--no-save ");
}

static void show_run(FILE *f, const char *name, const char *args,
		     const char *dev)
{
	(void)dev;
	fprintf(f, "run %s: clyde run %s\n", name, args);
}

static void show_tree(FILE *f, const char *name, const char *args,
		      const char *dev)
{
	(void)dev;
	fprintf(f, "tree %s: clyde tree %s\n", name, args);
}

const struct clyde_exp_wl_ops clyde_exp_wl_run = {
	.name = "run",
	.result = "bonnie",
	.run = wl_run,
	.show = show_run,
};

const struct clyde_exp_wl_ops clyde_exp_wl_tree = {
	.name = "tree",
	.result = "tree",
	.run = wl_tree,
	.show = show_tree,
};

static void show_dev(FILE *f, const char *name, const char *args,
		     const char *dev)
{
	(void)dev;
	fprintf(f, "dev %s: clyde dev %s\n", name, args);
}

const struct clyde_exp_wl_ops clyde_exp_wl_dev = {
	.name = "dev",
	.result = "dev",
	.run = wl_dev,
	.show = show_dev,
};
