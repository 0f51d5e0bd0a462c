/* fuzz_ascend_comm.c - libFuzzer target for the Ascend communication side
 * files (decode/ascend_comm.h): the input (or, when it holds a NUL byte,
 * the part before it and the part after it) read as communication.json
 * and as communication_matrix.json (each failure one error with a message),
 * the matrix's link totals (every link of the file in exactly one total,
 * the bandwidth size over time), and the slow-link rule
 * (rules/rule_slow_link.c) reading both files beside a tiny trace, as
 * `check` does. tests/formats.mk builds it as a fuzzer with
 * --enable-fuzzing and always as a regression program over
 * tests/fuzz/corpus/ascend_comm/.
 */
#include "config.h"

#include "fuzz_files.h"

#include "decode/ascend_comm.h"

static const char tiny_trace[] =
    "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10}]}";

static void read_as(const char *path, bool matrix)
{
    tt_comm *c = calloc(1, sizeof *c);
    tt_comm_total *t = NULL;
    tt_error err;
    size_t nt = 0;
    FCHECK(c != NULL);
    tt_error_clear(&err);
    if (tt_comm_load_json(c, path, matrix, &err)) {
        fuzz_check_error(&err);
        tt_comm_free(c);
        return;
    }
    FCHECK(matrix ? c->has_matrix : c->has_time);
    FCHECK(tt_comm_link_totals(c, &t, &nt) == 0);
    FCHECK(nt <= c->n_links);
    for (size_t i = 0; i < nt; i++) {
        FCHECK(t[i].group != NULL && t[i].transport != NULL);
        if (t[i].time_ms == 0)
            FCHECK(t[i].bw_gbs == 0);
    }
    for (size_t i = 0; i < c->n_links; i++)
        (void)tt_comm_counts_in_total(c->links[i].op);
    free(t);
    tt_comm_free(c);
}

/* The slow-link rule over the files beside a trace. */
static void run_rule(const char *trace)
{
    tt_trace *tr = fuzz_load_path(trace);
    const tt_trace *const v[1] = {tr};
    fuzz_run_rule("slow-link", v, 1);
    tt_trace_free(tr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char trace[600], time_path[600], matrix_path[600];
    /* the slow-link rule needs a valid pair: an input with a NUL byte is
     * communication.json before it and the matrix after it, else both */
    const uint8_t *nul = memchr(data, 0, size);
    size_t n_time = nul ? (size_t)(nul - data) : size;
    const uint8_t *mx = nul ? nul + 1 : data;
    size_t n_mx = nul ? size - n_time - 1 : size;
    fuzz_put_file("trace.json", tiny_trace, sizeof tiny_trace - 1, trace, sizeof trace);
    fuzz_put_file("communication.json", data, n_time, time_path, sizeof time_path);
    fuzz_put_file("communication_matrix.json", mx, n_mx, matrix_path, sizeof matrix_path);
    read_as(time_path, false);
    read_as(matrix_path, true);
    run_rule(trace);
    /* the matrix alone (a job written without communication.json) */
    fuzz_drop_file("communication.json");
    run_rule(trace);
    return 0;
}
