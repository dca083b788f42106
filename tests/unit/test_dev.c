/*
 * clyde dev's pieces that need no device: the --tests list, zcav's average
 * of passes, zcav's text (against lines bonnie++'s zcav prints), the CSV
 * field count, and the whole run on a regular file standing in for a
 * device (read-only and writing), checked against the file's bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/dev_out.h"
#include "tap.h"
#include "workloads/dev.h"
#include "workloads/zcav.h"

static void test_tests_parse(void)
{
	unsigned m = 0;
	char bad[64];

	CHECK(clyde_dev_tests_parse("seqwrite,zcav", &m, bad, sizeof(bad)) ==
	      0);
	CHECK(m == (CLYDE_DEV_BIT(CLYDE_DEV_SEQWRITE) |
		    CLYDE_DEV_BIT(CLYDE_DEV_ZCAV)));
	CHECK(clyde_dev_tests_parse("all", &m, bad, sizeof(bad)) == 0);
	CHECK(m == 0xfu);
	CHECK(clyde_dev_tests_parse("seqread,bogus", &m, bad, sizeof(bad)) ==
	      -EINVAL);
	CHECK_STR(bad, "bogus");
	CHECK(clyde_dev_tests_parse("seqread,", &m, bad, sizeof(bad)) ==
	      -EINVAL);
	CHECK(clyde_dev_tests_parse("", &m, bad, sizeof(bad)) == -EINVAL);
}

static void test_average(void)
{
	uint64_t one[] = { 7 }, two[] = { 4, 6 }, five[] = { 9, 1, 5, 100, 6 };

	CHECK(clyde_zcav_average(one, 1) == 7);
	CHECK(clyde_zcav_average(two, 2) == 5);
	/* 1 5 6 9 100: the lowest and highest thirds (one each) go. */
	CHECK(clyde_zcav_average(five, 5) == (5 + 6 + 9) / 3);
	CHECK(clyde_zcav_average(NULL, 0) == 0);
}

static void test_zcav_text(void)
{
	struct clyde_dev_run run;
	struct clyde_zcav_point pts[2];
	uint64_t ns0[1] = { 2826000000ull }, ns1[1] = { 412000000ull };
	uint64_t pass_ns[1] = { 3238000000ull }, pass_bytes[1] = { 1ull << 30 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	clyde_dev_run_init(&run);
	pts[0] = (struct clyde_zcav_point){ .offset_bytes = 0,
					    .bytes = 512ull << 20,
					    .loop_ns = ns0,
					    .ns = ns0[0] };
	pts[1] = (struct clyde_zcav_point){ .offset_bytes = 512ull << 20,
					    .bytes = 512ull << 20,
					    .loop_ns = ns1,
					    .ns = ns1[0],
					    .imprecise = true };
	run.zcav = (struct clyde_zcav_result){ .loops_done = 1,
					       .points = pts,
					       .npoints = 2,
					       .pass_ns = pass_ns,
					       .pass_bytes = pass_bytes };
	CHECK(clyde_zcav_text_write(f, &run) == 0);
	fclose(f);
	CHECK_STR(buf, "#block offset (GiB), MiB/s, time\n"
		       "0.00 181.17 2.826\n"
		       "#0.50 ++++ 0.412\n"
		       "# Read 1024 megs in 3 seconds, 316 megabytes per "
		       "second.\n"
		       "# clyde: zcav: 1 of 2 blocks flagged and left out; 1 "
		       "took under 0.5 s (too short to time: use a larger "
		       "-b)\n");
	free(buf);

	/* A block over holes is flagged and left out, however long it took. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	pts[0].holes_checked = pts[1].holes_checked = true;
	pts[0].hole_bytes = 512ull << 20;
	pts[1].imprecise = false;
	pts[1].ns = 2900000000ull;
	snprintf(run.zcav.holes_file, sizeof(run.zcav.holes_file), "/x.img");
	CHECK(clyde_zcav_text_write(f, &run) == 0);
	fclose(f);
	CHECK_STR(buf, "#block offset (GiB), MiB/s, time\n"
		       "#0.00 ++++ 2.826\n"
		       "0.50 176.55 2.900\n"
		       "# Read 1024 megs in 3 seconds, 316 megabytes per "
		       "second.\n"
		       "# clyde: zcav: 1 of 2 blocks flagged and left out; 1 "
		       "lie over holes of /x.img (a sparse file: read from no "
		       "disk)\n");
	free(buf);
}

/* Holes of a sparse file, as zcav looks them up. */
static void test_hole_bytes(void)
{
	char path[] = "/var/tmp/clyde-test-holes.XXXXXX";
	int fd = mkstemp(path);
	char data[8192];
	int64_t h;

	memset(data, 0x5a, sizeof(data));
	if (fd < 0 || ftruncate(fd, 1 << 20) < 0 ||
	    pwrite(fd, data, sizeof(data), 256 << 10) != sizeof(data)) {
		CHECK(!"a sparse temporary file");
		return;
	}
	h = clyde_zcav_hole_bytes(fd, 0, 1 << 20);
	if (h == 1 << 20) {
		/* A filesystem that reports no holes at all (SEEK_DATA says
		 * the whole file is data) would give 0; one that found only
		 * holes is wrong. */
		CHECK(!"the written 8 KiB are data");
	} else if (h > 0) {
		CHECK(h == (1 << 20) - 8192);
		CHECK(clyde_zcav_hole_bytes(fd, 256 << 10, 8192) == 0);
		CHECK(clyde_zcav_hole_bytes(fd, 512 << 10, 512 << 10) ==
		      512 << 10);
	} else {
		printf("# the filesystem of /var/tmp reports no holes\n");
	}
	close(fd);
	unlink(path);
}

/* True when no two `bs` blocks of p[0..len) are equal. */
static int distinct_blocks(const unsigned char *p, size_t len, size_t bs)
{
	for (size_t i = 0; i < len; i += bs)
		for (size_t j = i + bs; j < len; j += bs)
			if (!memcmp(p + i, p + j, bs))
				return 0;
	return 1;
}

/* A run on a regular file: seqwrite writes every byte of the range. */
static void test_file_run(void)
{
	char path[] = "/var/tmp/clyde-test-dev.XXXXXX";
	struct clyde_dev_config cfg;
	struct clyde_dev_run run;
	struct clyde_ctx ctx;
	unsigned char *head;
	int fd = mkstemp(path), rc;
	ssize_t n;

	if (fd < 0 || ftruncate(fd, 4 << 20) < 0) {
		CHECK(!"a temporary file");
		return;
	}
	clyde_ctx_init(&ctx);
	clyde_dev_config_init(&cfg);
	snprintf(cfg.path, sizeof(cfg.path), "%s", path);
	cfg.tests = CLYDE_DEV_BIT(CLYDE_DEV_SEQWRITE) |
		    CLYDE_DEV_BIT(CLYDE_DEV_SEQREAD);
	cfg.bs = 256 << 10;
	cfg.seed = 1;
	cfg.destroy_data = true; /* the file is ours, no signature check */
	rc = clyde_dev_run(&ctx, &cfg, NULL, &run);
	if (rc == -EINVAL && strstr(clyde_errmsg(&ctx), "O_DIRECT")) {
		/* tmpfs has no O_DIRECT. */
		clyde_dev_run_release(&run);
		clyde_ctx_release(&ctx);
		close(fd);
		unlink(path);
		return;
	}
	CHECK(rc == 0);
	CHECK(run.tests[CLYDE_DEV_SEQWRITE].bytes == 4 << 20);
	CHECK(run.tests[CLYDE_DEV_SEQWRITE].ops == 16);
	CHECK(clyde_hist_count(run.tests[CLYDE_DEV_SEQREAD].latency) == 16);
	/* psync: depth 1 by default, and that is what ran. */
	CHECK(run.cfg.iodepth == 1);
	CHECK(run.tests[CLYDE_DEV_SEQWRITE].inflight_max == 1);
	CHECK(run.tests[CLYDE_DEV_SEQREAD].inflight_max == 1);
	head = malloc(4 << 20);
	n = pread(fd, head, 4 << 20, 0);
	CHECK(n == 4 << 20);
	/* New data, not zeros, and no 4 KiB block twice (the old code wrote
	 * its depth's buffers over and over). */
	CHECK(n == 4 << 20 && (head[0] | head[1] | head[2] | head[4095]) != 0);
	CHECK(n == 4 << 20 && distinct_blocks(head, 4 << 20, 4096));
	free(head);
	clyde_dev_run_release(&run);

	/* psync at a depth would print a depth that never ran: refused,
	 * naming io_uring. */
	cfg.iodepth = 4;
	rc = clyde_dev_run(&ctx, &cfg, NULL, &run);
	CHECK(rc == -EINVAL);
	CHECK(strstr(clyde_errmsg(&ctx), "--engine io_uring") != NULL);
	clyde_dev_run_release(&run);
	clyde_err_clear(&ctx);

	/* io_uring at depth 4: 4 requests in flight, measured. */
	snprintf(cfg.engine, sizeof(cfg.engine), "io_uring");
	cfg.tests = CLYDE_DEV_BIT(CLYDE_DEV_SEQREAD) |
		    CLYDE_DEV_BIT(CLYDE_DEV_RANDWRITE);
	cfg.rand_ops = 64;
	rc = clyde_dev_run(&ctx, &cfg, NULL, &run);
	if (rc == -ENOTSUP) {
		printf("# io_uring not available: %s\n", clyde_errmsg(&ctx));
	} else {
		CHECK(rc == 0);
		CHECK(run.tests[CLYDE_DEV_SEQREAD].inflight_max == 4);
		CHECK(run.tests[CLYDE_DEV_RANDWRITE].inflight_max == 4);
	}
	clyde_dev_run_release(&run);
	clyde_err_clear(&ctx);
	snprintf(cfg.engine, sizeof(cfg.engine), "psync");
	cfg.iodepth = 0;
	cfg.tests = CLYDE_DEV_BIT(CLYDE_DEV_SEQWRITE) |
		    CLYDE_DEV_BIT(CLYDE_DEV_SEQREAD);

	/* A range past the end is refused before anything is opened for
	 * writing. */
	cfg.offset = 4 << 20;
	rc = clyde_dev_run(&ctx, &cfg, NULL, &run);
	CHECK(rc == -EINVAL);
	clyde_dev_run_release(&run);
	clyde_ctx_release(&ctx);
	close(fd);
	unlink(path);
}

/* A clock that moves 1 ms each time it is read: a test by time becomes a
 * count of clock readings, the same on every machine. */
static uint64_t fake_ms(void *arg)
{
	uint64_t *t = arg;

	return *t += 1000000;
}

/* --runtime and --ramp: every test runs by time, the ramp in no figure. */
static void test_runtime(void)
{
	char path[] = "/var/tmp/clyde-test-devtime.XXXXXX";
	struct clyde_dev_config cfg;
	struct clyde_dev_run run;
	struct clyde_ctx ctx;
	uint64_t now = 0;
	int fd = mkstemp(path), rc;

	if (fd < 0 || ftruncate(fd, 1 << 20) < 0) {
		CHECK(!"a temporary file");
		return;
	}
	clyde_ctx_init(&ctx);
	ctx.clock = fake_ms;
	ctx.clock_arg = &now;
	clyde_dev_config_init(&cfg);
	snprintf(cfg.path, sizeof(cfg.path), "%s", path);
	cfg.tests = CLYDE_DEV_BIT(CLYDE_DEV_SEQWRITE) |
		    CLYDE_DEV_BIT(CLYDE_DEV_SEQREAD) |
		    CLYDE_DEV_BIT(CLYDE_DEV_RANDREAD);
	cfg.bs = 256 << 10;
	cfg.rand_ops = 0; /* by time alone */
	cfg.runtime_ns = 300000000;
	cfg.ramp_ns = 30000000;
	cfg.seed = 3;
	cfg.destroy_data = true;
	rc = clyde_dev_run(&ctx, &cfg, NULL, &run);
	if (rc == -EINVAL && strstr(clyde_errmsg(&ctx), "O_DIRECT")) {
		printf("# no O_DIRECT on /var/tmp\n");
	} else {
		CHECK(rc == 0);
		for (int t = 0; t < 3; t++) {
			const struct clyde_dev_test_result *r = &run.tests[t];

			/* Some requests in the ramp, not counted; the rest
			 * counted, each with its latency. */
			CHECK(r->ramp_ops > 0);
			CHECK(r->ops > 0);
			CHECK(clyde_hist_count(r->latency) == r->ops);
			CHECK(r->bytes ==
			      r->ops * (t == 2 ? 4096u : 256u << 10));
			/* The time from the ramp's end: the runtime, and
			 * the few readings of the last requests. */
			CHECK(r->elapsed_ns >= cfg.runtime_ns);
			CHECK(r->elapsed_ns < cfg.runtime_ns + 20000000);
		}
		/* A sequential test by time goes round its range of 4
		 * requests again and again. */
		CHECK(run.tests[CLYDE_DEV_SEQREAD].ops > 4);
	}
	clyde_dev_run_release(&run);
	clyde_err_clear(&ctx);

	/* A ramp needs a runtime; a random test a count or a runtime. */
	cfg.runtime_ns = 0;
	CHECK(clyde_dev_run(&ctx, &cfg, NULL, &run) == -EINVAL);
	CHECK(strstr(clyde_errmsg(&ctx), "--ramp") != NULL);
	clyde_dev_run_release(&run);
	clyde_err_clear(&ctx);
	cfg.ramp_ns = 0;
	CHECK(clyde_dev_run(&ctx, &cfg, NULL, &run) == -EINVAL);
	CHECK(strstr(clyde_errmsg(&ctx), "--rand-ops 0") != NULL);
	clyde_dev_run_release(&run);
	clyde_ctx_release(&ctx);
	close(fd);
	unlink(path);
}

/* The depth at the device (clyde_dev_depth): time in queue over the wall
 * time, and the cause named when it falls short of the depth asked. */
static void test_depth(void)
{
	static struct clyde_dev_run run;
	struct clyde_dev_test_result *r = &run.tests[CLYDE_DEV_RANDREAD];
	struct clyde_stack_node node = { .nr_requests = 64 };
	struct clyde_dev_depth d;

	clyde_dev_run_init(&run);
	run.cfg.iodepth = 32;
	snprintf(run.env.target.block_dev, sizeof(run.env.target.block_dev),
		 "vdb");
	snprintf(node.name, sizeof(node.name), "vdb");
	run.env.stack.nodes = &node;
	run.env.stack.nnodes = 1;
	r->ran = true;
	r->bytes = 4096 * 1000;
	r->dev.have_device = true;
	r->dev.read_bytes = r->bytes;
	r->window_ns = 2000000000ull; /* 2 s */
	/* 31.5 requests at the device on average: held (within 3%). */
	r->dev.time_in_queue_ms = 63000;
	r->cpu_user_ns = 100000000;
	clyde_dev_depth(&run, CLYDE_DEV_RANDREAD, &d);
	CHECK(d.measured && d.asked == 32);
	CHECK(d.device > 31.49 && d.device < 31.51);
	CHECK(d.busy_share > 0.049 && d.busy_share < 0.051);
	CHECK_STR(d.why, "");
	/* 8 at the device, the process busy 96%: the process set the pace. */
	r->dev.time_in_queue_ms = 16000;
	r->cpu_sys_ns = 1820000000;
	clyde_dev_depth(&run, CLYDE_DEV_RANDREAD, &d);
	CHECK(d.device > 7.99 && d.device < 8.01);
	CHECK(strstr(d.why, "clyde was busy 96% of the test") == d.why);
	CHECK(strstr(d.why, "not the device, set the pace") != NULL);
	/* 16 at the device under nr_requests 16, asked 32: the limit. */
	node.nr_requests = 16;
	r->dev.time_in_queue_ms = 32000;
	clyde_dev_depth(&run, CLYDE_DEV_RANDREAD, &d);
	CHECK_STR(d.why, "the device queues at most nr_requests 16");
	/* A bio-based device's nr_requests (128) under a depth it held past
	 * it (240 of 256) is no limit: the cause is clyde's. */
	node.nr_requests = 128;
	r->dev.time_in_queue_ms = 480000;
	r->window_ns = 2000000000ull;
	r->cpu_sys_ns = 0;
	clyde_dev_depth(&run, CLYDE_DEV_RANDREAD, &d);
	run.cfg.iodepth = 256;
	clyde_dev_depth(&run, CLYDE_DEV_RANDREAD, &d);
	CHECK(strstr(d.why, "clyde was busy 5% of the test") == d.why);
	run.cfg.iodepth = 32;
	node.nr_requests = 16;
	r->dev.time_in_queue_ms = 32000;
	/* Most bytes never reached the device: the note says so. */
	r->dev.read_bytes = r->bytes / 10;
	clyde_dev_depth(&run, CLYDE_DEV_RANDREAD, &d);
	CHECK(strstr(d.why, "the device moved 10% of the test's bytes") ==
	      d.why);
	/* No device counters: nothing measured, nothing said. */
	r->dev.have_device = false;
	clyde_dev_depth(&run, CLYDE_DEV_RANDREAD, &d);
	CHECK(!d.measured && !d.why[0]);
	run.env.stack.nodes = NULL;
	run.env.stack.nnodes = 0;
}

int main(void)
{
	test_depth();
	test_tests_parse();
	test_average();
	test_zcav_text();
	test_hole_bytes();
	test_file_run();
	test_runtime();
	return tap_done();
}
