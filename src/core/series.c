#include "core/series.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- packed histograms ----------------------------------------------- */

/* LEB128: 7 bits a byte, low first. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		if (p)
			p[n] = b | (v ? 0x80 : 0);
		n++;
	} while (v);
	return n;
}

static uint64_t get_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (*p < end && shift < 64) {
		uint8_t b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	return v;
}

/* The layout: count, min, max, sum_lo, sum_hi, clamped, then per
 * non-empty bucket the gap from the one before (index - previous - 1)
 * and its count. */
static size_t pack_into(const struct clyde_hist *h, uint8_t *p)
{
	size_t n = 0;
	unsigned prev = 0;
	bool first = true;

	n += put_varint(p ? p + n : NULL, h->count);
	n += put_varint(p ? p + n : NULL, h->min);
	n += put_varint(p ? p + n : NULL, h->max);
	n += put_varint(p ? p + n : NULL, h->sum_lo);
	n += put_varint(p ? p + n : NULL, h->sum_hi);
	n += put_varint(p ? p + n : NULL, h->clamped);
	for (unsigned i = 0; i < CLYDE_HIST_BUCKETS; i++) {
		if (!h->counts[i])
			continue;
		n += put_varint(p ? p + n : NULL, first ? i : i - prev - 1);
		n += put_varint(p ? p + n : NULL, h->counts[i]);
		prev = i;
		first = false;
	}
	return n;
}

int clyde_series_pack(const struct clyde_hist *h, uint8_t **out, uint32_t *len)
{
	size_t n;

	*out = NULL;
	*len = 0;
	if (!h->count)
		return 0;
	n = pack_into(h, NULL);
	if (!(*out = malloc(n)))
		return -ENOMEM;
	pack_into(h, *out);
	*len = (uint32_t)n;
	return 0;
}

void clyde_series_unpack(const uint8_t *p, uint32_t len, struct clyde_hist *h)
{
	const uint8_t *end;
	uint64_t count, min, max, lo, hi, clamped;
	unsigned i = 0;
	bool first = true;

	if (!p || !len)
		return;
	end = p + len;
	count = get_varint(&p, end);
	min = get_varint(&p, end);
	max = get_varint(&p, end);
	lo = get_varint(&p, end);
	hi = get_varint(&p, end);
	clamped = get_varint(&p, end);
	while (p < end) {
		uint64_t gap = get_varint(&p, end), c = get_varint(&p, end);

		i = first ? (unsigned)gap : i + 1 + (unsigned)gap;
		first = false;
		if (i >= CLYDE_HIST_BUCKETS)
			break;
		h->counts[i] += c;
	}
	h->count += count;
	h->clamped += clamped;
	if (min < h->min)
		h->min = min;
	if (max > h->max)
		h->max = max;
	h->sum_hi += hi + (h->sum_lo + lo < h->sum_lo);
	h->sum_lo += lo;
}

/* ---- the series ---------------------------------------------------------- */

#define NO_WIRE ((struct clyde_series_wire){ -1, -1, -1 })

static void read_wire(const struct clyde_series *s, struct clyde_series_wire *w)
{
	*w = NO_WIRE;
	if (s->wire)
		s->wire(s->wire_arg, w);
}

void clyde_series_init(struct clyde_series *s, uint64_t interval_ns,
		       clyde_series_mem_fn mem, void *mem_arg)
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = interval_ns;
	s->base_ns = interval_ns;
	s->cur = SIZE_MAX;
	s->budget = CLYDE_SERIES_BUDGET;
	s->mem = mem;
	s->mem_arg = mem_arg;
	s->wire_start = NO_WIRE;
}

void clyde_series_set_wire(struct clyde_series *s, clyde_series_wire_fn wire,
			   void *wire_arg)
{
	s->wire = wire;
	s->wire_arg = wire_arg;
}

void clyde_series_release(struct clyde_series *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->iv[i].lat);
	free(s->iv);
	free(s->work);
	s->iv = NULL;
	s->work = NULL;
	s->n = s->cap = s->packed = 0;
	s->cur = SIZE_MAX;
	s->end_ns = 0;
	s->has_flush = false;
	s->flush_at_ns = 0;
	s->failed = false;
	/* A series that was coarsened starts again at the asked interval. */
	if (s->base_ns)
		s->interval_ns = s->base_ns;
}

void clyde_series_flush(struct clyde_series *s, uint64_t now_ns)
{
	if (!s->interval_ns || s->has_flush)
		return;
	s->has_flush = true;
	s->flush_at_ns = now_ns > s->origin_ns ? now_ns - s->origin_ns : 0;
}

size_t clyde_series_write_phase(const struct clyde_series *s)
{
	size_t k;

	if (!s->has_flush || !s->interval_ns)
		return s->n;
	k = (size_t)(s->flush_at_ns / s->interval_ns);
	return k < s->n ? k : s->n;
}

void clyde_series_start(struct clyde_series *s, uint64_t origin_ns)
{
	clyde_series_release(s);
	s->origin_ns = origin_ns;
	read_wire(s, &s->wire_start);
}

size_t clyde_series_bytes(const struct clyde_series *s)
{
	return s->cap * sizeof(*s->iv) + s->packed +
	       (s->work ? sizeof(*s->work) : 0);
}

/* Make intervals [0, k] exist (new ones empty, memory not read). */
static int grow(struct clyde_series *s, size_t k)
{
	if (k < s->n)
		return 0;
	if (k >= s->cap) {
		size_t cap = s->cap ? s->cap : 16;
		struct clyde_series_iv *iv;

		while (cap <= k)
			cap *= 2;
		iv = realloc(s->iv, cap * sizeof(*iv));
		if (!iv)
			return -ENOMEM;
		s->iv = iv;
		s->cap = cap;
	}
	for (size_t i = s->n; i <= k; i++)
		s->iv[i] = (struct clyde_series_iv){ .dirty_bytes = -1,
						     .writeback_bytes = -1,
						     .wire_sent = -1,
						     .wire_recv = -1,
						     .wire_rpcs = -1,
						     .mark = NO_WIRE };
	s->n = k + 1;
	return 0;
}

/* Add h (may be NULL or empty) into interval k's packed histogram. */
static int add_packed(struct clyde_series *s, size_t k,
		      const struct clyde_hist *h, struct clyde_hist *scratch)
{
	struct clyde_series_iv *iv = &s->iv[k];
	uint8_t *p;
	uint32_t len;

	if (!h || !h->count)
		return 0;
	clyde_hist_init(scratch);
	clyde_hist_merge(scratch, h);
	clyde_series_unpack(iv->lat, iv->lat_len, scratch);
	if (clyde_series_pack(scratch, &p, &len) < 0)
		return -ENOMEM;
	s->packed += len;
	s->packed -= iv->lat_len;
	free(iv->lat);
	iv->lat = p;
	iv->lat_len = len;
	return 0;
}

/* Pack the working histogram into its interval; `work` is then free. */
static int flush(struct clyde_series *s)
{
	struct clyde_series_iv *iv;
	int rc;

	if (s->cur >= s->n || !s->work) {
		s->cur = SIZE_MAX;
		return 0;
	}
	iv = &s->iv[s->cur];
	s->cur = SIZE_MAX;
	if (!s->work->count)
		return 0;
	/* The interval's packed part was taken into `work` on entering. */
	free(iv->lat);
	s->packed -= iv->lat_len;
	iv->lat = NULL;
	iv->lat_len = 0;
	rc = clyde_series_pack(s->work, &iv->lat, &iv->lat_len);
	s->packed += iv->lat_len;
	if (rc < 0)
		s->failed = true;
	return rc;
}

static int64_t add_known(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	return b < 0 ? a : a + b;
}

/* Intervals 2j and 2j+1 into j, interval_ns doubled. */
static int halve(struct clyde_series *s)
{
	struct clyde_hist *h = malloc(sizeof(*h));
	size_t n = (s->n + 1) / 2;
	int rc = 0;

	if (!h || flush(s) < 0) {
		free(h);
		s->failed = true;
		return -ENOMEM;
	}
	for (size_t j = 0; j < n; j++) {
		struct clyde_series_iv *a = &s->iv[2 * j], m = *a;

		if (2 * j + 1 < s->n) {
			struct clyde_series_iv *b = &s->iv[2 * j + 1];

			m.bytes += b->bytes;
			m.ops += b->ops;
			/* The first sample of the pair is the first of the
			 * merged interval. */
			if (m.dirty_bytes < 0)
				m.dirty_bytes = b->dirty_bytes;
			if (m.writeback_bytes < 0)
				m.writeback_bytes = b->writeback_bytes;
			/* Traffic adds up (an interval without a reading
			 * passed its traffic on to the next: the pair's is
			 * the other's); the pair's last reading is its
			 * second's, else its first's. */
			m.wire_sent = add_known(m.wire_sent, b->wire_sent);
			m.wire_recv = add_known(m.wire_recv, b->wire_recv);
			m.wire_rpcs = add_known(m.wire_rpcs, b->wire_rpcs);
			if (b->mark.sent >= 0)
				m.mark = b->mark;
			m.have_q = false;
			if (b->lat_len) {
				clyde_hist_init(h);
				clyde_series_unpack(a->lat, a->lat_len, h);
				clyde_series_unpack(b->lat, b->lat_len, h);
				s->packed -= a->lat_len + b->lat_len;
				free(a->lat);
				free(b->lat);
				m.lat = NULL;
				m.lat_len = 0;
				if (clyde_series_pack(h, &m.lat, &m.lat_len) <
				    0)
					rc = -ENOMEM;
				s->packed += m.lat_len;
			}
		}
		s->iv[j] = m;
	}
	s->n = n;
	s->interval_ns *= 2;
	free(h);
	if (rc < 0)
		s->failed = true;
	return rc;
}

/* Within the budget again, by merging intervals. */
static int fit(struct clyde_series *s)
{
	size_t budget = s->budget ? s->budget : CLYDE_SERIES_BUDGET;

	while (s->n > 1 && (s->n * sizeof(*s->iv) + s->packed > budget ||
			    s->n > CLYDE_SERIES_MAX_INTERVALS))
		if (halve(s) < 0)
			return -ENOMEM;
	return 0;
}

int clyde_series_coarsen(struct clyde_series *s, uint64_t interval_ns)
{
	uint64_t f;

	if (!s->interval_ns || interval_ns <= s->interval_ns)
		return 0;
	if (interval_ns % s->interval_ns)
		return -EINVAL;
	f = interval_ns / s->interval_ns;
	if (f & (f - 1))
		return -EINVAL;
	while (s->interval_ns < interval_ns) {
		if (!s->n) {
			s->interval_ns = interval_ns;
			break;
		}
		if (halve(s) < 0)
			return -ENOMEM;
	}
	return 0;
}

struct clyde_series_iv *clyde_series_enter(struct clyde_series *s, size_t k)
{
	struct clyde_series_iv *iv;
	bool fresh = k >= s->n;

	if (s->failed)
		return NULL;
	if (flush(s) < 0)
		return NULL;
	/* Over the budget: merge pairs, which moves interval k to k/2^j. */
	if (fresh && ((k + 1) * sizeof(*s->iv) + s->packed >
			      (s->budget ? s->budget : CLYDE_SERIES_BUDGET) ||
		      k + 1 > CLYDE_SERIES_MAX_INTERVALS)) {
		uint64_t iv0 = s->interval_ns;

		if (grow(s, k) < 0 || fit(s) < 0) {
			s->failed = true;
			return NULL;
		}
		k = (size_t)((uint64_t)k * iv0 / s->interval_ns);
	}
	if (grow(s, k) < 0) {
		s->failed = true;
		return NULL;
	}
	if (!s->work && !(s->work = malloc(sizeof(*s->work)))) {
		s->failed = true;
		return NULL;
	}
	iv = &s->iv[k];
	clyde_hist_init(s->work);
	/* Back to an interval already packed (a completion reaped late):
	 * its histogram is the working one again. */
	if (iv->lat) {
		clyde_series_unpack(iv->lat, iv->lat_len, s->work);
		s->packed -= iv->lat_len;
		free(iv->lat);
		iv->lat = NULL;
		iv->lat_len = 0;
	}
	/* Read on entering even with a sampler: its figure replaces this
	 * one at the end, and this one stands when the sampler's thread
	 * took none in the interval (it did not get a CPU). */
	if (fresh && s->mem)
		s->mem(s->mem_arg, &iv->dirty_bytes, &iv->writeback_bytes);
	/* The traffic's reading in the interval: the sampler's when there
	 * is one (not read here, once per interval is enough). */
	if (fresh && s->wire && !s->sampler)
		read_wire(s, &iv->mark);
	s->cur = k;
	s->cur_lo = s->origin_ns + (uint64_t)k * s->interval_ns;
	return iv;
}

int clyde_series_grow(struct clyde_series *s, size_t n)
{
	return n ? grow(s, n - 1) : 0;
}

static int64_t wire_delta(int64_t from, int64_t to)
{
	return from < 0 || to < from ? -1 : to - from;
}

/* Each interval's traffic: its last reading (the last: now, the stream's
 * end) less the last one before it (the first's: at the origin).  An
 * interval without a reading has none (-1): its traffic is counted in
 * the next one that has, so the known ones add up to the stream's. */
static void wire_deltas(struct clyde_series *s)
{
	struct clyde_series_wire base = s->wire_start;

	if (!s->n)
		return;
	read_wire(s, &s->iv[s->n - 1].mark);
	for (size_t k = 0; k < s->n; k++) {
		struct clyde_series_iv *iv = &s->iv[k];

		if (iv->mark.sent < 0)
			continue;
		iv->wire_sent = wire_delta(base.sent, iv->mark.sent);
		iv->wire_recv = wire_delta(base.recv, iv->mark.recv);
		iv->wire_rpcs = wire_delta(base.rpcs, iv->mark.rpcs);
		base = iv->mark;
	}
}

void clyde_series_end(struct clyde_series *s, uint64_t end_ns)
{
	if (!s->interval_ns || end_ns < s->origin_ns)
		return;
	if (flush(s) < 0)
		s->failed = true;
	s->end_ns = end_ns;
	/* Intervals in which nothing completed still took place: a stall
	 * is a zero, not a gap. */
	if (end_ns > s->origin_ns) {
		size_t last =
			(size_t)((end_ns - 1 - s->origin_ns) / s->interval_ns);

		if (grow(s, last) < 0)
			s->failed = true;
	}
	if (s->sampler)
		clyde_series_sampler_fill(s->sampler, s);
	/* A short last interval the sampler did not reach (or nothing
	 * completed in): read now, at the stream's end, inside it. */
	if (s->n && s->mem && s->iv[s->n - 1].dirty_bytes < 0)
		s->mem(s->mem_arg, &s->iv[s->n - 1].dirty_bytes,
		       &s->iv[s->n - 1].writeback_bytes);
	if (s->wire)
		wire_deltas(s);
}

uint64_t clyde_series_lat(const struct clyde_series *s, size_t k,
			  struct clyde_hist *h)
{
	clyde_hist_init(h);
	if (k >= s->n)
		return 0;
	clyde_series_unpack(s->iv[k].lat, s->iv[k].lat_len, h);
	if (k == s->cur && s->work)
		clyde_hist_merge(h, s->work);
	return clyde_hist_count(h);
}

int clyde_series_add_hist(struct clyde_series *s, size_t k,
			  uint64_t k_interval_ns, const struct clyde_hist *h)
{
	struct clyde_hist *scratch;
	int rc;

	if (!s->interval_ns || !k_interval_ns || s->interval_ns % k_interval_ns)
		return -EINVAL;
	k = (size_t)((uint64_t)k / (s->interval_ns / k_interval_ns));
	if (flush(s) < 0 || grow(s, k) < 0 ||
	    !(scratch = malloc(sizeof(*scratch)))) {
		s->failed = true;
		return -ENOMEM;
	}
	rc = add_packed(s, k, h, scratch);
	free(scratch);
	if (rc < 0) {
		s->failed = true;
		return rc;
	}
	return fit(s);
}

uint64_t clyde_series_dur(const struct clyde_series *s, size_t k)
{
	uint64_t a = s->origin_ns + k * s->interval_ns, b = a + s->interval_ns;

	if (s->end_ns && s->end_ns < b)
		b = s->end_ns > a ? s->end_ns : a;
	return b - a;
}

static int64_t max_i64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

int clyde_series_merge(struct clyde_series *dst, const struct clyde_series *src)
{
	struct clyde_hist *h = NULL, *scratch = NULL;
	uint64_t f;
	size_t n;
	int rc = 0;

	if (!src->interval_ns)
		return 0;
	if (!dst->interval_ns || (!dst->n && !dst->end_ns)) {
		dst->interval_ns = src->interval_ns;
		dst->base_ns = src->base_ns ? src->base_ns : src->interval_ns;
		dst->origin_ns = src->origin_ns;
	}
	if ((src->base_ns ? src->base_ns : src->interval_ns) != dst->base_ns)
		return -EINVAL;
	if (src->interval_ns > dst->interval_ns &&
	    clyde_series_coarsen(dst, src->interval_ns) < 0) {
		dst->failed = true;
		return -ENOMEM;
	}
	if (dst->interval_ns % src->interval_ns)
		return -EINVAL;
	f = dst->interval_ns / src->interval_ns;
	n = src->n ? (src->n - 1) / f + 1 : 0;
	if (flush(dst) < 0 || (n && grow(dst, n - 1) < 0)) {
		dst->failed = true;
		return -ENOMEM;
	}
	h = malloc(sizeof(*h));
	scratch = malloc(sizeof(*scratch));
	if (!h || !scratch)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < src->n; i++) {
		const struct clyde_series_iv *a = &src->iv[i];
		struct clyde_series_iv *d = &dst->iv[i / f];

		d->bytes += a->bytes;
		d->ops += a->ops;
		d->dirty_bytes = max_i64(d->dirty_bytes, a->dirty_bytes);
		d->writeback_bytes =
			max_i64(d->writeback_bytes, a->writeback_bytes);
		/* Streams of one test share the mount: each saw all of its
		 * traffic. */
		d->wire_sent = max_i64(d->wire_sent, a->wire_sent);
		d->wire_recv = max_i64(d->wire_recv, a->wire_recv);
		d->wire_rpcs = max_i64(d->wire_rpcs, a->wire_rpcs);
		if (clyde_series_lat(src, i, h))
			rc = add_packed(dst, i / f, h, scratch);
	}
	free(h);
	free(scratch);
	if (rc < 0) {
		dst->failed = true;
		return rc;
	}
	/* The merged series ends with its last stream, by the index: the
	 * end relative to each one's own origin. */
	if (src->end_ns) {
		uint64_t len = src->end_ns - src->origin_ns;

		if (dst->origin_ns + len > dst->end_ns)
			dst->end_ns = dst->origin_ns + len;
	}
	if (src->has_flush &&
	    (!dst->has_flush || src->flush_at_ns < dst->flush_at_ns)) {
		dst->has_flush = true;
		dst->flush_at_ns = src->flush_at_ns;
	}
	dst->failed |= src->failed;
	return fit(dst);
}

size_t clyde_series_steadiness(const struct clyde_series *s, bool bytes,
			       size_t from, size_t to,
			       struct clyde_series_steady *out)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, n = 0, t_s;

	memset(out, 0, sizeof(*out));
	if (!s->interval_ns)
		return 0;
	if (to > s->n)
		to = s->n;
	t_s = (double)s->interval_ns / 1e9;
	for (size_t i = from; i < to; i++) {
		uint64_t dur = clyde_series_dur(s, i);
		double x, y;

		if (dur * 2 < s->interval_ns)
			continue;
		x = ((double)i + 0.5) * t_s;
		y = (double)(bytes ? s->iv[i].bytes : s->iv[i].ops) * 1e9 /
		    (double)dur;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		syy += y * y;
		n++;
	}
	out->n = (size_t)n;
	if (n < 2)
		return out->n;
	out->mean = sy / n;
	{
		double var = syy / n - out->mean * out->mean,
		       den = n * sxx - sx * sx;

		if (var < 0)
			var = 0;
		out->cv = out->mean > 0 ? sqrt(var) / out->mean : 0;
		out->slope = den > 0 ? (n * sxy - sx * sy) / den : 0;
		out->slope_rel = out->mean > 0 ? out->slope / out->mean : 0;
	}
	return out->n;
}

void clyde_series_meminfo(void *path, int64_t *dirty, int64_t *writeback)
{
	char line[256];
	FILE *f = fopen(path ? (const char *)path : "/proc/meminfo", "re");
	int found = 0;

	*dirty = *writeback = -1;
	if (!f)
		return;
	while (found < 2 && fgets(line, sizeof(line), f)) {
		unsigned long long kib;

		if (sscanf(line, "Dirty: %llu kB", &kib) == 1) {
			*dirty = (int64_t)kib * 1024;
			found++;
		} else if (sscanf(line, "Writeback: %llu kB", &kib) == 1) {
			*writeback = (int64_t)kib * 1024;
			found++;
		}
	}
	fclose(f);
}

/* ---- the sampler --------------------------------------------------------- */

static void take(struct clyde_series_sampler *sm)
{
	struct clyde_series_sample x;

	x.t_ns = sm->clock(sm->clock_arg);
	sm->mem(sm->mem_arg, &x.dirty, &x.writeback);
	x.wire = NO_WIRE;
	if (sm->wire)
		sm->wire(sm->wire_arg, &x.wire);
	pthread_mutex_lock(&sm->lock);
	if (sm->n == CLYDE_SERIES_MAX_SAMPLES) {
		/* Thin: every other sample, half as often from now. */
		for (size_t i = 0; i < sm->n / 2; i++)
			sm->v[i] = sm->v[2 * i];
		sm->n /= 2;
		sm->period_ns *= 2;
	}
	if (sm->n == sm->cap) {
		size_t cap = sm->cap ? sm->cap * 2 : 64;
		struct clyde_series_sample *v;

		if (cap > CLYDE_SERIES_MAX_SAMPLES)
			cap = CLYDE_SERIES_MAX_SAMPLES;
		v = realloc(sm->v, cap * sizeof(*v));
		if (v) {
			sm->v = v;
			sm->cap = cap;
		}
	}
	if (sm->n < sm->cap)
		sm->v[sm->n++] = x;
	pthread_mutex_unlock(&sm->lock);
}

static void *sampler_main(void *arg)
{
	struct clyde_series_sampler *sm = arg;

	pthread_mutex_lock(&sm->lock);
	while (!sm->quit) {
		struct timespec at;
		uint64_t t;
		int rc = 0;

		clock_gettime(CLOCK_MONOTONIC, &at);
		t = (uint64_t)at.tv_sec * 1000000000u + (uint64_t)at.tv_nsec +
		    sm->period_ns;
		at.tv_sec = (time_t)(t / 1000000000u);
		at.tv_nsec = (long)(t % 1000000000u);
		while (!sm->quit && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&sm->cond, &sm->lock, &at);
		if (sm->quit)
			break;
		pthread_mutex_unlock(&sm->lock);
		take(sm);
		pthread_mutex_lock(&sm->lock);
	}
	pthread_mutex_unlock(&sm->lock);
	return NULL;
}

void clyde_series_sampler_start(struct clyde_series_sampler *sm,
				uint64_t interval_ns,
				uint64_t (*clock)(void *arg), void *clock_arg,
				clyde_series_mem_fn mem, void *mem_arg,
				clyde_series_wire_fn wire, void *wire_arg)
{
	pthread_condattr_t ca;

	memset(sm, 0, sizeof(*sm));
	if (!interval_ns || !mem || !clock)
		return;
	sm->clock = clock;
	sm->clock_arg = clock_arg;
	sm->mem = mem;
	sm->mem_arg = mem_arg;
	sm->wire = wire;
	sm->wire_arg = wire_arg;
	sm->period_ns = interval_ns / 2;
	if (sm->period_ns < 5000000u)
		sm->period_ns = 5000000u;
	pthread_mutex_init(&sm->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sm->cond, &ca);
	pthread_condattr_destroy(&ca);
	take(sm);
	sm->running = pthread_create(&sm->tid, NULL, sampler_main, sm) == 0;
}

void clyde_series_sampler_stop(struct clyde_series_sampler *sm)
{
	if (!sm->mem)
		return;
	if (sm->running) {
		pthread_mutex_lock(&sm->lock);
		sm->quit = true;
		pthread_cond_signal(&sm->cond);
		pthread_mutex_unlock(&sm->lock);
		pthread_join(sm->tid, NULL);
	}
	pthread_cond_destroy(&sm->cond);
	pthread_mutex_destroy(&sm->lock);
	free(sm->v);
	memset(sm, 0, sizeof(*sm));
}

/* Each interval's reading of the wire counters: the sampler's last in it
 * (the last interval's is the stream's own at its end). */
static void fill_marks(const struct clyde_series_sampler *sm,
		       struct clyde_series *s)
{
	size_t j = 0;

	for (size_t k = 0; k < s->n; k++) {
		uint64_t hi = s->origin_ns + (uint64_t)(k + 1) * s->interval_ns;
		size_t last = SIZE_MAX;

		/* Samples before the origin are before interval 0. */
		while (j < sm->n && sm->v[j].t_ns < s->origin_ns)
			j++;
		while (j < sm->n && sm->v[j].t_ns < hi)
			last = j++;
		if (last != SIZE_MAX && sm->v[last].wire.sent >= 0)
			s->iv[k].mark = sm->v[last].wire;
	}
}

void clyde_series_sampler_fill(struct clyde_series_sampler *sm,
			       struct clyde_series *s)
{
	size_t j = 0;

	if (!sm->mem || !s->interval_ns)
		return;
	pthread_mutex_lock(&sm->lock);
	for (size_t k = 0; k < s->n; k++) {
		uint64_t lo = s->origin_ns + (uint64_t)k * s->interval_ns,
			 hi = lo + s->interval_ns;

		while (j < sm->n && sm->v[j].t_ns < lo)
			j++;
		if (j == sm->n)
			break;
		if (sm->v[j].t_ns >= hi)
			continue;
		s->iv[k].dirty_bytes = sm->v[j].dirty;
		s->iv[k].writeback_bytes = sm->v[j].writeback;
	}
	if (sm->wire)
		fill_marks(sm, s);
	pthread_mutex_unlock(&sm->lock);
}
