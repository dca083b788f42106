#include "env/privs.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_id(const char *s, unsigned long *out)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return (*end || errno || *s == '-') ? -1 : 0;
}

static int find_group(const char *name, gid_t *gid, char *err, size_t errlen,
		      const char *opt)
{
	struct group *gr = getgrnam(name);
	unsigned long n;

	if (gr) {
		*gid = gr->gr_gid;
		return 0;
	}
	if (parse_id(name, &n) == 0) {
		*gid = (gid_t)n;
		return 0;
	}
	snprintf(err, errlen,
		 "%s: no group \"%s\"; give a group name or number", opt, name);
	return -1;
}

int clyde_drop_privileges(const char *user, const char *group, char *err,
			  size_t errlen)
{
	char ubuf[256], *colon;
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int have_gid = 0;

	if (!user && !group)
		return 0;
	if (user) {
		struct passwd *pw;
		unsigned long n;

		snprintf(ubuf, sizeof(ubuf), "%s", user);
		colon = strchr(ubuf, ':');
		if (colon)
			*colon++ = '\0';
		pw = getpwnam(ubuf);
		if (pw) {
			uid = pw->pw_uid;
			gid = pw->pw_gid;
			have_gid = 1;
		} else if (parse_id(ubuf, &n) == 0) {
			uid = (uid_t)n;
			pw = getpwuid(uid);
			if (pw) {
				gid = pw->pw_gid;
				have_gid = 1;
			}
		} else {
			snprintf(err, errlen,
				 "-u: no user \"%s\"; give user[:group] as "
				 "names or numbers",
				 ubuf);
			return -1;
		}
		if (colon && *colon) {
			if (find_group(colon, &gid, err, errlen, "-u") < 0)
				return -1;
			have_gid = 1;
		}
	}
	if (group) {
		if (find_group(group, &gid, err, errlen, "-g") < 0)
			return -1;
		have_gid = 1;
	}
	if (geteuid() != 0) {
		if (uid == geteuid() && (!have_gid || gid == getegid()))
			return 0;
		snprintf(
			err, errlen,
			"-u/-g: only root can switch to another user or group");
		return -1;
	}
	if (setgroups(1, &gid) < 0 || setgid(gid) < 0 || setuid(uid) < 0) {
		snprintf(err, errlen,
			 "-u/-g: cannot switch to uid %lu gid %lu: %s",
			 (unsigned long)uid, (unsigned long)gid,
			 strerror(errno));
		return -1;
	}
	/* Make sure root cannot be regained. */
	if (uid != 0 && setuid(0) == 0) {
		snprintf(err, errlen, "-u: privileges were not dropped");
		return -1;
	}
	return 0;
}
