/*
 * `clyde zcav`: bonnie++'s zcav(8) command line (-b, -c, -r, -s, -w, -l,
 * -f) over `clyde dev --tests zcav`, printing zcav's gnuplot text.  Writing
 * (-w) goes through the same guards as `clyde dev`.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_args.h"
#include "cli/commands.h"
#include "cli/dev_cli.h"
#include "cli/optmodel.h"
#include "cli/outputs.h"
#include "core/size.h"
#include "workloads/dev.h"
#include "workloads/zcav.h"

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

/* -r [start:]end|max: into the range of c->cfg. */
static int opt_range(void *base, const struct clyde_opt *o, const char *name,
		     const char *arg, char *err, size_t len)
{
	struct clyde_dev_cli *c = base;
	uint64_t start, end;

	(void)o;
	(void)name;
	if (parse_range(arg, &start, &end, err, len) < 0)
		return -1;
	c->cfg.offset = start << 20;
	c->cfg.size = end ? (end - start) << 20 : 0;
	return 0;
}

/* zcav(8)'s -u and -g: taken, so that its command lines are understood,
 * and refused with the reason. */
static int opt_refused(void *base, const struct clyde_opt *o, const char *name,
		       const char *arg, char *err, size_t len)
{
	(void)base;
	(void)o;
	(void)arg;
	return clyde_cli_bad(err, len,
			     "%s: clyde zcav does not change user or group "
			     "(run it as the user you want)",
			     name);
}

/* -f DEVICE, or the operand: one device. */
static int opt_device(void *base, const struct clyde_opt *o, const char *name,
		      const char *arg, char *err, size_t len)
{
	struct clyde_dev_cli *c = base;

	(void)o;
	(void)name;
	if (c->device)
		return clyde_cli_bad(err, len,
				     "one device only (got %s and %s)",
				     c->device, arg);
	c->device = arg;
	return 0;
}

#define ZCAV_FIELD(M) CLYDE_OPT_FIELD(struct clyde_dev_cli, M)
#define ZCAV_GIVEN(M) CLYDE_OPT_GIVEN(struct clyde_dev_cli, M)

/*
 * zcav(8)'s options with its letters and meanings (a plain number in -b
 * and -r is MiB, as in zcav), then clyde's own long ones; one entry each
 * (cli/optmodel.h).  To add an option: an entry here and a line in
 * docs/clyde.1.
 */
static const struct clyde_opt zcav_table[] = {
	{ .short_name = 'b',
	  .name = "block",
	  .type = CLYDE_OPT_CALL,
	  .arg = "B[:C]",
	  .call = clyde_dev_zcav_block_opt,
	  .help = "block in MiB (512) and chunk (1: MiB; k, m)" },
	{ .short_name = 'c',
	  .name = "passes",
	  .type = CLYDE_OPT_UINT,
	  .arg = "N",
	  ZCAV_FIELD(cfg.zcav.loops),
	  ZCAV_GIVEN(loops_given),
	  .min = 1,
	  .max = CLYDE_ZCAV_MAX_LOOPS,
	  .show_default = true,
	  .help = "passes over the range" },
	{ .short_name = 'r',
	  .name = "range",
	  .type = CLYDE_OPT_CALL,
	  .arg = "[S:]E|max",
	  .call = opt_range,
	  .help = "range in MiB (default: the whole device)" },
	{ .short_name = 's',
	  .name = "skip",
	  .type = CLYDE_OPT_UINT,
	  .arg = "N",
	  ZCAV_FIELD(cfg.zcav.skip),
	  .min = CLYDE_ZCAV_MIN_SKIP,
	  .max = CLYDE_ZCAV_MAX_SKIP,
	  .show_range = true,
	  .help = "read every N-th block" },
	{ .short_name = 'w',
	  .name = "write",
	  .type = CLYDE_OPT_FLAG,
	  ZCAV_FIELD(cfg.zcav.write),
	  .help = "write: destroys data (guarded as by clyde dev; "
		  "--destroy-data where needed)" },
	{ .short_name = 'u',
	  .type = CLYDE_OPT_CALL,
	  .arg = "USER",
	  .call = opt_refused,
	  .help = "zcav(8)'s; refused (run clyde as that user)" },
	{ .short_name = 'g',
	  .type = CLYDE_OPT_CALL,
	  .arg = "GROUP",
	  .call = opt_refused,
	  .help = "zcav(8)'s; refused (run clyde as that group)" },
	{ .short_name = 'l',
	  .name = "log",
	  .type = CLYDE_OPT_STRING,
	  .arg = "FILE",
	  ZCAV_FIELD(zcav_log),
	  .kind = "file name",
	  .help = "write zcav's text to FILE, not stdout" },
	{ .short_name = 'f',
	  .name = "device",
	  .type = CLYDE_OPT_CALL,
	  .arg = "DEVICE",
	  .call = opt_device,
	  .help = "the device (or give it as the argument)" },
	{ .name = "pattern",
	  .type = CLYDE_OPT_ENUM,
	  .arg = "P",
	  .choices = clyde_dev_patterns,
	  ZCAV_FIELD(pattern),
	  .kind = "a pattern",
	  .show_default = true,
	  .help = "-w's data: random (every byte new) or zeros (what zcav(8) "
		  "writes)" },
	{ .name = "destroy-data",
	  .type = CLYDE_OPT_FLAG,
	  ZCAV_FIELD(cfg.destroy_data),
	  .help = "see clyde dev --help" },
	CLYDE_CLI_DEST_OPTS(struct clyde_dev_cli, 0),
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .help = "this help" },
};

static const struct clyde_optset zcav_set = {
	.prog = "clyde zcav",
	.opts = zcav_table,
	.nopts = sizeof(zcav_table) / sizeof(zcav_table[0]),
	.max_operands = 2, /* one; a second is named in the message */
};

static void zcav_init(struct clyde_dev_cli *c)
{
	clyde_dev_cli_init(c);
	c->cfg.tests = CLYDE_DEV_BIT(CLYDE_DEV_ZCAV);
	c->table = false; /* zcav's text is the output */
}

static int print_help(void)
{
	struct clyde_dev_cli d;

	zcav_init(&d);
	fputs("Usage: clyde zcav [-b block-MiB[:chunk]] [-c count] "
	      "[-r [start:]end|max]\n"
	      "                  [-s skip] [-w] [-l log] [-f] DEVICE\n"
	      "Read (with -w write) DEVICE in blocks and print MiB/s and "
	      "seconds\n"
	      "per position, as bonnie++'s zcav(8) does, with O_DIRECT.  The "
	      "letters and\n"
	      "their meanings are zcav(8)'s; a plain number in -b and -r is "
	      "MiB.\n\n",
	      stdout);
	clyde_opt_help(&zcav_set, &d, stdout);
	return CLYDE_EXIT_OK; /* stdout is checked at exit (main.c) */
}

static int parse_args(int argc, char **argv, struct clyde_dev_cli *c,
		      bool *help, char *err, size_t len)
{
	const char *ops[2], *dev;
	int nops = 0, rc;

	zcav_init(c);
	rc = clyde_opt_parse(&zcav_set, argc, argv, c, ops, &nops, err, len);
	*help = rc == CLYDE_OPT_STOP_HELP;
	if (rc == CLYDE_OPT_STOP_HELP)
		return 0;
	if (rc != CLYDE_OPT_PARSED)
		return -1;
	clyde_dev_cli_apply(c);
	for (int i = 0; i < nops; i++)
		if (opt_device(c, NULL, "-f", ops[i], err, len) < 0)
			return -1;
	dev = c->device;
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
	return clyde_dev_cli_main("zcav", print_help, parse_args, argc, argv);
}
