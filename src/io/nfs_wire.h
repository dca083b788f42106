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

/* The operation named `name`, or NULL. */
const struct clyde_nfs_op *clyde_nfs_wire_op(const struct clyde_nfs_wire *w,
					     const char *name);

#endif
