/*
 * The option model (optmodel.h): one parser, one set of messages and one
 * --help layout for the tables of every command.
 */
#include "cli/optmodel.h"
#include "cli/optmodel_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/size.h"
#include "io/engine.h"

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

enum clyde_opt_arg clyde_optm_arg_of(const struct clyde_opt *o)
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

uint64_t clyde_optm_field_max(const struct clyde_opt *o)
{
	if (o->width == 0 || o->width >= 8)
		return UINT64_MAX;
	return (1ull << (8 * o->width)) - 1;
}

uint64_t clyde_optm_max_of(const struct clyde_opt *o)
{
	return o->max ? o->max : clyde_optm_field_max(o);
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

uint64_t clyde_optm_load_uint(const void *base, const struct clyde_opt *o)
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

		clyde_optm_form_text(o, form, sizeof(form));
		return bad(err, errlen, "%s%s%s: \"%s\" is not %s; %s", name,
			   sp, f, text, clyde_optm_kind_of(o), form);
	}
	if (rc || v < o->min || v > clyde_optm_max_of(o) ||
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

		clyde_optm_form_text(o, form, sizeof(form));
		return bad(err, errlen, "%s: \"%s\" is not %s; %s", name, text,
			   clyde_optm_kind_of(o), form);
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
/* A STRING or BUF option's argument into field. */
static int apply_text(const struct clyde_opt *o, const char *name,
		      const char *arg, char *field, char *err, size_t errlen)
{
	if (!*arg && !o->empty_ok)
		return bad(err, errlen, "%s: the %s is empty; give a %s", name,
			   clyde_optm_kind_of(o), clyde_optm_kind_of(o));
	if (o->type == CLYDE_OPT_STRING) {
		memcpy(field, &arg, sizeof(arg));
		return 0;
	}
	if (strlen(arg) >= o->width)
		return bad(err, errlen,
			   "%s: the %s is longer than %zu bytes; use a "
			   "shorter one",
			   name, clyde_optm_kind_of(o), o->width - 1);
	memcpy(field, arg, strlen(arg) + 1);
	return 0;
}

/* An ENUM option's choice, or an ENGINE option's engine, into field. */
static int apply_choice(const struct clyde_opt *o, const char *name,
			const char *arg, char *field, char *err, size_t errlen)
{
	const struct clyde_engine_ops *e;
	size_t i;

	if (o->type == CLYDE_OPT_ENGINE) {
		e = clyde_engine_find(arg);
		if (!e)
			return bad(err, errlen,
				   "%s: \"%s\" is not an engine; use one of %s",
				   name, arg, clyde_engine_names());
		memcpy(field, &e, sizeof(e));
		return 0;
	}
	for (i = 0; o->choices[i].name; i++)
		if (!strcmp(o->choices[i].name, arg))
			break;
	if (!o->choices[i].name) {
		char list[200];

		clyde_optm_choices_text(o, " or ", ", ", list, sizeof(list));
		return bad(err, errlen, "%s: \"%s\" is not %s; use %s", name,
			   arg, clyde_optm_kind_of(o), list);
	}
	memcpy(field, &o->choices[i].value, sizeof(int));
	return 0;
}

static int apply(const struct clyde_opt *o, const char *name, const char *arg,
		 void *base, char *err, size_t errlen)
{
	char *field = (char *)base + o->off;
	uint64_t v;
	double d;

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
	case CLYDE_OPT_BUF:
		if (apply_text(o, name, arg, field, err, errlen))
			return CLYDE_OPT_FAILED;
		break;
	case CLYDE_OPT_ENUM:
	case CLYDE_OPT_ENGINE:
		if (apply_choice(o, name, arg, field, err, errlen))
			return CLYDE_OPT_FAILED;
		break;
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

const char *clyde_optm_arg_name(const struct clyde_opt *o, char *buf,
				size_t len)
{
	if (o->arg)
		return o->arg;
	if (o->type == CLYDE_OPT_ENUM) {
		clyde_optm_choices_text(o, NULL, "|", buf, len);
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

	if (!arg && clyde_optm_arg_of(o) == CLYDE_ARG_REQUIRED) {
		if (p->i + 1 >= p->argc)
			return bad(p->err, p->errlen,
				   "%s needs an argument: %s %s", name, name,
				   clyde_optm_arg_name(o, meta, sizeof(meta)));
		arg = p->argv[++p->i];
	}
	rc = apply(o, name, arg, p->base, p->err, p->errlen);
	if (rc)
		return rc;
	if (clyde_optm_arg_of(o) == CLYDE_ARG_OPTIONAL && !arg) {
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
		if (clyde_optm_arg_of(o) == CLYDE_ARG_NONE && eq)
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
		if (clyde_optm_arg_of(o) != CLYDE_ARG_NONE)
			return take(p, o, name, a[j + 1] ? a + j + 1 : NULL);
		rc = take(p, o, name, NULL);
		if (rc)
			return rc;
	}
	return 0;
}

/* The first word that is neither an option nor an operand room was
 * left for (stray), after the bare option after_opt (named stray_name)
 * or none: one line in err.  Returns CLYDE_OPT_FAILED. */
static int stray_word(const struct clyde_optset *set, const char *stray,
		      const struct clyde_opt *after_opt, const char *stray_name,
		      char *err, size_t errlen)
{
	if (after_opt && isdigit((unsigned char)stray[0])) {
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
	if (set->max_operands == 0)
		return bad(err, errlen,
			   "unexpected argument \"%s\"; %s takes options only "
			   "(see %s --help)",
			   stray, set->prog, set->prog);
	return bad(err, errlen,
		   "unexpected argument \"%s\": %s takes at most %d "
		   "operand%s; see %s --help",
		   stray, set->prog, set->max_operands,
		   set->max_operands == 1 ? "" : "s", set->prog);
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
	if (stray)
		return stray_word(set, stray, after_opt, stray_name, err,
				  errlen);
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
