/*
 * libFuzzer target for the restore journal's reader
 * (clyde_exp_journal_parse(), exp/journal.h): what clyde sweep --resume
 * acts on as root.  Each input is an exact-size heap copy.  Besides
 * crashes and sanitizer reports it checks the reader's promises: a
 * refusal is -EINVAL with "FILE:LINE: ..." (or -ENOMEM), and leaves
 * nothing; what it accepts holds no tab or line end in any field, only
 * absolute paths in sets and work directories, "PID:START" children,
 * captured names of letters, digits, _ and -, and a visit from repeat 1.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "exp/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void field(const char *f, int may_be_null)
{
	if (!f) {
		if (!may_be_null)
			abort();
		return;
	}
	if (strpbrk(f, "\t\n"))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct clyde_exp_journal j;
	struct clyde_ctx ctx;
	char *copy = malloc(size ? size : 1);
	int rc;

	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	clyde_ctx_init(&ctx);
	rc = clyde_exp_journal_parse(&ctx, "fuzz.journal", copy, size, &j);
	if (rc < 0) {
		if (rc != -EINVAL && rc != -ENOMEM)
			abort();
		if (strncmp(clyde_errmsg(&ctx), "fuzz.journal", 12))
			abort();
		if (j.nsets || j.nchildren || j.ntmps || j.ncaptures)
			abort();
		goto out;
	}
	for (size_t i = 0; i < j.nsets; i++) {
		field(j.sets[i].path, 0);
		field(j.sets[i].old, 0);
		field(j.sets[i].want, 1);
		field(j.sets[i].now, 1);
		if (j.sets[i].path[0] != '/')
			abort();
	}
	for (size_t i = 0; i < j.nchildren; i++) {
		field(j.children[i].id, 0);
		field(j.children[i].dir, 0);
		if (!strchr(j.children[i].id, ':'))
			abort();
	}
	for (size_t i = 0; i < j.ntmps; i++)
		if (j.tmps[i][0] != '/' || strpbrk(j.tmps[i], "\t\n"))
			abort();
	for (size_t i = 0; i < j.ncaptures; i++) {
		const char *n = j.captures[i].name;

		field(j.captures[i].value, 0);
		if (!n[0] || strspn(n, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789_-") != strlen(n))
			abort();
	}
	if (j.visit_point < -1 || (j.visit_point >= 0 && j.visit_repeat < 1))
		abort();
	clyde_exp_journal_release(&j);
out:
	clyde_ctx_release(&ctx);
	free(copy);
	return 0;
}
