/*
 * clyde's JSON result document, schema_version 1 (docs/json-schema.md).
 * Runs are built by hand with histograms, cache, device and environment
 * filled in; python3's json module is the judge of validity, and a python
 * checker asserts every field of the schema: present, of the right type,
 * equal to what was put in, with the derived numbers (rates, latency
 * percentiles, device averages, write amplification, the run-to-run
 * summary) recomputed independently from the raw fields and the values
 * the histograms were fed.
 */
#include "results/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/summary.h"
#include "tap.h"

#define SEC 1000000000ull
#define GIB (1ull << 30)

/* Quote, backslash, newline, tab, DEL, an invalid byte, e-acute, U+2028. */
static const char hostile[] = "a\"b\\c\nd\te\x7f"
			      "f\xff"
			      "g\xc3\xa9h"
			      "\xe2\x80\xa8"
			      "i\x01";

static void fill_env(struct clyde_run *r)
{
	struct clyde_machine *m = &r->env.machine;
	struct clyde_target *t = &r->env.target;

	snprintf(m->host, sizeof(m->host), "host-\"1\"");
	snprintf(m->kernel, sizeof(m->kernel), "6.1.0-test");
	snprintf(m->cpu_model, sizeof(m->cpu_model), "Test CPU @ 3.00GHz");
	m->ncpu = 8;
	m->ram_bytes = 17179869184ull;
	/* writeback tunables: dirty_bytes not read */
	for (int i = 0; i < CLYDE_VM_COUNT; i++)
		m->vm[i] = 10 + i;
	m->vm[CLYDE_VM_DIRTY_BYTES] = -1;
	/* an invalid UTF-8 byte and a quote in a path */
	snprintf(t->path, sizeof(t->path), "/mnt/t\xff\"x");
	snprintf(t->fstype, sizeof(t->fstype), "ext4");
	snprintf(t->mount_point, sizeof(t->mount_point), "/mnt");
	snprintf(t->mount_opts, sizeof(t->mount_opts), "rw,relatime");
	snprintf(t->source, sizeof(t->source), "/dev/vda1");
	t->has_block_device = true;
	snprintf(t->block_dev, sizeof(t->block_dev), "vda1");
	snprintf(t->disk, sizeof(t->disk), "vda");
	t->logical_block_size = 512;
	t->physical_block_size = 4096;
	t->rotational = false;
}

/*
 * Run k of a series.  Rates differ between runs only in put_block (its
 * elapsed time is 2 + k seconds), so that the summary has one test with a
 * spread and others without.
 */
static void build(struct clyde_run *r, unsigned k)
{
	struct clyde_test_result *t;

	clyde_run_init(r);
	snprintf(r->params.name, sizeof(r->params.name), "%s", hostile);
	r->params.concurrency = 2;
	r->params.seed = 1000 + k;
	r->params.file_size_mib = 512;
	r->params.io_chunk = 4096;
	r->params.seeks = 8192;
	r->params.seekers = 5;
	r->params.num_files = 16384;
	r->params.max_size = -2;
	r->params.min_size = 0;
	r->params.num_dirs = 3;
	r->params.file_chunk = 8192;
	r->params.direct = true;
	r->params.fsync_each = false;
	r->params.perchar_bytes = 1048576;
	r->params.size_auto = true;
	r->params.evict = true;
	r->params.drop_caches = false;
	snprintf(r->params.pattern, sizeof(r->params.pattern), "random");
	snprintf(r->params.engine, sizeof(r->params.engine), "io_uring");
	r->params.iodepth = 32;
	r->params.iodepth_batch = 4;
	r->started_unix = 1700000000ull + k;
	r->wall_ns = 70000000000ull + k;
	r->overhead_ns = 3000000000ull + k;
	fill_env(r);

	/* put_block: two workers, latencies 1..10000 us split between
	 * them (merged by clyde_test_sum_spans), 1.5x write amplification */
	t = &r->tests[CLYDE_PUT_BLOCK];
	t->state = CLYDE_DONE;
	CHECK(clyde_test_alloc_spans(t, 2) == 0);
	t->spans[0].start_ns = 1000;
	t->spans[0].end_ns = (2 + k) * SEC + 1000;
	t->spans[0].bytes = GIB / 2;
	t->spans[0].ops = 65536;
	t->spans[0].cpu_user_ns = 1234;
	t->spans[0].cpu_sys_ns = 5678;
	t->spans[0].latency_max_ns = 5000000;
	t->spans[1].start_ns = 2000;
	t->spans[1].end_ns = (2 + k) * SEC + 2000;
	t->spans[1].bytes = GIB / 2;
	t->spans[1].ops = 65536;
	t->spans[1].latency_max_ns = 10000000;
	/* The least of the workers' buffer pages is the test's. */
	t->spans[0].buffer_pages = CLYDE_IOBUF_HUGETLB;
	t->spans[1].buffer_pages = CLYDE_IOBUF_THP;
	/* The most of the workers' depths that ran is the test's. */
	t->spans[0].inflight_max = 4;
	t->spans[1].inflight_max = 16;
	t->spans[1].inflight_mean = 12.5;
	for (uint64_t i = 1; i <= 10000; i++)
		clyde_hist_record(t->spans[i > 5000].hist, i * 1000);
	clyde_test_sum_spans(t);
	t->cpu_user_ns = SEC;
	t->cpu_sys_ns = SEC / 2;
	t->cache.evicted = true;
	t->dev = (struct clyde_devio){ .have_device = true,
				       .read_bytes = 4096,
				       .write_bytes = GIB + GIB / 2,
				       .read_ios = 1,
				       .write_ios = 12288,
				       .read_merges = 7,
				       .write_merges = 9 };

	/* rewrite: no latency recorded, a device that saw nothing */
	t = &r->tests[CLYDE_REWRITE];
	t->state = CLYDE_DONE;
	t->bytes = GIB;
	t->ops = 131072;
	t->elapsed_ns = 3 * SEC;
	t->dev.have_device = true;

	t = &r->tests[CLYDE_GETC];
	t->state = CLYDE_SKIPPED;
	t->note = "per-char \"tests\" off";

	/* get_block: 90% cached, -D not honoured, a long tail */
	t = &r->tests[CLYDE_GET_BLOCK];
	t->state = CLYDE_DONE;
	t->bytes = GIB;
	t->ops = 8192;
	t->elapsed_ns = SEC;
	t->latency = malloc(sizeof(*t->latency));
	CHECK(t->latency != NULL);
	if (t->latency) {
		clyde_hist_init(t->latency);
		clyde_hist_record_n(t->latency, 50000, 9900);
		clyde_hist_record_n(t->latency, 20000000, 100);
	}
	t->cache = (struct clyde_cache_info){ .evicted = true,
					      .dropped = true,
					      .measured = true,
					      .resident_bytes = 900,
					      .total_bytes = 1000,
					      .direct_checked = true,
					      .direct_honoured = false };
	t->dev = (struct clyde_devio){ .have_device = true,
				       .read_bytes = GIB,
				       .read_ios = 8192 };

	/* seeks: too fast for bonnie++'s formats, writes some */
	t = &r->tests[CLYDE_SEEKS];
	t->state = CLYDE_DONE;
	t->ops = 8192;
	t->elapsed_ns = SEC / 10;
	t->dev = (struct clyde_devio){ .have_device = true,
				       .read_bytes = 1 << 20,
				       .write_bytes = 1 << 19,
				       .read_ios = 100,
				       .write_ios = 50 };

	/* seq_create: no device below, 10% cached */
	t = &r->tests[CLYDE_SEQ_CREATE];
	t->state = CLYDE_DONE;
	t->ops = 16384;
	t->elapsed_ns = 2 * SEC;
	t->cache.measured = true;
	t->cache.resident_bytes = 1;
	t->cache.total_bytes = 10;
}

/* The document for runs[0..n) as a string (caller frees). */
static char *json_of(const struct clyde_run *runs, unsigned n,
		     const struct clyde_json_extra *extra)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc;

	if (!f)
		return NULL;
	rc = clyde_json_write(f, runs, n, extra, "0.1.0");
	fclose(f);
	CHECK(rc == 0);
	return out;
}

/*
 * Run python3 on `script` (pieces to join, NULL-terminated: ISO C caps a
 * string literal's length) with the document in a file named by argv[1]
 * and `arg` as argv[2]; true when it exited 0.  The script comes on
 * stdin, so no shell quoting is involved.
 */
static bool python_check(const char *doc, const char *const *script,
			 const char *arg, bool quiet)
{
	char path[] = "/tmp/clyde-test-json-XXXXXX";
	char cmd[512];
	int fd = mkstemp(path), st;
	FILE *p;
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, doc, strlen(doc)) == (ssize_t)strlen(doc);
	close(fd);
	snprintf(cmd, sizeof(cmd), "python3 - %s %s%s", path, arg,
		 quiet ? " 2>/dev/null" : "");
	p = ok ? popen(cmd, "w") : NULL;
	if (p) {
		for (; *script; script++)
			fputs(*script, p);
		st = pclose(p);
		ok = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	} else {
		ok = false;
	}
	unlink(path);
	return ok;
}

/*
 * The checker.  argv[2] is the target percentage given to the writer
 * ("0" for none).  Every object's key set is compared exactly, so a
 * missing or unexpected field fails.  NaN/Infinity are rejected by the
 * parser itself.
 */
static const char *const checker[] = {
	"import json, math, sys\n",
	"fails = []\n",
	"def check(cond, what):\n",
	"    if not cond:\n",
	"        fails.append(what)\n",
	"def bad_const(c):\n",
	"    raise ValueError('non-JSON constant ' + c)\n",
	"d = json.load(open(sys.argv[1]), parse_constant=bad_const)\n",
	"target = float(sys.argv[2])\n",
	"def keys(o, want, what):\n",
	"    check(isinstance(o, dict) and set(o) == set(want.split()),\n",
	"          what + ' keys: ' + repr(sorted(o) if isinstance(o, dict) else o))\n",
	"def isint(v):\n",
	"    return isinstance(v, int) and not isinstance(v, bool)\n",
	"def isnum(v):\n",
	"    return isinstance(v, (int, float)) and not isinstance(v, bool)\n",
	"def near(a, b, rel):\n",
	"    return abs(a - b) <= rel * abs(b) + 1e-9\n",
	"HOSTILE = 'a\"b\\\\c\\nd\\te\\x7ff\\ufffdg\\u00e9h\\u2028i\\x01'\n",
	"keys(d, 'schema schema_version clyde_version kind label started_unix '\n",
	"     'machine target config runs summary until_stable '\n",
	"     'virtual_disk stack advice', 'top')\n",
	"check(d['schema'] == 'clyde-result', 'schema')\n",
	"check(d['schema_version'] == 1 and isint(d['schema_version']), 'v')\n",
	"check(d['clyde_version'] == '0.1.0', 'clyde_version')\n",
	"check(d['kind'] == 'bonnie', 'kind')\n",
	"check(d['label'] == HOSTILE, 'label ' + repr(d['label']))\n",
	"check(d['started_unix'] == 1700000000, 'started_unix')\n",
	"m = d['machine']\n",
	"keys(m, 'host kernel cpu_model ncpu ram_bytes vm', 'machine')\n",
	"check(m == {'host': 'host-\"1\"', 'kernel': '6.1.0-test',\n",
	"  'cpu_model': 'Test CPU @ 3.00GHz', 'ncpu': 8,\n",
	"  'ram_bytes': 17179869184, 'vm': {'dirty_ratio': 10,\n",
	"  'dirty_background_ratio': 11, 'dirty_bytes': None,\n",
	"  'dirty_background_bytes': 13, 'dirty_expire_centisecs': 14,\n",
	"  'dirty_writeback_centisecs': 15}}, 'machine values ' + repr(m))\n",
	"t = d['target']\n",
	"keys(t, 'path fstype mount_point mount_opts source has_block_device '\n",
	"     'no_device_reason block_dev disk logical_block_size '\n",
	"     'physical_block_size rotational', 'target')\n",
	"check(t == {'path': '/mnt/t\\ufffd\"x', 'fstype': 'ext4',\n",
	"  'mount_point': '/mnt', 'mount_opts': 'rw,relatime',\n",
	"  'source': '/dev/vda1', 'has_block_device': True,\n",
	"  'no_device_reason': '', 'block_dev': 'vda1', 'disk': 'vda',\n",
	"  'logical_block_size': 512, 'physical_block_size': 4096,\n",
	"  'rotational': False}, 'target values ' + repr(t))\n",
	"c = d['config']\n",
	"keys(c, 'name concurrency seed file_size_mib io_chunk seeks seekers '\n",
	"     'num_files max_size min_size num_dirs file_chunk direct '\n",
	"     'fsync_each perchar_bytes size_auto evict drop_caches verify pattern '\n",
	"     'engine iodepth iodepth_batch runtime_ns stonewall_ns log_interval_ns',\n",
	"     'config')\n",
	"check(c == {'name': HOSTILE, 'concurrency': 2, 'seed': 1000,\n",
	"  'file_size_mib': 512, 'io_chunk': 4096, 'seeks': 8192,\n",
	"  'seekers': 5, 'num_files': 16384, 'max_size': -2, 'min_size': 0,\n",
	"  'num_dirs': 3, 'file_chunk': 8192, 'direct': True,\n",
	"  'fsync_each': False, 'perchar_bytes': 1048576, 'size_auto': True,\n",
	"  'evict': True, 'drop_caches': False, 'verify': False,\n",
	"  'pattern': 'random',\n",
	"  'engine': 'io_uring', 'iodepth': 32, 'iodepth_batch': 4, 'runtime_ns': 0,\n",
	"  'stonewall_ns': 0, 'log_interval_ns': 0},\n",
	"  'config values ' + repr(c))\n",
	"NAMES = ['putc', 'put_block', 'rewrite', 'getc', 'get_block', 'seeks',\n",
	"  'seq_create', 'seq_stat', 'seq_del', 'ran_create', 'ran_stat',\n",
	"  'ran_del']\n",
	"UNIT = {n: 'B/s' for n in NAMES[:5]}\n",
	"UNIT['seeks'] = 'seeks/s'\n",
	"for n in NAMES[6:]: UNIT[n] = 'files/s'\n",
	"def quantile(vals, q):\n",
	"    vals = sorted(vals)\n",
	"    r = max(1, math.ceil(q * len(vals)))\n",
	"    return vals[r - 1]\n",
	"LAT = {'put_block': [i * 1000 for i in range(1, 10001)],\n",
	"       'get_block': [50000] * 9900 + [20000000] * 100}\n",
	"def check_latency(name, l):\n",
	"    vals = LAT.get(name)\n",
	"    if vals is None:\n",
	"        check(l is None, name + ': latency null')\n",
	"        return\n",
	"    keys(l, 'count min_ns mean_ns p50_ns p90_ns p99_ns p999_ns max_ns '\n",
	"         'sample_every buckets', name + ' latency')\n",
	"    check(l['sample_every'] == 1, name + ': every operation timed')\n",
	"    check(l['count'] == len(vals), name + ': count')\n",
	"    check(l['min_ns'] == min(vals) and l['max_ns'] == max(vals),\n",
	"          name + ': min/max exact')\n",
	"    check(near(l['mean_ns'], sum(vals) / len(vals), 1e-9),\n",
	"          name + ': mean exact')\n",
	"    for key, q in (('p50_ns', .5), ('p90_ns', .9), ('p99_ns', .99),\n",
	"                   ('p999_ns', .999)):\n",
	"        want = quantile(vals, q)\n",
	"        check(isint(l[key]) and near(l[key], want, 0.02),\n",
	"              '%s: %s %r vs %r' % (name, key, l[key], want))\n",
	"    b = l['buckets']\n",
	"    check(all(isinstance(x, list) and len(x) == 3 and\n",
	"              all(isint(v) for v in x) and x[0] <= x[1] and x[2] > 0\n",
	"              for x in b), name + ': bucket shape')\n",
	"    check(sum(x[2] for x in b) == l['count'], name + ': buckets sum')\n",
	"    check(all(b[i][1] < b[i + 1][0] for i in range(len(b) - 1)),\n",
	"          name + ': buckets ordered, disjoint')\n",
	"    for v in sorted(set(vals))[::97]:\n",
	"        n = sum(x[2] for x in b if x[0] <= v <= x[1])\n",
	"        check(n >= vals.count(v), name + ': bucket of %d' % v)\n",
	"def check_test(ri, x, name):\n",
	"    keys(x, 'name state note bytes ops elapsed_ns cpu_user_ns '\n",
	"         'cpu_sys_ns rate_per_s rate_unit cpu_pct too_fast latency '\n",
	"         'buffer_pages inflight_max inflight_mean cache device io settle workers members '\n",
	"         'members_check nfs series steadiness degraded_during '\n",
	"         'verified_blocks refill_gap_mean_ns', name)\n",
	"    check(x['verified_blocks'] == 0, name + ': not verified')\n",
	"    check(x['degraded_during'] is None, name + ': degraded_during')\n",
	"    io = x['io']\n",
	"    keys(io, 'present scope devices read_bytes write_bytes '\n",
	"         'total_read_bytes total_write_bytes attributed own_source '\n",
	"         'cgroup own_read_bytes own_write_bytes other_read_bytes '\n",
	"         'other_write_bytes other_shown process_read_bytes '\n",
	"         'process_write_bytes fs_for_clyde_read_bytes '\n",
	"         'fs_for_clyde_write_bytes top_read_bytes top_write_bytes '\n",
	"         'write_amplification writes_lost', name + ' io')\n",
	"    # the made-up rewrite wrote 1 GiB and its device took 512 KiB\n",
	"    check(io['writes_lost'] is (name == 'rewrite'),\n",
	"          name + ': writes lost only where the device took too little')\n",
	"    check(io['write_amplification'] == x['device']['write_amplification'],\n",
	"          name + ': the device WA is the test\\'s')\n",
	"    check(io['attributed'] is False and io['own_source'] is None and\n",
	"          io['own_write_bytes'] is None, name + ': no own source')\n",
	"    keys(x['settle'], 'looked busy busy_before busy_during '\n",
	"         'others_bytes others_procs device_bytes limit_ns waited_ns in_flight '\n",
	"         'moved_bytes discarded_bytes discard_ios pages_of dirty_bytes '\n",
	"         'writeback_bytes busiest still_going_on', name + ' settle')\n",
	"    check(x['settle']['looked'] is False, name + ': not looked')\n",
	"    check(x['series'] is None and x['steadiness'] is None,\n",
	"          name + ': no series without --log-interval')\n",
	"    check(x['buffer_pages'] in (None, 'small', 'thp', 'hugetlb'),\n",
	"          name + ': buffer_pages')\n",
	"    for k in ('bytes', 'ops', 'elapsed_ns', 'cpu_user_ns',\n",
	"              'cpu_sys_ns'):\n",
	"        check(isint(x[k]), name + ': int ' + k)\n",
	"    check(isnum(x['rate_per_s']) and isnum(x['cpu_pct']),\n",
	"          name + ': numbers')\n",
	"    check(x['rate_unit'] == UNIT[name], name + ': unit')\n",
	"    amount = x['bytes'] if UNIT[name] == 'B/s' else x['ops']\n",
	"    want = amount * 1e9 / x['elapsed_ns'] if x['elapsed_ns'] else 0\n",
	"    check(near(x['rate_per_s'], want, 1e-9), name + ': rate')\n",
	"    check(isinstance(x['too_fast'], bool), name + ': too_fast bool')\n",
	"    check(x['too_fast'] == (x['state'] == 'done' and\n",
	"          x['elapsed_ns'] < 500000000), name + ': too_fast')\n",
	"    check(x['note'] is None or isinstance(x['note'], str), name)\n",
	"    ca = x['cache']\n",
	"    keys(ca, 'evicted source dropped residency resident_bytes total_bytes '\n",
	"         'warning direct_checked direct_honoured loop_backing',\n",
	"         name + ' cache')\n",
	"    for k in ('evicted', 'dropped', 'warning', 'direct_checked',\n",
	"              'direct_honoured'):\n",
	"        check(isinstance(ca[k], bool), name + ': cache bool ' + k)\n",
	"    check(ca['source'] in ('arc', 'page_cache'), name + ': source')\n",
	"    check(ca['residency'] is None or 0 <= ca['residency'] <= 1,\n",
	"          name + ': residency')\n",
	"    check(ca['warning'] == (ca['residency'] is not None and\n",
	"          ca['residency'] >= 0.5), name + ': warning rule')\n",
	"    dv = x['device']\n",
	"    keys(dv, 'present read_bytes write_bytes read_ios write_ios '\n",
	"         'read_merges write_merges avg_read_request_bytes '\n",
	"         'avg_write_request_bytes write_amplification', name + ' dev')\n",
	"    check(isinstance(dv['present'], bool), name + ': present bool')\n",
	"    for k in ('read', 'write'):\n",
	"        ios, by = dv[k + '_ios'], dv[k + '_bytes']\n",
	"        check(isint(ios) and isint(by), name + ': dev ints')\n",
	"        check(near(dv['avg_%s_request_bytes' % k],\n",
	"                   by / ios if ios else 0, 1e-6), name + ': avg ' + k)\n",
	"    wa = dv['write_amplification']\n",
	"    if dv['present'] and name in ('putc', 'put_block', 'rewrite') \\\n",
	"       and x['bytes'] > 0:\n",
	"        check(near(wa, dv['write_bytes'] / x['bytes'], 1e-4),\n",
	"              name + ': write amplification')\n",
	"    else:\n",
	"        check(wa is None, name + ': write amplification null')\n",
	"    for w in x['workers']:\n",
	"        keys(w, 'index start_ns end_ns bytes ops cpu_user_ns '\n",
	"             'cpu_sys_ns latency_max_ns buffer_pages inflight_max '\n",
	"             'inflight_mean '\n",
	"             'stonewalled series',\n",
	"             name + ' worker')\n",
	"        check(all(isint(v) for k, v in w.items()\n",
	"                  if k not in ('buffer_pages', 'inflight_max',\n",
	"                               'inflight_mean',\n",
	"                               'stonewalled', 'series')),\n",
	"              name + ': w ints')\n",
	"        check(w['buffer_pages'] in (None, 'small', 'thp', 'hugetlb'),\n",
	"              name + ': w buffer_pages')\n",
	"    check_latency(name, x['latency'])\n",
	"runs = d['runs']\n",
	"check(isinstance(runs, list) and len(runs) >= 1, 'runs')\n",
	"for ri, r in enumerate(runs):\n",
	"    keys(r, 'index seed wall_ns overhead_ns tests', 'run')\n",
	"    check(r['index'] == ri and r['seed'] == 1000 + ri, 'run index')\n",
	"    check(r['wall_ns'] == 70 * 10**9 + ri and\n",
	"          r['overhead_ns'] == 3 * 10**9 + ri, 'run wall and overhead')\n",
	"    ts = r['tests']\n",
	"    check([x['name'] for x in ts] == NAMES, 'all 12 tests in order')\n",
	"    for x in ts:\n",
	"        check_test(ri, x, x['name'])\n",
	"    T = {x['name']: x for x in ts}\n",
	"    st = {n: T[n]['state'] for n in NAMES}\n",
	"    check(st == dict({n: 'not_run' for n in NAMES}, put_block='done',\n",
	"          rewrite='done', getc='skipped', get_block='done',\n",
	"          seeks='done', seq_create='done'), 'states ' + repr(st))\n",
	"    check(T['getc']['note'] == 'per-char \"tests\" off', 'note')\n",
	"    check(T['putc']['note'] is None, 'note null')\n",
	"    b = T['put_block']\n",
	"    check(b['bytes'] == 1 << 30 and b['ops'] == 131072, 'pb amounts')\n",
	"    check(b['elapsed_ns'] == (2 + ri) * 10**9 + 1000, 'pb elapsed')\n",
	"    check(b['cpu_user_ns'] == 10**9 and b['cpu_sys_ns'] == 5 * 10**8,\n",
	"          'pb cpu')\n",
	"    check(near(b['cpu_pct'], 1.5e11 / b['elapsed_ns'], 1e-3), 'cpu%')\n",
	"    check(b['too_fast'] is False, 'pb not too fast')\n",
	"    w = b['workers']\n",
	"    check([x['index'] for x in w] == [0, 1], 'pb workers')\n",
	"    check(w[0] == {'index': 0, 'start_ns': 1000,\n",
	"          'end_ns': (2 + ri) * 10**9 + 1000, 'bytes': 1 << 29,\n",
	"          'ops': 65536, 'cpu_user_ns': 1234, 'cpu_sys_ns': 5678,\n",
	"          'latency_max_ns': 5000000, 'buffer_pages': 'hugetlb',\n",
	"          'inflight_max': 4, 'inflight_mean': None,\n"
	"          'stonewalled': False, 'series': None},\n",
	"          'worker 0 ' + repr(w[0]))\n",
	"    check(w[1]['latency_max_ns'] == 10000000, 'worker 1')\n",
	"    check(w[1]['buffer_pages'] == 'thp', 'worker 1 buffer pages')\n",
	"    check(b['buffer_pages'] == 'thp', 'the least of the workers')\n",
	"    check(T['seq_create']['buffer_pages'] is None, 'no buffers: null')\n",
	"    check(b['inflight_max'] == 16, 'the most of the workers in flight')\n",
	"    check(w[1]['inflight_max'] == 16, 'worker 1 in flight')\n",
	"    check(w[1]['inflight_mean'] == 12.5, 'worker 1 mean in flight')\n",
	"    check(b['inflight_mean'] == 12.5, 'the mean of the measured')\n",
	"    check(T['seq_create']['inflight_max'] is None,\n",
	"          'no engine depth: inflight_max null')\n",
	"    check(b['cache'] == {'evicted': True, 'source': 'page_cache',\n",
	"          'dropped': False,\n",
	"          'residency': None, 'resident_bytes': 0, 'total_bytes': 0,\n",
	"          'warning': False, 'direct_checked': False,\n",
	"          'direct_honoured': False, 'loop_backing': None},\n",
	"          'pb cache ' + repr(b['cache']))\n",
	"    check(b['device'] == {'present': True, 'read_bytes': 4096,\n",
	"          'write_bytes': 3 << 29, 'read_ios': 1, 'write_ios': 12288,\n",
	"          'read_merges': 7, 'write_merges': 9,\n",
	"          'avg_read_request_bytes': 4096,\n",
	"          'avg_write_request_bytes': 131072,\n",
	"          'write_amplification': 1.5}, 'pb dev ' + repr(b['device']))\n",
	"    rw = T['rewrite']\n",
	"    check(rw['latency'] is None and rw['workers'] == [], 'rw nulls')\n",
	"    check(rw['device']['write_amplification'] == 0, 'rw wa 0')\n",
	"    g = T['get_block']\n",
	"    check(g['cache'] == {'evicted': True, 'source': 'page_cache',\n",
	"          'dropped': True,\n",
	"          'residency': 0.9, 'resident_bytes': 900, 'total_bytes': 1000,\n",
	"          'warning': True, 'direct_checked': True,\n",
	"          'direct_honoured': False, 'loop_backing': None},\n",
	"          'gb cache ' + repr(g['cache']))\n",
	"    check(g['device']['avg_read_request_bytes'] == 131072, 'gb avg')\n",
	"    check(g['device']['write_amplification'] is None, 'gb wa null')\n",
	"    s = T['seeks']\n",
	"    check(s['too_fast'] is True and s['rate_per_s'] == 81920,\n",
	"          'seeks too fast, rate kept')\n",
	"    check(s['device']['write_amplification'] is None, 'seeks wa')\n",
	"    sc = T['seq_create']\n",
	"    check(sc['cache']['residency'] == 0.1, 'sc residency')\n",
	"    check(sc['cache']['warning'] is False, 'sc no warning')\n",
	"    check(sc['device']['present'] is False, 'sc no device')\n",
	"    check(sc['rate_per_s'] == 8192, 'sc rate')\n",
	"# the summary, recomputed from the runs' raw fields\n",
	"T975 = {1: 12.706204736174698, 2: 4.302652729911275,\n",
	"        3: 3.182446305284263, 4: 2.7764451051977934}\n",
	"SUMMED = ['put_block', 'rewrite', 'get_block', 'seeks', 'seq_create']\n",
	"su = d['summary']\n",
	"check([x['name'] for x in su] == SUMMED, 'summary tests')\n",
	"for x in su:\n",
	"    name = x['name']\n",
	"    keys(x, 'name unit n mean stddev ci95_halfwidth ci95_low '\n",
	"         'ci95_high settled', 'summary ' + name)\n",
	"    vals = []\n",
	"    for r in runs:\n",
	"        t = [y for y in r['tests'] if y['name'] == name][0]\n",
	"        amount = t['bytes'] if UNIT[name] == 'B/s' else t['ops']\n",
	"        vals.append(amount * 1e9 / t['elapsed_ns'])\n",
	"    n = len(vals)\n",
	"    mean = sum(vals) / n\n",
	"    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (n - 1)) \\\n",
	"        if n > 1 else 0\n",
	"    hw = T975[n - 1] * sd / math.sqrt(n) if n > 1 else 0\n",
	"    check(x['n'] == n and x['unit'] == UNIT[name], name + ': n, unit')\n",
	"    check(near(x['mean'], mean, 1e-9), name + ': mean')\n",
	"    check(near(x['stddev'], sd, 1e-6), '%s: sd %r %r' %\n",
	"          (name, x['stddev'], sd))\n",
	"    check(near(x['ci95_halfwidth'], hw, 1e-6), name + ': ci95')\n",
	"    check(near(x['ci95_low'], mean - hw, 1e-9) and\n",
	"          near(x['ci95_high'], mean + hw, 1e-9), name + ': low/high')\n",
	"    if target > 0:\n",
	"        check(x['settled'] is (n > 1 and hw <= target / 100 * mean),\n",
	"              name + ': settled')\n",
	"    else:\n",
	"        check(x['settled'] is None, name + ': settled null')\n",
	"us = d['until_stable']\n",
	"if target > 0:\n",
	"    keys(us, 'target_pct max_runs runs_done unsettled', 'until_stable')\n",
	"    check(us['target_pct'] == target and us['max_runs'] == 10 and\n",
	"          us['runs_done'] == len(runs), 'until_stable values')\n",
	"    check(us['unsettled'] == [x['name'] for x in su\n",
	"          if not x['settled']], 'unsettled ' + repr(us['unsettled']))\n",
	"else:\n",
	"    check(us is None, 'until_stable null')\n",
	"for f in fails:\n",
	"    print('FAIL', f, file=sys.stderr)\n",
	"sys.exit(1 if fails else 0)\n",
	NULL
};

static bool have_python(void)
{
	return system("command -v python3 >/dev/null 2>&1") == 0;
}

static void test_single(void)
{
	struct clyde_run r;
	char *out;
	int bad;

	build(&r, 0);
	out = json_of(&r, 1, NULL);
	CHECK(out != NULL);
	if (!out) {
		clyde_run_release(&r);
		return;
	}
	/* checks that need no parser */
	CHECK(strstr(out, "\"schema_version\": 1,") != NULL);
	CHECK(strstr(out, "\"label\": \"a\\\"b\\\\c\\nd\\te\\u007ff\\ufffdg"
			  "\xc3\xa9h\\u2028i\\u0001\"") != NULL);
	CHECK(strstr(out, "\"until_stable\": null") != NULL);
	CHECK(strstr(out, "\"residency\": null") != NULL);
	CHECK(strstr(out, "\"write_amplification\": 1.5000") != NULL);
	CHECK(strstr(out, "\"settled\": null") != NULL);
	CHECK(strstr(out, "NaN") == NULL && strstr(out, "nan") == NULL);
	/* (": inf" and ": -inf": a value; "inflight_max" is a key.) */
	CHECK(strstr(out, "Infinity") == NULL && strstr(out, ": inf") == NULL &&
	      strstr(out, ": -inf") == NULL);
	CHECK(out[strlen(out) - 1] == '\n');
	/* nothing but printable ASCII, newlines and valid UTF-8 (the é) */
	bad = 0;
	for (const char *c = out; *c; c++)
		if (!((*c >= 0x20 && *c < 0x7f) || *c == '\n' ||
		      (unsigned char)*c == 0xc3 || (unsigned char)*c == 0xa9))
			bad++;
	CHECK(bad == 0);

	if (!have_python()) {
		CHECK(!"python3 is installed for the schema checks");
	} else {
		CHECK(python_check(out, checker, "0", false));
		/* the judge works: a broken or altered document fails */
		CHECK(!python_check("{\"a\": 1,}", checker, "0", true));
		CHECK(!python_check("{\"a\": NaN}", checker, "0", true));
		/* a renamed key: still JSON, but "p99_ns" is missing */
		strstr(out, "\"p99_ns\"")[1] = 'q';
		CHECK(!python_check(out, checker, "0", true));
	}
	free(out);
	clyde_run_release(&r);
}

static void test_series(void)
{
	struct clyde_run runs[3];
	struct clyde_summary sum[CLYDE_TEST_COUNT];
	struct clyde_json_extra extra = { .target_pct = 5.0,
					  .max_runs = 10,
					  .runs_done = 3 };
	char *out;

	for (unsigned k = 0; k < 3; k++)
		build(&runs[k], k);
	CHECK(clyde_summary_compute(runs, 3, extra.target_pct, sum) == 5);
	extra.n_unsettled = clyde_summary_unsettled(sum, extra.unsettled);
	/* put_block varies by a third: far from 5%; the rest is constant */
	CHECK(extra.n_unsettled == 1 && extra.unsettled[0] == CLYDE_PUT_BLOCK);

	out = json_of(runs, 3, &extra);
	CHECK(out != NULL);
	if (out && have_python()) {
		CHECK(python_check(out, checker, "5", false));
		/* the series as data: three runs, n = 3 */
		CHECK(python_check(
			out,
			(const char *const[]){
				"import json, sys\n"
				"d = json.load(open(sys.argv[1]))\n"
				"assert len(d['runs']) == 3\n"
				"s = {x['name']: x for x in d['summary']}\n"
				"assert all(x['n'] == 3 for x in s.values())\n"
				"pb = s['put_block']\n"
				"r = [2**30 / (k + 2 + 1e-6) for k in range(3)]\n"
				"m = sum(r) / 3\n"
				"assert abs(pb['mean'] - m) < 1e-3, pb\n"
				"sd = (sum((v - m)**2 for v in r) / 2) ** .5\n"
				"assert abs(pb['stddev'] - sd) < 1e-3, pb\n"
				"assert pb['settled'] is False\n"
				"assert s['rewrite']['stddev'] == 0\n"
				"assert s['rewrite']['settled'] is True\n"
				"assert d['until_stable']['unsettled'] == ['put_block']\n",
				NULL },
			"x", false));
	}
	/* without a target the series has no until_stable and no verdicts */
	free(out);
	out = json_of(runs, 3, NULL);
	if (out && have_python())
		CHECK(python_check(out, checker, "0", false));
	free(out);
	for (unsigned k = 0; k < 3; k++)
		clyde_run_release(&runs[k]);
}

/* An empty run (nothing ran, no environment) is still a valid document
 * with 12 not-run tests, an empty summary and nulls. */
static void test_empty(void)
{
	struct clyde_run r;
	char *out;

	clyde_run_init(&r);
	out = json_of(&r, 1, NULL);
	CHECK(out && strstr(out, "\"summary\": []") != NULL);
	if (out && have_python())
		CHECK(python_check(
			out,
			(const char *const[]){
				"import json, sys\n"
				"d = json.load(open(sys.argv[1]))\n"
				"t = d['runs'][0]['tests']\n"
				"assert len(t) == 12\n"
				"assert all(x['state'] == 'not_run' for x in t)\n"
				"assert all(x['latency'] is None for x in t)\n"
				"assert all(x['cache']['residency'] is None for x in t)\n"
				"assert all(x['device']['present'] is False for x in t)\n"
				"assert d['label'] == '' and d['config']['pattern'] == ''\n",
				NULL },
			"x", false));
	free(out);
	clyde_run_release(&r);
}

static void test_errors(void)
{
	struct clyde_run r;
	FILE *f;

	build(&r, 0);
	f = fopen("/dev/null", "w");
	if (f) {
		CHECK(clyde_json_write(f, &r, 0, NULL, "0.1.0") == -EINVAL);
		CHECK(clyde_json_write(f, NULL, 1, NULL, "0.1.0") == -EINVAL);
		fclose(f);
	}
	f = fopen("/dev/full", "w");
	if (!f) {
		CHECK(!"/dev/full opens for the write-error check");
	} else {
		CHECK(clyde_json_write(f, &r, 1, NULL, "0.1.0") == -ENOSPC);
		clearerr(f);
		CHECK(clyde_csv_write(f, &r, "0.1.0") == -ENOSPC);
		clearerr(f);
		CHECK(clyde_text_write(f, &r, "0.1.0") == -ENOSPC);
		fclose(f);
	}
	clyde_run_release(&r);
}

int main(void)
{
	test_single();
	test_series();
	test_empty();
	test_errors();
	return tap_done();
}
