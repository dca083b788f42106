/*
 * The one table of test names and labels (results/result.h) and of tree
 * phases (results/tree_result.h): every entry named and labelled, no two
 * alike, and a name found back by clyde_test_from_name(); the labels that
 * three tables used to disagree on are the progress line's.
 */
#include <string.h>

#include "results/result.h"
#include "results/tree_result.h"
#include "tap.h"

static void test_bonnie_tests(void)
{
	for (int t = 0; t < CLYDE_TEST_COUNT; t++) {
		const char *name = clyde_test_name((enum clyde_test)t);
		const char *label = clyde_test_label((enum clyde_test)t);

		CHECK(name && *name && strcmp(name, "?"));
		CHECK(label && *label && strcmp(label, "?"));
		CHECK(clyde_test_from_name(name) == t);
		for (int u = 0; u < t; u++) {
			CHECK(strcmp(name,
				     clyde_test_name((enum clyde_test)u)));
			CHECK(strcmp(label,
				     clyde_test_label((enum clyde_test)u)));
		}
	}
	CHECK_STR(clyde_test_label(CLYDE_PUTC), "per-char write");
	CHECK_STR(clyde_test_label(CLYDE_GETC), "per-char read");
	CHECK_STR(clyde_test_label(CLYDE_SEEKS), "random seeks");
	CHECK_STR(clyde_test_label(CLYDE_SEQ_CREATE), "sequential create");
	CHECK(clyde_test_from_name("stat_walk") == -1);
	CHECK(clyde_test_from_name(NULL) == -1);
	CHECK_STR(clyde_test_name(CLYDE_TEST_COUNT), "?");
	CHECK_STR(clyde_test_label(CLYDE_TEST_COUNT), "?");
}

static void test_tree_phases(void)
{
	for (int p = 0; p < CLYDE_TREE_PHASE_COUNT; p++) {
		const char *name =
			clyde_tree_phase_name((enum clyde_tree_phase)p);
		const char *label =
			clyde_tree_phase_label((enum clyde_tree_phase)p);

		CHECK(name && *name && strcmp(name, "?"));
		CHECK(label && *label && strcmp(label, "?"));
		CHECK(clyde_tree_phase_from_name(name) == p);
		/* A label is its name with blanks for underscores. */
		CHECK(strlen(label) == strlen(name));
		for (size_t i = 0; i < strlen(name); i++)
			CHECK(label[i] == (name[i] == '_' ? ' ' : name[i]));
	}
	CHECK(clyde_tree_phase_from_name("putc") == -1);
	CHECK_STR(clyde_tree_phase_label(CLYDE_TREE_PHASE_COUNT), "?");
}

int main(void)
{
	test_bonnie_tests();
	test_tree_phases();
	return tap_done();
}
