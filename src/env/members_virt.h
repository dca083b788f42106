/*
 * Is a disk virtual?  A virtio, Xen, VMware or Hyper-V disk is a file or
 * volume on a host that may cache it in its own memory: a "cold" read in
 * the guest can be a warm one on the host, and a flush may stop at the
 * host's cache.  clyde cannot see through that; it says so, and that -D
 * and repeats after a pause tell more.
 *
 * Recognised, in this order, from sysfs under a root prefix (fixtures in
 * tests): the disk's driver (/sys/block/X/device/driver: virtio_blk, vbd,
 * xen-blkfront, storvsc...), its modalias ("virtio:..."), its SCSI vendor
 * and model ("QEMU", "VMware", "Msft" + "Virtual Disk"), then the
 * machine's DMI (/sys/class/dmi/id/sys_vendor, product_name).
 */
#ifndef CLYDE_ENV_MEMBERS_VIRT_H
#define CLYDE_ENV_MEMBERS_VIRT_H

#include <stdbool.h>

struct clyde_virt {
	bool is_virtual;
	char disk[32]; /* the whole disk that was looked at (vda) */
	char kind[32]; /* virtio, xen, vmware, hyper-v, qemu, virtual */
	char why[160]; /* what gave it away: "driver virtio_blk" */
};

/*
 * Look at disk `dev` (a partition is taken to its whole disk).  Returns 1
 * when it is virtual (v filled), 0 when nothing says so (v->disk set,
 * is_virtual false).  Loop, zram, md, dm and other software devices are
 * never "virtual disks" here: their own leaves are.
 */
int clyde_virt_detect(const char *root, const char *dev, struct clyde_virt *v);

#endif
