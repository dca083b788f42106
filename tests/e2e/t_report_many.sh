#!/usr/bin/env bash
# clyde report with twenty-four results (tests/fixtures/synthetic-24.csv:
# four md chunks x two filesystems x three repeats, bonnie++ 1.96 lines with
# latencies, file tests of different settings), rendered in headless
# Chromium at 1400 px.  A checker page loads the report and measures the
# laid-out page: charts as wide as the page, no table cell cut mid-word,
# the overview's rows and shades, the run markers.  The screenshot is kept
# as $E2E_OUT/t_report_24.png (default: e2e-out/ where ctest runs).
# Then --merge-repeats: eight results with error bars, and a warning for
# the repeats that disagree.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd python3
command -v chromium >/dev/null 2>&1 || skip "needs chromium (t_report installs it)"
E2E_OUT=${E2E_OUT:-$PWD/e2e-out}
mkdir -p "$E2E_OUT"
fixture=$CLYDE_SRC/tests/fixtures/synthetic-24.csv
[[ -s $fixture ]] || fail "no fixture $fixture"

cd "$T" || exit 1
cp "$fixture" runs.csv

# --- 24 results.
run_clyde report runs.csv -o r24.html --title 'md chunk x filesystem'
expect_rc 0 "clyde report of 24 results"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "nothing on stderr"

# The page as a browser lays it out, measured by a script in a checker
# page (the report itself has none).
cat >check.html <<'EOF_HTML'
<!DOCTYPE html><html><body>
<iframe id="r" src="r24.html" style="width:1400px;height:4000px;border:0"></iframe>
<pre id="out">pending</pre>
<script>
document.getElementById('r').onload = function () {
  var d = this.contentDocument, o = [];
  try {
    var svgs = d.querySelectorAll('svg.chart'), minw = 1e9;
    svgs.forEach(function (s) {
      minw = Math.min(minw, s.getBoundingClientRect().width);
    });
    o.push('charts=' + svgs.length);
    o.push('minwidth=' + Math.round(minw));
    var cut = 0, cells = d.querySelectorAll(
      'table.differs td, table.differs th, table.overview td, ' +
      'table.overview th, table.compare td');
    cells.forEach(function (c) {
      var cs = d.defaultView.getComputedStyle(c);
      if (cs.wordBreak == 'break-all' || cs.overflowWrap == 'anywhere')
        cut++;
      if (c.scrollWidth > c.clientWidth + 1)
        cut++;
    });
    o.push('cells=' + cells.length);
    o.push('cut=' + cut);
    o.push('overview_rows=' + d.querySelectorAll('table.overview tr').length);
    var marks = {};
    d.querySelectorAll('table.overview th.run').forEach(function (th) {
      var sw = th.querySelector('.sw');
      marks[sw.className + ' ' + sw.style.background] = 1;
    });
    o.push('distinct_swatches=' + Object.keys(marks).length);
    o.push('shaded=' + d.querySelectorAll('table.overview td.heat').length);
    o.push('stars=' + d.querySelectorAll('table.overview td.best').length);
  } catch (e) { o.push('error=' + e); }
  document.getElementById('out').textContent = o.join(' ');
};
</script></body></html>
EOF_HTML
chromium_run --allow-file-access-from-files --virtual-time-budget=3000 --window-size=1400,1000 \
	--dump-dom "file://$T/check.html" >check.dom ||
	fail "chromium --dump-dom failed: $(tail -n 5 "$T/chromium.err")"
m=$(sed -n 's/.*<pre id="out">\([^<]*\)<.*/\1/p' check.dom)
[[ $m == *charts=* ]] || fail "the checker page did not run: $m"
ok "measured: $m"
val() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" <<<"$m"; }
# Five rate and five maximum latency charts (bonnie++ 1.96 latencies).
assert_eq "$(val charts)" 10 "ten charts: rates and 1.96 maximum latencies"
(($(val minwidth) >= 1250)) || fail "a chart is narrower than the page: $m"
ok "every chart uses the page width ($(val minwidth) px of 1400)"
assert_eq "$(val cut)" 0 "no table cell breaks or cuts a word"
assert_eq "$(val overview_rows)" 25 "the overview: a header and one row per result"
assert_eq "$(val distinct_swatches)" 24 "24 results, 24 distinct colour and marker pairs"
(($(val shaded) > 200)) || fail "the overview is not shaded: $m"
ok "the overview shades $(val shaded) cells"
# The best of each settings group only: the IO tests have two groups
# (16G and 32G files), the file tests two (xfs and ext4 settings).
python3 - r24.html <<'EOF_PY' >dom.txt 2>&1 || fail "DOM: $(cat dom.txt)"
import re, sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.table = None
        self.rows = []
        self.head = []
        self.cell = None
        self.differs_head = []
        self.in_th = False
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "table":
            self.table = a.get("class")
        if self.table == "overview" and tag == "tr":
            self.rows.append([])
        if self.table == "overview" and tag == "td":
            self.cell = [a.get("class", ""), ""]
        if tag == "tr" and self.table == "differs":
            self.differs_tr = getattr(self, "differs_tr", 0) + 1
        if tag == "th" and self.table == "differs" and self.differs_tr == 1:
            self.in_th = True
            self.differs_head.append("")
    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.rows[-1].append(self.cell)
            self.cell = None
        if tag == "th":
            self.in_th = False
        if tag == "table":
            self.table = None
    def handle_data(self, d):
        if self.cell is not None:
            self.cell[1] += d
        if self.in_th:
            self.differs_head[-1] += d

p = P()
p.feed(open(sys.argv[1]).read())
rows = [r for r in p.rows if r]
assert len(rows) == 24, len(rows)
assert all(len(r) == 12 for r in rows), [len(r) for r in rows]
# Columns: putc..seeks (IO, two groups), seq_create..ran_del (two groups).
for col in range(12):
    stars = sum(1 for r in rows if "best" in r[0 + col][0].split())
    assert stars <= 2, (col, stars)
    assert stars >= 1 or col in (7, 10), (col, stars)
# ext4's seq_stat/ran_stat were too fast: written, not shaded.
assert all(r[7][1] == "too fast" for r in rows[12:]), "too fast in the overview"
# No false decimals: files/s from a CSV are whole numbers.
assert re.fullmatch(r"\d+( ★)?", rows[0][6][1]), rows[0][6][1]
head = p.differs_head[1:]
assert head == ["file size", "files", "max size", "directories"], head
print("overview 24x12, stars per column <= 2, what differs:", head)
EOF_PY
ok "DOM: $(cat dom.txt)"
assert_file_no_match r24.html 'perchar_bytes|size_auto|word-break:break-all' \
	"no internal keys, no mid-word breaks"
assert_file_match r24.html 'file tests</b>: the results differ in files, max size, directories' \
	"the file tests' settings groups are named"
assert_file_match r24.html '<polygon class="mk"' "past ten runs: marker shapes"
assert_file_match r24.html 'Generated 20' "the generation date"

chromium_run --allow-file-access-from-files --screenshot="$E2E_OUT/t_report_24.png" --window-size=1400,3000 \
	"file://$T/r24.html" >/dev/null ||
	fail "chromium --screenshot failed: $(tail -n 5 "$T/chromium.err")"
python3 "$E2E_DIR/png_check.py" --width 1400 --colours 1f77b4,ff7f0e,2ca02c \
	"$E2E_OUT/t_report_24.png" >png.txt 2>&1 ||
	fail "screenshot check: $(cat png.txt)"
ok "screenshot of 24 results: $(cat png.txt)"

# --- --merge-repeats: eight results of three repeats, a CI each.
run_clyde report runs.csv --merge-repeats -o r8.html
expect_rc 0 "report --merge-repeats"
assert_file_match "$T/err" \
	'warning: md64k-xfs \(runs.csv:1\): the 3 repeats of ran_stat disagree .* hides: [0-9]+, 500, [0-9]+$' \
	"the repeats that disagree are named with their values"
assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "one warning, nothing else"
assert_eq "$(grep -c '<tr><th class="run">' r8.html)" 16 \
	"eight results (overview and what differs)"
(($(grep -o '<path class="err"' r8.html | wc -l) >= 40)) ||
	fail "too few error bars"
ok "error bars drawn"
assert_file_match r8.html '<td class="num heat[^"]*"[^>]*>[0-9]+!' \
	"the overview marks the repeats that disagree"
run_clyde compare runs.csv --merge-repeats
expect_rc 0 "compare --merge-repeats"
assert_file_match "$T/out" '^ran_stat +rate +files/s +[0-9]+ ±[0-9.]+!( \*[=?]?)? \[A\]' \
	"compare: mean ± CI and the disagreement mark"
# Repeats this noisy decide nothing against the best: the mark says so.
assert_file_match "$T/out" '^ran_stat +rate +files/s +[0-9]+ ±[0-9.]+! \*\? \[A\]' \
	"compare: a run the data cannot tell from the best is marked *?"
assert_file_match "$T/out" '^  \*\? cannot tell from the best' \
	"compare: the legend says what *? means"
done_testing
