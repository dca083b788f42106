/*
 * Loading results (CSV of every format, clyde JSON with repeats), the
 * compare table (labels, best, baseline, Welch's test) with its three
 * renderers checked against golden output, and the HTML report's charts
 * and escaping.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ctx.h"
#include "report/compare.h"
#include "report/html.h"
#include "results/loaded.h"
#include "results/format.h"
#include "tap.h"

/* Two fixture lines (bonnie++ 1.96 and 2.00a) and a broken one. */
static const char csv_text[] =
	"format_version,bonnie_version,name,concurrency,seed,file_size\n"
	"1.96,1.96,xfs,1,1295938326,16G,,425,98,182929,64,46956,41,955,97,"
	"201274,83,517.6,30,16,,,,,93,1,+++++,+++,90,1,123,1,+++++,+++,127,"
	"1,42207us,2377ms,195ms,33339us,86675us,84167us,939ms,2279us,1415ms,"
	"307ms,1057us,724ms\n"
	"1.98,2.00a,vm,1,1795987641,4G,,8192,5,438,75,397633,75,771032,62,"
	"548,91,3029445,99,5113,33,16,,,,,16216,98,+++++,+++,+++++,+++,"
	"+++++,+++,+++++,+++,+++++,+++,58586us,30313us,11853us,46469us,"
	"4155us,8163us,1378us,283us,4146us,4064us,5410us,4200us\n"
	"1.98,2.00a,broken,1\n";

/* A clyde result with three repeats: put_block at 100, 110, 120 MiB/s. */
static const char json_b[] =
	"{\"schema\":\"clyde-result\",\"schema_version\":1,"
	"\"clyde_version\":\"0.1.0\",\"kind\":\"bonnie\",\"label\":\"ext4\","
	"\"started_unix\":100,\n"
	"\"machine\":{\"host\":\"box\",\"ncpu\":2},\n"
	"\"target\":{\"fstype\":\"ext4\",\"mount_opts\":\"rw,noatime\"},\n"
	"\"config\":{\"name\":\"ext4\",\"file_size_mib\":1024,\"seed\":5,"
	"\"concurrency\":1},\n"
	"\"runs\":[\n"
	"{\"index\":0,\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
	"\"rate_per_s\":104857600,\"cpu_pct\":20,\"too_fast\":false,"
	"\"latency\":{\"count\":10,\"min_ns\":1000,\"mean_ns\":2000.5,"
	"\"p50_ns\":1500,\"p90_ns\":3000,\"p99_ns\":9000,\"p999_ns\":20000,"
	"\"max_ns\":50000}},\n"
	"{\"name\":\"getc\",\"state\":\"skipped\",\"note\":\"no per-char\"},\n"
	"{\"name\":\"seq_stat\",\"state\":\"done\",\"rate_per_s\":500000,"
	"\"cpu_pct\":100,\"too_fast\":true}]},\n"
	"{\"index\":1,\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
	"\"rate_per_s\":115343360,\"cpu_pct\":22,\"too_fast\":false,"
	"\"latency\":null}]},\n"
	"{\"index\":2,\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
	"\"rate_per_s\":125829120,\"cpu_pct\":24,\"too_fast\":false}]}\n"
	"]}\n";

/* The same label on XFS: 200, 210, 190 MiB/s. */
static const char json_c[] =
	"{\"schema\":\"clyde-result\",\"schema_version\":1,"
	"\"kind\":\"bonnie\",\"label\":\"ext4\",\n"
	"\"target\":{\"fstype\":\"xfs\",\"mount_opts\":\"rw,noatime\"},\n"
	"\"config\":{\"file_size_mib\":1024,\"concurrency\":1},\n"
	"\"runs\":[\n"
	"{\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
	"\"rate_per_s\":209715200,\"cpu_pct\":30,\"too_fast\":false},\n"
	"{\"name\":\"seq_stat\",\"state\":\"done\",\"rate_per_s\":600000,"
	"\"cpu_pct\":90,\"too_fast\":true}]},\n"
	"{\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
	"\"rate_per_s\":220200960,\"cpu_pct\":30,\"too_fast\":false}]},\n"
	"{\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
	"\"rate_per_s\":199229440,\"cpu_pct\":30,\"too_fast\":false}]}\n"
	"]}\n";

/* Load the golden set: the CSV text, then B, then C. */
static void load_set(struct clyde_ctx *ctx, struct clyde_loaded_set *set)
{
	clyde_loaded_set_init(set);
	CHECK(clyde_loaded_read_buffer(ctx, csv_text, strlen(csv_text), "a.csv",
				       set) == 0);
	CHECK(clyde_loaded_read_buffer(ctx, json_b, strlen(json_b), "b.json",
				       set) == 0);
	CHECK(clyde_loaded_read_buffer(ctx, json_c, strlen(json_c), "c.json",
				       set) == 0);
}

static char *render(const struct clyde_compare *cmp,
		    enum clyde_compare_format fmt)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	CHECK(clyde_compare_write(f, cmp, fmt) == 0);
	fclose(f);
	return out;
}

static void test_load(void)
{
	struct clyde_loaded_set set;
	struct clyde_ctx ctx;
	const struct clyde_loaded_run *r;
	const struct clyde_loaded_test *t;

	clyde_ctx_init(&ctx);
	load_set(&ctx, &set);
	CHECK(set.nruns == 4);
	CHECK(set.nerrors == 1 && set.nmalformed == 1);
	if (set.nerrors == 1)
		CHECK(!strncmp(set.errors[0], "a.csv:4: ", 9));
	if (set.nruns != 4)
		goto out;

	/* The 1.96 line. */
	r = &set.runs[0];
	CHECK_STR(r->label, "xfs");
	CHECK_STR(r->source, "a.csv:2");
	CHECK_STR(r->format, "bonnie++ CSV 1.96");
	CHECK_STR(clyde_loaded_kv_get(r, "file size"), "16G");
	CHECK_STR(clyde_loaded_kv_get(r, "written by"), "bonnie++ 1.96");
	CHECK(r->ntests == CLYDE_TEST_COUNT && r->nrepeats == 1);
	t = &r->tests[CLYDE_PUTC];
	CHECK(t->state == CLYDE_LOADED_VALUE && t->rate == 425.0 * 1024);
	CHECK(t->has_cpu && t->cpu_pct == 98);
	CHECK(t->has_latency_max && t->latency_max_ns == 42207000ull);
	CHECK(!t->has_latency);
	CHECK(t->nsamples == 1);
	CHECK_STR(t->unit, "B/s");
	CHECK(r->tests[CLYDE_SEEKS].rate == 517.6);
	CHECK_STR(r->tests[CLYDE_SEEKS].unit, "seeks/s");
	CHECK(r->tests[CLYDE_PUT_BLOCK].latency_max_ns == 2377000000ull);
	t = &r->tests[CLYDE_SEQ_STAT];
	CHECK(t->state == CLYDE_LOADED_TOO_FAST && !t->has_rate &&
	      !t->has_cpu && t->nsamples == 0);
	CHECK(t->has_latency_max && t->latency_max_ns == 2279000ull);
	CHECK(r->tests[CLYDE_SEQ_CREATE].rate == 93);
	CHECK_STR(r->tests[CLYDE_SEQ_CREATE].unit, "files/s");
	CHECK(r->tests[CLYDE_SEQ_CREATE].group == CLYDE_GROUP_SEQ_FILES);

	/* The JSON with three repeats. */
	r = &set.runs[2];
	CHECK_STR(r->label, "ext4");
	CHECK_STR(r->source, "b.json:1");
	CHECK_STR(r->format, "clyde JSON v1");
	CHECK(r->nrepeats == 3);
	CHECK(r->started_unix == 100);
	CHECK_STR(clyde_loaded_kv_get(r, "filesystem"), "ext4");
	CHECK_STR(clyde_loaded_kv_get(r, "mount options"), "rw,noatime");
	CHECK_STR(clyde_loaded_kv_get(r, "file size"), "1G");
	CHECK_STR(clyde_loaded_kv_get(r, "CPUs"), "2");
	CHECK(clyde_loaded_kv_get(r, "seed") == NULL);
	CHECK(clyde_loaded_kv_get(r, "name") == NULL);
	t = &r->tests[CLYDE_PUT_BLOCK];
	CHECK(t->state == CLYDE_LOADED_VALUE);
	CHECK(t->nsamples == 3);
	CHECK(fabs(t->rate - 110.0 * 1048576) < 1e-6);
	CHECK(fabs(t->cpu_pct - 22.0) < 1e-9);
	CHECK(t->has_latency && t->latency.p99_ns == 9000 &&
	      t->latency.mean_ns == 2001 && t->latency.count == 10);
	CHECK(t->has_latency_max && t->latency_max_ns == 50000);
	t = &r->tests[CLYDE_GETC];
	CHECK(t->state == CLYDE_LOADED_SKIPPED);
	CHECK_STR(t->note, "no per-char");
	t = &r->tests[CLYDE_SEQ_STAT];
	CHECK(t->state == CLYDE_LOADED_TOO_FAST && t->has_rate &&
	      t->rate == 500000);
	CHECK(r->tests[CLYDE_PUTC].state == CLYDE_LOADED_NOT_RUN);
out:
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* Every line of the fixtures (tests/fixtures) loads, with spot-checked
 * values. */
static void test_fixtures(void)
{
	char dir[8192], path[4200];
	struct clyde_loaded_set set;
	struct clyde_ctx ctx;
	const struct clyde_loaded_run *r;

	snprintf(path, sizeof(path), "%s", CLYDE_FIXTURES_DIR);
	CHECK(access(path, R_OK) == 0);
	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	snprintf(dir, sizeof(dir), "%s/bonnie-1.03.csv", path);
	CHECK(clyde_loaded_read_file(&ctx, dir, &set) == 0);
	snprintf(dir, sizeof(dir), "%s/bonnie-1.96.csv", path);
	CHECK(clyde_loaded_read_file(&ctx, dir, &set) == 0);
	snprintf(dir, sizeof(dir), "%s/bonnie-1.98.csv", path);
	CHECK(clyde_loaded_read_file(&ctx, dir, &set) == 0);
	CHECK(set.nruns == 4 + 2 + 3);
	CHECK(set.nmalformed == 0);
	if (set.nruns != 9)
		goto out;
	/* 1.03, line 3: 82659 K/s putc at 92%, 368.5 seeks/s, "+++++". */
	r = &set.runs[2];
	CHECK_STR(r->format, "bonnie++ CSV 1.03");
	CHECK_STR(r->label, "devil2");
	CHECK(r->line == 3);
	CHECK_STR(clyde_loaded_kv_get(r, "file size"), "8G");
	CHECK_STR(clyde_loaded_kv_get(r, "files"), "16384");
	CHECK(r->tests[CLYDE_PUTC].rate == 82659.0 * 1024);
	CHECK(r->tests[CLYDE_PUTC].cpu_pct == 92);
	CHECK(r->tests[CLYDE_SEEKS].rate == 368.5);
	CHECK(r->tests[CLYDE_SEEKS].has_cpu &&
	      r->tests[CLYDE_SEEKS].cpu_pct == 0);
	CHECK(r->tests[CLYDE_SEQ_STAT].state == CLYDE_LOADED_TOO_FAST);
	CHECK(r->tests[CLYDE_RAN_DEL].rate == 673);
	CHECK(!r->tests[CLYDE_PUTC].has_latency_max); /* 1.03: none */
	/* 1.96, line 2 (ext4). */
	r = &set.runs[5];
	CHECK_STR(r->label, "ext4");
	CHECK(r->tests[CLYDE_SEEKS].rate == 710.9);
	CHECK(r->tests[CLYDE_SEQ_CREATE].rate == 14841);
	CHECK(r->tests[CLYDE_REWRITE].latency_max_ns == 2586000000ull);
	CHECK(r->tests[CLYDE_RAN_STAT].latency_max_ns == 78000ull);
	/* 1.98, line 2: no IO tests, 128k files, latencies in us. */
	r = &set.runs[7];
	CHECK_STR(r->format, "bonnie++ CSV 1.98");
	CHECK_STR(clyde_loaded_kv_get(r, "written by"), "bonnie++ 2.00a");
	CHECK(clyde_loaded_kv_get(r, "file size") == NULL);
	CHECK_STR(clyde_loaded_kv_get(r, "files"), "131072");
	CHECK(r->tests[CLYDE_PUTC].state == CLYDE_LOADED_NOT_RUN);
	CHECK(r->tests[CLYDE_SEEKS].state == CLYDE_LOADED_NOT_RUN);
	CHECK(r->tests[CLYDE_SEQ_CREATE].rate == 43369);
	CHECK(r->tests[CLYDE_SEQ_DEL].rate == 101295);
	CHECK(r->tests[CLYDE_SEQ_CREATE].latency_max_ns == 6196000ull);
	CHECK(!r->tests[CLYDE_PUTC].has_latency_max);
	/* 1.98, line 3: get_block and seeks too fast. */
	r = &set.runs[8];
	CHECK_STR(clyde_loaded_kv_get(r, "file size"), "512M");
	CHECK(r->tests[CLYDE_GET_BLOCK].state == CLYDE_LOADED_TOO_FAST);
	CHECK(r->tests[CLYDE_SEEKS].state == CLYDE_LOADED_TOO_FAST);
	CHECK(r->tests[CLYDE_PUT_BLOCK].rate == 284814.0 * 1024);
	CHECK(r->tests[CLYDE_SEEKS].latency_max_ns == 84745000ull);
out:
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* The golden renderings of the set above with baseline 3 (ext4), one
 * string per line (C compilers need not take longer literals). */
static const char *const golden_text[] = {
	"test        metric   unit             xfs     change        "
	"   vm   change             ext4                 ext4#2  chan"
	"ge\n",
	"putc        rate     KiB/s        425 [A]                 43"
	"8 [B]\n",
	"putc        CPU      %                 98                   "
	"   75\n",
	"putc        lat max           42.2 ms [A]             58.6 m"
	"s [B]\n",
	"put_block   rate     MiB/s      178.6 [A]     +62.4%    388."
	"3 [B]  +253.0%  110.0 ±24.8 [C]  200.0 ±24.8 * [C] (s)  +8"
	"1.8%\n",
	"put_block   CPU      %                 64    +190.9%        "
	"   75  +240.9%               22                     30  +36."
	"4%\n",
	"put_block   lat max            2.38 s [A]  +4753900%  30.3 m"
	"s [B]  +60526%        50 us [C]\n",
	"put_block   lat p99                                         "
	"                       9 us [C]\n",
	"rewrite     rate     MiB/s       45.9 [A]               753."
	"0 [B]\n",
	"rewrite     CPU      %                 41                   "
	"   62\n",
	"rewrite     lat max            195 ms [A]             11.9 m"
	"s [B]\n",
	"getc        rate     KiB/s        955 [A]                 54"
	"8 [B]               skipped [C]\n",
	"getc        CPU      %                 97                   "
	"   91                   skipped\n",
	"getc        lat max           33.3 ms [A]             46.5 m"
	"s [B]               skipped [C]\n",
	"get_block   rate     GiB/s      0.192 [A]                2.8"
	"9 [B]\n",
	"get_block   CPU      %                 83                   "
	"   99\n",
	"get_block   lat max           86.7 ms [A]             4.16 m"
	"s [B]\n",
	"seeks       rate     seeks/s    517.6 [A]                511"
	"3 [B]\n",
	"seeks       CPU      %                 30                   "
	"   33\n",
	"seeks       lat max           84.2 ms [A]             8.16 m"
	"s [B]\n",
	"seq_create  rate     files/s           93                 16"
	"216 *\n",
	"seq_create  CPU      %                  1                   "
	"   98\n",
	"seq_create  lat max                939 ms               1.38"
	" ms *\n",
	"seq_stat    rate     files/s     too fast                too"
	" fast                   ~500000              ~600000 *  +20."
	"0%\n",
	"seq_stat    CPU      %           too fast                too"
	" fast                       100                     90  -10."
	"0%\n",
	"seq_stat    lat max               2.28 ms                283"
	" us *\n",
	"seq_del     rate     files/s           90                too"
	" fast\n",
	"seq_del     CPU      %                  1                too"
	" fast\n",
	"seq_del     lat max                1.42 s               4.15"
	" ms *\n",
	"ran_create  rate     files/s          123                too"
	" fast\n",
	"ran_create  CPU      %                  1                too"
	" fast\n",
	"ran_create  lat max                307 ms               4.06"
	" ms *\n",
	"ran_stat    rate     files/s     too fast                too"
	" fast\n",
	"ran_stat    lat max             1.06 ms *                 5."
	"41 ms\n",
	"ran_del     rate     files/s          127                too"
	" fast\n",
	"ran_del     CPU      %                  1                too"
	" fast\n",
	"ran_del     lat max                724 ms               4.20"
	" ms *\n",
	"\n",
	"* best in its row (rates: highest; latency: lowest; CPU is n"
	"ot ranked: less CPU for less work is no gain)\n",
	"  with a single sample (no repeats on the best or the runner"
	"-up) * is by value only:\n",
	"  the noise was not measured\n",
	"± 95% confidence interval of the mean over the repeats (Stu"
	"dent's t)\n",
	"~ ran under 0.5 s (bonnie++ prints +++++): measured, but imp"
	"recise; ranked by its value\n",
	"too fast: ran under 0.5 s (+++++), no number recorded\n",
	"change: against ext4\n",
	"(s) significant / (ns) not significant difference from ext4 "
	"(Welch's t-test on log values, 95%)\n",
	"IO tests: the runs differ in file size, so they are compared"
	" (*) only within a settings group:\n",
	"  [A] file size 16G: xfs\n",
	"  [B] file size 4G: vm\n",
	"  [C] file size 1G: ext4, ext4#2\n",
	"seeks: the runs differ in file size, so they are compared (*"
	") only within a settings group:\n",
	"  [A] file size 16G: xfs\n",
	"  [B] file size 4G: vm\n",
	"what differs:\n",
	"  source format: bonnie++ CSV 1.96 (xfs), bonnie++ CSV 1.98 "
	"(vm), clyde JSON v1 (ext4, ext4#2)\n",
	"  written by: bonnie++ 1.96 (xfs), bonnie++ 2.00a (vm), clyd"
	"e 0.1.0 (ext4), not recorded (ext4#2)\n",
	"  file size: 16G (xfs), 4G (vm), 1G (ext4, ext4#2)\n",
	"  files: 16384 (xfs, vm), not recorded (ext4, ext4#2)\n",
	"  max size: 0 (xfs, vm), not recorded (ext4, ext4#2)\n",
	"  min size: 0 (xfs, vm), not recorded (ext4, ext4#2)\n",
	"  directories: 1 (xfs, vm), not recorded (ext4, ext4#2)\n",
	"  seeks: not recorded (xfs, ext4, ext4#2), 8192 (vm)\n",
	"  seekers: not recorded (xfs, ext4, ext4#2), 5 (vm)\n",
	"  filesystem: not recorded (xfs, vm), ext4 (ext4), xfs (ext4"
	"#2)\n",
	"  mount options: not recorded (xfs, vm), rw,noatime (ext4, e"
	"xt4#2)\n",
	"  host: not recorded (xfs, vm, ext4#2), box (ext4)\n",
	"  CPUs: not recorded (xfs, vm, ext4#2), 2 (ext4)\n",
	"  I/O engine: not recorded (xfs, vm), psync (ext4, ext4#2)\n",
	"  queue depth: not recorded (xfs, vm), 1 (ext4, ext4#2)\n",
	"\n",
	"xfs: a.csv:2 (bonnie++ CSV 1.96)\n",
	"vm: a.csv:3 (bonnie++ CSV 1.98)\n",
	"ext4: b.json:1 (clyde JSON v1, 1970-01-01 00:01 UTC, 3 repea"
	"ts)\n",
	"ext4#2: c.json:1 (clyde JSON v1, 3 repeats)\n",
	NULL
};

static const char *const golden_md[] = {
	"| test | metric | unit | xfs | change | vm | change | ext4 |"
	" ext4#2 | change |\n",
	"| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: "
	"| ---: |\n",
	"| putc | rate | KiB/s | 425 \\[A\\] |  | 438 \\[B\\] |  |  |"
	"  |  |\n",
	"| putc | CPU | % | 98 |  | 75 |  |  |  |  |\n",
	"| putc | lat max |  | 42.2 ms \\[A\\] |  | 58.6 ms \\[B\\] |"
	"  |  |  |  |\n",
	"| put_block | rate | MiB/s | 178.6 \\[A\\] | +62.4% | 388.3 "
	"\\[B\\] | +253.0% | 110.0 ±24.8 \\[C\\] | **200.0 ±24.8 \\"
	"* \\[C\\] (s)** | +81.8% |\n",
	"| put_block | CPU | % | 64 | +190.9% | 75 | +240.9% | 22 | 3"
	"0 | +36.4% |\n",
	"| put_block | lat max |  | 2.38 s \\[A\\] | +4753900% | 30.3"
	" ms \\[B\\] | +60526% | 50 us \\[C\\] |  |  |\n",
	"| put_block | lat p99 |  |  |  |  |  | 9 us \\[C\\] |  |  |"
	"\n",
	"| rewrite | rate | MiB/s | 45.9 \\[A\\] |  | 753.0 \\[B\\] |"
	"  |  |  |  |\n",
	"| rewrite | CPU | % | 41 |  | 62 |  |  |  |  |\n",
	"| rewrite | lat max |  | 195 ms \\[A\\] |  | 11.9 ms \\[B\\]"
	" |  |  |  |  |\n",
	"| getc | rate | KiB/s | 955 \\[A\\] |  | 548 \\[B\\] |  | sk"
	"ipped \\[C\\] |  |  |\n",
	"| getc | CPU | % | 97 |  | 91 |  | skipped |  |  |\n",
	"| getc | lat max |  | 33.3 ms \\[A\\] |  | 46.5 ms \\[B\\] |"
	"  | skipped \\[C\\] |  |  |\n",
	"| get_block | rate | GiB/s | 0.192 \\[A\\] |  | 2.89 \\[B\\]"
	" |  |  |  |  |\n",
	"| get_block | CPU | % | 83 |  | 99 |  |  |  |  |\n",
	"| get_block | lat max |  | 86.7 ms \\[A\\] |  | 4.16 ms \\[B"
	"\\] |  |  |  |  |\n",
	"| seeks | rate | seeks/s | 517.6 \\[A\\] |  | 5113 \\[B\\] |"
	"  |  |  |  |\n",
	"| seeks | CPU | % | 30 |  | 33 |  |  |  |  |\n",
	"| seeks | lat max |  | 84.2 ms \\[A\\] |  | 8.16 ms \\[B\\] "
	"|  |  |  |  |\n",
	"| seq_create | rate | files/s | 93 |  | **16216 \\*** |  |  "
	"|  |  |\n",
	"| seq_create | CPU | % | 1 |  | 98 |  |  |  |  |\n",
	"| seq_create | lat max |  | 939 ms |  | **1.38 ms \\*** |  |"
	"  |  |  |\n",
	"| seq_stat | rate | files/s | too fast |  | too fast |  | ~5"
	"00000 | **~600000 \\*** | +20.0% |\n",
	"| seq_stat | CPU | % | too fast |  | too fast |  | 100 | 90 "
	"| -10.0% |\n",
	"| seq_stat | lat max |  | 2.28 ms |  | **283 us \\*** |  |  "
	"|  |  |\n",
	"| seq_del | rate | files/s | 90 |  | too fast |  |  |  |  |"
	"\n",
	"| seq_del | CPU | % | 1 |  | too fast |  |  |  |  |\n",
	"| seq_del | lat max |  | 1.42 s |  | **4.15 ms \\*** |  |  |"
	"  |  |\n",
	"| ran_create | rate | files/s | 123 |  | too fast |  |  |  |"
	"  |\n",
	"| ran_create | CPU | % | 1 |  | too fast |  |  |  |  |\n",
	"| ran_create | lat max |  | 307 ms |  | **4.06 ms \\*** |  |"
	"  |  |  |\n",
	"| ran_stat | rate | files/s | too fast |  | too fast |  |  |"
	"  |  |\n",
	"| ran_stat | lat max |  | **1.06 ms \\*** |  | 5.41 ms |  | "
	" |  |  |\n",
	"| ran_del | rate | files/s | 127 |  | too fast |  |  |  |  |"
	"\n",
	"| ran_del | CPU | % | 1 |  | too fast |  |  |  |  |\n",
	"| ran_del | lat max |  | 724 ms |  | **4.20 ms \\*** |  |  |"
	"  |  |\n",
	"\n",
	"\\* best in its row (rates: highest; latency: lowest; CPU is"
	" not ranked: less CPU for less work is no gain)  \n",
	"  with a single sample (no repeats on the best or the runner"
	"-up) \\* is by value only:  \n",
	"  the noise was not measured  \n",
	"± 95% confidence interval of the mean over the repeats (Stu"
	"dent's t)  \n",
	"~ ran under 0.5 s (bonnie++ prints +++++): measured, but imp"
	"recise; ranked by its value  \n",
	"too fast: ran under 0.5 s (+++++), no number recorded  \n",
	"change: against ext4  \n",
	"(s) significant / (ns) not significant difference from ext4 "
	"(Welch's t-test on log values, 95%)  \n",
	"IO tests: the runs differ in file size, so they are compared"
	" (\\*) only within a settings group:  \n",
	"  \\[A\\] file size 16G: xfs  \n",
	"  \\[B\\] file size 4G: vm  \n",
	"  \\[C\\] file size 1G: ext4, ext4#2  \n",
	"seeks: the runs differ in file size, so they are compared ("
	"\\*) only within a settings group:  \n",
	"  \\[A\\] file size 16G: xfs  \n",
	"  \\[B\\] file size 4G: vm  \n",
	"what differs:  \n",
	"  source format: bonnie++ CSV 1.96 (xfs), bonnie++ CSV 1.98 "
	"(vm), clyde JSON v1 (ext4, ext4#2)  \n",
	"  written by: bonnie++ 1.96 (xfs), bonnie++ 2.00a (vm), clyd"
	"e 0.1.0 (ext4), not recorded (ext4#2)  \n",
	"  file size: 16G (xfs), 4G (vm), 1G (ext4, ext4#2)  \n",
	"  files: 16384 (xfs, vm), not recorded (ext4, ext4#2)  \n",
	"  max size: 0 (xfs, vm), not recorded (ext4, ext4#2)  \n",
	"  min size: 0 (xfs, vm), not recorded (ext4, ext4#2)  \n",
	"  directories: 1 (xfs, vm), not recorded (ext4, ext4#2)  \n",
	"  seeks: not recorded (xfs, ext4, ext4#2), 8192 (vm)  \n",
	"  seekers: not recorded (xfs, ext4, ext4#2), 5 (vm)  \n",
	"  filesystem: not recorded (xfs, vm), ext4 (ext4), xfs (ext4"
	"#2)  \n",
	"  mount options: not recorded (xfs, vm), rw,noatime (ext4, e"
	"xt4#2)  \n",
	"  host: not recorded (xfs, vm, ext4#2), box (ext4)  \n",
	"  CPUs: not recorded (xfs, vm, ext4#2), 2 (ext4)  \n",
	"  I/O engine: not recorded (xfs, vm), psync (ext4, ext4#2)  "
	"\n",
	"  queue depth: not recorded (xfs, vm), 1 (ext4, ext4#2)  \n",
	"\n",
	"xfs: a.csv:2 (bonnie++ CSV 1.96)  \n",
	"vm: a.csv:3 (bonnie++ CSV 1.98)  \n",
	"ext4: b.json:1 (clyde JSON v1, 1970-01-01 00:01 UTC, 3 repea"
	"ts)  \n",
	"ext4#2: c.json:1 (clyde JSON v1, 3 repeats)  \n",
	NULL
};

static const char *const golden_csv[] = {
	"run,source,format,repeats,started (UTC),setting: source form"
	"at,setting: written by,setting: file size,setting: files,set"
	"ting: max size,setting: min size,setting: directories,settin"
	"g: seeks,setting: seekers,setting: filesystem,setting: mount"
	" options,setting: host,setting: CPUs,setting: I/O engine,set"
	"ting: queue depth,putc rate (B/s),putc rate 95% CI half-widt"
	"h (B/s),putc state,putc best,putc settings group,putc change"
	" vs ext4 (%),putc significant vs ext4,putc CPU (%),putc late"
	"ncy max (ns),put_block rate (B/s),put_block rate 95% CI half"
	"-width (B/s),put_block state,put_block best,put_block settin"
	"gs group,put_block change vs ext4 (%),put_block significant "
	"vs ext4,put_block CPU (%),put_block latency max (ns),put_blo"
	"ck latency p99 (ns),rewrite rate (B/s),rewrite rate 95% CI h"
	"alf-width (B/s),rewrite state,rewrite best,rewrite settings "
	"group,rewrite change vs ext4 (%),rewrite significant vs ext4"
	",rewrite CPU (%),rewrite latency max (ns),getc rate (B/s),ge"
	"tc rate 95% CI half-width (B/s),getc state,getc best,getc se"
	"ttings group,getc change vs ext4 (%),getc significant vs ext"
	"4,getc CPU (%),getc latency max (ns),get_block rate (B/s),ge"
	"t_block rate 95% CI half-width (B/s),get_block state,get_blo"
	"ck best,get_block settings group,get_block change vs ext4 (%"
	"),get_block significant vs ext4,get_block CPU (%),get_block "
	"latency max (ns),seeks rate (seeks/s),seeks rate 95% CI half"
	"-width (seeks/s),seeks state,seeks best,seeks settings group"
	",seeks change vs ext4 (%),seeks significant vs ext4,seeks CP"
	"U (%),seeks latency max (ns),seq_create rate (files/s),seq_c"
	"reate rate 95% CI half-width (files/s),seq_create state,seq_"
	"create best,seq_create change vs ext4 (%),seq_create signifi"
	"cant vs ext4,seq_create CPU (%),seq_create latency max (ns),"
	"seq_stat rate (files/s),seq_stat rate 95% CI half-width (fil"
	"es/s),seq_stat state,seq_stat best,seq_stat change vs ext4 ("
	"%),seq_stat significant vs ext4,seq_stat CPU (%),seq_stat la"
	"tency max (ns),seq_del rate (files/s),seq_del rate 95% CI ha"
	"lf-width (files/s),seq_del state,seq_del best,seq_del change"
	" vs ext4 (%),seq_del significant vs ext4,seq_del CPU (%),seq"
	"_del latency max (ns),ran_create rate (files/s),ran_create r"
	"ate 95% CI half-width (files/s),ran_create state,ran_create "
	"best,ran_create change vs ext4 (%),ran_create significant vs"
	" ext4,ran_create CPU (%),ran_create latency max (ns),ran_sta"
	"t rate (files/s),ran_stat rate 95% CI half-width (files/s),r"
	"an_stat state,ran_stat best,ran_stat change vs ext4 (%),ran_"
	"stat significant vs ext4,ran_stat latency max (ns),ran_del r"
	"ate (files/s),ran_del rate 95% CI half-width (files/s),ran_d"
	"el state,ran_del best,ran_del change vs ext4 (%),ran_del sig"
	"nificant vs ext4,ran_del CPU (%),ran_del latency max (ns)\n",
	"xfs,a.csv:2,bonnie++ CSV 1.96,1,,bonnie++ CSV 1.96,bonnie++ "
	"1.96,16G,16384,0,0,1,,,,,,,,,435200,,,no,A,,not tested,98,42"
	"207000,187319296,,,no,A,62.4014559659091,not tested,64,23770"
	"00000,,48082944,,,no,A,,not tested,41,195000000,977920,,,no,"
	"A,,not tested,97,33339000,206104576,,,no,A,,not tested,83,86"
	"675000,517.6,,,no,A,,not tested,30,84167000,93,,,no,,not tes"
	"ted,1,939000000,,,too fast,no,,not tested,,2279000,90,,,no,,"
	"not tested,1,1415000000,123,,,no,,not tested,1,307000000,,,t"
	"oo fast,no,,not tested,1057000,127,,,no,,not tested,1,724000"
	"000\n",
	"vm,a.csv:3,bonnie++ CSV 1.98,1,,bonnie++ CSV 1.98,bonnie++ 2"
	".00a,4G,16384,0,0,1,8192,5,,,,,,,448512,,,no,B,,not tested,7"
	"5,58586000,407176192,,,no,B,253.012251420455,not tested,75,3"
	"0313000,,789536768,,,no,B,,not tested,62,11853000,561152,,,n"
	"o,B,,not tested,91,46469000,3102151680,,,no,B,,not tested,99"
	",4155000,5113,,,no,B,,not tested,33,8163000,16216,,,yes,,not"
	" tested,98,1378000,,,too fast,no,,not tested,,283000,,,too f"
	"ast,no,,not tested,,4146000,,,too fast,no,,not tested,,40640"
	"00,,,too fast,no,,not tested,5410000,,,too fast,no,,not test"
	"ed,,4200000\n",
	"ext4,b.json:1,clyde JSON v1,3,1970-01-01 00:01 UTC,clyde JSO"
	"N v1,clyde 0.1.0,1G,,,,,,,ext4,\"rw,noatime\",box,2,psync,1,"
	",,not run,no,,,not tested,,,115343360,26048071.8523631,,no,C"
	",,not tested,22,50000,9000,,,not run,no,,,not tested,,,,,ski"
	"pped,no,C,,not tested,,,,,not run,no,,,not tested,,,,,not ru"
	"n,no,,,not tested,,,,,not run,no,,not tested,,,500000,,impre"
	"cise,no,,not tested,100,,,,not run,no,,not tested,,,,,not ru"
	"n,no,,not tested,,,,,not run,no,,not tested,,,,not run,no,,n"
	"ot tested,,\n",
	"ext4#2,c.json:1,clyde JSON v1,3,,clyde JSON v1,,1G,,,,,,,xfs"
	",\"rw,noatime\",,,psync,1,,,not run,no,,,not tested,,,209715"
	"200,26048071.8523631,,yes,C,81.8181818181818,yes,30,,,,,not "
	"run,no,,,not tested,,,,,not run,no,,,not tested,,,,,not run,"
	"no,,,not tested,,,,,not run,no,,,not tested,,,,,not run,no,,"
	"not tested,,,600000,,imprecise,yes,20,not tested,90,,,,not r"
	"un,no,,not tested,,,,,not run,no,,not tested,,,,,not run,no,"
	",not tested,,,,not run,no,,not tested,,\n",
	NULL
};

/* The lines of a golden text joined (owned by the caller). */
static char *join(const char *const *lines)
{
	size_t n = 0, i;
	char *s;

	for (i = 0; lines[i]; i++)
		n += strlen(lines[i]);
	s = malloc(n + 1);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; lines[i]; i++)
		strcat(s, lines[i]);
	return s;
}

/*
 * Check one rendering against its golden text.  With CLYDE_GOLDEN_DUMP
 * set to a directory, the output is also written there as <name>, for
 * looking at (or regenerating the golden text after a deliberate change).
 */
static void check_golden(const char *got, const char *const *lines,
			 const char *name)
{
	const char *dump = getenv("CLYDE_GOLDEN_DUMP");
	char *want = join(lines);

	if (dump && got) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dump, name);
		f = fopen(path, "w");
		if (f) {
			fputs(got, f);
			fclose(f);
		}
	}
	CHECK(got != NULL && want != NULL);
	if (!got || !want) {
		free(want);
		return;
	}
	if (strcmp(got, want)) {
		size_t i = 0;

		while (got[i] && got[i] == want[i])
			i++;
		fprintf(stderr,
			"%s differs at byte %zu:\n--- got:\n%s--- want:\n%s",
			name, i, got, want);
	}
	CHECK(!strcmp(got, want));
	free(want);
}

static void test_golden(void)
{
	struct clyde_compare_opts o = { NULL, 0, 3 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	char *out;

	clyde_ctx_init(&ctx);
	load_set(&ctx, &set);
	CHECK(clyde_compare_build(&ctx, &set, &o, &cmp) == 0);
	CHECK(cmp.ncols == 4 && cmp.baseline == 2 && cmp.ref == 2);
	CHECK(cmp.any_sig);
	out = render(&cmp, CLYDE_COMPARE_TEXT);
	check_golden(out, golden_text, "golden.txt");
	free(out);
	out = render(&cmp, CLYDE_COMPARE_MARKDOWN);
	check_golden(out, golden_md, "golden.md");
	free(out);
	out = render(&cmp, CLYDE_COMPARE_CSV);
	check_golden(out, golden_csv, "golden.csv");
	free(out);
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

static void test_labels_and_errors(void)
{
	static const char three[] =
		"1.98,2.00a,vm,1,1,,,,,,,,,,,,,,,,,16,,,,,100,1,,,,,,,,,,,,,,"
		",,,,,,,,\n"
		"1.98,2.00a,vm,1,2,,,,,,,,,,,,,,,,,16,,,,,200,1,,,,,,,,,,,,,,"
		",,,,,,,,\n"
		"1.98,2.00a,,1,3,,,,,,,,,,,,,,,,,16,,,,,300,1,,,,,,,,,,,,,,,,"
		",,,,,,\n"
		"1.98,2.00a,vm#2,1,4,,,,,,,,,,,,,,,,,16,,,,,400,1,,,,,,,,,,,,"
		",,,,,,,,,,\n";
	const char *labels[] = { "A", "A" };
	struct clyde_compare_opts o = { NULL, 0, 0 };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_buffer(&ctx, three, strlen(three), "t.csv",
				       &set) == 0);
	CHECK(set.nruns == 4 && set.nmalformed == 0);
	CHECK(clyde_compare_build(&ctx, &set, &o, &cmp) == 0);
	if (cmp.ncols == 4) {
		/* "vm#2" is taken by the fourth run's own name, so the
		 * second "vm" gets "vm#3"... no: labels are made in order,
		 * so the second run takes "vm#2" and the fourth, whose name
		 * is now taken, becomes "vm#2#2". */
		CHECK_STR(cmp.labels[0], "vm");
		CHECK_STR(cmp.labels[1], "vm#2");
		CHECK_STR(cmp.labels[2], "run3");
		CHECK_STR(cmp.labels[3], "vm#2#2");
		/* The best seq_create rate: the last. */
		CHECK(cmp.nrows >= 1 && cmp.rows[0].metric == CLYDE_CMP_RATE);
		CHECK(!cmp.rows[0].cells[0].best && cmp.rows[0].cells[3].best);
		/* The CPU row: all equal, so nothing is best. */
		CHECK(cmp.nrows >= 2 && cmp.rows[1].metric == CLYDE_CMP_CPU);
		CHECK(!cmp.rows[1].cells[0].best && !cmp.rows[1].cells[3].best);
		CHECK(!cmp.any_sig && cmp.baseline == -1);
	}
	clyde_compare_release(&cmp);

	/* --label: the first two replaced, made unique too. */
	o.labels = labels;
	o.nlabels = 2;
	CHECK(clyde_compare_build(&ctx, &set, &o, &cmp) == 0);
	if (cmp.ncols == 4) {
		CHECK_STR(cmp.labels[0], "A");
		CHECK_STR(cmp.labels[1], "A#2");
		CHECK_STR(cmp.labels[2], "run3");
	}
	clyde_compare_release(&cmp);

	/* Bad options. */
	o.nlabels = 5;
	CHECK(clyde_compare_build(&ctx, &set, &o, &cmp) == -EINVAL);
	CHECK_STR(clyde_errmsg(&ctx), "5 labels given for 4 results");
	clyde_err_clear(&ctx);
	o.nlabels = 0;
	o.baseline = 5;
	CHECK(clyde_compare_build(&ctx, &set, &o, &cmp) == -EINVAL);
	CHECK_STR(clyde_errmsg(&ctx),
		  "baseline 5 is not a result number (1 to 4)");
	clyde_err_clear(&ctx);

	/* Merging repeats: the two "vm" lines have the same settings. */
	CHECK(clyde_loaded_merge_repeats(&ctx, &set) == 0);
	CHECK(set.nruns == 3);
	if (set.nruns == 3) {
		const struct clyde_loaded_test *t =
			&set.runs[0].tests[CLYDE_SEQ_CREATE];

		CHECK(set.runs[0].nrepeats == 2);
		CHECK(t->nsamples == 2 && t->rate == 150);
		CHECK(t->samples[0] == 100 && t->samples[1] == 200);
		CHECK(set.runs[1].nrepeats == 1);
	}
	clyde_loaded_set_release(&set);

	/* Nothing at all. */
	clyde_loaded_set_init(&set);
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == -EINVAL);
	clyde_err_clear(&ctx);
	CHECK(clyde_loaded_read_buffer(&ctx, "", 0, "empty.csv", &set) == 0);
	CHECK(set.nruns == 0 && set.nerrors == 1);
	if (set.nerrors == 1)
		CHECK_STR(set.errors[0],
			  "empty.csv: no results in the file (it is empty)");
	clyde_loaded_set_release(&set);

	/* A file that cannot be read is the call's error, with the path. */
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_file(&ctx, "/nonexistent/x.json", &set) ==
	      -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), "/nonexistent/x.json") != NULL);
	clyde_err_clear(&ctx);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* Malformed JSON: the whole file, or one member, each named with a line;
 * what can be read still is. */
static void test_bad_json(void)
{
	static const char broken[] = "{\"schema\": \"clyde-result\",\n"
				     "\"runs\": [1,,]}";
	static const char foreign[] = "{\"name\": \"not a result\"}";
	static const char newer[] =
		"{\"schema\":\"clyde-result\",\"schema_version\":7,"
		"\"runs\":[]}";
	static const char bad_member[] =
		"{\"schema\":\"clyde-result\",\"schema_version\":1,"
		"\"label\":\"m\",\n\"runs\":[{\"tests\":[\n"
		"{\"name\":\"put_block\",\"state\":\"done\","
		"\"rate_per_s\":\"fast\"},\n"
		"{\"name\":\"bogus\",\"state\":\"done\"},\n"
		"{\"name\":\"rewrite\",\"state\":\"done\",\"rate_per_s\":5e6,"
		"\"cpu_pct\":10}]}]}";
	static const char tree[] =
		"{\"schema\":\"clyde-result\",\"schema_version\":1,"
		"\"kind\":\"tree\",\"label\":\"walk\",\"runs\":["
		"{\"phases\":[{\"name\":\"stat_walk\",\"entries_per_s\":2000,"
		"\"elapsed_ns\":1000000000,\"cpu_user_ns\":250000000,"
		"\"cpu_sys_ns\":250000000}]},"
		"{\"phases\":[{\"name\":\"stat_walk\",\"entries_per_s\":4000,"
		"\"elapsed_ns\":1000000000}]}]}";
	struct clyde_loaded_set set;
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_buffer(&ctx, broken, strlen(broken), "b.json",
				       &set) == 0);
	CHECK(clyde_loaded_read_buffer(&ctx, foreign, strlen(foreign), "f.json",
				       &set) == 0);
	CHECK(clyde_loaded_read_buffer(&ctx, newer, strlen(newer), "n.json",
				       &set) == 0);
	CHECK(clyde_loaded_read_buffer(&ctx, bad_member, strlen(bad_member),
				       "m.json", &set) == 0);
	CHECK(clyde_loaded_read_buffer(&ctx, tree, strlen(tree), "t.json",
				       &set) == 0);
	CHECK(set.nerrors == 5 && set.nmalformed == 5);
	if (set.nerrors == 5) {
		CHECK_STR(set.errors[0],
			  "b.json:2: expected a value, found ','");
		CHECK_STR(set.errors[1], "f.json:1: not a clyde result (no "
					 "\"schema\" member)");
		CHECK_STR(set.errors[2], "n.json:1: schema_version 7 is newer "
					 "than this clyde reads (1)");
		CHECK_STR(set.errors[3],
			  "m.json:3: runs[0].tests[0]: \"rate_per_s\" is "
			  "string, not a number");
		CHECK_STR(set.errors[4], "m.json:4: runs[0].tests[1]: unknown "
					 "test \"bogus\"");
	}
	CHECK(set.nruns == 2);
	if (set.nruns == 2) {
		const struct clyde_loaded_run *r = &set.runs[0];

		CHECK_STR(r->label, "m");
		CHECK(r->tests[CLYDE_PUT_BLOCK].state == CLYDE_LOADED_NOT_RUN);
		CHECK(r->tests[CLYDE_REWRITE].state == CLYDE_LOADED_VALUE);
		CHECK(r->tests[CLYDE_REWRITE].rate == 5e6);
		r = &set.runs[1];
		CHECK(r->kind == CLYDE_LOADED_TREE && r->ntests == 1 &&
		      r->nrepeats == 2);
		if (r->ntests == 1) {
			CHECK_STR(r->tests[0].name, "stat_walk");
			CHECK_STR(r->tests[0].unit, "entries/s");
			CHECK(r->tests[0].rate == 3000);
			CHECK(r->tests[0].nsamples == 2);
			CHECK(r->tests[0].has_cpu && r->tests[0].cpu_pct == 25);
			CHECK(r->tests[0].group == CLYDE_GROUP_TREE);
		}
	}
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/* The report: one chart per group and per test with percentiles, and no
 * user text unescaped. */
static void test_html(void)
{
	static const char evil[] =
		"1.98,2.00a,<script>alert(1)</script>&\"',1,1,,,,,,,,,,,,,,,,"
		",16,,,,,100,1,,,,,,,,,,,,,,,,,,,,,,\n";
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	clyde_ctx_init(&ctx);
	load_set(&ctx, &set);
	CHECK(clyde_loaded_read_buffer(&ctx, evil, strlen(evil), "e.csv",
				       &set) == 0);
	CHECK(set.nruns == 5);
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	/* Groups: seq output, seq input, seeks, seq create, random create,
	 * each with a rate chart and (the 1.96 and 1.98 lines have them) a
	 * maximum latency chart; percentiles: put_block (ext4). */
	CHECK(clyde_html_chart_count(&cmp) == 11);
	f = open_memstream(&out, &len);
	CHECK(f != NULL);
	if (!f)
		goto out;
	CHECK(clyde_html_write(f, &cmp, "T<i>") == 0);
	fclose(f);
	CHECK(count(out, "<svg") == 11);
	CHECK(count(out, "</svg>") == 11);
	CHECK(count(out, "class=\"chart bars rate\"") == 5);
	CHECK(count(out, "class=\"chart bars latmax\"") == 5);
	/* The overview: a row per run, shaded cells, a star. */
	CHECK(count(out, "<table class=\"overview\">") == 1);
	CHECK(count(out, "<td class=\"num heat") > 2);
	CHECK(count(out, "<td class=\"num alone\"") > 2);
	CHECK(strstr(out, "<td class=\"num heat best\"") != NULL);
	/* Issue 22: an imprecise rate (seq_stat ~600000, under 0.5 s) is
	 * ranked and shaded by its value, and says it is imprecise. */
	{
		const char *c = strstr(out, "seq_stat: ~600000 files/s");

		CHECK(c != NULL && strstr(c, "imprecise (ran under 0.5 s)") &&
		      strstr(c, ">~600000 \xe2\x98\x85</td>") != NULL);
		CHECK(strstr(out, "seq_stat: ~500000 files/s, 83% of the "
				  "best, imprecise") != NULL);
	}
	/* The generation date is on the page. */
	CHECK(strstr(out, "Generated 20") != NULL);
	CHECK(count(out, "class=\"chart latency\"") == 1);
	CHECK(strstr(out, "<script") == NULL);
	CHECK(strstr(out, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;"
			  "&#39;") != NULL);
	CHECK(strstr(out, "<title>T&lt;i&gt;</title>") != NULL);
	CHECK(strstr(out, "http://") == NULL ||
	      count(out, "http://") ==
		      count(out, "http://www.w3.org/2000/svg"));
	CHECK(strstr(out, "<link") == NULL && strstr(out, "src=") == NULL);
	/* What differs: filesystem differs (xfs/ext4 known in JSON only),
	 * the CSV runs do not record it. */
	CHECK(strstr(out, "<th>filesystem</th>") != NULL);
	CHECK(strstr(out, "not recorded") != NULL);
	/* Too fast is written, not drawn as 0. */
	CHECK(strstr(out, ">too fast<") != NULL);
	free(out);
out:
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* A run in memory loads as its JSON would. */
static void test_add_run(void)
{
	struct clyde_loaded_set set;
	struct clyde_ctx ctx;
	struct clyde_run run;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	clyde_run_init(&run);
	snprintf(run.params.name, sizeof(run.params.name), "mem");
	run.params.file_size_mib = 512;
	run.params.io_chunk = 65536;
	run.params.concurrency = 2;
	snprintf(run.env.target.fstype, sizeof(run.env.target.fstype), "xfs");
	run.tests[CLYDE_PUT_BLOCK].state = CLYDE_DONE;
	run.tests[CLYDE_PUT_BLOCK].bytes = 200ull << 20;
	run.tests[CLYDE_PUT_BLOCK].elapsed_ns = 2000000000ull;
	run.tests[CLYDE_PUT_BLOCK].cpu_user_ns = 500000000ull;
	run.tests[CLYDE_PUT_BLOCK].latency_max_ns = 7000;
	run.tests[CLYDE_SEQ_STAT].state = CLYDE_DONE;
	run.tests[CLYDE_SEQ_STAT].ops = 1000;
	run.tests[CLYDE_SEQ_STAT].elapsed_ns = 1000000ull;
	run.tests[CLYDE_GETC].state = CLYDE_SKIPPED;
	run.tests[CLYDE_GETC].note = "why not";
	CHECK(clyde_loaded_add_run(&ctx, &run, "now", &set) == 0);
	CHECK(set.nruns == 1);
	if (set.nruns == 1) {
		const struct clyde_loaded_run *r = &set.runs[0];

		CHECK_STR(r->label, "mem");
		CHECK_STR(r->source, "now:1");
		CHECK_STR(clyde_loaded_kv_get(r, "filesystem"), "xfs");
		CHECK_STR(clyde_loaded_kv_get(r, "file size"), "512M");
		CHECK_STR(clyde_loaded_kv_get(r, "IO chunk"), "64k");
		CHECK_STR(clyde_loaded_kv_get(r, "concurrency"), "2");
		CHECK(r->tests[CLYDE_PUT_BLOCK].state == CLYDE_LOADED_VALUE);
		CHECK(r->tests[CLYDE_PUT_BLOCK].rate == 100.0 * 1048576);
		CHECK(r->tests[CLYDE_PUT_BLOCK].cpu_pct == 25.0);
		CHECK(r->tests[CLYDE_PUT_BLOCK].latency_max_ns == 7000);
		CHECK(r->tests[CLYDE_SEQ_STAT].state == CLYDE_LOADED_TOO_FAST);
		CHECK(r->tests[CLYDE_SEQ_STAT].has_rate &&
		      r->tests[CLYDE_SEQ_STAT].rate == 1e6);
		CHECK(r->tests[CLYDE_GETC].state == CLYDE_LOADED_SKIPPED);
		CHECK_STR(r->tests[CLYDE_GETC].note, "why not");
		CHECK(r->tests[CLYDE_PUTC].state == CLYDE_LOADED_NOT_RUN);
	}
	clyde_run_release(&run);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* Numbers for a person, shared with history list (results/fmt.c). */
static void test_readable(void)
{
	char b[64];
	double d;

	CHECK_STR(clyde_fmt_readable(b, sizeof(b), 888, true), "888");
	CHECK_STR(clyde_fmt_readable(b, sizeof(b), 888, false), "888.0");
	CHECK_STR(clyde_fmt_readable(b, sizeof(b), 171.36, false), "171.4");
	CHECK_STR(clyde_fmt_readable(b, sizeof(b), 2.5, false), "2.50");
	CHECK_STR(clyde_fmt_readable(b, sizeof(b), 0.0123, false), "0.0123");
	CHECK_STR(clyde_fmt_readable(b, sizeof(b), 1234.6, false), "1235");
	CHECK_STR(clyde_fmt_readable(b, sizeof(b), NAN, false), "0");
	CHECK_STR(clyde_fmt_pick_unit("B/s", 3e9, &d), "GiB/s");
	CHECK(d == 1073741824.0);
	CHECK_STR(clyde_fmt_pick_unit("B/s", 500, &d), "KiB/s");
	CHECK(d == 1024);
	CHECK_STR(clyde_fmt_pick_unit("ns", 215000, &d), "us");
	CHECK(d == 1e3);
	CHECK_STR(clyde_fmt_pick_unit("files/s", 1e9, &d), "files/s");
	CHECK(d == 1);
}

/* Three 1.96 lines: a and b alike (16G, -n 16), c with a 32G file and
 * -n 128:65536:0:512, d like a and b but slower.  put_block: a 102400
 * and b 102450 KiB/s show alike (100.0 MiB/s) and are both best, c is
 * faster but is compared with no one. */
static const char groups_csv[] =
	"1.96,1.96,a,1,1,16G,,,,102400,20,,,,,,,400.0,5,16,,,,,1000,10,,,,"
	",,,,,,,,215us,,,,,2ms,,,,,\n"
	"1.96,1.96,b,1,1,16G,,,,102450,30,,,,,,,500.0,5,16,,,,,2000,50,,,,"
	",,,,,,,,300us,,,,,3ms,,,,,\n"
	"1.96,1.96,c,1,1,32G,,,,409600,90,,,,,,,600.0,5,128,65536,0,512,,"
	"5000,90,,,,,,,,,,,,1ms,,,,,1ms,,,,,\n"
	"1.96,1.96,d,1,1,16G,,,,51200,20,,,,,,,300.0,5,16,,,,,900,10,,,,"
	",,,,,,,,400us,,,,,2ms,,,,,\n";

static const struct clyde_cmp_row *row_of(const struct clyde_compare *cmp,
					  const char *test,
					  enum clyde_cmp_metric m)
{
	size_t r;

	for (r = 0; r < cmp->nrows; r++)
		if (!strcmp(cmp->rows[r].test, test) &&
		    cmp->rows[r].metric == m)
			return &cmp->rows[r];
	return NULL;
}

static void test_groups(void)
{
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	const struct clyde_cmp_row *row;
	const struct clyde_cmp_scope *sc;
	char buf[64], *out;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_buffer(&ctx, groups_csv, strlen(groups_csv),
				       "g.csv", &set) == 0);
	CHECK(set.nruns == 4 && set.nmalformed == 0);
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	if (cmp.ncols != 4)
		goto out;
	sc = &cmp.scopes[CLYDE_SCOPE_IO];
	CHECK(sc->used && sc->nclasses == 2 && sc->nkeys == 1);
	CHECK_STR(sc->keys[0], "file size");
	CHECK(sc->cls[0] == 0 && sc->cls[1] == 0 && sc->cls[2] == 1 &&
	      sc->cls[3] == 0);
	sc = &cmp.scopes[CLYDE_SCOPE_FILES];
	CHECK(sc->nclasses == 2);
	CHECK_STR(clyde_compare_scope_keys(buf, sizeof(buf), sc),
		  "files, max size, directories");
	/* The star: a and b tie at 100.0 MiB/s; c is alone in its group. */
	row = row_of(&cmp, "put_block", CLYDE_CMP_RATE);
	CHECK(row != NULL);
	if (row) {
		CHECK_STR(row->unit, "MiB/s");
		CHECK(row->cells[0].best && row->cells[1].best);
		CHECK(!row->cells[2].best);
		CHECK_STR(clyde_compare_cell_text(buf, sizeof(buf), row,
						  &row->cells[0]),
			  "100.0");
	}
	/* No star on CPU, whatever the numbers. */
	row = row_of(&cmp, "put_block", CLYDE_CMP_CPU);
	CHECK(row && !row->cells[0].best && !row->cells[1].best &&
	      !row->cells[2].best);
	/* A latency carries its unit: 215 us, not 0.000215 s. */
	row = row_of(&cmp, "put_block", CLYDE_CMP_LAT_MAX);
	CHECK(row != NULL);
	if (row) {
		CHECK_STR(row->unit, "");
		CHECK_STR(clyde_compare_cell_text(buf, sizeof(buf), row,
						  &row->cells[0]),
			  "215 us");
		CHECK_STR(clyde_compare_cell_text(buf, sizeof(buf), row,
						  &row->cells[2]),
			  "1 ms");
		CHECK(row->cells[0].best && !row->cells[2].best);
	}
	/* Whole files/s show no decimals; 400.0 seeks/s from %.1f neither. */
	row = row_of(&cmp, "seq_create", CLYDE_CMP_RATE);
	CHECK(row && row->whole);
	if (row) {
		CHECK_STR(clyde_compare_cell_text(buf, sizeof(buf), row,
						  &row->cells[1]),
			  "2000");
		CHECK(row->cells[1].best && !row->cells[2].best);
	}
	/* Every writer names the groups. */
	out = render(&cmp, CLYDE_COMPARE_TEXT);
	/* d (50 MiB/s) and a, b (100) were made alike: flagged "!!". */
	CHECK(out && strstr(out, "100.0 !! * [A]"));
	CHECK(out && strstr(out, "  put_block rate: 50.0 MiB/s (d) to "
				 "100.0 (b), 2.0x\n"));
	CHECK(out && strstr(out, "file tests: the runs differ in files, max "
				 "size, directories"));
	CHECK(out && strstr(out, "  [B] file size 32G: c\n"));
	free(out);
	out = render(&cmp, CLYDE_COMPARE_MARKDOWN);
	CHECK(out && strstr(out, "| put_block | rate | MiB/s | **100.0 !! "
				 "\\* \\[A\\]** |"));
	free(out);
	out = render(&cmp, CLYDE_COMPARE_CSV);
	CHECK(out && strstr(out, ",put_block settings group,"));
	CHECK(out && strstr(out, "\nc,g.csv:3,bonnie++ CSV 1.96,1,,32G,1310"
				 "72,64k,512,"));
	free(out);
out:
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* A clyde result: engine, depth and put_block's repeats (MiB/s). */
static char *engine_doc(const char *label, const char *engine, int depth, int a,
			int b, int c)
{
	char *doc = NULL;

	if (asprintf(&doc,
		     "{\"schema\":\"clyde-result\",\"schema_version\":1,"
		     "\"kind\":\"bonnie\",\"label\":\"%s\",\n"
		     "\"config\":{\"file_size_mib\":1024,\"concurrency\":1,"
		     "\"direct\":true,\"engine\":\"%s\",\"iodepth\":%d},\n"
		     "\"runs\":[\n"
		     "{\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
		     "\"rate_per_s\":%d,\"too_fast\":false}]},\n"
		     "{\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
		     "\"rate_per_s\":%d,\"too_fast\":false}]},\n"
		     "{\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
		     "\"rate_per_s\":%d,\"too_fast\":false}]}]}\n",
		     label, engine, depth, a << 20, b << 20, c << 20) < 0)
		abort();
	return doc;
}

/* Issue 22: the engine and the depth split the settings groups (io_uring
 * at depth 16 is no rival of psync); a best that does not beat the
 * runner-up beyond noise is a tie, marked alike; one that does is alone. */
static void test_engine_groups_and_ties(void)
{
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	const struct clyde_cmp_row *row;
	char *d[3], *out;
	size_t i;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	d[0] = engine_doc("psync", "psync", 1, 100, 104, 108);
	d[1] = engine_doc("uring", "io_uring", 16, 400, 404, 408);
	d[2] = engine_doc("psync2", "psync", 1, 101, 105, 109);
	for (i = 0; i < 3; i++) {
		CHECK(clyde_loaded_read_buffer(&ctx, d[i], strlen(d[i]),
					       "e.json", &set) == 0);
		free(d[i]);
	}
	CHECK(set.nruns == 3);
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	CHECK(cmp.scopes[CLYDE_SCOPE_IO].nclasses == 2);
	CHECK(cmp.scopes[CLYDE_SCOPE_IO].nkeys == 2);
	row = row_of(&cmp, "put_block", CLYDE_CMP_RATE);
	CHECK(row != NULL);
	if (row) {
		/* uring is alone in its group: no star. */
		CHECK(row->cells[1].cls != row->cells[0].cls);
		CHECK(!row->cells[1].best);
		/* 104 vs 105 +- 4 with three repeats each: a tie; the
		 * difference (about 1%, its 95% interval some +-8%) is
		 * neither significant nor within +-5%: cannot tell. */
		CHECK(row->cells[0].best && row->cells[2].best);
		CHECK(!row->cells[0].best_by_value && cmp.any_best_tie);
		CHECK(row->cells[0].decided &&
		      row->cells[0].verdict == CLYDE_VERDICT_CANNOT_TELL);
		CHECK(!row->cells[2].decided && cmp.any_best_cannot_tell);
		CHECK(!cmp.any_best_equivalent);
	}
	out = render(&cmp, CLYDE_COMPARE_TEXT);
	CHECK(out && strstr(out, "the runs differ in I/O engine, queue "
				 "depth"));
	CHECK(out && strstr(out, "a tie, the best is not better than them"));
	CHECK(out && strstr(out, "*? cannot tell from the best"));
	CHECK(out && strstr(out, " *? "));
	free(out);
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);

	/* A result from before --engine ran psync at depth 1: it is not in
	 * io_uring's group either. */
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_buffer(&ctx, json_b, strlen(json_b), "b.json",
				       &set) == 0);
	d[0] = engine_doc("uring", "io_uring", 16, 400, 404, 408);
	CHECK(clyde_loaded_read_buffer(&ctx, d[0], strlen(d[0]), "e.json",
				       &set) == 0);
	free(d[0]);
	CHECK_STR(clyde_loaded_kv_get(&set.runs[0], "I/O engine"), "psync");
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	CHECK(cmp.scopes[CLYDE_SCOPE_IO].nclasses == 2);
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);

	/* Apart beyond noise: one star. */
	clyde_loaded_set_init(&set);
	d[0] = engine_doc("a", "psync", 1, 100, 101, 102);
	d[1] = engine_doc("b", "psync", 1, 120, 121, 122);
	for (i = 0; i < 2; i++) {
		CHECK(clyde_loaded_read_buffer(&ctx, d[i], strlen(d[i]),
					       "e.json", &set) == 0);
		free(d[i]);
	}
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	row = row_of(&cmp, "put_block", CLYDE_CMP_RATE);
	CHECK(row && !row->cells[0].best && row->cells[1].best &&
	      !cmp.any_best_tie && !cmp.any_best_by_value);
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* Two runs 4x apart that differ only in their log interval: still made
 * alike ("!!"), and "what differs" says that the interval does not change
 * the measurement (issue 32). */
static void test_not_measured(void)
{
	static const char fmt[] =
		"{\"schema\":\"clyde-result\",\"schema_version\":1,"
		"\"kind\":\"bonnie\",\"label\":\"%s\",\n"
		"\"config\":{\"file_size_mib\":1024,\"concurrency\":1,"
		"\"log_interval_ns\":%d},\n"
		"\"runs\":[{\"tests\":[{\"name\":\"put_block\","
		"\"state\":\"done\",\"rate_per_s\":%d,"
		"\"too_fast\":false}]}]}\n";
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	const struct clyde_cmp_row *row;
	char doc[512], *out;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	snprintf(doc, sizeof(doc), fmt, "a", 1000, 100 << 20);
	CHECK(clyde_loaded_read_buffer(&ctx, doc, strlen(doc), "a.json",
				       &set) == 0);
	snprintf(doc, sizeof(doc), fmt, "b", 200, 400 << 20);
	CHECK(clyde_loaded_read_buffer(&ctx, doc, strlen(doc), "b.json",
				       &set) == 0);
	CHECK(clyde_setting_not_measured("log_interval_ns"));
	CHECK(!clyde_setting_not_measured("file size"));
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	CHECK(cmp.scopes[CLYDE_SCOPE_IO].nclasses <= 1);
	row = row_of(&cmp, "put_block", CLYDE_CMP_RATE);
	CHECK(row && row->cells[0].runs_disagree &&
	      row->cells[1].runs_disagree);
	out = render(&cmp, CLYDE_COMPARE_TEXT);
	CHECK(out && strstr(out, "  log_interval_ns (does not change the "
				 "measurement): 1000 (a), 200 (b)\n"));
	free(out);
	clyde_compare_release(&cmp);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* ss1's ran_stat repeats, 500, 39603, 725, 27351, merged: a mean with a
 * CI and the mark of repeats that disagree. */
static void test_spread(void)
{
	static const char *const rs[] = { "500", "39603", "725", "27351" };
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	const struct clyde_cmp_row *row;
	const struct clyde_loaded_test *t;
	char line[256], *text = NULL;
	size_t i, len = 0;
	double lo = 0, hi = 0;
	FILE *m = open_memstream(&text, &len);

	CHECK(m != NULL);
	if (!m)
		return;
	for (i = 0; i < 4; i++) {
		snprintf(line, sizeof(line),
			 "1.96,1.96,ss1,1,1,,,,,,,,,,,,,,,16,,,,,,,,,,,,,%s,5,"
			 ",,,,,,,,,,,,,\n",
			 rs[i]);
		fputs(line, m);
	}
	fclose(m);
	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_buffer(&ctx, text, len, "ss1.csv", &set) == 0);
	CHECK(set.nruns == 4);
	CHECK(clyde_loaded_merge_repeats(&ctx, &set) == 0);
	CHECK(set.nruns == 1);
	if (set.nruns != 1)
		goto out;
	t = &set.runs[0].tests[CLYDE_RAN_STAT];
	CHECK(t->nsamples == 4 && fabs(t->rate - 17044.75) < 1e-9);
	CHECK(clyde_loaded_test_disagree(t, &lo, &hi));
	CHECK(lo == 500 && hi == 39603);
	/* Close repeats do not disagree. */
	{
		double s[] = { 100, 150, 199 };
		struct clyde_loaded_test c = { .samples = s, .nsamples = 3 };

		CHECK(!clyde_loaded_test_disagree(&c, NULL, NULL));
		s[2] = 200;
		CHECK(clyde_loaded_test_disagree(&c, NULL, NULL));
	}
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	row = row_of(&cmp, "ran_stat", CLYDE_CMP_RATE);
	CHECK(row != NULL);
	if (row) {
		CHECK(row->cells[0].disagree && row->cells[0].ci95 > 17000);
		CHECK(cmp.any_ci && cmp.any_disagree);
	}
	free(text);
	text = render(&cmp, CLYDE_COMPARE_TEXT);
	CHECK(text && strstr(text, "17045 \xc2\xb1"));
	CHECK(text && strstr(text, "! the repeats disagree"));
	clyde_compare_release(&cmp);
out:
	free(text);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* Five results: compare's "what differs" has one line per result; the
 * report's member-disks part shows a JSON result's members and findings,
 * leaving out a member object that lacks a counter. */
static const char json_members[] =
	"{\"schema\":\"clyde-result\",\"schema_version\":1,"
	"\"kind\":\"bonnie\",\"label\":\"r5\",\n"
	"\"runs\":[{\"tests\":[{\"name\":\"put_block\",\"state\":\"done\","
	"\"rate_per_s\":1000,\"members\":[{\"device\":\"sdb\",\"present\":true,"
	"\"read_bytes\":327155712,\"write_bytes\":1048576,\"read_ios\":3,"
	"\"write_ios\":4,\"io_ticks_ms\":5,\"write_amplification\":1.5},"
	"{\"device\":\"sdc\",\"present\":true}],\"members_check\":{"
	"\"findings\":[\"block write read 312 MiB from the members\"]}}]}]}\n";

static void test_differs_members(void)
{
	struct clyde_loaded_set set;
	struct clyde_compare cmp;
	struct clyde_ctx ctx;
	const struct clyde_loaded_run *r;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	clyde_ctx_init(&ctx);
	load_set(&ctx, &set);
	CHECK(clyde_loaded_read_buffer(&ctx, json_members, strlen(json_members),
				       "m.json", &set) == 0);
	CHECK(set.nruns == 5); /* a.csv:4 is malformed on purpose */
	if (set.nruns != 5)
		goto out;
	r = &set.runs[4];
	CHECK(r->nmembers == 1 && r->nmember_findings == 1);
	if (r->nmembers == 1)
		CHECK(!strcmp(r->members[0].device, "sdb") &&
		      !strcmp(r->members[0].test, "put_block") &&
		      r->members[0].read_bytes == 327155712 &&
		      r->members[0].has_wa && r->members[0].wa == 1.5);
	CHECK(clyde_compare_build(&ctx, &set, NULL, &cmp) == 0);
	out = render(&cmp, CLYDE_COMPARE_TEXT);
	CHECK(out && strstr(out, "what differs (source format | written by | "
				 "concurrency | file size | "));
	CHECK(out &&
	      strstr(out, "\n  ext4: clyde JSON v1 | clyde 0.1.0 | 1 | 1G"));
	CHECK(out && strstr(out, "\n  r5: clyde JSON v1 | not recorded | "));
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	CHECK(f != NULL);
	if (f) {
		CHECK(clyde_html_write(f, &cmp, NULL) == 0);
		fclose(f);
	}
	CHECK(out && strstr(out, "<h2 id=\"members\">"));
	CHECK(out && strstr(out, "<details><summary>"));
	CHECK(out && strstr(out, "<td>put_block</td><td>sdb</td><td class="
				 "\"num\" title=\"327155712 B\">"));
	CHECK(out && !strstr(out, "<td>sdc</td>"));
	CHECK(out && strstr(out, "<li>block write read 312 MiB from the "
				 "members</li>"));
	clyde_compare_release(&cmp);
out:
	free(out);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

int main(void)
{
	test_load();
	test_fixtures();
	test_golden();
	test_labels_and_errors();
	test_bad_json();
	test_html();
	test_add_run();
	test_readable();
	test_groups();
	test_spread();
	test_engine_groups_and_ties();
	test_differs_members();
	test_not_measured();
	return tap_done();
}
