/*
 * A run spread over the ranks of a communicator: agreement, merging and
 * failures (dist.h).  Only collectives of comm.h are used, so the MPI calls
 * stay in mpi_comm.c.
 */
#include "dist/dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ctx.h"
#include "results/json_out.h"

/* One worker's span as it travels: plain integers, no pointers. */
struct wire_span {
	uint64_t start_ns, end_ns, bytes, ops, cpu_user_ns, cpu_sys_ns,
		latency_max_ns, resident_bytes, cached_total_bytes, stonewalled,
		buffer_pages, inflight_max;
};

/* A rank's status for clyde_dist_failures. */
struct wire_fail {
	int32_t code; /* positive errno, 0 when the rank did not fail */
	int32_t peer; /* it stopped because another rank failed */
	char msg[504];
};

int clyde_dist_init(struct clyde_dist *d, struct clyde_comm *comm)
{
	char host[CLYDE_HOST_MAX];

	memset(d, 0, sizeof(*d));
	d->comm = comm;
	if (comm->rank == 0) {
		d->hosts = calloc((size_t)comm->size, sizeof(*d->hosts));
		if (!d->hosts)
			return -ENOMEM;
	}
	memcpy(host, comm->host, sizeof(host));
	return comm->ops->gather(comm, host, sizeof(host), d->hosts);
}

static void *watch_main(void *arg)
{
	struct clyde_dist *d = arg;

	while (!atomic_load(&d->watch_quit)) {
		if (d->wall_at_ns &&
		    clyde_monotonic_ns(NULL) >= d->wall_at_ns) {
			atomic_store(d->wall, 1);
			d->wall_at_ns = 0;
		}
		if (d->comm->ops->notified(d->comm)) {
			atomic_store(&d->peer_stopped, true);
			atomic_store(d->watch_stop, 1);
			break;
		}
		/* A failure elsewhere is seen within 10 ms. */
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return NULL;
}

int clyde_dist_watch(struct clyde_dist *d, atomic_int *stop)
{
	if (!d->comm->ops->notified || d->watching ||
	    atomic_load(&d->peer_stopped))
		return 0;
	d->watch_stop = stop;
	d->wall_at_ns = 0;
	if (d->wall && d->stonewall_s > 0) {
		atomic_store(d->wall, 0);
		d->wall_at_ns = clyde_monotonic_ns(NULL) +
				(uint64_t)(d->stonewall_s * 1e9);
	}
	atomic_store(&d->watch_quit, false);
	if (pthread_create(&d->watch, NULL, watch_main, d) != 0)
		return -EAGAIN;
	d->watching = true;
	return 0;
}

static void watch_end(struct clyde_dist *d)
{
	if (!d->watching)
		return;
	atomic_store(&d->watch_quit, true);
	pthread_join(d->watch, NULL);
	d->watching = false;
}

static void free_shares(struct clyde_dist *d)
{
	for (unsigned r = 0; r < d->nruns; r++)
		for (int t = 0; t < CLYDE_DIST_MAX_ITEMS; t++) {
			struct clyde_dist_share *s = d->shares[r][t];

			for (int i = 0; s && i < d->comm->size; i++)
				free(s[i].hist);
			free(s);
		}
	free(d->shares);
	d->shares = NULL;
	d->nruns = 0;
}

void clyde_dist_release(struct clyde_dist *d)
{
	watch_end(d);
	free_shares(d);
	free(d->hosts);
	d->hosts = NULL;
}

int clyde_dist_expand(const struct clyde_comm *c, const char *pattern,
		      char *out, size_t cap)
{
	size_t n = 0;

	for (const char *p = pattern; *p; p++) {
		char buf[CLYDE_HOST_MAX + 16];
		const char *add = buf;

		if (*p != '%') {
			buf[0] = *p;
			buf[1] = '\0';
		} else if (p[1] == 'r') {
			snprintf(buf, sizeof(buf), "%d", c->rank);
			p++;
		} else if (p[1] == 'h') {
			add = c->host;
			p++;
		} else if (p[1] == '%') {
			snprintf(buf, sizeof(buf), "%%");
			p++;
		} else {
			return -EINVAL;
		}
		if (n + strlen(add) >= cap)
			return -ENAMETOOLONG;
		memcpy(out + n, add, strlen(add));
		n += strlen(add);
	}
	out[n] = '\0';
	return 0;
}

int clyde_dist_agree(struct clyde_dist *d, int status, int64_t *value)
{
	int64_t v[2] = { status, value ? *value : INT64_MIN };
	int ret;

	watch_end(d);
	ret = d->comm->ops->max_i64(d->comm, v, 2);

	if (ret < 0)
		return ret;
	if (value)
		*value = v[1];
	return (int)v[0];
}

static uint64_t on_rank0(const struct clyde_comm *c, int rank, uint64_t t)
{
	return (uint64_t)((int64_t)t - c->offset_ns[rank]);
}

/* Rank 0: fold the gathered spans and histograms into test `t`. */
static int fold_test(struct clyde_dist *d, enum clyde_test id,
		     struct clyde_test_result *t, const struct wire_span *ws,
		     const struct clyde_hist *hs, unsigned per_rank,
		     struct clyde_dist_share *shares)
{
	const struct clyde_comm *c = d->comm;
	unsigned total = per_rank * (unsigned)c->size;
	struct clyde_span *spans = calloc(total, sizeof(*spans));

	if (!spans)
		return -ENOMEM;
	if (!t->latency && !(t->latency = malloc(sizeof(*t->latency)))) {
		free(spans);
		return -ENOMEM;
	}
	clyde_hist_reset(t->latency);
	for (unsigned i = 0; i < t->nworkers; i++)
		free(t->spans[i].hist);
	free(t->spans);
	t->spans = spans;
	t->nworkers = total;
	t->cpu_user_ns = t->cpu_sys_ns = 0;
	t->cache.resident_bytes = t->cache.total_bytes = 0;
	/* Block-device counters of one host say nothing about all ranks:
	 * nor do its member disks' or its own share of them. */
	memset(&t->dev, 0, sizeof(t->dev));
	memset(&t->members, 0, sizeof(t->members));
	memset(&t->own, 0, sizeof(t->own));
	for (int r = 0; r < c->size; r++) {
		struct clyde_dist_share *sh = &shares[r];

		sh->start_ns = UINT64_MAX;
		for (unsigned i = 0; i < per_rank; i++) {
			const struct wire_span *w =
				&ws[(unsigned)r * per_rank + i];
			struct clyde_span *s =
				&spans[(unsigned)r * per_rank + i];

			s->start_ns = on_rank0(c, r, w->start_ns);
			s->end_ns = on_rank0(c, r, w->end_ns);
			s->bytes = w->bytes;
			s->ops = w->ops;
			s->cpu_user_ns = w->cpu_user_ns;
			s->cpu_sys_ns = w->cpu_sys_ns;
			s->latency_max_ns = w->latency_max_ns;
			s->resident_bytes = w->resident_bytes;
			s->cached_total_bytes = w->cached_total_bytes;
			s->stonewalled = w->stonewalled != 0;
			s->buffer_pages =
				(enum clyde_iobuf_pages)w->buffer_pages;
			s->inflight_max = (uint32_t)w->inflight_max;
			sh->stonewalled |= s->stonewalled;
			t->cpu_user_ns += s->cpu_user_ns;
			t->cpu_sys_ns += s->cpu_sys_ns;
			if (s->start_ns < sh->start_ns)
				sh->start_ns = s->start_ns;
			if (s->end_ns > sh->end_ns)
				sh->end_ns = s->end_ns;
			sh->bytes += s->bytes;
			sh->ops += s->ops;
		}
		sh->in_bytes = clyde_test_is_io(id);
		clyde_hist_merge(t->latency, &hs[r]);
		sh->hist = malloc(sizeof(*sh->hist));
		if (sh->hist)
			memcpy(sh->hist, &hs[r], sizeof(*sh->hist));
	}
	clyde_test_sum_spans(t);
	return 0;
}

/* Move one test's spans and histogram to rank 0 (collective). */
static int merge_test(struct clyde_dist *d, enum clyde_test id,
		      struct clyde_test_result *t, unsigned per_rank,
		      struct clyde_dist_share **out)
{
	struct clyde_comm *c = d->comm;
	size_t n = (size_t)c->size;
	struct wire_span *mine = calloc(per_rank, sizeof(*mine)), *ws = NULL;
	struct clyde_hist *h = malloc(sizeof(*h)), *hs = NULL;
	int ret = 0;

	if (c->rank == 0) {
		ws = calloc(n * per_rank, sizeof(*ws));
		hs = calloc(n, sizeof(*hs));
		*out = calloc(n, sizeof(**out));
	}
	/* Every rank takes part even without memory, so that the others do
	 * not wait forever; the failure is reported after. */
	if (!mine || !h || (c->rank == 0 && (!ws || !hs || !*out)))
		ret = -ENOMEM;
	if (mine)
		for (unsigned i = 0; i < per_rank && i < t->nworkers; i++) {
			const struct clyde_span *s = &t->spans[i];

			mine[i] = (struct wire_span){
				s->start_ns,
				s->end_ns,
				s->bytes,
				s->ops,
				s->cpu_user_ns,
				s->cpu_sys_ns,
				s->latency_max_ns,
				s->resident_bytes,
				s->cached_total_bytes,
				s->stonewalled,
				s->buffer_pages,
				s->inflight_max,
			};
		}
	if (h) {
		if (t->latency)
			memcpy(h, t->latency, sizeof(*h));
		else
			clyde_hist_init(h);
	}
	{
		int r1 = c->ops->gather(c, mine, per_rank * sizeof(*mine), ws);
		int r2 = c->ops->gather(c, h, sizeof(*h), hs);

		if (!ret)
			ret = r1 < 0 ? r1 : r2;
	}
	if (!ret && c->rank == 0)
		ret = fold_test(d, id, t, ws, hs, per_rank, *out);
	free(mine);
	free(h);
	free(ws);
	free(hs);
	return ret;
}

int clyde_dist_add_run(struct clyde_dist *d)
{
	struct clyde_dist_share *(*grown)[CLYDE_DIST_MAX_ITEMS];

	if (d->comm->rank != 0)
		return 0;
	grown = realloc(d->shares, (d->nruns + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	d->shares = grown;
	memset(d->shares[d->nruns], 0, sizeof(d->shares[d->nruns]));
	d->nruns++;
	return 0;
}

static const char *test_name(int item)
{
	return clyde_test_name((enum clyde_test)item);
}

static int merge_run(struct clyde_dist *d, void *arg)
{
	struct clyde_run *run = arg;
	unsigned per_rank = run->params.concurrency ? run->params.concurrency :
						      1;
	int ret = clyde_dist_add_run(d);
	bool keep = d->comm->rank == 0 && !ret;

	d->item_name = test_name;
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		struct clyde_dist_share *sh = NULL;
		int r;

		/* The states follow from the options, the same on all. */
		if (run->tests[i].state != CLYDE_DONE)
			continue;
		r = merge_test(d, (enum clyde_test)i, &run->tests[i], per_rank,
			       &sh);
		if (keep)
			d->shares[d->nruns - 1][i] = sh;
		else
			free(sh);
		if (!ret)
			ret = r;
	}
	run->params.concurrency = per_rank * (unsigned)d->comm->size;
	return ret;
}

int clyde_dist_end(struct clyde_dist *d, int ret,
		   int (*merge)(struct clyde_dist *d, void *arg), void *arg)
{
	int all;

	watch_end(d);
	if (ret == CLYDE_DIST_PEER_FAILED)
		return ret;
	/* Stopped by another rank's failure: that rank announces it at this
	 * very agreement. */
	if (atomic_load(&d->peer_stopped)) {
		all = clyde_dist_agree(d, 0, NULL);
		return all < 0 ? all : CLYDE_DIST_PEER_FAILED;
	}
	/* Tell the others now, so that they stop in the middle of their
	 * test rather than at its end. */
	if (ret < 0 && d->comm->ops->notify)
		d->comm->ops->notify(d->comm);
	all = clyde_dist_agree(d, ret < 0 ? -ret : 0, NULL);
	if (all < 0)
		return all;
	if (ret < 0)
		return ret;
	if (all > 0)
		return CLYDE_DIST_PEER_FAILED;
	ret = merge(d, arg);
	/* Rank 0 may lack the memory to merge: all learn it. */
	all = clyde_dist_agree(d, ret < 0 ? -ret : 0, NULL);
	if (all < 0 || ret < 0)
		return all < 0 ? all : ret;
	return all > 0 ? CLYDE_DIST_PEER_FAILED : 0;
}

int clyde_dist_end_run(struct clyde_dist *d, int ret, struct clyde_run *run)
{
	return clyde_dist_end(d, ret, merge_run, run);
}

int clyde_dist_failures(struct clyde_dist *d, int ret, const char *msg,
			char *out, size_t cap, bool *interrupted)
{
	struct clyde_comm *c = d->comm;
	struct wire_fail mine = { 0 }, *all = NULL;
	size_t used = 0;
	int rc;

	mine.code = ret < 0 ? -ret : 0;
	mine.peer = ret == CLYDE_DIST_PEER_FAILED;
	snprintf(mine.msg, sizeof(mine.msg), "%s", msg ? msg : "");
	if (c->rank == 0 && !(all = calloc((size_t)c->size, sizeof(*all))))
		mine.code = ENOMEM; /* still take part */
	rc = c->ops->gather(c, &mine, sizeof(mine), all);
	if (!rc)
		rc = clyde_dist_agree(d, ret == -EINTR, NULL);
	*interrupted = rc > 0;
	if (rc > 0)
		rc = 0;
	if (cap)
		out[0] = '\0';
	for (int r = 0; all && !rc && r < c->size; r++) {
		int n;

		if (!all[r].code || all[r].peer)
			continue;
		n = snprintf(out + used, cap - used, "%srank %d on %s: %s",
			     used ? "\n" : "", r, d->hosts[r],
			     all[r].msg[0] ? all[r].msg :
					     strerror(all[r].code));
		if (n < 0 || (size_t)n >= cap - used)
			break;
		used += (size_t)n;
	}
	free(all);
	return rc;
}

static double rate(uint64_t units, uint64_t start, uint64_t end)
{
	return end > start ? (double)units * 1e9 / (double)(end - start) : 0.0;
}

static void json_share(struct clyde_jw *w, const struct clyde_dist *d,
		       unsigned run, int test, const struct clyde_dist_share *s,
		       bool with_hist)
{
	clyde_jw_open(w, NULL, '{');
	clyde_jw_u64(w, "run", run);
	clyde_jw_str(w, "name", d->item_name(test), 64);
	clyde_jw_u64(w, "start_ns", s->start_ns);
	clyde_jw_u64(w, "end_ns", s->end_ns);
	clyde_jw_u64(w, "elapsed_ns",
		     s->end_ns > s->start_ns ? s->end_ns - s->start_ns : 0);
	clyde_jw_u64(w, "bytes", s->bytes);
	clyde_jw_u64(w, "ops", s->ops);
	clyde_jw_num(w, "rate_per_s",
		     rate(s->in_bytes ? s->bytes : s->ops, s->start_ns,
			  s->end_ns),
		     3);
	if (d->stonewall_s > 0)
		clyde_jw_bool(w, "stonewalled", s->stonewalled);
	if (with_hist && s->hist)
		clyde_jw_latency(w, "latency", s->hist,
				 test == CLYDE_PUTC || test == CLYDE_GETC ? 16 :
									    1);
	clyde_jw_close(w, '}');
}

/* The first rank on the same host as rank r. */
static int host_leader(const struct clyde_dist *d, int r)
{
	for (int i = 0; i < r; i++)
		if (!strcmp(d->hosts[i], d->hosts[r]))
			return i;
	return r;
}

static void json_hosts(struct clyde_jw *w, const struct clyde_dist *d)
{
	int size = d->comm->size;

	clyde_jw_open(w, "per_host", '[');
	for (int h = 0; h < size; h++) {
		if (host_leader(d, h) != h)
			continue;
		clyde_jw_open(w, NULL, '{');
		clyde_jw_str(w, "host", d->hosts[h], CLYDE_HOST_MAX);
		clyde_jw_open(w, "ranks", '[');
		for (int r = 0; r < size; r++)
			if (host_leader(d, r) == h) {
				clyde_jw_member(w, NULL);
				fprintf(w->f, "%d", r);
			}
		clyde_jw_close(w, ']');
		clyde_jw_open(w, "tests", '[');
		for (unsigned run = 0; run < d->nruns; run++)
			for (int t = 0; t < CLYDE_DIST_MAX_ITEMS; t++) {
				const struct clyde_dist_share *s =
					d->shares[run][t];
				struct clyde_dist_share sum = {
					.start_ns = UINT64_MAX,
					.in_bytes = s ? s[0].in_bytes : false,
				};

				if (!s)
					continue;
				for (int r = 0; r < size; r++) {
					if (host_leader(d, r) != h)
						continue;
					sum.bytes += s[r].bytes;
					sum.ops += s[r].ops;
					sum.stonewalled |= s[r].stonewalled;
					if (s[r].start_ns < sum.start_ns)
						sum.start_ns = s[r].start_ns;
					if (s[r].end_ns > sum.end_ns)
						sum.end_ns = s[r].end_ns;
				}
				json_share(w, d, run, t, &sum, false);
			}
		clyde_jw_close(w, ']');
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
}

/* Per test, the rank that ended last: without a stonewall the aggregate's
 * window ends with it. */
static void json_slowest(struct clyde_jw *w, const struct clyde_dist *d)
{
	clyde_jw_open(w, "slowest", '[');
	for (unsigned run = 0; run < d->nruns; run++)
		for (int t = 0; t < CLYDE_DIST_MAX_ITEMS; t++) {
			const struct clyde_dist_share *s = d->shares[run][t];
			int slow = 0;

			if (!s)
				continue;
			for (int r = 1; r < d->comm->size; r++)
				if (s[r].end_ns - s[r].start_ns >
				    s[slow].end_ns - s[slow].start_ns)
					slow = r;
			clyde_jw_open(w, NULL, '{');
			clyde_jw_u64(w, "run", run);
			clyde_jw_str(w, "name", d->item_name(t), 64);
			clyde_jw_u64(w, "rank", (uint64_t)slow);
			clyde_jw_str(w, "host", d->hosts[slow], CLYDE_HOST_MAX);
			clyde_jw_u64(w, "elapsed_ns",
				     s[slow].end_ns - s[slow].start_ns);
			clyde_jw_close(w, '}');
		}
	clyde_jw_close(w, ']');
}

/*
 * --stonewall: per test, the rank that ended first (on rank 0's clock), how
 * many ranks the deadline cut, and the work of all ranks, which is each
 * rank's up to its own end (not a sample taken when the first ended).
 */
static void json_stonewall(struct clyde_jw *w, const struct clyde_dist *d)
{
	clyde_jw_open(w, "stonewall", '{');
	clyde_jw_num(w, "seconds", d->stonewall_s, 3);
	clyde_jw_open(w, "tests", '[');
	for (unsigned run = 0; run < d->nruns; run++)
		for (int t = 0; t < CLYDE_DIST_MAX_ITEMS; t++) {
			const struct clyde_dist_share *s = d->shares[run][t];
			uint64_t bytes = 0, ops = 0, cut = 0;
			int first = 0;

			if (!s)
				continue;
			for (int r = 0; r < d->comm->size; r++) {
				if (s[r].end_ns < s[first].end_ns)
					first = r;
				bytes += s[r].bytes;
				ops += s[r].ops;
				cut += s[r].stonewalled;
			}
			clyde_jw_open(w, NULL, '{');
			clyde_jw_u64(w, "run", run);
			clyde_jw_str(w, "name", d->item_name(t), 64);
			clyde_jw_u64(w, "first_end_rank", (uint64_t)first);
			clyde_jw_u64(w, "first_end_ns", s[first].end_ns);
			clyde_jw_u64(w, "ranks_stonewalled", cut);
			clyde_jw_u64(w, "bytes", bytes);
			clyde_jw_u64(w, "ops", ops);
			clyde_jw_close(w, '}');
		}
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

void clyde_dist_json(struct clyde_jw *w, const void *arg)
{
	const struct clyde_dist *d = arg;
	const struct clyde_comm *c = d->comm;

	clyde_jw_open(w, "mpi", '{');
	clyde_jw_u64(w, "ranks", (uint64_t)c->size);
	clyde_jw_open(w, "hosts", '[');
	for (int r = 0; r < c->size; r++)
		if (host_leader(d, r) == r)
			clyde_jw_str(w, NULL, d->hosts[r], CLYDE_HOST_MAX);
	clyde_jw_close(w, ']');
	clyde_jw_bool(w, "shared_dir", d->shared);
	clyde_jw_open(w, "per_rank", '[');
	for (int r = 0; r < c->size; r++) {
		clyde_jw_open(w, NULL, '{');
		clyde_jw_u64(w, "rank", (uint64_t)r);
		clyde_jw_str(w, "host", d->hosts[r], CLYDE_HOST_MAX);
		clyde_jw_i64(w, "clock_offset_ns", c->offset_ns[r]);
		clyde_jw_u64(w, "clock_rtt_ns", c->rtt_ns[r]);
		clyde_jw_open(w, "tests", '[');
		for (unsigned run = 0; run < d->nruns; run++)
			for (int t = 0; t < CLYDE_DIST_MAX_ITEMS; t++)
				if (d->shares[run][t])
					json_share(w, d, run, t,
						   &d->shares[run][t][r], true);
		clyde_jw_close(w, ']');
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
	json_hosts(w, d);
	json_slowest(w, d);
	if (d->stonewall_s > 0)
		json_stonewall(w, d);
	clyde_jw_close(w, '}');
}
