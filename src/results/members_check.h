/*
 * What the member disks' counters of one test say (members.h fills
 * them): read-modify-write, write amplification and imbalance.
 *
 * - Read-modify-write: a test that only writes (per-char write, block
 *   write, the create tests) should read nothing from the members; reads
 *   beyond CLYDE_RMW_FRACTION of the bytes it wrote (and at least
 *   CLYDE_RMW_MIN_BYTES, so that a few bitmap blocks on a plain disk stay
 *   quiet) are the array reading old data and parity to complete partial
 *   stripes.
 * - Write amplification: member bytes written over the bytes the test
 *   wrote, per member and for the array (raid1 over two disks: 2).
 * - Imbalance: among the data members that did I/O (a journal or log
 *   device is never compared with them), one moved more than
 *   CLYDE_IMBALANCE_RATIO times the bytes of the least busy one.
 * - A slow member: one was busy that many times longer per byte than the
 *   fastest, on disks of their own (members whose storage is one disk,
 *   loop devices over files of one filesystem, share its queue and are
 *   never compared), and the same member was the slow one in at least
 *   CLYDE_SLOW_MIN_TESTS tests and in most of the tests that could
 *   compare them.  One test alone is a candidate, not a finding.
 */
#ifndef CLYDE_RESULTS_MEMBERS_CHECK_H
#define CLYDE_RESULTS_MEMBERS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/result.h"

#define CLYDE_RMW_FRACTION 0.01
#define CLYDE_RMW_MIN_BYTES (1ull << 20)
#define CLYDE_IMBALANCE_RATIO 2.0
/* Below this many bytes per member, or busy milliseconds, imbalance is
 * noise. */
#define CLYDE_IMBALANCE_MIN_BYTES (8ull << 20)
#define CLYDE_IMBALANCE_MIN_MS 200u
/* A slow member is named only when it was slow in this many tests. */
#define CLYDE_SLOW_MIN_TESTS 2u

struct clyde_members_verdict {
	unsigned counted;      /* members with counters */
	unsigned counted_data; /* ... that are data members */
	uint64_t read_bytes;   /* summed over the members */
	uint64_t write_bytes;
	uint64_t written; /* what the test wrote (its bytes), 0 unknown */
	double wa_array;  /* write_bytes / written; < 0 not applicable */
	double wa[CLYDE_MAX_MEMBERS]; /* per member, same rule */
	bool rmw;
	bool busier;	     /* one member moved many times the bytes */
	unsigned busy, idle; /* indexes of the most and least busy */
	double busy_ratio;
	/* Time per byte: slow_compared when two data members on disks of
	 * their own moved enough to compare; slow_candidate when in this
	 * test one took many times longer per byte; slower when the other
	 * tests of the run bear it out (clyde_members_confirm_slow), and
	 * only then is it a finding. */
	bool slow_compared, slow_candidate, slower;
	unsigned slow, fast;
	double slow_ratio;
	unsigned slow_tests, compared_tests; /* the run's evidence */
};

/* Does test id only write (no data is read back)? */
bool clyde_test_only_writes(enum clyde_test id);

/* Look at one test's members.  `only_writes`: the test reads nothing
 * back and the stack may hold parity (md raid4/5/6, btrfs raid5/6, or a
 * stack not known), so that the read-modify-write rule applies: on a
 * plain disk or a mirror reads during a write are other activity or
 * metadata, not partial stripes.  `written` is the bytes the
 * test wrote (0 when it writes only metadata: the members' writes are
 * used as the base of the read-modify-write rule then). */
void clyde_members_check(const struct clyde_members *m, bool only_writes,
			 uint64_t written, struct clyde_members_verdict *v);

/*
 * The findings as sentences, one per line into buf (n bytes), each
 * starting with the test's label: "block write read 312 MiB from the
 * members: partial-stripe writes (stripe = 64 KiB x 3 data disks = 192
 * KiB; this test writes 8 KiB chunks)".  `chunk` is the size the test
 * writes in (0 unknown); g (the stack's stripe, env/stack.h) may be NULL.  Returns the number of
 * findings (0: buf is "").
 */
unsigned clyde_members_findings(char *buf, size_t n, const char *label,
				const struct clyde_members *m,
				const struct clyde_members_verdict *v,
				const struct clyde_stack_stripe *g,
				uint32_t chunk);

/*
 * Weigh one test's slow candidate against the run: `slow_tests` is the
 * number of tests whose candidate was the same member, `compared` the
 * tests that could compare the members.  Sets v->slower when
 * slow_tests >= CLYDE_SLOW_MIN_TESTS and more than half of compared.
 */
void clyde_members_confirm_slow(struct clyde_members_verdict *v,
				unsigned slow_tests, unsigned compared);

/* Can the stack under s do read-modify-write: a parity stripe, or no
 * stack known (a result read back without one)? */
bool clyde_members_parity_possible(const struct clyde_stack *s);

/* clyde_members_check() of test id of run r: the bytes it wrote are its
 * bytes for the tests that write data (putc, put_block, rewrite, the
 * creates), else 0. */
void clyde_members_check_run(const struct clyde_run *r, enum clyde_test id,
			     struct clyde_members_verdict *v);

/* clyde_members_findings() of test id of run r, with the run's stripe
 * geometry and the chunk the test writes in (-s's chunk for block write,
 * -n's for the creates). */
unsigned clyde_members_run_findings(char *buf, size_t n,
				    const struct clyde_run *r,
				    enum clyde_test id,
				    const struct clyde_members_verdict *v);

struct clyde_tree_run;

/* The verdict on phase p of a tree run and its sentences (labelled with
 * the phase's name): extract only writes (its bytes, in io_size
 * chunks), the other phases are not checked for read-modify-write. */
void clyde_tree_members_check(const struct clyde_tree_run *run, int p,
			      struct clyde_members_verdict *v, char *text,
			      size_t n);

#endif
