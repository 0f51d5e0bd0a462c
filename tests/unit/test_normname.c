/* test_normname.c - `diff --normalize` name rules (analysis/normname.h)
 * on real kernel and op names: the kernels of the Kineto traces under
 * ../shared/traces/pytorch (resnet50, nccl_data, mi250_rocm, two_ranks)
 * and the runtime calls of nsys/saxpy_mpi.sqlite, each with the name it
 * must become; pairs that differ only in what the rules drop must meet,
 * names that differ otherwise must not; snprintf's contract on small
 * buffers.
 */
#include "config.h"

#include "analysis/normname.h"
#include "../tap.h"

#include <stdlib.h>

static void norm_is(const char *in, const char *want)
{
    char out[4096];
    size_t n = tt_name_normalize(in, out, sizeof out);
    is_str(out, want, "normalize %.60s", in);
    is_i64((int64_t)n, (int64_t)strlen(want), "length of %.60s", in);
}

static void same(const char *a, const char *b, int want_same)
{
    char x[4096], y[4096];
    tt_name_normalize(a, x, sizeof x);
    tt_name_normalize(b, y, sizeof y);
    ok((strcmp(x, y) == 0) == want_same, "%s: %.50s / %.50s", want_same ? "meet" : "apart", a, b);
}

int main(void)
{
    /* template arguments, nested, in the signature too (pytorch) */
    norm_is("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true, false>"
            "(float*, float const*, int, int, int, bool const*, int, bool)",
            "void (anonymous namespace)::softmax_warp_forward<>"
            "(float*, float const*, int, int, int, bool const*, int, bool)");
    norm_is("void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, "
            "float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, "
            "2> >(int, at::native::AUnaryFunctor<float, float, float, "
            "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)",
            "void at::native::vectorized_elementwise_kernel<>(int, at::native::AUnaryFunctor<>, "
            "at::detail::Array<>)");
    norm_is("std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, "
            "float, float, false, true, true, false, 7, cublasGemvParams<cublasGemvTensorStridedBatched"
            "<float const>, cublasGemvTensorStridedBatched<float const>, "
            "cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<"
            "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, "
            "cublasGemvTensorStridedBatched<float>, float>)",
            "std::enable_if<>::type internal::gemvx::kernel<>(cublasGemvParams<>)");
    /* a lambda in the parameters: its "#N" goes, its types stay */
    norm_is("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
            "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
            "void at::native::vectorized_elementwise_kernel<>(int, at::native::FillFunctor<>, "
            "at::detail::Array<>)");
    norm_is("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
            "clamp_min_scalar_kernel_impl(at::TensorIterator&, c10::Scalar)::{lambda()#1}::operator()"
            "() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >"
            "(int, at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl(at::TensorIterator&, "
            "c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::"
            "{lambda(float)#1}, at::detail::Array<char*, 2>)",
            "void at::native::vectorized_elementwise_kernel<>(int, at::native::(anonymous namespace)::"
            "clamp_min_scalar_kernel_impl(at::TensorIterator&, c10::Scalar)::{lambda()}::operator()"
            "() const::{lambda()}::operator()() const::{lambda(float)}, at::detail::Array<>)");
    /* names without templates stay (cuBLAS/cuDNN/NCCL kernels, nsys) */
    norm_is("ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn");
    norm_is("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x128x32_stage5_"
            "warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer",
            "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x128x32_stage5_"
            "warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer");
    norm_is("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
            "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
    norm_is("saxpy(double *, double *, double *, double, int)",
            "saxpy(double *, double *, double *, double, int)");
    norm_is("cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)",
            "cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)");
    /* mangled names are compared as they are */
    norm_is("_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionEEEEEvNT_6ParamsE",
            "_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionEEEEEvNT_6ParamsE");
    /* numeric suffixes: generated kernels, autograd renames, API versions */
    norm_is("triton__0d1d2d3d4d5d6d7d8d9d10d11d12d13d14", "triton__0d1d2d3d4d5d6d7d8d9d10d11d12d13d");
    norm_is("triton_poi_fused_add_0", "triton_poi_fused_add");
    norm_is("fusion.7", "fusion");
    norm_is("loop_add_fusion_3.12", "loop_add_fusion");
    norm_is("TBackward0", "TBackward");
    norm_is("autograd::engine::evaluate_function: MeanBackward1",
            "autograd::engine::evaluate_function: MeanBackward");
    norm_is("nn.Module: Linear_0", "nn.Module: Linear");
    norm_is("cudaMalloc_v3020", "cudaMalloc");
    norm_is("cudaLaunchKernel_v7000", "cudaLaunchKernel");
    norm_is("ProfilerStep#5", "ProfilerStep");
    norm_is("Cijk_Alik_Bljk_SB_MT64x16x32_WS64_WG64_4_1", "Cijk_Alik_Bljk_SB_MT64x16x32_WS64_WG64_4");
    norm_is("1.5 ms", "1.5 ms");
    norm_is("c10::Half", "c10::Half");
    /* hex addresses */
    norm_is("stream_0x55d4c2a1f3a0", "stream_0x");
    norm_is("<built-in method __exit__ of torch._C.DisableTorchFunctionSubclass object at 0x7f3b1c2d>",
            "<built-in method __exit__ of torch._C.DisableTorchFunctionSubclass object at 0x>");
    norm_is("buf_0x1f_12", "buf_0x");
    norm_is("0xdeadbeefg", "0xdeadbeefg");
    /* operators and stray angle brackets */
    norm_is("bool operator<(Foo<int> const&, Foo<int> const&)", "bool operator<(Foo<> const&, Foo<> const&)");
    norm_is("std::ostream& operator<<(std::ostream&, X)", "std::ostream& operator<<(std::ostream&, X)");
    norm_is("f<a(b>c)>(int)", "f<>(int)");
    norm_is("broken<int, float", "broken<int, float");
    norm_is("", "");

    /* pairs across versions */
    same("void (anonymous namespace)::softmax_warp_backward<float, float, float, 10, true>(float*, float "
         "const*, float const*, int, int, int)",
         "void (anonymous namespace)::softmax_warp_backward<float, float, float, 1, false, false>(float*, "
         "float const*, float const*, int, int, int)", 1);
    same("void (anonymous namespace)::softmax_warp_backward<float, float, float, 10, true, false>(float*, "
         "float const*, float const*, int, int, int, bool const*)",
         "void (anonymous namespace)::softmax_warp_backward<float, float, float, 10, true>(float*, float "
         "const*, float const*, int, int, int)", 0);   /* other parameters */
    same("void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 1, 128, 1>"
         "(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, "
         "1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)",
         "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 3, 64, 64>"
         "(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 64, "
         "64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)", 1);
    same("AddmmBackward", "AddmmBackward0", 1);
    same("cudaFree", "cudaFree_v3020", 1);
    same("ampere_sgemm_128x128_tn", "ampere_sgemm_128x128_tt", 0);
    same("ampere_sgemm_32x128_nn", "ampere_sgemm_128x64_nn", 0);

    /* snprintf's contract */
    {
        char small[8];
        const char *in = "void f<int>(float*, int)";   /* -> "void f<>(float*, int)" */
        size_t n = tt_name_normalize(in, small, sizeof small);
        is_i64((int64_t)n, 21, "full length when cut");
        is_str(small, "void f<", "cut output is NUL-terminated");
        is_i64((int64_t)tt_name_normalize(in, NULL, 0), 21, "cap 0 writes nothing");
    }
    return tap_done();
}
