/* ncu_kernels.c - the Nsight Compute kernel table (see ncu_kernels.h). */
#include "config.h"

#include "analysis/ncu_kernels.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cJSON *ncu_kernels(const tt_trace *tr)
{
    const cJSON *top = tr->meta ? cJSON_GetObjectItemCaseSensitive(tr->meta, "ncu") : NULL;
    const cJSON *k = top ? cJSON_GetObjectItemCaseSensitive(top, "kernels") : NULL;
    return cJSON_IsArray(k) ? k : NULL;
}

bool tt_ncu_present(const tt_trace *tr)
{
    return tr->format && strcmp(tr->format, "ncu-csv") == 0 && ncu_kernels(tr);
}

/* Power of ten of a unit ncu writes, relative to its base unit (ns for
 * times, bytes for sizes); want says which kind: 't' time, 'b' bytes.
 * false when the unit is not of that kind. */
static bool unit_scale(const char *u, char want, double *scale)
{
    static const struct {
        const char *u;
        char        kind;
        double      s;
    } units[] = {
        {"ns", 't', 1}, {"nsecond", 't', 1}, {"us", 't', 1e3}, {"usecond", 't', 1e3},
        {"ms", 't', 1e6}, {"msecond", 't', 1e6}, {"s", 't', 1e9}, {"second", 't', 1e9},
        {"byte", 'b', 1}, {"Kbyte", 'b', 1e3}, {"Mbyte", 'b', 1e6}, {"Gbyte", 'b', 1e9},
        {"Tbyte", 'b', 1e12},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (units[i].kind == want && strcmp(u, units[i].u) == 0) {
            *scale = units[i].s;
            return true;
        }
    return false;
}

/* Metric name of kernel k (decode/ncu.c's key), if a number (and, unless
 * unit is NULL, in that unit): its value and unit. */
static bool metric(const cJSON *k, const char *name, const char *unit, double *v,
                   const char **unit_out)
{
    const cJSON *val = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(k, "metrics"), name);
    const char *u = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(k, "units"), name));
    if (!cJSON_IsNumber(val))
        return false;
    if (!u)
        u = "";
    if (unit && strcmp(u, unit) != 0)
        return false;
    *v = val->valuedouble;
    if (unit_out)
        *unit_out = u;
    return true;
}

/* The first of names with a number. */
static bool first_of(const cJSON *k, const char *const *names, double *v)
{
    for (int i = 0; names[i]; i++)
        if (metric(k, names[i], NULL, v, NULL))
            return true;
    return false;
}

/* A metric in a unit of kind want, converted to the base unit. */
static bool scaled(const cJSON *k, const char *name, char want, double *v)
{
    const char *u;
    double s;
    return metric(k, name, NULL, v, &u) && unit_scale(u, want, &s) && (*v *= s, true);
}

/* Product of "(x, y, z)"; false when the text is not such a triple. */
static bool dims_product(const char *t, double *v)
{
    double p = 1;
    int n = 0;
    if (!t || *t++ != '(')
        return false;
    for (;;) {
        char *end;
        double d = strtod(t, &end);
        if (end == t || d < 0)
            return false;
        p *= d;
        n++;
        t = end;
        while (*t == ' ')
            t++;
        if (*t == ')')
            break;
        if (*t++ != ',')
            return false;
    }
    *v = p;
    return n > 0;
}

static bool dram_bytes(const cJSON *k, double *v)
{
    double r, w;
    if (scaled(k, "dram__bytes.sum", 'b', v))
        return true;
    if (scaled(k, "dram__bytes_read.sum", 'b', &r) && scaled(k, "dram__bytes_write.sum", 'b', &w))
        return *v = r + w, true;
    if (scaled(k, "dram__bytes_op_read.sum", 'b', &r) &&
        scaled(k, "dram__bytes_op_write.sum", 'b', &w))
        return *v = r + w, true;
    return false;
}

/* ncu's roofline count of floating-point operations. */
static bool flop_count(const cJSON *k, double *v)
{
    static const char prec[] = {'d', 'f', 'h'};
    static const struct {
        const char *op;
        double      weight;
    } ops[] = {{"fma", 2}, {"add", 1}, {"mul", 1}};
    char name[80];
    bool any = false;
    double sum = 0, x;
    for (size_t p = 0; p < sizeof prec; p++)
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            snprintf(name, sizeof name, "sm__sass_thread_inst_executed_op_%c%s_pred_on.sum", prec[p],
                     ops[o].op);
            if (metric(k, name, NULL, &x, NULL)) {
                sum += ops[o].weight * x;
                any = true;
            }
        }
    *v = sum;
    return any;
}

static void stat_add(tt_ncu_stat *s, double v)
{
    if (!s->n || v < s->min)
        s->min = v;
    if (!s->n || v > s->max)
        s->max = v;
    s->sum += v;
    s->n++;
}

void tt_ncu_kernel_values(const cJSON *k, tt_ncu_row *r, const char *const *extra,
                          size_t n_extra)
{
    static const char *const sm[] = {"Compute (SM) Throughput",
                                     "sm__throughput.avg.pct_of_peak_sustained_elapsed", NULL};
    static const char *const occ[] = {"Achieved Occupancy",
                                      "sm__warps_active.avg.pct_of_peak_sustained_active", NULL};
    static const char *const regs[] = {"Registers Per Thread", "launch__registers_per_thread",
                                       NULL};
    static const char *const block[] = {"Block Size", "launch__block_size", NULL};
    static const char *const grid[] = {"Grid Size", "launch__grid_size", NULL};
    double v, dur = 0, bytes = 0, cyc, rate;
    bool has_dur, has_bytes;

    has_dur = scaled(k, "Duration", 't', &dur) || scaled(k, "gpu__time_duration.sum", 't', &dur);
    if (has_dur)
        stat_add(&r->v[TT_NCU_DURATION], dur);
    if (first_of(k, sm, &v))
        stat_add(&r->v[TT_NCU_SM_PCT], v);
    if (metric(k, "Memory Throughput", "%", &v, NULL) ||
        metric(k, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", NULL, &v,
               NULL))
        stat_add(&r->v[TT_NCU_MEM_PCT], v);
    has_bytes = dram_bytes(k, &bytes);
    if (has_bytes)
        stat_add(&r->v[TT_NCU_DRAM_BYTES], bytes);
    if (has_bytes && has_dur && dur > 0)
        stat_add(&r->v[TT_NCU_DRAM_BW], bytes / dur);
    if (first_of(k, occ, &v))
        stat_add(&r->v[TT_NCU_OCCUPANCY], v);
    if (first_of(k, regs, &v))
        stat_add(&r->v[TT_NCU_REGISTERS], v);
    if (first_of(k, block, &v) ||
        dims_product(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "block")), &v))
        stat_add(&r->v[TT_NCU_BLOCK], v);
    if (first_of(k, grid, &v) ||
        dims_product(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "grid")), &v))
        stat_add(&r->v[TT_NCU_GRID], v);
    if (flop_count(k, &v)) {
        stat_add(&r->v[TT_NCU_FLOP], v);
        if (has_dur)
            stat_add(&r->v[TT_NCU_FLOP_TIME], dur);
        else if (metric(k, "sm__cycles_elapsed.avg", NULL, &cyc, NULL) &&
                 metric(k, "sm__cycles_elapsed.avg.per_second", NULL, &rate, NULL) && rate > 0)
            stat_add(&r->v[TT_NCU_FLOP_TIME], cyc / rate * 1e9);
    }
    for (size_t i = 0; i < n_extra; i++) {
        const char *u;
        double sc;
        /* ncu scales units per value ("Mbyte" here, "byte" there): times
         * and sizes go to ns and bytes so a name's launches average */
        if (!metric(k, extra[i], NULL, &v, &u))
            continue;
        if (unit_scale(u, 't', &sc) || unit_scale(u, 'b', &sc))
            v *= sc;
        stat_add(&r->extra[i], v);
    }
}

static int cmp_rows(const void *pa, const void *pb)
{
    const tt_ncu_row *a = pa, *b = pb;
    double ta = a->v[TT_NCU_DURATION].sum, tb = b->v[TT_NCU_DURATION].sum;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    return strcmp(a->name, b->name);
}

int tt_ncu_table_build(const tt_trace *tr, const char *const *extra, size_t n_extra,
                       tt_ncu_table *t, tt_error *err)
{
    const cJSON *ks = ncu_kernels(tr), *k, *top;
    size_t n = ks ? (size_t)cJSON_GetArraySize(ks) : 0;

    memset(t, 0, sizeof t[0]);
    t->n_extra = n_extra;
    top = tr->meta ? cJSON_GetObjectItemCaseSensitive(tr->meta, "ncu") : NULL;
    t->page = top ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(top, "page")) : NULL;
    if (!(t->rows = calloc(n ? n : 1, sizeof *t->rows)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    cJSON_ArrayForEach(k, ks) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "name"));
        tt_ncu_row *r = NULL;
        if (!name)
            name = "";
        /* few distinct names: a linear search keeps the first-seen order */
        for (size_t i = 0; i < t->n_rows && !r; i++)
            if (strcmp(t->rows[i].name, name) == 0)
                r = &t->rows[i];
        if (!r) {
            r = &t->rows[t->n_rows++];
            r->name = name;
            if (n_extra && !(r->extra = calloc(n_extra, sizeof *r->extra))) {
                tt_ncu_table_fini(t);
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            }
        }
        r->calls++;
        t->n_kernels++;
        t->n_metrics += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(k, "metrics"));
        tt_ncu_kernel_values(k, r, extra, n_extra);
    }
    qsort(t->rows, t->n_rows, sizeof *t->rows, cmp_rows);
    return 0;
}

void tt_ncu_table_fini(tt_ncu_table *t)
{
    for (size_t i = 0; i < t->n_rows; i++)
        free(t->rows[i].extra);
    free(t->rows);
    memset(t, 0, sizeof t[0]);
}
