/*
 * exp/journal: the restore journal's reader (what it takes, what it
 * refuses with FILE:LINE) and clyde_exp_open_own(), which opens a file of
 * the sweep's own only when it is one (issue 30, 1.1 and 1.2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "exp/journal.h"

static int parse(const char *text, struct clyde_exp_journal *j,
		 struct clyde_ctx *c)
{
	clyde_ctx_init(c);
	return clyde_exp_journal_parse(c, "j", text, strlen(text), j);
}

/* The message for a journal that must be refused. */
static const char *refused(const char *text, size_t len, char *buf, size_t cap)
{
	struct clyde_exp_journal j;
	struct clyde_ctx c;

	clyde_ctx_init(&c);
	if (clyde_exp_journal_parse(&c, "j", text, len, &j) == 0) {
		clyde_exp_journal_release(&j);
		snprintf(buf, cap, "(taken)");
	} else {
		snprintf(buf, cap, "%s", clyde_errmsg(&c));
		if (j.nsets || j.nchildren || j.ntmps || j.ncaptures)
			snprintf(buf, cap, "(refused, but not empty)");
	}
	clyde_ctx_release(&c);
	return buf;
}

#define REFUSED(t, m) CHECK_STR(refused(t, strlen(t), buf, sizeof(buf)), m)

static void test_parse(void)
{
	static const char good[] =
		"tmp\t/tmp/clyde-sweep.a\t-\n"
		"visit\t0\t1\n"
		"child\t4242:99\t/var/tmp\n"
		"capture\tdev\tloop1 \"; id; \"\n"
		"set\t/sys/a\t128\nwant\t/sys/a\t512\nnow\t/sys/a\t512\n"
		"set\t/sys/b\t1\nwant\t/sys/b\t2\nunset\t/sys/b\t-\n"
		"set\t/sys/c\t3\nwant\t/sys/c\t4\nrestored\t/sys/c\t-\n"
		"visit\t2\t3\ncapture\tdev\tloop2\n";
	static const char nul[] = "visit\t0\t1\nset\t/sys/a\t1\0x\n";
	struct clyde_exp_journal j;
	struct clyde_ctx c;
	char buf[256];

	CHECK(parse(good, &j, &c) == 0);
	CHECK(j.ntmps == 1 && j.nchildren == 1);
	CHECK_STR(j.children[0].id, "4242:99");
	/* Only the last visit's captures; the set whose write failed and
	 * the one restored are not undone. */
	CHECK(j.ncaptures == 1);
	CHECK_STR(j.captures[0].value, "loop2");
	CHECK(j.visit_point == 2 && j.visit_repeat == 3);
	CHECK(j.nsets == 1);
	CHECK_STR(j.sets[0].path, "/sys/a");
	CHECK_STR(j.sets[0].old, "128");
	CHECK_STR(j.sets[0].want, "512");
	CHECK_STR(j.sets[0].now, "512");
	clyde_exp_journal_release(&j);
	clyde_ctx_release(&c);

	REFUSED("visit\t0\t1\nrm\t-rf\t/\n", "j:2: not a journal line");
	REFUSED("visit\t0\n", "j:1: want three fields between tabs");
	REFUSED("visit\t0\t1\t2\n", "j:1: want three fields between tabs");
	REFUSED("visit\t0\t1", "j:1: no line end (cut short?)");
	REFUSED("set\tsys/a\t1\n", "j:1: want an absolute path");
	REFUSED("want\t/sys/a\t1\n",
		"j:1: a value written with no set before it");
	REFUSED("child\t1:5\t-\n", "j:1: child: want PID:START and a path "
				   "or -");
	REFUSED("child\t$(id):5\t-\n", "j:1: child: want PID:START and a "
				       "path or -");
	REFUSED("capture\ta;b\tx\n", "j:1: capture: a name is letters, "
				     "digits, _ and -");
	REFUSED("tmp\t/tmp/x\t-\nvisit\tx\t1\n",
		"j:2: visit: want two numbers");
	CHECK_STR(refused(nul, sizeof(nul) - 1, buf, sizeof(buf)),
		  "j:2: a NUL byte");
}

static void test_open_own(void)
{
	char dir[] = "/tmp/clyde-test-journal.XXXXXX", p[128], q[128];
	struct clyde_ctx c;
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	clyde_ctx_init(&c);
	snprintf(p, sizeof(p), "%s/own", dir);
	fd = clyde_exp_open_own(&c, p, O_RDONLY, 0, "journal");
	CHECK(fd == -ENOENT);
	clyde_err_clear(&c);
	fd = clyde_exp_open_own(&c, p, O_RDWR | O_CREAT, 0600, "journal");
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);

	/* A link to it: not followed. */
	snprintf(q, sizeof(q), "%s/link", dir);
	CHECK(symlink(p, q) == 0);
	CHECK(clyde_exp_open_own(&c, q, O_RDWR | O_CREAT, 0600, "lock") ==
	      -EPERM);
	CHECK(strstr(clyde_errmsg(&c), "link: a symbolic link, not clyde's "
				       "lock") != NULL);
	clyde_err_clear(&c);

	/* A second name for it: refused. */
	snprintf(q, sizeof(q), "%s/hard", dir);
	CHECK(link(p, q) == 0);
	CHECK(clyde_exp_open_own(&c, p, O_RDONLY, 0, "journal") == -EPERM);
	CHECK(strstr(clyde_errmsg(&c), "2 hard links") != NULL);
	clyde_err_clear(&c);
	unlink(q);

	/* Writable by the group: refused. */
	CHECK(chmod(p, 0620) == 0);
	CHECK(clyde_exp_open_own(&c, p, O_RDONLY, 0, "journal") == -EPERM);
	CHECK(strstr(clyde_errmsg(&c), "writable by group or others") != NULL);
	clyde_err_clear(&c);
	CHECK(chmod(p, 0600) == 0);

	/* A FIFO: refused at once, not waited on. */
	snprintf(q, sizeof(q), "%s/fifo", dir);
	CHECK(mkfifo(q, 0600) == 0);
	CHECK(clyde_exp_open_own(&c, q, O_RDONLY, 0, "lock") == -EPERM);
	CHECK(strstr(clyde_errmsg(&c), "not a regular file") != NULL);
	clyde_err_clear(&c);
	unlink(q);

	/* Another user's (root can give it away). */
	if (geteuid() == 0) {
		CHECK(chown(p, 65534, 65534) == 0);
		CHECK(clyde_exp_open_own(&c, p, O_RDONLY, 0, "journal") ==
		      -EPERM);
		CHECK(strstr(clyde_errmsg(&c), "owned by uid 65534, not by "
					       "uid 0") != NULL);
		clyde_err_clear(&c);
	} else {
		tap_skip_part("a file of another user's: needs root");
	}
	unlink(p);

	/* The directory of the locks. */
	CHECK(clyde_exp_check_own_dir(&c, dir) == 0);
	CHECK(chmod(dir, 0777) == 0);
	CHECK(clyde_exp_check_own_dir(&c, dir) == -EPERM);
	clyde_err_clear(&c);
	rmdir(dir);
	clyde_ctx_release(&c);
}

int main(void)
{
	test_parse();
	test_open_own();
	return tap_done();
}
