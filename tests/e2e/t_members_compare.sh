#!/usr/bin/env bash
# The storage stack in "what differs": two runs on ext4 made with
# different stride and stripe_width values are told apart by the stack's
# keys in the report (fs stripe unit and width) and in compare's text,
# Markdown and CSV, and settings that are the same stay out of that part.
# A tree run's member table in the report carries its JSON's bytes.
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
	TREE_DIR=$mnt/work
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

# compare: the same keys in its "what differs" lines, text and Markdown;
# CSV has them as setting columns.
for fmt in text markdown csv; do
	run_clyde compare "$T/s16.json" "$T/s4.json" --format "$fmt"
	expect_rc 0 "clyde compare --format $fmt of the two runs"
	cp "$T/out" "$T/compare.$fmt"
done
run_checker "$T/compare.text" "$T/compare.markdown" "$T/compare.csv" <<'PY'
import csv, sys
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
for path, fmt in zip(sys.argv[1:3], ("text", "markdown")):
    text = open(path).read()
    start = text.find("what differs")
    check(start >= 0, f"{fmt}: compare has a what-differs part")
    part = text[start:text.find("\n\n", start)]
    for key, a, b in (("fs stripe unit", "64 KiB", "16 KiB"),
                      ("fs stripe width", "192 KiB", "32 KiB")):
        line = [l for l in part.splitlines() if l.strip().startswith(key + ":")]
        check(len(line) == 1 and f"{a} (stride16)" in line[0]
              and f"{b} (stride4)" in line[0],
              f"{fmt}: what differs names {key}: {line}")
    check("block size" not in part, f"{fmt}: the same block size is left out")
rows = list(csv.reader(open(sys.argv[3])))
head = rows[0]
for key, a, b in (("fs stripe unit", "64 KiB", "16 KiB"),
                  ("fs stripe width", "192 KiB", "32 KiB")):
    col = "setting: " + key
    check(col in head and [r[head.index(col)] for r in rows[1:]] == [a, b],
          f"csv: a column {col!r} with {a}, {b}")
PY

# A tree run: its phases' members in the report, with the JSON's bytes.
run_clyde tree -d "$TREE_DIR" --files 300 --size fixed:16k -m tree \
	--no-save --json "$T/tree.json"
expect_rc 0 "a clyde tree run on ext4"
run_clyde report "$T/tree.json" -o "$T/tree.html"
expect_rc 0 "clyde report of the tree run"
run_checker "$T/tree.html" "$T/tree.json" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))
def check(cond, what):
    print(("ok " if cond else "FAIL ") + what)
start = page.find('<h2 id="members">')
check(start >= 0, "the tree report has a member-disks part")
row = re.compile(r'<tr><td>([^<]*)</td><td>([^<]*)</td>'
                 r'<td class="num" title="(\d+) B">[^<]*</td>'
                 r'<td class="num" title="(\d+) B">')
got = {(t, d): (int(r), int(w)) for t, d, r, w in row.findall(page[start:])}
want = {(p["name"], m["device"]): (m["read_bytes"], m["write_bytes"])
        for p in doc["runs"][0]["phases"] for m in p.get("members", [])}
check(want and got == want,
      f"one row per phase and member with the JSON's bytes: {sorted(want)[:3]}")
PY
done_testing
