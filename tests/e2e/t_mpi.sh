#!/usr/bin/env bash
# clyde-mpi with 4 ranks on one host: every rank's share adds up to the
# aggregate, the merged latency histogram is the bucket-by-bucket sum of the
# ranks', the aggregate window runs from the first start to the last end,
# -d's %r and %h name each rank's directory, and --shared puts every
# rank's files in one scratch directory.  Nothing is left behind.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck source=tests/e2e/mpi_lib.sh
. "$E2E_DIR/mpi_lib.sh"

# clyde-mpi --help: its options are in the man page and docs/mpi.md.
"$CLYDE_MPI" --help >"$T/help" || fail "clyde-mpi --help exits non-zero"
opts=$(grep -oE '^ +--?[a-z][a-z-]*' "$T/help" | tr -d ' ')
[[ -n $opts ]] || fail "no options found in clyde-mpi --help"
for o in $opts; do
	grep -qF -- "${o//-/\\-}" "$CLYDE_SRC/docs/clyde.1" ||
		fail "clyde.1 does not mention clyde-mpi's $o"
	grep -qF -- "$o" "$CLYDE_SRC/docs/mpi.md" ||
		fail "docs/mpi.md does not mention clyde-mpi's $o"
done
ok "clyde-mpi --help's options are documented: ${opts//$'\n'/ }"
RC=0
"$CLYDE_MPI" --bogus 2>"$T/err" || RC=$?
[[ $RC -eq 1 && $(wc -l <"$T/err") -eq 1 ]] || fail "--bogus: exit $RC"
assert_match "$(cat "$T/err")" 'unknown option "--bogus"' "an unknown option: one line, exit 1"

# Per-rank directories that clyde-mpi makes and removes; the run is also
# saved in a history (checked below: one mpirun for both).
base=$(new_dir ranks)
mpi run -d "$base/r%r" -s 4 -n 1 -f --db "$T/h.db" --json "$T/r.json"
expect_rc 0 "4 ranks with -d DIR/r%r"
assert_empty_dir "$base" "the rank directories clyde-mpi made are removed"
assert_match "$(cat "$T/out")" "Sequential Output" "rank 0 prints the table"
[[ $(grep -c '^1.98,' "$T/out") -eq 1 ]] || fail "one CSV line"
ok "rank 0 alone prints (one CSV line)"
# One host's block-device counters say nothing about all ranks: the
# aggregate has none, and on a block device the table says so rather than
# "no block device".
if findmnt -no SOURCE -T "$base" | grep -q '^/dev/'; then
	assert_file_match "$T/out" "^put_block .* device not counted$" \
		"on a block device: 'device not counted', not 'no block device'"
else
	assert_file_match "$T/out" "^put_block .* no block device$" \
		"off a block device: 'no block device'"
fi

run_checker "$T/r.json" "$host" <<'PY'
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1])); host = sys.argv[2]
m = d["mpi"]
def say(c, what): print(("ok " if c else "FAIL ") + what)
say(m["ranks"] == 4 and m["hosts"] == [host], "4 ranks on this host")
say(d["config"]["concurrency"] == 4, "concurrency is ranks x -c")
tests = {t["name"]: t for t in d["runs"][0]["tests"] if t["state"] == "done"}
say(len(tests) == 10, "ten tests ran")
ranks = m["per_rank"]
ok_sum = ok_hist = ok_win = ok_workers = ok_host = True
for name, t in tests.items():
    shares = [s for r in ranks for s in r["tests"] if s["name"] == name]
    if len(shares) != 4:
        ok_sum = False; continue
    if sum(s["bytes"] for s in shares) != t["bytes"] or \
       sum(s["ops"] for s in shares) != t["ops"]:
        ok_sum = False
    if len(t["workers"]) != 4 or \
       sum(w["bytes"] for w in t["workers"]) != t["bytes"]:
        ok_workers = False
    first = min(s["start_ns"] for s in shares)
    last = max(s["end_ns"] for s in shares)
    if last - first != t["elapsed_ns"]:
        ok_win = False
    merged = Counter()
    for s in shares:
        for lo, hi, n in s["latency"]["buckets"]:
            merged[(lo, hi)] += n
    agg = Counter({(lo, hi): n for lo, hi, n in t["latency"]["buckets"]})
    if merged != agg or \
       sum(s["latency"]["count"] for s in shares) != t["latency"]["count"] or \
       max(s["latency"]["max_ns"] for s in shares) != t["latency"]["max_ns"]:
        ok_hist = False
    hs = [s for s in m["per_host"][0]["tests"] if s["name"] == name]
    if len(hs) != 1 or hs[0]["bytes"] != t["bytes"] or hs[0]["ops"] != t["ops"]:
        ok_host = False
say(ok_sum, "per-rank bytes and ops sum to the aggregate in every test")
say(ok_workers, "the aggregate has every rank's worker")
say(ok_win, "aggregate elapsed = last rank end - first rank start")
say(ok_hist, "merged histogram = sum of the ranks' histograms, bucket by bucket")
say(ok_host, "the per-host share equals the aggregate on one host")
say(all(abs(r["clock_offset_ns"]) < 10**9 for r in ranks),
    "clock offsets on one host are small")
say(len(m["slowest"]) == len(tests), "the slowest rank of every test")
# Every rank's engine depth travels with its worker: psync, one at a time.
say(all(w["inflight_max"] == 1 for n in ("put_block", "rewrite", "get_block", "seeks")
        for w in tests[n]["workers"]) and tests["put_block"]["inflight_max"] == 1,
    "each rank's worker carries its inflight_max (1 on psync)")
say(all(w["inflight_mean"] == 1.0 for n in ("put_block", "rewrite", "get_block", "seeks")
        for w in tests[n]["workers"]) and tests["put_block"]["inflight_mean"] == 1.0,
    "each rank's worker carries its inflight_mean (1.0 on psync)")
PY

# One history entry for the whole job, with the ranks and hosts (the
# first run above).
RC=0
"$CLYDE" history --db "$T/h.db" list >"$T/list" 2>&1 || RC=$?
[[ $RC -eq 0 && $(grep -c "$host" "$T/list") -eq 1 ]] ||
	fail "one history entry, not: $(cat "$T/list")"
ok "rank 0 saved one history entry"
id=$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1; exit }' "$T/list")
"$CLYDE" history --db "$T/h.db" export "$id" -o "$T/h.json"
assert_match "$(tr -d ' \n' <"$T/h.json")" '"mpi":\{"ranks":4,"hosts":\["'"$host"'"\]' \
	"the entry records the 4 ranks and the host"

# %h and %r: directories that exist are used and kept; a file with the
# literal name would make an unexpanded -d fail.
sub=$(new_dir subst)
for r in 0 1 2 3; do mkdir "$sub/$host-$r"; done
touch "$sub/%h-%r"
mpi run -d "$sub/%h-%r" -s 1 -n 0 -f --no-save --json "$T/s.json"
expect_rc 0 "-d DIR/%h-%r"
for r in 0 1 2 3; do
	assert_empty_dir "$sub/$host-$r" "rank $r's directory $host-$r was used and emptied"
done
[[ $(count_files "$sub") -eq 5 ]] || fail "only the given entries in $sub"
ok "directories that existed are kept"
assert_match "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["target"]["path"])' "$T/s.json")" \
	"$host-0\$" "rank 0's target is its expanded directory"

mpi run -d "$sub/%x" -s 1 -n 0 --no-save
expect_rc 1 "an unknown % sequence is refused"
assert_match "$(cat "$T/err")" "only %r \\(rank\\), %h \\(host\\)" "the message names what is accepted"

# --shared: one scratch directory holds every rank's files.
shared=$(new_dir shared)
set -m
timeout -k 10 120 mpirun --allow-run-as-root --oversubscribe -np 4 \
	"$CLYDE_MPI" --shared run -d "$shared" -s 48 -n 0 -f --no-save \
	--json "$T/sh.json" >"$T/out" 2>"$T/err" &
pid=$!
set +m
# Looked at until the run ends (timeout bounds it), not for a fixed count
# of looks: on a loaded machine mpirun alone takes many seconds to start.
seen=0
while kill -0 "$pid" 2>/dev/null; do
	if [[ $(find "$shared" -name 'io.*' | wc -l) -eq 4 ]]; then
		seen=$(find "$shared" -mindepth 1 -maxdepth 1 -name 'clyde.*' | wc -l)
		break
	fi
	sleep 0.05
done
RC=0
wait "$pid" || RC=$?
expect_rc 0 "--shared run"
[[ $seen -eq 1 ]] || fail "--shared: $seen scratch directories, want 1"
ok "--shared: the four ranks' files are in one scratch directory"
assert_empty_dir "$shared" "--shared leaves nothing behind"
assert_match "$(cat "$T/sh.json")" '"shared_dir": true' "the JSON says shared"

# --shared and the file tests: every rank's workers create in the one
# directory `files` (mdtest's shared mode), names w<worker>.<...>, and
# stat and delete find each worker's own files by name.  On a tmpfs when
# root: 4 x 16Ki files take minutes on a loaded VM disk (and came close
# to mpirun's timeout), and where they live does not matter here.
new_tmpfs_dir shared-files
shared=$DIR
set -m
timeout -k 10 120 mpirun --allow-run-as-root --oversubscribe -np 4 \
	"$CLYDE_MPI" --shared run -d "$shared" -s 0 -n 16:0:0:4 --no-save \
	--json "$T/shf.json" >"$T/out" 2>"$T/err" &
pid=$!
set +m
prefixes=""
per_worker=""
while kill -0 "$pid" 2>/dev/null; do
	per_worker+=$(find "$shared" -mindepth 2 -maxdepth 2 -name 'files.*' | head -n 1)
	p=$(find "$shared" -path '*/files/*' -name 'w*' -printf '%f\n' 2>/dev/null |
		grep -oE '^w[0-9]+\.' | sort -u | tr -d '\n' || true)
	((${#p} > ${#prefixes})) && prefixes=$p
	[[ $prefixes == w0.w1.w2.w3. ]] && break
	sleep 0.05
done
RC=0
wait "$pid" || RC=$?
expect_rc 0 "--shared run with the file tests"
[[ $prefixes == w0.w1.w2.w3. ]] ||
	fail "--shared: the files directory held workers '$prefixes', want w0. to w3."
[[ -z $per_worker ]] || fail "--shared: a per-worker directory $per_worker"
ok "--shared: the four ranks create their files in one directory"
assert_empty_dir "$shared" "--shared file tests leave nothing behind"
run_checker "$T/shf.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def say(c, what): print(("ok " if c else "FAIL ") + what)
t = {t["name"]: t for t in d["runs"][0]["tests"] if t["state"] == "done"}
for k in ("seq", "ran"):
    say(t[k + "_create"]["ops"] == t[k + "_stat"]["ops"] == t[k + "_del"]["ops"]
        == 4 * 16 * 1024, f"{k}: 4 x 16Ki files created, stat'ed, deleted")
PY

# The time series (issue 20 §2) merged over the ranks by interval index:
# each interval's bytes, operations and latency count are the sum of the
# workers', its latency max the largest of theirs (exact only when the
# ranks' histograms are merged bucketwise), p50 <= p99 <= max, the
# intervals add up to the test, and the write tests' flush is told apart.
base=$(new_dir series)
mpi run -d "$base/r%r" -s 16 -n 0 -f1 -r 0 --no-save --log-interval 20 \
	--json "$T/ts.json"
expect_rc 0 "4 ranks with --log-interval 20"
run_checker "$T/ts.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def say(c, what): print(("ok " if c else "FAIL ") + what)
tests = [t for t in d["runs"][0]["tests"] if t["state"] == "done"]
multi = sum_ok = worker_ok = max_ok = order_ok = True
for t in tests:
    s = t["series"]; ivs = s["intervals"]; ws = [w["series"] for w in t["workers"]]
    if s["interval_ns"] != 20000000 or len(ws) != 4:
        worker_ok = False; continue
    # A test that lasted two intervals has two (a 16 MiB read from the
    # page cache may end within one: CI, 2026-12-07).
    if t["elapsed_ns"] >= 2 * s["interval_ns"] and len(ivs) < 2:
        multi = False
    for key in ("bytes", "ops"):
        if sum(i[key] for i in ivs) != t[key]:
            sum_ok = False
    for k, iv in enumerate(ivs):
        mine = [w["intervals"][k] for w in ws if k < len(w["intervals"])]
        for key in ("bytes", "ops", "lat_count"):
            if sum(m[key] for m in mine) != iv[key]:
                worker_ok = False
        wmax = max([m["lat_max_ns"] or 0 for m in mine] + [0])
        if (iv["lat_max_ns"] or 0) != wmax:
            max_ok = False
        if iv["lat_count"] and not (iv["lat_p50_ns"] <= iv["lat_p99_ns"] <= iv["lat_max_ns"]):
            order_ok = False
say(multi and any(len(t["series"]["intervals"]) >= 2 for t in tests),
    "every test that lasted 40 ms has at least two 20 ms intervals")
say(sum_ok, "the intervals add up to each test's bytes and ops")
say(worker_ok, "each interval is the sum of the 4 ranks' workers' (bytes, ops, latency count)")
say(max_ok, "each interval's latency max is the largest of the workers'")
say(order_ok, "p50 <= p99 <= max in every interval")
# The write tests' timed flush travels with the series (issue 32, 4): each
# worker's start of it, the test's the first of them, and the steadiness
# is the writing's, as on one host.
by = {t["name"]: t for t in tests}
for n in ("put_block", "rewrite"):
    s = by[n]["series"]; st = by[n]["steadiness"]
    wf = [w["series"].get("flush_start_ns") for w in by[n]["workers"]]
    say(len(wf) == 4 and None not in wf and s.get("flush_start_ns") == min(wf),
        f"{n}: every rank's worker says where its flush began, the test the first ({s.get('flush_start_ns')})")
    # Fewer than two whole intervals of writing (a fast machine) give no
    # steadiness; otherwise it is the writing's alone.
    if st is None:
        say(s["flush_start_ns"] < 2 * s["interval_ns"],
            f"{n}: no steadiness, with under two intervals of writing")
    else:
        say(st["phase"] == "write" and
            st["intervals"] <= s["flush_start_ns"] // s["interval_ns"],
            f"{n}: steadiness over the {st['intervals']} intervals of writing")
    if n == "put_block":
        open(sys.argv[1].rsplit("/", 1)[0] + "/steady-put", "w").write("yes" if st else "no")
# A read that fits in under two whole intervals (CI, 2026-12-07: 16 MiB
# from the page cache) has no steadiness, as the writes above.
g = by["get_block"]; gst = g["steadiness"]
say(g["series"]["flush_start_ns"] is None and
    (gst["phase"] == "all" if gst is not None
     else sum(1 for i in g["series"]["intervals"]
              if 2 * i["dur_ns"] >= g["series"]["interval_ns"]) < 2),
    "get_block: no flush, steadiness over all intervals (or none: %s ms)"
    % (g["elapsed_ns"] // 1000000))
PY
if [[ $(cat "$T/steady-put") == yes ]]; then
	assert_file_match "$T/out" "^put_block +cv .* of writing; then flush [0-9.e-]+ s$" \
		"the text says put_block's flush apart"
fi

done_testing
