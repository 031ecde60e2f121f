/* lines.c (cpu): every line of a scan or a sort, one after another (kernels/lines.h computes each). */
#include "lines.h"

#include <stdlib.h>

#include "../lines.h"

#define SCAN_CASE_(S, T, ACC)                                                                      \
    if (a->dtype == mt_dtype_of_##S) {                                                             \
        const T *in = (const T *)a->in;                                                            \
        T *out = (T *)a->out;                                                                      \
        for (int64_t o = 0; o < a->outer; o++) {                                                   \
            for (int64_t i = 0; i < a->inner; i++) {                                               \
                const T *line = in + o * a->n * a->inner + i;                                      \
                if (a->total) {                                                                    \
                    mt_scan_line_##S(a, line, a->inner, out + o * a->inner + i, 0, NULL);          \
                }                                                                                  \
                else {                                                                             \
                    int64_t base = o * a->n * a->inner + i;                                        \
                    mt_scan_line_##S(a, line, a->inner, out + base, a->inner,                      \
                                     a->indices != NULL ? a->indices + base : NULL);               \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        return 0;                                                                                  \
    }

#define mt_dtype_of_b8 MT_BOOL
#define mt_dtype_of_u8 MT_UINT8
#define mt_dtype_of_i8 MT_INT8
#define mt_dtype_of_i16 MT_INT16
#define mt_dtype_of_i32 MT_INT32
#define mt_dtype_of_i64 MT_INT64
#define mt_dtype_of_f32 MT_FLOAT32
#define mt_dtype_of_f64 MT_FLOAT64

int
mt_cpu_scan(const mt_scan_args *a)
{
    MT_LINE_TYPES(SCAN_CASE_)
    return -1;
}

#define SORT_CASE_(S, T, ACC)                                                                      \
    if (a->dtype == mt_dtype_of_##S) {                                                             \
        T *runs = malloc(sizeof(T) * 2 * (size_t)n);                                               \
        int64_t *idx = malloc(sizeof(int64_t) * 2 * (size_t)n);                                    \
        if (runs == NULL || idx == NULL) {                                                         \
            free(runs);                                                                            \
            free(idx);                                                                             \
            return -1;                                                                             \
        }                                                                                          \
        for (int64_t o = 0; o < a->outer; o++) {                                                   \
            for (int64_t i = 0; i < a->inner; i++) {                                               \
                int64_t base = o * n * a->inner + i;                                               \
                mt_sort_line_##S(a, (const T *)a->in + base, a->inner, (T *)a->values + base, a->indices + base, \
                                 runs, idx, runs + n, idx + n);                                    \
            }                                                                                      \
        }                                                                                          \
        free(runs);                                                                                \
        free(idx);                                                                                 \
        return 0;                                                                                  \
    }

int
mt_cpu_sort(const mt_sort_args *a)
{
    int64_t n = a->n > 0 ? a->n : 1;

    MT_LINE_TYPES(SORT_CASE_)
    return -1;
}
