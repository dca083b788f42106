/* Helpers of the subcommands' option parsers (cli_args.h). */
#include "cli/cli_args.h"

#include <stdarg.h>
#include <stdio.h>

int clyde_cli_bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}
