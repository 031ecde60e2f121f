/* cublas.h: matrix products on CUDA devices through cuBLAS (cublas.c): the cuda backend's GEMM entry,
 * the switches behind minitorch.backends.cuda.matmul (allow_tf32, the float16 and bfloat16 reduction
 * settings, allow_fp16_accumulation), the library's version, and the hook through which the module
 * tells the loader where Python keeps packages. Python-free, like every kernel header; in a build
 * without CUDA only the switches, the version ("") and the hook exist. */
#ifndef MT_KERNELS_CUDA_CUBLAS_H
#define MT_KERNELS_CUDA_CUBLAS_H

#include <stddef.h>

#include "../backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cuda backend's gemm entry (kernels/backend.h): C = A @ B on ctx->device for float32 and
 * float64 (cublasSgemm, cublasDgemm), and for float16 and bfloat16 operands with C in their dtype or in
 * float32 (cublasGemmEx on the 16-bit data, accumulating in float32, as torch's CUDA kernels). The strides are the views' own: row-major and transposed (column-major) operands map onto
 * cuBLAS's transpose flags; any other layout is copied into packed device memory first (from
 * ctx->scratch_alloc), as is a C cuBLAS cannot write. The stride of a size-1 dim carries no
 * information and may be 0. Loads cuBLAS at its first call (see mt_cublas_set_path_hook). */
int mt_cuda_gemm(mt_kctx *ctx, const mt_gemm_desc *desc);

/* torch.backends.cuda.matmul.allow_tf32 for float32 products (off by default, as in torch). */
void mt_cuda_set_allow_tf32(int allow);
int mt_cuda_get_allow_tf32(void);

/* torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction (dtype MT_FLOAT16) and
 * allow_bf16_reduced_precision_reduction (MT_BFLOAT16) with their _split_k halves, torch's
 * CuBLASReductionOption: whether a 16-bit product torch computes with its cuBLAS GEMM may reduce in
 * reduced precision, and whether it may split k; both allowed by default, as in torch. Reduced
 * precision without split-k is no option: the setter refuses it (-1) and changes nothing. */
int mt_cuda_set_reduced_precision_reduction(mt_dtype dtype, int allow_reduced_precision, int allow_splitk);
void mt_cuda_get_reduced_precision_reduction(mt_dtype dtype, int *allow_reduced_precision, int *allow_splitk);

/* torch.backends.cuda.matmul.allow_fp16_accumulation: float16 products accumulate in float16 on devices
 * of compute capability 7 and above (off by default, as in torch). */
void mt_cuda_set_allow_fp16_accumulation(int allow);
int mt_cuda_get_allow_fp16_accumulation(void);

/* "12.8.4" once libcublas can be loaded (it is loaded here if needed); "" when it cannot. */
const char *mt_cublas_version_string(void);

/* Entry `index` of Python's import path (sys.path), where pip puts the nvidia-cublas wheel's library:
 * 1 with the directory in buf, 0 past the end, -1 for an entry to skip. The module installs it at
 * import; the loader calls it, with the GIL held, only while looking for the library. */
typedef int (*mt_cublas_path_fn)(size_t index, char *buf, size_t len);
void mt_cublas_set_path_hook(mt_cublas_path_fn hook);

#ifdef __cplusplus
}
#endif

#endif
