/* factory.c (python): the bindings of the factory rows of ops.def (zeros, ones, empty, full and their *_like
 * forms and Tensor's new_* methods; arange, eye, linspace and logspace; rand, randn, randint, randperm, rand_like
 * and randn_like; tensor(data)) and of Tensor's in-place fills (fill_, zero_, uniform_, normal_, random_). The
 * parser has read every argument's type and value (dtype, device, requires_grad, memory_format, generator: a
 * minitorch.Generator, whose C generator, a CPU or a CUDA one, is handed on; layout and pin_memory only
 * checked: minitorch has one layout and no pinned factories); out= is refused next, then csrc/ops/factory.h
 * makes the tensor with torch's checks. */
#include "../ops/convert.h"
#include "../ops/factory.h"
#include "../ops/shape.h"
#include "bind.h"
#include "generator.h"
#include "tensor_data.h"

/* The roles of every factory row (one list, so that one function reads the options of all of them). */
enum {
    F_SIZE,
    F_INPUT,
    F_DTYPE,
    F_DEVICE,
    F_REQUIRES_GRAD,
    F_MEMORY_FORMAT,
    F_OUT,
    F_FILL_VALUE,
    F_START,
    F_END,
    F_STEP,
    F_N,
    F_M,
    F_LOW,
    F_HIGH,
    F_GENERATOR
};

/* empty_strided's stride shares arange's step slot (a binding has at most MT_BIND_MAX_ROLES) */
#define F_STRIDE F_STEP

static const char *const factory_roles[] = {"size", "input", "dtype", "device", "requires_grad", "memory_format",
                                            "out", "fill_value", "start", "end", "step|stride", "n", "m", "low", "high",
                                            "generator", NULL};

/* The C generator of a generator= argument: none (with no exception) when none was given. */
static int
read_generator(const mt_arg *a, mt_generator *gen)
{
    gen->cpu = NULL;
    gen->cuda = NULL;
    if (a != NULL && a->obj != NULL) {
        return mt_generator_from_object(a->obj, gen);
    }
    return 0;
}

/* The tensor options of the call (memory_format: the given one, else `dflt`); -1 when out= was given. */
static int
read_options(const mt_call *c, mt_memory_format dflt, mt_factory_options *opt)
{
    const mt_arg *device = mt_call_arg(c, F_DEVICE);
    const mt_arg *format = mt_call_arg(c, F_MEMORY_FORMAT);

    if (mt_bind_refuse_out(c, F_OUT) < 0) {
        return -1;
    }
    opt->dtype = mt_call_arg(c, F_DTYPE)->dtype;
    opt->has_device = device->obj != NULL;
    opt->device = device->device;
    opt->requires_grad = mt_call_arg(c, F_REQUIRES_GRAD)->b;
    opt->memory_format = format != NULL && format->obj != NULL ? format->memory_format : dflt;
    return read_generator(mt_call_arg(c, F_GENERATOR), &opt->generator);
}

/* A constructor's device (not the *_like or new_* forms', which is their input's): the given one, else the
 * default device when one is set (torch.set_default_device, `with torch.device(...)`). */
static void
use_default_device(mt_factory_options *opt)
{
    if (!opt->has_device && mt_default_device(&opt->device)) {
        opt->has_device = 1;
    }
}

/* A Scalar role as a number; `dflt` when the overload has no such parameter. */
static mt_factory_number
number(const mt_call *c, int role, int64_t dflt)
{
    const mt_arg *a = mt_call_arg(c, role);
    mt_factory_number n = {{MT_INT64, {0}}, 0.0, 0};

    if (a == NULL) {
        n.value.v.i = dflt;
        return n;
    }
    n.value = a->scalar;
    n.imag = a->imag;
    n.is_complex = a->is_complex;
    return n;
}

/* empty_strided and Tensor.new_empty_strided: torch's checks of the geometry, then an empty 1-D tensor of
 * the elements it spans, given that geometry in place (a tensor of its own, not a view). */
static PyObject *
empty_strided(const mt_call *c)
{
    const mt_arg *size = mt_call_arg(c, F_SIZE), *stride = mt_call_arg(c, F_STRIDE);
    mt_factory_options opt;
    int64_t span;
    PyObject *r;

    if (read_options(c, MT_CONTIGUOUS_FORMAT, &opt) < 0 ||
        mt_check_strided_geometry(size->nints, size->ints, stride->nints, stride->ints, 1, &span) < 0) {
        return NULL;
    }
    if (c->code & MT_FACTORY_NEW) {
        r = mt_factory_new(MT_FACTORY_EMPTY, c->self, 1, &span, &opt);
    }
    else {
        use_default_device(&opt);
        r = mt_factory_sized(MT_FACTORY_EMPTY, 1, &span, &opt);
    }
    if (r != NULL && mt_tensor_set_geometry((mt_TensorObject *)r, size->nints, size->ints, stride->ints) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

/* zeros, ones, empty, full (codes: the fill, MT_FACTORY_FULL, with MT_FACTORY_LIKE for the *_like forms and
 * MT_FACTORY_NEW for Tensor's new_* methods). */
static PyObject *
factory_call(const mt_call *c)
{
    const mt_arg *input = mt_call_arg(c, F_INPUT);
    int fill = c->code & ~MT_FACTORY_LIKE;
    mt_factory_options opt;

    if (c->code & MT_FACTORY_STRIDED) {
        return empty_strided(c);
    }
    if (c->code & MT_FACTORY_NEW) {
        const mt_arg *size = mt_call_arg(c, F_SIZE);
        if (read_options(c, MT_CONTIGUOUS_FORMAT, &opt) < 0) {
            return NULL;
        }
        fill &= ~MT_FACTORY_NEW;
        if (fill == MT_FACTORY_FULL) {
            mt_factory_number value = number(c, F_FILL_VALUE, 0);
            return mt_factory_new_full(c->self, size->nints, size->ints, &value, &opt);
        }
        return mt_factory_new((mt_factory_fill)fill, c->self, size->nints, size->ints, &opt);
    }
    if (read_options(c, input != NULL ? MT_PRESERVE_FORMAT : MT_CONTIGUOUS_FORMAT, &opt) < 0) {
        return NULL;
    }
    if (input == NULL) {
        use_default_device(&opt);
    }
    if (fill == MT_FACTORY_FULL) {
        mt_factory_number value = number(c, F_FILL_VALUE, 0);
        if (input != NULL) {
            return mt_factory_full_like(input->tensor, &value, &opt);
        }
        return mt_factory_full(mt_call_arg(c, F_SIZE)->nints, mt_call_arg(c, F_SIZE)->ints, &value, &opt);
    }
    if (input != NULL) {
        return mt_factory_like((mt_factory_fill)fill, input->tensor, &opt);
    }
    return mt_factory_sized((mt_factory_fill)fill, mt_call_arg(c, F_SIZE)->nints, mt_call_arg(c, F_SIZE)->ints, &opt);
}

const mt_binding mt_binding_factory = {factory_call, NULL, factory_roles};

/* arange and eye. */
static PyObject *
range_call(const mt_call *c)
{
    mt_factory_options opt;

    if (read_options(c, MT_CONTIGUOUS_FORMAT, &opt) < 0) {
        return NULL;
    }
    use_default_device(&opt);
    if (c->code == MT_RANGE_EYE) {
        const mt_arg *m = mt_call_arg(c, F_M);
        int64_t n = mt_call_arg(c, F_N)->i;
        return mt_factory_eye(n, m != NULL ? m->i : n, &opt);
    }
    {
        mt_factory_number start = number(c, F_START, 0), end = number(c, F_END, 0), step = number(c, F_STEP, 1);
        return mt_factory_arange(&start, &end, &step, &opt);
    }
}

const mt_binding mt_binding_range = {range_call, NULL, factory_roles};

/* linspace and logspace (codes: 0, 1). start and end are numbers, or 0-d tensors read as numbers. */
enum {
    S_START,
    S_END,
    S_STEPS,
    S_BASE,
    S_DTYPE,
    S_DEVICE,
    S_REQUIRES_GRAD,
    S_OUT
};

static const char *const space_roles[] = {"start", "end", "steps", "base", "dtype", "device", "requires_grad", "out",
                                          NULL};

/* A start or end given as a tensor: its one value, after torch's check that both tensors given are 0-d. */
static int
space_bound(const mt_call *c, int role, mt_factory_number *n)
{
    PyObject *item;
    int r;

    if (mt_call_is_scalar(c, role)) {
        *n = number(c, role, 0);
        return 0;
    }
    n->imag = 0.0;
    n->is_complex = 0;
    item = mt_tensor_item(mt_call_arg(c, role)->tensor);
    if (item == NULL) {
        return -1;
    }
    r = mt_scalar_from_object(item, &n->value);
    Py_DECREF(item);
    return r < 0 ? -1 : 0;
}

static PyObject *
space_call(const mt_call *c)
{
    const char *fn = c->code ? "logspace" : "linspace";
    int tensor_start = !mt_call_is_scalar(c, S_START), tensor_end = !mt_call_is_scalar(c, S_END);
    const mt_arg *device = mt_call_arg(c, S_DEVICE);
    const mt_arg *base = mt_call_arg(c, S_BASE);
    mt_factory_number start, end;
    mt_factory_options opt;

    if (mt_bind_refuse_out(c, S_OUT) < 0) {
        return NULL;
    }
    if (tensor_start || tensor_end) {
        int start_dim = tensor_start ? mt_call_arg(c, S_START)->tensor->ndim : 0;
        int end_dim = tensor_end ? mt_call_arg(c, S_END)->tensor->ndim : 0;
        if (start_dim != 0 || end_dim != 0) {
            if (tensor_start && tensor_end) {
                PyErr_Format(PyExc_RuntimeError,
                             "%s only supports 0-dimensional start and end tensors, but got start with %d "
                             "dimension(s) and end with %d dimension(s).",
                             fn, start_dim, end_dim);
            }
            else {
                PyErr_Format(PyExc_RuntimeError,
                             "%s only supports 0-dimensional start and end tensors, but got %s with %d dimension(s).",
                             fn, tensor_start ? "start" : "end", tensor_start ? start_dim : end_dim);
            }
            return NULL;
        }
    }
    if (space_bound(c, S_START, &start) < 0 || space_bound(c, S_END, &end) < 0) {
        return NULL;
    }
    opt.dtype = mt_call_arg(c, S_DTYPE)->dtype;
    opt.has_device = device->obj != NULL;
    opt.device = device->device;
    opt.requires_grad = mt_call_arg(c, S_REQUIRES_GRAD)->b;
    opt.memory_format = MT_CONTIGUOUS_FORMAT;
    opt.generator.cpu = NULL;
    opt.generator.cuda = NULL;
    use_default_device(&opt);
    return mt_factory_linspace(&start, &end, mt_call_arg(c, S_STEPS)->i, c->code, base != NULL ? base->d : 10.0,
                               &opt);
}

const mt_binding mt_binding_space = {space_call, NULL, space_roles};

/* rand, randn and their *_like forms (codes: mt_random_kind, with MT_FACTORY_LIKE), randint (MT_RANDOM_INT),
 * randperm (MT_RANDOM_PERM). */
static PyObject *
random_call(const mt_call *c)
{
    const mt_arg *input = mt_call_arg(c, F_INPUT);
    const mt_arg *size = mt_call_arg(c, F_SIZE);
    mt_factory_options opt;

    if (read_options(c, input != NULL ? MT_PRESERVE_FORMAT : MT_CONTIGUOUS_FORMAT, &opt) < 0) {
        return NULL;
    }
    if (input == NULL) {
        use_default_device(&opt);
    }
    if (c->code == MT_RANDOM_PERM) {
        return mt_factory_randperm(mt_call_arg(c, F_N)->i, &opt);
    }
    if (c->code == MT_RANDOM_INT) {
        const mt_arg *low = mt_call_arg(c, F_LOW);
        return mt_factory_randint(low != NULL ? low->i : 0, mt_call_arg(c, F_HIGH)->i, size->nints, size->ints,
                                  &opt);
    }
    if (input != NULL) {
        return mt_factory_random_like((mt_random_kind)(c->code & ~MT_FACTORY_LIKE), input->tensor, &opt);
    }
    return mt_factory_random((mt_random_kind)c->code, size->nints, size->ints, &opt);
}

const mt_binding mt_binding_random = {random_call, NULL, factory_roles};

/* Tensor.fill_, zero_, uniform_, normal_, random_. */
enum {
    FILL_VALUE,
    FILL_A,
    FILL_B,
    FILL_GENERATOR
};

static const char *const fill_roles[] = {"value", "from|mean", "to|std", "generator", NULL};

static PyObject *
fill_call(const mt_call *c)
{
    mt_generator gen;

    if (read_generator(mt_call_arg(c, FILL_GENERATOR), &gen) < 0) {
        return NULL;
    }
    switch (c->code) {
    case MT_FILL_FILL: {
        const mt_arg *value = mt_call_arg(c, FILL_VALUE);
        mt_factory_number n;
        if (!mt_call_is_scalar(c, FILL_VALUE)) {
            return mt_tensor_fill_tensor_(c->self, value->tensor);
        }
        n = number(c, FILL_VALUE, 0);
        return mt_tensor_fill_number_(c->self, &n);
    }
    case MT_FILL_ZERO:
        return mt_tensor_zero_(c->self);
    case MT_FILL_UNIFORM:
        return mt_tensor_uniform_(c->self, mt_call_arg(c, FILL_A)->d, mt_call_arg(c, FILL_B)->d, gen);
    case MT_FILL_RANDOM: {
        const mt_arg *from = mt_call_arg(c, FILL_A), *to = mt_call_arg(c, FILL_B);
        if (from == NULL) {
            /* random_() (no bounds) or random_(to) */
            return mt_tensor_random_(c->self, to != NULL ? 2 : 0, 0, to != NULL, to != NULL ? to->i : 0, gen);
        }
        return mt_tensor_random_(c->self, 1, from->i, to->obj != NULL, to->i, gen);
    }
    default:
        return mt_tensor_normal_(c->self, mt_call_arg(c, FILL_A)->d, mt_call_arg(c, FILL_B)->d, gen);
    }
}

const mt_binding mt_binding_fill = {fill_call, NULL, fill_roles};

/* tensor(data): its pin_memory= is real (pinned host memory where an accelerator exists). Tensor.new_tensor
 * (code 1) takes self's dtype and device unless given. */
enum {
    T_DATA,
    T_DTYPE,
    T_DEVICE,
    T_PIN_MEMORY,
    T_REQUIRES_GRAD
};

static const char *const tensor_roles[] = {"data", "dtype", "device", "pin_memory", "requires_grad", NULL};

static PyObject *
tensor_call(const mt_call *c)
{
    const mt_arg *device = mt_call_arg(c, T_DEVICE);
    PyObject *data = mt_call_arg(c, T_DATA)->obj;

    const mt_arg *pin = mt_call_arg(c, T_PIN_MEMORY);
    mt_dtype dtype = mt_call_arg(c, T_DTYPE)->dtype;

    if (c->code == MT_TENSOR_NEW_TENSOR) {
        return mt_tensor_new(data != NULL ? data : Py_None, dtype != MT_NUM_DTYPES ? dtype : c->self->dtype, 1,
                             device->obj != NULL ? device->device : mt_tensor_device(c->self), 0,
                             mt_call_arg(c, T_REQUIRES_GRAD)->b, 1);
    }
    /* data is required: no object means None was given */
    {
        mt_factory_options opt = {.has_device = device->obj != NULL, .device = device->device};
        use_default_device(&opt);
        return mt_tensor_new(data != NULL ? data : Py_None, dtype, opt.has_device, opt.device,
                             pin != NULL && pin->b, mt_call_arg(c, T_REQUIRES_GRAD)->b, 0);
    }
}

const mt_binding mt_binding_tensor = {tensor_call, NULL, tensor_roles};
