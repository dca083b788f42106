/*
 * What the filesystem probes (fs_ext4.c, fs_xfs.c, fs_btrfs.c, fs_nfs.c,
 * fs_cifs.c) share: the note, mount options, UUIDs, device names, whether
 * a server is this machine and the type of the filesystem holding a
 * directory; and what a device
 * node that is not mounted holds (libblkid, libblkid-dev, when clyde is
 * built with it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifdef CLYDE_HAVE_BLKID
#include <blkid/blkid.h>
#endif

#include "env/env.h"
#include "env/mountinfo.h"
#include "env/stack_sysfs.h"

/* Say in fs->note why the geometry is missing (the first reason wins). */
void clyde_stack_fs_note(struct clyde_stack_fs *fs, const char *fmt, ...)
{
	va_list ap;

	if (fs->note[0])
		return;
	va_start(ap, fmt);
	vsnprintf(fs->note, sizeof(fs->note), fmt, ap);
	va_end(ap);
}

/* The value of option `key=` in a mount option list ("a,key=v,b"), into
 * out; false when it is not there. */
bool clyde_stack_mount_opt(const char *opts, const char *key, char *out,
			   size_t n)
{
	size_t klen = strlen(key);
	const char *p = opts;

	while (p && *p) {
		const char *end = p + strcspn(p, ", |");

		if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0 &&
		    p[klen] == '=') {
			size_t len = (size_t)(end - p) - klen - 1;

			if (len >= n)
				len = n - 1;
			memcpy(out, p + klen + 1, len);
			out[len] = '\0';
			return true;
		}
		p = end + strspn(end, ", |");
	}
	return false;
}

bool clyde_stack_mount_flag(const char *opts, const char *tok)
{
	size_t len = strlen(tok);

	for (const char *p = opts; p && *p;) {
		size_t n = strcspn(p, ", |\n");

		if (n == len && !strncmp(p, tok, len))
			return true;
		p += n;
		p += strspn(p, ", |\n");
	}
	return false;
}

void clyde_stack_uuid_text(const unsigned char *u, char *out, size_t n)
{
	snprintf(out, n,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* The kernel name of block device number dev ("8:17" when /sys has
 * none). */
void clyde_stack_dev_name(dev_t dev, char *out, size_t n)
{
	char path[64], link[512];
	ssize_t len;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	len = readlink(path, link, sizeof(link) - 1);
	if (len > 0) {
		const char *s;

		link[len] = '\0';
		s = strrchr(link, '/');
		clyde_stack_copy(out, n, s ? s + 1 : link);
	} else {
		snprintf(out, n, "%u:%u", major(dev), minor(dev));
	}
}

/* Is addr this machine: a loopback, or (on the real machine) one of its
 * interfaces' addresses? */
int clyde_stack_addr_is_local(const char *root, const char *addr)
{
	struct ifaddrs *ifs, *i;
	int local = 0;

	if (!addr[0])
		return -1;
	if (!strncmp(addr, "127.", 4) || !strcmp(addr, "::1"))
		return 1;
	if (root[0] || getifaddrs(&ifs) != 0)
		return root[0] ? 0 : -1;
	for (i = ifs; i && !local; i = i->ifa_next) {
		char buf[INET6_ADDRSTRLEN] = "";
		const void *a = NULL;

		if (!i->ifa_addr)
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			a = &((struct sockaddr_in *)(void *)i->ifa_addr)
				     ->sin_addr;
		else if (i->ifa_addr->sa_family == AF_INET6)
			a = &((struct sockaddr_in6 *)(void *)i->ifa_addr)
				     ->sin6_addr;
		if (a &&
		    inet_ntop(i->ifa_addr->sa_family, a, buf, sizeof(buf)) &&
		    !strcmp(buf, addr))
			local = 1;
	}
	freeifaddrs(ifs);
	return local;
}

/* Is dir `p` at or below directory `base`? */
bool clyde_stack_path_under(const char *p, const char *base)
{
	size_t n = strlen(base);

	if (!strcmp(base, "/"))
		return p[0] == '/';
	return !strncmp(p, base, n) && (p[n] == '\0' || p[n] == '/');
}

/* The type of the filesystem mounted at or above dir, from
 * ROOT/proc/self/mountinfo (the deepest mount that holds it). */
/* What clyde_stack_fstype_at() keeps while it reads. */
struct fstype_find {
	const char *dir;
	char *out;
	size_t n, best;
};

static int fstype_line(void *arg, const char *line,
		       const struct clyde_mountinfo *mi)
{
	struct fstype_find *ff = arg;

	(void)line;
	if (clyde_stack_path_under(ff->dir, mi->mount_point) &&
	    strlen(mi->mount_point) >= ff->best) {
		ff->best = strlen(mi->mount_point);
		clyde_stack_copy(ff->out, ff->n, mi->fstype);
	}
	return 0;
}

void clyde_stack_fstype_at(const char *root, const char *dir, char *out,
			   size_t n)
{
	struct fstype_find ff = { .dir = dir, .out = out, .n = n };
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	clyde_mountinfo_each(path, fstype_line, &ff);
}

void clyde_stack_content(struct clyde_stack *s, const char *dev)
{
#ifdef CLYDE_HAVE_BLKID
	blkid_probe pr = blkid_new_probe_from_filename(dev);
	const char *type = NULL;

	s->content[0] = '\0';
	if (!pr)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	if (blkid_do_safeprobe(pr) == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 ||
		    blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0)
			clyde_stack_copy(s->content, sizeof(s->content), type);
	}
	blkid_free_probe(pr);
#else
	(void)dev;
	s->content[0] = '\0';
#endif
}
