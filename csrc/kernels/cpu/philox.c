/* Host fill loops for the Philox stream of CUDA-device tensors (the simulated GPU's kernels).
 *
 * This file owns only the loops: each fill walks the blocks of the stream defined in philox.h
 * and stores what the per-block MT_HD functions return, so the CUDA kernel that calls the same
 * functions per block writes the same bits (randperm then orders indices by such keys). It must
 * not add arithmetic of its own beyond choosing which outputs of a block to keep, hold state
 * between calls, or let the compiler contract multiplies into adds (the pragma below; intended
 * fusions are explicit in philox.h).
 */

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "philox.h"

#include <stdlib.h>

#include "cpu_features.h"

uint64_t
mt_philox_rand_float(uint64_t seed, uint64_t offset, float *out, int64_t n)
{
    return mt_philox_uniform_fill_float(seed, offset, out, n, 0.0, 1.0);
}

uint64_t
mt_philox_rand_double(uint64_t seed, uint64_t offset, double *out, int64_t n)
{
    return mt_philox_uniform_fill_double(seed, offset, out, n, 0.0, 1.0);
}

/* Scaled like the CPU generator (one fma in the tensor's type) so rand and uniform_(0, 1)
 * agree bit for bit. */
/* The loops below run their per-block functions over blocks [0, blocks). */
static void
uniform_blocks_float(uint64_t seed, uint64_t offset, float *out, int64_t n, float from,
                     float range)
{
    uint64_t blocks = mt_philox_blocks_32(n);
    uint64_t b;
    for (b = 0; b < blocks; b++) {
        float v[4];
        int64_t base = (int64_t)(b * 4u);
        int k;
        mt_philox_uniform4_float(seed, offset, b, v);
        for (k = 0; k < 4 && base + k < n; k++) {
            out[base + k] = fmaf(v[k], range, from);
        }
    }
}

static void
uniform_blocks_double(uint64_t seed, uint64_t offset, double *out, int64_t n, double from,
                      double range)
{
    uint64_t blocks = mt_philox_blocks_64(n);
    uint64_t b;
    for (b = 0; b < blocks; b++) {
        double v[2];
        int64_t base = (int64_t)(b * 2u);
        int k;
        mt_philox_uniform2_double(seed, offset, b, v);
        for (k = 0; k < 2 && base + k < n; k++) {
            out[base + k] = fma(v[k], range, from);
        }
    }
}

static void
normal_blocks_float(uint64_t seed, uint64_t offset, float *out, int64_t n, float mean,
                    float std)
{
    uint64_t blocks = mt_philox_blocks_32(n);
    uint64_t b;
    for (b = 0; b < blocks; b++) {
        float v[4];
        int64_t base = (int64_t)(b * 4u);
        int k;
        mt_philox_normal4_float(seed, offset, b, mean, std, v);
        for (k = 0; k < 4 && base + k < n; k++) {
            out[base + k] = v[k];
        }
    }
}

static void
normal_blocks_double(uint64_t seed, uint64_t offset, double *out, int64_t n, double mean,
                     double std)
{
    uint64_t blocks = mt_philox_blocks_64(n);
    uint64_t b;
    for (b = 0; b < blocks; b++) {
        double v[2];
        int64_t base = (int64_t)(b * 2u);
        int k;
        mt_philox_normal2_double(seed, offset, b, mean, std, v);
        for (k = 0; k < 2 && base + k < n; k++) {
            out[base + k] = v[k];
        }
    }
}

/* Without FMA in the compiler's target every fma()/fmaf() is a libm call; on x86 the loops
 * are compiled again with FMA enabled and picked at run time when the CPU has it. fma is
 * exactly rounded either way, so both give the same bits (and the same bits as the GPU). */
#ifdef MT_CPU_CLONES

__attribute__((target("fma"), flatten)) static void
uniform_blocks_float_fma(uint64_t seed, uint64_t offset, float *out, int64_t n, float from,
                         float range)
{
    uniform_blocks_float(seed, offset, out, n, from, range);
}

__attribute__((target("fma"), flatten)) static void
uniform_blocks_double_fma(uint64_t seed, uint64_t offset, double *out, int64_t n,
                          double from, double range)
{
    uniform_blocks_double(seed, offset, out, n, from, range);
}

__attribute__((target("fma"), flatten)) static void
normal_blocks_float_fma(uint64_t seed, uint64_t offset, float *out, int64_t n, float mean,
                        float std)
{
    normal_blocks_float(seed, offset, out, n, mean, std);
}

__attribute__((target("fma"), flatten)) static void
normal_blocks_double_fma(uint64_t seed, uint64_t offset, double *out, int64_t n, double mean,
                         double std)
{
    normal_blocks_double(seed, offset, out, n, mean, std);
}
#endif

/* Scaled like the CPU generator (one fma in the tensor's type) so rand and uniform_(0, 1)
 * agree bit for bit. */
uint64_t
mt_philox_uniform_fill_float(uint64_t seed, uint64_t offset, float *out, int64_t n,
                             double from, double to)
{
    float f = (float)from;
    float range = (float)to - f;
#ifdef MT_CPU_CLONES
    if ((mt_cpu_features() & MT_CPU_FMA)) {
        uniform_blocks_float_fma(seed, offset, out, n, f, range);
        return mt_philox_blocks_32(n);
    }
#endif
    uniform_blocks_float(seed, offset, out, n, f, range);
    return mt_philox_blocks_32(n);
}

uint64_t
mt_philox_uniform_fill_double(uint64_t seed, uint64_t offset, double *out, int64_t n,
                              double from, double to)
{
    double range = to - from;
#ifdef MT_CPU_CLONES
    if ((mt_cpu_features() & MT_CPU_FMA)) {
        uniform_blocks_double_fma(seed, offset, out, n, from, range);
        return mt_philox_blocks_64(n);
    }
#endif
    uniform_blocks_double(seed, offset, out, n, from, range);
    return mt_philox_blocks_64(n);
}

uint64_t
mt_philox_normal_fill_float(uint64_t seed, uint64_t offset, float *out, int64_t n,
                            double mean, double std)
{
#ifdef MT_CPU_CLONES
    if ((mt_cpu_features() & MT_CPU_FMA)) {
        normal_blocks_float_fma(seed, offset, out, n, (float)mean, (float)std);
        return mt_philox_blocks_32(n);
    }
#endif
    normal_blocks_float(seed, offset, out, n, (float)mean, (float)std);
    return mt_philox_blocks_32(n);
}

uint64_t
mt_philox_normal_fill_double(uint64_t seed, uint64_t offset, double *out, int64_t n,
                             double mean, double std)
{
#ifdef MT_CPU_CLONES
    if ((mt_cpu_features() & MT_CPU_FMA)) {
        normal_blocks_double_fma(seed, offset, out, n, mean, std);
        return mt_philox_blocks_64(n);
    }
#endif
    normal_blocks_double(seed, offset, out, n, mean, std);
    return mt_philox_blocks_64(n);
}

uint64_t
mt_philox_randn_float(uint64_t seed, uint64_t offset, float *out, int64_t n)
{
    return mt_philox_normal_fill_float(seed, offset, out, n, 0.0, 1.0);
}

uint64_t
mt_philox_randn_double(uint64_t seed, uint64_t offset, double *out, int64_t n)
{
    return mt_philox_normal_fill_double(seed, offset, out, n, 0.0, 1.0);
}

uint64_t
mt_philox_randint_int64(uint64_t seed, uint64_t offset, int64_t *out, int64_t n, int64_t low,
                        int64_t high)
{
    uint64_t range;
    int64_t i;
    if (low >= high) {
        return 0;
    }
    range = (uint64_t)high - (uint64_t)low;
    for (i = 0; i < n; i++) {
        out[i] = mt_philox_randint(seed, offset, (uint64_t)i, range, low);
    }
    return mt_philox_blocks_randint(n, range);
}

int
mt_key_position_compare(const void *a, const void *b)
{
    const mt_key_position *x = a, *y = b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return x->position < y->position ? -1 : x->position > y->position;
}

int
mt_philox_randperm(uint64_t seed, uint64_t offset, int64_t *out, int64_t n, uint64_t *blocks)
{
    mt_key_position *pairs;
    int64_t *keys;

    *blocks = 0;
    if (n == 0) {
        return 0;
    }
    keys = malloc((size_t)n * sizeof(*keys));
    pairs = malloc((size_t)n * sizeof(*pairs));
    if (keys == NULL || pairs == NULL) {
        free(keys);
        free(pairs);
        return -1;
    }
    *blocks = mt_philox_randint_int64(seed, offset, keys, n, INT64_MIN, INT64_MAX);
    for (int64_t i = 0; i < n; i++) {
        pairs[i].key = keys[i];
        pairs[i].position = i;
    }
    qsort(pairs, (size_t)n, sizeof(*pairs), mt_key_position_compare);
    for (int64_t i = 0; i < n; i++) {
        out[i] = pairs[i].position;
    }
    free(keys);
    free(pairs);
    return 0;
}
