/*
 * The harness itself (tap.h): the exit status a test gives for what its
 * checks and skips were.  Each case runs in a child process with fresh
 * counters, so that its outcome is its exit status:
 *   - no check at all is a failure (a test that tested nothing);
 *   - passing checks are a pass;
 *   - a failed check is a failure, whatever else happened;
 *   - a skipped part with passing checks is a skip (77), which CI fails
 *     on; after a failed check it is a failure;
 *   - tap_skip_all() is a skip, and a failure after a failed check.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

enum action {
	DONE,
	PASS,
	FAIL,
	SKIP_PART,
	SKIP_ALL
};

/* The exit status of a child that does the `n` actions of `a` from fresh
 * counters, its output thrown away; -1 when it could not run. */
static int outcome(const enum action *a, int n)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(99);
		tap_pass = tap_fail = tap_skipped = 0;
		for (int i = 0; i < n; i++) {
			switch (a[i]) {
			case PASS:
				CHECK(1);
				break;
			case FAIL:
				CHECK(0);
				break;
			case SKIP_PART:
				tap_skip_part("a part");
				break;
			case SKIP_ALL:
				tap_skip_all("everything");
				break;
			case DONE:
				break;
			}
		}
		exit(tap_done());
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

#define OUTCOME(...)                                                       \
	outcome((const enum action[]){ DONE, __VA_ARGS__ },                \
		(int)(sizeof((const enum action[]){ DONE, __VA_ARGS__ }) / \
		      sizeof(enum action)))

int main(void)
{
	CHECK(OUTCOME(DONE) == 1);
	CHECK(OUTCOME(PASS) == 0);
	CHECK(OUTCOME(PASS, PASS, PASS) == 0);
	CHECK(OUTCOME(PASS, FAIL, PASS) == 1);
	CHECK(OUTCOME(FAIL) == 1);
	CHECK(OUTCOME(PASS, SKIP_PART, PASS) == TAP_SKIP);
	CHECK(OUTCOME(SKIP_PART, PASS, FAIL) == 1);
	/* Only skipped parts and no check: nothing was tested. */
	CHECK(OUTCOME(SKIP_PART) == 1);
	CHECK(OUTCOME(SKIP_ALL) == TAP_SKIP);
	CHECK(OUTCOME(PASS, SKIP_ALL) == TAP_SKIP);
	CHECK(OUTCOME(FAIL, SKIP_ALL) == 1);
	return tap_done();
}
