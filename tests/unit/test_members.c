/*
 * The member disks: the watch over sysfs counters, the read-modify-write,
 * write-amplification and imbalance verdicts with their sentences (on an
 * md RAID5 stack from tests/fixtures/sysfs), the loop devices' backing
 * files, virtual-disk detection (tests/fixtures/members) and the text
 * and JSON they give.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/members.h"
#include "env/members_virt.h"
#include "env/stack.h"
#include "io/loopcache.h"
#include "results/members_check.h"
#include "results/members_json.h"
#include "results/members_text.h"
#include "tap.h"

#define MEMBERS CLYDE_FIXTURES_DIR "/members/"
#define SYSFS CLYDE_FIXTURES_DIR "/sysfs/"
#define MIB (1ull << 20)

/* A /sys/block/X/stat line with the given read and write sectors. */
static void counters(struct clyde_devstat *s, uint64_t rd_sect,
		     uint64_t wr_sect, uint64_t ticks)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "%llu 0 %llu 10 %llu 0 %llu 20 0 %llu 30 0 0 0 0 0 0",
		 (unsigned long long)(rd_sect / 256 + 1),
		 (unsigned long long)rd_sect,
		 (unsigned long long)(wr_sect / 256 + 1),
		 (unsigned long long)wr_sect, (unsigned long long)ticks);
	clyde_devstat_parse(line, s);
}

/* Member i of m did read/written bytes between two synthetic readings. */
static void member(struct clyde_members *m, const char *name, uint64_t read,
		   uint64_t written, uint64_t ticks)
{
	struct clyde_devstat before, after;
	struct clyde_member_io *io = &m->m[m->n++];

	counters(&before, 1000, 2000, 5);
	counters(&after, 1000 + read / 512, 2000 + written / 512, 5 + ticks);
	snprintf(io->name, sizeof(io->name), "%s", name);
	/* A disk of its own unless a test says otherwise. */
	snprintf(io->disk, sizeof(io->disk), "%s", name);
	clyde_devstat_delta(&before, &after, &io->io);
}

static int probe(const char *tree, const char *dev, struct clyde_stack *s)
{
	char root[1024];
	struct clyde_ctx ctx;
	int rc;

	snprintf(root, sizeof(root), "%s%s", SYSFS, tree);
	clyde_ctx_init(&ctx);
	rc = clyde_stack_probe(&ctx, root, dev, s);
	clyde_ctx_release(&ctx);
	return rc;
}

/* A run with a block write of `bytes` in 8 KiB chunks on stack tree/dev. */
static struct clyde_run *block_write_run(const char *tree, const char *dev,
					 uint64_t bytes)
{
	struct clyde_run *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	clyde_run_init(r);
	if (tree)
		CHECK(probe(tree, dev, &r->env.stack) == 0);
	r->params.io_chunk = 8192;
	r->tests[CLYDE_PUT_BLOCK].state = CLYDE_DONE;
	r->tests[CLYDE_PUT_BLOCK].bytes = bytes;
	return r;
}

static void free_run(struct clyde_run *r)
{
	clyde_run_release(r);
	free(r);
}

static void test_rmw_on_raid5(void)
{
	struct clyde_run *r =
		block_write_run("md-raid5-degraded", "md0", 1024 * MIB);
	struct clyde_members *m = &r->tests[CLYDE_PUT_BLOCK].members;
	struct clyde_members_verdict v;
	char text[2048];

	/* 312 MiB read back from three members while writing 1 GiB. */
	member(m, "sda1", 104 * MIB, 512 * MIB, 1000);
	member(m, "sdb1", 104 * MIB, 512 * MIB, 1000);
	member(m, "sdc1", 104 * MIB, 512 * MIB, 1000);
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(v.rmw);
	CHECK(v.counted == 3);
	CHECK(v.read_bytes == 312 * MIB);
	CHECK(v.wa_array > 1.49 && v.wa_array < 1.51);
	CHECK(!v.busier && !v.slower);
	CHECK(clyde_members_run_findings(text, sizeof(text), r, CLYDE_PUT_BLOCK,
					 &v) == 1);
	CHECK_STR(text, "block write read 312 MiB from the members: "
			"partial-stripe writes (stripe = 512 KiB x 3 data "
			"disks = 1.50 MiB; this test writes 8 KiB "
			"chunks); it costs the members 20.3% more I/O than "
			"the 1.50 GiB they wrote\n");
	/* A read test reading is no read-modify-write. */
	r->tests[CLYDE_GET_BLOCK] = r->tests[CLYDE_PUT_BLOCK];
	r->tests[CLYDE_GET_BLOCK].latency = NULL;
	clyde_members_check_run(r, CLYDE_GET_BLOCK, &v);
	CHECK(!v.rmw);
	free_run(r);
}

/* RAID6: the finding names the stripe over its 3 data disks of 5, and a
 * mirror (md raid10) has no parity to read back: no finding however much
 * it read. */
static void test_rmw_on_raid6_not_raid10(void)
{
	struct clyde_run *r = block_write_run("md-raid6", "md0", 600 * MIB);
	struct clyde_members *m = &r->tests[CLYDE_PUT_BLOCK].members;
	struct clyde_members_verdict v;
	char text[2048];
	const char *disks[] = { "sda", "sdb", "sdc", "sdd", "sde" };

	for (int i = 0; i < 5; i++)
		member(m, disks[i], 40 * MIB, 200 * MIB, 800);
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(v.rmw && v.counted == 5 && v.read_bytes == 200 * MIB);
	CHECK(clyde_members_run_findings(text, sizeof(text), r, CLYDE_PUT_BLOCK,
					 &v) == 1);
	CHECK_STR(text, "block write read 200 MiB from the members: "
			"partial-stripe writes (stripe = 64 KiB x 3 data "
			"disks = 192 KiB; this test writes 8 KiB chunks); it "
			"costs the members 20.0% more I/O than the 0.98 GiB "
			"they wrote\n");
	free_run(r);

	r = block_write_run("md-raid10", "md0", 600 * MIB);
	m = &r->tests[CLYDE_PUT_BLOCK].members;
	for (int i = 0; i < 4; i++)
		member(m, disks[i], 40 * MIB, 300 * MIB, 800);
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(!v.rmw && v.counted == 4);
	CHECK(v.wa_array > 1.99 && v.wa_array < 2.01); /* two copies */
	free_run(r);
}

/* A block write on RAID6 over 5 (stripe 192 KiB) with aligned XFS: the
 * array received ~1 MiB requests and the members read 1.9% of the data
 * (the stripe cache letting a few stripes go), which was the finding
 * "partial-stripe writes ... 8 KiB chunks" in 3 of 3 runs.  The same
 * reads with 8 KiB requests reaching the array are partial stripes; 6%
 * with full-stripe requests is worth saying, with what it costs. */
static void test_rmw_streaming_raid6(void)
{
	struct clyde_run *r = block_write_run("md-raid6", "md0", 600 * MIB);
	struct clyde_test_result *t = &r->tests[CLYDE_PUT_BLOCK];
	struct clyde_members_verdict v;
	char text[2048];
	const char *disks[] = { "sda", "sdb", "sdc", "sdd", "sde" };

	for (int i = 0; i < 5; i++)
		member(&t->members, disks[i], 600 * MIB / 5 * 19 / 1000,
		       200 * MIB, 800);
	t->dev = (struct clyde_devio){ .have_device = true,
				       .write_bytes = 600 * MIB,
				       .write_ios = 600 };
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(v.array_request_bytes == 1 * MIB && v.stripe_bytes == 192 << 10);
	CHECK(!v.rmw);
	CHECK(clyde_members_run_findings(text, sizeof(text), r, CLYDE_PUT_BLOCK,
					 &v) == 0);
	t->dev.write_ios = 600 * 128;
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(v.rmw && v.array_request_bytes == 8192);
	t->dev.write_ios = 600;
	for (int i = 0; i < 5; i++)
		t->members.m[i].io.read_bytes = 600 * MIB / 5 * 6 / 100;
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(v.rmw);
	clyde_members_run_findings(text, sizeof(text), r, CLYDE_PUT_BLOCK, &v);
	CHECK_STR(text, "block write read 36.0 MiB from the members: "
			"partial-stripe writes (stripe = 64 KiB x 3 data "
			"disks = 192 KiB; this test writes 8 KiB chunks, the "
			"array received 1.00 MiB requests on average); it "
			"costs the members 3.6% more I/O than the 0.98 GiB "
			"they wrote\n");
	free_run(r);
}

/* RAID10 near=2 over 4 (slots 0+1 and 2+3 mirror each other): md sends
 * each read to the copy it likes, so random seeks read 27.1 MiB from sda
 * and 8.86 MiB from sdd, which was "members unbalanced".  The members
 * are compared by their writes, the mirror sets by their sums. */
static void test_raid10_read_balancing(void)
{
	struct clyde_run *r = block_write_run("md-raid10", "md0", 0);
	struct clyde_test_result *t = &r->tests[CLYDE_SEEKS];
	struct clyde_members_verdict v;
	char text[2048];

	t->state = CLYDE_DONE;
	member(&t->members, "sda", 27100 * 1024, 3 * MIB, 900);
	member(&t->members, "sdb", 9 * MIB, 3 * MIB, 900);
	member(&t->members, "sdc", 27 * MIB, 3 * MIB, 900);
	member(&t->members, "sdd", 8860 * 1024, 3 * MIB, 900);
	clyde_members_check_run(r, CLYDE_SEEKS, &v);
	CHECK(v.by_writes && !v.busier && !v.sets_busier);
	CHECK(v.set[0] == 0 && v.set[1] == 0 && v.set[2] == 1 && v.set[3] == 1);
	CHECK(clyde_members_run_findings(text, sizeof(text), r, CLYDE_SEEKS,
					 &v) == 0);
	/* One member writing a third of its mirror's: a fault. */
	t->members.m[3].io.write_bytes = 1 * MIB;
	t->members.m[2].io.write_bytes = 12 * MIB;
	clyde_members_check_run(r, CLYDE_SEEKS, &v);
	CHECK(v.busier && v.busy == 2 && v.idle == 3);
	clyde_members_run_findings(text, sizeof(text), r, CLYDE_SEEKS, &v);
	CHECK(strstr(text, "members unbalanced: sdc wrote 12.0 MiB, sdd only "
			   "1.00 MiB") != NULL);
	/* One mirror set doing three times the other's: a fault too. */
	t->members.m[2].io.write_bytes = t->members.m[3].io.write_bytes =
		3 * MIB;
	t->members.m[0].io.read_bytes = 90 * MIB;
	clyde_members_check_run(r, CLYDE_SEEKS, &v);
	CHECK(!v.busier && v.sets_busier && v.busy_set == 0);
	clyde_members_run_findings(text, sizeof(text), r, CLYDE_SEEKS, &v);
	CHECK(strstr(text, "mirror sets unbalanced: sda+sdb moved 105 MiB, "
			   "sdc+sdd only 41.7 MiB") != NULL);
	/* Another test compared the members and found nothing: the count
	 * says 2 of them did, not 0. */
	t->members.m[0].io.read_bytes = 27 * MIB;
	for (int i = 0; i < 4; i++)
		t->members.m[i].io.io_ticks_ms =
			(t->members.m[i].io.read_bytes +
			 t->members.m[i].io.write_bytes) /
			(100 * 1024);
	r->tests[CLYDE_GET_BLOCK] = *t;
	r->tests[CLYDE_GET_BLOCK].latency = NULL;
	clyde_members_check_run(r, CLYDE_SEEKS, &v);
	CHECK(!v.slow_candidate && v.compared_tests == 2 && v.slow_tests == 0);
	free_run(r);
}

static void test_quiet_on_plain_disk(void)
{
	struct clyde_run *r =
		block_write_run("plain-disk", "nvme0n1", 1024 * MIB);
	struct clyde_members *m = &r->tests[CLYDE_PUT_BLOCK].members;
	struct clyde_members_verdict v;
	char text[256];

	/* A few bitmap and inode blocks read: far below 1% of the bytes. */
	member(m, "nvme0n1", 2 * MIB, 1030 * MIB, 900);
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(!v.rmw && !v.busier && !v.slower);
	CHECK(v.wa_array > 1.0 && v.wa_array < 1.01);
	CHECK(clyde_members_run_findings(text, sizeof(text), r, CLYDE_PUT_BLOCK,
					 &v) == 0);
	CHECK_STR(text, "");
	/* Even 100 MiB read while writing: no parity, so no partial
	 * stripes (other activity on the disk, metadata). */
	m->m[0].io.read_bytes = 100 * MIB;
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(!v.rmw);
	free_run(r);
	/* A result without a stack: the stripe is unknown and said so. */
	r = block_write_run(NULL, NULL, 1024 * MIB);
	m = &r->tests[CLYDE_PUT_BLOCK].members;
	member(m, "sdb", 100 * MIB, 1030 * MIB, 900);
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(v.rmw);
	clyde_members_run_findings(text, sizeof(text), r, CLYDE_PUT_BLOCK, &v);
	CHECK_STR(text, "block write read 100 MiB from the members: "
			"read-modify-write (stripe unknown; this test "
			"writes 8 KiB chunks); it costs the members 9.7% "
			"more I/O than the 1.01 GiB they wrote\n");
	free_run(r);
}

static void test_mirror_and_imbalance(void)
{
	struct clyde_members m = { 0 };
	struct clyde_members_verdict v;
	char text[1024];

	/* raid1 over two disks: each writes everything. */
	member(&m, "sdb", 0, 256 * MIB, 800);
	member(&m, "sdc", 0, 256 * MIB, 820);
	clyde_members_check(&m, true, 256 * MIB, &v);
	CHECK(v.wa_array > 1.99 && v.wa_array < 2.01);
	CHECK(v.wa[0] > 0.99 && v.wa[0] < 1.01);
	CHECK(!v.busier && !v.slower && !v.rmw);
	/* One disk three times slower per byte: a candidate, named only
	 * when other tests bear it out (test_slow_member). */
	m.m[1].io.io_ticks_ms = 3000;
	clyde_members_check(&m, true, 256 * MIB, &v);
	CHECK(v.slow_candidate && v.slow == 1 && !v.busier && !v.slower);
	CHECK(clyde_members_findings(text, sizeof(text), "block write", &m, &v,
				     NULL, 8192) == 0);
	clyde_members_confirm_slow(&v, 2, 3);
	CHECK(v.slower);
	CHECK(clyde_members_findings(text, sizeof(text), "block write", &m, &v,
				     NULL, 8192) == 1);
	CHECK(strstr(text, "block write: sdc was busy") != NULL);
	CHECK(strstr(text, "(slow in 2 of 3 tests that compared them") != NULL);
	clyde_members_confirm_slow(&v, 2, 4);
	CHECK(!v.slower);
	/* One disk doing almost nothing. */
	m.m[1].io.io_ticks_ms = 820;
	m.m[1].io.write_bytes = 1 * MIB;
	clyde_members_check(&m, true, 256 * MIB, &v);
	CHECK(v.busier && v.busy == 0 && v.idle == 1);
	clyde_members_findings(text, sizeof(text), "block write", &m, &v, NULL,
			       8192);
	CHECK_STR(text, "block write: members unbalanced: sdb moved 256 MiB, "
			"sdc only 1.00 MiB\n");
	/* The creates write metadata: the members' writes are the base. */
	memset(&m, 0, sizeof(m));
	member(&m, "sdb", 512 * 1024, 8 * MIB, 100);
	clyde_members_check(&m, true, 0, &v);
	CHECK(!v.rmw && v.wa_array < 0);
	member(&m, "sdc", 1 * MIB, 8 * MIB, 100);
	clyde_members_check(&m, true, 0, &v);
	CHECK(v.rmw);
}

static void test_watch(void)
{
	struct clyde_member_watch w;
	struct clyde_members out;

	clyde_members_init(&w, MEMBERS "virt");
	CHECK(clyde_members_add(&w, "sdd") == 0);
	CHECK(clyde_members_add(&w, "sdd") == 0);
	CHECK(clyde_members_add(&w, "nosuch") == 0);
	CHECK(w.n == 2);
	clyde_members_begin(&w);
	clyde_members_end(&w, &out);
	CHECK(out.n == 2);
	CHECK_STR(out.m[0].name, "sdd");
	CHECK(out.m[0].io.have_device);
	CHECK(out.m[0].io.read_bytes == 0 && out.m[0].io.write_bytes == 0);
	CHECK(!out.m[1].io.have_device);
	for (int i = 0; i < CLYDE_MAX_MEMBERS + 2; i++) {
		char name[16];

		snprintf(name, sizeof(name), "d%d", i);
		clyde_members_add(&w, name);
	}
	CHECK(w.n == CLYDE_MAX_MEMBERS);
	CHECK(clyde_members_add(&w, "one-more") == -ENOSPC);
}

static void test_loop_backing(void)
{
	struct clyde_member_watch w;
	struct clyde_loop_backing b;
	struct clyde_loopcache lc;

	CHECK(clyde_loop_backing_read(MEMBERS "virt", "loop3", &b) == 0);
	CHECK_STR(b.file, "/srv/images/disk3.img");
	CHECK(!b.dio && b.offset == MIB && b.sizelimit == 256 * MIB);
	CHECK(clyde_loop_backing_read(MEMBERS "virt", "loop4", &b) == 0);
	CHECK_STR(b.file, "/srv/images/old.img");
	CHECK(b.dio);
	CHECK(clyde_loop_backing_read(MEMBERS "virt", "sdd", &b) == -ENOENT);
	/* Only the loop devices without direct I/O are watched. */
	clyde_members_init(&w, MEMBERS "virt");
	clyde_members_add(&w, "sdd");
	clyde_members_add(&w, "loop4");
	clyde_members_add(&w, "loop3");
	clyde_loopcache_find(&lc, &w);
	CHECK(lc.n == 1);
	CHECK_STR(lc.b[0].dev, "loop3");
}

static void test_virt(void)
{
	static const struct {
		const char *root, *dev, *disk, *kind;
	} cases[] = {
		{ "virt", "vda", "vda", "virtio" },
		{ "virt", "vda1", "vda", "virtio" },
		{ "virt", "sdb", "sdb", "vmware" },
		{ "virt", "sdc", "sdc", "hyper-v" },
		{ "virt", "xvda", "xvda", "xen" },
		{ "virt", "sdd", "sdd", NULL },
		{ "virt", "loop3", "loop3", NULL },
		{ "virt-dmi", "sda", "sda", "hyper-v" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char root[1024];
		struct clyde_virt v;
		int rc;

		snprintf(root, sizeof(root), "%s%s", MEMBERS, cases[i].root);
		rc = clyde_virt_detect(root, cases[i].dev, &v);
		CHECK(rc == (cases[i].kind != NULL));
		CHECK(v.is_virtual == (cases[i].kind != NULL));
		CHECK_STR(v.disk, cases[i].disk);
		if (cases[i].kind)
			CHECK_STR(v.kind, cases[i].kind);
	}
}

/* The text: a loop mark for a cached backing file, nothing without. */
static void test_text(void)
{
	struct clyde_run *r = block_write_run(NULL, NULL, 0);
	struct clyde_test_result *t = &r->tests[CLYDE_GET_BLOCK];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	t->state = CLYDE_DONE;
	t->cache.measured = true;
	t->cache.total_bytes = 1024 * MIB;
	t->cache.loop.measured = true;
	snprintf(t->cache.loop.dev, sizeof(t->cache.loop.dev), "loop3");
	t->cache.loop.resident_before = 1024 * MIB;
	t->cache.loop.resident_bytes = 900 * MIB;
	t->cache.loop.range_bytes = 4096 * MIB;
	CHECK(clyde_loop_fraction(&t->cache.loop, t->cache.total_bytes) > 0.87);
	f = open_memstream(&buf, &len);
	CHECK(clyde_members_text_write(f, r, 1, false) == 0);
	fclose(f);
	CHECK(strstr(buf, "clyde: warning: block read: 88% of its data was "
			  "in the page cache of loop3's backing file") != NULL);
	CHECK(strstr(buf, "losetup --direct-io=on /dev/loop3") != NULL);
	free(buf);
	/* Evicted: cold for real, no warning, a note of what was done. */
	t->cache.loop.evicted = true;
	t->cache.loop.resident_bytes = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(clyde_members_text_write(f, r, 1, false) == 0);
	fclose(f);
	CHECK(strstr(buf, "warning") == NULL);
	CHECK(strstr(buf, "loop3 has no direct I/O: its backing file's pages "
			  "were evicted") != NULL);
	free(buf);
	/* No loop device: nothing at all. */
	memset(&t->cache.loop, 0, sizeof(t->cache.loop));
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(clyde_members_text_write(f, r, 1, true) == 0);
	fclose(f);
	CHECK_STR(buf, "");
	free(buf);
	free_run(r);
}

/* A run whose block write, rewrite and block read each moved 256 MiB on
 * sdb and sdc in the given busy milliseconds. */
static struct clyde_run *two_member_run(const unsigned ms_b[3],
					const unsigned ms_c[3])
{
	static const enum clyde_test ids[3] = { CLYDE_PUT_BLOCK, CLYDE_REWRITE,
						CLYDE_GET_BLOCK };
	struct clyde_run *r = block_write_run(NULL, NULL, 256 * MIB);

	for (int i = 0; i < 3; i++) {
		struct clyde_test_result *t = &r->tests[ids[i]];

		t->state = CLYDE_DONE;
		t->bytes = 256 * MIB;
		member(&t->members, "sdb", 0, 256 * MIB, ms_b[i]);
		member(&t->members, "sdc", 0, 256 * MIB, ms_c[i]);
	}
	return r;
}

/* A slow member needs evidence across tests, on disks of their own; a
 * real slow disk (dm-delay on one md member) is still named. */
static void test_slow_member(void)
{
	static const unsigned even[3] = { 800, 800, 800 };
	static const unsigned slow[3] = { 6700, 5000, 4000 };
	static const unsigned once[3] = { 6700, 800, 800 };
	struct clyde_members_verdict v;
	struct clyde_run *r;
	char text[1024];

	/* sdc slow in every test: named in each, and only sdc. */
	r = two_member_run(even, slow);
	for (int id = CLYDE_PUT_BLOCK; id <= CLYDE_GET_BLOCK; id++) {
		if (id == CLYDE_GETC)
			continue;
		clyde_members_check_run(r, (enum clyde_test)id, &v);
		CHECK(v.slower && v.slow == 1 && v.fast == 0);
		CHECK(v.slow_tests == 3 && v.compared_tests == 3);
		clyde_members_run_findings(text, sizeof(text), r,
					   (enum clyde_test)id, &v);
		CHECK(strstr(text, ": sdc was busy") != NULL);
		CHECK(strstr(text, "sdb was busy") == NULL);
	}
	free_run(r);
	/* One test's spike (the 8.4x on idle loop devices): no finding. */
	r = two_member_run(even, once);
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(v.slow_candidate && !v.slower && v.slow_tests == 1);
	CHECK(clyde_members_run_findings(text, sizeof(text), r, CLYDE_PUT_BLOCK,
					 &v) == 0);
	free_run(r);
	/* Loop devices whose backing files are on one disk share its
	 * queue: never compared, however slow one looks. */
	r = two_member_run(even, slow);
	for (int id = CLYDE_PUT_BLOCK; id <= CLYDE_GET_BLOCK; id++)
		for (unsigned k = 0; k < r->tests[id].members.n; k++)
			snprintf(r->tests[id].members.m[k].disk,
				 sizeof(r->tests[id].members.m[k].disk), "vda");
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(!v.slow_candidate && !v.slower && !v.slow_compared);
	/* ... nor when the disk under a loop device is not known. */
	for (int id = CLYDE_PUT_BLOCK; id <= CLYDE_GET_BLOCK; id++)
		r->tests[id].members.m[1].disk[0] = '\0';
	clyde_members_check_run(r, CLYDE_PUT_BLOCK, &v);
	CHECK(!v.slower);
	free_run(r);
}

/* An xfs external log or ext4 journal device is in its role, never
 * unbalanced against the data device. */
static void test_roles(void)
{
	struct clyde_stack_node nodes[3];
	struct clyde_stack s;
	struct clyde_member_watch w;
	struct clyde_members m = { 0 };
	struct clyde_members_verdict v;
	char text[1024];

	memset(nodes, 0, sizeof(nodes));
	memset(&s, 0, sizeof(s));
	snprintf(nodes[0].name, sizeof(nodes[0].name), "loop0");
	snprintf(nodes[1].name, sizeof(nodes[1].name), "loop1");
	snprintf(nodes[2].name, sizeof(nodes[2].name), "loop2");
	nodes[0].kind = nodes[1].kind = nodes[2].kind = &clyde_stack_loop;
	s.nodes = nodes;
	s.nnodes = 3;
	s.ntop = 2;
	s.top[0] = 0;
	s.top[1] = 2;
	s.has_fs = true;
	snprintf(s.fs.type, sizeof(s.fs.type), "xfs");
	s.fs.journal = CLYDE_JOURNAL_EXTERNAL;
	snprintf(s.fs.journal_dev, sizeof(s.fs.journal_dev), "loop1");
	clyde_members_init(&w, MEMBERS "virt");
	clyde_members_add(&w, "loop0");
	clyde_members_add(&w, "loop1");
	clyde_members_add(&w, "loop2");
	clyde_members_describe(&w, &s);
	CHECK(w.role[0] == CLYDE_ROLE_DATA && w.role[1] == CLYDE_ROLE_LOG &&
	      w.role[2] == CLYDE_ROLE_DATA);
	CHECK(w.is_top[0] && !w.is_top[1] && w.is_top[2]);
	CHECK_STR(clyde_member_role_name(CLYDE_ROLE_LOG), "log");
	snprintf(s.fs.type, sizeof(s.fs.type), "ext4");
	clyde_members_describe(&w, &s);
	CHECK(w.role[1] == CLYDE_ROLE_JOURNAL);
	CHECK_STR(clyde_member_role_name(w.role[1]), "journal");
	/* The disk that stores each: a partition's disk, a disk itself; a
	 * loop device whose backing file is not there: not known. */
	clyde_members_init(&w, MEMBERS "virt");
	clyde_members_add(&w, "vda1");
	clyde_members_add(&w, "sdd");
	clyde_members_add(&w, "loop3");
	clyde_members_describe(&w, &s);
	CHECK_STR(w.disk[0], "vda");
	CHECK_STR(w.disk[1], "sdd");
	CHECK_STR(w.disk[2], "");
	/* The journal moved 128 MiB, the one data disk 3 KiB: the old
	 * "members unbalanced: loop1 moved 128 MiB, loop0 only 3 KiB". */
	member(&m, "loop0", 0, 3 * 1024, 10);
	member(&m, "loop1", 0, 128 * MIB, 900);
	m.m[1].role = CLYDE_ROLE_LOG;
	clyde_members_check(&m, false, 0, &v);
	CHECK(!v.busier && !v.slower && v.counted == 2 && v.counted_data == 1);
	CHECK(clyde_members_findings(text, sizeof(text), "sequential create",
				     &m, &v, NULL, 0) == 0);
	/* Two data disks are still compared with each other. */
	member(&m, "loop2", 0, 128 * MIB, 900);
	clyde_members_check(&m, false, 0, &v);
	CHECK(v.busier && v.busy == 2 && v.idle == 0);
}

/* Write `text` to root/rel, making its directories. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[1024], cmd[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	CHECK(system(cmd) == 0);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* An md array that loses a member between the start and the end of a
 * test: the watch names it (clyde_members_end), and run's text and
 * JSON flag that test's figures; an array that was degraded already,
 * or that recovers, is no news. */
static void test_degraded_during(void)
{
	char root[] = "/tmp/clyde-test-members.XXXXXX", cmd[256];
	const char *stat = "1 0 8 0 1 0 8 0 0 0 0\n";
	struct clyde_member_watch w;
	struct clyde_stack_node nodes[3];
	struct clyde_stack s;
	struct clyde_members m;
	struct clyde_run *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(mkdtemp(root) != NULL);
	put(root, "sys/class/block/vdb/stat", stat);
	put(root, "sys/class/block/vdc/stat", stat);
	put(root, "sys/block/md0/md/degraded", "0\n");
	memset(&s, 0, sizeof(s));
	memset(nodes, 0, sizeof(nodes));
	s.nodes = nodes;
	s.nnodes = 3;
	snprintf(s.nodes[0].name, sizeof(s.nodes[0].name), "md0");
	s.nodes[0].kind = &clyde_stack_md;
	s.nodes[0].raid_disks = 4;
	snprintf(s.nodes[1].name, sizeof(s.nodes[1].name), "vdb");
	snprintf(s.nodes[2].name, sizeof(s.nodes[2].name), "vdc");
	clyde_members_init(&w, root);
	clyde_members_add(&w, "vdb");
	clyde_members_add(&w, "vdc");
	clyde_members_describe(&w, &s);
	CHECK(w.nmd == 1);
	clyde_members_begin(&w);
	clyde_members_end(&w, &m);
	CHECK_STR(m.degraded, "");
	clyde_members_begin(&w);
	put(root, "sys/block/md0/md/degraded", "1\n");
	clyde_members_end(&w, &m);
	CHECK_STR(m.degraded, "md0: 0 -> 1 of 4 members missing");
	/* Degraded from the start, or back to fewer missing: not flagged. */
	clyde_members_begin(&w);
	clyde_members_end(&w, &m);
	CHECK_STR(m.degraded, "");
	clyde_members_begin(&w);
	put(root, "sys/block/md0/md/degraded", "0\n");
	clyde_members_end(&w, &m);
	CHECK_STR(m.degraded, "");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);

	/* clyde run's text: a warning naming the test. */
	r = block_write_run(NULL, NULL, 0);
	r->tests[CLYDE_PUT_BLOCK].state = CLYDE_DONE;
	snprintf(r->tests[CLYDE_PUT_BLOCK].members.degraded,
		 sizeof(r->tests[CLYDE_PUT_BLOCK].members.degraded),
		 "md0: 0 -> 1 of 4 members missing");
	f = open_memstream(&buf, &len);
	CHECK(clyde_members_text_write(f, r, 1, false) == 0);
	fclose(f);
	CHECK_STR(buf, "clyde: warning: block write: the array degraded "
		       "during the test (md0: 0 -> 1 of 4 members missing): "
		       "its figures are of a degraded array\n");
	free(buf);
	/* The JSON key, a string or null. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	{
		struct clyde_jw jw;

		clyde_jw_init(&jw, f);
		clyde_jw_open(&jw, NULL, '{');
		clyde_jw_degraded(&jw, &r->tests[CLYDE_PUT_BLOCK].members);
		clyde_jw_close(&jw, '}');
	}
	fclose(f);
	CHECK(strstr(buf, "\"degraded_during\": "
			  "\"md0: 0 -> 1 of 4 members missing\"") != NULL);
	free(buf);
	free_run(r);
}

int main(void)
{
	test_rmw_on_raid5();
	test_rmw_on_raid6_not_raid10();
	test_quiet_on_plain_disk();
	test_mirror_and_imbalance();
	test_rmw_streaming_raid6();
	test_raid10_read_balancing();
	test_watch();
	test_loop_backing();
	test_virt();
	test_text();
	test_slow_member();
	test_roles();
	test_degraded_during();
	return tap_done();
}
