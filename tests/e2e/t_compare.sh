#!/usr/bin/env bash
# clyde compare: bonnie++ CSV of every format and clyde JSON side by side.
# The table for a known input is checked byte for byte; malformed lines and
# files get one "file:line: reason" each and the rest is still compared;
# exit 0 when something was compared, 1 when nothing could be read; real
# clyde JSON with repeats gets Welch's significance marks.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

fixtures=$CLYDE_SRC/tests/fixtures

# --- A: a known input, exactly.  Two bonnie++ 1.03 lines (mdraid chunk
# 64k and 128k) and a 1.96 line after a header line.
cat >"$T/old.csv" <<'EOF_OLD'
devil2,8G,88390,99,175541,25,88470,17,51515,80,289555,27,389.0,0,16,2419,15,+++++,+++,1219,5,1502,9,+++++,+++,920,4
devil2,8G,88849,99,174076,24,84382,15,58716,80,291795,27,406.7,0,16,1254,4,+++++,+++,619,2,802,2,+++++,+++,668,2
EOF_OLD
cat >"$T/new.csv" <<'EOF_NEW'
format_version,bonnie_version,name,concurrency,seed,file_size,chunk_size
1.96,1.96,xfs,1,1295938326,16G,,425,98,182929,64,46956,41,955,97,201274,83,517.6,30,16,,,,,93,1,+++++,+++,90,1,123,1,+++++,+++,127,1,42207us,2377ms,195ms,33339us,86675us,84167us,939ms,2279us,1415ms,307ms,1057us,724ms
EOF_NEW
cat >"$T/want" <<'EOF_WANT'
test        metric   unit             64k         128k  change          xfs   change
putc        rate     MiB/s       86.3 [A]   86.8 * [A]   +0.5%    0.415 [B]   -99.5%
putc        CPU      %                 99           99   +0.0%           98    -1.0%
putc        lat max                                             42.2 ms [B]
put_block   rate     MiB/s    171.4 * [A]    170.0 [A]   -0.8%    178.6 [B]    +4.2%
put_block   CPU      %                 25           24   -4.0%           64  +156.0%
put_block   lat max                                              2.38 s [B]
rewrite     rate     MiB/s     86.4 * [A]     82.4 [A]   -4.6%     45.9 [B]   -46.9%
rewrite     CPU      %                 17           15  -11.8%           41  +141.2%
rewrite     lat max                                              195 ms [B]
getc        rate     MiB/s       50.3 [A]   57.3 * [A]  +14.0%    0.933 [B]   -98.1%
getc        CPU      %                 80           80   +0.0%           97   +21.2%
getc        lat max                                             33.3 ms [B]
get_block   rate     MiB/s      282.8 [A]  285.0 * [A]   +0.8%    196.6 [B]   -30.5%
get_block   CPU      %                 27           27   +0.0%           83  +207.4%
get_block   lat max                                             86.7 ms [B]
seeks       rate     seeks/s      389 [A]  406.7 * [A]   +4.6%    517.6 [B]   +33.1%
seeks       CPU      %                  0            0                   30
seeks       lat max                                             84.2 ms [B]
seq_create  rate     files/s       2419 *         1254  -48.2%           93   -96.2%
seq_create  CPU      %                 15            4  -73.3%            1   -93.3%
seq_create  lat max                                                  939 ms
seq_stat    rate     files/s     too fast     too fast             too fast
seq_stat    lat max                                                 2.28 ms
seq_del     rate     files/s       1219 *          619  -49.2%           90   -92.6%
seq_del     CPU      %                  5            2  -60.0%            1   -80.0%
seq_del     lat max                                                  1.42 s
ran_create  rate     files/s       1502 *          802  -46.6%          123   -91.8%
ran_create  CPU      %                  9            2  -77.8%            1   -88.9%
ran_create  lat max                                                  307 ms
ran_stat    rate     files/s     too fast     too fast             too fast
ran_stat    lat max                                                 1.06 ms
ran_del     rate     files/s        920 *          668  -27.4%          127   -86.2%
ran_del     CPU      %                  4            2  -50.0%            1   -75.0%
ran_del     lat max                                                  724 ms

* best in its row (rates: highest; latency: lowest; CPU is not ranked: less CPU for less work is no gain)
  with a single sample (no repeats on the best or the runner-up) * is by value only:
  the noise was not measured
too fast: ran under 0.5 s (+++++), no number recorded
change: against 64k
IO tests and seeks: the runs differ in file size, so they are compared (*) only within a settings group:
  [A] file size 8G: 64k, 128k
  [B] file size 16G: xfs
what differs:
  source format: bonnie++ CSV 1.03 (64k, 128k), bonnie++ CSV 1.96 (xfs)
  written by: bonnie++ 1.03 (64k, 128k), bonnie++ 1.96 (xfs)
  file size: 8G (64k, 128k), 16G (xfs)
  concurrency: not recorded (64k, 128k), 1 (xfs)

64k: old.csv:1 (bonnie++ CSV 1.03)
128k: old.csv:2 (bonnie++ CSV 1.03)
xfs: new.csv:2 (bonnie++ CSV 1.96)
EOF_WANT
# The expected table names its sources relative to where it ran.
cd "$T"
run_clyde compare old.csv new.csv --baseline 1 --label 64k,128k
expect_rc 0 "compare of three CSV lines succeeds"
if ! diff -u "$T/want" "$T/out" >"$T/diff"; then
	cat "$T/diff" >&2
	fail "the table differs from the expected one"
fi
ok "the text table is exactly the expected one"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "nothing on stderr"

# The same in CSV: one line per run, raw numbers in the base unit each
# header names, flags in their own columns (check_csv: every column with
# a unit in its header parses as a number).
check_csv()
{
	python3 - "$1" <<'EOF_PY'
import csv, re, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
assert body, "no runs"
units = {"B/s", "seeks/s", "files/s", "entries/s", "%", "ns"}
nnum = 0
for i, h in enumerate(head):
    assert all(len(r) == len(head) for r in body), "ragged lines"
    m = re.search(r"\(([^()]*)\)$", h)
    if h.endswith((" rate", " CPU", " latency max", " latency p99")):
        sys.exit("a value column without its unit: " + h)
    if m and m.group(1) != "UTC":
        assert m.group(1) in units, "unknown unit in " + h
        for r in body:
            if r[i] != "":
                float(r[i])
                assert not re.search(r"[^0-9.e+-]", r[i]), h + ": " + r[i]
                nnum += 1
    if h.endswith((" state",)):
        for r in body:
            assert r[i] in ("", "too fast", "imprecise", "skipped",
                            "not run", "repeats disagree",
                            "runs disagree"), r[i]
    if h.endswith((" best",)) or " significant vs " in h:
        for r in body:
            assert r[i] in ("yes", "no", "not tested"), h + ": " + r[i]
print(len(body), "runs,", len(head), "columns,", nnum, "numbers")
EOF_PY
}
run_clyde compare old.csv new.csv --format=csv
expect_rc 0 "--format=csv"
assert_match "$(head -n 1 "$T/out")" '^run,source,format,repeats,started \(UTC\),setting: ' \
	"CSV header: the run, then the settings that differ"
check_csv "$T/out" >"$T/csvcheck" 2>&1 || fail "CSV check: $(cat "$T/csvcheck")"
ok "CSV: every unit column is a number ($(cat "$T/csvcheck"))"
assert_file_match "$T/out" '^devil2#2,old\.csv:2,bonnie\+\+ CSV 1\.03,1,,.*,8G,,90981376,,yes,A,99,' \
	"CSV: putc in B/s (88849 KiB/s), best among the 8G runs"
assert_file_match "$T/out" '^xfs,.*,16G,1,435200,,no,B,98,42207000,' \
	"CSV: 425 KiB/s as B/s, latency 42207us in ns, its own settings group"
assert_file_match "$T/out" '^devil2,.*,too fast,no,' \
	"+++++ reads as too fast in the state column, never 0"
assert_eq "$(python3 -c 'import csv,sys; print(len(list(csv.reader(open(sys.argv[1])))))' "$T/out")" 4 \
	"a header and one line per run"
run_clyde compare old.csv new.csv --format markdown
expect_rc 0 "--format markdown"
assert_file_match "$T/out" '^\| test \| metric \| unit \| devil2 \| devil2#2 \| xfs \|$' \
	"markdown header: '#' is not escaped"
assert_file_match "$T/out" '^\| put_block \| rate \| MiB/s \| \*\*171\.4 \\\* \\\[A\\\]\*\* \| 170\.0 \\\[A\\\] \| 178\.6 \\\[B\\\] \|$' \
	"markdown: the best value in bold, '_' not escaped, groups named"
assert_file_no_match "$T/out" '\\[_~#]' "markdown: no needless escapes"
# stdin works as a file named "-".
run_clyde compare - new.csv <old.csv
expect_rc 0 "stdin as -"
assert_file_match "$T/out" '^devil2: -:1 \(bonnie\+\+ CSV 1\.03\)$' "stdin source"

# --- B: malformed input: one message each, the rest still compared.
{
	head -n 1 old.csv
	echo "1.98,2.00a,short,1"
	echo "1.96,1.96,xfs,1,1,16G,,425,98"
	tail -n 1 old.csv
} >"$T/mixed.csv"
printf '{"schema": "clyde-result",\n "schema_version": 1,\n "runs": [,]}\n' \
	>"$T/broken.json"
printf '{"schema": "clyde-result", "schema_version": 9, "runs": []}\n' \
	>"$T/future.json"
: >"$T/empty.csv"
run_clyde compare mixed.csv
expect_rc 0 "malformed lines: still exit 0 when every file gave a result"
assert_file_match "$T/err" '^clyde compare: mixed\.csv:2: .*field' \
	"a short 1.98 line is named with its line"
assert_file_match "$T/err" '^clyde compare: mixed\.csv:3: ' \
	"a short 1.96 line is named with its line"
assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 2 "one message per bad line"
assert_match "$(head -n 1 "$T/out")" '^test +metric +unit +devil2 +devil2#2$' \
	"the two good lines are still compared"
assert_file_match "$T/out" '^devil2#2: mixed\.csv:4 ' "the line after the bad ones"

# An input that gives no result is an error: a mistyped name must not
# drop a column in silence.  Every reason is still said.
run_clyde compare mixed.csv broken.json future.json empty.csv missing.csv
expect_rc 1 "inputs without a result: exit 1"
assert_file_match "$T/err" '^clyde compare: broken\.json:3: expected a value, found .,.$' \
	"broken JSON: file, line, reason"
assert_file_match "$T/err" '^clyde compare: future\.json:1: schema_version 9 is newer than this clyde reads \(1\)$' \
	"newer schema refused with a reason"
assert_file_match "$T/err" '^clyde compare: empty\.csv: no results in the file \(it is empty\)$' \
	"an empty file is reported"
assert_file_match "$T/err" '^clyde compare: cannot open missing\.csv: No such file' \
	"a missing file is reported"
assert_file_match "$T/err" '^clyde compare: 4 of 5 inputs gave no result; nothing written$' \
	"the count of inputs without a result"
assert_eq "$(wc -c <"$T/out" | tr -d ' ')" 0 "no table with a column missing"
run_clyde compare old.csv olld.csv
expect_rc 1 "a mistyped file name: exit 1"
assert_file_match "$T/err" 'cannot open olld\.csv' "names the mistyped file"

# A file too big to be a result is refused by its size, before reading:
# a sparse 100 GiB file takes no time.
truncate -s 100G "$T/huge.csv"
SECONDS=0
run_clyde compare old.csv huge.csv
expect_rc 1 "a 100 GiB input: exit 1"
assert_file_match "$T/err" '^clyde compare: huge\.csv: 102400 MiB, larger than the 64 MiB a result file may be; not read$' \
	"refused by its size, with both sizes"
((SECONDS < 10)) || fail "the huge file was read (${SECONDS}s)"
ok "refused without reading"
rm -f "$T/huge.csv"

# A table that cannot be written is a failure.
if [[ -w /dev/full ]]; then
	RC=0
	"$CLYDE" compare old.csv >/dev/full 2>"$T/err" || RC=$?
	expect_rc 1 "compare >/dev/full: exit 1"
	assert_file_match "$T/err" 'No space left on device' \
		"says the output failed"
fi

run_clyde compare broken.json empty.csv
expect_rc 1 "nothing readable: exit 1"
assert_file_match "$T/err" '2 of 2 inputs gave no result' "says so"
run_clyde compare old.csv --baseline 3
expect_rc 1 "a baseline past the last result"
assert_file_match "$T/err" 'baseline 3 is not a result number \(1 to 2\)' \
	"names the range"
run_clyde compare old.csv --format html
expect_rc 1 "unknown format"
assert_eq "$(cat "$T/err")" 'clyde compare: --format: "html" is not a format; use text, markdown, md or csv' \
	"  named with the formats of the option's entry"
run_clyde compare --bogus old.csv
expect_rc 1 "unknown option"
run_clyde compare
expect_rc 1 "no files"
run_clyde compare --help
expect_rc 0 "--help"
assert_file_match "$T/out" '^usage: clyde compare' "usage on stdout"
# --help matches the parser: every option it lists is accepted, and every
# option the parser takes is listed.
grep -oE '^ {2,6}(-h, )?--[a-z-]+' "$T/out" | sed -E 's/^ +(-h, )?//' >"$T/helpopts"
assert_eq "$(sort "$T/helpopts" | tr '\n' ' ')" \
	"--baseline --format --help --label --merge-repeats " \
	"--help lists the options compare takes"
while read -r o; do
	case $o in
	--format) args=(--format csv) ;;
	--label) args=(--label x) ;;
	--baseline) args=(--baseline 1) ;;
	*) args=("$o") ;;
	esac
	run_clyde compare "${args[@]}" old.csv
	expect_rc 0 "compare ${args[*]} is accepted"
done <"$T/helpopts"
run_clyde compare --format=md old.csv
expect_rc 0 "--format=md (the = form and md, both in --help)"

# --- C: every fixture line reads (each file is one format).
[[ -d $fixtures ]] || fail "no fixtures at $fixtures"
run_clyde compare "$fixtures/bonnie-1.03.csv" \
	"$fixtures/bonnie-1.96.csv" "$fixtures/bonnie-1.98.csv" \
	--format csv
expect_rc 0 "all fixtures"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "no fixture line is malformed"
check_csv "$T/out" >"$T/csvcheck" 2>&1 || fail "CSV check: $(cat "$T/csvcheck")"
ok "CSV of all fixtures: every unit column is a number ($(cat "$T/csvcheck"))"
col()
{
	python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
print(",".join(x[sys.argv[2]] for x in r))' "$T/out" "$1"
}
assert_eq "$(col run)" "devil2,devil2#2,devil2#3,devil2#4,xfs,ext4,vm,vm#2,vm#3" \
	"nine runs, labels made unique"
assert_eq "$(col 'seeks rate (seeks/s)')" "389,406.7,368.5,402.1,517.6,710.9,5113,," \
	"seek rates of all formats (%.1f kept)"
assert_eq "$(col 'seeks state')" ",,,,,,,not run,too fast" \
	"empty and +++++ seeks are said in the state column"
assert_eq "$(col 'seq_create latency max (ns)')" ",,,,939000000,206000,1378000,6196000,392000" \
	"latencies in us and ms as ns, none in 1.03"

# --- C2: one rule for "best" (issue 29, docs/compare.md).  The same
# stored samples of two runs go to clyde compare and, as an experiment, to
# the sweep's table (clyde report --experiment-json): both must give the
# same verdict.  Y 5, 57, 63 MB/s against X 136, 117: Welch's test on raw
# values has p = 0.03 (compare used to star X alone, "(s)"), on log values
# p = 0.2 and the interval is far wider than +-5%: cannot tell.
result_json()
{
	local label=$1 runs='' sep='' v
	shift
	for v in "$@"; do
		runs+="$sep{\"tests\":[{\"name\":\"put_block\",\"state\":\"done\",\"rate_per_s\":$v,\"too_fast\":false}]}"
		sep=,
	done
	printf '{"schema":"clyde-result","schema_version":1,"kind":"bonnie","label":"%s","config":{"file_size_mib":1024,"concurrency":1,"direct":true,"engine":"psync","iodepth":1},"runs":[%s]}\n' \
		"$label" "$runs"
}
# experiment_json Y-SAMPLES X-SAMPLES: the two as points of a sweep.
experiment_json()
{
	printf '{"schema":"clyde-experiment","schema_version":1,"axes":["run"],"metrics":[{"key":"run.put_block","label":"block write","unit":"B/s","higher_better":true}],"points":[{"values":["Y"],"samples":{"run.put_block":[%s]}},{"values":["X"],"samples":{"run.put_block":[%s]}}]}\n' \
		"$1" "$2"
}
result_json Y 5000000 57000000 63000000 >"$T/y.json"
result_json X 136000000 117000000 >"$T/x.json"
experiment_json 5000000,57000000,63000000 136000000,117000000 >"$T/e.json"
run_clyde compare y.json x.json
expect_rc 0 "compare of Y and X"
assert_file_match "$T/out" '^put_block +rate +MiB/s +39\.7 ±75\.6! !! \*\? +120\.6 ±115\.1 !! \* \(ns\)$' \
	"compare: X best, Y cannot tell from it, the difference not significant"
assert_file_match "$T/out" '^  \*\? cannot tell from the best' "compare: the legend of *?"
run_clyde report --experiment-json e.json --format text -o -
expect_rc 0 "the sweep's table of Y and X"
assert_file_match "$T/out" '^Y +39\.7 ± 75\.6 \(n=3\) ! ~$' \
	"the sweep's table: Y not different, the data cannot tell"
assert_file_match "$T/out" '^X +120\.6 ± 115\.1 \(n=2\) ~$' \
	"the sweep's table: X no clear best"
# Far apart, both say so: X alone is best.
result_json Y 100000000 101000000 102000000 >"$T/y.json"
result_json X 130000000 131000000 >"$T/x.json"
experiment_json 100000000,101000000,102000000 130000000,131000000 >"$T/e.json"
run_clyde compare y.json x.json
assert_file_match "$T/out" '^put_block +rate +MiB/s +96\.3 ±2\.37 +124\.5 ±6\.06 \* \(s\)$' \
	"compare: X alone is best, the difference significant"
run_clyde report --experiment-json e.json --format text -o -
assert_file_match "$T/out" '^Y +96\.3 ± 2\.4 \(n=3\) \*$' "the sweep's table: Y worse"
assert_file_match "$T/out" '^X +124\.5 ± 6\.1 \(n=2\) ★$' "the sweep's table: X the clear best"

# --- D: real clyde JSON, two configurations with two repeats each.
# On a tmpfs when root: the figures are only inputs (lib.sh).
new_tmpfs_dir d
d=$DIR
run_clyde -d "$d" -s 16m -n 1 -r 0 -f -x 2 -m one --json "$T/one.json" -q
expect_rc 0 "clyde -x 2 --json (one)"
run_clyde -d "$d" -s 16m -n 1 -r 0 -f -x 2 -m two --json "$T/two.json" -q
expect_rc 0 "clyde -x 2 --json (two)"
# A schema regression is a failure, never a skip.
assert_file_match "$T/one.json" '"schema_version": 1' "one.json is schema v1"
assert_file_match "$T/two.json" '"schema_version": 1' "two.json is schema v1"
run_clyde compare one.json two.json --baseline 1
expect_rc 0 "compare of two JSON results"
assert_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "the JSON reads without complaint"
assert_match "$(head -n 1 "$T/out")" '^test +metric +unit +one +two +change$' \
	"labels from the JSON"
assert_file_match "$T/out" '^one: one\.json:1 \(clyde JSON v1, 20[0-9-]+ [0-9:]+ UTC, 2 repeats\)$' \
	"two repeats per result, and the run's date"
assert_file_match "$T/out" "Welch's t-test" "the significance legend"
assert_file_match "$T/out" '^seq_create +rate +files/s .*\((s|ns)\)' \
	"a significance mark on a test with repeats"
run_clyde compare one.json old.csv
expect_rc 0 "JSON and CSV mixed"
# The unit follows the values (one.json ran on a tmpfs: GiB/s there),
# but the JSON and the CSV result share one row in one unit.
assert_eq "$(grep -cE '^put_block +rate ' "$T/out")" 1 "one put_block rate row"
assert_file_match "$T/out" '^put_block +rate +(MiB|GiB)/s ' "  in one unit"
done_testing
