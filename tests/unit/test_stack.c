/*
 * The stack walker and the advice over sysfs fixture trees
 * (tests/fixtures/sysfs/, described in its README): md RAID5 with a
 * missing member, LVM striped over two md arrays, misaligned partitions,
 * a plain disk.  This kernel has no md or dm, so these layers are only
 * testable this way; the real devices (loop, partitions of loop devices,
 * ext4/xfs/btrfs) are tested in tests/e2e/t_stack.sh.
 *
 * Also: the JSON written for a stack reads back to the same stack and is
 * written again byte for byte, and advice that depends on the filesystem
 * (stripe geometry, barriers, atime, journal) fires on a stack whose
 * filesystem fields the test sets by hand and stays quiet otherwise.
 */
#include "env/stack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/advise.h"
#include "env/stack_sysfs.h"
#include "results/stack_out.h"
#include "tap.h"

#define FIX CLYDE_FIXTURES_DIR "/sysfs/"

static int probe_in(const char *tree, const char *dev, struct clyde_stack *s)
{
	char root[1024];
	struct clyde_ctx ctx;
	int rc;

	snprintf(root, sizeof(root), "%s%s", FIX, tree);
	clyde_ctx_init(&ctx);
	rc = clyde_stack_probe(&ctx, root, dev, s);
	if (rc)
		fprintf(stderr, "# probe %s %s: %s\n", tree, dev,
			clyde_errmsg(&ctx));
	clyde_ctx_release(&ctx);
	return rc;
}

/* The advice for s, as "id@layer id@layer ..." (in the order given). */
static const char *advice_ids(const struct clyde_stack *s, unsigned workload,
			      struct clyde_advice_list *l)
{
	static char buf[1024];
	size_t used = 0;

	clyde_advise(s, workload, l);
	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "%s%s@%s", i ? " " : "",
					 l->items[i].id, l->items[i].layer);
	return buf;
}

static const struct clyde_advice *find_advice(const struct clyde_advice_list *l,
					      const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].id, id))
			return &l->items[i];
	return NULL;
}

static const char *leaves_of(const struct clyde_stack *s)
{
	static char buf[512];
	const char *names[CLYDE_STACK_MAX_NODES];
	size_t n = clyde_stack_leaves(s, names, CLYDE_STACK_MAX_NODES);
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s",
					 i ? " " : "", names[i]);
	return buf;
}

static void test_md_raid5_degraded(void)
{
	struct clyde_stack s;
	struct clyde_stack_stripe st;
	struct clyde_advice_list l;
	const struct clyde_stack_node *md, *sda1, *sda;

	CHECK(probe_in("md-raid5-degraded", "/dev/md0", &s) == 0);
	CHECK(s.ntop == 1);
	md = clyde_stack_find(&s, "md0");
	CHECK(md && md->kind == &clyde_stack_md);
	if (!md) {
		clyde_stack_free(&s);
		return;
	}
	CHECK_STR(md->md_level, "raid5");
	CHECK(md->chunk_bytes == 512 * 1024);
	CHECK(md->raid_disks == 4);
	CHECK(md->md_layout == 2);
	CHECK(md->stripe_cache_size == 256);
	CHECK(md->degraded == 1);
	CHECK_STR(md->sync_action, "idle");
	CHECK_STR(md->array_state, "clean");
	CHECK(md->nchildren == 3);
	CHECK(clyde_stack_md_data_disks(md) == 3);
	/* md0 -> sda1 -> sda, three times: 7 devices, partitions as leaves. */
	CHECK(s.nnodes == 7);
	CHECK_STR(leaves_of(&s), "sda1 sdb1 sdc1");
	sda1 = clyde_stack_find(&s, "sda1");
	sda = clyde_stack_find(&s, "sda");
	CHECK(sda1 && sda1->kind == &clyde_stack_partition &&
	      sda1->start_bytes == 1024 * 1024 && sda1->md_slot == 0 &&
	      !strcmp(sda1->md_state, "in_sync"));
	CHECK(sda && sda->kind == &clyde_stack_disk && sda->rotational == 1 &&
	      sda->physical_block_size == 4096 &&
	      !strcmp(sda->scheduler, "mq-deadline") &&
	      !strcmp(sda->write_cache, "write back") &&
	      !strcmp(sda->model, "WDC WD40EFRX-68N") &&
	      sda->size_bytes == 8ull << 30);
	/* A partition's queue is its disk's. */
	CHECK(sda1 && sda1->physical_block_size == 4096 &&
	      sda1->read_ahead_kb == 128);

	CHECK(clyde_stack_stripe(&s, &st) == 0);
	CHECK_STR(st.layer, "md0");
	CHECK(st.chunk_bytes == 512 * 1024 && st.data_disks == 3 &&
	      st.stripe_bytes == 1536 * 1024 && st.parity);

	CHECK_STR(advice_ids(&s, 0, &l),
		  "md-degraded@md0 md-stripe-cache@md0 read-ahead@md0");
	CHECK(l.items[0].severity == CLYDE_ADVICE_BAD);
	CHECK_STR(find_advice(&l, "md-stripe-cache")->fix,
		  "echo 4096 > /sys/block/md0/md/stripe_cache_size");
	CHECK(strstr(find_advice(&l, "read-ahead")->text, "1.50 MiB") != NULL);

	/* A filesystem made without the stripe: mkfs with it. */
	s.has_fs = true;
	snprintf(s.fs.type, sizeof(s.fs.type), "ext4");
	snprintf(s.fs.source, sizeof(s.fs.source), "/dev/md0");
	snprintf(s.fs.mount_point, sizeof(s.fs.mount_point), "/srv");
	snprintf(s.fs.mount_opts, sizeof(s.fs.mount_opts), "rw,noatime | rw");
	s.fs.block_size = 4096;
	s.fs.journal = CLYDE_JOURNAL_INTERNAL;
	clyde_advise(&s, 0, &l);
	CHECK(find_advice(&l, "fs-stripe") != NULL);
	if (find_advice(&l, "fs-stripe"))
		CHECK(strstr(find_advice(&l, "fs-stripe")->fix,
			     "mkfs.ext4 -E stride=128,stripe_width=384 "
			     "/dev/md0") != NULL);
	/* The internal journal on RAID5: the external-journal hint. */
	CHECK(find_advice(&l, "journal-parity") != NULL);
	/* Made right: quiet. */
	s.fs.stride_blocks = 128;
	s.fs.stripe_width_blocks = 384;
	s.fs.stripe_unit_bytes = 512 * 1024;
	s.fs.stripe_width_bytes = 1536 * 1024;
	clyde_advise(&s, 0, &l);
	CHECK(find_advice(&l, "fs-stripe") == NULL);
	/* xfs with the wrong su/sw. */
	snprintf(s.fs.type, sizeof(s.fs.type), "xfs");
	s.fs.stripe_unit_bytes = 64 * 1024;
	clyde_advise(&s, 0, &l);
	CHECK(find_advice(&l, "fs-stripe") &&
	      !strcmp(find_advice(&l, "fs-stripe")->fix,
		      "mkfs.xfs -d su=512k,sw=3 /dev/md0"));
	/* Unknown geometry (superblock unreadable): an info, no fix. */
	s.fs.block_size = 0;
	clyde_advise(&s, 0, &l);
	CHECK(find_advice(&l, "fs-stripe") &&
	      find_advice(&l, "fs-stripe")->severity == CLYDE_ADVICE_INFO);

	/* Barriers off over a volatile write cache. */
	CHECK(find_advice(&l, "write-cache") == NULL);
	snprintf(s.fs.mount_opts, sizeof(s.fs.mount_opts),
		 "rw,noatime | rw,nobarrier");
	clyde_advise(&s, 0, &l);
	CHECK(find_advice(&l, "write-cache") &&
	      find_advice(&l, "write-cache")->severity == CLYDE_ADVICE_BAD &&
	      !strcmp(find_advice(&l, "write-cache")->fix,
		      "mount -o remount,barrier /srv"));
	clyde_stack_free(&s);
}

static void test_lvm_striped_md(void)
{
	struct clyde_stack s;
	struct clyde_stack_stripe st;
	struct clyde_advice_list l;
	const struct clyde_stack_node *dm;

	CHECK(probe_in("lvm-striped-md", "dm-0", &s) == 0);
	dm = clyde_stack_find(&s, "dm-0");
	CHECK(dm && dm->kind == &clyde_stack_dm);
	if (!dm) {
		clyde_stack_free(&s);
		return;
	}
	CHECK_STR(dm->dm_name, "vg0-striped");
	CHECK(!strncmp(dm->dm_uuid, "LVM-", 4));
	CHECK_STR(dm->lvm_vg, "vg0");
	CHECK_STR(dm->lvm_lv, "striped");
	CHECK_STR(dm->dm_target, "striped");
	CHECK(dm->dm_stripes == 2 && dm->dm_stripe_bytes == 64 * 1024);
	CHECK(dm->nchildren == 2);
	CHECK(s.nnodes == 9); /* dm-0, md0, md1, six disks */
	CHECK_STR(leaves_of(&s), "sda sdb sdc sdd sde sdf");
	/* The LV's striping is what the filesystem sees first. */
	CHECK(clyde_stack_stripe(&s, &st) == 0);
	CHECK_STR(st.layer, "dm-0");
	CHECK(st.stripe_bytes == 128 * 1024 && !st.parity);
	CHECK_STR(advice_ids(&s, 0, &l), "lv-stripe@dm-0 mixed-rotational@sda");
	CHECK(strstr(find_advice(&l, "lv-stripe")->text, "128 KiB") != NULL);
	clyde_stack_free(&s);

	CHECK(probe_in("lvm-striped-md", "dm-1", &s) == 0);
	dm = clyde_stack_find(&s, "dm-1");
	CHECK(dm && !strcmp(dm->dm_target, "linear") &&
	      dm->dm_start_bytes == 384 * 512);
	CHECK_STR(advice_ids(&s, 0, &l), "lv-align@dm-1");
	CHECK_STR(find_advice(&l, "lv-align")->fix,
		  "pvcreate --dataalignment 128k /dev/md0 (and extents that "
		  "are multiples of it: vgcreate -s 128k)");
	clyde_stack_free(&s);
}

/* md over a dm device (dm-delay on one member) and a disk: the dm device
 * is the member counted, not the disk under it (md waits for dm-0). */
static void test_leaves_dm_under_md(void)
{
	struct clyde_stack_node nodes[4];
	struct clyde_stack s;
	static const char *const names[] = { "md0", "dm-0", "sdb", "sda" };
	const struct clyde_stack_kind *const kinds[] = { &clyde_stack_md,
							 &clyde_stack_dm,
							 &clyde_stack_disk,
							 &clyde_stack_disk };

	memset(&s, 0, sizeof(s));
	memset(nodes, 0, sizeof(nodes));
	for (int i = 0; i < 4; i++) {
		snprintf(nodes[i].name, sizeof(nodes[i].name), "%s", names[i]);
		nodes[i].kind = kinds[i];
	}
	nodes[0].nchildren = 2;
	nodes[0].children[0] = 1;
	nodes[0].children[1] = 2;
	nodes[1].nchildren = 1;
	nodes[1].children[0] = 3;
	s.nodes = nodes;
	s.nnodes = 4;
	s.ntop = 1;
	CHECK_STR(leaves_of(&s), "dm-0 sdb");
	/* An LV (dm) over a disk, no md: the disk, as before. */
	nodes[0].kind = &clyde_stack_dm;
	CHECK_STR(leaves_of(&s), "sdb sda");
}

/* LVM's dm names: VG-LV, with a "-" inside either doubled. */
static void test_lvm_names(void)
{
	char vg[16], lv[16];

	CHECK(clyde_stack_lvm_names("vg0-lv0", vg, sizeof(vg), lv,
				    sizeof(lv)) == 0);
	CHECK_STR(vg, "vg0");
	CHECK_STR(lv, "lv0");
	CHECK(clyde_stack_lvm_names("my--vg-lv--a--b", vg, sizeof(vg), lv,
				    sizeof(lv)) == 0);
	CHECK_STR(vg, "my-vg");
	CHECK_STR(lv, "lv-a-b");
	CHECK(clyde_stack_lvm_names("no--split", vg, sizeof(vg), lv,
				    sizeof(lv)) == -EINVAL);
	CHECK_STR(vg, "");
	CHECK(clyde_stack_lvm_names("vg-", vg, sizeof(vg), lv, sizeof(lv)) ==
	      -EINVAL);
	/* Cut to the buffers, never past them. */
	CHECK(clyde_stack_lvm_names("averyveryverylongvgname-lv", vg, 8, lv,
				    sizeof(lv)) == 0);
	CHECK_STR(vg, "averyve");
	CHECK_STR(lv, "lv");
}

static void test_misaligned(void)
{
	struct clyde_stack s;
	struct clyde_advice_list l;

	CHECK(probe_in("misaligned-part", "sda1", &s) == 0);
	CHECK(s.nnodes == 2);
	CHECK_STR(leaves_of(&s), "sda1");
	CHECK_STR(advice_ids(&s, 0, &l), "part-align@sda1");
	CHECK(strstr(l.items[0].text, "sector 63") != NULL);
	CHECK_STR(l.items[0].fix, "recreate it starting on a multiple of 4 "
				  "KiB, e.g. parted /dev/sda mkpart primary "
				  "1024KiB 100%");
	clyde_stack_free(&s);

	CHECK(probe_in("misaligned-part", "md0p2", &s) == 0);
	/* A partition of an array is no leaf: the array's disks are. */
	CHECK_STR(leaves_of(&s), "sdb sdc");
	CHECK_STR(advice_ids(&s, 0, &l), "part-align@md0p2");
	CHECK(strstr(l.items[0].text, "512 KiB") != NULL);
	clyde_stack_free(&s);

	CHECK(probe_in("misaligned-part", "md0p1", &s) == 0);
	CHECK_STR(advice_ids(&s, 0, &l), "");
	clyde_stack_free(&s);
}

static void test_plain_disk(void)
{
	struct clyde_stack s;
	struct clyde_advice_list l;
	const struct clyde_stack_node *n;

	CHECK(probe_in("plain-disk", "nvme0n1", &s) == 0);
	CHECK(s.nnodes == 1);
	n = clyde_stack_find(&s, "nvme0n1");
	CHECK(n && n->kind == &clyde_stack_disk && n->rotational == 0 &&
	      n->nr_requests == 1023 && !strcmp(n->scheduler, "none"));
	CHECK_STR(advice_ids(&s, 0, &l), "");
	/* An ext4 with relatime on it: nothing for a bonnie run, the
	 * relatime note for a tree walk, a warning for strictatime. */
	s.has_fs = true;
	snprintf(s.fs.type, sizeof(s.fs.type), "ext4");
	snprintf(s.fs.mount_point, sizeof(s.fs.mount_point), "/data");
	snprintf(s.fs.mount_opts, sizeof(s.fs.mount_opts), "rw,relatime | rw");
	s.fs.journal = CLYDE_JOURNAL_INTERNAL;
	CHECK_STR(advice_ids(&s, 0, &l), "");
	CHECK_STR(advice_ids(&s, CLYDE_ADVISE_TREE, &l), "atime@filesystem");
	CHECK(l.n == 1 && l.items[0].severity == CLYDE_ADVICE_INFO);
	snprintf(s.fs.mount_opts, sizeof(s.fs.mount_opts),
		 "rw,strictatime | rw");
	CHECK_STR(advice_ids(&s, 0, &l), "atime@filesystem");
	CHECK(l.n == 1 && l.items[0].severity == CLYDE_ADVICE_WARN &&
	      !strcmp(l.items[0].fix, "mount -o remount,noatime /data"));
	clyde_stack_free(&s);
}

static void test_errors(void)
{
	struct clyde_stack s;

	/* A device the fixture does not have. */
	CHECK(probe_in("plain-disk", "sdz", &s) == -ENOENT);
	clyde_stack_free(&s);
}

/* Write s (and advice) as JSON into a string (caller frees). */
static char *to_json(const struct clyde_stack *s,
		     const struct clyde_advice_list *l, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct clyde_jw w;

	if (!f)
		return NULL;
	clyde_jw_init(&w, f);
	clyde_jw_open(&w, NULL, '{');
	clyde_stack_json(&w, "stack", s);
	clyde_advice_json(&w, "advice", l);
	clyde_jw_close(&w, '}');
	fclose(f);
	return buf;
}

static void test_json_round_trip(const char *tree, const char *dev)
{
	struct clyde_stack s, back;
	struct clyde_advice_list l, lback;
	struct clyde_json root;
	struct clyde_json_error err;
	char *a, *b;
	size_t alen, blen;

	CHECK(probe_in(tree, dev, &s) == 0);
	s.has_fs = true;
	snprintf(s.fs.type, sizeof(s.fs.type), "xfs");
	s.fs.journal = CLYDE_JOURNAL_EXTERNAL;
	snprintf(s.fs.journal_dev, sizeof(s.fs.journal_dev), "sdx");
	s.fs.stripe_unit_bytes = 65536;
	clyde_advise(&s, 0, &l);
	a = to_json(&s, &l, &alen);
	CHECK(a != NULL);
	if (!a) {
		clyde_stack_free(&s);
		return;
	}
	CHECK(clyde_json_parse(a, alen, NULL, &root, &err) == 0);
	CHECK(clyde_stack_from_json(clyde_json_get(&root, "stack"), &back,
				    &err) == 0);
	CHECK(clyde_advice_from_json(clyde_json_get(&root, "advice"), &lback,
				     &err) == 0);
	CHECK(back.nnodes == s.nnodes && back.ntop == s.ntop);
	CHECK(back.fs.journal == CLYDE_JOURNAL_EXTERNAL);
	CHECK(lback.n == l.n);
	b = to_json(&back, &lback, &blen);
	CHECK(b && blen == alen && memcmp(a, b, alen) == 0);
	if (b && (blen != alen || memcmp(a, b, alen) != 0))
		fprintf(stderr, "# %s %s: JSON differs after reading back\n",
			tree, dev);
	free(a);
	free(b);
	clyde_json_free(&root);
	clyde_stack_free(&back);
	clyde_stack_free(&s);
}

static void test_json_errors(void)
{
	static const char *const bad[] = {
		"{\"devices\": [{\"name\": \"a\", \"children\": [\"b\"]}]}",
		"{\"devices\": {}}",
		"{\"devices\": [{\"name\": 3}]}",
		/* A kind's own field: read for that kind only. */
		("{\"devices\": [{\"name\": \"a\", \"kind\": \"md\","
		 " \"raid_disks\": -1}]}"),
		"[]",
		/* A device below itself. */
		("{\"devices\": [{\"name\": \"a\", \"children\": [\"b\"]},"
		 " {\"name\": \"b\", \"children\": [\"a\"]}], \"top\": [\"a\"]}"),
		"{\"devices\": [{\"name\": \"a\", \"children\": [\"a\"]}]}",
	};
	struct clyde_json root;
	struct clyde_json_error err;
	struct clyde_stack s;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(clyde_json_parse(bad[i], strlen(bad[i]), NULL, &root,
				       &err) == 0);
		memset(&err, 0, sizeof(err));
		CHECK(clyde_stack_from_json(&root, &s, &err) == -EINVAL);
		CHECK(!strncmp(err.why, "stack: ", 7));
		clyde_stack_free(&s);
		clyde_json_free(&root);
	}
}

/* The value of fact `key`, or NULL. */
static const char *fact_of(const struct clyde_stack_fact *f, size_t n,
			   const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return f[i].value;
	return NULL;
}

static void test_facts(void)
{
	struct clyde_stack s;
	struct clyde_stack_fact f[64];
	size_t n;

	CHECK(probe_in("lvm-striped-md", "dm-0", &s) == 0);
	n = clyde_stack_facts(&s, f, 64);
	CHECK(n > 0 && n <= 64);
	CHECK_STR(fact_of(f, n, "stripe level"), "striped");
	CHECK_STR(fact_of(f, n, "full stripe"), "128 KiB");
	CHECK_STR(fact_of(f, n, "md level"), "raid5");
	CHECK_STR(fact_of(f, n, "md chunk"), "64 KiB");
	CHECK_STR(fact_of(f, n, "md stripe_cache_size"), "4096");
	CHECK_STR(fact_of(f, n, "dm target"), "striped");
	CHECK_STR(fact_of(f, n, "dm stripe size"), "64 KiB");
	CHECK_STR(fact_of(f, n, "members"), "6");
	CHECK_STR(fact_of(f, n, "member rotational"),
		  "rotational,non-rotational");
	CHECK_STR(fact_of(f, n, "member model"),
		  "ST4000VN008-2DR1,Samsung SSD 870");
	CHECK(fact_of(f, n, "filesystem") == NULL);
	/* The top device's read-ahead, not its members'. */
	CHECK_STR(fact_of(f, n, "device read_ahead"), "8192 KiB");
	/* Fewer slots than facts: the count is still all of them. */
	CHECK(clyde_stack_facts(&s, f, 2) == n);
	clyde_stack_free(&s);

	CHECK(probe_in("plain-disk", "nvme0n1", &s) == 0);
	n = clyde_stack_facts(&s, f, 64);
	CHECK(fact_of(f, n, "stripe level") == NULL);
	CHECK(fact_of(f, n, "md level") == NULL);
	CHECK_STR(fact_of(f, n, "member scheduler"), "none");
	CHECK_STR(fact_of(f, n, "member max_sectors_kb"), "128 KiB");
	CHECK(clyde_stack_find(&s, "nvme0n1") &&
	      clyde_stack_find(&s, "nvme0n1")->max_sectors_kb == 128);
	clyde_stack_free(&s);
}

/* 40 devices, each with the next two as children: few devices, but the
 * printed tree would unfold into about 2^40 lines.  Refused on reading. */
static void test_json_unfold(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct clyde_json root;
	struct clyde_json_error err;
	struct clyde_stack s;

	if (!f) {
		CHECK(!"open_memstream");
		return;
	}
	fputs("{\"top\": [\"d0\"], \"devices\": [", f);
	for (int i = 0; i < 40; i++) {
		fprintf(f, "%s{\"name\": \"d%d\", \"children\": [",
			i ? "," : "", i);
		if (i + 1 < 40)
			fprintf(f, "\"d%d\"", i + 1);
		if (i + 2 < 40)
			fprintf(f, ", \"d%d\"", i + 2);
		fputs("]}", f);
	}
	fputs("]}", f);
	fclose(f);
	CHECK(clyde_json_parse(text, len, NULL, &root, &err) == 0);
	CHECK(clyde_stack_from_json(&root, &s, &err) == -EINVAL);
	CHECK(strstr(err.why, "unfolds into more than") != NULL);
	clyde_stack_free(&s);
	clyde_json_free(&root);
	free(text);
}

/*
 * The data disks of a stripe, which the full stripe and the advice rest
 * on: md raid6 keeps two disks' worth of parity (5 disks: 3 data), md
 * raid10 keeps `near x far` copies (md.rst: layout bits 0-7 near, 8-15 far;
 * n2 over 4 disks: 2 data).
 */
static void test_md_raid6(void)
{
	struct clyde_stack s;
	struct clyde_stack_stripe st;
	struct clyde_advice_list l;
	const struct clyde_stack_node *md;

	CHECK(probe_in("md-raid6", "md0", &s) == 0);
	md = clyde_stack_find(&s, "md0");
	CHECK(md && md->kind == &clyde_stack_md);
	if (!md) {
		clyde_stack_free(&s);
		return;
	}
	CHECK_STR(md->md_level, "raid6");
	CHECK(md->raid_disks == 5 && md->nchildren == 5);
	CHECK(md->chunk_bytes == 64 * 1024);
	CHECK(clyde_stack_md_data_disks(md) == 3);
	CHECK_STR(leaves_of(&s), "sda sdb sdc sdd sde");
	CHECK(clyde_stack_stripe(&s, &st) == 0);
	CHECK_STR(st.layer, "md0");
	CHECK_STR(st.level, "raid6");
	CHECK(st.data_disks == 3 && st.disks == 5 && st.parity);
	CHECK(st.stripe_bytes == 192 * 1024);
	/* The kernel's optimal_io_size (chunk x data disks) says the same. */
	CHECK(md->optimal_io_size == st.stripe_bytes);
	/* Without it, the level's rule says the same. */
	((struct clyde_stack_node *)md)->optimal_io_size = 0;
	CHECK(clyde_stack_md_data_disks(md) == 3);
	/* Read-ahead two stripes, a large stripe cache: nothing to say. */
	CHECK_STR(advice_ids(&s, 0, &l), "");
	clyde_stack_free(&s);
}

static void test_md_raid10(void)
{
	struct clyde_stack s;
	struct clyde_stack_stripe st;
	struct clyde_stack_node *md;

	CHECK(probe_in("md-raid10", "md0", &s) == 0);
	md = (struct clyde_stack_node *)clyde_stack_find(&s, "md0");
	CHECK(md && md->kind == &clyde_stack_md);
	if (!md) {
		clyde_stack_free(&s);
		return;
	}
	CHECK_STR(md->md_level, "raid10");
	CHECK(md->raid_disks == 4 && md->nchildren == 4);
	CHECK(md->md_layout == 0x102); /* near 2, far 1 */
	CHECK(clyde_stack_md_data_disks(md) == 2);
	CHECK(clyde_stack_stripe(&s, &st) == 0);
	CHECK_STR(st.level, "raid10");
	CHECK(st.data_disks == 2 && st.disks == 4 && !st.parity);
	CHECK(st.chunk_bytes == 512 * 1024 && st.stripe_bytes == 1024 * 1024);
	CHECK(md->optimal_io_size == st.stripe_bytes);
	/* What md reports wins: far=2 and offset=2 over 4 disks have an
	 * optimal_io_size of 4 chunks (raid10.c: far copies are in other
	 * rows), near=2 over 3 and 5 disks one of 3 and 5 chunks. */
	md->md_layout = 0x201;
	md->optimal_io_size = 4 * 512 * 1024;
	CHECK(clyde_stack_md_data_disks(md) == 4);
	CHECK(clyde_stack_stripe(&s, &st) == 0 && st.data_disks == 4 &&
	      st.stripe_bytes == 2048 * 1024);
	/* Without it, the kernel's rule gives the same. */
	md->optimal_io_size = 0;
	CHECK(clyde_stack_md_data_disks(md) == 4);
	md->md_layout = 0x10201; /* offset=2 */
	CHECK(clyde_stack_md_data_disks(md) == 4);
	md->md_layout = 0x102;
	md->raid_disks = 3;
	CHECK(clyde_stack_md_data_disks(md) == 3);
	md->raid_disks = 5;
	CHECK(clyde_stack_md_data_disks(md) == 5);
	md->optimal_io_size = 5 * 512 * 1024;
	CHECK(clyde_stack_md_data_disks(md) == 5);
	/* n2 f2 over 8: 4 chunks a row. */
	md->optimal_io_size = 0;
	md->md_layout = 0x202;
	md->raid_disks = 8;
	CHECK(clyde_stack_md_data_disks(md) == 4);
	/* No copies in the layout is no stripe clyde can tell. */
	md->md_layout = 0;
	CHECK(clyde_stack_md_data_disks(md) == 0);
	clyde_stack_free(&s);
}

/*
 * btrfs stripes its block groups itself (64 KiB a device): the data disks
 * by data profile and the filesystem's device count (BTRFS_IOC_FS_INFO;
 * tests/e2e/t_stack_btrfs.sh reads them from real filesystems).
 */
static uint32_t btrfs_data_disks(const char *profile, uint32_t devices,
				 bool *parity)
{
	struct clyde_stack s;
	struct clyde_stack_stripe st;

	memset(&s, 0, sizeof(s));
	s.has_fs = true;
	snprintf(s.fs.type, sizeof(s.fs.type), "btrfs");
	snprintf(s.fs.data_profile, sizeof(s.fs.data_profile), "%s", profile);
	s.fs.num_devices = devices;
	if (clyde_stack_stripe(&s, &st) != 0)
		return 0;
	CHECK_STR(st.layer, "btrfs");
	CHECK(st.chunk_bytes == 64 * 1024 && st.disks == devices &&
	      st.stripe_bytes == st.chunk_bytes * st.data_disks);
	*parity = st.parity;
	return st.data_disks;
}

static void test_btrfs_profiles(void)
{
	bool parity = false;

	CHECK(btrfs_data_disks("raid6", 5, &parity) == 3 && parity);
	CHECK(btrfs_data_disks("raid6", 4, &parity) == 2 && parity);
	CHECK(btrfs_data_disks("raid5", 4, &parity) == 3 && parity);
	CHECK(btrfs_data_disks("raid10", 4, &parity) == 2 && !parity);
	CHECK(btrfs_data_disks("raid10", 6, &parity) == 3 && !parity);
	CHECK(btrfs_data_disks("raid0", 3, &parity) == 3 && !parity);
	/* Mirrors and single do not stripe. */
	CHECK(btrfs_data_disks("raid1", 2, &parity) == 0);
	CHECK(btrfs_data_disks("single", 3, &parity) == 0);
}

static void test_fmt(void)
{
	char b[32];

	CHECK_STR(clyde_stack_fmt_bytes(b, sizeof(b), 0), "0 B");
	CHECK_STR(clyde_stack_fmt_bytes(b, sizeof(b), 512), "512 B");
	CHECK_STR(clyde_stack_fmt_bytes(b, sizeof(b), 65536), "64 KiB");
	CHECK_STR(clyde_stack_fmt_bytes(b, sizeof(b), 1536 * 1024), "1.50 MiB");
	CHECK_STR(clyde_stack_fmt_bytes(b, sizeof(b), 1023 * 1024), "1023 KiB");
	CHECK_STR(clyde_stack_fmt_bytes(b, sizeof(b), 3ull << 30), "3 GiB");
	CHECK_STR(clyde_stack_fmt_bytes(b, sizeof(b), 63 * 512), "31.5 KiB");
}

int main(void)
{
	test_md_raid5_degraded();
	test_md_raid6();
	test_md_raid10();
	test_btrfs_profiles();
	test_lvm_striped_md();
	test_lvm_names();
	test_leaves_dm_under_md();
	test_misaligned();
	test_plain_disk();
	test_errors();
	test_json_round_trip("md-raid5-degraded", "md0");
	test_json_round_trip("lvm-striped-md", "dm-0");
	test_json_round_trip("md-raid6", "md0");
	test_json_round_trip("md-raid10", "md0");
	test_json_errors();
	test_json_unfold();
	test_facts();
	test_fmt();
	return tap_done();
}
