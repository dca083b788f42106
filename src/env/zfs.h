/*
 * ZFS as clyde sees it: the pool under a path, its vdev tree down to each
 * leaf's disk, the dataset's properties, and the ARC's size and counters.
 *
 * Everything comes from ZFS's own stable surfaces, never from libzfs (its
 * interface changes between releases): the parseable output of `zpool`
 * and `zfs` (-H: tabs, no header; -p: exact numbers), `zdb -l` for each
 * top-level vdev's ashift (the label is the only place 2.1 shows it), the
 * kstats under /proc/spl/kstat/zfs, and /proc/self/mountinfo to find the
 * dataset of a path.
 *
 * For the tests every outside input can be replaced: the commands run
 * through `src->run` (clyde_zfs_run_exec by default), the kstats are read
 * under `src->kstat_root` (/proc/spl/kstat/zfs by default) and the mount
 * table from `src->mountinfo` (/proc/self/mountinfo by default); the unit
 * tests point them at tests/fixtures/zfs/, the outputs of a real pool of
 * each kind (tests/vm/t_zfs_pools.sh).
 *
 * Every function returns 0 or a negative errno with a message in the
 * context.  A value ZFS did not give stays "" or 0, or -1 where 0 is a real
 * value (ashift, the dataset's direct property).
 */
#ifndef CLYDE_ENV_ZFS_H
#define CLYDE_ENV_ZFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

#define CLYDE_ZFS_MAX_VDEVS 64
#define CLYDE_ZFS_NAME_MAX 256

/*
 * Run argv (argv[0] looked up in PATH) and hand its standard output back
 * in *out, a NUL-terminated string the caller frees.  Returns 0, or a
 * negative errno with a message in ctx (-ENOENT when the program is not
 * there, -EIO when it exits non-zero).
 */
typedef int (*clyde_zfs_run_fn)(void *arg, struct clyde_ctx *ctx,
				const char *const argv[], char **out);

/* The default runner: fork and exec, standard error discarded. */
int clyde_zfs_run_exec(void *arg, struct clyde_ctx *ctx,
		       const char *const argv[], char **out);

/* Where ZFS is read from.  A zeroed struct is the running system. */
struct clyde_zfs_src {
	clyde_zfs_run_fn run; /* NULL: clyde_zfs_run_exec */
	void *run_arg;
	const char *kstat_root; /* NULL or "": /proc/spl/kstat/zfs */
	const char *mountinfo;	/* NULL or "": /proc/self/mountinfo */
};

/* What a vdev is.  A stripe is a pool whose top-level vdevs are leaves. */
enum clyde_zfs_vdev_type {
	CLYDE_ZFS_VDEV_DISK = 0, /* a leaf: a block device */
	CLYDE_ZFS_VDEV_FILE,	 /* a leaf: a file */
	CLYDE_ZFS_VDEV_MIRROR,
	CLYDE_ZFS_VDEV_RAIDZ,	  /* parity 1, 2 or 3 */
	CLYDE_ZFS_VDEV_DRAID,	  /* parity, data, children, spares */
	CLYDE_ZFS_VDEV_SPARE,	  /* a spare in use, over its leaves */
	CLYDE_ZFS_VDEV_REPLACING, /* a replacement in progress */
	CLYDE_ZFS_VDEV_DSPARE,	  /* a dRAID's distributed spare */
	CLYDE_ZFS_VDEV_OTHER,
};

/* The allocation class a top-level vdev serves. */
enum clyde_zfs_class {
	CLYDE_ZFS_CLASS_NORMAL = 0, /* the pool's data */
	CLYDE_ZFS_CLASS_LOG,	    /* the ZIL (SLOG) */
	CLYDE_ZFS_CLASS_CACHE,	    /* L2ARC */
	CLYDE_ZFS_CLASS_SPECIAL,    /* metadata and small blocks */
	CLYDE_ZFS_CLASS_DEDUP,	    /* the dedup table */
	CLYDE_ZFS_CLASS_SPARE,	    /* hot spares */
};

/* "disk", "file", "mirror", "raidz", "draid", "spare", "replacing",
 * "dspare", "other". */
const char *clyde_zfs_vdev_type_name(enum clyde_zfs_vdev_type t);
/* "normal", "log", "cache", "special", "dedup", "spare". */
const char *clyde_zfs_class_name(enum clyde_zfs_class c);

struct clyde_zfs_vdev {
	char name[CLYDE_ZFS_NAME_MAX]; /* mirror-0, raidz2-0, draid1:2d:4c:1s-0,
					* or a leaf's path (/dev/vda1) */
	enum clyde_zfs_vdev_type type;
	enum clyde_zfs_class cls;
	int parent;	/* index in the pool's vdevs, -1 for a top-level vdev */
	int depth;	/* 0 for a top-level vdev */
	char state[16]; /* ONLINE, DEGRADED, FAULTED, AVAIL, ... */
	uint64_t read_errors, write_errors, checksum_errors;
	/* RAIDZ and DRAID: parity; DRAID also its data disks per group,
	 * children and distributed spares.  0 otherwise. */
	int parity, draid_data, draid_children, draid_spares;
	/* zpool list -v: bytes, 0 when it does not say (spares). */
	uint64_t size_bytes, alloc_bytes;
	/* Top-level vdevs: from the label (zdb -l) of one of its leaves; -1
	 * when unknown (cache and spares have none). */
	int ashift;
	/* Leaves: the path and the block device's kernel name (vda1 for
	 * /dev/vda1 and for a /dev/disk/by-id link to it); "" otherwise. */
	char path[CLYDE_ZFS_NAME_MAX];
	char dev[64];
};

struct clyde_zfs_pool {
	char name[CLYDE_ZFS_NAME_MAX];
	char state[16];
	uint64_t size_bytes, alloc_bytes, free_bytes;
	int ashift; /* the pool's property: 0 means chosen per vdev */
	/* The layout of its data: "stripe", "mirror", "raidz1", "raidz2",
	 * "raidz3", "draid1", ..., or "mixed". */
	char layout[16];
	int n_vdevs;
	struct clyde_zfs_vdev vdevs[CLYDE_ZFS_MAX_VDEVS]; /* a parent before
							   * its children */
};

struct clyde_zfs_dataset {
	char name[CLYDE_ZFS_NAME_MAX];
	char type[16];	       /* filesystem, volume */
	uint64_t recordsize;   /* bytes; 0 for a volume */
	uint64_t volblocksize; /* bytes; 0 for a filesystem */
	char compression[32];  /* off, lz4, zstd, gzip-6, ... */
	double compressratio;  /* 1.00 when nothing compressed */
	char checksum[16];     /* on, off, fletcher4, sha256, ... */
	char sync[16];	       /* standard, always, disabled */
	char atime[8];	       /* on, off; "" for a volume */
	char primarycache[16]; /* all, metadata, none */
	char logbias[16];      /* latency, throughput */
	char direct[16];       /* standard, always, disabled; "" before 2.3 */
	char mountpoint[CLYDE_ZFS_NAME_MAX];
};

/* The ARC's sizes (bytes) and the counters a test's reads move. */
struct clyde_zfs_arc {
	uint64_t size, c, c_min, c_max;
	uint64_t data_size; /* of it, file data (every pool's) */
	uint64_t demand_data_hits, demand_data_misses;
	uint64_t prefetch_data_hits, prefetch_data_misses;
	uint64_t demand_metadata_hits, demand_metadata_misses;
};

/*
 * What the ZFS target (io/target_zfs.c) saw of one test: how the test's
 * data was put out of the ARC before it, the ARC's counters over it, and
 * after a test that wrote, the dataset's compression ratio.  `have` false:
 * the test was not on ZFS.
 */
struct clyde_zfs_test {
	bool have;
	/* Before a read-side test: "export-import", "zinject", "drop-caches"
	 * or "" (nothing dropped: not a read-side test, or no way worked). */
	char evict[16];
	bool left_known;     /* left_bytes below is meaningful */
	uint64_t left_bytes; /* at most this much file data stayed in the ARC
			      * (0 after export and import) */
	bool arc_known;	     /* arcstats read before and after */
	struct clyde_zfs_arc arc; /* counters: over the test */
	uint64_t record_bytes;	  /* the dataset's recordsize/volblocksize */
	/* (demand + prefetch data misses) x record_bytes: the bytes the ARC
	 * did not have and read from the leaves. */
	uint64_t missed_bytes;
	/* raidz: what a full record costs on the leaves with parity and
	 * padding (data + parity sectors, rounded to parity + 1, over the
	 * data's); 0 when not raidz. */
	double raidz_wa;
	/* After a test that wrote on a compressing dataset, once the pool
	 * synced: the dataset's compressratio; 0 not read. */
	double compressratio;
};

/*
 * What a record of `record` bytes takes on a raidz of `width` leaves and
 * `parity` with sectors of 2^ashift bytes, against its data sectors: data
 * plus parity per row, rounded up to a multiple of parity + 1 (the
 * padding raidz allocates).  1.0 when the arguments make no raidz.
 */
double clyde_zfs_raidz_cost(uint64_t record, unsigned ashift, uint32_t width,
			    uint32_t parity);

/*
 * The pool `pool`: its state, sizes, ashift and vdev tree from `zpool
 * status -P -p`, `zpool list -v -H -P -p`, `zpool get -H -p ashift` and
 * `zdb -l` of one leaf of each top-level vdev.
 */
int clyde_zfs_pool_read(struct clyde_ctx *ctx, const struct clyde_zfs_src *src,
			const char *pool, struct clyde_zfs_pool *out);

/* The dataset (filesystem or volume) `name`, from `zfs get -H -p all`. */
int clyde_zfs_dataset_read(struct clyde_ctx *ctx,
			   const struct clyde_zfs_src *src, const char *name,
			   struct clyde_zfs_dataset *out);

/* The ARC from KSTAT_ROOT/arcstats. */
int clyde_zfs_arc_read(struct clyde_ctx *ctx, const struct clyde_zfs_src *src,
		       struct clyde_zfs_arc *out);

/* What happened between two readings: the counters of `after` less those
 * of `before` (0 where one went back, as after a module reload), the sizes
 * as `after` has them. */
void clyde_zfs_arc_diff(const struct clyde_zfs_arc *before,
			const struct clyde_zfs_arc *after,
			struct clyde_zfs_arc *out);

/*
 * The ZFS dataset a path is on: the zfs mount in the mount table whose
 * mount point is the longest prefix of `path` (absolute, symlinks
 * resolved by the caller).  Its dataset, pool (the dataset's first
 * component) and mount point are copied out (each may be NULL).  -ENOENT,
 * with a message, when no zfs mount holds the path.
 */
int clyde_zfs_path_dataset(struct clyde_ctx *ctx,
			   const struct clyde_zfs_src *src, const char *path,
			   char *dataset, size_t dataset_n, char *pool,
			   size_t pool_n, char *mnt, size_t mnt_n);

#endif
