/*
 * Numbers in units a person reads (core/human.h).
 */
#include "core/human.h"

#include <math.h>
#include <stdio.h>

char *clyde_fmt_point(char *buf)
{
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	return buf;
}

char *clyde_fmt_sig3(char *buf, size_t len, double v, const char *unit)
{
	if (v < 9.995)
		snprintf(buf, len, "%.2f %s", v, unit);
	else if (v < 99.95)
		snprintf(buf, len, "%.1f %s", v, unit);
	else
		snprintf(buf, len, "%.0f %s", v, unit);
	return clyde_fmt_point(buf);
}

char *clyde_fmt_binary(char *buf, size_t len, double v,
		       const char *const *units, int nunits)
{
	int k = 0;

	while (v >= 999.5 && k + 1 < nunits) {
		v /= 1024.0;
		k++;
	}
	return clyde_fmt_sig3(buf, len, v, units[k]);
}

char *clyde_fmt_human_bytes(char *buf, size_t len, double bytes)
{
	static const char *const units[] = { "B",   "KiB", "MiB",
					     "GiB", "TiB", "PiB" };

	if (!isfinite(bytes) || bytes < 0.0) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	/* Below a KiB a byte count is whole: "812 B", not "812.00 B". */
	if (bytes < 999.5) {
		snprintf(buf, len, "%.0f B", bytes);
		return buf;
	}
	return clyde_fmt_binary(buf, len, bytes, units, 6);
}
