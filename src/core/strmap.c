/* Strings to numbers: see strmap.h. */
#include "core/strmap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return (size_t)h;
}

/* The slot of key, or of the free slot where it would go. */
static size_t find(const struct clyde_strmap *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

void clyde_strmap_init(struct clyde_strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void clyde_strmap_release(struct clyde_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

size_t *clyde_strmap_get(const struct clyde_strmap *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = find(m, key);
	return m->keys[i] ? &m->values[i] : NULL;
}

/* Twice the slots, every key moved to its new place. */
static int grow(struct clyde_strmap *m)
{
	struct clyde_strmap g = { 0 };

	g.cap = m->cap ? m->cap * 2 : 16;
	g.keys = calloc(g.cap, sizeof(*g.keys));
	g.values = calloc(g.cap, sizeof(*g.values));
	if (!g.keys || !g.values) {
		free(g.keys);
		free(g.values);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i]) {
			size_t j = find(&g, m->keys[i]);

			g.keys[j] = m->keys[i];
			g.values[j] = m->values[i];
		}
	g.n = m->n;
	free(m->keys);
	free(m->values);
	*m = g;
	return 0;
}

int clyde_strmap_put(struct clyde_strmap *m, const char *key, size_t value,
		     size_t **slot)
{
	size_t i;

	/* At most half full: a probe ends soon. */
	if ((m->n + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	i = find(m, key);
	if (!m->keys[i]) {
		m->keys[i] = strdup(key);
		if (!m->keys[i])
			return -ENOMEM;
		m->values[i] = value;
		m->n++;
		if (slot)
			*slot = &m->values[i];
		return 1;
	}
	if (slot)
		*slot = &m->values[i];
	return 0;
}
