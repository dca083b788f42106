/*
 * The mount and holder walk of clyde dev's guards on a made-up sysfs tree
 * and mountinfo (this machine need not have md or device-mapper): a disk
 * whose partition is a member of an md array is refused as "in use by" the
 * array, and as "mounted through" it once the array is mounted; a disk
 * with nothing above it passes.  (Real loop devices, mounts, signatures
 * and open files: tests/e2e/t_dev_guard.sh.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/devguard.h"
#include "tap.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void dir(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir(path, 0755);
}

static int check(const char *mountinfo_text, const char *name,
		 struct clyde_ctx *ctx)
{
	char sys[128], mi[128], sw[128];
	struct clyde_devguard_paths p = { sys, mi, sw };

	snprintf(sys, sizeof(sys), "%s/block", root);
	snprintf(mi, sizeof(mi), "%s/mountinfo", root);
	snprintf(sw, sizeof(sw), "%s/swaps", root);
	put("mountinfo", mountinfo_text);
	clyde_err_clear(ctx);
	return clyde_devguard_in_use(ctx, &p, name);
}

int main(void)
{
	struct clyde_ctx ctx;
	char cmd[128];

	snprintf(root, sizeof(root), "/tmp/clyde-test-devguard.XXXXXX");
	if (!mkdtemp(root))
		tap_skip_all("no temporary directory");
	clyde_ctx_init(&ctx);
	/* sdx with partition sdx1, which md9 holds; sdy alone. */
	dir("block");
	dir("block/sdx");
	put("block/sdx/dev", "8:16\n");
	dir("block/sdx/holders");
	dir("block/sdx/sdx1");
	put("block/sdx/sdx1/partition", "1\n");
	dir("block/sdx1");
	put("block/sdx1/dev", "8:17\n");
	dir("block/sdx1/holders");
	dir("block/sdx1/holders/md9");
	dir("block/md9");
	put("block/md9/dev", "9:9\n");
	dir("block/md9/holders");
	dir("block/sdy");
	put("block/sdy/dev", "8:32\n");
	put("swaps", "Filename Type Size Used Priority\n");

	CHECK(check("", "sdy", &ctx) == 0);
	CHECK(check("", "sdx", &ctx) == -EBUSY);
	CHECK(strstr(clyde_errmsg(&ctx), "sdx is in use by md9") != NULL);
	CHECK(check("36 25 9:9 / /srv rw - ext4 /dev/md9 rw\n", "sdx", &ctx) ==
	      -EBUSY);
	CHECK(strstr(clyde_errmsg(&ctx),
		     "sdx is mounted through md9 on /srv") != NULL);
	CHECK(check("36 25 8:17 / /boot rw - ext4 /dev/sdx1 rw\n", "sdx",
		    &ctx) == -EBUSY);
	CHECK(strstr(clyde_errmsg(&ctx),
		     "sdx is mounted through sdx1 on /boot") != NULL);
	CHECK(check("36 25 8:32 / /mnt rw - ext4 /dev/sdy rw\n", "sdy", &ctx) ==
	      -EBUSY);
	CHECK(strstr(clyde_errmsg(&ctx), "sdy is mounted on /mnt") != NULL);
	/* A space in the mount point: mountinfo's \040, named as it is. */
	CHECK(check("36 25 8:32 / /mnt/a\\040b rw shared:1 - ext4 /dev/sdy "
		    "rw\n",
		    "sdy", &ctx) == -EBUSY);
	CHECK(strstr(clyde_errmsg(&ctx), "sdy is mounted on /mnt/a b") != NULL);
	CHECK(check("36 25 8:16 / /mnt rw - ext4 /dev/sdx rw\n", "sdy", &ctx) ==
	      0);

	clyde_ctx_release(&ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return tap_done();
}
