/*
 * What a test asks of the storage under its files, whatever that storage
 * is: what moved during the test (counters before and after), whether it
 * is idle before the test, and how to drop and measure what is cached.
 * A block device under the page cache (target_block.c) answers with
 * /sys/class/block/X/stat of the target's device and of the stack's
 * leaves, the devices' in-flight requests and writeback, fadvise and
 * mincore; a ZFS pool or a network mount answers the same questions from
 * its own counters and caches.
 *
 * Every kind of target is one file that fills one struct
 * clyde_target_ops and one line of the table in target.c, which picks
 * the first kind that claims what the stack probe found (env/stack.h);
 * the block device comes last and claims everything, so that a target
 * with nothing below it (tmpfs) is one with no devices to count.  An NFS
 * mount (target_nfs.c) counts its traffic from mountstats and, when the
 * server is this machine, the export's disks and the server's cache; an
 * SMB mount (target_cifs.c) its share's requests and bytes from
 * /proc/fs/cifs/Stats and, when smbd is this machine, evicts the
 * server's cache of a file with the client's.
 * A kind whose tests have figures of their own (those wire counters,
 * a ZFS pool's ARC) gives their size (figs_size) and fills them at the
 * end of each test; the test result keeps them, and the kind's own
 * hooks (struct clyde_target_figs below, in the kind's file) write them
 * in the JSON and the text, change the test's other figures by them,
 * and merge clyde-mpi's ranks' figures: results/figures.c and
 * dist/dist_wire.c go through the table of kinds and name none.
 *
 * A watch (struct clyde_target_watch) belongs to one run of one workload:
 * clyde_target_open() before the first test, then around every test
 * clyde_target_settle(), clyde_target_begin() and clyde_target_end(),
 * and clyde_target_close() at the end.  Nothing here fails a run except
 * what the cache functions return (an fsync that fails is an I/O error);
 * what cannot be counted is left out, as the result types say.
 */
#ifndef CLYDE_IO_TARGET_H
#define CLYDE_IO_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/ctx.h"
#include "core/json_out.h"
#include "core/series.h"
#include "env/env.h"
#include "env/members.h"
#include "env/ownio.h"
#include "env/settle.h"
#include "env/stack.h"
#include "io/cache.h"
#include "io/loopcache.h"
#include "io/nfs_wire.h"

/* What a workload watches besides the target's own device (`what` of
 * struct clyde_target_setup). */
#define CLYDE_TARGET_MEMBERS 0x1u /* the stack's leaves, per member */
#define CLYDE_TARGET_OWN 0x2u	  /* clyde's own share (env/ownio.h) */
#define CLYDE_TARGET_SETTLE 0x4u  /* wait for quiet before each test */
#define CLYDE_TARGET_LOOPS 0x8u	  /* the cache of members' backing files */

struct clyde_target_setup {
	const struct clyde_target *target; /* env.h's description */
	const struct clyde_stack *stack;
	struct clyde_virt *virt; /* out: the first virtual member; may be
				  * NULL */
	unsigned what;		 /* CLYDE_TARGET_* */
	uint64_t settle_ns;	 /* --settle */
};

/* What moved during one test; each may be NULL (not wanted). */
struct clyde_target_moved {
	struct clyde_devio *dev;       /* the target's own device */
	struct clyde_members *members; /* per member (CLYDE_TARGET_MEMBERS) */
	struct clyde_ownio *own;       /* clyde's share (CLYDE_TARGET_OWN) */
	/* The kind's own figures of the test (figs_size bytes of its type,
	 * zeroed by the workload before the test: an SMB mount's struct
	 * clyde_cifs_moved); NULL when not wanted or the kind has none. */
	void *figs;
	bool wrote; /* the test wrote: a ZFS pool is synced before its
		     * leaves are read */
};

/*
 * The descriptors a workload holds on the target, for a kind that must
 * unmount it to drop its cache (ZFS's export and import): release closes
 * every one of them, reacquire opens them again (0 or a negative errno
 * recorded in ctx).
 */
struct clyde_target_hold {
	void (*release)(void *arg);
	int (*reacquire)(struct clyde_ctx *ctx, void *arg);
	void *arg;
};

struct clyde_target_watch;

/* Where in a test's JSON object a kind's member goes. */
enum clyde_figs_at {
	CLYDE_FIGS_AT_CACHE,   /* after "cache" (ZFS's "zfs") */
	CLYDE_FIGS_AT_MEMBERS, /* after "members", before "series" */
};

/* What a test does, for a kind's writer (`does` of struct
 * clyde_figs_test). */
#define CLYDE_FIGS_IO 0x1u /* its rate is bytes (putc .. get_block) */
#define CLYDE_FIGS_ALL_WRITTEN \
	0x2u		       /* all its data is written (putc,
				       * put_block, rewrite) */
#define CLYDE_FIGS_WRITES 0x4u /* it writes data or metadata */
#define CLYDE_FIGS_READS 0x8u  /* it reads back data or attributes */
#define CLYDE_FIGS_STATS 0x10u /* it reads attributes (stat) */

/*
 * What a kind's hooks see of one test: results/figures.c fills it from
 * the test result, so that the kind's file needs nothing of results/.
 */
struct clyde_figs_test {
	const char *label; /* "block write"; NULL when not known */
	unsigned does;	   /* CLYDE_FIGS_* */
	bool done;	   /* it ran to its end */
	uint64_t bytes;	   /* the bytes (or operations) it moved */
	const void *figs;  /* the kind's figures of it, or NULL */
	/* What was done about the page cache before it, and what was seen
	 * (results/result.h's struct clyde_cache_info); finish may change
	 * resident_bytes, which goes back to the test. */
	bool evicted, cache_measured;
	uint64_t resident_bytes, total_bytes;
	const struct clyde_server_cache *server; /* never NULL */
	/* What the devices under it read and wrote (results/testio.h's
	 * clyde_test_io: the stack's leaves or the target's device); have
	 * false when none was counted. */
	bool io_have;
	uint64_t io_read, io_write;
};

/* One run as a kind's hooks see it. */
struct clyde_figs_run {
	const struct clyde_stack *stack;
	unsigned nruns; /* the runs the text is about (its figures are the
			 * first run's) */
	size_t ntests;
	const struct clyde_figs_test *tests; /* by test id */
};

/*
 * A kind's own figures of a test in the outputs (figs_size bytes of its
 * type, filled by end and evict_all).  Every hook may be NULL.
 */
struct clyde_target_figs {
	enum clyde_figs_at json_at;
	/* Test t's member(s) under the kind's key, on the storage of stack
	 * s; t->figs NULL when the test has none of this kind's (then write
	 * nothing, or a null the schema keeps for every test). */
	void (*json)(struct clyde_jw *w, const struct clyde_stack *s,
		     const struct clyde_figs_test *t);
	/* Its section of the text after the members' (run->nruns > 0). */
	void (*text)(FILE *f, const struct clyde_figs_run *run);
	/* Once the test's spans are summed: change the test's other
	 * figures by the kind's (ZFS: the ARC's share of the reads as the
	 * cache's resident_bytes). */
	void (*finish)(struct clyde_figs_test *t, void *figs);
	/* The cache whose share resident_bytes is, when the kind's and not
	 * the page cache's: its JSON name ("arc") and its name in the text
	 * ("ZFS's ARC") into *json and *text; false when it is the page
	 * cache's. */
	bool (*cache)(const struct clyde_figs_test *t, const void *figs,
		      const char **json, const char **text);
	/* Under MPI, on rank 0 once the ranks' spans are merged: keep of
	 * figs what holds for every rank (rank 0's wire counters are its
	 * mount's only); return whether the test's members (rank 0's
	 * devices) stay.  NULL: the figures stay as rank 0's, the members
	 * go. */
	bool (*all_ranks)(void *figs);
	/* clyde-mpi's rank 0, once every rank has ended the test: whether
	 * the kind's end should be asked again from the test's start (the
	 * server's side, which every rank's traffic reaches) ... */
	bool (*late_wanted)(const void *figs);
	/* ... and keep of that new reading `again` what holds (the
	 * server's side), the rank's own figures keeping its window. */
	void (*late_keep)(void *figs, const void *again);
	/* clyde-mpi, rank 0: the n ranks' figures of one test (n
	 * figs_size-byte blobs at ranks, zeroed for a rank without this
	 * kind's) summed into *out, which holds rank 0's after all_ranks.
	 * Returns false, *out untouched, when no rank measured any: then
	 * the test keeps what it has.  NULL: the ranks' figures are not
	 * sent. */
	bool (*merge)(void *out, const void *ranks, size_t n);
	/* One rank's member(s) in its share of the aggregate's JSON; figs
	 * NULL when that rank's are not this kind's (then write a null
	 * under the key). */
	void (*rank_json)(struct clyde_jw *w, const void *figs);
};

/*
 * One kind of target.  `priv` of the watch is the kind's: made by open,
 * freed by close.  Only claims and open are required; a cache hook left
 * NULL is the page cache's (io/cache.h).
 */
struct clyde_target_ops {
	const char *name; /* "block" */
	/* The size of the kind's own figures of one test (0: none), which
	 * end and evict_all fill and the figs hooks write; the test result
	 * keeps them (struct clyde_test_figs). */
	size_t figs_size;
	const struct clyde_target_figs *figs; /* NULL: none */
	/* Is the storage under this stack one of these? */
	bool (*claims)(const struct clyde_stack *s,
		       const struct clyde_target *t);
	/* Find what to count and set up the kind's state.  Returns 0 or a
	 * negative errno (no memory). */
	int (*open)(struct clyde_target_watch *w,
		    const struct clyde_target_setup *setup);
	void (*close)(struct clyde_target_watch *w);

	/* Is it idle: look until quiet or the limit has passed (*out says
	 * what was seen). */
	void (*settle)(struct clyde_ctx *ctx, struct clyde_target_watch *w,
		       struct clyde_settle *out);
	/* The counters at the start of a test ... */
	void (*begin)(struct clyde_target_watch *w);
	/* ... and what moved since, at its end. */
	void (*end)(struct clyde_target_watch *w,
		    const struct clyde_target_moved *out);
	/* Before a read-side test, before the files' own eviction: drop
	 * what the storage caches of every file at once (the ARC), closing
	 * and reopening the workload's descriptors through `hold` (may be
	 * NULL) if it must; say in the test's figures (figs_size bytes, may
	 * be NULL) how and what is left.  Returns 0 or a negative errno
	 * recorded in ctx (the storage could not be brought back). */
	int (*evict_all)(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			 const struct clyde_target_hold *hold, void *figs);

	/* Drop what is cached of one file, measure what is (io/cache.h has
	 * the contracts), and the whole machine's caches. */
	int (*evict_fd)(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			int fd, const char *path);
	int (*residency_fd)(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			    int fd, uint64_t *resident_bytes,
			    uint64_t *total_bytes);
	int (*evict_dir)(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			 int dirfd, const char *path,
			 struct clyde_cache_dir_stats *stats);
	int (*drop_all)(struct clyde_ctx *ctx, struct clyde_target_watch *w);
	/* Below the filesystem: drop (when `evict`) and measure what a
	 * layer caches under it (a loop device's backing file); *seen is
	 * zeroed first. */
	void (*below)(struct clyde_target_watch *w, bool evict,
		      struct clyde_loopcache_seen *seen);
	/* A file server's cache of the files evicted or measured since the
	 * last call (before each read-side test): drop it (when `evict`)
	 * and measure it; *seen is zeroed first. */
	void (*server)(struct clyde_target_watch *w, bool evict,
		       struct clyde_server_cache *seen);
	/* Is there a cache below to look at (before each read test)? */
	bool (*has_below)(const struct clyde_target_watch *w);
	/* Is the cache of the file at fd the storage itself (tmpfs)? */
	bool (*cache_is_storage)(const struct clyde_target_watch *w, int fd);
	/* A network mount's traffic counters now (a time series' interval
	 * boundaries, core/series.h); NULL: not a network mount.  Called
	 * from the workers and the sampler's thread at once: it keeps no
	 * state. */
	void (*wire)(struct clyde_target_watch *w,
		     struct clyde_series_wire *out);
};

struct clyde_target_watch {
	const struct clyde_target_ops *ops;
	const struct clyde_target *target;
	const struct clyde_stack *stack;
	unsigned what;
	void *priv; /* the kind's */
};

/* The kinds in the order they are asked; *n their number. */
const struct clyde_target_ops *const *clyde_target_kinds(size_t *n);

/* The kind that claims stack s over target t (never NULL: the block
 * device claims everything). */
const struct clyde_target_ops *clyde_target_find(const struct clyde_stack *s,
						 const struct clyde_target *t);

/* Open a watch of the kind that claims setup->stack.  Returns 0, or a
 * negative errno recorded in ctx; w is then closed. */
int clyde_target_open(struct clyde_ctx *ctx, struct clyde_target_watch *w,
		      const struct clyde_target_setup *setup);
/* Release what the kind holds; w may be closed already (ops NULL). */
void clyde_target_close(struct clyde_target_watch *w);

void clyde_target_settle(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			 struct clyde_settle *out);
void clyde_target_begin(struct clyde_target_watch *w);
void clyde_target_end(struct clyde_target_watch *w,
		      const struct clyde_target_moved *out);

int clyde_target_evict_all(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			   const struct clyde_target_hold *hold, void *figs);
int clyde_target_evict_fd(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			  int fd, const char *path);
int clyde_target_residency_fd(struct clyde_ctx *ctx,
			      struct clyde_target_watch *w, int fd,
			      uint64_t *resident_bytes, uint64_t *total_bytes);
int clyde_target_evict_dir(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			   int dirfd, const char *path,
			   struct clyde_cache_dir_stats *stats);
int clyde_target_drop_all(struct clyde_ctx *ctx, struct clyde_target_watch *w);
bool clyde_target_has_below(const struct clyde_target_watch *w);
void clyde_target_below(struct clyde_target_watch *w, bool evict,
			struct clyde_loopcache_seen *seen);
bool clyde_target_cache_is_storage(const struct clyde_target_watch *w, int fd);
void clyde_target_server(struct clyde_target_watch *w, bool evict,
			 struct clyde_server_cache *seen);

/* The wire counters of the watch `w` (a struct clyde_target_watch *): a
 * clyde_series_wire_fn; -1 each when the kind has none. */
void clyde_target_wire(void *w, struct clyde_series_wire *out);
/* Does the kind count traffic (is clyde_target_wire worth calling)? */
bool clyde_target_has_wire(const struct clyde_target_watch *w);

extern const struct clyde_target_ops clyde_target_nfs;
extern const struct clyde_target_ops clyde_target_cifs;
extern const struct clyde_target_ops clyde_target_block;
extern const struct clyde_target_ops clyde_target_zfs;

#endif
