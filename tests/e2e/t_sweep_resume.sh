#!/bin/bash
# clyde sweep interrupted at each stage of a visit -- during a setup
# command, right after a sysfs write (a crash: SIGKILL), during a workload,
# during the teardown -- then --resume ID: the sysfs value is restored,
# nothing stays mounted or attached, and the resumed experiment finishes
# without redoing the runs that had finished.
# shellcheck source=tests/e2e/lib.sh disable=SC2317
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/sweep_lib.sh
. "$E2E_DIR/sweep_lib.sh"

need_root
need_cmd losetup mkfs.ext4 findmnt sqlite3
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi
at_exit sweep_release_all

DB=$T/h.db

# A small experiment with a hook at each stage; a hook fires once, at
# point 2 of repeat 1, and leaves a marker.  Each visit notes the loop
# device it captured and its read_ahead_kb before the write.
cat >"$T/exp.ini" <<'INI'
[experiment]
name = resume
repeat = 2
axis ra = 16 32 64 256

[vars]
dir = /tmp/unset
once = [ {point}{repeat} = 21 ] && [ ! -e {dir}/fired ] && touch {dir}/fired
hook_setup = true
hook_set = true
hook_work = true
hook_teardown = true

[point]
setup = mkdir -p {dir}/mnt
setup = truncate -s 32m {dir}/fs.img
capture loop = basename "$(losetup -f --show {dir}/fs.img)"
setup = echo {loop} > {dir}/loop && cat /sys/block/{loop}/queue/read_ahead_kb > {dir}/ra-before
setup = {hook_setup}
set /sys/block/{loop}/queue/read_ahead_kb = {ra}
setup = {hook_set}
setup = mkfs.ext4 -q -F /dev/{loop} && mount /dev/{loop} {dir}/mnt
teardown = {hook_teardown}
teardown = umount {dir}/mnt || true
teardown = [ -z "{loop}" ] || losetup -d /dev/{loop}
teardown = rm -f {dir}/fs.img

[workload write]
time = {hook_work}; dd if=/dev/zero of={dir}/mnt/f bs=64k count=16 conv=fsync status=none
path = {dir}/mnt
INI

# ra_restored DIR MSG: the loop device the last visit used has the
# read_ahead_kb it had before the visit's write.
ra_restored()
{
	local loop
	loop=$(cat "$1/loop")
	assert_eq "$(cat "/sys/block/$loop/queue/read_ahead_kb")" \
		"$(cat "$1/ra-before")" "$2 ($loop)"
}

# ok_ids ID: the ids of the experiment's finished runs, in order.
ok_ids()
{
	sqlite3 "$DB" "SELECT group_concat(id) FROM (SELECT id FROM experiment_runs WHERE exp_id = '$1' AND status = 'ok' ORDER BY id)"
}

# stage NAME HOOK=CMD [external]: run the experiment with that hook, let it
# be interrupted, check the restore and the cleanup, resume, check that it
# finished without redoing the runs that had finished.
stage()
{
	local name=$1 hook=$2 how=${3:-} dir=$T/$1 id pid before after i
	local crash_loop crash_ra crash_tmp
	mkdir -p "$dir"
	"$CLYDE" sweep -q --db "$DB" --define "dir=$dir" --define "$hook" \
		"$T/exp.ini" >"$T/out" 2>"$T/err" &
	pid=$!
	if [[ $how == external ]]; then
		wait_for 60 test -e "$dir/fired" || fail "$name: hook never ran"
		sleep 0.2
		kill -INT "$pid"
	fi
	RC=0
	for ((i = 0; i < 600; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" &&
		fail "$name: clyde sweep did not stop"
	wait "$pid" || RC=$?
	id=$(sweep_id)
	[[ -n $id ]] || fail "$name: no experiment id"
	if [[ $how == crash ]]; then
		expect_rc 137 "$name: clyde was killed"
		[[ -e $DB.sweep-$id.journal ]] ||
			fail "$name: no restore journal after the crash"
		ok "$name: the restore journal is there"
		crash_tmp=$(sed -n 's/^tmp\t\([^\t]*\)\t.*/\1/p' \
			"$DB.sweep-$id.journal" | tail -n 1)
		[[ -d $crash_tmp ]] || fail "$name: the journal names no work directory"
		crash_loop=$(cat "$dir/loop")
		crash_ra=$(cat "$dir/ra-before")
		[[ $(cat "/sys/block/$crash_loop/queue/read_ahead_kb") != "$crash_ra" ]] ||
			fail "$name: the crash came before the write"
	else
		expect_rc 5 "$name: interrupted, exit 5"
		assert_file_match "$T/err" "--resume $id" "$name: says how to resume"
		ra_restored "$dir" "$name: read_ahead_kb restored"
		assert_eq "$(mounts_under "$dir")" 0 "$name: nothing mounted"
		assert_eq "$(loops_under "$dir")" 0 "$name: loop device detached"
	fi
	before=$(ok_ids "$id")
	run_clyde sweep -q --db "$DB" --resume "$id"
	expect_rc 0 "$name: --resume finished"
	ra_restored "$dir" "$name: read_ahead_kb as before"
	if [[ $how == crash ]]; then
		[[ ! -e $crash_tmp ]] || fail "$name: $crash_tmp left behind"
		ok "$name: the crashed run's work directory was removed"
		assert_eq "$(cat "/sys/block/$crash_loop/queue/read_ahead_kb")" \
			"$crash_ra" "$name: the journal restored $crash_loop"
	fi
	assert_eq "$(mounts_under "$dir")" 0 "$name: nothing mounted after resume"
	assert_eq "$(loops_under "$dir")" 0 "$name: no loop device after resume"
	assert_eq "$(runs_of "$DB" "$id" ok)" 8 "$name: 4 points x 2 repeats, once each"
	after=$(ok_ids "$id")
	[[ -n $before && $after == "$before",* ]] ||
		fail "$name: the runs before the interruption changed: '$before' -> '$after'"
	ok "$name: the runs saved before the interruption were kept, not redone"
	assert_eq "$(table_rows "$T/out")" 4 "$name: the table has every point"
	table_body "$T/out"
	assert_file_no_match "$T/out.rows" '(failed|\(n=1\)| - )' "$name: two samples each"
	[[ ! -e $DB.sweep-$id.journal ]] || fail "$name: journal left"
}

# SIGINT from a setup command (clyde stops it, tears down, restores).
stage setup "hook_setup={once} && kill -INT \$CLYDE_SWEEP_PID && sleep 30 || true"
# A crash right after the sysfs write: the journal restores it on resume.
stage set "hook_set={once} && kill -KILL \$CLYDE_SWEEP_PID || true" crash
# SIGINT from outside while a workload runs.
stage workload "hook_work={once} && sleep 30 || true" external
# SIGINT during the teardown: it goes on to the end, then clyde stops.
stage teardown "hook_teardown={once} && kill -INT \$CLYDE_SWEEP_PID || true"

done_testing
