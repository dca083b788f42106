/*
 * libFuzzer target for the experiment file parser (clyde sweep's INI,
 * clyde_sweep_parse() over libinih).  Each input is parsed as a file's
 * text (an exact-size heap copy, so that a read past its end shows up
 * under ASan).  Besides crashes and sanitizer reports it checks the
 * parser's promises: a refusal is -EINVAL (or -ENOMEM) with one message
 * naming the file; a plan that parses has at least one point, named
 * workloads and axes, and its templates expand for its first points
 * (as text and as shell commands, where a captured value must appear only
 * as ${CLYDE_CAPTURE_...}); the dry run prints it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "exp/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether the input holds the byte that stands for a captured value. */
static bool input_has_mark;

/* Expand t for point p both ways; a failure must say why. */
static void expand_both(struct clyde_ctx *ctx, const struct clyde_sweep *s,
			size_t p, const char *t, unsigned line)
{
	char *a = NULL, *b = NULL;

	if (!t)
		return;
	if (clyde_sweep_expand(ctx, s, p, 1, t, line, &a) < 0 &&
	    !clyde_errmsg(ctx)[0])
		abort();
	clyde_err_clear(ctx);
	if (clyde_sweep_expand_sh(ctx, s, p, 1, t, line, &b) < 0 &&
	    !clyde_errmsg(ctx)[0])
		abort();
	clyde_err_clear(ctx);
	/* The shell form never holds a captured value, which is "\x01"
	 * here (set below). */
	if (b && !input_has_mark && strchr(b, '\x01'))
		abort();
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct clyde_sweep s;
	struct clyde_ctx ctx;
	char *copy = malloc(size ? size : 1);
	FILE *null;
	int rc;

	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	input_has_mark = size && memchr(copy, '\x01', size);
	clyde_ctx_init(&ctx);
	rc = clyde_sweep_parse(&ctx, "fuzz.ini", copy, size, NULL, 0, &s);
	if (rc < 0) {
		const char *m = clyde_errmsg(&ctx);

		if (rc != -EINVAL && rc != -ENOMEM)
			abort();
		if (strncmp(m, "fuzz.ini", 8) || strchr(m, '\n'))
			abort();
		goto out;
	}
	if (s.npoints == 0 || !s.name || !s.file)
		abort();
	for (size_t w = 0; w < s.nworkloads; w++)
		if (!s.workloads[w].name || !s.workloads[w].name[0])
			abort();
	for (size_t a = 0; a < s.naxes; a++)
		if (!s.axes[a].name || s.axes[a].nvalues == 0)
			abort();
	for (size_t i = 0; i < s.nvars; i++)
		if (s.vars[i].captured &&
		    clyde_sweep_set_var(&s, s.vars[i].name, "\x01") < 0)
			abort();
	for (size_t p = 0; p < s.npoints && p < 3; p++) {
		char label[512];

		clyde_sweep_point_label(&s, p, label, sizeof(label));
		if (!memchr(label, '\0', sizeof(label)))
			abort();
		for (size_t k = 0; k < s.nsetup; k++) {
			expand_both(&ctx, &s, p, s.setup[k].text,
				    s.setup[k].line);
			expand_both(&ctx, &s, p, s.setup[k].value,
				    s.setup[k].line);
		}
		for (size_t k = 0; k < s.nteardown; k++)
			expand_both(&ctx, &s, p, s.teardown[k].text,
				    s.teardown[k].line);
		for (size_t w = 0; w < s.nworkloads; w++) {
			expand_both(&ctx, &s, p, s.workloads[w].args,
				    s.workloads[w].line);
			expand_both(&ctx, &s, p, s.workloads[w].before,
				    s.workloads[w].line);
		}
	}
	/* The dry run walks every planned visit: only small plans. */
	null = s.npoints * clyde_sweep_max_rounds(&s) <= 64 ?
		       fopen("/dev/null", "w") :
		       NULL;
	if (null) {
		clyde_sweep_dry_run(&ctx, &s, null);
		fclose(null);
	}
	clyde_sweep_release(&s);
out:
	clyde_ctx_release(&ctx);
	free(copy);
	return 0;
}
