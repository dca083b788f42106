/*
 * core/size: bonnie++'s number syntax (digits, then at most one suffix as
 * the last character, each suffix 1024 times the one before), strictly.
 */
#include <errno.h>
#include <stdint.h>

#include "core/size.h"
#include "tap.h"

/* Parse and return the value, or a sentinel that no test expects. */
static uint64_t val(const char *s, const char *suffixes, unsigned shift)
{
	uint64_t v = 0xdeadbeef;

	if (clyde_size_parse(s, suffixes, shift, &v))
		return 0xdeadbeef;
	return v;
}

static int rc(const char *s, const char *suffixes, unsigned shift)
{
	uint64_t v = 7;
	int r = clyde_size_parse(s, suffixes, shift, &v);

	/* Failure must leave *out alone. */
	if (r && v != 7)
		return 1000;
	return r;
}

static void test_plain(void)
{
	uint64_t v = 1;

	CHECK(val("0", "", 0) == 0);
	CHECK(val("7", "", 0) == 7);
	CHECK(val("00042", "", 0) == 42);
	CHECK(val("18446744073709551615", "", 0) == UINT64_MAX);
	CHECK(clyde_u64_parse("123", &v) == 0 && v == 123);
	CHECK(clyde_u64_parse("123k", &v) == -EINVAL && v == 123);
	CHECK(clyde_u64_parse("", &v) == -EINVAL);
}

/* -s: m is plain MiB, g x1024, t x2^20. */
static void test_mib_suffixes(void)
{
	CHECK(val("64", "mgt", 0) == 64);
	CHECK(val("64m", "mgt", 0) == 64);
	CHECK(val("64M", "mgt", 0) == 64);
	CHECK(val("2g", "mgt", 0) == 2048);
	CHECK(val("2G", "mgt", 0) == 2048);
	CHECK(val("1t", "mgt", 0) == 1048576);
	CHECK(val("3T", "mgt", 0) == 3 * 1048576);
	CHECK(rc("1k", "mgt", 0) == -EINVAL);
	CHECK(rc("1p", "mgt", 0) == -EINVAL);
}

/* Chunk sizes (k) and file sizes (k, m, g) in bytes. */
static void test_byte_suffixes(void)
{
	CHECK(val("8192", "k", 10) == 8192);
	CHECK(val("8k", "k", 10) == 8192);
	CHECK(val("8K", "k", 10) == 8192);
	CHECK(val("1024k", "k", 10) == 1048576);
	CHECK(rc("1m", "k", 10) == -EINVAL);
	CHECK(val("4k", "kmg", 10) == 4096);
	CHECK(val("1m", "kmg", 10) == 1048576);
	CHECK(val("1g", "kmg", 10) == 1073741824);
	CHECK(val("0k", "kmg", 10) == 0);
	/* -n: plain units, m x1024. */
	CHECK(val("16", "m", 10) == 16);
	CHECK(val("1m", "m", 10) == 1024);
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"",   "k",  "m",    "12x", "1kk", "1k1",   "1mk", "-1", "+1",
		" 1", "1 ", "0x10", "1.5", "1e3", "1,000", "1:2", "k1", "1\n",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = rc(bad[i], "kmg", 10);

		CHECK(r == -EINVAL);
		if (r != -EINVAL)
			fprintf(stderr, "  \"%s\" gave %d\n", bad[i], r);
	}
	CHECK(rc(NULL, "k", 10) == -EINVAL);
	/* Unknown suffix letters are rejected even when the digits would
	 * overflow: the text is wrong before it is too big. */
	CHECK(rc("99999999999999999999x", "k", 10) == -EINVAL);
}

static void test_overflow(void)
{
	/* The largest multiples of 1 GiB and 1 KiB below 2^64. */
	const uint64_t big_g = (((uint64_t)1 << 34) - 1) << 30;
	const uint64_t big_k = (((uint64_t)1 << 54) - 1) << 10;

	CHECK(rc("18446744073709551616", "", 0) == -ERANGE);
	CHECK(rc("99999999999999999999", "mgt", 0) == -ERANGE);
	CHECK(rc("99999999999999999999m", "mgt", 0) == -ERANGE);
	CHECK(val("17179869183g", "kmg", 10) == big_g);
	CHECK(rc("17179869184g", "kmg", 10) == -ERANGE);
	CHECK(rc("18014398509481984k", "k", 10) == -ERANGE);
	CHECK(val("18014398509481983k", "k", 10) == big_k);
	/* Zero times any suffix is fine. */
	CHECK(val("0t", "mgt", 0) == 0);
}

static void test_pow2(void)
{
	CHECK(!clyde_is_pow2(0));
	CHECK(clyde_is_pow2(1));
	CHECK(clyde_is_pow2(256));
	CHECK(!clyde_is_pow2(384));
	CHECK(!clyde_is_pow2(100));
	CHECK(clyde_is_pow2((uint64_t)1 << 63));
	CHECK(!clyde_is_pow2(UINT64_MAX));
}

int main(void)
{
	test_plain();
	test_mib_suffixes();
	test_byte_suffixes();
	test_malformed();
	test_overflow();
	test_pow2();
	return tap_done();
}
