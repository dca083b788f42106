/*
 * core/vis: text made safe for a terminal -- control characters escaped,
 * newlines kept only when asked, long text cut with its length said.
 */
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
	return tap_done();
}
