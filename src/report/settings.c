/*
 * The settings a test depends on (see settings.h).  One line per setting:
 * the loaded key and the scopes whose results it changes.
 */
#include "report/settings.h"

#include <string.h>

#define IO (1u << CLYDE_SCOPE_IO)
#define SEEKS (1u << CLYDE_SCOPE_SEEKS)
#define FILES (1u << CLYDE_SCOPE_FILES)

static const struct setting {
	const char *key;
	unsigned scopes;
} settings[] = {
	{ "file size", IO | SEEKS },
	{ "IO chunk", IO | SEEKS },
	{ "putc bytes", IO },
	{ "O_DIRECT", IO | SEEKS },
	/* How the I/O is issued and what is written change the figures as
	 * much as the sizes do: io_uring at depth 16 is no rival of psync
	 * at depth 1, nor a page-cache read of a device read. */
	{ "I/O engine", IO | SEEKS },
	{ "queue depth", IO | SEEKS },
	{ "pattern", IO | FILES },
	{ "compressible", IO | FILES },
	{ "evict the page cache", IO | SEEKS | FILES },
	{ "drop caches", IO | SEEKS | FILES },
	{ "seeks", SEEKS },
	{ "seekers", SEEKS },
	{ "concurrency", IO | SEEKS | FILES },
	{ "fsync each", IO | FILES },
	{ "files", FILES },
	{ "max size", FILES },
	{ "min size", FILES },
	{ "directories", FILES },
	{ "file chunk", FILES },
};

#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

/*
 * The recorded keys that do not change what is measured: how often the
 * series is sampled and the note a person gave the run (quiet, progress,
 * the output paths, the label and the history are not recorded as
 * settings at all).  Runs that differ only here were made alike, and a
 * difference in them explains no difference in the results.
 */
static const char *const not_measured[] = {
	"log_interval_ns",
	"note",
};

#define NNOT_MEASURED (sizeof(not_measured) / sizeof(not_measured[0]))

bool clyde_setting_not_measured(const char *key)
{
	for (size_t i = 0; i < NNOT_MEASURED; i++)
		if (!strcmp(not_measured[i], key))
			return true;
	return false;
}

enum clyde_scope clyde_scope_of(enum clyde_loaded_group g)
{
	switch (g) {
	case CLYDE_GROUP_SEQ_OUTPUT:
	case CLYDE_GROUP_SEQ_INPUT:
		return CLYDE_SCOPE_IO;
	case CLYDE_GROUP_SEEKS:
		return CLYDE_SCOPE_SEEKS;
	case CLYDE_GROUP_SEQ_FILES:
	case CLYDE_GROUP_RAN_FILES:
		return CLYDE_SCOPE_FILES;
	default:
		return CLYDE_SCOPE_NONE;
	}
}

const char *clyde_scope_name(enum clyde_scope s)
{
	static const char *const n[] = { "IO tests", "seeks", "file tests" };

	return s < CLYDE_SCOPE_COUNT ? n[s] : "tree phases";
}

bool clyde_setting_matters(const char *key, enum clyde_scope s)
{
	size_t i;

	if (s >= CLYDE_SCOPE_COUNT)
		return false;
	for (i = 0; i < NSETTINGS; i++)
		if (!strcmp(settings[i].key, key))
			return (settings[i].scopes & (1u << s)) != 0;
	return false;
}

const char *clyde_setting_key(size_t i)
{
	return i < NSETTINGS ? settings[i].key : NULL;
}
