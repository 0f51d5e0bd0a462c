/* fuzz_sidetab.c - libFuzzer target for the CSV side tables beside an
 * Ascend trace (analysis/sidetab.h): the input written as
 * step_trace_time.csv, op_statistic.csv and api_statistic.csv next to a
 * tiny trace, then read as `report --kind overview` (the file source,
 * analysis/overview.h), `--kind op-statistic`/`api-statistic`
 * (report/kind_statistic.h) and the slow-card rule (two ranks reading it)
 * read them. Every failure is one error with a message; a table that reads
 * has every cell. tests/formats.mk builds it as a fuzzer with
 * --enable-fuzzing and always as a regression program over
 * tests/fuzz/corpus/sidetab/.
 */
#include "config.h"

#include "fuzz_files.h"

#include "analysis/overview.h"
#include "analysis/sidetab.h"
#include "report/kind_statistic.h"

static const char tiny_trace[] =
    "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10}]}";

static void read_table(const char *path)
{
    tt_sidetab *t = NULL;
    tt_error err;
    tt_error_clear(&err);
    if (tt_sidetab_read(path, &t, &err)) {
        FCHECK(t == NULL);
        fuzz_check_error(&err);
        return;
    }
    FCHECK(t->n_cols > 0 && t->hdr != NULL);
    for (size_t c = 0; c < t->n_cols; c++)
        FCHECK(t->hdr[c] != NULL);
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            int64_t v;
            FCHECK(tt_sidetab_cell(t, r, c) != NULL);
            if (tt_sidetab_decimal(t, r, c, 3, &v, &err))
                fuzz_check_error(&err);
        }
    tt_sidetab_free(t);
}

static void overview(const tt_trace *tr)
{
    tt_overview *o = NULL;
    tt_error err;
    tt_error_clear(&err);
    if (tt_overview_compute(tr, TT_OVERVIEW_FILE, &o, &err)) {
        FCHECK(o == NULL);
        fuzz_check_error(&err);
        return;
    }
    FCHECK(o->source == TT_OVERVIEW_FILE && o->path != NULL);
    for (size_t i = 0; i < o->n; i++)
        FCHECK(o->v[i].name != NULL);
    tt_overview_free(o);
}

static void statistic(const tt_stat_table *d, const tt_trace *tr)
{
    tt_sidetab *t = NULL;
    int map[TT_STAT_MAX_COLS];
    tt_error err;
    int rc;
    tt_error_clear(&err);
    rc = tt_stat_read(d, tr, &t, map, &err);
    if (rc < 0) {
        fuzz_check_error(&err);
        return;
    }
    FCHECK(rc == 0 && t != NULL);
    for (size_t k = 0; k < d->n; k++)
        FCHECK(map[k] >= 0 && (size_t)map[k] < t->n_cols);
    tt_sidetab_free(t);
}

/* slow-card compares the ranks' overviews: both ranks read this file */
static void slow_card(const tt_trace *tr)
{
    const tt_trace *const v[2] = {tr, tr};
    fuzz_run_rule("slow-card", v, 2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char trace[600], path[600];
    tt_trace *tr;
    fuzz_put_file("trace.json", tiny_trace, sizeof tiny_trace - 1, trace, sizeof trace);
    fuzz_put_file(TT_OVERVIEW_FILE_NAME, data, size, path, sizeof path);
    fuzz_put_file(tt_stat_op.file, data, size, path, sizeof path);
    fuzz_put_file(tt_stat_api.file, data, size, path, sizeof path);
    read_table(path);
    tr = fuzz_load_path(trace);
    overview(tr);
    statistic(&tt_stat_op, tr);
    statistic(&tt_stat_api, tr);
    slow_card(tr);
    tt_trace_free(tr);
    return 0;
}
