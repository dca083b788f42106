/*
 * The device figures of one test (a bonnie test or a tree phase) as the
 * outputs show them: what reached the storage (the sum over the stack's
 * leaves, the member disks, when they were counted; else the target's
 * own device), clyde's own share of it by the kernel's accounting
 * (env/ownio.h) and the rest, "other I/O during the test", and the write
 * amplification.
 *
 * clyde's own share on the devices:
 * - cgroup source: the cgroup's bytes on the same devices (the leaves, or
 *   the top device when there are none), at most the devices' totals;
 * - task source: the process's bytes are above the block layer, so they
 *   are compared with the top device, which carries exactly the
 *   filesystem's I/O: clyde's share of it (at most 1) is applied to the
 *   leaves, so that parity and mirror copies of clyde's writes are
 *   clyde's; the reads the leaves made beyond what the top device read
 *   (an array reading old data and parity for a partial stripe) serve
 *   the writes it was given and go by clyde's share of those, not of the
 *   top device's reads.  On a filesystem over several devices (btrfs) the top device
 *   is one of the leaves and the filesystem's total is on none of them:
 *   the share is not known, and the figures stay the totals.
 * When the share is not known the test's figures are the totals, and
 * `attributed` says so.
 *
 * Write amplification: the test's device writes (its own when attributed)
 * over the bytes it wrote; only for tests that write all their data.
 */
#ifndef CLYDE_RESULTS_TESTIO_H
#define CLYDE_RESULTS_TESTIO_H

#include <stdbool.h>
#include <stdint.h>

#include "env/members.h"
#include "env/ownio.h"

/* "Other I/O" is worth a sentence from this many bytes and this share of
 * the devices' total on. */
#define CLYDE_OTHER_MIN_BYTES (1ull << 20)
#define CLYDE_OTHER_MIN_FRACTION 0.05

struct clyde_test_io {
	bool have;	/* some device was counted */
	bool on_leaves; /* the totals sum several leaves, or a leaf that is
			 * not the top device */
	unsigned nleaves;
	uint64_t total_read, total_write; /* everything on those devices */
	/* The top device's share (the target's device), when the leaves
	 * are several data disks or below it. */
	bool have_top;
	uint64_t top_read, top_write;
	/* clyde's own, on the same devices as the totals. */
	bool attributed;
	enum clyde_own_source source;
	uint64_t own_read, own_write;
	/* total - own; when others_known, only the other processes' share
	 * of it (at most their bytes, env/others.h), and fs_read/fs_write
	 * the rest: the filesystem working for clyde (journal, metadata). */
	uint64_t other_read, other_write;
	bool others_known;
	unsigned others_procs;
	uint64_t fs_read, fs_write;
	/* What the test shows: own when attributed, else the totals. */
	uint64_t read, write;
	double wa; /* write / written; < 0 not applicable */
	/* The devices took well less than the test wrote
	 * (clyde_test_io_lost); set by clyde_test_io_of_run/_of_phase. */
	bool lost;
};

/*
 * Lost writes without --verify: a test that wrote at least
 * CLYDE_WA_LOST_MIN_BYTES whose devices took less than CLYDE_WA_LOST of
 * it.  Every write test ends with fsync (or syncfs) inside its window, so
 * all it wrote must have reached the devices by then; a filesystem or an
 * array only adds to it (metadata, journal, parity, copies).  Only a stack
 * that shrinks the data can take less: compression or deduplication
 * (ZFS compression, btrfs compress, dm-vdo, zram), and only of bonnie++'s
 * zeros (`zeros`): clyde's random data neither compresses nor repeats.
 * `s` may be NULL (not known: not judged).
 *
 * `extent` is how many distinct bytes the test's writes covered (its
 * files, its range; 0: all of `written` was distinct).  A test that wrote
 * the same bytes again (--runtime goes round its files until the time is
 * up) owes the devices only the extent: rewrites of a page still dirty
 * coalesce in the cache, so the devices are judged against the extent.
 */
#define CLYDE_WA_LOST 0.9
#define CLYDE_WA_LOST_MIN_BYTES (16ull << 20)
struct clyde_stack;
bool clyde_test_io_lost(double wa, uint64_t written, uint64_t extent,
			bool zeros, const struct clyde_stack *s);

/* Does a layer of s compress or deduplicate what is written to it? */
bool clyde_stack_shrinks_data(const struct clyde_stack *s);

/* Fill *io from the target device's counters (top), the leaves (m, may
 * be NULL), clyde's own (own, may be NULL) and the bytes the test wrote
 * (`written`, 0: no write amplification). */
void clyde_test_io_compute(const struct clyde_devio *top,
			   const struct clyde_members *m,
			   const struct clyde_ownio *own, uint64_t written,
			   struct clyde_test_io *io);

/* Add b's byte figures into a (rows over several runs); wa is
 * recomputed from the sums and `written`. */
void clyde_test_io_add(struct clyde_test_io *a, const struct clyde_test_io *b,
		       uint64_t written);

struct clyde_run;
struct clyde_tree_run;

/* Tests whose data is all written (putc, put_block, rewrite): the only
 * ones with a write amplification.  seeks writes only a part of its
 * operations, the creates write metadata only. */
bool clyde_test_writes_its_bytes(int id);

/* clyde_test_io_compute() of test id (an enum clyde_test) of run r. */
void clyde_test_io_of_run(const struct clyde_run *r, int id,
			  struct clyde_test_io *io);

/* ... of phase p of a tree run (extract writes its bytes). */
void clyde_test_io_of_phase(const struct clyde_tree_run *run, int p,
			    struct clyde_test_io *io);

/*
 * Busy during the test: other processes did at least
 * CLYDE_BUSY_OTHERS_FRACTION of the bytes the devices moved (reads and
 * writes) and at least CLYDE_OTHER_MIN_BYTES.  A tenth of the device's
 * bytes is a tenth of its time taken from the test at the same rate.
 */
#define CLYDE_BUSY_OTHERS_FRACTION 0.10
struct clyde_settle;
/* Record in *s what others did during the test of io and set s->busy
 * when it is the rule's share (s->busy_during). */
void clyde_test_io_judge_busy(const struct clyde_test_io *io,
			      struct clyde_settle *s);

/* Is the other I/O worth saying (beyond CLYDE_OTHER_MIN_BYTES and
 * CLYDE_OTHER_MIN_FRACTION of the total, reads or writes)? */
bool clyde_test_io_other_shown(const struct clyde_test_io *io);

#endif
