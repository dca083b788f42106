/*
 * clyde's own I/O: what the kernel attributes to this process, so that a
 * test's device figures are its own and not everything the disks did
 * meanwhile (another program, the writeback of an earlier test).
 *
 * Two sources, the better one first:
 *
 * - The cgroup's io.stat (cgroup v2), when clyde already runs in a cgroup
 *   of its own (systemd-run --scope clyde ...): every process in it is
 *   clyde or a child of clyde.  io.stat counts the bytes of every bio the
 *   cgroup issued, per device (major:minor), writeback of its dirty pages
 *   included, so clyde's share of each member disk is known.  clyde never
 *   moves itself or any other process between cgroups.
 * - The process's I/O accounting, /proc/self/io: read_bytes (fetched from
 *   storage on its behalf) and write_bytes - cancelled_write_bytes (sent,
 *   or to be sent, towards storage; pages truncated before writeback are
 *   cancelled).  It sums every thread, the exited ones too (the workers of
 *   a test have exited when it is read), and the children clyde waited
 *   for; /proc/self/task/<tid>/io of the live threads alone would miss the
 *   workers, so it is only the fallback when /proc/self/io is unreadable.
 *   These figures are above the block layer: one number for the
 *   filesystem, not per device.
 *
 * Nothing here fails a run: without either source the watch has source
 * CLYDE_OWN_NONE and the tests keep the devices' totals.
 */
#ifndef CLYDE_ENV_OWNIO_H
#define CLYDE_ENV_OWNIO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "env/others.h"

#define CLYDE_OWN_MAX_DEVS 17 /* the leaves and the top device */
#define CLYDE_OWN_CGROUP_LEN 256

enum clyde_own_source {
	CLYDE_OWN_NONE = 0,
	CLYDE_OWN_TASK,	  /* /proc/self/io */
	CLYDE_OWN_CGROUP, /* the cgroup's io.stat */
};

/* "none", "task", "cgroup". */
const char *clyde_own_source_name(enum clyde_own_source s);

/* What clyde did during one test, by the kernel's accounting. */
struct clyde_ownio {
	enum clyde_own_source source;
	/* TASK: the process's bytes (above the block layer).  CGROUP: the
	 * cgroup's bytes on the top device. */
	bool have_top;
	uint64_t top_read_bytes, top_write_bytes;
	/* CGROUP: summed over the stack's leaves (the member disks). */
	bool have_leaves;
	uint64_t leaves_read_bytes, leaves_write_bytes;
	char cgroup[CLYDE_OWN_CGROUP_LEN]; /* CGROUP: its path, "" else */
	/* Other processes tied to the target's filesystem (env/others.h):
	 * their bytes above the block layer during the test. */
	bool have_others;
	unsigned others_procs;
	uint64_t others_read_bytes, others_write_bytes;
};

/* One reading of the counters. */
struct clyde_own_snap {
	bool have;
	uint64_t task_read, task_write; /* write_bytes - cancelled */
	uint64_t dev_read[CLYDE_OWN_MAX_DEVS], dev_write[CLYDE_OWN_MAX_DEVS];
};

struct clyde_own_watch {
	const char *root; /* prefix of /proc and /sys ("" or NULL: real) */
	enum clyde_own_source source;
	char cgroup[CLYDE_OWN_CGROUP_LEN];
	char mount[512]; /* where cgroup v2 is mounted */
	unsigned ndev;	 /* devs[0] is the top device when have_top_dev */
	bool have_top_dev;
	uint32_t major[CLYDE_OWN_MAX_DEVS], minor[CLYDE_OWN_MAX_DEVS];
	struct clyde_own_snap before;
	struct clyde_others_snap others; /* the other processes at begin */
};

/*
 * Set the watch up for a run of process `pid` (getpid(); tests give the
 * fixture's): the cgroup source when /proc/PID/cgroup names a cgroup v2
 * path other than "/" whose cgroup.procs (under the cgroup2 mount of
 * /proc/self/mountinfo, /sys/fs/cgroup by default) holds only `pid` and
 * children of it, and that has an io.stat; else the task source when
 * /proc/self/io (under root) is readable; else none.  top_major/minor is
 * the target's device (0:0 when none), leaves[0..nleaves) the member
 * disks' device numbers.
 */
void clyde_own_setup(struct clyde_own_watch *w, const char *root, pid_t pid,
		     uint32_t top_major, uint32_t top_minor,
		     const uint32_t *leaf_major, const uint32_t *leaf_minor,
		     unsigned nleaves);

struct clyde_member_watch;
struct clyde_target;

/* clyde_own_setup() for this process over the target's device and the
 * members of mw. */
void clyde_own_setup_run(struct clyde_own_watch *w,
			 const struct clyde_member_watch *mw,
			 const struct clyde_target *t);

/* Free what the watch holds (the other processes' look). */
void clyde_own_close(struct clyde_own_watch *w);

/* The start of a test. */
void clyde_own_begin(struct clyde_own_watch *w);

/* The end of a test: what clyde did since clyde_own_begin(). */
void clyde_own_end(struct clyde_own_watch *w, struct clyde_ownio *out);

/* Parse the text of /proc/PID/io: read_bytes and write_bytes minus
 * cancelled_write_bytes.  Returns 0 or -EINVAL. */
int clyde_own_parse_io(const char *text, uint64_t *read, uint64_t *write);

/* From the text of an io.stat, the rbytes and wbytes of device
 * major:minor (0 each when it has no line).  Returns 0 or -EINVAL. */
int clyde_own_parse_iostat(const char *text, uint32_t major, uint32_t minor,
			   uint64_t *rbytes, uint64_t *wbytes);

#endif
