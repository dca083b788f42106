/*
 * What went over the wire for one NFS mount: its entry in
 * /proc/self/mountstats (fs/nfs/super.c's nfs_show_stats,
 * net/sunrpc/stats.c's per-op lines), read at the start and the end of a
 * test and subtracted, for the NFS target (issue 34).  Per operation:
 * requests, transmissions (more than requests: retransmissions), bytes
 * sent and received, and the milliseconds queued, from sending to the
 * reply (rtt) and in all (execute).
 */
#ifndef CLYDE_IO_NFS_WIRE_H
#define CLYDE_IO_NFS_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLYDE_NFS_WIRE_MAX_OPS 80

struct clyde_nfs_op {
	char name[32]; /* READ, WRITE, COMMIT, GETATTR, ... */
	uint64_t ops, trans, timeouts;
	uint64_t bytes_sent, bytes_recv;
	uint64_t queue_ms, rtt_ms, exec_ms;
};

struct clyde_nfs_wire {
	/* "bytes:": what the applications read and wrote (normal, then
	 * O_DIRECT) and what went to and from the server. */
	uint64_t normal_read, normal_write, direct_read, direct_write;
	uint64_t server_read, server_write;
	size_t nops;
	struct clyde_nfs_op op[CLYDE_NFS_WIRE_MAX_OPS];
};

/* Read mount point mp's entry of ROOT/proc/self/mountstats (root "" or a
 * fixture tree) into *out.  Returns 0, -ENOENT when it is not there, or
 * the errno of opening the file. */
int clyde_nfs_wire_read(const char *root, const char *mp,
			struct clyde_nfs_wire *out);

/* after - before into *out, per operation by name (an operation only in
 * `after` counts from zero); counters that went back count as 0. */
void clyde_nfs_wire_diff(const struct clyde_nfs_wire *before,
			 const struct clyde_nfs_wire *after,
			 struct clyde_nfs_wire *out);

/* One test's traffic as a result keeps it: the sums over every
 * operation and the busiest operations, most requests first. */
#define CLYDE_NFS_MOVED_OPS 12

struct clyde_nfs_moved {
	bool measured; /* the mount's entry was read at both ends */
	uint64_t app_read, app_write;	    /* normal and O_DIRECT */
	uint64_t server_read, server_write; /* "bytes:" to and from it */
	uint64_t rpcs, trans, timeouts;	    /* sums over the operations */
	uint64_t bytes_sent, bytes_recv;
	uint64_t rtt_ms, exec_ms;
	unsigned nops;
	struct clyde_nfs_op op[CLYDE_NFS_MOVED_OPS];
	/* The server's side when it is this machine (nfsd's
	 * /proc/fs/nfsd/pool_stats summed over its pools, and its threads):
	 * requests that arrived from every client, and how often a thread
	 * was woken for one; have_server false when not readable. */
	bool have_server;
	uint64_t server_packets, server_threads_woken;
	uint32_t server_threads;
	/* The CPU time (user and system) nfsd's threads used during the
	 * test (clyde_nfsd_cpu_read); have_server_cpu false when no nfsd
	 * thread could be read at both ends. */
	bool have_server_cpu;
	uint64_t server_cpu_ns;
};

/* nfsd's counters under ROOT (pool_stats and threads).  Returns 0 or a
 * negative errno (no nfsd filesystem: -ENOENT). */
int clyde_nfsd_read(const char *root, uint64_t *packets, uint64_t *woken,
		    uint32_t *threads);

/* The CPU time nfsd's kernel threads have used, user and system, in
 * nanoseconds: utime + stime (fields 14 and 15 of ROOT/proc/PID/stat, in
 * clock ticks) summed over the processes whose ROOT/proc/PID/comm is
 * "nfsd".  Returns the number of such threads read (0: none, *ns 0) or a
 * negative errno when ROOT/proc cannot be listed. */
int clyde_nfsd_cpu_read(const char *root, uint64_t *ns);

/* The server's side of *from (have_server, server_packets,
 * server_threads_woken, server_threads, have_server_cpu, server_cpu_ns)
 * into *to, the wire figures untouched: the one list of those fields for
 * clyde-mpi's merge, the aggregate's rule and rank 0's late reading. */
void clyde_nfs_moved_server(struct clyde_nfs_moved *to,
			    const struct clyde_nfs_moved *from);

/* ops[0..n) sorted busiest first (most requests, then by name) and the
 * first CLYDE_NFS_MOVED_OPS of them made out's operations. */
void clyde_nfs_keep_busiest(struct clyde_nfs_moved *out,
			    struct clyde_nfs_op *ops, size_t n);

/* Sum a difference (clyde_nfs_wire_diff) into *out and keep its busiest
 * operations; measured is set. */
void clyde_nfs_wire_moved(const struct clyde_nfs_wire *diff,
			  struct clyde_nfs_moved *out);

/* The RPCs the client sent more than once: trans - rpcs (0 when not). */
uint64_t clyde_nfs_retrans(const struct clyde_nfs_moved *m);

/*
 * What a file server caches of a test's files, before a read-side test
 * (the NFS target, io/target_nfs.c): when the server is this machine, the
 * server-side files (the export's directory joined with the path below
 * the mount point) written back, evicted and measured; when it is not,
 * nothing can be done and the result says so.
 */
enum clyde_server_cache_state {
	CLYDE_SERVER_CACHE_NONE = 0,	   /* not a file server's mount */
	CLYDE_SERVER_CACHE_DROPPED,	   /* local: fdatasync + DONTNEED */
	CLYDE_SERVER_CACHE_MEASURED,	   /* local, --no-evict: measured */
	CLYDE_SERVER_CACHE_NOT_CONTROLLED, /* remote or not found */
};

struct clyde_server_cache {
	enum clyde_server_cache_state state;
	unsigned files;		  /* server-side files measured */
	uint64_t resident_before; /* cached bytes before the eviction */
	uint64_t resident_bytes;  /* ... when the test starts */
	uint64_t total_bytes;	  /* their size */
	char why[128];		  /* NOT_CONTROLLED: why */
};

/* "dropped", "measured", "not controlled", or NULL for NONE. */
const char *clyde_server_cache_name(enum clyde_server_cache_state s);

/* The operation named `name`, or NULL. */
const struct clyde_nfs_op *clyde_nfs_wire_op(const struct clyde_nfs_wire *w,
					     const char *name);

/* The NFS kind's figures in the outputs and under clyde-mpi
 * (target_nfs_out.c, io/target.h's struct clyde_target_figs). */
struct clyde_target_figs;
extern const struct clyde_target_figs clyde_nfs_figs;

/* The settings of stack s's mount and export that inflate the figure of
 * a test that does `does` (io/target.h's CLYDE_FIGS_*), as "async export,
 * nocto" into buf; "" when none or s is not an NFS mount.  Returns buf. */
struct clyde_stack;
char *clyde_nfs_inflated(const struct clyde_stack *s, unsigned does, char *buf,
			 size_t len);

#endif
