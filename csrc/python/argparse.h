/* argparse.h: the one argument parser of minitorch's Python entry points, driven by torch's own signature
 * strings (torch/csrc/utils/python_arg_parser.cpp). An entry point declares a static parser with its
 * overloads written as torch writes them,
 *
 *     static mt_parser parser = MT_PARSER(
 *         "sum(Tensor input, *, ScalarType? dtype=None)",
 *         "sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)");
 *     mt_parsed p;
 *     if (mt_parse(&parser, args, nargs, kwnames, &p) < 0) {
 *         return NULL;
 *     }
 *     if (p.index == 0) ... p.arg[0].tensor, p.arg[1].ints / p.arg[1].nints, p.arg[2].b ...
 *     mt_parsed_clear(&p);
 *
 * and gets the C values of the overload that matched, or torch's TypeError for the call, word for word
 * (positional and keyword counts, types, the "invalid combination" message with its marks).
 * A Tensor method passes its arguments without self and writes its signatures without self, as torch's
 * python_variable_methods.cpp does. Signature strings are parsed once, at the first call (under the GIL). */
#ifndef MT_ARGPARSE_H
#define MT_ARGPARSE_H

#include <Python.h>
#include <stdint.h>

#include "../core/device.h"
#include "../core/dtype.h"
#include "../core/memory_format.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../ops/convert.h"

#define MT_PARSER_MAX_SIGNATURES 8     /* overloads of one entry point */
#define MT_PARSE_MAX_PARAMS 16         /* parameters of one signature */
#define MT_PARSE_MAX_INT_LISTS 6       /* IntArrayRef parameters of one signature */
#define MT_PARSE_MAX_OWNED 8           /* TensorList parameters and int-list snapshots of one signature */

struct mt_signature;

/* A static object per entry point: its signature strings, then what the first call builds from them. */
typedef struct {
    const char *formats[MT_PARSER_MAX_SIGNATURES + 1];     /* NULL-terminated */
    /* filled at the first parse */
    struct mt_signature *sigs;      /* deprecated signatures last, as torch orders them */
    int nsigs;
    int ready;
} mt_parser;

#define MT_PARSER(...) {.formats = {__VA_ARGS__}}

/* One parameter's value. `obj` is the object given (borrowed from the call), NULL when the argument was
 * omitted or None; the C value is the converted object, or the signature's default when obj is NULL. */
typedef struct {
    PyObject *obj;
    union {
        struct {                            /* Tensor, Scalar (and a number given for a Tensor) */
            mt_TensorObject *tensor;        /* the tensor given; NULL for a number (allow_numbers_as_tensors) */
            mt_scalar scalar;               /* Scalar: its value (a 0-d tensor's item); a number given for a
                                             * Tensor; a complex number: its real part as a float */
            double imag;                    /* a complex number's imaginary part */
            int is_complex;
        };
        int64_t i;                          /* int64_t, SymInt */
        double d;                           /* double */
        int b;                              /* bool: 0 or 1 */
        mt_dtype dtype;                     /* ScalarType: MT_NUM_DTYPES for None */
        mt_device device;                   /* Device: cpu when omitted */
        mt_memory_format memory_format;     /* MemoryFormat: contiguous_format when omitted */
        struct {                            /* IntArrayRef (any length), SymIntArrayRef (at most
                                             * MT_MAX_DIMS: a size makes a shape) */
            const int64_t *ints;
            int nints;
        };
        PyObject *floats;                   /* ArrayRef<double>: a tuple of floats (NULL for None) */
        struct {                            /* TensorList: every item is a Tensor */
            PyObject *const *tensors;
            Py_ssize_t ntensors;
        };
        struct {                            /* c10::string_view: UTF-8, alive while obj is */
            const char *str;
            Py_ssize_t len;
        };
    };
} mt_arg;

/* The result of a parse: which overload matched (its index among the parser's strings as written) and
 * one mt_arg per parameter of that overload. Release with mt_parsed_clear when a TensorList was parsed. */
typedef struct {
    int index;
    int nparams;                    /* of the matched overload: arg[0 .. nparams) are filled */
    mt_arg arg[MT_PARSE_MAX_PARAMS];
    int64_t ints[MT_PARSE_MAX_INT_LISTS][MT_MAX_DIMS];
    PyObject *owned[MT_PARSE_MAX_OWNED];
    int nowned;
    int64_t *heap_ints[MT_PARSE_MAX_INT_LISTS];    /* an IntArrayRef longer than MT_MAX_DIMS */
    int nheap;
} mt_parsed;

/* Parses a METH_FASTCALL | METH_KEYWORDS call. 0 with *out filled, or -1 with torch's exception (a
 * RuntimeError for a malformed signature string: a bug of the caller). */
int mt_parse(mt_parser *parser, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, mt_parsed *out);

/* A call without arguments, when it needs no parse: the values (every default) of the signature such a call
 * matches, a persistent array of *nparams values, with its index in *index. NULL when no signature takes an
 * empty call, or when the one that does is deprecated (it warns), or with an exception when the parser's
 * signatures are malformed: the call must then go through mt_parse. */
const mt_arg *mt_parse_empty(mt_parser *parser, int *index, int *nparams);

/* Drops what a parse took (TensorList snapshots, long dim lists). Safe to call on any parse result. */
static inline void
mt_parsed_clear(mt_parsed *p)
{
    while (p->nowned > 0) {
        p->nowned--;
        Py_CLEAR(p->owned[p->nowned]);
    }
    while (p->nheap > 0) {
        p->nheap--;
        PyMem_Free(p->heap_ints[p->nheap]);
    }
}

/* torch's is_int_or_symint: whether the parser takes obj for an int parameter (an int that is not a bool, a
 * one-element integral tensor, anything with __index__). For a binding that routes an object by its type
 * before parsing it, as torch's Python-level functions do (Tensor.split). */
int mt_arg_is_int(PyObject *obj);

/* PythonArgs::tensorlist_n's TypeError for a tuple of `got` tensors where an op takes n (its outputs):
 * "expected tuple of n elements but got got". Returns -1. */
int mt_arg_tuple_size_error(int n, Py_ssize_t got);

/* Frees what the first parse built (for parsers that are not static). */
void mt_parser_free(mt_parser *parser);

/* minitorch._C._parse_test, for tests/test_argparse.py. */
extern PyMethodDef mt_argparse_functions[];

#endif
