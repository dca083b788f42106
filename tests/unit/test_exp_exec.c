/*
 * exp/exec: the experiment executor driven with fake workloads and a fake
 * sysfs root, running no command: the writes are made before the
 * workloads and restored after every visit, every run is stored, a
 * failure stops the experiment (or not, with keep-going), an interruption
 * restores and stops, a path that leads out of /sys is refused before the
 * first visit, a second sweep on a knob is refused naming the holder,
 * --resume undoes a crashed visit's journal, and until-stable stops when
 * the rule (clyde_stats_settled) says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stats.h"
#include "exp/exp.h"
#include "exp/exp_internal.h"
#include "exp/plan.h"
#include "store/exp_store.h"
#include "store/history.h"
#include "tap.h"

static char dir[] = "/tmp/clyde-test-exp-exec.XXXXXX";
static char root[512], knob[600], db[600], locks[600];

/* What the fake workload saw and does. */
static struct {
	struct clyde_sweep *s;
	char seen[64][32]; /* the knob's value at each run */
	size_t nseen;
	size_t fail_at; /* fail the run with this number (1-based), 0: none */
	size_t interrupt_at;
	bool vary; /* elapsed times that never settle */
	volatile sig_atomic_t stop;
	int nested_rc; /* a second executor run from inside a run */
	char nested_msg[CLYDE_ERR_MAX];
	bool nest;
} fake;

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
}

static char *read_file(const char *path)
{
	char *t = clyde_exp_slurp(path, NULL);

	if (t)
		t[strcspn(t, "\n")] = '\0';
	return t;
}

static int nested(void);

static int rm_entry(const char *p, const struct stat *st, int flag,
		    struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static int fake_run(const struct clyde_exp_wl_call *c,
		    struct clyde_exp_wl_result *r)
{
	char *v = read_file(knob);
	size_t n = ++fake.nseen;
	unsigned long long ns = 1000000000ull;

	if (n <= 64)
		snprintf(fake.seen[n - 1], sizeof(fake.seen[0]), "%s",
			 v ? v : "?");
	free(v);
	if (fake.nest) {
		fake.nest = false;
		fake.nested_rc = nested();
	}
	if (n == fake.fail_at) {
		r->failed = true;
		snprintf(r->message, sizeof(r->message), "workload %s: fake",
			 c->w->name);
		return 0;
	}
	if (n == fake.interrupt_at) {
		fake.stop = 1;
		return -EINTR;
	}
	if (fake.vary)
		ns = n % 2 ? 1000000000ull : 3000000000ull;
	if (asprintf(&r->doc,
		     "{\"kind\": \"timed\", \"workload\": \"%s\", \"command\": "
		     "\"fake\", \"exit_status\": 0, \"elapsed_ns\": %llu, "
		     "\"cpu_user_ns\": 0, \"cpu_sys_ns\": 0}",
		     c->w->name, ns) < 0)
		return -ENOMEM;
	r->len = strlen(r->doc);
	return 0;
}

static int fake_check(const char *args, char **d, char *err, size_t len)
{
	if (d)
		*d = NULL;
	if (strstr(args, "--bogus")) {
		snprintf(err, len, "unknown option \"--bogus\"");
		return -1;
	}
	return 0;
}

static const struct clyde_exp_wl_ops fake_ops = {
	.name = "time",
	.result = "time",
	.check = fake_check,
	.run = fake_run,
};
static const struct clyde_exp_wl_ops *const ops[CLYDE_SWEEP_KINDS] = {
	&fake_ops, &fake_ops, &fake_ops, &fake_ops
};

static char said[8192];

static void on_say(void *arg, const char *msg)
{
	(void)arg;
	if (strlen(said) + strlen(msg) + 2 < sizeof(said)) {
		strcat(said, msg);
		strcat(said, "\n");
	}
}

static void config(struct clyde_exp_config *cfg, const char *text)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->exe = "/nonexistent/clyde"; /* never run */
	cfg->tmp_parent = dir;
	cfg->root = root;
	cfg->lock_dir = locks;
	cfg->file = "t.ini";
	cfg->text = text;
	cfg->ops = ops;
	cfg->hooks.say = on_say;
}

static int parse(struct clyde_ctx *c, const char *text, struct clyde_sweep *s)
{
	int rc = clyde_sweep_parse(c, "t.ini", text, strlen(text), NULL, 0, s);

	fake.s = s;
	return rc;
}

/* The stored runs of an experiment: how many, how many ok. */
static size_t stored(struct clyde_history *h, const char *id, size_t *ok)
{
	struct clyde_ctx c;
	struct clyde_exp_done *d = NULL;
	size_t n = 0;

	clyde_ctx_init(&c);
	*ok = 0;
	if (clyde_exp_store_runs(&c, h, id, &d, &n) < 0)
		n = 0;
	for (size_t i = 0; i < n; i++)
		*ok += d[i].ok;
	free(d);
	clyde_ctx_release(&c);
	return n;
}

static const char plan[] = "[experiment]\n"
			   "name = fake\n"
			   "repeat = 2\n"
			   "axis ra = 16 32\n"
			   "[point]\n"
			   "set /sys/block/fake0/queue/read_ahead_kb = {ra}\n"
			   "[workload w]\n"
			   "time = fake\n";

/* Run plan text (with keep-going as given); the outcome in *out. */
static int run(struct clyde_history *h, const char *text, bool keep_going,
	       const char *resume, struct clyde_exp_outcome *out)
{
	struct clyde_exp_config cfg;
	struct clyde_sweep s;
	struct clyde_ctx c;
	int rc;

	clyde_ctx_init(&c);
	c.interrupted = &fake.stop;
	fake.stop = 0;
	fake.nseen = 0;
	said[0] = '\0';
	if (parse(&c, text, &s) < 0) {
		fprintf(stderr, "parse: %s\n", clyde_errmsg(&c));
		clyde_ctx_release(&c);
		return -1;
	}
	config(&cfg, text);
	cfg.keep_going = keep_going;
	cfg.resume_id = resume;
	rc = clyde_exp_check(&c, &s, &cfg);
	if (rc == 0)
		rc = clyde_exp_execute(&c, &s, h, &cfg, out);
	else
		memset(out, 0, sizeof(*out));
	if (rc < 0)
		snprintf(said + strlen(said), sizeof(said) - strlen(said),
			 "error: %s\n", clyde_errmsg(&c));
	clyde_sweep_release(&s);
	clyde_ctx_release(&c);
	return rc;
}

/* From inside a run: a second experiment on the same knob. */
static int nested(void)
{
	struct clyde_exp_config cfg;
	struct clyde_exp_outcome out;
	struct clyde_history *h2 = NULL;
	struct clyde_sweep s;
	struct clyde_ctx c;
	char db2[700];
	int rc;

	clyde_ctx_init(&c);
	snprintf(db2, sizeof(db2), "%s/h2.db", dir);
	if (clyde_history_open(&c, db2, true, &h2) < 0 ||
	    clyde_sweep_parse(&c, "t.ini", plan, strlen(plan), NULL, 0, &s) <
		    0) {
		clyde_history_close(h2);
		clyde_ctx_release(&c);
		return 0;
	}
	config(&cfg, plan);
	rc = clyde_exp_execute(&c, &s, h2, &cfg, &out);
	snprintf(fake.nested_msg, sizeof(fake.nested_msg), "%s%s",
		 rc < 0 && out.refused_usage ? "usage: " : "",
		 clyde_errmsg(&c));
	free(out.id);
	clyde_sweep_release(&s);
	clyde_history_close(h2);
	clyde_ctx_release(&c);
	return rc;
}

/* The work directory goes with whatever a killed child left in it (a
 * clyde run's half-written .result.json.tmp.*), and a symbolic link in it
 * is removed without touching what it names. */
static void test_rm_tmpdir(void)
{
	char wd[700], p[800], outside[700];
	struct stat st;

	snprintf(wd, sizeof(wd), "%s/work", dir);
	snprintf(outside, sizeof(outside), "%s/outside", dir);
	CHECK(mkdir(wd, 0700) == 0);
	write_file(outside, "keep\n");
	snprintf(p, sizeof(p), "%s/result.json", wd);
	write_file(p, "{}");
	snprintf(p, sizeof(p), "%s/.result.json.tmp.Ab12Cd", wd);
	write_file(p, "{\"half");
	snprintf(p, sizeof(p), "%s/link", wd);
	CHECK(symlink(outside, p) == 0);
	exp_rm_tmpdir(wd);
	CHECK(stat(wd, &st) < 0 && errno == ENOENT);
	CHECK(stat(outside, &st) == 0 && S_ISREG(st.st_mode));
}

int main(void)
{
	struct clyde_history *h = NULL;
	struct clyde_exp_outcome out;
	struct clyde_ctx c;
	char path[700], *v;
	size_t n, ok;

	if (!mkdtemp(dir))
		return 1;
	snprintf(root, sizeof(root), "%s/root", dir);
	snprintf(locks, sizeof(locks), "%s/locks", dir);
	snprintf(db, sizeof(db), "%s/h.db", dir);
	/* The fake sysfs, made without a shell. */
	{
		const char *parts[] = { "", "/sys", "/sys/block",
					"/sys/block/fake0",
					"/sys/block/fake0/queue" };

		for (size_t i = 0; i < 5; i++) {
			snprintf(path, sizeof(path), "%s%s", root, parts[i]);
			mkdir(path, 0755);
		}
	}
	test_rm_tmpdir();
	snprintf(knob, sizeof(knob), "%s/sys/block/fake0/queue/read_ahead_kb",
		 root);
	write_file(knob, "128\n");
	snprintf(path, sizeof(path), "%s/sys/block/fake0/dev", root);
	write_file(path, "250:7\n");
	clyde_ctx_init(&c);
#ifndef CLYDE_HAVE_INIH
	tap_skip_all("built without libinih: no experiment file is read");
#endif
#ifndef CLYDE_HAVE_SQLITE
	tap_skip_all("built without SQLite: no history to store runs in");
#endif
	if (clyde_history_open(&c, db, true, &h) < 0) {
		fprintf(stderr, "%s\n", clyde_errmsg(&c));
		return 1;
	}

	/* Two points, two repeats: each run sees its point's value, and the
	 * knob is back after every visit. */
	CHECK(run(h, plan, false, NULL, &out) == 0);
	CHECK(out.end == CLYDE_EXP_DONE && out.nfailed == 0);
	CHECK(fake.nseen == 4);
	CHECK_STR(fake.seen[0], "16");
	CHECK_STR(fake.seen[1], "32");
	CHECK_STR(fake.seen[2], "16");
	CHECK_STR(fake.seen[3], "32");
	CHECK_STR((v = read_file(knob)), "128");
	free(v);
	CHECK(stored(h, out.id, &ok) == 4 && ok == 4);
	CHECK(strstr(said, "experiment ") != NULL);
	free(out.id);

	/* A failed run stops the experiment after its restore. */
	fake.fail_at = 2;
	CHECK(run(h, plan, false, NULL, &out) == 0);
	CHECK(out.end == CLYDE_EXP_STOPPED && out.nfailed == 1);
	CHECK(fake.nseen == 2);
	CHECK(strstr(out.first_failure, "point 2 (ra=32) repeat 1") != NULL);
	CHECK_STR((v = read_file(knob)), "128");
	free(v);
	/* The failed run is stored once, as failed (the visit's failure
	 * row used to repeat the workload's), the first one ok. */
	n = stored(h, out.id, &ok);
	CHECK(n == 2 && ok == 1);
	free(out.id);
	/* With keep-going the next points follow. */
	CHECK(run(h, plan, true, NULL, &out) == 0);
	CHECK(out.end == CLYDE_EXP_DONE && out.nfailed == 1);
	CHECK(fake.nseen == 4);
	free(out.id);
	fake.fail_at = 0;

	/* An interruption: restored, stopped. */
	fake.interrupt_at = 3;
	CHECK(run(h, plan, false, NULL, &out) == 0);
	CHECK(out.end == CLYDE_EXP_INTERRUPTED);
	CHECK_STR((v = read_file(knob)), "128");
	free(v);
	fake.interrupt_at = 0;
	/* ... and --resume runs only what is left. */
	{
		char *id = out.id;

		CHECK(run(h, plan, false, id, &out) == 0);
		CHECK(out.end == CLYDE_EXP_DONE);
		CHECK(fake.nseen == 2);
		CHECK(stored(h, id, &ok) == 4 && ok == 4);
		free(out.id);
		free(id);
	}

	/* A crash inside a visit: its journal says what to undo, and
	 * --resume writes the old value back first. */
	fake.interrupt_at = 1;
	CHECK(run(h, plan, false, NULL, &out) == 0);
	fake.interrupt_at = 0;
	{
		char jpath[800], line[2000];
		char *id = out.id;

		write_file(knob, "999\n");
		snprintf(jpath, sizeof(jpath), "%s.sweep-%s.journal", db, id);
		snprintf(line, sizeof(line),
			 "visit\t0\t1\nset\t%s\t128\nwant\t%s\t999\n", knob,
			 knob);
		write_file(jpath, line);
		CHECK(run(h, plan, false, id, &out) == 0);
		CHECK(out.end == CLYDE_EXP_DONE);
		CHECK(strstr(said, "restored ") != NULL);
		CHECK(access(jpath, F_OK) < 0);
		/* The first value seen after the resume is a point's, and
		 * the knob ends as it was before the crash. */
		CHECK_STR((v = read_file(knob)), "128");
		free(v);
		free(out.id);
		free(id);
	}

	/* The knob changed since clyde wrote it (someone set 777 after
	 * the crash): --resume leaves it, says so, and the journal goes. */
	fake.interrupt_at = 1;
	CHECK(run(h, plan, false, NULL, &out) == 0);
	fake.interrupt_at = 0;
	{
		char jpath[800], line[2000];
		char *id = out.id;

		write_file(knob, "777\n");
		snprintf(jpath, sizeof(jpath), "%s.sweep-%s.journal", db, id);
		snprintf(line, sizeof(line),
			 "visit\t0\t1\nset\t%s\t128\nwant\t%s\t999\n"
			 "now\t%s\t999\n",
			 knob, knob, knob);
		write_file(jpath, line);
		said[0] = '\0';
		CHECK(run(h, plan, false, id, &out) == 0);
		CHECK(strstr(said, "holds 777, not the 999 clyde wrote") !=
		      NULL);
		CHECK(strstr(said, "restored ") == NULL);
		CHECK(access(jpath, F_OK) < 0);
		free(out.id);
		free(id);
	}
	/* The resumed visits put back the 777 they found. */
	CHECK_STR((v = read_file(knob)), "777");
	free(v);

	/* A path that leads out of /sys is refused before anything runs. */
	{
		static const char text[] =
			"[experiment]\nname = out\nrepeat = 1\naxis a = 1\n"
			"[point]\nset /sys/evil/x = 1\n"
			"[workload w]\ntime = fake\n";

		snprintf(path, sizeof(path), "%s/sys/evil", root);
		CHECK(symlink(dir, path) == 0);
		write_file(knob, "128\n");
		snprintf(path, sizeof(path), "%s/x", dir);
		write_file(path, "keep\n");
		CHECK(run(h, text, false, NULL, &out) < 0);
		CHECK(strstr(said, "t.ini:6: point 1: set /sys/evil/x: leads "
				   "to") != NULL);
		CHECK(fake.nseen == 0);
		CHECK_STR((v = read_file(path)), "keep");
		free(v);
	}

	/* The workload options are checked at every point before the
	 * first visit. */
	{
		char t2[256];

		snprintf(t2, sizeof(t2), "%s",
			 "[experiment]\nname = opt\nrepeat = 1\naxis a = ok "
			 "--bogus\n[workload w]\ntime = fake {a}\n");
		CHECK(run(h, t2, false, NULL, &out) < 0);
		CHECK(strstr(said, "t.ini:6: workload w, point 2: unknown "
				   "option") != NULL);
		CHECK(fake.nseen == 0);
	}

	/* A second experiment on the same knob, while the first holds it,
	 * is refused with a line naming the holder. */
	fake.nest = true;
	CHECK(run(h, plan, false, NULL, &out) == 0);
	CHECK(fake.nested_rc < 0);
	{
		char want[700];

		snprintf(want, sizeof(want), "usage: %s", knob);
		CHECK(strncmp(fake.nested_msg, want, strlen(want)) == 0);
		snprintf(want, sizeof(want), "in use by clyde sweep pid %ld",
			 (long)getpid());
		CHECK(strstr(fake.nested_msg, want) != NULL);
	}
	free(out.id);

	/* until-stable: equal times settle after CLYDE_STATS_SETTLE_MIN_N
	 * rounds; times that differ run to max-runs. */
	{
		static const char text[] =
			"[experiment]\nname = st\nuntil-stable = 5\n"
			"max-runs = 6\naxis a = 1\n[workload w]\n"
			"time = fake\n";

		CHECK(run(h, text, false, NULL, &out) == 0);
		CHECK(fake.nseen == CLYDE_STATS_SETTLE_MIN_N);
		free(out.id);
		fake.vary = true;
		CHECK(run(h, text, false, NULL, &out) == 0);
		CHECK(fake.nseen == 6);
		free(out.id);
		fake.vary = false;
	}

	clyde_history_close(h);
	clyde_ctx_release(&c);
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
