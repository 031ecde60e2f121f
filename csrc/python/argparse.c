/* argparse.c: minitorch's one argument parser, a C port of the algorithm of torch's PythonArgParser
 * (torch/csrc/utils/python_arg_parser.cpp and invalid_arguments.cpp). It owns the reading of torch's
 * signature strings, the matching of a call against each overload (FunctionSignature::parse: positional
 * and keyword arguments, NumPy's keyword aliases, `int[]` varargs, None for optional parameters, the
 * acceptance rule of every parameter type), the conversion of the matched arguments to C values, and
 * every message of torch's parser, in torch's words and in torch's order, including print_error's
 * message for no matching overload, with its marks and the order in which torch's
 * std::unordered_map lists keyword arguments. It must not know any op: what an argument means, and any
 * check beyond its type, belongs to the op (csrc/ops). Values are converted with the value types' own
 * helpers (core/scalar, dtype, device, memory_format, mt_tensor_item); this file adds no second copy.
 *
 * Two deliberate departures, both about text torch builds from its C++ build: an int too large in an int
 * list reports "Overflow when unpacking long long" without the C++ stack trace torch appends, and the
 * deprecation warning omits torch's "(Triggered internally at ...)" source location. */
#include "argparse.h"

#include "../core/layout.h"
#include "../core/warn.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <io.h>
#define isatty _isatty
#else
#include <unistd.h>
#endif

/* ---- a growable UTF-8 buffer for messages --------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t len;
    size_t cap;
    int failed;
} strbuf;

static void
sb_append(strbuf *sb, const char *s, size_t n)
{
    if (sb->failed) {
        return;
    }
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 256;
        char *grown;
        while (sb->len + n + 1 > cap) {
            cap *= 2;
        }
        grown = PyMem_RawRealloc(sb->buf, cap);
        if (grown == NULL) {
            sb->failed = 1;
            return;
        }
        sb->buf = grown;
        sb->cap = cap;
    }
    memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

static void
sb_puts(strbuf *sb, const char *s)
{
    sb_append(sb, s, strlen(s));
}

static void
sb_printf(strbuf *sb, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        sb->failed = 1;
    }
    else if ((size_t)n < sizeof small) {
        sb_append(sb, small, (size_t)n);
    }
    else {
        char *big = PyMem_RawMalloc((size_t)n + 1);
        if (big == NULL) {
            sb->failed = 1;
            return;
        }
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        sb_append(sb, big, (size_t)n);
        PyMem_RawFree(big);
    }
}

/* Drops the last n bytes (torch's result.erase(result.length() - 2)). */
static void
sb_unput(strbuf *sb, size_t n)
{
    if (!sb->failed && sb->len >= n) {
        sb->len -= n;
        sb->buf[sb->len] = '\0';
    }
}

/* Raises `type` with the buffer's text and frees it. Returns -1. */
static int
sb_raise(strbuf *sb, PyObject *type)
{
    if (sb->failed) {
        PyErr_NoMemory();
    }
    else {
        PyErr_SetString(type, sb->buf != NULL ? sb->buf : "");
    }
    PyMem_RawFree(sb->buf);
    sb->buf = NULL;
    return -1;
}

static char *
dup_n(const char *s, size_t n)
{
    char *d = PyMem_RawMalloc(n + 1);
    if (d != NULL) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* ---- signatures ----------------------------------------------------------------------------------- */

typedef enum {
    P_TENSOR,
    P_SCALAR,
    P_INT64,
    P_SYMINT,
    P_DOUBLE,
    P_BOOL,
    P_INT_LIST,
    P_SYMINT_LIST,
    P_DOUBLE_LIST,
    P_TENSOR_LIST,
    P_SCALARTYPE,
    P_LAYOUT,
    P_MEMORY_FORMAT,
    P_DEVICE,
    P_GENERATOR,
    P_STORAGE,
    P_STRING,
    P_PYOBJECT,
} param_type;

/* torch's type_map, plus the short names minitorch's own signatures may use (int, float, str). */
static const struct {
    const char *name;
    param_type type;
} type_table[] = {
    {"Tensor", P_TENSOR},
    {"Scalar", P_SCALAR},
    {"int64_t", P_INT64},
    {"int", P_INT64},
    {"DeviceIndex", P_INT64},
    {"SymInt", P_SYMINT},
    {"double", P_DOUBLE},
    {"float", P_DOUBLE},
    {"bool", P_BOOL},
    {"IntArrayRef", P_INT_LIST},
    {"SymIntArrayRef", P_SYMINT_LIST},
    {"ArrayRef<double>", P_DOUBLE_LIST},
    {"TensorList", P_TENSOR_LIST},
    {"ScalarType", P_SCALARTYPE},
    {"Layout", P_LAYOUT},
    {"MemoryFormat", P_MEMORY_FORMAT},
    {"Device", P_DEVICE},
    {"Generator", P_GENERATOR},
    {"Storage", P_STORAGE},
    {"c10::string_view", P_STRING},
    {"std::string_view", P_STRING},
    {"::std::string_view", P_STRING},
    {"std::string", P_STRING},
    {"str", P_STRING},
    {"PyObject*", P_PYOBJECT},
};

/* FunctionParameter::type_name: how messages name each type. */
static const char *
type_name(param_type t)
{
    switch (t) {
    case P_TENSOR:
        return "Tensor";
    case P_SCALAR:
        return "Number";
    case P_INT64:
    case P_SYMINT:
        return "int";
    case P_DOUBLE:
        return "float";
    case P_TENSOR_LIST:
        return "tuple of Tensors";
    case P_INT_LIST:
    case P_SYMINT_LIST:
        return "tuple of ints";
    case P_DOUBLE_LIST:
        return "tuple of floats";
    case P_GENERATOR:
        return "torch.Generator";
    case P_STORAGE:
        return "torch.Storage";
    case P_BOOL:
        return "bool";
    case P_PYOBJECT:
        return "object";
    case P_SCALARTYPE:
        return "torch.dtype";
    case P_LAYOUT:
        return "torch.layout";
    case P_MEMORY_FORMAT:
        return "torch.memory_format";
    case P_DEVICE:
        return "torch.device";
    case P_STRING:
        return "str";
    }
    return "?";
}

typedef struct {
    param_type type;
    int optional;                   /* has a default: may be omitted */
    int allow_none;                 /* None means omitted */
    int keyword_only;
    int allow_numbers_as_tensors;
    int size;                       /* N of IntArrayRef[N] */
    int list_slot;                  /* IntArrayRef: which row of mt_parsed.ints it fills */
    char *name;
    char *default_text;             /* as written, for messages; NULL without a default */
    PyObject *py_name;              /* interned */
    PyObject *numpy_names[3];       /* interned NumPy aliases */
    int n_numpy_names;
    mt_scalar default_scalar;
    int64_t default_int;
    double default_double;
    int default_bool;
    mt_dtype default_dtype;
    int64_t *default_ints;
    int n_default_ints;
    char *default_string;
    Py_ssize_t default_string_len;
    mt_arg default_arg;             /* what an omitted argument converts to (obj NULL) */
} param;

struct mt_signature {
    char *name;
    param *params;
    int nparams;
    int min_args;
    int max_args;
    int max_pos_args;
    int index;                      /* position among the strings as written */
    int hidden;
    int deprecated;
    char *text;                     /* toString(): "(Tensor input, *, Number alpha = 1)" */
    /* `text` read back as invalid_arguments.cpp reads it (_parseOption): a "type name" pair per ", "
     * piece, so "*" and "Number alpha = 1" are arguments too, named "*" and "1". */
    int nopt;
    char **opt_type;
    char **opt_name;
    mt_arg *defaults;               /* every parameter omitted: what a call without arguments converts to */
    int optional_from;              /* the parameters from this one on are all optional */
};

/* torch's should_allow_numbers_as_tensors */
static int
allows_numbers_as_tensors(const char *name)
{
    static const char *const names[] = {
        "add", "add_", "add_out", "div", "div_", "div_out", "divide", "divide_", "divide_out",
        "mul", "mul_", "mul_out", "multiply", "multiply_", "multiply_out", "sub", "sub_", "sub_out",
        "subtract", "subtract_", "subtract_out", "true_divide", "true_divide_", "true_divide_out",
        "to", "_to_copy", "copy_", "copy", "floor_divide", "floor_divide_", "floor_divide_out", "_conj",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

static int
signature_error(const char *what, const char *detail)
{
    PyErr_Format(PyExc_RuntimeError, "%s%s", what, detail);
    return -1;
}

/* parse_string_literal: a quoted default with C escapes. */
static int
parse_string_default(param *p, const char *s)
{
    size_t n = strlen(s);
    char *out;
    size_t k = 0;

    if (n < 2) {
        return signature_error("String defaults must be quoted", "");
    }
    if (s[0] == '"' ? s[n - 1] != '"' : (s[0] != '\'' || s[n - 1] != '\'')) {
        return signature_error(s[0] == '"' ? "Mismatched quotes in string default: " :
                                             "Invalid quotes in string default: ", s);
    }
    out = PyMem_RawMalloc(n);
    if (out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 1; i < n - 1;) {
        char c = s[i];
        if (c != '\\') {
            out[k++] = c;
            i++;
            continue;
        }
        if (i >= n - 2) {
            PyMem_RawFree(out);
            return signature_error("String ends with escaped final quote: ", s);
        }
        switch (s[i + 1]) {
        case '\\':
        case '\'':
        case '"':
            c = s[i + 1];
            break;
        case 'a':
            c = '\a';
            break;
        case 'b':
            c = '\b';
            break;
        case 'f':
            c = '\f';
            break;
        case 'n':
            c = '\n';
            break;
        case 'v':
            c = '\v';
            break;
        case 't':
            c = '\t';
            break;
        default:
            PyMem_RawFree(out);
            return signature_error("Unsupported escape sequence in string default: ", s);
        }
        out[k++] = c;
        i += 2;
    }
    out[k] = '\0';
    p->default_string = out;
    p->default_string_len = (Py_ssize_t)k;
    return 0;
}

/* parse_intlist_args: "2" (repeated `size` times) or "{1,2,3}". */
static int
parse_int_list_default(param *p, const char *s)
{
    int64_t vals[MT_MAX_DIMS];
    int n = 0;

    if (s[0] != '{') {
        if (p->size <= 0) {
            PyErr_Format(PyExc_RuntimeError, "Incorrect size of IntArrayRef: %d", p->size);
            return -1;
        }
        for (; n < p->size && n < MT_MAX_DIMS; n++) {
            vals[n] = strtoll(s, NULL, 10);
        }
    }
    else {
        const char *q = s + 1;
        size_t len = strlen(s);
        if (s[len - 1] != '}') {
            PyErr_Format(PyExc_RuntimeError, "Default value of IntArrayRef is missing right brace '}', found %c",
                         s[len - 1]);
            return -1;
        }
        while (*q != '}' && n < MT_MAX_DIMS) {
            char *end;
            vals[n++] = strtoll(q, &end, 10);
            q = *end == ',' ? end + 1 : end;
            if (end == q && *q != '}') {
                return signature_error("malformed IntArrayRef default: ", s);
            }
        }
    }
    p->default_ints = PyMem_RawMalloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (p->default_ints == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(p->default_ints, vals, sizeof(int64_t) * (size_t)n);
    p->n_default_ints = n;
    return 0;
}

/* FunctionParameter::set_default_str */
static int
set_default(param *p, const char *s)
{
    int none = strcmp(s, "None") == 0;

    if (none) {
        p->allow_none = 1;
    }
    switch (p->type) {
    case P_TENSOR:
        if (!none) {
            return signature_error("default value for Tensor must be none, got: ", s);
        }
        break;
    case P_INT64:
    case P_SYMINT:
        p->default_int = strtoll(s, NULL, 10);
        break;
    case P_BOOL:
        p->default_bool = strcmp(s, "True") == 0 || strcmp(s, "true") == 0;
        break;
    case P_DOUBLE:
        p->default_double = atof(s);
        break;
    case P_SCALAR:
        if (!none) {
            /* an integer stays an integer (arange relies on it) */
            char *end;
            long long v = strtoll(s, &end, 0);
            p->default_scalar.is_uint64 = 0;
            if (*s != '\0' && *end == '\0') {
                p->default_scalar.kind = MT_INT64;
                p->default_scalar.v.i = v;
            }
            else {
                p->default_scalar.kind = MT_FLOAT64;
                p->default_scalar.v.d = atof(s);
            }
        }
        break;
    case P_INT_LIST:
    case P_SYMINT_LIST:
        if (!none) {
            return parse_int_list_default(p, s);
        }
        break;
    case P_SCALARTYPE:
        if (none) {
            p->default_dtype = MT_NUM_DTYPES;
        }
        else if (strcmp(s, "torch.int64") == 0) {
            p->default_dtype = MT_INT64;
        }
        else {
            return signature_error("invalid default value for ScalarType: ", s);
        }
        break;
    case P_LAYOUT:
        if (!none && strcmp(s, "torch.strided") != 0 && strcmp(s, "torch.sparse_coo") != 0) {
            return signature_error("invalid default value for layout: ", s);
        }
        break;
    case P_DEVICE:
        if (!none) {
            return signature_error("invalid device: ", s);
        }
        break;
    case P_STRING:
        if (!none) {
            return parse_string_default(p, s);
        }
        break;
    default:
        /* torch ignores the defaults of the other types */
        break;
    }
    return 0;
}

static int
intern_name(const char *name, PyObject **out)
{
    *out = PyUnicode_InternFromString(name);
    return *out == NULL ? -1 : 0;
}

int
mt_arg_tuple_size_error(int n, Py_ssize_t got)
{
    PyErr_Format(PyExc_TypeError, "expected tuple of %d elements but got %zd", n, got);
    return -1;
}

/* FunctionParameter's constructor: "Type[N]? name=default". */
static int
param_init(param *p, const char *fmt, size_t len, int keyword_only, int numbers_as_tensors)
{
    static const struct {
        const char *name;
        const char *aliases[3];
    } numpy_names[] = {
        {"dim", {"axis"}},
        {"keepdim", {"keepdims"}},
        {"input", {"x", "a", "x1"}},
        {"other", {"x2"}},
    };
    const char *space = memchr(fmt, ' ', len);
    char type_str[64];
    size_t type_len;
    char *q;
    char *eq;
    size_t t;

    memset(p, 0, sizeof *p);
    p->keyword_only = keyword_only;
    p->allow_numbers_as_tensors = numbers_as_tensors;
    p->default_dtype = MT_NUM_DTYPES;
    p->list_slot = -1;
    if (space == NULL) {
        char *s = dup_n(fmt, len);
        PyErr_Format(PyExc_RuntimeError, "FunctionParameter(): missing type: %s", s != NULL ? s : "");
        PyMem_RawFree(s);
        return -1;
    }
    type_len = (size_t)(space - fmt);
    if (type_len >= sizeof type_str) {
        return signature_error("FunctionParameter(): invalid type string: ", "(too long)");
    }
    memcpy(type_str, fmt, type_len);
    type_str[type_len] = '\0';
    if ((q = strchr(type_str, '?')) != NULL) {
        p->allow_none = 1;
        *q = '\0';
    }
    if ((q = strchr(type_str, '[')) != NULL) {
        p->size = atoi(q + 1);
        *q = '\0';
    }
    for (t = 0; t < sizeof type_table / sizeof type_table[0]; t++) {
        if (strcmp(type_str, type_table[t].name) == 0) {
            break;
        }
    }
    if (t == sizeof type_table / sizeof type_table[0]) {
        return signature_error("FunctionParameter(): invalid type string: ", type_str);
    }
    p->type = type_table[t].type;
    p->name = dup_n(space + 1, len - type_len - 1);
    if (p->name == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if ((eq = strchr(p->name, '=')) != NULL) {
        *eq = '\0';
        p->optional = 1;
        p->default_text = dup_n(eq + 1, strlen(eq + 1));
        if (p->default_text == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        if (set_default(p, p->default_text) < 0) {
            return -1;
        }
    }
    if (intern_name(p->name, &p->py_name) < 0) {
        return -1;
    }
    for (size_t k = 0; k < sizeof numpy_names / sizeof numpy_names[0]; k++) {
        if (strcmp(p->name, numpy_names[k].name) == 0) {
            for (int a = 0; a < 3 && numpy_names[k].aliases[a] != NULL; a++) {
                if (intern_name(numpy_names[k].aliases[a], &p->numpy_names[a]) < 0) {
                    return -1;
                }
                p->n_numpy_names++;
            }
        }
    }
    return 0;
}

static void
param_free(param *p)
{
    PyMem_RawFree(p->name);
    PyMem_RawFree(p->default_text);
    PyMem_RawFree(p->default_ints);
    PyMem_RawFree(p->default_string);
    Py_XDECREF(p->py_name);
    for (int a = 0; a < p->n_numpy_names; a++) {
        Py_XDECREF(p->numpy_names[a]);
    }
}

static void
signature_free(struct mt_signature *s)
{
    for (int i = 0; i < s->nparams; i++) {
        param_free(&s->params[i]);
    }
    PyMem_RawFree(s->params);
    for (int i = 0; i < s->nopt; i++) {
        PyMem_RawFree(s->opt_type[i]);
        PyMem_RawFree(s->opt_name[i]);
    }
    PyMem_RawFree(s->opt_type);
    PyMem_RawFree(s->opt_name);
    PyMem_RawFree(s->name);
    PyMem_RawFree(s->text);
    PyMem_RawFree(s->defaults);
    memset(s, 0, sizeof *s);
}

/* FunctionSignature::toString, and that text split back into _parseOption's arguments. */
static int
signature_build_text(struct mt_signature *s)
{
    strbuf sb = {0};
    int keyword_already = 0;
    const char *inner;
    size_t inner_len;
    int n = 1;

    sb_puts(&sb, "(");
    for (int i = 0; i < s->nparams; i++) {
        const param *p = &s->params[i];
        if (i != 0) {
            sb_puts(&sb, ", ");
        }
        if (p->keyword_only && !keyword_already) {
            sb_puts(&sb, "*, ");
            keyword_already = 1;
        }
        sb_printf(&sb, "%s %s", type_name(p->type), p->name);
        if (p->optional) {
            sb_printf(&sb, " = %s", p->default_text);
        }
    }
    sb_puts(&sb, ")");
    if (sb.failed) {
        PyMem_RawFree(sb.buf);
        PyErr_NoMemory();
        return -1;
    }
    s->text = sb.buf;

    inner = s->text + 1;
    inner_len = strlen(s->text) - 2;
    for (size_t k = 0; k + 1 < inner_len; k++) {
        n += inner[k] == ',' && inner[k + 1] == ' ';
    }
    s->opt_type = PyMem_RawCalloc((size_t)n, sizeof(char *));
    s->opt_name = PyMem_RawCalloc((size_t)n, sizeof(char *));
    if (s->opt_type == NULL || s->opt_name == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t start = 0; s->nopt < n;) {
        const char *piece = inner + start;
        const char *sep = NULL;
        size_t len;
        const char *last_space = NULL;
        for (size_t k = start; k + 1 < inner_len; k++) {
            if (inner[k] == ',' && inner[k + 1] == ' ') {
                sep = inner + k;
                break;
            }
        }
        len = sep != NULL ? (size_t)(sep - piece) : inner_len - start;
        for (size_t k = 0; k < len; k++) {
            if (piece[k] == ' ') {
                last_space = piece + k;
            }
        }
        if (last_space == NULL) {
            /* "*" (or an empty parameter list): type and name are the whole piece */
            s->opt_type[s->nopt] = dup_n(piece, len);
            s->opt_name[s->nopt] = dup_n(piece, len);
        }
        else {
            s->opt_type[s->nopt] = dup_n(piece, (size_t)(last_space - piece));
            s->opt_name[s->nopt] = dup_n(last_space + 1, len - (size_t)(last_space - piece) - 1);
        }
        s->nopt++;
        if (s->opt_type[s->nopt - 1] == NULL || s->opt_name[s->nopt - 1] == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        start += len + 2;
    }
    return 0;
}

static void convert_default(const param *p, mt_arg *a);

/* FunctionSignature's constructor. */
static int
signature_init(struct mt_signature *s, const char *fmt, int index)
{
    const char *open = strchr(fmt, '(');
    size_t fmt_len = strlen(fmt);
    size_t last = 0;
    int keyword_only = 0;
    int numbers_as_tensors;
    int nlists = 0, nowned = 0;
    int cap;

    memset(s, 0, sizeof *s);
    s->index = index;
    if (open == NULL) {
        return signature_error("missing opening parenthesis: ", fmt);
    }
    s->name = dup_n(fmt, (size_t)(open - fmt));
    if (s->name == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    numbers_as_tensors = allows_numbers_as_tensors(s->name);
    cap = 1;
    for (const char *c = fmt; *c; c++) {
        cap += *c == ',';
    }
    s->params = PyMem_RawCalloc((size_t)cap, sizeof(param));
    if (s->params == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    last = (size_t)(open - fmt) + 1;
    for (int done = 0; !done;) {
        const char *comma = strstr(fmt + last, ", ");
        size_t offset, next;
        if (comma != NULL) {
            offset = (size_t)(comma - fmt);
            next = offset + 2;
        }
        else {
            const char *close = strchr(fmt + last, ')');
            done = 1;
            if (close == NULL) {
                return signature_error("missing closing parenthesis: ", fmt);
            }
            offset = (size_t)(close - fmt);
            next = offset + 1;
            if (offset == last) {
                /* f(): no parameters */
                last = next;
                break;
            }
        }
        if (offset == last) {
            return signature_error("malformed signature: ", fmt);
        }
        if (offset - last == 1 && fmt[last] == '*') {
            keyword_only = 1;
        }
        else {
            if (s->nparams == MT_PARSE_MAX_PARAMS) {
                return signature_error("too many parameters for minitorch's parser (raise MT_PARSE_MAX_PARAMS): ", fmt);
            }
            if (param_init(&s->params[s->nparams], fmt + last, offset - last, keyword_only, numbers_as_tensors) < 0) {
                s->nparams++;
                return -1;
            }
            s->nparams++;
        }
        last = next;
    }
    if (last <= fmt_len && strcmp(fmt + last, "|deprecated") == 0) {
        s->hidden = 1;
        s->deprecated = 1;
    }
    else if (last <= fmt_len && strcmp(fmt + last, "|hidden") == 0) {
        s->hidden = 1;
    }
    s->max_args = s->nparams;
    for (int i = 0; i < s->nparams; i++) {
        param *p = &s->params[i];
        s->min_args += !p->optional;
        s->max_pos_args += !p->keyword_only;
        if (p->type == P_INT_LIST || p->type == P_SYMINT_LIST) {
            p->list_slot = nlists++;
        }
        nowned += p->type == P_TENSOR_LIST || p->type == P_DOUBLE_LIST;
        convert_default(p, &p->default_arg);
    }
    if (nlists > MT_PARSE_MAX_INT_LISTS || nowned > MT_PARSE_MAX_OWNED - MT_PARSE_MAX_INT_LISTS) {
        return signature_error("too many list parameters for minitorch's parser: ", fmt);
    }
    s->defaults = PyMem_RawCalloc((size_t)(s->nparams > 0 ? s->nparams : 1), sizeof(mt_arg));
    if (s->defaults == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->optional_from = s->nparams;
    for (int i = 0; i < s->nparams; i++) {
        s->defaults[i] = s->params[i].default_arg;
    }
    while (s->optional_from > 0 && s->params[s->optional_from - 1].optional) {
        s->optional_from--;
    }
    return signature_build_text(s);
}

void
mt_parser_free(mt_parser *parser)
{
    for (int i = 0; i < parser->nsigs; i++) {
        signature_free(&parser->sigs[i]);
    }
    PyMem_RawFree(parser->sigs);
    parser->sigs = NULL;
    parser->nsigs = 0;
    parser->ready = 0;
}

/* PythonArgParser's constructor: every signature, deprecated ones moved last (a stable partition). */
static int
parser_init(mt_parser *parser)
{
    struct mt_signature *sigs;
    int n = 0, k = 0;

    while (n < MT_PARSER_MAX_SIGNATURES && parser->formats[n] != NULL) {
        n++;
    }
    sigs = PyMem_RawCalloc((size_t)(n > 0 ? n : 1), sizeof *sigs);
    if (sigs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (signature_init(&sigs[i], parser->formats[i], i) < 0) {
            for (int j = 0; j <= i; j++) {
                signature_free(&sigs[j]);
            }
            PyMem_RawFree(sigs);
            return -1;
        }
    }
    parser->sigs = PyMem_RawCalloc((size_t)(n > 0 ? n : 1), sizeof *sigs);
    if (parser->sigs == NULL) {
        for (int j = 0; j < n; j++) {
            signature_free(&sigs[j]);
        }
        PyMem_RawFree(sigs);
        PyErr_NoMemory();
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            if (sigs[i].deprecated == pass) {
                parser->sigs[k++] = sigs[i];
            }
        }
    }
    PyMem_RawFree(sigs);
    parser->nsigs = n;
    parser->ready = 1;
    return 0;
}

/* ---- what each type accepts (FunctionParameter::check) -------------------------------------------- */

static int
name_starts(const char *name, const char *prefix)
{
    return strncmp(name, prefix, strlen(prefix)) == 0;
}

/* NumPy scalars, recognised by type name: numpy is never imported here. */
static int
in_numpy(PyObject *obj)
{
    const char *n = Py_TYPE(obj)->tp_name;
    return n[0] == 'n' && strncmp(n, "numpy.", 6) == 0;
}

static int
is_numpy_bool(PyObject *obj)
{
    const char *n = Py_TYPE(obj)->tp_name;
    return in_numpy(obj) && (strcmp(n, "numpy.bool") == 0 || strcmp(n, "numpy.bool_") == 0);
}

static int
is_numpy_int(PyObject *obj)
{
    static const char *const names[] = {"numpy.longlong", "numpy.ulonglong", "numpy.byte", "numpy.ubyte",
                                        "numpy.short", "numpy.ushort"};
    const char *n = Py_TYPE(obj)->tp_name;
    int named = 0;

    if (!in_numpy(obj) || Py_TYPE(obj)->tp_as_number == NULL || Py_TYPE(obj)->tp_as_number->nb_index == NULL) {
        return 0;
    }
    named = name_starts(n, "numpy.int") || name_starts(n, "numpy.uint");
    for (size_t i = 0; !named && i < sizeof names / sizeof names[0]; i++) {
        named = strcmp(n, names[i]) == 0;
    }
    return named;
}

static int
is_numpy_inexact(PyObject *obj)
{
    static const char *const names[] = {"numpy.longdouble", "numpy.clongdouble", "numpy.half", "numpy.single",
                                        "numpy.double", "numpy.csingle", "numpy.cdouble"};
    const char *n = Py_TYPE(obj)->tp_name;
    int named = 0;

    if (!in_numpy(obj)) {
        return 0;
    }
    named = name_starts(n, "numpy.float") || name_starts(n, "numpy.complex");
    for (size_t i = 0; !named && i < sizeof names / sizeof names[0]; i++) {
        named = strcmp(n, names[i]) == 0;
    }
    return named;
}

static int
is_numpy_scalar(PyObject *obj)
{
    return in_numpy(obj) && (is_numpy_int(obj) || is_numpy_bool(obj) || is_numpy_inexact(obj));
}

/* THPUtils_checkLong: an int that is not a bool, or a NumPy integer. */
static int
check_long(PyObject *obj)
{
    if (PyLong_CheckExact(obj)) {
        return 1;
    }
    return (PyLong_Check(obj) && !PyBool_Check(obj)) || is_numpy_int(obj);
}

/* THPUtils_checkDouble: a float, an int (bools included) or a NumPy scalar. */
static int
check_double(PyObject *obj)
{
    return PyFloat_Check(obj) || PyLong_Check(obj) || is_numpy_scalar(obj);
}

/* THPUtils_checkScalar */
static int
check_scalar(PyObject *obj)
{
    return PyFloat_Check(obj) || PyLong_Check(obj) || PyComplex_Check(obj) || is_numpy_scalar(obj);
}

/* THPUtils_checkIndex: not a bool, and __index__ works (it is called, its error dropped). */
static int
check_index(PyObject *obj)
{
    PyObject *index;

    if (PyBool_Check(obj)) {
        return 0;
    }
    if (check_long(obj)) {
        return 1;
    }
    index = PyNumber_Index(obj);
    if (index == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(index);
    return 1;
}

/* The item arrays of a tuple and of a list (PyTuple_GET_ITEM is not addressable in every CPython). */
static PyObject *const *
tuple_items(PyObject *tuple)
{
    return ((PyTupleObject *)tuple)->ob_item;
}

static PyObject *const *
list_items(PyObject *list)
{
    return ((PyListObject *)list)->ob_item;
}

static int
tensor_is_integral(const mt_TensorObject *t, int include_bool)
{
    return mt_dtype_is_integral(t->dtype, include_bool);
}

/* is_int_or_symint: an int, a one-element integral (or bool) tensor, or anything with __index__. */
static int
is_int_or_symint(PyObject *obj)
{
    if (check_long(obj)) {
        return 1;
    }
    if (mt_Tensor_Check(obj)) {
        mt_TensorObject *t = (mt_TensorObject *)obj;
        if (mt_tensor_numel(t) == 1 && tensor_is_integral(t, 1)) {
            return 1;
        }
    }
    return check_index(obj);
}

int
mt_arg_is_int(PyObject *obj)
{
    return is_int_or_symint(obj);
}

/* is_int_or_symint_list over n items: empty, or a first item that is an int (the rest are checked when
 * converted). `single` is the object itself when it is not a tuple or list. */
static int
items_are_int_list(PyObject *const *items, Py_ssize_t n, int64_t *failed_idx)
{
    int ok;

    if (n == 0) {
        return 1;
    }
    /* the check may run __index__, which may drop the list's last reference to the item */
    Py_INCREF(items[0]);
    ok = is_int_or_symint(items[0]);
    Py_DECREF(items[0]);
    if (!ok && failed_idx != NULL) {
        *failed_idx = 0;
    }
    return ok;
}

static int
is_int_list(PyObject *obj, int broadcast_size, int64_t *failed_idx)
{
    if (PyTuple_Check(obj)) {
        return items_are_int_list(tuple_items(obj), PyTuple_GET_SIZE(obj), failed_idx);
    }
    if (PyList_Check(obj)) {
        return items_are_int_list(list_items(obj), PyList_GET_SIZE(obj), failed_idx);
    }
    return broadcast_size > 0 && is_int_or_symint(obj);
}

/* Whether obj is an instance of the Python class module.name, or of one of the tuple of classes there,
 * looked up once into *cache (a tuple); no Python code runs for the check. */
static int
is_instance_of_attr(PyObject *obj, const char *module_name, const char *name, PyObject **cache)
{
    if (*cache == NULL) {
        PyObject *module = PyImport_ImportModule(module_name);
        if (module != NULL) {
            *cache = PyObject_GetAttrString(module, name);
            Py_DECREF(module);
        }
        if (*cache != NULL && PyType_Check(*cache)) {
            Py_SETREF(*cache, PyTuple_Pack(1, *cache));
        }
        if (*cache == NULL || !PyTuple_Check(*cache)) {
            Py_CLEAR(*cache);
            PyErr_Clear();
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(*cache); i++) {
        PyObject *t = PyTuple_GET_ITEM(*cache, i);
        if (PyType_Check(t) && PyObject_TypeCheck(obj, (PyTypeObject *)t)) {
            return 1;
        }
    }
    return 0;
}

/* minitorch.Generator (a Python class). */
static int
is_generator(PyObject *obj)
{
    static PyObject *generator_types;
    return is_instance_of_attr(obj, "minitorch", "Generator", &generator_types);
}

/* torch's isStorage: a minitorch.UntypedStorage or TypedStorage (Python classes). */
static int
is_storage(PyObject *obj)
{
    static PyObject *storage_types;
    return is_instance_of_attr(obj, "minitorch.storage", "_STORAGE_TYPES", &storage_types);
}

static int
tensor_list_error(PyObject *item, Py_ssize_t idx, int argnum)
{
    PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument %d, but got %s", idx, argnum,
                 Py_TYPE(item)->tp_name);
    return -1;
}

/* FunctionParameter::check: 1 accepted, 0 not, -1 with an exception (a TensorList with a non-Tensor
 * item raises even while overloads are being tried, as torch's does). */
static int
param_check(const param *p, PyObject *obj, int argnum, int64_t *failed_idx)
{
    switch (p->type) {
    case P_TENSOR:
        if (mt_Tensor_Check(obj)) {
            return 1;
        }
        return p->allow_numbers_as_tensors && check_scalar(obj);
    case P_SCALAR:
        if (check_scalar(obj)) {
            return 1;
        }
        /* fall through: Scalar also takes what double takes */
    case P_DOUBLE:
        if (check_double(obj)) {
            return 1;
        }
        if (mt_Tensor_Check(obj)) {
            mt_TensorObject *t = (mt_TensorObject *)obj;
            return !t->requires_grad && t->ndim == 0;
        }
        return 0;
    case P_INT64:
        if (check_long(obj)) {
            return 1;
        }
        if (mt_Tensor_Check(obj)) {
            mt_TensorObject *t = (mt_TensorObject *)obj;
            return tensor_is_integral(t, 0) && !t->requires_grad && t->ndim == 0;
        }
        return 0;
    case P_SYMINT:
        return is_int_or_symint(obj);
    case P_BOOL:
        return PyBool_Check(obj);
    case P_INT_LIST:
    case P_SYMINT_LIST:
        return is_int_list(obj, p->size, failed_idx);
    case P_DOUBLE_LIST:
        /* is_float_or_complex_list: a tuple or list whose first item (if any) is a number */
        if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
            return 0;
        }
        return PySequence_Fast_GET_SIZE(obj) == 0 || check_double(PySequence_Fast_GET_ITEM(obj, 0)) ||
               PyComplex_Check(PySequence_Fast_GET_ITEM(obj, 0));
    case P_TENSOR_LIST: {
        Py_ssize_t n;
        if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
            return 0;
        }
        n = PySequence_Fast_GET_SIZE(obj);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(obj, i);
            if (!mt_Tensor_Check(item)) {
                return tensor_list_error(item, i, argnum);
            }
        }
        return 1;
    }
    case P_SCALARTYPE:
        return mt_Dtype_Check(obj) || obj == (PyObject *)&PyFloat_Type || obj == (PyObject *)&PyBool_Type ||
               obj == (PyObject *)&PyLong_Type || obj == (PyObject *)&PyComplex_Type;
    case P_LAYOUT:
        return PyObject_TypeCheck(obj, &mt_LayoutType);
    case P_MEMORY_FORMAT:
        return PyObject_TypeCheck(obj, &mt_MemoryFormatType);
    case P_DEVICE:
        return check_long(obj) || PyUnicode_Check(obj) || mt_Device_Check(obj);
    case P_GENERATOR:
        return is_generator(obj);
    case P_STORAGE:
        return is_storage(obj);
    case P_STRING:
        return PyUnicode_Check(obj);
    case P_PYOBJECT:
        return 1;
    }
    return 0;
}

/* ---- torch's parser messages ---------------------------------------------------------------------- */

static int
raise_extra_args(const struct mt_signature *s, Py_ssize_t nargs)
{
    if (s->min_args != s->max_pos_args) {
        PyErr_Format(PyExc_TypeError, "%s() takes from %d to %d positional arguments but %zd were given", s->name,
                     s->min_args, s->max_pos_args, nargs);
    }
    else {
        PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument%s but %zd %s given", s->name,
                     s->max_pos_args, s->max_pos_args == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
    }
    return -1;
}

/* "missing 1 required positional arguments": torch's plural is the other way round. */
static int
raise_missing_args(const struct mt_signature *s, int idx)
{
    strbuf sb = {0};
    int missing = 0;

    for (int i = idx; i < s->nparams; i++) {
        missing += !s->params[i].optional;
    }
    sb_printf(&sb, "%s() missing %d required positional argument%s: ", s->name, missing, missing == 1 ? "s" : "");
    missing = 0;
    for (int i = idx; i < s->nparams; i++) {
        if (!s->params[i].optional) {
            sb_printf(&sb, "%s\"%s\"", missing++ > 0 ? ", " : "", s->params[i].name);
        }
    }
    return sb_raise(&sb, PyExc_TypeError);
}

static int
key_equals(PyObject *key, PyObject *name)
{
    return key == name || PyUnicode_Compare(key, name) == 0;
}

/* extra_kwargs: the first keyword (in the order given) that names no parameter, or one given twice. */
static int
raise_extra_kwargs(const struct mt_signature *s, PyObject *kwnames, Py_ssize_t nargs)
{
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);

    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int i = 0; i < s->nparams; i++) {
            if (key_equals(key, s->params[i].py_name)) {
                found = i;
                break;
            }
        }
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", s->name, key);
            return -1;
        }
        if (found < nargs) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'", s->name, key);
            return -1;
        }
    }
    PyErr_SetString(PyExc_TypeError, "invalid keyword arguments");
    return -1;
}

/* `obj` is the argument as given; `items` what was checked (a list's snapshot, else obj itself). */
static int
raise_type_error(const struct mt_signature *s, const param *p, PyObject *obj, PyObject *items, int is_kwd,
                 Py_ssize_t arg_pos, int64_t failed_idx, PyObject *const *args, Py_ssize_t nargs)
{
    if (is_kwd) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be %s, not %s", s->name, p->name,
                     type_name(p->type), Py_TYPE(obj)->tp_name);
    }
    else if (failed_idx != -1) {
        /* the first item of a list (or of the varargs) is not an int */
        PyObject *item;
        if (PyTuple_Check(items) || PyList_Check(items)) {
            item = PySequence_Fast_GET_ITEM(items, failed_idx);
        }
        else {
            item = failed_idx < nargs ? args[failed_idx] : obj;
        }
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument '%s' (position %zd) must be %s, but found element of type %s at pos %lld", s->name,
                     p->name, arg_pos + 1, type_name(p->type), Py_TYPE(item)->tp_name, (long long)failed_idx);
    }
    else {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %zd) must be %s, not %s", s->name, p->name,
                     arg_pos + 1, type_name(p->type), Py_TYPE(obj)->tp_name);
    }
    return -1;
}

/* ---- matching one signature (FunctionSignature::parse) -------------------------------------------- */

/* The value of keyword `name` (or of one of its NumPy aliases), or NULL. */
static PyObject *
keyword_lookup(const param *p, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    PyObject *const *keys = tuple_items(kwnames);

    /* keywords of a call are interned almost always: identity first, equality for the rest */
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (keys[k] == p->py_name) {
            return args[nargs + k];
        }
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (PyUnicode_Compare(keys[k], p->py_name) == 0) {
            return args[nargs + k];
        }
    }
    for (int a = 0; a < p->n_numpy_names; a++) {
        for (Py_ssize_t k = 0; k < nkw; k++) {
            if (key_equals(keys[k], p->numpy_names[a])) {
                return args[nargs + k];
            }
        }
    }
    return NULL;
}

/* The snapshots of the lists given for int lists while one signature is matched: the check runs an item's
 * __index__, which may change the list or free its storage, so the list is checked and read from a tuple
 * taken before (torch reads the list itself, and crashes). New references, owned by the parse. */
typedef struct {
    PyObject *obj[MT_PARSE_MAX_INT_LISTS];
    int n;
} snapshots;

static void
snapshots_clear(snapshots *sn)
{
    while (sn->n > 0) {
        sn->n--;
        Py_CLEAR(sn->obj[sn->n]);
    }
}

/* dst[i] is the object bound to parameter i (NULL: omitted or None; a list's snapshot for an int list);
 * *varargs is the parameter that took every positional argument (view(2, 3)), or -1. 1 matched, 0 not
 * (raise == 0), -1 with an exception. The snapshots taken are added to *sn, matched or not. */
static int
signature_parse(const struct mt_signature *s, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                PyObject **dst, int *varargs, int raise, snapshots *sn)
{
    Py_ssize_t remaining = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    Py_ssize_t arg_pos = 0;
    int allow_varargs = 0;

    *varargs = -1;
    if (s->max_pos_args == 1 && (s->params[0].type == P_INT_LIST || s->params[0].type == P_SYMINT_LIST)) {
        allow_varargs = items_are_int_list(args, nargs, NULL);
    }
    if (nargs > s->max_pos_args && !allow_varargs) {
        return raise ? raise_extra_args(s, nargs) : 0;
    }
    for (int i = 0; i < s->nparams; i++) {
        const param *p = &s->params[i];
        PyObject *obj = NULL;
        PyObject *checked = NULL;       /* a list's snapshot, for an int list */
        int is_kwd = 0;
        int64_t failed_idx = -1;
        int ok = 1;

        if (arg_pos < nargs) {
            if (p->keyword_only) {
                /* positional arguments left after a varargs int list */
                return raise ? raise_extra_args(s, nargs) : 0;
            }
            obj = args[arg_pos];
        }
        else if (kwnames != NULL) {
            is_kwd = 1;
            if (remaining > 0) {
                obj = keyword_lookup(p, args, nargs, kwnames);
            }
        }
        if ((obj == NULL && p->optional) || (obj == Py_None && p->allow_none)) {
            dst[i] = NULL;
        }
        else if (obj == NULL) {
            return raise ? raise_missing_args(s, i) : 0;
        }
        else if (PyList_Check(obj) && (p->type == P_INT_LIST || p->type == P_SYMINT_LIST) &&
                 (checked = PyList_AsTuple(obj)) == NULL) {
            return -1;
        }
        else if ((p->type == P_TENSOR && Py_IS_TYPE(obj, mt_TensorTypePtr)) ||
                 (ok = param_check(p, checked != NULL ? checked : obj, i, &failed_idx)) != 0) {
            if (ok < 0) {
                Py_XDECREF(checked);
                return -1;
            }
            if (checked != NULL) {
                sn->obj[sn->n++] = checked;
            }
            dst[i] = checked != NULL ? checked : obj;
        }
        else if (allow_varargs && arg_pos == 0 && !is_kwd && items_are_int_list(args, nargs, &failed_idx)) {
            /* every positional argument is this list: permute(1, 2, 3) is permute((1, 2, 3)) */
            Py_XDECREF(checked);
            dst[i] = NULL;
            *varargs = i;
            arg_pos = nargs;
            continue;
        }
        else if (raise) {
            int r = raise_type_error(s, p, obj, checked != NULL ? checked : obj, is_kwd, arg_pos, failed_idx, args,
                                     nargs);
            Py_XDECREF(checked);
            return r;
        }
        else {
            Py_XDECREF(checked);
            return 0;
        }
        if (!is_kwd) {
            arg_pos++;
        }
        else if (obj != NULL) {
            remaining--;
        }
    }
    if (remaining > 0) {
        return raise ? raise_extra_kwargs(s, kwnames, nargs) : 0;
    }
    return 1;
}

/* ---- print_error: torch's format_invalid_args ----------------------------------------------------- */

/* std::hash<std::string> of libstdc++ (_Hash_bytes, the 64-bit Murmur variant, seed 0xc70f6907). */
static uint64_t
libstdcxx_hash(const char *p, size_t len)
{
    const uint64_t m = 0xc6a4a7935bd1e995ULL;
    uint64_t h = 0xc70f6907ULL ^ (len * m);
    size_t aligned = len & ~(size_t)7;

    for (size_t i = 0; i < aligned; i += 8) {
        uint64_t data = 0;
        for (int b = 7; b >= 0; b--) {
            data = (data << 8) | (unsigned char)p[i + (size_t)b];
        }
        data *= m;
        data ^= data >> 47;
        data *= m;
        h ^= data;
        h *= m;
    }
    if (len & 7) {
        uint64_t data = 0;
        for (size_t b = len & 7; b > 0; b--) {
            data = (data << 8) | (unsigned char)p[aligned + b - 1];
        }
        h ^= data;
        h *= m;
    }
    h ^= h >> 47;
    h *= m;
    h ^= h >> 47;
    return h;
}

/* libstdc++'s _Prime_rehash_policy::_M_next_bkt for the bucket counts a call's keywords can need. */
static size_t
next_bucket_count(size_t n)
{
    static const unsigned char fast[] = {2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13};
    static const size_t primes[] = {29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229,
                                    172933, 351061, 712697, 1447153, 2938679};
    if (n < sizeof fast) {
        return n == 0 ? 1 : fast[n];
    }
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        if (primes[i] >= n) {
            return primes[i];
        }
    }
    return n | 1;
}

typedef struct {
    const char *key;
    Py_ssize_t len;
    PyObject *value;
    uint64_t hash;
} kwarg;

/* The order in which torch's std::unordered_map<std::string, PyObject*> of the keyword arguments hands
 * them back, emulated: each node goes to the front of its bucket (or of the whole list when its bucket
 * is empty), and a rehash relinks the nodes in list order by the same rule. Rewrites kw[] in that order. */
static int
unordered_map_order(kwarg *kw, Py_ssize_t n)
{
    Py_ssize_t *list;               /* node indices in iteration order */
    Py_ssize_t len = 0;
    size_t nbkt = 1, next_resize = 0;
    kwarg *sorted;

    if (n <= 1) {
        return 0;
    }
    list = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)n);
    sorted = PyMem_RawMalloc(sizeof(kwarg) * (size_t)n);
    if (list == NULL || sorted == NULL) {
        PyMem_RawFree(list);
        PyMem_RawFree(sorted);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t pos;
        /* _M_need_rehash: 11 buckets wanted at the first insertion, max load factor 1 */
        if ((size_t)len + 1 > next_resize) {
            size_t min_bkts = (size_t)len + 1 > (next_resize ? 0 : 11) ? (size_t)len + 1 : 11;
            if (min_bkts >= nbkt) {
                size_t want = min_bkts + 1 > nbkt * 2 ? min_bkts + 1 : nbkt * 2;
                size_t new_nbkt = next_bucket_count(want);
                Py_ssize_t *old = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(len > 0 ? len : 1));
                Py_ssize_t old_len = len;
                if (old == NULL) {
                    PyMem_RawFree(list);
                    PyMem_RawFree(sorted);
                    PyErr_NoMemory();
                    return -1;
                }
                memcpy(old, list, sizeof(Py_ssize_t) * (size_t)len);
                len = 0;
                for (Py_ssize_t j = 0; j < old_len; j++) {
                    size_t b = kw[old[j]].hash % new_nbkt;
                    pos = 0;
                    while (pos < len && kw[list[pos]].hash % new_nbkt != b) {
                        pos++;
                    }
                    if (pos == len) {
                        pos = 0;    /* an empty bucket: the front of the list */
                    }
                    memmove(list + pos + 1, list + pos, sizeof(Py_ssize_t) * (size_t)(len - pos));
                    list[pos] = old[j];
                    len++;
                }
                PyMem_RawFree(old);
                nbkt = new_nbkt;
                next_resize = new_nbkt;
            }
            else {
                next_resize = nbkt;
            }
        }
        pos = 0;
        while (pos < len && kw[list[pos]].hash % nbkt != kw[k].hash % nbkt) {
            pos++;
        }
        if (pos == len) {
            pos = 0;
        }
        memmove(list + pos + 1, list + pos, sizeof(Py_ssize_t) * (size_t)(len - pos));
        list[pos] = k;
        len++;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        sorted[j] = kw[list[j]];
    }
    memcpy(kw, sorted, sizeof(kwarg) * (size_t)n);
    PyMem_RawFree(list);
    PyMem_RawFree(sorted);
    return 0;
}

/* invalid_arguments.cpp's type match on type names: "float" takes int too; minitorch's "minitorch.X"
 * types stand for torch's "torch.X". */
static int
type_name_matches(const char *expected, PyObject *obj)
{
    const char *got = Py_TYPE(obj)->tp_name;

    if (name_starts(got, "minitorch.")) {
        if (!name_starts(expected, "torch.")) {
            return 0;
        }
        return strcmp(got + strlen("minitorch."), expected + strlen("torch.")) == 0;
    }
    if (strcmp(expected, "float") == 0) {
        return strcmp(got, "float") == 0 || strcmp(got, "int") == 0 || strcmp(got, "long") == 0;
    }
    if (strcmp(expected, "int") == 0) {
        return strcmp(got, "int") == 0 || strcmp(got, "long") == 0;
    }
    return strcmp(expected, got) == 0;
}

static void
append_type_desc(strbuf *sb, PyObject *obj)
{
    int is_tuple = PyTuple_Check(obj);

    sb_puts(sb, Py_TYPE(obj)->tp_name);
    if (is_tuple || PyList_Check(obj)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
        sb_puts(sb, is_tuple ? " of (" : " of [");
        for (Py_ssize_t i = 0; i < n; i++) {
            sb_printf(sb, "%s%s", i ? ", " : "", Py_TYPE(PySequence_Fast_GET_ITEM(obj, i))->tp_name);
        }
        sb_puts(sb, is_tuple ? (n == 1 ? ",)" : ")") : "]");
    }
}

static const kwarg *
kwarg_find(const kwarg *kw, Py_ssize_t nkw, const char *name)
{
    size_t len = strlen(name);
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if ((size_t)kw[k].len == len && memcmp(kw[k].key, name, len) == 0) {
            return &kw[k];
        }
    }
    return NULL;
}

/* _formattedArgDesc: the arguments with the ones that do not fit the option marked (in colour when both
 * stdout and stderr are terminals, as torch decides). */
static void
formatted_arg_desc(strbuf *sb, const struct mt_signature *s, PyObject *const *args, Py_ssize_t nargs,
                   const kwarg *kw, Py_ssize_t nkw)
{
    int colour = isatty(1) && isatty(2);
    const char *red = colour ? "\33[31;1m" : "!", *reset_red = colour ? "\33[0m" : "!";
    const char *green = colour ? "\33[32;1m" : "", *reset_green = colour ? "\33[0m" : "";

    sb_puts(sb, "(");
    for (Py_ssize_t i = 0; i < nargs + nkw; i++) {
        int is_kwarg = i >= nargs;
        PyObject *arg = NULL;
        int matching;
        if (is_kwarg) {
            const kwarg *found = i < s->nopt ? kwarg_find(kw, nkw, s->opt_name[i]) : NULL;
            arg = found != NULL ? found->value : NULL;
        }
        else {
            arg = args[i];
        }
        if (arg == NULL) {
            continue;   /* (cannot happen: the keywords were matched to these names first) */
        }
        matching = i < s->nopt && type_name_matches(s->opt_type[i], arg);
        sb_puts(sb, matching ? green : red);
        if (is_kwarg) {
            sb_printf(sb, "%s=", s->opt_name[i]);
        }
        append_type_desc(sb, arg);
        sb_puts(sb, matching ? reset_green : reset_red);
        sb_puts(sb, ", ");
    }
    if (nargs > 0) {
        sb_unput(sb, 2);
    }
    sb_puts(sb, ")");
}

/* _argDesc: "(Tensor, str)", keywords as "name=type" in the map's order. */
static void
arg_desc(strbuf *sb, PyObject *const *args, Py_ssize_t nargs, const kwarg *kw, Py_ssize_t nkw)
{
    sb_puts(sb, "(");
    for (Py_ssize_t i = 0; i < nargs; i++) {
        sb_printf(sb, "%s, ", Py_TYPE(args[i])->tp_name);
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        sb_append(sb, kw[k].key, (size_t)kw[k].len);
        sb_printf(sb, "=%s, ", Py_TYPE(kw[k].value)->tp_name);
    }
    if (nargs > 0) {
        sb_unput(sb, 2);
    }
    sb_puts(sb, ")");
}

/* _tryMatchKwargs: the keywords that are not among the option's last arguments. Appends them, ", "
 * separated; returns how many. */
static int
unmatched_kwargs(strbuf *sb, const struct mt_signature *s, const kwarg *kw, Py_ssize_t nkw)
{
    Py_ssize_t start = s->nopt - nkw;
    int n = 0;

    if (start < 0) {
        start = 0;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        int found = 0;
        for (Py_ssize_t j = start; j < s->nopt && !found; j++) {
            found = (size_t)kw[k].len == strlen(s->opt_name[j]) &&
                    memcmp(kw[k].key, s->opt_name[j], (size_t)kw[k].len) == 0;
        }
        if (!found) {
            if (sb != NULL) {
                if (n > 0) {
                    sb_puts(sb, ", ");
                }
                sb_append(sb, kw[k].key, (size_t)kw[k].len);
            }
            n++;
        }
    }
    return n;
}

static int
argcount_matches(const struct mt_signature *s, Py_ssize_t nargs, Py_ssize_t nkw)
{
    return nargs + nkw == s->nopt;
}

/* PythonArgParser::print_error. Returns -1 with the TypeError set. */
static int
raise_invalid_combination(const mt_parser *parser, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    Py_ssize_t num_args = nargs + nkw;
    int plausible = -1, nplausible = 0, noptions = 0;
    kwarg *kw = NULL;
    strbuf sb = {0};

    for (int i = 0; i < parser->nsigs; i++) {
        const struct mt_signature *s = &parser->sigs[i];
        if (num_args >= s->min_args && num_args <= s->max_args && !s->hidden) {
            plausible = i;
            nplausible++;
        }
        noptions += !s->hidden;
    }
    if (nplausible == 1) {
        /* the one overload the argument count fits explains the failure itself */
        PyObject *dst[MT_PARSE_MAX_PARAMS];
        snapshots sn = {{NULL}, 0};
        int varargs, r = signature_parse(&parser->sigs[plausible], args, nargs, kwnames, dst, &varargs, 1, &sn);
        snapshots_clear(&sn);
        if (r < 0) {
            return -1;
        }
    }

    if (nkw > 0) {
        kw = PyMem_RawMalloc(sizeof(kwarg) * (size_t)nkw);
        if (kw == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t k = 0; k < nkw; k++) {
            kw[k].key = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(kwnames, k), &kw[k].len);
            if (kw[k].key == NULL) {
                PyMem_RawFree(kw);
                return -1;
            }
            kw[k].value = args[nargs + k];
            kw[k].hash = libstdcxx_hash(kw[k].key, (size_t)kw[k].len);
        }
        if (unordered_map_order(kw, nkw) < 0) {
            PyMem_RawFree(kw);
            return -1;
        }
    }

    sb_printf(&sb, "%s() received an invalid combination of arguments - ", parser->sigs[0].name);
    if (noptions == 1) {
        const struct mt_signature *s = NULL;
        for (int i = 0; i < parser->nsigs && s == NULL; i++) {
            s = parser->sigs[i].hidden ? NULL : &parser->sigs[i];
        }
        if (nkw > 0 && unmatched_kwargs(NULL, s, kw, nkw) > 0) {
            sb_puts(&sb, "got unrecognized keyword arguments: ");
            unmatched_kwargs(&sb, s, kw, nkw);
        }
        else {
            sb_puts(&sb, "got ");
            if (argcount_matches(s, nargs, nkw)) {
                formatted_arg_desc(&sb, s, args, nargs, kw, nkw);
            }
            else {
                arg_desc(&sb, args, nargs, kw, nkw);
            }
            sb_printf(&sb, ", but expected %s", s->text);
        }
    }
    else {
        sb_puts(&sb, "got ");
        arg_desc(&sb, args, nargs, kw, nkw);
        sb_puts(&sb, ", but expected one of:\n");
        for (int i = 0; i < parser->nsigs; i++) {
            const struct mt_signature *s = &parser->sigs[i];
            if (s->hidden) {
                continue;
            }
            sb_printf(&sb, " * %s\n", s->text);
            if (!argcount_matches(s, nargs, nkw)) {
                continue;
            }
            if (nkw > 0 && unmatched_kwargs(NULL, s, kw, nkw) > 0) {
                sb_puts(&sb, "      didn't match because some of the keywords were incorrect: ");
                unmatched_kwargs(&sb, s, kw, nkw);
                sb_puts(&sb, "\n");
            }
            else {
                sb_puts(&sb, "      didn't match because some of the arguments have invalid types: ");
                formatted_arg_desc(&sb, s, args, nargs, kw, nkw);
                sb_puts(&sb, "\n");
            }
        }
    }
    PyMem_RawFree(kw);
    return sb_raise(&sb, PyExc_TypeError);
}

/* ---- conversion to C values (PythonArgs) ---------------------------------------------------------- */

/* THPUtils_unpackLong / unpackIndex: an int, a one-element tensor's item or __index__; ValueError
 * "Overflow when unpacking long long" outside int64. */
static int
unpack_long(PyObject *obj, int64_t *out)
{
    PyObject *index;
    long long v;
    int overflow = 0;

    if (PyLong_CheckExact(obj)) {
        v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow) {
            return mt_raise_long_overflow();
        }
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        *out = v;
        return 0;
    }
    if (mt_Tensor_Check(obj)) {
        index = mt_tensor_item((mt_TensorObject *)obj);
        if (index != NULL && !PyLong_Check(index)) {
            PyObject *as_int = PyNumber_Index(index);
            Py_DECREF(index);
            index = as_int;
        }
    }
    else {
        index = PyNumber_Index(obj);
    }
    if (index == NULL) {
        return -1;
    }
    v = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (overflow) {
        return mt_raise_long_overflow();
    }
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = v;
    return 0;
}

/* A Python number as torch's Scalar (scalar_slow, and tensor_slow for a number given for a Tensor):
 * ints as int64 (or uint64 past it), bools as bool, complex as complex, anything else through float
 * (so a NumPy bool is a float, as in torch). */
static int
number_to_scalar(PyObject *obj, mt_arg *a)
{
    int r;

    a->is_complex = 0;
    a->imag = 0.0;
    if (PyLong_CheckExact(obj) || PyFloat_CheckExact(obj) || PyBool_Check(obj)) {
        return mt_scalar_from_object(obj, &a->scalar) < 0 ? -1 : 0;
    }
    if (PyComplex_Check(obj) || (is_numpy_inexact(obj) && name_starts(Py_TYPE(obj)->tp_name, "numpy.c"))) {
        Py_complex z = PyComplex_AsCComplex(obj);
        if (z.real == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        a->scalar.kind = MT_FLOAT64;
        a->scalar.v.d = z.real;
        a->scalar.is_uint64 = 0;
        a->imag = z.imag;
        a->is_complex = 1;
        return 0;
    }
    r = mt_scalar_from_object(obj, &a->scalar);
    if (r < 0) {
        return -1;
    }
    if (r == 0) {
        double d = PyFloat_AsDouble(obj);
        if (d == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        a->scalar.kind = MT_FLOAT64;
        a->scalar.v.d = d;
        a->scalar.is_uint64 = 0;
        return 0;
    }
    if (a->scalar.kind == MT_BOOL && !PyBool_Check(obj)) {
        a->scalar.kind = MT_FLOAT64;
        a->scalar.v.d = (double)a->scalar.v.i;
    }
    return 0;
}

static int
intlist_error(const struct mt_signature *s, const param *p, PyObject *item, Py_ssize_t idx, int overflow)
{
    if (overflow) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument '%s' failed to unpack the object at pos %zd with error \"Overflow when "
                     "unpacking long long\"",
                     s->name, p->name, idx + 1);
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument '%s' failed to unpack the object at pos %zd with error \"type must be %s,but "
                     "got %s\"",
                     s->name, p->name, idx + 1, type_name(p->type), Py_TYPE(item)->tp_name);
    }
    return -1;
}

/* One item of an int list (intlistWithDefault / symintlist). */
static int
int_list_item(const struct mt_signature *s, const param *p, PyObject *item, Py_ssize_t idx, int64_t *out)
{
    if (mt_Tensor_Check(item)) {
        mt_TensorObject *t = (mt_TensorObject *)item;
        if (mt_tensor_numel(t) != 1 || !tensor_is_integral(t, 1)) {
            return intlist_error(s, p, item, idx, 0);
        }
        if (t->dtype == MT_BOOL && p->type == P_SYMINT_LIST) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Expected scalar.isIntegral( false) to be true, but got false.  (Could this error "
                            "message be improved?  If so, please report an enhancement request to PyTorch.)");
            return -1;
        }
        return unpack_long(item, out);
    }
    if (unpack_long(item, out) < 0) {
        int overflow = PyErr_ExceptionMatches(PyExc_ValueError);
        PyErr_Clear();
        return intlist_error(s, p, item, idx, overflow);
    }
    return 0;
}

static int
convert_int_list(const struct mt_signature *s, const param *p, PyObject *obj, PyObject *const *items,
                 Py_ssize_t n, mt_parsed *out, mt_arg *a)
{
    int64_t *vals = out->ints[p->list_slot];
    PyObject *snapshot = NULL;

    if (items == NULL) {
        if (PyTuple_Check(obj)) {
            items = tuple_items(obj);
            n = PyTuple_GET_SIZE(obj);
        }
        else if (PyList_Check(obj)) {
            /* a snapshot: an item's __index__ may change the list while it is read */
            snapshot = PyList_AsTuple(obj);
            if (snapshot == NULL) {
                return -1;
            }
            items = tuple_items(snapshot);
            n = PyTuple_GET_SIZE(snapshot);
        }
        else {
            /* IntArrayRef[N] given one int: that int N times (its errors are unpackIndex's own) */
            int64_t v;
            if (p->size > MT_MAX_DIMS) {
                return mt_raise_too_many_dims(p->size);
            }
            if (!check_long(obj) && !mt_Tensor_Check(obj)) {
                /* an object with __index__ passes the check, and then trips torch's assert */
                PyErr_SetString(PyExc_RuntimeError,
                                "PyList_Check(arg) INTERNAL ASSERT FAILED at "
                                "\"/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.h\":658, please report a "
                                "bug to PyTorch. expected tuple or list");
                return -1;
            }
            if (mt_Tensor_Check(obj) ? int_list_item(s, p, obj, 0, &v) < 0 : unpack_long(obj, &v) < 0) {
                return -1;
            }
            for (int k = 0; k < p->size; k++) {
                vals[k] = v;
            }
            a->ints = vals;
            a->nints = p->size;
            return 0;
        }
    }
    if (n > MT_MAX_DIMS) {
        /* a size (SymIntArrayRef) makes a shape, which MT_MAX_DIMS bounds; a list of dims (IntArrayRef) names
         * dims of a tensor and may be longer (repeats are the op's to report, as torch does) */
        if (p->type == P_SYMINT_LIST || n > INT_MAX) {
            Py_XDECREF(snapshot);
            return mt_raise_too_many_dims((long long)n);
        }
        vals = PyMem_Malloc(sizeof(int64_t) * (size_t)n);
        if (vals == NULL) {
            Py_XDECREF(snapshot);
            PyErr_NoMemory();
            return -1;
        }
        out->heap_ints[out->nheap++] = vals;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (int_list_item(s, p, items[k], k, &vals[k]) < 0) {
            Py_XDECREF(snapshot);
            return -1;
        }
    }
    Py_XDECREF(snapshot);
    a->ints = vals;
    a->nints = (int)n;
    return 0;
}

static void
convert_default(const param *p, mt_arg *a)
{
    memset(a, 0, sizeof *a);
    switch (p->type) {
    case P_TENSOR:
    case P_SCALAR:
        a->tensor = NULL;
        a->scalar = p->default_scalar;
        a->imag = 0.0;
        a->is_complex = 0;
        break;
    case P_INT64:
    case P_SYMINT:
        a->i = p->default_int;
        break;
    case P_DOUBLE:
        a->d = p->default_double;
        break;
    case P_BOOL:
        a->b = p->default_bool;
        break;
    case P_INT_LIST:
    case P_SYMINT_LIST:
        a->ints = p->default_ints;
        a->nints = p->n_default_ints;
        break;
    case P_TENSOR_LIST:
        a->tensors = NULL;
        a->ntensors = 0;
        break;
    case P_DOUBLE_LIST:
        a->floats = NULL;
        break;
    case P_SCALARTYPE:
        a->dtype = p->default_dtype;
        break;
    case P_DEVICE:
        a->device = mt_cpu_device();
        break;
    case P_MEMORY_FORMAT:
        a->memory_format = MT_CONTIGUOUS_FORMAT;
        break;
    case P_STRING:
        a->str = p->default_string;
        a->len = p->default_string_len;
        break;
    default:
        break;
    }
}

/* PythonArgs::getDoublelist: each item's float (through __float__), as a new tuple the parse owns; torch's
 * TypeError names the first item that has none (counted from 1). */
static int
convert_double_list(const struct mt_signature *s, const param *p, PyObject *obj, mt_parsed *out, mt_arg *a)
{
    PyObject *items = PySequence_Tuple(obj);
    PyObject *floats = NULL;

    if (items == NULL) {
        return -1;
    }
    floats = PyTuple_New(PyTuple_GET_SIZE(items));
    for (Py_ssize_t k = 0; floats != NULL && k < PyTuple_GET_SIZE(items); k++) {
        PyObject *item = PyTuple_GET_ITEM(items, k);
        double v = PyFloat_AsDouble(item);
        PyObject *f = v == -1.0 && PyErr_Occurred() ? NULL : PyFloat_FromDouble(v);
        if (f == NULL) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be %s, but found element of type %s at pos %zd",
                         s->name, p->name, type_name(p->type), Py_TYPE(item)->tp_name, k + 1);
            Py_CLEAR(floats);
            break;
        }
        PyTuple_SET_ITEM(floats, k, f);
    }
    Py_DECREF(items);
    if (floats == NULL) {
        return -1;
    }
    out->owned[out->nowned++] = floats;
    a->floats = floats;
    return 0;
}

/* Converts one bound argument (PythonArgs' accessors, in the parameter's declared type). */
static int
convert_arg(const struct mt_signature *s, const param *p, PyObject *obj, mt_parsed *out, mt_arg *a)
{
    switch (p->type) {
    case P_TENSOR:
        if (mt_Tensor_Check(obj)) {
            a->tensor = (mt_TensorObject *)obj;
            return 0;
        }
        a->tensor = NULL;
        return number_to_scalar(obj, a);
    case P_SCALAR:
        if (mt_Tensor_Check(obj)) {
            /* a 0-d tensor is its item */
            PyObject *item = mt_tensor_item((mt_TensorObject *)obj);
            int r;
            if (item == NULL) {
                return -1;
            }
            r = number_to_scalar(item, a);
            Py_DECREF(item);
            a->tensor = (mt_TensorObject *)obj;
            return r;
        }
        a->tensor = NULL;
        return number_to_scalar(obj, a);
    case P_INT64:
        return unpack_long(obj, &a->i);
    case P_SYMINT:
        if (mt_Tensor_Check(obj) && ((mt_TensorObject *)obj)->dtype == MT_BOOL) {
            /* torch's pybind SymInt caster asserts an integral item */
            PyErr_SetString(PyExc_RuntimeError,
                            "scalar.isIntegral( false) INTERNAL ASSERT FAILED at "
                            "\"/__w/pytorch/pytorch/torch/csrc/utils/pybind.cpp\":27, please report a bug to "
                            "PyTorch. ");
            return -1;
        }
        return unpack_long(obj, &a->i);
    case P_DOUBLE:
        a->d = PyFloat_AsDouble(obj);
        return a->d == -1.0 && PyErr_Occurred() ? -1 : 0;
    case P_BOOL:
        a->b = obj == Py_True;
        return 0;
    case P_INT_LIST:
    case P_SYMINT_LIST:
        return convert_int_list(s, p, obj, NULL, 0, out, a);
    case P_DOUBLE_LIST:
        return convert_double_list(s, p, obj, out, a);
    case P_TENSOR_LIST: {
        PyObject *tuple = PySequence_Tuple(obj);
        if (tuple == NULL) {
            return -1;
        }
        out->owned[out->nowned++] = tuple;
        /* re-checked: the list may have changed since it was checked (a later argument's __index__) */
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(tuple); k++) {
            if (!mt_Tensor_Check(PyTuple_GET_ITEM(tuple, k))) {
                return tensor_list_error(PyTuple_GET_ITEM(tuple, k), k, (int)(p - s->params));
            }
        }
        /* TensorList[N] (an op's tuple of outputs): PythonArgs::tensorlist_n's count check */
        if (p->size > 0 && PyTuple_GET_SIZE(tuple) != p->size) {
            return mt_arg_tuple_size_error(p->size, PyTuple_GET_SIZE(tuple));
        }
        a->tensors = tuple_items(tuple);
        a->ntensors = PyTuple_GET_SIZE(tuple);
        return 0;
    }
    case P_SCALARTYPE:
        if (obj == (PyObject *)&PyComplex_Type) {
            PyErr_Format(PyExc_NotImplementedError,
                         "%s(): argument '%s' is complex, and minitorch has no complex dtypes", s->name, p->name);
            return -1;
        }
        return mt_dtype_from_object(obj, &a->dtype);
    case P_DEVICE:
        if (PyUnicode_CheckExact(obj)) {
            /* one string object (an interned literal such as 'cpu') names one device: read it once, and keep
             * the object alive so that its address cannot be taken by another string */
            static PyObject *last_string;
            static mt_device last_device;
            if (obj == last_string) {
                a->device = last_device;
                return 0;
            }
            if (mt_device_from_object(obj, &a->device) < 0) {
                return -1;
            }
            Py_INCREF(obj);
            Py_XSETREF(last_string, obj);
            last_device = a->device;
            return 0;
        }
        if (!PyLong_Check(obj) && is_numpy_int(obj)) {
            PyObject *index = PyNumber_Index(obj);
            int r;
            if (index == NULL) {
                return -1;
            }
            r = mt_device_from_object(index, &a->device);
            Py_DECREF(index);
            return r;
        }
        return mt_device_from_object(obj, &a->device);
    case P_MEMORY_FORMAT:
        /* (its type was checked when the signature matched) */
        a->memory_format = mt_memory_format_of(obj);
        return 0;
    case P_STRING:
        a->str = PyUnicode_AsUTF8AndSize(obj, &a->len);
        return a->str == NULL ? -1 : 0;
    default:
        /* Layout, Generator, Storage, PyObject*: the object itself */
        return 0;
    }
}

/* ---- the entry point ------------------------------------------------------------------------------ */

static int
warn_deprecated(const mt_parser *parser, const struct mt_signature *s)
{
    /* TORCH_WARN_ONCE: once per process, whichever overload it is */
    static int warned;
    strbuf sb = {0};
    int r = 0;

    if (warned) {
        return 0;
    }
    warned = 1;
    sb_printf(&sb, "This overload of %s is deprecated:\n\t%s%s", s->name, s->name, s->text);
    for (int i = 0, first = 1; i < parser->nsigs; i++) {
        if (!parser->sigs[i].hidden) {
            if (first) {
                sb_puts(&sb, "\nConsider using one of the following signatures instead:");
                first = 0;
            }
            sb_printf(&sb, "\n\t%s%s", s->name, parser->sigs[i].text);
        }
    }
    if (!sb.failed && sb.buf != NULL) {
        r = mt_warn(PyExc_UserWarning, sb.buf);
    }
    PyMem_RawFree(sb.buf);
    return r;
}

static int
convert_all(const struct mt_signature *s, PyObject *const *args, Py_ssize_t nargs, PyObject **dst, int varargs,
            snapshots *sn, mt_parsed *out)
{
    out->index = s->index;
    out->nparams = s->nparams;
    out->nowned = 0;
    out->nheap = 0;
    /* the parse owns the snapshots from here */
    for (int k = 0; k < sn->n; k++) {
        out->owned[out->nowned++] = sn->obj[k];
    }
    sn->n = 0;
    for (int i = 0; i < s->nparams; i++) {
        const param *p = &s->params[i];
        mt_arg *a = &out->arg[i];
        if (i == varargs) {
            a->obj = NULL;
            if (convert_int_list(s, p, NULL, args, nargs, out, a) < 0) {
                goto error;
            }
            continue;
        }
        if (dst[i] == NULL) {
            *a = p->default_arg;
            continue;
        }
        a->obj = dst[i];
        if (p->type == P_TENSOR && mt_Tensor_Check(dst[i])) {
            a->tensor = (mt_TensorObject *)dst[i];
        }
        else if (convert_arg(s, p, dst[i], out, a) < 0) {
            goto error;
        }
    }
    return 0;

error:
    mt_parsed_clear(out);
    return -1;
}

/* ---- the common call, matched without the general loop ---------------------------------------------- */

/* The items of an exact tuple or list of exact ints (bools excluded), at most MT_MAX_DIMS of them: what
 * is_int_list accepts without running Python code. 1 with *items and *n set, 0 otherwise. */
static int
simple_int_items(PyObject *obj, PyObject *const **items, Py_ssize_t *n)
{
    if (PyTuple_CheckExact(obj)) {
        *items = tuple_items(obj);
        *n = PyTuple_GET_SIZE(obj);
    }
    else if (PyList_CheckExact(obj)) {
        *items = list_items(obj);
        *n = PyList_GET_SIZE(obj);
    }
    else {
        return 0;
    }
    if (*n > MT_MAX_DIMS) {
        return 0;
    }
    for (Py_ssize_t k = 0; k < *n; k++) {
        if (!PyLong_CheckExact((*items)[k])) {
            return 0;
        }
    }
    return 1;
}

/* What param_check answers for an argument of one of the exact types calls mostly pass (Tensor, int,
 * float, bool, str, None, dtype, device, memory_format, a tuple or list of ints) without running Python
 * code: 1 accepted, 0 not, -1 unknown here (another type, or a case whose answer depends on more than the
 * type: a Tensor for a Scalar, a list of other items). None counts as accepted only where it means
 * omitted. An int given for an int list is its sized form's broadcast (IntArrayRef[2] stride=1); varargs
 * (view(2, 3)) are parse_simple's. */
static int
simple_check(const param *p, PyObject *obj)
{
    PyTypeObject *t = Py_TYPE(obj);

    if (p->type == P_PYOBJECT) {
        return 1;
    }
    if (p->type == P_INT_LIST || p->type == P_SYMINT_LIST) {
        PyObject *const *items;
        Py_ssize_t n;
        if (obj == Py_None) {
            return p->allow_none ? 1 : -1;
        }
        if (t == &PyLong_Type) {
            return p->size > 0;
        }
        return simple_int_items(obj, &items, &n) ? 1 : -1;
    }
    if (p->type == P_TENSOR_LIST) {
        return -1;
    }
    if (obj == Py_None) {
        return p->allow_none ? 1 : -1;
    }
    if (t == &PyTuple_Type || t == &PyList_Type) {
        /* no parameter of another type takes a sequence (a tuple has no __index__) */
        return 0;
    }
    if (t == mt_TensorTypePtr) {
        if (p->type == P_TENSOR) {
            return 1;
        }
        return p->type == P_SCALAR || p->type == P_DOUBLE || p->type == P_INT64 || p->type == P_SYMINT ? -1 : 0;
    }
    if (t == &PyLong_Type) {
        switch (p->type) {
        case P_TENSOR:
            return p->allow_numbers_as_tensors;
        case P_SCALAR:
        case P_DOUBLE:
        case P_INT64:
        case P_SYMINT:
        case P_DEVICE:
            return 1;
        default:
            return 0;
        }
    }
    if (t == &PyFloat_Type) {
        switch (p->type) {
        case P_TENSOR:
            return p->allow_numbers_as_tensors;
        case P_SCALAR:
        case P_DOUBLE:
            return 1;
        default:
            return 0;
        }
    }
    if (t == &PyBool_Type) {
        switch (p->type) {
        case P_TENSOR:
            return p->allow_numbers_as_tensors;
        case P_BOOL:
        case P_SCALAR:
        case P_DOUBLE:
            return 1;
        default:
            return 0;
        }
    }
    if (t == &PyUnicode_Type) {
        return p->type == P_STRING || p->type == P_DEVICE;
    }
    if (t == &mt_DtypeType) {
        return p->type == P_SCALARTYPE;
    }
    if (t == &mt_DeviceType) {
        return p->type == P_DEVICE;
    }
    if (t == &mt_MemoryFormatType) {
        return p->type == P_MEMORY_FORMAT;
    }
    return -1;
}

/* Whether a signature takes its int list as varargs (view(2, 3) is view((2, 3))): an unsized int list is
 * its one positional parameter, so an int given for it is no broadcast (signature_parse's allow_varargs). */
static int
takes_varargs(const struct mt_signature *s)
{
    return s->max_pos_args == 1 && (s->params[0].type == P_INT_LIST || s->params[0].type == P_SYMINT_LIST);
}

/* An int list from n exact ints (simple_int_items' or varargs): 1, or 0 when one is outside int64 (the
 * general path then raises torch's message). */
static int
simple_int_list(const param *p, PyObject *const *items, Py_ssize_t n, mt_parsed *out, mt_arg *a)
{
    int64_t *vals = out->ints[p->list_slot];

    for (Py_ssize_t k = 0; k < n; k++) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(items[k], &overflow);
        if (overflow) {
            return 0;
        }
        vals[k] = v;
    }
    a->ints = vals;
    a->nints = (int)n;
    return 1;
}

/* The most common call, positional arguments only, each of a type simple_check knows (or ints given as
 * varargs): the signatures are tried in order as signature_parse would try them, and the first that takes
 * every argument is converted as convert_all would. 1 parsed, 0 not decided here (nothing done: the general
 * path parses), -1 with an exception. A deprecated overload (it warns) and a call no signature takes (its
 * message) are left to the general path. */
static int
parse_simple(const mt_parser *parser, PyObject *const *args, Py_ssize_t nargs, mt_parsed *out)
{
    const struct mt_signature *s = NULL;
    int varargs = 0;

    for (int k = 0; k < parser->nsigs && s == NULL; k++) {
        const struct mt_signature *c = &parser->sigs[k];
        int verdict = 1;
        if (nargs >= 1 && takes_varargs(c) && PyLong_CheckExact(args[0])) {
            if (c->params[0].size > 0 || nargs > MT_MAX_DIMS) {
                return 0;   /* a broadcast int, then whatever follows it; a long list */
            }
            for (Py_ssize_t i = 1; i < nargs; i++) {
                if (!PyLong_CheckExact(args[i])) {
                    return 0;
                }
            }
            s = c;
            varargs = 1;
            break;
        }
        if (nargs > c->max_pos_args) {
            if (takes_varargs(c)) {
                return 0;   /* varargs of other types */
            }
            continue;
        }
        if (nargs < c->optional_from) {
            continue;   /* a parameter without a default is missing */
        }
        for (Py_ssize_t i = 0; i < nargs && verdict == 1; i++) {
            verdict = simple_check(&c->params[i], args[i]);
        }
        if (verdict < 0) {
            return 0;
        }
        if (verdict == 1) {
            s = c;
        }
    }
    if (s == NULL || s->deprecated) {
        return 0;
    }
    out->index = s->index;
    out->nparams = s->nparams;
    out->nowned = 0;
    out->nheap = 0;
    memcpy(out->arg, s->defaults, sizeof(mt_arg) * (size_t)s->nparams);
    if (varargs) {
        return simple_int_list(&s->params[0], args, nargs, out, &out->arg[0]);
    }
    for (int i = 0; i < nargs; i++) {
        const param *p = &s->params[i];
        mt_arg *a = &out->arg[i];
        PyObject *obj = args[i];
        PyObject *const *items;
        Py_ssize_t n;
        if (obj == Py_None) {
            continue;
        }
        a->obj = obj;
        if (p->type == P_TENSOR && Py_IS_TYPE(obj, mt_TensorTypePtr)) {
            a->tensor = (mt_TensorObject *)obj;
        }
        else if (PyFloat_CheckExact(obj) && (p->type == P_TENSOR || p->type == P_SCALAR)) {
            /* number_to_scalar's answer for a float, without its general path */
            a->tensor = NULL;
            a->scalar.kind = MT_FLOAT64;
            a->scalar.v.d = PyFloat_AS_DOUBLE(obj);
            a->scalar.is_uint64 = 0;
            a->imag = 0.0;
            a->is_complex = 0;
        }
        else if (p->type == P_BOOL) {
            a->b = obj == Py_True;
        }
        else if (p->type == P_SCALARTYPE) {
            a->dtype = ((mt_DtypeObject *)obj)->id;
        }
        else if ((p->type == P_INT_LIST || p->type == P_SYMINT_LIST) && simple_int_items(obj, &items, &n)) {
            if (!simple_int_list(p, items, n, out, a)) {
                mt_parsed_clear(out);
                return 0;
            }
        }
        else if (convert_arg(s, p, obj, out, a) < 0) {
            mt_parsed_clear(out);
            return -1;
        }
    }
    return 1;
}

const mt_arg *
mt_parse_empty(mt_parser *parser, int *index, int *nparams)
{
    if (!parser->ready && parser_init(parser) < 0) {
        return NULL;
    }
    /* an empty call matches the first signature whose parameters are all optional */
    for (int i = 0; i < parser->nsigs; i++) {
        const struct mt_signature *s = &parser->sigs[i];
        if (s->min_args == 0) {
            if (s->deprecated) {
                return NULL;
            }
            *index = s->index;
            *nparams = s->nparams;
            return s->defaults;
        }
    }
    return NULL;
}

int
mt_parse(mt_parser *parser, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, mt_parsed *out)
{
    PyObject *dst[MT_PARSE_MAX_PARAMS];
    int varargs;
    int r;

    if (!parser->ready && parser_init(parser) < 0) {
        return -1;
    }
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) == 0) {
        kwnames = NULL;
    }
    if (kwnames == NULL && (r = parse_simple(parser, args, nargs, out)) != 0) {
        return r < 0 ? -1 : 0;
    }
    for (int i = 0; i < parser->nsigs; i++) {
        const struct mt_signature *s = &parser->sigs[i];
        snapshots sn = {{NULL}, 0};
        /* a single signature raises its own error; several: print_error's, after every one was tried */
        r = signature_parse(s, args, nargs, kwnames, dst, &varargs, parser->nsigs == 1, &sn);
        if (r > 0 && s->deprecated && warn_deprecated(parser, s) < 0) {
            r = -1;
        }
        if (r > 0) {
            return convert_all(s, args, nargs, dst, varargs, &sn, out);
        }
        snapshots_clear(&sn);
        if (r < 0) {
            return -1;
        }
    }
    return raise_invalid_combination(parser, args, nargs, kwnames);
}

/* ---- minitorch._C._parse_test --------------------------------------------------------------------- */

/* An omitted argument whose value is "none": no default, or a default of None. */
static int
omitted_none(const param *p, const mt_arg *a)
{
    return a->obj == NULL && (!p->optional || strcmp(p->default_text, "None") == 0);
}

static PyObject *
arg_to_object(const param *p, const mt_arg *a)
{
    if (omitted_none(p, a) && !((p->type == P_INT_LIST || p->type == P_SYMINT_LIST) && a->ints != NULL &&
                                a->ints != p->default_ints)) {
        Py_RETURN_NONE;
    }
    switch (p->type) {
    case P_TENSOR:
        if (a->tensor != NULL) {
            Py_INCREF(a->tensor);
            return (PyObject *)a->tensor;
        }
        /* fall through: a number given for a Tensor */
    case P_SCALAR:
        if (a->is_complex) {
            return PyComplex_FromDoubles(a->scalar.v.d, a->imag);
        }
        return mt_scalar_to_object(a->scalar);
    case P_INT64:
    case P_SYMINT:
        return PyLong_FromLongLong(a->i);
    case P_DOUBLE:
        return PyFloat_FromDouble(a->d);
    case P_BOOL:
        return PyBool_FromLong(a->b);
    case P_INT_LIST:
    case P_SYMINT_LIST: {
        PyObject *t = PyTuple_New(a->nints);
        for (int k = 0; t != NULL && k < a->nints; k++) {
            PyObject *v = PyLong_FromLongLong(a->ints[k]);
            if (v == NULL) {
                Py_CLEAR(t);
                break;
            }
            PyTuple_SET_ITEM(t, k, v);
        }
        return t;
    }
    case P_DOUBLE_LIST:
        Py_INCREF(a->floats);
        return a->floats;
    case P_TENSOR_LIST: {
        PyObject *t = PyTuple_New(a->ntensors);
        for (Py_ssize_t k = 0; t != NULL && k < a->ntensors; k++) {
            Py_INCREF(a->tensors[k]);
            PyTuple_SET_ITEM(t, k, a->tensors[k]);
        }
        return t;
    }
    case P_SCALARTYPE: {
        PyObject *d = mt_dtype_object(a->dtype);
        Py_INCREF(d);
        return d;
    }
    case P_DEVICE:
        return mt_device_new(a->device);
    case P_STRING:
        return PyUnicode_FromStringAndSize(a->str, a->len);
    case P_MEMORY_FORMAT:
        if (a->obj == NULL) {
            Py_RETURN_NONE;
        }
        /* fall through */
    default:
        /* Layout, Generator, Storage, PyObject*: the object given */
        Py_INCREF(a->obj);
        return a->obj;
    }
}

/* The parsers _parse_args builds, kept by their signature strings: the Python compositions (nn.functional,
 * linalg, ...) call it with the same few lists on every call, and building a parser from its strings is
 * most of a parse's cost. The cache is bounded: past PARSER_CACHE_MAX distinct lists, a parser is built
 * for the call and freed after it, as a static parser would never be. */
#define PARSER_CACHE_MAX 1024

typedef struct {
    mt_parser parser;
    PyObject *formats;      /* the tuple of signature strings the parser's formats point into */
} cached_parser;

static PyObject *parser_cache;      /* {tuple of signature strings: capsule of a cached_parser} */

static void
cached_parser_free(PyObject *capsule)
{
    cached_parser *c = PyCapsule_GetPointer(capsule, "minitorch._C.parser");

    mt_parser_free(&c->parser);
    Py_XDECREF(c->formats);
    PyMem_Free(c);
}

/* Points parser's formats at the strings of the tuple formats (1 to 8 str). -1 with an exception. */
static int
parser_set_formats(mt_parser *parser, PyObject *formats)
{
    Py_ssize_t n = PyTuple_GET_SIZE(formats);

    if (n < 1 || n > MT_PARSER_MAX_SIGNATURES) {
        PyErr_SetString(PyExc_ValueError, "_parse_args: 1 to 8 signatures");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        parser->formats[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(formats, i));
        if (parser->formats[i] == NULL) {
            return -1;
        }
    }
    return 0;
}

/* The parser of the signature strings in the tuple formats: the cached one, or (the cache full) *temp set
 * up for this call, which the caller frees. NULL with an exception. */
static mt_parser *
parser_for(PyObject *formats, mt_parser *temp)
{
    PyObject *capsule;
    cached_parser *c;

    if (parser_cache == NULL && (parser_cache = PyDict_New()) == NULL) {
        return NULL;
    }
    capsule = PyDict_GetItemWithError(parser_cache, formats);
    if (capsule != NULL) {
        return &((cached_parser *)PyCapsule_GetPointer(capsule, "minitorch._C.parser"))->parser;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (PyDict_GET_SIZE(parser_cache) >= PARSER_CACHE_MAX) {
        return parser_set_formats(temp, formats) < 0 ? NULL : temp;
    }
    if ((c = PyMem_Calloc(1, sizeof *c)) == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    if (parser_set_formats(&c->parser, formats) < 0) {
        PyMem_Free(c);
        return NULL;
    }
    Py_INCREF(formats);
    c->formats = formats;
    capsule = PyCapsule_New(c, "minitorch._C.parser", cached_parser_free);
    if (capsule == NULL) {
        Py_DECREF(formats);
        PyMem_Free(c);
        return NULL;
    }
    if (PyDict_SetItem(parser_cache, formats, capsule) < 0) {
        Py_DECREF(capsule);
        return NULL;
    }
    Py_DECREF(capsule);     /* the cache holds it */
    return &c->parser;
}

/* _parse_args(signatures, args, kwargs): parses with the parser of `signatures` and returns
 * (index, {name: value}, given names), or raises the parser's exception. */
static PyObject *
parse_test(PyObject *module, PyObject *const *fargs, Py_ssize_t nfargs)
{
    mt_parser temp, *parser;
    mt_parsed parsed;
    PyObject *args, *kwargs, *formats;
    PyObject *stack[256];
    PyObject *kwnames = NULL, *values = NULL, *given = NULL, *result = NULL;
    Py_ssize_t nargs, nkw = 0;
    const struct mt_signature *s;

    memset(&temp, 0, sizeof temp);
    if (nfargs != 3 || !PyList_Check(fargs[0]) || !PyTuple_Check(fargs[1]) || !PyDict_Check(fargs[2])) {
        PyErr_SetString(PyExc_TypeError, "_parse_test(signatures: list[str], args: tuple, kwargs: dict)");
        return NULL;
    }
    args = fargs[1];
    kwargs = fargs[2];
    nargs = PyTuple_GET_SIZE(args);
    if (nargs + PyDict_GET_SIZE(kwargs) > 256) {
        PyErr_SetString(PyExc_ValueError, "_parse_args: at most 256 arguments");
        return NULL;
    }
    formats = PyList_AsTuple(fargs[0]);     /* held to the end: temp's formats point into its strings */
    parser = formats != NULL ? parser_for(formats, &temp) : NULL;
    if (parser == NULL) {
        Py_XDECREF(formats);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        stack[i] = PyTuple_GET_ITEM(args, i);
    }
    if (PyDict_GET_SIZE(kwargs) > 0) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        kwnames = PyTuple_New(PyDict_GET_SIZE(kwargs));
        if (kwnames == NULL) {
            goto done;
        }
        while (PyDict_Next(kwargs, &pos, &key, &value)) {
            if (!PyUnicode_Check(key)) {
                PyErr_SetString(PyExc_TypeError, "keywords must be strings");
                goto done;
            }
            Py_INCREF(key);
            PyTuple_SET_ITEM(kwnames, nkw, key);
            stack[nargs + nkw] = value;
            nkw++;
        }
    }
    if (mt_parse(parser, stack, nargs, kwnames, &parsed) < 0) {
        goto done;
    }
    s = NULL;
    for (int i = 0; i < parser->nsigs; i++) {
        if (parser->sigs[i].index == parsed.index) {
            s = &parser->sigs[i];
        }
    }
    values = PyDict_New();
    given = PyList_New(0);
    if (values == NULL || given == NULL) {
        goto cleared;
    }
    for (int i = 0; i < s->nparams; i++) {
        PyObject *v = arg_to_object(&s->params[i], &parsed.arg[i]);
        int failed = v == NULL || PyDict_SetItemString(values, s->params[i].name, v) < 0;
        Py_XDECREF(v);
        if (failed) {
            goto cleared;
        }
        if ((parsed.arg[i].obj != NULL ||
             (s->params[i].list_slot >= 0 && parsed.arg[i].ints != NULL &&
              parsed.arg[i].ints != s->params[i].default_ints)) &&
            PyList_Append(given, s->params[i].py_name) < 0) {
            goto cleared;
        }
    }
    result = Py_BuildValue("(iOO)", parsed.index, values, given);

cleared:
    mt_parsed_clear(&parsed);
done:
    Py_XDECREF(values);
    Py_XDECREF(given);
    Py_XDECREF(kwnames);
    mt_parser_free(&temp);
    Py_DECREF(formats);
    return result;
}

/* _parse_bench(signatures, args, kwargs, n): nanoseconds per parse over n parses of one call with a
 * parser built once, as a static parser is used (benchmarks/argparse_overhead.py). */
static PyObject *
parse_bench(PyObject *module, PyObject *const *fargs, Py_ssize_t nfargs)
{
    mt_parser parser;
    mt_parsed parsed;
    PyObject *stack[64];
    PyObject *kwnames = NULL, *result = NULL;
    Py_ssize_t nargs, nkw = 0;
    long long n;
    struct timespec t0, t1;

    memset(&parser, 0, sizeof parser);
    if (nfargs != 4 || !PyList_Check(fargs[0]) || !PyTuple_Check(fargs[1]) || !PyDict_Check(fargs[2]) ||
        PyList_GET_SIZE(fargs[0]) < 1 || PyList_GET_SIZE(fargs[0]) > MT_PARSER_MAX_SIGNATURES ||
        PyTuple_GET_SIZE(fargs[1]) + PyDict_GET_SIZE(fargs[2]) > 64) {
        PyErr_SetString(PyExc_TypeError, "_parse_bench(signatures: list[str], args: tuple, kwargs: dict, n: int)");
        return NULL;
    }
    n = PyLong_AsLongLong(fargs[3]);
    if (n <= 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "_parse_bench: n must be positive");
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(fargs[0]); i++) {
        parser.formats[i] = PyUnicode_AsUTF8(PyList_GET_ITEM(fargs[0], i));
        if (parser.formats[i] == NULL) {
            return NULL;
        }
    }
    nargs = PyTuple_GET_SIZE(fargs[1]);
    for (Py_ssize_t i = 0; i < nargs; i++) {
        stack[i] = PyTuple_GET_ITEM(fargs[1], i);
    }
    if (PyDict_GET_SIZE(fargs[2]) > 0) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        kwnames = PyTuple_New(PyDict_GET_SIZE(fargs[2]));
        if (kwnames == NULL) {
            return NULL;
        }
        while (PyDict_Next(fargs[2], &pos, &key, &value)) {
            /* as a call site passes them: interned */
            Py_INCREF(key);
            PyUnicode_InternInPlace(&key);
            PyTuple_SET_ITEM(kwnames, nkw, key);
            stack[nargs + nkw] = value;
            nkw++;
        }
    }
    /* the first parse builds the parser and must succeed */
    if (mt_parse(&parser, stack, nargs, kwnames, &parsed) < 0) {
        goto done;
    }
    mt_parsed_clear(&parsed);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long long i = 0; i < n; i++) {
        if (mt_parse(&parser, stack, nargs, kwnames, &parsed) < 0) {
            goto done;
        }
        mt_parsed_clear(&parsed);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    result = PyFloat_FromDouble(((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
                                (double)n);
done:
    Py_XDECREF(kwnames);
    mt_parser_free(&parser);
    return result;
}

PyMethodDef mt_argparse_functions[] = {
    {"_parse_args", (PyCFunction)(void (*)(void))parse_test, METH_FASTCALL,
     "_parse_args(signatures, args, kwargs) -> (index, values, given)\n\n"
     "Parses a call with torch's signature strings, as torch's argument parser does in front of its C++ ops: "
     "for the ops minitorch writes in Python (minitorch/nn/functional.py), so their argument errors are "
     "torch's."},
    {"_parse_test", (PyCFunction)(void (*)(void))parse_test, METH_FASTCALL,
     "_parse_test(signatures, args, kwargs) -> (index, values, given)\n\n"
     "Parses args/kwargs with minitorch's argument parser built from torch signature strings (for tests)."},
    {"_parse_bench", (PyCFunction)(void (*)(void))parse_bench, METH_FASTCALL,
     "_parse_bench(signatures, args, kwargs, n) -> float\n\n"
     "Nanoseconds per parse of one call, over n parses with a parser built once (for benchmarks)."},
    {NULL, NULL, 0, NULL},
};
