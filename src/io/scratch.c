#include "io/scratch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <unistd.h>

int clyde_scratch_create(struct clyde_ctx *ctx, const char *parent,
			 struct clyde_scratch **out)
{
	struct clyde_scratch *s;
	char name[64];
	struct stat st;
	int pfd, fd = -1;

	*out = NULL;
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return clyde_err(ctx, errno, "cannot open directory %s",
				 parent);

	for (unsigned n = 0;; n++) {
		if (n == 0)
			snprintf(name, sizeof(name), "clyde.%ld",
				 (long)getpid());
		else
			snprintf(name, sizeof(name), "clyde.%ld.%u",
				 (long)getpid(), n);
		if (mkdirat(pfd, name, 0700) == 0)
			break;
		if (errno != EEXIST || n >= 1000) {
			int e = errno;

			close(pfd);
			return clyde_err(ctx, e,
					 "cannot create a directory in %s",
					 parent);
		}
	}
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		int e = fd < 0 ? errno : EPERM;

		if (fd >= 0)
			close(fd);
		/* Something swapped our fresh directory: leave it alone. */
		close(pfd);
		return clyde_err(ctx, e, "cannot open %s/%s", parent, name);
	}
	s = calloc(1, sizeof(*s));
	if (!s || asprintf(&s->path, "%s/%s", parent, name) < 0 ||
	    !(s->name = strdup(name)) || !(s->parent = strdup(parent))) {
		if (s) {
			free(s->path);
			free(s->name);
		}
		free(s);
		close(fd);
		unlinkat(pfd, name, AT_REMOVEDIR);
		close(pfd);
		return clyde_err(ctx, ENOMEM, "scratch directory");
	}
	s->dirfd = fd;
	s->parentfd = pfd;
	s->ino = (unsigned long long)st.st_ino;
	*out = s;
	return 0;
}

void clyde_scratch_release(struct clyde_scratch *s)
{
	if (s->dirfd >= 0)
		close(s->dirfd);
	if (s->parentfd >= 0)
		close(s->parentfd);
	s->dirfd = s->parentfd = -1;
}

int clyde_scratch_reopen(struct clyde_ctx *ctx, struct clyde_scratch *s)
{
	struct stat st;
	int pfd, fd;

	if (s->dirfd >= 0)
		return 0;
	pfd = open(s->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return clyde_err(ctx, errno, "cannot open directory %s again",
				 s->parent);
	fd = openat(pfd, s->name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 ||
	    (unsigned long long)st.st_ino != s->ino || st.st_uid != geteuid()) {
		int e = fd < 0 ? errno : EPERM;

		if (fd >= 0)
			close(fd);
		close(pfd);
		return clyde_err(ctx, e,
				 "cannot open %s again: not the directory "
				 "clyde made",
				 s->path);
	}
	s->dirfd = fd;
	s->parentfd = pfd;
	return 0;
}

int clyde_rm_contents(struct clyde_ctx *ctx, int dirfd, const char *what)
{
	int fd = dup(dirfd);
	int ret = 0;
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return clyde_err(ctx, errno, "cannot read %s", what);
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return clyde_err(ctx, errno, "cannot read %s", what);
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		int sub;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (unlinkat(dirfd, n, 0) == 0 || errno == ENOENT)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			ret = clyde_err(ctx, errno, "cannot remove %s/%s", what,
					n);
			continue;
		}
		sub = openat(dirfd, n,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			ret = clyde_err(ctx, errno, "cannot open %s/%s", what,
					n);
			continue;
		}
		if (clyde_rm_contents(ctx, sub, what) < 0)
			ret = -EIO;
		close(sub);
		if (unlinkat(dirfd, n, AT_REMOVEDIR) < 0 && errno != ENOENT)
			ret = clyde_err(ctx, errno, "cannot remove %s/%s", what,
					n);
	}
	closedir(d);
	return ret;
}

int clyde_scratch_remove(struct clyde_ctx *ctx, struct clyde_scratch *s)
{
	int ret;

	if (!s)
		return 0;
	ret = clyde_rm_contents(ctx, s->dirfd, s->path);
	close(s->dirfd);
	if (unlinkat(s->parentfd, s->name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		ret = clyde_err(ctx, errno, "cannot remove %s", s->path);
	close(s->parentfd);
	free(s->path);
	free(s->name);
	free(s->parent);
	free(s);
	return ret;
}

/* The pid in "clyde.<pid>" or "clyde.<pid>.<n>", or 0 for another name. */
static long scratch_pid(const char *name)
{
	const char *p = name + 6;
	long pid = 0;

	if (strncmp(name, "clyde.", 6) || *p < '1' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (pid > 99999999)
			return 0;
		pid = pid * 10 + (*p - '0');
	}
	if (*p == '.') {
		if (!p[1])
			return 0;
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	}
	return *p ? 0 : pid;
}

/* Whether parentfd/name holds the CLYDE_SCRATCH_KEPT marker. */
static bool kept(int parentfd, const char *name)
{
	char path[NAME_MAX + sizeof(CLYDE_SCRATCH_KEPT) + 2];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", name, CLYDE_SCRATCH_KEPT);
	return fstatat(parentfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

int clyde_scratch_find_stale(struct clyde_ctx *ctx, int parentfd, char ***names,
			     size_t *n)
{
	int fd = dup(parentfd);
	size_t cap = 0;
	struct dirent *e;
	DIR *d;

	*names = NULL;
	*n = 0;
	if (fd < 0)
		return clyde_err(ctx, errno, "cannot read the directory");
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return clyde_err(ctx, errno, "cannot read the directory");
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		long pid = scratch_pid(e->d_name);
		struct stat st;

		if (!pid || pid == (long)getpid())
			continue;
		if (fstatat(parentfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) <
			    0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		/* EPERM: the process exists (another user's). */
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (kept(parentfd, e->d_name))
			continue;
		if (*n == cap) {
			char **nn = realloc(*names,
					    (cap ? cap * 2 : 4) * sizeof(*nn));

			if (!nn)
				break;
			*names = nn;
			cap = cap ? cap * 2 : 4;
		}
		if (!((*names)[*n] = strdup(e->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	return 0;
}

void clyde_scratch_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void clyde_scratch_keep(struct clyde_scratch *s)
{
	int fd = openat(s->dirfd, CLYDE_SCRATCH_KEPT,
			O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd >= 0)
		close(fd);
	close(s->dirfd);
	close(s->parentfd);
	free(s->path);
	free(s->name);
	free(s->parent);
	free(s);
}

bool clyde_scratch_inodes_fit(int dirfd, uint64_t need, uint64_t *avail)
{
	struct statvfs v;

	if (fstatvfs(dirfd, &v) < 0 || !v.f_files)
		return true; /* unknown: the writes will tell */
	*avail = (uint64_t)v.f_favail;
	return need <= *avail;
}
