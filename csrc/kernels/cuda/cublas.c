/* cublas.c: matrix products on CUDA devices through cuBLAS, loaded with dlopen at the first CUDA matmul
 * (so that importing minitorch never maps libcublas, and a machine without it can still import and use
 * everything else). It owns the library handle and its function pointers (declared here by hand: no
 * cuBLAS header is needed to build), one cuBLAS handle per device with its workspace taken from the
 * device's caching allocator through the call context, as torch does (so memory_allocated() after the
 * first CUDA matmul includes it), the switches of torch.backends.cuda.matmul (TF32, the float16 and
 * bfloat16 reduction settings, float16 accumulation), and mt_cuda_gemm (cublas.h): the translation of a
 * strided row-major product into cuBLAS's column-major calls, float16 and bfloat16 ones through
 * cublasGemmEx as torch's CUDABlas.cpp makes them. Every cuBLAS status becomes a status
 * worded like torch's errors; it never raises and includes no Python header. The cuda backend is
 * called with the GIL held, which also serialises the lazy set-up; cuBLAS calls only queue work on the
 * device's default stream. */
#include "cublas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/runtime.h"
#include "cuda_kernels.h"

/* torch.backends.cuda.matmul.allow_tf32: off by default, as in torch */
static int allow_tf32 = 0;

/* torch.backends.cuda.matmul's 16-bit settings, torch's defaults: reduced-precision reductions and
 * split-k allowed (index 0 float16, 1 bfloat16: torch's CuBLASReductionOption as its two flags), float16
 * accumulation off */
static int allow_reduced_precision[2] = {1, 1};
static int allow_splitk[2] = {1, 1};
static int allow_fp16_accumulation = 0;

static mt_cublas_path_fn path_hook = NULL;

void
mt_cublas_set_path_hook(mt_cublas_path_fn hook)
{
    path_hook = hook;
}

void
mt_cuda_set_allow_tf32(int allow)
{
    allow_tf32 = allow != 0;
}

int
mt_cuda_get_allow_tf32(void)
{
    return allow_tf32;
}

int
mt_cuda_set_reduced_precision_reduction(mt_dtype dtype, int allow_reduced, int splitk)
{
    int i = dtype == MT_BFLOAT16;

    if (allow_reduced && !splitk) {
        return -1;
    }
    allow_reduced_precision[i] = allow_reduced != 0;
    allow_splitk[i] = splitk != 0;
    return 0;
}

void
mt_cuda_get_reduced_precision_reduction(mt_dtype dtype, int *allow_reduced, int *splitk)
{
    int i = dtype == MT_BFLOAT16;

    *allow_reduced = allow_reduced_precision[i];
    *splitk = allow_splitk[i];
}

void
mt_cuda_set_allow_fp16_accumulation(int allow)
{
    allow_fp16_accumulation = allow != 0;
}

int
mt_cuda_get_allow_fp16_accumulation(void)
{
    return allow_fp16_accumulation;
}

#ifndef MINITORCH_WITH_CUDA

const char *
mt_cublas_version_string(void)
{
    return "";
}

#else /* MINITORCH_WITH_CUDA */

#include <dlfcn.h>

/* ---- the few cuBLAS declarations used (cublas_api.h, stable since CUDA 11) ----------------------- */

typedef struct cublas_context *cublasHandle_t;
typedef int cublasStatus_t;
typedef int cublasOperation_t;
typedef int cublasMath_t;

#define CUBLAS_STATUS_SUCCESS 0
#define CUBLAS_OP_N 0
#define CUBLAS_OP_T 1
#define CUBLAS_DEFAULT_MATH 0
#define CUBLAS_TF32_TENSOR_OP_MATH 3
#define CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION 16
#define CUDA_R_32F 0                    /* cudaDataType_t (library_types.h) */
#define CUDA_R_16F 2
#define CUDA_R_16BF 14
#define CUBLAS_COMPUTE_16F 64           /* cublasComputeType_t: the C ABI's values (the cudaDataType_t ones
                                           torch passes go through cuBLAS's C++ overloads, which map them) */
#define CUBLAS_COMPUTE_32F 68
#define CUBLAS_GEMM_DEFAULT_TENSOR_OP 99
#define CUBLAS_PROPERTY_MAJOR 0 /* libraryPropertyType: MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL */
#define CUBLAS_PROPERTY_MINOR 1
#define CUBLAS_PROPERTY_PATCH 2

typedef cublasStatus_t (*create_fn)(cublasHandle_t *);
typedef cublasStatus_t (*destroy_fn)(cublasHandle_t);
typedef cublasStatus_t (*set_stream_fn)(cublasHandle_t, void *);
typedef cublasStatus_t (*set_math_mode_fn)(cublasHandle_t, cublasMath_t);
typedef cublasStatus_t (*set_workspace_fn)(cublasHandle_t, void *, size_t);
typedef cublasStatus_t (*sgemm_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float *,
                                   const float *, int, const float *, int, const float *, float *, int);
typedef cublasStatus_t (*dgemm_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                   const double *, const double *, int, const double *, int, const double *,
                                   double *, int);
typedef cublasStatus_t (*sgemm_batched_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                           const float *, const float *, int, long long, const float *, int,
                                           long long, const float *, float *, int, long long, int);
typedef cublasStatus_t (*dgemm_batched_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                           const double *, const double *, int, long long, const double *, int,
                                           long long, const double *, double *, int, long long, int);
typedef cublasStatus_t (*gemm_ex_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
                                     const void *, int, int, const void *, int, int, const void *, void *, int, int,
                                     int, int);
typedef cublasStatus_t (*gemm_ex_batched_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                             const void *, const void *, int, int, long long, const void *, int, int,
                                             long long, const void *, void *, int, int, long long, int, int, int);
typedef cublasStatus_t (*get_version_fn)(cublasHandle_t, int *);
typedef cublasStatus_t (*get_property_fn)(int, int *);
typedef const char *(*status_string_fn)(cublasStatus_t);

static struct {
    int tried;
    void *lib;
    char error[1024];
    char version[32];
    create_fn create;
    destroy_fn destroy;
    set_stream_fn set_stream;
    set_math_mode_fn set_math_mode;
    set_workspace_fn set_workspace;
    sgemm_fn sgemm;
    dgemm_fn dgemm;
    sgemm_batched_fn sgemm_batched;
    dgemm_batched_fn dgemm_batched;
    gemm_ex_fn gemm_ex;
    gemm_ex_batched_fn gemm_ex_batched;
    get_version_fn get_version;
    get_property_fn get_property;       /* optional */
    status_string_fn status_string;     /* optional (cuBLAS >= 11.4) */
} cublas;

#define MAX_BLAS_DEVICES 64

typedef struct {
    cublasHandle_t handle;
    int ready;
    int major;      /* the device's compute capability (float16 accumulation needs 7 or more) */
} device_blas;

static device_blas blas[MAX_BLAS_DEVICES];

/* ---- loading ---------------------------------------------------------------------------------------- */

static int
cuda_major(void)
{
    return atoi(MINITORCH_CUDA_VERSION); /* "12.8" -> 12 */
}

static int
try_open(const char *path)
{
    cublas.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    return cublas.lib != NULL;
}

/* The places cuBLAS of this build's major version may be: the loader's search path, the toolkit, and
 * the nvidia-cublas pip wheel that torch installs (site-packages/nvidia/cublas/lib). */
static int
open_library(char *tried, size_t len)
{
    char name[64], path[1024];
    const char *cuda_home = getenv("CUDA_HOME");
    size_t used = 0;
    char dir[768];
    int got;

    snprintf(name, sizeof(name), "libcublas.so.%d", cuda_major());
#define TRY(P)                                                                                              \
    do {                                                                                                    \
        if (try_open(P)) {                                                                                  \
            return 1;                                                                                       \
        }                                                                                                   \
        if (used < len) {                                                                                   \
            used += (size_t)snprintf(tried + used, len - used, "%s%s", used ? ", " : "", P);                  \
        }                                                                                                   \
    } while (0)
    TRY(name);
    if (cuda_home != NULL && cuda_home[0] != '\0') {
        snprintf(path, sizeof(path), "%s/lib64/%s", cuda_home, name);
        TRY(path);
    }
    snprintf(path, sizeof(path), "/usr/local/cuda/lib64/%s", name);
    TRY(path);
    for (size_t i = 0; path_hook != NULL && (got = path_hook(i, dir, sizeof(dir))) != 0; i++) {
        if (got < 0) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/nvidia/cublas/lib/%s", dir, name);
        if (try_open(path)) {
            return 1;
        }
    }
    TRY("libcublas.so");
#undef TRY
    return 0;
}

/* Loads cuBLAS once; 0, or -1 with a RuntimeError status naming what was tried. */
static int
load_cublas(mt_kstatus *st)
{
    char tried[768];

    if (cublas.lib != NULL) {
        return 0;
    }
    if (!cublas.tried) {
        cublas.tried = 1;
        tried[0] = '\0';
        if (!open_library(tried, sizeof(tried))) {
            const char *why = dlerror();
            snprintf(cublas.error, sizeof(cublas.error),
                     "minitorch could not load cuBLAS, which CUDA matmul needs (tried %s): %s. Install cuBLAS "
                     "for CUDA %d (the CUDA toolkit, or pip install nvidia-cublas-cu%d) or add its directory to "
                     "LD_LIBRARY_PATH.",
                     tried, why ? why : "not found", cuda_major(), cuda_major());
        }
        else {
#define SYM(FIELD, TYPE, NAME) cublas.FIELD = (TYPE)dlsym(cublas.lib, NAME)
            SYM(create, create_fn, "cublasCreate_v2");
            SYM(destroy, destroy_fn, "cublasDestroy_v2");
            SYM(set_stream, set_stream_fn, "cublasSetStream_v2");
            SYM(set_math_mode, set_math_mode_fn, "cublasSetMathMode");
            SYM(set_workspace, set_workspace_fn, "cublasSetWorkspace_v2");
            SYM(sgemm, sgemm_fn, "cublasSgemm_v2");
            SYM(dgemm, dgemm_fn, "cublasDgemm_v2");
            SYM(sgemm_batched, sgemm_batched_fn, "cublasSgemmStridedBatched");
            SYM(dgemm_batched, dgemm_batched_fn, "cublasDgemmStridedBatched");
            SYM(gemm_ex, gemm_ex_fn, "cublasGemmEx");
            SYM(gemm_ex_batched, gemm_ex_batched_fn, "cublasGemmStridedBatchedEx");
            SYM(get_version, get_version_fn, "cublasGetVersion_v2");
            SYM(get_property, get_property_fn, "cublasGetProperty");
            SYM(status_string, status_string_fn, "cublasGetStatusString");
#undef SYM
            if (!cublas.create || !cublas.destroy || !cublas.set_stream || !cublas.set_math_mode ||
                !cublas.set_workspace || !cublas.sgemm || !cublas.dgemm || !cublas.sgemm_batched ||
                !cublas.dgemm_batched || !cublas.gemm_ex || !cublas.gemm_ex_batched || !cublas.get_version) {
                snprintf(cublas.error, sizeof(cublas.error),
                         "minitorch loaded a cuBLAS that lacks functions it needs (libcublas.so.%d is too old)",
                         cuda_major());
                dlclose(cublas.lib);
                cublas.lib = NULL;
            }
        }
    }
    if (cublas.lib == NULL) {
        return mt_kstatus_set(st, MT_KSTATUS_RUNTIME_ERROR, 0, "%s", cublas.error);
    }
    return 0;
}

const char *
mt_cublas_version_string(void)
{
    int major = 0, minor = 0, patch = 0;
    mt_kstatus ignored;

    if (cublas.version[0] != '\0') {
        return cublas.version;
    }
    if (load_cublas(&ignored) < 0) {
        return "";
    }
    if (cublas.get_property != NULL && cublas.get_property(CUBLAS_PROPERTY_MAJOR, &major) == CUBLAS_STATUS_SUCCESS &&
        cublas.get_property(CUBLAS_PROPERTY_MINOR, &minor) == CUBLAS_STATUS_SUCCESS &&
        cublas.get_property(CUBLAS_PROPERTY_PATCH, &patch) == CUBLAS_STATUS_SUCCESS) {
        snprintf(cublas.version, sizeof(cublas.version), "%d.%d.%d", major, minor, patch);
    }
    return cublas.version;
}

/* ---- errors, worded like torch's TORCH_CUDABLAS_CHECK ----------------------------------------------- */

static const char *
status_name(cublasStatus_t s)
{
    switch (s) {
    case 0:
        return "CUBLAS_STATUS_SUCCESS";
    case 1:
        return "CUBLAS_STATUS_NOT_INITIALIZED";
    case 3:
        return "CUBLAS_STATUS_ALLOC_FAILED";
    case 7:
        return "CUBLAS_STATUS_INVALID_VALUE";
    case 8:
        return "CUBLAS_STATUS_ARCH_MISMATCH";
    case 11:
        return "CUBLAS_STATUS_MAPPING_ERROR";
    case 13:
        return "CUBLAS_STATUS_EXECUTION_FAILED";
    case 14:
        return "CUBLAS_STATUS_INTERNAL_ERROR";
    case 15:
        return "CUBLAS_STATUS_NOT_SUPPORTED";
    case 16:
        return "CUBLAS_STATUS_LICENSE_ERROR";
    default:
        return "<unknown>";
    }
}

static int
blas_check(mt_kctx *ctx, cublasStatus_t s, const char *call)
{
    if (s == CUBLAS_STATUS_SUCCESS) {
        return 0;
    }
    return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, s, "CUDA error: %s when calling `%s`", status_name(s),
                          call);
}

/* A failed CUDA runtime call as a status. */
static int
cuda_failed(mt_kctx *ctx, int err)
{
    const char *text = mt_cuda_runtime()->error_string(err);
    return mt_kstatus_set(&ctx->status, MT_KSTATUS_CUDA_ERROR, err, "%s", text != NULL ? text : "unknown error");
}

/* ---- handles and workspaces ------------------------------------------------------------------------- */

/* torch's parseChosenWorkspaceSize (aten/src/ATen/cuda/CublasHandlePool.cpp): every ":SIZE:COUNT" in
 * CUBLAS_WORKSPACE_CONFIG adds SIZE KiB times COUNT; unset, 32 MiB on Hopper and Blackwell (major 9 to
 * 12) and 4096 KiB * 2 + 16 KiB * 8 = 8519680 bytes elsewhere; unparseable, the default with a warning. */
static void
workspace_size(mt_kctx *ctx, int major, size_t *size)
{
    const char *config = getenv("CUBLAS_WORKSPACE_CONFIG");
    size_t default_size;
    size_t total = 0;
    int matched = 0;

    default_size = (major >= 9 && major <= 12) ? (size_t)4096 * 8 * 1024
                                                 : (size_t)4096 * 1024 * 2 + (size_t)16 * 1024 * 8;
    if (config == NULL) {
        *size = default_size;
        return;
    }
    for (const char *s = config; *s != '\0'; s++) {
        /* the regex ":([0-9]+):([0-9]+)", searched left to right */
        const char *p = s;
        unsigned long long kib = 0, count = 0;
        int digits1 = 0, digits2 = 0;
        if (*p != ':') {
            continue;
        }
        for (p++; *p >= '0' && *p <= '9'; p++, digits1++) {
            kib = kib * 10 + (unsigned long long)(*p - '0');
        }
        if (digits1 == 0 || *p != ':') {
            continue;
        }
        for (p++; *p >= '0' && *p <= '9'; p++, digits2++) {
            count = count * 10 + (unsigned long long)(*p - '0');
        }
        if (digits2 == 0) {
            continue;
        }
        total += (size_t)(kib * 1024 * count);
        matched = 1;
        s = p - 1;
    }
    if (!matched) {
        snprintf(ctx->status.warning, sizeof(ctx->status.warning),
                 "Could not parse CUBLAS_WORKSPACE_CONFIG, using default workspace size of %zu bytes.", default_size);
        total = default_size;
    }
    *size = total;
}

/* The device's handle, created at its first use with its workspace, in the math mode torch's
 * getCurrentCUDABlasHandle sets (TF32 or the default); device made current. */
static int
get_handle(mt_kctx *ctx, device_blas **out)
{
    int device = ctx->device;
    device_blas *b;
    int err;

    if (device < 0 || device >= MAX_BLAS_DEVICES) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0,
                              "minitorch: cuBLAS supports device indices below 64");
    }
    if (load_cublas(&ctx->status) < 0) {
        return -1;
    }
    err = mt_cuda_set_current_device(device);
    if (err != MT_RT_SUCCESS) {
        return cuda_failed(ctx, err);
    }
    b = &blas[device];
    if (!b->ready) {
        size_t size = 0;
        void *workspace = NULL;
        cublasHandle_t h = NULL;
        mt_device_properties props;
        if (blas_check(ctx, cublas.create(&h), "cublasCreate(handle)") < 0) {
            return -1;
        }
        memset(&props, 0, sizeof(props));
        mt_cuda_runtime()->get_properties(device, &props);
        workspace_size(ctx, props.major, &size);
        /* kept for the life of the process, as torch keeps its workspace per handle and stream */
        if (size > 0 && ctx->scratch_alloc(device, size, &workspace, &ctx->status) < 0) {
            cublas.destroy(h);
            return -1;
        }
        if (blas_check(ctx, cublas.set_workspace(h, workspace, size), "cublasSetWorkspace(handle, workspace, size)") < 0 ||
            blas_check(ctx, cublas.set_stream(h, NULL), "cublasSetStream(handle, stream)") < 0) {
            if (workspace != NULL) {
                ctx->scratch_free(device, workspace);
            }
            cublas.destroy(h);
            return -1;
        }
        b->handle = h;
        b->major = props.major;
        b->ready = 1;
        err = mt_cuda_set_current_device(device);
        if (err != MT_RT_SUCCESS) {
            return cuda_failed(ctx, err);
        }
    }
    if (blas_check(ctx, cublas.set_math_mode(b->handle, allow_tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
                   allow_tf32 ? "cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH)"
                              : "cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH)") < 0) {
        return -1;
    }
    *out = b;
    return 0;
}

/* ---- mt_cuda_gemm ----------------------------------------------------------------------------------- */

/* A logical matrix (rows x cols, element strides rs, cs) as cuBLAS can read it: a column-major matrix
 * with leading dimension ld, either as it is (op N: M[r][c] = p[r + c*ld]) or transposed (op T:
 * M[r][c] = p[c + r*ld]). The stride of a size-1 dim means nothing and is ignored. 0 when the layout
 * has no unit stride (a slice with steps, a broadcast), which the caller packs first. */
typedef struct {
    int op;
    int64_t ld;
} blas_layout;

static int
blas_layout_of(int64_t rows, int64_t cols, int64_t rs, int64_t cs, blas_layout *out)
{
    int64_t min_n = rows > 1 ? rows : 1;
    int64_t min_t = cols > 1 ? cols : 1;
    if (rows == 1 || rs == 1) {
        int64_t ld = cols == 1 ? min_n : cs;
        if (ld >= min_n) {
            out->op = CUBLAS_OP_N;
            out->ld = ld;
            return 1;
        }
    }
    if (cols == 1 || cs == 1) {
        int64_t ld = rows == 1 ? min_t : rs;
        if (ld >= min_t) {
            out->op = CUBLAS_OP_T;
            out->ld = ld;
            return 1;
        }
    }
    return 0;
}

/* One operand of a batched product: base pointer, matrix strides, batch strides (elements). */
typedef struct {
    char *ptr;
    int64_t rs, cs;
    int64_t bs[MT_GEMM_MAX_BATCH_DIMS];
} operand;

/* Copies between a strided operand and a packed one (row-major, broadcast batch dims kept at stride 0
 * and size 1) with the cast kernel; to_packed selects the direction. */
static int
strided_copy(mt_kctx *ctx, mt_dtype dtype, int nbatch, const int64_t *batch_sizes, int64_t rows, int64_t cols,
             const operand *strided, const operand *packed, int to_packed)
{
    mt_iter g;
    int64_t size = (int64_t)mt_dtype_size(dtype);
    int n = 0;
    const operand *dst = to_packed ? packed : strided;
    const operand *src = to_packed ? strided : packed;

    memset(&g, 0, sizeof(g));
    g.nops = 2;
    g.data[0] = dst->ptr;
    g.data[1] = src->ptr;
    /* innermost first: cols, rows, then the batch dims from the innermost out */
    g.shape[n] = cols;
    g.strides[0][n] = dst->cs * size;
    g.strides[1][n] = src->cs * size;
    n++;
    g.shape[n] = rows;
    g.strides[0][n] = dst->rs * size;
    g.strides[1][n] = src->rs * size;
    n++;
    for (int d = nbatch - 1; d >= 0; d--) {
        g.shape[n] = packed->bs[d] == 0 ? 1 : batch_sizes[d];
        g.strides[0][n] = dst->bs[d] * size;
        g.strides[1][n] = src->bs[d] * size;
        n++;
    }
    g.ndim = n;
    g.numel = 1;
    for (int d = 0; d < n; d++) {
        g.numel *= g.shape[d];
    }
    {
        int err = mt_cuda_launch_cast(ctx->device, &g, dtype, dtype);
        return err == MT_RT_SUCCESS ? 0 : cuda_failed(ctx, err);
    }
}

/* A packed copy of `op` in fresh device memory (the caller gives it back with ctx->scratch_free). */
static int
pack(mt_kctx *ctx, mt_dtype dtype, int nbatch, const int64_t *batch_sizes, int64_t rows, int64_t cols, const operand *op,
     operand *out, void **mem, int copy_in)
{
    int64_t stride = rows * cols;
    size_t size = mt_dtype_size(dtype);
    int64_t elements = rows * cols;

    out->rs = cols;
    out->cs = 1;
    for (int d = nbatch - 1; d >= 0; d--) {
        if (op->bs[d] == 0) {
            out->bs[d] = 0;
        }
        else {
            out->bs[d] = stride;
            stride *= batch_sizes[d];
            elements *= batch_sizes[d];
        }
    }
    if (ctx->scratch_alloc(ctx->device, (size_t)elements * size, mem, &ctx->status) < 0) {
        return -1;
    }
    out->ptr = *mem;
    return copy_in ? strided_copy(ctx, dtype, nbatch, batch_sizes, rows, cols, op, out, 1) : 0;
}

static int
fits_int(int64_t v)
{
    return v >= 0 && v <= 0x7fffffff;
}

/* The cuBLAS calls of one product in cuBLAS's column-major terms: Z (m x n) = op(X) op(Y), for `count`
 * matrices sx, sy and sz elements apart. */
typedef struct {
    cublasOperation_t opx, opy;
    int m, n, k;
    const char *x, *y;
    char *z;
    int ldx, ldy, ldz;
    long long sx, sy, sz;
    int count;
} blas_call;

/* float32 and float64: cublasSgemm and cublasDgemm, their strided-batched forms for a batch */
static int
call_float(mt_kctx *ctx, cublasHandle_t h, mt_dtype dtype, const blas_call *c)
{
    cublasStatus_t s;

    if (dtype == MT_FLOAT32) {
        const float one = 1.0f, zero = 0.0f;
        if (c->count == 1) {
            s = cublas.sgemm(h, c->opx, c->opy, c->m, c->n, c->k, &one, (const float *)c->x, c->ldx,
                             (const float *)c->y, c->ldy, &zero, (float *)c->z, c->ldz);
            return blas_check(ctx, s, "cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)");
        }
        s = cublas.sgemm_batched(h, c->opx, c->opy, c->m, c->n, c->k, &one, (const float *)c->x, c->ldx, c->sx,
                                 (const float *)c->y, c->ldy, c->sy, &zero, (float *)c->z, c->ldz, c->sz, c->count);
        return blas_check(ctx, s, "cublasSgemmStridedBatched( handle, opa, opb, m, n, k, &alpha, a, lda, stridea, "
                                  "b, ldb, strideb, &beta, c, ldc, stridec, num_batches)");
    }
    {
        const double one = 1.0, zero = 0.0;
        if (c->count == 1) {
            s = cublas.dgemm(h, c->opx, c->opy, c->m, c->n, c->k, &one, (const double *)c->x, c->ldx,
                             (const double *)c->y, c->ldy, &zero, (double *)c->z, c->ldz);
            return blas_check(ctx, s, "cublasDgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)");
        }
        s = cublas.dgemm_batched(h, c->opx, c->opy, c->m, c->n, c->k, &one, (const double *)c->x, c->ldx, c->sx,
                                 (const double *)c->y, c->ldy, c->sy, &zero, (double *)c->z, c->ldz, c->sz, c->count);
        return blas_check(ctx, s, "cublasDgemmStridedBatched( handle, opa, opb, m, n, k, &alpha, a, lda, stridea, "
                                  "b, ldb, strideb, &beta, c, ldc, stridec, num_batches)");
    }
}

/* float16 and bfloat16, as torch's gemm_internal_cublas_half_helper and _bfloat16_helper (CUDABlas.cpp)
 * and their batched bgemm forms call cuBLAS: cublasGemmEx (cublasGemmStridedBatchedEx for a batch) on
 * the 16-bit data, C of their dtype or float32, float32 alpha, beta and accumulation (float16 ones with
 * `half_compute`), algorithm CUBLAS_GEMM_DEFAULT_TENSOR_OP. A failure names torch's call as it is
 * written for each dtype. */
static int
call_reduced(mt_kctx *ctx, cublasHandle_t h, mt_dtype dtype, mt_dtype c_dtype, int half_compute, const blas_call *c)
{
    const float one = 1.0f, zero = 0.0f;
    const uint16_t half_one = mt_float_to_half(1.0f), half_zero = mt_float_to_half(0.0f);
    const void *alpha = half_compute ? (const void *)&half_one : (const void *)&one;
    const void *beta = half_compute ? (const void *)&half_zero : (const void *)&zero;
    int ab_type = dtype == MT_FLOAT16 ? CUDA_R_16F : CUDA_R_16BF;
    int c_type = c_dtype == MT_FLOAT32 ? CUDA_R_32F : ab_type;
    int compute = half_compute ? CUBLAS_COMPUTE_16F : CUBLAS_COMPUTE_32F;
    cublasStatus_t s;

    if (c->count == 1) {
        s = cublas.gemm_ex(h, c->opx, c->opy, c->m, c->n, c->k, alpha, c->x, ab_type, c->ldx, c->y, ab_type, c->ldy,
                           beta, c->z, c_type, c->ldz, compute, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
        return blas_check(ctx, s,
                          dtype == MT_FLOAT16
                              ? "cublasGemmEx( handle, opa, opb, m, n, k, alpha_ptr, a, CUDA_R_16F, lda, b, CUDA_R_16F, "
                                "ldb, beta_ptr, c, std::is_same_v<C_Dtype, float> ? CUDA_R_32F : CUDA_R_16F, ldc, "
                                "compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)"
                              : "cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, "
                                "ldb, &fbeta, c, std::is_same_v<C_Dtype, float> ? CUDA_R_32F : CUDA_R_16BF, ldc, "
                                "compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)");
    }
    s = cublas.gemm_ex_batched(h, c->opx, c->opy, c->m, c->n, c->k, alpha, c->x, ab_type, c->ldx, c->sx, c->y, ab_type,
                               c->ldy, c->sy, beta, c->z, c_type, c->ldz, c->sz, c->count, compute,
                               CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    return blas_check(ctx, s,
                      dtype == MT_FLOAT16
                          ? "cublasGemmStridedBatchedEx( handle, opa, opb, m, n, k, alpha_ptr, a, CUDA_R_16F, lda, "
                            "stridea, b, CUDA_R_16F, ldb, strideb, beta_ptr, c, std::is_same_v<C_Dtype, float> ? "
                            "CUDA_R_32F : CUDA_R_16F, ldc, stridec, num_batches, compute_type, "
                            "CUBLAS_GEMM_DEFAULT_TENSOR_OP)"
                          : "cublasGemmStridedBatchedEx(handle, opa, opb, (int)m, (int)n, (int)k, (void*)&falpha, a, "
                            "CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, strideb, (void*)&fbeta, c, "
                            "std::is_same_v<C_Dtype, float> ? CUDA_R_32F : CUDA_R_16BF, (int)ldc, stridec, "
                            "(int)num_batches, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)");
}

/* torch's GEMM helpers for float16 and bfloat16 (not its batched ones) set the math mode around the call
 * from the dtype's reduction setting: reduced-precision reductions disallowed unless allowed with
 * split-k, and without split-k no cuBLAS GEMM at all (torch's error, in its float16 wording for both). */
static int
set_reduction_math_mode(mt_kctx *ctx, cublasHandle_t h, mt_dtype dtype)
{
    int i = dtype == MT_BFLOAT16;
    cublasMath_t mode = CUBLAS_DEFAULT_MATH;

    if (!allow_reduced_precision[i] && !allow_splitk[i]) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0,
                              "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction(..., "
                              "allow_splitk=False) requires the cuBLASLt backend");
    }
    if (!allow_reduced_precision[i]) {
        mode |= CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    }
    return blas_check(ctx, cublas.set_math_mode(h, mode), "cublasSetMathMode(handle, cublas_flags)");
}

static int
gemm_dtypes_taken(const mt_gemm_desc *d)
{
    if (d->dtype == MT_FLOAT32 || d->dtype == MT_FLOAT64) {
        return d->c_dtype == d->dtype;
    }
    return mt_dtype_is_reduced_floating(d->dtype) && (d->c_dtype == d->dtype || d->c_dtype == MT_FLOAT32);
}

int
mt_cuda_gemm(mt_kctx *ctx, const mt_gemm_desc *d)
{
    device_blas *dev = NULL;
    cublasHandle_t h = NULL;
    operand a, b, c, pa, pb, pc;
    void *mem_a = NULL, *mem_b = NULL, *mem_c = NULL;
    blas_layout lx = {CUBLAS_OP_N, 1}, ly = {CUBLAS_OP_N, 1}, lz = {CUBLAS_OP_N, 1};
    const operand *x, *y;
    int64_t mm, nn, kk, inner_batch = 1, outer = 1;
    int swap;
    int nb = d->nbatch;
    int rc = -1;
    int reduced = mt_dtype_is_reduced_floating(d->dtype);
    int reduction_settings = reduced && d->torch_gemm;
    int half_compute;
    size_t size = mt_dtype_size(d->dtype);
    size_t c_size = mt_dtype_size(d->c_dtype);

    if (!gemm_dtypes_taken(d)) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0,
                              "minitorch internal error: cuBLAS matmul of dtypes it does not take");
    }
    if (get_handle(ctx, &dev) < 0) {
        return -1;
    }
    h = dev->handle;
    /* torch's allow_fp16_accumulation, for a float16 C on a device of compute capability 7 or more (torch
     * refuses it with a float32 C; minitorch's float32 products accumulate in float32 then) */
    half_compute = d->dtype == MT_FLOAT16 && d->c_dtype == MT_FLOAT16 && allow_fp16_accumulation && dev->major >= 7;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    memset(&c, 0, sizeof(c));
    a.ptr = (char *)d->a;
    a.rs = d->a_rs;
    a.cs = d->a_cs;
    b.ptr = (char *)d->b;
    b.rs = d->b_rs;
    b.cs = d->b_cs;
    c.ptr = (char *)d->c;
    c.rs = d->c_rs;
    c.cs = d->c_cs;
    for (int i = 0; i < nb; i++) {
        a.bs[i] = d->a_bs[i];
        b.bs[i] = d->b_bs[i];
        c.bs[i] = d->c_bs[i];
    }

    /* cuBLAS is column-major; minitorch's matrices are row-major views. A row-major m x n matrix is the
     * column-major n x m matrix of its transpose, and C = A B is the same as C^T = B^T A^T. So when C is
     * row-major (unit column stride) we ask cuBLAS for C^T (n x m, column-major: C's own memory) as the
     * product of B^T (n x k) and A^T (k x m), swapping the operands and passing n, m; each operand is
     * then read as it is (op N) when its memory is column-major for that role, or transposed (op T).
     * When C is column-major instead (a transposed output view), C = A B is asked for directly. */
    if (blas_layout_of(d->n, d->m, c.cs, c.rs, &lz) && lz.op == CUBLAS_OP_N) {
        swap = 1;
    }
    else if (blas_layout_of(d->m, d->n, c.rs, c.cs, &lz) && lz.op == CUBLAS_OP_N) {
        swap = 0;
    }
    else {
        /* neither: compute into packed memory and copy out afterwards */
        if (pack(ctx, d->c_dtype, nb, d->batch_sizes, d->m, d->n, &c, &pc, &mem_c, 0) < 0) {
            goto done;
        }
        c = pc;
        swap = 1;
        blas_layout_of(d->n, d->m, c.cs, c.rs, &lz);
    }
    if (swap) {
        mm = d->n;
        nn = d->m;
        x = &b; /* B^T: n x k, strides (b_cs, b_rs) */
        y = &a; /* A^T: k x m, strides (a_cs, a_rs) */
    }
    else {
        mm = d->m;
        nn = d->n;
        x = &a;
        y = &b;
    }
    kk = d->k;
    if (!(swap ? blas_layout_of(mm, kk, x->cs, x->rs, &lx) : blas_layout_of(mm, kk, x->rs, x->cs, &lx))) {
        const operand *src = x;
        operand *dst = swap ? &pb : &pa;
        if (pack(ctx, d->dtype, nb, d->batch_sizes, swap ? d->k : d->m, swap ? d->n : d->k, src, dst,
                 swap ? &mem_b : &mem_a, 1) < 0) {
            goto done;
        }
        x = dst;
        if (swap) {
            blas_layout_of(mm, kk, x->cs, x->rs, &lx);
        }
        else {
            blas_layout_of(mm, kk, x->rs, x->cs, &lx);
        }
    }
    if (!(swap ? blas_layout_of(kk, nn, y->cs, y->rs, &ly) : blas_layout_of(kk, nn, y->rs, y->cs, &ly))) {
        const operand *src = y;
        operand *dst = swap ? &pa : &pb;
        if (pack(ctx, d->dtype, nb, d->batch_sizes, swap ? d->m : d->k, swap ? d->k : d->n, src, dst,
                 swap ? &mem_a : &mem_b, 1) < 0) {
            goto done;
        }
        y = dst;
        if (swap) {
            blas_layout_of(kk, nn, y->cs, y->rs, &ly);
        }
        else {
            blas_layout_of(kk, nn, y->rs, y->cs, &ly);
        }
    }
    if (nb > 0) {
        inner_batch = d->batch_sizes[nb - 1];
        for (int i = 0; i < nb - 1; i++) {
            outer *= d->batch_sizes[i];
        }
    }
    if (!fits_int(mm) || !fits_int(nn) || !fits_int(kk) || !fits_int(lx.ld) || !fits_int(ly.ld) ||
        !fits_int(lz.ld) || !fits_int(inner_batch)) {
        mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "minitorch: matmul dimensions exceed cuBLAS's 32-bit sizes");
        goto done;
    }
    if (reduction_settings && set_reduction_math_mode(ctx, h, d->dtype) < 0) {
        goto done;
    }
    for (int64_t t = 0; t < outer; t++) {
        /* the outer batch dims are walked here; the innermost one is cuBLAS's strided batch */
        int64_t ox = 0, oy = 0, oz = 0, rem = t;
        blas_call call;
        for (int i = nb - 2; i >= 0; i--) {
            int64_t idx = rem % d->batch_sizes[i];
            rem /= d->batch_sizes[i];
            ox += idx * x->bs[i];
            oy += idx * y->bs[i];
            oz += idx * c.bs[i];
        }
        call.opx = lx.op;
        call.opy = ly.op;
        call.m = (int)mm;
        call.n = (int)nn;
        call.k = (int)kk;
        call.x = x->ptr + ox * (int64_t)size;
        call.y = y->ptr + oy * (int64_t)size;
        call.z = c.ptr + oz * (int64_t)c_size;
        call.ldx = (int)lx.ld;
        call.ldy = (int)ly.ld;
        call.ldz = (int)lz.ld;
        call.sx = nb > 0 ? x->bs[nb - 1] : 0;
        call.sy = nb > 0 ? y->bs[nb - 1] : 0;
        call.sz = nb > 0 ? c.bs[nb - 1] : 0;
        call.count = (int)inner_batch;
        if ((reduced ? call_reduced(ctx, h, d->dtype, d->c_dtype, half_compute, &call)
                     : call_float(ctx, h, d->dtype, &call)) < 0) {
            goto done;
        }
    }
    /* back to the default math mode after the call, as torch's helpers do (a failure above leaves it set,
     * as theirs; the next call's get_handle sets it again) */
    if (reduction_settings &&
        blas_check(ctx, cublas.set_math_mode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH)") < 0) {
        goto done;
    }
    if (mem_c != NULL) {
        operand orig;
        memset(&orig, 0, sizeof(orig));
        orig.ptr = (char *)d->c;
        orig.rs = d->c_rs;
        orig.cs = d->c_cs;
        for (int i = 0; i < nb; i++) {
            orig.bs[i] = d->c_bs[i];
        }
        if (strided_copy(ctx, d->c_dtype, nb, d->batch_sizes, d->m, d->n, &orig, &c, 0) < 0) {
            goto done;
        }
    }
    rc = 0;

done:
    /* packed copies are caching-allocator blocks; the work using them is queued on the same stream as
     * any later user of the blocks, so they can go back now */
    for (int i = 0; i < 3; i++) {
        void *mem = i == 0 ? mem_a : i == 1 ? mem_b : mem_c;
        if (mem != NULL) {
            ctx->scratch_free(ctx->device, mem);
        }
    }
    return rc;
}

#endif /* MINITORCH_WITH_CUDA */
