/*
 * /proc/PID/stat's fields (env/procstat.h).
 */
#include "env/procstat.h"

#include <stdio.h>
#include <string.h>

int clyde_proc_stat_parse(const char *text, struct clyde_proc_stat *out)
{
	const char *p = strrchr(text, ')');
	int ppid = 0, pgrp = 0, n;
	unsigned long long ut = 0, st = 0;

	memset(out, 0, sizeof(*out));
	if (!p)
		return 0;
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt
	 * cmajflt utime stime cutime cstime priority nice threads
	 * itrealvalue starttime */
	n = sscanf(p + 1,
		   " %c %d %d %*d %*d %*d %u %*u %*u %*u %*u %llu %llu %*d %*d"
		   " %*d %*d %*d %*d %llu",
		   &out->state, &ppid, &pgrp, &out->flags, &ut, &st,
		   &out->start);
	if (n < 0)
		return 0;
	out->ppid = (pid_t)ppid;
	out->pgrp = (pid_t)pgrp;
	out->utime = (uint64_t)ut;
	out->stime = (uint64_t)st;
	return n;
}
