#!/usr/bin/env bash
# The real-kernel harness itself (tests/vm/vm.sh, docs/testing.md): no qemu
# or no kernel package is a skip (77) naming what is missing; bad options
# are refused with one line; a guest that does not finish is killed at the
# time limit and the run fails with the guest's console tail.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
VM=$CLYDE_SRC/tests/vm/vm.sh
SCRIPT=$CLYDE_SRC/tests/vm/t_lvm.sh

# No qemu: skip, naming it.
RC=0
CLYDE_VM_QEMU=qemu-none-such bash "$VM" "$SCRIPT" >"$T/out" 2>&1 || RC=$?
assert_eq "$RC" 77 "no qemu: exit 77 (skip)"
assert_file_match "$T/out" "SKIP: no qemu-none-such .*qemu-system-x86" \
	"no qemu: says which and the package"

# No kernel package where one is given, and none in the cache: skip.
RC=0
CLYDE_VM_CACHE=$T/cache CLYDE_VM_KERNEL_DEB=$T/none.deb \
	bash "$VM" "$SCRIPT" >"$T/out" 2>&1 || RC=$?
assert_eq "$RC" 77 "no kernel package: exit 77 (skip)"
assert_file_match "$T/out" "SKIP: no kernel package at $T/none.deb" \
	"no kernel package: says where it looked"

# Bad options: one line naming the option, exit 1.
for bad in "--disks 99" "--timeout 0" "--mem 12" "--frobnicate"; do
	RC=0
	# shellcheck disable=SC2086 # the option and its value, split
	bash "$VM" $bad "$SCRIPT" >"$T/out" 2>&1 || RC=$?
	assert_eq "$RC" 1 "vm.sh $bad: exit 1"
	assert_eq "$(wc -l <"$T/out")" 1 "vm.sh $bad: one line"
	assert_file_match "$T/out" "^vm: .*${bad%% *}" "vm.sh $bad: names the option"
done

# A guest that hangs: killed at the limit, the console tail shown.  Boots
# a guest (software emulation): skipped when there is no qemu or kernel.
command -v qemu-system-x86_64 >/dev/null 2>&1 || skip "no qemu-system-x86_64"
mkdir -p "$T/hang"
# The script must be outside /tmp (the guest has its own /tmp).
HANG=$(mktemp "$CLYDE_SRC/tests/vm/.hang.XXXXXX")
at_exit "rm -f '$HANG'"
printf '# vm-disks: 0\necho hanging\nsleep 600\n' >"$HANG"
RC=0
timeout 200 bash "$VM" --timeout 15 "$HANG" >"$T/out" 2>&1 || RC=$?
[[ $RC -eq 77 ]] && skip "no kernel package: $(tail -n 1 "$T/out")"
assert_eq "$RC" 1 "a hanging guest: exit 1"
assert_file_match "$T/out" "the guest did not finish within 15s: killed" \
	"a hanging guest: killed at the limit, said so"
assert_file_match "$T/out" "^--- guest console" "a hanging guest: the console tail is shown"
assert_eq "$(pgrep -f -c "$HANG" || true)" 0 "no qemu left running"
done_testing
