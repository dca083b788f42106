/*
 * core/vis: text made safe for a terminal -- control characters escaped,
 * newlines kept only when asked, long text cut with its length said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vis.h"
#include "tap.h"

int main(void)
{
	char b[64], big[1000];

	CHECK_STR(clyde_vis(b, sizeof(b), "plain text", 0), "plain text");
	CHECK_STR(clyde_vis(b, sizeof(b), "a\nb\tc\rd\033[0m\x7f", 0),
		  "a\\nb\\tc\\rd\\x1b[0m\\x7f");
	CHECK_STR(clyde_vis(b, sizeof(b), "a\nb\033", 1), "a\nb\\x1b");
	/* Exactly what fits is not cut. */
	memset(big, 'x', 63);
	big[63] = '\0';
	CHECK_STR(clyde_vis(b, sizeof(b), big, 0), big);
	/* One more is: as much as leaves room for the length. */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	clyde_vis(b, sizeof(b), big, 0);
	CHECK(strlen(b) < sizeof(b));
	CHECK(strstr(b, "... (999 bytes)") != NULL);
	CHECK(b[0] == 'x');
	/* An escape is never cut in half. */
	memset(big, '\033', 100);
	big[100] = '\0';
	clyde_vis(b, sizeof(b), big, 0);
	CHECK(strncmp(strstr(b, "..."), "... (100 bytes)", 15) == 0);
	CHECK((strstr(b, "...") - b) % 4 == 0);
	/* Whole, however long, to a stream. */
	{
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);

		CHECK(f != NULL);
		if (f) {
			memset(big, '\a', 200);
			big[200] = '\0';
			CHECK(clyde_vis_fputs("a\033]52;c;eA==\ab\n", f, 1) ==
			      0);
			CHECK(clyde_vis_fputs(big, f, 0) == 0);
			fclose(f);
			CHECK(len == strlen("a\\x1b]52;c;eA==\\x07b\n") + 800);
			CHECK(strncmp(out, "a\\x1b]52;c;eA==\\x07b\n", 21) ==
			      0);
			CHECK(strchr(out, '\a') == NULL);
			free(out);
		}
	}
	return tap_done();
}
