#!/bin/bash
# A history another process holds does not lose the run (issue 30, 2.2):
# with sqlite3 in a BEGIN EXCLUSIVE transaction, the run starts (the
# check before the first test does not refuse a busy history), and at the
# end waits for it, saying so on stderr, and saves when it is free; when
# it stays busy past the wait (CLYDE_HISTORY_WAIT), the result is written
# beside the database and the line names the `clyde history import`
# command that stores it, which then works; the same for clyde tree.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd sqlite3
DB=$T/h.db
run_clyde history --db "$DB" list
if grep -q 'without SQLite' "$T/err"; then
	skip "clyde was built without SQLite"
fi
new_tmpfs_dir scratch
S=$DIR

count()
{
	sqlite3 "$DB" 'SELECT count(*) FROM runs'
}

run_clyde -d "$S" -s 4m -n 0 -f -r 0 -m first --db "$DB"
expect_rc 0 "a first run makes the history"

# hold: sqlite3 holds the write lock of $DB until release.
hold()
{
	mkfifo "$T/fifo"
	sqlite3 "$DB" <"$T/fifo" >/dev/null 2>&1 &
	HOLDER=$!
	exec 3>"$T/fifo"
	at_exit "kill $HOLDER 2>/dev/null || true"
	echo 'BEGIN EXCLUSIVE;' >&3
	# Wait until another writer is really locked out.
	while sqlite3 "$DB" 'BEGIN IMMEDIATE; ROLLBACK;' 2>/dev/null; do
		kill -0 "$HOLDER" 2>/dev/null || fail "sqlite3 did not hold the lock"
		sleep 0.1
	done
}
release()
{
	echo 'COMMIT;' >&3
	exec 3>&-
	wait "$HOLDER" || true
	rm -f "$T/fifo"
}

# --- busy for longer than the old 5 s, then free: the run waits, saves.
hold
timeout -k 5 120 "$CLYDE" -d "$S" -s 4m -n 0 -f -r 0 -m second --db "$DB" \
	>"$T/out" 2>"$T/err" &
run=$!
# Free the history only once the run waits for it (and then 6 s more).
while kill -0 "$run" 2>/dev/null && ! grep -q 'is busy' "$T/err"; do
	sleep 0.2
done
sleep 6
release
RC=0
wait "$run" || RC=$?
expect_rc 0 "a run that met a busy history exits 0"
assert_file_match "$T/err" "^clyde: the results history .*h\\.db is busy \\(another process is writing to it\\); waiting up to 120 s to save the result$" \
	"it says what it waits for"
assert_eq "$(count)" 2 "and saved its result once the history was free"

# --- busy past the wait: the result is written beside the history.
hold
RC=0
CLYDE_HISTORY_WAIT=2 timeout -k 5 120 "$CLYDE" -d "$S" -s 4m -n 0 -f -r 0 \
	-m third --db "$DB" >"$T/out" 2>"$T/err" || RC=$?
release
expect_rc 3 "a history busy past the wait: exit status 3"
assert_file_match "$T/err" "stayed busy for 2 s: the result was written to .*h\\.db\\.unsaved-[0-9]+-[0-9]+\\.json instead; store it with: clyde history --db '.*h\\.db' import '.*\\.json'$" \
	"the line names the file and the import command"
cmd=$(sed -n 's/.*store it with: //p' "$T/err")
[[ $cmd == "clyde history "* ]] || fail "no import command in the message"
spilled=("$T"/h.db.unsaved-*.json)
[[ -f ${spilled[0]} ]] || fail "no result file beside the history"
ok "the result is beside the history"
# shellcheck disable=SC2086 # the command as printed, quoted for a shell
eval "\"\$CLYDE\" ${cmd#clyde }" >"$T/out" 2>"$T/err" || fail "the printed import failed: $(cat "$T/err")"
assert_eq "$(count)" 3 "the printed import command stores the result"

# --- clyde tree saves through the same wait: busy past it, the result
# is written beside the history with the import command.
hold
RC=0
CLYDE_HISTORY_WAIT=2 timeout -k 5 120 "$CLYDE" tree -d "$S" --files 50 \
	--dirs 5 --depth 1 --fanout 5 --db "$DB" >"$T/out" 2>"$T/err" || RC=$?
release
expect_rc 3 "clyde tree with a history busy past the wait: exit status 3"
assert_file_match "$T/err" "^clyde tree: the results history .*h\\.db is busy .*waiting up to 2 s" \
	"  it says what it waited for"
assert_file_match "$T/err" "^clyde tree: the results history stayed busy for 2 s: the result was written to .*\\.json instead; store it with: clyde history --db '.*h\\.db' import '.*\\.json'$" \
	"  and where the result is"
cmd=$(sed -n 's/.*store it with: //p' "$T/err")
[[ $cmd == "clyde history "* ]] || fail "no import command in the message"
eval "\"\$CLYDE\" ${cmd#clyde }" >"$T/out" 2>"$T/err" || fail "the printed import failed: $(cat "$T/err")"
assert_eq "$(count)" 4 "  the printed import command stores it"

done_testing
