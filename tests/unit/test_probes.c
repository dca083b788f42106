/*
 * The extension tables: the stack's node kinds and filesystem probes
 * (env/stack_probe.h) and the target kinds (io/target.h).
 *
 * Every node kind and every filesystem probe in the tables, whatever it
 * is: its name finds it, its JSON fields are written with a device (or
 * filesystem) of its kind, under keys no other field of that object
 * uses, and read back to the same values (the JSON written again is the
 * same, byte for byte).  So a kind added to a table is checked here
 * without a line of this file changing.  The block-device target is the
 * one any stack gets, and on a target without a device it counts nothing
 * and measures a file's residency as io/cache.h does.
 */
#include "env/stack_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/target.h"
#include "results/stack_out.h"
#include "tap.h"

static void test_kind_table(void)
{
	size_t n, nfs, last_claim = 0;
	const struct clyde_stack_kind *const *k = clyde_stack_kinds(&n);
	const struct clyde_stack_fs_kind *const *fs =
		clyde_stack_fs_kinds(&nfs);

	CHECK(n >= 7);
	for (size_t i = 0; i < n; i++) {
		CHECK(k[i]->name && k[i]->name[0]);
		CHECK(clyde_stack_kind_parse(k[i]->name) == k[i]);
		for (size_t j = i + 1; j < n; j++)
			CHECK(strcmp(k[i]->name, k[j]->name) != 0);
		if (k[i]->claims)
			last_claim = i;
	}
	/* The disk claims every device: asked last, after the kinds that
	 * are more particular. */
	CHECK(k[last_claim] == &clyde_stack_disk);
	CHECK(clyde_stack_disk.claims("", "sdq"));
	CHECK(clyde_stack_kind_parse("no such kind") == NULL);
	CHECK(!strcmp(clyde_stack_kind_name(NULL), "disk"));
	for (size_t i = 0; i < nfs; i++) {
		CHECK(fs[i]->claims(fs[i]->name));
		CHECK(clyde_stack_fs_kind_of(fs[i]->name) == fs[i]);
	}
	CHECK(clyde_stack_fs_kind_of("tmpfs") == NULL);
	CHECK(clyde_stack_fs_kind_of("ext3") == &clyde_fs_ext4);
}

/* Give every field of table f in the struct at base a value of its own. */
static void fill(void *base, const struct clyde_stack_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *p = (char *)base + f[i].off;

		switch (f[i].type) {
		case CLYDE_STACK_F_STR:
			snprintf(p, f[i].size, "v-%s", f[i].key);
			break;
		case CLYDE_STACK_F_U32:
			*(uint32_t *)(void *)p = 7 + (uint32_t)i;
			break;
		case CLYDE_STACK_F_U64:
			*(uint64_t *)(void *)p = (1ull << 33) + i;
			break;
		case CLYDE_STACK_F_INT:
			*(int *)(void *)p = 1;
			break;
		}
	}
}

static char *to_json(const struct clyde_stack *s, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct clyde_jw w;

	if (!f)
		return NULL;
	clyde_jw_init(&w, f);
	clyde_stack_json(&w, NULL, s);
	fclose(f);
	return buf;
}

/* No key twice in object o. */
static bool keys_unique(const struct clyde_json *o)
{
	for (size_t i = 0; o && i < o->n; i++)
		for (size_t j = i + 1; j < o->n; j++)
			if (!strcmp(o->items[i].key, o->items[j].key))
				return false;
	return true;
}

/* Write s, read it back, write that: the same text, every key of the
 * kind's table in it, no key twice in `object` of the first device (or
 * the filesystem). */
static void round_trip(const struct clyde_stack *s, const char *what,
		       const struct clyde_stack_field *f, size_t nf,
		       bool filesystem)
{
	struct clyde_stack back;
	struct clyde_json root;
	struct clyde_json_error err;
	const struct clyde_json *obj, *devs;
	size_t alen = 0, blen = 0;
	char *a = to_json(s, &alen), *b = NULL;

	CHECK(a != NULL);
	if (!a)
		return;
	CHECK(clyde_json_parse(a, alen, NULL, &root, &err) == 0);
	devs = clyde_json_get(&root, "devices");
	obj = filesystem      ? clyde_json_get(&root, "filesystem") :
	      devs && devs->n ? &devs->items[0] :
				NULL;
	CHECK(obj && obj->type == CLYDE_JSON_OBJECT);
	CHECK(keys_unique(obj));
	for (size_t i = 0; obj && i < nf; i++) {
		CHECK(clyde_json_get(obj, f[i].key) != NULL);
		if (!clyde_json_get(obj, f[i].key))
			printf("# %s: no \"%s\" in its JSON\n", what, f[i].key);
	}
	CHECK(clyde_stack_from_json(&root, &back, &err) == 0);
	b = to_json(&back, &blen);
	CHECK(b && blen == alen && memcmp(a, b, alen) == 0);
	if (!b || blen != alen || memcmp(a, b, alen) != 0)
		printf("# %s: the JSON differs after reading it back\n", what);
	clyde_stack_free(&back);
	clyde_json_free(&root);
	free(a);
	free(b);
}

static void test_node_kinds_json(void)
{
	size_t n;
	const struct clyde_stack_kind *const *k = clyde_stack_kinds(&n);

	for (size_t i = 0; i < n; i++) {
		struct clyde_stack s;

		memset(&s, 0, sizeof(s));
		s.nodes = calloc(CLYDE_STACK_MAX_NODES, sizeof(*s.nodes));
		if (!s.nodes)
			break;
		clyde_stack_node_init(&s.nodes[0], k[i], "dev0");
		fill(&s.nodes[0], k[i]->fields, k[i]->nfields);
		s.nodes[0].md_slot = 2;
		snprintf(s.nodes[0].md_state, sizeof(s.nodes[0].md_state),
			 "in_sync");
		s.nnodes = 1;
		s.top[s.ntop++] = 0;
		round_trip(&s, k[i]->name, k[i]->fields, k[i]->nfields, false);
		clyde_stack_free(&s);
	}
}

static void test_fs_kinds_json(void)
{
	size_t n;
	const struct clyde_stack_fs_kind *const *k = clyde_stack_fs_kinds(&n);

	for (size_t i = 0; i < n; i++) {
		struct clyde_stack *s = calloc(1, sizeof(*s));

		if (!s)
			break;
		s->nodes = calloc(CLYDE_STACK_MAX_NODES, sizeof(*s->nodes));
		s->has_fs = true;
		snprintf(s->fs.type, sizeof(s->fs.type), "%s", k[i]->name);
		s->fs.block_size = 4096;
		s->fs.journal = CLYDE_JOURNAL_INTERNAL;
		fill(&s->fs, k[i]->fields, k[i]->nfields);
		round_trip(s, k[i]->name, k[i]->fields, k[i]->nfields, true);
		clyde_stack_free(s);
		free(s);
	}
}

static void test_target_block(void)
{
	struct clyde_ctx ctx;
	struct clyde_stack s;
	struct clyde_target *t = calloc(1, sizeof(*t));
	struct clyde_target_watch w;
	struct clyde_target_setup setup = {
		.target = t,
		.stack = &s,
		.what = CLYDE_TARGET_MEMBERS | CLYDE_TARGET_OWN |
			CLYDE_TARGET_SETTLE | CLYDE_TARGET_LOOPS,
	};
	struct clyde_devio dev;
	struct clyde_members members;
	struct clyde_target_moved moved = { .dev = &dev, .members = &members };
	struct clyde_settle settle;
	char path[] = "/tmp/clyde-test-probes-XXXXXX";
	uint64_t r1 = 1, t1 = 1, r2 = 2, t2 = 2;
	int fd;

	if (!t)
		return;
	clyde_ctx_init(&ctx);
	memset(&s, 0, sizeof(s));
	snprintf(t->path, sizeof(t->path), "/nowhere");
	CHECK(clyde_target_find(&s, t) == &clyde_target_block);
	CHECK(clyde_target_open(&ctx, &w, &setup) == 0);
	CHECK(!strcmp(w.ops->name, "block"));
	/* Nothing below: nothing to wait for, count or look under. */
	memset(&settle, 0, sizeof(settle));
	clyde_target_settle(&ctx, &w, &settle);
	CHECK(!settle.looked);
	memset(&dev, 0xff, sizeof(dev));
	clyde_target_begin(&w);
	clyde_target_end(&w, &moved);
	CHECK(!dev.have_device);
	CHECK(members.n == 0);
	CHECK(!clyde_target_has_below(&w));
	/* The page cache's residency, through the watch. */
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK(write(fd, path, sizeof(path)) == (ssize_t)sizeof(path));
		CHECK(clyde_target_residency_fd(&ctx, &w, fd, &r1, &t1) == 0);
		CHECK(clyde_cache_residency_fd(&ctx, fd, &r2, &t2) == 0);
		CHECK(r1 == r2 && t1 == t2 && t1 == sizeof(path));
		CHECK(clyde_target_cache_is_storage(&w, fd) ==
		      clyde_cache_is_memory_fs(fd));
		close(fd);
		unlink(path);
	}
	clyde_target_close(&w);
	clyde_ctx_release(&ctx);
	free(t);
}

int main(void)
{
	test_kind_table();
	test_node_kinds_json();
	test_fs_kinds_json();
	test_target_block();
	return tap_done();
}
