/* A host-only stand-in for the few cuBLAS functions minitorch's cublas.c loads, built as
 * libcublas.so.<major> for tests/test_cuda_emulation.py: column-major GEMM computed on the host,
 * with cuBLAS's argument checks (leading dimensions), so that the row-major/column-major translation in
 * cublas.c is checked without a GPU. cublasGemmEx and cublasGemmStridedBatchedEx take float16 and
 * bfloat16 A and B (C of their type or float32) and accumulate in float, each result rounded once to C's
 * type (in float16, rounding after every step, with CUBLAS_COMPUTE_16F), with minitorch's conversions
 * (csrc/core/scalar_type.h). The last call's settings (the function, its data and compute types, the
 * handle's math mode when it ran, the last math mode set) are readable through fake_cublas_*.
 *
 * Built with -DMT_FAKE_CUBLAS_EMU for the emulated-CUDA build of the whole extension (setup.py,
 * MINITORCH_CUDA=emulate) it works on the emulation's device memory (tests/c/cuda_emu/emu_runtime.cpp):
 * a handle belongs to the device current at cublasCreate, each GEMM must be called on that device, every
 * matrix it reads or writes (and the workspace) must lie inside device memory of that device, or the
 * process aborts with a message; the arithmetic runs with that device's memory opened to the host.
 * No part of minitorch. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../csrc/core/scalar_type.h"

#ifdef MT_FAKE_CUBLAS_EMU
#include "cuda_emu/cuda_runtime.h"
#endif

typedef struct {
    void *workspace;
    size_t workspace_size;
    int math_mode;
    int device;
} fake_handle;

static int calls;
static int fail_next;           /* status to return from the next GEMM (0: none) */
static size_t last_workspace_size = (size_t)-1;
static int last_math_mode = -1;
static const char *last_function = "";
static int last_ab_type = -1, last_c_type = -1, last_compute_type = -1, last_call_math_mode = -1;

int fake_cublas_calls(void) { return calls; }
size_t fake_cublas_last_workspace_size(void) { return last_workspace_size; }
int fake_cublas_last_math_mode(void) { return last_math_mode; }
void fake_cublas_fail_next(int status) { fail_next = status; }
/* the last GEMM: its name, A's and B's data type, C's, the compute type (cudaDataType_t and
 * cublasComputeType_t values; -1 for the typed S/D functions) and the handle's math mode during it */
const char *fake_cublas_last_function(void) { return last_function; }
int fake_cublas_last_ab_type(void) { return last_ab_type; }
int fake_cublas_last_c_type(void) { return last_c_type; }
int fake_cublas_last_compute_type(void) { return last_compute_type; }
int fake_cublas_last_call_math_mode(void) { return last_call_math_mode; }

static void
record_call(void *h, const char *name, int ab_type, int c_type, int compute_type)
{
    calls++;
    last_function = name;
    last_ab_type = ab_type;
    last_c_type = c_type;
    last_compute_type = compute_type;
    last_call_math_mode = ((fake_handle *)h)->math_mode;
}

int
cublasCreate_v2(void **handle)
{
    fake_handle *h = calloc(1, sizeof(*h));
    *handle = h;
#ifdef MT_FAKE_CUBLAS_EMU
    if (h) {
        h->device = emu_current_device();
    }
#endif
    return h ? 0 : 3;
}

int cublasDestroy_v2(void *handle) { free(handle); return 0; }
int cublasSetStream_v2(void *handle, void *stream) { (void)handle; return stream == NULL ? 0 : 7; }

int
cublasSetMathMode(void *handle, int mode)
{
    ((fake_handle *)handle)->math_mode = mode;
    last_math_mode = mode;
    return 0;
}

int
cublasSetWorkspace_v2(void *handle, void *ws, size_t size)
{
    ((fake_handle *)handle)->workspace = ws;
#ifdef MT_FAKE_CUBLAS_EMU
    if (ws != NULL && size > 0 && !emu_is_device_range(ws, size, ((fake_handle *)handle)->device)) {
        fprintf(stderr, "fake cuBLAS: the workspace %p (%zu bytes) is not memory of the handle's device\n", ws, size);
        abort();
    }
#endif
    ((fake_handle *)handle)->workspace_size = size;
    last_workspace_size = size;
    return 0;
}

int cublasGetVersion_v2(void *handle, int *v) { (void)handle; *v = 120804; return 0; }

int
cublasGetProperty(int type, int *value)
{
    *value = type == 0 ? 12 : type == 1 ? 8 : 4;
    return 0;
}

static int
check_args(int ta, int tb, int m, int n, int k, int lda, int ldb, int ldc)
{
    int arows = ta == 0 ? m : k;
    int brows = tb == 0 ? k : n;
    if (m < 0 || n < 0 || k < 0) {
        return 7;
    }
    if (lda < (arows > 1 ? arows : 1) || ldb < (brows > 1 ? brows : 1) || ldc < (m > 1 ? m : 1)) {
        return 7; /* CUBLAS_STATUS_INVALID_VALUE */
    }
    return 0;
}

#ifdef MT_FAKE_CUBLAS_EMU
/* The bytes a column-major operand spans: `cols` columns of `rows` elements, `ld` apart, `count`
 * matrices `stride` elements apart. */
static size_t
span(int rows, int cols, int ld, long long stride, int count, size_t elem)
{
    long long last;
    if (rows <= 0 || cols <= 0 || count <= 0) {
        return 0;
    }
    last = (long long)(cols - 1) * ld + (rows - 1) + (long long)(count - 1) * (stride > 0 ? stride : -stride);
    return (size_t)(last + 1) * elem;
}

static void
need_device(const fake_handle *h, const void *p, size_t bytes, const char *what)
{
    if (bytes > 0 && !emu_is_device_range(p, bytes, h->device)) {
        fprintf(stderr, "fake cuBLAS: %s (%p, %zu bytes) is not inside device memory of device %d\n", what, p,
                bytes, h->device);
        abort();
    }
}

static void
emu_enter(const fake_handle *h, int ta, int tb, int m, int n, int k, const void *A, int lda, long long sa,
          const void *B, int ldb, long long sb, const void *C, int ldc, long long sc, int count, size_t elem,
          size_t c_elem)
{
    if (emu_current_device() != h->device) {
        fprintf(stderr, "fake cuBLAS: a handle of device %d used while device %d is current\n", h->device,
                emu_current_device());
        abort();
    }
    if (m > 0 && n > 0) {
        if (k > 0) {
            need_device(h, A, span(ta == 0 ? m : k, ta == 0 ? k : m, lda, sa, count, elem), "A");
            need_device(h, B, span(tb == 0 ? k : n, tb == 0 ? n : k, ldb, sb, count, elem), "B");
        }
        need_device(h, C, span(m, n, ldc, sc, count, c_elem), "C");
    }
    emu_device_access_begin(h->device);
}
#define EMU_ENTER(...) emu_enter(__VA_ARGS__)
#define EMU_LEAVE() emu_device_access_end()
#else
#define EMU_ENTER(...) ((void)0)
#define EMU_LEAVE() ((void)0)
#endif

#define GEMM_BODY(T)                                                                                   \
    for (int j = 0; j < n; j++) {                                                                     \
        for (int i = 0; i < m; i++) {                                                                 \
            double acc = 0;                                                                           \
            for (int p = 0; p < k; p++) {                                                             \
                double av = ta == 0 ? A[i + (long long)p * lda] : A[p + (long long)i * lda];          \
                double bv = tb == 0 ? B[p + (long long)j * ldb] : B[j + (long long)p * ldb];          \
                acc += av * bv;                                                                       \
            }                                                                                         \
            C[i + (long long)j * ldc] = (T)(*alpha * acc + (*beta != 0 ? *beta * C[i + (long long)j * ldc] : 0)); \
        }                                                                                             \
    }

#define GEMM_FN(NAME, T)                                                                               \
    int NAME(void *h, int ta, int tb, int m, int n, int k, const T *alpha, const T *A, int lda, const T *B, \
             int ldb, const T *beta, T *C, int ldc)                                                   \
    {                                                                                                 \
        int st = check_args(ta, tb, m, n, k, lda, ldb, ldc);                                          \
        record_call(h, #NAME, -1, -1, -1);                                                            \
        if (fail_next) {                                                                              \
            st = fail_next;                                                                           \
            fail_next = 0;                                                                            \
            return st;                                                                                \
        }                                                                                             \
        if (st) {                                                                                     \
            return st;                                                                                \
        }                                                                                             \
        EMU_ENTER((fake_handle *)h, ta, tb, m, n, k, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, sizeof(T),     \
                  sizeof(T));                                                                         \
        GEMM_BODY(T)                                                                                  \
        EMU_LEAVE();                                                                                  \
        return 0;                                                                                     \
    }

GEMM_FN(cublasSgemm_v2, float)
GEMM_FN(cublasDgemm_v2, double)

#define BATCHED_FN(NAME, T)                                                                            \
    int NAME(void *h, int ta, int tb, int m, int n, int k, const T *alpha, const T *A0, int lda, long long sa, \
             const T *B0, int ldb, long long sb, const T *beta, T *C0, int ldc, long long sc, int count)      \
    {                                                                                                 \
        int st = check_args(ta, tb, m, n, k, lda, ldb, ldc);                                          \
        record_call(h, #NAME, -1, -1, -1);                                                            \
        if (fail_next) {                                                                              \
            st = fail_next;                                                                           \
            fail_next = 0;                                                                            \
            return st;                                                                                \
        }                                                                                             \
        if (st || count < 0) {                                                                        \
            return st ? st : 7;                                                                       \
        }                                                                                             \
        EMU_ENTER((fake_handle *)h, ta, tb, m, n, k, A0, lda, sa, B0, ldb, sb, C0, ldc, sc, count, sizeof(T), \
                  sizeof(T));                                                                         \
        for (int t = 0; t < count; t++) {                                                             \
            const T *A = A0 + t * sa;                                                                 \
            const T *B = B0 + t * sb;                                                                 \
            T *C = C0 + t * sc;                                                                       \
            GEMM_BODY(T)                                                                              \
        }                                                                                             \
        EMU_LEAVE();                                                                                  \
        return 0;                                                                                     \
    }

BATCHED_FN(cublasSgemmStridedBatched, float)
BATCHED_FN(cublasDgemmStridedBatched, double)

/* ---- cublasGemmEx and cublasGemmStridedBatchedEx: float16 and bfloat16 ------------------------------- */

#define CUDA_R_32F 0
#define CUDA_R_16F 2
#define CUDA_R_16BF 14
#define CUBLAS_COMPUTE_16F 64
#define CUBLAS_COMPUTE_32F 68

static float
load_elem(const void *p, long long i, int type)
{
    if (type == CUDA_R_32F) {
        return ((const float *)p)[i];
    }
    return mt_reduced_to_float(type == CUDA_R_16F ? MT_FLOAT16 : MT_BFLOAT16, ((const uint16_t *)p)[i]);
}

static void
store_elem(void *p, long long i, int type, float v)
{
    if (type == CUDA_R_32F) {
        ((float *)p)[i] = v;
    }
    else {
        ((uint16_t *)p)[i] = mt_float_to_reduced(type == CUDA_R_16F ? MT_FLOAT16 : MT_BFLOAT16, v);
    }
}

/* cuBLAS's combinations for these types: A and B both 16F or both 16BF, C of theirs or 32F, compute 32F;
 * compute 16F only with 16F throughout. CUBLAS_STATUS_NOT_SUPPORTED (15) otherwise, INVALID_VALUE (7)
 * for an algorithm that is neither the default nor the default tensor-op one. */
static int
check_types(int a_type, int b_type, int c_type, int compute, int algo)
{
    if (algo != -1 && algo != 99) {
        return 7;
    }
    if (a_type != b_type || (a_type != CUDA_R_16F && a_type != CUDA_R_16BF)) {
        return 15;
    }
    if (compute == CUBLAS_COMPUTE_32F) {
        return c_type == a_type || c_type == CUDA_R_32F ? 0 : 15;
    }
    if (compute == CUBLAS_COMPUTE_16F) {
        return a_type == CUDA_R_16F && c_type == CUDA_R_16F ? 0 : 15;
    }
    return 15;
}

/* C = alpha * op(A) op(B) + beta * C for one matrix: float accumulation, or float16 (rounded after every
 * multiply-add) for compute 16F, whose alpha and beta are float16 */
static void
gemm_ex_body(int ta, int tb, int m, int n, int k, const void *alpha, const void *A, int lda, const void *B, int ldb,
             const void *beta, void *C, int ldc, int ab_type, int c_type, int compute)
{
    int half = compute == CUBLAS_COMPUTE_16F;
    float al = half ? mt_half_to_float(*(const uint16_t *)alpha) : *(const float *)alpha;
    float be = half ? mt_half_to_float(*(const uint16_t *)beta) : *(const float *)beta;

    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            float acc = 0.0f;
            long long ci = i + (long long)j * ldc;
            for (int p = 0; p < k; p++) {
                float av = load_elem(A, ta == 0 ? i + (long long)p * lda : p + (long long)i * lda, ab_type);
                float bv = load_elem(B, tb == 0 ? p + (long long)j * ldb : j + (long long)p * ldb, ab_type);
                acc += av * bv;
                if (half) {
                    acc = mt_half_to_float(mt_float_to_half(acc));
                }
            }
            store_elem(C, ci, c_type, al * acc + (be != 0.0f ? be * load_elem(C, ci, c_type) : 0.0f));
        }
    }
}

static size_t
type_size(int type)
{
    return type == CUDA_R_32F ? 4 : 2;
}

/* Both functions: one body, under the caller's name */
static int
gemm_ex(const char *name, void *h, int ta, int tb, int m, int n, int k, const void *alpha, const void *A0, int a_type,
        int lda, long long sa, const void *B0, int b_type, int ldb, long long sb, const void *beta, void *C0,
        int c_type, int ldc, long long sc, int count, int compute, int algo)
{
    int st = check_args(ta, tb, m, n, k, lda, ldb, ldc);

    record_call(h, name, a_type, c_type, compute);
    if (fail_next) {
        st = fail_next;
        fail_next = 0;
        return st;
    }
    if (st || count < 0) {
        return st ? st : 7;
    }
    st = check_types(a_type, b_type, c_type, compute, algo);
    if (st) {
        return st;
    }
    EMU_ENTER((fake_handle *)h, ta, tb, m, n, k, A0, lda, sa, B0, ldb, sb, C0, ldc, sc, count, type_size(a_type),
              type_size(c_type));
    for (int t = 0; t < count; t++) {
        gemm_ex_body(ta, tb, m, n, k, alpha, (const char *)A0 + t * sa * (long long)type_size(a_type), lda,
                     (const char *)B0 + t * sb * (long long)type_size(b_type), ldb, beta,
                     (char *)C0 + t * sc * (long long)type_size(c_type), ldc, a_type, c_type, compute);
    }
    EMU_LEAVE();
    return 0;
}

int
cublasGemmStridedBatchedEx(void *h, int ta, int tb, int m, int n, int k, const void *alpha, const void *A0,
                           int a_type, int lda, long long sa, const void *B0, int b_type, int ldb, long long sb,
                           const void *beta, void *C0, int c_type, int ldc, long long sc, int count, int compute,
                           int algo)
{
    return gemm_ex("cublasGemmStridedBatchedEx", h, ta, tb, m, n, k, alpha, A0, a_type, lda, sa, B0, b_type, ldb, sb,
                   beta, C0, c_type, ldc, sc, count, compute, algo);
}

int
cublasGemmEx(void *h, int ta, int tb, int m, int n, int k, const void *alpha, const void *A, int a_type, int lda,
             const void *B, int b_type, int ldb, const void *beta, void *C, int c_type, int ldc, int compute, int algo)
{
    return gemm_ex("cublasGemmEx", h, ta, tb, m, n, k, alpha, A, a_type, lda, 0, B, b_type, ldb, 0, beta, C, c_type,
                   ldc, 0, 1, compute, algo);
}
