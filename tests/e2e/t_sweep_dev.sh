#!/usr/bin/env bash
# The sweep workload `dev = OPTIONS DEVICE` (issue 33 part 1: a sweep can
# put a curve at every point), on a file standing in for a device (a tmpfs
# when root):
# - `clyde sweep --dry-run` prints the clyde dev command of every point;
# - a 2-point sweep (--rand-bs 4k, 8k) of randread with --curve=50,100
#   and --latency-target p99=10s (a target any rate meets in a 1 s test)
#   exits 0; its table has a row per point with the randread rate and the
#   "randread rate at p99 10 s" metric, each a figure; the stored runs
#   are dev results holding the curve's 2 steps and the target's answer,
#   at the point's request size;
# - a bad dev option is refused before anything runs: exit 1, one line
#   naming the workload, the point and the option, no history written.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

need_cmd python3 sqlite3
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi
new_tmpfs_dir devsweep
img=$DIR/dev.img
head -c $((16 << 20)) /dev/urandom >"$img"
run_clyde dev "$img" --no-save --tests randread --rand-ops 100
[[ $RC -eq 0 ]] || skip "O_DIRECT on $DIR: $(head -n 1 "$T/err")"
cd "$T"
DB=$T/h.db
# The sweeps' work directories go here: none may be left.
mkdir -p "$T/work"
export TMPDIR=$T/work

cat >e.ini <<EOF
[experiment]
name = dev-bs
repeat = 1
[axis bs]
values = 4k 8k
[point]
setup = touch $T/ran
[workload dv]
dev = $img --tests randread --size 16m --runtime 1 --rand-bs {bs}
  --curve=50,100 --latency-target p99=10s --target-probes 2
EOF

# ---- dry run ----------------------------------------------------------------
run_clyde sweep --dry-run e.ini
expect_rc 0 "dry run"
for bs in 4k 8k; do
	assert_file_match "$T/out" "^dev dv: clyde dev $img --tests randread --size 16m --runtime 1 --rand-bs $bs --curve=50,100 --latency-target p99=10s --target-probes 2\$" \
		"the dry run shows the clyde dev command at bs $bs"
done
[[ ! -e ran && ! -e $DB ]] || fail "the dry run ran something"

# ---- a bad option: refused before anything runs --------------------------
sed 's/--target-probes 2/--target-probes 0/' e.ini >bad.ini
run_clyde sweep -q --db "$DB" bad.ini
expect_rc 1 "a bad dev option is refused"
assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "  with one line"
assert_file_match "$T/err" 'bad.ini:[0-9]+: workload dv, point 1: .*--target-probes' \
	"  naming file:line, the workload, the point and the option"
[[ ! -e ran && ! -e $DB ]] || fail "a bad dev option ran a setup or made a history"
ok "nothing ran for a bad dev option"
sed 's/^dev = .*/dev = --tests randread/' e.ini >nodev.ini
run_clyde sweep -q --db "$DB" nodev.ini
expect_rc 1 "a dev workload without a device is refused"
assert_file_match "$T/err" 'workload dv, point 1: .*no device' "  saying so"
[[ ! -e ran && ! -e $DB ]] || fail "a dev workload without a device ran"

# ---- the sweep ----------------------------------------------------------------
run_clyde sweep -q --db "$DB" e.ini
expect_rc 0 "the 2-point dev sweep"
id=$(sweep_id)
[[ -n $id ]] || fail "no experiment id in: $(cat err)"
cp out table.txt
assert_eq "$(table_rows table.txt)" 2 "the table has a row per point"
head -n 2 table.txt | tail -n 1 >head.txt
assert_file_match head.txt '(^| )randread \([KMG]?i?B/s\)' "the table has the randread rate"
assert_file_match head.txt 'randread rate at p99 10 s \(IO/s\)' \
	"the table has the rate at p99 10 s"
table_body table.txt
python3 - table.txt <<'EOF' || fail "the table's figures (above)"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
head = lines[1]
cols = [m.start() for m in re.finditer(r"randread( rate at p99 10 s)? \(", head)]
assert len(cols) == 2, head
for bs in ("4k", "8k"):
    (line,) = [l for l in lines[2:] if l.split()[:1] == [bs]]
    for c in cols:
        cell = line[c:].split()[0]
        assert re.fullmatch(r"\d+(\.\d+)?", cell) and float(cell) > 0, (bs, line)
print("ok")
EOF
ok "each point has a randread rate and a rate at p99 10 s"
[[ -z $(find "$T/work" -mindepth 1 -maxdepth 1) ]] ||
	fail "work directories left: $(ls "$T/work")"

assert_eq "$(sqlite3 "$DB" "SELECT count(*) FROM experiment_runs WHERE exp_id = '$id' AND kind = 'dev' AND status = 'ok'")" 2 \
	"two ok runs of kind dev"
for p in 0 1; do
	rid=$(sqlite3 "$DB" "SELECT run_id FROM experiment_runs WHERE exp_id = '$id' AND point = $p AND status = 'ok'")
	run_clyde history --db "$DB" export "$rid"
	expect_rc 0 "history export $rid"
	cp out "stored$p.json"
done
python3 - stored0.json stored1.json <<'EOF' || fail "the stored runs (above)"
import json, sys
for f, bs in zip(sys.argv[1:], (4096, 8192)):
    d = json.load(open(f))
    assert d["kind"] == "dev", d["kind"]
    (t,) = d["runs"][0]["tests"]
    assert t["name"] == "randread" and t["bs"] == bs, (t["name"], t["bs"])
    assert [s["pct"] for s in t["curve"]] == [50, 100], t["curve"]
    lt = t["latency_target"]
    assert lt["met"] and lt["iops"] > 0, lt
print("ok")
EOF
ok "the stored runs are dev results with the curve and the target's rate"

run_clyde sweep --show "$id" --db "$DB" --metrics "dv.randread rate at p99 10 s"
expect_rc 0 "--show --metrics the rate at p99"
assert_file_match "$T/out" 'randread rate at p99 10 s' "  shows it"
run_clyde report --experiment "$id" --db "$DB" -o r.html
expect_rc 0 "report --experiment (html)"
