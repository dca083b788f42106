/* A zram device: its compression algorithm. */
#include <string.h>

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

static bool zram_claims(const char *root, const char *dev)
{
	(void)root;
	return strncmp(dev, "zram", 4) == 0;
}

static void zram_read(const char *root, struct clyde_stack_node *n)
{
	char buf[256];

	if (clyde_sysfs_text(root, n->name, "comp_algorithm", buf,
			     sizeof(buf)) > 0)
		clyde_sysfs_selected(buf, n->zram_algorithm,
				     sizeof(n->zram_algorithm));
}

static void zram_text(FILE *f, const struct clyde_stack_node *n)
{
	if (n->zram_algorithm[0])
		fprintf(f, " %s", n->zram_algorithm);
}

static const struct clyde_stack_field zram_fields[] = {
	CLYDE_STACK_FIELD("zram_algorithm", STR, struct clyde_stack_node,
			  zram_algorithm),
};

const struct clyde_stack_kind clyde_stack_zram = {
	.name = "zram",
	.claims = zram_claims,
	.read = zram_read,
	.fields = zram_fields,
	.nfields = CLYDE_STACK_NFIELDS(zram_fields),
	.fields_last = true,
	.text = zram_text,
};
