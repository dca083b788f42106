/*
 * btrfs: BTRFS_IOC_FS_INFO and BTRFS_IOC_SPACE_INFO on the mount point
 * (<linux/btrfs.h>; any user may ask): UUID, sector size, devices and the
 * data, metadata and system profiles.  A btrfs filesystem sits on all of
 * its devices (/sys/fs/btrfs/UUID/devices/) and stripes over them itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

static bool btrfs_claims(const char *type)
{
	return !strcmp(type, "btrfs");
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

static void btrfs_read(struct clyde_stack_fs *fs)
{
	struct btrfs_ioctl_fs_info_args info;
	struct btrfs_ioctl_space_args head, *sp = NULL;
	int fd = open(fs->mount_point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		clyde_stack_fs_note(fs, "open %s: %s", fs->mount_point,
				    strerror(errno));
		return;
	}
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &info) == 0) {
		clyde_stack_uuid_text(info.fsid, fs->uuid, sizeof(fs->uuid));
		fs->num_devices = (uint32_t)info.num_devices;
		fs->block_size = info.sectorsize;
	} else {
		clyde_stack_fs_note(fs, "BTRFS_IOC_FS_INFO on %s: %s",
				    fs->mount_point, strerror(errno));
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

/* The devices of the filesystem: /sys/fs/btrfs/UUID/devices/. */
static void btrfs_devices(struct clyde_stack_walk *w)
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
			clyde_stack_add_top(w, list[i]->d_name);
		free(list[i]);
	}
	free(list);
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

static void btrfs_text(FILE *f, const struct clyde_stack_fs *fs)
{
	fprintf(f, "  profiles: data %s, metadata %s, system %s; %u devices\n",
		fs->data_profile[0] ? fs->data_profile : "?",
		fs->metadata_profile[0] ? fs->metadata_profile : "?",
		fs->system_profile[0] ? fs->system_profile : "?",
		fs->num_devices);
}

static void get_data(const struct clyde_stack_fs *fs, char *b, size_t l)
{
	snprintf(b, l, "%s", fs->data_profile);
}

static void get_metadata(const struct clyde_stack_fs *fs, char *b, size_t l)
{
	snprintf(b, l, "%s", fs->metadata_profile);
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_fs, member)
static const struct clyde_stack_field btrfs_fields[] = {
	F("data_profile", STR, data_profile),
	F("metadata_profile", STR, metadata_profile),
	F("system_profile", STR, system_profile),
	F("num_devices", U32, num_devices),
};

static const struct clyde_stack_fs_fact btrfs_facts[] = {
	{ "data profile", get_data },
	{ "metadata profile", get_metadata },
};

const struct clyde_stack_fs_kind clyde_fs_btrfs = {
	.name = "btrfs",
	.claims = btrfs_claims,
	.read = btrfs_read,
	.devices = btrfs_devices,
	.stripe = btrfs_stripe,
	.fields = btrfs_fields,
	.nfields = CLYDE_STACK_NFIELDS(btrfs_fields),
	.fields_everywhere = true,
	.text = btrfs_text,
	.facts = btrfs_facts,
	.nfacts = CLYDE_STACK_NFIELDS(btrfs_facts),
};
