/*
 * clyde's own result format: one JSON object with every parameter and the
 * raw measurements of every test and worker, so nothing the run measured
 * is lost to rounding.  Derived numbers (rate_per_s, cpu_pct, too_fast)
 * are there for convenience; readers can recompute them.
 *
 * The writer below is a tiny streaming emitter: each value is one call
 * with its key, and objects/arrays are opened and closed explicitly, so a
 * new field is one line where it belongs.
 */
#include "results/format.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define JSON_MAX_DEPTH 16

struct jw {
	FILE *f;
	int depth;
	/* Per level: has a member been written yet (comma and layout). */
	bool nonempty[JSON_MAX_DEPTH];
};

/* Write s as a JSON string.  Quotes, backslashes and control characters
 * are escaped; so are U+2028/U+2029 (harmless in JSON, but not in a
 * JavaScript string once the result is embedded in an HTML report); a
 * byte that does not start a valid UTF-8 sequence becomes U+FFFD. */
static void jw_string(struct jw *w, const char *s, size_t n)
{
	size_t i = 0;

	fputc('"', w->f);
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t sl = clyde_utf8_seq_len(s + i, n - i);

		if (sl == 0) {
			fputs("\\ufffd", w->f);
			i++;
			continue;
		}
		if (sl == 3 && c == 0xe2 && (unsigned char)s[i + 1] == 0x80 &&
		    ((unsigned char)s[i + 2] == 0xa8 ||
		     (unsigned char)s[i + 2] == 0xa9)) {
			fprintf(w->f, "\\u%04x",
				0x2000u + ((unsigned char)s[i + 2] - 0x80u));
			i += 3;
			continue;
		}
		if (sl > 1) {
			fwrite(s + i, 1, sl, w->f);
			i += sl;
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", w->f);
			break;
		case '\\':
			fputs("\\\\", w->f);
			break;
		case '\n':
			fputs("\\n", w->f);
			break;
		case '\r':
			fputs("\\r", w->f);
			break;
		case '\t':
			fputs("\\t", w->f);
			break;
		case '\b':
			fputs("\\b", w->f);
			break;
		case '\f':
			fputs("\\f", w->f);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(w->f, "\\u%04x", c);
			else
				fputc(c, w->f);
		}
		i++;
	}
	fputc('"', w->f);
}

/* Start a member (key may be NULL inside an array): comma, newline and
 * indentation as needed. */
static void jw_member(struct jw *w, const char *key)
{
	if (w->nonempty[w->depth])
		fputc(',', w->f);
	w->nonempty[w->depth] = true;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
	if (key) {
		jw_string(w, key, strlen(key));
		fputs(": ", w->f);
	}
}

static void jw_open(struct jw *w, const char *key, char bracket)
{
	if (w->depth > 0 || key)
		jw_member(w, key);
	fputc(bracket, w->f);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->nonempty[w->depth] = false;
}

static void jw_close(struct jw *w, char bracket)
{
	bool had = w->nonempty[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had) {
		fputc('\n', w->f);
		for (int i = 0; i < w->depth; i++)
			fputs("  ", w->f);
	}
	fputc(bracket, w->f);
}

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_member(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

static void jw_i64(struct jw *w, const char *key, int64_t v)
{
	jw_member(w, key);
	fprintf(w->f, "%" PRId64, v);
}

static void jw_double(struct jw *w, const char *key, double v, int decimals)
{
	char buf[CLYDE_FMT_LEN];

	jw_member(w, key);
	fputs(clyde_fmt_double(buf, sizeof(buf), v, decimals), w->f);
}

static void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_member(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* A string, or null when s is NULL. */
static void jw_str(struct jw *w, const char *key, const char *s, size_t max)
{
	jw_member(w, key);
	if (s)
		jw_string(w, s, strnlen(s, max));
	else
		fputs("null", w->f);
}

static void json_params(struct jw *w, const struct clyde_run_params *p)
{
	jw_open(w, "params", '{');
	jw_str(w, "name", p->name, sizeof(p->name));
	jw_u64(w, "concurrency", p->concurrency);
	jw_u64(w, "seed", p->seed);
	jw_u64(w, "file_size_mib", p->file_size_mib);
	jw_u64(w, "io_chunk", p->io_chunk);
	jw_u64(w, "seeks", p->seeks);
	jw_u64(w, "seekers", p->seekers);
	jw_u64(w, "num_files", p->num_files);
	jw_i64(w, "max_size", p->max_size);
	jw_i64(w, "min_size", p->min_size);
	jw_u64(w, "num_dirs", p->num_dirs);
	jw_u64(w, "file_chunk", p->file_chunk);
	jw_bool(w, "direct", p->direct);
	jw_bool(w, "fsync_each", p->fsync_each);
	jw_close(w, '}');
}

static void json_span(struct jw *w, unsigned index, const struct clyde_span *s)
{
	jw_open(w, NULL, '{');
	jw_u64(w, "index", index);
	jw_u64(w, "start_ns", s->start_ns);
	jw_u64(w, "end_ns", s->end_ns);
	jw_u64(w, "bytes", s->bytes);
	jw_u64(w, "ops", s->ops);
	jw_u64(w, "cpu_user_ns", s->cpu_user_ns);
	jw_u64(w, "cpu_sys_ns", s->cpu_sys_ns);
	jw_u64(w, "latency_max_ns", s->latency_max_ns);
	jw_close(w, '}');
}

static const char *state_name(enum clyde_test_state s)
{
	switch (s) {
	case CLYDE_DONE:
		return "done";
	case CLYDE_SKIPPED:
		return "skipped";
	case CLYDE_NOT_RUN:
		break;
	}
	return "not_run";
}

static void json_test(struct jw *w, enum clyde_test id,
		      const struct clyde_test_result *t)
{
	jw_open(w, NULL, '{');
	jw_str(w, "name", clyde_test_name(id), 64);
	jw_str(w, "state", state_name(t->state), 64);
	jw_str(w, "note", t->note, 4096);
	jw_u64(w, "bytes", t->bytes);
	jw_u64(w, "ops", t->ops);
	jw_u64(w, "elapsed_ns", t->elapsed_ns);
	jw_u64(w, "cpu_user_ns", t->cpu_user_ns);
	jw_u64(w, "cpu_sys_ns", t->cpu_sys_ns);
	jw_u64(w, "latency_max_ns", t->latency_max_ns);
	jw_double(w, "rate_per_s", clyde_test_rate(t, id), 3);
	jw_double(w, "cpu_pct", clyde_test_cpu_pct(t), 2);
	jw_bool(w, "too_fast", clyde_fmt_show(t) == CLYDE_SHOW_TOO_FAST);
	jw_open(w, "workers", '[');
	for (unsigned i = 0; t->spans && i < t->nworkers; i++)
		json_span(w, i, &t->spans[i]);
	jw_close(w, ']');
	jw_close(w, '}');
}

int clyde_json_write(FILE *f, const struct clyde_run *run, const char *version)
{
	struct jw w = { .f = f };

	errno = 0;
	jw_open(&w, NULL, '{');
	jw_str(&w, "clyde_version", version, 256);
	json_params(&w, &run->params);
	jw_open(&w, "tests", '[');
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		json_test(&w, (enum clyde_test)i, &run->tests[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	fputc('\n', f);
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
