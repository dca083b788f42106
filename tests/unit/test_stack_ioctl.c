/*
 * The ioctl description of a device (stack_ioctl.c, used when /sys does
 * not describe it) against the sysfs one of the same device: a loop
 * device with direct I/O on a 16 MiB image, and /dev/zram0 when present.
 * Needs root (losetup); skips otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env/stack.h"
#include "env/stack_sysfs.h"
#include "tap.h"

static char img[64], dev[64];

static void cleanup(void)
{
	char cmd[256];

	if (dev[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d '%s'", dev);
		if (system(cmd) != 0)
			fprintf(stderr, "# could not detach %s\n", dev);
	}
	if (img[0])
		unlink(img);
}

/* Compare the ioctl and sysfs descriptions of devnode. */
static void compare(const char *devnode)
{
	struct clyde_ctx ctx;
	struct clyde_stack s;
	struct clyde_stack_node io;
	const struct clyde_stack_node *sys;

	clyde_ctx_init(&ctx);
	CHECK(clyde_stack_probe(&ctx, "", devnode, &s) == 0);
	CHECK(clyde_stack_node_ioctl(devnode, &io) == 0);
	sys = s.ntop ? &s.nodes[s.top[0]] : NULL;
	CHECK(sys != NULL);
	if (sys) {
		CHECK_STR(io.name, sys->name);
		CHECK(io.kind == sys->kind);
		CHECK(io.major == sys->major && io.minor == sys->minor);
		CHECK(io.size_bytes == sys->size_bytes);
		CHECK(io.logical_block_size == sys->logical_block_size);
		CHECK(io.physical_block_size == sys->physical_block_size);
		CHECK(io.minimum_io_size == sys->minimum_io_size);
		CHECK(io.optimal_io_size == sys->optimal_io_size);
		CHECK(io.read_ahead_kb == sys->read_ahead_kb);
		CHECK(io.rotational == sys->rotational);
		/* A loop device's own fields (a zram device's are others,
		 * in the same union). */
		if (io.kind == &clyde_stack_loop) {
			CHECK(io.dio == sys->dio);
			CHECK_STR(io.backing_file, sys->backing_file);
			CHECK(io.loop_offset == sys->loop_offset);
		}
		CHECK(strstr(io.note, "from ioctls") != NULL);
		printf("# %s: %llu bytes, %u/%u, ra %u KiB, rot %d, dio %d\n",
		       io.name, (unsigned long long)io.size_bytes,
		       io.logical_block_size, io.physical_block_size,
		       io.read_ahead_kb, io.rotational,
		       io.kind == &clyde_stack_loop ? io.dio : -1);
	}
	clyde_stack_free(&s);
	clyde_ctx_release(&ctx);
}

int main(void)
{
	struct clyde_stack_node n;
	char cmd[256];
	FILE *p;
	int fd;

	/* Not a block device: refused. */
	CHECK(clyde_stack_node_ioctl("/dev/null", &n) == -ENOTBLK);
	CHECK(clyde_stack_node_ioctl("/nonexistent", &n) == -ENOENT);
	if (geteuid() != 0)
		tap_skip_all("needs root for losetup");
	atexit(cleanup);
	snprintf(img, sizeof(img), "/tmp/clyde-stack-ioctl.XXXXXX");
	fd = mkstemp(img);
	CHECK(fd >= 0 && ftruncate(fd, 16 << 20) == 0);
	if (fd >= 0)
		close(fd);
	snprintf(cmd, sizeof(cmd),
		 "losetup -f --show --direct-io=on '%s' 2>/dev/null", img);
	p = popen(cmd, "r");
	if (!p || !fgets(dev, sizeof(dev), p)) {
		if (p)
			pclose(p);
		dev[0] = '\0';
		tap_skip_all("no loop device available");
	}
	pclose(p);
	dev[strcspn(dev, "\n")] = '\0';
	compare(dev);
	if (access("/dev/zram0", R_OK) == 0)
		compare("/dev/zram0");
	return tap_done();
}
