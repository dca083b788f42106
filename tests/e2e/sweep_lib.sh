# Helpers shared by the clyde sweep tests (t_sweep.sh, t_sweep_resume.sh);
# sourced after lib.sh.
#
# shellcheck shell=bash

# Every loop device whose backing file is below $T, and every mount below
# $T, released at exit whatever happened.
sweep_release_all()
{
	local m d
	while read -r m; do
		umount -l "$m"
	done < <(findmnt -rn -o TARGET | grep -F "$T/" | sort -r)
	while read -r d; do
		losetup -d "$d"
	done < <(losetup -a | grep -F "$T/" | cut -d: -f1)
}

# mounts_under DIR / loops_under DIR: how many are left.
mounts_under()
{
	findmnt -rn -o TARGET | grep -cF "$1/" || true
}

loops_under()
{
	losetup -a | grep -cF "$1/" || true
}

# sweep_id: the id the last `clyde sweep` printed on stderr.
sweep_id()
{
	sed -n 's/^clyde sweep: experiment \([^ ]*\) .*/\1/p' "$T/err" | head -n 1
}

# runs_of DB ID [STATUS]: rows of the experiment in the history.
runs_of()
{
	local q="SELECT count(*) FROM experiment_runs WHERE exp_id = '$2'"
	if [[ -n ${3:-} ]]; then
		q="$q AND status = '$3'"
	fi
	sqlite3 "$1" "$q"
}

# table_rows FILE: the rows of the experiment table in FILE (after the
# "experiment ID: title" line and the header, up to the blank line).
table_rows()
{
	awk 'NR > 2 && /^$/ { exit } NR > 2 { n++ } END { print n + 0 }' "$1"
}

# table_body FILE: those rows, into FILE.rows.
table_body()
{
	awk 'NR > 2 && /^$/ { exit } NR > 2' "$1" >"$1.rows"
}
