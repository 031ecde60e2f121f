/* PyTorch's CUDA caching allocator, one instance per device, on top of any mt_runtime. It owns the
 * block and segment bookkeeping, the caching policy and the memory statistics that
 * torch.cuda.memory_allocated()/memory_reserved()/memory_stats() report, and it writes torch's
 * out-of-memory message. It must not include Python or CUDA headers, raise exceptions (it returns
 * codes and messages; the caller raises), or touch device memory contents.
 *
 * Design notes. This file reproduces DeviceCachingAllocator and the parts of NativeCachingAllocator
 * that a single-stream program can observe, from c10/cuda/CUDACachingAllocator.cpp with the default
 * configuration (max_split_size unlimited, no power-of-two rounding, no expandable segments, no
 * memory fraction, no garbage collection). The point is that the same Python program prints the
 * same memory_allocated() and memory_reserved() numbers under minitorch as under torch, on a real
 * GPU or the simulated one, so the rules are torch's to the byte:
 *
 * - Every request is rounded up to a multiple of 512 bytes (512 at least). Rounded sizes up to and
 *   including 1 MiB are served from the small pool, larger ones from the large pool; the pools never
 *   lend to each other.
 * - A request first looks for the best fit among the cached free blocks of its pool: the smallest
 *   block that is large enough, the lowest address among equal sizes (torch orders its std::set by
 *   stream, size, address; minitorch has one stream). Each pool is a sorted array searched by
 *   bisection: lookups are O(log n), and inserts move pointers, which is cheap at the block counts a
 *   program has and much simpler to get right than a balanced tree.
 * - On a miss, one raw device allocation (a segment) is made: 2 MiB for the small pool, 20 MiB for
 *   large requests under 10 MiB, and the request rounded up to a multiple of 2 MiB from 10 MiB on.
 *   memory_reserved() grows only here, by the segment size.
 * - The chosen block is split when the rest is worth keeping: in the small pool when at least
 *   512 bytes remain, in the large pool only when MORE than 1 MiB remains. Otherwise the whole block
 *   is handed out and memory_allocated() grows by the whole block size (requested_bytes keeps the
 *   caller's size). The allocated part is the front of the block; the rest stays cached.
 * - free() never returns memory to the device. The block is merged with free neighbours of the
 *   same segment (blocks keep prev/next links in address order) and goes back to its pool.
 * - empty_cache() gives back only free blocks that are whole segments (no prev and no next); a
 *   segment with anything allocated in it stays reserved, its free parts counted as inactive_split.
 * - If the raw allocation fails with out-of-memory, every such whole free segment is released and
 *   the raw allocation is retried once (counted in num_alloc_retries whether or not it succeeds);
 *   if that fails too, num_ooms is counted and torch's message is produced. torch's intermediate
 *   step (release_available_cached_blocks) only acts when max_split_size is set, so it is absent.
 * - Size 0 allocates nothing; sizes of 2**60 and more are refused up front with torch's "more than
 *   1EB" message (that check sits outside the device allocator, so it counts no OOM).
 * - In no-caching mode (torch's PYTORCH_NO_CUDA_MEMORY_CACHING, minitorch's
 *   MINITORCH_NO_CUDA_MEMORY_CACHING) malloc and free go straight to the runtime and statistics stay
 *   untouched, as in torch where that path bypasses DeviceCachingAllocator; empty_cache still counts
 *   num_sync_all_streams, because torch still runs the (empty) device allocator's release.
 * - Statistics follow torch's increase_stat/decrease_stat exactly, including inactive_split
 *   accounting on split and merge, for "all" and the block's pool.
 *
 * One mutex guards an allocator; raw mallocs happen under it (torch's default, since
 * release_lock_on_cudamalloc is off). Allocated blocks are found by pointer through an
 * open-addressing hash map. Everything that can fail for lack of host memory (block records, array
 * and map capacity) is reserved before the first change of state, so a failure leaves the allocator
 * exactly as it was and free() never needs memory at all. */
#include "caching_allocator.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K_MIN_BLOCK_SIZE ((size_t)512)
#define K_SMALL_SIZE ((size_t)1048576)
#define K_SMALL_BUFFER ((size_t)2097152)
#define K_LARGE_BUFFER ((size_t)20971520)
#define K_MIN_LARGE_ALLOC ((size_t)10485760)
#define K_ROUND_LARGE ((size_t)2097152)
#define ONE_EXA_BYTES ((size_t)1 << 60)

#define POOL_SMALL 0
#define POOL_LARGE 1

/* Block records kept for reuse instead of going back to malloc at once: enough for the two a
 * malloc may need, plus a little slack for free/merge churn. */
#define SPARE_BLOCKS_MAX 16

typedef struct block {
    char *ptr;
    size_t size;
    size_t requested_size;
    struct block *prev; /* neighbours in the same segment, in address order */
    struct block *next;
    int pool;
    int allocated;
} block;

typedef struct block_pool {
    block **items;      /* the free blocks, sorted by (size, address) */
    size_t count;
    size_t capacity;
    size_t nblocks;     /* all blocks of this pool, free or allocated; capacity never falls below */
    int is_small;
} block_pool;

typedef struct ptr_map {
    block **slots;      /* allocated blocks by address; NULL is an empty slot */
    size_t capacity;    /* a power of two, at most half full */
    size_t count;
} ptr_map;

struct mt_caching_allocator {
    const mt_runtime *rt;
    int device;
    int no_caching;
    pthread_mutex_t mutex;
    block_pool pools[2];
    ptr_map allocated;
    block *spares;      /* reusable block records, linked through next */
    int nspares;
    mt_allocator_stats stats;
    char last_error[256];
};

/* ---- statistics (torch's increase_stat / decrease_stat) ---- */

static void
stat_increase(mt_stat *stat, size_t amount)
{
    stat->current += (int64_t)amount;
    if (stat->current > stat->peak) {
        stat->peak = stat->current;
    }
    stat->allocated += (int64_t)amount;
}

static void
stat_decrease(mt_stat *stat, size_t amount)
{
    stat->current -= (int64_t)amount;
    stat->freed += (int64_t)amount;
}

/* Every pool statistic is kept for "all" and for the pool the block belongs to. */
static void
pool_stat_increase(mt_stat *stats, int pool, size_t amount)
{
    stat_increase(&stats[MT_STAT_ALL], amount);
    stat_increase(&stats[pool == POOL_SMALL ? MT_STAT_SMALL_POOL : MT_STAT_LARGE_POOL], amount);
}

static void
pool_stat_decrease(mt_stat *stats, int pool, size_t amount)
{
    stat_decrease(&stats[MT_STAT_ALL], amount);
    stat_decrease(&stats[pool == POOL_SMALL ? MT_STAT_SMALL_POOL : MT_STAT_LARGE_POOL], amount);
}

static void
reset_peak(mt_stat *stat)
{
    stat->peak = stat->current;
}

static void
reset_accumulated(mt_stat *stat)
{
    stat->allocated = 0;
    stat->freed = 0;
}

/* ---- torch's size rules ---- */

static size_t
round_size(size_t size)
{
    if (size < K_MIN_BLOCK_SIZE) {
        return K_MIN_BLOCK_SIZE;
    }
    /* No overflow: callers refuse sizes of 2**60 and more first. */
    return K_MIN_BLOCK_SIZE * ((size + K_MIN_BLOCK_SIZE - 1) / K_MIN_BLOCK_SIZE);
}

static size_t
allocation_size(size_t size)
{
    if (size <= K_SMALL_SIZE) {
        return K_SMALL_BUFFER;
    }
    if (size < K_MIN_LARGE_ALLOC) {
        return K_LARGE_BUFFER;
    }
    return K_ROUND_LARGE * ((size + K_ROUND_LARGE - 1) / K_ROUND_LARGE);
}

static int
should_split(const block *b, size_t size, int is_small)
{
    size_t remaining = b->size - size;

    if (is_small) {
        return remaining >= K_MIN_BLOCK_SIZE;
    }
    /* torch also requires size < max_split_size, which is always true while it is unlimited. */
    return remaining > K_SMALL_SIZE;
}

void
mt_format_size(uint64_t size, char *buf, size_t len)
{
    if (buf == NULL || len == 0) {
        return;
    }
    if (size <= 1024) {
        snprintf(buf, len, "%llu bytes", (unsigned long long)size);
    } else if (size <= 1048576) {
        snprintf(buf, len, "%.2f KiB", (double)size / 1024.0);
    } else if (size <= 1073741824ULL) {
        snprintf(buf, len, "%.2f MiB", (double)size / 1048576.0);
    } else {
        snprintf(buf, len, "%.2f GiB", (double)size / 1073741824.0);
    }
}

static void
set_message(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;

    if (buf == NULL || len == 0) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* torch turns a failed runtime call into C10_CUDA_CHECK's "CUDA error: <cudaGetErrorString>". */
static void
set_runtime_message(const mt_caching_allocator *a, int err, char *buf, size_t len)
{
    set_message(buf, len, "CUDA error: %s", a->rt->error_string(err));
}

/* ---- block records ---- */

static int
reserve_spares(mt_caching_allocator *a, int n)
{
    while (a->nspares < n) {
        block *b = (block *)malloc(sizeof(block));
        if (b == NULL) {
            return -1;
        }
        b->next = a->spares;
        a->spares = b;
        a->nspares++;
    }
    return 0;
}

static block *
take_spare(mt_caching_allocator *a)
{
    block *b = a->spares;

    a->spares = b->next;
    a->nspares--;
    memset(b, 0, sizeof(*b));
    return b;
}

static void
drop_block(mt_caching_allocator *a, block *b)
{
    if (a->nspares < SPARE_BLOCKS_MAX) {
        b->next = a->spares;
        a->spares = b;
        a->nspares++;
    } else {
        free(b);
    }
}

/* ---- free-block pools: arrays sorted by (size, address) ---- */

static int
block_before(const block *b, size_t size, const char *ptr)
{
    if (b->size != size) {
        return b->size < size;
    }
    return (uintptr_t)b->ptr < (uintptr_t)ptr;
}

/* Index of the first block not ordered before (size, ptr). */
static size_t
pool_lower_bound(const block_pool *pool, size_t size, const char *ptr)
{
    size_t lo = 0;
    size_t hi = pool->count;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (block_before(pool->items[mid], size, ptr)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static int
pool_reserve(block_pool *pool, size_t needed)
{
    size_t capacity;
    block **items;

    if (needed <= pool->capacity) {
        return 0;
    }
    capacity = pool->capacity < 16 ? 16 : pool->capacity;
    while (capacity < needed) {
        if (capacity > SIZE_MAX / 2 / sizeof(block *)) {
            return -1;
        }
        capacity *= 2;
    }
    items = (block **)realloc(pool->items, capacity * sizeof(block *));
    if (items == NULL) {
        return -1;
    }
    pool->items = items;
    pool->capacity = capacity;
    return 0;
}

/* Never fails: capacity is kept at least nblocks, and a pool holds only its own blocks. */
static void
pool_insert(block_pool *pool, block *b)
{
    size_t i = pool_lower_bound(pool, b->size, b->ptr);

    memmove(&pool->items[i + 1], &pool->items[i], (pool->count - i) * sizeof(block *));
    pool->items[i] = b;
    pool->count++;
}

static void
pool_remove_at(block_pool *pool, size_t i)
{
    memmove(&pool->items[i], &pool->items[i + 1], (pool->count - i - 1) * sizeof(block *));
    pool->count--;
}

static void
pool_remove(block_pool *pool, block *b)
{
    size_t i = pool_lower_bound(pool, b->size, b->ptr);

    if (i < pool->count && pool->items[i] == b) {
        pool_remove_at(pool, i);
    }
}

/* torch's get_free_block: the smallest block of at least `size`, lowest address first. */
static block *
pool_take_best_fit(block_pool *pool, size_t size)
{
    size_t i = pool_lower_bound(pool, size, NULL);
    block *b;

    if (i == pool->count) {
        return NULL;
    }
    b = pool->items[i];
    pool_remove_at(pool, i);
    return b;
}

/* ---- allocated blocks by address ---- */

static size_t
hash_ptr(const void *p)
{
    /* A 64-bit finalizer: block addresses share their low bits (512-byte multiples), so the raw
     * value would pile into a few slots. */
    uint64_t x = (uint64_t)(uintptr_t)p;

    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (size_t)x;
}

static void
map_put(ptr_map *map, block *b)
{
    size_t mask = map->capacity - 1;
    size_t i = hash_ptr(b->ptr) & mask;

    while (map->slots[i] != NULL) {
        i = (i + 1) & mask;
    }
    map->slots[i] = b;
    map->count++;
}

static int
map_reserve(ptr_map *map, size_t needed)
{
    size_t capacity;
    block **old_slots = map->slots;
    size_t old_capacity = map->capacity;
    size_t i;

    if (needed <= map->capacity / 2) {
        return 0;
    }
    capacity = map->capacity < 64 ? 64 : map->capacity;
    while (needed > capacity / 2) {
        if (capacity > SIZE_MAX / 2 / sizeof(block *)) {
            return -1;
        }
        capacity *= 2;
    }
    map->slots = (block **)calloc(capacity, sizeof(block *));
    if (map->slots == NULL) {
        map->slots = old_slots;
        return -1;
    }
    map->capacity = capacity;
    map->count = 0;
    for (i = 0; i < old_capacity; i++) {
        if (old_slots[i] != NULL) {
            map_put(map, old_slots[i]);
        }
    }
    free(old_slots);
    return 0;
}

/* Removes and returns the block at ptr, or NULL. Backward-shift deletion keeps probe chains intact
 * without tombstones, so the map never needs rebuilding after frees. */
static block *
map_take(ptr_map *map, const void *ptr)
{
    size_t mask;
    size_t i;
    size_t j;
    block *found;

    if (map->count == 0) {
        return NULL;
    }
    mask = map->capacity - 1;
    i = hash_ptr(ptr) & mask;
    while (map->slots[i] != NULL && map->slots[i]->ptr != (const char *)ptr) {
        i = (i + 1) & mask;
    }
    found = map->slots[i];
    if (found == NULL) {
        return NULL;
    }
    j = i;
    for (;;) {
        size_t home;
        j = (j + 1) & mask;
        if (map->slots[j] == NULL) {
            break;
        }
        home = hash_ptr(map->slots[j]->ptr) & mask;
        /* Move slots[j] into the hole unless its home lies cyclically in (i, j]. */
        if ((i < j) ? (home <= i || home > j) : (home <= i && home > j)) {
            map->slots[i] = map->slots[j];
            i = j;
        }
    }
    map->slots[i] = NULL;
    map->count--;
    return found;
}

/* ---- the allocator ---- */

mt_caching_allocator *
mt_caching_allocator_new(const mt_runtime *rt, int device, int no_caching)
{
    mt_caching_allocator *a;

    if (rt == NULL) {
        return NULL;
    }
    a = (mt_caching_allocator *)calloc(1, sizeof(*a));
    if (a == NULL) {
        return NULL;
    }
    if (pthread_mutex_init(&a->mutex, NULL) != 0) {
        goto error;
    }
    a->rt = rt;
    a->device = device;
    a->no_caching = no_caching != 0;
    a->pools[POOL_SMALL].is_small = 1;
    a->pools[POOL_LARGE].is_small = 0;
    a->stats.max_split_size = -1;
    return a;

error:
    free(a);
    return NULL;
}

/* Collects every block record (free ones from the pools, allocated ones from the map). */
static block **
all_blocks(mt_caching_allocator *a, size_t *count)
{
    size_t n = a->pools[POOL_SMALL].count + a->pools[POOL_LARGE].count + a->allocated.count;
    size_t k = 0;
    size_t i;
    int p;
    block **list = (block **)malloc((n == 0 ? 1 : n) * sizeof(block *));

    if (list == NULL) {
        return NULL;
    }
    for (p = 0; p < 2; p++) {
        for (i = 0; i < a->pools[p].count; i++) {
            list[k++] = a->pools[p].items[i];
        }
    }
    for (i = 0; i < a->allocated.capacity; i++) {
        if (a->allocated.slots[i] != NULL) {
            list[k++] = a->allocated.slots[i];
        }
    }
    *count = k;
    return list;
}

void
mt_caching_allocator_destroy(mt_caching_allocator *a)
{
    block **list;
    size_t n = 0;
    size_t i;

    if (a == NULL) {
        return;
    }
    list = all_blocks(a, &n);
    if (list != NULL) {
        for (i = 0; i < n; i++) {
            if (list[i]->prev == NULL) {
                (void)a->rt->free(a->device, list[i]->ptr);
            }
            free(list[i]);
        }
        free(list);
    }
    while (a->spares != NULL) {
        block *b = a->spares;
        a->spares = b->next;
        free(b);
    }
    free(a->pools[POOL_SMALL].items);
    free(a->pools[POOL_LARGE].items);
    free(a->allocated.slots);
    pthread_mutex_destroy(&a->mutex);
    free(a);
}

/* torch's alloc_block: one raw allocation of alloc_size becomes a free, unsplit block. */
static int
alloc_segment(mt_caching_allocator *a, int pool, size_t alloc_size, block **out)
{
    void *ptr = NULL;
    block *b;
    int err;

    err = a->rt->malloc(a->device, &ptr, alloc_size);
    if (err != MT_RT_SUCCESS) {
        return err;
    }
    b = take_spare(a);
    b->ptr = (char *)ptr;
    b->size = alloc_size;
    b->pool = pool;
    a->pools[pool].nblocks++;
    pool_stat_increase(a->stats.segment, pool, 1);
    pool_stat_increase(a->stats.reserved_bytes, pool, alloc_size);
    a->stats.num_device_alloc++;
    *out = b;
    return MT_RT_SUCCESS;
}

/* torch's release_cached_blocks (one stream, no events, no graph pools): give back every free block
 * that is a whole segment. Returns the first runtime error; a segment whose free fails stays. */
static int
release_cached_blocks(mt_caching_allocator *a)
{
    int first_err = MT_RT_SUCCESS;
    int p;

    a->stats.num_sync_all_streams++;
    /* torch releases the large pool first; the order changes nothing observable. */
    for (p = POOL_LARGE; p >= POOL_SMALL; p--) {
        block_pool *pool = &a->pools[p];
        size_t kept = 0;
        size_t i;

        for (i = 0; i < pool->count; i++) {
            block *b = pool->items[i];
            if (b->prev == NULL && b->next == NULL) {
                int err = a->rt->free(a->device, b->ptr);
                if (err == MT_RT_SUCCESS) {
                    a->stats.num_device_free++;
                    pool_stat_decrease(a->stats.segment, p, 1);
                    pool_stat_decrease(a->stats.reserved_bytes, p, b->size);
                    pool->nblocks--;
                    drop_block(a, b);
                    continue;
                }
                if (first_err == MT_RT_SUCCESS) {
                    first_err = err;
                }
            }
            pool->items[kept++] = b;
        }
        pool->count = kept;
    }
    return first_err;
}

/* torch's alloc_found_block: split off the front of b if the rest is worth caching, mark the
 * result allocated, and keep the statistics. Cannot fail: the spare record was reserved. */
static block *
alloc_found_block(mt_caching_allocator *a, block *b, size_t size, size_t orig_size)
{
    int pool = b->pool;
    block_pool *bp = &a->pools[pool];
    int already_split = b->prev != NULL || b->next != NULL;

    if (should_split(b, size, bp->is_small)) {
        block *remaining = b;

        b = take_spare(a);
        b->ptr = remaining->ptr;
        b->size = size;
        b->pool = pool;
        b->prev = remaining->prev;
        if (b->prev != NULL) {
            b->prev->next = b;
        }
        b->next = remaining;
        remaining->prev = b;
        remaining->ptr += size;
        remaining->size -= size;
        bp->nblocks++;
        pool_insert(bp, remaining);
        if (already_split) {
            /* An inactive split block shrinks by what is handed out. */
            pool_stat_decrease(a->stats.inactive_split_bytes, pool, b->size);
        } else {
            /* A whole segment turns into an allocated block and an inactive split remainder. */
            pool_stat_increase(a->stats.inactive_split_bytes, pool, remaining->size);
            pool_stat_increase(a->stats.inactive_split, pool, 1);
        }
    } else if (already_split) {
        /* An inactive split block becomes active, whole. */
        pool_stat_decrease(a->stats.inactive_split_bytes, pool, b->size);
        pool_stat_decrease(a->stats.inactive_split, pool, 1);
    }
    b->allocated = 1;
    b->requested_size = orig_size;
    pool_stat_increase(a->stats.allocation, pool, 1);
    pool_stat_increase(a->stats.allocated_bytes, pool, b->size);
    pool_stat_increase(a->stats.active, pool, 1);
    pool_stat_increase(a->stats.active_bytes, pool, b->size);
    pool_stat_increase(a->stats.requested_bytes, pool, orig_size);
    return b;
}

static void
write_oom_message(mt_caching_allocator *a, size_t alloc_size, size_t device_free,
                  size_t device_total, char *errbuf, size_t errlen)
{
    char tried[32];
    char total[32];
    char free_text[32];
    char allocated[32];
    char unallocated[32];
    int64_t allocated_bytes = a->stats.allocated_bytes[MT_STAT_ALL].current;
    int64_t reserved_bytes = a->stats.reserved_bytes[MT_STAT_ALL].current;

    mt_format_size(alloc_size, tried, sizeof(tried));
    mt_format_size(device_total, total, sizeof(total));
    mt_format_size(device_free, free_text, sizeof(free_text));
    mt_format_size((uint64_t)allocated_bytes, allocated, sizeof(allocated));
    mt_format_size((uint64_t)(reserved_bytes - allocated_bytes), unallocated, sizeof(unallocated));
    /* torch's text, including its two double spaces; no process line (torch prints one only when
     * NVML is present) and no "allowed" part (no memory fraction is ever set). */
    set_message(errbuf, errlen,
                "CUDA out of memory. Tried to allocate %s. GPU %d has a total capacity of %s of "
                "which %s is free. Of the allocated memory %s is allocated by PyTorch, and %s is "
                "reserved by PyTorch but unallocated. If reserved but unallocated memory is large "
                "try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
                "fragmentation.  See documentation for Memory Management  "
                "(https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)",
                tried, a->device, total, free_text, allocated, unallocated);
}

int
mt_caching_allocator_malloc(mt_caching_allocator *a, size_t size, void **ptr, char *errbuf,
                            size_t errlen)
{
    size_t rounded;
    size_t alloc_size;
    int pool;
    block_pool *bp;
    block *b;
    int err;
    int rc = MT_ALLOC_OK;

    *ptr = NULL;
    set_message(errbuf, errlen, "%s", "");
    if (size >= ONE_EXA_BYTES) {
        set_message(errbuf, errlen, "%s",
                    "CUDA out of memory. Tried to allocate more than 1EB memory.");
        return MT_ALLOC_ERR_OOM;
    }
    if (a->no_caching) {
        /* torch's uncached path: a plain cudaMalloc checked by C10_CUDA_CHECK, so even
         * out-of-memory is a runtime error here, not an OutOfMemoryError. */
        err = a->rt->malloc(a->device, ptr, size);
        if (err != MT_RT_SUCCESS) {
            *ptr = NULL;
            set_runtime_message(a, err, errbuf, errlen);
            return MT_ALLOC_ERR_RUNTIME;
        }
        return MT_ALLOC_OK;
    }
    if (size == 0) {
        return MT_ALLOC_OK;
    }
    rounded = round_size(size);
    pool = rounded <= K_SMALL_SIZE ? POOL_SMALL : POOL_LARGE;
    bp = &a->pools[pool];
    alloc_size = allocation_size(rounded);

    pthread_mutex_lock(&a->mutex);
    /* Host memory for a new segment record, a split record, their array slots and the map entry,
     * taken before anything changes so that a failure here leaves no trace. */
    if (reserve_spares(a, 2) != 0 || pool_reserve(bp, bp->nblocks + 2) != 0
            || map_reserve(&a->allocated, a->allocated.count + 1) != 0) {
        set_message(errbuf, errlen, "%s", "out of host memory for allocator bookkeeping");
        rc = MT_ALLOC_ERR_HOST_MEMORY;
        goto done;
    }
    b = pool_take_best_fit(bp, rounded);
    if (b == NULL) {
        err = alloc_segment(a, pool, alloc_size, &b);
        if (err == MT_RT_ERROR_MEMORY_ALLOCATION) {
            int release_err = release_cached_blocks(a);
            if (release_err != MT_RT_SUCCESS) {
                set_runtime_message(a, release_err, errbuf, errlen);
                rc = MT_ALLOC_ERR_RUNTIME;
                goto done;
            }
            a->stats.num_alloc_retries++;
            err = alloc_segment(a, pool, alloc_size, &b);
        }
        if (err == MT_RT_ERROR_MEMORY_ALLOCATION) {
            size_t device_free = 0;
            size_t device_total = 0;
            int info_err = a->rt->mem_get_info(a->device, &device_free, &device_total);
            if (info_err != MT_RT_SUCCESS) {
                set_runtime_message(a, info_err, errbuf, errlen);
                rc = MT_ALLOC_ERR_RUNTIME;
                goto done;
            }
            a->stats.num_ooms++;
            write_oom_message(a, alloc_size, device_free, device_total, errbuf, errlen);
            rc = MT_ALLOC_ERR_OOM;
            goto done;
        }
        if (err != MT_RT_SUCCESS) {
            set_runtime_message(a, err, errbuf, errlen);
            rc = MT_ALLOC_ERR_RUNTIME;
            goto done;
        }
    }
    b = alloc_found_block(a, b, rounded, size);
    map_put(&a->allocated, b);
    *ptr = b->ptr;

done:
    pthread_mutex_unlock(&a->mutex);
    return rc;
}

/* torch's try_merge_blocks: src, a free neighbour of dst in the same segment, is absorbed. */
static size_t
merge_blocks(mt_caching_allocator *a, block *dst, block *src)
{
    block_pool *bp = &a->pools[dst->pool];
    size_t subsumed;

    if (src == NULL || src->allocated) {
        return 0;
    }
    pool_remove(bp, src);
    if (dst->prev == src) {
        dst->ptr = src->ptr;
        dst->prev = src->prev;
        if (dst->prev != NULL) {
            dst->prev->next = dst;
        }
    } else {
        dst->next = src->next;
        if (dst->next != NULL) {
            dst->next->prev = dst;
        }
    }
    subsumed = src->size;
    dst->size += subsumed;
    bp->nblocks--;
    drop_block(a, src);
    return subsumed;
}

/* torch's free + free_block. */
static void
free_block(mt_caching_allocator *a, block *b)
{
    int pool = b->pool;
    size_t original_size = b->size;
    size_t requested_size = b->requested_size;
    block *candidates[2];
    int64_t net_blocks = 0;
    int64_t net_bytes = 0;
    int i;

    b->allocated = 0;
    pool_stat_decrease(a->stats.allocation, pool, 1);
    pool_stat_decrease(a->stats.allocated_bytes, pool, b->size);

    candidates[0] = b->prev;
    candidates[1] = b->next;
    for (i = 0; i < 2; i++) {
        size_t subsumed = merge_blocks(a, b, candidates[i]);
        if (subsumed > 0) {
            net_blocks -= 1;
            net_bytes -= (int64_t)subsumed;
        }
    }
    pool_insert(&a->pools[pool], b);
    if (b->prev != NULL || b->next != NULL) {
        net_blocks += 1;
        net_bytes += (int64_t)b->size;
    }
    if (net_blocks > 0) {
        pool_stat_increase(a->stats.inactive_split, pool, (size_t)net_blocks);
    } else if (net_blocks < 0) {
        pool_stat_decrease(a->stats.inactive_split, pool, (size_t)-net_blocks);
    }
    if (net_bytes > 0) {
        pool_stat_increase(a->stats.inactive_split_bytes, pool, (size_t)net_bytes);
    } else if (net_bytes < 0) {
        pool_stat_decrease(a->stats.inactive_split_bytes, pool, (size_t)-net_bytes);
    }
    pool_stat_decrease(a->stats.active, pool, 1);
    pool_stat_decrease(a->stats.active_bytes, pool, original_size);
    pool_stat_decrease(a->stats.requested_bytes, pool, requested_size);
}

int
mt_caching_allocator_free(mt_caching_allocator *a, void *ptr)
{
    block *b;
    int rc = MT_ALLOC_OK;

    if (ptr == NULL) {
        return MT_ALLOC_OK;
    }
    if (a->no_caching) {
        int err = a->rt->free(a->device, ptr);
        if (err != MT_RT_SUCCESS) {
            pthread_mutex_lock(&a->mutex);
            set_runtime_message(a, err, a->last_error, sizeof(a->last_error));
            pthread_mutex_unlock(&a->mutex);
            return MT_ALLOC_ERR_RUNTIME;
        }
        return MT_ALLOC_OK;
    }
    pthread_mutex_lock(&a->mutex);
    b = map_take(&a->allocated, ptr);
    if (b == NULL) {
        set_message(a->last_error, sizeof(a->last_error), "invalid device pointer: %p", ptr);
        rc = MT_ALLOC_ERR_INVALID_POINTER;
        goto done;
    }
    free_block(a, b);

done:
    pthread_mutex_unlock(&a->mutex);
    return rc;
}

int
mt_caching_allocator_empty_cache(mt_caching_allocator *a)
{
    int err;
    int rc = MT_ALLOC_OK;

    pthread_mutex_lock(&a->mutex);
    err = release_cached_blocks(a);
    if (err != MT_RT_SUCCESS) {
        set_runtime_message(a, err, a->last_error, sizeof(a->last_error));
        rc = MT_ALLOC_ERR_RUNTIME;
    }
    pthread_mutex_unlock(&a->mutex);
    return rc;
}

void
mt_caching_allocator_last_error(mt_caching_allocator *a, char *buf, size_t len)
{
    pthread_mutex_lock(&a->mutex);
    set_message(buf, len, "%s", a->last_error);
    pthread_mutex_unlock(&a->mutex);
}

void
mt_caching_allocator_get_stats(mt_caching_allocator *a, mt_allocator_stats *out)
{
    pthread_mutex_lock(&a->mutex);
    *out = a->stats;
    pthread_mutex_unlock(&a->mutex);
}

void
mt_caching_allocator_reset_peak(mt_caching_allocator *a)
{
    mt_allocator_stats *s = &a->stats;
    int t;

    pthread_mutex_lock(&a->mutex);
    for (t = 0; t < MT_STAT_TYPES; t++) {
        reset_peak(&s->allocation[t]);
        reset_peak(&s->segment[t]);
        reset_peak(&s->active[t]);
        reset_peak(&s->inactive_split[t]);
        reset_peak(&s->allocated_bytes[t]);
        reset_peak(&s->reserved_bytes[t]);
        reset_peak(&s->active_bytes[t]);
        reset_peak(&s->inactive_split_bytes[t]);
        reset_peak(&s->requested_bytes[t]);
    }
    reset_peak(&s->oversize_allocations);
    reset_peak(&s->oversize_segments);
    pthread_mutex_unlock(&a->mutex);
}

void
mt_caching_allocator_reset_accumulated(mt_caching_allocator *a)
{
    mt_allocator_stats *s = &a->stats;
    int t;

    pthread_mutex_lock(&a->mutex);
    for (t = 0; t < MT_STAT_TYPES; t++) {
        reset_accumulated(&s->allocation[t]);
        reset_accumulated(&s->segment[t]);
        reset_accumulated(&s->active[t]);
        reset_accumulated(&s->inactive_split[t]);
        reset_accumulated(&s->allocated_bytes[t]);
        reset_accumulated(&s->reserved_bytes[t]);
        reset_accumulated(&s->active_bytes[t]);
        reset_accumulated(&s->inactive_split_bytes[t]);
        reset_accumulated(&s->requested_bytes[t]);
    }
    s->num_alloc_retries = 0;
    s->num_ooms = 0;
    s->num_sync_all_streams = 0;
    s->num_device_alloc = 0;
    s->num_device_free = 0;
    reset_accumulated(&s->oversize_allocations);
    reset_accumulated(&s->oversize_segments);
    pthread_mutex_unlock(&a->mutex);
}

int
mt_caching_allocator_device(const mt_caching_allocator *a)
{
    return a->device;
}

const mt_runtime *
mt_caching_allocator_runtime(const mt_caching_allocator *a)
{
    return a->rt;
}

static int
compare_block_address(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t)(*(block *const *)x)->ptr;
    uintptr_t b = (uintptr_t)(*(block *const *)y)->ptr;

    return (a > b) - (a < b);
}

int
mt_caching_allocator_snapshot(mt_caching_allocator *a, mt_allocator_snapshot *out)
{
    block **list = NULL;
    size_t n = 0;
    size_t nheads = 0;
    size_t nb = 0;
    size_t i;
    int rc = MT_ALLOC_OK;

    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&a->mutex);
    list = all_blocks(a, &n);
    if (list == NULL) {
        rc = MT_ALLOC_ERR_HOST_MEMORY;
        goto done;
    }
    if (n == 0) {
        goto done;
    }
    /* Heads (blocks with no prev) first, in address order; each walks its segment. */
    for (i = 0; i < n; i++) {
        if (list[i]->prev == NULL) {
            block *t = list[nheads];
            list[nheads++] = list[i];
            list[i] = t;
        }
    }
    qsort(list, nheads, sizeof(block *), compare_block_address);
    out->segments = (mt_segment_info *)calloc(nheads, sizeof(mt_segment_info));
    out->blocks = (mt_block_info *)calloc(n, sizeof(mt_block_info));
    if (out->segments == NULL || out->blocks == NULL) {
        rc = MT_ALLOC_ERR_HOST_MEMORY;
        goto done;
    }
    for (i = 0; i < nheads; i++) {
        mt_segment_info *seg = &out->segments[i];
        const block *b;

        seg->address = (uintptr_t)list[i]->ptr;
        seg->is_large = list[i]->pool == POOL_LARGE;
        seg->first_block = nb;
        for (b = list[i]; b != NULL && nb < n; b = b->next) {
            mt_block_info *info = &out->blocks[nb++];
            info->address = (uintptr_t)b->ptr;
            info->size = b->size;
            info->requested_size = b->requested_size;
            info->allocated = b->allocated;
            seg->total_size += b->size;
            if (b->allocated) {
                seg->allocated_size += b->size;
                seg->requested_size += b->requested_size;
            }
            seg->nblocks++;
        }
    }
    out->nsegments = nheads;
    out->nblocks = nb;

done:
    pthread_mutex_unlock(&a->mutex);
    free(list);
    if (rc != MT_ALLOC_OK) {
        mt_allocator_snapshot_free(out);
    }
    return rc;
}

void
mt_allocator_snapshot_free(mt_allocator_snapshot *s)
{
    if (s == NULL) {
        return;
    }
    free(s->segments);
    free(s->blocks);
    memset(s, 0, sizeof(*s));
}
