/*
 * ZFS: the pool, its vdev tree down to each leaf's disk and ashift, the
 * dataset's properties and the ARC's size, all read by env/zfs.c (the
 * zpool and zfs commands, zdb -l, the kstats).  A ZFS dataset has no block
 * device of its own (its mount source is the dataset's name): its devices
 * are the pool's leaves, which become the stack's devices below.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "env/stack_probe.h"
#include "env/stack_sysfs.h"
#include "env/zfs.h"

static bool zfs_claims(const char *type)
{
	return !strcmp(type, "zfs");
}

/* Append "fmt" to buf (of size n), cut short when it is full. */
__attribute__((format(printf, 3, 4))) static void cat(char *buf, size_t n,
						      const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

/* The vdev tree as one line: each top-level vdev "NAME ashift N: leaf
 * leaf", prefixed by its class when it is not the pool's data ("log
 * vdb1 ashift 12: vdb1"), separated by "; ".  A leaf is its disk's kernel
 * name (its path when it has none). */
static void vdev_line(const struct clyde_zfs_pool *p, struct clyde_stack_fs *fs)
{
	fs->zfs_vdevs[0] = '\0';
	fs->zfs_leaves[0] = '\0';
	fs->zfs_ashift = -1;
	for (int i = 0; i < p->n_vdevs; i++) {
		const struct clyde_zfs_vdev *v = &p->vdevs[i];
		const char *leaf = v->dev[0] ? v->dev : v->path;

		if (v->parent < 0) {
			if (fs->zfs_vdevs[0])
				cat(fs->zfs_vdevs, sizeof(fs->zfs_vdevs), "; ");
			if (v->cls != CLYDE_ZFS_CLASS_NORMAL)
				cat(fs->zfs_vdevs, sizeof(fs->zfs_vdevs), "%s ",
				    clyde_zfs_class_name(v->cls));
			cat(fs->zfs_vdevs, sizeof(fs->zfs_vdevs), "%s",
			    v->path[0] ? leaf : v->name);
			if (v->ashift >= 0)
				cat(fs->zfs_vdevs, sizeof(fs->zfs_vdevs),
				    " ashift %d", v->ashift);
			cat(fs->zfs_vdevs, sizeof(fs->zfs_vdevs), ":");
			if (v->cls == CLYDE_ZFS_CLASS_NORMAL &&
			    v->ashift >= 0 &&
			    (fs->zfs_ashift < 0 || v->ashift < fs->zfs_ashift))
				fs->zfs_ashift = v->ashift;
			if (v->cls == CLYDE_ZFS_CLASS_NORMAL &&
			    v->type == CLYDE_ZFS_VDEV_RAIDZ) {
				fs->zfs_raidz_parity = (uint32_t)v->parity;
				fs->zfs_raidz_width = 0;
			}
		}
		if (!v->path[0])
			continue;
		cat(fs->zfs_vdevs, sizeof(fs->zfs_vdevs), " %s", leaf);
		if (v->dev[0] && v->cls != CLYDE_ZFS_CLASS_SPARE)
			cat(fs->zfs_leaves, sizeof(fs->zfs_leaves), "%s%s",
			    fs->zfs_leaves[0] ? " " : "", v->dev);
		if (v->cls == CLYDE_ZFS_CLASS_NORMAL && v->parent >= 0 &&
		    p->vdevs[v->parent].type == CLYDE_ZFS_VDEV_RAIDZ &&
		    p->vdevs[v->parent].parent < 0)
			fs->zfs_raidz_width++;
	}
}

int clyde_fs_zfs_fill(struct clyde_stack_fs *fs,
		      const struct clyde_zfs_src *src)
{
	struct clyde_zfs_pool *p = calloc(1, sizeof(*p));
	struct clyde_zfs_dataset d;
	struct clyde_zfs_arc arc;
	struct clyde_ctx ctx;
	size_t n = strcspn(fs->source, "/");
	int rc;

	if (!p) {
		clyde_stack_fs_note(fs, "zfs: out of memory");
		return -ENOMEM;
	}
	clyde_ctx_init(&ctx);
	snprintf(fs->zfs_pool, sizeof(fs->zfs_pool), "%.*s", (int)n,
		 fs->source);
	rc = clyde_zfs_pool_read(&ctx, src, fs->zfs_pool, p);
	if (rc == 0) {
		clyde_stack_copy(fs->zfs_layout, sizeof(fs->zfs_layout),
				 p->layout);
		vdev_line(p, fs);
	} else {
		clyde_stack_fs_note(fs, "zfs pool %s: %s", fs->zfs_pool,
				    clyde_errmsg(&ctx));
	}
	clyde_err_clear(&ctx);
	memset(&d, 0, sizeof(d));
	if (clyde_zfs_dataset_read(&ctx, src, fs->source, &d) == 0) {
		fs->zfs_recordsize = d.recordsize;
		fs->zfs_volblocksize = d.volblocksize;
		fs->block_size = (uint32_t)(d.recordsize ? d.recordsize :
							   d.volblocksize);
		clyde_stack_copy(fs->zfs_compression,
				 sizeof(fs->zfs_compression), d.compression);
		snprintf(fs->zfs_compressratio, sizeof(fs->zfs_compressratio),
			 "%.2f", d.compressratio);
		clyde_stack_copy(fs->zfs_checksum, sizeof(fs->zfs_checksum),
				 d.checksum);
		clyde_stack_copy(fs->zfs_sync, sizeof(fs->zfs_sync), d.sync);
		clyde_stack_copy(fs->zfs_atime, sizeof(fs->zfs_atime), d.atime);
		clyde_stack_copy(fs->zfs_primarycache,
				 sizeof(fs->zfs_primarycache), d.primarycache);
		clyde_stack_copy(fs->zfs_logbias, sizeof(fs->zfs_logbias),
				 d.logbias);
		clyde_stack_copy(fs->zfs_direct, sizeof(fs->zfs_direct),
				 d.direct);
	} else if (rc == 0) {
		rc = -EIO;
		clyde_stack_fs_note(fs, "zfs dataset %s: %s", fs->source,
				    clyde_errmsg(&ctx));
	}
	clyde_err_clear(&ctx);
	if (clyde_zfs_arc_read(&ctx, src, &arc) == 0) {
		fs->zfs_arc_size = arc.size;
		fs->zfs_arc_max = arc.c_max;
	}
	clyde_ctx_release(&ctx);
	free(p);
	return rc;
}

static void zfs_read(struct clyde_stack_fs *fs)
{
	(void)clyde_fs_zfs_fill(fs, NULL);
}

/* The pool's leaves (not its spares) are the devices below. */
static void zfs_devices(struct clyde_stack_walk *w)
{
	char list[sizeof(w->s->fs.zfs_leaves)], *save = NULL;

	clyde_stack_copy(list, sizeof(list), w->s->fs.zfs_leaves);
	for (char *d = strtok_r(list, " ", &save); d;
	     d = strtok_r(NULL, " ", &save))
		clyde_stack_add_top(w, d);
}

static void zfs_text(FILE *f, const struct clyde_stack_fs *fs)
{
	fprintf(f, "  pool %s (%s): %s\n", fs->zfs_pool,
		fs->zfs_layout[0] ? fs->zfs_layout : "?",
		fs->zfs_vdevs[0] ? fs->zfs_vdevs : "?");
	if (fs->zfs_volblocksize)
		fprintf(f, "  volblocksize %llu",
			(unsigned long long)fs->zfs_volblocksize);
	else
		fprintf(f, "  recordsize %llu",
			(unsigned long long)fs->zfs_recordsize);
	fprintf(f,
		", compression %s (ratio %s), checksum %s, sync %s, "
		"atime %s\n",
		fs->zfs_compression, fs->zfs_compressratio, fs->zfs_checksum,
		fs->zfs_sync, fs->zfs_atime[0] ? fs->zfs_atime : "-");
	fprintf(f, "  primarycache %s, logbias %s, direct %s\n",
		fs->zfs_primarycache, fs->zfs_logbias,
		fs->zfs_direct[0] ? fs->zfs_direct : "-");
	fprintf(f, "  ARC %llu MiB of at most %llu MiB\n",
		(unsigned long long)(fs->zfs_arc_size >> 20),
		(unsigned long long)(fs->zfs_arc_max >> 20));
}

static void get_layout(const struct clyde_stack_fs *fs, char *b, size_t l)
{
	snprintf(b, l, "%s", fs->zfs_layout);
}

static void get_record(const struct clyde_stack_fs *fs, char *b, size_t l)
{
	snprintf(b, l, "%llu",
		 (unsigned long long)(fs->zfs_recordsize ?
					      fs->zfs_recordsize :
					      fs->zfs_volblocksize));
}

static void get_compression(const struct clyde_stack_fs *fs, char *b, size_t l)
{
	snprintf(b, l, "%s", fs->zfs_compression);
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_fs, member)
static const struct clyde_stack_field zfs_fields[] = {
	F("zfs_pool", STR, zfs_pool),
	F("zfs_layout", STR, zfs_layout),
	F("zfs_vdevs", STR, zfs_vdevs),
	F("zfs_ashift", INT, zfs_ashift),
	F("zfs_recordsize", U64, zfs_recordsize),
	F("zfs_volblocksize", U64, zfs_volblocksize),
	F("zfs_compression", STR, zfs_compression),
	F("zfs_compressratio", STR, zfs_compressratio),
	F("zfs_checksum", STR, zfs_checksum),
	F("zfs_sync", STR, zfs_sync),
	F("zfs_atime", STR, zfs_atime),
	F("zfs_primarycache", STR, zfs_primarycache),
	F("zfs_logbias", STR, zfs_logbias),
	F("zfs_direct", STR, zfs_direct),
	F("zfs_arc_size", U64, zfs_arc_size),
	F("zfs_arc_max", U64, zfs_arc_max),
};

static const struct clyde_stack_fs_fact zfs_facts[] = {
	{ "zfs layout", get_layout },
	{ "zfs recordsize", get_record },
	{ "zfs compression", get_compression },
};

const struct clyde_stack_fs_kind clyde_fs_zfs = {
	.name = "zfs",
	.claims = zfs_claims,
	.read = zfs_read,
	.devices = zfs_devices,
	.fields = zfs_fields,
	.nfields = CLYDE_STACK_NFIELDS(zfs_fields),
	.text = zfs_text,
	.facts = zfs_facts,
	.nfacts = CLYDE_STACK_NFIELDS(zfs_facts),
};
