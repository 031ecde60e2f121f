/* cudnn.h: convolution on CUDA devices through cuDNN (cudnn.c), loaded with dlopen at its first use as
 * cuBLAS is: the library's version, the three passes of a convolution (forward, backward data, backward
 * filter) over 1 to 3 spatial dims, and the hook through which the module tells the loader where Python
 * keeps packages. Python-free, like every kernel header; in a build without CUDA the version is 0 and a
 * pass fails with a RuntimeError status. */
#ifndef MT_KERNELS_CUDA_CUDNN_H
#define MT_KERNELS_CUDA_CUDNN_H

#include <stddef.h>
#include <stdint.h>

#include "../backend.h"
#include "cublas.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MT_CUDNN_FORWARD,           /* y = conv(x, w) */
    MT_CUDNN_BACKWARD_DATA,     /* x = the input's gradient from y (the output's) and w */
    MT_CUDNN_BACKWARD_FILTER    /* w = the weight's gradient from x and y (the output's) */
} mt_cudnn_pass;

#define MT_CUDNN_MAX_DIMS 3

/* One pass of torch's cudnn_convolution: x (N, C, *size), w (O, C / groups, *kernel), y (N, O, *out),
 * all contiguous in ctx->device's memory, dtype float32, float64, float16 or bfloat16. The pass reads
 * two of x, w, y and overwrites the third. The flags are torch.backends.cudnn's. */
typedef struct {
    mt_cudnn_pass pass;
    mt_dtype dtype;
    int dims;                   /* spatial dims, 1 to 3 */
    int64_t x_size[2 + MT_CUDNN_MAX_DIMS], w_size[2 + MT_CUDNN_MAX_DIMS], y_size[2 + MT_CUDNN_MAX_DIMS];
    int64_t padding[MT_CUDNN_MAX_DIMS], stride[MT_CUDNN_MAX_DIMS], dilation[MT_CUDNN_MAX_DIMS];
    int64_t groups;
    int benchmark, deterministic, allow_tf32;
    void *x, *w, *y;
} mt_cudnn_conv;

/* Runs the pass on ctx->device (cuDNN's errors as RuntimeError "cuDNN error: CUDNN_STATUS_..."). */
int mt_cudnn_convolution(mt_kctx *ctx, const mt_cudnn_conv *conv);

/* cudnnGetVersion() (91002 for 9.10.2) once libcudnn can be loaded (it is loaded here if needed); 0 when
 * it cannot, under the simulated GPU (MINITORCH_SIMULATE_GPU) and always in a build without CUDA. */
long mt_cudnn_version(void);

/* The loader's view of Python's import path (sys.path): the nvidia-cudnn wheel's library lies under
 * ENTRY/nvidia/cudnn/lib; the hook is cuBLAS's (cublas.h). */
void mt_cudnn_set_path_hook(mt_cublas_path_fn hook);

#ifdef __cplusplus
}
#endif

#endif
