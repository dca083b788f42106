#!/usr/bin/env bash
# Bad command lines and unusable -d directories: exit status 1, exactly one
# line on stderr that names the option or the path, nothing on stdout, and
# nothing created (no scratch directory, no --json file, nothing in the
# working directory).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

d=$(new_dir d)
cwd=$(new_dir cwd)
cd "$cwd"

# bad RE ARGS...: clyde ARGS fails as described; RE must match the line.
bad()
{
	local re=$1 what
	shift
	what="clyde $*"
	run_clyde "$@"
	expect_rc 1 "$what: exit status 1"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "$what: one line on stderr"
	assert_file_match "$T/err" "$re" "$what: the message names it"
	assert_eq "$(wc -c <"$T/out" | tr -d ' ')" 0 "$what: nothing on stdout"
	assert_empty_dir "$d" "$what: nothing created in -d"
	assert_empty_dir "$cwd" "$what: nothing created in the working directory"
	[[ ! -e $T/run.json ]] || fail "$what: the --json file was created"
}

ok_args=(-d "$d" -r 0 --json "$T/run.json")
bad '-s.*12x' "${ok_args[@]}" -s 12x
bad '-s.*100' "${ok_args[@]}" -s 64m:100
bad '-s.*3000' "${ok_args[@]}" -s 64m:3000
bad '-c.*0' "${ok_args[@]}" -s 16m -c 0
bad '-c.*201' "${ok_args[@]}" -s 16m -c 201
bad '-n.*10.*20' "${ok_args[@]}" -n 1:10:20
bad '-n.*0' "${ok_args[@]}" -n 1:0:0:0
bad '-y.*q' "${ok_args[@]}" -s 16m -y q
bad 'stray' "${ok_args[@]}" -s 16m stray
bad '-Q' "${ok_args[@]}" -Q
bad '-m' "${ok_args[@]}" -s 16m -m
bad 'pattern.*foo' "${ok_args[@]}" -s 16m --pattern foo
bad '-z.*abc' "${ok_args[@]}" -s 16m -z abc
bad '-s.*-n|-n.*-s' "${ok_args[@]}" -s 0 -n 0
bad "$T/missing" -d "$T/missing" -s 16m -n 0 -r 0 --json "$T/run.json"
[[ ! -e $T/missing ]] || fail "the missing -d directory was created"
touch "$T/file"
bad "$T/file" -d "$T/file" -s 16m -n 0 -r 0 --json "$T/run.json"
assert_eq "$(count_files "$T/file")" 0 "the -d file is still empty"
bad "$T/missing" -d "$d" -s 16m -n 0 -r 0 -Z "$T/missing"

# A read-only filesystem is an unusable -d directory too.
if [[ $(id -u) -eq 0 ]]; then
	mkdir "$T/ro"
	if mount -t tmpfs -o ro,size=1m tmpfs "$T/ro"; then
		at_exit "umount -l '$T/ro'"
		bad "$T/ro" -d "$T/ro" -s 16m -n 0 -r 0
	fi
fi

done_testing
