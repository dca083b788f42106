#!/bin/bash
# `clyde history list` tells runs apart by what was measured (issue 22, 5):
# O_DIRECT, engine and queue depth columns read from each stored document
# (clyde JSON, fio JSON; "-" where the result does not say, as in a
# bonnie++ CSV line), psync's depth as the one that ran (1), and a sweep's
# runs named by their point's axis values in place of the host name (a
# label of the user's stays); `history show` names the sweep and point.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

export TZ=UTC
DB=$T/h.db
S=$(new_dir scratch)

run_clyde history --db "$DB" list
if grep -q 'without SQLite' "$T/err"; then
	skip "clyde was built without SQLite"
fi

# row LABEL: the list's row of the run labelled LABEL (cells squeezed to
# one blank).
row()
{
	awk -v l="$1" 'NR > 1 && $4 == l' "$T/list" | tr -s ' '
}

# A psync run without -D, then one with -D on io_uring at depth 4.
run_clyde -d "$S" -s 4m -n 0 -f -m plain --db "$DB" --json "$T/plain.json"
expect_rc 0 "a psync run"
run_clyde -d "$S" -s 4m -n 0 -f -D --engine io_uring --iodepth 4 -m uring --db "$DB"
uring=1
if [[ $RC -ne 0 ]]; then
	grep -q 'io_uring' "$T/err" || {
		show_output
		fail "the io_uring run failed"
	}
	uring=0
fi

# An older result: psync asked for depth 4 (one request at a time ran).
python3 - "$T/plain.json" "$T/deep.json" <<'PY' || fail "cannot write deep.json"
import json, sys
d = json.load(open(sys.argv[1]))
d["label"] = d["config"]["name"] = "deep"
d["config"]["iodepth"] = 4
json.dump(d, open(sys.argv[2], "w"))
PY
run_clyde history --db "$DB" import "$T/deep.json"
expect_rc 0 "import of a psync result that asked for depth 4"

# fio: global options, one job overriding the depth.
python3 - "$CLYDE_SRC/tests/fixtures/fio/fio-two-jobs.json" "$T/fio.json" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
d["global options"].update({"direct": "1", "ioengine": "libaio", "iodepth": "16"})
d["jobs"][0]["job options"]["iodepth"] = "8"
for j, name in zip(d["jobs"], ("fio-w", "fio-r")):
    j["jobname"] = name
json.dump(d, open(sys.argv[2], "w"))
PY
	fail "cannot write fio.json"
run_clyde history --db "$DB" import --labels fio-w,fio-r "$T/fio.json"
expect_rc 0 "import of fio JSON"
head -n 1 "$CLYDE_SRC/tests/fixtures/bonnie-1.96.csv" >"$T/one.csv"
run_clyde history --db "$DB" import --label csv "$T/one.csv"
expect_rc 0 "import of a bonnie++ line"

run_clyde history --db "$DB" list
expect_rc 0 "history list"
cp "$T/out" "$T/list"
assert_file_match "$T/list" '^ *ID +DATE +LABEL +KIND +TARGET +FS +SIZE +FILES +CHUNK +O_DIRECT +ENGINE +DEPTH +WRITE MiB/s +READ MiB/s +SEEKS/s +CREATE/s +NOTE$' \
	"the header has O_DIRECT, ENGINE and DEPTH after CHUNK"
assert_match "$(row plain)" " 8k no psync 1 " "psync without -D: no, psync, 1"
if ((uring)); then
	assert_match "$(row uring)" " 8k yes io_uring 4 " "-D on io_uring at depth 4: yes, io_uring, 4"
fi
assert_match "$(row deep)" " 8k no psync 1 " "psync asked for depth 4 ran at 1: the list says 1"
assert_match "$(row fio-w)" " yes libaio 8 " "a fio job's own depth over the global one"
assert_match "$(row fio-r)" " yes libaio 16 " "fio's global direct, engine and depth"
assert_match "$(row csv)" " 16G 16384 - - - - " "a bonnie++ line does not say: - - -"

# ---- a sweep: its runs are named by their point --------------------------
if "$CLYDE" sweep -n /dev/null 2>&1 | grep -q "without libinih"; then
	skip_part "built without libinih: no sweep"
	done_testing
fi
cat >"$T/exp.ini" <<INI
[experiment]
name = lst
repeat = 1
axis sz = 4m 8m
axis ch = 4k
[workload b]
run = -d $S -s {sz}:{ch} -n 0 -f
[workload c]
run = -d $S -s {sz}:{ch} -n 0 -f -m mine
INI
run_clyde sweep -q --db "$DB" "$T/exp.ini"
expect_rc 0 "a sweep of two points and two workloads"
id=$(sed -n 's/^clyde sweep: experiment \([^ ]*\) .*/\1/p' "$T/err" | head -n 1)
[[ -n $id ]] || fail "no experiment id"
run_clyde history --db "$DB" list
cp "$T/out" "$T/list"
host=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"]["host"])' "$T/plain.json")
assert_eq "$(grep -cE "^ *[0-9]+ +[0-9-]+ [0-9:]+ +b: sz=4m ch=4k +bonnie " "$T/list")" 1 \
	"point 1's run is named by its axis values (and its workload: the sweep has two)"
assert_eq "$(grep -cE "^ *[0-9]+ +[0-9-]+ [0-9:]+ +b: sz=8m ch=4k +bonnie .* 8M +0 +4k +no +psync +1 " "$T/list")" 1 \
	"point 2's likewise, with its settings"
assert_eq "$(grep -cE "^ *[0-9]+ +[0-9-]+ [0-9:]+ +mine +bonnie " "$T/list")" 2 \
	"a workload's own label (-m mine) stays"
assert_eq "$(grep -cE "^ *[0-9]+ +[0-9-]+ [0-9:]+ +$host +" "$T/list")" 0 \
	"no run is listed by the host name"
sid=$(awk '$4 == "b:" && $5 == "sz=8m" { print $1 }' "$T/list")
run_clyde history --db "$DB" show "$sid"
expect_rc 0 "history show of a sweep's run"
assert_file_match "$T/out" "^  sweep +$id, point sz=8m ch=4k, workload b$" \
	"show names the experiment and the point"
# A run stored by a sweep and relabelled by the user keeps the user's label.
run_clyde history --db "$DB" label "$sid" fast-one
expect_rc 0 "relabel a sweep's run"
run_clyde history --db "$DB" list
assert_file_match "$T/out" "^ *$sid +[0-9-]+ [0-9:]+ +fast-one +bonnie " \
	"the user's label wins over the point"

done_testing
