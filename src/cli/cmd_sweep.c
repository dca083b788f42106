/*
 * `clyde sweep FILE`: run an experiment (docs/sweep.md).  The plan comes
 * from workloads/sweep.c (pure); this file executes it: setup commands,
 * sysfs/proc writes (restored after each visit, and from a journal after a
 * crash), the workloads (clyde itself for run/tree, timed shell commands),
 * teardown always, every finished run saved at once in the history
 * (report/exp_store.h), interleaved repeats, --resume, one progress line.
 *
 * A visit is one point at one repeat: setup, the point's writes, every
 * workload once, restore, teardown.  Repeats are rounds over all points
 * (A B C A B C ...), so every repeat rebuilds its configuration.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/optmodel.h"
#include "cli/opts.h"
#include "core/stats.h"
#include "env/env.h"
#include "report/exp_analysis.h"
#include "report/exp_store.h"
#include "report/exp_table.h"
#include "report/experiment.h"
#include "report/history.h"
#include "workloads/sweep.h"

/* How much of a failed command's output is shown. */
#define OUTPUT_TAIL 2000
/* A child that ignores SIGTERM this long after an interruption is killed. */
#define KILL_AFTER_NS 10000000000ull

struct sweep_cli {
	const char *file;
	const char *resume;
	const char *show;
	bool list;
	const char *db;
	const char *metrics; /* --metrics KEY,... or "all" */
	bool dry_run;
	bool keep_going;
	bool quiet;
	char **defines; /* point into argv */
	size_t ndefines;
};

/* What the progress line shows; written by the main thread. */
struct sweep_progress {
	pthread_mutex_t lock;
	pthread_t thread;
	atomic_int stop;
	bool running, shown;
	const struct clyde_ctx *ctx;
	uint64_t start_ns;
	size_t visits_total, visits_done, visits_skipped;
	size_t point, npoints;
	unsigned repeat, nrepeats;
	const struct clyde_sweep *s;
	char label[96]; /* the point's axis values */
	char what[160];
};

/* One write to restore after the visit. */
struct saved_write {
	char *path;
	char *old;
};

struct sweep_exec {
	struct clyde_ctx *ctx;
	struct clyde_sweep *s;
	struct clyde_history *h; /* NULL in a dry run */
	char *id;
	bool dry;
	bool keep_going;
	FILE *out; /* dry-run listing */
	char exe[PATH_MAX];
	char tmpdir[PATH_MAX];
	char journal[PATH_MAX];
	int jfd;
	struct saved_write *writes;
	size_t nwrites;
	/* done[(point * rounds + repeat - 1) * nworkloads + w] */
	unsigned char *done;
	unsigned rounds;
	size_t nfailed; /* visits that failed */
	char first_failure[CLYDE_ERR_MAX];
	struct sweep_progress prog;
};

/* ---- small helpers ------------------------------------------------------ */

static bool interrupted(void)
{
	return clyde_cli_interrupted();
}

/* Read a whole small file into a NUL-terminated buffer. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 8192;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* The most an experiment file may hold: it is written by hand. */
#define EXPERIMENT_MAX (1 << 20)

/* An experiment file is a regular file of a sane size: a directory would
 * read as empty and /dev/zero would never end.  Returns 0, or -1 after
 * printing one line. */
static int check_experiment_file(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "clyde sweep: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr,
			"clyde sweep: %s: not a regular file; an experiment "
			"file is a text file (see docs/sweep.md)\n",
			path);
		return -1;
	}
	if (st.st_size > EXPERIMENT_MAX) {
		fprintf(stderr,
			"clyde sweep: %s: %lld bytes, larger than the %d an "
			"experiment file may be; not read\n",
			path, (long long)st.st_size, EXPERIMENT_MAX);
		return -1;
	}
	return 0;
}

/* Whether the experiment has a workload of `kind` named name[0..len). */
static bool has_workload(const struct clyde_sweep *s, const char *name,
			 size_t len, bool timed)
{
	for (size_t w = 0; w < s->nworkloads; w++)
		if ((s->workloads[w].kind == CLYDE_SWEEP_TIME) == timed &&
		    strlen(s->workloads[w].name) == len &&
		    !strncmp(s->workloads[w].name, name, len))
			return true;
	return false;
}

/* Give every captured variable the value v (they are "" until a visit
 * sets them). */
static void set_captured_all(struct clyde_sweep *s, const char *v)
{
	for (size_t i = 0; i < s->nvars; i++)
		if (s->vars[i].captured)
			clyde_sweep_set_var(s, s->vars[i].name, v);
}

/* A run workload's options expanded for point p, or NULL when they depend
 * on a value captured at run time (then they cannot be checked now). */
static char *static_run_args(struct clyde_ctx *ctx, struct clyde_sweep *s,
			     size_t p, const struct clyde_sweep_workload *w)
{
	char *a = NULL, *b = NULL;

	set_captured_all(s, "");
	if (clyde_sweep_expand(ctx, s, p, 1, w->args, w->line, &a) < 0)
		a = NULL;
	set_captured_all(s, "\x01");
	if (clyde_sweep_expand(ctx, s, p, 1, w->args, w->line, &b) < 0)
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

/*
 * The options of every `run =` workload are checked with clyde run's own
 * parser at every point before anything runs, so a mistyped option is
 * found before the first setup command builds a configuration.  Options
 * that need the shell (quotes, variables) or a captured value are left to
 * the run itself.  Returns 0, or -1 after printing one line.
 */
static int check_run_options(struct clyde_ctx *ctx, struct clyde_sweep *s)
{
	for (size_t w = 0; w < s->nworkloads; w++) {
		const struct clyde_sweep_workload *wl = &s->workloads[w];

		if (wl->kind != CLYDE_SWEEP_RUN)
			continue;
		for (size_t p = 0; p < s->npoints; p++) {
			struct clyde_bonnie_config cfg;
			struct clyde_cli_extra extra;
			char err[512] = "",
			     *args = static_run_args(ctx, s, p, wl);
			wordexp_t we;
			int rc;

			if (!args)
				continue;
			if (wordexp(args, &we, WRDE_NOCMD | WRDE_UNDEF) != 0) {
				free(args);
				continue;
			}
			/* we_wordv[0] is reserved for the program name. */
			{
				char **argv =
					calloc(we.we_wordc + 2, sizeof(*argv));

				if (!argv) {
					wordfree(&we);
					free(args);
					return -1;
				}
				argv[0] = (char *)"clyde";
				for (size_t i = 0; i < we.we_wordc; i++)
					argv[i + 1] = we.we_wordv[i];
				rc = clyde_opts_parse((int)we.we_wordc + 1,
						      argv, &cfg, &extra, err,
						      sizeof(err));
				free(argv);
			}
			wordfree(&we);
			free(args);
			if (rc == CLYDE_OPTS_ERROR) {
				fprintf(stderr,
					"clyde sweep: %s:%u: workload %s, point "
					"%zu: %s\n",
					s->file, wl->line, wl->name, p + 1,
					err);
				return -1;
			}
		}
	}
	return 0;
}

/*
 * The metric keys can only be checked against the results once the runs
 * exist; their workload part is checked now, before anything runs, so a
 * mistyped key is not found after an hour of runs.  A key is
 * WORKLOAD.TEST for run and tree, time.WORKLOAD[.SUFFIX] for timed
 * commands (docs/sweep.md).  Returns 0, or -1 after printing one line.
 */
static int check_metric_keys(const struct clyde_sweep *s, const char *keys,
			     const char *where, const char *what)
{
	const char *k = keys;

	if (!keys || !strcmp(keys, "all"))
		return 0;
	while (*k) {
		const char *end, *dot;
		size_t l;

		while (*k == ' ' || *k == ',')
			k++;
		if (!*k)
			break;
		end = strchr(k, ',');
		if (!end)
			end = k + strlen(k);
		l = (size_t)(end - k);
		while (l && k[l - 1] == ' ')
			l--;
		dot = memchr(k, '.', l);
		if (dot && dot + 1 < k + l) {
			const char *t = dot + 1,
				   *tend = memchr(t, '.', l - (size_t)(t - k));
			size_t tl = (size_t)((tend ? tend : k + l) - t);

			if (has_workload(s, k, (size_t)(dot - k), false) ||
			    (dot - k == 4 && !strncmp(k, "time", 4) &&
			     has_workload(s, t, tl, true))) {
				k = end;
				continue;
			}
		}
		fprintf(stderr,
			"clyde sweep: %s%s%s \"%.*s\": not a metric of this experiment "
			"(WORKLOAD.TEST for run and tree, time.WORKLOAD for "
			"timed commands, or all)\n",
			where ? where : "", where ? ": " : "", what, (int)l, k);
		return -1;
	}
	return 0;
}

/* The last OUTPUT_TAIL bytes of a log file, indented, in buf. */
static void log_tail(const char *path, char *buf, size_t cap)
{
	size_t len = 0;
	char *all = slurp(path, &len);
	const char *p;
	size_t off = 0;

	buf[0] = '\0';
	if (!all)
		return;
	p = len > OUTPUT_TAIL ? all + len - OUTPUT_TAIL : all;
	if (p != all)
		off += (size_t)snprintf(buf, cap, "    ...\n");
	while (*p && off + 8 < cap) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		int w = snprintf(buf + off, cap - off, "    %.*s\n", (int)l, p);

		if (w < 0)
			break;
		off += (size_t)w;
		if (!e)
			break;
		p = e + 1;
	}
	free(all);
}

/* ---- the progress line ---------------------------------------------------- */

static void fmt_dur(uint64_t ns, char *buf, size_t cap)
{
	unsigned long s = (unsigned long)(ns / 1000000000ull);

	if (s >= 3600)
		snprintf(buf, cap, "%luh%02lum", s / 3600, s / 60 % 60);
	else
		snprintf(buf, cap, "%lum%02lus", s / 60, s % 60);
}

static void progress_draw(struct sweep_progress *p)
{
	uint64_t el = clyde_now(p->ctx) - p->start_ns;
	char e[32], eta[48] = "";
	size_t done = p->visits_done;
	size_t left =
		p->visits_total > p->visits_done + p->visits_skipped ?
			p->visits_total - p->visits_done - p->visits_skipped :
			0;

	fmt_dur(el, e, sizeof(e));
	if (done > 0) {
		char t[32];

		fmt_dur(el / done * left, t, sizeof(t));
		snprintf(eta, sizeof(eta), ", ETA %s", t);
	}
	fprintf(stderr, "\r\033[Kpoint %zu/%zu (%s), repeat %u/%u: %s, %s%s",
		p->point, p->npoints, p->label, p->repeat, p->nrepeats, p->what,
		e, eta);
	fflush(stderr);
	p->shown = true;
}

static void *progress_main(void *arg)
{
	struct sweep_progress *p = arg;
	struct timespec ts = { 0, 250000000L };

	while (!atomic_load(&p->stop)) {
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&p->lock);
		if (!atomic_load(&p->stop) && p->what[0])
			progress_draw(p);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* Erase the line (before anything else goes to stderr). */
static void progress_erase(struct sweep_progress *p)
{
	if (!p->running)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown = false;
	}
	pthread_mutex_unlock(&p->lock);
}

static void progress_set(struct sweep_progress *p, size_t point,
			 unsigned repeat, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void progress_set(struct sweep_progress *p, size_t point,
			 unsigned repeat, const char *fmt, ...)
{
	va_list ap;

	if (!p->running)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->point != point + 1)
		clyde_sweep_point_label(p->s, point, p->label,
					sizeof(p->label));
	p->point = point + 1;
	p->repeat = repeat;
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof(p->what), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&p->lock);
}

static void progress_stop(struct sweep_progress *p)
{
	if (!p->running)
		return;
	atomic_store(&p->stop, 1);
	pthread_join(p->thread, NULL);
	progress_erase(p);
	pthread_mutex_destroy(&p->lock);
	p->running = false;
}

/* Print a message on stderr without tearing the progress line. */
static void say(struct sweep_exec *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct sweep_exec *x, const char *fmt, ...)
{
	va_list ap;

	/* Under the lock, so that the line is not redrawn in between. */
	if (x->prog.running) {
		pthread_mutex_lock(&x->prog.lock);
		if (x->prog.shown) {
			fputs("\r\033[K", stderr);
			x->prog.shown = false;
		}
	}
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (x->prog.running)
		pthread_mutex_unlock(&x->prog.lock);
}

/* ---- children --------------------------------------------------------------- */

struct child_result {
	int status; /* from wait4 */
	struct rusage ru;
	uint64_t elapsed_ns;
	bool killed; /* stopped by us after an interruption */
};

/*
 * Run /bin/sh -c cmd in a process group of its own, stdin from /dev/null,
 * stdout and stderr into `log` (truncated first; stdout into `out`
 * instead when it is not NULL), with env (NAME=VALUE
 * strings, may be NULL) added.  When `stoppable`, an interruption of clyde
 * sends SIGTERM to the group (SIGKILL after KILL_AFTER_NS); teardown runs
 * are not stoppable.  Returns 0 when the child ran (look at r->status) or
 * a negative errno when it could not be started.
 */
static int run_sh(struct sweep_exec *x, const char *cmd, const char *log,
		  const char *out, char *const *env, bool stoppable,
		  struct child_result *r)
{
	uint64_t t0, kill_at = 0;
	int fd, ofd = -1, term_sent = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return clyde_err(x->ctx, errno, "%s: open", log);
	if (out) {
		ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (ofd < 0) {
			close(fd);
			return clyde_err(x->ctx, errno, "%s: open", out);
		}
	}
	t0 = clyde_now(x->ctx);
	pid = fork();
	if (pid < 0) {
		close(fd);
		if (ofd >= 0)
			close(ofd);
		return clyde_err(x->ctx, errno, "fork");
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		if (null >= 0)
			dup2(null, 0);
		dup2(ofd >= 0 ? ofd : fd, 1);
		dup2(fd, 2);
		for (size_t i = 0; env && env[i]; i++)
			putenv(env[i]);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	close(fd);
	if (ofd >= 0)
		close(ofd);
	for (;;) {
		pid_t got = wait4(pid, &r->status, 0, &r->ru);

		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return clyde_err(x->ctx, errno, "wait for %s", cmd);
		if (!stoppable || !interrupted())
			continue;
		if (!term_sent) {
			kill(-pid, SIGTERM);
			term_sent = 1;
			r->killed = true;
			kill_at = clyde_now(x->ctx) + KILL_AFTER_NS;
			/* Wake up to check the deadline. */
			alarm(1);
		} else if (clyde_now(x->ctx) >= kill_at) {
			kill(-pid, SIGKILL);
		} else {
			alarm(1);
		}
	}
	alarm(0);
	r->elapsed_ns = clyde_now(x->ctx) - t0;
	return 0;
}

static void describe_status(const struct child_result *r, char *buf, size_t cap)
{
	if (WIFEXITED(r->status))
		snprintf(buf, cap, "exit status %d", WEXITSTATUS(r->status));
	else if (WIFSIGNALED(r->status))
		snprintf(buf, cap, "killed by signal %d", WTERMSIG(r->status));
	else
		snprintf(buf, cap, "status %d", r->status);
}

static bool child_ok(const struct child_result *r)
{
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

/* ---- the restore journal ---------------------------------------------------- */

/*
 * The journal (sweep-ID.journal beside the history) says what to undo if
 * clyde dies inside a visit: "visit P R" when one starts, "set PATH OLD"
 * before each write.  It is removed when the visit has been torn down and
 * restored; --resume finds it and undoes what it lists first.
 */
static int journal_add(struct sweep_exec *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int journal_add(struct sweep_exec *x, const char *fmt, ...)
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

static void journal_done(struct sweep_exec *x)
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

/* Only kernel tunables are written: a typo must not hit a real file. */
static bool writable_path(const char *p)
{
	return (!strncmp(p, "/sys/", 5) || !strncmp(p, "/proc/", 6)) &&
	       !strstr(p, "/../");
}

static int write_value(struct clyde_ctx *ctx, const char *path,
		       const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
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

/* Read the old value, journal it, write the new one. */
static int do_set(struct sweep_exec *x, const char *path, const char *value)
{
	struct saved_write *sw;
	char old[4096];
	char *text;
	size_t len;

	if (!writable_path(path))
		return clyde_err(x->ctx, 0,
				 "set %s: only files under /sys and /proc are "
				 "written",
				 path);
	text = slurp(path, &len);
	if (!text)
		return clyde_err(x->ctx, errno, "%s: read the old value", path);
	restore_value(text, old, sizeof(old));
	free(text);
	if (strchr(old, '\t') || journal_add(x, "set\t%s\t%s\n", path, old))
		return clyde_err(x->ctx, 0, "%s: cannot journal the old value",
				 path);
	sw = realloc(x->writes, (x->nwrites + 1) * sizeof(*sw));
	if (!sw)
		return clyde_err(x->ctx, ENOMEM, "set %s", path);
	x->writes = sw;
	sw = &x->writes[x->nwrites];
	sw->path = strdup(path);
	sw->old = strdup(old);
	if (!sw->path || !sw->old) {
		free(sw->path);
		free(sw->old);
		return clyde_err(x->ctx, ENOMEM, "set %s", path);
	}
	x->nwrites++;
	return write_value(x->ctx, path, value);
}

/* Write back every saved value, newest first.  Returns the failures. */
static int restore_writes(struct sweep_exec *x)
{
	int bad = 0;

	while (x->nwrites > 0) {
		struct saved_write *sw = &x->writes[--x->nwrites];
		struct clyde_ctx c;

		clyde_ctx_init(&c);
		if (write_value(&c, sw->path, sw->old) < 0) {
			say(x, "clyde sweep: restore: %s\n", clyde_errmsg(&c));
			bad++;
		}
		clyde_ctx_release(&c);
		free(sw->path);
		free(sw->old);
	}
	return bad;
}

/* ---- workloads ------------------------------------------------------------- */

/* Append s to a JSON document as a string literal. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

/* What one workload run gave: a document to store, or a failure. */
struct wl_outcome {
	char *doc; /* malloc'ed */
	size_t len;
	bool failed;
	char message[CLYDE_ERR_MAX + OUTPUT_TAIL + 256];
};

struct wl_ops {
	enum clyde_sweep_wl_kind kind;
	int (*run)(struct sweep_exec *x, const struct clyde_sweep_workload *w,
		   const char *args, const char *dev, char *const *env,
		   struct wl_outcome *o);
};

/* run and tree: clyde itself, its result read back from --json. */
static int wl_clyde(struct sweep_exec *x, const struct clyde_sweep_workload *w,
		    const char *args, const char *dev, char *const *env,
		    struct wl_outcome *o)
{
	char json[PATH_MAX + 32], log[PATH_MAX + 32], st[64];
	char jenv[PATH_MAX + 64], *env2[16];
	struct child_result r;
	size_t n = 0;
	char *cmd;
	int rc;

	(void)dev;
	snprintf(json, sizeof(json), "%s/result.json", x->tmpdir);
	snprintf(log, sizeof(log), "%s/output.log", x->tmpdir);
	unlink(json);
	snprintf(jenv, sizeof(jenv), "CLYDE_SWEEP_JSON=%s", json);
	for (; env[n] && n < 14; n++)
		env2[n] = env[n];
	env2[n++] = jenv;
	env2[n] = NULL;
	if (asprintf(&cmd,
		     "exec \"$CLYDE_SWEEP_EXE\" %s %s --json "
		     "\"$CLYDE_SWEEP_JSON\" %s-q",
		     clyde_sweep_wl_kind_name(w->kind), args,
		     w->kind == CLYDE_SWEEP_RUN ? "--no-save " : "") < 0)
		return clyde_err(x->ctx, ENOMEM, "workload %s", w->name);
	rc = run_sh(x, cmd, log, NULL, env2, true, &r);
	if (rc < 0) {
		free(cmd);
		return rc;
	}
	if (r.killed || interrupted()) {
		free(cmd);
		return -EINTR;
	}
	if (!child_ok(&r)) {
		char tail[OUTPUT_TAIL + 256];

		describe_status(&r, st, sizeof(st));
		log_tail(log, tail, sizeof(tail));
		o->failed = true;
		snprintf(o->message, sizeof(o->message),
			 "workload %s: clyde %s %s: %s\n%s", w->name,
			 clyde_sweep_wl_kind_name(w->kind), args, st, tail);
		free(cmd);
		return 0;
	}
	free(cmd);
	o->doc = slurp(json, &o->len);
	if (!o->doc || o->len == 0) {
		o->failed = true;
		snprintf(o->message, sizeof(o->message),
			 "workload %s: clyde %s wrote no result", w->name,
			 clyde_sweep_wl_kind_name(w->kind));
	}
	return 0;
}

/* The most block devices one timed workload counts. */
#define MAX_MEMBERS 32

/* The devices a timed workload counts, and their counters. */
struct members {
	size_t n;
	struct clyde_target *tg; /* n of them */
	struct clyde_devstat before[MAX_MEMBERS], after[MAX_MEMBERS];
};

/* Find the devices of `spec` (paths separated by blanks: device nodes or
 * directories) and read their counters.  0, or -1 with a message. */
static int members_start(struct sweep_exec *x, const char *spec,
			 struct members *m, char *msg, size_t cap)
{
	char buf[4096], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", spec);
	m->tg = calloc(MAX_MEMBERS, sizeof(*m->tg));
	if (!m->tg)
		return snprintf(msg, cap, "out of memory"), -1;
	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		struct clyde_target *t = &m->tg[m->n];

		if (m->n == MAX_MEMBERS)
			return snprintf(msg, cap, "more than %d devices",
					MAX_MEMBERS),
			       -1;
		if (clyde_env_target(x->ctx, tok, t) < 0 || !t->block_dev[0] ||
		    clyde_devstat_read(t, &m->before[m->n]) < 0) {
			clyde_err_clear(x->ctx);
			return snprintf(msg, cap,
					"no block device counters for %s", tok),
			       -1;
		}
		m->n++;
	}
	return 0;
}

static void json_devio(FILE *f, const char *name, const struct clyde_devio *io)
{
	fprintf(f, "{\"name\": ");
	json_str(f, name);
	fprintf(f,
		", \"read_bytes\": %llu, \"write_bytes\": %llu, "
		"\"read_ios\": %llu, \"write_ios\": %llu, "
		"\"flush_ios\": %llu, \"io_ticks_ms\": %llu}",
		(unsigned long long)io->read_bytes,
		(unsigned long long)io->write_bytes,
		(unsigned long long)io->read_ios,
		(unsigned long long)io->write_ios,
		(unsigned long long)io->flush_ios,
		(unsigned long long)io->io_ticks_ms);
}

/* "device": the sum over the members (names joined with '+'), and with
 * several, "members": each one's own counters. */
static void json_members(FILE *f, const struct members *m)
{
	struct clyde_devio sum, io[MAX_MEMBERS];
	char name[1024] = "";

	memset(&sum, 0, sizeof(sum));
	for (size_t i = 0; i < m->n; i++) {
		clyde_devstat_delta(&m->before[i], &m->after[i], &io[i]);
		sum.read_bytes += io[i].read_bytes;
		sum.write_bytes += io[i].write_bytes;
		sum.read_ios += io[i].read_ios;
		sum.write_ios += io[i].write_ios;
		sum.flush_ios += io[i].flush_ios;
		if (io[i].io_ticks_ms > sum.io_ticks_ms)
			sum.io_ticks_ms = io[i].io_ticks_ms;
		if (strlen(name) + strlen(m->tg[i].block_dev) + 2 <
		    sizeof(name)) {
			if (i)
				strcat(name, "+");
			strcat(name, m->tg[i].block_dev);
		}
	}
	fprintf(f, ", \"device\": ");
	json_devio(f, name, &sum);
	if (m->n < 2)
		return;
	fprintf(f, ", \"members\": [");
	for (size_t i = 0; i < m->n; i++) {
		if (i)
			fprintf(f, ", ");
		json_devio(f, m->tg[i].block_dev, &io[i]);
	}
	fprintf(f, "]");
}

/* time: a shell command; wall time, CPU of it and its children, the
 * counters of the named devices (or those under the named paths). */
static int wl_time(struct sweep_exec *x, const struct clyde_sweep_workload *w,
		   const char *cmd, const char *dev, char *const *env,
		   struct wl_outcome *o)
{
	char log[PATH_MAX + 32], st[64], why[512];
	struct members m;
	bool have_dev = false;
	struct child_result r;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f;
	int rc;

	memset(&m, 0, sizeof(m));
	snprintf(log, sizeof(log), "%s/output.log", x->tmpdir);
	if (dev) {
		if (members_start(x, dev, &m, why, sizeof(why)) < 0) {
			o->failed = true;
			snprintf(o->message, sizeof(o->message),
				 "workload %s: %s", w->name, why);
			free(m.tg);
			return 0;
		}
		have_dev = m.n > 0;
	}
	rc = run_sh(x, cmd, log, NULL, env, true, &r);
	for (size_t i = 0; rc == 0 && have_dev && i < m.n; i++)
		if (clyde_devstat_read(&m.tg[i], &m.after[i]) < 0)
			have_dev = false;
	if (rc < 0 || r.killed || interrupted()) {
		free(m.tg);
		return rc < 0 ? rc : -EINTR;
	}
	if (!child_ok(&r)) {
		char tail[OUTPUT_TAIL + 256];

		describe_status(&r, st, sizeof(st));
		log_tail(log, tail, sizeof(tail));
		o->failed = true;
		snprintf(o->message, sizeof(o->message),
			 "workload %s: `%s`: %s\n%s", w->name, cmd, st, tail);
		free(m.tg);
		return 0;
	}
	f = open_memstream(&buf, &blen);
	if (!f) {
		free(m.tg);
		return clyde_err(x->ctx, ENOMEM, "workload %s", w->name);
	}
	fprintf(f, "{\"kind\": \"timed\", \"workload\": ");
	json_str(f, w->name);
	fprintf(f, ", \"command\": ");
	json_str(f, cmd);
	fprintf(f,
		", \"exit_status\": 0, \"elapsed_ns\": %llu, "
		"\"cpu_user_ns\": %llu, \"cpu_sys_ns\": %llu",
		(unsigned long long)r.elapsed_ns,
		(unsigned long long)tv_ns(&r.ru.ru_utime),
		(unsigned long long)tv_ns(&r.ru.ru_stime));
	if (have_dev)
		json_members(f, &m);
	fprintf(f, "}\n");
	fclose(f);
	free(m.tg);
	if (!buf)
		return clyde_err(x->ctx, ENOMEM, "workload %s", w->name);
	o->doc = buf;
	o->len = blen;
	return 0;
}

/* One entry per kind of workload (enum clyde_sweep_wl_kind). */
static const struct wl_ops wl_table[] = {
	{ CLYDE_SWEEP_RUN, wl_clyde },
	{ CLYDE_SWEEP_TREE, wl_clyde },
	{ CLYDE_SWEEP_TIME, wl_time },
};

/* ---- a visit --------------------------------------------------------------- */

static unsigned char *done_slot(struct sweep_exec *x, size_t p, unsigned r,
				size_t w)
{
	return &x->done[((p * x->rounds) + (r - 1)) * x->s->nworkloads + w];
}

static bool visit_done(struct sweep_exec *x, size_t p, unsigned r)
{
	for (size_t w = 0; w < x->s->nworkloads; w++)
		if (!*done_slot(x, p, r, w))
			return false;
	return true;
}

/* Record that a workload (or the whole visit) failed. */
static void record_failure(struct sweep_exec *x, size_t p, unsigned r, size_t w,
			   const char *msg)
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
		say(x, "clyde sweep: %s\n", clyde_errmsg(x->ctx));
		clyde_err_clear(x->ctx);
	}
}

/* Expand a template or report why not (returns NULL). */
static char *expand(struct sweep_exec *x, size_t p, unsigned r, const char *t,
		    unsigned line)
{
	char *out = NULL;

	if (!t)
		return NULL;
	if (clyde_sweep_expand(x->ctx, x->s, p, r, t, line, &out) < 0)
		return NULL;
	return out;
}

/* The environment every command of a visit gets. */
struct visit_env {
	char v[5][PATH_MAX + 64];
	char *env[6];
};

static void visit_env_init(struct sweep_exec *x, size_t p, unsigned r,
			   struct visit_env *e)
{
	snprintf(e->v[0], sizeof(e->v[0]), "CLYDE_SWEEP_EXE=%s", x->exe);
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
static int teardown(struct sweep_exec *x, size_t p, unsigned r,
		    struct visit_env *ve, bool quiet_failures)
{
	char log[PATH_MAX + 32], st[64], tail[OUTPUT_TAIL + 256];
	int bad = 0;

	snprintf(log, sizeof(log), "%s/teardown.log", x->tmpdir);
	for (size_t i = 0; i < x->s->nteardown; i++) {
		const struct clyde_sweep_step *t = &x->s->teardown[i];
		char *cmd = expand(x, p, r, t->text, t->line);
		struct child_result res;

		if (!cmd) {
			say(x, "clyde sweep: %s\n", clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			bad++;
			continue;
		}
		progress_set(&x->prog, p, r, "teardown");
		if (run_sh(x, cmd, log, NULL, ve->env, false, &res) < 0) {
			say(x, "clyde sweep: teardown: %s\n",
			    clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			bad++;
		} else if (!child_ok(&res)) {
			bad++;
			if (!quiet_failures) {
				describe_status(&res, st, sizeof(st));
				log_tail(log, tail, sizeof(tail));
				say(x,
				    "clyde sweep: point %zu repeat %u: "
				    "teardown `%s`: %s\n%s",
				    p + 1, r, cmd, st, tail);
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
static int set_captured(struct sweep_exec *x, const char *name,
			const char *path, char *msg, size_t cap)
{
	char *v = slurp(path, NULL);
	int rc;

	if (!v)
		return snprintf(msg, cap, "capture %s: %s: %s", name, path,
				strerror(errno)),
		       -1;
	fold_blanks(v);
	rc = clyde_sweep_set_var(x->s, name, v);
	if (rc == 0 && journal_add(x, "capture\t%s\t%s\n", name, v) < 0) {
		snprintf(msg, cap, "%s", clyde_errmsg(x->ctx));
		clyde_err_clear(x->ctx);
		rc = -1;
	} else if (rc < 0) {
		snprintf(msg, cap, "capture %s: %s", name, strerror(-rc));
	}
	free(v);
	return rc < 0 ? -1 : 0;
}

/* Captured variables are empty until their command ran in this visit
 * (the dry run shows "<NAME>"). */
static void reset_captured(struct clyde_sweep *s, bool dry)
{
	for (size_t i = 0; i < s->nvars; i++) {
		char mark[160];

		if (!s->vars[i].captured)
			continue;
		snprintf(mark, sizeof(mark), "<%s>", s->vars[i].name);
		clyde_sweep_set_var(s, s->vars[i].name, dry ? mark : "");
	}
}

enum visit_result {
	VISIT_OK,
	VISIT_FAILED,
	VISIT_INTERRUPTED
};

/* Run the setup; 0, or -1 with the reason in msg. */
static int setup(struct sweep_exec *x, size_t p, unsigned r,
		 struct visit_env *ve, char *msg, size_t cap)
{
	char log[PATH_MAX + 32], st[64], tail[OUTPUT_TAIL + 256];
	char capture[PATH_MAX + 32];

	snprintf(log, sizeof(log), "%s/setup.log", x->tmpdir);
	snprintf(capture, sizeof(capture), "%s/capture.out", x->tmpdir);
	for (size_t i = 0; i < x->s->nsetup; i++) {
		const struct clyde_sweep_step *step = &x->s->setup[i];
		char *text = expand(x, p, r, step->text, step->line);
		char *value = step->value ?
				      expand(x, p, r, step->value, step->line) :
				      NULL;
		struct child_result res;
		int rc;

		if (interrupted()) {
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
			progress_set(&x->prog, p, r, "set %s", text);
			rc = do_set(x, text, value);
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
		progress_set(&x->prog, p, r, "setup");
		rc = run_sh(x, text, log,
			    step->kind == CLYDE_SWEEP_CAPTURE ? capture : NULL,
			    ve->env, true, &res);
		if (rc < 0) {
			snprintf(msg, cap, "setup `%s`: %s", text,
				 clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
		} else if (res.killed || interrupted()) {
			rc = -EINTR;
		} else if (!child_ok(&res)) {
			describe_status(&res, st, sizeof(st));
			log_tail(log, tail, sizeof(tail));
			snprintf(msg, cap, "%s `%s`: %s\n%s",
				 step->kind == CLYDE_SWEEP_CAPTURE ? "capture" :
								     "setup",
				 text, st, tail);
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
static int before(struct sweep_exec *x, size_t p, unsigned r,
		  const struct clyde_sweep_workload *w, struct visit_env *ve,
		  struct wl_outcome *o)
{
	char log[PATH_MAX + 32], st[64], tail[OUTPUT_TAIL + 256];
	struct child_result res;
	char *cmd;
	int rc;

	if (!w->before)
		return 0;
	cmd = expand(x, p, r, w->before, w->line);
	if (!cmd)
		return -EINVAL;
	snprintf(log, sizeof(log), "%s/output.log", x->tmpdir);
	rc = run_sh(x, cmd, log, NULL, ve->env, true, &res);
	if (rc == 0 && (res.killed || interrupted()))
		rc = -EINTR;
	if (rc == 0 && !child_ok(&res)) {
		describe_status(&res, st, sizeof(st));
		log_tail(log, tail, sizeof(tail));
		o->failed = true;
		snprintf(o->message, sizeof(o->message),
			 "workload %s: before `%s`: %s\n%s", w->name, cmd, st,
			 tail);
	}
	free(cmd);
	return rc;
}

/* Run the workloads not yet done at this visit. */
static int workloads(struct sweep_exec *x, size_t p, unsigned r,
		     struct visit_env *ve, char *msg, size_t cap)
{
	for (size_t i = 0; i < x->s->nworkloads; i++) {
		const struct clyde_sweep_workload *w = &x->s->workloads[i];
		char *args, *dev = NULL;
		struct wl_outcome o;
		struct clyde_exp_run_rec rec;
		int rc;

		if (*done_slot(x, p, r, i))
			continue;
		if (interrupted())
			return -EINTR;
		args = expand(x, p, r, w->args, w->line);
		if (w->device || w->path)
			dev = expand(x, p, r, w->device ? w->device : w->path,
				     w->line);
		if (!args || ((w->device || w->path) && !dev)) {
			snprintf(msg, cap, "%s", clyde_errmsg(x->ctx));
			clyde_err_clear(x->ctx);
			free(args);
			free(dev);
			return -1;
		}
		progress_set(&x->prog, p, r, "%s %s", w->name,
			     clyde_sweep_wl_kind_name(w->kind));
		memset(&o, 0, sizeof(o));
		rc = before(x, p, r, w, ve, &o);
		if (rc == 0 && !o.failed)
			rc = wl_table[w->kind].run(x, w, args, dev, ve->env,
						   &o);
		free(args);
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
			return -1;
		}
		*done_slot(x, p, r, i) = 1;
	}
	return 0;
}

static enum visit_result visit(struct sweep_exec *x, size_t p, unsigned r,
			       bool *fatal)
{
	char msg[CLYDE_ERR_MAX + 2 * OUTPUT_TAIL + 512], label[512];
	struct visit_env ve;
	int rc, bad;

	msg[0] = '\0';
	reset_captured(x->s, false);
	visit_env_init(x, p, r, &ve);
	clyde_sweep_point_label(x->s, p, label, sizeof(label));
	/* The work directory too: a crashed clyde cannot remove it. */
	if (journal_add(x, "tmp\t%s\t-\n", x->tmpdir) < 0 ||
	    journal_add(x, "visit\t%zu\t%u\n", p, r) < 0) {
		say(x, "clyde sweep: %s\n", clyde_errmsg(x->ctx));
		*fatal = true;
		return VISIT_FAILED;
	}
	rc = setup(x, p, r, &ve, msg, sizeof(msg));
	if (rc == 0)
		rc = workloads(x, p, r, &ve, msg, sizeof(msg));
	if (rc == -2)
		*fatal = true;
	/* Restore, then tear down, whatever happened: the values go back
	 * while the device they belong to is still the point's (a teardown
	 * that detaches a loop device would leave its number, and a later
	 * write to it, to whoever attaches one next). */
	bad = restore_writes(x);
	bad += teardown(x, p, r, &ve, false);
	if (bad == 0)
		journal_done(x);
	else if (rc == 0) {
		rc = -1;
		snprintf(msg, sizeof(msg), "teardown or restore failed");
	}
	if (rc == -EINTR)
		return VISIT_INTERRUPTED;
	if (rc == 0)
		return VISIT_OK;
	say(x, "clyde sweep: point %zu (%s) repeat %u failed: %s%s", p + 1,
	    label, r, msg, msg[0] && msg[strlen(msg) - 1] == '\n' ? "" : "\n");
	if (!x->first_failure[0])
		snprintf(x->first_failure, sizeof(x->first_failure),
			 "point %zu (%s) repeat %u", p + 1, label, r);
	/* A failure outside a workload marks the visit's remaining
	 * workloads failed, so that the point shows as failed. */
	for (size_t w = 0; w < x->s->nworkloads && rc == -1; w++) {
		if (*done_slot(x, p, r, w))
			continue;
		record_failure(x, p, r, w, msg);
		break; /* one row says it */
	}
	x->nfailed++;
	return VISIT_FAILED;
}

static void rm_tmpdir(const char *dir);

/* ---- resume: undo what a crashed visit left -------------------------------- */

static int undo_journal(struct sweep_exec *x)
{
	size_t len;
	char *text = slurp(x->journal, &len), *line, *save = NULL;
	struct saved_write *undo = NULL;
	size_t nundo = 0;
	long vp = -1;
	unsigned vr = 0;
	int bad = 0;

	if (!text)
		return 0;
	say(x, "clyde sweep: %s: undoing an interrupted visit\n", x->journal);
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
			reset_captured(x->s, false);
		} else if (!strcmp(line, "tmp")) {
			/* Only the files clyde puts there, then rmdir. */
			if (strstr(f1, "/clyde-sweep."))
				rm_tmpdir(f1);
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
		}
	}
	while (nundo > 0) {
		struct saved_write *u = &undo[--nundo];
		struct clyde_ctx c;

		clyde_ctx_init(&c);
		if (!writable_path(u->path) ||
		    write_value(&c, u->path, u->old) < 0) {
			say(x, "clyde sweep: restore %s: %s\n", u->path,
			    clyde_errmsg(&c));
			bad++;
		} else {
			say(x, "clyde sweep: restored %s = %s\n", u->path,
			    u->old);
		}
		clyde_ctx_release(&c);
	}
	if (vp >= 0 && (size_t)vp < x->s->npoints && vr >= 1) {
		struct visit_env ve;

		visit_env_init(x, (size_t)vp, vr, &ve);
		say(x,
		    "clyde sweep: running the teardown of point %ld repeat "
		    "%u\n",
		    vp + 1, vr);
		teardown(x, (size_t)vp, vr, &ve, true);
	}
	free(undo);
	free(text);
	if (bad == 0)
		unlink(x->journal);
	return bad ? -1 : 0;
}

/* ---- stability ------------------------------------------------------------- */

/* Stable: every metric of the point has a 95% CI within pct% of its
 * mean (at least two samples each). */
static bool point_stable(const struct clyde_exp *e, size_t p, double pct)
{
	const struct clyde_exp_point *pt = &e->points[p];
	bool any = false;

	if (pt->failed)
		return true; /* nothing more to learn */
	for (size_t m = 0; m < e->nmetrics; m++) {
		const struct clyde_exp_cell *c = &pt->cells[m];
		double mean, hw;

		if (c->n == 0)
			continue;
		if (c->n < 2)
			return false;
		mean = clyde_stats_mean(c->samples, c->n);
		hw = clyde_stats_ci_halfwidth(c->samples, c->n, 0.95);
		if (mean != 0 && hw / (mean < 0 ? -mean : mean) * 100 > pct)
			return false;
		any = true;
	}
	return any;
}

/* ---- the table ----------------------------------------------------------- */

/* The experiment table (report/exp_table.h): one row per point, one
 * column per metric, mean +- 95% CI, the best marked, significance
 * against it, the legend. */
static int sweep_print_table(FILE *f, const struct clyde_exp *e)
{
	char **said = NULL;
	size_t n = 0;
	int rc;

	fprintf(f, "experiment %s: %s\n", e->id, e->title);
	rc = clyde_exp_table_write(f, e, CLYDE_EXP_TEXT);
	if (rc < 0)
		return rc;
	/* The plain sentences (report/exp_analysis.h) where the data says
	 * something; none when it does not. */
	rc = clyde_exp_sentences(e, &said, &n);
	if (rc < 0)
		return rc;
	if (n)
		fputc('\n', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "- %s\n", said[i]);
	clyde_exp_sentences_free(said, n);
	return 0;
}

/* The default columns: every metric but a timed command's CPU seconds and
 * device rates (the bonnie++ and tree rates, the timed seconds). */
static bool default_metric(const char *key)
{
	static const char *const extra[] = { ".cpu", ".read_rate",
					     ".write_rate" };
	size_t n = strlen(key);

	if (strncmp(key, "time.", 5))
		return true;
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		size_t l = strlen(extra[i]);

		if (n > l && !strcmp(key + n - l, extra[i]))
			return false;
	}
	return true;
}

/* Keep the metrics asked for (NULL: the default ones; "all": every one). */
static int select_metrics(struct clyde_ctx *ctx, struct clyde_exp *e,
			  const char *metrics)
{
	char *keys;
	size_t len = 1;
	int rc;

	if (metrics && !strcmp(metrics, "all"))
		return 0;
	if (metrics)
		return clyde_exp_select(ctx, e, metrics);
	for (size_t m = 0; m < e->nmetrics; m++)
		len += strlen(e->metrics[m].key) + 1;
	keys = calloc(1, len);
	if (!keys)
		return clyde_err(ctx, ENOMEM, "experiment %s", e->id);
	for (size_t m = 0; m < e->nmetrics; m++) {
		if (!default_metric(e->metrics[m].key))
			continue;
		if (*keys)
			strcat(keys, ",");
		strcat(keys, e->metrics[m].key);
	}
	/* An experiment with nothing measured yet keeps its (no) columns. */
	rc = *keys ? clyde_exp_select(ctx, e, keys) : 0;
	free(keys);
	return rc;
}

static int show_table(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *id, const char *metrics, FILE *f)
{
	struct clyde_exp e;
	int rc;

	if (clyde_history_load_experiment(ctx, h, id, &e) < 0)
		return -1;
	if (select_metrics(ctx, &e, metrics) < 0) {
		clyde_exp_release(&e);
		return -1;
	}
	rc = sweep_print_table(f, &e);
	clyde_exp_release(&e);
	if (rc < 0)
		return clyde_err(ctx, -rc, "experiment %s: the table", id);
	return 0;
}

/* ---- the dry run ------------------------------------------------------------- */

static int dry_run(struct sweep_exec *x)
{
	const struct clyde_sweep *s = x->s;
	unsigned rounds = s->repeat;
	size_t *order = calloc(s->npoints, sizeof(size_t));
	FILE *f = x->out;
	char label[512];

	if (!order)
		return clyde_err(x->ctx, ENOMEM, "dry run");
	reset_captured(x->s, true);
	fprintf(f, "# experiment %s: %zu point%s x %u repeat%s, %s order\n",
		s->name, s->npoints, s->npoints == 1 ? "" : "s", rounds,
		rounds == 1 ? "" : "s",
		s->order == CLYDE_SWEEP_RANDOM ? "random" : "interleaved");
	if (s->until_stable > 0)
		fprintf(f,
			"# then more rounds, up to %u, for points whose 95%% "
			"CI is wider than %g%% of the mean\n",
			s->max_runs, s->until_stable);
	for (unsigned r = 1; r <= rounds; r++) {
		clyde_sweep_round_order(s, r - 1, order);
		for (size_t i = 0; i < s->npoints; i++) {
			size_t p = order[i];

			clyde_sweep_point_label(s, p, label, sizeof(label));
			fprintf(f, "\n# point %zu/%zu (%s), repeat %u\n", p + 1,
				s->npoints, label, r);
			for (size_t k = 0; k < s->nsetup; k++) {
				const struct clyde_sweep_step *st =
					&s->setup[k];
				char *t = expand(x, p, r, st->text, st->line);
				char *v = st->value ? expand(x, p, r, st->value,
							     st->line) :
						      NULL;

				if (!t || (st->value && !v)) {
					free(t);
					free(order);
					return -1;
				}
				if (st->kind == CLYDE_SWEEP_SET)
					fprintf(f, "set %s = %s\n", t, v);
				else if (st->kind == CLYDE_SWEEP_CAPTURE)
					fprintf(f, "capture <%s>: %s\n", v, t);
				else
					fprintf(f, "setup: %s\n", t);
				free(t);
				free(v);
			}
			for (size_t k = 0; k < s->nworkloads; k++) {
				const struct clyde_sweep_workload *w =
					&s->workloads[k];
				char *a = expand(x, p, r, w->args, w->line);
				const char *dt = w->device ? w->device :
							     w->path;
				char *d = dt ? expand(x, p, r, dt, w->line) :
					       NULL;

				if (!a || (dt && !d)) {
					free(a);
					free(order);
					return -1;
				}
				if (w->before) {
					char *b = expand(x, p, r, w->before,
							 w->line);

					if (!b) {
						free(a);
						free(d);
						free(order);
						return -1;
					}
					fprintf(f, "before %s: %s\n", w->name,
						b);
					free(b);
				}
				if (w->kind == CLYDE_SWEEP_TIME)
					fprintf(f, "time %s: %s%s%s%s\n",
						w->name, a,
						d ? "  (device counters of " :
						    "",
						d ? d : "", d ? ")" : "");
				else
					fprintf(f, "%s %s: clyde %s %s\n",
						clyde_sweep_wl_kind_name(
							w->kind),
						w->name,
						clyde_sweep_wl_kind_name(
							w->kind),
						a);
				free(a);
				free(d);
			}
			for (size_t k = s->nsetup; k-- > 0;)
				if (s->setup[k].kind == CLYDE_SWEEP_SET) {
					char *t = expand(x, p, r,
							 s->setup[k].text,
							 s->setup[k].line);

					fprintf(f, "restore %s\n", t ? t : "?");
					free(t);
				}
			for (size_t k = 0; k < s->nteardown; k++) {
				char *t = expand(x, p, r, s->teardown[k].text,
						 s->teardown[k].line);

				if (!t) {
					free(order);
					return -1;
				}
				fprintf(f, "teardown: %s\n", t);
				free(t);
			}
		}
	}
	free(order);
	return 0;
}

/* ---- the experiment ------------------------------------------------------- */

static int run_rounds(struct sweep_exec *x, bool *was_interrupted, bool *fatal)
{
	const struct clyde_sweep *s = x->s;
	size_t *order = calloc(s->npoints, sizeof(size_t));
	bool *stable = calloc(s->npoints + 1, sizeof(bool));
	int rc = 0;

	if (!order || !stable) {
		free(order);
		free(stable);
		return clyde_err(x->ctx, ENOMEM, "sweep");
	}
	for (unsigned r = 1; r <= x->rounds && rc == 0; r++) {
		if (s->until_stable > 0 && r > s->repeat) {
			struct clyde_exp e;
			bool all = true;

			if (clyde_history_load_experiment(x->ctx, x->h, x->id,
							  &e) < 0) {
				rc = -1;
				break;
			}
			for (size_t p = 0; p < s->npoints; p++) {
				stable[p] =
					point_stable(&e, p, s->until_stable);
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
				x->prog.visits_skipped++;
				continue;
			}
			if (interrupted()) {
				*was_interrupted = true;
				rc = -1;
				break;
			}
			vr = visit(x, p, r, fatal);
			x->prog.visits_done++;
			if (vr == VISIT_INTERRUPTED || interrupted()) {
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
	free(order);
	free(stable);
	return rc;
}

/* Mark what the history already holds as done (resume). */
static int load_done(struct sweep_exec *x)
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

/* Split stored defines ("A=1\nB=2") into a vector (pointing into text). */
static char **split_defines(char *text, size_t *n)
{
	char **v = calloc(strlen(text) / 2 + 2, sizeof(char *)), *save = NULL;

	*n = 0;
	if (!v)
		return NULL;
	for (char *t = strtok_r(text, "\n", &save); t;
	     t = strtok_r(NULL, "\n", &save))
		v[(*n)++] = t;
	return v;
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
static int create_record(struct sweep_exec *x, const char *text,
			 const struct sweep_cli *cli)
{
	const struct clyde_sweep *s = x->s;
	const char **vals = calloc(s->npoints * s->naxes + 1, sizeof(char *));
	char **axes = calloc(s->naxes + 1, sizeof(char *));
	char **wln = calloc(s->nworkloads + 1, sizeof(char *));
	const char **wlk = calloc(s->nworkloads + 1, sizeof(char *));
	char *defs = join_defines(cli->defines, cli->ndefines);
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
		ne.file = cli->file;
		ne.text = text;
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
 * The `metrics =` of a stored experiment's file (malloc'ed), or NULL:
 * none, or the file cannot be read back (the table then shows the default
 * columns, and --show says what is wrong with the id itself).
 */
static char *file_metrics(struct clyde_history *h, const char *id)
{
	struct clyde_exp_info info;
	struct clyde_sweep s;
	struct clyde_ctx quiet;
	char **defs = NULL, *out = NULL;
	size_t nd = 0;

	clyde_ctx_init(&quiet);
	memset(&info, 0, sizeof(info));
	if (clyde_exp_store_get(&quiet, h, id, &info) == 0 &&
	    (defs = split_defines(info.defines, &nd)) != NULL &&
	    clyde_sweep_parse(&quiet, info.file, info.text, strlen(info.text),
			      defs, nd, &s) == 0) {
		out = s.metrics;
		s.metrics = NULL;
		clyde_sweep_release(&s);
	}
	free(defs);
	clyde_exp_info_release(&info);
	clyde_ctx_release(&quiet);
	return out;
}

static int open_history(struct clyde_ctx *ctx, const char *db, bool create,
			struct clyde_history **h)
{
	if (clyde_history_open(ctx, db, create, h) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return -1;
	}
	return 0;
}

static int list_experiments(struct clyde_ctx *ctx, struct clyde_history *h)
{
	struct clyde_exp_info *v;
	size_t n;

	if (clyde_exp_store_list(ctx, h, &v, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		printf("%-40s %-9s %s\n", v[i].id, v[i].state, v[i].file);
		clyde_exp_info_release(&v[i]);
	}
	free(v);
	return 0;
}

/* -D/--define NAME=VALUE, repeatable: appended to c->defines (argc + 1
 * slots, so it cannot overflow). */
static int opt_define(void *base, const struct clyde_opt *o, const char *name,
		      const char *arg, char *err, size_t len)
{
	struct sweep_cli *c = base;

	(void)o;
	(void)name;
	(void)err;
	(void)len;
	c->defines[c->ndefines++] = (char *)arg;
	return 0;
}

#define SWEEP_FIELD(M) CLYDE_OPT_FIELD(struct sweep_cli, M)

/*
 * The options of `clyde sweep`, one entry each (cli/optmodel.h).  -D and
 * -n, the old spellings of --define and --dry-run, are still accepted but
 * not shown: in clyde run they are bonnie++'s O_DIRECT and file count.
 * To add an option: a field in struct sweep_cli, an entry here, a line in
 * docs/clyde.1 (SWEEPS).
 */
static const struct clyde_opt sweep_table[] = {
	{ .name = "dry-run",
	  .type = CLYDE_OPT_FLAG,
	  SWEEP_FIELD(dry_run),
	  .help = "print every command and write, run nothing" },
	{ .short_name = 'n',
	  .type = CLYDE_OPT_FLAG,
	  SWEEP_FIELD(dry_run),
	  .hidden = true,
	  .help = "old spelling of --dry-run" },
	{ .name = "define",
	  .type = CLYDE_OPT_CALL,
	  .arg = "NAME=VAL",
	  .call = opt_define,
	  .help = "set a [vars] variable (repeatable)" },
	{ .short_name = 'D',
	  .type = CLYDE_OPT_CALL,
	  .arg = "NAME=VAL",
	  .call = opt_define,
	  .hidden = true,
	  .help = "old spelling of --define" },
	{ .short_name = 'k',
	  .name = "keep-going",
	  .type = CLYDE_OPT_FLAG,
	  SWEEP_FIELD(keep_going),
	  .help = "go on with the next point after a failure" },
	{ .name = "resume",
	  .type = CLYDE_OPT_STRING,
	  .arg = "ID",
	  SWEEP_FIELD(resume),
	  .kind = "experiment id",
	  .help = "continue an interrupted experiment" },
	{ .name = "show",
	  .type = CLYDE_OPT_STRING,
	  .arg = "ID",
	  SWEEP_FIELD(show),
	  .kind = "experiment id",
	  .help = "print the table of a stored experiment" },
	{ .name = "list",
	  .type = CLYDE_OPT_FLAG,
	  SWEEP_FIELD(list),
	  .help = "list the stored experiments" },
	{ .name = "metrics",
	  .type = CLYDE_OPT_STRING,
	  .arg = "KEY,...",
	  SWEEP_FIELD(metrics),
	  .kind = "metric list",
	  .help = "the table's columns (all: every metric; default: rates "
		  "and timed seconds)" },
	{ .name = "db",
	  .type = CLYDE_OPT_STRING,
	  .arg = "PATH",
	  SWEEP_FIELD(db),
	  .kind = "path",
	  .help = "results history (default under XDG_DATA_HOME)" },
	{ .short_name = 'q',
	  .name = "quiet",
	  .type = CLYDE_OPT_FLAG,
	  SWEEP_FIELD(quiet),
	  .help = "no progress line" },
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .help = "this help" },
};

static const struct clyde_optset sweep_set = {
	.prog = "clyde sweep",
	.opts = sweep_table,
	.nopts = sizeof(sweep_table) / sizeof(sweep_table[0]),
	.max_operands = 1,
};

static void print_usage(void)
{
	fputs("usage: clyde sweep [options] FILE\n"
	      "       clyde sweep --resume ID [--db PATH] [-k] [-q]\n"
	      "       clyde sweep --show ID | --list [--db PATH]\n"
	      "\n"
	      "Run an experiment: for every point of its axes (and every "
	      "repeat,\n"
	      "interleaved), run the setup commands and sysfs/proc writes, "
	      "the\n"
	      "workloads (clyde run, clyde tree, timed commands), the "
	      "teardown;\n"
	      "save each run in the results history; print a table at the "
	      "end.\n"
	      "\n",
	      stdout);
	clyde_opt_help(&sweep_set, NULL, stdout);
	fputs("\n"
	      "Exit status: 0 ok, 1 invalid file or option, 3 a point "
	      "failed,\n"
	      "5 interrupted (resume with --resume ID).  See docs/sweep.md.\n",
	      stdout);
}

static int parse_cli(int argc, char **argv, struct sweep_cli *c)
{
	const char *file[1] = { NULL };
	char err[512];
	int rc, nfile = 0;

	memset(c, 0, sizeof(*c));
	c->defines = calloc((size_t)argc + 1, sizeof(char *));
	if (!c->defines)
		return -1;
	rc = clyde_opt_parse(&sweep_set, argc, argv, c, file, &nfile, err,
			     sizeof(err));
	if (rc == CLYDE_OPT_STOP_HELP) {
		print_usage();
		return 1;
	}
	if (rc != CLYDE_OPT_PARSED) {
		fprintf(stderr, "clyde sweep: %s\n", err);
		return -1;
	}
	c->file = nfile ? file[0] : NULL;
	if (!!c->file + !!c->resume + !!c->show + c->list != 1) {
		fprintf(stderr,
			"clyde sweep: name one of FILE, --resume ID, --show ID "
			"or --list; see clyde sweep --help\n");
		return -1;
	}
	if (c->resume && c->ndefines) {
		fprintf(stderr,
			"clyde sweep: --define with --resume: the "
			"experiment keeps the defines it started with\n");
		return -1;
	}
	if (c->dry_run && !c->file) {
		fprintf(stderr, "clyde sweep: --dry-run takes a FILE\n");
		return -1;
	}
	return 0;
}

/* The journal's path: beside the history database. */
static void journal_path(struct sweep_exec *x)
{
	const char *db = clyde_history_path(x->h);
	const char *slash = strrchr(db, '/');

	if (slash)
		snprintf(x->journal, sizeof(x->journal),
			 "%.*s/sweep-%s.journal", (int)(slash - db), db, x->id);
	else
		snprintf(x->journal, sizeof(x->journal), "sweep-%s.journal",
			 x->id);
}

static void rm_tmpdir(const char *dir)
{
	static const char *const files[] = { "result.json", "output.log",
					     "setup.log", "teardown.log",
					     "capture.out" };
	char p[PATH_MAX + 32];

	if (!dir[0])
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		unlink(p);
	}
	rmdir(dir);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static int execute(struct clyde_ctx *ctx, struct sweep_cli *cli,
		   struct clyde_sweep *s, struct clyde_history *h,
		   const char *text, const char *resume_id)
{
	struct sweep_exec x;
	const char *tmp = getenv("TMPDIR");
	bool was_interrupted = false, fatal = false;
	struct sigaction sa;
	ssize_t n;
	int status = CLYDE_EXIT_OK, rc;

	memset(&x, 0, sizeof(x));
	x.ctx = ctx;
	x.s = s;
	x.h = h;
	x.jfd = -1;
	x.keep_going = cli->keep_going || s->keep_going;
	x.rounds = clyde_sweep_max_rounds(s);
	n = readlink("/proc/self/exe", x.exe, sizeof(x.exe) - 1);
	if (n <= 0) {
		fprintf(stderr, "clyde sweep: /proc/self/exe: %s\n",
			strerror(errno));
		return CLYDE_EXIT_USAGE;
	}
	x.exe[n] = '\0';
	/* An alarm wakes wait4 to enforce the kill deadline. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);

	x.done = calloc(s->npoints * x.rounds * s->nworkloads + 1, 1);
	snprintf(x.tmpdir, sizeof(x.tmpdir), "%s/clyde-sweep.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!x.done || !mkdtemp(x.tmpdir)) {
		fprintf(stderr, "clyde sweep: %s: %s\n", x.tmpdir,
			strerror(errno));
		free(x.done);
		return CLYDE_EXIT_TEST_FAILED;
	}
	if (resume_id) {
		x.id = strdup(resume_id);
	} else if (create_record(&x, text, cli) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		rm_tmpdir(x.tmpdir);
		free(x.done);
		return CLYDE_EXIT_TEST_FAILED;
	}
	journal_path(&x);
	if (resume_id) {
		if (undo_journal(&x) < 0) {
			fprintf(stderr,
				"clyde sweep: %s: could not undo everything; "
				"fix it by hand, then remove that file\n",
				x.journal);
			status = CLYDE_EXIT_TEST_FAILED;
			goto out;
		}
		if (load_done(&x) < 0) {
			fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
			status = CLYDE_EXIT_TEST_FAILED;
			goto out;
		}
	}
	fprintf(stderr, "clyde sweep: experiment %s (%zu points, %u %s)\n",
		x.id, s->npoints, x.rounds,
		s->until_stable > 0 ? "rounds at most" : "repeats");
	clyde_exp_store_set_state(ctx, h, x.id, "running");
	clyde_err_clear(ctx);

	x.prog.ctx = ctx;
	x.prog.s = s;
	x.prog.start_ns = clyde_now(ctx);
	x.prog.visits_total = s->npoints * x.rounds;
	x.prog.npoints = s->npoints;
	x.prog.nrepeats = x.rounds;
	if (!cli->quiet && isatty(2)) {
		pthread_mutex_init(&x.prog.lock, NULL);
		if (pthread_create(&x.prog.thread, NULL, progress_main,
				   &x.prog) == 0)
			x.prog.running = true;
		else
			pthread_mutex_destroy(&x.prog.lock);
	}
	rc = run_rounds(&x, &was_interrupted, &fatal);
	progress_stop(&x.prog);
	if (rc < 0 && !was_interrupted && clyde_errmsg(ctx)[0])
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
	clyde_err_clear(ctx);
	if (was_interrupted) {
		status = CLYDE_EXIT_INTERRUPTED;
		clyde_exp_store_set_state(ctx, h, x.id, "stopped");
		fprintf(stderr,
			"clyde sweep: interrupted; torn down and restored.  "
			"Continue with: clyde sweep --resume %s%s%s\n",
			x.id, cli->db ? " --db " : "", cli->db ? cli->db : "");
	} else if (rc < 0 || x.nfailed) {
		status = CLYDE_EXIT_TEST_FAILED;
		clyde_exp_store_set_state(ctx, h, x.id,
					  rc < 0 ? "failed" : "finished");
		if (rc < 0)
			fprintf(stderr,
				"clyde sweep: stopped after the failure of %s "
				"(-k goes on); continue with: clyde sweep "
				"--resume %s\n",
				x.first_failure[0] ? x.first_failure : "a step",
				x.id);
	} else {
		clyde_exp_store_set_state(ctx, h, x.id, "finished");
	}
	clyde_err_clear(ctx);
	if (show_table(ctx, h, x.id, cli->metrics ? cli->metrics : s->metrics,
		       stdout) < 0) {
		/* The runs are saved (--show ID --metrics ... prints them);
		 * a table that was not printed is still a failure. */
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		if (status == CLYDE_EXIT_OK)
			status = CLYDE_EXIT_USAGE;
	}
out:
	if (x.jfd >= 0)
		close(x.jfd);
	rm_tmpdir(x.tmpdir);
	free(x.writes);
	free(x.done);
	free(x.id);
	return status;
}

int clyde_cmd_sweep(int argc, char **argv)
{
	struct sweep_cli cli;
	struct clyde_ctx ctx;
	struct clyde_sweep s;
	struct clyde_history *h = NULL;
	struct clyde_exp_info info;
	char *text = NULL, **defs = NULL;
	size_t len = 0;
	int status = CLYDE_EXIT_OK, rc;

	rc = parse_cli(argc, argv, &cli);
	if (rc != 0) {
		free(cli.defines);
		return rc > 0 ? CLYDE_EXIT_OK : CLYDE_EXIT_USAGE;
	}
	clyde_ctx_init(&ctx);
	ctx.interrupted = clyde_cli_catch_signals();
	memset(&info, 0, sizeof(info));
	memset(&s, 0, sizeof(s));

	if (cli.list || cli.show) {
		if (open_history(&ctx, cli.db, false, &h) < 0) {
			status = CLYDE_EXIT_USAGE;
		} else if (cli.list) {
			if (list_experiments(&ctx, h) < 0) {
				fprintf(stderr, "clyde sweep: %s\n",
					clyde_errmsg(&ctx));
				status = CLYDE_EXIT_USAGE;
			}
		} else {
			char *fm = cli.metrics ? NULL :
						 file_metrics(h, cli.show);

			if (show_table(&ctx, h, cli.show,
				       cli.metrics ? cli.metrics : fm,
				       stdout) < 0) {
				fprintf(stderr, "clyde sweep: %s\n",
					clyde_errmsg(&ctx));
				status = CLYDE_EXIT_USAGE;
			}
			free(fm);
		}
		goto out;
	}
	if (cli.resume) {
		size_t nd = 0;

		if (open_history(&ctx, cli.db, false, &h) < 0) {
			status = CLYDE_EXIT_USAGE;
			goto out;
		}
		if (clyde_exp_store_get(&ctx, h, cli.resume, &info) < 0) {
			fprintf(stderr, "clyde sweep: %s\n",
				clyde_errmsg(&ctx));
			status = CLYDE_EXIT_USAGE;
			goto out;
		}
		defs = split_defines(info.defines, &nd);
		cli.file = info.file;
		rc = defs ? clyde_sweep_parse(&ctx, info.file, info.text,
					      strlen(info.text), defs, nd, &s) :
			    -ENOMEM;
		if (rc < 0) {
			fprintf(stderr, "clyde sweep: %s\n",
				clyde_errmsg(&ctx));
			status = CLYDE_EXIT_USAGE;
			goto out;
		}
		status = execute(&ctx, &cli, &s, h, info.text, info.id);
		goto out;
	}
	if (check_experiment_file(cli.file) < 0) {
		status = CLYDE_EXIT_USAGE;
		goto out;
	}
	text = slurp(cli.file, &len);
	if (!text) {
		fprintf(stderr, "clyde sweep: %s: %s\n", cli.file,
			strerror(errno ? errno : EIO));
		status = CLYDE_EXIT_USAGE;
		goto out;
	}
	rc = clyde_sweep_parse(&ctx, cli.file, text, len, cli.defines,
			       cli.ndefines, &s);
	if (rc < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(&ctx));
		status = CLYDE_EXIT_USAGE;
		goto out;
	}
	if (check_metric_keys(&s, s.metrics, cli.file, "metrics =") < 0 ||
	    check_metric_keys(&s, cli.metrics, NULL, "--metrics") < 0 ||
	    check_run_options(&ctx, &s) < 0) {
		status = CLYDE_EXIT_USAGE;
		goto out;
	}
	if (cli.dry_run) {
		struct sweep_exec x;

		memset(&x, 0, sizeof(x));
		x.ctx = &ctx;
		x.s = &s;
		x.out = stdout;
		x.dry = true;
		if (dry_run(&x) < 0) {
			fprintf(stderr, "clyde sweep: %s\n",
				clyde_errmsg(&ctx));
			status = CLYDE_EXIT_USAGE;
		}
		goto out;
	}
	if (open_history(&ctx, cli.db, true, &h) < 0) {
		status = CLYDE_EXIT_USAGE;
		goto out;
	}
	status = execute(&ctx, &cli, &s, h, text, NULL);
out:
	clyde_sweep_release(&s);
	clyde_history_close(h);
	clyde_exp_info_release(&info);
	free(defs);
	free(text);
	free(cli.defines);
	clyde_ctx_release(&ctx);
	return status;
}
