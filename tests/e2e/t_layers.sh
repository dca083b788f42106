#!/bin/bash
# The layers of the source tree: results and report never include
# workloads (a result model is data that formatters and the history read;
# the workloads fill it in, not the other way round), the store (the
# history's database) never includes report, and the library never
# includes the command line.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

cd "$CLYDE_SRC/src" || fail "no source tree at $CLYDE_SRC"

# layer_free DIR FORBIDDEN MSG: no file under DIR includes FORBIDDEN/.
layer_free()
{
	local hits
	hits=$(grep -rnE "^#include \"$2/" "$1" || true)
	[[ -z $hits ]] || fail "$3: $hits"
	ok "$3"
}

layer_free results workloads "results/ does not include workloads/"
layer_free report workloads "report/ does not include workloads/"
# The store (the results history's database) is below report: report
# decodes what the store keeps, never the other way round; and the
# readers of results below both.
layer_free store report "store/ does not include report/"
layer_free store workloads "store/ does not include workloads/"
layer_free results report "results/ does not include report/"
layer_free results store "results/ does not include store/"
for d in core io results store report env dist workloads; do
	layer_free "$d" cli "$d/ does not include cli/"
done
# The tree's result model itself lives in results/.
[[ -f results/tree_result.h ]] || fail "results/tree_result.h is missing"
grep -q "struct clyde_tree_run {" results/tree_result.h ||
	fail "struct clyde_tree_run is not defined in results/tree_result.h"
ok "the tree result model is in results/tree_result.h"

done_testing
