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

const char *clyde_member_role_name(enum clyde_member_role r)
{
	switch (r) {
	case CLYDE_ROLE_JOURNAL:
		return "journal";
	case CLYDE_ROLE_LOG:
		return "log";
	case CLYDE_ROLE_DATA:
		break;
	}
	return "data";
}

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

/* How many members md array `name` is missing now; 0 when unreadable. */
static uint64_t md_missing(const char *root, const char *name)
{
	uint64_t v = 0;

	if (clyde_sys_u64(root, &v, "/sys/block/%s/md/degraded", name))
		return 0;
	return v;
}

void clyde_members_begin(struct clyde_member_watch *w)
{
	for (unsigned i = 0; i < w->n; i++)
		w->have[i] = clyde_members_stat(w->root, w->name[i],
						&w->before[i]) == 0;
	for (unsigned k = 0; k < w->nmd; k++)
		w->md_before[k] = md_missing(w->root, w->md[k]);
}

/* Name the first array that lost members since clyde_members_begin. */
static void degraded_note(const struct clyde_member_watch *w, char *note,
			  size_t n)
{
	note[0] = '\0';
	for (unsigned k = 0; k < w->nmd; k++) {
		uint64_t now = md_missing(w->root, w->md[k]);

		if (now > w->md_before[k]) {
			snprintf(note, n,
				 "%s: %llu -> %llu of %u members missing",
				 w->md[k], (unsigned long long)w->md_before[k],
				 (unsigned long long)now, w->md_disks[k]);
			return;
		}
	}
}

/* Is member `name` faulty in one of the stack's md arrays? */
static bool md_faulty(const struct clyde_member_watch *w, const char *name)
{
	for (unsigned k = 0; k < w->nmd; k++) {
		char st[128];

		if (clyde_sys_text(w->root, st, sizeof(st),
				   "/sys/block/%s/md/dev-%s/state", w->md[k],
				   name) == 0 &&
		    strstr(st, "faulty"))
			return true;
	}
	return false;
}

/* A member for clyde_devstat_settled. */
struct member_ref {
	const char *root;
	const char *name;
};

static int read_member(const void *arg, struct clyde_devstat *s)
{
	const struct member_ref *m = arg;

	return clyde_members_stat(m->root, m->name, s);
}

void clyde_members_end(struct clyde_member_watch *w, struct clyde_members *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < w->n; i++) {
		struct clyde_member_io *m = &out->m[out->n++];
		struct clyde_devstat after;
		struct member_ref ref = { w->root, w->name[i] };

		snprintf(m->name, sizeof(m->name), "%s", w->name[i]);
		snprintf(m->disk, sizeof(m->disk), "%s", w->disk[i]);
		m->role = w->role[i];
		m->is_top = w->is_top[i];
		m->failed = md_faulty(w, w->name[i]);
		/* Once the requests are counted (clyde_devstat_settled). */
		if (w->have[i] &&
		    clyde_devstat_settled(read_member, &ref,
					  CLYDE_DEVSTAT_SETTLE_TRIES,
					  &after) == 0)
			clyde_devstat_delta(&w->before[i], &after, &m->io);
	}
	degraded_note(w, out->degraded, sizeof(out->degraded));
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

/* Is node `to` node `from` or below it? */
static bool below(const struct clyde_stack *s, size_t from, size_t to,
		  unsigned depth)
{
	const struct clyde_stack_node *n = &s->nodes[from];

	if (from == to)
		return true;
	if (depth > CLYDE_STACK_MAX_NODES)
		return false;
	for (uint32_t c = 0; c < n->nchildren; c++)
		if (n->children[c] < s->nnodes &&
		    below(s, n->children[c], to, depth + 1))
			return true;
	return false;
}

static long node_index(const struct clyde_stack *s, const char *name)
{
	for (size_t i = 0; i < s->nnodes; i++)
		if (!strcmp(s->nodes[i].name, name))
			return (long)i;
	return -1;
}

/* The role of node `leaf`: journal or log when it lies under the
 * filesystem's external journal device and under none of its top
 * devices. */
static enum clyde_member_role role_of(const struct clyde_stack *s, size_t leaf)
{
	long j;

	if (!s->has_fs || s->fs.journal != CLYDE_JOURNAL_EXTERNAL ||
	    !s->fs.journal_dev[0])
		return CLYDE_ROLE_DATA;
	j = node_index(s, s->fs.journal_dev);
	if (j < 0 || !below(s, (size_t)j, leaf, 0))
		return CLYDE_ROLE_DATA;
	for (uint32_t t = 0; t < s->ntop; t++)
		if (s->top[t] < s->nnodes && (long)s->top[t] != j &&
		    below(s, s->top[t], leaf, 0))
			return CLYDE_ROLE_DATA;
	return strcmp(s->fs.type, "xfs") ? CLYDE_ROLE_JOURNAL : CLYDE_ROLE_LOG;
}

/* The whole disk of block device `name`: its parent in sysfs when it is a
 * partition, else itself. */
static void whole_disk(const char *root, const char *name, char *out, size_t n)
{
	char link[4096], path[4200], *last;
	uint64_t part;
	ssize_t len;

	snprintf(out, n, "%s", name);
	if (clyde_sys_u64(root, &part, "/sys/class/block/%s/partition", name) ||
	    clyde_sys_path(root, path, sizeof(path), "/sys/class/block/%s",
			   name))
		return;
	len = readlink(path, link, sizeof(link) - 1);
	if (len <= 0)
		return;
	link[len] = '\0';
	/* ".../block/vda/vda1": the component before the last. */
	last = strrchr(link, '/');
	if (!last)
		return;
	*last = '\0';
	last = strrchr(link, '/');
	clyde_sys_copy(out, n, last ? last + 1 : link);
}

void clyde_members_describe(struct clyde_member_watch *w,
			    const struct clyde_stack *s)
{
	w->nmd = 0;
	for (size_t i = 0; i < s->nnodes && w->nmd < CLYDE_MEMBERS_MAX_MD;
	     i++) {
		if (s->nodes[i].kind != &clyde_stack_md ||
		    strlen(s->nodes[i].name) >= CLYDE_MEMBER_NAME)
			continue;
		snprintf(w->md[w->nmd], CLYDE_MEMBER_NAME, "%s",
			 s->nodes[i].name);
		w->md_disks[w->nmd++] = s->nodes[i].raid_disks;
	}
	for (unsigned i = 0; i < w->n; i++) {
		long k = node_index(s, w->name[i]);
		char under[CLYDE_MEMBER_NAME];

		w->role[i] = CLYDE_ROLE_DATA;
		w->is_top[i] = false;
		if (k >= 0) {
			w->role[i] = role_of(s, (size_t)k);
			for (uint32_t t = 0; t < s->ntop; t++)
				w->is_top[i] |= s->top[t] == (uint32_t)k;
			w->major[i] = s->nodes[k].major;
			w->minor[i] = s->nodes[k].minor;
		}
		if (loop_disk(w->root, w->name[i], under, sizeof(under)) == 0)
			whole_disk(w->root, under, w->disk[i],
				   CLYDE_MEMBER_NAME);
		else if (strncmp(w->name[i], "loop", 4))
			whole_disk(w->root, w->name[i], w->disk[i],
				   CLYDE_MEMBER_NAME);
		else
			w->disk[i][0] = '\0';
	}
}

void clyde_members_setup(struct clyde_member_watch *w,
			 const struct clyde_stack *s, struct clyde_virt *virt)
{
	const char *leaves[CLYDE_MAX_MEMBERS];
	size_t n = clyde_stack_leaves(s, leaves, CLYDE_MAX_MEMBERS);

	clyde_members_init(w, NULL);
	for (size_t i = 0; i < n && i < CLYDE_MAX_MEMBERS; i++)
		clyde_members_add(w, leaves[i]);
	clyde_members_describe(w, s);
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
