/* fuzz_hccl.c - libFuzzer target for the older MindSpore communication
 * file hccl_raw_N.csv (decode/mindspore_hccl.h): the input read as
 * hccl_raw_0.csv (each failure one error with a message; what reads has
 * ops and links whose link totals hold every link at most once, a zero
 * time giving a zero bandwidth), then found beside a step trace as
 * `report --kind comm` finds it, and read by the slow-link rule
 * (rules/rule_slow_link.c) as `check` does. tests/jobside.mk builds it as
 * a fuzzer with --enable-fuzzing and always as a regression program over
 * tests/fuzz/corpus/hccl/.
 */
#include "config.h"

#include "fuzz_files.h"

#include "decode/ascend_comm.h"
#include "decode/mindspore_hccl.h"

/* A minimal step trace of rank 0, so the hccl file is its side file. */
static const char step_trace[] =
    "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,"
    "fp_and_bp,tail\n1,100,200,100,100,190,0,90,10\n";

static void read_hccl(const char *path)
{
    tt_comm *c = calloc(1, sizeof *c);
    tt_comm_total *t = NULL;
    tt_error err;
    size_t nt = 0;
    FCHECK(c != NULL);
    tt_error_clear(&err);
    if (tt_comm_load_hccl_raw(c, path, &err)) {
        fuzz_check_error(&err);
        tt_comm_free(c);
        return;
    }
    FCHECK(tt_comm_link_totals(c, &t, &nt) == 0);
    FCHECK(nt <= c->n_links);
    for (size_t i = 0; i < nt; i++) {
        FCHECK(t[i].group != NULL && t[i].transport != NULL);
        if (t[i].time_ms == 0)
            FCHECK(t[i].bw_gbs == 0);
    }
    free(t);
    tt_comm_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char trace[600], hccl[600];
    fuzz_put_file("step_trace_raw_0_detail_time.csv", step_trace, sizeof step_trace - 1, trace,
                  sizeof trace);
    fuzz_put_file("hccl_raw_0.csv", data, size, hccl, sizeof hccl);
    read_hccl(hccl);
    tt_comm *c = NULL;
    tt_error err;
    tt_error_clear(&err);
    if (tt_comm_load_beside(trace, TT_COMM_TIME | TT_COMM_MATRIX, &c, &err) < 0)
        fuzz_check_error(&err);
    tt_comm_free(c);
    tt_trace *tr = fuzz_load_path(trace);
    const tt_trace *const v[1] = {tr};
    fuzz_run_rule("slow-link", v, 1);
    tt_trace_free(tr);
    return 0;
}
