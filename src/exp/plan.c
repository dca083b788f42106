/*
 * The experiment file parser and the plan it gives: see plan.h and
 * docs/sweep.md.  libinih splits the INI text into (section, key, value)
 * calls; our reader hands it one line at a time, which is how a key is
 * given its line number for the messages.
 */
#include "exp/plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/rng.h"
#include "core/size.h"
#include "core/vis.h"
#include "exp/exp_internal.h"

#ifdef CLYDE_HAVE_INIH
#include <ini.h>
#endif

/* Templates refer to variables that refer to variables: this deep. */
#define EXPAND_DEPTH 8

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void clyde_sweep_release(struct clyde_sweep *s)
{
	size_t i;

	if (!s)
		return;
	free(s->file);
	free(s->name);
	free(s->title);
	free(s->metrics);
	for (i = 0; i < s->naxes; i++) {
		free(s->axes[i].name);
		free_strv(s->axes[i].values, s->axes[i].nvalues);
	}
	free(s->axes);
	for (i = 0; i < s->nvars; i++) {
		free(s->vars[i].name);
		free(s->vars[i].value);
	}
	free(s->vars);
	for (i = 0; i < s->nsetup; i++) {
		free(s->setup[i].text);
		free(s->setup[i].value);
	}
	free(s->setup);
	for (i = 0; i < s->nteardown; i++) {
		free(s->teardown[i].text);
		free(s->teardown[i].value);
	}
	free(s->teardown);
	for (i = 0; i < s->nworkloads; i++) {
		free(s->workloads[i].name);
		free(s->workloads[i].args);
		free(s->workloads[i].device);
		free(s->workloads[i].path);
		free(s->workloads[i].before);
	}
	free(s->workloads);
	free(s->point_values);
	memset(s, 0, sizeof(*s));
}

/* ---- small helpers ------------------------------------------------------ */

void *clyde_exp_push(void *arrp, size_t *n, size_t sz)
{
	void **arr = arrp;
	char *p = realloc(*arr, (*n + 1) * sz);

	if (!p)
		return NULL;
	*arr = p;
	memset(p + *n * sz, 0, sz);
	return p + (*n)++ * sz;
}

static bool is_name_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

static bool valid_name(const char *s)
{
	if (!is_name_start((unsigned char)*s))
		return false;
	for (s++; *s; s++)
		if (!is_name_char((unsigned char)*s))
			return false;
	return true;
}

/* Split s on blanks into a new string vector.  Returns 0 or -ENOMEM. */
static int split_words(const char *s, char ***out, size_t *n)
{
	while (*s) {
		const char *e;
		char **slot;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		for (e = s; *e && !isspace((unsigned char)*e); e++)
			;
		slot = clyde_exp_push(out, n, sizeof(char *));
		if (!slot || !(*slot = strndup(s, (size_t)(e - s))))
			return -ENOMEM;
		s = e;
	}
	return 0;
}

/* ---- ranges ------------------------------------------------------------- */

/* Write v with the largest 1024-based suffix that divides it. */
static void format_size(uint64_t v, char *buf, size_t cap)
{
	static const char sfx[] = "kmgt";
	int i = -1;

	while (i < 3 && v && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, cap, "%llu", (unsigned long long)v);
	else
		snprintf(buf, cap, "%llu%c", (unsigned long long)v, sfx[i]);
}

static int parse_bound(const char *s, bool *sized, uint64_t *v)
{
	size_t len = strlen(s);

	*sized = len > 0 && isalpha((unsigned char)s[len - 1]);
	if (*sized)
		return clyde_size_parse(s, "kmgt", 10, v);
	return clyde_u64_parse(s, v);
}

int clyde_sweep_parse_range(const char *spec, char ***values, size_t *n,
			    char *why, size_t whycap)
{
	char a[64], b[64], step[64];
	uint64_t lo, hi, f;
	bool sized, sized_hi, geometric;
	char **v = NULL;
	size_t nv = 0;
	const char *dots = strstr(spec, "..");
	int got;

	*values = NULL;
	*n = 0;
	if (!dots || (size_t)(dots - spec) >= sizeof(a))
		return snprintf(why, whycap, "a range is A..B xF or A..B +S"),
		       -EINVAL;
	memcpy(a, spec, (size_t)(dots - spec));
	a[dots - spec] = '\0';
	got = sscanf(dots + 2, "%63s %63s", b, step);
	if (got != 2 || (step[0] != 'x' && step[0] != '+'))
		return snprintf(why, whycap,
				"range \"%s\": want A..B xFACTOR or A..B +STEP",
				spec),
		       -EINVAL;
	{
		/* Nothing may follow the step. */
		const char *st = strstr(dots + 2, step);

		st += strlen(step);
		while (isspace((unsigned char)*st))
			st++;
		if (*st)
			return snprintf(why, whycap,
					"range \"%s\": text after the step",
					spec),
			       -EINVAL;
	}
	/* "a" may carry blanks around it. */
	{
		char *p = a, *e;

		while (isspace((unsigned char)*p))
			p++;
		memmove(a, p, strlen(p) + 1);
		e = a + strlen(a);
		while (e > a && isspace((unsigned char)e[-1]))
			*--e = '\0';
	}
	geometric = step[0] == 'x';
	if (parse_bound(a, &sized, &lo) < 0 ||
	    parse_bound(b, &sized_hi, &hi) < 0)
		return snprintf(why, whycap,
				"range \"%s\": bounds are numbers with an "
				"optional k, m, g or t",
				spec),
		       -EINVAL;
	if (parse_bound(step + 1, &(bool){ false }, &f) < 0 || f == 0 ||
	    (geometric && f < 2))
		return snprintf(why, whycap,
				"range \"%s\": the step must be %s", spec,
				geometric ? "a factor of at least 2" :
					    "a positive number"),
		       -EINVAL;
	if (lo > hi || (geometric && lo == 0))
		return snprintf(why, whycap, "range \"%s\": empty", spec),
		       -EINVAL;
	sized = sized || sized_hi;
	for (uint64_t x = lo; x <= hi;) {
		char buf[32], **slot;

		if (nv >= 10000) {
			free_strv(v, nv);
			return snprintf(why, whycap,
					"range \"%s\": more than 10000 values",
					spec),
			       -EINVAL;
		}
		if (sized)
			format_size(x, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%llu",
				 (unsigned long long)x);
		slot = clyde_exp_push(&v, &nv, sizeof(char *));
		if (!slot || !(*slot = strdup(buf))) {
			free_strv(v, nv);
			return snprintf(why, whycap, "out of memory"), -ENOMEM;
		}
		if (geometric ? x > UINT64_MAX / f : x > UINT64_MAX - f)
			break;
		x = geometric ? x * f : x + f;
	}
	*values = v;
	*n = nv;
	return 0;
}

/* ---- parsing ------------------------------------------------------------ */

struct parse_state {
	struct clyde_ctx *ctx;
	struct clyde_sweep *s;
	const char *text;
	size_t len, pos;
	unsigned line; /* of the line last handed to inih */
	int rc;	       /* first error */
	bool too_long;
	unsigned nzip;
	char cur_section[128];
	struct clyde_sweep_workload *cur_wl;
	struct clyde_sweep_axis *cur_axis;
	bool has_experiment;
	char *num_text[4]; /* repeat, max-runs, until-stable, until-decided,
			    * as written */
	unsigned num_line[4];
	/* The line inih has: indented (so a continuation of the key
	 * before, with INI_ALLOW_MULTILINE), and the section headers and
	 * keys met so far ("SECTION\nKEY"), each with its line, so that a
	 * repeated one is refused rather than joined. */
	bool indented;
	struct seen {
		char *name;
		unsigned line;
	} * seen;
	size_t nseen;
};

enum {
	NUM_REPEAT,
	NUM_MAX_RUNS,
	NUM_UNTIL_STABLE,
	NUM_UNTIL_DECIDED,
	NUM_KEYS
};
static const char *const num_keys[NUM_KEYS] = { "repeat", "max-runs",
						"until-stable",
						"until-decided" };

static int perr(struct parse_state *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parse_state *ps, const char *fmt, ...)
{
	char msg[512], vis[512];
	va_list ap;

	if (ps->rc)
		return ps->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Keys, sections and values quoted in the message are the file's:
	 * a terminal escape in them is shown, not obeyed. */
	clyde_err(ps->ctx, 0, "%s:%u: %s", ps->s->file, ps->line,
		  clyde_vis(vis, sizeof(vis), msg, 0));
	ps->rc = -EINVAL;
	return ps->rc;
}

static int pnomem(struct parse_state *ps)
{
	if (!ps->rc)
		ps->rc = clyde_err(ps->ctx, ENOMEM, "%s", ps->s->file);
	return ps->rc;
}

static struct clyde_sweep_axis *find_axis(const struct clyde_sweep *s,
					  const char *name)
{
	for (size_t i = 0; i < s->naxes; i++)
		if (!strcmp(s->axes[i].name, name))
			return &s->axes[i];
	return NULL;
}

static struct clyde_sweep_var *find_var(const struct clyde_sweep *s,
					const char *name)
{
	for (size_t i = 0; i < s->nvars; i++)
		if (!strcmp(s->vars[i].name, name))
			return &s->vars[i];
	return NULL;
}

static struct clyde_sweep_axis *new_axis(struct parse_state *ps,
					 const char *name)
{
	struct clyde_sweep_axis *a;

	if (!valid_name(name))
		return perr(ps, "axis name \"%s\": letters, digits, _ and -",
			    name),
		       NULL;
	if (!strcmp(name, "point") || !strcmp(name, "repeat"))
		return perr(ps, "\"%s\" is a reserved placeholder name", name),
		       NULL;
	if (find_axis(ps->s, name))
		return perr(ps, "axis \"%s\" defined twice", name), NULL;
	a = clyde_exp_push(&ps->s->axes, &ps->s->naxes, sizeof(*a));
	if (!a || !(a->name = strdup(name)))
		return pnomem(ps), NULL;
	a->line = ps->line;
	return a;
}

/* Append values to an axis: a range ("A..B xF") or a list of words. */
static int axis_add_values(struct parse_state *ps, struct clyde_sweep_axis *a,
			   const char *value, bool force_range)
{
	if (force_range || strstr(value, "..")) {
		char why[256], **v;
		size_t n;
		int rc = clyde_sweep_parse_range(value, &v, &n, why,
						 sizeof(why));

		if (rc == -ENOMEM)
			return pnomem(ps);
		if (rc < 0)
			return perr(ps, "axis %s: %s", a->name, why);
		for (size_t i = 0; i < n; i++) {
			char **slot = clyde_exp_push(&a->values, &a->nvalues,
						     sizeof(char *));

			if (!slot) {
				free_strv(v, n);
				return pnomem(ps);
			}
			*slot = v[i];
			v[i] = NULL;
		}
		free_strv(v, n);
		return 0;
	}
	if (split_words(value, &a->values, &a->nvalues) < 0)
		return pnomem(ps);
	return 0;
}

/* "on", "yes", "true", "1" / "off", "no", "false", "0". */
static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(v, no[i]))
			return *out = false, 0;
	}
	return -EINVAL;
}

static int parse_uint(struct parse_state *ps, const char *key, const char *v,
		      unsigned lo, unsigned hi, unsigned *out)
{
	uint64_t x;

	if (clyde_u64_parse(v, &x) < 0 || x < lo || x > hi)
		return perr(ps, "%s = %s: want a number from %u to %u", key, v,
			    lo, hi);
	*out = (unsigned)x;
	return 0;
}

static int set_str(struct parse_state *ps, char **dst, const char *v)
{
	char *p = strdup(v);

	if (!p)
		return pnomem(ps);
	free(*dst);
	*dst = p;
	return 0;
}

/* zip = a,b[,c]: these axes advance together. */
static int parse_zip(struct parse_state *ps, const char *value)
{
	char buf[512], *save = NULL, *tok;
	unsigned group = ++ps->nzip, count = 0;

	snprintf(buf, sizeof(buf), "%s", value);
	for (tok = strtok_r(buf, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		struct clyde_sweep_axis *a = find_axis(ps->s, tok);

		if (!a)
			return perr(ps,
				    "zip: no axis \"%s\" (define axes before "
				    "zipping them)",
				    tok);
		if (a->zip)
			return perr(ps, "zip: axis \"%s\" is zipped twice",
				    tok);
		a->zip = group;
		count++;
	}
	if (count < 2)
		return perr(ps, "zip: name two axes or more: zip = a,b");
	return 0;
}

/* "axis NAME = VALUES" anywhere outside an [axis] section. */
static int key_axis(struct parse_state *ps, const char *name, const char *value)
{
	struct clyde_sweep_axis *a = new_axis(ps, name);

	if (!a)
		return ps->rc;
	return axis_add_values(ps, a, value, false);
}

static int section_experiment(struct parse_state *ps, const char *key,
			      const char *value)
{
	struct clyde_sweep *s = ps->s;

	if (!strcmp(key, "name"))
		return set_str(ps, &s->name, value);
	if (!strcmp(key, "title"))
		return set_str(ps, &s->title, value);
	if (!strcmp(key, "metrics"))
		return set_str(ps, &s->metrics, value);
	/* Numbers may name variables ("repeat = {repeats}", overridden
	 * with --define): they are read once the variables are known. */
	for (int i = 0; i < NUM_KEYS; i++)
		if (!strcmp(key, num_keys[i])) {
			ps->num_line[i] = ps->line;
			return set_str(ps, &ps->num_text[i], value);
		}
	if (!strcmp(key, "order")) {
		if (!strcmp(value, "interleaved"))
			s->order = CLYDE_SWEEP_INTERLEAVED;
		else if (!strcmp(value, "random"))
			s->order = CLYDE_SWEEP_RANDOM;
		else
			return perr(ps,
				    "order = %s: want interleaved or random",
				    value);
		return 0;
	}
	if (!strcmp(key, "seed")) {
		if (clyde_u64_parse(value, &s->seed) < 0)
			return perr(ps, "seed = %s: want a number", value);
		return 0;
	}
	if (!strcmp(key, "keep-going")) {
		if (parse_bool(value, &s->keep_going) < 0)
			return perr(ps, "keep-going = %s: want yes or no",
				    value);
		return 0;
	}
	if (!strcmp(key, "zip"))
		return parse_zip(ps, value);
	if (!strncmp(key, "axis ", 5))
		return key_axis(ps, key + 5, value);
	return perr(ps, "[experiment]: unknown key \"%s\"", key);
}

static int add_step(struct parse_state *ps, struct clyde_sweep_step **arr,
		    size_t *n, enum clyde_sweep_step_kind kind,
		    const char *text, const char *value)
{
	struct clyde_sweep_step *st = clyde_exp_push(arr, n, sizeof(*st));

	if (!st)
		return pnomem(ps);
	st->kind = kind;
	st->line = ps->line;
	if (!(st->text = strdup(text)) ||
	    (value && !(st->value = strdup(value))))
		return pnomem(ps);
	return 0;
}

static int section_point(struct parse_state *ps, const char *key,
			 const char *value)
{
	struct clyde_sweep *s = ps->s;

	if (!strcmp(key, "setup"))
		return add_step(ps, &s->setup, &s->nsetup, CLYDE_SWEEP_SH,
				value, NULL);
	if (!strcmp(key, "teardown"))
		return add_step(ps, &s->teardown, &s->nteardown, CLYDE_SWEEP_SH,
				value, NULL);
	if (!strncmp(key, "set ", 4)) {
		const char *path = key + 4;

		while (isspace((unsigned char)*path))
			path++;
		if (!clyde_sweep_set_path_ok(path))
			return perr(ps,
				    "set %s: %s; only files below /sys and "
				    "/proc/sys are written (an absolute path "
				    "with no empty, . or .. component)",
				    path, clyde_sweep_set_path_why(path));
		return add_step(ps, &s->setup, &s->nsetup, CLYDE_SWEEP_SET,
				path, value);
	}
	if (!strncmp(key, "capture ", 8)) {
		const char *name = key + 8;
		struct clyde_sweep_var *v;

		while (isspace((unsigned char)*name))
			name++;
		if (!valid_name(name))
			return perr(ps,
				    "capture %s: a variable name (letters, "
				    "digits, _ and -)",
				    name);
		if (find_var(s, name) || find_axis(s, name) ||
		    !strcmp(name, "point") || !strcmp(name, "repeat"))
			return perr(ps, "capture %s: the name is taken", name);
		/* Commands see it as CLYDE_CAPTURE_NAME, - as _: a-b and a_b
		 * would be one variable. */
		for (size_t i = 0; i < s->nvars; i++) {
			char e1[160], e2[160];

			if (!s->vars[i].captured)
				continue;
			clyde_sweep_capture_env(name, e1, sizeof(e1));
			clyde_sweep_capture_env(s->vars[i].name, e2,
						sizeof(e2));
			if (!strcmp(e1, e2))
				return perr(ps,
					    "capture %s: commands would see it "
					    "as %s, as capture %s",
					    name, e1, s->vars[i].name);
		}
		v = clyde_exp_push(&s->vars, &s->nvars, sizeof(*v));
		if (!v || !(v->name = strdup(name)) || !(v->value = strdup("")))
			return pnomem(ps);
		v->captured = true;
		return add_step(ps, &s->setup, &s->nsetup, CLYDE_SWEEP_CAPTURE,
				value, name);
	}
	if (!strncmp(key, "axis ", 5))
		return key_axis(ps, key + 5, value);
	return perr(ps,
		    "unknown key \"%s\" (setup, set PATH, capture NAME, "
		    "teardown)",
		    key);
}

static int section_axis(struct parse_state *ps, const char *key,
			const char *value)
{
	if (!strcmp(key, "values"))
		return axis_add_values(ps, ps->cur_axis, value, false);
	if (!strcmp(key, "range"))
		return axis_add_values(ps, ps->cur_axis, value, true);
	return perr(ps, "[axis %s]: unknown key \"%s\" (values, range)",
		    ps->cur_axis->name, key);
}

/* A repeated run/tree/time/fio key continues the same option text. */
static int append_text(struct parse_state *ps, char **dst, const char *v)
{
	size_t a = *dst ? strlen(*dst) : 0, b = strlen(v);
	char *p = realloc(*dst, a + b + 2);

	if (!p)
		return pnomem(ps);
	if (a)
		p[a++] = ' ';
	memcpy(p + a, v, b + 1);
	*dst = p;
	return 0;
}

static int section_workload(struct parse_state *ps, const char *key,
			    const char *value)
{
	struct clyde_sweep_workload *w = ps->cur_wl;
	int k = clyde_sweep_wl_kind_find(key);
	char names[128];

	if (k >= 0) {
		if (w->args && w->kind != (enum clyde_sweep_wl_kind)k)
			return perr(ps, "[workload %s]: one of %s", w->name,
				    clyde_sweep_wl_kind_names(
					    names, sizeof(names), " or "));
		w->kind = (enum clyde_sweep_wl_kind)k;
		return append_text(ps, &w->args, value);
	}
	if (!strcmp(key, "device"))
		return set_str(ps, &w->device, value);
	if (!strcmp(key, "path"))
		return set_str(ps, &w->path, value);
	if (!strcmp(key, "before"))
		return set_str(ps, &w->before, value);
	return perr(ps,
		    "[workload %s]: unknown key \"%s\" (%s, before, device, "
		    "path)",
		    w->name, key,
		    clyde_sweep_wl_kind_names(names, sizeof(names), ", "));
}

static int section_vars(struct parse_state *ps, const char *key,
			const char *value)
{
	struct clyde_sweep_var *v;

	if (!valid_name(key))
		return perr(ps, "variable name \"%s\": letters, digits, _, -",
			    key);
	if (find_var(ps->s, key))
		return perr(ps, "variable \"%s\" defined twice", key);
	v = clyde_exp_push(&ps->s->vars, &ps->s->nvars, sizeof(*v));
	if (!v || !(v->name = strdup(key)) || !(v->value = strdup(value)))
		return pnomem(ps);
	return 0;
}

/* A new section: remember it, and make the axis or workload it opens. */
static int enter_section(struct parse_state *ps, const char *section)
{
	snprintf(ps->cur_section, sizeof(ps->cur_section), "%s", section);
	ps->cur_wl = NULL;
	ps->cur_axis = NULL;
	if (!strncmp(section, "axis ", 5)) {
		ps->cur_axis = new_axis(ps, section + 5);
		return ps->cur_axis ? 0 : ps->rc;
	}
	if (!strncmp(section, "workload ", 9)) {
		const char *name = section + 9;
		struct clyde_sweep_workload *w;

		if (!valid_name(name))
			return perr(ps,
				    "workload name \"%s\": letters, "
				    "digits, _ and -",
				    name);
		for (size_t i = 0; i < ps->s->nworkloads; i++)
			if (!strcmp(ps->s->workloads[i].name, name))
				return perr(ps, "workload \"%s\" defined twice",
					    name);
		w = clyde_exp_push(&ps->s->workloads, &ps->s->nworkloads,
				   sizeof(*w));
		if (!w || !(w->name = strdup(name)))
			return pnomem(ps);
		w->line = ps->line;
		ps->cur_wl = w;
		return 0;
	}
	if (!strcmp(section, "experiment") || !strcmp(section, "point") ||
	    !strcmp(section, "vars"))
		return 0;
	return perr(ps,
		    "unknown section [%s] (experiment, vars, axis NAME, point, "
		    "workload NAME)",
		    section);
}

/*
 * Whether `name` (a section "[NAME" or a key "SECTION\nKEY") was met
 * before: then it is refused, naming both lines (inih would hand a
 * repeated key on as if it were a continuation, and clyde would join
 * `time = rm -rf X` and `time = echo` into one command).  Records it
 * otherwise.  Returns true after an error.
 */
static bool seen_before(struct parse_state *ps, const char *name,
			const char *what)
{
	struct seen *n;
	char names[128];

	for (size_t i = 0; i < ps->nseen; i++) {
		const char *k = strchr(name, '\n');

		if (strcmp(ps->seen[i].name, name))
			continue;
		if (name[0] == '[')
			perr(ps,
			     "%s [%s] repeated (first at line %u): one "
			     "section of a name",
			     what, name + 1, ps->seen[i].line);
		else
			perr(ps,
			     "%s \"%s\" repeated (first at line %u): one "
			     "value per key; continue a %s command on an "
			     "indented line",
			     what, k ? k + 1 : name, ps->seen[i].line,
			     clyde_sweep_wl_kind_names(names, sizeof(names),
						       " or "));
		return true;
	}
	n = clyde_exp_push(&ps->seen, &ps->nseen, sizeof(*n));
	if (!n || !(n->name = strdup(name))) {
		pnomem(ps);
		return true;
	}
	n->line = ps->line;
	return false;
}

/* An indented line continues the key before it: the options of a
 * workload kind (run, tree, time, fio, dev) are joined; a setup or
 * teardown is another command; any other value would be replaced, so that
 * is refused. */
static bool continues(struct parse_state *ps, const char *key)
{
	char names[128];

	if (clyde_sweep_wl_kind_find(key) >= 0 || !strcmp(key, "setup") ||
	    !strcmp(key, "teardown"))
		return true;
	perr(ps,
	     "an indented line continues \"%s\", which takes one line "
	     "(only %s continue)",
	     key, clyde_sweep_wl_kind_names(names, sizeof(names), " and "));
	return false;
}

static int on_key(void *user, const char *section, const char *key,
		  const char *value)
{
	struct parse_state *ps = user;

	if (ps->rc)
		return 0;
	if (strcmp(section, ps->cur_section) && enter_section(ps, section))
		return 0;
	if (!ps->indented && strcmp(key, "setup") && strcmp(key, "teardown")) {
		/* A second setup or teardown is a second command; any other
		 * key is said once. */
		char *k;

		if (asprintf(&k, "%s\n%s", section, key) < 0)
			return pnomem(ps), 0;
		if (seen_before(ps, k, "key")) {
			free(k);
			return 0;
		}
		free(k);
	}
	if (ps->indented && !continues(ps, key))
		return 0;
	if (ps->cur_axis)
		section_axis(ps, key, value);
	else if (ps->cur_wl)
		section_workload(ps, key, value);
	else if (!strcmp(section, "experiment"))
		section_experiment(ps, key, value);
	else if (!strcmp(section, "vars"))
		section_vars(ps, key, value);
	else
		section_point(ps, key, value); /* [point] or no section */
	return ps->rc ? 0 : 1;
}

/* inih's reader: one line of the text per call, counted.  The line end
 * is not handed on (inih trims it anyway), so that a line of
 * INI_MAX_LINE - 1 characters fits the buffer.  A section header without
 * its "]" is reported here, on its own line: inih would report it and go
 * on, and the next key would look like a key of the previous section. */
static char *read_line(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;
	size_t i = 0;
	const char *t;

	if (ps->rc || ps->pos >= ps->len || ps->too_long)
		return NULL;
	while (ps->pos < ps->len && ps->text[ps->pos] != '\n') {
		if (i + 1 >= (size_t)num) {
			ps->line++;
			ps->too_long = true;
			return NULL;
		}
		if (ps->text[ps->pos] == '\0') {
			/* inih would read the line up to it, silently. */
			ps->line++;
			perr(ps, "a NUL byte in the line");
			return NULL;
		}
		str[i++] = ps->text[ps->pos++];
	}
	if (ps->pos < ps->len)
		ps->pos++; /* the '\n' */
	str[i] = '\0';
	ps->line++;
	for (t = str; *t == ' ' || *t == '\t'; t++)
		;
	ps->indented = t > str;
	if (*t == '[' && !strchr(t, ']')) {
		perr(ps, "%s: a section header needs its \"]\"", t);
		return NULL;
	}
	if (*t == '[' && !ps->indented) {
		char name[INI_MAX_LINE + 2];

		snprintf(name, sizeof(name), "[%.*s",
			 (int)(strchr(t, ']') - t - 1), t + 1);
		if (seen_before(ps, name, "section"))
			return NULL;
	}
	return str;
}

/* ---- expansion ---------------------------------------------------------- */

struct sbuf {
	char *p;
	size_t len, cap;
};

static int sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 128;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

void clyde_sweep_capture_env(const char *name, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "CLYDE_CAPTURE_%s", name);

	for (size_t i = 14; i < n && i < cap; i++)
		if (buf[i] == '-')
			buf[i] = '_';
}

/* A captured variable in a shell command: a reference to the environment
 * variable that holds its value, never the value itself. */
static int add_capture_ref(struct sbuf *b, const char *name)
{
	char env[160];

	clyde_sweep_capture_env(name, env, sizeof(env));
	if (sb_add(b, "${", 2) < 0 || sb_add(b, env, strlen(env)) < 0 ||
	    sb_add(b, "}", 1) < 0)
		return -ENOMEM;
	return 0;
}

static int expand_into(struct clyde_ctx *ctx, const struct clyde_sweep *s,
		       size_t point, unsigned repeat, const char *t,
		       unsigned line, int depth, bool sh, struct sbuf *b)
{
	if (depth > EXPAND_DEPTH)
		return clyde_err(ctx, 0,
				 "%s:%u: placeholders nested more than %d "
				 "deep (a variable that names itself?)",
				 s->file, line, EXPAND_DEPTH),
		       -EINVAL;
	while (*t) {
		const char *e;
		char name[128], num[32];
		size_t n;
		int rc;

		if (t[0] == '{' && t[1] == '{') {
			if (sb_add(b, "{", 1) < 0)
				return -ENOMEM;
			t += 2;
			continue;
		}
		if (t[0] == '$' && t[1] == '{') {
			if (sb_add(b, t, 2) < 0)
				return -ENOMEM;
			t += 2;
			continue;
		}
		if (t[0] != '{' || !is_name_start((unsigned char)t[1])) {
			if (sb_add(b, t, 1) < 0)
				return -ENOMEM;
			t++;
			continue;
		}
		for (e = t + 1; is_name_char((unsigned char)*e); e++)
			;
		if (*e != '}') {
			if (sb_add(b, t, 1) < 0)
				return -ENOMEM;
			t++;
			continue;
		}
		n = (size_t)(e - t - 1);
		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, t + 1, n);
		name[n] = '\0';
		t = e + 1;
		{
			const struct clyde_sweep_axis *a = find_axis(s, name);
			const struct clyde_sweep_var *v = find_var(s, name);

			if (a) {
				const char *val = clyde_sweep_value(
					s, point, (size_t)(a - s->axes));

				rc = sb_add(b, val, strlen(val));
			} else if (v && v->captured && sh) {
				rc = add_capture_ref(b, v->name);
			} else if (v) {
				rc = expand_into(ctx, s, point, repeat,
						 v->value, line, depth + 1, sh,
						 b);
			} else if (!strcmp(name, "point")) {
				snprintf(num, sizeof(num), "%zu", point + 1);
				rc = sb_add(b, num, strlen(num));
			} else if (!strcmp(name, "repeat")) {
				snprintf(num, sizeof(num), "%u", repeat);
				rc = sb_add(b, num, strlen(num));
			} else {
				return clyde_err(ctx, 0,
						 "%s:%u: unknown placeholder "
						 "{%s} (not an axis, a "
						 "variable, {point} or "
						 "{repeat}; write {{ for a "
						 "literal brace)",
						 s->file, line, name),
				       -EINVAL;
			}
			if (rc == -ENOMEM)
				return clyde_err(ctx, ENOMEM, "%s", s->file);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static int expand(struct clyde_ctx *ctx, const struct clyde_sweep *s,
		  size_t point, unsigned repeat, const char *tmpl,
		  unsigned line, bool sh, char **out)
{
	struct sbuf b = { 0 };
	int rc;

	if (sb_add(&b, "", 0) < 0)
		return clyde_err(ctx, ENOMEM, "%s", s->file);
	rc = expand_into(ctx, s, point, repeat, tmpl, line, 0, sh, &b);
	if (rc == -ENOMEM)
		clyde_err(ctx, ENOMEM, "%s", s->file);
	if (rc < 0) {
		free(b.p);
		return rc;
	}
	*out = b.p;
	return 0;
}

int clyde_sweep_expand(struct clyde_ctx *ctx, const struct clyde_sweep *s,
		       size_t point, unsigned repeat, const char *tmpl,
		       unsigned line, char **out)
{
	return expand(ctx, s, point, repeat, tmpl, line, false, out);
}

int clyde_sweep_expand_sh(struct clyde_ctx *ctx, const struct clyde_sweep *s,
			  size_t point, unsigned repeat, const char *tmpl,
			  unsigned line, char **out)
{
	return expand(ctx, s, point, repeat, tmpl, line, true, out);
}

const char *clyde_sweep_value(const struct clyde_sweep *s, size_t point,
			      size_t axis)
{
	const struct clyde_sweep_axis *a = &s->axes[axis];

	return a->values[s->point_values[point * s->naxes + axis]];
}

void clyde_sweep_point_label(const struct clyde_sweep *s, size_t point,
			     char *buf, size_t cap)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->naxes && off < cap; i++) {
		int w = snprintf(buf + off, cap - off, "%s%s=%s", i ? " " : "",
				 s->axes[i].name,
				 clyde_sweep_value(s, point, i));

		if (w < 0)
			break;
		off += (size_t)w;
	}
	if (s->naxes == 0)
		snprintf(buf, cap, "single point");
}

/* ---- the plan ----------------------------------------------------------- */

/*
 * The points: a factor is a crossed axis or a zip group; factors nest in
 * the order of their first axis, the first outermost.
 */
static int make_points(struct parse_state *ps)
{
	struct clyde_sweep *s = ps->s;
	size_t nf = 0, *flen, *fcur, total = 1;
	size_t *ffirst, *axis_factor;
	int rc = 0;

	flen = calloc(s->naxes + 1, sizeof(size_t));
	fcur = calloc(s->naxes + 1, sizeof(size_t));
	ffirst = calloc(s->naxes + 1, sizeof(size_t));
	axis_factor = calloc(s->naxes + 1, sizeof(size_t));
	if (!flen || !fcur || !ffirst || !axis_factor) {
		rc = pnomem(ps);
		goto out;
	}
	for (size_t i = 0; i < s->naxes; i++) {
		struct clyde_sweep_axis *a = &s->axes[i];
		size_t f = nf;

		ps->line = a->line;
		if (a->nvalues == 0) {
			rc = perr(ps, "axis %s has no values", a->name);
			goto out;
		}
		if (a->zip)
			for (size_t j = 0; j < i; j++)
				if (s->axes[j].zip == a->zip) {
					f = axis_factor[j];
					break;
				}
		axis_factor[i] = f;
		if (f == nf) {
			flen[nf] = a->nvalues;
			ffirst[nf++] = i;
		} else if (flen[f] != a->nvalues) {
			rc = perr(ps,
				  "zipped axes %s (%zu values) and %s (%zu "
				  "values) differ in length",
				  s->axes[ffirst[f]].name, flen[f], a->name,
				  a->nvalues);
			goto out;
		}
	}
	for (size_t f = 0; f < nf; f++) {
		if (total > 100000 / flen[f]) {
			rc = perr(ps, "more than 100000 points");
			goto out;
		}
		total *= flen[f];
	}
	s->npoints = total;
	s->point_values =
		calloc(total * (s->naxes ? s->naxes : 1), sizeof(size_t));
	if (!s->point_values) {
		rc = pnomem(ps);
		goto out;
	}
	for (size_t p = 0; p < total; p++) {
		for (size_t i = 0; i < s->naxes; i++)
			s->point_values[p * s->naxes + i] =
				fcur[axis_factor[i]];
		/* Advance the last factor fastest. */
		for (size_t f = nf; f-- > 0;) {
			if (++fcur[f] < flen[f])
				break;
			fcur[f] = 0;
		}
	}
out:
	free(flen);
	free(fcur);
	free(ffirst);
	free(axis_factor);
	return rc;
}

/* Expand every template once, so that an unknown placeholder is a parse
 * error rather than a failure an hour into the experiment. */
static int check_templates(struct parse_state *ps)
{
	struct clyde_sweep *s = ps->s;
	char *out;
	int rc;

#define CHECK_T(str, ln)                                                       \
	do {                                                                   \
		if (str) {                                                     \
			rc = clyde_sweep_expand(ps->ctx, s, 0, 1, (str), (ln), \
						&out);                         \
			if (rc < 0)                                            \
				return ps->rc = rc;                            \
			free(out);                                             \
		}                                                              \
	} while (0)

	for (size_t i = 0; i < s->nsetup; i++) {
		CHECK_T(s->setup[i].text, s->setup[i].line);
		CHECK_T(s->setup[i].value, s->setup[i].line);
	}
	for (size_t i = 0; i < s->nteardown; i++)
		CHECK_T(s->teardown[i].text, s->teardown[i].line);
	for (size_t i = 0; i < s->nworkloads; i++) {
		CHECK_T(s->workloads[i].args, s->workloads[i].line);
		CHECK_T(s->workloads[i].device, s->workloads[i].line);
		CHECK_T(s->workloads[i].path, s->workloads[i].line);
		CHECK_T(s->workloads[i].before, s->workloads[i].line);
	}
#undef CHECK_T
	return 0;
}

/* --define NAME=... for a NAME the file does not define: an error naming the
 * variables it has (a typo, or a file that calls it otherwise, would
 * otherwise be ignored without a word). */
static int unknown_define(struct parse_state *ps, const char *def,
			  const char *name)
{
	char list[512] = "", vis[256];
	size_t off = 0, k = 0;

	for (size_t i = 0; i < ps->s->nvars && off + 8 < sizeof(list); i++) {
		const struct clyde_sweep_var *v = &ps->s->vars[i];
		int w;

		if (v->captured)
			continue;
		w = snprintf(list + off, sizeof(list) - off, "%s%s",
			     k++ ? ", " : "", v->name);
		if (w < 0 || (size_t)w >= sizeof(list) - off) {
			snprintf(list + off, sizeof(list) - off, ", ...");
			break;
		}
		off += (size_t)w;
	}
	clyde_err(ps->ctx, 0, "--define %s: %s defines no variable %s (%s%s)",
		  clyde_vis(vis, sizeof(vis), def, 0), ps->s->file, name,
		  k ? "its [vars]: " : "it has no [vars]", list);
	return ps->rc = -EINVAL;
}

static int apply_defines(struct parse_state *ps, char *const *defines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(defines[i], '=');
		char name[128];
		struct clyde_sweep_var *v;
		size_t len;

		len = eq ? (size_t)(eq - defines[i]) : 0;
		if (!eq || len == 0 || len >= sizeof(name)) {
			clyde_err(ps->ctx, 0, "--define %s: want NAME=VALUE",
				  defines[i]);
			return ps->rc = -EINVAL;
		}
		memcpy(name, defines[i], len);
		name[len] = '\0';
		if (!valid_name(name) || find_axis(ps->s, name)) {
			clyde_err(
				ps->ctx, 0,
				"--define %s: not a variable name (or an axis)",
				defines[i]);
			return ps->rc = -EINVAL;
		}
		v = find_var(ps->s, name);
		if (v && v->captured) {
			clyde_err(ps->ctx, 0,
				  "--define %s: %s is captured from a command",
				  defines[i], name);
			return ps->rc = -EINVAL;
		}
		if (!v)
			return unknown_define(ps, defines[i], name);
		free(v->value);
		if (!(v->value = strdup(eq + 1)))
			return pnomem(ps);
	}
	return 0;
}

/* repeat, max-runs and until-stable, their variables expanded. */
static int read_numbers(struct parse_state *ps)
{
	struct clyde_sweep *s = ps->s;

	for (int i = 0; i < NUM_KEYS; i++) {
		char *v = NULL;
		int rc = 0;

		if (!ps->num_text[i])
			continue;
		ps->line = ps->num_line[i];
		if (clyde_sweep_expand(ps->ctx, s, 0, 1, ps->num_text[i],
				       ps->line, &v) < 0)
			return ps->rc = -EINVAL;
		if (i == NUM_REPEAT) {
			rc = parse_uint(ps, num_keys[i], v, 1, 1000,
					&s->repeat);
		} else if (i == NUM_MAX_RUNS) {
			rc = parse_uint(ps, num_keys[i], v, 2, 1000,
					&s->max_runs);
		} else {
			char *end;
			double pct = strtod(v, &end);

			if (end == v || *end != '\0' || !(pct > 0 && pct < 100))
				rc = perr(ps,
					  "%s = %s: want a percentage above 0 "
					  "and below 100",
					  num_keys[i], v);
			else if (i == NUM_UNTIL_STABLE)
				s->until_stable = pct;
			else
				s->until_decided = pct;
		}
		free(v);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int finish(struct parse_state *ps, char *const *defines, size_t ndefines)
{
	struct clyde_sweep *s = ps->s;

	ps->line = 0;
	for (size_t i = 0; i < s->nvars; i++)
		if (find_axis(s, s->vars[i].name))
			return perr(ps, "\"%s\" is both an axis and a variable",
				    s->vars[i].name);
	for (size_t i = 0; i < s->nworkloads; i++)
		if (!s->workloads[i].args) {
			ps->line = s->workloads[i].line;
			return perr(ps,
				    "[workload %s]: say what it runs: run = "
				    "OPTIONS, tree = OPTIONS, time = COMMAND, "
				    "fio = ARGS or dev = OPTIONS DEVICE",
				    s->workloads[i].name);
		}
	if (s->nworkloads == 0)
		return perr(ps, "no [workload NAME] section: nothing to "
				"measure");
	if (apply_defines(ps, defines, ndefines) < 0)
		return ps->rc;
	if (make_points(ps) < 0 || read_numbers(ps) < 0)
		return ps->rc;
	if (s->until_stable > 0 && s->until_decided > 0)
		return perr(ps, "until-stable and until-decided: give one "
				"(until-decided repeats until the ranks are "
				"known, until-stable until every interval is "
				"narrow)");
	if (!s->repeat)
		/* until-stable needs CLYDE_STATS_SETTLE_MIN_N samples before it
		 * can settle; until-decided looks from the second round on. */
		s->repeat = s->until_decided > 0 ? 2 : 3;
	if (!s->max_runs)
		s->max_runs = 10;
	if (clyde_sweep_adaptive(s) && s->max_runs < s->repeat)
		return perr(ps, "max-runs (%u) is below repeat (%u)",
			    s->max_runs, s->repeat);
	return check_templates(ps);
}

int clyde_sweep_parse(struct clyde_ctx *ctx, const char *file, const char *text,
		      size_t len, char *const *defines, size_t ndefines,
		      struct clyde_sweep *s)
{
	struct parse_state ps;

	memset(s, 0, sizeof(*s));
	memset(&ps, 0, sizeof(ps));
	ps.ctx = ctx;
	ps.s = s;
	ps.text = text;
	ps.len = len;
	s->repeat = 0;
	if (!(s->file = strdup(file)))
		return clyde_err(ctx, ENOMEM, "%s", file);
#ifdef CLYDE_HAVE_INIH
	{
		int r = ini_parse_stream(read_line, &ps, on_key, &ps);

		if (!ps.rc && ps.too_long)
			perr(&ps,
			     "line longer than %d characters: use a [vars] "
			     "variable or continue run/tree/time options on "
			     "an indented next line",
			     INI_MAX_LINE - 1);
		if (!ps.rc && r > 0) {
			ps.line = (unsigned)r;
			perr(&ps, "not an INI line (KEY = VALUE or [section])");
		}
		if (!ps.rc && r < 0)
			pnomem(&ps);
	}
#else
	(void)defines;
	(void)ndefines;
	(void)on_key;
	(void)read_line;
	clyde_err(ctx, 0,
		  "%s: clyde was built without libinih, which reads "
		  "experiment files (Debian: libinih-dev)",
		  file);
	clyde_sweep_release(s);
	return -ENOTSUP;
#endif
	if (!ps.rc) {
		if (!s->name) {
			const char *b = strrchr(file, '/');
			char *dot;

			if (!(s->name = strdup(b ? b + 1 : file)))
				pnomem(&ps);
			else if ((dot = strrchr(s->name, '.')) &&
				 dot != s->name)
				*dot = '\0';
		}
	}
	if (!ps.rc)
		finish(&ps, defines, ndefines);
	for (int i = 0; i < NUM_KEYS; i++)
		free(ps.num_text[i]);
	for (size_t i = 0; i < ps.nseen; i++)
		free(ps.seen[i].name);
	free(ps.seen);
	if (ps.rc) {
		clyde_sweep_release(s);
		return ps.rc;
	}
	return 0;
}

int clyde_sweep_set_var(struct clyde_sweep *s, const char *name,
			const char *value)
{
	struct clyde_sweep_var *v = find_var(s, name);
	char *p;

	if (!v)
		return -ENOENT;
	if (!(p = strdup(value)))
		return -ENOMEM;
	free(v->value);
	v->value = p;
	return 0;
}

/* ---- order -------------------------------------------------------------- */

const char *clyde_sweep_set_path_why(const char *path)
{
	const char *c;

	if (strncmp(path, "/sys/", 5) && strncmp(path, "/proc/sys/", 10))
		return "not below /sys or /proc/sys";
	/* Every component: not empty, not "." or "..". */
	for (c = path + 1; *c;) {
		size_t l = strcspn(c, "/");

		if (l == 0)
			return "an empty component (//)";
		if (l == 1 && c[0] == '.')
			return "a \".\" component";
		if (l == 2 && c[0] == '.' && c[1] == '.')
			return "a \"..\" component";
		c += l;
		if (*c == '/')
			c++;
	}
	return c[-1] == '/' ? "an empty last component (a trailing /)" : NULL;
}

bool clyde_sweep_set_path_ok(const char *path)
{
	return clyde_sweep_set_path_why(path) == NULL;
}

unsigned clyde_sweep_max_rounds(const struct clyde_sweep *s)
{
	return clyde_sweep_adaptive(s) ? s->max_runs : s->repeat;
}

bool clyde_sweep_adaptive(const struct clyde_sweep *s)
{
	return s->until_stable > 0 || s->until_decided > 0;
}

void clyde_sweep_round_order(const struct clyde_sweep *s, unsigned round,
			     size_t *order)
{
	struct clyde_rng rng;

	for (size_t i = 0; i < s->npoints; i++)
		order[i] = i;
	if (s->order != CLYDE_SWEEP_RANDOM || s->npoints < 2)
		return;
	clyde_rng_seed(&rng, s->seed * 0x9e3779b97f4a7c15ull + round + 1);
	for (size_t i = s->npoints - 1; i > 0; i--) {
		size_t j = (size_t)clyde_rng_below(&rng, i + 1);
		size_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}
