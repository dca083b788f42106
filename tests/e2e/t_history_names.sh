#!/bin/bash
# `clyde history` for many runs of one name: labels at import (--label,
# --labels, one per CSV line) and afterwards (label), notes, the size,
# files and chunk columns of list, the file:line show names, duplicates
# skipped ("already stored as id N") unless --force, history report (an
# HTML page with every run), history compare splitting --label as compare
# does, export of several ids or --all, delete naming what it deleted, and
# --help naming every subcommand and option.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

export TZ=UTC
DB=$T/h.db
FIX=$CLYDE_SRC/tests/fixtures
h()
{
	run_clyde history --db "$DB" "$@"
}

run_clyde history --help
expect_rc 0 "history --help"
cp "$T/out" "$T/help"
for word in list show compare report export import label note delete \
	--label --labels --force --all --title --output --format --baseline \
	--merge-repeats --limit --db; do
	grep -q -- "$word" "$T/help" || fail "history --help does not name $word"
done
ok "history --help names every subcommand and option"
assert_file_no_match "$T/help" '^.{81,}$' "history --help fits 80 columns"
h list
if grep -q 'without SQLite' "$T/err"; then
	skip "clyde was built without SQLite"
fi

# Four "devil2" runs that differ in file size and file count: bonnie++
# 1.96 lines, the 16G/16 of the fixture changed.
base=$(head -n 1 "$FIX/bonnie-1.96.csv" | tr -d '\r')
for v in 16G:16 8G:16 16G:128 8G:128; do
	size=${v%:*} files=${v#*:}
	echo "$base" | awk -F, -v OFS=, -v s="$size" -v f="$files" \
		'{ $3 = "devil2"; $6 = s; $20 = f; print }'
done >"$T/devil.csv"
assert_eq "$(sort -u "$T/devil.csv" | wc -l)" 4 "four different devil2 lines"

# --labels: one per result, the count must match; nothing is stored when
# it does not.
h import --labels a,b,c "$T/devil.csv"
expect_rc 1 "--labels with 3 labels for 4 lines is refused"
assert_file_match "$T/err" '^clyde history import: --labels: 3 labels for 4 results .*nothing imported' \
	"and says how many of each"
[[ ! -e $DB ]] || fail "the refused import made $DB"
ok "the refused import stored nothing"
h import --labels 16G-16,8G-16 --labels 16G-128,8G-128 "$T/devil.csv"
expect_rc 0 "--labels, given twice, four labels for four lines"
assert_file_match "$T/out" "^$T/devil.csv: 4 runs imported, ids 1, 2, 3, 4$" \
	"four runs imported"

# list tells them apart: size, files and chunk columns.
h list
expect_rc 0 "list"
cp "$T/out" "$T/list"
assert_file_match "$T/list" '^ *ID +DATE +LABEL +KIND +TARGET +FS +SIZE +FILES +CHUNK +O_DIRECT +ENGINE +DEPTH +WRITE MiB/s +READ MiB/s +SEEKS/s +CREATE/s +NOTE$' \
	"list has SIZE, FILES, CHUNK and NOTE columns"
for v in '1 .* 16G-16 .* 16G +16384 ' '2 .* 8G-16 .* 8G +16384 ' \
	'3 .* 16G-128 .* 16G +131072 ' '4 .* 8G-128 .* 8G +131072 '; do
	assert_file_match "$T/list" "^ *$v" "list row: $v"
done
# The same rounding as compare: 182929 KiB/s is 178.6 MiB/s, 517.6
# seeks/s; 93 files/s is a whole number, shown without a false ".0".
assert_file_match "$T/list" ' 178\.6 +196\.6 +517\.6 +93$' \
	"figures rounded as compare rounds, no false decimals"
assert_file_no_match "$T/list" ' 93\.0' "no 93.0"
run_clyde compare "$FIX/bonnie-1.96.csv"
assert_file_match "$T/out" '^put_block +rate +MiB/s +178\.6 ' \
	"compare shows put_block as 178.6 too"

# show names the file and line, and prints no "best" legend for one run.
h show 3
expect_rc 0 "show 3"
assert_file_match "$T/out" "^  imported from +$T/devil\\.csv:3$" \
	"show names the source line (file:line)"
assert_file_no_match "$T/out" 'best' "show of one run has no \"best\" legend"

# --label for every run of a file; label and note afterwards.
head -n 1 "$FIX/bonnie-1.98.csv" >"$T/one.csv"
h import --label solo "$T/one.csv"
expect_rc 0 "import --label"
h show 5
assert_file_match "$T/out" '^Run 5: solo$' "import --label names the run"
h label 5 "solo two"
expect_rc 0 "label 5"
assert_file_match "$T/out" '^run 5: label set to "solo two"$' "label says so"
h note 5 after fstrim, cold cache
expect_rc 0 "note 5"
h show 5
assert_file_match "$T/out" '^Run 5: solo two$' "show has the new label"
assert_file_match "$T/out" '^  note +after fstrim, cold cache$' "show has the note"
h list
assert_file_match "$T/out" '^ *5 .* solo two .*  after fstrim, cold cache$' \
	"list has the label and the note"
h label 99 x
expect_rc 1 "label of an unknown id fails"
assert_file_match "$T/err" '^clyde history label: no run with id 99 in ' \
	"and names the id"
h note 5 ""
h show 5
assert_file_no_match "$T/out" '^  note ' "note \"\" removes the note"

# Duplicates: said and skipped; --force stores them again.
h import "$T/devil.csv"
expect_rc 0 "importing the same file again exits 0"
assert_eq "$(grep -c 'already stored as id' "$T/out")" 4 "each line said"
assert_file_match "$T/out" "^$T/devil\\.csv:2: already stored as id 2, skipped" \
	"with its file:line and the id it is stored as"
h list
assert_eq "$(($(wc -l <"$T/out") - 1))" 5 "and nothing new stored"
tr -d '\n' <"$T/one.csv" >"$T/one-noeol.csv"
printf '\r\n' >>"$T/one-noeol.csv"
h import "$T/one-noeol.csv"
assert_file_match "$T/out" 'already stored as id 5' \
	"the same line with another line end is the same result"
h import --force "$T/one.csv"
expect_rc 0 "import --force"
assert_file_match "$T/out" "^$T/one.csv: 1 run imported, id 6$" \
	"--force stores it again"
# --merge-repeats folds runs of one file with one label and the same
# settings into one column, as compare does for bonnie++ -x lines.
h label 6 "solo two"
h compare 5 6 --merge-repeats
expect_rc 0 "history compare --merge-repeats"
assert_match "$(head -n 1 "$T/out" | tr -s ' ')" '^test metric unit solo two$' \
	"two repeats of one line are one column"
h compare 5 6 --merge-repeats --label a,b
expect_rc 1 "more labels than merged columns is refused"

# history compare splits --label as compare does.
h compare 1 2 --label 'x,y'
expect_rc 0 "history compare --label x,y"
head -n 1 "$T/out" | tr -s ' ' >"$T/hhead"
sed -n 1p "$T/devil.csv" >"$T/d1.csv"
sed -n 2p "$T/devil.csv" >"$T/d2.csv"
run_clyde compare --label 'x,y' "$T/d1.csv" "$T/d2.csv"
expect_rc 0 "compare --label x,y"
head -n 1 "$T/out" | tr -s ' ' >"$T/chead"
assert_eq "$(cat "$T/hhead")" "$(cat "$T/chead")" \
	"the same column labels from --label x,y in both"
assert_match "$(cat "$T/hhead")" ' x y$' "two columns, x and y"
h compare 1 2 3 --label x --label y
assert_match "$(head -n 1 "$T/out" | tr -s ' ')" ' x y #3 16G-128$' \
	"--label repeated adds to the list; the rest are #ID label"
h compare 1 2 --label a,b,c
expect_rc 1 "more labels than runs is refused"
h compare 1 2 --baseline 2 --format csv
expect_rc 0 "history compare --baseline ID --format csv"
h compare 1 2 --baseline 3
expect_rc 1 "a baseline that is not compared is refused"

# history report: the report of clyde report over stored runs.
h report 1 2 3 4 -o "$T/r.html" --title 'devil2 runs'
expect_rc 0 "history report"
require_cmd "checking the report's HTML" python3
python3 - "$T/r.html" <<'EOF' >"$T/parsed" || fail "report: $(cat "$T/parsed")"
import sys
from html.parser import HTMLParser


class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = {}
        self.text = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag not in ('meta', 'br', 'img', 'input', 'link', 'hr', 'col'):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, d):
        self.text.append(d)


p = P()
p.feed(open(sys.argv[1], encoding='utf-8').read())
p.close()
text = ' '.join(p.text)
need = ['#1 16G-16', '#2 8G-16', '#3 16G-128', '#4 8G-128', 'devil2 runs']
missing = [n for n in need if n not in text]
if missing:
    sys.exit('missing from the page: %s' % missing)
if not p.tags.get('svg') or not p.tags.get('table'):
    sys.exit('no chart or table: %s' % p.tags)
print('ok', p.tags.get('svg'), 'charts')
EOF
ok "the report is HTML with every run's label, a table and charts ($(cat "$T/parsed"))"
h report 1 2
expect_rc 1 "history report without -o is refused"
assert_file_match "$T/err" '^clyde history report: no output file' "and says so"

# export: several ids, --all, and JSON results into a directory.
h export 1 3 4 -o "$T/three.csv"
expect_rc 0 "export of three ids"
assert_eq "$(cat "$T/three.csv")" "$(sed -n '1p;3p;4p' "$T/devil.csv")" \
	"the three lines in the order asked"
h export --all
expect_rc 0 "export --all"
assert_eq "$(wc -l <"$T/out")" 6 "every stored run, one line each"
assert_eq "$(head -n 4 "$T/out")" "$(cat "$T/devil.csv")" "oldest first"
mkdir "$T/scratch"
run_clyde -d "$T/scratch" -s 16m -n 1 -r 0 -f -m jsonrun --no-save --json "$T/run.json"
expect_rc 0 "a clyde JSON result"
h import "$T/run.json"
expect_rc 0 "import the JSON result"
h import "$T/run.json"
assert_file_match "$T/out" "^$T/run.json: already stored as id 7" \
	"a JSON result imported twice is already stored"
h export 1 7 -o "$T/mixed"
expect_rc 1 "several runs with a JSON result into one file are refused"
assert_file_match "$T/err" 'into a directory \(-o DIR\)' "and says to give a directory"
mkdir "$T/dir"
h export 1 7 -o "$T/dir"
expect_rc 0 "export into a directory"
cmp -s "$T/dir/7.json" "$T/run.json" || fail "7.json differs from run.json"
assert_eq "$(cat "$T/dir/1.csv")" "$(head -n 1 "$T/devil.csv")" \
	"one file per run: 1.csv and 7.json"
h export --all 1
expect_rc 1 "--all with ids is refused"

# delete says what it deleted.
h delete 2 4
expect_rc 0 "delete 2 4"
assert_file_match "$T/out" "^deleted run 2: 8G-16 \\(bonnie-csv, 2011-01-25 06:52, from $T/devil\\.csv:2\\)$" \
	"delete names the run, its date and source"
assert_eq "$(grep -c '^deleted run' "$T/out")" 2 "one line per run"
h delete 2
expect_rc 1 "deleting it again fails"
assert_file_match "$T/err" 'no run with id 2' "and names the id"

done_testing
