/*
 * The option model (optmodel.h): one parser, one set of messages and one
 * --help layout for the tables of every command.
 */
#include "cli/optmodel.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/size.h"
#include "io/engine.h"

/* --help: the option column, its gap and the line width. */
#define SPEC_WIDTH 22
#define HELP_COL (2 + SPEC_WIDTH + 2)
#define LINE_WIDTH 80

static int bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static enum clyde_opt_arg arg_of(const struct clyde_opt *o)
{
	switch (o->type) {
	case CLYDE_OPT_FLAG:
	case CLYDE_OPT_HELP:
	case CLYDE_OPT_VERSION:
	case CLYDE_OPT_REFUSE:
		return CLYDE_ARG_NONE;
	default:
		return o->has_arg == CLYDE_ARG_DEFAULT ? CLYDE_ARG_REQUIRED :
							 o->has_arg;
	}
}

static uint64_t field_max(const struct clyde_opt *o)
{
	if (o->width == 0 || o->width >= 8)
		return UINT64_MAX;
	return (1ull << (8 * o->width)) - 1;
}

static uint64_t max_of(const struct clyde_opt *o)
{
	return o->max ? o->max : field_max(o);
}

static void store_uint(void *base, const struct clyde_opt *o, uint64_t v)
{
	char *p = (char *)base + o->off;
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (o->width) {
	case 1:
		memcpy(p, &v8, 1);
		break;
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	default:
		memcpy(p, &v, 8);
		break;
	}
}

static uint64_t load_uint(const void *base, const struct clyde_opt *o)
{
	const char *p = (const char *)base + o->off;
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v;

	switch (o->width) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v, p, 8);
		return v;
	}
}

/* v as the option would accept it: with the largest suffix that divides
 * it exactly, else as plain digits. */
static void num_text(const struct clyde_opt *o, uint64_t v, char *buf,
		     size_t len)
{
	const char *sfx = o->suffixes ? o->suffixes : "";
	size_t ns = strlen(sfx);

	for (size_t i = ns; i-- > 0;) {
		unsigned sh = o->shift + 10u * (unsigned)i;

		if (sh > 0 && sh < 64 && v && !(v & ((1ull << sh) - 1))) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(v >> sh), sfx[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* A bound of a decimal option: "100", "0.5", never "1e+06". */
static void dbl_text(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
}

/* The separator before a note: "(0 disables...)" follows a space, "or -1
 * ..." a comma, anything else a semicolon. */
static const char *note_sep(const char *note)
{
	return !note			? "" :
	       note[0] == '('		? " " :
	       !strncmp(note, "or ", 3) ? ", " :
					  "; ";
}

void clyde_opt_range_text(const struct clyde_opt *o, char *buf, size_t len)
{
	char lo[32], hi[32];
	const char *note = o->note ? o->note : "";

	if (o->type == CLYDE_OPT_DOUBLE || o->type == CLYDE_OPT_SECONDS) {
		dbl_text(o->dmin, lo, sizeof(lo));
		dbl_text(o->dmax, hi, sizeof(hi));
		if (o->dmax > 0)
			snprintf(buf, len, "must be %s %s and %s %s%s%s",
				 o->dmin_open ? "above" : "at least", lo,
				 o->dmax_open ? "below" : "at most", hi,
				 note_sep(o->note), note);
		else
			snprintf(buf, len, "must be %s %s%s%s",
				 o->dmin_open ? "above" : "at least", lo,
				 note_sep(o->note), note);
		return;
	}
	num_text(o, o->min, lo, sizeof(lo));
	num_text(o, max_of(o), hi, sizeof(hi));
	if (o->min == 0 && !o->pow2)
		snprintf(buf, len, "must be at most %s%s%s", hi,
			 note_sep(o->note), note);
	else
		snprintf(buf, len, "must be %sfrom %s to %s%s%s",
			 o->pow2 ? "a power of two " : "", lo, hi,
			 note_sep(o->note), note);
}

/* "a, b or c" from an enum's choices. */
static void choices_text(const struct clyde_opt *o, const char *last_sep,
			 const char *sep, char *buf, size_t len)
{
	size_t n = 0, i, used = 0;

	buf[0] = '\0';
	while (o->choices[n].name)
		n++;
	for (i = 0; i < n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s",
				 i == 0			? "" :
				 i + 1 == n && last_sep ? last_sep :
							  sep,
				 o->choices[i].name);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static const char *kind_of(const struct clyde_opt *o)
{
	if (o->kind)
		return o->kind;
	switch (o->type) {
	case CLYDE_OPT_UINT:
	case CLYDE_OPT_CALL:
		return o->suffixes && *o->suffixes ? "a size" : "a number";
	case CLYDE_OPT_SECONDS:
		return "a number of seconds";
	case CLYDE_OPT_ENUM:
		return "a choice";
	case CLYDE_OPT_STRING:
	case CLYDE_OPT_BUF:
		return "value";
	default:
		return "a number";
	}
}

/* The "use ..." part of a malformed-number message. */
static void form_text(const struct clyde_opt *o, char *buf, size_t len)
{
	char range[160];
	const char *sfx = o->suffixes ? o->suffixes : "";

	if (o->form) {
		snprintf(buf, len, "%s", o->form);
		return;
	}
	if (o->type == CLYDE_OPT_DOUBLE || o->type == CLYDE_OPT_SECONDS) {
		clyde_opt_range_text(o, range, sizeof(range));
		/* "must be above 0 ..." -> "use a number above 0 ..." */
		snprintf(buf, len, "use a number %s",
			 range + strlen("must be "));
		return;
	}
	if (!*sfx) {
		if (o->min == 0 && max_of(o) == field_max(o))
			snprintf(buf, len, "use a whole number");
		else {
			char lo[32], hi[32];

			num_text(o, o->min, lo, sizeof(lo));
			num_text(o, max_of(o), hi, sizeof(hi));
			snprintf(buf, len, "use a whole number from %s to %s",
				 lo, hi);
		}
		return;
	}
	{
		char list[32] = "";
		size_t n = strlen(sfx), i, used = 0;

		for (i = 0; i < n && used + 8 < sizeof(list); i++)
			used += (size_t)snprintf(list + used,
						 sizeof(list) - used, "%s%c",
						 i == 0	    ? "" :
						 i + 1 == n ? " or " :
							      ", ",
						 sfx[i]);
		snprintf(buf, len, "use a number with an optional %s suffix",
			 list);
	}
}

int clyde_opt_number(const struct clyde_opt *o, const char *name,
		     const char *field, const char *text, uint64_t *out,
		     char *err, size_t errlen)
{
	const char *sp = field ? " " : "", *f = field ? field : "";
	uint64_t v;
	int rc;

	rc = clyde_size_parse(text, o->suffixes ? o->suffixes : "", o->shift,
			      &v);
	if (rc == -EINVAL) {
		char form[200];

		form_text(o, form, sizeof(form));
		return bad(err, errlen, "%s%s%s: \"%s\" is not %s; %s", name,
			   sp, f, text, kind_of(o), form);
	}
	if (rc || v < o->min || v > max_of(o) ||
	    (o->pow2 && !clyde_is_pow2(v))) {
		char range[200];

		clyde_opt_range_text(o, range, sizeof(range));
		return bad(err, errlen, "%s%s%s %s: %s", name, sp, f, text,
			   range);
	}
	*out = v;
	return 0;
}

static int parse_double(const struct clyde_opt *o, const char *name,
			const char *text, double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!*text || *end || errno || isspace((unsigned char)*text) ||
	    !isfinite(v)) {
		char form[200];

		form_text(o, form, sizeof(form));
		return bad(err, errlen, "%s: \"%s\" is not %s; %s", name, text,
			   kind_of(o), form);
	}
	if ((o->dmin_open ? !(v > o->dmin) : !(v >= o->dmin)) ||
	    (o->dmax > 0 && (o->dmax_open ? !(v < o->dmax) : v > o->dmax))) {
		char range[200];

		clyde_opt_range_text(o, range, sizeof(range));
		return bad(err, errlen, "%s %s: %s", name, text, range);
	}
	*out = v;
	return 0;
}

/* Apply o with its argument (NULL when none); 0, a stop, or -1. */
static int apply(const struct clyde_opt *o, const char *name, const char *arg,
		 void *base, char *err, size_t errlen)
{
	char *field = (char *)base + o->off;
	uint64_t v;
	double d;
	size_t i;

	switch (o->type) {
	case CLYDE_OPT_REFUSE:
		return bad(err, errlen, "%s: %s", name, o->help);
	case CLYDE_OPT_HELP:
		return CLYDE_OPT_STOP_HELP;
	case CLYDE_OPT_VERSION:
		return CLYDE_OPT_STOP_VERSION;
	case CLYDE_OPT_FLAG: {
		bool b = !o->invert;

		memcpy(field, &b, sizeof(b));
		break;
	}
	case CLYDE_OPT_UINT:
		if (clyde_opt_number(o, name, NULL, arg, &v, err, errlen))
			return CLYDE_OPT_FAILED;
		store_uint(base, o, v);
		break;
	case CLYDE_OPT_DOUBLE:
		if (parse_double(o, name, arg, &d, err, errlen))
			return CLYDE_OPT_FAILED;
		memcpy(field, &d, sizeof(d));
		break;
	case CLYDE_OPT_SECONDS:
		if (parse_double(o, name, arg, &d, err, errlen))
			return CLYDE_OPT_FAILED;
		v = (uint64_t)(d * 1e9 + 0.5);
		memcpy(field, &v, sizeof(v));
		break;
	case CLYDE_OPT_STRING:
		if (!*arg && !o->empty_ok)
			return bad(err, errlen,
				   "%s: the %s is empty; give a %s", name,
				   kind_of(o), kind_of(o));
		memcpy(field, &arg, sizeof(arg));
		break;
	case CLYDE_OPT_BUF:
		if (!*arg && !o->empty_ok)
			return bad(err, errlen,
				   "%s: the %s is empty; give a %s", name,
				   kind_of(o), kind_of(o));
		if (strlen(arg) >= o->width)
			return bad(err, errlen,
				   "%s: the %s is longer than %zu bytes; use a "
				   "shorter one",
				   name, kind_of(o), o->width - 1);
		memcpy(field, arg, strlen(arg) + 1);
		break;
	case CLYDE_OPT_ENUM:
		for (i = 0; o->choices[i].name; i++)
			if (!strcmp(o->choices[i].name, arg))
				break;
		if (!o->choices[i].name) {
			char list[200];

			choices_text(o, " or ", ", ", list, sizeof(list));
			return bad(err, errlen, "%s: \"%s\" is not %s; use %s",
				   name, arg, kind_of(o), list);
		}
		memcpy(field, &o->choices[i].value, sizeof(int));
		break;
	case CLYDE_OPT_ENGINE: {
		const struct clyde_engine_ops *e = clyde_engine_find(arg);

		if (!e)
			return bad(err, errlen,
				   "%s: \"%s\" is not an engine; use one of %s",
				   name, arg, clyde_engine_names());
		memcpy(field, &e, sizeof(e));
		break;
	}
	case CLYDE_OPT_IGNORE:
		break;
	case CLYDE_OPT_CALL:
		if (o->call(base, o, name, arg, err, errlen))
			return CLYDE_OPT_FAILED;
		break;
	}
	if (o->has_given) {
		bool t = true;

		memcpy((char *)base + o->given_off, &t, sizeof(t));
	}
	return 0;
}

static const struct clyde_opt *find_short(const struct clyde_optset *set,
					  char c)
{
	for (size_t i = 0; i < set->nopts; i++)
		if (set->opts[i].short_name && set->opts[i].short_name == c)
			return &set->opts[i];
	return NULL;
}

static const struct clyde_opt *find_long(const struct clyde_optset *set,
					 const char *name, size_t len)
{
	for (size_t i = 0; i < set->nopts; i++) {
		const char *l = set->opts[i].name;

		if (l && strlen(l) == len && !strncmp(l, name, len))
			return &set->opts[i];
	}
	return NULL;
}

static const char *arg_name(const struct clyde_opt *o, char *buf, size_t len)
{
	if (o->arg)
		return o->arg;
	if (o->type == CLYDE_OPT_ENUM) {
		choices_text(o, NULL, "|", buf, len);
		return buf;
	}
	if (o->type == CLYDE_OPT_ENGINE)
		return clyde_engine_names();
	return "ARG";
}

/* What one parse keeps between words. */
struct parse {
	const struct clyde_optset *set;
	int argc;
	char **argv;
	int i; /* the word being read */
	void *base;
	char *err;
	size_t errlen;
	/* The last option with an optional argument given bare, and its
	 * name as typed: "-f 8" is then a misplaced argument. */
	const struct clyde_opt *bare;
	char bare_name[64];
};

/* The one tail of a long and a short option: o, typed as name, with the
 * argument attached to it (after "=" or the letter; NULL when none).  A
 * required argument not attached is the next word.  Applies o; returns 0,
 * a stop or -1. */
static int take(struct parse *p, const struct clyde_opt *o, const char *name,
		const char *arg)
{
	char meta[200];
	int rc;

	if (!arg && arg_of(o) == CLYDE_ARG_REQUIRED) {
		if (p->i + 1 >= p->argc)
			return bad(p->err, p->errlen,
				   "%s needs an argument: %s %s", name, name,
				   arg_name(o, meta, sizeof(meta)));
		arg = p->argv[++p->i];
	}
	rc = apply(o, name, arg, p->base, p->err, p->errlen);
	if (rc)
		return rc;
	if (arg_of(o) == CLYDE_ARG_OPTIONAL && !arg) {
		p->bare = o;
		snprintf(p->bare_name, sizeof(p->bare_name), "%s", name);
	}
	return 0;
}

/* Read one option word, argv[p->i] ("--name[=arg]" or "-abc"). */
static int option_word(struct parse *p)
{
	const char *a = p->argv[p->i];
	const struct clyde_opt *o;
	char name[64];
	int rc;

	if (a[1] == '-') {
		const char *eq = strchr(a + 2, '=');

		o = find_long(p->set, a + 2,
			      eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (!o)
			return bad(p->err, p->errlen,
				   "unknown option \"%s\"; see %s --help", a,
				   p->set->prog);
		snprintf(name, sizeof(name), "--%s", o->name);
		if (arg_of(o) == CLYDE_ARG_NONE && eq)
			return bad(p->err, p->errlen, "%s takes no argument",
				   name);
		return take(p, o, name, eq ? eq + 1 : NULL);
	}
	for (int j = 1; a[j]; j++) {
		o = find_short(p->set, a[j]);
		if (!o)
			return bad(p->err, p->errlen,
				   "unknown option \"-%c\"; see %s --help",
				   a[j], p->set->prog);
		snprintf(name, sizeof(name), "-%c", a[j]);
		/* An option with an argument takes the rest of the word. */
		if (arg_of(o) != CLYDE_ARG_NONE)
			return take(p, o, name, a[j + 1] ? a + j + 1 : NULL);
		rc = take(p, o, name, NULL);
		if (rc)
			return rc;
	}
	return 0;
}

/* The parse of clyde_opt_parse and clyde_opt_parse_head: with first
 * non-NULL, the first operand (or "--") ends it and *first is its index
 * (argc when there is none). */
static int parse_argv(const struct clyde_optset *set, int argc, char **argv,
		      void *base, const char **operands, int *noperands,
		      int *first, char *err, size_t errlen)
{
	struct parse p = { .set = set,
			   .argc = argc,
			   .argv = argv,
			   .base = base,
			   .err = err,
			   .errlen = errlen };
	const char *stray = NULL;
	const struct clyde_opt *after_opt = NULL;
	bool operands_only = false;
	char stray_name[64] = "";
	int rc, nops = 0;

	if (errlen)
		err[0] = '\0';
	if (first)
		*first = argc;
	for (p.i = 1; p.i < argc; p.i++) {
		const char *a = argv[p.i];

		if (first &&
		    (a[0] != '-' || a[1] == '\0' || !strcmp(a, "--"))) {
			*first = p.i + !strcmp(a, "--");
			return CLYDE_OPT_PARSED;
		}
		if (operands_only || a[0] != '-' || a[1] == '\0') {
			if (nops < set->max_operands)
				operands[nops++] = a;
			else if (!stray) {
				/* Like getopt, options may follow: report
				 * the first extra word once all are read. */
				stray = a;
				after_opt = p.bare;
				memcpy(stray_name, p.bare_name,
				       sizeof(stray_name));
			}
			p.bare = NULL;
			continue;
		}
		p.bare = NULL;
		if (!strcmp(a, "--")) {
			operands_only = true;
			continue;
		}
		rc = option_word(&p);
		if (rc)
			return rc;
	}
	if (noperands)
		*noperands = nops;
	if (stray && after_opt && isdigit((unsigned char)stray[0])) {
		/* A bare optional-argument option followed by its value is
		 * the classic trap (bonnie++'s "-f 8"): say how to attach. */
		char as[160] = "";

		if (after_opt->short_name && after_opt->name)
			snprintf(as, sizeof(as), "-%c%s or --%s=%s",
				 after_opt->short_name, stray, after_opt->name,
				 stray);
		else if (after_opt->short_name)
			snprintf(as, sizeof(as), "-%c%s", after_opt->short_name,
				 stray);
		else
			snprintf(as, sizeof(as), "--%s=%s", after_opt->name,
				 stray);
		return bad(err, errlen,
			   "unexpected argument \"%s\": %s takes its %s "
			   "attached, as in %s",
			   stray, stray_name,
			   after_opt->arg ? after_opt->arg : "value", as);
	}
	if (stray && set->max_operands == 0)
		return bad(err, errlen,
			   "unexpected argument \"%s\"; %s takes options only "
			   "(see %s --help)",
			   stray, set->prog, set->prog);
	if (stray)
		return bad(err, errlen,
			   "unexpected argument \"%s\": %s takes at most %d "
			   "operand%s; see %s --help",
			   stray, set->prog, set->max_operands,
			   set->max_operands == 1 ? "" : "s", set->prog);
	return CLYDE_OPT_PARSED;
}

int clyde_opt_parse(const struct clyde_optset *set, int argc, char **argv,
		    void *base, const char **operands, int *noperands,
		    char *err, size_t errlen)
{
	return parse_argv(set, argc, argv, base, operands, noperands, NULL, err,
			  errlen);
}

int clyde_opt_parse_head(const struct clyde_optset *set, int argc, char **argv,
			 void *base, int *first, char *err, size_t errlen)
{
	return parse_argv(set, argc, argv, base, NULL, NULL, first, err,
			  errlen);
}

/* "-s, --size SIZE", "-f[MiB], --fast[=MiB]", "-l ARG", "    --json FILE". */
static void format_spec(const struct clyde_opt *o, char *buf, size_t len)
{
	char metabuf[200];
	const char *meta = arg_of(o) == CLYDE_ARG_NONE ?
				   "" :
				   arg_name(o, metabuf, sizeof(metabuf));
	char s[256] = "    ", l[320] = "";

	if (o->short_name && arg_of(o) == CLYDE_ARG_OPTIONAL)
		snprintf(s, sizeof(s), "-%c[%s]", o->short_name, meta);
	else if (o->short_name)
		snprintf(s, sizeof(s), "-%c", o->short_name);
	if (o->name && arg_of(o) == CLYDE_ARG_OPTIONAL)
		snprintf(l, sizeof(l), "--%s[=%s]", o->name, meta);
	else if (o->name)
		snprintf(l, sizeof(l), "--%s", o->name);
	snprintf(buf, len, "%s%s%s%s%s", s,
		 o->short_name && o->name ? ", " : "", l,
		 arg_of(o) == CLYDE_ARG_REQUIRED ? " " : "",
		 arg_of(o) == CLYDE_ARG_REQUIRED ? meta : "");
}

/* The default of o in defaults, as the user would type it, or "" when
 * there is none to show. */
static void default_text(const struct clyde_opt *o, const void *defaults,
			 char *buf, size_t len)
{
	const char *p = (const char *)defaults + o->off;

	buf[0] = '\0';
	switch (o->type) {
	case CLYDE_OPT_UINT:
		num_text(o, load_uint(defaults, o), buf, len);
		break;
	case CLYDE_OPT_DOUBLE: {
		double d;

		memcpy(&d, p, sizeof(d));
		dbl_text(d, buf, len);
		break;
	}
	case CLYDE_OPT_SECONDS: {
		uint64_t ns;

		memcpy(&ns, p, sizeof(ns));
		dbl_text((double)ns / 1e9, buf, len);
		break;
	}
	case CLYDE_OPT_STRING: {
		const char *s;

		memcpy(&s, p, sizeof(s));
		if (s)
			snprintf(buf, len, "%s", s);
		break;
	}
	case CLYDE_OPT_BUF:
		snprintf(buf, len, "%.*s", (int)o->width, p);
		break;
	case CLYDE_OPT_ENUM: {
		int v;

		memcpy(&v, p, sizeof(v));
		for (size_t i = 0; o->choices[i].name; i++)
			if (o->choices[i].value == v) {
				snprintf(buf, len, "%s", o->choices[i].name);
				break;
			}
		break;
	}
	case CLYDE_OPT_ENGINE: {
		const struct clyde_engine_ops *e;

		memcpy(&e, p, sizeof(e));
		if (e)
			snprintf(buf, len, "%s", e->name);
		break;
	}
	default:
		break;
	}
}

/* The help text of o with its generated "(MIN..MAX, default D)". */
static void describe(const struct clyde_opt *o, const void *defaults, char *buf,
		     size_t len)
{
	char range[96] = "", def[96] = "";

	if (o->show_range && o->type == CLYDE_OPT_UINT) {
		char lo[32], hi[32];

		num_text(o, o->min, lo, sizeof(lo));
		num_text(o, max_of(o), hi, sizeof(hi));
		snprintf(range, sizeof(range), "%s..%s", lo, hi);
	} else if (o->show_range) {
		char lo[32], hi[32];

		dbl_text(o->dmin, lo, sizeof(lo));
		dbl_text(o->dmax, hi, sizeof(hi));
		snprintf(range, sizeof(range), "%s%s..%s%s",
			 o->dmin_open ? ">" : "", lo, o->dmax_open ? "<" : "",
			 hi);
	}
	if (o->show_default && defaults)
		default_text(o, defaults, def, sizeof(def));
	if (*range || *def)
		snprintf(buf, len, "%s (%s%s%s%s)", o->help, range,
			 *range && *def ? ", " : "", *def ? "default " : "",
			 def);
	else
		snprintf(buf, len, "%s", o->help);
}

/* Write text from column HELP_COL, wrapped at LINE_WIDTH; the first line
 * continues the current one. */
static void wrap(FILE *f, const char *text)
{
	const size_t width = LINE_WIDTH - HELP_COL;
	bool first = true;

	while (*text) {
		size_t n = strlen(text), cut = n;

		if (n > width) {
			cut = width;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = width;
		}
		if (!first)
			fprintf(f, "%*s", HELP_COL, "");
		fprintf(f, "%.*s\n", (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		first = false;
	}
	if (first)
		fputc('\n', f);
}

void clyde_opt_help_line(FILE *f, const char *spec, const char *text)
{
	if (strlen(spec) <= SPEC_WIDTH)
		fprintf(f, "  %-*s  ", SPEC_WIDTH, spec);
	else
		fprintf(f, "  %s\n%*s", spec, HELP_COL, "");
	wrap(f, text);
}

int clyde_opt_help(const struct clyde_optset *set, const void *defaults,
		   FILE *f)
{
	char spec[1024], desc[512];
	size_t g, ng = set->groups ? set->ngroups : 1;

	for (g = 0; g < ng; g++) {
		if (set->groups && set->groups[g])
			fprintf(f, "%s\n", set->groups[g]);
		for (size_t i = 0; i < set->nopts; i++) {
			const struct clyde_opt *o = &set->opts[i];

			if (o->type == CLYDE_OPT_REFUSE ||
			    (set->groups && (size_t)o->group != g))
				continue;
			format_spec(o, spec, sizeof(spec));
			describe(o, defaults, desc, sizeof(desc));
			clyde_opt_help_line(f, spec, desc);
		}
	}
	return ferror(f) ? -EIO : 0;
}
