/*
 * The filesystem's own geometry: what stripe it was made for and where
 * its journal or log lives.
 *
 *   ext2/3/4  the superblock, read from the device (1024 bytes at offset
 *             1024; field offsets from the kernel's ext4 on-disk format,
 *             Documentation/filesystems/ext4/super.rst).  Opening the
 *             device needs root; without it the note says so.
 *   xfs       XFS_IOC_FSGEOMETRY on the mount point (<xfs/xfs_fs.h>,
 *             xfslibs-dev; any user may ask), logbsize= and logdev= from
 *             the mount options.
 *   btrfs     BTRFS_IOC_FS_INFO and BTRFS_IOC_SPACE_INFO on the mount
 *             point (<linux/btrfs.h>; any user may ask).
 *
 * libblkid (libblkid-dev), when clyde is built with it, finds the device
 * that holds an ext4 external journal from the journal's UUID.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifdef CLYDE_HAVE_BLKID
#include <blkid/blkid.h>
#endif
#ifdef CLYDE_HAVE_XFS_H
#include <xfs/xfs.h>
#endif

#include "env/stack_sysfs.h"

/* Say in fs->note why the geometry is missing (the first reason wins). */
__attribute__((format(printf, 2, 3))) static void
fs_note(struct clyde_stack_fs *fs, const char *fmt, ...)
{
	va_list ap;

	if (fs->note[0])
		return;
	va_start(ap, fmt);
	vsnprintf(fs->note, sizeof(fs->note), fmt, ap);
	va_end(ap);
}

/* The value of option `key=` in a mount option list ("a,key=v,b"), into
 * out; false when it is not there. */
static bool mount_opt_value(const char *opts, const char *key, char *out,
			    size_t n)
{
	size_t klen = strlen(key);
	const char *p = opts;

	while (p && *p) {
		const char *end = p + strcspn(p, ", |");

		if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0 &&
		    p[klen] == '=') {
			size_t len = (size_t)(end - p) - klen - 1;

			if (len >= n)
				len = n - 1;
			memcpy(out, p + klen + 1, len);
			out[len] = '\0';
			return true;
		}
		p = end + strspn(end, ", |");
	}
	return false;
}

static void uuid_text(const unsigned char *u, char *out, size_t n)
{
	snprintf(out, n,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The kernel name of block device number dev ("8:17" when /sys has
 * none). */
static void dev_name(dev_t dev, char *out, size_t n)
{
	char path[64], link[512];
	ssize_t len;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	len = readlink(path, link, sizeof(link) - 1);
	if (len > 0) {
		const char *s;

		link[len] = '\0';
		s = strrchr(link, '/');
		clyde_stack_copy(out, n, s ? s + 1 : link);
	} else {
		snprintf(out, n, "%u:%u", major(dev), minor(dev));
	}
}

/* Where the external journal with UUID uuid is: libblkid's cache, else
 * the device number the superblock records. */
static void journal_device(struct clyde_stack_fs *fs, uint32_t sb_dev)
{
#ifdef CLYDE_HAVE_BLKID
	char *path = blkid_evaluate_tag("UUID", fs->journal_uuid, NULL);

	if (path) {
		const char *s = strrchr(path, '/');

		clyde_stack_copy(fs->journal_dev, sizeof(fs->journal_dev),
				 s ? s + 1 : path);
		free(path);
		return;
	}
#endif
	/* The kernel stores it with new_encode_dev(). */
	if (sb_dev)
		dev_name(makedev((sb_dev & 0xfff00) >> 8,
				 (sb_dev & 0xff) | ((sb_dev >> 12) & 0xfff00)),
			 fs->journal_dev, sizeof(fs->journal_dev));
}

#define EXT4_SB_MAGIC 0xEF53
#define EXT4_COMPAT_HAS_JOURNAL 0x4
#define EXT4_DEFM_JMODE 0x60

static void ext4_geometry(struct clyde_stack_fs *fs)
{
	unsigned char sb[1024];
	char mode[16];
	int fd = open(fs->source, O_RDONLY | O_CLOEXEC);
	ssize_t got;
	uint32_t jmode;

	if (fd < 0) {
		int e = errno;

		fs_note(fs, "%s superblock of %s not readable: %s%s", fs->type,
			fs->source, strerror(e),
			(e == EACCES || e == EPERM) && geteuid() != 0 ?
				" (needs root)" :
				"");
		return;
	}
	got = pread(fd, sb, sizeof(sb), 1024);
	close(fd);
	if (got != (ssize_t)sizeof(sb) || le16(sb + 0x38) != EXT4_SB_MAGIC) {
		fs_note(fs, "%s: no ext2/3/4 superblock at offset 1024",
			fs->source);
		return;
	}
	fs->block_size = 1024u << (le32(sb + 0x18) & 15);
	uuid_text(sb + 0x68, fs->uuid, sizeof(fs->uuid));
	fs->stride_blocks = le16(sb + 0x164);
	fs->stripe_width_blocks = le32(sb + 0x170);
	fs->stripe_unit_bytes = (uint64_t)fs->stride_blocks * fs->block_size;
	fs->stripe_width_bytes =
		(uint64_t)fs->stripe_width_blocks * fs->block_size;
	if (!(le32(sb + 0x5c) & EXT4_COMPAT_HAS_JOURNAL)) {
		fs->journal = CLYDE_JOURNAL_NONE;
	} else if (le32(sb + 0xe0) != 0) { /* s_journal_inum */
		fs->journal = CLYDE_JOURNAL_INTERNAL;
	} else {
		fs->journal = CLYDE_JOURNAL_EXTERNAL;
		uuid_text(sb + 0xd0, fs->journal_uuid,
			  sizeof(fs->journal_uuid));
		journal_device(fs, le32(sb + 0xe4));
	}
	/* data= from the mount, else the superblock's default. */
	if (fs->journal == CLYDE_JOURNAL_NONE)
		return;
	if (mount_opt_value(fs->mount_opts, "data", mode, sizeof(mode))) {
		clyde_stack_copy(fs->data_mode, sizeof(fs->data_mode), mode);
		return;
	}
	jmode = le32(sb + 0x100) & EXT4_DEFM_JMODE;
	clyde_stack_copy(fs->data_mode, sizeof(fs->data_mode),
			 jmode == 0x20 ? "journal" :
			 jmode == 0x60 ? "writeback" :
					 "ordered");
}

/* A size option such as logbsize=256k, in bytes. */
static uint32_t size_opt(const char *opts, const char *key)
{
	char v[32], *end;
	unsigned long n;

	if (!mount_opt_value(opts, key, v, sizeof(v)))
		return 0;
	n = strtoul(v, &end, 10);
	if (*end == 'k' || *end == 'K')
		n *= 1024;
	else if (*end == 'm' || *end == 'M')
		n *= 1024 * 1024;
	return (uint32_t)n;
}

static void xfs_geometry(struct clyde_stack_fs *fs)
{
	char logdev[256];
#ifdef CLYDE_HAVE_XFS_H
	struct xfs_fsop_geom g;
	int fd = open(fs->mount_point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = -1;

	memset(&g, 0, sizeof(g));
	if (fd >= 0) {
		rc = ioctl(fd, XFS_IOC_FSGEOMETRY, &g);
		/* Kernels before 5.1 know only the first version, a prefix
		 * of the current structure. */
		if (rc != 0 && errno == ENOTTY)
			rc = ioctl(fd, XFS_IOC_FSGEOMETRY_V1, &g);
		if (rc != 0)
			fs_note(fs, "XFS_IOC_FSGEOMETRY on %s: %s",
				fs->mount_point, strerror(errno));
		close(fd);
	} else {
		fs_note(fs, "open %s: %s", fs->mount_point, strerror(errno));
	}
	if (rc == 0) {
		fs->block_size = g.blocksize;
		uuid_text(g.uuid, fs->uuid, sizeof(fs->uuid));
		fs->stride_blocks = g.sunit;
		fs->stripe_width_blocks = g.swidth;
		fs->stripe_unit_bytes = (uint64_t)g.sunit * g.blocksize;
		fs->stripe_width_bytes = (uint64_t)g.swidth * g.blocksize;
		fs->log_bytes = (uint64_t)g.logblocks * g.blocksize;
		fs->log_sector_size = g.logsectsize;
		fs->rtextsize_bytes = (uint64_t)g.rtextsize * g.blocksize;
		fs->journal = g.logstart == 0 ? CLYDE_JOURNAL_EXTERNAL :
						CLYDE_JOURNAL_INTERNAL;
	}
#else
	fs_note(fs, "xfs geometry unavailable: clyde was built without "
		    "<xfs/xfs_fs.h> (apt-get install xfslibs-dev)");
#endif
	fs->logbsize = size_opt(fs->mount_opts, "logbsize");
	if (mount_opt_value(fs->mount_opts, "logdev", logdev, sizeof(logdev))) {
		const char *s = strrchr(logdev, '/');
		struct stat st;

		fs->journal = CLYDE_JOURNAL_EXTERNAL;
		if (stat(logdev, &st) == 0 && S_ISBLK(st.st_mode))
			dev_name(st.st_rdev, fs->journal_dev,
				 sizeof(fs->journal_dev));
		else
			clyde_stack_copy(fs->journal_dev,
					 sizeof(fs->journal_dev),
					 s ? s + 1 : logdev);
	}
}

/* The profile named by block group flags (BTRFS_BLOCK_GROUP_*). */
static const char *btrfs_profile(uint64_t flags)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} p[] = {
		{ BTRFS_BLOCK_GROUP_RAID0, "raid0" },
		{ BTRFS_BLOCK_GROUP_RAID1, "raid1" },
		{ BTRFS_BLOCK_GROUP_DUP, "dup" },
		{ BTRFS_BLOCK_GROUP_RAID10, "raid10" },
		{ BTRFS_BLOCK_GROUP_RAID5, "raid5" },
		{ BTRFS_BLOCK_GROUP_RAID6, "raid6" },
		{ BTRFS_BLOCK_GROUP_RAID1C3, "raid1c3" },
		{ BTRFS_BLOCK_GROUP_RAID1C4, "raid1c4" },
	};

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (flags & p[i].bit)
			return p[i].name;
	return "single";
}

static void btrfs_geometry(struct clyde_stack_fs *fs)
{
	struct btrfs_ioctl_fs_info_args info;
	struct btrfs_ioctl_space_args head, *sp = NULL;
	int fd = open(fs->mount_point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		fs_note(fs, "open %s: %s", fs->mount_point, strerror(errno));
		return;
	}
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &info) == 0) {
		uuid_text(info.fsid, fs->uuid, sizeof(fs->uuid));
		fs->num_devices = (uint32_t)info.num_devices;
		fs->block_size = info.sectorsize;
	} else {
		fs_note(fs, "BTRFS_IOC_FS_INFO on %s: %s", fs->mount_point,
			strerror(errno));
	}
	/* First ask how many spaces there are, then for all of them. */
	memset(&head, 0, sizeof(head));
	if (ioctl(fd, BTRFS_IOC_SPACE_INFO, &head) == 0 && head.total_spaces) {
		size_t size =
			sizeof(*sp) + head.total_spaces * sizeof(sp->spaces[0]);

		sp = calloc(1, size);
		if (sp) {
			sp->space_slots = head.total_spaces;
			if (ioctl(fd, BTRFS_IOC_SPACE_INFO, sp) != 0)
				sp->total_spaces = 0;
		}
	}
	for (uint64_t i = 0; sp && i < sp->total_spaces; i++) {
		uint64_t f = sp->spaces[i].flags;
		const char *name = btrfs_profile(f);

		/* mkfs may leave an empty "single" group beside the real
		 * profile: a striped or mirrored one wins. */
		if (!strcmp(name, "single") && sp->spaces[i].used_bytes == 0)
			continue;

		if (f & BTRFS_BLOCK_GROUP_DATA)
			clyde_stack_copy(fs->data_profile,
					 sizeof(fs->data_profile), name);
		else if (f & BTRFS_BLOCK_GROUP_METADATA)
			clyde_stack_copy(fs->metadata_profile,
					 sizeof(fs->metadata_profile), name);
		else if (f & BTRFS_BLOCK_GROUP_SYSTEM)
			clyde_stack_copy(fs->system_profile,
					 sizeof(fs->system_profile), name);
	}
	free(sp);
	close(fd);
}

void clyde_stack_fs_geometry(struct clyde_stack *s)
{
	struct clyde_stack_fs *fs = &s->fs;

	if (!strcmp(fs->type, "ext2") || !strcmp(fs->type, "ext3") ||
	    !strcmp(fs->type, "ext4"))
		ext4_geometry(fs);
	else if (!strcmp(fs->type, "xfs"))
		xfs_geometry(fs);
	else if (!strcmp(fs->type, "btrfs"))
		btrfs_geometry(fs);
}

void clyde_stack_content(struct clyde_stack *s, const char *dev)
{
#ifdef CLYDE_HAVE_BLKID
	blkid_probe pr = blkid_new_probe_from_filename(dev);
	const char *type = NULL;

	s->content[0] = '\0';
	if (!pr)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	if (blkid_do_safeprobe(pr) == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 ||
		    blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0)
			clyde_stack_copy(s->content, sizeof(s->content), type);
	}
	blkid_free_probe(pr);
#else
	(void)dev;
	s->content[0] = '\0';
#endif
}
