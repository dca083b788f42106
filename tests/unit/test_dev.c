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
	pts[0] = (struct clyde_zcav_point){ 0, 512ull << 20, ns0, ns0[0] };
	pts[1] = (struct clyde_zcav_point){ 512ull << 20, 512ull << 20, ns1,
					    ns1[0] };
	run.zcav = (struct clyde_zcav_result){ 1, pts, 2, pass_ns, pass_bytes };
	CHECK(clyde_zcav_text_write(f, &run) == 0);
	fclose(f);
	CHECK_STR(buf, "#block offset (GiB), MiB/s, time\n"
		       "0.00 181.17 2.826\n"
		       "#0.50 ++++ 0.412\n"
		       "# Read 1024 megs in 3 seconds, 316 megabytes per "
		       "second.\n");
	free(buf);
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
	cfg.iodepth = 4;
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
	head = malloc(4096);
	n = pread(fd, head, 4096, 0);
	CHECK(n == 4096);
	/* Incompressible data, not zeros. */
	CHECK(n == 4096 && (head[0] | head[1] | head[2] | head[4095]) != 0);
	free(head);
	clyde_dev_run_release(&run);

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

int main(void)
{
	test_tests_parse();
	test_average();
	test_zcav_text();
	test_file_run();
	return tap_done();
}
