/*
 * Stored runs as loaded runs (see history.h): the document read back by
 * the results loader, named by the history's label and carrying the
 * user's note, so that `history show`, `compare` and `report` show what
 * `clyde compare` would of the same file; and the ids of every run.
 */
#include "store/history.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/loaded.h"
#include "store/history_internal.h"

/* Add the key "note" to a loaded run, so that the compare legend and the
 * report's "what differs" table show the user's note. */
static int add_note_kv(struct clyde_loaded_run *r, const char *note)
{
	struct clyde_loaded_kv *kv;

	if (!note[0])
		return 0;
	kv = realloc(r->kv, (r->nkv + 1) * sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	r->kv = kv;
	kv[r->nkv].key = strdup("note");
	kv[r->nkv].value = strdup(note);
	if (!kv[r->nkv].key || !kv[r->nkv].value) {
		free(kv[r->nkv].key);
		free(kv[r->nkv].value);
		return -ENOMEM;
	}
	r->nkv++;
	return 0;
}

int clyde_history_load(struct clyde_ctx *ctx, struct clyde_history *h,
		       int64_t id, bool by_file, struct clyde_history_entry *e,
		       struct clyde_loaded_set *set)
{
	char name[PATH_MAX + 32], *doc = NULL;
	size_t len = 0, before = set->nruns;
	struct clyde_loaded_run *r;
	int rc;

	rc = clyde_history_get(ctx, h, id, e, &doc, &len);
	if (rc < 0)
		return rc;
	if (by_file && e->source[0])
		snprintf(name, sizeof(name), "%s", e->source);
	else
		snprintf(name, sizeof(name), "history:%" PRId64, id);
	rc = clyde_loaded_read_buffer(ctx, doc, len, name, set);
	free(doc);
	if (rc < 0)
		return rc;
	if (set->nruns != before + 1)
		return clyde_err(ctx, 0, "run %" PRId64 " cannot be read back",
				 id),
		       -EINVAL;
	r = &set->runs[before];
	if (e->label[0] && strcmp(r->label, e->label)) {
		char *l = strdup(e->label);

		if (!l)
			return clyde_err(ctx, ENOMEM, "run %" PRId64, id);
		free(r->label);
		r->label = l;
	}
	if (add_note_kv(r, e->note) < 0)
		return clyde_err(ctx, ENOMEM, "run %" PRId64, id);
	return 0;
}

int clyde_history_load_all(struct clyde_ctx *ctx, struct clyde_history *h,
			   const int64_t *ids, size_t n, bool by_file,
			   struct clyde_loaded_set *set, char **names)
{
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		struct clyde_history_entry e = { 0 };

		rc = clyde_history_load(ctx, h, ids[i], by_file, &e, set);
		/* "#ID label": ids are what the user typed, labels are often
		 * all the host's name. */
		if (rc == 0 && asprintf(&names[i], "#%" PRId64 "%s%s", e.id,
					e.label[0] ? " " : "", e.label) < 0) {
			names[i] = NULL;
			rc = clyde_err(ctx, ENOMEM, "run %" PRId64, ids[i]);
		}
		clyde_history_entry_release(&e);
	}
	return rc;
}

static int by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int clyde_history_all_ids(struct clyde_ctx *ctx, struct clyde_history *h,
			  int64_t **ids, size_t *n)
{
	struct clyde_history_entry *e = NULL;
	size_t cnt = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	rc = clyde_history_list(ctx, h, 0, &e, &cnt);
	if (rc < 0)
		return rc;
	*ids = calloc(cnt ? cnt : 1, sizeof(**ids));
	if (!*ids) {
		clyde_history_entries_free(e, cnt);
		return clyde_err(ctx, ENOMEM, "%s", clyde_history_path(h));
	}
	for (size_t i = 0; i < cnt; i++)
		(*ids)[i] = e[i].id;
	clyde_history_entries_free(e, cnt);
	/* The list is newest first by run date: the order stored instead. */
	qsort(*ids, cnt, sizeof(**ids), by_id);
	*n = cnt;
	return 0;
}

bool clyde_history_doc_is_json(const char *doc, size_t len)
{
	return clyde_history_starts_json(doc, len);
}
