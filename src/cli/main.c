/* clyde: dispatch to a subcommand; without one, run the bonnie++ suite. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/commands.h"

/*
 * What the dispatcher does around a command, as git's command table.
 * Every command's standard output is flushed and closed once, after it
 * returns (clyde_cli_stdout_close): a full disk, /dev/full or a closed
 * pipe is one message naming standard output and a non-zero exit, for
 * --help, -V and read-only modes as for results.
 */
enum cmd_flags {
	/* The command measures: an output that could not be written after
	 * a successful run is exit 3 (the measurement failed to reach its
	 * reader; the JSON and the history are written first), not 1. */
	CMD_MEASURES = 1 << 0,
};

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned flags;
} commands[] = {
	{ "run", clyde_cmd_run, CMD_MEASURES },
	{ "tree", clyde_cmd_tree, CMD_MEASURES },
	{ "compare", clyde_cmd_compare, 0 },
	{ "report", clyde_cmd_report, 0 },
	{ "history", clyde_cmd_history, 0 },
	{ "sweep", clyde_cmd_sweep, 0 },
	{ "stack", clyde_cmd_stack, 0 },
	{ "dev", clyde_cmd_dev, CMD_MEASURES },
	{ "zcav", clyde_cmd_zcav, CMD_MEASURES },
};

static int run_command(const char *prog, int (*fn)(int, char **),
		       unsigned flags, int argc, char **argv)
{
	int status;

	clyde_cli_stdout_open();
	status = fn(argc, argv);

	return clyde_cli_stdout_close(prog, status,
				      flags & CMD_MEASURES ?
					      CLYDE_EXIT_TEST_FAILED :
					      CLYDE_EXIT_USAGE);
}

int main(int argc, char **argv)
{
	char prog[32];

	if (argc > 1)
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]);
		     i++)
			if (!strcmp(argv[1], commands[i].name)) {
				snprintf(prog, sizeof(prog), "clyde %s",
					 commands[i].name);
				return run_command(prog, commands[i].fn,
						   commands[i].flags, argc - 1,
						   argv + 1);
			}
	return run_command("clyde", clyde_cmd_run, CMD_MEASURES, argc, argv);
}
