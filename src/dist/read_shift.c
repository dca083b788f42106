/*
 * clyde-mpi --read-shift: where each rank finds the files of the rank
 * whose data it reads (run_dist.h, clyde_run_dist_read_from).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist/run_dist.h"

/* What every rank tells the others of its scratch directory. */
struct scratch_entry {
	char name[256];		    /* clyde.<pid>, "" when it has none */
	char path[CLYDE_DIST_PATH]; /* on its own host */
};

/* Is `path` a directory other than this rank's own scratch `own`? */
static bool other_dir(const char *path, const struct stat *own)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	       (st.st_dev != own->st_dev || st.st_ino != own->st_ino);
}

/* This rank's path to entry e's directory into rd->read_path; 0 or a
 * negative errno with the message in ctx. */
static int find_other(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
		      const struct clyde_scratch *s,
		      const struct scratch_entry *e)
{
	char via_own[CLYDE_DIST_PATH + 300];
	struct stat own;

	if (rd->d->shared) {
		snprintf(rd->read_path, sizeof(rd->read_path), "%s", s->path);
		return 0;
	}
	if (fstat(s->dirfd, &own) < 0)
		return clyde_err(ctx, errno, "%s", s->path);
	snprintf(via_own, sizeof(via_own), "%s/%s", rd->dir, e->name);
	if (strlen(via_own) < sizeof(rd->read_path) &&
	    other_dir(via_own, &own)) {
		snprintf(rd->read_path, sizeof(rd->read_path), "%s", via_own);
		return 0;
	}
	if (other_dir(e->path, &own)) {
		snprintf(rd->read_path, sizeof(rd->read_path), "%s", e->path);
		return 0;
	}
	return clyde_err(
		ctx, ENOENT,
		"--read-shift: rank %d cannot reach rank %d's "
		"scratch directory: neither %s nor %s is there (every "
		"rank's -d must name the same directory on the server, "
		"or be one shared filesystem)",
		rd->d->comm->rank, rd->read_rank, via_own, e->path);
}

int clyde_run_dist_read_from(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			     const struct clyde_scratch *s)
{
	struct clyde_dist *d = rd->d;
	struct clyde_comm *c = d->comm;
	struct scratch_entry mine = { "", "" }, *all;
	int ret = 0, r;

	rd->read_path[0] = '\0';
	rd->read_rank = c->rank;
	if (d->read_shift < 0)
		return 0;
	rd->read_rank = (int)((c->rank + d->read_shift) % c->size);
	if (s && strlen(s->name) < sizeof(mine.name) &&
	    strlen(s->path) < sizeof(mine.path)) {
		snprintf(mine.name, sizeof(mine.name), "%s", s->name);
		snprintf(mine.path, sizeof(mine.path), "%s", s->path);
	}
	/* Every rank takes part in both collectives, whatever failed. */
	all = calloc((size_t)c->size, sizeof(*all));
	if (c->rank == 0 && !d->read_from)
		d->read_from = calloc((size_t)c->size, sizeof(*d->read_from));
	/* Rank 0 must have where to gather into. */
	if (c->rank == 0 && !d->read_from)
		c->ops->abort(c, 1);
	if (!all)
		ret = clyde_err(ctx, ENOMEM, "--read-shift");
	r = c->ops->gather(c, &mine, sizeof(mine), all);
	if (!ret && r < 0)
		ret = clyde_err(ctx, -r,
				"--read-shift: cannot learn the "
				"ranks' scratch directories");
	if (all) {
		r = c->ops->bcast(c, all, (size_t)c->size * sizeof(*all));
		if (!ret && r < 0)
			ret = clyde_err(ctx, -r,
					"--read-shift: cannot learn the ranks' "
					"scratch directories");
	}
	/* A rank without a scratch directory failed its set-up and says
	 * so itself. */
	if (!ret && s && rd->read_rank != c->rank && all &&
	    all[rd->read_rank].name[0])
		ret = find_other(rd, ctx, s, &all[rd->read_rank]);
	free(all);
	r = c->ops->gather(c, rd->read_path, sizeof(rd->read_path),
			   d->read_from);
	if (!ret && r < 0)
		ret = clyde_err(ctx, -r, "--read-shift");
	return ret;
}
