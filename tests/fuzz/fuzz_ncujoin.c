/* fuzz_ncujoin.c - libFuzzer target for the `--metrics NCU.csv` input
 * (analysis/ncu_join.h): the input decoded as an ncu --csv table
 * (decode/ncu.c), strictly and with --lenient, then joined to a fixed
 * small Kineto timeline whose kernels carry the names, grid and block
 * sizes of the seed corpus, as the CLI joins them; then what the details
 * panel and `report --kind kernels --metrics` read of every matched
 * kernel. The join's counts must add up; a failure is one error with a
 * message. tests/formats.mk builds it as a fuzzer with --enable-fuzzing
 * and always as a regression program over tests/fuzz/corpus/ncujoin/.
 */
#include "config.h"

#include "fuzz_files.h"

#include "analysis/ncu_join.h"
#include "analysis/ncu_kernels.h"

#include <cjson/cJSON.h>

#define KERNEL(ts, corr, name, grid, block)                                                   \
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":10,"        \
    "\"tid\":10,\"ts\":" #ts ",\"dur\":1,\"args\":{\"correlation\":" #corr "}},"              \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts  \
    "5,\"dur\":3,\"args\":{\"correlation\":" #corr ",\"device\":0,\"stream\":7,\"grid\":" grid \
    ",\"block\":" block "}}"

/* three kernel names, one launched twice, as Kineto writes them */
static const char timeline[] =
    "{\"traceEvents\":["
    KERNEL(10, 1, "cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)",
           "[50, 1, 1]", "[256, 1, 1]") ","
    KERNEL(20, 2, "void at::native::vectorized_elementwise_kernel<4, at::native::"
                  "FillFunctor<float>, at::detail::Array<char*, 1> >(int, "
                  "at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
           "[80, 1, 1]", "[128, 1, 1]") ","
    KERNEL(30, 3, "ampere_sgemm_128x64_nn", "[4, 8, 1]", "[128, 1, 1]") ","
    KERNEL(40, 4, "cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)",
           "[50, 1, 1]", "[256, 1, 1]")
    "]}";

static void join(const uint8_t *data, size_t size, bool lenient)
{
    tt_trace *ncu = fuzz_load_mem(data, size, "ncu-csv", lenient), *tr;
    const tt_ncu_join_stats *st;
    tt_ncu_stat extra[1];
    tt_ncu_row row;
    const char *const metric[1] = {"dram__bytes_read.sum"};
    tt_error err;
    size_t matched = 0;
    if (!ncu)
        return;
    tr = fuzz_load_mem(timeline, sizeof timeline - 1, "chrome-json", false);
    FCHECK(tr != NULL);
    tt_error_clear(&err);
    if (tt_ncu_join_attach(tr, ncu, &err)) {   /* takes ncu */
        FCHECK(err.code != TT_OK && err.what[0] != '\0');
        tt_trace_free(tr);
        return;
    }
    FCHECK((st = tt_ncu_join_stats_of(tr)) != NULL);
    FCHECK(st->matched <= st->profiled && st->names_unmatched <= st->names);
    FCHECK(st->matched + st->beyond + st->shape_mismatch <= st->profiled);
    FCHECK(st->timeline == 4);
    memset(&row, 0, sizeof row);
    memset(extra, 0, sizeof extra);
    row.extra = extra;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (size_t i = 0; i < tr->lanes[l].n; i++) {
            tt_evref ev = {l, (uint32_t)i};
            const cJSON *k = tt_ncu_join_kernel(tr, ev);
            cJSON *d;
            char *text;
            if (!k)
                continue;
            matched++;
            /* what report --kind kernels --metrics sums per name */
            tt_ncu_kernel_values(k, &row, metric, 1);
            FCHECK((d = tt_ncu_join_details(tr, ev)) != NULL);
            FCHECK((text = cJSON_PrintUnformatted(d)) != NULL);
            free(text);
            cJSON_Delete(d);
        }
    FCHECK(matched == st->matched);
    for (int k = 0; k < TT_NCU__N; k++)
        FCHECK(row.v[k].n <= matched);
    /* the ncu-underused rule reads the same joined kernels */
    {
        const tt_trace *const v[1] = {tr};
        fuzz_run_rule("ncu-underused", v, 1);
    }
    tt_trace_free(tr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    join(data, size, false);
    join(data, size, true);
    return 0;
}
