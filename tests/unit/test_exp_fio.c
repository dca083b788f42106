/*
 * exp/wl_fio.c, the fio workload kind, through the executor with a fake
 * fio first in PATH (a shell script that copies a fixture of real fio
 * output, tests/fixtures/fio/, to the --output file): its check refuses
 * what it must before the first visit (fio not in PATH, --output and
 * --output-format and their prefixes, no job, --parse-only's refusal),
 * fio --parse-only once per argument string; a run stores fio's job and
 * the experiment reads fio's bw_bytes and iops back; text, cut, two-job
 * and error output fail the point with nothing stored in runs; fio
 * failing shows its stderr escaped.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exp/exp.h"
#include "exp/plan.h"
#include "store/exp_store.h"
#include "analysis/exp_load.h"
#include "analysis/experiment.h"
#include "store/history.h"
#include "results/fio_read.h"
#include "tap.h"

static char dir[] = "/tmp/clyde-test-exp-fio.XXXXXX";
static char db[600], locks[600], bin[600], empty[600], said[8192];

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0 || chmod(path, mode))
		abort();
}

static int rm_entry(const char *p, const struct stat *st, int flag,
		    struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void on_say(void *arg, const char *msg)
{
	(void)arg;
	if (strlen(said) + strlen(msg) + 2 < sizeof(said)) {
		strcat(said, msg);
		strcat(said, "\n");
	}
}

/* check() of the fio kind, its message in err. */
static int check(const char *args, char *err, size_t len)
{
	err[0] = '\0';
	return clyde_exp_wl_builtin(CLYDE_SWEEP_FIO)
		->check(args, NULL, err, len);
}

/* How many times the fake fio was run with --parse-only. */
static size_t parse_only_runs(void)
{
	char path[700];
	struct stat st;

	snprintf(path, sizeof(path), "%s/parse-only", dir);
	return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

/* Run a one-point experiment of `fio = ARGS` with the fixture `fixture`
 * as fio's output; its outcome in *out, the experiment in *e. */
static int sweep(struct clyde_history *h, const char *fixture,
		 struct clyde_exp_outcome *out, struct clyde_exp *e)
{
	static const char text[] = "[experiment]\nname = fio\nrepeat = 1\n"
				   "axis a = 1\n[workload f]\n"
				   "fio = --name=rr --rw=randread\n";
	struct clyde_exp_config cfg;
	struct clyde_sweep s;
	struct clyde_ctx c;
	int rc;

	setenv("FAKE_FIO_OUT", fixture, 1);
	said[0] = '\0';
	memset(out, 0, sizeof(*out));
	memset(e, 0, sizeof(*e));
	clyde_ctx_init(&c);
	if (clyde_sweep_parse(&c, "t.ini", text, strlen(text), NULL, 0, &s) <
	    0) {
		fprintf(stderr, "parse: %s\n", clyde_errmsg(&c));
		clyde_ctx_release(&c);
		return -1;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.exe = "/nonexistent/clyde";
	cfg.tmp_parent = dir;
	cfg.lock_dir = locks;
	cfg.file = "t.ini";
	cfg.text = text;
	cfg.hooks.say = on_say;
	rc = clyde_exp_check(&c, &s, &cfg);
	if (rc == 0)
		rc = clyde_exp_execute(&c, &s, h, &cfg, out);
	if (rc == 0 && out->id)
		rc = clyde_history_load_experiment(&c, h, out->id, e);
	if (rc < 0)
		snprintf(said + strlen(said), sizeof(said) - strlen(said),
			 "error: %s\n", clyde_errmsg(&c));
	clyde_sweep_release(&s);
	clyde_ctx_release(&c);
	return rc;
}

/* The mean of metric key at point 0, or -1. */
static double mean_of(const struct clyde_exp *e, const char *key)
{
	for (size_t m = 0; m < e->nmetrics; m++) {
		const struct clyde_exp_cell *cl;

		if (strcmp(e->metrics[m].key, key) || e->npoints < 1)
			continue;
		cl = &e->points[0].cells[m];
		return cl->n == 1 ? cl->samples[0] : -1;
	}
	return -1;
}

/* The runs in the history (clyde results and fio jobs). */
static size_t history_runs(struct clyde_history *h)
{
	struct clyde_history_entry *ent = NULL;
	struct clyde_ctx c;
	size_t n = 0;

	clyde_ctx_init(&c);
	if (clyde_history_list(&c, h, 0, &ent, &n) < 0)
		n = 0;
	clyde_history_entries_free(ent, n);
	clyde_ctx_release(&c);
	return n;
}

/* A fixture's text, and its first job's read figures. */
static char *fixture(const char *name, size_t *len)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/fio/%s", CLYDE_FIXTURES_DIR, name);
	return clyde_exp_slurp(path, len);
}

int main(void)
{
	struct clyde_history *h = NULL;
	struct clyde_exp_outcome out;
	struct clyde_fio_result res;
	struct clyde_exp e;
	struct clyde_ctx c;
	char path[700], err[1024], script[2048], *t, *p;
	unsigned long line = 0;
	size_t len = 0, off = 0, before;

#ifndef CLYDE_HAVE_INIH
	tap_skip_all("built without libinih: no experiment file is read");
#endif
#ifndef CLYDE_HAVE_SQLITE
	tap_skip_all("built without SQLite: no history to store runs in");
#endif
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof(db), "%s/h.db", dir);
	snprintf(locks, sizeof(locks), "%s/locks", dir);
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	mkdir(bin, 0755);
	mkdir(empty, 0755);
	/* The fake fio: --parse-only answers $FAKE_PARSE_RC (counted);
	 * else it records its arguments and writes $FAKE_FIO_OUT to the
	 * --output file, or fails with an escape on stderr. */
	snprintf(
		script, sizeof(script),
		"#!/bin/sh\nout=\nfor a; do case $a in\n"
		"--parse-only) printf x >>%s/parse-only\n"
		"  [ -z \"$FAKE_PARSE_ERR\" ] || echo \"$FAKE_PARSE_ERR\" >&2\n"
		"  exit ${FAKE_PARSE_RC:-0} ;;\n"
		"--output=*) out=${a#--output=} ;;\nesac; done\n"
		"echo \"$*\" >%s/args\n"
		"if [ \"$FAKE_FIO_OUT\" = fail ]; then\n"
		"  printf 'fio: \\033[31mboom\\n' >&2; exit 1; fi\n"
		"cp \"$FAKE_FIO_OUT\" \"$out\"\n",
		dir, dir);
	snprintf(path, sizeof(path), "%s/fio", bin);
	write_file(path, script, 0755);
	snprintf(path, sizeof(path), "%s:/usr/bin:/bin", bin);
	setenv("PATH", path, 1);

	/* ---- check, before the first visit ---- */
	CHECK(check("--name=x --rw=read", err, sizeof(err)) == 0);
	CHECK(parse_only_runs() == 1);
	/* The same arguments at another point: fio is not asked again. */
	CHECK(check("--name=x --rw=read", err, sizeof(err)) == 0);
	CHECK(parse_only_runs() == 1);
	CHECK(check("--name=x --rw=write", err, sizeof(err)) == 0);
	CHECK(parse_only_runs() == 2);
	CHECK(check("--name=x --output=y.json", err, sizeof(err)) == -1);
	CHECK_STR(err, "--output=y.json: the sweep gives fio its own output "
		       "file; leave it out");
	CHECK(check("--name=x --output-format=normal", err, sizeof(err)) == -1);
	CHECK(strstr(err, "the sweep asks fio for json+ itself") != NULL);
	CHECK(check("--name=x --outp=y", err, sizeof(err)) == -1);
	CHECK(check("--name=x -output-format=terse", err, sizeof(err)) == -1);
	CHECK(check("--name=x --minimal", err, sizeof(err)) == -1);
	CHECK(check("--name=x --status-interval=1", err, sizeof(err)) == -1);
	CHECK(check("--name=x --version", err, sizeof(err)) == -1);
	CHECK(check("--name=x --client=h", err, sizeof(err)) == -1);
	/* Not prefixes of a refused option. */
	CHECK(check("--name=x --stats=0 --verify=md5 --serialize_overlap=1",
		    err, sizeof(err)) == 0);
	CHECK(check("--rw=read --size=1m", err, sizeof(err)) == -1);
	CHECK(strstr(err, "no job: give --name=NAME") != NULL);
	/* A job file the setup makes: checked when it runs. */
	CHECK(check("/nonexistent/job.fio", err, sizeof(err)) == 1);
	CHECK(check("--name=x $NOT_SET_ANYWHERE", err, sizeof(err)) == 1);
	setenv("FAKE_PARSE_RC", "1", 1);
	setenv("FAKE_PARSE_ERR", "fio: failed parsing rw=bogus", 1);
	CHECK(check("--name=x --rw=bogus", err, sizeof(err)) == -1);
	CHECK_STR(err, "fio --parse-only: failed parsing rw=bogus");
	unsetenv("FAKE_PARSE_RC");
	unsetenv("FAKE_PARSE_ERR");
	/* At a visit (the scratch directory asked for): no fio run. */
	{
		char *d = (char *)"x";

		before = parse_only_runs();
		CHECK(clyde_exp_wl_builtin(CLYDE_SWEEP_FIO)
			      ->check("--name=x", &d, err, sizeof(err)) == 0);
		CHECK(d == NULL && parse_only_runs() == before);
	}
	snprintf(path, sizeof(path), "%s", getenv("PATH"));
	setenv("PATH", empty, 1);
	CHECK(check("--name=x", err, sizeof(err)) == -1);
	CHECK_STR(err, "fio is not installed (no fio in PATH); install "
		       "Debian's fio package");
	setenv("PATH", path, 1);

	clyde_ctx_init(&c);
	if (clyde_history_open(&c, db, true, &h) < 0) {
		fprintf(stderr, "%s\n", clyde_errmsg(&c));
		return 1;
	}

	/* ---- a run: fio's job stored, its figures read back ---- */
	snprintf(path, sizeof(path), "%s/fio/fio-randread-plus.json",
		 CLYDE_FIXTURES_DIR);
	t = fixture("fio-randread-plus.json", &len);
	CHECK(t && clyde_fio_sniff(t, len, &off) == CLYDE_FIO_JSON);
	CHECK(clyde_fio_parse(t, len, off, &res, err, 200, &line) == 0);
	CHECK(sweep(h, path, &out, &e) == 0);
	CHECK(out.end == CLYDE_EXP_DONE && out.nfailed == 0);
	CHECK(history_runs(h) == 1);
	CHECK(mean_of(&e, "f.randread") ==
	      (double)res.jobs[0].dir[CLYDE_FIO_READ].bw_bytes);
	CHECK(mean_of(&e, "f.randread IOPS") ==
	      res.jobs[0].dir[CLYDE_FIO_READ].iops);
	clyde_fio_result_release(&res);
	free(t);
	clyde_exp_release(&e);
	free(out.id);
	snprintf(path, sizeof(path), "%s/args", dir);
	t = clyde_exp_slurp(path, NULL);
	CHECK(t && !strncmp(t, "--output=", 9) &&
	      strstr(t, "/fio.json --output-format=json+ --name=rr "
			"--rw=randread") != NULL);
	free(t);

	/* ---- bad output: a failed point, nothing stored ---- */
	before = history_runs(h);
	snprintf(path, sizeof(path), "%s/fio/fio-randread.txt",
		 CLYDE_FIXTURES_DIR);
	CHECK(sweep(h, path, &out, &e) == 0);
	CHECK(out.end == CLYDE_EXP_STOPPED && out.nfailed == 1);
	CHECK(strstr(said, "workload f: fio wrote its normal (text) output "
			   "to ") != NULL);
	CHECK(history_runs(h) == before);
	clyde_exp_release(&e);
	free(out.id);

	/* Cut short. */
	t = fixture("fio-randread-plus.json", &len);
	snprintf(path, sizeof(path), "%s/cut.json", dir);
	if (t)
		t[len / 2] = '\0';
	write_file(path, t ? t : "", 0644);
	free(t);
	CHECK(sweep(h, path, &out, &e) == 0);
	CHECK(out.nfailed == 1 && strstr(said, "ends early") != NULL);
	CHECK(strstr(said, "nothing stored") != NULL);
	CHECK(history_runs(h) == before);
	clyde_exp_release(&e);
	free(out.id);

	/* Two jobs: one result per fio workload. */
	snprintf(path, sizeof(path), "%s/fio/fio-two-jobs.json",
		 CLYDE_FIXTURES_DIR);
	CHECK(sweep(h, path, &out, &e) == 0);
	CHECK(out.nfailed == 1 &&
	      strstr(said, "fio reported 2 jobs; a fio workload stores "
			   "one") != NULL);
	CHECK(history_runs(h) == before);
	clyde_exp_release(&e);
	free(out.id);

	/* A job that ended with an error. */
	t = fixture("fio-randread.json", &len);
	p = t ? strstr(t, "\"error\" : 0") : NULL;
	CHECK(p != NULL);
	if (p)
		p[10] = '5';
	snprintf(path, sizeof(path), "%s/error.json", dir);
	write_file(path, t ? t : "", 0644);
	free(t);
	CHECK(sweep(h, path, &out, &e) == 0);
	CHECK(out.nfailed == 1 && strstr(said, ": error 5 (") != NULL);
	CHECK(history_runs(h) == before);
	clyde_exp_release(&e);
	free(out.id);

	/* fio failing: its exit status, its stderr escaped. */
	CHECK(sweep(h, "fail", &out, &e) == 0);
	CHECK(out.nfailed == 1 &&
	      strstr(said, "workload f: fio --name=rr --rw=randread: exit "
			   "status 1\n") != NULL);
	CHECK(strstr(said, "    fio: \\x1b[31mboom") != NULL);
	CHECK(strchr(said, '\033') == NULL);
	CHECK(history_runs(h) == before);
	clyde_exp_release(&e);
	free(out.id);

	clyde_history_close(h);
	clyde_ctx_release(&c);
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
