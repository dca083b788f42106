/* `clyde compare`: being written (see the open issue). */
#include <stdio.h>

#include "cli/commands.h"

int clyde_cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "clyde compare: not available in this build yet\n");
	return CLYDE_EXIT_USAGE;
}
