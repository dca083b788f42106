#!/usr/bin/env bash
# Without -s (and without -r) clyde sizes the IO tests itself from a short
# calibration write, within half of the free space, instead of bonnie++'s
# twice-the-RAM; -r N keeps bonnie++'s rule.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3
mount_loop ext4 700
d=$MNT/work
mkdir "$d"
free_mib=$(($(stat -f -c '%a * %S' "$d") / 1048576))

run_clyde -d "$d" -n 0 -f -q --json "$T/auto.json"
expect_rc 0 "a run without -s succeeds"
size=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["config"]; print(c["file_size_mib"] if c["size_auto"] else -1)' "$T/auto.json")
[[ $size -gt 0 ]] || fail "config.size_auto is not set or the size is 0"
ok "the size was chosen by clyde ($size MiB)"
[[ $size -le $((free_mib / 2)) ]] ||
	fail "$size MiB is more than half of the $free_mib MiB free"
ok "the size is within half of the free space ($free_mib MiB)"
assert_match "$(tail -n 1 "$T/out")" "^1\.98,[^,]*,[^,]*,1,[0-9]+,${size}M," \
	"the CSV line carries the chosen size"

run_clyde -d "$d" -n 0 -f -q -r 100 -x 1
expect_rc 0 "-r 100 without -s succeeds"
assert_match "$(tail -n 1 "$T/out")" "^1\.98,[^,]*,[^,]*,1,[0-9]+,300M," \
	"-r keeps bonnie++'s rule: max(300, 2 x RAM) MiB"
assert_empty_dir "$d" "nothing left behind"
done_testing
