/*
 * The write guards of `clyde dev` (devguard.h).  The order matters only for
 * the message: what can never be overridden (mounted, a holder) is looked
 * at first, so a mounted ext4 says "mounted", not "holds an ext4
 * filesystem: add --destroy-data", which would send the user the wrong way.
 */
#include "io/devguard.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifdef CLYDE_HAVE_BLKID
#include <blkid.h>
#endif

#include "env/mountinfo.h"

#define SYS_BLOCK "/sys/class/block"

static const struct clyde_devguard_paths real_paths = {
	.sys_block = SYS_BLOCK,
	.mountinfo = "/proc/self/mountinfo",
	.swaps = "/proc/swaps",
};

bool clyde_devguard_have_blkid(void)
{
#ifdef CLYDE_HAVE_BLKID
	return true;
#else
	return false;
#endif
}

struct mount_find {
	dev_t dev;
	char *where;
	size_t len;
};

static int mount_line(void *arg, const char *line,
		      const struct clyde_mountinfo *mi)
{
	struct mount_find *m = arg;

	(void)line;
	if (makedev(mi->major, mi->minor) != m->dev)
		return 0;
	snprintf(m->where, m->len, "%s", mi->mount_point);
	return 1;
}

/* Where device `dev` is mounted (its first mount point in mountinfo) or
 * "[swap]" when it is active swap space; false when neither. */
static bool mounted_at(const struct clyde_devguard_paths *p, dev_t dev,
		       char *where, size_t len)
{
	struct mount_find m = { dev, where, len };
	char line[8192];
	bool found = clyde_mountinfo_each(p->mountinfo, mount_line, &m) > 0;
	FILE *f = found ? NULL : fopen(p->swaps, "re");

	while (f && !found && fgets(line, sizeof(line), f)) {
		char path[4096];
		struct stat st;

		if (sscanf(line, "%4095s", path) == 1 && path[0] == '/' &&
		    stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
		    st.st_rdev == dev) {
			snprintf(where, len, "[swap]");
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* The device number in /sys/class/block/NAME/dev; 0 when unreadable. */
static dev_t sys_devno(const struct clyde_devguard_paths *p, const char *name)
{
	char path[PATH_MAX];
	unsigned maj, min;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/dev", p->sys_block, name);
	f = fopen(path, "re");
	if (f) {
		n = fscanf(f, "%u:%u", &maj, &min);
		fclose(f);
	}
	return n == 2 ? makedev(maj, min) : 0;
}

/* The kernel name of block device `dev` ("loop3p1"), from the link
 * /sys/dev/block/MAJ:MIN.  Returns 0 or -ENODEV. */
static int kernel_name(dev_t dev, char *name, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *base;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -ENODEV;
	target[n] = '\0';
	base = strrchr(target, '/');
	if (snprintf(name, len, "%s", base ? base + 1 : target) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* True when NAME is a partition; its whole disk's name goes to disk. */
static bool parent_disk(const char *name, char *disk, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];
	char *slash;

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/partition", name);
	if (access(path, F_OK) < 0)
		return false;
	snprintf(path, sizeof(path), SYS_BLOCK "/%s", name);
	if (!realpath(path, real) || !(slash = strrchr(real, '/')))
		return false;
	*slash = '\0';
	slash = strrchr(real, '/');
	return snprintf(disk, len, "%s", slash ? slash + 1 : real) < (int)len;
}

/*
 * What makes device NAME (or anything built on it) untouchable: walk its
 * holders and partitions recursively.  `top` is the device the user named,
 * for the message.  Returns 0 when nothing is found, else -EBUSY with the
 * message recorded.
 */
static int in_use(struct clyde_ctx *ctx, const struct clyde_devguard_paths *p,
		  const char *top, const char *name, int depth)
{
	static const char *const subdirs[] = { "holders", "" };
	char where[4096], path[PATH_MAX];
	dev_t dev = sys_devno(p, name);
	int rc = 0;

	if (depth > 16)
		return 0;
	if (dev && mounted_at(p, dev, where, sizeof(where))) {
		if (!strcmp(top, name))
			return clyde_err(ctx, 0,
					 "%s is mounted on %s: clyde never "
					 "writes to a mounted device, not "
					 "even with --destroy-data",
					 top, where),
			       -EBUSY;
		return clyde_err(ctx, 0,
				 "%s is mounted through %s on %s: clyde never "
				 "writes to a mounted device, not even with "
				 "--destroy-data",
				 top, name, where),
		       -EBUSY;
	}
	for (size_t s = 0; s < 2 && rc == 0; s++) {
		DIR *d;
		struct dirent *e;

		snprintf(path, sizeof(path), "%s/%s/%s", p->sys_block, name,
			 subdirs[s]);
		d = opendir(path);
		while (d && rc == 0 && (e = readdir(d))) {
			char part[PATH_MAX];

			if (e->d_name[0] == '.')
				continue;
			if (s == 1) {
				/* A partition is a subdirectory with a
				 * "partition" file. */
				if (snprintf(part, sizeof(part),
					     "%s/%s/partition", path,
					     e->d_name) >= (int)sizeof(part) ||
				    access(part, F_OK) < 0)
					continue;
			}
			rc = in_use(ctx, p, top, e->d_name, depth + 1);
			if (rc == 0 && s == 0)
				rc = (clyde_err(ctx, 0,
						"%s is in use by %s (a "
						"holder: md, LVM or "
						"device-mapper): clyde never "
						"writes to a member, not "
						"even with --destroy-data",
						top, e->d_name),
				      -EBUSY);
		}
		if (d)
			closedir(d);
	}
	return rc;
}

/* Does st (the target) match the file behind fd link `path`? */
static bool same_file(const struct stat *target, const struct stat *st)
{
	if (S_ISBLK(target->st_mode))
		return S_ISBLK(st->st_mode) && st->st_rdev == target->st_rdev;
	return S_ISREG(st->st_mode) && st->st_dev == target->st_dev &&
	       st->st_ino == target->st_ino;
}

/* The first other process with the target open: its pid and command in
 * `who`.  Processes this one cannot look into are not seen. */
static bool open_elsewhere(const struct stat *target, char *who, size_t len)
{
	DIR *proc = opendir("/proc");
	struct dirent *p;
	bool found = false;
	pid_t self = getpid();

	while (proc && !found && (p = readdir(proc))) {
		char path[PATH_MAX], comm[64] = "?";
		DIR *fds;
		struct dirent *e;
		FILE *f;

		if (!isdigit((unsigned char)p->d_name[0]) ||
		    atoi(p->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		while (fds && !found && (e = readdir(fds))) {
			struct stat st;

			if (e->d_name[0] != '.' &&
			    fstatat(dirfd(fds), e->d_name, &st, 0) == 0 &&
			    same_file(target, &st))
				found = true;
		}
		if (fds)
			closedir(fds);
		if (!found)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", p->d_name);
		f = fopen(path, "re");
		if (f) {
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
		snprintf(who, len, "process %s (%s)", p->d_name, comm);
	}
	if (proc)
		closedir(proc);
	return found;
}

/* A regular file that is the backing file of a loop device: that device
 * must not be in use (mounted, held); its name goes to loop. */
static int backing_loop(struct clyde_ctx *ctx, const char *path,
			const struct stat *target, char *loop, size_t len)
{
	DIR *d = opendir(SYS_BLOCK);
	struct dirent *e;
	int rc = 0;

	loop[0] = '\0';
	while (d && rc == 0 && !loop[0] && (e = readdir(d))) {
		char p[PATH_MAX], backing[PATH_MAX];
		struct stat st;
		FILE *f;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), SYS_BLOCK "/%s/loop/backing_file",
			 e->d_name);
		f = fopen(p, "re");
		if (!f)
			continue;
		if (fgets(backing, sizeof(backing), f)) {
			backing[strcspn(backing, "\n")] = '\0';
			if (stat(backing, &st) == 0 && same_file(target, &st))
				snprintf(loop, len, "%s", e->d_name);
		}
		fclose(f);
		if (loop[0] &&
		    in_use(ctx, &real_paths, e->d_name, e->d_name, 0) < 0) {
			char why[CLYDE_ERR_MAX];
			size_t n = strlen(e->d_name);
			const char *rest = why;

			snprintf(why, sizeof(why), "%s", clyde_errmsg(ctx));
			clyde_err_clear(ctx);
			/* in_use() says "loop1 is mounted on ...": the loop
			 * device becomes the subject of a relative clause. */
			if (!strncmp(why, e->d_name, n) && why[n] == ' ')
				rest = why + n + 1;
			rc = (clyde_err(ctx, 0,
					"%s is the backing file of %s, which %s",
					path, e->d_name, rest),
			      -EBUSY);
		}
	}
	if (d)
		closedir(d);
	return rc;
}

int clyde_devguard_in_use(struct clyde_ctx *ctx,
			  const struct clyde_devguard_paths *paths,
			  const char *name)
{
	return in_use(ctx, paths, name, name, 0);
}

static const char *article(const char *word)
{
	return strchr("aeiouAEIOU", word[0]) ? "an" : "a";
}

#ifdef CLYDE_HAVE_BLKID
/* Describe what libblkid found ("an ext4 filesystem (UUID ...)"). */
static void signature_text(blkid_probe pr, char *buf, size_t len)
{
	const char *type = NULL, *usage = NULL, *uuid = NULL, *pt = NULL;
	char id[128] = "";

	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	blkid_probe_lookup_value(pr, "UUID", &uuid, NULL);
	blkid_probe_lookup_value(pr, "PTTYPE", &pt, NULL);
	if (uuid)
		snprintf(id, sizeof(id), " (UUID %s)", uuid);
	if (!type && pt)
		snprintf(buf, len, "%s %s partition table", article(pt), pt);
	else if (!type)
		snprintf(buf, len, "a signature");
	else if (!strcmp(type, "swap"))
		snprintf(buf, len, "swap space%s", id);
	else if (usage && !strcmp(usage, "filesystem"))
		snprintf(buf, len, "%s %s filesystem%s", article(type), type,
			 id);
	else if (usage && !strcmp(usage, "raid"))
		snprintf(buf, len, "%s %s signature (a RAID or LVM member)%s",
			 article(type), type, id);
	else if (usage && !strcmp(usage, "crypto"))
		snprintf(buf, len, "%s %s signature (an encrypted volume)%s",
			 article(type), type, id);
	else
		snprintf(buf, len, "%s %s signature%s", article(type), type,
			 id);
}
#endif

/* Any signature on path?  0 when none, -EEXIST with the message. */
static int signatures(struct clyde_ctx *ctx, const char *path, const char *name)
{
#ifdef CLYDE_HAVE_BLKID
	char what[512];
	blkid_probe pr = blkid_new_probe_from_filename(path);
	int rc;

	if (!pr)
		return clyde_err(ctx, errno ? errno : EIO,
				 "%s: cannot look for signatures", name);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(
		pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_UUID);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0)
		signature_text(pr, what, sizeof(what));
	blkid_free_probe(pr);
	if (rc == 1)
		return 0;
	if (rc == -2)
		snprintf(what, sizeof(what), "several signatures");
	else if (rc < 0)
		return clyde_err(ctx, 0,
				 "%s: libblkid could not read its signatures: "
				 "add --destroy-data to write anyway",
				 name),
		       -EIO;
	return clyde_err(ctx, 0,
			 "%s holds %s: add --destroy-data to "
			 "overwrite it",
			 name, what),
	       -EEXIST;
#else
	(void)path;
	return clyde_err(ctx, 0,
			 "%s: clyde was built without libblkid, so signatures "
			 "(filesystems, RAID, LVM, partition tables) cannot be "
			 "checked: add --destroy-data to write anyway",
			 name),
	       -EEXIST;
#endif
}

int clyde_devguard_check_write(struct clyde_ctx *ctx, const char *path,
			       bool destroy_data)
{
	struct stat st;
	char name[256], disk[256], where[4096], who[320];
	int rc, fd;

	if (stat(path, &st) < 0)
		return clyde_err(ctx, errno, "%s", path);
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return clyde_err(ctx, 0,
				 "%s is neither a block device nor a regular "
				 "file",
				 path),
		       -EINVAL;
	if (S_ISREG(st.st_mode)) {
		snprintf(name, sizeof(name), "%s", path);
		rc = backing_loop(ctx, path, &st, disk, sizeof(disk));
		if (rc < 0)
			return rc;
		if (disk[0] && !destroy_data)
			return clyde_err(ctx, 0,
					 "%s is the backing file of %s: add "
					 "--destroy-data to overwrite it",
					 path, disk),
			       -EBUSY;
	} else {
		if (kernel_name(st.st_rdev, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "%s", path);
		rc = in_use(ctx, &real_paths, name, name, 0);
		if (rc < 0)
			return rc;
		if (parent_disk(name, disk, sizeof(disk)) &&
		    mounted_at(&real_paths, sys_devno(&real_paths, disk), where,
			       sizeof(where)))
			return clyde_err(ctx, 0,
					 "%s is a partition of %s, which is "
					 "mounted on %s: clyde never writes "
					 "to a mounted device, not even with "
					 "--destroy-data",
					 name, disk, where),
			       -EBUSY;
		/* Mounts and holders hold the device exclusively; so do
		 * mkfs, mdadm and another clyde dev while they run. */
		fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
		if (fd < 0 && errno == EBUSY)
			return clyde_err(ctx, 0,
					 "%s is held exclusively by another "
					 "program (the kernel refused an "
					 "exclusive open): clyde does not "
					 "write to it",
					 name),
			       -EBUSY;
		if (fd < 0)
			return clyde_err(ctx, errno, "%s", path);
		close(fd);
	}
	if (destroy_data)
		return 0;
	if (open_elsewhere(&st, who, sizeof(who)))
		return clyde_err(ctx, 0,
				 "%s is open in %s: add --destroy-data to "
				 "write to it anyway",
				 name, who),
		       -EBUSY;
	return signatures(ctx, path, name);
}
