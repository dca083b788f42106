/*
 * The JSON parser (see json_read.h for the rules it enforces).
 *
 * A recursive-descent parser over a byte range that is never assumed to be
 * NUL-terminated.  Recursion is bounded by the depth limit, which is
 * checked before descending, so the C stack use is bounded too.  Numbers
 * are checked against the JSON grammar first and only then converted, in
 * the "C" locale, so that a user's LC_NUMERIC cannot change what a result
 * file says.
 */
#include "core/json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/slurp.h"

struct parser {
	const char *p;
	const char *end;
	unsigned long line;
	unsigned max_depth;
	size_t values, max_values;
	locale_t c_locale; /* (locale_t)0 when newlocale failed */
	struct clyde_json_error *err;
	int rc; /* first error: -EINVAL or -ENOMEM */
};

const char *clyde_json_type_name(enum clyde_json_type t)
{
	static const char *const names[] = {
		[CLYDE_JSON_NULL] = "null",	[CLYDE_JSON_FALSE] = "false",
		[CLYDE_JSON_TRUE] = "true",	[CLYDE_JSON_NUMBER] = "number",
		[CLYDE_JSON_STRING] = "string", [CLYDE_JSON_ARRAY] = "array",
		[CLYDE_JSON_OBJECT] = "object",
	};

	if ((unsigned)t < sizeof(names) / sizeof(names[0]))
		return names[t];
	return "?";
}

/* Record the first error only: later ones are consequences of it. */
__attribute__((format(printf, 2, 3))) static int fail(struct parser *ps,
						      const char *fmt, ...)
{
	va_list ap;

	if (ps->rc)
		return ps->rc;
	ps->rc = -EINVAL;
	if (ps->err) {
		ps->err->line = ps->line;
		va_start(ap, fmt);
		vsnprintf(ps->err->why, sizeof(ps->err->why), fmt, ap);
		va_end(ap);
	}
	return ps->rc;
}

static int fail_nomem(struct parser *ps)
{
	if (ps->rc)
		return ps->rc;
	ps->rc = -ENOMEM;
	if (ps->err) {
		ps->err->line = ps->line;
		snprintf(ps->err->why, sizeof(ps->err->why), "out of memory");
	}
	return ps->rc;
}

/* What is at the cursor, for messages: "'x'", "byte 0x01", "end of input". */
static const char *describe(const struct parser *ps, char *buf, size_t len)
{
	unsigned char c;

	if (ps->p >= ps->end)
		return "end of input";
	c = (unsigned char)*ps->p;
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n')
			ps->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		ps->p++;
	}
}

/* A growable byte buffer for strings being unescaped. */
struct sbuf {
	char *s;
	size_t n, cap;
};

static int sbuf_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->cap - b->n <= n) {
		size_t cap = b->cap ? b->cap : 32;
		char *ns;

		while (cap - b->n <= n)
			cap *= 2;
		ns = realloc(b->s, cap);
		if (!ns)
			return -ENOMEM;
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
	return 0;
}

/* Encode code point cp (valid, not a surrogate) as UTF-8 into out. */
static size_t utf8_encode(unsigned long cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Length of the valid UTF-8 sequence at s (2..4 bytes; the caller handles
 * ASCII), or 0: overlong forms, surrogates and code points past U+10FFFF
 * are invalid. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	size_t n, i;
	unsigned long cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static int hex4(const char *p, const char *end, unsigned long *out)
{
	unsigned long v = 0;
	int i;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned long)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned long)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Parse a string at the cursor (which is at '"') into a new allocation. */
static int parse_string(struct parser *ps, char **out, size_t *out_len)
{
	struct sbuf b = { 0 };
	const char *run;

	ps->p++; /* the opening quote */
	if (sbuf_add(&b, "", 0))
		return fail_nomem(ps);
	run = ps->p;
	for (;;) {
		unsigned char c;

		if (ps->p >= ps->end) {
			fail(ps, "unterminated string");
			goto bad;
		}
		c = (unsigned char)*ps->p;
		if (c == '"' || c == '\\') {
			if (sbuf_add(&b, run, (size_t)(ps->p - run)))
				goto nomem;
		}
		if (c == '"') {
			ps->p++;
			break;
		}
		if (c < 0x20) {
			fail(ps,
			     "control character 0x%02x in a string "
			     "(must be escaped)",
			     c);
			goto bad;
		}
		if (c >= 0x80) {
			size_t n = utf8_len((const unsigned char *)ps->p,
					    (size_t)(ps->end - ps->p));

			if (!n) {
				fail(ps, "invalid UTF-8 in a string");
				goto bad;
			}
			ps->p += n;
			continue;
		}
		if (c != '\\') {
			ps->p++;
			continue;
		}
		/* An escape. */
		if (ps->end - ps->p < 2) {
			fail(ps, "unterminated string");
			goto bad;
		}
		{
			char e = ps->p[1], tmp[4];
			const char *rep = NULL;
			size_t rn = 1;
			unsigned long cp, lo;

			switch (e) {
			case '"':
				rep = "\"";
				break;
			case '\\':
				rep = "\\";
				break;
			case '/':
				rep = "/";
				break;
			case 'b':
				rep = "\b";
				break;
			case 'f':
				rep = "\f";
				break;
			case 'n':
				rep = "\n";
				break;
			case 'r':
				rep = "\r";
				break;
			case 't':
				rep = "\t";
				break;
			case 'u':
				break;
			default:
				fail(ps, "invalid escape '\\%c' in a string",
				     (e > 0x20 && e < 0x7f) ? e : '?');
				goto bad;
			}
			if (rep) {
				ps->p += 2;
			} else {
				if (hex4(ps->p + 2, ps->end, &cp)) {
					fail(ps, "invalid \\u escape "
						 "(needs four hex digits)");
					goto bad;
				}
				ps->p += 6;
				if (cp >= 0xdc00 && cp <= 0xdfff) {
					fail(ps, "lone low surrogate \\u%04lx",
					     cp);
					goto bad;
				}
				if (cp >= 0xd800 && cp <= 0xdbff) {
					if (ps->end - ps->p < 6 ||
					    ps->p[0] != '\\' ||
					    ps->p[1] != 'u' ||
					    hex4(ps->p + 2, ps->end, &lo) ||
					    lo < 0xdc00 || lo > 0xdfff) {
						fail(ps,
						     "high surrogate \\u%04lx "
						     "not followed by a low "
						     "one",
						     cp);
						goto bad;
					}
					ps->p += 6;
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					     (lo - 0xdc00);
				}
				rn = utf8_encode(cp, tmp);
				rep = tmp;
			}
			if (sbuf_add(&b, rep, rn))
				goto nomem;
			run = ps->p;
		}
	}
	*out = b.s;
	*out_len = b.n;
	return 0;
nomem:
	fail_nomem(ps);
bad:
	free(b.s);
	return ps->rc;
}

/* Check the JSON number grammar at the cursor and convert it. */
static int parse_number(struct parser *ps, struct clyde_json *v)
{
	const char *s = ps->p, *q = ps->p;
	bool frac = false, neg = false;
	char buf[64], *copy, *endp;
	size_t n;
	double d;

	if (q < ps->end && *q == '-') {
		neg = true;
		q++;
	}
	if (q >= ps->end || *q < '0' || *q > '9')
		return fail(ps, "invalid number (no digit after '-')");
	if (*q == '0') {
		q++;
		if (q < ps->end && *q >= '0' && *q <= '9')
			return fail(ps, "invalid number (leading zero)");
	} else {
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < ps->end && *q == '.') {
		frac = true;
		q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			return fail(ps, "invalid number (no digit after '.')");
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		frac = true;
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			return fail(
				ps,
				"invalid number (no digit in the exponent)");
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	n = (size_t)(q - s);
	/* strtod needs a terminated copy; most numbers fit the stack. */
	copy = n < sizeof(buf) ? buf : malloc(n + 1);
	if (!copy)
		return fail_nomem(ps);
	memcpy(copy, s, n);
	copy[n] = '\0';
	errno = 0;
	if (ps->c_locale)
		d = strtod_l(copy, &endp, ps->c_locale);
	else
		d = strtod(copy, &endp);
	if (copy != buf)
		free(copy);
	if (isinf(d))
		return fail(ps, "number out of range");
	v->type = CLYDE_JSON_NUMBER;
	v->num = d;
	v->is_int = false;
	if (!frac) {
		/* Exact integer value, when it fits int64_t. */
		const char *r = s + (neg ? 1 : 0);
		uint64_t u = 0;
		bool ok = true;

		for (; r < q; r++) {
			unsigned dg = (unsigned)(*r - '0');

			if (u > (UINT64_MAX - dg) / 10) {
				ok = false;
				break;
			}
			u = u * 10 + dg;
		}
		if (ok && !neg && u <= (uint64_t)INT64_MAX) {
			v->is_int = true;
			v->inum = (int64_t)u;
		} else if (ok && neg && u <= (uint64_t)INT64_MAX + 1) {
			v->is_int = true;
			v->inum = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN :
								 -(int64_t)u;
		}
	}
	ps->p = q;
	return 0;
}

static bool match_word(struct parser *ps, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n))
		return false;
	ps->p += n;
	return true;
}

/* Append a zeroed item to a container; returns it or NULL (no memory). */
static struct clyde_json *add_item(struct clyde_json *c, size_t *cap)
{
	if (c->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		struct clyde_json *ni;

		if (ncap > SIZE_MAX / sizeof(*ni))
			return NULL;
		ni = realloc(c->items, ncap * sizeof(*ni));
		if (!ni)
			return NULL;
		c->items = ni;
		*cap = ncap;
	}
	memset(&c->items[c->n], 0, sizeof(c->items[0]));
	return &c->items[c->n++];
}

static int parse_value(struct parser *ps, struct clyde_json *v, unsigned depth);

static int parse_container(struct parser *ps, struct clyde_json *v,
			   unsigned depth)
{
	bool obj = *ps->p == '{';
	char close = obj ? '}' : ']';
	size_t cap = 0;
	char d[16];

	if (depth >= ps->max_depth)
		return fail(ps, "nesting deeper than %u levels", ps->max_depth);
	v->type = obj ? CLYDE_JSON_OBJECT : CLYDE_JSON_ARRAY;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct clyde_json *item = add_item(v, &cap);

		if (!item)
			return fail_nomem(ps);
		if (obj) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps,
					    "expected a string key, found %s",
					    describe(ps, d, sizeof(d)));
			if (parse_string(ps, &item->key, &item->key_len))
				return ps->rc;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps,
					    "expected ':' after key, found %s",
					    describe(ps, d, sizeof(d)));
			ps->p++;
			skip_ws(ps);
		}
		if (parse_value(ps, item, depth + 1))
			return ps->rc;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_ws(ps);
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		return fail(ps, "expected ',' or '%c' in %s, found %s", close,
			    obj ? "object" : "array",
			    describe(ps, d, sizeof(d)));
	}
}

static int parse_value(struct parser *ps, struct clyde_json *v, unsigned depth)
{
	char d[16];

	v->line = ps->line;
	if (++ps->values > ps->max_values)
		return fail(ps, "more than %zu values", ps->max_values);
	if (ps->p >= ps->end)
		return fail(ps, "expected a value, found end of input");
	switch (*ps->p) {
	case '{':
	case '[':
		return parse_container(ps, v, depth);
	case '"':
		v->type = CLYDE_JSON_STRING;
		return parse_string(ps, &v->str, &v->n);
	case 't':
		if (match_word(ps, "true")) {
			v->type = CLYDE_JSON_TRUE;
			return 0;
		}
		break;
	case 'f':
		if (match_word(ps, "false")) {
			v->type = CLYDE_JSON_FALSE;
			return 0;
		}
		break;
	case 'n':
		if (match_word(ps, "null")) {
			v->type = CLYDE_JSON_NULL;
			return 0;
		}
		break;
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps, v);
		break;
	}
	return fail(ps, "expected a value, found %s",
		    describe(ps, d, sizeof(d)));
}

void clyde_json_free(struct clyde_json *v)
{
	size_t i;

	if (!v)
		return;
	if (v->type == CLYDE_JSON_ARRAY || v->type == CLYDE_JSON_OBJECT) {
		for (i = 0; i < v->n; i++) {
			free(v->items[i].key);
			clyde_json_free(&v->items[i]);
		}
	}
	free(v->items);
	free(v->str);
	v->items = NULL;
	v->str = NULL;
	v->n = 0;
	v->type = CLYDE_JSON_NULL;
}

int clyde_json_parse(const char *text, size_t len,
		     const struct clyde_json_limits *limits,
		     struct clyde_json *root, struct clyde_json_error *err)
{
	struct clyde_json_limits def = { CLYDE_JSON_MAX_BYTES,
					 CLYDE_JSON_MAX_DEPTH,
					 CLYDE_JSON_MAX_VALUES };
	struct parser ps = { 0 };
	char d[16];

	if (!limits)
		limits = &def;
	memset(root, 0, sizeof(*root));
	if (err) {
		err->line = 0;
		err->why[0] = '\0';
	}
	ps.p = text;
	ps.end = text + len;
	ps.line = 1;
	ps.max_depth = limits->max_depth;
	ps.max_values = limits->max_values;
	ps.err = err;
	if (len > limits->max_bytes) {
		ps.line = 0;
		return fail(&ps,
			    "input of %zu bytes is larger than the limit "
			    "of %zu",
			    len, limits->max_bytes);
	}
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		ps.p += 3;
	ps.c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	skip_ws(&ps);
	if (parse_value(&ps, root, 0) == 0) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			fail(&ps, "unexpected %s after the value",
			     describe(&ps, d, sizeof(d)));
	}
	if (ps.c_locale)
		freelocale(ps.c_locale);
	if (ps.rc) {
		clyde_json_free(root);
		memset(root, 0, sizeof(*root));
	}
	return ps.rc;
}

int clyde_json_parse_file(struct clyde_ctx *ctx, const char *path,
			  const struct clyde_json_limits *limits,
			  struct clyde_json *root, struct clyde_json_error *err)
{
	size_t max = limits ? limits->max_bytes : CLYDE_JSON_MAX_BYTES;
	size_t n = 0;
	char *buf = NULL;
	FILE *f;
	int rc;

	memset(root, 0, sizeof(*root));
	if (err) {
		err->line = 0;
		err->why[0] = '\0';
	}
	f = fopen(path, "rb");
	if (!f) {
		rc = clyde_err(ctx, errno, "cannot open %s", path);
		goto out_why;
	}
	rc = clyde_slurp_stream(f, max, &buf, &n);
	fclose(f);
	if (rc == -ENOMEM)
		return clyde_err(ctx, ENOMEM, "reading %s", path);
	if (rc == -EFBIG) /* refused by its length alone, before reading */
		return clyde_json_parse("", max + 1, limits, root, err);
	if (rc < 0) {
		rc = clyde_err(ctx, EIO, "cannot read %s", path);
		goto out_why;
	}
	rc = clyde_json_parse(buf, n, limits, root, err);
	free(buf);
	return rc;
out_why:
	if (err)
		snprintf(err->why, sizeof(err->why), "%s", strerror(-rc));
	return rc;
}

const struct clyde_json *clyde_json_get(const struct clyde_json *obj,
					const char *key)
{
	size_t i, kl;

	if (!obj || obj->type != CLYDE_JSON_OBJECT || !key)
		return NULL;
	kl = strlen(key);
	for (i = 0; i < obj->n; i++)
		if (obj->items[i].key_len == kl &&
		    !memcmp(obj->items[i].key, key, kl))
			return &obj->items[i];
	return NULL;
}

const struct clyde_json *clyde_json_at(const struct clyde_json *v, size_t i)
{
	if (!v ||
	    (v->type != CLYDE_JSON_ARRAY && v->type != CLYDE_JSON_OBJECT) ||
	    i >= v->n)
		return NULL;
	return &v->items[i];
}

const char *clyde_json_str(const struct clyde_json *v)
{
	return v && v->type == CLYDE_JSON_STRING ? v->str : NULL;
}

bool clyde_json_double(const struct clyde_json *v, double *out)
{
	if (!v || v->type != CLYDE_JSON_NUMBER)
		return false;
	*out = v->num;
	return true;
}

bool clyde_json_u64(const struct clyde_json *v, uint64_t *out)
{
	if (!v || v->type != CLYDE_JSON_NUMBER)
		return false;
	if (v->is_int) {
		if (v->inum < 0)
			return false;
		*out = (uint64_t)v->inum;
		return true;
	}
	/* 18446744073709551616.0 is 2^64: the first double that no longer
	 * fits. */
	if (!(v->num >= 0) || v->num >= 18446744073709551616.0 ||
	    v->num != floor(v->num))
		return false;
	*out = (uint64_t)v->num;
	return true;
}

bool clyde_json_bool(const struct clyde_json *v, bool *out)
{
	if (!v || (v->type != CLYDE_JSON_TRUE && v->type != CLYDE_JSON_FALSE))
		return false;
	*out = v->type == CLYDE_JSON_TRUE;
	return true;
}
