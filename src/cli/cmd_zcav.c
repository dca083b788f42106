/*
 * `clyde zcav`: bonnie++'s zcav(8) command line (-b, -c, -r, -s, -w, -l,
 * -f) over `clyde dev --tests zcav`, printing zcav's gnuplot text.  Writing
 * (-w) goes through the same guards as `clyde dev`.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_args.h"
#include "cli/commands.h"
#include "cli/dev_cli.h"
#include "cli/outputs.h"
#include "core/size.h"
#include "workloads/dev.h"
#include "workloads/zcav.h"

static const char help_text[] =
	"Usage: clyde zcav [-b block-MiB[:chunk]] [-c count] "
	"[-r [start:]end|max]\n"
	"                  [-s skip] [-w] [-l log] [-f] DEVICE\n"
	"Read (with -w write) DEVICE in blocks and print MiB/s and seconds\n"
	"per position, as bonnie++'s zcav(8) does, with O_DIRECT.\n"
	"\n"
	"  -b B[:C]               block in MiB (512) and chunk (1: MiB; k, m)\n"
	"  -c N                   passes over the range (1)\n"
	"  -r [S:]E | max         range in MiB (default: the whole device)\n"
	"  -s N                   read every N-th block, 2-20\n"
	"  -w                     write: destroys data (guarded as by\n"
	"                         clyde dev; --destroy-data where needed)\n"
	"      --pattern P        -w's data: random (default: every byte\n"
	"                         new) or zeros (what zcav(8) writes)\n"
	"  -l FILE                write zcav's text to FILE, not stdout\n"
	"  -f DEVICE              the device (or give it as the argument)\n"
	"      --destroy-data     see clyde dev --help\n"
	"      --json FILE        write the result as JSON (- for stdout)\n"
	"      --csv FILE         append a CSV line (as clyde dev)\n"
	"      --db PATH          results history to save the run in\n"
	"      --no-save          do not save the run in the history\n"
	"  -h, --help             this help\n";

enum {
	OPT_DESTROY = 256,
	OPT_PATTERN,
};

static const struct option long_opts[] = {
	{ "destroy-data", no_argument, NULL, OPT_DESTROY },
	{ "pattern", required_argument, NULL, OPT_PATTERN },
	CLYDE_CLI_DEST_LONG_OPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* -r [start:]end in MiB, or "max"; rounded to the block later. */
static int parse_range(const char *s, uint64_t *start, uint64_t *end, char *err,
		       size_t len)
{
	const char *colon = strchr(s, ':');
	char first[32];

	*start = 0;
	*end = 0;
	if (!strcmp(s, "max"))
		return 0;
	if (colon) {
		size_t n = (size_t)(colon - s);

		if (n == 0 || n >= sizeof(first))
			goto fail;
		memcpy(first, s, n);
		first[n] = '\0';
		if (clyde_u64_parse(first, start) < 0)
			goto fail;
		s = colon + 1;
	}
	if (clyde_u64_parse(s, end) < 0 || *end == 0 || *end <= *start ||
	    *end > (UINT64_MAX >> 21))
		goto fail;
	return 0;
fail:
	return clyde_cli_bad(
		err, len,
		"-r: want [start:]end in MiB with start < end, or max");
}

/* zcav rounds both ends of the range down to whole blocks, and stops at
 * the end of the device. */
static int round_range(struct clyde_dev_config *cfg, char *err, size_t len)
{
	uint64_t b = cfg->zcav.block_bytes;
	uint64_t end = cfg->offset + cfg->size;

	if (!cfg->size)
		return 0;
	cfg->offset -= cfg->offset % b;
	cfg->size = end - end % b - cfg->offset;
	if (!cfg->size)
		return clyde_cli_bad(err, len,
				     "-r: the range holds no whole block of "
				     "%llu MiB",
				     (unsigned long long)(b >> 20));
	return 0;
}

static int zcav_option(int o, const char *arg, struct clyde_dev_cli *c,
		       char *err, size_t len)
{
	uint64_t v = 0, start, end;

	switch (o) {
	case 'b':
		return clyde_dev_zcav_block_parse(arg, &c->cfg.zcav, err, len);
	case 'c':
	case 's':
		if (clyde_u64_parse(arg, &v) < 0 ||
		    (o == 'c' && (v < 1 || v > CLYDE_ZCAV_MAX_LOOPS)) ||
		    (o == 's' &&
		     (v < CLYDE_ZCAV_MIN_SKIP || v > CLYDE_ZCAV_MAX_SKIP)))
			return clyde_cli_bad(
				err, len,
				"-%c \"%s\": want a number from %u to %u", o,
				arg, o == 'c' ? 1 : CLYDE_ZCAV_MIN_SKIP,
				o == 'c' ? CLYDE_ZCAV_MAX_LOOPS :
					   CLYDE_ZCAV_MAX_SKIP);
		if (o == 'c')
			c->cfg.zcav.loops = (uint32_t)v;
		else
			c->cfg.zcav.skip = (uint32_t)v;
		return 0;
	case 'r':
		if (parse_range(arg, &start, &end, err, len) < 0)
			return -1;
		c->cfg.offset = start << 20;
		c->cfg.size = end ? (end - start) << 20 : 0;
		return 0;
	case 'u':
	case 'g':
		return clyde_cli_bad(
			err, len,
			"-%c: clyde zcav does not change user or group "
			"(run it as the user you want)",
			o);
	case 'l':
		c->zcav_log = arg;
		return 0;
	case OPT_PATTERN:
		return clyde_dev_pattern_parse(arg, &c->cfg, err, len);
	case CLYDE_OPT_JSON:
		c->json = arg;
		return 0;
	case CLYDE_OPT_CSV:
		c->csv = arg;
		return 0;
	case CLYDE_OPT_DB:
		c->db = arg;
		return 0;
	}
	return clyde_cli_bad(err, len, "unknown option");
}

static int parse_args(int argc, char **argv, struct clyde_dev_cli *c,
		      bool *help, char *err, size_t len)
{
	const char *dev = NULL;
	int o;

	memset(c, 0, sizeof(*c));
	clyde_dev_config_init(&c->cfg);
	c->cfg.tests = CLYDE_DEV_BIT(CLYDE_DEV_ZCAV);
	*help = false;
	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, ":b:c:r:s:wu:g:l:f:h", long_opts,
				NULL)) != -1) {
		switch (o) {
		case 'w':
			c->cfg.zcav.write = true;
			break;
		case OPT_DESTROY:
			c->cfg.destroy_data = true;
			break;
		case CLYDE_OPT_NO_SAVE:
			c->no_save = true;
			break;
		case 'f':
			if (dev)
				return clyde_cli_bad(
					err, len,
					"one device only (got %s and %s)", dev,
					optarg);
			dev = optarg;
			break;
		case 'h':
			*help = true;
			return 0;
		case ':':
		case '?':
			return clyde_cli_getopt_bad("zcav", o, argv, err, len);
		default:
			if (zcav_option(o, optarg, c, err, len) < 0)
				return -1;
		}
	}
	for (; optind < argc; optind++) {
		if (dev)
			return clyde_cli_bad(err, len,
					     "one device only (got %s and %s)",
					     dev, argv[optind]);
		dev = argv[optind];
	}
	if (!dev)
		return clyde_cli_bad(
			err, len, "no device: clyde zcav [OPTION]... DEVICE");
	if (!strcmp(dev, "-"))
		return clyde_cli_bad(
			err, len,
			"-: clyde zcav reads devices and files, not "
			"standard input (it needs O_DIRECT)");
	if (clyde_dev_cli_set_path(c, dev, err, len) < 0)
		return -1;
	if (c->json && !strcmp(c->json, "-") && !c->zcav_log)
		return clyde_cli_bad(
			err, len,
			"--json -: zcav's text has standard output; add "
			"-l FILE for it");
	c->cfg.clamp_range = true;
	return round_range(&c->cfg, err, len);
}

int clyde_cmd_zcav(int argc, char **argv)
{
	return clyde_dev_cli_main("zcav", help_text, parse_args, argc, argv);
}
