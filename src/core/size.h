/*
 * Numbers as bonnie++ reads them on its command line: decimal digits and at
 * most one suffix letter, the last character, taken from the set the field
 * allows.  Suffix i of the set multiplies by 2^(first_shift + 10*i), so each
 * suffix is 1024 times the one before it: -s takes "mgt" with first_shift 0
 * (m is plain MiB), a chunk size "k" with first_shift 10.  Suffixes are
 * accepted in either case.
 *
 * Unlike bonnie++ (atoi), nothing is silently ignored: a sign, blanks, a
 * second letter or an unknown suffix is an error, and so is a value that
 * does not fit in 64 bits.
 */
#ifndef CLYDE_CORE_SIZE_H
#define CLYDE_CORE_SIZE_H

#include <stdint.h>

/*
 * Parse s as "digits[suffix]" into *out.  `suffixes` may be "" for a plain
 * number.  Returns 0, -EINVAL when s is not of that form (empty, no digit,
 * a letter not in `suffixes`, anything after the suffix), or -ERANGE when
 * the value (after the suffix's factor) exceeds UINT64_MAX.  *out is only
 * written on success.
 */
int clyde_size_parse(const char *s, const char *suffixes, unsigned first_shift,
		     uint64_t *out);

/* A plain decimal number: clyde_size_parse(s, "", 0, out). */
int clyde_u64_parse(const char *s, uint64_t *out);

/* True when x is a power of two (0 is not). */
static inline int clyde_is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

#endif
