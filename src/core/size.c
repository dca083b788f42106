#include "core/size.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

int clyde_size_parse(const char *s, const char *suffixes, unsigned first_shift,
		     uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift;
	const char *p = s, *hit;
	int overflow = 0;

	if (!s || !isdigit((unsigned char)*p))
		return -EINVAL;
	/* Keep scanning after an overflow so that "99999999999999999999x"
	 * is reported as malformed rather than as too large. */
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	if (*p) {
		/* One suffix letter, and it must be the last character. */
		if (p[1] || !isalpha((unsigned char)*p))
			return -EINVAL;
		hit = strchr(suffixes, tolower((unsigned char)*p));
		if (!hit)
			return -EINVAL;
		shift = first_shift + 10u * (unsigned)(hit - suffixes);
		if (shift >= 64 || (v && v > (UINT64_MAX >> shift)))
			overflow = 1;
		else
			v <<= shift;
	}
	if (overflow)
		return -ERANGE;
	*out = v;
	return 0;
}

int clyde_u64_parse(const char *s, uint64_t *out)
{
	return clyde_size_parse(s, "", 0, out);
}
