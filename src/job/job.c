/* What every job shares: its messages, its notes, its end (job.h). */
#include "job/job.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/vis.h"
#include "io/scratch.h"
#include "store/history.h"

/* The room for one line said: a message with two escaped paths. */
#define LINE_MAX_LEN (4 * PATH_MAX + 1024)

void clyde_job_init(struct clyde_job *j, const char *who,
		    const struct clyde_job_ui *ui, struct clyde_dist *dist)
{
	memset(j, 0, sizeof(*j));
	j->who = who;
	j->ui = ui;
	clyde_ctx_init(&j->ctx);
	j->ctx.interrupted = ui->interrupted;
	j->rd.d = dist;
	j->rd.st = (struct clyde_run_dist_status){
		.usage = CLYDE_JOB_USAGE,
		.failed = CLYDE_JOB_FAILED,
		.interrupted = CLYDE_JOB_INTERRUPTED,
	};
}

int clyde_job_finish(struct clyde_job *j, int status)
{
	status = clyde_run_dist_finish(&j->rd, &j->ctx, status);
	clyde_ctx_release(&j->ctx);
	return status;
}

void clyde_job_say_line(const struct clyde_job *j, const char *line)
{
	if (j->ui->say)
		j->ui->say(j->ui->arg, line);
}

void clyde_job_say(const struct clyde_job *j, const char *fmt, ...)
{
	char line[LINE_MAX_LEN];
	int n = snprintf(line, sizeof(line), "%s: ", j->who);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	clyde_job_say_line(j, line);
}

bool clyde_job_interrupted(const struct clyde_job *j)
{
	return j->ui->interrupted && *j->ui->interrupted;
}

bool clyde_job_closed(const struct clyde_job *j)
{
	return j->ui->closed && *j->ui->closed;
}

uint64_t clyde_job_seed(void)
{
	return ((uint64_t)time(NULL) ^ (uint64_t)getpid()) & 0xffffffffu;
}

int clyde_job_dist_failed(struct clyde_job *j, int ret)
{
	int status = clyde_run_dist_failed(&j->rd, &j->ctx, ret);

	if (j->rd.msg[0]) {
		char line[CLYDE_RUN_DIST_MSG + 16];

		snprintf(line, sizeof(line), "clyde-mpi: %s", j->rd.msg);
		clyde_job_say_line(j, line);
	}
	return status;
}

void clyde_job_put_quoted(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

#define PUT(c)                          \
	do {                            \
		if (n + 1 < len)        \
			buf[n++] = (c); \
	} while (0)
	PUT('\'');
	for (; *s; s++) {
		if (*s == '\'') {
			PUT('\'');
			PUT('\\');
			PUT('\'');
		}
		PUT(*s);
	}
	PUT('\'');
#undef PUT
	buf[n < len ? n : len - 1] = '\0';
}

void clyde_job_note_stale_tmp(const struct clyde_job *j, const char *prog,
			      const char *path)
{
	char **names = NULL;
	size_t n = 0;

	if (clyde_outfile_find_stale(path, &names, &n) == 0)
		for (size_t i = 0; i < n; i++) {
			char line[LINE_MAX_LEN], a[2 * PATH_MAX],
				b[2 * PATH_MAX];

			/* The names come from the command line: escaped. */
			snprintf(line, sizeof(line),
				 "%s: note: %s is the temporary file of a "
				 "write to %s that never finished (a killed "
				 "clyde), unless another clyde writes it now; "
				 "remove it with: rm -- ",
				 prog, clyde_vis(a, sizeof(a), names[i], 0),
				 clyde_vis(b, sizeof(b), path, 0));
			clyde_job_put_quoted(line, sizeof(line), names[i]);
			clyde_job_say_line(j, line);
		}
	clyde_outfile_free_names(names, n);
}

void clyde_job_note_stale(const struct clyde_job *j,
			  const struct clyde_scratch *scratch, const char *dir)
{
	struct clyde_ctx q;
	char **names = NULL;
	size_t n = 0;

	clyde_ctx_init(&q);
	if (clyde_scratch_find_stale(&q, scratch->parentfd, &names, &n) == 0)
		for (size_t i = 0; i < n; i++) {
			char line[LINE_MAX_LEN];
			size_t l;

			snprintf(line, sizeof(line),
				 "clyde: note: %s/%s was left by a clyde run "
				 "that is gone; remove it with: rm -rf -- ",
				 dir, names[i]);
			clyde_job_put_quoted(line, sizeof(line), dir);
			l = strlen(line);
			snprintf(line + l, sizeof(line) - l, "/%s", names[i]);
			clyde_job_say_line(j, line);
		}
	clyde_scratch_free_names(names, n);
	clyde_ctx_release(&q);
}

/* How long a save waits for a history another process holds:
 * CLYDE_HISTORY_WAIT seconds, else HISTORY_WAIT_S. */
#define HISTORY_WAIT_S 120

static unsigned history_wait_ms(void)
{
	const char *v = getenv("CLYDE_HISTORY_WAIT");
	char *end;
	unsigned long s;

	if (!v || !*v)
		return HISTORY_WAIT_S * 1000u;
	errno = 0;
	s = strtoul(v, &end, 10);
	if (errno || *end || s == 0 || s > 86400)
		return HISTORY_WAIT_S * 1000u;
	return (unsigned)s * 1000u;
}

static void say_waiting(void *arg, const char *path, unsigned max_ms)
{
	char vis[PATH_MAX + 64];

	clyde_job_say(arg,
		      "the results history %s is busy (another process "
		      "is writing to it); waiting up to %u s to save the "
		      "result",
		      clyde_vis(vis, sizeof(vis), path, 0), max_ms / 1000);
}

void clyde_job_history_wait(const struct clyde_job *j,
			    struct clyde_history_wait *w)
{
	w->max_ms = history_wait_ms();
	w->waiting = say_waiting;
	w->arg = (void *)(uintptr_t)j;
}

int clyde_job_history_spill(const struct clyde_job *j, const char *db,
			    const char *doc, size_t len, unsigned max_ms)
{
	char path[PATH_MAX + 64], vis[PATH_MAX + 64], line[LINE_MAX_LEN];
	struct clyde_ctx sctx;
	size_t l;

	clyde_ctx_init(&sctx);
	if (clyde_history_spill(&sctx, db, doc, len, path, sizeof(path)) < 0) {
		clyde_job_say(j,
			      "the results history stayed busy for %u s and "
			      "the result could not be written beside it "
			      "either: %s",
			      max_ms / 1000,
			      clyde_vis(vis, sizeof(vis), clyde_errmsg(&sctx),
					0));
		clyde_ctx_release(&sctx);
		return -1;
	}
	clyde_ctx_release(&sctx);
	snprintf(line, sizeof(line),
		 "%s: the results history stayed busy for %u s: the result "
		 "was written to %s instead; store it with: clyde history ",
		 j->who, max_ms / 1000, clyde_vis(vis, sizeof(vis), path, 0));
	if (db) {
		l = strlen(line);
		snprintf(line + l, sizeof(line) - l, "--db ");
		clyde_job_put_quoted(line, sizeof(line), db);
		l = strlen(line);
		snprintf(line + l, sizeof(line) - l, " ");
	}
	l = strlen(line);
	snprintf(line + l, sizeof(line) - l, "import ");
	clyde_job_put_quoted(line, sizeof(line), path);
	clyde_job_say_line(j, line);
	return -1;
}
