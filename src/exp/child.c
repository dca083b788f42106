/*
 * The commands of an experiment: /bin/sh -c in a process group of its
 * own, journalled (pid and start time) so that a --resume after a crash
 * can end what the dead clyde left running, stopped on an interruption;
 * and what a message shows of them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/slurp.h"
#include "core/vis.h"
#include "env/procstat.h"
#include "exp/exp_internal.h"
#include "io/scratch.h"

/* Read a whole small file into a NUL-terminated buffer (core/slurp.h). */
char *clyde_exp_slurp(const char *path, size_t *len)
{
	char *buf;
	int rc = clyde_slurp(path, &buf, len);

	if (rc < 0) {
		errno = -rc;
		return NULL;
	}
	return buf;
}

const char *clyde_exp_show(char *buf, const char *s)
{
	return clyde_vis(buf, CLYDE_EXP_SHOW_MAX + 1, s, 0);
}

/* The last CLYDE_EXP_OUTPUT_TAIL bytes of a log file, indented, escaped. */
void clyde_exp_log_tail(const char *path, char *buf, size_t cap)
{
	size_t len = 0;
	char *all = clyde_exp_slurp(path, &len);
	char *p;
	size_t off = 0;

	buf[0] = '\0';
	if (!all)
		return;
	p = len > CLYDE_EXP_OUTPUT_TAIL ? all + len - CLYDE_EXP_OUTPUT_TAIL :
					  all;
	if (p != all)
		off += (size_t)snprintf(buf, cap, "    ...\n");
	while (*p && off + 8 < cap) {
		char *e = strchr(p, '\n'), line[CLYDE_EXP_OUTPUT_TAIL + 64];
		int w;

		if (e)
			*e = '\0';
		/* The command's output: escapes in it are shown, not obeyed. */
		w = snprintf(buf + off, cap - off, "    %s\n",
			     clyde_vis(line, sizeof(line), p, 0));

		if (w < 0)
			break;
		off += (size_t)w;
		if (!e)
			break;
		p = e + 1;
	}
	free(all);
}

/* The start time of process pid (field 22 of /proc/PID/stat, clock ticks
 * since boot) and its process group, or -1 when it does not exist. */
static int proc_start(pid_t pid, unsigned long long *start, pid_t *pgrp)
{
	char path[64], buf[1024];
	struct clyde_proc_stat ps;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (clyde_proc_stat_parse(buf, &ps) < CLYDE_PROC_STAT_ALL)
		return -1;
	*start = ps.start;
	if (pgrp)
		*pgrp = ps.pgrp;
	return 0;
}

/*
 * The shell of a stopped run has exited, but what it started need not have:
 * fio, on SIGTERM, finishes and writes its results first.  Wait until no
 * process of the group is left, SIGKILL it at kill_at, and give up 2 s
 * after that (a member nobody reaps).  Without this the sweep went on (its
 * teardown, the next point) while the workload still ran.
 */
static void wait_group_gone(struct clyde_exp_exec *x, pid_t pgid,
			    uint64_t kill_at)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	uint64_t give_up = kill_at + 2000000000ull;
	bool killed = false;

	while (kill(-pgid, 0) == 0) {
		uint64_t now = clyde_now(x->ctx);

		if (now >= give_up)
			return;
		if (!killed && now >= kill_at) {
			kill(-pgid, SIGKILL);
			killed = true;
		}
		nanosleep(&tick, NULL);
	}
}

static void free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* "CLYDE_CAPTURE_NAME=VALUE" for every captured variable (its value so
 * far, "" before its command ran), NULL-terminated; NULL without memory.
 * clyde_sweep_expand_sh() puts ${CLYDE_CAPTURE_NAME} in the commands. */
static char **capture_env(const struct clyde_sweep *s)
{
	char **v = calloc(s->nvars + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; v && i < s->nvars; i++) {
		char name[160];

		if (!s->vars[i].captured)
			continue;
		clyde_sweep_capture_env(s->vars[i].name, name, sizeof(name));
		if (asprintf(&v[n], "%s=%s", name, s->vars[i].value) < 0) {
			v[n] = NULL;
			free_strv(v);
			return NULL;
		}
		n++;
	}
	return v;
}

/*
 * Run /bin/sh -c cmd in a process group of its own, stdin from /dev/null,
 * stdout and stderr into `log` (truncated first; stdout into `out`
 * instead when it is not NULL), with env (NAME=VALUE
 * strings, may be NULL) added.  When `stoppable`, an interruption of clyde
 * sends SIGTERM to the group (SIGKILL after KILL_AFTER_NS) and returns
 * once no process of the group is left; teardown runs are not stoppable.
 * Returns 0 when the child ran (look at r->status) or a negative errno
 * when it could not be started.
 */
int exp_run_sh(struct clyde_exp_exec *x, const char *cmd, const char *log,
	       const char *out, char *const *env, bool stoppable,
	       const char *child_dir, struct child_result *r)
{
	char **cap;
	uint64_t t0, kill_at = 0;
	int fd, ofd = -1, term_sent = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	/* Made before the fork: the child of a threaded clyde only execs. */
	cap = capture_env(x->s);
	if (!cap)
		return clyde_err(x->ctx, ENOMEM, "%s", cmd);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		free_strv(cap);
		return clyde_err(x->ctx, errno, "%s: open", log);
	}
	if (out) {
		ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (ofd < 0) {
			close(fd);
			free_strv(cap);
			return clyde_err(x->ctx, errno, "%s: open", out);
		}
	}
	t0 = clyde_now(x->ctx);
	pid = fork();
	if (pid < 0) {
		close(fd);
		if (ofd >= 0)
			close(ofd);
		free_strv(cap);
		return clyde_err(x->ctx, errno, "fork");
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		if (null >= 0)
			dup2(null, 0);
		dup2(ofd >= 0 ? ofd : fd, 1);
		dup2(fd, 2);
		for (size_t i = 0; env && env[i]; i++)
			putenv(env[i]);
		for (size_t i = 0; cap[i]; i++)
			putenv(cap[i]);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	close(fd);
	if (ofd >= 0)
		close(ofd);
	free_strv(cap);
	if (x->journal_children) {
		/* If clyde dies now, --resume ends this group first (the pid
		 * and start time tell it from a later process of that pid),
		 * then removes the scratch directory a killed clyde run or
		 * tree left in child_dir. */
		unsigned long long st = 0;

		if (proc_start(pid, &st, NULL) == 0 &&
		    exp_journal_add(x, "child\t%ld:%llu\t%s\n", (long)pid, st,
				    child_dir ? child_dir : "-") < 0)
			clyde_err_clear(x->ctx);
	}
	for (;;) {
		pid_t got = wait4(pid, &r->status, 0, &r->ru);

		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return clyde_err(x->ctx, errno, "wait for %s", cmd);
		if (!stoppable || !exp_interrupted(x))
			continue;
		if (!term_sent) {
			kill(-pid, SIGTERM);
			term_sent = 1;
			r->killed = true;
			kill_at = clyde_now(x->ctx) + KILL_AFTER_NS;
			/* Wake up to check the deadline. */
			alarm(1);
		} else if (clyde_now(x->ctx) >= kill_at) {
			kill(-pid, SIGKILL);
		} else {
			alarm(1);
		}
	}
	alarm(0);
	if (term_sent)
		wait_group_gone(x, pid, kill_at);
	r->elapsed_ns = clyde_now(x->ctx) - t0;
	return 0;
}

void clyde_exp_describe_status(int status, char *buf, size_t cap)
{
	if (WIFEXITED(status))
		snprintf(buf, cap, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, cap, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, cap, "status %d", status);
}

bool exp_child_ok(const struct child_result *r)
{
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

/* The processes of group pgid started at `start` or later (so none of a
 * later group that reuses the number): signal them, and say how many. */
static size_t signal_group(pid_t pgid, unsigned long long start, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		unsigned long long st;
		pid_t pid = (pid_t)atol(de->d_name), pg;

		if (pid <= 0 || proc_start(pid, &st, &pg) < 0 || pg != pgid ||
		    st < start)
			continue;
		if (sig)
			kill(pid, sig);
		n++;
	}
	closedir(d);
	return n;
}

/*
 * A child of the crashed clyde (journal "child PID:START DIR"): end its
 * process group and wait until it is gone (it would go on beside the
 * resumed visit, in the same directory), then remove the scratch
 * directory a killed clyde run or tree left in DIR (DIR/clyde.PID and
 * DIR/clyde.PID.N, directories not kept on purpose).  Returns 0, or -1
 * when the group would not end.
 */
int exp_end_child(struct clyde_exp_exec *x, const char *id, const char *dir)
{
	unsigned long long start = 0, now;
	pid_t pid = (pid_t)atol(id);
	const char *colon = strchr(id, ':');
	int tries;

	if (pid <= 0 || !colon)
		return 0;
	start = strtoull(colon + 1, NULL, 10);
	if (signal_group(pid, start, 0) > 0) {
		exp_say(x,
			"ending process group %ld of the "
			"interrupted visit",
			(long)pid);
		for (tries = 0; tries < 100; tries++) {
			if (signal_group(pid, start, SIGKILL) == 0)
				break;
			usleep(100000);
		}
		if (tries == 100) {
			exp_say(x,
				"process group %ld did not end in "
				"10 s",
				(long)pid);
			return -1;
		}
	}
	/* The same pid in a process started since is not ours, nor is its
	 * scratch directory. */
	if (proc_start(pid, &now, NULL) == 0 && now != start)
		return 0;
	if (strcmp(dir, "-")) {
		int pfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = pfd >= 0 ? fdopendir(dup(pfd)) : NULL;
		struct dirent *de;
		char want[32];
		size_t wl;

		wl = (size_t)snprintf(want, sizeof(want), "clyde.%ld",
				      (long)pid);
		while (d && (de = readdir(d)) != NULL) {
			struct clyde_ctx c;
			int fd;

			if (strncmp(de->d_name, want, wl) ||
			    (de->d_name[wl] && de->d_name[wl] != '.'))
				continue;
			fd = openat(pfd, de->d_name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC);
			if (fd < 0)
				continue;
			if (faccessat(fd, CLYDE_SCRATCH_KEPT, F_OK,
				      AT_SYMLINK_NOFOLLOW) == 0) {
				close(fd);
				continue;
			}
			clyde_ctx_init(&c);
			if (clyde_rm_contents(&c, fd, de->d_name) == 0 &&
			    unlinkat(pfd, de->d_name, AT_REMOVEDIR) == 0)
				exp_say(x,
					"removed %s/%s, the scratch "
					"directory of the killed run",
					dir, de->d_name);
			else
				exp_say(x, "%s/%s: %s", dir, de->d_name,
					clyde_errmsg(&c)[0] ? clyde_errmsg(&c) :
							      strerror(errno));
			clyde_ctx_release(&c);
			close(fd);
		}
		if (d)
			closedir(d);
		if (pfd >= 0)
			close(pfd);
	}
	return 0;
}

void exp_rm_tmpdir(const char *dir)
{
	DIR *d;

	if (!dir[0])
		return;
	/* The work directory is this sweep's own (mkdtemp): the logs, the
	 * results, and whatever a killed child left half-written there (a
	 * `clyde run --json` stopped before its rename leaves
	 * .result.json.tmp.XXXXXX).  Every entry but a directory goes;
	 * unlinkat() removes a symbolic link itself, never what it names. */
	d = opendir(dir);
	if (d) {
		struct dirent *de;

		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") ||
			    !strcmp(de->d_name, ".."))
				continue;
			(void)unlinkat(dirfd(d), de->d_name, 0);
		}
		closedir(d);
	}
	rmdir(dir);
}

bool clyde_exp_wl_failed(struct clyde_exp_wl_result *o, const char *name,
			 const char *what, int status, const char *log)
{
	char st[64], tail[CLYDE_EXP_OUTPUT_TAIL + 256];

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return false;
	clyde_exp_describe_status(status, st, sizeof(st));
	clyde_exp_log_tail(log, tail, sizeof(tail));
	o->failed = true;
	snprintf(o->message, sizeof(o->message), "workload %s: %s: %s\n%s",
		 name, what, st, tail);
	return true;
}

void clyde_exp_wl_files(const struct clyde_exp_wl_call *c, const char *result,
			const char *var, struct clyde_exp_wl_files *f)
{
	size_t n = 0;

	snprintf(f->result, sizeof(f->result), "%s/%s", c->tmpdir, result);
	snprintf(f->log, sizeof(f->log), "%s/output.log", c->tmpdir);
	unlink(f->result);
	snprintf(f->var, sizeof(f->var), "%s=%s", var, f->result);
	for (; c->env[n] && n < 14; n++)
		f->env[n] = c->env[n];
	f->env[n++] = f->var;
	f->env[n] = NULL;
}

int clyde_exp_run_command(const struct clyde_exp_wl_call *c, const char *cmd,
			  char *const *env, const char *log, int *status,
			  uint64_t *elapsed_ns, struct rusage *ru)
{
	struct child_result r;
	int rc = exp_run_sh(c->x, cmd, log, NULL, env ? env : c->env, true,
			    c->scratch_parent, &r);

	if (rc < 0)
		return rc;
	if (r.killed || exp_interrupted(c->x))
		return -EINTR;
	*status = r.status;
	if (elapsed_ns)
		*elapsed_ns = r.elapsed_ns;
	if (ru)
		*ru = r.ru;
	return 0;
}

struct clyde_ctx *clyde_exp_ctx(const struct clyde_exp_wl_call *c)
{
	return c->x->ctx;
}
