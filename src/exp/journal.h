/*
 * The files a sweep keeps for itself, and the restore journal's reader.
 *
 * A sweep keeps three kinds of file: the restore journal and the
 * experiment's lock (DB.sweep-ID.journal, DB.sweep-ID.lock beside the history,
 * which may be in a directory others can write) and the locks on written
 * knobs and devices (in /run/clyde).  clyde runs as root and --resume
 * acts on what the journal says (it ends process groups, writes kernel
 * tunables, runs the teardown with the captured values), so such a file
 * is opened only when it is clyde's own: clyde_exp_open_own() refuses a
 * symbolic link, anything but a regular file, a file another user owns
 * or one that group or others may write.  docs/security.md says why.
 *
 * clyde_exp_journal_parse() reads a journal's text into what --resume
 * undoes; it trusts nothing in it (a malformed line is refused with
 * FILE:LINE) and never acts: exp/writes.c does.  Nothing here prints or
 * exits.
 */
#ifndef CLYDE_EXP_JOURNAL_H
#define CLYDE_EXP_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/ctx.h"

/* The most of a journal that is read (a visit writes a few KiB). */
#define CLYDE_EXP_JOURNAL_MAX (4u << 20)

/*
 * Open `path` (flags as open(2): O_RDONLY, O_RDWR | O_CREAT, ...; mode
 * for a new file) with O_NOFOLLOW, O_NOCTTY, O_NONBLOCK (a FIFO does not
 * hang the open) and O_CLOEXEC, then refuse it unless it is a regular
 * file with one link, owned by the effective user and not writable by
 * group or others.  `what` names the file in messages ("journal").
 * Returns the descriptor (blocking again), or a negative errno with the
 * message in ctx: -ENOENT when it does not exist (and O_CREAT was not
 * given), -EPERM when it exists but is not trusted.
 */
int clyde_exp_open_own(struct clyde_ctx *ctx, const char *path, int flags,
		       mode_t mode, const char *what);

/*
 * Whether directory `dir` may hold clyde's own files for the effective
 * user: a directory (not a symbolic link) owned by that user or root that
 * group and others cannot write.  0, or -EPERM (message in ctx).
 */
int clyde_exp_check_own_dir(struct clyde_ctx *ctx, const char *dir);

/* One `set` of the journal still to undo: the path (resolved when it was
 * written), the value found before, and what clyde wrote ("want": the
 * value asked for; "now": read back after the write; NULL if not
 * journalled: a crash came first). */
struct clyde_exp_journal_set {
	char *path;
	char *old;
	char *want;
	char *now;
};

/* A command started inside a visit: "PID:START" and the directory its
 * scratch directory goes in ("-": none). */
struct clyde_exp_journal_child {
	char *id;
	char *dir;
};

struct clyde_exp_journal_capture {
	char *name;
	char *value;
};

struct clyde_exp_journal {
	struct clyde_exp_journal_child *children;
	size_t nchildren;
	char **tmps; /* work directories of the visits */
	size_t ntmps;
	/* The last visit's captured values, in order. */
	struct clyde_exp_journal_capture *captures;
	size_t ncaptures;
	/* The writes to undo, oldest first (not those whose write failed
	 * or that were restored already). */
	struct clyde_exp_journal_set *sets;
	size_t nsets;
	long visit_point; /* the last visit's point (0-based), -1: none */
	unsigned visit_repeat;
};

/*
 * Parse journal text[0..len) read from `file` (in messages).  The lines
 * (each ends in a newline; fields are separated by tabs):
 *
 *   tmp DIR -          visit P R          capture NAME VALUE
 *   child PID:START DIR                   set PATH OLD
 *   want PATH VALUE    now PATH VALUE     unset PATH -     restored PATH -
 *
 * A line of another form, a NUL byte, an empty field where one is needed,
 * a number that is not one, a path that is not absolute, or a want, now,
 * unset or restored that follows no set of its path is refused: -EINVAL
 * with "FILE:LINE: ..." in ctx, *j empty.  On success *j is the caller's
 * (clyde_exp_journal_release()).
 */
int clyde_exp_journal_parse(struct clyde_ctx *ctx, const char *file,
			    const char *text, size_t len,
			    struct clyde_exp_journal *j);

void clyde_exp_journal_release(struct clyde_exp_journal *j);

#endif
