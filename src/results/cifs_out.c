/*
 * A run on an SMB mount in the JSON and the text: each test's requests
 * and bytes over the wire to its share (io/cifs_wire.h, recorded by the
 * SMB target, io/target_cifs.c, as the test's figures) and what was done
 * to the server's cache before it.  The kind's entry of figures.c.
 */
#include <string.h>

#include "io/cifs_wire.h"
#include "results/figures.h"
#include "results/format.h"

/* The test's "smb" object, when its share was counted. */
static void cifs_json(struct clyde_jw *w, const struct clyde_run *r,
		      enum clyde_test id, const void *figs)
{
	const struct clyde_cifs_moved *m = figs;
	uint64_t failed = 0;

	(void)r;
	(void)id;
	if (!m || !m->measured)
		return;
	clyde_jw_open(w, "smb", '{');
	clyde_jw_u64(w, "requests", m->wire.smbs);
	clyde_jw_u64(w, "bytes_read", m->wire.bytes_read);
	clyde_jw_u64(w, "bytes_written", m->wire.bytes_written);
	clyde_jw_open(w, "by_type", '{');
	for (size_t i = 0; i < m->wire.nops; i++) {
		failed += m->wire.op[i].failed;
		if (m->wire.op[i].total)
			clyde_jw_u64(w, m->wire.op[i].name,
				     m->wire.op[i].total);
	}
	clyde_jw_close(w, '}');
	clyde_jw_u64(w, "failed", failed);
	clyde_jw_u64(w, "server_files_evicted", m->server_evicted);
	clyde_jw_u64(w, "server_files_missed", m->server_missed);
	clyde_jw_close(w, '}');
}

/* The test's two busiest request types, "Writes 4, Flushes 1". */
static void busiest(const struct clyde_cifs_wire *wire, char *buf, size_t len)
{
	size_t first = SIZE_MAX, second = SIZE_MAX;

	for (size_t i = 0; i < wire->nops; i++) {
		uint64_t t = wire->op[i].total;

		if (!t)
			continue;
		if (first == SIZE_MAX || t > wire->op[first].total) {
			second = first;
			first = i;
		} else if (second == SIZE_MAX || t > wire->op[second].total) {
			second = i;
		}
	}
	buf[0] = '\0';
	if (first != SIZE_MAX)
		snprintf(buf, len, "%s %llu", wire->op[first].name,
			 (unsigned long long)wire->op[first].total);
	if (second != SIZE_MAX) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ", %s %llu", wire->op[second].name,
			 (unsigned long long)wire->op[second].total);
	}
}

static void mib(char *buf, size_t len, uint64_t bytes)
{
	snprintf(buf, len, "%.1f", (double)bytes / 1048576.0);
}

/* "SMB over the wire" per test of the first run, when any was counted. */
static void cifs_text(FILE *f, const struct clyde_run *runs, unsigned n)
{
	const struct clyde_stack_fs *fs;
	bool any = false;
	unsigned evicted = 0, missed = 0;

	if (n == 0)
		return;
	fs = &runs[0].env.stack.fs;
	for (int i = 0; i < CLYDE_TEST_COUNT; i++) {
		const struct clyde_cifs_moved *m =
			clyde_test_figs(&runs[0].tests[i], &clyde_target_cifs);
		char rd[32], wr[32], top[96];

		if (!m || !m->measured)
			continue;
		if (!any)
			fprintf(f,
				"SMB over the wire to \\\\%s\\%s (run 1):\n"
				"%-13s %10s %10s %10s  %s\n",
				fs->cifs_server, fs->cifs_share, "test",
				"requests", "read MiB", "write MiB", "busiest");
		any = true;
		evicted += m->server_evicted;
		missed += m->server_missed;
		mib(rd, sizeof(rd), m->wire.bytes_read);
		mib(wr, sizeof(wr), m->wire.bytes_written);
		busiest(&m->wire, top, sizeof(top));
		fprintf(f, "%-13s %10llu %10s %10s  %s\n",
			clyde_test_label((enum clyde_test)i),
			(unsigned long long)m->wire.smbs, rd, wr, top);
	}
	if (!any)
		return;
	if (fs->cifs_local != 1)
		fprintf(f, "clyde: note: the SMB server is not this machine: "
			   "its cache was not controlled; read figures may "
			   "come from its memory\n");
	else if (evicted || missed)
		fprintf(f,
			"clyde: note: the server's cache of %u file(s) was "
			"evicted before the read tests (smbd on this "
			"machine)%s\n",
			evicted, missed ? "; some could not be" : "");
}

const struct clyde_figs_kind clyde_figs_cifs = {
	.target = &clyde_target_cifs,
	.json_at = CLYDE_FIGS_AT_MEMBERS,
	.json = cifs_json,
	.text = cifs_text,
};
