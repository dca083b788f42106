#!/usr/bin/env bash
# clyde compare of many runs is linear in them (issue 30, 1.4): a fio
# JSON of 8,000 jobs and a bonnie++ CSV of 4,000 lines each finish well
# within a bound (they took minutes when every run was looked for among
# the others: labels, settings groups, alike runs, "what differs"), and
# the table has every run.  The bound is generous for a loaded machine
# and a sanitizer build; the quadratic code took over 120 s for either.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

require_cmd "making an 8,000-job fio JSON" python3
fixtures=$CLYDE_SRC/tests/fixtures
bound=60

python3 - "$fixtures/fio/fio-two-jobs.json" "$T/fio.json" <<'EOF_PY'
import json, sys
d = json.load(open(sys.argv[1]))
two = d["jobs"]
jobs = []
for i in range(8000):
    j = dict(two[i % 2])
    j["jobname"] = "job%d" % i
    jobs.append(j)
d["jobs"] = jobs
json.dump(d, open(sys.argv[2], "w"))
EOF_PY
# 4,000 bonnie++ 1.98 lines, each of another host.
line=$(head -n 1 "$fixtures/bonnie-1.98.csv")
awk -v line="$line" 'BEGIN {
	n = split(line, f, ",")
	for (i = 0; i < 4000; i++) {
		f[3] = "host" i
		s = f[1]
		for (k = 2; k <= n; k++) s = s "," f[k]
		print s
	}
}' >"$T/many.csv"
[[ $(wc -l <"$T/many.csv") -eq 4000 ]] || fail "the CSV has not 4,000 lines"

check()
{
	local what=$1 last=$2 start took
	shift 2
	start=$SECONDS
	RC=0
	timeout -k 5 "$bound" "$CLYDE" compare "$@" >"$T/out" 2>"$T/err" || RC=$?
	took=$((SECONDS - start))
	if [[ $RC -eq 124 || $RC -eq 137 ]]; then
		fail "$what: clyde compare did not finish within ${bound}s"
	fi
	expect_rc 0 "$what: clyde compare exits 0 (in ${took}s)"
	assert_file_match "$T/out" "$last" "$what: the table has the last run"
}

check "8,000 fio jobs" 'job7999' "$T/fio.json"
check "4,000 CSV lines" 'host3999' "$T/many.csv"
sed 's/,host[0-9]*,/,vm,/' "$T/many.csv" >"$T/one-host.csv"
check "4,000 CSV lines of one host" 'vm#4000' "$fixtures/bonnie-1.98.csv" \
	"$T/one-host.csv"

done_testing
