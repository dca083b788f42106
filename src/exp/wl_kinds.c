/*
 * The table of workload kinds (exp.h): one line per kind, indexed by
 * enum clyde_sweep_wl_kind.  Each kind's ops are in its own file
 * (wl_clyde.c for run, tree and dev, wl_time.c, wl_fio.c).
 */
#include <stdio.h>
#include <string.h>

#include "exp/exp_internal.h"

static const struct clyde_exp_wl_ops *const kinds[CLYDE_SWEEP_KINDS] = {
	[CLYDE_SWEEP_RUN] = &clyde_exp_wl_run,
	[CLYDE_SWEEP_TREE] = &clyde_exp_wl_tree,
	[CLYDE_SWEEP_TIME] = &clyde_exp_wl_time,
	[CLYDE_SWEEP_FIO] = &clyde_exp_wl_fio,
	[CLYDE_SWEEP_DEV] = &clyde_exp_wl_dev,
};

const struct clyde_exp_wl_ops *clyde_exp_wl_builtin(enum clyde_sweep_wl_kind k)
{
	return (unsigned)k < CLYDE_SWEEP_KINDS ? kinds[k] : NULL;
}

const char *clyde_sweep_wl_kind_name(enum clyde_sweep_wl_kind k)
{
	const struct clyde_exp_wl_ops *o = clyde_exp_wl_builtin(k);

	return o ? o->name : "?";
}

int clyde_sweep_wl_kind_find(const char *name)
{
	for (int k = 0; k < CLYDE_SWEEP_KINDS; k++)
		if (!strcmp(kinds[k]->name, name))
			return k;
	return -1;
}

const char *clyde_sweep_wl_kind_names(char *buf, size_t len,
				      const char *last_sep)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int k = 0; k < CLYDE_SWEEP_KINDS && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s",
				      !k			 ? "" :
				      k == CLYDE_SWEEP_KINDS - 1 ? last_sep :
								   ", ",
				      kinds[k]->name);
	return buf;
}
