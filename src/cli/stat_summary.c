/* stat_summary.c - `summary` of the Ascend statistic tables (see
 * stat_summary.h). */
#include "config.h"

#include "cli/stat_summary.h"

#include "report/kind_statistic.h"
#include "util/num.h"
#include "util/sort.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define TOP_ROWS 5

typedef struct ranked {
    size_t row;
    double time;
} ranked;

static int cmp_ranked(const void *a, const void *b, void *ctx)
{
    const ranked *x = a, *y = b;
    (void)ctx;
    if (x->time != y->time)
        return x->time < y->time ? 1 : -1;
    return (x->row > y->row) - (x->row < y->row);
}

/* The rows of t by time, most first (at most TOP_ROWS); NULL on OOM. */
static ranked *top_rows(const tt_stat_table *d, const tt_sidetab *t, const int *map, size_t *n)
{
    ranked *v = malloc((t->n_rows ? t->n_rows : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t r = 0; r < t->n_rows; r++) {
        const char *s = tt_sidetab_cell(t, r, (size_t)map[d->time_col]);
        v[r].row = r;
        if (tt_parse_double(s, strlen(s), &v[r].time) != TT_NUM_OK)
            v[r].time = 0;   /* tt_stat_read checked every number */
    }
    tt_sort(v, t->n_rows, sizeof *v, cmp_ranked, NULL);
    *n = t->n_rows < TOP_ROWS ? t->n_rows : TOP_ROWS;
    return v;
}

static void table_text(FILE *f, const tt_trace *tr, const tt_stat_table *d)
{
    tt_sidetab *t;
    tt_error err;
    int map[TT_STAT_MAX_COLS];
    char safe[200], safe2[64];
    ranked *v;
    size_t n;
    int rc = tt_stat_read(d, tr, &t, map, &err);
    if (rc > 0)
        return;
    if (rc < 0) {
        fprintf(f, "\n%s: not read: %s\n", d->file, tt_text_safe(err.what, safe, sizeof safe));
        return;
    }
    if ((v = top_rows(d, t, map, &n))) {
        /* the other text column (Core Type, Level) says where it ran */
        int other = d->name_col == 0 ? 1 : 0;
        fprintf(f, "\n%s: %zu rows, the top by %s\n", d->title, t->n_rows, d->hdr[d->time_col]);
        for (size_t i = 0; i < n; i++) {
            size_t r = v[i].row;
            tt_text_safe(tt_sidetab_cell(t, r, (size_t)map[d->name_col]), safe, sizeof safe);
            tt_text_safe(tt_sidetab_cell(t, r, (size_t)map[other]), safe2, sizeof safe2);
            fprintf(f, "  %-40.40s %-16.16s %14s\n", safe, safe2,
                    tt_sidetab_cell(t, r, (size_t)map[d->time_col]));
        }
        free(v);
    }
    tt_sidetab_free(t);
}

void tt_stat_summary_text(FILE *f, const tt_trace *tr)
{
    table_text(f, tr, &tt_stat_op);
    table_text(f, tr, &tt_stat_api);
}

static void table_json(cJSON *o, const tt_trace *tr, const tt_stat_table *d, const char *key)
{
    tt_sidetab *t;
    tt_error err;
    int map[TT_STAT_MAX_COLS];
    ranked *v;
    size_t n;
    cJSON *a;
    if (tt_stat_read(d, tr, &t, map, &err))
        return;
    v = top_rows(d, t, map, &n);
    if (v && (a = cJSON_AddArrayToObject(o, key)))
        for (size_t i = 0; i < n; i++) {
            cJSON *row = cJSON_CreateObject();
            if (!row)
                break;
            for (size_t k = 0; k < d->n; k++)
                cJSON_AddStringToObject(row, d->hdr[k], tt_sidetab_cell(t, v[i].row, (size_t)map[k]));
            cJSON_AddItemToArray(a, row);
        }
    free(v);
    tt_sidetab_free(t);
}

void tt_stat_summary_json(cJSON *o, const tt_trace *tr)
{
    table_json(o, tr, &tt_stat_op, "op_statistic");
    table_json(o, tr, &tt_stat_api, "api_statistic");
}
