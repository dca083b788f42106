/*
 * The MPI communicator (comm.h) of clyde-mpi: MPI_COMM_WORLD.  The only
 * file with MPI calls is mpi_comm.c, built only into clyde-mpi.
 *
 * Every collective is started non-blocking and polled, so that a rank
 * waiting for a peer that was killed does not hang: it fails with -EPIPE
 * as soon as the peer watch (a TCP connection of every rank to rank 0,
 * see mpi_comm.c) finds a rank gone; and once `*interrupted`
 * is set (mpirun sends SIGTERM to the survivors when a rank dies, and
 * forwards SIGINT), a wait that has not completed within 5 s gives up
 * with -EINTR, and every later collective fails with -EPIPE at
 * once.  The caller then removes its scratch directory and exits without
 * MPI_Finalize.
 */
#ifndef CLYDE_DIST_MPI_COMM_H
#define CLYDE_DIST_MPI_COMM_H

#include <signal.h>
#include <stdbool.h>

#include "dist/comm.h"

/* MPI_Init, rank, size, host, and the clock offsets against rank 0.
 * Returns 0 or a negative errno with a message in err. */
int clyde_mpi_init(struct clyde_comm *c, int *argc, char ***argv,
		   volatile sig_atomic_t *interrupted, char *err, size_t len);

/* NULL, or why this run has no watch on lost peers (comm.h's lost_peer;
 * mpi_comm.c, "A lost peer"): a killed rank is then only noticed when
 * mpirun signals the others. */
const char *clyde_mpi_watch_note(const struct clyde_comm *c);

/* True when a collective gave up: MPI must not be used again. */
bool clyde_mpi_broken(const struct clyde_comm *c);

/* MPI_Finalize (skipped when broken) and free what init allocated. */
void clyde_mpi_finalize(struct clyde_comm *c);

#endif
