/* window.h: the host kernels of convolution and pooling's windows (im2col, col2im, max pooling) over
 * kernel_types.h's mt_window_args, for memory the host can address. They never raise or look at
 * tensors and devices, and check every position against the image. */
#ifndef MT_KERNELS_CPU_WINDOW_H
#define MT_KERNELS_CPU_WINDOW_H

#include "../kernel_types.h"

/* 0; -1 for a dtype the op has no kernel for (FOLD: not floating or bool; MAX_POOL: bool); -2 when
 * there is no memory for MAX_POOL's window tables. */
int mt_cpu_window(const mt_window_args *args);

#endif
