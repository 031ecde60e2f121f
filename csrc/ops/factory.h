/* factory.h: the C entry points of the factories and of Tensor's in-place fills (csrc/python/factory.c binds
 * them to their rows of the op table, with the values the parser read). */
#ifndef MT_FACTORY_H
#define MT_FACTORY_H

#include <Python.h>
#include <stdint.h>

#include "../core/device.h"
#include "../core/dtype.h"
#include "../core/generator.h"
#include "../core/memory_format.h"
#include "../core/scalar.h"
#include "../core/tensor.h"

/* What a new tensor is filled with. */
typedef enum {
    MT_FACTORY_EMPTY,
    MT_FACTORY_ZEROS,
    MT_FACTORY_ONES
} mt_factory_fill;

/* The tensor options of a factory call, as the parser read them. */
typedef struct {
    mt_dtype dtype;                     /* MT_NUM_DTYPES: the default float dtype (the input's for *_like) */
    int has_device;
    mt_device device;                   /* when has_device; else the cpu (the input's device for *_like) */
    int requires_grad;
    mt_memory_format memory_format;     /* contiguous_format for zeros/ones/empty, preserve_format for *_like
                                         * unless given */
    mt_generator generator;             /* the random factories' generator= (none: the device's default) */
} mt_factory_options;

/* zeros, ones, empty: a new tensor of the given size (torch's checks: an unsupported memory format,
 * zeros' negative sizes, the device, requires_grad on a non-float dtype). New reference or NULL. */
PyObject *mt_factory_sized(mt_factory_fill fill, int ndim, const int64_t *sizes, const mt_factory_options *opt);

/* zeros_like, ones_like, empty_like: a new tensor shaped like `like`. New reference or NULL. */
PyObject *mt_factory_like(mt_factory_fill fill, mt_TensorObject *like, const mt_factory_options *opt);

/* Tensor.new_empty, new_zeros, new_ones: a new tensor of the given size with self's dtype and device unless
 * the options give them. New reference or NULL. */
PyObject *mt_factory_new(mt_factory_fill fill, mt_TensorObject *self, int ndim, const int64_t *sizes,
                         const mt_factory_options *opt);

/* A number argument as the parser read it (a Scalar parameter): its value, and a complex number's
 * imaginary part (is_complex: a Python complex was given, even one with a zero imaginary part). */
typedef struct {
    mt_scalar value;
    double imag;
    int is_complex;
} mt_factory_number;

/* full and full_like: the value converted to the result's dtype with torch's overflow check (full's
 * dtype, when not given, is the value's: bool, int64 or the default float dtype). */
PyObject *mt_factory_full(int ndim, const int64_t *sizes, const mt_factory_number *value,
                          const mt_factory_options *opt);
/* Tensor.new_full: full with self's dtype and device unless the options give them. */
PyObject *mt_factory_new_full(mt_TensorObject *self, int ndim, const int64_t *sizes, const mt_factory_number *value,
                              const mt_factory_options *opt);
PyObject *mt_factory_full_like(mt_TensorObject *like, const mt_factory_number *value, const mt_factory_options *opt);

/* arange(start, end, step): torch's dtype inference, bounds checks and size, and its CPU kernel's values
 * (the rounding of its vectorised loop included). */
PyObject *mt_factory_arange(const mt_factory_number *start, const mt_factory_number *end,
                            const mt_factory_number *step, const mt_factory_options *opt);

/* linspace (log 0) and logspace (log 1, base ** each value): `steps` values from start to end, computed as
 * torch's CPU kernel computes them (filled from both ends), with its checks. */
PyObject *mt_factory_linspace(const mt_factory_number *start, const mt_factory_number *end, int64_t steps, int log,
                              double base, const mt_factory_options *opt);

/* eye(n, m): an n x m identity. */
PyObject *mt_factory_eye(int64_t n, int64_t m, const mt_factory_options *opt);

/* What a random factory draws. */
typedef enum {
    MT_RANDOM_UNIFORM,      /* rand: [0, 1) */
    MT_RANDOM_NORMAL        /* randn: mean 0, std 1 */
} mt_random_kind;

/* rand, randn and their *_like forms, from the default generator of the result's device kind (torch's
 * mt19937 on the CPU, the Philox stream on CUDA devices). */
PyObject *mt_factory_random(mt_random_kind kind, int ndim, const int64_t *sizes, const mt_factory_options *opt);
PyObject *mt_factory_random_like(mt_random_kind kind, mt_TensorObject *like, const mt_factory_options *opt);

/* randint: integers in [low, high) (the dtype, when not given, is int64). */
PyObject *mt_factory_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, const mt_factory_options *opt);

/* The in-place fills of Tensor: self (a new reference) or NULL. fill_ takes a number, or a 0-d tensor
 * (copied in, as copy_ would); uniform_ and normal_ draw as rand and randn do. */
PyObject *mt_tensor_fill_number_(mt_TensorObject *self, const mt_factory_number *value);

/* Whether torch checks a number filled into `numel` elements of `dtype` on `device` for overflow
 * (mt_scalar_checked): not for a single float16 or bfloat16 element on the CPU, which torch's scalar_fill
 * converts unchecked (an out-of-range value becomes inf). */
int mt_fill_checks(mt_dtype dtype, int64_t numel, mt_device device);
PyObject *mt_tensor_fill_tensor_(mt_TensorObject *self, mt_TensorObject *value);
PyObject *mt_tensor_zero_(mt_TensorObject *self);
PyObject *mt_tensor_uniform_(mt_TensorObject *self, double from, double to, mt_generator gen);
PyObject *mt_tensor_normal_(mt_TensorObject *self, double mean, double std, mt_generator gen);

/* randperm(n): a random permutation of 0..n-1 in the options' dtype (int64 unless given), drawn on the host as
 * torch's CPU kernel draws it from a CPU generator (also for a CUDA device without generator=, then copied
 * there); a CUDA device's result with a CUDA generator= sorts 0..n-1 by random keys from that generator, as
 * torch's CUDA kernel does. */
PyObject *mt_factory_randperm(int64_t n, const mt_factory_options *opt);
/* Tensor.random_(): without bounds (has_from 0), random_(from, to) and random_(from, None) (has_from 1; has_to
 * 0: up to the dtype's largest value), random_(to) (has_from 2, from 0), with torch's checks and node names.
 * gen: the generator= argument (none: the default generator). */
PyObject *mt_tensor_random_(mt_TensorObject *self, int has_from, int64_t from, int has_to, int64_t to,
                            mt_generator gen);

#endif
