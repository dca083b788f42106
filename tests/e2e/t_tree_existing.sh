#!/bin/bash
# clyde tree --existing: the tree is only ever read.  Paths, types, sizes,
# modes, mtimes, ctimes and contents are the same afterwards, and so are
# atimes (set in the past, so that relatime would update them on a read
# without O_NOATIME); writing phases are refused with exit 1 before
# anything happens; counts equal find's; symlink loops, a directory loop
# and (as nobody) unreadable directories are counted, never fatal.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_cmd python3 find sha256sum touch

json()
{
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# A small tree with everything a real one has.
X=$(new_dir real)
mkdir -p "$X/docs/old" "$X/src/lib" "$X/empty" "$X/deep/a/b/c/d/e"
for i in $(seq 1 120); do
	head -c $((i * 357)) /dev/urandom >"$X/src/lib/f$i.c"
done
for i in $(seq 1 40); do
	printf 'doc %d\n' "$i" >"$X/docs/old/d$i.txt"
done
: >"$X/docs/zero"
head -c 1000000 /dev/urandom >"$X/deep/a/b/c/d/e/big"
ln -s . "$X/docs/self"
ln -s ../.. "$X/src/lib/up"
ln -s loop2 "$X/loop1"
ln -s loop1 "$X/loop2"
ln -s /nonexistent "$X/dangling"
mkfifo "$X/fifo"

# contents DIR: a hash of every regular file and every symlink's target
# (reads them, so it is taken before the atimes are set).
contents()
{
	(cd "$1" && find . -type f -print0 | LC_ALL=C sort -z |
		xargs -0 sha256sum && find . -type l -printf '%p -> %l\n' |
		LC_ALL=C sort)
}
contents "$X" >"$T/before.sum"
# find's counts, before the atimes are set (find updates them).
ent=$(find "$X" | wc -l)
files=$(find "$X" -type f | wc -l)
dirs=$(find "$X" -type d | wc -l)
links=$(find "$X" -type l | wc -l)
sum=$(find "$X" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')

# Every entry: atime far in the past (older than mtime, so that relatime
# would update it on the next read or readdir).
find "$X" -exec touch -a -h -d '2001-02-03 04:05:06' {} +

# snapshot DIR: type, mode, size, mtime, ctime and atime of every entry.
# find would update the atimes of the directories it reads and of the
# symlinks it reads (relatime), so a walk that opens each directory with
# O_NOATIME and never reads a file or a link takes it.
cat >"$T/snap.py" <<'PY'
import os, stat, sys
out = []
def walk(fd, rel):
    for e in sorted(os.listdir(fd)):
        st = os.lstat(e, dir_fd=fd)
        out.append("%o %d %d %d %d %s/%s" % (st.st_mode, st.st_size,
                   st.st_mtime_ns, st.st_ctime_ns, st.st_atime_ns, rel, e))
        if stat.S_ISDIR(st.st_mode) and (st.st_mode & 0o500) == 0o500:
            sub = os.open(e, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW |
                          os.O_NOATIME, dir_fd=fd)
            walk(sub, rel + "/" + e)
            os.close(sub)
root = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY | os.O_NOATIME)
st = os.fstat(root)
out.append("%o %d %d %d %d ." % (st.st_mode, st.st_size, st.st_mtime_ns,
                                 st.st_ctime_ns, st.st_atime_ns))
walk(root, ".")
print("\n".join(out))
PY
snapshot()
{
	python3 "$T/snap.py" "$1"
}
snapshot "$X" >"$T/before.meta"

# --- writing phases are refused, nothing happens -------------------------
# (`--phases all` is every read-only phase there: t_tree_safety.sh.)
for ph in extract delete stat_walk,delete; do
	run_clyde tree --existing "$X" --phases "$ph"
	expect_rc 1 "--existing with --phases $ph is refused"
	assert_file_match "$T/err" 'only ever read' "and the message says why ($ph)"
done
run_clyde tree --existing "$X" --files 10
expect_rc 1 "--existing with a shape option is refused"
run_clyde tree --existing "$X/src/lib/f1.c"
expect_rc 1 "--existing on a file is refused"
snapshot "$X" >"$T/after-refused.meta"
cmp -s "$T/before.meta" "$T/after-refused.meta" ||
	{ diff "$T/before.meta" "$T/after-refused.meta" | head -n 30 >&2; fail "a refused run changed the tree"; }
ok "refused runs changed nothing"

# --- all read-only phases: exact counts, exact bytes -------------------------
run_clyde tree --existing "$X" -w 4 --json "$T/x.json" --csv "$T/x.csv"
expect_rc 0 "walks of an existing tree"
names=$(json "$T/x.json" "[p['name'] for p in d['runs'][0]['phases']]")
assert_eq "$names" "['stat_walk', 'read_walk', 'par_stat_walk', 'par_read_walk']" \
	"the default phases on an existing tree are the four walks"
for p in 0 1 2 3; do
	name=$(json "$T/x.json" "d['runs'][0]['phases'][$p]['name']")
	got=$(json "$T/x.json" "'%d %d %d %d' % tuple(d['runs'][0]['phases'][$p][k] for k in ('entries','files','dirs','symlinks'))")
	assert_eq "$got" "$ent $files $dirs $links" "$name: entries, files, dirs, symlinks as find counts"
	got=$(json "$T/x.json" "sum(d['runs'][0]['phases'][$p]['errors'].values())")
	assert_eq "$got" 0 "$name: no errors (symlink loops are not followed)"
done
for p in 1 3; do
	assert_eq "$(json "$T/x.json" "d['runs'][0]['phases'][$p]['bytes']")" "$sum" \
		"read walk $p read exactly the sum of the sizes"
done
assert_eq "$(json "$T/x.json" "(d['config']['noatime'], d['tree']['generated'], d['config']['existing'] == sys.argv[1].replace('x.json', 'real'))")" \
	"(True, False, True)" "the record says: existing, O_NOATIME"
assert_eq "$(json "$T/x.json" "d['runs'][0]['phases'][1]['noatime_refused']")" 0 \
	"O_NOATIME was applied to every open"

snapshot "$X" >"$T/after.meta"
if cmp -s "$T/before.meta" "$T/after.meta"; then
	ok "paths, types, modes, sizes, mtimes, ctimes and atimes unchanged"
else
	diff "$T/before.meta" "$T/after.meta" | head -n 10 >&2
	fail "the walk changed the tree's metadata"
fi
contents "$X" >"$T/after.sum"
cmp -s "$T/before.sum" "$T/after.sum" || fail "contents differ after the walk"
ok "contents unchanged"
assert_no_leftovers "$X"

# --- a directory loop (bind mount): counted, not followed forever ------------
snapshot "$X" >"$T/before-loop.meta"
if [[ $(id -u) -eq 0 ]] && mkdir "$X/src/bind" && mount --bind "$X" "$X/src/bind" 2>/dev/null; then
	at_exit "umount -l '$X/src/bind'"
	run_clyde tree --existing "$X" --phases stat_walk,par_stat_walk -w 3 -q \
		--json "$T/loop.json" --no-drop-caches
	expect_rc 0 "a bind-mount loop does not stop the walk"
	for p in 0 1; do
		loops=$(json "$T/loop.json" "d['runs'][0]['phases'][$p]['errors']['loops']")
		((loops >= 1)) || fail "phase $p: loop not counted ($loops)"
	done
	ok "the directory loop is counted"
	umount "$X/src/bind"
	rmdir "$X/src/bind"
	snapshot "$X" >"$T/after-loop.meta"
	# The mount point's own times changed with mkdir/rmdir: compare the
	# files only.
	grep '^100' "$T/before-loop.meta" >"$T/b.f"
	grep '^100' "$T/after-loop.meta" >"$T/a.f"
	cmp -s "$T/b.f" "$T/a.f" || { diff "$T/b.f" "$T/a.f" | head -n 6 >&2; fail "the loop walk changed files"; }
	ok "files unchanged after the loop walk"
else
	skip_part "a bind-mount loop: needs root and mount --bind"
fi

# --- permission denied, as an unprivileged user ------------------------------
RUNAS=()
if [[ $(id -u) -ne 0 ]]; then
	RUNAS=()
elif command -v runuser >/dev/null 2>&1 && runuser -u nobody -- true 2>/dev/null; then
	RUNAS=(runuser -u nobody --)
elif command -v setpriv >/dev/null 2>&1; then
	RUNAS=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
else
	skip_part "permission denied: needs runuser or setpriv to run as nobody"
	done_testing
fi
# The build directory may be out of nobody's reach (a clone in a 0700
# directory): run a copy in $T.
RUNCLYDE=$CLYDE
if [[ ${#RUNAS[@]} -gt 0 ]]; then
	clyde_for_others
	RUNCLYDE=$CLYDE_OTHERS
fi
P=$(new_dir perm)
mkdir -p "$P/open/sub" "$P/closed/inside" "$P/noexec"
echo hello >"$P/open/sub/f"
echo secret >"$P/closed/inside/f"
echo hidden >"$P/noexec/f"
echo private >"$P/open/private"
chmod 000 "$P/closed" "$P/open/private"
chmod 644 "$P/noexec" # readable, not searchable: names but no lstat
chmod 755 "$P" "$P/open" "$P/open/sub"
chmod 644 "$P/open/sub/f"
RC=0
timeout -k 10 "$CLYDE_TIMEOUT" "${RUNAS[@]}" "$RUNCLYDE" tree --existing "$P" \
	--phases stat_walk,read_walk,par_read_walk -w 2 -q --json - \
	>"$T/perm.json" 2>"$T/perm.err" || RC=$?
[[ $RC -eq 0 ]] || fail "unreadable entries made the walk fail ($RC): $(cat "$T/perm.err")"
ok "unreadable directories do not stop the walk"
want=$({ "${RUNAS[@]}" find "$P" 2>/dev/null || true; } | wc -l)
for p in 0 1 2; do
	got=$(json "$T/perm.json" "d['runs'][0]['phases'][$p]['entries']")
	assert_eq "$got" "$want" "phase $p counts what the user can see (find as the user)"
	den=$(json "$T/perm.json" "d['runs'][0]['phases'][$p]['errors']['permission_denied']")
	((den >= 1)) || fail "phase $p: permission denied not counted"
done
ok "permission denied counted in every phase"
den=$(json "$T/perm.json" "d['runs'][0]['phases'][1]['errors']['permission_denied']")
# closed (open), noexec/f (lstat), open/private (open for reading)
assert_eq "$den" 3 "read walk: the closed dir, the unsearchable entry, the unreadable file"
assert_eq "$(json "$T/perm.json" "d['runs'][0]['phases'][1]['bytes']")" 6 \
	"read walk read the readable file only"
assert_match "$(json "$T/perm.json" "d['runs'][0]['phases'][0]['cache']['reason']")" \
	'could not be dropped' "the record says the cache could not be dropped"
chmod -R u+rwX "$P"

done_testing
