#!/usr/bin/env bash
# A sweep's report shows one point's time series beside another's (issue
# 20 §2): a real sweep of two points (clyde run by time, 100 ms
# intervals) saved in a history, then `clyde report --experiment` renders
# "Over time": per test one small chart per point, side by side on shared
# axes (the same span and rate scale), each with its rate line and its
# dirty-memory line.  Checked in headless Chromium's DOM; the page fetches
# nothing.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd python3 sqlite3
command -v chromium >/dev/null 2>&1 || skip "needs chromium"

DB=$T/h.db
mkdir -p "$T/d"
cat >"$T/ts.ini" <<INI
[experiment]
name = ts
repeat = 1
axis sz = 8 16
[workload b]
run = -d $T/d -s {sz} -n 0 -f --runtime 1 --log-interval 100
INI
run_clyde sweep -q --db "$DB" "$T/ts.ini"
if grep -q 'without libinih\|without SQLite' "$T/err"; then
	skip "clyde built without libinih or SQLite"
fi
expect_rc 0 "the sweep ran"
id=$(sed -n 's/^clyde sweep: experiment \([^ ]*\) .*/\1/p' "$T/err" | head -n 1)
[[ -n $id ]] || fail "no experiment id on stderr: $(cat "$T/err")"

run_clyde report --experiment "$id" --db "$DB" -o "$T/exp.html"
expect_rc 0 "clyde report --experiment"
assert_file_match "$T/exp.html" '<h2 id="overtime">Over time</h2>' \
	"the report has an Over time part"
assert_file_no_match "$T/exp.html" '<script|<link|<img|@import|url\(' \
	"no script, stylesheet link, image or url() in the page"

chromium_run --dump-dom "file://$T/exp.html" >"$T/dom.html" ||
	fail "chromium --dump-dom failed: $(tail -n 5 "$T/chromium.err")"
[[ -s $T/dom.html ]] || fail "chromium rendered nothing"
python3 - "$T/dom.html" >"$T/dom.txt" <<'PY' || fail "DOM check: $(cat "$T/dom.txt")"
import sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.sec, self.fig = [], None, None
        self.cap = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "section" and "exp-ts" in cls:
            self.sec = {"metric": a.get("data-metric"), "figs": []}
            self.sections.append(self.sec)
        elif tag == "figure" and "exp-ts-point" in cls and self.sec:
            self.fig = {"point": a.get("data-point"),
                        "n": int(a["data-intervals"]),
                        "span": a.get("data-span"), "top": a.get("data-top"),
                        "rate": 0, "dirty": 0, "caption": ""}
            self.sec["figs"].append(self.fig)
        elif tag == "path" and self.fig is not None:
            if "ts-rate" in cls:
                self.fig["rate"] = int(a["data-points"])
                assert a.get("d", "").startswith("M"), a
            if "ts-dirty" in cls:
                self.fig["dirty"] = int(a["data-points"])
        elif tag == "figcaption":
            self.cap = True
    def handle_endtag(self, tag):
        if tag == "figure":
            self.fig = None
        if tag == "section":
            self.sec = None
        if tag == "figcaption":
            self.cap = False
    def handle_data(self, d):
        if self.cap and self.fig is not None:
            self.fig["caption"] += d

p = P()
p.feed(open(sys.argv[1]).read())
for s in p.sections:
    print(s["metric"], [(f["point"], f["n"], f["rate"], f["dirty"],
                         f["caption"]) for f in s["figs"]])
metrics = {s["metric"]: s for s in p.sections}
assert "b.put_block" in metrics, "block write has its series: %s" % metrics
for s in p.sections:
    figs = s["figs"]
    # Both points, one beside the other, on one frame.
    assert [f["point"] for f in figs] == ["0", "1"], figs
    assert len({f["span"] for f in figs}) == 1, "one time span: %s" % figs
    assert len({f["top"] for f in figs}) == 1, "one rate scale: %s" % figs
    for f, name in zip(figs, ("sz 8", "sz 16")):
        # 1 s by 100 ms: about 10 intervals, each a point of the line.
        assert 8 <= f["n"] <= 14, f
        assert f["rate"] >= f["n"] - 2, f
        assert f["dirty"] >= 1, "dirty memory drawn: %s" % f
        assert f["caption"].startswith(name + ":"), f
PY
ok "Over time: $(head -n 1 "$T/dom.txt")"

done_testing
