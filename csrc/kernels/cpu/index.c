/* index.c: the host loops of advanced indexing (see index.h). The gather/scatter tabulates the element
 * offsets of the dims after the indexed ones once, then every position before them walks the index
 * positions' offsets (given by the op layer) and that table, copying one element at a time; the offsets
 * themselves come from the index values, read once per position of their broadcast shape. It must not
 * raise or know about tensors and devices: an index value out of range is reported back to the op layer. */
#include "index.h"

#include <stdlib.h>
#include <string.h>

int
mt_cpu_index(const mt_index_args *g, int scatter)
{
    size_t itemsize = mt_dtype_size(g->dtype);
    int nafter_dims = g->ndim - g->nbefore;
    int64_t nbefore = 1, nafter = 1;
    int64_t *a_self, *a_other;
    int64_t pos[MT_MAX_DIMS];

    for (int d = 0; d < g->nbefore; d++) {
        nbefore *= g->shape[d];
    }
    for (int d = g->nbefore; d < g->ndim; d++) {
        nafter *= g->shape[d];
    }
    if (nbefore * g->nb * nafter == 0) {
        return 0;
    }
    a_self = malloc(sizeof(int64_t) * (size_t)nafter);
    a_other = malloc(sizeof(int64_t) * (size_t)nafter);
    if (a_self == NULL || a_other == NULL) {
        free(a_self);
        free(a_other);
        return -1;
    }
    /* offsets contributed by each position of the dims after the indexed ones */
    memset(pos, 0, sizeof(pos));
    for (int64_t a = 0; a < nafter; a++) {
        int64_t src = 0, oth = 0;
        for (int d = 0; d < nafter_dims; d++) {
            src += pos[d] * g->self_strides[g->nbefore + d];
            oth += pos[d] * g->other_strides[g->nbefore + d];
        }
        a_self[a] = src;
        a_other[a] = oth;
        for (int d = nafter_dims - 1; d >= 0; d--) {
            if (++pos[d] < g->shape[g->nbefore + d]) {
                break;
            }
            pos[d] = 0;
        }
    }
    memset(pos, 0, sizeof(pos));
    for (int64_t o = 0; o < nbefore; o++) {
        int64_t src0 = 0, oth0 = 0;
        for (int d = 0; d < g->nbefore; d++) {
            src0 += pos[d] * g->self_strides[d];
            oth0 += pos[d] * g->other_strides[d];
        }
        for (int64_t b = 0; b < g->nb; b++) {
            for (int64_t a = 0; a < nafter; a++) {
                char *t = g->self + (src0 + g->self_offsets[b] + a_self[a]) * (int64_t)itemsize;
                char *x = g->other + (oth0 + g->other_offsets[b] + a_other[a]) * (int64_t)itemsize;
                if (scatter) {
                    memcpy(t, x, itemsize);
                }
                else {
                    memcpy(x, t, itemsize);
                }
            }
        }
        for (int d = g->nbefore - 1; d >= 0; d--) {
            if (++pos[d] < g->shape[d]) {
                break;
            }
            pos[d] = 0;
        }
    }
    free(a_self);
    free(a_other);
    return 0;
}

int
mt_cpu_index_offsets(const mt_index_values *iv, const int64_t *weights, const int64_t *other_strides,
                     int64_t *out, int64_t *other_out, int *bad_k, int64_t *bad_value)
{
    int64_t nb = 1;
    int64_t pos[MT_MAX_DIMS];

    for (int d = 0; d < iv->bndim; d++) {
        nb *= iv->bshape[d];
    }
    memset(pos, 0, sizeof(pos));
    for (int64_t b = 0; b < nb; b++) {
        int64_t off = 0;
        for (int k = 0; k < iv->nidx; k++) {
            int64_t at = 0, stride = 1, v, size = iv->dim_sizes[k];
            for (int d = iv->ndim[k] - 1; d >= 0; d--) {
                if (iv->sizes[k][d] != 1) {
                    at += pos[iv->bndim - iv->ndim[k] + d] * stride;
                }
                stride *= iv->sizes[k][d];
            }
            v = iv->values[k][at];
            if (v < -size || v >= size) {
                *bad_k = k;
                *bad_value = v;
                return -1;
            }
            off += (v < 0 ? v + size : v) * weights[k];
        }
        out[b] = off;
        if (other_out != NULL) {
            int64_t oth = 0;
            for (int d = 0; d < iv->bndim; d++) {
                oth += pos[d] * other_strides[d];
            }
            other_out[b] = oth;
        }
        for (int d = iv->bndim - 1; d >= 0; d--) {
            if (++pos[d] < iv->bshape[d]) {
                break;
            }
            pos[d] = 0;
        }
    }
    return 0;
}

int64_t
mt_cpu_nonzero(const char *data, int ndim, const int64_t *sizes, const int64_t *strides, int64_t **coords)
{
    int64_t pos[MT_MAX_DIMS] = {0};
    int64_t numel = 1, found = 0;

    for (int d = 0; d < ndim; d++) {
        numel *= sizes[d];
    }
    for (int64_t i = 0; i < numel; i++) {
        int64_t off = 0;
        for (int d = 0; d < ndim; d++) {
            off += pos[d] * strides[d];
        }
        if (data[off]) {
            if (coords != NULL) {
                for (int j = 0; j < ndim; j++) {
                    coords[j][found] = pos[j];
                }
            }
            found++;
        }
        for (int d = ndim - 1; d >= 0; d--) {
            if (++pos[d] < sizes[d]) {
                break;
            }
            pos[d] = 0;
        }
    }
    return found;
}
