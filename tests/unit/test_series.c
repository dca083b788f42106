/*
 * core/series.c: intervals by completion time, a ramp left out, stalls as
 * zeros, the partial last interval, exact merging by index (counts add,
 * histograms bucketwise), steadiness (cv, slope), and meminfo's Dirty and
 * Writeback.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <malloc.h>
#include <string.h>
#include <time.h>

#include "core/series.h"
#include "tap.h"

#define MS 1000000ull

/* Interval k's latency histogram (the packed one, or the working one). */
static const struct clyde_hist *lat_of(const struct clyde_series *s, size_t k)
{
	static struct clyde_hist h[4];
	static unsigned next;
	struct clyde_hist *o = &h[next++ % 4];

	clyde_series_lat(s, k, o);
	return o;
}

static int mem_calls;

static void fake_mem(void *arg, int64_t *dirty, int64_t *wb)
{
	(void)arg;
	mem_calls++;
	*dirty = 1000 * mem_calls;
	*wb = 10 * mem_calls;
}

static void test_record(void)
{
	struct clyde_series s;

	clyde_series_init(&s, 100 * MS, fake_mem, NULL);
	clyde_series_start(&s, 1000 * MS);
	clyde_series_add(&s, 999 * MS, 5, 4096, 1); /* before: the ramp */
	CHECK(s.n == 0);
	for (int i = 0; i < 10; i++)
		clyde_series_add(&s, 1000 * MS + (uint64_t)i * MS, 50 + i, 4096,
				 1);
	/* A stall: nothing in 1100..1300, then one at 1350. */
	clyde_series_add(&s, 1350 * MS, 7000, 4096, 1);
	clyde_series_end(&s, 1420 * MS);
	CHECK(s.n == 5);
	CHECK(s.iv[0].ops == 10 && s.iv[0].bytes == 10 * 4096);
	CHECK(clyde_hist_count(lat_of(&s, 0)) == 10);
	CHECK(clyde_hist_max(lat_of(&s, 0)) == 59);
	CHECK(clyde_hist_quantile(lat_of(&s, 0), 0.5) == 54);
	CHECK(s.iv[1].ops == 0 && s.iv[2].ops == 0);
	CHECK(s.iv[3].ops == 1 && clyde_hist_max(lat_of(&s, 3)) == 7000);
	CHECK(s.iv[4].ops == 0);
	/* Without a sampler, memory is read once per interval entered, not
	 * per operation, and at the end for a last interval without. */
	CHECK(mem_calls == 3);
	CHECK(s.iv[4].dirty_bytes == 3000);
	CHECK(s.iv[0].dirty_bytes == 1000 && s.iv[0].writeback_bytes == 10);
	CHECK(s.iv[1].dirty_bytes == -1);
	CHECK(s.iv[3].dirty_bytes == 2000);
	CHECK(clyde_series_dur(&s, 0) == 100 * MS);
	CHECK(clyde_series_dur(&s, 4) == 20 * MS);
	/* A completion stamped before the current interval's (requests
	 * reaped out of order) still goes to its own interval. */
	clyde_series_add(&s, 1390 * MS, 1, 1, 1);
	clyde_series_add(&s, 1005 * MS, 1, 1, 1);
	clyde_series_add(&s, 1399 * MS, 1, 1, 1);
	CHECK(s.iv[0].ops == 11 && s.iv[3].ops == 3);
	s.iv[0].ops = 10;
	s.iv[3].ops = 1;
	/* No latency: counted only. */
	clyde_series_add(&s, 1405 * MS, CLYDE_SERIES_NO_LAT, 8192, 8192);
	CHECK(s.iv[4].ops == 8192 && clyde_hist_count(lat_of(&s, 4)) == 0);
	clyde_series_release(&s);
	CHECK(s.n == 0 && s.iv == NULL);

	/* interval 0: nothing recorded. */
	clyde_series_init(&s, 0, NULL, NULL);
	clyde_series_add(&s, 5, 5, 5, 5);
	clyde_series_end(&s, 10);
	CHECK(s.n == 0);
	clyde_series_release(&s);
}

static void test_merge(void)
{
	struct clyde_series a, b, m;
	struct clyde_hist all;

	clyde_hist_init(&all);
	clyde_series_init(&a, 10 * MS, NULL, NULL);
	clyde_series_init(&b, 10 * MS, NULL, NULL);
	clyde_series_init(&m, 10 * MS, NULL, NULL);
	/* b starts 3 ms later (its own origin): index k is its k-th 10 ms. */
	clyde_series_start(&a, 0);
	clyde_series_start(&b, 3 * MS);
	for (uint64_t i = 0; i < 300; i++) {
		uint64_t la = 1000 + i * 37 % 5000, lb = 200000 + i * 91;

		clyde_series_add(&a, i * 100000, la, 1, 1);
		clyde_series_add(&b, 3 * MS + i * 50000, lb, 2, 1);
		if (i * 100000 < 10 * MS)
			clyde_hist_record(&all, la);
		if (i * 50000 < 10 * MS)
			clyde_hist_record(&all, lb);
	}
	clyde_series_end(&a, 30 * MS);
	clyde_series_end(&b, 3 * MS + 15 * MS);
	CHECK(clyde_series_merge(&m, &a) == 0);
	CHECK(clyde_series_merge(&m, &b) == 0);
	CHECK(m.n == 3);
	CHECK(m.iv[0].ops == a.iv[0].ops + b.iv[0].ops);
	CHECK(m.iv[1].bytes == a.iv[1].bytes + b.iv[1].bytes);
	CHECK(m.iv[2].ops == a.iv[2].ops);
	/* Bucketwise: the merged interval 0 is the histogram of all its
	 * operations, so its quantiles are those of the union. */
	CHECK(clyde_hist_count(lat_of(&m, 0)) == clyde_hist_count(&all));
	CHECK(clyde_hist_quantile(lat_of(&m, 0), 0.99) ==
	      clyde_hist_quantile(&all, 0.99));
	CHECK(clyde_hist_quantile(lat_of(&m, 0), 0.5) ==
	      clyde_hist_quantile(&all, 0.5));
	CHECK(clyde_hist_max(lat_of(&m, 0)) == clyde_hist_max(&all));
	CHECK(m.end_ns == 30 * MS);
	{
		struct clyde_series c;

		clyde_series_init(&c, 20 * MS, NULL, NULL);
		clyde_series_start(&c, 0);
		clyde_series_add(&c, 1, 1, 1, 1);
		CHECK(clyde_series_merge(&m, &c) < 0); /* another interval */
		clyde_series_release(&c);
	}
	clyde_series_release(&a);
	clyde_series_release(&b);
	clyde_series_release(&m);
}

static void test_steady(void)
{
	struct clyde_series s;
	struct clyde_series_steady st;

	/* A flat rate: cv 0, slope 0. */
	clyde_series_init(&s, 1000 * MS, NULL, NULL);
	clyde_series_start(&s, 0);
	for (int k = 0; k < 5; k++)
		for (int i = 0; i < 100; i++)
			clyde_series_add(&s, (uint64_t)k * 1000 * MS + 1, 1,
					 4096, 1);
	clyde_series_end(&s, 5000 * MS);
	CHECK(clyde_series_steadiness(&s, false, 0, s.n, &st) == 5);
	CHECK(st.mean > 99.99 && st.mean < 100.01);
	CHECK(st.cv < 1e-9 && st.slope < 1e-9 && st.slope > -1e-9);
	clyde_series_release(&s);

	/* Falling by 10 ops/s a second from 100: slope -10, cv of
	 * {100, 90, 80, 70, 60}: sqrt(200)/80. A last interval of 0.3 s is
	 * left out. */
	clyde_series_start(&s, 0);
	for (int k = 0; k < 5; k++)
		for (int i = 0; i < 100 - 10 * k; i++)
			clyde_series_add(&s, (uint64_t)k * 1000 * MS + 1, 1,
					 4096, 1);
	clyde_series_add(&s, 5100 * MS, 1, 4096, 1000);
	clyde_series_end(&s, 5300 * MS);
	CHECK(clyde_series_steadiness(&s, false, 0, s.n, &st) == 5);
	CHECK(st.slope > -10.0001 && st.slope < -9.9999);
	CHECK(st.cv > 0.17677 && st.cv < 0.17678);
	CHECK(st.slope_rel > -0.12501 && st.slope_rel < -0.12499);
	/* Bytes: 4096 times the ops. */
	clyde_series_steadiness(&s, true, 0, s.n, &st);
	CHECK(st.slope > -40960.1 && st.slope < -40959.9);
	/* A window: the last two full intervals. */
	CHECK(clyde_series_steadiness(&s, false, 3, 5, &st) == 2);
	CHECK(st.slope > -10.0001 && st.slope < -9.9999);
	CHECK(clyde_series_steadiness(&s, false, 4, 5, &st) == 1);
	CHECK(st.cv == 0 && st.slope == 0);
	clyde_series_release(&s);
}

static void test_meminfo(void)
{
	char path[] = "/tmp/clyde-meminfo-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	int64_t d, w;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fputs("MemTotal:        8000000 kB\nDirty:             123 kB\n"
	      "Writeback:           4 kB\nWritebackTmp:        9 kB\n",
	      f);
	fclose(f);
	clyde_series_meminfo(path, &d, &w);
	CHECK(d == 123 * 1024 && w == 4 * 1024);
	unlink(path);
	clyde_series_meminfo(path, &d, &w);
	CHECK(d == -1 && w == -1);
	clyde_series_meminfo(NULL, &d, &w);
	CHECK(d >= 0 && w >= 0);
}

/* A latency spread like a device's: 50 us .. 5 ms, deterministic. */
static uint64_t spread(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return 50000 + ((*x >> 33) % 1000) * ((*x >> 13) % 5000);
}

/*
 * The bound: memory per interval is the packed histogram's, not 20 KiB,
 * and a long series stays within its budget by merging pairs of
 * intervals, exactly.  Measured as the heap's growth (glibc's mallinfo2),
 * so that the old layout (a full histogram per interval) fails it too.
 */
static void test_bound(void)
{
	enum {
		NIV = 6000,
		OPS = 200,
		NREF = 8
	};
	struct clyde_series s;
	struct clyde_hist *all = malloc(sizeof(*all)),
			  *ref = malloc(NREF * sizeof(*ref)),
			  *h = malloc(sizeof(*h));
	size_t heap0 = mallinfo2().uordblks, heap_early = 0;
	uint64_t x = 1, ops = 0, f;

	clyde_hist_init(all);
	for (int i = 0; i < NREF; i++)
		clyde_hist_init(&ref[i]);
	clyde_series_init(&s, 1000 * MS, NULL, NULL);
	clyde_series_start(&s, 0);
	for (uint64_t k = 0; k < NIV; k++) {
		for (int i = 0; i < OPS; i++) {
			uint64_t l = spread(&x);

			clyde_series_add(&s, k * 1000 * MS + (uint64_t)i * MS,
					 l, 4096, 1);
			clyde_hist_record(all, l);
			if (k < NREF)
				clyde_hist_record(&ref[k], l);
		}
		if (k == 499) {
			heap_early = mallinfo2().uordblks - heap0;
			CHECK(s.interval_ns == 1000 * MS); /* not merged yet */
		}
	}
	clyde_series_end(&s, NIV * 1000 * MS);
	{
		size_t grown = mallinfo2().uordblks - heap0;

		printf("# heap: %zu B/interval over 500, %zu B for %d intervals "
		       "(%zu merged); series_bytes %zu\n",
		       heap_early / 500, grown, NIV,
		       (size_t)(s.interval_ns / s.base_ns),
		       clyde_series_bytes(&s));
		/* A histogram per interval would be 20 KiB each. */
		CHECK(heap_early / 500 < 2048);
		CHECK(grown < 2 * CLYDE_SERIES_BUDGET + 64 * 1024);
		CHECK(clyde_series_bytes(&s) <
		      2 * CLYDE_SERIES_BUDGET + 64 * 1024);
	}
	/* Merged in pairs: interval_ns is base times a power of two, and
	 * each interval is exactly the union of the ones it took. */
	f = s.interval_ns / s.base_ns;
	CHECK(s.base_ns == 1000 * MS && f >= 2 && f <= NREF &&
	      (f & (f - 1)) == 0);
	CHECK(s.n == (NIV + f - 1) / f);
	CHECK(clyde_series_dur(&s, 0) == s.interval_ns);
	for (size_t k = 0; k < s.n; k++)
		ops += s.iv[k].ops;
	CHECK(ops == (uint64_t)NIV * OPS);
	CHECK(s.iv[0].ops == f * OPS && s.iv[0].bytes == f * OPS * 4096);
	for (uint64_t i = 1; i < f && f <= NREF; i++)
		clyde_hist_merge(&ref[0], &ref[i]);
	clyde_series_lat(&s, 0, h);
	CHECK(clyde_hist_count(h) == f * OPS);
	CHECK(!memcmp(h, &ref[0], sizeof(*h)));
	CHECK(clyde_hist_quantile(h, 0.99) ==
	      clyde_hist_quantile(&ref[0], 0.99));
	{
		struct clyde_hist *u = malloc(sizeof(*u));

		clyde_hist_init(u);
		for (size_t k = 0; k < s.n; k++) {
			clyde_series_lat(&s, k, h);
			clyde_hist_merge(u, h);
		}
		CHECK(!memcmp(u, all, sizeof(*u)));
		free(u);
	}
	clyde_series_release(&s);
	CHECK(s.interval_ns == 1000 * MS);
	free(all);
	free(ref);
	free(h);
}

/* Counts only (no latency, nothing packed): the number of intervals is
 * bounded too, which bounds the JSON. */
static void test_max_intervals(void)
{
	struct clyde_series s;
	uint64_t ops = 0;

	clyde_series_init(&s, 10 * MS, NULL, NULL);
	clyde_series_start(&s, 0);
	for (uint64_t k = 0; k < 20000; k++)
		clyde_series_add(&s, k * 10 * MS + 1, CLYDE_SERIES_NO_LAT, 1,
				 1);
	clyde_series_end(&s, 20000 * 10 * MS);
	CHECK(s.n <= CLYDE_SERIES_MAX_INTERVALS && s.n == 5000);
	CHECK(s.interval_ns == 40 * MS && s.base_ns == 10 * MS);
	for (size_t k = 0; k < s.n; k++)
		ops += s.iv[k].ops;
	CHECK(ops == 20000 && s.iv[17].ops == 4);
	clyde_series_release(&s);
}

/* Packing is exact, also for clamped values and a 128-bit sum. */
static void test_pack(void)
{
	struct clyde_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	uint8_t *p;
	uint32_t len;

	clyde_hist_init(a);
	CHECK(clyde_series_pack(a, &p, &len) == 0 && !p && len == 0);
	clyde_hist_record(a, 0);
	clyde_hist_record(a, 127);
	clyde_hist_record_n(a, 1000000, 3);
	clyde_hist_record_n(a, UINT64_MAX / 2, 4); /* clamped, sum > 2^64 */
	CHECK(clyde_series_pack(a, &p, &len) == 0 && p && len > 0);
	clyde_hist_init(b);
	clyde_series_unpack(p, len, b);
	CHECK(!memcmp(a, b, sizeof(*a)));
	clyde_series_unpack(p, len, b); /* adds */
	clyde_hist_merge(a, a);
	CHECK(!memcmp(a, b, sizeof(*a)));
	free(p);
	free(a);
	free(b);
}

/* Streams merged at different intervals: the finer goes into the
 * coarser's, exactly. */
static void test_merge_coarse(void)
{
	struct clyde_series a, b, m;

	clyde_series_init(&a, 10 * MS, NULL, NULL);
	clyde_series_init(&b, 10 * MS, NULL, NULL);
	clyde_series_init(&m, 10 * MS, NULL, NULL);
	clyde_series_start(&a, 0);
	clyde_series_start(&b, 0);
	for (uint64_t i = 0; i < 80; i++) {
		clyde_series_add(&a, i * MS, 1000 + i, 1, 1);
		clyde_series_add(&b, i * MS, 2000 + i, 2, 1);
	}
	clyde_series_end(&a, 80 * MS);
	clyde_series_end(&b, 80 * MS);
	CHECK(clyde_series_coarsen(&b, 40 * MS) == 0);
	CHECK(b.n == 2 && b.iv[0].ops == 40 && b.iv[1].bytes == 80);
	CHECK(clyde_series_coarsen(&b, 30 * MS) == 0); /* coarser already */
	CHECK(clyde_series_coarsen(&a, 30 * MS) == -EINVAL);
	CHECK(clyde_series_merge(&m, &a) == 0);
	CHECK(clyde_series_merge(&m, &b) == 0);
	CHECK(m.interval_ns == 40 * MS && m.n == 2);
	CHECK(m.iv[0].ops == 80 && m.iv[1].bytes == 40 + 80);
	CHECK(clyde_hist_count(lat_of(&m, 1)) == 80);
	CHECK(clyde_hist_min(lat_of(&m, 1)) == 1040);
	CHECK(clyde_hist_max(lat_of(&m, 1)) == 2079);
	clyde_series_release(&a);
	clyde_series_release(&b);
	clyde_series_release(&m);
}

static uint64_t mono(void *arg)
{
	struct timespec t;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&t, NULL);
}

static int sampled;

static void count_mem(void *arg, int64_t *dirty, int64_t *wb)
{
	(void)arg;
	*dirty = 4096 * __atomic_add_fetch(&sampled, 1, __ATOMIC_RELAXED);
	*wb = 1;
}

/*
 * A stall: nothing completes for six intervals, yet every interval has
 * its dirty and writeback figures, from the sampler thread.  Without it
 * (memory read when a completion enters an interval) the stalled
 * intervals had none, exactly where the write-back cliff is.
 *
 * The sampler is a thread on a real clock: on a busy machine it may get
 * no CPU for a whole interval (no figure then, or the figure read on
 * entering), or be preempted between its clock and its reading (a sample
 * placed in the interval before the one its value belongs to).  At 40 ms
 * intervals and three copies of this test at load 10, one interval in
 * eight came out so in a run of five; at 200 ms the delays are a smaller
 * share, and one such interval is allowed: without the sampler six have
 * no figure.
 */
static void test_sampler_stall(void)
{
	struct clyde_series_sampler sm;
	struct clyde_series s;
	uint64_t t0;
	size_t missing = 0, later = 0;

	clyde_series_sampler_start(&sm, 200 * MS, mono, NULL, count_mem, NULL,
				   NULL, NULL);
	CHECK(sm.running);
	clyde_series_init(&s, 200 * MS, clyde_series_meminfo, NULL);
	s.sampler = &sm;
	t0 = mono(NULL);
	clyde_series_start(&s, t0);
	clyde_series_add(&s, mono(NULL), 10, 4096, 1);
	sleep_ms(1250); /* the stall */
	clyde_series_add(&s, mono(NULL), 1250 * MS, 4096, 1);
	sleep_ms(150);
	clyde_series_end(&s, mono(NULL));
	clyde_series_sampler_stop(&sm);
	CHECK(s.n >= 7);
	for (size_t k = 0; k < s.n; k++) {
		if (s.iv[k].dirty_bytes <= 0 || s.iv[k].writeback_bytes < 0) {
			printf("# interval %zu: no dirty figure\n", k);
			missing++;
		}
		/* Samples in order: each interval's is a later one. */
		if (k && k + 1 < s.n &&
		    s.iv[k].dirty_bytes < s.iv[k - 1].dirty_bytes) {
			printf("# interval %zu: an earlier sample\n", k);
			missing++;
		}
		if (k && k + 1 < s.n &&
		    s.iv[k].dirty_bytes > s.iv[k - 1].dirty_bytes)
			later++;
	}
	printf("# %zu intervals, %d samples, %zu without or out of order, "
	       "%zu later\n",
	       s.n, sampled, missing, later);
	CHECK(missing <= 1);
	CHECK(s.n >= 3 && later * 2 >= s.n - 2);
	/* Only two intervals saw a completion. */
	CHECK(s.iv[1].ops == 0 && s.iv[3].ops == 0);
	clyde_series_release(&s);

	/* Interval 0: no thread, nothing to stop. */
	clyde_series_sampler_start(&sm, 0, mono, NULL, count_mem, NULL, NULL,
				   NULL);
	CHECK(!sm.running);
	clyde_series_sampler_stop(&sm);
}

/* A network mount's counters as a test moves them on: the fake reads
 * the totals and counts its calls. */
static int64_t net_sent, net_recv, net_rpcs;
static int wire_calls;

static void fake_wire(void *arg, struct clyde_series_wire *out)
{
	(void)arg;
	wire_calls++;
	out->sent = net_sent;
	out->recv = net_recv;
	out->rpcs = net_rpcs;
}

static void traffic(int64_t sent, int64_t recv, int64_t rpcs)
{
	net_sent += sent;
	net_recv += recv;
	net_rpcs += rpcs;
}

/*
 * Traffic per interval: an interval's last reading of the counters less
 * the last one before it, the first's from the origin, the last's to the
 * end; an interval without a reading is unknown (null), not a guess, and
 * its traffic is counted in the next one that has a reading, so the known
 * ones add up to the stream's traffic.
 */
static void test_wire(void)
{
	struct clyde_series s, m;
	struct clyde_series_sampler sm;
	int64_t sum = 0;

	net_sent = 1000000;
	net_recv = 5000;
	net_rpcs = 70;
	wire_calls = 0;
	clyde_series_init(&s, 100 * MS, NULL, NULL);
	clyde_series_set_wire(&s, fake_wire, NULL);
	clyde_series_start(&s, 1000 * MS); /* reads: the origin */
	traffic(4096, 100, 1);
	clyde_series_add(&s, 1010 * MS, 5, 4096, 1); /* enters 0: reads */
	traffic(8192, 200, 2);
	clyde_series_add(&s, 1050 * MS, 5, 8192, 1);
	clyde_series_add(&s, 1110 * MS, 5, 4096, 1); /* enters 1: reads */
	traffic(4096, 100, 1);
	/* 1200..1300: nothing completes, nothing read; then 3 at 1310. */
	traffic(65536, 300, 3);
	clyde_series_add(&s, 1310 * MS, 5, 4096, 1);
	traffic(1024, 50, 1);
	clyde_series_end(&s, 1350 * MS); /* reads: the end */
	CHECK(s.n == 4);
	/* origin, entering 0, 1 and 3, the end: once per interval. */
	CHECK(wire_calls == 5);
	CHECK(s.iv[0].wire_sent == 4096 && s.iv[0].wire_recv == 100 &&
	      s.iv[0].wire_rpcs == 1);
	CHECK(s.iv[1].wire_sent == 8192 && s.iv[1].wire_recv == 200 &&
	      s.iv[1].wire_rpcs == 2);
	/* Interval 2 had no reading: unknown, its traffic in 3's. */
	CHECK(s.iv[2].wire_sent == -1 && s.iv[2].wire_recv == -1 &&
	      s.iv[2].wire_rpcs == -1);
	CHECK(s.iv[3].wire_sent == 4096 + 65536 + 1024 &&
	      s.iv[3].wire_recv == 450 && s.iv[3].wire_rpcs == 5);

	/* With a sampler: each interval's last sample is its reading (the
	 * stream reads only the origin and the end).  Samples at 990
	 * (before the origin), 1045, 1098, 1205, 1290: none in 1100..1200. */
	clyde_series_release(&s);
	memset(&sm, 0, sizeof(sm));
	sm.mem = fake_mem;
	sm.wire = fake_wire;
	pthread_mutex_init(&sm.lock, NULL);
	sm.cap = sm.n = 5;
	sm.v = calloc(sm.n, sizeof(*sm.v));
	CHECK(sm.v != NULL);
	if (!sm.v)
		return;
	{
		static const uint64_t at[] = { 990, 1045, 1098, 1205, 1290 };

		for (size_t i = 0; i < sm.n; i++) {
			sm.v[i].t_ns = at[i] * MS;
			sm.v[i].dirty = sm.v[i].writeback = -1;
			sm.v[i].wire = (struct clyde_series_wire){
				(int64_t)i * 1000, (int64_t)i * 10, (int64_t)i
			};
		}
	}
	net_sent = 7;
	net_recv = 0;
	net_rpcs = 0;
	wire_calls = 0;
	s.sampler = &sm;
	clyde_series_start(&s, 1000 * MS); /* origin: sent 7 */
	clyde_series_add(&s, 1010 * MS, 5, 1, 1);
	clyde_series_add(&s, 1250 * MS, 5, 1, 1);
	net_sent = 6500;
	net_recv = 65;
	net_rpcs = 6;
	clyde_series_end(&s, 1380 * MS);
	CHECK(wire_calls == 2);
	CHECK(s.n == 4);
	CHECK(s.iv[0].wire_sent == 2000 - 7 && s.iv[0].wire_rpcs == 2);
	CHECK(s.iv[1].wire_sent == -1 && s.iv[1].wire_rpcs == -1);
	CHECK(s.iv[2].wire_sent == 2000 && s.iv[2].wire_recv == 20 &&
	      s.iv[2].wire_rpcs == 2);
	CHECK(s.iv[3].wire_sent == 6500 - 4000 && s.iv[3].wire_rpcs == 2);
	/* The known intervals add up to the stream's traffic. */
	for (size_t k = 0; k < s.n; k++)
		if (s.iv[k].wire_sent >= 0)
			sum += s.iv[k].wire_sent;
	CHECK(sum == 6500 - 7);
	s.sampler = NULL;

	/* Workers of a test share the mount: merged, the largest of each
	 * interval (not the sum); a stream without the counters adds
	 * nothing; coarsened, adjacent intervals add (one unknown: it
	 * passed its traffic on). */
	clyde_series_init(&m, 100 * MS, NULL, NULL);
	CHECK(clyde_series_merge(&m, &s) == 0);
	s.iv[1].wire_sent = 1500;
	s.iv[2].wire_sent = 1700;
	CHECK(clyde_series_merge(&m, &s) == 0);
	CHECK(m.iv[0].wire_sent == 1993 && m.iv[1].wire_sent == 1500 &&
	      m.iv[2].wire_sent == 2000 && m.iv[3].wire_sent == 2500);
	clyde_series_release(&s);
	clyde_series_init(&s, 100 * MS, NULL, NULL);
	clyde_series_start(&s, 1000 * MS);
	clyde_series_add(&s, 1010 * MS, 5, 1, 1);
	clyde_series_end(&s, 1380 * MS);
	CHECK(s.iv[0].wire_sent == -1);
	CHECK(clyde_series_merge(&m, &s) == 0);
	CHECK(m.iv[0].wire_sent == 1993);
	CHECK(clyde_series_coarsen(&m, 200 * MS) == 0);
	CHECK(m.n == 2 && m.iv[0].wire_sent == 1993 + 1500 &&
	      m.iv[1].wire_sent == 2000 + 2500 && m.iv[0].wire_rpcs == 2);
	clyde_series_release(&m);
	clyde_series_release(&s);
	free(sm.v);
	pthread_mutex_destroy(&sm.lock);
}

int main(void)
{
	test_pack();
	test_bound();
	test_max_intervals();
	test_merge_coarse();
	test_sampler_stall();
	test_wire();
	test_record();
	test_merge();
	test_steady();
	test_meminfo();
	return tap_done();
}
