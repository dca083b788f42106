#!/usr/bin/env bash
# Every run is saved in the results history by default (--db chooses the
# database, --no-save skips it), and the stored document is the run's JSON.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
"$CLYDE" history list --db "$T/probe.db" >/dev/null 2>&1 ||
	skip "clyde was built without SQLite"
d=$(new_dir d)

run_clyde -d "$d" -s 16m -n 0 -f -r 0 -x 1 -m saved --json "$T/run.json"
expect_rc 0 "a run succeeds"
[[ -f $XDG_DATA_HOME/clyde/results.db ]] || fail "no database at \$XDG_DATA_HOME/clyde/results.db"
ok "the run was saved in the default history"
"$CLYDE" history list >"$T/list" 2>&1 || fail "history list failed"
assert_eq "$(grep -c ' saved ' "$T/list")" 1 "history list shows the run once"
id=$(awk '/ saved /{ print $1 }' "$T/list")
"$CLYDE" history export "$id" >"$T/exported.json" || fail "history export failed"
cmp -s "$T/run.json" "$T/exported.json" || fail "the stored JSON differs from --json's"
ok "the stored document is the run's JSON"

run_clyde -d "$d" -s 16m -n 0 -f -r 0 -x 1 -m unsaved --no-save
expect_rc 0 "a --no-save run succeeds"
"$CLYDE" history list >"$T/list" 2>&1 || fail "history list failed"
assert_eq "$(grep -c ' unsaved ' "$T/list" || true)" 0 "--no-save kept the run out"

run_clyde -d "$d" -s 16m -n 0 -f -r 0 -x 1 -m other --db "$T/other.db"
expect_rc 0 "a run with --db succeeds"
"$CLYDE" history list --db "$T/other.db" >"$T/list" 2>&1 || fail "history list --db failed"
assert_eq "$(grep -c ' other ' "$T/list")" 1 "--db chose the database"

# A file that is not a clyde history is refused (and left alone) before
# the first test: exit status 1, one line naming --db and the file.
printf 'not a database\n' >"$T/bad.db"
run_clyde -d "$d" -s 16m -n 0 -f -r 0 -x 1 --db "$T/bad.db"
expect_rc 1 "a run whose history cannot be written is refused first"
assert_file_match "$T/err" "--db: $T/bad.db" "the message names --db and the file"
assert_file_no_match "$T/out" '^1\.98,' "no test was run"
assert_eq "$(cat "$T/bad.db")" "not a database" "the foreign file is unchanged"
assert_empty_dir "$d" "nothing left behind"

# ---- an output closed by its reader loses nothing measured ----------------
# `clyde ... --json F --db D | true`: the run is measured before the table
# and the CSV meet the closed pipe; the JSON is written and the run saved
# first, then the closed output is said, with where the results are, and
# the exit is 5 (the reader went away).
RC=0
{
	"$CLYDE" -d "$d" -s 16m -n 0 -f -r 0 -m piped --json "$T/piped.json" \
		--db "$T/piped.db" 2>"$T/err" || RC=$?
	echo "$RC" >"$T/rc"
} | true
RC=$(cat "$T/rc")
expect_rc 5 "run | true: exit 5 (the output was closed)"
[[ -s $T/piped.json ]] || { show_output; fail "run | true: no JSON written"; }
ok "run | true: the JSON is written"
"$CLYDE" history list --db "$T/piped.db" >"$T/list" 2>&1 ||
	fail "history list of the piped run failed"
assert_eq "$(grep -c ' piped ' "$T/list")" 1 "run | true: the run is saved"
assert_file_match "$T/err" '^clyde: standard output: write error: Broken pipe$' \
	"run | true: the closed output is named"
assert_file_match "$T/err" "^clyde: the results are kept in $T/piped.json and in the history as run 1 " \
	"run | true: says where the results are"
# The same for a full disk under the output: exit 3, the run kept.
RC=0
"$CLYDE" -d "$d" -s 16m -n 0 -f -r 0 -m full --json "$T/full.json" \
	--db "$T/piped.db" >/dev/full 2>"$T/err" || RC=$?
expect_rc 3 "run >/dev/full: exit 3"
assert_file_match "$T/err" '^clyde: standard output: write error: No space left on device$' \
	"run >/dev/full: names standard output and ENOSPC"
assert_file_match "$T/err" "^clyde: the results are kept in $T/full.json and in the history as run 2 " \
	"run >/dev/full: the results are kept"
assert_empty_dir "$d" "nothing left behind by the closed outputs"

# ---- a history on a read-only filesystem ------------------------------------
# SQLite says only "unable to open database file": the message says the
# filesystem is read-only (EROFS) instead of "not a usable SQLite database".
if ((EUID == 0)); then
	ro=$T/ro
	mkdir "$ro"
	mount -t tmpfs -o size=8m,mode=755 tmpfs "$ro" || fail "cannot mount a tmpfs"
	at_exit "umount -l '$ro'"
	run_clyde -d "$d" -s 0 -n 1 -r 0 -m ro --db "$ro/h.db" -q
	expect_rc 0 "a run saved in the history that becomes read-only"
	mount -o remount,ro "$ro" || fail "cannot remount the tmpfs read-only"
	run_clyde -d "$d" -s 0 -n 1 -r 0 --db "$ro/h.db"
	expect_rc 1 "a history on a read-only filesystem: refused first"
	assert_file_match "$T/err" "^clyde: --db: $ro/h.db: .*(filesystem is read-only \(EROFS\)|Read-only file system)" \
		"the message says the filesystem is read-only"
	assert_file_no_match "$T/err" 'not a usable SQLite database' \
		"not \"not a usable SQLite database\""
	run_clyde history --db "$ro/h.db" import "$CLYDE_SRC/tests/fixtures/bonnie-1.98.csv"
	expect_rc 1 "an import into the read-only history: refused"
	assert_file_match "$T/err" "$ro/h.db: .*its filesystem is read-only \(EROFS\)" \
		"import names the read-only filesystem"
	assert_file_no_match "$T/err" 'not a usable SQLite database' \
		"import: not \"not a usable SQLite database\""
	run_clyde history --db "$ro/h.db" list
	expect_rc 0 "the read-only history can still be listed"
else
	skip_part "a history on a read-only filesystem: needs root to mount"
fi
done_testing
