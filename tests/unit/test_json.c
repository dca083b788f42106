/*
 * clyde's JSON result: it parses (python3's json module is the judge),
 * every parameter and test is there with raw integers, and hostile names
 * are escaped.
 */
#include "results/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define SEC 1000000000ull

/* Quote, backslash, newline, tab, DEL, an invalid byte, e-acute, U+2028. */
static const char hostile[] = "a\"b\\c\nd\te\x7f"
			      "f\xff"
			      "g\xc3\xa9h"
			      "\xe2\x80\xa8"
			      "i\x01";

static void build(struct clyde_run *r)
{
	struct clyde_test_result *t;

	clyde_run_init(r);
	snprintf(r->params.name, sizeof(r->params.name), "%s", hostile);
	r->params.concurrency = 2;
	r->params.seed = 18446744073709551615ull;
	r->params.file_size_mib = 512;
	r->params.io_chunk = 4096;
	r->params.seeks = 8192;
	r->params.seekers = 5;
	r->params.num_files = 16384;
	r->params.max_size = -2;
	r->params.min_size = 0;
	r->params.num_dirs = 3;
	r->params.file_chunk = 8192;
	r->params.direct = true;
	r->params.fsync_each = false;

	t = &r->tests[CLYDE_PUT_BLOCK];
	t->state = CLYDE_DONE;
	CHECK(clyde_test_alloc_spans(t, 2) == 0);
	t->spans[0] = (struct clyde_span){ .start_ns = 1000,
					   .end_ns = 2 * SEC + 1000,
					   .bytes = 536870912,
					   .ops = 131072,
					   .cpu_user_ns = 1234,
					   .cpu_sys_ns = 5678,
					   .latency_max_ns = 30313000 };
	t->spans[1] = (struct clyde_span){ .start_ns = 2000,
					   .end_ns = 2 * SEC + 2000,
					   .bytes = 536870912,
					   .ops = 131072,
					   .latency_max_ns = 20000 };
	clyde_test_sum_spans(t);
	t->cpu_user_ns = SEC;
	t->cpu_sys_ns = SEC / 2;

	t = &r->tests[CLYDE_SEEKS];
	t->state = CLYDE_DONE;
	t->ops = 8192;
	t->elapsed_ns = SEC / 10;

	t = &r->tests[CLYDE_GETC];
	t->state = CLYDE_SKIPPED;
	t->note = "per-char \"tests\" off";
}

static char *json_of(const struct clyde_run *run)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc;

	if (!f)
		return NULL;
	rc = clyde_json_write(f, run, "0.1.0");
	fclose(f);
	CHECK(rc == 0);
	return out;
}

/* Feed text to python3 running `script`; true when it exited 0. */
static bool python_ok(const char *text, const char *script, bool quiet)
{
	char cmd[8192];
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "python3 -c '%s'%s", script,
		 quiet ? " 2>/dev/null" : "");
	p = popen(cmd, "w");
	if (!p)
		return false;
	fputs(text, p);
	st = pclose(p);
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void test_parse(void)
{
	struct clyde_run r;
	char *out;
	int bad;

	build(&r);
	out = json_of(&r);
	CHECK(out != NULL);
	if (!out)
		return;

	/* string checks that need no parser */
	CHECK(strstr(out, "\"clyde_version\": \"0.1.0\"") != NULL);
	CHECK(strstr(out, "\"name\": \"a\\\"b\\\\c\\nd\\te\\u007ff\\ufffdg"
			  "\xc3\xa9h\\u2028i\\u0001\"") != NULL);
	CHECK(strstr(out, "\"seed\": 18446744073709551615") != NULL);
	CHECK(strstr(out, "\"max_size\": -2") != NULL);
	CHECK(strstr(out, "\"direct\": true") != NULL);
	CHECK(strstr(out, "\"fsync_each\": false") != NULL);
	CHECK(strstr(out, "\"name\": \"put_block\"") != NULL);
	CHECK(strstr(out, "\"state\": \"skipped\"") != NULL);
	CHECK(strstr(out, "\"note\": \"per-char \\\"tests\\\" off\"") != NULL);
	CHECK(strstr(out, "\"note\": null") != NULL);
	CHECK(strstr(out, "\"bytes\": 1073741824") != NULL);
	CHECK(strstr(out, "\"elapsed_ns\": 2000001000") != NULL);
	CHECK(strstr(out, "\"latency_max_ns\": 30313000") != NULL);
	CHECK(strstr(out, "\"too_fast\": true") != NULL);
	CHECK(strstr(out, "\"workers\": []") != NULL);
	CHECK(strstr(out, "\"rate_per_s\": 81920.000") != NULL);
	CHECK(out[strlen(out) - 1] == '\n');
	/* nothing but printable ASCII, newlines and valid UTF-8 (the é) */
	bad = 0;
	for (const char *c = out; *c; c++)
		if (!((*c >= 0x20 && *c < 0x7f) || *c == '\n' ||
		      (unsigned char)*c == 0xc3 || (unsigned char)*c == 0xa9))
			bad++;
	CHECK(bad == 0);

	if (system("command -v python3 >/dev/null 2>&1") != 0) {
		printf("# python3 not installed: skipping the parse check\n");
		free(out);
		clyde_run_release(&r);
		return;
	}
	CHECK(python_ok(out, "import json,sys; json.load(sys.stdin)", false));
	CHECK(python_ok(
		out,
		"import json,sys\n"
		"d = json.load(sys.stdin)\n"
		"p = d[\"params\"]\n"
		"assert d[\"clyde_version\"] == \"0.1.0\"\n"
		"assert p[\"name\"] == \"a\\\"b\\\\c\\nd\\te\\x7ff\\ufffdg"
		"\\u00e9h\\u2028i\\x01\", repr(p[\"name\"])\n"
		"assert p[\"seed\"] == 18446744073709551615\n"
		"assert p[\"concurrency\"] == 2 and p[\"io_chunk\"] == 4096\n"
		"assert p[\"num_files\"] == 16384 and p[\"num_dirs\"] == 3\n"
		"assert p[\"max_size\"] == -2 and p[\"min_size\"] == 0\n"
		"assert p[\"direct\"] is True and p[\"fsync_each\"] is False\n"
		"assert set(p) == {\"name\", \"concurrency\", \"seed\",\n"
		"  \"file_size_mib\", \"io_chunk\", \"seeks\", \"seekers\",\n"
		"  \"num_files\", \"max_size\", \"min_size\", \"num_dirs\",\n"
		"  \"file_chunk\", \"direct\", \"fsync_each\"}\n"
		"t = d[\"tests\"]\n"
		"names = [x[\"name\"] for x in t]\n"
		"assert names == [\"putc\", \"put_block\", \"rewrite\", \"getc\",\n"
		"  \"get_block\", \"seeks\", \"seq_create\", \"seq_stat\",\n"
		"  \"seq_del\", \"ran_create\", \"ran_stat\", \"ran_del\"], names\n"
		"assert t[0][\"state\"] == \"not_run\" and t[0][\"note\"] is None\n"
		"b = t[1]\n"
		"assert b[\"state\"] == \"done\" and b[\"too_fast\"] is False\n"
		"assert b[\"bytes\"] == 1073741824 and b[\"ops\"] == 262144\n"
		"assert b[\"elapsed_ns\"] == 2000001000\n"
		"assert b[\"cpu_user_ns\"] == 10**9 and b[\"cpu_sys_ns\"] == 5*10**8\n"
		"assert abs(b[\"rate_per_s\"] - 1073741824 / 2.000001) < 0.01\n"
		"assert abs(b[\"cpu_pct\"] - 75.0) < 0.01\n"
		"w = b[\"workers\"]\n"
		"assert [x[\"index\"] for x in w] == [0, 1]\n"
		"assert w[0][\"start_ns\"] == 1000 and w[1][\"end_ns\"] == 2000002000\n"
		"assert w[0][\"cpu_user_ns\"] == 1234 and w[0][\"cpu_sys_ns\"] == 5678\n"
		"assert w[0][\"latency_max_ns\"] == 30313000\n"
		"assert set(w[0]) == {\"index\", \"start_ns\", \"end_ns\", \"bytes\",\n"
		"  \"ops\", \"cpu_user_ns\", \"cpu_sys_ns\", \"latency_max_ns\"}\n"
		"assert t[3][\"state\"] == \"skipped\"\n"
		"assert t[3][\"note\"] == \"per-char \\\"tests\\\" off\"\n"
		"assert t[5][\"too_fast\"] is True and t[5][\"ops\"] == 8192\n"
		"assert isinstance(t[5][\"ops\"], int)\n"
		"assert all(x[\"workers\"] == [] for x in t if x is not b)\n",
		false));

	/* a broken document must fail the same check (the judge works) */
	CHECK(!python_ok("{\"a\": 1,}", "import json,sys; json.load(sys.stdin)",
			 true));
	free(out);
	clyde_run_release(&r);
}

static void test_write_error(void)
{
	struct clyde_run r;
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		printf("# no /dev/full: skipping the write-error check\n");
		return;
	}
	build(&r);
	CHECK(clyde_json_write(f, &r, "0.1.0") == -ENOSPC);
	clearerr(f);
	CHECK(clyde_csv_write(f, &r, "0.1.0") == -ENOSPC);
	clearerr(f);
	CHECK(clyde_text_write(f, &r, "0.1.0") == -ENOSPC);
	fclose(f);
	clyde_run_release(&r);
}

int main(void)
{
	test_parse();
	test_write_error();
	return tap_done();
}
