/*
 * libFuzzer target for reading a storage stack back from JSON
 * (clyde_stack_from_json, clyde_advice_from_json) and for everything that
 * walks a stack read that way: the text tree, the JSON writer, the facts,
 * the stripe and the advice.  A stack that reads back must be one the
 * walkers can walk (clyde_stack_check: no device below itself, a bounded
 * unfolded tree), and writing it must give JSON that reads back to the
 * same text.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/advise.h"
#include "env/stack.h"
#include "core/json_read.h"
#include "results/stack_out.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The stack and advice written as one JSON object; caller frees. */
static char *write_all(const struct clyde_stack *s,
		       const struct clyde_advice_list *l, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	struct clyde_jw w;

	if (!f)
		return NULL;
	clyde_jw_init(&w, f);
	clyde_jw_open(&w, NULL, '{');
	clyde_stack_json(&w, "stack", s);
	clyde_advice_json(&w, "advice", l);
	clyde_jw_close(&w, '}');
	fclose(f);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct clyde_json root, again;
	struct clyde_json_error err;
	struct clyde_stack s, back;
	struct clyde_advice_list l, lback;
	struct clyde_stack_fact facts[64];
	char *a, *b, why[128];
	size_t alen = 0, blen = 0;
	FILE *devnull;

	if (clyde_json_parse((const char *)data, size, NULL, &root, &err))
		return 0;
	memset(&err, 0, sizeof(err));
	if (clyde_stack_from_json(clyde_json_get(&root, "stack"), &s, &err)) {
		if (!err.why[0] || s.nodes)
			abort();
		clyde_json_free(&root);
		return 0;
	}
	if (clyde_stack_check(&s, why, sizeof(why)))
		abort();
	(void)clyde_advice_from_json(clyde_json_get(&root, "advice"), &l, &err);
	clyde_advise(&s, CLYDE_ADVISE_TREE, &l);
	(void)clyde_stack_facts(&s, facts, 64);
	devnull = fopen("/dev/null", "w");
	if (devnull) {
		clyde_stack_text(devnull, &s);
		clyde_advice_text(devnull, &l);
		fclose(devnull);
	}
	a = write_all(&s, &l, &alen);
	if (!a || clyde_json_parse(a, alen, NULL, &again, &err))
		abort();
	if (clyde_stack_from_json(clyde_json_get(&again, "stack"), &back,
				  &err) ||
	    clyde_advice_from_json(clyde_json_get(&again, "advice"), &lback,
				   &err))
		abort();
	b = write_all(&back, &lback, &blen);
	if (!b || alen != blen || memcmp(a, b, alen))
		abort();
	free(a);
	free(b);
	clyde_stack_free(&back);
	clyde_json_free(&again);
	clyde_stack_free(&s);
	clyde_json_free(&root);
	return 0;
}
