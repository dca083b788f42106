/*
 * A minimal unit-test harness: CHECK() records a failure with its line and
 * goes on; tap_done() prints "N passed, N failed" and gives the exit code.
 *
 * Skips: a test whose main subject cannot be tested here (no root, no loop
 * devices) calls tap_skip_all(), which exits TAP_SKIP (77; CMakeLists.txt
 * sets SKIP_RETURN_CODE 77, so ctest reports a skip, and .ci/run fails on
 * it).  A part that cannot run while the rest can (it needs root, or a
 * mount this process may not make) calls tap_skip_part(): the other parts
 * still run, and tap_done() then exits TAP_SKIP too, so the part that did
 * not run is a skip ctest shows and CI fails on, never a silent pass.  A
 * part that could run but did not set up (no temporary file) is a
 * failure: CHECK it.
 *
 * A test that made no check at all fails: tap_done() with nothing counted
 * is a test that tested nothing.
 */
#ifndef CLYDE_TESTS_TAP_H
#define CLYDE_TESTS_TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAP_SKIP 77

static int tap_pass, tap_fail, tap_skipped;

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

/* The exit status: 1 when a check failed or none was made, TAP_SKIP when
 * a part was skipped (tap_skip_part), else 0. */
static inline int tap_done(void)
{
	if (tap_fail) {
		printf("%d passed, %d failed\n", tap_pass, tap_fail);
		return 1;
	}
	if (!tap_pass) {
		printf("0 passed, 0 failed: no check was made\n");
		return 1;
	}
	if (tap_skipped) {
		printf("%d passed, 0 failed, %d part%s skipped\n", tap_pass,
		       tap_skipped, tap_skipped == 1 ? "" : "s");
		return TAP_SKIP;
	}
	printf("%d passed, 0 failed\n", tap_pass);
	return 0;
}

/* A part of the test cannot run here (say why, e.g. "huge-page pool: not
 * root"): the other parts go on, and tap_done() ends the test as a skip
 * unless a check failed. */
static inline void tap_skip_part(const char *why)
{
	printf("# SKIP part: %s\n", why);
	tap_skipped++;
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
