/* ranges.c: the host kernels of arange, linspace and logspace (ranges.h). This build is ISO C, where the
 * compiler fuses no multiply-add unless asked: fma() and fmaf() stand where torch's compiler emits one. */
#include "ranges.h"

#include <math.h>

#include "cast.h"
#include "parallel.h"

/* Element i of data (of `dtype`) = v, as torch's static_cast from double gives it on x86. */
static void
store_double(char *data, mt_dtype dtype, int64_t i, double v)
{
    mt_cpu_cast(data + (size_t)i * mt_dtype_size(dtype), dtype, 0, (const char *)&v, MT_FLOAT64, 0, 1);
}

/* The bytes of one of the CPU's vector registers in torch's kernels that fill ranges (Vectorized<T> of
 * its AVX2 and default builds: 4 doubles, 8 floats), and at::internal::GRAIN_SIZE. */
#define TORCH_VECTOR_BYTES 32
#define TORCH_GRAIN_SIZE 32768

/* The same for float16 and bfloat16, whose accumulate type is float: the vector bases and the single
 * elements are float32 multiply-adds, the lanes base (rounded to the dtype) + j * step in float32. */
static void
arange_reduced_chunk(uint16_t *data, mt_dtype dtype, float start, float step, int64_t begin, int64_t end,
                     int64_t lanes)
{
    int64_t i = begin;

    for (; i + 2 * lanes <= end; i += 2 * lanes) {
        for (int64_t first = i; first < i + 2 * lanes; first += lanes) {
            float rounded = mt_reduced_to_float(dtype, mt_float_to_reduced(dtype, fmaf(step, (float)first, start)));
            for (int64_t j = 0; j < lanes; j++) {
                data[first + j] = mt_float_to_reduced(dtype, fmaf((float)j, step, rounded));
            }
        }
    }
    for (; i < end; i++) {
        data[i] = mt_float_to_reduced(dtype, fmaf(step, (float)i, start));
    }
}

/* One chunk [begin, end) of torch's CPU arange kernel for a float dtype. Its vectorised loop fills two
 * vectors at a time: each vector's base is start + step * i (a fused multiply-add, as torch's compiler
 * emits it) rounded to the dtype, and its lanes are base + j * step in double; the elements after the
 * last pair of vectors are start + step * i, one at a time. */
static void
arange_float_chunk(char *data, mt_dtype dtype, double start, double step, int64_t begin, int64_t end)
{
    int64_t lanes = TORCH_VECTOR_BYTES / (int64_t)mt_dtype_size(dtype);
    int64_t i = begin;

    if (mt_dtype_is_reduced_floating(dtype)) {
        arange_reduced_chunk((uint16_t *)data, dtype, (float)start, (float)step, begin, end, lanes);
        return;
    }
    for (; i + 2 * lanes <= end; i += 2 * lanes) {
        for (int64_t first = i; first < i + 2 * lanes; first += lanes) {
            double base = fma(step, (double)first, start);
            if (dtype == MT_FLOAT32) {
                double rounded = (double)(float)base;
                for (int64_t j = 0; j < lanes; j++) {
                    ((float *)data)[first + j] = (float)fma((double)j, step, rounded);
                }
            }
            else {
                for (int64_t j = 0; j < lanes; j++) {
                    ((double *)data)[first + j] = fma((double)j, step, base);
                }
            }
        }
    }
    for (; i < end; i++) {
        double v = fma(step, (double)i, start);
        if (dtype == MT_FLOAT32) {
            ((float *)data)[i] = (float)v;
        }
        else {
            ((double *)data)[i] = v;
        }
    }
}

/* torch's arange values for a float dtype: at::parallel_for splits [0, size) into one chunk per thread
 * (past GRAIN_SIZE elements), and each chunk starts its own pairs of vectors, so the rounding of an
 * element depends on the thread count, as in torch. */
void
mt_cpu_arange_float(char *data, mt_dtype dtype, double start, double step, int64_t size)
{
    int64_t threads = mt_parallel_get_num_threads();
    int64_t chunk = size, tasks = 1;

    if (size > TORCH_GRAIN_SIZE && threads > 1) {
        tasks = (size + TORCH_GRAIN_SIZE - 1) / TORCH_GRAIN_SIZE;
        tasks = tasks < threads ? tasks : threads;
        chunk = (size + tasks - 1) / tasks;
    }
    for (int64_t begin = 0; begin < size; begin += chunk) {
        arange_float_chunk(data, dtype, start, step, begin, begin + chunk < size ? begin + chunk : size);
    }
}

void
mt_cpu_arange_int(char *data, mt_dtype dtype, int64_t start, int64_t step, int64_t size)
{
    size_t elsize = mt_dtype_size(dtype);

    for (int64_t i = 0; i < size; i++) {
        int64_t v = (int64_t)((uint64_t)start + (uint64_t)step * (uint64_t)i);
        if (dtype == MT_INT64) {
            ((int64_t *)data)[i] = v;
        }
        else {
            mt_cpu_cast(data + (size_t)i * elsize, dtype, 0, (const char *)&v, MT_INT64, 0, 1);
        }
    }
}

/* torch's CPU linspace kernel, which fills from both ends: the first half is start + step * i, the
 * second end - step * (steps - 1 - i) (fused multiply-adds, as torch's compiler emits them). Float
 * dtypes step in their own type; integer dtypes in double, truncated on the store. */
void
mt_cpu_linspace(char *data, mt_dtype dtype, double start, double end, int64_t steps)
{
    int64_t halfway = steps / 2;

    if (dtype == MT_FLOAT32) {
        float s = (float)start, e = (float)end;
        float step = (e - s) / (float)(steps - 1);
        for (int64_t i = 0; i < steps; i++) {
            ((float *)data)[i] = i < halfway ? fmaf(step, (float)i, s) : fmaf(-step, (float)(steps - i - 1), e);
        }
    }
    else if (mt_dtype_is_reduced_floating(dtype)) {
        /* float16 and bfloat16 step in their own type too: c10's arithmetic rounds every product, sum and
         * difference to the dtype (no fused multiply-add) */
#define R(v) mt_reduced_to_float(dtype, mt_float_to_reduced(dtype, (v)))
        float s = R((float)start), e = R((float)end);
        float step = R(R(e - s) / R((float)(steps - 1)));
        for (int64_t i = 0; i < steps; i++) {
            float v = i < halfway ? R(s + R(step * R((float)i))) : R(e - R(step * R((float)(steps - i - 1))));
            ((uint16_t *)data)[i] = mt_float_to_reduced(dtype, v);
        }
#undef R
    }
    else if (dtype == MT_FLOAT64) {
        double s = start, e = end;
        double step = (e - s) / (double)(steps - 1);
        for (int64_t i = 0; i < steps; i++) {
            ((double *)data)[i] = i < halfway ? fma(step, (double)i, s) : fma(-step, (double)(steps - i - 1), e);
        }
    }
    else {
        double s = start, e = end;
        double step = (e - s) / (double)(steps - 1);
        for (int64_t i = 0; i < steps; i++) {
            double v = i < halfway ? fma(step, (double)i, s) : fma(-step, (double)(steps - i - 1), e);
            store_double(data, dtype, i, v);
        }
    }
}

/* torch's CPU logspace kernel: base ** (exponents evenly spaced in double, from both ends), the step being
 * (end - start) in the dtype, divided in double. (This build is ISO C, where the compiler fuses no
 * multiply-add unless asked, as fma() does for linspace and arange.) */
void
mt_cpu_logspace(char *data, mt_dtype dtype, double start, double end, double span, int64_t steps, double base)
{
    int64_t halfway = steps / 2;
    double step = span / (double)(steps - 1);

    for (int64_t i = 0; i < steps; i++) {
        /* a product and a sum, each rounded: torch compiles this kernel without fused multiply-adds */
        double v = pow(base, i < halfway ? start + step * (double)i : end - step * (double)(steps - i - 1));
        store_double(data, dtype, i, v);
    }
}
