# shellcheck shell=bash
# shellcheck disable=SC2034 # FIO_MEM, HUGE_WHY: read by the scripts that source this
#
# hugepages.sh: huge-page buffers for fio, sourced by the benchmarks that
# compare clyde with fio on large direct requests.
#
# clyde makes buffers of 1 MiB and more of huge pages, the pool's
# (/proc/sys/vm/nr_hugepages) first, else transparent ones
# (src/io/iobuf.h), so that a 1 MiB direct request is not split for having
# more scattered pages than the queue's max_segments.  fio's default
# buffers are ordinary pages; given the pool's (--mem=shmhuge: SysV shared
# memory with SHM_HUGETLB) both tools hand the device the same requests
# from the same kind of memory.  The tools run one after the other, so one
# pool serves both.
#
#   huge_setup MIB   as root, add enough 2 MiB pages to the pool for MIB
#                    of buffers and set FIO_MEM to "--mem=shmhuge";
#                    otherwise FIO_MEM stays empty and HUGE_WHY says why
#   huge_restore     put the pool back as it was (call it from the EXIT
#                    trap)

FIO_MEM=
HUGE_WHY=
HUGE_OLD=

huge_setup() {
	local mib=$1 pool=/proc/sys/vm/nr_hugepages want got
	if [ "$(id -u)" -ne 0 ]; then
		HUGE_WHY="not root: fio keeps ordinary pages"
		return 0
	fi
	if [ ! -w "$pool" ]; then
		HUGE_WHY="no $pool: fio keeps ordinary pages"
		return 0
	fi
	HUGE_OLD=$(cat "$pool")
	# A page more per fio job for its rounding, and a few spare.
	want=$((HUGE_OLD + mib / 2 + 8))
	echo "$want" >"$pool" 2>/dev/null || true
	got=$(cat "$pool")
	if [ "$got" -lt "$want" ]; then
		HUGE_WHY="the kernel gave $((got - HUGE_OLD)) of $((want - HUGE_OLD)) huge pages: fio keeps ordinary pages"
		huge_restore
		return 0
	fi
	FIO_MEM=--mem=shmhuge
}

huge_restore() {
	[ -z "$HUGE_OLD" ] || echo "$HUGE_OLD" >/proc/sys/vm/nr_hugepages 2>/dev/null || true
	HUGE_OLD=
}
