/*
 * A partition: its number and start, the request queue of its disk (a
 * partition has none of its own) and the disk as its one child.  The
 * disk is found by looking for DISK/PART/partition under every block
 * device rather than by following the sysfs symlinks, so that a fixture
 * tree of plain files and directories reads the same as the kernel's.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

static bool part_claims(const char *root, const char *dev)
{
	return clyde_stack_sys_exists(root, dev, "partition");
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
		if (clyde_stack_sys_exists(root, e->d_name, attr)) {
			clyde_stack_copy(out, n, e->d_name);
			rc = 0;
			break;
		}
	}
	closedir(d);
	return rc;
}

static void part_read(const char *root, struct clyde_stack_node *n)
{
	uint64_t sectors;

	(void)clyde_sysfs_u32(root, n->name, "partition", &n->partition);
	if (clyde_sysfs_u64(root, n->name, "start", &sectors) == 0)
		n->start_bytes = sectors * 512;
}

static void part_queue(const char *root, struct clyde_stack_node *n)
{
	char disk[64];

	if (partition_disk(root, n->name, disk, sizeof(disk)) == 0)
		clyde_stack_read_queue(root, disk, n);
}

static void part_children(struct clyde_stack_walk *w, size_t idx)
{
	char disk[64];

	if (partition_disk(w->root, w->s->nodes[idx].name, disk,
			   sizeof(disk)) == 0)
		(void)clyde_stack_add_child(w, idx, disk);
}

static void part_text(FILE *f, const struct clyde_stack_node *n)
{
	char a[32];

	fprintf(f, " %u, start %s (sector %" PRIu64 ")", n->partition,
		clyde_stack_fmt_bytes(a, sizeof(a), n->start_bytes),
		n->start_bytes / 512);
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_node, member)
static const struct clyde_stack_field part_fields[] = {
	F("partition", U32, partition),
	F("start_bytes", U64, start_bytes),
};

const struct clyde_stack_kind clyde_stack_partition = {
	.name = "partition",
	.claims = part_claims,
	.read = part_read,
	.queue = part_queue,
	.children = part_children,
	.fields = part_fields,
	.nfields = CLYDE_STACK_NFIELDS(part_fields),
	.text = part_text,
};
