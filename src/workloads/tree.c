/*
 * `clyde tree` as a library call: the phases in order, each with a cold
 * cache, device counters and CPU time measured around it.
 */
#include "workloads/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "env/ownio.h"
#include "env/settle.h"
#include "io/cache.h"
#include "io/target.h"
#include "results/testio.h"

int clyde_tree_phases_parse(const char *list, unsigned *mask, char *err,
			    size_t errlen)
{
	unsigned m = 0;
	const char *p = list;

	if (!strcmp(list, "all")) {
		*mask = CLYDE_TREE_ALL_PHASES;
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");
		int found = -1;

		for (int i = 0; i < CLYDE_TREE_PHASE_COUNT; i++)
			if (strlen(clyde_tree_phase_name(i)) == n &&
			    !strncmp(p, clyde_tree_phase_name(i), n))
				found = i;
		if (found < 0) {
			snprintf(err, errlen,
				 "--phases: unknown phase \"%.*s\" (known: "
				 "extract, stat_walk, read_walk, "
				 "par_stat_walk, par_read_walk, delete, all)",
				 (int)n, p);
			return -EINVAL;
		}
		m |= CLYDE_TREE_PHASE_BIT(found);
		if (!p[n])
			break;
		p += n + 1;
	}
	*mask = m;
	return 0;
}

void clyde_tree_config_init(struct clyde_tree_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->preset, sizeof(cfg->preset), "home");
	clyde_tree_preset("home", 10000, &cfg->shape);
	cfg->phases = CLYDE_TREE_ALL_PHASES;
	cfg->workers = 4;
	cfg->io_size = CLYDE_TREE_DEFAULT_IO_SIZE;
	cfg->drop_caches = true;
	cfg->settle_ns = (uint64_t)(CLYDE_SETTLE_DEFAULT_S * 1e9);
}

static uint64_t process_cpu(uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
	       (uint64_t)ru.ru_stime.tv_usec * 1000u;
	return (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
	       (uint64_t)ru.ru_utime.tv_usec * 1000u;
}

/* A cold cache before a phase, or the reason there is none. */
static void cold_cache(struct clyde_ctx *ctx, const struct clyde_tree_run *run,
		       struct clyde_target_watch *tgt, int probe_fd,
		       struct clyde_tree_phase_result *r)
{
	int ret;

	if (!run->cfg.drop_caches) {
		snprintf(r->cache_reason, sizeof(r->cache_reason),
			 "not dropped: --no-drop-caches");
		return;
	}
	ret = clyde_target_drop_all(ctx, tgt);
	if (ret == 0) {
		r->cache_dropped = true;
		if (probe_fd >= 0 &&
		    clyde_target_cache_is_storage(tgt, probe_fd))
			snprintf(r->cache_reason, sizeof(r->cache_reason),
				 "%s keeps its files in memory: the cache is "
				 "the storage",
				 run->env.target.fstype[0] ?
					 run->env.target.fstype :
					 "the filesystem");
	} else {
		snprintf(r->cache_reason, sizeof(r->cache_reason),
			 "could not be dropped: %s", clyde_errmsg(ctx));
	}
	/* Not a failure of the run. */
	clyde_err_clear(ctx);
}

struct phase_env {
	struct clyde_ctx *ctx;
	const struct clyde_tree_hooks *hooks;
	struct clyde_tree_run *run;
	struct clyde_tree_plan *plan;
	struct clyde_scratch *scratch;
	int probe_fd;
	const char *walk_root; /* relative to walk_dirfd */
	const char *tree_name; /* the generated tree in the scratch */
	int walk_dirfd;
	/* The storage under the tree: its counters, whether it is idle,
	 * its caches (io/target.h). */
	struct clyde_target_watch tgt;
};

/* Every message of a failed phase starts with the phase's name; running
 * out of descriptors also says what the limit is. */
static void name_phase(struct clyde_ctx *ctx, enum clyde_tree_phase p, int ret)
{
	const char *name = clyde_tree_phase_name(p);
	size_t n = strlen(name);
	char msg[CLYDE_ERR_MAX], limit[96] = "";
	struct rlimit rl;

	snprintf(msg, sizeof(msg), "%s", clyde_errmsg(ctx));
	if (ret == -EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
		snprintf(limit, sizeof(limit),
			 " (the limit is %llu descriptors: ulimit -n)",
			 (unsigned long long)rl.rlim_cur);
	clyde_err_clear(ctx);
	if (!strncmp(msg, name, n) && msg[n] == ':')
		clyde_err(ctx, 0, "%s%s", msg, limit);
	else
		clyde_err(ctx, 0, "%s: %s%s", name, msg, limit);
}

static int run_phase(struct phase_env *e, enum clyde_tree_phase p)
{
	struct clyde_tree_run *run = e->run;
	struct clyde_tree_phase_result *r = &run->phases[p];
	const struct clyde_tree_config *cfg = &run->cfg;
	struct clyde_target_moved moved = {
		.dev = &r->dev,
		.members = &r->members,
		.own = &r->own,
	};
	struct clyde_walk_opts o = {
		.workers = 1,
		.noatime = cfg->noatime || cfg->existing,
		.one_fs = cfg->one_fs,
		.io_size = cfg->io_size,
	};
	uint64_t u0, s0, u1, s1;
	int ret;

	if (clyde_stopping(e->ctx))
		return -EINTR;
	if (e->hooks && e->hooks->before_phase)
		e->hooks->before_phase(e->hooks->arg, p);
	if (e->hooks) {
		o.visit = e->hooks->visit;
		o.visit_arg = e->hooks->visit_arg;
	}
	cold_cache(e->ctx, run, &e->tgt, e->probe_fd, r);
	/* The walks read: a loop device without direct I/O could serve
	 * them from its backing file's cache. */
	if (p != CLYDE_TREE_EXTRACT && p != CLYDE_TREE_DELETE &&
	    clyde_target_has_below(&e->tgt))
		clyde_target_below(&e->tgt, r->cache_dropped, &r->loop);
	/* The writeback and discards of the phase before are not this
	 * one's: let the devices settle first. */
	clyde_target_settle(e->ctx, &e->tgt, &r->settle);
	if (e->hooks && e->hooks->start_phase) {
		ret = e->hooks->start_phase(e->hooks->arg, p);
		if (ret < 0)
			return ret;
	}
	clyde_target_begin(&e->tgt);
	u0 = process_cpu(&s0);
	switch (p) {
	case CLYDE_TREE_EXTRACT:
		ret = clyde_tree_extract(e->ctx, e->plan, e->scratch->dirfd,
					 e->tree_name, run->root, cfg->seed,
					 cfg->zeros, cfg->verify, cfg->io_size,
					 r);
		break;
	case CLYDE_TREE_DELETE:
		ret = clyde_tree_delete(e->ctx, e->scratch->dirfd, e->tree_name,
					run->root, r);
		break;
	case CLYDE_TREE_PAR_STAT_WALK:
	case CLYDE_TREE_PAR_READ_WALK:
		o.workers = cfg->workers ? cfg->workers : 1;
		/* fall through */
	default:
		o.read = p == CLYDE_TREE_READ_WALK ||
			 p == CLYDE_TREE_PAR_READ_WALK;
		ret = clyde_tree_walk(e->ctx, e->walk_dirfd, e->walk_root, &o,
				      r);
		break;
	}
	u1 = process_cpu(&s1);
	r->cpu_user_ns = u1 - u0;
	r->cpu_sys_ns = s1 - s0;
	clyde_target_end(&e->tgt, &moved);
	/* Others' share of the devices during the test (results/testio.h). */
	{
		struct clyde_test_io io;

		clyde_test_io_compute(&r->dev, &r->members, &r->own, 0, &io);
		clyde_test_io_judge_busy(&io, &r->settle);
	}
	/* --verify: outside the phase's time and counters. */
	if (p == CLYDE_TREE_EXTRACT && ret == 0 && cfg->verify)
		ret = clyde_tree_verify(e->ctx, e->plan, e->scratch->dirfd,
					e->tree_name, run->root, cfg->seed,
					cfg->io_size, &r->verified_blocks);
	if (e->hooks && e->hooks->after_phase && ret == 0)
		e->hooks->after_phase(e->hooks->arg, p, r);
	/* An I/O error names a file in the tree: say the device under it
	 * (a summary of skipped errors has no errno of its own). */
	if ((ret == -EIO || ret == -EROFS) && e->ctx->err_code == -ret)
		clyde_env_name_device(e->ctx, &run->env.target);
	if (ret < 0 && ret != -EINTR)
		name_phase(e->ctx, p, ret);
	return ret;
}

/*
 * A generated tree must fit in the scratch directory's filesystem: one
 * inode per file and directory, and its bytes.  Refused before anything
 * is written (or the plan allocated), instead of filling a shared disk up
 * to ENOSPC.  `bytes` is 0 when not known yet.  Returns 0 or -EINVAL.
 */
static int check_room(struct clyde_ctx *ctx, int dirfd, const char *path,
		      const struct clyde_tree_shape *s, uint64_t bytes)
{
	struct statvfs v;
	uint64_t dirs = s->dirs, avail;

	if (!dirs && s->files_per_dir > 0)
		dirs = (uint64_t)((double)s->files / s->files_per_dir) + 1;
	if (!clyde_scratch_inodes_fit(dirfd, s->files + dirs, &avail))
		return clyde_err(ctx, 0,
				 "the tree needs %llu inodes but %s has only "
				 "%llu free",
				 (unsigned long long)(s->files + dirs), path,
				 (unsigned long long)avail),
		       -EINVAL;
	if (fstatvfs(dirfd, &v) < 0)
		return 0; /* unknown: the writes will tell */
	avail = (uint64_t)v.f_bavail * v.f_frsize;
	if (bytes > avail)
		return clyde_err(ctx, 0,
				 "the tree needs %llu bytes but %s has only "
				 "%llu free",
				 (unsigned long long)bytes, path,
				 (unsigned long long)avail),
		       -EINVAL;
	return 0;
}

int clyde_tree_run(struct clyde_ctx *ctx, const struct clyde_tree_config *cfg,
		   struct clyde_scratch *scratch,
		   const struct clyde_tree_hooks *hooks,
		   struct clyde_tree_run *run)
{
	struct clyde_tree_plan plan = { 0 };
	struct phase_env e = {
		.ctx = ctx,
		.hooks = hooks,
		.run = run,
		.plan = &plan,
		.scratch = scratch,
		.probe_fd = -1,
		.walk_dirfd = AT_FDCWD,
	};
	struct clyde_target_setup setup = {
		.what = CLYDE_TARGET_MEMBERS | CLYDE_TARGET_OWN |
			CLYDE_TARGET_SETTLE | CLYDE_TARGET_LOOPS,
	};
	unsigned phases = cfg->phases;
	int ret = 0;

	memset(run, 0, sizeof(*run));
	run->cfg = *cfg;
	run->started_unix = (uint64_t)time(NULL);
	if (cfg->existing) {
		if (phases & ~CLYDE_TREE_READ_ONLY_PHASES) {
			clyde_err(ctx, 0,
				  "--existing %s: only stat and read walks "
				  "are allowed on an existing tree (it is "
				  "never written)",
				  cfg->existing);
			return -EINVAL;
		}
		snprintf(run->existing_path, sizeof(run->existing_path), "%s",
			 cfg->existing);
		run->cfg.existing = run->existing_path;
		snprintf(run->root, sizeof(run->root), "%s", cfg->existing);
	} else {
		if (!scratch)
			return clyde_err(ctx, 0,
					 "a generated tree needs a scratch "
					 "directory"),
			       -EINVAL;
		e.tree_name = cfg->tree_name[0] ? cfg->tree_name : "tree";
		snprintf(run->root, sizeof(run->root), "%s/%s", scratch->path,
			 e.tree_name);
		phases |= CLYDE_TREE_PHASE_BIT(CLYDE_TREE_EXTRACT);
		run->generated = true;
	}
	run->cfg.phases = phases;

	clyde_env_machine(ctx, &run->env.machine);
	if (clyde_env_target(ctx, cfg->existing ? cfg->existing : scratch->path,
			     &run->env.target) < 0) {
		if (cfg->existing)
			return -EINVAL;
		clyde_err_clear(ctx);
	}
	clyde_err_clear(ctx);
	if (clyde_stack_probe(ctx, "",
			      cfg->existing ? cfg->existing : scratch->path,
			      &run->env.stack) < 0)
		clyde_err_clear(ctx);
	setup.target = &run->env.target;
	setup.stack = &run->env.stack;
	setup.virt = &run->env.virt;
	setup.settle_ns = cfg->settle_ns;
	ret = clyde_target_open(ctx, &e.tgt, &setup);
	if (ret < 0)
		return ret;

	if (cfg->existing) {
		/* Read-only: O_RDONLY, nothing else is ever asked of it. */
		e.probe_fd =
			open(cfg->existing, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (e.probe_fd < 0) {
			ret = clyde_err(ctx, errno,
					"--existing: cannot open directory %s",
					cfg->existing);
			clyde_target_close(&e.tgt);
			return ret;
		}
		e.walk_root = cfg->existing;
	} else {
		ret = check_room(ctx, scratch->dirfd, scratch->path,
				 &cfg->shape, 0);
		if (ret == 0)
			ret = clyde_tree_plan_build(ctx, &cfg->shape, cfg->seed,
						    &plan);
		if (ret == 0)
			ret = check_room(ctx, scratch->dirfd, scratch->path,
					 &cfg->shape, plan.total_bytes);
		if (ret < 0) {
			clyde_tree_plan_release(&plan);
			clyde_target_close(&e.tgt);
			return ret;
		}
		run->plan_files = plan.nfiles;
		run->plan_dirs = plan.ndirs;
		run->plan_bytes = plan.total_bytes;
		run->plan_depth = plan.depth;
		run->plan_fanout = plan.fanout;
		e.probe_fd = scratch->dirfd;
		e.walk_dirfd = scratch->dirfd;
		e.walk_root = e.tree_name;
	}

	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT && !ret; p++)
		if (phases & CLYDE_TREE_PHASE_BIT(p))
			ret = run_phase(&e, (enum clyde_tree_phase)p);

	if (cfg->existing)
		close(e.probe_fd);
	clyde_target_close(&e.tgt);
	clyde_tree_plan_release(&plan);
	if (ret < 0 && clyde_stopping(ctx) && !atomic_load(&ctx->failed))
		ret = -EINTR;
	return ret;
}

int clyde_tree_check_existing(const char *dir, char *err, size_t len)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, len, "--existing %s: %s", dir,
			 errno == ENOTDIR ? "not a directory" :
					    strerror(errno));
		return -1;
	}
	if (faccessat(fd, ".", R_OK | X_OK, AT_EACCESS) < 0) {
		snprintf(err, len, "--existing %s: %s", dir, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void clyde_tree_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}
