/*
 * The writes of an experiment: `set` paths resolved below /sys or
 * /proc/sys (of cfg->root), locked against another sweep, their old
 * values journalled before the write and written back after the visit
 * (or, after a crash, by --resume from the journal).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exp/exp_internal.h"
#include "exp/journal.h"

/* ---- the restore journal ---------------------------------------------------- */

/*
 * The journal (DB.sweep-ID.journal beside the history) says what to undo if
 * clyde dies inside a visit: "visit P R" when one starts, "set PATH OLD"
 * before each write.  It is removed when the visit has been torn down and
 * restored; --resume finds it and undoes what it lists first.
 */
int exp_journal_add(struct clyde_exp_exec *x, const char *fmt, ...)
{
	char line[8192];
	va_list ap;
	int n;

	if (x->jfd < 0) {
		/* Beside the history, perhaps in a directory others can
		 * write: never through a link, never into someone else's
		 * file (--resume would refuse to read it). */
		x->jfd = clyde_exp_open_own(x->ctx, x->journal,
					    O_WRONLY | O_CREAT | O_APPEND, 0600,
					    "journal");
		if (x->jfd < 0)
			return x->jfd;
	}
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return clyde_err(x->ctx, EINVAL, "%s: entry too long",
				 x->journal);
	if (write(x->jfd, line, (size_t)n) != n || fsync(x->jfd) < 0)
		return clyde_err(x->ctx, errno, "%s: write", x->journal);
	return 0;
}

void exp_journal_done(struct clyde_exp_exec *x)
{
	if (x->jfd >= 0)
		close(x->jfd);
	x->jfd = -1;
	unlink(x->journal);
}

/* ---- sysfs and /proc writes ------------------------------------------------ */

/* The value to write back: a selector such as "[mq-deadline] none" gives
 * the selected word; otherwise the first line, trimmed. */
static void restore_value(const char *old, char *buf, size_t cap)
{
	const char *lb = strchr(old, '['), *rb = lb ? strchr(lb, ']') : NULL;
	size_t n;

	if (lb && rb && rb > lb + 1) {
		n = (size_t)(rb - lb - 1);
		snprintf(buf, cap, "%.*s", (int)n, lb + 1);
		return;
	}
	while (*old == ' ' || *old == '\t')
		old++;
	n = strcspn(old, "\n");
	while (n > 0 && (old[n - 1] == ' ' || old[n - 1] == '\t'))
		n--;
	snprintf(buf, cap, "%.*s", (int)n, old);
}

/* Whether resolved path `real` is below root/sys/ or root/proc/sys/. */
static bool below_tunables(const struct clyde_exp_exec *x, const char *real)
{
	size_t rl = strlen(x->root);

	return !strncmp(real, x->root, rl) &&
	       (!strncmp(real + rl, "/sys/", 5) ||
		!strncmp(real + rl, "/proc/sys/", 10));
}

/*
 * Only kernel tunables are written, so that a typo (or a captured value)
 * cannot hit a real file: PATH must be below /sys or /proc/sys as written
 * (no . or ..), and lead there once its symlinks are resolved
 * (/proc/self/root/... would not).  PATH is taken below the root (the
 * real "/", or a fake sysfs in tests).  On success `out` is the resolved
 * path (PATH_MAX bytes): what is read, locked, journalled and written.
 */
int exp_resolve_set_path(const struct clyde_exp_exec *x, struct clyde_ctx *ctx,
			 const char *path, char *out)
{
	char buf[CLYDE_EXP_SHOW_MAX + 1], full[PATH_MAX];

	if (!clyde_sweep_set_path_ok(path))
		return clyde_err(ctx, 0,
				 "set %s: %s; only files below /sys and "
				 "/proc/sys are written",
				 clyde_exp_show(buf, path),
				 clyde_sweep_set_path_why(path));
	if ((size_t)snprintf(full, sizeof(full), "%s%s", x->root, path) >=
	    sizeof(full))
		return clyde_err(ctx, ENAMETOOLONG, "set %s",
				 clyde_exp_show(buf, path));
	if (!realpath(full, out))
		return clyde_err(ctx, errno, "set %s",
				 clyde_exp_show(buf, path));
	if (!below_tunables(x, out))
		return clyde_err(ctx, 0,
				 "set %s: leads to %s, not below /sys or "
				 "/proc/sys; not written",
				 clyde_exp_show(buf, path),
				 clyde_exp_show(full, out));
	return 0;
}

/* ---- locks on written paths and devices ----------------------------------- */

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/*
 * Take an flock on lock file `path`, a file of clyde's own (made when
 * missing; clyde_exp_open_own() refuses a link, a FIFO, another user's
 * file).  Its holder lets go by removing the file, then closing it
 * (exp_flock_release()), so that no lock file outlives its sweep; a lock
 * taken on a file removed meanwhile locks nothing, so it is taken again
 * on the new one.  Returns the descriptor, -EBUSY when another process
 * holds it (its first line, the holder, in `holder`), or a negative errno
 * with the message in ctx.
 */
int exp_flock_own(struct clyde_ctx *ctx, const char *path, char *holder,
		  size_t cap)
{
	for (int tries = 0; tries < 100; tries++) {
		struct stat a, b;
		int fd = clyde_exp_open_own(ctx, path, O_RDWR | O_CREAT, 0644,
					    "lock");
		ssize_t n;

		if (fd < 0)
			return fd;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;

			n = pread(fd, holder, cap - 1, 0);
			close(fd);
			holder[n > 0 ? n : 0] = '\0';
			holder[strcspn(holder, "\n")] = '\0';
			if (e == EWOULDBLOCK)
				return -EBUSY;
			return clyde_err(ctx, e, "%s: lock", path);
		}
		if (fstat(fd, &a) == 0 && lstat(path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		close(fd);
	}
	return clyde_err(ctx, EAGAIN, "%s: lock", path);
}

void exp_flock_release(const char *path, int fd)
{
	if (fd < 0)
		return;
	/* Removed while held: whoever opened it meanwhile takes it again
	 * on a new file (exp_flock_own()). */
	unlink(path);
	close(fd);
}

static void lock_file(const struct clyde_exp_exec *x, const char *key,
		      char *path, size_t cap)
{
	snprintf(path, cap, "%s/%s.lock", x->lock_dir, key);
}

/*
 * Take the lock `key` (a file in LOCK_DIR) for `what` (a path or device,
 * for messages), unless this sweep holds it already.  Another sweep that
 * holds it is named (its pid and file, from the lock file) and the call
 * fails with -EBUSY: two sweeps that write one knob would each restore the
 * other's value.  The lock goes with the process (flock), so a killed
 * sweep holds nothing; a sweep that ends removes its lock files.
 */
int exp_lock_key(struct clyde_exp_exec *x, const char *key, const char *what,
		 bool visit)
{
	char path[PATH_MAX + 80], holder[256] = "", buf[CLYDE_EXP_SHOW_MAX + 1];
	struct held_lock *l;
	int fd;

	for (size_t i = 0; i < x->nlocks; i++)
		if (!strcmp(x->locks[i].key, key))
			return 0;
	if (mkdir(x->lock_dir, 0755) < 0 && errno != EEXIST)
		return clyde_err(x->ctx, errno, "lock %s: %s",
				 clyde_exp_show(buf, what), x->lock_dir);
	if (clyde_exp_check_own_dir(x->ctx, x->lock_dir) < 0)
		return -EPERM;
	lock_file(x, key, path, sizeof(path));
	fd = exp_flock_own(x->ctx, path, holder, sizeof(holder));
	if (fd == -EBUSY) {
		clyde_err(x->ctx, 0,
			  "%s is in use by %s (lock %s); run one sweep at a "
			  "time on it",
			  clyde_exp_show(buf, what),
			  holder[0] ? holder : "another sweep", path);
		return -EBUSY;
	}
	if (fd < 0)
		return fd;
	l = realloc(x->locks, (x->nlocks + 1) * sizeof(*l));
	if (!l) {
		exp_flock_release(path, fd);
		return clyde_err(x->ctx, ENOMEM, "lock %s", path);
	}
	x->locks = l;
	l = &x->locks[x->nlocks++];
	snprintf(l->key, sizeof(l->key), "%s", key);
	l->fd = fd;
	l->visit = visit;
	snprintf(holder, sizeof(holder), "clyde sweep pid %ld (%s)\n",
		 (long)getpid(), x->s && x->s->file ? x->s->file : "?");
	if (ftruncate(fd, 0) == 0 &&
	    pwrite(fd, holder, strlen(holder), 0) < 0) {
		/* The lock holds; only the holder's name is missing. */
	}
	return 0;
}

/* Let go of the locks taken for one visit (visit_only), or of all. */
void exp_unlock_all(struct clyde_exp_exec *x, bool visit_only)
{
	size_t k = 0;

	for (size_t i = 0; i < x->nlocks; i++) {
		char path[PATH_MAX + 80];

		if (visit_only && !x->locks[i].visit) {
			x->locks[k++] = x->locks[i];
			continue;
		}
		lock_file(x, x->locks[i].key, path, sizeof(path));
		exp_flock_release(path, x->locks[i].fd);
	}
	x->nlocks = k;
	if (!k) {
		free(x->locks);
		x->locks = NULL;
	}
}

/* The major:minor in file `path` ("8:0\n"), or "" when unreadable. */
static void read_devnum(const char *path, char *num, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n = fd >= 0 ? read(fd, num, cap - 1) : -1;

	if (fd >= 0)
		close(fd);
	num[n > 0 ? n : 0] = '\0';
	num[strcspn(num, "\n")] = '\0';
	if (strspn(num, "0123456789:") != strlen(num) || !strchr(num, ':'))
		num[0] = '\0';
}

/*
 * The block device (major:minor) a resolved sysfs path tunes, or "":
 * below a block device's directory (/sys/devices/.../block/NAME/..., its
 * number from NAME/dev), or a backing device's attribute
 * (/sys/devices/virtual/bdi/MAJ:MIN/...), which is the same knob as the
 * device's queue/ one (bdi/read_ahead_kb is queue/read_ahead_kb).  *dir
 * gets the device's directory for messages.
 */
static void path_device(const char *resolved, char *num, size_t cap, char *dir,
			size_t dcap)
{
	const char *b = strstr(resolved, "/block/");
	const char *bdi = strstr(resolved, "/bdi/");

	num[0] = '\0';
	dir[0] = '\0';
	if (strncmp(resolved, "/sys/", 5))
		return;
	if (b) {
		char devfile[PATH_MAX + 8];

		b += 7;
		snprintf(dir, dcap, "%.*s",
			 (int)(b - resolved + strcspn(b, "/")), resolved);
		snprintf(devfile, sizeof(devfile), "%s/dev", dir);
		read_devnum(devfile, num, cap);
	} else if (bdi) {
		size_t n = strcspn(bdi + 5, "/");

		snprintf(num, cap, "%.*s", (int)n, bdi + 5);
		snprintf(dir, dcap, "%.*s", (int)(bdi + 5 + n - resolved),
			 resolved);
		if (strspn(num, "0123456789:") != n || !strchr(num, ':'))
			num[0] = '\0';
	}
}

/*
 * Lock a resolved sysfs or /proc/sys path: the knob, and, for one that
 * belongs to a block device, that device, so that two sweeps do not tune
 * one device at once.  The knob's lock is keyed on what it is, not on its
 * name: a device's attribute on the device's number and the attribute's
 * name (queue/read_ahead_kb and bdi/read_ahead_kb of one device are one
 * knob), another file on its resolved path.
 */
static int lock_path(struct clyde_exp_exec *x, const char *resolved, bool visit)
{
	char key[64], num[32], dir[PATH_MAX], what[PATH_MAX + 64];
	const char *attr = strrchr(resolved, '/');
	int rc;

	path_device(resolved, num, sizeof(num), dir, sizeof(dir));
	if (num[0]) {
		snprintf(what, sizeof(what), "%s %s", num, attr + 1);
		snprintf(key, sizeof(key), "set-%016llx",
			 (unsigned long long)fnv1a(what));
	} else {
		/* Resolved: its symbolic links lead here.  (Not the inode:
		 * /proc/sys gives a file a new one when it comes back.) */
		snprintf(key, sizeof(key), "set-%016llx",
			 (unsigned long long)fnv1a(resolved));
	}
	rc = exp_lock_key(x, key, resolved, visit);
	if (rc < 0 || !num[0])
		return rc;
	snprintf(key, sizeof(key), "dev-%s", num);
	return exp_lock_key(x, key, dir, visit);
}

static int write_value(struct clyde_ctx *ctx, const char *path,
		       const char *value)
{
	/* O_TRUNC as a shell's > does: sysfs and /proc/sys ignore it. */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(value);
	ssize_t w;

	if (fd < 0)
		return clyde_err(ctx, errno, "%s: open for writing", path);
	w = write(fd, value, len);
	if (w < 0 || (size_t)w != len) {
		int e = w < 0 ? errno : EIO;

		close(fd);
		return clyde_err(ctx, e, "%s: write \"%s\"", path, value);
	}
	if (close(fd) < 0)
		return clyde_err(ctx, errno, "%s: write \"%s\"", path, value);
	return 0;
}

/* Resolve the path, lock it, read the old value, journal it, write the
 * new one; only a write that succeeded is restored. */
int exp_do_set(struct clyde_exp_exec *x, const char *path, const char *value)
{
	struct saved_write *sw;
	char old[4096], real[PATH_MAX], buf[CLYDE_EXP_SHOW_MAX + 1];
	char *text;
	size_t len;
	int rc;

	if (exp_resolve_set_path(x, x->ctx, path, real) < 0 ||
	    lock_path(x, real, true) < 0)
		return -1;
	if (strpbrk(value, "\t\n"))
		return clyde_err(x->ctx, 0,
				 "set %s: a tab or a line end in the value, "
				 "which the journal cannot hold",
				 real);
	text = clyde_exp_slurp(real, &len);
	if (!text)
		return clyde_err(x->ctx, errno, "%s: read the old value", real);
	restore_value(text, old, sizeof(old));
	free(text);
	if (strchr(old, '\t') || exp_journal_add(x, "set\t%s\t%s\n", real, old))
		return clyde_err(x->ctx, 0, "%s: cannot journal the old value",
				 real);
	/* What clyde writes, so that --resume puts the old value back only
	 * over its own (not over one changed since). */
	if (exp_journal_add(x, "want\t%s\t%s\n", real, value) < 0)
		return -1;
	rc = write_value(x->ctx, real, value);
	if (rc < 0) {
		/* Nothing was written: nothing to put back, now or from the
		 * journal after a crash. */
		if (exp_journal_add(x, "unset\t%s\t-\n", real) < 0)
			exp_say(x, "%s\n", clyde_errmsg(x->ctx));
		return rc;
	}
	/* And what the knob holds now (the kernel rounds, a selector shows
	 * every choice). */
	text = clyde_exp_slurp(real, &len);
	if (text) {
		char now[4096];

		restore_value(text, now, sizeof(now));
		free(text);
		if (!strchr(now, '\t') &&
		    exp_journal_add(x, "now\t%s\t%s\n", real, now) < 0) {
			exp_say(x, "%s\n", clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
		}
	}
	sw = realloc(x->writes, (x->nwrites + 1) * sizeof(*sw));
	if (!sw)
		return clyde_err(x->ctx, ENOMEM, "set %s",
				 clyde_exp_show(buf, real));
	x->writes = sw;
	sw = &x->writes[x->nwrites];
	sw->path = strdup(real);
	sw->old = strdup(old);
	if (!sw->path || !sw->old) {
		free(sw->path);
		free(sw->old);
		return clyde_err(x->ctx, ENOMEM, "set %s",
				 clyde_exp_show(buf, real));
	}
	x->nwrites++;
	return 0;
}

/* Write back every saved value, newest first.  Returns the failures. */
int exp_restore_writes(struct clyde_exp_exec *x)
{
	int bad = 0;

	while (x->nwrites > 0) {
		struct saved_write *sw = &x->writes[--x->nwrites];
		struct clyde_ctx c;

		clyde_ctx_init(&c);
		if (write_value(&c, sw->path, sw->old) < 0) {
			exp_say(x, "restore: %s\n", clyde_errmsg(&c));
			bad++;
		} else if (exp_journal_add(x, "restored\t%s\t-\n", sw->path) <
			   0) {
			/* --resume would find it ours no more and say so. */
			clyde_err_clear(x->ctx);
		}
		clyde_ctx_release(&c);
		free(sw->path);
		free(sw->old);
	}
	return bad;
}

/*
 * Lock every `set` path known before the first visit (and its device),
 * for the whole sweep: a second sweep that needs one is refused at once,
 * naming the holder.  Paths that depend on a captured value are locked at
 * their visit.  Returns 0, or -1 with the message in the context.
 */
int exp_lock_static_paths(struct clyde_exp_exec *x)
{
	struct clyde_sweep *s = x->s;

	for (size_t p = 0; p < s->npoints; p++)
		for (size_t k = 0; k < s->nsetup; k++) {
			const struct clyde_sweep_step *st = &s->setup[k];
			char real[PATH_MAX], *path;
			struct clyde_ctx c;
			int rc;

			if (st->kind != CLYDE_SWEEP_SET)
				continue;
			path = exp_static_expand(x->ctx, s, p, st->text,
						 st->line);
			if (!path)
				continue;
			clyde_ctx_init(&c);
			rc = exp_resolve_set_path(x, &c, path, real);
			clyde_ctx_release(&c);
			free(path);
			if (rc == 0 && lock_path(x, real, false) < 0)
				return -1;
		}
	return 0;
}

/* The journal's text, read only when it is clyde's own: NULL with
 * *rc 0 when there is none, or with *rc < 0 (message in the context). */
static char *read_journal(struct clyde_exp_exec *x, size_t *len, int *rc)
{
	int fd = clyde_exp_open_own(x->ctx, x->journal, O_RDONLY, 0, "journal");
	size_t cap = 0;
	char *text = NULL;

	*rc = 0;
	*len = 0;
	if (fd == -ENOENT) {
		clyde_err_clear(x->ctx);
		return NULL;
	}
	if (fd < 0) {
		*rc = fd;
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (*len + 4096 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 8192;
			p = cap > CLYDE_EXP_JOURNAL_MAX + 8192 ?
				    NULL :
				    realloc(text, cap);
			if (!p) {
				*rc = clyde_err(x->ctx, EFBIG, "%s: read",
						x->journal);
				break;
			}
			text = p;
		}
		n = read(fd, text + *len, cap - *len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*rc = clyde_err(x->ctx, errno, "%s: read", x->journal);
			break;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	close(fd);
	if (*rc < 0) {
		free(text);
		return NULL;
	}
	text[*len] = '\0';
	return text;
}

/* Put back one journalled write, unless its knob holds another value than
 * the one clyde wrote (someone changed it since: theirs stays).  Returns
 * 0 (restored, or left alone and said so) or -1. */
static int undo_set(struct clyde_exp_exec *x,
		    const struct clyde_exp_journal_set *u)
{
	char real[PATH_MAX], cur[4096], want[4096];
	const char *mine = u->now ? u->now : u->want;
	struct clyde_ctx c;
	size_t len;
	char *text;
	int rc = 0;

	clyde_ctx_init(&c);
	/* The journal holds the resolved path: it must still lead below the
	 * tunables. */
	errno = 0;
	if (!realpath(u->path, real) || !below_tunables(x, real)) {
		clyde_err(&c, errno ? errno : EPERM,
			  "%s: not below /sys or /proc/sys", u->path);
		exp_say(x, "restore %s: %s\n", u->path, clyde_errmsg(&c));
		clyde_ctx_release(&c);
		return -1;
	}
	if (lock_path(x, real, true) < 0) {
		exp_say(x, "restore %s: %s\n", u->path, clyde_errmsg(x->ctx));
		clyde_err_clear(x->ctx);
		clyde_ctx_release(&c);
		return -1;
	}
	text = clyde_exp_slurp(real, &len);
	if (text) {
		restore_value(text, cur, sizeof(cur));
		free(text);
	} else {
		cur[0] = '\0';
	}
	if (mine)
		restore_value(mine, want, sizeof(want));
	else
		want[0] = '\0';
	if (!mine) {
		/* clyde journals what it will write before it writes. */
		exp_say(x,
			"%s: the journal has no value written after it "
			"(clyde stopped before the write): nothing to "
			"restore\n",
			u->path);
	} else if (text && !strcmp(cur, u->old)) {
		exp_say(x, "%s holds %s again: nothing to restore\n", u->path,
			u->old);
	} else if (text && strcmp(cur, want)) {
		exp_say(x,
			"%s: holds %s, not the %s clyde wrote; changed since, "
			"so left alone (it was %s before)\n",
			u->path, cur, want, u->old);
	} else if (write_value(&c, real, u->old) < 0) {
		exp_say(x, "restore %s: %s\n", u->path, clyde_errmsg(&c));
		rc = -1;
	} else {
		exp_say(x, "restored %s = %s\n", u->path, u->old);
	}
	clyde_ctx_release(&c);
	return rc;
}

/*
 * Undo what a crashed visit left, from its journal: first end the
 * children it ran (and remove their scratch directories), then write the
 * old values back (newest first; not those whose write failed, nor over a
 * value changed since), run the teardown with the captured values, remove
 * the work directory.  The journal is read only when it is clyde's own
 * (clyde_exp_open_own()) and only when every line is one clyde writes.
 * Returns 0, -1 when something could not be undone (said through the
 * hooks), or -EPERM/-EINVAL when the journal was refused (message in the
 * context, nothing done).
 */
int exp_undo_journal(struct clyde_exp_exec *x)
{
	struct clyde_exp_journal j;
	size_t len;
	int bad = 0, rc;
	char *text = read_journal(x, &len, &rc);

	if (!text)
		return rc < 0 ? -EPERM : 0;
	rc = clyde_exp_journal_parse(x->ctx, x->journal, text, len, &j);
	free(text);
	if (rc < 0)
		return -EINVAL;
	exp_say(x, "%s: undoing an interrupted visit\n", x->journal);
	/* The children first: nothing else while they run. */
	for (size_t i = 0; i < j.nchildren; i++)
		if (exp_end_child(x, j.children[i].id, j.children[i].dir) < 0)
			bad++;
	if (bad) {
		clyde_exp_journal_release(&j);
		return -1;
	}
	for (size_t i = 0; i < j.ntmps; i++)
		/* Only the files clyde puts there, then rmdir. */
		if (strstr(j.tmps[i], "/clyde-sweep."))
			exp_rm_tmpdir(j.tmps[i]);
	exp_reset_captured(x->s);
	for (size_t i = 0; i < j.ncaptures; i++)
		clyde_sweep_set_var(x->s, j.captures[i].name,
				    j.captures[i].value);
	for (size_t i = j.nsets; i-- > 0;)
		if (undo_set(x, &j.sets[i]) < 0)
			bad++;
	if (j.visit_point >= 0 && (size_t)j.visit_point < x->s->npoints) {
		struct visit_env ve;
		size_t vp = (size_t)j.visit_point;

		exp_visit_env_init(x, vp, j.visit_repeat, &ve);
		exp_say(x, "running the teardown of point %zu repeat %u\n",
			vp + 1, j.visit_repeat);
		exp_teardown(x, vp, j.visit_repeat, &ve, true);
	}
	exp_unlock_all(x, true);
	clyde_exp_journal_release(&j);
	if (bad == 0)
		unlink(x->journal);
	return bad ? -1 : 0;
}
