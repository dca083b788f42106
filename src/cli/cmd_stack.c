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
#include "core/ctx.h"
#include "env/advise.h"
#include "env/stack.h"
#include "results/stack_out.h"

static void usage(FILE *f)
{
	fputs("usage: clyde stack [options] PATH|DEVICE\n"
	      "  the filesystem under PATH (or the device DEVICE) and every "
	      "block\n"
	      "  layer below it: partitions, dm/LVM, md RAID, loop, zram, "
	      "and the\n"
	      "  member disks with their queue settings\n"
	      "  --json            write the stack as JSON to standard output\n"
	      "  --advise          check the geometry and settings and print "
	      "each\n"
	      "                    finding with the command that fixes it\n"
	      "  -h, --help        this text\n",
	      f);
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
	int status = CLYDE_EXIT_USAGE;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return CLYDE_EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--advise")) {
			advise = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr,
				"clyde stack: unknown option '%s' (--json, "
				"--advise, --help)\n",
				argv[i]);
			return CLYDE_EXIT_USAGE;
		} else if (path) {
			fprintf(stderr,
				"clyde stack: one PATH or DEVICE, not also "
				"'%s'\n",
				argv[i]);
			return CLYDE_EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
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
	if (clyde_cli_stdout_done("stack") == 0)
		status = CLYDE_EXIT_OK;
out:
	clyde_stack_free(&s);
	clyde_ctx_release(&ctx);
	return status;
}
