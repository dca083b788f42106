#!/usr/bin/env bash
# Post D on a real kernel, at small sizes: examples/posts/md-stripe-cache.ini
# over a RAID5 of four disks: every stripe_cache_size point runs; the
# array's value is back to 256 after the sweep, and after a SIGKILL in the
# middle plus --resume.
#
# vm-disks: 4
# vm-disk-size: 128M
# vm-timeout: 300
# shellcheck source=tests/vm/guest_lib.sh
. "$(dirname "$0")/guest_lib.sh"
need_disks 4
export XDG_DATA_HOME=$T/xdg
MD=/dev/md0
SCS=/sys/block/md0/md/stripe_cache_size
CLYDE_TIMEOUT=200
opts=(-q --define md=md0 --define "disks=${VDS[*]:0:4}" --define count=1)

md_create $MD 5 64 4
assert_eq "$(cat $SCS)" 256 "a new raid5 has stripe_cache_size 256"
run_clyde sweep "${opts[@]}" --define repeats=1 \
	"$CLYDE_SRC/examples/posts/md-stripe-cache.ini"
evidence sweep-md-stripe-cache.txt "$T/out"
cp "$T/err" "$VM_OUT/sweep-md-stripe-cache.err"
expect_rc 0 "md-stripe-cache.ini ran every point"
for scs in 256 512 768 1024 2048 4096 8192 16384 32768; do
	assert_file_match "$T/out" "^ *$scs " "the table has stripe_cache_size $scs"
done
assert_eq "$(cat $SCS)" 256 "stripe_cache_size restored to 256 after the sweep"

# SIGKILL while a point's value is set, then --resume.
"$CLYDE" sweep "${opts[@]}" --define repeats=1 \
	"$CLYDE_SRC/examples/posts/md-stripe-cache.ini" >"$T/kill.out" 2>&1 &
pid=$!
for ((i = 0; i < 600; i++)); do
	[[ $(cat $SCS) != 256 ]] && break
	sleep 0.1
done
kill -KILL "$pid"
RC=0
wait "$pid" || RC=$?
expect_rc 137 "clyde sweep killed with SIGKILL"
killed_at=$(cat $SCS)
[[ $killed_at != 256 ]] || fail "the kill came before the first write"
ok "killed with stripe_cache_size at $killed_at"
"$CLYDE" sweep --list >"$T/list" 2>&1 || fail "clyde sweep --list"
# "20261201-211126-md-stripe-cache   interrupted   FILE": the killed one
# (its sweep holds no lock any more, so --list does not say running).
id=$(awk '$2 == "interrupted" && $1 ~ /md-stripe-cache$/ { print $1 }' "$T/list")
[[ -n $id ]] || { cat "$T/list" >&2; fail "no experiment id in --list"; }
run_clyde sweep -q --resume "$id"
expect_rc 0 "--resume $id finished"
assert_eq "$(cat $SCS)" 256 "stripe_cache_size restored to 256 after SIGKILL and --resume"
md_stop $MD 4

assert_file_no_match /proc/mdstat "^md" "no md array left running"
done_testing
