/* PyTorch's CUDA caching allocator for one device, on top of any mt_runtime (see the design notes at
 * the top of caching_allocator.c). This header owns the allocator's C API, its error codes and the
 * statistics structure that torch.cuda.memory_stats() is built from. It must stay free of Python and
 * CUDA headers: storage code calls it, and the Python layer only formats what it returns. */
#ifndef MT_CACHING_ALLOCATOR_H
#define MT_CACHING_ALLOCATOR_H

#include <stddef.h>
#include <stdint.h>

#include "../runtime/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes of the functions below. */
#define MT_ALLOC_OK 0
#define MT_ALLOC_ERR_OOM 1             /* raise torch.OutOfMemoryError(errbuf) */
#define MT_ALLOC_ERR_RUNTIME 2         /* a device runtime error; errbuf is "CUDA error: <text>" */
#define MT_ALLOC_ERR_HOST_MEMORY 3     /* no host memory for bookkeeping: raise MemoryError */
#define MT_ALLOC_ERR_INVALID_POINTER 4 /* free of a pointer this allocator did not hand out */

/* torch's StatType: index 0 is "all", then the two pools. */
#define MT_STAT_ALL 0
#define MT_STAT_SMALL_POOL 1
#define MT_STAT_LARGE_POOL 2
#define MT_STAT_TYPES 3

/* torch's Stat: the value now, its high-water mark since the last reset_peak, and the cumulative
 * amounts added and removed since the last reset_accumulated. */
typedef struct mt_stat {
    int64_t current;
    int64_t peak;
    int64_t allocated;
    int64_t freed;
} mt_stat;

/* torch's DeviceStats, field for field (memory_stats() keys use the same names). */
typedef struct mt_allocator_stats {
    mt_stat allocation[MT_STAT_TYPES];           /* number of allocated blocks */
    mt_stat segment[MT_STAT_TYPES];              /* number of raw device allocations held */
    mt_stat active[MT_STAT_TYPES];               /* number of active (allocated) blocks */
    mt_stat inactive_split[MT_STAT_TYPES];       /* free blocks inside partly used segments */
    mt_stat allocated_bytes[MT_STAT_TYPES];      /* memory_allocated(): block sizes */
    mt_stat reserved_bytes[MT_STAT_TYPES];       /* memory_reserved(): segment sizes */
    mt_stat active_bytes[MT_STAT_TYPES];
    mt_stat inactive_split_bytes[MT_STAT_TYPES];
    mt_stat requested_bytes[MT_STAT_TYPES];      /* the sizes callers asked for, unrounded */
    int64_t num_alloc_retries;   /* raw mallocs retried after freeing the cache */
    int64_t num_ooms;            /* out-of-memory errors reported */
    mt_stat oversize_allocations; /* always 0: max_split_size is unlimited by default */
    mt_stat oversize_segments;    /* always 0, likewise */
    int64_t num_sync_all_streams; /* cache releases (each synchronizes the device in torch) */
    int64_t num_device_alloc;    /* raw device mallocs */
    int64_t num_device_free;     /* raw device frees */
    int64_t max_split_size;      /* -1: unlimited, as torch reports SIZE_MAX */
} mt_allocator_stats;

typedef struct mt_caching_allocator mt_caching_allocator;

/* A new allocator for `device` of `rt`, or NULL when host memory runs out. With no_caching set
 * (the caller passes it when MINITORCH_NO_CUDA_MEMORY_CACHING=1, as torch reads
 * PYTORCH_NO_CUDA_MEMORY_CACHING) every malloc and free goes straight to the runtime and the
 * statistics stay at zero. */
mt_caching_allocator *mt_caching_allocator_new(const mt_runtime *rt, int device, int no_caching);

/* Releases every segment back to the runtime, allocated or not, and the allocator itself. Pointers
 * it handed out become invalid (in no-caching mode it tracks none, so those stay the caller's).
 * For interpreter shutdown and tests. NULL is a no-op. */
void mt_caching_allocator_destroy(mt_caching_allocator *a);

/* Allocates `size` bytes. Returns MT_ALLOC_OK with *ptr set (NULL for size 0, which allocates
 * nothing), or an error code with *ptr NULL and the message torch would raise written into errbuf
 * (NUL-terminated, truncated to errlen; errbuf may be NULL; 1024 bytes always hold the whole
 * out-of-memory message). Safe to call from many threads; the caller may drop the GIL around it. */
int mt_caching_allocator_malloc(mt_caching_allocator *a, size_t size, void **ptr, char *errbuf,
                                size_t errlen);

/* Returns a block to the cache. NULL is a no-op. Returns MT_ALLOC_OK, or
 * MT_ALLOC_ERR_INVALID_POINTER for a pointer not handed out by this allocator (torch raises
 * "invalid device pointer: %p"), or MT_ALLOC_ERR_RUNTIME when the runtime's free fails in no-caching
 * mode; mt_caching_allocator_last_error then holds the text. */
int mt_caching_allocator_free(mt_caching_allocator *a, void *ptr);

/* torch.cuda.empty_cache(): gives every wholly free segment back to the runtime. Returns MT_ALLOC_OK
 * or MT_ALLOC_ERR_RUNTIME (text in mt_caching_allocator_last_error; the segment stays cached). */
int mt_caching_allocator_empty_cache(mt_caching_allocator *a);

/* Copies the message of the last failed free or empty_cache into buf ("" if none). */
void mt_caching_allocator_last_error(mt_caching_allocator *a, char *buf, size_t len);

void mt_caching_allocator_get_stats(mt_caching_allocator *a, mt_allocator_stats *out);
/* torch.cuda.reset_peak_memory_stats(): every peak := current. */
void mt_caching_allocator_reset_peak(mt_caching_allocator *a);
/* torch.cuda.reset_accumulated_memory_stats(): every allocated/freed and counter := 0. */
void mt_caching_allocator_reset_accumulated(mt_caching_allocator *a);

int mt_caching_allocator_device(const mt_caching_allocator *a);
const mt_runtime *mt_caching_allocator_runtime(const mt_caching_allocator *a);

/* A copy of the segments and blocks, like torch.cuda.memory_snapshot()'s "segments". Segments are
 * sorted by address; segment i owns blocks[first_block .. first_block + nblocks), in address order. */
typedef struct mt_block_info {
    uintptr_t address;
    size_t size;
    size_t requested_size; /* what was last asked for in this block (stale once it is free) */
    int allocated;
} mt_block_info;

typedef struct mt_segment_info {
    uintptr_t address;
    size_t total_size;
    size_t allocated_size;
    size_t requested_size; /* summed over allocated blocks */
    int is_large;
    size_t first_block;
    size_t nblocks;
} mt_segment_info;

typedef struct mt_allocator_snapshot {
    mt_segment_info *segments;
    size_t nsegments;
    mt_block_info *blocks;
    size_t nblocks;
} mt_allocator_snapshot;

/* Fills *out (empty in no-caching mode). Returns MT_ALLOC_OK or MT_ALLOC_ERR_HOST_MEMORY. Release
 * with mt_allocator_snapshot_free. */
int mt_caching_allocator_snapshot(mt_caching_allocator *a, mt_allocator_snapshot *out);
void mt_allocator_snapshot_free(mt_allocator_snapshot *s);

/* torch's format_size (c10/cuda/CUDACachingAllocator.cpp), used in the out-of-memory message:
 * "N bytes" up to 1024, then KiB up to 1 MiB, MiB up to 1 GiB, else GiB, two decimals. */
void mt_format_size(uint64_t size, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* MT_CACHING_ALLOCATOR_H */
