/*
 * Small readers of sysfs attributes for the member-disk code (members.c,
 * members_virt.c, io/loopcache.c), under a root prefix so that the unit
 * tests can point them at a fixture tree (tests/fixtures/...) instead of
 * the machine's /sys.  A NULL or "" root is the real filesystem.
 *
 * Every reader returns 0 or a negative errno; a missing attribute is never
 * an error for the callers, only "not known".
 */
#ifndef CLYDE_ENV_MEMBERS_SYS_H
#define CLYDE_ENV_MEMBERS_SYS_H

#include <stddef.h>
#include <stdint.h>

/* Read root + path (printf-style) whole into buf, trailing white space
 * removed.  Returns 0, or -errno (-ENOENT when it does not exist). */
int clyde_sys_text(const char *root, char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Read one unsigned decimal number.  -EINVAL when it is not one. */
int clyde_sys_u64(const char *root, uint64_t *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The last component of the symlink root + path (a driver's name).  */
int clyde_sys_link_base(const char *root, char *buf, size_t n, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));

/* root + path into buf: the name to open.  Returns 0 or -ENAMETOOLONG. */
int clyde_sys_path(const char *root, char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Copy src into dst of size n (n > 0), cut short rather than overflowing. */
void clyde_sys_copy(char *dst, size_t n, const char *src);

#endif
