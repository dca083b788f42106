#!/usr/bin/env bash
# The storage stack in "what differs": two runs on ext4 made with
# different stride and stripe_width values are told apart by the stack's
# keys in the report (fs stripe unit and width), and settings that are
# the same stay out of that part.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3 mkfs.ext4 losetup mount umount

# ext4 with -E stride=$1,stripe_width=$2 on a loop device; runs clyde
# there with the result in $T/s$1.json.
run_on_stride()
{
	local img=$T/img.$1 dev mnt=$T/mnt.$1
	truncate -s 200M "$img"
	mkfs.ext4 -F -q -b 4096 -E "stride=$1,stripe_width=$2" "$img" \
		>/dev/null 2>&1 || fail "mkfs.ext4 -E stride=$1 failed"
	dev=$(losetup -f --show "$img" 2>/dev/null) ||
		skip "no loop device available"
	at_exit "losetup -d '$dev'"
	mkdir "$mnt"
	mount "$dev" "$mnt" || skip "cannot mount ext4"
	at_exit "umount -l '$mnt'"
	mkdir "$mnt/work"
	run_clyde -d "$mnt/work" -s 8m -n 0 -f -r 0 -m "stride$1" --no-save \
		--json "$T/s$1.json"
	expect_rc 0 "a run on ext4 with stride $1"
}

run_on_stride 16 48
run_on_stride 4 8
run_clyde report "$T/s16.json" "$T/s4.json" -o "$T/r.html"
expect_rc 0 "clyde report of the two runs"
run_checker "$T/r.html" <<'PY'
import re, sys
html = open(sys.argv[1]).read()
start = html.find('id="differs"')
end = html.find("<details", start)
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
check(start >= 0 and end > start, "the report has a what-differs part")
differs = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ",
                 html[start:end].replace("<wbr>", "")))
for key, a, b in (("fs stripe unit", "64 KiB", "16 KiB"),
                  ("fs stripe width", "192 KiB", "32 KiB")):
    check(key in differs and a in differs and b in differs,
          f"what differs names {key}: {a} vs {b}")
check("block size" not in differs, "the same block size is not set apart")
same = re.sub(r"<[^>]+>", " ", html[end:])
check("block size" in same and "members" in same,
      "the stack's equal settings are under 'same in all results'")
PY
done_testing
