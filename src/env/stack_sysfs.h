/*
 * Reading block-device attributes for the stack walker (stack.c) and its
 * probes (probe_*.c, fs_*.c), below a root prefix so that tests can point
 * it at a fixture tree.  Private to src/env/ (and the unit tests).
 */
#ifndef CLYDE_ENV_STACK_SYSFS_H
#define CLYDE_ENV_STACK_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "env/stack.h"

/* Copy src into dst of size n, cutting it short rather than overflowing. */
void clyde_stack_copy(char *dst, size_t n, const char *src);

/*
 * Read ROOT/sys/class/block/DEV/ATTR (ATTR may hold slashes: "queue/rotational")
 * into buf, trimmed of surrounding white space.  Returns its length, or a
 * negative errno when it cannot be read.
 */
ssize_t clyde_sysfs_text(const char *root, const char *dev, const char *attr,
			 char *buf, size_t n);
/* The same for a number; 0 when read, -errno otherwise (*out untouched). */
int clyde_sysfs_u64(const char *root, const char *dev, const char *attr,
		    uint64_t *out);
int clyde_sysfs_u32(const char *root, const char *dev, const char *attr,
		    uint32_t *out);

/* The entry between [brackets] of a list such as "none [mq-deadline]
 * kyber", or the whole text when there are none; written into out. */
void clyde_sysfs_selected(const char *list, char *out, size_t n);

/* An LVM volume's VG and LV from its dm name, which joins them with "-"
 * and doubles every "-" inside them ("my--vg-lv--a": my-vg, lv-a).
 * Returns 0, or -EINVAL (vg and lv "") when the name has no single "-". */
int clyde_stack_lvm_names(const char *dm_name, char *vg, size_t vg_len,
			  char *lv, size_t lv_len);

/* Fill the DM fields of n from its table text (`dmsetup table` lines). */
void clyde_stack_dm_parse(struct clyde_stack_node *n, const char *table);

/*
 * The dm device's table: SYSROOT/dm-tables/NAME with a sysroot, else the
 * DM_TABLE_STATUS ioctl on /dev/mapper/control (needs root).  Returns 0
 * with the table in buf, or a negative errno.
 */
int clyde_stack_dm_table(const char *root, const char *dm_name, char *buf,
			 size_t n);

/* Say in fs->note why the geometry is missing (the first reason wins). */
__attribute__((format(printf, 2, 3))) void
clyde_stack_fs_note(struct clyde_stack_fs *fs, const char *fmt, ...);

/* The value of option `key=` in a mount option list ("a,key=v,b" or the
 * "per-mount | superblock" of env.h), into out; false when it is not
 * there. */
bool clyde_stack_mount_opt(const char *opts, const char *key, char *out,
			   size_t n);

/* Is tok one of the options of a mount option list (as above)? */
bool clyde_stack_mount_flag(const char *opts, const char *tok);

/* A 16-byte UUID as text (36 characters and the NUL). */
void clyde_stack_uuid_text(const unsigned char *u, char *out, size_t n);

/* Fill fs's NFS fields (fs_nfs.c) from the files below root ("" or a
 * fixture tree): proc/self/mountstats, and for a server on this machine
 * var/lib/nfs/etab (or proc/fs/nfsd/exports), proc/fs/nfsd/
 * max_block_size and proc/self/mountinfo.  type, mount_point, source and
 * mount_opts must be filled. */
void clyde_nfs_read_at(const char *root, struct clyde_stack_fs *fs);

/* Fill fs's SMB fields (fs_cifs.c) from the files below root: proc/fs/
 * cifs/DebugData, and for an smbd on this machine proc/PID/comm and
 * cmdline, the smb.conf it was started with and proc/self/mountinfo.
 * type, mount_point, source and mount_opts must be filled. */
void clyde_cifs_read_at(const char *root, struct clyde_stack_fs *fs);

/* The kernel name of block device number dev ("8:17" when /sys has
 * none). */
void clyde_stack_dev_name(dev_t dev, char *out, size_t n);

/* Is addr (a network file server's address) this machine: 1 for a
 * loopback or (root "") one of its interfaces' addresses, 0 not, -1
 * unknown (no address). */
int clyde_stack_addr_is_local(const char *root, const char *addr);
/* Is directory p at or below directory base? */
bool clyde_stack_path_under(const char *p, const char *base);
/* The type of the filesystem mounted at or above dir, from
 * ROOT/proc/self/mountinfo (the deepest mount that holds it); out is
 * left as it is when none does. */
void clyde_stack_fstype_at(const char *root, const char *dir, char *out,
			   size_t n);

/* What the block device at `dev` (a /dev path) holds, by libblkid's
 * probe, into s->content ("" without libblkid or when it cannot tell). */
void clyde_stack_content(struct clyde_stack *s, const char *dev);

/* Describe the block device node `devnode` with ioctls (stack_ioctl.c),
 * for when /sys does not.  Returns 0, or a negative errno when it cannot
 * be opened or is not a block device. */
int clyde_stack_node_ioctl(const char *devnode, struct clyde_stack_node *n);

#endif
