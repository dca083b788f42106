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

/* What a member is compared by: its writes on a mirror, else all. */
static uint64_t weight(const struct clyde_member_io *x, bool by_writes)
{
	return by_writes ? x->io.write_bytes : moved(&x->io);
}

static bool compared(const struct clyde_member_io *x)
{
	return x->io.have_device && x->role == CLYDE_ROLE_DATA && !x->failed;
}

/* The mirror sets by the sum of their members' bytes. */
static void balance_sets(const struct clyde_members *m,
			 const struct clyde_members_ctx *c,
			 struct clyde_members_verdict *v)
{
	uint64_t sum[CLYDE_MAX_MEMBERS] = { 0 };
	bool seen[CLYDE_MAX_MEMBERS] = { false };
	int busy = -1, idle = -1;

	for (unsigned i = 0; i < m->n; i++) {
		int k = c->set[i];

		if (k < 0 || k >= CLYDE_MAX_MEMBERS || !compared(&m->m[i]))
			continue;
		sum[k] += moved(&m->m[i].io);
		seen[k] = true;
	}
	for (int k = 0; k < CLYDE_MAX_MEMBERS; k++) {
		if (!seen[k])
			continue;
		if (busy < 0 || sum[k] > sum[busy])
			busy = k;
		if (idle < 0 || sum[k] < sum[idle])
			idle = k;
	}
	if (busy < 0 || busy == idle || sum[busy] < CLYDE_IMBALANCE_MIN_BYTES)
		return;
	v->busy_set = busy;
	v->idle_set = idle;
	v->busy_set_bytes = sum[busy];
	v->idle_set_bytes = sum[idle];
	v->sets_busier = !sum[idle] || (double)sum[busy] / (double)sum[idle] >=
					       CLYDE_IMBALANCE_RATIO;
}

static void balance(const struct clyde_members *m,
		    const struct clyde_members_ctx *c,
		    struct clyde_members_verdict *v)
{
	bool first = true, w = c && c->mirror;
	double hi = 0.0, lo = 0.0;

	/* Bytes: the busiest member against the least busy one.  A journal
	 * or log device carries only the journal, and a failed member of a
	 * degraded array nothing: never compared. */
	v->by_writes = w;
	for (unsigned i = 0; i < m->n; i++) {
		if (!compared(&m->m[i]))
			continue;
		if (first || weight(&m->m[i], w) > weight(&m->m[v->busy], w))
			v->busy = i;
		if (first || weight(&m->m[i], w) < weight(&m->m[v->idle], w))
			v->idle = i;
		first = false;
	}
	if (!first && v->counted_data > 1 &&
	    weight(&m->m[v->busy], w) >= CLYDE_IMBALANCE_MIN_BYTES) {
		uint64_t a = weight(&m->m[v->busy], w),
			 b = weight(&m->m[v->idle], w);

		v->busy_ratio = b ? (double)a / (double)b : 0.0;
		v->busier = !b || v->busy_ratio >= CLYDE_IMBALANCE_RATIO;
	}
	if (w)
		balance_sets(m, c, v);
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

void clyde_members_check_in(const struct clyde_members *m,
			    const struct clyde_members_ctx *c,
			    struct clyde_members_verdict *v)
{
	uint64_t base;
	double share, limit = CLYDE_RMW_FRACTION;

	memset(v, 0, sizeof(*v));
	v->wa_array = -1.0;
	v->written = c->written;
	v->busy_set = v->idle_set = -1;
	memcpy(v->set, c->set, sizeof(v->set));
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
		if (c->written)
			v->wa[i] = (double)d->write_bytes / (double)c->written;
	}
	if (!v->counted)
		return;
	if (c->written)
		v->wa_array = (double)v->write_bytes / (double)c->written;
	base = c->written ? c->written : v->write_bytes;
	v->stripe_bytes = c->stripe_bytes;
	if (c->top && c->top->have_device && c->top->write_ios)
		v->array_request_bytes =
			c->top->write_bytes / c->top->write_ios;
	/* Full-stripe requests (a streaming write): what the members read
	 * is stripes the cache let go, a finding only when it matters. */
	if (v->array_request_bytes && v->stripe_bytes &&
	    v->array_request_bytes >= v->stripe_bytes)
		limit = CLYDE_RMW_STREAM_FRACTION;
	share = base ? (double)v->read_bytes / (double)base : 1.0;
	v->rmw = c->only_writes && v->read_bytes >= CLYDE_RMW_MIN_BYTES &&
		 share > limit;
	balance(m, c, v);
}

void clyde_members_check(const struct clyde_members *m, bool only_writes,
			 uint64_t written, struct clyde_members_verdict *v)
{
	struct clyde_members_ctx c = { .only_writes = only_writes,
				       .written = written };

	for (unsigned i = 0; i < CLYDE_MAX_MEMBERS; i++)
		c.set[i] = -1;
	clyde_members_check_in(m, &c, v);
}

/* The md mirror (raid1, raid10) whose members m's are, and each member's
 * set: raid1 one set; raid10 near=k with k dividing the disks, slots
 * 0..k-1, k..2k-1, ... (md.rst); far and offset copies, and near copies
 * over a count they do not divide, go round the disks: no fixed sets. */
static void mirror_sets(const struct clyde_stack *s,
			const struct clyde_members *m,
			struct clyde_members_ctx *c)
{
	for (uint32_t a = 0; a < s->nnodes; a++) {
		const struct clyde_stack_node *md = &s->nodes[a];
		uint32_t near = md->md_layout & 0xff,
			 far = (md->md_layout >> 8) & 0xff;
		bool r1 = !strcmp(md->md_level, "raid1"), fixed;

		if (md->kind != &clyde_stack_md ||
		    (!r1 && strcmp(md->md_level, "raid10")))
			continue;
		fixed = r1 || (near > 1 && far == 1 && md->raid_disks &&
			       md->raid_disks % near == 0);
		for (uint32_t k = 0; k < md->nchildren; k++) {
			const struct clyde_stack_node *ch =
				&s->nodes[md->children[k]];

			for (unsigned i = 0; i < m->n; i++) {
				if (strcmp(m->m[i].name, ch->name))
					continue;
				c->mirror = true;
				if (fixed && ch->md_slot >= 0)
					c->set[i] =
						r1 ? 0 :
						     ch->md_slot / (int)near;
			}
		}
		if (c->mirror)
			return;
	}
}

void clyde_members_ctx_of(const struct clyde_stack *s,
			  const struct clyde_members *m,
			  const struct clyde_devio *top, bool only_writes,
			  uint64_t written, struct clyde_members_ctx *c)
{
	struct clyde_stack_stripe st;

	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < CLYDE_MAX_MEMBERS; i++)
		c->set[i] = -1;
	c->only_writes = only_writes;
	c->written = written;
	c->top = top;
	if (!s || !s->nnodes)
		return;
	if (clyde_stack_stripe(s, &st) == 0 && st.parity)
		c->stripe_bytes = st.stripe_bytes;
	mirror_sets(s, m, c);
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

/* The partial-stripe sentence: how much the members read, what that is
 * beside what they wrote (its cost), the stripe, the chunk the test
 * writes and the requests the array received. */
static void rmw_sentence(char *buf, size_t n, const char *label,
			 const struct clyde_members_verdict *v,
			 const struct clyde_stack_stripe *g, uint32_t chunk)
{
	char a[CLYDE_FMT_LEN], b[CLYDE_FMT_LEN], c[CLYDE_FMT_LEN];
	char why[320], what[400] = "", cost[400] = "";

	clyde_fmt_human_bytes(a, sizeof(a), (double)v->read_bytes);
	if (g && g->chunk_bytes && g->data_disks) {
		/* e.g. "stripe = 64 KiB x 3 data disks = 192 KiB" */
		clyde_stack_fmt_bytes(b, sizeof(b), g->chunk_bytes);
		clyde_stack_fmt_bytes(c, sizeof(c),
				      g->chunk_bytes * g->data_disks);
		snprintf(why, sizeof(why),
			 "partial-stripe writes (stripe = %s x %u data disks "
			 "= %s",
			 b, g->data_disks, c);
	} else {
		snprintf(why, sizeof(why), "read-modify-write (stripe unknown");
	}
	if (chunk) {
		clyde_stack_fmt_bytes(b, sizeof(b), chunk);
		snprintf(what, sizeof(what), "; this test writes %s chunks", b);
	}
	if (v->array_request_bytes) {
		size_t l = strlen(what);

		clyde_fmt_human_bytes(b, sizeof(b),
				      (double)v->array_request_bytes);
		snprintf(what + l, sizeof(what) - l,
			 "%sthe array received %s requests on average",
			 chunk ? ", " : "; ", b);
	}
	if (v->write_bytes) {
		clyde_fmt_human_bytes(b, sizeof(b), (double)v->write_bytes);
		snprintf(cost, sizeof(cost),
			 "; it costs the members %.1f%% more I/O than the %s "
			 "they wrote",
			 100.0 * (double)v->read_bytes / (double)v->write_bytes,
			 b);
	}
	add(buf, n, "%s read %s from the members: %s%s)%s", label, a, why, what,
	    cost);
}

/* The members of mirror set k: "vda+vdb". */
static void set_names(char *out, size_t len, const struct clyde_members *m,
		      const struct clyde_members_verdict *v, int k)
{
	out[0] = '\0';
	for (unsigned i = 0; i < m->n; i++) {
		size_t l = strlen(out);

		if (v->set[i] != k || l + 1 >= len)
			continue;
		snprintf(out + l, len - l, "%s%s", l ? "+" : "", m->m[i].name);
	}
}

unsigned clyde_members_findings(char *buf, size_t n, const char *label,
				const struct clyde_members *m,
				const struct clyde_members_verdict *v,
				const struct clyde_stack_stripe *g,
				uint32_t chunk)
{
	char a[CLYDE_FMT_LEN], b[CLYDE_FMT_LEN];
	unsigned k = 0;

	if (n)
		buf[0] = '\0';
	if (v->rmw) {
		rmw_sentence(buf, n, label, v, g, chunk);
		k++;
	}
	if (v->busier) {
		const char *verb = v->by_writes ? "wrote" : "moved";
		uint64_t hi = v->by_writes ? m->m[v->busy].io.write_bytes :
					     moved(&m->m[v->busy].io),
			 lo = v->by_writes ? m->m[v->idle].io.write_bytes :
					     moved(&m->m[v->idle].io);

		clyde_fmt_human_bytes(a, sizeof(a), (double)hi);
		clyde_fmt_human_bytes(b, sizeof(b), (double)lo);
		add(buf, n, "%s: members unbalanced: %s %s %s, %s only %s",
		    label, m->m[v->busy].name, verb, a, m->m[v->idle].name, b);
		k++;
	}
	if (v->sets_busier) {
		char hi[CLYDE_FMT_LEN * 2], lo[CLYDE_FMT_LEN * 2];

		set_names(hi, sizeof(hi), m, v, v->busy_set);
		set_names(lo, sizeof(lo), m, v, v->idle_set);
		clyde_fmt_human_bytes(a, sizeof(a), (double)v->busy_set_bytes);
		clyde_fmt_human_bytes(b, sizeof(b), (double)v->idle_set_bytes);
		add(buf, n,
		    "%s: mirror sets unbalanced: %s moved %s, %s only %s",
		    label, hi, a, lo, b);
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
	if (name && v->slow_candidate && !strcmp(m->m[v->slow].name, name))
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

	struct clyde_members_ctx c;

	clyde_members_ctx_of(
		&r->env.stack, &t->members, &t->dev,
		clyde_test_only_writes(id) &&
			clyde_members_parity_possible(&r->env.stack),
		writes_data(id) ? t->bytes : 0, &c);
	clyde_members_check_in(&t->members, &c, v);
}

void clyde_members_check_run(const struct clyde_run *r, enum clyde_test id,
			     struct clyde_members_verdict *v)
{
	unsigned slow = 0, compared = 0;

	check_one(r, id, v);
	/* Counted even without a slow candidate: compared_tests says how
	 * many tests compared the members, whatever they found. */
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		struct clyde_members_verdict o;

		if (r->tests[i].state != CLYDE_DONE)
			continue;
		check_one(r, (enum clyde_test)i, &o);
		slow_evidence(&r->tests[i].members, &o,
			      v->slow_candidate ?
				      r->tests[id].members.m[v->slow].name :
				      NULL,
			      &slow, &compared);
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

	struct clyde_members_ctx c;

	clyde_members_ctx_of(
		&run->env.stack, &r->members, &r->dev,
		extract && clyde_members_parity_possible(&run->env.stack),
		extract ? r->bytes : 0, &c);
	clyde_members_check_in(&r->members, &c, v);
}

void clyde_tree_members_check(const struct clyde_tree_run *run, int p,
			      struct clyde_members_verdict *v, char *text,
			      size_t n)
{
	const struct clyde_tree_phase_result *r = &run->phases[p];
	struct clyde_stack_stripe st;
	unsigned slow = 0, compared = 0;

	tree_check_one(run, p, v);
	for (int q = 0; q < CLYDE_TREE_PHASE_COUNT; q++) {
		struct clyde_members_verdict o;

		if (!run->phases[q].ran)
			continue;
		tree_check_one(run, q, &o);
		slow_evidence(&run->phases[q].members, &o,
			      v->slow_candidate ? r->members.m[v->slow].name :
						  NULL,
			      &slow, &compared);
	}
	clyde_members_confirm_slow(v, slow, compared);
	clyde_members_findings(
		text, n, clyde_tree_phase_name((enum clyde_tree_phase)p),
		&r->members, v,
		clyde_stack_stripe(&run->env.stack, &st) ? NULL : &st,
		p == CLYDE_TREE_EXTRACT ? (uint32_t)run->cfg.io_size : 0);
}
