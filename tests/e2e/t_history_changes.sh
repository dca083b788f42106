#!/bin/bash
# `clyde history changes` with the real binary on a history of imported
# results: one real clyde run is the template, and 40 runs a day apart are
# made from it (its figures with 3% noise from a fixed seed).  On host
# "shifted" the mount options change from relatime to noatime after run 25
# and the IO rates drop 20% with them; host "steady" has no change at all.
# changes must find the one change between runs 25 and 26, name the mount
# options (and nothing else) as what differs, leave the file tests and the
# steady host alone, and say "no change found" on the steady runs by
# themselves.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

export TZ=UTC
need_cmd python3
DB=$T/h.db
STEADY_DB=$T/steady.db

run_clyde history --db "$DB" list
if grep -q 'without SQLite' "$T/err"; then
	skip "clyde was built without SQLite"
fi

mkdir "$T/scratch"
run_clyde -d "$T/scratch" -s 16m -n 1 -r 0 -f -m template --no-save \
	--json "$T/base.json"
expect_rc 0 "a real run makes the template result"

# make-runs HOST SHIFT_AT DIR: 40 results of HOST from the template; from
# run SHIFT_AT on (0: never) mount options noatime and IO rates x0.8.
make_runs()
{
	python3 - "$T/base.json" "$1" "$2" "$3" <<'EOF'
import json, random, sys
base, host, shift_at, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
tmpl = json.load(open(base))
rng = random.Random(20261205 + len(host))
io = {"putc", "put_block", "rewrite", "getc", "get_block"}
for i in range(1, 41):
    d = json.loads(json.dumps(tmpl))
    shifted = shift_at and i >= shift_at
    opts = "rw,noatime" if shifted else "rw,relatime"
    d["label"] = host
    d["started_unix"] = 1764000000 + i * 86400
    d["machine"]["host"] = host
    d["target"]["mount_opts"] = opts
    if d.get("stack") and d["stack"].get("filesystem"):
        d["stack"]["filesystem"]["mount_opts"] = opts
    for r in d["runs"]:
        r["seed"] = i
        for t in r["tests"]:
            if t["state"] != "done":
                continue
            level = 0.8 if shifted and t["name"] in io else 1.0
            rate = t["rate_per_s"] * level * (1 + 0.03 * rng.gauss(0, 1))
            t["rate_per_s"] = rate
            t["elapsed_ns"] = 2000000000
            t["too_fast"] = False
            if t["rate_unit"] == "B/s":
                t["bytes"] = int(rate * 2)
            else:
                t["ops"] = int(rate * 2)
    json.dump(d, open("%s/%s-%02d.json" % (out, host, i), "w"), indent=1)
EOF
}

mkdir "$T/shifted" "$T/steady"
make_runs shifted 26 "$T/shifted" || fail "cannot make the shifted runs"
make_runs steady 0 "$T/steady" || fail "cannot make the steady runs"
run_clyde history --db "$DB" import "$T"/shifted/*.json "$T"/steady/*.json
expect_rc 0 "80 generated results are imported"
run_clyde history --db "$STEADY_DB" import "$T"/steady/*.json
expect_rc 0 "the steady results alone are imported"

# ---- the change is found, with its size and what differs ----------------
run_clyde history --db "$DB" changes
expect_rc 0 "history changes exits 0"
out=$(cat "$T/out")
assert_match "$out" "change between #25 and #26 \(2025-12-19 [0-9:]+ UTC -> 2025-12-20 [0-9:]+ UTC\)" \
	"the change is between runs 25 and 26, with their dates"
assert_eq "$(grep -c '^  change between' "$T/out")" 1 "exactly one change is reported"
assert_match "$out" "put_block: [0-9.]+ -> [0-9.]+ MiB/s \(x0\.(7[6-9]|8[0-4]), -[12][0-9]\.[0-9]%\), p 0\.0[0-9]+ \(confidence 99\.[0-9]+%\), medians of 25 runs before and 15 after" \
	"put_block's drop is told with its medians, ratio, p-value and run counts"
assert_match "$out" "get_block: " "get_block changed too"
assert_match "$out" "what differs between #25 and #26:
      mount options: rw,relatime \(#25\), rw,noatime \(#26\)" \
	"the mount options are named as what differs, with both values"
assert_no_match "$out" "kernel|seq_create|ran_del|seeks:" \
	"nothing else differs and the file tests and seeks did not change"
assert_match "$out" "series [0-9]+: bonnie runs of host shifted, ext4|series [0-9]+: bonnie runs of host shifted, [a-z0-9]+" \
	"the series names its host"
assert_no_match "$out" "host steady" "the steady host has no change"
assert_file_match "$T/out" "^1 change \(3 figures\) in 1 of 6 series; [0-9]+ figures searched$" \
	"two hosts make six series (IO tests, seeks, file tests each)"

# ---- a stationary history: no false alarm --------------------------------
run_clyde history --db "$STEADY_DB" changes
expect_rc 0 "history changes on the steady runs exits 0"
assert_match "$(cat "$T/out")" "^change points: .*
no change found in [0-9]+ figures of 3 series$" \
	"no change is found in 40 stationary runs"
# The same output every time (the permutations are seeded), and the
# defaults are the options' stated values.
run_clyde history --db "$DB" changes
cp "$T/out" "$T/first"
run_clyde history --db "$DB" changes --alpha 0.001 --permutations 4999 \
	--min-segment 5
cmp -s "$T/out" "$T/first" || fail "two runs of history changes differ"
ok "the output is the same every time"

# ---- the report marks the change on the throughput charts ------------------
run_clyde history --db "$DB" report $(seq 1 40) -o "$T/shifted.html"
expect_rc 0 "history report of the shifted host's 40 runs"
assert_eq "$(grep -c '<line class="change"' "$T/shifted.html")" 3 \
	"three change marks: put_block, rewrite and get_block"
assert_file_match "$T/shifted.html" '<line class="change"[^>]*><title>change between #25 shifted and #26 shifted: put_block [0-9.]+ -&gt; [0-9.]+ MiB/s \(x0\.[78][0-9]\), p 0\.0' \
	"the put_block mark names the runs either side, the medians and p"
assert_file_match "$T/shifted.html" "A red dashed line marks a change point" \
	"the legend explains the marks"
run_clyde history --db "$DB" report $(seq 41 80) -o "$T/steady.html"
expect_rc 0 "history report of the steady host's 40 runs"
assert_file_no_match "$T/steady.html" 'class="change"|red dashed' \
	"the steady runs' report has no change mark"

# ---- options ---------------------------------------------------------------
run_clyde history --db "$DB" changes --min-segment 30
expect_rc 0 "--min-segment 30 is accepted"
assert_match "$(cat "$T/out")" "no change found in 0 figures of 6 series; [0-9]+ with fewer than 60 runs not searched" \
	"with a minimum segment of 30, 40 runs are too few and are not searched"
run_clyde history --db "$DB" changes --alpha 0
expect_rc 1 "--alpha 0 is refused"
assert_file_match "$T/err" "alpha" "the message names --alpha"
[[ ! -s $T/out ]] || fail "a refused command printed: $(cat "$T/out")"
ok "nothing is printed on stdout for a refused option"
run_clyde history --db "$T/none.db" changes
expect_rc 0 "a history that does not exist is not an error"
[[ ! -e $T/none.db ]] || fail "changes created $T/none.db"
ok "changes does not create a history"
run_clyde history --help
assert_file_match "$T/out" "^  changes " "history --help names changes"
assert_file_match "$T/out" "--min-segment N" "history --help shows its options"
"$CLYDE" history --db "$DB" changes >/dev/full 2>"$T/err" && fail "changes > /dev/full exits 0"
ok "changes > /dev/full is a failure"

done_testing
