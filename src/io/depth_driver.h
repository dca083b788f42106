/*
 * Keeping a queue depth: a small driver over an engine instance for tests
 * whose work is a stream of operations, each one or more requests in a row
 * on one buffer (a block read is one read; a rewrite is a read, then a
 * write of the same chunk; a seek is a read, sometimes followed by a write
 * and an fsync).  The driver keeps up to `n` operations in flight, one per
 * slot, submits what it queued in the engine's batches (one request at a
 * time unless clyde_engine_set_batch said more), and reaps in batches.
 *
 * The caller provides two callbacks:
 *
 *   start(arg, slot)  fill slot->req (op, fd, buf, len, off) with the first
 *                     request of the next operation and return 1; return 0
 *                     when there is no more work, or a negative errno to
 *                     stop (e.g. -EINTR when the run is interrupted)
 *                     or CLYDE_DEPTH_LATER with slot->due_ns set to when
 *                     the next operation is due (a rate limit): the
 *                     driver reaps what completes until then
 *                     (clyde_engine_wait_until), then asks again
 *   next(arg, slot)   the slot's request has completed in full; refill
 *                     slot->req and return 1 to continue the operation with
 *                     another request, return 0 when the operation is done
 *                     (slot->req.complete_ns - slot->start_ns is then its
 *                     latency), or a negative errno to stop
 *
 * Requests run in order within a slot, so an operation's steps never race
 * each other (a rewrite writes a chunk only after reading it).  A short
 * transfer is resubmitted for the rest by the driver, and next() sees the
 * request as the caller filled it.  A request that fails stops the run:
 * the driver waits for the others in flight and returns the error (a
 * negative errno; -ENODATA for a read at the end of the file, -EIO for a
 * write that wrote nothing) with *failed pointing at the slot.
 *
 * The slots and their buffers are the caller's; slot->user and the
 * `index`, `stage` and `flags` fields are there for the callbacks.
 */
#ifndef CLYDE_IO_DEPTH_DRIVER_H
#define CLYDE_IO_DEPTH_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "io/engine.h"

struct clyde_depth_slot {
	struct clyde_io_req req;
	unsigned char *buf; /* the caller's buffer for this slot */
	uint64_t index;	    /* the callbacks': e.g. the chunk number */
	unsigned stage;	    /* the callbacks': the step of the operation */
	unsigned flags;	    /* the callbacks' */
	uint64_t start_ns;  /* submission of the operation's first request */
	uint64_t due_ns;    /* start()'s: when the operation was due */
	/* The driver's: the request as filled, while a short transfer is
	 * being finished, and whether start_ns is still to be taken. */
	void *buf0;
	size_t len0;
	off_t off0;
	bool first;
};

#define CLYDE_DEPTH_LATER 2

struct clyde_depth_ops {
	int (*start)(void *arg, struct clyde_depth_slot *s);
	int (*next)(void *arg, struct clyde_depth_slot *s);
};

/*
 * Run operations through engine `e` with up to n slots busy (n <= the
 * engine's depth) until start() says there is no more work and every
 * operation is done.  Returns 0 or the first error (see above).
 */
int clyde_depth_run(struct clyde_engine *e, struct clyde_depth_slot *slots,
		    unsigned n, const struct clyde_depth_ops *ops, void *arg,
		    struct clyde_depth_slot **failed);

#endif
