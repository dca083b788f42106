/*
 * An NFS mount (issue 34): what went over the wire in each test, from the
 * mount's entry of /proc/self/mountstats (io/nfs_wire.h) at its start and
 * end; when the server is this machine (the export is in its
 * /var/lib/nfs/etab, env/fs_nfs.c), the exported filesystem's disks are
 * the stack's leaves and counted as a block target counts them
 * (target_block.c, which this kind wraps), and the server's page cache of
 * the test's files is dropped before each read-side test.
 *
 * The client's cache is the page cache of the mount: evicted as on any
 * filesystem (fsync, which sends the writes and a COMMIT, then fadvise
 * DONTNEED).  The server's: each file evicted or measured on the client
 * is remembered by its path (/proc/self/fd), and before the test the
 * same file on the server's side (the export's directory joined with the
 * path below the mount point) is written back (fdatasync: an async export
 * leaves the server's pages dirty), evicted (fadvise DONTNEED: only that
 * file's pages, not the machine's) and measured with mincore.  A server
 * elsewhere cannot be reached: the result says "not controlled".
 *
 * clyde's own share (CLYDE_TARGET_OWN) is not taken: the server's disks
 * are written by nfsd, not by clyde's process, so they are counted whole.
 *
 * The kind's figures in the outputs and under clyde-mpi are in
 * target_nfs_out.c (clyde_nfs_figs), a file only this kind uses.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/target.h"

struct seen_path {
	char *path; /* the client's, absolute */
	bool dir;   /* a file test's directory */
};

struct nfs {
	struct clyde_target_watch inner; /* the block kind: server's disks */
	char mp[1024];			 /* the mount point */
	char export_dir[512];		 /* the server's side; "" remote */
	char why[128];			 /* when export_dir is "" */
	bool have_w0, have_nfsd, have_cpu0;
	uint64_t packets0, woken0; /* nfsd's at begin (local server) */
	uint64_t cpu0_ns;	   /* nfsd threads' CPU time at begin */
	struct clyde_nfs_wire w0;  /* at begin */
	struct clyde_nfs_wire w1;  /* at end (kept off the stack) */
	struct clyde_nfs_wire d;
	struct seen_path *paths; /* since the last server() */
	size_t n, cap;
};

static bool nfs_claims(const struct clyde_stack *s,
		       const struct clyde_target *t)
{
	(void)t;
	return s->has_fs &&
	       (!strcmp(s->fs.type, "nfs") || !strcmp(s->fs.type, "nfs4"));
}

static int nfs_open(struct clyde_target_watch *w,
		    const struct clyde_target_setup *setup)
{
	struct clyde_target_setup inner = *setup;
	const struct clyde_stack_fs *fs = &setup->stack->fs;
	struct nfs *n = calloc(1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	w->priv = n;
	snprintf(n->mp, sizeof(n->mp), "%s", fs->mount_point);
	if (fs->nfs_local == 1 && fs->nfs_export_dir[0])
		snprintf(n->export_dir, sizeof(n->export_dir), "%s",
			 fs->nfs_export_dir);
	else if (fs->nfs_local == 1)
		snprintf(n->why, sizeof(n->why),
			 "no export in /var/lib/nfs/etab holds %.80s",
			 fs->nfs_export);
	else
		snprintf(n->why, sizeof(n->why),
			 "the server %.80s is not this machine",
			 fs->nfs_server[0] ? fs->nfs_server : "(unknown)");
	inner.what &= ~CLYDE_TARGET_OWN;
	n->inner.ops = &clyde_target_block;
	n->inner.target = w->target;
	n->inner.stack = w->stack;
	n->inner.what = inner.what;
	return clyde_target_block.open(&n->inner, &inner);
}

static void forget(struct nfs *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->paths[i].path);
	n->n = 0;
}

static void nfs_close(struct clyde_target_watch *w)
{
	struct nfs *n = w->priv;

	if (!n)
		return;
	if (n->inner.ops)
		clyde_target_block.close(&n->inner);
	forget(n);
	free(n->paths);
	free(n);
}

static void nfs_settle(struct clyde_ctx *ctx, struct clyde_target_watch *w,
		       struct clyde_settle *out)
{
	struct nfs *n = w->priv;

	clyde_target_block.settle(ctx, &n->inner, out);
}

static void nfs_begin(struct clyde_target_watch *w)
{
	struct nfs *n = w->priv;

	uint32_t threads;

	clyde_target_block.begin(&n->inner);
	n->have_w0 = clyde_nfs_wire_read("", n->mp, &n->w0) == 0;
	n->have_nfsd =
		n->export_dir[0] &&
		clyde_nfsd_read("", &n->packets0, &n->woken0, &threads) == 0;
	n->have_cpu0 = n->have_nfsd && clyde_nfsd_cpu_read("", &n->cpu0_ns) > 0;
}

static void nfs_end(struct clyde_target_watch *w,
		    const struct clyde_target_moved *out)
{
	struct nfs *n = w->priv;
	struct clyde_nfs_moved *m = out->figs;
	uint64_t packets, woken, cpu;
	uint32_t threads;

	clyde_target_block.end(&n->inner, out);
	if (!m)
		return;
	memset(m, 0, sizeof(*m));
	if (n->have_w0 && clyde_nfs_wire_read("", n->mp, &n->w1) == 0) {
		clyde_nfs_wire_diff(&n->w0, &n->w1, &n->d);
		clyde_nfs_wire_moved(&n->d, m);
	}
	if (n->have_nfsd &&
	    clyde_nfsd_read("", &packets, &woken, &threads) == 0) {
		m->have_server = true;
		m->server_packets =
			packets > n->packets0 ? packets - n->packets0 : 0;
		m->server_threads_woken =
			woken > n->woken0 ? woken - n->woken0 : 0;
		m->server_threads = threads;
	}
	if (n->have_cpu0 && clyde_nfsd_cpu_read("", &cpu) > 0) {
		/* Threads that ended in between take their time with
		 * them: what went back counts as 0. */
		m->have_server_cpu = true;
		m->server_cpu_ns = cpu > n->cpu0_ns ? cpu - n->cpu0_ns : 0;
	}
}

/* The mount's counters now, summed over its operations as a test's are
 * (clyde_nfs_wire_moved); the entry is large, kept off the stack. */
static void nfs_wire(struct clyde_target_watch *w,
		     struct clyde_series_wire *out)
{
	const struct nfs *n = w->priv;
	struct clyde_nfs_wire *now = malloc(sizeof(*now));

	if (now && clyde_nfs_wire_read("", n->mp, now) == 0) {
		out->sent = out->recv = out->rpcs = 0;
		for (size_t i = 0; i < now->nops; i++) {
			out->sent += (int64_t)now->op[i].bytes_sent;
			out->recv += (int64_t)now->op[i].bytes_recv;
			out->rpcs += (int64_t)now->op[i].ops;
		}
	}
	free(now);
}

/* Remember the file or directory open at fd for server(); nothing when
 * its path cannot be read (the server's side is then not measured). */
static void remember(struct nfs *n, int fd, bool dir)
{
	char link[64], path[PATH_MAX];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len <= 0)
		return;
	path[len] = '\0';
	for (size_t i = 0; i < n->n; i++)
		if (!strcmp(n->paths[i].path, path))
			return;
	if (n->n == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 16;
		struct seen_path *p = realloc(n->paths, cap * sizeof(*p));

		if (!p)
			return;
		n->paths = p;
		n->cap = cap;
	}
	n->paths[n->n].path = strdup(path);
	if (!n->paths[n->n].path)
		return;
	n->paths[n->n++].dir = dir;
}

static int nfs_evict_fd(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			int fd, const char *path)
{
	remember(w->priv, fd, false);
	return clyde_cache_evict_fd(ctx, fd, path);
}

static int nfs_residency_fd(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			    int fd, uint64_t *resident_bytes,
			    uint64_t *total_bytes)
{
	remember(w->priv, fd, false);
	return clyde_cache_residency_fd(ctx, fd, resident_bytes, total_bytes);
}

static int nfs_evict_dir(struct clyde_ctx *ctx, struct clyde_target_watch *w,
			 int dirfd, const char *path,
			 struct clyde_cache_dir_stats *stats)
{
	remember(w->priv, dirfd, true);
	return clyde_cache_evict_dir(ctx, dirfd, path, stats);
}

/* The server's side of client path p: the export's directory joined with
 * what follows the mount point; false when p is not below it. */
static bool server_path(const struct nfs *n, const char *p, char *out,
			size_t len)
{
	size_t m = strlen(n->mp);
	int r;

	if (strncmp(p, n->mp, m) != 0 || (p[m] != '\0' && p[m] != '/'))
		return false;
	r = snprintf(out, len, "%s%s", n->export_dir, p + m);
	return r > 0 && (size_t)r < len;
}

/* One server-side file: written back and evicted (evict), measured. */
static bool server_file(const char *path, bool evict,
			struct clyde_server_cache *seen)
{
	uint64_t res = 0, tot = 0;
	struct clyde_ctx quiet;
	bool ok;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return false;
	clyde_ctx_init(&quiet);
	if (clyde_cache_residency_fd(&quiet, fd, &res, &tot) == 0)
		seen->resident_before += res;
	if (evict) {
		(void)fdatasync(fd);
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	ok = clyde_cache_residency_fd(&quiet, fd, &res, &tot) == 0;
	clyde_ctx_release(&quiet);
	close(fd);
	if (!ok)
		return false;
	seen->resident_bytes += res;
	seen->total_bytes += tot;
	seen->files++;
	return true;
}

/* A file test's directory on the server's side: every file in it
 * evicted and measured (clyde_cache_evict_dir); only when evicting. */
static bool server_dir(const char *path, bool evict,
		       struct clyde_server_cache *seen)
{
	struct clyde_cache_dir_stats ds;
	struct clyde_ctx quiet;
	int fd, rc;

	if (!evict)
		return false;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	clyde_ctx_init(&quiet);
	rc = clyde_cache_evict_dir(&quiet, fd, path, &ds);
	clyde_ctx_release(&quiet);
	close(fd);
	if (rc < 0)
		return false;
	seen->resident_before += ds.resident_before;
	seen->resident_bytes += ds.resident_after;
	seen->total_bytes += ds.total_bytes;
	seen->files += (unsigned)ds.files;
	return true;
}

static void nfs_server(struct clyde_target_watch *w, bool evict,
		       struct clyde_server_cache *seen)
{
	struct nfs *n = w->priv;
	char path[PATH_MAX];
	size_t tried = 0;

	if (!n->export_dir[0]) {
		seen->state = CLYDE_SERVER_CACHE_NOT_CONTROLLED;
		snprintf(seen->why, sizeof(seen->why), "%s", n->why);
		forget(n);
		return;
	}
	for (size_t i = 0; i < n->n; i++) {
		if (!server_path(n, n->paths[i].path, path, sizeof(path)))
			continue;
		tried++;
		if (n->paths[i].dir)
			server_dir(path, evict, seen);
		else
			server_file(path, evict, seen);
	}
	if (tried && !seen->files) {
		seen->state = CLYDE_SERVER_CACHE_NOT_CONTROLLED;
		snprintf(seen->why, sizeof(seen->why),
			 "the test's files are not found under %.80s",
			 n->export_dir);
	} else if (tried) {
		seen->state = evict ? CLYDE_SERVER_CACHE_DROPPED :
				      CLYDE_SERVER_CACHE_MEASURED;
	}
	forget(n);
}

static bool nfs_has_below(const struct clyde_target_watch *w)
{
	const struct nfs *n = w->priv;

	return clyde_target_block.has_below(&n->inner);
}

static void nfs_below(struct clyde_target_watch *w, bool evict,
		      struct clyde_loopcache_seen *seen)
{
	struct nfs *n = w->priv;

	clyde_target_block.below(&n->inner, evict, seen);
}

const struct clyde_target_ops clyde_target_nfs = {
	.name = "nfs",
	.figs_size = sizeof(struct clyde_nfs_moved),
	.figs = &clyde_nfs_figs, /* target_nfs_out.c */
	.claims = nfs_claims,
	.open = nfs_open,
	.close = nfs_close,
	.settle = nfs_settle,
	.begin = nfs_begin,
	.end = nfs_end,
	.wire = nfs_wire,
	.evict_fd = nfs_evict_fd,
	.residency_fd = nfs_residency_fd,
	.evict_dir = nfs_evict_dir,
	.server = nfs_server,
	.below = nfs_below,
	.has_below = nfs_has_below,
};
