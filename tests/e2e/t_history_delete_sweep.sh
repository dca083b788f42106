#!/bin/bash
# `clyde history delete` of a run that is a sweep's sample (issue 30,
# 2.4): the experiment's row is marked "deleted" instead of keeping a
# dangling run id "ok"; delete says which sweep it belonged to; `sweep
# --show` says a sample was deleted; `sweep --resume` measures it again,
# after which the table is whole and says nothing of it.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd sqlite3
if "$CLYDE" sweep --dry-run /dev/null 2>&1 | grep -q "without libinih"; then
	skip "built without libinih"
fi
DB=$T/h.db
new_tmpfs_dir scratch
S=$DIR

cat >"$T/exp.ini" <<INI
[experiment]
name = del
repeat = 2
axis sz = 4m 8m

[workload b]
run = -d $S -s {sz} -n 0 -f -r 0
INI

run_clyde sweep -q --db "$DB" "$T/exp.ini"
expect_rc 0 "a sweep of 2 points x 2 repeats"
id=$(sed -n 's/^experiment \([^:]*\):.*/\1/p' "$T/out" | head -n 1)
[[ -n $id ]] || fail "no experiment id in the sweep's table"
q()
{
	sqlite3 "$DB" "$1"
}
assert_eq "$(q 'SELECT count(*) FROM runs')" 4 "4 runs stored"
victim=$(q "SELECT run_id FROM experiment_runs WHERE exp_id = '$id' ORDER BY id LIMIT 1 OFFSET 1")
[[ -n $victim ]] || fail "no run id in the experiment's rows"

run_clyde history --db "$DB" delete "$victim"
expect_rc 0 "history delete of a sweep's run"
assert_file_match "$T/out" "sample of sweep $id.*--resume $id" \
	"delete says which sweep the run belonged to"
assert_eq "$(q 'SELECT count(*) FROM experiment_runs r WHERE run_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM runs WHERE id = r.run_id)')" \
	0 "no experiment row points to a deleted run"
assert_eq "$(q "SELECT count(*) FROM experiment_runs WHERE status = 'ok' AND run_id IS NULL AND kind != 'time'")" \
	0 "no experiment row is ok without a run"
assert_eq "$(q "SELECT count(*) FROM experiment_runs WHERE status = 'deleted'")" \
	1 "the sample's row is marked deleted"

run_clyde sweep --db "$DB" --show "$id"
expect_rc 0 "sweep --show"
assert_file_match "$T/out" "^1 sample was deleted from the history .*--resume $id" \
	"sweep --show says a sample was deleted"

run_clyde sweep -q --db "$DB" --resume "$id"
expect_rc 0 "sweep --resume"
assert_eq "$(q 'SELECT count(*) FROM runs')" 4 "resume measured the deleted sample again"
assert_eq "$(q "SELECT count(*) FROM experiment_runs WHERE exp_id = '$id' AND status = 'ok'")" \
	4 "the experiment has its 4 samples"
run_clyde sweep --db "$DB" --show "$id"
expect_rc 0 "sweep --show after the resume"
assert_file_no_match "$T/out" "deleted" "the table no longer speaks of a deleted sample"

done_testing
