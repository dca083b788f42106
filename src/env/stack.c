/*
 * The stack walker: from the target's device down through slaves/ (dm, md,
 * anything stacked) and from a partition to its disk, one node per device.
 *
 * Only /sys/class/block/NAME/... paths are read, and a partition's disk is
 * found by looking for NAME/PART/partition under every block device rather
 * than by following the sysfs symlinks, so that a fixture tree of plain
 * files and directories reads the same as the kernel's.
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
#include "env/stack_sysfs.h"

static const char *const kind_names[] = {
	[CLYDE_STACK_DISK] = "disk",   [CLYDE_STACK_PARTITION] = "partition",
	[CLYDE_STACK_LOOP] = "loop",   [CLYDE_STACK_MD] = "md",
	[CLYDE_STACK_DM] = "dm",       [CLYDE_STACK_ZRAM] = "zram",
	[CLYDE_STACK_OTHER] = "other",
};

const char *clyde_stack_kind_name(enum clyde_stack_kind k)
{
	if ((unsigned)k < sizeof(kind_names) / sizeof(kind_names[0]))
		return kind_names[k];
	return "other";
}

int clyde_stack_kind_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (strcmp(name, kind_names[i]) == 0)
			return (int)i;
	return -1;
}

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

struct walk {
	const char *root;
	struct clyde_stack *s;
};

static bool sys_exists(const char *root, const char *dev, const char *attr)
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

/* The disk holding partition `part`: the block device D with a
 * D/part/partition attribute.  Returns 0 with its name in out. */
static int partition_disk(const char *root, const char *part, char *out,
			  size_t n)
{
	char dir[PATH_MAX], attr[NAME_MAX + 16];
	DIR *d;
	struct dirent *e;
	int rc = -ENOENT;

	snprintf(dir, sizeof(dir), "%s/sys/class/block", root);
	d = opendir(dir);
	if (!d)
		return -errno;
	snprintf(attr, sizeof(attr), "%s/partition", part);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, part) == 0)
			continue;
		if (sys_exists(root, e->d_name, attr)) {
			clyde_stack_copy(out, n, e->d_name);
			rc = 0;
			break;
		}
	}
	closedir(d);
	return rc;
}

/* The request queue's settings of `dev` (a whole disk or a stacked
 * device: partitions have none of their own). */
static void read_queue(const char *root, const char *dev,
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
}

static void read_loop(const char *root, struct clyde_stack_node *n)
{
	char buf[1024];
	uint32_t dio;

	if (clyde_sysfs_text(root, n->name, "loop/backing_file", buf,
			     sizeof(buf)) > 0)
		clyde_stack_copy(n->backing_file, sizeof(n->backing_file), buf);
	if (clyde_sysfs_u32(root, n->name, "loop/dio", &dio) == 0)
		n->dio = dio != 0;
	(void)clyde_sysfs_u64(root, n->name, "loop/offset", &n->loop_offset);
}

static void read_md(const char *root, struct clyde_stack_node *n)
{
	char buf[64];

	if (clyde_sysfs_text(root, n->name, "md/level", buf, sizeof(buf)) > 0)
		clyde_stack_copy(n->md_level, sizeof(n->md_level), buf);
	(void)clyde_sysfs_u64(root, n->name, "md/chunk_size", &n->chunk_bytes);
	(void)clyde_sysfs_u32(root, n->name, "md/raid_disks", &n->raid_disks);
	(void)clyde_sysfs_u32(root, n->name, "md/layout", &n->md_layout);
	(void)clyde_sysfs_u32(root, n->name, "md/stripe_cache_size",
			      &n->stripe_cache_size);
	(void)clyde_sysfs_u32(root, n->name, "md/degraded", &n->degraded);
	if (clyde_sysfs_text(root, n->name, "md/sync_action", buf,
			     sizeof(buf)) > 0)
		clyde_stack_copy(n->sync_action, sizeof(n->sync_action), buf);
	if (clyde_sysfs_text(root, n->name, "md/array_state", buf,
			     sizeof(buf)) > 0)
		clyde_stack_copy(n->array_state, sizeof(n->array_state), buf);
}

static void read_dm(const char *root, struct clyde_stack_node *n)
{
	char table[4096];
	int rc;

	(void)clyde_sysfs_text(root, n->name, "dm/name", n->dm_name,
			       sizeof(n->dm_name));
	(void)clyde_sysfs_text(root, n->name, "dm/uuid", n->dm_uuid,
			       sizeof(n->dm_uuid));
	if (!strncmp(n->dm_uuid, "LVM-", 4))
		(void)clyde_stack_lvm_names(n->dm_name, n->lvm_vg,
					    sizeof(n->lvm_vg), n->lvm_lv,
					    sizeof(n->lvm_lv));
	rc = clyde_stack_dm_table(root, n->dm_name, table, sizeof(table));
	if (rc == 0)
		clyde_stack_dm_parse(n, table);
	else
		snprintf(n->note, sizeof(n->note),
			 "dm table of %s not readable: %s%s", n->dm_name,
			 strerror(-rc),
			 rc == -EACCES || rc == -EPERM ? " (needs root)" : "");
}

static void read_zram(const char *root, struct clyde_stack_node *n)
{
	char buf[256];

	if (clyde_sysfs_text(root, n->name, "comp_algorithm", buf,
			     sizeof(buf)) > 0)
		clyde_sysfs_selected(buf, n->zram_algorithm,
				     sizeof(n->zram_algorithm));
}

static enum clyde_stack_kind kind_of(const char *root, const char *name)
{
	if (sys_exists(root, name, "partition"))
		return CLYDE_STACK_PARTITION;
	if (sys_exists(root, name, "md"))
		return CLYDE_STACK_MD;
	if (sys_exists(root, name, "dm"))
		return CLYDE_STACK_DM;
	if (strncmp(name, "loop", 4) == 0)
		return CLYDE_STACK_LOOP;
	if (strncmp(name, "zram", 4) == 0)
		return CLYDE_STACK_ZRAM;
	return CLYDE_STACK_DISK;
}

static int add_node(struct walk *w, const char *name);

static void add_child(struct walk *w, size_t parent, const char *child)
{
	int c = add_node(w, child);
	struct clyde_stack_node *p;

	if (c < 0)
		return;
	/* A fixture (or a kernel bug) could make a device its own
	 * ancestor: that edge is left out. */
	if (clyde_stack_reaches(w->s, (uint32_t)c, (uint32_t)parent))
		return;
	p = &w->s->nodes[parent];
	for (uint32_t i = 0; i < p->nchildren; i++)
		if (p->children[i] == (uint32_t)c)
			return;
	if (p->nchildren < CLYDE_STACK_MAX_CHILDREN)
		p->children[p->nchildren++] = (uint32_t)c;
}

/* An md member's slot and state in its array (md/dev-NAME/...). */
static void md_member(const char *root, const char *md,
		      struct clyde_stack_node *m)
{
	char attr[128], buf[64];

	snprintf(attr, sizeof(attr), "md/dev-%s/slot", m->name);
	if (clyde_sysfs_text(root, md, attr, buf, sizeof(buf)) > 0)
		m->md_slot = strcmp(buf, "none") == 0 ? -1 : atoi(buf);
	snprintf(attr, sizeof(attr), "md/dev-%s/state", m->name);
	if (clyde_sysfs_text(root, md, attr, buf, sizeof(buf)) > 0)
		clyde_stack_copy(m->md_state, sizeof(m->md_state), buf);
}

/* Add the children listed in NAME/slaves/, sorted by name so that the
 * output does not depend on the order readdir gives. */
static void add_slaves(struct walk *w, size_t idx)
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

			add_child(w, idx, list[i]->d_name);
			m = node_index(w->s, list[i]->d_name);
			if (m >= 0 && w->s->nodes[idx].kind == CLYDE_STACK_MD)
				md_member(w->root, name, &w->s->nodes[m]);
		}
		free(list[i]);
	}
	free(list);
}

/* Add device `name` (and everything below it) unless it is there already;
 * returns its index, or -1 when the stack is full or it does not exist. */
static int add_node(struct walk *w, const char *name)
{
	struct clyde_stack *s = w->s;
	struct clyde_stack_node *n;
	int have = node_index(s, name);
	char buf[64], disk[64];
	uint64_t sectors;
	size_t idx;

	if (have >= 0)
		return have;
	if (!sys_exists(w->root, name, "dev"))
		return -1;
	if (s->nnodes >= CLYDE_STACK_MAX_NODES) {
		snprintf(s->note, sizeof(s->note),
			 "more than %d devices: the stack is cut short",
			 CLYDE_STACK_MAX_NODES);
		return -1;
	}
	idx = s->nnodes++;
	n = &s->nodes[idx];
	memset(n, 0, sizeof(*n));
	n->rotational = -1;
	n->dio = -1;
	n->md_slot = -1;
	clyde_stack_copy(n->name, sizeof(n->name), name);
	n->kind = kind_of(w->root, name);
	if (clyde_sysfs_text(w->root, name, "dev", buf, sizeof(buf)) > 0)
		(void)sscanf(buf, "%u:%u", &n->major, &n->minor);
	if (clyde_sysfs_u64(w->root, name, "size", &sectors) == 0)
		n->size_bytes = sectors * 512;

	switch (n->kind) {
	case CLYDE_STACK_PARTITION:
		(void)clyde_sysfs_u32(w->root, name, "partition",
				      &n->partition);
		if (clyde_sysfs_u64(w->root, name, "start", &sectors) == 0)
			n->start_bytes = sectors * 512;
		if (partition_disk(w->root, name, disk, sizeof(disk)) == 0) {
			read_queue(w->root, disk, n);
			add_child(w, idx, disk);
		}
		return (int)idx;
	case CLYDE_STACK_LOOP:
		read_loop(w->root, n);
		break;
	case CLYDE_STACK_MD:
		read_md(w->root, n);
		break;
	case CLYDE_STACK_DM:
		read_dm(w->root, n);
		break;
	case CLYDE_STACK_ZRAM:
		read_zram(w->root, n);
		break;
	default:
		break;
	}
	read_queue(w->root, name, &s->nodes[idx]);
	add_slaves(w, idx);
	n = &s->nodes[idx];
	if (n->kind == CLYDE_STACK_DISK && n->nchildren > 0)
		n->kind = CLYDE_STACK_OTHER;
	return (int)idx;
}

static void add_top(struct walk *w, const char *name)
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

/* The devices of a btrfs filesystem: /sys/fs/btrfs/UUID/devices/. */
static void add_btrfs_devices(struct walk *w)
{
	char dir[PATH_MAX];
	struct dirent **list = NULL;
	int n;

	if (!w->s->fs.uuid[0])
		return;
	snprintf(dir, sizeof(dir), "%s/sys/fs/btrfs/%s/devices", w->root,
		 w->s->fs.uuid);
	n = scandir(dir, &list, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.')
			add_top(w, list[i]->d_name);
		free(list[i]);
	}
	free(list);
}

/* The last component of a path. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* /sys does not name the device: describe it from its node, which is the
 * path itself or the mount source. */
static void add_from_ioctl(struct walk *w, const char *path,
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
static int probe_real(struct clyde_ctx *ctx, struct walk *w, const char *path)
{
	struct clyde_stack *s = w->s;
	struct clyde_target *t = malloc(sizeof(*t));
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
		clyde_stack_fs_geometry(s);
	}
	if (!t->has_block_device) {
		clyde_stack_copy(s->note, sizeof(s->note), t->no_device_reason);
	} else if (!t->block_dev[0]) {
		add_from_ioctl(w, path, t);
	} else {
		if (strcmp(s->fs.type, "btrfs") == 0)
			add_btrfs_devices(w);
		if (s->ntop == 0)
			add_top(w, t->block_dev);
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
	struct walk w = { .root = sysroot ? sysroot : "", .s = out };

	memset(out, 0, sizeof(*out));
	clyde_stack_copy(out->target, sizeof(out->target), path);
	out->nodes = calloc(CLYDE_STACK_MAX_NODES, sizeof(*out->nodes));
	if (!out->nodes)
		return clyde_err(ctx, ENOMEM, "stack of %s", path);
	if (!w.root[0])
		return probe_real(ctx, &w, path);

	/* A fixture tree: the path names a device. */
	if (!sys_exists(w.root, base_name(path), "dev"))
		return clyde_err(ctx, ENOENT, "%s: not in %s/sys/class/block",
				 path, w.root);
	add_top(&w, base_name(path));
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
	if (s->nodes[i].kind != CLYDE_STACK_DM)
		return false;
	for (size_t j = 0; j < s->nnodes; j++) {
		const struct clyde_stack_node *p = &s->nodes[j];

		if (p->kind != CLYDE_STACK_MD)
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
		if (n->kind == CLYDE_STACK_PARTITION &&
		    (n->nchildren == 0 ||
		     s->nodes[n->children[0]].nchildren == 0)) {
			if (count < max)
				names[count] = n->name;
			count++;
			continue;
		}
		if (n->nchildren > 0 || n->kind == CLYDE_STACK_PARTITION)
			continue;
		/* A disk reached only through its partitions is left out:
		 * they stand for it. */
		for (size_t j = 0; j < s->nnodes && !has_disk_child; j++) {
			const struct clyde_stack_node *p = &s->nodes[j];

			if (p->kind != CLYDE_STACK_PARTITION)
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

uint32_t clyde_stack_md_data_disks(const struct clyde_stack_node *n)
{
	uint32_t d = n->raid_disks;

	if (n->kind != CLYDE_STACK_MD || d == 0)
		return 0;
	if (!strcmp(n->md_level, "raid0"))
		return d;
	if (!strcmp(n->md_level, "raid4") || !strcmp(n->md_level, "raid5"))
		return d > 1 ? d - 1 : 0;
	if (!strcmp(n->md_level, "raid6"))
		return d > 2 ? d - 2 : 0;
	if (!strcmp(n->md_level, "raid10")) {
		/* md.rst: layout bits 0-7 near copies, 8-15 far copies. */
		uint32_t copies =
			(n->md_layout & 0xff) * ((n->md_layout >> 8) & 0xff);
		return copies ? d / copies : 0;
	}
	return 0;
}

static bool md_parity(const char *level)
{
	return !strcmp(level, "raid4") || !strcmp(level, "raid5") ||
	       !strcmp(level, "raid6");
}

/* The first striping node found depth-first from node i. */
static int stripe_below(const struct clyde_stack *s, uint32_t i,
			struct clyde_stack_stripe *st, uint64_t *seen)
{
	const struct clyde_stack_node *n = &s->nodes[i];

	if (i >= s->nnodes || (*seen & (1ull << i)))
		return -ENOENT;
	*seen |= 1ull << i;
	if (n->kind == CLYDE_STACK_MD && clyde_stack_md_data_disks(n) &&
	    n->chunk_bytes) {
		memset(st, 0, sizeof(*st));
		clyde_stack_copy(st->layer, sizeof(st->layer), n->name);
		clyde_stack_copy(st->level, sizeof(st->level), n->md_level);
		st->chunk_bytes = n->chunk_bytes;
		st->data_disks = clyde_stack_md_data_disks(n);
		st->disks = n->raid_disks;
		st->stripe_bytes = st->chunk_bytes * st->data_disks;
		st->parity = md_parity(n->md_level);
		return 0;
	}
	if (n->kind == CLYDE_STACK_DM && n->dm_stripes > 1 &&
	    n->dm_stripe_bytes) {
		memset(st, 0, sizeof(*st));
		clyde_stack_copy(st->layer, sizeof(st->layer), n->name);
		clyde_stack_copy(st->level, sizeof(st->level), "striped");
		st->chunk_bytes = n->dm_stripe_bytes;
		st->data_disks = n->dm_stripes;
		st->disks = n->dm_stripes;
		st->stripe_bytes = st->chunk_bytes * st->data_disks;
		return 0;
	}
	for (uint32_t c = 0; c < n->nchildren; c++)
		if (stripe_below(s, n->children[c], st, seen) == 0)
			return 0;
	return -ENOENT;
}

/* btrfs stripes its block groups itself, 64 KiB a device
 * (BTRFS_STRIPE_LEN). */
static int btrfs_stripe(const struct clyde_stack *s,
			struct clyde_stack_stripe *st)
{
	const char *p = s->fs.data_profile;
	uint32_t n = s->fs.num_devices ? s->fs.num_devices : s->ntop;
	uint32_t data = 0;

	if (!strcmp(p, "raid0"))
		data = n;
	else if (!strcmp(p, "raid10"))
		data = n / 2;
	else if (!strcmp(p, "raid5"))
		data = n > 1 ? n - 1 : 0;
	else if (!strcmp(p, "raid6"))
		data = n > 2 ? n - 2 : 0;
	if (data < 1)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	clyde_stack_copy(st->layer, sizeof(st->layer), "btrfs");
	clyde_stack_copy(st->level, sizeof(st->level), p);
	st->chunk_bytes = 64 * 1024;
	st->data_disks = data;
	st->disks = n;
	st->stripe_bytes = st->chunk_bytes * data;
	st->parity = !strcmp(p, "raid5") || !strcmp(p, "raid6");
	return 0;
}

int clyde_stack_stripe(const struct clyde_stack *s,
		       struct clyde_stack_stripe *st)
{
	if (s->has_fs && !strcmp(s->fs.type, "btrfs"))
		return btrfs_stripe(s, st);
	uint64_t seen = 0;

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
