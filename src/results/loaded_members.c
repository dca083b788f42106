/*
 * The member disks of a clyde JSON result, for the report (see loaded.h):
 * per test (tree: per phase) the counters of each leaf device under the
 * target, and the members_check sentences.  Only the first repeat that
 * has members is read: the counters are a picture of what the stack did,
 * not a figure to average.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/loaded.h"

void clyde_loaded_members_release(struct clyde_loaded_run *r)
{
	size_t i;

	for (i = 0; i < r->nmember_findings; i++)
		free(r->member_findings[i]);
	free(r->member_findings);
	free(r->members);
	free(r->ios);
	r->ios = NULL;
	r->nios = 0;
	r->members = NULL;
	r->member_findings = NULL;
	r->nmembers = r->nmember_findings = 0;
}

static bool get_u64(const struct clyde_json *o, const char *key, uint64_t *v)
{
	return clyde_json_u64(clyde_json_get(o, key), v);
}

/* One member object of test `test`; false when it lacks a counter. */
static bool member(struct clyde_loaded_member *m, const char *test,
		   const struct clyde_json *o)
{
	const char *dev = clyde_json_str(clyde_json_get(o, "device"));

	memset(m, 0, sizeof(*m));
	if (!dev || !get_u64(o, "read_bytes", &m->read_bytes) ||
	    !get_u64(o, "write_bytes", &m->write_bytes) ||
	    !get_u64(o, "read_ios", &m->read_ios) ||
	    !get_u64(o, "write_ios", &m->write_ios) ||
	    !get_u64(o, "io_ticks_ms", &m->io_ticks_ms))
		return false;
	snprintf(m->test, sizeof(m->test), "%s", test);
	snprintf(m->device, sizeof(m->device), "%s", dev);
	dev = clyde_json_str(clyde_json_get(o, "role"));
	snprintf(m->role, sizeof(m->role), "%s", dev ? dev : "");
	m->has_wa = clyde_json_double(clyde_json_get(o, "write_amplification"),
				      &m->wa);
	return true;
}

static int add_member(struct clyde_loaded_run *r, const char *test,
		      const struct clyde_json *o)
{
	struct clyde_loaded_member m, *nm;

	if (!member(&m, test, o))
		return 0;
	nm = realloc(r->members, (r->nmembers + 1) * sizeof(*nm));
	if (!nm)
		return -ENOMEM;
	r->members = nm;
	r->members[r->nmembers++] = m;
	return 0;
}

static int add_finding(struct clyde_loaded_run *r, const char *text)
{
	char **nf = realloc(r->member_findings,
			    (r->nmember_findings + 1) * sizeof(*nf));

	if (!nf)
		return -ENOMEM;
	r->member_findings = nf;
	nf[r->nmember_findings] = strdup(text);
	if (!nf[r->nmember_findings])
		return -ENOMEM;
	r->nmember_findings++;
	return 0;
}

/* Test `test`'s "io" and "settle" objects, when it has them. */
static int add_io(struct clyde_loaded_run *r, const char *test,
		  const struct clyde_json *t)
{
	const struct clyde_json *o = clyde_json_get(t, "io");
	const struct clyde_json *s = clyde_json_get(t, "settle");
	const struct clyde_json *v;
	struct clyde_loaded_io io, *ni;
	const char *str;

	memset(&io, 0, sizeof(io));
	if (!o || o->type != CLYDE_JSON_OBJECT ||
	    !get_u64(o, "read_bytes", &io.read_bytes) ||
	    !get_u64(o, "write_bytes", &io.write_bytes))
		return 0;
	v = clyde_json_get(o, "present");
	if (!v || v->type != CLYDE_JSON_TRUE)
		return 0;
	snprintf(io.test, sizeof(io.test), "%s", test);
	v = clyde_json_get(o, "attributed");
	io.attributed = v && v->type == CLYDE_JSON_TRUE;
	str = clyde_json_str(clyde_json_get(o, "own_source"));
	snprintf(io.source, sizeof(io.source), "%s", str ? str : "");
	if (io.attributed) {
		(void)get_u64(o, "other_read_bytes", &io.other_read_bytes);
		(void)get_u64(o, "other_write_bytes", &io.other_write_bytes);
	}
	v = clyde_json_get(o, "other_shown");
	io.other_shown = v && v->type == CLYDE_JSON_TRUE;
	io.has_wa = clyde_json_double(clyde_json_get(o, "write_amplification"),
				      &io.wa);
	v = s ? clyde_json_get(s, "busy") : NULL;
	io.busy_start = v && v->type == CLYDE_JSON_TRUE;
	str = s ? clyde_json_str(clyde_json_get(s, "still_going_on")) : NULL;
	snprintf(io.busy_why, sizeof(io.busy_why), "%s", str ? str : "");
	ni = realloc(r->ios, (r->nios + 1) * sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	r->ios = ni;
	r->ios[r->nios++] = io;
	return 0;
}

/* The tests of one repeat. */
static int one_repeat(struct clyde_loaded_run *r,
		      const struct clyde_json *tests)
{
	size_t i, j;

	for (i = 0; i < tests->n; i++) {
		const struct clyde_json *t = &tests->items[i];
		const struct clyde_json *ms = clyde_json_get(t, "members");
		const struct clyde_json *fs = clyde_json_get(
			clyde_json_get(t, "members_check"), "findings");
		const char *name = clyde_json_str(clyde_json_get(t, "name"));

		if (!name)
			continue;
		if (add_io(r, name, t))
			return -ENOMEM;
		if (ms && ms->type == CLYDE_JSON_ARRAY)
			for (j = 0; j < ms->n; j++)
				if (add_member(r, name, &ms->items[j]))
					return -ENOMEM;
		if (fs && fs->type == CLYDE_JSON_ARRAY)
			for (j = 0; j < fs->n; j++) {
				const char *s = clyde_json_str(&fs->items[j]);

				if (s && add_finding(r, s))
					return -ENOMEM;
			}
	}
	return 0;
}

int clyde_loaded_json_members(struct clyde_loaded_run *r,
			      const struct clyde_json *runs, const char *array)
{
	size_t i;

	for (i = 0; runs && i < runs->n && !r->nmembers; i++) {
		const struct clyde_json *tests =
			clyde_json_get(&runs->items[i], array);

		clyde_loaded_members_release(r);
		if (tests && tests->type == CLYDE_JSON_ARRAY &&
		    one_repeat(r, tests)) {
			clyde_loaded_members_release(r);
			return -ENOMEM;
		}
	}
	return 0;
}
