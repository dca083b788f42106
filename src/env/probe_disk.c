/*
 * A whole disk (sd*, nvme*n*, vd*, ...), the kind that claims every
 * device no other kind does, and "other": a device that turns out to be
 * built on others that clyde does not know (bcache, drbd, ...).
 */
#include "env/stack_probe.h"

static bool disk_claims(const char *root, const char *dev)
{
	(void)root;
	(void)dev;
	return true;
}

static void disk_children(struct clyde_stack_walk *w, size_t idx)
{
	clyde_stack_add_slaves(w, idx, NULL);
	if (w->s->nodes[idx].nchildren > 0)
		w->s->nodes[idx].kind = &clyde_stack_other;
}

const struct clyde_stack_kind clyde_stack_disk = {
	.name = "disk",
	.claims = disk_claims,
	.children = disk_children,
};

const struct clyde_stack_kind clyde_stack_other = {
	.name = "other",
};
