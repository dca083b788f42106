#include "results/members_json.h"

#include <string.h>

#include "results/members_check.h"

void clyde_jw_members(struct clyde_jw *w, const struct clyde_run *r,
		      enum clyde_test id)
{
	const struct clyde_members *m = &r->tests[id].members;
	struct clyde_members_verdict v;
	char text[2048];
	char *line, *save = NULL;

	clyde_members_check_run(r, id, &v);
	clyde_jw_open(w, "members", '[');
	for (unsigned i = 0; i < m->n; i++) {
		const struct clyde_devio *d = &m->m[i].io;

		clyde_jw_open(w, NULL, '{');
		CLYDE_JW_ARR(w, "device", m->m[i].name);
		clyde_jw_bool(w, "present", d->have_device);
		clyde_jw_u64(w, "read_bytes", d->read_bytes);
		clyde_jw_u64(w, "write_bytes", d->write_bytes);
		clyde_jw_u64(w, "read_ios", d->read_ios);
		clyde_jw_u64(w, "write_ios", d->write_ios);
		clyde_jw_u64(w, "io_ticks_ms", d->io_ticks_ms);
		if (v.wa[i] >= 0.0)
			clyde_jw_num(w, "write_amplification", v.wa[i], 4);
		else
			clyde_jw_null(w, "write_amplification");
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
	clyde_jw_open(w, "members_check", '{');
	clyde_jw_u64(w, "read_bytes", v.read_bytes);
	clyde_jw_u64(w, "write_bytes", v.write_bytes);
	if (v.wa_array >= 0.0)
		clyde_jw_num(w, "write_amplification", v.wa_array, 4);
	else
		clyde_jw_null(w, "write_amplification");
	clyde_jw_bool(w, "read_modify_write", v.rmw);
	clyde_jw_bool(w, "unbalanced", v.busier);
	clyde_jw_bool(w, "slow_member", v.slower);
	clyde_jw_open(w, "findings", '[');
	clyde_members_run_findings(text, sizeof(text), r, id, &v);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		clyde_jw_str(w, NULL, line, strlen(line));
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

double clyde_loop_fraction(const struct clyde_loopcache_seen *l,
			   uint64_t data_bytes)
{
	uint64_t base = data_bytes ? data_bytes : l->range_bytes;

	if (!l->measured || !base)
		return -1.0;
	if (l->resident_bytes >= base)
		return 1.0;
	return (double)l->resident_bytes / (double)base;
}

void clyde_jw_loop(struct clyde_jw *w, const struct clyde_loopcache_seen *l,
		   uint64_t data_bytes)
{
	double f = clyde_loop_fraction(l, data_bytes);

	if (!l->measured) {
		clyde_jw_null(w, "loop_backing");
		return;
	}
	clyde_jw_open(w, "loop_backing", '{');
	CLYDE_JW_ARR(w, "device", l->dev);
	clyde_jw_bool(w, "evicted", l->evicted);
	clyde_jw_u64(w, "resident_before_bytes", l->resident_before);
	clyde_jw_u64(w, "resident_bytes", l->resident_bytes);
	clyde_jw_u64(w, "range_bytes", l->range_bytes);
	clyde_jw_num(w, "residency", f, 6);
	clyde_jw_bool(w, "warning", f >= CLYDE_CACHE_WARN_FRACTION);
	clyde_jw_str(w, "hint", "losetup --direct-io=on", 64);
	clyde_jw_close(w, '}');
}

void clyde_jw_virt(struct clyde_jw *w, const struct clyde_virt *v)
{
	if (!v->is_virtual) {
		clyde_jw_null(w, "virtual_disk");
		return;
	}
	clyde_jw_open(w, "virtual_disk", '{');
	CLYDE_JW_ARR(w, "device", v->disk);
	CLYDE_JW_ARR(w, "kind", v->kind);
	CLYDE_JW_ARR(w, "evidence", v->why);
	clyde_jw_str(w, "note",
		     "the host may cache this disk; -D and repeats after a "
		     "pause tell more",
		     256);
	clyde_jw_close(w, '}');
}
