/*
 * clyde_slurp() (slurp.h).
 */
#include "core/slurp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int clyde_slurp(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	size_t cap = 0, n = 0;
	char *buf = NULL;

	*out = NULL;
	if (len)
		*len = 0;
	if (!f)
		return -errno;
	for (;;) {
		size_t got;

		if (n + 4096 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 16384;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}
