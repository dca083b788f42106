/*
 * `clyde sweep FILE`: run an experiment (docs/sweep.md).  This file parses
 * the command line and prints: the progress line, the messages, the dry
 * run and the table.  The plan comes from exp/plan.h, the checks before
 * the first visit and the run itself from the experiment engine
 * (exp/exp.h), which gets the options parsers of run and tree from here.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/optmodel.h"
#include "cli/opts.h"
#include "core/vis.h"
#include "exp/exp.h"
#include "exp/plan.h"
#include "analysis/exp_analysis.h"
#include "analysis/exp_load.h"
#include "store/exp_store.h"
#include "report/exp_table.h"
#include "analysis/experiment.h"
#include "store/history.h"

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

/*
 * Check the options of a run or tree workload with that command's own
 * parser, running nothing.  Returns 0 (with *dir, when dir is not NULL,
 * the directory its scratch directory goes in, resolved, malloc'ed, or
 * NULL), 1 when the options need the shell (quotes, variables) and cannot
 * be checked, or -1 with the message in err.
 */
static int check_wl_args(enum clyde_sweep_wl_kind kind, const char *args,
			 char **dir, char *err, size_t len)
{
	const char *d = NULL;
	wordexp_t we;
	char **argv;
	int rc = 0;

	if (dir)
		*dir = NULL;
	if (kind == CLYDE_SWEEP_TIME)
		return 1;
	if (wordexp(args, &we, WRDE_NOCMD | WRDE_UNDEF) != 0)
		return 1;
	/* argv[0] is the program name. */
	argv = calloc(we.we_wordc + 2, sizeof(*argv));
	if (!argv) {
		wordfree(&we);
		return 1;
	}
	argv[0] = (char *)"clyde";
	for (size_t i = 0; i < we.we_wordc; i++)
		argv[i + 1] = we.we_wordv[i];
	if (kind == CLYDE_SWEEP_RUN) {
		struct clyde_bonnie_config cfg;
		struct clyde_cli_extra extra;

		if (clyde_opts_parse((int)we.we_wordc + 1, argv, &cfg, &extra,
				     err, len) == CLYDE_OPTS_ERROR)
			rc = -1;
		else
			d = cfg.dir ? cfg.dir : ".";
	} else if (clyde_tree_check_args((int)we.we_wordc + 1, argv, &d, err,
					 len) < 0) {
		rc = -1;
	}
	if (rc == 0 && dir && d) {
		char real[PATH_MAX];

		/* The journal holds it on one line between tabs. */
		if (realpath(d, real) && !strpbrk(real, "\t\n"))
			*dir = strdup(real);
	}
	free(argv);
	wordfree(&we);
	return rc;
}

static int check_run(const char *args, char **dir, char *err, size_t len)
{
	return check_wl_args(CLYDE_SWEEP_RUN, args, dir, err, len);
}

static int check_tree(const char *args, char **dir, char *err, size_t len)
{
	return check_wl_args(CLYDE_SWEEP_TREE, args, dir, err, len);
}

/* The engine's workload kinds, with clyde run's and clyde tree's own
 * parsers to check their options. */
struct sweep_ops {
	struct clyde_exp_wl_ops kinds[CLYDE_SWEEP_KINDS];
	const struct clyde_exp_wl_ops *v[CLYDE_SWEEP_KINDS];
};

static void sweep_ops_init(struct sweep_ops *o)
{
	for (int k = 0; k < CLYDE_SWEEP_KINDS; k++) {
		o->kinds[k] =
			*clyde_exp_wl_builtin((enum clyde_sweep_wl_kind)k);
		o->v[k] = &o->kinds[k];
	}
	o->kinds[CLYDE_SWEEP_RUN].check = check_run;
	o->kinds[CLYDE_SWEEP_TREE].check = check_tree;
}

/*
 * The metric keys can only be checked against the results once the runs
 * exist; their workload part is checked now, before anything runs, so a
 * mistyped key is not found after an hour of runs.  A key is
 * WORKLOAD.TEST for run, tree and fio, time.WORKLOAD[.SUFFIX] for timed
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
			"(WORKLOAD.TEST for run, tree and fio, time.WORKLOAD "
			"for timed commands, or all)\n",
			where ? where : "", where ? ": " : "", what, (int)l, k);
		return -1;
	}
	return 0;
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
	char e[32], eta[48] = "", vl[256], vw[512];
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
	/* The point's values and the step come from the file: escaped. */
	fprintf(stderr, "\r\033[Kpoint %zu/%zu (%s), repeat %u/%u: %s, %s%s",
		p->point, p->npoints, clyde_vis(vl, sizeof(vl), p->label, 0),
		p->repeat, p->nrepeats, clyde_vis(vw, sizeof(vw), p->what, 0),
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

/* The engine's messages: one line each, under the progress line's lock so
 * that it is not redrawn in between. */
static void on_say(void *arg, const char *msg)
{
	struct sweep_progress *p = arg;

	if (p->running) {
		pthread_mutex_lock(&p->lock);
		if (p->shown) {
			fputs("\r\033[K", stderr);
			p->shown = false;
		}
	}
	fprintf(stderr, "clyde sweep: %s\n", msg);
	if (p->running)
		pthread_mutex_unlock(&p->lock);
}

static void on_progress(void *arg, size_t point, unsigned repeat,
			const char *what)
{
	progress_set(arg, point, repeat, "%s", what);
}

static void on_visit(void *arg, bool skipped)
{
	struct sweep_progress *p = arg;

	if (p->running)
		pthread_mutex_lock(&p->lock);
	if (skipped)
		p->visits_skipped++;
	else
		p->visits_done++;
	if (p->running)
		pthread_mutex_unlock(&p->lock);
}

/* ---- the table ----------------------------------------------------------- */

/* The experiment table (report/exp_table.h): one row per point, one
 * column per metric, mean +- 95% CI, the best marked, significance
 * against it, the legend. */
static int sweep_write_table(FILE *f, const struct clyde_exp *e)
{
	char **said = NULL;
	size_t n = 0;
	int rc;

	fprintf(f, "experiment %s: %s\n", e->id, e->title);
	rc = clyde_exp_table_write(f, e, CLYDE_EXP_TEXT);
	if (rc < 0)
		return rc;
	/* The plain sentences (analysis/exp_analysis.h) where the data says
	 * something; none when it does not. */
	rc = clyde_exp_sentences(e, &said, &n);
	if (rc < 0)
		return rc;
	if (n)
		fputc('\n', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "- %s\n", said[i]);
	clyde_exp_sentences_free(said, n);
	if (e->ndeleted)
		fprintf(f,
			"\n%zu sample%s deleted from the history (clyde "
			"history delete): the table has fewer; clyde sweep "
			"--resume %s measures %s again\n",
			e->ndeleted, e->ndeleted == 1 ? " was" : "s were",
			e->id, e->ndeleted == 1 ? "it" : "them");
	return 0;
}

/* The table printed on f with every control character but the line ends
 * escaped (core/vis.h): its title, points and workload names come from
 * the file and --define, and must not reach the terminal as escapes. */
static int sweep_print_table(FILE *f, const struct clyde_exp *e)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	rc = sweep_write_table(m, e);
	if (fclose(m) && !rc)
		rc = -ENOMEM;
	if (!rc && text && clyde_vis_fputs(text, f, 1) == EOF)
		rc = -EIO;
	free(text);
	return rc;
}

static int show_table(struct clyde_ctx *ctx, struct clyde_history *h,
		      const char *id, const char *metrics, FILE *f)
{
	struct clyde_exp e;
	int rc;

	if (clyde_history_load_experiment(ctx, h, id, &e) < 0)
		return -1;
	if (clyde_exp_select_columns(ctx, &e, metrics) < 0) {
		clyde_exp_release(&e);
		return -1;
	}
	rc = sweep_print_table(f, &e);
	clyde_exp_release(&e);
	if (rc < 0)
		return clyde_err(ctx, -rc, "experiment %s: the table", id);
	return 0;
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

	if (clyde_exp_list(ctx, h, &v, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char vid[256], vf[PATH_MAX + 64];

		printf("%-40s %-9s %s\n",
		       clyde_vis(vid, sizeof(vid), v[i].id, 0), v[i].state,
		       clyde_vis(vf, sizeof(vf), v[i].file, 0));
		clyde_exp_info_release(&v[i]);
	}
	free(v);
	return 0;
}

/* --define NAME=VALUE, repeatable: appended to c->defines (argc + 1
 * slots, so it cannot overflow). */
static int opt_define(void *base, const struct clyde_opt *o, const char *name,
		      const char *arg, char *err, size_t len)
{
	struct sweep_cli *c = base;

	(void)o;
	for (const char *p = arg; *p; p++)
		/* It becomes a point's label, a command, a line of the
		 * table: a newline or an escape would forge one. */
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			char vis[128];

			snprintf(err, len,
				 "%s: \"%s\" contains a control character; "
				 "use printable characters",
				 name, clyde_vis(vis, sizeof(vis), arg, 0));
			return -1;
		}
	c->defines[c->ndefines++] = (char *)arg;
	return 0;
}

#define SWEEP_FIELD(M) CLYDE_OPT_FIELD(struct sweep_cli, M)

/*
 * The options of `clyde sweep`, one entry each (cli/optmodel.h).  Sweep's
 * own options are long: -D and -n are bonnie++'s O_DIRECT and file count
 * in clyde run, so here they are refused with a line that says so.  To
 * add an option: a field in struct sweep_cli, an entry here, a line in
 * docs/clyde.1 (SWEEPS).
 */
static const struct clyde_opt sweep_table[] = {
	{ .name = "dry-run",
	  .type = CLYDE_OPT_FLAG,
	  SWEEP_FIELD(dry_run),
	  .help = "print every command and write, run nothing" },
	{ .short_name = 'n',
	  .type = CLYDE_OPT_REFUSE,
	  .help = "not a clyde sweep option (in clyde run it is bonnie++'s "
		  "file count); use --dry-run" },
	{ .name = "define",
	  .type = CLYDE_OPT_CALL,
	  .arg = "NAME=VAL",
	  .call = opt_define,
	  .help = "set a [vars] variable (repeatable)" },
	{ .short_name = 'D',
	  .type = CLYDE_OPT_REFUSE,
	  .help = "not a clyde sweep option (in clyde run it is bonnie++'s "
		  "O_DIRECT); use --define NAME=VALUE" },
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
	      "workloads (clyde run, clyde tree, timed commands, fio), the\n"
	      "teardown; save each run in the results history; print a table "
	      "at\n"
	      "the end.\n"
	      "\n",
	      stdout);
	clyde_opt_help(&sweep_set, NULL, stdout);
	fputs("\n"
	      "No -D or -n: in clyde run they are bonnie++'s O_DIRECT and file\n"
	      "count, so sweep's are --define and --dry-run.\n"
	      "\n"
	      "Exit status: 0 ok, 1 invalid file or option (or a path another\n"
	      "sweep holds), 3 a point failed, 5 interrupted (resume with\n"
	      "--resume ID).  See docs/sweep.md.\n",
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

/* --dry-run: the listing, its commands and values escaped (core/vis.h)
 * as the table is.  Returns the exit status. */
static int dry_run(struct clyde_ctx *ctx, struct clyde_sweep *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m) {
		fprintf(stderr, "clyde sweep: out of memory\n");
		return CLYDE_EXIT_USAGE;
	}
	rc = clyde_sweep_dry_run(ctx, s, m);
	fclose(m);
	if (rc < 0) {
		char vis[1024];

		fprintf(stderr, "clyde sweep: %s\n",
			clyde_vis(vis, sizeof(vis), clyde_errmsg(ctx), 0));
		free(text);
		return CLYDE_EXIT_USAGE;
	}
	if (text)
		clyde_vis_fputs(text, stdout, 1);
	free(text);
	return CLYDE_EXIT_OK;
}

/* The engine's settings for this command line. */
static void sweep_config(const struct sweep_cli *cli, struct sweep_ops *ops,
			 struct clyde_exp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	sweep_ops_init(ops);
	cfg->tmp_parent = getenv("TMPDIR");
	cfg->file = cli->file;
	cfg->defines = cli->defines;
	cfg->ndefines = cli->ndefines;
	cfg->keep_going = cli->keep_going;
	cfg->ops = ops->v;
}

/* The checks before the first visit (exp/exp.h); 0, or -1 after one
 * line. */
static int check_plan(struct clyde_ctx *ctx, const struct sweep_cli *cli,
		      struct clyde_sweep *s)
{
	struct clyde_exp_config cfg;
	struct sweep_ops ops;

	sweep_config(cli, &ops, &cfg);
	if (clyde_exp_check(ctx, s, &cfg) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return -1;
	}
	return 0;
}

/* The work directory can be made ($TMPDIR): before the history is
 * opened or made.  0, or -1 after one line. */
static int check_tmp(struct clyde_ctx *ctx, const struct sweep_cli *cli)
{
	struct clyde_exp_config cfg;
	struct sweep_ops ops;

	sweep_config(cli, &ops, &cfg);
	if (clyde_exp_check_tmp(ctx, &cfg) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return -1;
	}
	return 0;
}

/* Run (or resume) the experiment, say how it ended, print its table. */
static int execute(struct clyde_ctx *ctx, struct sweep_cli *cli,
		   struct clyde_sweep *s, struct clyde_history *h,
		   const char *text, const char *resume_id)
{
	struct clyde_exp_config cfg;
	struct clyde_exp_outcome out;
	struct sweep_progress prog;
	struct sweep_ops ops;
	char exe[PATH_MAX];
	ssize_t n;
	int status = CLYDE_EXIT_OK;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		fprintf(stderr, "clyde sweep: /proc/self/exe: %s\n",
			strerror(errno));
		return CLYDE_EXIT_USAGE;
	}
	exe[n] = '\0';
	sweep_config(cli, &ops, &cfg);
	cfg.exe = exe;
	cfg.text = text;
	cfg.resume_id = resume_id;
	memset(&prog, 0, sizeof(prog));
	prog.ctx = ctx;
	prog.s = s;
	prog.start_ns = clyde_now(ctx);
	prog.visits_total = s->npoints * clyde_sweep_max_rounds(s);
	prog.npoints = s->npoints;
	prog.nrepeats = clyde_sweep_max_rounds(s);
	cfg.hooks = (struct clyde_exp_hooks){ .arg = &prog,
					      .say = on_say,
					      .progress = on_progress,
					      .visit_counted = on_visit };
	if (!cli->quiet && isatty(2)) {
		pthread_mutex_init(&prog.lock, NULL);
		if (pthread_create(&prog.thread, NULL, progress_main, &prog) ==
		    0)
			prog.running = true;
		else
			pthread_mutex_destroy(&prog.lock);
	}
	if (clyde_exp_execute(ctx, s, h, &cfg, &out) < 0) {
		progress_stop(&prog);
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		free(out.id);
		return out.refused_usage ? CLYDE_EXIT_USAGE :
					   CLYDE_EXIT_TEST_FAILED;
	}
	progress_stop(&prog);
	switch (out.end) {
	case CLYDE_EXP_INTERRUPTED:
		status = CLYDE_EXIT_INTERRUPTED;
		fprintf(stderr,
			"clyde sweep: interrupted; torn down and restored.  "
			"Continue with: clyde sweep --resume %s%s%s\n",
			out.id, cli->db ? " --db " : "",
			cli->db ? cli->db : "");
		break;
	case CLYDE_EXP_STOPPED:
		status = CLYDE_EXIT_TEST_FAILED;
		fprintf(stderr,
			"clyde sweep: stopped after the failure of %s "
			"(-k goes on); continue with: clyde sweep "
			"--resume %s%s%s\n",
			out.first_failure[0] ? out.first_failure : "a step",
			out.id, cli->db ? " --db " : "",
			cli->db ? cli->db : "");
		break;
	case CLYDE_EXP_DONE:
	case CLYDE_EXP_REFUSED:
		if (out.nfailed)
			status = CLYDE_EXIT_TEST_FAILED;
		break;
	}
	if (show_table(ctx, h, out.id, cli->metrics ? cli->metrics : s->metrics,
		       stdout) < 0) {
		/* The runs are saved (--show ID --metrics ... prints them);
		 * a table that was not printed is still a failure. */
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		if (status == CLYDE_EXIT_OK)
			status = CLYDE_EXIT_USAGE;
	}
	free(out.id);
	return status;
}

int clyde_cmd_sweep(int argc, char **argv)
{
	struct sweep_cli cli;
	struct clyde_ctx ctx;
	struct clyde_sweep s;
	struct clyde_history *h = NULL;
	struct clyde_exp_info info;
	char *text = NULL;
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
		/* Reading only, as `clyde history list`: a read-only history
		 * can be listed and shown. */
		if (clyde_history_open_readonly(&ctx, cli.db, &h) < 0) {
			fprintf(stderr, "clyde sweep: %s\n",
				clyde_errmsg(&ctx));
			status = CLYDE_EXIT_USAGE;
		} else if (cli.list) {
			if (list_experiments(&ctx, h) < 0) {
				fprintf(stderr, "clyde sweep: %s\n",
					clyde_errmsg(&ctx));
				status = CLYDE_EXIT_USAGE;
			}
		} else {
			char *fm =
				cli.metrics ?
					NULL :
					clyde_sweep_stored_metrics(h, cli.show);

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
	if (!cli.dry_run && check_tmp(&ctx, &cli) < 0) {
		status = CLYDE_EXIT_USAGE;
		goto out;
	}
	if (cli.resume) {
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
		cli.file = info.file;
		rc = clyde_sweep_parse_stored(&ctx, &info, &s);
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
	text = clyde_exp_slurp(cli.file, &len);
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
	    check_plan(&ctx, &cli, &s) < 0) {
		status = CLYDE_EXIT_USAGE;
		goto out;
	}
	if (cli.dry_run) {
		status = dry_run(&ctx, &s);
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
	free(text);
	free(cli.defines);
	clyde_ctx_release(&ctx);
	return status;
}
