/*
 * The checks behind `clyde stack --advise`.  Each check is one function
 * over the stack that adds zero or more findings; the table at the bottom
 * runs them in order, and the list is then sorted most severe first
 * (stably, so findings of one severity keep the table's order).
 *
 * The numbers the advice quotes come from the kernel's own attributes:
 * md's chunk_size and raid_disks (Documentation/admin-guide/md.rst), the
 * dm table, the queue's read_ahead_kb and write_cache
 * (Documentation/ABI/stable/sysfs-block), the filesystem's superblock.
 */
#include "env/advise.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "env/stack_probe.h"
#include "env/zfs.h"

/* md's stripe_cache_size when nobody set it (drivers/md/raid5.h,
 * NR_STRIPES). */
#define MD_STRIPE_CACHE_DEFAULT 256

const char *clyde_advice_severity_name(enum clyde_advice_severity s)
{
	switch (s) {
	case CLYDE_ADVICE_INFO:
		return "info";
	case CLYDE_ADVICE_WARN:
		return "warning";
	case CLYDE_ADVICE_BAD:
		return "bad";
	}
	return "info";
}

__attribute__((format(printf, 5, 6))) static struct clyde_advice *
add(struct clyde_advice_list *l, enum clyde_advice_severity sev, const char *id,
    const char *layer, const char *fmt, ...)
{
	struct clyde_advice *a;
	va_list ap;

	if (l->n >= CLYDE_ADVICE_MAX)
		return NULL;
	a = &l->items[l->n++];
	memset(a, 0, sizeof(*a));
	a->severity = sev;
	snprintf(a->id, sizeof(a->id), "%s", id);
	snprintf(a->layer, sizeof(a->layer), "%s", layer);
	va_start(ap, fmt);
	vsnprintf(a->text, sizeof(a->text), fmt, ap);
	va_end(ap);
	return a;
}

__attribute__((format(printf, 2, 3))) static void fix(struct clyde_advice *a,
						      const char *fmt, ...)
{
	va_list ap;

	if (!a)
		return;
	va_start(ap, fmt);
	vsnprintf(a->fix, sizeof(a->fix), fmt, ap);
	va_end(ap);
}

/* Buffers for the sizes one message quotes: each sz() or sz_opt() call
 * takes the next, so several can appear in one printf. */
struct sizes {
	char buf[6][32];
	unsigned next;
};

/* Human bytes, exact units where whole ("512 KiB", "1.50 MiB"). */
static const char *sz(struct sizes *z, uint64_t bytes)
{
	char *b = z->buf[z->next++ % 6];

	return clyde_stack_fmt_bytes(b, sizeof(z->buf[0]), bytes);
}

/* A size for mkfs.xfs/lvcreate/pvcreate: "512k", "1536k", "4m". */
static const char *sz_opt(struct sizes *z, uint64_t bytes)
{
	char *b = z->buf[z->next++ % 6];

	if (bytes % (1024 * 1024) == 0)
		snprintf(b, sizeof(z->buf[0]), "%llum",
			 (unsigned long long)(bytes >> 20));
	else
		snprintf(b, sizeof(z->buf[0]), "%lluk",
			 (unsigned long long)(bytes >> 10));
	return b;
}

static bool is_ext(const char *type)
{
	return !strcmp(type, "ext2") || !strcmp(type, "ext3") ||
	       !strcmp(type, "ext4");
}

/* The device name of the filesystem's source ("/dev/md0" -> "/dev/md0";
 * "" -> "DEVICE"), for commands. */
static const char *fs_dev(const struct clyde_stack *s)
{
	return s->has_fs && s->fs.source[0] == '/' ? s->fs.source : "DEVICE";
}

static const char *fs_mnt(const struct clyde_stack *s)
{
	return s->has_fs && s->fs.mount_point[0] ? s->fs.mount_point :
						   "MOUNTPOINT";
}

/* The per-mount options (before " | ") contain option `opt` whole. */
static bool mount_has(const struct clyde_stack *s, const char *opt)
{
	const char *p = s->fs.mount_opts;
	size_t n = strlen(opt);

	while (*p) {
		size_t len = strcspn(p, ", |");

		if (len == n && !strncmp(p, opt, n))
			return true;
		p += len;
		p += strspn(p, ", |");
	}
	return false;
}

/* 1. The filesystem's stripe unit and width against the array's. */
static void check_fs_stripe(const struct clyde_stack *s,
			    const struct clyde_stack_stripe *st,
			    struct clyde_advice_list *l)
{
	struct sizes z = { .next = 0 };
	const struct clyde_stack_fs *fs = &s->fs;
	struct clyde_advice *a;
	bool ext = is_ext(fs->type), xfs = !strcmp(fs->type, "xfs");

	if (!s->has_fs || (!ext && !xfs) || !st->chunk_bytes ||
	    !strcmp(st->layer, "btrfs"))
		return;
	if (!fs->block_size) {
		add(l, CLYDE_ADVICE_INFO, "fs-stripe", "filesystem",
		    "%s sits on %s (%s, stripe %s x %u data disks) but its "
		    "stripe geometry could not be read%s%s",
		    fs->type, st->layer, st->level, sz(&z, st->chunk_bytes),
		    st->data_disks, fs->note[0] ? ": " : "", fs->note);
		return;
	}
	if (fs->stripe_unit_bytes == st->chunk_bytes &&
	    fs->stripe_width_bytes == st->stripe_bytes)
		return;
	a = add(l, CLYDE_ADVICE_WARN, "fs-stripe", "filesystem",
		"%s was made for a stripe unit of %s and width %s, but %s is "
		"%s with chunk %s x %u data disks = %s: allocation and "
		"writeback do not line up with full stripes%s",
		fs->type, sz(&z, fs->stripe_unit_bytes),
		sz(&z, fs->stripe_width_bytes), st->layer, st->level,
		sz(&z, st->chunk_bytes), st->data_disks,
		sz(&z, st->stripe_bytes),
		st->parity ? ", so partial-stripe writes read before they "
			     "write" :
			     "");
	if (ext && st->chunk_bytes % fs->block_size == 0) {
		unsigned stride = (unsigned)(st->chunk_bytes / fs->block_size);

		fix(a,
		    "mkfs.ext4 -E stride=%u,stripe_width=%u %s (or, keeping "
		    "the data: tune2fs -E stride=%u,stripe_width=%u %s)",
		    stride, stride * st->data_disks, fs_dev(s), stride,
		    stride * st->data_disks, fs_dev(s));
	} else if (xfs) {
		fix(a, "mkfs.xfs -d su=%s,sw=%u %s",
		    sz_opt(&z, st->chunk_bytes), st->data_disks, fs_dev(s));
	}
}

/* The stripe at or below node i; false when nothing there stripes. */
static bool stripe_of(const struct clyde_stack *s, uint32_t i,
		      struct clyde_stack_stripe *st)
{
	struct clyde_stack sub = *s;

	/* clyde_stack_stripe() starts at the tops: start it at i. */
	sub.has_fs = false;
	sub.ntop = 1;
	sub.top[0] = i;
	return clyde_stack_stripe(&sub, st) == 0;
}

/* A start for a partition that was at `start`: the first multiple of
 * `unit` at or after it and at or after 1 MiB (where partitioning tools
 * start by default). */
static uint64_t aligned_start(uint64_t start, uint64_t unit)
{
	uint64_t at = start > (1u << 20) ? start : (1u << 20);

	return (at + unit - 1) / unit * unit;
}

/* 2. Partitions and LVs must start on a stripe boundary of what they
 * are carved from, and partitions of disks on a physical block. */
static void check_alignment(const struct clyde_stack *s,
			    struct clyde_advice_list *l)
{
	struct sizes z = { .next = 0 };
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *n = &s->nodes[i];
		struct clyde_stack_stripe st;
		struct clyde_advice *a;

		if (n->nchildren == 0)
			continue;
		if (n->kind == &clyde_stack_partition) {
			const struct clyde_stack_node *d =
				&s->nodes[n->children[0]];
			uint64_t unit = 0;
			const char *what = "";

			if (stripe_of(s, n->children[0], &st)) {
				unit = st.stripe_bytes;
				what = "full stripe";
			} else if (n->physical_block_size > 512) {
				unit = n->physical_block_size;
				what = "physical block";
			}
			if (!unit || n->start_bytes % unit == 0)
				continue;
			a = add(l, CLYDE_ADVICE_WARN, "part-align", n->name,
				"partition %s starts at %s (sector %llu), not "
				"on a multiple of %s's %s (%s): writes "
				"straddle two %ss",
				n->name, sz(&z, n->start_bytes),
				(unsigned long long)(n->start_bytes / 512),
				d->name, what, sz(&z, unit), what);
			fix(a,
			    "recreate it starting on a multiple of %s, e.g. "
			    "parted /dev/%s mkpart primary %lluKiB 100%%",
			    sz(&z, unit), d->name,
			    (unsigned long long)(aligned_start(n->start_bytes,
							       unit) >>
						 10));
			continue;
		}
		if (n->kind != &clyde_stack_dm)
			continue;
		/* A linear LV on a striped array: its start on the PV. */
		if (!strcmp(n->dm_target, "linear") &&
		    stripe_of(s, n->children[0], &st) &&
		    n->dm_start_bytes % st.stripe_bytes != 0) {
			a = add(l, CLYDE_ADVICE_WARN, "lv-align", n->name,
				"%s (%s) starts at %s on %s, not on a multiple "
				"of its full stripe (%s)",
				n->name, n->dm_name, sz(&z, n->dm_start_bytes),
				s->nodes[n->children[0]].name,
				sz(&z, st.stripe_bytes));
			fix(a,
			    "pvcreate --dataalignment %s /dev/%s (and extents "
			    "that are multiples of it: vgcreate -s %s)",
			    sz_opt(&z, st.stripe_bytes),
			    s->nodes[n->children[0]].name,
			    sz_opt(&z, st.stripe_bytes));
		}
		/* A striped LV over arrays: each LV chunk should be whole
		 * stripes of the array below. */
		if (!strcmp(n->dm_target, "striped") && n->dm_stripe_bytes) {
			for (uint32_t c = 0; c < n->nchildren; c++) {
				if (!stripe_of(s, n->children[c], &st) ||
				    n->dm_stripe_bytes % st.stripe_bytes == 0)
					continue;
				a = add(l, CLYDE_ADVICE_WARN, "lv-stripe",
					n->name,
					"%s stripes %s chunks over %u devices, "
					"but %s's full stripe is %s: each LV "
					"chunk is a partial-stripe write on %s",
					n->name, sz(&z, n->dm_stripe_bytes),
					n->dm_stripes,
					s->nodes[n->children[c]].name,
					sz(&z, st.stripe_bytes),
					s->nodes[n->children[c]].name);
				fix(a,
				    "lvcreate -i %u -I %s ... (a stripe size "
				    "that is a multiple of %s)",
				    n->dm_stripes, sz_opt(&z, st.stripe_bytes),
				    sz(&z, st.stripe_bytes));
				break;
			}
		}
	}
}

/* 3. md arrays: stripe cache, degraded, resyncing. */
static void check_md(const struct clyde_stack *s, struct clyde_advice_list *l)
{
	struct sizes z = { .next = 0 };
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *n = &s->nodes[i];
		struct clyde_advice *a;
		bool parity;

		if (n->kind != &clyde_stack_md)
			continue;
		parity = !strcmp(n->md_level, "raid4") ||
			 !strcmp(n->md_level, "raid5") ||
			 !strcmp(n->md_level, "raid6");
		if (n->degraded) {
			a = add(l, CLYDE_ADVICE_BAD, "md-degraded", n->name,
				"%s is degraded: %u of %u members missing; "
				"results measure the array rebuilding data "
				"from %s, not the healthy array",
				n->name, n->degraded, n->raid_disks,
				parity ? "parity" : "the remaining copies");
			fix(a, "mdadm --manage /dev/%s --add /dev/NEWDISK",
			    n->name);
		}
		if (n->sync_action[0] && strcmp(n->sync_action, "idle") &&
		    strcmp(n->sync_action, "frozen")) {
			a = add(l, CLYDE_ADVICE_WARN, "md-sync", n->name,
				"%s is busy with %s: the members serve it and "
				"the test at once, so results during it are "
				"lower than the array's",
				n->name, n->sync_action);
			fix(a, "mdadm --wait /dev/%s (then measure)", n->name);
		}
		if (parity && n->stripe_cache_size == MD_STRIPE_CACHE_DEFAULT) {
			a = add(l, CLYDE_ADVICE_WARN, "md-stripe-cache",
				n->name,
				"%s's stripe_cache_size is the kernel default "
				"(%u): too few stripes to gather full-stripe "
				"writes of streaming I/O; 4096 costs %s of "
				"memory",
				n->name, MD_STRIPE_CACHE_DEFAULT,
				sz(&z, 4096ull * 4096 * n->raid_disks));
			fix(a, "echo 4096 > /sys/block/%s/md/stripe_cache_size",
			    n->name);
		}
	}
}

/* 4. Read-ahead of the device the filesystem reads through, against a
 * full stripe. */
static void check_read_ahead(const struct clyde_stack *s,
			     const struct clyde_stack_stripe *st,
			     struct clyde_advice_list *l)
{
	struct sizes z = { .next = 0 };
	for (uint32_t t = 0; t < s->ntop && st->stripe_bytes; t++) {
		const struct clyde_stack_node *n = &s->nodes[s->top[t]];
		const char *dev = n->name;
		struct clyde_advice *a;

		if (!strcmp(st->layer, "btrfs"))
			break;
		/* A partition reads ahead with its disk's setting. */
		if (n->kind == &clyde_stack_partition && n->nchildren)
			dev = s->nodes[n->children[0]].name;
		if (!n->read_ahead_kb ||
		    (uint64_t)n->read_ahead_kb * 1024 >= st->stripe_bytes)
			continue;
		a = add(l, CLYDE_ADVICE_WARN, "read-ahead", dev,
			"%s reads ahead %u KiB, less than one full stripe of "
			"%s (%s): sequential reads keep only some members busy",
			dev, n->read_ahead_kb, st->layer,
			sz(&z, st->stripe_bytes));
		fix(a, "echo %llu > /sys/block/%s/queue/read_ahead_kb",
		    (unsigned long long)(st->stripe_bytes * 2 / 1024), dev);
	}
}

/* 5. A volatile write cache below a filesystem that does not flush. */
static void check_write_cache(const struct clyde_stack *s,
			      struct clyde_advice_list *l)
{
	const char *leaves[CLYDE_STACK_MAX_NODES];
	size_t n;

	if (!s->has_fs ||
	    !(mount_has(s, "nobarrier") || mount_has(s, "barrier=0")))
		return;
	n = clyde_stack_leaves(s, leaves, CLYDE_STACK_MAX_NODES);
	for (size_t i = 0; i < n && i < CLYDE_STACK_MAX_NODES; i++) {
		const struct clyde_stack_node *d =
			clyde_stack_find(s, leaves[i]);
		struct clyde_advice *a;

		if (!d || strcmp(d->write_cache, "write back") != 0)
			continue;
		a = add(l, CLYDE_ADVICE_BAD, "write-cache", d->name,
			"%s has a volatile write cache and %s is mounted "
			"without barriers: a power cut loses writes the "
			"filesystem was told were stable, and the figures "
			"are faster than a safe setup",
			d->name, s->fs.mount_point);
		fix(a, "mount -o remount,barrier %s", fs_mnt(s));
		return;
	}
}

/* 6. Members that mix rotational and solid-state disks. */
static void check_rotational(const struct clyde_stack *s,
			     struct clyde_advice_list *l)
{
	const char *rot = NULL, *ssd = NULL;

	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *n = &s->nodes[i];

		if (n->kind != &clyde_stack_disk || n->nchildren)
			continue;
		if (n->rotational == 1 && !rot)
			rot = n->name;
		if (n->rotational == 0 && !ssd)
			ssd = n->name;
	}
	if (rot && ssd) {
		struct clyde_advice *a = add(
			l, CLYDE_ADVICE_WARN, "mixed-rotational", rot,
			"the members mix rotational (%s) and non-rotational "
			"(%s) disks: striped and mirrored I/O runs at the "
			"pace of the slowest",
			rot, ssd);
		fix(a, "build the array from disks of one kind "
		       "(lsblk -d -o NAME,ROTA,MODEL)");
	}
}

/* 7. Mount options that change what a workload measures. */
static void check_mount(const struct clyde_stack *s, unsigned workload,
			struct clyde_advice_list *l)
{
	struct clyde_advice *a;

	if (!s->has_fs || clyde_stack_fs_kind_of(s->fs.type) == &clyde_fs_zfs)
		return; /* ZFS: its atime property (check_zfs) */
	if (mount_has(s, "strictatime") ||
	    (!mount_has(s, "relatime") && !mount_has(s, "noatime") &&
	     s->fs.mount_opts[0] && strcmp(s->fs.type, "tmpfs"))) {
		a = add(l, CLYDE_ADVICE_WARN, "atime", "filesystem",
			"%s is mounted with strictatime: every read and every "
			"file a tree walk opens writes its inode",
			s->fs.mount_point);
		fix(a, "mount -o remount,noatime %s", fs_mnt(s));
	} else if ((workload & CLYDE_ADVISE_TREE) && mount_has(s, "relatime")) {
		a = add(l, CLYDE_ADVICE_INFO, "atime", "filesystem",
			"%s is mounted with relatime: the first walk over a "
			"tree each day writes the inodes it reads; noatime "
			"measures reads only",
			s->fs.mount_point);
		fix(a, "mount -o remount,noatime %s", fs_mnt(s));
	}
	if (clyde_stack_fs_kind_of(s->fs.type) == &clyde_fs_ext4 &&
	    !strcmp(s->fs.data_mode, "journal")) {
		a = add(l, CLYDE_ADVICE_INFO, "data-journal", "filesystem",
			"%s journals data (data=journal): every block is "
			"written twice, so block writes run at about half "
			"the device's speed",
			s->fs.mount_point);
		fix(a, "umount %s && mount -o data=ordered %s %s", fs_mnt(s),
		    fs_dev(s), fs_mnt(s));
	}
}

/* 8. An NFS mount: what the export and the mount's options do to the
 * figures. */
static void check_nfs(const struct clyde_stack *s, struct clyde_advice_list *l)
{
	const struct clyde_stack_fs *fs = &s->fs;
	struct clyde_advice *a;
	struct sizes z = { 0 };

	if (!s->has_fs || clyde_stack_fs_kind_of(fs->type) != &clyde_fs_nfs)
		return;
	if (!strcmp(fs->nfs_export_sync, "async")) {
		a = add(l, CLYDE_ADVICE_BAD, "nfs-async", "export",
			"%s is exported async: the server acknowledges writes "
			"before they are on its disks, so writes and commits "
			"are fast and a server crash loses them",
			fs->nfs_export_dir);
		fix(a,
		    "replace async by sync for %s in /etc/exports, then "
		    "exportfs -ra",
		    fs->nfs_export_dir);
	}
	if (fs->nfs_server_max &&
	    ((fs->nfs_rsize && fs->nfs_rsize < fs->nfs_server_max) ||
	     (fs->nfs_wsize && fs->nfs_wsize < fs->nfs_server_max))) {
		a = add(l, CLYDE_ADVICE_WARN, "nfs-rsize", "filesystem",
			"%s moves at most %s a read and %s a write; the server "
			"takes %s: large transfers need more requests",
			fs->mount_point, sz(&z, fs->nfs_rsize),
			sz(&z, fs->nfs_wsize), sz(&z, fs->nfs_server_max));
		fix(a, "umount %s && mount -o rsize=%u,wsize=%u %s %s",
		    fs->mount_point, fs->nfs_server_max, fs->nfs_server_max,
		    fs->source, fs->mount_point);
	}
	if (!strcmp(fs->nfs_proto, "tcp") && fs->nfs_nconnect <= 1) {
		a = add(l, CLYDE_ADVICE_INFO, "nfs-nconnect", "filesystem",
			"%s uses one TCP connection for every request; "
			"nconnect=N (Linux 5.3 and later) spreads them over N",
			fs->mount_point);
		fix(a, "umount %s && mount -o nconnect=4 %s %s",
		    fs->mount_point, fs->source, fs->mount_point);
	}
	if (!strcmp(fs->nfs_cto, "nocto")) {
		a = add(l, CLYDE_ADVICE_WARN, "nfs-nocto", "filesystem",
			"%s is mounted nocto: a file opened again is not "
			"checked with the server, so reads may come from the "
			"client's cache",
			fs->mount_point);
		fix(a, "umount %s && mount -o cto %s %s", fs->mount_point,
		    fs->source, fs->mount_point);
	}
}

/* 9. An SMB mount: what the share and the mount's options do to the
 * figures.  The kernel's largest (and default) rsize and wsize for SMB
 * 2.1 and later is 4 MiB. */
#define CIFS_MAX_IO (4u << 20)

static void check_cifs(const struct clyde_stack *s, struct clyde_advice_list *l)
{
	const struct clyde_stack_fs *fs = &s->fs;
	struct clyde_advice *a;
	struct sizes z = { 0 };

	if (!s->has_fs || clyde_stack_fs_kind_of(fs->type) != &clyde_fs_cifs)
		return;
	if (!strcmp(fs->cifs_share_sync, "none")) {
		a = add(l, CLYDE_ADVICE_BAD, "smb-flush-ignored", "share",
			"%s is shared with strict sync = no: smbd ignores the "
			"client's flushes, so fsync is fast and a server crash "
			"loses what it acknowledged",
			fs->cifs_share_dir);
		fix(a,
		    "set strict sync = yes in [%s] of %s, then smbcontrol "
		    "smbd reload-config",
		    fs->cifs_share, fs->cifs_conf);
	}
	if (!strcmp(fs->cifs_cache, "loose")) {
		a = add(l, CLYDE_ADVICE_WARN, "smb-cache-loose", "filesystem",
			"%s is mounted cache=loose: reads may come from the "
			"client's cache although the file changed on the server",
			fs->mount_point);
		fix(a, "umount %s && mount -t cifs -o cache=strict %s %s",
		    fs->mount_point, fs->source, fs->mount_point);
	} else if (!strcmp(fs->cifs_cache, "none")) {
		a = add(l, CLYDE_ADVICE_INFO, "smb-cache-none", "filesystem",
			"%s is mounted cache=none: every read and write goes "
			"to the server in requests of the program's size, not "
			"through the client's page cache",
			fs->mount_point);
		fix(a, "umount %s && mount -t cifs -o cache=strict %s %s",
		    fs->mount_point, fs->source, fs->mount_point);
	}
	if (strcmp(fs->cifs_dialect, "1.0") &&
	    ((fs->cifs_rsize && fs->cifs_rsize < CIFS_MAX_IO) ||
	     (fs->cifs_wsize && fs->cifs_wsize < CIFS_MAX_IO))) {
		a = add(l, CLYDE_ADVICE_WARN, "smb-rsize", "filesystem",
			"%s moves at most %s a read and %s a write; SMB %s "
			"takes %s: large transfers need more requests",
			fs->mount_point, sz(&z, fs->cifs_rsize),
			sz(&z, fs->cifs_wsize), fs->cifs_dialect,
			sz(&z, CIFS_MAX_IO));
		fix(a, "umount %s && mount -t cifs -o rsize=%u,wsize=%u %s %s",
		    fs->mount_point, CIFS_MAX_IO, CIFS_MAX_IO, fs->source,
		    fs->mount_point);
	}
	if (!strcmp(fs->cifs_dialect, "1.0")) {
		a = add(l, CLYDE_ADVICE_WARN, "smb-dialect", "filesystem",
			"%s speaks SMB 1.0: one request in flight per "
			"operation and at most 64 KiB a request; SMB 3 "
			"servers take far larger ones",
			fs->mount_point);
		fix(a, "umount %s && mount -t cifs -o vers=3.1.1 %s %s",
		    fs->mount_point, fs->source, fs->mount_point);
	}
}

/*
 * What a raidz vdev of `width` disks and `parity` allocates for one
 * record, as a share of the record: the record is ceil(record / sector)
 * data sectors, each row of (width - parity) data sectors gets `parity`
 * parity sectors, and the whole is rounded up to a multiple of parity + 1
 * sectors (raidz never leaves a gap it could not fill).  The ideal is
 * width / (width - parity); the difference is what the width wastes.
 */
unsigned clyde_advise_rand(uint64_t bytes)
{
	unsigned lg = 0;

	if (!bytes)
		return 0;
	while (lg < 63 && (1ull << lg) < bytes)
		lg++;
	return (lg & 0xffu) << CLYDE_ADVISE_RAND_SHIFT;
}

/*
 * A record at least four times the workload's random requests: ZFS reads
 * and checksums whole records, so each random read of a request fetches
 * a record (the disks read record / request times the bytes asked, the
 * ARC holds the rest), and a random write of less than a record reads
 * the record (unless cached) to write it anew.  Streaming requests of any
 * size are gathered into records and are not concerned.
 */
static void check_zfs_record(const struct clyde_stack_fs *fs, unsigned workload,
			     struct clyde_advice_list *l)
{
	unsigned lg = (workload >> CLYDE_ADVISE_RAND_SHIFT) & 0xffu;
	uint64_t req = lg ? 1ull << lg : 0, rec = fs->zfs_recordsize;
	struct clyde_advice *a;
	struct sizes z = { .next = 0 };

	if (!req || !rec || rec < 4 * req)
		return;
	a = add(l, CLYDE_ADVICE_INFO, "zfs-recordsize", fs->zfs_pool,
		"%s has recordsize %s and the random requests are %s: "
		"each random read fetches and checksums a whole record "
		"(%.0fx the bytes asked from the disks) and a random write "
		"of less than a record rewrites one; a dataset for this "
		"workload takes a recordsize near its request size",
		fs->source, sz(&z, rec), sz(&z, req),
		(double)rec / (double)req);
	fix(a, "zfs set recordsize=%s %s (for files written after it)",
	    sz_opt(&z, req), fs->source);
}

static void check_zfs(const struct clyde_stack *s, unsigned workload,
		      struct clyde_advice_list *l)
{
	const struct clyde_stack_fs *fs = &s->fs;
	struct clyde_advice *a;
	uint32_t phys = 0;
	const char *disk = "";

	if (!s->has_fs || clyde_stack_fs_kind_of(fs->type) != &clyde_fs_zfs)
		return;
	for (uint32_t i = 0; i < s->ntop; i++) {
		const struct clyde_stack_node *n = &s->nodes[s->top[i]];

		if (n->physical_block_size > phys) {
			phys = n->physical_block_size;
			disk = n->name;
		}
	}
	if (fs->zfs_ashift >= 0 && phys > (1u << fs->zfs_ashift)) {
		a = add(l, CLYDE_ADVICE_WARN, "zfs-ashift", fs->zfs_pool,
			"pool %s has ashift %d (%u-byte blocks) but %s has "
			"%u-byte physical sectors: every write of a block "
			"is a read-modify-write in the disk",
			fs->zfs_pool, fs->zfs_ashift, 1u << fs->zfs_ashift,
			disk, phys);
		fix(a,
		    "zpool create -o ashift=%d ... (ashift is fixed "
		    "when a vdev is made)",
		    __builtin_ctz(phys));
	}
	if ((workload & CLYDE_ADVISE_ZEROS) && fs->zfs_compression[0] &&
	    strcmp(fs->zfs_compression, "off")) {
		a = add(l, CLYDE_ADVICE_WARN, "zfs-zeros", fs->zfs_pool,
			"%s compresses (compression=%s): --pattern zeros "
			"writes blocks it shrinks to almost nothing, so the "
			"test measures the compression, not the disks",
			fs->source, fs->zfs_compression);
		fix(a, "--pattern random");
	}
	check_zfs_record(fs, workload, l);
	if (!strcmp(fs->zfs_atime, "on")) {
		a = add(l, CLYDE_ADVICE_WARN, "atime", fs->zfs_pool,
			"%s has atime=on: every read and every file a tree "
			"walk opens writes its access time",
			fs->source);
		fix(a, "zfs set atime=off %s", fs->source);
	}
	if (fs->zfs_raidz_width > fs->zfs_raidz_parity + 1 &&
	    fs->zfs_raidz_parity && fs->zfs_recordsize && fs->zfs_ashift > 0) {
		uint32_t w = fs->zfs_raidz_width, p = fs->zfs_raidz_parity;
		double cost = clyde_zfs_raidz_cost(
			fs->zfs_recordsize, (unsigned)fs->zfs_ashift, w, p);
		double ideal = (double)w / (double)(w - p);

		if (cost > ideal * 1.05) {
			struct sizes z = { 0 };

			a = add(l, CLYDE_ADVICE_INFO, "zfs-raidz-width",
				fs->zfs_pool,
				"raidz%u over %u disks stores a %s record "
				"(ashift %d) in %.0f%% more space than the "
				"data, not the %.0f%% of its parity: the "
				"record does not fill whole rows",
				p, w, sz(&z, fs->zfs_recordsize),
				fs->zfs_ashift, (cost - 1) * 100,
				(ideal - 1) * 100);
			fix(a,
			    "zfs set recordsize=1M %s (or a width whose "
			    "data disks divide the record)",
			    fs->source);
		}
	}
}

/* True when nodes a and b (indexes) reach a common leaf. */
static bool share_leaf(const struct clyde_stack *s, uint32_t a, uint32_t b)
{
	for (uint32_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].nchildren == 0 &&
		    clyde_stack_reaches(s, a, i) &&
		    clyde_stack_reaches(s, b, i))
			return true;
	return false;
}

/* 8. Where the journal or log lives. */
static void check_journal(const struct clyde_stack *s,
			  const struct clyde_stack_stripe *st, bool striped,
			  struct clyde_advice_list *l)
{
	const struct clyde_stack_fs *fs = &s->fs;
	const struct clyde_stack_node *j;
	struct clyde_advice *a;
	bool xfs = !strcmp(fs->type, "xfs");

	if (!s->has_fs)
		return;
	if (fs->journal == CLYDE_JOURNAL_INTERNAL && striped && st->parity) {
		a = add(l, CLYDE_ADVICE_INFO, "journal-parity", "filesystem",
			"the %s is inside the filesystem on %s %s: its small "
			"synchronous writes are partial-stripe writes; an "
			"external %s on a mirror or SSD takes them off the "
			"array",
			xfs ? "log" : "journal", st->level, st->layer,
			xfs ? "log" : "journal");
		if (xfs)
			fix(a,
			    "mkfs.xfs -l logdev=/dev/FASTDEV,size=64m %s "
			    "(mount with -o logdev=/dev/FASTDEV)",
			    fs_dev(s));
		else
			fix(a,
			    "mke2fs -O journal_dev /dev/FASTDEV && "
			    "mkfs.ext4 -J device=/dev/FASTDEV %s",
			    fs_dev(s));
	}
	if (fs->journal != CLYDE_JOURNAL_EXTERNAL || !fs->journal_dev[0])
		return;
	j = clyde_stack_find(s, fs->journal_dev);
	if (!j)
		return;
	for (uint32_t t = 0; t < s->ntop; t++) {
		if (!share_leaf(s, s->top[t], (uint32_t)(j - s->nodes)))
			continue;
		a = add(l, CLYDE_ADVICE_WARN, "journal-shared", j->name,
			"the external %s %s shares a disk with the data "
			"(%s): it gains nothing and adds seeks",
			xfs ? "log" : "journal", j->name,
			s->nodes[s->top[t]].name);
		fix(a, "put the %s on a separate disk or SSD",
		    xfs ? "log" : "journal");
		return;
	}
}

/* 9. Loop devices that read through the backing file's page cache. */
static void check_loop(const struct clyde_stack *s, struct clyde_advice_list *l)
{
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *n = &s->nodes[i];
		struct clyde_advice *a;

		if (n->kind != &clyde_stack_loop || n->dio != 0 ||
		    !n->backing_file[0])
			continue;
		a = add(l, CLYDE_ADVICE_INFO, "loop-dio", n->name,
			"%s has no direct I/O: its reads and writes go through "
			"the page cache of %s, so a 'cold' read may come from "
			"memory",
			n->name, n->backing_file);
		fix(a, "losetup --direct-io=on /dev/%s", n->name);
	}
}

/* Most severe first, keeping the checks' order within a severity (an
 * insertion sort: stable, and there are at most CLYDE_ADVICE_MAX). */
static void sort_by_severity(struct clyde_advice_list *l)
{
	for (size_t i = 1; i < l->n; i++) {
		struct clyde_advice a = l->items[i];
		size_t j = i;

		while (j > 0 && l->items[j - 1].severity < a.severity) {
			l->items[j] = l->items[j - 1];
			j--;
		}
		l->items[j] = a;
	}
}

void clyde_advise(const struct clyde_stack *s, unsigned workload,
		  struct clyde_advice_list *out)
{
	struct clyde_stack_stripe st;
	bool striped = clyde_stack_stripe(s, &st) == 0;

	memset(out, 0, sizeof(*out));
	if (!striped)
		memset(&st, 0, sizeof(st));
	check_md(s, out);
	check_write_cache(s, out);
	if (striped)
		check_fs_stripe(s, &st, out);
	check_alignment(s, out);
	check_read_ahead(s, &st, out);
	check_rotational(s, out);
	check_journal(s, &st, striped, out);
	check_mount(s, workload, out);
	check_zfs(s, workload, out);
	check_loop(s, out);
	check_nfs(s, out);
	check_cifs(s, out);
	sort_by_severity(out);
}
