/*
 * The bonnie++ CSV reader: the fixture files of every format, bonnie++
 * 2.00a's shifted num_dirs against clyde's named layout (hand-made and
 * written by clyde's own writer), and malformed input.
 *
 * The fixtures live in the repository's tests/fixtures.  Their directory is
 * argv[1], else $CLYDE_FIXTURES, else CLYDE_FIXTURES_DIR (set by CMake); a
 * missing directory fails the test.
 */
#include "core/ctx.h"
#include "results/csv_read.h"
#include "results/format.h"
#include "tap.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) < 1e-9)

static const char *dir_of_fixtures(int argc, char **argv, char *buf, size_t len)
{
	const char *env = getenv("CLYDE_FIXTURES");

	if (argc > 1)
		return argv[1];
	if (env && *env)
		return env;
	snprintf(buf, len, "%s", CLYDE_FIXTURES_DIR);
	return buf;
}

/* Parse a literal line; returns what clyde_csv_parse_line() returned. */
static int parse(const char *s, struct clyde_csv_line *l, char *why)
{
	return clyde_csv_parse_line(s, strlen(s), l, why, CLYDE_CSV_WHY_LEN);
}

/* Read a fixture into set; every line must be a data line. */
static void read_fixture(struct clyde_ctx *ctx, const char *dir,
			 const char *name, struct clyde_csv_set *set)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	clyde_csv_set_init(set);
	CHECK(clyde_csv_read_file(ctx, path, set) == 0);
	CHECK(set->nerrors == 0 && set->nmalformed == 0);
	for (size_t i = 0; i < set->nerrors; i++)
		fprintf(stderr, "unexpected: %s\n", set->errors[i]);
}

static void test_fixture_103(struct clyde_ctx *ctx, const char *dir)
{
	struct clyde_csv_set set;
	const struct clyde_csv_line *l;
	const struct clyde_csv_test *t;

	read_fixture(ctx, dir, "bonnie-1.03.csv", &set);
	CHECK(set.nlines == 4);
	if (set.nlines != 4)
		goto out;
	l = &set.lines[0];
	CHECK(l->format == CLYDE_CSV_1_03);
	CHECK_STR(clyde_csv_format_name(l->format), "1.03");
	CHECK(l->writer == CLYDE_CSV_BY_BONNIE);
	CHECK_STR(l->writer_version, "");
	CHECK_STR(l->params.name, "devil2");
	CHECK(l->lineno == 1);
	CHECK(l->params.file_size_mib == 8192);
	CHECK(l->params.io_chunk == 0); /* not shown: the default */
	CHECK(l->params.concurrency == 0 && l->params.seed == 0);
	t = &l->tests[CLYDE_PUTC];
	CHECK(t->state == CLYDE_CSV_VALUE && NEAR(t->rate, 88390));
	CHECK(NEAR(t->rate_per_s, 88390.0 * 1024));
	CHECK(t->cpu_state == CLYDE_CSV_VALUE && NEAR(t->cpu_pct, 99));
	CHECK(!t->has_latency);
	t = &l->tests[CLYDE_GET_BLOCK];
	CHECK(NEAR(t->rate, 289555) && NEAR(t->cpu_pct, 27));
	t = &l->tests[CLYDE_SEEKS];
	CHECK(NEAR(t->rate, 389.0) && NEAR(t->rate_per_s, 389.0));
	CHECK(t->cpu_state == CLYDE_CSV_VALUE && NEAR(t->cpu_pct, 0));
	CHECK(l->num_files_k == 16 && l->params.num_files == 16384);
	CHECK(l->params.num_dirs == 1 && l->params.max_size == 0);
	t = &l->tests[CLYDE_SEQ_STAT];
	CHECK(t->state == CLYDE_CSV_TOO_FAST);
	CHECK(t->cpu_state == CLYDE_CSV_TOO_FAST);
	CHECK(t->rate == 0.0);
	t = &l->tests[CLYDE_RAN_DEL];
	CHECK(t->state == CLYDE_CSV_VALUE && NEAR(t->rate, 920));
	CHECK(NEAR(t->rate_per_s, 920) && NEAR(t->cpu_pct, 4));
	/* The third line: seeks 368.5, putc cpu 92. */
	l = &set.lines[2];
	CHECK(l->lineno == 3);
	CHECK(NEAR(l->tests[CLYDE_SEEKS].rate, 368.5));
	CHECK(NEAR(l->tests[CLYDE_PUTC].cpu_pct, 92));
out:
	clyde_csv_set_release(&set);
}

static void test_fixture_196(struct clyde_ctx *ctx, const char *dir)
{
	struct clyde_csv_set set;
	const struct clyde_csv_line *l;
	const struct clyde_csv_test *t;

	read_fixture(ctx, dir, "bonnie-1.96.csv", &set);
	CHECK(set.nlines == 2);
	if (set.nlines != 2)
		goto out;
	l = &set.lines[0];
	CHECK(l->format == CLYDE_CSV_1_96);
	CHECK_STR(l->format_version, "1.96");
	CHECK_STR(l->writer_version, "1.96");
	CHECK(l->writer == CLYDE_CSV_BY_BONNIE);
	CHECK_STR(l->params.name, "xfs");
	CHECK(l->params.concurrency == 1);
	CHECK(l->params.seed == 1295938326);
	CHECK(l->params.file_size_mib == 16384);
	/* io_chunk is empty; seeks and seekers are not in 1.96. */
	CHECK(l->params.io_chunk == 0);
	CHECK(l->params.seeks == 0 && l->params.seekers == 0);
	t = &l->tests[CLYDE_PUTC];
	CHECK(NEAR(t->rate, 425) && NEAR(t->cpu_pct, 98));
	CHECK(t->has_latency && t->latency_ns == 42207000ull);
	t = &l->tests[CLYDE_PUT_BLOCK];
	CHECK(NEAR(t->rate_per_s, 182929.0 * 1024));
	CHECK(t->latency_ns == 2377000000ull); /* 2377ms */
	t = &l->tests[CLYDE_SEEKS];
	CHECK(t->state == CLYDE_CSV_VALUE && t->rate == 517.6);
	CHECK(NEAR(t->cpu_pct, 30));
	CHECK(t->latency_ns == 84167000ull);
	CHECK(l->num_files_k == 16 && l->params.num_dirs == 1);
	CHECK(l->params.file_chunk == 0);
	t = &l->tests[CLYDE_SEQ_CREATE];
	CHECK(NEAR(t->rate, 93) && NEAR(t->cpu_pct, 1));
	CHECK(t->latency_ns == 939000000ull);
	CHECK(l->tests[CLYDE_SEQ_STAT].state == CLYDE_CSV_TOO_FAST);
	CHECK(l->tests[CLYDE_RAN_STAT].cpu_state == CLYDE_CSV_TOO_FAST);
	CHECK(l->tests[CLYDE_RAN_DEL].latency_ns == 724000000ull);

	l = &set.lines[1];
	CHECK_STR(l->params.name, "ext4");
	CHECK(l->params.seed == 1295954392);
	CHECK(l->tests[CLYDE_SEEKS].rate == 710.9);
	CHECK(l->tests[CLYDE_REWRITE].latency_ns == 2586000000ull);
	CHECK(l->tests[CLYDE_SEQ_STAT].latency_ns == 2384000ull);
	CHECK(l->tests[CLYDE_RAN_DEL].latency_ns == 2335000ull);
	CHECK(NEAR(l->tests[CLYDE_RAN_CREATE].rate, 20409));
out:
	clyde_csv_set_release(&set);
}

static void test_fixture_198(struct clyde_ctx *ctx, const char *dir)
{
	struct clyde_csv_set set;
	const struct clyde_csv_line *l;
	const struct clyde_csv_test *t;

	read_fixture(ctx, dir, "bonnie-1.98.csv", &set);
	CHECK(set.nlines == 3);
	if (set.nlines != 3)
		goto out;
	/* 4G run */
	l = &set.lines[0];
	CHECK(l->format == CLYDE_CSV_1_98);
	CHECK_STR(l->writer_version, "2.00a");
	CHECK(l->writer == CLYDE_CSV_BY_BONNIE);
	CHECK_STR(l->params.name, "vm");
	CHECK(l->params.seed == 1795987641);
	CHECK(l->params.file_size_mib == 4096);
	CHECK(l->params.io_chunk == 0); /* bonnie++ 2.00a writes it empty */
	CHECK(l->params.seeks == 8192 && l->params.seekers == 5);
	t = &l->tests[CLYDE_PUTC];
	CHECK(NEAR(t->rate, 438) && NEAR(t->cpu_pct, 75));
	CHECK(t->latency_ns == 58586000ull);
	t = &l->tests[CLYDE_GET_BLOCK];
	CHECK(NEAR(t->rate, 3029445) && NEAR(t->cpu_pct, 99));
	CHECK(NEAR(t->rate_per_s, 3029445.0 * 1024));
	t = &l->tests[CLYDE_SEEKS];
	CHECK(NEAR(t->rate, 5113) && NEAR(t->cpu_pct, 33));
	CHECK(t->latency_ns == 8163000ull);
	CHECK(l->num_files_k == 16 && l->params.num_files == 16384);
	CHECK(l->params.num_dirs == 1 && l->params.file_chunk == 0);
	CHECK(NEAR(l->tests[CLYDE_SEQ_CREATE].rate, 16216));
	for (int i = CLYDE_SEQ_STAT; i < CLYDE_TEST_COUNT; i++)
		CHECK(l->tests[i].state == CLYDE_CSV_TOO_FAST &&
		      l->tests[i].cpu_state == CLYDE_CSV_TOO_FAST);
	CHECK(l->tests[CLYDE_RAN_DEL].latency_ns == 4200000ull);

	/* -n 128 -s 0 */
	l = &set.lines[1];
	CHECK(l->params.file_size_mib == 0 && l->params.seeks == 0);
	for (int i = CLYDE_PUTC; i < CLYDE_FIRST_FILE_TEST; i++) {
		CHECK(l->tests[i].state == CLYDE_CSV_EMPTY);
		CHECK(l->tests[i].cpu_state == CLYDE_CSV_EMPTY);
		CHECK(!l->tests[i].has_latency);
	}
	CHECK(l->num_files_k == 128 && l->params.num_files == 131072);
	t = &l->tests[CLYDE_SEQ_CREATE];
	CHECK(NEAR(t->rate, 43369) && NEAR(t->cpu_pct, 95));
	CHECK(t->has_latency && t->latency_ns == 6196000ull);
	CHECK(NEAR(l->tests[CLYDE_SEQ_DEL].rate, 101295));
	CHECK(NEAR(l->tests[CLYDE_RAN_CREATE].cpu_pct, 96));
	CHECK(NEAR(l->tests[CLYDE_RAN_DEL].rate, 86911));
	CHECK(l->tests[CLYDE_RAN_STAT].latency_ns == 146000ull);

	/* 512M: block read and seeks too fast */
	l = &set.lines[2];
	CHECK(l->params.file_size_mib == 512);
	CHECK(l->tests[CLYDE_GET_BLOCK].state == CLYDE_CSV_TOO_FAST);
	CHECK(l->tests[CLYDE_SEEKS].state == CLYDE_CSV_TOO_FAST);
	CHECK(l->tests[CLYDE_SEEKS].latency_ns == 84745000ull);
	CHECK(NEAR(l->tests[CLYDE_REWRITE].rate, 563976));
	CHECK(l->num_files_k == 4 && l->params.num_files == 4096);
	CHECK(NEAR(l->tests[CLYDE_SEQ_CREATE].rate, 7825));
out:
	clyde_csv_set_release(&set);
}

/* Lines bonnie++ 2.00a wrote on this kind of machine (-n with max, min,
 * ndirs and chunk, and with links): num_dirs sits one column right. */
static void test_bonnie_shift(void)
{
	struct clyde_csv_line l;
	char why[CLYDE_CSV_WHY_LEN];

	CHECK(parse("1.98,2.00a,vm,1,1795982562,,,,,,,,,,,,,,,,,1,4096,1024,,"
		    "3,1553,96,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,"
		    "+++,,,,,,,1068us,4090us,885us,4814us,5439us,5308us\n",
		    &l, why) == 1);
	CHECK(l.num_files_k == 1 && l.params.num_files == 1024);
	CHECK(l.params.max_size == 4096 && l.params.min_size == 1024);
	CHECK(l.params.num_dirs == 3);
	CHECK(l.params.file_chunk == 0); /* lost by bonnie++ */
	CHECK(l.tests[CLYDE_SEQ_CREATE].latency_ns == 1068000ull);

	CHECK(parse("1.98,2.00a,vm,1,1795982355,,,,,,,,,,,,,,,,,1,link,,,,"
		    "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,"
		    "+++,,,,,,,211us,46us,232us,104us,5us,396us",
		    &l, why) == 1);
	CHECK(l.params.max_size == -1 && l.params.min_size == 0);
	CHECK(l.params.num_dirs == 1);
	CHECK(parse("1.98,2.00a,vm,1,1795996547,,,,,,,,,,,,,,,,,1,symlink,,,"
		    ",+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,"
		    "+++,,,,,,,823us,61us,232us,1169us,33us,39us",
		    &l, why) == 1);
	CHECK(l.params.max_size == -2);
	/* A 2.00a IO-only run: chunk empty, seeks and seekers kept. */
	CHECK(parse("1.98,2.00a,vm,1,1795996458,64M,,2,1000,1260,98,+++++,+++"
		    ",+++++,+++,2016,96,+++++,+++,+++++,+++,,,,,,,,,,,,,,,,,,"
		    "10545us,2618us,48us,7627us,56us,6us,,,,,,",
		    &l, why) == 1);
	CHECK(l.params.file_size_mib == 64 && l.params.io_chunk == 0);
	CHECK(l.params.seeks == 2 && l.params.seekers == 1000);
	CHECK(l.params.num_files == 0 && l.params.num_dirs == 0);
	CHECK(l.tests[CLYDE_SEQ_CREATE].state == CLYDE_CSV_EMPTY);
	CHECK(!l.tests[CLYDE_SEQ_CREATE].has_latency);
	CHECK(l.tests[CLYDE_SEEKS].latency_ns == 6000ull);
}

/* clyde's own layout, made by hand: every field where its name says. */
static void test_clyde_layout(void)
{
	struct clyde_csv_line l;
	char why[CLYDE_CSV_WHY_LEN];

	CHECK(parse("1.98,0.1.0,box,2,42,512M,4096,8192,5,487,95,284814,75,"
		    "563976,48,417,76,+++++,+++,517.6,3,4,65536,1024,3,2048,"
		    "7825,11,+++++,+++,+++++,+++,900,9,+++++,+++,+++++,+++,"
		    "43055us,12912us,9054us,76688us,8982us,84745us,392us,"
		    "4101us,521us,5358us,4164us,2s\r\n",
		    &l, why) == 1);
	CHECK(l.writer == CLYDE_CSV_BY_CLYDE);
	CHECK_STR(l.writer_version, "0.1.0");
	CHECK(l.params.concurrency == 2 && l.params.seed == 42);
	CHECK(l.params.io_chunk == 4096);
	CHECK(l.params.num_files == 4096 && l.params.max_size == 65536);
	CHECK(l.params.min_size == 1024);
	CHECK(l.params.num_dirs == 3 && l.params.file_chunk == 2048);
	CHECK(l.tests[CLYDE_SEEKS].rate == 517.6);
	CHECK(l.tests[CLYDE_RAN_CREATE].state == CLYDE_CSV_VALUE);
	CHECK(l.tests[CLYDE_RAN_DEL].latency_ns == 2000000000ull);

	/* num_dirs 1 (empty) and file_chunk filled: bonnie++'s rule would
	 * take 8192 for num_dirs; clyde's line must not. */
	CHECK(parse("1.98,0.1.0,box,1,7,,,,,,,,,,,,,,,,,16,,,,8192,"
		    "100,10,200,20,300,30,400,40,500,50,600,60,"
		    ",,,,,,1ms,2ms,3ms,4ms,5ms,6ms",
		    &l, why) == 1);
	CHECK(l.params.num_dirs == 1 && l.params.file_chunk == 8192);
	CHECK(l.tests[CLYDE_SEQ_DEL].latency_ns == 3000000ull);
	CHECK(NEAR(l.tests[CLYDE_RAN_DEL].cpu_pct, 60));
	/* The same line from bonnie++ 2.00a means 8192 directories. */
	CHECK(parse("1.98,2.00a,box,1,7,,,,,,,,,,,,,,,,,16,,,,8192,"
		    "100,10,200,20,300,30,400,40,500,50,600,60,"
		    ",,,,,,1ms,2ms,3ms,4ms,5ms,6ms",
		    &l, why) == 1);
	CHECK(l.params.num_dirs == 8192 && l.params.file_chunk == 0);
}

/* What clyde's writer (csv.c) writes reads back with the same values. */
static void test_round_trip(void)
{
	struct clyde_run run;
	struct clyde_csv_set set;
	struct clyde_ctx ctx;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	clyde_run_init(&run);
	snprintf(run.params.name, sizeof(run.params.name), "%s", "rt,box");
	run.params.concurrency = 2;
	run.params.seed = 1234567890123ull;
	run.params.file_size_mib = 512;
	run.params.io_chunk = 4096;
	run.params.seeks = 8192;
	run.params.seekers = 5;
	run.params.num_files = 2048;
	run.params.max_size = 4096;
	run.params.min_size = 1024;
	run.params.num_dirs = 3;
	run.params.file_chunk = 2048;
	run.tests[CLYDE_PUT_BLOCK] = (struct clyde_test_result){
		.state = CLYDE_DONE,
		.bytes = 1000 * 1024,
		.elapsed_ns = 1000000000,
		.cpu_user_ns = 500000000,
		.latency_max_ns = 1500000,
	};
	run.tests[CLYDE_SEEKS] = (struct clyde_test_result){
		.state = CLYDE_DONE,
		.ops = 5176,
		.elapsed_ns = 10000000000ull,
		.cpu_sys_ns = 1000000000,
		.latency_max_ns = 250000000,
	};
	run.tests[CLYDE_SEQ_CREATE] = (struct clyde_test_result){
		.state = CLYDE_DONE,
		.ops = 2048,
		.elapsed_ns = 100000000,
		.latency_max_ns = 7000,
	};

	f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(clyde_csv_header(f) == 0);
	CHECK(clyde_csv_write(f, &run, CLYDE_VERSION) == 0);
	fclose(f);

	f = fmemopen(buf, len, "r");
	clyde_ctx_init(&ctx);
	clyde_csv_set_init(&set);
	CHECK(clyde_csv_read_stream(&ctx, f, "mem", &set) == 0);
	fclose(f);
	CHECK(set.nlines == 1 && set.nerrors == 0);
	if (set.nlines == 1) {
		const struct clyde_csv_line *l = &set.lines[0];
		const struct clyde_run_params *p = &l->params;

		CHECK(l->lineno == 2);
		CHECK(l->writer == CLYDE_CSV_BY_CLYDE);
		CHECK_STR(l->writer_version, CLYDE_VERSION);
		CHECK_STR(p->name, "rt_box");
		CHECK(p->concurrency == 2 && p->seed == 1234567890123ull);
		CHECK(p->file_size_mib == 512 && p->io_chunk == 4096);
		CHECK(p->seeks == 8192 && p->seekers == 5);
		CHECK(l->num_files_k == 2 && p->num_files == 2048);
		CHECK(p->max_size == 4096 && p->min_size == 1024);
		CHECK(p->num_dirs == 3 && p->file_chunk == 2048);
		CHECK(l->tests[CLYDE_PUTC].state == CLYDE_CSV_EMPTY);
		CHECK(NEAR(l->tests[CLYDE_PUT_BLOCK].rate, 1000));
		CHECK(NEAR(l->tests[CLYDE_PUT_BLOCK].rate_per_s, 1024000));
		CHECK(NEAR(l->tests[CLYDE_PUT_BLOCK].cpu_pct, 50));
		CHECK(l->tests[CLYDE_PUT_BLOCK].latency_ns == 1500000);
		CHECK(l->tests[CLYDE_SEEKS].rate == 517.6);
		CHECK(NEAR(l->tests[CLYDE_SEEKS].cpu_pct, 10));
		CHECK(l->tests[CLYDE_SEEKS].latency_ns == 250000000);
		CHECK(l->tests[CLYDE_SEQ_CREATE].state == CLYDE_CSV_TOO_FAST);
		CHECK(l->tests[CLYDE_SEQ_CREATE].latency_ns == 7000);
		CHECK(l->tests[CLYDE_SEQ_STAT].state == CLYDE_CSV_EMPTY);
	}
	clyde_csv_set_release(&set);
	clyde_ctx_release(&ctx);
	free(buf);
	clyde_run_release(&run);
}

/* A valid 2.00a line to damage field by field. */
static const char good[] =
	"1.98,2.00a,vm,1,1795987758,512M,,8192,5,487,95,284814,75,563976,48,"
	"417,76,+++++,+++,+++++,+++,4,,,,,7825,11,+++++,+++,+++++,+++,+++++,"
	"+++,+++++,+++,+++++,+++,43055us,12912us,9054us,76688us,8982us,"
	"84745us,392us,4101us,521us,5358us,4164us,7469us";

/* good with field `idx` (0-based) replaced by `val`. */
static void with_field(char *out, size_t len, int idx, const char *val)
{
	const char *p = good;
	size_t o = 0;

	for (int i = 0; *p || i <= idx; i++) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (i)
			out[o++] = ',';
		if (i == idx)
			o += (size_t)snprintf(out + o, len - o, "%s", val);
		else
			o += (size_t)snprintf(out + o, len - o, "%.*s", (int)n,
					      p);
		if (!e)
			break;
		p = e + 1;
	}
	out[o] = '\0';
}

static void expect_bad(const char *line, size_t n, const char *want)
{
	struct clyde_csv_line l;
	char why[CLYDE_CSV_WHY_LEN];

	CHECK(clyde_csv_parse_line(line, n, &l, why, sizeof(why)) == -EINVAL);
	CHECK_STR(why, want);
}

static void expect_bad_s(const char *line, const char *want)
{
	expect_bad(line, strlen(line), want);
}

static void expect_field_bad(int idx, const char *val, const char *want)
{
	char line[1024];

	with_field(line, sizeof(line), idx, val);
	expect_bad(line, strlen(line), want);
}

static void test_malformed(void)
{
	struct clyde_csv_line l;
	char why[CLYDE_CSV_WHY_LEN];
	char line[1024];

	/* The damage helper itself keeps a good line good. */
	with_field(line, sizeof(line), 2, "vm");
	CHECK_STR(line, good);
	CHECK(parse(good, &l, why) == 1);

	expect_bad("1.98,2.00a,vm", 13,
		   "format 1.98 has 50 fields, this "
		   "line 3");
	expect_bad("hello world", 11,
		   "not a bonnie++ line: 1 field (27 in 1.03, 48 in 1.96, "
		   "50 in 1.98)");
	expect_bad("1.96,1.96,x,1,2,16G", 19,
		   "format 1.96 has 48 fields, this line 6");
	expect_field_bad(0, "2.01", "unknown format version \"2.01\"");
	expect_field_bad(9, "48x7",
			 "field 10 (putc): \"48x7\" is not a number");
	expect_field_bad(9, "-487",
			 "field 10 (putc): \"-487\" is not a number");
	expect_field_bad(9, "++", "field 10 (putc): \"++\" is not a number");
	expect_field_bad(10, "9.",
			 "field 11 (putc_cpu): \"9.\" is not a "
			 "number");
	expect_field_bad(5, "512Q",
			 "field 6 (file_size): unknown unit \"Q\" in \"512Q\"");
	expect_field_bad(38, "43055xs",
			 "field 39 (putc_latency): unknown unit \"xs\" in "
			 "\"43055xs\"");
	expect_field_bad(49, "7469",
			 "field 50 (ran_del_latency): \"7469\" has no unit");
	expect_field_bad(4, "99999999999999999999",
			 "field 5 (seed): \"99999999999999999999\" is too "
			 "large");
	expect_field_bad(3, "4294967296",
			 "field 4 (concurrency): \"4294967296\" is too large");
	expect_field_bad(22, "huge",
			 "field 23 (max_size): \"huge\" is not a number");
	/* bonnie++'s num_dirs column is file_chunk_size's. */
	expect_field_bad(25, "x3",
			 "field 26 (num_dirs): \"x3\" is not a "
			 "number");
	expect_bad("1.98,2.00a,v\0m", 14, "a NUL byte in the line");
	expect_bad("a\nb", 3, "a line break inside the line");
	/* A long cell is shown cut, and unprintable bytes as '?'. */
	expect_field_bad(9,
			 "1\x01"
			 "23456789012345678901234567890123456789"
			 "0123456789",
			 "field 10 (putc): \"1?234567890123456789012345678901"
			 "23456789\"... is not a number");

	/* 1.03 combined fields. */
	expect_bad_s("x,8G:4q,1,1,1,1,1,1,1,1,1,1,1.0,0,16,1,1,1,1,1,1,1,1,1,"
		     "1,1,1",
		     "field 2 (size): unknown unit \"q\" in \"4q\"");
	expect_bad_s("x,8G,1,1,1,1,1,1,1,1,1,1,1.0,0,16:a,1,1,1,1,1,1,1,1,1,"
		     "1,1,1",
		     "field 15 (files): \"a\" is not a number");
}

static void test_103_combined(void)
{
	struct clyde_csv_line l;
	char why[CLYDE_CSV_WHY_LEN];

	CHECK(parse("srv,300M:4k,1,2,3,4,5,6,7,8,9,10,11.5,12,"
		    "16:100000:16/64,1,2,3,4,5,6,7,8,9,10,11,12",
		    &l, why) == 1);
	CHECK(l.format == CLYDE_CSV_1_03);
	CHECK(l.params.file_size_mib == 300 && l.params.io_chunk == 4096);
	CHECK(l.num_files_k == 16 && l.params.num_files == 16384);
	CHECK(l.params.max_size == 100000 && l.params.min_size == 16);
	CHECK(l.params.num_dirs == 64);
	CHECK(NEAR(l.tests[CLYDE_SEEKS].rate, 11.5));
	CHECK(NEAR(l.tests[CLYDE_RAN_DEL].cpu_pct, 12));
	CHECK(parse("srv,1G,,,,,,,,,,,,,4:link/2,,,,,,,,,,,,", &l, why) == 1);
	CHECK(l.params.file_size_mib == 1024 && l.params.io_chunk == 0);
	CHECK(l.params.max_size == -1 && l.params.num_dirs == 2);
	CHECK(l.tests[CLYDE_PUTC].state == CLYDE_CSV_EMPTY);
	/* A machine called "1.98" in a 1.03 line is still a 1.03 line. */
	CHECK(parse("1.98,1G,,,,,,,,,,,,,4,,,,,,,,,,,,", &l, why) == 1);
	CHECK(l.format == CLYDE_CSV_1_03);
	CHECK_STR(l.params.name, "1.98");
}

static void test_skipped(void)
{
	struct clyde_csv_line l;
	char why[CLYDE_CSV_WHY_LEN];

	CHECK(parse("", &l, why) == 0);
	CHECK(parse("\r\n", &l, why) == 0);
	CHECK(parse("  \t", &l, why) == 0);
	CHECK(parse("format_version,bonnie_version,name,concurrency", &l,
		    why) == 0);
	CHECK(parse("name,file_size,putc,putc_cpu", &l, why) == 0);
	/* A line made of nothing but commas is no header. */
	CHECK(parse(",,,", &l, why) < 0);
	/* Long name: cut to 255 bytes, not inside a UTF-8 sequence. */
	{
		char line[1024], name[600];

		memset(name, 'a', 254);
		memcpy(name + 254, "\xc3\xa9tail", 7);
		with_field(line, sizeof(line), 2, name);
		CHECK(parse(line, &l, why) == 1);
		CHECK(strlen(l.params.name) == 254);
	}
}

/* A file of good, bad, header, blank, CRLF and unterminated lines. */
static void test_multi_line(void)
{
	char bad1[1024], text[8192];
	struct clyde_csv_set set;
	struct clyde_ctx ctx;
	FILE *f;
	int n;

	with_field(bad1, sizeof(bad1), 12, "7x5");
	n = snprintf(text, sizeof(text),
		     "\xef\xbb\xbf"
		     "format_version,bonnie_version,name,concurrency,seed\n"
		     "%s\n"
		     "%s\n"
		     "\n"
		     "%s\r\n"
		     "garbage\n"
		     "%s",
		     good, bad1, good, good);
	CHECK(n > 0 && (size_t)n < sizeof(text));
	clyde_ctx_init(&ctx);
	clyde_csv_set_init(&set);
	f = fmemopen(text, (size_t)n, "r");
	CHECK(clyde_csv_read_stream(&ctx, f, "runs.csv", &set) == 0);
	fclose(f);
	CHECK(set.nlines == 3);
	CHECK(set.nerrors == 2 && set.nmalformed == 2);
	if (set.nlines == 3) {
		CHECK(set.lines[0].lineno == 2);
		CHECK(set.lines[1].lineno == 5);
		CHECK(set.lines[2].lineno == 7);
		CHECK(set.lines[2].tests[CLYDE_RAN_DEL].latency_ns == 7469000);
	}
	if (set.nerrors == 2) {
		CHECK_STR(set.errors[0], "runs.csv:3: field 13 "
					 "(put_block_cpu): \"7x5\" is not a "
					 "number");
		CHECK_STR(set.errors[1],
			  "runs.csv:6: not a bonnie++ line: 1 field (27 in "
			  "1.03, 48 in 1.96, 50 in 1.98)");
	}
	clyde_csv_set_release(&set);
	clyde_ctx_release(&ctx);
}

/* A real file: an over-long line is reported and the next one read; a
 * missing file is an error of the call. */
static void test_file(void)
{
	char path[] = "/tmp/clyde-csv-read-XXXXXX";
	struct clyde_csv_set set;
	struct clyde_ctx ctx;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(f != NULL);
	if (!f)
		return;
	for (int i = 0; i < CLYDE_CSV_LINE_MAX + 10; i++)
		fputc('x', f);
	fprintf(f, "\n%s\n", good);
	for (int i = 0; i < CLYDE_CSV_MAX_ERRORS + 5; i++)
		fputs("1,2,3\n", f);
	fclose(f);

	clyde_ctx_init(&ctx);
	clyde_csv_set_init(&set);
	CHECK(clyde_csv_read_file(&ctx, path, &set) == 0);
	CHECK(set.nlines == 1 && set.lines[0].lineno == 2);
	CHECK(set.nerrors == CLYDE_CSV_MAX_ERRORS);
	CHECK(set.nmalformed == CLYDE_CSV_MAX_ERRORS + 6);
	if (set.nerrors) {
		char want[256];

		snprintf(want, sizeof(want),
			 "%s:1: line longer than 65536 bytes, not read", path);
		CHECK_STR(set.errors[0], want);
	}
	unlink(path);

	/* Reading appends; a missing file says so and keeps what was read. */
	CHECK(clyde_csv_read_file(&ctx, path, &set) == -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), path) != NULL);
	CHECK(set.nlines == 1);
	clyde_csv_set_release(&set);
	clyde_ctx_release(&ctx);
}

int main(int argc, char **argv)
{
	char buf[4096];
	const char *dir = dir_of_fixtures(argc, argv, buf, sizeof(buf));
	struct stat sb;

	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		struct clyde_ctx ctx;

		clyde_ctx_init(&ctx);
		test_fixture_103(&ctx, dir);
		test_fixture_196(&ctx, dir);
		test_fixture_198(&ctx, dir);
		clyde_ctx_release(&ctx);
	} else {
		fprintf(stderr, "no fixtures at %s\n", dir);
		CHECK(!"the fixture directory exists");
	}
	test_bonnie_shift();
	test_clyde_layout();
	test_round_trip();
	test_malformed();
	test_103_combined();
	test_skipped();
	test_multi_line();
	test_file();
	return tap_done();
}
