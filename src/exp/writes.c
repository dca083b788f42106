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

#define show clyde_exp_show
#define SHOW_MAX CLYDE_EXP_SHOW_MAX

/* ---- the restore journal ---------------------------------------------------- */

/*
 * The journal (sweep-ID.journal beside the history) says what to undo if
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
		x->jfd = open(x->journal,
			      O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		if (x->jfd < 0)
			return clyde_err(x->ctx, errno, "%s: open", x->journal);
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
	char buf[SHOW_MAX + 1], full[PATH_MAX];

	if (!clyde_sweep_set_path_ok(path))
		return clyde_err(ctx, 0,
				 "set %s: only files below /sys and /proc/sys "
				 "are written",
				 show(buf, path));
	if ((size_t)snprintf(full, sizeof(full), "%s%s", x->root, path) >=
	    sizeof(full))
		return clyde_err(ctx, ENAMETOOLONG, "set %s", show(buf, path));
	if (!realpath(full, out))
		return clyde_err(ctx, errno, "set %s", show(buf, path));
	if (!below_tunables(x, out))
		return clyde_err(ctx, 0,
				 "set %s: leads to %s, not below /sys or "
				 "/proc/sys; not written",
				 show(buf, path), show(full, out));
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
 * Take the lock `key` (a file in LOCK_DIR) for `what` (a path or device,
 * for messages), unless this sweep holds it already.  Another sweep that
 * holds it is named (its pid and file, from the lock file) and the call
 * fails with -EBUSY: two sweeps that write one knob would each restore the
 * other's value.  The lock goes with the process (flock), so a killed
 * sweep holds nothing.
 */
int exp_lock_key(struct clyde_exp_exec *x, const char *key, const char *what,
		 bool visit)
{
	char path[PATH_MAX + 80], holder[256] = "", buf[SHOW_MAX + 1];
	struct held_lock *l;
	ssize_t n;
	int fd;

	for (size_t i = 0; i < x->nlocks; i++)
		if (!strcmp(x->locks[i].key, key))
			return 0;
	if (mkdir(x->lock_dir, 0755) < 0 && errno != EEXIST)
		return clyde_err(x->ctx, errno, "lock %s: %s", show(buf, what),
				 x->lock_dir);
	snprintf(path, sizeof(path), "%s/%s.lock", x->lock_dir, key);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return clyde_err(x->ctx, errno, "lock %s: %s", show(buf, what),
				 path);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;

		n = pread(fd, holder, sizeof(holder) - 1, 0);
		close(fd);
		holder[n > 0 ? n : 0] = '\0';
		holder[strcspn(holder, "\n")] = '\0';
		if (e != EWOULDBLOCK)
			return clyde_err(x->ctx, e, "lock %s: %s",
					 show(buf, what), path);
		clyde_err(x->ctx, 0,
			  "%s is in use by %s (lock %s); run one sweep at a "
			  "time on it",
			  show(buf, what), holder[0] ? holder : "another sweep",
			  path);
		return -EBUSY;
	}
	l = realloc(x->locks, (x->nlocks + 1) * sizeof(*l));
	if (!l) {
		close(fd);
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

/* Let go of the locks taken for one visit (all of them: every one). */
void exp_unlock_all(struct clyde_exp_exec *x, bool visit_only)
{
	size_t k = 0;

	for (size_t i = 0; i < x->nlocks; i++) {
		if (visit_only && !x->locks[i].visit) {
			x->locks[k++] = x->locks[i];
			continue;
		}
		close(x->locks[i].fd);
	}
	x->nlocks = k;
	if (!k) {
		free(x->locks);
		x->locks = NULL;
	}
}

/*
 * Lock a resolved sysfs or /proc/sys path and, for one below a block
 * device's directory (/sys/devices/.../block/NAME/...), that device
 * (by major:minor, from its dev file), so that two sweeps do not tune
 * one device at once.
 */
static int lock_path(struct clyde_exp_exec *x, const char *resolved, bool visit)
{
	char key[64], dev[PATH_MAX + 8], num[32] = "";
	const char *b = strstr(resolved, "/block/");
	int rc;

	snprintf(key, sizeof(key), "set-%016llx",
		 (unsigned long long)fnv1a(resolved));
	rc = exp_lock_key(x, key, resolved, visit);
	if (rc < 0 || !b || strncmp(resolved, "/sys/", 5))
		return rc;
	b += 7;
	snprintf(dev, sizeof(dev), "%.*s/dev",
		 (int)(b - resolved + strcspn(b, "/")), resolved);
	{
		int fd = open(dev, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, num, sizeof(num) - 1) : -1;

		if (fd >= 0)
			close(fd);
		num[n > 0 ? n : 0] = '\0';
		num[strcspn(num, "\n")] = '\0';
	}
	if (!num[0] || strchr(num, '/'))
		return 0; /* cannot tell */
	snprintf(key, sizeof(key), "dev-%s", num);
	dev[strlen(dev) - 4] = '\0';
	return exp_lock_key(x, key, dev, visit);
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
	char old[4096], real[PATH_MAX], buf[SHOW_MAX + 1];
	char *text;
	size_t len;
	int rc;

	if (exp_resolve_set_path(x, x->ctx, path, real) < 0 ||
	    lock_path(x, real, true) < 0)
		return -1;
	text = clyde_exp_slurp(real, &len);
	if (!text)
		return clyde_err(x->ctx, errno, "%s: read the old value", real);
	restore_value(text, old, sizeof(old));
	free(text);
	if (strchr(old, '\t') || exp_journal_add(x, "set\t%s\t%s\n", real, old))
		return clyde_err(x->ctx, 0, "%s: cannot journal the old value",
				 real);
	rc = write_value(x->ctx, real, value);
	if (rc < 0) {
		/* Nothing was written: nothing to put back, now or from the
		 * journal after a crash. */
		if (exp_journal_add(x, "unset\t%s\t-\n", real) < 0)
			exp_say(x, "%s\n", clyde_errmsg(x->ctx));
		return rc;
	}
	sw = realloc(x->writes, (x->nwrites + 1) * sizeof(*sw));
	if (!sw)
		return clyde_err(x->ctx, ENOMEM, "set %s", show(buf, real));
	x->writes = sw;
	sw = &x->writes[x->nwrites];
	sw->path = strdup(real);
	sw->old = strdup(old);
	if (!sw->path || !sw->old) {
		free(sw->path);
		free(sw->old);
		return clyde_err(x->ctx, ENOMEM, "set %s", show(buf, real));
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

/*
 * Undo what a crashed visit left, from its journal: first end the
 * children it ran (and remove their scratch directories), then write the
 * old values back (newest first; not those whose write failed), run the
 * teardown with the captured values, remove the work directory.
 */
int exp_undo_journal(struct clyde_exp_exec *x)
{
	size_t len;
	char *text = clyde_exp_slurp(x->journal, &len), *line, *save = NULL;
	struct saved_write *undo = NULL;
	size_t nundo = 0;
	long vp = -1;
	unsigned vr = 0;
	int bad = 0;

	if (!text)
		return 0;
	exp_say(x, "%s: undoing an interrupted visit\n", x->journal);
	/* The children first: nothing else while they run. */
	{
		char *copy = strdup(text), *sv = NULL;

		for (line = copy ? strtok_r(copy, "\n", &sv) : NULL; line;
		     line = strtok_r(NULL, "\n", &sv)) {
			char *f1 = strchr(line, '\t'),
			     *f2 = f1 ? strchr(f1 + 1, '\t') : NULL;

			if (!f1 || !f2 || strncmp(line, "child\t", 6))
				continue;
			*f2++ = '\0';
			if (exp_end_child(x, f1 + 1, f2) < 0)
				bad++;
		}
		free(copy);
		if (bad) {
			free(text);
			return -1;
		}
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f1 = strchr(line, '\t'),
		     *f2 = f1 ? strchr(f1 + 1, '\t') : NULL;

		if (!f1 || !f2)
			continue;
		*f1++ = '\0';
		*f2++ = '\0';
		if (!strcmp(line, "visit")) {
			vp = strtol(f1, NULL, 10);
			vr = (unsigned)strtoul(f2, NULL, 10);
			exp_reset_captured(x->s);
		} else if (!strcmp(line, "tmp")) {
			/* Only the files clyde puts there, then rmdir. */
			if (strstr(f1, "/clyde-sweep."))
				exp_rm_tmpdir(f1);
		} else if (!strcmp(line, "capture")) {
			clyde_sweep_set_var(x->s, f1, f2);
		} else if (!strcmp(line, "set")) {
			struct saved_write *u =
				realloc(undo, (nundo + 1) * sizeof(*u));

			if (!u)
				break;
			undo = u;
			undo[nundo].path = f1;
			undo[nundo++].old = f2;
		} else if (!strcmp(line, "unset") && nundo > 0 &&
			   !strcmp(undo[nundo - 1].path, f1)) {
			nundo--; /* the write failed: nothing to undo */
		}
	}
	while (nundo > 0) {
		struct saved_write *u = &undo[--nundo];
		char real[PATH_MAX];
		struct clyde_ctx c;

		clyde_ctx_init(&c);
		/* The journal holds the resolved path: it must still lead
		 * below the tunables. */
		if (!realpath(u->path, real) || !below_tunables(x, real)) {
			clyde_err(&c, errno ? errno : EPERM,
				  "%s: not below /sys or /proc/sys", u->path);
			exp_say(x, "restore %s: %s", u->path, clyde_errmsg(&c));
			bad++;
		} else if (lock_path(x, real, true) < 0 ||
			   write_value(&c, real, u->old) < 0) {
			exp_say(x, "restore %s: %s\n", u->path,
				clyde_errmsg(&c)[0] ? clyde_errmsg(&c) :
						      clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			bad++;
		} else {
			exp_say(x, "restored %s = %s\n", u->path, u->old);
		}
		clyde_ctx_release(&c);
	}
	if (vp >= 0 && (size_t)vp < x->s->npoints && vr >= 1) {
		struct visit_env ve;

		exp_visit_env_init(x, (size_t)vp, vr, &ve);
		exp_say(x,
			"running the teardown of point %ld repeat "
			"%u\n",
			vp + 1, vr);
		exp_teardown(x, (size_t)vp, vr, &ve, true);
	}
	exp_unlock_all(x, true);
	free(undo);
	free(text);
	if (bad == 0)
		unlink(x->journal);
	return bad ? -1 : 0;
}
