/*
 * The experiment engine: runs the plan of an experiment file (exp/plan.h)
 * -- every point at every repeat, interleaved: setup commands, sysfs and
 * /proc/sys writes (locked, journalled, restored), the workloads, the
 * teardown -- saving each finished run in the results history
 * (store/exp_store.h) at once, and resumes an interrupted one from its
 * journal.  docs/sweep.md describes the behaviour; `clyde sweep`
 * (cli/cmd_sweep.c) parses its options, calls clyde_exp_check() and
 * clyde_exp_execute() and prints.
 *
 * Layers: exp/ sits below job/ and cli/ and above dist/, analysis/,
 * store/, results/, io/, env/ and core/ (docs/architecture.md).  Nothing
 * here prints or exits: messages go to the caller's hooks, errors into
 * the context.
 *
 * A workload kind (run, tree, time, fio, dev: wl_clyde.c, wl_time.c, wl_fio.c) is one
 * struct clyde_exp_wl_ops, one line of the table in wl_kinds.c: its name,
 * how its options are checked before the first visit, how one run of it
 * is made, what it stores and how --dry-run shows it.  A test drives the executor with
 * ops of its own and a fake sysfs root (cfg->root), running no command.
 */
#ifndef CLYDE_EXP_EXP_H
#define CLYDE_EXP_EXP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/ctx.h"
#include "exp/plan.h"

struct clyde_history;
struct clyde_exp;
struct clyde_exp_exec; /* the executor's state, private to exp/ */

/* How much of a failed command's output a message shows. */
#define CLYDE_EXP_OUTPUT_TAIL 2000

/* What one run of a workload gave: a JSON document to store, or a
 * failure and why. */
struct clyde_exp_wl_result {
	char *doc; /* malloc'ed; the executor frees it */
	size_t len;
	bool failed;
	char message[CLYDE_ERR_MAX + CLYDE_EXP_OUTPUT_TAIL + 256];
};

/* Everything a workload run may need of its visit. */
struct clyde_exp_wl_call {
	struct clyde_exp_exec *x; /* for clyde_exp_run_command() */
	const struct clyde_sweep_workload *w;
	const char *args;   /* the options (run, tree, fio) or command (time),
			    * expanded for the visit */
	const char *dev;    /* time: device = / path = expanded, or NULL */
	char *const *env;   /* the visit's CLYDE_SWEEP_* variables */
	const char *tmpdir; /* the sweep's work directory */
	/* run, tree: where its scratch directory goes (from ops->check),
	 * journalled with the child; NULL when not known. */
	const char *scratch_parent;
	size_t point;
	unsigned repeat;
};

/* One kind of workload: one line of the table in wl_kinds.c. */
struct clyde_exp_wl_ops {
	const char *name; /* "run", "tree", "time", "fio", "dev": its key */
	/* The result kind its runs are stored as (results/kinds.h:
	 * "bonnie", "tree", "time", "fio", "dev"). */
	const char *result;
	/*
	 * Check the options before the first visit (NULL: not checked):
	 * 0 with *dir (when dir is not NULL) the directory its scratch
	 * directory goes in, resolved and malloc'ed, or NULL; 1 when they
	 * cannot be checked without the shell; -1 with the reason in err.
	 */
	int (*check)(const char *args, char **dir, char *err, size_t len);
	/*
	 * Run it once: 0 with the outcome in *r (a failure of the workload
	 * is r->failed, not an error), -EINTR when interrupted, or another
	 * negative errno with the message in the context.
	 */
	int (*run)(const struct clyde_exp_wl_call *c,
		   struct clyde_exp_wl_result *r);
	/*
	 * The --dry-run line of workload `name` with its options (or
	 * command) `args` expanded, and `dev` its device = / path = (NULL:
	 * none), newline-terminated.
	 */
	void (*show)(FILE *f, const char *name, const char *args,
		     const char *dev);
};

/* The built-in kinds, by enum clyde_sweep_wl_kind (check is NULL for run,
 * tree and dev: their options are those of the commands, whose parsers are in
 * cli/; the caller fills it in.  fio's check is its own: fio in PATH, no
 * option that changes its output, fio --parse-only).  NULL for a value
 * out of range. */
const struct clyde_exp_wl_ops *clyde_exp_wl_builtin(enum clyde_sweep_wl_kind k);

/* What the caller is told while it runs. */
struct clyde_exp_hooks {
	void *arg;
	/* A message for the user (no "clyde sweep: " prefix; may hold
	 * newlines, ends without one). */
	void (*say)(void *arg, const char *msg);
	/* What the visit is doing now (for a progress line). */
	void (*progress)(void *arg, size_t point, unsigned repeat,
			 const char *what);
	/* A visit ended (skipped: already done, or its point settled). */
	void (*visit_counted)(void *arg, bool skipped);
};

struct clyde_exp_config {
	const char *exe;	/* clyde itself, for run and tree */
	const char *tmp_parent; /* where the work directory goes; NULL: /tmp */
	/* The file system root of `set` paths: NULL for "/", a fake sysfs
	 * in tests (its sys/ and proc/sys/). */
	const char *root;
	const char *lock_dir; /* NULL: /run/clyde */
	const char *file;     /* the experiment file, as named (stored) */
	const char *text;     /* its text (stored) */
	char *const *defines; /* --define NAME=VALUE (stored) */
	size_t ndefines;
	const char *resume_id; /* NULL: a new experiment */
	bool keep_going;
	/* CLYDE_SWEEP_KINDS entries indexed by kind; NULL: the built-ins. */
	const struct clyde_exp_wl_ops *const *ops;
	struct clyde_exp_hooks hooks;
};

enum clyde_exp_end {
	CLYDE_EXP_DONE = 0,    /* every visit ran (some may have failed) */
	CLYDE_EXP_STOPPED,     /* a point failed and stopped it (no -k), or
				 * the history failed */
	CLYDE_EXP_INTERRUPTED, /* SIGINT etc.: torn down, restored */
	CLYDE_EXP_REFUSED,     /* nothing ran: a lock held by another sweep,
				 * the record not made, the journal not undone */
};

struct clyde_exp_outcome {
	enum clyde_exp_end end;
	char *id;	/* malloc'ed; NULL when no experiment was made */
	size_t nfailed; /* visits that failed */
	char first_failure[CLYDE_ERR_MAX]; /* "point P (LABEL) repeat R" */
	bool refused_usage; /* REFUSED for a reason the user must fix
			     * (a lock held): exit 1 rather than 3 */
};

/*
 * Whether the sweep can make its work directory in cfg->tmp_parent
 * ($TMPDIR, else /tmp): one is made and removed.  Checked before the
 * history is opened, so that a sweep that cannot run leaves no history
 * behind.  0, or a negative errno with the message (naming the
 * directory) in ctx.
 */
int clyde_exp_check_tmp(struct clyde_ctx *ctx,
			const struct clyde_exp_config *cfg);

/*
 * Everything that can be checked before the first visit, at every point:
 * the options of each workload (its ops' check) and every `set` path that
 * does not depend on a captured value (below /sys or /proc/sys, resolved).
 * Returns 0, or -1 with "FILE:LINE: ..." in the context.
 */
int clyde_exp_check(struct clyde_ctx *ctx, struct clyde_sweep *s,
		    const struct clyde_exp_config *cfg);

/*
 * Run (or, with cfg->resume_id, resume) the experiment s in history h.
 * Returns 0 with *out filled in (out->id is the caller's to free), or a
 * negative errno with the message in the context (out->end REFUSED).
 */
int clyde_exp_execute(struct clyde_ctx *ctx, struct clyde_sweep *s,
		      struct clyde_history *h,
		      const struct clyde_exp_config *cfg,
		      struct clyde_exp_outcome *out);

/*
 * Whether a clyde sweep is running experiment `id` of history h now: 1
 * when the lock it holds while it runs (DB.sweep-ID.lock beside the
 * history) is held, 0 when not (no file: it ended, or never ran with
 * this lock), or a negative errno when that cannot be told.
 */
int clyde_exp_running(const struct clyde_history *h, const char *id);

/*
 * The experiments of h as clyde_exp_store_list() gives them, newest
 * first, except that one stored as "running" that no sweep is running
 * (clyde_exp_running() is 0: it was killed, or its machine went down) is
 * "interrupted".  Free each with clyde_exp_info_release(), then *out.
 */
struct clyde_exp_info;
int clyde_exp_list(struct clyde_ctx *ctx, struct clyde_history *h,
		   struct clyde_exp_info **out, size_t *n);

/*
 * The repeat decision: whether point p, with the runs stored in e so far
 * and `rounds` rounds done, gets another round.  Without until-stable the
 * plan's repeat decides; with until-stable = PCT, a point gets more
 * rounds (up to max-runs) until every metric's 95% interval is within
 * PCT% of its mean with enough samples (clyde_stats_settled()).  A failed
 * point gets no more.  The one place the rule is.
 */
bool clyde_exp_wants_more(const struct clyde_sweep *s,
			  const struct clyde_exp *e, size_t p, unsigned rounds);

/*
 * Run /bin/sh -c cmd for a workload of visit c: its own process group,
 * stdin /dev/null, stdout and stderr into `log`, the environment `env`
 * (NULL: c->env) added, journalled for a resume after a crash (with
 * c->scratch_parent), stopped on an interruption.  Returns 0 with the
 * wait status, wall time and rusage, -EINTR when interrupted, or a
 * negative errno with the message in the context.
 */
struct rusage;
int clyde_exp_run_command(const struct clyde_exp_wl_call *c, const char *cmd,
			  char *const *env, const char *log, int *status,
			  uint64_t *elapsed_ns, struct rusage *ru);

/* The executor's context (errors go there), for a workload's run. */
struct clyde_ctx *clyde_exp_ctx(const struct clyde_exp_wl_call *c);

/* The last CLYDE_EXP_OUTPUT_TAIL bytes of a log file, indented and
 * escaped, in buf. */
void clyde_exp_log_tail(const char *path, char *buf, size_t cap);

/* "exit status N", "killed by signal N". */
void clyde_exp_describe_status(int status, char *buf, size_t cap);

/*
 * A workload's command ended with `status` from wait(): when it did not
 * exit 0, o is marked failed with "workload NAME: WHAT: STATUS" and the
 * tail of its log on the next lines, and true is returned.  WHAT names
 * the command as the user gave it ("clyde run ARGS", "fio ARGS",
 * "`CMD`"), already shown with clyde_exp_show().
 */
bool clyde_exp_wl_failed(struct clyde_exp_wl_result *o, const char *name,
			 const char *what, int status, const char *log);

/*
 * The files of a workload whose command writes a result file: `result`
 * under c->tmpdir (removed first, so a stale one is never read back), its
 * output log there, and c->env (its first 14 entries) plus VAR=result, so
 * the command line names the file as "$VAR".  env points into f: use f
 * where it was filled.
 */
struct clyde_exp_wl_files {
	char result[PATH_MAX + 32], log[PATH_MAX + 32], var[PATH_MAX + 64];
	char *env[16];
};
void clyde_exp_wl_files(const struct clyde_exp_wl_call *c, const char *result,
			const char *var, struct clyde_exp_wl_files *f);

/* A command line or path for a message: escaped, at most 300 bytes (buf
 * has CLYDE_EXP_SHOW_MAX + 1). */
#define CLYDE_EXP_SHOW_MAX 300
const char *clyde_exp_show(char *buf, const char *s);

/* Read a whole small file into a malloc'ed NUL-terminated buffer (NULL
 * with errno set). */
char *clyde_exp_slurp(const char *path, size_t *len);

#endif
