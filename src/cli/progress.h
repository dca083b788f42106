/*
 * The live progress line: on a terminal, one line on stderr for the running
 * test (done/total, current rate, ETA), redrawn a few times a second by a
 * thread of its own and erased when the test ends.
 */
#ifndef CLYDE_CLI_PROGRESS_H
#define CLYDE_CLI_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/ctx.h"
#include "workloads/bonnie.h"

struct clyde_progress_display {
	struct clyde_progress state; /* what the suite updates */
	const struct clyde_ctx *ctx; /* its clock */
	pthread_t thread;
	atomic_int stop;
	pthread_mutex_t lock; /* serialises drawing with clyde_progress_erase */
	int shown;	      /* a line is on the screen */
	int running;
	/* The current rate: units done since the sample of at least a
	 * second ago (the drawing thread's own; reset with each test). */
	int win_test;
	uint64_t win_start_ns, win_done, win_prev_ns, win_prev_done;
	double now_rate;
};

/* Start the drawing thread.  Returns 0 or -errno. */
int clyde_progress_start(struct clyde_progress_display *d,
			 const struct clyde_ctx *ctx);
/* Remove the line from the screen, if one is shown (call before printing
 * anything else to stderr). */
void clyde_progress_erase(struct clyde_progress_display *d);
/* Stop the thread and erase the line. */
void clyde_progress_stop(struct clyde_progress_display *d);

#endif
