/*
 * The live progress line: on a terminal, one line on stderr redrawn a few
 * times a second by a thread of its own, erased before anything else is
 * printed and when the work ends.  One thread for every command that has
 * such a line: `clyde run`'s (the running test: done/total, current rate,
 * ETA) and `clyde sweep`'s (the point, the repeat, the step) are two
 * `draw` functions of it.
 */
#ifndef CLYDE_CLI_PROGRESS_H
#define CLYDE_CLI_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "core/ctx.h"
#include "workloads/bonnie.h"

struct clyde_live {
	/* Called under the lock a few times a second: write the line
	 * (starting with "\r\033[K") and return true, or return false when
	 * there is nothing to show yet. */
	bool (*draw)(void *arg);
	void *arg;
	pthread_t thread;
	atomic_int stop;
	pthread_mutex_t lock; /* serialises drawing with the erasing */
	bool shown;	      /* a line is on the screen */
	bool running;
};

/* Start the drawing thread.  Returns 0 or -1 (no thread: no line). */
int clyde_live_start(struct clyde_live *l, bool (*draw)(void *arg), void *arg);
/* Hold or release the lock: to change what draw reads, or to print a
 * line of one's own after clyde_live_erase_locked().  Nothing when the
 * thread is not running. */
void clyde_live_lock(struct clyde_live *l);
void clyde_live_unlock(struct clyde_live *l);
/* Remove the line from the screen, the lock held. */
void clyde_live_erase_locked(struct clyde_live *l);
/* Remove the line, if one is shown (call before printing anything else
 * to stderr). */
void clyde_live_erase(struct clyde_live *l);
/* Stop the thread and erase the line. */
void clyde_live_stop(struct clyde_live *l);

/* `clyde run`'s line: the running test of the bonnie++ suite. */
struct clyde_progress_display {
	struct clyde_live live;
	struct clyde_progress state; /* what the suite updates */
	const struct clyde_ctx *ctx; /* its clock */
	/* The current rate: units done since the sample of at least a
	 * second ago (the drawing thread's own; reset with each test). */
	int win_test;
	uint64_t win_start_ns, win_done, win_prev_ns, win_prev_done;
	double now_rate;
};

/* Start the drawing thread.  Returns 0 or -1. */
int clyde_progress_start(struct clyde_progress_display *d,
			 const struct clyde_ctx *ctx);
/* Remove the line from the screen, if one is shown (call before printing
 * anything else to stderr). */
void clyde_progress_erase(struct clyde_progress_display *d);
/* Stop the thread and erase the line. */
void clyde_progress_stop(struct clyde_progress_display *d);

#endif
