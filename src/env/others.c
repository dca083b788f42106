#include "env/others.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "env/ownio.h"
#include "env/members_sys.h"
#include "env/procstat.h"

#define PF_KTHREAD_FLAG 0x00200000u

static bool on_dev(const char *path, dev_t dev)
{
	struct stat st;

	return !stat(path, &st) && st.st_dev == dev;
}

/* Is process pid's cwd or one of its open files on dev? */
static bool tied(const char *root, pid_t pid, dev_t dev)
{
	char path[600];
	struct dirent *e;
	DIR *d;
	bool yes = false;

	if (!dev)
		return false;
	snprintf(path, sizeof(path), "%s/proc/%d/cwd", root, (int)pid);
	if (on_dev(path, dev))
		return true;
	snprintf(path, sizeof(path), "%s/proc/%d/fd", root, (int)pid);
	d = opendir(path);
	if (!d)
		return false;
	while (!yes && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/proc/%d/fd/%s", root, (int)pid,
			 e->d_name);
		yes = on_dev(path, dev);
	}
	closedir(d);
	return yes;
}

static struct clyde_others_proc *find(const struct clyde_others_snap *s,
				      pid_t pid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->p[i].pid == pid)
			return &s->p[i];
	return NULL;
}

/* A tied process's ancestors are tied (a shell reaping its writers). */
static void tie_ancestors(struct clyde_others_snap *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct clyde_others_proc *q = &s->p[i];
		unsigned depth = 0;

		if (!q->tied)
			continue;
		while (q->ppid > 1 && depth++ < 64) {
			q = find(s, q->ppid);
			if (!q || q->tied)
				break;
			q->tied = true;
		}
	}
}

int clyde_others_read(const char *root, pid_t self, dev_t dev,
		      struct clyde_others_snap *s)
{
	char path[300], buf[1024];
	struct dirent *e;
	DIR *d;

	if (!root)
		root = "";
	s->n = 0;
	s->have = false;
	snprintf(path, sizeof(path), "%s/proc", root);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		struct clyde_others_proc q = { 0 };
		struct clyde_proc_stat ps;
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || pid == self)
			continue;
		q.pid = (pid_t)pid;
		if (clyde_sys_text(root, buf, sizeof(buf), "/proc/%ld/stat",
				   pid) ||
		    clyde_proc_stat_parse(buf, &ps) < CLYDE_PROC_STAT_ALL ||
		    (ps.flags & PF_KTHREAD_FLAG) || ps.ppid == self ||
		    clyde_sys_text(root, buf, sizeof(buf), "/proc/%ld/io",
				   pid) ||
		    clyde_own_parse_io(buf, &q.read, &q.write))
			continue;
		q.ppid = ps.ppid;
		q.start = ps.start;
		q.tied = tied(root, q.pid, dev);
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 256;
			struct clyde_others_proc *p =
				realloc(s->p, cap * sizeof(*p));

			if (!p)
				break;
			s->p = p;
			s->cap = cap;
		}
		s->p[s->n++] = q;
	}
	closedir(d);
	tie_ancestors(s);
	s->have = true;
	return 0;
}

void clyde_others_merge_ties(struct clyde_others_snap *s,
			     const struct clyde_others_snap *earlier)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct clyde_others_proc *was =
			find(earlier, s->p[i].pid);

		if (was && was->start == s->p[i].start && was->tied)
			s->p[i].tied = true;
	}
	tie_ancestors(s);
}

void clyde_others_delta(const struct clyde_others_snap *a,
			const struct clyde_others_snap *b, uint64_t *read,
			uint64_t *write, unsigned *procs)
{
	*read = *write = 0;
	*procs = 0;
	if (!a->have || !b->have)
		return;
	for (size_t i = 0; i < b->n; i++) {
		const struct clyde_others_proc *q = &b->p[i];
		const struct clyde_others_proc *was = find(a, q->pid);
		uint64_t r0 = 0, w0 = 0;

		if (was && was->start != q->start)
			was = NULL; /* the pid was reused */
		if (!q->tied && !(was && was->tied))
			continue;
		if (was) {
			r0 = was->read;
			w0 = was->write;
		}
		if (q->read <= r0 && q->write <= w0)
			continue;
		*read += q->read > r0 ? q->read - r0 : 0;
		*write += q->write > w0 ? q->write - w0 : 0;
		(*procs)++;
	}
}

void clyde_others_free(struct clyde_others_snap *s)
{
	free(s->p);
	s->p = NULL;
	s->n = s->cap = 0;
	s->have = false;
}
