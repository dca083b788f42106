/* The JSON parser: grammar, escapes, numbers, limits, errors with lines,
 * the access helpers and the clyde-result envelope check. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/json_read.h"
#include "results/result_check.h"
#include "tap.h"

/* Parse a NUL-terminated text; returns the parser's result. */
static int parse(const char *s, struct clyde_json *v,
		 struct clyde_json_error *e)
{
	return clyde_json_parse(s, strlen(s), NULL, v, e);
}

/* Parse and free; true when the text is accepted. */
static bool accepts(const char *s)
{
	struct clyde_json v;
	struct clyde_json_error e;
	int rc = parse(s, &v, &e);

	clyde_json_free(&v);
	return rc == 0;
}

/* The reason a text is rejected ("" when it is accepted). */
static const char *why(const char *s, unsigned long *line)
{
	static struct clyde_json_error e;
	struct clyde_json v;

	memset(&e, 0, sizeof(e));
	if (parse(s, &v, &e) == 0) {
		clyde_json_free(&v);
		return "";
	}
	if (line)
		*line = e.line;
	return e.why;
}

static void test_structure(void)
{
	struct clyde_json v;
	struct clyde_json_error e;
	const struct clyde_json *a, *o;

	CHECK(parse(" {\"a\": [1, {\"b\": null}, true, false, \"x\"],\n"
		    "  \"c\": {}, \"d\": [], \"a\": 2} ",
		    &v, &e) == 0);
	CHECK(v.type == CLYDE_JSON_OBJECT);
	CHECK(v.n == 4);
	a = clyde_json_get(&v, "a");
	CHECK(a && a->type == CLYDE_JSON_ARRAY && a->n == 5);
	/* A duplicate key: the first wins. */
	CHECK(a == &v.items[0]);
	CHECK(clyde_json_at(a, 0)->type == CLYDE_JSON_NUMBER);
	o = clyde_json_at(a, 1);
	CHECK(o && o->type == CLYDE_JSON_OBJECT);
	CHECK(clyde_json_get(o, "b")->type == CLYDE_JSON_NULL);
	CHECK(clyde_json_at(a, 2)->type == CLYDE_JSON_TRUE);
	CHECK(clyde_json_at(a, 3)->type == CLYDE_JSON_FALSE);
	CHECK_STR(clyde_json_str(clyde_json_at(a, 4)), "x");
	CHECK(clyde_json_at(a, 5) == NULL);
	CHECK(clyde_json_get(&v, "c")->n == 0);
	CHECK(clyde_json_get(&v, "d")->type == CLYDE_JSON_ARRAY);
	CHECK(clyde_json_get(&v, "c")->line == 2);
	CHECK(clyde_json_get(&v, "zz") == NULL);
	CHECK(clyde_json_get(a, "a") == NULL); /* not an object */
	CHECK(clyde_json_get(NULL, "a") == NULL);
	clyde_json_free(&v);
	CHECK(v.type == CLYDE_JSON_NULL && v.items == NULL);
	clyde_json_free(&v); /* twice is harmless */

	/* Scalars at the top level, a byte-order mark. */
	CHECK(parse("\xef\xbb\xbf 42 ", &v, &e) == 0);
	CHECK(v.type == CLYDE_JSON_NUMBER && v.is_int && v.inum == 42);
	clyde_json_free(&v);
	CHECK(accepts("\"\""));
	CHECK(accepts("null"));
	CHECK(accepts("[[[[]]]]"));

	/* Grammar errors, each with its reason. */
	CHECK(!accepts(""));
	CHECK(!accepts("   \n "));
	CHECK(!accepts("[1,]"));
	CHECK(!accepts("{\"a\":1,}"));
	CHECK(!accepts("{\"a\" 1}"));
	CHECK(!accepts("{a:1}"));
	CHECK(!accepts("[1 2]"));
	CHECK(!accepts("[1] [2]"));
	CHECK(!accepts("// c\n1"));
	CHECK(!accepts("tru"));
	CHECK(!accepts("nulll"));
	CHECK(!accepts("NaN"));
	CHECK(!accepts("Infinity"));
	CHECK(!accepts("[\"a\""));
	CHECK(!accepts("{\"a\":"));
	CHECK(!accepts("'a'"));
	CHECK_STR(why("[1,\n2,\n]", NULL), "expected a value, found ']'");
	{
		unsigned long line = 0;

		CHECK_STR(why("{\"a\": 1,\n \"b\": 2\n \"c\": 3}", &line),
			  "expected ',' or '}' in object, found '\"'");
		CHECK(line == 3);
		CHECK_STR(why("[1] x", &line),
			  "unexpected 'x' after the value");
		CHECK(line == 1);
	}
	CHECK_STR(why("", NULL), "expected a value, found end of input");
	CHECK_STR(why("[\x01]", NULL), "expected a value, found byte 0x01");
}

static void test_strings(void)
{
	struct clyde_json v;
	struct clyde_json_error e;

	CHECK(parse("\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"", &v, &e) == 0);
	CHECK_STR(v.str, "a\"b\\c/d\be\ff\ng\rh\ti");
	CHECK(v.n == strlen("a\"b\\c/d\be\ff\ng\rh\ti"));
	clyde_json_free(&v);

	/* \u escapes: one, two and three UTF-8 bytes, and a surrogate pair
	 * (U+1F600) becoming four. */
	CHECK(parse("\"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"", &v, &e) == 0);
	CHECK_STR(v.str, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	clyde_json_free(&v);

	/* \u0000: kept, the length tells. */
	CHECK(parse("\"a\\u0000b\"", &v, &e) == 0);
	CHECK(v.n == 3 && v.str[1] == '\0' && v.str[2] == 'b');
	clyde_json_free(&v);

	/* Raw UTF-8 passes through. */
	CHECK(parse("\"gr\xc3\xbc\xc3\x9f \xf0\x9f\x98\x80\"", &v, &e) == 0);
	CHECK_STR(v.str, "gr\xc3\xbc\xc3\x9f \xf0\x9f\x98\x80");
	clyde_json_free(&v);

	/* Keys are unescaped too. */
	CHECK(parse("{\"k\\u00e9y\": 1}", &v, &e) == 0);
	CHECK(clyde_json_get(&v, "k\xc3\xa9y") != NULL);
	clyde_json_free(&v);

	CHECK_STR(why("\"\\ud800\"", NULL),
		  "high surrogate \\ud800 not followed by a low one");
	CHECK_STR(why("\"\\ud800\\u0041\"", NULL),
		  "high surrogate \\ud800 not followed by a low one");
	CHECK_STR(why("\"\\udc00\"", NULL), "lone low surrogate \\udc00");
	CHECK_STR(why("\"\\u12\"", NULL),
		  "invalid \\u escape (needs four hex digits)");
	CHECK_STR(why("\"\\u12G4\"", NULL),
		  "invalid \\u escape (needs four hex digits)");
	CHECK_STR(why("\"\\x\"", NULL), "invalid escape '\\x' in a string");
	CHECK_STR(why("\"a\nb\"", NULL),
		  "control character 0x0a in a string (must be escaped)");
	CHECK_STR(why("\"abc", NULL), "unterminated string");
	CHECK_STR(why("\"abc\\", NULL), "unterminated string");
	/* Invalid UTF-8: a lone continuation byte, an overlong '/', an
	 * encoded surrogate, a cut sequence, a code point past U+10FFFF. */
	CHECK_STR(why("\"\x80\"", NULL), "invalid UTF-8 in a string");
	CHECK_STR(why("\"\xc0\xaf\"", NULL), "invalid UTF-8 in a string");
	CHECK_STR(why("\"\xed\xa0\x80\"", NULL), "invalid UTF-8 in a string");
	CHECK_STR(why("\"\xe2\x82\"", NULL), "invalid UTF-8 in a string");
	CHECK_STR(why("\"\xf4\x90\x80\x80\"", NULL),
		  "invalid UTF-8 in a string");
}

static void test_numbers(void)
{
	struct clyde_json v;
	struct clyde_json_error e;
	uint64_t u;
	double d;

	CHECK(parse("[0, -0, 1e3, 1E+3, -1.5e-3, 2.5, 123456789012345678,"
		    " 9223372036854775807, -9223372036854775808,"
		    " 9223372036854775808, 1e-400, 0.1e1]",
		    &v, &e) == 0);
	CHECK(v.items[0].is_int && v.items[0].inum == 0);
	CHECK(v.items[1].is_int && v.items[1].inum == 0);
	CHECK(!v.items[2].is_int && v.items[2].num == 1000.0);
	CHECK(v.items[3].num == 1000.0);
	CHECK(v.items[4].num == -0.0015);
	CHECK(v.items[5].num == 2.5 && !v.items[5].is_int);
	CHECK(v.items[6].is_int && v.items[6].inum == 123456789012345678LL);
	CHECK(v.items[7].is_int && v.items[7].inum == INT64_MAX);
	CHECK(v.items[8].is_int && v.items[8].inum == INT64_MIN);
	/* Past int64_t: only the double. */
	CHECK(!v.items[9].is_int && v.items[9].num == 9223372036854775808.0);
	CHECK(v.items[10].num == 0.0); /* underflow is fine */
	CHECK(v.items[11].num == 1.0);

	CHECK(clyde_json_u64(&v.items[6], &u) && u == 123456789012345678ULL);
	CHECK(clyde_json_u64(&v.items[2], &u) && u == 1000); /* 1e3 */
	CHECK(clyde_json_u64(&v.items[9], &u) && u == 9223372036854775808ULL);
	CHECK(!clyde_json_u64(&v.items[4], &u)); /* negative, fraction */
	CHECK(!clyde_json_u64(&v.items[5], &u)); /* fraction */
	CHECK(!clyde_json_u64(&v.items[8], &u)); /* negative */
	CHECK(clyde_json_double(&v.items[5], &d) && d == 2.5);
	clyde_json_free(&v);

	CHECK(parse("[\"1\", true]", &v, &e) == 0);
	CHECK(!clyde_json_u64(&v.items[0], &u));
	CHECK(!clyde_json_double(&v.items[0], &d));
	{
		bool b = false;

		CHECK(clyde_json_bool(&v.items[1], &b) && b);
		CHECK(!clyde_json_bool(&v.items[0], &b));
	}
	clyde_json_free(&v);

	CHECK_STR(why("01", NULL), "invalid number (leading zero)");
	CHECK_STR(why("-01", NULL), "invalid number (leading zero)");
	CHECK_STR(why("1.", NULL), "invalid number (no digit after '.')");
	CHECK_STR(why("1.e5", NULL), "invalid number (no digit after '.')");
	CHECK_STR(why("1e", NULL), "invalid number (no digit in the exponent)");
	CHECK_STR(why("1e+", NULL),
		  "invalid number (no digit in the exponent)");
	CHECK_STR(why("-", NULL), "invalid number (no digit after '-')");
	CHECK_STR(why("-a", NULL), "invalid number (no digit after '-')");
	CHECK_STR(why("1e400", NULL), "number out of range");
	CHECK_STR(why("-1e400", NULL), "number out of range");
	CHECK(!accepts(".5"));
	CHECK(!accepts("+1"));
	CHECK(!accepts("0x10"));
	CHECK(!accepts("1_000"));
	/* A number longer than the parser's stack buffer. */
	{
		char big[301];

		memset(big, '1', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		CHECK(parse(big, &v, &e) == 0);
		CHECK(!v.is_int && v.num > 1e299 && v.num < 1.2e299);
		clyde_json_free(&v);
	}
}

static void test_limits(void)
{
	struct clyde_json_limits lim = { 100, 3, 10 };
	struct clyde_json v;
	struct clyde_json_error e;
	size_t n = 200000, i;
	char *deep = malloc(2 * n + 1);

	/* Nesting: max_depth levels are fine, one more is not. */
	CHECK(clyde_json_parse("[[[1]]]", 7, &lim, &v, &e) == 0);
	clyde_json_free(&v);
	CHECK(clyde_json_parse("[[[[1]]]]", 9, &lim, &v, &e) == -EINVAL);
	CHECK_STR(e.why, "nesting deeper than 3 levels");
	CHECK(v.type == CLYDE_JSON_NULL && v.items == NULL);

	/* Size: refused before parsing. */
	{
		char buf[101];

		memset(buf, ' ', sizeof(buf));
		buf[0] = '1';
		CHECK(clyde_json_parse(buf, sizeof(buf), &lim, &v, &e) ==
		      -EINVAL);
		CHECK_STR(e.why,
			  "input of 101 bytes is larger than the limit of 100");
		CHECK(clyde_json_parse(buf, 100, &lim, &v, &e) == 0);
		clyde_json_free(&v);
	}

	/* Values: the root counts. */
	CHECK(clyde_json_parse("[1,2,3,4,5,6,7,8,9]", 19, &lim, &v, &e) == 0);
	clyde_json_free(&v);
	CHECK(clyde_json_parse("[1,2,3,4,5,6,7,8,9,0]", 21, &lim, &v, &e) ==
	      -EINVAL);
	CHECK_STR(e.why, "more than 10 values");

	/* 200000 levels with the default limits: refused, no stack
	 * overflow; the same in objects. */
	CHECK(deep != NULL);
	if (!deep)
		return;
	for (i = 0; i < n; i++) {
		deep[i] = '[';
		deep[n + i] = ']';
	}
	CHECK(clyde_json_parse(deep, 2 * n, NULL, &v, &e) == -EINVAL);
	CHECK_STR(e.why, "nesting deeper than 64 levels");
	/* Exactly the default depth is accepted. */
	CHECK(clyde_json_parse(deep + n - CLYDE_JSON_MAX_DEPTH,
			       2 * CLYDE_JSON_MAX_DEPTH, NULL, &v, &e) == 0);
	clyde_json_free(&v);
	for (i = 0; i + 5 < 2 * n; i += 5)
		memcpy(deep + i, "{\"a\":", 5);
	CHECK(clyde_json_parse(deep, i, NULL, &v, &e) == -EINVAL);
	CHECK_STR(e.why, "nesting deeper than 64 levels");
	free(deep);

	/* Many values within the limits: a wide array parses. */
	{
		size_t m = 100000, len = 0;
		char *wide = malloc(2 * m + 2);

		CHECK(wide != NULL);
		if (!wide)
			return;
		wide[len++] = '[';
		for (i = 0; i < m; i++) {
			wide[len++] = '0';
			wide[len++] = i + 1 < m ? ',' : ']';
		}
		CHECK(clyde_json_parse(wide, len, NULL, &v, &e) == 0);
		CHECK(v.n == m);
		clyde_json_free(&v);
		free(wide);
	}
}

static void test_file(void)
{
	char path[] = "/tmp/clyde-test-json-XXXXXX";
	struct clyde_json v;
	struct clyde_json_error e;
	struct clyde_ctx ctx;
	int fd;

	clyde_ctx_init(&ctx);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, "{\"x\": [1,\n 2,\n oops]}", 21) == 21);
	close(fd);
	CHECK(clyde_json_parse_file(&ctx, path, NULL, &v, &e) == -EINVAL);
	CHECK(e.line == 3);
	CHECK_STR(e.why, "expected a value, found 'o'");
	CHECK_STR(clyde_errmsg(&ctx), ""); /* a bad file is not ctx's */
	{
		struct clyde_json_limits lim = { 10, 8, 100 };

		CHECK(clyde_json_parse_file(&ctx, path, &lim, &v, &e) ==
		      -EINVAL);
		CHECK(strstr(e.why, "larger than the limit of 10") != NULL);
	}
	unlink(path);
	CHECK(clyde_json_parse_file(&ctx, path, NULL, &v, &e) == -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), path) != NULL);
	CHECK(v.type == CLYDE_JSON_NULL);
	clyde_ctx_release(&ctx);
}

static void test_result_check(void)
{
	static const struct {
		const char *text;
		const char *why; /* NULL: accepted */
	} cases[] = {
		{ "{\"schema\":\"clyde-result\",\"schema_version\":1,"
		  "\"runs\":[]}",
		  NULL },
		{ "[1]", "not a clyde result (the document is an array, not "
			 "an object)" },
		{ "{\"a\":1}", "not a clyde result (no \"schema\" member)" },
		{ "{\"schema\":\"other\"}",
		  "not a clyde result (\"schema\" is not \"clyde-result\")" },
		{ "{\"schema\":\"clyde-result\\u0000x\",\"schema_version\":1,"
		  "\"runs\":[]}",
		  "not a clyde result (\"schema\" is not \"clyde-result\")" },
		{ "{\"schema\":\"clyde-result\"}",
		  "no \"schema_version\" member" },
		{ "{\"schema\":\"clyde-result\",\"schema_version\":\"1\"}",
		  "\"schema_version\" is not a positive integer" },
		{ "{\"schema\":\"clyde-result\",\"schema_version\":1.5}",
		  "\"schema_version\" is not a positive integer" },
		{ "{\"schema\":\"clyde-result\",\"schema_version\":2,"
		  "\"runs\":[]}",
		  "schema_version 2 is newer than this clyde reads (1)" },
		{ "{\"schema\":\"clyde-result\",\"schema_version\":1,"
		  "\"runs\":{}}",
		  "no \"runs\" array" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct clyde_json v;
		struct clyde_json_error e;
		int rc;

		CHECK(parse(cases[i].text, &v, &e) == 0);
		memset(&e, 0, sizeof(e));
		rc = clyde_json_result_check(&v, &e);
		if (cases[i].why) {
			CHECK(rc == -EINVAL);
			CHECK_STR(e.why, cases[i].why);
		} else {
			CHECK(rc == 0);
		}
		clyde_json_free(&v);
	}
	CHECK(clyde_json_result_check(NULL, NULL) == -EINVAL);
}

int main(void)
{
	test_structure();
	test_strings();
	test_numbers();
	test_limits();
	test_file();
	test_result_check();
	return tap_done();
}
