/*
 * The stack as JSON and as text.  The JSON fields of a device and of the
 * filesystem are two tables (key, type, where in the struct, which kinds
 * of device have it), so the writer and the reader cannot disagree and a
 * new field is one line.
 */
#include "results/stack_out.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum ftype {
	F_STR,
	F_U32,
	F_U64,
	F_INT, /* int, -1 written as null (unknown / not one) */
};

struct field {
	const char *key;
	enum ftype type;
	size_t off, size;
	unsigned kinds; /* 1 << kind for the kinds that have it; 0: all */
};

#define K(k) (1u << CLYDE_STACK_##k)
#define NODE(key, type, member, kinds)                                        \
	{                                                                     \
		key, type, offsetof(struct clyde_stack_node, member),         \
			sizeof(((struct clyde_stack_node *)0)->member), kinds \
	}
#define FS(key, type, member)                                           \
	{                                                               \
		key, type, offsetof(struct clyde_stack_fs, member),     \
			sizeof(((struct clyde_stack_fs *)0)->member), 0 \
	}

static const struct field node_fields[] = {
	NODE("name", F_STR, name, 0),
	NODE("major", F_U32, major, 0),
	NODE("minor", F_U32, minor, 0),
	NODE("size_bytes", F_U64, size_bytes, 0),
	NODE("model", F_STR, model, 0),
	NODE("rotational", F_INT, rotational, 0),
	NODE("logical_block_size", F_U32, logical_block_size, 0),
	NODE("physical_block_size", F_U32, physical_block_size, 0),
	NODE("minimum_io_size", F_U32, minimum_io_size, 0),
	NODE("optimal_io_size", F_U32, optimal_io_size, 0),
	NODE("write_cache", F_STR, write_cache, 0),
	NODE("scheduler", F_STR, scheduler, 0),
	NODE("nr_requests", F_U32, nr_requests, 0),
	NODE("read_ahead_kb", F_U32, read_ahead_kb, 0),
	NODE("partition", F_U32, partition, K(PARTITION)),
	NODE("start_bytes", F_U64, start_bytes, K(PARTITION)),
	NODE("backing_file", F_STR, backing_file, K(LOOP)),
	NODE("dio", F_INT, dio, K(LOOP)),
	NODE("loop_offset", F_U64, loop_offset, K(LOOP)),
	NODE("level", F_STR, md_level, K(MD)),
	NODE("chunk_bytes", F_U64, chunk_bytes, K(MD)),
	NODE("raid_disks", F_U32, raid_disks, K(MD)),
	NODE("layout", F_U32, md_layout, K(MD)),
	NODE("stripe_cache_size", F_U32, stripe_cache_size, K(MD)),
	NODE("degraded", F_U32, degraded, K(MD)),
	NODE("sync_action", F_STR, sync_action, K(MD)),
	NODE("array_state", F_STR, array_state, K(MD)),
	NODE("md_slot", F_INT, md_slot, 0),
	NODE("md_state", F_STR, md_state, 0),
	NODE("dm_name", F_STR, dm_name, K(DM)),
	NODE("dm_uuid", F_STR, dm_uuid, K(DM)),
	NODE("lvm_vg", F_STR, lvm_vg, K(DM)),
	NODE("lvm_lv", F_STR, lvm_lv, K(DM)),
	NODE("dm_target", F_STR, dm_target, K(DM)),
	NODE("dm_stripes", F_U32, dm_stripes, K(DM)),
	NODE("dm_stripe_bytes", F_U64, dm_stripe_bytes, K(DM)),
	NODE("dm_start_bytes", F_U64, dm_start_bytes, K(DM)),
	NODE("dm_table", F_STR, dm_table, K(DM)),
	NODE("zram_algorithm", F_STR, zram_algorithm, K(ZRAM)),
	NODE("note", F_STR, note, 0),
};

static const struct field fs_fields[] = {
	FS("type", F_STR, type),
	FS("mount_point", F_STR, mount_point),
	FS("source", F_STR, source),
	FS("mount_opts", F_STR, mount_opts),
	FS("uuid", F_STR, uuid),
	FS("block_size", F_U32, block_size),
	FS("stripe_unit_bytes", F_U64, stripe_unit_bytes),
	FS("stripe_width_bytes", F_U64, stripe_width_bytes),
	FS("stride_blocks", F_U32, stride_blocks),
	FS("stripe_width_blocks", F_U32, stripe_width_blocks),
	FS("journal_dev", F_STR, journal_dev),
	FS("journal_uuid", F_STR, journal_uuid),
	FS("data_mode", F_STR, data_mode),
	FS("log_bytes", F_U64, log_bytes),
	FS("log_sector_size", F_U32, log_sector_size),
	FS("logbsize", F_U32, logbsize),
	FS("rtextsize_bytes", F_U64, rtextsize_bytes),
	FS("data_profile", F_STR, data_profile),
	FS("metadata_profile", F_STR, metadata_profile),
	FS("system_profile", F_STR, system_profile),
	FS("num_devices", F_U32, num_devices),
	FS("note", F_STR, note),
};

#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

static void write_fields(struct clyde_jw *w, const void *base,
			 const struct field *f, size_t n, unsigned kind)
{
	for (size_t i = 0; i < n; i++, f++) {
		const char *p = (const char *)base + f->off;

		if (f->kinds && !(f->kinds & (1u << kind)))
			continue;
		switch (f->type) {
		case F_STR:
			clyde_jw_str(w, f->key, p, f->size);
			break;
		case F_U32:
			clyde_jw_u64(w, f->key,
				     *(const uint32_t *)(const void *)p);
			break;
		case F_U64:
			clyde_jw_u64(w, f->key,
				     *(const uint64_t *)(const void *)p);
			break;
		case F_INT: {
			int v = *(const int *)(const void *)p;

			if (v < 0)
				clyde_jw_null(w, f->key);
			else
				clyde_jw_i64(w, f->key, v);
			break;
		}
		}
	}
}

static void write_names(struct clyde_jw *w, const char *key,
			const struct clyde_stack *s, const uint32_t *idx,
			size_t n)
{
	clyde_jw_open(w, key, '[');
	for (size_t i = 0; i < n; i++)
		CLYDE_JW_ARR(w, NULL, s->nodes[idx[i]].name);
	clyde_jw_close(w, ']');
}

void clyde_stack_json(struct clyde_jw *w, const char *key,
		      const struct clyde_stack *s)
{
	const char *leaves[CLYDE_STACK_MAX_NODES];
	size_t nleaves = clyde_stack_leaves(s, leaves, CLYDE_STACK_MAX_NODES);
	struct clyde_stack_stripe st;

	clyde_jw_open(w, key, '{');
	CLYDE_JW_ARR(w, "target", s->target);
	CLYDE_JW_ARR(w, "note", s->note);
	CLYDE_JW_ARR(w, "content", s->content);
	if (s->has_fs) {
		clyde_jw_open(w, "filesystem", '{');
		write_fields(w, &s->fs, fs_fields, NFIELDS(fs_fields), 0);
		clyde_jw_str(w, "journal",
			     clyde_stack_journal_name(s->fs.journal), 32);
		clyde_jw_close(w, '}');
	} else {
		clyde_jw_null(w, "filesystem");
	}
	if (clyde_stack_stripe(s, &st) == 0) {
		/* Derived from the layers above, for readers' convenience
		 * (read back, it is computed again). */
		clyde_jw_open(w, "stripe", '{');
		CLYDE_JW_ARR(w, "layer", st.layer);
		CLYDE_JW_ARR(w, "level", st.level);
		clyde_jw_u64(w, "chunk_bytes", st.chunk_bytes);
		clyde_jw_u64(w, "data_disks", st.data_disks);
		clyde_jw_u64(w, "disks", st.disks);
		clyde_jw_u64(w, "stripe_bytes", st.stripe_bytes);
		clyde_jw_bool(w, "parity", st.parity);
		clyde_jw_close(w, '}');
	} else {
		clyde_jw_null(w, "stripe");
	}
	write_names(w, "top", s, s->top, s->ntop);
	clyde_jw_open(w, "leaves", '[');
	for (size_t i = 0; i < nleaves && i < CLYDE_STACK_MAX_NODES; i++)
		clyde_jw_str(w, NULL, leaves[i], 64);
	clyde_jw_close(w, ']');
	clyde_jw_open(w, "devices", '[');
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *n = &s->nodes[i];

		clyde_jw_open(w, NULL, '{');
		clyde_jw_str(w, "kind", clyde_stack_kind_name(n->kind), 16);
		write_fields(w, n, node_fields, NFIELDS(node_fields), n->kind);
		write_names(w, "children", s, n->children, n->nchildren);
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

/* ---- reading ---------------------------------------------------------- */

static int bad(struct clyde_json_error *err, const struct clyde_json *v,
	       const char *what, const char *key)
{
	if (err) {
		err->line = v ? v->line : 0;
		snprintf(err->why, sizeof(err->why), "stack: %s \"%s\"", what,
			 key);
	}
	return -EINVAL;
}

static int read_fields(const struct clyde_json *obj, void *base,
		       const struct field *f, size_t n,
		       struct clyde_json_error *err)
{
	for (size_t i = 0; i < n; i++, f++) {
		const struct clyde_json *v = clyde_json_get(obj, f->key);
		char *p = (char *)base + f->off;
		uint64_t u;

		if (!v || v->type == CLYDE_JSON_NULL)
			continue;
		if (f->type == F_STR) {
			if (v->type != CLYDE_JSON_STRING)
				return bad(err, v, "not a string:", f->key);
			snprintf(p, f->size, "%s", v->str);
			continue;
		}
		if (!clyde_json_u64(v, &u))
			return bad(err, v, "not a number >= 0:", f->key);
		if ((f->type == F_U32 && u > UINT32_MAX) ||
		    (f->type == F_INT && u > INT32_MAX))
			return bad(err, v, "out of range:", f->key);
		if (f->type == F_U32)
			*(uint32_t *)(void *)p = (uint32_t)u;
		else if (f->type == F_U64)
			*(uint64_t *)(void *)p = u;
		else
			*(int *)(void *)p = (int)u;
	}
	return 0;
}

/* The index of the device named by string value v, or -1. */
static int index_of(const struct clyde_stack *s, const struct clyde_json *v)
{
	const char *name = clyde_json_str(v);
	const struct clyde_stack_node *n = name ? clyde_stack_find(s, name) :
						  NULL;

	return n ? (int)(n - s->nodes) : -1;
}

/* Read array `key` of device names into idx (at most max); *count. */
static int read_names(const struct clyde_json *obj, const char *key,
		      const struct clyde_stack *s, uint32_t *idx,
		      uint32_t *count, uint32_t max,
		      struct clyde_json_error *err)
{
	const struct clyde_json *a = clyde_json_get(obj, key);

	*count = 0;
	if (!a)
		return 0;
	if (a->type != CLYDE_JSON_ARRAY)
		return bad(err, a, "not an array:", key);
	for (size_t i = 0; i < a->n && *count < max; i++) {
		int k = index_of(s, &a->items[i]);

		if (k < 0)
			return bad(err, &a->items[i], "names no device:", key);
		idx[(*count)++] = (uint32_t)k;
	}
	return 0;
}

static void node_defaults(struct clyde_stack_node *n)
{
	memset(n, 0, sizeof(*n));
	n->rotational = -1;
	n->dio = -1;
	n->md_slot = -1;
}

int clyde_stack_from_json(const struct clyde_json *obj, struct clyde_stack *out,
			  struct clyde_json_error *err)
{
	const struct clyde_json *devs, *fs, *v;
	char why[96];
	int rc;

	memset(out, 0, sizeof(*out));
	if (!obj || obj->type != CLYDE_JSON_OBJECT)
		return bad(err, obj, "not an object:", "stack");
	out->nodes = calloc(CLYDE_STACK_MAX_NODES, sizeof(*out->nodes));
	if (!out->nodes)
		return -ENOMEM;
	if ((v = clyde_json_get(obj, "target")) && clyde_json_str(v))
		snprintf(out->target, sizeof(out->target), "%s", v->str);
	if ((v = clyde_json_get(obj, "note")) && clyde_json_str(v))
		snprintf(out->note, sizeof(out->note), "%s", v->str);
	if ((v = clyde_json_get(obj, "content")) && clyde_json_str(v))
		snprintf(out->content, sizeof(out->content), "%s", v->str);
	fs = clyde_json_get(obj, "filesystem");
	if (fs && fs->type == CLYDE_JSON_OBJECT) {
		out->has_fs = true;
		rc = read_fields(fs, &out->fs, fs_fields, NFIELDS(fs_fields),
				 err);
		if (rc)
			goto fail;
		v = clyde_json_get(fs, "journal");
		for (int j = CLYDE_JOURNAL_UNKNOWN;
		     clyde_json_str(v) && j <= CLYDE_JOURNAL_EXTERNAL; j++)
			if (!strcmp(v->str,
				    clyde_stack_journal_name(
					    (enum clyde_stack_journal)j)))
				out->fs.journal = (enum clyde_stack_journal)j;
	}
	devs = clyde_json_get(obj, "devices");
	if (devs && devs->type != CLYDE_JSON_ARRAY) {
		rc = bad(err, devs, "not an array:", "devices");
		goto fail;
	}
	/* Names first, so that children can refer to any device. */
	for (size_t i = 0; devs && i < devs->n; i++) {
		const struct clyde_json *d = &devs->items[i];
		struct clyde_stack_node *n;
		int kind;

		if (out->nnodes >= CLYDE_STACK_MAX_NODES)
			break;
		if (d->type != CLYDE_JSON_OBJECT) {
			rc = bad(err, d, "not an object:", "devices");
			goto fail;
		}
		n = &out->nodes[out->nnodes++];
		node_defaults(n);
		kind = clyde_json_str(clyde_json_get(d, "kind")) ?
			       clyde_stack_kind_parse(
				       clyde_json_get(d, "kind")->str) :
			       -1;
		n->kind = kind < 0 ? CLYDE_STACK_OTHER :
				     (enum clyde_stack_kind)kind;
		rc = read_fields(d, n, node_fields, NFIELDS(node_fields), err);
		if (rc)
			goto fail;
	}
	for (size_t i = 0; i < out->nnodes; i++) {
		rc = read_names(&devs->items[i], "children", out,
				out->nodes[i].children,
				&out->nodes[i].nchildren,
				CLYDE_STACK_MAX_CHILDREN, err);
		if (rc)
			goto fail;
	}
	rc = read_names(obj, "top", out, out->top, &out->ntop,
			CLYDE_STACK_MAX_TOP, err);
	if (rc)
		goto fail;
	if (clyde_stack_check(out, why, sizeof(why)) != 0) {
		if (err) {
			err->line = obj->line;
			snprintf(err->why, sizeof(err->why), "stack: %s", why);
		}
		rc = -EINVAL;
		goto fail;
	}
	return 0;
fail:
	clyde_stack_free(out);
	return rc;
}

/* ---- text ------------------------------------------------------------- */

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

/* What is particular to the kind of device. */
static void text_kind(FILE *f, const struct clyde_stack_node *n)
{
	char a[32], b[32];

	switch (n->kind) {
	case CLYDE_STACK_PARTITION:
		fprintf(f, " %u, start %s (sector %" PRIu64 ")", n->partition,
			clyde_stack_fmt_bytes(a, sizeof(a), n->start_bytes),
			n->start_bytes / 512);
		break;
	case CLYDE_STACK_LOOP:
		fprintf(f, ", backing file %s, dio %s",
			n->backing_file[0] ? n->backing_file : "(none)",
			n->dio < 0 ? "unknown" :
			n->dio	   ? "on" :
				     "off");
		if (n->loop_offset)
			fprintf(f, ", offset %" PRIu64, n->loop_offset);
		break;
	case CLYDE_STACK_MD:
		fprintf(f, " %s, %u disks", n->md_level, n->raid_disks);
		if (n->chunk_bytes)
			fprintf(f, ", chunk %s",
				clyde_stack_fmt_bytes(a, sizeof(a),
						      n->chunk_bytes));
		if (strcmp(n->md_level, "raid0") &&
		    strcmp(n->md_level, "raid1"))
			fprintf(f, ", layout %s",
				md_layout_name(n, b, sizeof(b)));
		if (n->stripe_cache_size)
			fprintf(f, ", stripe_cache_size %u",
				n->stripe_cache_size);
		fprintf(f, ", %s", n->array_state[0] ? n->array_state : "?");
		/* raid0 has nothing to sync: the kernel gives no sync_action. */
		if (n->sync_action[0] || strcmp(n->md_level, "raid0"))
			fprintf(f, ", sync %s",
				n->sync_action[0] ? n->sync_action : "?");
		if (n->degraded)
			fprintf(f, ", DEGRADED (%u missing)", n->degraded);
		break;
	case CLYDE_STACK_DM:
		fprintf(f, " %s", n->dm_name);
		if (n->lvm_lv[0])
			fprintf(f, " (LVM: LV %s in VG %s)", n->lvm_lv,
				n->lvm_vg);
		if (n->dm_target[0])
			fprintf(f, ", %s", n->dm_target);
		if (n->dm_stripes)
			fprintf(f, " %u x %s", n->dm_stripes,
				clyde_stack_fmt_bytes(a, sizeof(a),
						      n->dm_stripe_bytes));
		if (!strcmp(n->dm_target, "linear"))
			fprintf(f, ", start %s",
				clyde_stack_fmt_bytes(a, sizeof(a),
						      n->dm_start_bytes));
		break;
	case CLYDE_STACK_ZRAM:
		if (n->zram_algorithm[0])
			fprintf(f, " %s", n->zram_algorithm);
		break;
	default:
		if (n->model[0])
			fprintf(f, " \"%s\"", n->model);
		break;
	}
}

static void text_node(FILE *f, const struct clyde_stack *s, uint32_t i,
		      unsigned depth)
{
	const struct clyde_stack_node *n = &s->nodes[i];
	char a[32], b[32];

	fprintf(f, "%*s%s: %s", (int)(2 * depth + 2), "", n->name,
		clyde_stack_kind_name(n->kind));
	text_kind(f, n);
	fprintf(f, ", %s", clyde_stack_fmt_bytes(a, sizeof(a), n->size_bytes));
	if (n->md_state[0])
		fprintf(f, ", slot %d %s", n->md_slot, n->md_state);
	fputc('\n', f);
	/* The queue: for leaves and partitions of them, where it is the
	 * hardware's; a stacked device's is derived from its members. */
	if (n->nchildren == 0 || n->kind == CLYDE_STACK_DM ||
	    n->kind == CLYDE_STACK_MD) {
		fprintf(f, "%*s%s, blocks %u/%u, io min %s opt %s",
			(int)(2 * depth + 4), "",
			n->rotational < 0 ? "rotational ?" :
			n->rotational	  ? "rotational" :
					    "non-rotational",
			n->logical_block_size, n->physical_block_size,
			clyde_stack_fmt_bytes(a, sizeof(a), n->minimum_io_size),
			clyde_stack_fmt_bytes(b, sizeof(b),
					      n->optimal_io_size));
		if (n->write_cache[0])
			fprintf(f, ", cache %s", n->write_cache);
		if (n->scheduler[0])
			fprintf(f, ", %s", n->scheduler);
		fprintf(f, ", nr_requests %u, read_ahead %u KiB\n",
			n->nr_requests, n->read_ahead_kb);
	}
	if (n->note[0])
		fprintf(f, "%*snote: %s\n", (int)(2 * depth + 4), "", n->note);
	if (depth > CLYDE_STACK_MAX_NODES)
		return;
	for (uint32_t c = 0; c < n->nchildren; c++)
		text_node(f, s, n->children[c], depth + 1);
}

static void text_fs(FILE *f, const struct clyde_stack_fs *fs)
{
	char a[32], b[32];

	fprintf(f, "%s on %s (%s)\n", fs->type, fs->mount_point, fs->source);
	fprintf(f, "  options: %s\n", fs->mount_opts);
	if (fs->block_size)
		fprintf(f, "  block size %u\n", fs->block_size);
	if (!strncmp(fs->type, "ext", 3) && fs->block_size)
		fprintf(f, "  stride %u (%s), stripe_width %u (%s)\n",
			fs->stride_blocks,
			clyde_stack_fmt_bytes(a, sizeof(a),
					      fs->stripe_unit_bytes),
			fs->stripe_width_blocks,
			clyde_stack_fmt_bytes(b, sizeof(b),
					      fs->stripe_width_bytes));
	if (!strcmp(fs->type, "xfs") && fs->block_size) {
		fprintf(f, "  sunit %u (%s), swidth %u (%s)\n",
			fs->stride_blocks,
			clyde_stack_fmt_bytes(a, sizeof(a),
					      fs->stripe_unit_bytes),
			fs->stripe_width_blocks,
			clyde_stack_fmt_bytes(b, sizeof(b),
					      fs->stripe_width_bytes));
		fprintf(f, "  log %s, sector %u",
			clyde_stack_fmt_bytes(a, sizeof(a), fs->log_bytes),
			fs->log_sector_size);
		if (fs->logbsize)
			fprintf(f, ", logbsize %s",
				clyde_stack_fmt_bytes(a, sizeof(a),
						      fs->logbsize));
		fputc('\n', f);
	}
	if (fs->journal != CLYDE_JOURNAL_UNKNOWN) {
		fprintf(f, "  %s %s",
			!strcmp(fs->type, "xfs") ? "log" : "journal",
			clyde_stack_journal_name(fs->journal));
		if (fs->journal_dev[0])
			fprintf(f, " on %s", fs->journal_dev);
		if (fs->data_mode[0])
			fprintf(f, ", data=%s", fs->data_mode);
		fputc('\n', f);
	}
	if (!strcmp(fs->type, "btrfs"))
		fprintf(f,
			"  profiles: data %s, metadata %s, system %s; %u devices\n",
			fs->data_profile[0] ? fs->data_profile : "?",
			fs->metadata_profile[0] ? fs->metadata_profile : "?",
			fs->system_profile[0] ? fs->system_profile : "?",
			fs->num_devices);
	if (fs->note[0])
		fprintf(f, "  note: %s\n", fs->note);
}

void clyde_stack_text(FILE *f, const struct clyde_stack *s)
{
	const struct clyde_stack_node *j;

	if (s->has_fs)
		text_fs(f, &s->fs);
	else
		fprintf(f, "%s (not mounted%s%s)\n", s->target,
			s->content[0] ? "; holds " : "", s->content);
	for (uint32_t t = 0; t < s->ntop; t++)
		text_node(f, s, s->top[t], 0);
	/* An external journal or log: a stack of its own beside the data. */
	if (s->has_fs && s->fs.journal == CLYDE_JOURNAL_EXTERNAL &&
	    (j = clyde_stack_find(s, s->fs.journal_dev)) != NULL) {
		fprintf(f, "  %s device:\n",
			strcmp(s->fs.type, "xfs") ? "journal" : "log");
		text_node(f, s, (uint32_t)(j - s->nodes), 1);
	}
	if (s->note[0])
		fprintf(f, "  note: %s\n", s->note);
}

/* ---- advice ----------------------------------------------------------- */

void clyde_advice_json(struct clyde_jw *w, const char *key,
		       const struct clyde_advice_list *l)
{
	clyde_jw_open(w, key, '[');
	for (size_t i = 0; i < l->n; i++) {
		const struct clyde_advice *a = &l->items[i];

		clyde_jw_open(w, NULL, '{');
		clyde_jw_str(w, "severity",
			     clyde_advice_severity_name(a->severity), 16);
		CLYDE_JW_ARR(w, "id", a->id);
		CLYDE_JW_ARR(w, "layer", a->layer);
		CLYDE_JW_ARR(w, "text", a->text);
		CLYDE_JW_ARR(w, "fix", a->fix);
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
}

int clyde_advice_from_json(const struct clyde_json *arr,
			   struct clyde_advice_list *out,
			   struct clyde_json_error *err)
{
	static const struct {
		const char *key;
		size_t off, size;
	} strs[] = {
		{ "id", offsetof(struct clyde_advice, id),
		  sizeof(((struct clyde_advice *)0)->id) },
		{ "layer", offsetof(struct clyde_advice, layer),
		  sizeof(((struct clyde_advice *)0)->layer) },
		{ "text", offsetof(struct clyde_advice, text),
		  sizeof(((struct clyde_advice *)0)->text) },
		{ "fix", offsetof(struct clyde_advice, fix),
		  sizeof(((struct clyde_advice *)0)->fix) },
	};

	memset(out, 0, sizeof(*out));
	if (!arr || arr->type != CLYDE_JSON_ARRAY)
		return bad(err, arr, "not an array:", "advice");
	for (size_t i = 0; i < arr->n && out->n < CLYDE_ADVICE_MAX; i++) {
		const struct clyde_json *o = &arr->items[i];
		struct clyde_advice *a = &out->items[out->n++];
		const char *sev = clyde_json_str(clyde_json_get(o, "severity"));

		if (o->type != CLYDE_JSON_OBJECT)
			return bad(err, o, "not an object:", "advice");
		for (int k = CLYDE_ADVICE_INFO; sev && k <= CLYDE_ADVICE_BAD;
		     k++)
			if (!strcmp(sev, clyde_advice_severity_name((
						 enum clyde_advice_severity)k)))
				a->severity = (enum clyde_advice_severity)k;
		for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
			const char *v =
				clyde_json_str(clyde_json_get(o, strs[k].key));

			if (v)
				snprintf((char *)a + strs[k].off, strs[k].size,
					 "%s", v);
		}
	}
	return 0;
}

void clyde_advice_text(FILE *f, const struct clyde_advice_list *l)
{
	if (l->n == 0) {
		fputs("advice: none\n", f);
		return;
	}
	fputs("advice:\n", f);
	for (size_t i = 0; i < l->n; i++) {
		const struct clyde_advice *a = &l->items[i];

		fprintf(f, "  [%s] %s: %s\n",
			clyde_advice_severity_name(a->severity), a->layer,
			a->text);
		if (a->fix[0])
			fprintf(f, "    fix: %s\n", a->fix);
	}
}

/* ---- facts ------------------------------------------------------------ */

struct facts {
	struct clyde_stack_fact *out;
	size_t n, max;
};

__attribute__((format(printf, 3, 4))) static void
fact(struct facts *fs, const char *key, const char *fmt, ...)
{
	char value[sizeof(fs->out->value)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	if (!value[0] || !strcmp(value, "0"))
		return;
	if (fs->n < fs->max) {
		snprintf(fs->out[fs->n].key, sizeof(fs->out->key), "%s", key);
		snprintf(fs->out[fs->n].value, sizeof(fs->out->value), "%s",
			 value);
	}
	fs->n++;
}

static void fact_bytes(struct facts *fs, const char *key, uint64_t v)
{
	char b[32];

	if (v)
		fact(fs, key, "%s", clyde_stack_fmt_bytes(b, sizeof(b), v));
}

/* Append v to list (comma separated) unless it is there already. */
static void add_distinct(char *list, size_t n, const char *v)
{
	size_t len = strlen(v), used = strlen(list);
	const char *p = list;

	if (!v[0])
		return;
	while (*p) {
		size_t item = strcspn(p, ",");

		if (item == len && !strncmp(p, v, len))
			return;
		p += item + (p[item] == ',');
	}
	if (used + len + 2 <= n)
		snprintf(list + used, n - used, "%s%s", used ? "," : "", v);
}

/* One fact per node field over the nodes that pass `want`. */
static void
node_fact(struct facts *fs, const struct clyde_stack *s, const char *key,
	  bool (*want)(const struct clyde_stack *, size_t),
	  void (*get)(const struct clyde_stack_node *, char *, size_t))
{
	char list[sizeof(fs->out->value)] = "", v[64];

	for (size_t i = 0; i < s->nnodes; i++) {
		if (!want(s, i))
			continue;
		get(&s->nodes[i], v, sizeof(v));
		add_distinct(list, sizeof(list), v);
	}
	fact(fs, key, "%s", list);
}

static bool is_leaf(const struct clyde_stack *s, size_t i)
{
	const char *names[CLYDE_STACK_MAX_NODES];
	size_t n = clyde_stack_leaves(s, names, CLYDE_STACK_MAX_NODES);

	for (size_t k = 0; k < n && k < CLYDE_STACK_MAX_NODES; k++)
		if (names[k] == s->nodes[i].name)
			return true;
	return false;
}

static bool is_md(const struct clyde_stack *s, size_t i)
{
	return s->nodes[i].kind == CLYDE_STACK_MD;
}

static bool is_dm(const struct clyde_stack *s, size_t i)
{
	return s->nodes[i].kind == CLYDE_STACK_DM;
}

static bool is_loop(const struct clyde_stack *s, size_t i)
{
	return s->nodes[i].kind == CLYDE_STACK_LOOP;
}

#define GETTER(fn, fmt, expr)                                               \
	static void fn(const struct clyde_stack_node *n, char *b, size_t l) \
	{                                                                   \
		snprintf(b, l, fmt, expr);                                  \
	}
GETTER(get_kind, "%s", clyde_stack_kind_name(n->kind))
GETTER(get_model, "%s", n->model)
GETTER(get_rot, "%s",
       n->rotational < 0 ? "?" :
       n->rotational	 ? "rotational" :
			   "non-rotational")
GETTER(get_sched, "%s", n->scheduler)
GETTER(get_ra, "%u KiB", n->read_ahead_kb)
GETTER(get_wc, "%s", n->write_cache)
GETTER(get_nr, "%u", n->nr_requests)
GETTER(get_level, "%s", n->md_level)
GETTER(get_disks, "%u", n->raid_disks)
GETTER(get_layout, "%u", n->md_layout)
GETTER(get_scs, "%u", n->stripe_cache_size)
GETTER(get_dm_target, "%s", n->dm_target)
GETTER(get_dm_stripes, "%u", n->dm_stripes)

static void get_chunk(const struct clyde_stack_node *n, char *b, size_t l)
{
	clyde_stack_fmt_bytes(b, l, n->chunk_bytes);
}

static void get_dm_chunk(const struct clyde_stack_node *n, char *b, size_t l)
{
	if (n->dm_stripe_bytes)
		clyde_stack_fmt_bytes(b, l, n->dm_stripe_bytes);
	else
		b[0] = '\0';
}
GETTER(get_dio, "%s", n->dio < 0 ? "?" : n->dio ? "on" : "off")

size_t clyde_stack_facts(const struct clyde_stack *s,
			 struct clyde_stack_fact *out, size_t max)
{
	struct facts fs = { .out = out, .max = max };
	struct clyde_stack_stripe st;
	const char *leaves[CLYDE_STACK_MAX_NODES];
	size_t nleaves = clyde_stack_leaves(s, leaves, CLYDE_STACK_MAX_NODES);
	char opts[sizeof(s->fs.mount_opts)];

	if (s->has_fs) {
		const struct clyde_stack_fs *f = &s->fs;

		snprintf(opts, sizeof(opts), "%.*s",
			 (int)strcspn(f->mount_opts, "|"), f->mount_opts);
		while (opts[0] && opts[strlen(opts) - 1] == ' ')
			opts[strlen(opts) - 1] = '\0';
		fact(&fs, "filesystem", "%s", f->type);
		fact(&fs, "mount options", "%s", opts);
		fact_bytes(&fs, "block size", f->block_size);
		fact_bytes(&fs, "fs stripe unit", f->stripe_unit_bytes);
		fact_bytes(&fs, "fs stripe width", f->stripe_width_bytes);
		if (f->journal != CLYDE_JOURNAL_UNKNOWN)
			fact(&fs, "journal", "%s",
			     clyde_stack_journal_name(f->journal));
		fact(&fs, "data mode", "%s", f->data_mode);
		fact_bytes(&fs, "log size", f->log_bytes);
		fact_bytes(&fs, "logbsize", f->logbsize);
		fact(&fs, "data profile", "%s", f->data_profile);
		fact(&fs, "metadata profile", "%s", f->metadata_profile);
	}
	if (clyde_stack_stripe(s, &st) == 0) {
		fact(&fs, "stripe level", "%s", st.level);
		fact_bytes(&fs, "stripe chunk", st.chunk_bytes);
		fact(&fs, "stripe data disks", "%u", st.data_disks);
		fact_bytes(&fs, "full stripe", st.stripe_bytes);
	}
	node_fact(&fs, s, "md level", is_md, get_level);
	node_fact(&fs, s, "md chunk", is_md, get_chunk);
	node_fact(&fs, s, "md raid disks", is_md, get_disks);
	node_fact(&fs, s, "md layout", is_md, get_layout);
	node_fact(&fs, s, "md stripe_cache_size", is_md, get_scs);
	node_fact(&fs, s, "dm target", is_dm, get_dm_target);
	node_fact(&fs, s, "dm stripes", is_dm, get_dm_stripes);
	node_fact(&fs, s, "dm stripe size", is_dm, get_dm_chunk);
	node_fact(&fs, s, "loop dio", is_loop, get_dio);
	fact(&fs, "members", "%zu", nleaves);
	node_fact(&fs, s, "member kind", is_leaf, get_kind);
	node_fact(&fs, s, "member model", is_leaf, get_model);
	node_fact(&fs, s, "member rotational", is_leaf, get_rot);
	node_fact(&fs, s, "member scheduler", is_leaf, get_sched);
	node_fact(&fs, s, "member read_ahead", is_leaf, get_ra);
	node_fact(&fs, s, "member write cache", is_leaf, get_wc);
	node_fact(&fs, s, "member nr_requests", is_leaf, get_nr);
	return fs.n;
}
