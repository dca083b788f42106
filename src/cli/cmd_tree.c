/*
 * `clyde tree`: generate a tree (or take an existing one, read-only), run
 * the extract / walk / delete phases, print a table and write JSON or a
 * CSV line.  The library does the work (workloads/tree.h); this file reads
 * the command line, prints, and decides the exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/outputs.h"
#include "cli/run_dist.h"
#include "core/size.h"
#include "env/advise.h"
#include "io/scratch.h"
#include "store/history.h"
#include "results/members_text.h"
#include "results/tree_out.h"
#include "workloads/tree.h"

static const char help_text[] =
	"Usage: clyde tree [OPTION]...\n"
	"Generate a file tree (or take an existing one, read-only) and time\n"
	"extracting, stat-walking, reading, walking in parallel and deleting "
	"it.\n"
	"\n"
	"Where:\n"
	"  -d, --dir DIR          generate the tree in a scratch directory in "
	"DIR (.)\n"
	"      --existing DIR     walk DIR instead, strictly read-only\n"
	"Shape of a generated tree:\n"
	"      --preset NAME      home (4.3 files/dir, mean 120 KB) or mail\n"
	"                         (34 files/dir, mean 53 KB); default home\n"
	"      --files N          regular files (10000)\n"
	"      --dirs N           directories, the top one included\n"
	"      --files-per-dir X  or: directories = files / X\n"
	"      --depth N          levels below the top (preset: 8 or 3)\n"
	"      --fanout N         most subdirectories per directory (auto)\n"
	"      --size DIST        fixed:S, uniform:A-B or "
	"lognormal:MEDIAN,SIGMA[,CAP]\n"
	"      --seed N           random seed (default: from time and pid)\n"
	"      --pattern P        file data: random (default) or zeros\n"
	"What to run:\n"
	"      --phases LIST      comma list of extract, stat_walk, read_walk,\n"
	"                         par_stat_walk, par_read_walk, delete, or all\n"
	"  -w, --workers K        workers of the parallel walks (4)\n"
	"      --io-size S        bytes per read and write (128k)\n"
	"      --no-drop-caches   keep the caches (default: drop before each\n"
	"                         phase, needs root)\n"
	"      --settle SECONDS   before each phase wait up to SECONDS (5) for\n"
	"                         the devices to be idle; 0: only look\n"
	"      --noatime          O_NOATIME on a generated tree too\n"
	"      --one-file-system  do not walk into other filesystems\n"
	"      --keep             keep the generated tree (its path goes to\n"
	"                         stderr) for later --existing walks; no\n"
	"                         delete phase\n"
	"Output:\n" CLYDE_CLI_DEST_HELP
	"  -v, --verbose          also each member disk's I/O per phase\n"
	"      --no-advice        no advice on the storage stack\n"
	"  -q, --quiet            no table and no progress\n"
	"  -h, --help             this help\n"
	"\n"
	"Exit status: 0 ok, 1 invalid option, directory or output (nothing\n"
	"run), 3 a phase failed or an output could not be written, 5\n"
	"interrupted.  See docs/tree.md and clyde(1), TREE WORKLOADS.\n";

enum {
	OPT_EXISTING = 256,
	OPT_PRESET,
	OPT_FILES,
	OPT_DIRS,
	OPT_FPD,
	OPT_DEPTH,
	OPT_FANOUT,
	OPT_SIZE,
	OPT_SEED,
	OPT_PATTERN,
	OPT_PHASES,
	OPT_IO_SIZE,
	OPT_NO_DROP,
	OPT_SETTLE,
	OPT_NOATIME,
	OPT_ONE_FS,
	OPT_KEEP,
	OPT_NO_ADVICE,
};

static const struct option long_opts[] = {
	{ "dir", required_argument, NULL, 'd' },
	{ "existing", required_argument, NULL, OPT_EXISTING },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "files", required_argument, NULL, OPT_FILES },
	{ "dirs", required_argument, NULL, OPT_DIRS },
	{ "files-per-dir", required_argument, NULL, OPT_FPD },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "fanout", required_argument, NULL, OPT_FANOUT },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "pattern", required_argument, NULL, OPT_PATTERN },
	{ "phases", required_argument, NULL, OPT_PHASES },
	{ "workers", required_argument, NULL, 'w' },
	{ "io-size", required_argument, NULL, OPT_IO_SIZE },
	{ "no-drop-caches", no_argument, NULL, OPT_NO_DROP },
	{ "settle", required_argument, NULL, OPT_SETTLE },
	{ "noatime", no_argument, NULL, OPT_NOATIME },
	{ "one-file-system", no_argument, NULL, OPT_ONE_FS },
	{ "label", required_argument, NULL, 'm' },
	CLYDE_CLI_DEST_LONG_OPTS,
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "verbose", no_argument, NULL, 'v' },
	{ "no-advice", no_argument, NULL, OPT_NO_ADVICE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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
	bool help;
	bool seed_given;
	bool phases_given;
	bool phases_all; /* --phases all: on --existing, every read-only one */
	/* Shape options, applied over the preset once it is known. */
	const char *files, *dirs, *fpd, *depth, *fanout, *size;
};

/* Build cfg->shape: the preset for --files, then the options over it. */
static int apply_shape(struct tree_cli *c, char *err, size_t len)
{
	struct clyde_tree_shape *s = &c->cfg.shape;
	uint64_t files = 10000, v;

	if (c->files && clyde_cli_parse_count("--files", c->files, 0,
					      4000000000ull, &files, err, len))
		return -1;
	if (clyde_tree_preset(c->cfg.preset, files, s) < 0)
		return clyde_cli_bad(err, len, "%s \"%s\": want home or mail",
				     "--preset", c->cfg.preset);
	if (c->dirs && c->fpd)
		return clyde_cli_bad(err, len, "%s and %s: give one of them",
				     "--dirs", "--files-per-dir");
	if (c->dirs) {
		/* At least the top directory. */
		if (clyde_cli_parse_count("--dirs", c->dirs, 1,
					  CLYDE_TREE_MAX_DIRS, &v, err, len))
			return -1;
		s->dirs = v;
	}
	if (c->fpd) {
		char *end;

		errno = 0;
		s->files_per_dir = strtod(c->fpd, &end);
		if (errno || *end || end == c->fpd ||
		    !(s->files_per_dir > 0 && s->files_per_dir < 1e9))
			return clyde_cli_bad(
				err, len,
				"%s \"%s\": want a number above 0 and "
				"below 1000000000",
				"--files-per-dir", c->fpd);
	}
	if (c->depth) {
		if (clyde_cli_parse_count("--depth", c->depth, 0,
					  CLYDE_TREE_MAX_DEPTH, &v, err, len))
			return -1;
		s->depth = (unsigned)v;
	}
	if (c->fanout) {
		if (clyde_cli_parse_count("--fanout", c->fanout, 1, UINT32_MAX,
					  &v, err, len))
			return -1;
		s->fanout = (unsigned)v;
	}
	if (c->size && clyde_size_dist_parse(c->size, &s->size, err, len) < 0)
		return -1;
	return 0;
}

static int parse_args(int argc, char **argv, struct tree_cli *c, char *err,
		      size_t len)
{
	uint64_t v;
	int o;

	memset(c, 0, sizeof(*c));
	clyde_tree_config_init(&c->cfg);
	if (clyde_cli_settle_env(&c->cfg.settle_ns, err, len))
		return -1;
	c->dir = ".";
	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, ":d:w:m:qvh", long_opts, NULL)) !=
	       -1) {
		switch (o) {
		case 'd':
			c->dir = optarg;
			break;
		case OPT_EXISTING:
			c->cfg.existing = optarg;
			break;
		case OPT_PRESET:
			snprintf(c->cfg.preset, sizeof(c->cfg.preset), "%s",
				 optarg);
			if (strcmp(optarg, "home") && strcmp(optarg, "mail"))
				return clyde_cli_bad(
					err, len,
					"%s \"%s\": want home or mail",
					"--preset", optarg);
			break;
		case OPT_FILES:
			c->files = optarg;
			break;
		case OPT_DIRS:
			c->dirs = optarg;
			break;
		case OPT_FPD:
			c->fpd = optarg;
			break;
		case OPT_DEPTH:
			c->depth = optarg;
			break;
		case OPT_FANOUT:
			c->fanout = optarg;
			break;
		case OPT_SIZE:
			c->size = optarg;
			break;
		case OPT_SEED:
			if (clyde_u64_parse(optarg, &c->cfg.seed) < 0)
				return clyde_cli_bad(err, len,
						     "%s \"%s\": want a number",
						     "--seed", optarg);
			c->seed_given = true;
			break;
		case OPT_PATTERN:
			if (!strcmp(optarg, "zeros"))
				c->cfg.zeros = true;
			else if (!strcmp(optarg, "random"))
				c->cfg.zeros = false;
			else
				return clyde_cli_bad(
					err, len,
					"%s \"%s\": want random or zeros",
					"--pattern", optarg);
			break;
		case OPT_PHASES:
			if (clyde_tree_phases_parse(optarg, &c->cfg.phases, err,
						    len) < 0)
				return -1;
			c->phases_given = true;
			c->phases_all = !strcmp(optarg, "all");
			break;
		case 'w':
			if (clyde_cli_parse_count("--workers", optarg, 1, 1024,
						  &v, err, len))
				return -1;
			c->cfg.workers = (unsigned)v;
			break;
		case OPT_IO_SIZE:
			if (clyde_size_parse(optarg, "km", 10, &v) < 0 ||
			    v == 0 || v > CLYDE_TREE_MAX_IO_SIZE)
				return clyde_cli_bad(
					err, len,
					"%s \"%s\": want a size from 1 to "
					"1m",
					"--io-size", optarg);
			c->cfg.io_size = (size_t)v;
			break;
		case OPT_NO_DROP:
			c->cfg.drop_caches = false;
			break;
		case OPT_SETTLE:
			if (clyde_cli_parse_settle("--settle", optarg,
						   &c->cfg.settle_ns, err, len))
				return -1;
			break;
		case OPT_NOATIME:
			c->cfg.noatime = true;
			break;
		case OPT_ONE_FS:
			c->cfg.one_fs = true;
			break;
		case 'm':
			snprintf(c->cfg.label, sizeof(c->cfg.label), "%s",
				 optarg);
			break;
		case CLYDE_OPT_JSON:
			c->json = optarg;
			break;
		case CLYDE_OPT_CSV:
			c->csv = optarg;
			break;
		case 'q':
			c->quiet = true;
			break;
		case OPT_KEEP:
			c->keep = true;
			break;
		case CLYDE_OPT_DB:
			if (!*optarg)
				return clyde_cli_bad(
					err, len, "--db: needs a path%s", "");
			c->db = optarg;
			break;
		case CLYDE_OPT_NO_SAVE:
			c->no_save = true;
			break;
		case 'v':
			c->verbose = true;
			break;
		case OPT_NO_ADVICE:
			c->no_advice = true;
			break;
		case 'h':
			c->help = true;
			return 0;
		case ':':
			return clyde_cli_bad(err, len,
					     "%s%s: needs an argument",
					     argv[optind - 1], "");
		default:
			return clyde_cli_bad(err, len,
					     "unknown option \"%s\"%s",
					     argv[optind - 1], "");
		}
	}
	if (optind < argc)
		return clyde_cli_bad(err, len, "unexpected argument \"%s\"%s",
				     argv[optind], "");
	if (c->json && c->csv && !strcmp(c->json, "-") && !strcmp(c->csv, "-"))
		return clyde_cli_bad(
			err, len,
			"--json - and --csv -: only one of them can have "
			"standard output%s",
			"");
	if (c->cfg.existing) {
		const char *gen = c->files  ? "--files" :
				  c->dirs   ? "--dirs" :
				  c->fpd    ? "--files-per-dir" :
				  c->depth  ? "--depth" :
				  c->fanout ? "--fanout" :
				  c->size   ? "--size" :
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
	if (c->files || c->dirs || c->fpd || c->depth || c->fanout || c->size) {
		/* The preset was only a starting point: say so in the
		 * record unless only the file count changed. */
		if (c->dirs || c->fpd || c->depth || c->fanout || c->size)
			c->cfg.preset[0] = '\0';
	}
	return 0;
}

int clyde_tree_check_args(int argc, char **argv, const char **dir, char *err,
			  size_t len)
{
	struct tree_cli c;

	if (parse_args(argc, argv, &c, err, len) < 0)
		return -1;
	if (dir)
		*dir = c.cfg.existing ? NULL : c.dir;
	return 0;
}

struct progress {
	bool show;
	struct clyde_ctx *ctx;
	struct clyde_run_dist *rd;
	/* clyde-mpi: when each phase's ranks were released (this rank's
	 * clock). */
	uint64_t start_ns[CLYDE_TREE_PHASE_COUNT];
};

/* clyde-mpi: every rank starts the phase together, or all stop. */
static int start_phase(void *arg, enum clyde_tree_phase p)
{
	struct progress *pr = arg;
	int all = clyde_dist_agree(pr->rd->d, 0, NULL);

	if (all)
		return all < 0 ? all : CLYDE_DIST_PEER_FAILED;
	pr->start_ns[p] = clyde_now(pr->ctx);
	/* Another rank's failure stops this phase too. */
	return clyde_dist_watch(pr->rd->d, &pr->ctx->failed);
}

static void before_phase(void *arg, enum clyde_tree_phase p)
{
	struct progress *pr = arg;

	if (!pr->show)
		return;
	fprintf(stderr, "%s...", clyde_tree_phase_name(p));
	fflush(stderr);
}

static void after_phase(void *arg, enum clyde_tree_phase p,
			const struct clyde_tree_phase_result *r)
{
	struct progress *pr = arg;

	(void)p;
	if (pr->show)
		fprintf(stderr, " done in %.3f s\n",
			(double)r->elapsed_ns / 1e9);
}

/* Walks hold one descriptor per level and per queued directory: allow as
 * many as the hard limit lets. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* The run's JSON document in memory, for the history.  NULL on failure. */
static char *json_doc(const struct clyde_tree_run *run, size_t *len,
		      const struct clyde_dist *dist)
{
	char *doc = NULL;
	FILE *m = open_memstream(&doc, len);

	if (!m)
		return NULL;
	if (clyde_tree_json_write_more(m, run, CLYDE_VERSION,
				       dist ? clyde_dist_json : NULL,
				       dist) < 0) {
		fclose(m);
		free(doc);
		return NULL;
	}
	if (fclose(m) != 0) {
		free(doc);
		return NULL;
	}
	return doc;
}

/* Write and commit every output.  Returns 0 or -1 (each failure printed;
 * a destination that failed keeps its old content). */
static int outputs_write(const struct tree_cli *c, struct clyde_cli_outputs *o,
			 const struct clyde_tree_run *run,
			 const struct clyde_dist *dist)
{
	/* --json -: standard output is the JSON's alone, as `clyde run`. */
	FILE *table = c->json && !strcmp(c->json, "-") ? stderr : stdout;
	FILE *f;
	int ret = 0, rc;

	if (!c->quiet &&
	    (clyde_tree_text_write(table, run, CLYDE_VERSION) < 0 ||
	     clyde_members_tree_text_write(table, run, c->verbose) < 0 ||
	     (!c->no_advice && clyde_advice_section(table, &run->env.stack,
						    CLYDE_ADVISE_TREE) < 0)))
		ret = -1;
	f = clyde_cli_outputs_file(o, CLYDE_CLI_OUT_JSON);
	if (f)
		ret |= clyde_cli_outputs_commit(
			o, CLYDE_CLI_OUT_JSON,
			clyde_tree_json_write_more(
				f, run, CLYDE_VERSION,
				dist ? clyde_dist_json : NULL, dist));
	f = clyde_cli_outputs_file(o, CLYDE_CLI_OUT_CSV);
	if (f) {
		bool header;

		rc = clyde_cli_outputs_csv_begin(o, &header);
		if (rc == 0 && header)
			rc = clyde_tree_csv_header(f);
		if (rc == 0)
			rc = clyde_tree_csv_write(f, run, CLYDE_VERSION);
		ret |= clyde_cli_outputs_commit(o, CLYDE_CLI_OUT_CSV, rc);
	}
	if (o->h) {
		size_t len = 0;
		char *doc = json_doc(run, &len, dist);

		/* As `clyde run`: a result that was not saved is a
		 * failure (exit 3), after everything else was written. */
		ret |= clyde_cli_outputs_save(o, doc, len, "out of memory");
		free(doc);
	}
	return ret;
}

/*
 * An --existing tree must be a directory this process can list and enter;
 * anything else is a usage error found before any phase (exit 1), not a
 * failed phase.  Returns 0 or -1 after printing one line.
 */
static int check_existing(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "clyde tree: --existing %s: %s\n", dir,
			errno == ENOTDIR ? "not a directory" : strerror(errno));
		return -1;
	}
	if (faccessat(fd, ".", R_OK | X_OK, AT_EACCESS) < 0) {
		fprintf(stderr, "clyde tree: --existing %s: %s\n", dir,
			strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* --keep: let go of the scratch directory without removing it, marked
 * so that later runs do not call it the leftover of a killed run. */
static void keep_scratch(struct clyde_scratch *s)
{
	int fd = openat(s->dirfd, CLYDE_SCRATCH_KEPT,
			O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd >= 0)
		close(fd);
	close(s->dirfd);
	close(s->parentfd);
	free(s->path);
	free(s->name);
	free(s);
}

static bool any_phase_ran(const struct clyde_tree_run *run)
{
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++)
		if (run->phases[p].ran)
			return true;
	return false;
}

int clyde_cmd_tree(int argc, char **argv)
{
	return clyde_cmd_tree_dist(argc, argv, NULL);
}

int clyde_cmd_tree_dist(int argc, char **argv, struct clyde_dist *dist)
{
	struct clyde_run_dist rdist = { .d = dist }, *rd = &rdist;
	struct tree_cli c;
	struct clyde_ctx ctx;
	struct clyde_scratch *scratch = NULL;
	struct clyde_tree_run run;
	struct progress pr;
	struct clyde_cli_outputs outs;
	struct clyde_cli_dest dest;
	struct clyde_tree_hooks hooks = { .arg = &pr,
					  .before_phase = before_phase,
					  .after_phase = after_phase };
	char err[1024];
	int status = CLYDE_EXIT_OK, ret;

	if (parse_args(argc, argv, &c, err, sizeof(err)) < 0) {
		/* The same on every rank: rank 0 says it once. */
		if (clyde_run_dist_leader(rd))
			fprintf(stderr, "clyde tree: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (c.help) {
		return clyde_cli_help(help_text);
	}
	if (!c.seed_given)
		c.cfg.seed = ((uint64_t)time(NULL) ^ (uint64_t)getpid()) &
			     0xffffffffu;
	if (!clyde_run_dist_leader(rd)) {
		/* Rank 0 alone prints, writes --json and --csv, saves. */
		c.json = c.csv = NULL;
		c.no_save = true;
		c.quiet = true;
	}
	pr.show = !c.quiet;

	clyde_ctx_init(&ctx);
	ctx.interrupted = clyde_cli_catch_signals();
	raise_nofile();
	pr.ctx = &ctx;
	pr.rd = rd;
	if (dist)
		hooks.start_phase = start_phase;

	if (c.cfg.existing && check_existing(c.cfg.existing) < 0) {
		status = clyde_run_dist_finish(rd, &ctx, CLYDE_EXIT_USAGE);
		clyde_ctx_release(&ctx);
		return status;
	}
	dest = (struct clyde_cli_dest){
		.path = { [CLYDE_CLI_OUT_JSON] = c.json,
			  [CLYDE_CLI_OUT_CSV] = c.csv },
		.db = c.db,
		.no_save = c.no_save,
	};
	if (clyde_cli_outputs_open(&outs, "tree", &dest) < 0) {
		clyde_cli_outputs_abort(&outs);
		status = clyde_run_dist_finish(rd, &ctx, CLYDE_EXIT_USAGE);
		clyde_ctx_release(&ctx);
		return status;
	}
	if (!c.cfg.existing &&
	    (dist ? clyde_run_dist_scratch(rd, &ctx, c.dir, &c.dir, &c.cfg.seed,
					   &scratch) :
		    clyde_scratch_create(&ctx, c.dir, &scratch)) < 0) {
		if (*clyde_errmsg(&ctx))
			fprintf(stderr, "clyde tree: -d: %s\n",
				clyde_errmsg(&ctx));
		clyde_cli_outputs_abort(&outs);
		status = clyde_run_dist_setup(rd, CLYDE_EXIT_USAGE, NULL);
		if (dist)
			clyde_run_dist_remove(rd, &ctx, scratch);
		clyde_ctx_release(&ctx);
		return status;
	}
	if (scratch && (clyde_run_dist_leader(rd) || !dist->shared))
		clyde_cli_note_stale(scratch, c.dir);
	/* --shared: one tree per rank, side by side. */
	if (dist && dist->shared)
		snprintf(c.cfg.tree_name, sizeof(c.cfg.tree_name), "tree.r%d",
			 dist->comm->rank);
	status = clyde_run_dist_setup(rd, 0, NULL);

	ret = status ? CLYDE_DIST_PEER_FAILED :
		       clyde_tree_run(&ctx, &c.cfg, scratch, &hooks, &run);
	if (dist && !status && ret < 0)
		clyde_run_dist_remove_early(rd, &ctx, scratch);
	if (dist && !status)
		ret = clyde_dist_end_tree(dist, ret, &run, pr.start_ns);
	if (status) {
		/* A rank's set-up failed; it said why. */
		memset(&run, 0, sizeof(run));
	} else if (ret < 0 && dist) {
		if (pr.show)
			fputc('\n', stderr);
		status = clyde_run_dist_failed(rd, &ctx, ret);
	} else if (ret < 0) {
		if (pr.show)
			fputc('\n', stderr);
		if (ret == -EINTR || clyde_cli_interrupted()) {
			fprintf(stderr, "clyde tree: interrupted%s%s\n",
				scratch ? "; removing " : "",
				scratch ? scratch->path : "");
			status = CLYDE_EXIT_INTERRUPTED;
		} else {
			fprintf(stderr, "clyde tree: %s\n", clyde_errmsg(&ctx));
			status = ret == -EINVAL && !any_phase_ran(&run) ?
					 CLYDE_EXIT_USAGE :
					 CLYDE_EXIT_TEST_FAILED;
		}
	} else if (outputs_write(&c, &outs, &run, dist) < 0) {
		status = CLYDE_EXIT_TEST_FAILED;
	}
	clyde_cli_outputs_abort(&outs);
	clyde_err_clear(&ctx);
	if (scratch && c.keep && status == CLYDE_EXIT_OK) {
		fprintf(stderr, "clyde tree: kept %s/tree\n", scratch->path);
		keep_scratch(scratch);
	} else if ((scratch || dist) &&
		   clyde_run_dist_remove(rd, &ctx, scratch) < 0) {
		fprintf(stderr, "clyde tree: %s\n", clyde_errmsg(&ctx));
		if (status == CLYDE_EXIT_OK)
			status = CLYDE_EXIT_TEST_FAILED;
	}
	clyde_tree_run_release(&run);
	status = clyde_run_dist_finish(rd, &ctx, status);
	clyde_ctx_release(&ctx);
	if (clyde_cli_stdout_done("tree") < 0 && status == CLYDE_EXIT_OK)
		status = CLYDE_EXIT_TEST_FAILED;
	if (clyde_cli_interrupted() && status == CLYDE_EXIT_OK)
		status = CLYDE_EXIT_INTERRUPTED;
	return status;
}
