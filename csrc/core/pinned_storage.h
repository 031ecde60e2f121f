/* pinned_storage.h: page-locked ("pinned") host storage: a CPU storage from the CUDA runtime's pinned pool
 * (runtime.h: mt_cuda_host_alloc), flagged `pinned`; on the simulated GPU plain aligned host memory carrying
 * the flag (there is no page locking to do), so programs behave the same. Tensor.pin_memory() and
 * Tensor.is_pinned() are ops/pinned.c's. */
#ifndef MT_PINNED_STORAGE_H
#define MT_PINNED_STORAGE_H

#include <stddef.h>

#include "storage.h"

/* A pinned host storage of nbytes (at least one byte is allocated). NULL with an exception: torch's CUDA
 * errors, or its error without an accelerator in a build without CUDA. */
mt_storage *mt_pinned_storage_new(size_t nbytes);

/* Whether the memory of host storage s is pinned: flagged so, or (once CUDA is up, so that asking never
 * starts it) inside memory another library pinned. */
int mt_storage_is_pinned(const mt_storage *s);

#endif
