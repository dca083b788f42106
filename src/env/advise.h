/*
 * Advice on a storage stack (env/stack.h): geometry that does not line
 * up, tunables left at defaults that cost throughput, states that make a
 * measurement unrepresentative.  Each finding is one short explanation and
 * the command that fixes it, so that `clyde stack --advise` and the advice
 * section after a run's table can print it and the JSON can record it.
 *
 * Pure: reads the stack, never the machine, so fixture stacks test it.
 */
#ifndef CLYDE_ENV_ADVISE_H
#define CLYDE_ENV_ADVISE_H

#include <stddef.h>
#include <stdint.h>

#include "env/stack.h"

enum clyde_advice_severity {
	CLYDE_ADVICE_INFO = 0, /* worth knowing; may be intended */
	CLYDE_ADVICE_WARN,     /* costs performance or skews results */
	CLYDE_ADVICE_BAD,      /* risks data, or results are not of a
				* healthy array */
};

/* "info", "warning", "bad". */
const char *clyde_advice_severity_name(enum clyde_advice_severity s);

struct clyde_advice {
	enum clyde_advice_severity severity;
	/* A stable key for tests, compare and scripts: fs-stripe,
	 * part-align, lv-align, lv-stripe, md-stripe-cache, read-ahead,
	 * write-cache, mixed-rotational, md-degraded, md-sync, atime,
	 * journal-shared, journal-parity, data-journal, loop-dio,
	 * nfs-async, nfs-rsize, nfs-nconnect, nfs-nocto,
	 * smb-flush-ignored, smb-cache-loose, smb-cache-none, smb-rsize,
	 * smb-dialect,
	 * zfs-ashift, zfs-raidz-width, zfs-zeros. */
	char id[32];
	char layer[64]; /* what it is about: md0, sda, filesystem */
	char text[512]; /* one or two sentences */
	char fix[512];	/* the command that fixes it; "" when there is none */
};

#define CLYDE_ADVICE_MAX 32

struct clyde_advice_list {
	size_t n;
	struct clyde_advice items[CLYDE_ADVICE_MAX];
};

/* What the run does, so that advice that matters only for some
 * workloads is given only then. */
enum {
	CLYDE_ADVISE_TREE = 1u << 0,  /* walks trees (atime matters) */
	CLYDE_ADVISE_ZEROS = 1u << 1, /* writes --pattern zeros */
};

/* Bits 8-15 of the mask: the size of the workload's random requests
 * (clyde run's seeks, dev's random tests) as the log2 of the bytes,
 * rounded up; 0: no random requests.  clyde_advise_rand(8192) is 13 << 8. */
#define CLYDE_ADVISE_RAND_SHIFT 8
unsigned clyde_advise_rand(uint64_t bytes);

/*
 * Check s and fill out (which this function clears) with the findings,
 * most severe first, at most CLYDE_ADVICE_MAX.  `workload` is a mask of
 * CLYDE_ADVISE_* (0 for `clyde stack --advise`).
 */
void clyde_advise(const struct clyde_stack *s, unsigned workload,
		  struct clyde_advice_list *out);

#endif
