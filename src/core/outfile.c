/*
 * Output files written through a temporary file and a rename; see
 * outfile.h for the contract.
 */
#include "core/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file's name: ".NAME.tmp.XXXXXX" in path's directory, so
 * that the rename never crosses a filesystem and a listing hides it. */
static char *tmp_name(const char *path)
{
	char *a = strdup(path), *b = strdup(path), *out = NULL;

	if (a && b) {
		const char *dir = dirname(a), *base = basename(b);

		if (asprintf(&out, "%s/.%s.tmp.XXXXXX", dir, base) < 0)
			out = NULL;
	}
	free(a);
	free(b);
	return out;
}

int clyde_outfile_open(struct clyde_outfile *o, const char *path)
{
	struct stat st;
	mode_t mask;
	int fd, rc;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = stdout;
		o->is_stdout = 1;
		return 0;
	}
	if (!*path)
		return -ENOENT;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		/* A device or a FIFO (/dev/null, /dev/stdout, a pipe the
		 * user made) is written in place: renaming over it would
		 * replace the device with a regular file. */
		if (!S_ISREG(st.st_mode)) {
			o->f = fopen(path, "we");
			if (!o->f)
				return -errno;
			o->is_direct = 1;
			return 0;
		}
		/* A symlink to a regular file keeps pointing at it: the
		 * rename goes over its target. */
		o->path = realpath(path, NULL);
	}
	if (!o->path)
		o->path = strdup(path);
	o->tmp = tmp_name(o->path ? o->path : path);
	if (!o->path || !o->tmp) {
		clyde_outfile_abort(o);
		return -ENOMEM;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		free(o->tmp);
		o->tmp = NULL;
		clyde_outfile_abort(o);
		return rc;
	}
	/* mkstemp makes it 0600; a result is for sharing. */
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		rc = -errno;
		close(fd);
		clyde_outfile_abort(o);
		return rc;
	}
	return 0;
}

int clyde_outfile_commit(struct clyde_outfile *o)
{
	int rc = 0;

	if (!o->f)
		return -EBADF;
	if (o->is_stdout) {
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = errno ? -errno : -EIO;
		o->f = NULL;
		return rc;
	}
	if (o->is_direct) {
		if (fflush(o->f) != 0 || ferror(o->f))
			rc = errno ? -errno : -EIO;
		if (fclose(o->f) != 0 && !rc)
			rc = -errno;
		o->f = NULL;
		return rc;
	}
	if (fflush(o->f) != 0 || ferror(o->f))
		rc = errno ? -errno : -EIO;
	if (!rc && fsync(fileno(o->f)) != 0)
		rc = -errno;
	if (fclose(o->f) != 0 && !rc)
		rc = -errno;
	o->f = NULL;
	if (!rc && rename(o->tmp, o->path) != 0)
		rc = -errno;
	if (rc)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	free(o->path);
	o->path = NULL;
	return rc;
}

void clyde_outfile_abort(struct clyde_outfile *o)
{
	if (o->f && !o->is_stdout)
		fclose(o->f);
	o->is_direct = 0;
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	free(o->path);
	o->path = NULL;
}

/* Whether `name` is ".BASE.tmp." and six more characters. */
static bool is_tmp_of(const char *name, const char *base)
{
	size_t b = strlen(base);

	return name[0] == '.' && !strncmp(name + 1, base, b) &&
	       !strncmp(name + 1 + b, ".tmp.", 5) &&
	       strlen(name + 1 + b + 5) == 6;
}

int clyde_outfile_find_stale(const char *path, char ***names, size_t *n)
{
	char *real = NULL, *a = NULL, *b = NULL, **v;
	const char *dir, *base;
	struct dirent *de;
	struct stat st;
	DIR *d = NULL;
	int rc = 0;

	*names = NULL;
	*n = 0;
	if (!strcmp(path, "-") || !*path)
		return 0;
	/* As clyde_outfile_open(): a symlink's temporaries are beside its
	 * target; a device or a FIFO is written in place, without one. */
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return 0;
		real = realpath(path, NULL);
	}
	a = strdup(real ? real : path);
	b = strdup(real ? real : path);
	if (!a || !b) {
		rc = -ENOMEM;
		goto out;
	}
	dir = dirname(a);
	base = basename(b);
	d = opendir(dir);
	if (!d)
		goto out; /* no directory: nothing was left in it */
	while ((de = readdir(d))) {
		char *p;

		if (!is_tmp_of(de->d_name, base) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		v = realloc(*names, (*n + 1) * sizeof(*v));
		if (!v || asprintf(&p, "%s/%s", dir, de->d_name) < 0) {
			if (v)
				*names = v;
			rc = -ENOMEM;
			break;
		}
		*names = v;
		(*names)[(*n)++] = p;
	}
out:
	if (d)
		closedir(d);
	free(real);
	free(a);
	free(b);
	return rc;
}

void clyde_outfile_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int clyde_outfile_write_all(const char *path, const void *buf, size_t len)
{
	struct clyde_outfile o;
	int rc = clyde_outfile_open(&o, path);

	if (rc < 0)
		return rc;
	if (len && fwrite(buf, 1, len, o.f) != len) {
		rc = errno ? -errno : -EIO;
		clyde_outfile_abort(&o);
		return rc;
	}
	return clyde_outfile_commit(&o);
}

/* ---- a destination kept across a privilege drop ------------------------ */

int clyde_outdest_open(struct clyde_outdest *d, const char *path, bool drop)
{
	struct stat st;
	int rc;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->path = path;
	if (!drop || !strcmp(path, "-")) {
		rc = clyde_outfile_open(&d->of, path);
		d->open = rc == 0;
		return rc;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return -EISDIR;
	d->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (d->fd >= 0)
		d->created = true;
	else if (errno == EEXIST)
		d->fd = open(path, O_WRONLY | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	d->open = true;
	return 0;
}

void clyde_outdest_abort(struct clyde_outdest *d)
{
	if (!d->open)
		return;
	if (d->fd >= 0) {
		close(d->fd);
		if (d->created)
			unlink(d->path);
	} else {
		clyde_outfile_abort(&d->of);
	}
	d->open = false;
}

/* Write doc to a descriptor from offset 0, keeping the old content when
 * the space cannot be had.  0 or -errno. */
static int write_in_place(int fd, const char *doc, size_t len)
{
	size_t done = 0;
	int rc = len ? posix_fallocate(fd, 0, (off_t)len) : 0;

	if (rc && rc != EOPNOTSUPP && rc != EINVAL)
		return -rc;
	while (done < len) {
		ssize_t w = pwrite(fd, doc + done, len - done, (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		done += (size_t)w;
	}
	if (ftruncate(fd, (off_t)len) < 0 || fsync(fd) < 0)
		return -errno;
	return 0;
}

int clyde_outdest_commit(struct clyde_outdest *d, const char *doc, size_t len)
{
	int rc;

	if (d->fd >= 0) {
		rc = write_in_place(d->fd, doc, len);
		if (close(d->fd) < 0 && !rc)
			rc = -errno;
		d->fd = -1;
	} else if (len && fwrite(doc, 1, len, d->of.f) != len) {
		rc = errno ? -errno : -EIO;
		clyde_outfile_abort(&d->of);
	} else {
		rc = clyde_outfile_commit(&d->of);
	}
	d->open = false;
	return rc;
}

bool clyde_outdest_atomic(const struct clyde_outdest *d)
{
	return d->fd < 0 && strcmp(d->path, "-");
}

long long clyde_outfile_copy_old(struct clyde_outfile *o)
{
	const char *path = o->path;
	FILE *f = o->f;
	char buf[65536];
	struct stat st;
	long long total = 0;
	size_t n;
	int last = '\n';
	FILE *in = fopen(path, "re");

	if (!in)
		return errno == ENOENT ? 0 : -1;
	/* The file keeps its mode across the rename. */
	if (fstat(fileno(in), &st) == 0)
		(void)fchmod(fileno(f), st.st_mode & 07777);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		if (fwrite(buf, 1, n, f) != n) {
			fclose(in);
			return -1;
		}
		total += (long long)n;
		last = buf[n - 1];
	}
	if (ferror(in)) {
		fclose(in);
		errno = EIO;
		return -1;
	}
	fclose(in);
	if (last != '\n' && fputc('\n', f) == EOF)
		return -1;
	return total;
}
