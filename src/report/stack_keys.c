#include "report/stack_keys.h"

#include <stdio.h>
#include <string.h>

/* Distinct values of one setting over the nodes, joined by ", ". */
struct joined {
	char buf[512];
};

static void join(struct joined *j, const char *v)
{
	size_t n = strlen(j->buf), len = strlen(v);
	const char *p = j->buf;

	if (!v[0])
		return;
	/* Already there as a whole item? */
	while ((p = strstr(p, v)) != NULL) {
		if ((p == j->buf || p[-1] == ' ') &&
		    (p[len] == '\0' || p[len] == ','))
			return;
		p += len;
	}
	if (n + len + 3 >= sizeof(j->buf))
		return;
	snprintf(j->buf + n, sizeof(j->buf) - n, "%s%s", n ? ", " : "", v);
}

static int put(clyde_stack_key_fn set, void *arg, const char *key,
	       const char *value)
{
	return value[0] ? set(arg, key, value) : 0;
}

static int put_bytes(clyde_stack_key_fn set, void *arg, const char *key,
		     uint64_t bytes)
{
	char b[64];

	if (!bytes)
		return 0;
	return set(arg, key, clyde_stack_fmt_bytes(b, sizeof(b), bytes));
}

static int put_u(clyde_stack_key_fn set, void *arg, const char *key, uint64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	return set(arg, key, b);
}

static int fs_keys(const struct clyde_stack_fs *fs, clyde_stack_key_fn set,
		   void *arg)
{
	char b[128];
	int rc = 0;

	rc |= put_bytes(set, arg, "fs block size", fs->block_size);
	rc |= put_bytes(set, arg, "fs stripe unit", fs->stripe_unit_bytes);
	rc |= put_bytes(set, arg, "fs stripe width", fs->stripe_width_bytes);
	if (fs->stride_blocks || fs->stripe_width_blocks) {
		snprintf(b, sizeof(b), "%u / %u blocks", fs->stride_blocks,
			 fs->stripe_width_blocks);
		rc |= set(arg, "fs stride / stripe width", b);
	}
	if (fs->journal != CLYDE_JOURNAL_UNKNOWN)
		rc |= set(arg, "journal",
			  clyde_stack_journal_name(fs->journal));
	rc |= put(set, arg, "data mode", fs->data_mode);
	rc |= put_bytes(set, arg, "log size", fs->log_bytes);
	rc |= put_bytes(set, arg, "logbsize", fs->logbsize);
	rc |= put(set, arg, "btrfs data profile", fs->data_profile);
	rc |= put(set, arg, "btrfs metadata profile", fs->metadata_profile);
	if (fs->num_devices)
		rc |= put_u(set, arg, "btrfs devices", fs->num_devices);
	return rc;
}

static int stripe_keys(const struct clyde_stack *s, clyde_stack_key_fn set,
		       void *arg)
{
	struct clyde_stack_stripe st;
	int rc = 0;

	if (clyde_stack_stripe(s, &st))
		return 0;
	rc |= put(set, arg, "RAID level", st.level);
	rc |= put_bytes(set, arg, "chunk", st.chunk_bytes);
	rc |= put_u(set, arg, "data disks", st.data_disks);
	rc |= put_bytes(set, arg, "stripe width", st.stripe_bytes);
	return rc;
}

/* Per kind of layer, the values of all such layers joined. */
static int layer_keys(const struct clyde_stack *s, clyde_stack_key_fn set,
		      void *arg)
{
	struct joined md_level = { "" }, md_chunk = { "" }, md_disks = { "" },
		      md_cache = { "" }, md_layout = { "" }, dm = { "" },
		      dio = { "" }, model = { "" }, rot = { "" },
		      sched = { "" }, wcache = { "" }, ra = { "" };
	char b[64];
	size_t nleaves;
	int rc = 0;

	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *n = &s->nodes[i];

		switch (n->kind) {
		case CLYDE_STACK_MD:
			join(&md_level, n->md_level);
			join(&md_chunk, clyde_stack_fmt_bytes(b, sizeof(b),
							      n->chunk_bytes));
			snprintf(b, sizeof(b), "%u", n->raid_disks);
			join(&md_disks, b);
			snprintf(b, sizeof(b), "%u", n->stripe_cache_size);
			join(&md_cache, b);
			snprintf(b, sizeof(b), "%u", n->md_layout);
			join(&md_layout, b);
			break;
		case CLYDE_STACK_DM:
			join(&dm, n->dm_target);
			break;
		case CLYDE_STACK_LOOP:
			join(&dio, n->dio == 1 ? "on" :
				   n->dio == 0 ? "off" :
						 "");
			break;
		default:
			break;
		}
		if (n->nchildren)
			continue;
		/* A leaf: the member disk's settings. */
		join(&model, n->model);
		join(&rot, n->rotational == 1 ? "yes" :
			   n->rotational == 0 ? "no" :
						"");
		join(&sched, n->scheduler);
		join(&wcache, n->write_cache);
		if (n->read_ahead_kb) {
			snprintf(b, sizeof(b), "%u KiB", n->read_ahead_kb);
			join(&ra, b);
		}
	}
	rc |= put(set, arg, "md level", md_level.buf);
	rc |= put(set, arg, "md chunk", md_chunk.buf);
	rc |= put(set, arg, "md raid disks", md_disks.buf);
	rc |= put(set, arg, "md layout", md_layout.buf);
	rc |= put(set, arg, "md stripe_cache_size", md_cache.buf);
	rc |= put(set, arg, "dm target", dm.buf);
	rc |= put(set, arg, "loop direct I/O", dio.buf);
	nleaves = clyde_stack_leaves(s, NULL, 0);
	if (nleaves)
		rc |= put_u(set, arg, "member disks", nleaves);
	rc |= put(set, arg, "member model", model.buf);
	rc |= put(set, arg, "member rotational", rot.buf);
	rc |= put(set, arg, "member scheduler", sched.buf);
	rc |= put(set, arg, "member write cache", wcache.buf);
	rc |= put(set, arg, "member read-ahead", ra.buf);
	return rc;
}

int clyde_stack_keys(const struct clyde_stack *s, clyde_stack_key_fn set,
		     void *arg)
{
	int rc = 0;

	if (s->has_fs)
		rc |= fs_keys(&s->fs, set, arg);
	rc |= stripe_keys(s, set, arg);
	rc |= layer_keys(s, set, arg);
	return rc < 0 ? rc : 0;
}
