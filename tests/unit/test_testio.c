/*
 * A test's device figures belong to the test (results/testio.h): clyde's
 * own I/O from the kernel's accounting (env/ownio.h: /proc/self/io and a
 * cgroup of its own), the other I/O beside it, the sum over the stack's
 * leaves with the top device's share, the write amplification; and the
 * look at the devices before a test (env/settle.h).  The cases are the
 * ones seen on loop-device stacks: putc "WA 8.80x", 22.8 MiB read during
 * a write-only putc, a read-only tree walk that "wrote 272.8 MB", btrfs
 * raid5 over 3 and 4 loop devices at "WA 0.50x" and "0.33x".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env/ownio.h"
#include "env/settle.h"
#include "results/testio.h"
#include "tap.h"

#define MIB (1ull << 20)
#define KIB 1024ull

static struct clyde_devio dev(uint64_t rd, uint64_t wr)
{
	return (struct clyde_devio){ .have_device = true,
				     .read_bytes = rd,
				     .write_bytes = wr };
}

static void leaf(struct clyde_members *m, const char *name, bool top,
		 uint64_t rd, uint64_t wr)
{
	struct clyde_member_io *x = &m->m[m->n++];

	snprintf(x->name, sizeof(x->name), "%s", name);
	x->is_top = top;
	x->io = dev(rd, wr);
}

static struct clyde_ownio task(uint64_t rd, uint64_t wr)
{
	return (struct clyde_ownio){ .source = CLYDE_OWN_TASK,
				     .have_top = true,
				     .top_read_bytes = rd,
				     .top_write_bytes = wr };
}

static bool near(double a, double b)
{
	return a > b - 0.005 && a < b + 0.005;
}

/* One loop device under ext4: the putc and tree-walk cases. */
static void test_plain_device(void)
{
	struct clyde_members m = { 0 };
	struct clyde_devio top;
	struct clyde_ownio own;
	struct clyde_test_io io;

	/* putc wrote 3 MiB; the device wrote 26.4 MiB meanwhile (an earlier
	 * writeback, ext4's lazy inode-table init) and read 22.8 MiB: the
	 * old "WA 8.80x", "22.8 MiB read during a write-only putc". */
	top = dev(22.8 * MIB, 26.4 * MIB);
	leaf(&m, "loop0", true, top.read_bytes, top.write_bytes);
	own = task(0, 3 * MIB);
	clyde_test_io_compute(&top, &m, &own, 3 * MIB, &io);
	CHECK(io.have && io.attributed && !io.on_leaves && !io.have_top);
	CHECK(io.read == 0 && io.write == 3 * MIB);
	CHECK(io.other_read == top.read_bytes);
	CHECK(io.other_write == top.write_bytes - 3 * MIB);
	CHECK(near(io.wa, 1.00));
	CHECK(clyde_test_io_other_shown(&io));
	/* Without the kernel's accounting the totals stay, said so. */
	clyde_test_io_compute(&top, &m, NULL, 3 * MIB, &io);
	CHECK(!io.attributed && near(io.wa, 8.80));
	CHECK(io.write == top.write_bytes && !clyde_test_io_other_shown(&io));

	/* A read-only walk: 10 MiB read by clyde, 272.8 MB written by the
	 * writeback of the extract before it. */
	m.n = 0;
	top = dev(10 * MIB, 272800000);
	leaf(&m, "loop0", true, top.read_bytes, top.write_bytes);
	own = task(10 * MIB, 0);
	clyde_test_io_compute(&top, &m, &own, 0, &io);
	CHECK(io.attributed && io.read == 10 * MIB && io.write == 0);
	CHECK(io.other_write == 272800000 && io.other_read == 0);
	CHECK(io.wa < 0);

	/* clyde's own dirty pages not yet written back: its share is at
	 * most all of what the device did, never more. */
	m.n = 0;
	top = dev(0, 8 * MIB);
	leaf(&m, "loop0", true, 0, 8 * MIB);
	own = task(0, 32 * MIB);
	clyde_test_io_compute(&top, &m, &own, 32 * MIB, &io);
	CHECK(io.write == 8 * MIB && io.other_write == 0);
	/* A little journal beside 32 MiB of data is not worth a line. */
	m.n = 0;
	top = dev(0, 32 * MIB + 16 * KIB);
	leaf(&m, "loop0", true, 0, top.write_bytes);
	own = task(0, 32 * MIB);
	clyde_test_io_compute(&top, &m, &own, 32 * MIB, &io);
	CHECK(io.attributed && io.other_write == 16 * KIB);
	CHECK(!clyde_test_io_other_shown(&io));
	/* No member list (a result without a stack): the top device. */
	clyde_test_io_compute(&top, NULL, &own, 32 * MIB, &io);
	CHECK(io.have && io.attributed && io.write == 32 * MIB);

	/* Other processes known: with none writing, the device's writes
	 * beyond clyde's are the filesystem's for clyde (its journal);
	 * with a writer that dirtied 20 MiB during a read-only walk while
	 * the device wrote 96 MiB (its earlier pages' writeback), the rest
	 * is not clyde's filesystem's: all 96 MiB stay other I/O. */
	m.n = 0;
	top = dev(0, 32 * MIB + 9 * MIB);
	leaf(&m, "loop0", true, 0, top.write_bytes);
	own = task(0, 32 * MIB);
	own.have_others = true;
	clyde_test_io_compute(&top, &m, &own, 32 * MIB, &io);
	CHECK(io.others_known && io.fs_write == 9 * MIB && io.other_write == 0);
	m.n = 0;
	top = dev(10 * MIB, 96 * MIB);
	leaf(&m, "loop0", true, top.read_bytes, top.write_bytes);
	own = task(10 * MIB, 0);
	own.have_others = true;
	own.others_procs = 1;
	own.others_write_bytes = 20 * MIB;
	clyde_test_io_compute(&top, &m, &own, 0, &io);
	CHECK(io.fs_write == 0 && io.other_write == 96 * MIB);
	CHECK(io.fs_read == 0 && io.other_read == 0 && io.read == 10 * MIB);
	/* The same walk with the writer's pages dirtied before it: nobody
	 * wrote during it, the device wrote 96 MiB of that backlog; clyde
	 * wrote nothing, so none of it is its filesystem's. */
	own.others_write_bytes = 0;
	clyde_test_io_compute(&top, &m, &own, 0, &io);
	CHECK(io.fs_write == 0 && io.other_write == 96 * MIB);
	/* clyde wrote 32 MiB while another process wrote 20: the device's
	 * 40 MiB beyond clyde's are not its filesystem's work for clyde
	 * (the writer's writeback is among them); all stay other I/O. */
	m.n = 0;
	top = dev(0, 72 * MIB);
	leaf(&m, "loop0", true, 0, top.write_bytes);
	own = task(0, 32 * MIB);
	own.have_others = true;
	own.others_procs = 1;
	own.others_write_bytes = 20 * MIB;
	clyde_test_io_compute(&top, &m, &own, 32 * MIB, &io);
	CHECK(io.others_known && io.write == 32 * MIB);
	CHECK(io.fs_write == 0 && io.other_write == 40 * MIB);
}

/* btrfs raid5 over n loop devices: the filesystem sits on all of them
 * and the target's device is one of them. */
static void test_btrfs_raid5(void)
{
	for (unsigned n = 3; n <= 4; n++) {
		struct clyde_members m = { 0 };
		struct clyde_ownio own = task(0, 96 * MIB);
		struct clyde_devio top;
		struct clyde_test_io io;
		uint64_t each = 96 * MIB / (n - 1); /* data + parity */

		for (unsigned i = 0; i < n; i++) {
			char name[16];

			snprintf(name, sizeof(name), "loop%u", i);
			leaf(&m, name, true, 0, each);
		}
		top = dev(0, each);
		clyde_test_io_compute(&top, &m, &own, 96 * MIB, &io);
		CHECK(io.on_leaves && io.nleaves == n);
		/* Not 0.50 (3) or 0.33 (4): the top device alone. */
		CHECK(near(io.wa, n == 3 ? 1.50 : 1.33));
		CHECK(io.have_top && io.top_write == each);
		/* The filesystem's total is on no one device: no share. */
		CHECK(!io.attributed);
		/* A cgroup of clyde's own knows its bytes on every leaf. */
		own = (struct clyde_ownio){ .source = CLYDE_OWN_CGROUP,
					    .have_leaves = true,
					    .leaves_write_bytes = n * each };
		m.m[0].io.write_bytes += 40 * MIB; /* someone else's */
		clyde_test_io_compute(&top, &m, &own, 96 * MIB, &io);
		CHECK(io.attributed && io.source == CLYDE_OWN_CGROUP);
		CHECK(io.write == n * each && io.other_write == 40 * MIB);
		CHECK(near(io.wa, n == 3 ? 1.50 : 1.33));
	}
}

/* md raid5 over three disks: the top device md0 carries the
 * filesystem's I/O, the members the parity too. */
static void test_md_raid5(void)
{
	struct clyde_members m = { 0 };
	struct clyde_devio top = dev(0, 100 * MIB);
	struct clyde_ownio own = task(0, 50 * MIB);
	struct clyde_test_io io;

	leaf(&m, "sda", false, 0, 50 * MIB);
	leaf(&m, "sdb", false, 0, 50 * MIB);
	leaf(&m, "sdc", false, 0, 50 * MIB);
	/* Half of md0's writes were clyde's: half of the members'. */
	clyde_test_io_compute(&top, &m, &own, 50 * MIB, &io);
	CHECK(io.attributed && io.on_leaves && io.have_top);
	CHECK(io.write == 75 * MIB && io.other_write == 75 * MIB);
	CHECK(near(io.wa, 1.50));
	/* Nothing reached md0, the members wrote (a resync): not clyde's,
	 * even with its dirty pages waiting. */
	top = dev(0, 0);
	clyde_test_io_compute(&top, &m, &own, 50 * MIB, &io);
	CHECK(io.attributed && io.write == 0 && io.other_write == 150 * MIB);
	/* A block write on RAID5/6: the members read 4.80 MiB of old data
	 * and parity to complete partial stripes, md0 read 12 KiB of
	 * metadata, clyde none of it.  The members' reads serve clyde's
	 * writes: clyde's, not "other I/O" (they were, by its 0 share of
	 * md0's reads, or all its by chance when it read the 12 KiB). */
	top = dev(12 * KIB, 100 * MIB);
	own = task(0, 100 * MIB);
	m.m[0].io.read_bytes = 12 * KIB + 1600 * KIB;
	m.m[1].io.read_bytes = 1600 * KIB;
	m.m[2].io.read_bytes = 1600 * KIB;
	clyde_test_io_compute(&top, &m, &own, 50 * MIB, &io);
	CHECK(io.attributed && io.total_read == 12 * KIB + 4800 * KIB);
	CHECK(io.read == 4800 * KIB && io.other_read == 12 * KIB);
	CHECK(!clyde_test_io_other_shown(&io));
	/* Half of md0's writes clyde's: half of the array's own reads. */
	own = task(0, 50 * MIB);
	clyde_test_io_compute(&top, &m, &own, 50 * MIB, &io);
	CHECK(io.read == 2400 * KIB && io.other_read == 2412 * KIB);
	/* Reads passed through md0 go by clyde's share of md0's reads. */
	top = dev(4 * MIB, 0);
	own = task(1 * MIB, 0);
	for (unsigned i = 0; i < 3; i++)
		m.m[i] = (struct clyde_member_io){ .io = dev(4 * MIB / 3, 0) };
	m.m[0].io.read_bytes += 4 * MIB - 3 * (4 * MIB / 3);
	clyde_test_io_compute(&top, &m, &own, 0, &io);
	CHECK(io.read == 1 * MIB && io.other_read == 3 * MIB);
	for (unsigned i = 0; i < 3; i++)
		m.m[i].io = dev(0, 50 * MIB);
	top = dev(0, 100 * MIB);
	/* An xfs log on a fourth disk is summed too (the test's journal). */
	leaf(&m, "sdd", false, 0, 4 * MIB);
	m.m[3].role = CLYDE_ROLE_LOG;
	own = task(0, 100 * MIB);
	clyde_test_io_compute(&top, &m, &own, 100 * MIB, &io);
	CHECK(io.write == 154 * MIB && near(io.wa, 1.54));
	/* A leaf that is the top device with a log device beside it: the
	 * filesystem's data is on that one leaf. */
	memset(&m, 0, sizeof(m));
	leaf(&m, "loop0", true, 0, 10 * MIB);
	leaf(&m, "loop1", false, 0, 128 * MIB);
	m.m[1].role = CLYDE_ROLE_LOG;
	top = dev(0, 10 * MIB);
	own = task(0, 10 * MIB);
	clyde_test_io_compute(&top, &m, &own, 10 * MIB, &io);
	CHECK(io.attributed && io.write == 138 * MIB);
}

static void test_rows(void)
{
	struct clyde_test_io a = { 0 }, b;
	struct clyde_members m = { 0 };
	struct clyde_devio top = dev(0, 20 * MIB);
	struct clyde_ownio own = task(0, 10 * MIB);

	leaf(&m, "loop0", true, 0, 20 * MIB);
	clyde_test_io_compute(&top, &m, &own, 10 * MIB, &b);
	clyde_test_io_add(&a, &b, 10 * MIB);
	clyde_test_io_add(&a, &b, 20 * MIB);
	CHECK(a.write == 20 * MIB && a.other_write == 20 * MIB);
	CHECK(near(a.wa, 1.0));
}

static void test_parse(void)
{
	uint64_t r, w;

	CHECK(clyde_own_parse_io("rchar: 100\nwchar: 200\nsyscr: 1\n"
				 "syscw: 2\nread_bytes: 4096\n"
				 "write_bytes: 81920\n"
				 "cancelled_write_bytes: 8192\n",
				 &r, &w) == 0);
	CHECK(r == 4096 && w == 73728);
	CHECK(clyde_own_parse_io("rchar: 100\n", &r, &w) == -EINVAL);
	CHECK(clyde_own_parse_iostat(
		      "7:0 rbytes=1024 wbytes=2048 rios=1 wios=2 dbytes=0 "
		      "dios=0\n"
		      "7:1 rbytes=10 wbytes=20 rios=1 wios=1 dbytes=0 dios=0\n",
		      7, 1, &r, &w) == 0);
	CHECK(r == 10 && w == 20);
	CHECK(clyde_own_parse_iostat("7:0 rbytes=1 wbytes=2\n", 8, 0, &r, &w) ==
	      0);
	CHECK(r == 0 && w == 0);
	CHECK(clyde_own_parse_iostat("garbage\n", 8, 0, &r, &w) == -EINVAL);
}

/* A fake /proc and /sys under dir: put text at dir/rel. */
static void put(const char *dir, const char *rel, const char *text)
{
	char path[4096], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static char path_buf[4096];

static void test_sources(const char *dir)
{
	struct clyde_own_watch w;
	struct clyde_ownio out;
	uint32_t maj[2] = { 7, 7 }, min[2] = { 0, 1 };

	/* In a cgroup of its own (pid 100 and its child 101): io.stat. */
	put(dir, "proc/100/cgroup", "0::/system.slice/run-u7.scope\n");
	put(dir, "proc/101/stat", "101 (sh (x)) S 100 101 1 0\n");
	put(dir, "proc/102/stat", "102 (bash) S 1 102 1 0\n");
	put(dir, "sys/fs/cgroup/system.slice/run-u7.scope/cgroup.procs",
	    "100\n101\n");
	put(dir, "sys/fs/cgroup/system.slice/run-u7.scope/io.stat",
	    "7:0 rbytes=0 wbytes=4096\n7:1 rbytes=0 wbytes=4096\n");
	put(dir, "proc/self/io", "read_bytes: 0\nwrite_bytes: 0\n");
	clyde_own_setup(&w, dir, 100, 0, 0, maj, min, 2);
	CHECK(w.source == CLYDE_OWN_CGROUP);
	CHECK_STR(w.cgroup, "/system.slice/run-u7.scope");
	clyde_own_begin(&w);
	put(dir, "sys/fs/cgroup/system.slice/run-u7.scope/io.stat",
	    "7:0 rbytes=8192 wbytes=1052672\n7:1 rbytes=0 wbytes=1052672\n");
	clyde_own_end(&w, &out);
	CHECK(out.source == CLYDE_OWN_CGROUP && out.have_leaves);
	CHECK(out.leaves_write_bytes == 2 * MIB &&
	      out.leaves_read_bytes == 8192);
	CHECK(!out.have_top);
	CHECK_STR(out.cgroup, "/system.slice/run-u7.scope");
	/* Another process in it (a login shell's scope): not its own. */
	put(dir, "sys/fs/cgroup/system.slice/run-u7.scope/cgroup.procs",
	    "100\n101\n102\n");
	clyde_own_setup(&w, dir, 100, 0, 0, maj, min, 2);
	CHECK(w.source == CLYDE_OWN_TASK && !w.cgroup[0]);
	clyde_own_begin(&w);
	put(dir, "proc/self/io",
	    "read_bytes: 4096\nwrite_bytes: 3149824\n"
	    "cancelled_write_bytes: 1052672\n");
	clyde_own_end(&w, &out);
	CHECK(out.source == CLYDE_OWN_TASK && out.have_top);
	CHECK(out.top_read_bytes == 4096 && out.top_write_bytes == 2 * MIB);
	/* A hybrid system: cgroup v2 is mounted at /sys/fs/cgroup/unified,
	 * as /proc/self/mountinfo says. */
	put(dir, "proc/self/mountinfo",
	    "25 30 0:22 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
	    "26 30 0:23 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 "
	    "rw\n");
	put(dir, "proc/100/cgroup", "4:memory:/x\n0::/own.scope\n");
	put(dir, "sys/fs/cgroup/unified/own.scope/cgroup.procs", "100\n");
	put(dir, "sys/fs/cgroup/unified/own.scope/io.stat",
	    "7:1 rbytes=0 wbytes=0\n");
	clyde_own_setup(&w, dir, 100, 0, 0, maj, min, 2);
	CHECK(w.source == CLYDE_OWN_CGROUP);
	CHECK_STR(w.mount, "/sys/fs/cgroup/unified");
	snprintf(path_buf, sizeof(path_buf), "%s/proc/self/mountinfo", dir);
	unlink(path_buf);
	/* The root cgroup is nobody's own. */
	put(dir, "proc/100/cgroup", "0::/\n");
	put(dir, "sys/fs/cgroup/cgroup.procs", "100\n");
	put(dir, "sys/fs/cgroup/io.stat", "");
	clyde_own_setup(&w, dir, 100, 0, 0, maj, min, 2);
	CHECK(w.source == CLYDE_OWN_TASK);
	/* Nothing readable: no source, nothing attributed. */
	clyde_own_setup(&w, "/nonexistent-clyde-root", 100, 0, 0, maj, min, 2);
	CHECK(w.source == CLYDE_OWN_NONE);
	clyde_own_begin(&w);
	clyde_own_end(&w, &out);
	CHECK(out.source == CLYDE_OWN_NONE && !out.have_top);
}

static void test_settle(const char *dir)
{
	struct clyde_settle_watch w;
	struct clyde_settle s;
	struct clyde_ctx ctx;
	char why[256];

	clyde_ctx_init(&ctx);
	put(dir, "proc/meminfo",
	    "MemTotal: 1000 kB\nDirty:  100 kB\nWriteback:  0 kB\n"
	    "WritebackTmp:  9999999 kB\n");
	put(dir, "sys/class/block/loop9/stat",
	    "1 0 8 1 1 0 8 1 0 1 2 0 0 0 0 0 0\n");
	put(dir, "sys/class/block/loop9/inflight", "0 0\n");
	clyde_settle_init(&w, dir, 2000000000ull);
	clyde_settle_add(&w, "loop9");
	clyde_settle_add(&w, "loop9");
	clyde_settle_add(&w, "");
	CHECK(w.n == 1);
	/* Quiet: one look. */
	clyde_settle_wait(&ctx, &w, &s);
	CHECK(s.looked && !s.busy && s.waited_ns < 1000000000ull);
	CHECK(s.dirty_bytes == 100 * KIB && s.writeback_bytes == 0);
	/* Requests in flight that never finish: busy after the bound. */
	put(dir, "sys/class/block/loop9/inflight", "0 3\n");
	clyde_settle_init(&w, dir, 300000000ull);
	clyde_settle_add(&w, "loop9");
	clyde_settle_wait(&ctx, &w, &s);
	CHECK(s.busy && s.in_flight == 3 && s.waited_ns >= 300000000ull);
	clyde_settle_describe(&s, why, sizeof(why));
	CHECK_STR(why, "3 requests in flight on loop9");
	/* The machine's writeback and dirty pages (another disk's, as far
	 * as anyone can tell): recorded, not a busy device. */
	put(dir, "sys/class/block/loop9/inflight", "0 0\n");
	put(dir, "proc/meminfo",
	    "MemTotal: 1000 kB\nDirty:  204800 kB\nWriteback:  8192 kB\n");
	clyde_settle_init(&w, dir, 0);
	clyde_settle_add(&w, "loop9");
	clyde_settle_wait(&ctx, &w, &s);
	CHECK(s.looked && !s.busy && s.waited_ns == 0 && !s.per_device);
	CHECK(s.dirty_bytes == 200 * MIB && s.writeback_bytes == 8 * MIB);
	/* The device's own, where debugfs tells them: busy. */
	put(dir, "sys/class/block/loop9/dev", "7:9\n");
	put(dir, "sys/kernel/debug/bdi/7:9/stats",
	    "BdiWriteback:             8192 kB\n"
	    "BdiReclaimable:         204800 kB\nBdiDirtyThresh: 0 kB\n");
	clyde_settle_init(&w, dir, 0);
	clyde_settle_add(&w, "loop9");
	clyde_settle_wait(&ctx, &w, &s);
	CHECK(s.looked && s.busy && s.per_device);
	clyde_settle_describe(&s, why, sizeof(why));
	CHECK_STR(why, "8.0 MiB under writeback, 200.0 MiB dirty");
	/* Nothing to look at. */
	clyde_settle_init(&w, dir, 0);
	clyde_settle_wait(&ctx, &w, &s);
	CHECK(!s.looked && !s.busy);
	clyde_ctx_release(&ctx);
}

int main(void)
{
	char dir[] = "/tmp/clyde-testio-XXXXXX";
	char cmd[64];

	test_plain_device();
	test_btrfs_raid5();
	test_md_raid5();
	test_rows();
	test_parse();
	if (!mkdtemp(dir))
		return 1;
	test_sources(dir);
	test_settle(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		CHECK(0);
	return tap_done();
}
