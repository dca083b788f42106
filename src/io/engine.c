/*
 * The engine table and what every engine shares: the depth check, the list
 * of requests a synchronous engine completed in queue, and the blocking
 * helpers.  The engines themselves are engine_psync.c and engine_uring.c.
 */
#include "io/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct clyde_engine_ops *const engines[] = {
	&clyde_engine_psync,
	&clyde_engine_io_uring,
};

#define N_ENGINES (sizeof(engines) / sizeof(engines[0]))

const struct clyde_engine_ops *clyde_engine_find(const char *name)
{
	for (size_t i = 0; i < N_ENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

bool clyde_engine_name_sync(const char *name)
{
	const struct clyde_engine_ops *ops = clyde_engine_find(name);

	return ops && ops->sync;
}

const char *clyde_engine_names(void)
{
	/* Made from the table once; the same text every call after that. */
	static char names[N_ENGINES * 32];

	if (!names[0]) {
		size_t used = 0;

		for (size_t i = 0; i < N_ENGINES && used < sizeof(names); i++)
			used += (size_t)snprintf(names + used,
						 sizeof(names) - used, "%s%s",
						 i ? "|" : "",
						 engines[i]->name);
	}
	return names;
}

int clyde_engine_init(struct clyde_engine *e,
		      const struct clyde_engine_ops *ops, unsigned depth,
		      clyde_clock_fn clock, void *clock_arg)
{
	int ret;

	memset(e, 0, sizeof(*e));
	e->ops = ops;
	e->depth = depth;
	e->batch = 1;
	e->clock = clock;
	e->clock_arg = clock_arg;
	if (depth < 1 || depth > CLYDE_ENGINE_MAX_DEPTH) {
		snprintf(e->err, sizeof(e->err),
			 "%s: queue depth %u is not in 1-%u", ops->name, depth,
			 CLYDE_ENGINE_MAX_DEPTH);
		return -EINVAL;
	}
	e->done = calloc(depth, sizeof(*e->done));
	if (!e->done) {
		snprintf(e->err, sizeof(e->err),
			 "%s: no memory for %u requests", ops->name, depth);
		return -ENOMEM;
	}
	ret = ops->init ? ops->init(e) : 0;
	if (ret < 0) {
		free(e->done);
		e->done = NULL;
	}
	return ret;
}

int clyde_engine_check(const struct clyde_engine_ops *ops, unsigned depth,
		       char *err, size_t errlen)
{
	struct clyde_engine e;
	int ret;

	/* A depth the engine cannot keep is refused, not printed and then
	 * not run (clyde dev refuses it alike, workloads/dev.c). */
	if (ops == &clyde_engine_psync && depth > 1) {
		snprintf(err, errlen,
			 "--iodepth %u: the psync engine performs one request "
			 "at a time; use --engine io_uring for a queue depth",
			 depth);
		return -EINVAL;
	}
	ret = clyde_engine_init(&e, ops, depth, NULL, NULL);
	if (ret < 0)
		snprintf(err, errlen, "%s", e.err);
	else
		clyde_engine_release(&e);
	return ret;
}

void clyde_engine_release(struct clyde_engine *e)
{
	struct clyde_io_req *out[16];

	if (!e->done)
		return;
	while (clyde_engine_busy(e))
		if (clyde_engine_getevents(e, 1, 16, out) < 0)
			break;
	if (e->ops->cleanup)
		e->ops->cleanup(e);
	free(e->done);
	e->done = NULL;
}

int clyde_engine_queue(struct clyde_engine *e, struct clyde_io_req *r)
{
	int ret;

	if (clyde_engine_busy(e) >= e->depth)
		return -EBUSY;
	ret = e->ops->queue(e, r);
	if (ret < 0)
		return ret;
	if (ret == CLYDE_ENGINE_COMPLETED) {
		e->done[e->ndone++] = r;
		if (!e->max_inflight)
			e->max_inflight = 1;
	} else if (++e->queued >= e->batch)
		return clyde_engine_commit(e);
	return 0;
}

void clyde_engine_set_batch(struct clyde_engine *e, unsigned n)
{
	e->batch = n < 1		      ? 1 :
		   n > CLYDE_ENGINE_MAX_DEPTH ? CLYDE_ENGINE_MAX_DEPTH :
						n;
}

/* The number in flight is about to change at the engine's stamp now_ns:
 * add the interval since the last change to the integral. */
static void account(struct clyde_engine *e)
{
	uint64_t now = e->now_ns;

	if (!now)
		return;
	if (e->last_ns && e->inflight && now > e->last_ns) {
		e->inflight_area += (uint64_t)e->inflight * (now - e->last_ns);
		e->busy_ns += now - e->last_ns;
	}
	e->last_ns = now;
}

double clyde_engine_mean_inflight(const struct clyde_engine *e)
{
	if (!e->ops->commit)
		return e->max_inflight ? 1.0 : 0.0;
	return e->busy_ns ? (double)e->inflight_area / (double)e->busy_ns : 0.0;
}

int clyde_engine_commit(struct clyde_engine *e)
{
	int ret;

	if (!e->queued)
		return 0;
	ret = e->ops->commit(e);
	if (ret < 0)
		return ret;
	account(e);
	e->submit_calls++;
	e->submitted += e->queued;
	e->inflight += e->queued;
	e->queued = 0;
	if (e->inflight > e->max_inflight)
		e->max_inflight = e->inflight;
	return 0;
}

int clyde_engine_getevents(struct clyde_engine *e, unsigned min, unsigned max,
			   struct clyde_io_req **out)
{
	unsigned n = e->ndone < max ? e->ndone : max;
	int ret = clyde_engine_commit(e);

	if (ret < 0)
		return ret;
	if (min > clyde_engine_busy(e))
		min = clyde_engine_busy(e);
	/* First what a synchronous engine completed in queue, oldest first. */
	memcpy(out, e->done, n * sizeof(*out));
	e->ndone -= n;
	memmove(e->done, e->done + n, e->ndone * sizeof(*e->done));
	/* Then the kernel's: wait only for what is still missing. */
	if (e->inflight && n < max) {
		ret = e->ops->getevents(e, min > n ? min - n : 0, max - n,
					out + n);
		if (ret < 0)
			return ret;
		if (ret)
			account(e);
		e->inflight -= (unsigned)ret;
		n += (unsigned)ret;
	}
	return (int)n;
}

/* Sleep until the instance's clock reads deadline_ns, or a signal. */
static void sleep_until(const struct clyde_engine *e, uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = clyde_engine_stamp(e);
		struct timespec ts;

		if (now >= deadline_ns)
			return;
		ts.tv_sec = (time_t)((deadline_ns - now) / 1000000000u);
		ts.tv_nsec = (long)((deadline_ns - now) % 1000000000u);
		/* A signal ends the wait early: the caller looks whether
		 * to stop (an interrupt at a low --rate). */
		if (nanosleep(&ts, NULL) < 0 && errno == EINTR)
			return;
	}
}

int clyde_engine_wait_until(struct clyde_engine *e, uint64_t deadline_ns,
			    unsigned max, struct clyde_io_req **out)
{
	int ret = clyde_engine_commit(e);

	if (ret < 0)
		return ret;
	if (e->ndone || (e->inflight && !e->ops->getevents_until))
		return clyde_engine_getevents(e, 1, max, out);
	if (!e->inflight) {
		sleep_until(e, deadline_ns);
		return 0;
	}
	ret = e->ops->getevents_until(e, deadline_ns, max, out);
	if (ret <= 0)
		return ret;
	account(e);
	e->inflight -= (unsigned)ret;
	return ret;
}

ssize_t clyde_engine_do(struct clyde_engine *e, struct clyde_io_req *r)
{
	struct clyde_io_req *got;
	int ret;

	/* A synchronous engine with nothing busy needs no bookkeeping: the
	 * per-char tests make one call per byte through here. */
	if (!e->ops->commit && !clyde_engine_busy(e)) {
		ret = e->ops->queue(e, r);
		if (ret >= 0 && !e->max_inflight)
			e->max_inflight = 1;
		return ret < 0 ? ret : r->result;
	}
	ret = clyde_engine_queue(e, r);
	if (ret < 0)
		return ret;
	ret = clyde_engine_getevents(e, 1, 1, &got);
	if (ret < 0)
		return ret;
	return r->result;
}

/* Transfer exactly len bytes with requests of `op`. */
static int transfer_full(struct clyde_engine *e, enum clyde_io_op op, int fd,
			 char *p, size_t len, off_t off)
{
	while (len) {
		struct clyde_io_req r = {
			.op = op, .fd = fd, .buf = p, .len = len, .off = off
		};
		ssize_t n = clyde_engine_do(e, &r);

		if (n == -EINTR || n == -EAGAIN)
			continue;
		if (n < 0)
			return (int)n;
		if (n == 0)
			return op == CLYDE_IO_READ ? -ENODATA : -EIO;
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

int clyde_engine_read_full(struct clyde_engine *e, int fd, void *buf,
			   size_t len, off_t off)
{
	return transfer_full(e, CLYDE_IO_READ, fd, buf, len, off);
}

int clyde_engine_write_full(struct clyde_engine *e, int fd, const void *buf,
			    size_t len, off_t off)
{
	/* The engine only reads a write's buffer. */
	return transfer_full(e, CLYDE_IO_WRITE, fd, (char *)buf, len, off);
}

int clyde_engine_fsync(struct clyde_engine *e, int fd)
{
	struct clyde_io_req r = { .op = CLYDE_IO_FSYNC, .fd = fd };
	ssize_t ret;

	do
		ret = clyde_engine_do(e, &r);
	while (ret == -EINTR);
	return (int)ret;
}
