/*
 * clyde-mpi's merge of the ranks' traffic (dist/dist_wire.h and the
 * kinds' merge hooks, io/target.h): the aggregate's counts and bytes are
 * the ranks' sums, an operation's milliseconds are summed by name so that
 * its mean is weighted by each rank's requests, an operation only one
 * rank has is kept, the server's side stays rank 0's, and a rank without
 * figures leaves no sum.  Through dist_wire.c, which names no kind, an
 * SMB test's figures (the second kind of the table with a merge) are
 * summed and each rank's kept for its JSON, with "nfs": null beside.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "dist/dist_wire.h"
#include "io/cifs_wire.h"
#include "io/nfs_wire.h"
#include "tap.h"

static bool nfs_merge(struct clyde_nfs_moved *out,
		      const struct clyde_nfs_moved *m, size_t n)
{
	return clyde_target_nfs.figs->merge(out, m, n);
}

static bool cifs_merge(struct clyde_cifs_moved *out,
		       const struct clyde_cifs_moved *m, size_t n)
{
	return clyde_target_cifs.figs->merge(out, m, n);
}

static struct clyde_nfs_op op(const char *name, uint64_t ops, uint64_t sent,
			      uint64_t rtt_ms)
{
	struct clyde_nfs_op o = { .ops = ops,
				  .trans = ops,
				  .bytes_sent = sent,
				  .rtt_ms = rtt_ms,
				  .exec_ms = rtt_ms + ops };

	snprintf(o.name, sizeof(o.name), "%s", name);
	return o;
}

static const struct clyde_nfs_op *find(const struct clyde_nfs_moved *m,
				       const char *name)
{
	for (unsigned i = 0; i < m->nops; i++)
		if (!strcmp(m->op[i].name, name))
			return &m->op[i];
	return NULL;
}

static void nfs_sum(void)
{
	struct clyde_nfs_moved w[3];
	struct clyde_nfs_moved out = { .have_server = true,
				       .server_packets = 77,
				       .server_threads = 8,
				       .have_server_cpu = true,
				       .server_cpu_ns = 30000000 };
	const struct clyde_nfs_op *o;

	memset(w, 0, sizeof(w));
	for (int r = 0; r < 3; r++) {
		struct clyde_nfs_moved *m = &w[r];

		m->measured = true;
		m->rpcs = 10u * (unsigned)(r + 1);
		m->trans =
			m->rpcs + (unsigned)r; /* rank r: r retransmissions */
		m->bytes_sent = 1000u * (unsigned)(r + 1);
		m->bytes_recv = 7;
		m->server_read = 4096;
		/* WRITE: 1 request of 10 ms on rank 0, 3 of 1 ms on rank 1. */
		m->op[m->nops++] =
			op("WRITE", r == 0 ? 1 : 3, 100, r == 0 ? 10 : 3);
		if (r == 2)
			m->op[m->nops++] = op("COMMIT", 5, 50, 5);
		/* Made a rank's server side: must not be summed. */
		m->have_server = true;
		m->server_packets = 1000;
	}
	CHECK(nfs_merge(&out, w, 3));
	CHECK(out.measured);
	CHECK(out.rpcs == 60 && out.trans == 63);
	CHECK(clyde_nfs_retrans(&out) == 3);
	CHECK(out.bytes_sent == 6000 && out.bytes_recv == 21);
	CHECK(out.server_read == 3 * 4096);
	o = find(&out, "WRITE");
	/* 7 requests, 16 ms: the mean 16/7 ms, not the mean of the ranks'
	 * means (10, 1, 1). */
	CHECK(o && o->ops == 7 && o->rtt_ms == 16 && o->bytes_sent == 300);
	o = find(&out, "COMMIT");
	CHECK(o && o->ops == 5);
	CHECK(out.nops == 2 && !strcmp(out.op[0].name, "WRITE"));
	CHECK(out.have_server && out.server_packets == 77 &&
	      out.server_threads == 8);
	CHECK(out.have_server_cpu && out.server_cpu_ns == 30000000);

	/* A rank whose mount was not read: no sum, the server's side
	 * kept. */
	w[1].measured = false;
	CHECK(nfs_merge(&out, w, 3));
	CHECK(!out.measured && out.rpcs == 0 && out.nops == 0);
	CHECK(out.have_server && out.server_packets == 77);
	CHECK(out.have_server_cpu && out.server_cpu_ns == 30000000);
}

static void nfs_many_ops(void)
{
	/* 13 operations over the ranks: the busiest 12 are kept, by the
	 * sum over the ranks. */
	static struct clyde_nfs_moved w[2];
	struct clyde_nfs_moved out = { 0 };
	char name[32];

	memset(w, 0, sizeof(w));
	for (int r = 0; r < 2; r++) {
		w[r].measured = true;
		for (unsigned i = 0; i < 12; i++) {
			snprintf(name, sizeof(name), "OP%u", i + (unsigned)r);
			w[r].op[w[r].nops++] =
				op(name, 100 - i - (unsigned)r, 0, 0);
		}
	}
	CHECK(nfs_merge(&out, w, 2));
	CHECK(out.nops == 12);
	/* OP1..OP11 are on both ranks; OP0 (100) beats OP12 (87). */
	CHECK(find(&out, "OP0") && !find(&out, "OP12"));
	CHECK(find(&out, "OP5") && find(&out, "OP5")->ops == 95 + 95);
}

static void cifs_sum(void)
{
	struct clyde_cifs_moved w[2];
	struct clyde_cifs_moved out;

	memset(w, 0, sizeof(w));
	for (int r = 0; r < 2; r++) {
		struct clyde_cifs_wire *c = &w[r].wire;

		w[r].measured = true;
		w[r].server_evicted = 1;
		c->smbs = 10;
		c->bytes_written = 1u << 20;
		snprintf(c->op[0].name, sizeof(c->op[0].name), "Writes");
		c->op[0].total = 4;
		snprintf(c->op[1].name, sizeof(c->op[1].name), "%s",
			 r ? "Flushes" : "Creates");
		c->op[1].total = 1;
		c->nops = 2;
	}
	CHECK(cifs_merge(&out, w, 2));
	CHECK(out.measured && out.wire.smbs == 20 &&
	      out.wire.bytes_written == 2u << 20 && out.server_evicted == 2);
	CHECK(out.wire.nops == 3 && out.wire.op[0].total == 8);
	w[0].measured = false;
	CHECK(cifs_merge(&out, w, 2));
	CHECK(!out.measured && out.wire.smbs == 0);
	/* No rank measured any: nothing merged, out as it was. */
	w[1].measured = false;
	out.wire.smbs = 5;
	CHECK(!cifs_merge(&out, w, 2));
	CHECK(out.wire.smbs == 5);
}

/* Every rank "sends" what this process passes. */
static int fake_gather(struct clyde_comm *c, const void *mine, size_t len,
		       void *all)
{
	for (int r = 0; all && r < c->size; r++)
		memcpy((char *)all + (size_t)r * len, mine, len);
	return 0;
}

static const struct clyde_comm_ops fake_ops = { .gather = fake_gather };

/* Run the JSON of one rank's figures into a string. */
static char *rank_json(const struct clyde_dist_figs *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct clyde_jw w = { .f = m };

	clyde_jw_open(&w, NULL, '{');
	clyde_dist_figs_json(&w, f);
	clyde_jw_close(&w, '}');
	fclose(m);
	return text;
}

static void smb_through_table(void)
{
	struct clyde_comm c = { .ops = &fake_ops, .rank = 0, .size = 3 };
	struct clyde_test_result t;
	struct clyde_dist_share shares[3];
	struct clyde_cifs_moved *m;
	const struct clyde_cifs_moved *sum;
	unsigned char *all = NULL;
	size_t stride = 0;
	char *j;

	memset(&t, 0, sizeof(t));
	memset(shares, 0, sizeof(shares));
	m = clyde_test_figs_alloc(&t, &clyde_target_cifs);
	CHECK(m != NULL);
	if (!m)
		return;
	m->measured = true;
	m->wire.smbs = 7;
	m->wire.bytes_written = 4096;
	CHECK(clyde_dist_figs_gather(&c, &t, &all, &stride) == 0);
	CHECK(all != NULL && stride >= sizeof(*m));
	if (!all)
		return;
	/* Rank 0's own figures are replaced by the sum over the ranks. */
	m->wire.smbs = 1000;
	clyde_dist_figs_fold(&t, all, stride, 3, shares);
	sum = clyde_test_figs(&t, &clyde_target_cifs);
	CHECK(sum && sum->measured && sum->wire.smbs == 21 &&
	      sum->wire.bytes_written == 3 * 4096);
	for (int r = 0; r < 3; r++)
		CHECK(shares[r].figs.kept &&
		      shares[r].figs.kind == &clyde_target_cifs &&
		      ((const struct clyde_cifs_moved *)shares[r].figs.data)
				      ->wire.smbs == 7);
	j = rank_json(&shares[1].figs);
	CHECK(j && strstr(j, "\"nfs\": null") && strstr(j, "\"smb\": {") &&
	      strstr(j, "\"requests\": 7"));
	free(j);
	for (int r = 0; r < 3; r++)
		clyde_dist_figs_free(&shares[r].figs);
	free(all);

	/* Nothing measured anywhere: the test keeps rank 0's, no share. */
	m = clyde_test_figs_alloc(&t, &clyde_target_cifs);
	if (m)
		m->wire.smbs = 3;
	all = NULL;
	CHECK(clyde_dist_figs_gather(&c, &t, &all, &stride) == 0);
	if (all)
		clyde_dist_figs_fold(&t, all, stride, 3, shares);
	sum = clyde_test_figs(&t, &clyde_target_cifs);
	CHECK(sum && !sum->measured && sum->wire.smbs == 3);
	CHECK(!shares[0].figs.kept);
	j = rank_json(&shares[0].figs);
	CHECK(j && !strstr(j, "smb"));
	free(j);
	free(all);
	clyde_test_figs_free(&t);
}

int main(void)
{
	nfs_sum();
	nfs_many_ops();
	cifs_sum();
	smb_through_table();
	return tap_done();
}
