#!/bin/bash
# clyde tree on a generated tree: reproducible generation, the asked shape,
# every phase visiting exactly the entries an independent walk (find) sees,
# the read walk reading exactly the sum of the sizes, parallel workers
# adding up, the CSV line, and nothing left behind.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd python3 find

# kept_tree DIR: the tree a --keep run left in DIR.
kept_tree()
{
	local t
	t=$(find "$1" -mindepth 2 -maxdepth 2 -path '*/clyde.*/tree' | head -n 1)
	[[ -n $t ]] || fail "no kept tree in $1"
	echo "$t"
}

# listing TREE: every path relative to TREE with its type and size.
listing()
{
	(cd "$1" && find . -printf '%y %s %p\n' | LC_ALL=C sort)
}

# jq-like access without jq: json FILE EXPR (python on d = the document).
json()
{
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# --- generation is reproducible -------------------------------------------
for s in 7a 7b 8; do
	D=$(new_dir "gen$s")
	run_clyde tree -d "$D" --files 1500 --seed "${s%[ab]}" --phases extract \
		--keep -q --no-drop-caches --json "$T/gen$s.json"
	expect_rc 0 "extract with seed ${s%[ab]} ($s)"
	listing "$(kept_tree "$D")" >"$T/list.$s"
done
cmp -s "$T/list.7a" "$T/list.7b" ||
	fail "same seed, different trees: $(diff "$T/list.7a" "$T/list.7b" | head -n 5)"
ok "same seed: same paths, types and sizes"
cmp -s "$T/list.7a" "$T/list.8" && fail "seeds 7 and 8 gave the same tree"
ok "another seed: another tree"

# --- the shape ---------------------------------------------------------------
TREE=$(kept_tree "$T/gen7a")
assert_eq "$(find "$TREE" -type f | wc -l)" 1500 "1500 files"
# home: 4.3 files per directory: round(1500 / 4.3) = 349 directories.
assert_eq "$(find "$TREE" -type d | wc -l)" 349 "349 directories (4.3 files each)"
assert_eq "$(json "$T/gen7a.json" "d['tree']['dirs']")" 349 "JSON tree.dirs"
maxdepth=$(find "$TREE" -type d -printf '%d\n' | sort -n | tail -n 1)
((maxdepth <= 8)) || fail "home preset deeper than 8: $maxdepth"
ok "depth $maxdepth <= 8"
sum=$(find "$TREE" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
assert_eq "$(json "$T/gen7a.json" "d['tree']['bytes']")" "$sum" \
	"planned bytes = bytes on disk"
assert_eq "$(json "$T/gen7a.json" "d['runs'][0]['phases'][0]['bytes']")" "$sum" \
	"extract wrote the sum of the sizes"

D=$(new_dir shape)
run_clyde tree -d "$D" --files 500 --dirs 31 --depth 2 --fanout 5 \
	--size fixed:3k --seed 1 --phases extract --keep -q --no-drop-caches
expect_rc 0 "explicit shape"
S=$(kept_tree "$D")
assert_eq "$(find "$S" -type d | wc -l)" 31 "--dirs 31"
assert_eq "$(find "$S" -mindepth 3 -type d | wc -l)" 0 "--depth 2: nothing deeper"
assert_eq "$(find "$S" -type f -size -3072c -o -type f -size +3072c | wc -l)" 0 \
	"--size fixed:3k: every file 3072 bytes"
wide=$(find "$S" -mindepth 1 -type d -printf '%h\n' | sort | uniq -c |
	awk '$1 > 5' | wc -l)
assert_eq "$wide" 0 "--fanout 5: no directory has more than 5 subdirectories"
run_clyde tree -d "$D" --files 10 --dirs 50 --depth 1 --fanout 3
expect_rc 1 "an impossible shape is refused"
assert_file_match "$T/err" "do not fit" "and the message says why"

mail=$(new_dir mail)
run_clyde tree -d "$mail" --preset mail --files 3400 --seed 3 --phases extract -q --no-drop-caches \
	--json "$T/mail.json"
expect_rc 0 "mail preset"
assert_eq "$(json "$T/mail.json" "d['tree']['dirs']")" 100 "mail: 34 files per directory"
assert_no_leftovers "$mail"

# --- all phases: each visits exactly what find sees --------------------------
# The kept tree of seed 7 is the tree a seed-7 run generates, so find's
# counts on it are the counts every phase of that run must report.
ent=$(find "$TREE" | wc -l)
files=$(find "$TREE" -type f | wc -l)
dirs=$(find "$TREE" -type d | wc -l)
D=$(new_dir all)
run_clyde tree -d "$D" --files 1500 --seed 7 -w 3 --json "$T/all.json" \
	--csv "$T/runs.csv"
expect_rc 0 "all phases"
assert_file_match "$T/out" '^par_read_walk +3 ' "text table has a row per phase"
assert_file_match "$T/out" '^par_read_walk workers \(busy' "and each worker's time"
n=$(json "$T/all.json" "len(d['runs'][0]['phases'])")
assert_eq "$n" 6 "six phases in the JSON"
for p in 0 1 2 3 4 5; do
	name=$(json "$T/all.json" "d['runs'][0]['phases'][$p]['name']")
	got=$(json "$T/all.json" "'%d %d %d' % tuple(d['runs'][0]['phases'][$p][k] for k in ('entries','files','dirs'))")
	assert_eq "$got" "$ent $files $dirs" "$name: entries, files, dirs as find counts"
done
for p in 2 4; do
	name=$(json "$T/all.json" "d['runs'][0]['phases'][$p]['name']")
	assert_eq "$(json "$T/all.json" "d['runs'][0]['phases'][$p]['bytes']")" "$sum" \
		"$name read exactly the sum of the file sizes"
done
for p in 3 4; do
	name=$(json "$T/all.json" "d['runs'][0]['phases'][$p]['name']")
	got=$(json "$T/all.json" "'%d %d' % (len(d['runs'][0]['phases'][$p]['workers']), sum(w['entries'] for w in d['runs'][0]['phases'][$p]['workers']))")
	assert_eq "$got" "3 $ent" "$name: 3 workers whose entries add up to the total"
done
got=$(json "$T/all.json" "sorted(d['runs'][0]['phases'][2]['latency'].keys())")
assert_eq "$got" "['open', 'read', 'readdir', 'stat']" "read walk latencies: readdir, stat, open, read"
got=$(json "$T/all.json" "sorted(d['runs'][0]['phases'][5]['latency'].keys())")
assert_eq "$got" "['open', 'readdir', 'unlink']" "delete latencies"
got=$(json "$T/all.json" "d['runs'][0]['phases'][1]['latency']['stat']['count']")
assert_eq "$got" "$ent" "stat walk: one lstat per entry"
got=$(json "$T/all.json" "(d['schema'], d['schema_version'], d['kind'], d['config']['seed'], d['target']['mount_opts'] != '')")
assert_eq "$got" "('clyde-result', 1, 'tree', 7, True)" "JSON envelope with mount options"
if [[ $(id -u) -eq 0 ]]; then
	assert_eq "$(json "$T/all.json" "d['runs'][0]['phases'][1]['cache']['dropped']")" \
		True "root: caches dropped"
else
	assert_match "$(json "$T/all.json" "d['runs'][0]['phases'][1]['cache']['reason']")" \
		'could not be dropped' "not root: says the cache could not be dropped"
fi
assert_no_leftovers "$D"

# --- the CSV line -------------------------------------------------------------
[[ $(wc -l <"$T/runs.csv") -eq 2 ]] || fail "runs.csv: want header + 1 line"
hdr=$(head -n 1 "$T/runs.csv")
line=$(tail -n 1 "$T/runs.csv")
assert_eq "$(csv_nfields "$line")" "$(csv_nfields "$hdr")" "CSV line has as many fields as the header"
assert_eq "$(csv_nfields "$hdr")" 94 "94 CSV columns"
col()
{
	local i
	i=$(tr ',' '\n' <<<"$hdr" | grep -nx "$1" | cut -d: -f1)
	csv_field "$line" "$i"
}
assert_eq "$(col format)" clyde-tree-1 "CSV format tag"
assert_eq "$(col stat_walk_entries)" "$ent" "CSV stat_walk_entries"
assert_eq "$(col read_walk_bytes)" "$sum" "CSV read_walk_bytes"
# A second run appends a line, no second header.
run_clyde tree -d "$D" --files 200 --seed 2 --phases stat_walk -q --csv "$T/runs.csv" \
	--no-drop-caches
expect_rc 0 "second run"
assert_eq "$(wc -l <"$T/runs.csv")" 3 "second run appends one line"
assert_eq "$(csv_field "$(tail -n 1 "$T/runs.csv")" 22)" 0 \
	"noatime column: off on a generated tree by default"
[[ -z $(csv_field "$(tail -n 1 "$T/runs.csv")" 47) ]] ||
	fail "read_walk did not run but its CSV field is set"
ok "phases not run leave empty CSV fields"
run_clyde tree -d "$D" --files 100 --seed 2 --phases stat_walk -q --csv - --no-drop-caches
expect_rc 0 "--csv -"
assert_eq "$(wc -l <"$T/out")" 2 "--csv - prints the header and the line"
run_clyde tree -d "$D" --files 100 --seed 2 --phases stat_walk --json - --no-drop-caches
expect_rc 0 "--json -"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" ||
	fail "--json -: standard output is not the JSON alone"
assert_file_match "$T/err" 'entries/s' "--json -: the table goes to stderr"
ok "--json -: only the JSON on standard output"
run_clyde tree -d "$D" --files 100 --json - --csv -
expect_rc 1 "--json - with --csv -"
assert_file_match "$T/err" 'only one of them' "--json - --csv - refused"

# --- --phases -----------------------------------------------------------------
run_clyde tree -d "$D" --files 300 --seed 4 --phases read_walk -q --json "$T/p.json" \
	--no-drop-caches
expect_rc 0 "--phases read_walk"
assert_eq "$(json "$T/p.json" "[p['name'] for p in d['runs'][0]['phases']]")" \
	"['extract', 'read_walk']" "a generated tree is always extracted first"
run_clyde tree -d "$D" --phases stat_walk,bogus
expect_rc 1 "unknown phase"
assert_file_match "$T/err" 'unknown phase "bogus"' "names the bad phase"
assert_no_leftovers "$D"

done_testing
