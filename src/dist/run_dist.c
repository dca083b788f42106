/*
 * clyde run / clyde tree on the ranks of clyde-mpi (run_dist.h).
 */
#include "dist/run_dist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The user interrupted (the context's flag, which the command's signal
 * handler sets). */
static bool interrupted(const struct clyde_ctx *ctx)
{
	return ctx->interrupted && *ctx->interrupted;
}

bool clyde_run_dist_leader(const struct clyde_run_dist *rd)
{
	return !rd || !rd->d || rd->d->comm->rank == 0;
}

/* Open the scratch directory rank 0 made (--shared). */
static int open_shared(struct clyde_ctx *ctx, const char *parent,
		       const char *name, struct clyde_scratch **out)
{
	struct clyde_scratch *s = calloc(1, sizeof(*s));

	if (!s)
		return clyde_err(ctx, ENOMEM, "%s", parent);
	s->parentfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	s->dirfd = s->parentfd < 0 ? -1 :
				     openat(s->parentfd, name,
					    O_RDONLY | O_DIRECTORY |
						    O_NOFOLLOW | O_CLOEXEC);
	s->name = strdup(name);
	if (s->name && asprintf(&s->path, "%s/%s", parent, name) < 0)
		s->path = NULL;
	if (s->dirfd < 0 || !s->name || !s->path) {
		int e = s->dirfd < 0 ? errno : ENOMEM;

		if (s->parentfd >= 0)
			close(s->parentfd);
		free(s->name);
		free(s->path);
		free(s);
		return clyde_err(ctx, e, "--shared: cannot open rank 0's %s/%s",
				 parent, name);
	}
	*out = s;
	return 0;
}

/* Close a scratch directory another rank removes. */
static void close_shared(struct clyde_scratch *s)
{
	close(s->dirfd);
	close(s->parentfd);
	free(s->path);
	free(s->name);
	free(s);
}

/*
 * Tell rank 0 where every rank's scratch directory is, and every rank
 * where rank 0's is (collective: every rank calls it, made or not).  Only
 * for naming what a lost rank leaves, so a failure here costs nothing
 * else.
 */
static void share_where(struct clyde_run_dist *rd,
			const struct clyde_scratch *s)
{
	struct clyde_comm *c = rd->d->comm;
	char mine[CLYDE_RUN_DIST_WHERE];

	snprintf(mine, sizeof(mine), "%s:%s", c->host, s ? s->path : "");
	if (c->rank == 0)
		rd->where = calloc((size_t)c->size, sizeof(*rd->where));
	if (c->ops->gather(c, mine, sizeof(mine), rd->where) < 0 && rd->where) {
		free(rd->where);
		rd->where = NULL;
	}
	if (c->rank == 0)
		memcpy(rd->where0, mine, sizeof(mine));
	if (c->ops->bcast(c, rd->where0, sizeof(rd->where0)) < 0)
		rd->where0[0] = '\0';
}

/* --read-shift's directory (collective), after the scratch directory
 * made with status `ret`: the first error wins. */
static int read_from(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
		     const struct clyde_scratch *s, int ret)
{
	int r = clyde_run_dist_read_from(rd, ctx, ret ? NULL : s);

	return ret ? ret : r;
}

int clyde_run_dist_scratch(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			   const char *pattern, const char **dir,
			   uint64_t *seed, struct clyde_scratch **out)
{
	struct clyde_dist *d = rd->d;
	/* Seeds fit in 32 bits; the others' INT64_MIN lets rank 0's win. */
	int64_t s = d->comm->rank == 0 ? (int64_t)*seed : INT64_MIN;
	char name[256] = "";
	int ret;

	*out = NULL;
	/* A rank that failed before (its --json, -Z) announces it here. */
	ret = clyde_dist_agree(d, 0, &s);
	if (ret) {
		rd->failed = true;
		return ret < 0 ? ret : CLYDE_DIST_PEER_FAILED;
	}
	*seed = (uint64_t)s;
	ret = clyde_dist_expand(d->comm, pattern, rd->dir, sizeof(rd->dir));
	if (ret == -EINVAL)
		ret = clyde_err(ctx, EINVAL,
				"%s: only %%r (rank), %%h (host) and %%%% may "
				"follow a %%",
				pattern);
	else if (ret < 0)
		ret = clyde_err(ctx, -ret, "%s", pattern);
	if (!ret && mkdir(rd->dir, 0755) == 0)
		rd->made_dir = true;
	*dir = rd->dir;
	if (!d->shared) {
		if (!ret)
			ret = clyde_scratch_create(ctx, rd->dir, out);
		share_where(rd, *out);
		return read_from(rd, ctx, *out, ret);
	}
	/* Rank 0 makes the one directory, the others open it by name: the
	 * broadcast is collective, so every rank gets here even after an
	 * error above. */
	if (d->comm->rank == 0 && !ret &&
	    (ret = clyde_scratch_create(ctx, rd->dir, out)) == 0)
		snprintf(name, sizeof(name), "%s", (*out)->name);
	{
		int b = d->comm->ops->bcast(d->comm, name, sizeof(name));

		if (b < 0 && !ret)
			ret = clyde_err(ctx, -b,
					"--shared: cannot learn the "
					"scratch directory");
	}
	if (d->comm->rank != 0 && !ret) {
		if (!name[0])
			ret = clyde_err(ctx, 0,
					"--shared: rank 0 could not make the "
					"scratch directory");
		else
			ret = open_shared(ctx, rd->dir, name, out);
	}
	share_where(rd, *out);
	return read_from(rd, ctx, *out, ret);
}

/* The lost rank's scratch directory, "HOST:PATH", as this rank knows it
 * (NULL: not known here). */
static const char *lost_where(const struct clyde_run_dist *rd, int lost)
{
	const char *w = lost == 0 ? rd->where0 :
			rd->where ? rd->where[lost] :
				    NULL;

	return w && w[0] && w[strlen(w) - 1] != ':' ? w : NULL;
}

/* A rank was lost: the lowest rank still running says which and what it
 * leaves; the others stop quietly.  Returns the exit status. */
static int report_lost(struct clyde_run_dist *rd, int lost)
{
	struct clyde_comm *c = rd->d->comm;
	const char *w = lost_where(rd, lost);
	/* With --shared only rank 0 removes the one directory. */
	bool left = !rd->d->shared || lost == 0;

	if (c->rank != (lost == 0 ? 1 : 0))
		return rd->st.failed;
	snprintf(rd->msg, sizeof(rd->msg),
		 "rank %d was lost (killed, or its node went down); "
		 "the other ranks stop and remove %s%s%s%s",
		 lost,
		 rd->d->shared ? "what they made" : "their scratch directories",
		 left && w ? "; " : "", left && w ? "left: " : "",
		 left && w ? w : "");
	return rd->st.failed;
}

int clyde_run_dist_setup(struct clyde_run_dist *rd, int status,
			 uint64_t *size_mib)
{
	/* The size negated, so that the largest is the smallest size. */
	int64_t v = size_mib ? -(int64_t)*size_mib : INT64_MIN;
	int all;

	if (!rd || !rd->d || rd->setup_agreed)
		return status;
	rd->setup_agreed = true;
	if (rd->failed)
		return status ? status : rd->st.usage;
	all = clyde_dist_agree(rd->d, status, &v);
	if (all < 0)
		return rd->st.interrupted;
	if (size_mib && v != INT64_MIN)
		*size_mib = (uint64_t)-v;
	if (all)
		rd->failed = true;
	return all;
}

int clyde_run_dist_failed(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			  int ret)
{
	char lines[4096];
	bool intr = false;
	int rc;

	rd->msg[0] = '\0';
	if (ret == -EINTR || interrupted(ctx))
		ret = -EINTR;
	rc = clyde_dist_failures(rd->d, ret, clyde_errmsg(ctx), lines,
				 sizeof(lines), &intr);
	/* A lost rank is the news, even when mpirun's SIGTERM that follows
	 * the loss has arrived meanwhile. */
	if (rc < 0 && rd->d->comm->ops->lost_peer &&
	    rd->d->comm->ops->lost_peer(rd->d->comm) >= 0)
		return report_lost(rd,
				   rd->d->comm->ops->lost_peer(rd->d->comm));
	if (rc < 0 && ret == -EINTR) {
		/* Interrupted here too, and some rank did not answer in
		 * time (it ended first, or was slow to see the signal): the
		 * interruption is the news, not the lost communicator. */
		if (rd->d->comm->rank == 0)
			snprintf(rd->msg, sizeof(rd->msg),
				 "interrupted; removing the scratch "
				 "directories (not every rank answered: %s)",
				 strerror(-rc));
		return rd->st.interrupted;
	}
	if (rc < 0) {
		/* The communicator is gone (a rank was killed): say what is
		 * known here. */
		snprintf(rd->msg, sizeof(rd->msg),
			 "rank %d on %s: lost the other ranks (%s)%s%s",
			 rd->d->comm->rank, rd->d->comm->host, strerror(-rc),
			 *clyde_errmsg(ctx) ? "; here: " : "",
			 clyde_errmsg(ctx));
		return rc == -EINTR ? rd->st.interrupted : rd->st.failed;
	}
	if (rd->d->comm->rank == 0)
		snprintf(rd->msg, sizeof(rd->msg), "%s",
			 intr	  ? "interrupted; removing the scratch "
				    "directories" :
			 lines[0] ? lines :
				    "a rank failed");
	return intr ? rd->st.interrupted : rd->st.failed;
}

int clyde_run_dist_remove(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			  struct clyde_scratch *scratch)
{
	struct clyde_dist *d = rd ? rd->d : NULL;
	int ret = 0;

	if (!d)
		return clyde_scratch_remove(ctx, scratch);
	rd->removed = true;
	if (!d->shared || d->comm->rank == 0)
		ret = clyde_scratch_remove(ctx, scratch);
	else if (scratch)
		close_shared(scratch);
	/* Every rank's scratch is gone before a made directory is removed
	 * (ranks of one host share a %h directory).  A broken communicator
	 * skips the wait: rmdir then fails on what others still hold. */
	clyde_dist_agree(d, 0, NULL);
	if (rd->made_dir && rmdir(rd->dir) < 0 && errno != ENOENT &&
	    errno != ENOTEMPTY && errno != EEXIST && !ret)
		ret = clyde_err(ctx, errno, "cannot remove %s", rd->dir);
	return ret;
}

int clyde_run_dist_finish(struct clyde_run_dist *rd, struct clyde_ctx *ctx,
			  int status)
{
	if (!rd || !rd->d)
		return status;
	status = clyde_run_dist_setup(rd, status, NULL);
	if (!rd->removed)
		clyde_run_dist_remove(rd, ctx, NULL);
	free(rd->where);
	rd->where = NULL;
	return status;
}

void clyde_run_dist_remove_early(struct clyde_run_dist *rd,
				 struct clyde_ctx *ctx,
				 struct clyde_scratch *scratch)
{
	if (!rd->d || rd->d->shared || !interrupted(ctx) || !scratch)
		return;
	clyde_rm_contents(ctx, scratch->dirfd, scratch->path);
	unlinkat(scratch->parentfd, scratch->name, AT_REMOVEDIR);
	/* Other ranks of the host may still use a %h directory. */
	if (rd->made_dir && rmdir(rd->dir) == 0)
		rd->made_dir = false;
}
