#include "results/members_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "results/format.h"
#include "results/tree_result.h"

bool clyde_test_only_writes(enum clyde_test id)
{
	return id == CLYDE_PUTC || id == CLYDE_PUT_BLOCK ||
	       id == CLYDE_SEQ_CREATE || id == CLYDE_RAN_CREATE;
}

static uint64_t moved(const struct clyde_devio *d)
{
	return d->read_bytes + d->write_bytes;
}

static bool same_disk(const struct clyde_member_io *a,
		      const struct clyde_member_io *b);

static void balance(const struct clyde_members *m,
		    struct clyde_members_verdict *v)
{
	bool first = true;
	double hi = 0.0, lo = 0.0;

	/* Bytes: the busiest member against the least busy one.  A journal
	 * or log device carries only the journal, and a failed member of a
	 * degraded array nothing: never compared. */
	for (unsigned i = 0; i < m->n; i++) {
		if (!m->m[i].io.have_device ||
		    m->m[i].role != CLYDE_ROLE_DATA || m->m[i].failed)
			continue;
		if (first || moved(&m->m[i].io) > moved(&m->m[v->busy].io))
			v->busy = i;
		if (first || moved(&m->m[i].io) < moved(&m->m[v->idle].io))
			v->idle = i;
		first = false;
	}
	if (!first && v->counted_data > 1 &&
	    moved(&m->m[v->busy].io) >= CLYDE_IMBALANCE_MIN_BYTES) {
		uint64_t a = moved(&m->m[v->busy].io),
			 b = moved(&m->m[v->idle].io);

		v->busy_ratio = b ? (double)a / (double)b : 0.0;
		v->busier = !b || v->busy_ratio >= CLYDE_IMBALANCE_RATIO;
	}
	/* Time per byte, among members that moved enough to compare. */
	first = true;
	for (unsigned i = 0; i < m->n; i++) {
		const struct clyde_devio *d = &m->m[i].io;
		double per;

		if (!d->have_device || m->m[i].role != CLYDE_ROLE_DATA ||
		    m->m[i].failed || moved(d) < CLYDE_IMBALANCE_MIN_BYTES)
			continue;
		per = (double)d->io_ticks_ms / (double)moved(d);
		if (first || per > hi) {
			hi = per;
			v->slow = i;
		}
		if (first || per < lo) {
			lo = per;
			v->fast = i;
		}
		first = false;
	}
	/* Members stored on one disk (loop devices over files of one
	 * filesystem, partitions of one disk) share its queue: their busy
	 * times are the disk's, not theirs, and compare nothing. */
	if (!first && v->slow != v->fast && lo > 0.0 &&
	    !same_disk(&m->m[v->slow], &m->m[v->fast])) {
		v->slow_compared = true;
		v->slow_ratio = hi / lo;
		v->slow_candidate = m->m[v->slow].io.io_ticks_ms >=
					    CLYDE_IMBALANCE_MIN_MS &&
				    v->slow_ratio >= CLYDE_IMBALANCE_RATIO;
	}
}

/* Do two members share the disk that stores them (or is it unknown)? */
static bool same_disk(const struct clyde_member_io *a,
		      const struct clyde_member_io *b)
{
	return !a->disk[0] || !b->disk[0] || !strcmp(a->disk, b->disk);
}

void clyde_members_check(const struct clyde_members *m, bool only_writes,
			 uint64_t written, struct clyde_members_verdict *v)
{
	uint64_t base;

	memset(v, 0, sizeof(*v));
	v->wa_array = -1.0;
	v->written = written;
	for (unsigned i = 0; i < m->n; i++) {
		const struct clyde_devio *d = &m->m[i].io;

		v->wa[i] = -1.0;
		if (!d->have_device)
			continue;
		v->counted++;
		v->counted_data += m->m[i].role == CLYDE_ROLE_DATA &&
				   !m->m[i].failed;
		v->read_bytes += d->read_bytes;
		v->write_bytes += d->write_bytes;
		if (written)
			v->wa[i] = (double)d->write_bytes / (double)written;
	}
	if (!v->counted)
		return;
	if (written)
		v->wa_array = (double)v->write_bytes / (double)written;
	base = written ? written : v->write_bytes;
	v->rmw = only_writes && v->read_bytes >= CLYDE_RMW_MIN_BYTES &&
		 (double)v->read_bytes > CLYDE_RMW_FRACTION * (double)base;
	balance(m, v);
}

/* Append one line to buf (cut, never overflowing). */
__attribute__((format(printf, 3, 4))) static void add(char *buf, size_t n,
						      const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
	len = strlen(buf);
	if (len + 1 < n) {
		buf[len] = '\n';
		buf[len + 1] = '\0';
	}
}

unsigned clyde_members_findings(char *buf, size_t n, const char *label,
				const struct clyde_members *m,
				const struct clyde_members_verdict *v,
				const struct clyde_stack_stripe *g,
				uint32_t chunk)
{
	char a[CLYDE_FMT_LEN], b[CLYDE_FMT_LEN], c[CLYDE_FMT_LEN];
	char why[320];
	unsigned k = 0;

	if (n)
		buf[0] = '\0';
	if (v->rmw) {
		clyde_fmt_human_bytes(a, sizeof(a), (double)v->read_bytes);
		if (g && g->chunk_bytes && g->data_disks) {
			/* e.g. "stripe = 64 KiB x 3 data disks = 192 KiB" */
			clyde_stack_fmt_bytes(b, sizeof(b), g->chunk_bytes);
			clyde_stack_fmt_bytes(c, sizeof(c),
					      g->chunk_bytes * g->data_disks);
			snprintf(why, sizeof(why),
				 "partial-stripe writes (stripe = %s x %u "
				 "data disks = %s",
				 b, g->data_disks, c);
		} else {
			snprintf(why, sizeof(why),
				 "read-modify-write (stripe unknown");
		}
		if (chunk) {
			clyde_stack_fmt_bytes(b, sizeof(b), chunk);
			add(buf, n,
			    "%s read %s from the members: %s; this "
			    "test writes %s chunks)",
			    label, a, why, b);
		} else {
			add(buf, n, "%s read %s from the members: %s)", label,
			    a, why);
		}
		k++;
	}
	if (v->busier) {
		clyde_fmt_human_bytes(a, sizeof(a),
				      (double)moved(&m->m[v->busy].io));
		clyde_fmt_human_bytes(b, sizeof(b),
				      (double)moved(&m->m[v->idle].io));
		add(buf, n, "%s: members unbalanced: %s moved %s, %s only %s",
		    label, m->m[v->busy].name, a, m->m[v->idle].name, b);
		k++;
	}
	if (v->slower) {
		add(buf, n,
		    "%s: %s was busy %.1f times longer per byte than %s "
		    "(slow in %u of %u tests that compared them: a slow or "
		    "failing disk?)",
		    label, m->m[v->slow].name, v->slow_ratio,
		    m->m[v->fast].name, v->slow_tests, v->compared_tests);
		k++;
	}
	return k;
}

void clyde_members_confirm_slow(struct clyde_members_verdict *v,
				unsigned slow_tests, unsigned compared)
{
	v->slow_tests = slow_tests;
	v->compared_tests = compared;
	v->slower = v->slow_candidate && slow_tests >= CLYDE_SLOW_MIN_TESTS &&
		    2 * slow_tests > compared;
}

/* Over the verdicts of a run's tests (or a tree run's phases): how many
 * could compare the members, and how many had `name` as the slow one. */
static void slow_evidence(const struct clyde_members *m,
			  const struct clyde_members_verdict *v,
			  const char *name, unsigned *slow, unsigned *compared)
{
	if (!v->slow_compared)
		return;
	(*compared)++;
	if (v->slow_candidate && !strcmp(m->m[v->slow].name, name))
		(*slow)++;
}

bool clyde_members_parity_possible(const struct clyde_stack *s)
{
	struct clyde_stack_stripe st;

	if (!s->nnodes)
		return true;
	return clyde_stack_stripe(s, &st) == 0 && st.parity;
}

static bool writes_data(enum clyde_test id)
{
	return clyde_test_only_writes(id) || id == CLYDE_REWRITE;
}

static void check_one(const struct clyde_run *r, enum clyde_test id,
		      struct clyde_members_verdict *v)
{
	const struct clyde_test_result *t = &r->tests[id];

	clyde_members_check(
		&t->members,
		clyde_test_only_writes(id) &&
			clyde_members_parity_possible(&r->env.stack),
		writes_data(id) ? t->bytes : 0, v);
}

void clyde_members_check_run(const struct clyde_run *r, enum clyde_test id,
			     struct clyde_members_verdict *v)
{
	unsigned slow = 0, compared = 0;

	check_one(r, id, v);
	if (!v->slow_candidate)
		return;
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		struct clyde_members_verdict o;

		if (r->tests[i].state != CLYDE_DONE)
			continue;
		check_one(r, (enum clyde_test)i, &o);
		slow_evidence(&r->tests[i].members, &o,
			      r->tests[id].members.m[v->slow].name, &slow,
			      &compared);
	}
	clyde_members_confirm_slow(v, slow, compared);
}

unsigned clyde_members_run_findings(char *buf, size_t n,
				    const struct clyde_run *r,
				    enum clyde_test id,
				    const struct clyde_members_verdict *v)
{
	struct clyde_stack_stripe st;
	uint32_t chunk = 0;

	if (id == CLYDE_PUT_BLOCK || id == CLYDE_REWRITE)
		chunk = r->params.io_chunk;
	else if (id == CLYDE_SEQ_CREATE || id == CLYDE_RAN_CREATE)
		chunk = r->params.file_chunk;
	return clyde_members_findings(
		buf, n, clyde_test_label(id), &r->tests[id].members, v,
		clyde_stack_stripe(&r->env.stack, &st) ? NULL : &st, chunk);
}

static void tree_check_one(const struct clyde_tree_run *run, int p,
			   struct clyde_members_verdict *v)
{
	const struct clyde_tree_phase_result *r = &run->phases[p];
	bool extract = p == CLYDE_TREE_EXTRACT;

	clyde_members_check(
		&r->members,
		extract && clyde_members_parity_possible(&run->env.stack),
		extract ? r->bytes : 0, v);
}

void clyde_tree_members_check(const struct clyde_tree_run *run, int p,
			      struct clyde_members_verdict *v, char *text,
			      size_t n)
{
	const struct clyde_tree_phase_result *r = &run->phases[p];
	struct clyde_stack_stripe st;
	unsigned slow = 0, compared = 0;

	tree_check_one(run, p, v);
	for (int q = 0; v->slow_candidate && q < CLYDE_TREE_PHASE_COUNT; q++) {
		struct clyde_members_verdict o;

		if (!run->phases[q].ran)
			continue;
		tree_check_one(run, q, &o);
		slow_evidence(&run->phases[q].members, &o,
			      r->members.m[v->slow].name, &slow, &compared);
	}
	if (v->slow_candidate)
		clyde_members_confirm_slow(v, slow, compared);
	clyde_members_findings(
		text, n, clyde_tree_phase_name((enum clyde_tree_phase)p),
		&r->members, v,
		clyde_stack_stripe(&run->env.stack, &st) ? NULL : &st,
		p == CLYDE_TREE_EXTRACT ? (uint32_t)run->cfg.io_size : 0);
}
