#!/bin/bash
# `clyde history` with the real binary: import bonnie++ CSV fixtures and a
# clyde JSON result, list, show, export (byte for byte what was imported),
# compare two stored runs, delete; a corrupt or foreign database is refused
# with one line naming it and left unchanged; imports running at the same
# time all land.  XDG_DATA_HOME points into the test's directory, so the
# real home is never touched.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

export XDG_DATA_HOME=$T/xdg
export TZ=UTC
DB=$XDG_DATA_HOME/clyde/results.db

run_clyde history --help
expect_rc 0 "clyde history --help exits 0"
assert_file_match "$T/out" '^Usage: clyde history ' "--help shows the usage"
run_clyde history list
if grep -q 'without SQLite' "$T/err"; then
	skip "clyde was built without SQLite"
fi
expect_rc 0 "list before anything was saved exits 0"
[[ ! -e $DB ]] || fail "list created $DB"
ok "list does not create the database"

# ---- bonnie++ CSV fixtures ----------------------------------------------
# The fixtures are part of the repository: without them the test fails.
FIX=$CLYDE_SRC/tests/fixtures
ncsv=0
compgen -G "$FIX/bonnie-*.csv" >/dev/null || fail "no fixtures in $FIX"
for f in "$FIX"/bonnie-*.csv; do
	run_clyde history import "$f"
	expect_rc 0 "import $(basename "$f")"
	n=$(grep -c . "$f")
	assert_match "$(cat "$T/out")" "^$f: $n runs? imported, ids? " \
		"$(basename "$f"): $n runs imported"
	ncsv=$((ncsv + n))
	# Each line became one run; exporting them in order gives the
	# file back (line ends normalised to \n).
	ids=$(sed -E 's/.*ids? //; s/,//g' "$T/out")
	: >"$T/exported"
	for id in $ids; do
		"$CLYDE" history export "$id" >>"$T/exported" ||
			fail "export $id"
	done
	tr -d '\r' <"$f" | grep . >"$T/want"
	cmp -s "$T/exported" "$T/want" ||
		fail "exported lines differ from $(basename "$f")"
	ok "export of $(basename "$f")'s runs gives its lines back"
done
[[ -d $XDG_DATA_HOME/clyde ]] || fail "no $XDG_DATA_HOME/clyde"
mode=$(stat -c %a "$XDG_DATA_HOME/clyde")
assert_eq "$mode" 700 "the database directory is made with mode 0700"
[[ -f $DB ]] || fail "no database at $DB"
ok "the default database is \$XDG_DATA_HOME/clyde/results.db"

# ---- a clyde JSON result ------------------------------------------------
mkdir "$T/scratch"
run_clyde -d "$T/scratch" -s 16m -n 1 -r 0 -f -m jsonrun --no-save --json "$T/run.json"
expect_rc 0 "clyde --json writes a result"
assert_file_match "$T/run.json" '"schema_version": 1' \
	"the result is schema v1 (a regression fails, never falls back)"
fstype=$(sed -nE 's/^ *"fstype": "([^"]*)".*/\1/p' "$T/run.json" | head -n 1)
[[ -n $fstype ]] || fail "no fstype in the JSON result"
run_clyde history import "$T/run.json"
expect_rc 0 "import a clyde JSON result"
jid=$(sed -nE 's/.*1 run imported, id ([0-9]+)$/\1/p' "$T/out")
[[ -n $jid ]] || fail "no id in: $(cat "$T/out")"
ok "the JSON result is run $jid"

run_clyde history export "$jid"
expect_rc 0 "export $jid"
cmp -s "$T/out" "$T/run.json" || fail "export $jid differs from run.json"
ok "export gives the JSON byte for byte"
run_clyde history export "$jid" -o "$T/exported.json"
expect_rc 0 "export -o FILE"
cmp -s "$T/exported.json" "$T/run.json" || fail "export -o differs"
ok "export -o writes the same bytes"

# ---- list and show ------------------------------------------------------
run_clyde history list
expect_rc 0 "list exits 0"
cp "$T/out" "$T/list"
assert_file_match "$T/list" '^ *ID +DATE +LABEL +KIND +TARGET +FS +SIZE +FILES +CHUNK +O_DIRECT +ENGINE +DEPTH +WRITE MiB/s +READ MiB/s +SEEKS/s +CREATE/s +NOTE$' \
	"list has a header with the key figures"
rows=$(($(wc -l <"$T/list") - 1))
assert_eq "$rows" "$((ncsv + 1))" "list shows every stored run"
# The JSON run is the newest: first.
first=$(sed -n 2p "$T/list")
assert_match "$first" "^ *$jid +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5} +jsonrun +bonnie +$T/scratch +$fstype " \
	"the newest run comes first with its date, label, target, filesystem"
assert_eq "$ncsv" 9 "the nine fixture lines were imported"
# bonnie++ 1.96 xfs line: 182929 KiB/s = 178.6 MiB/s, 517.6 seeks/s.
assert_file_match "$T/list" ' xfs +bonnie-csv +- +- +16G +16384 +- +- +- +- +178\.6 +196\.6 +517\.6 +93$' \
	"a bonnie++ 1.96 line's figures in the list"
# 1.98 line with +++++ read and seeks.
assert_file_match "$T/list" ' vm +bonnie-csv .* 278\.1 +\+\+\+\+\+ +\+\+\+\+\+ +7825$' \
	"+++++ is listed as +++++, not 0"
# With 10 runs stored, --limit 2 must cut the list to the newest two.
run_clyde history list --limit 2
expect_rc 0 "list --limit 2"
assert_eq "$(wc -l <"$T/out")" 3 "--limit 2 shows two runs"
# (Columns are as wide as their widest cell: compare the cells.)
assert_eq "$(sed -n 2,3p "$T/out" | tr -s ' ')" \
	"$(sed -n 2,3p "$T/list" | tr -s ' ')" \
	"--limit 2 shows the newest two, as the full list does"

run_clyde history show "$jid"
expect_rc 0 "show $jid"
assert_file_match "$T/out" "^Run $jid: jsonrun$" "show names the run"
assert_file_match "$T/out" "^  filesystem +$fstype$" "show gives the filesystem"
assert_file_match "$T/out" "^  imported from +$T/run.json$" "show gives the source"
assert_file_match "$T/out" '^put_block +rate ' "show gives the per-test figures"

run_clyde history show 99999
expect_rc 1 "show of an unknown id exits 1"
assert_file_match "$T/err" "no run with id 99999 in $DB" "and says so"

# ---- compare ------------------------------------------------------------
run_clyde -d "$T/scratch" -s 16m -n 1 -r 0 -f -m second --no-save --json "$T/run2.json"
expect_rc 0 "clyde --json writes a second result"
run_clyde history import "$T/run2.json"
expect_rc 0 "import a second JSON result"
jid2=$(sed -nE 's/.*1 run imported, id ([0-9]+)$/\1/p' "$T/out")
run_clyde history compare "$jid" "$jid2"
expect_rc 0 "compare two stored runs"
assert_file_match "$T/out" "^test +metric +unit +#$jid jsonrun +#$jid2 second" \
	"the columns are the two runs"
assert_file_match "$T/out" '^put_block +rate ' "compare has the put_block row"
run_clyde history compare "$jid" "$jid2" --format csv --baseline "$jid"
expect_rc 0 "compare --format csv --baseline"
assert_file_match "$T/out" "^run,source,.*,put_block change vs #$jid jsonrun \\(%\\)," \
	"CSV header with the baseline's change column"
assert_file_match "$T/out" "^#$jid2 second," "CSV: a line per run"
# --format is one entry with clyde compare's: the same names and message.
run_clyde history compare "$jid" "$jid2" --format md
expect_rc 0 "compare --format md (markdown's other name)"
run_clyde history compare "$jid" "$jid2" --format html
expect_rc 1 "compare --format html is refused"
assert_eq "$(cat "$T/err")" 'clyde history compare: --format: "html" is not a format; use text, markdown, md or csv' \
	"  with the option model's message, as clyde compare's"
run_clyde history compare "$jid" "$jid2" --baseline 12345
expect_rc 1 "a baseline that is not compared is refused"
run_clyde history compare "$jid" 99999
expect_rc 1 "compare with an unknown id exits 1"

# ---- delete -------------------------------------------------------------
run_clyde history delete "$jid2"
expect_rc 0 "delete a run"
run_clyde history export "$jid2"
expect_rc 1 "a deleted run is gone"

# ---- databases that are not ours ----------------------------------------
# check_refused FILE WHAT: every command refuses FILE with one line naming
# it, and the file is byte for byte unchanged.
check_refused()
{
	local f=$1 what=$2 sum
	sum=$(md5sum <"$f")
	for cmd in "list" "show 1" "export 1" "compare 1 2" "delete 1" \
		"import $T/run.json"; do
		# shellcheck disable=SC2086
		run_clyde history --db "$f" $cmd
		expect_rc 1 "history $cmd on $what exits 1"
		[[ $(wc -l <"$T/err") -eq 1 ]] ||
			fail "history $cmd on $what: want one line, got: $(cat "$T/err")"
		assert_file_match "$T/err" "$f" "the message names the file"
	done
	assert_eq "$(md5sum <"$f")" "$sum" "$what is unchanged"
	[[ ! -e $f-wal ]] || fail "a -wal file appeared beside $what"
	ok "no WAL file beside $what"
}
head -c 65536 /dev/urandom >"$T/random.db"
check_refused "$T/random.db" "a file of random bytes"
printf 'some notes\n' >"$T/notes.db"
check_refused "$T/notes.db" "a text file"
{
	printf 'SQLite format 3\0'
	head -c 8192 /dev/urandom
} >"$T/corrupt.db"
check_refused "$T/corrupt.db" "a corrupt SQLite file"
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$T/other.db" 'CREATE TABLE t (x); INSERT INTO t VALUES (1);'
	check_refused "$T/other.db" "another application's database"
	assert_file_match "$T/err" 'another application' "and says whose it is not"
elif command -v python3 >/dev/null 2>&1; then
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t (x)")
c.commit()' "$T/other.db"
	check_refused "$T/other.db" "another application's database"
else
	fail "another application's database needs sqlite3 or python3 to make"
fi

# ---- concurrent imports -------------------------------------------------
line='1.98,2.00a,conc,1,1795987758,512M,,8192,5,487,95,284814,75,563976,48,417,76,+++++,+++,+++++,+++,4,,,,,7825,11,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,43055us,12912us,9054us,76688us,8982us,84745us,392us,4101us,521us,5358us,4164us,7469us'
echo "$line" >"$T/one.csv"
importer()
{
	local i bad=0
	for ((i = 0; i < 20; i++)); do
		"$CLYDE" history --db "$T/conc.db" import --force "$T/one.csv" \
			>/dev/null 2>>"$T/conc.err.$1" || bad=1
	done
	return $bad
}
importer 1 &
p1=$!
importer 2 &
p2=$!
rc1=0 rc2=0
wait $p1 || rc1=$?
wait $p2 || rc2=$?
[[ $rc1 -eq 0 && $rc2 -eq 0 ]] ||
	fail "concurrent imports failed: $(cat "$T"/conc.err.* | head -n 5)"
ok "two processes importing at once: every import succeeded"
run_clyde history --db "$T/conc.db" list
expect_rc 0 "list the concurrent database"
assert_eq "$(grep -c ' conc ' "$T/out")" 40 "all 40 runs are there"
assert_eq "$(sed -n 2p "$T/out" | awk '{print $1}')" 40 "ids run to 40"

done_testing
