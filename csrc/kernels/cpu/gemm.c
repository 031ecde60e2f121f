/* gemm.c: the host matrix-multiply kernels behind matmul/mm/bmm/mv/dot on the CPU and on the simulated
 * GPU: a cache-blocked, packed GEMM in the Goto/BLIS design with run-time chosen SIMD micro-kernels, a
 * GEMV and a DOT. It owns the blocking parameters, the packing formats, the micro-kernels, the choice
 * among them (CPUID at first use) and the worker threads of one product. It must not touch Python
 * objects, raise Python exceptions or allocate tensors: it runs with the GIL released and reports
 * failure (only "no scratch memory") by its return value. Integer arithmetic is done in unsigned types so
 * that overflow wraps around (torch's behaviour) without undefined behaviour. */
#include "gemm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#define GEMM_HAVE_PTHREADS 1
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define GEMM_X86 1
#endif

/* ---- the design, in short -------------------------------------------------------------------------
 *
 * C (m x n) = A (m x k) @ B (k x n) is computed in five nested loops (Goto & van de Geijn, "Anatomy of
 * high-performance matrix multiplication"; the BLIS loop names are used below):
 *
 *   jc: n in steps of NC      a column block of B and C
 *    pc: k in steps of KC     pack B[pc:pc+KC, jc:jc+NC] into NR-wide panels (the packed block lives in
 *                             L3; one NR panel, KC x NR, is sized to stay in L1 while it is reused)
 *     ic: m in steps of MC    pack A[ic:ic+MC, pc:pc+KC] into MR-tall panels (sized to stay in L2)
 *      jr: NC in steps of NR
 *       ir: MC in steps of MR  micro-kernel: an MR x NR tile of C held in registers, updated by KC rank-1
 *                              products read sequentially from the two packed panels.
 *
 * Packing copies each operand once per block into the exact order the micro-kernel reads, so the inner
 * loop sees unit-stride, aligned, zero-padded data whatever the strides of the original view were
 * (transposed and sliced tensors need no separate copy) and the edges need no special kernel: a partial
 * tile is computed whole into a small buffer and only its valid part is stored. The packed panel format
 * is, for A: panel r (rows r*MR .. r*MR+MR-1) is KC groups of MR consecutive values A[row][p]; for B:
 * panel q is KC groups of NR consecutive values B[p][col].
 *
 * The sum over k for one element of C is always: for each KC block in order, a register accumulator
 * that starts at 0 and adds a*b for p in order (fused multiply-add in the SIMD float kernels), then
 * C = acc for the first block and C = C + acc for later ones. Threads split C into disjoint tiles (or
 * the batch into disjoint matrices) and never split k, so the result does not depend on the number of
 * threads. The micro-kernels sit behind a function pointer chosen at run time from CPUID, so one build
 * runs everywhere and uses AVX-512 or AVX2 where the CPU has them. */

typedef void (*gemm_ukr_fn)(int64_t kc, const void *ap, const void *bp, void *c, int64_t c_rs,
                            int accumulate);

typedef struct {
    const char *name;
    int mr, nr;             /* register tile */
    int64_t kc, mc, nc;     /* cache blocks, in elements; mc is a multiple of mr, nc of nr */
    gemm_ukr_fn ukr;        /* C[0:mr, 0:nr] (row stride c_rs, unit column stride) = or += Ap @ Bp */
} gemm_kernel;

/* Below this many flops per thread a product runs on fewer threads: starting a thread costs tens of
 * microseconds, about what 4 MFLOP take at full speed. */
#define GEMM_MIN_FLOPS_PER_THREAD 8e6
#define GEMM_MAX_THREADS 256
/* The fewest rows (columns) of C in one item when a single product is split between threads. */
#define GEMM_MIN_SPLIT 256
#define GEMM_ALIGN 64

/* ---- generic micro-kernels (any C compiler, any CPU) ---------------------------------------------- */

/* Plain C; the compiler may vectorise the j loop. Integers accumulate in unsigned types (wrap-around). */
#define GEMM_GENERIC_MR 4
#define GEMM_GENERIC_NR 8

#define DEFINE_GENERIC_UKR(NAME, T)                                                                   \
    static void                                                                                       \
    NAME(int64_t kc, const void *ap_, const void *bp_, void *c_, int64_t c_rs, int accumulate)        \
    {                                                                                                 \
        const T *ap = (const T *)ap_;                                                                 \
        const T *bp = (const T *)bp_;                                                                 \
        T *c = (T *)c_;                                                                               \
        T acc[GEMM_GENERIC_MR][GEMM_GENERIC_NR];                                                      \
        for (int i = 0; i < GEMM_GENERIC_MR; i++) {                                                   \
            for (int j = 0; j < GEMM_GENERIC_NR; j++) {                                               \
                acc[i][j] = 0;                                                                        \
            }                                                                                         \
        }                                                                                             \
        for (int64_t p = 0; p < kc; p++) {                                                            \
            for (int i = 0; i < GEMM_GENERIC_MR; i++) {                                               \
                T a = ap[i];                                                                          \
                for (int j = 0; j < GEMM_GENERIC_NR; j++) {                                           \
                    acc[i][j] += a * bp[j];                                                           \
                }                                                                                     \
            }                                                                                         \
            ap += GEMM_GENERIC_MR;                                                                    \
            bp += GEMM_GENERIC_NR;                                                                    \
        }                                                                                             \
        for (int i = 0; i < GEMM_GENERIC_MR; i++) {                                                   \
            T *row = c + i * c_rs;                                                                    \
            for (int j = 0; j < GEMM_GENERIC_NR; j++) {                                               \
                row[j] = accumulate ? (T)(row[j] + acc[i][j]) : acc[i][j];                            \
            }                                                                                         \
        }                                                                                             \
    }

DEFINE_GENERIC_UKR(ukr_f32_generic, float)
DEFINE_GENERIC_UKR(ukr_f64_generic, double)
DEFINE_GENERIC_UKR(ukr_i32_generic, uint32_t)
DEFINE_GENERIC_UKR(ukr_i64_generic, uint64_t)

#if defined(GEMM_X86)

/* ---- x86 float micro-kernels (intrinsics, chosen at run time) -------------------------------------
 *
 * Broadcast-A kernels: per k step, NR/width vector loads of the packed B row and MR broadcasts of packed
 * A values (folded into the FMA as embedded broadcasts), feeding MR * NR/width independent FMA chains.
 * With two FMA pipes of latency 4 at least 8 chains are needed; the tiles below use 12 to 24 of the 16
 * (AVX2) or 32 (AVX-512) vector registers as accumulators, leaving room for the B vectors. The bodies
 * are written once with the tile height as a constant parameter and fully unrolled, so the accumulator
 * arrays become registers. */

#define GEMM_UNROLL _Pragma("GCC unroll 16")

__attribute__((target("avx512f,fma"), always_inline)) static inline void
ukr_f32_avx512_body(const int mr, int64_t kc, const float *ap, const float *bp, float *c, int64_t c_rs,
                    int accumulate)
{
    __m512 c0[16];
    __m512 c1[16];

    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        c0[i] = _mm512_setzero_ps();
        c1[i] = _mm512_setzero_ps();
    }
    for (int64_t p = 0; p < kc; p++) {
        __m512 b0 = _mm512_loadu_ps(bp);
        __m512 b1 = _mm512_loadu_ps(bp + 16);
        GEMM_UNROLL
        for (int i = 0; i < mr; i++) {
            __m512 a = _mm512_set1_ps(ap[i]);
            c0[i] = _mm512_fmadd_ps(a, b0, c0[i]);
            c1[i] = _mm512_fmadd_ps(a, b1, c1[i]);
        }
        ap += mr;
        bp += 32;
    }
    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        float *row = c + i * c_rs;
        if (accumulate) {
            c0[i] = _mm512_add_ps(_mm512_loadu_ps(row), c0[i]);
            c1[i] = _mm512_add_ps(_mm512_loadu_ps(row + 16), c1[i]);
        }
        _mm512_storeu_ps(row, c0[i]);
        _mm512_storeu_ps(row + 16, c1[i]);
    }
}

__attribute__((target("avx512f,fma"))) static void
ukr_f32_avx512(int64_t kc, const void *ap, const void *bp, void *c, int64_t c_rs, int accumulate)
{
    ukr_f32_avx512_body(12, kc, (const float *)ap, (const float *)bp, (float *)c, c_rs, accumulate);
}

__attribute__((target("avx512f,fma"), always_inline)) static inline void
ukr_f64_avx512_body(const int mr, int64_t kc, const double *ap, const double *bp, double *c, int64_t c_rs,
                    int accumulate)
{
    __m512d c0[16];
    __m512d c1[16];

    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        c0[i] = _mm512_setzero_pd();
        c1[i] = _mm512_setzero_pd();
    }
    for (int64_t p = 0; p < kc; p++) {
        __m512d b0 = _mm512_loadu_pd(bp);
        __m512d b1 = _mm512_loadu_pd(bp + 8);
        GEMM_UNROLL
        for (int i = 0; i < mr; i++) {
            __m512d a = _mm512_set1_pd(ap[i]);
            c0[i] = _mm512_fmadd_pd(a, b0, c0[i]);
            c1[i] = _mm512_fmadd_pd(a, b1, c1[i]);
        }
        ap += mr;
        bp += 16;
    }
    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        double *row = c + i * c_rs;
        if (accumulate) {
            c0[i] = _mm512_add_pd(_mm512_loadu_pd(row), c0[i]);
            c1[i] = _mm512_add_pd(_mm512_loadu_pd(row + 8), c1[i]);
        }
        _mm512_storeu_pd(row, c0[i]);
        _mm512_storeu_pd(row + 8, c1[i]);
    }
}

__attribute__((target("avx512f,fma"))) static void
ukr_f64_avx512(int64_t kc, const void *ap, const void *bp, void *c, int64_t c_rs, int accumulate)
{
    ukr_f64_avx512_body(8, kc, (const double *)ap, (const double *)bp, (double *)c, c_rs, accumulate);
}

__attribute__((target("avx2,fma"), always_inline)) static inline void
ukr_f32_avx2_body(const int mr, int64_t kc, const float *ap, const float *bp, float *c, int64_t c_rs,
                  int accumulate)
{
    __m256 c0[8];
    __m256 c1[8];

    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        c0[i] = _mm256_setzero_ps();
        c1[i] = _mm256_setzero_ps();
    }
    for (int64_t p = 0; p < kc; p++) {
        __m256 b0 = _mm256_loadu_ps(bp);
        __m256 b1 = _mm256_loadu_ps(bp + 8);
        GEMM_UNROLL
        for (int i = 0; i < mr; i++) {
            __m256 a = _mm256_broadcast_ss(ap + i);
            c0[i] = _mm256_fmadd_ps(a, b0, c0[i]);
            c1[i] = _mm256_fmadd_ps(a, b1, c1[i]);
        }
        ap += mr;
        bp += 16;
    }
    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        float *row = c + i * c_rs;
        if (accumulate) {
            c0[i] = _mm256_add_ps(_mm256_loadu_ps(row), c0[i]);
            c1[i] = _mm256_add_ps(_mm256_loadu_ps(row + 8), c1[i]);
        }
        _mm256_storeu_ps(row, c0[i]);
        _mm256_storeu_ps(row + 8, c1[i]);
    }
}

__attribute__((target("avx2,fma"))) static void
ukr_f32_avx2(int64_t kc, const void *ap, const void *bp, void *c, int64_t c_rs, int accumulate)
{
    ukr_f32_avx2_body(6, kc, (const float *)ap, (const float *)bp, (float *)c, c_rs, accumulate);
}

__attribute__((target("avx2,fma"), always_inline)) static inline void
ukr_f64_avx2_body(const int mr, int64_t kc, const double *ap, const double *bp, double *c, int64_t c_rs,
                  int accumulate)
{
    __m256d c0[8];
    __m256d c1[8];

    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        c0[i] = _mm256_setzero_pd();
        c1[i] = _mm256_setzero_pd();
    }
    for (int64_t p = 0; p < kc; p++) {
        __m256d b0 = _mm256_loadu_pd(bp);
        __m256d b1 = _mm256_loadu_pd(bp + 4);
        GEMM_UNROLL
        for (int i = 0; i < mr; i++) {
            __m256d a = _mm256_broadcast_sd(ap + i);
            c0[i] = _mm256_fmadd_pd(a, b0, c0[i]);
            c1[i] = _mm256_fmadd_pd(a, b1, c1[i]);
        }
        ap += mr;
        bp += 8;
    }
    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        double *row = c + i * c_rs;
        if (accumulate) {
            c0[i] = _mm256_add_pd(_mm256_loadu_pd(row), c0[i]);
            c1[i] = _mm256_add_pd(_mm256_loadu_pd(row + 4), c1[i]);
        }
        _mm256_storeu_pd(row, c0[i]);
        _mm256_storeu_pd(row + 4, c1[i]);
    }
}

__attribute__((target("avx2,fma"))) static void
ukr_f64_avx2(int64_t kc, const void *ap, const void *bp, void *c, int64_t c_rs, int accumulate)
{
    ukr_f64_avx2_body(6, kc, (const double *)ap, (const double *)bp, (double *)c, c_rs, accumulate);
}

/* ---- x86 integer micro-kernels (GCC vector extensions under a target attribute) --------------------
 *
 * Same tile shape as the float kernels. The vector types are 64 or 32 bytes wide; inside a function
 * compiled for AVX-512 (or AVX2) the compiler maps them onto zmm (ymm) registers, using vpmulld/vpmullq
 * for the multiplies (AVX2 has no 64-bit multiply: the compiler composes it from 32-bit ones). Loads and
 * stores go through memcpy so that no alignment is assumed. */

typedef uint32_t gemm_u32x16 __attribute__((vector_size(64)));
typedef uint64_t gemm_u64x8 __attribute__((vector_size(64)));
typedef uint32_t gemm_u32x8 __attribute__((vector_size(32)));
typedef uint64_t gemm_u64x4 __attribute__((vector_size(32)));

#define DEFINE_VEC_UKR(NAME, TARGET, T, VT, MR)                                                       \
    __attribute__((target(TARGET))) static void                                                       \
    NAME(int64_t kc, const void *ap_, const void *bp_, void *c_, int64_t c_rs, int accumulate)        \
    {                                                                                                 \
        enum { W = (int)(sizeof(VT) / sizeof(T)) };                                                   \
        const T *ap = (const T *)ap_;                                                                 \
        const T *bp = (const T *)bp_;                                                                 \
        T *c = (T *)c_;                                                                               \
        VT c0[MR];                                                                                    \
        VT c1[MR];                                                                                    \
        GEMM_UNROLL                                                                                   \
        for (int i = 0; i < MR; i++) {                                                                \
            c0[i] = (VT){0};                                                                          \
            c1[i] = (VT){0};                                                                          \
        }                                                                                             \
        for (int64_t p = 0; p < kc; p++) {                                                            \
            VT b0;                                                                                    \
            VT b1;                                                                                    \
            memcpy(&b0, bp, sizeof(VT));                                                              \
            memcpy(&b1, bp + W, sizeof(VT));                                                          \
            GEMM_UNROLL                                                                               \
            for (int i = 0; i < MR; i++) {                                                            \
                c0[i] += b0 * ap[i];                                                                  \
                c1[i] += b1 * ap[i];                                                                  \
            }                                                                                         \
            ap += MR;                                                                                 \
            bp += 2 * W;                                                                              \
        }                                                                                             \
        GEMM_UNROLL                                                                                   \
        for (int i = 0; i < MR; i++) {                                                                \
            T *row = c + i * c_rs;                                                                    \
            if (accumulate) {                                                                         \
                VT r0;                                                                                \
                VT r1;                                                                                \
                memcpy(&r0, row, sizeof(VT));                                                         \
                memcpy(&r1, row + W, sizeof(VT));                                                     \
                c0[i] = r0 + c0[i];                                                                   \
                c1[i] = r1 + c1[i];                                                                   \
            }                                                                                         \
            memcpy(row, &c0[i], sizeof(VT));                                                          \
            memcpy(row + W, &c1[i], sizeof(VT));                                                      \
        }                                                                                             \
    }

DEFINE_VEC_UKR(ukr_i32_avx512, "avx512f", uint32_t, gemm_u32x16, 8)
DEFINE_VEC_UKR(ukr_i64_avx512, "avx512f,avx512dq", uint64_t, gemm_u64x8, 8)
DEFINE_VEC_UKR(ukr_i32_avx2, "avx2", uint32_t, gemm_u32x8, 6)
DEFINE_VEC_UKR(ukr_i64_avx2, "avx2", uint64_t, gemm_u64x4, 6)

#endif /* GEMM_X86 */

/* ---- kernel choice and thread count (once per process) -------------------------------------------- */

enum { GEMM_ISA_GENERIC = 0, GEMM_ISA_AVX2 = 1, GEMM_ISA_AVX512 = 2 };

static gemm_kernel gemm_kernels[MT_NUM_DTYPES];
static int gemm_nthreads = 1;

#if defined(GEMM_HAVE_PTHREADS)
static pthread_once_t gemm_once = PTHREAD_ONCE_INIT;
#else
static int gemm_initialised = 0;
#endif

/* Element sizes without calling into dtype.c, so that this file links on its own (C tests, benchmarks). */
static size_t
gemm_elsize(mt_dtype dtype)
{
    return dtype == MT_FLOAT32 || dtype == MT_INT32 ? 4 : 8;
}

static void
gemm_set_kernel(mt_dtype dtype, const char *name, int mr, int nr, int64_t kc, int64_t mc, int64_t nc,
                gemm_ukr_fn ukr)
{
    gemm_kernel *k = &gemm_kernels[dtype];

    k->name = name;
    k->mr = mr;
    k->nr = nr;
    k->kc = kc;
    k->mc = mc - mc % mr;
    k->nc = nc - nc % nr;
    k->ukr = ukr;
}

static int
gemm_env_int(const char *name)
{
    const char *s = getenv(name);
    char *end;
    long v;

    if (s == NULL || *s == '\0') {
        return 0;
    }
    v = strtol(s, &end, 10);
    if (*end != '\0' || v <= 0) {
        return 0;
    }
    return v > GEMM_MAX_THREADS ? GEMM_MAX_THREADS : (int)v;
}

static int
gemm_detect_threads(void)
{
    int n = gemm_env_int("MINITORCH_NUM_THREADS");

    if (n > 0) {
        return n;
    }
    n = gemm_env_int("OMP_NUM_THREADS");
    if (n > 0) {
        return n;
    }
#if defined(__linux__) && defined(CPU_COUNT)
    {
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0) {
            n = CPU_COUNT(&set);
        }
    }
#endif
#if defined(GEMM_HAVE_PTHREADS)
    if (n <= 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        n = online > 0 ? (int)online : 1;
    }
#endif
    if (n <= 0) {
        n = 1;
    }
    return n > GEMM_MAX_THREADS ? GEMM_MAX_THREADS : n;
}

static int
gemm_detect_isa(void)
{
    int isa = GEMM_ISA_GENERIC;
    const char *cap = getenv("MINITORCH_GEMM_ISA");

#if defined(GEMM_X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        isa = GEMM_ISA_AVX2;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
            isa = GEMM_ISA_AVX512;
        }
    }
#endif
    if (cap != NULL) {
        if (strcmp(cap, "generic") == 0) {
            isa = GEMM_ISA_GENERIC;
        }
        else if (strcmp(cap, "avx2") == 0 && isa > GEMM_ISA_AVX2) {
            isa = GEMM_ISA_AVX2;
        }
    }
    return isa;
}

static void
gemm_init(void)
{
    int isa = gemm_detect_isa();

    /* Block sizes. KC x NR x elsize (one packed B panel) is what the micro-kernel streams from L1 while
     * it reuses it MC/MR times; MC x KC x elsize (the packed A block) is about half of a 1-2 MiB L2;
     * KC x NC x elsize (the packed B block) a few MiB of L3. Larger KC amortises the load and store of
     * the C tile over more rank-1 updates: on Zen 5 (48 KiB L1, 1 MiB L2) KC = 384 measured 2-4% faster
     * than 256 for both float types, and MR = 8, 12 and 14 within noise of each other. */
    gemm_set_kernel(MT_FLOAT32, "generic 4x8", GEMM_GENERIC_MR, GEMM_GENERIC_NR, 256, 256, 2048,
                    ukr_f32_generic);
    gemm_set_kernel(MT_FLOAT64, "generic 4x8", GEMM_GENERIC_MR, GEMM_GENERIC_NR, 256, 128, 2048,
                    ukr_f64_generic);
    gemm_set_kernel(MT_INT32, "generic 4x8", GEMM_GENERIC_MR, GEMM_GENERIC_NR, 256, 256, 2048,
                    ukr_i32_generic);
    gemm_set_kernel(MT_INT64, "generic 4x8", GEMM_GENERIC_MR, GEMM_GENERIC_NR, 256, 128, 2048,
                    ukr_i64_generic);
#if defined(GEMM_X86)
    if (isa == GEMM_ISA_AVX2) {
        gemm_set_kernel(MT_FLOAT32, "avx2 6x16", 6, 16, 256, 288, 3072, ukr_f32_avx2);
        gemm_set_kernel(MT_FLOAT64, "avx2 6x8", 6, 8, 256, 144, 3072, ukr_f64_avx2);
        gemm_set_kernel(MT_INT32, "avx2 6x16", 6, 16, 256, 288, 3072, ukr_i32_avx2);
        gemm_set_kernel(MT_INT64, "avx2 6x8", 6, 8, 256, 144, 3072, ukr_i64_avx2);
    }
    else if (isa == GEMM_ISA_AVX512) {
        gemm_set_kernel(MT_FLOAT32, "avx512 12x32", 12, 32, 384, 336, 3072, ukr_f32_avx512);
        gemm_set_kernel(MT_FLOAT64, "avx512 8x16", 8, 16, 384, 240, 3072, ukr_f64_avx512);
        gemm_set_kernel(MT_INT32, "avx512 8x32", 8, 32, 256, 480, 3072, ukr_i32_avx512);
        gemm_set_kernel(MT_INT64, "avx512 8x16", 8, 16, 256, 240, 3072, ukr_i64_avx512);
    }
#else
    (void)isa;
#endif
    gemm_nthreads = gemm_detect_threads();
}

static void
gemm_ensure_init(void)
{
#if defined(GEMM_HAVE_PTHREADS)
    pthread_once(&gemm_once, gemm_init);
#else
    if (!gemm_initialised) {
        gemm_init();
        gemm_initialised = 1;
    }
#endif
}

const char *
mt_cpu_gemm_kernel_name(mt_dtype dtype)
{
    gemm_ensure_init();
    if (dtype < 0 || dtype >= MT_NUM_DTYPES || gemm_kernels[dtype].ukr == NULL) {
        return "none";
    }
    return gemm_kernels[dtype].name;
}

int
mt_cpu_gemm_num_threads(void)
{
    gemm_ensure_init();
    return gemm_nthreads;
}

/* ---- packing -------------------------------------------------------------------------------------- */

/* Element types only need to be moved here, so packing works on 4- and 8-byte words. The loop order
 * follows the source's unit stride: reading along the unit stride and writing with a short stride (MR or
 * NR words) keeps both streams in cache lines that are used whole. */
#define DEFINE_PACK(SUFFIX, W)                                                                        \
    static void                                                                                       \
    pack_a_##SUFFIX(int mr, int64_t mc, int64_t kc, const W *a, int64_t a_rs, int64_t a_cs, W *ap)     \
    {                                                                                                 \
        for (int64_t i0 = 0; i0 < mc; i0 += mr) {                                                     \
            int64_t rows = mc - i0 < mr ? mc - i0 : mr;                                               \
            const W *src = a + i0 * a_rs;                                                             \
            if (a_rs == 1 && rows == mr) {                                                            \
                for (int64_t p = 0; p < kc; p++) {                                                    \
                    memcpy(ap + p * mr, src + p * a_cs, (size_t)mr * sizeof(W));                      \
                }                                                                                     \
            }                                                                                         \
            else {                                                                                    \
                for (int64_t r = 0; r < rows; r++) {                                                  \
                    const W *s = src + r * a_rs;                                                      \
                    for (int64_t p = 0; p < kc; p++) {                                                \
                        ap[p * mr + r] = s[p * a_cs];                                                 \
                    }                                                                                 \
                }                                                                                     \
                for (int64_t r = rows; r < mr; r++) {                                                 \
                    for (int64_t p = 0; p < kc; p++) {                                                \
                        ap[p * mr + r] = 0;                                                           \
                    }                                                                                 \
                }                                                                                     \
            }                                                                                         \
            ap += (int64_t)mr * kc;                                                                   \
        }                                                                                             \
    }                                                                                                 \
                                                                                                      \
    static void                                                                                       \
    pack_b_##SUFFIX(int nr, int64_t kc, int64_t nc, const W *b, int64_t b_rs, int64_t b_cs, W *bp)     \
    {                                                                                                 \
        for (int64_t j0 = 0; j0 < nc; j0 += nr) {                                                     \
            int64_t cols = nc - j0 < nr ? nc - j0 : nr;                                               \
            const W *src = b + j0 * b_cs;                                                             \
            if (b_cs == 1) {                                                                          \
                for (int64_t p = 0; p < kc; p++) {                                                    \
                    W *dst = bp + p * nr;                                                             \
                    memcpy(dst, src + p * b_rs, (size_t)cols * sizeof(W));                            \
                    for (int64_t j = cols; j < nr; j++) {                                             \
                        dst[j] = 0;                                                                   \
                    }                                                                                 \
                }                                                                                     \
            }                                                                                         \
            else {                                                                                    \
                for (int64_t j = 0; j < cols; j++) {                                                  \
                    const W *s = src + j * b_cs;                                                      \
                    for (int64_t p = 0; p < kc; p++) {                                                \
                        bp[p * nr + j] = s[p * b_rs];                                                 \
                    }                                                                                 \
                }                                                                                     \
                for (int64_t j = cols; j < nr; j++) {                                                 \
                    for (int64_t p = 0; p < kc; p++) {                                                \
                        bp[p * nr + j] = 0;                                                           \
                    }                                                                                 \
                }                                                                                     \
            }                                                                                         \
            bp += (int64_t)nr * kc;                                                                   \
        }                                                                                             \
    }

DEFINE_PACK(w32, uint32_t)
DEFINE_PACK(w64, uint64_t)

static void
pack_a(size_t es, int mr, int64_t mc, int64_t kc, const char *a, int64_t a_rs, int64_t a_cs, void *ap)
{
    if (es == 4) {
        pack_a_w32(mr, mc, kc, (const uint32_t *)a, a_rs, a_cs, (uint32_t *)ap);
    }
    else {
        pack_a_w64(mr, mc, kc, (const uint64_t *)a, a_rs, a_cs, (uint64_t *)ap);
    }
}

static void
pack_b(size_t es, int nr, int64_t kc, int64_t nc, const char *b, int64_t b_rs, int64_t b_cs, void *bp)
{
    if (es == 4) {
        pack_b_w32(nr, kc, nc, (const uint32_t *)b, b_rs, b_cs, (uint32_t *)bp);
    }
    else {
        pack_b_w64(nr, kc, nc, (const uint64_t *)b, b_rs, b_cs, (uint64_t *)bp);
    }
}

/* Stores the valid rows x cols corner of a full tile computed into `tile` (row stride nr). The addition
 * is the same one the micro-kernel does when it accumulates in place, so edge tiles round exactly like
 * interior ones. */
#define DEFINE_TILE_STORE(NAME, T)                                                                    \
    static void                                                                                       \
    NAME(const void *tile_, int nr, int64_t rows, int64_t cols, void *c_, int64_t c_rs, int64_t c_cs,  \
         int accumulate)                                                                              \
    {                                                                                                 \
        const T *tile = (const T *)tile_;                                                             \
        T *c = (T *)c_;                                                                               \
        for (int64_t i = 0; i < rows; i++) {                                                          \
            for (int64_t j = 0; j < cols; j++) {                                                      \
                T *dst = c + i * c_rs + j * c_cs;                                                     \
                T v = tile[i * nr + j];                                                               \
                *dst = accumulate ? (T)(*dst + v) : v;                                                \
            }                                                                                         \
        }                                                                                             \
    }

DEFINE_TILE_STORE(tile_store_f32, float)
DEFINE_TILE_STORE(tile_store_f64, double)
DEFINE_TILE_STORE(tile_store_u32, uint32_t)
DEFINE_TILE_STORE(tile_store_u64, uint64_t)

static void
tile_store(mt_dtype dtype, const void *tile, int nr, int64_t rows, int64_t cols, void *c, int64_t c_rs,
           int64_t c_cs, int accumulate)
{
    switch (dtype) {
    case MT_FLOAT32:
        tile_store_f32(tile, nr, rows, cols, c, c_rs, c_cs, accumulate);
        break;
    case MT_FLOAT64:
        tile_store_f64(tile, nr, rows, cols, c, c_rs, c_cs, accumulate);
        break;
    case MT_INT32:
        tile_store_u32(tile, nr, rows, cols, c, c_rs, c_cs, accumulate);
        break;
    default:
        tile_store_u64(tile, nr, rows, cols, c, c_rs, c_cs, accumulate);
        break;
    }
}

/* ---- the five loops over one matrix (or a rectangle of it) ---------------------------------------- */

typedef struct {
    void *abuf;     /* packed A block: roundup(mc, mr) x kc */
    void *bbuf;     /* packed B block: kc x roundup(nc, nr) */
    void *tile;     /* one mr x nr tile for the edges */
} gemm_scratch;

static void *
gemm_aligned_alloc(size_t nbytes)
{
    void *p = NULL;

    if (nbytes == 0) {
        nbytes = GEMM_ALIGN;
    }
#if defined(_WIN32)
    p = _aligned_malloc(nbytes, GEMM_ALIGN);
#else
    if (posix_memalign(&p, GEMM_ALIGN, nbytes) != 0) {
        p = NULL;
    }
#endif
    return p;
}

static void
gemm_aligned_free(void *p)
{
#if defined(_WIN32)
    _aligned_free(p);
#else
    free(p);
#endif
}

static int64_t
round_up(int64_t x, int64_t to)
{
    return (x + to - 1) / to * to;
}

static int
gemm_scratch_alloc(gemm_scratch *s, const gemm_kernel *kr, size_t es, int64_t m, int64_t n, int64_t k)
{
    int64_t kc = k < kr->kc ? k : kr->kc;
    int64_t mc = round_up(m < kr->mc ? m : kr->mc, kr->mr);
    int64_t nc = round_up(n < kr->nc ? n : kr->nc, kr->nr);

    s->abuf = gemm_aligned_alloc((size_t)(mc * kc) * es);
    s->bbuf = gemm_aligned_alloc((size_t)(nc * kc) * es);
    s->tile = gemm_aligned_alloc((size_t)(kr->mr * kr->nr) * es);
    if (s->abuf == NULL || s->bbuf == NULL || s->tile == NULL) {
        gemm_aligned_free(s->abuf);
        gemm_aligned_free(s->bbuf);
        gemm_aligned_free(s->tile);
        return -1;
    }
    return 0;
}

static void
gemm_scratch_free(gemm_scratch *s)
{
    gemm_aligned_free(s->abuf);
    gemm_aligned_free(s->bbuf);
    gemm_aligned_free(s->tile);
}

static void
gemm_block(const gemm_kernel *kr, mt_dtype dtype, size_t es, int64_t m, int64_t n, int64_t k,
           const char *a, int64_t a_rs, int64_t a_cs, const char *b, int64_t b_rs, int64_t b_cs, char *c,
           int64_t c_rs, int64_t c_cs, gemm_scratch *s)
{
    const int mr = kr->mr;
    const int nr = kr->nr;

    for (int64_t jc = 0; jc < n; jc += kr->nc) {
        int64_t nc = n - jc < kr->nc ? n - jc : kr->nc;
        for (int64_t pc = 0; pc < k; pc += kr->kc) {
            int64_t kc = k - pc < kr->kc ? k - pc : kr->kc;
            int accumulate = pc > 0;
            pack_b(es, nr, kc, nc, b + (pc * b_rs + jc * b_cs) * (int64_t)es, b_rs, b_cs, s->bbuf);
            for (int64_t ic = 0; ic < m; ic += kr->mc) {
                int64_t mc = m - ic < kr->mc ? m - ic : kr->mc;
                pack_a(es, mr, mc, kc, a + (ic * a_rs + pc * a_cs) * (int64_t)es, a_rs, a_cs, s->abuf);
                for (int64_t jr = 0; jr < nc; jr += nr) {
                    int64_t cols = nc - jr < nr ? nc - jr : nr;
                    const char *bp = (const char *)s->bbuf + jr * kc * (int64_t)es;
                    for (int64_t ir = 0; ir < mc; ir += mr) {
                        int64_t rows = mc - ir < mr ? mc - ir : mr;
                        const char *ap = (const char *)s->abuf + ir * kc * (int64_t)es;
                        char *cp = c + ((ic + ir) * c_rs + (jc + jr) * c_cs) * (int64_t)es;
                        if (rows == mr && cols == nr && c_cs == 1) {
                            kr->ukr(kc, ap, bp, cp, c_rs, accumulate);
                        }
                        else {
                            kr->ukr(kc, ap, bp, s->tile, nr, 0);
                            tile_store(dtype, s->tile, nr, rows, cols, cp, c_rs, c_cs, accumulate);
                        }
                    }
                }
            }
        }
    }
}

/* ---- batches and threads --------------------------------------------------------------------------
 *
 * A product is cut into items: whole matrices of the batch when there are enough of them, otherwise
 * blocks of rows (or of columns) of C, several per thread. Threads take the next item from a shared
 * counter until none is left, so a thread slowed down by the rest of the machine simply takes fewer
 * items. Every item is computed the same way whichever thread takes it. */

typedef struct {
    const mt_gemm_desc *d;
    const gemm_kernel *kr;
    int split;              /* GEMM_SPLIT_* */
    int64_t chunk;          /* batches, rows or columns per item */
    int64_t nitems;
    int64_t total;          /* batch entries */
    int64_t next;           /* the next item to take (atomic) */
    int64_t done;           /* items finished (atomic) */
} gemm_job;

enum { GEMM_SPLIT_BATCH, GEMM_SPLIT_ROWS, GEMM_SPLIT_COLS };

static int64_t
atomic_take(int64_t *p)
{
#if defined(__GNUC__)
    return __atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
#else
    return (*p)++;  /* only reached without pthreads: one thread */
#endif
}

static void
atomic_bump(int64_t *p)
{
#if defined(__GNUC__)
    __atomic_fetch_add(p, 1, __ATOMIC_RELEASE);
#else
    (*p)++;
#endif
}

static void
batch_offsets(const mt_gemm_desc *d, int64_t index, int64_t *a_off, int64_t *b_off, int64_t *c_off)
{
    int64_t ao = 0;
    int64_t bo = 0;
    int64_t co = 0;

    for (int dim = d->nbatch - 1; dim >= 0; dim--) {
        int64_t size = d->batch_sizes[dim];
        int64_t i = index % size;
        index /= size;
        ao += i * d->a_bs[dim];
        bo += i * d->b_bs[dim];
        co += i * d->c_bs[dim];
    }
    *a_off = ao;
    *b_off = bo;
    *c_off = co;
}

/* One item: batch entries [b_lo, b_hi) restricted to rows [m_lo, m_hi) and columns [n_lo, n_hi). */
static void
gemm_run_item(const gemm_job *job, int64_t item, gemm_scratch *s)
{
    const mt_gemm_desc *d = job->d;
    size_t es = gemm_elsize(d->dtype);
    int64_t b_lo = 0;
    int64_t b_hi = job->total;
    int64_t m_lo = 0;
    int64_t m_hi = d->m;
    int64_t n_lo = 0;
    int64_t n_hi = d->n;

    if (job->split == GEMM_SPLIT_BATCH) {
        b_lo = item * job->chunk;
        b_hi = b_lo + job->chunk < job->total ? b_lo + job->chunk : job->total;
    }
    else if (job->split == GEMM_SPLIT_ROWS) {
        m_lo = item * job->chunk;
        m_hi = m_lo + job->chunk < d->m ? m_lo + job->chunk : d->m;
    }
    else {
        n_lo = item * job->chunk;
        n_hi = n_lo + job->chunk < d->n ? n_lo + job->chunk : d->n;
    }
    for (int64_t t = b_lo; t < b_hi; t++) {
        int64_t ao;
        int64_t bo;
        int64_t co;
        batch_offsets(d, t, &ao, &bo, &co);
        ao += m_lo * d->a_rs;
        bo += n_lo * d->b_cs;
        co += m_lo * d->c_rs + n_lo * d->c_cs;
        gemm_block(job->kr, d->dtype, es, m_hi - m_lo, n_hi - n_lo, d->k, (const char *)d->a + ao * (int64_t)es,
                   d->a_rs, d->a_cs, (const char *)d->b + bo * (int64_t)es, d->b_rs, d->b_cs,
                   (char *)d->c + co * (int64_t)es, d->c_rs, d->c_cs, s);
    }
}

/* A thread's loop: scratch sized for the largest item, then items until none is left. A thread that
 * cannot get scratch memory takes no item; the others finish the product. */
static void
gemm_job_work(gemm_job *job)
{
    const mt_gemm_desc *d = job->d;
    int64_t m = job->split == GEMM_SPLIT_ROWS && job->chunk < d->m ? job->chunk : d->m;
    int64_t n = job->split == GEMM_SPLIT_COLS && job->chunk < d->n ? job->chunk : d->n;
    gemm_scratch s;

    if (gemm_scratch_alloc(&s, job->kr, gemm_elsize(d->dtype), m, n, d->k) < 0) {
        return;
    }
    for (;;) {
        int64_t item = atomic_take(&job->next);
        if (item >= job->nitems) {
            break;
        }
        gemm_run_item(job, item, &s);
        atomic_bump(&job->done);
    }
    gemm_scratch_free(&s);
}

#if defined(GEMM_HAVE_PTHREADS)
static void *
gemm_thread_main(void *arg)
{
    gemm_job_work((gemm_job *)arg);
    return NULL;
}
#endif

/* Runs the job on the calling thread and nthreads - 1 helpers; -1 if items were left undone (no thread
 * could get scratch memory). */
static int
gemm_run_job(gemm_job *job, int nthreads)
{
    int64_t done;
#if defined(GEMM_HAVE_PTHREADS)
    pthread_t threads[GEMM_MAX_THREADS];
    int started[GEMM_MAX_THREADS];

    for (int i = 1; i < nthreads; i++) {
        started[i] = pthread_create(&threads[i], NULL, gemm_thread_main, job) == 0;
    }
    gemm_job_work(job);
    for (int i = 1; i < nthreads; i++) {
        if (started[i]) {
            pthread_join(threads[i], NULL);
        }
    }
#else
    (void)nthreads;
    gemm_job_work(job);
#endif
#if defined(__GNUC__)
    done = __atomic_load_n(&job->done, __ATOMIC_ACQUIRE);
#else
    done = job->done;
#endif
    return done == job->nitems ? 0 : -1;
}

/* Matrix-vector shapes (one row or one column of C) go to the GEMV: packing an n x 1 panel to NR wide
 * would multiply mostly zeros. */
static void
gemm_as_gemv(const mt_gemm_desc *d, int64_t nbatch_total)
{
    size_t es = gemm_elsize(d->dtype);

    for (int64_t t = 0; t < nbatch_total; t++) {
        int64_t ao;
        int64_t bo;
        int64_t co;
        const char *a;
        const char *b;
        char *c;
        batch_offsets(d, t, &ao, &bo, &co);
        a = (const char *)d->a + ao * (int64_t)es;
        b = (const char *)d->b + bo * (int64_t)es;
        c = (char *)d->c + co * (int64_t)es;
        if (d->n == 1) {
            /* C[:, 0] = A @ B[:, 0] */
            mt_cpu_gemv(d->dtype, d->m, d->k, a, d->a_rs, d->a_cs, b, d->b_rs, c, d->c_rs);
        }
        else {
            /* C[0, :] = B^T @ A[0, :] */
            mt_cpu_gemv(d->dtype, d->n, d->k, b, d->b_cs, d->b_rs, a, d->a_cs, c, d->c_cs);
        }
    }
}

static void
gemm_zero(const mt_gemm_desc *d, int64_t nbatch_total)
{
    size_t es = gemm_elsize(d->dtype);

    for (int64_t t = 0; t < nbatch_total; t++) {
        int64_t ao;
        int64_t bo;
        int64_t co;
        batch_offsets(d, t, &ao, &bo, &co);
        for (int64_t i = 0; i < d->m; i++) {
            for (int64_t j = 0; j < d->n; j++) {
                /* all-zero bytes are 0 in every supported dtype */
                memset((char *)d->c + (co + i * d->c_rs + j * d->c_cs) * (int64_t)es, 0, es);
            }
        }
    }
}

int
mt_cpu_gemm(const mt_gemm_desc *d)
{
    gemm_job job;
    int64_t total = 1;
    double flops;
    int nthreads;
    int64_t target;

    gemm_ensure_init();
    for (int i = 0; i < d->nbatch; i++) {
        total *= d->batch_sizes[i];
    }
    if (total == 0 || d->m == 0 || d->n == 0) {
        return 0;
    }
    if (d->k == 0) {
        gemm_zero(d, total);
        return 0;
    }
    if (d->m == 1 || d->n == 1) {
        gemm_as_gemv(d, total);
        return 0;
    }

    memset(&job, 0, sizeof job);
    job.d = d;
    job.kr = &gemm_kernels[d->dtype];
    job.total = total;
    flops = 2.0 * (double)d->m * (double)d->n * (double)d->k * (double)total;
    nthreads = gemm_nthreads;
    if ((double)nthreads * GEMM_MIN_FLOPS_PER_THREAD > flops) {
        nthreads = (int)(flops / GEMM_MIN_FLOPS_PER_THREAD);
        if (nthreads < 1) {
            nthreads = 1;
        }
    }
    /* about four items per thread, none under GEMM_MIN_FLOPS_PER_THREAD / 2 */
    target = nthreads == 1 ? 1 : 4 * (int64_t)nthreads;
    if (target > 1 && flops / (double)target < GEMM_MIN_FLOPS_PER_THREAD / 2) {
        target = (int64_t)(2.0 * flops / GEMM_MIN_FLOPS_PER_THREAD);
        if (target < nthreads) {
            target = nthreads;
        }
    }
    if (target == 1) {
        job.split = GEMM_SPLIT_BATCH;
        job.chunk = total;
    }
    else if (total >= target || total >= 2 * nthreads) {
        /* whole matrices per item: no packing is repeated */
        job.split = GEMM_SPLIT_BATCH;
        job.chunk = (total + target - 1) / target;
    }
    else if (d->m >= d->n) {
        /* row blocks: each item packs all of B (k x n, the smaller operand) and its own rows of A.
         * Packing B costs about as much as a few flops per element, an item does 2 * rows flops per
         * element of B, so items keep at least GEMM_MIN_SPLIT rows to hold that overhead to a few %. */
        job.split = GEMM_SPLIT_ROWS;
        job.chunk = round_up((d->m + target - 1) / target, job.kr->mr);
        if (job.chunk < round_up(GEMM_MIN_SPLIT, job.kr->mr)) {
            job.chunk = round_up(GEMM_MIN_SPLIT, job.kr->mr);
        }
    }
    else {
        job.split = GEMM_SPLIT_COLS;
        job.chunk = round_up((d->n + target - 1) / target, job.kr->nr);
        if (job.chunk < round_up(GEMM_MIN_SPLIT, job.kr->nr)) {
            job.chunk = round_up(GEMM_MIN_SPLIT, job.kr->nr);
        }
    }
    if (job.split == GEMM_SPLIT_BATCH) {
        job.nitems = (total + job.chunk - 1) / job.chunk;
    }
    else if (job.split == GEMM_SPLIT_ROWS) {
        job.nitems = (d->m + job.chunk - 1) / job.chunk;
    }
    else {
        job.nitems = (d->n + job.chunk - 1) / job.chunk;
    }
    if (nthreads > job.nitems) {
        nthreads = (int)job.nitems;
    }
    return gemm_run_job(&job, nthreads);
}

/* ---- DOT and GEMV ---------------------------------------------------------------------------------
 *
 * Memory-bound, so plain C: eight independent partial sums let the compiler keep eight lanes busy
 * without reassociating anything itself; they are combined pairwise at the end. float32 sums in
 * float32, as BLAS sdot does. */

#define DEFINE_DOT(NAME, T)                                                                           \
    static T                                                                                          \
    NAME(int64_t n, const T *x, int64_t incx, const T *y, int64_t incy)                               \
    {                                                                                                 \
        T s[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                                            \
        T tail = 0;                                                                                   \
        int64_t i = 0;                                                                                \
        if (incx == 1 && incy == 1) {                                                                 \
            for (; i + 8 <= n; i += 8) {                                                              \
                for (int j = 0; j < 8; j++) {                                                         \
                    s[j] += x[i + j] * y[i + j];                                                      \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
        else {                                                                                        \
            for (; i + 8 <= n; i += 8) {                                                              \
                for (int j = 0; j < 8; j++) {                                                         \
                    s[j] += x[(i + j) * incx] * y[(i + j) * incy];                                    \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
        for (; i < n; i++) {                                                                          \
            tail += x[i * incx] * y[i * incy];                                                        \
        }                                                                                             \
        return (T)((T)((T)(s[0] + s[1]) + (T)(s[2] + s[3])) + (T)((T)(s[4] + s[5]) + (T)(s[6] + s[7])) \
                   + tail);                                                                           \
    }

DEFINE_DOT(dot_f32, float)
DEFINE_DOT(dot_f64, double)
DEFINE_DOT(dot_u32, uint32_t)
DEFINE_DOT(dot_u64, uint64_t)

/* A row-major (or any non-column-major) matrix: one dot product per row. A column-major one (a_rs == 1,
 * e.g. a transposed view): y accumulates column after column, which reads A along its unit stride. */
#define DEFINE_GEMV(NAME, T, DOT)                                                                     \
    static void                                                                                       \
    NAME(int64_t m, int64_t k, const T *a, int64_t a_rs, int64_t a_cs, const T *x, int64_t incx, T *y, \
         int64_t incy)                                                                                \
    {                                                                                                 \
        if (a_rs == 1 && a_cs != 1) {                                                                 \
            for (int64_t i = 0; i < m; i++) {                                                         \
                y[i * incy] = 0;                                                                      \
            }                                                                                         \
            for (int64_t p = 0; p < k; p++) {                                                         \
                const T *col = a + p * a_cs;                                                          \
                T xp = x[p * incx];                                                                   \
                if (incy == 1) {                                                                      \
                    for (int64_t i = 0; i < m; i++) {                                                 \
                        y[i] += col[i] * xp;                                                          \
                    }                                                                                 \
                }                                                                                     \
                else {                                                                                \
                    for (int64_t i = 0; i < m; i++) {                                                 \
                        y[i * incy] += col[i] * xp;                                                   \
                    }                                                                                 \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
        else {                                                                                        \
            for (int64_t i = 0; i < m; i++) {                                                         \
                y[i * incy] = DOT(k, a + i * a_rs, a_cs, x, incx);                                    \
            }                                                                                         \
        }                                                                                             \
    }

DEFINE_GEMV(gemv_f32, float, dot_f32)
DEFINE_GEMV(gemv_f64, double, dot_f64)
DEFINE_GEMV(gemv_u32, uint32_t, dot_u32)
DEFINE_GEMV(gemv_u64, uint64_t, dot_u64)

void
mt_cpu_gemv(mt_dtype dtype, int64_t m, int64_t k, const void *a, int64_t a_rs, int64_t a_cs,
            const void *x, int64_t incx, void *y, int64_t incy)
{
    switch (dtype) {
    case MT_FLOAT32:
        gemv_f32(m, k, (const float *)a, a_rs, a_cs, (const float *)x, incx, (float *)y, incy);
        break;
    case MT_FLOAT64:
        gemv_f64(m, k, (const double *)a, a_rs, a_cs, (const double *)x, incx, (double *)y, incy);
        break;
    case MT_INT32:
        gemv_u32(m, k, (const uint32_t *)a, a_rs, a_cs, (const uint32_t *)x, incx, (uint32_t *)y, incy);
        break;
    case MT_INT64:
        gemv_u64(m, k, (const uint64_t *)a, a_rs, a_cs, (const uint64_t *)x, incx, (uint64_t *)y, incy);
        break;
    default:
        break;
    }
}

void
mt_cpu_dot(mt_dtype dtype, int64_t n, const void *x, int64_t incx, const void *y, int64_t incy, void *out)
{
    switch (dtype) {
    case MT_FLOAT32: {
        float r = dot_f32(n, (const float *)x, incx, (const float *)y, incy);
        memcpy(out, &r, sizeof r);
        break;
    }
    case MT_FLOAT64: {
        double r = dot_f64(n, (const double *)x, incx, (const double *)y, incy);
        memcpy(out, &r, sizeof r);
        break;
    }
    case MT_INT32: {
        uint32_t r = dot_u32(n, (const uint32_t *)x, incx, (const uint32_t *)y, incy);
        memcpy(out, &r, sizeof r);
        break;
    }
    case MT_INT64: {
        uint64_t r = dot_u64(n, (const uint64_t *)x, incx, (const uint64_t *)y, incy);
        memcpy(out, &r, sizeof r);
        break;
    }
    default:
        break;
    }
}
