/* window.c (python): the binding of the window rows of ops.def (_im2col, _col2im and
 * _max_pool_with_indices, the private ops minitorch/nn/_conv.py builds convolution and pooling on). The
 * parser read every value; the op checks the geometry (csrc/ops/window.c). */
#include "../kernels/kernel_types.h"
#include "../ops/window.h"
#include "bind.h"

enum {
    R_INPUT,
    R_IMAGE_SIZE,
    R_OUTPUT_SIZE,
    R_KERNEL,
    R_STRIDE,
    R_PADDING,
    R_DILATION,
    R_FILL
};

static const char *const window_roles[] = {"input", "image_size", "output_size", "kernel_size", "stride",
                                           "padding", "dilation", "fill", NULL};

static PyObject *
window_call(const mt_call *c)
{
    mt_TensorObject *input = mt_call_arg(c, R_INPUT)->tensor;
    const mt_arg *kernel = mt_call_arg(c, R_KERNEL);
    const mt_arg *lists[4] = {mt_call_arg(c, R_OUTPUT_SIZE), mt_call_arg(c, R_STRIDE), mt_call_arg(c, R_PADDING),
                              mt_call_arg(c, R_DILATION)};
    const mt_arg *image_size = mt_call_arg(c, R_IMAGE_SIZE);
    mt_window_geometry g;

    g.dims = kernel->nints;
    for (int i = 0; i < 4; i++) {
        if (lists[i]->nints != g.dims) {
            return PyErr_Format(PyExc_RuntimeError, "%s(): every geometry list must have the kernel's %d values",
                                c->name, g.dims);
        }
    }
    if (image_size != NULL && image_size->nints != g.dims) {
        return PyErr_Format(PyExc_RuntimeError, "%s(): every geometry list must have the kernel's %d values",
                            c->name, g.dims);
    }
    g.kernel = kernel->ints;
    g.out_size = lists[0]->ints;
    g.stride = lists[1]->ints;
    g.padding = lists[2]->ints;
    g.dilation = lists[3]->ints;
    switch (c->code) {
    case MT_WINDOW_UNFOLD:
        return mt_im2col(input, &g, mt_call_arg(c, R_FILL)->scalar);
    case MT_WINDOW_FOLD:
        return mt_col2im(input, image_size->ints, &g);
    default:
        return mt_max_pool_with_indices(input, &g);
    }
}

const mt_binding mt_binding_window = {window_call, NULL, window_roles};
