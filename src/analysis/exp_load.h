/*
 * An experiment of the results history as the analysis model: the one
 * call `clyde report --experiment ID` and `clyde sweep` need.  The rows
 * come from the store (store/exp_store.h); the decoding of the results in
 * them is here, above the store.
 */
#ifndef CLYDE_ANALYSIS_EXP_LOAD_H
#define CLYDE_ANALYSIS_EXP_LOAD_H

#include "core/ctx.h"
#include "analysis/experiment.h"
#include "store/history.h"

/*
 * Fill *out (which the caller releases with clyde_exp_release()) with
 * experiment `id` as experiment.h describes it: axes and points as
 * planned (in file order), one metric per figure any run gave
 * ("<workload>.<test>" for run and tree workloads, "time.<workload>" and
 * "time.<workload>.cpu" for timed commands, plus
 * "time.<workload>.read_bytes"/".write_bytes", amounts, when a device
 * was counted),
 * the samples of every finished repeat in run order, `failed` for points
 * whose every run failed, and `config` from the first result of a point
 * (filesystem, mount options, device).  Returns 0, -ENOENT for an unknown
 * id, or another negative errno, with a message in ctx (-ENOTSUP without
 * SQLite).  *out is zeroed after a failure; releasing it then (as the
 * caller may) is harmless.
 */
int clyde_history_load_experiment(struct clyde_ctx *ctx,
				  struct clyde_history *h, const char *id,
				  struct clyde_exp *out);

#endif
