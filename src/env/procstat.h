/*
 * The fields of /proc/PID/stat that clyde reads (proc(5)), parsed once:
 * the command in parentheses may hold blanks and parentheses itself, so
 * the fields are read after its last ')'.
 */
#ifndef CLYDE_ENV_PROCSTAT_H
#define CLYDE_ENV_PROCSTAT_H

#include <stdint.h>
#include <sys/types.h>

struct clyde_proc_stat {
	char state;		  /* field 3 */
	pid_t ppid, pgrp;	  /* 4, 5 */
	unsigned flags;		  /* 9 (PF_*) */
	uint64_t utime, stime;	  /* 14, 15: clock ticks */
	unsigned long long start; /* 22: starttime, clock ticks */
};

/* How many of the fields above a text gave, in their order: */
#define CLYDE_PROC_STAT_PPID 2	/* state and ppid */
#define CLYDE_PROC_STAT_PGRP 3	/* ... and pgrp */
#define CLYDE_PROC_STAT_TIMES 6 /* ... flags, utime and stime */
#define CLYDE_PROC_STAT_ALL 7	/* ... and starttime */

/* Parse the text of a /proc/PID/stat into *out (zeroed first).  Returns
 * how many of its fields, in the order of struct clyde_proc_stat, were
 * read (a caller asks for as many as it uses: CLYDE_PROC_STAT_*); 0 when
 * the text has no command in parentheses. */
int clyde_proc_stat_parse(const char *text, struct clyde_proc_stat *out);

#endif
