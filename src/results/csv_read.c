/*
 * The bonnie++ CSV reader (see csv_read.h for the formats and the rules).
 *
 * A line is split into slices of the caller's buffer, never copied whole
 * and never NUL-terminated in place, so that any bytes of any length can
 * be handed in.  Each format is described by the role of each field; one
 * loop walks the fields and dispatches on the role, which also gives every
 * error message the field's number and name.
 */
#include "results/csv_read.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A field: len bytes at p, no terminator. */
struct slice {
	const char *p;
	size_t n;
};

/* The most fields any format has; counting goes on past it. */
#define MAX_FIELDS 50

enum role {
	R_FORMAT,
	R_VERSION,
	R_NAME,
	R_CONC,
	R_SEED,
	R_SIZE,
	R_IO_CHUNK,
	R_SEEKS,
	R_SEEKERS,
	R_NUM_FILES,
	R_MAX,
	R_MIN,
	R_DIRS,
	R_FILE_CHUNK,
	R_SIZE_103,  /* size[:chunk] */
	R_FILES_103, /* num_files[:max[:min]][/ndirs] */
	R_RATE,	     /* the next three carry a test */
	R_CPU,
	R_LATENCY,
};

static const char *const role_names[] = {
	[R_FORMAT] = "format_version",
	[R_VERSION] = "bonnie_version",
	[R_NAME] = "name",
	[R_CONC] = "concurrency",
	[R_SEED] = "seed",
	[R_SIZE] = "file_size",
	[R_IO_CHUNK] = "io_chunk_size",
	[R_SEEKS] = "seeks",
	[R_SEEKERS] = "seek_proc_count",
	[R_NUM_FILES] = "num_files",
	[R_MAX] = "max_size",
	[R_MIN] = "min_size",
	[R_DIRS] = "num_dirs",
	[R_FILE_CHUNK] = "file_chunk_size",
	[R_SIZE_103] = "size",
	[R_FILES_103] = "files",
};

/*
 * A format: `head` parameters, the six IO tests as (rate, cpu) pairs,
 * `mid` parameters, the six file tests likewise, then the twelve latencies
 * up to nfields (none in 1.03).
 */
struct layout {
	enum clyde_csv_format format;
	int nfields;
	const unsigned char *head;
	int nhead;
	const unsigned char *mid;
	int nmid;
};

static const unsigned char head_198[] = {
	R_FORMAT, R_VERSION,  R_NAME,  R_CONC,	  R_SEED,
	R_SIZE,	  R_IO_CHUNK, R_SEEKS, R_SEEKERS,
};
static const unsigned char mid_198[] = {
	R_NUM_FILES, R_MAX, R_MIN, R_DIRS, R_FILE_CHUNK,
};
static const unsigned char head_103[] = { R_NAME, R_SIZE_103 };
static const unsigned char mid_103[] = { R_FILES_103 };

static const struct layout layout_198 = {
	.format = CLYDE_CSV_1_98,
	.nfields = 50,
	.head = head_198,
	.nhead = 9,
	.mid = mid_198,
	.nmid = 5,
};
/* 1.96 is 1.98 without seeks and seek_proc_count. */
static const struct layout layout_196 = {
	.format = CLYDE_CSV_1_96,
	.nfields = 48,
	.head = head_198,
	.nhead = 7,
	.mid = mid_198,
	.nmid = 5,
};
static const struct layout layout_103 = {
	.format = CLYDE_CSV_1_03,
	.nfields = 27,
	.head = head_103,
	.nhead = 2,
	.mid = mid_103,
	.nmid = 1,
};

#define IO_TESTS (CLYDE_FIRST_FILE_TEST - CLYDE_PUTC)
#define FILE_TESTS (CLYDE_TEST_COUNT - CLYDE_FIRST_FILE_TEST)

/* Role of field i of a line in layout l, and its test for R_RATE.. */
static enum role field_role(const struct layout *l, int i, enum clyde_test *t)
{
	*t = CLYDE_PUTC;
	if (i < l->nhead)
		return (enum role)l->head[i];
	i -= l->nhead;
	if (i < 2 * IO_TESTS) {
		*t = (enum clyde_test)(CLYDE_PUTC + i / 2);
		return i % 2 ? R_CPU : R_RATE;
	}
	i -= 2 * IO_TESTS;
	if (i < l->nmid)
		return (enum role)l->mid[i];
	i -= l->nmid;
	if (i < 2 * FILE_TESTS) {
		*t = (enum clyde_test)(CLYDE_FIRST_FILE_TEST + i / 2);
		return i % 2 ? R_CPU : R_RATE;
	}
	i -= 2 * FILE_TESTS;
	*t = (enum clyde_test)i;
	return R_LATENCY;
}

/* Where parsing is, for the error messages. */
struct pstate {
	char *why;
	size_t why_len;
	int field; /* 1-based, 0 before the fields are known */
	char fname[32];
};

static int bad(struct pstate *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record "field N (name): <message>" (or only the message) in st->why. */
static int bad(struct pstate *st, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!st->why_len)
		return -EINVAL;
	if (st->field) {
		n = snprintf(st->why, st->why_len, "field %d (%s): ", st->field,
			     st->fname);
		if (n < 0)
			n = 0;
	}
	if ((size_t)n < st->why_len) {
		va_start(ap, fmt);
		vsnprintf(st->why + n, st->why_len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The bytes of s as a quoted, printable excerpt: input may be anything. */
#define SHOW_MAX 40
struct shown {
	char s[SHOW_MAX + 8];
};

static const char *show(struct shown *b, struct slice s)
{
	size_t o = 0;

	b->s[o++] = '"';
	for (size_t i = 0; i < s.n && i < SHOW_MAX; i++) {
		unsigned char c = (unsigned char)s.p[i];

		b->s[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	b->s[o++] = '"';
	if (s.n > SHOW_MAX) {
		memcpy(b->s + o, "...", 3);
		o += 3;
	}
	b->s[o] = '\0';
	return b->s;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool slice_eq(struct slice s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && memcmp(s.p, lit, n) == 0;
}

static bool slice_ieq(const char *p, size_t n, const char *lit)
{
	size_t i;

	for (i = 0; i < n && lit[i]; i++) {
		char a = p[i], b = lit[i];

		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return false;
	}
	return i == n && !lit[i];
}

/* Split s at the first `sep`: *a before it, *b after (b.p NULL if none). */
static void split_at(struct slice s, char sep, struct slice *a, struct slice *b)
{
	const char *hit = s.n ? memchr(s.p, sep, s.n) : NULL;

	if (!hit) {
		*a = s;
		b->p = NULL;
		b->n = 0;
		return;
	}
	a->p = s.p;
	a->n = (size_t)(hit - s.p);
	b->p = hit + 1;
	b->n = s.n - a->n - 1;
}

/* A unit suffix and what it multiplies by; "" allows a bare number. */
struct unit {
	const char *suffix;
	uint64_t mult;
};

static const struct unit u_plain[] = { { "", 1 }, { NULL, 0 } };
/* File sizes: MiB, with bonnie++'s M/G/T (a bare number is MiB too). */
static const struct unit u_mib[] = {
	{ "", 1 }, { "m", 1 }, { "g", 1024 }, { "t", 1024 * 1024 }, { NULL, 0 }
};
/* Chunk sizes in bytes: "4k", "1m", or bytes. */
static const struct unit u_chunk[] = {
	{ "", 1 }, { "k", 1024 }, { "m", 1024 * 1024 }, { NULL, 0 }
};
/* File sizes of the file tests, in bytes. */
static const struct unit u_bytes[] = { { "", 1 },
				       { "k", 1024 },
				       { "m", 1024 * 1024 },
				       { "g", 1024ull * 1024 * 1024 },
				       { NULL, 0 } };
/* Latencies, to ns; a latency always has a unit. */
static const struct unit u_latency[] = { { "ns", 1 },
					 { "us", 1000 },
					 { "ms", 1000000 },
					 { "s", 1000000000 },
					 { NULL, 0 } };

/*
 * Read s as digits followed by one of `units` into *out (scaled).  What
 * does not fit gets a reason: not a number, a missing or unknown unit, or
 * a value above `max`.
 */
static int parse_scaled(struct pstate *st, struct slice s,
			const struct unit *units, uint64_t max, uint64_t *out)
{
	struct shown b;
	uint64_t v = 0;
	bool ovf = false;
	size_t i = 0, tail;
	const struct unit *u;

	for (; i < s.n && is_digit(s.p[i]); i++) {
		unsigned d = (unsigned)(s.p[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			ovf = true;
		else
			v = v * 10 + d;
	}
	if (i == 0)
		return s.n ? bad(st, "%s is not a number", show(&b, s)) :
			     bad(st, "empty where a number is needed");
	for (tail = i; tail < s.n && is_alpha(s.p[tail]); tail++)
		;
	if (tail != s.n)
		return bad(st, "%s is not a number", show(&b, s));
	for (u = units; u->suffix; u++)
		if (slice_ieq(s.p + i, s.n - i, u->suffix))
			break;
	if (!u->suffix && i == s.n)
		return bad(st, "%s has no unit", show(&b, s));
	if (!u->suffix) {
		struct slice us = { s.p + i, s.n - i };
		struct shown b2;

		return bad(st, "unknown unit %s in %s", show(&b2, us),
			   show(&b, s));
	}
	if (ovf || (v && u->mult > UINT64_MAX / v) || v * u->mult > max)
		return bad(st, "%s is too large", show(&b, s));
	*out = v * u->mult;
	return 0;
}

static int parse_u64(struct pstate *st, struct slice s, uint64_t *out)
{
	return parse_scaled(st, s, u_plain, UINT64_MAX, out);
}

static int parse_u32(struct pstate *st, struct slice s,
		     const struct unit *units, uint32_t *out)
{
	uint64_t v;
	int rc = parse_scaled(st, s, units, UINT32_MAX, &v);

	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

/*
 * A non-negative decimal "digits[.digits]".  The digits are gathered as
 * one integer and divided once by a power of ten, so that "517.6" is the
 * double nearest 517.6; digits beyond 19 only scale (integer part) or are
 * dropped (fraction), far below a measurement's precision.
 */
static int parse_decimal(struct pstate *st, struct slice s, double *out)
{
	static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,	1e4,
					1e5,  1e6,  1e7,  1e8,	1e9,
					1e10, 1e11, 1e12, 1e13, 1e14,
					1e15, 1e16, 1e17, 1e18, 1e19 };
	struct shown b;
	uint64_t mant = 0;
	int ndig = 0, frac = 0;
	double scale = 1.0, v;
	size_t i = 0;

	for (; i < s.n && is_digit(s.p[i]); i++) {
		if (ndig < 19) {
			mant = mant * 10 + (uint64_t)(s.p[i] - '0');
			if (mant)
				ndig++;
		} else {
			scale *= 10.0;
		}
	}
	if (i == 0)
		return bad(st, "%s is not a number", show(&b, s));
	if (i < s.n && s.p[i] == '.') {
		size_t start = ++i;

		for (; i < s.n && is_digit(s.p[i]); i++) {
			if (ndig < 19 && frac < 19 && scale == 1.0) {
				mant = mant * 10 + (uint64_t)(s.p[i] - '0');
				frac++;
				if (mant)
					ndig++;
			}
		}
		if (i == start)
			return bad(st, "%s is not a number", show(&b, s));
	}
	if (i != s.n)
		return bad(st, "%s is not a number", show(&b, s));
	v = (double)mant * scale / pow10[frac];
	if (!(v <= 1e300)) /* also catches an infinity from scale */
		return bad(st, "%s is too large", show(&b, s));
	*out = v;
	return 0;
}

/* "+++++" or "+++": bonnie++'s "ran, but too fast to time". */
static bool is_too_fast(struct slice s)
{
	return slice_eq(s, "+++++") || slice_eq(s, "+++");
}

/* A rate or CPU cell. */
static int parse_cell(struct pstate *st, struct slice s,
		      enum clyde_csv_cell *state, double *v)
{
	int rc;

	*v = 0.0;
	if (!s.n) {
		*state = CLYDE_CSV_EMPTY;
		return 0;
	}
	if (is_too_fast(s)) {
		*state = CLYDE_CSV_TOO_FAST;
		return 0;
	}
	rc = parse_decimal(st, s, v);
	if (!rc)
		*state = CLYDE_CSV_VALUE;
	return rc;
}

/* max_size: bytes, or bonnie++'s "link" (-1) / "symlink" (-2). */
static int parse_max(struct pstate *st, struct slice s, int64_t *out)
{
	uint64_t v;
	int rc;

	if (slice_eq(s, "link")) {
		*out = -1;
		return 0;
	}
	if (slice_eq(s, "symlink")) {
		*out = -2;
		return 0;
	}
	rc = parse_scaled(st, s, u_bytes, INT64_MAX, &v);
	if (!rc)
		*out = (int64_t)v;
	return rc;
}

static int parse_min(struct pstate *st, struct slice s, int64_t *out)
{
	uint64_t v;
	int rc = parse_scaled(st, s, u_bytes, INT64_MAX, &v);

	if (!rc)
		*out = (int64_t)v;
	return rc;
}

static int parse_num_files(struct pstate *st, struct slice s,
			   struct clyde_csv_line *out)
{
	int rc = parse_scaled(st, s, u_plain, UINT64_MAX / 1024,
			      &out->num_files_k);

	if (!rc)
		out->params.num_files = out->num_files_k * 1024;
	return rc;
}

/* 1.03's size[:chunk]: "8G", "300M:4k". */
static int parse_size_103(struct pstate *st, struct slice s,
			  struct clyde_csv_line *out)
{
	struct slice size, chunk;
	int rc;

	if (!s.n)
		return 0;
	split_at(s, ':', &size, &chunk);
	rc = parse_scaled(st, size, u_mib, UINT64_MAX,
			  &out->params.file_size_mib);
	if (!rc && chunk.p)
		rc = parse_u32(st, chunk, u_chunk, &out->params.io_chunk);
	return rc;
}

/* 1.03's num_files[:max[:min]][/ndirs]: "16", "16:100000:16/64". */
static int parse_files_103(struct pstate *st, struct slice s,
			   struct clyde_csv_line *out)
{
	struct slice left, dirs, num, rest, max, min;
	int rc;

	if (!s.n)
		return 0;
	split_at(s, '/', &left, &dirs);
	split_at(left, ':', &num, &rest);
	rc = parse_num_files(st, num, out);
	if (!rc && rest.p) {
		split_at(rest, ':', &max, &min);
		rc = parse_max(st, max, &out->params.max_size);
		if (!rc && min.p)
			rc = parse_min(st, min, &out->params.min_size);
	}
	out->params.num_dirs = 1;
	if (!rc && dirs.p)
		rc = parse_u32(st, dirs, u_plain, &out->params.num_dirs);
	return rc;
}

/* Copy s into dst[cap] when it fits (with its NUL); else a reason. */
static int copy_field(struct pstate *st, struct slice s, char *dst, size_t cap)
{
	struct shown b;

	if (s.n >= cap)
		return bad(st, "%s is longer than %zu bytes", show(&b, s),
			   cap - 1);
	memcpy(dst, s.p, s.n);
	dst[s.n] = '\0';
	return 0;
}

/* The name, cut to fit params.name but not inside a UTF-8 sequence. */
static void copy_name(struct slice s, struct clyde_csv_line *out)
{
	size_t n = s.n, cap = sizeof(out->params.name) - 1;

	if (n > cap) {
		n = cap;
		/* Back up over continuation bytes to a sequence's start. */
		while (n > 0 && ((unsigned char)s.p[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(out->params.name, s.p, n);
	out->params.name[n] = '\0';
}

bool clyde_csv_version_is_bonnie(const char *v)
{
	/* Every release that wrote a 1.96 or 1.98 line (the 1.93/1.94/1.95
	 * betas wrote the same layout), with the Debian-style "2.00a+nmu1"
	 * tails cut off by the comparison below. */
	static const char *const known[] = {
		"1.93c",  "1.93d",  "1.94",   "1.95", "1.96", "1.97",
		"1.97.1", "1.97.2", "1.97.3", "1.98", "2.00", "2.00a",
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t n = strlen(known[i]);

		if (!strncmp(v, known[i], n) && (v[n] == '\0' || v[n] == '+'))
			return true;
	}
	return false;
}

const char *clyde_csv_format_name(enum clyde_csv_format f)
{
	switch (f) {
	case CLYDE_CSV_1_03:
		return "1.03";
	case CLYDE_CSV_1_96:
		return "1.96";
	case CLYDE_CSV_1_98:
		return "1.98";
	}
	return "?";
}

/* Looks like "1.98": digits, a point, digits. */
static bool looks_like_version(struct slice s)
{
	size_t i = 0, d;

	while (i < s.n && is_digit(s.p[i]))
		i++;
	if (!i || i >= s.n || s.p[i] != '.')
		return false;
	d = ++i;
	while (i < s.n && is_digit(s.p[i]))
		i++;
	return i > d && i == s.n;
}

/* Pick the layout of a line of nf fields whose first field is f0. */
static int pick_layout(struct pstate *st, int nf, struct slice f0,
		       const struct layout **l)
{
	struct shown b;

	if (nf == layout_103.nfields) {
		*l = &layout_103;
		return 0;
	}
	if (slice_eq(f0, "1.98"))
		*l = &layout_198;
	else if (slice_eq(f0, "1.96") || slice_eq(f0, "1.97"))
		*l = &layout_196;
	else if (looks_like_version(f0))
		return bad(st, "unknown format version %s", show(&b, f0));
	else
		return bad(st,
			   "not a bonnie++ line: %d field%s (27 in 1.03, 48 "
			   "in 1.96, 50 in 1.98)",
			   nf, nf == 1 ? "" : "s");
	if (nf != (*l)->nfields)
		return bad(st, "format %s has %d fields, this line %d",
			   clyde_csv_format_name((*l)->format), (*l)->nfields,
			   nf);
	return 0;
}

/*
 * num_dirs and file_chunk_size, once the writer is known: clyde's are in
 * their named columns, bonnie++'s num_dirs in whichever is filled.
 */
static int parse_dirs_chunk(struct pstate *st, struct clyde_csv_line *out,
			    struct slice dirs, int dirs_at, struct slice chunk,
			    int chunk_at)
{
	struct clyde_run_params *p = &out->params;
	int rc = 0;

	if (out->writer == CLYDE_CSV_BY_BONNIE && !dirs.n && chunk.n) {
		dirs = chunk;
		dirs_at = chunk_at;
		chunk.n = 0;
	}
	p->num_dirs = out->num_files_k || p->num_files ? 1 : 0;
	if (dirs.n) {
		st->field = dirs_at + 1;
		snprintf(st->fname, sizeof(st->fname), "%s",
			 role_names[R_DIRS]);
		rc = parse_u32(st, dirs, u_plain, &p->num_dirs);
	}
	if (!rc && chunk.n) {
		st->field = chunk_at + 1;
		snprintf(st->fname, sizeof(st->fname), "%s",
			 role_names[R_FILE_CHUNK]);
		rc = parse_u32(st, chunk, u_chunk, &p->file_chunk);
	}
	return rc;
}

/* Parse field i (role r, test t) into out. */
static int parse_field(struct pstate *st, struct clyde_csv_line *out,
		       enum role r, enum clyde_test t, struct slice s)
{
	struct clyde_run_params *p = &out->params;
	struct clyde_csv_test *ct = &out->tests[t];
	int rc = 0;

	switch (r) {
	case R_FORMAT:
		rc = copy_field(st, s, out->format_version,
				sizeof(out->format_version));
		break;
	case R_VERSION:
		rc = copy_field(st, s, out->writer_version,
				sizeof(out->writer_version));
		if (!rc && !clyde_csv_version_is_bonnie(out->writer_version))
			out->writer = CLYDE_CSV_BY_CLYDE;
		break;
	case R_NAME:
		copy_name(s, out);
		break;
	case R_CONC:
		if (s.n)
			rc = parse_u32(st, s, u_plain, &p->concurrency);
		break;
	case R_SEED:
		if (s.n)
			rc = parse_u64(st, s, &p->seed);
		break;
	case R_SIZE:
		if (s.n)
			rc = parse_scaled(st, s, u_mib, UINT64_MAX,
					  &p->file_size_mib);
		break;
	case R_IO_CHUNK:
		if (s.n)
			rc = parse_u32(st, s, u_chunk, &p->io_chunk);
		break;
	case R_SEEKS:
		if (s.n)
			rc = parse_u32(st, s, u_chunk, &p->seeks);
		break;
	case R_SEEKERS:
		if (s.n)
			rc = parse_u32(st, s, u_plain, &p->seekers);
		break;
	case R_NUM_FILES:
		if (s.n)
			rc = parse_num_files(st, s, out);
		break;
	case R_MAX:
		if (s.n)
			rc = parse_max(st, s, &p->max_size);
		break;
	case R_MIN:
		if (s.n)
			rc = parse_min(st, s, &p->min_size);
		break;
	case R_DIRS:
	case R_FILE_CHUNK:
		break; /* parse_dirs_chunk(), once the writer is known */
	case R_SIZE_103:
		rc = parse_size_103(st, s, out);
		break;
	case R_FILES_103:
		rc = parse_files_103(st, s, out);
		break;
	case R_RATE:
		rc = parse_cell(st, s, &ct->state, &ct->rate);
		ct->rate_per_s = clyde_test_is_io(t) ? ct->rate * 1024.0 :
						       ct->rate;
		break;
	case R_CPU:
		rc = parse_cell(st, s, &ct->cpu_state, &ct->cpu_pct);
		break;
	case R_LATENCY:
		if (s.n) {
			rc = parse_scaled(st, s, u_latency, UINT64_MAX,
					  &ct->latency_ns);
			ct->has_latency = !rc;
		}
		break;
	}
	return rc;
}

/* Nothing but blanks. */
static bool is_blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return false;
	return true;
}

int clyde_csv_parse_line(const char *line, size_t len,
			 struct clyde_csv_line *out, char *why, size_t why_len)
{
	struct pstate st = { why, why_len, 0, "" };
	struct slice f[MAX_FIELDS];
	const struct layout *l = NULL;
	int nf = 0, dirs_at = -1, chunk_at = -1;
	struct slice dirs = { NULL, 0 }, chunk = { NULL, 0 };
	size_t start = 0;

	memset(out, 0, sizeof(*out));
	if (why_len)
		why[0] = '\0';
	if (len && line[len - 1] == '\n')
		len--;
	if (len && line[len - 1] == '\r')
		len--;
	if (len && memchr(line, '\0', len))
		return bad(&st, "a NUL byte in the line");
	if (len && (memchr(line, '\n', len) || memchr(line, '\r', len)))
		return bad(&st, "a line break inside the line");
	if (is_blank(line, len))
		return 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		if (nf < MAX_FIELDS) {
			f[nf].p = line + start;
			f[nf].n = i - start;
		}
		if (nf < 1000000) /* only ever compared with 50 */
			nf++;
		start = i + 1;
	}

	/* "format_version,bonnie_version,..." or 1.03's "name,file_size,...";
	 * a data line's second field starts with a digit or is empty. */
	if ((slice_eq(f[0], "format_version") || slice_eq(f[0], "name")) &&
	    nf > 1 && f[1].n && is_alpha(f[1].p[0]))
		return 0;

	if (pick_layout(&st, nf, f[0], &l))
		return -EINVAL;
	out->format = l->format;
	out->writer = CLYDE_CSV_BY_BONNIE; /* 1.03 has no version field */

	for (int i = 0; i < nf; i++) {
		enum clyde_test t;
		enum role r = field_role(l, i, &t);

		st.field = i + 1;
		if (r >= R_RATE)
			snprintf(st.fname, sizeof(st.fname), "%s%s",
				 clyde_test_name(t),
				 r == R_CPU	? "_cpu" :
				 r == R_LATENCY ? "_latency" :
						  "");
		else
			snprintf(st.fname, sizeof(st.fname), "%s",
				 role_names[r]);
		if (r == R_DIRS) {
			dirs = f[i];
			dirs_at = i;
		} else if (r == R_FILE_CHUNK) {
			chunk = f[i];
			chunk_at = i;
		}
		if (parse_field(&st, out, r, t, f[i]))
			return -EINVAL;
	}
	if (dirs_at >= 0 &&
	    parse_dirs_chunk(&st, out, dirs, dirs_at, chunk, chunk_at))
		return -EINVAL;
	return 1;
}

/* ---- files ------------------------------------------------------------ */

void clyde_csv_set_init(struct clyde_csv_set *set)
{
	memset(set, 0, sizeof(*set));
}

void clyde_csv_set_release(struct clyde_csv_set *set)
{
	for (size_t i = 0; i < set->nerrors; i++)
		free(set->errors[i]);
	free(set->errors);
	free(set->lines);
	memset(set, 0, sizeof(*set));
}

/*
 * Make room for one more element in arr (cap of them, n used): returns the
 * array, moved if it had to grow, or NULL (arr untouched) without memory.
 */
static void *grow(void *arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return arr;
	ncap = *cap ? *cap * 2 : 16;
	if (ncap > SIZE_MAX / elem)
		return NULL;
	p = realloc(arr, ncap * elem);
	if (p)
		*cap = ncap;
	return p;
}

static int add_error(struct clyde_csv_set *set, const char *label,
		     unsigned long lineno, const char *why)
{
	char *msg, **errs;

	set->nmalformed++;
	if (set->nerrors >= CLYDE_CSV_MAX_ERRORS)
		return 0;
	errs = grow(set->errors, &set->errors_cap, set->nerrors,
		    sizeof(*set->errors));
	if (!errs)
		return -ENOMEM;
	set->errors = errs;
	if (asprintf(&msg, "%s:%lu: %s", label, lineno, why) < 0)
		return -ENOMEM;
	set->errors[set->nerrors++] = msg;
	return 0;
}

/*
 * Read one line into buf (at most cap bytes kept, without the '\n').
 * Returns 1 for a line (*too_long when bytes were dropped), 0 at the end
 * of the stream with nothing read, -1 on a read error.
 */
static int read_line(FILE *f, char *buf, size_t cap, size_t *len,
		     bool *too_long)
{
	size_t n = 0;
	bool any = false;
	int c;

	*too_long = false;
	while ((c = getc(f)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		if (n < cap)
			buf[n++] = (char)c;
		else
			*too_long = true;
	}
	*len = n;
	if (c == EOF && ferror(f))
		return -1;
	return any ? 1 : 0;
}

int clyde_csv_read_stream(struct clyde_ctx *ctx, FILE *f, const char *label,
			  struct clyde_csv_set *set)
{
	char why[CLYDE_CSV_WHY_LEN];
	unsigned long lineno = 0;
	struct clyde_csv_line line;
	char *buf;
	size_t len;
	bool too_long;
	int rc = 0, got;

	buf = malloc(CLYDE_CSV_LINE_MAX);
	if (!buf)
		return clyde_err(ctx, ENOMEM, "%s: cannot read CSV", label);
	errno = 0;
	while ((got = read_line(f, buf, CLYDE_CSV_LINE_MAX, &len, &too_long)) >
	       0) {
		const char *p = buf;
		int r;

		lineno++;
		if (too_long) {
			snprintf(why, sizeof(why),
				 "line longer than %d bytes, not read",
				 CLYDE_CSV_LINE_MAX);
			r = -EINVAL;
		} else {
			/* Spreadsheets put a byte-order mark first. */
			if (lineno == 1 && len >= 3 &&
			    !memcmp(p, "\xef\xbb\xbf", 3)) {
				p += 3;
				len -= 3;
			}
			r = clyde_csv_parse_line(p, len, &line, why,
						 sizeof(why));
		}
		if (r < 0) {
			if (add_error(set, label, lineno, why))
				goto nomem;
		} else if (r > 0) {
			struct clyde_csv_line *lines;

			lines = grow(set->lines, &set->lines_cap, set->nlines,
				     sizeof(*set->lines));
			if (!lines)
				goto nomem;
			set->lines = lines;
			line.lineno = lineno;
			set->lines[set->nlines++] = line;
		}
	}
	if (got < 0)
		rc = clyde_err(ctx, errno ? errno : EIO, "%s: cannot read",
			       label);
	free(buf);
	return rc;
nomem:
	free(buf);
	return clyde_err(ctx, ENOMEM, "%s: cannot read CSV", label);
}

int clyde_csv_read_file(struct clyde_ctx *ctx, const char *path,
			struct clyde_csv_set *set)
{
	FILE *f = fopen(path, "re");
	int rc;

	if (!f)
		return clyde_err(ctx, errno, "cannot open %s", path);
	rc = clyde_csv_read_stream(ctx, f, path, set);
	fclose(f);
	return rc;
}
