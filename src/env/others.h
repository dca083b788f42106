/*
 * Other processes' I/O during a test.  The devices' counters say how much
 * was moved that clyde did not ask for (results/testio.h's "other I/O"),
 * but part of that is the filesystem working for clyde: the journal and
 * metadata its writes cause, written by kernel threads.  What another
 * process did is told by the processes themselves: /proc/PID/io's
 * read_bytes and write_bytes (less cancelled_write_bytes), which count
 * the children a process has reaped too.
 *
 * A process counts when it is not clyde (nor a child of clyde), not a
 * kernel thread (PF_KTHREAD in /proc/PID/stat), and is tied to the
 * target's filesystem at the look before or after the test: its working
 * directory or one of its open files is on the target's device (st_dev),
 * or it is the parent (or grandparent, ...) of such a process, so that a
 * shell loop of short-lived writers counts through the shell that reaps
 * them.  The look after the test is taken CLYDE_OTHERS_LOOKS times
 * CLYDE_OTHERS_GAP_MS apart and a tie in any of them counts.  Its bytes are the difference between the two looks (all of them
 * for a process started during the test); a process gone at the second
 * look is not counted (its parent's count has its bytes once reaped).
 *
 * These are bytes above the block layer: results/testio.c takes at most
 * the device's other I/O as another's, the rest is the filesystem's work
 * for clyde.
 */
#ifndef CLYDE_ENV_OTHERS_H
#define CLYDE_ENV_OTHERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CLYDE_OTHERS_LOOKS 3
#define CLYDE_OTHERS_GAP_MS 10

struct clyde_others_proc {
	pid_t pid, ppid;
	unsigned long long start; /* /proc/PID/stat starttime */
	uint64_t read, write;
	bool tied; /* on the target's device, or an ancestor of one */
};

struct clyde_others_snap {
	bool have;
	size_t n, cap;
	struct clyde_others_proc *p;
};

/* Read every process under root's /proc ("" or NULL: the real one) but
 * self and its children; tie those on device dev (0: none tied).
 * Returns 0 or negative errno (nothing readable). */
int clyde_others_read(const char *root, pid_t self, dev_t dev,
		      struct clyde_others_snap *s);

/* A process of s tied in the earlier look (the same pid and start) is
 * tied in s, and so are its ancestors: looks a few ms apart catch a
 * writer between two short-lived children at one of them. */
void clyde_others_merge_ties(struct clyde_others_snap *s,
			     const struct clyde_others_snap *earlier);

/* The tied processes' bytes from a to b (either look's ties). */
void clyde_others_delta(const struct clyde_others_snap *a,
			const struct clyde_others_snap *b, uint64_t *read,
			uint64_t *write, unsigned *procs);

void clyde_others_free(struct clyde_others_snap *s);

#endif
