/*
 * Loading an experiment from the results history: the one call
 * `clyde report --experiment ID` needs from the sweep engine's storage.
 * The history module that stores sweep runs provides it.
 */
#ifndef CLYDE_REPORT_EXP_STORE_H
#define CLYDE_REPORT_EXP_STORE_H

#include "core/ctx.h"
#include "report/experiment.h"

struct clyde_history;

/*
 * Fill *out with experiment `id` from history h (every point, every
 * finished repeat's samples).  Returns 0, -ENOENT for an unknown id, or
 * another negative errno, with a message in ctx.  The caller releases
 * *out with clyde_exp_release(), also after a failure.
 */
int clyde_history_load_experiment(struct clyde_ctx *ctx,
				  struct clyde_history *h, const char *id,
				  struct clyde_exp *out);

#endif
