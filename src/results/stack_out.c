/*
 * The stack as JSON and as text.  The JSON fields every device has and
 * every filesystem has are two tables here; a kind's own fields, text and
 * facts are its probe's (env/stack_probe.h), which this file asks for.
 * The writer and the reader use the same tables, so they cannot disagree
 * and a new field is one line.
 */
#include "results/stack_out.h"

#include "env/stack_probe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NODE(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_node, member)
#define FS(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_fs, member)

/* What every device has, before its kind's fields ... */
static const struct clyde_stack_field node_fields[] = {
	NODE("name", STR, name),
	NODE("major", U32, major),
	NODE("minor", U32, minor),
	NODE("size_bytes", U64, size_bytes),
	NODE("model", STR, model),
	NODE("rotational", INT, rotational),
	NODE("logical_block_size", U32, logical_block_size),
	NODE("physical_block_size", U32, physical_block_size),
	NODE("minimum_io_size", U32, minimum_io_size),
	NODE("optimal_io_size", U32, optimal_io_size),
	NODE("write_cache", STR, write_cache),
	NODE("scheduler", STR, scheduler),
	NODE("nr_requests", U32, nr_requests),
	NODE("read_ahead_kb", U32, read_ahead_kb),
	NODE("max_sectors_kb", U32, max_sectors_kb),
};

/* ... an md member's slot and state ... */
static const struct clyde_stack_field member_fields[] = {
	NODE("md_slot", INT, md_slot),
	NODE("md_state", STR, md_state),
};

/* ... and last its note. */
static const struct clyde_stack_field note_field[] = {
	NODE("note", STR, note),
};

/* What every filesystem has, before the probes' fields ... */
static const struct clyde_stack_field fs_fields[] = {
	FS("type", STR, type),
	FS("mount_point", STR, mount_point),
	FS("source", STR, source),
	FS("mount_opts", STR, mount_opts),
	FS("uuid", STR, uuid),
	FS("block_size", U32, block_size),
	FS("stripe_unit_bytes", U64, stripe_unit_bytes),
	FS("stripe_width_bytes", U64, stripe_width_bytes),
	FS("stride_blocks", U32, stride_blocks),
	FS("stripe_width_blocks", U32, stripe_width_blocks),
	FS("journal_dev", STR, journal_dev),
};

/* ... and after them. */
static const struct clyde_stack_field fs_note_field[] = {
	FS("note", STR, note),
};

#define NFIELDS(t) CLYDE_STACK_NFIELDS(t)

static void write_fields(struct clyde_jw *w, const void *base,
			 const struct clyde_stack_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++, f++) {
		const char *p = (const char *)base + f->off;

		switch (f->type) {
		case CLYDE_STACK_F_STR:
			clyde_jw_str(w, f->key, p, f->size);
			break;
		case CLYDE_STACK_F_U32:
			clyde_jw_u64(w, f->key,
				     *(const uint32_t *)(const void *)p);
			break;
		case CLYDE_STACK_F_U64:
			clyde_jw_u64(w, f->key,
				     *(const uint64_t *)(const void *)p);
			break;
		case CLYDE_STACK_F_INT: {
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

static void write_node(struct clyde_jw *w, const struct clyde_stack_node *n)
{
	const struct clyde_stack_kind *k = clyde_stack_node_kind(n);

	write_fields(w, n, node_fields, NFIELDS(node_fields));
	if (!k->fields_last)
		write_fields(w, n, k->fields, k->nfields);
	write_fields(w, n, member_fields, NFIELDS(member_fields));
	if (k->fields_last)
		write_fields(w, n, k->fields, k->nfields);
	write_fields(w, n, note_field, NFIELDS(note_field));
}

/* The common fields, then every probe's that are written everywhere (a
 * zeroed struct's for the other filesystems: empty), then those of the
 * filesystem's own probe when it is not one of them. */
static void write_fs(struct clyde_jw *w, const struct clyde_stack_fs *fs)
{
	static const struct clyde_stack_fs none;
	const struct clyde_stack_fs_kind *own =
		clyde_stack_fs_kind_of(fs->type);
	size_t nk;
	const struct clyde_stack_fs_kind *const *k = clyde_stack_fs_kinds(&nk);

	write_fields(w, fs, fs_fields, NFIELDS(fs_fields));
	for (size_t i = 0; i < nk; i++)
		if (k[i]->fields_everywhere)
			write_fields(w, k[i] == own ? fs : &none, k[i]->fields,
				     k[i]->nfields);
	if (own && !own->fields_everywhere)
		write_fields(w, fs, own->fields, own->nfields);
	write_fields(w, fs, fs_note_field, NFIELDS(fs_note_field));
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
		write_fs(w, &s->fs);
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
		write_node(w, n);
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
		       const struct clyde_stack_field *f, size_t n,
		       struct clyde_json_error *err)
{
	for (size_t i = 0; i < n; i++, f++) {
		const struct clyde_json *v = clyde_json_get(obj, f->key);
		char *p = (char *)base + f->off;
		uint64_t u;

		if (!v || v->type == CLYDE_JSON_NULL)
			continue;
		if (f->type == CLYDE_STACK_F_STR) {
			if (v->type != CLYDE_JSON_STRING)
				return bad(err, v, "not a string:", f->key);
			snprintf(p, f->size, "%s", v->str);
			continue;
		}
		if (!clyde_json_u64(v, &u))
			return bad(err, v, "not a number >= 0:", f->key);
		if ((f->type == CLYDE_STACK_F_U32 && u > UINT32_MAX) ||
		    (f->type == CLYDE_STACK_F_INT && u > INT32_MAX))
			return bad(err, v, "out of range:", f->key);
		if (f->type == CLYDE_STACK_F_U32)
			*(uint32_t *)(void *)p = (uint32_t)u;
		else if (f->type == CLYDE_STACK_F_U64)
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
		const struct clyde_stack_fs_kind *own;

		out->has_fs = true;
		rc = read_fields(fs, &out->fs, fs_fields, NFIELDS(fs_fields),
				 err);
		if (rc == 0)
			rc = read_fields(fs, &out->fs, fs_note_field,
					 NFIELDS(fs_note_field), err);
		/* Only the probe's own fields: the others share its union. */
		own = clyde_stack_fs_kind_of(out->fs.type);
		if (rc == 0 && own)
			rc = read_fields(fs, &out->fs, own->fields,
					 own->nfields, err);
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
		const struct clyde_stack_kind *k;
		const char *kind;

		if (out->nnodes >= CLYDE_STACK_MAX_NODES)
			break;
		if (d->type != CLYDE_JSON_OBJECT) {
			rc = bad(err, d, "not an object:", "devices");
			goto fail;
		}
		n = &out->nodes[out->nnodes++];
		kind = clyde_json_str(clyde_json_get(d, "kind"));
		k = kind ? clyde_stack_kind_parse(kind) : NULL;
		clyde_stack_node_init(n, k ? k : &clyde_stack_other, "");
		k = n->kind;
		rc = read_fields(d, n, node_fields, NFIELDS(node_fields), err);
		if (rc == 0)
			rc = read_fields(d, n, member_fields,
					 NFIELDS(member_fields), err);
		if (rc == 0)
			rc = read_fields(d, n, note_field, NFIELDS(note_field),
					 err);
		if (rc == 0)
			rc = read_fields(d, n, k->fields, k->nfields, err);
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

static void text_node(FILE *f, const struct clyde_stack *s, uint32_t i,
		      unsigned depth)
{
	const struct clyde_stack_node *n = &s->nodes[i];
	char a[32], b[32];

	const struct clyde_stack_kind *k = clyde_stack_node_kind(n);

	fprintf(f, "%*s%s: %s", (int)(2 * depth + 2), "", n->name, k->name);
	if (k->text)
		k->text(f, n);
	else if (n->model[0])
		fprintf(f, " \"%s\"", n->model);
	fprintf(f, ", %s", clyde_stack_fmt_bytes(a, sizeof(a), n->size_bytes));
	if (n->md_state[0])
		fprintf(f, ", slot %d %s", n->md_slot, n->md_state);
	fputc('\n', f);
	/* The queue: for leaves and partitions of them, where it is the
	 * hardware's; a stacked device's is derived from its members. */
	if (n->nchildren == 0 || k->own_queue) {
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

/* What the filesystem calls its journal: "log" for xfs. */
static const char *journal_word(const struct clyde_stack_fs *fs)
{
	const struct clyde_stack_fs_kind *k = clyde_stack_fs_kind_of(fs->type);

	return k && k->journal_word ? k->journal_word : "journal";
}

static void text_fs(FILE *f, const struct clyde_stack_fs *fs)
{
	const struct clyde_stack_fs_kind *k = clyde_stack_fs_kind_of(fs->type);

	fprintf(f, "%s on %s (%s)\n", fs->type, fs->mount_point, fs->source);
	fprintf(f, "  options: %s\n", fs->mount_opts);
	if (fs->block_size)
		fprintf(f, "  block size %u\n", fs->block_size);
	if (k && k->text)
		k->text(f, fs);
	if (fs->journal != CLYDE_JOURNAL_UNKNOWN) {
		fprintf(f, "  %s %s", journal_word(fs),
			clyde_stack_journal_name(fs->journal));
		if (fs->journal_dev[0])
			fprintf(f, " on %s", fs->journal_dev);
		if (k == &clyde_fs_ext4 && fs->data_mode[0])
			fprintf(f, ", data=%s", fs->data_mode);
		fputc('\n', f);
	}
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
		fprintf(f, "  %s device:\n", journal_word(&s->fs));
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

/* One fact per node field over the nodes that pass `want` (or are of
 * kind k). */
static void
node_fact(struct facts *fs, const struct clyde_stack *s, const char *key,
	  bool (*want)(const struct clyde_stack *, size_t),
	  const struct clyde_stack_kind *k,
	  void (*get)(const struct clyde_stack_node *, char *, size_t))
{
	char list[sizeof(fs->out->value)] = "", v[64];

	for (size_t i = 0; i < s->nnodes; i++) {
		if (want ? !want(s, i) :
			   clyde_stack_node_kind(&s->nodes[i]) != k)
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
GETTER(get_maxsec, "%u KiB", n->max_sectors_kb)

/* A device directly under the filesystem (or the target itself): its
 * read-ahead is what a sequential read gets. */
static bool is_top(const struct clyde_stack *s, size_t i)
{
	for (uint32_t k = 0; k < s->ntop && k < CLYDE_STACK_MAX_TOP; k++)
		if (s->top[k] == i)
			return true;
	return false;
}

size_t clyde_stack_facts(const struct clyde_stack *s,
			 struct clyde_stack_fact *out, size_t max)
{
	struct facts fs = { .out = out, .max = max };
	struct clyde_stack_stripe st;
	const char *leaves[CLYDE_STACK_MAX_NODES];
	size_t nleaves = clyde_stack_leaves(s, leaves, CLYDE_STACK_MAX_NODES);
	char opts[sizeof(s->fs.mount_opts)];
	size_t nk;
	const struct clyde_stack_kind *const *kinds = clyde_stack_kinds(&nk);

	if (s->has_fs) {
		const struct clyde_stack_fs *f = &s->fs;
		const struct clyde_stack_fs_kind *own =
			clyde_stack_fs_kind_of(f->type);

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
		for (size_t i = 0; own && i < own->nfacts; i++) {
			char v[sizeof(fs.out->value)];

			own->facts[i].get(f, v, sizeof(v));
			fact(&fs, own->facts[i].key, "%s", v);
		}
	}
	if (clyde_stack_stripe(s, &st) == 0) {
		fact(&fs, "stripe level", "%s", st.level);
		fact_bytes(&fs, "stripe chunk", st.chunk_bytes);
		fact(&fs, "stripe data disks", "%u", st.data_disks);
		fact_bytes(&fs, "full stripe", st.stripe_bytes);
	}
	/* The kinds' own, in the order of the table. */
	for (size_t i = 0; i < nk; i++)
		for (size_t j = 0; j < kinds[i]->nfacts; j++)
			node_fact(&fs, s, kinds[i]->facts[j].key, NULL,
				  kinds[i], kinds[i]->facts[j].get);
	fact(&fs, "members", "%zu", nleaves);
	node_fact(&fs, s, "member kind", is_leaf, NULL, get_kind);
	node_fact(&fs, s, "member model", is_leaf, NULL, get_model);
	node_fact(&fs, s, "member rotational", is_leaf, NULL, get_rot);
	node_fact(&fs, s, "member scheduler", is_leaf, NULL, get_sched);
	node_fact(&fs, s, "member read_ahead", is_leaf, NULL, get_ra);
	node_fact(&fs, s, "member write cache", is_leaf, NULL, get_wc);
	node_fact(&fs, s, "member nr_requests", is_leaf, NULL, get_nr);
	node_fact(&fs, s, "member max_sectors_kb", is_leaf, NULL, get_maxsec);
	node_fact(&fs, s, "device read_ahead", is_top, NULL, get_ra);
	return fs.n;
}
