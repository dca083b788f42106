/*
 * What the member disks' counters of one test say (members.h fills
 * them): read-modify-write, write amplification and imbalance.
 *
 * - Read-modify-write: a test that only writes (per-char write, block
 *   write, the create tests) should read nothing from the members; reads
 *   beyond CLYDE_RMW_FRACTION of the bytes it wrote (and at least
 *   CLYDE_RMW_MIN_BYTES, so that a few bitmap blocks on a plain disk stay
 *   quiet) are the array reading old data and parity to complete partial
 *   stripes.  When the array device received requests of a full stripe
 *   or more on average, the requests were not partial: only reads beyond
 *   CLYDE_RMW_STREAM_FRACTION are a finding then.  The finding says what
 *   the reads cost: their share of the members' writes.
 * - Write amplification: member bytes written over the bytes the test
 *   wrote, per member and for the array (raid1 over two disks: 2).
 * - Imbalance: among the data members that did I/O (a journal or log
 *   device is never compared with them), one moved more than
 *   CLYDE_IMBALANCE_RATIO times the bytes of the least busy one.  The
 *   members of an md mirror (raid1, raid10) are compared by their writes
 *   alone: md sends each read to the copy it likes, which is no fault;
 *   raid10 near=k's mirror sets (k slots each) by the sum of their
 *   members' bytes, which striping spreads evenly.
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
/* When the array received requests of a full stripe or more (a streaming
 * write), its reads are the few stripes the stripe cache let go before
 * they filled: a finding only from this share of the bytes written. */
#define CLYDE_RMW_STREAM_FRACTION 0.05
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
	/* The mean write request the array device received (its write
	 * bytes over write requests; 0 unknown), and the full stripe. */
	uint64_t array_request_bytes, stripe_bytes;
	/* Members of a mirror are compared by their writes: md sends a
	 * mirror's reads where it likes. */
	bool by_writes;
	bool busier;	     /* one member moved many times the bytes */
	unsigned busy, idle; /* indexes of the most and least busy */
	double busy_ratio;
	/* Mirror sets (raid10 near=k: slots 0..k-1, k..2k-1, ...) by the
	 * sum of their members' bytes: one moved many times another. */
	bool sets_busier;
	int set[CLYDE_MAX_MEMBERS]; /* each member's set, -1 none */
	int busy_set, idle_set;
	uint64_t busy_set_bytes, idle_set_bytes;
	/* Time per byte: slow_compared when two data members on disks of
	 * their own moved enough to compare; slow_candidate when in this
	 * test one took many times longer per byte; slower when the other
	 * tests of the run bear it out (clyde_members_confirm_slow), and
	 * only then is it a finding. */
	bool slow_compared, slow_candidate, slower;
	unsigned slow, fast;
	double slow_ratio;
	/* The run's evidence: the tests that could compare the members'
	 * time per byte, and those where this test's slow member was the
	 * slow one (0 when this test has no slow candidate). */
	unsigned slow_tests, compared_tests;
};

/*
 * What the stack says of a test's members beyond their counters: the
 * array device's own counters (its request sizes), the full stripe, and
 * the mirror sets.  clyde_members_ctx_of() fills it from a run's stack.
 */
struct clyde_members_ctx {
	bool only_writes;	       /* see clyde_members_check() */
	uint64_t written;	       /* ... */
	const struct clyde_devio *top; /* the target's device; NULL unknown */
	uint64_t stripe_bytes;	       /* parity full stripe; 0 unknown */
	bool mirror;		       /* the members are an md mirror's */
	int set[CLYDE_MAX_MEMBERS];    /* each one's mirror set, -1 none */
};

struct clyde_stack;

/* The context of members m under stack s (may have no nodes) for a test
 * whose target device counted top (may be NULL). */
void clyde_members_ctx_of(const struct clyde_stack *s,
			  const struct clyde_members *m,
			  const struct clyde_devio *top, bool only_writes,
			  uint64_t written, struct clyde_members_ctx *c);

/* clyde_members_check() with what the stack says (c). */
void clyde_members_check_in(const struct clyde_members *m,
			    const struct clyde_members_ctx *c,
			    struct clyde_members_verdict *v);

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
