/*
 * A run on an NFS mount in the JSON and the text (results/nfs_out.h).
 */
#include "results/nfs_out.h"

#include <string.h>

#include "results/figures.h"
#include "results/format.h"
#include "results/testio.h"

bool clyde_nfs_run(const struct clyde_run *r)
{
	const struct clyde_stack *s = &r->env.stack;

	return s->has_fs &&
	       (!strcmp(s->fs.type, "nfs") || !strcmp(s->fs.type, "nfs4"));
}

/* The tests that write (data or metadata): an async export acknowledges
 * them before they are on the server's disks. */
static bool writes(enum clyde_test id)
{
	switch (id) {
	case CLYDE_PUTC:
	case CLYDE_PUT_BLOCK:
	case CLYDE_REWRITE:
	case CLYDE_SEQ_CREATE:
	case CLYDE_SEQ_DEL:
	case CLYDE_RAN_CREATE:
	case CLYDE_RAN_DEL:
		return true;
	default:
		return false;
	}
}

/* The tests that read back what was written, or its attributes. */
static bool reads(enum clyde_test id)
{
	switch (id) {
	case CLYDE_REWRITE:
	case CLYDE_GETC:
	case CLYDE_GET_BLOCK:
	case CLYDE_SEEKS:
	case CLYDE_SEQ_STAT:
	case CLYDE_RAN_STAT:
		return true;
	default:
		return false;
	}
}

static bool stats(enum clyde_test id)
{
	return id == CLYDE_SEQ_STAT || id == CLYDE_RAN_STAT;
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

char *clyde_nfs_inflated(const struct clyde_run *r, enum clyde_test id,
			 char *buf, size_t len)
{
	const struct clyde_stack_fs *fs = &r->env.stack.fs;

	buf[0] = '\0';
	if (!clyde_nfs_run(r))
		return buf;
	if (writes(id) && !strcmp(fs->nfs_export_sync, "async"))
		add(buf, len, "async export");
	if (reads(id) && !strcmp(fs->nfs_cto, "nocto"))
		add(buf, len, "nocto");
	if (stats(id) && long_actimeo(fs))
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

static const char *client_cache(const struct clyde_run *r,
				const struct clyde_test_result *t)
{
	bool nocto = !strcmp(r->env.stack.fs.nfs_cto, "nocto");

	if (!t->cache.evicted)
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

void clyde_jw_nfs_counts(struct clyde_jw *w, const struct clyde_nfs_moved *m)
{
	clyde_jw_u64(w, "rpcs", m->rpcs);
	clyde_jw_u64(w, "transmissions", m->trans);
	clyde_jw_u64(w, "retransmissions", clyde_nfs_retrans(m));
	clyde_jw_u64(w, "timeouts", m->timeouts);
	clyde_jw_u64(w, "bytes_sent", m->bytes_sent);
	clyde_jw_u64(w, "bytes_received", m->bytes_recv);
}

void clyde_jw_nfs_ops(struct clyde_jw *w, const struct clyde_nfs_moved *m)
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

void clyde_jw_nfs(struct clyde_jw *w, const struct clyde_run *r,
		  enum clyde_test id)
{
	const struct clyde_test_result *t = &r->tests[id];
	const struct clyde_nfs_moved *m = clyde_test_figs(t, &clyde_target_nfs);
	static const struct clyde_nfs_moved none;
	struct clyde_test_io io;
	char inflated[128];

	if (!m)
		m = &none; /* on NFS, not counted */
	if (!clyde_nfs_run(r) || t->state != CLYDE_DONE) {
		clyde_jw_null(w, "nfs");
		return;
	}
	clyde_test_io_of_run(r, id, &io);
	clyde_jw_open(w, "nfs", '{');
	clyde_jw_bool(w, "wire_measured", m->measured);
	clyde_jw_nfs_counts(w, m);
	clyde_jw_u64(w, "app_read_bytes", m->app_read);
	clyde_jw_u64(w, "app_write_bytes", m->app_write);
	clyde_jw_u64(w, "server_read_bytes", m->server_read);
	clyde_jw_u64(w, "server_write_bytes", m->server_write);
	jw_ratio(w, "wire_write_amplification",
		 clyde_test_writes_its_bytes(id) && m->measured ?
			 ratio(m->bytes_sent, t->bytes) :
			 -1.0);
	jw_ratio(w, "disk_write_amplification",
		 clyde_test_writes_its_bytes(id) && io.have ?
			 ratio(io.write, t->bytes) :
			 -1.0);
	jw_ratio(w, "disk_read_fraction",
		 clyde_test_is_io(id) && reads(id) && io.have ?
			 ratio(io.read, t->bytes) :
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
	clyde_jw_nfs_ops(w, m);
	clyde_jw_str(w, "client_cache", client_cache(r, t), 256);
	CLYDE_JW_ARR(w, "close_to_open", r->env.stack.fs.nfs_cto);
	jw_server_cache(w, &t->cache.server);
	clyde_nfs_inflated(r, id, inflated, sizeof(inflated));
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

static void test_rows(FILE *f, const struct clyde_run *r, enum clyde_test id)
{
	const struct clyde_test_result *t = &r->tests[id];
	const struct clyde_nfs_moved *m = clyde_test_figs(t, &clyde_target_nfs);
	static const struct clyde_nfs_moved none;
	const struct clyde_server_cache *sc = &t->cache.server;
	char rpcs[24], re[24], sent[CLYDE_FMT_LEN], recv[CLYDE_FMT_LEN];
	char rd[CLYDE_FMT_LEN] = "-", wr[CLYDE_FMT_LEN] = "-", cache[96] = "";
	char inflated[128];
	struct clyde_test_io io;
	double wire, disk;

	if (!m)
		m = &none; /* on NFS, not counted */
	clyde_test_io_of_run(r, id, &io);
	snprintf(rpcs, sizeof(rpcs), "%llu", (unsigned long long)m->rpcs);
	snprintf(re, sizeof(re), "%llu",
		 (unsigned long long)clyde_nfs_retrans(m));
	clyde_fmt_human_bytes(sent, sizeof(sent), (double)m->bytes_sent);
	clyde_fmt_human_bytes(recv, sizeof(recv), (double)m->bytes_recv);
	if (io.have) {
		clyde_fmt_human_bytes(rd, sizeof(rd), (double)io.read);
		clyde_fmt_human_bytes(wr, sizeof(wr), (double)io.write);
	}
	if (sc->state == CLYDE_SERVER_CACHE_NOT_CONTROLLED)
		snprintf(cache, sizeof(cache), "server cache not controlled");
	else if (sc->state != CLYDE_SERVER_CACHE_NONE)
		snprintf(cache, sizeof(cache), "server cache %s, %.0f%% cached",
			 clyde_server_cache_name(sc->state),
			 server_fraction(sc) * 100.0);
	if (!m->measured)
		fprintf(f, NFS_FMT, clyde_test_label(id), "?", "?", "?", "?",
			rd, wr);
	else
		fprintf(f, NFS_FMT, clyde_test_label(id), rpcs, re, sent, recv,
			rd, wr);
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
	disk = io.have ? ratio(io.write, t->bytes) : -1.0;
	if (clyde_test_writes_its_bytes(id) && (wire >= 0.0 || disk >= 0.0)) {
		fprintf(f, "clyde:     write amplification:");
		if (wire >= 0.0)
			fprintf(f, " wire %.2fx", wire);
		if (disk >= 0.0)
			fprintf(f, "%s server's disks %.2fx",
				wire >= 0.0 ? "," : "", disk);
		fprintf(f, "\n");
	}
	if (clyde_nfs_inflated(r, id, inflated, sizeof(inflated))[0])
		fprintf(f, "clyde:     inflated by: %s\n", inflated);
}

void clyde_nfs_text(FILE *f, const struct clyde_run *runs, unsigned n)
{
	const struct clyde_run *r = runs;
	const struct clyde_stack_fs *fs = &r->env.stack.fs;

	if (!n || !clyde_nfs_run(r))
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
		n > 1 ? " of run 1" : "");
	fprintf(f, NFS_FMT, "test", "RPCs", "retrans", "sent", "received",
		"disk read", "disk write");
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		if (r->tests[i].state == CLYDE_DONE)
			test_rows(f, r, (enum clyde_test)i);
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_test_result *t = &r->tests[i];
		double sf = server_fraction(&t->cache.server);

		if (t->state == CLYDE_DONE && sf >= CLYDE_CACHE_WARN_FRACTION)
			fprintf(f,
				"clyde: warning: %s: %.0f%% of its data was in "
				"the NFS server's page cache when it started;\n"
				"       the rate is the server cache's, not its "
				"disks'\n",
				clyde_test_label((enum clyde_test)i),
				sf * 100.0);
	}
	if (fs->nfs_local != 1)
		fprintf(f, "clyde: note: server cache not controlled: the "
			   "read-side figures may come from the server's "
			   "memory;\n"
			   "clyde: note: clyde-mpi --read-shift reads what "
			   "another client wrote (IOR -C), which its own cache "
			   "never held: docs/nfs.md\n");
}

static void nfs_json(struct clyde_jw *w, const struct clyde_run *r,
		     enum clyde_test id, const void *figs)
{
	(void)figs; /* clyde_jw_nfs finds them */
	clyde_jw_nfs(w, r, id);
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

const struct clyde_figs_kind clyde_figs_nfs = {
	.target = &clyde_target_nfs,
	.json_at = CLYDE_FIGS_AT_MEMBERS,
	.json = nfs_json,
	.text = clyde_nfs_text,
	.all_ranks = nfs_all_ranks,
};
