/*
 * clyde_slurp() and its variants (slurp.h).
 */
#include "core/slurp.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Read f to its end or past max; *err is set to the read error (0 when
 * none, the reading ends there).  Returns 0 or -ENOMEM. */
static int read_all(FILE *f, size_t max, char **out, size_t *len, int *err)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;

	*err = 0;
	for (;;) {
		size_t got, room;

		if (n + 4096 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 16384;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
		}
		/* One byte past max is enough to know. */
		room = cap - n - 1 < max + 1 - n ? cap - n - 1 : max + 1 - n;
		errno = 0;
		got = fread(buf + n, 1, room, f);
		n += got;
		if (got == 0 || n > max)
			break;
	}
	if (ferror(f))
		*err = errno ? errno : EIO;
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int clyde_slurp(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	size_t n = 0;
	int rc, err;

	*out = NULL;
	if (len)
		*len = 0;
	if (!f)
		return -errno;
	rc = read_all(f, SIZE_MAX - 1, out, &n, &err);
	fclose(f);
	if (len)
		*len = n;
	return rc;
}

int clyde_slurp_stream(FILE *f, size_t max, char **out, size_t *len)
{
	size_t n = 0;
	int rc, err;

	*out = NULL;
	if (len)
		*len = 0;
	rc = read_all(f, max, out, &n, &err);
	if (rc == 0 && (err || n > max)) {
		free(*out);
		*out = NULL;
		return err ? -err : -EFBIG;
	}
	if (len)
		*len = n;
	return rc;
}

ssize_t clyde_slurp_into(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	size_t got;

	buf[0] = '\0';
	if (!f)
		return -errno;
	got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
	return (ssize_t)got;
}
