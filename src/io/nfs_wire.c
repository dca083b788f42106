/*
 * The per-mount NFS statistics of /proc/self/mountstats (io/nfs_wire.h).
 */
#include "io/nfs_wire.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/slurp.h"
#include "env/procstat.h"

/* The kernel writes a mount point's spaces, tabs, newlines and
 * backslashes as \ooo; compare the entry's with mp that way. */
static bool same_mount(const char *esc, size_t n, const char *mp)
{
	size_t i = 0;

	for (const char *p = mp; *p; p++) {
		char buf[5];
		size_t len = 1;

		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\\') {
			snprintf(buf, sizeof(buf), "\\%03o", (unsigned char)*p);
			len = 4;
		} else {
			buf[0] = *p;
		}
		if (i + len > n || memcmp(esc + i, buf, len) != 0)
			return false;
		i += len;
	}
	return i == n;
}

int clyde_nfs_wire_read(const char *root, const char *mp,
			struct clyde_nfs_wire *out)
{
	char path[PATH_MAX], line[1024];
	bool in = false, found = false;
	FILE *f;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/proc/self/mountstats", root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " \t");
		struct clyde_nfs_op op;
		char name[32];

		if (!strncmp(line, "device ", 7)) {
			const char *on = strstr(line, " mounted on ");
			const char *with = on ? strstr(on, " with fstype ") :
						NULL;

			if (found)
				break;
			in = with &&
			     same_mount(on + 12, (size_t)(with - on - 12), mp);
			found = in;
			continue;
		}
		if (!in)
			continue;
		if (!strncmp(p, "bytes:", 6)) {
			(void)sscanf(p + 6,
				     "%" SCNu64 " %" SCNu64 " %" SCNu64
				     " %" SCNu64 " %" SCNu64 " %" SCNu64,
				     &out->normal_read, &out->normal_write,
				     &out->direct_read, &out->direct_write,
				     &out->server_read, &out->server_write);
			continue;
		}
		memset(&op, 0, sizeof(op));
		if (out->nops < CLYDE_NFS_WIRE_MAX_OPS &&
		    sscanf(p,
			   "%31[A-Z_0-9]: %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64,
			   name, &op.ops, &op.trans, &op.timeouts,
			   &op.bytes_sent, &op.bytes_recv, &op.queue_ms,
			   &op.rtt_ms, &op.exec_ms) == 9) {
			snprintf(op.name, sizeof(op.name), "%s", name);
			out->op[out->nops++] = op;
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

const struct clyde_nfs_op *clyde_nfs_wire_op(const struct clyde_nfs_wire *w,
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

void clyde_nfs_wire_diff(const struct clyde_nfs_wire *before,
			 const struct clyde_nfs_wire *after,
			 struct clyde_nfs_wire *out)
{
	static const struct clyde_nfs_op zero;

	memset(out, 0, sizeof(*out));
	out->normal_read = sub(after->normal_read, before->normal_read);
	out->normal_write = sub(after->normal_write, before->normal_write);
	out->direct_read = sub(after->direct_read, before->direct_read);
	out->direct_write = sub(after->direct_write, before->direct_write);
	out->server_read = sub(after->server_read, before->server_read);
	out->server_write = sub(after->server_write, before->server_write);
	for (size_t i = 0; i < after->nops; i++) {
		const struct clyde_nfs_op *a = &after->op[i];
		const struct clyde_nfs_op *b =
			clyde_nfs_wire_op(before, a->name);
		struct clyde_nfs_op *o = &out->op[out->nops++];

		if (!b)
			b = &zero;
		snprintf(o->name, sizeof(o->name), "%s", a->name);
		o->ops = sub(a->ops, b->ops);
		o->trans = sub(a->trans, b->trans);
		o->timeouts = sub(a->timeouts, b->timeouts);
		o->bytes_sent = sub(a->bytes_sent, b->bytes_sent);
		o->bytes_recv = sub(a->bytes_recv, b->bytes_recv);
		o->queue_ms = sub(a->queue_ms, b->queue_ms);
		o->rtt_ms = sub(a->rtt_ms, b->rtt_ms);
		o->exec_ms = sub(a->exec_ms, b->exec_ms);
	}
}

/* Most requests first; names break ties, so the order is the same on
 * every run. */
static int busier(const void *a, const void *b)
{
	const struct clyde_nfs_op *x = a, *y = b;

	if (x->ops != y->ops)
		return x->ops > y->ops ? -1 : 1;
	return strcmp(x->name, y->name);
}

void clyde_nfs_wire_moved(const struct clyde_nfs_wire *diff,
			  struct clyde_nfs_moved *out)
{
	struct clyde_nfs_op sorted[CLYDE_NFS_WIRE_MAX_OPS];
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->measured = true;
	out->app_read = diff->normal_read + diff->direct_read;
	out->app_write = diff->normal_write + diff->direct_write;
	out->server_read = diff->server_read;
	out->server_write = diff->server_write;
	for (size_t i = 0; i < diff->nops; i++) {
		const struct clyde_nfs_op *o = &diff->op[i];

		out->rpcs += o->ops;
		out->trans += o->trans;
		out->timeouts += o->timeouts;
		out->bytes_sent += o->bytes_sent;
		out->bytes_recv += o->bytes_recv;
		out->rtt_ms += o->rtt_ms;
		out->exec_ms += o->exec_ms;
		if (o->ops)
			sorted[n++] = *o;
	}
	clyde_nfs_keep_busiest(out, sorted, n);
}

void clyde_nfs_keep_busiest(struct clyde_nfs_moved *out,
			    struct clyde_nfs_op *ops, size_t n)
{
	qsort(ops, n, sizeof(ops[0]), busier);
	out->nops = 0;
	for (size_t i = 0; i < n && i < CLYDE_NFS_MOVED_OPS; i++)
		out->op[out->nops++] = ops[i];
}

uint64_t clyde_nfs_retrans(const struct clyde_nfs_moved *m)
{
	return sub(m->trans, m->rpcs);
}

const char *clyde_server_cache_name(enum clyde_server_cache_state s)
{
	switch (s) {
	case CLYDE_SERVER_CACHE_DROPPED:
		return "dropped";
	case CLYDE_SERVER_CACHE_MEASURED:
		return "measured";
	case CLYDE_SERVER_CACHE_NOT_CONTROLLED:
		return "not controlled";
	case CLYDE_SERVER_CACHE_NONE:
		break;
	}
	return NULL;
}

int clyde_nfsd_read(const char *root, uint64_t *packets, uint64_t *woken,
		    uint32_t *threads)
{
	char path[PATH_MAX], line[256];
	unsigned th = 0;
	FILE *f;

	*packets = *woken = 0;
	*threads = 0;
	snprintf(path, sizeof(path), "%s/proc/fs/nfsd/pool_stats", root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* "# pool packets-arrived sockets-enqueued threads-woken
	 * threads-timedout" then one line per pool. */
	while (fgets(line, sizeof(line), f)) {
		uint64_t pool, arrived, enq, wk;

		if (sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
			   &pool, &arrived, &enq, &wk) == 4) {
			*packets += arrived;
			*woken += wk;
		}
	}
	fclose(f);
	snprintf(path, sizeof(path), "%s/proc/fs/nfsd/threads", root);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%u", &th) == 1)
			*threads = th;
		fclose(f);
	}
	return 0;
}

int clyde_nfsd_cpu_read(const char *root, uint64_t *ns)
{
	char path[PATH_MAX], buf[1024];
	uint64_t ticks = 0;
	struct clyde_proc_stat ps;
	long hz = sysconf(_SC_CLK_TCK);
	struct dirent *e;
	int found = 0;
	DIR *d;

	*ns = 0;
	snprintf(path, sizeof(path), "%s/proc", root);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/proc/%s/comm", root,
			 e->d_name);
		if (clyde_slurp_into(path, buf, sizeof(buf)) < 0 ||
		    strcmp(buf, "nfsd\n") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/proc/%s/stat", root,
			 e->d_name);
		if (clyde_slurp_into(path, buf, sizeof(buf)) < 0 ||
		    clyde_proc_stat_parse(buf, &ps) < CLYDE_PROC_STAT_TIMES)
			continue; /* the thread ended in between */
		ticks += ps.utime + ps.stime;
		found++;
	}
	closedir(d);
	if (hz <= 0)
		hz = 100;
	*ns = ticks / (uint64_t)hz * 1000000000u +
	      ticks % (uint64_t)hz * 1000000000u / (uint64_t)hz;
	return found;
}

void clyde_nfs_moved_server(struct clyde_nfs_moved *to,
			    const struct clyde_nfs_moved *from)
{
	to->have_server = from->have_server;
	to->server_packets = from->server_packets;
	to->server_threads_woken = from->server_threads_woken;
	to->server_threads = from->server_threads;
	to->have_server_cpu = from->have_server_cpu;
	to->server_cpu_ns = from->server_cpu_ns;
}
