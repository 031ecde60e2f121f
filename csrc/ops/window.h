/* window.h: the tensor ops under convolution and pooling (csrc/ops/window.c): im2col, col2im and max
 * pooling with indices over 1 to 3 spatial dims. minitorch/nn/_conv.py builds convolution, pooling,
 * unfold and fold, their checks and their autograd nodes on them; these record no node themselves.
 * `dims` is the length of every geometry array (1 to 3); `out_size` is the windows' count along each
 * dim, which the caller computed with torch's formulas. New references, or NULL with an exception. */
#ifndef MT_OPS_WINDOW_H
#define MT_OPS_WINDOW_H

#include <Python.h>
#include <stdint.h>

#include "../core/scalar.h"
#include "../core/tensor.h"

typedef struct {
    int dims;
    const int64_t *out_size, *kernel, *stride, *padding, *dilation;
} mt_window_geometry;

/* input (N, C, *size) -> columns (N, C * K, L), `fill` at padding (torch's im2col, fill 0) */
PyObject *mt_im2col(mt_TensorObject *input, const mt_window_geometry *g, mt_scalar fill);

/* columns (N, C * K, L) -> image (N, C, *image_size), each column added at its position (col2im) */
PyObject *mt_col2im(mt_TensorObject *cols, const int64_t *image_size, const mt_window_geometry *g);

/* input (N, C, *size) -> (values, indices), each (N, C, *out_size): every window's maximum and its flat
 * position in the input's plane (torch's max_poolNd_with_indices) */
PyObject *mt_max_pool_with_indices(mt_TensorObject *input, const mt_window_geometry *g);

#endif
