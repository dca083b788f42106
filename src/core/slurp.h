/*
 * Read a whole file into memory: the one helper for the small files
 * clyde reads back whole (a result a workload wrote, /proc, sysfs and
 * kstat files, mountinfo, a result file given on the command line).
 */
#ifndef CLYDE_CORE_SLURP_H
#define CLYDE_CORE_SLURP_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Read `path` to its end into a malloc'ed, NUL-terminated buffer, *out
 * (the caller frees it), and its length without the NUL into *len (when
 * len is not NULL).  A read error ends the reading as the end of the
 * file does: what was read is kept.  Returns 0, or a negative errno with
 * *out NULL: the open's (-ENOENT, -EACCES, ...) or -ENOMEM.  Nothing is
 * printed and no context is written.
 */
int clyde_slurp(const char *path, char **out, size_t *len);

/*
 * As clyde_slurp(), from the open stream f (not closed; stdin for "-"),
 * with a bound and read errors reported: returns 0, -EFBIG when f holds
 * more than `max` bytes, -ENOMEM, or the read error's negative errno
 * (-EIO when the C library does not say; -EISDIR for a directory).  On
 * an error *out is NULL.
 */
int clyde_slurp_stream(FILE *f, size_t max, char **out, size_t *len);

/*
 * Read at most n - 1 bytes of `path` into buf (n > 0), NUL-terminated;
 * a read error ends the reading as the end of the file does.  Returns
 * the length read, or the open's negative errno with buf "".
 */
ssize_t clyde_slurp_into(const char *path, char *buf, size_t n);

#endif
