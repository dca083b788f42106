#include "workloads/dev_job.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "core/loadcurve.h"
#include "io/depth_driver.h"
#include "io/verify.h"

/* The offset of request i (sequential: round the range again and again
 * when the test runs by time). */
static uint64_t next_off(struct clyde_dev_job *job, uint64_t i)
{
	if (!job->random && job->n)
		return job->start + i * job->len;
	if (!job->random)
		return job->start + (i % (job->span / job->len)) * job->len;
	return job->start +
	       clyde_rng_below(&job->rng, job->span / job->len) * job->len;
}

/* What the callbacks of the queue-depth driver share. */
struct pump {
	struct clyde_ctx *ctx;
	struct clyde_dev_job *job;
	struct clyde_dev_job_out *out;
	uint64_t issued;
	uint64_t deadline;   /* by time: no request starts after it */
	uint64_t ramp_end;   /* what completes before it is not counted */
	uint64_t t0;	     /* the job's start: --rate's schedule's */
	uint64_t checked_ns; /* --until-steady: the time looked at (by time:
			      * a series over its budget merges intervals) */
	bool steady;	     /* ... and found steady: no more requests */
};

/*
 * --until-steady: called when a request completes; once a new interval has
 * begun, look at the last steady_window full ones.  No clock reading of
 * its own, so it costs nothing between interval boundaries.
 */
static void check_steady(struct pump *p)
{
	const struct clyde_dev_job *job = p->job;
	const struct clyde_series *s = job->series;
	struct clyde_series_steady st;
	size_t full;

	if (!s || !job->steady_pct || p->steady || s->n < 1)
		return;
	full = s->n - 1; /* the last interval is still running */
	if ((uint64_t)full * s->interval_ns <= p->checked_ns ||
	    full < job->steady_window)
		return;
	p->checked_ns = (uint64_t)full * s->interval_ns;
	if (clyde_series_steadiness(s, false, full - job->steady_window, full,
				    &st) < job->steady_window ||
	    st.mean <= 0)
		return;
	if (st.slope_rel * 100.0 <= job->steady_pct &&
	    st.slope_rel * 100.0 >= -job->steady_pct) {
		p->steady = true;
		p->out->steady = true;
		p->out->steady_ns = (uint64_t)full * s->interval_ns;
	}
}

/* --verify: the request's place, its generation, its stamps. */
static void stamp(struct clyde_dev_job *job, struct clyde_depth_slot *s)
{
	struct clyde_dev_verify *v = job->verify;
	uint64_t place = ((uint64_t)s->req.off - job->start) / job->len;
	uint32_t gen = ++v->next_gen & ~CLYDE_DEV_VERIFY_EITHER;

	if (place >= v->nplaces)
		return;
	v->gen[place] = v->inflight[place] ? gen | CLYDE_DEV_VERIFY_EITHER :
					     gen;
	if (v->inflight[place] < UINT8_MAX)
		v->inflight[place]++;
	s->flags = 1; /* counted in inflight */
	clyde_verify_stamp(s->buf, job->len, clyde_verify_unit(job->len),
			   (uint64_t)s->req.off, gen, v->seed);
}

static void unstamp(struct clyde_dev_job *job, struct clyde_depth_slot *s)
{
	struct clyde_dev_verify *v = job->verify;
	uint64_t place = ((uint64_t)s->req.off - job->start) / job->len;

	if (v && s->flags && place < v->nplaces && v->inflight[place])
		v->inflight[place]--;
	s->flags = 0;
}

/* The next request, or 0 when all were issued. */
static int start(void *arg, struct clyde_depth_slot *s)
{
	struct pump *p = arg;
	struct clyde_dev_job *job = p->job;

	if (job->n && p->issued == job->n)
		return 0;
	if (clyde_stopping(p->ctx))
		return -EINTR;
	if (p->deadline && clyde_now(p->ctx) >= p->deadline)
		return 0;
	if (p->steady)
		return 0;
	if (job->rate_ops > 0) {
		uint64_t due =
			clyde_rate_due_ns(p->t0, p->issued, job->rate_ops);

		if (p->deadline && due >= p->deadline)
			return 0;
		s->due_ns = due;
		if (clyde_now(p->ctx) < due)
			return CLYDE_DEPTH_LATER;
	}
	s->req.op = job->write ? CLYDE_IO_WRITE : CLYDE_IO_READ;
	s->req.fd = job->fd;
	s->req.buf = s->buf;
	s->req.len = job->len;
	s->req.off = (off_t)next_off(job, p->issued++);
	s->stage = 0;
	if (job->write && job->pat)
		clyde_pattern_fill(job->pat, s->buf, job->len);
	if (job->write && job->verify)
		stamp(job, s);
	return 1;
}

/* A request completed in full: count it; with fsync_each, follow it with
 * an fsync (not in its latency). */
static int next(void *arg, struct clyde_depth_slot *s)
{
	struct pump *p = arg;

	if (s->stage == 1)
		return 0;
	unstamp(p->job, s);
	if (s->req.complete_ns < p->ramp_end) {
		/* The ramp: done, not counted. */
		p->out->ramp_ops++;
	} else {
		/* Under --rate from the due time: a request sent late
		 * waited for the device as much as in it. */
		uint64_t from = p->job->rate_ops > 0 ? s->due_ns : s->start_ns;
		uint64_t lat = s->req.complete_ns - from;

		if (p->job->rate_ops > 0 && s->start_ns > s->due_ns) {
			uint64_t lag = s->start_ns - s->due_ns;

			p->out->lag_sum_ns += lag;
			if (lag > p->out->lag_max_ns)
				p->out->lag_max_ns = lag;
		}
		if (p->job->hist)
			clyde_hist_record(p->job->hist, lat);
		if (p->job->series) {
			clyde_series_add(p->job->series, s->req.complete_ns,
					 lat, s->req.len, 1);
			check_steady(p);
		}
		p->out->bytes += s->req.len;
		p->out->ops++;
	}
	if (!p->job->fsync_each)
		return 0;
	s->req.op = CLYDE_IO_FSYNC;
	s->stage = 1;
	return 1;
}

static const struct clyde_depth_ops pump_ops = { .start = start, .next = next };

int clyde_dev_job_run(struct clyde_ctx *ctx, struct clyde_dev_job *job,
		      struct clyde_dev_job_out *out)
{
	struct pump p = { .ctx = ctx, .job = job, .out = out };
	struct clyde_engine e;
	struct clyde_depth_slot *slots, *failed = NULL;
	struct clyde_series_sampler sampler;
	uint64_t t0;
	int rc, slack;

	memset(out, 0, sizeof(*out));
	rc = clyde_engine_init(&e, job->engine, job->depth, ctx->clock,
			       ctx->clock_arg);
	if (rc < 0)
		return clyde_err(ctx, 0, "%s", e.err), rc;
	clyde_engine_set_batch(&e, job->batch);
	slots = calloc(job->depth, sizeof(*slots));
	if (!slots) {
		clyde_engine_release(&e);
		return clyde_err(ctx, ENOMEM, "%s", job->what);
	}
	for (unsigned i = 0; i < job->depth; i++)
		slots[i].buf = job->bufs + (size_t)i * job->len;
	/* --rate: a due time is kept to the microsecond, not to the
	 * default timer slack of 50 us. */
	slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	if (job->rate_ops > 0 && slack > 1000)
		prctl(PR_SET_TIMERSLACK, 1000ul, 0, 0, 0);
	t0 = clyde_now(ctx);
	p.t0 = t0;
	if (job->runtime_ns)
		p.deadline = t0 + job->ramp_ns + job->runtime_ns;
	if (job->ramp_ns)
		p.ramp_end = t0 + job->ramp_ns;
	/* Dirty and writeback sampled apart from the completions (a stall
	 * keeps its figures); only on the real clock: a replaced one (tests)
	 * is not read from another thread. */
	clyde_series_sampler_start(&sampler,
				   job->series && ctx->clock ==
							   clyde_monotonic_ns ?
					   job->series->interval_ns :
					   0,
				   ctx->clock, ctx->clock_arg,
				   clyde_series_meminfo, NULL, NULL, NULL);
	if (job->series) {
		clyde_series_start(job->series, p.ramp_end ? p.ramp_end : t0);
		job->series->sampler = sampler.mem ? &sampler : NULL;
	}
	rc = clyde_depth_run(&e, slots, job->depth, &pump_ops, &p, &failed);
	if (rc < 0 && rc != -EINTR)
		clyde_err(ctx, rc == -ENODATA ? 0 : -rc,
			  "%s: %s of %zu bytes at %jd%s", job->what,
			  failed && failed->req.op == CLYDE_IO_FSYNC ? "fsync" :
			  job->write				     ? "write" :
								       "read",
			  failed ? failed->req.len : 0,
			  failed ? (intmax_t)failed->req.off : (intmax_t)-1,
			  rc == -ENODATA ? ": the device ends early" : "");
	if (rc == 0 && job->fsync_end) {
		rc = clyde_engine_fsync(&e, job->fd);
		if (rc < 0)
			clyde_err(ctx, -rc, "%s: fsync", job->what);
	}
	/* The figures' time starts when the ramp ends. */
	{
		uint64_t end = clyde_now(ctx);

		out->elapsed_ns = end - (p.ramp_end ? p.ramp_end : t0);
		if (job->series) {
			clyde_series_end(job->series, end);
			job->series->sampler = NULL;
		}
		clyde_series_sampler_stop(&sampler);
	}
	if (job->rate_ops > 0 && slack > 1000)
		prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
	out->max_inflight = e.max_inflight;
	out->mean_inflight = clyde_engine_mean_inflight(&e);
	out->submit_calls = e.submit_calls;
	out->submitted = e.submitted;
	clyde_engine_release(&e);
	free(slots);
	return rc;
}

int clyde_dev_verify_init(struct clyde_ctx *ctx, struct clyde_dev_verify *v,
			  const struct clyde_dev_job *job, uint64_t seed)
{
	memset(v, 0, sizeof(*v));
	v->seed = seed;
	v->nplaces = job->span / job->len;
	if (v->nplaces > CLYDE_DEV_VERIFY_MAX_PLACES)
		return clyde_err(
			       ctx, 0,
			       "%s: --verify follows at most %llu requests' "
			       "places; this range has %" PRIu64
			       " of %u bytes (a smaller --size)",
			       job->what,
			       (unsigned long long)CLYDE_DEV_VERIFY_MAX_PLACES,
			       v->nplaces, job->len),
		       -E2BIG;
	v->gen = calloc(v->nplaces ? v->nplaces : 1, sizeof(*v->gen));
	v->inflight = calloc(v->nplaces ? v->nplaces : 1, 1);
	if (!v->gen || !v->inflight) {
		clyde_dev_verify_release(v);
		return clyde_err(ctx, ENOMEM, "%s: --verify", job->what);
	}
	return 0;
}

void clyde_dev_verify_release(struct clyde_dev_verify *v)
{
	free(v->gen);
	free(v->inflight);
	v->gen = NULL;
	v->inflight = NULL;
}

struct gen_of {
	const struct clyde_dev_job *job;
	const struct clyde_dev_verify *v;
};

static uint32_t gen_at(void *arg, uint64_t off, bool *any_older)
{
	const struct gen_of *g = arg;
	uint64_t place = (off - g->job->start) / g->job->len;
	uint32_t gen;

	if (place >= g->v->nplaces)
		return 0;
	gen = g->v->gen[place];
	*any_older = gen & CLYDE_DEV_VERIFY_EITHER;
	return gen & ~CLYDE_DEV_VERIFY_EITHER;
}

int clyde_dev_verify_read(struct clyde_ctx *ctx,
			  const struct clyde_dev_job *job,
			  const struct clyde_dev_verify *v, uint64_t *blocks)
{
	struct gen_of g = { .job = job, .v = v };
	struct clyde_verify_result res;
	char what[4200];
	struct clyde_verify_read r = {
		.fd = job->fd,
		.what = what,
		.start = job->start,
		.len = v->nplaces * job->len,
		.piece = job->len,
		.unit = clyde_verify_unit(job->len),
		.gen_at = gen_at,
		.gen_arg = &g,
		.seed = v->seed,
	};
	int rc;

	snprintf(what, sizeof(what), "--verify: %s", job->what);
	rc = clyde_verify_read(ctx, &r, &res);
	*blocks = res.units;
	return rc;
}
