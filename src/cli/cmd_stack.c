/*
 * `clyde stack PATH|DEVICE [--json] [--advise]`: the storage stack under a
 * target as an indented tree (or JSON), and advice on its geometry.
 *
 * Exit status: 0 when the stack was printed (also when the target has no
 * block device: the output says so), 1 for a usage error or a target that
 * cannot be examined.
 *
 * For tests only: CLYDE_TEST_SYSROOT=DIR makes the walker read DIR/sys
 * instead of /sys (a fixture tree, tests/fixtures/sysfs/); the target
 * then names a device of the fixture.  docs/stack.md describes it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/optmodel.h"
#include "core/ctx.h"
#include "env/advise.h"
#include "env/stack.h"
#include "results/stack_out.h"

struct stack_cli {
	bool json, advise;
};

/* The options of `clyde stack`, one entry each (cli/optmodel.h). */
static const struct clyde_opt stack_table[] = {
	{ .name = "json",
	  .type = CLYDE_OPT_FLAG,
	  CLYDE_OPT_FIELD(struct stack_cli, json),
	  .help = "write the stack as JSON to standard output" },
	{ .name = "advise",
	  .type = CLYDE_OPT_FLAG,
	  CLYDE_OPT_FIELD(struct stack_cli, advise),
	  .help = "check the geometry and settings and print each finding "
		  "with the command that fixes it" },
	{ .short_name = 'h',
	  .name = "help",
	  .type = CLYDE_OPT_HELP,
	  .help = "this text" },
};

static const struct clyde_optset stack_set = {
	.prog = "clyde stack",
	.opts = stack_table,
	.nopts = sizeof(stack_table) / sizeof(stack_table[0]),
	.max_operands = 2, /* one; a second is named in the message */
};

static void usage(FILE *f)
{
	fputs("usage: clyde stack [options] PATH|DEVICE\n"
	      "  the filesystem under PATH (or the device DEVICE) and every "
	      "block\n"
	      "  layer below it: partitions, dm/LVM, md RAID, loop, zram, "
	      "and the\n"
	      "  member disks with their queue settings\n",
	      f);
	clyde_opt_help(&stack_set, NULL, f);
}

static void write_json(const struct clyde_stack *s,
		       const struct clyde_advice_list *advice)
{
	struct clyde_jw w;

	clyde_jw_init(&w, stdout);
	clyde_jw_open(&w, NULL, '{');
	clyde_jw_str(&w, "schema", "clyde-stack", 16);
	clyde_jw_u64(&w, "schema_version", 1);
	clyde_stack_json(&w, "stack", s);
	if (advice)
		clyde_advice_json(&w, "advice", advice);
	clyde_jw_close(&w, '}');
	fputc('\n', stdout);
}

int clyde_cmd_stack(int argc, char **argv)
{
	const char *path = NULL, *sysroot = getenv("CLYDE_TEST_SYSROOT");
	bool json = false, advise = false;
	struct clyde_advice_list advice;
	struct clyde_stack s;
	struct clyde_ctx ctx;
	int status = CLYDE_EXIT_USAGE, nops = 0, rc;
	struct stack_cli cli;
	const char *ops[2];
	char err[256];

	memset(&cli, 0, sizeof(cli));
	rc = clyde_opt_parse(&stack_set, argc, argv, &cli, ops, &nops, err,
			     sizeof(err));
	if (rc == CLYDE_OPT_STOP_HELP) {
		usage(stdout);
		return CLYDE_EXIT_OK;
	}
	if (rc != CLYDE_OPT_PARSED) {
		fprintf(stderr, "clyde stack: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (nops > 1) {
		fprintf(stderr,
			"clyde stack: one PATH or DEVICE, not also '%s'\n",
			ops[1]);
		return CLYDE_EXIT_USAGE;
	}
	path = nops ? ops[0] : NULL;
	json = cli.json;
	advise = cli.advise;
	if (!path) {
		fprintf(stderr, "clyde stack: which PATH or DEVICE? (see "
				"clyde stack --help)\n");
		return CLYDE_EXIT_USAGE;
	}

	clyde_ctx_init(&ctx);
	if (clyde_stack_probe(&ctx, sysroot ? sysroot : "", path, &s) != 0) {
		fprintf(stderr, "clyde stack: %s\n", clyde_errmsg(&ctx));
		goto out;
	}
	if (advise)
		clyde_advise(&s, 0, &advice);
	if (json) {
		write_json(&s, advise ? &advice : NULL);
	} else {
		clyde_stack_text(stdout, &s);
		if (advise)
			clyde_advice_text(stdout, &advice);
	}
	status = CLYDE_EXIT_OK; /* stdout is checked at exit (main.c) */
out:
	clyde_stack_free(&s);
	clyde_ctx_release(&ctx);
	return status;
}
