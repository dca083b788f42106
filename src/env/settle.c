#include "env/settle.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "env/env.h"
#include "env/members_sys.h"

void clyde_settle_init(struct clyde_settle_watch *w, const char *root,
		       uint64_t limit_ns)
{
	memset(w, 0, sizeof(*w));
	w->root = root;
	w->limit_ns = limit_ns;
}

void clyde_settle_add(struct clyde_settle_watch *w, const char *name)
{
	if (!name || !name[0] || strlen(name) >= sizeof(w->name[0]) ||
	    w->n == CLYDE_SETTLE_DEVS)
		return;
	for (unsigned i = 0; i < w->n; i++)
		if (!strcmp(w->name[i], name))
			return;
	snprintf(w->name[w->n], sizeof(w->name[0]), "%s", name);
	if (clyde_sys_text(w->root, w->bdi[w->n], sizeof(w->bdi[0]),
			   "/sys/class/block/%s/dev", name))
		w->bdi[w->n][0] = '\0';
	w->n++;
}

struct look {
	bool have[CLYDE_SETTLE_DEVS];
	struct clyde_devstat st[CLYDE_SETTLE_DEVS];
	uint64_t inflight[CLYDE_SETTLE_DEVS];
	uint64_t dirty, writeback;
	bool per_device;
};

/* "Key:   123 kB" of /proc/meminfo in bytes; 0 when absent. */
static uint64_t meminfo(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	unsigned long long kb;

	if (!p || sscanf(p + strlen(key), ": %llu", &kb) != 1)
		return 0;
	return (uint64_t)kb * 1024u;
}

static void take(const struct clyde_settle_watch *w, struct look *l)
{
	char buf[4096];

	memset(l, 0, sizeof(*l));
	for (unsigned i = 0; i < w->n; i++) {
		unsigned long long r, wr;

		if (clyde_sys_text(w->root, buf, sizeof(buf),
				   "/sys/class/block/%s/stat", w->name[i]) ||
		    clyde_devstat_parse(buf, &l->st[i]))
			continue;
		l->have[i] = true;
		l->inflight[i] = l->st[i].in_flight;
		if (!clyde_sys_text(w->root, buf, sizeof(buf),
				    "/sys/class/block/%s/inflight",
				    w->name[i]) &&
		    sscanf(buf, "%llu %llu", &r, &wr) == 2)
			l->inflight[i] = r + wr;
	}
	for (unsigned i = 0; i < w->n; i++) {
		/* "BdiWriteback:  0 kB", "BdiReclaimable:  0 kB" (dirty). */
		if (!w->bdi[i][0] ||
		    clyde_sys_text(w->root, buf, sizeof(buf) - 1,
				   "/sys/kernel/debug/bdi/%s/stats", w->bdi[i]))
			continue;
		memmove(buf + 1, buf, strlen(buf) + 1);
		buf[0] = '\n';
		l->per_device = true;
		l->dirty += meminfo(buf, "\nBdiReclaimable");
		l->writeback += meminfo(buf, "\nBdiWriteback");
	}
	if (l->per_device)
		return;
	if (!clyde_sys_text(w->root, buf, sizeof(buf) - 1, "/proc/meminfo")) {
		memmove(buf + 1, buf, strlen(buf) + 1);
		buf[0] = '\n';
		/* "Writeback:" and not "WritebackTmp:". */
		l->dirty = meminfo(buf, "\nDirty");
		l->writeback = meminfo(buf, "\nWriteback");
	}
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* Fill *out from the looks a (earlier, NULL: one instant) and b. */
static bool judge(const struct clyde_settle_watch *w, const struct look *a,
		  const struct look *b, struct clyde_settle *out)
{
	uint64_t most = 0;
	bool quiet = true;

	out->in_flight = 0;
	out->moved_bytes = 0;
	out->discarded_bytes = 0;
	out->discard_ios = 0;
	out->busiest[0] = '\0';
	for (unsigned i = 0; i < w->n; i++) {
		uint64_t moved = 0, disc = 0, disc_ios = 0, score;

		if (!b->have[i])
			continue;
		if (a && a->have[i]) {
			moved = 512u * (sub(a->st[i].read_sectors,
					    b->st[i].read_sectors) +
					sub(a->st[i].write_sectors,
					    b->st[i].write_sectors));
			disc = 512u * sub(a->st[i].discard_sectors,
					  b->st[i].discard_sectors);
			disc_ios =
				sub(a->st[i].discard_ios, b->st[i].discard_ios);
		}
		out->in_flight += b->inflight[i];
		out->moved_bytes += moved;
		out->discarded_bytes += disc;
		out->discard_ios += disc_ios;
		if (b->inflight[i] >= CLYDE_SETTLE_MAX_INFLIGHT ||
		    moved >= CLYDE_SETTLE_MAX_MOVED || disc || disc_ios)
			quiet = false;
		score = b->inflight[i] * (1u << 20) + moved + disc;
		if (score > most) {
			most = score;
			clyde_sys_copy(out->busiest, sizeof(out->busiest),
				       w->name[i]);
		}
	}
	out->per_device = b->per_device;
	out->dirty_bytes = b->dirty;
	out->writeback_bytes = b->writeback;
	if (b->per_device && (b->writeback >= CLYDE_SETTLE_MAX_WRITEBACK ||
			      b->dirty >= CLYDE_SETTLE_MAX_DIRTY))
		quiet = false;
	return quiet;
}

void clyde_settle_wait(struct clyde_ctx *ctx,
		       const struct clyde_settle_watch *w,
		       struct clyde_settle *out)
{
	struct look a, b;
	uint64_t t0;

	memset(out, 0, sizeof(*out));
	out->limit_ns = w->limit_ns;
	if (!w->n)
		return;
	out->looked = true;
	t0 = clyde_now(ctx);
	take(w, &a);
	if (!w->limit_ns) {
		out->busy = !judge(w, NULL, &a, out);
		out->busy_before = out->busy;
		return;
	}
	for (;;) {
		struct timespec ts = { 0, (long)CLYDE_SETTLE_LOOK_NS };
		bool quiet;

		nanosleep(&ts, NULL);
		take(w, &b);
		quiet = judge(w, &a, &b, out);
		out->waited_ns = clyde_now(ctx) - t0;
		if (quiet || out->waited_ns >= w->limit_ns ||
		    clyde_stopping(ctx)) {
			out->busy = !quiet;
			out->busy_before = out->busy;
			return;
		}
		a = b;
	}
}

static void fmt_mib(char *buf, size_t n, uint64_t bytes)
{
	snprintf(buf, n, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
}

void clyde_settle_describe(const struct clyde_settle *s, char *buf, size_t n)
{
	char a[32];
	size_t len;

	if (!n)
		return;
	buf[0] = '\0';
	len = 0;
#define PART(...)                                                         \
	do {                                                              \
		if (len < n)                                              \
			len += (size_t)snprintf(buf + len, n - len, "%s", \
						len ? ", " : "");         \
		if (len < n)                                              \
			len += (size_t)snprintf(buf + len, n - len,       \
						__VA_ARGS__);             \
	} while (0)
	if (s->in_flight)
		PART("%llu request%s in flight%s%s",
		     (unsigned long long)s->in_flight,
		     s->in_flight == 1 ? "" : "s", s->busiest[0] ? " on " : "",
		     s->busiest);
	if (s->moved_bytes >= CLYDE_SETTLE_MAX_MOVED) {
		fmt_mib(a, sizeof(a), s->moved_bytes);
		PART("%s moved in %d ms", a, CLYDE_SETTLE_LOOK_MS);
	}
	if (s->discarded_bytes || s->discard_ios) {
		fmt_mib(a, sizeof(a), s->discarded_bytes);
		PART("%s discarded in %d ms", a, CLYDE_SETTLE_LOOK_MS);
	}
	if (s->per_device && s->writeback_bytes >= CLYDE_SETTLE_MAX_WRITEBACK) {
		fmt_mib(a, sizeof(a), s->writeback_bytes);
		PART("%s under writeback", a);
	}
	if (s->per_device && s->dirty_bytes >= CLYDE_SETTLE_MAX_DIRTY) {
		fmt_mib(a, sizeof(a), s->dirty_bytes);
		PART("%s dirty", a);
	}
	if (s->busy_during) {
		char d[32];

		fmt_mib(a, sizeof(a), s->others_bytes);
		fmt_mib(d, sizeof(d), s->device_bytes);
		PART("during the test other processes (%u) moved %s of the "
		     "device's %s (%.0f%%)",
		     s->others_procs, a, d,
		     s->device_bytes ? 100.0 * (double)s->others_bytes /
					       (double)s->device_bytes :
				       0.0);
	}
#undef PART
	if (len >= n)
		buf[n - 1] = '\0';
}
