/*
 * TEMPORARY STUB, to be deleted when the sweep engine's history storage is
 * merged: it provides the real clyde_history_load_experiment().  Until
 * then this branch links and `clyde report --experiment ID` says that the
 * history cannot hold experiments yet.
 */
#include "report/exp_store.h"

#include <errno.h>
#include <string.h>

int clyde_history_load_experiment(struct clyde_ctx *ctx,
				  struct clyde_history *h, const char *id,
				  struct clyde_exp *out)
{
	(void)h;
	memset(out, 0, sizeof(*out));
	return clyde_err(ctx, ENOTSUP,
			 "experiment %s: this build's history has no "
			 "experiments (clyde sweep is not merged yet)",
			 id);
}
