/*
 * /proc/self/mountinfo (proc(5)): the one reader of its lines, for the
 * target's mount (env.c), the filesystem type under a directory
 * (stack_fs.c), a path's ZFS dataset (zfs.c), the cgroup2 hierarchy
 * (ownio.c) and where a device is mounted (io/devguard.c).
 */
#ifndef CLYDE_ENV_MOUNTINFO_H
#define CLYDE_ENV_MOUNTINFO_H

/* One line, split in place. */
struct clyde_mountinfo {
	unsigned major, minor;
	char *mount_point; /* unescaped */
	char *opts;	   /* per-mount */
	char *fstype;
	char *source; /* unescaped */
	char *super_opts;
};

/* Split `line` (modified: the fields point into it); returns 0, or
 * -EINVAL when it is malformed. */
int clyde_mountinfo_parse(char *line, struct clyde_mountinfo *mi);

/*
 * Call fn for every line of the mountinfo file `path` that parses, in
 * order: `line` as read (with its newline), mi its fields (in a copy;
 * both valid during the call only).  fn returns 0 to go on, anything
 * else to stop.  Returns fn's non-zero value, 0 at the end, or a
 * negative errno when the file cannot be opened.
 */
int clyde_mountinfo_each(const char *path,
			 int (*fn)(void *arg, const char *line,
				   const struct clyde_mountinfo *mi),
			 void *arg);

#endif
