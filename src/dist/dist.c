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
#include "core/json_out.h"
#include "results/figures.h"
#include "results/json_parts.h"

/* One worker's span as it travels: plain integers, no pointers. */
struct wire_span {
	uint64_t start_ns, end_ns, bytes, ops, cpu_user_ns, cpu_sys_ns,
		latency_max_ns, resident_bytes, cached_total_bytes, stonewalled,
		buffer_pages, inflight_max;
	/* The mean in flight in thousandths (plain integers on the wire). */
	uint64_t inflight_mean_milli;
	uint64_t refill_gap_ns, refill_gaps;
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

			for (int i = 0; s && i < d->comm->size; i++) {
				free(s[i].hist);
				clyde_dist_figs_free(&s[i].figs);
			}
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
	free(d->read_from);
	d->read_from = NULL;
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
	for (unsigned i = 0; i < t->nworkers; i++) {
		free(t->spans[i].hist);
		clyde_series_release(&t->spans[i].series);
	}
	free(t->spans);
	t->spans = spans;
	t->nworkers = total;
	t->cpu_user_ns = t->cpu_sys_ns = 0;
	t->refill_gap_ns = t->refill_gaps = 0;
	t->cache.resident_bytes = t->cache.total_bytes = 0;
	/* Block-device counters of one host say nothing about all ranks:
	 * nor do its member disks' or its own share of them, unless the
	 * target kind's figures say they hold for all (on an NFS mount the
	 * members are the server's disks, and rank 0's wire figures go:
	 * the kind's all_ranks, io/target.h). */
	memset(&t->dev, 0, sizeof(t->dev));
	if (!clyde_figs_all_ranks(t))
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
			s->inflight_mean =
				(double)w->inflight_mean_milli / 1000.0;
			s->refill_gap_ns = w->refill_gap_ns;
			s->refill_gaps = w->refill_gaps;
			t->refill_gap_ns += s->refill_gap_ns;
			t->refill_gaps += s->refill_gaps;
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
	unsigned char *figs = NULL;
	size_t stride = 0;
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
				s->inflight_mean > 0 ?
					(uint64_t)(s->inflight_mean * 1000.0 +
						   0.5) :
					0,
				s->refill_gap_ns,
				s->refill_gaps,
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
		int r3 = clyde_dist_figs_gather(c, t, &figs, &stride);

		if (!ret)
			ret = r1 < 0 ? r1 : r2 < 0 ? r2 : r3;
	}
	if (!ret && c->rank == 0)
		ret = fold_test(d, id, t, ws, hs, per_rank, *out);
	if (!ret && c->rank == 0)
		clyde_dist_figs_fold(t, figs, stride, n, *out);
	free(mine);
	free(h);
	free(ws);
	free(hs);
	free(figs);
	return ret;
}

/*
 * The time series (core/series.h) travel apart from the spans: every rank
 * agrees on the coarsest interval any has (a series over its memory budget
 * merged adjacent intervals) and brings its series to it, then on the most
 * intervals any has, then sends, per worker and interval, the counts and
 * that worker's latency figures (computed on its rank), and per interval
 * its own workers' merged histogram, packed, and per worker where its
 * series ends and its timed flush began.  Rank 0 gives each worker its
 * series back and merges the ranks' histograms bucketwise, so the test's
 * per-interval percentiles are exact over all ranks.  Intervals go by
 * index from each worker's start, which follows the ranks' common start
 * barrier.
 */
struct wire_iv {
	uint64_t bytes, ops, lat_count, p50, p99, max;
	int64_t dirty, writeback;
};

struct wire_series_meta {
	uint64_t len_ns; /* end - origin: where the worker's series stops */
	uint64_t failed;
	/* Where its timed flush began (clyde_series_flush()), from its
	 * origin; has_flush 0 when it had none. */
	uint64_t has_flush, flush_ns;
};

struct series_wire {
	size_t n;		       /* intervals of every rank's series */
	uint64_t interval_ns;	       /* 0: none recorded */
	uint64_t base_ns;	       /* --log-interval's */
	struct wire_iv *iv;	       /* rank 0: size * per_rank * n */
	struct wire_series_meta *meta; /* rank 0: size * per_rank */
	uint8_t *hs;		       /* rank 0: size * hlen */
	size_t hlen; /* per rank: per interval a 4-byte length, then the
		      * packed histogram (clyde_series_pack()) */
};

static void series_wire_free(struct series_wire *sw)
{
	free(sw->iv);
	free(sw->meta);
	free(sw->hs);
	memset(sw, 0, sizeof(*sw));
}

static struct wire_iv wire_iv_of(const struct clyde_series *s, size_t k,
				 struct clyde_hist *h)
{
	const struct clyde_series_iv *v = &s->iv[k];
	struct wire_iv w = { .bytes = v->bytes,
			     .ops = v->ops,
			     .dirty = v->dirty_bytes,
			     .writeback = v->writeback_bytes };

	if (h && clyde_series_lat(s, k, h)) {
		w.lat_count = clyde_hist_count(h);
		w.p50 = clyde_hist_quantile(h, 0.50);
		w.p99 = clyde_hist_quantile(h, 0.99);
		w.max = clyde_hist_max(h);
	}
	return w;
}

/* This rank's merged histograms of s, intervals [0, n), as the wire has
 * them: into *out (malloc'd), its length in *len.  0 or -ENOMEM. */
static int pack_hists(const struct clyde_series *s, size_t n, uint8_t **out,
		      size_t *len)
{
	struct clyde_hist *h = malloc(sizeof(*h));
	uint8_t *buf = NULL, *p;
	size_t total = 0, o = 0;
	int ret = h ? 0 : -ENOMEM;

	*out = NULL;
	*len = 0;
	/* Two passes: the lengths, then the bytes. */
	for (int pass = 0; !ret && pass < 2; pass++) {
		for (size_t k = 0; !ret && k < n; k++) {
			uint32_t l = 0;

			p = NULL;
			if (clyde_series_lat(s, k, h) &&
			    clyde_series_pack(h, &p, &l) < 0)
				ret = -ENOMEM;
			if (pass == 0) {
				total += 4 + l;
			} else if (!ret) {
				memcpy(buf + o, &l, 4);
				if (l)
					memcpy(buf + o + 4, p, l);
				o += 4 + l;
			}
			free(p);
		}
		if (!ret && pass == 0 && !(buf = malloc(total ? total : 1)))
			ret = -ENOMEM;
	}
	free(h);
	if (ret < 0) {
		free(buf);
		return ret;
	}
	*out = buf;
	*len = total;
	return 0;
}

/* Collective: gather this rank's series of test t (before merge_test
 * replaces its spans on rank 0). */
static int series_gather(struct clyde_comm *c, struct clyde_test_result *t,
			 unsigned per_rank, struct series_wire *sw)
{
	int64_t v[2] = { (int64_t)t->series.interval_ns,
			 (int64_t)t->series.base_ns };
	int64_t nl[2];
	size_t n, size = (size_t)c->size, hlen = 0;
	struct wire_iv *iv = NULL;
	struct wire_series_meta *meta = NULL;
	struct clyde_hist *scratch = NULL;
	uint8_t *h = NULL, *hpad = NULL;
	int ret = c->ops->max_i64(c, v, 2), r0 = 0, r1, r2, r3;

	memset(sw, 0, sizeof(*sw));
	if (ret < 0 || v[0] <= 0)
		return ret;
	/* The coarsest interval any rank's series has, here too. */
	r0 = clyde_series_coarsen(&t->series, (uint64_t)v[0]);
	for (unsigned i = 0; !r0 && i < t->nworkers; i++)
		r0 = clyde_series_coarsen(&t->spans[i].series, (uint64_t)v[0]);
	if (!r0)
		r0 = pack_hists(&t->series, t->series.n, &h, &hlen);
	nl[0] = (int64_t)t->series.n;
	nl[1] = (int64_t)hlen;
	ret = c->ops->max_i64(c, nl, 2);
	if (ret < 0)
		goto out;
	n = (size_t)nl[0];
	sw->n = n;
	sw->interval_ns = (uint64_t)v[0];
	sw->base_ns = v[1] > 0 ? (uint64_t)v[1] : (uint64_t)v[0];
	sw->hlen = (size_t)nl[1];
	iv = calloc((size_t)per_rank * (n ? n : 1), sizeof(*iv));
	meta = calloc(per_rank, sizeof(*meta));
	hpad = calloc(sw->hlen ? sw->hlen : 1, 1);
	scratch = malloc(sizeof(*scratch));
	if (c->rank == 0) {
		sw->iv = calloc(size * per_rank * (n ? n : 1), sizeof(*sw->iv));
		sw->meta = calloc(size * per_rank, sizeof(*sw->meta));
		sw->hs = calloc(size, sw->hlen ? sw->hlen : 1);
	}
	/* Every rank takes part even without memory (see merge_test). */
	ret = r0;
	if (!iv || !meta || !hpad || !scratch ||
	    (c->rank == 0 && (!sw->iv || !sw->meta || !sw->hs)))
		ret = -ENOMEM;
	for (unsigned i = 0; iv && meta && i < per_rank && i < t->nworkers;
	     i++) {
		const struct clyde_series *s = &t->spans[i].series;

		for (size_t k = 0; k < s->n && k < n; k++)
			iv[(size_t)i * n + k] = wire_iv_of(s, k, scratch);
		for (size_t k = s->n; k < n; k++)
			iv[(size_t)i * n + k] =
				(struct wire_iv){ .dirty = -1,
						  .writeback = -1 };
		meta[i].len_ns =
			s->end_ns > s->origin_ns ? s->end_ns - s->origin_ns : 0;
		meta[i].failed = s->failed;
		meta[i].has_flush = s->has_flush;
		meta[i].flush_ns = s->flush_at_ns;
	}
	if (hpad && h && hlen)
		memcpy(hpad, h, hlen);
	r1 = c->ops->gather(c, iv, (size_t)per_rank * n * sizeof(*iv), sw->iv);
	r2 = c->ops->gather(c, meta, per_rank * sizeof(*meta), sw->meta);
	r3 = c->ops->gather(c, hpad, sw->hlen, sw->hs);
	if (!ret)
		ret = r1 < 0 ? r1 : r2 < 0 ? r2 : r3;
out:
	free(iv);
	free(meta);
	free(h);
	free(hpad);
	free(scratch);
	if (ret < 0 || c->rank != 0)
		series_wire_free(sw);
	return ret;
}

/* Rank 0, after fold_test: the workers' series and the test's. */
static int series_fold(const struct clyde_comm *c, struct clyde_test_result *t,
		       const struct series_wire *sw)
{
	struct clyde_hist *h;
	size_t n = sw->n;
	int ret = 0;

	if (!sw->interval_ns || !sw->iv)
		return 0;
	clyde_series_release(&t->series);
	clyde_series_init(&t->series, sw->base_ns, NULL, NULL);
	clyde_series_coarsen(&t->series, sw->interval_ns);
	for (unsigned i = 0; i < t->nworkers; i++) {
		struct clyde_span *sp = &t->spans[i];
		struct clyde_series *s = &sp->series;
		const struct wire_series_meta *m = &sw->meta[i];

		clyde_series_init(s, sw->base_ns, NULL, NULL);
		clyde_series_start(s, sp->start_ns);
		clyde_series_coarsen(s, sw->interval_ns);
		if (clyde_series_grow(s, n) < 0)
			return -ENOMEM;
		for (size_t k = 0; k < n; k++) {
			const struct wire_iv *w = &sw->iv[(size_t)i * n + k];
			struct clyde_series_iv *v = &s->iv[k];

			v->bytes = w->bytes;
			v->ops = w->ops;
			v->dirty_bytes = w->dirty;
			v->writeback_bytes = w->writeback;
			v->have_q = true;
			v->q_count = w->lat_count;
			v->q_p50 = w->p50;
			v->q_p99 = w->p99;
			v->q_max = w->max;
		}
		/* Intervals past this worker's end are not its. */
		s->n = m->len_ns ?
			       (size_t)((m->len_ns - 1) / sw->interval_ns) + 1 :
			       0;
		if (s->n > n)
			s->n = n;
		s->end_ns = sp->start_ns + m->len_ns;
		s->failed = m->failed != 0;
		/* The write phase and the flush stay apart (the
		 * steadiness is the writing's): the test's flush is its
		 * first worker's, as on one host. */
		s->has_flush = m->has_flush != 0;
		s->flush_at_ns = m->flush_ns;
		if (clyde_series_merge(&t->series, s) < 0)
			return -ENOMEM;
	}
	if (clyde_series_grow(&t->series, n) < 0)
		return -ENOMEM;
	if (!(h = malloc(sizeof(*h))))
		return -ENOMEM;
	for (int r = 0; !ret && r < c->size; r++) {
		const uint8_t *p = sw->hs + (size_t)r * sw->hlen,
			      *end = p + sw->hlen;

		for (size_t k = 0; !ret && k < n && p + 4 <= end; k++) {
			uint32_t l;

			memcpy(&l, p, 4);
			p += 4;
			if (l > (size_t)(end - p))
				break;
			if (l) {
				clyde_hist_init(h);
				clyde_series_unpack(p, l, h);
				ret = clyde_series_add_hist(&t->series, k,
							    sw->interval_ns, h);
			}
			p += l;
		}
	}
	free(h);
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
		struct series_wire sw;
		int rs = series_gather(d->comm, &run->tests[i], per_rank, &sw);

		r = merge_test(d, (enum clyde_test)i, &run->tests[i], per_rank,
			       &sh);
		if (!r && !rs && d->comm->rank == 0)
			rs = series_fold(d->comm, &run->tests[i], &sw);
		series_wire_free(&sw);
		if (!r)
			r = rs;
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
	if (with_hist)
		clyde_dist_figs_json(w, &s->figs);
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
	if (d->read_shift >= 0) {
		clyde_jw_open(w, "read_shift", '{');
		clyde_jw_u64(w, "n", (uint64_t)d->read_shift);
		clyde_jw_open(w, "tests", '[');
		for (int t = 0; t < CLYDE_TEST_COUNT; t++)
			if (d->reads_other &&
			    d->reads_other((enum clyde_test)t))
				clyde_jw_str(
					w, NULL,
					clyde_test_name((enum clyde_test)t),
					64);
		clyde_jw_close(w, ']');
		clyde_jw_close(w, '}');
	}
	clyde_jw_open(w, "per_rank", '[');
	for (int r = 0; r < c->size; r++) {
		clyde_jw_open(w, NULL, '{');
		clyde_jw_u64(w, "rank", (uint64_t)r);
		clyde_jw_str(w, "host", d->hosts[r], CLYDE_HOST_MAX);
		clyde_jw_i64(w, "clock_offset_ns", c->offset_ns[r]);
		clyde_jw_u64(w, "clock_rtt_ns", c->rtt_ns[r]);
		if (d->read_shift >= 0) {
			clyde_jw_u64(w, "read_rank",
				     (uint64_t)((r + d->read_shift) % c->size));
			clyde_jw_str(w, "read_dir",
				     d->read_from ? d->read_from[r] : "",
				     CLYDE_DIST_PATH);
		}
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
