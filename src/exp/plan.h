/*
 * An experiment file (`clyde sweep FILE`): its axes, the points they span,
 * what is done at each point (setup commands, sysfs/proc writes,
 * teardown), the workloads run there and the order of the visits.  See
 * docs/sweep.md for the format.
 *
 * This module is pure: it parses text into a plan and answers questions
 * about it (the points, a template expanded for a point, the order of the
 * points in a round).  It runs nothing; exp/exp.h executes the plan.
 *
 * Errors are recorded in the context as "FILE:LINE: reason" and returned
 * as -EINVAL (-ENOMEM when memory runs out).
 *
 * Ownership: a struct clyde_sweep owns every string and array reachable
 * from it; clyde_sweep_release() frees them.
 */
#ifndef CLYDE_EXP_PLAN_H
#define CLYDE_EXP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "core/ctx.h"

struct clyde_sweep_axis {
	char *name;
	char **values; /* as written, or as a range produced them ("64k") */
	size_t nvalues;
	unsigned zip; /* 0: crossed; else the zip group (1-based) */
	unsigned line;
};

enum clyde_sweep_step_kind {
	CLYDE_SWEEP_SH = 0,  /* a shell command: /bin/sh -c TEXT */
	CLYDE_SWEEP_SET,     /* write VALUE to the file PATH (sysfs, /proc) */
	CLYDE_SWEEP_CAPTURE, /* run TEXT; its output is variable VALUE */
};

/* One thing done at a point; templates with {placeholders}. */
struct clyde_sweep_step {
	enum clyde_sweep_step_kind kind;
	char *text;  /* the command, or the path of a SET */
	char *value; /* SET: the value written; CAPTURE: the variable's
		      * name; NULL otherwise */
	unsigned line;
};

enum clyde_sweep_wl_kind {
	CLYDE_SWEEP_RUN = 0, /* clyde run ARGS (the bonnie++ suite) */
	CLYDE_SWEEP_TREE,    /* clyde tree ARGS */
	CLYDE_SWEEP_TIME,    /* a shell command, timed */
	CLYDE_SWEEP_FIO,     /* fio ARGS, its JSON+ output stored */
	CLYDE_SWEEP_DEV,     /* clyde dev ARGS (a device's tests) */
	CLYDE_SWEEP_KINDS
};

/* "run", "tree", "time", "fio", "dev" (exp/wl_kinds.c's table); "?" out of
 * range. */
const char *clyde_sweep_wl_kind_name(enum clyde_sweep_wl_kind k);

/* The kind whose [workload] key is `name`, or -1. */
int clyde_sweep_wl_kind_find(const char *name);

/* The kinds' names in buf, in table order, joined by ", " and the last
 * by last_sep ("run, tree, time, fio or dev").  Returns buf. */
const char *clyde_sweep_wl_kind_names(char *buf, size_t len,
				      const char *last_sep);

struct clyde_sweep_workload {
	char *name; /* [workload NAME] */
	enum clyde_sweep_wl_kind kind;
	char *args;   /* options of run/tree/fio, or the timed command */
	char *device; /* TIME: count this block device (may be NULL) */
	char *path;   /* TIME: or the device under this path (may be NULL) */
	char *before; /* a shell command run first, not measured (NULL) */
	unsigned line;
};

struct clyde_sweep_var {
	char *name;
	char *value;
	/* Set by a `capture NAME = COMMAND` step of each visit: its value
	 * is the command's output, "" until then (the executor sets it with
	 * clyde_sweep_set_var()). */
	bool captured;
};

enum clyde_sweep_order {
	CLYDE_SWEEP_INTERLEAVED = 0, /* A B C A B C ... */
	CLYDE_SWEEP_RANDOM,	     /* each round shuffled, seeded */
};

struct clyde_sweep {
	char *file; /* as named in messages */
	char *name; /* [experiment] name (default: the file's base name) */
	char *title;
	char *metrics;	      /* the table's columns ("KEY,..."), or NULL */
	unsigned repeat;      /* rounds (the minimum with until-stable or
			       * until-decided) */
	double until_stable;  /* PCT; 0: off */
	double until_decided; /* PCT, the equivalence margin; 0: off
			       * (analysis/exp_decide.h) */
	unsigned max_runs;    /* cap with until_stable or until_decided */
	enum clyde_sweep_order order;
	uint64_t seed;
	bool keep_going;

	struct clyde_sweep_axis *axes;
	size_t naxes;
	struct clyde_sweep_var *vars; /* [vars], then --define overrides */
	size_t nvars;
	struct clyde_sweep_step *setup; /* in file order */
	size_t nsetup;
	struct clyde_sweep_step *teardown;
	size_t nteardown;
	struct clyde_sweep_workload *workloads;
	size_t nworkloads;

	/* The points: npoints rows of naxes value indices, the first axis
	 * varying slowest; zipped axes advance together. */
	size_t npoints;
	size_t *point_values;
};

/*
 * Parse the experiment text[0..len) read from `file` (used in messages).
 * `defines` are "NAME=VALUE" strings (--define) that replace [vars]: a NAME
 * the file does not define is an error naming the variables it has.
 * Every template is checked: an unknown {placeholder} is an error naming
 * its line.  On success *s owns the plan (clyde_sweep_release()).
 */
int clyde_sweep_parse(struct clyde_ctx *ctx, const char *file, const char *text,
		      size_t len, char *const *defines, size_t ndefines,
		      struct clyde_sweep *s);

void clyde_sweep_release(struct clyde_sweep *s);

/* The value of axis `axis` at point `point`. */
const char *clyde_sweep_value(const struct clyde_sweep *s, size_t point,
			      size_t axis);

/* "chunk=64k fs=ext4" for point `point`, in buf; "single point" for a
 * sweep without axes. */
void clyde_sweep_point_label(const struct clyde_sweep *s, size_t point,
			     char *buf, size_t cap);

/*
 * Expand the placeholders of tmpl for a point and repeat (1-based):
 * {AXIS}, {VAR} (expanded in turn), {point} (1-based), {repeat}; "{{" is
 * a literal "{", and "${" or a "{" not followed by NAME} is left as is.
 * `line` names the template's line in messages.  On success *out is a
 * malloc'ed string the caller frees.
 */
int clyde_sweep_expand(struct clyde_ctx *ctx, const struct clyde_sweep *s,
		       size_t point, unsigned repeat, const char *tmpl,
		       unsigned line, char **out);

/*
 * As clyde_sweep_expand(), for a command /bin/sh runs: a captured
 * variable (whose value is a command's output, or a line of the journal
 * after a crash) becomes ${CLYDE_CAPTURE_NAME} (clyde_sweep_capture_env()),
 * and the executor puts its value in the command's environment.  The
 * shell never parses the value as code, whatever it holds; unquoted it is
 * still split into words ("{devs}" names every device).
 */
int clyde_sweep_expand_sh(struct clyde_ctx *ctx, const struct clyde_sweep *s,
			  size_t point, unsigned repeat, const char *tmpl,
			  unsigned line, char **out);

/* The environment variable of captured variable `name`:
 * CLYDE_CAPTURE_NAME with every - as _. */
void clyde_sweep_capture_env(const char *name, char *buf, size_t cap);

/*
 * Parse a range: "64k..1m x2" (geometric: A, A*F, ... up to B) or
 * "1..8 +1" (arithmetic).  Values keep the unit style of A: with a k/m/g/t
 * suffix each value is written with the largest suffix that divides it
 * (1024-based, as bonnie++'s sizes).  On success *values (n strings) is
 * the caller's: free each and the array.  On failure why says why.
 */
int clyde_sweep_parse_range(const char *spec, char ***values, size_t *n,
			    char *why, size_t whycap);

/*
 * The order of the points in round `round` (0-based): interleaved is
 * 0..npoints-1 every round; random is a permutation drawn from the seed
 * and the round, so that a resumed experiment repeats it.  order has
 * s->npoints entries.
 */
void clyde_sweep_round_order(const struct clyde_sweep *s, unsigned round,
			     size_t *order);

/*
 * Give variable `name` a new value (a captured one, at run time).
 * Returns 0, -ENOENT for no such variable, or -ENOMEM.
 */
int clyde_sweep_set_var(struct clyde_sweep *s, const char *name,
			const char *value);

/*
 * Whether `path` may be the PATH of a `set` (as written, or expanded):
 * an absolute path below /sys/ or /proc/sys/ with no empty, "." or ".."
 * component.  Lexical only: the executor also resolves the path and
 * checks where it leads (symlinks in /sys).
 */
bool clyde_sweep_set_path_ok(const char *path);

/* Why `path` may not be a set's PATH, naming what is wrong ("an empty
 * component (//)", "a \"..\" component", "not below /sys or
 * /proc/sys"), or NULL when it may (a static string). */
const char *clyde_sweep_set_path_why(const char *path);

/* The number of rounds to plan for: repeat, or max_runs with
 * until-stable or until-decided. */
unsigned clyde_sweep_max_rounds(const struct clyde_sweep *s);

/* Does the sweep decide after `repeat` rounds whether to go on
 * (until-stable or until-decided)? */
bool clyde_sweep_adaptive(const struct clyde_sweep *s);

/*
 * --dry-run: write to out what every visit of every planned round would do
 * (setup, set, capture, before, the workloads' command lines, restore,
 * teardown), the templates expanded for the visit and a captured variable
 * shown as <NAME> (set in s for that).  Nothing runs.  Returns 0, or a
 * negative value with the message in ctx (an expansion that failed).
 */
int clyde_sweep_dry_run(struct clyde_ctx *ctx, struct clyde_sweep *s,
			FILE *out);

struct clyde_exp_info;
struct clyde_history;

/*
 * Parse the file of a stored experiment again, from the text and --define
 * values the history holds (info->defines is split in place).  Returns 0,
 * or a negative value with the message in ctx.
 */
int clyde_sweep_parse_stored(struct clyde_ctx *ctx, struct clyde_exp_info *info,
			     struct clyde_sweep *s);

/*
 * The `metrics =` of stored experiment `id` (malloc'ed), or NULL: none, or
 * the file cannot be read back (a table then shows the default columns).
 */
char *clyde_sweep_stored_metrics(struct clyde_history *h, const char *id);

#endif
