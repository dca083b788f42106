#!/bin/bash
# clyde sweep: the experiment files of examples/ parse and dry-run; the
# loop-device examples run end to end with small sizes and two repeats:
# a table with a row per point, every run in the history, nothing left
# mounted or attached, sysfs values restored.
# shellcheck source=tests/e2e/lib.sh disable=SC2317
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

EX=$CLYDE_SRC/examples
DB=$T/h.db

if ! "$CLYDE" sweep --help >/dev/null 2>&1; then
	fail "clyde sweep --help"
fi
run_clyde sweep --dry-run "$EX/loop/btrfs-profiles.ini"
if grep -q "without libinih" "$T/err"; then
	skip "built without libinih"
fi

need_cmd sqlite3

# --- every example dry-runs, and says every command in order -------------
for f in "$EX"/loop/*.ini "$EX"/posts/*.ini; do
	run_clyde sweep --dry-run --define repeats=2 "$f"
	expect_rc 0 "dry run of $(basename "$f")"
done
# examples/README.md's quick-run variables name a variable of every loop
# example: a --define the file does not define is an error.
for f in "$EX"/loop/*.ini; do
	run_clyde sweep --dry-run --define repeats=2 --define dev_size=512m "$f"
	expect_rc 0 "--define dev_size=512m is a variable of $(basename "$f")"
	assert_file_match "$T/out" '512m' "  and it is used"
done
run_clyde sweep --dry-run --define dev_sise=512m "$EX/loop/loop-readahead.ini"
expect_rc 1 "a --define the file does not define is refused"
assert_file_match "$T/err" '^clyde sweep: --define dev_sise=512m: .*loop-readahead.ini defines no variable dev_sise \(its \[vars\]: repeats, dir, dev_size\)$' \
	"  naming the variables it has"
# -D and -n are clyde run's (bonnie++'s O_DIRECT and file count): sweep
# refuses them with one line naming its own long option, and runs nothing.
run_clyde sweep -D repeats=2 --dry-run "$EX/loop/loop-readahead.ini"
expect_rc 1 "sweep -D is refused"
assert_eq "$(cat "$T/err")" "clyde sweep: -D: not a clyde sweep option (in clyde run it is bonnie++'s O_DIRECT); use --define NAME=VALUE" \
	"  with one line naming --define"
[[ ! -s $T/out ]] || fail "sweep -D wrote to stdout"
run_clyde sweep -qn "$EX/loop/loop-readahead.ini"
expect_rc 1 "sweep -n (grouped: -qn) is refused"
assert_eq "$(cat "$T/err")" "clyde sweep: -n: not a clyde sweep option (in clyde run it is bonnie++'s file count); use --dry-run" \
	"  with one line naming --dry-run"
run_clyde sweep --help
assert_file_no_match "$T/out" '^ +-[Dn][, ]' "sweep --help lists no -D or -n"
run_clyde sweep --dry-run --define repeats=2 "$EX/loop/loop-readahead.ini"
assert_eq "$(grep -c '^# point' "$T/out")" 8 "4 points x 2 repeats listed"
assert_eq "$(sed -n 's/^# point \([0-9]*\).*/\1/p' "$T/out" | tr '\n' ' ')" \
	"1 2 3 4 1 2 3 4 " "repeats interleaved: A B C D A B C D"
assert_file_match "$T/out" '^capture <loop>: basename ' \
	"a captured variable is listed"
assert_file_match "$T/out" '^set /sys/block/<loop>/queue/read_ahead_kb = 4096$' \
	"the sysfs write is listed with its value"
assert_file_match "$T/out" '^restore /sys/block/<loop>/queue/read_ahead_kb$' \
	"and its restore"
assert_file_match "$T/out" '^time read: dd if=/dev/<loop> ' "the timed command"

# --- errors name the file and line ---------------------------------------
printf '[experiment]\nname = x\n[workload w]\ntime = echo {nope}\n' >"$T/bad.ini"
run_clyde sweep --dry-run "$T/bad.ini"
expect_rc 1 "an unknown placeholder is refused"
assert_file_match "$T/err" "bad.ini:4: unknown placeholder \\{nope\\}" \
	"the message names file:line"
printf '[experiment]\nname = m\n[point]\nsetup = touch %s/ran\n[workload w]\ntime = true\n' \
	"$T" >"$T/m.ini"
run_clyde sweep -q --db "$T/m.db" --metrics time.w,tmie.w "$T/m.ini"
expect_rc 1 "a mistyped --metrics key is refused"
assert_file_match "$T/err" '^clyde sweep: --metrics "tmie.w": not a metric' \
	"the message names the key"
[[ ! -e $T/ran ]] || fail "a mistyped --metrics key ran the experiment"
ok "nothing ran for a mistyped --metrics key"
# clyde run's options are checked at every point before any setup runs.
printf '[experiment]\nname = o\naxis sz = 16m 32m\n[point]\nsetup = touch %s/ran\n[workload b]\nrun = -d %s -s {sz}:bogus -n 0\n' \
	"$T" "$T" >"$T/o.ini"
run_clyde sweep -q --db "$T/o.db" "$T/o.ini"
expect_rc 1 "a bad run option is refused"
assert_file_match "$T/err" 'o.ini:7: workload b, point 1: -s chunk: "bogus"' \
	"the message names file:line, workload, point and option"
[[ ! -e $T/ran && ! -e $T/o.db ]] || fail "a bad run option ran a setup or made a history"
ok "nothing ran for a bad run option"
# A key whose workload exists but whose metric does not is only found at
# the table: the runs are saved, and the exit status says it failed.
run_clyde sweep -q --db "$T/m.db" --metrics time.w.nope "$T/m.ini"
expect_rc 1 "a table that cannot be printed is a failure"
assert_file_match "$T/err" 'metric "time.w.nope": not in the experiment' \
	"the message names the metric"
rm -f "$T/ran"
for args in "--bogus $T/m.ini" "$T/m.ini $T/m.ini" ""; do
	# shellcheck disable=SC2086 # the words are the arguments
	run_clyde sweep $args
	expect_rc 1 "clyde sweep $args: a usage error"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "clyde sweep $args: one line"
	assert_file_match "$T/err" 'see clyde sweep --help$' "and where to look"
done
run_clyde sweep --dry-run "$T"
expect_rc 1 "a directory is not an experiment file"
assert_file_match "$T/err" "clyde sweep: $T: not a regular file" \
	"the message says it is not a regular file"
run_clyde sweep --dry-run /dev/zero
expect_rc 1 "/dev/zero is not read as an experiment file"
head -c 2000000 /dev/zero >"$T/huge.ini"
run_clyde sweep --dry-run "$T/huge.ini"
expect_rc 1 "a 2 MB experiment file is refused"
assert_file_match "$T/err" "huge.ini: 2000000 bytes, larger than" \
	"the message gives its size"

# --- failures, -k, until-stable, random order (timed commands only) -------
cat >"$T/fail.ini" <<'INI'
[experiment]
name = fail
repeat = 2
axis n = 1..3 +1
[point]
setup = echo building {n}
setup = [ {n} != 2 ] || { echo "no device for {n}" >&2 && exit 1; }
teardown = echo torn {n} >> {dir}/teardowns
[vars]
dir = /tmp
[workload t]
time = true
INI
run_clyde sweep -q --db "$DB" --define "dir=$T" "$T/fail.ini"
expect_rc 3 "a failed point stops the sweep: exit 3"
assert_file_match "$T/err" 'point 2 \(n=2\) repeat 1 failed: setup .*exit status 1' \
	"the failed command is named"
assert_file_match "$T/err" '^    no device for 2$' "with its output"
assert_eq "$(cat "$T/teardowns")" "$(printf 'torn 1\ntorn 2')" \
	"the teardown ran for the failed point too, then the sweep stopped"
rm -f "$T/teardowns"
run_clyde sweep -q -k --db "$DB" --define "dir=$T" "$T/fail.ini"
expect_rc 3 "-k: exit 3 after going on"
assert_eq "$(wc -l <"$T/teardowns")" 6 "-k: every visit ran and was torn down"
assert_file_match "$T/out" '^2 +failed' "the failed point is marked in the table"
assert_file_match "$T/out" '^3 +[0-9]' "the points after it ran"

cat >"$T/stable.ini" <<'INI'
[experiment]
name = stable
until-stable = 50
max-runs = 4
order = random
seed = 7
axis n = a b c d
[workload t]
time = true
INI
run_clyde sweep --dry-run "$T/stable.ini"
order1=$(sed -n 's/^# point \([0-9]*\).*/\1/p' "$T/out" | tr -d '\n')
run_clyde sweep --dry-run "$T/stable.ini"
order2=$(sed -n 's/^# point \([0-9]*\).*/\1/p' "$T/out" | tr -d '\n')
assert_eq "$order1" "$order2" "a seeded random order is the same every time"
[[ $order1 != 12341234 ]] || fail "random order is not shuffled: $order1"
ok "random order: $order1"
run_clyde sweep -q --db "$DB" "$T/stable.ini"
expect_rc 0 "until-stable finished"
id=$(sweep_id)
n=$(runs_of "$DB" "$id" ok)
((n >= 8 && n <= 16)) || fail "until-stable: $n runs, want 8..16"
ok "until-stable: $n runs (2 to 4 per point)"

# --- the loop-device examples, for real ----------------------------------
need_root
need_cmd losetup mkfs.ext4 mkfs.xfs mkfs.btrfs findmnt
at_exit sweep_release_all

# run_example NAME POINTS RUNS_PER_VISIT --define ...: run it, check the table
# and the history.
run_example()
{
	local name=$1 points=$2 per=$3 id rows
	shift 3
	run_clyde sweep -q --db "$DB" --define repeats=2 --define "dir=$T/$name" "$@" \
		"$EX/loop/$name.ini"
	expect_rc 0 "$name: sweep finished"
	id=$(sweep_id)
	[[ -n $id ]] || fail "$name: no experiment id on stderr"
	rows=$(table_rows "$T/out")
	assert_eq "$rows" "$points" "$name: a table row per point"
	table_body "$T/out"
	assert_file_no_match "$T/out.rows" '(failed|\(n=1\)| - )' \
		"$name: every point has its two samples"
	assert_eq "$(runs_of "$DB" "$id" ok)" $((points * 2 * per)) \
		"$name: every run saved in the history"
	assert_eq "$(mounts_under "$T/$name")" 0 "$name: nothing left mounted"
	assert_eq "$(loops_under "$T/$name")" 0 "$name: no loop device left"
	cp "$T/out" "$T/$name.table"
}

run_example btrfs-profiles 5 2 --define dev_size=300m --define dd_mib=8 \
	--define "run_opts=-s 8 -n 0 -r 0 -f"
BT_ID=$(sweep_id)
assert_file_match "$T/btrfs-profiles.table" '^raid10 +raid10 +[0-9]' \
	"btrfs: zipped axes, one row per profile"
assert_file_match "$T/btrfs-profiles.table" 'block write' \
	"btrfs: the bonnie++ rates are the columns"

run_example ext4-journal 6 1 --define dev_size=64m --define journal_size=16m \
	--define "run_opts=-s 8 -n 0 -r 0 -f"
run_example xfs-logbsize 4 1 --define dev_size=300m --define "run_opts=-s 8 -n 0 -r 0 -f"
run_example ext4-atime 3 1 --define dev_size=64m --define files=200
assert_file_match "$T/ext4-atime.table" 'read walk' "atime: the tree phases"

# best_mark_check ROWS: the rows of a one-metric table whose every point
# has two samples or more ("NAME MEAN ± HW [flags] MARK", lower is better)
# are marked as clyde_exp_mark() says: every cell has a mark (★ * ~ =);
# at most one ★, on a row with the least mean; without one, the best is
# marked as its runner-up (a tie), so it shares the mark of a row with the
# next mean (of another row with the least mean when the printed means
# tie).  Prints "ok ..." or what is wrong.
best_mark_check()
{
	awk '
	{
		m = $NF
		if (m != "★" && m != "*" && m != "~" && m != "=") {
			print "row " $1 " has no mark: " $0; bad = 1; exit
		}
		n++; name[n] = $1; mean[n] = $2 + 0; mark[n] = m
		if (m == "★") { stars++; star = n }
	}
	END {
		if (bad) exit
		if (n < 2) { print "fewer than two rows"; exit }
		lo = mean[1]
		for (i = 2; i <= n; i++) if (mean[i] < lo) lo = mean[i]
		if (stars > 1) { print stars " rows marked ★"; exit }
		if (stars == 1) {
			if (mean[star] != lo)
				print "★ on " name[star] " (" mean[star] "), the least mean is " lo
			else
				print "ok: ★ on " name[star] ", the least mean"
			exit
		}
		k = 0
		for (i = 1; i <= n; i++) if (mean[i] == lo) { k++; b = i }
		if (k > 1) {
			# Tied: the best and its runner-up are among them.
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (mean[i] == lo && mean[j] == lo && mark[i] == mark[j]) {
					print "ok: tie of " name[i] " and " name[j] " marked " mark[i]; exit
				}
			print "the rows tied at the least mean " lo " share no mark"; exit
		}
		if (mark[b] == "*") { print "the best " name[b] " is marked worse"; exit }
		nx = ""
		for (i = 1; i <= n; i++) if (i != b && (nx == "" || mean[i] < nx)) nx = mean[i]
		for (i = 1; i <= n; i++)
			if (i != b && mean[i] == nx && mark[i] == mark[b]) {
				print "ok: best " name[b] " marked " mark[b] " as its runner-up " name[i]; exit
			}
		print "the best " name[b] " is marked " mark[b] ", not as its runner-up (mean " nx ")"
	}' "$1"
}

ra_values()
{
	local f
	for f in /sys/block/loop*/queue/read_ahead_kb; do
		echo "$f $(cat "$f")"
	done
}
ra_values >"$T/ra.before"
run_example loop-readahead 4 1 --define dev_size=4m
RA_ID=$(sweep_id)
ra_values | grep -Fxv -f "$T/ra.before" | cut -d/ -f4 >"$T/ra.changed" || true
while read -r d; do
	if grep -q "^/sys/block/$d/" "$T/ra.before"; then
		fail "read_ahead_kb of $d not restored: $(cat "/sys/block/$d/queue/read_ahead_kb")"
	fi
done <"$T/ra.changed"
ok "read_ahead_kb restored"
assert_file_match "$T/loop-readahead.table" 'read time' \
	"a timed command's seconds"

# Per-member counters of the timed write on the four btrfs devices.
run_clyde sweep --db "$DB" --show "$BT_ID" --metrics all
expect_rc 0 "--metrics all"
assert_match "$(sed -n 2p "$T/out")" 'write loop[0-9]+ write.*write loop[0-9]+ write.*write loop[0-9]+ write.*write loop[0-9]+ write' \
	"each btrfs member's write rate is a column"

# The runs are normal runs of the history, and the table can be shown again.
"$CLYDE" history --db "$DB" list >"$T/list" 2>&1 || fail "history list"
assert_eq "$(grep -c ' btrfs ' "$T/list")" 10 "history list sees the runs"
run_clyde sweep --db "$DB" --show "$RA_ID"
expect_rc 0 "sweep --show"
assert_eq "$(table_rows "$T/out")" 4 "the stored table"
table_body "$T/out"
table_body "$T/loop-readahead.table"
assert_eq "$(cat "$T/out.rows")" "$(cat "$T/loop-readahead.table.rows")" \
	"the stored table's rows are the live table's, marks and all"
# The marks of the one metric (read time: lower is better), from the
# cells: the legend below the table has every mark, so a match anywhere
# in the output could not fail.
best=$(best_mark_check "$T/out.rows")
assert_match "$best" '^ok' "the best point's cell is marked: $best"
run_clyde report --experiment "$RA_ID" --db "$DB" -o "$T/exp.html"
expect_rc 0 "clyde report --experiment of a sweep"
assert_file_match "$T/exp.html" 'read_ahead_kb|loop-readahead' "the report names it"
run_clyde sweep --db "$DB" --list
assert_eq "$(grep ' finished ' "$T/out" | grep -c 'examples/loop/')" 5 \
	"the five loop examples are listed as finished"

done_testing
