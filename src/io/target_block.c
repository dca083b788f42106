/*
 * A block device under the page cache: the target's device and the
 * stack's leaves counted from /sys/class/block/X/stat (env/env.h,
 * env/members.h), clyde's own share by the kernel's accounting
 * (env/ownio.h), idle when those devices are quiet (env/settle.h), the
 * page cache dropped and measured with fadvise and mincore (io/cache.h),
 * and the backing files of loop devices without direct I/O below
 * (io/loopcache.h).  Also a target with no device below (tmpfs, overlay):
 * then there is nothing to count.
 */
#include <errno.h>
#include <stdlib.h>

#include "env/members_virt.h"
#include "io/target.h"

struct block {
	struct clyde_member_watch members; /* the leaf devices below */
	struct clyde_loopcache loops;	   /* ... that are loops without dio */
	struct clyde_own_watch own;	   /* clyde's own I/O */
	struct clyde_settle_watch settle;  /* the devices to let settle */
	struct clyde_devstat dev0;	   /* the target's device at begin */
	bool have_dev;
};

static bool block_claims(const struct clyde_stack *s,
			 const struct clyde_target *t)
{
	(void)s;
	(void)t;
	return true;
}

static int block_open(struct clyde_target_watch *w,
		      const struct clyde_target_setup *setup)
{
	struct block *b = calloc(1, sizeof(*b));
	struct clyde_virt unused;

	if (!b)
		return -ENOMEM;
	w->priv = b;
	clyde_members_init(&b->members, NULL);
	if (w->what & CLYDE_TARGET_MEMBERS)
		clyde_members_setup(&b->members, setup->stack,
				    setup->virt ? setup->virt : &unused);
	if (w->what & CLYDE_TARGET_LOOPS)
		clyde_loopcache_find(&b->loops, &b->members);
	if (w->what & CLYDE_TARGET_OWN)
		clyde_own_setup_run(&b->own, &b->members, setup->target);
	if (w->what & CLYDE_TARGET_SETTLE) {
		clyde_settle_init(&b->settle, NULL, setup->settle_ns);
		if (setup->target->has_block_device)
			clyde_settle_add(&b->settle, setup->target->block_dev);
		for (unsigned i = 0; i < b->members.n; i++)
			clyde_settle_add(&b->settle, b->members.name[i]);
	}
	return 0;
}

static void block_close(struct clyde_target_watch *w)
{
	struct block *b = w->priv;

	if (b)
		clyde_own_close(&b->own);
	free(w->priv);
}

static void block_settle(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			 struct clyde_settle *out)
{
	struct block *b = w->priv;

	if (w->what & CLYDE_TARGET_SETTLE)
		clyde_settle_wait(ctx, &b->settle, out);
}

static void block_begin(struct clyde_target_watch *w)
{
	struct block *b = w->priv;

	b->have_dev = clyde_devstat_read(w->target, &b->dev0) == 0;
	if (w->what & CLYDE_TARGET_MEMBERS)
		clyde_members_begin(&b->members);
	if (w->what & CLYDE_TARGET_OWN)
		clyde_own_begin(&b->own);
}

static void block_end(struct clyde_target_watch *w,
		      const struct clyde_target_moved *out)
{
	struct block *b = w->priv;
	struct clyde_devstat dev1;

	if (out->dev) {
		if (b->have_dev &&
		    clyde_devstat_read_after(w->target, &dev1) == 0)
			clyde_devstat_delta(&b->dev0, &dev1, out->dev);
		else
			out->dev->have_device = false;
	}
	if ((w->what & CLYDE_TARGET_MEMBERS) && out->members)
		clyde_members_end(&b->members, out->members);
	if ((w->what & CLYDE_TARGET_OWN) && out->own)
		clyde_own_end(&b->own, out->own);
}

static bool block_has_below(const struct clyde_target_watch *w)
{
	const struct block *b = w->priv;

	return b->loops.n > 0;
}

static void block_below(struct clyde_target_watch *w, bool evict,
			struct clyde_loopcache_seen *seen)
{
	struct block *b = w->priv;

	clyde_loopcache_prepare(&b->loops, evict, seen);
}

/* The cache hooks are the page cache's: io/target.c's defaults. */
const struct clyde_target_ops clyde_target_block = {
	.name = "block",
	.claims = block_claims,
	.open = block_open,
	.close = block_close,
	.settle = block_settle,
	.begin = block_begin,
	.end = block_end,
	.below = block_below,
	.has_below = block_has_below,
};
