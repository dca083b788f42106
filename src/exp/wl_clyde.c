/*
 * The run and tree workload kinds: clyde itself (`run = OPTIONS` is
 * `clyde run OPTIONS --json TMP --no-save -q`, `tree = OPTIONS` is
 * `clyde tree OPTIONS --json TMP -q`), its JSON result read back and
 * stored.  Their options are checked by the caller's ops->check (the
 * commands' own parsers live in cli/).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exp/exp_internal.h"

static int wl_clyde(const struct clyde_exp_wl_call *c,
		    struct clyde_exp_wl_result *o)
{
	const struct clyde_sweep_workload *w = c->w;
	const char *kind = clyde_sweep_wl_kind_name(w->kind);
	struct clyde_exp_wl_files f;
	char sh[CLYDE_EXP_SHOW_MAX + 1], what[CLYDE_EXP_SHOW_MAX + 64];
	int rc, status = 0;
	char *cmd;

	clyde_exp_wl_files(c, "result.json", "CLYDE_SWEEP_JSON", &f);
	if (asprintf(&cmd,
		     "exec \"$CLYDE_SWEEP_EXE\" %s %s --json "
		     "\"$CLYDE_SWEEP_JSON\" %s-q",
		     kind, c->args,
		     w->kind == CLYDE_SWEEP_RUN ? "--no-save " : "") < 0)
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

const struct clyde_exp_wl_ops clyde_exp_wl_run = { "run", NULL, wl_clyde };
const struct clyde_exp_wl_ops clyde_exp_wl_tree = { "tree", NULL, wl_clyde };
