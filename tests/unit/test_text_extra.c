/*
 * clyde's extra text section (clyde_text_extra_write): the human units,
 * one row per test with rate, residency, latency and device columns, the
 * page-cache warnings and the -D note, and the statistics table of a
 * series.  Latencies are recorded so that the histogram's answers are
 * exact (a quantile is pulled into [min, max], so a test whose operations
 * all took the same time reports exactly that time).
 */
#include "results/format.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define SEC 1000000000ull
#define MIB (1ull << 20)
#define GIB (1ull << 30)

static char buf[CLYDE_FMT_LEN];

static void test_units(void)
{
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 2.91 * GIB,
				       CLYDE_PUT_BLOCK),
		  "2.91 GiB/s");
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 487.0 * 1024,
				       CLYDE_GET_BLOCK),
		  "487 KiB/s");
	/* 1000 KiB/s would take four digits: the next unit instead */
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 1000.0 * 1024,
				       CLYDE_PUTC),
		  "0.98 MiB/s");
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 12.0, CLYDE_GETC),
		  "12.0 B/s");
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 99.96 * MIB,
				       CLYDE_REWRITE),
		  "100 MiB/s");
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 5123.4, CLYDE_SEEKS),
		  "5123 seeks/s");
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 51.23, CLYDE_SEEKS),
		  "51.2 seeks/s");
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 48211.2,
				       CLYDE_SEQ_CREATE),
		  "48211 files/s");
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 1.5, CLYDE_RAN_DEL),
		  "1.50 files/s");
	CHECK_STR(clyde_fmt_human_rate(buf, sizeof(buf), 0.0 / 0.0,
				       CLYDE_SEEKS),
		  "n/a");

	CHECK_STR(clyde_fmt_human_bytes(buf, sizeof(buf), 0), "0 B");
	CHECK_STR(clyde_fmt_human_bytes(buf, sizeof(buf), 812), "812 B");
	CHECK_STR(clyde_fmt_human_bytes(buf, sizeof(buf), 1.5 * MIB),
		  "1.50 MiB");
	CHECK_STR(clyde_fmt_human_bytes(buf, sizeof(buf), 2.0 * GIB * 1024),
		  "2.00 TiB");

	CHECK_STR(clyde_fmt_human_ns(buf, sizeof(buf), 250), "250 ns");
	CHECK_STR(clyde_fmt_human_ns(buf, sizeof(buf), 12345), "12.3 us");
	CHECK_STR(clyde_fmt_human_ns(buf, sizeof(buf), 4.56e6), "4.56 ms");
	CHECK_STR(clyde_fmt_human_ns(buf, sizeof(buf), 999.6e3), "1.00 ms");
	CHECK_STR(clyde_fmt_human_ns(buf, sizeof(buf), 1.2e9), "1.20 s");
	CHECK_STR(clyde_fmt_human_ns(buf, sizeof(buf), 1234e9), "1234 s");
}

static struct clyde_hist *hist_of(uint64_t v, uint64_t n, uint64_t v2,
				  uint64_t n2)
{
	struct clyde_hist *h = malloc(sizeof(*h));

	if (h) {
		clyde_hist_init(h);
		clyde_hist_record_n(h, v, n);
		clyde_hist_record_n(h, v2, n2);
	}
	return h;
}

/*
 * Run k: put_block at (100 + 10k) MiB/s with all writes 2 ms, 1.5x write
 * amplification; get_block 1 GiB/s, 90% cached, -D not honoured, 9900
 * reads of 50 us and 100 of 20 ms; seeks too fast (81920/s, no latency);
 * seq_create 8192 files/s, 10% cached, no block device; getc skipped.
 */
static void build(struct clyde_run *r, unsigned k)
{
	struct clyde_test_result *t;

	clyde_run_init(r);
	snprintf(r->params.name, sizeof(r->params.name), "box");

	t = &r->tests[CLYDE_PUT_BLOCK];
	t->state = CLYDE_DONE;
	t->bytes = (100 + 10 * k) * MIB;
	t->elapsed_ns = SEC;
	t->latency = hist_of(2000000, 100, 2000000, 0);
	t->dev = (struct clyde_devio){ .have_device = true,
				       .write_bytes = t->bytes * 3 / 2,
				       .read_bytes = 4096 };

	t = &r->tests[CLYDE_GETC];
	t->state = CLYDE_SKIPPED;
	t->note = "skipped";

	t = &r->tests[CLYDE_GET_BLOCK];
	t->state = CLYDE_DONE;
	t->bytes = GIB;
	t->elapsed_ns = SEC;
	t->latency = hist_of(50000, 9900, 20000000, 100);
	t->cache = (struct clyde_cache_info){ .measured = true,
					      .resident_bytes = 900,
					      .total_bytes = 1000,
					      .direct_checked = true,
					      .direct_honoured = false };
	t->dev = (struct clyde_devio){ .have_device = true, .read_bytes = GIB };

	t = &r->tests[CLYDE_SEEKS];
	t->state = CLYDE_DONE;
	t->ops = 8192;
	t->elapsed_ns = SEC / 10;
	t->dev.have_device = true;

	t = &r->tests[CLYDE_SEQ_CREATE];
	t->state = CLYDE_DONE;
	t->ops = 16384;
	t->elapsed_ns = 2 * SEC;
	t->cache = (struct clyde_cache_info){ .measured = true,
					      .resident_bytes = 1,
					      .total_bytes = 10,
					      .direct_checked = true,
					      .direct_honoured = true };
}

static char *text_of(const struct clyde_run *runs, unsigned n,
		     const struct clyde_json_extra *extra)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc;

	if (!f)
		return NULL;
	rc = clyde_text_extra_write(f, runs, n, extra);
	fclose(f);
	CHECK(rc == 0);
	return out;
}

/* The line that starts with `start`, copied into buf ("" when none). */
static const char *line_of(const char *text, const char *start)
{
	const char *p = text;

	buf[0] = '\0';
	while (p && *p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (strncmp(p, start, strlen(start)) == 0) {
			snprintf(buf, sizeof(buf), "%.*s", (int)len, p);
			return buf;
		}
		p = end ? end + 1 : NULL;
	}
	return buf;
}

static size_t longest_line(const char *text)
{
	size_t max = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");

		if (len > max)
			max = len;
		text += len + (text[len] == '\n');
	}
	return max;
}

static void test_single(void)
{
	struct clyde_run r;
	char *out;

	build(&r, 0);
	out = text_of(&r, 1, NULL);
	CHECK(out != NULL);
	if (!out)
		return;
	fputs(out, stdout);
	CHECK(strncmp(out, "clyde: latency, cache and device per test\n",
		      strlen("clyde: latency, cache and device per test\n")) ==
	      0);
	CHECK_STR(
		line_of(out, "test "),
		"test                  rate cached      p50      p99    p99.9 "
		"     max  dev read dev write     WA");
	CHECK_STR(
		line_of(out, "put_block "),
		"put_block        100 MiB/s    n/a  2.00 ms  2.00 ms  2.00 ms "
		" 2.00 ms  4.00 KiB   150 MiB  1.50x");
	CHECK_STR(
		line_of(out, "get_block "),
		"get_block       1.00 GiB/s    90%  50.0 us  50.0 us  20.0 ms "
		" 20.0 ms  1.00 GiB       0 B      -");
	/* too fast for bonnie++'s table, but the rate is shown */
	CHECK_STR(
		line_of(out, "seeks "),
		"seeks        81920 seeks/s    n/a        -        -        - "
		"       -       0 B       0 B      -");
	CHECK_STR(
		line_of(out, "seq_create "),
		"seq_create    8192 files/s    10%        -        -        - "
		"       -  no block device");
	/* only tests that ran */
	CHECK(strstr(out, "\ngetc") == NULL && strstr(out, "\nputc") == NULL);
	CHECK(strstr(out, "+++") == NULL);
	/* 90% cached: a warning; 10%: none */
	CHECK(strstr(out,
		     "clyde: warning: block read: 90% of its data was in "
		     "the page cache when it started;\n"
		     "       the rate is the cache's, not the storage's\n") !=
	      NULL);
	CHECK(strstr(out, "sequential create: 10%") == NULL);
	CHECK(strstr(out, "warning: sequential") == NULL);
	/* -D checked and not honoured: a note; honoured: none */
	CHECK(strstr(out, "clyde: note: block read: -D was not honoured") !=
	      NULL);
	CHECK(strstr(out, "note: sequential create") == NULL);
	/* no statistics for one run */
	CHECK(strstr(out, "statistics") == NULL);
	/* the untimed share only when the run measured it */
	CHECK(strstr(out, "untimed") == NULL);
	CHECK(longest_line(out) < 100);
	free(out);

	r.wall_ns = 40000000000ull;
	r.overhead_ns = 1500000000ull;
	out = text_of(&r, 1, NULL);
	CHECK(out && strstr(out, "\nclyde: untimed (set-up, cache eviction, "
				 "checks): 1.50 s of 40.0 s (3.8%)\n") != NULL);
	free(out);
	r.wall_ns = 0;
	r.overhead_ns = 0;

	/* residency just below the threshold: no warning */
	r.tests[CLYDE_GET_BLOCK].cache.resident_bytes = 499;
	r.tests[CLYDE_GET_BLOCK].cache.direct_checked = false;
	out = text_of(&r, 1, NULL);
	CHECK(out && strstr(out, "warning") == NULL);
	CHECK(out && strstr(out, "-D was not honoured") == NULL);
	CHECK(out && strstr(out, "    50%  ") != NULL);
	free(out);
	clyde_run_release(&r);

	/* nothing ran: nothing written */
	clyde_run_init(&r);
	out = text_of(&r, 1, NULL);
	CHECK(out && out[0] == '\0');
	free(out);
	CHECK(clyde_text_extra_write(stdout, &r, 0, NULL) < 0);
	clyde_run_release(&r);
}

static void test_series(void)
{
	struct clyde_run runs[3];
	struct clyde_json_extra extra = { .target_pct = 5.0,
					  .max_runs = 10,
					  .runs_done = 3,
					  .n_unsettled = 1,
					  .unsettled = { CLYDE_PUT_BLOCK } };
	char *out;

	for (unsigned k = 0; k < 3; k++)
		build(&runs[k], k);
	out = text_of(runs, 3, &extra);
	CHECK(out != NULL);
	if (!out)
		return;
	fputs(out, stdout);
	CHECK(strstr(out, "clyde: latency, cache and device per test (3 runs: "
			  "mean rate, all runs' operations)\n") == out);
	/* merged: the mean rate, device totals over the runs */
	CHECK_STR(
		line_of(out, "put_block "),
		"put_block        110 MiB/s    n/a  2.00 ms  2.00 ms  2.00 ms "
		" 2.00 ms  12.0 KiB   495 MiB  1.50x");
	CHECK(strstr(out, "clyde: warning: block read (run 1): 90% of its data "
			  "was in the page cache when it started;\n") != NULL);
	CHECK(strstr(out, "\nclyde: statistics over 3 runs (mean, 95% "
			  "confidence interval of the mean, Student's t)\n") !=
	      NULL);
	CHECK_STR(
		line_of(out, "test         n"),
		"test         n            mean      +/- 95% CI % of mean          "
		"stddev  settled");
	/* 100, 110, 120 MiB/s: sd 10, hw 4.3027 * 10 / sqrt(3) = 24.84 */
	CHECK_STR(
		line_of(out, "put_block    3"),
		"put_block    3       110 MiB/s      24.8 MiB/s     22.6%      "
		"10.0 MiB/s  no");
	CHECK_STR(
		line_of(out, "get_block    3"),
		"get_block    3      1.00 GiB/s        0.00 B/s      0.0%        "
		"0.00 B/s  yes");
	CHECK_STR(
		line_of(out, "seq_create   3"),
		"seq_create   3    8192 files/s    0.00 files/s      0.0%    0.00 "
		"files/s  yes");
	CHECK(strstr(out, "clyde: until-stable: target +/-5% of the mean, 3 of "
			  "at most 10 runs made\n") != NULL);
	CHECK(strstr(out, "clyde: not settled: put_block\n") != NULL);
	CHECK(longest_line(out) < 100);
	free(out);

	/* a plain -x 3 series: statistics without a settled column */
	runs[2].tests[CLYDE_SEQ_CREATE].state = CLYDE_NOT_RUN;
	runs[1].tests[CLYDE_SEQ_CREATE].state = CLYDE_NOT_RUN;
	out = text_of(runs, 3, NULL);
	CHECK(out != NULL);
	if (out) {
		fputs(out, stdout);
		CHECK(strstr(out, "settled") == NULL);
		CHECK(strstr(out, "until-stable") == NULL);
		/* seq_create ran once: no spread to show */
		CHECK_STR(
			line_of(out, "seq_create   1"),
			"seq_create   1    8192 files/s             n/a       n/a "
			"            n/a");
		CHECK_STR(
			line_of(out, "put_block    3"),
			"put_block    3       110 MiB/s      24.8 MiB/s     22.6%  "
			"    10.0 MiB/s");
	}
	free(out);
	for (unsigned k = 0; k < 3; k++)
		clyde_run_release(&runs[k]);
}

/* The widest cases still fit in 100 columns: the longest label with a
 * two-digit run number and 100% cached, and all twelve tests unsettled. */
static void test_widths(void)
{
	static struct clyde_run runs[12];
	struct clyde_json_extra extra = { .target_pct = 0.5,
					  .max_runs = 12,
					  .runs_done = 12,
					  .n_unsettled = CLYDE_TEST_COUNT };
	char *out;

	for (unsigned k = 0; k < 12; k++) {
		build(&runs[k], k);
		runs[k].tests[CLYDE_SEQ_CREATE].ops = 1234567;
		runs[k].tests[CLYDE_SEQ_CREATE].elapsed_ns = SEC;
	}
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		extra.unsettled[i] = (enum clyde_test)i;
	runs[10].tests[CLYDE_SEQ_CREATE].cache.resident_bytes = 10;
	out = text_of(runs, 12, &extra);
	CHECK(out != NULL);
	if (out) {
		CHECK(strstr(out, "clyde: warning: sequential create (run 11): "
				  "100% of its data") != NULL);
		CHECK(strstr(out, "clyde: not settled: putc, put_block, "
				  "rewrite, getc") != NULL);
		CHECK(strstr(out, "ran_del\n") != NULL);
		/* a seven-digit files/s rate still fits its column */
		CHECK_STR(line_of(out, "seq_create "),
			  "seq_create 1234567 files/s   100%        -        - "
			  "       -        -  no block device");
		CHECK(longest_line(out) < 100);
	}
	free(out);
	for (unsigned k = 0; k < 12; k++)
		clyde_run_release(&runs[k]);
}

/*
 * The device columns are clyde's own: putc wrote 3 MiB while the device
 * wrote 26.4 MiB and read 22.8 MiB (the old "WA 8.80x" and "22.8 MiB
 * read during a write-only putc"); on btrfs raid5 over three devices
 * the block write's WA sums the leaves (the old "WA 0.50x", the top
 * device's); a test that started on a busy device is flagged.
 */
static void test_device_notes(void)
{
	struct clyde_run r;
	struct clyde_test_result *t;
	char *out;

	clyde_run_init(&r);
	snprintf(r.params.name, sizeof(r.params.name), "box");
	snprintf(r.env.target.block_dev, sizeof(r.env.target.block_dev),
		 "loop0");
	t = &r.tests[CLYDE_PUTC];
	t->state = CLYDE_DONE;
	t->bytes = 3 * MIB;
	t->elapsed_ns = SEC;
	t->dev = (struct clyde_devio){ .have_device = true,
				       .read_bytes = 22.8 * MIB,
				       .write_bytes = 26.4 * MIB };
	t->own = (struct clyde_ownio){ .source = CLYDE_OWN_TASK,
				       .have_top = true,
				       .top_write_bytes = 3 * MIB };
	t->settle = (struct clyde_settle){ .looked = true,
					   .busy = true,
					   .limit_ns = 5 * SEC,
					   .waited_ns = 5 * SEC,
					   .in_flight = 3 };
	snprintf(t->settle.busiest, sizeof(t->settle.busiest), "loop0");
	out = text_of(&r, 1, NULL);
	CHECK(out != NULL);
	if (!out)
		return;
	fputs(out, stdout);
	CHECK_STR(
		line_of(out, "putc "),
		"putc            3.00 MiB/s    n/a        -        -        - "
		"       -       0 B  3.00 MiB  1.00x");
	CHECK(strstr(out, "clyde: dev read/write are clyde's own I/O (its I/O "
			  "accounting, /proc/self/io)\n") != NULL);
	CHECK(strstr(out, "clyde: putc: other I/O during the test: 22.8 MiB "
			  "read, 23.4 MiB written\n"
			  "clyde:   (the devices' total: 22.8 MiB read, 26.4 "
			  "MiB written)\n") != NULL);
	CHECK(strstr(out, "clyde: warning: per-char write started on a busy "
			  "device (waited 5.00 s, --settle):\n"
			  "clyde: warning: 3 requests in flight on loop0\n") !=
	      NULL);
	CHECK(longest_line(out) < 100);
	free(out);

	/* btrfs raid5 over loop0..2: 96 MiB written, 48 MiB on each. */
	t = &r.tests[CLYDE_PUT_BLOCK];
	t->state = CLYDE_DONE;
	t->bytes = 96 * MIB;
	t->elapsed_ns = SEC;
	t->dev = (struct clyde_devio){ .have_device = true,
				       .write_bytes = 48 * MIB };
	t->own = (struct clyde_ownio){ .source = CLYDE_OWN_TASK,
				       .have_top = true,
				       .top_write_bytes = 96 * MIB };
	for (int i = 0; i < 3; i++) {
		struct clyde_member_io *m = &t->members.m[t->members.n++];

		snprintf(m->name, sizeof(m->name), "loop%d", i);
		m->is_top = true;
		m->io = (struct clyde_devio){ .have_device = true,
					      .write_bytes = 48 * MIB };
	}
	out = text_of(&r, 1, NULL);
	CHECK(out != NULL);
	if (!out)
		return;
	CHECK_STR(
		line_of(out, "put_block "),
		"put_block       96.0 MiB/s    n/a        -        -        - "
		"       -       0 B   144 MiB  1.50x");
	CHECK(strstr(out, "clyde: dev read/write sum the 3 member disks; the "
			  "top device loop0 alone (all I/O):\n"
			  "clyde:   put_block         0 B read   48.0 MiB "
			  "written\n") != NULL);
	CHECK(strstr(out,
		     "clyde: note: dev read/write of some tests are the "
		     "devices' totals, not clyde's own:\n"
		     "clyde: note: a filesystem over several devices; a "
		     "cgroup of clyde's own tells (systemd-run --scope)\n") !=
	      NULL);
	free(out);
	/* btrfs alone: the accounting was read, the share is not known. */
	r.tests[CLYDE_PUTC].state = CLYDE_NOT_RUN;
	out = text_of(&r, 1, NULL);
	CHECK(out && strstr(out, "clyde: note: dev read/write are the devices' "
				 "totals, not clyde's own:\n") != NULL);
	CHECK(out && strstr(out, "no I/O accounting") == NULL);
	free(out);
	/* Nothing read at all. */
	memset(&r.tests[CLYDE_PUT_BLOCK].own, 0,
	       sizeof(r.tests[CLYDE_PUT_BLOCK].own));
	out = text_of(&r, 1, NULL);
	CHECK(out && strstr(out, "clyde: note: dev read/write are the devices' "
				 "totals, not clyde's own (no I/O "
				 "accounting)\n") != NULL);
	free(out);
	clyde_run_release(&r);
}

int main(void)
{
	test_units();
	test_single();
	test_series();
	test_widths();
	test_device_notes();
	return tap_done();
}
