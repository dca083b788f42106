/*
 * env: the machine, the target's mount and device, the device counters.
 *
 * Paths anyone can read ("/", a temporary directory, a file) are compared
 * with statfs(2) and findmnt(8).  As root, the test also mounts what it
 * needs (a tmpfs, ext4 on a loop device, ext4 on a partition of a loop
 * device, btrfs with a subvolume when mkfs.btrfs exists) and checks the
 * device names, the mount options it passed and that 16 MiB written and
 * fsync'ed show up in the device's counters.  Everything it mounts or
 * attaches is undone by cleanup(), also when a check fails or the test is
 * killed.
 */
#include "env/env.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tap.h"

#define MIB (1024u * 1024u)

/* What the test set up, so that cleanup() can undo it from atexit() or a
 * signal handler.  (A test program may keep this one static.) */
static struct {
	char dir[64]; /* the temporary directory everything lives in */
	char mounts[8][512];
	int nmounts;
	char loops[8][64];
	int nloops;
} fx;

static void cleanup(void)
{
	char cmd[2048];

	while (fx.nmounts > 0) {
		fx.nmounts--;
		snprintf(
			cmd, sizeof(cmd),
			"umount '%s' 2>/dev/null || umount -l '%s' 2>/dev/null",
			fx.mounts[fx.nmounts], fx.mounts[fx.nmounts]);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup: could not unmount %s\n",
				fx.mounts[fx.nmounts]);
	}
	while (fx.nloops > 0) {
		fx.nloops--;
		snprintf(cmd, sizeof(cmd), "losetup -d '%s' 2>/dev/null",
			 fx.loops[fx.nloops]);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup: could not detach %s\n",
				fx.loops[fx.nloops]);
	}
	if (fx.dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx.dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup: could not remove %s\n",
				fx.dir);
		fx.dir[0] = '\0';
	}
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Run a shell command; returns its exit status (or -1). */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "# command failed (%d): %s\n", rc, cmd);
	return rc == -1 ? -1 : WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The first line a shell command prints, without its newline; "" when it
 * prints nothing or fails. */
static void capture(char *out, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void capture(char *out, size_t n, const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	out[0] = '\0';
	p = popen(cmd, "r");
	if (!p)
		return;
	if (!fgets(out, (int)n, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	pclose(p);
}

static int have_cmd(const char *name)
{
	return sh("command -v %s >/dev/null 2>&1", name) == 0;
}

/* Does the statfs magic number agree with the filesystem name? */
static int magic_agrees(const char *fstype, unsigned long magic)
{
	static const struct {
		unsigned long magic;
		const char *names;
	} map[] = {
		{ 0xEF53, " ext2 ext3 ext4 " },	  { 0x58465342, " xfs " },
		{ 0x9123683E, " btrfs " },	  { 0x01021994, " tmpfs " },
		{ 0x794c7630, " overlay " },	  { 0x9fa0, " proc " },
		{ 0x62656572, " sysfs " },	  { 0x1373, " devtmpfs " },
		{ 0x65735546, " fuse fuseblk " }, { 0x2fc12fc1, " zfs " },
	};
	char word[80];
	size_t i;

	snprintf(word, sizeof(word), " %s ", fstype);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].magic == magic)
			return strstr(map[i].names, word) != NULL;
	return -1; /* a magic number this test does not know */
}

/* Write 16 MiB to `file`, fsync it, and check the device counted it. */
static void check_counts_writes(const struct clyde_target *t, const char *file)
{
	struct clyde_devstat before, after;
	struct clyde_devio d;
	char *buf = malloc(MIB);
	int fd, i, ok = 1;

	CHECK(buf != NULL);
	if (!buf)
		return;
	memset(buf, 0x5a, MIB);
	CHECK(clyde_devstat_read(t, &before) == 0);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	for (i = 0; fd >= 0 && i < 16; i++)
		if (write(fd, buf, MIB) != (ssize_t)MIB)
			ok = 0;
	CHECK(ok);
	CHECK(fd >= 0 && fsync(fd) == 0);
	if (fd >= 0)
		close(fd);
	CHECK(clyde_devstat_read(t, &after) == 0);
	clyde_devstat_delta(&before, &after, &d);
	CHECK(d.have_device);
	CHECK(d.write_bytes >= 16ull * MIB);
	CHECK(d.write_ios > 0);
	if (d.write_bytes < 16ull * MIB)
		fprintf(stderr, "# %s: only %llu bytes written\n", t->block_dev,
			(unsigned long long)d.write_bytes);
	free(buf);
}

/* The per-mount part of mount_opts (before " | ") contains opt. */
static int mount_opt_has(const struct clyde_target *t, const char *opt)
{
	char part[1024];
	const char *bar = strstr(t->mount_opts, " | ");
	char *p, *save = NULL;

	if (!bar)
		return 0;
	snprintf(part, sizeof(part), "%.*s", (int)(bar - t->mount_opts),
		 t->mount_opts);
	for (p = strtok_r(part, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (strcmp(p, opt) == 0)
			return 1;
	return 0;
}

/* The superblock part of mount_opts (after " | ") contains opt. */
static int super_opt_has(const struct clyde_target *t, const char *opt)
{
	char part[1024];
	const char *bar = strstr(t->mount_opts, " | ");
	char *p, *save = NULL;

	if (!bar)
		return 0;
	snprintf(part, sizeof(part), "%s", bar + 3);
	for (p = strtok_r(part, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (strcmp(p, opt) == 0)
			return 1;
	return 0;
}

static void test_machine(void)
{
	struct clyde_ctx ctx;
	struct clyde_machine m;
	struct utsname u;
	char line[512];
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	clyde_ctx_init(&ctx);
	CHECK(clyde_env_machine(&ctx, &m) == 0);
	CHECK(m.host[0] != '\0');
	CHECK(uname(&u) == 0);
	CHECK_STR(m.kernel, u.release);
	CHECK_STR(m.kernel_version, u.version);
	CHECK_STR(m.arch, u.machine);
	CHECK(m.ncpu == (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	CHECK(m.ncpu >= 1);
	CHECK(m.ram_bytes == (uint64_t)pages * (uint64_t)psz);
	CHECK(m.ram_bytes > 16ull * MIB);
	/* Where the kernel names the CPU, clyde must have found it. */
	capture(line, sizeof(line),
		"sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo");
	if (line[0])
		CHECK_STR(m.cpu_model, line);
	printf("# machine: %s, %s (%s), %s, %u cpus, %llu bytes\n", m.host,
	       m.kernel, m.arch, m.cpu_model, m.ncpu,
	       (unsigned long long)m.ram_bytes);
	clyde_ctx_release(&ctx);
}

/* A device whose last request is counted late: the readings a reader
 * returns in turn, the last one again and again. */
struct late_dev {
	const struct clyde_devstat *seq;
	unsigned n, reads;
	int fail_at; /* the reading that fails (-1: none) */
};

static int late_read(const void *arg, struct clyde_devstat *s)
{
	struct late_dev *d = (struct late_dev *)arg;
	unsigned i = d->reads < d->n ? d->reads : d->n - 1;

	if ((int)d->reads++ == d->fail_at)
		return -ENODEV;
	*s = d->seq[i];
	return 0;
}

static void test_devstat_settled(void)
{
	struct clyde_devstat seq[4] = { 0 }, s;
	struct late_dev d = { seq, 2, 0, -1 };

	/* The sectors are in, the 32nd request not yet: read again until no
	 * request count moves. */
	seq[0].read_sectors = seq[1].read_sectors = 65536;
	seq[0].read_ios = 31;
	seq[1].read_ios = 32;
	CHECK(clyde_devstat_settled(late_read, &d, 8, &s) == 0);
	CHECK(s.read_ios == 32 && s.read_sectors == 65536);
	CHECK(d.reads == 3); /* 31, 32, 32 again: settled */

	/* Already settled: one reading more to see it. */
	d.reads = 0;
	d.seq = seq + 1;
	d.n = 1;
	CHECK(clyde_devstat_settled(late_read, &d, 8, &s) == 0);
	CHECK(s.read_ios == 32 && d.reads == 2);

	/* Others keep the counts moving: at most `tries` readings more, the
	 * last one kept. */
	for (unsigned i = 0; i < 4; i++)
		seq[i].write_ios = i;
	d.seq = seq;
	d.n = 4;
	d.reads = 0;
	CHECK(clyde_devstat_settled(late_read, &d, 2, &s) == 0);
	CHECK(d.reads == 3 && s.write_ios == 2);

	/* A reading that fails is the result. */
	d.reads = 0;
	d.fail_at = 1;
	CHECK(clyde_devstat_settled(late_read, &d, 8, &s) == -ENODEV);
	d.reads = 0;
	d.fail_at = 0;
	CHECK(clyde_devstat_settled(late_read, &d, 8, &s) == -ENODEV);
	CHECK(d.reads == 1);
}

static void test_devstat_parse(void)
{
	struct clyde_devstat s;
	struct clyde_devio d;
	struct clyde_devstat a = { 0 }, b = { 0 };

	/* Linux before 4.18: 11 fields. */
	CHECK(clyde_devstat_parse("  1 2 3 4 5 6 7 8 9 10 11\n", &s) == 0);
	CHECK(s.read_ios == 1 && s.read_merges == 2 && s.read_sectors == 3);
	CHECK(s.read_ticks_ms == 4 && s.write_ios == 5 && s.write_merges == 6);
	CHECK(s.write_sectors == 7 && s.write_ticks_ms == 8);
	CHECK(s.in_flight == 9 && s.io_ticks_ms == 10);
	CHECK(s.time_in_queue_ms == 11);
	CHECK(s.discard_ios == 0 && s.flush_ios == 0);

	/* 4.18: discards. */
	CHECK(clyde_devstat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &s) ==
	      0);
	CHECK(s.discard_ios == 12 && s.discard_merges == 13);
	CHECK(s.discard_sectors == 14 && s.discard_ticks_ms == 15);
	CHECK(s.flush_ios == 0);

	/* 5.5: flushes; the padding the kernel prints is skipped. */
	CHECK(clyde_devstat_parse("   44688     8780  3485986    29382  1767548"
				  "   891293 104884768  1089559        0   "
				  "106764  1146741   175701       82 60910264"
				  "    25395    30996     2404\n",
				  &s) == 0);
	CHECK(s.read_ios == 44688 && s.write_sectors == 104884768);
	CHECK(s.discard_sectors == 60910264 && s.flush_ios == 30996);
	CHECK(s.flush_ticks_ms == 2404);

	/* Too short or not numbers at all. */
	CHECK(clyde_devstat_parse("1 2 3 4 5 6 7 8 9 10", &s) == -EINVAL);
	CHECK(clyde_devstat_parse("", &s) == -EINVAL);
	CHECK(clyde_devstat_parse("x 1 2 3 4 5 6 7 8 9 10 11", &s) == -EINVAL);

	a.read_sectors = 10;
	a.write_sectors = 100;
	a.read_ios = 1;
	a.write_ios = 2;
	a.flush_ios = 3;
	a.io_ticks_ms = 50;
	b = a;
	b.read_sectors += 8;
	b.write_sectors += 2048;
	b.read_ios += 1;
	b.write_ios += 4;
	b.write_merges += 3;
	b.flush_ios += 1;
	b.io_ticks_ms += 7;
	clyde_devstat_delta(&a, &b, &d);
	CHECK(d.have_device);
	CHECK(d.read_bytes == 8 * 512 && d.write_bytes == 2048 * 512);
	CHECK(d.read_ios == 1 && d.write_ios == 4 && d.write_merges == 3);
	CHECK(d.read_merges == 0 && d.flush_ios == 1 && d.io_ticks_ms == 7);
	/* A counter that went back (device replaced) is not a huge number. */
	clyde_devstat_delta(&b, &a, &d);
	CHECK(d.write_bytes == 0 && d.read_ios == 0);
}

/* Check a target against what statfs and findmnt say about the path. */
static void check_path(const char *path)
{
	struct clyde_ctx ctx;
	struct clyde_target t;
	struct clyde_devstat s;
	struct statfs sf;
	char want[4096];
	int agrees;

	clyde_ctx_init(&ctx);
	CHECK(clyde_env_target(&ctx, path, &t) == 0);
	CHECK_STR(t.path, path);
	CHECK(t.fstype[0] != '\0');
	CHECK(t.mount_point[0] == '/');
	CHECK(strstr(t.mount_opts, " | ") != NULL);
	CHECK(statfs(path, &sf) == 0);
	agrees = magic_agrees(t.fstype, (unsigned long)sf.f_type);
	CHECK(agrees != 0);
	capture(want, sizeof(want), "findmnt -no FSTYPE -T '%s' 2>/dev/null",
		path);
	if (want[0])
		CHECK_STR(t.fstype, want);
	else
		CHECK(agrees == 1); /* no findmnt: the magic must be known */
	capture(want, sizeof(want), "findmnt -no TARGET -T '%s' 2>/dev/null",
		path);
	if (want[0])
		CHECK_STR(t.mount_point, want);
	if (t.has_block_device) {
		CHECK(t.no_device_reason[0] == '\0');
		if (access("/sys/dev/block", F_OK) == 0) {
			CHECK(t.block_dev[0] != '\0');
			CHECK(t.disk[0] != '\0');
			CHECK(clyde_devstat_read(&t, &s) == 0);
			CHECK(t.logical_block_size >= 512);
			CHECK((t.logical_block_size &
			       (t.logical_block_size - 1)) == 0);
			CHECK(t.physical_block_size >= t.logical_block_size);
		}
	} else {
		CHECK(strstr(t.no_device_reason, t.fstype) != NULL);
		CHECK(clyde_devstat_read(&t, &s) == -ENODEV);
	}
	printf("# %s: %s on %s (%s) from %s, opts \"%s\", device %s/%s "
	       "%u:%u %s\n",
	       path, t.fstype, t.mount_point, t.has_block_device ? "dev" : "-",
	       t.source, t.mount_opts, t.block_dev, t.disk, t.dev_major,
	       t.dev_minor, t.no_device_reason);
	clyde_ctx_release(&ctx);
}

static void test_unprivileged(void)
{
	struct clyde_ctx ctx;
	struct clyde_target t, d;
	char path[512];
	int fd;

	check_path("/");
	check_path(fx.dir);

	/* A file is described by the filesystem it is on. */
	snprintf(path, sizeof(path), "%s/file", fx.dir);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	clyde_ctx_init(&ctx);
	CHECK(clyde_env_target(&ctx, path, &t) == 0);
	CHECK(clyde_env_target(&ctx, fx.dir, &d) == 0);
	CHECK_STR(t.fstype, d.fstype);
	CHECK_STR(t.mount_point, d.mount_point);
	CHECK_STR(t.block_dev, d.block_dev);

	/* A path that is not there is the one error. */
	snprintf(path, sizeof(path), "%s/missing/x", fx.dir);
	CHECK(clyde_env_target(&ctx, path, &t) == -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), path) != NULL);
	CHECK(strstr(clyde_errmsg(&ctx), "stat") != NULL);
	clyde_ctx_release(&ctx);

	/* Under /proc there is no device, and the reason says which fs. */
	clyde_ctx_init(&ctx);
	CHECK(clyde_env_target(&ctx, "/proc/self", &t) == 0);
	CHECK_STR(t.fstype, "proc");
	CHECK(!t.has_block_device);
	CHECK_STR(t.no_device_reason, "proc has no block device");
	clyde_ctx_release(&ctx);
}

/* Make a directory under fx.dir and return its path in out. */
static void subdir(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", fx.dir, name);
	if (mkdir(out, 0755) != 0 && errno != EEXIST)
		fprintf(stderr, "# mkdir %s: %s\n", out, strerror(errno));
}

static int do_mount(const char *mnt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Run a mount command (fmt) and remember mnt for cleanup. */
static int do_mount(const char *mnt, const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (sh("%s", cmd) != 0)
		return -1;
	snprintf(fx.mounts[fx.nmounts++], sizeof(fx.mounts[0]), "%s", mnt);
	return 0;
}

/* Attach image to a free loop device (with -P, scanning partitions). */
static int attach_loop(const char *image, const char *flags, char *dev,
		       size_t n)
{
	capture(dev, n, "losetup %s -f --show '%s'", flags, image);
	if (strncmp(dev, "/dev/loop", 9) != 0) {
		fprintf(stderr, "# losetup of %s failed\n", image);
		return -1;
	}
	snprintf(fx.loops[fx.nloops++], sizeof(fx.loops[0]), "%s", dev);
	return 0;
}

static void test_tmpfs(void)
{
	struct clyde_ctx ctx;
	struct clyde_target t;
	struct clyde_devstat s;
	char mnt[512];

	/* A space in the name: mountinfo writes it as \040. */
	subdir(mnt, sizeof(mnt), "tmp fs");
	if (do_mount(mnt,
		     "mount -t tmpfs -o noatime,size=8m,mode=0711 "
		     "clydetmp '%s'",
		     mnt) != 0) {
		CHECK(!"mount tmpfs");
		return;
	}
	clyde_ctx_init(&ctx);
	CHECK(clyde_env_target(&ctx, mnt, &t) == 0);
	CHECK_STR(t.fstype, "tmpfs");
	CHECK_STR(t.mount_point, mnt);
	CHECK_STR(t.source, "clydetmp");
	CHECK(!t.has_block_device);
	CHECK(strstr(t.no_device_reason, "tmpfs") != NULL);
	CHECK(t.block_dev[0] == '\0');
	CHECK(mount_opt_has(&t, "noatime"));
	CHECK(super_opt_has(&t, "size=8192k"));
	CHECK(super_opt_has(&t, "mode=711"));
	CHECK(clyde_devstat_read(&t, &s) == -ENODEV);
	check_path(mnt);
	clyde_ctx_release(&ctx);
}

static void test_ext4_loop(void)
{
	struct clyde_ctx ctx;
	struct clyde_target t, node;
	char img[512], mnt[512], dev[64], file[600];

	snprintf(img, sizeof(img), "%s/ext4.img", fx.dir);
	subdir(mnt, sizeof(mnt), "ext4");
	if (sh("truncate -s 64M '%s' && mkfs.ext4 -q -F '%s' >/dev/null 2>&1",
	       img, img) != 0 ||
	    attach_loop(img, "", dev, sizeof(dev)) != 0 ||
	    do_mount(mnt, "mount -o noatime,commit=17 '%s' '%s'", dev, mnt) !=
		    0) {
		CHECK(!"set up ext4 on a loop device");
		return;
	}
	clyde_ctx_init(&ctx);
	CHECK(clyde_env_target(&ctx, mnt, &t) == 0);
	CHECK_STR(t.fstype, "ext4");
	CHECK_STR(t.mount_point, mnt);
	CHECK_STR(t.source, dev);
	CHECK(t.has_block_device);
	CHECK_STR(t.block_dev, dev + 5); /* "loopN" */
	CHECK_STR(t.disk, t.block_dev);
	CHECK(t.dev_major == 7);
	CHECK(t.logical_block_size == 512);
	CHECK(mount_opt_has(&t, "noatime"));
	CHECK(!mount_opt_has(&t, "relatime"));
	CHECK(super_opt_has(&t, "commit=17"));
	check_path(mnt);
	snprintf(file, sizeof(file), "%s/data", mnt);
	check_counts_writes(&t, file);

	/* A bind mount inside the same filesystem has the same device
	 * number as its parent mount: the longer mount point is the one. */
	{
		char a[600], b[600];
		struct clyde_target bt;

		snprintf(a, sizeof(a), "%s/a", mnt);
		snprintf(b, sizeof(b), "%s/b", mnt);
		CHECK(mkdir(a, 0755) == 0 && mkdir(b, 0755) == 0);
		if (do_mount(b, "mount --bind -o noexec '%s' '%s'", a, b) ==
		    0) {
			CHECK(clyde_env_target(&ctx, b, &bt) == 0);
			CHECK_STR(bt.mount_point, b);
			CHECK_STR(bt.block_dev, t.block_dev);
			check_path(b);
			CHECK(clyde_env_target(&ctx, a, &bt) == 0);
			CHECK_STR(bt.mount_point, mnt);
		} else {
			CHECK(!"mount --bind");
		}
	}

	/* The device node itself: the same device, found mounted. */
	CHECK(clyde_env_target(&ctx, dev, &node) == 0);
	CHECK(node.has_block_device);
	CHECK_STR(node.block_dev, t.block_dev);
	CHECK(node.dev_major == t.dev_major && node.dev_minor == t.dev_minor);
	CHECK_STR(node.mount_point, mnt);
	CHECK_STR(node.fstype, "ext4");
	clyde_ctx_release(&ctx);
}

/* A loop device with an MBR partition table and ext4 on partition 1: the
 * device is loopNp1, its disk loopN. */
static void test_partition(void)
{
	struct clyde_ctx ctx;
	struct clyde_target t, node;
	unsigned char mbr[512] = { 0 };
	unsigned char *e = mbr + 446;
	const uint32_t start = 2048, count = 65536; /* 1 MiB, 32 MiB */
	char img[512], mnt[512], dev[64], part[80], file[600];
	int fd, i;

	snprintf(img, sizeof(img), "%s/part.img", fx.dir);
	e[4] = 0x83; /* Linux */
	for (i = 0; i < 4; i++) {
		e[8 + i] = (unsigned char)(start >> (8 * i));
		e[12 + i] = (unsigned char)(count >> (8 * i));
	}
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	fd = open(img, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, mbr, sizeof(mbr)) == (ssize_t)sizeof(mbr));
	CHECK(ftruncate(fd, 64 * MIB) == 0);
	close(fd);
	if (attach_loop(img, "-P", dev, sizeof(dev)) != 0) {
		CHECK(!"losetup -P");
		return;
	}
	snprintf(part, sizeof(part), "%sp1", dev);
	/* A kernel without the MBR parser (CONFIG_MSDOS_PARTITION unset)
	 * finds no partition; partx reads the table itself and adds it. */
	if (access(part, F_OK) != 0 && have_cmd("partx"))
		(void)sh("partx -a '%s'", dev);
	/* The partition's node appears asynchronously on some systems. */
	for (i = 0; i < 50 && access(part, F_OK) != 0; i++)
		usleep(100000);
	if (access(part, F_OK) != 0) {
		fprintf(stderr, "partition %s did not appear\n", part);
		CHECK(!"the partition's device node appears");
		return;
	}
	subdir(mnt, sizeof(mnt), "part");
	if (sh("mkfs.ext4 -q -F '%s' >/dev/null 2>&1", part) != 0 ||
	    do_mount(mnt, "mount '%s' '%s'", part, mnt) != 0) {
		CHECK(!"ext4 on a partition");
		return;
	}
	clyde_ctx_init(&ctx);
	CHECK(clyde_env_target(&ctx, mnt, &t) == 0);
	CHECK_STR(t.fstype, "ext4");
	CHECK(t.has_block_device);
	CHECK_STR(t.block_dev, part + 5); /* "loopNp1" */
	CHECK_STR(t.disk, dev + 5);	  /* "loopN" */
	CHECK(t.logical_block_size == 512);
	snprintf(file, sizeof(file), "%s/data", mnt);
	check_counts_writes(&t, file);

	CHECK(clyde_env_target(&ctx, part, &node) == 0);
	CHECK_STR(node.block_dev, t.block_dev);
	CHECK_STR(node.disk, t.disk);
	/* And the whole disk as a node: it is its own disk, not mounted. */
	CHECK(clyde_env_target(&ctx, dev, &node) == 0);
	CHECK_STR(node.block_dev, dev + 5);
	CHECK_STR(node.disk, dev + 5);
	CHECK(node.mount_point[0] == '\0' && node.fstype[0] == '\0');
	CHECK(node.mount_opts[0] == '\0');
	clyde_ctx_release(&ctx);
}

/* btrfs gives its files anonymous device numbers (major 0), so the device
 * comes from the mount source, also inside a subvolume. */
static void test_btrfs_loop(void)
{
	struct clyde_ctx ctx;
	struct clyde_target t, sub;
	struct stat st;
	char img[512], mnt[512], dev[64], subvol[600], file[700];

	if (!have_cmd("mkfs.btrfs")) {
		CHECK(!"mkfs.btrfs is installed (btrfs-progs)");
		return;
	}
	snprintf(img, sizeof(img), "%s/btrfs.img", fx.dir);
	subdir(mnt, sizeof(mnt), "btrfs");
	if (sh("truncate -s 256M '%s' && mkfs.btrfs -q -f '%s' >/dev/null 2>&1",
	       img, img) != 0 ||
	    attach_loop(img, "", dev, sizeof(dev)) != 0) {
		CHECK(!"set up btrfs on a loop device");
		return;
	}
	if (do_mount(mnt, "mount -o noatime '%s' '%s'", dev, mnt) != 0) {
		/* Every other filesystem of this test mounted: the case
		 * must not pass untested. */
		CHECK(!"mount btrfs");
		return;
	}
	CHECK(stat(mnt, &st) == 0 && major(st.st_dev) == 0);
	clyde_ctx_init(&ctx);
	CHECK(clyde_env_target(&ctx, mnt, &t) == 0);
	CHECK_STR(t.fstype, "btrfs");
	CHECK_STR(t.mount_point, mnt);
	CHECK_STR(t.source, dev);
	CHECK(t.has_block_device);
	CHECK_STR(t.block_dev, dev + 5);
	CHECK_STR(t.disk, t.block_dev);
	CHECK(t.dev_major == 7);
	CHECK(mount_opt_has(&t, "noatime"));
	check_path(mnt);

	snprintf(subvol, sizeof(subvol), "%s/sub", mnt);
	if (have_cmd("btrfs") &&
	    sh("btrfs subvolume create '%s' >/dev/null", subvol) == 0) {
		struct stat sst;

		/* The subvolume's number is in no mountinfo line. */
		CHECK(stat(subvol, &sst) == 0 && sst.st_dev != st.st_dev);
		CHECK(clyde_env_target(&ctx, subvol, &sub) == 0);
		CHECK_STR(sub.fstype, "btrfs");
		CHECK_STR(sub.mount_point, mnt);
		CHECK_STR(sub.block_dev, t.block_dev);
		snprintf(file, sizeof(file), "%s/data", subvol);
		check_counts_writes(&sub, file);
	} else {
		snprintf(file, sizeof(file), "%s/data", mnt);
		check_counts_writes(&t, file);
	}
	clyde_ctx_release(&ctx);
}

/* The writeback tunables from a fixture /proc/sys/vm: each read, one
 * missing and one unreadable as text left at -1. */
static void test_vm_tunables(void)
{
	static const char *const files[][2] = {
		{ "dirty_ratio", "20\n" },
		{ "dirty_background_ratio", "7\n" },
		{ "dirty_bytes", "0\n" },
		{ "dirty_expire_centisecs", "3000\n" },
		{ "dirty_writeback_centisecs", "garbage\n" },
	};
	char root[600], path[800];
	int64_t vm[CLYDE_VM_COUNT];
	FILE *f;

	snprintf(root, sizeof(root), "%s/vmroot", fx.dir);
	snprintf(path, sizeof(path), "mkdir -p '%s/proc/sys/vm'", root);
	CHECK(system(path) == 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/proc/sys/vm/%s", root,
			 files[i][0]);
		f = fopen(path, "w");
		CHECK(f != NULL);
		if (f) {
			fputs(files[i][1], f);
			fclose(f);
		}
	}
	clyde_env_vm_read(root, vm);
	CHECK(vm[CLYDE_VM_DIRTY_RATIO] == 20);
	CHECK(vm[CLYDE_VM_DIRTY_BACKGROUND_RATIO] == 7);
	CHECK(vm[CLYDE_VM_DIRTY_BYTES] == 0);
	CHECK(vm[CLYDE_VM_DIRTY_BACKGROUND_BYTES] == -1);
	CHECK(vm[CLYDE_VM_DIRTY_EXPIRE_CENTISECS] == 3000);
	CHECK(vm[CLYDE_VM_DIRTY_WRITEBACK_CENTISECS] == -1);
	CHECK(!strcmp(clyde_vm_tunable_name(CLYDE_VM_DIRTY_BACKGROUND_RATIO),
		      "dirty_background_ratio"));
}

int main(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGABRT };
	size_t i;

	snprintf(fx.dir, sizeof(fx.dir), "/tmp/clyde-env.XXXXXX");
	if (!mkdtemp(fx.dir)) {
		perror("mkdtemp");
		return 1;
	}
	atexit(cleanup);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], on_signal);

	test_machine();
	test_vm_tunables();
	test_devstat_parse();
	test_devstat_settled();
	test_unprivileged();
	if (geteuid() == 0 && have_cmd("mount") && have_cmd("losetup") &&
	    have_cmd("mkfs.ext4")) {
		test_tmpfs();
		test_ext4_loop();
		test_partition();
		test_btrfs_loop();
	} else {
		/* Target detection on real filesystems is what this test is
		 * for: without them, the checks above ran but it is a skip
		 * (exit() runs cleanup()). */
		tap_skip_all("the mount tests need root, mount, losetup and "
			     "mkfs.ext4");
	}
	cleanup();
	return tap_done();
}
