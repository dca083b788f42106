#include "env/members_virt.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "env/members_sys.h"

/* Case-insensitive "does hay contain needle". */
static bool has_word(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

static int found(struct clyde_virt *v, const char *kind, const char *what,
		 const char *value)
{
	v->is_virtual = true;
	size_t n;

	clyde_sys_copy(v->kind, sizeof(v->kind), kind);
	clyde_sys_copy(v->why, sizeof(v->why), what);
	n = strlen(v->why);
	if (n + 1 < sizeof(v->why)) {
		v->why[n] = ' ';
		clyde_sys_copy(v->why + n + 1, sizeof(v->why) - n - 1, value);
	}
	return 1;
}

/* Known names of hypervisors in a vendor, model or DMI string. */
static const char *kind_of(const char *s)
{
	static const struct {
		const char *word, *kind;
	} known[] = {
		{ "virtio", "virtio" },
		{ "xen", "xen" },
		{ "vmware", "vmware" },
		{ "msft", "hyper-v" },
		{ "hyper-v", "hyper-v" },
		{ "microsoft", "hyper-v" },
		{ "qemu", "qemu" },
		{ "kvm", "qemu" },
		{ "virtualbox", "virtualbox" },
		{ "vbox", "virtualbox" },
		{ "bochs", "qemu" },
		{ "amazon ec2", "aws" },
		{ "google compute", "gce" },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (has_word(s, known[i].word))
			return known[i].kind;
	return NULL;
}

/* The whole disk of `dev`: for a partition, the directory above it in
 * sysfs (/sys/class/block/vda1 -> ../../devices/.../block/vda/vda1). */
static void whole_disk(const char *root, const char *dev, char *out, size_t n)
{
	char path[4200], link[4096], *slash;
	uint64_t part;
	ssize_t len;

	clyde_sys_copy(out, n, dev);
	if (clyde_sys_u64(root, &part, "/sys/class/block/%s/partition", dev) ||
	    clyde_sys_path(root, path, sizeof(path), "/sys/class/block/%s",
			   dev))
		return;
	len = readlink(path, link, sizeof(link) - 1);
	if (len <= 0)
		return;
	link[len] = '\0';
	slash = strrchr(link, '/');
	if (!slash)
		return;
	*slash = '\0';
	slash = strrchr(link, '/');
	clyde_sys_copy(out, n, slash ? slash + 1 : link);
}

static bool software_device(const char *d)
{
	static const char *const prefixes[] = { "loop", "zram", "md", "dm-",
						"ram",	"nbd",	"rbd" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(d, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

int clyde_virt_detect(const char *root, const char *dev, struct clyde_virt *v)
{
	char buf[256];
	const char *k;

	memset(v, 0, sizeof(*v));
	whole_disk(root, dev, v->disk, sizeof(v->disk));
	if (software_device(v->disk))
		return 0;
	if (clyde_sys_link_base(root, buf, sizeof(buf),
				"/sys/block/%s/device/driver", v->disk) == 0 &&
	    (k = kind_of(buf)) != NULL)
		return found(v, k, "driver", buf);
	if (!strcmp(buf, "vbd") || !strncmp(v->disk, "xvd", 3))
		return found(v, "xen", "driver", buf[0] ? buf : "xen-blkfront");
	if (!strcmp(buf, "storvsc"))
		return found(v, "hyper-v", "driver", buf);
	if (clyde_sys_text(root, buf, sizeof(buf),
			   "/sys/block/%s/device/modalias", v->disk) == 0 &&
	    !strncmp(buf, "virtio:", 7))
		return found(v, "virtio", "modalias", buf);
	if (clyde_sys_text(root, buf, sizeof(buf),
			   "/sys/block/%s/device/vendor", v->disk) == 0 &&
	    (k = kind_of(buf)) != NULL)
		return found(v, k, "vendor", buf);
	if (clyde_sys_text(root, buf, sizeof(buf), "/sys/block/%s/device/model",
			   v->disk) == 0 &&
	    ((k = kind_of(buf)) != NULL || has_word(buf, "virtual disk")))
		return found(v, k ? k : "virtual", "model", buf);
	if (clyde_sys_text(root, buf, sizeof(buf),
			   "/sys/class/dmi/id/sys_vendor") == 0 &&
	    (k = kind_of(buf)) != NULL)
		return found(v, k, "machine", buf);
	if (clyde_sys_text(root, buf, sizeof(buf),
			   "/sys/class/dmi/id/product_name") == 0 &&
	    (k = kind_of(buf)) != NULL)
		return found(v, k, "machine", buf);
	return 0;
}
