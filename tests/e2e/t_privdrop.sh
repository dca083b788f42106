#!/usr/bin/env bash
# -u and -g: root drops to the given user and group before touching the -d
# directory: the scratch directory belongs to them, a directory they cannot
# write is refused with exit status 1, and a run as root without -u works.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
id nobody >/dev/null 2>&1 || skip "no user nobody"
nobody_uid=$(id -u nobody)
nobody_gid=$(id -g nobody)
# A group that is not nobody's own, to see that -g/-u :group take effect.
grp="" gid=""
for g in users staff daemon; do
	gid=$(getent group "$g" | cut -d: -f3) || continue
	[[ $gid != "$nobody_gid" ]] && grp=$g && break
done

w=$(new_dir writable)
chown nobody "$w"
nw=$(new_dir notwritable)

# owner_of_scratch DIR ARGS...: run clyde paused before its first test and
# print "uid gid" of the scratch directory it made in DIR.
owner_of_scratch()
{
	local dir=$1 s
	shift
	start_paused -d "$dir" -s 16m -n 0 -f -r 0 -q --no-save "$@"
	# shellcheck disable=SC2317 # called by wait_for
	made()
	{
		s=$(find "$dir" -mindepth 1 -maxdepth 1 -name 'clyde.*' |
			head -n 1)
		[[ -n $s ]]
	}
	wait_for 10 made || { finish_paused; show_output; fail "no scratch made"; }
	stat -c '%u %g' "$s" >"$T/owner"
	finish_paused
}

run_clyde -d "$w" -u nobody -s 16m -n 1 -f -r 0 -q --no-save
expect_rc 0 "-u nobody on a directory nobody can write"
assert_empty_dir "$w" "the scratch directory is removed"

owner_of_scratch "$w" -u nobody
expect_rc 0 "-u nobody paused run finishes"
assert_eq "$(cat "$T/owner")" "$nobody_uid $nobody_gid" \
	"the scratch directory belongs to nobody and nobody's group"

if [[ -n $grp ]]; then
	owner_of_scratch "$w" -u "nobody:$grp"
	expect_rc 0 "-u nobody:$grp"
	assert_eq "$(cat "$T/owner")" "$nobody_uid $gid" \
		"-u user:group: the scratch belongs to that group"
	owner_of_scratch "$w" -u nobody -g "$grp"
	expect_rc 0 "-u nobody -g $grp"
	assert_eq "$(cat "$T/owner")" "$nobody_uid $gid" \
		"-g: the scratch belongs to that group"
else
	skip_part "-g and -u user:group: no group here other than nobody's"
fi

run_clyde -d "$nw" -u nobody -s 16m -n 1 -f -r 0 -q --no-save
expect_rc 1 "-u nobody on a directory nobody cannot write"
assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "one line on stderr"
assert_file_match "$T/err" "$nw" "the message names the directory"
assert_empty_dir "$nw" "nothing created"
assert_file_no_match "$T/out" '1\.98,' "no CSV line"

run_clyde -d "$w" -u nobody -g no-such-group-here -s 16m -n 0 -r 0 -q
expect_rc 1 "-g with an unknown group"
assert_file_match "$T/err" 'no-such-group-here' "the message names the group"

# A history only root can write (issue 30, 2.3): the run saves it as
# nobody, so it is refused before the first test with one line naming the
# database, instead of running and ending in "not saved".
hd=$(new_dir history)
run_clyde -d "$w" -s 4m -n 0 -f -r 0 -q --db "$hd/h.db"
expect_rc 0 "root makes a history"
chmod 755 "$hd"
chmod 644 "$hd/h.db"
run_clyde -d "$w" -u nobody -s 4m -n 0 -f -r 0 --db "$hd/h.db"
expect_rc 1 "-u nobody with a history only root can write is refused"
assert_eq "$(cat "$T/err")" "clyde: --db: $hd/h.db: user nobody (uid $nobody_uid) cannot write it: Permission denied (give another --db or --no-save)" \
	"  up front, in one line naming the database and the user"
assert_file_no_match "$T/out" 'Writing|done' "  before the first test"
chmod 666 "$hd/h.db"
run_clyde -d "$w" -u nobody -s 4m -n 0 -f -r 0 -q --db "$hd/h.db"
expect_rc 1 "-u nobody with a history in a directory only root can write"
assert_file_match "$T/err" "^clyde: --db: $hd/h.db: user nobody \\(uid $nobody_uid\\) cannot write the directory it is in" \
	"  is refused naming the database"
chmod 777 "$hd"
run_clyde -d "$w" -u nobody -s 4m -n 0 -f -r 0 -q --db "$hd/h.db"
expect_rc 0 "-u nobody with a history nobody can write saves"
run_clyde history --db "$hd/h.db" list
assert_eq "$(($(wc -l <"$T/out") - 1))" 2 "  the history has root's run and nobody's"

# Root without -u: allowed (bonnie++ refused), and stays root.
owner_of_scratch "$nw"
expect_rc 0 "root without -u runs"
assert_eq "$(cat "$T/owner")" "0 0" "without -u the scratch belongs to root"
assert_empty_dir "$nw" "the scratch directory is removed"

done_testing
