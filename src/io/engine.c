#include "io/engine.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static ssize_t psync_read(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n < 0 ? -errno : n;
}

static ssize_t psync_write(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t n = pwrite(fd, buf, len, off);

	return n < 0 ? -errno : n;
}

static int psync_sync(int fd)
{
	return fsync(fd) < 0 ? -errno : 0;
}

const struct clyde_engine_ops clyde_engine_psync = {
	.name = "psync",
	.read = psync_read,
	.write = psync_write,
	.sync = psync_sync,
};

static const struct clyde_engine_ops *const engines[] = {
	&clyde_engine_psync,
};

const struct clyde_engine_ops *clyde_engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

int clyde_engine_read_full(const struct clyde_engine_ops *e, int fd, void *buf,
			   size_t len, off_t off)
{
	char *p = buf;

	while (len) {
		ssize_t n = e->read(fd, p, len, off);

		if (n == -EINTR)
			continue;
		if (n < 0)
			return (int)n;
		if (n == 0)
			return -ENODATA;
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

int clyde_engine_write_full(const struct clyde_engine_ops *e, int fd,
			    const void *buf, size_t len, off_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = e->write(fd, p, len, off);

		if (n == -EINTR)
			continue;
		if (n < 0)
			return (int)n;
		if (n == 0)
			return -EIO;
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}
