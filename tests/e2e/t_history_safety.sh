#!/bin/bash
# `clyde history` leaves nothing behind and nothing half-written: list,
# show, export and compare work on a read-only database without writing a
# byte next to it (no -wal, -shm or -journal file); a failed import leaves
# no new empty database; output that cannot be written is an error; export
# -o goes through a temporary file; a full disk during a save leaves
# the database readable with its old runs, and a new history that cannot
# be made there leaves no file behind.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

export TZ=UTC
run_clyde history list
if grep -q 'without SQLite' "$T/err"; then
	skip "clyde was built without SQLite"
fi

# Two bonnie++ 1.96 lines (bonnie++ 1.96 on xfs; see t_compare.sh).
cat >"$T/runs.csv" <<'EOF_CSV'
1.96,1.96,xfs,1,1389744811,16G,,425,98,198526,24,89488,13,2076,97,208574,14,517.6,7,16,,,,,1150,5,+++++,+++,1102,4,1066,6,+++++,+++,929,4,27040us,4031ms,1163ms,8770us,55316us,78741us,939ms,125us,1094us,1208ms,47us,1061ms
1.96,1.96,ext4,1,1389745811,16G,,430,97,190000,23,88000,12,2000,96,200000,13,700.1,8,16,,,,,1200,5,+++++,+++,1100,4,1050,6,+++++,+++,930,4,27040us,4031ms,1163ms,8770us,55316us,78741us,939ms,125us,1094us,1208ms,47us,1061ms
EOF_CSV

# ---- a read-only database ----------------------------------------------
RO=$(new_dir ro)
run_clyde history --db "$RO/h.db" import "$T/runs.csv"
expect_rc 0 "import two runs"
assert_eq "$(find "$RO" -mindepth 1 -printf '%f\n')" h.db \
	"after the import only the database is there"
chmod 444 "$RO/h.db"
chmod 555 "$RO"
at_exit "chmod 755 '$RO'"

# read_only_checks WHO PREFIX...: every reading subcommand, run through
# PREFIX (e.g. setpriv as nobody), exits 0 with its output and leaves the
# directory exactly as it was.  It runs $RUNCLYDE (a copy in $T for
# another user, who may not reach the build directory).
RUNCLYDE=$CLYDE
read_only_checks()
{
	local who=$1 dir=$2
	shift 2
	RC=0
	"$@" "$RUNCLYDE" history --db "$dir/h.db" list >"$T/out" 2>"$T/err" ||
		RC=$?
	expect_rc 0 "$who: list"
	assert_eq "$(($(wc -l <"$T/out") - 1))" 2 "$who: list shows both runs"
	RC=0
	"$@" "$RUNCLYDE" history --db "$dir/h.db" show 2 >"$T/out" 2>"$T/err" ||
		RC=$?
	expect_rc 0 "$who: show"
	assert_file_match "$T/out" '^Run 2: ext4$' "$who: show names the run"
	RC=0
	"$@" "$RUNCLYDE" history --db "$dir/h.db" export 1 >"$T/out" 2>"$T/err" ||
		RC=$?
	expect_rc 0 "$who: export"
	assert_eq "$(cat "$T/out")" "$(head -n 1 "$T/runs.csv")" \
		"$who: export gives the line back"
	RC=0
	"$@" "$RUNCLYDE" history --db "$dir/h.db" compare 1 2 >"$T/out" \
		2>"$T/err" || RC=$?
	expect_rc 0 "$who: compare"
	assert_file_match "$T/out" '^seeks +rate +seeks/s +517\.6 +700\.1' \
		"$who: compare gives both runs"
	assert_eq "$(find "$dir" -mindepth 1 -printf '%f\n')" h.db \
		"$who: nothing written beside the database"
}

if [[ $(id -u) -ne 0 ]]; then
	read_only_checks "a user, mode 444 in a 555 directory" "$RO" env
else
	# Root ignores the modes: read as nobody, and as root on a
	# read-only bind mount.
	if command -v setpriv >/dev/null; then
		clyde_for_others
		RUNCLYDE=$CLYDE_OTHERS
		read_only_checks "nobody, mode 444 in a 555 directory" "$RO" \
			setpriv --reuid=nobody --regid=nogroup --clear-groups
		RUNCLYDE=$CLYDE
	else
		skip_part "reading as nobody: needs setpriv"
	fi
	RB=$(new_dir robind)
	if mount --bind "$RO" "$RB" 2>/dev/null; then
		at_exit "umount -l '$RB'"
		mount -o remount,ro,bind "$RB" ||
			fail "cannot remount $RB read-only"
		read_only_checks "root on a read-only mount" "$RB" env
	else
		skip_part "root on a read-only bind mount: mount --bind failed"
	fi
	# And root in a writable directory: reading still writes nothing.
	chmod 755 "$RO"
	chmod 644 "$RO/h.db"
	read_only_checks "root, writable directory" "$RO" env
fi
chmod 755 "$RO"
chmod 644 "$RO/h.db"

# ---- output that cannot be written ---------------------------------------
if [[ -w /dev/full ]]; then
	for sub in list "show 1" "export 1" "compare 1 2"; do
		RC=0
		# shellcheck disable=SC2086 # $sub is a command and its id
		"$CLYDE" history --db "$RO/h.db" $sub >/dev/full 2>"$T/err" ||
			RC=$?
		expect_rc 1 "history $sub >/dev/full exits 1"
		assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 \
			"history $sub >/dev/full: one line"
		assert_file_match "$T/err" \
			"^clyde history ${sub%% *}: standard output: .*No space left on device\$" \
			"history $sub >/dev/full names the output and says why"
	done
fi

# ---- a failed import leaves no new database -------------------------------
NEW=$(new_dir new)
run_clyde history --db "$NEW/x.db" import "$T/no-such.csv"
expect_rc 1 "import of a missing file exits 1"
assert_empty_dir "$NEW" "no database made by a failed import"
: >"$T/empty.csv"
run_clyde history --db "$NEW/x.db" import "$T/empty.csv"
expect_rc 1 "import of a file without results exits 1"
assert_empty_dir "$NEW" "no database made by an import of nothing"
run_clyde history import "$T/no-such.csv"
expect_rc 1 "import into the default database of a missing file"
[[ ! -e $XDG_DATA_HOME/clyde/results.db ]] ||
	fail "the default database was made by a failed import"
ok "the default database is not made by a failed import"
# A file too big to be a result is refused by its size, before reading.
truncate -s 100G "$T/huge.csv"
SECONDS=0
run_clyde history --db "$NEW/x.db" import "$T/huge.csv"
expect_rc 1 "import of a 100 GiB file exits 1"
assert_file_match "$T/err" 'huge\.csv: 102400 MiB, larger than the 64 MiB' \
	"says it is too big"
((SECONDS < 10)) || fail "the huge file was read (${SECONDS}s)"
assert_empty_dir "$NEW" "no database made by refusing a huge file"
rm -f "$T/huge.csv"
# An existing database stays, even when nothing was imported into it.
run_clyde history --db "$RO/h.db" import "$T/empty.csv"
expect_rc 1 "import of nothing into an existing database"
[[ -f $RO/h.db ]] || fail "an existing database was removed"
ok "an existing database stays"

# ---- export -o: a temporary file and a rename -----------------------------
printf 'old content\n' >"$T/exported.csv"
run_clyde history --db "$RO/h.db" export 1 -o "$T/exported.csv"
expect_rc 0 "export -o"
assert_eq "$(cat "$T/exported.csv")" "$(head -n 1 "$T/runs.csv")" \
	"export -o replaces the file"
run_clyde history --db "$RO/h.db" export 99 -o "$T/exported.csv"
expect_rc 1 "export of an unknown id"
assert_eq "$(cat "$T/exported.csv")" "$(head -n 1 "$T/runs.csv")" \
	"a failed export leaves the file as it was"
run_clyde history --db "$RO/h.db" export 1 -o "$T/no/such/dir/x.csv"
expect_rc 1 "export -o into a missing directory"
assert_file_match "$T/err" 'no/such/dir/x\.csv: No such file' "names it"

# ---- a full disk ----------------------------------------------------------
if [[ $(id -u) -eq 0 ]]; then
	mount_tmpfs 1m
	FULL=$MNT
	run_clyde history --db "$FULL/h.db" import "$T/runs.csv"
	expect_rc 0 "import on a small tmpfs"
	printf 'old export\n' >"$FULL/export.csv"
	# Fill the filesystem to the last block.
	dd if=/dev/zero of="$FULL/filler" bs=4k 2>/dev/null || true
	: >"$T/many.csv"
	for _ in $(seq 200); do
		cat "$T/runs.csv" >>"$T/many.csv"
	done
	run_clyde history --db "$FULL/h.db" import --force "$T/many.csv"
	expect_rc 1 "an import on a full disk fails"
	assert_file_match "$T/err" "$FULL/h\.db" "and names the database"
	run_clyde history --db "$FULL/h.db" list
	expect_rc 0 "the database is still readable after the failed save"
	assert_eq "$(($(wc -l <"$T/out") - 1))" 2 "with its two old runs"
	run_clyde history --db "$FULL/h.db" export 2 -o "$FULL/export.csv"
	expect_rc 1 "export -o on a full disk fails"
	assert_eq "$(cat "$FULL/export.csv")" "old export" \
		"and keeps the old content of the file"
	left=$(find "$FULL" -name '.export.csv.tmp.*' | head -n 1)
	[[ -z $left ]] || fail "a temporary file was left: $left"
	ok "no temporary file left"
	# Room for SQLite's side files but not for the transaction: the
	# save fails half-way and is rolled back.
	truncate -s -96K "$FULL/filler"
	run_clyde history --db "$FULL/h.db" import --force "$T/many.csv"
	expect_rc 1 "an import that fills the disk half-way fails"
	assert_file_match "$T/err" 'disk is full' "and says the disk is full"
	run_clyde history --db "$FULL/h.db" list
	expect_rc 0 "the database is readable after the rolled-back save"
	assert_eq "$(($(wc -l <"$T/out") - 1))" 2 "with its two old runs only"
	# A new history that cannot be made on a full disk leaves no file
	# (no empty database, -wal or -shm) behind; with no room at all,
	# and with room for SQLite's side files only.
	for room in 0 8; do
		dd if=/dev/zero of="$FULL/filler" bs=4k 2>/dev/null || true
		truncate -s "-${room}K" "$FULL/filler"
		run_clyde history --db "$FULL/new.db" import "$T/runs.csv"
		expect_rc 1 "a new history on a full disk (${room}K free) fails"
		left=$(find "$FULL" -name 'new.db*' | head -n 1)
		[[ -z $left ]] || fail "a failed open with ${room}K free left $left"
		ok "a failed open with ${room}K free leaves no file"
	done
	rm -f "$FULL/filler"
	run_clyde history --db "$FULL/h.db" import --force "$T/runs.csv"
	expect_rc 0 "with space again, an import works"
	run_clyde history --db "$FULL/h.db" list
	assert_eq "$(($(wc -l <"$T/out") - 1))" 4 "and the runs are all there"
fi

done_testing
