/*
 * The stack probes: what the walker (stack.c) asks of each kind of device
 * and each filesystem, and what the JSON and text output (results/
 * stack_out.c) ask of them.  Like the I/O engines (io/engine.h), every
 * kind is one file that fills one ops struct with designated initialisers
 * and one line in a table (stack_probe.c):
 *
 *   node kinds    probe_part.c probe_md.c probe_dm.c probe_loop.c
 *                 probe_zram.c probe_zvol.c probe_disk.c (disk and other)
 *   filesystems   fs_ext4.c (ext2/3/4) fs_xfs.c fs_btrfs.c fs_nfs.c
 *                 fs_zfs.c fs_cifs.c
 *
 * A kind's own fields live in its member of the union in struct
 * clyde_stack_node (or struct clyde_stack_fs), which only that kind reads
 * and writes; the fields every device has (name, size, the request queue,
 * an md member's slot) are the walker's.  docs/architecture.md shows how
 * to add one.  Nothing here prints except the `text` hooks, which write
 * to the FILE they are given; nothing fails: what cannot be read stays
 * empty and the node's (or filesystem's) note says why.
 */
#ifndef CLYDE_ENV_STACK_PROBE_H
#define CLYDE_ENV_STACK_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "env/stack.h"

/* One JSON field of a kind: its key, its type and where it is in the
 * node (or filesystem) struct.  The writer and the reader use the same
 * table, so they cannot disagree. */
enum clyde_stack_ftype {
	CLYDE_STACK_F_STR,
	CLYDE_STACK_F_U32,
	CLYDE_STACK_F_U64,
	CLYDE_STACK_F_INT, /* int, -1 written as null (unknown / not one) */
};

struct clyde_stack_field {
	const char *key;
	enum clyde_stack_ftype type;
	size_t off, size;
};

#define CLYDE_STACK_FIELD(key, type, st, member)                 \
	{                                                        \
		key, CLYDE_STACK_F_##type, offsetof(st, member), \
			sizeof(((st *)0)->member)                \
	}
#define CLYDE_STACK_NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

/* One line of what tells two stacks apart (clyde_stack_facts): `key`,
 * and the value of one node (or filesystem) written into buf. */
struct clyde_stack_node_fact {
	const char *key;
	void (*get)(const struct clyde_stack_node *n, char *buf, size_t len);
};

/* The walk in progress, for a kind's `children` hook. */
struct clyde_stack_walk {
	const char *root; /* "" or a fixture tree, see env/stack.h */
	struct clyde_stack *s;
};

/* Add device `name` (and everything below it) as a child of node
 * `parent`; returns its index, or -1 (the stack is full, it does not
 * exist, or it would be its own ancestor). */
int clyde_stack_add_child(struct clyde_stack_walk *w, size_t parent,
			  const char *name);
/* Add everything NAME/slaves/ lists as children of node idx, in name
 * order; `each` (or NULL) is called with every slave's index. */
void clyde_stack_add_slaves(struct clyde_stack_walk *w, size_t idx,
			    void (*each)(struct clyde_stack_walk *w,
					 size_t parent, size_t child));
/* Add device `name` as one the filesystem sits on directly. */
void clyde_stack_add_top(struct clyde_stack_walk *w, const char *name);
/* Read ROOT/sys/class/block/DEV's request queue into n. */
void clyde_stack_read_queue(const char *root, const char *dev,
			    struct clyde_stack_node *n);
/* Does ROOT/sys/class/block/DEV/ATTR exist? */
bool clyde_stack_sys_exists(const char *root, const char *dev,
			    const char *attr);

/*
 * A node kind.  The walker makes a node for every block device it meets,
 * gives it to the first kind in the table that claims it, fills the
 * fields every device has, then calls init, read, queue and children in
 * that order.  Every hook but `claims` may be NULL.
 */
struct clyde_stack_kind {
	const char *name; /* "md": the JSON's "kind" and the text's */
	/* Is ROOT/sys/class/block/DEV one of these?  NULL: never by sysfs
	 * (a kind another one turns a node into, or one only ioctls find). */
	bool (*claims)(const char *root, const char *dev);
	/* Set the kind's unknown values (-1) in a zeroed node. */
	void (*init)(struct clyde_stack_node *n);
	/* Read the kind's own attributes. */
	void (*read)(const char *root, struct clyde_stack_node *n);
	/* Read the request queue; NULL: the device's own. */
	void (*queue)(const char *root, struct clyde_stack_node *n);
	/* Add the devices it is built on; NULL: its slaves/. */
	void (*children)(struct clyde_stack_walk *w, size_t idx);
	/* The striping this device does, for clyde_stack_stripe(): 0 with
	 * *st filled, or -ENOENT; NULL: none. */
	int (*stripe)(const struct clyde_stack_node *n,
		      struct clyde_stack_stripe *st);

	/* Its JSON fields, written after the queue and before an md
	 * member's slot and state, or after them when `fields_last` (dm and
	 * zram: the order of schema 1). */
	const struct clyde_stack_field *fields;
	size_t nfields;
	bool fields_last;
	/* What the text tree shows after "NAME: KIND" (NULL: the model). */
	void (*text)(FILE *f, const struct clyde_stack_node *n);
	/* Show the queue line although it is built on others (md, dm: their
	 * limits are their own; a partition's are its disk's). */
	bool own_queue;
	/* Its lines of clyde_stack_facts(), over every node of the kind. */
	const struct clyde_stack_node_fact *facts;
	size_t nfacts;
};

/* The node kinds in the order they claim a device; *n their number. */
const struct clyde_stack_kind *const *clyde_stack_kinds(size_t *n);
/* n's kind, a disk when it has none. */
const struct clyde_stack_kind *
clyde_stack_node_kind(const struct clyde_stack_node *n);
/* A zeroed node of kind k named `name`, its unknown values -1. */
void clyde_stack_node_init(struct clyde_stack_node *n,
			   const struct clyde_stack_kind *k, const char *name);

/* One fact of a filesystem (clyde_stack_facts). */
struct clyde_stack_fs_fact {
	const char *key;
	void (*get)(const struct clyde_stack_fs *fs, char *buf, size_t len);
};

/*
 * A filesystem probe.  The walker gives a mounted filesystem to the probe
 * that claims its type (none: only the mount is described), after the
 * type, mount point, source and options are filled in.
 */
struct clyde_stack_fs_kind {
	const char *name;
	bool (*claims)(const char *type);
	/* Fill the geometry (block size, stripe, journal, the probe's own
	 * fields); what cannot be read goes into fs->note. */
	void (*read)(struct clyde_stack_fs *fs);
	/* Add the devices the filesystem sits on directly (btrfs: all of
	 * its devices; NFS served by this machine: the exported
	 * directory's; zfs, whose mount has no block device: its pool's
	 * leaves); nothing added or NULL: the mount's block device. */
	void (*devices)(struct clyde_stack_walk *w);
	/* The striping the filesystem does itself (btrfs); NULL: that of
	 * the layers below. */
	int (*stripe)(const struct clyde_stack *s,
		      struct clyde_stack_stripe *st);

	/* Its JSON fields, after the common ones.  `fields_everywhere`:
	 * written (empty) for every filesystem, as schema 1 did for ext4,
	 * xfs and btrfs; a new probe leaves it false. */
	const struct clyde_stack_field *fields;
	size_t nfields;
	bool fields_everywhere;
	/* Its lines of the text, after block size and before the journal. */
	void (*text)(FILE *f, const struct clyde_stack_fs *fs);
	/* What it calls its journal: "log" (xfs); NULL: "journal". */
	const char *journal_word;
	const struct clyde_stack_fs_fact *facts;
	size_t nfacts;
};

const struct clyde_stack_fs_kind *const *clyde_stack_fs_kinds(size_t *n);
/* The probe that claims filesystem type `type`, or NULL. */
const struct clyde_stack_fs_kind *clyde_stack_fs_kind_of(const char *type);

extern const struct clyde_stack_fs_kind clyde_fs_ext4, clyde_fs_xfs,
	clyde_fs_btrfs, clyde_fs_nfs, clyde_fs_zfs, clyde_fs_cifs;

/* Fill fs (its source the dataset) from ZFS as src shows it (NULL: the
 * running system); 0, or a negative errno with fs->note saying why.
 * fs_zfs.c's `read`, given its source for the unit tests. */
struct clyde_zfs_src;
int clyde_fs_zfs_fill(struct clyde_stack_fs *fs,
		      const struct clyde_zfs_src *src);
/* Fill zvol node n from ZFS volume `volume` as src shows it (NULL: the
 * running system): what the zvol kind's `read` does once BLKZNAME named
 * the volume, given its source for the unit tests.  0, or a negative
 * errno with n->note saying why. */
int clyde_stack_zvol_fill(struct clyde_stack_node *n, const char *volume,
			  const struct clyde_zfs_src *src);

#endif
