/*
 * A dm device's table: the segments `dmsetup table` prints, one a line,
 * "START LENGTH TARGET ARGS" in 512-byte sectors (the kernel's
 * Documentation/admin-guide/device-mapper/{linear,striped}.rst):
 *
 *   0 409600 linear 8:16 2048
 *   0 819200 striped 2 128 9:0 2048 9:1 2048
 *
 * Read with DM_TABLE_STATUS (<linux/dm-ioctl.h>) from /dev/mapper/control,
 * which needs CAP_SYS_ADMIN, or from a fixture file in tests.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "env/stack_sysfs.h"

int clyde_stack_lvm_names(const char *dm_name, char *vg, size_t vg_len,
			  char *lv, size_t lv_len)
{
	char *out = vg;
	size_t len = vg_len, k = 0;
	bool split = false;

	if (!vg_len || !lv_len)
		return -EINVAL;
	vg[0] = lv[0] = '\0';
	for (const char *p = dm_name; *p; p++) {
		if (*p == '-' && p[1] == '-') {
			p++;
		} else if (*p == '-' && !split) {
			out[k < len ? k : len - 1] = '\0';
			split = true;
			out = lv;
			len = lv_len;
			k = 0;
			continue;
		}
		if (k + 1 < len)
			out[k++] = *p;
	}
	out[k < len ? k : len - 1] = '\0';
	if (!split || !vg[0] || !lv[0]) {
		vg[0] = lv[0] = '\0';
		return -EINVAL;
	}
	return 0;
}

void clyde_stack_dm_parse(struct clyde_stack_node *n, const char *table)
{
	const char *line = table;
	unsigned segments = 0;

	n->dm_target[0] = '\0';
	clyde_stack_copy(n->dm_table, sizeof(n->dm_table), table);
	while (*line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char buf[512], target[32];
		unsigned long long start, length, a, b;
		int used = 0;

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		line += eol ? len + 1 : len;
		if (sscanf(buf, "%llu %llu %31s %n", &start, &length, target,
			   &used) < 3)
			continue;
		if (segments++ == 0) {
			clyde_stack_copy(n->dm_target, sizeof(n->dm_target),
					 target);
			if (!strcmp(target, "linear") &&
			    sscanf(buf + used, "%*s %llu", &a) == 1)
				n->dm_start_bytes = (uint64_t)a * 512;
			if (!strcmp(target, "striped") &&
			    sscanf(buf + used, "%llu %llu", &a, &b) == 2) {
				n->dm_stripes = (uint32_t)a;
				n->dm_stripe_bytes = (uint64_t)b * 512;
			}
		} else if (strcmp(n->dm_target, target) != 0) {
			clyde_stack_copy(n->dm_target, sizeof(n->dm_target),
					 "mixed");
		}
	}
}

/* The fixture file SYSROOT/dm-tables/NAME. */
static int table_file(const char *root, const char *name, char *buf, size_t n)
{
	char path[PATH_MAX];
	FILE *f;
	size_t got;

	snprintf(path, sizeof(path), "%s/dm-tables/%s", root, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
	return 0;
}

int clyde_stack_dm_table(const char *root, const char *dm_name, char *buf,
			 size_t n)
{
	size_t size = 16384;
	struct dm_ioctl *io;
	struct dm_target_spec *spec;
	size_t off, used = 0;
	int fd, rc = 0;

	buf[0] = '\0';
	if (root[0])
		return table_file(root, dm_name, buf, n);
	if (!dm_name[0])
		return -ENOENT;
	fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	io = calloc(1, size);
	if (!io) {
		close(fd);
		return -ENOMEM;
	}
	io->version[0] = DM_VERSION_MAJOR;
	io->version[1] = DM_VERSION_MINOR;
	io->version[2] = DM_VERSION_PATCHLEVEL;
	io->data_size = (uint32_t)size;
	io->data_start = sizeof(*io);
	io->flags = DM_STATUS_TABLE_FLAG;
	clyde_stack_copy(io->name, sizeof(io->name), dm_name);
	if (ioctl(fd, DM_TABLE_STATUS, io) != 0) {
		rc = -errno;
	} else if (io->flags & DM_BUFFER_FULL_FLAG) {
		rc = -E2BIG;
	} else {
		off = io->data_start;
		for (uint32_t t = 0; t < io->target_count; t++) {
			if (off + sizeof(*spec) > size)
				break;
			spec = (struct dm_target_spec *)((char *)io + off);
			used += (size_t)snprintf(
				buf + used, used < n ? n - used : 0,
				"%" PRIu64 " %" PRIu64 " %.*s %s\n",
				(uint64_t)spec->sector_start,
				(uint64_t)spec->length,
				(int)sizeof(spec->target_type),
				spec->target_type, (char *)(spec + 1));
			if (used >= n || !spec->next)
				break;
			off = io->data_start + spec->next;
		}
	}
	free(io);
	close(fd);
	return rc;
}
