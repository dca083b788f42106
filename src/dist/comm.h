/*
 * The communicator a distributed run talks through: who this process is
 * (rank, size, host) and the four collective operations clyde needs.  Only
 * src/dist/mpi_comm.c fills it with MPI calls (and is built only into
 * clyde-mpi), so nothing else in clyde depends on MPI.
 *
 * Every operation is collective: all ranks call it, in the same order.
 * Each returns 0 or a negative errno.
 */
#ifndef CLYDE_DIST_COMM_H
#define CLYDE_DIST_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLYDE_HOST_MAX 64

struct clyde_comm;

struct clyde_comm_ops {
	/* v[0..n) becomes the largest value any rank passed, on every rank. */
	int (*max_i64)(struct clyde_comm *c, int64_t *v, size_t n);
	/* Rank 0's `all` (size * len bytes) receives every rank's `mine`
	 * (len bytes, the same len on every rank) in rank order; `all` is
	 * ignored on the other ranks. */
	int (*gather)(struct clyde_comm *c, const void *mine, size_t len,
		      void *all);
	/* Rank 0's buf[0..len) is copied to every rank. */
	int (*bcast)(struct clyde_comm *c, void *buf, size_t len);
	/* End every rank now, from any rank that can no longer run the
	 * protocol (after its own clean-up).  Does not return. */
	void (*abort)(struct clyde_comm *c, int status);
	/* Not collective: tell every other rank to stop (a failure here),
	 * without waiting; and whether another rank told this one.  Optional
	 * (NULL: failures are only learned at the next agreement).  May be
	 * called from a thread other than the one that calls the
	 * collectives, never at the same time. */
	void (*notify)(struct clyde_comm *c);
	bool (*notified)(struct clyde_comm *c);
	/* Not collective: -1, or the first rank found gone (killed, its
	 * node down) while the run went on; every later collective then
	 * fails.  A peer that goes after this rank was interrupted is not
	 * reported (it ended on the same interrupt), though the collectives
	 * fail as well.  Optional (NULL: a lost peer is not noticed). */
	int (*lost_peer)(struct clyde_comm *c);
};

struct clyde_comm {
	const struct clyde_comm_ops *ops;
	void *impl;
	int rank;
	int size;
	char host[CLYDE_HOST_MAX];
	/* Rank 0 only (NULL elsewhere): for each rank, its CLOCK_MONOTONIC
	 * minus rank 0's, measured at start by ping-pong (the sample with
	 * the shortest round trip), and that round trip.  A time t read on
	 * rank r is t - offset_ns[r] on rank 0's clock. */
	int64_t *offset_ns;
	uint64_t *rtt_ns;
};

#endif
