/*
 * exp/plan: the experiment file -- parsing, ranges, the cross
 * product and zip, placeholders, the order of the visits, and errors that
 * name FILE:LINE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "exp/plan.h"

static int parse(const char *text, struct clyde_sweep *s, struct clyde_ctx *c)
{
	clyde_ctx_init(c);
	return clyde_sweep_parse(c, "t.ini", text, strlen(text), NULL, 0, s);
}

/* The message of a file that must not parse. */
static const char *parse_err(const char *text, char *buf, size_t cap)
{
	struct clyde_sweep s;
	struct clyde_ctx c;

	if (parse(text, &s, &c) == 0) {
		clyde_sweep_release(&s);
		snprintf(buf, cap, "(parsed)");
	} else {
		snprintf(buf, cap, "%s", clyde_errmsg(&c));
	}
	clyde_ctx_release(&c);
	return buf;
}

static void test_ranges(void)
{
	char **v, why[256];
	size_t n;

	CHECK(clyde_sweep_parse_range("64k..1m x2", &v, &n, why, sizeof(why)) ==
	      0);
	CHECK(n == 5);
	if (n == 5) {
		CHECK_STR(v[0], "64k");
		CHECK_STR(v[3], "512k");
		CHECK_STR(v[4], "1m");
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	CHECK(clyde_sweep_parse_range("1..8 +3", &v, &n, why, sizeof(why)) ==
	      0);
	CHECK(n == 3);
	if (n == 3) {
		CHECK_STR(v[0], "1");
		CHECK_STR(v[2], "7");
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	CHECK(clyde_sweep_parse_range("256..32768 x2", &v, &n, why,
				      sizeof(why)) == 0 &&
	      n == 8);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	CHECK(clyde_sweep_parse_range("8..1 +1", &v, &n, why, sizeof(why)) ==
	      -EINVAL);
	CHECK(clyde_sweep_parse_range("1..8 x1", &v, &n, why, sizeof(why)) ==
	      -EINVAL);
	CHECK(clyde_sweep_parse_range("1..8", &v, &n, why, sizeof(why)) ==
	      -EINVAL);
	CHECK(clyde_sweep_parse_range("1q..8 +1", &v, &n, why, sizeof(why)) ==
	      -EINVAL);
}

static const char cross[] =
	"[experiment]\n"
	"name = demo\n"
	"metrics = bon.put_block, dd.x\n"
	"repeat = 2\n"
	"axis chunk = 64k..256k x2\n"
	"\n"
	"[axis fs]\n"
	"values = ext4 xfs\n"
	"\n"
	"[vars]\n"
	"img = /tmp/{fs}-{chunk}.img\n"
	"\n"
	"[point]\n"
	"setup = truncate -s 1g {img}\n"
	"set /sys/block/loop0/queue/read_ahead_kb = {chunk}\n"
	"setup = mkfs.{fs} {img} # p{point} r{repeat}\n"
	"teardown = rm -f {img}\n"
	"\n"
	"[workload bon]\n"
	"run = -d /mnt -s 64\n"
	"  -n 0\n"
	"[workload dd]\n"
	"time = awk '{{print}' ${HOME} {x\n"
	"device = /dev/loop0\n";

static void test_cross_product(void)
{
	struct clyde_sweep s;
	struct clyde_ctx c;
	char lab[128], *out = NULL;

	CHECK(parse(cross, &s, &c) == 0);
	if (s.npoints != 6) {
		CHECK(s.npoints == 6);
		fprintf(stderr, "%s\n", clyde_errmsg(&c));
		clyde_ctx_release(&c);
		return;
	}
	CHECK_STR(s.name, "demo");
	CHECK_STR(s.metrics, "bon.put_block, dd.x");
	CHECK(s.repeat == 2);
	CHECK(s.naxes == 2 && s.nsetup == 3 && s.nteardown == 1);
	CHECK(s.setup[1].kind == CLYDE_SWEEP_SET);
	CHECK_STR(s.setup[1].text, "/sys/block/loop0/queue/read_ahead_kb");
	CHECK(s.setup[1].line == 15);
	/* The first axis varies slowest. */
	clyde_sweep_point_label(&s, 0, lab, sizeof(lab));
	CHECK_STR(lab, "chunk=64k fs=ext4");
	clyde_sweep_point_label(&s, 1, lab, sizeof(lab));
	CHECK_STR(lab, "chunk=64k fs=xfs");
	clyde_sweep_point_label(&s, 5, lab, sizeof(lab));
	CHECK_STR(lab, "chunk=256k fs=xfs");
	CHECK(clyde_sweep_expand(&c, &s, 3, 2, s.setup[2].text, 1, &out) == 0);
	CHECK_STR(out, "mkfs.xfs /tmp/xfs-128k.img # p4 r2");
	free(out);
	CHECK(clyde_sweep_expand(&c, &s, 0, 1, s.setup[1].value, 1, &out) == 0);
	CHECK_STR(out, "64k");
	free(out);
	/* Continuation lines of run/tree/time join with a blank. */
	CHECK_STR(s.workloads[0].args, "-d /mnt -s 64 -n 0");
	CHECK(s.workloads[1].kind == CLYDE_SWEEP_TIME);
	CHECK(clyde_sweep_expand(&c, &s, 0, 1, s.workloads[1].args, 1, &out) ==
	      0);
	CHECK_STR(out, "awk '{print}' ${HOME} {x");
	free(out);
	clyde_sweep_release(&s);
	clyde_ctx_release(&c);
}

static void test_zip_and_defines(void)
{
	static const char text[] = "axis a = 1 2 3\n"
				   "axis b = x y z\n"
				   "axis c = p q\n"
				   "[experiment]\n"
				   "zip = a,b\n"
				   "[vars]\n"
				   "size = 1g\n"
				   "[workload w]\n"
				   "time = echo {a}{b}{c} {size}\n";
	char *defs[] = { "size=64m" };
	struct clyde_sweep s;
	struct clyde_ctx c;
	char lab[128], *out = NULL;

	clyde_ctx_init(&c);
	CHECK(clyde_sweep_parse(&c, "z.ini", text, strlen(text), defs, 1, &s) ==
	      0);
	CHECK(s.npoints == 6);
	if (s.npoints == 6) {
		clyde_sweep_point_label(&s, 0, lab, sizeof(lab));
		CHECK_STR(lab, "a=1 b=x c=p");
		clyde_sweep_point_label(&s, 3, lab, sizeof(lab));
		CHECK_STR(lab, "a=2 b=y c=q");
		CHECK(clyde_sweep_expand(&c, &s, 5, 1, s.workloads[0].args, 9,
					 &out) == 0);
		CHECK_STR(out, "echo 3zq 64m");
		free(out);
		CHECK(s.repeat == 3); /* the default */
		clyde_sweep_release(&s);
	}
	clyde_ctx_release(&c);
}

/* Numbers of [experiment] may name variables, overridden with -D. */
static void test_numbers_from_vars(void)
{
	static const char text[] = "[experiment]\n"
				   "repeat = {repeats}\n"
				   "[vars]\n"
				   "repeats = 5\n"
				   "[workload w]\n"
				   "time = true\n";
	char *defs[] = { "repeats=2" }, *bad[] = { "repeats=x" };
	struct clyde_sweep s;
	struct clyde_ctx c;

	CHECK(parse(text, &s, &c) == 0 && s.repeat == 5 && s.npoints == 1);
	clyde_sweep_release(&s);
	CHECK(clyde_sweep_parse(&c, "n.ini", text, strlen(text), defs, 1, &s) ==
		      0 &&
	      s.repeat == 2);
	clyde_sweep_release(&s);
	CHECK(clyde_sweep_parse(&c, "n.ini", text, strlen(text), bad, 1, &s) ==
	      -EINVAL);
	CHECK(strstr(clyde_errmsg(&c), "n.ini:2: repeat = x") != NULL);
	clyde_ctx_release(&c);
}

/* until-decided = PCT: two rounds first, max-runs rounds at most; not
 * together with until-stable. */
static void test_until_decided(void)
{
	struct clyde_sweep s;
	struct clyde_ctx c;
	char m[512];

	CHECK(parse("[experiment]\nuntil-decided = 5\nmax-runs = 6\n"
		    "[workload w]\ntime = true\n",
		    &s, &c) == 0);
	CHECK(s.until_decided == 5 && s.until_stable == 0 && s.repeat == 2 &&
	      clyde_sweep_adaptive(&s) && clyde_sweep_max_rounds(&s) == 6);
	clyde_sweep_release(&s);
	clyde_ctx_release(&c);
	CHECK(strstr(parse_err("[experiment]\nuntil-decided = 0\n"
			       "[workload w]\ntime = true\n",
			       m, sizeof(m)),
		     "until-decided = 0: want a percentage above 0") != NULL);
	CHECK(strstr(parse_err("[experiment]\nuntil-decided = 5\n"
			       "until-stable = 5\n[workload w]\ntime = true\n",
			       m, sizeof(m)),
		     "until-stable and until-decided: give one") != NULL);
	CHECK(strstr(parse_err("[experiment]\nuntil-decided = 5\nrepeat = 4\n"
			       "max-runs = 3\n[workload w]\ntime = true\n",
			       m, sizeof(m)),
		     "max-runs (3) is below repeat (4)") != NULL);
}

/* capture NAME = COMMAND: a variable set at run time. */
static void test_capture(void)
{
	static const char text[] =
		"[point]\n"
		"capture dev = losetup -f --show x\n"
		"set /sys/block/{dev}/queue/nr_requests = 8\n"
		"[workload w]\n"
		"time = dd if=/dev/{dev}\n";
	char *defs[] = { "dev=loop3" };
	struct clyde_sweep s;
	struct clyde_ctx c;
	char *out = NULL;

	CHECK(parse(text, &s, &c) == 0);
	if (s.nsetup == 2) {
		CHECK(s.setup[0].kind == CLYDE_SWEEP_CAPTURE);
		CHECK_STR(s.setup[0].value, "dev");
		CHECK(clyde_sweep_expand(&c, &s, 0, 1, s.workloads[0].args, 5,
					 &out) == 0);
		CHECK_STR(out, "dd if=/dev/");
		free(out);
		CHECK(clyde_sweep_set_var(&s, "dev", "loop9") == 0);
		CHECK(clyde_sweep_expand(&c, &s, 0, 1, s.workloads[0].args, 5,
					 &out) == 0);
		CHECK_STR(out, "dd if=/dev/loop9");
		free(out);
		CHECK(clyde_sweep_set_var(&s, "nope", "x") == -ENOENT);
	} else {
		CHECK(s.nsetup == 2);
	}
	clyde_sweep_release(&s);
	CHECK(clyde_sweep_parse(&c, "c.ini", text, strlen(text), defs, 1, &s) ==
	      -EINVAL);
	CHECK(strstr(clyde_errmsg(&c), "captured") != NULL);
	clyde_ctx_release(&c);
}

static void test_order(void)
{
	static const char text[] = "axis a = 1..6 +1\n"
				   "[experiment]\n"
				   "order = random\n"
				   "seed = 42\n"
				   "[workload w]\n"
				   "time = true\n";
	struct clyde_sweep s;
	struct clyde_ctx c;
	size_t o1[6], o2[6], o3[6];
	int seen = 0;

	CHECK(parse(text, &s, &c) == 0);
	if (s.npoints != 6) {
		CHECK(s.npoints == 6);
		clyde_ctx_release(&c);
		return;
	}
	clyde_sweep_round_order(&s, 0, o1);
	clyde_sweep_round_order(&s, 0, o2);
	clyde_sweep_round_order(&s, 1, o3);
	CHECK(!memcmp(o1, o2, sizeof(o1))); /* repeatable for resume */
	CHECK(memcmp(o1, o3, sizeof(o1)));  /* rounds differ */
	for (size_t i = 0; i < 6; i++)
		seen |= 1 << o1[i];
	CHECK(seen == 0x3f); /* a permutation */
	s.order = CLYDE_SWEEP_INTERLEAVED;
	clyde_sweep_round_order(&s, 3, o1);
	for (size_t i = 0; i < 6; i++)
		CHECK(o1[i] == i);
	clyde_sweep_release(&s);
	clyde_ctx_release(&c);
}

static void test_errors(void)
{
	char m[512];

	CHECK_STR(parse_err("[workload w]\n\ntime = echo {nope}\n", m,
			    sizeof(m)),
		  "t.ini:3: unknown placeholder {nope} (not an axis, a "
		  "variable, {point} or {repeat}; write {{ for a literal "
		  "brace)");
	CHECK(strstr(parse_err("[bogus]\nx = 1\n", m, sizeof(m)),
		     "t.ini:2: unknown section [bogus]") != NULL);
	CHECK(strstr(parse_err("axis a = 1..4 x1\n[workload w]\ntime=true\n", m,
			       sizeof(m)),
		     "t.ini:1: axis a:") != NULL);
	CHECK(strstr(parse_err(
			     "[experiment]\nrepeat = 0\n[workload w]\ntime=true\n",
			     m, sizeof(m)),
		     "t.ini:2: repeat = 0") != NULL);
	CHECK(strstr(parse_err("axis a = 1 2\naxis b = 1 2 3\n"
			       "[experiment]\nzip = a,b\n[workload w]\n"
			       "time = true\n",
			       m, sizeof(m)),
		     "differ in length") != NULL);
	CHECK(strstr(parse_err("[point]\nsetup = true\n", m, sizeof(m)),
		     "no [workload NAME]") != NULL);
	CHECK(strstr(parse_err("[point]\nnot a key line\n", m, sizeof(m)),
		     "t.ini:2: not an INI line") != NULL);
	CHECK(strstr(parse_err("[workload w]\ntime = true\ntree = x\n", m,
			       sizeof(m)),
		     "t.ini:3: [workload w]: one of") != NULL);
	CHECK(strstr(parse_err("[vars]\na = {b}\nb = {a}\n[workload w]\n"
			       "time = {a}\n",
			       m, sizeof(m)),
		     "nested more than") != NULL);
}

/* Issue 17 section 1: the line limit, a missing "]", escapes in keys,
 * and the paths a `set` may name. */
static void test_guards(void)
{
	char m[512], text[512], line[256];

	/* "time = true ###...": 199 characters, the most the docs allow. */
	snprintf(line, sizeof(line), "time = true %0187d", 0);
	CHECK(strlen(line) == 199);
	snprintf(text, sizeof(text), "[workload w]\n%s\n", line);
	CHECK_STR(parse_err(text, m, sizeof(m)), "(parsed)");
	snprintf(text, sizeof(text), "[workload w]\n%s0\n", line);
	CHECK(strstr(parse_err(text, m, sizeof(m)),
		     "t.ini:2: line longer than 199 characters") != NULL);
	/* Without a line end at the end of the file, too. */
	snprintf(text, sizeof(text), "[workload w]\n%s", line);
	CHECK_STR(parse_err(text, m, sizeof(m)), "(parsed)");
	CHECK_STR(parse_err("[experiment\nname = x\n[workload w]\ntime = "
			    "true\n",
			    m, sizeof(m)),
		  "t.ini:1: [experiment: a section header needs its \"]\"");
	CHECK(strstr(parse_err("\033[31mred\033[0m = 1\n[workload w]\n"
			       "time = true\n",
			       m, sizeof(m)),
		     "t.ini:1: unknown key \"\\x1b[31mred\\x1b[0m\"") != NULL);
	CHECK(strchr(m, '\033') == NULL);
	CHECK(strstr(parse_err("[point]\nset /proc/self/root/etc/x = 1\n"
			       "[workload w]\ntime = true\n",
			       m, sizeof(m)),
		     "t.ini:2: set /proc/self/root/etc/x: not below /sys or "
		     "/proc/sys; only files below /sys and /proc/sys") != NULL);
	/* The refusal names what is wrong: here the empty component. */
	CHECK(strstr(parse_err("[point]\nset /proc/sys/vm//x = 1\n"
			       "[workload w]\ntime = true\n",
			       m, sizeof(m)),
		     "t.ini:2: set /proc/sys/vm//x: an empty component (//); "
		     "only files below /sys and /proc/sys") != NULL);
	CHECK_STR(clyde_sweep_set_path_why("/sys/../etc/hostname"),
		  "a \"..\" component");
	CHECK_STR(clyde_sweep_set_path_why("/sys/./block/x"),
		  "a \".\" component");
	CHECK_STR(clyde_sweep_set_path_why("/sys/block/"),
		  "an empty last component (a trailing /)");
	CHECK(clyde_sweep_set_path_why("/proc/sys/vm/dirty_ratio") == NULL);
	{
		char *defs[] = { (char *)"nope=1" };
		struct clyde_sweep s;
		struct clyde_ctx c;
		static const char t[] = "[vars]\na = 1\nb = 2\n[workload w]\n"
					"time = {a}{b}\n";

		clyde_ctx_init(&c);
		CHECK(clyde_sweep_parse(&c, "t.ini", t, strlen(t), defs, 1,
					&s) < 0);
		CHECK_STR(clyde_errmsg(&c), "--define nope=1: t.ini defines no "
					    "variable nope (its [vars]: a, b)");
		clyde_ctx_release(&c);
	}
	CHECK(clyde_sweep_set_path_ok("/sys/block/{loop}/queue/read_ahead_kb"));
	CHECK(clyde_sweep_set_path_ok("/proc/sys/vm/dirty_ratio"));
	CHECK(!clyde_sweep_set_path_ok("/proc/self/cwd/x"));
	CHECK(!clyde_sweep_set_path_ok("/proc/version"));
	CHECK(!clyde_sweep_set_path_ok("/etc/hostname"));
	CHECK(!clyde_sweep_set_path_ok("/sys/../etc/hostname"));
	CHECK(!clyde_sweep_set_path_ok("/sys/./block/x"));
	CHECK(!clyde_sweep_set_path_ok("/sys//block/x"));
	CHECK(!clyde_sweep_set_path_ok("/sys/block/"));
	CHECK(!clyde_sweep_set_path_ok("sys/block/x"));
}

/* Issue 30, 3.3: a repeated key or section is refused, not joined; a
 * continuation (an indented line) still is; a NUL byte is refused, not
 * the end of its line.  One line naming FILE:LINE each. */
static void test_repeats_and_nul(void)
{
	static const char nul[] = "[workload w]\ntime = echo a\0; rm -rf /\n";
	struct clyde_sweep s;
	struct clyde_ctx c;
	char m[512];

	CHECK_STR(parse_err("[workload w]\ntime = rm -rf /tmp/X\n"
			    "time = echo second\n",
			    m, sizeof(m)),
		  "t.ini:3: key \"time\" repeated (first at line 2): one value "
		  "per key; continue a run, tree, time, fio or dev command on "
		  "an indented line");
	CHECK_STR(parse_err("[workload w]\ntime = true\n[workload w]\n"
			    "time = false\n",
			    m, sizeof(m)),
		  "t.ini:3: section [workload w] repeated (first at line 1): "
		  "one section of a name");
	CHECK(strstr(parse_err("[point]\nsetup = true\n[workload w]\n"
			       "time = true\n[point]\nsetup = false\n",
			       m, sizeof(m)),
		     "t.ini:5: section [point] repeated (first at line 1)") !=
	      NULL);
	CHECK(strstr(parse_err("[experiment]\ntitle = a\ntitle = b\n"
			       "[workload w]\ntime = true\n",
			       m, sizeof(m)),
		     "t.ini:3: key \"title\" repeated (first at line 2)") !=
	      NULL);
	CHECK(strstr(parse_err("[workload w]\ntime = true\nbefore = a\n"
			       "  b\n",
			       m, sizeof(m)),
		     "t.ini:4: an indented line continues \"before\"") != NULL);
	clyde_ctx_init(&c);
	CHECK(clyde_sweep_parse(&c, "t.ini", nul, sizeof(nul) - 1, NULL, 0,
				&s) < 0);
	CHECK_STR(clyde_errmsg(&c), "t.ini:2: a NUL byte in the line");
	clyde_ctx_release(&c);
	/* What stays: a continuation joins, setup and teardown repeat. */
	CHECK(parse("[point]\nsetup = a\nsetup = b\nteardown = c\n"
		    "teardown = d\n[workload w]\ntime = echo one\n  two\n",
		    &s, &c) == 0);
	CHECK(s.nsetup == 2 && s.nteardown == 2);
	CHECK_STR(s.workloads[0].args, "echo one two");
	clyde_sweep_release(&s);
	clyde_ctx_release(&c);
}

int main(void)
{
#ifndef CLYDE_HAVE_INIH
	tap_skip_all("clyde was built without libinih");
#endif
	test_ranges();
	test_cross_product();
	test_zip_and_defines();
	test_numbers_from_vars();
	test_until_decided();
	test_capture();
	test_order();
	test_errors();
	test_guards();
	test_repeats_and_nul();
	return tap_done();
}
