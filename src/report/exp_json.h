/*
 * An experiment described in a small JSON file, for rendering one without
 * the results history (`clyde report --experiment-json FILE`) and for
 * tests.  The format (docs/sweep-report.md):
 *
 *   {
 *     "schema": "clyde-experiment", "schema_version": 1,
 *     "id": "md-chunk", "title": "md RAID5 chunk size",
 *     "axes": ["chunk", "level"],
 *     "metrics": [{"key": "run.put_block", "label": "block write",
 *                  "unit": "B/s", "higher_better": true}],
 *     "points": [{"values": ["64k", "raid5"], "failed": false,
 *                 "config": "mdadm --create ... --chunk=64",
 *                 "samples": {"run.put_block": [1.2e8, 1.3e8]},
 *                 "series": {"run.put_block": {"interval_s": 1,
 *                            "rate": [1.3e8, 1.2e8], "dirty": [0, null]}}}]
 *   }
 *
 * id, title, label, unit, higher_better, amount, failed, config, samples
 * and series (a metric's course over time, experiment.h; dirty may be
 * left out) are optional (label: the key; unit: none; higher_better: false
 * for the units "s" and "ns", else true; amount: true for the unit "B",
 * a metric with no direction, experiment.h).  Every point has one value per axis;
 * samples name known metrics only; numbers must be finite.
 */
#ifndef CLYDE_REPORT_EXP_JSON_H
#define CLYDE_REPORT_EXP_JSON_H

#include "core/ctx.h"
#include "analysis/experiment.h"

#define CLYDE_EXP_SCHEMA "clyde-experiment"
#define CLYDE_EXP_SCHEMA_VERSION 1

/*
 * Read the experiment at `path` into *out (which the caller releases with
 * clyde_exp_release(), also after a failure).  Returns 0, or a negative
 * errno with one message in ctx: "PATH: cannot open ..." or
 * "PATH:LINE: reason" for a malformed file (-EINVAL).
 */
int clyde_exp_json_load(struct clyde_ctx *ctx, const char *path,
			struct clyde_exp *out);

#endif
