#!/usr/bin/env bash
# Nothing left behind, nothing half-written (issue 8, section 6, `clyde
# run`): a closed output stops the run and removes the scratch directory;
# --json is replaced atomically and checked (with --db) before the first
# test; -s is checked against the free space; --json - is alone on
# standard output; a used -y s semaphore set is refused; a stale scratch
# directory is named; -Z on a FIFO or a directory and running out of
# descriptors end with the promised status and message.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

d=$(new_dir d)

# ---- a closed output (SIGPIPE) --------------------------------------------
# `true` closes the pipe at once, so the first write clyde makes to it
# fails: deterministic, unlike `head -1`, which may read everything first.
closed_output()
{
	local what=$1
	shift
	{
		rc=0
		timeout -k 10 "$CLYDE_TIMEOUT" "$CLYDE" -d "$d" "$@" \
			2>"$T/err" || rc=$?
		echo "$rc" >"$T/rc"
	} | true
	assert_eq "$(cat "$T/rc")" 5 "$what: exit status 5 (interrupted), not 141"
	assert_empty_dir "$d" "$what: the scratch directory is removed"
	assert_file_match "$T/err" "output was closed|standard output: write error: Broken pipe" \
		"$what: stderr says why"
}
closed_output "one run piped into a closed reader" -s 64m -n 0 -r 0 --no-save
closed_output "-x 3 piped into a closed reader" -s 16m -n 0 -f -r 0 -x 3 \
	--no-save
closed_output "--json - piped into a closed reader" -s 16m -n 0 -f -r 0 \
	--json - --no-save

# clyde tree shares the signal catcher: its scratch directory goes too.
{
	rc=0
	timeout -k 10 "$CLYDE_TIMEOUT" "$CLYDE" tree -d "$d" --files 200 \
		--dirs 20 2>"$T/err" || rc=$?
	echo "$rc" >"$T/rc"
} | true
rc=$(cat "$T/rc")
[[ $rc -ne 0 && $rc -ne 141 ]] ||
	fail "clyde tree into a closed reader: exit status $rc"
ok "clyde tree into a closed reader: exit status $rc, not killed"
assert_empty_dir "$d" "clyde tree into a closed reader: the scratch is removed"

# ---- --json - is alone on standard output -----------------------------------
run_clyde -d "$d" -s 16m -n 0 -f -r 0 --json - --no-save
expect_rc 0 "--json -: the run succeeds"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/out" ||
	{ show_output; fail "--json -: standard output is not one JSON document"; }
ok "--json -: standard output is exactly the JSON document"
assert_file_match "$T/err" '^1\.98,' "--json -: the CSV line went to stderr"
assert_file_match "$T/err" '^Version' "--json -: the table went to stderr"

# ---- outputs checked before the first test ---------------------------------
# refused RE ARGS...: exit 1, one line matching RE, no scratch directory.
refused()
{
	local re=$1 what="clyde $*"
	shift
	run_clyde -d "$d" -s 16m -n 0 -f -r 0 "$@"
	expect_rc 1 "$what: exit status 1"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "$what: one line on stderr"
	assert_file_match "$T/err" "$re" "$what: the message names it"
	assert_empty_dir "$d" "$what: nothing was run"
}
refused "--json.*$T/nodir/run.json" --json "$T/nodir/run.json" --no-save
mkdir "$T/jsondir"
refused "--json.*$T/jsondir.*directory" --json "$T/jsondir" --no-save
refused "--db.*$T/nodir/h.db" --db "$T/nodir/h.db"
echo "not a database" >"$T/notdb"
refused "--db.*$T/notdb" --db "$T/notdb"
assert_eq "$(cat "$T/notdb")" "not a database" "--db: the file is untouched"
[[ ! -e $T/nodir ]] || fail "a missing --db directory was created"
ok "no missing directory was created"

# ---- --json replaced atomically: a full disk keeps the old content ---------
if [[ $(id -u) -eq 0 ]]; then
	mount_tmpfs 1m
	full=$MNT
	echo '{"old": true}' >"$full/run.json"
	dd if=/dev/zero of="$full/fill" bs=4k 2>/dev/null || true
	run_clyde -d "$d" -s 16m -n 0 -f -r 0 --json "$full/run.json" --no-save
	expect_rc 3 "--json on a full disk: exit status 3"
	assert_file_match "$T/err" "--json.*$full/run.json" \
		"--json on a full disk: the message names the file"
	assert_eq "$(cat "$full/run.json")" '{"old": true}' \
		"--json on a full disk: the old content is kept"
	assert_eq "$(find "$full" -name '.*tmp*' | wc -l | tr -d ' ')" 0 \
		"--json on a full disk: no temporary file is left"
	assert_empty_dir "$d" "--json on a full disk: the scratch is removed"
	rm -f "$full/fill"
fi

# ---- --json opened before -u drops privileges -------------------------------
if [[ $(id -u) -eq 0 ]] && id nobody >/dev/null 2>&1; then
	w=$(new_dir writable)
	chown nobody "$w"
	mkdir -m 700 "$T/rootonly"
	echo '{"old": true}' >"$T/rootonly/run.json"
	run_clyde -d "$w" -u nobody -s 16m -n 0 -f -r 0 -q --no-save \
		--json "$T/rootonly/run.json"
	expect_rc 0 "-u nobody --json in a directory only root can write"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))["runs"]' \
		"$T/rootonly/run.json" ||
		fail "-u nobody: the --json file is not the run's JSON"
	ok "-u nobody: the --json file holds the run"
	run_clyde -d "$w" -u nobody -s 16m -n 0 -f -r 0 -q --no-save \
		--json "$T/rootonly/new.json"
	expect_rc 0 "-u nobody --json of a new file only root can create"
	[[ -s $T/rootonly/new.json ]] || fail "-u nobody: new.json not written"
	ok "-u nobody: a new --json file is written"
fi

# ---- -s beyond the free space ----------------------------------------------
if [[ $(id -u) -eq 0 ]]; then
	mount_tmpfs 32m
	small=$MNT
	run_clyde -d "$small" -s 128m -n 0 -f -r 0 --no-save
	expect_rc 1 "-s 128m on a 32 MiB filesystem: exit status 1"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "-s 128m: one line"
	assert_file_match "$T/err" \
		"-s 128\.0 MiB needs 128\.0 MiB but $small has only [0-9.]+ [KM]iB free" \
		"-s 128m: the message gives both sizes"
	assert_empty_dir "$small" "-s 128m: nothing written"
	run_clyde -d "$small" -s 16m -c 4 -n 0 -f -r 0 --no-save
	expect_rc 1 "-s 16m -c 4 on a 32 MiB filesystem: exit status 1"
	assert_file_match "$T/err" "-s 16\.0 MiB \(4 workers\) needs 64\.0 MiB" \
		"-s 16m -c 4: the message counts the workers"
	run_clyde -d "$small" -r 64 -n 0 -f --no-save
	expect_rc 1 "-r 64 (300 MiB) on a 32 MiB filesystem: exit status 1"
	assert_file_match "$T/err" "size chosen without -s.*needs 300\.0 MiB" \
		"-r 64: the message names the chosen size"
	assert_empty_dir "$small" "-r 64: nothing written"
	# Without -s or -r the calibration refuses a filesystem this small.
	dd if=/dev/zero of="$small/fill" bs=1M count=20 2>/dev/null
	run_clyde -d "$small" -n 0 -f --no-save
	expect_rc 1 "calibration with 12 MiB free: exit status 1"
	assert_file_match "$T/err" "has [0-9]+ MiB free; give -s.*needs" \
		"calibration: the message gives both sizes"
	rm -f "$small/fill"
	assert_empty_dir "$small" "calibration: nothing left"
fi

# ---- a stale scratch directory is named -------------------------------------
sleep 0 &
dead=$!
wait "$dead" || true
mkdir "$d/clyde.$dead" "$d/clyde.$$"
run_clyde -d "$d" -s 16m -n 0 -f -r 0 --no-save
expect_rc 0 "a run beside a stale scratch directory"
assert_file_match "$T/err" \
	"note: $d/clyde\.$dead was left by a clyde run that is gone; remove it with: rm -rf -- '$d'/clyde\.$dead" \
	"the stale directory and the command that removes it are named"
assert_file_no_match "$T/err" "clyde\.$$ was left" \
	"the directory of a live process is not named"
[[ -d $d/clyde.$dead ]] || fail "clyde removed the stale directory itself"
ok "the stale directory is left to the user"
rmdir "$d/clyde.$dead" "$d/clyde.$$"

# ---- -Z: a directory, and SIGINT while a FIFO opens --------------------------
run_clyde -d "$d" -s 16m -n 0 -r 0 -Z "$T/jsondir" --no-save
expect_rc 1 "-Z DIR: exit status 1"
assert_file_match "$T/err" "-Z: $T/jsondir is a directory" \
	"-Z DIR: the message says it is a directory"
mkfifo "$T/fifo"
set -m
"$CLYDE" -d "$d" -s 16m -n 0 -r 0 -Z "$T/fifo" --no-save >"$T/out" \
	2>"$T/err" &
pid=$!
set +m
at_exit "kill -KILL $pid"
sleep 0.5
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
expect_rc 5 "SIGINT while -Z opens a FIFO: exit status 5"
assert_file_match "$T/err" "interrupted" "-Z FIFO: stderr says interrupted"
assert_empty_dir "$d" "-Z FIFO: nothing created"

# ---- running out of descriptors names the test -------------------------------
(
	ulimit -n 12
	run_clyde -d "$d" -s 16m -n 0 -f -r 0 -c 8 --no-save
	echo "$RC" >"$T/rc"
)
RC=$(cat "$T/rc")
expect_rc 3 "EMFILE in the IO tests: exit status 3, not 5"
assert_file_match "$T/err" "clyde: block write: .*Too many open files" \
	"EMFILE in the IO tests: the message names the test"
assert_empty_dir "$d" "EMFILE in the IO tests: the scratch is removed"
(
	ulimit -n 12
	run_clyde -d "$d" -s 0 -n 1 -r 0 -c 8 --no-save
	echo "$RC" >"$T/rc"
)
RC=$(cat "$T/rc")
expect_rc 3 "EMFILE in the file tests: exit status 3"
assert_file_match "$T/err" "clyde: sequential create: .*Too many open files" \
	"EMFILE in the file tests: the message names the test"
assert_empty_dir "$d" "EMFILE in the file tests: the scratch is removed"

done_testing
