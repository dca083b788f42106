/*
 * The tables of stack probes: every node kind and every filesystem probe
 * is one line here and one file of its own (env/stack_probe.h).  The
 * order of the node kinds is the order they are asked to claim a device:
 * a partition before anything else (an md array's partition is a
 * partition), md and dm by their sysfs directories, loop, zram and zvol
 * (zdN) by name, and a disk last, which claims everything.
 */
#include "env/stack_probe.h"

#include <string.h>

static const struct clyde_stack_kind *const kinds[] = {
	&clyde_stack_partition, &clyde_stack_md,    &clyde_stack_dm,
	&clyde_stack_loop,	&clyde_stack_zram,  &clyde_stack_zvol,
	&clyde_stack_disk,	&clyde_stack_other,
};

static const struct clyde_stack_fs_kind *const fs_kinds[] = {
	&clyde_fs_ext4, &clyde_fs_xfs, &clyde_fs_btrfs,
	&clyde_fs_nfs,	&clyde_fs_zfs, &clyde_fs_cifs,
};

#define N(t) (sizeof(t) / sizeof((t)[0]))

const struct clyde_stack_kind *const *clyde_stack_kinds(size_t *n)
{
	*n = N(kinds);
	return kinds;
}

const struct clyde_stack_fs_kind *const *clyde_stack_fs_kinds(size_t *n)
{
	*n = N(fs_kinds);
	return fs_kinds;
}

const struct clyde_stack_kind *
clyde_stack_node_kind(const struct clyde_stack_node *n)
{
	return n->kind ? n->kind : &clyde_stack_disk;
}

const char *clyde_stack_kind_name(const struct clyde_stack_kind *k)
{
	return k ? k->name : clyde_stack_disk.name;
}

const struct clyde_stack_kind *clyde_stack_kind_parse(const char *name)
{
	for (size_t i = 0; i < N(kinds); i++)
		if (!strcmp(name, kinds[i]->name))
			return kinds[i];
	return NULL;
}

const struct clyde_stack_fs_kind *clyde_stack_fs_kind_of(const char *type)
{
	for (size_t i = 0; i < N(fs_kinds); i++)
		if (fs_kinds[i]->claims(type))
			return fs_kinds[i];
	return NULL;
}

void clyde_stack_node_init(struct clyde_stack_node *n,
			   const struct clyde_stack_kind *k, const char *name)
{
	memset(n, 0, sizeof(*n));
	n->kind = k;
	n->rotational = -1;
	n->md_slot = -1;
	snprintf(n->name, sizeof(n->name), "%s", name);
	if (k && k->init)
		k->init(n);
}
