/*
 * libFuzzer target for the bonnie++ CSV reader (see README.md here for how
 * to build and run it).  Each input is handed, as arbitrary bytes, to the
 * line parser (whole, unterminated, so that reads past its end show up
 * under ASan) and to the stream reader through fmemopen().  Besides
 * crashes and sanitizer reports it checks the reader's own promises: a
 * result is 1, 0 or -EINVAL, a reason is always given and terminated, and
 * every kept message starts with the label.
 */
#include "core/ctx.h"
#include "results/csv_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct clyde_csv_line line;
	struct clyde_csv_set set;
	struct clyde_ctx ctx;
	char why[CLYDE_CSV_WHY_LEN];
	char tiny[8];
	char *copy;
	FILE *f;
	int rc;

	/* An exact-size heap copy: one byte past it is a redzone. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	memset(why, 'X', sizeof(why));
	rc = clyde_csv_parse_line(copy, size, &line, why, sizeof(why));
	if (rc != 1 && rc != 0 && rc != -EINVAL)
		abort();
	if (rc < 0 && (!memchr(why, '\0', sizeof(why)) || !why[0]))
		abort();
	if (rc == 1 &&
	    !memchr(line.params.name, '\0', sizeof(line.params.name)))
		abort();
	/* A reason cut to a tiny buffer, and to none. */
	clyde_csv_parse_line(copy, size, &line, tiny, sizeof(tiny));
	if (!memchr(tiny, '\0', sizeof(tiny)))
		abort();
	clyde_csv_parse_line(copy, size, &line, NULL, 0);

	clyde_ctx_init(&ctx);
	clyde_csv_set_init(&set);
	f = size ? fmemopen(copy, size, "r") : NULL;
	if (f) {
		if (clyde_csv_read_stream(&ctx, f, "fuzz", &set) != 0)
			abort();
		fclose(f);
		if (set.nerrors > CLYDE_CSV_MAX_ERRORS ||
		    set.nerrors > set.nmalformed)
			abort();
		for (size_t i = 0; i < set.nerrors; i++)
			if (strncmp(set.errors[i], "fuzz:", 5))
				abort();
		for (size_t i = 0; i < set.nlines; i++)
			if (set.lines[i].lineno == 0 ||
			    set.lines[i].format < CLYDE_CSV_1_03 ||
			    set.lines[i].format > CLYDE_CSV_1_98)
				abort();
	}
	clyde_csv_set_release(&set);
	clyde_ctx_release(&ctx);
	free(copy);
	return 0;
}
