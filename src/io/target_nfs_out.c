/*
 * An NFS mount's figures of a test in the outputs (issue 34), the NFS
 * kind's struct clyde_target_figs (target_nfs.c): what went over the wire
 * (nfs_wire.h), the server's disks beside it when the server is this
 * machine, the write amplification over the wire and on those disks,
 * what was done about the client's and the server's caches, and the
 * mount or export settings that inflate the test's figure (an async
 * export for the tests that write, nocto or a long attribute cache for
 * those that read or stat): JSON "nfs" of each test (null off NFS) and a
 * text section after clyde's own.  Under clyde-mpi, the ranks' traffic
 * merged into the aggregate and kept per rank (docs/nfs.md, "Many
 * clients"), and rank 0's late reading of the server's side.
 */
#include <stdlib.h>
#include <string.h>

#include "core/human.h"
#include "io/target.h"

/* Room for a clyde_fmt_human_bytes figure. */
#define HUMAN_LEN 32

static bool nfs_stack(const struct clyde_stack *s)
{
	return s->has_fs &&
	       (!strcmp(s->fs.type, "nfs") || !strcmp(s->fs.type, "nfs4"));
}

/* An attribute cache longer than the kernel's defaults (acregmin 3,
 * acregmax 60, acdirmin 30, acdirmax 60 seconds). */
static bool long_actimeo(const struct clyde_stack_fs *fs)
{
	return fs->nfs_acregmin > 3 || fs->nfs_acregmax > 60 ||
	       fs->nfs_acdirmin > 30 || fs->nfs_acdirmax > 60;
}

static void add(char *buf, size_t len, const char *what)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", what);
}

char *clyde_nfs_inflated(const struct clyde_stack *s, unsigned does, char *buf,
			 size_t len)
{
	const struct clyde_stack_fs *fs = &s->fs;

	buf[0] = '\0';
	if (!nfs_stack(s))
		return buf;
	if ((does & CLYDE_FIGS_WRITES) && !strcmp(fs->nfs_export_sync, "async"))
		add(buf, len, "async export");
	if ((does & CLYDE_FIGS_READS) && !strcmp(fs->nfs_cto, "nocto"))
		add(buf, len, "nocto");
	if ((does & CLYDE_FIGS_STATS) && long_actimeo(fs))
		add(buf, len, "long actimeo");
	return buf;
}

static double mean(uint64_t ms, uint64_t n)
{
	return n ? (double)ms / (double)n : 0.0;
}

/* Bytes over the bytes the test moved; < 0 when not applicable. */
static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : -1.0;
}

static void jw_ratio(struct clyde_jw *w, const char *key, double v)
{
	if (v < 0.0)
		clyde_jw_null(w, key);
	else
		clyde_jw_num(w, key, v, 3);
}

static const char *client_cache(const struct clyde_stack *s,
				const struct clyde_figs_test *t)
{
	bool nocto = !strcmp(s->fs.nfs_cto, "nocto");

	if (!t->evicted)
		return nocto ? "not evicted; nocto: files opened again are "
			       "not revalidated with the server" :
			       "not evicted; close-to-open: each open asks "
			       "the server for the file's attributes, the "
			       "data cache is kept when they have not changed";
	return nocto ? "evicted (fsync: WRITE and COMMIT; fadvise DONTNEED); "
		       "nocto: opens are not revalidated" :
		       "evicted (fsync: WRITE and COMMIT; fadvise DONTNEED), "
		       "so close-to-open's revalidation has nothing to keep";
}

static double server_fraction(const struct clyde_server_cache *sc)
{
	if (sc->state != CLYDE_SERVER_CACHE_DROPPED &&
	    sc->state != CLYDE_SERVER_CACHE_MEASURED)
		return -1.0;
	if (!sc->total_bytes)
		return 0.0;
	return (double)sc->resident_bytes / (double)sc->total_bytes;
}

static void jw_server_cache(struct clyde_jw *w,
			    const struct clyde_server_cache *sc)
{
	double f = server_fraction(sc);

	if (sc->state == CLYDE_SERVER_CACHE_NONE) {
		clyde_jw_null(w, "server_cache");
		return;
	}
	clyde_jw_open(w, "server_cache", '{');
	clyde_jw_str(w, "state", clyde_server_cache_name(sc->state), 32);
	if (sc->state == CLYDE_SERVER_CACHE_NOT_CONTROLLED) {
		clyde_jw_str(w, "note", "server cache not controlled", 64);
		CLYDE_JW_ARR(w, "why", sc->why);
		clyde_jw_str(w, "hint",
			     "read what another client wrote: clyde-mpi "
			     "--read-shift (IOR -C); docs/nfs.md",
			     128);
	} else {
		clyde_jw_str(w, "how",
			     sc->state == CLYDE_SERVER_CACHE_DROPPED ?
				     "fdatasync and fadvise DONTNEED of the "
				     "server-side files" :
				     "measured (mincore), not dropped",
			     128);
		clyde_jw_u64(w, "files", sc->files);
		clyde_jw_u64(w, "resident_before_bytes", sc->resident_before);
		clyde_jw_u64(w, "resident_bytes", sc->resident_bytes);
		clyde_jw_u64(w, "total_bytes", sc->total_bytes);
		clyde_jw_num(w, "residency", f, 6);
		clyde_jw_bool(w, "warning", f >= CLYDE_CACHE_WARN_FRACTION);
	}
	clyde_jw_close(w, '}');
}

/* The wire counters of m (rpcs .. bytes_received), as every "nfs"
 * object has them: the test's and each rank's. */
static void jw_counts(struct clyde_jw *w, const struct clyde_nfs_moved *m)
{
	clyde_jw_u64(w, "rpcs", m->rpcs);
	clyde_jw_u64(w, "transmissions", m->trans);
	clyde_jw_u64(w, "retransmissions", clyde_nfs_retrans(m));
	clyde_jw_u64(w, "timeouts", m->timeouts);
	clyde_jw_u64(w, "bytes_sent", m->bytes_sent);
	clyde_jw_u64(w, "bytes_received", m->bytes_recv);
}

/* Its busiest operations ("ops"). */
static void jw_ops(struct clyde_jw *w, const struct clyde_nfs_moved *m)
{
	clyde_jw_open(w, "ops", '[');
	for (unsigned i = 0; i < m->nops; i++) {
		const struct clyde_nfs_op *o = &m->op[i];

		clyde_jw_open(w, NULL, '{');
		CLYDE_JW_ARR(w, "name", o->name);
		clyde_jw_u64(w, "ops", o->ops);
		clyde_jw_u64(w, "transmissions", o->trans);
		clyde_jw_u64(w, "timeouts", o->timeouts);
		clyde_jw_u64(w, "bytes_sent", o->bytes_sent);
		clyde_jw_u64(w, "bytes_received", o->bytes_recv);
		clyde_jw_num(w, "queue_ms_mean", mean(o->queue_ms, o->ops), 3);
		clyde_jw_num(w, "rtt_ms_mean", mean(o->rtt_ms, o->ops), 3);
		clyde_jw_num(w, "exec_ms_mean", mean(o->exec_ms, o->ops), 3);
		clyde_jw_close(w, '}');
	}
	clyde_jw_close(w, ']');
}

/* JSON "nfs" of test i: null when the run is not on NFS. */
static void nfs_json(struct clyde_jw *w, const struct clyde_stack *s,
		     const struct clyde_figs_test *t)
{
	const struct clyde_nfs_moved *m = t->figs;
	static const struct clyde_nfs_moved none;
	char inflated[128];

	if (!m)
		m = &none; /* on NFS, not counted */
	if (!nfs_stack(s) || !t->done) {
		clyde_jw_null(w, "nfs");
		return;
	}
	clyde_jw_open(w, "nfs", '{');
	clyde_jw_bool(w, "wire_measured", m->measured);
	jw_counts(w, m);
	clyde_jw_u64(w, "app_read_bytes", m->app_read);
	clyde_jw_u64(w, "app_write_bytes", m->app_write);
	clyde_jw_u64(w, "server_read_bytes", m->server_read);
	clyde_jw_u64(w, "server_write_bytes", m->server_write);
	jw_ratio(w, "wire_write_amplification",
		 (t->does & CLYDE_FIGS_ALL_WRITTEN) && m->measured ?
			 ratio(m->bytes_sent, t->bytes) :
			 -1.0);
	jw_ratio(w, "disk_write_amplification",
		 (t->does & CLYDE_FIGS_ALL_WRITTEN) && t->io_have ?
			 ratio(t->io_write, t->bytes) :
			 -1.0);
	jw_ratio(w, "disk_read_fraction",
		 (t->does & CLYDE_FIGS_IO) && (t->does & CLYDE_FIGS_READS) &&
				 t->io_have ?
			 ratio(t->io_read, t->bytes) :
			 -1.0);
	if (m->have_server) {
		clyde_jw_open(w, "server", '{');
		clyde_jw_u64(w, "packets", m->server_packets);
		clyde_jw_u64(w, "threads_woken", m->server_threads_woken);
		clyde_jw_u64(w, "threads", m->server_threads);
		if (m->have_server_cpu)
			clyde_jw_u64(w, "nfsd_cpu_ms",
				     m->server_cpu_ns / 1000000u);
		else
			clyde_jw_null(w, "nfsd_cpu_ms");
		clyde_jw_close(w, '}');
	} else {
		clyde_jw_null(w, "server");
	}
	jw_ops(w, m);
	clyde_jw_str(w, "client_cache", client_cache(s, t), 256);
	CLYDE_JW_ARR(w, "close_to_open", s->fs.nfs_cto);
	jw_server_cache(w, t->server);
	clyde_nfs_inflated(s, t->does, inflated, sizeof(inflated));
	clyde_jw_open(w, "inflated_by", '[');
	for (char *p = inflated, *e; *p; p = *e ? e + 2 : e) {
		e = strstr(p, ", ");
		if (!e)
			e = p + strlen(p);
		clyde_jw_str(w, NULL, p, (size_t)(e - p));
	}
	clyde_jw_close(w, ']');
	clyde_jw_close(w, '}');
}

static void ops_line(FILE *f, const struct clyde_nfs_moved *m)
{
	fprintf(f, "clyde:    ");
	for (unsigned i = 0; i < m->nops && i < 4; i++)
		fprintf(f, "%s %s %llu (rtt %.2f ms, exec %.2f ms)",
			i ? "," : "", m->op[i].name,
			(unsigned long long)m->op[i].ops,
			mean(m->op[i].rtt_ms, m->op[i].ops),
			mean(m->op[i].exec_ms, m->op[i].ops));
	fprintf(f, "%s\n", m->nops ? "" : " no RPCs");
}

static void server_line(FILE *f, const struct clyde_nfs_moved *m)
{
	fprintf(f,
		"clyde:     nfsd: %llu requests from all clients, "
		"threads woken %llu times (%u threads), ",
		(unsigned long long)m->server_packets,
		(unsigned long long)m->server_threads_woken, m->server_threads);
	if (m->have_server_cpu)
		fprintf(f, "CPU %llu ms\n",
			(unsigned long long)(m->server_cpu_ns / 1000000u));
	else
		fprintf(f, "CPU not read\n");
}

#define NFS_FMT "clyde:   %-17s %6s %7s %9s %9s %9s %9s\n"

static void test_rows(FILE *f, const struct clyde_figs_run *run, size_t i)
{
	const struct clyde_figs_test *t = &run->tests[i];
	const struct clyde_nfs_moved *m = t->figs;
	static const struct clyde_nfs_moved none;
	const struct clyde_server_cache *sc = t->server;
	char rpcs[24], re[24], sent[HUMAN_LEN], recv[HUMAN_LEN];
	char rd[HUMAN_LEN] = "-", wr[HUMAN_LEN] = "-", cache[96] = "";
	char inflated[128];
	double wire, disk;

	if (!m)
		m = &none; /* on NFS, not counted */
	snprintf(rpcs, sizeof(rpcs), "%llu", (unsigned long long)m->rpcs);
	snprintf(re, sizeof(re), "%llu",
		 (unsigned long long)clyde_nfs_retrans(m));
	clyde_fmt_human_bytes(sent, sizeof(sent), (double)m->bytes_sent);
	clyde_fmt_human_bytes(recv, sizeof(recv), (double)m->bytes_recv);
	if (t->io_have) {
		clyde_fmt_human_bytes(rd, sizeof(rd), (double)t->io_read);
		clyde_fmt_human_bytes(wr, sizeof(wr), (double)t->io_write);
	}
	if (sc->state == CLYDE_SERVER_CACHE_NOT_CONTROLLED)
		snprintf(cache, sizeof(cache), "server cache not controlled");
	else if (sc->state != CLYDE_SERVER_CACHE_NONE)
		snprintf(cache, sizeof(cache), "server cache %s, %.0f%% cached",
			 clyde_server_cache_name(sc->state),
			 server_fraction(sc) * 100.0);
	if (!m->measured)
		fprintf(f, NFS_FMT, t->label, "?", "?", "?", "?", rd, wr);
	else
		fprintf(f, NFS_FMT, t->label, rpcs, re, sent, recv, rd, wr);
	if (m->measured)
		ops_line(f, m);
	if (m->have_server)
		server_line(f, m);
	if (sc->state != CLYDE_SERVER_CACHE_NONE)
		fprintf(f, "clyde:     %s%s\n", cache,
			sc->state == CLYDE_SERVER_CACHE_NOT_CONTROLLED ?
				"" :
				" (server's page cache of the files)");
	wire = m->measured ? ratio(m->bytes_sent, t->bytes) : -1.0;
	disk = t->io_have ? ratio(t->io_write, t->bytes) : -1.0;
	if ((t->does & CLYDE_FIGS_ALL_WRITTEN) &&
	    (wire >= 0.0 || disk >= 0.0)) {
		fprintf(f, "clyde:     write amplification:");
		if (wire >= 0.0)
			fprintf(f, " wire %.2fx", wire);
		if (disk >= 0.0)
			fprintf(f, "%s server's disks %.2fx",
				wire >= 0.0 ? "," : "", disk);
		fprintf(f, "\n");
	}
	if (clyde_nfs_inflated(run->stack, t->does, inflated,
			       sizeof(inflated))[0])
		fprintf(f, "clyde:     inflated by: %s\n", inflated);
}

/* The text section (the first run's figures); nothing off NFS. */
static void nfs_text(FILE *f, const struct clyde_figs_run *run)
{
	const struct clyde_stack_fs *fs = &run->stack->fs;

	if (!run->nruns || !nfs_stack(run->stack))
		return;
	fprintf(f, "clyde: NFS %s:%s (v%s, %s) from %s%s%s%s\n", fs->nfs_server,
		fs->nfs_export, fs->nfs_version, fs->nfs_proto,
		fs->nfs_local == 1 ? "this machine" :
		fs->nfs_local == 0 ? "another machine" :
				     "a server not known to be this machine",
		fs->nfs_export_dir[0] ? ", export " : "", fs->nfs_export_dir,
		!strcmp(fs->nfs_export_sync, "async") ? " (async)" :
		!strcmp(fs->nfs_export_sync, "sync")  ? " (sync)" :
							"");
	fprintf(f,
		"clyde: per test%s: RPCs, sent and received over the wire, "
		"the server's disks:\n",
		run->nruns > 1 ? " of run 1" : "");
	fprintf(f, NFS_FMT, "test", "RPCs", "retrans", "sent", "received",
		"disk read", "disk write");
	for (size_t i = 0; i < run->ntests; i++)
		if (run->tests[i].done)
			test_rows(f, run, i);
	for (size_t i = 0; i < run->ntests; i++) {
		const struct clyde_figs_test *t = &run->tests[i];
		double sf = server_fraction(t->server);

		if (t->done && sf >= CLYDE_CACHE_WARN_FRACTION)
			fprintf(f,
				"clyde: warning: %s: %.0f%% of its data was in "
				"the NFS server's page cache when it started;\n"
				"       the rate is the server cache's, not its "
				"disks'\n",
				t->label, sf * 100.0);
	}
	if (fs->nfs_local != 1)
		fprintf(f, "clyde: note: server cache not controlled: the "
			   "read-side figures may come from the server's "
			   "memory;\n"
			   "clyde: note: clyde-mpi --read-shift reads what "
			   "another client wrote (IOR -C), which its own cache "
			   "never held: docs/nfs.md\n");
}

/* Add o into the by-name list ops[0..*n) (at most cap names; a name past
 * them is left out of the list, not of the sums). */
static void op_add(struct clyde_nfs_op *ops, size_t *n, size_t cap,
		   const struct clyde_nfs_op *o)
{
	size_t i;

	for (i = 0; i < *n && strcmp(ops[i].name, o->name); i++)
		;
	if (i == *n) {
		if (*n == cap)
			return;
		memset(&ops[i], 0, sizeof(ops[i]));
		memcpy(ops[i].name, o->name, sizeof(ops[i].name));
		(*n)++;
	}
	ops[i].ops += o->ops;
	ops[i].trans += o->trans;
	ops[i].timeouts += o->timeouts;
	ops[i].bytes_sent += o->bytes_sent;
	ops[i].bytes_recv += o->bytes_recv;
	ops[i].queue_ms += o->queue_ms;
	ops[i].rtt_ms += o->rtt_ms;
	ops[i].exec_ms += o->exec_ms;
}

/* clyde-mpi: the ranks' traffic summed; per operation the requests,
 * transmissions, bytes and milliseconds are summed by name, so a mean
 * (milliseconds / requests) is weighted by each rank's requests, and the
 * busiest CLYDE_NFS_MOVED_OPS are kept.  The sum is measured only when
 * every rank's was; the server's side (nfsd's counters) stays out's, rank
 * 0's, which every client's requests reach. */
static bool nfs_merge(void *figs, const void *ranks, size_t n)
{
	const struct clyde_nfs_moved *m = ranks;
	struct clyde_nfs_moved *out = figs;
	struct clyde_nfs_moved s = { .measured = n > 0 };
	struct clyde_nfs_op ops[CLYDE_NFS_WIRE_MAX_OPS];
	size_t nops = 0;
	bool any = false;

	for (size_t r = 0; r < n; r++) {
		const struct clyde_nfs_moved *x = &m[r];

		any = any || x->measured;
		s.measured = s.measured && x->measured;
		s.app_read += x->app_read;
		s.app_write += x->app_write;
		s.server_read += x->server_read;
		s.server_write += x->server_write;
		s.rpcs += x->rpcs;
		s.trans += x->trans;
		s.timeouts += x->timeouts;
		s.bytes_sent += x->bytes_sent;
		s.bytes_recv += x->bytes_recv;
		s.rtt_ms += x->rtt_ms;
		s.exec_ms += x->exec_ms;
		for (unsigned i = 0; i < x->nops && i < CLYDE_NFS_MOVED_OPS;
		     i++)
			op_add(ops, &nops, CLYDE_NFS_WIRE_MAX_OPS, &x->op[i]);
	}
	if (!any)
		return false;
	clyde_nfs_keep_busiest(&s, ops, nops);
	clyde_nfs_moved_server(&s, out);
	if (!s.measured) {
		/* A rank without the figures: no sum to give, the server's
		 * side kept. */
		struct clyde_nfs_moved only = { 0 };

		clyde_nfs_moved_server(&only, &s);
		s = only;
	}
	*out = s;
	return true;
}

/* One rank's "nfs" in its share of the aggregate (null when not
 * measured). */
static void nfs_rank_json(struct clyde_jw *w, const void *figs)
{
	const struct clyde_nfs_moved *m = figs;

	if (!m || !m->measured) {
		clyde_jw_null(w, "nfs");
		return;
	}
	clyde_jw_open(w, "nfs", '{');
	jw_counts(w, m);
	clyde_jw_u64(w, "server_read_bytes", m->server_read);
	clyde_jw_u64(w, "server_write_bytes", m->server_write);
	jw_ops(w, m);
	clyde_jw_close(w, '}');
}

/* Every client's traffic reaches the server's disks (the members, when
 * the server is rank 0's machine) and nfsd's counters: they stay; rank
 * 0's wire figures are its own mount's only and go. */
static bool nfs_all_ranks(void *figs)
{
	struct clyde_nfs_moved *m = figs, server = { 0 };
	bool keep = m->measured || m->have_server;

	if (m->measured) {
		clyde_nfs_moved_server(&server, m);
		*m = server;
	}
	return keep;
}

/* clyde-mpi's rank 0, every rank having ended the test: the server's
 * side is read again from the test's start (bonnie.c), so that it holds
 * the writes of the ranks that ended after rank 0; its own wire figures
 * keep its window. */
static bool nfs_late_wanted(const void *figs)
{
	const struct clyde_nfs_moved *m = figs;

	return m->measured || m->have_server;
}

static void nfs_late_keep(void *figs, const void *again)
{
	const struct clyde_nfs_moved *n = again;

	if (n->have_server)
		clyde_nfs_moved_server(figs, n);
}

const struct clyde_target_figs clyde_nfs_figs = {
	.json_at = CLYDE_FIGS_AT_MEMBERS,
	.json = nfs_json,
	.text = nfs_text,
	.all_ranks = nfs_all_ranks,
	.late_wanted = nfs_late_wanted,
	.late_keep = nfs_late_keep,
	.merge = nfs_merge,
	.rank_json = nfs_rank_json,
};
