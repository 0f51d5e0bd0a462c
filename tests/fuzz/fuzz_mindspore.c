/* fuzz_mindspore.c - libFuzzer target for the older MindSpore step trace
 * decoder (step_trace_raw_N_detail_time.csv, decode/mindspore_steps.c):
 * the input loaded with that decoder forced, strictly and with
 * --lenient, and through detection (fuzz_formats.h checks the model);
 * what loads also goes through the overview's legacy path
 * (analysis/overview.h), whose numbers must stay within each step.
 * tests/formats.mk builds it as a fuzzer with --enable-fuzzing and always
 * as a regression program over tests/fuzz/corpus/mindspore/.
 */
#include "config.h"

#include "fuzz_files.h"

#include "analysis/overview.h"

#define FORMAT "mindspore-step-trace"

/* The overview of a loaded step trace: every number of a step is a part
 * of the step, so none is negative. */
static void check_overview(const tt_trace *tr)
{
    tt_overview *o = NULL;
    tt_error err;
    tt_error_clear(&err);
    if (tt_overview_from_timeline(tr, &o, &err)) {
        FCHECK(err.code == TT_ERR_NOMEM);
        return;
    }
    FCHECK(o->source == TT_OVERVIEW_FILE);
    for (size_t i = 0; i < o->n; i++) {
        const tt_overview_step *s = &o->v[i];
        FCHECK(s->name != NULL);
        FCHECK(s->computing >= 0 && s->communication >= 0 && s->free >= 0);
        FCHECK(s->comm_not_overlapped == s->communication);
        FCHECK(s->bubble >= 0 && s->stage >= 0);
    }
    tt_overview_free(o);
}

static void load_overview(const uint8_t *data, size_t size, bool lenient)
{
    tt_trace *tr = fuzz_load_mem(data, size, FORMAT, lenient);
    if (tr) {
        check_overview(tr);
        tt_trace_free(tr);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_decoder(data, size, FORMAT, NULL);
    load_overview(data, size, false);
    load_overview(data, size, true);
    (void)fuzz_load(data, size, false, NULL, NULL);
    return 0;
}
