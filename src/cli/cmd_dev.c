/*
 * `clyde dev DEVICE`: raw block-device tests and zcav, guarded.  This file
 * reads the command line; dev_cli.c runs and reports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_args.h"
#include "cli/commands.h"
#include "cli/dev_cli.h"
#include "cli/optmodel.h"
#include "cli/outputs.h"
#include "core/loadcurve.h"
#include "core/series.h"
#include "core/size.h"
#include "io/engine.h"
#include "workloads/dev.h"
#include "workloads/zcav.h"

int clyde_dev_zcav_block_opt(void *base, const struct clyde_opt *o,
			     const char *name, const char *s, char *err,
			     size_t len)
{
	struct clyde_zcav_config *z = &((struct clyde_dev_cli *)base)->cfg.zcav;
	char block[32];
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t v;

	(void)o;
	if (n >= sizeof(block))
		n = sizeof(block) - 1;
	memcpy(block, s, n);
	block[n] = '\0';
	/* The block is in MiB; the chunk a size whose plain number is MiB,
	 * as zcav reads them. */
	if (clyde_size_parse(block, "g", 10, &v) < 0 || v < 1 || v > (1u << 20))
		return clyde_cli_bad(
			err, len,
			"%s \"%s\": want block-MiB[:chunk], the block "
			"from 1 to 1048576 MiB",
			name, s);
	z->block_bytes = v << 20;
	if (!colon)
		return 0;
	if (clyde_size_parse(colon + 1, "", 0, &v) == 0 && v >= 1 && v <= 1024)
		v <<= 20;
	else if (clyde_size_parse(colon + 1, "km", 10, &v) < 0 || v < 512 ||
		 v > (1u << 30))
		return clyde_cli_bad(
			err, len,
			"%s \"%s\": the chunk must be 512 bytes to 1 GiB "
			"(a plain number is MiB; k and m suffixes)",
			name, s);
	z->chunk_bytes = v;
	return 0;
}

/* --tests LIST: its own list syntax (workloads/dev.h). */
static int opt_tests(void *base, const struct clyde_opt *o, const char *name,
		     const char *arg, char *err, size_t len)
{
	struct clyde_dev_cli *c = base;
	char test[64];

	(void)o;
	if (clyde_dev_tests_parse(arg, &c->cfg.tests, test, sizeof(test)) < 0)
		return clyde_cli_bad(err, len,
				     "%s: unknown test \"%s\" (seqwrite, "
				     "seqread, randread, randwrite, zcav, all)",
				     name, test);
	return 0;
}

/* --rate R, --curve[=STEPS], --latency-target pP=T (core/loadcurve.h). */
static int opt_load(void *base, const struct clyde_opt *o, const char *name,
		    const char *arg, char *err, size_t len)
{
	struct clyde_dev_config *c = &((struct clyde_dev_cli *)base)->cfg;
	char why[300];
	int rc;

	if (!strcmp(o->name, "rate"))
		rc = clyde_rate_parse(arg, &c->rate, why, sizeof(why));
	else if (!strcmp(o->name, "curve"))
		rc = clyde_curve_parse(arg ? arg : CLYDE_CURVE_DEFAULT,
				       c->curve_pct, &c->ncurve, why,
				       sizeof(why));
	else
		rc = clyde_lat_target_parse(arg, &c->target, why, sizeof(why));
	return rc < 0 ? clyde_cli_bad(err, len, "%s %s", name, why) : 0;
}

/* The load options together: not with zcav, --rate not with the others
 * (they set the rates). */
static int check_load(const struct clyde_dev_config *c, char *err, size_t len)
{
	bool load = c->rate.value > 0 || c->ncurve || c->target.ns;

	if (load && (c->tests & CLYDE_DEV_BIT(CLYDE_DEV_ZCAV)))
		return clyde_cli_bad(err, len,
				     "--rate, --curve and --latency-target "
				     "are for seqwrite, seqread, randread and "
				     "randwrite, not zcav");
	if (c->rate.value > 0 && (c->ncurve || c->target.ns))
		return clyde_cli_bad(err, len,
				     "--rate: not with --curve or "
				     "--latency-target, which set the rates "
				     "from the maximum");
	return 0;
}

/* --log-interval MS (cli_args.h). */

enum {
	G_RUN,
	G_ZCAV,
	G_OUTPUT
};

#define DEV_FIELD(M) CLYDE_OPT_FIELD(struct clyde_dev_cli, M)
#define DEV_GIVEN(M) CLYDE_OPT_GIVEN(struct clyde_dev_cli, M)

/*
 * The options of `clyde dev`, one entry each (cli/optmodel.h).  Sizes are
 * bytes with k, m, g, t suffixes.  -b, -c, -s and -w are zcav(8)'s
 * letters for its options (as in clyde zcav); each also has a long name.
 * To add an option: a field in struct clyde_dev_cli or its cfg (default in
 * clyde_dev_config_init), an entry here, a line in docs/clyde.1.
 */
static const struct clyde_opt dev_table[] = {
	{ .name = "tests",
	  .type = CLYDE_OPT_CALL,
	  .group = G_RUN,
	  .arg = "LIST",
	  .call = opt_tests,
	  .help = "comma list of seqwrite, seqread, randread, randwrite, "
		  "zcav, or all (all but zcav); default seqwrite,seqread" },
	{ .name = "bs",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "S",
	  DEV_FIELD(cfg.bs),
	  .suffixes = "kmgt",
	  .shift = 10,
	  .min = 512,
	  .max = 1u << 30,
	  .show_default = true,
	  .help = "sequential request size" },
	{ .name = "rand-bs",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "S",
	  DEV_FIELD(cfg.rand_bs),
	  .suffixes = "kmgt",
	  .shift = 10,
	  .min = 512,
	  .max = 1u << 30,
	  .show_default = true,
	  .help = "random request size" },
	{ .name = "rand-ops",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "N",
	  DEV_FIELD(cfg.rand_ops),
	  DEV_GIVEN(rand_ops_given),
	  .min = 1,
	  .max = UINT32_MAX,
	  .show_default = true,
	  .help = "requests per random test (with --runtime only when given: "
		  "a cap)" },
	{ .name = "runtime",
	  .type = CLYDE_OPT_SECONDS,
	  .group = G_RUN,
	  .arg = "S",
	  DEV_FIELD(cfg.runtime_ns),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 1e6,
	  .help = "run every test for S seconds (a sequential one goes round "
		  "the range; zcav makes passes until then, -c at most)" },
	{ .name = "ramp",
	  .type = CLYDE_OPT_SECONDS,
	  .group = G_RUN,
	  .arg = "S",
	  DEV_FIELD(cfg.ramp_ns),
	  .dmin = 0,
	  .dmax = 1e6,
	  .help = "with --runtime: S seconds first that count in no figure "
		  "(zcav: untimed reading)" },
	{ .name = "until-steady",
	  .type = CLYDE_OPT_DOUBLE,
	  .group = G_RUN,
	  .arg = "P",
	  DEV_FIELD(cfg.steady_pct),
	  .dmin = 0,
	  .dmin_open = true,
	  .dmax = 100,
	  .kind = "a percentage",
	  .form = "use a percentage above 0 up to 100, e.g. 2",
	  .help = "with --runtime: stop a test once the slope of its IOPS "
		  "over the last --steady-window intervals is within P% of "
		  "their mean per second (fio's ss=iops_slope)" },
	{ .name = "steady-window",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "N",
	  DEV_FIELD(cfg.steady_window),
	  .min = 2,
	  .max = 1000,
	  .show_range = true,
	  .show_default = true,
	  .help = "intervals of that window" },
	CLYDE_CLI_OPT_LOG_INTERVAL(G_RUN,
				   "time series interval in the JSON, 10 to "
				   "3600000 ms (1000; 0: none)",
				   DEV_FIELD(cfg.log_interval_ns)),
	{ .name = "iodepth",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "N",
	  DEV_FIELD(cfg.iodepth),
	  .min = 1,
	  .max = CLYDE_DEV_MAX_IODEPTH,
	  .show_range = true,
	  .help = "requests in flight; default 1 with psync, which takes no "
		  "other, 32 with io_uring" },
	{ .name = "iodepth-batch",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "N",
	  DEV_FIELD(cfg.iodepth_batch),
	  .min = 1,
	  .max = CLYDE_DEV_MAX_IODEPTH,
	  .show_range = true,
	  .show_default = true,
	  .help = "io_uring: submit N requests in one call (1: each at once, "
		  "as fio)" },
	{ .name = "rate",
	  .type = CLYDE_OPT_CALL,
	  .group = G_RUN,
	  .arg = "R",
	  .call = opt_load,
	  .help = "issue requests at R per second (5000) or R bytes per "
		  "second (200m/s) on a schedule; latency from each "
		  "request's due time" },
	{ .name = "curve",
	  .type = CLYDE_OPT_CALL,
	  .has_arg = CLYDE_ARG_OPTIONAL,
	  .group = G_RUN,
	  .arg = "STEPS",
	  .call = opt_load,
	  .help = "after each test at full speed, run it at these % of that "
		  "rate (--curve=10,50,90; default 10,20,...,100)" },
	{ .name = "latency-target",
	  .type = CLYDE_OPT_CALL,
	  .group = G_RUN,
	  .arg = "pP=T",
	  .call = opt_load,
	  .help = "find the highest rate whose P-th percentile latency stays "
		  "under T (p99=5ms), by bisection below the maximum" },
	{ .name = "target-probes",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "N",
	  DEV_FIELD(cfg.target_steps),
	  .min = 1,
	  .max = CLYDE_BISECT_MAX_STEPS,
	  .show_range = true,
	  .show_default = true,
	  .help = "runs of --latency-target's bisection" },
	{ .name = "engine",
	  .type = CLYDE_OPT_ENGINE,
	  .group = G_RUN,
	  DEV_FIELD(engine),
	  .show_default = true,
	  .help = "I/O engine" },
	{ .name = "pattern",
	  .type = CLYDE_OPT_ENUM,
	  .group = G_RUN,
	  .arg = "P",
	  .choices = clyde_dev_patterns,
	  DEV_FIELD(pattern),
	  .kind = "a pattern",
	  .show_default = true,
	  .help = "data written: random (every byte new) or zeros "
		  "(bonnie++'s)" },
	{ .name = "verify",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_RUN,
	  DEV_FIELD(cfg.verify),
	  .help = "read back and check every block the write tests wrote "
		  "(exit 3 on a wrong one)" },
	{ .name = "offset",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "S",
	  DEV_FIELD(cfg.offset),
	  .suffixes = "kmgt",
	  .shift = 10,
	  .max = INT64_MAX,
	  .show_default = true,
	  .help = "start of the range" },
	{ .name = "size",
	  .type = CLYDE_OPT_UINT,
	  .group = G_RUN,
	  .arg = "S",
	  DEV_FIELD(cfg.size),
	  .suffixes = "kmgt",
	  .shift = 10,
	  .min = 1,
	  .max = INT64_MAX,
	  .help = "length of the range (to the end)" },
	CLYDE_CLI_OPT_SEED(G_RUN, "random seed (default: from time and pid)",
			   .arg = "N", DEV_FIELD(cfg.seed),
			   DEV_GIVEN(seed_given)),
	{ .name = "destroy-data",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_RUN,
	  DEV_FIELD(cfg.destroy_data),
	  .help = "allow writing over signatures and a device another "
		  "process has open" },
	{ .short_name = 'b',
	  .name = "zcav-block",
	  .type = CLYDE_OPT_CALL,
	  .group = G_ZCAV,
	  .arg = "B[:C]",
	  .call = clyde_dev_zcav_block_opt,
	  .help = "block in MiB (512) and chunk (1m)" },
	{ .short_name = 'c',
	  .name = "zcav-passes",
	  .type = CLYDE_OPT_UINT,
	  .group = G_ZCAV,
	  .arg = "N",
	  DEV_FIELD(cfg.zcav.loops),
	  DEV_GIVEN(loops_given),
	  .min = 1,
	  .max = CLYDE_ZCAV_MAX_LOOPS,
	  .show_default = true,
	  .help = "passes over the range" },
	{ .short_name = 's',
	  .name = "zcav-skip",
	  .type = CLYDE_OPT_UINT,
	  .group = G_ZCAV,
	  .arg = "N",
	  DEV_FIELD(cfg.zcav.skip),
	  .min = CLYDE_ZCAV_MIN_SKIP,
	  .max = CLYDE_ZCAV_MAX_SKIP,
	  .show_range = true,
	  .help = "read every N-th block" },
	{ .short_name = 'w',
	  .name = "zcav-write",
	  .type = CLYDE_OPT_FLAG,
	  .group = G_ZCAV,
	  DEV_FIELD(cfg.zcav.write),
	  .help = "write (--pattern) instead of reading (needs "
		  "--destroy-data where the guards say so)" },
	CLYDE_CLI_LABEL_OPT(struct clyde_dev_cli, G_OUTPUT),
	CLYDE_CLI_DEST_OPTS(struct clyde_dev_cli, G_OUTPUT),
	CLYDE_CLI_OPT_QUIET(G_OUTPUT, "no table", DEV_FIELD(quiet)),
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .group = G_OUTPUT,
	  .help = "this help" },
};

static const char *const dev_groups[] = {
	[G_RUN] = "\nWhat to run:",
	[G_ZCAV] = "zcav (zcav(8)'s letters, as in clyde zcav):",
	[G_OUTPUT] = "Output:",
};

static const struct clyde_optset dev_set = {
	.prog = "clyde dev",
	.opts = dev_table,
	.nopts = sizeof(dev_table) / sizeof(dev_table[0]),
	.groups = dev_groups,
	.ngroups = sizeof(dev_groups) / sizeof(dev_groups[0]),
	.max_operands = 2, /* one; a second is named in the message */
};

static int print_help(void)
{
	struct clyde_dev_cli d;

	clyde_dev_cli_init(&d);
	fputs("Usage: clyde dev [OPTION]... DEVICE\n"
	      "Time sequential and random direct I/O on a block device (or a\n"
	      "regular file standing in for one), and zcav's throughput by "
	      "position.\n"
	      "Writing tests need --destroy-data on a device with a signature "
	      "or\n"
	      "one that another process has open; a mounted device or one in "
	      "use\n"
	      "by md, LVM or device-mapper is never written.\n",
	      stdout);
	clyde_opt_help(&dev_set, &d, stdout);
	fputs("\n"
	      "Sizes take k, m, g, t (KiB, MiB, GiB, TiB); a plain number is "
	      "bytes\n"
	      "(in clyde run and clyde zcav, as in bonnie++ and zcav(8), it is "
	      "MiB).\n"
	      "Exit status: 0 ok, 1 invalid option or refused device "
	      "(nothing\n"
	      "written), 3 a test failed or an output could not be written, 5\n"
	      "interrupted.  See docs/dev.md and clyde(1), DEVICE TESTS.\n",
	      stdout);
	return CLYDE_EXIT_OK; /* stdout is checked at exit (main.c) */
}

static int parse_args(int argc, char **argv, struct clyde_dev_cli *c,
		      bool *help, char *err, size_t len)
{
	const char *ops[2];
	int nops = 0, rc;

	clyde_dev_cli_init(c);
	rc = clyde_opt_parse(&dev_set, argc, argv, c, ops, &nops, err, len);
	*help = rc == CLYDE_OPT_STOP_HELP;
	if (rc == CLYDE_OPT_STOP_HELP)
		return 0;
	if (rc != CLYDE_OPT_PARSED)
		return -1;
	clyde_dev_cli_apply(c);
	if (nops == 0)
		return clyde_cli_bad(err, len,
				     "no device: clyde dev [OPTION]... DEVICE");
	if (nops > 1)
		return clyde_cli_bad(err, len,
				     "one device only (got %s and %s)", ops[0],
				     ops[1]);
	if (clyde_dev_cli_set_path(c, ops[0], err, len) < 0)
		return -1;
	/* By time: the random tests run until the runtime is up, capped by
	 * --rand-ops only when it was given; zcav makes passes until then,
	 * at most -c when it was given. */
	if (c->cfg.runtime_ns && !c->rand_ops_given)
		c->cfg.rand_ops = 0;
	if (c->cfg.runtime_ns && !c->loops_given)
		c->cfg.zcav.loops = CLYDE_ZCAV_MAX_LOOPS;
	if (c->cfg.ramp_ns && !c->cfg.runtime_ns)
		return clyde_cli_bad(err, len,
				     "--ramp: only with --runtime (the ramp "
				     "is the start of a test that runs by "
				     "time)");
	if (c->cfg.steady_pct > 0 && !c->cfg.runtime_ns)
		return clyde_cli_bad(err, len,
				     "--until-steady: only with --runtime "
				     "(the longest a test may run)");
	if (c->cfg.steady_pct > 0 && !c->cfg.log_interval_ns)
		return clyde_cli_bad(err, len,
				     "--until-steady: needs a time series "
				     "(--log-interval 0 records none)");
	if (check_load(&c->cfg, err, len) < 0)
		return -1;
	if (c->json && c->csv && !strcmp(c->json, "-") && !strcmp(c->csv, "-"))
		return clyde_cli_bad(
			err, len,
			"--json - and --csv -: only one of them can have "
			"standard output");
	return 0;
}

int clyde_dev_check_args(int argc, char **argv, char *err, size_t len)
{
	struct clyde_dev_cli c;
	bool help;

	return parse_args(argc, argv, &c, &help, err, len) < 0 ? -1 : 0;
}

int clyde_cmd_dev(int argc, char **argv)
{
	return clyde_dev_cli_main("dev", print_help, parse_args, argc, argv);
}
