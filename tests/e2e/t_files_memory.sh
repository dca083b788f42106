#!/usr/bin/env bash
# The file tests keep no per-file memory (issue 21, item 4: flat memory at
# 16k, 128k and 1M files).  Each name is made again from its index when a
# test needs it, and the random tests' order is a permutation computed one
# index at a time (src/workloads/bonnie_files.c).  Before, every name was
# kept, 40 bytes a file: 5 MiB more at -n 128 than at -n 8.
#
# 1. Peak RSS (/usr/bin/time) of -s 0 -n 8 and -n 128 on a tmpfs: at most
#    1.5 MiB apart (was 5.4 MiB on this VM; flat now within 0.3 MiB).
# 2. Random stat and random delete each visit every one of the 1024 files of
#    -n 1 once, in an order that is neither the index order nor the other
#    test's (strace: the index is the name's last ten hex digits).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd strace python3
require_cmd "peak RSS" /usr/bin/time
new_tmpfs_dir d
d=$DIR

rss()
{
	local n=$1 rc=0
	/usr/bin/time -f '%M' -o "$T/rss.$n" "$CLYDE" -d "$d" -s 0 -n "$n" \
		-r 0 -q --no-save >"$T/out.$n" 2>&1 || rc=$?
	[[ $rc -eq 0 ]] || fail "clyde -s 0 -n $n failed (exit $rc): $(tail -n 3 "$T/out.$n")"
	tail -n 1 "$T/rss.$n"
}
small=$(rss 8)
big=$(rss 128)
[[ $small =~ ^[0-9]+$ && $big =~ ^[0-9]+$ ]] ||
	fail "no peak RSS from /usr/bin/time: '$small' '$big'"
grow=$((big - small))
echo "peak RSS: -n 8 ${small} KiB, -n 128 ${big} KiB (+${grow} KiB)"
((grow <= 1536)) ||
	fail "peak RSS grew by $grow KiB from 8k to 128k files (at most 1536): names are kept per file"
ok "peak RSS of -n 128 within 1.5 MiB of -n 8's (+$grow KiB)"

strace -f -qq --seccomp-bpf -e trace=newfstatat,unlinkat -o "$T/strace" \
	"$CLYDE" -d "$d" -s 0 -n 1 -r 0 -q --no-save >"$T/sout" 2>&1 ||
	fail "clyde -s 0 -n 1 under strace failed: $(tail -n 3 "$T/sout")"
run_checker "$T/strace" <<'PY'
import re, sys

calls = {"newfstatat": [], "unlinkat": []}
for line in open(sys.argv[1]):
    m = re.search(r'(newfstatat|unlinkat)\(\d+, "([^"/]*/)?([A-Za-z0-9]+)"', line)
    if m and line.rstrip().endswith("= 0"):
        calls[m.group(1)].append(m.group(3))
orders = {}
for call, test in (("newfstatat", "random stat"), ("unlinkat", "random delete")):
    names = calls[call][-1024:]
    try:
        idx = [int(n[-10:], 16) for n in names]
    except ValueError:
        print(f"FAIL {test}: a name without a hex index: {names[:3]}")
        continue
    if sorted(idx) != list(range(1024)):
        print(f"FAIL {test}: {len(set(idx))} distinct of 1024 files, "
              f"{len(idx)} calls")
        continue
    if idx == sorted(idx) or idx == sorted(idx, reverse=True):
        print(f"FAIL {test}: the files in index order")
        continue
    orders[test] = idx
    print(f"ok {test}: every file once, in a random order")
if len(orders) == 2:
    same = orders["random stat"] == orders["random delete"]
    print(("FAIL" if same else "ok") +
          " random stat and random delete: " +
          ("the same order" if same else "orders of their own"))
PY
done_testing
