#include "results/members_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/members_check.h"
#include "results/stack_out.h"
#include "results/testio.h"
#include "results/tree_result.h"

static void u64_or_null(struct clyde_jw *w, const char *key, bool have,
			uint64_t v);

void clyde_jw_members_of(struct clyde_jw *w, const struct clyde_members *m,
			 const struct clyde_members_verdict *v,
			 const char *findings)
{
	char text[2048];
	char *line, *save = NULL;

	clyde_jw_open(w, "members", '[');
	for (unsigned i = 0; i < m->n; i++) {
		const struct clyde_devio *d = &m->m[i].io;

		clyde_jw_open(w, NULL, '{');
		CLYDE_JW_ARR(w, "device", m->m[i].name);
		clyde_jw_str(w, "role", clyde_member_role_name(m->m[i].role),
			     16);
		clyde_jw_bool(w, "top", m->m[i].is_top);
		clyde_jw_str(w, "stored_on",
			     m->m[i].disk[0] ? m->m[i].disk : NULL,
			     sizeof(m->m[i].disk));
		clyde_jw_bool(w, "present", d->have_device);
		clyde_jw_bool(w, "failed", m->m[i].failed);
		clyde_jw_u64(w, "read_bytes", d->read_bytes);
		clyde_jw_u64(w, "write_bytes", d->write_bytes);
		clyde_jw_u64(w, "read_ios", d->read_ios);
		clyde_jw_u64(w, "write_ios", d->write_ios);
		clyde_jw_u64(w, "io_ticks_ms", d->io_ticks_ms);
		if (v->wa[i] >= 0.0)
			clyde_jw_num(w, "write_amplification", v->wa[i], 4);
		else
			clyde_jw_null(w, "write_amplification");
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
	clyde_jw_open(w, "members_check", '{');
	clyde_jw_u64(w, "read_bytes", v->read_bytes);
	clyde_jw_u64(w, "write_bytes", v->write_bytes);
	if (v->wa_array >= 0.0)
		clyde_jw_num(w, "write_amplification", v->wa_array, 4);
	else
		clyde_jw_null(w, "write_amplification");
	clyde_jw_bool(w, "read_modify_write", v->rmw);
	u64_or_null(w, "array_request_bytes", v->array_request_bytes != 0,
		    v->array_request_bytes);
	clyde_jw_bool(w, "unbalanced", v->busier);
	clyde_jw_str(w, "unbalanced_by", v->by_writes ? "writes" : "bytes",
		     v->by_writes ? 6 : 5);
	clyde_jw_bool(w, "mirror_sets_unbalanced", v->sets_busier);
	clyde_jw_bool(w, "slow_member", v->slower);
	clyde_jw_bool(w, "slow_candidate", v->slow_candidate);
	if (v->slow_compared)
		clyde_jw_num(w, "slow_ratio", v->slow_ratio, 3);
	else
		clyde_jw_null(w, "slow_ratio");
	clyde_jw_u64(w, "slow_tests", v->slow_tests);
	clyde_jw_u64(w, "compared_tests", v->compared_tests);
	clyde_jw_open(w, "findings", '[');
	snprintf(text, sizeof(text), "%s", findings);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		clyde_jw_str(w, NULL, line, strlen(line));
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

void clyde_jw_degraded(struct clyde_jw *w, const struct clyde_members *m)
{
	clyde_jw_str(w, "degraded_during", m->degraded[0] ? m->degraded : NULL,
		     sizeof(m->degraded));
}

void clyde_jw_members(struct clyde_jw *w, const struct clyde_run *r,
		      enum clyde_test id)
{
	struct clyde_members_verdict v;
	char text[2048];

	clyde_members_check_run(r, id, &v);
	clyde_members_run_findings(text, sizeof(text), r, id, &v);
	clyde_jw_members_of(w, &r->tests[id].members, &v, text);
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

int clyde_jw_stack_advice(struct clyde_jw *w, const struct clyde_stack *s,
			  unsigned workload)
{
	struct clyde_advice_list *l = malloc(sizeof(*l));

	if (!l)
		return -ENOMEM;
	clyde_advise(s, workload, l);
	clyde_stack_json(w, "stack", s);
	clyde_advice_json(w, "advice", l);
	free(l);
	return 0;
}

static void u64_or_null(struct clyde_jw *w, const char *key, bool have,
			uint64_t v);

static void u64_or_null(struct clyde_jw *w, const char *key, bool have,
			uint64_t v)
{
	if (have)
		clyde_jw_u64(w, key, v);
	else
		clyde_jw_null(w, key);
}

void clyde_jw_io(struct clyde_jw *w, const struct clyde_test_io *io,
		 const struct clyde_ownio *own)
{
	enum clyde_own_source src = own ? own->source : CLYDE_OWN_NONE;

	clyde_jw_open(w, "io", '{');
	clyde_jw_bool(w, "present", io->have);
	clyde_jw_str(w, "scope", io->on_leaves ? "leaves" : "device", 16);
	clyde_jw_u64(w, "devices",
		     io->have ? (io->nleaves ? io->nleaves : 1) : 0);
	clyde_jw_u64(w, "read_bytes", io->read);
	clyde_jw_u64(w, "write_bytes", io->write);
	clyde_jw_u64(w, "total_read_bytes", io->total_read);
	clyde_jw_u64(w, "total_write_bytes", io->total_write);
	clyde_jw_bool(w, "attributed", io->attributed);
	clyde_jw_str(w, "own_source",
		     src == CLYDE_OWN_NONE ? NULL : clyde_own_source_name(src),
		     16);
	clyde_jw_str(w, "cgroup", own && own->cgroup[0] ? own->cgroup : NULL,
		     CLYDE_OWN_CGROUP_LEN);
	u64_or_null(w, "own_read_bytes", io->attributed, io->own_read);
	u64_or_null(w, "own_write_bytes", io->attributed, io->own_write);
	u64_or_null(w, "other_read_bytes", io->attributed, io->other_read);
	u64_or_null(w, "other_write_bytes", io->attributed, io->other_write);
	clyde_jw_bool(w, "other_shown", clyde_test_io_other_shown(io));
	u64_or_null(w, "process_read_bytes",
		    own && src == CLYDE_OWN_TASK && own->have_top,
		    own ? own->top_read_bytes : 0);
	u64_or_null(w, "process_write_bytes",
		    own && src == CLYDE_OWN_TASK && own->have_top,
		    own ? own->top_write_bytes : 0);
	u64_or_null(w, "fs_for_clyde_read_bytes", io->others_known,
		    io->fs_read);
	u64_or_null(w, "fs_for_clyde_write_bytes", io->others_known,
		    io->fs_write);
	u64_or_null(w, "top_read_bytes", io->have_top, io->top_read);
	u64_or_null(w, "top_write_bytes", io->have_top, io->top_write);
	if (io->wa >= 0.0)
		clyde_jw_num(w, "write_amplification", io->wa, 4);
	else
		clyde_jw_null(w, "write_amplification");
	clyde_jw_bool(w, "writes_lost", io->lost);
	clyde_jw_close(w, '}');
}

void clyde_jw_settle(struct clyde_jw *w, const struct clyde_settle *s)
{
	char why[256];

	clyde_jw_open(w, "settle", '{');
	clyde_jw_bool(w, "looked", s->looked);
	clyde_jw_bool(w, "busy", s->busy);
	clyde_jw_bool(w, "busy_before", s->busy_before);
	clyde_jw_bool(w, "busy_during", s->busy_during);
	u64_or_null(w, "others_bytes", s->others_known, s->others_bytes);
	u64_or_null(w, "others_procs", s->others_known, s->others_procs);
	u64_or_null(w, "device_bytes", s->others_known, s->device_bytes);
	clyde_jw_u64(w, "limit_ns", s->limit_ns);
	clyde_jw_u64(w, "waited_ns", s->waited_ns);
	clyde_jw_u64(w, "in_flight", s->in_flight);
	clyde_jw_u64(w, "moved_bytes", s->moved_bytes);
	clyde_jw_u64(w, "discarded_bytes", s->discarded_bytes);
	clyde_jw_u64(w, "discard_ios", s->discard_ios);
	clyde_jw_str(w, "pages_of", s->per_device ? "devices" : "machine", 16);
	clyde_jw_u64(w, "dirty_bytes", s->dirty_bytes);
	clyde_jw_u64(w, "writeback_bytes", s->writeback_bytes);
	clyde_jw_str(w, "busiest", s->busiest[0] ? s->busiest : NULL,
		     sizeof(s->busiest));
	clyde_settle_describe(s, why, sizeof(why));
	clyde_jw_str(w, "still_going_on", why[0] ? why : NULL, sizeof(why));
	clyde_jw_close(w, '}');
}

void clyde_tree_jw_members(struct clyde_jw *w, const struct clyde_tree_run *run,
			   int p)
{
	const struct clyde_tree_phase_result *r = &run->phases[p];
	struct clyde_members_verdict v;
	char text[2048];

	clyde_tree_members_check(run, p, &v, text, sizeof(text));
	clyde_jw_members_of(w, &r->members, &v, text);
}
