/*
 * The one reader of /proc/self/mountinfo's lines (mountinfo.h).
 */
#include "env/mountinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/env.h"

int clyde_mountinfo_parse(char *line, struct clyde_mountinfo *mi)
{
	char *field[64];
	size_t n = 0, sep;
	char *save = NULL, *tok;

	for (tok = strtok_r(line, " \n", &save); tok && n < 64;
	     tok = strtok_r(NULL, " \n", &save))
		field[n++] = tok;
	/* id parent maj:min root mount_point opts [optional...] - fstype
	 * source super_opts */
	for (sep = 6; sep < n && strcmp(field[sep], "-") != 0; sep++)
		;
	if (sep + 2 >= n)
		return -EINVAL;
	if (sscanf(field[2], "%u:%u", &mi->major, &mi->minor) != 2)
		return -EINVAL;
	mi->mount_point = field[4];
	mi->opts = field[5];
	mi->fstype = field[sep + 1];
	mi->source = field[sep + 2];
	mi->super_opts = sep + 3 < n ? field[sep + 3] : (char *)"";
	clyde_mountinfo_unescape(mi->mount_point);
	clyde_mountinfo_unescape(mi->source);
	return 0;
}

int clyde_mountinfo_each(const char *path,
			 int (*fn)(void *arg, const char *line,
				   const struct clyde_mountinfo *mi),
			 void *arg)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *copy = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!f)
		return -errno;
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		struct clyde_mountinfo mi;

		free(copy);
		copy = strdup(line); /* parsing cuts the line up */
		if (!copy || clyde_mountinfo_parse(copy, &mi) != 0)
			continue;
		rc = fn(arg, line, &mi);
	}
	free(copy);
	free(line);
	fclose(f);
	return rc;
}
