/*
 * Number and label formatting shared by the text, CSV and JSON writers.
 * The rules are bonnie++ 2.00a's (see format.h for where clyde differs).
 */
#include "results/format.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/vis.h"

/* Truncate towards zero as bonnie++'s int() casts do, without the
 * undefined behaviour of casting a huge or NaN double. */
static long long trunc_ll(double v)
{
	if (!(v == v))
		return 0;
	if (v >= 9.2e18)
		return 9200000000000000000LL;
	if (v <= -9.2e18)
		return -9200000000000000000LL;
	return (long long)v;
}

/* snprintf's %f follows LC_NUMERIC; the formats need a '.'.  Numbers
 * never contain a ',' otherwise, so swapping it back is safe. */
static char *fix_point(char *buf)
{
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	return buf;
}

enum clyde_fmt_show clyde_fmt_show(const struct clyde_test_result *t)
{
	if (t->state != CLYDE_DONE)
		return CLYDE_SHOW_BLANK;
	if (t->elapsed_ns < CLYDE_TOO_FAST_NS)
		return CLYDE_SHOW_TOO_FAST;
	return CLYDE_SHOW_VALUE;
}

static bool any_run(const struct clyde_run *run, int from, int to)
{
	for (int i = from; i < to; i++)
		if (run->tests[i].state != CLYDE_NOT_RUN)
			return true;
	return false;
}

bool clyde_run_has_io(const struct clyde_run *run)
{
	return any_run(run, CLYDE_PUTC, CLYDE_FIRST_FILE_TEST);
}

bool clyde_run_has_files(const struct clyde_run *run)
{
	return any_run(run, CLYDE_FIRST_FILE_TEST, CLYDE_TEST_COUNT);
}

char *clyde_fmt_double(char *buf, size_t len, double v, int decimals)
{
	if (isnan(v) || isinf(v))
		v = 0.0;
	snprintf(buf, len, "%.*f", decimals, v);
	return fix_point(buf);
}

char *clyde_fmt_io_rate(char *buf, size_t len, double kib_per_s)
{
	double mib = kib_per_s / 1024.0;

	if (kib_per_s < 10000.0) {
		snprintf(buf, len, "%lldk", trunc_ll(kib_per_s));
	} else if (mib < 1000.0) {
		/* bonnie++ tests mib < 100 before rounding, so 99.96 came out
		 * as "100.0m", one column too wide; test the rounded value. */
		if (mib < 99.95)
			snprintf(buf, len, "%.1fm", mib);
		else
			snprintf(buf, len, "%lldm", trunc_ll(mib + 0.5));
	} else {
		snprintf(buf, len, "%.1fg", mib / 1024.0);
	}
	return fix_point(buf);
}

char *clyde_fmt_seeks(char *buf, size_t len, double per_s)
{
	/* 999.95 and over would print as "1000.0": use the integer form. */
	if (per_s >= 999.95)
		snprintf(buf, len, "%.0f", per_s);
	else
		snprintf(buf, len, "%.1f", per_s);
	return fix_point(buf);
}

char *clyde_fmt_latency(char *buf, size_t len, uint64_t ns)
{
	if (ns < 100000000ull)
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000u);
	else if (ns < 100000000000ull)
		snprintf(buf, len, "%" PRIu64 "ms", ns / 1000000u);
	else
		snprintf(buf, len, "%" PRIu64 "s", ns / 1000000000u);
	return buf;
}

char *clyde_fmt_file_size(char *buf, size_t len, uint64_t mib)
{
	if (mib && mib % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "G", mib / 1024);
	else
		snprintf(buf, len, "%" PRIu64 "M", mib);
	return buf;
}

char *clyde_fmt_chunk(char *buf, size_t len, uint32_t bytes)
{
	if (bytes && bytes % (1024u * 1024u) == 0)
		snprintf(buf, len, "%" PRIu32 "m", bytes / (1024u * 1024u));
	else if (bytes && bytes % 1024u == 0)
		snprintf(buf, len, "%" PRIu32 "k", bytes / 1024u);
	else
		snprintf(buf, len, "%" PRIu32, bytes);
	return buf;
}

char *clyde_fmt_size_spec(char *buf, size_t len,
			  const struct clyde_run_params *p)
{
	/* bonnie++ 2.00a never prints the seeker count here. */
	char opt[3][32] = { "", "", "" };
	char size[32];
	int last = -1;

	if (p->io_chunk != CLYDE_DEFAULT_IO_CHUNK)
		clyde_fmt_chunk(opt[0], sizeof(opt[0]), p->io_chunk);
	if (p->concurrency != 1)
		snprintf(opt[1], sizeof(opt[1]), "%u", p->concurrency);
	if (p->seeks != CLYDE_DEFAULT_SEEKS)
		snprintf(opt[2], sizeof(opt[2]), "%" PRIu32, p->seeks);
	for (int i = 0; i < 3; i++)
		if (opt[i][0])
			last = i;

	clyde_fmt_file_size(size, sizeof(size), p->file_size_mib);
	snprintf(buf, len, "%s", size);
	for (int i = 0; i <= last; i++) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, ":%s", opt[i]);
	}
	return buf;
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

char *clyde_fmt_text_name(char *buf, size_t len, const char *name,
			  size_t name_max, size_t cols)
{
	size_t n = strnlen(name, name_max), i = 0, o = 0, used = 0;

	if (!len)
		return buf;
	/* One column per character: a valid UTF-8 sequence is copied whole
	 * (or not at all), any other byte counts as one character. */
	while (i < n && used < cols) {
		size_t sl = clyde_utf8_seq_len(name + i, n - i);

		if (sl < 1)
			sl = 1;
		if (o + sl >= len)
			break;
		if (sl == 1 && is_control((unsigned char)name[i]))
			buf[o] = '_';
		else
			memcpy(buf + o, name + i, sl);
		o += sl;
		i += sl;
		used++;
	}
	while (used < cols && o + 1 < len) {
		buf[o++] = ' ';
		used++;
	}
	buf[o] = '\0';
	return buf;
}

char *clyde_fmt_csv_name(char *buf, size_t len, const char *name,
			 size_t name_max)
{
	size_t n = strnlen(name, name_max), o;

	if (!len)
		return buf;
	for (o = 0; o < n && o + 1 < len; o++) {
		unsigned char c = (unsigned char)name[o];

		buf[o] = (c == ',' || is_control(c)) ? '_' : (char)c;
	}
	buf[o] = '\0';
	return buf;
}

char *clyde_fmt_name_cell(char *buf, size_t len,
			  const struct clyde_run_params *p)
{
	char spec[CLYDE_FMT_LEN];
	char name[CLYDE_FMT_LEN];
	size_t sl;

	clyde_fmt_size_spec(spec, sizeof(spec), p);
	sl = strlen(spec);
	if (sl >= 19) {
		snprintf(buf, len, "%s", spec);
		return buf;
	}
	clyde_fmt_text_name(name, sizeof(name), p->name, sizeof(p->name),
			    18 - sl);
	snprintf(buf, len, "%s %s", name, spec);
	return buf;
}

char *clyde_fmt_file_label(char *buf, size_t len,
			   const struct clyde_run_params *p)
{
	size_t used;

	snprintf(buf, len, "%" PRIu64, p->num_files / 1024);
	used = strlen(buf);
	if (p->max_size == -1)
		snprintf(buf + used, len - used, ":link");
	else if (p->max_size == -2)
		snprintf(buf + used, len - used, ":symlink");
	else if (p->max_size)
		snprintf(buf + used, len - used, ":%" PRId64 ":%" PRId64,
			 p->max_size, p->min_size);
	used = strlen(buf);
	if (p->num_dirs > 1)
		snprintf(buf + used, len - used, "/%" PRIu32, p->num_dirs);
	return buf;
}

const char *clyde_fmt_file_header(const struct clyde_run_params *p)
{
	if (p->min_size)
		return "files:max:min";
	if (p->max_size)
		return "files:max";
	return "files";
}

/* The rate cell in either flavour; `text` picks the text table's units. */
static char *fmt_rate(char *buf, size_t len, const struct clyde_test_result *t,
		      enum clyde_test id, bool text)
{
	double rate;

	switch (clyde_fmt_show(t)) {
	case CLYDE_SHOW_BLANK:
		snprintf(buf, len, "%s", "");
		return buf;
	case CLYDE_SHOW_TOO_FAST:
		snprintf(buf, len, "%s", "+++++");
		return buf;
	case CLYDE_SHOW_VALUE:
		break;
	}
	rate = clyde_test_rate(t, id);
	if (clyde_test_is_io(id)) {
		if (text)
			return clyde_fmt_io_rate(buf, len, rate / 1024.0);
		snprintf(buf, len, "%lld", trunc_ll(rate / 1024.0));
	} else if (id == CLYDE_SEEKS) {
		return clyde_fmt_seeks(buf, len, rate);
	} else {
		snprintf(buf, len, "%lld", trunc_ll(rate));
	}
	return buf;
}

char *clyde_fmt_text_rate(char *buf, size_t len,
			  const struct clyde_test_result *t, enum clyde_test id)
{
	return fmt_rate(buf, len, t, id, true);
}

char *clyde_fmt_csv_rate(char *buf, size_t len,
			 const struct clyde_test_result *t, enum clyde_test id)
{
	return fmt_rate(buf, len, t, id, false);
}

char *clyde_fmt_cpu(char *buf, size_t len, const struct clyde_test_result *t)
{
	switch (clyde_fmt_show(t)) {
	case CLYDE_SHOW_BLANK:
		snprintf(buf, len, "%s", "");
		break;
	case CLYDE_SHOW_TOO_FAST:
		snprintf(buf, len, "%s", "+++");
		break;
	case CLYDE_SHOW_VALUE:
		snprintf(buf, len, "%lld", trunc_ll(clyde_test_cpu_pct(t)));
		break;
	}
	return buf;
}

char *clyde_fmt_test_latency(char *buf, size_t len,
			     const struct clyde_test_result *t)
{
	if (t->state != CLYDE_DONE) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	return clyde_fmt_latency(buf, len, t->latency_max_ns);
}

void clyde_fmt_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * Numbers for a person (compare, report, history list): as many decimals
 * as the magnitude deserves and no more.  None from 1000 on, one from 10,
 * two from 1, three significant digits below; a whole value (a count from
 * a CSV: 888 files/s) without decimals when the caller says the row is
 * whole.
 */
char *clyde_fmt_readable(char *buf, size_t len, double v, bool whole)
{
	double a = fabs(v);
	int dec;

	if (isnan(v) || isinf(v))
		v = a = 0.0;
	if (whole || a >= 999.95 || a == 0)
		dec = 0;
	else if (a >= 9.995)
		dec = 1;
	else if (a >= 0.9995)
		dec = 2;
	else
		dec = 2 - (int)floor(log10(a));
	if (dec > 12)
		dec = 12;
	snprintf(buf, len, "%.*f", dec, v);
	return fix_point(buf);
}

const char *clyde_fmt_pick_unit(const char *base_unit, double max,
				double *divisor)
{
	static const char *const bytes[] = { "B/s", "KiB/s", "MiB/s", "GiB/s",
					     "TiB/s" };
	static const char *const times[] = { "ns", "us", "ms", "s" };
	static const double tdiv[] = { 1, 1e3, 1e6, 1e9 };
	size_t i;

	*divisor = 1;
	if (!strcmp(base_unit, "B/s")) {
		/* KiB/s at least: bonnie++ users read rates in K. */
		for (i = 1; i < 4 && max >= *divisor * 1024 * 1024; i++)
			*divisor *= 1024;
		*divisor *= 1024;
		return bytes[i];
	}
	if (!strcmp(base_unit, "ns")) {
		for (i = 0; i < 3 && max >= tdiv[i + 1]; i++)
			;
		*divisor = tdiv[i];
		return times[i];
	}
	return base_unit;
}
