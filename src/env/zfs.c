/*
 * The ZFS reader (zfs.h): `zpool`, `zfs` and `zdb -l` output, the kstats
 * under /proc/spl/kstat/zfs and the mount table, parsed into plain
 * structs.  The text formats are the -H (tab-separated) and -p (exact
 * numbers) ones where the command has them; `zpool status` has neither
 * and is read by its indentation: two spaces per level under the pool's
 * name, the allocation classes (logs, cache, special, dedup, spares) at
 * the pool's level.
 */
#include "env/zfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/slurp.h"
#include "env/env.h"
#include "env/members_sys.h"
#include "env/mountinfo.h"

#define ZFS_KSTAT_ROOT "/proc/spl/kstat/zfs"
#define ZFS_MOUNTINFO "/proc/self/mountinfo"

const char *clyde_zfs_vdev_type_name(enum clyde_zfs_vdev_type t)
{
	static const char *const names[] = {
		[CLYDE_ZFS_VDEV_DISK] = "disk",
		[CLYDE_ZFS_VDEV_FILE] = "file",
		[CLYDE_ZFS_VDEV_MIRROR] = "mirror",
		[CLYDE_ZFS_VDEV_RAIDZ] = "raidz",
		[CLYDE_ZFS_VDEV_DRAID] = "draid",
		[CLYDE_ZFS_VDEV_SPARE] = "spare",
		[CLYDE_ZFS_VDEV_REPLACING] = "replacing",
		[CLYDE_ZFS_VDEV_DSPARE] = "dspare",
		[CLYDE_ZFS_VDEV_OTHER] = "other",
	};

	if ((unsigned)t < sizeof(names) / sizeof(names[0]) && names[t])
		return names[t];
	return "other";
}

const char *clyde_zfs_class_name(enum clyde_zfs_class c)
{
	static const char *const names[] = {
		[CLYDE_ZFS_CLASS_NORMAL] = "normal",
		[CLYDE_ZFS_CLASS_LOG] = "log",
		[CLYDE_ZFS_CLASS_CACHE] = "cache",
		[CLYDE_ZFS_CLASS_SPECIAL] = "special",
		[CLYDE_ZFS_CLASS_DEDUP] = "dedup",
		[CLYDE_ZFS_CLASS_SPARE] = "spare",
	};

	if ((unsigned)c < sizeof(names) / sizeof(names[0]) && names[c])
		return names[c];
	return "normal";
}

int clyde_zfs_run_exec(void *arg, struct clyde_ctx *ctx,
		       const char *const argv[], char **out)
{
	int fds[2], status;
	size_t len = 0, cap = 4096;
	char *buf;
	pid_t pid;

	(void)arg;
	*out = NULL;
	buf = malloc(cap);
	if (!buf)
		return clyde_err(ctx, ENOMEM, "%s: output buffer", argv[0]);
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(buf);
		return clyde_err(ctx, errno, "%s: pipe", argv[0]);
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		free(buf);
		return clyde_err(ctx, e, "%s: fork", argv[0]);
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fds[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		/* execvp's argv is not const for historical reasons only. */
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t r;

		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		r = read(fds[0], buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fds[0]);
	buf[len] = '\0';
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			free(buf);
			return clyde_err(ctx, errno, "%s: wait", argv[0]);
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		free(buf);
		return clyde_err(ctx, ENOENT,
				 "%s: cannot run it (not in PATH?)", argv[0]);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(buf);
		return clyde_err(ctx, 0, "%s %s %s: exit status %d", argv[0],
				 argv[1] ? argv[1] : "",
				 argv[1] && argv[2] ? argv[2] : "",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	*out = buf;
	return 0;
}

static int run(struct clyde_ctx *ctx, const struct clyde_zfs_src *src,
	       const char *const argv[], char **out)
{
	if (src && src->run)
		return src->run(src->run_arg, ctx, argv, out);
	return clyde_zfs_run_exec(NULL, ctx, argv, out);
}

/* Read a whole file into a string the caller frees (core/slurp.h). */
static int slurp(struct clyde_ctx *ctx, const char *path, char **out)
{
	int rc = clyde_slurp(path, out, NULL);

	if (rc == -ENOMEM)
		return clyde_err(ctx, ENOMEM, "%s: read", path);
	if (rc < 0)
		return clyde_err(ctx, -rc, "%s: open", path);
	return 0;
}

/* Split line (modified) at tabs or runs of blanks into at most max fields;
 * returns how many.  With tabs, empty fields are kept (zpool list -v -H
 * starts a vdev's row with an empty one). */
static int split(char *line, char **f, int max, bool tabs)
{
	int n = 0;
	char *p = line;

	if (tabs) {
		while (n < max) {
			f[n++] = p;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p++ = '\0';
		}
		return n;
	}
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		f[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* The next line of *p (NUL-terminated in place), or NULL at the end. */
static char *next_line(char **p)
{
	char *s = *p, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, '\n');
	if (e) {
		*e = '\0';
		*p = e + 1;
	} else {
		*p = s + strlen(s);
	}
	return s;
}

static uint64_t u64_of(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return 0;
	return v;
}

/* Type and geometry from a vdev's name in `zpool status`. */
static void vdev_kind(struct clyde_zfs_vdev *v)
{
	const char *n = v->name;
	int p = 0, d = 0, c = 0, s = 0, g = 0, sp = 0;

	if (n[0] == '/') {
		v->type = strncmp(n, "/dev/", 5) == 0 ? CLYDE_ZFS_VDEV_DISK :
							CLYDE_ZFS_VDEV_FILE;
		return;
	}
	if (strncmp(n, "mirror-", 7) == 0) {
		v->type = CLYDE_ZFS_VDEV_MIRROR;
	} else if (strncmp(n, "raidz", 5) == 0) {
		v->type = CLYDE_ZFS_VDEV_RAIDZ;
		/* "raidz1-0"; before 0.8 "raidz-0" meant parity 1. */
		v->parity = n[5] == '-' ? 1 : atoi(n + 5);
	} else if (strncmp(n, "draid", 5) == 0 &&
		   sscanf(n, "draid%d:%dd:%dc:%ds-", &p, &d, &c, &s) == 4) {
		v->type = CLYDE_ZFS_VDEV_DRAID;
		v->parity = p;
		v->draid_data = d;
		v->draid_children = c;
		v->draid_spares = s;
	} else if (strncmp(n, "draid", 5) == 0 &&
		   sscanf(n, "draid%d-%d-%d", &p, &g, &sp) == 3) {
		v->type = CLYDE_ZFS_VDEV_DSPARE; /* draidP-TOP-SPARE */
	} else if (strncmp(n, "spare-", 6) == 0) {
		v->type = CLYDE_ZFS_VDEV_SPARE;
	} else if (strncmp(n, "replacing-", 10) == 0) {
		v->type = CLYDE_ZFS_VDEV_REPLACING;
	} else {
		/* A leaf named without -P (sda): a disk. */
		v->type = strchr(n, '-') ? CLYDE_ZFS_VDEV_OTHER :
					   CLYDE_ZFS_VDEV_DISK;
	}
}

static bool is_leaf(const struct clyde_zfs_vdev *v)
{
	return v->type == CLYDE_ZFS_VDEV_DISK || v->type == CLYDE_ZFS_VDEV_FILE;
}

/* A leaf's block device: the last component of its path with symlinks
 * resolved (a /dev/disk/by-id name), or of the path itself where it does
 * not resolve (the tests' fixtures). */
static void leaf_dev(struct clyde_zfs_vdev *v)
{
	char real[PATH_MAX];
	const char *p = v->name, *base;

	clyde_sys_copy(v->path, sizeof(v->path), v->name);
	if (v->type != CLYDE_ZFS_VDEV_DISK)
		return;
	if (realpath(v->name, real))
		p = real;
	base = strrchr(p, '/');
	clyde_sys_copy(v->dev, sizeof(v->dev), base ? base + 1 : p);
}

static int class_of(const char *name, enum clyde_zfs_class *c)
{
	static const struct {
		const char *name;
		enum clyde_zfs_class cls;
	} classes[] = {
		{ "logs", CLYDE_ZFS_CLASS_LOG },
		{ "cache", CLYDE_ZFS_CLASS_CACHE },
		{ "special", CLYDE_ZFS_CLASS_SPECIAL },
		{ "dedup", CLYDE_ZFS_CLASS_DEDUP },
		{ "spares", CLYDE_ZFS_CLASS_SPARE },
	};

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (strcmp(name, classes[i].name) == 0) {
			*c = classes[i].cls;
			return 0;
		}
	}
	return -1;
}

/* The tree and states of `zpool status -P -p POOL`. */
static int parse_status(struct clyde_ctx *ctx, char *text, const char *pool,
			struct clyde_zfs_pool *out)
{
	enum clyde_zfs_class cls = CLYDE_ZFS_CLASS_NORMAL;
	int last_at[32], in_config = 0, seen_pool = 0;
	char *p = text, *line;

	while ((line = next_line(&p))) {
		char *f[8];
		int spaces = 0, level, n;

		if (!in_config) {
			in_config = strncmp(line, "\tNAME", 5) == 0;
			continue;
		}
		if (line[0] != '\t')
			break; /* "errors: ...", the end of the tree */
		line++;
		while (line[spaces] == ' ')
			spaces++;
		level = spaces / 2;
		n = split(line, f, 8, false);
		if (n == 0)
			continue;
		if (level == 0) {
			if (strcmp(f[0], pool) == 0) {
				seen_pool = 1;
				cls = CLYDE_ZFS_CLASS_NORMAL;
				if (n > 1)
					clyde_sys_copy(out->state,
						       sizeof(out->state),
						       f[1]);
			} else if (class_of(f[0], &cls) < 0) {
				return clyde_err(
					ctx, EINVAL,
					"zpool status %s: unexpected '%s' at the "
					"pool's level",
					pool, f[0]);
			}
			continue;
		}
		if (level - 1 >= (int)(sizeof(last_at) / sizeof(last_at[0])))
			continue;
		if (out->n_vdevs >= CLYDE_ZFS_MAX_VDEVS)
			return clyde_err(ctx, E2BIG,
					 "zpool status %s: more than %d vdevs",
					 pool, CLYDE_ZFS_MAX_VDEVS);
		struct clyde_zfs_vdev *v = &out->vdevs[out->n_vdevs];

		memset(v, 0, sizeof(*v));
		clyde_sys_copy(v->name, sizeof(v->name), f[0]);
		v->cls = cls;
		v->depth = level - 1;
		v->parent = v->depth == 0 ? -1 : last_at[v->depth - 1];
		v->ashift = -1;
		if (n > 1)
			clyde_sys_copy(v->state, sizeof(v->state), f[1]);
		if (n > 4) {
			v->read_errors = u64_of(f[2]);
			v->write_errors = u64_of(f[3]);
			v->checksum_errors = u64_of(f[4]);
		}
		vdev_kind(v);
		if (is_leaf(v))
			leaf_dev(v);
		last_at[v->depth] = out->n_vdevs++;
	}
	if (!seen_pool)
		return clyde_err(
			ctx, EINVAL,
			"zpool status %s: no configuration of the pool in "
			"its output",
			pool);
	return 0;
}

/* Sizes from `zpool list -v -H -P -p POOL`: the pool's row, then a row per
 * vdev whose name is in the first non-empty field. */
static void parse_list(char *text, struct clyde_zfs_pool *out)
{
	char *p = text, *line;
	bool pool_done = false;

	while ((line = next_line(&p))) {
		char *f[16], **g;
		int n = split(line, f, 16, true), k = 0;

		while (k < n && f[k][0] == '\0')
			k++;
		g = f + k;
		n -= k;
		if (n < 4)
			continue;
		if (!pool_done && strcmp(g[0], out->name) == 0) {
			out->size_bytes = u64_of(g[1]);
			out->alloc_bytes = u64_of(g[2]);
			out->free_bytes = u64_of(g[3]);
			pool_done = true;
			continue;
		}
		for (int i = 0; i < out->n_vdevs; i++) {
			struct clyde_zfs_vdev *v = &out->vdevs[i];

			if (v->size_bytes == 0 && strcmp(v->name, g[0]) == 0) {
				v->size_bytes = u64_of(g[1]);
				v->alloc_bytes = u64_of(g[2]);
				break;
			}
		}
	}
}

/* The data's layout: the kind of the normal class's top-level vdevs. */
static void pool_layout(struct clyde_zfs_pool *out)
{
	char kind[16] = "";

	for (int i = 0; i < out->n_vdevs; i++) {
		const struct clyde_zfs_vdev *v = &out->vdevs[i];
		char k[16];

		if (v->depth != 0 || v->cls != CLYDE_ZFS_CLASS_NORMAL)
			continue;
		if (is_leaf(v))
			snprintf(k, sizeof(k), "stripe");
		else if (v->type == CLYDE_ZFS_VDEV_RAIDZ ||
			 v->type == CLYDE_ZFS_VDEV_DRAID)
			snprintf(k, sizeof(k), "%s%d",
				 clyde_zfs_vdev_type_name(v->type), v->parity);
		else
			snprintf(k, sizeof(k), "%s",
				 clyde_zfs_vdev_type_name(v->type));
		if (!kind[0])
			snprintf(kind, sizeof(kind), "%s", k);
		else if (strcmp(kind, k) != 0)
			snprintf(kind, sizeof(kind), "mixed");
	}
	clyde_sys_copy(out->layout, sizeof(out->layout), kind);
}

/* The first "ashift: N" of `zdb -l`'s label, or -1. */
static int label_ashift(const char *text)
{
	const char *a = strstr(text, " ashift: ");

	return a ? atoi(a + 9) : -1;
}

/* A leaf below top-level vdev i (itself when it is one), or -1. */
static int first_leaf(const struct clyde_zfs_pool *pl, int i)
{
	if (is_leaf(&pl->vdevs[i]))
		return i;
	for (int j = i + 1; j < pl->n_vdevs && pl->vdevs[j].depth > 0; j++) {
		if (is_leaf(&pl->vdevs[j]))
			return j;
	}
	return -1;
}

int clyde_zfs_pool_read(struct clyde_ctx *ctx, const struct clyde_zfs_src *src,
			const char *pool, struct clyde_zfs_pool *out)
{
	const char *status[] = { "zpool", "status", "-P", "-p", pool, NULL };
	const char *list[] = { "zpool", "list", "-v", "-H",
			       "-P",	"-p",	pool, NULL };
	const char *get[] = { "zpool", "get", "-H", "-p", "ashift", pool, NULL };
	char *text;
	int rc;

	memset(out, 0, sizeof(*out));
	clyde_sys_copy(out->name, sizeof(out->name), pool);
	rc = run(ctx, src, status, &text);
	if (rc < 0)
		return rc;
	rc = parse_status(ctx, text, pool, out);
	free(text);
	if (rc < 0)
		return rc;
	pool_layout(out);

	rc = run(ctx, src, list, &text);
	if (rc < 0)
		return rc;
	parse_list(text, out);
	free(text);

	rc = run(ctx, src, get, &text);
	if (rc < 0)
		return rc;
	out->ashift = -1;
	for (char *p = text, *line; (line = next_line(&p));) {
		char *f[4];

		if (split(line, f, 4, true) >= 3 && strcmp(f[1], "ashift") == 0)
			out->ashift = atoi(f[2]);
	}
	free(text);

	/* Each top-level vdev's ashift from the label of one of its leaves
	 * (the cache and spares have no ashift of their own). */
	for (int i = 0; i < out->n_vdevs; i++) {
		struct clyde_zfs_vdev *v = &out->vdevs[i];
		int leaf;

		if (v->depth != 0 || v->cls == CLYDE_ZFS_CLASS_CACHE ||
		    v->cls == CLYDE_ZFS_CLASS_SPARE)
			continue;
		leaf = first_leaf(out, i);
		if (leaf < 0)
			continue;
		const char *zdb[] = { "zdb", "-l", out->vdevs[leaf].path,
				      NULL };

		rc = run(ctx, src, zdb, &text);
		if (rc < 0)
			return rc;
		v->ashift = label_ashift(text);
		free(text);
	}
	return 0;
}

int clyde_zfs_dataset_read(struct clyde_ctx *ctx,
			   const struct clyde_zfs_src *src, const char *name,
			   struct clyde_zfs_dataset *out)
{
	const char *get[] = { "zfs", "get", "-H", "-p", "all", name, NULL };
	static const struct {
		const char *prop;
		size_t off, n;
	} strs[] = {
#define S(p, f)                                     \
	{ p, offsetof(struct clyde_zfs_dataset, f), \
	  sizeof(((struct clyde_zfs_dataset *)0)->f) }
		S("type", type),
		S("compression", compression),
		S("checksum", checksum),
		S("sync", sync),
		S("atime", atime),
		S("primarycache", primarycache),
		S("logbias", logbias),
		S("direct", direct),
		S("mountpoint", mountpoint),
#undef S
	};
	char *text, *p, *line;
	int rc, seen = 0;

	memset(out, 0, sizeof(*out));
	clyde_sys_copy(out->name, sizeof(out->name), name);
	rc = run(ctx, src, get, &text);
	if (rc < 0)
		return rc;
	p = text;
	while ((line = next_line(&p))) {
		char *f[4];

		if (split(line, f, 4, true) < 3 || strcmp(f[0], name) != 0)
			continue;
		seen++;
		if (strcmp(f[1], "recordsize") == 0) {
			out->recordsize = u64_of(f[2]);
		} else if (strcmp(f[1], "volblocksize") == 0) {
			out->volblocksize = u64_of(f[2]);
		} else if (strcmp(f[1], "compressratio") == 0) {
			out->compressratio = strtod(f[2], NULL);
		} else {
			for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]);
			     i++) {
				if (strcmp(f[1], strs[i].prop) == 0 &&
				    strcmp(f[2], "-") != 0) {
					clyde_sys_copy((char *)out +
							       strs[i].off,
						       strs[i].n, f[2]);
					break;
				}
			}
		}
	}
	free(text);
	if (!seen)
		return clyde_err(ctx, EINVAL,
				 "zfs get -H -p all %s: no property of it",
				 name);
	return 0;
}

/* The named counters of a kstat file ("name type data" rows after two
 * header lines). */
struct kstat_field {
	const char *name;
	uint64_t *val;
};

static int kstat_read(struct clyde_ctx *ctx, const char *path,
		      const struct kstat_field *fields, size_t n_fields)
{
	char *text, *p, *line;
	int rc = slurp(ctx, path, &text);

	if (rc < 0)
		return rc;
	p = text;
	while ((line = next_line(&p))) {
		char *f[4];

		if (split(line, f, 4, false) != 3)
			continue;
		for (size_t i = 0; i < n_fields; i++) {
			if (strcmp(f[0], fields[i].name) == 0) {
				*fields[i].val = u64_of(f[2]);
				break;
			}
		}
	}
	free(text);
	return 0;
}

int clyde_zfs_arc_read(struct clyde_ctx *ctx, const struct clyde_zfs_src *src,
		       struct clyde_zfs_arc *out)
{
	const char *root = src && src->kstat_root && src->kstat_root[0] ?
				   src->kstat_root :
				   ZFS_KSTAT_ROOT;
	const struct kstat_field fields[] = {
		{ "size", &out->size },
		{ "c", &out->c },
		{ "c_min", &out->c_min },
		{ "c_max", &out->c_max },
		{ "data_size", &out->data_size },
		{ "demand_data_hits", &out->demand_data_hits },
		{ "demand_data_misses", &out->demand_data_misses },
		{ "prefetch_data_hits", &out->prefetch_data_hits },
		{ "prefetch_data_misses", &out->prefetch_data_misses },
		{ "demand_metadata_hits", &out->demand_metadata_hits },
		{ "demand_metadata_misses", &out->demand_metadata_misses },
	};
	char path[PATH_MAX];

	memset(out, 0, sizeof(*out));
	if (clyde_sys_path("", path, sizeof(path), "%s/arcstats", root) < 0)
		return clyde_err(ctx, ENAMETOOLONG,
				 "%s/arcstats: path too long", root);
	return kstat_read(ctx, path, fields,
			  sizeof(fields) / sizeof(fields[0]));
}

static uint64_t since(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : 0;
}

void clyde_zfs_arc_diff(const struct clyde_zfs_arc *before,
			const struct clyde_zfs_arc *after,
			struct clyde_zfs_arc *out)
{
	struct clyde_zfs_arc d = *after;

	d.demand_data_hits =
		since(before->demand_data_hits, after->demand_data_hits);
	d.demand_data_misses =
		since(before->demand_data_misses, after->demand_data_misses);
	d.prefetch_data_hits =
		since(before->prefetch_data_hits, after->prefetch_data_hits);
	d.prefetch_data_misses = since(before->prefetch_data_misses,
				       after->prefetch_data_misses);
	d.demand_metadata_hits = since(before->demand_metadata_hits,
				       after->demand_metadata_hits);
	d.demand_metadata_misses = since(before->demand_metadata_misses,
					 after->demand_metadata_misses);
	*out = d;
}

double clyde_zfs_raidz_cost(uint64_t record, unsigned ashift, uint32_t width,
			    uint32_t parity)
{
	uint64_t sector, data, rows, total;

	if (!record || ashift > 24 || !parity || width <= parity)
		return 1.0;
	sector = 1ull << ashift;
	data = (record + sector - 1) / sector;
	rows = (data + (width - parity) - 1) / (width - parity);
	total = data + rows * parity;
	total = (total + parity) / (parity + 1) * (parity + 1);
	return (double)total / (double)data;
}

/* Whether mount point m holds path p: equal, or p goes on below it. */
static bool holds(const char *m, const char *p)
{
	size_t n = strlen(m);

	if (strcmp(m, "/") == 0)
		return p[0] == '/';
	return strncmp(m, p, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

/* What clyde_zfs_path_dataset() keeps while it reads mountinfo. */
struct ds_find {
	const char *path;
	char mnt[PATH_MAX], ds[CLYDE_ZFS_NAME_MAX];
	size_t len;
};

static int ds_line(void *arg, const char *line,
		   const struct clyde_mountinfo *mi)
{
	struct ds_find *d = arg;

	(void)line;
	/* The longest mount point that holds the path, of any type (a
	 * tmpfs over a zfs directory hides it); a later mount on the same
	 * point hides an earlier one. */
	if (holds(mi->mount_point, d->path) &&
	    strlen(mi->mount_point) >= d->len) {
		d->len = strlen(mi->mount_point);
		clyde_sys_copy(d->mnt, sizeof(d->mnt), mi->mount_point);
		clyde_sys_copy(d->ds, sizeof(d->ds),
			       strcmp(mi->fstype, "zfs") == 0 ? mi->source :
								"");
	}
	return 0;
}

int clyde_zfs_path_dataset(struct clyde_ctx *ctx,
			   const struct clyde_zfs_src *src, const char *path,
			   char *dataset, size_t dataset_n, char *pool,
			   size_t pool_n, char *mnt, size_t mnt_n)
{
	const char *mi = src && src->mountinfo && src->mountinfo[0] ?
				 src->mountinfo :
				 ZFS_MOUNTINFO;
	struct ds_find *d = calloc(1, sizeof(*d));
	int rc;

	if (!d)
		return clyde_err(ctx, ENOMEM, "%s: read", mi);
	d->path = path;
	rc = clyde_mountinfo_each(mi, ds_line, d);
	if (rc < 0) {
		free(d);
		return clyde_err(ctx, -rc, "%s: open", mi);
	}
	if (!d->ds[0]) {
		free(d);
		return clyde_err(ctx, ENOENT, "%s: not on a zfs mount (%s)",
				 path, mi);
	}
	if (dataset)
		clyde_sys_copy(dataset, dataset_n, d->ds);
	if (pool) {
		clyde_sys_copy(pool, pool_n, d->ds);
		pool[strcspn(pool, "/")] = '\0';
	}
	if (mnt)
		clyde_sys_copy(mnt, mnt_n, d->mnt);
	free(d);
	return 0;
}
