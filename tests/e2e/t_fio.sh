#!/usr/bin/env bash
# fio's JSON output in clyde compare, clyde report and clyde history import,
# from fio run here (Debian's fio): plain json, json+ (latency bins), a
# read+write mix, a job file of two jobs in two groups; beside a clyde run
# (and, as root with a loop device, a clyde dev run over the same device as
# a fio job, which share the "randread" rows).  The figures clyde shows are
# checked against fio's file; the report is checked in headless Chromium
# (its DOM).  Bad input -- fio's text output, a truncated file, another fio
# version -- is one line naming the file, and nothing stored.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd fio python3
cd "$T"
data=$(new_dir data)/file
fio_json()
{
	local out=$1
	shift
	timeout -k 10 120 fio --filename="$data" --size=8m --ioengine=psync \
		--output="$out" "$@" >fio.log 2>&1 || fail "fio $*: $(cat fio.log)"
}
fio_json rr.json --name=randread --rw=randread --bs=4k --output-format=json
fio_json mix.json --name=mix --rw=randrw --rwmixread=70 --bs=4k \
	--time_based --runtime=1 --output-format=json+
cat >two.fio <<EOF
[global]
filename=$data
size=8m
bs=64k
ioengine=psync

[seqwrite]
rw=write

[seqread]
stonewall
rw=read
EOF
timeout -k 10 120 fio --output-format=json --output=two.json two.fio \
	>fio.log 2>&1 || fail "fio two.fio: $(cat fio.log)"
timeout -k 10 120 fio --filename="$data" --size=8m --name=randread \
	--rw=randread --bs=4k --output=rr.txt >fio.log 2>&1 ||
	fail "fio (text): $(cat fio.log)"
ok "fio $(fio --version) wrote json, json+, two jobs and text"

d=$(new_dir d)
run_clyde -d "$d" -s 16m -n 1 -r 0 -f -m clyde-run --json c.json -q
expect_rc 0 "a clyde run"
inputs=(rr.json mix.json two.json c.json)
labels=(randread mix seqwrite seqread clyde-run)
dev=""
if [[ $(id -u) -eq 0 ]] && command -v losetup >/dev/null 2>&1; then
	truncate -s 64M dev.img
	if dev=$(losetup --direct-io=on -f --show dev.img 2>/dev/null); then
		at_exit "losetup -d '$dev'"
		run_clyde dev "$dev" --destroy-data --no-save --tests randread \
			--rand-bs 4k --rand-ops 2000 --iodepth 1 -m clyde-dev --json dev.json -q
		expect_rc 0 "clyde dev randread on $dev"
		timeout -k 10 120 fio --filename="$dev" --name=fio-dev \
			--rw=randread --bs=4k --direct=1 --size=64m \
			--number_ios=2000 --iodepth=1 --ioengine=psync --output-format=json+ \
			--output=fdev.json >fio.log 2>&1 ||
			fail "fio on $dev: $(cat fio.log)"
		inputs+=(dev.json fdev.json)
		labels+=(clyde-dev fio-dev)
	else
		dev=""
		echo "# no loop device: the clyde dev + fio rows are not checked"
	fi
fi

# --- compare: every job a column, the figures those of fio's file.
run_clyde compare "${inputs[@]}"
expect_rc 0 "clyde compare of fio and clyde results"
head -n 1 "$T/out" >header
for l in "${labels[@]}"; do
	assert_file_match header " $l( |\$)" "column $l"
done
assert_file_match "$T/out" '^randrw read +rate' "the mix's reads have a row"
assert_file_match "$T/out" '^randrw write IOPS +rate +IO/s' \
	"the mix's writes have an IOPS row"
assert_file_match "$T/out" '^put_block +rate' "the clyde run's rows too"
run_clyde compare --format csv "${inputs[@]}"
expect_rc 0 "clyde compare --format csv"
cp "$T/out" cmp.csv
run_checker cmp.csv rr.json mix.json two.json <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {r["run"]: r for r in rows}
def fio(path):
    t = open(path).read()
    return json.loads(t[t.index("{"):])
checks = 0
for path, row_of in ((sys.argv[2], {"read": "randread"}),
                     (sys.argv[3], {"read": "randrw read", "write": "randrw write"}),
                     (sys.argv[4], {"read": "seqread", "write": "seqwrite"})):
    for job in fio(path)["jobs"]:
        r = by[job["jobname"]]
        for ddir, name in row_of.items():
            d = job[ddir]
            if not d["total_ios"]:
                continue
            got = float(r[name + " rate (B/s)"])
            assert got == d["bw_bytes"], (path, name, got, d["bw_bytes"])
            got = float(r[name + " IOPS rate (IO/s)"])
            assert abs(got - d["iops"]) <= 1e-6 * d["iops"], (name, got)
            lat = d["clat_ns"]
            assert int(r[name + " latency max (ns)"]) == lat["max"], name
            cpu = job["usr_cpu"] + job["sys_cpu"]
            assert abs(float(r[name + " CPU (%)"]) - cpu) < 0.06, name
            checks += 1
assert checks == 5, checks
# json+: p99 from the bins by clyde's rule, near fio's own.
mix = fio(sys.argv[3])["jobs"][0]["read"]["clat_ns"]
p99 = float(by["mix"]["randrw read latency p99 (ns)"])
assert abs(p99 - mix["percentile"]["99.000000"]) <= 0.05 * p99, p99
print("ok bandwidth, IOPS, max latency, CPU of 5 directions as fio wrote them")
PY
if [[ -n $dev ]]; then
	# clyde dev and fio over one device: one "randread" row, both filled.
	run_clyde compare dev.json fdev.json
	expect_rc 0 "compare clyde dev with fio"
	assert_file_match "$T/out" '^randread +rate +[KMG]iB/s +~?[0-9.]+( \*)? +~?[0-9.]+' \
		"randread: a clyde dev figure and a fio figure in one row"
	assert_file_match "$T/out" '^randread IOPS +rate +IO/s +~?[0-9.]+( \*)? +~?[0-9.]+' \
		"randread IOPS: clyde dev's and fio's in one row"
	run_checker "$T/out" dev.json fdev.json <<'PY'
import json, re, sys
out = open(sys.argv[1]).read()
dev = json.load(open(sys.argv[2]))["runs"][0]["tests"][0]
m = re.search(r"^randread IOPS +rate +IO/s +~?([0-9.]+)", out, re.M)
ok = m and abs(float(m.group(1)) - dev["iops"]) <= 0.5 + 1e-3 * dev["iops"]
print(("ok " if ok else "FAIL ") + "clyde dev's IOPS row is its JSON's iops")
PY
	assert_file_no_match "$T/out" 'queue depth: 1 \(clyde-dev\), not recorded' \
		"fio's iodepth is clyde's queue depth"
fi

# --- Bad input: one line naming the file, exit 1.
head -c 3000 mix.json >cut.json
sed 's/"fio-3\.[0-9]*"/"fio-2.2.10"/' rr.json >old.json
grep -q '"fio-2.2.10"' old.json || fail "old.json: no version to replace"
for f in rr.txt cut.json old.json; do
	run_clyde compare "$f"
	expect_rc 1 "compare $f: exit 1"
	assert_eq "$(grep -c "$f" "$T/err")" 1 "compare $f: one line names it"
	[[ ! -s $T/out ]] || fail "compare $f wrote a table"
done
assert_file_match "$T/err" 'old\.json:2: fio version "fio-2\.2\.10" is not one clyde reads \(fio 3\.x\)' \
	"another fio version, said so"
run_clyde compare rr.txt
assert_file_match "$T/err" "rr\.txt: fio's normal \(text\) output.*--output-format=json" \
	"fio's text output, and how to get JSON"
run_clyde compare cut.json
assert_file_match "$T/err" 'cut\.json:[0-9]+: the fio JSON ends early \(a truncated file\?\)' \
	"a truncated file, said so"

# --- history import: one stored result per job; bad files store nothing.
db=$T/h.db
run_clyde history --db "$db" import two.json mix.json c.json
expect_rc 0 "history import of fio and clyde files"
assert_file_match "$T/out" 'two\.json: 2 runs imported' "two jobs, two runs"
run_clyde history --db "$db" list
expect_rc 0 "history list"
assert_eq "$(grep -c ' fio ' "$T/out")" 3 "three fio runs listed"
assert_file_match "$T/out" ' seqread +fio ' "the read job by its name"
run_clyde history --db "$db" import two.json
expect_rc 0 "importing again"
assert_eq "$(grep -c 'already stored' "$T/out" "$T/err" | awk -F: '{s+=$2} END {print s}')" 2 \
	"each job already stored"
for f in rr.txt cut.json old.json; do
	run_clyde history --db "$db" import "$f"
	expect_rc 1 "history import $f: exit 1"
	assert_eq "$(grep -c "$f" "$T/err")" 1 "history import $f: one line"
done
run_clyde history --db "$db" list
assert_eq "$(($(wc -l <"$T/out") - 1))" 4 "still four runs stored"
# --labels: one per job.
run_clyde history --db "$T/l.db" import --labels w,r,x two.json
expect_rc 1 "three labels for two jobs"
assert_file_match "$T/err" '3 labels for 2 results \(one per CSV line, JSON file or fio job' \
	"the count is the jobs'"
run_clyde history --db "$T/l.db" import --labels w-job,r-job two.json
expect_rc 0 "a label per job"
run_clyde history --db "$T/l.db" list
assert_file_match "$T/out" '^ +1 .* w-job +fio ' "the write job labelled"
assert_file_match "$T/out" '^ +2 .* r-job +fio ' "the read job labelled"
run_clyde history --db "$db" compare 1 2 3 4
expect_rc 0 "history compare of stored fio jobs and the clyde run"
assert_file_match "$T/out" '^seqread +rate' "the stored job's figures"
run_clyde history --db "$db" export 2
expect_rc 0 "history export of a fio job"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [j["jobname"] for j in d["jobs"]] == ["seqread"]; assert d["fio version"].startswith("fio-3.")' \
	"$T/out" || fail "the stored document is not fio JSON of that job"
ok "a stored job is fio's JSON of that one job"

# --- report: fio's jobs and the clyde run on one page, in Chromium.
run_clyde report "${inputs[@]}" -o report.html --title 'fio and clyde'
expect_rc 0 "clyde report"
[[ -s report.html ]] || fail "no report.html"
if ! command -v chromium >/dev/null 2>&1; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
			>"$T/apt.log" 2>&1 || true
	fi
	require_cmd "the report check in a browser" chromium
fi
prof=$(mktemp -d "$T/chromium.XXXXXX")
timeout -k 10 120 chromium --headless --no-sandbox --disable-gpu \
	--disable-quic --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --user-data-dir="$prof" \
	--dump-dom "file://$T/report.html" >dom.html 2>chromium.err ||
	fail "chromium --dump-dom: $(tail -n 5 chromium.err)"
[[ -s dom.html ]] || fail "chromium rendered nothing"
for l in "${labels[@]}"; do
	assert_file_match dom.html "text-anchor=\"end\">$l</text>" \
		"$l has bars in a chart"
done
assert_file_match dom.html '<h3>randrw read</h3>' \
	"a latency percentile chart for the mix's reads (json+ bins)"
nlat=$(grep -o 'class="chart latency"' dom.html | wc -l | tr -d ' ')
((nlat >= 4)) || fail "only $nlat latency charts"
ok "$nlat latency percentile charts"
assert_file_match dom.html '<td>fio JSON\+</td>' "the source format is shown"
assert_file_match dom.html '<td>fio-3\.[0-9]+</td>' "fio's version is shown"
run_clyde report rr.txt -o bad.html
expect_rc 1 "a report of fio's text output: exit 1"
[[ ! -e bad.html ]] || fail "a report was written from text output"
ok "no report from fio's text output"
done_testing
