/*
 * New data at no cost to the rate: a helper thread makes the next chunk of
 * a write while the current one is in flight, so that a write at depth 1
 * waits neither for the generator nor the generator for the write.
 *
 * The helper owns the generator while it runs (the caller must not touch
 * it between clyde_fill_ahead_start and clyde_fill_ahead_stop) and fills
 * one spare buffer at a time, so the bytes written, in order, are the
 * generator's stream as a fill before each write would have made them.
 * clyde_fill_ahead_swap hands the helper a buffer the caller is done with
 * and gives back the one it filled.  The helper's CPU time is returned at
 * the stop, for the test's CPU figure.
 *
 * Nothing prints; start returns 0 or a negative errno (no thread: the
 * caller fills in line as before).
 */
#ifndef CLYDE_WORKLOADS_FILL_AHEAD_H
#define CLYDE_WORKLOADS_FILL_AHEAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/pattern.h"

struct clyde_fill_ahead {
	struct clyde_pattern_gen *pat; /* borrowed; the helper's */
	size_t len;
	unsigned char *spare; /* being filled, or filled when ready */
	bool ready, stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	uint64_t user_ns, sys_ns; /* the helper's CPU, set when it ends */
};

/* The least chunk the helper makes: handing a chunk over costs a wake-up
 * of each thread (a few microseconds, more on a loaded machine), which
 * below this is more than making 8 KiB's data in line (a microsecond):
 * measured with bonnie++'s 8 KiB chunks on tmpfs, the helper cost 4 times
 * the CPU of filling in line. */
#define CLYDE_FILL_AHEAD_MIN (64u * 1024)

/* Start the helper, which fills `spare` (len bytes) first. */
int clyde_fill_ahead_start(struct clyde_fill_ahead *a,
			   struct clyde_pattern_gen *pat, unsigned char *spare,
			   size_t len);

/* Wait for the chunk being made, return it, and have the helper make the
 * next one into `done` (a buffer whose write has completed). */
unsigned char *clyde_fill_ahead_swap(struct clyde_fill_ahead *a,
				     unsigned char *done);

/* Stop the helper (a chunk it made and nobody took is dropped) and add its
 * CPU time to *user_ns and *sys_ns. */
void clyde_fill_ahead_stop(struct clyde_fill_ahead *a, uint64_t *user_ns,
			   uint64_t *sys_ns);

#endif
