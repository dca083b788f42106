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
 *
 * A test's figures (struct clyde_cifs_moved) go into its JSON as "smb"
 * and into a text section "SMB over the wire"; under clyde-mpi the ranks'
 * are summed (cifs_figs at the end of this file).
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

/* The test's "smb" object in the JSON, when its share was counted. */
static void cifs_json(struct clyde_jw *w, const struct clyde_stack *s,
		      const struct clyde_figs_test *t)
{
	const struct clyde_cifs_moved *m = t->figs;
	uint64_t failed = 0;

	(void)s;
	if (!m || !m->measured)
		return;
	clyde_jw_open(w, "smb", '{');
	clyde_jw_u64(w, "requests", m->wire.smbs);
	clyde_jw_u64(w, "bytes_read", m->wire.bytes_read);
	clyde_jw_u64(w, "bytes_written", m->wire.bytes_written);
	clyde_jw_open(w, "by_type", '{');
	for (size_t k = 0; k < m->wire.nops; k++) {
		failed += m->wire.op[k].failed;
		if (m->wire.op[k].total)
			clyde_jw_u64(w, m->wire.op[k].name,
				     m->wire.op[k].total);
	}
	clyde_jw_close(w, '}');
	clyde_jw_u64(w, "failed", failed);
	clyde_jw_u64(w, "server_files_evicted", m->server_evicted);
	clyde_jw_u64(w, "server_files_missed", m->server_missed);
	clyde_jw_close(w, '}');
}

/* The test's two busiest request types, "Writes 4, Flushes 1". */
static void busiest(const struct clyde_cifs_wire *wire, char *buf, size_t len)
{
	size_t first = SIZE_MAX, second = SIZE_MAX;

	for (size_t i = 0; i < wire->nops; i++) {
		uint64_t t = wire->op[i].total;

		if (!t)
			continue;
		if (first == SIZE_MAX || t > wire->op[first].total) {
			second = first;
			first = i;
		} else if (second == SIZE_MAX || t > wire->op[second].total) {
			second = i;
		}
	}
	buf[0] = '\0';
	if (first != SIZE_MAX)
		snprintf(buf, len, "%s %llu", wire->op[first].name,
			 (unsigned long long)wire->op[first].total);
	if (second != SIZE_MAX) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ", %s %llu", wire->op[second].name,
			 (unsigned long long)wire->op[second].total);
	}
}

static void mib(char *buf, size_t len, uint64_t bytes)
{
	snprintf(buf, len, "%.1f", (double)bytes / 1048576.0);
}

/* "SMB over the wire" per test of the first run, when any was counted. */
static void cifs_text(FILE *f, const struct clyde_figs_run *run)
{
	const struct clyde_stack_fs *fs = &run->stack->fs;
	bool any = false;
	unsigned evicted = 0, missed = 0;

	for (size_t i = 0; i < run->ntests; i++) {
		const struct clyde_cifs_moved *m = run->tests[i].figs;
		char rd[32], wr[32], top[96];

		if (!m || !m->measured)
			continue;
		if (!any)
			fprintf(f,
				"SMB over the wire to \\\\%s\\%s (run 1):\n"
				"%-13s %10s %10s %10s  %s\n",
				fs->cifs_server, fs->cifs_share, "test",
				"requests", "read MiB", "write MiB", "busiest");
		any = true;
		evicted += m->server_evicted;
		missed += m->server_missed;
		mib(rd, sizeof(rd), m->wire.bytes_read);
		mib(wr, sizeof(wr), m->wire.bytes_written);
		busiest(&m->wire, top, sizeof(top));
		fprintf(f, "%-13s %10llu %10s %10s  %s\n", run->tests[i].label,
			(unsigned long long)m->wire.smbs, rd, wr, top);
	}
	if (!any)
		return;
	if (fs->cifs_local != 1)
		fprintf(f, "clyde: note: the SMB server is not this machine: "
			   "its cache was not controlled; read figures may "
			   "come from its memory\n");
	else if (evicted || missed)
		fprintf(f,
			"clyde: note: the server's cache of %u file(s) was "
			"evicted before the read tests (smbd on this "
			"machine)%s\n",
			evicted, missed ? "; some could not be" : "");
}

/* Add x's requests into w, by request type (at most
 * CLYDE_CIFS_WIRE_MAX_OPS types; one past them is left out of the list,
 * not of the sums). */
static void wire_add(struct clyde_cifs_wire *w, const struct clyde_cifs_wire *x)
{
	w->smbs += x->smbs;
	w->bytes_read += x->bytes_read;
	w->bytes_written += x->bytes_written;
	for (size_t i = 0; i < x->nops; i++) {
		const struct clyde_cifs_op *o = &x->op[i];
		size_t k;

		for (k = 0; k < w->nops && strcmp(w->op[k].name, o->name); k++)
			;
		if (k == w->nops) {
			if (k == CLYDE_CIFS_WIRE_MAX_OPS)
				continue;
			w->op[k] = (struct clyde_cifs_op){ 0 };
			memcpy(w->op[k].name, o->name, sizeof(w->op[k].name));
			w->nops++;
		}
		w->op[k].total += o->total;
		w->op[k].failed += o->failed;
	}
}

/* clyde-mpi: the ranks' requests and bytes summed (by type), measured
 * only when every rank's was (docs/nfs.md, "Many clients"). */
static bool cifs_merge(void *out, const void *ranks, size_t n)
{
	const struct clyde_cifs_moved *m = ranks;
	struct clyde_cifs_moved s = { .measured = n > 0 };
	bool any = false;

	for (size_t r = 0; r < n; r++) {
		any = any || m[r].measured;
		s.measured = s.measured && m[r].measured;
		s.server_evicted += m[r].server_evicted;
		s.server_missed += m[r].server_missed;
		wire_add(&s.wire, &m[r].wire);
	}
	if (!any)
		return false;
	if (!s.measured)
		s = (struct clyde_cifs_moved){ 0 };
	memcpy(out, &s, sizeof(s));
	return true;
}

/* One rank's "smb" in its share of the aggregate (null when not
 * measured). */
static void cifs_rank_json(struct clyde_jw *w, const void *figs)
{
	const struct clyde_cifs_moved *m = figs;

	if (!m || !m->measured) {
		clyde_jw_null(w, "smb");
		return;
	}
	clyde_jw_open(w, "smb", '{');
	clyde_jw_u64(w, "requests", m->wire.smbs);
	clyde_jw_u64(w, "bytes_read", m->wire.bytes_read);
	clyde_jw_u64(w, "bytes_written", m->wire.bytes_written);
	clyde_jw_close(w, '}');
}

static const struct clyde_target_figs cifs_figs = {
	.json_at = CLYDE_FIGS_AT_MEMBERS,
	.json = cifs_json,
	.text = cifs_text,
	.merge = cifs_merge,
	.rank_json = cifs_rank_json,
};

const struct clyde_target_ops clyde_target_cifs = {
	.name = "cifs",
	.figs_size = sizeof(struct clyde_cifs_moved),
	.figs = &cifs_figs,
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
