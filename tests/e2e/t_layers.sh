#!/bin/bash
# The include graph of src/ has no upward arrow (docs/architecture.md):
# a file includes headers of its own layer and of the layers below it.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

# Bottom to top, as docs/architecture.md draws them.
LAYERS=(core env io results workloads store report dist exp cli)

rank()
{
	local i
	for i in "${!LAYERS[@]}"; do
		if [[ ${LAYERS[i]} == "$1" ]]; then
			echo "$i"
			return
		fi
	done
	echo -1
}

bad=0
for dir in "$CLYDE_SRC"/src/*/; do
	layer=$(basename "$dir")
	me=$(rank "$layer")
	if ((me < 0)); then
		echo "src/$layer is not a layer of docs/architecture.md" >&2
		bad=1
		continue
	fi
	while IFS=: read -r file inc; do
		other=${inc#*\"}
		other=${other%%/*}
		them=$(rank "$other")
		if ((them < 0 || them > me)); then
			echo "upward include: ${file#"$CLYDE_SRC"/} includes $other/ (above $layer/)" >&2
			bad=1
		fi
	done < <(grep -HoE '#include "[a-z_]+/' "$dir"*.[ch] 2>/dev/null || true)
done
((bad == 0)) || fail "the include graph has an upward arrow or an unknown layer"
ok "every include of src/ points to its own layer or one below"

done_testing
