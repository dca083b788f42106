/* clyde: dispatch to a subcommand; without one, run the bonnie++ suite. */
#include <string.h>

#include "cli/commands.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", clyde_cmd_run },	  { "tree", clyde_cmd_tree },
	{ "compare", clyde_cmd_compare }, { "report", clyde_cmd_report },
	{ "history", clyde_cmd_history }, { "sweep", clyde_cmd_sweep },
	{ "stack", clyde_cmd_stack },	  { "dev", clyde_cmd_dev },
	{ "zcav", clyde_cmd_zcav },
};

int main(int argc, char **argv)
{
	if (argc > 1)
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]);
		     i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].fn(argc - 1, argv + 1);
	return clyde_cmd_run(argc, argv);
}
