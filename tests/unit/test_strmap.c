/*
 * core/strmap: strings to numbers -- a key is added once, found again
 * after the map grew, and a missing key is not found.
 */
#include <stdio.h>

#include "core/strmap.h"
#include "tap.h"

int main(void)
{
	struct clyde_strmap m;
	size_t *v = NULL;
	char key[32];
	int bad = 0;

	clyde_strmap_init(&m);
	CHECK(clyde_strmap_get(&m, "a") == NULL);
	CHECK(clyde_strmap_put(&m, "a", 7, &v) == 1 && *v == 7);
	CHECK(clyde_strmap_put(&m, "a", 9, &v) == 0 && *v == 7);
	CHECK(clyde_strmap_put(&m, "", 3, NULL) == 1);
	/* Ten thousand keys: the map grows, every key keeps its value. */
	for (size_t i = 0; i < 10000; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		bad |= clyde_strmap_put(&m, key, i, NULL) != 1;
	}
	CHECK(!bad);
	for (size_t i = 0; i < 10000; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		v = clyde_strmap_get(&m, key);
		bad |= !v || *v != i;
	}
	CHECK(!bad);
	CHECK(m.n == 10002);
	CHECK(*clyde_strmap_get(&m, "a") == 7);
	CHECK(*clyde_strmap_get(&m, "") == 3);
	CHECK(clyde_strmap_get(&m, "k10000") == NULL);
	clyde_strmap_release(&m);
	CHECK(clyde_strmap_get(&m, "a") == NULL);
	return tap_done();
}
