/*
 * The time workload kind: a shell command, timed -- wall time
 * (CLOCK_MONOTONIC from fork to reaping), CPU of it and its waited-for
 * children (wait4's rusage) and, with `device =` or `path =`, the
 * counters of those block devices before and after (each member's too
 * when there are several).  The measurement is a small JSON document
 * (docs/sweep.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "env/env.h"
#include "exp/exp_internal.h"

/* Append s to a JSON document as a string literal. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

/* The most block devices one timed workload counts. */
#define MAX_MEMBERS 32

/* The devices a timed workload counts, and their counters. */
struct members {
	size_t n;
	struct clyde_target *tg; /* n of them */
	struct clyde_devstat before[MAX_MEMBERS], after[MAX_MEMBERS];
};

/* Find the devices of `spec` (paths separated by blanks: device nodes or
 * directories) and read their counters.  0, or -1 with a message. */
static int members_start(struct clyde_exp_exec *x, const char *spec,
			 struct members *m, char *msg, size_t cap)
{
	char buf[4096], *save = NULL, *tok, sh[CLYDE_EXP_SHOW_MAX + 1];

	snprintf(buf, sizeof(buf), "%s", spec);
	m->tg = calloc(MAX_MEMBERS, sizeof(*m->tg));
	if (!m->tg)
		return snprintf(msg, cap, "out of memory"), -1;
	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		struct clyde_target *t = &m->tg[m->n];

		if (m->n == MAX_MEMBERS)
			return snprintf(msg, cap, "more than %d devices",
					MAX_MEMBERS),
			       -1;
		struct stat st;

		/* A device node named here is part of this visit's stack:
		 * another sweep must not tune it meanwhile. */
		if (stat(tok, &st) == 0 && S_ISBLK(st.st_mode)) {
			char key[64];

			snprintf(key, sizeof(key), "dev-%u:%u",
				 major(st.st_rdev), minor(st.st_rdev));
			if (exp_lock_key(x, key, tok, true) < 0) {
				snprintf(msg, cap, "%s", clyde_errmsg(x->ctx));
				clyde_err_clear(x->ctx);
				return -1;
			}
		}
		if (clyde_env_target(x->ctx, tok, t) < 0 || !t->block_dev[0] ||
		    clyde_devstat_read(t, &m->before[m->n]) < 0) {
			clyde_err_clear(x->ctx);
			return snprintf(msg, cap,
					"no block device counters for %s",
					clyde_exp_show(sh, tok)),
			       -1;
		}
		m->n++;
	}
	return 0;
}

static void json_devio(FILE *f, const char *name, const struct clyde_devio *io)
{
	fprintf(f, "{\"name\": ");
	json_str(f, name);
	fprintf(f,
		", \"read_bytes\": %llu, \"write_bytes\": %llu, "
		"\"read_ios\": %llu, \"write_ios\": %llu, "
		"\"flush_ios\": %llu, \"io_ticks_ms\": %llu}",
		(unsigned long long)io->read_bytes,
		(unsigned long long)io->write_bytes,
		(unsigned long long)io->read_ios,
		(unsigned long long)io->write_ios,
		(unsigned long long)io->flush_ios,
		(unsigned long long)io->io_ticks_ms);
}

/* "device": the sum over the members (names joined with '+'), and with
 * several, "members": each one's own counters. */
static void json_members(FILE *f, const struct members *m)
{
	struct clyde_devio sum, io[MAX_MEMBERS];
	char name[1024] = "";

	memset(&sum, 0, sizeof(sum));
	for (size_t i = 0; i < m->n; i++) {
		clyde_devstat_delta(&m->before[i], &m->after[i], &io[i]);
		sum.read_bytes += io[i].read_bytes;
		sum.write_bytes += io[i].write_bytes;
		sum.read_ios += io[i].read_ios;
		sum.write_ios += io[i].write_ios;
		sum.flush_ios += io[i].flush_ios;
		if (io[i].io_ticks_ms > sum.io_ticks_ms)
			sum.io_ticks_ms = io[i].io_ticks_ms;
		if (strlen(name) + strlen(m->tg[i].block_dev) + 2 <
		    sizeof(name)) {
			if (i)
				strcat(name, "+");
			strcat(name, m->tg[i].block_dev);
		}
	}
	fprintf(f, ", \"device\": ");
	json_devio(f, name, &sum);
	if (m->n < 2)
		return;
	fprintf(f, ", \"members\": [");
	for (size_t i = 0; i < m->n; i++) {
		if (i)
			fprintf(f, ", ");
		json_devio(f, m->tg[i].block_dev, &io[i]);
	}
	fprintf(f, "]");
}

/* time: a shell command; wall time, CPU of it and its children, the
 * counters of the named devices (or those under the named paths). */
static int wl_time(const struct clyde_exp_wl_call *c,
		   struct clyde_exp_wl_result *o)
{
	const struct clyde_sweep_workload *w = c->w;
	struct clyde_exp_exec *x = c->x;
	char log[PATH_MAX + 32], why[512], sh[CLYDE_EXP_SHOW_MAX + 1];
	char what[CLYDE_EXP_SHOW_MAX + 8];
	struct members m;
	bool have_dev = false;
	struct rusage ru;
	uint64_t elapsed = 0;
	char *buf = NULL;
	size_t blen = 0;
	int rc, status = 0;
	FILE *f;

	memset(&m, 0, sizeof(m));
	memset(&ru, 0, sizeof(ru));
	snprintf(log, sizeof(log), "%s/output.log", c->tmpdir);
	if (c->dev) {
		if (members_start(x, c->dev, &m, why, sizeof(why)) < 0) {
			o->failed = true;
			snprintf(o->message, sizeof(o->message),
				 "workload %s: %s", w->name, why);
			free(m.tg);
			return 0;
		}
		have_dev = m.n > 0;
	}
	rc = clyde_exp_run_command(c, c->args, NULL, log, &status, &elapsed,
				   &ru);
	for (size_t i = 0; rc == 0 && have_dev && i < m.n; i++)
		if (clyde_devstat_read_after(&m.tg[i], &m.after[i]) < 0)
			have_dev = false;
	if (rc < 0) {
		free(m.tg);
		return rc;
	}
	snprintf(what, sizeof(what), "`%s`", clyde_exp_show(sh, c->args));
	if (clyde_exp_wl_failed(o, w->name, what, status, log)) {
		free(m.tg);
		return 0;
	}
	f = open_memstream(&buf, &blen);
	if (!f) {
		free(m.tg);
		return clyde_err(x->ctx, ENOMEM, "workload %s", w->name);
	}
	fprintf(f, "{\"kind\": \"timed\", \"workload\": ");
	json_str(f, w->name);
	fprintf(f, ", \"command\": ");
	json_str(f, c->args);
	fprintf(f,
		", \"exit_status\": 0, \"elapsed_ns\": %llu, "
		"\"cpu_user_ns\": %llu, \"cpu_sys_ns\": %llu",
		(unsigned long long)elapsed,
		(unsigned long long)tv_ns(&ru.ru_utime),
		(unsigned long long)tv_ns(&ru.ru_stime));
	if (have_dev)
		json_members(f, &m);
	fprintf(f, "}\n");
	fclose(f);
	free(m.tg);
	if (!buf)
		return clyde_err(x->ctx, ENOMEM, "workload %s", w->name);
	o->doc = buf;
	o->len = blen;
	return 0;
}

static void show_time(FILE *f, const char *name, const char *args,
		      const char *dev)
{
	fprintf(f, "time %s: %s%s%s%s\n", name, args,
		dev ? "  (device counters of " : "", dev ? dev : "",
		dev ? ")" : "");
}

const struct clyde_exp_wl_ops clyde_exp_wl_time = {
	.name = "time",
	.result = "time",
	.run = wl_time,
	.show = show_time,
};
