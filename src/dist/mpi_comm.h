/*
 * The MPI communicator (comm.h) of clyde-mpi: MPI_COMM_WORLD.  The only
 * file with MPI calls is mpi_comm.c, built only into clyde-mpi.
 *
 * Every collective is started non-blocking and polled, so that a rank
 * waiting for a peer that was killed does not hang: once `*interrupted`
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

/* True when a collective gave up: MPI must not be used again. */
bool clyde_mpi_broken(const struct clyde_comm *c);

/* MPI_Finalize (skipped when broken) and free what init allocated. */
void clyde_mpi_finalize(struct clyde_comm *c);

#endif
