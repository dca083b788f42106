/*
 * store/exp_store and report/exp_load: an experiment stored in a temporary history and loaded
 * back as the analysis model (struct clyde_exp): axes, points in file
 * order, one metric per figure with the samples in run order, failed
 * points, the per-point configuration, timed documents, the runs list
 * resume reads.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/exp_load.h"
#include "results/result.h"
#include "store/exp_store.h"
#include "tap.h"

static char tmpdir[] = "/tmp/clyde-test-exp-store.XXXXXX";

/* When set, the done test of the next document was measured while an md
 * array lost a member ("degraded_during"). */
static const char *doc_degraded;
/* When set, the done test of the next document ran on an async NFS
 * export (its nfs object's "inflated_by"). */
static bool doc_inflated;

/* A clyde JSON result with one test done: test number `done` (0 putc, 1
 * put_block, ...) at `rate`. */
static char *bonnie_doc_test(int done, double rate)
{
	static const char *const names[] = {
		"putc",	     "put_block",  "rewrite",	 "getc",
		"get_block", "seeks",	   "seq_create", "seq_stat",
		"seq_del",   "ran_create", "ran_stat",	 "ran_del",
	};
	char *tests = strdup(""), *doc = NULL;

	for (int i = 0; i < 12; i++) {
		char *t = NULL, *next = NULL;

		if (i == done) {
			if (asprintf(&t,
				     "{\"name\": \"%s\", \"state\": "
				     "\"done\", \"note\": null, \"bytes\": 1, "
				     "\"ops\": 1, \"elapsed_ns\": 1000000000, "
				     "\"cpu_user_ns\": 1, \"cpu_sys_ns\": 1, "
				     "\"rate_per_s\": %.17g, \"rate_unit\": "
				     "\"B/s\", \"cpu_pct\": 10, \"too_fast\": "
				     "false, \"latency\": null, %s"
				     "\"degraded_during\": %s%s%s}",
				     names[i], rate,
				     doc_inflated ?
					     "\"nfs\": {\"inflated_by\": "
					     "[\"async export\"]}, " :
					     "",
				     doc_degraded ? "\"" : "",
				     doc_degraded ? doc_degraded : "null",
				     doc_degraded ? "\"" : "") < 0)
				abort();
		} else if (asprintf(&t,
				    "{\"name\": \"%s\", \"state\": "
				    "\"not_run\", \"note\": null}",
				    names[i]) < 0) {
			abort();
		}
		if (asprintf(&next, "%s%s%s", tests, i ? ", " : "", t) < 0)
			abort();
		free(t);
		free(tests);
		tests = next;
	}
	if (asprintf(
		    &doc,
		    "{\"schema\": \"clyde-result\", \"schema_version\": 1, "
		    "\"clyde_version\": \"0.1.0\", \"kind\": \"bonnie\", "
		    "\"label\": \"x\", \"started_unix\": 1700000000, "
		    "\"machine\": {\"host\": \"box\", \"kernel\": \"6.1\", "
		    "\"cpu_model\": \"\", \"ncpu\": 2, \"ram_bytes\": 1024}, "
		    "\"target\": {\"path\": \"/mnt/x\", \"fstype\": \"btrfs\", "
		    "\"mount_point\": \"/mnt\", \"mount_opts\": \"rw | rw\"}, "
		    "\"config\": {\"concurrency\": 1, \"seed\": 7, "
		    "\"file_size_mib\": 16}, "
		    "\"runs\": [{\"index\": 0, \"seed\": 7, \"tests\": [%s]}], "
		    "\"summary\": [], \"until_stable\": null}\n",
		    tests) < 0)
		abort();
	free(tests);
	return doc;
}

static char *bonnie_doc(double rate)
{
	return bonnie_doc_test(1, rate);
}

static char *timed_doc(double seconds)
{
	char *doc = NULL;

	if (asprintf(&doc,
		     "{\"kind\": \"timed\", \"workload\": \"dd\", "
		     "\"elapsed_ns\": %.0f, \"cpu_user_ns\": 1000000, "
		     "\"cpu_sys_ns\": 1000000, \"device\": {\"name\": "
		     "\"loop0+loop1\", \"read_bytes\": 0, \"write_bytes\": "
		     "%.0f}, \"members\": [{\"name\": \"loop0\", "
		     "\"read_bytes\": 0, \"write_bytes\": %.0f}, {\"name\": "
		     "\"loop1\", \"read_bytes\": 0, \"write_bytes\": 0}]}",
		     seconds * 1e9, seconds * 1048576.0,
		     seconds * 1048576.0) < 0)
		abort();
	return doc;
}

static int add(struct clyde_ctx *ctx, struct clyde_history *h, const char *id,
	       size_t point, unsigned repeat, const char *wl, const char *kind,
	       char *doc, bool failed)
{
	struct clyde_exp_run_rec r = {
		.point = point,
		.repeat = repeat,
		.workload = wl,
		.kind = kind,
		.failed = failed,
		.message = failed ? "setup `false`: exit status 1" : NULL,
		.doc = doc,
		.len = doc ? strlen(doc) : 0,
	};
	int rc = clyde_exp_store_add_run(ctx, h, id, &r, NULL);

	free(doc);
	return rc;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12;
}

static void test_round_trip(void)
{
	char *db = NULL, *id = NULL;
	char *axes[] = { "profile" }, *wl[] = { "bonnie", "dd" };
	const char *kinds[] = { "run", "time" };
	const char *vals[] = { "single", "raid1", "raid5" };
	struct clyde_exp_new ne = {
		.name = "btrfs profiles",
		.title = "btrfs data profiles",
		.file = "x.ini",
		.text = "[experiment]\n",
		.defines = "repeats=2\n",
		.naxes = 1,
		.axis_names = axes,
		.nworkloads = 2,
		.wl_names = wl,
		.wl_kinds = kinds,
		.npoints = 3,
		.values = vals,
	};
	struct clyde_history *h = NULL;
	struct clyde_exp_info info;
	struct clyde_exp_done *done = NULL;
	struct clyde_exp e;
	struct clyde_ctx ctx;
	size_t n = 0;

	clyde_ctx_init(&ctx);
	if (asprintf(&db, "%s/h.db", tmpdir) < 0)
		abort();
	CHECK(clyde_history_open(&ctx, db, true, &h) == 0);
	if (!h) {
		fprintf(stderr, "%s\n", clyde_errmsg(&ctx));
		free(db);
		return;
	}
	CHECK(clyde_exp_store_create(&ctx, h, &ne, &id) == 0);
	CHECK(id && strstr(id, "-btrfs-profiles") != NULL);
	/* Point 0: two repeats of both workloads. */
	doc_inflated = true;
	CHECK(add(&ctx, h, id, 0, 1, "bonnie", "run", bonnie_doc(100e6),
		  false) == 0);
	doc_inflated = false;
	CHECK(add(&ctx, h, id, 0, 1, "dd", "time", timed_doc(2.0), false) == 0);
	doc_degraded = "md0: 0 -> 1 of 4 members missing";
	CHECK(add(&ctx, h, id, 0, 2, "bonnie", "run", bonnie_doc(120e6),
		  false) == 0);
	doc_degraded = NULL;
	CHECK(add(&ctx, h, id, 0, 2, "dd", "time", timed_doc(4.0), false) == 0);
	/* Point 1: failed.  Point 2: not run yet. */
	CHECK(add(&ctx, h, id, 1, 1, "bonnie", "run", NULL, true) == 0);
	CHECK(clyde_exp_store_set_state(&ctx, h, id, "stopped") == 0);

	CHECK(clyde_exp_store_get(&ctx, h, id, &info) == 0);
	CHECK_STR(info.state, "stopped");
	CHECK_STR(info.defines, "repeats=2\n");
	CHECK_STR(info.text, "[experiment]\n");
	clyde_exp_info_release(&info);
	CHECK(clyde_exp_store_get(&ctx, h, "nope", &info) == -ENOENT);
	clyde_err_clear(&ctx);

	CHECK(clyde_exp_store_runs(&ctx, h, id, &done, &n) == 0);
	CHECK(n == 5);
	if (n == 5) {
		CHECK(done[0].ok && done[0].point == 0 && done[0].repeat == 1);
		CHECK_STR(done[3].workload, "dd");
		CHECK(!done[4].ok && done[4].point == 1);
	}
	free(done);

	CHECK(clyde_history_load_experiment(&ctx, h, id, &e) == 0);
	CHECK_STR(e.id, id);
	CHECK_STR(e.title, "btrfs data profiles");
	CHECK(e.naxes == 1 && e.npoints == 3);
	if (e.naxes == 1 && e.npoints == 3) {
		CHECK_STR(e.axis_names[0], "profile");
		CHECK_STR(e.points[1].values[0], "raid1");
		CHECK(!e.points[0].failed);
		CHECK(e.points[1].failed);
		CHECK(!e.points[2].failed);
		CHECK(e.points[0].config &&
		      strstr(e.points[0].config, "btrfs") != NULL);
	}
	/* bonnie.put_block, time.dd, time.dd.cpu, .read_bytes, .write_bytes,
	 * and per member: .m1.read_bytes ... .m2.write_bytes (amounts) */
	CHECK(e.nmetrics == 9);
	if (e.nmetrics == 9 && e.npoints == 3) {
		const struct clyde_exp_cell *c = &e.points[0].cells[0];

		/* The command line, from the file and the defines. */
		CHECK_STR(e.command, "clyde sweep x.ini --define repeats=2");
		CHECK_STR(e.metrics[0].key, "bonnie.put_block");
		CHECK_STR(e.metrics[0].label, "block write");
		CHECK_STR(e.metrics[0].unit, "B/s");
		CHECK(e.metrics[0].higher_better);
		CHECK(c->n == 2 && near(c->samples[0], 100e6) &&
		      near(c->samples[1], 120e6));
		/* The second repeat's block write ran on a degraded array. */
		CHECK(c->ndegraded == 1);
		/* The first ran on an async export: inflated. */
		CHECK(c->ninflated == 1);
		CHECK_STR(e.metrics[1].key, "time.dd");
		CHECK_STR(e.metrics[1].unit, "s");
		CHECK(!e.metrics[1].higher_better);
		c = &e.points[0].cells[1];
		CHECK(c->n == 2 && near(c->samples[1], 4.0));
		CHECK_STR(e.metrics[2].key, "time.dd.cpu");
		CHECK(near(e.points[0].cells[2].samples[0], 0.002));
		CHECK_STR(e.metrics[4].key, "time.dd.write_bytes");
		CHECK_STR(e.metrics[4].unit, "B");
		CHECK(e.metrics[4].amount && !e.metrics[1].amount);
		CHECK_STR(e.metrics[6].key, "time.dd.m1.write_bytes");
		CHECK_STR(e.metrics[6].label, "dd loop0 write");
		/* The bytes themselves (1 MiB per second of each run). */
		CHECK(near(e.points[0].cells[4].samples[0],
			   e.points[0].cells[1].samples[0] * 1048576.0));
		CHECK(near(e.points[0].cells[6].samples[1],
			   e.points[0].cells[1].samples[1] * 1048576.0));
		CHECK(near(e.points[0].cells[8].samples[0], 0));
		CHECK(e.points[1].cells[0].n == 0);
		CHECK(e.points[2].cells[4].n == 0);
	}
	clyde_exp_release(&e);
	CHECK(clyde_history_load_experiment(&ctx, h, "nope", &e) == -ENOENT);

	/* The clyde result is a normal run of the history too. */
	{
		struct clyde_history_entry *list = NULL;
		size_t nl = 0;

		CHECK(clyde_history_list(&ctx, h, 0, &list, &nl) == 0);
		CHECK(nl == 2);
		clyde_history_entries_free(list, nl);
	}
	clyde_history_close(h);
	unlink(db);
	free(db);
	free(id);
	clyde_ctx_release(&ctx);
}

/*
 * The experiment table names a test as every other output does: the
 * label of results/'s one table ("per-char write", as the progress line
 * says), not a table of its own ("char write").
 */
static void test_labels(void)
{
	char *db = NULL, *id = NULL;
	char *axes[] = { "n" }, *wl[] = { "b" };
	const char *kinds[] = { "run" };
	const char *vals[] = { "1" };
	struct clyde_exp_new ne = {
		.name = "labels",
		.file = "l.ini",
		.text = "",
		.defines = "",
		.naxes = 1,
		.axis_names = axes,
		.nworkloads = 1,
		.wl_names = wl,
		.wl_kinds = kinds,
		.npoints = 1,
		.values = vals,
	};
	struct clyde_history *h = NULL;
	struct clyde_exp e;
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	if (asprintf(&db, "%s/labels.db", tmpdir) < 0)
		abort();
	CHECK(clyde_history_open(&ctx, db, true, &h) == 0);
	CHECK(h && clyde_exp_store_create(&ctx, h, &ne, &id) == 0);
	CHECK(h && id &&
	      add(&ctx, h, id, 0, 1, "b", "run", bonnie_doc_test(0, 5e6),
		  false) == 0);
	CHECK(h && id && clyde_history_load_experiment(&ctx, h, id, &e) == 0);
	CHECK(h && id && e.nmetrics == 1);
	if (h && id && e.nmetrics == 1) {
		CHECK_STR(e.metrics[0].key, "b.putc");
		CHECK_STR(e.metrics[0].label, clyde_test_label(CLYDE_PUTC));
		CHECK_STR(e.metrics[0].label, "per-char write");
	}
	if (h && id)
		clyde_exp_release(&e);
	clyde_history_close(h);
	clyde_ctx_release(&ctx);
	free(id);
	free(db);
}

int main(void)
{
	char cmd[128];

	if (!clyde_history_available())
		tap_skip_all("clyde was built without SQLite");
	if (!mkdtemp(tmpdir))
		return 1;
	test_round_trip();
	test_labels();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return tap_done();
}
