/* elementwise.h: the elementwise ops' C entry points: C values in (tensors, numbers, the op), a new tensor or
 * self out, with torch's checks and messages. The Python forms (functions, methods, operators) are
 * csrc/python/elementwise.c's, through the op table. */
#ifndef MT_ELEMENTWISE_H
#define MT_ELEMENTWISE_H

#include <Python.h>

#include "../kernels/cpu/elementwise.h"
#include "dispatch.h"

/* An operand that may be a complex number. minitorch has no complex dtype: such a number never reaches a
 * kernel (mt_binary raises what torch raises, or NotImplementedError where torch would return a complex
 * tensor, and computes eq/ne). */
typedef struct {
    mt_operand op;          /* a complex number: its real part as a float scalar */
    int is_complex;
    Py_complex z;
} mt_cx_operand;

/* alpha= as torch's Scalar takes it: a real number, or a complex one (which no minitorch dtype accepts). */
typedef struct {
    mt_scalar value;        /* a complex alpha: its real part, as a float */
    int is_complex;
} mt_alpha;

/* torch.<op>(a, b, alpha=alpha) (alpha NULL: not given), or a.<op>_(b) with self_out == a's tensor. `fname`
 * names the op in messages. Comparisons give bool tensors (in place: self's dtype). New reference (self_out
 * for in-place ops), or NULL with torch's exception. */
/* torch.div(a, b, rounding_mode='trunc' (trunc 1) or 'floor' (0)), or a.div_(...) with self_out == a's
 * tensor: integer inputs stay integers; DivBackward2, whose gradients are zero. New reference or NULL. */
PyObject *mt_div_rounding(const char *fname, int trunc, const mt_cx_operand *a, const mt_cx_operand *b,
                          mt_TensorObject *self_out);

PyObject *mt_binary(const char *fname, mt_binary_op op, const mt_cx_operand *a, const mt_cx_operand *b,
                    const mt_alpha *alpha, mt_TensorObject *self_out);

/* torch.rsub(self, other, alpha): other - alpha * self, recorded as torch's rsub (RsubBackward0 for two tensors,
 * RsubBackward1 for a number other). New reference or NULL. */
PyObject *mt_rsub(const char *fname, const mt_cx_operand *self, const mt_cx_operand *other, const mt_alpha *alpha);

/* number / tensor: torch's Tensor.__rtruediv__, self.reciprocal() * number (which rounds differently from
 * a true division). */
PyObject *mt_binary_reflected_divide(const mt_operand *number, mt_TensorObject *t);

/* torch.<op>(t), or t.<op>_() when inplace. */
PyObject *mt_unary(mt_unary_op op, mt_TensorObject *t, int inplace);

/* std::sqrt of each element, correctly rounded on every device: the square root torch's kernels take one
 * scalar at a time (std's, vector_norm's, the normalisations' inverse deviations), where torch.sqrt on the
 * CPU is torch's vector sqrt, MKL's (op_math.h). Below autograd; integers give float32, as sqrt's. */
PyObject *mt_std_sqrt(mt_TensorObject *t);

/* gelu(x) (grad NULL) or its gradient from grad (x's shape and dtype) by the device's gelu kernel, torch's
 * CPU one (kernels/cpu/gelu.c), below autograd: a new tensor laid out as TensorIterator lays it out; None
 * where there is no such kernel (a device other than the CPU, a dtype other than a floating one), which
 * leaves the op to nn.functional's composition. */
PyObject *mt_gelu_kernel(mt_TensorObject *x, mt_TensorObject *grad, int tanh_form);

/* torch's name of a unary op ("asin" for MT_UNARY_ASIN) */
const char *mt_unary_op_name(mt_unary_op op);
/* The dtype a unary op gives t, or -1 with torch's error for an input the op refuses in its own words
 * (neg and relu of a bool): what out= checks out's dtype against before the op's kernel dispatch. */
int mt_unary_result_dtype(mt_unary_op op, const mt_TensorObject *t, mt_dtype *result);

/* torch.round(t, decimals=d), or t.round_(decimals=d) when inplace. */
/* torch.logit(t, eps) (eps NULL: None, no clamping), or t.logit_(eps): LogitBackward0 with eps. */
PyObject *mt_logit(mt_TensorObject *t, const double *eps, int inplace);

/* torch.polygamma(n, t) (n >= 0, else torch's error), or t.polygamma_(n): PolygammaBackward0. */
PyObject *mt_polygamma(int64_t n, mt_TensorObject *t, int inplace);

PyObject *mt_round_decimals(mt_TensorObject *t, int64_t decimals, int inplace);

/* clamp/clip, clamp_min and clamp_max (clamp.c): the row codes of ops.def */
typedef enum {
    MT_CLAMP = 0,       /* clamp and clip: min and/or max */
    MT_CLAMP_MIN,
    MT_CLAMP_MAX
} mt_clamp_kind;

/* torch.clamp(t, lo, hi) (either bound NULL: not given), or t.clamp_(lo, hi) when inplace. `scalars`: the
 * bounds came through torch's Scalar overload (numbers), whose dtype rules and errors differ from the
 * Tensor overload's. */
PyObject *mt_clamp(mt_clamp_kind kind, mt_TensorObject *t, const mt_cx_operand *lo, const mt_cx_operand *hi,
                   int scalars, int inplace);

/* torch.where(cond, a, b): a and b tensors or numbers (a number must fit the result dtype: c10's
 * "value cannot be converted to type ... without overflow"). */
PyObject *mt_where(mt_TensorObject *cond, const mt_operand *a, const mt_operand *b);
/* where() for the composites: numbers are cast to the result dtype unchecked, as torch's kernels'
 * static_cast does (nan_to_num's replacement values). */
PyObject *mt_where_cast(mt_TensorObject *cond, const mt_operand *a, const mt_operand *b);

/* addcmul and addcdiv (addcmul.c): the row codes of ops.def */
typedef enum {
    MT_ADDCMUL = 0,
    MT_ADDCDIV
} mt_addc_kind;

/* torch.addcmul(self, t1, t2, value=value) / addcdiv, or self.addcmul_(...) when inplace; value_complex: the
 * value had an imaginary part (torch's conversion error). */
PyObject *mt_addcmul(mt_addc_kind kind, mt_TensorObject *self, mt_TensorObject *t1, mt_TensorObject *t2,
                     mt_scalar value, int value_complex, int inplace);

/* torch.lerp(self, end, weight) / self.lerp_(end, weight) when inplace: weight a tensor, or NULL for the
 * number w (w_complex: it was a complex number, which no minitorch dtype takes). */
PyObject *mt_lerp(mt_TensorObject *self, mt_TensorObject *end, mt_TensorObject *weight, mt_scalar w, int w_complex,
                  int inplace);

/* torch.nan_to_num(t, nan, posinf, neginf) (each NULL: not given, torch's default), or t.nan_to_num_(...)
 * when inplace (nan_to_num.c). */
PyObject *mt_nan_to_num(mt_TensorObject *t, const double *nan, const double *posinf, const double *neginf,
                        int inplace);

/* The op's name in messages: "add", "sub", "eq", ... */
const char *mt_binary_op_name(mt_binary_op op);

#endif
