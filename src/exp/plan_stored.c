/*
 * The plan of an experiment the history holds: its file's text as stored,
 * parsed again with the defines it was run with (for --resume and for the
 * `metrics =` line of --show).
 */
#include "exp/plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "store/exp_store.h"

/* Split stored defines ("A=1\nB=2") into a vector pointing into text. */
static char **split_defines(char *text, size_t *n)
{
	char **v = calloc(strlen(text) / 2 + 2, sizeof(char *)), *save = NULL;

	*n = 0;
	if (!v)
		return NULL;
	for (char *t = strtok_r(text, "\n", &save); t;
	     t = strtok_r(NULL, "\n", &save))
		v[(*n)++] = t;
	return v;
}

int clyde_sweep_parse_stored(struct clyde_ctx *ctx, struct clyde_exp_info *info,
			     struct clyde_sweep *s)
{
	size_t nd = 0;
	char **defs = split_defines(info->defines, &nd);
	int rc;

	if (!defs)
		return clyde_err(ctx, ENOMEM, "experiment %s", info->id);
	rc = clyde_sweep_parse(ctx, info->file, info->text, strlen(info->text),
			       defs, nd, s);
	free(defs);
	return rc;
}

char *clyde_sweep_stored_metrics(struct clyde_history *h, const char *id)
{
	struct clyde_exp_info info;
	struct clyde_sweep s;
	struct clyde_ctx quiet;
	char *out = NULL;

	clyde_ctx_init(&quiet);
	memset(&info, 0, sizeof(info));
	if (clyde_exp_store_get(&quiet, h, id, &info) == 0 &&
	    clyde_sweep_parse_stored(&quiet, &info, &s) == 0) {
		out = s.metrics;
		s.metrics = NULL;
		clyde_sweep_release(&s);
	}
	clyde_exp_info_release(&info);
	clyde_ctx_release(&quiet);
	return out;
}
