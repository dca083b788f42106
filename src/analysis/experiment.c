/*
 * The experiment model's lifecycle; see experiment.h.  The analysis (table,
 * sentences, charts) lives in its own files.
 */
#include "analysis/experiment.h"

#include <stdlib.h>
#include <string.h>

void clyde_exp_release(struct clyde_exp *e)
{
	size_t i, j;

	if (!e)
		return;
	for (i = 0; i < e->npoints; i++) {
		struct clyde_exp_point *p = &e->points[i];

		for (j = 0; p->values && j < e->naxes; j++)
			free(p->values[j]);
		free(p->values);
		for (j = 0; p->cells && j < e->nmetrics; j++) {
			free(p->cells[j].samples);
			free(p->cells[j].series.rate);
			free(p->cells[j].series.dirty);
		}
		free(p->cells);
		free(p->config);
	}
	free(e->points);
	for (i = 0; i < e->nmetrics; i++) {
		free(e->metrics[i].key);
		free(e->metrics[i].label);
		free(e->metrics[i].unit);
	}
	free(e->metrics);
	for (i = 0; i < e->naxes; i++)
		free(e->axis_names[i]);
	free(e->axis_names);
	free(e->id);
	free(e->title);
	free(e->command);
	free(e->machine);
	memset(e, 0, sizeof(*e));
}
