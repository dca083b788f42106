/*
 * A run on an SMB mount in the JSON and the text: each test's requests
 * and bytes over the wire to its share (io/cifs_wire.h, recorded by the
 * SMB target, io/target_cifs.c) and what was done to the server's cache
 * before it.
 */
#ifndef CLYDE_RESULTS_CIFS_OUT_H
#define CLYDE_RESULTS_CIFS_OUT_H

#include <stdio.h>

#include "core/json_out.h"
#include "results/result.h"

/* The test's "smb" object, when its share was counted. */
void clyde_jw_cifs(struct clyde_jw *w, const struct clyde_run *r,
		   enum clyde_test id);

/* "SMB over the wire" per test of the first run, when any was counted. */
void clyde_cifs_text(FILE *f, const struct clyde_run *runs, unsigned n);

#endif
