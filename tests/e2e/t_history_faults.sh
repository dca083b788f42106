#!/bin/bash
# The results history under faults (issue 17 §2):
#  - a database with a damaged page is found before any test runs
#    (quick_check): `clyde run`, `clyde tree`, `clyde sweep` and
#    `clyde history import` refuse it with one line and exit 1, and the file
#    is left byte for byte as it was;
#  - a save that fails after the run (no room for its transaction) is exit
#    status 3, not a warning with exit 0, and the history keeps its runs;
#  - `sweep --list`, `sweep --show` and `report --experiment` read a
#    read-only history (mode 444 in a 555 directory, as nobody; a read-only
#    bind mount) as `history list` does, writing nothing beside it;
#  - on a full filesystem (a loop-mounted ext4 filled to its last block)
#    an open for writing says the disk is full and creates nothing: no
#    -wal or -shm file beside the database; and an open that fails after
#    SQLite made them (a file size limit) removes them again.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

export TZ=UTC
run_clyde history --db "$T/probe.db" list
if grep -q 'without SQLite' "$T/err"; then
	skip "clyde was built without SQLite"
fi
need_root
need_cmd setpriv

# Bonnie++ 1.96 lines (see t_compare.sh), imported 60 times over: a
# database of some 20 pages, so that a page in the middle holds runs.
line='1.96,1.96,xfs,1,1389744811,16G,,425,98,198526,24,89488,13,2076,97,208574,14,517.6,7,16,,,,,1150,5,+++++,+++,1102,4,1066,6,+++++,+++,929,4,27040us,4031ms,1163ms,8770us,55316us,78741us,939ms,125us,1094us,1208ms,47us,1061ms'
for _ in $(seq 60); do
	echo "$line"
done >"$T/runs.csv"

# A small experiment: one timed command at two points.
cat >"$T/exp.ini" <<'EOF'
[experiment]
name = faults
repeat = 1

[axis n]
values = 1 2

[workload t]
time = true
EOF
have_sweep=1
run_clyde sweep --dry-run "$T/exp.ini"
if grep -q 'without libinih' "$T/err"; then
	have_sweep=0
	echo "# built without libinih: the sweep checks are skipped"
fi

W=$(new_dir w)

# ---- a damaged page ---------------------------------------------------
D=$(new_dir damaged)
run_clyde history --db "$D/h.db" import --force "$T/runs.csv"
expect_rc 0 "import the runs"
pages=$(($(stat -c %s "$D/h.db") / 4096))
((pages >= 8)) || fail "the database has only $pages pages"
# 0xff over a page in the middle: no b-tree page type, no page number.
head -c 4096 /dev/zero | tr '\0' '\377' |
	dd of="$D/h.db" bs=4096 seek=$((pages / 2)) conv=notrunc 2>/dev/null
cp "$D/h.db" "$T/damaged.copy"

# damaged_refused WHAT: the last command exited 1 with one line saying the
# database is damaged, ran no test, and left the directory as it was.
damaged_refused()
{
	expect_rc 1 "$1 on a damaged database exits 1"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "$1: one line"
	assert_file_match "$T/err" \
		"$D/h\.db: the database is damaged \(quick_check: .+\); left as it is, nothing is written to it" \
		"$1: the line names the database and says it is damaged"
	cmp -s "$D/h.db" "$T/damaged.copy" || fail "$1 wrote into the damaged database"
	ok "$1: the damaged database is unchanged"
	assert_eq "$(find "$D" -mindepth 1 -printf '%f\n')" h.db \
		"$1: nothing beside the database"
	assert_empty_dir "$W" "$1: no scratch directory left"
}

run_clyde run -d "$W" -s 0 -n 1 -r 0 --db "$D/h.db"
damaged_refused "clyde run"
assert_file_no_match "$T/out" 'files' "clyde run ran no test"
run_clyde tree -d "$W" --files 50 --db "$D/h.db"
damaged_refused "clyde tree"
run_clyde history --db "$D/h.db" import --force "$T/runs.csv"
damaged_refused "history import"
if ((have_sweep)); then
	run_clyde sweep "$T/exp.ini" --db "$D/h.db"
	damaged_refused "clyde sweep"
fi
# The default history is refused too when it is damaged (a history that
# cannot be opened for another reason is only a warning for tree).
mkdir -p "$XDG_DATA_HOME/clyde"
cp "$T/damaged.copy" "$XDG_DATA_HOME/clyde/results.db"
run_clyde tree -d "$W" --files 50
expect_rc 1 "clyde tree with a damaged default history exits 1"
assert_file_match "$T/err" '^clyde tree: the results history: .*results\.db: the database is damaged' \
	"and says so"
rm -rf "$XDG_DATA_HOME/clyde"

# ---- a save that fails ---------------------------------------------------
# Room to open the history (SQLite's -shm) but not for a run's
# transaction: the run itself is fine, the save is not.
mount_tmpfs 1m
S=$MNT
run_clyde history --db "$S/h.db" import "$T/runs.csv"
expect_rc 0 "import on a small tmpfs"
dd if=/dev/zero of="$S/filler" bs=4k 2>/dev/null || true
truncate -s -64K "$S/filler"
run_clyde run -d "$W" -s 0 -n 1 -r 0 --db "$S/h.db"
expect_rc 3 "a run whose save fails exits 3"
assert_file_match "$T/out" '^ +1 ' "the run's table was printed"
assert_file_match "$T/err" \
	"^clyde: the results were not saved in the history: $S/h\.db: .*the disk is full" \
	"the line says the results were not saved, and why"
assert_file_no_match "$T/err" 'warning' "not as a warning"
run_clyde tree -d "$W" --files 50 --phases extract --no-drop-caches \
	--db "$S/h.db"
expect_rc 3 "a tree run whose save fails exits 3"
assert_file_match "$T/err" "^clyde tree: the result was not saved in the history: $S/h\.db: " \
	"tree says the result was not saved"
rm -f "$S/filler"
run_clyde history --db "$S/h.db" list
expect_rc 0 "the history is readable after the failed saves"
assert_eq "$(($(wc -l <"$T/out") - 1))" 1 "with its one run"
assert_empty_dir "$W" "no scratch directory left"

# ---- read-only: sweep --list/--show, report --experiment -------------------
if ((have_sweep)); then
	R=$(new_dir ro)
	run_clyde sweep "$T/exp.ini" --db "$R/h.db"
	expect_rc 0 "a small sweep"
	id=$(sed -n 's/^clyde sweep: experiment \([^ ]*\) .*/\1/p' "$T/err" |
		head -n 1)
	[[ -n $id ]] || fail "no experiment id in the sweep's output"
	assert_eq "$(find "$R" -mindepth 1 -printf '%f\n')" h.db \
		"after the sweep only the database is there"
	chmod 444 "$R/h.db"
	chmod 555 "$R"
	at_exit "chmod 755 '$R'"
	OUTD=$(new_dir report-out)
	chmod 777 "$OUTD"
	# ro_reads WHO DIR PREFIX...: the three readers exit 0 through PREFIX
	# and write nothing beside the database.
	ro_reads()
	{
		local who=$1 dir=$2
		shift 2
		RC=0
		"$@" "$CLYDE" sweep --list --db "$dir/h.db" >"$T/out" 2>"$T/err" ||
			RC=$?
		expect_rc 0 "$who: sweep --list"
		assert_file_match "$T/out" "^$id +finished" "$who: lists the experiment"
		RC=0
		"$@" "$CLYDE" sweep --show "$id" --db "$dir/h.db" >"$T/out" \
			2>"$T/err" || RC=$?
		expect_rc 0 "$who: sweep --show"
		assert_file_match "$T/out" "^experiment $id" "$who: shows the experiment"
		RC=0
		"$@" "$CLYDE" report --experiment "$id" --db "$dir/h.db" \
			-o "$OUTD/r.html" >"$T/out" 2>"$T/err" || RC=$?
		expect_rc 0 "$who: report --experiment"
		assert_file_match "$OUTD/r.html" '<html' "$who: the report was written"
		rm -f "$OUTD/r.html"
		assert_eq "$(find "$dir" -mindepth 1 -printf '%f\n')" h.db \
			"$who: nothing written beside the database"
	}
	ro_reads "nobody, mode 444 in a 555 directory" "$R" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups
	RB=$(new_dir robind)
	if mount --bind "$R" "$RB" 2>/dev/null; then
		at_exit "umount -l '$RB'"
		mount -o remount,ro,bind "$RB" ||
			fail "cannot remount $RB read-only"
		ro_reads "root on a read-only mount" "$RB" env
	else
		echo "# no bind mount here: root read-only check skipped"
	fi
	chmod 755 "$R"
	chmod 644 "$R/h.db"
fi

# ---- a full filesystem ---------------------------------------------------
mount_loop ext4 8
F=$MNT/hist
mkdir "$F"
run_clyde history --db "$F/h.db" import "$T/runs.csv"
expect_rc 0 "import on a small ext4"
cp "$F/h.db" "$T/full.copy"
# To the last block, the blocks reserved for root included.
dd if=/dev/zero of="$MNT/filler" bs=4k 2>/dev/null || true
sync

# full_refused WHAT: the last command exited 1 saying the disk is full,
# and created nothing beside the database.
full_refused()
{
	expect_rc 1 "$1 on a full filesystem exits 1"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "$1: one line"
	assert_file_match "$T/err" "$F/h\.db: cannot open the results history: the disk is full" \
		"$1: says the disk is full"
	assert_file_no_match "$T/err" 'left as it is|not a usable' \
		"$1: does not call the database unusable"
	assert_eq "$(find "$F" -mindepth 1 -printf '%f\n')" h.db \
		"$1: no -wal or -shm file created"
	cmp -s "$F/h.db" "$T/full.copy" || fail "$1 changed the database"
	ok "$1: the database is unchanged"
}

run_clyde run -d "$W" -s 0 -n 1 -r 0 --db "$F/h.db"
full_refused "clyde run"
run_clyde history --db "$F/h.db" import --force "$T/runs.csv"
full_refused "history import"
run_clyde tree -d "$W" --files 50 --db "$F/h.db"
full_refused "clyde tree"
if ((have_sweep)); then
	run_clyde sweep "$T/exp.ini" --db "$F/h.db"
	full_refused "clyde sweep"
fi
run_clyde history --db "$F/h.db" list
expect_rc 0 "a full filesystem's history can still be listed"
assert_eq "$(find "$F" -mindepth 1 -printf '%f\n')" h.db \
	"listing creates nothing either"
rm -f "$MNT/filler"

# An open that fails after SQLite made its side files (here: the -shm file
# cannot grow under a 8 KiB file size limit) removes them again.
RC=0
bash -c 'ulimit -f 8; trap "" XFSZ; exec "$0" "$@"' "$CLYDE" history \
	--db "$F/h.db" import --force "$T/runs.csv" >"$T/out" 2>"$T/err" || RC=$?
expect_rc 1 "an import whose -shm cannot grow exits 1"
assert_file_match "$T/err" "$F/h\.db" "and names the database"
assert_eq "$(find "$F" -mindepth 1 -printf '%f\n')" h.db \
	"the -wal and -shm files it made are removed"
run_clyde history --db "$F/h.db" import --force "$T/runs.csv"
expect_rc 0 "with room again, an import works"

done_testing
