/*
 * Synchronising several clyde processes on one host (bonnie++'s -p/-y) with
 * System V semaphores.  `clyde -p N` creates the set for N processes; every
 * process run with `-y s` then calls clyde_semsync_wait() before each test
 * and continues only when all N have arrived.
 *
 * The set holds two semaphores: [0] counts arrivals since creation, [1]
 * holds N.  The g-th barrier of a process waits until [0] reaches N*g, which
 * needs no reset between barriers and so cannot race.  The counter is
 * bounded by SEMVMX (32767): N times the number of barriers must stay below.
 */
#ifndef CLYDE_DIST_SEMSYNC_H
#define CLYDE_DIST_SEMSYNC_H

#include "core/ctx.h"

/* The key; bonnie++ uses 4711, clyde its own so that the two never mix. */
#define CLYDE_SEM_KEY 0x636c7964

struct clyde_semsync {
	int semid;
	int nprocs;
	unsigned generation;
};

/* Create (or reset) the set for nprocs processes. */
int clyde_semsync_create(struct clyde_ctx *ctx, int nprocs);
/* Remove the set. */
int clyde_semsync_remove(struct clyde_ctx *ctx);
/* Attach to an existing set; refuse a set already used by a
 * run or left by an interrupted one, naming how to reset it. */
int clyde_semsync_open(struct clyde_ctx *ctx, struct clyde_semsync *s);
/* Wait until every process has reached its next barrier.  Returns 0,
 * -EINTR when a signal interrupted the wait, or another negative errno. */
int clyde_semsync_wait(struct clyde_ctx *ctx, struct clyde_semsync *s);

#endif
