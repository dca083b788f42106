#!/bin/bash
# clyde tree leaves nothing half-written and checks before it works:
# --json and --csv go through a temporary file and a rename (a full disk
# keeps the old content, the CSV still appends); every destination is
# checked before the first phase (exit 1, one line, nothing run); the run
# is saved in the results history like `clyde run` (--db, --no-save) and
# exported back byte for byte; an unusable --existing directory is exit 1;
# --existing with --phases all runs every read-only phase; each range in
# an error message is exactly what the parser accepts; running out of
# descriptors names the phase; a tree that does not fit is refused.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

D=$(new_dir d)
# A small, quick tree.
SMALL=(--files 40 --no-drop-caches -q)
HAVE_SQLITE=1
run_clyde history list
grep -q 'without SQLite' "$T/err" && HAVE_SQLITE=0

# ---- destinations are checked before the first phase ----------------------
# bad_dest MSG ERE ARGS...: exit 1, one line matching ERE, nothing run.
bad_dest()
{
	local msg=$1 ere=$2
	shift 2
	run_clyde tree -d "$D" "${SMALL[@]}" "$@"
	expect_rc 1 "$msg: exit 1"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "$msg: one line"
	assert_file_match "$T/err" "$ere" "$msg: says why"
	assert_empty_dir "$D" "$msg: nothing run in -d"
}
bad_dest "--json in a missing directory" \
	'^clyde tree: --json .*/no/such/t\.json: No such file' \
	--json "$T/no/such/t.json"
bad_dest "--csv that is a directory" '^clyde tree: --csv .*: Is a directory' \
	--csv "$T"
if ((HAVE_SQLITE)); then
	echo "not a database" >"$T/foreign.db"
	bad_dest "--db that is not a history" \
		'^clyde tree: --db: .*foreign\.db: not a clyde results history' \
		--db "$T/foreign.db"
	assert_eq "$(cat "$T/foreign.db")" "not a database" \
		"the foreign file is left as it was"
fi
[[ ! -e $XDG_DATA_HOME/clyde/results.db ]] ||
	fail "a run that did not start made the default history"
ok "a run that did not start made no history"

# ---- --json and --csv: written whole, the CSV appended --------------------
run_clyde tree -d "$D" "${SMALL[@]}" --phases stat_walk --json "$T/t.json" \
	--csv "$T/t.csv" --no-save
expect_rc 0 "tree --json --csv"
chmod 640 "$T/t.csv"
run_clyde tree -d "$D" "${SMALL[@]}" --phases stat_walk --csv "$T/t.csv" \
	--no-save
expect_rc 0 "tree --csv again"
assert_eq "$(stat -c %a "$T/t.csv")" 640 "the CSV keeps its mode"
assert_eq "$(wc -l <"$T/t.csv" | tr -d ' ')" 3 "the header once, then two lines"
assert_eq "$(grep -c '^format,' "$T/t.csv")" 1 "one header"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/t.json" ||
	fail "--json is not JSON"
ok "--json is whole JSON"
left=$(find "$T" -maxdepth 1 -name '.*.tmp.*' | head -n 1)
[[ -z $left ]] || fail "a temporary file was left: $left"
ok "no temporary file left"
assert_empty_dir "$D" "nothing left in -d"

if [[ $(id -u) -eq 0 ]]; then
	mount_tmpfs 256k
	FULL=$MNT
	printf 'old json\n' >"$FULL/t.json"
	head -n 2 "$T/t.csv" >"$FULL/t.csv"
	cp "$FULL/t.csv" "$T/csv.before"
	dd if=/dev/zero of="$FULL/filler" bs=4k 2>/dev/null || true
	run_clyde tree -d "$D" "${SMALL[@]}" --phases stat_walk \
		--json "$FULL/t.json" --no-save
	expect_rc 3 "--json on a full disk: exit 3"
	assert_file_match "$T/err" "^clyde tree: --json: cannot write $FULL/t\\.json" \
		"names the file"
	assert_eq "$(cat "$FULL/t.json")" "old json" "the old JSON is kept whole"
	run_clyde tree -d "$D" "${SMALL[@]}" --phases stat_walk \
		--csv "$FULL/t.csv" --no-save
	expect_rc 3 "--csv on a full disk: exit 3"
	cmp -s "$FULL/t.csv" "$T/csv.before" ||
		fail "the CSV file changed on a full disk"
	ok "the old CSV lines are kept"
	left=$(find "$FULL" -name '.*.tmp.*' | head -n 1)
	[[ -z $left ]] || fail "a temporary file was left: $left"
	ok "no temporary file left on the full disk"
	assert_empty_dir "$D" "nothing left in -d after a failed output"
fi

if [[ -w /dev/full ]]; then
	RC=0
	"$CLYDE" tree -d "$D" --files 40 --no-drop-caches --phases stat_walk \
		--no-save >/dev/full 2>"$T/err" || RC=$?
	[[ $RC -ne 0 ]] || fail "tree >/dev/full exits 0"
	ok "tree >/dev/full exits $RC"
fi

# ---- the results history ---------------------------------------------------
if ((HAVE_SQLITE)); then
	run_clyde tree -d "$D" "${SMALL[@]}" --phases stat_walk -m treerun \
		--json "$T/h.json"
	expect_rc 0 "tree saves in the default history"
	run_clyde history list
	expect_rc 0 "history list"
	assert_file_match "$T/out" '^ *1 +[0-9-]+ [0-9:]+ +treerun +tree ' \
		"the tree run is listed as kind tree with its label"
	run_clyde history export 1
	cmp -s "$T/out" "$T/h.json" || fail "export differs from --json"
	ok "history export gives the tree's JSON back"
	run_clyde history show 1
	expect_rc 0 "history show of a tree run"
	assert_file_match "$T/out" '^stat_walk +rate +entries/s ' \
		"show gives the phases' rates"
	run_clyde tree -d "$D" "${SMALL[@]}" --phases stat_walk --db "$T/mine.db"
	expect_rc 0 "tree --db"
	run_clyde history --db "$T/mine.db" list
	assert_eq "$(($(wc -l <"$T/out") - 1))" 1 "--db PATH holds the run"
	run_clyde tree -d "$D" "${SMALL[@]}" --phases stat_walk --no-save
	run_clyde history list
	assert_eq "$(($(wc -l <"$T/out") - 1))" 1 "--no-save saves nothing"
	# The default history unusable: a warning, as for `clyde run`.
	: >"$T/xdg-file"
	RC=0
	XDG_DATA_HOME=$T/xdg-file "$CLYDE" tree -d "$D" "${SMALL[@]}" \
		--phases stat_walk >"$T/out" 2>"$T/err" || RC=$?
	expect_rc 0 "an unusable default history does not stop the run"
	assert_file_match "$T/err" \
		'^clyde tree: warning: the result will not be saved in the history: ' \
		"it is a warning"
fi

# ---- an interruption leaves no temporary file and no new history -------------
I=$(new_dir intr)
"$CLYDE" tree -d "$D" --files 20000 --no-drop-caches -q --json "$I/i.json" \
	--csv "$I/i.csv" --db "$I/i.db" >"$T/out" 2>"$T/err" &
pid=$!
wait_for 20 compgen -G "$D/clyde.*" >/dev/null ||
	{ kill -KILL "$pid"; fail "the tree run did not start"; }
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
expect_rc 5 "SIGINT: exit 5"
assert_empty_dir "$I" "no output, temporary file or new history after SIGINT"
assert_empty_dir "$D" "no scratch directory after SIGINT"

# ---- --existing ------------------------------------------------------------
E=$(new_dir existing)
mkdir -p "$E/a/b" "$E/c"
echo data >"$E/a/b/f"
run_clyde tree --existing "$T/missing" -q --no-save
expect_rc 1 "--existing of a missing directory: exit 1"
run_clyde tree --existing "$E/a/b/f" -q --no-save
expect_rc 1 "--existing of a file: exit 1"
assert_file_match "$T/err" 'not a directory' "says it is not a directory"
if [[ $(id -u) -eq 0 ]] && command -v setpriv >/dev/null; then
	# A copy nobody can reach, wherever the build directory is.
	clyde_for_others
	chmod 700 "$E"
	RC=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$CLYDE_OTHERS" tree --existing "$E" -q --no-save --no-drop-caches \
		>"$T/out" 2>"$T/err" || RC=$?
	chmod 755 "$E"
	expect_rc 1 "--existing that cannot be read: exit 1"
	assert_file_match "$T/err" "^clyde tree: --existing $E: Permission denied$" \
		"says permission denied"
else
	skip_part "--existing that cannot be read: needs root and setpriv"
fi
run_clyde tree --existing "$E" --phases all --no-drop-caches --no-save \
	--json "$T/e.json"
expect_rc 0 "--existing with --phases all"
python3 - "$T/e.json" <<'EOF_PY' || fail "--phases all on --existing"
import json, sys
doc = json.load(open(sys.argv[1]))
want = ["stat_walk", "read_walk", "par_stat_walk", "par_read_walk"]
assert doc["config"]["phases"] == want, doc["config"]["phases"]
ran = [p["name"] for p in doc["runs"][0]["phases"]]
assert ran == want, ran
EOF_PY
ok "--phases all on --existing runs the four read-only phases"
run_clyde tree --existing "$E" --phases extract --no-save
expect_rc 1 "an explicit writing phase on --existing is still refused"

# ---- every range in a message is what the parser takes ----------------------
# range_ok OPT LOW HIGH BELOW ABOVE: LOW and HIGH are accepted, BELOW and
# ABOVE refused with "want a number from LOW to HIGH".  Accepted means the
# run gets past the options (to the missing -d directory).
accepted()
{
	run_clyde tree -d "$T/no-such-dir" --no-save "$@"
	[[ $RC -eq 1 ]] && grep -q '^clyde tree: -d: ' "$T/err"
}
range_ok()
{
	local opt=$1 lo=$2 hi=$3 below=$4 above=$5 v
	for v in "$lo" "$hi"; do
		accepted "$opt" "$v" || {
			show_output
			fail "$opt $v is refused, though the message offers it"
		}
	done
	# The option model's range message (cli/optmodel.c).
	local range="must be from $lo to $hi"
	[[ $lo == 0 ]] && range="must be at most $hi"
	for v in $below $above; do
		run_clyde tree -d "$T/no-such-dir" --no-save "$opt" "$v"
		expect_rc 1 "$opt $v refused"
		assert_file_match "$T/err" \
			"^clyde tree: $opt $v: $range\$" \
			"$opt $v: the message gives the accepted range"
	done
}
range_ok --workers 1 1024 0 1025
range_ok --dirs 1 2147483647 0 2147483648
range_ok --fanout 1 4294967295 0 4294967296
range_ok --depth 0 200 "" 201
range_ok --files 0 4000000000 "" 4000000001
for v in 1 1m; do
	accepted --io-size "$v" || fail "--io-size $v refused"
done
for v in 0 1025k; do
	run_clyde tree -d "$T/no-such-dir" --io-size "$v"
	assert_file_match "$T/err" "^clyde tree: --io-size $v: must be from 1 to 1m\$" \
		"--io-size $v: the message gives the accepted range"
done
for v in 0.001 999999999; do
	accepted --files-per-dir "$v" || fail "--files-per-dir $v refused"
done
for v in 0 1000000000; do
	run_clyde tree -d "$T/no-such-dir" --files-per-dir "$v"
	assert_file_match "$T/err" \
		"^clyde tree: --files-per-dir $v: must be above 0 and below 1000000000\$" \
		"--files-per-dir $v: the message gives the accepted range"
done
ok "every tree range message matches the parser"

# ---- out of descriptors: the phase is named ---------------------------------
DEEP=$T/deep
p=$DEEP
for _ in $(seq 40); do
	p=$p/d
done
mkdir -p "$p"
save=(--no-save)
((HAVE_SQLITE)) && save=(--db "$T/new.db")
RC=0
(
	ulimit -n 16
	exec "$CLYDE" tree --existing "$DEEP" --phases stat_walk \
		--no-drop-caches -q "${save[@]}"
) >"$T/out" 2>"$T/err" || RC=$?
expect_rc 3 "a walk out of descriptors: exit 3"
assert_file_match "$T/err" \
	'^clyde tree: stat_walk: .*Too many open files \(the limit is 16 descriptors: ulimit -n\)$' \
	"the message names the phase and the limit"
# A run that fails saves nothing and leaves no new history behind.
[[ ! -e $T/new.db ]] || fail "a failed tree run made $T/new.db"
ok "a failed run makes no history"

# A tree kept with --keep is not named as the leftover of a killed run.
K=$(new_dir kept)
run_clyde tree -d "$K" --files 40 --phases extract --keep --no-save -q
expect_rc 0 "tree --keep"
run_clyde -d "$K" -s 0 -n 1 --no-save -q
expect_rc 0 "a run beside a kept tree"
assert_file_no_match "$T/err" 'was left by a clyde run' \
	"a kept tree is not called a leftover"
# clyde tree names a killed run's scratch directory as clyde run does,
# and not the kept tree beside it.
sleep 0 &
dead=$!
wait "$dead" || true
mkdir "$K/clyde.$dead"
run_clyde tree -d "$K" --files 40 --phases extract --no-save -q
expect_rc 0 "a tree beside a stale scratch directory and a kept tree"
assert_file_match "$T/err" \
	"^clyde: note: $K/clyde\\.$dead was left by a clyde run that is gone; remove it with: rm -rf -- '$K'/clyde\\.$dead\$" \
	"tree names the stale directory and the command that removes it"
assert_eq "$(grep -c 'was left by' "$T/err")" 1 \
	"tree names the stale directory only, not the kept tree"
rmdir "$K/clyde.$dead"
rm -rf -- "${K:?}"/clyde.*
run_clyde tree -d "$K" --files 40 --keep --no-save -q
expect_rc 0 "tree --keep with the default phases"
[[ -d $(find "$K" -mindepth 2 -maxdepth 2 -name tree) ]] ||
	fail "tree --keep with the default phases deleted the tree it kept"
ok "tree --keep leaves out the delete phase"
rm -rf -- "${K:?}"/clyde.*
run_clyde tree -d "$K" --files 40 --keep --phases extract,delete --no-save -q
expect_rc 1 "tree --keep --phases ...,delete is refused"
assert_file_match "$T/err" '^clyde tree: --keep: the delete phase' "and says why"
assert_empty_dir "$K" "nothing written for --keep with delete"

# A generated tree that does not fit (bytes or inodes) is refused before
# anything is written, with both figures, instead of filling the disk.
if [[ $(id -u) -eq 0 ]]; then
	R=$T/room
	mkdir "$R"
	mount -t tmpfs -o size=4m,nr_inodes=1000,mode=755 tmpfs "$R" ||
		fail "cannot mount a small tmpfs"
	at_exit "umount -l '$R'"
	run_clyde tree -d "$R" --files 500 --no-save --no-drop-caches -q
	expect_rc 1 "a tree bigger than the free space: exit status 1"
	assert_file_match "$T/err" '^clyde tree: the tree needs [0-9]+ bytes but .* has only [0-9]+ free$' \
		"the message gives both sizes"
	assert_empty_dir "$R" "nothing written for a tree too big"
	run_clyde tree -d "$R" --dirs 2000 --files 10 --no-save --no-drop-caches -q
	expect_rc 1 "a tree with more entries than free inodes: exit status 1"
	assert_file_match "$T/err" '^clyde tree: the tree needs [0-9]+ inodes but .* has only [0-9]+ free$' \
		"the message gives both counts"
	assert_empty_dir "$R" "nothing written for a tree with too many entries"
	# A shape that cannot be built is refused with the reason alone (no
	# errno applies: no ": Invalid argument").
	run_clyde tree -d "$R" --dirs 300 --depth 1 --fanout 2 --files 1 \
		--no-save --no-drop-caches -q
	expect_rc 1 "a tree shape that does not fit: exit status 1"
	assert_file_match "$T/err" \
		'^clyde tree: 300 directories do not fit in depth 1 with at most 2 subdirectories each$' \
		"the message gives the reason alone"
fi

done_testing
