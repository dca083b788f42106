#!/usr/bin/env bash
# fio's jobs beside each other and beside clyde (issue 32, 1 and 4): with
# numjobs=2 each job is a column of its own and a group_reporting total is
# another figure -- a row of its own ("randread (2 jobs)"), never ranked
# against one job, with its runtime per job, not the sum; "what differs"
# between a fio job and a clyde dev run reads what fio records under
# clyde's names (target, size, request size, depth 1 by fio's default)
# and folds what only one side records into one line per side, in
# compare's text and the HTML report (Chromium's DOM); `history
# list` shows a fio job's depth and size as clyde's, and a randread-only
# dev run its random request size and its rate.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd fio python3
cd "$T"
data=$(new_dir data)/file
truncate -s 32M "$data"

cat >nj.fio <<EOF
[global]
filename=$data
size=16m
bs=4k
ioengine=psync
rw=randread
time_based
runtime=1

[rr]
numjobs=2

[rr2]
new_group
stonewall
numjobs=2
group_reporting
EOF
timeout -k 10 120 fio --output-format=json --output=nj.json nj.fio \
	>fio.log 2>&1 || fail "fio: $(cat fio.log)"

run_clyde compare nj.json
expect_rc 0 "compare of numjobs=2 and its group_reporting total"
assert_file_match out '^randread +rate +[KMG]iB/s +[0-9.]+( \*)? +[0-9.]+( \*)?$' \
	"the two jobs share the randread row, the total is not in it"
assert_file_match out '^randread \(2 jobs\) +rate +[KMG]iB/s +[0-9.]+$' \
	"the total has a row of its own, unstarred"
assert_file_no_match out '^randread +rate .*[0-9] \* +[0-9.]+ \*' \
	"no two stars in the jobs' row"
run_checker out <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"fio job runtime: (.*)", text)
def check(c, what):
    print(("ok " if c else "FAIL ") + what)
check(m is not None, "what differs names the job runtime")
rt = re.search(r"([0-9.]+) s each \(rr2\)", m.group(1) if m else "")
check(rt is not None and 0.9 <= float(rt.group(1)) < 1.5,
      "rr2's job runtime is per job, about 1 s (%s)" % (rt and rt.group(1)))
check("fio jobs in each figure: 1 (each job alone) (rr, rr#2), "
      "2 (group_reporting) (rr2)" in text, "what differs says how many jobs")
PY

# A fio job and a clyde dev run of the same test on the same file.
timeout -k 10 120 fio --name=rr --filename="$data" --size=16m --bs=4k \
	--rw=randread --ioengine=psync --direct=1 --time_based --runtime=1 \
	--output-format=json --output=rr.json >fio.log 2>&1 ||
	fail "fio: $(cat fio.log)"
run_clyde dev "$data" --tests randread --size 16m --runtime 1 \
	--log-interval 0 --no-save -m cdev --json cdev.json -q
expect_rc 0 "clyde dev randread on the file"
run_clyde compare rr.json cdev.json
expect_rc 0 "compare fio with clyde dev"
sed -n '/^what differs:/,/^$/p' out >differs
assert_file_no_match differs 'not recorded' \
	"what differs has no 'not recorded' line"
assert_file_no_match differs 'queue depth|rand_bs|O_DIRECT|I/O engine|^  size' \
	"fio's depth (its default 1), request size, direct, engine and size match clyde's"
assert_eq "$(grep -c '^  recorded by fio only (rr): ' differs)" 1 \
	"what only fio records: one line"
assert_eq "$(grep -c '^  recorded by clyde only (cdev): ' differs)" 1 \
	"what only clyde records: one line"
assert_file_match differs 'recorded by clyde only .*filesystem ' \
	"  the filesystem is in clyde's line"
nlines=$(wc -l <differs)
[[ $nlines -le 10 ]] || fail "what differs is $nlines lines long"
ok "what differs is $nlines lines"

# The report's "what differs" folds the same way, in Chromium's DOM.
run_clyde report rr.json cdev.json -o report.html
expect_rc 0 "report of fio beside clyde dev"
if command -v chromium >/dev/null 2>&1; then
	chromium_run --dump-dom "file://$T/report.html" >dom.html ||
		fail "chromium --dump-dom failed: $(tail -n 5 "$T/chromium.err")"
	[[ -s dom.html ]] || fail "chromium rendered nothing"
	run_checker dom.html <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
def check(c, what):
    print(("ok " if c else "FAIL ") + what)
m = re.search(r'<h2 id="differs">.*?(?=<h2)', dom, re.S)
part = m.group(0) if m else ""
check(part != "", "the report has its What differs part")
t = re.search(r'<table class="differs">(.*?)</table>', part, re.S)
table = t.group(1) if t else ""
heads = re.findall(r'<th>(.*?)</th>', table, re.S)
check("not recorded" not in table,
      "report: no 'not recorded' cell (%d columns)" % (len(heads) - 1))
check(not any(h.startswith(("filesystem", "fio ", "queue depth", "O_DIRECT",
                            "I/O engine")) for h in heads),
      "report: no column for what one side records, nor fio's depth")
check(len(heads) - 1 <= 8, "report: %d columns, not ~40" % (len(heads) - 1))
fio = re.findall(r'<p class="one-sided" data-side="fio">(.*?)</p>', part,
                 re.S)
cly = re.findall(r'<p class="one-sided" data-side="clyde">(.*?)</p>', part,
                 re.S)
check(len(fio) == 1 and fio[0].startswith("Recorded by fio only (rr):"),
      "report: what only fio records, one line")
check(len(cly) == 1 and cly[0].startswith("Recorded by clyde only (cdev):")
      and "<b>filesystem" in cly[0],
      "report: what only clyde records, one line with the filesystem")
PY
else
	skip_part "the report's DOM (no chromium)"
fi

run_clyde history --db "$T/h.db" import rr.json cdev.json
expect_rc 0 "history import"
run_clyde history --db "$T/h.db" list
expect_rc 0 "history list"
assert_file_match out '^ *1 .* rr +fio .* 16\.0 MiB +- +4\.00 KiB +yes +psync +1 +- +[0-9.]+ ' \
	"fio: size 16.0 MiB, chunk 4 KiB, depth 1, its randread as the read figure"
assert_file_match out '^ *2 .* cdev +dev .* 16\.0 MiB +- +4\.00 KiB +yes +psync +1 +- +[0-9.]+ ' \
	"randread-only dev run: chunk 4 KiB (its random size), its rate shown"

done_testing
