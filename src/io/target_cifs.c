/*
 * An SMB mount (cifs, smb3): the block target's watch of the devices
 * below (when smbd is this machine, the stack's leaves are the shared
 * directory's disks), plus the share's entry of /proc/fs/cifs/Stats
 * read at the start and the end of every test (io/cifs_wire.h).  Evicting
 * a file evicts the client's pages (fsync sends the writes and a flush,
 * then DONTNEED) and, when the share is this machine's, the server's
 * pages of the same file (the share's path joined with the path below
 * the mount point: fdatasync, then DONTNEED), so that a read test reads
 * the server's disks and not its page cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env/stack_probe.h"
#include "io/cifs_wire.h"
#include "io/target.h"

struct cifs {
	void *block; /* the block target's state */
	struct clyde_cifs_wire before;
	bool have_before;
	unsigned evicted, missed; /* server-side, since the last end */
};

static bool cifs_claims(const struct clyde_stack *s,
			const struct clyde_target *t)
{
	(void)t;
	return s->has_fs &&
	       clyde_stack_fs_kind_of(s->fs.type) == &clyde_fs_cifs;
}

/* Run block target hook `call` on its own state. */
#define AS_BLOCK(w, call)                    \
	do {                                 \
		struct cifs *c_ = (w)->priv; \
		(w)->priv = c_->block;       \
		call;                        \
		c_->block = (w)->priv;       \
		(w)->priv = c_;              \
	} while (0)

static int cifs_open(struct clyde_target_watch *w,
		     const struct clyde_target_setup *setup)
{
	struct cifs *c = calloc(1, sizeof(*c));
	int rc = 0;

	if (!c)
		return -ENOMEM;
	w->priv = c;
	AS_BLOCK(w, rc = clyde_target_block.open(w, setup));
	return rc;
}

static void cifs_close(struct clyde_target_watch *w)
{
	struct cifs *c = w->priv;

	if (!c)
		return;
	if (c->block)
		AS_BLOCK(w, clyde_target_block.close(w));
	free(c);
}

static void cifs_settle(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			struct clyde_settle *out)
{
	AS_BLOCK(w, clyde_target_block.settle(ctx, w, out));
}

static void cifs_begin(struct clyde_target_watch *w)
{
	struct cifs *c = w->priv;
	const struct clyde_stack_fs *fs = &w->stack->fs;

	AS_BLOCK(w, clyde_target_block.begin(w));
	c->have_before = clyde_cifs_wire_read("", fs->cifs_server,
					      fs->cifs_share, &c->before) == 0;
}

static void cifs_end(struct clyde_target_watch *w,
		     const struct clyde_target_moved *out)
{
	struct cifs *c = w->priv;
	const struct clyde_stack_fs *fs = &w->stack->fs;
	struct clyde_cifs_moved *m = out->figs;
	struct clyde_cifs_wire *after;

	AS_BLOCK(w, clyde_target_block.end(w, out));
	if (!m)
		return;
	memset(m, 0, sizeof(*m));
	m->server_evicted = c->evicted;
	m->server_missed = c->missed;
	c->evicted = c->missed = 0;
	after = malloc(sizeof(*after));
	if (after && c->have_before &&
	    clyde_cifs_wire_read("", fs->cifs_server, fs->cifs_share, after) ==
		    0) {
		clyde_cifs_wire_diff(&c->before, after, &m->wire);
		m->measured = true;
	}
	free(after);
}

/* The share's counters now (a time series' readings): the bytes written
 * and read over the wire (the data, as the test's `smb` object counts
 * them) and the SMB requests; the entry kept off the stack. */
static void cifs_wire(struct clyde_target_watch *w,
		      struct clyde_series_wire *out)
{
	const struct clyde_stack_fs *fs = &w->stack->fs;
	struct clyde_cifs_wire *now = malloc(sizeof(*now));

	if (now && clyde_cifs_wire_read("", fs->cifs_server, fs->cifs_share,
					now) == 0) {
		out->sent = (int64_t)now->bytes_written;
		out->recv = (int64_t)now->bytes_read;
		out->rpcs = (int64_t)now->smbs;
	}
	free(now);
}

/* The server's copy of the client's file at fd, when smbd is this
 * machine: its path below the share's directory, opened; -1 when there
 * is none. */
static int server_file(const struct clyde_stack_fs *fs, int fd)
{
	char link[64], path[PATH_MAX], server[PATH_MAX];
	size_t mlen = strlen(fs->mount_point);
	ssize_t n;

	if (fs->cifs_local != 1 || !fs->cifs_share_dir[0])
		return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return -1;
	path[n] = '\0';
	if (strncmp(path, fs->mount_point, mlen) != 0 ||
	    (path[mlen] != '/' && path[mlen] != '\0'))
		return -1;
	if ((size_t)snprintf(server, sizeof(server), "%s%s", fs->cifs_share_dir,
			     path + mlen) >= sizeof(server))
		return -1;
	return open(server, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
}

static int cifs_evict_fd(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			 int fd, const char *path)
{
	struct cifs *c = w->priv;
	int rc = clyde_cache_evict_fd(ctx, fd, path);
	int sfd;

	if (rc < 0 || w->stack->fs.cifs_local != 1)
		return rc;
	/* The client's fsync has sent the data and a flush: what the
	 * server holds now is all of it. */
	sfd = server_file(&w->stack->fs, fd);
	if (sfd < 0 || fdatasync(sfd) < 0 ||
	    posix_fadvise(sfd, 0, 0, POSIX_FADV_DONTNEED) != 0)
		c->missed++;
	else
		c->evicted++;
	if (sfd >= 0)
		close(sfd);
	return 0;
}

static bool cifs_has_below(const struct clyde_target_watch *w)
{
	const struct cifs *c = w->priv;
	struct clyde_target_watch b = *w;

	b.priv = c->block;
	return clyde_target_block.has_below(&b);
}

static void cifs_below(struct clyde_target_watch *w, bool evict,
		       struct clyde_loopcache_seen *seen)
{
	AS_BLOCK(w, clyde_target_block.below(w, evict, seen));
}

const struct clyde_target_ops clyde_target_cifs = {
	.name = "cifs",
	.figs_size = sizeof(struct clyde_cifs_moved),
	.claims = cifs_claims,
	.open = cifs_open,
	.close = cifs_close,
	.settle = cifs_settle,
	.begin = cifs_begin,
	.end = cifs_end,
	.wire = cifs_wire,
	.evict_fd = cifs_evict_fd,
	.below = cifs_below,
	.has_below = cifs_has_below,
};
