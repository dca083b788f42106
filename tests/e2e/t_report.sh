#!/usr/bin/env bash
# clyde report: one self-contained HTML page, checked in a real browser.
# The screenshot of three results is kept as $E2E_OUT/t_report_3.png
# (default: e2e-out/ in the directory ctest runs in); t_report_many does
# twenty-four.
# Headless Chromium (Debian's `chromium`, installed here when missing and
# we are root) renders it: the DOM after rendering must hold one <svg> per
# test group plus one per test with latency percentiles, every run label
# (escaped: a hostile name must not become markup), the "what differs"
# table; a screenshot must not be blank and must show the bar colours.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd python3
if ! command -v chromium >/dev/null 2>&1; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
		echo "# installing chromium (apt-get install -y chromium)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
			>"$T/apt.log" 2>&1 || skip "chromium cannot be installed"
	fi
	command -v chromium >/dev/null 2>&1 || skip "needs chromium"
fi

fixtures=$CLYDE_SRC/tests/fixtures
E2E_OUT=${E2E_OUT:-$PWD/e2e-out}
mkdir -p "$E2E_OUT"
cd "$T"

# --- Inputs: two real clyde results with repeats (latency percentiles),
# bonnie++ CSV lines of each format, and a line whose name is markup.
# On a tmpfs when root: the figures are only inputs (lib.sh).
new_tmpfs_dir d
d=$DIR
run_clyde -d "$d" -s 16m -n 1 -r 0 -f -x 2 -m ext4-a --json a.json -q
expect_rc 0 "clyde run a"
run_clyde -d "$d" -s 16m -n 1 -r 0 -f -m ext4-b --json b.json -q
expect_rc 0 "clyde run b"
# A schema regression is a failure, never a skip.
assert_file_match a.json '"schema_version": 1' "a.json is schema v1"
assert_file_match b.json '"schema_version": 1' "b.json is schema v1"
[[ -d $fixtures ]] || fail "no fixtures at $fixtures"
head -n 1 "$fixtures/bonnie-1.03.csv" >old.csv
head -n 1 "$fixtures/bonnie-1.96.csv" >>old.csv
head -n 1 "$fixtures/bonnie-1.98.csv" >>old.csv
evil='<img src=x onerror=alert(1)>&amp;'
echo "1.98,2.00a,$evil,1,1,1G,,8192,5,500,50,200000,40,100000,30,600,90,400000,50,900.5,20,16,,,,,5000,50,+++++,+++,4000,40,3000,30,+++++,+++,2000,20,10ms,20ms,30ms,40ms,50ms,60ms,70us,80us,90us,100us,110us,120us" >>old.csv

run_clyde report a.json b.json old.csv -o report.html --title 'ext4 <vs> the rest'
expect_rc 0 "clyde report"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "nothing on stderr"
[[ -s report.html ]] || fail "no report.html"
ok "report.html written"
nruns=$(($(wc -l <old.csv) + 2))

# The file: self-contained, no script, no external resource.
assert_file_no_match report.html '<script|<link|<img|@import|url\(' \
	"no script, stylesheet link, image or url() in the page"
assert_eq "$(grep -Eo 'https?://[^"]*' report.html | sort -u)" \
	"http://www.w3.org/2000/svg" "the only URL is the SVG namespace"

# What the page should hold: one chart per group with a rate (all five
# bonnie++ groups are in the CSV lines), one per test with percentiles.
nlat=$(python3 - a.json b.json <<'EOF'
import json, sys
names = set()
for path in sys.argv[1:]:
    for run in json.load(open(path))["runs"]:
        for t in run["tests"]:
            lat = t.get("latency")
            if t["state"] == "done" and lat and lat.get("count"):
                names.add(t["name"])
print(len(names))
EOF
)
[[ $nlat -gt 0 ]] || fail "the JSON results have no latency percentiles"
# The "Over time" charts: one per test and JSON result whose series has
# two intervals or more (t_series checks them).
nts=$(python3 - a.json b.json <<'EOF'
import json, sys
n = 0
for path in sys.argv[1:]:
    for t in json.load(open(path))["runs"][0]["tests"]:
        s = t.get("series")
        if t["state"] == "done" and s and len(s["intervals"]) >= 2:
            n += 1
print(n)
EOF
)
# Five rate charts, five maximum latency charts (the 1.96 line has all
# twelve latencies), one percentile chart per test.
want_svg=$((10 + nlat + nts))
assert_eq "$(grep -o '<svg' report.html | wc -l | tr -d ' ')" "$want_svg" \
	"the file holds $want_svg charts"

# --- The rendered DOM.
chromium_run --dump-dom "file://$T/report.html" >dom.html ||
	fail "chromium --dump-dom failed: $(tail -n 5 "$T/chromium.err")"
[[ -s dom.html ]] || fail "chromium rendered nothing"
assert_eq "$(grep -o '<svg' dom.html | wc -l | tr -d ' ')" "$want_svg" \
	"the rendered DOM holds $want_svg <svg> charts"
assert_eq "$(grep -o 'class="chart bars rate"' dom.html | wc -l | tr -d ' ')" 5 \
	"five rate charts (one per group)"
assert_eq "$(grep -o 'class="chart bars latmax"' dom.html | wc -l | tr -d ' ')" 5 \
	"five maximum latency charts (bonnie++ 1.96 latencies charted too)"
assert_eq "$(grep -o 'class="chart latency"' dom.html | wc -l | tr -d ' ')" \
	"$nlat" "one latency chart per test with percentiles"
labels=(ext4-a ext4-b devil2 xfs vm)
for label in "${labels[@]}"; do
	assert_file_match dom.html "<td class=\"label\">.*</span>$label</td>" \
		"the label $label is in the runs table"
	assert_file_match dom.html "text-anchor=\"end\">$label</text>" \
		"the label $label is on the bars"
done
# The hostile name is text in the DOM, not an element.
assert_file_no_match dom.html '<img' "a name with markup made no <img>"
assert_file_match dom.html '&lt;img src=x onerror=alert\(1\)&gt;&amp;amp;' \
	"the name is shown as text, escaped"
assert_file_match dom.html '<title>ext4 &lt;vs&gt; the rest</title>' \
	"the title is escaped"
assert_file_match dom.html '<th>filesystem</th>' \
	"what differs: the filesystem (recorded by JSON only)"
assert_file_no_match dom.html 'perchar_bytes|size_auto|evict<|drop_caches|[0-9]k</td>.*RAM' \
	"what differs: friendly names, no internal keys"
assert_file_match dom.html '<th>RAM</th>' "RAM is a setting"
assert_file_match dom.html '<td>[0-9.]+ GiB</td>' "RAM in GiB, not in k"
assert_file_match dom.html 'Generated 20[0-9-]+ [0-9:]+ UTC' \
	"the generation date is on the page"
assert_file_match dom.html '<table class="overview">' "the overview comes first"
assert_file_match dom.html '<details>' "the common settings are collapsed"
assert_eq "$(grep -o '<tr><td class="label">' dom.html | wc -l | tr -d ' ')" \
	"$nruns" "one row per result in the runs table"
assert_file_match dom.html '<text [^>]*class="note">too fast( \[[A-Z]\])?</text>' \
	"too fast is written in a chart, not drawn as 0"

# --- The screenshot: not blank, and the run colours are on it.
# Three results (two clyde runs and a bonnie++ 1.96 line) at 1400 px,
# kept in $E2E_OUT for a person to look at.
head -n 1 "$fixtures/bonnie-1.96.csv" >three.csv
run_clyde report a.json b.json three.csv -o three.html --title 'three results'
expect_rc 0 "clyde report of three results"
# A screenshot left by an earlier run must not pass for this one.
rm -f "$E2E_OUT/t_report_3.png"
chromium_run --screenshot="$E2E_OUT/t_report_3.png" --window-size=1400,2400 \
	"file://$T/three.html" >/dev/null ||
	fail "chromium --screenshot failed: $(tail -n 5 "$T/chromium.err")"
[[ -s $E2E_OUT/t_report_3.png ]] || fail "no screenshot"
python3 "$E2E_DIR/png_check.py" --width 1400 --colours 1f77b4,ff7f0e \
	"$E2E_OUT/t_report_3.png" >png.txt 2>&1 ||
	fail "screenshot check: $(cat png.txt)"
ok "screenshot of three results is not blank: $(cat png.txt)"

# --- Failures: no output file, nothing readable, an unwritable output.
run_clyde report a.json
expect_rc 1 "no -o"
assert_file_match "$T/err" 'no output file' "says -o is missing"
assert_eq "$(wc -l <"$T/err")" 1 "  in one line (not the whole usage)"
: >empty.csv
run_clyde report empty.csv -o r2.html
expect_rc 1 "nothing readable"
[[ ! -e r2.html ]] || fail "a report was written from nothing"
ok "no report from nothing"
run_clyde report a.json -o "$T/no/such/dir/r.html"
expect_rc 1 "an unwritable output"
assert_file_match "$T/err" 'writing .*r\.html' "names the file"
# A mistyped input is an error, not a report with one run less; the old
# report stays as it was.
cp report.html before.html
run_clyde report a.json bb.json -o report.html
expect_rc 1 "a missing input: exit 1"
assert_file_match "$T/err" 'cannot open bb\.json' "names the missing input"
cmp -s report.html before.html || fail "the report was rewritten"
ok "the old report is kept"
# Too big to be a result: refused by its size before reading.
truncate -s 100G huge.json
SECONDS=0
run_clyde report a.json huge.json -o r3.html
expect_rc 1 "a 100 GiB input: exit 1"
assert_file_match "$T/err" 'huge\.json: 102400 MiB, larger than the 64 MiB' \
	"says the file is too big"
((SECONDS < 10)) || fail "the huge file was read (${SECONDS}s)"
[[ ! -e r3.html ]] || fail "a report was written"
ok "refused without reading, nothing written"
rm -f huge.json
done_testing
