/*
 * A message into the caller's buffer, for the checks a command makes
 * after its option table (cli/optmodel.h) has been parsed.
 */
#ifndef CLYDE_CLI_ARGS_H
#define CLYDE_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "core/series.h"
#include "env/settle.h"

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

/* --log-interval's CALL entry (CLYDE_CLI_OPT_LOG_INTERVAL): the uint64_t
 * nanoseconds at o->off. */
int clyde_cli_log_interval_opt(void *base, const struct clyde_opt *o,
			       const char *name, const char *arg, char *err,
			       size_t len);

/*
 * The options several commands share, each defined once here: its name,
 * type, argument and checks.  A command's table gives GROUP (0: none),
 * its help line (what the option does in that command) and, after them,
 * the field (CLYDE_OPT_FIELD, CLYDE_OPT_GIVEN) and anything of its own
 * (run's -z for --seed).
 */
#define CLYDE_CLI_OPT_DB(GROUP, HELP, ...)                                 \
	{                                                                  \
		.name = "db", .type = CLYDE_OPT_STRING, .group = (GROUP),  \
		.arg = "PATH", .kind = "path", .help = (HELP), __VA_ARGS__ \
	}
#define CLYDE_CLI_OPT_QUIET(GROUP, HELP, ...)                               \
	{                                                                   \
		.short_name = 'q', .name = "quiet", .type = CLYDE_OPT_FLAG, \
		.group = (GROUP), .help = (HELP), __VA_ARGS__               \
	}
#define CLYDE_CLI_OPT_SEED(GROUP, HELP, ...)                              \
	{                                                                 \
		.name = "seed", .type = CLYDE_OPT_UINT, .group = (GROUP), \
		.help = (HELP), __VA_ARGS__                               \
	}
#define CLYDE_CLI_OPT_SETTLE(GROUP, HELP, ...)                                 \
	{                                                                      \
		.name = "settle", .type = CLYDE_OPT_SECONDS, .group = (GROUP), \
		.arg = "SECONDS", .dmin = 0, .dmax = CLYDE_SETTLE_MAX_S,       \
		.form = "use seconds from 0 to 3600, e.g. 5 or 0.5",           \
		.help = (HELP), __VA_ARGS__                                    \
	}
#define CLYDE_CLI_OPT_LOG_INTERVAL(GROUP, HELP, ...)                               \
	{                                                                          \
		.name = "log-interval", .type = CLYDE_OPT_CALL,                    \
		.call = clyde_cli_log_interval_opt, .group = (GROUP),              \
		.arg = "MS", .suffixes = "", .min = 0,                             \
		.max = CLYDE_SERIES_MAX_MS,                                        \
		.kind = "an interval in milliseconds",                             \
		.form = "use a whole number of ms from 10 to 3600000 (0: no time " \
			"series), e.g. 1000",                                      \
		.help = (HELP), __VA_ARGS__                                        \
	}

#endif
