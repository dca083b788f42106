/* Dropping root privileges for -u user[:group] and -g group (clyde run).
 * Library code: the reason goes into err, nothing is printed. */
#ifndef CLYDE_ENV_PRIVS_H
#define CLYDE_ENV_PRIVS_H

#include <stddef.h>

/*
 * Switch to `user` (name or number, optionally ":group") and/or `group`
 * (name or number; it overrides the one in `user`).  Either may be NULL.
 * Returns 0, or -1 with a one-line reason in err.
 */
int clyde_drop_privileges(const char *user, const char *group, char *err,
			  size_t errlen);

#endif
