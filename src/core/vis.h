/*
 * Text from users and from the commands they run, made safe to print on a
 * terminal: every control character (newline, ESC, ...) and DEL written as
 * an escape (\n, \t, \r, \x1b), so that a key, a path or a command cannot
 * move the cursor, change colours or start a line of its own, and bounded,
 * so that a 50 MB command line is not echoed whole.
 */
#ifndef CLYDE_CORE_VIS_H
#define CLYDE_CORE_VIS_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write s into buf (cap bytes, NUL-terminated) with its control characters
 * escaped; `keep_newlines` leaves '\n' as it is (for multi-line output
 * whose lines are escaped otherwise).  When the escaped text does not fit
 * in cap, it ends with "... (N bytes)" naming the length of s.  Returns
 * buf.
 */
char *clyde_vis(char *buf, size_t cap, const char *s, int keep_newlines);

/*
 * Write s to f escaped as clyde_vis() does, whole however long (a
 * listing of commands, a table): returns what fputs returns.
 */
int clyde_vis_fputs(const char *s, FILE *f, int keep_newlines);

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes at s
 * (at most `avail` of them) do not start one.  Overlong forms, surrogates
 * and code points above U+10FFFF are invalid. */
size_t clyde_utf8_seq_len(const char *s, size_t avail);

#endif
