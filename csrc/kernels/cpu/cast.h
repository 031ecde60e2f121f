/* cast.h: the host cast kernel: converting a strided run of elements from one dtype to another with
 * C's conversions (bool means "!= 0"; NaN is true), or copying their bits when the dtypes are equal.
 * It is copy_'s kernel for host memory and the conversion step of the other host kernels; the CUDA
 * cast kernel (kernels/cuda/kernels.cu) converts the same way. It never raises or allocates. */
#ifndef MT_KERNELS_CPU_CAST_H
#define MT_KERNELS_CPU_CAST_H

#include <stdint.h>

#include "../../core/scalar_type.h"

/* dst[i * dst_stride] = (dst_dtype) src[i * src_stride] for i < n; strides in bytes. */
void mt_cpu_cast(char *dst, mt_dtype dst_dtype, int64_t dst_stride, const char *src, mt_dtype src_dtype,
                 int64_t src_stride, int64_t n);

#endif
