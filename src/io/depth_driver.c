/*
 * The queue-depth driver (depth_driver.h).  Free slots are a stack; each
 * round fills every free slot with an operation (the engine submits them
 * in its batches: clyde_engine_set_batch), commits the rest, and reaps
 * whatever has completed (at least one), queueing the continuations of
 * the operations as it goes, so they go out with the next commit.
 */
#include "io/depth_driver.h"

#include <errno.h>
#include <stdlib.h>

/* Remember the request as filled, and hand it to the engine. */
static int submit(struct clyde_engine *e, struct clyde_depth_slot *s)
{
	s->buf0 = s->req.buf;
	s->len0 = s->req.len;
	s->off0 = s->req.off;
	s->req.user = s;
	return clyde_engine_queue(e, &s->req);
}

/*
 * A request of slot s completed.  Returns 1 when the slot is busy again
 * (the rest of a short transfer, or the operation's next request), 0 when
 * its operation is done, or a negative errno.
 */
static int completed(struct clyde_engine *e, struct clyde_depth_slot *s,
		     const struct clyde_depth_ops *ops, void *arg)
{
	struct clyde_io_req *r = &s->req;
	ssize_t res = r->result;
	int ret;

	if (s->first) {
		s->start_ns = r->submit_ns;
		s->first = false;
	}
	if (res == -EINTR || res == -EAGAIN)
		return clyde_engine_queue(e, r) < 0 ? -EIO : 1;
	if (res < 0)
		return (int)res;
	if (r->op != CLYDE_IO_FSYNC && (size_t)res < r->len) {
		if (res == 0)
			return r->op == CLYDE_IO_READ ? -ENODATA : -EIO;
		r->buf = (char *)r->buf + res;
		r->len -= (size_t)res;
		r->off += res;
		ret = clyde_engine_queue(e, r);
		return ret < 0 ? ret : 1;
	}
	r->buf = s->buf0;
	r->len = s->len0;
	r->off = s->off0;
	ret = ops->next(arg, s);
	if (ret <= 0)
		return ret;
	ret = submit(e, s);
	return ret < 0 ? ret : 1;
}

int clyde_depth_run(struct clyde_engine *e, struct clyde_depth_slot *slots,
		    unsigned n, const struct clyde_depth_ops *ops, void *arg,
		    struct clyde_depth_slot **failed)
{
	struct clyde_depth_slot **free_slots = calloc(n, sizeof(*free_slots));
	struct clyde_io_req **out = calloc(n, sizeof(*out));
	unsigned nfree = n;
	bool more = true;
	int ret = 0;

	*failed = NULL;
	if (!free_slots || !out) {
		free(free_slots);
		free(out);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++)
		free_slots[i] = &slots[n - 1 - i];
	while (!ret) {
		uint64_t wake = 0;
		int got;

		while (more && nfree) {
			struct clyde_depth_slot *s = free_slots[nfree - 1];

			ret = ops->start(arg, s);
			if (ret == CLYDE_DEPTH_LATER) {
				/* Not due yet: reap until it is. */
				wake = s->due_ns ? s->due_ns : 1;
				ret = 0;
				break;
			}
			if (ret <= 0) {
				more = false;
				break;
			}
			nfree--;
			s->first = true;
			ret = submit(e, s);
			if (ret < 0) {
				*failed = s;
				break;
			}
		}
		if (ret < 0 || (!wake && !clyde_engine_busy(e)))
			break;
		got = wake ? clyde_engine_wait_until(e, wake, n, out) :
			     clyde_engine_getevents(e, 1, n, out);
		if (got < 0) {
			ret = got;
			break;
		}
		for (int i = 0; i < got && !ret; i++) {
			struct clyde_depth_slot *s = out[i]->user;
			int r = completed(e, s, ops, arg);

			if (r == 0)
				free_slots[nfree++] = s;
			else if (r < 0) {
				ret = r;
				*failed = s;
			}
		}
	}
	/* Nothing may be left in flight over the caller's buffers. */
	while (clyde_engine_busy(e) &&
	       clyde_engine_getevents(e, clyde_engine_busy(e), n, out) > 0)
		;
	free(free_slots);
	free(out);
	return ret;
}
