/*
 * --help of the option model (optmodel.h), made from the same tables as
 * the parser (optmodel.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/optmodel.h"
#include "cli/optmodel_internal.h"
#include "core/size.h"
#include "io/engine.h"

/* --help: the option column, its gap and the line width. */
#define SPEC_WIDTH 22
#define HELP_COL (2 + SPEC_WIDTH + 2)
#define LINE_WIDTH 80

/* "-s, --size SIZE", "-f[MiB], --fast[=MiB]", "-l ARG", "    --json FILE". */
static void format_spec(const struct clyde_opt *o, char *buf, size_t len)
{
	char metabuf[200];
	const char *meta =
		clyde_optm_arg_of(o) == CLYDE_ARG_NONE ?
			"" :
			clyde_optm_arg_name(o, metabuf, sizeof(metabuf));
	char s[256] = "    ", l[320] = "";

	if (o->short_name && clyde_optm_arg_of(o) == CLYDE_ARG_OPTIONAL)
		snprintf(s, sizeof(s), "-%c[%s]", o->short_name, meta);
	else if (o->short_name)
		snprintf(s, sizeof(s), "-%c", o->short_name);
	if (o->name && clyde_optm_arg_of(o) == CLYDE_ARG_OPTIONAL)
		snprintf(l, sizeof(l), "--%s[=%s]", o->name, meta);
	else if (o->name)
		snprintf(l, sizeof(l), "--%s", o->name);
	snprintf(buf, len, "%s%s%s%s%s", s,
		 o->short_name && o->name ? ", " : "", l,
		 clyde_optm_arg_of(o) == CLYDE_ARG_REQUIRED ? " " : "",
		 clyde_optm_arg_of(o) == CLYDE_ARG_REQUIRED ? meta : "");
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
		clyde_optm_num_text(o, clyde_optm_load_uint(defaults, o), buf,
				    len);
		break;
	case CLYDE_OPT_DOUBLE: {
		double d;

		memcpy(&d, p, sizeof(d));
		clyde_optm_dbl_text(d, buf, len);
		break;
	}
	case CLYDE_OPT_SECONDS: {
		uint64_t ns;

		memcpy(&ns, p, sizeof(ns));
		clyde_optm_dbl_text((double)ns / 1e9, buf, len);
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

		clyde_optm_num_text(o, o->min, lo, sizeof(lo));
		clyde_optm_num_text(o, clyde_optm_max_of(o), hi, sizeof(hi));
		snprintf(range, sizeof(range), "%s..%s", lo, hi);
	} else if (o->show_range) {
		char lo[32], hi[32];

		clyde_optm_dbl_text(o->dmin, lo, sizeof(lo));
		clyde_optm_dbl_text(o->dmax, hi, sizeof(hi));
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
