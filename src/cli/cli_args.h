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

struct clyde_opt;

/* --log-interval MS, for the CALL entry of run and dev (the model's UINT
 * range is o's; the gap between 0 and CLYDE_SERIES_MIN_MS is checked
 * here): 0 (no time series) or 10 ms to an hour, into *ns.  Returns 0, or
 * -1 with the message in err. */
int clyde_cli_log_interval(const struct clyde_opt *o, const char *name,
			   const char *arg, uint64_t *ns, char *err,
			   size_t len);

#endif
