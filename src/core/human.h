/*
 * Numbers in units a person reads, for clyde's own text: three
 * significant digits and a space before the unit, a '.' whatever
 * LC_NUMERIC says.  results/format.h has the rates and durations built on
 * these; the bytes are here so that a target kind's text (io/) writes
 * them as the rest does.
 */
#ifndef CLYDE_CORE_HUMAN_H
#define CLYDE_CORE_HUMAN_H

#include <stddef.h>

/* Every ',' of buf made a '.' (snprintf's %f follows LC_NUMERIC).
 * Returns buf. */
char *clyde_fmt_point(char *buf);

/* v with three significant digits and the unit: "2.91 GiB/s". */
char *clyde_fmt_sig3(char *buf, size_t len, double v, const char *unit);

/* v scaled by 1024 until it rounds to below 1000, with units[k] (k <
 * nunits). */
char *clyde_fmt_binary(char *buf, size_t len, double v,
		       const char *const *units, int nunits);

/* "0 B", "812 B", "1.50 MiB", "2.00 TiB"; "n/a" for a negative value,
 * NaN or infinity. */
char *clyde_fmt_human_bytes(char *buf, size_t len, double bytes);

#endif
