/*
 * The 1.98 CSV line: 50 names, 50 fields, values in their named columns,
 * empty groups for tests that did not run, a name that cannot break the
 * line; and bonnie++'s own bon_csv2txt reading what we wrote.
 */
#include "results/format.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

#define SEC 1000000000ull

/* The fixture lines of bonnie++ 2.00a (tests/fixtures/bonnie-1.98.csv), with what
 * bonnie++ lost filled in: io_chunk_size (field 6) and file_chunk_size
 * (field 25). */
static const char want_4g[] =
	"1.98,2.00a,vm,1,1795987641,4G,8192,8192,5,438,75,397633,75,771032,"
	"62,548,91,3029445,99,5113,33,16,,,,8192,16216,98,+++++,+++,+++++,"
	"+++,+++++,+++,+++++,+++,+++++,+++,58586us,30313us,11853us,46469us,"
	"4155us,8163us,1378us,283us,4146us,4064us,5410us,4200us\n";
static const char want_files[] =
	"1.98,2.00a,vm,1,1795986228,,,,,,,,,,,,,,,,,128,,,,8192,43369,95,"
	"+++++,+++,101295,84,14147,96,+++++,+++,86911,87,,,,,,,6196us,1796us,"
	"4510us,11694us,146us,2939us\n";

static void done(struct clyde_run *run, enum clyde_test id, uint64_t amount,
		 uint64_t elapsed_ns, unsigned cpu_pct, uint64_t lat_us)
{
	struct clyde_test_result *t = &run->tests[id];

	t->state = CLYDE_DONE;
	if (clyde_test_is_io(id))
		t->bytes = amount;
	else
		t->ops = amount;
	t->elapsed_ns = elapsed_ns;
	t->cpu_user_ns =
		(uint64_t)((double)elapsed_ns * (cpu_pct + 0.5) / 100.0);
	t->latency_max_ns = lat_us * 1000 + 999;
}

static void fast(struct clyde_run *run, enum clyde_test id, uint64_t lat_us)
{
	done(run, id, 1, SEC / 10, 0, lat_us);
}

static void defaults(struct clyde_run *run, const char *name, uint64_t seed)
{
	clyde_run_init(run);
	snprintf(run->params.name, sizeof(run->params.name), "%s", name);
	run->params.concurrency = 1;
	run->params.seed = seed;
	run->params.io_chunk = CLYDE_DEFAULT_IO_CHUNK;
	run->params.seeks = CLYDE_DEFAULT_SEEKS;
	run->params.seekers = CLYDE_DEFAULT_SEEKERS;
	run->params.num_dirs = 1;
	run->params.file_chunk = CLYDE_DEFAULT_FILE_CHUNK;
}

/* The 4G run of the fixture, rebuilt. */
static void run_4g(struct clyde_run *r)
{
	defaults(r, "vm", 1795987641);
	r->params.file_size_mib = 4096;
	r->params.num_files = 16 * 1024;
	done(r, CLYDE_PUTC, 438ull * 1024 * 7 + 10, 7 * SEC, 75, 58586);
	done(r, CLYDE_PUT_BLOCK, 397633ull * 1024 * 10 + 10, 10 * SEC, 75,
	     30313);
	done(r, CLYDE_REWRITE, 771032ull * 1024 * 5 + 10, 5 * SEC, 62, 11853);
	done(r, CLYDE_GETC, 548ull * 1024 * 6 + 10, 6 * SEC, 91, 46469);
	done(r, CLYDE_GET_BLOCK, 3029445ull * 1024 + 10, SEC, 99, 4155);
	done(r, CLYDE_SEEKS, 8192, 8192 * SEC / 5113 - 1000, 33, 8163);
	done(r, CLYDE_SEQ_CREATE, 16384, 16384 * SEC / 16216 - 1000, 98, 1378);
	fast(r, CLYDE_SEQ_STAT, 283);
	fast(r, CLYDE_SEQ_DEL, 4146);
	fast(r, CLYDE_RAN_CREATE, 4064);
	fast(r, CLYDE_RAN_STAT, 5410);
	fast(r, CLYDE_RAN_DEL, 4200);
}

static char *csv_of(const struct clyde_run *run)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc;

	if (!f)
		return NULL;
	rc = clyde_csv_write(f, run, "2.00a");
	fclose(f);
	CHECK(rc == 0);
	return out;
}

/* Split a line (without its newline) at commas into at most max fields
 * (pointers into a copy the caller frees); returns the field count. */
static int split(const char *line, char **copy, char **field, int max)
{
	char *s = strdup(line), *p;
	int n = 0;

	*copy = s;
	if (!s)
		return -1;
	p = strchr(s, '\n');
	if (p)
		*p = '\0';
	for (p = s;; p++) {
		if (n < max)
			field[n] = p;
		n++;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
	}
	return n;
}

static void test_header(void)
{
	char *out = NULL, *copy, *f[64];
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	int n;

	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(clyde_csv_header(m) == 0);
	fclose(m);
	CHECK(len > 0 && out[len - 1] == '\n');
	n = split(out, &copy, f, 64);
	CHECK(n == CLYDE_CSV_FIELDS);
	if (n == CLYDE_CSV_FIELDS) {
		CHECK_STR(f[0], "format_version");
		CHECK_STR(f[5], "file_size");
		CHECK_STR(f[6], "io_chunk_size");
		CHECK_STR(f[7], "seeks");
		CHECK_STR(f[8], "seek_proc_count");
		CHECK_STR(f[9], "putc");
		CHECK_STR(f[19], "seeks");
		CHECK_STR(f[20], "seeks_cpu");
		CHECK_STR(f[21], "num_files");
		CHECK_STR(f[24], "num_dirs");
		CHECK_STR(f[25], "file_chunk_size");
		CHECK_STR(f[26], "seq_create");
		CHECK_STR(f[37], "ran_del_cpu");
		CHECK_STR(f[38], "putc_latency");
		CHECK_STR(f[49], "ran_del_latency");
	}
	free(copy);
	free(out);
}

static void test_full_line(void)
{
	struct clyde_run r;
	char *out, *copy, *f[64];
	int n;

	run_4g(&r);
	out = csv_of(&r);
	CHECK_STR(out, want_4g);
	n = split(out, &copy, f, 64);
	CHECK(n == CLYDE_CSV_FIELDS);
	if (n == CLYDE_CSV_FIELDS) {
		CHECK_STR(f[2], "vm");
		CHECK_STR(f[5], "4G");
		CHECK_STR(f[6], "8192");
		CHECK_STR(f[11], "397633");
		CHECK_STR(f[17], "3029445");
		CHECK_STR(f[19], "5113");
		CHECK_STR(f[21], "16");
		CHECK_STR(f[25], "8192");
		CHECK_STR(f[26], "16216");
		CHECK_STR(f[28], "+++++");
		CHECK_STR(f[29], "+++");
		CHECK_STR(f[38], "58586us");
		CHECK_STR(f[49], "4200us");
	}
	free(copy);
	free(out);

	/* non-default everything lands in its own column */
	run_4g(&r);
	r.params.file_size_mib = 512;
	r.params.io_chunk = 4096;
	r.params.concurrency = 3;
	r.params.seeks = 1000;
	r.params.seekers = 7;
	r.params.num_files = 2048;
	r.params.max_size = 4096;
	r.params.min_size = 1024;
	r.params.num_dirs = 5;
	r.params.file_chunk = 512;
	r.params.seed = 18446744073709551615ull;
	done(&r, CLYDE_SEEKS, 1000, 1000 * SEC / 517 - 1000, 30, 1);
	r.tests[CLYDE_GETC].state = CLYDE_SKIPPED;
	r.tests[CLYDE_GETC].note = "why";
	out = csv_of(&r);
	n = split(out, &copy, f, 64);
	CHECK(n == CLYDE_CSV_FIELDS);
	if (n == CLYDE_CSV_FIELDS) {
		CHECK_STR(f[3], "3");
		CHECK_STR(f[4], "18446744073709551615");
		CHECK_STR(f[5], "512M");
		CHECK_STR(f[6], "4096");
		CHECK_STR(f[7], "1000");
		CHECK_STR(f[8], "7");
		CHECK_STR(f[15], "");
		CHECK_STR(f[16], "");
		CHECK_STR(f[19], "517.0");
		CHECK_STR(f[21], "2");
		CHECK_STR(f[22], "4096");
		CHECK_STR(f[23], "1024");
		CHECK_STR(f[24], "5");
		CHECK_STR(f[25], "512");
		CHECK_STR(f[41], "");
	}
	free(copy);
	free(out);

	/* links: the word in max_size, min_size empty */
	r.params.max_size = -2;
	r.params.min_size = 7;
	r.params.num_dirs = 1;
	out = csv_of(&r);
	n = split(out, &copy, f, 64);
	CHECK(n == CLYDE_CSV_FIELDS);
	if (n == CLYDE_CSV_FIELDS) {
		CHECK_STR(f[22], "symlink");
		CHECK_STR(f[23], "");
		CHECK_STR(f[24], "");
	}
	free(copy);
	free(out);
	r.params.max_size = -1;
	out = csv_of(&r);
	n = split(out, &copy, f, 64);
	CHECK(n == CLYDE_CSV_FIELDS && strcmp(f[22], "link") == 0);
	free(copy);
	free(out);
}

static void test_partial(void)
{
	struct clyde_run r;
	char *out, *copy, *f[64];
	int n;

	/* files only: the fixture's -s 0 -n 128 line */
	defaults(&r, "vm", 1795986228);
	r.params.num_files = 128 * 1024;
	done(&r, CLYDE_SEQ_CREATE, 131072, 3022200000ull, 95, 6196);
	fast(&r, CLYDE_SEQ_STAT, 1796);
	done(&r, CLYDE_SEQ_DEL, 131072, 131072 * SEC / 101295 - 100, 84, 4510);
	done(&r, CLYDE_RAN_CREATE, 131072, 131072 * SEC / 14147 - 100, 96,
	     11694);
	fast(&r, CLYDE_RAN_STAT, 146);
	done(&r, CLYDE_RAN_DEL, 131072, 131072 * SEC / 86911 - 100, 87, 2939);
	out = csv_of(&r);
	CHECK_STR(out, want_files);
	free(out);

	/* IO only: every file field empty, and the file latencies */
	run_4g(&r);
	for (int i = CLYDE_FIRST_FILE_TEST; i < CLYDE_TEST_COUNT; i++)
		r.tests[i].state = CLYDE_NOT_RUN;
	r.tests[CLYDE_PUTC].state = CLYDE_NOT_RUN;
	out = csv_of(&r);
	n = split(out, &copy, f, 64);
	CHECK(n == CLYDE_CSV_FIELDS);
	if (n == CLYDE_CSV_FIELDS) {
		CHECK_STR(f[5], "4G");
		CHECK_STR(f[9], "");
		CHECK_STR(f[10], "");
		CHECK_STR(f[11], "397633");
		for (int i = 21; i <= 37; i++)
			CHECK_STR(f[i], "");
		CHECK_STR(f[38], "");
		CHECK_STR(f[39], "30313us");
		for (int i = 44; i <= 49; i++)
			CHECK_STR(f[i], "");
	}
	free(copy);
	free(out);

	/* nothing at all still makes 50 fields */
	defaults(&r, "vm", 1);
	out = csv_of(&r);
	{
		char want[128] = "1.98,2.00a,vm,1,1";

		for (int i = 5; i < CLYDE_CSV_FIELDS; i++)
			strcat(want, ",");
		strcat(want, "\n");
		CHECK_STR(out, want);
	}
	free(out);
}

static void test_name(void)
{
	struct clyde_run r;
	char *out, *copy, *f[64];
	int n;

	run_4g(&r);
	snprintf(r.params.name, sizeof(r.params.name), "%s",
		 "rack 3,\"node\"\r\n7");
	out = csv_of(&r);
	n = split(out, &copy, f, 64);
	CHECK(n == CLYDE_CSV_FIELDS);
	CHECK(n == CLYDE_CSV_FIELDS && strcmp(f[2], "rack 3_\"node\"__7") == 0);
	CHECK(out && strchr(out, '\n') == out + strlen(out) - 1);
	free(copy);
	free(out);

	/* a name filling its whole array, without a NUL */
	memset(r.params.name, 'x', sizeof(r.params.name));
	out = csv_of(&r);
	n = split(out, &copy, f, 64);
	CHECK(n == CLYDE_CSV_FIELDS && strlen(f[2]) == sizeof(r.params.name));
	free(copy);
	free(out);
}

/* bonnie++'s own reader must show the same numbers. */
static void test_bon_csv2txt(void)
{
	const char *tool = "/usr/bin/bon_csv2txt";
	char path[] = "/tmp/clyde-test-csv-XXXXXX";
	char cmd[256], text[8192];
	struct clyde_run r;
	size_t got;
	FILE *in, *p;
	int fd;

	if (access(tool, X_OK) != 0) {
		/* A part of this test, not its subject: fail, not pass. */
		CHECK(!"bon_csv2txt is installed (package bonnie++)");
		return;
	}
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	in = fdopen(fd, "w");
	run_4g(&r);
	r.params.num_dirs = 3;
	r.params.max_size = 4096;
	r.params.min_size = 512;
	CHECK(in && clyde_csv_write(in, &r, "0.1.0") == 0);
	if (in)
		fclose(in);
	snprintf(cmd, sizeof(cmd), "%s < %s", tool, path);
	p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p) {
		unlink(path);
		return;
	}
	got = fread(text, 1, sizeof(text) - 1, p);
	text[got] = '\0';
	CHECK(pclose(p) == 0);
	unlink(path);

	CHECK(strstr(text, " 438k  75  388m  75  753m  62  548k  91  2.9g  99"
			   "  5113  33") != NULL);
	/* the file fields sit where bon_csv2txt looks for them */
	CHECK(strstr(text, "16:4096:512/3") != NULL);
	CHECK(strstr(text, "16216  98 +++++ +++") != NULL);
	CHECK(strstr(text, "58586us") != NULL);
	CHECK(strstr(text, "4200us") != NULL);
	if (tap_fail)
		fprintf(stderr, "bon_csv2txt printed:\n%s", text);
}

int main(void)
{
	test_header();
	test_full_line();
	test_partial();
	test_name();
	test_bon_csv2txt();
	return tap_done();
}
