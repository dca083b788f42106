#include "env/members.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "env/members_sys.h"
#include "env/members_virt.h"

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

/* The leaves below `name`, depth-bounded: a stack is never this deep. */
static int add_leaves(struct clyde_member_watch *w, const char *name, int depth)
{
	char dir[4200];
	struct dirent *de;
	DIR *d;
	int ret = 0, slaves = 0;

	if (!name[0] || strlen(name) >= CLYDE_MEMBER_NAME)
		return 0;
	if (depth < 8 &&
	    clyde_sys_path(w->root, dir, sizeof(dir),
			   "/sys/class/block/%s/slaves", name) == 0 &&
	    (d = opendir(dir)) != NULL) {
		while (!ret && (de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			slaves++;
			ret = add_leaves(w, de->d_name, depth + 1);
		}
		closedir(d);
		if (slaves)
			return ret;
	}
	if (has(w, name))
		return 0;
	if (w->n == CLYDE_MAX_MEMBERS)
		return -ENOSPC;
	snprintf(w->name[w->n++], CLYDE_MEMBER_NAME, "%s", name);
	return 0;
}

int clyde_members_add(struct clyde_member_watch *w, const char *name)
{
	return add_leaves(w, name, 0);
}

/* Does /sys/fs/btrfs/<fsid>/devices hold `dev`? */
static bool btrfs_has(const char *dir, const char *dev)
{
	char p[4400];
	int n = snprintf(p, sizeof(p), "%s/%s", dir, dev);

	return n > 0 && (size_t)n < sizeof(p) && access(p, F_OK) == 0;
}

/* Add every device of the btrfs filesystem that holds `dev`; 1 when one
 * was found, 0 when none, or -ENOSPC. */
static int add_btrfs(struct clyde_member_watch *w, const char *dev)
{
	char top[4200], dir[4400];
	struct dirent *de, *e;
	DIR *d, *dd;
	int ret = 0;

	if (clyde_sys_path(w->root, top, sizeof(top), "/sys/fs/btrfs") ||
	    !(d = opendir(top)))
		return 0;
	while (!ret && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "features"))
			continue;
		int len = snprintf(dir, sizeof(dir), "%s/%s/devices", top,
				   de->d_name);

		if (len < 0 || (size_t)len >= sizeof(dir) ||
		    !btrfs_has(dir, dev) || !(dd = opendir(dir)))
			continue;
		while (ret >= 0 && (e = readdir(dd)) != NULL)
			if (e->d_name[0] != '.')
				ret = add_leaves(w, e->d_name, 0);
		closedir(dd);
		if (ret >= 0)
			ret = 1;
	}
	closedir(d);
	return ret;
}

int clyde_members_find(struct clyde_member_watch *w,
		       const struct clyde_target *t)
{
	int ret;

	if (!t->has_block_device || !t->block_dev[0])
		return 0;
	if (!strcmp(t->fstype, "btrfs")) {
		ret = add_btrfs(w, t->block_dev);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return add_leaves(w, t->block_dev, 0);
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

void clyde_members_setup_target(struct clyde_member_watch *w,
				const struct clyde_target *t,
				struct clyde_virt *virt)
{
	clyde_members_init(w, NULL);
	clyde_members_find(w, t);
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
