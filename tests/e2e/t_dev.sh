#!/usr/bin/env bash
# clyde dev and clyde zcav on a loop device over a sparse file (direct
# I/O): seqwrite + seqread numbers, the JSON and the CSV line, zcav's text
# format next to bonnie++'s zcav on the same device, the zcav chart in
# clyde report, the run in the history, and one-line errors for bad options.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
need_cmd losetup python3
require_cmd "the zcav format check" zcav

truncate -s 64M "$T/dev.img"
DEV=$(losetup --direct-io=on -f --show "$T/dev.img" 2>/dev/null) ||
	skip "no loop device available"
at_exit "losetup -d '$DEV'"

# Bad options: one line each, exit 1, nothing run.
for args in "--iodepth 0" "--iodepth 1025" "--tests seqwrite,foo" \
	"--bs 3x" "--engine nope" "-s 1" "-c 0" "--size 0" "-b 0" "-b 4:3x" \
	"--runtime 0" "--runtime 2x" "--ramp 1" "--runtime 1 --ramp -1" \
	"--pattern ones"; do
	# shellcheck disable=SC2086
	run_clyde dev "$DEV" --no-save $args
	expect_rc 1 "clyde dev $args: exit 1"
	assert_eq "$(wc -l <"$T/err")" 1 "clyde dev $args: one line"
done
# psync performs one request at a time: a depth above 1 would be printed
# and stored but never run, so it is refused, naming the engine that can.
run_clyde dev "$DEV" --no-save --tests seqread --iodepth 4
expect_rc 1 "psync at --iodepth 4 is refused"
assert_eq "$(wc -l <"$T/err")" 1 "psync at a depth: one line"
assert_file_match "$T/err" "^clyde dev: --iodepth 4: the psync engine performs one request at a time; use --engine io_uring for a queue depth$" \
	"the refusal names --engine io_uring"
run_clyde dev --no-save
expect_rc 1 "no device: exit 1"
assert_file_match "$T/err" "^clyde dev: no device" "no device: says so"
run_clyde dev "$DEV" --no-save --tests seqread --bs 1000
expect_rc 1 "a size that is not a multiple of the logical block"
assert_file_match "$T/err" "^clyde dev: --bs 1000 is not a multiple of .*logical block \(512 bytes\)" \
	"the block size message names the device's logical block"
run_clyde dev "$DEV" --no-save --tests seqread --offset 60m --size 8m
expect_rc 1 "a range beyond the end"
assert_file_match "$T/err" "goes beyond the end of $DEV" "the range message"
for args in "-r 5:3" "-s 21" "-b x" "-u root"; do
	# shellcheck disable=SC2086
	run_clyde zcav $args "$DEV" --no-save
	expect_rc 1 "clyde zcav $args: exit 1"
	assert_eq "$(wc -l <"$T/err")" 1 "clyde zcav $args: one line"
done

# seqwrite + seqread, JSON and CSV.
run_clyde dev "$DEV" --no-save --tests seqwrite,seqread,randread,randwrite \
	--bs 1m --size 32m --rand-bs 4k --rand-ops 500 \
	--seed 7 -m devrun --json "$T/dev.json" --csv "$T/dev.csv"
expect_rc 0 "clyde dev runs the four tests"
assert_file_match "$T/out" "^seqwrite +1.00 MiB +1 +[0-9.]+ [KMG]iB/s" "the table has seqwrite, at depth 1"
assert_file_no_match "$T/out" "memory" "direct I/O on the loop device: nothing is marked as memory's"
assert_file_match "$T/out" "^randread +4.00 KiB" "the table has randread"
run_checker "$T/dev.json" "$T/dev.csv" "$DEV" <<'PY'
import csv, json, sys
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
d = json.load(open(sys.argv[1]))
check(d["schema"] == "clyde-result" and d["schema_version"] == 1, "schema v1")
check(d["kind"] == "dev" and d["label"] == "devrun", "kind dev, the label")
check(d["config"]["iodepth"] == 1 and d["config"]["engine"] == "psync", "engine and depth recorded: psync at 1")
check(d["config"]["pattern"] == "random", "the data: random")
check(d["device"]["memory_reason"] is None, "no reason to think the figures are memory's")
check(d["device"]["block_device"] is True and d["device"]["size_bytes"] == 64 << 20, "the device and its size")
# Four 1 MiB buffers: huge pages (the pool's, else transparent ones
# wherever THP is not "never"), and then every 1 MiB read reaches the loop
# device whole (128 segments of at most 64 KiB could not carry 256
# scattered pages).
thp = "[never]" not in open("/sys/kernel/mm/transparent_hugepage/enabled").read()
pages = d["config"]["buffer_pages"]
check(pages in ("hugetlb", "thp") if thp else pages in ("hugetlb", "small"), "buffer pages recorded (%s)" % pages)
thp = pages != "small"
sr = [x for x in d["runs"][0]["tests"] if x["name"] == "seqread"][0]["device"]
check(not thp or (sr["read_ios"] == 32 and sr["avg_read_request_bytes"] == 1 << 20),
      "seqread: 32 reads of 1 MiB on the device (%s reads)" % sr["read_ios"])
dev = sys.argv[3].rsplit("/", 1)[-1]
check(d["stack"]["top"] == [dev] and any(n["name"] == dev and n["kind"] == "loop" for n in d["stack"]["devices"]),
      "the stack under the device names " + dev + " as a loop device")
check(isinstance(d["advice"], list), "the advice list is recorded")
t = {x["name"]: x for x in d["runs"][0]["tests"]}
check(sorted(t) == ["randread", "randwrite", "seqread", "seqwrite"], "the four tests")
w, r = t["seqwrite"], t["seqread"]
check(w["bytes"] == 32 << 20 and w["ops"] == 32, "seqwrite: 32 requests of 1 MiB")
check(r["bytes"] == 32 << 20 and r["ops"] == 32, "seqread: 32 requests of 1 MiB")
check(w["bytes_per_s"] > 0 and r["bytes_per_s"] > 0, "rates above 0")
check(abs(w["bytes_per_s"] - w["bytes"] * 1e9 / w["elapsed_ns"]) < 1, "rate = bytes / elapsed")
check(w["latency"]["count"] == 32 and r["latency"]["count"] == 32, "one latency per request")
check(w["device"]["present"] and w["device"]["write_bytes"] >= 32 << 20, "the device counted the writes")
check(r["device"]["read_bytes"] >= 32 << 20, "the device counted the reads")
check(t["randread"]["ops"] == 500 and t["randread"]["bytes"] == 500 * 4096, "randread: 500 requests of 4 KiB")
check(t["randwrite"]["writes"] is True and t["randread"]["writes"] is False, "which tests write")
check(all(x["iodepth"] == 1 and x["inflight_max"] == 1 and x["from_memory"] is False for x in t.values()),
      "psync: one request in flight, as recorded; none from memory")
check(all(x["submit_mean"] is None for x in t.values()), "psync: no submitting calls, submit_mean null")
rows = list(csv.reader(open(sys.argv[2])))
check(len(rows) == 2 and rows[0][0] == "format", "CSV: a header and one line")
check(len(rows[0]) == len(rows[1]) == 69, f"CSV: 69 fields ({len(rows[1])})")
h = dict(zip(rows[0], rows[1]))
check(h["format"] == "clyde-dev-2" and h["iodepth"] == "1", "CSV: format and depth")
check(h["pattern"] == "random", "CSV: the pattern written")
check(all(h[n + "_inflight_max"] == "1" and h[n + "_from_memory"] == "0"
          for n in ("seqwrite", "seqread", "randread", "randwrite")),
      "CSV: each test's measured depth (1 on psync) and from_memory, as in the JSON")
check(abs(float(h["seqwrite_bytes_per_s"]) - w["bytes_per_s"]) < 1, "CSV and JSON agree")
check(h["zcav_bs"] == "", "CSV: a test that did not run is empty")
PY

# A CSV file of another format (an older clyde's 58 fields) gets no line of
# this one: refused in one line before any test, the file unchanged.
printf 'format,clyde_version,label\nclyde-dev-1,0.0.9,old\n' >"$T/old.csv"
cp "$T/old.csv" "$T/old.csv.orig"
run_clyde dev "$DEV" --no-save --tests seqread --size 4m --csv "$T/old.csv"
expect_rc 1 "appending to a CSV of another format is refused"
assert_file_match "$T/err" "^clyde dev: --csv $T/old.csv: its first line is not the clyde-dev-2 header \(3 fields; this clyde writes 69\): give a new file" \
	"  in one line naming the file and the format"
assert_eq "$(wc -l <"$T/err")" 1 "  one line"
cmp -s "$T/old.csv" "$T/old.csv.orig" || fail "the old CSV was changed"
ok "  the old CSV is unchanged"
# The same file again, with this format's header: appended.
run_clyde dev "$DEV" --no-save --tests seqread --size 4m --csv "$T/dev.csv" -q
expect_rc 0 "appending to a CSV of this format"
assert_eq "$(wc -l <"$T/dev.csv")" 3 "  a header and two lines"

# io_uring at depth 16: the engine and depth are recorded, every request
# is counted once.
run_clyde dev "$DEV" --no-save --tests randread,seqread --bs 256k --size 16m \
	--rand-ops 2000 --engine io_uring --iodepth 16 --json "$T/uring.json" -q
expect_rc 0 "clyde dev --engine io_uring --iodepth 16"
run_checker "$T/uring.json" <<'PY'
import json, sys
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
d = json.load(open(sys.argv[1]))
check(d["config"]["engine"] == "io_uring" and d["config"]["iodepth"] == 16, "io_uring: engine and depth in the JSON")
check(d["config"]["iodepth_batch"] == 1, "io_uring: submitted one at a time by default, in the JSON")
t = {x["name"]: x for x in d["runs"][0]["tests"]}
check(t["randread"]["ops"] == 2000 and t["randread"]["latency"]["count"] == 2000, "io_uring: 2000 random reads, 2000 latencies")
check(t["seqread"]["bytes"] == 16 << 20 and t["seqread"]["iodepth"] == 16, "io_uring: the sequential read covers the range")
# The depth that ran, measured by the engine: a driver or engine that kept
# fewer requests in flight than asked is caught here.
for n in ("randread", "seqread"):
    check(t[n]["inflight_max"] == 16, f"io_uring: {n} had 16 requests in flight at once ({t[n]['inflight_max']})")
    check(t[n]["submit_mean"] == 1, f"io_uring: {n} handed the kernel one request a call ({t[n]['submit_mean']})")
PY
# --iodepth-batch 8: up to eight a call, as recorded (more than one on
# average: the refills of a reap go together).
run_clyde dev "$DEV" --no-save --tests randread --bs 4k --size 16m \
	--rand-ops 2000 --engine io_uring --iodepth 16 --iodepth-batch 8 --json "$T/batch.json" -q
expect_rc 0 "clyde dev --iodepth 16 --iodepth-batch 8"
run_checker "$T/batch.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["runs"][0]["tests"][0]["submit_mean"]
print(("ok " if d["config"]["iodepth_batch"] == 8 and 1 < m <= 8 else "FAIL ") +
      "--iodepth-batch 8: recorded, and 1-8 requests a submitting call (%s)" % m)
PY
run_clyde dev "$DEV" --no-save --tests randread --rand-ops 200 --engine io_uring -q --json "$T/u32.json"
expect_rc 0 "io_uring at its default depth"
run_checker "$T/u32.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["runs"][0]["tests"][0]
print(("ok " if d["config"]["iodepth"] == 32 and t["inflight_max"] == 32 else "FAIL ") +
      "io_uring's default depth is 32, and 32 ran (%s)" % t["inflight_max"])
PY

# --runtime and --ramp: every test by time, the ramp in no figure; the
# random test needs no --rand-ops.
run_clyde dev "$DEV" --no-save --tests seqread,randread,zcav --size 16m -b 4 \
	--runtime 1 --ramp 0.5 --engine io_uring --iodepth 4 --json "$T/time.json"
expect_rc 0 "clyde dev --runtime 1 --ramp 0.5"
assert_file_match "$T/out" "^by time: each test 1 s after a ramp of 0.5 s that counts in no figure$" \
	"the text says the tests ran by time"
run_checker "$T/time.json" <<'PY'
import json, sys
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
d = json.load(open(sys.argv[1]))
c = d["config"]
check(c["runtime_ns"] == 10**9 and c["ramp_ns"] == 5 * 10**8 and c["rand_ops"] == 0,
      "JSON: runtime, ramp, and no request count")
t = {x["name"]: x for x in d["runs"][0]["tests"]}
for n in ("seqread", "randread"):
    x = t[n]
    # elapsed runs from the ramp's end: the runtime and the last requests
    # (a loaded machine may add some).
    check(10**9 <= x["elapsed_ns"] < 3 * 10**9, f"{n}: about 1 s timed ({x['elapsed_ns']} ns)")
    check(x["ramp_ops"] > 0 and x["ops"] > 0, f"{n}: {x['ramp_ops']} requests in the ramp, {x['ops']} counted")
    check(x["latency"]["count"] == x["ops"], f"{n}: a latency for each counted request only")
    check(abs(x["iops"] - x["ops"] * 1e9 / x["elapsed_ns"]) < 1, f"{n}: the rate is over the timed part")
# 16 MiB at 1 MiB: a sequential read by time goes round the range.
check(t["seqread"]["ops"] + t["seqread"]["ramp_ops"] > 16, "seqread went round its range")
z = d["runs"][0]["zcav"]
# (a pass of 16 MiB takes far less than the second, unless the machine is
# very slow: then one pass took most of it.)
check(z["loops"] > 1 or t["zcav"]["elapsed_ns"] >= 5 * 10**8,
      f"zcav: passes until the runtime was up ({z['loops']})")
PY

# zcav: the same lines as bonnie++'s zcav, column for column.
zcav -b 8 -c 1 "$DEV" >"$T/zcav.ref" 2>/dev/null || fail "zcav failed"
run_clyde zcav -b 8 -c 1 "$DEV" --no-save --json "$T/zcav.json"
expect_rc 0 "clyde zcav runs"
cp "$T/out" "$T/zcav.out"
# (bonnie++ 2.00a's zcav crashes with -c 2 and -r together.)
zcav -b 8 -c 2 "$DEV" >"$T/zcav2.ref" 2>/dev/null || fail "zcav -c 2 failed"
run_clyde zcav -b 8 -c 2 -f "$DEV" --no-save
expect_rc 0 "clyde zcav -c 2 runs"
cp "$T/out" "$T/zcav2.out"
zcav -b 8 -r 16:48 "$DEV" >"$T/zcav3.ref" 2>/dev/null || fail "zcav -r failed"
run_clyde zcav -b 8 -r 16:48 "$DEV" --no-save
expect_rc 0 "clyde zcav -r runs"
cp "$T/out" "$T/zcav3.out"
run_checker "$T/zcav.ref" "$T/zcav.out" "$T/zcav2.ref" "$T/zcav2.out" "$T/zcav.json" \
	"$T/zcav3.ref" "$T/zcav3.out" <<'PY'
import json, re, sys
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
data = re.compile(r"^(#?)(\d+\.\d\d) (\+\+\+\+|\d+\.\d\d) (\d+\.\d\d\d)$")
read = re.compile(r"^# Read \d+ megs in \d+ seconds, \d+ megabytes per second\.$")
def shape(path):
    out = []
    for line in open(path).read().splitlines():
        if line.startswith("# clyde: "):
            continue  # clyde's note on the flagged blocks
        m = data.match(line)
        if m:
            out.append(("data", m.group(2)))
        elif read.match(line):
            out.append(("read",))
        else:
            out.append(("text", line))
    return out
for ref, got, what in ((1, 2, "-c 1"), (3, 4, "-c 2"), (6, 7, "-r 16:48")):
    a, b = shape(sys.argv[ref]), shape(sys.argv[got])
    check(a == b, f"{what}: the same lines and positions as zcav ({len(b)} lines)")
lines = open(sys.argv[2]).read().splitlines()
check(lines[0] == "#block offset (GiB), MiB/s, time", "the header line")
check(sum(1 for l in lines if data.match(l)) == 8, "8 positions of 8 MiB")
check("#loops: 2" in open(sys.argv[4]).read().splitlines(), "#loops with -c 2")
d = json.load(open(sys.argv[5]))
z = d["runs"][0]["zcav"]
check(len(z["points"]) == 8 and z["loops"] == 1, "JSON: 8 points")
check([p["offset_bytes"] for p in z["points"]] == [i << 23 for i in range(8)], "JSON: positions")
check(all(p["mib_per_s"] > 0 and p["elapsed_ns"] > 0 for p in z["points"]), "JSON: MiB/s and time per point")
PY

# A loop device without direct I/O: its backing file's page cache serves
# the tests.  The advice is printed as clyde run prints it, and every
# figure is marked as memory's, in the text and the JSON.
truncate -s 64M "$T/nodio.img"
NODIO=$(losetup --direct-io=off -f --show "$T/nodio.img") || fail "a second loop device"
at_exit "losetup -d '$NODIO'"
run_clyde dev "$NODIO" --no-save --tests seqwrite,seqread --size 8m --destroy-data \
	--json "$T/nodio.json"
expect_rc 0 "clyde dev on a loop device without direct I/O"
assert_file_match "$T/out" "^seqwrite .*  memory$" "seqwrite is marked as memory's"
assert_file_match "$T/out" "^seqread .*  memory$" "seqread is marked as memory's"
assert_file_match "$T/out" "^memory: ${NODIO#/dev/} has no direct I/O: its reads and writes go through the page cache of $T/nodio.img" \
	"the mark is explained, naming the backing file"
assert_file_match "$T/out" "^clyde: +fix: losetup --direct-io=on $NODIO$" \
	"the advice is on screen, with its fix"
run_clyde dev "$NODIO" --no-save --tests zcav -b 8 --json "$T/holes.json" -q
expect_rc 0 "zcav over a sparse image"
assert_file_match "$T/err" "^clyde: +fix: losetup --direct-io=on $NODIO$" \
	"without a table (-q) the advice goes to standard error"
run_checker "$T/nodio.json" "$T/holes.json" "$T/nodio.img" <<'PY'
import json, sys
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
d = json.load(open(sys.argv[1]))
check(sys.argv[3] in (d["device"]["memory_reason"] or ""), "JSON: memory_reason names the backing file")
t = d["runs"][0]["tests"]
check(all(x["from_memory"] is True for x in t), "JSON: every test from_memory")
check(all(x["cache"].get("backing_range_bytes") == 64 << 20 for x in t), "JSON: the backing file's range was measured")
z = json.load(open(sys.argv[2]))["runs"][0]["zcav"]
p = z["points"]
# seqwrite wrote the first 8 MiB: block 0 is data, the other 7 are holes.
check(z["holes_file"] == sys.argv[3], "zcav: the holes were looked up in the backing file")
check(p[0]["hole_bytes"] == 0 and all(x["hole_bytes"] == 8 << 20 for x in p[1:]),
      "zcav: blocks 1-7 are holes, block 0 is not (%s)" % [x["hole_bytes"] for x in p])
check(z["over_holes"] == 7 and all(x["flagged"] for x in p[1:]), "zcav: the 7 hole blocks are flagged")
check(all(x["imprecise"] == (x["elapsed_ns"] < 500000000) for x in p), "zcav: imprecise is under 0.5 s")
check(z["flagged"] == sum(1 for x in p if x["flagged"]), "zcav: the count of flagged blocks")
PY
run_clyde dev "$NODIO" --no-save --tests zcav -b 8
expect_rc 0 "zcav text over a sparse image"
assert_file_match "$T/out" "^#0\.01 \+\+\+\+ [0-9.]+$" "a hole block is commented out"
assert_file_match "$T/out" "^# clyde: zcav: 8 of 8 blocks flagged and left out.*; 7 lie over holes of $T/nodio.img" \
	"the text says which blocks are flagged and why"
assert_file_match "$T/out" "^zcav: 8 of 8 blocks flagged" "so does the table's note"
run_clyde report "$T/holes.json" -o "$T/holes.html"
expect_rc 0 "clyde report over the sparse zcav"
assert_eq "$(grep -c '<circle class="zcav-flag"' "$T/holes.html")" 8 "the chart marks the 8 flagged blocks"
assert_file_match "$T/holes.html" '<title>0\.01 GiB: [0-9]+ MiB/s, flagged:.* over holes of a sparse file</title>' \
	"a mark says why"

# The history keeps a dev run; the report draws the zcav chart.
run_clyde dev "$DEV" --tests zcav -b 16 --db "$T/h.db" -q
expect_rc 0 "a run saved in the history"
run_clyde history list --db "$T/h.db"
assert_file_match "$T/out" "^ +1 .* dev +$DEV" "history lists the run as kind dev"
# The sequential run's figures fill the list's size, chunk, write and read
# columns (the random tests and zcav have no column: "-").
run_clyde history import --db "$T/h.db" "$T/dev.json"
expect_rc 0 "the seqwrite/seqread run imported"
run_clyde history list --db "$T/h.db"
assert_file_match "$T/out" "^ +2 .* dev +$DEV .* 32\.0 MiB +- +1\.00 MiB +yes +psync +1 +[0-9][0-9.]* +[0-9][0-9.]* +- +- *$" \
	"history list: the dev run's range, block size, O_DIRECT, engine, depth, write and read MiB/s"
run_clyde report "$T/zcav.json" "$T/dev.json" -o "$T/r.html"
expect_rc 0 "clyde report over dev results"
assert_file_match "$T/r.html" '<svg[^>]*class="chart zcav"' "the report has the zcav chart"
# (8 MiB blocks take under 0.5 s: flagged, they are marks off the line.)
assert_file_match "$T/r.html" '(<polyline fill="none" stroke="[^"]*" stroke-width="2" points="80.0,|<circle class="zcav-flag" cx="80.0")' \
	"the zcav curve starts at position 0"
done_testing
