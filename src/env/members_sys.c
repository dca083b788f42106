#include "env/members_sys.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/slurp.h"

__attribute__((format(printf, 4, 0))) static int
vpath(const char *root, char *buf, size_t n, const char *fmt, va_list ap)
{
	char rel[4096];
	int len;

	len = vsnprintf(rel, sizeof(rel), fmt, ap);
	if (len < 0 || (size_t)len >= sizeof(rel))
		return -ENAMETOOLONG;
	len = snprintf(buf, n, "%s%s", root ? root : "", rel);
	if (len < 0 || (size_t)len >= n)
		return -ENAMETOOLONG;
	return 0;
}

int clyde_sys_path(const char *root, char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(root, buf, n, fmt, ap);
	va_end(ap);
	return ret;
}

static int read_whole(const char *path, char *buf, size_t n)
{
	ssize_t got = clyde_slurp_into(path, buf, n);

	if (got < 0)
		return (int)got;
	while (got && isspace((unsigned char)buf[got - 1]))
		buf[--got] = '\0';
	return 0;
}

int clyde_sys_text(const char *root, char *buf, size_t n, const char *fmt, ...)
{
	char path[4200];
	va_list ap;
	int ret;

	buf[0] = '\0';
	va_start(ap, fmt);
	ret = vpath(root, path, sizeof(path), fmt, ap);
	va_end(ap);
	return ret ? ret : read_whole(path, buf, n);
}

int clyde_sys_u64(const char *root, uint64_t *out, const char *fmt, ...)
{
	char path[4200], buf[64], *end;
	unsigned long long v;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(root, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (!ret)
		ret = read_whole(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (end == buf || *end || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

int clyde_sys_link_base(const char *root, char *buf, size_t n, const char *fmt,
			...)
{
	char path[4200], link[4096];
	const char *base;
	va_list ap;
	ssize_t len;
	int ret;

	buf[0] = '\0';
	va_start(ap, fmt);
	ret = vpath(root, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	len = readlink(path, link, sizeof(link) - 1);
	if (len < 0)
		return -errno;
	link[len] = '\0';
	base = strrchr(link, '/');
	snprintf(buf, n, "%s", base ? base + 1 : link);
	return 0;
}

void clyde_sys_copy(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);

	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}
