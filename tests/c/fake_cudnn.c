/* A host-only stand-in for the cuDNN functions minitorch's csrc/kernels/cuda/cudnn.c loads, built as
 * libcudnn.so.99 for the emulated-CUDA build of the whole extension (setup.py, MINITORCH_CUDA=emulate,
 * which names it MINITORCH_CUDNN_LIBRARY): the legacy convolution API (handles, tensor, filter and
 * convolution descriptors, the _v7 and Find algorithm queries, workspace sizes, and the three passes
 * computed by direct loops on the host), with cuDNN's checks of the shapes a descriptor set describes, so
 * that cudnn.c's descriptors, algorithm choice and workspace handling are checked without a GPU.
 *
 * It works on the emulation's device memory (tests/c/cuda_emu/emu_runtime.cpp): a handle belongs to the
 * device current at cudnnCreate, each pass must be called on that device, every tensor it reads or
 * writes (and the workspace) must lie inside device memory of that device, or the process aborts with a
 * message; the arithmetic runs with that device's memory opened to the host. Status codes are cuDNN 9's.
 * The last pass's settings (its algorithm, math type, compute type), the count of each query and the
 * next status to fail with are reachable through fake_cudnn_*. No part of minitorch. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../csrc/core/scalar_type.h"
#include "cuda_emu/cuda_runtime.h"

#define ST_SUCCESS 0
#define ST_BAD_PARAM 2000
#define ST_NOT_SUPPORTED 3000

#define D_FLOAT 0
#define D_DOUBLE 1
#define D_HALF 2
#define D_BFLOAT16 9

typedef struct {
    int device;
    void *stream;
} fake_handle;

typedef struct {
    int type, n;
    int dims[5], strides[5];
} fake_tensor;

typedef struct {
    int n, pad[3], stride[3], dilation[3], mode, compute, groups, math;
} fake_conv;

static int fail_next;
static int last_algo = -1, last_math = -1, last_compute = -1, last_pass = -1;
static int heuristic_calls, find_calls;
static size_t last_workspace = (size_t)-1;

void fake_cudnn_fail_next(int status) { fail_next = status; }
int fake_cudnn_last_algo(void) { return last_algo; }
int fake_cudnn_last_math_type(void) { return last_math; }
int fake_cudnn_last_compute_type(void) { return last_compute; }
/* 0 forward, 1 backward data, 2 backward filter */
int fake_cudnn_last_pass(void) { return last_pass; }
int fake_cudnn_heuristic_calls(void) { return heuristic_calls; }
int fake_cudnn_find_calls(void) { return find_calls; }
size_t fake_cudnn_last_workspace_size(void) { return last_workspace; }

size_t cudnnGetVersion(void) { return 91002; }

const char *
cudnnGetErrorString(int status)
{
    switch (status) {
    case ST_SUCCESS:
        return "CUDNN_STATUS_SUCCESS";
    case 1001:
        return "CUDNN_STATUS_NOT_INITIALIZED";
    case ST_BAD_PARAM:
        return "CUDNN_STATUS_BAD_PARAM";
    case ST_NOT_SUPPORTED:
        return "CUDNN_STATUS_NOT_SUPPORTED";
    case 4000:
        return "CUDNN_STATUS_INTERNAL_ERROR";
    case 5000:
        return "CUDNN_STATUS_EXECUTION_FAILED";
    default:
        return "CUDNN_STATUS_UNKNOWN";
    }
}

int
cudnnCreate(void **handle)
{
    fake_handle *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return 1001;
    }
    h->device = emu_current_device();
    *handle = h;
    return ST_SUCCESS;
}

int cudnnDestroy(void *handle) { free(handle); return ST_SUCCESS; }
int cudnnSetStream(void *handle, void *stream) { ((fake_handle *)handle)->stream = stream; return stream == NULL ? 0 : ST_BAD_PARAM; }

static int
create(void **out, size_t size)
{
    *out = calloc(1, size);
    return *out != NULL ? ST_SUCCESS : 1001;
}

int cudnnCreateTensorDescriptor(void **d) { return create(d, sizeof(fake_tensor)); }
int cudnnCreateFilterDescriptor(void **d) { return create(d, sizeof(fake_tensor)); }
int cudnnCreateConvolutionDescriptor(void **d) { return create(d, sizeof(fake_conv)); }
int cudnnDestroyTensorDescriptor(void *d) { free(d); return ST_SUCCESS; }
int cudnnDestroyFilterDescriptor(void *d) { free(d); return ST_SUCCESS; }
int cudnnDestroyConvolutionDescriptor(void *d) { free(d); return ST_SUCCESS; }

static int
known_type(int t)
{
    return t == D_FLOAT || t == D_DOUBLE || t == D_HALF || t == D_BFLOAT16;
}

int
cudnnSetTensorNdDescriptor(fake_tensor *d, int type, int n, const int *dims, const int *strides)
{
    if (!known_type(type) || n < 4 || n > 5) {
        return ST_BAD_PARAM;
    }
    d->type = type;
    d->n = n;
    for (int i = 0; i < n; i++) {
        if (dims[i] <= 0 || strides[i] <= 0) {
            return ST_BAD_PARAM;
        }
        d->dims[i] = dims[i];
        d->strides[i] = strides[i];
    }
    return ST_SUCCESS;
}

int
cudnnSetFilterNdDescriptor(fake_tensor *d, int type, int format, int n, const int *dims)
{
    int stride = 1;

    if (!known_type(type) || format != 0 || n < 4 || n > 5) {
        return ST_BAD_PARAM;
    }
    d->type = type;
    d->n = n;
    for (int i = n - 1; i >= 0; i--) {
        if (dims[i] <= 0) {
            return ST_BAD_PARAM;
        }
        d->dims[i] = dims[i];
        d->strides[i] = stride;
        stride *= dims[i];
    }
    return ST_SUCCESS;
}

int
cudnnSetConvolutionNdDescriptor(fake_conv *c, int n, const int *pad, const int *stride, const int *dilation, int mode,
                                int compute)
{
    if (n < 2 || n > 3 || (mode != 0 && mode != 1) || !known_type(compute)) {
        return ST_BAD_PARAM;
    }
    c->n = n;
    for (int i = 0; i < n; i++) {
        if (pad[i] < 0 || stride[i] <= 0 || dilation[i] <= 0) {
            return ST_BAD_PARAM;
        }
        c->pad[i] = pad[i];
        c->stride[i] = stride[i];
        c->dilation[i] = dilation[i];
    }
    c->mode = mode;
    c->compute = compute;
    c->groups = 1;
    return ST_SUCCESS;
}

int cudnnSetConvolutionGroupCount(fake_conv *c, int groups) { c->groups = groups; return groups > 0 ? 0 : ST_BAD_PARAM; }
int cudnnSetConvolutionMathType(fake_conv *c, int math) { c->math = math; return math >= 0 && math <= 3 ? 0 : ST_BAD_PARAM; }

/* cuDNN's checks of a convolution: x, w, y agree with the geometry and each other, one data type; and
 * what the fake computes: cross-correlation only, with a float compute type for 16-bit data */
static int
check_conv(const fake_tensor *x, const fake_tensor *w, const fake_conv *c, const fake_tensor *y)
{
    int s = x->n - 2;

    if (w->n != x->n || y->n != x->n || c->n != s || w->type != x->type || y->type != x->type) {
        return ST_BAD_PARAM;
    }
    if (x->dims[1] != w->dims[1] * c->groups || w->dims[0] % c->groups != 0 || y->dims[0] != x->dims[0] ||
        y->dims[1] != w->dims[0]) {
        return ST_BAD_PARAM;
    }
    for (int i = 0; i < s; i++) {
        int span = c->dilation[i] * (w->dims[2 + i] - 1) + 1;
        if (x->dims[2 + i] + 2 * c->pad[i] < span ||
            y->dims[2 + i] != (x->dims[2 + i] + 2 * c->pad[i] - span) / c->stride[i] + 1) {
            return ST_BAD_PARAM;
        }
    }
    for (int i = 0; i < x->n; i++) {
        /* the fake reads packed NC* tensors only, which is what minitorch describes */
        int expect = 1;
        for (int j = i + 1; j < x->n; j++) {
            expect *= x->dims[j];
        }
        if (x->strides[i] != expect) {
            return ST_NOT_SUPPORTED;
        }
    }
    if (c->mode != 1 || ((x->type == D_HALF || x->type == D_BFLOAT16) && c->compute != D_FLOAT) ||
        (x->type == D_FLOAT && c->compute != D_FLOAT) || (x->type == D_DOUBLE && c->compute != D_DOUBLE)) {
        return ST_NOT_SUPPORTED;
    }
    return ST_SUCCESS;
}

/* algorithm perf records (cudnnConvolutionFwdAlgoPerf_t's layout) */
typedef struct {
    int algo, status;
    float time;
    size_t memory;
    int determinism, math, reserved[3];
} perf;

/* The heuristics rank algorithm 1 (non-deterministic, 4 KiB of workspace) over 0 (deterministic, none);
 * the timed search ranks 2 (deterministic, 256 bytes) first. Every algorithm computes the same. */
static int
algos(int timed, const fake_conv *c, int requested, int *returned, perf *results)
{
    static const int order[2][3] = {{1, 0, 2}, {2, 1, 0}};

    *(timed ? &find_calls : &heuristic_calls) += 1;
    if (requested < 1) {
        return ST_BAD_PARAM;
    }
    *returned = requested < 3 ? requested : 3;
    for (int i = 0; i < *returned; i++) {
        int algo = order[timed][i];
        memset(&results[i], 0, sizeof(results[i]));
        results[i].algo = algo;
        results[i].status = ST_SUCCESS;
        results[i].memory = algo == 1 ? 4096 : algo == 2 ? 256 : 0;
        results[i].determinism = algo != 1;
        results[i].math = c->math;
    }
    return ST_SUCCESS;
}

static size_t
workspace_of(int algo)
{
    return algo == 1 ? 4096 : algo == 2 ? 256 : 0;
}

int cudnnGetConvolutionForwardAlgorithm_v7(void *h, const fake_tensor *x, const fake_tensor *w, const fake_conv *c,
                                           const fake_tensor *y, int n, int *got, perf *p)
{ (void)h; int st = check_conv(x, w, c, y); return st ? st : algos(0, c, n, got, p); }
int cudnnGetConvolutionBackwardDataAlgorithm_v7(void *h, const fake_tensor *w, const fake_tensor *y, const fake_conv *c,
                                                const fake_tensor *x, int n, int *got, perf *p)
{ (void)h; int st = check_conv(x, w, c, y); return st ? st : algos(0, c, n, got, p); }
int cudnnGetConvolutionBackwardFilterAlgorithm_v7(void *h, const fake_tensor *x, const fake_tensor *y,
                                                  const fake_conv *c, const fake_tensor *w, int n, int *got, perf *p)
{ (void)h; int st = check_conv(x, w, c, y); return st ? st : algos(0, c, n, got, p); }
int cudnnFindConvolutionForwardAlgorithm(void *h, const fake_tensor *x, const fake_tensor *w, const fake_conv *c,
                                         const fake_tensor *y, int n, int *got, perf *p)
{ (void)h; int st = check_conv(x, w, c, y); return st ? st : algos(1, c, n, got, p); }
int cudnnFindConvolutionBackwardDataAlgorithm(void *h, const fake_tensor *w, const fake_tensor *y, const fake_conv *c,
                                              const fake_tensor *x, int n, int *got, perf *p)
{ (void)h; int st = check_conv(x, w, c, y); return st ? st : algos(1, c, n, got, p); }
int cudnnFindConvolutionBackwardFilterAlgorithm(void *h, const fake_tensor *x, const fake_tensor *y, const fake_conv *c,
                                                const fake_tensor *w, int n, int *got, perf *p)
{ (void)h; int st = check_conv(x, w, c, y); return st ? st : algos(1, c, n, got, p); }

static int
workspace_size(const fake_tensor *x, const fake_tensor *w, const fake_conv *c, const fake_tensor *y, int algo,
               size_t *size)
{
    int st = check_conv(x, w, c, y);
    if (st) {
        return st;
    }
    if (algo < 0 || algo > 2) {
        return ST_BAD_PARAM;
    }
    *size = workspace_of(algo);
    return ST_SUCCESS;
}

int cudnnGetConvolutionForwardWorkspaceSize(void *h, const fake_tensor *x, const fake_tensor *w, const fake_conv *c,
                                            const fake_tensor *y, int algo, size_t *size)
{ (void)h; return workspace_size(x, w, c, y, algo, size); }
int cudnnGetConvolutionBackwardDataWorkspaceSize(void *h, const fake_tensor *w, const fake_tensor *y,
                                                 const fake_conv *c, const fake_tensor *x, int algo, size_t *size)
{ (void)h; return workspace_size(x, w, c, y, algo, size); }
int cudnnGetConvolutionBackwardFilterWorkspaceSize(void *h, const fake_tensor *x, const fake_tensor *y,
                                                   const fake_conv *c, const fake_tensor *w, int algo, size_t *size)
{ (void)h; return workspace_size(x, w, c, y, algo, size); }

/* ---- the passes ----------------------------------------------------------------------------------------- */

static size_t
elem_size(int type)
{
    return type == D_DOUBLE ? 8 : type == D_FLOAT ? 4 : 2;
}

static int64_t
count(const fake_tensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->n; i++) {
        n *= t->dims[i];
    }
    return n;
}

static double
load(int type, const void *p, int64_t i)
{
    switch (type) {
    case D_DOUBLE:
        return ((const double *)p)[i];
    case D_FLOAT:
        return ((const float *)p)[i];
    case D_HALF:
        return mt_reduced_to_float(MT_FLOAT16, ((const uint16_t *)p)[i]);
    default:
        return mt_reduced_to_float(MT_BFLOAT16, ((const uint16_t *)p)[i]);
    }
}

static void
store(int type, void *p, int64_t i, double v)
{
    switch (type) {
    case D_DOUBLE:
        ((double *)p)[i] = v;
        break;
    case D_FLOAT:
        ((float *)p)[i] = (float)v;
        break;
    case D_HALF:
        ((uint16_t *)p)[i] = mt_float_to_reduced(MT_FLOAT16, (float)v);
        break;
    default:
        ((uint16_t *)p)[i] = mt_float_to_reduced(MT_BFLOAT16, (float)v);
        break;
    }
}

static void
need_device(const fake_handle *h, const void *p, size_t bytes, const char *what)
{
    if (bytes > 0 && !emu_is_device_range(p, bytes, h->device)) {
        fprintf(stderr, "fake cuDNN: %s (%p, %zu bytes) is not inside device memory of device %d\n", what, p, bytes,
                h->device);
        abort();
    }
}

/* Every (x element, w element, y element) the convolution pairs, in one loop: pass 0 adds x * w into y,
 * 1 adds y * w into x, 2 adds x * y into w (sums in double, stored once, rounded to the data type). */
static int
convolve(int pass, fake_handle *h, const void *alpha, const fake_tensor *x, void *xp, const fake_tensor *w, void *wp,
         const fake_conv *c, int algo, void *workspace, size_t ws_size, const void *beta, const fake_tensor *y,
         void *yp)
{
    int st = check_conv(x, w, c, y);
    int s = x->n - 2, type = x->type;
    int64_t nx = count(x), nw = count(w), ny = count(y), out_n, kernel_n;
    double a, b, *acc;
    int cpg, opg;

    last_pass = pass;
    if (fail_next) {
        st = fail_next;
        fail_next = 0;
        return st;
    }
    if (st) {
        return st;
    }
    a = type == D_DOUBLE ? *(const double *)alpha : *(const float *)alpha;
    b = type == D_DOUBLE ? *(const double *)beta : *(const float *)beta;
    if (a != 1.0 || b != 0.0 || algo < 0 || algo > 2 || ws_size < workspace_of(algo)) {
        return ST_BAD_PARAM;
    }
    if (emu_current_device() != h->device) {
        fprintf(stderr, "fake cuDNN: a handle of device %d used while device %d is current\n", h->device,
                emu_current_device());
        abort();
    }
    need_device(h, xp, (size_t)nx * elem_size(type), "x");
    need_device(h, wp, (size_t)nw * elem_size(type), "w");
    need_device(h, yp, (size_t)ny * elem_size(type), "y");
    need_device(h, workspace, ws_size, "the workspace");
    last_algo = algo;
    last_math = c->math;
    last_compute = c->compute;
    last_workspace = ws_size;
    acc = calloc((size_t)(pass == 0 ? ny : pass == 1 ? nx : nw), sizeof(double));
    if (acc == NULL) {
        return 4000;
    }
    out_n = 1;
    kernel_n = 1;
    for (int i = 0; i < s; i++) {
        out_n *= y->dims[2 + i];
        kernel_n *= w->dims[2 + i];
    }
    cpg = w->dims[1];
    opg = w->dims[0] / c->groups;
    emu_device_access_begin(h->device);
    for (int n = 0; n < x->dims[0]; n++) {
        for (int o = 0; o < w->dims[0]; o++) {
            int g = o / opg;
            for (int ci = 0; ci < cpg; ci++) {
                int ch = g * cpg + ci;
                for (int64_t op = 0; op < out_n; op++) {
                    for (int64_t kp = 0; kp < kernel_n; kp++) {
                        int64_t xi = 0, rest_o = op, rest_k = kp, inside = 1, plane = 1;
                        int pos[3];
                        for (int d = s - 1; d >= 0; d--) {
                            int od = (int)(rest_o % y->dims[2 + d]), kd = (int)(rest_k % w->dims[2 + d]);
                            rest_o /= y->dims[2 + d];
                            rest_k /= w->dims[2 + d];
                            pos[d] = od * c->stride[d] - c->pad[d] + kd * c->dilation[d];
                            inside = inside && pos[d] >= 0 && pos[d] < x->dims[2 + d];
                        }
                        if (!inside) {
                            continue;
                        }
                        for (int d = s - 1; d >= 0; d--) {
                            xi += pos[d] * plane;
                            plane *= x->dims[2 + d];
                        }
                        xi += ((int64_t)n * x->dims[1] + ch) * plane;
                        {
                            int64_t wi = ((int64_t)o * cpg + ci) * kernel_n + kp;
                            int64_t yi = ((int64_t)n * y->dims[1] + o) * out_n + op;
                            if (pass == 0) {
                                acc[yi] += load(type, xp, xi) * load(type, wp, wi);
                            }
                            else if (pass == 1) {
                                acc[xi] += load(type, yp, yi) * load(type, wp, wi);
                            }
                            else {
                                acc[wi] += load(type, xp, xi) * load(type, yp, yi);
                            }
                        }
                    }
                }
            }
        }
    }
    {
        int64_t total = pass == 0 ? ny : pass == 1 ? nx : nw;
        void *dst = pass == 0 ? yp : pass == 1 ? xp : wp;
        for (int64_t i = 0; i < total; i++) {
            store(type, dst, i, acc[i]);
        }
    }
    emu_device_access_end();
    free(acc);
    return ST_SUCCESS;
}

int
cudnnConvolutionForward(void *h, const void *alpha, const fake_tensor *xd, const void *x, const fake_tensor *wd,
                        const void *w, const fake_conv *c, int algo, void *ws, size_t ws_size, const void *beta,
                        const fake_tensor *yd, void *y)
{
    return convolve(0, h, alpha, xd, (void *)x, wd, (void *)w, c, algo, ws, ws_size, beta, yd, y);
}

int
cudnnConvolutionBackwardData(void *h, const void *alpha, const fake_tensor *wd, const void *w, const fake_tensor *yd,
                             const void *dy, const fake_conv *c, int algo, void *ws, size_t ws_size, const void *beta,
                             const fake_tensor *xd, void *dx)
{
    return convolve(1, h, alpha, xd, dx, wd, (void *)w, c, algo, ws, ws_size, beta, yd, (void *)dy);
}

int
cudnnConvolutionBackwardFilter(void *h, const void *alpha, const fake_tensor *xd, const void *x, const fake_tensor *yd,
                               const void *dy, const fake_conv *c, int algo, void *ws, size_t ws_size,
                               const void *beta, const fake_tensor *wd, void *dw)
{
    return convolve(2, h, alpha, xd, (void *)x, wd, dw, c, algo, ws, ws_size, beta, yd, (void *)dy);
}
