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
			"chunks)\n");
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
			"disks = 192 KiB; this test writes 8 KiB chunks)\n");
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
			"writes 8 KiB chunks)\n");
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
	/* One disk three times slower per byte. */
	m.m[1].io.io_ticks_ms = 3000;
	clyde_members_check(&m, true, 256 * MIB, &v);
	CHECK(v.slower && v.slow == 1 && !v.busier);
	CHECK(clyde_members_findings(text, sizeof(text), "block write", &m, &v,
				     NULL, 8192) == 1);
	CHECK(strstr(text, "block write: sdc was busy") != NULL);
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

int main(void)
{
	test_rmw_on_raid5();
	test_rmw_on_raid6_not_raid10();
	test_quiet_on_plain_disk();
	test_mirror_and_imbalance();
	test_watch();
	test_loop_backing();
	test_virt();
	test_text();
	return tap_done();
}
