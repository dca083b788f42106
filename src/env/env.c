/*
 * The machine, the target's filesystem and block device, and the device's
 * counters, learned from uname, sysconf, /proc and /sys.
 *
 * Nothing here fails a run because a file under /proc or /sys is missing or
 * unreadable (containers, old kernels, other architectures): the field that
 * would have come from it stays empty.  Only a target path that cannot be
 * stat'ed is an error.
 */
#include "env/env.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/slurp.h"
#include "env/mountinfo.h"

/* Copy src into dst of size n, cutting it short rather than overflowing. */
static void copy_str(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);

	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Read a file holding one unsigned number ("512\n"); 0 when unreadable. */
static int read_u32(const char *path, uint32_t *out)
{
	char buf[64], *end;
	unsigned long v;

	if (clyde_slurp_into(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (end == buf || errno || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	char *p = s;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	if (p != s)
		memmove(s, p, strlen(p) + 1);
}

/*
 * The CPU's name.  x86 says "model name"; 32-bit ARM said "Hardware" (the
 * board) or "Processor"; MIPS says "cpu model"; POWER says "cpu".  Keys are
 * compared whole, so "cpu MHz" or "cpu family" never pass for "cpu".  The
 * first key of the list that appears wins, whatever its line.
 */
static void read_cpu_model(char *out, size_t n)
{
	static const char *const keys[] = { "model name", "Hardware",
					    "cpu model", "Processor", "cpu" };
	const size_t nkeys = sizeof(keys) / sizeof(keys[0]);
	size_t best = nkeys;
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");

	out[0] = '\0';
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0 && best > 0) {
		char *colon = strchr(line, ':');
		size_t k;

		if (!colon)
			continue;
		*colon = '\0';
		trim(line);
		for (k = 0; k < best; k++) {
			if (strcmp(line, keys[k]) == 0) {
				trim(colon + 1);
				if (colon[1]) {
					copy_str(out, n, colon + 1);
					best = k;
				}
				break;
			}
		}
	}
	free(line);
	fclose(f);
}

/* MemTotal from /proc/meminfo, for when sysconf cannot tell. */
static uint64_t meminfo_total(void)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long long kib = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
			break;
	}
	free(line);
	fclose(f);
	return (uint64_t)kib * 1024;
}

const char *clyde_vm_tunable_name(enum clyde_vm_tunable t)
{
	static const char *const n[CLYDE_VM_COUNT] = {
		"dirty_ratio",
		"dirty_background_ratio",
		"dirty_bytes",
		"dirty_background_bytes",
		"dirty_expire_centisecs",
		"dirty_writeback_centisecs",
	};

	return t < CLYDE_VM_COUNT ? n[t] : NULL;
}

void clyde_env_vm_read(const char *root, int64_t vm[CLYDE_VM_COUNT])
{
	char path[PATH_MAX], buf[64], *end;
	long long v;

	for (int t = 0; t < CLYDE_VM_COUNT; t++) {
		vm[t] = -1;
		snprintf(path, sizeof(path), "%s/proc/sys/vm/%s",
			 root ? root : "",
			 clyde_vm_tunable_name((enum clyde_vm_tunable)t));
		if (clyde_slurp_into(path, buf, sizeof(buf)) <= 0)
			continue;
		errno = 0;
		v = strtoll(buf, &end, 10);
		while (*end == '\n' || *end == ' ')
			end++;
		if (!errno && end != buf && !*end && v >= 0)
			vm[t] = v;
	}
}

int clyde_env_machine(struct clyde_ctx *ctx, struct clyde_machine *m)
{
	struct utsname u;
	long ncpu, pages, pagesize;

	(void)ctx;
	memset(m, 0, sizeof(*m));
	if (gethostname(m->host, sizeof(m->host) - 1) != 0)
		m->host[0] = '\0';
	if (uname(&u) == 0) {
		copy_str(m->kernel, sizeof(m->kernel), u.release);
		copy_str(m->kernel_version, sizeof(m->kernel_version),
			 u.version);
		copy_str(m->arch, sizeof(m->arch), u.machine);
	}
	read_cpu_model(m->cpu_model, sizeof(m->cpu_model));
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	m->ncpu = ncpu > 0 ? (unsigned)ncpu : 0;
	pages = sysconf(_SC_PHYS_PAGES);
	pagesize = sysconf(_SC_PAGESIZE);
	if (pages > 0 && pagesize > 0)
		m->ram_bytes = (uint64_t)pages * (uint64_t)pagesize;
	else
		m->ram_bytes = meminfo_total();
	clyde_env_vm_read(NULL, m->vm);
	return 0;
}

void clyde_mountinfo_unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* True when mount point mp contains path p (both absolute, canonical). */
static int mount_contains(const char *mp, const char *p)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	return strncmp(mp, p, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

/* True when `source` names the block device `dev`. */
static int source_is_dev(const char *source, dev_t dev)
{
	struct stat st;

	return source[0] == '/' && stat(source, &st) == 0 &&
	       S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

static void fill_mount(struct clyde_target *t, const struct clyde_mountinfo *mi)
{
	copy_str(t->fstype, sizeof(t->fstype), mi->fstype);
	copy_str(t->mount_point, sizeof(t->mount_point), mi->mount_point);
	copy_str(t->source, sizeof(t->source), mi->source);
	snprintf(t->mount_opts, sizeof(t->mount_opts), "%s | %s", mi->opts,
		 mi->super_opts);
}

/* Keep a copy of the mountinfo line `line` in *slot (freeing the old). */
static void keep_line(char **slot, const char *line)
{
	char *copy = strdup(line);

	if (copy) {
		free(*slot);
		*slot = copy;
	}
}

/*
 * Find the mount of `real` (a canonical path whose st_dev is `dev`) or, when
 * `real` is NULL, the first mount of block device `dev`, and fill t's mount
 * fields.  Among mounts containing the path, those with its device number
 * come first, then the longest mount point; later entries win ties because
 * a mount stacked on the same point hides the earlier one.
 */
/* What find_mount() keeps while it reads. */
struct mount_find {
	const char *real;
	dev_t dev;
	char *best_dev, *best_any;
	size_t best_dev_len, best_any_len;
};

static int mount_line(void *arg, const char *line,
		      const struct clyde_mountinfo *mi)
{
	struct mount_find *m = arg;
	int same = mi->major == major(m->dev) && mi->minor == minor(m->dev);
	size_t len;

	if (!m->real) {
		if (same || source_is_dev(mi->source, m->dev)) {
			keep_line(&m->best_dev, line);
			return 1;
		}
		return 0;
	}
	if (!mount_contains(mi->mount_point, m->real))
		return 0;
	len = strlen(mi->mount_point);
	if (same && (!m->best_dev || len >= m->best_dev_len)) {
		keep_line(&m->best_dev, line);
		m->best_dev_len = len;
	}
	if (!m->best_any || len >= m->best_any_len) {
		keep_line(&m->best_any, line);
		m->best_any_len = len;
	}
	return 0;
}

static void find_mount(struct clyde_target *t, const char *real, dev_t dev)
{
	struct mount_find m = { .real = real, .dev = dev };
	struct clyde_mountinfo mi;

	if (clyde_mountinfo_each("/proc/self/mountinfo", mount_line, &m) < 0)
		return;
	/* When no entry has the path's device number (a btrfs subvolume
	 * gets one of its own), the longest containing mount point is it. */
	if (!m.best_dev) {
		m.best_dev = m.best_any;
		m.best_any = NULL;
	}
	if (m.best_dev && clyde_mountinfo_parse(m.best_dev, &mi) == 0)
		fill_mount(t, &mi);
	free(m.best_dev);
	free(m.best_any);
}

/* The last component of a path, or the path itself. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Name the device, find its disk and read the disk's queue limits. */
static void fill_block(struct clyde_target *t, dev_t dev)
{
	char path[PATH_MAX], link[PATH_MAX], *real;
	ssize_t n;
	uint32_t rot = 0;

	t->has_block_device = true;
	t->no_device_reason[0] = '\0';
	t->dev_major = major(dev);
	t->dev_minor = minor(dev);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", t->dev_major,
		 t->dev_minor);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return; /* no /sys: the numbers are all we know */
	link[n] = '\0';
	copy_str(t->block_dev, sizeof(t->block_dev), base_name(link));
	copy_str(t->disk, sizeof(t->disk), t->block_dev);

	/* A partition's sysfs directory sits inside its disk's. */
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition",
		 t->block_dev);
	if (access(path, F_OK) == 0) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/..",
			 t->block_dev);
		real = realpath(path, NULL);
		if (real) {
			copy_str(t->disk, sizeof(t->disk), base_name(real));
			free(real);
		}
	}

	snprintf(path, sizeof(path), "/sys/block/%s/queue/logical_block_size",
		 t->disk);
	(void)read_u32(path, &t->logical_block_size);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/physical_block_size",
		 t->disk);
	(void)read_u32(path, &t->physical_block_size);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational", t->disk);
	if (read_u32(path, &rot) == 0)
		t->rotational = rot != 0;
}

void clyde_env_name_device(struct clyde_ctx *ctx, const struct clyde_target *t)
{
	if (!t->has_block_device || !t->mount_point[0])
		return;
	if (t->source[0] == '/' && t->block_dev[0])
		clyde_err_append(ctx, " (device %s, %s, under %s)", t->source,
				 t->block_dev, t->mount_point);
	else if (t->block_dev[0])
		clyde_err_append(ctx, " (device %s under %s)", t->block_dev,
				 t->mount_point);
}

int clyde_env_target(struct clyde_ctx *ctx, const char *path,
		     struct clyde_target *t)
{
	struct stat st, src;
	char *real;

	memset(t, 0, sizeof(*t));
	copy_str(t->path, sizeof(t->path), path);
	if (stat(path, &st) != 0)
		return clyde_err(ctx, errno, "stat %s", path);

	if (S_ISBLK(st.st_mode)) {
		find_mount(t, NULL, st.st_rdev);
		fill_block(t, st.st_rdev);
		return 0;
	}

	real = realpath(path, NULL);
	find_mount(t, real ? real : path, st.st_dev);
	free(real);

	if (major(st.st_dev) != 0) {
		fill_block(t, st.st_dev);
	} else if (t->source[0] == '/' && stat(t->source, &src) == 0 &&
		   S_ISBLK(src.st_mode)) {
		/* btrfs and the like hand out anonymous device numbers;
		 * their mount source is the device underneath. */
		fill_block(t, src.st_rdev);
	} else {
		t->has_block_device = false;
		snprintf(t->no_device_reason, sizeof(t->no_device_reason),
			 "%s has no block device",
			 t->fstype[0] ? t->fstype : "the filesystem");
	}
	return 0;
}

int clyde_devstat_parse(const char *text, struct clyde_devstat *s)
{
	uint64_t v[17] = { 0 };
	const char *p = text;
	size_t n = 0;

	while (n < 17) {
		char *end;
		unsigned long long x;

		while (isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		errno = 0;
		x = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		v[n++] = x;
		p = end;
	}
	if (n < 11)
		return -EINVAL;
	/* Documentation/admin-guide/iostats.rst, in order. */
	s->read_ios = v[0];
	s->read_merges = v[1];
	s->read_sectors = v[2];
	s->read_ticks_ms = v[3];
	s->write_ios = v[4];
	s->write_merges = v[5];
	s->write_sectors = v[6];
	s->write_ticks_ms = v[7];
	s->in_flight = v[8];
	s->io_ticks_ms = v[9];
	s->time_in_queue_ms = v[10];
	s->discard_ios = v[11];
	s->discard_merges = v[12];
	s->discard_sectors = v[13];
	s->discard_ticks_ms = v[14];
	s->flush_ios = v[15];
	s->flush_ticks_ms = v[16];
	return 0;
}

int clyde_devstat_read(const struct clyde_target *t, struct clyde_devstat *s)
{
	char path[PATH_MAX], buf[512];

	memset(s, 0, sizeof(*s));
	if (!t->has_block_device || !t->block_dev[0])
		return -ENODEV;
	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", t->block_dev);
	if (clyde_slurp_into(path, buf, sizeof(buf)) <= 0)
		return -ENODEV;
	return clyde_devstat_parse(buf, s) == 0 ? 0 : -ENODEV;
}

static bool same_requests(const struct clyde_devstat *a,
			  const struct clyde_devstat *b)
{
	return a->read_ios == b->read_ios && a->write_ios == b->write_ios &&
	       a->discard_ios == b->discard_ios && a->flush_ios == b->flush_ios;
}

int clyde_devstat_settled(int (*read)(const void *arg, struct clyde_devstat *s),
			  const void *arg, unsigned tries,
			  struct clyde_devstat *s)
{
	int ret = read(arg, s);

	for (unsigned i = 0; ret == 0 && i < tries; i++) {
		const struct timespec ms = { .tv_nsec = 1000000 };
		struct clyde_devstat again;
		bool same;

		nanosleep(&ms, NULL);
		ret = read(arg, &again);
		if (ret)
			break;
		same = same_requests(s, &again);
		*s = again;
		if (same)
			break;
	}
	return ret;
}

static int read_target(const void *arg, struct clyde_devstat *s)
{
	return clyde_devstat_read(arg, s);
}

int clyde_devstat_read_after(const struct clyde_target *t,
			     struct clyde_devstat *s)
{
	return clyde_devstat_settled(read_target, t, CLYDE_DEVSTAT_SETTLE_TRIES,
				     s);
}

/* A counter that went back (the device was replaced) counts as no change. */
static uint64_t diff(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : 0;
}

void clyde_devstat_delta(const struct clyde_devstat *before,
			 const struct clyde_devstat *after,
			 struct clyde_devio *d)
{
	memset(d, 0, sizeof(*d));
	d->have_device = true;
	d->read_bytes = diff(before->read_sectors, after->read_sectors) * 512;
	d->write_bytes =
		diff(before->write_sectors, after->write_sectors) * 512;
	d->read_ios = diff(before->read_ios, after->read_ios);
	d->write_ios = diff(before->write_ios, after->write_ios);
	d->read_merges = diff(before->read_merges, after->read_merges);
	d->write_merges = diff(before->write_merges, after->write_merges);
	d->flush_ios = diff(before->flush_ios, after->flush_ios);
	d->io_ticks_ms = diff(before->io_ticks_ms, after->io_ticks_ms);
	d->time_in_queue_ms =
		diff(before->time_in_queue_ms, after->time_in_queue_ms);
}
