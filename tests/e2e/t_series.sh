#!/usr/bin/env bash
# Time series and runs by duration (issue 20 §1 for clyde run, §2):
# clyde run --runtime runs the IO tests by time and --stonewall cuts them;
# every test's per-interval series (bytes, operations, latency, dirty and
# writeback memory) adds up to the test and to its workers; steadiness in
# JSON and text; clyde dev --until-steady stops a test once its IOPS are
# steady; clyde report draws the series (checked in headless Chromium's
# DOM); bad values are one line each.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
cd "$T" || exit 1
d=$(new_dir d)

# --- clyde run --runtime with two workers and 100 ms intervals.
run_clyde -d "$d" -s 16 -n 0 -f1 -r 0 -c 2 --no-save --runtime 1.2 \
	--log-interval 100 --json rt.json
expect_rc 0 "clyde run --runtime 1.2 --log-interval 100 -c 2"
assert_file_match out "^clyde: steadiness of the rate per test" \
	"the text report has the steadiness lines"
assert_file_match out "^put_block +cv +[0-9.]+%  slope +[-+][0-9.]+%/s  over [0-9]+ x 0.1 s" \
	"put_block's steadiness: cv and slope over its 0.1 s intervals"
assert_file_match out "^put_block +cv .* of writing; then flush [0-9.e-]+ s$" \
	"put_block's steadiness is the writing's, the flush apart"
cp out rt.txt
run_checker rt.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def say(c, what): print(("ok " if c else "FAIL ") + what)
c = d["config"]
say(c["runtime_ns"] == 1200000000 and c["log_interval_ns"] == 100000000,
    "config: runtime_ns and log_interval_ns")
tests = {t["name"]: t for t in d["runs"][0]["tests"] if t["state"] == "done"}
io = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks"]
say(all(n in tests for n in io), "the six IO tests ran")
file_bytes = 16 << 20
for n in ["put_block", "rewrite", "get_block"]:
    t = tests[n]
    # The deadline is armed as the workers are started, so the timed part
    # (from the workers' start) may be shorter by their set-up: a few ms.
    say(1.2e9 * 0.95 <= t["elapsed_ns"] < 1.2e9 + 3e9,
        f"{n}: ran about --runtime ({t['elapsed_ns'] / 1e9:.2f} s)")
    say(not any(w.get("stonewalled") for w in t["workers"]),
        f"{n}: --runtime's end is not a stonewall cut")
for n in io:
    t = tests[n]; s = t["series"]; iv = s["intervals"]
    ok_sum = sum(i["bytes"] for i in iv) == t["bytes"] and \
             sum(i["ops"] for i in iv) == t["ops"]
    say(ok_sum, f"{n}: the intervals add up to the test's bytes and ops")
    say(sum(i["lat_count"] for i in iv) == t["latency"]["count"],
        f"{n}: the intervals' latency counts add up to the histogram's")
    # The block tests and seeks run --runtime (1.2 s: 12 or 13 intervals);
    # the per-char ones stop at -f's size when that comes first (clyde.1),
    # so theirs cover the test's own time, however fast the machine.
    want = 10 if n not in ("putc", "getc") else \
        max(2, int(t["elapsed_ns"] // 100000000))
    say(s["interval_ns"] == 100000000 and len(iv) >= want and
        len(iv) <= t["elapsed_ns"] // 100000000 + 2 and s["complete"],
        f"{n}: {len(iv)} intervals of 100 ms over {t['elapsed_ns'] / 1e9:.2f} s, complete")
    say(all(i["t_ns"] == k * 100000000 for k, i in enumerate(iv)) and
        all(i["dur_ns"] == 100000000 for i in iv[:-1]) and
        0 < iv[-1]["dur_ns"] <= 100000000,
        f"{n}: t_ns by index, full intervals but the last")
    say(iv[0]["dirty_bytes"] is not None and iv[0]["writeback_bytes"] is not None,
        f"{n}: dirty and writeback memory read")
    say(all(i["wire_sent_bytes"] is None and i["wire_recv_bytes"] is None
            and i["wire_rpcs"] is None for i in iv),
        f"{n}: no network mount: the traffic per interval is null")
    ws = [w["series"] for w in t["workers"]]
    ok_w = len(ws) == 2
    for k, i in enumerate(iv):
        mine = [w["intervals"][k] for w in ws if k < len(w["intervals"])]
        if sum(m["bytes"] for m in mine) != i["bytes"] or \
           sum(m["lat_count"] for m in mine) != i["lat_count"] or \
           max([m["lat_max_ns"] or 0 for m in mine] + [0]) != (i["lat_max_ns"] or 0):
            ok_w = False
    say(ok_w, f"{n}: each interval merges the two workers' exactly")
    st = t["steadiness"]
    say(st is not None and st["intervals"] >= 2 and st["cv"] >= 0 and
        st["unit"] == ("ops" if n == "seeks" else "bytes"),
        f"{n}: steadiness with cv and slope")
# The write tests end with a timed fsync: its start is in the series and
# the steadiness is the writing's, the flush told apart (issue 32, 4).
for n in ["put_block", "rewrite"]:
    s = tests[n]["series"]; st = tests[n]["steadiness"]
    fl = s.get("flush_start_ns")
    say(fl is not None and 0 < fl <= tests[n]["elapsed_ns"],
        f"{n}: the series says where the timed flush began ({fl})")
    say(st["phase"] == "write" and fl is not None and
        st["intervals"] == min(fl // s["interval_ns"], len(s["intervals"])),
        f"{n}: steadiness over the {st['intervals']} intervals of writing")
for n in ["get_block", "getc"]:
    say(tests[n]["series"]["flush_start_ns"] is None and
        tests[n]["steadiness"]["phase"] == "all",
        f"{n}: no flush, steadiness over all intervals")
# By time the block tests went round the 16 MiB file (2 workers) at least
# once on any storage that keeps up 30 MiB/s.
say(tests["get_block"]["bytes"] > 2 * file_bytes,
    "get_block read more than the file: it went round (--runtime)")
PY

# --- --stonewall on one host: a test is cut at the deadline.
run_clyde -d "$d" -s 256 -n 0 -f -r 0 --no-save --stonewall 0.3 \
	--engine io_uring --iodepth 1 --json sw.json
expect_rc 0 "clyde run --stonewall 0.3"
run_checker sw.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def say(c, what): print(("ok " if c else "FAIL ") + what)
t = {t["name"]: t for t in d["runs"][0]["tests"] if t["state"] == "done"}
say(d["config"]["stonewall_ns"] == 300000000, "config: stonewall_ns")
cut = [n for n in ("put_block", "rewrite", "get_block", "seeks")
       if t[n]["workers"][0].get("stonewalled")]
say(len(cut) >= 1, f"the deadline cut {cut or 'no test'}")
for n in cut:
    say(t[n]["elapsed_ns"] < 0.3e9 + 2e9, f"{n}: ended near the deadline")
PY

# --- A --runtime shorter than one chunk's write still writes one, so that
# the read and seek tests after it have a file (it ended in exit 3, "file
# ... is smaller than one chunk").
run_clyde -d "$d" -s 16 -n 0 -r 0 --no-save --runtime 0.0001
expect_rc 0 "--runtime 0.0001 runs"
assert_file_no_match err 'smaller than one chunk' "--runtime 0.0001: the seeks have a chunk"
assert_file_match out '^1\.98,' "--runtime 0.0001: the CSV line"

# --- Bad values: one line, exit 1.
for bad in "--log-interval 5" "--log-interval x" "--runtime 0" \
	"--runtime soon" "--stonewall -1" "--runtime 1 --stonewall 1"; do
	# shellcheck disable=SC2086 # the option and its value
	run_clyde -d "$d" -s 16 -n 0 --no-save $bad
	[[ $RC -eq 1 && $(wc -l <err) -eq 1 ]] ||
		fail "$bad: exit $RC, $(wc -l <err) lines: $(cat err)"
	ok "$bad: refused in one line ($(cat err))"
done

# --- clyde dev --until-steady on a regular file.
truncate -s 32M dev.img
run_clyde dev "$T/dev.img" --tests randread --size 32m --runtime 6 \
	--log-interval 100 --until-steady 100 --steady-window 3 --no-save \
	--json dev.json
expect_rc 0 "clyde dev --runtime 6 --until-steady 100"
assert_file_match out "^randread: steady after [0-9.]+ s \(IOPS slope within 100%/s over 3 intervals\)" \
	"the text says when the test became steady"
assert_file_match out "^randread: steadiness cv" "dev: the steadiness line"
run_checker dev.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def say(c, what): print(("ok " if c else "FAIL ") + what)
t = d["runs"][0]["tests"][0]
s = t["series"]; iv = s["intervals"]
say(d["config"]["until_steady_pct"] == 100 and d["config"]["steady_window"] == 3,
    "config: until_steady_pct, steady_window")
say(t["steady"] is True and t["steady_ns"] >= 300000000,
    f"steady after {t['steady_ns'] / 1e9:.1f} s (at least the 3-interval window)")
say(t["elapsed_ns"] < 6e9, f"stopped before --runtime ({t['elapsed_ns'] / 1e9:.2f} s)")
say(sum(i["ops"] for i in iv) == t["ops"] and
    sum(i["lat_count"] for i in iv) == t["latency"]["count"],
    "dev: the intervals add up to the test")
say(t["steadiness"] is not None, "dev: steadiness in the JSON")
PY
run_clyde dev "$T/dev.img" --tests randread --until-steady 2 --no-save
[[ $RC -eq 1 && $(wc -l <err) -eq 1 ]] || fail "--until-steady without --runtime: exit $RC: $(cat err)"
assert_match "$(cat err)" "--until-steady: only with --runtime" \
	"--until-steady without --runtime: one line"
run_clyde dev "$T/dev.img" --tests randread --runtime 1 --until-steady 0 --no-save
[[ $RC -eq 1 && $(wc -l <err) -eq 1 ]] || fail "--until-steady 0: exit $RC"
ok "--until-steady 0: refused in one line"

# --- The report: an "Over time" chart per test and run, in the DOM.
run_clyde report rt.json dev.json -o report.html
expect_rc 0 "clyde report with time series"
if ! command -v chromium >/dev/null 2>&1; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
			>apt.log 2>&1 || skip "chromium cannot be installed"
	fi
	command -v chromium >/dev/null 2>&1 || skip "needs chromium"
fi
prof=$(mktemp -d "$T/chromium.XXXXXX")
timeout -k 10 120 chromium --headless --no-sandbox --disable-gpu \
	--disable-quic --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --user-data-dir="$prof" \
	--dump-dom "file://$T/report.html" >dom.html 2>chromium.err ||
	fail "chromium --dump-dom failed: $(tail -n 5 chromium.err)"
[[ -s dom.html ]] || fail "chromium rendered nothing"
run_checker dom.html rt.json dev.json <<'PY'
import json, re, sys
from html.parser import HTMLParser
dom = open(sys.argv[1]).read()
def say(c, what): print(("ok " if c else "FAIL ") + what)
want = {}
for col, path in enumerate(sys.argv[2:]):
    for t in json.load(open(path))["runs"][0]["tests"]:
        s = t.get("series")
        if t["state"] == "done" and s and len(s["intervals"]) >= 2:
            want[(t["name"], str(col))] = len(s["intervals"])
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.figs = {}; self.cur = None
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "figure" and a.get("class") == "ts":
            self.cur = (a["data-test"], a["data-run"])
            self.figs[self.cur] = {"n": int(a["data-intervals"]), "paths": []}
        elif tag == "path" and self.cur and (a.get("class") or "").startswith("ts-"):
            self.figs[self.cur]["paths"].append((a["class"], int(a["data-points"]), a["d"]))
    def handle_endtag(self, tag):
        if tag == "figure": self.cur = None
p = P(); p.feed(dom)
say('<h2 id="timeseries">Over time</h2>' in dom, "the page has the 'Over time' section")
say(set(p.figs) == set(want),
    f"one chart per test and run with a series ({len(want)}: {sorted(want)})")
rate_ok = p99_ok = dirty_ok = wb_ok = n_ok = True
for k, f in p.figs.items():
    kinds = [c for c, _, _ in f["paths"]]
    rate = [n for c, n, _ in f["paths"] if c == "ts-rate"]
    if f["n"] != want.get(k): n_ok = False
    # Every interval has a rate (0 when nothing completed).
    if rate != [f["n"]]: rate_ok = False
    if kinds.count("ts-p99") != 1 or \
       [n for c, n, _ in f["paths"] if c == "ts-p99"][0] < 1: p99_ok = False
    if kinds.count("ts-dirty") != 2: dirty_ok = False
    if kinds.count("ts-writeback") != 2: wb_ok = False
say(wb_ok, "each chart draws writeback in both panels beside dirty memory")
say(n_ok, "each chart's interval count is its JSON's")
say(rate_ok, "each chart's rate line has a point per interval")
say(p99_ok, "each chart has a p99 latency line")
say(dirty_ok, "each chart draws dirty memory in both panels (second axis)")
say(len(re.findall(r'<span class="steady">cv [0-9.]+%, slope [-+][0-9.]+%/s</span>', dom)) == len(want),
    "each caption gives the cv and slope")
PY

# Two results of one test on one scale: the same run with a quarter of
# its bytes in every interval is drawn low, not as tall as the first.
python3 - rt.json rt4.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["runs"]:
    for t in run["tests"]:
        s = t.get("series")
        for iv in (s or {}).get("intervals", []):
            iv["bytes"] //= 4
            iv["ops"] //= 4
d["label"] = "quarter"
json.dump(d, open(sys.argv[2], "w"))
PY
run_clyde report rt.json rt4.json -o shared.html
expect_rc 0 "clyde report of a run and its quarter"
timeout -k 10 120 chromium --headless --no-sandbox --disable-gpu \
	--disable-quic --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --user-data-dir="$prof" \
	--dump-dom "file://$T/shared.html" >shared.dom 2>chromium.err ||
	fail "chromium --dump-dom failed: $(tail -n 5 chromium.err)"
run_checker shared.dom <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
def say(c, what): print(("ok " if c else "FAIL ") + what)
figs = re.findall(r'<figure class="ts" data-test="put_block" data-run="(\d)"'
                  r'[^>]*data-scale="shared" data-rate-top="([^"]+)">(.*?)</figure>',
                  dom, re.S)
say(len(figs) == 2, "put_block: two charts marked data-scale=shared")
say(len({top for _, top, _ in figs}) == 1, "  with one rate top")
def top_y(body):
    d = re.search(r'<path class="ts-rate"[^>]* d="([^"]*)"', body).group(1)
    return min(float(y) for y in re.findall(r"[ML][0-9.]+ ([0-9.]+)", d))
if len(figs) == 2:
    full, quarter = top_y(figs[0][2]), top_y(figs[1][2])
    # The rate panel runs from y 14 (top) to 134 (zero).
    say(full < 20 and quarter > 14 + 0.6 * 120,
        "the quarter's peak is drawn low (%.1f), the full one's at the top (%.1f)"
        % (quarter, full))
say(re.search(r'<p class="ts-scale">One scale for every result of this test: '
              r'rate up to [0-9.]+ [KMG]iB/s', dom) is not None,
    "the shared scale is said above the charts")
PY
rm -rf "$prof"
assert_empty_dir "$d" "nothing left behind"
done_testing
