/*
 * The words of the option model (optmodel.h): an option's numbers,
 * range, choices and form as its messages and --help say them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/optmodel.h"
#include "cli/optmodel_internal.h"
#include "core/size.h"

/* v as the option would accept it: with the largest suffix that divides
 * it exactly, else as plain digits. */
void clyde_optm_num_text(const struct clyde_opt *o, uint64_t v, char *buf,
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
void clyde_optm_dbl_text(double v, char *buf, size_t len)
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
		clyde_optm_dbl_text(o->dmin, lo, sizeof(lo));
		clyde_optm_dbl_text(o->dmax, hi, sizeof(hi));
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
	clyde_optm_num_text(o, o->min, lo, sizeof(lo));
	clyde_optm_num_text(o, clyde_optm_max_of(o), hi, sizeof(hi));
	if (o->min == 0 && !o->pow2)
		snprintf(buf, len, "must be at most %s%s%s", hi,
			 note_sep(o->note), note);
	else
		snprintf(buf, len, "must be %sfrom %s to %s%s%s",
			 o->pow2 ? "a power of two " : "", lo, hi,
			 note_sep(o->note), note);
}

/* "a, b or c" from an enum's choices. */
void clyde_optm_choices_text(const struct clyde_opt *o, const char *last_sep,
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

const char *clyde_optm_kind_of(const struct clyde_opt *o)
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
void clyde_optm_form_text(const struct clyde_opt *o, char *buf, size_t len)
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
		if (o->min == 0 &&
		    clyde_optm_max_of(o) == clyde_optm_field_max(o))
			snprintf(buf, len, "use a whole number");
		else {
			char lo[32], hi[32];

			clyde_optm_num_text(o, o->min, lo, sizeof(lo));
			clyde_optm_num_text(o, clyde_optm_max_of(o), hi,
					    sizeof(hi));
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
