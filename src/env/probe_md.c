/*
 * An md array (Documentation/admin-guide/md.rst): level, chunk, disks,
 * layout, stripe cache and state from md/; its members from slaves/,
 * each with its slot and state in the array (md/dev-NAME/).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

static bool md_claims(const char *root, const char *dev)
{
	return clyde_stack_sys_exists(root, dev, "md");
}

static void md_read(const char *root, struct clyde_stack_node *n)
{
	char buf[64];

	if (clyde_sysfs_text(root, n->name, "md/level", buf, sizeof(buf)) > 0)
		clyde_stack_copy(n->md_level, sizeof(n->md_level), buf);
	(void)clyde_sysfs_u64(root, n->name, "md/chunk_size", &n->chunk_bytes);
	(void)clyde_sysfs_u32(root, n->name, "md/raid_disks", &n->raid_disks);
	(void)clyde_sysfs_u32(root, n->name, "md/layout", &n->md_layout);
	(void)clyde_sysfs_u32(root, n->name, "md/stripe_cache_size",
			      &n->stripe_cache_size);
	(void)clyde_sysfs_u32(root, n->name, "md/degraded", &n->degraded);
	if (clyde_sysfs_text(root, n->name, "md/sync_action", buf,
			     sizeof(buf)) > 0)
		clyde_stack_copy(n->sync_action, sizeof(n->sync_action), buf);
	if (clyde_sysfs_text(root, n->name, "md/array_state", buf,
			     sizeof(buf)) > 0)
		clyde_stack_copy(n->array_state, sizeof(n->array_state), buf);
}

/* A member's slot and state in its array (md/dev-NAME/...). */
static void md_member(struct clyde_stack_walk *w, size_t md, size_t member)
{
	struct clyde_stack_node *m = &w->s->nodes[member];
	const char *array = w->s->nodes[md].name;
	char attr[128], buf[64];

	snprintf(attr, sizeof(attr), "md/dev-%s/slot", m->name);
	if (clyde_sysfs_text(w->root, array, attr, buf, sizeof(buf)) > 0)
		m->md_slot = strcmp(buf, "none") == 0 ? -1 : atoi(buf);
	snprintf(attr, sizeof(attr), "md/dev-%s/state", m->name);
	if (clyde_sysfs_text(w->root, array, attr, buf, sizeof(buf)) > 0)
		clyde_stack_copy(m->md_state, sizeof(m->md_state), buf);
}

static void md_children(struct clyde_stack_walk *w, size_t idx)
{
	clyde_stack_add_slaves(w, idx, md_member);
}

/* raid10's stripe in chunks by the kernel's rule (raid10.c,
 * raid10_nr_stripes(), which sets optimal_io_size): far and offset copies
 * sit in other rows of the same disks, so a row holds raid_disks chunks
 * of data; near copies sit side by side, so a row holds raid_disks / near
 * when near divides the disks, and raid_disks otherwise (near=2 over 3:
 * A A B, B C C, ... : three chunks a row). */
static uint32_t raid10_data_disks(const struct clyde_stack_node *n)
{
	uint32_t near = n->md_layout & 0xff, d = n->raid_disks;

	if (!near || !((n->md_layout >> 8) & 0xff))
		return 0;
	return d % near ? d : d / near;
}

/* The level's rule, which the kernel applies when it sets the array's
 * optimal_io_size (chunk x data disks). */
static uint32_t md_level_data_disks(const struct clyde_stack_node *n)
{
	uint32_t d = n->raid_disks;

	if (!strcmp(n->md_level, "raid0"))
		return d;
	if (!strcmp(n->md_level, "raid4") || !strcmp(n->md_level, "raid5"))
		return d > 1 ? d - 1 : 0;
	if (!strcmp(n->md_level, "raid6"))
		return d > 2 ? d - 2 : 0;
	if (!strcmp(n->md_level, "raid10"))
		return raid10_data_disks(n);
	return 0;
}

uint32_t clyde_stack_md_data_disks(const struct clyde_stack_node *n)
{
	uint32_t rule;

	if (n->kind != &clyde_stack_md || n->raid_disks == 0)
		return 0;
	rule = md_level_data_disks(n);
	/* What md itself reports, when it reports it: its optimal_io_size
	 * is the full stripe mkfs.xfs and mkfs.ext4 align to.  A count it
	 * gives beyond the disks is not a stripe (a fixture, a reshape). */
	if (rule && n->chunk_bytes && n->optimal_io_size &&
	    n->optimal_io_size % n->chunk_bytes == 0) {
		uint64_t k = n->optimal_io_size / n->chunk_bytes;

		if (k >= 1 && k <= n->raid_disks)
			return (uint32_t)k;
	}
	return rule;
}

static bool md_parity(const char *level)
{
	return !strcmp(level, "raid4") || !strcmp(level, "raid5") ||
	       !strcmp(level, "raid6");
}

static int md_stripe(const struct clyde_stack_node *n,
		     struct clyde_stack_stripe *st)
{
	if (!clyde_stack_md_data_disks(n) || !n->chunk_bytes)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	clyde_stack_copy(st->layer, sizeof(st->layer), n->name);
	clyde_stack_copy(st->level, sizeof(st->level), n->md_level);
	st->chunk_bytes = n->chunk_bytes;
	st->data_disks = clyde_stack_md_data_disks(n);
	st->disks = n->raid_disks;
	st->stripe_bytes = st->chunk_bytes * st->data_disks;
	st->parity = md_parity(n->md_level);
	return 0;
}

static const char *md_layout_name(const struct clyde_stack_node *n, char *buf,
				  size_t len)
{
	static const char *const r5[] = { "left-asymmetric", "right-asymmetric",
					  "left-symmetric", "right-symmetric" };

	if ((!strcmp(n->md_level, "raid5") || !strcmp(n->md_level, "raid6")) &&
	    n->md_layout < 4)
		return r5[n->md_layout];
	if (!strcmp(n->md_level, "raid10")) {
		snprintf(buf, len, "n%u f%u%s", n->md_layout & 0xff,
			 (n->md_layout >> 8) & 0xff,
			 n->md_layout & 0x10000 ? " offset" : "");
		return buf;
	}
	snprintf(buf, len, "%u", n->md_layout);
	return buf;
}

static void md_text(FILE *f, const struct clyde_stack_node *n)
{
	char a[32], b[32];

	fprintf(f, " %s, %u disks", n->md_level, n->raid_disks);
	if (n->chunk_bytes)
		fprintf(f, ", chunk %s",
			clyde_stack_fmt_bytes(a, sizeof(a), n->chunk_bytes));
	if (strcmp(n->md_level, "raid0") && strcmp(n->md_level, "raid1"))
		fprintf(f, ", layout %s", md_layout_name(n, b, sizeof(b)));
	if (clyde_stack_md_data_disks(n) && n->chunk_bytes)
		fprintf(f, ", %u data disks, full stripe %s",
			clyde_stack_md_data_disks(n),
			clyde_stack_fmt_bytes(
				a, sizeof(a),
				n->chunk_bytes * clyde_stack_md_data_disks(n)));
	if (n->stripe_cache_size)
		fprintf(f, ", stripe_cache_size %u", n->stripe_cache_size);
	fprintf(f, ", %s", n->array_state[0] ? n->array_state : "?");
	/* raid0 has nothing to sync: the kernel gives no sync_action. */
	if (n->sync_action[0] || strcmp(n->md_level, "raid0"))
		fprintf(f, ", sync %s",
			n->sync_action[0] ? n->sync_action : "?");
	if (n->degraded)
		fprintf(f, ", DEGRADED (%u missing)", n->degraded);
}

static void get_level(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%s", n->md_level);
}

static void get_chunk(const struct clyde_stack_node *n, char *b, size_t l)
{
	clyde_stack_fmt_bytes(b, l, n->chunk_bytes);
}

static void get_disks(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%u", n->raid_disks);
}

static void get_layout(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%u", n->md_layout);
}

static void get_scs(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%u", n->stripe_cache_size);
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_node, member)
static const struct clyde_stack_field md_fields[] = {
	F("level", STR, md_level),
	F("chunk_bytes", U64, chunk_bytes),
	F("raid_disks", U32, raid_disks),
	F("layout", U32, md_layout),
	F("stripe_cache_size", U32, stripe_cache_size),
	F("degraded", U32, degraded),
	F("sync_action", STR, sync_action),
	F("array_state", STR, array_state),
};

static const struct clyde_stack_node_fact md_facts[] = {
	{ "md level", get_level },	     { "md chunk", get_chunk },
	{ "md raid disks", get_disks },	     { "md layout", get_layout },
	{ "md stripe_cache_size", get_scs },
};

const struct clyde_stack_kind clyde_stack_md = {
	.name = "md",
	.claims = md_claims,
	.read = md_read,
	.children = md_children,
	.stripe = md_stripe,
	.fields = md_fields,
	.nfields = CLYDE_STACK_NFIELDS(md_fields),
	.text = md_text,
	.own_queue = true,
	.facts = md_facts,
	.nfacts = CLYDE_STACK_NFIELDS(md_facts),
};
