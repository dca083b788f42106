/*
 * core/slurp: a file read whole, past the first buffer's size, with its
 * NUL; a file that cannot be opened gives the open's errno and no buffer;
 * a stream read to a bound; a file read into a fixed buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "core/slurp.h"

static void test_whole(void)
{
	char path[] = "/tmp/clyde-slurp-XXXXXX";
	size_t n = 40000, len = 0;
	char *want = malloc(n), *got = NULL;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(want && f);
	if (!want || !f) {
		free(want);
		return;
	}
	for (size_t i = 0; i < n; i++)
		want[i] = (char)('a' + i % 26);
	CHECK(fwrite(want, 1, n, f) == n);
	fclose(f);
	CHECK(clyde_slurp(path, &got, &len) == 0);
	CHECK(got && len == n && !memcmp(got, want, n) && got[n] == '\0');
	free(got);
	/* len may be NULL; an empty file is "". */
	CHECK(truncate(path, 0) == 0);
	CHECK(clyde_slurp(path, &got, NULL) == 0);
	CHECK(got && got[0] == '\0');
	free(got);
	unlink(path);
	free(want);
}

static void test_missing(void)
{
	char *got = (char *)"x";
	size_t len = 5;

	CHECK(clyde_slurp("/nonexistent/clyde-slurp", &got, &len) == -ENOENT);
	CHECK(got == NULL && len == 0);
}

/* From a stream, with a bound: exactly the bound is read, one byte more
 * is -EFBIG; a directory is a read error (-EISDIR), not an empty file. */
static void test_stream(void)
{
	char path[] = "/tmp/clyde-slurp-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
	char *got = NULL;
	size_t len = 0;

	CHECK(f != NULL);
	if (!f)
		return;
	fputs("0123456789", f);
	rewind(f);
	CHECK(clyde_slurp_stream(f, 10, &got, &len) == 0);
	CHECK(got && len == 10 && !strcmp(got, "0123456789"));
	free(got);
	rewind(f);
	CHECK(clyde_slurp_stream(f, 9, &got, &len) == -EFBIG);
	CHECK(got == NULL && len == 0);
	fclose(f);
	unlink(path);
	f = fopen("/tmp", "rb");
	if (f) {
		CHECK(clyde_slurp_stream(f, 100, &got, &len) == -EISDIR);
		CHECK(got == NULL);
		fclose(f);
	}
}

/* Into a fixed buffer: cut to its size, NUL-terminated; the length read,
 * or the open's errno with an empty buffer. */
static void test_into(void)
{
	char path[] = "/tmp/clyde-slurp-XXXXXX";
	int fd = mkstemp(path);
	char buf[5] = "xxxx";

	CHECK(fd >= 0 && write(fd, "abcdefg", 7) == 7);
	if (fd >= 0)
		close(fd);
	CHECK(clyde_slurp_into(path, buf, sizeof(buf)) == 4);
	CHECK_STR(buf, "abcd");
	unlink(path);
	CHECK(clyde_slurp_into(path, buf, sizeof(buf)) == -ENOENT);
	CHECK_STR(buf, "");
}

int main(void)
{
	test_whole();
	test_missing();
	test_stream();
	test_into();
	return tap_done();
}
