#!/bin/bash
# The include graph of src/ is the one docs/architecture.md draws: each
# directory (layer) may include its own headers and those of the layers
# listed for it below, nothing else.  An allow-list of edges, not a
# ranking: with a ranking, exp/ including report/ passed because report/
# is ranked lower, though experiments have no business with rendering.
# A new edge is a decision: it goes here and into the picture.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

declare -A MAY=(
	[core]=""
	[env]="core"
	[io]="core env"
	[results]="core env io"
	[workloads]="core env io results"
	[store]="core results"
	[analysis]="core results store"
	[report]="core results analysis"
	[dist]="core io results"
	[exp]="core env io results store analysis dist"
	[job]="core env io results workloads store analysis dist exp"
	[cli]="core env io results workloads store analysis report dist exp job"
)

bad=0
for dir in "$CLYDE_SRC"/src/*/; do
	layer=$(basename "$dir")
	if [[ ! -v MAY[$layer] ]]; then
		echo "src/$layer is not a layer of docs/architecture.md" >&2
		bad=1
		continue
	fi
	while IFS=: read -r file inc; do
		other=${inc#*\"}
		other=${other%%/*}
		[[ $other == "$layer" ]] && continue
		if [[ " ${MAY[$layer]} " != *" $other "* ]]; then
			echo "${file#"$CLYDE_SRC"/} includes $other/, not an edge" \
				"of $layer/ (it may include: ${MAY[$layer]:-nothing})" >&2
			bad=1
		fi
	done < <(grep -HoE '#include "[a-z_]+/' "$dir"*.[ch] 2>/dev/null || true)
done
((bad == 0)) || fail "the include graph has an edge docs/architecture.md does not draw"
ok "every include of src/ is its own layer's or an edge docs/architecture.md draws"

# A name grep can find: no .c file renames a clyde function or constant
# to a short alias (#define show clyde_exp_show hid every call from
# `grep clyde_exp_show`).  Headers may define public constants so.
aliases=$(grep -HnE '^#define [A-Za-z_0-9]+ +(clyde|CLYDE)_[A-Za-z_0-9]+$' \
	"$CLYDE_SRC"/src/*/*.c 2>/dev/null || true)
[[ -z $aliases ]] || fail "short aliases hide names from grep: $aliases"
ok "no .c file hides a clyde name behind a #define alias"

# The check itself: a tree with exp/ including report/ must fail it.
if [[ ${LAYERS_SELFTEST:-1} == 1 ]]; then
	tmp=$T/tree
	mkdir -p "$tmp/src/exp" "$tmp/src/report"
	printf '#include "report/x.h"\n' >"$tmp/src/exp/a.c"
	if CLYDE_SRC=$tmp LAYERS_SELFTEST=0 bash "$0" >"$tmp/out" 2>&1; then
		fail "t_layers passes a tree where exp/ includes report/"
	fi
	grep -q 'src/exp/a.c includes report/' "$tmp/out" ||
		fail "t_layers does not name exp/a.c including report/: $(cat "$tmp/out")"
	ok "a tree where exp/ includes report/ fails the check"
fi

done_testing
