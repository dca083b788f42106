/*
 * core/series.c: intervals by completion time, a ramp left out, stalls as
 * zeros, the partial last interval, exact merging by index (counts add,
 * histograms bucketwise), steadiness (cv, slope), and meminfo's Dirty and
 * Writeback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/series.h"
#include "tap.h"

#define MS 1000000ull

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
	CHECK(clyde_hist_count(s.iv[0].lat) == 10);
	CHECK(clyde_hist_max(s.iv[0].lat) == 59);
	CHECK(clyde_hist_quantile(s.iv[0].lat, 0.5) == 54);
	CHECK(s.iv[1].ops == 0 && s.iv[2].ops == 0);
	CHECK(s.iv[3].ops == 1 && clyde_hist_max(s.iv[3].lat) == 7000);
	CHECK(s.iv[4].ops == 0);
	/* Memory is read once per interval entered, not per operation. */
	CHECK(mem_calls == 2);
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
	CHECK(s.iv[4].ops == 8192 && clyde_hist_count(s.iv[4].lat) == 0);
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
	CHECK(clyde_hist_count(m.iv[0].lat) == clyde_hist_count(&all));
	CHECK(clyde_hist_quantile(m.iv[0].lat, 0.99) ==
	      clyde_hist_quantile(&all, 0.99));
	CHECK(clyde_hist_quantile(m.iv[0].lat, 0.5) ==
	      clyde_hist_quantile(&all, 0.5));
	CHECK(clyde_hist_max(m.iv[0].lat) == clyde_hist_max(&all));
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

int main(void)
{
	test_record();
	test_merge();
	test_steady();
	test_meminfo();
	return tap_done();
}
