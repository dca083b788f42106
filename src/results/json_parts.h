/*
 * The pieces of the result document that the bonnie suite's, the tree
 * runs' and the device tests' JSON share (docs/json-schema.md): machine,
 * target, a latency histogram, the device counters, each written with the
 * generic emitter of core/json_out.h.
 */
#ifndef CLYDE_RESULTS_JSON_PARTS_H
#define CLYDE_RESULTS_JSON_PARTS_H

#include <stdint.h>

#include "core/hist.h"
#include "core/json_out.h"
#include "env/env.h"

/* The "machine" and "target" objects of docs/json-schema.md. */
void clyde_jw_machine(struct clyde_jw *w, const struct clyde_machine *m);
void clyde_jw_target(struct clyde_jw *w, const struct clyde_target *t);

/* A latency object as member `key`: count, min, mean, percentiles, max,
 * sample_every and the non-empty buckets; null when h is NULL or empty. */
void clyde_jw_latency(struct clyde_jw *w, const char *key,
		      const struct clyde_hist *h, uint32_t sample_every);

/* The "device" object; write amplification is device write bytes over
 * `written` when `written` > 0 and there is a device, else null. */
/* The same with the write amplification given (< 0: null). */
void clyde_jw_device_wa(struct clyde_jw *w, const struct clyde_devio *d,
			double wa);

void clyde_jw_device(struct clyde_jw *w, const struct clyde_devio *d,
		     uint64_t written);

#endif
