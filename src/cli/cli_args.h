/*
 * Small pieces the option parsers of the subcommands share: a message
 * into the caller's buffer, a whole number in a range, --help.
 */
#ifndef CLYDE_CLI_ARGS_H
#define CLYDE_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* Put one message in err (len bytes); returns -1 for the caller to
 * return. */
int clyde_cli_bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A whole number in [min, max] from option opt's argument arg into *v.
 * Returns 0, or -1 with "OPT \"ARG\": want a number from MIN to MAX" in
 * err. */
int clyde_cli_parse_count(const char *opt, const char *arg, uint64_t min,
			  uint64_t max, uint64_t *v, char *err, size_t len);

/* --settle SECONDS: a number of seconds from 0 to CLYDE_SETTLE_MAX_S
 * (env/settle.h) into *ns.  Returns 0, or -1 with "OPT \"ARG\": want
 * seconds from 0 to 3600 (e.g. 5 or 0.5)" in err. */
int clyde_cli_parse_settle(const char *opt, const char *arg, uint64_t *ns,
			   char *err, size_t len);

/* The default of --settle from the environment: CLYDE_SETTLE=SECONDS
 * (for a shared disk that never settles, or a test suite), into *ns when
 * set.  Returns 0 (unset: *ns unchanged), or -1 with "CLYDE_SETTLE
 * \"ARG\": want seconds ..." in err. */
int clyde_cli_settle_env(uint64_t *ns, char *err, size_t len);

/* getopt_long's ':' (an option without its value) or '?' (an unknown
 * option) for `clyde CMD` as a message in err; returns -1.  Needs optind
 * as getopt_long left it. */
int clyde_cli_getopt_bad(const char *cmd, int o, char **argv, char *err,
			 size_t len);

/* Print a command's help text on stdout; returns the exit status:
 * CLYDE_EXIT_OK, or CLYDE_EXIT_USAGE when stdout could not take it. */
int clyde_cli_help(const char *text);

#endif
