/*
 * core/slurp: a file read whole, past the first buffer's size, with its
 * NUL; a file that cannot be opened gives the open's errno and no buffer.
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

int main(void)
{
	test_whole();
	test_missing();
	return tap_done();
}
