/*
 * The pieces of the result document several writers share (json_parts.h).
 */
#include "results/json_parts.h"

#include <inttypes.h>
#include <stdio.h>

void clyde_jw_machine(struct clyde_jw *w, const struct clyde_machine *m)
{
	clyde_jw_open(w, "machine", '{');
	CLYDE_JW_ARR(w, "host", m->host);
	CLYDE_JW_ARR(w, "kernel", m->kernel);
	CLYDE_JW_ARR(w, "cpu_model", m->cpu_model);
	clyde_jw_u64(w, "ncpu", m->ncpu);
	clyde_jw_u64(w, "ram_bytes", m->ram_bytes);
	clyde_jw_open(w, "vm", '{');
	for (int t = 0; t < CLYDE_VM_COUNT; t++) {
		const char *k = clyde_vm_tunable_name((enum clyde_vm_tunable)t);

		if (m->vm[t] >= 0)
			clyde_jw_u64(w, k, (uint64_t)m->vm[t]);
		else
			clyde_jw_null(w, k);
	}
	clyde_jw_close(w, '}');
	clyde_jw_close(w, '}');
}

void clyde_jw_target(struct clyde_jw *w, const struct clyde_target *t)
{
	clyde_jw_open(w, "target", '{');
	CLYDE_JW_ARR(w, "path", t->path);
	CLYDE_JW_ARR(w, "fstype", t->fstype);
	CLYDE_JW_ARR(w, "mount_point", t->mount_point);
	CLYDE_JW_ARR(w, "mount_opts", t->mount_opts);
	CLYDE_JW_ARR(w, "source", t->source);
	clyde_jw_bool(w, "has_block_device", t->has_block_device);
	CLYDE_JW_ARR(w, "no_device_reason", t->no_device_reason);
	CLYDE_JW_ARR(w, "block_dev", t->block_dev);
	CLYDE_JW_ARR(w, "disk", t->disk);
	clyde_jw_u64(w, "logical_block_size", t->logical_block_size);
	clyde_jw_u64(w, "physical_block_size", t->physical_block_size);
	clyde_jw_bool(w, "rotational", t->rotational);
	clyde_jw_close(w, '}');
}

/* The latency summary and the non-empty buckets, or null when nothing
 * was recorded. */
void clyde_jw_latency(struct clyde_jw *w, const char *key,
		      const struct clyde_hist *h, uint32_t sample_every)
{
	struct clyde_hist_iter it;
	struct clyde_hist_bucket b;

	if (!h || !clyde_hist_count(h)) {
		clyde_jw_null(w, key);
		return;
	}
	clyde_jw_open(w, key, '{');
	clyde_jw_u64(w, "count", clyde_hist_count(h));
	clyde_jw_u64(w, "min_ns", clyde_hist_min(h));
	clyde_jw_num(w, "mean_ns", clyde_hist_mean(h), 1);
	clyde_jw_u64(w, "p50_ns", clyde_hist_quantile(h, 0.50));
	clyde_jw_u64(w, "p90_ns", clyde_hist_quantile(h, 0.90));
	clyde_jw_u64(w, "p99_ns", clyde_hist_quantile(h, 0.99));
	clyde_jw_u64(w, "p999_ns", clyde_hist_quantile(h, 0.999));
	clyde_jw_u64(w, "max_ns", clyde_hist_max(h));
	clyde_jw_u64(w, "sample_every", sample_every > 1 ? sample_every : 1);
	/* One compact line per bucket: a histogram may have hundreds. */
	clyde_jw_open(w, "buckets", '[');
	clyde_hist_iter_init(&it, h);
	while (clyde_hist_iter_next(&it, &b)) {
		clyde_jw_member(w, NULL);
		fprintf(w->f, "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", b.lo,
			b.hi, b.count);
	}
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

void clyde_jw_device(struct clyde_jw *w, const struct clyde_devio *d,
		     uint64_t written)
{
	clyde_jw_device_wa(w, d,
			   d->have_device && written ?
				   (double)d->write_bytes / (double)written :
				   -1.0);
}

void clyde_jw_device_wa(struct clyde_jw *w, const struct clyde_devio *d,
			double wa)
{
	clyde_jw_open(w, "device", '{');
	clyde_jw_bool(w, "present", d->have_device);
	clyde_jw_u64(w, "read_bytes", d->read_bytes);
	clyde_jw_u64(w, "write_bytes", d->write_bytes);
	clyde_jw_u64(w, "read_ios", d->read_ios);
	clyde_jw_u64(w, "write_ios", d->write_ios);
	clyde_jw_u64(w, "read_merges", d->read_merges);
	clyde_jw_u64(w, "write_merges", d->write_merges);
	clyde_jw_num(w, "avg_read_request_bytes",
		     d->read_ios ? (double)d->read_bytes / (double)d->read_ios :
				   0.0,
		     3);
	clyde_jw_num(w, "avg_write_request_bytes",
		     d->write_ios ?
			     (double)d->write_bytes / (double)d->write_ios :
			     0.0,
		     3);
	if (wa >= 0.0)
		clyde_jw_num(w, "write_amplification", wa, 4);
	else
		clyde_jw_null(w, "write_amplification");
	clyde_jw_close(w, '}');
}
