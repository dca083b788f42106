#!/usr/bin/env bash
# shellcheck disable=SC2016 # the sh -c scripts expand their own $vars
# A symlink planted at the scratch name clyde.<pid> (the attack on a shared
# /tmp) is neither followed nor removed: clyde picks another name, the
# victim directory is not touched, and the link is still there afterwards.
# The same holds for a directory or file someone else left at that name.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

d=$(new_dir d)
victim=$(new_dir victim)
echo "precious data" >"$victim/canary"
touch -d '2001-02-03 04:05:06' "$victim/canary" "$victim"

snapshot()
{
	(cd "$1" && find . -printf '%p %y %s %T@ %m\n' | sort &&
		cat canary)
}
snapshot "$victim" >"$T/victim.before"

# plant_and_run SCRIPT: run the sh SCRIPT, which plants something at a name
# built from its own pid $$ (and saves $$ in $T/pid), then exec clyde: exec
# keeps that pid, so the planted name is the one clyde tries first.  The
# scripts see the directories as $D and $V.
plant_and_run()
{
	RC=0
	timeout -k 10 "$CLYDE_TIMEOUT" sh -c "$1"' && exec "$CLYDE" -d "$D" -s 16m -n 1 -r 0 -f -q' \
		>"$T/out" 2>"$T/err" || RC=$?
}
export D=$d V=$victim

# 1. A symlink to the victim at clyde.<pid>.
plant_and_run 'ln -s "$V" "$D/clyde.$$" && echo $$ >"$D/../pid"'
expect_rc 0 "run with a symlink planted at clyde.<pid> succeeds"
pid=$(cat "$T/pid")
snapshot "$victim" >"$T/victim.after"
if ! cmp -s "$T/victim.before" "$T/victim.after"; then
	diff "$T/victim.before" "$T/victim.after" >&2 || true
	fail "the victim directory changed"
fi
ok "victim directory unchanged (canary intact, no new files)"
[[ -L $d/clyde.$pid ]] || fail "the planted symlink $d/clyde.$pid is gone"
ok "the planted symlink is still there"
assert_eq "$(readlink "$d/clyde.$pid")" "$victim" \
	"the planted symlink still points at the victim"
assert_eq "$(count_files "$d")" 1 "nothing else left in the -d directory"
rm -f "$d/clyde.$pid" "$T/pid"

# 2. Symlinks at clyde.<pid> and clyde.<pid>.1, and a dangling one at
# clyde.<pid>.2 whose target clyde must not create.
plant_and_run 'ln -s "$V" "$D/clyde.$$" && ln -s "$V" "$D/clyde.$$.1" &&
	ln -s "$V/new" "$D/clyde.$$.2" && echo $$ >"$D/../pid"'
expect_rc 0 "run with three planted symlinks succeeds"
pid=$(cat "$T/pid")
snapshot "$victim" >"$T/victim.after"
cmp -s "$T/victim.before" "$T/victim.after" || fail "the victim directory changed"
ok "victim directory unchanged"
[[ ! -e $victim/new ]] || fail "the dangling symlink's target was created"
ok "the dangling symlink's target was not created"
for n in "" .1 .2; do
	[[ -L $d/clyde.$pid$n ]] || fail "planted symlink clyde.$pid$n is gone"
done
ok "all planted symlinks are still there"
assert_eq "$(count_files "$d")" 3 "nothing else left in the -d directory"
rm -f "$d"/clyde.* "$T/pid"

# 3. Someone else's directory and its file at clyde.<pid>.
plant_and_run 'mkdir "$D/clyde.$$" && echo theirs >"$D/clyde.$$/file" &&
	echo $$ >"$D/../pid"'
expect_rc 0 "run with a foreign directory at clyde.<pid> succeeds"
pid=$(cat "$T/pid")
assert_eq "$(cat "$d/clyde.$pid/file" 2>/dev/null)" theirs \
	"the foreign directory's file is untouched"
assert_eq "$(count_files "$d")" 2 "nothing else left in the -d directory"

done_testing
