/*
 * The result model of one `clyde tree` run: what the tree workloads
 * (workloads/tree.h) fill in and what the writers (results/tree_out.h) and
 * the history read.  Only data and the few helpers that name or release
 * it live here, so that results never depend on workloads.
 */
#ifndef CLYDE_RESULTS_TREE_RESULT_H
#define CLYDE_RESULTS_TREE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "results/result.h"

/* The phases, in the order they run. */
enum clyde_tree_phase {
	CLYDE_TREE_EXTRACT,
	CLYDE_TREE_STAT_WALK,
	CLYDE_TREE_READ_WALK,
	CLYDE_TREE_PAR_STAT_WALK,
	CLYDE_TREE_PAR_READ_WALK,
	CLYDE_TREE_DELETE,
	CLYDE_TREE_PHASE_COUNT
};

#define CLYDE_TREE_PHASE_BIT(p) (1u << (p))
/* Phases that only read: the only ones allowed on an existing tree. */
#define CLYDE_TREE_READ_ONLY_PHASES                       \
	(CLYDE_TREE_PHASE_BIT(CLYDE_TREE_STAT_WALK) |     \
	 CLYDE_TREE_PHASE_BIT(CLYDE_TREE_READ_WALK) |     \
	 CLYDE_TREE_PHASE_BIT(CLYDE_TREE_PAR_STAT_WALK) | \
	 CLYDE_TREE_PHASE_BIT(CLYDE_TREE_PAR_READ_WALK))
#define CLYDE_TREE_ALL_PHASES ((1u << CLYDE_TREE_PHASE_COUNT) - 1)

/* "extract", "stat_walk", ... ("?" when out of range). */
const char *clyde_tree_phase_name(enum clyde_tree_phase p);

/* For people: "extract", "stat walk", ... ("?" when out of range). */
const char *clyde_tree_phase_label(enum clyde_tree_phase p);

/* The phase whose clyde_tree_phase_name() is name, or -1. */
int clyde_tree_phase_from_name(const char *name);

/* The operations whose latencies are recorded. */
enum clyde_tree_op {
	CLYDE_TREE_OP_READDIR, /* one getdents64() call */
	CLYDE_TREE_OP_STAT,    /* fstatat(AT_SYMLINK_NOFOLLOW) */
	CLYDE_TREE_OP_OPEN,    /* openat() of a file or directory */
	CLYDE_TREE_OP_READ,    /* one read() */
	CLYDE_TREE_OP_CREATE,  /* openat(O_CREAT|O_EXCL) or mkdirat() */
	CLYDE_TREE_OP_UNLINK,  /* unlinkat(), with or without AT_REMOVEDIR */
	CLYDE_TREE_OP_COUNT
};

const char *clyde_tree_op_name(enum clyde_tree_op op);

/* ---- shapes ------------------------------------------------------------ */

enum clyde_size_kind {
	CLYDE_SIZE_FIXED,     /* every file a bytes */
	CLYDE_SIZE_UNIFORM,   /* uniform in [a, b] */
	CLYDE_SIZE_LOGNORMAL, /* median a, sigma; at most cap */
};

struct clyde_size_dist {
	enum clyde_size_kind kind;
	uint64_t a;
	uint64_t b;
	double sigma;
	uint64_t cap; /* lognormal only */
};

/* Default cap of a lognormal distribution without one. */
#define CLYDE_SIZE_DEFAULT_CAP (1ull << 30)

/* The distribution written back in the syntax of clyde_size_dist_parse()
 * (workloads/tree.h). */
char *clyde_size_dist_format(char *buf, size_t len,
			     const struct clyde_size_dist *d);

struct clyde_tree_shape {
	uint64_t files;	      /* regular files in the whole tree */
	uint64_t dirs;	      /* directories, the root included; 0: derive */
	double files_per_dir; /* used when dirs is 0 */
	unsigned depth;	      /* deepest level below the root (root is 0) */
	unsigned fanout;      /* most subdirectories of one directory; 0:
			       * chosen from dirs and depth */
	struct clyde_size_dist size;
};

/* ---- results ----------------------------------------------------------- */

struct clyde_tree_errors {
	uint64_t permission_denied; /* EACCES/EPERM opening or reading */
	uint64_t vanished;	    /* ENOENT after readdir listed it */
	uint64_t loops;		    /* ELOOP, or a directory its own ancestor */
	uint64_t other;		    /* EIO and the like; skipped */
};

/* One worker's share of a walk.  elapsed_ns is the time it was busy (not
 * waiting for work); start/end are its first and last moment of work,
 * from the start of the phase. */
struct clyde_tree_worker {
	uint64_t entries, files, dirs, bytes;
	uint64_t elapsed_ns;
	uint64_t start_ns, end_ns;
	uint64_t cpu_user_ns, cpu_sys_ns;
};

struct clyde_tree_phase_result {
	bool ran;
	/* Entries seen: the root counts, like `find DIR | wc -l`. */
	uint64_t entries, files, dirs, symlinks, others;
	uint64_t bytes;		  /* read (walks) or written (extract) */
	uint64_t verified_blocks; /* --verify: extract's, read back */
	uint64_t elapsed_ns;
	uint64_t cpu_user_ns, cpu_sys_ns; /* the whole process */
	/* Merged over the workers; owned; NULL for an op the phase did not
	 * do. */
	struct clyde_hist *lat[CLYDE_TREE_OP_COUNT];
	bool cache_dropped;
	char cache_reason[192]; /* why not (or a caveat); "" when none */
	struct clyde_devio dev;
	struct clyde_members members; /* each leaf device below the target */
	struct clyde_ownio own;	      /* clyde's own I/O (env/ownio.h) */
	struct clyde_settle settle;   /* the devices before it started */
	/* Loop devices without direct I/O: their backing files' cache
	 * before a walk (evicted along with the caches when they are
	 * dropped). */
	struct clyde_loopcache_seen loop;
	unsigned nworkers;
	struct clyde_tree_worker *workers; /* nworkers entries, owned */
	struct clyde_tree_errors errors;
	uint64_t noatime_refused; /* opens where O_NOATIME gave EPERM */
	char first_error[1024];	  /* the first skipped error, "" if none */
};

/* Release what a phase result owns and zero it. */
void clyde_tree_phase_release(struct clyde_tree_phase_result *r);

/* The figure a phase is summarised by: bytes/s where data moves (extract,
 * the read walks), entries/s otherwise. */
bool clyde_tree_phase_in_bytes(enum clyde_tree_phase p);

/* Rates, 0 when nothing was timed. */
double clyde_tree_rate(uint64_t count, uint64_t elapsed_ns);

/* ---- the whole run ----------------------------------------------------- */

struct clyde_tree_config {
	char preset[16]; /* "" when the shape was given option by option */
	struct clyde_tree_shape shape;
	uint64_t seed;
	unsigned phases;  /* CLYDE_TREE_PHASE_BIT()s */
	unsigned workers; /* for the parallel phases */
	/* Walk this tree read-only instead of generating one; borrowed.
	 * Only read-only phases are allowed with it. */
	const char *existing;
	size_t io_size;	    /* bytes per read() and write() */
	bool drop_caches;   /* try to drop every cache before each phase */
	uint64_t settle_ns; /* --settle: wait up to this for idle devices */
	bool noatime;	    /* O_NOATIME on the generated tree (always on for
			   * an existing one) */
	bool one_fs;
	bool zeros;  /* bonnie++'s data pattern instead of random bytes */
	bool verify; /* --verify: extract's files read back and checked */
	char label[256];
	/* The generated tree's name in the scratch directory; "" is "tree"
	 * (clyde-mpi --shared gives each rank its own). */
	char tree_name[32];
};

struct clyde_tree_run {
	struct clyde_tree_config cfg; /* copy; cfg.existing points to
				       * existing_path below */
	char existing_path[4096];
	char root[4096]; /* the tree walked, for messages and records */
	bool generated;
	uint64_t started_unix;
	struct clyde_env env;
	/* The generated tree (zeros for an existing one). */
	uint64_t plan_files, plan_dirs, plan_bytes;
	unsigned plan_depth, plan_fanout;
	struct clyde_tree_phase_result phases[CLYDE_TREE_PHASE_COUNT];
};

/* Release what every phase of run owns. */
void clyde_tree_run_release(struct clyde_tree_run *run);

#endif
