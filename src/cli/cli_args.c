/* Helpers of the subcommands' option parsers (cli_args.h). */
#include "cli/cli_args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/optmodel.h"
#include "core/series.h"
#include "env/settle.h"

int clyde_cli_bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
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

int clyde_cli_log_interval(const struct clyde_opt *o, const char *name,
			   const char *arg, uint64_t *ns, char *err, size_t len)
{
	uint64_t v;

	if (clyde_opt_number(o, name, NULL, arg, &v, err, len))
		return -1;
	if (v && v < CLYDE_SERIES_MIN_MS)
		return clyde_cli_bad(err, len,
				     "%s: %s ms is too short; use a whole "
				     "number of ms from 10 to 3600000 (0: no "
				     "time series)",
				     name, arg);
	*ns = v * 1000000u;
	return 0;
}

int clyde_cli_log_interval_opt(void *base, const struct clyde_opt *o,
			       const char *name, const char *arg, char *err,
			       size_t len)
{
	uint64_t *ns = (uint64_t *)(void *)((char *)base + o->off);

	return clyde_cli_log_interval(o, name, arg, ns, err, len);
}
