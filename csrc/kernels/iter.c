/* iter.c: the strided loop behind every host elementwise kernel (see iter.h). The loop is an odometer
 * over all but the innermost dimension; coalescing first makes the common contiguous case a single
 * call of the inner function. It must not raise, allocate or know about tensors: it only walks
 * geometry. */
#include "iter.h"

#include <string.h>

#include "cpu/parallel.h"

void
mt_iter_init(mt_iter *it, int ndim, const int64_t *shape)
{
    int64_t numel = 1;

    it->ndim = ndim;
    it->nops = 0;
    for (int d = 0; d < ndim; d++) {
        it->shape[d] = shape[ndim - 1 - d];
        numel *= shape[ndim - 1 - d];
    }
    it->numel = numel;
}

void
mt_iter_add(mt_iter *it, char *data, int ndim, const int64_t *sizes, const int64_t *strides,
            size_t itemsize)
{
    int k = it->nops++;

    it->data[k] = data;
    for (int d = 0; d < it->ndim; d++) {
        /* d counts from the innermost dim; the operand's matching dim is ndim-1-d when it exists */
        int od = ndim - 1 - d;
        if (od >= 0 && sizes[od] != 1) {
            it->strides[k][d] = strides[od] * (int64_t)itemsize;
        }
        else {
            it->strides[k][d] = 0;
        }
    }
}

void
mt_iter_coalesce(mt_iter *it)
{
    int out = 0;

    if (it->numel == 0) {
        return;
    }
    for (int d = 0; d < it->ndim; d++) {
        if (it->shape[d] == 1) {
            continue;
        }
        if (out > 0) {
            /* merge dim d into the previous kept dim when each operand steps through it evenly */
            int mergeable = 1;
            for (int k = 0; k < it->nops; k++) {
                if (it->strides[k][d] != it->strides[k][out - 1] * it->shape[out - 1]) {
                    mergeable = 0;
                    break;
                }
            }
            if (mergeable) {
                it->shape[out - 1] *= it->shape[d];
                continue;
            }
        }
        it->shape[out] = it->shape[d];
        for (int k = 0; k < it->nops; k++) {
            it->strides[k][out] = it->strides[k][d];
        }
        out++;
    }
    if (out == 0) {
        /* a single element: one dim of size 1 keeps the loop uniform */
        it->shape[0] = 1;
        for (int k = 0; k < it->nops; k++) {
            it->strides[k][0] = 0;
        }
        out = 1;
    }
    it->ndim = out;
}

void
mt_iter_run(const mt_iter *it, mt_loop_fn fn, void *ctx)
{
    int64_t counter[MT_MAX_DIMS];
    char *ptrs[MT_ITER_MAX_OPS];
    int64_t inner_strides[MT_ITER_MAX_OPS];
    int nops = it->nops;

    if (it->numel == 0) {
        return;
    }
    if (it->ndim == 0) {
        for (int k = 0; k < nops; k++) {
            ptrs[k] = it->data[k];
            inner_strides[k] = 0;
        }
        fn(ptrs, inner_strides, 1, ctx);
        return;
    }
    for (int k = 0; k < nops; k++) {
        ptrs[k] = it->data[k];
        inner_strides[k] = it->strides[k][0];
    }
    memset(counter, 0, sizeof(int64_t) * (size_t)it->ndim);
    for (;;) {
        fn(ptrs, inner_strides, it->shape[0], ctx);
        /* advance the odometer over dims 1..ndim-1 */
        int d = 1;
        for (; d < it->ndim; d++) {
            counter[d]++;
            for (int k = 0; k < nops; k++) {
                ptrs[k] += it->strides[k][d];
            }
            if (counter[d] < it->shape[d]) {
                break;
            }
            for (int k = 0; k < nops; k++) {
                ptrs[k] -= it->strides[k][d] * it->shape[d];
            }
            counter[d] = 0;
        }
        if (d >= it->ndim) {
            return;
        }
    }
}

/* fn over the elements [begin, end) of the iteration order (dim 0 fastest). */
static void
iter_run_range(const mt_iter *it, mt_loop_fn fn, void *ctx, int64_t begin, int64_t end)
{
    int64_t counter[MT_MAX_DIMS];
    char *ptrs[MT_ITER_MAX_OPS];
    int64_t inner_strides[MT_ITER_MAX_OPS];
    int nops = it->nops;
    int64_t rest = begin;

    for (int k = 0; k < nops; k++) {
        ptrs[k] = it->data[k];
        inner_strides[k] = it->strides[k][0];
    }
    for (int d = 0; d < it->ndim; d++) {
        counter[d] = rest % it->shape[d];
        rest /= it->shape[d];
        for (int k = 0; k < nops; k++) {
            ptrs[k] += counter[d] * it->strides[k][d];
        }
    }
    while (begin < end) {
        int64_t n = it->shape[0] - counter[0];
        if (n > end - begin) {
            n = end - begin;
        }
        fn(ptrs, inner_strides, n, ctx);
        begin += n;
        if (begin >= end) {
            break;
        }
        /* the row was finished (n reached its end): back to its start, then carry into dim 1 */
        for (int k = 0; k < nops; k++) {
            ptrs[k] -= counter[0] * it->strides[k][0];
        }
        counter[0] = 0;
        for (int d = 1; d < it->ndim; d++) {
            counter[d]++;
            for (int k = 0; k < nops; k++) {
                ptrs[k] += it->strides[k][d];
            }
            if (counter[d] < it->shape[d]) {
                break;
            }
            for (int k = 0; k < nops; k++) {
                ptrs[k] -= it->strides[k][d] * it->shape[d];
            }
            counter[d] = 0;
        }
    }
}

typedef struct {
    const mt_iter *it;
    mt_loop_fn fn;
    void *ctx;
} iter_range_job;

static void
iter_range_body(void *vjob, int64_t begin, int64_t end)
{
    const iter_range_job *job = vjob;
    iter_run_range(job->it, job->fn, job->ctx, begin, end);
}

void
mt_iter_run_parallel(const mt_iter *it, mt_loop_fn fn, void *ctx)
{
    iter_range_job job;

    if (it->numel <= MT_PARALLEL_GRAIN_SIZE || it->ndim == 0) {
        mt_iter_run(it, fn, ctx);
        return;
    }
    job.it = it;
    job.fn = fn;
    job.ctx = ctx;
    mt_parallel_for(it->numel, MT_PARALLEL_GRAIN_SIZE, 0, iter_range_body, &job);
}

typedef struct {
    const mt_iter *it;
    mt_loop_fn fn;
    void *ctx;
    int64_t chunk;
} iter_even_job;

static void
iter_even_body(void *vjob, int64_t first, int64_t last)
{
    const iter_even_job *job = vjob;

    for (int64_t c = first; c < last; c++) {
        int64_t begin = c * job->chunk;
        int64_t end = begin + job->chunk < job->it->numel ? begin + job->chunk : job->it->numel;
        iter_run_range(job->it, job->fn, job->ctx, begin, end);
    }
}

void
mt_iter_run_parallel_as_torch(const mt_iter *it, mt_loop_fn fn, void *ctx)
{
    mt_iter_run_parallel_as_torch_grain(it, MT_PARALLEL_GRAIN_SIZE, fn, ctx);
}

void
mt_iter_run_parallel_as_torch_grain(const mt_iter *it, int64_t grain, mt_loop_fn fn, void *ctx)
{
    iter_even_job job;
    int64_t pieces = mt_parallel_get_num_threads();
    int64_t most = grain > 0 ? (it->numel + grain - 1) / grain : pieces;

    if (pieces > most) {
        pieces = most;
    }
    if (pieces <= 1 || it->ndim == 0) {
        mt_iter_run(it, fn, ctx);
        return;
    }
    job.it = it;
    job.fn = fn;
    job.ctx = ctx;
    job.chunk = (it->numel + pieces - 1) / pieces;
    mt_parallel_for(pieces, 1, (int)pieces, iter_even_body, &job);
}
