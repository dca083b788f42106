/*
 * Attribute reading for the stack walker: every path is
 * ROOT/sys/class/block/DEV/ATTR, ROOT being "" outside tests.
 */
#include "env/stack_sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clyde_stack_copy(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);

	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

ssize_t clyde_sysfs_text(const char *root, const char *dev, const char *attr,
			 char *buf, size_t n)
{
	char path[PATH_MAX];
	FILE *f;
	size_t got, start = 0;

	snprintf(path, sizeof(path), "%s/sys/class/block/%s/%s", root, dev,
		 attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	got = fread(buf, 1, n - 1, f);
	if (ferror(f)) {
		/* Some attributes refuse reads (write-only, EIO). */
		fclose(f);
		buf[0] = '\0';
		return -EIO;
	}
	fclose(f);
	buf[got] = '\0';
	while (got && isspace((unsigned char)buf[got - 1]))
		buf[--got] = '\0';
	while (isspace((unsigned char)buf[start]))
		start++;
	if (start)
		memmove(buf, buf + start, got - start + 1);
	return (ssize_t)(got - start);
}

int clyde_sysfs_u64(const char *root, const char *dev, const char *attr,
		    uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;

	if (clyde_sysfs_text(root, dev, attr, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (end == buf || errno || buf[0] == '-')
		return -EINVAL;
	*out = v;
	return 0;
}

int clyde_sysfs_u32(const char *root, const char *dev, const char *attr,
		    uint32_t *out)
{
	uint64_t v;
	int rc = clyde_sysfs_u64(root, dev, attr, &v);

	if (rc)
		return rc;
	if (v > UINT32_MAX)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

void clyde_sysfs_selected(const char *list, char *out, size_t n)
{
	const char *open = strchr(list, '['), *close;

	if (open && (close = strchr(open, ']')) != NULL) {
		size_t len = (size_t)(close - open - 1);

		if (len >= n)
			len = n - 1;
		memcpy(out, open + 1, len);
		out[len] = '\0';
		return;
	}
	clyde_stack_copy(out, n, list);
}
