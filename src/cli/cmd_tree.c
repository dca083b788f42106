/*
 * `clyde tree`: generate a tree (or take an existing one, read-only), run
 * the extract / walk / delete phases, print a table and write JSON or a
 * CSV line.  This file reads the command line and prints; the job
 * (job/job_tree.h) runs the lifecycle and says the exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/optmodel.h"
#include "cli/outputs.h"
#include "job/job_tree.h"
#include "core/size.h"
#include "dist/run_dist.h"
#include "env/advise.h"
#include "env/settle.h"
#include "io/scratch.h"
#include "store/history.h"
#include "results/members_text.h"
#include "results/tree_out.h"
#include "workloads/tree.h"

struct tree_cli {
	struct clyde_tree_config cfg;
	const char *dir;
	const char *json;
	const char *csv;
	const char *db; /* NULL: the default history */
	bool no_save;
	bool verbose;	/* -v: the per-member table */
	bool no_advice; /* --no-advice */
	bool quiet;
	bool keep;
	bool seed_given;
	bool phases_given;
	bool phases_all; /* --phases all: on --existing, every read-only one */
	int preset;	 /* index in presets[] */
	int pattern;	 /* 1: zeros */
	/* Shape options, applied over the preset once it is known. */
	uint64_t files, dirs;
	double fpd;
	unsigned depth, fanout;
	const char *size;
	bool files_given, dirs_given, fpd_given, depth_given, fanout_given;
};

/* --phases LIST: its own list syntax (workloads/tree.h). */
static int opt_phases(void *base, const struct clyde_opt *o, const char *name,
		      const char *arg, char *err, size_t len)
{
	struct tree_cli *c = base;

	(void)o;
	(void)name;
	if (clyde_tree_phases_parse(arg, &c->cfg.phases, err, len) < 0)
		return -1;
	c->phases_given = true;
	c->phases_all = !strcmp(arg, "all");
	return 0;
}

static const struct clyde_opt_choice presets[] = {
	{ "home", 0 },
	{ "mail", 1 },
	{ NULL, 0 },
};

static const struct clyde_opt_choice patterns[] = {
	{ "random", 0 },
	{ "zeros", 1 },
	{ NULL, 0 },
};

enum {
	G_WHERE,
	G_SHAPE,
	G_RUN,
	G_OUTPUT
};

#define TREE_FIELD(M) CLYDE_OPT_FIELD(struct tree_cli, M)
#define TREE_GIVEN(M) CLYDE_OPT_GIVEN(struct tree_cli, M)

/*
 * The options of `clyde tree`, one entry each (cli/optmodel.h); the
 * parser, its messages and --help are made from them.  To add one: a
 * field in struct tree_cli (or its cfg, with the default in
 * clyde_tree_config_init), an entry here, a line in docs/clyde.1.
 */
static const struct clyde_opt tree_table[] = {
	{ .short_name = 'd',
	  .name = "dir",
	  .type = CLYDE_OPT_STRING,
	  .group = G_WHERE,
	  .arg = "DIR",
	  TREE_FIELD(dir),
	  .kind = "directory name",
	  .show_default = true,
	  .help = "generate the tree in a scratch directory in DIR" },
	{ .name = "existing",
	  .type = CLYDE_OPT_STRING,
	  .group = G_WHERE,
	  .arg = "DIR",
	  TREE_FIELD(cfg.existing),
	  .kind = "directory name",
	  .help = "walk DIR instead, strictly read-only" },
	{ .name = "preset",
	  .type = CLYDE_OPT_ENUM,
	  .group = G_SHAPE,
	  .arg = "NAME",
	  .choices = presets,
	  TREE_FIELD(preset),
	  .kind = "a preset",
	  .show_default = true,
	  .help = "home (4.3 files/dir, mean 120 KB) or mail (34 files/dir, "
		  "mean 53 KB)" },
	{ .name = "files",
	  .type = CLYDE_OPT_UINT,
	  .group = G_SHAPE,
	  .arg = "N",
	  TREE_FIELD(files),
	  TREE_GIVEN(files_given),
	  .max = 4000000000ull,
	  .show_default = true,
	  .help = "regular files" },
	{ .name = "dirs",
	  .type = CLYDE_OPT_UINT,
	  .group = G_SHAPE,
	  .arg = "N",
	  TREE_FIELD(dirs),
	  TREE_GIVEN(dirs_given),
	  .min = 1,
	  .max = CLYDE_TREE_MAX_DIRS,
	  .help = "directories, the top one included" },
	{ .name = "files-per-dir",
	  .type = CLYDE_OPT_DOUBLE,
	  .group = G_SHAPE,
	  .arg = "X",
	  TREE_FIELD(fpd),
	  TREE_GIVEN(fpd_given),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 1e9,
	  .dmax_open = true,
	  .help = "or: directories = files / X" },
	{ .name = "depth",
	  .type = CLYDE_OPT_UINT,
	  .group = G_SHAPE,
	  .arg = "N",
	  TREE_FIELD(depth),
	  TREE_GIVEN(depth_given),
	  .max = CLYDE_TREE_MAX_DEPTH,
	  .help = "levels below the top (preset: 8 or 3)" },
	{ .name = "fanout",
	  .type = CLYDE_OPT_UINT,
	  .group = G_SHAPE,
	  .arg = "N",
	  TREE_FIELD(fanout),
	  TREE_GIVEN(fanout_given),
	  .min = 1,
	  .help = "most subdirectories per directory (auto)" },
	{ .name = "size",
	  .type = CLYDE_OPT_STRING,
	  .group = G_SHAPE,
	  .arg = "DIST",
	  TREE_FIELD(size),
	  .kind = "size distribution",
	  .help = "fixed:S, uniform:A-B or lognormal:MEDIAN,SIGMA[,CAP]" },
	CLYDE_CLI_OPT_SEED(G_SHAPE, "random seed (default: from time and pid)",
			   .arg = "N", TREE_FIELD(cfg.seed),
			   TREE_GIVEN(seed_given)),
	{ .name = "pattern",
	  .type = CLYDE_OPT_ENUM,
	  .group = G_SHAPE,
	  .arg = "P",
	  .choices = patterns,
	  TREE_FIELD(pattern),
	  .kind = "a pattern",
	  .show_default = true,
	  .help = "file data: random or zeros" },
	{ .name = "phases",
	  .type = CLYDE_OPT_CALL,
	  .group = G_RUN,
	  .arg = "LIST",
	  .call = opt_phases,
	  .help = "comma list of extract, stat_walk, read_walk, "
		  "par_stat_walk, par_read_walk, delete, or all" },
	{ .short_name = 'w',
	  .name = "workers",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "K",
	  TREE_FIELD(cfg.workers),
	  .min = 1,
	  .max = 1024,
	  .show_default = true,
	  .help = "workers of the parallel walks" },
	{ .name = "io-size",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "S",
	  TREE_FIELD(cfg.io_size),
	  .suffixes = "km",
	  .shift = 10,
	  .min = 1,
	  .max = CLYDE_TREE_MAX_IO_SIZE,
	  .show_default = true,
	  .help = "bytes per read and write" },
	{ .name = "no-drop-caches",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_RUN,
	  TREE_FIELD(cfg.drop_caches),
	  .invert = true,
	  .help = "keep the caches (default: drop before each phase, needs "
		  "root)" },
	CLYDE_CLI_OPT_SETTLE(G_RUN,
			     "before each phase wait up to SECONDS (5) for the "
			     "devices to be idle; 0: only look",
			     TREE_FIELD(cfg.settle_ns)),
	{ .name = "noatime",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_RUN,
	  TREE_FIELD(cfg.noatime),
	  .help = "O_NOATIME on a generated tree too" },
	{ .name = "one-file-system",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_RUN,
	  TREE_FIELD(cfg.one_fs),
	  .help = "do not walk into other filesystems" },
	{ .name = "keep",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_RUN,
	  TREE_FIELD(keep),
	  .help = "keep the generated tree (its path goes to stderr) for "
		  "later --existing walks; no delete phase" },
	CLYDE_CLI_LABEL_OPT(struct tree_cli, G_OUTPUT),
	CLYDE_CLI_DEST_OPTS(struct tree_cli, G_OUTPUT),
	{ .short_name = 'v',
	  .name = "verbose",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_OUTPUT,
	  TREE_FIELD(verbose),
	  .help = "also each member disk's I/O per phase" },
	{ .name = "no-advice",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_OUTPUT,
	  TREE_FIELD(no_advice),
	  .help = "no advice on the storage stack" },
	CLYDE_CLI_OPT_QUIET(G_OUTPUT, "no table and no progress",
			    TREE_FIELD(quiet)),
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .group = G_OUTPUT,
	  .help = "this help" },
};

static const char *const tree_groups[] = {
	[G_WHERE] = "\nWhere:",
	[G_SHAPE] = "Shape of a generated tree:",
	[G_RUN] = "What to run:",
	[G_OUTPUT] = "Output:",
};

static const struct clyde_optset tree_set = {
	.prog = "clyde tree",
	.opts = tree_table,
	.nopts = sizeof(tree_table) / sizeof(tree_table[0]),
	.groups = tree_groups,
	.ngroups = sizeof(tree_groups) / sizeof(tree_groups[0]),
};

static void tree_cli_init(struct tree_cli *c)
{
	memset(c, 0, sizeof(*c));
	clyde_tree_config_init(&c->cfg);
	c->dir = ".";
	c->files = 10000; /* over the preset's shape */
}

static int print_help(void)
{
	struct tree_cli d;

	tree_cli_init(&d);
	fputs("Usage: clyde tree [OPTION]...\n"
	      "Generate a file tree (or take an existing one, read-only) and "
	      "time\n"
	      "extracting, stat-walking, reading, walking in parallel and "
	      "deleting it.\n",
	      stdout);
	clyde_opt_help(&tree_set, &d, stdout);
	fputs("\n"
	      "Exit status: 0 ok, 1 invalid option, directory or output "
	      "(nothing\n"
	      "run), 3 a phase failed or an output could not be written, 5\n"
	      "interrupted.  See docs/tree.md and clyde(1), TREE WORKLOADS.\n",
	      stdout);
	return CLYDE_EXIT_OK; /* stdout is checked at exit (main.c) */
}

/* Build cfg->shape: the preset for --files, then the options over it. */
static int apply_shape(struct tree_cli *c, char *err, size_t len)
{
	struct clyde_tree_shape *s = &c->cfg.shape;

	if (clyde_tree_preset(c->cfg.preset, c->files, s) < 0)
		return clyde_cli_bad(err, len,
				     "--preset \"%s\": want home or mail",
				     c->cfg.preset);
	if (c->dirs_given && c->fpd_given)
		return clyde_cli_bad(err, len, "%s and %s: give one of them",
				     "--dirs", "--files-per-dir");
	if (c->dirs_given)
		s->dirs = c->dirs;
	if (c->fpd_given)
		s->files_per_dir = c->fpd;
	if (c->depth_given)
		s->depth = c->depth;
	if (c->fanout_given)
		s->fanout = c->fanout;
	if (c->size && clyde_size_dist_parse(c->size, &s->size, err, len) < 0)
		return -1;
	return 0;
}

/* 0 (c->help set for --help), or -1 with the message in err. */
static int parse_args(int argc, char **argv, struct tree_cli *c, bool *help,
		      char *err, size_t len)
{
	int rc;

	tree_cli_init(c);
	/* CLYDE_SETTLE=SECONDS is --settle's default; --settle wins. */
	if (clyde_cli_settle_env(&c->cfg.settle_ns, err, len))
		return -1;
	rc = clyde_opt_parse(&tree_set, argc, argv, c, NULL, NULL, err, len);
	*help = rc == CLYDE_OPT_STOP_HELP;
	if (rc == CLYDE_OPT_STOP_HELP)
		return 0;
	if (rc != CLYDE_OPT_PARSED)
		return -1;
	snprintf(c->cfg.preset, sizeof(c->cfg.preset), "%s",
		 presets[c->preset].name);
	c->cfg.zeros = c->pattern == 1;
	if (c->json && c->csv && !strcmp(c->json, "-") && !strcmp(c->csv, "-"))
		return clyde_cli_bad(
			err, len,
			"--json - and --csv -: only one of them can have "
			"standard output%s",
			"");
	if (c->cfg.existing) {
		const char *gen = c->files_given  ? "--files" :
				  c->dirs_given	  ? "--dirs" :
				  c->fpd_given	  ? "--files-per-dir" :
				  c->depth_given  ? "--depth" :
				  c->fanout_given ? "--fanout" :
				  c->size	  ? "--size" :
						    NULL;

		if (gen)
			return clyde_cli_bad(
				err, len,
				"%s: shapes a generated tree, not an "
				"--existing one%s",
				gen, "");
		/* "all" on a tree that is only ever read: all that read. */
		if (!c->phases_given || c->phases_all)
			c->cfg.phases = CLYDE_TREE_READ_ONLY_PHASES;
		if (c->cfg.phases & ~CLYDE_TREE_READ_ONLY_PHASES)
			return clyde_cli_bad(
				err, len,
				"--phases: extract and delete write; "
				"--existing %s is only ever read%s",
				c->cfg.existing, "");
		c->cfg.preset[0] = '\0';
		return 0;
	}
	/* --keep keeps the tree: its delete phase would leave nothing. */
	if (c->keep && !c->phases_given)
		c->cfg.phases &= ~CLYDE_TREE_PHASE_BIT(CLYDE_TREE_DELETE);
	if (c->keep &&
	    (c->cfg.phases & CLYDE_TREE_PHASE_BIT(CLYDE_TREE_DELETE)))
		return clyde_cli_bad(
			err, len,
			"--keep: the delete phase would leave nothing to "
			"keep; leave delete out of --phases%s",
			"");
	if (apply_shape(c, err, len) < 0)
		return -1;
	/* The preset was only a starting point: say so in the record
	 * unless only the file count changed. */
	if (c->dirs_given || c->fpd_given || c->depth_given ||
	    c->fanout_given || c->size)
		c->cfg.preset[0] = '\0';
	return 0;
}

int clyde_tree_check_args(int argc, char **argv, const char **dir, char *err,
			  size_t len)
{
	struct tree_cli c;
	bool help;

	if (parse_args(argc, argv, &c, &help, err, len) < 0)
		return -1;
	if (dir)
		*dir = c.cfg.existing ? NULL : c.dir;
	return 0;
}

/* The progress lines: each phase's name, then its time. */
static void before_phase(void *arg, enum clyde_tree_phase p)
{
	const struct tree_cli *c = arg;

	if (c->quiet)
		return;
	fprintf(stderr, "%s...", clyde_tree_phase_name(p));
	fflush(stderr);
}

static void after_phase(void *arg, enum clyde_tree_phase p,
			const struct clyde_tree_phase_result *r)
{
	const struct tree_cli *c = arg;

	(void)p;
	if (!c->quiet)
		fprintf(stderr, " done in %.3f s\n",
			(double)r->elapsed_ns / 1e9);
}

static void phase_broken(void *arg)
{
	const struct tree_cli *c = arg;

	if (!c->quiet)
		fputc('\n', stderr);
}

/* The table, the members and the advice; 0 or -1. */
static int show(void *arg, const struct clyde_tree_run *run)
{
	const struct tree_cli *c = arg;
	/* --json -: standard output is the JSON's alone, as `clyde run`. */
	FILE *table = c->json && !strcmp(c->json, "-") ? stderr : stdout;

	if (!c->quiet &&
	    (clyde_tree_text_write(table, run, CLYDE_VERSION) < 0 ||
	     clyde_members_tree_text_write(table, run, c->verbose) < 0 ||
	     (!c->no_advice && clyde_advice_section(table, &run->env.stack,
						    CLYDE_ADVISE_TREE) < 0)))
		return -1;
	return 0;
}

int clyde_cmd_tree(int argc, char **argv)
{
	return clyde_cmd_tree_dist(argc, argv, NULL);
}

int clyde_cmd_tree_dist(int argc, char **argv, struct clyde_dist *dist)
{
	struct clyde_run_dist rd = CLYDE_CLI_RUN_DIST(dist);
	struct tree_cli c;
	struct clyde_job_ui ui = { .arg = &c };
	struct clyde_job_tree job;
	char err[1024];
	bool help;

	if (parse_args(argc, argv, &c, &help, err, sizeof(err)) < 0) {
		/* The same on every rank: rank 0 says it once. */
		if (clyde_run_dist_leader(&rd))
			fprintf(stderr, "clyde tree: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (help)
		return print_help();
	job = (struct clyde_job_tree){
		.cfg = &c.cfg,
		.dir = c.dir,
		.seed_given = c.seed_given,
		.json = c.json,
		.csv = c.csv,
		.db = c.db,
		.no_save = c.no_save,
		.keep = c.keep,
		.phase_begin = before_phase,
		.phase_end = after_phase,
		.phase_broken = phase_broken,
		.show = show,
	};
	clyde_cli_job_ui(&ui);
	return clyde_job_tree_run(&job, &ui, dist);
}
