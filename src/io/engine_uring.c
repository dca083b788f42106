/*
 * io_uring through liburing: queue prepares one submission-queue entry per
 * request (the request itself is the entry's user data), commit stamps the
 * batch and submits it with one io_uring_enter (which also runs the
 * completions already due: IORING_ENTER_GETEVENTS), and getevents takes every
 * completion already posted in one pass over the completion ring, entering
 * the kernel only to wait for the ones still missing.
 *
 * The ring is set up as fio sets up its own (COOP_TASKRUN, SINGLE_ISSUER,
 * DEFER_TASKRUN: completions are run when this thread asks for them, not by
 * interrupting it), falling back to fewer flags on older kernels.  With
 * SINGLE_ISSUER only the thread that made an instance may use it, which the
 * contract already asks for.  Buffers and files are not registered: fio's
 * defaults do not either, and the requests carry arbitrary descriptors and
 * buffers.
 *
 * Built only with liburing (CLYDE_HAVE_LIBURING); without it the engine is
 * still in the table and its init says "io_uring: not built in".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"

#ifdef CLYDE_HAVE_LIBURING
#include <liburing.h>

#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

struct uring {
	struct io_uring ring;
	unsigned npending;	       /* queued since the last commit */
	struct clyde_io_req **pending; /* those, to stamp at commit */
	struct io_uring_cqe **cqes;    /* a batch of completions */
};

/* Ring flags to try, best first; the kernel says EINVAL to unknown ones. */
static const unsigned ring_flags[] = {
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
		IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};

static int uring_init(struct clyde_engine *e)
{
	struct uring *u = calloc(1, sizeof(*u));
	int ret = -EINVAL;

	if (u) {
		u->pending = calloc(e->depth, sizeof(*u->pending));
		u->cqes = calloc(e->depth, sizeof(*u->cqes));
	}
	if (!u || !u->pending || !u->cqes) {
		snprintf(e->err, sizeof(e->err),
			 "io_uring: no memory for %u requests", e->depth);
		ret = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < sizeof(ring_flags) / sizeof(ring_flags[0]);
	     i++) {
		struct io_uring_params p = { .flags = ring_flags[i] };

		ret = io_uring_queue_init_params(e->depth, &u->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (ret == -EPERM || ret == -ENOSYS || ret == -EACCES) {
		snprintf(e->err, sizeof(e->err),
			 "io_uring: not permitted (%s; see sysctl "
			 "kernel.io_uring_disabled)",
			 strerror(-ret));
		goto fail;
	}
	if (ret < 0) {
		snprintf(e->err, sizeof(e->err),
			 "io_uring: cannot set up a ring of %u entries (%s)",
			 e->depth, strerror(-ret));
		goto fail;
	}
	e->priv = u;
	return 0;
fail:
	if (u) {
		free(u->pending);
		free(u->cqes);
	}
	free(u);
	return ret;
}

static void uring_cleanup(struct clyde_engine *e)
{
	struct uring *u = e->priv;

	io_uring_queue_exit(&u->ring);
	free(u->pending);
	free(u->cqes);
	free(u);
	e->priv = NULL;
}

static int uring_queue(struct clyde_engine *e, struct clyde_io_req *r)
{
	struct uring *u = e->priv;
	struct io_uring_sqe *sqe;

	if (r->op != CLYDE_IO_READ && r->op != CLYDE_IO_WRITE &&
	    r->op != CLYDE_IO_FSYNC)
		return -EINVAL;
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return -EBUSY;
	switch (r->op) {
	case CLYDE_IO_READ:
		io_uring_prep_read(sqe, r->fd, r->buf, (unsigned)r->len,
				   (uint64_t)r->off);
		break;
	case CLYDE_IO_WRITE:
		io_uring_prep_write(sqe, r->fd, r->buf, (unsigned)r->len,
				    (uint64_t)r->off);
		break;
	case CLYDE_IO_FSYNC:
		io_uring_prep_fsync(sqe, r->fd, 0);
		break;
	default:
		return -EINVAL;
	}
	io_uring_sqe_set_data(sqe, r);
	u->pending[u->npending++] = r;
	return CLYDE_ENGINE_QUEUED;
}

static int uring_commit(struct clyde_engine *e)
{
	struct uring *u = e->priv;
	uint64_t now = clyde_engine_stamp(e);
	unsigned left = u->npending;

	e->now_ns = now;

	for (unsigned i = 0; i < u->npending; i++)
		u->pending[i]->submit_ns = now;
	while (left) {
		/* With GETEVENTS, as fio's commit enters: under DEFER_TASKRUN
		 * the kernel runs the completions already due in the same
		 * call, so the next reap finds them without a wait. */
		int ret = io_uring_submit_and_get_events(&u->ring);

		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret < 0)
			return ret;
		left -= (unsigned)ret < left ? (unsigned)ret : left;
	}
	u->npending = 0;
	return 0;
}

/* Move the completions posted now (up to max) into out; their count. */
static unsigned reap(struct clyde_engine *e, unsigned max,
		     struct clyde_io_req **out)
{
	struct uring *u = e->priv;
	unsigned n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max);
	uint64_t now;

	if (!n)
		return 0;
	now = clyde_engine_stamp(e);
	e->now_ns = now;
	for (unsigned i = 0; i < n; i++) {
		struct clyde_io_req *r = io_uring_cqe_get_data(u->cqes[i]);

		r->result = u->cqes[i]->res;
		r->complete_ns = now;
		out[i] = r;
	}
	io_uring_cq_advance(&u->ring, n);
	return n;
}

static int uring_getevents(struct clyde_engine *e, unsigned min, unsigned max,
			   struct clyde_io_req **out)
{
	struct uring *u = e->priv;
	unsigned n = reap(e, max, out);

	while (n < min) {
		struct io_uring_cqe *cqe;
		int ret = io_uring_wait_cqe_nr(&u->ring, &cqe, min - n);

		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret < 0)
			return ret;
		n += reap(e, max - n, out + n);
	}
	return (int)n;
}

static int uring_getevents_until(struct clyde_engine *e, uint64_t deadline_ns,
				 unsigned max, struct clyde_io_req **out)
{
	struct uring *u = e->priv;
	unsigned n = reap(e, max, out);

	while (!n) {
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts;
		uint64_t now = clyde_engine_stamp(e);
		int ret;

		if (now >= deadline_ns)
			return 0;
		ts.tv_sec = (long long)((deadline_ns - now) / 1000000000u);
		ts.tv_nsec = (long long)((deadline_ns - now) % 1000000000u);
		ret = io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
		if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN)
			return ret;
		n = reap(e, max, out);
		/* A signal: back to the caller, which looks whether to
		 * stop. */
		if (ret == -EINTR)
			break;
	}
	return (int)n;
}

const struct clyde_engine_ops clyde_engine_io_uring = {
	.name = "io_uring",
	.default_depth = 32,
	.init = uring_init,
	.cleanup = uring_cleanup,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.getevents_until = uring_getevents_until,
};

#else /* !CLYDE_HAVE_LIBURING */

static int uring_absent(struct clyde_engine *e)
{
	snprintf(e->err, sizeof(e->err), "io_uring: not built in");
	return -ENOSYS;
}

static int uring_never(struct clyde_engine *e, struct clyde_io_req *r)
{
	(void)e;
	(void)r;
	return -ENOSYS;
}

const struct clyde_engine_ops clyde_engine_io_uring = {
	.name = "io_uring",
	.default_depth = 32,
	.init = uring_absent,
	.queue = uring_never,
};

#endif
