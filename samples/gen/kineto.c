/* kineto.c - `gen-trace kineto`: a PyTorch profiler (Kineto) Chrome trace of
 * one rank of a DistributedDataParallel training job.
 *
 * The job: ResNet-18, batch 128 of 224x224 images, SGD with momentum, NCCL
 * backend, on an 8-GPU A100 node (rank r drives GPU r % 8). Each
 * ProfilerStep is simulated, not templated: two host threads (the Python
 * main thread and the autograd engine's device thread) advance their own
 * clocks through nested operator calls, every CUDA runtime call gets a
 * correlation id, and the GPU streams (7: compute, 20: NCCL) run what was
 * launched in order, as soon as the launch, the stream and any awaited event
 * allow. Durations come from the work: FLOPs for convolutions and GEMMs,
 * bytes for elementwise kernels and copies, a ring model for all-reduce.
 *
 * What analyses should find in it (by construction, every step):
 *   - the GPU idle while the host is busy: the data loader wait, and the
 *     launch-bound optimizer (four elementwise kernels per parameter, a run
 *     of over a hundred of them under 5 us each, while the host needs
 *     ~10 us to launch each one);
 *   - a pageable host-to-device copy of the input batch that blocks the host;
 *   - a loss copy to pinned memory followed by a long cudaStreamSynchronize,
 *     and a long cudaDeviceSynchronize after backward;
 *   - NCCL all-reduce of gradient buckets overlapping backward compute.
 *
 * Output layout follows what Kineto writes (PyTorch 2.x): the same header
 * (schemaVersion, deviceProperties, distributedInfo), the same event text
 * layout, the trailer of metadata events and the "PyTorch Profiler" span,
 * then traceName, displayTimeUnit and baseTimeNanoseconds. Events are
 * written a step at a time, so memory stays constant for any size.
 *
 * Large mode (--events N) repeats steps while a whole step fits and fills
 * the rest with the host polling cudaEventQuery, so exactly N trace events
 * are written.
 *
 * --shuffle writes the same events out of time order, as exporters do (no
 * Chrome trace writer promises order; Kineto's batches are only the mild
 * case): the timeline events go through a window of --shuffle-window events
 * held in memory, which is written in a seeded random permutation when it
 * is full. Memory stays bounded (a window is ~17 MB of text) for any
 * --events, the bytes are deterministic, and the simulation's own random
 * stream is untouched, so the events are exactly those of the ordered file.
 * The trailer's metadata stays last, where Kineto writes it.
 */
#include "config.h"

#include "gen/common.h"
#include "gen/formats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ constants */

#define GPUS_PER_NODE 8
#define NUM_SMS       108
#define BATCH         128
#define IMAGE         224
#define CLASSES       1000
#define FIRST_STEP    2            /* schedule(wait=1, warmup=1, active=N) */
#define MAX_WORLD     1024
#define BASE_PID      28613
#define BASE_TIME_NS  INT64_C(1718000000000000000)   /* baseTimeNanoseconds */
#define START_NS      INT64_C(3712845123456000)      /* monotonic clock at start */
#define MiB           (INT64_C(1) << 20)
#define SHUFFLE_WINDOW 65536       /* default --shuffle-window */

enum { TH_MAIN, TH_AUTOGRAD, TH__N };
enum { SL_COMPUTE, SL_NCCL, SL__N };
static const int stream_id[SL__N] = {7, 20};

typedef enum kkind {
    K_OP,        /* cpu_op */
    K_ANNOT,     /* user_annotation */
    K_RUNTIME,   /* cuda_runtime */
    K_KERNEL,
    K_MEMCPY,
    K_MEMSET,
    K_COUNTER    /* "GPU Memory" sample */
} kkind;

/* CUPTI callback ids Kineto records as "cbid". */
enum {
    CB_LAUNCH = 211, CB_LAUNCH_EXC = 430, CB_MEMCPY_ASYNC = 41, CB_MEMSET_ASYNC = 51,
    CB_STREAM_SYNC = 131, CB_DEVICE_SYNC = 165, CB_EVENT_RECORD = 135,
    CB_STREAM_WAIT = 147, CB_EVENT_QUERY = 138
};

/* ------------------------------------------------------------- kernels */

typedef struct kspec {
    const char *name;
    int block;      /* threads per block */
    int regs;       /* registers per thread */
    int smem;       /* static + dynamic shared memory per block */
} kspec;

enum {
    KS_CONV_STEM, KS_CONV_FPROP, KS_CONV_FPROP_NHWC, KS_NCHW2NHWC, KS_NHWC2NCHW,
    KS_DGRAD, KS_WGRAD, KS_WGRAD_SPLITK,
    KS_BN_FW, KS_BN_FW_SMALL, KS_BN_BW, KS_BN_BW_SMALL, KS_ADD_LONG,
    KS_RELU, KS_RELU_BW, KS_ADD, KS_MUL, KS_FILL, KS_MAXPOOL, KS_MAXPOOL_BW, KS_MEAN, KS_DIV,
    KS_GEMM_TN, KS_GEMM_NN, KS_GEMM_NT, KS_SUM, KS_SOFTMAX, KS_SOFTMAX_BW, KS_NLL, KS_NLL_BW,
    KS_NCCL_ALLREDUCE_LL, KS_NCCL_ALLREDUCE_LL128, KS_NCCL_BROADCAST,
    KS_NCCL2_ALLREDUCE_LL, KS_NCCL2_ALLREDUCE_LL128, KS_NCCL2_BROADCAST,
    KS__N
};

static const kspec specs[KS__N] = {
    [KS_CONV_STEM] = {"void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, "
                      "false, true>(int, int, int, float const*, int, float*, float const*, "
                      "kernel_conv_params, unsigned long long, int, float, float, int, float "
                      "const*, float const*, bool, int, int)", 128, 90, 16384},
    [KS_CONV_FPROP] = {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_"
                       "tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_"
                       "cudnn_infer", 128, 232, 65536},
    [KS_CONV_FPROP_NHWC] = {"void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688fprop_"
                            "optimized_tf32_128x128_32x4_nhwc_align4>(cutlass_tensorop_s1688fprop_"
                            "optimized_tf32_128x128_32x4_nhwc_align4::Params)", 128, 230, 65536},
    [KS_NCHW2NHWC] = {"void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, "
                      "(cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, float "
                      "const*, float*)", 256, 24, 4224},
    [KS_NHWC2NCHW] = {"void cudnn::ops::nhwcToNchwKernel<float, float, float, true, false, "
                      "(cudnnKernelDataType_t)0>(cudnn::ops::nhwc2nchw_params_t<float>, float "
                      "const*, float*)", 256, 24, 4224},
    [KS_DGRAD] = {"sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x"
                  "128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer",
                  128, 236, 65536},
    [KS_WGRAD] = {"sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_"
                  "tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_"
                  "cudnn_train", 128, 238, 65536},
    [KS_WGRAD_SPLITK] = {"sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_"
                         "nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_"
                         "split_k_kernel_cudnn_train", 128, 64, 0},
    [KS_BN_FW] = {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, true>"
                  "(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, "
                  "float const*, float, float, float*, float*, float*, float*, float, float)",
                  512, 32, 4096},
    [KS_BN_FW_SMALL] = {"void cudnn::bn_fw_tr_1C11_singleread<float, 512, true, 1, 2, 0>"
                        "(cudnn::bn_fw_tr_1C11_args<float>)", 512, 40, 5120},
    [KS_BN_BW] = {"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, "
                  "float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, "
                  "float const*, cudnnTensorStruct, float*, float const*, float*, float*, float "
                  "const*, float const*, float)", 512, 40, 8192},
    [KS_BN_BW_SMALL] = {"void cudnn::bn_bw_1C11_singleread<float, 512, true, 1, 2, 0>(cudnn::bn_"
                        "bw_1C11_args<float>)", 512, 48, 10240},
    [KS_ADD_LONG] = {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor"
                     "OnSelf_add<long>, at::detail::Array<char*, 2> >(int, at::native::CUDAFunctor"
                     "OnSelf_add<long>, at::detail::Array<char*, 2>)", 128, 20, 0},
    [KS_RELU] = {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
                 "namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, "
                 "c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
                 "const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array"
                 "<char*, 2> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::"
                 "TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)"
                 "::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda("
                 "float)#1}, at::detail::Array<char*, 2>)", 128, 26, 0},
    [KS_RELU_BW] = {"void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor"
                    "<float, float, float, at::native::(anonymous namespace)::threshold_kernel_"
                    "impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}"
                    ">, at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<float, float, "
                    "float, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::"
                    "TensorIteratorBase&, float, float)::{lambda(float, float)#1}>, at::detail::"
                    "Array<char*, 3>)", 128, 30, 0},
    [KS_ADD] = {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<"
                "float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
                "at::detail::Array<char*, 3>)", 128, 28, 0},
    [KS_MUL] = {"void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<"
                "float, float, float, at::native::binary_internal::MulFunctor<float> >, at::"
                "detail::Array<char*, 2> >(int, at::native::AUnaryFunctor<float, float, float, "
                "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)",
                128, 24, 0},
    [KS_FILL] = {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float"
                 ">, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::"
                 "detail::Array<char*, 1>)", 128, 16, 0},
    [KS_MAXPOOL] = {"void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>"
                    "(int, float const*, long, long, long, int, int, int, int, int, int, int, int, "
                    "int, int, float*, long*)", 256, 38, 0},
    [KS_MAXPOOL_BW] = {"void at::native::(anonymous namespace)::max_pool_backward_nchw<float, "
                       "float>(float const*, long const*, int, long, long, long, int, int, int, "
                       "int, int, int, int, int, int, int, float*)", 256, 40, 0},
    [KS_MEAN] = {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::"
                 "MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::"
                 "ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, "
                 "float, 4>)", 512, 32, 16},
    [KS_DIV] = {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<"
                "at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::"
                "DivFunctor<float> > >(at::TensorIteratorBase&, at::native::BUnaryFunctor<float, "
                "float, float, at::native::binary_internal::DivFunctor<float> > const&)::{lambda("
                "int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BUnaryFunctor<float, "
                "float, float, at::native::binary_internal::DivFunctor<float> > >(at::"
                "TensorIteratorBase&, at::native::BUnaryFunctor<float, float, float, at::native::"
                "binary_internal::DivFunctor<float> > const&)::{lambda(int)#1})", 128, 22, 0},
    [KS_GEMM_TN] = {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4>("
                    "cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4::Params)", 128, 168, 73728},
    [KS_GEMM_NN] = {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>("
                    "cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4::Params)", 128, 168, 73728},
    [KS_GEMM_NT] = {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>("
                    "cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4::Params)", 128, 168, 73728},
    [KS_SUM] = {"void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::"
                "func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::"
                "TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::"
                "ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, "
                "float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
                "unsigned int, float, 4>)", 512, 32, 16},
    [KS_SOFTMAX] = {"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, "
                    "float, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, "
                    "float const*, int)", 256, 36, 32},
    [KS_SOFTMAX_BW] = {"void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, "
                       "float, float, at::native::(anonymous namespace)::LogSoftMaxBackward"
                       "Epilogue>(float*, float const*, float const*, long)", 256, 34, 32},
    [KS_NLL] = {"void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<"
                "float, float, long>(float*, float*, float const*, long const*, float const*, "
                "bool, long, long, long, long)", 32, 30, 256},
    [KS_NLL_BW] = {"void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_"
                   "2d<float, long>(float*, float const*, long const*, float const*, float const*, "
                   "bool, int, int, long, long)", 32, 28, 0},
    [KS_NCCL_ALLREDUCE_LL] = {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned "
                              "long, ncclWork*)", 544, 96, 87568},
    [KS_NCCL_ALLREDUCE_LL128] = {"ncclKernel_AllReduce_RING_LL128_Sum_float(ncclDevComm*, "
                                 "unsigned long, ncclWork*)", 640, 96, 87568},
    [KS_NCCL_BROADCAST] = {"ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, "
                           "ncclWork*)", 544, 96, 87568},
    [KS_NCCL2_ALLREDUCE_LL] = {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage"
                               "<4096ul>)", 544, 96, 88592},
    [KS_NCCL2_ALLREDUCE_LL128] = {"ncclDevKernel_AllReduce_Sum_f32_RING_LL128("
                                  "ncclDevKernelArgsStorage<4096ul>)", 640, 96, 88592},
    [KS_NCCL2_BROADCAST] = {"ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                            544, 96, 88592},
};

/* ------------------------------------------------------------- network */

typedef enum ltype {
    L_CONV, L_BN, L_RELU, L_MAXPOOL, L_ADD, L_AVGPOOL, L_FLATTEN, L_LINEAR, L_TRANSPOSE,
    L_LOGSOFTMAX, L_NLL
} ltype;

typedef struct layer {
    uint8_t type;
    int     cin, cout, k, stride;
    int     hin, hout;       /* square feature maps */
    int     param, nparam;   /* parameters [param, param + nparam) */
} layer;

#define MAX_LAYERS  96
#define MAX_PARAMS  80
#define MAX_BUCKETS 16

typedef struct knet {
    layer   l[MAX_LAYERS];
    int     n;
    int64_t numel[MAX_PARAMS];   /* parameter sizes, in model order */
    int     np;
    int     bucket[MAX_PARAMS];  /* DDP bucket of each parameter */
    int     bucket_params[MAX_BUCKETS];
    int64_t bucket_numel[MAX_BUCKETS];
    int     nbuckets;
    int64_t buffer_numel;        /* BatchNorm running stats, broadcast each forward */
} knet;

static int net_add(knet *n, ltype t, int cin, int cout, int k, int stride, int hin)
{
    layer *l = &n->l[n->n++];
    memset(l, 0, sizeof *l);
    l->type = (uint8_t)t;
    l->cin = cin;
    l->cout = cout;
    l->k = k;
    l->stride = stride;
    l->hin = hin;
    l->hout = stride > 1 ? (hin + stride - 1) / stride : hin;
    l->param = n->np;
    switch (t) {
    case L_CONV:
        n->numel[n->np++] = (int64_t)cout * cin * k * k;
        break;
    case L_BN:
        n->numel[n->np++] = cout;
        n->numel[n->np++] = cout;
        n->buffer_numel += 2 * (int64_t)cout;
        break;
    case L_LINEAR:
        n->numel[n->np++] = (int64_t)cout * cin;
        n->numel[n->np++] = cout;
        break;
    default:
        break;
    }
    l->nparam = n->np - l->param;
    return l->hout;
}

/* ResNet-18 in module order; DDP buckets as its Reducer assigns them:
 * parameters in reverse order, a first bucket of 1 MiB, then 25 MiB. */
static void net_build(knet *n)
{
    static const int widths[4] = {64, 128, 256, 512};
    int h = IMAGE, c = 64;
    memset(n, 0, sizeof *n);
    h = net_add(n, L_CONV, 3, 64, 7, 2, h);
    net_add(n, L_BN, 64, 64, 0, 1, h);
    net_add(n, L_RELU, 64, 64, 0, 1, h);
    h = net_add(n, L_MAXPOOL, 64, 64, 3, 2, h);
    for (int s = 0; s < 4; s++) {
        for (int b = 0; b < 2; b++) {
            int w = widths[s], stride = (s > 0 && b == 0) ? 2 : 1, hin = h;
            int ho = net_add(n, L_CONV, c, w, 3, stride, hin);
            net_add(n, L_BN, w, w, 0, 1, ho);
            net_add(n, L_RELU, w, w, 0, 1, ho);
            net_add(n, L_CONV, w, w, 3, 1, ho);
            net_add(n, L_BN, w, w, 0, 1, ho);
            if (stride != 1 || c != w) {
                net_add(n, L_CONV, c, w, 1, stride, hin);
                net_add(n, L_BN, w, w, 0, 1, ho);
            }
            net_add(n, L_ADD, w, w, 0, 1, ho);
            net_add(n, L_RELU, w, w, 0, 1, ho);
            c = w;
            h = ho;
        }
    }
    net_add(n, L_AVGPOOL, c, c, 0, h, h);
    net_add(n, L_FLATTEN, c, c, 0, 1, 1);
    net_add(n, L_LINEAR, c, CLASSES, 0, 1, 1);

    {
        int64_t cap = 1 * MiB, bytes = 0;
        int b = 0;
        for (int p = n->np - 1; p >= 0; p--) {
            n->bucket[p] = b;
            n->bucket_params[b]++;
            n->bucket_numel[b] += n->numel[p];
            bytes += n->numel[p] * 4;
            if (bytes >= cap && p > 0 && b + 1 < MAX_BUCKETS) {
                b++;
                bytes = 0;
                cap = 25 * MiB;
            }
        }
        n->nbuckets = b + 1;
    }
}

static int64_t layer_out_numel(const layer *l)
{
    if (l->type == L_LINEAR)
        return (int64_t)BATCH * l->cout;
    if (l->type == L_FLATTEN || l->type == L_AVGPOOL)
        return (int64_t)BATCH * l->cout;
    return (int64_t)BATCH * l->cout * l->hout * l->hout;
}

static int64_t layer_in_numel(const layer *l)
{
    if (l->type == L_LINEAR)
        return (int64_t)BATCH * l->cin;
    return (int64_t)BATCH * l->cin * l->hin * l->hin;
}

/* ------------------------------------------------------------ records */

/* One trace event of the step being built (a CPU op, a runtime call, a GPU
 * activity or a counter sample); flows are derived from them on output. */
typedef struct krec {
    int64_t     ts, dur;
    const char *name;
    int64_t     bytes, bytes2;  /* memcpy/memset bytes; counter: allocated, reserved */
    int64_t     seq;            /* "Sequence number", -1 = none */
    int64_t     nelems;         /* collective size (record_param_comms, NCCL kernels) */
    uint64_t    ext, corr, ev_idx;
    uint32_t    flow;           /* fwdbwd flow id, 0 = none */
    int32_t     gpu;            /* runtime call: index of its GPU activity, -1 = none */
    int32_t     grid[3];
    int16_t     spec;           /* kernel: specs[] index */
    uint16_t    cbid;
    uint8_t     kind;
    uint8_t     th;             /* CPU side: thread; GPU side: stream slot */
    uint8_t     flow_end;       /* fwdbwd: 0 = start (forward op), 1 = end (backward node) */
    uint8_t     fwd_thread;     /* "Fwd thread id" when seq >= 0 */
    const char *coll;           /* "allreduce", "broadcast" or NULL */
} krec;

/* Autograd graph recorded during forward, replayed backwards. */
typedef struct ktape {
    uint8_t  type;
    int16_t  layer;
    int64_t  seq;
    uint32_t flow;
} ktape;

/* State that survives from step to step; copied so that a step that does
 * not fit the --events budget can be dropped without a trace. */
typedef struct ksim {
    gen_rng  rng;
    int64_t  clock[TH__N];
    int64_t  free_at[SL__N];
    uint64_t next_ext, next_corr, next_ev_idx, next_flow;
    int64_t  next_seq;
    int64_t  mem_alloc, mem_reserved;
    uint64_t step_no;
} ksim;

typedef struct kstats {
    uint64_t events, timeline, flows, counter_events, counter_samples;
    uint64_t ph_X, ph_s, ph_f, ph_M, ph_C, ph_i;
    uint64_t cat_cpu_op, cat_annot, cat_runtime, cat_kernel, cat_memcpy, cat_memset;
    uint64_t cat_ac2g, cat_fwdbwd, cat_trace;
    uint64_t lane_main, lane_autograd, lane_stream[SL__N], lane_spans, lane_global;
    uint64_t steps, fill;
    int64_t  t0, t1;
} kstats;

typedef struct kopts {
    uint64_t    steps, events, seed, rank, world;
    uint64_t    slow_rank;     /* UINT64_MAX: no slow rank */
    uint64_t    slow_pct;      /* the slow rank's kernels take this percent */
    const char *nccl_version;
    const char *out;
    bool        stats;
    bool        shuffle;
    uint64_t    shuffle_window;
} kopts;

/* --shuffle's window: the text of up to --shuffle-window events, written to
 * memory through the output's FILE pointer (swapped in by shuffle_begin),
 * with where each event starts. */
typedef struct kshuffle {
    bool      on;
    FILE     *mem, *real;      /* open_memstream of text; the output file */
    char     *text;
    size_t    text_len;
    size_t   *start;           /* offsets of the events in text */
    size_t    n;
    bool      any_written;     /* an event precedes the window in the file */
    gen_rng   rng;             /* its own stream: the simulation's is untouched */
} kshuffle;

typedef struct kgen {
    kopts    opt;
    knet     net;
    ksim     s;
    int64_t  pid, tid[TH__N], device, t_start, t_meta;
    bool     nccl_new_names;   /* NCCL >= 2.19 kernel names */
    uint32_t stack[TH__N][48];
    int      depth[TH__N];
    krec    *rec;
    size_t   n, cap;
    ktape    tape[4 * MAX_LAYERS];
    int      ntape;
    int      bucket_ready[MAX_BUCKETS];
    char    *ranks_str;        /* "[0, 1, ..., W-1]" */
    char     step_name[32];    /* "ProfilerStep#N" of the step being built */
    gen_out  out;
    kshuffle shuf;
    kstats   st;
    bool     oom;
    /* straggler model: when each collective's NCCL kernel started here, and
     * when it started on the slow rank (found by a silent pre-pass) */
    int64_t       *arrive;
    size_t         n_arrive, cap_arrive;
    const int64_t *slow_arrive;
    size_t         n_slow_arrive;
} kgen;

/* ------------------------------------------------------------ building */

static int64_t rnd(kgen *g, int64_t lo, int64_t hi)
{
    return gen_rng_range(&g->s.rng, lo, hi);
}

static int64_t jit(kgen *g, int64_t v, int permille)
{
    return gen_rng_jitter(&g->s.rng, v, permille);
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static uint32_t rec_new(kgen *g, kkind kind, uint8_t th)
{
    krec *r;
    if (g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 4096;
        krec *nr = realloc(g->rec, nc * sizeof *nr);
        if (!nr) {
            /* keep going over the records already there (kineto_run
             * allocates the first block); the caller checks g->oom */
            g->oom = true;
            g->n = 0;
        } else {
            g->rec = nr;
            g->cap = nc;
        }
    }
    r = &g->rec[g->n];
    memset(r, 0, sizeof *r);
    r->kind = (uint8_t)kind;
    r->th = th;
    r->seq = -1;
    r->gpu = -1;
    r->spec = -1;
    return (uint32_t)g->n++;
}

/* Enter an operator on a host thread: its own work before any child takes
 * enter_ns (jittered). Siblings are separated by a little dispatcher time,
 * so children always start strictly inside their parent. */
static uint32_t op_begin(kgen *g, int th, kkind kind, const char *name, int64_t enter_ns)
{
    uint32_t i;
    g->s.clock[th] += rnd(g, 150, 700);
    i = rec_new(g, kind, (uint8_t)th);
    g->rec[i].name = name;
    g->rec[i].ts = g->s.clock[th];
    g->rec[i].ext = g->s.next_ext++;
    g->rec[i].ev_idx = g->s.next_ev_idx++;
    if (g->depth[th] < 48)
        g->stack[th][g->depth[th]++] = i;
    g->s.clock[th] += max64(200, jit(g, enter_ns, 250));
    return i;
}

static void op_end(kgen *g, int th, int64_t exit_ns)
{
    uint32_t i;
    if (g->depth[th] == 0)
        return;
    i = g->stack[th][--g->depth[th]];
    g->s.clock[th] += max64(150, jit(g, exit_ns, 250));
    g->rec[i].dur = g->s.clock[th] - g->rec[i].ts;
}

static void op_leaf(kgen *g, int th, kkind kind, const char *name, int64_t ns)
{
    op_begin(g, th, kind, name, ns);
    op_end(g, th, ns / 5);
}

/* The autograd link of a forward op (start) or backward node (end). */
static void op_seq(kgen *g, uint32_t i, int64_t seq, uint32_t flow, bool end)
{
    g->rec[i].seq = seq;
    g->rec[i].flow = flow;
    g->rec[i].flow_end = end;
    g->rec[i].fwd_thread = end ? 1 : 0;
}

static uint64_t current_ext(kgen *g, int th, uint64_t corr)
{
    return g->depth[th] ? g->rec[g->stack[th][g->depth[th] - 1]].ext : corr;
}

/* A CUDA runtime call of dur ns on a host thread. */
static uint32_t cuda_call(kgen *g, int th, const char *name, int cbid, int64_t dur)
{
    uint32_t i;
    g->s.clock[th] += rnd(g, 200, 900);
    i = rec_new(g, K_RUNTIME, (uint8_t)th);
    g->rec[i].name = name;
    g->rec[i].cbid = (uint16_t)cbid;
    g->rec[i].ts = g->s.clock[th];
    g->rec[i].dur = dur;
    g->rec[i].corr = g->s.next_corr++;
    g->rec[i].ext = current_ext(g, th, g->rec[i].corr);
    g->s.clock[th] += dur;
    return i;
}

static int64_t launch_cost(kgen *g)
{
    /* mostly 3.5-7 us; now and then the driver takes much longer */
    if (gen_rng_chance(&g->s.rng, 6))
        return rnd(g, 25000, 80000);
    return rnd(g, 3500, 7000);
}

/* A GPU activity for runtime call rt on stream slot sl, lasting gpu_ns,
 * starting when the launch, the stream and not_before all allow. */
static uint32_t gpu_activity(kgen *g, uint32_t rt, kkind kind, const char *name, int sl,
                             int64_t gpu_ns, int64_t not_before)
{
    uint32_t k = rec_new(g, kind, (uint8_t)sl);
    krec *r = &g->rec[rt];
    int64_t start = r->ts + r->dur + rnd(g, 500, 2500);
    start = max64(start, g->s.free_at[sl] + rnd(g, 600, 1800));
    start = max64(start, not_before);
    g->rec[k].name = name;
    g->rec[k].ts = start;
    g->rec[k].dur = max64(1100, gpu_ns);
    g->rec[k].corr = r->corr;
    g->rec[k].ext = r->ext;
    g->s.free_at[sl] = start + g->rec[k].dur;
    g->rec[rt].gpu = (int32_t)k;
    return k;
}

static uint32_t launch(kgen *g, int th, int spec, int64_t gx, int gy, int gz, int64_t gpu_ns,
                       int sl, int64_t not_before)
{
    bool nccl = sl == SL_NCCL;
    uint32_t rt = cuda_call(g, th, nccl ? "cudaLaunchKernelExC" : "cudaLaunchKernel",
                            nccl ? CB_LAUNCH_EXC : CB_LAUNCH, launch_cost(g));
    uint32_t k;
    /* the slow rank's GPU computes slower (a throttled or faulty device) */
    if (!nccl && g->opt.rank == g->opt.slow_rank)
        gpu_ns = gpu_ns * (int64_t)g->opt.slow_pct / 100;
    k = gpu_activity(g, rt, K_KERNEL, specs[spec].name, sl, jit(g, gpu_ns, 40), not_before);
    g->rec[k].spec = (int16_t)spec;
    g->rec[k].grid[0] = (int32_t)(gx < 1 ? 1 : gx > INT32_MAX ? INT32_MAX : gx);
    g->rec[k].grid[1] = gy < 1 ? 1 : gy;
    g->rec[k].grid[2] = gz < 1 ? 1 : gz;
    return k;
}

/* Elementwise kernel over n elements moving bytes_per bytes each. */
static int64_t ew_ns(int64_t n, int bytes_per)
{
    return n * bytes_per / 1300 + 1500;   /* ~1.3 TB/s plus launch tail */
}

static void launch_ew(kgen *g, int th, int spec, int64_t n, int bytes_per)
{
    int64_t per_block = (int64_t)specs[spec].block * 4;
    launch(g, th, spec, (n + per_block - 1) / per_block, 1, 1, ew_ns(n, bytes_per), SL_COMPUTE, 0);
}

/* cudaMemcpyAsync / cudaMemsetAsync on the compute stream. A pageable copy
 * blocks the host until the copy is done (the driver stages it). */
static uint32_t copy_op(kgen *g, int th, kkind kind, const char *name, int64_t bytes,
                        int64_t bytes_per_us, bool blocking)
{
    uint32_t rt, k;
    int64_t ns = bytes * 1000 / bytes_per_us + (kind == K_MEMSET ? 1200 : 1500);
    rt = cuda_call(g, th, kind == K_MEMSET ? "cudaMemsetAsync" : "cudaMemcpyAsync",
                   kind == K_MEMSET ? CB_MEMSET_ASYNC : CB_MEMCPY_ASYNC, rnd(g, 3000, 6500));
    k = gpu_activity(g, rt, kind, name, SL_COMPUTE, jit(g, ns, 30), 0);
    g->rec[k].bytes = bytes;
    if (blocking) {
        int64_t end = g->rec[k].ts + g->rec[k].dur + rnd(g, 2500, 6000);
        g->rec[rt].dur = end - g->rec[rt].ts;
        g->s.clock[th] = end;
    }
    return k;
}

static void sync_until(kgen *g, uint32_t rt, int th, int64_t drained)
{
    int64_t end = max64(g->rec[rt].ts + g->rec[rt].dur, drained + rnd(g, 2000, 6000));
    g->rec[rt].dur = end - g->rec[rt].ts;
    g->s.clock[th] = end;
}

static void counter_sample(kgen *g, int th)
{
    ksim *s = &g->s;
    uint32_t i;
    /* the caching allocator grows in 20 MiB segments and never gives back */
    if (s->mem_alloc > s->mem_reserved)
        s->mem_reserved = (s->mem_alloc + 20 * MiB - 1) / (20 * MiB) * (20 * MiB);
    i = rec_new(g, K_COUNTER, (uint8_t)th);
    g->rec[i].ts = s->clock[th];
    g->rec[i].bytes = s->mem_alloc;
    g->rec[i].bytes2 = s->mem_reserved;
}

static void tape_push(kgen *g, uint32_t op, ltype t, int li)
{
    ktape *tp;
    if (g->ntape >= (int)(sizeof g->tape / sizeof g->tape[0]))
        return;
    tp = &g->tape[g->ntape++];
    tp->type = (uint8_t)t;
    tp->layer = (int16_t)li;
    tp->seq = g->s.next_seq++;
    tp->flow = (uint32_t)g->s.next_flow++;
    op_seq(g, op, tp->seq, tp->flow, false);
}

static int nccl_spec(kgen *g, const char *coll, int64_t bytes)
{
    if (strcmp(coll, "broadcast") == 0)
        return g->nccl_new_names ? KS_NCCL2_BROADCAST : KS_NCCL_BROADCAST;
    if (bytes < 4 * MiB)
        return g->nccl_new_names ? KS_NCCL2_ALLREDUCE_LL : KS_NCCL_ALLREDUCE_LL;
    return g->nccl_new_names ? KS_NCCL2_ALLREDUCE_LL128 : KS_NCCL_ALLREDUCE_LL128;
}

/* A collective from a host thread: record_param_comms > nccl:<name>, the
 * NCCL stream waiting for the compute stream through an event. Returns the
 * NCCL kernel's record. */
static uint32_t collective(kgen *g, int th, const char *coll, const char *annot, int64_t nelems)
{
    uint64_t w = g->opt.world;
    int64_t bytes = nelems * 4, ready, ns;
    uint32_t rpc, k;
    int spec = nccl_spec(g, coll, bytes);
    rpc = op_begin(g, th, K_OP, "record_param_comms", 9000);
    g->rec[rpc].coll = coll;
    g->rec[rpc].nelems = nelems;
    op_begin(g, th, K_ANNOT, annot, 5000);
    cuda_call(g, th, "cudaEventRecord", CB_EVENT_RECORD, rnd(g, 1800, 3200));
    ready = g->s.free_at[SL_COMPUTE];   /* the gradients are ready when this is */
    cuda_call(g, th, "cudaStreamWaitEvent", CB_STREAM_WAIT, rnd(g, 1200, 2400));
    /* ring: 2(W-1)/W of the data crosses the slowest link; NVLink inside a
     * node, the network between nodes */
    if (w <= 1)
        ns = 8000;
    else if (w <= GPUS_PER_NODE)
        ns = 12000 + (int64_t)((uint64_t)bytes * 2 * (w - 1) / w / 110);
    else
        ns = 30000 + (int64_t)((uint64_t)bytes * 2 * (w - 1) / w / 20);
    if (strcmp(coll, "broadcast") == 0)
        ns /= 2;
    k = launch(g, th, spec, w <= GPUS_PER_NODE ? 8 : 16, 1, 1, ns, SL_NCCL, ready);
    g->rec[k].coll = coll;
    g->rec[k].nelems = nelems;
    {
        /* A collective moves data once every rank has arrived: with a slow
         * rank, everybody else waits inside the kernel until it starts. */
        int64_t start = g->rec[k].ts;
        size_t i = g->n_arrive;
        if (g->n_arrive == g->cap_arrive) {
            size_t nc = g->cap_arrive ? g->cap_arrive * 2 : 256;
            int64_t *na = realloc(g->arrive, nc * sizeof *na);
            if (!na) {
                g->oom = true;
                return k;
            }
            g->arrive = na;
            g->cap_arrive = nc;
        }
        g->arrive[g->n_arrive++] = start;
        if (i < g->n_slow_arrive && g->slow_arrive[i] > start) {
            g->rec[k].dur += g->slow_arrive[i] - start;
            g->s.free_at[SL_NCCL] = start + g->rec[k].dur;
        }
    }
    op_end(g, th, 2500);
    op_end(g, th, 3000);
    return k;
}

/* ------------------------------------------------------------- forward */

static int64_t conv_ns(const layer *l)
{
    /* 2*N*K*P*Q*C*R*S FLOPs at ~45 TFLOP/s (TF32 tensor cores) */
    int64_t flops = 2 * (int64_t)BATCH * l->cout * l->hout * l->hout * l->cin * l->k * l->k;
    return flops / 45000 + 4000;
}

static void fwd_conv(kgen *g, int li)
{
    const layer *l = &g->net.l[li];
    int64_t m = (int64_t)BATCH * l->hout * l->hout;
    uint32_t conv;
    op_begin(g, TH_MAIN, K_OP, "aten::conv2d", 3000);
    conv = op_begin(g, TH_MAIN, K_OP, "aten::convolution", 2500);
    tape_push(g, conv, L_CONV, li);
    op_begin(g, TH_MAIN, K_OP, "aten::_convolution", 3000);
    op_begin(g, TH_MAIN, K_OP, "aten::cudnn_convolution", 16000);
    op_leaf(g, TH_MAIN, K_OP, "aten::empty", 2500);
    if (l->k == 7) {
        launch(g, TH_MAIN, KS_CONV_STEM, (m + 127) / 128, (l->cout + 63) / 64, 1, conv_ns(l),
               SL_COMPUTE, 0);
    } else if (l->k == 1) {
        int64_t in = layer_in_numel(l), out = layer_out_numel(l);
        launch(g, TH_MAIN, KS_NCHW2NHWC, (in + 1023) / 1024, 1, 1, ew_ns(in, 8), SL_COMPUTE, 0);
        launch(g, TH_MAIN, KS_CONV_FPROP_NHWC, (m + 127) / 128, (l->cout + 127) / 128, 1,
               conv_ns(l), SL_COMPUTE, 0);
        launch(g, TH_MAIN, KS_NHWC2NCHW, (out + 1023) / 1024, 1, 1, ew_ns(out, 8), SL_COMPUTE, 0);
    } else {
        launch(g, TH_MAIN, KS_CONV_FPROP, (m + 127) / 128, (l->cout + 127) / 128, 1, conv_ns(l),
               SL_COMPUTE, 0);
    }
    op_end(g, TH_MAIN, 3500);
    op_end(g, TH_MAIN, 1500);
    op_end(g, TH_MAIN, 1200);
    op_end(g, TH_MAIN, 1000);
    g->s.mem_alloc += layer_out_numel(l) * 4;
}

static void fwd_bn(kgen *g, int li)
{
    const layer *l = &g->net.l[li];
    int64_t n = layer_out_numel(l);
    bool small = l->hout <= 14;
    uint32_t bn;
    /* self.num_batches_tracked.add_(1) in BatchNorm's forward */
    op_begin(g, TH_MAIN, K_OP, "aten::add_", 5000);
    launch(g, TH_MAIN, KS_ADD_LONG, 1, 1, 1, 1300, SL_COMPUTE, 0);
    op_end(g, TH_MAIN, 1200);
    op_begin(g, TH_MAIN, K_OP, "aten::batch_norm", 3500);
    op_begin(g, TH_MAIN, K_OP, "aten::_batch_norm_impl_index", 3000);
    bn = op_begin(g, TH_MAIN, K_OP, "aten::cudnn_batch_norm", 7000);
    tape_push(g, bn, L_BN, li);
    op_begin(g, TH_MAIN, K_OP, "aten::empty_like", 1500);
    op_leaf(g, TH_MAIN, K_OP, "aten::empty_strided", 2200);
    op_end(g, TH_MAIN, 800);
    op_leaf(g, TH_MAIN, K_OP, "aten::empty", 1800);
    op_leaf(g, TH_MAIN, K_OP, "aten::empty", 1600);
    launch(g, TH_MAIN, small ? KS_BN_FW_SMALL : KS_BN_FW, small ? (l->cout + 1) / 2 : l->cout, 1,
           1, ew_ns(n, small ? 8 : 12) + 2000, SL_COMPUTE, 0);
    op_end(g, TH_MAIN, 2500);
    op_end(g, TH_MAIN, 1200);
    op_end(g, TH_MAIN, 1000);
    g->s.mem_alloc += n * 4;
}

static void fwd_layer(kgen *g, int li)
{
    const layer *l = &g->net.l[li];
    int64_t n = layer_out_numel(l);
    uint32_t op;
    switch ((ltype)l->type) {
    case L_CONV:
        fwd_conv(g, li);
        break;
    case L_BN:
        fwd_bn(g, li);
        counter_sample(g, TH_MAIN);
        break;
    case L_RELU:
        op = op_begin(g, TH_MAIN, K_OP, "aten::relu_", 3500);
        tape_push(g, op, L_RELU, li);
        op_begin(g, TH_MAIN, K_OP, "aten::clamp_min_", 4000);
        launch_ew(g, TH_MAIN, KS_RELU, n, 8);
        op_end(g, TH_MAIN, 1200);
        op_end(g, TH_MAIN, 900);
        break;
    case L_MAXPOOL:
        op_begin(g, TH_MAIN, K_OP, "aten::max_pool2d", 3000);
        op = op_begin(g, TH_MAIN, K_OP, "aten::max_pool2d_with_indices", 9000);
        tape_push(g, op, L_MAXPOOL, li);
        launch(g, TH_MAIN, KS_MAXPOOL, (n + 255) / 256, 1, 1, ew_ns(layer_in_numel(l), 4) +
               ew_ns(n, 12), SL_COMPUTE, 0);
        op_end(g, TH_MAIN, 1500);
        op_end(g, TH_MAIN, 1000);
        g->s.mem_alloc += n * 12;
        break;
    case L_ADD:
        op = op_begin(g, TH_MAIN, K_OP, "aten::add_", 4500);
        tape_push(g, op, L_ADD, li);
        launch_ew(g, TH_MAIN, KS_ADD, n, 12);
        op_end(g, TH_MAIN, 1200);
        break;
    case L_AVGPOOL:
        op_begin(g, TH_MAIN, K_OP, "aten::adaptive_avg_pool2d", 4000);
        op = op_begin(g, TH_MAIN, K_OP, "aten::mean", 6000);
        tape_push(g, op, L_AVGPOOL, li);
        launch(g, TH_MAIN, KS_MEAN, (n + 3) / 4, 1, 1, ew_ns(layer_in_numel(l), 4), SL_COMPUTE, 0);
        op_end(g, TH_MAIN, 1500);
        op_end(g, TH_MAIN, 1000);
        g->s.mem_alloc += n * 4;
        break;
    case L_FLATTEN:
        op_begin(g, TH_MAIN, K_OP, "aten::flatten", 2500);
        op = op_begin(g, TH_MAIN, K_OP, "aten::view", 2000);
        tape_push(g, op, L_FLATTEN, li);
        op_end(g, TH_MAIN, 600);
        op_end(g, TH_MAIN, 600);
        break;
    case L_LINEAR: {
        int64_t flops = 2 * (int64_t)BATCH * l->cin * l->cout;
        op_begin(g, TH_MAIN, K_OP, "aten::linear", 3000);
        op = op_begin(g, TH_MAIN, K_OP, "aten::t", 2000);
        tape_push(g, op, L_TRANSPOSE, li);
        op_begin(g, TH_MAIN, K_OP, "aten::transpose", 2000);
        op_leaf(g, TH_MAIN, K_OP, "aten::as_strided", 1500);
        op_end(g, TH_MAIN, 600);
        op_end(g, TH_MAIN, 600);
        op = op_begin(g, TH_MAIN, K_OP, "aten::addmm", 12000);
        tape_push(g, op, L_LINEAR, li);
        launch(g, TH_MAIN, KS_GEMM_TN, (BATCH + 63) / 64, (l->cout + 63) / 64, 1,
               flops / 20000 + 4000, SL_COMPUTE, 0);
        op_end(g, TH_MAIN, 2500);
        op_end(g, TH_MAIN, 1000);
        g->s.mem_alloc += n * 4;
        break;
    }
    default:
        break;
    }
}

static void fwd_loss(kgen *g)
{
    int64_t n = (int64_t)BATCH * CLASSES;
    uint32_t op;
    op_begin(g, TH_MAIN, K_OP, "aten::cross_entropy_loss", 5000);
    op_begin(g, TH_MAIN, K_OP, "aten::log_softmax", 3000);
    op = op_begin(g, TH_MAIN, K_OP, "aten::_log_softmax", 7000);
    tape_push(g, op, L_LOGSOFTMAX, -1);
    launch(g, TH_MAIN, KS_SOFTMAX, BATCH, 1, 1, ew_ns(n, 8) + 2000, SL_COMPUTE, 0);
    op_end(g, TH_MAIN, 1500);
    op_end(g, TH_MAIN, 1000);
    op_begin(g, TH_MAIN, K_OP, "aten::nll_loss_nd", 2500);
    op_begin(g, TH_MAIN, K_OP, "aten::nll_loss", 2500);
    op = op_begin(g, TH_MAIN, K_OP, "aten::nll_loss_forward", 8000);
    tape_push(g, op, L_NLL, -1);
    launch(g, TH_MAIN, KS_NLL, 1, 1, 1, 4500, SL_COMPUTE, 0);
    op_end(g, TH_MAIN, 1500);
    op_end(g, TH_MAIN, 1000);
    op_end(g, TH_MAIN, 1000);
    op_end(g, TH_MAIN, 1200);
    g->s.mem_alloc += n * 4;
}

/* ------------------------------------------------------------ backward */

static const char *const node_names[][2] = {
    [L_CONV] = {"ConvolutionBackward0",
                "autograd::engine::evaluate_function: ConvolutionBackward0"},
    [L_BN] = {"CudnnBatchNormBackward0",
              "autograd::engine::evaluate_function: CudnnBatchNormBackward0"},
    [L_RELU] = {"ReluBackward0", "autograd::engine::evaluate_function: ReluBackward0"},
    [L_MAXPOOL] = {"MaxPool2DWithIndicesBackward0",
                   "autograd::engine::evaluate_function: MaxPool2DWithIndicesBackward0"},
    [L_ADD] = {"AddBackward0", "autograd::engine::evaluate_function: AddBackward0"},
    [L_AVGPOOL] = {"MeanBackward1", "autograd::engine::evaluate_function: MeanBackward1"},
    [L_FLATTEN] = {"ViewBackward0", "autograd::engine::evaluate_function: ViewBackward0"},
    [L_LINEAR] = {"AddmmBackward0", "autograd::engine::evaluate_function: AddmmBackward0"},
    [L_TRANSPOSE] = {"TBackward0", "autograd::engine::evaluate_function: TBackward0"},
    [L_LOGSOFTMAX] = {"LogSoftmaxBackward0",
                      "autograd::engine::evaluate_function: LogSoftmaxBackward0"},
    [L_NLL] = {"NllLossBackward0", "autograd::engine::evaluate_function: NllLossBackward0"},
};

/* Gradient of parameter p is ready: AccumulateGrad, DDP's hook copying it
 * into its bucket, and the bucket's all-reduce once the bucket is full. */
static void accumulate_grad(kgen *g, int p)
{
    const int th = TH_AUTOGRAD;
    int64_t numel = g->net.numel[p];
    int b = g->net.bucket[p];
    op_begin(g, th, K_OP, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
             4000);
    op_begin(g, th, K_OP, "torch::autograd::AccumulateGrad", 3000);
    op_begin(g, th, K_OP, "aten::detach", 1500);
    op_leaf(g, th, K_OP, "detach", 1200);
    op_end(g, th, 500);
    op_end(g, th, 1200);
    op_begin(g, th, K_OP, "aten::copy_", 4000);
    copy_op(g, th, K_MEMCPY, "Memcpy DtoD (Device -> Device)", numel * 4, 800000, false);
    op_end(g, th, 1500);
    op_end(g, th, 2000);
    g->s.mem_alloc += numel * 4;
    if (++g->bucket_ready[b] == g->net.bucket_params[b])
        collective(g, th, "allreduce", "nccl:all_reduce", g->net.bucket_numel[b]);
}

static void bwd_conv(kgen *g, const layer *l, bool first)
{
    const int th = TH_AUTOGRAD;
    int64_t wnumel = (int64_t)l->cout * l->cin * l->k * l->k;
    bool splitk = l->cout >= 256;
    op_begin(g, th, K_OP, "aten::convolution_backward", 22000);
    if (!first)   /* the stem's input needs no gradient */
        launch(g, th, l->k == 3 ? KS_DGRAD : KS_CONV_FPROP_NHWC, (int64_t)BATCH * l->hin * l->hin /
               128 + 1, (l->cin + 127) / 128, 1, conv_ns(l), SL_COMPUTE, 0);
    if (splitk)   /* split-K accumulates into a zeroed workspace */
        copy_op(g, th, K_MEMSET, "Memset (Device)", wnumel * 4, 1300000, false);
    launch(g, th, KS_WGRAD, (l->cout + 127) / 128, (l->cin * l->k * l->k + 127) / 128,
           splitk ? 4 : 1, conv_ns(l) * 11 / 10, SL_COMPUTE, 0);
    if (splitk)
        launch(g, th, KS_WGRAD_SPLITK, (wnumel + 511) / 512, 1, 1, ew_ns(wnumel, 20), SL_COMPUTE,
               0);
    op_end(g, th, 3000);
}

static void bwd_node(kgen *g, const ktape *t)
{
    const int th = TH_AUTOGRAD;
    const layer *l = t->layer >= 0 ? &g->net.l[t->layer] : NULL;
    int64_t n = l ? layer_out_numel(l) : (int64_t)BATCH * CLASSES;
    uint32_t node;

    op_begin(g, th, K_OP, node_names[t->type][1], 7000);
    node = op_begin(g, th, K_OP, node_names[t->type][0], 2500);
    op_seq(g, node, t->seq, t->flow, true);
    switch ((ltype)t->type) {
    case L_CONV:
        bwd_conv(g, l, t->layer == 0);
        break;
    case L_BN:
        op_begin(g, th, K_OP, "aten::cudnn_batch_norm_backward", 9000);
        op_begin(g, th, K_OP, "aten::empty_like", 1500);
        op_leaf(g, th, K_OP, "aten::empty_strided", 2000);
        op_end(g, th, 800);
        launch(g, th, l->hout <= 14 ? KS_BN_BW_SMALL : KS_BN_BW, l->cout, 1, 1,
               ew_ns(n, 16) + 3000, SL_COMPUTE, 0);
        op_end(g, th, 2500);
        break;
    case L_RELU:
        op_begin(g, th, K_OP, "aten::threshold_backward", 5000);
        launch_ew(g, th, KS_RELU_BW, n, 12);
        op_end(g, th, 1500);
        break;
    case L_MAXPOOL:
        op_begin(g, th, K_OP, "aten::max_pool2d_with_indices_backward", 6000);
        op_begin(g, th, K_OP, "aten::zero_", 2000);
        op_begin(g, th, K_OP, "aten::fill_", 3000);
        launch_ew(g, th, KS_FILL, layer_in_numel(l), 4);
        op_end(g, th, 1000);
        op_end(g, th, 800);
        launch(g, th, KS_MAXPOOL_BW, (n + 255) / 256, 1, 1, ew_ns(n, 16), SL_COMPUTE, 0);
        op_end(g, th, 1500);
        break;
    case L_ADD:
        break;
    case L_AVGPOOL:
        op_begin(g, th, K_OP, "aten::expand", 2500);
        op_leaf(g, th, K_OP, "aten::as_strided", 1500);
        op_end(g, th, 700);
        op_begin(g, th, K_OP, "aten::div", 6000);
        launch_ew(g, th, KS_DIV, layer_in_numel(l), 8);
        op_end(g, th, 1500);
        break;
    case L_FLATTEN:
        op_begin(g, th, K_OP, "aten::reshape", 2000);
        op_leaf(g, th, K_OP, "aten::view", 1500);
        op_end(g, th, 600);
        break;
    case L_TRANSPOSE:
        op_begin(g, th, K_OP, "aten::t", 2000);
        op_begin(g, th, K_OP, "aten::transpose", 1800);
        op_leaf(g, th, K_OP, "aten::as_strided", 1400);
        op_end(g, th, 600);
        op_end(g, th, 600);
        break;
    case L_LINEAR: {
        int64_t flops = 2 * (int64_t)BATCH * l->cin * l->cout;
        op_begin(g, th, K_OP, "aten::t", 2000);
        op_begin(g, th, K_OP, "aten::transpose", 1800);
        op_leaf(g, th, K_OP, "aten::as_strided", 1400);
        op_end(g, th, 600);
        op_end(g, th, 600);
        op_begin(g, th, K_OP, "aten::mm", 9000);
        launch(g, th, KS_GEMM_NN, (BATCH + 63) / 64, (l->cin + 63) / 64, 1, flops / 20000 + 3500,
               SL_COMPUTE, 0);
        op_end(g, th, 2000);
        op_begin(g, th, K_OP, "aten::t", 2000);
        op_begin(g, th, K_OP, "aten::transpose", 1800);
        op_leaf(g, th, K_OP, "aten::as_strided", 1400);
        op_end(g, th, 600);
        op_end(g, th, 600);
        op_begin(g, th, K_OP, "aten::mm", 8000);
        launch(g, th, KS_GEMM_NT, (l->cout + 63) / 64, (l->cin + 63) / 64, 1,
               flops / 20000 + 3500, SL_COMPUTE, 0);
        op_end(g, th, 2000);
        op_begin(g, th, K_OP, "aten::sum", 7000);
        launch(g, th, KS_SUM, (l->cout + 31) / 32, 1, 1, ew_ns(n, 4) + 1500, SL_COMPUTE, 0);
        op_end(g, th, 1500);
        break;
    }
    case L_LOGSOFTMAX:
        op_begin(g, th, K_OP, "aten::_log_softmax_backward_data", 6000);
        launch(g, th, KS_SOFTMAX_BW, BATCH, 1, 1, ew_ns(n, 12) + 2000, SL_COMPUTE, 0);
        op_end(g, th, 1500);
        break;
    case L_NLL:
        op_begin(g, th, K_OP, "aten::nll_loss_backward", 5000);
        op_begin(g, th, K_OP, "aten::zero_", 2000);
        op_begin(g, th, K_OP, "aten::fill_", 3000);
        launch_ew(g, th, KS_FILL, n, 4);
        op_end(g, th, 1000);
        op_end(g, th, 800);
        launch(g, th, KS_NLL_BW, 1, 1, 1, 4000, SL_COMPUTE, 0);
        op_end(g, th, 1500);
        break;
    }
    op_end(g, th, 1500);
    op_end(g, th, 2500);

    /* the node's parameters get their gradients, last parameter first */
    if (l && (t->type == L_CONV || t->type == L_BN || t->type == L_LINEAR)) {
        for (int p = l->param + l->nparam - 1; p >= l->param; p--)
            accumulate_grad(g, p);
        g->s.mem_alloc -= layer_out_numel(l) * 4;
        if (g->s.mem_alloc < 0)
            g->s.mem_alloc = 0;
        if (t->type == L_CONV)
            counter_sample(g, th);
    }
}

/* ---------------------------------------------------------------- step */

static int64_t model_bytes(const knet *n)
{
    int64_t s = 0;
    for (int p = 0; p < n->np; p++)
        s += n->numel[p] * 4;
    return s;
}

/* Build one ProfilerStep into g->rec, advancing the simulation. */
static void step_build(kgen *g)
{
    ksim *s = &g->s;
    const knet *net = &g->net;
    int64_t params = model_bytes(net);
    int64_t batch_bytes = (int64_t)BATCH * 3 * IMAGE * IMAGE * 4;

    g->n = 0;
    g->ntape = 0;
    memset(g->bucket_ready, 0, sizeof g->bucket_ready);
    memset(g->depth, 0, sizeof g->depth);

    /* records point at the name until the step is written */
    snprintf(g->step_name, sizeof g->step_name, "ProfilerStep#%" PRIu64, s->step_no);
    /* persistent: weights, momentum buffers, DDP buckets */
    s->mem_alloc = 3 * params;
    op_begin(g, TH_MAIN, K_ANNOT, g->step_name, 9000);
    counter_sample(g, TH_MAIN);

    /* the next batch: workers are slower than the GPU, so the loop waits */
    op_leaf(g, TH_MAIN, K_ANNOT, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
            rnd(g, 4200000, 8800000));

    /* input and labels to the GPU from pageable memory: blocks the host */
    for (int i = 0; i < 2; i++) {
        int64_t bytes = i == 0 ? batch_bytes : (int64_t)BATCH * 8;
        op_begin(g, TH_MAIN, K_OP, "aten::to", 2500);
        op_begin(g, TH_MAIN, K_OP, "aten::_to_copy", 3500);
        op_leaf(g, TH_MAIN, K_OP, "aten::empty_strided", 3000);
        op_begin(g, TH_MAIN, K_OP, "aten::copy_", 5000);
        copy_op(g, TH_MAIN, K_MEMCPY, "Memcpy HtoD (Pageable -> Device)", bytes, 6200, true);
        op_end(g, TH_MAIN, 2000);
        op_end(g, TH_MAIN, 1500);
        op_end(g, TH_MAIN, 1000);
        s->mem_alloc += bytes;
    }
    counter_sample(g, TH_MAIN);

    /* forward */
    op_begin(g, TH_MAIN, K_ANNOT, "## forward ##", 4000);
    op_begin(g, TH_MAIN, K_ANNOT, "DistributedDataParallel.forward", 45000);
    {
        /* broadcast_buffers: BatchNorm statistics from rank 0, every forward */
        uint32_t k = collective(g, TH_MAIN, "broadcast", "nccl:broadcast", net->buffer_numel);
        cuda_call(g, TH_MAIN, "cudaStreamWaitEvent", CB_STREAM_WAIT, rnd(g, 1200, 2400));
        s->free_at[SL_COMPUTE] = max64(s->free_at[SL_COMPUTE], g->rec[k].ts + g->rec[k].dur);
    }
    for (int li = 0; li < net->n; li++)
        fwd_layer(g, li);
    op_end(g, TH_MAIN, 6000);
    fwd_loss(g);
    op_end(g, TH_MAIN, 2000);
    counter_sample(g, TH_MAIN);

    /* loss for the log: async copy to pinned memory, then wait for it,
     * which waits for the whole forward the host ran ahead of */
    op_begin(g, TH_MAIN, K_OP, "aten::copy_", 4500);
    copy_op(g, TH_MAIN, K_MEMCPY, "Memcpy DtoH (Device -> Pinned)", 4, 800, false);
    op_end(g, TH_MAIN, 1500);
    {
        uint32_t rt = cuda_call(g, TH_MAIN, "cudaStreamSynchronize", CB_STREAM_SYNC, 2000);
        sync_until(g, rt, TH_MAIN, s->free_at[SL_COMPUTE]);
    }

    /* backward: the main thread seeds the gradient and waits for the
     * autograd engine's device thread */
    op_begin(g, TH_MAIN, K_ANNOT, "## backward ##", 5000);
    op_begin(g, TH_MAIN, K_OP, "aten::ones_like", 2500);
    op_begin(g, TH_MAIN, K_OP, "aten::empty_like", 1500);
    op_leaf(g, TH_MAIN, K_OP, "aten::empty_strided", 2000);
    op_end(g, TH_MAIN, 700);
    op_begin(g, TH_MAIN, K_OP, "aten::fill_", 3000);
    launch(g, TH_MAIN, KS_FILL, 1, 1, 1, 1300, SL_COMPUTE, 0);
    op_end(g, TH_MAIN, 1000);
    op_end(g, TH_MAIN, 900);
    s->clock[TH_AUTOGRAD] = max64(s->clock[TH_AUTOGRAD], s->clock[TH_MAIN] + rnd(g, 15000, 30000));
    for (int i = g->ntape - 1; i >= 0; i--)
        bwd_node(g, &g->tape[i]);
    /* DDP's finalize: compute waits for the last all-reduce */
    cuda_call(g, TH_AUTOGRAD, "cudaStreamWaitEvent", CB_STREAM_WAIT, rnd(g, 1200, 2400));
    s->free_at[SL_COMPUTE] = max64(s->free_at[SL_COMPUTE], s->free_at[SL_NCCL]);
    s->clock[TH_MAIN] = max64(s->clock[TH_MAIN], s->clock[TH_AUTOGRAD] + rnd(g, 8000, 20000));
    op_end(g, TH_MAIN, 3000);

    /* torch.cuda.synchronize() to time the step: a long wait */
    {
        uint32_t rt = cuda_call(g, TH_MAIN, "cudaDeviceSynchronize", CB_DEVICE_SYNC, 2500);
        sync_until(g, rt, TH_MAIN, max64(s->free_at[SL_COMPUTE], s->free_at[SL_NCCL]));
    }
    counter_sample(g, TH_MAIN);

    /* optimizer: SGD without foreach, four tiny kernels per parameter */
    op_begin(g, TH_MAIN, K_ANNOT, "## optimizer ##", 4000);
    op_begin(g, TH_MAIN, K_ANNOT, "Optimizer.step#SGD.step", 30000);
    for (int p = 0; p < net->np; p++) {
        int64_t n = net->numel[p];
        s->clock[TH_MAIN] += rnd(g, 2000, 6000);   /* the Python loop */
        op_begin(g, TH_MAIN, K_OP, "aten::add", 4500);
        launch_ew(g, TH_MAIN, KS_ADD, n, 12);
        op_end(g, TH_MAIN, 1500);
        op_begin(g, TH_MAIN, K_OP, "aten::mul_", 4000);
        launch_ew(g, TH_MAIN, KS_MUL, n, 8);
        op_end(g, TH_MAIN, 1200);
        op_begin(g, TH_MAIN, K_OP, "aten::add_", 4000);
        launch_ew(g, TH_MAIN, KS_ADD, n, 12);
        op_end(g, TH_MAIN, 1200);
        op_begin(g, TH_MAIN, K_OP, "aten::add_", 4000);
        launch_ew(g, TH_MAIN, KS_ADD, n, 12);
        op_end(g, TH_MAIN, 1200);
    }
    op_end(g, TH_MAIN, 8000);
    op_end(g, TH_MAIN, 3000);
    op_leaf(g, TH_MAIN, K_ANNOT, "Optimizer.zero_grad#SGD.zero_grad", rnd(g, 180000, 320000));
    s->mem_alloc = 3 * params;   /* set_to_none: gradients and activations freed */
    counter_sample(g, TH_MAIN);
    op_end(g, TH_MAIN, 12000);

    /* between steps: the training loop's Python */
    s->clock[TH_MAIN] += rnd(g, 60000, 180000);
    s->step_no++;
}

/* ------------------------------------------------------------- writing */

static void shuffle_flush(kgen *g);

static void ev_open(kgen *g)
{
    kshuffle *sh = &g->shuf;
    if (sh->on) {
        /* the separator is written when the window is; counted here */
        if (sh->n == g->opt.shuffle_window)
            shuffle_flush(g);
        if (g->st.events++)
            g->out.bytes += 2;
        sh->start[sh->n++] = (size_t)ftell(sh->mem);
        gen_puts(&g->out, "  {\n");
        return;
    }
    if (g->st.events++)
        gen_puts(&g->out, ",\n");
    gen_puts(&g->out, "  {\n");
}

/* ------------------------------------------------------------- shuffle */

/* From here on, events are written to the window (--shuffle). */
static int shuffle_begin(kgen *g)
{
    kshuffle *sh = &g->shuf;
    sh->start = malloc(g->opt.shuffle_window * sizeof *sh->start);
    sh->mem = sh->start ? open_memstream(&sh->text, &sh->text_len) : NULL;
    if (!sh->mem) {
        free(sh->start);
        sh->start = NULL;
        return -1;
    }
    gen_rng_seed(&sh->rng, gen_seed_mix(g->opt.seed ^ UINT64_C(0x53485546464c45), g->opt.rank));
    sh->real = g->out.f;
    g->out.f = sh->mem;
    sh->n = 0;
    sh->any_written = g->st.events > 0;
    sh->on = true;
    return 0;
}

/* Write the window's events to the file in a random order (Fisher-Yates
 * over their indices) and empty it. */
static void shuffle_flush(kgen *g)
{
    kshuffle *sh = &g->shuf;
    size_t *order = sh->start;   /* reused: a start's end is the next start */
    size_t *end;
    if (!sh->n)
        return;
    if (fflush(sh->mem) != 0 && !g->out.err)
        g->out.err = errno ? errno : ENOMEM;
    end = malloc(sh->n * sizeof *end);
    if (!end) {
        if (!g->out.err)
            g->out.err = ENOMEM;
        sh->n = 0;
        return;
    }
    for (size_t i = 0; i < sh->n; i++)
        end[i] = i + 1 < sh->n ? sh->start[i + 1] : sh->text_len;
    /* pair each start with its end, then permute the pairs */
    for (size_t i = sh->n; i > 1; i--) {
        size_t j = (size_t)gen_rng_below(&sh->rng, i), t;
        t = order[i - 1], order[i - 1] = order[j], order[j] = t;
        t = end[i - 1], end[i - 1] = end[j], end[j] = t;
    }
    for (size_t i = 0; i < sh->n && !g->out.err; i++) {
        if ((sh->any_written && fwrite(",\n", 1, 2, sh->real) != 2) ||
            fwrite(sh->text + order[i], 1, end[i] - order[i], sh->real) != end[i] - order[i])
            g->out.err = errno ? errno : EIO;
        sh->any_written = true;
    }
    free(end);
    rewind(sh->mem);
    sh->n = 0;
}

/* Write what the window holds and go back to writing in order. */
static void shuffle_end(kgen *g)
{
    kshuffle *sh = &g->shuf;
    if (!sh->on)
        return;
    shuffle_flush(g);
    g->out.f = sh->real;
    sh->on = false;
    fclose(sh->mem);
    free(sh->text);
    free(sh->start);
    sh->mem = NULL;
    sh->text = NULL;
    sh->start = NULL;
}

static void span(kgen *g, int64_t ts, int64_t dur)
{
    if (!g->st.timeline++ || ts < g->st.t0)
        g->st.t0 = ts;
    if (ts + dur > g->st.t1)
        g->st.t1 = ts + dur;
}

static void put_x_head(kgen *g, const char *cat, const char *name, int64_t pid, int64_t tid,
                       int64_t ts, int64_t dur)
{
    gen_out *o = &g->out;
    ev_open(g);
    gen_puts(o, "    \"ph\": \"X\", \"cat\": \"");
    gen_puts(o, cat);
    gen_puts(o, "\", \"name\": ");
    gen_json_str(o, name);
    gen_puts(o, ", \"pid\": ");
    gen_i64(o, pid);
    gen_puts(o, ", \"tid\": ");
    gen_i64(o, tid);
    gen_puts(o, ",\n    \"ts\": ");
    gen_us(o, ts);
    gen_puts(o, ", \"dur\": ");
    gen_us(o, dur);
    gen_puts(o, ",\n    \"args\": {\n      ");
    g->st.ph_X++;
    span(g, ts, dur);
}

static void put_close(kgen *g)
{
    gen_puts(&g->out, "\n    }\n  }");
}

static void put_flow(kgen *g, bool end, uint64_t id, int64_t pid, int64_t tid, int64_t ts,
                     const char *cat)
{
    gen_out *o = &g->out;
    ev_open(g);
    gen_puts(o, end ? "    \"ph\": \"f\", \"id\": " : "    \"ph\": \"s\", \"id\": ");
    gen_u64(o, id);
    gen_puts(o, ", \"pid\": ");
    gen_i64(o, pid);
    gen_puts(o, ", \"tid\": ");
    gen_i64(o, tid);
    gen_puts(o, ", \"ts\": ");
    gen_us(o, ts);
    gen_puts(o, ",\n    \"cat\": \"");
    gen_puts(o, cat);
    gen_puts(o, "\", \"name\": \"");
    gen_puts(o, cat);
    gen_puts(o, end ? "\", \"bp\": \"e\"\n  }" : "\"\n  }");
    if (end) {
        g->st.ph_f++;
        g->st.flows++;   /* every pair is written start first, end last */
    } else {
        g->st.ph_s++;
    }
    if (strcmp(cat, "ac2g") == 0)
        g->st.cat_ac2g++;
    else
        g->st.cat_fwdbwd++;
}

static void put_pg_args(kgen *g)
{
    gen_puts(&g->out, "\"Process Group Name\": \"0\", ");
}

static void write_op(kgen *g, const krec *r)
{
    gen_out *o = &g->out;
    int64_t tid = g->tid[r->th];
    bool rpc = r->coll != NULL;
    put_x_head(g, r->kind == K_ANNOT ? "user_annotation" : "cpu_op", r->name, g->pid, tid, r->ts,
               r->dur);
    if (r->kind == K_ANNOT)
        g->st.cat_annot++;
    else
        g->st.cat_cpu_op++;
    if (r->th == TH_MAIN)
        g->st.lane_main++;
    else
        g->st.lane_autograd++;
    gen_puts(o, "\"External id\": ");
    gen_u64(o, r->ext);
    gen_puts(o, ",\"Record function id\": ");
    gen_u64(o, r->ext);
    if (r->seq >= 0) {
        gen_puts(o, ", \"Sequence number\": ");
        gen_i64(o, r->seq);
        gen_puts(o, ", \"Fwd thread id\": ");
        gen_u64(o, r->fwd_thread);
    }
    if (rpc) {
        gen_puts(o, ", ");
        put_pg_args(g);
        gen_puts(o, "\"Global rank stride\": 1, \"Out msg nelems\": ");
        gen_i64(o, r->nelems);
        gen_puts(o, ", \"Process Group Ranks\": \"");
        gen_puts(o, g->ranks_str);
        gen_puts(o, "\", \"Group size\": ");
        gen_u64(o, g->opt.world);
        gen_puts(o, ", \"Global rank start\": 0");
    }
    gen_puts(o, ", \"Ev Idx\": ");
    gen_u64(o, r->ev_idx);
    if (rpc) {
        gen_puts(o, ", \"In msg nelems\": ");
        gen_i64(o, r->nelems);
        gen_puts(o, ", \"In split size\": \"[]\", \"Out split size\": \"[]\", \"dtype\": "
                    "\"Float\", \"Process Group Description\": \"default_pg\", "
                    "\"Collective name\": \"");
        gen_puts(o, r->coll);
        gen_puts(o, "\"");
    }
    put_close(g);
    if (r->flow)
        put_flow(g, r->flow_end, r->flow, g->pid, tid, r->ts, "fwdbwd");
}

static int occupancy(const kspec *k, int64_t blocks)
{
    int64_t warps_per_block = (k->block + 31) / 32, limit = 2048 / k->block, per_sm, warps;
    if (k->regs)
        limit = limit < 65536 / ((int64_t)k->regs * k->block) ? limit
                                                              : 65536 / ((int64_t)k->regs * k->block);
    if (k->smem && 167936 / k->smem < limit)
        limit = 167936 / k->smem;
    if (limit > 32)
        limit = 32;
    if (limit < 1)
        limit = 1;
    per_sm = (blocks + NUM_SMS - 1) / NUM_SMS;
    if (per_sm > limit)
        per_sm = limit;
    warps = per_sm * warps_per_block;
    return (int)(warps * 100 / 64 > 100 ? 100 : warps * 100 / 64);
}

static void write_gpu(kgen *g, const krec *r)
{
    gen_out *o = &g->out;
    int sid = stream_id[r->th];
    const char *cat = r->kind == K_KERNEL ? "kernel" : r->kind == K_MEMCPY ? "gpu_memcpy"
                                                                           : "gpu_memset";
    put_x_head(g, cat, r->name, g->device, sid, r->ts, r->dur);
    g->st.lane_stream[r->th]++;
    gen_puts(o, "\"External id\": ");
    gen_u64(o, r->ext);
    if (r->kind == K_KERNEL) {
        const kspec *k = &specs[r->spec];
        int64_t blocks = (int64_t)r->grid[0] * r->grid[1] * r->grid[2];
        double bps = (double)blocks / NUM_SMS;
        g->st.cat_kernel++;
        gen_puts(o, ",      \"queued\": 0, \"device\": ");
        gen_i64(o, g->device);
        gen_puts(o, ", \"context\": 1,      \"stream\": ");
        gen_i64(o, sid);
        gen_puts(o, ", \"correlation\": ");
        gen_u64(o, r->corr);
        gen_puts(o, ",      \"registers per thread\": ");
        gen_i64(o, k->regs);
        gen_puts(o, ",      \"shared memory\": ");
        gen_i64(o, k->smem);
        gen_puts(o, ",      \"blocks per SM\": ");
        gen_fixed6(o, bps);
        gen_puts(o, ",      \"warps per SM\": ");
        gen_fixed6(o, (double)(blocks * ((k->block + 31) / 32)) / NUM_SMS);
        gen_printf(o, ",      \"grid\": [%d, %d, %d],      \"block\": [%d, 1, 1],"
                      "      \"est. achieved occupancy %%\": %d",
                   r->grid[0], r->grid[1], r->grid[2], k->block, occupancy(k, blocks));
        if (r->coll) {
            gen_puts(o, ", \"Collective name\": \"");
            gen_puts(o, r->coll);
            gen_puts(o, "\", \"In msg nelems\": ");
            gen_i64(o, r->nelems);
            gen_puts(o, ", \"Out msg nelems\": ");
            gen_i64(o, r->nelems);
            gen_puts(o, ", \"Group size\": ");
            gen_u64(o, g->opt.world);
            gen_puts(o, ", \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": "
                        "\"[]\", ");
            put_pg_args(g);
            gen_puts(o, "\"Process Group Description\": \"default_pg\", \"Process Group Ranks\": \"");
            gen_puts(o, g->ranks_str);
            gen_puts(o, "\"");
        }
    } else {
        if (r->kind == K_MEMCPY)
            g->st.cat_memcpy++;
        else
            g->st.cat_memset++;
        gen_puts(o, ",      \"device\": ");
        gen_i64(o, g->device);
        gen_puts(o, ", \"context\": 1,      \"stream\": ");
        gen_i64(o, sid);
        gen_puts(o, ", \"correlation\": ");
        gen_u64(o, r->corr);
        gen_puts(o, ",      \"bytes\": ");
        gen_i64(o, r->bytes);
        gen_puts(o, ", \"memory bandwidth (GB/s)\": ");
        gen_double(o, (double)r->bytes / (double)r->dur);   /* bytes per ns = GB/s */
    }
    put_close(g);
    put_flow(g, true, r->corr, g->device, sid, r->ts, "ac2g");
}

static void write_runtime(kgen *g, const krec *r)
{
    gen_out *o = &g->out;
    put_x_head(g, "cuda_runtime", r->name, g->pid, g->tid[r->th], r->ts, r->dur);
    g->st.cat_runtime++;
    if (r->th == TH_MAIN)
        g->st.lane_main++;
    else
        g->st.lane_autograd++;
    gen_puts(o, "\"External id\": ");
    gen_u64(o, r->ext);
    gen_puts(o, ",      \"cbid\": ");
    gen_u64(o, r->cbid);
    gen_puts(o, ", \"correlation\": ");
    gen_u64(o, r->corr);
    put_close(g);
    if (r->gpu >= 0)
        put_flow(g, false, r->corr, g->pid, g->tid[r->th], r->ts, "ac2g");
}

static void write_counter(kgen *g, const krec *r)
{
    gen_out *o = &g->out;
    ev_open(g);
    gen_puts(o, "    \"ph\": \"C\", \"name\": \"GPU Memory\", \"pid\": ");
    gen_i64(o, g->device);
    gen_puts(o, ", \"ts\": ");
    gen_us(o, r->ts);
    gen_puts(o, ",\n    \"args\": {\n      \"Total Allocated\": ");
    gen_i64(o, r->bytes);
    gen_puts(o, ", \"Total Reserved\": ");
    gen_i64(o, r->bytes2);
    gen_puts(o, "\n    }\n  }");
    g->st.ph_C++;
    g->st.counter_events++;
    g->st.counter_samples += 2;
}

/* Trace events a built step writes. */
static uint64_t step_events(const kgen *g)
{
    uint64_t n = 0;
    for (size_t i = 0; i < g->n; i++) {
        const krec *r = &g->rec[i];
        switch ((kkind)r->kind) {
        case K_OP:
        case K_ANNOT:
            n += 1 + (r->flow != 0);
            break;
        case K_RUNTIME:
            n += 1 + (r->gpu >= 0);
            break;
        case K_KERNEL:
        case K_MEMCPY:
        case K_MEMSET:
            n += 2;
            break;
        case K_COUNTER:
            n += 1;
            break;
        }
    }
    return n;
}

/* Kineto's order: CPU operators thread by thread (the autograd thread
 * first, as PyTorch hands them over), then each GPU activity with its
 * runtime call in correlation order, then counters. */
static void step_write(kgen *g)
{
    for (int th = TH__N - 1; th >= 0; th--)
        for (size_t i = 0; i < g->n; i++)
            if ((g->rec[i].kind == K_OP || g->rec[i].kind == K_ANNOT) && g->rec[i].th == th)
                write_op(g, &g->rec[i]);
    for (size_t i = 0; i < g->n; i++) {
        const krec *r = &g->rec[i];
        if (r->kind != K_RUNTIME)
            continue;
        if (r->gpu >= 0)
            write_gpu(g, &g->rec[r->gpu]);
        write_runtime(g, r);
    }
    for (size_t i = 0; i < g->n; i++)
        if (g->rec[i].kind == K_COUNTER)
            write_counter(g, &g->rec[i]);
}

/* ------------------------------------------------------- header/trailer */

static void write_header(kgen *g)
{
    gen_out *o = &g->out;
    gen_puts(o, "\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
    for (int d = 0; d < GPUS_PER_NODE; d++) {
        gen_printf(o, "    {\n      \"id\": %d, \"name\": \"NVIDIA A100-SXM4-80GB\", "
                      "\"totalGlobalMem\": 85031714816,\n"
                      "      \"computeMajor\": 8, \"computeMinor\": 0,\n"
                      "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
                      "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
                      "      \"sharedMemPerBlock\": 49152, \"numSms\": %d\n"
                      "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 166912, "
                      "\"sharedMemPerMultiprocessor\": 167936\n    }%s\n",
                   d, NUM_SMS, d + 1 < GPUS_PER_NODE ? "," : "");
    }
    gen_puts(o, "  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
    gen_u64(o, g->opt.rank);
    gen_puts(o, ", \"world_size\": ");
    gen_u64(o, g->opt.world);
    gen_puts(o, ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": "
                "\"default_pg\", \"backend_config\": \"cuda:nccl\", \"pg_size\": ");
    gen_u64(o, g->opt.world);
    gen_puts(o, ", \"ranks\": ");
    gen_puts(o, g->ranks_str);
    gen_puts(o, "}], \"nccl_version\": ");
    gen_json_str(o, g->opt.nccl_version);
    gen_puts(o, "},\n  \"traceEvents\": [\n");
}

static void put_meta(kgen *g, const char *name, int64_t pid, int64_t tid, const char *key,
                     const char *sval, int64_t ival)
{
    gen_out *o = &g->out;
    ev_open(g);
    gen_puts(o, "    \"name\": \"");
    gen_puts(o, name);
    gen_puts(o, "\", \"ph\": \"M\", \"ts\": ");
    gen_us(o, g->t_meta);
    gen_puts(o, ", \"pid\": ");
    gen_i64(o, pid);
    gen_puts(o, ", \"tid\": ");
    gen_i64(o, tid);
    gen_puts(o, ",\n    \"args\": {\n      \"");
    gen_puts(o, key);
    gen_puts(o, "\": ");
    if (sval)
        gen_json_str(o, sval);
    else
        gen_i64(o, ival);
    gen_puts(o, "\n    }\n  }");
    g->st.ph_M++;
}

/* Trailer events: metadata, the profiler's span and two global instants. */
#define TRAILER_EVENTS (3 * (1 + GPUS_PER_NODE) + 2 * SL__N + 2 * TH__N + 4)

static void write_trailer(kgen *g, int64_t t_end)
{
    gen_out *o = &g->out;
    char buf[160];
    int64_t t_window_end = t_end + 11873416;
    put_meta(g, "process_name", g->pid, 0, "name", "python3.11", 0);
    put_meta(g, "process_labels", g->pid, 0, "labels", "CPU", 0);
    put_meta(g, "process_sort_index", g->pid, 0, "sort_index", NULL, g->pid);
    for (int d = 0; d < GPUS_PER_NODE; d++) {
        snprintf(buf, sizeof buf, "GPU %d", d);
        put_meta(g, "process_name", d, 0, "name", "python3.11", 0);
        put_meta(g, "process_labels", d, 0, "labels", buf, 0);
        put_meta(g, "process_sort_index", d, 0, "sort_index", NULL, 16777216 + d);
    }
    for (int sl = 0; sl < SL__N; sl++) {
        snprintf(buf, sizeof buf, "stream %d ", stream_id[sl]);
        put_meta(g, "thread_name", g->device, stream_id[sl], "name", buf, 0);
        put_meta(g, "thread_sort_index", g->device, stream_id[sl], "sort_index", NULL,
                 stream_id[sl]);
    }
    for (int th = 0; th < TH__N; th++) {
        if (th == TH_MAIN)
            snprintf(buf, sizeof buf, "thread %" PRId64 " (pt_main_thread)", g->tid[th]);
        else
            snprintf(buf, sizeof buf, "thread %" PRId64 " (pt_autograd_%" PRId64 ")", g->tid[th],
                     g->device);
        put_meta(g, "thread_name", g->pid, g->tid[th], "name", buf, 0);
        put_meta(g, "thread_sort_index", g->pid, g->tid[th], "sort_index", NULL, g->tid[th]);
    }
    ev_open(g);
    gen_puts(o, "    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
    gen_us(o, g->t_start);
    gen_puts(o, ", \"dur\": ");
    gen_us(o, t_end - g->t_start);
    gen_puts(o, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
                "    \"name\": \"PyTorch Profiler (0)\",\n"
                "    \"args\": {\n      \"Op count\": 0\n    }\n  }");
    g->st.ph_X++;
    g->st.cat_trace++;
    g->st.lane_spans++;
    span(g, g->t_start, t_end - g->t_start);
    ev_open(g);
    gen_puts(o, "    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
    gen_us(o, g->t_start);
    gen_puts(o, ",\n    \"pid\": \"Spans\", \"tid\": 0,\n"
                "    \"args\": {\n      \"sort_index\": 536870912\n    }\n  }");
    g->st.ph_M++;
    ev_open(g);
    gen_puts(o, "    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
                "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
    gen_us(o, g->t_start);
    gen_puts(o, "\n  }");
    ev_open(g);
    gen_puts(o, "    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
                "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
    gen_us(o, t_window_end);
    gen_puts(o, "\n  }");
    g->st.ph_i += 2;
    g->st.lane_global += 2;
    span(g, g->t_start, 0);
    span(g, t_window_end, 0);
    gen_puts(o, "\n  ],\n  \"traceName\": ");
    snprintf(buf, sizeof buf, "./log/resnet18_ddp/gpu-node-%02" PRIu64 "_%" PRId64 ".%" PRId64
             ".pt.trace.json", g->opt.rank / GPUS_PER_NODE, g->pid,
             (BASE_TIME_NS + g->t_start) / 1000000);
    gen_json_str(o, buf);
    gen_puts(o, ",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
    gen_i64(o, BASE_TIME_NS);
    gen_puts(o, "\n}");
}

/* Large mode's remainder: the host polling an event between steps. */
static void write_fill(kgen *g, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        krec r;
        memset(&r, 0, sizeof r);
        g->s.clock[TH_MAIN] += rnd(g, 12000, 40000);
        r.kind = K_RUNTIME;
        r.th = TH_MAIN;
        r.name = "cudaEventQuery";
        r.cbid = CB_EVENT_QUERY;
        r.ts = g->s.clock[TH_MAIN];
        r.dur = rnd(g, 900, 2600);
        r.corr = g->s.next_corr++;
        r.ext = r.corr;
        r.gpu = -1;
        g->s.clock[TH_MAIN] += r.dur;
        write_runtime(g, &r);
    }
    g->st.fill = n;
}

/* ---------------------------------------------------------------- main */

static void print_stats(const kgen *g, uint64_t bytes)
{
    const kstats *s = &g->st;
    FILE *f = stderr;
    fprintf(f, "events %" PRIu64 "\n", s->events);
    fprintf(f, "bytes %" PRIu64 "\n", bytes);
    fprintf(f, "steps %" PRIu64 "\n", s->steps);
    fprintf(f, "fill %" PRIu64 "\n", s->fill);
    fprintf(f, "ph.X %" PRIu64 "\nph.s %" PRIu64 "\nph.f %" PRIu64 "\nph.M %" PRIu64
               "\nph.C %" PRIu64 "\nph.i %" PRIu64 "\n",
            s->ph_X, s->ph_s, s->ph_f, s->ph_M, s->ph_C, s->ph_i);
    fprintf(f, "cat.cpu_op %" PRIu64 "\ncat.user_annotation %" PRIu64 "\ncat.cuda_runtime %" PRIu64
               "\ncat.kernel %" PRIu64 "\ncat.gpu_memcpy %" PRIu64 "\ncat.gpu_memset %" PRIu64
               "\ncat.ac2g %" PRIu64 "\ncat.fwdbwd %" PRIu64 "\ncat.Trace %" PRIu64 "\n",
            s->cat_cpu_op, s->cat_annot, s->cat_runtime, s->cat_kernel, s->cat_memcpy,
            s->cat_memset, s->cat_ac2g, s->cat_fwdbwd, s->cat_trace);
    fprintf(f, "timeline %" PRIu64 "\n", s->timeline);
    fprintf(f, "flows %" PRIu64 "\n", s->flows);
    fprintf(f, "counter_events %" PRIu64 "\n", s->counter_events);
    fprintf(f, "counter_samples %" PRIu64 "\n", s->counter_samples);
    fprintf(f, "lane.%" PRId64 ".%" PRId64 " %" PRIu64 "\n", g->pid, g->tid[TH_MAIN], s->lane_main);
    fprintf(f, "lane.%" PRId64 ".%" PRId64 " %" PRIu64 "\n", g->pid, g->tid[TH_AUTOGRAD],
            s->lane_autograd);
    for (int sl = 0; sl < SL__N; sl++)
        fprintf(f, "lane.%" PRId64 ".%d %" PRIu64 "\n", g->device, stream_id[sl],
                s->lane_stream[sl]);
    fprintf(f, "lane.Spans.PyTorch_Profiler %" PRIu64 "\n", s->lane_spans);
    fprintf(f, "lane.global %" PRIu64 "\n", s->lane_global);
    fprintf(f, "start_ns %" PRId64 "\nend_ns %" PRId64 "\nspan_ns %" PRId64 "\n", s->t0, s->t1,
            s->t1 - s->t0);
}

static int version_new_names(const char *v)
{
    unsigned major = 0, minor = 0;
    if (sscanf(v, "%u.%u", &major, &minor) != 2)
        return -1;
    return major > 2 || (major == 2 && minor >= 19);
}

/* Per rank: its own process, GPU, random stream and clock offset. */
static void kgen_seed_rank(kgen *g)
{
    const kopts *o = &g->opt;
    gen_rng_seed(&g->s.rng, gen_seed_mix(o->seed, o->rank));
    g->device = (int64_t)(o->rank % GPUS_PER_NODE);
    g->pid = BASE_PID + 4 * (int64_t)o->rank;
    g->tid[TH_MAIN] = g->pid;
    g->tid[TH_AUTOGRAD] = g->pid + 91;
    g->t_start = START_NS + rnd(g, -1500000, 1500000);
    g->t_meta = g->t_start + rnd(g, 20000000, 30000000);
    g->s.clock[TH_MAIN] = g->t_start + rnd(g, 900000, 1600000);
    g->s.clock[TH_AUTOGRAD] = g->t_start;
    g->s.free_at[SL_COMPUTE] = g->s.free_at[SL_NCCL] = g->t_start;
    g->s.next_ext = 1;
    g->s.next_ev_idx = 0;
    g->s.next_flow = 1;
    g->s.next_seq = 1000 + (int64_t)gen_rng_below(&g->s.rng, 200);
    g->s.next_corr = 4096 + gen_rng_below(&g->s.rng, 4096);
    g->s.mem_reserved = 3 * model_bytes(&g->net) + 64 * MiB;
    g->s.step_no = FIRST_STEP;
}

/* When the slow rank starts each collective: simulate it silently with
 * the same seed and steps (its random stream depends on its rank only). */
static int slow_prepass(kgen *g)
{
    kgen *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    p->opt = g->opt;
    p->opt.rank = g->opt.slow_rank;
    p->opt.out = NULL;
    p->net = g->net;
    p->nccl_new_names = g->nccl_new_names;
    p->ranks_str = g->ranks_str;
    kgen_seed_rank(p);
    p->cap = 8192;
    p->rec = malloc(p->cap * sizeof *p->rec);
    if (!p->rec) {
        free(p);
        return -1;
    }
    for (uint64_t i = 0; i < g->opt.steps && !p->oom; i++)
        step_build(p);
    if (p->oom) {
        free(p->rec);
        free(p->arrive);
        free(p);
        return -1;
    }
    g->slow_arrive = p->arrive;
    g->n_slow_arrive = p->n_arrive;
    free(p->rec);
    free(p);
    return 0;
}

static int kineto_run(int argc, char **argv)
{
    kgen *g = calloc(1, sizeof *g);
    kopts *o;
    char msg[512];
    int rc = GEN_EXIT_OK, nn;
    uint64_t budget = 0;
    if (!g) {
        gen_error("kineto: out of memory");
        return GEN_EXIT_ERROR;
    }
    o = &g->opt;
    o->steps = 4;
    o->seed = 20240611;
    o->world = 8;
    o->nccl_version = "2.18.1";
    o->slow_rank = UINT64_MAX;
    o->slow_pct = 140;
    o->shuffle_window = SHUFFLE_WINDOW;
    {
        /* adding an option is adding a line here */
        gen_opt opts[] = {
            {"output", 'o', GEN_OPT_STR, &o->out, 0, 0, "FILE", "where to write (- = stdout)", false},
            {"steps", 0, GEN_OPT_U64, &o->steps, 1, 1000000, "N",
             "ProfilerSteps to write (default 4)", false},
            {"events", 0, GEN_OPT_U64, &o->events, 1, UINT64_C(1) << 40, "N",
             "large mode: repeat steps until exactly N trace events", false},
            {"seed", 0, GEN_OPT_U64, &o->seed, 0, UINT64_MAX, "S",
             "random seed (default 20240611)", false},
            {"rank", 0, GEN_OPT_U64, &o->rank, 0, MAX_WORLD - 1, "R",
             "distributed rank (default 0; GPU R % 8)", false},
            {"world", 0, GEN_OPT_U64, &o->world, 1, MAX_WORLD, "W", "world size (default 8)",
             false},
            {"nccl-version", 0, GEN_OPT_STR, &o->nccl_version, 0, 0, "V",
             "NCCL version; 2.19 and later name kernels ncclDevKernel_* (default 2.18.1)", false},
            {"slow-rank", 0, GEN_OPT_U64, &o->slow_rank, 0, MAX_WORLD - 1, "K",
             "rank K computes slower; the others wait for it at every collective", false},
            {"slow-factor", 0, GEN_OPT_U64, &o->slow_pct, 100, 1000, "PCT",
             "the slow rank's kernels take PCT percent of the normal time (default 140)",
             false},
            {"stats", 0, GEN_OPT_FLAG, &o->stats, 0, 0, NULL,
             "print what was written, one 'key value' per line, on stderr", false},
            {"shuffle", 0, GEN_OPT_FLAG, &o->shuffle, 0, 0, NULL,
             "the same events out of time order, as exporters write them: permuted "
             "(seeded by --seed) in windows of --shuffle-window events; metadata stays last",
             false},
            {"shuffle-window", 0, GEN_OPT_U64, &o->shuffle_window, 2, 1 << 24, "N",
             "events permuted together by --shuffle (default 65536; memory grows with it)",
             false},
            {NULL, 0, 0, NULL, 0, 0, NULL, NULL, false},
        };
        int pr = gen_opts_parse(opts, argc, argv, "kineto",
                                "A PyTorch profiler (Kineto) trace of one rank of a DDP training "
                                "job.");
        if (pr) {
            free(g);
            return pr > 0 ? GEN_EXIT_OK : GEN_EXIT_ERROR;
        }
        if (opts[1].given && opts[2].given) {
            gen_error("kineto: --steps and --events exclude each other");
            free(g);
            return GEN_EXIT_ERROR;
        }
        if (o->slow_rank != UINT64_MAX && o->events) {
            gen_error("kineto: --slow-rank works with --steps, not --events");
            free(g);
            return GEN_EXIT_ERROR;
        }
    }
    if (!o->out) {
        gen_error("kineto: no output file (-o FILE; - for stdout)");
        free(g);
        return GEN_EXIT_ERROR;
    }
    if (o->slow_rank != UINT64_MAX && o->slow_rank >= o->world) {
        gen_error("kineto: --slow-rank %" PRIu64 " is not below --world %" PRIu64, o->slow_rank,
                  o->world);
        free(g);
        return GEN_EXIT_ERROR;
    }
    if (o->rank >= o->world) {
        gen_error("kineto: --rank %" PRIu64 " is not below --world %" PRIu64, o->rank, o->world);
        free(g);
        return GEN_EXIT_ERROR;
    }
    if ((nn = version_new_names(o->nccl_version)) < 0) {
        gen_error("kineto: --nccl-version wants MAJOR.MINOR[.PATCH], not '%s'", o->nccl_version);
        free(g);
        return GEN_EXIT_ERROR;
    }
    g->nccl_new_names = nn == 1;
    if (o->events && o->events < TRAILER_EVENTS) {
        gen_error("kineto: --events must be at least %d (the metadata alone)", TRAILER_EVENTS);
        free(g);
        return GEN_EXIT_ERROR;
    }

    net_build(&g->net);
    /* the list of ranks, as Kineto prints it in pg_config and NCCL args */
    {
        size_t cap = 8 + (size_t)o->world * 7, k = 0;
        g->ranks_str = malloc(cap);
        if (!g->ranks_str) {
            gen_error("kineto: out of memory");
            free(g);
            return GEN_EXIT_ERROR;
        }
        g->ranks_str[k++] = '[';
        for (uint64_t r = 0; r < o->world; r++)
            k += (size_t)snprintf(g->ranks_str + k, cap - k, "%s%" PRIu64, r ? ", " : "", r);
        g->ranks_str[k++] = ']';
        g->ranks_str[k] = '\0';
    }

    kgen_seed_rank(g);
    if (o->slow_rank != UINT64_MAX && o->slow_rank != o->rank && slow_prepass(g)) {
        gen_error("kineto: out of memory");
        free(g->ranks_str);
        free(g);
        return GEN_EXIT_ERROR;
    }
    g->cap = 8192;
    g->rec = malloc(g->cap * sizeof *g->rec);
    if (!g->rec || gen_out_open(&g->out, o->out, msg, sizeof msg)) {
        if (!g->rec)
            snprintf(msg, sizeof msg, "kineto: out of memory");
        free(g->rec);
        gen_error("%s", msg);
        free(g->ranks_str);
        free(g);
        return GEN_EXIT_ERROR;
    }
    write_header(g);
    if (o->shuffle && shuffle_begin(g)) {
        gen_error("kineto: out of memory");
        rc = GEN_EXIT_ERROR;
    }
    if (o->events)
        budget = o->events - TRAILER_EVENTS;
    for (uint64_t i = 0; rc == GEN_EXIT_OK && (o->events || i < o->steps); i++) {
        ksim saved = g->s;
        uint64_t n;
        step_build(g);
        if (g->oom) {
            gen_error("kineto: out of memory");
            rc = GEN_EXIT_ERROR;
            break;
        }
        n = step_events(g);
        if (o->events) {
            if (n > budget) {
                g->s = saved;   /* does not fit: undo it, fill the rest */
                break;
            }
            budget -= n;
        }
        step_write(g);
        g->st.steps++;
        if (g->out.err)
            break;
    }
    if (rc == GEN_EXIT_OK) {
        int64_t end = max64(max64(g->s.clock[TH_MAIN], g->s.clock[TH_AUTOGRAD]),
                            max64(g->s.free_at[SL_COMPUTE], g->s.free_at[SL_NCCL]));
        uint64_t bytes;
        if (o->events)
            write_fill(g, budget);
        end = max64(end, g->s.clock[TH_MAIN]);
        shuffle_end(g);
        write_trailer(g, end + rnd(g, 250000, 400000));
        bytes = g->out.bytes;
        if (gen_out_commit(&g->out, msg, sizeof msg)) {
            gen_error("%s", msg);
            rc = GEN_EXIT_ERROR;
        } else if (o->stats) {
            print_stats(g, bytes);
        }
    } else {
        shuffle_end(g);
        gen_out_abort(&g->out);
    }
    free(g->rec);
    free(g->arrive);
    free((void *)g->slow_arrive);
    free(g->ranks_str);
    free(g);
    return rc;
}

const gen_format gen_format_kineto = {
    .name = "kineto",
    .usage = "[--steps N | --events N] [--seed S] [--rank R] [--world W] [--slow-rank K] "
             "[--slow-factor PCT] [--shuffle [--shuffle-window N]] [--stats] -o FILE",
    .help = "PyTorch profiler (Kineto) Chrome JSON of one rank of a DDP training job",
    .run = kineto_run,
};
