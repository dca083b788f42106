/*
 * A map from strings to numbers (open addressing, FNV-1a), so that a
 * loop over thousands of names (a fio JSON's jobs, a CSV's lines) looks
 * each one up once instead of against every other: the compare table's
 * labels, tests and settings groups are linear in the input.  The map
 * owns copies of its keys.
 */
#ifndef CLYDE_CORE_STRMAP_H
#define CLYDE_CORE_STRMAP_H

#include <stddef.h>

struct clyde_strmap {
	size_t cap, n;	/* slots (a power of two or 0), keys stored */
	char **keys;	/* cap, owned; NULL: a free slot */
	size_t *values; /* cap */
};

void clyde_strmap_init(struct clyde_strmap *m);
void clyde_strmap_release(struct clyde_strmap *m);

/* The value stored under key, or NULL when key is not in the map.  The
 * pointer is valid until the next clyde_strmap_put(). */
size_t *clyde_strmap_get(const struct clyde_strmap *m, const char *key);

/* Store key with `value` unless it is there already; either way *slot
 * (when not NULL) points at its value.  Returns 1 when added, 0 when it
 * was there, -ENOMEM. */
int clyde_strmap_put(struct clyde_strmap *m, const char *key, size_t value,
		     size_t **slot);

#endif
