/*
 * clyde-mpi: the ranks' traffic merged (dist_wire.h).
 */
#include "dist/dist_wire.h"

#include <stdlib.h>
#include <string.h>

#include "core/json_out.h"
#include "results/nfs_out.h"

static int busier(const void *a, const void *b)
{
	const struct clyde_nfs_op *x = a, *y = b;

	if (x->ops != y->ops)
		return x->ops > y->ops ? -1 : 1;
	return strcmp(x->name, y->name);
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

void clyde_dist_nfs_sum(struct clyde_nfs_moved *out,
			const struct clyde_dist_wire *m, size_t n)
{
	struct clyde_nfs_moved s = { .measured = n > 0 };
	struct clyde_nfs_op ops[CLYDE_NFS_WIRE_MAX_OPS];
	size_t nops = 0;

	for (size_t r = 0; r < n; r++) {
		const struct clyde_nfs_moved *x = &m[r].nfs;

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
	qsort(ops, nops, sizeof(ops[0]), busier);
	for (size_t i = 0; i < nops && i < CLYDE_NFS_MOVED_OPS; i++)
		s.op[s.nops++] = ops[i];
	clyde_nfs_moved_server(&s, out);
	if (!s.measured) {
		/* A rank without the figures: no sum to give. */
		struct clyde_nfs_moved only = { 0 };

		only.have_server = s.have_server;
		only.server_packets = s.server_packets;
		only.server_threads_woken = s.server_threads_woken;
		only.server_threads = s.server_threads;
		only.have_server_cpu = s.have_server_cpu;
		only.server_cpu_ns = s.server_cpu_ns;
		s = only;
	}
	*out = s;
}

void clyde_dist_cifs_sum(struct clyde_cifs_moved *out,
			 const struct clyde_dist_wire *m, size_t n)
{
	struct clyde_cifs_moved s = { .measured = n > 0 };
	struct clyde_cifs_wire *w = &s.wire;

	for (size_t r = 0; r < n; r++) {
		const struct clyde_cifs_moved *x = &m[r].cifs;

		s.measured = s.measured && x->measured;
		s.server_evicted += x->server_evicted;
		s.server_missed += x->server_missed;
		w->smbs += x->wire.smbs;
		w->bytes_read += x->wire.bytes_read;
		w->bytes_written += x->wire.bytes_written;
		for (size_t i = 0; i < x->wire.nops; i++) {
			const struct clyde_cifs_op *o = &x->wire.op[i];
			size_t k;

			for (k = 0;
			     k < w->nops && strcmp(w->op[k].name, o->name); k++)
				;
			if (k == w->nops) {
				if (k == CLYDE_CIFS_WIRE_MAX_OPS)
					continue;
				w->op[k] = (struct clyde_cifs_op){ 0 };
				memcpy(w->op[k].name, o->name,
				       sizeof(w->op[k].name));
				w->nops++;
			}
			w->op[k].total += o->total;
			w->op[k].failed += o->failed;
		}
	}
	if (!s.measured)
		s = (struct clyde_cifs_moved){ 0 };
	*out = s;
}

static void nfs_json(struct clyde_jw *w, const struct clyde_nfs_moved *m)
{
	if (!m->measured) {
		clyde_jw_null(w, "nfs");
		return;
	}
	clyde_jw_open(w, "nfs", '{');
	clyde_jw_nfs_counts(w, m);
	clyde_jw_u64(w, "server_read_bytes", m->server_read);
	clyde_jw_u64(w, "server_write_bytes", m->server_write);
	clyde_jw_nfs_ops(w, m);
	clyde_jw_close(w, '}');
}

static void cifs_json(struct clyde_jw *w, const struct clyde_cifs_moved *m)
{
	if (!m->measured) {
		clyde_jw_null(w, "smb");
		return;
	}
	clyde_jw_open(w, "smb", '{');
	clyde_jw_u64(w, "requests", m->wire.smbs);
	clyde_jw_u64(w, "bytes_read", m->wire.bytes_read);
	clyde_jw_u64(w, "bytes_written", m->wire.bytes_written);
	clyde_jw_close(w, '}');
}

void clyde_dist_wire_json(struct clyde_jw *w, const struct clyde_dist_wire *m)
{
	nfs_json(w, &m->nfs);
	cifs_json(w, &m->cifs);
}
