/*
 * What went over the wire for one SMB share: its entry in
 * /proc/fs/cifs/Stats (fs/smb/client/cifs_debug.c and smb2ops.c's
 * per-tree-connection counters), read at the start and the end of a test
 * and subtracted, for an SMB target (issue 34).  The SMB requests sent,
 * the bytes read and written, and per request type (Creates, Reads,
 * Writes, Flushes, QueryInfos, ...) how many were sent and how many
 * failed.  Mounts of one share over one session share an entry (a mount
 * with nosharesock has its own session and entry).
 */
#ifndef CLYDE_IO_CIFS_WIRE_H
#define CLYDE_IO_CIFS_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLYDE_CIFS_WIRE_MAX_OPS 32

struct clyde_cifs_op {
	char name[32]; /* Reads, Writes, Creates, Flushes, ... */
	uint64_t total, failed;
};

struct clyde_cifs_wire {
	uint64_t smbs;			    /* "SMBs:" requests sent */
	uint64_t bytes_read, bytes_written; /* over the wire */
	size_t nops;
	struct clyde_cifs_op op[CLYDE_CIFS_WIRE_MAX_OPS];
};

/* One test's traffic as a result keeps it (the SMB target,
 * io/target_cifs.c), and what was done to the server's cache of the
 * test's file before it. */
struct clyde_cifs_moved {
	bool measured; /* the share's entry was read at both ends */
	struct clyde_cifs_wire wire;
	/* Server-side files written back and evicted (smbd on this
	 * machine), and those that could not be. */
	unsigned server_evicted, server_missed;
};

/* Read share \\server\share's entry of ROOT/proc/fs/cifs/Stats (root ""
 * or a fixture tree; the names compared without regard to case) into
 * *out.  Returns 0, -ENOENT when it is not there, or the errno of opening
 * the file. */
int clyde_cifs_wire_read(const char *root, const char *server,
			 const char *share, struct clyde_cifs_wire *out);

/* after - before into *out, per request type by name (one only in
 * `after` counts from zero); counters that went back count as 0. */
void clyde_cifs_wire_diff(const struct clyde_cifs_wire *before,
			  const struct clyde_cifs_wire *after,
			  struct clyde_cifs_wire *out);

/* The request type named `name` ("Writes"), or NULL. */
const struct clyde_cifs_op *clyde_cifs_wire_op(const struct clyde_cifs_wire *w,
					       const char *name);

#endif
