/* nsys_csv.c - `gen-trace nsys-csv`: the output of
 * `nsys stats --report cuda_gpu_trace --format csv` for a few training
 * iterations of a small CNN on one GPU.
 *
 * Columns as nsys 2024 writes them: "Start (ns)", "Duration (ns)",
 * "CorrId", grid and block sizes, "Reg/Trd", "StcSMem (MB)",
 * "DymSMem (MB)", "Bytes (MB)", "Throughput (MBps)", "SrcMemKd",
 * "DstMemKd", "Device", "Ctx", "GreenCtx", "Strm", "Name"; rows sorted by
 * start; empty cells where a column does not apply; kernel names with
 * commas quoted. Memory sizes are decimal MB (10^6 bytes), as nsys prints.
 *
 * Content: per iteration a pageable host-to-device copy of the batch, a
 * memset, forward and backward kernels on stream 7, NCCL all-reduce
 * kernels on stream 20 overlapping backward, and a device-to-host copy of
 * the loss into pinned memory.
 *
 * Deterministic: the same options give the same bytes.
 */
#include "config.h"

#include "gen/common.h"
#include "gen/formats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define DEVICE "NVIDIA A100-SXM4-80GB (0)"
#define MAX_ROWS 1000000

typedef struct krow {
    int64_t     start, dur;
    int64_t     corr;
    int         grid[3], block[3], regs;
    int64_t     smem, dsmem, bytes;   /* bytes < 0: not a memory operation */
    const char *src, *dst;
    int         stream;
    const char *name;
    size_t      seq;
} krow;

typedef struct sgen {
    gen_rng     rng;
    gen_out     out;
    uint64_t    seed, iters;
    const char *path;
    krow       *r;
    size_t      n, cap;
    bool        oom;
    int64_t     corr;
    int64_t     free_at[2];
} sgen;

static krow *add(sgen *g, int stream, int64_t not_before, int64_t dur, const char *name)
{
    krow *k;
    int si = stream == 7 ? 0 : 1;
    if (g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 1024;
        krow *nr = nc <= MAX_ROWS ? realloc(g->r, nc * sizeof *nr) : NULL;
        if (!nr) {
            g->oom = true;
            return NULL;
        }
        g->r = nr;
        g->cap = nc;
    }
    k = &g->r[g->n];
    memset(k, 0, sizeof *k);
    k->seq = g->n++;
    k->start = (g->free_at[si] > not_before ? g->free_at[si] : not_before) +
               gen_rng_range(&g->rng, 1500, 6000);
    k->dur = dur;
    k->corr = g->corr++;
    k->stream = stream;
    k->name = name;
    k->bytes = -1;
    g->free_at[si] = k->start + dur;
    return k;
}

static void kernel(sgen *g, int stream, int64_t not_before, int64_t dur_lo, int64_t dur_hi,
                   const char *name, int gx, int bx, int regs, int64_t smem)
{
    krow *k = add(g, stream, not_before, gen_rng_range(&g->rng, dur_lo, dur_hi), name);
    if (!k)
        return;
    k->grid[0] = gx;
    k->grid[1] = k->grid[2] = 1;
    k->block[0] = bx;
    k->block[1] = k->block[2] = 1;
    k->regs = regs;
    k->smem = smem;
}

static void copy(sgen *g, int64_t not_before, int64_t bytes, const char *name, const char *src,
                 const char *dst, int64_t bytes_per_us)
{
    krow *k = add(g, 7, not_before, bytes * 1000 / bytes_per_us + 1800, name);
    if (!k)
        return;
    k->bytes = bytes;
    k->src = src;
    k->dst = dst;
}

static void simulate(sgen *g)
{
    static const char *const conv =
        "void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688fprop_optimized_tf32_128x128_"
        "32x4_nhwc_align4>(cutlass_tensorop_s1688fprop_optimized_tf32_128x128_32x4_nhwc_align4::"
        "Params)";
    static const char *const bn =
        "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, "
        "const float *, cudnnTensorStruct, float *, const float *, const float *, float, float, "
        "float *, float *, float *, float *, float, float)";
    static const char *const relu =
        "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
        "launch_clamp_scalar(at::TensorIteratorBase &, c10::Scalar, c10::Scalar, "
        "at::native::detail::ClampLimits)::[lambda() (instance 1)]::operator ()() const::"
        "[lambda() (instance 7)]::operator ()() const::[lambda(float) (instance 1)], "
        "at::detail::Array<char *, 2>>(int, T2, T3)";
    static const char *const dgrad =
        "sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_"
        "stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer";
    static const char *const wgrad =
        "sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128"
        "x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_train";
    static const char *const nccl = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm *, "
                                    "unsigned long, ncclWork *)";
    static const char *const sgd =
        "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
        "namespace)::TensorListMetadata<3>, at::native::(anonymous namespace)::SGDFunctor<float, "
        "3, 1>, float, float *, double, double, double, bool, bool, bool *, float *, float *>"
        "(T1, T2, T3...)";
    int64_t t = INT64_C(1432101789);
    g->free_at[0] = g->free_at[1] = t;
    g->corr = 1184;
    for (uint64_t it = 0; it < g->iters && !g->oom; it++) {
        int64_t bw_start;
        /* the input batch from pageable memory (blocks the host), a memset */
        copy(g, t, 77070336, "[CUDA memcpy Host-to-Device]", "Pageable", "Device", 11500);
        {
            krow *k = add(g, 7, g->free_at[0], gen_rng_range(&g->rng, 1400, 1700), "[CUDA memset]");
            if (k) {
                k->bytes = 4096;
                k->src = "Device";
            }
        }
        for (int l = 0; l < 8; l++) {
            kernel(g, 7, 0, 180000, 260000, conv, 392, 128, 232, 65536);
            kernel(g, 7, 0, 40000, 52000, bn, 256, 512, 32, 0);
            kernel(g, 7, 0, 21000, 30000, relu, 6272, 128, 16, 0);
        }
        bw_start = g->free_at[0];
        for (int l = 7; l >= 0; l--) {
            kernel(g, 7, 0, 190000, 280000, dgrad, 392, 128, 236, 65536);
            kernel(g, 7, 0, 210000, 300000, wgrad, 196, 128, 238, 65536);
            if (l % 2 == 0)
                kernel(g, 20, g->free_at[0], 120000, 400000, nccl, 8, 512, 96, 0);
        }
        /* the optimizer: many small kernels, one per parameter group */
        for (int p = 0; p < 16; p++)
            kernel(g, 7, g->free_at[1], 3000, 4800, sgd, 20, 512, 38, 0);
        /* the loss to pinned host memory */
        copy(g, g->free_at[0], 4, "[CUDA memcpy Device-to-Host]", "Device", "Pinned", 5000);
        t = g->free_at[0] + 3500000 + gen_rng_range(&g->rng, 0, 400000);
        (void)bw_start;
    }
}

static int cmp_start(const void *pa, const void *pb)
{
    const krow *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* nsys prints memory sizes in MB with three decimals. */
static void put_mb(gen_out *o, int64_t bytes)
{
    int64_t milli = (bytes + 500) / 1000;   /* thousandths of an MB, rounded */
    gen_printf(o, "%" PRId64 ".%03" PRId64, milli / 1000, milli % 1000);
}

static void write_csv(sgen *g)
{
    gen_out *o = &g->out;
    qsort(g->r, g->n, sizeof *g->r, cmp_start);
    gen_puts(o, "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,"
                "StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,"
                "Device,Ctx,GreenCtx,Strm,Name\n");
    for (size_t i = 0; i < g->n; i++) {
        const krow *k = &g->r[i];
        gen_printf(o, "%" PRId64 ",%" PRId64 ",%" PRId64 ",", k->start, k->dur, k->corr);
        if (k->bytes < 0) {
            gen_printf(o, "%d,%d,%d,%d,%d,%d,%d,", k->grid[0], k->grid[1], k->grid[2],
                       k->block[0], k->block[1], k->block[2], k->regs);
            put_mb(o, k->smem);
            gen_putc(o, ',');
            put_mb(o, k->dsmem);
            gen_puts(o, ",,,,,");
        } else {
            gen_puts(o, ",,,,,,,,,");
            put_mb(o, k->bytes);
            gen_putc(o, ',');
            /* MB per second, three decimals */
            {
                int64_t mbps_milli = k->dur > 0 ? k->bytes * 1000000 / k->dur : 0;
                gen_printf(o, "%" PRId64 ".%03" PRId64, mbps_milli / 1000, mbps_milli % 1000);
            }
            gen_printf(o, ",%s,%s,", k->src ? k->src : "", k->dst ? k->dst : "");
        }
        gen_printf(o, "%s,1,,%d,", DEVICE, k->stream);
        if (strchr(k->name, ',') || strchr(k->name, '"')) {
            gen_putc(o, '"');
            for (const char *p = k->name; *p; p++) {
                if (*p == '"')
                    gen_putc(o, '"');
                gen_putc(o, *p);
            }
            gen_putc(o, '"');
        } else {
            gen_puts(o, k->name);
        }
        gen_putc(o, '\n');
    }
}

static int nsys_run(int argc, char **argv)
{
    sgen g;
    char msg[512];
    int rc = GEN_EXIT_OK;
    memset(&g, 0, sizeof g);
    g.seed = 5;
    g.iters = 4;
    {
        gen_opt opts[] = {
            {"output", 'o', GEN_OPT_STR, &g.path, 0, 0, "FILE", "where to write (- = stdout)", false},
            {"iters", 0, GEN_OPT_U64, &g.iters, 1, 10000, "N", "training iterations (default 4)",
             false},
            {"seed", 0, GEN_OPT_U64, &g.seed, 0, UINT64_MAX, "S", "random seed (default 5)", false},
            {NULL, 0, 0, NULL, 0, 0, NULL, NULL, false},
        };
        int pr = gen_opts_parse(opts, argc, argv, "nsys-csv",
                                "nsys stats --report cuda_gpu_trace --format csv output.");
        if (pr)
            return pr > 0 ? GEN_EXIT_OK : GEN_EXIT_ERROR;
    }
    if (!g.path) {
        gen_error("nsys-csv: no output file (-o FILE; - for stdout)");
        return GEN_EXIT_ERROR;
    }
    gen_rng_seed(&g.rng, g.seed);
    simulate(&g);
    if (g.oom) {
        gen_error("nsys-csv: out of memory (or too many iterations)");
        free(g.r);
        return GEN_EXIT_ERROR;
    }
    if (gen_out_open(&g.out, g.path, msg, sizeof msg)) {
        gen_error("%s", msg);
        free(g.r);
        return GEN_EXIT_ERROR;
    }
    write_csv(&g);
    if (gen_out_commit(&g.out, msg, sizeof msg)) {
        gen_error("%s", msg);
        rc = GEN_EXIT_ERROR;
    }
    free(g.r);
    return rc;
}

const gen_format gen_format_nsys_csv = {
    .name = "nsys-csv",
    .usage = "[--iters N] [--seed S] -o FILE",
    .help = "nsys stats --report cuda_gpu_trace --format csv output of a few iterations",
    .run = nsys_run,
};
