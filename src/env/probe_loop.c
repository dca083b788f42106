/*
 * A loop device: its backing file, offset and direct I/O (loop/ in sysfs;
 * stack_ioctl.c reads the same with LOOP_GET_STATUS64 when /sys has no
 * name for the device).
 */
#include <inttypes.h>
#include <string.h>

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

static bool loop_claims(const char *root, const char *dev)
{
	(void)root;
	return strncmp(dev, "loop", 4) == 0;
}

static void loop_init(struct clyde_stack_node *n)
{
	n->dio = -1;
}

static void loop_read(const char *root, struct clyde_stack_node *n)
{
	char buf[1024];
	uint32_t dio;

	if (clyde_sysfs_text(root, n->name, "loop/backing_file", buf,
			     sizeof(buf)) > 0)
		clyde_stack_copy(n->backing_file, sizeof(n->backing_file), buf);
	if (clyde_sysfs_u32(root, n->name, "loop/dio", &dio) == 0)
		n->dio = dio != 0;
	(void)clyde_sysfs_u64(root, n->name, "loop/offset", &n->loop_offset);
}

static void loop_text(FILE *f, const struct clyde_stack_node *n)
{
	fprintf(f, ", backing file %s, dio %s",
		n->backing_file[0] ? n->backing_file : "(none)",
		n->dio < 0 ? "unknown" :
		n->dio	   ? "on" :
			     "off");
	if (n->loop_offset)
		fprintf(f, ", offset %" PRIu64, n->loop_offset);
}

static void get_dio(const struct clyde_stack_node *n, char *b, size_t l)
{
	snprintf(b, l, "%s", n->dio < 0 ? "?" : n->dio ? "on" : "off");
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_node, member)
static const struct clyde_stack_field loop_fields[] = {
	F("backing_file", STR, backing_file),
	F("dio", INT, dio),
	F("loop_offset", U64, loop_offset),
};

static const struct clyde_stack_node_fact loop_facts[] = {
	{ "loop dio", get_dio },
};

const struct clyde_stack_kind clyde_stack_loop = {
	.name = "loop",
	.claims = loop_claims,
	.init = loop_init,
	.read = loop_read,
	.fields = loop_fields,
	.nfields = CLYDE_STACK_NFIELDS(loop_fields),
	.text = loop_text,
	.facts = loop_facts,
	.nfacts = CLYDE_STACK_NFIELDS(loop_facts),
};
