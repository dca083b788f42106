/* What the one-run result writers share (run_out.h). */
#include "results/run_out.h"

#include <errno.h>

#include "results/json_parts.h"

int clyde_out_finish(FILE *f)
{
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

int clyde_out_csv_header(FILE *f, const char *const *run_fields, int nrun,
			 const char *(*group_name)(int g), int ngroups,
			 const char *const *group_fields, int nfields)
{
	errno = 0;
	for (int i = 0; i < nrun; i++)
		fprintf(f, "%s%s", i ? "," : "", run_fields[i]);
	for (int g = 0; g < ngroups; g++)
		for (int i = 0; i < nfields; i++)
			fprintf(f, ",%s_%s", group_name(g), group_fields[i]);
	fputc('\n', f);
	return clyde_out_finish(f);
}

void clyde_jw_run_head(struct clyde_jw *w, const char *kind,
		       const char *version, const char *label, size_t label_max,
		       uint64_t started_unix, const struct clyde_env *env)
{
	clyde_jw_open(w, NULL, '{');
	clyde_jw_str(w, "schema", "clyde-result", 64);
	clyde_jw_u64(w, "schema_version", 1);
	clyde_jw_str(w, "clyde_version", version, 256);
	clyde_jw_str(w, "kind", kind, 16);
	clyde_jw_str(w, "label", label[0] ? label : env->machine.host,
		     label_max);
	clyde_jw_u64(w, "started_unix", started_unix);
	clyde_jw_machine(w, &env->machine);
	clyde_jw_target(w, &env->target);
}

void clyde_jw_summary_one(struct clyde_jw *w, const char *name,
			  const char *unit, double mean)
{
	clyde_jw_str(w, "name", name, 64);
	clyde_jw_str(w, "unit", unit, 16);
	clyde_jw_u64(w, "n", 1);
	clyde_jw_num(w, "mean", mean, 3);
	clyde_jw_null(w, "stddev");
	clyde_jw_null(w, "ci95_halfwidth");
}
