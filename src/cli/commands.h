/* The subcommands: each is one function taking its own argv (argv[0] is the
 * program or subcommand name) and returning the process exit status. */
#ifndef CLYDE_CLI_COMMANDS_H
#define CLYDE_CLI_COMMANDS_H

#include <stddef.h>

/* Exit statuses shared by every command. */
enum clyde_exit {
	CLYDE_EXIT_OK = 0,
	CLYDE_EXIT_USAGE = 1,	    /* invalid option or unusable directory */
	CLYDE_EXIT_TEST_FAILED = 3, /* a test failed: I/O error, no space */
	CLYDE_EXIT_INTERRUPTED = 5, /* SIGINT or SIGTERM */
};

int clyde_cmd_run(int argc, char **argv);
int clyde_cmd_tree(int argc, char **argv);
/* Check `clyde tree` options (argv[0] the program name) as clyde tree
 * would, running nothing: 0 with *dir the -d directory (NULL with
 * --existing), or -1 with the message in err. */
int clyde_tree_check_args(int argc, char **argv, const char **dir, char *err,
			  size_t len);
/* Check `clyde dev` options and its DEVICE (argv[0] the program name) as
 * clyde dev would, running nothing and opening nothing: 0, or -1 with the
 * message in err. */
int clyde_dev_check_args(int argc, char **argv, char *err, size_t len);
int clyde_cmd_compare(int argc, char **argv);
int clyde_cmd_report(int argc, char **argv);
int clyde_cmd_history(int argc, char **argv);
int clyde_cmd_sweep(int argc, char **argv);
int clyde_cmd_stack(int argc, char **argv);
int clyde_cmd_dev(int argc, char **argv);
int clyde_cmd_zcav(int argc, char **argv);

/* clyde-mpi: `run` on one rank of a distributed run (dist/dist.h); NULL
 * is plain clyde run. */
struct clyde_dist;
int clyde_cmd_run_dist(int argc, char **argv, struct clyde_dist *dist);
int clyde_cmd_tree_dist(int argc, char **argv, struct clyde_dist *dist);

#endif
