/*
 * The per-share SMB statistics of /proc/fs/cifs/Stats (io/cifs_wire.h).
 * A share's entry starts "N) \\server\share" and ends at the next entry
 * or the end of the file; its lines are "SMBs: N", "Bytes read: N  Bytes
 * written: N" and "Name: N total M failed" ("OplockBreaks: N sent M
 * failed").
 */
#include "io/cifs_wire.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Is `line` an entry's first line, "N) \\..."?  Then *unc is its name. */
static bool entry_start(const char *line, const char **unc)
{
	const char *p = line + strspn(line, "0123456789");

	if (p == line || strncmp(p, ") \\\\", 4) != 0)
		return false;
	*unc = p + 2;
	return true;
}

int clyde_cifs_wire_read(const char *root, const char *server,
			 const char *share, struct clyde_cifs_wire *out)
{
	char path[PATH_MAX], line[1024], want[600];
	bool in = false, found = false;
	FILE *f;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/proc/fs/cifs/Stats", root);
	snprintf(want, sizeof(want), "\\\\%s\\%s", server, share);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *unc;
		struct clyde_cifs_op op;
		char name[32];

		line[strcspn(line, "\r\n")] = '\0';
		if (entry_start(line, &unc)) {
			if (found)
				break;
			in = found = !strcasecmp(unc, want);
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "SMBs: %" SCNu64, &out->smbs) == 1)
			continue;
		if (sscanf(line,
			   "Bytes read: %" SCNu64 " Bytes written: %" SCNu64,
			   &out->bytes_read, &out->bytes_written) == 2)
			continue;
		memset(&op, 0, sizeof(op));
		if (out->nops < CLYDE_CIFS_WIRE_MAX_OPS &&
		    (sscanf(line,
			    "%31[A-Za-z]: %" SCNu64 " total %" SCNu64 " failed",
			    name, &op.total, &op.failed) == 3 ||
		     sscanf(line,
			    "%31[A-Za-z]: %" SCNu64 " sent %" SCNu64 " failed",
			    name, &op.total, &op.failed) == 3)) {
			snprintf(op.name, sizeof(op.name), "%s", name);
			out->op[out->nops++] = op;
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

const struct clyde_cifs_op *clyde_cifs_wire_op(const struct clyde_cifs_wire *w,
					       const char *name)
{
	for (size_t i = 0; i < w->nops; i++)
		if (!strcmp(w->op[i].name, name))
			return &w->op[i];
	return NULL;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void clyde_cifs_wire_diff(const struct clyde_cifs_wire *before,
			  const struct clyde_cifs_wire *after,
			  struct clyde_cifs_wire *out)
{
	static const struct clyde_cifs_op zero;

	memset(out, 0, sizeof(*out));
	out->smbs = sub(after->smbs, before->smbs);
	out->bytes_read = sub(after->bytes_read, before->bytes_read);
	out->bytes_written = sub(after->bytes_written, before->bytes_written);
	for (size_t i = 0; i < after->nops; i++) {
		const struct clyde_cifs_op *a = &after->op[i];
		const struct clyde_cifs_op *b =
			clyde_cifs_wire_op(before, a->name);
		struct clyde_cifs_op *o = &out->op[out->nops++];

		if (!b)
			b = &zero;
		snprintf(o->name, sizeof(o->name), "%s", a->name);
		o->total = sub(a->total, b->total);
		o->failed = sub(a->failed, b->failed);
	}
}
