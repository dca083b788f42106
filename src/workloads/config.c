#include "workloads/bonnie.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * bonnie++ 2.00a's defaults, except the data pattern: clyde writes
 * incompressible data unless --pattern zeros asks for bonnie++'s.
 */
void clyde_bonnie_config_init(struct clyde_bonnie_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->dir = ".";		/* bonnie++ works in the current directory */
	cfg->machine = NULL;	/* the host name, looked up by the caller */
	cfg->file_size_mib = 0; /* until -s or the RAM-based default */
	cfg->size_given = false;
	cfg->io_chunk = 8192;
	cfg->seeks = 8192;
	cfg->seekers = 5;
	cfg->num_files = 16 * 1024;
	cfg->max_size = 0;
	cfg->min_size = 0;
	cfg->num_dirs = 1;
	cfg->file_chunk = 8192;
	cfg->ram_mib = -1;
	cfg->runs = 0;
	cfg->skip_perchar = false;
	cfg->perchar_mib = CLYDE_DEFAULT_PERCHAR_MIB;
	cfg->concurrency = 1;
	cfg->sync_procs = 0;
	cfg->sync_mode = CLYDE_SYNC_NONE;
	cfg->seed_given = false;
	cfg->pattern = CLYDE_PATTERN_RANDOM;
	cfg->max_runs = CLYDE_DEFAULT_MAX_RUNS;
	cfg->engine = &clyde_engine_psync;
	cfg->iodepth = 1;
	cfg->iodepth_batch = 1;
	cfg->settle_ns = (uint64_t)(CLYDE_SETTLE_DEFAULT_S * 1e9);
	cfg->log_interval_ns = CLYDE_SERIES_DEFAULT_NS;
}

uint64_t clyde_bonnie_perchar_bytes(const struct clyde_bonnie_config *cfg)
{
	uint64_t n = cfg->perchar_mib << 20, file = cfg->file_size_mib << 20;

	return n < file ? n : file;
}

/* The user interrupted (the context's flag). */
static bool interrupted(const struct clyde_ctx *ctx)
{
	return ctx->interrupted && *ctx->interrupted;
}

long clyde_bonnie_load_random(const char *path, struct clyde_ctx *ctx,
			      uint32_t **out, char *err, size_t errlen)
{
	size_t cap = 0, n = 0;
	uint32_t *v = NULL;
	struct stat st;
	FILE *f;
	int e = 0;

	*out = NULL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen,
			 "-Z: %s is a directory; give a file of random "
			 "numbers (as generate_randfile writes)",
			 path);
		return 0;
	}
	f = fopen(path, "rb");
	if (!f) {
		if (errno == EINTR && interrupted(ctx))
			return -EINTR;
		snprintf(err, errlen, "-Z: cannot open %s: %s", path,
			 strerror(errno));
		return 0;
	}
	for (;;) {
		if (n == cap) {
			uint32_t *nv;

			cap = cap ? cap * 2 : 4096;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		errno = 0;
		if (fread(&v[n], sizeof(*v), 1, f) != 1) {
			e = errno;
			break;
		}
		n++;
	}
	if (ferror(f) && e == EINTR && interrupted(ctx)) {
		fclose(f);
		free(v);
		return -EINTR;
	}
	if (ferror(f) || n == 0) {
		if (ferror(f) && e)
			snprintf(err, errlen, "-Z: cannot read %s: %s", path,
				 strerror(e));
		else
			snprintf(err, errlen,
				 "-Z: %s holds no random numbers (4-byte "
				 "integers, as generate_randfile writes)",
				 path);
		free(v);
		v = NULL;
		n = 0;
	}
	fclose(f);
	*out = v;
	return (long)n;
}
