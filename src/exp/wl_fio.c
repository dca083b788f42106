/*
 * The fio workload kind: `fio = ARGS` is
 * `fio --output=TMP/fio.json --output-format=json+ ARGS` (Debian's fio,
 * found in PATH), its JSON read back (results/fio_read.h), checked and
 * stored like a clyde run's result, so that the experiment's table,
 * `clyde sweep --show` and `clyde report --experiment` read it with
 * clyde's fio reader (results/loaded_fio.c): per direction a B/s figure
 * named like clyde dev's tests (`randread`, `seqwrite`, ...) and an IOPS
 * one.
 *
 * Why json+: its latency bins go into clyde's histogram, so percentiles
 * come out by clyde's own rule, as for clyde's tests.
 *
 * Before the first visit (check): fio must be in PATH; ARGS must name a
 * job (--name=NAME or a job file); options that change what fio writes
 * or make it run no job (--output, --output-format, --minimal,
 * --status-interval, --client, --version, ...) are refused; then
 * `fio --parse-only ARGS` checks the job options with fio's own parser
 * (not when ARGS need the shell or a job file is not there yet).
 *
 * One fio run is one stored result: fio's output must hold one job (or
 * one group under --group_reporting); more is a failed run saying so.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include "core/vis.h"
#include "exp/exp_internal.h"
#include "results/fio_read.h"

/* Options of fio's command line a sweep's fio workload refuses, and why
 * (fio accepts a unique prefix of a long option, with one dash or two). */
static const struct {
	const char *name, *why;
} refused[] = {
	{ "output", "the sweep gives fio its own output file" },
	{ "output-format", "the sweep asks fio for json+ itself" },
	{ "minimal", "the sweep reads fio's JSON, not its terse output" },
	{ "append-terse", "the sweep reads fio's JSON, not its terse output" },
	{ "status-interval", "periodic status would add more JSON documents "
			     "to the one result" },
	{ "client", "fio's client/server output is not read" },
	{ "server", "a server runs no job of its own" },
	{ "daemonize", "the sweep waits for fio and reads its output" },
	{ "remote-config", "fio's client/server output is not read" },
	{ "parse-only", "it runs no job" },
	{ "showcmd", "it runs no job" },
	{ "version", "it runs no job" },
	{ "help", "it runs no job" },
	{ "cmdhelp", "it runs no job" },
	{ "enghelp", "it runs no job" },
	{ "crctest", "it runs no job" },
};

/* Whether fio is in PATH; its path in buf. */
static bool find_fio(char *buf, size_t cap)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;
	bool found = false;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	copy = strdup(path);
	if (!copy)
		return false;
	for (char *d = strtok_r(copy, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		struct stat st;

		snprintf(buf, cap, "%s/fio", *d ? d : ".");
		found = stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
			access(buf, X_OK) == 0;
	}
	free(copy);
	return found;
}

/* The option name of a word ("--rw=read" -> "rw", len 2), or NULL when
 * the word is no option. */
static const char *opt_name(const char *word, size_t *len)
{
	if (word[0] != '-' || !word[1])
		return NULL;
	word += word[1] == '-' ? 2 : 1;
	*len = strcspn(word, "=");
	return word;
}

/* Whether a job file holds ${...} (fio's environment variables, which may
 * be the visit's CLYDE_SWEEP_*): then it is not checked before. */
static bool has_env_refs(const char *path)
{
	size_t len = 0;
	char *t = clyde_exp_slurp(path, &len);
	bool any = !t || strstr(t, "${") != NULL;

	free(t);
	return any;
}

/*
 * Run fio --parse-only with the words of ARGS (no shell), its standard
 * error (at most cap - 1 bytes of it) in err.  Returns its wait status, or
 * -1 when it could not be run.
 */
static int parse_only(const char *fio, const wordexp_t *we, char *err,
		      size_t cap)
{
	char **argv = calloc(we->we_wordc + 3, sizeof(*argv));
	int fds[2], status = 0;
	size_t off = 0;
	pid_t pid;

	err[0] = '\0';
	if (!argv || pipe2(fds, O_CLOEXEC) < 0) {
		free(argv);
		return -1;
	}
	argv[0] = (char *)fio;
	argv[1] = (char *)"--parse-only";
	for (size_t i = 0; i < we->we_wordc; i++)
		argv[i + 2] = we->we_wordv[i];
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
		    dup2(fds[1], 2) < 0)
			_exit(127);
		execv(fio, argv);
		_exit(127);
	}
	free(argv);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	for (;;) {
		char tmp[512];
		ssize_t n = read(fds[0], tmp, sizeof(tmp));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n && off + 1 < cap; i++)
			err[off++] = tmp[i];
	}
	err[off] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/* The first line of fio's complaint, without its "fio: " prefix. */
static const char *first_line(char *text)
{
	char *p = text;

	while (*p == '\n' || *p == ' ')
		p++;
	p[strcspn(p, "\n")] = '\0';
	if (!strncmp(p, "fio: ", 5))
		p += 5;
	return p;
}

/* Argument strings fio --parse-only took already (FNV-1a): a sweep whose
 * axes vary a sysfs value, not fio's options, runs it once, not at every
 * point (fio takes a fraction of a second to start). */
#define PARSED_MAX 64
static uint64_t parsed[PARSED_MAX];
static size_t nparsed;

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static bool parsed_before(uint64_t h)
{
	for (size_t i = 0; i < nparsed && i < PARSED_MAX; i++)
		if (parsed[i] == h)
			return true;
	return false;
}

static int fio_check(const char *args, char **dir, char *err, size_t len)
{
	char fio[PATH_MAX + 8], out[1024], vis[512];
	bool job = false, checkable = true;
	wordexp_t we;
	uint64_t h;
	int status;

	/* fio makes no scratch directory of clyde's to clean up after a
	 * crash: its files are where its options say. */
	if (dir)
		*dir = NULL;
	if (!find_fio(fio, sizeof(fio))) {
		snprintf(err, len,
			 "fio is not installed (no fio in PATH); install "
			 "Debian's fio package");
		return -1;
	}
	if (wordexp(args, &we, WRDE_NOCMD | WRDE_UNDEF) != 0)
		return 1; /* the shell's: checked when it runs */
	for (size_t i = 0; i < we.we_wordc; i++) {
		const char *w = we.we_wordv[i], *name;
		size_t n;

		name = opt_name(w, &n);
		if (!name) {
			struct stat st;

			/* A job file: it may be made by the setup. */
			job = true;
			if (stat(w, &st) < 0 || has_env_refs(w))
				checkable = false;
			continue;
		}
		if (n == 4 && !strncmp(name, "name", 4))
			job = true;
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]);
		     k++) {
			size_t rl = strlen(refused[k].name);

			/* The name, or a prefix fio would take for it. */
			if (n > rl || strncmp(name, refused[k].name, n) ||
			    (n < rl && n < 3))
				continue;
			snprintf(err, len, "%s: %s; leave it out",
				 clyde_vis(vis, sizeof(vis), w, 0),
				 refused[k].why);
			wordfree(&we);
			return -1;
		}
	}
	if (!job) {
		wordfree(&we);
		snprintf(err, len,
			 "fio %s: no job: give --name=NAME with its options, "
			 "or a job file",
			 clyde_vis(vis, sizeof(vis), args, 0));
		return -1;
	}
	if (!checkable || dir) {
		/* At a visit (dir asked for): checked before the first. */
		wordfree(&we);
		return checkable ? 0 : 1;
	}
	{
		char key[PATH_MAX + 16];

		snprintf(key, sizeof(key), "%s\n", fio);
		h = fnv(key) ^ fnv(args);
	}
	if (parsed_before(h)) {
		wordfree(&we);
		return 0;
	}
	status = parse_only(fio, &we, out, sizeof(out));
	wordfree(&we);
	if (status < 0)
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, len, "fio --parse-only: %s",
			 clyde_vis(vis, sizeof(vis),
				   out[0] ? first_line(out) :
					    "refused the options",
				   0));
		return -1;
	}
	parsed[nparsed++ % PARSED_MAX] = h;
	return 0;
}

/* A failed run: "workload NAME: " and the message. */
static int fail(struct clyde_exp_wl_result *o, const char *name,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct clyde_exp_wl_result *o, const char *name,
		const char *fmt, ...)
{
	size_t at;
	va_list ap;

	o->failed = true;
	snprintf(o->message, sizeof(o->message), "workload %s: ", name);
	at = strlen(o->message);
	va_start(ap, fmt);
	vsnprintf(o->message + at, sizeof(o->message) - at, fmt, ap);
	va_end(ap);
	return 0;
}

static int wl_fio(const struct clyde_exp_wl_call *c,
		  struct clyde_exp_wl_result *o)
{
	const struct clyde_sweep_workload *w = c->w;
	struct clyde_exp_wl_files f;
	char sh[CLYDE_EXP_SHOW_MAX + 1], what[CLYDE_EXP_SHOW_MAX + 16];
	char why[CLYDE_FIO_WHY_LEN + 64], vis[CLYDE_FIO_WHY_LEN * 4 + 64];
	struct clyde_fio_result res;
	unsigned long ln = 0;
	size_t n = 0, len = 0, off = 0;
	int rc, status = 0;
	char *cmd, *buf;

	clyde_exp_wl_files(c, "fio.json", "CLYDE_SWEEP_FIO_JSON", &f);
	/* fio's own options first: the job options follow. */
	if (asprintf(&cmd,
		     "exec fio --output=\"$CLYDE_SWEEP_FIO_JSON\" "
		     "--output-format=json+ %s",
		     c->args) < 0)
		return clyde_err(clyde_exp_ctx(c), ENOMEM, "workload %s",
				 w->name);
	rc = clyde_exp_run_command(c, cmd, f.env, f.log, &status, NULL, NULL);
	free(cmd);
	if (rc < 0)
		return rc;
	snprintf(what, sizeof(what), "fio %s", clyde_exp_show(sh, c->args));
	if (clyde_exp_wl_failed(o, w->name, what, status, f.log))
		return 0;
	buf = clyde_exp_slurp(f.result, &len);
	if (!buf || len == 0) {
		free(buf);
		return fail(o, w->name, "fio wrote no output to %s",
			    clyde_exp_show(sh, f.result));
	}
	switch (clyde_fio_sniff(buf, len, &off)) {
	case CLYDE_FIO_JSON:
		break;
	case CLYDE_FIO_TEXT:
		free(buf);
		return fail(o, w->name,
			    "fio wrote its normal (text) output to %s, not "
			    "JSON; nothing stored",
			    clyde_exp_show(sh, f.result));
	default:
		free(buf);
		return fail(o, w->name,
			    "fio's output %s is not fio JSON; nothing stored",
			    clyde_exp_show(sh, f.result));
	}
	rc = clyde_fio_parse(buf, len, off, &res, why, sizeof(why), &ln);
	if (rc == -ENOMEM) {
		free(buf);
		return clyde_err(clyde_exp_ctx(c), ENOMEM, "workload %s",
				 w->name);
	}
	if (rc < 0) {
		free(buf);
		return fail(
			o, w->name,
			"fio's JSON output %s, line %lu: %s; nothing stored",
			clyde_exp_show(sh, f.result), ln,
			clyde_vis(vis, sizeof(vis), why, 0));
	}
	if (res.njobs != 1) {
		n = res.njobs;
		clyde_fio_result_release(&res);
		free(buf);
		return fail(o, w->name,
			    "fio reported %zu jobs; a fio workload stores one: "
			    "run one job (or one group with "
			    "--group_reporting), or one workload per job; "
			    "nothing stored",
			    n);
	}
	if (res.jobs[0].error) {
		long long e = (long long)res.jobs[0].error;

		clyde_vis(vis, sizeof(vis), res.jobs[0].jobname, 0);
		clyde_fio_result_release(&res);
		free(buf);
		return fail(o, w->name,
			    "fio job %s: error %lld (%s); nothing stored", vis,
			    e, strerror((int)e));
	}
	/* From its '{': without any note fio wrote before the JSON. */
	rc = clyde_fio_job_doc(buf, len, &res, 0, &o->doc, &o->len);
	clyde_fio_result_release(&res);
	free(buf);
	if (rc < 0)
		return clyde_err(clyde_exp_ctx(c), ENOMEM, "workload %s",
				 w->name);
	return 0;
}

static void show_fio(FILE *f, const char *name, const char *args,
		     const char *dev)
{
	(void)dev;
	fprintf(f,
		"fio %s: fio --output=WORKDIR/fio.json --output-format=json+ "
		"%s\n",
		name, args);
}

const struct clyde_exp_wl_ops clyde_exp_wl_fio = {
	.name = "fio",
	.result = "fio",
	.check = fio_check,
	.run = wl_fio,
	.show = show_fio,
};
