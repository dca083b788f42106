/*
 * ext2, ext3 and ext4: the superblock, read from the device (1024 bytes
 * at offset 1024; field offsets from the kernel's ext4 on-disk format,
 * Documentation/filesystems/ext4/super.rst): block size, UUID, stride and
 * stripe width, where the journal is, and data= from the mount or the
 * superblock's default.  Opening the device needs root; without it the
 * note says so.  libblkid (libblkid-dev), when clyde is built with it,
 * finds the device that holds an external journal from its UUID.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifdef CLYDE_HAVE_BLKID
#include <blkid/blkid.h>
#endif

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

static bool ext4_claims(const char *type)
{
	return !strcmp(type, "ext2") || !strcmp(type, "ext3") ||
	       !strcmp(type, "ext4");
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
		clyde_stack_dev_name(
			makedev((sb_dev & 0xfff00) >> 8,
				(sb_dev & 0xff) | ((sb_dev >> 12) & 0xfff00)),
			fs->journal_dev, sizeof(fs->journal_dev));
}

#define EXT4_SB_MAGIC 0xEF53
#define EXT4_COMPAT_HAS_JOURNAL 0x4
#define EXT4_DEFM_JMODE 0x60

static void ext4_read(struct clyde_stack_fs *fs)
{
	unsigned char sb[1024];
	char mode[16];
	int fd = open(fs->source, O_RDONLY | O_CLOEXEC);
	ssize_t got;
	uint32_t jmode;

	if (fd < 0) {
		int e = errno;

		clyde_stack_fs_note(
			fs, "%s superblock of %s not readable: %s%s", fs->type,
			fs->source, strerror(e),
			(e == EACCES || e == EPERM) && geteuid() != 0 ?
				" (needs root)" :
				"");
		return;
	}
	got = pread(fd, sb, sizeof(sb), 1024);
	close(fd);
	if (got != (ssize_t)sizeof(sb) || le16(sb + 0x38) != EXT4_SB_MAGIC) {
		clyde_stack_fs_note(fs,
				    "%s: no ext2/3/4 superblock at offset 1024",
				    fs->source);
		return;
	}
	fs->block_size = 1024u << (le32(sb + 0x18) & 15);
	clyde_stack_uuid_text(sb + 0x68, fs->uuid, sizeof(fs->uuid));
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
		clyde_stack_uuid_text(sb + 0xd0, fs->journal_uuid,
				      sizeof(fs->journal_uuid));
		journal_device(fs, le32(sb + 0xe4));
	}
	/* data= from the mount, else the superblock's default. */
	if (fs->journal == CLYDE_JOURNAL_NONE)
		return;
	if (clyde_stack_mount_opt(fs->mount_opts, "data", mode, sizeof(mode))) {
		clyde_stack_copy(fs->data_mode, sizeof(fs->data_mode), mode);
		return;
	}
	jmode = le32(sb + 0x100) & EXT4_DEFM_JMODE;
	clyde_stack_copy(fs->data_mode, sizeof(fs->data_mode),
			 jmode == 0x20 ? "journal" :
			 jmode == 0x60 ? "writeback" :
					 "ordered");
}

static void ext4_text(FILE *f, const struct clyde_stack_fs *fs)
{
	char a[32], b[32];

	if (!fs->block_size)
		return;
	fprintf(f, "  stride %u (%s), stripe_width %u (%s)\n",
		fs->stride_blocks,
		clyde_stack_fmt_bytes(a, sizeof(a), fs->stripe_unit_bytes),
		fs->stripe_width_blocks,
		clyde_stack_fmt_bytes(b, sizeof(b), fs->stripe_width_bytes));
}

static void get_data_mode(const struct clyde_stack_fs *fs, char *b, size_t l)
{
	snprintf(b, l, "%s", fs->data_mode);
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_fs, member)
static const struct clyde_stack_field ext4_fields[] = {
	F("journal_uuid", STR, journal_uuid),
	F("data_mode", STR, data_mode),
};

static const struct clyde_stack_fs_fact ext4_facts[] = {
	{ "data mode", get_data_mode },
};

const struct clyde_stack_fs_kind clyde_fs_ext4 = {
	.name = "ext4",
	.claims = ext4_claims,
	.read = ext4_read,
	.fields = ext4_fields,
	.nfields = CLYDE_STACK_NFIELDS(ext4_fields),
	.fields_everywhere = true,
	.text = ext4_text,
	.facts = ext4_facts,
	.nfacts = CLYDE_STACK_NFIELDS(ext4_facts),
};
