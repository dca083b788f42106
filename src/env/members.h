/*
 * Every member disk, every test: the leaf devices under a target (the
 * disks of a btrfs filesystem, the members of an md array or a dm table,
 * down to devices with no slaves) and what each of them read and wrote
 * during one test, from /sys/class/block/<dev>/stat before and after.
 *
 * A watch is filled once per run (clyde_members_find, or clyde_members_add
 * for a list from the stack walker) and then snapshotted around every test
 * (clyde_members_begin / clyde_members_end).  Nothing here fails a run: a
 * device whose counters cannot be read is left out of the deltas.
 */
#ifndef CLYDE_ENV_MEMBERS_H
#define CLYDE_ENV_MEMBERS_H

#include <stdbool.h>
#include <stdint.h>

#include "env/env.h"

#define CLYDE_MAX_MEMBERS 16
#define CLYDE_MEMBER_NAME 32

/* What one member device did during one test. */
struct clyde_member_io {
	char name[CLYDE_MEMBER_NAME]; /* kernel name: sdb, loop3, vda1 */
	struct clyde_devio io;
};

/* The members of one test, in the watch's order. */
struct clyde_members {
	unsigned n;
	struct clyde_member_io m[CLYDE_MAX_MEMBERS];
};

/* The leaf devices to count and their counters at the start of a test. */
struct clyde_member_watch {
	const char *root; /* sysfs root prefix ("" or NULL: the machine's) */
	unsigned n;
	char name[CLYDE_MAX_MEMBERS][CLYDE_MEMBER_NAME];
	struct clyde_devstat before[CLYDE_MAX_MEMBERS];
	bool have[CLYDE_MAX_MEMBERS];
};

/* The stripe the members are written in, when the stack knows it (md
 * RAID 4/5/6, btrfs raid5/6, dm-striped): what a partial-stripe write is. */
struct clyde_stripe_geom {
	uint64_t chunk_bytes; /* stripe unit; 0 unknown */
	unsigned data_disks;  /* disks holding data in one stripe; 0 unknown */
	char what[64];	      /* "md0 raid5", "btrfs raid5" */
};

/* An empty watch reading sysfs under root (NULL: the machine's). */
void clyde_members_init(struct clyde_member_watch *w, const char *root);

/*
 * Add device `name` (a kernel name such as "md0" or "sdb1") and, in its
 * place, the leaves below it: a device with entries in
 * /sys/class/block/<name>/slaves is replaced by them, recursively.  A name
 * already in the watch is not added twice.  Returns 0, or -ENOSPC when the
 * watch is full (the devices added so far stay).
 */
int clyde_members_add(struct clyde_member_watch *w, const char *name);

/*
 * Fill the watch with the leaves under target t: for btrfs every device
 * of the filesystem (/sys/fs/btrfs/<fsid>/devices), else t->block_dev;
 * then the leaves below each.  Returns 0 (possibly with no member: no
 * block device) or -ENOSPC.
 */
int clyde_members_find(struct clyde_member_watch *w,
		       const struct clyde_target *t);

struct clyde_virt;

/*
 * For a run: an empty watch on the machine's sysfs filled with the leaves
 * under target t (clyde_members_find), and in *virt the first member that
 * is a virtual disk (is_virtual false when none is).
 */
void clyde_members_setup_target(struct clyde_member_watch *w,
				const struct clyde_target *t,
				struct clyde_virt *virt);

/* Read every member's counters: the start of a test. */
void clyde_members_begin(struct clyde_member_watch *w);

/* Read them again and put the differences in *out: the end of a test.
 * Members unreadable at either end have have_device false. */
void clyde_members_end(struct clyde_member_watch *w, struct clyde_members *out);

/* Read one device's counters from <root>/sys/class/block/<name>/stat. */
int clyde_members_stat(const char *root, const char *name,
		       struct clyde_devstat *s);

#endif
