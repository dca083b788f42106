#!/usr/bin/env bash
# The JSON of a real run: every field of schema v1 is there with the right
# type, the machine and target are this machine's and this filesystem's,
# and every figure agrees with the CSV line of the same run.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3 findmnt

d=$(new_dir d)
run_clyde -d "$d" -s 32m -n 1:2k:1k -r 0 -f1 -m jsontest -z 4242 -x 1 \
	--json "$T/run.json"
expect_rc 0 "clyde -x 1 --json succeeds"
csv=$(tail -n 1 "$T/out")
assert_eq 50 "$(csv_nfields "$csv")" "the CSV line has 50 fields"

run_checker "$T/run.json" "$csv" "$(findmnt -no FSTYPE -T "$d")" \
	"$(nproc)" "$(uname -r)" <<'PY'
import json, sys
path, csv, fstype, nproc, kernel = sys.argv[1:6]
doc = json.load(open(path))
f = csv.split(",")
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
def typed(obj, key, types, where):
    check(key in obj and isinstance(obj[key], types), f"{where}.{key} is {types}")
num = (int, float)
for k, t in [("schema", str), ("schema_version", int), ("clyde_version", str),
             ("kind", str), ("label", str), ("started_unix", int),
             ("machine", dict), ("target", dict), ("config", dict),
             ("runs", list), ("summary", list)]:
    typed(doc, k, t, "doc")
check(doc["schema"] == "clyde-result" and doc["schema_version"] == 1, "schema v1")
check(doc["kind"] == "bonnie" and doc["label"] == "jsontest", "kind and label")
check("until_stable" in doc and doc["until_stable"] is None, "until_stable null")
m = doc["machine"]
for k, t in [("host", str), ("kernel", str), ("cpu_model", str),
             ("ncpu", int), ("ram_bytes", int)]:
    typed(m, k, t, "machine")
check(m["ncpu"] == int(nproc), "machine.ncpu matches nproc")
check(m["kernel"] == kernel, "machine.kernel matches uname -r")
tg = doc["target"]
for k, t in [("path", str), ("fstype", str), ("mount_point", str),
             ("mount_opts", str), ("source", str), ("has_block_device", bool),
             ("no_device_reason", str), ("block_dev", str), ("disk", str),
             ("logical_block_size", int), ("physical_block_size", int),
             ("rotational", bool)]:
    typed(tg, k, t, "target")
check(tg["fstype"] == fstype, f"target.fstype is {fstype}")
c = doc["config"]
for k in ("concurrency", "seed", "file_size_mib", "io_chunk", "seeks", "seekers",
          "num_files", "max_size", "min_size", "num_dirs", "file_chunk",
          "perchar_bytes"):
    typed(c, k, int, "config")
for k in ("direct", "fsync_each", "size_auto", "evict", "drop_caches"):
    typed(c, k, bool, "config")
check(c["seed"] == 4242 == int(f[4]), "seed agrees with -z and the CSV")
check(c["file_size_mib"] == 32 and f[5] == "32M", "file size agrees")
check(c["io_chunk"] == int(f[6]) == 8192, "io_chunk agrees")
check(c["num_files"] == 1024 and f[21] == "1", "num_files agrees")
check(c["max_size"] == 2048 == int(f[22]) and c["min_size"] == 1024 == int(f[23]),
      "max/min sizes agree")
run = doc["runs"][0]
names = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
         "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
check([t["name"] for t in run["tests"]] == names, "all 12 tests in bonnie order")
rate_col = {n: 9 + 2 * i for i, n in enumerate(names[:6])}
rate_col.update({n: 26 + 2 * i for i, n in enumerate(names[6:])})
lat_col = {n: 38 + i for i, n in enumerate(names)}
def fmt_lat(ns):
    us = ns // 1000
    if ns < 100_000_000: return f"{us}us"
    if ns < 100_000_000_000: return f"{ns // 1_000_000}ms"
    return f"{ns // 1_000_000_000}s"
for t in run["tests"]:
    n = t["name"]
    for k, ty in [("state", str), ("bytes", int), ("ops", int), ("elapsed_ns", int),
                  ("cpu_user_ns", int), ("cpu_sys_ns", int), ("rate_per_s", num),
                  ("rate_unit", str), ("cpu_pct", num), ("too_fast", bool),
                  ("cache", dict), ("device", dict), ("workers", list)]:
        typed(t, k, ty, n)
    check(t["state"] == "done", f"{n} done")
    lat = t["latency"]
    for k in ("count", "min_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns",
              "p999_ns", "max_ns", "buckets"):
        check(k in lat, f"{n}.latency.{k}")
    check(sum(b[2] for b in lat["buckets"]) == lat["count"], f"{n}: buckets sum to count")
    check(lat["min_ns"] <= lat["p50_ns"] <= lat["p99_ns"] <= lat["max_ns"],
          f"{n}: percentiles ordered")
    for k in ("evicted", "dropped", "residency", "resident_bytes", "total_bytes",
              "warning", "direct_checked", "direct_honoured"):
        check(k in t["cache"], f"{n}.cache.{k}")
    for k in ("present", "read_bytes", "write_bytes", "read_ios", "write_ios",
              "read_merges", "write_merges", "avg_read_request_bytes",
              "avg_write_request_bytes", "write_amplification"):
        check(k in t["device"], f"{n}.device.{k}")
    # agreement with the CSV line
    r, cpu = f[rate_col[n]], f[rate_col[n] + 1]
    if t["too_fast"]:
        check(r == "+++++" and cpu == "+++", f"{n}: too fast in both")
    else:
        if n in names[:5]:
            want = str(int(t["rate_per_s"] / 1024))
        elif n == "seeks":
            v = t["rate_per_s"]
            want = f"{v:.0f}" if v >= 999.95 else f"{v:.1f}"
        else:
            want = str(int(t["rate_per_s"]))
        check(abs(float(r) - float(want)) <= 1, f"{n}: CSV rate {r} ~ JSON {want}")
        check(abs(int(cpu) - int(t["cpu_pct"])) <= 1, f"{n}: CSV cpu {cpu} ~ JSON {t['cpu_pct']}")
    check(f[lat_col[n]] == fmt_lat(lat["max_ns"]),
          f"{n}: CSV latency {f[lat_col[n]]} = JSON max {lat['max_ns']} ns")
s = {x["name"]: x for x in doc["summary"]}
check(set(s) == set(names), "summary covers every test")
check(all(x["n"] == 1 for x in s.values()), "summary n = 1")
PY
done_testing
