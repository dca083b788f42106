/*
 * The stack walker: from the target's filesystem (the probe of its type,
 * fs_*.c) to the devices it sits on, and from each device down to what it
 * is built on, one node per device.  What a device is and what it is
 * built on is its kind's (probe_*.c, the table in stack_probe.c); the
 * walker keeps the graph and reads what every device has: its number,
 * size and request queue.
 *
 * Only /sys/class/block/NAME/... paths are read, so that a fixture tree of
 * plain files and directories reads the same as the kernel's.
 */
#include "env/stack.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env/env.h"
#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

const char *clyde_stack_journal_name(enum clyde_stack_journal j)
{
	static const char *const names[] = {
		[CLYDE_JOURNAL_UNKNOWN] = "unknown",
		[CLYDE_JOURNAL_NONE] = "none",
		[CLYDE_JOURNAL_INTERNAL] = "internal",
		[CLYDE_JOURNAL_EXTERNAL] = "external",
	};

	if ((unsigned)j < sizeof(names) / sizeof(names[0]))
		return names[j];
	return "unknown";
}

bool clyde_stack_sys_exists(const char *root, const char *dev, const char *attr)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/sys/class/block/%s/%s", root, dev,
		 attr);
	return access(path, F_OK) == 0;
}

/* The index of the node named `name`, or -1. */
static int node_index(const struct clyde_stack *s, const char *name)
{
	for (size_t i = 0; i < s->nnodes; i++)
		if (strcmp(s->nodes[i].name, name) == 0)
			return (int)i;
	return -1;
}

const struct clyde_stack_node *clyde_stack_find(const struct clyde_stack *s,
						const char *name)
{
	int i = node_index(s, name);

	return i < 0 ? NULL : &s->nodes[i];
}

/* Depth-first from `from`, each node once (nodes are at most 64: one bit
 * each). */
static bool reaches_seen(const struct clyde_stack *s, uint32_t from,
			 uint32_t to, uint64_t *seen)
{
	const struct clyde_stack_node *n;

	if (from == to)
		return true;
	if (from >= s->nnodes || (*seen & (1ull << from)))
		return false;
	*seen |= 1ull << from;
	n = &s->nodes[from];
	for (uint32_t c = 0; c < n->nchildren; c++)
		if (reaches_seen(s, n->children[c], to, seen))
			return true;
	return false;
}

bool clyde_stack_reaches(const struct clyde_stack *s, uint32_t from,
			 uint32_t to)
{
	uint64_t seen = 0;

	return reaches_seen(s, from, to, &seen);
}

/* The number of lines node i unfolds into (itself and, again, every
 * device below it per path), capped just above `cap`. */
static size_t unfolded(const struct clyde_stack *s, uint32_t i, size_t cap)
{
	size_t n = 1;

	for (uint32_t c = 0; c < s->nodes[i].nchildren && n <= cap; c++)
		n += unfolded(s, s->nodes[i].children[c], cap - n + 1);
	return n;
}

int clyde_stack_check(const struct clyde_stack *s, char *why, size_t n)
{
	size_t lines = 0;

	if (s->nnodes > CLYDE_STACK_MAX_NODES) {
		snprintf(why, n, "more than %d devices", CLYDE_STACK_MAX_NODES);
		return -EINVAL;
	}
	for (uint32_t t = 0; t < s->ntop; t++)
		if (s->top[t] >= s->nnodes) {
			snprintf(why, n, "a top device that does not exist");
			return -EINVAL;
		}
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *d = &s->nodes[i];

		for (uint32_t c = 0; c < d->nchildren; c++) {
			if (d->children[c] >= s->nnodes) {
				snprintf(why, n,
					 "%s: a child that does not "
					 "exist",
					 d->name);
				return -EINVAL;
			}
			if (clyde_stack_reaches(s, d->children[c],
						(uint32_t)i)) {
				snprintf(why, n, "%s is below itself", d->name);
				return -EINVAL;
			}
		}
	}
	/* Acyclic now, so unfolded() ends; the cap keeps it short. */
	for (uint32_t t = 0; t < s->ntop && lines <= CLYDE_STACK_MAX_UNFOLDED;
	     t++)
		lines += unfolded(s, s->top[t],
				  CLYDE_STACK_MAX_UNFOLDED - lines + 1);
	if (lines > CLYDE_STACK_MAX_UNFOLDED) {
		snprintf(why, n,
			 "the device tree unfolds into more than %d "
			 "lines",
			 CLYDE_STACK_MAX_UNFOLDED);
		return -EINVAL;
	}
	return 0;
}

/* The request queue's settings of `dev` (a whole disk or a stacked
 * device: partitions have none of their own). */
void clyde_stack_read_queue(const char *root, const char *dev,
			    struct clyde_stack_node *n)
{
	char buf[256];
	uint32_t rot;

	if (clyde_sysfs_text(root, dev, "device/model", buf, sizeof(buf)) > 0)
		clyde_stack_copy(n->model, sizeof(n->model), buf);
	if (clyde_sysfs_u32(root, dev, "queue/rotational", &rot) == 0)
		n->rotational = rot != 0;
	(void)clyde_sysfs_u32(root, dev, "queue/logical_block_size",
			      &n->logical_block_size);
	(void)clyde_sysfs_u32(root, dev, "queue/physical_block_size",
			      &n->physical_block_size);
	(void)clyde_sysfs_u32(root, dev, "queue/minimum_io_size",
			      &n->minimum_io_size);
	(void)clyde_sysfs_u32(root, dev, "queue/optimal_io_size",
			      &n->optimal_io_size);
	if (clyde_sysfs_text(root, dev, "queue/write_cache", buf, sizeof(buf)) >
	    0)
		clyde_stack_copy(n->write_cache, sizeof(n->write_cache), buf);
	if (clyde_sysfs_text(root, dev, "queue/scheduler", buf, sizeof(buf)) >
	    0)
		clyde_sysfs_selected(buf, n->scheduler, sizeof(n->scheduler));
	(void)clyde_sysfs_u32(root, dev, "queue/nr_requests", &n->nr_requests);
	(void)clyde_sysfs_u32(root, dev, "queue/read_ahead_kb",
			      &n->read_ahead_kb);
	(void)clyde_sysfs_u32(root, dev, "queue/max_sectors_kb",
			      &n->max_sectors_kb);
}

static int add_node(struct clyde_stack_walk *w, const char *name);

int clyde_stack_add_child(struct clyde_stack_walk *w, size_t parent,
			  const char *name)
{
	int c = add_node(w, name);
	struct clyde_stack_node *p;

	if (c < 0)
		return -1;
	/* A fixture (or a kernel bug) could make a device its own
	 * ancestor: that edge is left out. */
	if (clyde_stack_reaches(w->s, (uint32_t)c, (uint32_t)parent))
		return -1;
	p = &w->s->nodes[parent];
	for (uint32_t i = 0; i < p->nchildren; i++)
		if (p->children[i] == (uint32_t)c)
			return c;
	if (p->nchildren < CLYDE_STACK_MAX_CHILDREN)
		p->children[p->nchildren++] = (uint32_t)c;
	return c;
}

/* Add the children listed in NAME/slaves/, sorted by name so that the
 * output does not depend on the order readdir gives. */
void clyde_stack_add_slaves(struct clyde_stack_walk *w, size_t idx,
			    void (*each)(struct clyde_stack_walk *w,
					 size_t parent, size_t child))
{
	char dir[PATH_MAX], name[64];
	struct dirent **list = NULL;
	int n;

	clyde_stack_copy(name, sizeof(name), w->s->nodes[idx].name);
	snprintf(dir, sizeof(dir), "%s/sys/class/block/%s/slaves", w->root,
		 name);
	n = scandir(dir, &list, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.') {
			int m;

			(void)clyde_stack_add_child(w, idx, list[i]->d_name);
			m = node_index(w->s, list[i]->d_name);
			if (m >= 0 && each)
				each(w, idx, (size_t)m);
		}
		free(list[i]);
	}
	free(list);
}

/* The first kind in the table that claims device `name`. */
static const struct clyde_stack_kind *kind_of(const char *root,
					      const char *name)
{
	size_t nk;
	const struct clyde_stack_kind *const *k = clyde_stack_kinds(&nk);

	for (size_t i = 0; i < nk; i++)
		if (k[i]->claims && k[i]->claims(root, name))
			return k[i];
	return &clyde_stack_disk;
}

/* Add device `name` (and everything below it) unless it is there already;
 * returns its index, or -1 when the stack is full or it does not exist.
 * The walker reads what every device has, its kind the rest. */
static int add_node(struct clyde_stack_walk *w, const char *name)
{
	struct clyde_stack *s = w->s;
	const struct clyde_stack_kind *k;
	struct clyde_stack_node *n;
	int have = node_index(s, name);
	char buf[64];
	uint64_t sectors;
	size_t idx;

	if (have >= 0)
		return have;
	if (!clyde_stack_sys_exists(w->root, name, "dev"))
		return -1;
	if (s->nnodes >= CLYDE_STACK_MAX_NODES) {
		snprintf(s->note, sizeof(s->note),
			 "more than %d devices: the stack is cut short",
			 CLYDE_STACK_MAX_NODES);
		return -1;
	}
	idx = s->nnodes++;
	n = &s->nodes[idx];
	k = kind_of(w->root, name);
	clyde_stack_node_init(n, k, name);
	if (clyde_sysfs_text(w->root, name, "dev", buf, sizeof(buf)) > 0)
		(void)sscanf(buf, "%u:%u", &n->major, &n->minor);
	if (clyde_sysfs_u64(w->root, name, "size", &sectors) == 0)
		n->size_bytes = sectors * 512;
	if (k->read)
		k->read(w->root, n);
	if (k->queue)
		k->queue(w->root, n);
	else
		clyde_stack_read_queue(w->root, name, n);
	if (k->children)
		k->children(w, idx);
	else
		clyde_stack_add_slaves(w, idx, NULL);
	return (int)idx;
}

void clyde_stack_add_top(struct clyde_stack_walk *w, const char *name)
{
	int i = add_node(w, name);
	struct clyde_stack *s = w->s;

	if (i < 0)
		return;
	for (uint32_t k = 0; k < s->ntop; k++)
		if (s->top[k] == (uint32_t)i)
			return;
	if (s->ntop < CLYDE_STACK_MAX_TOP)
		s->top[s->ntop++] = (uint32_t)i;
}

/* The last component of a path. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* /sys does not name the device: describe it from its node, which is the
 * path itself or the mount source. */
static void add_from_ioctl(struct clyde_stack_walk *w, const char *path,
			   const struct clyde_target *t)
{
	struct clyde_stack *s = w->s;
	const char *node = t->source;
	struct stat st;

	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		node = path;
	if (s->nnodes < CLYDE_STACK_MAX_NODES &&
	    clyde_stack_node_ioctl(node, &s->nodes[s->nnodes]) == 0) {
		s->top[s->ntop++] = (uint32_t)s->nnodes++;
		return;
	}
	snprintf(s->note, sizeof(s->note),
		 "device %u:%u has no name in /sys and %.200s cannot be "
		 "opened",
		 t->dev_major, t->dev_minor, node[0] ? node : "no node");
}

/* A real target: its mount from env.c, its geometry, its devices. */
static int probe_real(struct clyde_ctx *ctx, struct clyde_stack_walk *w,
		      const char *path)
{
	struct clyde_stack *s = w->s;
	struct clyde_target *t = malloc(sizeof(*t));
	const struct clyde_stack_fs_kind *fs = NULL;
	int rc;

	if (!t)
		return clyde_err(ctx, ENOMEM, "stack of %s", path);
	rc = clyde_env_target(ctx, path, t);
	if (rc) {
		free(t);
		return rc;
	}
	if (!t->mount_point[0] && t->has_block_device)
		clyde_stack_content(s, path);
	if (t->mount_point[0]) {
		s->has_fs = true;
		clyde_stack_copy(s->fs.type, sizeof(s->fs.type), t->fstype);
		clyde_stack_copy(s->fs.mount_point, sizeof(s->fs.mount_point),
				 t->mount_point);
		clyde_stack_copy(s->fs.source, sizeof(s->fs.source), t->source);
		clyde_stack_copy(s->fs.mount_opts, sizeof(s->fs.mount_opts),
				 t->mount_opts);
		fs = clyde_stack_fs_kind_of(s->fs.type);
		if (fs && fs->read)
			fs->read(&s->fs);
	}
	if (!t->has_block_device) {
		/* A network mount served by this machine (its exported
		 * directory's devices) or ZFS (its pool's leaves). */
		if (fs && fs->devices)
			fs->devices(w);
		if (s->ntop == 0)
			clyde_stack_copy(s->note, sizeof(s->note),
					 t->no_device_reason);
	} else if (!t->block_dev[0]) {
		add_from_ioctl(w, path, t);
	} else {
		if (fs && fs->devices)
			fs->devices(w);
		if (s->ntop == 0)
			clyde_stack_add_top(w, t->block_dev);
	}
	/* An external journal or log is part of the stack (its disks do the
	 * journal's I/O) without being under the filesystem's data. */
	if (s->fs.journal == CLYDE_JOURNAL_EXTERNAL && s->fs.journal_dev[0])
		(void)add_node(w, s->fs.journal_dev);
	free(t);
	return 0;
}

int clyde_stack_probe(struct clyde_ctx *ctx, const char *sysroot,
		      const char *path, struct clyde_stack *out)
{
	struct clyde_stack_walk w = { .root = sysroot ? sysroot : "",
				      .s = out };

	memset(out, 0, sizeof(*out));
	clyde_stack_copy(out->target, sizeof(out->target), path);
	out->nodes = calloc(CLYDE_STACK_MAX_NODES, sizeof(*out->nodes));
	if (!out->nodes)
		return clyde_err(ctx, ENOMEM, "stack of %s", path);
	if (!w.root[0])
		return probe_real(ctx, &w, path);

	/* A fixture tree: the path names a device. */
	if (!clyde_stack_sys_exists(w.root, base_name(path), "dev"))
		return clyde_err(ctx, ENOENT, "%s: not in %s/sys/class/block",
				 path, w.root);
	clyde_stack_add_top(&w, base_name(path));
	return 0;
}

void clyde_stack_free(struct clyde_stack *s)
{
	free(s->nodes);
	s->nodes = NULL;
	s->nnodes = 0;
	s->ntop = 0;
}

/* Is node i a device-mapper member of an md array (dm-delay, dm-flakey,
 * dm-crypt under md)?  md waits for that device, not for the disk under
 * it, so it is the member to count. */
static bool dm_md_member(const struct clyde_stack *s, size_t i)
{
	if (s->nodes[i].kind != &clyde_stack_dm)
		return false;
	for (size_t j = 0; j < s->nnodes; j++) {
		const struct clyde_stack_node *p = &s->nodes[j];

		if (p->kind != &clyde_stack_md)
			continue;
		for (uint32_t c = 0; c < p->nchildren; c++)
			if (p->children[c] == i)
				return true;
	}
	return false;
}

/* Is node i below such a member (depth bounds a malformed graph)? */
static bool below_dm_md_member(const struct clyde_stack *s, size_t i,
			       size_t depth)
{
	if (depth > s->nnodes)
		return false;
	for (size_t j = 0; j < s->nnodes; j++)
		for (uint32_t c = 0; c < s->nodes[j].nchildren; c++)
			if (s->nodes[j].children[c] == i &&
			    (dm_md_member(s, j) ||
			     below_dm_md_member(s, j, depth + 1)))
				return true;
	return false;
}

size_t clyde_stack_leaves(const struct clyde_stack *s, const char **names,
			  size_t max)
{
	size_t count = 0;

	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *n = &s->nodes[i];
		bool has_disk_child = false;

		if (dm_md_member(s, i)) {
			if (count < max)
				names[count] = n->name;
			count++;
			continue;
		}
		if (below_dm_md_member(s, i, 0))
			continue;

		/* A partition of a plain disk stands for the disk. */
		if (n->kind == &clyde_stack_partition &&
		    (n->nchildren == 0 ||
		     s->nodes[n->children[0]].nchildren == 0)) {
			if (count < max)
				names[count] = n->name;
			count++;
			continue;
		}
		if (n->nchildren > 0 || n->kind == &clyde_stack_partition)
			continue;
		/* A disk reached only through its partitions is left out:
		 * they stand for it. */
		for (size_t j = 0; j < s->nnodes && !has_disk_child; j++) {
			const struct clyde_stack_node *p = &s->nodes[j];

			if (p->kind != &clyde_stack_partition)
				continue;
			for (uint32_t c = 0; c < p->nchildren; c++)
				if (p->children[c] == i)
					has_disk_child = true;
		}
		if (has_disk_child)
			continue;
		if (count < max)
			names[count] = n->name;
		count++;
	}
	return count;
}

/* The first striping node found depth-first from node i. */
static int stripe_below(const struct clyde_stack *s, uint32_t i,
			struct clyde_stack_stripe *st, uint64_t *seen)
{
	const struct clyde_stack_node *n = &s->nodes[i];
	const struct clyde_stack_kind *k;

	if (i >= s->nnodes || (*seen & (1ull << i)))
		return -ENOENT;
	*seen |= 1ull << i;
	k = clyde_stack_node_kind(n);
	if (k->stripe && k->stripe(n, st) == 0)
		return 0;
	for (uint32_t c = 0; c < n->nchildren; c++)
		if (stripe_below(s, n->children[c], st, seen) == 0)
			return 0;
	return -ENOENT;
}

int clyde_stack_stripe(const struct clyde_stack *s,
		       struct clyde_stack_stripe *st)
{
	const struct clyde_stack_fs_kind *fs =
		s->has_fs ? clyde_stack_fs_kind_of(s->fs.type) : NULL;
	uint64_t seen = 0;

	if (fs && fs->stripe)
		return fs->stripe(s, st);
	for (uint32_t t = 0; t < s->ntop; t++)
		if (stripe_below(s, s->top[t], st, &seen) == 0)
			return 0;
	return -ENOENT;
}

char *clyde_stack_fmt_bytes(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	uint64_t v = bytes;
	double d = (double)bytes;

	while (v && v % 1024 == 0 && u < 4) {
		v /= 1024;
		u++;
	}
	if ((u > 0 && v < 1024) || bytes < 1024) {
		snprintf(buf, len, "%llu %s", (unsigned long long)v, units[u]);
		return buf;
	}
	for (u = 0; d >= 1000 && u < 4; u++)
		d /= 1024;
	snprintf(buf, len, "%.*f %s",
		 d < 10	 ? 2 :
		 d < 100 ? 1 :
			   0,
		 d, units[u]);
	return buf;
}
