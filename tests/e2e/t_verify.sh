#!/usr/bin/env bash
# clyde run --verify: the block write and the rewrite stamp every 4 KiB
# block (offset, generation, seed, checksum) and the file is read back
# before the next test.  A clean run checks every block and says so in
# the JSON; a byte changed in the file between the block write and the
# rewrite (-y p holds clyde there) is found at its block's offset, with
# what was expected and found, exit 3 and nothing stored; a block of the
# block write put back after the rewrite (a lost rewrite) is found as the
# older generation; without --verify the same change goes unnoticed.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3 mkfifo dd

SIZE_MIB=16
BLOCKS=$((SIZE_MIB * 256))

saved_runs()
{
	"$CLYDE" history list 2>/dev/null | grep -c -- "$1" || true
}

# --- a clean run ----------------------------------------------------------
new_tmpfs_dir clean
run_clyde -d "$DIR" -s "${SIZE_MIB}m" -n 0 -f -r 0 -q --verify \
	-m verify-clean --json "$T/clean.json"
expect_rc 0 "--verify on a healthy filesystem: exit 0"
got=$(python3 - "$T/clean.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
r = j["runs"][0]
t = {x["name"]: x for x in r["tests"]}
print(j["config"]["verify"],
      t["put_block"]["verified_blocks"], t["rewrite"]["verified_blocks"],
      t["get_block"]["verified_blocks"])
EOF
)
assert_eq "$got" "True $BLOCKS $BLOCKS 0" \
	"the JSON says verify and counts every 4 KiB block of the block write and the rewrite"
assert_eq "$(saved_runs verify-clean)" 1 "the verified run is stored"

# pause_after_write DIR ARGS...: clyde -y p up to the prompt before the
# rewrite (the block write done and closed); its file is left in $FILE.
pause_after_write()
{
	local d=$1
	shift
	start_paused -d "$d" -s "${SIZE_MIB}m" -n 0 -f -r 0 -q "$@"
	step # the block write
	# shellcheck disable=SC2317 # called by wait_for
	prompts()
	{
		(($(grep -c "press Enter" "$T/err") >= $1)) ||
			! kill -0 "$CLYDE_PID" 2>/dev/null
	}
	wait_for 60 prompts 2 || fail "clyde did not reach the rewrite's prompt"
	FILE=$(find "$d" -mindepth 2 -type f -name 'io.*' | head -n 1)
	[[ -n $FILE ]] || fail "no IO file in $d"
}

# flip FILE OFFSET: change the byte at OFFSET.
flip()
{
	python3 - "$1" "$2" <<'EOF'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    b = f.read(1)
    f.seek(int(sys.argv[2]))
    f.write(bytes([b[0] ^ 0x10]))
EOF
}

# --- a byte changed between the block write and the rewrite --------------
new_tmpfs_dir bad
pause_after_write "$DIR" --verify -m verify-bad --json "$T/bad.json"
flip "$FILE" 1234567
step # the rewrite: the block write is checked first
finish_paused
expect_rc 3 "a changed byte under --verify: exit 3"
off=$((1234567 / 4096 * 4096))
assert_file_match "$T/err" \
	"block write: --verify: $FILE at offset $off \\(4096 bytes\\): expected generation 1 seed [0-9]+, found corrupted contents \\(its header says offset $off generation 1" \
	"the message names the test, the file, the block's offset, what was expected and found"
assert_file_match "$T/err" "; 1 of $BLOCKS blocks wrong" "one block of $BLOCKS is wrong"
assert_eq "$(saved_runs verify-bad)" 0 "nothing of the failed run is stored"
if [[ -s $T/bad.json ]]; then
	assert_no_match "$(python3 -c 'import json,sys; print([t["state"] for t in json.load(open(sys.argv[1]))["runs"][0]["tests"]])' "$T/bad.json")" \
		"done" "the JSON of the failed run has no test done"
else
	ok "no JSON written for the failed run"
fi
assert_eq "$(find "$DIR" -mindepth 1 | wc -l)" 0 "the scratch directory is removed"

# --- a lost rewrite: a block of the block write put back ----------------
new_tmpfs_dir lost
pause_after_write "$DIR" --verify -m verify-lost
cp "$FILE" "$T/after-write"
step # the rewrite (the block write checks out)
# shellcheck disable=SC2317 # called by wait_for
after_rewrite() { (($(grep -c "press Enter" "$T/err") >= 3)) || ! kill -0 "$CLYDE_PID" 2>/dev/null; }
wait_for 60 after_rewrite || fail "clyde did not reach the prompt after the rewrite"
dd if="$T/after-write" of="$FILE" bs=4096 skip=100 seek=100 count=1 \
	conv=notrunc status=none
step # the per-char read is skipped (-f): the block read, after the check
finish_paused
expect_rc 3 "a lost rewrite under --verify: exit 3"
assert_file_match "$T/err" \
	"rewrite: --verify: $FILE at offset 409600 \\(4096 bytes\\): expected generation 2 seed ([0-9]+), found the block of offset 409600 generation 1 seed \\1 \\(a lost or misplaced write\\)" \
	"the lost rewrite is found at its offset as the block write's block"
assert_eq "$(saved_runs verify-lost)" 0 "nothing of the lost-write run is stored"
rm -f "$T/after-write"

# --- --runtime goes round the same file: no false alarm of lost writes --
# The block write rewrites its 16 MiB file for 2 s (gigabytes written);
# the page cache coalesces the rewrites and the disk takes the file once.
# That is all the disk owes, not a lost write.
if [[ $(id -u) -eq 0 ]]; then
	mount_loop ext4 200
	mkdir "$MNT/work"
	run_clyde -d "$MNT/work" --runtime 2 -s 16m -n 0 -f -r 0 \
		--json "$T/runtime.json" -m verify-runtime
	expect_rc 0 "--runtime over a 16 MiB file on ext4: exit 0"
	assert_no_match "$(cat "$T/out" "$T/err")" "lost writes" \
		"no lost-writes warning when --runtime rewrote the same file"
	got=$(python3 - "$T/runtime.json" <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
t = {x["name"]: x for x in r["tests"]}
print(t["put_block"]["bytes"] > 2 * (16 << 20),
      t["put_block"]["io"]["writes_lost"], t["rewrite"]["io"]["writes_lost"])
EOF2
)
	assert_eq "$got" "True False False" \
		"the block write wrote its file more than twice and no test is flagged writes_lost"
else
	skip_part "--runtime on a loop-mounted ext4 needs root"
fi

# --- without --verify nobody looks --------------------------------------
new_tmpfs_dir unverified
pause_after_write "$DIR" -m verify-none
flip "$FILE" 1234567
finish_paused
expect_rc 0 "the same change without --verify: exit 0 (not checked)"

done_testing
