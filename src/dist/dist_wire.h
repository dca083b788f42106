/*
 * clyde-mpi: every rank's traffic over the wire (its own NFS or SMB
 * mount's, io/nfs_wire.h, io/cifs_wire.h) merged into the aggregate test
 * and kept per rank (docs/nfs.md, "Many clients").
 *
 * The aggregate's counts and bytes are the sums over the ranks; per
 * operation the requests, transmissions, bytes and milliseconds are
 * summed by name, so a mean (milliseconds / requests) is weighted by each
 * rank's requests, and the busiest CLYDE_NFS_MOVED_OPS are kept.  The
 * aggregate is measured only when every rank's was.  The server's side of
 * an NFS result (nfsd's counters) is rank 0's, which every client's
 * requests reach, and stays as it is.
 */
#ifndef CLYDE_DIST_DIST_WIRE_H
#define CLYDE_DIST_DIST_WIRE_H

#include <stddef.h>

#include "io/cifs_wire.h"
#include "io/nfs_wire.h"

/* One rank's traffic during one test, as the ranks send it. */
struct clyde_dist_wire {
	struct clyde_nfs_moved nfs;
	struct clyde_cifs_moved cifs;
};

/* Sum the n ranks' NFS traffic m[0..n) into *out, keeping out's server
 * side (have_server, server_*). */
void clyde_dist_nfs_sum(struct clyde_nfs_moved *out,
			const struct clyde_dist_wire *m, size_t n);

/* Sum the n ranks' SMB traffic into *out. */
void clyde_dist_cifs_sum(struct clyde_cifs_moved *out,
			 const struct clyde_dist_wire *m, size_t n);

struct clyde_jw;
/* One rank's share's traffic: the members `nfs` and `smb` (null when
 * that kind was not measured). */
void clyde_dist_wire_json(struct clyde_jw *w, const struct clyde_dist_wire *m);

#endif
