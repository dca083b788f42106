/*
 * What the loaders of loaded.c share with the loaders in files of their
 * own (loaded_fio.c): making a run, its settings, its samples.  Private
 * to src/report/loaded*.c.
 */
#ifndef CLYDE_REPORT_LOADED_INTERNAL_H
#define CLYDE_REPORT_LOADED_INTERNAL_H

#include "results/loaded.h"

/* A new zeroed run at the end of the set with path, line, source and
 * `ntests` zeroed tests; NULL when out of memory (the set unchanged). */
struct clyde_loaded_run *clyde_loaded_new_run(struct clyde_loaded_set *set,
					      const char *path,
					      unsigned long line,
					      size_t ntests);
/* Release and remove the set's last run. */
void clyde_loaded_drop_last(struct clyde_loaded_set *set);
/* Set (or replace) key = value; the label.  0 or -ENOMEM. */
int clyde_loaded_kv_set(struct clyde_loaded_run *r, const char *key,
			const char *value);
int clyde_loaded_set_label(struct clyde_loaded_run *r, const char *label);
/* Append one rate to a test's samples.  0 or -ENOMEM. */
int clyde_loaded_add_sample(struct clyde_loaded_test *t, double v);

/*
 * Append fio's jobs in data[0..len) (JSON at json_off, as
 * clyde_fio_sniff() found it), one run per job (loaded_fio.c).  A bad
 * document appends one message naming name:line and no run; returns 0,
 * or -ENOMEM (in ctx).
 */
int clyde_loaded_add_fio(struct clyde_ctx *ctx, const char *data, size_t len,
			 size_t json_off, const char *name,
			 struct clyde_loaded_set *set);

#endif
