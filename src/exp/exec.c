/*
 * The experiment executor (exp/exp.h): rounds of visits over the points,
 * each visit its setup, writes, workloads, restore and teardown; every
 * finished workload run saved in the history at once; resume from the
 * history and the journal.
 *
 * A visit is one point at one repeat: setup, the point's writes, every
 * workload once, restore, teardown.  Repeats are rounds over all points
 * (A B C A B C ...), so every repeat rebuilds its configuration.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stats.h"
#include "core/vis.h"
#include "exp/exp_internal.h"
#include "analysis/exp_analysis.h"
#include "analysis/exp_decide.h"
#include "analysis/exp_load.h"
#include "store/exp_store.h"
#include "analysis/experiment.h"

/* ---- messages ---------------------------------------------------------- */

void exp_say(struct clyde_exp_exec *x, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	if (!x->cfg->hooks.say)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* One message; the caller ends the line. */
	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';
	x->cfg->hooks.say(x->cfg->hooks.arg, msg);
	free(msg);
}

void exp_progress(struct clyde_exp_exec *x, size_t p, unsigned r,
		  const char *fmt, ...)
{
	char what[160];
	va_list ap;

	if (!x->cfg->hooks.progress)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	x->cfg->hooks.progress(x->cfg->hooks.arg, p, r, what);
}

bool exp_interrupted(const struct clyde_exp_exec *x)
{
	return x->ctx->interrupted && *x->ctx->interrupted;
}

static void set_captured_all(struct clyde_sweep *s, const char *v)
{
	for (size_t i = 0; i < s->nvars; i++)
		if (s->vars[i].captured)
			clyde_sweep_set_var(s, s->vars[i].name, v);
}

/* A template expanded for point p, or NULL when it depends on a value
 * captured at run time (then it cannot be checked now). */
char *exp_static_expand(struct clyde_ctx *ctx, struct clyde_sweep *s, size_t p,
			const char *t, unsigned line)
{
	char *a = NULL, *b = NULL;

	set_captured_all(s, "");
	if (clyde_sweep_expand(ctx, s, p, 1, t, line, &a) < 0)
		a = NULL;
	set_captured_all(s, "\x01");
	if (clyde_sweep_expand(ctx, s, p, 1, t, line, &b) < 0)
		b = NULL;
	set_captured_all(s, "");
	clyde_err_clear(ctx);
	if (!a || !b || strcmp(a, b)) {
		free(a);
		a = NULL;
	}
	free(b);
	return a;
}

static unsigned char *done_slot(struct clyde_exp_exec *x, size_t p, unsigned r,
				size_t w)
{
	return &x->done[((p * x->rounds) + (r - 1)) * x->s->nworkloads + w];
}

static bool visit_done(struct clyde_exp_exec *x, size_t p, unsigned r)
{
	for (size_t w = 0; w < x->s->nworkloads; w++)
		if (!*done_slot(x, p, r, w))
			return false;
	return true;
}

/* Record that a workload (or the whole visit) failed. */
static void record_failure(struct clyde_exp_exec *x, size_t p, unsigned r,
			   size_t w, const char *msg)
{
	struct clyde_exp_run_rec rec = {
		.point = p,
		.repeat = r,
		.workload = x->s->workloads[w].name,
		.kind = clyde_sweep_wl_kind_name(x->s->workloads[w].kind),
		.failed = true,
		.message = msg,
	};

	if (clyde_exp_store_add_run(x->ctx, x->h, x->id, &rec, NULL) < 0) {
		exp_say(x, "%s\n", clyde_errmsg(x->ctx));
		clyde_err_clear(x->ctx);
	}
}

/* Expand a template or report why not (returns NULL). */
static char *expand(struct clyde_exp_exec *x, size_t p, unsigned r,
		    const char *t, unsigned line)
{
	char *out = NULL;

	if (!t)
		return NULL;
	if (clyde_sweep_expand(x->ctx, x->s, p, r, t, line, &out) < 0)
		return NULL;
	return out;
}

/* The same for a command the shell runs: captured values reach it only
 * through its environment (exp_run_sh), never as shell text. */
static char *expand_sh(struct clyde_exp_exec *x, size_t p, unsigned r,
		       const char *t, unsigned line)
{
	char *out = NULL;

	if (!t)
		return NULL;
	if (clyde_sweep_expand_sh(x->ctx, x->s, p, r, t, line, &out) < 0)
		return NULL;
	return out;
}

void exp_visit_env_init(struct clyde_exp_exec *x, size_t p, unsigned r,
			struct visit_env *e)
{
	snprintf(e->v[0], sizeof(e->v[0]), "CLYDE_SWEEP_EXE=%s", x->cfg->exe);
	snprintf(e->v[1], sizeof(e->v[1]), "CLYDE_SWEEP_ID=%s",
		 x->id ? x->id : "");
	snprintf(e->v[2], sizeof(e->v[2]), "CLYDE_SWEEP_POINT=%zu", p + 1);
	snprintf(e->v[3], sizeof(e->v[3]), "CLYDE_SWEEP_REPEAT=%u", r);
	snprintf(e->v[4], sizeof(e->v[4]), "CLYDE_SWEEP_PID=%ld",
		 (long)getpid());
	for (int i = 0; i < 5; i++)
		e->env[i] = e->v[i];
	e->env[5] = NULL;
}

/* Run the teardown commands (all of them, whatever fails).  Returns the
 * number that failed. */
int exp_teardown(struct clyde_exp_exec *x, size_t p, unsigned r,
		 struct visit_env *ve, bool quiet_failures)
{
	char log[PATH_MAX + 32], st[64], tail[CLYDE_EXP_OUTPUT_TAIL + 256];
	char sh[CLYDE_EXP_SHOW_MAX + 1];
	int bad = 0;

	snprintf(log, sizeof(log), "%s/teardown.log", x->tmpdir);
	for (size_t i = 0; i < x->s->nteardown; i++) {
		const struct clyde_sweep_step *t = &x->s->teardown[i];
		char *cmd = expand_sh(x, p, r, t->text, t->line);
		struct child_result res;

		if (!cmd) {
			exp_say(x, "%s\n", clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			bad++;
			continue;
		}
		exp_progress(x, p, r, "teardown");
		if (exp_run_sh(x, cmd, log, NULL, ve->env, false, NULL, &res) <
		    0) {
			exp_say(x, "teardown: %s\n", clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			bad++;
		} else if (!exp_child_ok(&res)) {
			bad++;
			if (!quiet_failures) {
				clyde_exp_describe_status(res.status, st,
							  sizeof(st));
				clyde_exp_log_tail(log, tail, sizeof(tail));
				exp_say(x,
					"point %zu repeat %u: "
					"teardown `%s`: %s\n%s",
					p + 1, r, clyde_exp_show(sh, cmd), st,
					tail);
			}
		}
		free(cmd);
	}
	return bad;
}

/* A captured value: the command's output with blanks and line ends
 * folded into single blanks, trimmed. */
static void fold_blanks(char *v)
{
	char *w = v;
	bool blank = false;

	for (char *c = v; *c; c++) {
		if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') {
			blank = w != v;
			continue;
		}
		if (blank)
			*w++ = ' ';
		blank = false;
		*w++ = *c;
	}
	*w = '\0';
}

/* Give variable `name` the output in `path`, and journal it so that a
 * resumed teardown after a crash sees the same value. */
static int set_captured(struct clyde_exp_exec *x, const char *name,
			const char *path, char *msg, size_t cap)
{
	size_t len = 0;
	char *v = clyde_exp_slurp(path, &len);
	int rc;

	if (!v)
		return snprintf(msg, cap, "capture %s: %s: %s", name, path,
				strerror(errno)),
		       -1;
	fold_blanks(v);
	len = strlen(v);
	if (len > CAPTURE_MAX || strchr(v, '\t')) {
		if (len > CAPTURE_MAX)
			snprintf(msg, cap,
				 "capture %s: %zu bytes of output, more than "
				 "the %d a captured value may hold",
				 name, len, CAPTURE_MAX);
		else
			snprintf(msg, cap,
				 "capture %s: a tab in its output, which a "
				 "captured value may not hold",
				 name);
		free(v);
		return -1;
	}
	rc = clyde_sweep_set_var(x->s, name, v);
	if (rc == 0 && exp_journal_add(x, "capture\t%s\t%s\n", name, v) < 0) {
		snprintf(msg, cap, "%s", clyde_errmsg(x->ctx));
		clyde_err_clear(x->ctx);
		rc = -1;
	} else if (rc < 0) {
		snprintf(msg, cap, "capture %s: %s", name, strerror(-rc));
	}
	free(v);
	return rc < 0 ? -1 : 0;
}

/* Captured variables are empty until their command ran in this visit. */
void exp_reset_captured(struct clyde_sweep *s)
{
	for (size_t i = 0; i < s->nvars; i++)
		if (s->vars[i].captured)
			clyde_sweep_set_var(s, s->vars[i].name, "");
}

enum visit_result {
	VISIT_OK,
	VISIT_FAILED,
	VISIT_INTERRUPTED
};

/* Run the setup; 0, or -1 with the reason in msg. */
static int setup(struct clyde_exp_exec *x, size_t p, unsigned r,
		 struct visit_env *ve, char *msg, size_t cap)
{
	char log[PATH_MAX + 32], st[64], tail[CLYDE_EXP_OUTPUT_TAIL + 256];
	char capture[PATH_MAX + 32], sh[CLYDE_EXP_SHOW_MAX + 1];

	snprintf(log, sizeof(log), "%s/setup.log", x->tmpdir);
	snprintf(capture, sizeof(capture), "%s/capture.out", x->tmpdir);
	for (size_t i = 0; i < x->s->nsetup; i++) {
		const struct clyde_sweep_step *step = &x->s->setup[i];
		/* A set's path is no shell command: its captured parts are
		 * checked where they lead (exp_resolve_set_path()). */
		char *text = step->kind == CLYDE_SWEEP_SET ?
				     expand(x, p, r, step->text, step->line) :
				     expand_sh(x, p, r, step->text, step->line);
		char *value = step->value ?
				      expand(x, p, r, step->value, step->line) :
				      NULL;
		struct child_result res;
		int rc;

		if (exp_interrupted(x)) {
			free(text);
			free(value);
			return -EINTR;
		}
		if (!text || (step->value && !value)) {
			snprintf(msg, cap, "%s", clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			free(text);
			free(value);
			return -1;
		}
		if (step->kind == CLYDE_SWEEP_SET) {
			exp_progress(x, p, r, "set %s",
				     clyde_exp_show(sh, text));
			rc = exp_do_set(x, text, value);
			if (rc < 0) {
				snprintf(msg, cap, "%s", clyde_errmsg(x->ctx));
				clyde_err_clear(x->ctx);
			}
			free(text);
			free(value);
			if (rc < 0)
				return -1;
			continue;
		}
		exp_progress(x, p, r, "setup");
		rc = exp_run_sh(x, text, log,
				step->kind == CLYDE_SWEEP_CAPTURE ? capture :
								    NULL,
				ve->env, true, NULL, &res);
		if (rc < 0) {
			snprintf(msg, cap, "setup `%s`: %s",
				 clyde_exp_show(sh, text),
				 clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
		} else if (res.killed || exp_interrupted(x)) {
			rc = -EINTR;
		} else if (!exp_child_ok(&res)) {
			clyde_exp_describe_status(res.status, st, sizeof(st));
			clyde_exp_log_tail(log, tail, sizeof(tail));
			snprintf(msg, cap, "%s `%s`: %s\n%s",
				 step->kind == CLYDE_SWEEP_CAPTURE ? "capture" :
								     "setup",
				 clyde_exp_show(sh, text), st, tail);
			rc = -1;
		} else if (step->kind == CLYDE_SWEEP_CAPTURE) {
			rc = set_captured(x, step->value, capture, msg, cap);
		}
		free(text);
		free(value);
		if (rc == -EINTR)
			return rc;
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* A workload's `before` command: not measured; failing fails the
 * workload. */
static int before(struct clyde_exp_exec *x, size_t p, unsigned r,
		  const struct clyde_sweep_workload *w, struct visit_env *ve,
		  struct clyde_exp_wl_result *o)
{
	char log[PATH_MAX + 32], st[64], tail[CLYDE_EXP_OUTPUT_TAIL + 256];
	char sh[CLYDE_EXP_SHOW_MAX + 1];
	struct child_result res;
	char *cmd;
	int rc;

	if (!w->before)
		return 0;
	cmd = expand_sh(x, p, r, w->before, w->line);
	if (!cmd)
		return -EINVAL;
	snprintf(log, sizeof(log), "%s/output.log", x->tmpdir);
	rc = exp_run_sh(x, cmd, log, NULL, ve->env, true, NULL, &res);
	if (rc == 0 && (res.killed || exp_interrupted(x)))
		rc = -EINTR;
	if (rc == 0 && !exp_child_ok(&res)) {
		clyde_exp_describe_status(res.status, st, sizeof(st));
		clyde_exp_log_tail(log, tail, sizeof(tail));
		o->failed = true;
		snprintf(o->message, sizeof(o->message),
			 "workload %s: before `%s`: %s\n%s", w->name,
			 clyde_exp_show(sh, cmd), st, tail);
	}
	free(cmd);
	return rc;
}

/* Run the workloads not yet done at this visit. */
/* What workloads() returns for a workload that failed after its failed
 * row was stored: the visit must not store another. */
#define WL_FAILED_STORED (-3)

static int workloads(struct clyde_exp_exec *x, size_t p, unsigned r,
		     struct visit_env *ve, char *msg, size_t cap)
{
	for (size_t i = 0; i < x->s->nworkloads; i++) {
		const struct clyde_sweep_workload *w = &x->s->workloads[i];
		char *args, *raw, *dev = NULL;
		struct clyde_exp_wl_result o;
		struct clyde_exp_run_rec rec;
		int rc;

		if (*done_slot(x, p, r, i))
			continue;
		if (exp_interrupted(x))
			return -EINTR;
		/* The options as the shell gets them, and with the captured
		 * values in them for the check, which only parses them. */
		args = expand_sh(x, p, r, w->args, w->line);
		raw = expand(x, p, r, w->args, w->line);
		if (w->device || w->path)
			dev = expand(x, p, r, w->device ? w->device : w->path,
				     w->line);
		if (!args || !raw || ((w->device || w->path) && !dev)) {
			snprintf(msg, cap, "%s", clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			free(args);
			free(raw);
			free(dev);
			return -1;
		}
		exp_progress(x, p, r, "%s %s", w->name,
			     clyde_sweep_wl_kind_name(w->kind));
		memset(&o, 0, sizeof(o));
		rc = before(x, p, r, w, ve, &o);
		if (rc == 0 && !o.failed) {
			const struct clyde_exp_wl_ops *ops = x->ops[w->kind];
			char err[512], *dir = NULL;
			struct clyde_exp_wl_call call = {
				.x = x,
				.w = w,
				.args = args,
				.dev = dev,
				.env = ve->env,
				.tmpdir = x->tmpdir,
				.point = p,
				.repeat = r,
			};

			/* Where a clyde run or tree makes its scratch
			 * directory, for a --resume after a crash. */
			if (ops->check &&
			    ops->check(raw, &dir, err, sizeof(err)) != 0)
				dir = NULL;
			call.scratch_parent = dir;
			rc = ops->run(&call, &o);
			free(dir);
		}
		free(args);
		free(raw);
		free(dev);
		if (rc == -EINTR) {
			free(o.doc);
			return -EINTR;
		}
		if (rc < 0) {
			snprintf(o.message, sizeof(o.message),
				 "workload %s: %s", w->name,
				 clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			o.failed = true;
		}
		memset(&rec, 0, sizeof(rec));
		rec.point = p;
		rec.repeat = r;
		rec.workload = w->name;
		rec.kind = clyde_sweep_wl_kind_name(w->kind);
		rec.failed = o.failed;
		rec.message = o.failed ? o.message : NULL;
		rec.doc = o.doc;
		rec.len = o.len;
		rc = clyde_exp_store_add_run(x->ctx, x->h, x->id, &rec, NULL);
		free(o.doc);
		if (rc < 0) {
			/* The history failed: nothing more can be kept. */
			snprintf(msg, cap, "%s", clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			return -2;
		}
		if (o.failed) {
			snprintf(msg, cap, "%s", o.message);
			return WL_FAILED_STORED;
		}
		*done_slot(x, p, r, i) = 1;
	}
	return 0;
}

static enum visit_result visit(struct clyde_exp_exec *x, size_t p, unsigned r,
			       bool *fatal)
{
	char msg[CLYDE_ERR_MAX + 2 * CLYDE_EXP_OUTPUT_TAIL + 512], label[512];
	struct visit_env ve;
	bool restored;
	int rc, bad;

	msg[0] = '\0';
	exp_reset_captured(x->s);
	exp_visit_env_init(x, p, r, &ve);
	clyde_sweep_point_label(x->s, p, label, sizeof(label));
	/* The work directory too: a crashed clyde cannot remove it. */
	if (exp_journal_add(x, "tmp\t%s\t-\n", x->tmpdir) < 0 ||
	    exp_journal_add(x, "visit\t%zu\t%u\n", p, r) < 0) {
		exp_say(x, "%s\n", clyde_errmsg(x->ctx));
		*fatal = true;
		return VISIT_FAILED;
	}
	x->journal_children = true;
	rc = setup(x, p, r, &ve, msg, sizeof(msg));
	if (rc == 0)
		rc = workloads(x, p, r, &ve, msg, sizeof(msg));
	if (rc == -2)
		*fatal = true;
	/* Restore, then tear down, whatever happened: the values go back
	 * while the device they belong to is still the point's (a teardown
	 * that detaches a loop device would leave its number, and a later
	 * write to it, to whoever attaches one next). */
	bad = exp_restore_writes(x);
	/* Every value back: nothing is left for --resume to undo, even when
	 * the teardown fails (said below); it would only write the old
	 * values again over whatever is there by then. */
	restored = bad == 0;
	bad += exp_teardown(x, p, r, &ve, false);
	x->journal_children = false;
	if (restored)
		exp_journal_done(x);
	if (bad > 0 && rc == 0) {
		rc = -1;
		snprintf(msg, sizeof(msg), "teardown or restore failed");
	}
	/* The paths of this visit's devices are free for others now. */
	exp_unlock_all(x, true);
	if (rc == -EINTR)
		return VISIT_INTERRUPTED;
	if (rc == 0)
		return VISIT_OK;
	{
		/* Escapes that came through an error message are shown. */
		size_t cap = strlen(msg) * 4 + 1;
		char *v = malloc(cap);

		exp_say(x, "point %zu (%s) repeat %u failed: %s%s", p + 1,
			label, r, v ? clyde_vis(v, cap, msg, 1) : msg,
			msg[0] && msg[strlen(msg) - 1] == '\n' ? "" : "\n");
		free(v);
	}
	if (!x->first_failure[0])
		snprintf(x->first_failure, sizeof(x->first_failure),
			 "point %zu (%s) repeat %u", p + 1, label, r);
	/* A failure outside a workload marks the visit's remaining
	 * workloads failed, so that the point shows as failed (a failed
	 * workload stored its own row). */
	for (size_t w = 0; w < x->s->nworkloads && rc == -1; w++) {
		if (*done_slot(x, p, r, w))
			continue;
		record_failure(x, p, r, w, msg);
		break; /* one row says it */
	}
	x->nfailed++;
	return VISIT_FAILED;
}

/* ---- the repeat decision ------------------------------------------------ */

bool clyde_exp_wants_more(const struct clyde_sweep *s,
			  const struct clyde_exp *e, size_t p, unsigned rounds)
{
	const struct clyde_exp_point *pt;
	bool any = false;

	if (rounds < s->repeat)
		return true;
	if (s->until_stable <= 0 || rounds >= clyde_sweep_max_rounds(s))
		return false;
	if (!e || p >= e->npoints)
		return true;
	pt = &e->points[p];
	if (pt->failed)
		return false; /* nothing more to learn */
	for (size_t m = 0; m < e->nmetrics; m++) {
		const struct clyde_exp_cell *c = &pt->cells[m];

		if (c->n == 0)
			continue;
		if (!clyde_stats_settled(
			    c->n, clyde_stats_mean(c->samples, c->n),
			    clyde_stats_ci_halfwidth(c->samples, c->n, 0.95),
			    s->until_stable))
			return true;
		any = true;
	}
	return !any;
}

/*
 * until-decided: the rule of analysis/exp_decide.h over the table's metrics
 * (`metrics =`, else the default columns) of what the history holds now.
 * stable[p] is set for every point that stops, and each stop is said once
 * with its reason.  After the last round (`last`) every point not yet
 * stopped is said, open or not.  Returns the number of points still open
 * (0 after the last round), or -1 (message in ctx).
 */
static int decide_points(struct clyde_exp_exec *x, double alpha, bool *stable,
			 bool last)
{
	const struct clyde_sweep *s = x->s;
	struct clyde_exp_decision *d;
	struct clyde_exp e;
	size_t open;

	if (clyde_history_load_experiment(x->ctx, x->h, x->id, &e) < 0)
		return -1;
	if (clyde_exp_select_columns(x->ctx, &e, s->metrics) < 0) {
		clyde_exp_release(&e);
		return -1;
	}
	d = calloc(e.npoints ? e.npoints : 1, sizeof(*d));
	if (!d) {
		clyde_exp_release(&e);
		return clyde_err(x->ctx, ENOMEM, "sweep");
	}
	open = clyde_exp_decide(&e, s->until_decided, s->max_runs, alpha,
				stable, d);
	/* The best last: its "every other point is decided" follows the
	 * stops that decided them (pass 0 the others, pass 1 the best). */
	for (size_t i = 0; i < 2 * s->npoints; i++) {
		size_t p = i % s->npoints;
		bool best_pass = i >= s->npoints;
		char why[512], label[512];

		if (p >= e.npoints ||
		    (d[p].stop == CLYDE_EXP_STOP_BEST) != best_pass)
			continue;
		if ((d[p].stop == CLYDE_EXP_OPEN && !last) || stable[p])
			continue;
		stable[p] = true;
		clyde_sweep_point_label(s, p, label, sizeof(label));
		clyde_exp_decision_text(why, sizeof(why), &e, &d[p],
					s->until_decided, s->max_runs);
		exp_say(x, "point %zu (%s) stops after %zu run%s: %s", p + 1,
			label, d[p].n, d[p].n == 1 ? "" : "s", why);
	}
	free(d);
	clyde_exp_release(&e);
	return last ? 0 : (int)open;
}

/* ---- the experiment ------------------------------------------------------- */

static int run_rounds(struct clyde_exp_exec *x, bool *was_interrupted,
		      bool *fatal)
{
	const struct clyde_sweep *s = x->s;
	size_t *order = calloc(s->npoints, sizeof(size_t));
	bool *stable = calloc(s->npoints + 1, sizeof(bool));
	/* until-decided's level, the same for every look (an integration). */
	double alpha =
		s->until_decided > 0 ? clyde_exp_decide_level(s->max_runs) : 0;
	int rc = 0;

	if (!order || !stable) {
		free(order);
		free(stable);
		return clyde_err(x->ctx, ENOMEM, "sweep");
	}
	for (unsigned r = 1; r <= x->rounds && rc == 0; r++) {
		/* Past the planned repeats (only a rule such as until-stable
		 * plans more rounds): clyde_exp_wants_more() decides, point
		 * by point, from the runs stored so far. */
		/* until-decided (analysis/exp_decide.h): stop each point whose
		 * rank against the best is known, and say why. */
		if (s->until_decided > 0 && r > s->repeat) {
			int d = decide_points(x, alpha, stable, false);

			if (d < 0) {
				rc = -1;
				break;
			}
			if (d == 0)
				break;
		} else if (r > s->repeat) {
			struct clyde_exp e;
			bool all = true;

			if (clyde_history_load_experiment(x->ctx, x->h, x->id,
							  &e) < 0) {
				rc = -1;
				break;
			}
			for (size_t p = 0; p < s->npoints; p++) {
				stable[p] =
					!clyde_exp_wants_more(s, &e, p, r - 1);
				all = all && stable[p];
			}
			clyde_exp_release(&e);
			if (all)
				break;
		}
		clyde_sweep_round_order(s, r - 1, order);
		for (size_t i = 0; i < s->npoints; i++) {
			size_t p = order[i];
			enum visit_result vr;

			if (visit_done(x, p, r) || stable[p]) {
				if (x->cfg->hooks.visit_counted)
					x->cfg->hooks.visit_counted(
						x->cfg->hooks.arg, true);
				continue;
			}
			if (exp_interrupted(x)) {
				*was_interrupted = true;
				rc = -1;
				break;
			}
			vr = visit(x, p, r, fatal);
			if (x->cfg->hooks.visit_counted)
				x->cfg->hooks.visit_counted(x->cfg->hooks.arg,
							    false);
			if (vr == VISIT_INTERRUPTED || exp_interrupted(x)) {
				*was_interrupted = true;
				rc = -1;
				break;
			}
			if (vr == VISIT_FAILED && (*fatal || !x->keep_going)) {
				rc = -1;
				break;
			}
		}
	}
	if (rc == 0 && s->until_decided > 0 &&
	    decide_points(x, alpha, stable, true) < 0)
		rc = -1;
	free(order);
	free(stable);
	return rc;
}

/* Mark what the history already holds as done (resume). */
static int load_done(struct clyde_exp_exec *x)
{
	struct clyde_exp_done *d;
	size_t n;

	if (clyde_exp_store_runs(x->ctx, x->h, x->id, &d, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!d[i].ok || d[i].point >= x->s->npoints ||
		    d[i].repeat < 1 || d[i].repeat > x->rounds)
			continue;
		for (size_t w = 0; w < x->s->nworkloads; w++)
			if (!strcmp(x->s->workloads[w].name, d[i].workload))
				*done_slot(x, d[i].point, d[i].repeat, w) = 1;
	}
	free(d);
	return 0;
}

static char *join_defines(char *const *d, size_t n)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(d[i]) + 1;
	s = calloc(1, len);
	for (size_t i = 0; s && i < n; i++) {
		strcat(s, d[i]);
		strcat(s, "\n");
	}
	return s;
}

/* Create the experiment's record from its plan. */
static int create_record(struct clyde_exp_exec *x)
{
	const struct clyde_sweep *s = x->s;
	const char **vals = calloc(s->npoints * s->naxes + 1, sizeof(char *));
	char **axes = calloc(s->naxes + 1, sizeof(char *));
	char **wln = calloc(s->nworkloads + 1, sizeof(char *));
	const char **wlk = calloc(s->nworkloads + 1, sizeof(char *));
	char *defs = join_defines(x->cfg->defines, x->cfg->ndefines);
	struct clyde_exp_new ne;
	int rc = -1;

	if (vals && axes && wln && wlk && defs) {
		for (size_t a = 0; a < s->naxes; a++)
			axes[a] = s->axes[a].name;
		for (size_t w = 0; w < s->nworkloads; w++) {
			wln[w] = s->workloads[w].name;
			wlk[w] = clyde_sweep_wl_kind_name(s->workloads[w].kind);
		}
		for (size_t p = 0; p < s->npoints; p++)
			for (size_t a = 0; a < s->naxes; a++)
				vals[p * s->naxes + a] =
					clyde_sweep_value(s, p, a);
		memset(&ne, 0, sizeof(ne));
		ne.name = s->name;
		ne.title = s->title;
		ne.file = x->cfg->file;
		ne.text = x->cfg->text;
		ne.defines = defs;
		ne.naxes = s->naxes;
		ne.axis_names = axes;
		ne.nworkloads = s->nworkloads;
		ne.wl_names = wln;
		ne.wl_kinds = wlk;
		ne.npoints = s->npoints;
		ne.values = vals;
		rc = clyde_exp_store_create(x->ctx, x->h, &ne, &x->id);
	} else {
		clyde_err(x->ctx, ENOMEM, "sweep");
	}
	free(vals);
	free(axes);
	free(wln);
	free(wlk);
	free(defs);
	return rc;
}

/*
 * The sweep's files beside the history database: DB.sweep-ID.SUFFIX,
 * named after the database too, so that two databases in one directory
 * (whose experiments may have one id: the same file started in the same
 * second) never share a lock or a journal.
 */
static void beside_history(const struct clyde_history *h, const char *id,
			   const char *suffix, char *buf, size_t len)
{
	snprintf(buf, len, "%s.sweep-%s.%s", clyde_history_path(h), id, suffix);
}

static void journal_path(struct clyde_exp_exec *x)
{
	beside_history(x->h, x->id, "journal", x->journal, sizeof(x->journal));
}

/* ---- the experiment's own lock ----------------------------------------------- */
/*
 * A sweep holds an flock on DB.sweep-ID.lock beside the history (as its
 * journal) for as long as it runs the experiment, and removes the file
 * when it ends.  So an experiment stored as "running" whose lock nobody
 * holds was left by a sweep that was killed (or a machine that went
 * down): clyde_exp_list() shows it as "interrupted".  The descriptor is
 * close-on-exec: a child (a clyde run the killed sweep left behind) does
 * not keep it.  The file is one of clyde's own (exp/journal.h): a link, a
 * FIFO or another user's file there is refused, never written.
 */
static void exp_lock_path(const struct clyde_history *h, const char *id,
			  char *buf, size_t len)
{
	beside_history(h, id, "lock", buf, len);
}

/* Take the experiment's lock (x->exp_lock); refused when another sweep
 * holds it (a second --resume of one experiment). */
static int exp_lock_experiment(struct clyde_exp_exec *x)
{
	char pid[32], who[32] = "";
	int fd, n;

	exp_lock_path(x->h, x->id, x->exp_lock, sizeof(x->exp_lock));
	fd = exp_flock_own(x->ctx, x->exp_lock, who, sizeof(who));
	if (fd == -EBUSY)
		return clyde_err(x->ctx, 0,
				 "experiment %s is being run by another clyde "
				 "sweep%s%s (lock %s held)",
				 x->id, who[0] ? ", pid " : "", who,
				 x->exp_lock);
	if (fd < 0)
		return fd;
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || write(fd, pid, (size_t)n) != n) {
		/* The pid is for the message above only; the lock holds. */
	}
	x->exp_lock_fd = fd;
	return 0;
}

static void exp_unlock_experiment(struct clyde_exp_exec *x)
{
	exp_flock_release(x->exp_lock, x->exp_lock_fd);
	x->exp_lock_fd = -1;
}

int clyde_exp_running(const struct clyde_history *h, const char *id)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, held;

	exp_lock_path(h, id, path, sizeof(path));
	/* Not through a link; a FIFO does not hang the open (nor is it a
	 * lock: nobody runs the experiment). */
	fd = open(path,
		  O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ELOOP ? 0 : -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	if (flock(fd, LOCK_SH | LOCK_NB) == 0)
		held = 0;
	else
		held = errno == EWOULDBLOCK ? 1 : -errno;
	close(fd);
	return held;
}

int clyde_exp_list(struct clyde_ctx *ctx, struct clyde_history *h,
		   struct clyde_exp_info **out, size_t *n)
{
	int rc = clyde_exp_store_list(ctx, h, out, n);

	for (size_t i = 0; rc == 0 && i < *n; i++) {
		struct clyde_exp_info *e = &(*out)[i];
		struct clyde_exp_info again;
		char *st;

		if (strcmp(e->state, "running") || clyde_exp_running(h, e->id))
			continue;
		/* It may have ended since the list was read: the sweep
		 * stores its last state before it lets the lock go. */
		if (clyde_exp_store_get(ctx, h, e->id, &again) < 0) {
			clyde_err_clear(ctx);
			continue;
		}
		st = strdup(strcmp(again.state, "running") ? again.state :
							     "interrupted");
		clyde_exp_info_release(&again);
		if (!st)
			return clyde_err(ctx, ENOMEM, "experiment list");
		free(e->state);
		e->state = st;
	}
	return rc;
}

/* ---- checks before the first visit ----------------------------------------- */

/* The ops of each kind: the caller's, else the built-ins. */
static void pick_ops(const struct clyde_exp_config *cfg,
		     const struct clyde_exp_wl_ops *ops[CLYDE_SWEEP_KINDS])
{
	for (int k = 0; k < CLYDE_SWEEP_KINDS; k++)
		ops[k] = cfg->ops && cfg->ops[k] ?
				 cfg->ops[k] :
				 clyde_exp_wl_builtin(
					 (enum clyde_sweep_wl_kind)k);
}

/* The parts of the executor's state a check needs. */
static void exec_init(struct clyde_exp_exec *x, struct clyde_ctx *ctx,
		      struct clyde_sweep *s, const struct clyde_exp_config *cfg)
{
	memset(x, 0, sizeof(*x));
	x->ctx = ctx;
	x->s = s;
	x->cfg = cfg;
	x->jfd = -1;
	x->exp_lock_fd = -1;
	pick_ops(cfg, x->ops);
	/* "/" is the empty prefix; a fake root has no trailing slash. */
	snprintf(x->root, sizeof(x->root), "%s",
		 cfg->root && strcmp(cfg->root, "/") ? cfg->root : "");
	snprintf(x->lock_dir, sizeof(x->lock_dir), "%s",
		 cfg->lock_dir ? cfg->lock_dir : LOCK_DIR);
}

int clyde_exp_check(struct clyde_ctx *ctx, struct clyde_sweep *s,
		    const struct clyde_exp_config *cfg)
{
	struct clyde_exp_exec x;
	char sh[CLYDE_EXP_SHOW_MAX + 1];

	exec_init(&x, ctx, s, cfg);
	for (size_t p = 0; p < s->npoints; p++) {
		for (size_t w = 0; w < s->nworkloads; w++) {
			const struct clyde_sweep_workload *wl =
				&s->workloads[w];
			const struct clyde_exp_wl_ops *ops = x.ops[wl->kind];
			char err[512] = "", *args;
			int rc;

			if (!ops->check)
				continue;
			args = exp_static_expand(ctx, s, p, wl->args, wl->line);
			if (!args)
				continue;
			rc = ops->check(args, NULL, err, sizeof(err));
			free(args);
			if (rc < 0)
				return clyde_err(ctx, 0,
						 "%s:%u: workload %s, point "
						 "%zu: %s",
						 s->file, wl->line, wl->name,
						 p + 1,
						 clyde_exp_show(sh, err));
		}
		for (size_t k = 0; k < s->nsetup; k++) {
			const struct clyde_sweep_step *st = &s->setup[k];
			char real[PATH_MAX], full[PATH_MAX], *path;
			struct clyde_ctx c;
			int rc = 0;

			if (st->kind != CLYDE_SWEEP_SET)
				continue;
			path = exp_static_expand(ctx, s, p, st->text, st->line);
			if (!path)
				continue;
			clyde_ctx_init(&c);
			/* A path that does not exist yet (made by a setup
			 * command) is resolved at the visit. */
			snprintf(full, sizeof(full), "%s%s", x.root, path);
			if (!clyde_sweep_set_path_ok(path) ||
			    access(full, F_OK) == 0)
				rc = exp_resolve_set_path(&x, &c, path, real);
			if (rc < 0)
				clyde_err(ctx, 0, "%s:%u: point %zu: %s",
					  s->file, st->line, p + 1,
					  clyde_errmsg(&c));
			clyde_ctx_release(&c);
			free(path);
			if (rc < 0)
				return -EINVAL;
		}
	}
	return 0;
}

static void tmp_template(const struct clyde_exp_config *cfg, char *buf,
			 size_t cap)
{
	const char *tmp = cfg->tmp_parent;

	snprintf(buf, cap, "%s/clyde-sweep.XXXXXX", tmp && *tmp ? tmp : "/tmp");
}

int clyde_exp_check_tmp(struct clyde_ctx *ctx,
			const struct clyde_exp_config *cfg)
{
	char dir[PATH_MAX];

	tmp_template(cfg, dir, sizeof(dir));
	if (!mkdtemp(dir)) {
		int e = errno;

		*strrchr(dir, '/') = '\0';
		return clyde_err(ctx, e,
				 "%s: cannot make the sweep's work directory "
				 "there (TMPDIR)",
				 dir);
	}
	rmdir(dir);
	return 0;
}

/* ---- the entry point ---------------------------------------------------------- */

static void on_alarm(int sig)
{
	(void)sig;
}

/* Nothing ran: say why (in the context), keep the reason's kind. */
static int refuse(struct clyde_exp_exec *x, struct clyde_exp_outcome *out,
		  bool usage)
{
	out->end = CLYDE_EXP_REFUSED;
	out->refused_usage = usage;
	return clyde_errmsg(x->ctx)[0] ? -EIO :
					 clyde_err(x->ctx, 0, "experiment");
}

int clyde_exp_execute(struct clyde_ctx *ctx, struct clyde_sweep *s,
		      struct clyde_history *h,
		      const struct clyde_exp_config *cfg,
		      struct clyde_exp_outcome *out)
{
	struct clyde_exp_exec x;
	bool was_interrupted = false, fatal = false;
	struct sigaction sa;
	int rc;

	memset(out, 0, sizeof(*out));
	exec_init(&x, ctx, s, cfg);
	x.h = h;
	x.keep_going = cfg->keep_going || s->keep_going;
	x.rounds = clyde_sweep_max_rounds(s);
	/* An alarm wakes wait4 to enforce the kill deadline. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);

	x.done = calloc(s->npoints * x.rounds * s->nworkloads + 1, 1);
	tmp_template(cfg, x.tmpdir, sizeof(x.tmpdir));
	if (!x.done || !mkdtemp(x.tmpdir)) {
		clyde_err(ctx, errno, "%s", x.tmpdir);
		free(x.done);
		return refuse(&x, out, false);
	}
	if (exp_lock_static_paths(&x) < 0) {
		rc = refuse(&x, out, true);
		goto out;
	}
	if (cfg->resume_id) {
		x.id = strdup(cfg->resume_id);
		if (!x.id) {
			clyde_err(ctx, ENOMEM, "experiment");
			rc = refuse(&x, out, false);
			goto out;
		}
	} else if (create_record(&x) < 0) {
		rc = refuse(&x, out, false);
		goto out;
	}
	if (exp_lock_experiment(&x) < 0) {
		rc = refuse(&x, out, true);
		goto out;
	}
	journal_path(&x);
	if (cfg->resume_id) {
		rc = exp_undo_journal(&x);
		if (rc == -EPERM || rc == -EINVAL) {
			/* Not clyde's own, or not what clyde writes: nothing
			 * in it was done; the message names it. */
			rc = refuse(&x, out, true);
			goto out;
		}
		if (rc < 0) {
			clyde_err_clear(ctx);
			clyde_err(ctx, 0,
				  "%s: could not undo everything; fix it by "
				  "hand, then remove that file",
				  x.journal);
			rc = refuse(&x, out, false);
			goto out;
		}
		if (load_done(&x) < 0) {
			rc = refuse(&x, out, false);
			goto out;
		}
	}
	exp_say(&x, "experiment %s (%zu point%s, %u %s%s%s)", x.id, s->npoints,
		s->npoints == 1 ? "" : "s", x.rounds,
		clyde_sweep_adaptive(s) ? "round" : "repeat",
		x.rounds == 1 ? "" : "s",
		clyde_sweep_adaptive(s) ? " at most" : "");
	clyde_exp_store_set_state(ctx, h, x.id, "running");
	clyde_err_clear(ctx);

	rc = run_rounds(&x, &was_interrupted, &fatal);
	if (rc < 0 && !was_interrupted && clyde_errmsg(ctx)[0])
		exp_say(&x, "%s", clyde_errmsg(ctx));
	clyde_err_clear(ctx);
	if (was_interrupted) {
		out->end = CLYDE_EXP_INTERRUPTED;
		clyde_exp_store_set_state(ctx, h, x.id, "stopped");
	} else if (rc < 0) {
		out->end = CLYDE_EXP_STOPPED;
		clyde_exp_store_set_state(ctx, h, x.id, "failed");
	} else {
		out->end = CLYDE_EXP_DONE;
		clyde_exp_store_set_state(ctx, h, x.id, "finished");
	}
	clyde_err_clear(ctx);
	rc = 0;
out:
	if (x.jfd >= 0)
		close(x.jfd);
	exp_unlock_experiment(&x);
	exp_rm_tmpdir(x.tmpdir);
	exp_unlock_all(&x, false);
	free(x.writes);
	free(x.done);
	out->id = x.id;
	out->nfailed = x.nfailed;
	snprintf(out->first_failure, sizeof(out->first_failure), "%s",
		 x.first_failure);
	return rc;
}
