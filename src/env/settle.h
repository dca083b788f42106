/*
 * Is the device idle before a test?  The writeback and discards of the
 * previous test (or of anything else) still running when a test starts
 * are counted in its time: the same create test swung 10x between
 * identical runs on ext4 with online discard.  Before each test clyde
 * looks at the devices under the target and waits, up to a bound, until
 * they are quiet, and records what was still going on.
 *
 * Quiet is, over one look of CLYDE_SETTLE_LOOK_NS (25 ms): fewer than
 * CLYDE_SETTLE_MAX_INFLIGHT requests in flight on every device
 * (/sys/class/block/X/inflight), under CLYDE_SETTLE_MAX_MOVED bytes read
 * or written and nothing discarded by them (/sys/class/block/X/stat),
 * and, where debugfs tells them per device
 * (/sys/kernel/debug/bdi/MAJ:MIN/stats), its pages under writeback and
 * dirty below CLYDE_SETTLE_MAX_WRITEBACK and CLYDE_SETTLE_MAX_DIRTY.
 * Without debugfs only the machine's dirty and writeback pages are known
 * (/proc/meminfo): they are recorded, but another disk's writeback does
 * not keep these devices busy, so they decide nothing.
 */
#ifndef CLYDE_ENV_SETTLE_H
#define CLYDE_ENV_SETTLE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"

#define CLYDE_SETTLE_DEFAULT_S 5.0
#define CLYDE_SETTLE_MAX_S 3600.0
/* 25 ms a look: an idle device costs one look before each test (six for
 * -s 0 -n 128, 0.6 s of its 15 s at 100 ms, against bonnie++'s wall time);
 * what moves is judged at the same rate as before, 10 MiB/s. */
#define CLYDE_SETTLE_LOOK_NS 25000000ull /* 25 ms */
#define CLYDE_SETTLE_LOOK_MS 25
#define CLYDE_SETTLE_MAX_INFLIGHT 1u
#define CLYDE_SETTLE_MAX_MOVED (256ull << 10)
#define CLYDE_SETTLE_MAX_WRITEBACK (4ull << 20)
#define CLYDE_SETTLE_MAX_DIRTY (64ull << 20)
#define CLYDE_SETTLE_DEVS 17

/* What clyde saw before one test. */
struct clyde_settle {
	bool looked;	  /* the devices were looked at */
	bool busy;	  /* still not quiet when the test started, or
			    * busy_during */
	bool busy_before; /* still not quiet when the test started */
	/* During the test (results/testio.h, clyde_test_io_judge_busy):
	 * other processes' share of the devices' bytes. */
	bool others_known;
	bool busy_during;
	unsigned others_procs;
	uint64_t others_bytes, device_bytes;
	uint64_t limit_ns; /* --settle */
	uint64_t waited_ns;
	/* The last look (over CLYDE_SETTLE_LOOK_NS, or one instant when
	 * the limit is 0: then moved and discarded are 0). */
	uint64_t in_flight;	  /* requests, summed over the devices */
	uint64_t moved_bytes;	  /* read and written during the look */
	uint64_t discarded_bytes; /* discarded during the look */
	uint64_t discard_ios;
	/* The devices' own (debugfs bdi) when per_device, else the
	 * machine's (/proc/meminfo Dirty, Writeback). */
	bool per_device;
	uint64_t dirty_bytes;
	uint64_t writeback_bytes;
	char busiest[32]; /* the device with the most going on */
};

/* The devices to look at. */
struct clyde_settle_watch {
	const char *root; /* prefix of /sys and /proc; "" or NULL real */
	uint64_t limit_ns;
	unsigned n;
	char name[CLYDE_SETTLE_DEVS][32];
	char bdi[CLYDE_SETTLE_DEVS][24]; /* "7:0", "" when not known */
};

/* An empty watch waiting up to limit_ns. */
void clyde_settle_init(struct clyde_settle_watch *w, const char *root,
		       uint64_t limit_ns);

/* Add device `name` (kernel name) unless it is there or name is "". */
void clyde_settle_add(struct clyde_settle_watch *w, const char *name);

/*
 * Look, and look again every CLYDE_SETTLE_LOOK_NS until quiet or
 * limit_ns has passed (clyde_now of ctx), or the user interrupts; fill
 * *out with the last look.  With no devices there is nothing to look at
 * (looked false).  Never fails.
 */
void clyde_settle_wait(struct clyde_ctx *ctx,
		       const struct clyde_settle_watch *w,
		       struct clyde_settle *out);

/* One sentence on what was going on ("3 requests in flight on loop0,
 * 3.0 MiB moved in 25 ms, 80.0 MiB dirty"), into buf. */
void clyde_settle_describe(const struct clyde_settle *s, char *buf, size_t n);

#endif
