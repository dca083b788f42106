/*
 * `clyde dev DEVICE`: raw block-device tests and zcav, guarded.  This file
 * reads the command line; dev_cli.c runs and reports.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_args.h"
#include "cli/commands.h"
#include "cli/dev_cli.h"
#include "cli/outputs.h"
#include "core/size.h"
#include "io/engine.h"
#include "workloads/dev.h"
#include "workloads/zcav.h"

static const char help_text[] =
	"Usage: clyde dev [OPTION]... DEVICE\n"
	"Time sequential and random direct I/O on a block device (or a\n"
	"regular file standing in for one), and zcav's throughput by "
	"position.\n"
	"Writing tests need --destroy-data on a device with a signature or\n"
	"one that another process has open; a mounted device or one in use\n"
	"by md, LVM or device-mapper is never written.\n"
	"\n"
	"What to run:\n"
	"      --tests LIST       comma list of seqwrite, seqread, randread,\n"
	"                         randwrite, zcav, or all (all but zcav);\n"
	"                         default seqwrite,seqread\n"
	"      --bs S             sequential request size (1m)\n"
	"      --rand-bs S        random request size (4k)\n"
	"      --rand-ops N       requests per random test (16384; with\n"
	"                         --runtime only when given: a cap)\n"
	"      --runtime S        run every test for S seconds (a sequential\n"
	"                         one goes round the range; zcav makes passes\n"
	"                         until then, -c at most)\n"
	"      --ramp S           with --runtime: S seconds first that count\n"
	"                         in no figure (zcav: untimed reading)\n"
	"      --until-steady P   with --runtime: stop a test once the slope\n"
	"                         of its IOPS over the last --steady-window\n"
	"                         intervals is within P% of their mean per\n"
	"                         second (fio's ss=iops_slope)\n"
	"      --steady-window N  intervals of that window, 2-1000 (5)\n"
	"      --log-interval MS  time series interval in the JSON, 10 to\n"
	"                         3600000 ms (1000; 0: none)\n"
	"      --iodepth N        requests in flight, 1-1024 (1 with psync,\n"
	"                         which takes no other; 32 with io_uring)\n"
	"      --engine E         I/O engine: psync or io_uring (psync)\n"
	"      --pattern P        data written: random (default: every byte\n"
	"                         new) or zeros (bonnie++'s)\n"
	"      --offset S         start of the range (0)\n"
	"      --size S           length of the range (to the end)\n"
	"      --seed N           random seed (default: from time and pid)\n"
	"      --destroy-data     allow writing over signatures and a device\n"
	"                         another process has open\n"
	"zcav (as zcav(8)):\n"
	"  -b B[:C]               block in MiB (512) and chunk (1m)\n"
	"  -c N                   passes over the range (1)\n"
	"  -s N                   read every N-th block, 2-20\n"
	"  -w                     write (--pattern) instead of reading (needs\n"
	"                         --destroy-data where the guards say so)\n"
	"Output:\n" CLYDE_CLI_DEST_HELP "  -q, --quiet            no table\n"
	"  -h, --help             this help\n"
	"\n"
	"Sizes take k, m, g, t (KiB, MiB, GiB, TiB); a plain number is bytes.\n"
	"Exit status: 0 ok, 1 invalid option or refused device (nothing\n"
	"written), 3 a test failed or an output could not be written, 5\n"
	"interrupted.  See docs/dev.md and clyde(1), DEVICE TESTS.\n";

enum {
	OPT_TESTS = 256,
	OPT_BS,
	OPT_RAND_BS,
	OPT_RAND_OPS,
	OPT_IODEPTH,
	OPT_ENGINE,
	OPT_OFFSET,
	OPT_SIZE,
	OPT_SEED,
	OPT_DESTROY,
	OPT_PATTERN,
	OPT_RUNTIME,
	OPT_RAMP,
	OPT_UNTIL_STEADY,
	OPT_STEADY_WINDOW,
	OPT_LOG_INTERVAL,
};

static const struct option long_opts[] = {
	{ "tests", required_argument, NULL, OPT_TESTS },
	{ "bs", required_argument, NULL, OPT_BS },
	{ "rand-bs", required_argument, NULL, OPT_RAND_BS },
	{ "rand-ops", required_argument, NULL, OPT_RAND_OPS },
	{ "iodepth", required_argument, NULL, OPT_IODEPTH },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "destroy-data", no_argument, NULL, OPT_DESTROY },
	{ "pattern", required_argument, NULL, OPT_PATTERN },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "ramp", required_argument, NULL, OPT_RAMP },
	{ "until-steady", required_argument, NULL, OPT_UNTIL_STEADY },
	{ "steady-window", required_argument, NULL, OPT_STEADY_WINDOW },
	{ "log-interval", required_argument, NULL, OPT_LOG_INTERVAL },
	{ "label", required_argument, NULL, 'm' },
	CLYDE_CLI_DEST_LONG_OPTS,
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A size with k/m/g/t (plain: bytes) in [min, max]. */
static int parse_size(const char *opt, const char *s, uint64_t min,
		      uint64_t max, uint64_t *out, char *err, size_t len)
{
	uint64_t v;

	if (clyde_size_parse(s, "kmgt", 10, &v) < 0 || v < min || v > max)
		return clyde_cli_bad(
			err, len,
			"%s \"%s\": want a size from %llu to %llu bytes "
			"(k, m, g, t suffixes)",
			opt, s, (unsigned long long)min,
			(unsigned long long)max);
	*out = v;
	return 0;
}

int clyde_dev_zcav_block_parse(const char *s, struct clyde_zcav_config *z,
			       char *err, size_t len)
{
	char block[32];
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t v;

	if (n >= sizeof(block))
		n = sizeof(block) - 1;
	memcpy(block, s, n);
	block[n] = '\0';
	/* The block is in MiB; the chunk a size whose plain number is MiB,
	 * as zcav reads them. */
	if (clyde_size_parse(block, "g", 10, &v) < 0 || v < 1 || v > (1u << 20))
		return clyde_cli_bad(
			err, len,
			"-b \"%s\": want block-MiB[:chunk], the block "
			"from 1 to 1048576 MiB",
			s);
	z->block_bytes = v << 20;
	if (!colon)
		return 0;
	if (clyde_size_parse(colon + 1, "", 0, &v) == 0 && v >= 1 && v <= 1024)
		v <<= 20;
	else if (clyde_size_parse(colon + 1, "km", 10, &v) < 0 || v < 512 ||
		 v > (1u << 30))
		return clyde_cli_bad(
			err, len,
			"-b \"%s\": the chunk must be 512 bytes to 1 GiB "
			"(a plain number is MiB; k and m suffixes)",
			s);
	z->chunk_bytes = v;
	return 0;
}

int clyde_dev_pattern_parse(const char *arg, struct clyde_dev_config *cfg,
			    char *err, size_t len)
{
	if (!strcmp(arg, "random") || !strcmp(arg, "zeros")) {
		cfg->zeros = !strcmp(arg, "zeros");
		return 0;
	}
	return clyde_cli_bad(err, len, "--pattern \"%s\": want random or zeros",
			     arg);
}

/* Seconds (a decimal number, above 0; 0 too when zero_ok) into ns, up to
 * a million seconds. */
static int parse_seconds(const char *opt, const char *arg, bool zero_ok,
			 uint64_t *ns, char *err, size_t len)
{
	char *end = NULL;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= 0) || v > 1e6 || (!zero_ok && v == 0))
		return clyde_cli_bad(err, len,
				     "%s \"%s\": want a number of seconds "
				     "%s 0 up to 1000000",
				     opt, arg, zero_ok ? "from" : "above");
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

/* The value options of `clyde dev`; 0 or -1 with the message. */
static int dev_option(int o, const char *arg, struct clyde_dev_cli *c,
		      char *err, size_t len)
{
	struct clyde_dev_config *cfg = &c->cfg;
	char name[64];
	uint64_t v = 0;
	int rc = 0;

	switch (o) {
	case OPT_TESTS:
		if (clyde_dev_tests_parse(arg, &cfg->tests, name,
					  sizeof(name)) < 0)
			return clyde_cli_bad(
				err, len,
				"--tests: unknown test \"%s\" (seqwrite, "
				"seqread, randread, randwrite, zcav, all)",
				name);
		break;
	case OPT_BS:
	case OPT_RAND_BS:
		rc = parse_size(o == OPT_BS ? "--bs" : "--rand-bs", arg, 512,
				1u << 30, &v, err, len);
		if (rc == 0 && o == OPT_BS)
			cfg->bs = (uint32_t)v;
		else if (rc == 0)
			cfg->rand_bs = (uint32_t)v;
		break;
	case OPT_RAND_OPS:
		rc = clyde_cli_parse_count("--rand-ops", arg, 1, UINT32_MAX,
					   &cfg->rand_ops, err, len);
		c->rand_ops_given = true;
		break;
	case OPT_RUNTIME:
	case OPT_RAMP:
		rc = parse_seconds(o == OPT_RUNTIME ? "--runtime" : "--ramp",
				   arg, o == OPT_RAMP,
				   o == OPT_RUNTIME ? &cfg->runtime_ns :
						      &cfg->ramp_ns,
				   err, len);
		break;
	case OPT_UNTIL_STEADY: {
		char *end = NULL;
		double pct = strtod(arg, &end);

		if (end == arg || *end || !(pct > 0) || pct > 100)
			return clyde_cli_bad(err, len,
					     "--until-steady \"%s\": want a "
					     "percentage above 0 up to 100, "
					     "e.g. 2",
					     arg);
		cfg->steady_pct = pct;
		break;
	}
	case OPT_STEADY_WINDOW:
		rc = clyde_cli_parse_count("--steady-window", arg, 2, 1000, &v,
					   err, len);
		cfg->steady_window = (uint32_t)v;
		break;
	case OPT_LOG_INTERVAL:
		rc = clyde_cli_parse_count("--log-interval", arg, 0,
					   CLYDE_SERIES_MAX_MS, &v, err, len);
		if (rc == 0 && v && v < CLYDE_SERIES_MIN_MS)
			return clyde_cli_bad(err, len,
					     "--log-interval \"%s\": want 0 "
					     "(no time series) or 10 to "
					     "3600000 ms",
					     arg);
		cfg->log_interval_ns = v * 1000000u;
		break;
	case OPT_IODEPTH:
		rc = clyde_cli_parse_count("--iodepth", arg, 1,
					   CLYDE_DEV_MAX_IODEPTH, &v, err, len);
		cfg->iodepth = (uint32_t)v;
		break;
	case OPT_ENGINE:
		if (!clyde_engine_find(arg))
			return clyde_cli_bad(err, len,
					     "--engine \"%s\": want one of %s",
					     arg, clyde_engine_names());
		snprintf(cfg->engine, sizeof(cfg->engine), "%s", arg);
		break;
	case OPT_OFFSET:
		rc = parse_size("--offset", arg, 0, INT64_MAX, &cfg->offset,
				err, len);
		break;
	case OPT_SIZE:
		rc = parse_size("--size", arg, 1, INT64_MAX, &cfg->size, err,
				len);
		break;
	case OPT_SEED:
		rc = clyde_cli_parse_count("--seed", arg, 0, UINT64_MAX,
					   &cfg->seed, err, len);
		c->seed_given = true;
		break;
	case 'b':
		rc = clyde_dev_zcav_block_parse(arg, &cfg->zcav, err, len);
		break;
	case 'c':
		rc = clyde_cli_parse_count("-c", arg, 1, CLYDE_ZCAV_MAX_LOOPS,
					   &v, err, len);
		cfg->zcav.loops = (uint32_t)v;
		c->loops_given = true;
		break;
	case 's':
		rc = clyde_cli_parse_count("-s", arg, CLYDE_ZCAV_MIN_SKIP,
					   CLYDE_ZCAV_MAX_SKIP, &v, err, len);
		cfg->zcav.skip = (uint32_t)v;
		break;
	case OPT_PATTERN:
		rc = clyde_dev_pattern_parse(arg, cfg, err, len);
		break;
	case 'm':
		snprintf(cfg->label, sizeof(cfg->label), "%s", arg);
		break;
	case CLYDE_OPT_JSON:
		c->json = arg;
		break;
	case CLYDE_OPT_CSV:
		c->csv = arg;
		break;
	case CLYDE_OPT_DB:
		c->db = arg;
		break;
	default:
		return 1;
	}
	return rc;
}

static int parse_args(int argc, char **argv, struct clyde_dev_cli *c,
		      bool *help, char *err, size_t len)
{
	int o;

	memset(c, 0, sizeof(*c));
	clyde_dev_config_init(&c->cfg);
	c->table = true;
	*help = false;
	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, ":b:c:s:wm:qh", long_opts, NULL)) !=
	       -1) {
		int rc;

		switch (o) {
		case OPT_DESTROY:
			c->cfg.destroy_data = true;
			continue;
		case CLYDE_OPT_NO_SAVE:
			c->no_save = true;
			continue;
		case 'w':
			c->cfg.zcav.write = true;
			continue;
		case 'q':
			c->quiet = true;
			continue;
		case 'h':
			*help = true;
			return 0;
		case ':':
		case '?':
			return clyde_cli_getopt_bad("dev", o, argv, err, len);
		}
		rc = dev_option(o, optarg, c, err, len);
		if (rc != 0)
			return -1;
	}
	if (optind >= argc)
		return clyde_cli_bad(err, len,
				     "no device: clyde dev [OPTION]... DEVICE");
	if (optind + 1 < argc)
		return clyde_cli_bad(err, len,
				     "one device only (got %s and %s)",
				     argv[optind], argv[optind + 1]);
	if (clyde_dev_cli_set_path(c, argv[optind], err, len) < 0)
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
	if (c->json && c->csv && !strcmp(c->json, "-") && !strcmp(c->csv, "-"))
		return clyde_cli_bad(
			err, len,
			"--json - and --csv -: only one of them can have "
			"standard output");
	return 0;
}

int clyde_cmd_dev(int argc, char **argv)
{
	return clyde_dev_cli_main("dev", help_text, parse_args, argc, argv);
}
