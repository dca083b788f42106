/*
 * A minimal unit-test harness: CHECK() records a failure with its line and
 * goes on; tap_done() prints "N passed, N failed" and gives the exit code.
 *
 * Skips: a test whose main subject cannot be tested here (no root, no loop
 * devices) calls tap_skip_all(), which exits TAP_SKIP (77; CMakeLists.txt
 * sets SKIP_RETURN_CODE 77, so ctest reports a skip, and .ci/run fails on
 * it).  A part that cannot run while the main subject can is a failure,
 * not a skip: CHECK it.
 */
#ifndef CLYDE_TESTS_TAP_H
#define CLYDE_TESTS_TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAP_SKIP 77

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

/* The main subject cannot be tested here: say why in TAP's skip-all form
 * and exit TAP_SKIP, unless a check has already failed (then exit as
 * tap_done() would: a failure is never hidden by a skip).  Runs the atexit
 * handlers, like any exit. */
static inline void tap_skip_all(const char *why)
{
	if (tap_fail) {
		printf("# cannot finish (%s)\n", why);
		exit(tap_done());
	}
	printf("1..0 # SKIP %s\n", why);
	printf("%d passed, 0 failed, skipped\n", tap_pass);
	exit(TAP_SKIP);
}

#endif
