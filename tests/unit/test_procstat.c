/*
 * env/procstat: /proc/PID/stat's fields after the command's last ')',
 * whatever the command holds (blanks, parentheses); a short text gives
 * the fields it has, in order, and says how many.
 */
#include <string.h>

#include "tap.h"
#include "env/procstat.h"

static void test_full(void)
{
	/* A kernel thread's line (flags 0x208040 has PF_KTHREAD). */
	const char *nfsd =
		"1234 (nfsd) S 2 0 0 0 -1 2129984 0 0 0 0 17 25 0 0 20 0 1 "
		"0 987654 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 "
		"0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	/* A command with blanks and parentheses of its own. */
	const char *odd = "4321 (a) b (c)) R 99 4321 4321 34816 4321 "
			  "4194304 10 0 0 0 300 40 0 0 20 0 1 0 55555 1 2\n";
	struct clyde_proc_stat ps;

	CHECK(clyde_proc_stat_parse(nfsd, &ps) == CLYDE_PROC_STAT_ALL);
	CHECK(ps.state == 'S' && ps.ppid == 2 && ps.pgrp == 0);
	CHECK(ps.flags == 2129984 && ps.utime == 17 && ps.stime == 25);
	CHECK(ps.start == 987654);
	CHECK(clyde_proc_stat_parse(odd, &ps) == CLYDE_PROC_STAT_ALL);
	CHECK(ps.state == 'R' && ps.ppid == 99 && ps.pgrp == 4321);
	CHECK(ps.flags == 4194304 && ps.utime == 300 && ps.stime == 40);
	CHECK(ps.start == 55555);
}

static void test_short(void)
{
	struct clyde_proc_stat ps;

	/* The fixture trees' lines (unit/test_testio): the parent only. */
	CHECK(clyde_proc_stat_parse("101 (sh (x)) S 100 101 1 0\n", &ps) ==
	      CLYDE_PROC_STAT_PGRP);
	CHECK(ps.ppid == 100 && ps.pgrp == 101 && ps.start == 0);
	CHECK(clyde_proc_stat_parse("7 (x) Z", &ps) == 1 && ps.state == 'Z');
	CHECK(clyde_proc_stat_parse("no command here", &ps) == 0);
	CHECK(clyde_proc_stat_parse("", &ps) == 0);
	CHECK(clyde_proc_stat_parse("5 (x)", &ps) == 0 && ps.ppid == 0);
}

int main(void)
{
	test_full();
	test_short();
	return tap_done();
}
