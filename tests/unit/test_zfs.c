/*
 * The ZFS reader (src/env/zfs.c) over the outputs of real pools,
 * tests/fixtures/zfs/KIND/ (tests/vm/t_zfs_pools.sh made them in the guest
 * with OpenZFS 2.1.11: `zpool status -P -p`, `zpool list -v -H -P -p`,
 * `zpool get -H -p all`, `zfs get -H -p all`, `zdb -l` of each leaf, the
 * arcstats and /proc/self/mountinfo).  A fake runner hands the reader the
 * file for each command and refuses a `zpool list` or `zfs get` without
 * -H and -p: the reader must ask for the parseable output.  Each field is
 * checked against the value in the text.
 */
#include "env/zfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/advise.h"
#include "env/stack_probe.h"
#include "io/target.h"
#include "results/figures.h"
#include "results/result.h"
#include "results/stack_out.h"
#include "tap.h"
#include "results/figures.h"

#define FIX CLYDE_FIXTURES_DIR "/zfs/"

static bool has(const char *const argv[], const char *arg)
{
	for (int i = 0; argv[i]; i++) {
		if (strcmp(argv[i], arg) == 0)
			return true;
	}
	return false;
}

static int read_fixture(const char *path, char **out)
{
	FILE *f = fopen(path, "re");
	long n;

	if (!f)
		return -ENOENT;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*out = calloc(1, (size_t)n + 1);
	if (!*out || fread(*out, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(*out);
		*out = NULL;
		return -EIO;
	}
	fclose(f);
	return 0;
}

/* The fake runner: argv to the fixture file of that command in the
 * directory `arg`; the commands it was asked for are counted. */
static int n_runs;

static int fake_run(void *arg, struct clyde_ctx *ctx, const char *const argv[],
		    char **out)
{
	const char *dir = arg, *last = argv[0];
	char path[1024], file[256] = "";

	n_runs++;
	for (int i = 0; argv[i]; i++)
		last = argv[i];
	if (strcmp(argv[0], "zpool") == 0 && strcmp(argv[1], "status") == 0 &&
	    has(argv, "-P") && has(argv, "-p"))
		snprintf(file, sizeof(file), "status");
	else if (strcmp(argv[0], "zpool") == 0 &&
		 strcmp(argv[1], "list") == 0 && has(argv, "-H") &&
		 has(argv, "-p") && has(argv, "-P") && has(argv, "-v"))
		snprintf(file, sizeof(file), "list");
	else if (strcmp(argv[0], "zpool") == 0 && strcmp(argv[1], "get") == 0 &&
		 has(argv, "-H") && has(argv, "-p"))
		snprintf(file, sizeof(file), "pool-get");
	else if (strcmp(argv[0], "zfs") == 0 && strcmp(argv[1], "get") == 0 &&
		 has(argv, "-H") && has(argv, "-p"))
		snprintf(file, sizeof(file), "%s",
			 strstr(last, "/vol") ? "get-vol" : "get");
	else if (strcmp(argv[0], "zdb") == 0 && strcmp(argv[1], "-l") == 0)
		snprintf(file, sizeof(file), "zdb-l.%s",
			 strrchr(last, '/') ? strrchr(last, '/') + 1 : last);
	if (!file[0])
		return clyde_err(ctx, EINVAL, "fake runner: unexpected %s %s",
				 argv[0], argv[1]);
	snprintf(path, sizeof(path), "%s%s/%s", FIX, dir, file);
	if (read_fixture(path, out) < 0)
		return clyde_err(ctx, EIO, "%s: exit status 1", path);
	return 0;
}

static int pool_of(const char *kind, struct clyde_zfs_pool *p)
{
	struct clyde_zfs_src src = { .run = fake_run, .run_arg = (void *)kind };
	struct clyde_ctx ctx;
	int rc;

	clyde_ctx_init(&ctx);
	rc = clyde_zfs_pool_read(&ctx, &src, "zt", p);
	if (rc)
		fprintf(stderr, "# pool %s: %s\n", kind, clyde_errmsg(&ctx));
	clyde_ctx_release(&ctx);
	return rc;
}

static int dataset_of(const char *kind, const char *name,
		      struct clyde_zfs_dataset *d)
{
	struct clyde_zfs_src src = { .run = fake_run, .run_arg = (void *)kind };
	struct clyde_ctx ctx;
	int rc;

	clyde_ctx_init(&ctx);
	rc = clyde_zfs_dataset_read(&ctx, &src, name, d);
	if (rc)
		fprintf(stderr, "# dataset %s %s: %s\n", kind, name,
			clyde_errmsg(&ctx));
	clyde_ctx_release(&ctx);
	return rc;
}

/* One vdev's line of facts, "depth class type name state parity ashift
 * dev", for compact checks. */
static const char *vdev_line(const struct clyde_zfs_pool *p, int i)
{
	static char buf[512];
	const struct clyde_zfs_vdev *v = &p->vdevs[i];

	snprintf(buf, sizeof(buf), "%d %s %s %s %s %d %d %s", v->depth,
		 clyde_zfs_class_name(v->cls),
		 clyde_zfs_vdev_type_name(v->type), v->name, v->state,
		 v->parity, v->ashift, v->dev[0] ? v->dev : "-");
	return buf;
}

static int parent_of(const struct clyde_zfs_pool *p, int i)
{
	return p->vdevs[i].parent;
}

/* The dataset of a path in a crafted mount table: the longest mount point
 * holding it, escaped names, a tmpfs over a ZFS directory, a path on no
 * ZFS at all. */
static void test_path_dataset(void)
{
	struct clyde_zfs_src src = { .mountinfo = FIX "mountinfo-crafted" };
	char ds[256], pool[256], mnt[256];
	struct clyde_ctx ctx;
	struct {
		const char *path, *ds, *pool, *mnt;
	} cases[] = {
		{ "/tank", "tank", "tank", "/tank" },
		{ "/tank/a/b", "tank", "tank", "/tank" },
		{ "/tank/home/u", "tank/home", "tank", "/tank/home" },
		{ "/tank/homework", "tank", "tank", "/tank" },
		{ "/tank/my data/f", "tank/my data", "tank", "/tank/my data" },
		{ "/srv/db/base/1", "fast/db/pg", "fast", "/srv/db" },
	};

	clyde_ctx_init(&ctx);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = clyde_zfs_path_dataset(&ctx, &src, cases[i].path, ds,
						sizeof(ds), pool, sizeof(pool),
						mnt, sizeof(mnt));

		CHECK(rc == 0);
		CHECK_STR(ds, cases[i].ds);
		CHECK_STR(pool, cases[i].pool);
		CHECK_STR(mnt, cases[i].mnt);
	}
	/* Under the tmpfs, on ext4, on the root: no dataset. */
	CHECK(clyde_zfs_path_dataset(&ctx, &src, "/tank/home/scratch/x", ds,
				     sizeof(ds), NULL, 0, NULL, 0) == -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), "/tank/home/scratch/x") != NULL);
	clyde_err_clear(&ctx);
	CHECK(clyde_zfs_path_dataset(&ctx, &src, "/homeless", ds, sizeof(ds),
				     NULL, 0, NULL, 0) == -ENOENT);
	clyde_err_clear(&ctx);
	CHECK(clyde_zfs_path_dataset(&ctx, &src, "/etc", ds, sizeof(ds), NULL,
				     0, NULL, 0) == -ENOENT);
	clyde_ctx_release(&ctx);
}

/* Two readings' difference: counters subtracted, sizes the later ones, a
 * counter that went back (a module reload) 0. */
static void test_arc_diff(void)
{
	struct clyde_zfs_arc a = { .size = 100,
				   .c = 200,
				   .c_max = 300,
				   .demand_data_hits = 10,
				   .demand_data_misses = 20,
				   .prefetch_data_hits = 30,
				   .prefetch_data_misses = 40,
				   .demand_metadata_hits = 50,
				   .demand_metadata_misses = 60 };
	struct clyde_zfs_arc b = { .size = 150,
				   .c = 250,
				   .c_max = 300,
				   .demand_data_hits = 15,
				   .demand_data_misses = 120,
				   .prefetch_data_hits = 31,
				   .prefetch_data_misses = 48,
				   .demand_metadata_hits = 5,
				   .demand_metadata_misses = 61 };
	struct clyde_zfs_arc d;

	clyde_zfs_arc_diff(&a, &b, &d);
	CHECK(d.size == 150 && d.c == 250 && d.c_max == 300);
	CHECK(d.demand_data_hits == 5);
	CHECK(d.demand_data_misses == 100);
	CHECK(d.prefetch_data_hits == 1);
	CHECK(d.prefetch_data_misses == 8);
	CHECK(d.demand_metadata_hits == 0);
	CHECK(d.demand_metadata_misses == 1);
}

/* What a 128 KiB record costs on raidz with parity and padding: raidz1
 * over 4 leaves of 512-byte sectors 256 data + 86 parity sectors (342,
 * even already); over 4 KiB sectors 32 + 11 = 43, padded to 44; raidz2
 * over 6 with 4 KiB sectors 32 + 16 = 48, a multiple of 3. */
static void test_raidz_cost(void)
{
	CHECK(clyde_zfs_raidz_cost(131072, 9, 4, 1) == 342.0 / 256.0);
	CHECK(clyde_zfs_raidz_cost(131072, 12, 4, 1) == 44.0 / 32.0);
	CHECK(clyde_zfs_raidz_cost(131072, 12, 6, 2) == 48.0 / 32.0);
	CHECK(clyde_zfs_raidz_cost(131072, 12, 1, 1) == 1.0);
}

/* On ZFS a read-side test's cached share is what the ARC served of the
 * bytes it read: all of a 32 MiB read missed is 0%, none missed 100%
 * (flagged as a page-cache-served test is), a quarter missed 75%; without
 * the ARC's counters the page cache's residency stays. */
static void test_arc_residency(void)
{
	struct clyde_test_result t;
	struct clyde_zfs_test *z;
	const char *json, *text;

	memset(&t, 0, sizeof(t));
	t.bytes = 32u << 20;
	t.cache.measured = true;
	t.cache.total_bytes = 32u << 20;
	t.cache.resident_bytes = 0;
	z = clyde_test_figs_alloc(&t, &clyde_target_zfs);
	CHECK(z != NULL);
	if (!z)
		return;
	z->have = true;
	z->arc_known = true;
	z->missed_bytes = 0;
	clyde_figs_finish(&t);
	CHECK(clyde_test_residency(&t) == 1.0);
	CHECK(clyde_figs_cache(&t, &json, &text));
	CHECK_STR(json, "arc");
	CHECK_STR(text, "ZFS's ARC");
	z->missed_bytes = 40u << 20; /* prefetch beyond: at most all */
	clyde_figs_finish(&t);
	CHECK(clyde_test_residency(&t) == 0.0);
	z->missed_bytes = 8u << 20;
	clyde_figs_finish(&t);
	CHECK(clyde_test_residency(&t) == 0.75);
	z->arc_known = false;
	t.cache.resident_bytes = 5;
	clyde_figs_finish(&t);
	CHECK(t.cache.resident_bytes == 5 &&
	      !clyde_figs_cache(&t, &json, &text));
	CHECK_STR(json, "page_cache");
	clyde_test_figs_free(&t);
}

/* Two leaves at the top: a stripe; sizes from zpool list, ashift 9 from
 * each leaf's label, the pool's own ashift 0 (automatic). */
static void test_stripe(void)
{
	static struct clyde_zfs_pool p;

	CHECK(pool_of("stripe", &p) == 0);
	CHECK_STR(p.name, "zt");
	CHECK_STR(p.state, "ONLINE");
	CHECK_STR(p.layout, "stripe");
	CHECK(p.size_bytes == 301989888);
	CHECK(p.alloc_bytes == 2274304);
	CHECK(p.free_bytes == 299715584);
	CHECK(p.ashift == 0);
	CHECK(p.n_vdevs == 2);
	CHECK_STR(vdev_line(&p, 0), "0 normal disk /dev/vda1 ONLINE 0 9 vda1");
	CHECK_STR(vdev_line(&p, 1), "0 normal disk /dev/vdb1 ONLINE 0 9 vdb1");
	CHECK(parent_of(&p, 0) == -1 && parent_of(&p, 1) == -1);
	CHECK_STR(p.vdevs[1].path, "/dev/vdb1");
	CHECK(p.vdevs[0].size_bytes == 166723584);
	CHECK(p.vdevs[0].alloc_bytes == 1131008);
	CHECK(p.vdevs[1].alloc_bytes == 1143296);
	CHECK(p.vdevs[0].read_errors == 0 && p.vdevs[0].checksum_errors == 0);
}

/* A mirror over two leaves, and the dataset's and the zvol's
 * properties, every one set away from its default. */
static void test_mirror(void)
{
	static struct clyde_zfs_pool p;
	struct clyde_zfs_dataset d;

	CHECK(pool_of("mirror", &p) == 0);
	CHECK_STR(p.layout, "mirror");
	CHECK(p.size_bytes == 150994944);
	CHECK(p.n_vdevs == 3);
	CHECK_STR(vdev_line(&p, 0), "0 normal mirror mirror-0 ONLINE 0 9 -");
	CHECK_STR(vdev_line(&p, 1), "1 normal disk /dev/vda1 ONLINE 0 -1 vda1");
	CHECK_STR(vdev_line(&p, 2), "1 normal disk /dev/vdb1 ONLINE 0 -1 vdb1");
	CHECK(parent_of(&p, 1) == 0 && parent_of(&p, 2) == 0);
	CHECK(p.vdevs[0].size_bytes == 150994944);
	CHECK(p.vdevs[0].alloc_bytes == 4424192);
	CHECK(p.vdevs[1].size_bytes == 166723584);

	CHECK(dataset_of("mirror", "zt/fs", &d) == 0);
	CHECK_STR(d.name, "zt/fs");
	CHECK_STR(d.type, "filesystem");
	CHECK(d.recordsize == 16384);
	CHECK(d.volblocksize == 0);
	CHECK_STR(d.compression, "off");
	CHECK(d.compressratio > 0.995 && d.compressratio < 1.005);
	CHECK_STR(d.checksum, "sha256");
	CHECK_STR(d.sync, "always");
	CHECK_STR(d.atime, "off");
	CHECK_STR(d.primarycache, "metadata");
	CHECK_STR(d.logbias, "throughput");
	CHECK_STR(d.direct, ""); /* 2.1 has no Direct I/O */
	CHECK_STR(d.mountpoint, "/mnt/zt/fs");

	CHECK(dataset_of("mirror", "zt/vol", &d) == 0);
	CHECK_STR(d.type, "volume");
	CHECK(d.volblocksize == 16384);
	CHECK(d.recordsize == 0);
	CHECK_STR(d.atime, "");
	CHECK_STR(d.mountpoint, "");
	CHECK_STR(d.primarycache, "all");
	CHECK_STR(d.sync, "standard");
}

/* raidz of each parity: the parity from the name, the children below. */
static void test_raidz(void)
{
	static struct clyde_zfs_pool p;
	struct clyde_zfs_dataset d;
	static const struct {
		const char *kind;
		int children;
		uint64_t size;
		const char *compression;
		double ratio;
	} k[] = {
		{ "raidz1", 3, 469762048, "zstd", 1.99 },
		{ "raidz2", 4, 603979776, "gzip", 1.98 },
		{ "raidz3", 5, 805306368, "off", 1.00 },
	};

	for (int i = 0; i < 3; i++) {
		char want[64];

		CHECK(pool_of(k[i].kind, &p) == 0);
		CHECK_STR(p.layout, k[i].kind);
		CHECK(p.size_bytes == k[i].size);
		CHECK(p.n_vdevs == 1 + k[i].children);
		snprintf(want, sizeof(want),
			 "0 normal raidz %s-0 ONLINE %d 9 -", k[i].kind, i + 1);
		CHECK_STR(vdev_line(&p, 0), want);
		for (int c = 1; c <= k[i].children; c++) {
			snprintf(want, sizeof(want),
				 "1 normal disk /dev/vd%c1 ONLINE 0 -1 vd%c1",
				 'a' + c - 1, 'a' + c - 1);
			CHECK_STR(vdev_line(&p, c), want);
			CHECK(parent_of(&p, c) == 0);
		}
		CHECK(dataset_of(k[i].kind, "zt/fs", &d) == 0);
		CHECK_STR(d.compression, k[i].compression);
		CHECK(d.compressratio > k[i].ratio - 0.005 &&
		      d.compressratio < k[i].ratio + 0.005);
	}
	CHECK(dataset_of("raidz1", "zt/fs", &d) == 0);
	CHECK(d.recordsize == 1048576);
	CHECK(dataset_of("raidz2", "zt/fs", &d) == 0);
	CHECK_STR(d.sync, "disabled");
	CHECK(dataset_of("raidz3", "zt/fs", &d) == 0);
	CHECK_STR(d.primarycache, "none");
	CHECK_STR(d.checksum, "off");
}

/* dRAID: parity, data, children and spares from the name; its
 * distributed spare under "spares". */
static void test_draid(void)
{
	static struct clyde_zfs_pool p;

	CHECK(pool_of("draid", &p) == 0);
	CHECK_STR(p.layout, "draid1");
	CHECK(p.n_vdevs == 6);
	CHECK_STR(vdev_line(&p, 0),
		  "0 normal draid draid1:2d:4c:1s-0 ONLINE 1 9 -");
	CHECK(p.vdevs[0].draid_data == 2);
	CHECK(p.vdevs[0].draid_children == 4);
	CHECK(p.vdevs[0].draid_spares == 1);
	CHECK_STR(vdev_line(&p, 4), "1 normal disk /dev/vdd1 ONLINE 0 -1 vdd1");
	CHECK_STR(vdev_line(&p, 5), "0 spare dspare draid1-0-0 AVAIL 0 -1 -");
	CHECK(p.vdevs[5].size_bytes == 166723584);
}

/* log, cache and special vdevs, each under its class; ashift 12 asked
 * for at creation, none for the cache. */
static void test_special(void)
{
	static struct clyde_zfs_pool p;

	CHECK(pool_of("special", &p) == 0);
	CHECK_STR(p.layout, "stripe");
	CHECK(p.ashift == 12);
	CHECK(p.n_vdevs == 4);
	CHECK_STR(vdev_line(&p, 0), "0 normal disk /dev/vda1 ONLINE 0 12 vda1");
	CHECK_STR(vdev_line(&p, 1),
		  "0 special disk /dev/vdd1 ONLINE 0 12 vdd1");
	CHECK_STR(vdev_line(&p, 2), "0 log disk /dev/vdb1 ONLINE 0 12 vdb1");
	CHECK_STR(vdev_line(&p, 3), "0 cache disk /dev/vdc1 ONLINE 0 -1 vdc1");
	CHECK(p.vdevs[1].alloc_bytes == 585728);
	CHECK(p.vdevs[2].alloc_bytes == 0);
	CHECK(p.vdevs[3].alloc_bytes == 692224);
}

/* The ARC's sizes and counters, as arcstats has them. */
static void test_arc(void)
{
	struct clyde_zfs_src src = { .kstat_root = FIX "special" };
	struct clyde_zfs_arc a;
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	CHECK(clyde_zfs_arc_read(&ctx, &src, &a) == 0);
	CHECK(a.size == 6405680);
	CHECK(a.c == 64464896);
	CHECK(a.c_min == 64464896);
	CHECK(a.c_max == 1031438336);
	CHECK(a.demand_data_hits == 645);
	CHECK(a.demand_data_misses == 289);
	CHECK(a.prefetch_data_hits == 0);
	CHECK(a.prefetch_data_misses == 0);
	CHECK(a.demand_metadata_hits == 28055);
	CHECK(a.demand_metadata_misses == 238);
	src.kstat_root = FIX "nowhere";
	CHECK(clyde_zfs_arc_read(&ctx, &src, &a) == -ENOENT);
	CHECK(strstr(clyde_errmsg(&ctx), "nowhere/arcstats") != NULL);
	clyde_ctx_release(&ctx);
}

/* The guest's own mount table: the file and the pool's root. */
static void test_guest_mounts(void)
{
	struct clyde_zfs_src src = { .mountinfo = FIX "mirror/mountinfo" };
	char ds[256], pool[256], mnt[256];
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	CHECK(clyde_zfs_path_dataset(&ctx, &src, "/mnt/zt/fs/f", ds, sizeof(ds),
				     pool, sizeof(pool), mnt,
				     sizeof(mnt)) == 0);
	CHECK_STR(ds, "zt/fs");
	CHECK_STR(pool, "zt");
	CHECK_STR(mnt, "/mnt/zt/fs");
	CHECK(clyde_zfs_path_dataset(&ctx, &src, "/mnt/zt/g", ds, sizeof(ds),
				     pool, sizeof(pool), mnt,
				     sizeof(mnt)) == 0);
	CHECK_STR(ds, "zt");
	CHECK_STR(mnt, "/mnt/zt");
	clyde_ctx_release(&ctx);
}

/* What is not there is an error naming it, not a half-filled pool. */
/* The filesystem probe (env/fs_zfs.c) over a fixture: the stack's zfs
 * fields, the leaves it puts below, its text, and the advice on it. */
static void fs_of(const char *kind, struct clyde_stack_fs *fs)
{
	char kstat[256];
	struct clyde_zfs_src src = { .run = fake_run, .run_arg = (void *)kind };

	snprintf(kstat, sizeof(kstat), "%s%s", FIX, kind);
	src.kstat_root = kstat;
	memset(fs, 0, sizeof(*fs));
	snprintf(fs->type, sizeof(fs->type), "zfs");
	snprintf(fs->source, sizeof(fs->source), "zt/fs");
	snprintf(fs->mount_point, sizeof(fs->mount_point), "/mnt/zt/fs");
	CHECK(clyde_fs_zfs_fill(fs, &src) == 0);
}

static const struct clyde_advice *advised(const struct clyde_advice_list *l,
					  const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].id, id))
			return &l->items[i];
	return NULL;
}

static void test_fs_probe(void)
{
	struct clyde_stack s;
	struct clyde_stack_node nodes[4];
	struct clyde_advice_list adv;
	char *text = NULL;
	size_t len = 0, nfacts;
	FILE *f;
	struct clyde_jw w;
	struct clyde_json root;
	struct clyde_json_error err;
	struct clyde_stack back;
	struct clyde_stack_fact facts[64];

	CHECK(clyde_stack_fs_kind_of("zfs") == &clyde_fs_zfs);
	memset(&s, 0, sizeof(s));
	s.has_fs = true;
	fs_of("raidz1", &s.fs);
	CHECK_STR(s.fs.zfs_pool, "zt");
	CHECK_STR(s.fs.zfs_layout, "raidz1");
	CHECK_STR(s.fs.zfs_vdevs, "raidz1-0 ashift 9: vda1 vdb1 vdc1");
	CHECK_STR(s.fs.zfs_leaves, "vda1 vdb1 vdc1");
	/* The ZFS target kind claims it (io/target.c's table). */
	CHECK(clyde_target_find(&s, NULL) == &clyde_target_zfs);
	CHECK(s.fs.zfs_ashift == 9);
	CHECK(s.fs.zfs_raidz_width == 3 && s.fs.zfs_raidz_parity == 1);
	CHECK(s.fs.zfs_recordsize == 1048576 && s.fs.zfs_volblocksize == 0);
	CHECK(s.fs.block_size == 1048576);
	CHECK_STR(s.fs.zfs_compression, "zstd");
	CHECK_STR(s.fs.zfs_compressratio, "1.99");
	CHECK_STR(s.fs.zfs_checksum, "on");
	CHECK_STR(s.fs.zfs_sync, "standard");
	CHECK_STR(s.fs.zfs_atime, "on");
	CHECK_STR(s.fs.zfs_primarycache, "all");
	CHECK_STR(s.fs.zfs_logbias, "latency");
	CHECK(s.fs.zfs_arc_size == 5601824 && s.fs.zfs_arc_max == 1031438336);
	CHECK(s.fs.note[0] == '\0');

	f = open_memstream(&text, &len);
	clyde_fs_zfs.text(f, &s.fs);
	fclose(f);
	CHECK(strstr(text, "pool zt (raidz1): raidz1-0 ashift 9: vda1") !=
	      NULL);
	CHECK(strstr(text, "recordsize 1048576, compression zstd (ratio "
			   "1.99)") != NULL);
	CHECK(strstr(text, "ARC 5 MiB of at most 983 MiB") != NULL);
	free(text);

	/* The JSON reads back to the same values (the result files keep
	 * the stack: compare and report read it), and the facts that tell
	 * two stacks apart name the layout. */
	text = NULL;
	f = open_memstream(&text, &len);
	clyde_jw_init(&w, f);
	clyde_jw_open(&w, NULL, '{');
	clyde_stack_json(&w, "stack", &s);
	clyde_jw_close(&w, '}');
	fclose(f);
	CHECK(clyde_json_parse(text, len, NULL, &root, &err) == 0);
	CHECK(clyde_stack_from_json(clyde_json_get(&root, "stack"), &back,
				    &err) == 0);
	CHECK_STR(back.fs.zfs_vdevs, s.fs.zfs_vdevs);
	CHECK_STR(back.fs.zfs_compressratio, "1.99");
	CHECK(back.fs.zfs_ashift == 9 && back.fs.zfs_recordsize == 1048576);
	CHECK(back.fs.zfs_arc_max == 1031438336);
	nfacts = clyde_stack_facts(&back, facts, 64);
	len = 0;
	for (size_t i = 0; i < nfacts && i < 64; i++)
		if (!strcmp(facts[i].key, "zfs layout") &&
		    !strcmp(facts[i].value, "raidz1"))
			len++;
	CHECK(len == 1);
	clyde_json_free(&root);
	clyde_stack_free(&back);
	free(text);

	/* Advice: atime=on; a disk with 4 KiB physical sectors under
	 * ashift 9; raidz1 over 3 with 1 MiB records wastes nothing, over
	 * 5 disks with 16 KiB records and ashift 12 (4 data sectors: 1 row,
	 * 1 parity, rounded to 6) it costs 50% where its parity is 25%. */
	memset(nodes, 0, sizeof(nodes));
	s.nodes = nodes;
	s.nnodes = s.ntop = 3;
	for (uint32_t i = 0; i < 3; i++) {
		snprintf(nodes[i].name, sizeof(nodes[i].name), "vd%c1",
			 'a' + i);
		nodes[i].physical_block_size = 512;
		nodes[i].rotational = -1;
		nodes[i].md_slot = -1;
		s.top[i] = i;
	}
	clyde_advise(&s, 0, &adv);
	CHECK(advised(&adv, "atime"));
	CHECK(!advised(&adv, "zfs-ashift"));
	CHECK(!advised(&adv, "zfs-raidz-width"));
	CHECK(!advised(&adv, "zfs-zeros"));
	/* --pattern zeros on a compressing dataset measures compression. */
	clyde_advise(&s, CLYDE_ADVISE_ZEROS, &adv);
	CHECK(advised(&adv, "zfs-zeros") &&
	      strstr(advised(&adv, "zfs-zeros")->text, "compression=zstd"));
	snprintf(s.fs.zfs_compression, sizeof(s.fs.zfs_compression), "off");
	clyde_advise(&s, CLYDE_ADVISE_ZEROS, &adv);
	CHECK(!advised(&adv, "zfs-zeros"));
	nodes[1].physical_block_size = 4096;
	clyde_advise(&s, 0, &adv);
	CHECK(advised(&adv, "zfs-ashift"));
	CHECK(!advised(&adv, "zfs-raidz-width"));
	s.fs.zfs_ashift = 12;
	s.fs.zfs_raidz_width = 5;
	s.fs.zfs_recordsize = 16384;
	clyde_advise(&s, 0, &adv);
	CHECK(!advised(&adv, "zfs-ashift"));
	CHECK(advised(&adv, "zfs-raidz-width"));
	/* recordsize against the random requests: 16 KiB records against
	 * clyde run's 8 KiB seeks is within 4x (no advice); 128 KiB
	 * against 8 KiB reads 16x the bytes; no random requests, none. */
	CHECK(clyde_advise_rand(8192) == 13u << CLYDE_ADVISE_RAND_SHIFT);
	CHECK(clyde_advise_rand(6000) == 13u << CLYDE_ADVISE_RAND_SHIFT);
	CHECK(clyde_advise_rand(0) == 0);
	clyde_advise(&s, clyde_advise_rand(8192), &adv);
	CHECK(!advised(&adv, "zfs-recordsize"));
	s.fs.zfs_recordsize = 131072;
	clyde_advise(&s, 0, &adv);
	CHECK(!advised(&adv, "zfs-recordsize"));
	clyde_advise(&s, clyde_advise_rand(8192) | CLYDE_ADVISE_ZEROS, &adv);
	CHECK(advised(&adv, "zfs-recordsize") &&
	      strstr(advised(&adv, "zfs-recordsize")->text,
		     "recordsize 128 KiB and the random requests are 8 KiB") &&
	      strstr(advised(&adv, "zfs-recordsize")->text, "16x") &&
	      strstr(advised(&adv, "zfs-recordsize")->fix,
		     "zfs set recordsize=8k "));
	s.fs.zfs_recordsize = 16384;

	/* special: a stripe of one data disk; the log and special vdevs'
	 * leaves are below it too, the cache's as well. */
	fs_of("special", &s.fs);
	CHECK_STR(s.fs.zfs_leaves, "vda1 vdd1 vdb1 vdc1");
	CHECK(strstr(s.fs.zfs_vdevs, "vda1 ashift 12: vda1") != NULL);
	CHECK(strstr(s.fs.zfs_vdevs, "log vdb1") != NULL);
	CHECK(s.fs.zfs_raidz_width == 0);

	/* mirror: the dataset's own properties. */
	fs_of("mirror", &s.fs);
	CHECK(s.fs.zfs_recordsize == 16384);
	CHECK_STR(s.fs.zfs_atime, "off");
	CHECK_STR(s.fs.zfs_sync, "always");
	CHECK_STR(s.fs.zfs_primarycache, "metadata");
	CHECK_STR(s.fs.zfs_logbias, "throughput");
	CHECK_STR(s.fs.zfs_checksum, "sha256");
}

static void test_errors(void)
{
	struct clyde_zfs_src src = { .run = fake_run,
				     .run_arg = (void *)"stripe" };
	static struct clyde_zfs_pool p;
	struct clyde_zfs_dataset d;
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	CHECK(clyde_zfs_pool_read(&ctx, &src, "tank", &p) == -EINVAL);
	CHECK(strstr(clyde_errmsg(&ctx), "tank") != NULL);
	clyde_err_clear(&ctx);
	CHECK(clyde_zfs_dataset_read(&ctx, &src, "zt/other", &d) == -EINVAL);
	CHECK(strstr(clyde_errmsg(&ctx), "zt/other") != NULL);
	clyde_err_clear(&ctx);
	src.run_arg = (void *)"nowhere";
	CHECK(clyde_zfs_pool_read(&ctx, &src, "zt", &p) == -EIO);
	clyde_ctx_release(&ctx);
	/* The real runner: a program that is not there, one that fails. */
	clyde_ctx_init(&ctx);
	{
		const char *none[] = { "clyde-no-such-program", NULL };
		const char *f[] = { "false", NULL };
		const char *e[] = { "echo", "a", "b", NULL };
		char *out = NULL;

		CHECK(clyde_zfs_run_exec(NULL, &ctx, none, &out) == -ENOENT);
		CHECK(out == NULL);
		clyde_err_clear(&ctx);
		CHECK(clyde_zfs_run_exec(NULL, &ctx, f, &out) == -EIO);
		clyde_err_clear(&ctx);
		CHECK(clyde_zfs_run_exec(NULL, &ctx, e, &out) == 0);
		CHECK_STR(out, "a b\n");
		free(out);
	}
	clyde_ctx_release(&ctx);
}

/* The zvol node kind (env/probe_zvol.c) over the mirror's zvol zt/vol:
 * what it claims, the volume's properties and its pool's vdev tree, its
 * text, its JSON read back, its facts; a dataset is not a volume. */
static void test_zvol(void)
{
	struct clyde_zfs_src src = { .run = fake_run,
				     .run_arg = (void *)"mirror" };
	struct clyde_stack_node nodes[3];
	struct clyde_stack s, back;
	struct clyde_stack_fact facts[64];
	struct clyde_json root;
	struct clyde_json_error err;
	struct clyde_jw w;
	char *text = NULL;
	size_t len = 0, nfacts, seen = 0;
	FILE *f;

	CHECK(clyde_stack_kind_parse("zvol") == &clyde_stack_zvol);
	CHECK(clyde_stack_zvol.claims("", "zd0"));
	CHECK(clyde_stack_zvol.claims("", "zd16"));
	CHECK(!clyde_stack_zvol.claims("", "zd16p1"));
	CHECK(!clyde_stack_zvol.claims("", "zd"));
	CHECK(!clyde_stack_zvol.claims("", "zram0"));

	clyde_stack_node_init(&nodes[0], &clyde_stack_zvol, "zd0");
	CHECK(nodes[0].zfs_ashift == -1);
	CHECK(clyde_stack_zvol_fill(&nodes[0], "zt/vol", &src) == 0);
	CHECK_STR(nodes[0].zfs_volume, "zt/vol");
	CHECK_STR(nodes[0].zfs_pool, "zt");
	CHECK_STR(nodes[0].zfs_layout, "mirror");
	CHECK_STR(nodes[0].zfs_vdevs, "mirror-0 ashift 9: vda1 vdb1");
	CHECK_STR(nodes[0].zfs_leaves, "vda1 vdb1");
	CHECK(nodes[0].zfs_ashift == 9);
	CHECK(nodes[0].zfs_volblocksize == 16384);
	CHECK_STR(nodes[0].zfs_compression, "off");
	CHECK_STR(nodes[0].zfs_compressratio, "1.00");
	CHECK_STR(nodes[0].zfs_checksum, "on");
	CHECK_STR(nodes[0].zfs_sync, "standard");
	CHECK_STR(nodes[0].zfs_primarycache, "all");
	CHECK_STR(nodes[0].zfs_logbias, "latency");
	CHECK(nodes[0].note[0] == '\0');

	f = open_memstream(&text, &len);
	clyde_stack_zvol.text(f, &nodes[0]);
	fclose(f);
	CHECK(strstr(text,
		     "zt/vol, pool zt (mirror): mirror-0 ashift 9: "
		     "vda1 vdb1; volblocksize 16384, compression off") != NULL);
	free(text);

	/* Below it, the pool's leaves; the JSON reads back the same. */
	memset(&s, 0, sizeof(s));
	s.nodes = nodes;
	clyde_stack_node_init(&nodes[1], &clyde_stack_partition, "vda1");
	clyde_stack_node_init(&nodes[2], &clyde_stack_partition, "vdb1");
	nodes[0].nchildren = 2;
	nodes[0].children[0] = 1;
	nodes[0].children[1] = 2;
	s.nnodes = 3;
	s.ntop = 1;
	text = NULL;
	f = open_memstream(&text, &len);
	clyde_jw_init(&w, f);
	clyde_jw_open(&w, NULL, '{');
	clyde_stack_json(&w, "stack", &s);
	clyde_jw_close(&w, '}');
	fclose(f);
	CHECK(clyde_json_parse(text, len, NULL, &root, &err) == 0);
	CHECK(clyde_stack_from_json(clyde_json_get(&root, "stack"), &back,
				    &err) == 0);
	CHECK(back.nnodes == 3 && back.nodes[0].kind == &clyde_stack_zvol);
	CHECK_STR(back.nodes[0].zfs_volume, "zt/vol");
	CHECK_STR(back.nodes[0].zfs_vdevs, nodes[0].zfs_vdevs);
	CHECK(back.nodes[0].zfs_volblocksize == 16384);
	CHECK(back.nodes[0].zfs_ashift == 9);
	CHECK(back.nodes[0].nchildren == 2);
	nfacts = clyde_stack_facts(&back, facts, 64);
	for (size_t i = 0; i < nfacts && i < 64; i++)
		if (!strcmp(facts[i].key, "zvol volblocksize") &&
		    !strcmp(facts[i].value, "16384"))
			seen++;
	CHECK(seen == 1);
	clyde_json_free(&root);
	clyde_stack_free(&back);
	free(text);

	/* A filesystem given as the volume: said, not taken for one. */
	clyde_stack_node_init(&nodes[0], &clyde_stack_zvol, "zd0");
	CHECK(clyde_stack_zvol_fill(&nodes[0], "zt/fs", &src) == -EINVAL);
	CHECK(strstr(nodes[0].note, "not a volume") != NULL);
}

int main(void)
{
	test_stripe();
	test_mirror();
	test_raidz();
	test_draid();
	test_special();
	test_arc();
	test_guest_mounts();
	test_path_dataset();
	test_arc_diff();
	test_raidz_cost();
	test_arc_residency();
	test_errors();
	test_fs_probe();
	test_zvol();
	CHECK(n_runs > 0);
	return tap_done();
}
