/*
 * The checks made before clyde writes to a block device (or to a regular
 * file standing in for one), so that `clyde dev` never destroys data the
 * user did not name for destruction.  All of them run before the first
 * byte is written; any of them failing means nothing is written.
 *
 * Always refused, even with --destroy-data:
 *  - a device that is mounted, directly, through one of its partitions,
 *    through a holder (a device-mapper or md device built on it:
 *    /sys/class/block/X/holders, followed recursively, also from each
 *    partition), or a partition whose whole disk is mounted; an active
 *    swap device counts as mounted;
 *  - a device that is a member of something (it has a holder: md, LVM,
 *    dm-crypt), even when nothing above it is mounted.
 * Refused unless the caller says the data may be destroyed:
 *  - a device carrying any signature libblkid recognises (filesystem,
 *    RAID member, LVM PV, partition table, swap); without libblkid at
 *    build time every write is refused, since nothing can be checked;
 *  - a device another process holds open (found in /proc/PID/fd), or that
 *    the kernel refuses to open with O_EXCL (EBUSY: mounted, a holder, or
 *    another exclusive opener).
 *
 * Nothing here prints.  A refusal records one line in ctx naming the
 * device (its kernel name, "loop3") and the reason, ending with what the
 * user can do, and returns -EBUSY (in use) or -EEXIST (a signature).
 */
#ifndef CLYDE_IO_DEVGUARD_H
#define CLYDE_IO_DEVGUARD_H

#include <stdbool.h>

#include "core/ctx.h"

/* True when this build can read signatures (libblkid was found). */
bool clyde_devguard_have_blkid(void);

/*
 * May clyde write to `path`?  Runs every check above; `destroy_data` is
 * the user's --destroy-data.  Returns 0, or a negative errno with the one
 * line in ctx (an unreadable path: the open's errno).
 */
int clyde_devguard_check_write(struct clyde_ctx *ctx, const char *path,
			       bool destroy_data);

#endif
