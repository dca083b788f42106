/*
 * The executor's state and the functions its files share (exp/ only):
 * exec.c (visits, rounds, resume), writes.c (set, locks, the restore
 * journal), child.c (commands in process groups, ending them after a
 * crash), wl_clyde.c and wl_time.c (the built-in workload kinds).
 */
#ifndef CLYDE_EXP_EXP_INTERNAL_H
#define CLYDE_EXP_EXP_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "core/ctx.h"
#include "exp/exp.h"
#include "exp/plan.h"

/* The most a captured value may hold: a device name, a list of members. */
#define CAPTURE_MAX 4096
/* Where the locks on written paths and devices are (one file each). */
#define LOCK_DIR "/run/clyde"
/* A child that ignores SIGTERM this long after an interruption is killed. */
#define KILL_AFTER_NS 10000000000ull

/* One write to restore after the visit. */
struct saved_write {
	char *path;
	char *old;
};

/* A lock held on a path this sweep writes, or on a device of its stack
 * (LOCK_DIR/KEY.lock, flock'ed): for the whole sweep, or for one visit
 * (a path that depends on a captured value: the loop device of this
 * visit is someone else's after its teardown). */
struct held_lock {
	char key[64];
	int fd;
	bool visit;
};

struct clyde_exp_exec {
	struct clyde_ctx *ctx;
	struct clyde_sweep *s;
	struct clyde_history *h;
	const struct clyde_exp_config *cfg;
	const struct clyde_exp_wl_ops *ops[CLYDE_SWEEP_KINDS];
	char *id;
	bool keep_going;
	char root[PATH_MAX]; /* "" for "/" */
	char lock_dir[PATH_MAX];
	char tmpdir[PATH_MAX];
	char journal[PATH_MAX];
	int jfd;
	char exp_lock[PATH_MAX]; /* sweep-ID.lock beside the history */
	int exp_lock_fd;	 /* -1: not held */
	struct saved_write *writes;
	size_t nwrites;
	struct held_lock *locks;
	size_t nlocks;
	/* Inside a visit, every child's process group is journalled (and,
	 * for run and tree, the directory its scratch directory goes in). */
	bool journal_children;
	/* done[(point * rounds + repeat - 1) * nworkloads + w] */
	unsigned char *done;
	unsigned rounds;
	size_t nfailed; /* visits that failed */
	char first_failure[CLYDE_ERR_MAX];
};

/* A message for the user through the hooks (printf-style). */
void exp_say(struct clyde_exp_exec *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void exp_progress(struct clyde_exp_exec *x, size_t p, unsigned r,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool exp_interrupted(const struct clyde_exp_exec *x);

/* The built-in workload kinds (wl_clyde.c, wl_time.c, wl_fio.c).  A new
 * kind is one more: its file, its ops here, its line in wl_kinds.c's
 * table and its constant in enum clyde_sweep_wl_kind (the table's
 * index). */
extern const struct clyde_exp_wl_ops clyde_exp_wl_run, clyde_exp_wl_tree,
	clyde_exp_wl_time, clyde_exp_wl_fio, clyde_exp_wl_dev;

/* ---- child.c ---- */

struct child_result {
	int status; /* from wait4 */
	struct rusage ru;
	uint64_t elapsed_ns;
	bool killed; /* stopped by us after an interruption */
};

/* /bin/sh -c cmd: see clyde_exp_run_command().  `stoppable`: an
 * interruption stops it (teardown commands are not). */
int exp_run_sh(struct clyde_exp_exec *x, const char *cmd, const char *log,
	       const char *out, char *const *env, bool stoppable,
	       const char *child_dir, struct child_result *r);
bool exp_child_ok(const struct child_result *r);
/* End the process group journalled as "child ID DIR" and remove the
 * scratch directory it left; -1 when it would not end. */
int exp_end_child(struct clyde_exp_exec *x, const char *id, const char *dir);
void exp_rm_tmpdir(const char *dir);

/* ---- writes.c ---- */

int exp_journal_add(struct clyde_exp_exec *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void exp_journal_done(struct clyde_exp_exec *x);
/* Resolve a `set` path below the root: see writes.c. */
int exp_resolve_set_path(const struct clyde_exp_exec *x, struct clyde_ctx *ctx,
			 const char *path, char *out);
int exp_lock_key(struct clyde_exp_exec *x, const char *key, const char *what,
		 bool visit);
/* An flock on a lock file of clyde's own, removed as it is let go: see
 * writes.c. */
int exp_flock_own(struct clyde_ctx *ctx, const char *path, char *holder,
		  size_t cap);
void exp_flock_release(const char *path, int fd);
int exp_lock_static_paths(struct clyde_exp_exec *x);
void exp_unlock_all(struct clyde_exp_exec *x, bool visit_only);
int exp_do_set(struct clyde_exp_exec *x, const char *path, const char *value);
int exp_restore_writes(struct clyde_exp_exec *x);
int exp_undo_journal(struct clyde_exp_exec *x);

/* ---- exec.c ---- */

/* The environment every command of a visit gets. */
struct visit_env {
	char v[5][PATH_MAX + 64];
	char *env[6];
};

void exp_visit_env_init(struct clyde_exp_exec *x, size_t p, unsigned r,
			struct visit_env *e);
int exp_teardown(struct clyde_exp_exec *x, size_t p, unsigned r,
		 struct visit_env *ve, bool quiet_failures);
void exp_reset_captured(struct clyde_sweep *s);
/* A template expanded for point p, or NULL when it depends on a captured
 * value. */
char *exp_static_expand(struct clyde_ctx *ctx, struct clyde_sweep *s, size_t p,
			const char *t, unsigned line);

/* Grow *arrp (an array of *n elements of size sz) by one zeroed element;
 * returns it, or NULL without memory (the array is left as it was). */
void *clyde_exp_push(void *arrp, size_t *n, size_t sz);

#endif
