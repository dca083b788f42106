/*
 * The sweep's own files and the restore journal's reader (exp/journal.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exp/journal.h"
#include "exp/exp_internal.h"

/* ---- clyde's own files ------------------------------------------------------ */

/* Why st is not a file clyde may trust, or NULL. */
static const char *untrusted(const struct stat *st, char *buf, size_t cap)
{
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if (st->st_uid != geteuid()) {
		snprintf(buf, cap,
			 "owned by uid %lu, not by uid %lu that runs clyde",
			 (unsigned long)st->st_uid, (unsigned long)geteuid());
		return buf;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "writable by group or others";
	if (st->st_nlink != 1) {
		snprintf(buf, cap, "%lu hard links to it",
			 (unsigned long)st->st_nlink);
		return buf;
	}
	return NULL;
}

int clyde_exp_open_own(struct clyde_ctx *ctx, const char *path, int flags,
		       mode_t mode, const char *what)
{
	char buf[128];
	const char *why;
	struct stat st;
	int fd, e;

	fd = open(path, flags | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC,
		  mode);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP)
			return clyde_err(ctx, 0,
					 "%s: a symbolic link, not clyde's %s: "
					 "not followed; remove it",
					 path, what),
			       -EPERM;
		return clyde_err(ctx, e, "%s: open", path);
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return clyde_err(ctx, e, "%s: stat", path);
	}
	why = untrusted(&st, buf, sizeof(buf));
	if (why) {
		close(fd);
		return clyde_err(ctx, 0,
				 "%s: %s; not trusted as clyde's %s (remove it "
				 "if you did not make it)",
				 path, why, what),
		       -EPERM;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		e = errno;
		close(fd);
		return clyde_err(ctx, e, "%s", path);
	}
	return fd;
}

int clyde_exp_check_own_dir(struct clyde_ctx *ctx, const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return clyde_err(ctx, errno, "%s", dir);
	if (!S_ISDIR(st.st_mode))
		return clyde_err(ctx, 0, "%s: not a directory; not used", dir),
		       -EPERM;
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return clyde_err(ctx, 0,
				 "%s: owned by uid %lu, neither root nor uid "
				 "%lu that runs clyde; not used",
				 dir, (unsigned long)st.st_uid,
				 (unsigned long)geteuid()),
		       -EPERM;
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return clyde_err(ctx, 0,
				 "%s: writable by group or others; not used",
				 dir),
		       -EPERM;
	return 0;
}

/* ---- the journal ----------------------------------------------------------- */

void clyde_exp_journal_release(struct clyde_exp_journal *j)
{
	for (size_t i = 0; i < j->nchildren; i++) {
		free(j->children[i].id);
		free(j->children[i].dir);
	}
	for (size_t i = 0; i < j->ntmps; i++)
		free(j->tmps[i]);
	for (size_t i = 0; i < j->ncaptures; i++) {
		free(j->captures[i].name);
		free(j->captures[i].value);
	}
	for (size_t i = 0; i < j->nsets; i++) {
		free(j->sets[i].path);
		free(j->sets[i].old);
		free(j->sets[i].want);
		free(j->sets[i].now);
	}
	free(j->children);
	free(j->tmps);
	free(j->captures);
	free(j->sets);
	memset(j, 0, sizeof(*j));
	j->visit_point = -1;
}

/* A decimal number of at most 19 digits, nothing else. */
static bool is_number(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n <= 19 && s[n] == '\0';
}

/* "PID:START": two numbers, the pid above 1. */
static bool is_child_id(const char *s)
{
	char pid[32];
	const char *c = strchr(s, ':');

	if (!c || (size_t)(c - s) >= sizeof(pid))
		return false;
	memcpy(pid, s, (size_t)(c - s));
	pid[c - s] = '\0';
	return is_number(pid) && is_number(c + 1) && strtol(pid, NULL, 10) > 1;
}

/* The newest set of `path` still to undo, or NULL. */
static struct clyde_exp_journal_set *last_set(struct clyde_exp_journal *j,
					      const char *path)
{
	for (size_t i = j->nsets; i-- > 0;)
		if (!strcmp(j->sets[i].path, path))
			return &j->sets[i];
	return NULL;
}

static void drop_set(struct clyde_exp_journal *j,
		     struct clyde_exp_journal_set *s)
{
	size_t i = (size_t)(s - j->sets);

	free(s->path);
	free(s->old);
	free(s->want);
	free(s->now);
	memmove(s, s + 1, (j->nsets - i - 1) * sizeof(*s));
	j->nsets--;
}

/* One line, split into kind, a, b (NUL-terminated in place).  Returns
 * NULL or why it is refused. */
static const char *take_line(struct clyde_exp_journal *j, const char *kind,
			     char *a, char *b)
{
	if (!strcmp(kind, "visit")) {
		if (!is_number(a) || !is_number(b) ||
		    strtoull(b, NULL, 10) > 1000000)
			return "visit: want two numbers";
		j->visit_point = (long)strtoul(a, NULL, 10);
		j->visit_repeat = (unsigned)strtoul(b, NULL, 10);
		if (j->visit_point < 0 || j->visit_repeat < 1)
			return "visit: a point and a repeat from 1";
		/* Captured values are the last visit's. */
		for (size_t i = 0; i < j->ncaptures; i++) {
			free(j->captures[i].name);
			free(j->captures[i].value);
		}
		j->ncaptures = 0;
		return NULL;
	}
	if (!strcmp(kind, "tmp")) {
		char **t;

		if (a[0] != '/' || strcmp(b, "-"))
			return "tmp: want an absolute path and -";
		if (!(t = clyde_exp_push(&j->tmps, &j->ntmps, sizeof(*t))) ||
		    !(*t = strdup(a)))
			return "out of memory";
		return NULL;
	}
	if (!strcmp(kind, "child")) {
		struct clyde_exp_journal_child *c;

		if (!is_child_id(a) || (b[0] != '/' && strcmp(b, "-")))
			return "child: want PID:START and a path or -";
		if (!(c = clyde_exp_push(&j->children, &j->nchildren,
					 sizeof(*c))) ||
		    !(c->id = strdup(a)) || !(c->dir = strdup(b)))
			return "out of memory";
		return NULL;
	}
	if (!strcmp(kind, "capture")) {
		struct clyde_exp_journal_capture *c;

		if (!a[0])
			return "capture: want a name";
		for (const char *p = a; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_' &&
			    *p != '-')
				return "capture: a name is letters, digits, _ "
				       "and -";
		if (!(c = clyde_exp_push(&j->captures, &j->ncaptures,
					 sizeof(*c))) ||
		    !(c->name = strdup(a)) || !(c->value = strdup(b)))
			return "out of memory";
		return NULL;
	}
	if (strcmp(kind, "set") && strcmp(kind, "want") &&
	    strcmp(kind, "now") && strcmp(kind, "unset") &&
	    strcmp(kind, "restored"))
		return "not a journal line";
	if (a[0] != '/')
		return "want an absolute path";
	if (!strcmp(kind, "set")) {
		struct clyde_exp_journal_set *s;

		if (!(s = clyde_exp_push(&j->sets, &j->nsets, sizeof(*s))) ||
		    !(s->path = strdup(a)) || !(s->old = strdup(b)))
			return "out of memory";
		return NULL;
	}
	if (!strcmp(kind, "want") || !strcmp(kind, "now")) {
		struct clyde_exp_journal_set *s = last_set(j, a);
		char **dst;

		if (!s)
			return "a value written with no set before it";
		dst = kind[0] == 'w' ? &s->want : &s->now;
		free(*dst);
		if (!(*dst = strdup(b)))
			return "out of memory";
		return NULL;
	}
	if (!strcmp(kind, "unset") || !strcmp(kind, "restored")) {
		struct clyde_exp_journal_set *s = last_set(j, a);

		if (!s || strcmp(b, "-"))
			return "want the path of a set before it and -";
		drop_set(j, s);
		return NULL;
	}
	return "not a journal line";
}

int clyde_exp_journal_parse(struct clyde_ctx *ctx, const char *file,
			    const char *text, size_t len,
			    struct clyde_exp_journal *j)
{
	size_t pos = 0;
	unsigned line = 0;

	memset(j, 0, sizeof(*j));
	j->visit_point = -1;
	if (len > CLYDE_EXP_JOURNAL_MAX)
		return clyde_err(ctx, 0, "%s: more than %u bytes", file,
				 CLYDE_EXP_JOURNAL_MAX),
		       -EINVAL;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - text - pos) : len - pos;
		char *buf, *a, *b;
		const char *why = NULL;

		line++;
		if (!nl)
			why = "no line end (cut short?)";
		else if (memchr(text + pos, '\0', n))
			why = "a NUL byte";
		if (why) {
			clyde_exp_journal_release(j);
			return clyde_err(ctx, 0, "%s:%u: %s", file, line, why),
			       -EINVAL;
		}
		buf = malloc(n + 1);
		if (!buf) {
			clyde_exp_journal_release(j);
			return clyde_err(ctx, ENOMEM, "%s", file);
		}
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos += n + 1;
		a = strchr(buf, '\t');
		b = a ? strchr(a + 1, '\t') : NULL;
		if (!a || !b || strchr(b + 1, '\t')) {
			why = "want three fields between tabs";
		} else {
			*a++ = '\0';
			*b++ = '\0';
			why = take_line(j, buf, a, b);
		}
		free(buf);
		if (why) {
			clyde_exp_journal_release(j);
			return clyde_err(ctx, 0, "%s:%u: %s", file, line, why),
			       -EINVAL;
		}
	}
	return 0;
}
