/* gemm.c: the host matrix-multiply kernels behind matmul/mm/bmm/mv/dot on the CPU and on the simulated
 * GPU: a cache-blocked, packed GEMM in the Goto/BLIS design with run-time chosen SIMD micro-kernels, a
 * GEMV and a DOT. It owns the blocking parameters, the packing formats, the micro-kernels, the choice
 * among them (CPUID at first use) and how one product is shared among the host thread pool's threads
 * (parallel.h), and keeps each calling thread's packing buffers between products. It must not touch Python
 * objects, raise Python exceptions or allocate tensors: it runs with the GIL released and reports
 * failure (only "no scratch memory") by its return value. Integer arithmetic is done in unsigned types so
 * that overflow wraps around (torch's behaviour) without undefined behaviour. */
#include "gemm.h"
#include "cpu_features.h"
#include "parallel.h"

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
 * C = acc for the first block and C = C + acc for later ones; the KC blocks depend on k alone. Threads
 * split C into disjoint tiles (or the batch into disjoint matrices) and never split k, so the result does
 * not depend on the number of threads. Products of a few thousand multiply-adds skip packing altogether
 * (a plain loop per element, chosen by shape). The micro-kernels sit behind a function pointer chosen at
 * run time from CPUID, so one build runs everywhere and uses AVX-512 or AVX2 where the CPU has them. */

typedef void (*gemm_ukr_fn)(int64_t kc, const void *ap, const void *bp, void *c, int64_t c_rs,
                            int accumulate);

typedef struct {
    const char *name;
    int mr, nr;             /* register tile */
    int64_t kc, mc, nc;     /* cache blocks, in elements; mc is a multiple of mr, nc of nr */
    gemm_ukr_fn ukr;        /* C[0:mr, 0:nr] (row stride c_rs, unit column stride) = or += Ap @ Bp */
} gemm_kernel;

/* Below this many flops per thread a product runs on fewer threads: handing a region to the pool's
 * (persistent) threads costs a few microseconds when they are awake and tens when they sleep, about
 * what 2 MFLOP take at full speed. */
#define GEMM_MIN_FLOPS_PER_THREAD 2e6
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
        /* the C tile is read or written only after the k loop: fetch its lines meanwhile */
        _mm_prefetch((const char *)(c + i * c_rs), _MM_HINT_T0);
        _mm_prefetch((const char *)(c + i * c_rs + 16), _MM_HINT_T0);
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
        _mm_prefetch((const char *)(c + i * c_rs), _MM_HINT_T0);
        _mm_prefetch((const char *)(c + i * c_rs + 8), _MM_HINT_T0);
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
    ukr_f64_avx512_body(12, kc, (const double *)ap, (const double *)bp, (double *)c, c_rs, accumulate);
}

__attribute__((target("avx2,fma"), always_inline)) static inline void
ukr_f32_avx2_body(const int mr, int64_t kc, const float *ap, const float *bp, float *c, int64_t c_rs,
                  int accumulate)
{
    __m256 c0[8];
    __m256 c1[8];

    GEMM_UNROLL
    for (int i = 0; i < mr; i++) {
        _mm_prefetch((const char *)(c + i * c_rs), _MM_HINT_T0);
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
        _mm_prefetch((const char *)(c + i * c_rs), _MM_HINT_T0);
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

/* ---- x86 packing of a transposed B (AVX2) -----------------------------------------------------------
 *
 * A B whose k stride is 1 (x @ w.t(), as Linear computes) has each column contiguous, and its packed
 * panels want k rows of NR columns: a transpose, which word by word costs a quarter of such a product.
 * Here eight columns' next eight words are loaded, transposed in registers and stored as eight rows of
 * the panel. Only words move (no arithmetic), so the packed panel is the scalar loop's, bit for bit. */

__attribute__((target("avx2"))) static inline void
transpose_8x8_w32(const uint32_t *src, int64_t src_stride, uint32_t *dst, int64_t dst_stride)
{
    __m256 r[8], t[8], u[8];

    for (int i = 0; i < 8; i++) {
        r[i] = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(src + i * src_stride)));
    }
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; i++) {
        _mm256_storeu_si256((__m256i *)(dst + i * dst_stride),
                            _mm256_castps_si256(_mm256_permute2f128_ps(u[i], u[i + 4], 0x20)));
        _mm256_storeu_si256((__m256i *)(dst + (i + 4) * dst_stride),
                            _mm256_castps_si256(_mm256_permute2f128_ps(u[i], u[i + 4], 0x31)));
    }
}

/* The whole NR-column panels of B (k stride 1) into bp; returns how many columns it packed. */
__attribute__((target("avx2"))) static int64_t
pack_b_transposed_w32(int nr, int64_t kc, int64_t nc, const uint32_t *b, int64_t b_cs, uint32_t *bp)
{
    int64_t done = nc - nc % nr;

    for (int64_t j0 = 0; j0 < done; j0 += nr) {
        for (int64_t j = 0; j < nr; j += 8) {
            const uint32_t *src = b + (j0 + j) * b_cs;
            int64_t p = 0;
            for (; p + 8 <= kc; p += 8) {
                transpose_8x8_w32(src + p, b_cs, bp + p * nr + j, nr);
            }
            for (; p < kc; p++) {
                for (int64_t c = 0; c < 8; c++) {
                    bp[p * nr + j + c] = src[c * b_cs + p];
                }
            }
        }
        bp += (int64_t)nr * kc;
    }
    return done;
}

/* Four rows' next eight words, stored as eight rows of four: the packed A of a row-major A, whose panels
 * want k rows of MR words. */
__attribute__((target("avx2"))) static inline void
transpose_4x8_w32(const uint32_t *src, int64_t src_stride, uint32_t *dst, int64_t dst_stride)
{
    __m256 r[4], t[4], u[4];

    for (int i = 0; i < 4; i++) {
        r[i] = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(src + i * src_stride)));
    }
    t[0] = _mm256_unpacklo_ps(r[0], r[1]);
    t[1] = _mm256_unpackhi_ps(r[0], r[1]);
    t[2] = _mm256_unpacklo_ps(r[2], r[3]);
    t[3] = _mm256_unpackhi_ps(r[2], r[3]);
    u[0] = _mm256_shuffle_ps(t[0], t[2], _MM_SHUFFLE(1, 0, 1, 0));
    u[1] = _mm256_shuffle_ps(t[0], t[2], _MM_SHUFFLE(3, 2, 3, 2));
    u[2] = _mm256_shuffle_ps(t[1], t[3], _MM_SHUFFLE(1, 0, 1, 0));
    u[3] = _mm256_shuffle_ps(t[1], t[3], _MM_SHUFFLE(3, 2, 3, 2));
    for (int i = 0; i < 4; i++) {
        _mm_storeu_si128((__m128i *)(dst + i * dst_stride), _mm_castps_si128(_mm256_castps256_ps128(u[i])));
        _mm_storeu_si128((__m128i *)(dst + (i + 4) * dst_stride), _mm_castps_si128(_mm256_extractf128_ps(u[i], 1)));
    }
}

/* The whole MR-row panels of A (k stride 1) into ap, four rows at a time (the rows of MR beyond a multiple
 * of four word by word); returns how many rows it packed. */
__attribute__((target("avx2"))) static int64_t
pack_a_row_major_w32(int mr, int64_t mc, int64_t kc, const uint32_t *a, int64_t a_rs, uint32_t *ap)
{
    int64_t done = mc - mc % mr;

    for (int64_t i0 = 0; i0 < done; i0 += mr) {
        for (int64_t r = 0; r < mr; r += 4) {
            const uint32_t *src = a + (i0 + r) * a_rs;
            int64_t rows = mr - r < 4 ? mr - r : 4;
            int64_t p = 0;
            if (rows == 4) {
                for (; p + 8 <= kc; p += 8) {
                    transpose_4x8_w32(src + p, a_rs, ap + p * mr + r, mr);
                }
            }
            for (; p < kc; p++) {
                for (int64_t c = 0; c < rows; c++) {
                    ap[p * mr + r + c] = src[c * a_rs + p];
                }
            }
        }
        ap += (int64_t)mr * kc;
    }
    return done;
}

#endif /* GEMM_X86 */

/* ---- kernel choice (once per process) -------------------------------------------- */

enum { GEMM_ISA_GENERIC = 0, GEMM_ISA_AVX2 = 1, GEMM_ISA_AVX512 = 2 };

static gemm_kernel gemm_kernels[MT_NUM_DTYPES];
static int gemm_pack_avx2 = 0;   /* the AVX2 packing of transposed operands can run */

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
gemm_detect_isa(void)
{
#if defined(GEMM_X86)
    switch (mt_cpu_isa_level()) {
    case MT_CPU_ISA_AVX512:
        return GEMM_ISA_AVX512;
    case MT_CPU_ISA_AVX2:
        return GEMM_ISA_AVX2;
    default:
        return GEMM_ISA_GENERIC;
    }
#else
    return GEMM_ISA_GENERIC;
#endif
}

static void
gemm_init(void)
{
    int isa = gemm_detect_isa();

    /* Block sizes. KC x NR x elsize (one packed B panel) is what the micro-kernel streams from L1 while
     * it reuses it MC/MR times; MC x KC x elsize (the packed A block) is about half of a 1-2 MiB L2;
     * KC x NC x elsize (the packed B block) a few MiB of L3. Larger KC amortises the load and store of
     * the C tile over more rank-1 updates: on Zen 5 (48 KiB L1, 1 MiB L2) KC = 384 measured 2-4% faster
     * than 256 for both float types, and MR = 8, 12 and 14 within noise of each other (12 rows give
     * float64 the same 24 accumulators as float32, and the fewest loads per FMA). KC is an upper bound:
     * gemm_kc() splits k into equal blocks of at most KC. */
    gemm_set_kernel(MT_FLOAT32, "generic 4x8", GEMM_GENERIC_MR, GEMM_GENERIC_NR, 256, 256, 2048,
                    ukr_f32_generic);
    gemm_set_kernel(MT_FLOAT64, "generic 4x8", GEMM_GENERIC_MR, GEMM_GENERIC_NR, 256, 128, 2048,
                    ukr_f64_generic);
    gemm_set_kernel(MT_INT32, "generic 4x8", GEMM_GENERIC_MR, GEMM_GENERIC_NR, 256, 256, 2048,
                    ukr_i32_generic);
    gemm_set_kernel(MT_INT64, "generic 4x8", GEMM_GENERIC_MR, GEMM_GENERIC_NR, 256, 128, 2048,
                    ukr_i64_generic);
#if defined(GEMM_X86)
    gemm_pack_avx2 = isa >= GEMM_ISA_AVX2;   /* the AVX2 and AVX-512 tiles are 16 and 32 words wide */
    if (isa == GEMM_ISA_AVX2) {
        gemm_set_kernel(MT_FLOAT32, "avx2 6x16", 6, 16, 256, 288, 3072, ukr_f32_avx2);
        gemm_set_kernel(MT_FLOAT64, "avx2 6x8", 6, 8, 256, 144, 3072, ukr_f64_avx2);
        gemm_set_kernel(MT_INT32, "avx2 6x16", 6, 16, 256, 288, 3072, ukr_i32_avx2);
        gemm_set_kernel(MT_INT64, "avx2 6x8", 6, 8, 256, 144, 3072, ukr_i64_avx2);
    }
    else if (isa == GEMM_ISA_AVX512) {
        gemm_set_kernel(MT_FLOAT32, "avx512 12x32", 12, 32, 384, 336, 3072, ukr_f32_avx512);
        gemm_set_kernel(MT_FLOAT64, "avx512 12x16", 12, 16, 384, 240, 3072, ukr_f64_avx512);
        gemm_set_kernel(MT_INT32, "avx512 8x32", 8, 32, 256, 480, 3072, ukr_i32_avx512);
        gemm_set_kernel(MT_INT64, "avx512 8x16", 8, 16, 256, 240, 3072, ukr_i64_avx512);
    }
#else
    (void)isa;
#endif
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
    return mt_parallel_get_num_threads();
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
#if defined(GEMM_X86)
        if (gemm_pack_avx2 && a_cs == 1 && a_rs != 1) {
            int64_t done = pack_a_row_major_w32(mr, mc, kc, (const uint32_t *)a, a_rs, (uint32_t *)ap);
            a += done * a_rs * (int64_t)es;
            ap = (char *)ap + done * kc * (int64_t)es;
            mc -= done;
        }
#endif
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
#if defined(GEMM_X86)
        if (gemm_pack_avx2 && b_rs == 1 && b_cs != 1) {
            int64_t done = pack_b_transposed_w32(nr, kc, nc, (const uint32_t *)b, b_cs, (uint32_t *)bp);
            b += done * b_cs * (int64_t)es;
            bp = (char *)bp + done * kc * (int64_t)es;
            nc -= done;
        }
#endif
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

/* ---- the five loops over one matrix ---------------------------------------------------------------- */

static int64_t
round_up(int64_t x, int64_t to)
{
    return (x + to - 1) / to * to;
}

/* The k block: KC at most, and the k blocks of one product all about equal, so that no thin last block
 * pays the load and store of C for a few rank-1 updates. It depends on k and the kernel only, never on
 * the thread count: the sum for one element of C is split at the same places whatever runs it. */
static int64_t
gemm_kc(const gemm_kernel *kr, int64_t k)
{
    int64_t blocks = (k + kr->kc - 1) / kr->kc;
    return (k + blocks - 1) / blocks;
}

/* C[0:mc, 0:nc] = (or +=) Ap @ Bp for a packed A block (mc x kc) and a packed B block (kc x nc). The
 * B micro-panel of the jr loop stays in L1 while the A micro-panels of the ir loop stream from L2. */
static void
gemm_macro(const gemm_kernel *kr, mt_dtype dtype, size_t es, int64_t mc, int64_t nc, int64_t kc, const char *ap0,
           const char *bp0, char *c, int64_t c_rs, int64_t c_cs, int accumulate, void *tile)
{
    const int mr = kr->mr;
    const int nr = kr->nr;

    for (int64_t jr = 0; jr < nc; jr += nr) {
        int64_t cols = nc - jr < nr ? nc - jr : nr;
        const char *bp = bp0 + jr * kc * (int64_t)es;
        for (int64_t ir = 0; ir < mc; ir += mr) {
            int64_t rows = mc - ir < mr ? mc - ir : mr;
            const char *ap = ap0 + ir * kc * (int64_t)es;
            char *cp = c + (ir * c_rs + jr * c_cs) * (int64_t)es;
            if (rows == mr && cols == nr && c_cs == 1) {
                kr->ukr(kc, ap, bp, cp, c_rs, accumulate);
            }
            else {
                kr->ukr(kc, ap, bp, tile, nr, 0);
                tile_store(dtype, tile, nr, rows, cols, cp, c_rs, c_cs, accumulate);
            }
        }
    }
}

/* One whole product on one thread, with private packing buffers (abuf: mc x kc, bbuf: kc x nc). */
static void
gemm_block(const gemm_kernel *kr, mt_dtype dtype, size_t es, int64_t m, int64_t n, int64_t k, const char *a,
           int64_t a_rs, int64_t a_cs, const char *b, int64_t b_rs, int64_t b_cs, char *c, int64_t c_rs,
           int64_t c_cs, void *abuf, void *bbuf, void *tile)
{
    const int64_t kcb = gemm_kc(kr, k);

    for (int64_t jc = 0; jc < n; jc += kr->nc) {
        int64_t nc = n - jc < kr->nc ? n - jc : kr->nc;
        for (int64_t pc = 0; pc < k; pc += kcb) {
            int64_t kc = k - pc < kcb ? k - pc : kcb;
            pack_b(es, kr->nr, kc, nc, b + (pc * b_rs + jc * b_cs) * (int64_t)es, b_rs, b_cs, bbuf);
            for (int64_t ic = 0; ic < m; ic += kr->mc) {
                int64_t mc = m - ic < kr->mc ? m - ic : kr->mc;
                pack_a(es, kr->mr, mc, kc, a + (ic * a_rs + pc * a_cs) * (int64_t)es, a_rs, a_cs, abuf);
                gemm_macro(kr, dtype, es, mc, nc, kc, abuf, bbuf, c + (ic * c_rs + jc * c_cs) * (int64_t)es, c_rs,
                           c_cs, pc > 0, tile);
            }
        }
    }
}

/* ---- scratch memory -------------------------------------------------------------------------------
 *
 * Packing buffers are kept per calling thread between products (small products then allocate nothing)
 * and handed to the pool's threads for the duration of one product; blocks over GEMM_KEEP_BYTES are
 * returned after the product. */

#define GEMM_KEEP_BYTES ((size_t)32 << 20)

typedef struct {
    void *p;
    size_t size;
} gemm_cache;

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

#if defined(GEMM_HAVE_PTHREADS)
static pthread_key_t gemm_cache_key;
static pthread_once_t gemm_cache_once = PTHREAD_ONCE_INIT;

static void
gemm_cache_destroy(void *v)
{
    gemm_cache *cache = v;
    gemm_aligned_free(cache->p);
    free(cache);
}

static void
gemm_cache_key_init(void)
{
    if (pthread_key_create(&gemm_cache_key, gemm_cache_destroy) != 0) {
        gemm_cache_key = 0;
    }
}
#endif

/* A 64-byte aligned block of at least nbytes for the calling thread; NULL without memory. */
static void *
gemm_scratch(size_t nbytes, gemm_cache **owner)
{
    gemm_cache *cache = NULL;

    *owner = NULL;
#if defined(GEMM_HAVE_PTHREADS)
    pthread_once(&gemm_cache_once, gemm_cache_key_init);
    cache = pthread_getspecific(gemm_cache_key);
    if (cache == NULL) {
        cache = calloc(1, sizeof *cache);
        if (cache != NULL && pthread_setspecific(gemm_cache_key, cache) != 0) {
            free(cache);
            cache = NULL;
        }
    }
#endif
    if (cache == NULL) {
        return gemm_aligned_alloc(nbytes);      /* no cache: the caller frees it (owner NULL) */
    }
    *owner = cache;
    if (cache->size < nbytes) {
        gemm_aligned_free(cache->p);
        cache->size = 0;
        cache->p = gemm_aligned_alloc(nbytes);
        if (cache->p == NULL) {
            return NULL;
        }
        cache->size = nbytes;
    }
    return cache->p;
}

static void
gemm_scratch_done(void *p, gemm_cache *owner)
{
    if (owner == NULL) {
        gemm_aligned_free(p);
    }
    else if (owner->size > GEMM_KEEP_BYTES) {
        gemm_aligned_free(owner->p);
        owner->p = NULL;
        owner->size = 0;
    }
}

/* ---- batches and threads --------------------------------------------------------------------------
 *
 * Two ways to share a product between threads, both leaving every element of C computed by the same
 * arithmetic as on one thread:
 *
 * - batch: whole matrices of the batch per item, taken from a shared counter; each thread packs into its
 *   own buffers. Used when the batch has enough matrices to keep every thread busy.
 * - shared: the threads go through the (jc, pc) blocks of one matrix together. For each block they pack
 *   B into one shared buffer (each thread a slice of its NR panels; two buffers alternate so that a
 *   single barrier per block suffices), then take units of C (an MC-row block, or part of its columns
 *   when there are too few row blocks) from a shared counter, packing their rows of A privately. B is
 *   packed once per product, as on one thread, instead of once per thread. */

#define GEMM_MAX_THREADS 256

typedef struct {
    const mt_gemm_desc *d;
    const gemm_kernel *kr;
    size_t es;
    int64_t total;              /* batch entries */
    /* per-thread buffers: abuf[t] = abufs + t * abytes, ... */
    char *abufs;
    char *bbufs;                /* batch: one per thread; shared: two alternating */
    char *tiles;
    size_t abytes, bbytes, tbytes;
    /* batch mode */
    int64_t chunk;              /* matrices per item */
    int64_t nitems;
    int64_t next;               /* atomic */
    /* shared mode */
    int64_t mcb;                /* rows per unit */
    int64_t nblk_m;             /* row blocks */
    int nsplit_n;               /* column parts per row block */
    int64_t counter;            /* atomic: units handed out (over all stages) */
    mt_barrier bar;
} gemm_job;

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

static void
gemm_one_matrix(const gemm_job *job, int64_t t, void *abuf, void *bbuf, void *tile)
{
    const mt_gemm_desc *d = job->d;
    int64_t ao;
    int64_t bo;
    int64_t co;

    batch_offsets(d, t, &ao, &bo, &co);
    gemm_block(job->kr, d->dtype, job->es, d->m, d->n, d->k, (const char *)d->a + ao * (int64_t)job->es, d->a_rs,
               d->a_cs, (const char *)d->b + bo * (int64_t)job->es, d->b_rs, d->b_cs,
               (char *)d->c + co * (int64_t)job->es, d->c_rs, d->c_cs, abuf, bbuf, tile);
}

static void
gemm_batch_body(void *vjob, int tid, int nthreads)
{
    gemm_job *job = vjob;
    void *abuf = job->abufs + (size_t)tid * job->abytes;
    void *bbuf = job->bbufs + (size_t)tid * job->bbytes;
    void *tile = job->tiles + (size_t)tid * job->tbytes;
    (void)nthreads;

    for (;;) {
        int64_t item = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        int64_t lo = item * job->chunk;
        int64_t hi = lo + job->chunk < job->total ? lo + job->chunk : job->total;
        if (lo >= job->total) {
            break;
        }
        for (int64_t t = lo; t < hi; t++) {
            gemm_one_matrix(job, t, abuf, bbuf, tile);
        }
    }
}

static void
gemm_shared_body(void *vjob, int tid, int nt)
{
    gemm_job *job = vjob;
    const mt_gemm_desc *d = job->d;
    const gemm_kernel *kr = job->kr;
    const size_t es = job->es;
    const int64_t kcb = gemm_kc(kr, d->k);
    const int64_t nunits = job->nblk_m * job->nsplit_n;
    char *abuf = job->abufs + (size_t)tid * job->abytes;
    void *tile = job->tiles + (size_t)tid * job->tbytes;
    int64_t base = 0;
    int64_t stage = 0;

    for (int64_t t = 0; t < job->total; t++) {
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
        for (int64_t jc = 0; jc < d->n; jc += kr->nc) {
            int64_t nc = d->n - jc < kr->nc ? d->n - jc : kr->nc;
            int64_t npanels = (nc + kr->nr - 1) / kr->nr;
            for (int64_t pc = 0; pc < d->k; pc += kcb, stage++) {
                int64_t kc = d->k - pc < kcb ? d->k - pc : kcb;
                char *bbuf = job->bbufs + (size_t)(stage & 1) * job->bbytes;
                int64_t q0 = npanels * tid / nt;
                int64_t q1 = npanels * (tid + 1) / nt;
                int64_t packed_im = -1;
                if (q1 > q0) {
                    int64_t j0 = q0 * kr->nr;
                    int64_t j1 = q1 * kr->nr < nc ? q1 * kr->nr : nc;
                    pack_b(es, kr->nr, kc, j1 - j0, b + (pc * d->b_rs + (jc + j0) * d->b_cs) * (int64_t)es, d->b_rs,
                           d->b_cs, bbuf + j0 * kc * (int64_t)es);
                }
                if (nt > 1) {
                    mt_barrier_wait(&job->bar);
                }
                for (;;) {
                    int64_t u = __atomic_fetch_add(&job->counter, 1, __ATOMIC_RELAXED) - base;
                    int64_t im;
                    int64_t jn;
                    int64_t ic;
                    int64_t mc;
                    int64_t p0;
                    int64_t p1;
                    int64_t j0;
                    int64_t j1;
                    if (u >= nunits) {
                        break;
                    }
                    im = u / job->nsplit_n;
                    jn = u % job->nsplit_n;
                    ic = im * job->mcb;
                    mc = d->m - ic < job->mcb ? d->m - ic : job->mcb;
                    p0 = npanels * jn / job->nsplit_n;
                    p1 = npanels * (jn + 1) / job->nsplit_n;
                    if (p1 <= p0) {
                        continue;
                    }
                    j0 = p0 * kr->nr;
                    j1 = p1 * kr->nr < nc ? p1 * kr->nr : nc;
                    if (im != packed_im) {
                        pack_a(es, kr->mr, mc, kc, a + (ic * d->a_rs + pc * d->a_cs) * (int64_t)es, d->a_rs, d->a_cs,
                               abuf);
                        packed_im = im;
                    }
                    gemm_macro(kr, d->dtype, es, mc, j1 - j0, kc, abuf, bbuf + j0 * kc * (int64_t)es,
                               c + (ic * d->c_rs + (jc + j0) * d->c_cs) * (int64_t)es, d->c_rs, d->c_cs, pc > 0,
                               tile);
                }
                /* every thread leaves each stage after exactly one unit past the end */
                base += nunits + nt;
            }
        }
    }
}

/* One GEMV, y = A @ x with A rows x k; its rows may be shared between threads (each y[i] is one dot
 * product, or one column-by-column accumulation, computed the same way on any thread). */
typedef struct {
    mt_dtype dtype;
    size_t es;
    int64_t k;
    const char *a;
    int64_t a_rs, a_cs;
    const char *x;
    int64_t incx;
    char *y;
    int64_t incy;
} gemv_job;

static void
gemv_rows(void *vjob, int64_t lo, int64_t hi)
{
    const gemv_job *j = vjob;

    mt_cpu_gemv(j->dtype, hi - lo, j->k, j->a + lo * j->a_rs * (int64_t)j->es, j->a_rs, j->a_cs, j->x, j->incx,
                j->y + lo * j->incy * (int64_t)j->es, j->incy);
}

/* multiply-adds per thread below which a GEMV stays on one thread (it is memory-bound: ~0.1 ms) */
#define GEMV_GRAIN_MACS 65536

static void
gemv_maybe_parallel(mt_dtype dtype, int64_t rows, int64_t k, const char *a, int64_t a_rs, int64_t a_cs,
                    const char *x, int64_t incx, char *y, int64_t incy)
{
    gemv_job j = {dtype, gemm_elsize(dtype), k, a, a_rs, a_cs, x, incx, y, incy};
    int64_t grain = GEMV_GRAIN_MACS / (k > 0 ? k : 1);

    /* the column-by-column form reads A along its columns: whole cache lines of rows per chunk */
    mt_parallel_for(rows, grain > 64 ? grain : 64, 0, gemv_rows, &j);
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
        if (d->n == 1 && d->m == 1) {
            /* one dot product: never split (that would change the order of its sum) */
            mt_cpu_gemv(d->dtype, 1, d->k, a, d->a_rs, d->a_cs, b, d->b_rs, c, d->c_rs);
        }
        else if (d->n == 1) {
            /* C[:, 0] = A @ B[:, 0] */
            gemv_maybe_parallel(d->dtype, d->m, d->k, a, d->a_rs, d->a_cs, b, d->b_rs, c, d->c_rs);
        }
        else {
            /* C[0, :] = B^T @ A[0, :] */
            gemv_maybe_parallel(d->dtype, d->n, d->k, b, d->b_cs, d->b_rs, a, d->a_cs, c, d->c_cs);
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

/* Small products (a few thousand multiply-adds) skip packing: a plain loop per element of C, the k sum
 * in order. The choice depends on the shape only. */
#define GEMM_SMALL_MACS 4096

#define DEFINE_SMALL(NAME, T, ACC)                                                                    \
    static void                                                                                       \
    NAME(const mt_gemm_desc *d, int64_t t)                                                            \
    {                                                                                                 \
        int64_t ao;                                                                                   \
        int64_t bo;                                                                                   \
        int64_t co;                                                                                   \
        const T *a;                                                                                   \
        const T *b;                                                                                   \
        T *c;                                                                                         \
        batch_offsets(d, t, &ao, &bo, &co);                                                           \
        a = (const T *)d->a + ao;                                                                     \
        b = (const T *)d->b + bo;                                                                     \
        c = (T *)d->c + co;                                                                           \
        for (int64_t i = 0; i < d->m; i++) {                                                          \
            for (int64_t j = 0; j < d->n; j++) {                                                      \
                ACC s = 0;                                                                            \
                const T *ap = a + i * d->a_rs;                                                        \
                const T *bp = b + j * d->b_cs;                                                        \
                for (int64_t p = 0; p < d->k; p++) {                                                  \
                    s += (ACC)ap[p * d->a_cs] * (ACC)bp[p * d->b_rs];                                 \
                }                                                                                     \
                c[i * d->c_rs + j * d->c_cs] = (T)s;                                                  \
            }                                                                                         \
        }                                                                                             \
    }

DEFINE_SMALL(small_f32, float, float)
DEFINE_SMALL(small_f64, double, double)
DEFINE_SMALL(small_u32, uint32_t, uint32_t)
DEFINE_SMALL(small_u64, uint64_t, uint64_t)

static void
gemm_small(const mt_gemm_desc *d, int64_t total)
{
    for (int64_t t = 0; t < total; t++) {
        switch (d->dtype) {
        case MT_FLOAT32:
            small_f32(d, t);
            break;
        case MT_FLOAT64:
            small_f64(d, t);
            break;
        case MT_INT32:
            small_u32(d, t);
            break;
        default:
            small_u64(d, t);
            break;
        }
    }
}

/* The product as C^T = B^T A^T. Every element of C is the same FMA chain over k in either orientation
 * (a * b and b * a are one product; the k blocks depend on k alone), so the values are the same. */
static void
gemm_transpose_desc(const mt_gemm_desc *d, mt_gemm_desc *t)
{
    *t = *d;
    t->m = d->n;
    t->n = d->m;
    t->a = d->b;
    t->a_rs = d->b_cs;
    t->a_cs = d->b_rs;
    t->b = d->a;
    t->b_rs = d->a_cs;
    t->b_cs = d->a_rs;
    t->c_rs = d->c_cs;
    t->c_cs = d->c_rs;
    memcpy(t->a_bs, d->b_bs, sizeof t->a_bs);
    memcpy(t->b_bs, d->a_bs, sizeof t->b_bs);
}

/* Whether the transposed product is the cheaper one: a C narrower than one NR-wide tile computes mostly
 * padding (64 x 10, as a classifier's last Linear gives, fills 10 of 32 columns), while as C^T its rows
 * fill the MR-high tiles nearly whole. */
static int
gemm_prefers_transposed(const gemm_kernel *kr, const mt_gemm_desc *d)
{
    return d->n < kr->nr && round_up(d->n, kr->mr) * round_up(d->m, kr->nr) < round_up(d->m, kr->mr) * kr->nr;
}

int
mt_cpu_gemm(const mt_gemm_desc *d)
{
    mt_gemm_desc transposed;
    gemm_job job;
    const gemm_kernel *kr;
    int64_t total = 1;
    double flops;
    int nthreads;
    size_t es = gemm_elsize(d->dtype);
    int64_t kc;
    int64_t mc;
    int64_t nc;
    int shared;
    size_t nbytes;
    char *scratch;
    gemm_cache *owner;

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
    if ((double)d->m * (double)d->n * (double)d->k <= GEMM_SMALL_MACS) {
        gemm_small(d, total);
        return 0;
    }

    kr = &gemm_kernels[d->dtype];
    if (gemm_prefers_transposed(kr, d)) {
        gemm_transpose_desc(d, &transposed);
        d = &transposed;
    }
    flops = 2.0 * (double)d->m * (double)d->n * (double)d->k * (double)total;
    nthreads = mt_parallel_get_num_threads();
    if (nthreads > GEMM_MAX_THREADS) {
        nthreads = GEMM_MAX_THREADS;
    }
    if ((double)nthreads * GEMM_MIN_FLOPS_PER_THREAD > flops) {
        nthreads = (int)(flops / GEMM_MIN_FLOPS_PER_THREAD);
        if (nthreads < 1) {
            nthreads = 1;
        }
    }
    memset(&job, 0, sizeof job);
    job.d = d;
    job.kr = kr;
    job.es = es;
    job.total = total;
    kc = gemm_kc(kr, d->k);
    mc = round_up(d->m < kr->mc ? d->m : kr->mc, kr->mr);
    nc = round_up(d->n < kr->nc ? d->n : kr->nc, kr->nr);
    /* whole matrices per thread when there are enough of them to share out evenly */
    shared = nthreads > 1 && total < 4 * (int64_t)nthreads && total % nthreads != 0;
    if (nthreads > 1 && total < nthreads) {
        shared = 1;
    }
    if (shared) {
        int64_t nblk = (d->m + kr->mc - 1) / kr->mc;
        int64_t npanels = nc / kr->nr;
        /* row blocks in a multiple of the thread count, so that they share out evenly */
        nblk = round_up(nblk, nthreads);
        job.mcb = round_up((d->m + nblk - 1) / nblk, kr->mr);
        job.nblk_m = (d->m + job.mcb - 1) / job.mcb;
        job.nsplit_n = 1;
        if (job.nblk_m < nthreads) {
            job.nsplit_n = (int)((nthreads + job.nblk_m - 1) / job.nblk_m);
            if (job.nsplit_n > npanels) {
                job.nsplit_n = (int)npanels;
            }
        }
        mc = job.mcb;
    }
    job.abytes = (size_t)round_up((int64_t)((size_t)(mc * kc) * es), GEMM_ALIGN);
    job.bbytes = (size_t)round_up((int64_t)((size_t)(nc * kc) * es), GEMM_ALIGN);
    job.tbytes = (size_t)round_up((int64_t)((size_t)(kr->mr * kr->nr) * es), GEMM_ALIGN);
    nbytes = (job.abytes + job.tbytes) * (size_t)nthreads + job.bbytes * (size_t)(shared ? 2 : nthreads);
    scratch = gemm_scratch(nbytes, &owner);
    if (scratch == NULL) {
        return -1;
    }
    job.abufs = scratch;
    job.tiles = job.abufs + job.abytes * (size_t)nthreads;
    job.bbufs = job.tiles + job.tbytes * (size_t)nthreads;
    if (nthreads == 1) {
        for (int64_t t = 0; t < total; t++) {
            gemm_one_matrix(&job, t, job.abufs, job.bbufs, job.tiles);
        }
    }
    else if (shared) {
        /* a busy pool runs the region on the caller alone (nt = 1), which skips the barriers */
        mt_barrier_init(&job.bar, nthreads);
        mt_parallel_run(nthreads, gemm_shared_body, &job);
    }
    else {
        job.chunk = (total + 4 * nthreads - 1) / (4 * (int64_t)nthreads);
        job.nitems = (total + job.chunk - 1) / job.chunk;
        mt_parallel_run(nthreads, gemm_batch_body, &job);
    }
    gemm_scratch_done(scratch, owner);
    return 0;
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
