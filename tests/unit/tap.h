/*
 * A minimal unit-test harness: CHECK() records a failure with its line and
 * goes on; tap_done() prints "N passed, N failed" and gives the exit code.
 */
#ifndef CLYDE_TESTS_TAP_H
#define CLYDE_TESTS_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_pass, tap_fail;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (cond) {                                                    \
			tap_pass++;                                            \
		} else {                                                       \
			tap_fail++;                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                             \
	do {                                                             \
		const char *g_ = (got), *w_ = (want);                    \
		if (g_ && w_ && strcmp(g_, w_) == 0) {                   \
			tap_pass++;                                      \
		} else {                                                 \
			tap_fail++;                                      \
			fprintf(stderr,                                  \
				"%s:%d: got  \"%s\"\n%*s want \"%s\"\n", \
				__FILE__, __LINE__, g_ ? g_ : "(null)",  \
				(int)strlen(__FILE__) + 8, "",           \
				w_ ? w_ : "(null)");                     \
		}                                                        \
	} while (0)

static inline int tap_done(void)
{
	printf("%d passed, %d failed\n", tap_pass, tap_fail);
	return tap_fail ? 1 : 0;
}

#endif
