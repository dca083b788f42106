/*
 * Names and lifetimes of the tree result model; see tree_result.h.
 */
#include "results/tree_result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one table of the phases' machine names and labels. */
static const struct {
	const char *name, *label;
} phases[CLYDE_TREE_PHASE_COUNT] = {
	[CLYDE_TREE_EXTRACT] = { "extract", "extract" },
	[CLYDE_TREE_STAT_WALK] = { "stat_walk", "stat walk" },
	[CLYDE_TREE_READ_WALK] = { "read_walk", "read walk" },
	[CLYDE_TREE_PAR_STAT_WALK] = { "par_stat_walk", "par stat walk" },
	[CLYDE_TREE_PAR_READ_WALK] = { "par_read_walk", "par read walk" },
	[CLYDE_TREE_DELETE] = { "delete", "delete" },
};

static const char *const op_names[CLYDE_TREE_OP_COUNT] = {
	[CLYDE_TREE_OP_READDIR] = "readdir", [CLYDE_TREE_OP_STAT] = "stat",
	[CLYDE_TREE_OP_OPEN] = "open",	     [CLYDE_TREE_OP_READ] = "read",
	[CLYDE_TREE_OP_CREATE] = "create",   [CLYDE_TREE_OP_UNLINK] = "unlink",
};

const char *clyde_tree_phase_name(enum clyde_tree_phase p)
{
	return (unsigned)p < CLYDE_TREE_PHASE_COUNT ? phases[p].name : "?";
}

const char *clyde_tree_phase_label(enum clyde_tree_phase p)
{
	return (unsigned)p < CLYDE_TREE_PHASE_COUNT ? phases[p].label : "?";
}

int clyde_tree_phase_from_name(const char *name)
{
	for (int p = 0; name && p < CLYDE_TREE_PHASE_COUNT; p++)
		if (!strcmp(phases[p].name, name))
			return p;
	return -1;
}

const char *clyde_tree_op_name(enum clyde_tree_op op)
{
	return (unsigned)op < CLYDE_TREE_OP_COUNT ? op_names[op] : "?";
}

bool clyde_tree_phase_in_bytes(enum clyde_tree_phase p)
{
	return p == CLYDE_TREE_EXTRACT || p == CLYDE_TREE_READ_WALK ||
	       p == CLYDE_TREE_PAR_READ_WALK;
}

double clyde_tree_rate(uint64_t count, uint64_t elapsed_ns)
{
	return elapsed_ns ? (double)count * 1e9 / (double)elapsed_ns : 0;
}

void clyde_tree_phase_release(struct clyde_tree_phase_result *r)
{
	for (int op = 0; op < CLYDE_TREE_OP_COUNT; op++)
		free(r->lat[op]);
	free(r->workers);
	memset(r, 0, sizeof(*r));
}

void clyde_tree_run_release(struct clyde_tree_run *run)
{
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++)
		clyde_tree_phase_release(&run->phases[p]);
	clyde_stack_free(&run->env.stack);
}

/* A size as the parser reads it back: the largest exact suffix. */
static char *fmt_size(char *buf, size_t len, uint64_t v)
{
	static const char suf[] = "kmgt";
	int i = -1;

	while (i < 3 && v && !(v & 1023)) {
		v >>= 10;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, suf[i]);
	return buf;
}

char *clyde_size_dist_format(char *buf, size_t len,
			     const struct clyde_size_dist *d)
{
	char a[32], b[32];

	switch (d->kind) {
	case CLYDE_SIZE_FIXED:
		snprintf(buf, len, "fixed:%s", fmt_size(a, sizeof(a), d->a));
		break;
	case CLYDE_SIZE_UNIFORM:
		snprintf(buf, len, "uniform:%s-%s",
			 fmt_size(a, sizeof(a), d->a),
			 fmt_size(b, sizeof(b), d->b));
		break;
	case CLYDE_SIZE_LOGNORMAL:
		/* %g would follow LC_NUMERIC; sigma has few digits. */
		snprintf(buf, len, "lognormal:%s,%d.%02d,%s",
			 fmt_size(a, sizeof(a), d->a), (int)d->sigma,
			 (int)lround((d->sigma - (int)d->sigma) * 100) % 100,
			 fmt_size(b, sizeof(b), d->cap));
		break;
	}
	return buf;
}
