/*
 * A ZFS volume (zvol, /dev/zdN): its name from the BLKZNAME ioctl on the
 * device (what ZFS's own zvol_id asks; no udev link is needed), then what
 * fs_zfs.c reads for a dataset: the volume's properties (zfs get -H -p)
 * and its pool's vdev tree (env/zfs.c).  A zvol has no slaves/: its
 * children are the pool's leaves, the disks its blocks land on.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

/* zfs/zfs_ioctl.h: the volume's name, ZFS_MAX_DATASET_NAME_LEN bytes. */
#define CLYDE_BLKZNAME _IOR(0x12, 125, char[256])

static bool zvol_claims(const char *root, const char *dev)
{
	(void)root;
	if (strncmp(dev, "zd", 2) != 0 || !dev[2])
		return false;
	for (const char *c = dev + 2; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

static void zvol_init(struct clyde_stack_node *n)
{
	n->zfs_ashift = -1;
}

int clyde_stack_zvol_fill(struct clyde_stack_node *n, const char *volume,
			  const struct clyde_zfs_src *src)
{
	struct clyde_stack_fs *fs = calloc(1, sizeof(*fs));
	int rc;

	if (!fs) {
		snprintf(n->note, sizeof(n->note), "zvol: out of memory");
		return -ENOMEM;
	}
	clyde_stack_copy(n->zfs_volume, sizeof(n->zfs_volume), volume);
	snprintf(fs->type, sizeof(fs->type), "zfs");
	clyde_stack_copy(fs->source, sizeof(fs->source), volume);
	rc = clyde_fs_zfs_fill(fs, src);
	clyde_stack_copy(n->zfs_pool, sizeof(n->zfs_pool), fs->zfs_pool);
	clyde_stack_copy(n->zfs_layout, sizeof(n->zfs_layout), fs->zfs_layout);
	clyde_stack_copy(n->zfs_vdevs, sizeof(n->zfs_vdevs), fs->zfs_vdevs);
	clyde_stack_copy(n->zfs_leaves, sizeof(n->zfs_leaves), fs->zfs_leaves);
	n->zfs_ashift = fs->zfs_ashift;
	n->zfs_volblocksize = fs->zfs_volblocksize;
	clyde_stack_copy(n->zfs_compression, sizeof(n->zfs_compression),
			 fs->zfs_compression);
	clyde_stack_copy(n->zfs_compressratio, sizeof(n->zfs_compressratio),
			 fs->zfs_compressratio);
	clyde_stack_copy(n->zfs_checksum, sizeof(n->zfs_checksum),
			 fs->zfs_checksum);
	clyde_stack_copy(n->zfs_sync, sizeof(n->zfs_sync), fs->zfs_sync);
	clyde_stack_copy(n->zfs_primarycache, sizeof(n->zfs_primarycache),
			 fs->zfs_primarycache);
	clyde_stack_copy(n->zfs_logbias, sizeof(n->zfs_logbias),
			 fs->zfs_logbias);
	if (rc == 0 && fs->zfs_recordsize) {
		rc = -EINVAL;
		snprintf(fs->note, sizeof(fs->note),
			 "zfs %s is a filesystem, not a volume", volume);
	}
	if (fs->note[0] && !n->note[0])
		clyde_stack_copy(n->note, sizeof(n->note), fs->note);
	free(fs);
	return rc;
}

static void zvol_read(const char *root, struct clyde_stack_node *n)
{
	char dev[96], name[256] = "";
	int fd;

	if (root[0]) {
		snprintf(n->note, sizeof(n->note),
			 "zvol: no volume name in a fixture tree");
		return;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", n->name);
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(n->note, sizeof(n->note), "zvol: %s: %s%s", dev,
			 strerror(errno),
			 errno == EACCES ? " (needs root)" : "");
		return;
	}
	if (ioctl(fd, CLYDE_BLKZNAME, name) != 0) {
		snprintf(n->note, sizeof(n->note), "zvol: BLKZNAME on %s: %s",
			 dev, strerror(errno));
		close(fd);
		return;
	}
	close(fd);
	name[sizeof(name) - 1] = '\0';
	(void)clyde_stack_zvol_fill(n, name, NULL);
}

/* The pool's leaves (not its spares) are the devices below. */
static void zvol_children(struct clyde_stack_walk *w, size_t idx)
{
	char list[sizeof(w->s->nodes[idx].zfs_leaves)], *save = NULL;

	clyde_stack_copy(list, sizeof(list), w->s->nodes[idx].zfs_leaves);
	for (char *d = strtok_r(list, " ", &save); d;
	     d = strtok_r(NULL, " ", &save))
		(void)clyde_stack_add_child(w, idx, d);
}

static void zvol_text(FILE *f, const struct clyde_stack_node *n)
{
	fprintf(f, " %s, pool %s (%s): %s",
		n->zfs_volume[0] ? n->zfs_volume : "?",
		n->zfs_pool[0] ? n->zfs_pool : "?",
		n->zfs_layout[0] ? n->zfs_layout : "?",
		n->zfs_vdevs[0] ? n->zfs_vdevs : "?");
	fprintf(f,
		"; volblocksize %" PRIu64 ", compression %s (ratio %s), "
		"checksum %s, sync %s, primarycache %s, logbias %s",
		n->zfs_volblocksize, n->zfs_compression, n->zfs_compressratio,
		n->zfs_checksum, n->zfs_sync, n->zfs_primarycache,
		n->zfs_logbias);
}

static void get_layout(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%s", n->zfs_layout);
}

static void get_volblocksize(const struct clyde_stack_node *n, char *b,
			     size_t l)
{
	snprintf(b, l, "%" PRIu64, n->zfs_volblocksize);
}

static void get_compression(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%s", n->zfs_compression);
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_node, member)
static const struct clyde_stack_field zvol_fields[] = {
	F("zfs_volume", STR, zfs_volume),
	F("zfs_pool", STR, zfs_pool),
	F("zfs_layout", STR, zfs_layout),
	F("zfs_vdevs", STR, zfs_vdevs),
	F("zfs_ashift", INT, zfs_ashift),
	F("zfs_volblocksize", U64, zfs_volblocksize),
	F("zfs_compression", STR, zfs_compression),
	F("zfs_compressratio", STR, zfs_compressratio),
	F("zfs_checksum", STR, zfs_checksum),
	F("zfs_sync", STR, zfs_sync),
	F("zfs_primarycache", STR, zfs_primarycache),
	F("zfs_logbias", STR, zfs_logbias),
};

static const struct clyde_stack_node_fact zvol_facts[] = {
	{ "zvol layout", get_layout },
	{ "zvol volblocksize", get_volblocksize },
	{ "zvol compression", get_compression },
};

const struct clyde_stack_kind clyde_stack_zvol = {
	.name = "zvol",
	.claims = zvol_claims,
	.init = zvol_init,
	.read = zvol_read,
	.children = zvol_children,
	.fields = zvol_fields,
	.nfields = CLYDE_STACK_NFIELDS(zvol_fields),
	.text = zvol_text,
	.own_queue = true,
	.facts = zvol_facts,
	.nfacts = CLYDE_STACK_NFIELDS(zvol_facts),
};
