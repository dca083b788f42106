#include "workloads/dev_job.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The offset of request i. */
static uint64_t next_off(struct clyde_dev_job *job, uint64_t i)
{
	if (!job->random)
		return job->start + i * job->len;
	return job->start +
	       clyde_rng_below(&job->rng, job->span / job->len) * job->len;
}

/* One completed request: check it, count it.  0 or a negative errno. */
static int complete(struct clyde_ctx *ctx, struct clyde_dev_job *job,
		    const struct clyde_io_req *r, struct clyde_dev_job_out *out)
{
	if (r->result < 0)
		return clyde_err(ctx, (int)-r->result,
				 "%s: %s of %zu bytes at %jd", job->what,
				 job->write ? "write" : "read", r->len,
				 (intmax_t)r->off);
	if ((size_t)r->result != r->len)
		return clyde_err(ctx, 0,
				 "%s: short %s at %jd (%zd of %zu bytes): the "
				 "device ends early",
				 job->what, job->write ? "write" : "read",
				 (intmax_t)r->off, r->result, r->len),
		       -EIO;
	if (job->hist)
		clyde_hist_record(job->hist, r->complete_ns - r->submit_ns);
	out->bytes += r->len;
	out->ops++;
	return 0;
}

/* The request loop: keep up to depth requests busy until n are done. */
static int pump(struct clyde_ctx *ctx, struct clyde_dev_job *job,
		struct clyde_engine *e, struct clyde_io_req *reqs,
		struct clyde_io_req **ev, struct clyde_dev_job_out *out)
{
	struct clyde_io_req **freel = ev + job->depth;
	unsigned nfree = job->depth;
	uint64_t issued = 0;
	int rc;

	for (unsigned i = 0; i < job->depth; i++)
		freel[i] = &reqs[i];
	while (out->ops < job->n) {
		while (issued < job->n && nfree) {
			struct clyde_io_req *r = freel[--nfree];

			r->op = job->write ? CLYDE_IO_WRITE : CLYDE_IO_READ;
			r->fd = job->fd;
			r->len = job->len;
			r->off = (off_t)next_off(job, issued++);
			rc = clyde_engine_queue(e, r);
			if (rc < 0)
				return clyde_err(ctx, -rc, "%s: %s engine",
						 job->what, e->ops->name);
		}
		rc = clyde_engine_commit(e);
		if (rc >= 0)
			rc = clyde_engine_getevents(e, 1, job->depth, ev);
		if (rc < 0)
			return clyde_err(ctx, -rc, "%s: %s engine", job->what,
					 e->ops->name);
		for (int i = 0; i < rc; i++) {
			int c = complete(ctx, job, ev[i], out);

			if (c < 0)
				return c;
			if (job->fsync_each &&
			    (c = clyde_engine_fsync(e, job->fd)) < 0)
				return clyde_err(ctx, -c, "%s: fsync",
						 job->what);
			freel[nfree++] = ev[i];
		}
		if (clyde_stopping(ctx))
			return -EINTR;
	}
	return 0;
}

int clyde_dev_job_run(struct clyde_ctx *ctx, struct clyde_dev_job *job,
		      struct clyde_dev_job_out *out)
{
	struct clyde_engine e;
	struct clyde_io_req *reqs;
	struct clyde_io_req **ev;
	uint64_t t0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = clyde_engine_init(&e, job->engine, job->depth, ctx->clock,
			       ctx->clock_arg);
	if (rc < 0)
		return clyde_err(ctx, 0, "%s", e.err), rc;
	reqs = calloc(job->depth, sizeof(*reqs));
	ev = calloc(2 * (size_t)job->depth, sizeof(*ev));
	if (!reqs || !ev) {
		clyde_engine_release(&e);
		free(reqs);
		free(ev);
		return clyde_err(ctx, ENOMEM, "%s", job->what);
	}
	for (unsigned i = 0; i < job->depth; i++)
		reqs[i].buf = job->bufs + (size_t)i * job->len;
	t0 = clyde_now(ctx);
	rc = pump(ctx, job, &e, reqs, ev, out);
	if (rc == 0 && job->fsync_end) {
		rc = clyde_engine_fsync(&e, job->fd);
		if (rc < 0)
			clyde_err(ctx, -rc, "%s: fsync", job->what);
	}
	out->elapsed_ns = clyde_now(ctx) - t0;
	/* Waits for what is still in flight after an error. */
	clyde_engine_release(&e);
	free(reqs);
	free(ev);
	return rc;
}
