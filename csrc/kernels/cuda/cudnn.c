/* cudnn.c: convolution on CUDA devices through cuDNN, loaded with dlopen at the first cuDNN convolution or
 * version query (so that importing minitorch never maps libcudnn, and a machine without it keeps
 * minitorch's own im2col convolution). It owns the library handle and its function pointers (declared
 * here by hand from cudnn_*.h's legacy convolution API, which cuDNN 8 and 9 both export: no cuDNN header
 * is needed to build), one cuDNN handle per device on its default stream (as cublas.c keeps cuBLAS's), a
 * cache of the algorithm chosen for each convolution (by cuDNN's heuristics, or by timing them when
 * torch.backends.cudnn.benchmark is on, as torch caches its choice per shape), and mt_cudnn_convolution
 * (cudnn.h): descriptors, the math type torch sets, an algorithm, its workspace from the device's caching
 * allocator, the call. Every cuDNN status becomes a status worded like torch's CUDNN_CHECK; it never raises
 * and includes no Python header. Called with the GIL held, which serialises the lazy set-up. */
#include "cudnn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/runtime.h"

static mt_cublas_path_fn path_hook = NULL;

void
mt_cudnn_set_path_hook(mt_cublas_path_fn hook)
{
    path_hook = hook;
}

#ifndef MINITORCH_WITH_CUDA

long
mt_cudnn_version(void)
{
    return 0;
}

int
mt_cudnn_convolution(mt_kctx *ctx, const mt_cudnn_conv *conv)
{
    (void)conv;
    return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "minitorch was built without CUDA: no cuDNN");
}

#else /* MINITORCH_WITH_CUDA */

#include <dlfcn.h>

/* ---- the few cuDNN declarations used (cudnn_ops.h, cudnn_cnn.h: the legacy API of cuDNN 8 and 9) ------ */

typedef struct cudnnContext *cudnnHandle_t;
typedef struct cudnnTensorStruct *cudnnTensorDescriptor_t;
typedef struct cudnnFilterStruct *cudnnFilterDescriptor_t;
typedef struct cudnnConvolutionStruct *cudnnConvolutionDescriptor_t;
typedef int cudnnStatus_t;

#define CUDNN_STATUS_SUCCESS 0
#define CUDNN_DATA_FLOAT 0              /* cudnnDataType_t */
#define CUDNN_DATA_DOUBLE 1
#define CUDNN_DATA_HALF 2
#define CUDNN_DATA_BFLOAT16 9
#define CUDNN_TENSOR_NCHW 0             /* cudnnTensorFormat_t */
#define CUDNN_CROSS_CORRELATION 1       /* cudnnConvolutionMode_t */
#define CUDNN_DEFAULT_MATH 0            /* cudnnMathType_t */
#define CUDNN_TENSOR_OP_MATH 1
#define CUDNN_FMA_MATH 3
#define CUDNN_DETERMINISTIC 1           /* cudnnDeterminism_t */

/* cudnnConvolutionFwdAlgoPerf_t, and the same layout for backward data and backward filter */
typedef struct {
    int algo;
    cudnnStatus_t status;
    float time;
    size_t memory;
    int determinism;
    int math_type;
    int reserved[3];
} algo_perf;

#define MAX_ALGOS 16

typedef cudnnStatus_t (*create_fn)(cudnnHandle_t *);
typedef cudnnStatus_t (*destroy_fn)(cudnnHandle_t);
typedef cudnnStatus_t (*set_stream_fn)(cudnnHandle_t, void *);
typedef size_t (*get_version_fn)(void);
typedef const char *(*error_string_fn)(cudnnStatus_t);
typedef cudnnStatus_t (*create_desc_fn)(void **);
typedef cudnnStatus_t (*destroy_desc_fn)(void *);
typedef cudnnStatus_t (*set_tensor_fn)(cudnnTensorDescriptor_t, int, int, const int *, const int *);
typedef cudnnStatus_t (*set_filter_fn)(cudnnFilterDescriptor_t, int, int, int, const int *);
typedef cudnnStatus_t (*set_conv_fn)(cudnnConvolutionDescriptor_t, int, const int *, const int *, const int *, int,
                                     int);
typedef cudnnStatus_t (*set_conv_int_fn)(cudnnConvolutionDescriptor_t, int);
/* the three passes' algorithm queries, workspace sizes and calls share one shape each: (handle, the two
 * operands' descriptors in the pass's order, the convolution, the result's descriptor, ...) */
typedef cudnnStatus_t (*get_algo_fn)(cudnnHandle_t, const void *, const void *, cudnnConvolutionDescriptor_t,
                                     const void *, int, int *, algo_perf *);
typedef cudnnStatus_t (*workspace_fn)(cudnnHandle_t, const void *, const void *, cudnnConvolutionDescriptor_t,
                                      const void *, int, size_t *);
typedef cudnnStatus_t (*run_fn)(cudnnHandle_t, const void *, const void *, const void *, const void *, const void *,
                                cudnnConvolutionDescriptor_t, int, void *, size_t, const void *, const void *, void *);

static struct {
    int tried;
    void *lib;
    long version;
    create_fn create;
    destroy_fn destroy;
    set_stream_fn set_stream;
    get_version_fn get_version;
    error_string_fn error_string;
    create_desc_fn create_tensor, create_filter, create_conv;
    destroy_desc_fn destroy_tensor, destroy_filter, destroy_conv;
    set_tensor_fn set_tensor;
    set_filter_fn set_filter;
    set_conv_fn set_conv;
    set_conv_int_fn set_groups, set_math;
    get_algo_fn heuristic[3], find[3];      /* indexed by mt_cudnn_pass */
    workspace_fn workspace[3];
    run_fn run[3];
} cudnn;

#define MAX_CUDNN_DEVICES 64

static cudnnHandle_t handles[MAX_CUDNN_DEVICES];

/* ---- loading ---------------------------------------------------------------------------------------- */

static int
try_open(const char *path)
{
    cudnn.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    return cudnn.lib != NULL;
}

/* The places a cuDNN may be, as cublas.c looks for cuBLAS: for libcudnn.so.9 and then .8, the loader's
 * search path, the toolkit and the nvidia-cudnn pip wheel that torch installs
 * (site-packages/nvidia/cudnn/lib); then libcudnn.so. The emulated-CUDA test build names its own
 * library (MINITORCH_CUDNN_LIBRARY) and looks nowhere else. */
static int
open_library(void)
{
#ifdef MINITORCH_CUDNN_LIBRARY
    return try_open(MINITORCH_CUDNN_LIBRARY);
#else
    static const char *const names[] = {"libcudnn.so.9", "libcudnn.so.8"};
    const char *cuda_home = getenv("CUDA_HOME");
    char path[1024], dir[768];
    int got;

    for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
        if (try_open(names[n])) {
            return 1;
        }
        if (cuda_home != NULL && cuda_home[0] != '\0') {
            snprintf(path, sizeof(path), "%s/lib64/%s", cuda_home, names[n]);
            if (try_open(path)) {
                return 1;
            }
        }
        snprintf(path, sizeof(path), "/usr/local/cuda/lib64/%s", names[n]);
        if (try_open(path)) {
            return 1;
        }
        for (size_t i = 0; path_hook != NULL && (got = path_hook(i, dir, sizeof(dir))) != 0; i++) {
            if (got < 0) {
                continue;
            }
            snprintf(path, sizeof(path), "%s/nvidia/cudnn/lib/%s", dir, names[n]);
            if (try_open(path)) {
                return 1;
            }
        }
    }
    return try_open("libcudnn.so");
#endif
}

/* Loads cuDNN once; 1 when it is there with every function this file calls. */
static int
load_cudnn(void)
{
    if (cudnn.tried) {
        return cudnn.lib != NULL;
    }
    cudnn.tried = 1;
    if (!open_library()) {
        return 0;
    }
#define SYM(FIELD, TYPE, NAME) cudnn.FIELD = (TYPE)dlsym(cudnn.lib, NAME)
    SYM(create, create_fn, "cudnnCreate");
    SYM(destroy, destroy_fn, "cudnnDestroy");
    SYM(set_stream, set_stream_fn, "cudnnSetStream");
    SYM(get_version, get_version_fn, "cudnnGetVersion");
    SYM(error_string, error_string_fn, "cudnnGetErrorString");
    SYM(create_tensor, create_desc_fn, "cudnnCreateTensorDescriptor");
    SYM(create_filter, create_desc_fn, "cudnnCreateFilterDescriptor");
    SYM(create_conv, create_desc_fn, "cudnnCreateConvolutionDescriptor");
    SYM(destroy_tensor, destroy_desc_fn, "cudnnDestroyTensorDescriptor");
    SYM(destroy_filter, destroy_desc_fn, "cudnnDestroyFilterDescriptor");
    SYM(destroy_conv, destroy_desc_fn, "cudnnDestroyConvolutionDescriptor");
    SYM(set_tensor, set_tensor_fn, "cudnnSetTensorNdDescriptor");
    SYM(set_filter, set_filter_fn, "cudnnSetFilterNdDescriptor");
    SYM(set_conv, set_conv_fn, "cudnnSetConvolutionNdDescriptor");
    SYM(set_groups, set_conv_int_fn, "cudnnSetConvolutionGroupCount");
    SYM(set_math, set_conv_int_fn, "cudnnSetConvolutionMathType");
    SYM(heuristic[MT_CUDNN_FORWARD], get_algo_fn, "cudnnGetConvolutionForwardAlgorithm_v7");
    SYM(heuristic[MT_CUDNN_BACKWARD_DATA], get_algo_fn, "cudnnGetConvolutionBackwardDataAlgorithm_v7");
    SYM(heuristic[MT_CUDNN_BACKWARD_FILTER], get_algo_fn, "cudnnGetConvolutionBackwardFilterAlgorithm_v7");
    SYM(find[MT_CUDNN_FORWARD], get_algo_fn, "cudnnFindConvolutionForwardAlgorithm");
    SYM(find[MT_CUDNN_BACKWARD_DATA], get_algo_fn, "cudnnFindConvolutionBackwardDataAlgorithm");
    SYM(find[MT_CUDNN_BACKWARD_FILTER], get_algo_fn, "cudnnFindConvolutionBackwardFilterAlgorithm");
    SYM(workspace[MT_CUDNN_FORWARD], workspace_fn, "cudnnGetConvolutionForwardWorkspaceSize");
    SYM(workspace[MT_CUDNN_BACKWARD_DATA], workspace_fn, "cudnnGetConvolutionBackwardDataWorkspaceSize");
    SYM(workspace[MT_CUDNN_BACKWARD_FILTER], workspace_fn, "cudnnGetConvolutionBackwardFilterWorkspaceSize");
    SYM(run[MT_CUDNN_FORWARD], run_fn, "cudnnConvolutionForward");
    SYM(run[MT_CUDNN_BACKWARD_DATA], run_fn, "cudnnConvolutionBackwardData");
    SYM(run[MT_CUDNN_BACKWARD_FILTER], run_fn, "cudnnConvolutionBackwardFilter");
#undef SYM
    {
        void *const needed[] = {
            (void *)cudnn.create, (void *)cudnn.destroy, (void *)cudnn.set_stream, (void *)cudnn.get_version,
            (void *)cudnn.error_string, (void *)cudnn.create_tensor, (void *)cudnn.create_filter,
            (void *)cudnn.create_conv, (void *)cudnn.destroy_tensor, (void *)cudnn.destroy_filter,
            (void *)cudnn.destroy_conv, (void *)cudnn.set_tensor, (void *)cudnn.set_filter, (void *)cudnn.set_conv,
            (void *)cudnn.set_groups, (void *)cudnn.set_math};
        int complete = 1;
        for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
            complete = complete && needed[i] != NULL;
        }
        for (int p = 0; p < 3; p++) {
            complete = complete && cudnn.heuristic[p] && cudnn.find[p] && cudnn.workspace[p] && cudnn.run[p];
        }
        if (!complete) {
            /* a cuDNN before 7 or a library of that name that is not cuDNN: as if there were none */
            dlclose(cudnn.lib);
            cudnn.lib = NULL;
            return 0;
        }
    }
    cudnn.version = (long)cudnn.get_version();
    return 1;
}

long
mt_cudnn_version(void)
{
    /* the simulated GPU's devices are host memory: there is no cuDNN for them */
    return !mt_simulated_requested() && load_cudnn() ? cudnn.version : 0;
}

/* ---- errors, worded like torch's CUDNN_CHECK ---------------------------------------------------------- */

static int
check(mt_kctx *ctx, cudnnStatus_t s)
{
    const char *text;

    if (s == CUDNN_STATUS_SUCCESS) {
        return 0;
    }
    text = cudnn.error_string(s);
    text = text != NULL ? text : "CUDNN_STATUS_UNKNOWN";
    if (strncmp(text, "CUDNN_STATUS_NOT_SUPPORTED", 26) == 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, s,
                              "cuDNN error: %s. This error may appear if you passed in a non-contiguous input.", text);
    }
    return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, s, "cuDNN error: %s", text);
}

static int
cuda_failed(mt_kctx *ctx, int err)
{
    const char *text = mt_cuda_runtime()->error_string(err);
    return mt_kstatus_set(&ctx->status, MT_KSTATUS_CUDA_ERROR, err, "%s", text != NULL ? text : "unknown error");
}

/* The device's handle, created at its first use on the default stream; device made current. */
static int
get_handle(mt_kctx *ctx, cudnnHandle_t *out)
{
    int device = ctx->device;
    int err;

    if (device < 0 || device >= MAX_CUDNN_DEVICES) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0,
                              "minitorch: cuDNN supports device indices below 64");
    }
    if (!load_cudnn()) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0,
                              "minitorch could not load cuDNN (libcudnn.so.9 or .8)");
    }
    err = mt_cuda_set_current_device(device);
    if (err != MT_RT_SUCCESS) {
        return cuda_failed(ctx, err);
    }
    if (handles[device] == NULL) {
        cudnnHandle_t h = NULL;
        if (check(ctx, cudnn.create(&h)) < 0) {
            return -1;
        }
        if (check(ctx, cudnn.set_stream(h, NULL)) < 0) {
            cudnn.destroy(h);
            return -1;
        }
        handles[device] = h;
    }
    *out = handles[device];
    return 0;
}

/* ---- the algorithm cache ------------------------------------------------------------------------------ */

/* A convolution's identity for its algorithm, as torch's ConvolutionParams: the pass, the dtype, the
 * shapes, the geometry, the math type and the settings that change the choice. */
typedef struct {
    int pass, dtype, dims, math, deterministic, benchmark, device;
    int64_t x[2 + MT_CUDNN_MAX_DIMS], w[2 + MT_CUDNN_MAX_DIMS];
    int64_t padding[MT_CUDNN_MAX_DIMS], stride[MT_CUDNN_MAX_DIMS], dilation[MT_CUDNN_MAX_DIMS], groups;
} algo_key;

#define ALGO_CACHE_SIZE 256

static struct {
    algo_key key;
    int algo;
} algo_cache[ALGO_CACHE_SIZE];
static int algo_cache_used, algo_cache_next;

static int
cached_algo(const algo_key *key)
{
    for (int i = 0; i < algo_cache_used; i++) {
        if (memcmp(&algo_cache[i].key, key, sizeof(*key)) == 0) {
            return algo_cache[i].algo;
        }
    }
    return -1;
}

static void
cache_algo(const algo_key *key, int algo)
{
    int i = algo_cache_used < ALGO_CACHE_SIZE ? algo_cache_used++ : algo_cache_next++ % ALGO_CACHE_SIZE;
    algo_cache[i].key = *key;
    algo_cache[i].algo = algo;
}

/* ---- mt_cudnn_convolution ----------------------------------------------------------------------------- */

typedef struct {
    cudnnTensorDescriptor_t x, y;
    cudnnFilterDescriptor_t w;
    cudnnConvolutionDescriptor_t conv;
} descriptors;

static void
destroy_descriptors(descriptors *d)
{
    if (d->x != NULL) {
        cudnn.destroy_tensor(d->x);
    }
    if (d->y != NULL) {
        cudnn.destroy_tensor(d->y);
    }
    if (d->w != NULL) {
        cudnn.destroy_filter(d->w);
    }
    if (d->conv != NULL) {
        cudnn.destroy_conv(d->conv);
    }
}

/* sizes as cuDNN's ints (a 1-d convolution is a 2-d one of height 1, as torch's), with contiguous
 * strides; -1 when a size does not fit */
static int
as_ints(const int64_t *sizes, int dims, int *out, int *strides)
{
    int n = 2 + (dims == 1 ? 2 : dims);
    int64_t stride = 1;

    for (int i = 0, j = 0; i < n; i++) {
        int64_t v = (dims == 1 && i == 2) ? 1 : sizes[j++];
        if (v < 0 || v > 0x7fffffff) {
            return -1;
        }
        out[i] = (int)v;
    }
    for (int i = n - 1; i >= 0; i--) {
        if (stride > 0x7fffffff) {
            return -1;
        }
        strides[i] = (int)stride;
        stride *= out[i] > 0 ? out[i] : 1;
    }
    return n;
}

static int
geometry_ints(const int64_t *values, int dims, int filler, int *out)
{
    int n = dims == 1 ? 2 : dims;

    for (int i = 0, j = 0; i < n; i++) {
        int64_t v = (dims == 1 && i == 0) ? filler : values[j++];
        if (v < 0 || v > 0x7fffffff) {
            return -1;
        }
        out[i] = (int)v;
    }
    return n;
}

/* torch's math type (ConvolutionDescriptor::set, aten/src/ATen/cudnn/Descriptors.h): tensor cores for
 * float16, FMA (no TF32) for float32 unless allow_tf32, cuDNN's default (TF32 where the GPU has it, for
 * float32) otherwise */
static int
math_type(const mt_cudnn_conv *c)
{
    if (c->dtype == MT_FLOAT16) {
        return CUDNN_TENSOR_OP_MATH;
    }
    if (c->dtype == MT_FLOAT32 && !c->allow_tf32) {
        return CUDNN_FMA_MATH;
    }
    return CUDNN_DEFAULT_MATH;
}

static int
describe(mt_kctx *ctx, const mt_cudnn_conv *c, descriptors *d)
{
    int xs[5], xst[5], ws[5], wst[5], ys[5], yst[5], pad[3], str[3], dil[3];
    int n, data, compute;

    switch (c->dtype) {
    case MT_FLOAT32:
        data = compute = CUDNN_DATA_FLOAT;
        break;
    case MT_FLOAT64:
        data = compute = CUDNN_DATA_DOUBLE;
        break;
    case MT_FLOAT16:
        data = CUDNN_DATA_HALF;
        compute = CUDNN_DATA_FLOAT;     /* torch computes 16-bit convolutions in float */
        break;
    case MT_BFLOAT16:
        data = CUDNN_DATA_BFLOAT16;
        compute = CUDNN_DATA_FLOAT;
        break;
    default:
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "cuDNN convolution: unsupported dtype");
    }
    if (c->dims < 1 || c->dims > MT_CUDNN_MAX_DIMS || c->groups < 1 || c->groups > 0x7fffffff) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "cuDNN convolution: bad geometry");
    }
    n = as_ints(c->x_size, c->dims, xs, xst);
    if (n < 0 || as_ints(c->w_size, c->dims, ws, wst) < 0 || as_ints(c->y_size, c->dims, ys, yst) < 0 ||
        geometry_ints(c->padding, c->dims, 0, pad) < 0 || geometry_ints(c->stride, c->dims, 1, str) < 0 ||
        geometry_ints(c->dilation, c->dims, 1, dil) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0,
                              "cuDNN convolution: a size or stride does not fit cuDNN's int");
    }
    if (check(ctx, cudnn.create_tensor((void **)&d->x)) < 0 || check(ctx, cudnn.create_tensor((void **)&d->y)) < 0 ||
        check(ctx, cudnn.create_filter((void **)&d->w)) < 0 || check(ctx, cudnn.create_conv((void **)&d->conv)) < 0) {
        return -1;
    }
    if (check(ctx, cudnn.set_tensor(d->x, data, n, xs, xst)) < 0 ||
        check(ctx, cudnn.set_tensor(d->y, data, n, ys, yst)) < 0 ||
        check(ctx, cudnn.set_filter(d->w, data, CUDNN_TENSOR_NCHW, n, ws)) < 0 ||
        check(ctx, cudnn.set_conv(d->conv, n - 2, pad, str, dil, CUDNN_CROSS_CORRELATION, compute)) < 0 ||
        check(ctx, cudnn.set_groups(d->conv, (int)c->groups)) < 0 ||
        check(ctx, cudnn.set_math(d->conv, math_type(c))) < 0) {
        return -1;
    }
    return 0;
}

/* The pass's operands in cuDNN's order: the two it reads (descriptor and data) and the one it writes. */
typedef struct {
    const void *a_desc, *a, *b_desc, *b, *out_desc;
    void *out;
} operands;

static void
pass_operands(const mt_cudnn_conv *c, const descriptors *d, operands *o)
{
    switch (c->pass) {
    case MT_CUDNN_FORWARD:          /* x, w -> y */
        *o = (operands){d->x, c->x, d->w, c->w, d->y, c->y};
        break;
    case MT_CUDNN_BACKWARD_DATA:    /* w, dy -> dx */
        *o = (operands){d->w, c->w, d->y, c->y, d->x, c->x};
        break;
    default:                        /* x, dy -> dw */
        *o = (operands){d->x, c->x, d->y, c->y, d->w, c->w};
        break;
    }
}

/* Runs the pass with the algorithm `algo` and its workspace from the caching allocator; 1 when the
 * workspace could not be had (the status cleared: the caller tries the next algorithm), 0 on success. */
static int
run_with(mt_kctx *ctx, cudnnHandle_t h, const mt_cudnn_conv *c, const descriptors *d, const operands *o, int algo,
         int last)
{
    size_t size = 0;
    void *workspace = NULL;
    double one_d = 1.0, zero_d = 0.0;
    float one_f = 1.0f, zero_f = 0.0f;
    const void *one = c->dtype == MT_FLOAT64 ? (const void *)&one_d : (const void *)&one_f;
    const void *zero = c->dtype == MT_FLOAT64 ? (const void *)&zero_d : (const void *)&zero_f;
    int rc;

    if (check(ctx, cudnn.workspace[c->pass](h, o->a_desc, o->b_desc, d->conv, o->out_desc, algo, &size)) < 0) {
        return -1;
    }
    if (size > 0 && ctx->scratch_alloc(ctx->device, size, &workspace, &ctx->status) < 0) {
        if (last || ctx->status.kind != MT_KSTATUS_OUT_OF_MEMORY) {
            return -1;
        }
        memset(&ctx->status, 0, sizeof(ctx->status));
        return 1;
    }
    rc = check(ctx, cudnn.run[c->pass](h, one, o->a_desc, o->a, o->b_desc, o->b, d->conv, algo, workspace, size, zero,
                                       o->out_desc, o->out));
    if (workspace != NULL) {
        ctx->scratch_free(ctx->device, workspace);
    }
    return rc;
}

int
mt_cudnn_convolution(mt_kctx *ctx, const mt_cudnn_conv *c)
{
    descriptors d = {NULL, NULL, NULL, NULL};
    operands o;
    algo_perf perf[MAX_ALGOS];
    algo_key key;
    cudnnHandle_t h = NULL;
    int count = 0, algo, rc = -1;

    if (get_handle(ctx, &h) < 0 || describe(ctx, c, &d) < 0) {
        goto done;
    }
    pass_operands(c, &d, &o);
    memset(&key, 0, sizeof(key));
    key.pass = c->pass;
    key.dtype = c->dtype;
    key.dims = c->dims;
    key.math = math_type(c);
    key.deterministic = c->deterministic != 0;
    key.benchmark = c->benchmark != 0;
    key.device = ctx->device;
    memcpy(key.x, c->x_size, sizeof(int64_t) * (size_t)(2 + c->dims));
    memcpy(key.w, c->w_size, sizeof(int64_t) * (size_t)(2 + c->dims));
    memcpy(key.padding, c->padding, sizeof(int64_t) * (size_t)c->dims);
    memcpy(key.stride, c->stride, sizeof(int64_t) * (size_t)c->dims);
    memcpy(key.dilation, c->dilation, sizeof(int64_t) * (size_t)c->dims);
    key.groups = c->groups;
    algo = cached_algo(&key);
    if (algo >= 0) {
        rc = run_with(ctx, h, c, &d, &o, algo, 1);
        goto done;
    }
    /* cuDNN's ranking (heuristics, or the measured times under benchmark), best first; torch's choice
     * is the first that succeeded, is deterministic when asked to be, and whose workspace can be had */
    if (check(ctx, (key.benchmark ? cudnn.find : cudnn.heuristic)[c->pass](h, o.a_desc, o.b_desc, d.conv,
                                                                             o.out_desc, MAX_ALGOS, &count, perf)) < 0) {
        goto done;
    }
    for (int i = 0; i < count; i++) {
        int last = 1;
        if (perf[i].status != CUDNN_STATUS_SUCCESS || (key.deterministic && perf[i].determinism != CUDNN_DETERMINISTIC)) {
            continue;
        }
        for (int j = i + 1; j < count; j++) {
            if (perf[j].status == CUDNN_STATUS_SUCCESS &&
                (!key.deterministic || perf[j].determinism == CUDNN_DETERMINISTIC)) {
                last = 0;
            }
        }
        rc = run_with(ctx, h, c, &d, &o, perf[i].algo, last);
        if (rc == 0) {
            cache_algo(&key, perf[i].algo);
        }
        if (rc <= 0) {
            goto done;
        }
    }
    rc = mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0,
                        "Unable to find a valid cuDNN algorithm to run convolution");
done:
    destroy_descriptors(&d);
    return rc < 0 ? -1 : rc;
}

#endif /* MINITORCH_WITH_CUDA */
