/*
 * env/mountinfo: the one reader of /proc/self/mountinfo's lines.  A mount
 * point or source with a space comes escaped (\040) and is given back
 * unescaped; optional fields (shared:N, master:N, none or several) stand
 * between the per-mount options and the "-"; a line without the "-" or
 * with nothing after it is malformed; the reader of a file skips
 * malformed lines, stops when the callback says so and gives the open's
 * errno for a file that is not there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "env/mountinfo.h"

static void test_parse(void)
{
	struct clyde_mountinfo mi;
	char none[] = "36 25 8:17 / /boot rw,relatime - ext4 /dev/sdx1 rw\n";
	char opt[] = "40 1 0:52 / /mnt/with\\040space rw shared:7 master:3 - "
		     "cifs //srv/a\\040b rw,vers=3.1.1\n";
	char no_super[] = "41 1 9:9 / /srv rw - xfs /dev/md9\n";
	char no_dash[] = "42 1 9:9 / /srv rw shared:1 xfs /dev/md9 rw\n";
	char short_[] = "43 1 9:9 / /srv rw - xfs\n";
	char bad_dev[] = "44 1 x:y / /srv rw - xfs /dev/md9 rw\n";

	CHECK(clyde_mountinfo_parse(none, &mi) == 0);
	CHECK(mi.major == 8 && mi.minor == 17);
	CHECK_STR(mi.mount_point, "/boot");
	CHECK_STR(mi.opts, "rw,relatime");
	CHECK_STR(mi.fstype, "ext4");
	CHECK_STR(mi.source, "/dev/sdx1");
	CHECK_STR(mi.super_opts, "rw");

	CHECK(clyde_mountinfo_parse(opt, &mi) == 0);
	CHECK(mi.major == 0 && mi.minor == 52);
	CHECK_STR(mi.mount_point, "/mnt/with space");
	CHECK_STR(mi.opts, "rw");
	CHECK_STR(mi.fstype, "cifs");
	CHECK_STR(mi.source, "//srv/a b");
	CHECK_STR(mi.super_opts, "rw,vers=3.1.1");

	CHECK(clyde_mountinfo_parse(no_super, &mi) == 0);
	CHECK_STR(mi.source, "/dev/md9");
	CHECK_STR(mi.super_opts, "");

	CHECK(clyde_mountinfo_parse(no_dash, &mi) == -EINVAL);
	CHECK(clyde_mountinfo_parse(short_, &mi) == -EINVAL);
	CHECK(clyde_mountinfo_parse(bad_dev, &mi) == -EINVAL);
}

struct seen {
	int n;
	char last[64];
	int stop_at;
};

static int count(void *arg, const char *line, const struct clyde_mountinfo *mi)
{
	struct seen *s = arg;

	(void)line;
	s->n++;
	snprintf(s->last, sizeof(s->last), "%s", mi->mount_point);
	return s->n == s->stop_at ? 5 : 0;
}

static void test_each(void)
{
	char path[] = "/tmp/clyde-mountinfo-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct seen s = { 0, "", 0 };

	CHECK(f != NULL);
	if (!f)
		return;
	fputs("36 25 8:17 / /boot rw - ext4 /dev/sdx1 rw\n"
	      "garbage\n"
	      "37 25 8:18 / /a\\040b rw shared:1 - ext4 /dev/sdx2 rw\n"
	      "38 25 8:19 / /c rw - ext4 /dev/sdx3 rw\n",
	      f);
	fclose(f);
	CHECK(clyde_mountinfo_each(path, count, &s) == 0);
	CHECK(s.n == 3);
	CHECK_STR(s.last, "/c");
	s = (struct seen){ 0, "", 2 };
	CHECK(clyde_mountinfo_each(path, count, &s) == 5);
	CHECK(s.n == 2);
	CHECK_STR(s.last, "/a b");
	unlink(path);
	CHECK(clyde_mountinfo_each(path, count, &s) == -ENOENT);
}

int main(void)
{
	test_parse();
	test_each();
	return tap_done();
}
