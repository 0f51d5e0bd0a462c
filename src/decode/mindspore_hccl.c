/* mindspore_hccl.c - hccl_raw_{rank}.csv read into a tt_comm (see
 * mindspore_hccl.h). The table is read whole through the side-table
 * reader (analysis/sidetab.h: quoting errors at their row and column);
 * its JSON column is parsed per row with cJSON, whose stop position gives
 * a character offset inside the cell for invalid JSON.
 */
#include "config.h"

#include "decode/mindspore_hccl.h"

#include "analysis/sidetab.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPS_COL "communication_operator_cost"

/* What one row is read with: the table, the row and the error. */
typedef struct hrow {
    const tt_sidetab *t;
    size_t            r;      /* data row, 0-based */
    int               col;    /* the JSON column */
    tt_error         *err;
} hrow;

static int row_bad(const hrow *h, const char *what, const char *op, const char *link)
{
    /* rows count from 1 at the header, as the side-table reader counts */
    if (op)
        tt_error_at_row(h->err, TT_ERR_FORMAT, (int64_t)h->r + 2, h->col + 1,
                        "%s: op \"%.120s\"%s%.40s: %s", OPS_COL, op, link ? ", link " : "",
                        link ? link : "", what);
    else
        tt_error_at_row(h->err, TT_ERR_FORMAT, (int64_t)h->r + 2, h->col + 1, "%s", what);
    return -1;
}

static int oom(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

/* The links of one op: {"SRC-DST": {"SDMA": [time, size, bw (, wait)]}}. */
static int add_links(tt_comm *c, const hrow *h, const char *step, const char *op,
                     const cJSON *links)
{
    const cJSON *pair, *tr;
    if (!cJSON_IsObject(links))
        return row_bad(h, "the links (4th member) are not an object", op, NULL);
    cJSON_ArrayForEach(pair, links) {
        tt_comm_link k;
        memset(&k, 0, sizeof k);
        if (!tt_comm_link_ranks(pair->string, &k.src, &k.dst))
            return row_bad(h, "not SRC-DST (two ranks)", op, pair->string);
        if (!cJSON_IsObject(pair))
            return row_bad(h, "not an object of transport types", op, pair->string);
        cJSON_ArrayForEach(tr, pair) {
            const cJSON *v[3];
            int n = cJSON_GetArraySize(tr);
            if (!cJSON_IsArray(tr) || n < 3)
                return row_bad(h, "a transport is [time ms, size KB, bandwidth KB/s]", op,
                               pair->string);
            for (int i = 0; i < 3; i++)
                if (!cJSON_IsNumber(v[i] = cJSON_GetArrayItem(tr, i)))
                    return row_bad(h, "a transport's time, size and bandwidth are numbers",
                                   op, pair->string);
            k.time_ms = v[0]->valuedouble;
            k.size_mb = v[1]->valuedouble / 1e3;     /* KB -> MB (10^6 bytes) */
            k.bw_gbs = v[2]->valuedouble / 1e6;      /* KB/s -> GB/s */
            if (tt_comm_link_names(&k, step, "", op, "", tr->string, "") ||
                tt_comm_push_link(c, &k)) {
                tt_comm_link_fini(&k);
                return oom(h->err);
            }
        }
    }
    return 0;
}

/* One op: [step_num, transit ms, wait ms, links]. */
static int add_op(tt_comm *c, const hrow *h, const char *step, const cJSON *op)
{
    const cJSON *tr = cJSON_GetArrayItem(op, 1), *wt = cJSON_GetArrayItem(op, 2);
    tt_comm_op o;
    if (!cJSON_IsArray(op) || cJSON_GetArraySize(op) < 4)
        return row_bad(h, "expected [step, transit ms, wait ms, links]", op->string, NULL);
    if (!cJSON_IsNumber(tr) || !cJSON_IsNumber(wt))
        return row_bad(h, "the transit and wait times (2nd and 3rd members) are not numbers",
                       op->string, NULL);
    memset(&o, 0, sizeof o);
    o.transit_ms = tr->valuedouble;
    o.wait_ms = wt->valuedouble;
    o.step = strdup(step);
    o.type = strdup("");
    o.op = strdup(op->string);
    o.group = strdup("");
    if (!o.step || !o.type || !o.op || !o.group || tt_comm_push_op(c, &o)) {
        free(o.step);
        free(o.type);
        free(o.op);
        free(o.group);
        return oom(h->err);
    }
    return add_links(c, h, step, op->string, cJSON_GetArrayItem(op, 3));
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

static int read_rows(tt_comm *c, const tt_sidetab *t, tt_error *err)
{
    int c_step = tt_sidetab_col(t, "step_num"), c_ops = tt_sidetab_col(t, OPS_COL);
    if (c_step < 0 || c_ops < 0)
        return tt_error_at_row(err, TT_ERR_FORMAT, 1, 1, "not an hccl_raw table: no step_num "
                               "and " OPS_COL " columns"), -1;
    for (size_t r = 0; r < t->n_rows; r++) {
        const char *sn = tt_sidetab_cell(t, r, (size_t)c_step);
        const char *text = tt_sidetab_cell(t, r, (size_t)c_ops);
        const char *end = NULL;
        hrow h = {t, r, c_ops, err};
        char step[64];
        cJSON *doc, *op;
        if (strcmp(sn, "-") == 0)
            continue;   /* the averages over the steps */
        if (!all_digits(sn) || strlen(sn) > 18) {
            h.col = c_step;
            return row_bad(&h, "step_num is not a step number (or \"-\")", NULL, NULL);
        }
        snprintf(step, sizeof step, "step%s", sn);
        if (!(doc = cJSON_ParseWithOpts(text, &end, 1))) {
            char what[120];
            snprintf(what, sizeof what, "invalid JSON at character %lld of the cell",
                     (long long)(end && end >= text ? end - text + 1 : 1));
            return row_bad(&h, what, NULL, NULL);
        }
        if (!cJSON_IsObject(doc)) {
            cJSON_Delete(doc);
            return row_bad(&h, "not a JSON object of ops", NULL, NULL);
        }
        cJSON_ArrayForEach(op, doc) {
            if (add_op(c, &h, step, op)) {
                cJSON_Delete(doc);
                return -1;
            }
        }
        cJSON_Delete(doc);
    }
    return 0;
}

int tt_comm_load_hccl_raw(tt_comm *c, const char *path, tt_error *err)
{
    tt_sidetab *t;
    int rc;
    if (tt_sidetab_read(path, &t, err)) {
        tt_sidetab_error_in(err, path);
        return -1;
    }
    rc = read_rows(c, t, err);
    tt_sidetab_free(t);
    if (rc) {
        tt_sidetab_error_in(err, path);
        return -1;
    }
    c->has_time = c->has_matrix = true;
    return 0;
}

int tt_comm_load_beside(const char *trace_path, unsigned which, tt_comm **out, tt_error *err)
{
    char dir[4096], path[4400];
    int64_t rank;
    tt_comm *c;
    int rc;
    tt_comm_dirname(trace_path, dir, sizeof dir);
    rc = tt_comm_load_dir(dir, which, out, err);
    if (rc != TT_COMM_NONE)
        return rc;
    if ((rank = tt_mindspore_steps_rank(trace_path)) < 0)
        return TT_COMM_NONE;
    snprintf(path, sizeof path, "%s/hccl_raw_%lld.csv", dir, (long long)rank);
    if (!tt_sidetab_exists(path))
        return TT_COMM_NONE;
    if (!(c = calloc(1, sizeof *c)))
        return oom(err);
    if (tt_comm_load_hccl_raw(c, path, err)) {
        tt_comm_free(c);
        return -1;
    }
    *out = c;
    return TT_COMM_FOUND;
}
