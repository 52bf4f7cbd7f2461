/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run plan's data: allocation and freeing of plans, phases and loads. */
#include "config/plandata.h"

#include <stdlib.h>
#include <string.h>

struct plan *plan_new(void)
{
	return calloc(1, sizeof(struct plan));
}

void plan_phase_free(struct plan_phase *ph)
{
	size_t i;

	for (i = 0; i < ph->nloads; i++)
		plan_load_free(&ph->loads[i]);
	free(ph->loads);
	free(ph->name);
	free(ph->origin);
}

void plan_free(struct plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nphases; i++)
		plan_phase_free(&p->phases[i]);
	free(p->phases);
	for (i = 0; i < p->nloads; i++)
		plan_load_free(&p->loads[i]);
	free(p->loads);
	free(p);
}

void plan_load_free(struct plan_load *l)
{
	size_t i;
	int k;

	for (k = 0; k < PLK_NKEYS; k++)
		free(l->text[k]);
	for (i = 0; i < l->nargs; i++)
		free(l->args[i]);
	free(l->args);
	free(l->origin);
	memset(l, 0, sizeof(*l));
}
