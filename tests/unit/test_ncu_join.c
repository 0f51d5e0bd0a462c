/* test_ncu_join.c - the name keys of the --metrics join
 * (analysis/ncu_join.h): names as ncu, Kineto and nsys print them reduce
 * to the same function name, and different kernels stay apart. */
#include "config.h"

#include "../tap.h"
#include "analysis/ncu_join.h"

#include <string.h>

static void key(const char *name, const char *want)
{
    char out[256];
    size_t n = tt_ncu_name_key(name, out, sizeof out);
    is_str(out, want, "key of \"%.60s\"", name);
    ok(n == strlen(want), "its length (%zu)", n);
}

int main(void)
{
    /* ncu (real files: traces-next/ncu) and Kineto spellings of one kernel */
    key("void at::native::vectorized_elementwise_kernel<(int)4, at::native::AddFunctor<float>, "
        "at::detail::Array<char *, (int)3>>(int, T2, T3)",
        "vectorized_elementwise_kernel");
    key("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3>)",
        "vectorized_elementwise_kernel");
    /* cut short inside the template arguments */
    key("void at::native::vectorized_elementwise_kernel<(int)4, at::n",
        "vectorized_elementwise_kernel");
    /* "(anonymous namespace)::" and ncu's "<unnamed>::", also with its '<' lost */
    key("void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, "
        "float const*)",
        "max_pool_forward_nchw");
    key("void at::native::<unnamed>::max_pool_forward_nchw<float, float>(T1, T2)",
        "max_pool_forward_nchw");
    key("unnamed>::saxpy_kernel(float, const float *, float *, int)", "saxpy_kernel");
    /* a return type before the name (real ncu file, cuBLAS gemv) */
    key("enable_if<!T7, void>::type kernel<int, int, __nv_bfloat16, float, 0, 1>(T13)", "kernel");
    /* parentheses inside template arguments, lambdas */
    key("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
        "namespace)::clamp_min_scalar_kernel_impl(at::TensorIterator&, c10::Scalar)::{lambda()#1}"
        "::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, float)",
        "vectorized_elementwise_kernel");
    /* plain names, and digits that tell kernels apart stay */
    key("ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn");
    key("fmha_cutlassF_bf16_aligned_64x64_rf_sm80(AttentionKernel<bfloat16_t, Sm80, 1>::Params)",
        "fmha_cutlassF_bf16_aligned_64x64_rf_sm80");
    key("void cutlass::Kernel<cutlass_80_wmma_tensorop_f16_s161616gemm_f16_32x32_128x2_tn_align8>"
        "(T1::Params)",
        "Kernel");
    key("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    /* nothing to keep */
    key("", "");
    key("<>()", "");
    {
        char small[8];
        size_t n = tt_ncu_name_key("vectorized_elementwise_kernel", small, sizeof small);
        is_str(small, "vectori", "a key longer than the buffer is cut");
        ok(n == strlen("vectorized_elementwise_kernel"), "and its full length returned");
    }
    return tap_done();
}
