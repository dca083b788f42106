/*
 * A run on an NFS mount (issue 34), per test: what went over the wire
 * (io/nfs_wire.h), the server's disks beside it when the server is this
 * machine, the write amplification over the wire and on those disks,
 * what was done about the client's and the server's caches, and the
 * mount or export settings that inflate the test's figure (an async
 * export for the tests that write, nocto or a long attribute cache for
 * those that read or stat).  JSON "nfs" of each test, and a text
 * section after clyde's own.
 */
#ifndef CLYDE_RESULTS_NFS_OUT_H
#define CLYDE_RESULTS_NFS_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/json_out.h"
#include "results/result.h"

/* Is the run's target an NFS mount? */
bool clyde_nfs_run(const struct clyde_run *r);

/* The settings of r's mount and export that inflate test id's figure,
 * as "async export, nocto" into buf; "" when none.  Returns buf. */
char *clyde_nfs_inflated(const struct clyde_run *r, enum clyde_test id,
			 char *buf, size_t len);

/* JSON "nfs" of test id of run r: null when r is not on NFS. */
/* The wire counters of m (rpcs .. bytes_received) and its busiest
 * operations ("ops"), as every "nfs" object has them: the test's and,
 * under clyde-mpi, each rank's (dist/dist_wire.c). */
void clyde_jw_nfs_counts(struct clyde_jw *w, const struct clyde_nfs_moved *m);
void clyde_jw_nfs_ops(struct clyde_jw *w, const struct clyde_nfs_moved *m);
void clyde_jw_nfs(struct clyde_jw *w, const struct clyde_run *r,
		  enum clyde_test id);

/* The text section for runs[0..n) (the first run's figures); nothing
 * when they are not on NFS. */
void clyde_nfs_text(FILE *f, const struct clyde_run *runs, unsigned n);

#endif
