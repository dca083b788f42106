/*
 * results/figures: a target kind's own figures of a test reach the
 * outputs through the kinds' table alone.  An SMB test's "smb" object
 * and text lines, a ZFS test's "zfs" object at its place after "cache"
 * (and "arc" as the cache's source), nothing of either for a test without
 * figures or with another kind's; under MPI an NFS test keeps the
 * server's counters and its members, and drops rank 0's wire figures;
 * figures are zeroed when allocated again and go with the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "env/zfs.h"
#include "io/cifs_wire.h"
#include "io/nfs_wire.h"
#include "io/target.h"
#include "results/figures.h"
#include "results/format.h"

#define MIB (1024u * 1024u)

/* Run r's JSON on one line, without its layout: `"key":value`. */
static char *json_of(const struct clyde_run *r)
{
	char *text = NULL, *out;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	clyde_json_write(m, r, 1, NULL, "test");
	fclose(m);
	if (!text)
		return NULL;
	out = text;
	for (const char *in = text; *in; in++) {
		if (*in == '\n') {
			while (in[1] == ' ')
				in++;
			continue;
		}
		*out++ = *in;
		if (in[0] == ':' && in[1] == ' ' && in > text && in[-1] == '"')
			in++;
	}
	*out = '\0';
	return text;
}

static char *text_of(const struct clyde_run *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	clyde_figs_text(m, r, 1);
	fclose(m);
	return text;
}

static void done(struct clyde_test_result *t)
{
	t->state = CLYDE_DONE;
	t->note = "";
	t->bytes = 8 * MIB;
	t->elapsed_ns = 1000000000;
}

static void test_smb(void)
{
	static struct clyde_run r;
	struct clyde_stack_fs *fs = &r.env.stack.fs;
	struct clyde_cifs_moved *c;
	char *j, *t, *at;

	r.env.stack.has_fs = true;
	snprintf(fs->type, sizeof(fs->type), "cifs");
	snprintf(fs->cifs_server, sizeof(fs->cifs_server), "srv");
	snprintf(fs->cifs_share, sizeof(fs->cifs_share), "data");
	fs->cifs_local = 1;
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		r.tests[i].note = "";
	done(&r.tests[CLYDE_PUT_BLOCK]);
	done(&r.tests[CLYDE_GET_BLOCK]);
	c = clyde_test_figs_alloc(&r.tests[CLYDE_PUT_BLOCK],
				  &clyde_target_cifs);
	CHECK(c != NULL);
	if (!c)
		return;
	c->measured = true;
	c->wire.smbs = 17;
	c->wire.bytes_read = 3 * MIB;
	c->wire.bytes_written = 9 * MIB;
	c->wire.nops = 2;
	snprintf(c->wire.op[0].name, sizeof(c->wire.op[0].name), "Writes");
	c->wire.op[0].total = 9;
	c->wire.op[0].failed = 1;
	snprintf(c->wire.op[1].name, sizeof(c->wire.op[1].name), "Flushes");
	c->wire.op[1].total = 3;
	c->server_evicted = 2;
	/* Another kind's figures on the other test: not SMB's. */
	CHECK(clyde_test_figs_alloc(&r.tests[CLYDE_GET_BLOCK],
				    &clyde_target_zfs) != NULL);
	CHECK(clyde_test_figs(&r.tests[CLYDE_GET_BLOCK], &clyde_target_cifs) ==
	      NULL);
	j = json_of(&r);
	CHECK(j && strstr(j, "\"smb\":{\"requests\":17,\"bytes_read\":3145728,"
			     "\"bytes_written\":9437184,\"by_type\":{"
			     "\"Writes\":9,\"Flushes\":3},\"failed\":1,"
			     "\"server_files_evicted\":2,"
			     "\"server_files_missed\":0}"));
	/* One test has it: the object comes once, after "members". */
	at = j ? strstr(j, "\"smb\"") : NULL;
	CHECK(at && !strstr(at + 1, "\"smb\""));
	CHECK(at && strstr(j, "\"members\"") < at);
	CHECK(j && !strstr(j, "\"zfs\"")); /* its figures say nothing */
	free(j);
	t = text_of(&r);
	CHECK(t && strstr(t, "SMB over the wire to \\\\srv\\data (run 1):\n"));
	CHECK(t && strstr(t, "block write           17        3.0        9.0"
			     "  Writes 9, Flushes 3\n"));
	CHECK(t && strstr(t, "cache of 2 file(s) was evicted"));
	free(t);
	/* Allocated again: zeroed; a test without: no section at all. */
	c = clyde_test_figs_alloc(&r.tests[CLYDE_PUT_BLOCK],
				  &clyde_target_cifs);
	CHECK(c && !c->measured && !c->wire.smbs);
	t = text_of(&r);
	CHECK(t && !*t);
	free(t);
	clyde_run_release(&r);
	CHECK(r.tests[CLYDE_PUT_BLOCK].figs.data == NULL &&
	      r.tests[CLYDE_PUT_BLOCK].figs.kind == NULL);
}

static void test_zfs(void)
{
	static struct clyde_run r;
	struct clyde_test_result *gb = &r.tests[CLYDE_GET_BLOCK];
	struct clyde_zfs_test *z;
	char *j, *at;

	r.env.stack.has_fs = true;
	snprintf(r.env.stack.fs.type, sizeof(r.env.stack.fs.type), "zfs");
	for (int i = 0; i < CLYDE_TEST_COUNT; i++)
		r.tests[i].note = "";
	done(gb);
	gb->cache.evicted = gb->cache.measured = true;
	gb->cache.total_bytes = 8 * MIB;
	z = clyde_test_figs_alloc(gb, &clyde_target_zfs);
	CHECK(z != NULL);
	if (!z)
		return;
	z->have = true;
	snprintf(z->evict, sizeof(z->evict), "zinject");
	z->arc_known = true;
	z->arc.demand_data_hits = 10;
	z->arc.demand_data_misses = 16;
	z->record_bytes = 131072;
	z->missed_bytes = 2 * MIB;
	z->raidz_wa = 1.3333;
	clyde_figs_finish(gb);
	CHECK(gb->cache.resident_bytes == 6 * MIB);
	j = json_of(&r);
	CHECK(j && strstr(j, "\"source\":\"arc\""));
	at = j ? strstr(j, "\"zfs\":{\"evict\":\"zinject\","
			   "\"left_bytes\":null,\"arc_known\":true,"
			   "\"demand_data_hits\":10,"
			   "\"demand_data_misses\":16,"
			   "\"prefetch_data_hits\":0,"
			   "\"prefetch_data_misses\":0,"
			   "\"demand_metadata_hits\":0,"
			   "\"demand_metadata_misses\":0,"
			   "\"record_bytes\":131072,"
			   "\"missed_bytes\":2097152,\"raidz_wa\":1.3333,"
			   "\"compressratio\":null},") :
		 NULL;
	CHECK(at != NULL);
	/* Right after "cache", before "device". */
	CHECK(at && at[-1] == ',' && at[-2] == '}');
	CHECK(at && strstr(j, "\"cache\":{") < at);
	CHECK(at && strstr(at, "},\"device\":{") == strchr(at, '}'));
	free(j);
	clyde_run_release(&r);
}

static void test_all_ranks(void)
{
	struct clyde_test_result t;
	struct clyde_nfs_moved *m;

	memset(&t, 0, sizeof(t));
	CHECK(!clyde_figs_all_ranks(&t)); /* none: members go */
	m = clyde_test_figs_alloc(&t, &clyde_target_nfs);
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(!clyde_figs_all_ranks(&t)); /* nothing counted: they go */
	m->measured = true;
	m->rpcs = 9;
	m->bytes_sent = 4096;
	m->have_server = true;
	m->server_packets = 44;
	m->server_threads = 8;
	m->have_server_cpu = true;
	m->server_cpu_ns = 20000000;
	CHECK(clyde_figs_all_ranks(&t));
	CHECK(!m->measured && m->rpcs == 0 && m->bytes_sent == 0);
	CHECK(m->have_server && m->server_packets == 44 &&
	      m->server_threads == 8);
	CHECK(m->have_server_cpu && m->server_cpu_ns == 20000000);
	/* SMB has no rule of its own: rank 0's figures stay, members go. */
	CHECK(clyde_test_figs_alloc(&t, &clyde_target_cifs) != NULL);
	((struct clyde_cifs_moved *)t.figs.data)->measured = true;
	CHECK(!clyde_figs_all_ranks(&t));
	CHECK(((struct clyde_cifs_moved *)t.figs.data)->measured);
	/* A kind without figures (the block device) has none. */
	CHECK(clyde_test_figs_alloc(&t, &clyde_target_block) == NULL);
	CHECK(t.figs.kind == NULL && t.figs.data == NULL);
}

int main(void)
{
	test_smb();
	test_zfs();
	test_all_ranks();
	return tap_done();
}
