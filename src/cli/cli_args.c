/* Helpers of the subcommands' option parsers (cli_args.h). */
#include "cli/cli_args.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "core/size.h"
#include "env/settle.h"

int clyde_cli_bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

int clyde_cli_parse_count(const char *opt, const char *arg, uint64_t min,
			  uint64_t max, uint64_t *v, char *err, size_t len)
{
	if (clyde_u64_parse(arg, v) < 0 || *v < min || *v > max)
		return clyde_cli_bad(err, len,
				     "%s \"%s\": want a number from %llu to "
				     "%llu",
				     opt, arg, (unsigned long long)min,
				     (unsigned long long)max);
	return 0;
}

int clyde_cli_parse_settle(const char *opt, const char *arg, uint64_t *ns,
			   char *err, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* isfinite: "inf" and "nan" parse too. */
	if (!*arg || *end || errno || !(v >= 0.0) || v > CLYDE_SETTLE_MAX_S)
		return clyde_cli_bad(err, len,
				     "%s \"%s\": want seconds from 0 to %.0f "
				     "(e.g. 5 or 0.5)",
				     opt, arg, CLYDE_SETTLE_MAX_S);
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

int clyde_cli_settle_env(uint64_t *ns, char *err, size_t len)
{
	const char *v = getenv("CLYDE_SETTLE");

	if (!v)
		return 0;
	return clyde_cli_parse_settle("CLYDE_SETTLE", v, ns, err, len);
}

int clyde_cli_getopt_bad(const char *cmd, int o, char **argv, char *err,
			 size_t len)
{
	if (o == ':')
		return clyde_cli_bad(err, len, "%s needs a value",
				     argv[optind - 1]);
	return clyde_cli_bad(err, len,
			     "unknown option %s (clyde %s --help lists them)",
			     argv[optind - 1], cmd);
}

int clyde_cli_help(const char *text)
{
	fputs(text, stdout);
	return fflush(stdout) ? CLYDE_EXIT_USAGE : CLYDE_EXIT_OK;
}
