/* bind.c: the one entry of every op in ops.def. It owns the reading of the table: the forms of each row
 * (minitorch.<name>, Tensor.<name>, the in-place <name>_ forms) with their signature strings (a method's
 * are the function's without self and out=, as torch's generated methods have them), the docstrings, the
 * module's function table, Tensor's method table and Tensor's operator slots; and the generic entry that
 * parses a call with the form's signatures (argparse.c) and hands the values to the row's binding, laid
 * out as the function form writes them. It must not know what any op means: that is the bindings'
 * (python/<family>.c) and the ops' (csrc/ops).
 *
 * Small calls stay cheap: the tables and parsers are built once, a method without parameters skips the
 * parser, and the operator slots (a + b, a @ b, a == b) call their binding's slot function directly,
 * without keyword matching: they always have exactly their operands. */
#include "bind.h"

#include <stdio.h>
#include <string.h>

#include "autocast.h"
#include "return_types.h"

#include "../ops/dispatch.h"
#include "../ops/elementwise.h"
#include "../ops/factory.h"
#include "../ops/matmul.h"
#include "../ops/reduce.h"
#include "../ops/reduce_stats.h"
#include "../ops/scan.h"
#include "../ops/softmax.h"
#include "../ops/sort.h"
#include "../ops/inplace_view.h"
#include "../ops/linalg.h"
#include "../kernels/kernel_types.h"

/* ---- the table -------------------------------------------------------------------------------------- */

#define MT_SIGS(...) {__VA_ARGS__, NULL}

typedef struct {
    unsigned flags;
    const mt_binding *binding;
    int code;
    const char *sigs[MT_PARSER_MAX_SIGNATURES + 1];
    const char *doc;
    int derivative;                 /* the derivative's id, for autograd (unused yet) */
} op_row;

enum {
#define MT_OP(id, flags, binding, code, sigs, doc, derivative) OP_##id,
#include "ops.def"
#undef MT_OP
    OP_COUNT
};

static const op_row rows[OP_COUNT] = {
#define MT_OP(id, flags, binding, code, sigs, doc, derivative) {flags, &binding, code, sigs, doc, derivative},
#include "ops.def"
#undef MT_OP
};

/* ---- a signature, as bind.c reads it -------------------------------------------------------------- */

/* One written signature: "name(Type a, *, Type b=1)|deprecated|function -> T", split into its pieces.
 * Only the structure is read here (names, which is self, which is out=); argparse.c owns the types. */
typedef struct {
    char *name;
    int nparams;
    char *param[MT_PARSE_MAX_PARAMS];       /* "Scalar alpha=1" */
    char *param_name[MT_PARSE_MAX_PARAMS];  /* "alpha" */
    int kw_start;                           /* the first keyword-only parameter (nparams: none) */
    int self_index;                         /* `Tensor input` / `Tensor self`, or -1 */
    int deprecated, hidden, function_only;
    char *ret;                              /* the Python return type, NULL for Tensor */
} sig_info;

/* A form of a row (function, method, in-place method, in-place function) as Python reaches it. */
typedef struct {
    mt_parser parser;
    PyObject *(*call)(const mt_call *c);    /* the row's binding */
    int code;                               /* the row's code */
    char *name;                             /* "add_" */
    int noargs;                             /* a method without parameters: nothing to parse */
    int nsigs;
    signed char map[MT_PARSER_MAX_SIGNATURES];      /* the form's overload -> the row's */
    /* per overload of the form, per role: where its value is among the form's values (MT_POS_SELF, -1) */
    signed char pos[MT_PARSER_MAX_SIGNATURES][MT_BIND_MAX_ROLES];
    /* out=: the op's rule (NULL: out= is the binding's business), and per overload where out, dtype and
     * device are among the form's values (-1: no such parameter) */
    const struct mt_out_rule *out_rule;
    signed char out_pos[MT_PARSER_MAX_SIGNATURES];
    signed char dtype_pos[MT_PARSER_MAX_SIGNATURES];
    signed char device_pos[MT_PARSER_MAX_SIGNATURES];
    /* a call without arguments, once known: 1 it needs no parse (empty_args, empty_index), -1 it does */
    int empty_state;
    const mt_arg *empty_args;
    int empty_index;
    char *doc;
} bound_form;

typedef struct {
    sig_info sigs[MT_PARSER_MAX_SIGNATURES];
    int nsigs;
    signed char pos[MT_PARSER_MAX_SIGNATURES][MT_BIND_MAX_ROLES];   /* in the row's (function form's) layout */
    unsigned scalar_roles[MT_PARSER_MAX_SIGNATURES];
    bound_form forms[MT_V_COUNT];
} bound_op;

static bound_op bound[OP_COUNT];

/* per row: its autocast policy (autocast.c's index, -1: none), looked up once by the function's name */
static int autocast_policy[OP_COUNT];

static char *
dup_n(const char *s, size_t n)
{
    char *d = PyMem_RawMalloc(n + 1);
    if (d == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static int
table_error(const char *what, const char *sig)
{
    PyErr_Format(PyExc_RuntimeError, "csrc/python/ops.def: %s: %s", what, sig);
    return -1;
}

static int
sig_read(sig_info *s, const char *text)
{
    const char *open = strchr(text, '(');
    const char *close = open != NULL ? strchr(open, ')') : NULL;
    const char *p, *rest;

    memset(s, 0, sizeof *s);
    s->self_index = -1;
    if (open == NULL || close == NULL) {
        return table_error("malformed signature", text);
    }
    if ((s->name = dup_n(text, (size_t)(open - text))) == NULL) {
        return -1;
    }
    s->kw_start = -1;
    for (p = open + 1; p < close;) {
        const char *end = strstr(p, ", ");
        const char *space, *eq;
        size_t len;
        if (end == NULL || end > close) {
            end = close;
        }
        len = (size_t)(end - p);
        if (len == 1 && *p == '*') {
            s->kw_start = s->nparams;
        }
        else {
            if (s->nparams == MT_PARSE_MAX_PARAMS) {
                return table_error("too many parameters", text);
            }
            space = memchr(p, ' ', len);
            if (space == NULL) {
                return table_error("a parameter without a type", text);
            }
            eq = memchr(space, '=', (size_t)(end - space));
            if ((s->param[s->nparams] = dup_n(p, len)) == NULL ||
                (s->param_name[s->nparams] = dup_n(space + 1, (size_t)((eq != NULL ? eq : end) - space - 1))) ==
                    NULL) {
                return -1;
            }
            if (s->self_index < 0 && strncmp(p, "Tensor ", 7) == 0 &&
                (strcmp(s->param_name[s->nparams], "input") == 0 || strcmp(s->param_name[s->nparams], "self") == 0)) {
                s->self_index = s->nparams;
            }
            s->nparams++;
        }
        p = end == close ? close : end + 2;
    }
    if (s->kw_start < 0) {
        s->kw_start = s->nparams;
    }
    for (rest = close + 1; *rest == '|';) {
        const char *end = rest + 1 + strcspn(rest + 1, "| ");
        size_t len = (size_t)(end - rest);
        if (len == 11 && strncmp(rest, "|deprecated", len) == 0) {
            s->deprecated = s->hidden = 1;
        }
        else if (len == 7 && strncmp(rest, "|hidden", len) == 0) {
            s->hidden = 1;
        }
        else if (len == 9 && strncmp(rest, "|function", len) == 0) {
            s->function_only = 1;
        }
        else {
            return table_error("unknown flag", text);
        }
        rest = end;
    }
    if (strncmp(rest, " -> ", 4) == 0) {
        if ((s->ret = dup_n(rest + 4, strlen(rest + 4))) == NULL) {
            return -1;
        }
    }
    else if (*rest != '\0') {
        return table_error("unexpected text after the parameters", text);
    }
    return 0;
}

/* ---- the forms -------------------------------------------------------------------------------------- */

/* A growable string. */
typedef struct {
    char *buf;
    size_t len, cap;
    int failed;
} text;

static void
text_add(text *t, const char *s, size_t n)
{
    if (t->failed) {
        return;
    }
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 128;
        char *grown;
        while (cap < t->len + n + 1) {
            cap *= 2;
        }
        grown = PyMem_RawRealloc(t->buf, cap);
        if (grown == NULL) {
            t->failed = 1;
            return;
        }
        t->buf = grown;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

static void
text_puts(text *t, const char *s)
{
    text_add(t, s, strlen(s));
}

static char *
text_take(text *t)
{
    if (t->failed || t->buf == NULL) {
        PyMem_RawFree(t->buf);
        PyErr_NoMemory();
        return NULL;
    }
    return t->buf;
}

static int
is_method_form(int variant)
{
    return variant == MT_V_METHOD || variant == MT_V_INPLACE_METHOD;
}

static int
is_inplace_form(int variant)
{
    return variant == MT_V_INPLACE_METHOD || variant == MT_V_INPLACE_FUNCTION;
}

/* Whether parameter i of s belongs to the form: methods drop self; every form but the function drops out=
 * (the last parameter of most signatures, among the keyword-only ones of the factories'). */
static int
form_keeps(const sig_info *s, int variant, int i)
{
    if (is_method_form(variant) && i == s->self_index) {
        return 0;
    }
    if (variant != MT_V_FUNCTION && strcmp(s->param_name[i], "out") == 0) {
        return 0;
    }
    return 1;
}

/* The form's signature string for argparse.c: "add_(Tensor other, *, Scalar alpha=1)|deprecated". */
static char *
form_format(const sig_info *s, int variant)
{
    text t = {0};
    int first = 1, star = 0;

    text_puts(&t, s->name);
    if (is_inplace_form(variant)) {
        text_puts(&t, "_");
    }
    text_puts(&t, "(");
    for (int i = 0; i < s->nparams; i++) {
        if (!form_keeps(s, variant, i)) {
            continue;
        }
        if (!first) {
            text_puts(&t, ", ");
        }
        if (i >= s->kw_start && !star) {
            text_puts(&t, "*, ");
            star = 1;
        }
        text_puts(&t, s->param[i]);
        first = 0;
    }
    text_puts(&t, ")");
    if (s->deprecated) {
        text_puts(&t, "|deprecated");
    }
    else if (s->hidden) {
        text_puts(&t, "|hidden");
    }
    return text_take(&t);
}

/* One line of a docstring: "add(input, other, *, alpha=1, out=None) -> Tensor". */
static void
doc_line(text *t, const sig_info *s, int variant)
{
    int first = 1, star = 0;

    text_puts(t, s->name);
    if (is_inplace_form(variant)) {
        text_puts(t, "_");
    }
    text_puts(t, "(");
    for (int i = 0; i < s->nparams; i++) {
        const char *eq;
        if (!form_keeps(s, variant, i)) {
            continue;
        }
        if (!first) {
            text_puts(t, ", ");
        }
        if (i >= s->kw_start && !star) {
            text_puts(t, "*, ");
            star = 1;
        }
        text_puts(t, s->param_name[i]);
        if ((eq = strchr(s->param[i], '=')) != NULL) {
            text_puts(t, eq);
        }
        first = 0;
    }
    text_puts(t, ") -> ");
    text_puts(t, s->ret != NULL ? s->ret : "Tensor");
}

static char *
form_doc(const op_row *row, const bound_op *op, const bound_form *f, int variant)
{
    text t = {0};
    int lines = 0;

    for (int k = 0; k < f->nsigs; k++) {
        const sig_info *s = &op->sigs[f->map[k]];
        if (s->hidden) {
            continue;
        }
        if (lines++ > 0) {
            text_puts(&t, "\n");
        }
        doc_line(&t, s, variant);
    }
    text_puts(&t, "\n\n");
    if (is_inplace_form(variant)) {
        text_puts(&t, "In-place version of ");
        text_puts(&t, op->sigs[0].name);
        text_puts(&t, "().");
    }
    else {
        text_puts(&t, row->doc);
    }
    return text_take(&t);
}

static int
form_build(const op_row *row, bound_op *op, int variant)
{
    bound_form *f = &op->forms[variant];
    int nparams = 0;

    for (int i = 0; i < op->nsigs; i++) {
        const sig_info *s = &op->sigs[i];
        if (variant != MT_V_FUNCTION && s->function_only) {
            continue;
        }
        if (is_method_form(variant) && s->self_index < 0) {
            return table_error("a method form needs a `Tensor input` or `Tensor self` parameter", row->sigs[i]);
        }
        if ((f->parser.formats[f->nsigs] = form_format(s, variant)) == NULL) {
            return -1;
        }
        f->map[f->nsigs] = (signed char)i;
        /* the row's positions, as this form lays its values out */
        for (int r = 0; r < MT_BIND_MAX_ROLES; r++) {
            int w = op->pos[i][r], kept = 0;
            if (w < 0 || !form_keeps(s, variant, w)) {
                f->pos[f->nsigs][r] = (signed char)(is_method_form(variant) && w >= 0 && w == s->self_index
                                                        ? MT_POS_SELF : -1);
                continue;
            }
            for (int p = 0; p < w; p++) {
                kept += form_keeps(s, variant, p);
            }
            f->pos[f->nsigs][r] = (signed char)kept;
        }
        f->out_pos[f->nsigs] = f->dtype_pos[f->nsigs] = f->device_pos[f->nsigs] = -1;
        for (int p = 0, kept = 0; p < s->nparams; p++) {
            if (!form_keeps(s, variant, p)) {
                continue;
            }
            if (strcmp(s->param_name[p], "out") == 0
                && (strncmp(s->param[p], "Tensor ", 7) == 0 || strncmp(s->param[p], "TensorList[2] ", 14) == 0)) {
                f->out_pos[f->nsigs] = (signed char)kept;
            }
            else if (strcmp(s->param_name[p], "dtype") == 0) {
                f->dtype_pos[f->nsigs] = (signed char)kept;
            }
            else if (strcmp(s->param_name[p], "device") == 0) {
                f->device_pos[f->nsigs] = (signed char)kept;
            }
            kept++;
        }
        for (int p = 0; p < s->nparams; p++) {
            nparams += form_keeps(s, variant, p);
        }
        f->nsigs++;
    }
    if (f->nsigs == 0) {
        return table_error("a form without signatures", row->sigs[0]);
    }
    f->noargs = is_method_form(variant) && f->nsigs == 1 && nparams == 0;
    f->call = row->binding->call;
    f->code = row->code;
    f->out_rule = variant == MT_V_FUNCTION ? mt_out_rule_for(op->sigs[0].name) : NULL;
    if (variant == MT_V_FUNCTION && f->out_rule == NULL && row->binding == &mt_binding_unary) {
        f->out_rule = mt_out_rule_for_unary((mt_unary_op)row->code);
    }
    f->name = dup_n(op->sigs[0].name, strlen(op->sigs[0].name) + 1);
    if (f->name == NULL) {
        return -1;
    }
    if (is_inplace_form(variant)) {
        strcat(f->name, "_");
    }
    else {
        f->name[strlen(op->sigs[0].name)] = '\0';
    }
    f->doc = form_doc(row, op, f, variant);
    return f->doc == NULL ? -1 : 0;
}

/* The roles of the row's binding, found in each signature ("a|b" matches either name). */
static void
roles_build(const op_row *row, bound_op *op)
{
    const char *const *roles = row->binding->roles;

    for (int i = 0; i < op->nsigs; i++) {
        const sig_info *s = &op->sigs[i];
        memset(op->pos[i], -1, sizeof op->pos[i]);
        for (int r = 0; roles != NULL && roles[r] != NULL && r < MT_BIND_MAX_ROLES; r++) {
            for (int p = 0; p < s->nparams; p++) {
                const char *names = roles[r];
                size_t n = strlen(s->param_name[p]);
                int match = 0;
                while (*names != '\0' && !match) {
                    size_t len = strcspn(names, "|");
                    match = len == n && strncmp(names, s->param_name[p], n) == 0;
                    names += len + (names[len] == '|');
                }
                if (match) {
                    op->pos[i][r] = (signed char)p;
                    if (strncmp(s->param[p], "Scalar ", 7) == 0 || strncmp(s->param[p], "Scalar? ", 8) == 0) {
                        op->scalar_roles[i] |= 1u << r;
                    }
                    break;
                }
            }
        }
    }
}

/* ---- the entry ------------------------------------------------------------------------------------- */

/* Calls the form's binding with `args`, the values of signature k's parameters. */
static PyObject *
call_binding(const bound_op *op, const bound_form *f, int variant, PyObject *self, const mt_arg *args, int nargs,
             int k)
{
    mt_call c;
    int out_pos = f->out_pos[k];

    c.args = args;
    c.name = f->name;
    c.code = f->code;
    c.variant = variant;
    c.self = (mt_TensorObject *)self;
    c.self_arg.obj = self;
    c.self_arg.tensor = (mt_TensorObject *)self;
    c.overload = f->map[k];
    c.pos = f->pos[k];
    c.scalar_roles = op->scalar_roles[c.overload];
    c.out_dtype = MT_NUM_DTYPES;
    if (f->out_rule != NULL && out_pos >= 0 && out_pos < nargs && args[out_pos].obj != NULL) {
        return mt_bind_out_call(f->out_rule, f->call, &c, nargs, out_pos, f->dtype_pos[k], f->device_pos[k]);
    }
    /* an op returning several tensors gives a plain tuple; the signature names it */
    return mt_return_type_name(op->sigs[c.overload].ret, f->call(&c));
}

static PyObject *bind_entry(int id, int variant, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames);

/* The call again with its tensors cast by the op's autocast policy (autocast.c), autocast off while the op
 * runs as torch's redispatch has it. NULL with *applied 0 when the policy does not apply. */
static PyObject *
autocast_entry(int id, int variant, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               int *applied)
{
    Py_ssize_t n = nargs + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject **cast, *result;
    int r = mt_autocast_cast(autocast_policy[id], self, args, n, kwnames, &cast), previous;

    *applied = r != 0;
    if (r <= 0) {
        return NULL;
    }
    previous = mt_autocast_set_excluded(1);
    result = bind_entry(id, variant, cast[0], (PyObject *const *)cast + 1, nargs, kwnames);
    mt_autocast_set_excluded(previous);
    mt_autocast_cast_free(cast, n);
    return result;
}

static PyObject *
bind_entry(int id, int variant, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    bound_op *op = &bound[id];
    bound_form *f = &op->forms[variant];
    mt_parsed p;
    PyObject *result;

    if (autocast_policy[id] >= 0 && (variant == MT_V_FUNCTION || variant == MT_V_METHOD) && mt_autocast_active()) {
        int applied;
        result = autocast_entry(id, variant, self, args, nargs, kwnames, &applied);
        if (applied) {
            return result;
        }
    }
    if (nargs == 0 && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)) {
        /* a call without arguments: its values are the defaults of the signature it matches */
        if (f->empty_state == 0) {
            int nparams;
            f->empty_args = f->noargs ? NULL : mt_parse_empty(&f->parser, &f->empty_index, &nparams);
            if (f->empty_args == NULL && PyErr_Occurred()) {
                return NULL;
            }
            f->empty_state = f->noargs || f->empty_args != NULL ? 1 : -1;
        }
        if (f->empty_state > 0) {
            return call_binding(op, f, variant, self, f->empty_args, 0, f->empty_index);
        }
    }
    else if (f->noargs) {
        /* CPython's words for a METH_NOARGS method (keywords are refused first), with torch's class name */
        if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
            PyErr_Format(PyExc_TypeError, "TensorBase.%s() takes no keyword arguments", f->name);
        }
        else {
            PyErr_Format(PyExc_TypeError, "TensorBase.%s() takes no arguments (%zd given)", f->name, nargs);
        }
        return NULL;
    }
    if (mt_parse(&f->parser, args, nargs, kwnames, &p) < 0) {
        return NULL;
    }
    result = call_binding(op, f, variant, self, p.arg, p.nparams, p.index);
    mt_parsed_clear(&p);
    return result;
}

int
mt_bind_refuse_out(const mt_call *c, int role)
{
    PyObject *out = mt_call_given(c, role);

    return out != NULL ? mt_check_out_none(c->name, out) : 0;
}

typedef PyObject *(*entry_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);

#define MT_OP(id, flags, binding, code, sigs, doc, derivative)                                             \
    static PyObject *function_##id(PyObject *module, PyObject *const *args, Py_ssize_t nargs,              \
                                   PyObject *kwnames)                                                      \
    {                                                                                                      \
        (void)module;                                                                                      \
        return bind_entry(OP_##id, MT_V_FUNCTION, NULL, args, nargs, kwnames);                             \
    }                                                                                                      \
    static PyObject *method_##id(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) \
    {                                                                                                      \
        return bind_entry(OP_##id, MT_V_METHOD, self, args, nargs, kwnames);                               \
    }                                                                                                      \
    static PyObject *inplace_method_##id(PyObject *self, PyObject *const *args, Py_ssize_t nargs,          \
                                         PyObject *kwnames)                                                \
    {                                                                                                      \
        return bind_entry(OP_##id, MT_V_INPLACE_METHOD, self, args, nargs, kwnames);                       \
    }                                                                                                      \
    static PyObject *inplace_function_##id(PyObject *module, PyObject *const *args, Py_ssize_t nargs,      \
                                           PyObject *kwnames)                                              \
    {                                                                                                      \
        (void)module;                                                                                      \
        return bind_entry(OP_##id, MT_V_INPLACE_FUNCTION, NULL, args, nargs, kwnames);                     \
    }
#include "ops.def"
#undef MT_OP

static const entry_fn entries[OP_COUNT][MT_V_COUNT] = {
#define MT_OP(id, flags, binding, code, sigs, doc, derivative)                                             \
    {function_##id, method_##id, inplace_method_##id, inplace_function_##id},
#include "ops.def"
#undef MT_OP
};

static const unsigned form_flags[MT_V_COUNT] = {MT_FUNCTION, MT_METHOD, MT_INPLACE_METHOD, MT_INPLACE_FUNCTION};

/* ---- operator slots ----------------------------------------------------------------------------------- */

typedef struct {
    PyObject *(*fn)(int code, PyObject *a, PyObject *b, int inplace);
    int code;
    int id;             /* the row */
} slot_target;

enum {
    S_ADD,
    S_SUBTRACT,
    S_MULTIPLY,
    S_TRUE_DIVIDE,
    S_INPLACE_ADD,
    S_INPLACE_SUBTRACT,
    S_INPLACE_MULTIPLY,
    S_INPLACE_TRUE_DIVIDE,
    S_MATRIX_MULTIPLY,
    S_NEGATIVE,
    S_ABSOLUTE,
    S_COUNT
};

static const struct {
    unsigned flag;
    int type_slot;
} slot_kinds[S_COUNT] = {
    [S_ADD] = {MT_NB_ADD, Py_nb_add},
    [S_SUBTRACT] = {MT_NB_SUBTRACT, Py_nb_subtract},
    [S_MULTIPLY] = {MT_NB_MULTIPLY, Py_nb_multiply},
    [S_TRUE_DIVIDE] = {MT_NB_TRUE_DIVIDE, Py_nb_true_divide},
    [S_INPLACE_ADD] = {MT_NB_INPLACE_ADD, Py_nb_inplace_add},
    [S_INPLACE_SUBTRACT] = {MT_NB_INPLACE_SUBTRACT, Py_nb_inplace_subtract},
    [S_INPLACE_MULTIPLY] = {MT_NB_INPLACE_MULTIPLY, Py_nb_inplace_multiply},
    [S_INPLACE_TRUE_DIVIDE] = {MT_NB_INPLACE_TRUE_DIVIDE, Py_nb_inplace_true_divide},
    [S_MATRIX_MULTIPLY] = {MT_NB_MATRIX_MULTIPLY, Py_nb_matrix_multiply},
    [S_NEGATIVE] = {MT_NB_NEGATIVE, Py_nb_negative},
    [S_ABSOLUTE] = {MT_NB_ABSOLUTE, Py_nb_absolute},
};

static const unsigned richcmp_flags[6] = {
    [Py_LT] = MT_RICHCMP_LT, [Py_LE] = MT_RICHCMP_LE, [Py_EQ] = MT_RICHCMP_EQ,
    [Py_NE] = MT_RICHCMP_NE, [Py_GT] = MT_RICHCMP_GT, [Py_GE] = MT_RICHCMP_GE,
};

static slot_target slots[S_COUNT];
static slot_target richcmp[6];
static int have_richcmp;

#define BINARY_SLOT(NAME, S, INPLACE)                                                                      \
    static PyObject *NAME(PyObject *a, PyObject *b)                                                        \
    {                                                                                                      \
        /* a @ b under autocast is matmul(a, b) under its policy */                                       \
        if (!INPLACE && autocast_policy[slots[S].id] >= 0 && mt_autocast_active() && mt_Tensor_Check(a) &&  \
            mt_Tensor_Check(b)) {                                                                          \
            PyObject *operands[2] = {a, b}, *result;                                                       \
            int applied;                                                                                   \
            result = autocast_entry(slots[S].id, MT_V_FUNCTION, NULL, operands, 2, NULL, &applied);        \
            if (applied) {                                                                                 \
                return result;                                                                             \
            }                                                                                              \
        }                                                                                                  \
        return slots[S].fn(slots[S].code, a, b, INPLACE);                                                  \
    }
BINARY_SLOT(nb_add, S_ADD, 0)
BINARY_SLOT(nb_subtract, S_SUBTRACT, 0)
BINARY_SLOT(nb_multiply, S_MULTIPLY, 0)
BINARY_SLOT(nb_true_divide, S_TRUE_DIVIDE, 0)
BINARY_SLOT(nb_inplace_add, S_INPLACE_ADD, 1)
BINARY_SLOT(nb_inplace_subtract, S_INPLACE_SUBTRACT, 1)
BINARY_SLOT(nb_inplace_multiply, S_INPLACE_MULTIPLY, 1)
BINARY_SLOT(nb_inplace_true_divide, S_INPLACE_TRUE_DIVIDE, 1)
BINARY_SLOT(nb_matrix_multiply, S_MATRIX_MULTIPLY, 0)
#undef BINARY_SLOT

static PyObject *
nb_negative(PyObject *a)
{
    return slots[S_NEGATIVE].fn(slots[S_NEGATIVE].code, a, NULL, 0);
}

static PyObject *
nb_absolute(PyObject *a)
{
    return slots[S_ABSOLUTE].fn(slots[S_ABSOLUTE].code, a, NULL, 0);
}

static PyObject *
tp_richcompare(PyObject *a, PyObject *b, int op)
{
    const slot_target *t = &richcmp[op];

    if (t->fn == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return t->fn(t->code, a, b, 0);
}

static void *const slot_functions[S_COUNT] = {
    [S_ADD] = (void *)nb_add,
    [S_SUBTRACT] = (void *)nb_subtract,
    [S_MULTIPLY] = (void *)nb_multiply,
    [S_TRUE_DIVIDE] = (void *)nb_true_divide,
    [S_INPLACE_ADD] = (void *)nb_inplace_add,
    [S_INPLACE_SUBTRACT] = (void *)nb_inplace_subtract,
    [S_INPLACE_MULTIPLY] = (void *)nb_inplace_multiply,
    [S_INPLACE_TRUE_DIVIDE] = (void *)nb_inplace_true_divide,
    [S_MATRIX_MULTIPLY] = (void *)nb_matrix_multiply,
    [S_NEGATIVE] = (void *)nb_negative,
    [S_ABSOLUTE] = (void *)nb_absolute,
};

/* ---- building the tables ------------------------------------------------------------------------------- */

static PyMethodDef *function_table;
static PyMethodDef *method_table;

static int
slots_build(int id)
{
    const op_row *row = &rows[id];

    for (int s = 0; s < S_COUNT; s++) {
        if (row->flags & slot_kinds[s].flag) {
            if (row->binding->slot == NULL || slots[s].fn != NULL) {
                return table_error("an operator slot needs one row whose binding has a slot function",
                                   row->sigs[0]);
            }
            slots[s].fn = row->binding->slot;
            slots[s].code = row->code;
            slots[s].id = id;
        }
    }
    for (int op = 0; op < 6; op++) {
        if (row->flags & richcmp_flags[op]) {
            if (row->binding->slot == NULL || richcmp[op].fn != NULL) {
                return table_error("a comparison slot needs one row whose binding has a slot function",
                                   row->sigs[0]);
            }
            richcmp[op].fn = row->binding->slot;
            richcmp[op].code = row->code;
            have_richcmp = 1;
        }
    }
    return 0;
}

int
mt_bind_init(void)
{
    size_t nfunctions = 0, nmethods = 0, f = 0, m = 0;

    if (function_table != NULL) {
        return 0;
    }
    for (int id = 0; id < OP_COUNT; id++) {
        const op_row *row = &rows[id];
        bound_op *op = &bound[id];
        for (int i = 0; row->sigs[i] != NULL; i++) {
            if (sig_read(&op->sigs[i], row->sigs[i]) < 0) {
                return -1;
            }
            op->nsigs++;
        }
        roles_build(row, op);
        autocast_policy[id] = mt_autocast_policy_of(op->sigs[0].name);
        for (int v = 0; v < MT_V_COUNT; v++) {
            if ((row->flags & form_flags[v]) && form_build(row, op, v) < 0) {
                return -1;
            }
        }
        if (slots_build(id) < 0) {
            return -1;
        }
        nfunctions += ((row->flags & MT_FUNCTION) != 0) + ((row->flags & MT_INPLACE_FUNCTION) != 0);
        nmethods += ((row->flags & MT_METHOD) != 0) + ((row->flags & MT_INPLACE_METHOD) != 0);
    }
    function_table = PyMem_RawCalloc(nfunctions + 1, sizeof(PyMethodDef));
    method_table = PyMem_RawCalloc(nmethods + 1, sizeof(PyMethodDef));
    if (function_table == NULL || method_table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int id = 0; id < OP_COUNT; id++) {
        for (int v = 0; v < MT_V_COUNT; v++) {
            const bound_form *form = &bound[id].forms[v];
            PyMethodDef *def;
            if (!(rows[id].flags & form_flags[v])) {
                continue;
            }
            def = is_method_form(v) ? &method_table[m++] : &function_table[f++];
            def->ml_name = form->name;
            def->ml_meth = (PyCFunction)(void (*)(void))entries[id][v];
            def->ml_flags = METH_FASTCALL | METH_KEYWORDS;
            def->ml_doc = form->doc;
        }
    }
    return 0;
}

PyMethodDef *
mt_bind_functions(void)
{
    return function_table;
}

PyMethodDef *
mt_bind_tensor_methods(void)
{
    return method_table;
}

int
mt_bind_tensor_slots(PyType_Slot *out, int room)
{
    int n = 0;

    for (int s = 0; s < S_COUNT; s++) {
        if (slots[s].fn != NULL && n < room) {
            out[n].slot = slot_kinds[s].type_slot;
            out[n].pfunc = slot_functions[s];
            n++;
        }
    }
    if (have_richcmp && n < room) {
        out[n].slot = Py_tp_richcompare;
        out[n].pfunc = (void *)tp_richcompare;
        n++;
    }
    return n;
}
