#include "env/members.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "env/members_sys.h"
#include "env/members_virt.h"
#include "env/stack.h"

void clyde_members_init(struct clyde_member_watch *w, const char *root)
{
	memset(w, 0, sizeof(*w));
	w->root = root;
}

static bool has(const struct clyde_member_watch *w, const char *name)
{
	for (unsigned i = 0; i < w->n; i++)
		if (!strcmp(w->name[i], name))
			return true;
	return false;
}

int clyde_members_add(struct clyde_member_watch *w, const char *name)
{
	if (!name[0] || strlen(name) >= CLYDE_MEMBER_NAME || has(w, name))
		return 0;
	if (w->n == CLYDE_MAX_MEMBERS)
		return -ENOSPC;
	snprintf(w->name[w->n++], CLYDE_MEMBER_NAME, "%s", name);
	return 0;
}

int clyde_members_stat(const char *root, const char *name,
		       struct clyde_devstat *s)
{
	char buf[512];
	int ret;

	ret = clyde_sys_text(root, buf, sizeof(buf), "/sys/class/block/%s/stat",
			     name);
	return ret ? ret : clyde_devstat_parse(buf, s);
}

void clyde_members_begin(struct clyde_member_watch *w)
{
	for (unsigned i = 0; i < w->n; i++)
		w->have[i] = clyde_members_stat(w->root, w->name[i],
						&w->before[i]) == 0;
}

void clyde_members_end(struct clyde_member_watch *w, struct clyde_members *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < w->n; i++) {
		struct clyde_member_io *m = &out->m[out->n++];
		struct clyde_devstat after;

		snprintf(m->name, sizeof(m->name), "%s", w->name[i]);
		if (w->have[i] &&
		    clyde_members_stat(w->root, w->name[i], &after) == 0)
			clyde_devstat_delta(&w->before[i], &after, &m->io);
	}
}

/* The block device that holds loop device `dev`'s backing file. */
static int loop_disk(const char *root, const char *dev, char *out, size_t n)
{
	char file[4096], link[64];
	struct stat st;

	if (strncmp(dev, "loop", 4) ||
	    clyde_sys_text(root, file, sizeof(file),
			   "/sys/block/%s/loop/backing_file", dev) ||
	    stat(file, &st) < 0)
		return -ENOENT;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	return clyde_sys_link_base(root, out, n, "%s", link);
}

void clyde_members_setup(struct clyde_member_watch *w,
			 const struct clyde_stack *s, struct clyde_virt *virt)
{
	const char *leaves[CLYDE_MAX_MEMBERS];
	size_t n = clyde_stack_leaves(s, leaves, CLYDE_MAX_MEMBERS);

	clyde_members_init(w, NULL);
	for (size_t i = 0; i < n && i < CLYDE_MAX_MEMBERS; i++)
		clyde_members_add(w, leaves[i]);
	memset(virt, 0, sizeof(*virt));
	for (unsigned i = 0; i < w->n; i++) {
		char under[CLYDE_MEMBER_NAME];

		if (clyde_virt_detect(w->root, w->name[i], virt) > 0)
			return;
		/* A loop device's storage is its backing file's disk. */
		if (loop_disk(w->root, w->name[i], under, sizeof(under)) == 0 &&
		    clyde_virt_detect(w->root, under, virt) > 0)
			return;
	}
	memset(virt, 0, sizeof(*virt));
}
