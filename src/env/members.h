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

/* What a member is to the filesystem: a data disk, or the device of its
 * external journal (ext4) or log (xfs), which carries only the journal's
 * writes and is never compared with the data disks. */
enum clyde_member_role {
	CLYDE_ROLE_DATA = 0,
	CLYDE_ROLE_JOURNAL, /* ext3/ext4 external journal */
	CLYDE_ROLE_LOG,	    /* xfs external log */
};

/* "data", "journal", "log". */
const char *clyde_member_role_name(enum clyde_member_role r);

/* What one member device did during one test. */
struct clyde_member_io {
	char name[CLYDE_MEMBER_NAME]; /* kernel name: sdb, loop3, vda1 */
	enum clyde_member_role role;
	bool is_top; /* the filesystem sits on it directly */
	/* The disk that stores it: for a loop device the disk holding its
	 * backing file, else its own name; "" when not known.  Members
	 * stored on one disk share its queue: their times are not theirs. */
	char disk[CLYDE_MEMBER_NAME];
	/* Faulty in an md array of the stack at the end of the test
	 * (md/dev-NAME/state): it moves nothing, and is left out of the
	 * balance and slow-member comparisons. */
	bool failed;
	struct clyde_devio io;
};

#define CLYDE_MEMBERS_MAX_MD 8
#define CLYDE_MEMBERS_DEGRADED 128

/* The members of one test, in the watch's order. */
struct clyde_members {
	unsigned n;
	struct clyde_member_io m[CLYDE_MAX_MEMBERS];
	/* An md array of the stack lost members while the test ran (mdadm
	 * --fail, a dying disk): "md0: 0 -> 1 of 4 members missing", the
	 * first such array; "" when none did.  The test's figures are then
	 * of a degraded array. */
	char degraded[CLYDE_MEMBERS_DEGRADED];
};

/* The leaf devices to count and their counters at the start of a test. */
struct clyde_member_watch {
	const char *root; /* sysfs root prefix ("" or NULL: the machine's) */
	unsigned n;
	char name[CLYDE_MAX_MEMBERS][CLYDE_MEMBER_NAME];
	enum clyde_member_role role[CLYDE_MAX_MEMBERS];
	bool is_top[CLYDE_MAX_MEMBERS];
	char disk[CLYDE_MAX_MEMBERS][CLYDE_MEMBER_NAME];
	uint32_t major[CLYDE_MAX_MEMBERS], minor[CLYDE_MAX_MEMBERS]; /* 0:0
								 unknown */
	struct clyde_devstat before[CLYDE_MAX_MEMBERS];
	bool have[CLYDE_MAX_MEMBERS];
	/* The md arrays of the stack (clyde_members_describe), their member
	 * count and how many members each was missing at the start of the
	 * test (md/degraded; unreadable counts as none missing). */
	unsigned nmd;
	char md[CLYDE_MEMBERS_MAX_MD][CLYDE_MEMBER_NAME];
	uint32_t md_disks[CLYDE_MEMBERS_MAX_MD];
	uint64_t md_before[CLYDE_MEMBERS_MAX_MD];
};

/* An empty watch reading sysfs under root (NULL: the machine's). */
void clyde_members_init(struct clyde_member_watch *w, const char *root);

/* Add device `name` (a kernel name such as "sdb" or "loop3") unless it
 * is there already.  Returns 0, or -ENOSPC when the watch is full. */
int clyde_members_add(struct clyde_member_watch *w, const char *name);

struct clyde_virt;
struct clyde_stack;

/*
 * For a run: an empty watch on the machine's sysfs holding the leaves of
 * stack s (clyde_stack_leaves: every disk of a btrfs filesystem, the
 * members of an md array, a loop device), and in *virt the first member
 * that is a virtual disk, or whose loop backing file is on one
 * (is_virtual false when none is).  Each member gets its role (the
 * leaves under the filesystem's external journal or log device and under
 * no data device are that), whether it is one of the stack's top devices,
 * its device number and the disk that stores it.
 */
void clyde_members_setup(struct clyde_member_watch *w,
			 const struct clyde_stack *s, struct clyde_virt *virt);

/* Fill the roles, top marks, device numbers and storing disks of the
 * members of w from stack s, and the list of its md arrays whose
 * md/degraded is read around each test (clyde_members_setup does it;
 * tests call it on a watch filled by hand). */
void clyde_members_describe(struct clyde_member_watch *w,
			    const struct clyde_stack *s);

/* Read every member's counters: the start of a test. */
void clyde_members_begin(struct clyde_member_watch *w);

/* Read them again and put the differences in *out: the end of a test.
 * Members unreadable at either end have have_device false; out->degraded
 * names the first md array missing more members than at the start. */
void clyde_members_end(struct clyde_member_watch *w, struct clyde_members *out);

/* Read one device's counters from <root>/sys/class/block/<name>/stat. */
int clyde_members_stat(const char *root, const char *name,
		       struct clyde_devstat *s);

#endif
