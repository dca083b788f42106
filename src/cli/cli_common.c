#include "cli/cli_common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

volatile sig_atomic_t *clyde_cli_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return &interrupted;
}

bool clyde_cli_interrupted(void)
{
	return interrupted != 0;
}

int clyde_cli_load_results(struct clyde_ctx *ctx, const char *cmd, char **files,
			   size_t nfiles, bool merge,
			   struct clyde_loaded_set *set)
{
	for (size_t i = 0; i < nfiles; i++) {
		int rc = clyde_loaded_read_file(ctx, files[i], set);

		if (rc) {
			fprintf(stderr, "clyde %s: %s\n", cmd,
				clyde_errmsg(ctx));
			clyde_err_clear(ctx);
			if (rc == -ENOMEM)
				return -1;
		}
	}
	for (size_t i = 0; i < set->nerrors; i++)
		fprintf(stderr, "clyde %s: %s\n", cmd, set->errors[i]);
	if (set->nmalformed > set->nerrors)
		fprintf(stderr,
			"clyde %s: %zu more malformed lines not shown\n", cmd,
			set->nmalformed - set->nerrors);
	if (merge && clyde_loaded_merge_repeats(ctx, set)) {
		fprintf(stderr, "clyde %s: %s\n", cmd, clyde_errmsg(ctx));
		return -1;
	}
	if (!set->nruns) {
		fprintf(stderr, "clyde %s: nothing could be read\n", cmd);
		return -1;
	}
	return 0;
}
