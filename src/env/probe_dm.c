/*
 * A device-mapper device: its name and uuid (dm/), the LVM volume group
 * and volume its name joins, and its table, whose first segment says how
 * it maps (linear: where it starts on the device below; striped: stripes
 * and chunk).  Its children are its slaves/.
 *
 * The table is the segments `dmsetup table` prints, one a line,
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

#include "core/slurp.h"
#include "env/stack_probe.h"
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
	ssize_t got;

	snprintf(path, sizeof(path), "%s/dm-tables/%s", root, name);
	got = clyde_slurp_into(path, buf, n);
	return got < 0 ? (int)got : 0;
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

static bool dm_claims(const char *root, const char *dev)
{
	return clyde_stack_sys_exists(root, dev, "dm");
}

static void dm_read(const char *root, struct clyde_stack_node *n)
{
	char table[4096];
	int rc;

	(void)clyde_sysfs_text(root, n->name, "dm/name", n->dm_name,
			       sizeof(n->dm_name));
	(void)clyde_sysfs_text(root, n->name, "dm/uuid", n->dm_uuid,
			       sizeof(n->dm_uuid));
	if (!strncmp(n->dm_uuid, "LVM-", 4))
		(void)clyde_stack_lvm_names(n->dm_name, n->lvm_vg,
					    sizeof(n->lvm_vg), n->lvm_lv,
					    sizeof(n->lvm_lv));
	rc = clyde_stack_dm_table(root, n->dm_name, table, sizeof(table));
	if (rc == 0)
		clyde_stack_dm_parse(n, table);
	else
		snprintf(n->note, sizeof(n->note),
			 "dm table of %s not readable: %s%s", n->dm_name,
			 strerror(-rc),
			 rc == -EACCES || rc == -EPERM ? " (needs root)" : "");
}

static int dm_stripe(const struct clyde_stack_node *n,
		     struct clyde_stack_stripe *st)
{
	if (n->dm_stripes <= 1 || !n->dm_stripe_bytes)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	clyde_stack_copy(st->layer, sizeof(st->layer), n->name);
	clyde_stack_copy(st->level, sizeof(st->level), "striped");
	st->chunk_bytes = n->dm_stripe_bytes;
	st->data_disks = n->dm_stripes;
	st->disks = n->dm_stripes;
	st->stripe_bytes = st->chunk_bytes * st->data_disks;
	return 0;
}

static void dm_text(FILE *f, const struct clyde_stack_node *n)
{
	char a[32];

	fprintf(f, " %s", n->dm_name);
	if (n->lvm_lv[0])
		fprintf(f, " (LVM: LV %s in VG %s)", n->lvm_lv, n->lvm_vg);
	if (n->dm_target[0])
		fprintf(f, ", %s", n->dm_target);
	if (n->dm_stripes)
		fprintf(f, " %u x %s", n->dm_stripes,
			clyde_stack_fmt_bytes(a, sizeof(a),
					      n->dm_stripe_bytes));
	if (!strcmp(n->dm_target, "linear"))
		fprintf(f, ", start %s",
			clyde_stack_fmt_bytes(a, sizeof(a), n->dm_start_bytes));
}

static void get_target(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%s", n->dm_target);
}

static void get_stripes(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%u", n->dm_stripes);
}

static void get_chunk(const struct clyde_stack_node *n, char *b, size_t l)
{
	if (n->dm_stripe_bytes)
		clyde_stack_fmt_bytes(b, l, n->dm_stripe_bytes);
	else
		b[0] = '\0';
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_node, member)
static const struct clyde_stack_field dm_fields[] = {
	F("dm_name", STR, dm_name),
	F("dm_uuid", STR, dm_uuid),
	F("lvm_vg", STR, lvm_vg),
	F("lvm_lv", STR, lvm_lv),
	F("dm_target", STR, dm_target),
	F("dm_stripes", U32, dm_stripes),
	F("dm_stripe_bytes", U64, dm_stripe_bytes),
	F("dm_start_bytes", U64, dm_start_bytes),
	F("dm_table", STR, dm_table),
};

static const struct clyde_stack_node_fact dm_facts[] = {
	{ "dm target", get_target },
	{ "dm stripes", get_stripes },
	{ "dm stripe size", get_chunk },
};

const struct clyde_stack_kind clyde_stack_dm = {
	.name = "dm",
	.claims = dm_claims,
	.read = dm_read,
	.stripe = dm_stripe,
	.fields = dm_fields,
	.nfields = CLYDE_STACK_NFIELDS(dm_fields),
	.fields_last = true,
	.text = dm_text,
	.own_queue = true,
	.facts = dm_facts,
	.nfacts = CLYDE_STACK_NFIELDS(dm_facts),
};
