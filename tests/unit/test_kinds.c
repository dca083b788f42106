/*
 * The tables of result kinds (results/kinds.h) and workload kinds
 * (exp/wl_kinds.c): each name finds its line, the lines say what the code
 * that looks them up relies on, and the messages made from the tables
 * read as they did when the names were written out.
 */
#include <string.h>

#include "tap.h"
#include "exp/exp.h"
#include "results/kinds.h"
#include "results/loaded.h"

static void test_result_kinds(void)
{
	const struct clyde_result_kind *k;
	size_t n = 0;

	while (clyde_result_kind_at(n))
		n++;
	CHECK(n == 5);
	for (size_t i = 0; i < n; i++) {
		k = clyde_result_kind_at(i);
		CHECK(clyde_result_kind_find(k->name) == k);
		if (k->decoded)
			CHECK(clyde_result_kind_loaded(k->loaded) == k);
		if (k->workload)
			CHECK(clyde_result_kind_stored(k->workload) == k);
	}
	CHECK(clyde_result_kind_find("bonnie-csv") == NULL);
	CHECK(clyde_result_kind_find(NULL) == NULL);
	CHECK(clyde_result_kind_stored("zcav") == NULL);
	k = clyde_result_kind_stored("dev");
	CHECK(k && !strcmp(k->name, "dev") && k->rows && k->rows->load);

	k = clyde_result_kind_stored("run");
	CHECK(k && !strcmp(k->name, "bonnie") && !k->doc_in_row &&
	      k->columns == CLYDE_COLUMNS_TESTS);
	k = clyde_result_kind_loaded(CLYDE_LOADED_DEV);
	CHECK(k && k->rows && k->rows->iops && k->rows->zcav &&
	      !k->rows->members && !strcmp(k->rows->array, "tests"));
	k = clyde_result_kind_loaded(CLYDE_LOADED_TREE);
	CHECK(k && k->rows && !k->rows->iops && k->rows->members &&
	      k->columns == CLYDE_COLUMNS_NONE);
	k = clyde_result_kind_find("fio");
	CHECK(k && !k->clyde_json && k->columns == CLYDE_COLUMNS_SEQ_RAND &&
	      k->unrecorded[1] && !strcmp(k->unrecorded[1], "psync"));

	/* A timed command: in the experiment's row, not read by the loader,
	 * seconds lower-better and device bytes without a direction. */
	k = clyde_result_kind_stored("time");
	CHECK(k && k->doc_in_row && !k->decoded &&
	      k->nmetrics == CLYDE_TIME_METRICS);
	CHECK(k && k->metrics[CLYDE_TIME_ELAPSED].dir == CLYDE_METRIC_LOWER);
	CHECK(k && k->metrics[CLYDE_TIME_CPU].dir == CLYDE_METRIC_LOWER);
	CHECK(k && k->metrics[CLYDE_TIME_READ_BYTES].dir == CLYDE_METRIC_NONE &&
	      k->metrics[CLYDE_TIME_WRITE_BYTES].dir == CLYDE_METRIC_NONE);
}

/* A clyde JSON result of a kind the table does not have is refused with
 * the kinds it has, named as before the table. */
static void test_unknown_kind(void)
{
	static const char doc[] =
		"{\"schema\":\"clyde-result\",\"schema_version\":1,"
		"\"kind\":\"dial\",\"runs\":[{\"tests\":[]}]}\n";
	struct clyde_loaded_set set;
	struct clyde_ctx ctx;

	clyde_ctx_init(&ctx);
	clyde_loaded_set_init(&set);
	CHECK(clyde_loaded_read_buffer(&ctx, doc, strlen(doc), "d.json",
				       &set) == 0);
	CHECK(set.nruns == 0 && set.nerrors == 1);
	CHECK(set.nerrors == 1 &&
	      strstr(set.errors[0],
		     "unknown kind \"dial\" (not \"bonnie\", \"tree\" or "
		     "\"dev\")") != NULL);
	clyde_loaded_set_release(&set);
	clyde_ctx_release(&ctx);
}

static void test_workload_kinds(void)
{
	char buf[128];

	for (int k = 0; k < CLYDE_SWEEP_KINDS; k++) {
		const struct clyde_exp_wl_ops *o =
			clyde_exp_wl_builtin((enum clyde_sweep_wl_kind)k);

		CHECK(o && o->run && o->show && o->result);
		CHECK(o && clyde_sweep_wl_kind_find(o->name) == k);
		/* What it stores is a kind of result. */
		CHECK(o && clyde_result_kind_find(o->result) ==
				   clyde_result_kind_stored(o->name));
	}
	CHECK(clyde_exp_wl_builtin(CLYDE_SWEEP_KINDS) == NULL);
	CHECK(!strcmp(clyde_sweep_wl_kind_name(CLYDE_SWEEP_KINDS), "?"));
	CHECK(!strcmp(clyde_sweep_wl_kind_name(CLYDE_SWEEP_FIO), "fio"));
	CHECK(!strcmp(clyde_sweep_wl_kind_name(CLYDE_SWEEP_DEV), "dev"));
	CHECK(clyde_sweep_wl_kind_find("zcav") == -1);
	CHECK(!strcmp(clyde_sweep_wl_kind_names(buf, sizeof(buf), " or "),
		      "run, tree, time, fio or dev"));
	CHECK(!strcmp(clyde_sweep_wl_kind_names(buf, sizeof(buf), ", "),
		      "run, tree, time, fio, dev"));
}

int main(void)
{
	test_result_kinds();
	test_unknown_kind();
	test_workload_kinds();
	return tap_done();
}
