/* ncu_summary.c - `summary` of an Nsight Compute table (see
 * ncu_summary.h). */
#include "config.h"

#include "cli/ncu_summary.h"

#include "analysis/ncu_kernels.h"
#include "cli/cli.h"
#include "util/text.h"

#include <cjson/cJSON.h>

#define TOP_KERNELS 10

void tt_ncu_summary_text(FILE *f, const tt_trace *tr)
{
    tt_ncu_table t;
    tt_error err;
    char safe[200];
    if (!tt_ncu_present(tr) || tt_ncu_table_build(tr, NULL, 0, &t, &err))
        return;
    fprintf(f, "Kernels   %zu profiled by Nsight Compute (%s page), %zu names, %zu metric values\n",
            t.n_kernels, t.page ? t.page : "?", t.n_rows, t.n_metrics);
    fprintf(f, "\n%-56s %8s %16s %16s\n", "Top kernels by duration", "Calls", "Total (ns)",
            "Mean (ns)");
    for (size_t i = 0; i < t.n_rows && i < TOP_KERNELS; i++) {
        const tt_ncu_row *r = &t.rows[i];
        const tt_ncu_stat *d = &r->v[TT_NCU_DURATION];
        tt_text_safe(r->name, safe, sizeof safe);
        fprintf(f, "  %-54.54s %8zu", safe, r->calls);
        if (tt_ncu_has(d))
            fprintf(f, " %16.1f %16.1f\n", d->sum, tt_ncu_mean(d));
        else
            fprintf(f, " %16s %16s\n", "-", "-");
    }
    tt_ncu_table_fini(&t);
}

void tt_ncu_summary_json(cJSON *o, const tt_trace *tr)
{
    tt_ncu_table t;
    tt_error err;
    cJSON *n, *top;
    if (!tt_ncu_present(tr) || tt_ncu_table_build(tr, NULL, 0, &t, &err))
        return;
    if ((n = cJSON_AddObjectToObject(o, "ncu"))) {
        cJSON_AddStringToObject(n, "page", t.page ? t.page : "");
        cJSON_AddNumberToObject(n, "kernels", (double)t.n_kernels);
        cJSON_AddNumberToObject(n, "names", (double)t.n_rows);
        cJSON_AddNumberToObject(n, "metrics", (double)t.n_metrics);
        if ((top = cJSON_AddArrayToObject(n, "top_kernels")))
            for (size_t i = 0; i < t.n_rows && i < TOP_KERNELS; i++) {
                const tt_ncu_stat *d = &t.rows[i].v[TT_NCU_DURATION];
                cJSON *k = cJSON_CreateObject();
                if (!k)
                    break;
                cJSON_AddStringToObject(k, "name", t.rows[i].name);
                cJSON_AddNumberToObject(k, "calls", (double)t.rows[i].calls);
                if (tt_ncu_has(d))
                    cJSON_AddNumberToObject(k, "total_duration_ns", d->sum);
                else
                    cJSON_AddNullToObject(k, "total_duration_ns");
                cJSON_AddItemToArray(top, k);
            }
    }
    tt_ncu_table_fini(&t);
}
