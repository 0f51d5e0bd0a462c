/* kinds.c - the table of report kinds (see kind.h): one row per kind, each
 * defined in its own file. A new kind is a new file, its declaration and
 * its row here. The order is the usage's and the error messages'. */
#include "config.h"

#include "report/kind.h"

#include <stdio.h>
#include <string.h>

extern const tt_report_kind tt_kind_ops;           /* kind_ops.c */
extern const tt_report_kind tt_kind_lanes;         /* kind_lanes.c */
extern const tt_report_kind tt_kind_transfers;     /* kind_transfers.c */
extern const tt_report_kind tt_kind_gpu;           /* kind_gpu.c */
extern const tt_report_kind tt_kind_events;        /* kind_events.c */
extern const tt_report_kind tt_kind_annotations;   /* annotations.c */
extern const tt_report_kind tt_kind_ranks;         /* job.c */
extern const tt_report_kind tt_kind_collectives;   /* job.c */
extern const tt_report_kind tt_kind_operators;     /* kind_operators.c */
extern const tt_report_kind tt_kind_kernels;       /* kind_kernels.c */
extern const tt_report_kind tt_kind_steps;         /* kind_steps.c */
extern const tt_report_kind tt_kind_launch;        /* kind_launch.c */
extern const tt_report_kind tt_kind_overview;      /* kind_overview.c */
extern const tt_report_kind tt_kind_op_statistic;  /* kind_statistic.c */
extern const tt_report_kind tt_kind_api_statistic; /* kind_statistic.c */
extern const tt_report_kind tt_kind_comm;          /* kind_comm.c */
extern const tt_report_kind tt_kind_comm_matrix;   /* kind_comm.c */

static const tt_report_kind *const kinds[] = {
    &tt_kind_ops,
    &tt_kind_lanes,
    &tt_kind_transfers,
    &tt_kind_gpu,
    &tt_kind_events,
    &tt_kind_annotations,
    &tt_kind_ranks,
    &tt_kind_collectives,
    &tt_kind_operators,
    &tt_kind_kernels,
    &tt_kind_steps,
    &tt_kind_launch,
    &tt_kind_overview,
    &tt_kind_op_statistic,
    &tt_kind_api_statistic,
    &tt_kind_comm,
    &tt_kind_comm_matrix,
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

const tt_report_kind *const *tt_report_kinds(size_t *n)
{
    *n = N_KINDS;
    return kinds;
}

const tt_report_kind *tt_report_kind_find(const char *s)
{
    for (size_t i = 0; i < N_KINDS; i++)
        if (strcmp(s, kinds[i]->name) == 0)
            return kinds[i];
    return NULL;
}

static bool wanted(const tt_report_kind *k, unsigned need, unsigned lack, int scope)
{
    return (k->flags & need) == need && !(k->flags & lack) &&
           (scope < 0 || (int)k->scope == scope);
}

const char *tt_report_kind_list(unsigned need, unsigned lack, int scope, char *buf, size_t cap)
{
    size_t total = 0, seen = 0, used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_KINDS; i++)
        total += wanted(kinds[i], need, lack, scope);
    for (size_t i = 0; i < N_KINDS && used < cap; i++) {
        if (!wanted(kinds[i], need, lack, scope))
            continue;
        seen++;
        used += (size_t)snprintf(buf + used, cap - used, "%s%s",
                                 seen == 1 ? "" : seen == total ? " or " : ", ", kinds[i]->name);
    }
    return buf;
}
