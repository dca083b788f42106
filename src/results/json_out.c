#include "results/json_out.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "results/format.h"

void clyde_jw_init(struct clyde_jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

/* Write s as a JSON string.  Quotes, backslashes and control characters
 * are escaped; so are U+2028/U+2029 (harmless in JSON, but not in a
 * JavaScript string once the result is embedded in an HTML report); a
 * byte that does not start a valid UTF-8 sequence becomes U+FFFD. */
void clyde_jw_string(struct clyde_jw *w, const char *s, size_t n)
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
void clyde_jw_member(struct clyde_jw *w, const char *key)
{
	if (w->nonempty[w->depth])
		fputc(',', w->f);
	w->nonempty[w->depth] = true;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
	if (key) {
		clyde_jw_string(w, key, strlen(key));
		fputs(": ", w->f);
	}
}

void clyde_jw_open(struct clyde_jw *w, const char *key, char bracket)
{
	if (w->depth > 0 || key)
		clyde_jw_member(w, key);
	fputc(bracket, w->f);
	if (w->depth + 1 < CLYDE_JW_MAX_DEPTH)
		w->depth++;
	w->nonempty[w->depth] = false;
}

void clyde_jw_close(struct clyde_jw *w, char bracket)
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

void clyde_jw_u64(struct clyde_jw *w, const char *key, uint64_t v)
{
	clyde_jw_member(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void clyde_jw_i64(struct clyde_jw *w, const char *key, int64_t v)
{
	clyde_jw_member(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void clyde_jw_null(struct clyde_jw *w, const char *key)
{
	clyde_jw_member(w, key);
	fputs("null", w->f);
}

/*
 * A number with `decimals` decimals, or null when it is NaN or infinite
 * (JSON has no such numbers).  Huge values switch to the exponent form so
 * that no digit is lost to a buffer; both forms are valid JSON numbers.
 * snprintf follows LC_NUMERIC, so a ',' point is turned back into '.'.
 */
void clyde_jw_num(struct clyde_jw *w, const char *key, double v, int decimals)
{
	char buf[64];

	if (!isfinite(v)) {
		clyde_jw_null(w, key);
		return;
	}
	if (fabs(v) >= 1e15)
		snprintf(buf, sizeof(buf), "%.17g", v);
	else
		snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	/* "-0.000" is valid but reads oddly; a tiny negative is a zero. */
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	clyde_jw_member(w, key);
	fputs(buf, w->f);
}

void clyde_jw_bool(struct clyde_jw *w, const char *key, bool v)
{
	clyde_jw_member(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* A string, or null when s is NULL. */
void clyde_jw_str(struct clyde_jw *w, const char *key, const char *s,
		  size_t max)
{
	clyde_jw_member(w, key);
	if (s)
		clyde_jw_string(w, s, strnlen(s, max));
	else
		fputs("null", w->f);
}

#define CLYDE_JW_ARR(w, key, arr) clyde_jw_str(w, key, arr, sizeof(arr))

void clyde_jw_machine(struct clyde_jw *w, const struct clyde_machine *m)
{
	clyde_jw_open(w, "machine", '{');
	CLYDE_JW_ARR(w, "host", m->host);
	CLYDE_JW_ARR(w, "kernel", m->kernel);
	CLYDE_JW_ARR(w, "cpu_model", m->cpu_model);
	clyde_jw_u64(w, "ncpu", m->ncpu);
	clyde_jw_u64(w, "ram_bytes", m->ram_bytes);
	clyde_jw_open(w, "vm", '{');
	for (int t = 0; t < CLYDE_VM_COUNT; t++) {
		const char *k = clyde_vm_tunable_name((enum clyde_vm_tunable)t);

		if (m->vm[t] >= 0)
			clyde_jw_u64(w, k, (uint64_t)m->vm[t]);
		else
			clyde_jw_null(w, k);
	}
	clyde_jw_close(w, '}');
	clyde_jw_close(w, '}');
}

void clyde_jw_target(struct clyde_jw *w, const struct clyde_target *t)
{
	clyde_jw_open(w, "target", '{');
	CLYDE_JW_ARR(w, "path", t->path);
	CLYDE_JW_ARR(w, "fstype", t->fstype);
	CLYDE_JW_ARR(w, "mount_point", t->mount_point);
	CLYDE_JW_ARR(w, "mount_opts", t->mount_opts);
	CLYDE_JW_ARR(w, "source", t->source);
	clyde_jw_bool(w, "has_block_device", t->has_block_device);
	CLYDE_JW_ARR(w, "no_device_reason", t->no_device_reason);
	CLYDE_JW_ARR(w, "block_dev", t->block_dev);
	CLYDE_JW_ARR(w, "disk", t->disk);
	clyde_jw_u64(w, "logical_block_size", t->logical_block_size);
	clyde_jw_u64(w, "physical_block_size", t->physical_block_size);
	clyde_jw_bool(w, "rotational", t->rotational);
	clyde_jw_close(w, '}');
}

/* The latency summary and the non-empty buckets, or null when nothing
 * was recorded. */
void clyde_jw_latency(struct clyde_jw *w, const char *key,
		      const struct clyde_hist *h, uint32_t sample_every)
{
	struct clyde_hist_iter it;
	struct clyde_hist_bucket b;

	if (!h || !clyde_hist_count(h)) {
		clyde_jw_null(w, key);
		return;
	}
	clyde_jw_open(w, key, '{');
	clyde_jw_u64(w, "count", clyde_hist_count(h));
	clyde_jw_u64(w, "min_ns", clyde_hist_min(h));
	clyde_jw_num(w, "mean_ns", clyde_hist_mean(h), 1);
	clyde_jw_u64(w, "p50_ns", clyde_hist_quantile(h, 0.50));
	clyde_jw_u64(w, "p90_ns", clyde_hist_quantile(h, 0.90));
	clyde_jw_u64(w, "p99_ns", clyde_hist_quantile(h, 0.99));
	clyde_jw_u64(w, "p999_ns", clyde_hist_quantile(h, 0.999));
	clyde_jw_u64(w, "max_ns", clyde_hist_max(h));
	clyde_jw_u64(w, "sample_every", sample_every > 1 ? sample_every : 1);
	/* One compact line per bucket: a histogram may have hundreds. */
	clyde_jw_open(w, "buckets", '[');
	clyde_hist_iter_init(&it, h);
	while (clyde_hist_iter_next(&it, &b)) {
		clyde_jw_member(w, NULL);
		fprintf(w->f, "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", b.lo,
			b.hi, b.count);
	}
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

void clyde_jw_device(struct clyde_jw *w, const struct clyde_devio *d,
		     uint64_t written)
{
	clyde_jw_device_wa(w, d,
			   d->have_device && written ?
				   (double)d->write_bytes / (double)written :
				   -1.0);
}

void clyde_jw_device_wa(struct clyde_jw *w, const struct clyde_devio *d,
			double wa)
{
	clyde_jw_open(w, "device", '{');
	clyde_jw_bool(w, "present", d->have_device);
	clyde_jw_u64(w, "read_bytes", d->read_bytes);
	clyde_jw_u64(w, "write_bytes", d->write_bytes);
	clyde_jw_u64(w, "read_ios", d->read_ios);
	clyde_jw_u64(w, "write_ios", d->write_ios);
	clyde_jw_u64(w, "read_merges", d->read_merges);
	clyde_jw_u64(w, "write_merges", d->write_merges);
	clyde_jw_num(w, "avg_read_request_bytes",
		     d->read_ios ? (double)d->read_bytes / (double)d->read_ios :
				   0.0,
		     3);
	clyde_jw_num(w, "avg_write_request_bytes",
		     d->write_ios ?
			     (double)d->write_bytes / (double)d->write_ios :
			     0.0,
		     3);
	if (wa >= 0.0)
		clyde_jw_num(w, "write_amplification", wa, 4);
	else
		clyde_jw_null(w, "write_amplification");
	clyde_jw_close(w, '}');
}
