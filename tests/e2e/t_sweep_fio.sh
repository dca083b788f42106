#!/usr/bin/env bash
# The sweep workload `fio = ARGS` (issue 20 section 3) with Debian's fio:
# - a 2-point sweep (bs 4k, 64k) of a small randread job on a temp file:
#   the table, `clyde sweep --show`, `clyde report --experiment --format
#   csv` and the history's stored runs hold fio's own figures (fio's JSON
#   is copied aside by a wrapper named fio first in PATH, which runs the
#   real one); fio was asked for --output-format=json+;
# - refused before anything runs (exit 1, one line, no experiment): fio not
#   in PATH, --output / --output-format (and a prefix fio would take),
#   --minimal, no job, a job option fio's --parse-only refuses;
# - interrupted while fio runs: exit 5, fio ended; --resume finishes it;
# - fio failing is a failed point (exit 3) with fio's error shown;
# - fio output that is text, cut short, or of two jobs fails the point
#   with one line, and nothing is stored in runs.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

need_cmd fio python3 sqlite3
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi
REAL_FIO=$(command -v fio)
cd "$T"
DB=$T/h.db
mkdir -p bin copies empty
# The wrapper: the real fio, then a copy of what it wrote to --output;
# FAKE_FIO=text|cut|two makes the output bad in one way.
cat >bin/fio <<EOF
#!/bin/bash
out=
for a in "\$@"; do
	case \$a in --output=*) out=\${a#--output=} ;; esac
done
echo "\$*" >>"$T/fio-args"
if [[ -n \$out && \${FAKE_FIO:-} == two ]]; then
	"$REAL_FIO" "\$@" --name=second --filename="$T/data2" --size=1m --rw=read
else
	"$REAL_FIO" "\$@"
fi
rc=\$?
[[ -n \$out ]] || exit \$rc
case \${FAKE_FIO:-} in
text) echo "rr: (g=0): rw=randread, bs=(R) 4096B-4096B" >"\$out" ;;
cut) head -c 700 "\$out" >"\$out.cut" && mv "\$out.cut" "\$out" ;;
esac
n=\$(find "$T/copies" -name '*.json' | wc -l)
cp "\$out" "$T/copies/\$((n + 1)).json"
exit \$rc
EOF
chmod +x bin/fio
export PATH="$T/bin:$PATH"
# The sweeps' work directories go here: none may be left.
mkdir -p "$T/work"
export TMPDIR=$T/work

cat >e.ini <<EOF
[experiment]
name = fio-bs
repeat = 1
[axis bs]
values = 4k 64k
[workload f]
fio = --name=rr --filename=$T/data --size=4m --rw=randread --bs={bs}
  --ioengine=psync --runtime=1 --time_based
EOF

# ---- dry run ----------------------------------------------------------------
run_clyde sweep --dry-run e.ini
expect_rc 0 "dry run"
assert_file_match "$T/out" "^fio f: fio --output=WORKDIR/fio.json --output-format=json\+ --name=rr --filename=$T/data --size=4m --rw=randread --bs=64k --ioengine=psync" \
	"the dry run shows fio's command line with json+"
[[ $(find copies -name '*.json' | wc -l) -eq 0 ]] || fail "the dry run ran a job"
ok "the dry run ran no job"

# ---- the sweep ----------------------------------------------------------------
run_clyde sweep -q --db "$DB" e.ini
expect_rc 0 "the 2-point fio sweep"
id=$(sweep_id)
[[ -n $id ]] || fail "no experiment id in: $(cat err)"
cp out table.txt
[[ $(find copies -name '*.json' | wc -l) -eq 2 ]] ||
	fail "fio ran $(find copies -name '*.json' | wc -l) times, want 2"
grep -q -- '--output-format=json+' fio-args || fail "fio not asked for json+"
ok "fio ran twice, with --output-format=json+"

run_clyde sweep --show "$id" --db "$DB"
expect_rc 0 "--show"
cp out show.txt
run_clyde report --experiment "$id" --db "$DB" --format csv -o t.csv
expect_rc 0 "report --experiment --format csv"
run_clyde report --experiment "$id" --db "$DB" -o r.html
expect_rc 0 "report --experiment (html)"
assert_file_match r.html "f\.randread" "the report names the fio metric"
run_clyde history --db "$DB" list
expect_rc 0 "history list"
[[ $(grep -c ' rr  *fio ' out) -eq 2 ]] || {
	show_output
	fail "history list: want two fio runs labelled rr"
}
ok "history list has the two fio jobs"
for i in 1 2; do
	rid=$(sqlite3 "$DB" "SELECT run_id FROM experiment_runs WHERE exp_id = '$id' AND point = $((i - 1)) AND status = 'ok'")
	run_clyde history --db "$DB" export "$rid"
	expect_rc 0 "history export $rid"
	cp out "stored$i.json"
done

python3 - "$T" <<'EOF' || fail "figures differ from fio's JSON (above)"
import csv, json, re, sys
t = sys.argv[1]
fio = {}
for i in (1, 2):
    d = json.load(open(f"{t}/copies/{i}.json"))
    (job,) = d["jobs"]
    bs = job["job options"]["bs"]
    fio[bs] = job["read"]
    s = json.load(open(f"{t}/stored{i}.json"))
    assert s["jobs"][0]["read"] == job["read"], "stored run is not fio's"
assert sorted(fio) == ["4k", "64k"], fio
rows = {r["bs"]: r for r in csv.DictReader(open(f"{t}/t.csv"))}
for bs, rd in fio.items():
    r = rows[bs]
    got, want = float(r["f.randread.mean"]), float(rd["bw_bytes"])
    assert abs(got - want) <= 1e-9 * want, (bs, got, want)
    got, want = float(r["f.randread IOPS.mean"]), float(rd["iops"])
    assert abs(got - want) <= 1e-6 * want, (bs, got, want)
    assert r["f.randread.n"] == "1", r
units = {"B/s": 1, "KiB/s": 2**10, "MiB/s": 2**20, "GiB/s": 2**30,
         "IO/s": 1}
for name in ("table.txt", "show.txt"):
    lines = open(f"{t}/{name}").read().splitlines()
    head = lines[1]
    u = re.findall(r"randread \(([^)]*)\)", head)
    assert u and u[0] in units, head
    for bs, rd in fio.items():
        (line,) = [l for l in lines if l.split()[:1] == [bs]]
        nums = re.findall(r"(\d+(?:\.\d+)?) \(n=1\)", line)
        assert len(nums) == 2, line
        for shown, want in ((nums[0], rd["bw_bytes"] / units[u[0]]),
                            (nums[1], rd["iops"])):
            dec = len(shown.split(".")[1]) if "." in shown else 0
            assert abs(float(shown) - want) <= 0.5 * 10**-dec + 1e-9, \
                (name, bs, shown, want)
print("figures match fio's JSON")
EOF
ok "table, --show, report csv and the stored runs hold fio's bw_bytes and iops"

# ---- the example ---------------------------------------------------------------
ex=$CLYDE_SRC/examples/fio/randread-bs.ini
run_clyde sweep --dry-run "$ex"
expect_rc 0 "the example dry-runs with its own variables"
assert_file_match out "^fio f: fio --output=WORKDIR/fio.json --output-format=json\+ --name=randread --filename=/var/tmp/clyde-fio-bs.dat --size=256m --rw=randread --bs=256k --ioengine=psync --direct=1 --runtime=5 --time_based$" \
	"  its fio command line"
ncopies=$(find copies -name '*.json' | wc -l)
run_clyde sweep -q --db "$T/ex.db" --define dir="$T" --define size=2m --define runtime=1 \
	--define repeats=1 --define direct=0 "$ex"
expect_rc 0 "the example runs (small)"
[[ $(grep -cE '^(4k|16k|64k|256k) +[0-9.]+ \(n=1\)' out) -eq 4 ]] || {
	show_output
	fail "the example's table: want 4 rows with figures"
}
[[ ! -e $T/clyde-fio-bs.dat ]] || fail "the example's teardown left its file"
ok "the example's table has its 4 points and its teardown removed fio's file"
# The copies of the refusal checks below count from here.
last=$(find copies -name '*.json' | wc -l)
for ((i = ncopies + 1; i <= last; i++)); do
	rm -f "copies/$i.json"
done

# ---- interrupted while fio runs, then resumed ---------------------------------
cat >int.ini <<EOF
[experiment]
name = fio-int
repeat = 1
axis a = 1 2
[workload f]
fio = --name=long --filename=$T/int.dat --size=1m --rw=read --runtime=2
  --time_based
EOF
RC=0
timeout -k 10 120 "$CLYDE" sweep -q --db "$DB" int.ini >out 2>err &
pid=$!
for _ in $(seq 100); do
	grep -q -- '--output=.*int.dat' fio-args && break
	sleep 0.1
done
sleep 0.3
kill -INT "$pid"
wait "$pid" || RC=$?
expect_rc 5 "a sweep interrupted while fio runs"
# At once: the sweep waits for the whole workload (fio on SIGTERM finishes
# and writes its results after the shell that started it has gone).
if pgrep -f -- "--filename=$T/int.dat" >/dev/null; then
	fail "fio still runs after the interrupted sweep"
fi
ok "the interruption ended fio"
iid=$(sweep_id)
run_clyde sweep -q --resume "$iid" --db "$DB"
expect_rc 0 "--resume of the interrupted fio sweep"
[[ $(grep -cE '^[12] +[0-9.]+ \(n=1\)' out) -eq 2 ]] || {
	show_output
	fail "the resumed sweep's table: want both points"
}
ok "the resumed fio sweep has both points"
last=$(find copies -name '*.json' | wc -l)
for ((i = ncopies + 1; i <= last; i++)); do
	rm -f "copies/$i.json"
done

# ---- refused before anything runs ------------------------------------------
# refuse NAME ARGS PATTERN: exit 1, one line matching PATTERN, no run, no
# experiment stored.
nexp()
{
	sqlite3 "$DB" "SELECT count(*) FROM experiments"
}
refuse()
{
	local name=$1 args=$2 want=$3 before
	printf '[experiment]\nname = %s\nrepeat = 1\naxis a = 1\n[workload f]\nfio = %s\n' \
		"$name" "$args" >"$name.ini"
	before=$(nexp)
	run_clyde sweep -q --db "$DB" "$name.ini"
	expect_rc 1 "$name"
	[[ $(wc -l <err) -eq 1 ]] || {
		show_output
		fail "$name: want one line on stderr"
	}
	assert_file_match err "$want" "$name: the line says why"
	[[ $(nexp) == "$before" ]] || fail "$name: an experiment was stored"
	[[ $(find copies -name '*.json' | wc -l) -eq 2 ]] || fail "$name: fio ran a job"
	ok "$name refused before anything ran"
}
job="--name=x --filename=$T/data --size=1m --rw=read"
refuse output "$job --output=x.json" \
	"^clyde sweep: output.ini:6: workload f, point 1: --output=x.json: the sweep gives fio its own output file; leave it out$"
refuse format "$job --output-format=normal" \
	"workload f, point 1: --output-format=normal: the sweep asks fio for json\+ itself; leave it out$"
refuse prefix "$job --output-f=terse" "--output-f=terse: the sweep asks fio for json"
refuse minimal "$job --minimal" "--minimal: the sweep reads fio's JSON, not its terse output"
refuse nojob "--rw=read --size=1m" "no job: give --name=NAME with its options, or a job file$"
refuse badopt "$job --rw=bogus" "workload f, point 1: fio --parse-only: failed parsing rw=bogus$"
cp e.ini nofio.ini
RC=0
timeout -k 10 60 env PATH="$T/empty" "$CLYDE" sweep --dry-run nofio.ini >out 2>err || RC=$?
expect_rc 1 "fio not in PATH"
assert_eq "$(cat err)" "clyde sweep: nofio.ini:7: workload f, point 1: fio is not installed (no fio in PATH); install Debian's fio package" \
	"fio missing: one line"

# ---- failures at run time -----------------------------------------------------
# bad NAME FAKE ARGS PATTERN: the point fails (exit 3) saying PATTERN; the
# failed run is recorded, nothing stored in runs.
nruns()
{
	sqlite3 "$DB" "SELECT count(*) FROM runs"
}
bad()
{
	local name=$1 fake=$2 args=$3 want=$4 before
	printf '[experiment]\nname = %s\nrepeat = 1\naxis a = 1\n[workload f]\nfio = %s\n' \
		"$name" "$args" >"$name.ini"
	before=$(nruns)
	RC=0
	FAKE_FIO=$fake timeout -k 10 120 "$CLYDE" sweep -q --db "$DB" "$name.ini" \
		>out 2>err || RC=$?
	expect_rc 3 "$name"
	assert_file_match err "^clyde sweep: point 1 \(a=1\) repeat 1 failed: workload f: $want" \
		"$name: the failure says why"
	[[ $(nruns) == "$before" ]] || fail "$name: a run was stored"
	[[ $(sqlite3 "$DB" "SELECT count(*) FROM experiment_runs r JOIN experiments e ON e.id = r.exp_id WHERE e.name = '$name' AND r.status = 'failed'") -ge 1 ]] ||
		fail "$name: no failed run recorded"
	ok "$name: the point failed, nothing stored"
}
bad fiofails "" "--name=w --filename=/proc/version --rw=write --size=1m" \
	"fio --name=w --filename=/proc/version --rw=write --size=1m: exit status 1$"
assert_file_match err "^    fio: .*Operation not permitted" "fio's own error is shown, indented"
bad text text "$job" "fio wrote its normal \(text\) output to .*/fio.json, not JSON; nothing stored$"
bad cut cut "$job" "fio's JSON output .*/fio.json, line [0-9]+: the fio JSON ends early \(a truncated file\?\)"
bad two two "$job" "fio reported 2 jobs; a fio workload stores one"
[[ $(grep -c . err) -eq 3 ]] || {
	cat err >&2
	fail "the two-job failure: want the experiment, failure and stop lines"
}
ok "a bad output is one line (beside the experiment line and the stop hint)"

left=$(find "$T/work" -mindepth 1 | head -n 5)
[[ -z $left ]] || fail "left in the sweeps' work directory: $left"
ok "no work directory (fio.json) left behind"

done_testing
