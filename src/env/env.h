/*
 * What was measured: the machine, the target (path, filesystem, mount
 * options, block device) and the block device's I/O counters.  Filled once
 * per run (machine, target) and around each test (device counters), so that
 * a result carries the configuration it came from.
 *
 * Nothing here fails a run: where something cannot be learned (no block
 * device under tmpfs or overlay, no /sys), the field says so.
 */
#ifndef CLYDE_ENV_ENV_H
#define CLYDE_ENV_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"

/* The kernel's writeback tunables (/proc/sys/vm): how much dirty data it
 * lets pile up and when it writes it, which change write results as much
 * as the device does.  -1 where the file cannot be read. */
enum clyde_vm_tunable {
	CLYDE_VM_DIRTY_RATIO,
	CLYDE_VM_DIRTY_BACKGROUND_RATIO,
	CLYDE_VM_DIRTY_BYTES,
	CLYDE_VM_DIRTY_BACKGROUND_BYTES,
	CLYDE_VM_DIRTY_EXPIRE_CENTISECS,
	CLYDE_VM_DIRTY_WRITEBACK_CENTISECS,
	CLYDE_VM_COUNT,
};

/* "dirty_ratio", ...: the file's name under /proc/sys/vm. */
const char *clyde_vm_tunable_name(enum clyde_vm_tunable t);

/* Read them from <root>/proc/sys/vm (root NULL or "": the running
 * kernel; a fixture tree in tests). */
void clyde_env_vm_read(const char *root, int64_t vm[CLYDE_VM_COUNT]);

struct clyde_machine {
	char host[256];
	char kernel[256];	  /* uname -r */
	char kernel_version[256]; /* uname -v (build number and date) */
	char arch[64];		  /* uname -m */
	char cpu_model[256]; /* /proc/cpuinfo "model name" ("Hardware", "cpu
			      * model", ... elsewhere); "" when none */
	unsigned ncpu;	     /* online CPUs */
	uint64_t ram_bytes;
	int64_t vm[CLYDE_VM_COUNT]; /* clyde_env_vm_read */
};

struct clyde_target {
	char path[4096]; /* the directory or device as given */
	char fstype[64]; /* ext4, xfs, btrfs, tmpfs, ... ("" unknown) */
	char mount_point[4096];
	/* The per-mount options, " | ", then the superblock options, both as
	 * /proc/self/mountinfo lists them: "rw,relatime | rw,errors=remount-ro".
	 * "" when nothing is mounted (a block device node not in use). */
	char mount_opts[1024];
	char source[1024];     /* the mount source (/dev/vda1, tmpfs, ...) */
	bool has_block_device; /* false for tmpfs, overlay, NFS, ... */
	char no_device_reason[128]; /* why not, when false */
	/* Kernel name of the device: vda1, dm-0, md0, loop3; "" when the
	 * device has a number but /sys does not name it (no counters then). */
	char block_dev[64];
	char disk[64]; /* the whole disk it is part of (vda), or = block_dev */
	uint32_t dev_major, dev_minor;
	uint32_t logical_block_size; /* bytes, from /sys/block/<disk>/queue */
	uint32_t physical_block_size;
	bool rotational;
};

/* One reading of a block device's counters (/sys/block/<dev>/stat). */
struct clyde_devstat {
	uint64_t read_ios, read_merges, read_sectors, read_ticks_ms;
	uint64_t write_ios, write_merges, write_sectors, write_ticks_ms;
	uint64_t in_flight, io_ticks_ms, time_in_queue_ms;
	uint64_t discard_ios, discard_merges, discard_sectors, discard_ticks_ms;
	uint64_t flush_ios, flush_ticks_ms;
};

/* The difference between two readings, in bytes and requests. */
struct clyde_devio {
	bool have_device; /* false: nothing below the target to count */
	uint64_t read_bytes, write_bytes;
	uint64_t read_ios, write_ios;
	uint64_t read_merges, write_merges;
	uint64_t flush_ios;
	uint64_t io_ticks_ms; /* time the device was busy */
	/* The requests' time at the device summed (each request's time from
	 * its arrival at the block layer to its completion): over a wall
	 * time, the mean number at the device, iostat's aqu-sz. */
	uint64_t time_in_queue_ms;
};

/* Fill m from uname, /proc/cpuinfo, sysconf, /proc/sys/vm.  Returns 0 (fields that
 * cannot be read are left empty or 0). */
int clyde_env_machine(struct clyde_ctx *ctx, struct clyde_machine *m);

/*
 * Describe the filesystem and block device under `path` (a directory, a
 * file or a block device node).  Returns 0, or a negative errno when path
 * itself cannot be examined (stat fails).
 *
 * The mount is the /proc/self/mountinfo entry with the longest mount point
 * that contains realpath(path), preferring entries whose device number is
 * the path's st_dev (so a bind mount or an over-mount of the same prefix is
 * told apart).  The block device is st_dev, or, for filesystems with an
 * anonymous device number (btrfs), the mount source when that is a block
 * device node.  For a block device node given as path, the device is the
 * node itself, and the mount fields describe where it is mounted (all ""
 * when it is not).
 */
int clyde_env_target(struct clyde_ctx *ctx, const char *path,
		     struct clyde_target *t);

/* An I/O error (or the filesystem turned read-only by one) is the
 * device's, and the recorded message names a file on the mount: add the
 * device under it, " (device /dev/mapper/fs, dm-0, under /mnt/fs)", or
 * " (device sda1 under /mnt)" when the mount source is not a path.
 * Nothing for a target without a block device or a mount point. */
void clyde_env_name_device(struct clyde_ctx *ctx, const struct clyde_target *t);

/* Read the counters of the target's device (the partition's own when it is
 * one).  Returns 0, or -ENODEV when the target has no block device (or no
 * readable /sys/class/block/<block_dev>/stat). */
int clyde_devstat_read(const struct clyde_target *t, struct clyde_devstat *s);

/*
 * The counters after a piece of work, once its requests are all counted.
 * The kernel adds a request's sectors before the one who made it sees it
 * complete, and the request itself (read_ios, write_ios, ...) only after:
 * a reading taken as soon as the last request returned can miss it (the
 * reader woken by the completion can look in between: 31 reads of 1 MiB
 * for 32 MiB on a loop device, one run in a few).  So read, give the CPU
 * away for a millisecond, and read again until no request count moved,
 * at most `tries` times (work of others may keep them moving).  `read` is
 * a reader such as clyde_devstat_read (arg: its first argument).  Returns
 * the reader's status; s is the last reading.
 */
int clyde_devstat_settled(int (*read)(const void *arg, struct clyde_devstat *s),
			  const void *arg, unsigned tries,
			  struct clyde_devstat *s);

/* The tries clyde's readings after a test give clyde_devstat_settled. */
#define CLYDE_DEVSTAT_SETTLE_TRIES 8

/* clyde_devstat_settled of the target's device. */
int clyde_devstat_read_after(const struct clyde_target *t,
			     struct clyde_devstat *s);

/* Parse the text of a /sys/block/<dev>/stat file: 11 fields (before Linux
 * 4.18), 15 (with discards) or 17 (with flushes); fields a kernel does not
 * report are 0.  Returns 0, or -EINVAL for fewer than 11 numbers. */
int clyde_devstat_parse(const char *text, struct clyde_devstat *s);

/* after - before, in bytes (sectors are 512 bytes in this interface). */
void clyde_devstat_delta(const struct clyde_devstat *before,
			 const struct clyde_devstat *after,
			 struct clyde_devio *d);

/* Undo in place the \ooo octal escapes /proc/self/mountinfo (and
 * mountstats) write for space, tab, newline and backslash in paths. */
void clyde_mountinfo_unescape(char *s);

#endif
