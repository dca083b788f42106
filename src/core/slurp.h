/*
 * Read a whole file into memory: the one helper for the small files
 * clyde reads back whole (a result a workload wrote, /proc and kstat
 * files, mountinfo).
 */
#ifndef CLYDE_CORE_SLURP_H
#define CLYDE_CORE_SLURP_H

#include <stddef.h>

/*
 * Read `path` to its end into a malloc'ed, NUL-terminated buffer, *out
 * (the caller frees it), and its length without the NUL into *len (when
 * len is not NULL).  A read error ends the reading as the end of the
 * file does: what was read is kept.  Returns 0, or a negative errno with
 * *out NULL: the open's (-ENOENT, -EACCES, ...) or -ENOMEM.  Nothing is
 * printed and no context is written.
 */
int clyde_slurp(const char *path, char **out, size_t *len);

#endif
