/*
 * The storage stack under a target: the filesystem and its geometry, then
 * every block layer below it (partition, dm/LVM, md RAID, loop, zram) down
 * to the member disks with their queue settings.
 *
 * The stack is a small graph kept as a flat array of nodes: each node
 * names the devices it is built on (its children: an md array's members, a
 * partition's disk, a dm device's slaves).  `top` lists the devices the
 * filesystem sits on directly (several for btrfs).  A device reached twice
 * (two partitions of one disk in one array) is one node.
 *
 * Everything comes from sysfs, a few ioctls and the filesystem's own
 * superblock or geometry ioctl.  Nothing here fails because an attribute is
 * missing: the field stays empty (strings ""), 0, or -1 where 0 is a real
 * value (rotational, dio, md slot).  What could not be read and why is
 * said in the `note` strings.
 *
 * Test fixtures: `sysroot` is "" in clyde; tests give a directory holding
 * a copy of the kernel's attributes (tests/fixtures/sysfs/NAME/sys/...),
 * and the walker then reads every /sys path below it.  With a sysroot, the
 * path must name a device ("md0" or "/dev/md0"): there is no mount to look
 * up and no device node to open, and dm tables come from
 * SYSROOT/dm-tables/DM-NAME (the text `dmsetup table` prints) instead of
 * the DM_TABLE_STATUS ioctl.
 */
#ifndef CLYDE_ENV_STACK_H
#define CLYDE_ENV_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

#define CLYDE_STACK_MAX_NODES 64
#define CLYDE_STACK_MAX_CHILDREN 32
#define CLYDE_STACK_MAX_TOP 32

/*
 * What a device is (disk, partition, loop, md, dm, zram, zvol, other): one node
 * kind per file (env/probe_*.c), each a struct clyde_stack_kind in the
 * table of env/stack_probe.c, which says how to recognise it, read it,
 * find what it is built on and show it.  A node's `kind` points at one of
 * them; NULL (a node made by hand, zeroed) is a disk.
 */
struct clyde_stack_kind;

/* The kind's name ("disk", "md", ...; the JSON's "kind"), "disk" for NULL. */
const char *clyde_stack_kind_name(const struct clyde_stack_kind *k);
/* The kind named `name`, or NULL. */
const struct clyde_stack_kind *clyde_stack_kind_parse(const char *name);

/* The node kinds that other layers test for (env/stack_probe.h has the
 * rest of the interface). */
extern const struct clyde_stack_kind clyde_stack_disk, clyde_stack_partition,
	clyde_stack_loop, clyde_stack_md, clyde_stack_dm, clyde_stack_zram,
	clyde_stack_zvol, clyde_stack_other;

struct clyde_stack_node {
	const struct clyde_stack_kind *kind;
	char name[64]; /* kernel name: sda1, md0, dm-0, loop3 */
	uint32_t major, minor;
	uint64_t size_bytes;

	/* The request queue (for a partition: its disk's). */
	char model[128]; /* device/model, trimmed; "" when none */
	int rotational;	 /* 1, 0, or -1 unknown */
	uint32_t logical_block_size, physical_block_size; /* bytes */
	uint32_t minimum_io_size, optimal_io_size;	  /* bytes */
	char write_cache[16]; /* "write back", "write through", "" */
	char scheduler[32];   /* the selected one: mq-deadline, none, ... */
	uint32_t nr_requests;
	uint32_t read_ahead_kb;
	uint32_t max_sectors_kb; /* the largest request it is sent */

	/* A member of an md array: its slot there and state (dev-X/slot,
	 * dev-X/state); slot -1 when it is not one or is a spare. */
	int md_slot;
	char md_state[64];

	/* What only one kind has: the kind's own fields, the union member
	 * its file reads and writes (only the node's kind may touch them). */
	union {
		/* partition (probe_part.c) */
		struct {
			uint32_t partition; /* its number */
			uint64_t start_bytes; /* offset from the start of its disk */
		};
		/* loop (probe_loop.c) */
		struct {
			char backing_file[1024]; /* "" when nothing is attached */
			int dio; /* loop/dio: 1, 0, or -1 unknown */
			uint64_t loop_offset; /* loop/offset, bytes */
		};
		/* md (probe_md.c; Documentation/admin-guide/md.rst) */
		struct {
			char md_level[16]; /* raid0, raid1, raid5, raid6, raid10, ...*/
			uint64_t chunk_bytes; /* md/chunk_size */
			uint32_t raid_disks;  /* md/raid_disks */
			uint32_t md_layout; /* md/layout, as the kernel numbers it */
			uint32_t stripe_cache_size; /* md/stripe_cache_size; 0: none */
			uint32_t degraded; /* md/degraded: missing members */
			char sync_action[32]; /* idle, resync, recover, check, ... */
			char array_state[32]; /* clean, active, read-auto, ... */
		};
		/* dm (probe_dm.c) */
		struct {
			char dm_name[128];
			char dm_uuid[160]; /* LVM-... for LVM volumes */
			char lvm_vg[128]; /* an LVM volume: its VG and LV, from */
			char lvm_lv[128]; /* dm_name ("" when not LVM's) */
			char dm_target
				[32]; /* linear, striped, ...; "mixed" for several
					      * kinds of segment; "" when the table is
					      * unknown */
			uint32_t dm_stripes; /* striped: number of stripes */
			uint64_t dm_stripe_bytes; /* striped: chunk size */
			uint64_t dm_start_bytes; /* linear (first segment): offset on the
						   * device below, for alignment */
			char dm_table[1024]; /* the table as `dmsetup table` prints it */
		};
		/* zram (probe_zram.c) */
		struct {
			char zram_algorithm[64]; /* the selected comp_algorithm */
		};
		/* zvol (probe_zvol.c): the ZFS volume, its properties and
		 * its pool's vdev tree, as fs_zfs.c has them for a dataset */
		struct {
			char zfs_volume[256]; /* pool/vol, from BLKZNAME */
			char zfs_pool[64];
			char zfs_layout[16];  /* stripe, mirror, raidz1, ... */
			char zfs_vdevs[1024]; /* the vdev tree, one line */
			char zfs_leaves[512]; /* their disks: the children */
			int zfs_ashift;	      /* smallest of the data's; -1 */
			uint64_t zfs_volblocksize; /* bytes */
			char zfs_compression[32];
			char zfs_compressratio[16]; /* "1.00" */
			char zfs_checksum[16];
			char zfs_sync[16];
			char zfs_primarycache[16];
			char zfs_logbias[16];
		};
	};

	/* Where something could not be read ("loop/dio: not readable"). */
	char note[256];

	/* The devices this one is built on: indexes into stack->nodes. */
	uint32_t nchildren;
	uint32_t children[CLYDE_STACK_MAX_CHILDREN];
};

/* Where a filesystem keeps its journal or log. */
enum clyde_stack_journal {
	CLYDE_JOURNAL_UNKNOWN = 0,
	CLYDE_JOURNAL_NONE,	/* ext2/ext4 without one */
	CLYDE_JOURNAL_INTERNAL, /* inside the filesystem */
	CLYDE_JOURNAL_EXTERNAL, /* on another device */
};

/* "unknown", "none", "internal", "external". */
const char *clyde_stack_journal_name(enum clyde_stack_journal j);

struct clyde_stack_fs {
	char type[32]; /* ext4, xfs, btrfs, tmpfs, ... */
	char mount_point[1024];
	char source[1024];     /* the mount source */
	char mount_opts[1024]; /* per-mount " | " superblock, as env.h */
	char uuid[40];	       /* from the superblock or libblkid */
	uint32_t block_size;   /* bytes; 0 unknown */

	/* Stripe geometry the filesystem was made with, in bytes (ext4:
	 * stride and stripe_width times the block size; xfs: sunit and
	 * swidth); 0 when it has none or it is unknown. */
	uint64_t stripe_unit_bytes;
	uint64_t stripe_width_bytes;
	/* The same in the filesystem's own units, as its tools print them:
	 * ext4 stride/stripe_width in blocks, xfs sunit/swidth in blocks. */
	uint32_t stride_blocks;
	uint32_t stripe_width_blocks;

	/* Journal (ext3/ext4) or log (xfs). */
	enum clyde_stack_journal journal;
	char journal_dev[64]; /* external: the kernel name, or the device
			       * number "8:17" when no node has it */

	/* What only one filesystem has: the union member of the probe that
	 * claims `type` (fs_ext4.c, fs_xfs.c, fs_btrfs.c); no other code
	 * may read or write another's. */
	union {
		/* ext2/3/4 */
		struct {
			char journal_uuid[40]; /* external journal's UUID */
			char data_mode[16];    /* ordered, journal, writeback */
		};
		/* xfs */
		struct {
			uint64_t log_bytes; /* log size */
			uint32_t log_sector_size;
			uint32_t logbsize; /* mount option, bytes; 0 default */
			uint64_t rtextsize_bytes; /* realtime extent size */
		};
		/* btrfs */
		struct {
			char data_profile[16]; /* single, dup, raid0, raid1,
						* raid10, raid5, raid6,
						* raid1c3, raid1c4 */
			char metadata_profile[16];
			char system_profile[16];
			uint32_t num_devices;
		};
		/* nfs, nfs4 (fs_nfs.c): the mount from /proc/self/
		 * mountstats, and, when the server is this machine, the
		 * export (/var/lib/nfs/etab) */
		struct {
			char nfs_server[256];	       /* host as mounted */
			char nfs_addr[64];	       /* addr= */
			char nfs_export[512];	       /* the path as mounted */
			char nfs_version[8];	       /* 3, 4.0, 4.1, 4.2 */
			char nfs_proto[16];	       /* tcp, udp, rdma */
			uint32_t nfs_rsize, nfs_wsize; /* bytes */
			uint32_t nfs_nconnect;	       /* 1 when not given */
			char nfs_sec[16];	       /* sys, krb5, ... */
			char nfs_recovery[8];	       /* hard, soft, softerr */
			uint32_t nfs_acregmin, nfs_acregmax; /* seconds */
			uint32_t nfs_acdirmin, nfs_acdirmax;
			char nfs_lookupcache[8]; /* all, pos, none */
			char nfs_local_lock[8];	 /* none, all, flock, posix */
			char nfs_cto[8];	 /* cto, nocto */
			int nfs_local; /* the server is this machine: 1, 0,
					* -1 unknown */
			uint32_t nfs_server_max;   /* local: nfsd's
						  * max_block_size */
			char nfs_export_dir[512];  /* local: what is exported */
			char nfs_export_opts[512]; /* local: its options */
			char nfs_export_sync[8];   /* local: sync, async */
			char nfs_export_fstype[32]; /* local: its fs type */
		};
		/* cifs, smb3 (fs_cifs.c): the mount from /proc/mounts and
		 * /proc/fs/cifs/DebugData, and, when smbd runs on this
		 * machine, the share from the smb.conf it was started with */
		struct {
			char cifs_server[256]; /* host as mounted */
			char cifs_share[256];  /* the share's name */
			char cifs_addr[64];    /* addr= */
			char cifs_dialect[16]; /* 3.1.1, 3.0, 2.1, 1.0 */
			char cifs_sec[16];     /* ntlmssp, krb5, ... */
			uint32_t cifs_rsize, cifs_wsize; /* bytes */
			char cifs_cache[16];	/* strict, loose, none, ... */
			uint32_t cifs_actimeo;	/* seconds */
			char cifs_recovery[8];	/* hard, soft */
			int cifs_multichannel;	/* 1, 0 */
			uint32_t cifs_channels; /* max_channels=, 1 */
			int cifs_nosharesock;	/* 1, 0 */
			int cifs_local; /* smbd is this machine: 1, 0, -1 */
			char cifs_conf[256];	  /* local: smbd's smb.conf */
			char cifs_share_dir[512]; /* local: the share's path */
			char cifs_share_sync[8];  /* local: always, strict,
						     * none */
			char cifs_share_fstype[32]; /* local: its fs type */
		};
		/* zfs (fs_zfs.c) */
		struct {
			char zfs_pool[64];
			char zfs_layout[16]; /* stripe, mirror, raidz1, ... */
			/* The vdev tree, one line: "raidz1-0 ashift 12: vda1
			 * vdb1 vdc1; log vdd1 ashift 12: vdd1". */
			char zfs_vdevs[1024];
			char zfs_leaves[512]; /* their disks, by spaces */
			int zfs_ashift;	      /* smallest of the data's; -1 */
			/* The data's raidz vdev: leaves and parity; 0 none */
			uint32_t zfs_raidz_width, zfs_raidz_parity;
			uint64_t zfs_recordsize, zfs_volblocksize; /* bytes */
			char zfs_compression[32];
			char zfs_compressratio[16]; /* "1.00" */
			char zfs_checksum[16];
			char zfs_sync[16];
			char zfs_atime[8];
			char zfs_primarycache[16];
			char zfs_logbias[16];
			char zfs_direct[16]; /* "" before OpenZFS 2.3 */
			uint64_t zfs_arc_size, zfs_arc_max; /* bytes */
		};
	};

	/* Why the geometry is missing or partial ("ext4 superblock of
	 * /dev/loop3 not readable: Permission denied (needs root)"). */
	char note[256];
};

struct clyde_stack {
	char target[4096]; /* the path or device as given */
	bool has_fs;	   /* false for a device node that is not mounted */
	struct clyde_stack_fs fs;
	/* A device node that is not mounted: what it holds, as libblkid
	 * names it (ext4, xfs, linux_raid_member, LVM2_member, swap, ...);
	 * "" when nothing was recognised or it could not be read. */
	char content[32];

	size_t nnodes;
	struct clyde_stack_node *nodes; /* owned; clyde_stack_free() */
	uint32_t ntop;			/* devices directly under the fs */
	uint32_t top[CLYDE_STACK_MAX_TOP];

	/* Why there is no device below (tmpfs, NFS, overlay), or what was
	 * cut short (more than CLYDE_STACK_MAX_NODES devices). */
	char note[256];
};

/*
 * Walk from `path` (a directory, a file, or a block device node) down to
 * the leaves and fill *out (which this function initialises; free it with
 * clyde_stack_free(), also after a failure).  `sysroot` is "" except in
 * tests (see the top of this file).  Returns 0, or a negative errno when
 * the path itself cannot be examined (recorded in ctx with the path).  A
 * path on a filesystem without a block device is not an error: nnodes is
 * 0 and `note` says why.
 */
int clyde_stack_probe(struct clyde_ctx *ctx, const char *sysroot,
		      const char *path, struct clyde_stack *out);

/* Release what a probe or a JSON read allocated; s becomes empty. */
void clyde_stack_free(struct clyde_stack *s);

/* True when node `to` is node `from` or below it (indexes into nodes). */
bool clyde_stack_reaches(const struct clyde_stack *s, uint32_t from,
			 uint32_t to);

/*
 * Check that s is a stack the functions here can walk: children and tops
 * name existing devices, no device is below itself, and the tree the text
 * printer unfolds (a device shared by two parents appears under each) has
 * at most CLYDE_STACK_MAX_UNFOLDED lines.  The walker only builds such
 * stacks; a stack read from JSON is checked with this.  Returns 0, or
 * -EINVAL with the reason in why.
 */
#define CLYDE_STACK_MAX_UNFOLDED 4096
int clyde_stack_check(const struct clyde_stack *s, char *why, size_t n);

/* The node named `name`, or NULL. */
const struct clyde_stack_node *clyde_stack_find(const struct clyde_stack *s,
						const char *name);

/*
 * The leaves: the devices at the bottom of every branch, whose
 * /sys/class/block/NAME/stat counters are what each member disk did.  A
 * partition stands for its disk (its own counters leave out the disk's
 * other partitions), so the leaf of sda1-in-md0 is sda1, not sda.  A
 * device-mapper member of an md array (dm-delay, dm-crypt) is a leaf
 * itself: md waits for it, not for the disk under it.  Writes
 * up to `max` pointers to the node names (owned by s) into names and
 * returns how many leaves there are (which may be more than max).
 */
size_t clyde_stack_leaves(const struct clyde_stack *s, const char **names,
			  size_t max);

/*
 * The striping that the filesystem should be aligned to: the topmost md
 * array that stripes (raid0/4/5/6/10), dm striped target or btrfs striped
 * profile.  `chunk_bytes` is the stripe unit, `data_disks` the disks that
 * hold data in one stripe, `stripe_bytes` their product.
 */
struct clyde_stack_stripe {
	char layer[64]; /* md0, dm-0, or "btrfs" */
	char level[16]; /* raid5, striped, raid0, ... */
	uint64_t chunk_bytes;
	uint32_t data_disks;
	uint32_t disks; /* all of them, parity and copies included */
	uint64_t stripe_bytes;
	bool parity; /* raid4/5/6: partial-stripe writes read first */
};

/* Fill *st and return 0, or -ENOENT when nothing below the fs stripes. */
int clyde_stack_stripe(const struct clyde_stack *s,
		       struct clyde_stack_stripe *st);

/* An md array's data disks: the chunks in its full stripe as md reports
 * it (queue/optimal_io_size / chunk_size), else by the kernel's rule for
 * its level, layout and raid_disks (raid5: n-1, raid6: n-2, raid0: n,
 * raid10: n / near copies when near divides n, else n; far and offset
 * copies are in other rows and do not count); 0 when it does not stripe
 * (raid1, linear). */
uint32_t clyde_stack_md_data_disks(const struct clyde_stack_node *n);

/* A byte count as "64 KiB" when it is a whole number (below 1024) of KiB,
 * MiB, GiB or TiB, else "1.50 GiB" (three significant digits) or "812 B";
 * into buf. */
char *clyde_stack_fmt_bytes(char *buf, size_t len, uint64_t bytes);

#endif
