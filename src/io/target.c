/*
 * The table of target kinds and the calls a workload makes, each handed
 * to the watch's kind (io/target.h).  A kind is asked in table order; the
 * block device, last, claims everything.
 */
#include "io/target.h"

#include <errno.h>
#include <string.h>

static const struct clyde_target_ops *const kinds[] = {
	&clyde_target_nfs,
	&clyde_target_cifs,
	&clyde_target_zfs,
	&clyde_target_block,
};

#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct clyde_target_ops *const *clyde_target_kinds(size_t *n)
{
	*n = N_KINDS;
	return kinds;
}

const struct clyde_target_ops *clyde_target_find(const struct clyde_stack *s,
						 const struct clyde_target *t)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (kinds[i]->claims(s, t))
			return kinds[i];
	return &clyde_target_block;
}

int clyde_target_open(struct clyde_ctx *ctx, struct clyde_target_watch *w,
		      const struct clyde_target_setup *setup)
{
	int rc;

	memset(w, 0, sizeof(*w));
	w->ops = clyde_target_find(setup->stack, setup->target);
	w->target = setup->target;
	w->stack = setup->stack;
	w->what = setup->what;
	rc = w->ops->open(w, setup);
	if (rc < 0) {
		clyde_target_close(w);
		return clyde_err(ctx, -rc, "%s target of %s", w->ops->name,
				 setup->target->path);
	}
	return 0;
}

void clyde_target_close(struct clyde_target_watch *w)
{
	if (w->ops && w->ops->close)
		w->ops->close(w);
	w->priv = NULL;
}

void clyde_target_settle(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			 struct clyde_settle *out)
{
	if (w->ops->settle)
		w->ops->settle(ctx, w, out);
}

void clyde_target_begin(struct clyde_target_watch *w)
{
	if (w->ops->begin)
		w->ops->begin(w);
}

void clyde_target_end(struct clyde_target_watch *w,
		      const struct clyde_target_moved *out)
{
	if (w->ops->end)
		w->ops->end(w, out);
}

int clyde_target_evict_all(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			   const struct clyde_target_hold *hold, void *figs)
{
	if (w->ops->evict_all)
		return w->ops->evict_all(ctx, w, hold, figs);
	return 0;
}

int clyde_target_evict_fd(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			  int fd, const char *path)
{
	if (w->ops->evict_fd)
		return w->ops->evict_fd(ctx, w, fd, path);
	return clyde_cache_evict_fd(ctx, fd, path);
}

int clyde_target_residency_fd(struct clyde_ctx *ctx,
			      struct clyde_target_watch *w, int fd,
			      uint64_t *resident_bytes, uint64_t *total_bytes)
{
	if (w->ops->residency_fd)
		return w->ops->residency_fd(ctx, w, fd, resident_bytes,
					    total_bytes);
	return clyde_cache_residency_fd(ctx, fd, resident_bytes, total_bytes);
}

int clyde_target_evict_dir(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			   int dirfd, const char *path,
			   struct clyde_cache_dir_stats *stats)
{
	if (w->ops->evict_dir)
		return w->ops->evict_dir(ctx, w, dirfd, path, stats);
	return clyde_cache_evict_dir(ctx, dirfd, path, stats);
}

int clyde_target_drop_all(struct clyde_ctx *ctx, struct clyde_target_watch *w)
{
	if (w->ops->drop_all)
		return w->ops->drop_all(ctx, w);
	return clyde_cache_drop_all(ctx);
}

void clyde_target_wire(void *arg, struct clyde_series_wire *out)
{
	struct clyde_target_watch *w = arg;

	*out = (struct clyde_series_wire){ -1, -1, -1 };
	if (w && w->ops && w->ops->wire)
		w->ops->wire(w, out);
}

bool clyde_target_has_wire(const struct clyde_target_watch *w)
{
	return w && w->ops && w->ops->wire;
}

bool clyde_target_has_below(const struct clyde_target_watch *w)
{
	return w->ops->has_below && w->ops->has_below(w);
}

void clyde_target_below(struct clyde_target_watch *w, bool evict,
			struct clyde_loopcache_seen *seen)
{
	memset(seen, 0, sizeof(*seen));
	if (w->ops->below)
		w->ops->below(w, evict, seen);
}

bool clyde_target_cache_is_storage(const struct clyde_target_watch *w, int fd)
{
	if (w->ops->cache_is_storage)
		return w->ops->cache_is_storage(w, fd);
	return clyde_cache_is_memory_fs(fd);
}

void clyde_target_server(struct clyde_target_watch *w, bool evict,
			 struct clyde_server_cache *seen)
{
	memset(seen, 0, sizeof(*seen));
	if (w->ops->server)
		w->ops->server(w, evict, seen);
}
