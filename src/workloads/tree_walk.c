/*
 * The walks: stat walk and read walk with one or K workers, and delete.
 *
 * A worker walks depth first with a stack of frames, one per level: the
 * directory's descriptor and the names getdents64() gave for it (read in
 * full first, as find and tar do).  Entries are reached with fstatat() and
 * openat() relative to that descriptor, never through a path string.
 *
 * Several workers share a bounded queue of open directories.  A worker that
 * runs out of work waits on it; a busy worker that sees someone waiting
 * hands over the shallowest subdirectory it has not entered yet (the
 * biggest piece of work it knows about): it lstat()s and counts that entry
 * itself, opens it, queues the descriptor and marks the name as taken so
 * that it skips it later.  So every entry is counted by exactly one worker
 * and every directory is read by exactly one: no overlap, no gap.
 */
#include "workloads/tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DENTS_BUF (32u << 10)
/* A name the owner must skip: another worker took it. */
#define TYPE_TAKEN 0xffu
/* A path in a message: long enough to say where, short enough to fit in
 * first_error with the operation and the reason. */
#define PATH_MSG 700

/* The kernel's record for getdents64(). */
struct kdirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

struct frame {
	int fd;
	dev_t dev;
	ino_t ino;
	const char *name; /* in the parent's names, or the item's name */
	/* Records "<type byte><name>\0" back to back. */
	char *names;
	size_t len, cap;
	size_t pos;  /* next record to visit */
	size_t scan; /* records before this were looked at for sharing */
};

struct item {
	int fd;
	bool root;
	dev_t dev;
	ino_t ino;
	char name[NAME_MAX + 1];
};

struct shared {
	struct clyde_ctx *ctx;
	const struct clyde_walk_opts *o;
	struct clyde_tree_phase_result *r;
	const char *root; /* as given, for messages */
	dev_t root_dev;
	uint64_t t0;
	unsigned nworkers;

	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct item *q; /* ring of qcap items */
	unsigned qcap, qhead, qcount;
	unsigned idle;	       /* workers waiting for work */
	atomic_uint idle_hint; /* idle - queued, read without the lock */
	bool done;
	int fatal;
};

struct walker {
	struct shared *sh;
	struct clyde_ctx *ctx;
	unsigned index;
	struct frame *st;
	unsigned depth, cap;
	char *dents;
	char *rbuf;
	size_t io_size;
	int noatime;
	char item_name[NAME_MAX + 1];
	struct clyde_hist *h[CLYDE_TREE_OP_COUNT];
	struct clyde_tree_worker w;
	uint64_t symlinks, others, noatime_refused;
	struct clyde_tree_errors err;
	int ret;
};

static uint64_t thread_cpu_ns(uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
	       (uint64_t)ru.ru_stime.tv_usec * 1000u;
	return (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
	       (uint64_t)ru.ru_utime.tv_usec * 1000u;
}

static uint64_t op_done(struct walker *k, enum clyde_tree_op op, uint64_t t0)
{
	uint64_t now = clyde_now(k->ctx);

	clyde_hist_record(k->h[op], now - t0);
	return now;
}

/* Where the worker is, for a message: the names on its stack.  A stack
 * that starts at a queued directory starts with ".../". */
static void stack_path(struct walker *k, const char *name, char *buf,
		       size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < k->depth && used < len; i++) {
		const char *n = k->st[i].name;
		int w;

		if (i == 0 && n == k->item_name)
			w = snprintf(buf + used, len - used, ".../%s", n);
		else
			w = snprintf(buf + used, len - used, i ? "/%s" : "%s",
				     n);
		if (w < 0)
			return;
		used += (size_t)w;
	}
	if (name && used < len)
		snprintf(buf + used, len - used, "/%s", name);
}

/*
 * An entry failed with errno e during `op`.  Permission, vanished, loop
 * and other errors are counted and the walk goes on (returns 0); running
 * out of memory or descriptors is fatal (returns -e, message in ctx).
 */
static int skip_err(struct walker *k, int e, const char *op, const char *name)
{
	char path[PATH_MSG];

	stack_path(k, name, path, sizeof(path));
	switch (e) {
	case ENOMEM:
	case EMFILE:
	case ENFILE:
		return clyde_err(k->ctx, e, "%s %s", op, path);
	case EACCES:
	case EPERM:
		k->err.permission_denied++;
		break;
	case ENOENT:
		k->err.vanished++;
		break;
	case ELOOP:
		k->err.loops++;
		break;
	default:
		k->err.other++;
		break;
	}
	pthread_mutex_lock(&k->sh->lock);
	if (!k->sh->r->first_error[0])
		snprintf(k->sh->r->first_error, sizeof(k->sh->r->first_error),
			 "%s %s: %s", op, path, strerror(e));
	pthread_mutex_unlock(&k->sh->lock);
	return 0;
}

/* openat() with O_NOATIME when asked, again without it when the kernel
 * refuses (EPERM: O_NOATIME needs ownership or CAP_FOWNER). */
static int open_at(struct walker *k, int dirfd, const char *name, int flags)
{
	int fd;

	if (k->noatime) {
		fd = openat(dirfd, name, flags | O_NOATIME);
		if (fd >= 0 || errno != EPERM)
			return fd;
		k->noatime_refused++;
	}
	return openat(dirfd, name, flags);
}

static int push_frame(struct walker *k, int fd, dev_t dev, ino_t ino,
		      const char *name)
{
	struct frame *f;

	if (k->depth == k->cap) {
		unsigned ncap = k->cap ? k->cap * 2 : 16;
		struct frame *n = realloc(k->st, ncap * sizeof(*n));

		if (!n)
			return clyde_err(k->ctx, ENOMEM, "walk stack");
		memset(n + k->cap, 0, (ncap - k->cap) * sizeof(*n));
		k->st = n;
		k->cap = ncap;
	}
	f = &k->st[k->depth++];
	f->fd = fd;
	f->dev = dev;
	f->ino = ino;
	f->name = name;
	f->len = f->pos = f->scan = 0;
	return 0;
}

static void pop_frame(struct walker *k)
{
	close(k->st[--k->depth].fd);
}

/* Read every name of the top frame's directory (not "." and ".."). */
static int fill_names(struct walker *k)
{
	struct frame *f = &k->st[k->depth - 1];

	for (;;) {
		uint64_t t0 = clyde_now(k->ctx);
		long n = syscall(SYS_getdents64, f->fd, k->dents, DENTS_BUF);

		op_done(k, CLYDE_TREE_OP_READDIR, t0);
		if (n < 0) {
			if (errno == EINTR && !clyde_stopping(k->ctx))
				continue;
			return skip_err(k, errno, "readdir", NULL);
		}
		if (n == 0)
			return 0;
		for (long off = 0; off < n;) {
			struct kdirent64 *d = (void *)(k->dents + off);
			size_t nl = strlen(d->d_name);

			off += d->d_reclen;
			if (d->d_name[0] == '.' &&
			    (nl == 1 || (nl == 2 && d->d_name[1] == '.')))
				continue;
			if (f->len + nl + 2 > f->cap) {
				size_t ncap = f->cap ? f->cap * 2 : 4096;
				char *nb;

				while (ncap < f->len + nl + 2)
					ncap *= 2;
				nb = realloc(f->names, ncap);
				if (!nb)
					return clyde_err(k->ctx, ENOMEM,
							 "directory names");
				f->names = nb;
				f->cap = ncap;
			}
			f->names[f->len] = (char)d->d_type;
			memcpy(f->names + f->len + 1, d->d_name, nl + 1);
			f->len += nl + 2;
		}
	}
}

static void count_entry(struct walker *k, const struct stat *st,
			const char *name)
{
	k->w.entries++;
	if (S_ISREG(st->st_mode))
		k->w.files++;
	else if (S_ISDIR(st->st_mode))
		k->w.dirs++;
	else if (S_ISLNK(st->st_mode))
		k->symlinks++;
	else
		k->others++;
	if (k->sh->o->visit)
		k->sh->o->visit(k->sh->o->visit_arg, k->index, st, name);
}

/*
 * lstat of a listed name failed.  A name that vanished is not counted;
 * one that exists but may not be examined (a directory readable but not
 * searchable) is an entry like any other, as find lists it, typed by what
 * readdir said.
 */
static int lstat_failed(struct walker *k, int e, unsigned char type,
			const char *name)
{
	if (e == EACCES || e == EPERM) {
		struct stat st;

		memset(&st, 0, sizeof(st));
		st.st_mode = DTTOIF(type);
		count_entry(k, &st, name);
	}
	return skip_err(k, e, "lstat", name);
}

static int read_file(struct walker *k, int dirfd, const char *name)
{
	uint64_t t0 = clyde_now(k->ctx);
	int fd = open_at(k, dirfd, name,
			 O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
				 O_CLOEXEC);
	int ret = 0;

	op_done(k, CLYDE_TREE_OP_OPEN, t0);
	if (fd < 0)
		return skip_err(k, errno, "open", name);
	for (;;) {
		ssize_t n;

		t0 = clyde_now(k->ctx);
		n = read(fd, k->rbuf, k->io_size);
		op_done(k, CLYDE_TREE_OP_READ, t0);
		if (n > 0) {
			k->w.bytes += (uint64_t)n;
			/* A big file must not hold up Ctrl-C. */
			if (clyde_stopping(k->ctx)) {
				ret = -EINTR;
				break;
			}
			continue;
		}
		if (n < 0 && errno == EINTR && !clyde_stopping(k->ctx))
			continue;
		if (n < 0)
			ret = skip_err(k, errno, "read", name);
		break;
	}
	close(fd);
	return ret;
}

/* Is (dev, ino) a directory on this worker's stack (a bind-mount loop)? */
static bool on_stack(struct walker *k, const struct stat *st)
{
	for (unsigned i = 0; i < k->depth; i++)
		if (k->st[i].dev == st->st_dev && k->st[i].ino == st->st_ino)
			return true;
	return false;
}

/*
 * Open subdirectory `name` of dirfd (already lstat'ed into st) for a walk:
 * *fd is the descriptor, or -1 when it is not to be entered (another
 * filesystem, a loop, an error that was counted).
 */
static int open_subdir(struct walker *k, int dirfd, const char *name,
		       const struct stat *st, int *fd)
{
	uint64_t t0;

	*fd = -1;
	if (k->sh->o->one_fs && st->st_dev != k->sh->root_dev)
		return 0;
	if (on_stack(k, st)) {
		char path[PATH_MSG];

		k->err.loops++;
		stack_path(k, name, path, sizeof(path));
		pthread_mutex_lock(&k->sh->lock);
		if (!k->sh->r->first_error[0])
			snprintf(k->sh->r->first_error,
				 sizeof(k->sh->r->first_error),
				 "directory %s is its own ancestor", path);
		pthread_mutex_unlock(&k->sh->lock);
		return 0;
	}
	t0 = clyde_now(k->ctx);
	*fd = open_at(k, dirfd, name,
		      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	op_done(k, CLYDE_TREE_OP_OPEN, t0);
	if (*fd < 0)
		return skip_err(k, errno, "open", name);
	return 0;
}

/* Queue an open directory for another worker; false when the queue is
 * full (the caller keeps it). */
static bool enqueue(struct shared *sh, int fd, const struct stat *st,
		    const char *name)
{
	bool ok = false;

	pthread_mutex_lock(&sh->lock);
	if (sh->qcount < sh->qcap && !sh->done) {
		struct item *it = &sh->q[(sh->qhead + sh->qcount) % sh->qcap];

		it->fd = fd;
		it->dev = st->st_dev;
		it->ino = st->st_ino;
		snprintf(it->name, sizeof(it->name), "%s", name);
		sh->qcount++;
		atomic_store(&sh->idle_hint,
			     sh->idle > sh->qcount ? sh->idle - sh->qcount : 0);
		pthread_cond_signal(&sh->cond);
		ok = true;
	}
	pthread_mutex_unlock(&sh->lock);
	return ok;
}

/*
 * Someone is idle: give away the shallowest subdirectory not entered yet.
 * Only names the kernel typed DT_DIR are candidates (the owner finds the
 * others when it gets there).
 */
static int give_work(struct walker *k)
{
	struct shared *sh = k->sh;
	bool room;

	/* Check first, so that a name is only taken when it can be
	 * handed over (other givers may still fill the queue: rare, and
	 * then the giver walks the directory itself). */
	pthread_mutex_lock(&sh->lock);
	room = sh->qcount < sh->qcap && sh->idle > sh->qcount;
	pthread_mutex_unlock(&sh->lock);
	if (!room)
		return 0;
	for (unsigned i = 0; i < k->depth; i++) {
		struct frame *f = &k->st[i];
		size_t j = f->scan > f->pos ? f->scan : f->pos;

		while (j < f->len) {
			unsigned char type = (unsigned char)f->names[j];
			char *name = f->names + j + 1;
			size_t next = j + strlen(name) + 2;
			struct stat st;
			uint64_t t0;
			int fd, ret;

			f->scan = next;
			if (type != DT_DIR) {
				j = next;
				continue;
			}
			f->names[j] = (char)TYPE_TAKEN;
			t0 = clyde_now(k->ctx);
			if (fstatat(f->fd, name, &st, AT_SYMLINK_NOFOLLOW) <
			    0) {
				op_done(k, CLYDE_TREE_OP_STAT, t0);
				return lstat_failed(k, errno, type, name);
			}
			op_done(k, CLYDE_TREE_OP_STAT, t0);
			count_entry(k, &st, name);
			if (!S_ISDIR(st.st_mode)) {
				if (S_ISREG(st.st_mode) && k->sh->o->read)
					return read_file(k, f->fd, name);
				return 0;
			}
			ret = open_subdir(k, f->fd, name, &st, &fd);
			if (ret < 0 || fd < 0)
				return ret;
			if (enqueue(k->sh, fd, &st, name))
				return 0;
			/* The queue is full after all: walk it here. */
			ret = push_frame(k, fd, st.st_dev, st.st_ino, name);
			if (ret < 0) {
				close(fd);
				return ret;
			}
			return fill_names(k);
		}
	}
	return 0;
}

/* Visit the next name of the top frame (which must have one). */
static int visit_next(struct walker *k)
{
	struct frame *f = &k->st[k->depth - 1];
	unsigned char type = (unsigned char)f->names[f->pos];
	const char *name = f->names + f->pos + 1;
	int dirfd = f->fd, fd, ret;
	struct stat st;
	uint64_t t0;

	f->pos += strlen(name) + 2;
	if (type == TYPE_TAKEN)
		return 0;
	t0 = clyde_now(k->ctx);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		op_done(k, CLYDE_TREE_OP_STAT, t0);
		return lstat_failed(k, errno, type, name);
	}
	op_done(k, CLYDE_TREE_OP_STAT, t0);
	count_entry(k, &st, name);
	if (S_ISREG(st.st_mode) && k->sh->o->read)
		return read_file(k, dirfd, name);
	if (!S_ISDIR(st.st_mode))
		return 0;
	ret = open_subdir(k, dirfd, name, &st, &fd);
	if (ret < 0 || fd < 0)
		return ret;
	/* f may move when the stack grows: only the name is used below,
	 * and it lives in f->names, which does not. */
	ret = push_frame(k, fd, st.st_dev, st.st_ino, name);
	if (ret < 0) {
		close(fd);
		return ret;
	}
	return fill_names(k);
}

/* Walk the directory of one queue item, and everything below it that is
 * not given away. */
static int walk_item(struct walker *k, struct item *it)
{
	struct shared *sh = k->sh;
	int ret;

	memcpy(k->item_name, it->name, sizeof(k->item_name));
	ret = push_frame(k, it->fd, it->dev, it->ino,
			 it->root ? sh->root : k->item_name);
	if (ret < 0) {
		close(it->fd);
		return ret;
	}
	ret = fill_names(k);
	while (!ret && k->depth > 0) {
		struct frame *f = &k->st[k->depth - 1];

		if (clyde_stopping(k->ctx)) {
			ret = -EINTR;
			break;
		}
		if (f->pos >= f->len) {
			pop_frame(k);
			continue;
		}
		ret = visit_next(k);
		if (!ret && sh->nworkers > 1 && atomic_load(&sh->idle_hint))
			ret = give_work(k);
	}
	while (k->depth > 0)
		pop_frame(k);
	return ret;
}

static void *worker_main(void *arg)
{
	struct walker *k = arg;
	struct shared *sh = k->sh;
	uint64_t u0, s0, s1, u1;
	bool started = false;

	u0 = thread_cpu_ns(&s0);
	pthread_mutex_lock(&sh->lock);
	for (;;) {
		if (sh->done)
			break;
		if (sh->qcount > 0) {
			struct item it = sh->q[sh->qhead];
			uint64_t a, b;
			int ret;

			sh->qhead = (sh->qhead + 1) % sh->qcap;
			sh->qcount--;
			atomic_store(&sh->idle_hint,
				     sh->idle > sh->qcount ?
					     sh->idle - sh->qcount :
					     0);
			pthread_mutex_unlock(&sh->lock);
			a = clyde_now(k->ctx);
			if (!started) {
				k->w.start_ns = a - sh->t0;
				started = true;
			}
			ret = walk_item(k, &it);
			b = clyde_now(k->ctx);
			k->w.elapsed_ns += b - a;
			k->w.end_ns = b - sh->t0;
			pthread_mutex_lock(&sh->lock);
			if (ret < 0) {
				if (!sh->fatal)
					sh->fatal = ret;
				sh->done = true;
				if (ret != -EINTR)
					atomic_store(&sh->ctx->failed, 1);
				pthread_cond_broadcast(&sh->cond);
			}
			continue;
		}
		if (clyde_stopping(sh->ctx)) {
			if (!sh->fatal)
				sh->fatal = -EINTR;
			sh->done = true;
			pthread_cond_broadcast(&sh->cond);
			break;
		}
		sh->idle++;
		if (sh->idle == sh->nworkers) {
			/* Nobody works and nothing is queued: finished. */
			sh->done = true;
			pthread_cond_broadcast(&sh->cond);
			break;
		}
		atomic_store(&sh->idle_hint, sh->idle);
		while (!sh->qcount && !sh->done && !clyde_stopping(sh->ctx)) {
			struct timespec ts;

			/* Timed, so that Ctrl-C is seen without a signal
			 * to this thread. */
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 50000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&sh->cond, &sh->lock, &ts);
		}
		sh->idle--;
		atomic_store(&sh->idle_hint,
			     sh->idle > sh->qcount ? sh->idle - sh->qcount : 0);
	}
	pthread_mutex_unlock(&sh->lock);
	u1 = thread_cpu_ns(&s1);
	k->w.cpu_user_ns = u1 - u0;
	k->w.cpu_sys_ns = s1 - s0;
	return NULL;
}

static void walker_release(struct walker *k)
{
	for (unsigned i = 0; i < k->cap; i++)
		free(k->st[i].names);
	free(k->st);
	free(k->dents);
	free(k->rbuf);
	for (int op = 0; op < CLYDE_TREE_OP_COUNT; op++)
		free(k->h[op]);
}

static int walker_init(struct walker *k, struct shared *sh, unsigned index)
{
	memset(k, 0, sizeof(*k));
	k->sh = sh;
	k->ctx = sh->ctx;
	k->index = index;
	k->noatime = sh->o->noatime;
	k->io_size = sh->o->io_size ? sh->o->io_size :
				      CLYDE_TREE_DEFAULT_IO_SIZE;
	if (k->io_size > CLYDE_TREE_MAX_IO_SIZE)
		k->io_size = CLYDE_TREE_MAX_IO_SIZE;
	k->dents = malloc(DENTS_BUF);
	if (sh->o->read)
		k->rbuf = malloc(k->io_size);
	if (!k->dents || (sh->o->read && !k->rbuf))
		return -ENOMEM;
	for (int op = 0; op <= CLYDE_TREE_OP_READ; op++) {
		k->h[op] = malloc(sizeof(*k->h[op]));
		if (!k->h[op])
			return -ENOMEM;
		clyde_hist_init(k->h[op]);
	}
	return 0;
}

/* Add the workers' counts and histograms into r. */
static int merge_workers(struct walker *ks, unsigned n,
			 struct clyde_tree_phase_result *r)
{
	r->workers = calloc(n, sizeof(*r->workers));
	if (!r->workers)
		return -ENOMEM;
	r->nworkers = n;
	for (unsigned i = 0; i < n; i++) {
		struct walker *k = &ks[i];

		r->workers[i] = k->w;
		r->entries += k->w.entries;
		r->files += k->w.files;
		r->dirs += k->w.dirs;
		r->bytes += k->w.bytes;
		r->symlinks += k->symlinks;
		r->others += k->others;
		r->noatime_refused += k->noatime_refused;
		r->errors.permission_denied += k->err.permission_denied;
		r->errors.vanished += k->err.vanished;
		r->errors.loops += k->err.loops;
		r->errors.other += k->err.other;
		for (int op = 0; op < CLYDE_TREE_OP_COUNT; op++) {
			if (!k->h[op] || !clyde_hist_count(k->h[op]))
				continue;
			if (!r->lat[op]) {
				r->lat[op] = malloc(sizeof(*r->lat[op]));
				if (!r->lat[op])
					return -ENOMEM;
				clyde_hist_init(r->lat[op]);
			}
			clyde_hist_merge(r->lat[op], k->h[op]);
		}
	}
	return 0;
}

int clyde_tree_walk(struct clyde_ctx *ctx, int dirfd, const char *root,
		    const struct clyde_walk_opts *o,
		    struct clyde_tree_phase_result *r)
{
	struct shared sh = { .ctx = ctx, .o = o, .r = r, .root = root };
	struct walker *ks;
	pthread_t *tids;
	unsigned n = o->workers ? o->workers : 1, started = 0;
	struct stat st;
	uint64_t t0, u;
	int fd, ret = 0;

	sh.nworkers = n;
	sh.qcap = n * CLYDE_TREE_QUEUE_PER_WORKER;
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.cond, NULL);
	sh.q = calloc(sh.qcap, sizeof(*sh.q));
	ks = calloc(n, sizeof(*ks));
	tids = calloc(n, sizeof(*tids));
	if (!sh.q || !ks || !tids) {
		ret = clyde_err(ctx, ENOMEM, "walk of %s", root);
		goto out;
	}
	for (unsigned i = 0; i < n; i++)
		if (walker_init(&ks[i], &sh, i) < 0) {
			n = i + 1;
			ret = clyde_err(ctx, ENOMEM, "walk of %s", root);
			goto out;
		}

	t0 = clyde_now(ctx);
	sh.t0 = t0;
	/* The root: followed if it is a symlink (the user named it),
	 * counted by worker 0 like any entry. */
	fd = open_at(&ks[0], dirfd, root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	op_done(&ks[0], CLYDE_TREE_OP_OPEN, t0);
	if (fd < 0) {
		ret = clyde_err(ctx, errno, "cannot open directory %s", root);
		goto out;
	}
	u = clyde_now(ctx);
	if (fstat(fd, &st) < 0) {
		ret = clyde_err(ctx, errno, "cannot stat %s", root);
		close(fd);
		goto out;
	}
	op_done(&ks[0], CLYDE_TREE_OP_STAT, u);
	sh.root_dev = st.st_dev;
	count_entry(&ks[0], &st, root);
	sh.q[0] = (struct item){
		.fd = fd, .root = true, .dev = st.st_dev, .ino = st.st_ino
	};
	sh.qcount = 1;

	for (; started < n; started++) {
		int e = pthread_create(&tids[started], NULL, worker_main,
				       &ks[started]);

		if (e) {
			ret = clyde_err(ctx, e, "cannot start walk worker %u",
					started);
			pthread_mutex_lock(&sh.lock);
			sh.done = true;
			pthread_cond_broadcast(&sh.cond);
			pthread_mutex_unlock(&sh.lock);
			break;
		}
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	r->elapsed_ns = clyde_now(ctx) - t0;
	r->ran = true;
	/* Whatever a stop left queued. */
	for (; sh.qcount; sh.qcount--, sh.qhead = (sh.qhead + 1) % sh.qcap)
		close(sh.q[sh.qhead].fd);
	if (!ret && started == n && sh.fatal)
		ret = sh.fatal;
	if (merge_workers(ks, n, r) < 0 && !ret)
		ret = clyde_err(ctx, ENOMEM, "walk of %s", root);
out:
	if (ks)
		for (unsigned i = 0; i < n; i++)
			walker_release(&ks[i]);
	free(ks);
	free(tids);
	free(sh.q);
	pthread_cond_destroy(&sh.cond);
	pthread_mutex_destroy(&sh.lock);
	return ret;
}

/* ---- delete ------------------------------------------------------------- */

static int del_err(struct walker *k, int e, const char *op, const char *name,
		   const char *what)
{
	char path[PATH_MSG];

	stack_path(k, name, path, sizeof(path));
	return clyde_err(k->ctx, e, "delete: %s %s (in %s)", op, path, what);
}

int clyde_tree_delete(struct clyde_ctx *ctx, int dirfd, const char *root,
		      const char *what, struct clyde_tree_phase_result *r)
{
	struct clyde_walk_opts o = { .workers = 1 };
	struct shared sh = {
		.ctx = ctx, .o = &o, .r = r, .root = what, .nworkers = 1
	};
	struct walker k;
	uint64_t t0, u0, s0, s1;
	struct stat st;
	int fd, ret;

	pthread_mutex_init(&sh.lock, NULL);
	if (walker_init(&k, &sh, 0) < 0 ||
	    !(k.h[CLYDE_TREE_OP_UNLINK] = malloc(sizeof(struct clyde_hist)))) {
		walker_release(&k);
		pthread_mutex_destroy(&sh.lock);
		return clyde_err(ctx, ENOMEM, "delete %s", what);
	}
	clyde_hist_init(k.h[CLYDE_TREE_OP_UNLINK]);
	u0 = thread_cpu_ns(&s0);
	t0 = clyde_now(ctx);
	sh.t0 = t0;
	fd = openat(dirfd, root,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	op_done(&k, CLYDE_TREE_OP_OPEN, t0);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = clyde_err(ctx, errno, "delete: cannot open %s", what);
		if (fd >= 0)
			close(fd);
		goto out;
	}
	ret = push_frame(&k, fd, st.st_dev, st.st_ino, root);
	if (ret < 0) {
		close(fd);
		goto out;
	}
	ret = fill_names(&k);
	/* Like rm -rf: a directory's names first, then each one removed,
	 * a subdirectory emptied before it is removed itself. */
	while (!ret && k.depth > 0) {
		struct frame *f = &k.st[k.depth - 1];
		unsigned char type;
		const char *name;
		int pfd;

		if (clyde_stopping(ctx)) {
			ret = -EINTR;
			break;
		}
		if (f->pos >= f->len) {
			const char *dname = f->name;

			pfd = k.depth > 1 ? k.st[k.depth - 2].fd : dirfd;
			pop_frame(&k);
			t0 = clyde_now(ctx);
			if (unlinkat(pfd, dname, AT_REMOVEDIR) < 0) {
				ret = del_err(&k, errno, "rmdir", dname, what);
				break;
			}
			op_done(&k, CLYDE_TREE_OP_UNLINK, t0);
			k.w.entries++;
			k.w.dirs++;
			continue;
		}
		type = (unsigned char)f->names[f->pos];
		name = f->names + f->pos + 1;
		f->pos += strlen(name) + 2;
		if (type == DT_UNKNOWN) {
			if (fstatat(f->fd, name, &st, AT_SYMLINK_NOFOLLOW) <
			    0) {
				ret = del_err(&k, errno, "lstat", name, what);
				break;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG :
			       S_ISLNK(st.st_mode) ? DT_LNK :
						     DT_UNKNOWN;
		}
		if (type == DT_DIR) {
			t0 = clyde_now(ctx);
			fd = openat(f->fd, name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC);
			op_done(&k, CLYDE_TREE_OP_OPEN, t0);
			if (fd < 0) {
				ret = del_err(&k, errno, "open", name, what);
				break;
			}
			ret = push_frame(&k, fd, 0, 0, name);
			if (ret < 0) {
				close(fd);
				break;
			}
			ret = fill_names(&k);
			continue;
		}
		t0 = clyde_now(ctx);
		if (unlinkat(f->fd, name, 0) < 0) {
			ret = del_err(&k, errno, "unlink", name, what);
			break;
		}
		op_done(&k, CLYDE_TREE_OP_UNLINK, t0);
		k.w.entries++;
		if (type == DT_REG)
			k.w.files++;
		else if (type == DT_LNK)
			k.symlinks++;
		else
			k.others++;
	}
	/* fill_names() only skips errors, but here every error counts. */
	if (!ret && (k.err.permission_denied || k.err.vanished || k.err.loops ||
		     k.err.other))
		ret = clyde_err(ctx, 0, "delete %s: %s", what,
				r->first_error); /* -EIO */
	while (k.depth > 0)
		pop_frame(&k);
	r->elapsed_ns = clyde_now(ctx) - sh.t0;
	k.w.elapsed_ns = r->elapsed_ns;
	k.w.end_ns = r->elapsed_ns;
	k.w.cpu_user_ns = thread_cpu_ns(&s1) - u0;
	k.w.cpu_sys_ns = s1 - s0;
	r->ran = true;
	if (merge_workers(&k, 1, r) < 0 && !ret)
		ret = clyde_err(ctx, ENOMEM, "delete %s", what);
out:
	walker_release(&k);
	pthread_mutex_destroy(&sh.lock);
	return ret;
}
