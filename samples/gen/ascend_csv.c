/* ascend_csv.c - `gen-trace ascend-csv`: an Ascend `kernel_details.csv`
 * (torch_npu profiler, CANN 8 layout: 46 columns) of a few training steps
 * of a transformer layer stack on one NPU.
 *
 * Written the way the profiler writes it (compare
 * ../shared/traces/ascend/kernel_details_v8.csv): the start time quoted
 * with a trailing tab, shape lists quoted with doubled quotes, "N/A" where
 * a column does not apply, AI Core / AI Vector Core counter columns filled
 * for the core type that ran the kernel and 0 for the other. Compute runs
 * on stream 2; HCCL gradient all-reduces (Accelerator Core "HCCL", no
 * stream) overlap the backward pass.
 *
 * Deterministic: the same options give the same bytes.
 */
#include "config.h"

#include "gen/common.h"
#include "gen/formats.h"

#include <inttypes.h>
#include <string.h>

#define T0_NS INT64_C(1736413971400000000)   /* an epoch time in ns */

static const char *const header =
    "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
    "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,"
    "Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,"
    "aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),"
    "aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,"
    "aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,"
    "aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),"
    "aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,cube_utilization(%)";

typedef enum core { C_AIC, C_MIX, C_AIV, C_CPU, C_HCCL } core;

typedef struct kdef {
    const char *name, *type;
    core        core;
    int64_t     us_lo, us_hi;       /* duration range, us */
    int         block, mix;
    const char *in_shape, *in_types, *in_fmt, *out_shape, *out_types, *out_fmt;
} kdef;

static const kdef fwd[] = {
    {"aclnnMatmul_MatMulCommon_MatMulV2", "MatMulV2", C_AIC, 170, 200, 16, 0,
     "81920,4096;8192,512", "DT_BF16;DT_BF16", "ND;ND", "4096,512", "DT_BF16", "ND"},
    {"aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "FlashAttentionScore",
     C_MIX, 395, 425, 20, 40, "4096,2,512;4096,2,512;4096,2,512", "DT_BF16;DT_BF16;DT_BF16",
     "NCL;NCL;NCL", "2,4,4096,8;2,4,4096,8;;4096,2,512", "FLOAT;FLOAT;DT_BF16", "ND;ND;ND"},
    {"aclnnAdd_AddAiCore_Add", "Add", C_AIV, 12, 30, 40, 0, "512,2,4096;512,2,4096",
     "DT_BF16;DT_BF16", "NCL;NCL", "512,2,4096", "DT_BF16", "ND"},
    {"aclnnRmsNorm_RmsNorm_RmsNorm", "RmsNorm", C_AIV, 30, 48, 40, 0, "4096,2,4096;4096",
     "DT_BF16;DT_BF16", "ND;ND", "4096,2,4096;4096,2,1", "DT_BF16;FLOAT", "ND;ND"},
    {"aclnnMatmul_MatMulV3Common_MatMulV3", "MatMulV3", C_AIC, 480, 520, 20, 0,
     "81920,1536;8192,4096", "DT_BF16;DT_BF16", "ND;ND", "1536,4096", "DT_BF16", "ND"},
    {"aclnnSwiGlu_SwiGlu_SwiGlu", "SwiGlu", C_AIV, 40, 60, 40, 0, "4096,2,11008", "DT_BF16",
     "ND", "4096,2,5504", "DT_BF16", "ND"},
};

static const kdef bwd[] = {
    {"aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad",
     "FlashAttentionScoreGrad", C_MIX, 740, 780, 20, 40,
     "4096,2,512;4096,2,512;4096,2,512;4096,2,512", "DT_BF16;DT_BF16;DT_BF16;DT_BF16",
     "NCL;NCL;NCL;NCL", "4096,2,512;4096,2,512;4096,2,512", "DT_BF16;DT_BF16;DT_BF16",
     "ND;ND;ND"},
    {"aclnnMatmul_MatMulV3Common_MatMulV5", "MatMulV3", C_AIC, 500, 540, 20, 0,
     "8192,4096;81920,4096", "DT_BF16;DT_BF16", "ND;ND", "4096,4096", "DT_BF16", "ND"},
    {"aclnnAdd_AddAiCore_Add", "Add", C_AIV, 12, 30, 40, 0, "512,2,4096;512,2,4096",
     "DT_BF16;DT_BF16", "NCL;NCL", "512,2,4096", "DT_BF16", "ND"},
    {"aclnnCast_CastAiCore_Cast", "Cast", C_AIV, 3, 9, 9, 0, "4,1025", "INT64", "ND", "4,1025",
     "INT32", "ND"},
};

typedef struct agen {
    gen_rng     rng;
    gen_out     out;
    uint64_t    seed, steps, layers;
    const char *path;
    int64_t     task;
} agen;

/* "1736413971558972.912\t" from integer ns */
static void put_start(agen *g, int64_t ns)
{
    gen_printf(&g->out, "\"%" PRId64 ".%03" PRId64 "\t\"", ns / 1000, ns % 1000);
}

static void put_us(agen *g, int64_t ns)
{
    /* at most three decimals, trailing zeros dropped, as the profiler */
    int64_t whole = ns / 1000, frac = ns % 1000;
    if (frac == 0)
        gen_printf(&g->out, "%" PRId64, whole);
    else if (frac % 100 == 0)
        gen_printf(&g->out, "%" PRId64 ".%" PRId64, whole, frac / 100);
    else if (frac % 10 == 0)
        gen_printf(&g->out, "%" PRId64 ".%02" PRId64, whole, frac / 10);
    else
        gen_printf(&g->out, "%" PRId64 ".%03" PRId64, whole, frac);
}

static void put_ratio(agen *g, int64_t permille)
{
    gen_printf(&g->out, "%" PRId64 ".%03" PRId64, permille / 1000, permille % 1000);
}

/* One row; returns its end time. */
static int64_t row(agen *g, uint64_t step, const kdef *k, int64_t start)
{
    gen_out *o = &g->out;
    int64_t dur = gen_rng_range(&g->rng, k->us_lo * 1000, k->us_hi * 1000);
    int64_t wait = gen_rng_range(&g->rng, 200, 2400);
    bool hccl = k->core == C_HCCL;
    static const char *const core_name[] = {"AI_CORE", "MIX_AIC", "AI_VECTOR_CORE", "AI_CPU",
                                            "HCCL"};
    gen_printf(o, "%" PRIu64 ",4294967295,", step);
    if (hccl)
        gen_puts(o, "N/A,N/A,");
    else
        gen_printf(o, "%" PRId64 ",2,", g->task++);
    gen_printf(o, "%s,%s,%s,%s,", k->name, k->type, hccl ? "N/A" : "dynamic", core_name[k->core]);
    put_start(g, start);
    gen_putc(o, ',');
    put_us(g, dur);
    gen_putc(o, ',');
    put_us(g, wait);
    if (hccl) {
        /* collectives: nothing but the timing applies */
        for (int c = 12; c <= 46; c++)
            gen_puts(o, ",N/A");
        gen_putc(o, '\n');
        return start + dur;
    }
    gen_printf(o, ",%d,%d,NO,\"\"\"%s\"\"\",%s,%s,\"\"\"%s\"\"\",%s,%s,N/A", k->block, k->mix,
               k->in_shape, k->in_types, k->in_fmt, k->out_shape, k->out_types, k->out_fmt);
    if (k->core == C_AIC || k->core == C_MIX) {
        int64_t aic = dur - gen_rng_range(&g->rng, 500, 3000);
        int64_t mac = gen_rng_range(&g->rng, 700, 850);
        gen_putc(o, ',');
        put_us(g, aic);
        gen_printf(o, ",%" PRId64 ",", aic * 1800 / 62);   /* cycles at 1.8 GHz / 62 cores... */
        put_us(g, aic * mac / 1000);
        gen_putc(o, ',');
        put_ratio(g, mac);
        for (int i = 0; i < 4; i++) {
            int64_t r = gen_rng_range(&g->rng, 20, 960);
            gen_putc(o, ',');
            put_us(g, aic * r / 1000);
            gen_putc(o, ',');
            put_ratio(g, r);
        }
        gen_puts(o, ",0.001");
    } else {
        gen_puts(o, ",0,0,0,0,0,0,0,0,0,0,0,0,0");
    }
    if (k->core == C_AIV || k->core == C_MIX) {
        int64_t aiv = dur - gen_rng_range(&g->rng, 300, 2600);
        gen_putc(o, ',');
        put_us(g, aiv);
        gen_printf(o, ",%" PRId64, aiv * 1800 / 25);
        for (int i = 0; i < 4; i++) {
            int64_t r = gen_rng_range(&g->rng, 30, 900);
            gen_putc(o, ',');
            put_us(g, aiv * r / 1000);
            gen_putc(o, ',');
            put_ratio(g, r);
        }
        gen_puts(o, ",0.027");
    } else {
        gen_puts(o, ",0,0,0,0,0,0,0,0,0,0,0");
    }
    gen_putc(o, ',');
    if (k->core == C_AIC || k->core == C_MIX)
        put_ratio(g, gen_rng_range(&g->rng, 60000, 96000));
    else
        gen_putc(o, '0');
    gen_putc(o, '\n');
    return start + dur;
}

static void write_rows(agen *g)
{
    int64_t t = T0_NS + 11629128, hccl_free = t;
    int bucket = 0;
    gen_puts(&g->out, header);
    gen_putc(&g->out, '\n');
    for (uint64_t s = 0; s < g->steps; s++) {
        uint64_t step = 19 + s;
        for (uint64_t l = 0; l < g->layers; l++)
            for (size_t i = 0; i < sizeof fwd / sizeof fwd[0]; i++)
                t = row(g, step, &fwd[i], t + gen_rng_range(&g->rng, 1000, 6000));
        for (uint64_t l = 0; l < g->layers; l++) {
            for (size_t i = 0; i < sizeof bwd / sizeof bwd[0]; i++)
                t = row(g, step, &bwd[i], t + gen_rng_range(&g->rng, 1000, 6000));
            /* gradient bucket all-reduce, overlapping the next layer */
            if (l % 2 == 1) {
                kdef ar = {NULL, "hcom_allReduce_", C_HCCL, 900, 2600, 0, 0,
                           "", "", "", "", "", ""};
                char name[64];
                int64_t at = t > hccl_free ? t : hccl_free;
                snprintf(name, sizeof name, "hcom_allReduce__%d_%d", 445 + (int)s, bucket++);
                ar.name = name;
                hccl_free = row(g, step, &ar, at + gen_rng_range(&g->rng, 2000, 9000));
            }
        }
        /* optimizer: a run of small vector kernels */
        for (int i = 0; i < 24; i++)
            t = row(g, step, &bwd[3], t + gen_rng_range(&g->rng, 2000, 4000));
        t += 2000000;   /* host gap between steps */
    }
}

static int ascend_run(int argc, char **argv)
{
    agen g;
    char msg[512];
    memset(&g, 0, sizeof g);
    g.seed = 11;
    g.steps = 3;
    g.layers = 4;
    g.task = 60679;
    {
        gen_opt opts[] = {
            {"output", 'o', GEN_OPT_STR, &g.path, 0, 0, "FILE", "where to write (- = stdout)", false},
            {"steps", 0, GEN_OPT_U64, &g.steps, 1, 100000, "N", "training steps (default 3)", false},
            {"layers", 0, GEN_OPT_U64, &g.layers, 1, 1000, "N", "layers (default 4)", false},
            {"seed", 0, GEN_OPT_U64, &g.seed, 0, UINT64_MAX, "S", "random seed (default 11)", false},
            {NULL, 0, 0, NULL, 0, 0, NULL, NULL, false},
        };
        int pr = gen_opts_parse(opts, argc, argv, "ascend-csv",
                                "An Ascend kernel_details.csv (CANN 8 layout).");
        if (pr)
            return pr > 0 ? GEN_EXIT_OK : GEN_EXIT_ERROR;
    }
    if (!g.path) {
        gen_error("ascend-csv: no output file (-o FILE; - for stdout)");
        return GEN_EXIT_ERROR;
    }
    gen_rng_seed(&g.rng, g.seed);
    if (gen_out_open(&g.out, g.path, msg, sizeof msg)) {
        gen_error("%s", msg);
        return GEN_EXIT_ERROR;
    }
    write_rows(&g);
    if (gen_out_commit(&g.out, msg, sizeof msg)) {
        gen_error("%s", msg);
        return GEN_EXIT_ERROR;
    }
    return GEN_EXIT_OK;
}

const gen_format gen_format_ascend_csv = {
    .name = "ascend-csv",
    .usage = "[--steps N] [--layers N] [--seed S] -o FILE",
    .help = "Ascend kernel_details.csv (CANN 8, 46 columns) of a few training steps",
    .run = ascend_run,
};
