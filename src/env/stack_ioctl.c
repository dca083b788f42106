/*
 * A device's description from ioctls on its node, for when /sys does not
 * describe it (a container with a partial /sys, a device number sysfs
 * does not name): size and queue limits (<linux/fs.h> BLK*), and for a
 * loop device its backing file, offset and direct I/O (LOOP_GET_STATUS64,
 * <linux/loop.h>; the file name is cut at 63 bytes there).  Scheduler,
 * write cache, model and nr_requests have no ioctl and stay empty.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

int clyde_stack_node_ioctl(const char *devnode, struct clyde_stack_node *n)
{
	struct loop_info64 lo;
	struct stat st;
	uint64_t size;
	unsigned int u;
	unsigned short rot;
	long ra;
	int i, fd = open(devnode, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	const char *base = strrchr(devnode, '/');

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode)) {
		close(fd);
		return -ENOTBLK;
	}
	base = base ? base + 1 : devnode;
	clyde_stack_node_init(n,
			      strncmp(base, "zram", 4) ? &clyde_stack_disk :
							 &clyde_stack_zram,
			      base);
	n->major = major(st.st_rdev);
	n->minor = minor(st.st_rdev);
	if (ioctl(fd, BLKGETSIZE64, &size) == 0)
		n->size_bytes = size;
	if (ioctl(fd, BLKSSZGET, &i) == 0 && i > 0)
		n->logical_block_size = (uint32_t)i;
	if (ioctl(fd, BLKPBSZGET, &u) == 0)
		n->physical_block_size = u;
	if (ioctl(fd, BLKIOMIN, &u) == 0)
		n->minimum_io_size = u;
	if (ioctl(fd, BLKIOOPT, &u) == 0)
		n->optimal_io_size = u;
	if (ioctl(fd, BLKRAGET, &ra) == 0 && ra >= 0)
		n->read_ahead_kb = (uint32_t)(ra / 2); /* 512-byte sectors */
	if (ioctl(fd, BLKROTATIONAL, &rot) == 0)
		n->rotational = rot != 0;
	memset(&lo, 0, sizeof(lo));
	if (ioctl(fd, LOOP_GET_STATUS64, &lo) == 0) {
		/* The union is still all zero: a disk has no fields of its
		 * own. */
		n->kind = &clyde_stack_loop;
		lo.lo_file_name[LO_NAME_SIZE - 1] = '\0';
		clyde_stack_copy(n->backing_file, sizeof(n->backing_file),
				 (const char *)lo.lo_file_name);
		n->dio = (lo.lo_flags & LO_FLAGS_DIRECT_IO) != 0;
		n->loop_offset = lo.lo_offset;
	}
	snprintf(n->note, sizeof(n->note),
		 "from ioctls on %s: /sys does not describe it", devnode);
	close(fd);
	return 0;
}
