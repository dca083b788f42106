/*
 * `clyde sweep FILE`: run an experiment (docs/sweep.md).  This file parses
 * the command line and calls; cmd_sweep_check.c checks what it can before
 * anything runs, cmd_sweep_show.c prints (the progress line, the
 * messages, the table).  The plan comes from exp/plan.h, the checks before
 * the first visit and the run itself from the experiment engine
 * (exp/exp.h), which gets the options parsers of run and tree from here.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/cmd_sweep.h"
#include "cli/commands.h"
#include "cli/optmodel.h"
#include "cli/opts.h"
#include "cli/progress.h"
#include "core/vis.h"
#include "exp/exp.h"
#include "exp/plan.h"
#include "analysis/exp_analysis.h"
#include "analysis/exp_load.h"
#include "store/exp_store.h"
#include "report/exp_table.h"
#include "analysis/experiment.h"
#include "store/history.h"

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
	CLYDE_CLI_OPT_DB(0, "results history (default under XDG_DATA_HOME)",
			 SWEEP_FIELD(db)),
	CLYDE_CLI_OPT_QUIET(0, "no progress line", SWEEP_FIELD(quiet)),
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
	      "workloads (clyde run, clyde tree, clyde dev, timed commands,\n"
	      "fio), the teardown; save each run in the results history; "
	      "print\n"
	      "a table at the end.\n"
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
	clyde_sweep_cli_ops_init(ops);
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

/* Say how the experiment ended (out); returns the exit status. */
static int say_end(const struct sweep_cli *cli,
		   const struct clyde_exp_outcome *out)
{
	switch (out->end) {
	case CLYDE_EXP_INTERRUPTED:
		fprintf(stderr,
			"clyde sweep: interrupted; torn down and restored.  "
			"Continue with: clyde sweep --resume %s%s%s\n",
			out->id, cli->db ? " --db " : "",
			cli->db ? cli->db : "");
		return CLYDE_EXIT_INTERRUPTED;
	case CLYDE_EXP_STOPPED:
		fprintf(stderr,
			"clyde sweep: stopped after the failure of %s "
			"(-k goes on); continue with: clyde sweep "
			"--resume %s%s%s\n",
			out->first_failure[0] ? out->first_failure : "a step",
			out->id, cli->db ? " --db " : "",
			cli->db ? cli->db : "");
		return CLYDE_EXIT_TEST_FAILED;
	case CLYDE_EXP_DONE:
	case CLYDE_EXP_REFUSED:
		break;
	}
	return out->nfailed ? CLYDE_EXIT_TEST_FAILED : CLYDE_EXIT_OK;
}

/* Run (or resume) the experiment, say how it ended, print its table. */
static int execute(struct clyde_ctx *ctx, struct sweep_cli *cli,
		   struct clyde_sweep *s, struct clyde_history *h,
		   const char *text, const char *resume_id)
{
	struct clyde_exp_config cfg;
	struct clyde_exp_outcome out;
	struct sweep_progress prog = { .ctx = ctx, .s = s };
	struct sweep_ops ops;
	char exe[PATH_MAX];
	ssize_t n;
	int status;

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
	prog.start_ns = clyde_now(ctx);
	prog.visits_total = s->npoints * clyde_sweep_max_rounds(s);
	prog.npoints = s->npoints;
	prog.nrepeats = clyde_sweep_max_rounds(s);
	cfg.hooks =
		(struct clyde_exp_hooks){ .arg = &prog,
					  .say = clyde_sweep_cli_say,
					  .progress = clyde_sweep_cli_progress,
					  .visit_counted =
						  clyde_sweep_cli_visit };
	if (!cli->quiet && isatty(2))
		clyde_live_start(&prog.live, clyde_sweep_cli_draw, &prog);
	n = clyde_exp_execute(ctx, s, h, &cfg, &out);
	clyde_live_stop(&prog.live);
	if (n < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		free(out.id);
		return out.refused_usage ? CLYDE_EXIT_USAGE :
					   CLYDE_EXIT_TEST_FAILED;
	}
	status = say_end(cli, &out);
	if (clyde_sweep_cli_show_table(ctx, h, out.id,
				       cli->metrics ? cli->metrics : s->metrics,
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

/* --list or --show ID: reading only, as `clyde history list` (a
 * read-only history can be listed and shown).  Returns the status. */
static int list_or_show(struct clyde_ctx *ctx, const struct sweep_cli *cli,
			struct clyde_history **h)
{
	char *fm = NULL;
	int rc;

	if (clyde_history_open_readonly(ctx, cli->db, h) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return CLYDE_EXIT_USAGE;
	}
	if (cli->list) {
		rc = clyde_sweep_cli_list(ctx, *h);
	} else {
		if (!cli->metrics)
			fm = clyde_sweep_stored_metrics(*h, cli->show);
		rc = clyde_sweep_cli_show_table(
			ctx, *h, cli->show, cli->metrics ? cli->metrics : fm,
			stdout);
		free(fm);
	}
	if (rc < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return CLYDE_EXIT_USAGE;
	}
	return CLYDE_EXIT_OK;
}

/* --resume ID: the stored experiment, run again where it stopped.
 * Returns the status. */
static int resume(struct clyde_ctx *ctx, struct sweep_cli *cli,
		  struct clyde_sweep *s, struct clyde_history **h,
		  struct clyde_exp_info *info)
{
	if (clyde_sweep_cli_open_history(ctx, cli->db, false, h) < 0)
		return CLYDE_EXIT_USAGE;
	if (clyde_exp_store_get(ctx, *h, cli->resume, info) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return CLYDE_EXIT_USAGE;
	}
	cli->file = info->file;
	if (clyde_sweep_parse_stored(ctx, info, s) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return CLYDE_EXIT_USAGE;
	}
	return execute(ctx, cli, s, *h, info->text, info->id);
}

/* FILE: read, parsed and checked; then the dry run, or the run.
 * *text holds the file (the caller frees it).  Returns the status. */
static int from_file(struct clyde_ctx *ctx, struct sweep_cli *cli,
		     struct clyde_sweep *s, struct clyde_history **h,
		     char **text)
{
	size_t len = 0;

	if (clyde_sweep_cli_check_file(cli->file) < 0)
		return CLYDE_EXIT_USAGE;
	*text = clyde_exp_slurp(cli->file, &len);
	if (!*text) {
		fprintf(stderr, "clyde sweep: %s: %s\n", cli->file,
			strerror(errno ? errno : EIO));
		return CLYDE_EXIT_USAGE;
	}
	if (clyde_sweep_parse(ctx, cli->file, *text, len, cli->defines,
			      cli->ndefines, s) < 0) {
		fprintf(stderr, "clyde sweep: %s\n", clyde_errmsg(ctx));
		return CLYDE_EXIT_USAGE;
	}
	if (clyde_sweep_cli_check_metrics(s, s->metrics, cli->file,
					  "metrics =") < 0 ||
	    clyde_sweep_cli_check_metrics(s, cli->metrics, NULL, "--metrics") <
		    0 ||
	    check_plan(ctx, cli, s) < 0)
		return CLYDE_EXIT_USAGE;
	if (cli->dry_run)
		return dry_run(ctx, s);
	if (clyde_sweep_cli_open_history(ctx, cli->db, true, h) < 0)
		return CLYDE_EXIT_USAGE;
	return execute(ctx, cli, s, *h, *text, NULL);
}

int clyde_cmd_sweep(int argc, char **argv)
{
	struct sweep_cli cli;
	struct clyde_ctx ctx;
	struct clyde_sweep s;
	struct clyde_history *h = NULL;
	struct clyde_exp_info info;
	char *text = NULL;
	int status, rc;

	rc = parse_cli(argc, argv, &cli);
	if (rc != 0) {
		free(cli.defines);
		return rc > 0 ? CLYDE_EXIT_OK : CLYDE_EXIT_USAGE;
	}
	clyde_ctx_init(&ctx);
	ctx.interrupted = clyde_cli_catch_signals();
	memset(&info, 0, sizeof(info));
	memset(&s, 0, sizeof(s));
	if (cli.list || cli.show)
		status = list_or_show(&ctx, &cli, &h);
	else if (!cli.dry_run && check_tmp(&ctx, &cli) < 0)
		status = CLYDE_EXIT_USAGE;
	else if (cli.resume)
		status = resume(&ctx, &cli, &s, &h, &info);
	else
		status = from_file(&ctx, &cli, &s, &h, &text);
	clyde_sweep_release(&s);
	clyde_history_close(h);
	clyde_exp_info_release(&info);
	free(text);
	free(cli.defines);
	clyde_ctx_release(&ctx);
	return status;
}
