/* A host-only stand-in for the few cuBLAS functions minitorch's cublas.c loads, built as
 * libcublas.so.<major> for tests/test_cuda_emulation.py: column-major GEMM computed on the host,
 * with cuBLAS's argument checks (leading dimensions), so that the row-major/column-major translation in
 * cublas.c is checked without a GPU. The last call's settings are readable through fake_cublas_*.
 * No part of minitorch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    void *workspace;
    size_t workspace_size;
    int math_mode;
} fake_handle;

static int calls;
static int fail_next;           /* status to return from the next GEMM (0: none) */
static size_t last_workspace_size = (size_t)-1;
static int last_math_mode = -1;

int fake_cublas_calls(void) { return calls; }
size_t fake_cublas_last_workspace_size(void) { return last_workspace_size; }
int fake_cublas_last_math_mode(void) { return last_math_mode; }
void fake_cublas_fail_next(int status) { fail_next = status; }

int
cublasCreate_v2(void **handle)
{
    fake_handle *h = calloc(1, sizeof(*h));
    *handle = h;
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
        (void)h;                                                                                      \
        calls++;                                                                                      \
        if (fail_next) {                                                                              \
            st = fail_next;                                                                           \
            fail_next = 0;                                                                            \
            return st;                                                                                \
        }                                                                                             \
        if (st) {                                                                                     \
            return st;                                                                                \
        }                                                                                             \
        GEMM_BODY(T)                                                                                  \
        return 0;                                                                                     \
    }

GEMM_FN(cublasSgemm_v2, float)
GEMM_FN(cublasDgemm_v2, double)

#define BATCHED_FN(NAME, T)                                                                            \
    int NAME(void *h, int ta, int tb, int m, int n, int k, const T *alpha, const T *A0, int lda, long long sa, \
             const T *B0, int ldb, long long sb, const T *beta, T *C0, int ldc, long long sc, int count)      \
    {                                                                                                 \
        int st = check_args(ta, tb, m, n, k, lda, ldb, ldc);                                          \
        (void)h;                                                                                      \
        calls++;                                                                                      \
        if (fail_next) {                                                                              \
            st = fail_next;                                                                           \
            fail_next = 0;                                                                            \
            return st;                                                                                \
        }                                                                                             \
        if (st || count < 0) {                                                                        \
            return st ? st : 7;                                                                       \
        }                                                                                             \
        for (int t = 0; t < count; t++) {                                                             \
            const T *A = A0 + t * sa;                                                                 \
            const T *B = B0 + t * sb;                                                                 \
            T *C = C0 + t * sc;                                                                       \
            GEMM_BODY(T)                                                                              \
        }                                                                                             \
        return 0;                                                                                     \
    }

BATCHED_FN(cublasSgemmStridedBatched, float)
BATCHED_FN(cublasDgemmStridedBatched, double)
