#!/usr/bin/env bash
# Flags reach every table (issue 32, 1): a loop device without direct I/O
# under `clyde dev` is served by the page cache (dev prints "memory");
# compare's text, Markdown and CSV, the HTML report (in headless
# Chromium's DOM) and `history list` carry the mark beside its figures,
# and a flagged figure is never starred over unflagged ones: two runs on
# the same image through a loop device with direct I/O are ranked, the
# memory run is "not ranked".  A bonnie run with --no-evict is flagged
# "cache" on the tests that read back.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3 losetup
if ! command -v chromium >/dev/null 2>&1; then
	if command -v apt-get >/dev/null 2>&1; then
		echo "# installing chromium (apt-get install -y chromium)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
			>"$T/apt.log" 2>&1 || skip "chromium cannot be installed"
	fi
	command -v chromium >/dev/null 2>&1 || skip "needs chromium"
fi
cd "$T"

img=$T/img
truncate -s 64M "$img"
nodio=$(losetup -f --show --direct-io=off "$img" 2>/dev/null) ||
	skip "no loop device"
at_exit "losetup -d '$nodio'"
dio=$(losetup -f --show --direct-io=on "$img" 2>/dev/null) ||
	skip "no loop device with --direct-io=on"
at_exit "losetup -d '$dio'"

dev_run()
{
	run_clyde dev "$1" --tests seqwrite,seqread,randread --size 16m \
		--rand-ops 256 --log-interval 0 --destroy-data --no-save \
		-m "$2" --json "$2.json"
	expect_rc 0 "clyde dev $2"
}
dev_run "$nodio" mem
assert_file_match out 'seqread .* memory$' "dev's own table says memory"
dev_run "$dio" dio1
dev_run "$dio" dio2

# --- compare, text: the mark beside every figure of the memory run, no
# star on it, a star on a dio run, the legend says why.
run_clyde compare mem.json dio1.json dio2.json
expect_rc 0 "compare"
cp out cmp.txt
assert_file_match cmp.txt '^seqread +rate +[KMG]iB/s +[0-9.]+ \(memory\) ' \
	"text: seqread's rate of the memory run is marked (memory)"
assert_file_match cmp.txt '^randread +lat p99 +[0-9.]+ [mun]?s \(memory\) ' \
	"text: its latency too"
assert_file_no_match cmp.txt '\(memory\) \*' "text: no memory figure is starred"
assert_file_match cmp.txt '^seqread +rate .*[0-9](!| !!)? \*( |$)' \
	"text: a run with direct I/O is starred in seqread"
assert_file_match cmp.txt '^\(memory\) served from a page cache' \
	"text: the legend says what (memory) means"
assert_file_match cmp.txt 'a flagged figure is not ranked' \
	"text: the legend says flagged figures are not ranked"

run_clyde compare --format markdown mem.json dio1.json dio2.json
expect_rc 0 "compare --format markdown"
assert_file_match out '^\| seqread \| rate \| [KMG]iB/s \| [0-9.]+ \(memory\) \|' \
	"markdown: the mark, not in bold"

run_clyde compare --format csv mem.json dio1.json dio2.json
expect_rc 0 "compare --format csv"
run_checker out <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def check(c, what):
    print(("ok " if c else "FAIL ") + what)
by = {r["run"]: r for r in rows}
check(by["mem"]["seqread flags"] == "memory", "csv: mem's seqread flags")
check(by["mem"]["seqread best"] == "not ranked (flagged)",
      "csv: mem's seqread is not ranked")
check(by["dio1"]["seqread flags"] == "", "csv: dio1 has no flag")
check("yes" in (by["dio1"]["seqread best"], by["dio2"]["seqread best"]),
      "csv: a dio run is best")
PY

# --- The HTML report, in Chromium's DOM.
run_clyde report mem.json dio1.json dio2.json -o report.html
expect_rc 0 "report"
chromium_run --dump-dom "file://$T/report.html" >dom.html ||
	fail "chromium --dump-dom failed: $(tail -n 5 "$T/chromium.err")"
[[ -s dom.html ]] || fail "chromium rendered nothing"
run_checker dom.html <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
def check(c, what):
    print(("ok " if c else "FAIL ") + what)
def table(cls):
    m = re.search(r'<table class="%s">(.*?)</table>' % cls, dom, re.S)
    return m.group(1) if m else ""
ov = table("overview")
mem = re.search(r'<tr><th class="run">.*?mem</th>(.*?)</tr>', ov, re.S)
check(mem is not None, "overview: a row for mem")
cells = re.findall(r'<td[^>]*>.*?</td>', mem.group(1) if mem else "", re.S)
check(cells and all('<span class="flag"' in c and '>memory</span>' in c
                    for c in cells),
      "overview: every rate of mem carries the memory flag (%d)" % len(cells))
check(not any("\u2605" in c or "best" in c.split(">")[0] for c in cells),
      "overview: no star, no best on a memory cell")
full = table("compare")
rows = re.findall(r'<tr><td>seqread</td><td>rate</td>.*?</tr>', full, re.S)
check(len(rows) == 1, "full table: seqread's rate row")
tds = re.findall(r'<td class="num[^"]*">.*?</td>', rows[0] if rows else "",
                 re.S)
check(len(tds) == 3 and "memory</span>" in tds[0] and
      "best" not in tds[0].split(">")[0], "full table: mem marked, not best")
check(any("best" in t.split(">")[0] for t in tds[1:]),
      "full table: a dio run is best")
check("served from a page cache" in dom, "the legend says what memory means")
check(re.search(r'<text[^>]*>[0-9.]+ \(memory\)', dom) is not None,
      "a bar chart's value carries (memory)")
PY

# --- history list.
run_clyde history --db "$T/h.db" import mem.json dio1.json
expect_rc 0 "history import"
run_clyde history --db "$T/h.db" list
expect_rc 0 "history list"
assert_file_match out ' mem .* [0-9.]+ \(memory\) +[0-9.]+ \(memory\)' \
	"history list: mem's write and read figures are marked (memory)"
assert_file_no_match out 'dio1 .*memory' "history list: dio1 is not"

# --- A bonnie run with --no-evict: the tests that read back are flagged.
new_dir b >/dev/null
run_clyde -d "$T/b" -s 8m -n 0 -f -r 0 --no-evict -m noevict --json ne.json -q
expect_rc 0 "clyde run --no-evict"
run_clyde compare ne.json ne.json
expect_rc 0 "compare of the --no-evict run"
assert_file_match out '^get_block +rate .*[(, ]cache\)' \
	"get_block of a --no-evict run is flagged (cache)"
assert_file_no_match out '^put_block +rate .*cache\)' \
	"put_block (writes only) is not"
assert_file_match out '^\(cache\) the page cache was not controlled' \
	"the legend says what (cache) means"

done_testing
