/*
 * A message into the caller's buffer, for the checks a command makes
 * after its option table (cli/optmodel.h) has been parsed.
 */
#ifndef CLYDE_CLI_ARGS_H
#define CLYDE_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* Put one message in err (len bytes); returns -1 for the caller to
 * return. */
int clyde_cli_bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
