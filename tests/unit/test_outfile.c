/*
 * core/outfile: output files are replaced whole or not at all, and what is
 * not a regular file (a device, a symlink's target) is never replaced by
 * the rename.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/outfile.h"
#include "tap.h"

static char dir[64];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The file's content (static buffer), or "" when it cannot be read. */
static const char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Entries in dir other than . and .. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_regular(void)
{
	struct clyde_outfile o;
	char path[128];

	snprintf(path, sizeof(path), "%s/out.json", dir);
	put(path, "old");
	CHECK(clyde_outfile_open(&o, path) == 0);
	fputs("half", o.f);
	clyde_outfile_abort(&o);
	CHECK_STR(get(path), "old");
	CHECK(entries() == 1); /* no temporary file left */

	CHECK(clyde_outfile_open(&o, path) == 0);
	CHECK_STR(get(path), "old"); /* untouched until the commit */
	fputs("new", o.f);
	CHECK(clyde_outfile_commit(&o) == 0);
	CHECK_STR(get(path), "new");
	CHECK(entries() == 1);
	CHECK(clyde_outfile_write_all(path, "all", 3) == 0);
	CHECK_STR(get(path), "all");
	unlink(path);
}

static void test_symlink(void)
{
	struct clyde_outfile o;
	char target[128], link[128];
	struct stat st;

	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	put(target, "old");
	CHECK(symlink("target", link) == 0);
	CHECK(clyde_outfile_open(&o, link) == 0);
	fputs("new", o.f);
	CHECK(clyde_outfile_commit(&o) == 0);
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK_STR(get(target), "new");
	unlink(link);
	unlink(target);
}

/*
 * Devices of its own (made with mknod, so that a broken outfile replaces
 * a copy and never the machine's /dev/null): written in place, still
 * devices afterwards.  Needs root; /tmp may be mounted nodev, in which
 * case the nodes exist but cannot be opened.
 */
static void test_devices(void)
{
	struct clyde_outfile o;
	char null[128], full[128];
	struct stat st;

	snprintf(null, sizeof(null), "%s/null", dir);
	snprintf(full, sizeof(full), "%s/full", dir);
	if (mknod(null, S_IFCHR | 0666, makedev(1, 3)) != 0 ||
	    mknod(full, S_IFCHR | 0666, makedev(1, 7)) != 0) {
		tap_skip_part("devices: mknod needs root");
		unlink(null);
		return;
	}
	if (clyde_outfile_open(&o, null) == -EACCES) {
		tap_skip_part("devices: the temporary directory is on a nodev "
			      "mount");
	} else {
		CHECK(o.f != NULL);
		fputs("gone", o.f);
		CHECK(clyde_outfile_commit(&o) == 0);
		CHECK(stat(null, &st) == 0 && S_ISCHR(st.st_mode));

		CHECK(clyde_outfile_open(&o, full) == 0);
		fputs("no room", o.f);
		CHECK(clyde_outfile_commit(&o) == -ENOSPC);
		CHECK(stat(full, &st) == 0 && S_ISCHR(st.st_mode));
	}
	unlink(null);
	unlink(full);
}

static void test_refused(void)
{
	struct clyde_outfile o;
	char path[128];

	CHECK(clyde_outfile_open(&o, dir) == -EISDIR);
	snprintf(path, sizeof(path), "%s/no/such/file", dir);
	CHECK(clyde_outfile_open(&o, path) == -ENOENT);
	CHECK(clyde_outfile_open(&o, "") == -ENOENT);
	CHECK(entries() == 0);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/clyde-outfile-XXXXXX");
	if (!mkdtemp(dir)) {
		CHECK(!"a temporary directory in /tmp");
		return tap_done();
	}
	test_regular();
	test_symlink();
	test_devices();
	test_refused();
	rmdir(dir);
	return tap_done();
}
