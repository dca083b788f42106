#!/usr/bin/env bash
# clyde report --experiment-json: an experiment with two axes (chunk x
# level, a failed point, three metrics) rendered to one self-contained HTML
# page and checked in headless Chromium: one chart per metric, in each a
# line and a CI band per level and one best point; the sentences, the table
# and each point's configuration (escaped).  A screenshot at 1400 px must
# not be blank and must show the line colours; it is kept in
# $E2E_OUT (default: e2e-out/ in the directory ctest runs in, the build).
# Then the table formats and the errors: each exits 1 with one line.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd python3
command -v chromium >/dev/null 2>&1 || skip "needs chromium"
E2E_OUT=${E2E_OUT:-$PWD/e2e-out}
mkdir -p "$E2E_OUT"

cd "$T"

# --- The experiment: block write falls with the chunk, seeks rise to a
# plateau, tar does not care; raid6 is slower.  Fixed samples.
python3 - >exp.json <<'EOF'
import json
chunks = ["64k", "128k", "256k", "512k"]
bw = {"64k": 500, "128k": 450, "256k": 400, "512k": 300}
seeks = {"64k": 300, "128k": 400, "256k": 410, "512k": 405}
pts = []
for level, f in (("raid5", 1.0), ("raid6", 0.8)):
    for c in chunks:
        pts.append({
            "values": [c, level],
            "config": "mdadm --create /dev/md0 --level=%s --chunk=%s\n"
                      "<script>alert(1)</script>" % (level, c),
            "samples": {
                "run.put_block": [(bw[c] * f + d) * 1048576
                                  for d in (-5, 0, 5)],
                "run.seeks": [seeks[c] + d for d in (-4, 0, 4)],
                "time.tar": [11.5 + d for d in (-0.3, 0, 0.3)],
            }})
pts.append({"values": ["1m", "raid5"], "failed": True})
print(json.dumps({
    "schema": "clyde-experiment", "schema_version": 1,
    "id": "md-chunk", "title": "md chunk <b>sizes</b>",
    "axes": ["chunk", "level"],
    "metrics": [
        {"key": "run.put_block", "label": "block write", "unit": "B/s"},
        {"key": "run.seeks", "label": "seeks", "unit": "ops/s"},
        {"key": "time.tar", "label": "tar xf", "unit": "s"}],
    "points": pts}, indent=1))
EOF

run_clyde report --experiment-json exp.json -o exp.html
expect_rc 0 "clyde report --experiment-json"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "nothing on stderr"
[[ -s exp.html ]] || fail "no exp.html"
ok "exp.html written"
assert_file_no_match exp.html '<script|<link|<img|@import|url\(' \
	"no script, stylesheet link, image or url() in the page"
assert_eq "$(grep -Eo 'https?://[^"]*' exp.html | sort -u)" \
	"http://www.w3.org/2000/svg" "the only URL is the SVG namespace"

# --- The rendered DOM: per chart, two lines, two bands, a dot per sample
# (8 points x 3), and a best point (a star) only where the best beats the
# runner-up beyond noise: block write (500 vs 450 +- 5) has one; seeks
# (410 vs 405 +- 4) and tar (the same everywhere) tie, so none.
# One chromium start for the DOM and the screenshot checked below (a few
# seconds each on a loaded machine): --dump-dom with --screenshot writes
# both.  A screenshot left by an earlier run must not pass for this one.
rm -f "$E2E_OUT/t_exp_report.png"
chromium_run --dump-dom --screenshot="$E2E_OUT/t_exp_report.png" \
	--window-size=1400,2400 "file://$T/exp.html" >dom.html ||
	fail "chromium --dump-dom --screenshot failed: $(tail -n 5 "$T/chromium.err")"
[[ -s dom.html ]] || fail "chromium rendered nothing"
python3 - dom.html >dom.txt <<'EOF' || fail "DOM check: $(cat dom.txt)"
import sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts, self.cur, self.li, self.details = [], None, 0, 0
        self.text = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "svg" and "exp" in cls:
            self.cur = {"series": 0, "band": 0, "best": 0, "legend": 0,
                        "sample": 0}
            self.charts.append(self.cur)
        elif self.cur is not None:
            for k in ("series", "band", "best", "legend", "sample"):
                if k in cls:
                    self.cur[k] += 1
        if tag == "li":
            self.li += 1
        if tag == "details":
            self.details += 1
    def handle_endtag(self, tag):
        if tag == "svg":
            self.cur = None
    def handle_data(self, d):
        self.text.append(d)

p = P()
p.feed(open(sys.argv[1]).read())
print("charts:", p.charts, "sentences:", p.li, "details:", p.details)
assert len(p.charts) == 3, "want one chart per metric"
for c, best in zip(p.charts, (1, 0, 0)):
    assert c == {"series": 2, "band": 2, "best": best, "legend": 2,
                 "sample": 24}, c
assert p.li >= 3, "want a sentence per metric at least"
assert p.details == 9, "want one details block per point"
text = "".join(p.text)
assert "<script>alert(1)</script>" in text, "config text is shown as text"
assert "md chunk <b>sizes</b>" in text, "the title is shown as text"
EOF
ok "DOM: $(cat dom.txt)"
assert_file_no_match dom.html '<script|<b>' "no markup from the experiment"
assert_file_match dom.html 'chunk 64k is best for block write: \+[0-9]+% against 128k' \
	"the block write sentence names the best chunk"
assert_file_match dom.html '<td class="num failed">failed</td>' \
	"the failed point is shown as failed"

# --- The screenshot (made with the DOM above): not blank, the two line
# colours are on it.
[[ -s $E2E_OUT/t_exp_report.png ]] || fail "no screenshot"
python3 "$E2E_DIR/png_check.py" --width 1400 --colours 1f77b4,ff7f0e \
	"$E2E_OUT/t_exp_report.png" >png.txt 2>&1 ||
	fail "screenshot check: $(cat png.txt)"
ok "screenshot is not blank: $(cat png.txt)"

# --- Time series in the file ("series", exp_json.h): two points carry
# block write's course; "Over time" draws those two on shared axes and
# counts the seven without.
python3 - exp.json >exp_ts.json <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
for p, f in zip(d["points"][:2], (1.0, 0.5)):
    p["series"] = {"run.put_block": {
        "interval_s": 0.5,
        "rate": [5e8 * f, 4e8 * f, 1e8 * f, 3e8 * f],
        "dirty": [1e8, 3e8, None, 2e8]}}
print(json.dumps(d))
EOF2
run_clyde report --experiment-json exp_ts.json -o exp_ts.html
expect_rc 0 "an experiment file with series"
assert_eq "$(grep -o '<figure class="exp-ts-point"[^>]*>' exp_ts.html |
	sed 's/ data-point="[0-9]*"//' | sort | uniq -c | sed 's/^ *//')" \
	'2 <figure class="exp-ts-point" data-intervals="4" data-span="2" data-top="5e+08">' \
	"two charts of four intervals on one frame"
assert_eq "$(grep -o 'class="ts-dirty"[^/]*data-points="[0-9]*"' exp_ts.html |
	grep -o '[0-9]*"$' | tr -d '"' | tr '\n' ' ')" "3 3 " \
	"the dirty line breaks where it was not read"
assert_file_match exp_ts.html '7 points without a time series here' \
	"the points without a series are counted"
assert_file_no_match exp.html '<figure class="exp-ts-point"|id="overtime"' \
	"no Over time without series"

# --- The table formats.
run_clyde report --experiment-json exp.json --format pdf -o bad.html
expect_rc 1 "--format pdf is refused"
assert_eq "$(cat "$T/err")" 'clyde report: --format: "pdf" is not a format; use html, text, markdown, md or csv' \
	"  in one line naming the formats"
[[ ! -e bad.html ]] || fail "--format pdf wrote bad.html"
ok "  and nothing written"
run_clyde report --experiment-json exp.json --format text -o -
expect_rc 0 "--format text"
assert_file_match "$T/out" '^chunk +level +block write \(MiB/s\) +seeks \(seeks/s\) +tar xf \(s\)' \
	"the text table's header"
assert_file_match "$T/out" '^64k +raid5 +500\.0 ± 12\.4 ★' \
	"the best block write is starred"
assert_file_match "$T/out" '^1m +raid5 +failed' "failed in the text table"
run_clyde report --experiment-json exp.json --format csv \
	--metrics time.tar -o t.csv
expect_rc 0 "--format csv --metrics time.tar"
assert_eq "$(head -n 1 t.csv)" \
	"chunk,level,status,time.tar.mean,time.tar.ci95,time.tar.n,time.tar.significant,time.tar.flags" \
	"the CSV header has only the metric asked for"
assert_eq "$(grep -c ',ok,' t.csv)" 8 "one CSV row per point that ran"
run_clyde report --experiment-json exp.json --format csv -o all-default.csv
run_clyde report --experiment-json exp.json --format csv --metrics all \
	-o all.csv
expect_rc 0 "--metrics all (as clyde sweep takes it)"
assert_eq "$(cat all.csv)" "$(cat all-default.csv)" \
	"--metrics all is every metric, the default"

# --- Errors: exit 1, one line on stderr, nothing written.
check_err()
{
	local want=$1
	shift
	run_clyde "$@"
	expect_rc 1 "clyde $* exits 1"
	[[ $(wc -l <"$T/err") -eq 1 ]] ||
		fail "clyde $*: want one line on stderr, got: $(cat "$T/err")"
	assert_file_match "$T/err" "$want" "clyde $* says why"
	[[ ! -e bad.html ]] || fail "clyde $* wrote bad.html"
}
check_err '^clyde report: cannot open nope\.json: No such file' \
	report --experiment-json nope.json -o bad.html
echo '{"schema": "clyde-experiment", "schema_version": 1,' >broken.json
check_err '^clyde report: broken\.json:[0-9]+: ' \
	report --experiment-json broken.json -o bad.html
sed 's/"run.seeks": \[/"run.nope": [/' exp.json >unknown.json
check_err '^clyde report: unknown\.json:[0-9]+: samples of "run.nope", which is not in "metrics"' \
	report --experiment-json unknown.json -o bad.html
sed 's/"interval_s": 0.5/"interval_s": 0/' exp_ts.json >badts.json
check_err '^clyde report: badts\.json:[0-9]+: series of "run.put_block" needs "interval_s", a number above 0' \
	report --experiment-json badts.json -o bad.html
check_err '^clyde report: metric "run\.nope": not in the experiment' \
	report --experiment-json exp.json --metrics run.nope -o bad.html
check_err '^clyde report: no output file' report --experiment-json exp.json
check_err '^clyde report: unexpected argument "a\.json" with an experiment' \
	report --experiment-json exp.json a.json -o bad.html
check_err '^clyde report: ' \
	report --experiment md-chunk --db "$T/none.db" -o bad.html
done_testing
