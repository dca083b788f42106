#include "env/ownio.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "env/env.h"
#include "env/members.h"
#include "env/members_sys.h"
#include "env/mountinfo.h"
#include "env/procstat.h"

const char *clyde_own_source_name(enum clyde_own_source s)
{
	switch (s) {
	case CLYDE_OWN_TASK:
		return "task";
	case CLYDE_OWN_CGROUP:
		return "cgroup";
	case CLYDE_OWN_NONE:
		break;
	}
	return "none";
}

/* The value of "key: N" in text, or -ENOENT. */
static int keyed(const char *text, const char *key, uint64_t *out)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p;
	     p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, key, n) && p[n] == ':') {
			char *end;
			unsigned long long v = strtoull(p + n + 1, &end, 10);

			if (end == p + n + 1)
				return -EINVAL;
			*out = v;
			return 0;
		}
	return -ENOENT;
}

int clyde_own_parse_io(const char *text, uint64_t *read, uint64_t *write)
{
	uint64_t r, w, c = 0;

	if (keyed(text, "read_bytes", &r) || keyed(text, "write_bytes", &w))
		return -EINVAL;
	(void)keyed(text, "cancelled_write_bytes", &c);
	*read = r;
	*write = w > c ? w - c : 0;
	return 0;
}

int clyde_own_parse_iostat(const char *text, uint32_t major, uint32_t minor,
			   uint64_t *rbytes, uint64_t *wbytes)
{
	*rbytes = 0;
	*wbytes = 0;
	for (const char *p = text; p && *p;) {
		unsigned maj, min;
		const char *end = strchr(p, '\n');
		char line[512];
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		p = end ? end + 1 : NULL;
		if (sscanf(line, "%u:%u", &maj, &min) != 2)
			return -EINVAL;
		if (maj != major || min != minor)
			continue;
		for (char *tok = strchr(line, ' '); tok;
		     tok = strchr(tok + 1, ' ')) {
			unsigned long long v;

			if (sscanf(tok, " rbytes=%llu", &v) == 1)
				*rbytes = v;
			else if (sscanf(tok, " wbytes=%llu", &v) == 1)
				*wbytes = v;
		}
	}
	return 0;
}

/* The parent of process `pid`, from /proc/PID/stat; 0 when unknown. */
static pid_t parent_of(const char *root, long pid)
{
	char buf[1024];
	struct clyde_proc_stat ps;

	if (clyde_sys_text(root, buf, sizeof(buf), "/proc/%ld/stat", pid) ||
	    clyde_proc_stat_parse(buf, &ps) < CLYDE_PROC_STAT_PPID)
		return 0;
	return ps.ppid;
}

struct cgroup2_find {
	char *out;
	size_t n;
};

static int cgroup2_line(void *arg, const char *line,
			const struct clyde_mountinfo *mi)
{
	struct cgroup2_find *c = arg;

	(void)line;
	if (strcmp(mi->fstype, "cgroup2") != 0)
		return 0;
	clyde_sys_copy(c->out, c->n, mi->mount_point);
	return 1;
}

/* Where the cgroup v2 hierarchy is mounted (/proc/self/mountinfo's
 * cgroup2 entry: /sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid
 * system); /sys/fs/cgroup when none is listed. */
static void cgroup2_mount(const char *root, char *out, size_t n)
{
	struct cgroup2_find c = { out, n };
	char path[4096];

	snprintf(out, n, "/sys/fs/cgroup");
	if (clyde_sys_path(root, path, sizeof(path), "/proc/self/mountinfo"))
		return;
	clyde_mountinfo_each(path, cgroup2_line, &c);
}

/* Is every process in cgroup `cg` pid itself or a child of pid? */
static bool cgroup_is_own(const char *root, const char *mnt, const char *cg,
			  pid_t pid)
{
	char buf[8192], *p, *end;
	bool self = false;

	if (clyde_sys_text(root, buf, sizeof(buf), "%s%s/cgroup.procs", mnt,
			   cg))
		return false;
	for (p = buf; *p; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v == pid)
			self = true;
		else if (parent_of(root, v) != pid)
			return false;
		while (*end == '\n' || *end == ' ')
			end++;
	}
	return self;
}

/* The cgroup v2 path of pid ("0::/path"), or "" when none or it is "/". */
static void cgroup_of(const char *root, pid_t pid, char *out, size_t n)
{
	char buf[4096];
	const char *p;

	out[0] = '\0';
	if (clyde_sys_text(root, buf, sizeof(buf), "/proc/%ld/cgroup",
			   (long)pid))
		return;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, "0::", 3)) {
			size_t len = strcspn(p + 3, "\n");

			if (len >= n || (len == 1 && p[3] == '/') || !len)
				return;
			memcpy(out, p + 3, len);
			out[len] = '\0';
			return;
		}
}

static int read_task(const char *root, uint64_t *r, uint64_t *w)
{
	char buf[1024];
	DIR *d;
	struct dirent *e;
	char path[4200];
	bool any = false;

	if (!clyde_sys_text(root, buf, sizeof(buf), "/proc/self/io"))
		return clyde_own_parse_io(buf, r, w);
	/* The live threads only: better than nothing. */
	if (clyde_sys_path(root, path, sizeof(path), "/proc/self/task"))
		return -ENOENT;
	d = opendir(path);
	if (!d)
		return -errno;
	*r = 0;
	*w = 0;
	while ((e = readdir(d))) {
		uint64_t tr, tw;

		if (e->d_name[0] == '.')
			continue;
		if (clyde_sys_text(root, buf, sizeof(buf),
				   "/proc/self/task/%s/io", e->d_name) ||
		    clyde_own_parse_io(buf, &tr, &tw))
			continue;
		*r += tr;
		*w += tw;
		any = true;
	}
	closedir(d);
	return any ? 0 : -ENOENT;
}

static int read_snap(const struct clyde_own_watch *w, struct clyde_own_snap *s)
{
	char buf[16384];

	memset(s, 0, sizeof(*s));
	if (w->source == CLYDE_OWN_TASK) {
		if (read_task(w->root, &s->task_read, &s->task_write))
			return -ENOENT;
	} else if (w->source == CLYDE_OWN_CGROUP) {
		if (clyde_sys_text(w->root, buf, sizeof(buf), "%s%s/io.stat",
				   w->mount, w->cgroup))
			return -ENOENT;
		for (unsigned i = 0; i < w->ndev; i++)
			if (clyde_own_parse_iostat(buf, w->major[i],
						   w->minor[i], &s->dev_read[i],
						   &s->dev_write[i]))
				return -EINVAL;
	} else {
		return -ENOENT;
	}
	s->have = true;
	return 0;
}

void clyde_own_setup(struct clyde_own_watch *w, const char *root, pid_t pid,
		     uint32_t top_major, uint32_t top_minor,
		     const uint32_t *leaf_major, const uint32_t *leaf_minor,
		     unsigned nleaves)
{
	char buf[256];
	uint64_t r, wr;

	memset(w, 0, sizeof(*w));
	w->root = root;
	if (top_major || top_minor) {
		w->have_top_dev = true;
		w->major[0] = top_major;
		w->minor[0] = top_minor;
		w->ndev = 1;
	}
	for (unsigned i = 0; i < nleaves && w->ndev < CLYDE_OWN_MAX_DEVS; i++) {
		w->major[w->ndev] = leaf_major[i];
		w->minor[w->ndev++] = leaf_minor[i];
	}
	cgroup_of(root, pid, w->cgroup, sizeof(w->cgroup));
	cgroup2_mount(root, w->mount, sizeof(w->mount));
	if (w->cgroup[0] && cgroup_is_own(root, w->mount, w->cgroup, pid) &&
	    !clyde_sys_text(root, buf, sizeof(buf), "%s%s/io.stat", w->mount,
			    w->cgroup)) {
		w->source = CLYDE_OWN_CGROUP;
		return;
	}
	w->cgroup[0] = '\0';
	if (!read_task(root, &r, &wr))
		w->source = CLYDE_OWN_TASK;
}

void clyde_own_setup_run(struct clyde_own_watch *w,
			 const struct clyde_member_watch *mw,
			 const struct clyde_target *t)
{
	uint32_t maj[CLYDE_MAX_MEMBERS], min[CLYDE_MAX_MEMBERS];
	unsigned n = 0;

	for (unsigned i = 0; i < mw->n; i++)
		if (mw->major[i] || mw->minor[i]) {
			maj[n] = mw->major[i];
			min[n++] = mw->minor[i];
		}
	clyde_own_setup(w, NULL, getpid(),
			t && t->has_block_device ? t->dev_major : 0,
			t && t->has_block_device ? t->dev_minor : 0, maj, min,
			n);
}

void clyde_own_close(struct clyde_own_watch *w)
{
	clyde_others_free(&w->others);
}

static dev_t fs_dev(const struct clyde_own_watch *w)
{
	return w->have_top_dev ? makedev(w->major[0], w->minor[0]) : 0;
}

void clyde_own_begin(struct clyde_own_watch *w)
{
	if (read_snap(w, &w->before))
		w->before.have = false;
	if (w->have_top_dev)
		clyde_others_read(w->root, getpid(), fs_dev(w), &w->others);
}

/* The other processes' bytes since clyde_own_begin(). */
static void others_end(struct clyde_own_watch *w, struct clyde_ownio *out)
{
	struct clyde_others_snap after = { 0 }, prev = { 0 };

	if (!w->have_top_dev || !w->others.have ||
	    clyde_others_read(w->root, getpid(), fs_dev(w), &after)) {
		clyde_others_free(&after);
		return;
	}
	for (unsigned k = 1; k < CLYDE_OTHERS_LOOKS; k++) {
		struct clyde_others_snap t = prev;
		struct timespec ts = { 0, CLYDE_OTHERS_GAP_MS * 1000000L };

		prev = after;
		after = t;
		nanosleep(&ts, NULL);
		if (clyde_others_read(w->root, getpid(), fs_dev(w), &after)) {
			after = prev;
			prev = t;
			break;
		}
		clyde_others_merge_ties(&after, &prev);
	}
	clyde_others_free(&prev);
	out->have_others = true;
	clyde_others_delta(&w->others, &after, &out->others_read_bytes,
			   &out->others_write_bytes, &out->others_procs);
	clyde_others_free(&after);
}

static uint64_t delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

void clyde_own_end(struct clyde_own_watch *w, struct clyde_ownio *out)
{
	struct clyde_own_snap after;
	const struct clyde_own_snap *b = &w->before;
	unsigned first = w->have_top_dev ? 1 : 0;

	memset(out, 0, sizeof(*out));
	if (!b->have || read_snap(w, &after))
		return;
	others_end(w, out);
	out->source = w->source;
	if (w->source == CLYDE_OWN_TASK) {
		out->have_top = true;
		out->top_read_bytes = delta(b->task_read, after.task_read);
		out->top_write_bytes = delta(b->task_write, after.task_write);
		return;
	}
	clyde_sys_copy(out->cgroup, sizeof(out->cgroup), w->cgroup);
	if (w->have_top_dev) {
		out->have_top = true;
		out->top_read_bytes = delta(b->dev_read[0], after.dev_read[0]);
		out->top_write_bytes =
			delta(b->dev_write[0], after.dev_write[0]);
	}
	if (w->ndev > first) {
		out->have_leaves = true;
		for (unsigned i = first; i < w->ndev; i++) {
			out->leaves_read_bytes +=
				delta(b->dev_read[i], after.dev_read[i]);
			out->leaves_write_bytes +=
				delta(b->dev_write[i], after.dev_write[i]);
		}
	}
}
