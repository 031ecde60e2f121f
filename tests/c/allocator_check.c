/* A standalone check of the caching allocator on the simulated runtime: every worked example of the
 * allocator section of shared/reference/torch-semantics.md, best fit, splitting, merging,
 * empty_cache, out-of-memory with torch's exact message, the free-and-retry path, no-caching mode,
 * the size parser, and eight threads allocating at once. It owns nothing but this program and must
 * not need Python or a GPU. Build and run from the repository root:
 *
 *     gcc -O2 -pthread -I csrc csrc/runtime/simulated.c csrc/alloc/caching_allocator.c \
 *         tests/c/allocator_check.c -o allocator_check && ./allocator_check
 *
 * With no argument it sets MINITORCH_SIMULATE_GPU=2 and MINITORCH_SIMULATE_GPU_MEMORY=1GiB itself,
 * prints "ok"/"FAIL" lines plus key=value lines (tests/test_allocator_c.py reads both), and exits 1
 * on any failure. "allocator_check config" instead reports how the environment it was given parses. */
#define _POSIX_C_SOURCE 200112L

#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/caching_allocator.h"
#include "runtime/runtime.h"

#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)

static int failures;

static void
expect_i64(const char *what, int64_t got, int64_t want)
{
    if (got == want) {
        printf("ok   %s = %" PRId64 "\n", what, got);
    } else {
        printf("FAIL %s: got %" PRId64 ", want %" PRId64 "\n", what, got, want);
        failures++;
    }
}

static void
expect_str(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) == 0) {
        printf("ok   %s = \"%s\"\n", what, got);
    } else {
        printf("FAIL %s:\n  got  \"%s\"\n  want \"%s\"\n", what, got, want);
        failures++;
    }
}

static void
expect_true(const char *what, int cond)
{
    if (cond) {
        printf("ok   %s\n", what);
    } else {
        printf("FAIL %s\n", what);
        failures++;
    }
}

static mt_allocator_stats
stats_of(mt_caching_allocator *a)
{
    mt_allocator_stats s;

    mt_caching_allocator_get_stats(a, &s);
    return s;
}

static int64_t
allocated_now(mt_caching_allocator *a)
{
    return stats_of(a).allocated_bytes[MT_STAT_ALL].current;
}

static int64_t
reserved_now(mt_caching_allocator *a)
{
    return stats_of(a).reserved_bytes[MT_STAT_ALL].current;
}

/* One line for the pytest side: name allocated=... reserved=... */
static void
report(const char *name, mt_caching_allocator *a)
{
    printf("%s allocated=%" PRId64 " reserved=%" PRId64 "\n", name, allocated_now(a),
           reserved_now(a));
}

static void
expect_memory(const char *name, mt_caching_allocator *a, int64_t allocated, int64_t reserved)
{
    char what[160];

    report(name, a);
    snprintf(what, sizeof(what), "%s memory_allocated", name);
    expect_i64(what, allocated_now(a), allocated);
    snprintf(what, sizeof(what), "%s memory_reserved", name);
    expect_i64(what, reserved_now(a), reserved);
}

static void *
must_malloc(mt_caching_allocator *a, size_t size)
{
    char err[1024];
    void *p = NULL;
    int rc = mt_caching_allocator_malloc(a, size, &p, err, sizeof(err));

    if (rc != MT_ALLOC_OK) {
        printf("FAIL malloc(%zu) returned %d: %s\n", size, rc, err);
        failures++;
        return NULL;
    }
    return p;
}

static mt_caching_allocator *
fresh(int device)
{
    mt_caching_allocator *a = mt_caching_allocator_new(mt_simulated_runtime(), device, 0);

    if (a == NULL) {
        printf("FAIL mt_caching_allocator_new\n");
        failures++;
        exit(1);
    }
    return a;
}

/* The example of §1.3: x = randn(1000, 1000), a copy back, del x, empty_cache, del z. */
static void
check_randn_example(void)
{
    mt_caching_allocator *a = fresh(0);
    mt_allocator_stats s;
    char *x;
    char *z;

    x = must_malloc(a, 4000000);
    expect_memory("example_x", a, 4000256, 20971520);
    s = stats_of(a);
    expect_i64("example_x inactive_split", s.inactive_split[MT_STAT_ALL].current, 1);
    expect_i64("example_x inactive_split_bytes", s.inactive_split_bytes[MT_STAT_ALL].current,
               16971264);
    expect_i64("example_x large_pool allocated", s.allocated_bytes[MT_STAT_LARGE_POOL].current,
               4000256);
    expect_i64("example_x small_pool allocated", s.allocated_bytes[MT_STAT_SMALL_POOL].current, 0);
    expect_i64("example_x requested_bytes", s.requested_bytes[MT_STAT_ALL].current, 4000000);
    z = must_malloc(a, 4000000);
    expect_memory("example_z", a, 8000512, 20971520);
    expect_true("example_z is carved from the remainder right after x", z == x + 4000256);
    mt_caching_allocator_free(a, x);
    expect_memory("example_del_x", a, 4000256, 20971520);
    s = stats_of(a);
    expect_i64("example_del_x inactive_split", s.inactive_split[MT_STAT_ALL].current, 2);
    expect_i64("example_del_x inactive_split_bytes", s.inactive_split_bytes[MT_STAT_ALL].current,
               4000256 + 12971008);
    mt_caching_allocator_empty_cache(a);
    expect_memory("example_empty_cache", a, 4000256, 20971520);
    s = stats_of(a);
    expect_i64("example max_memory_allocated", s.allocated_bytes[MT_STAT_ALL].peak, 8000512);
    expect_i64("example max_memory_reserved", s.reserved_bytes[MT_STAT_ALL].peak, 20971520);
    mt_caching_allocator_free(a, z);
    mt_caching_allocator_empty_cache(a);
    expect_memory("example_del_z_empty_cache", a, 0, 0);
    s = stats_of(a);
    expect_i64("example num_device_alloc", s.num_device_alloc, 1);
    expect_i64("example num_device_free", s.num_device_free, 1);
    expect_i64("example num_sync_all_streams", s.num_sync_all_streams, 2);
    expect_i64("example inactive_split after all freed", s.inactive_split[MT_STAT_ALL].current, 0);
    expect_i64("example allocation.allocated", s.allocation[MT_STAT_ALL].allocated, 2);
    expect_i64("example allocation.freed", s.allocation[MT_STAT_ALL].freed, 2);
    expect_i64("example allocated_bytes.freed", s.allocated_bytes[MT_STAT_ALL].freed, 8000512);
    mt_caching_allocator_destroy(a);
}

static void
check_small_tensor(void)
{
    mt_caching_allocator *a = fresh(0);
    mt_allocator_stats s;
    void *t;
    void *x;

    t = must_malloc(a, 32);
    expect_memory("int64_2x2", a, 512, 2097152);
    s = stats_of(a);
    expect_i64("int64_2x2 small_pool allocated", s.allocated_bytes[MT_STAT_SMALL_POOL].current,
               512);
    expect_i64("int64_2x2 small_pool segment", s.segment[MT_STAT_SMALL_POOL].current, 1);
    expect_i64("int64_2x2 large_pool reserved", s.reserved_bytes[MT_STAT_LARGE_POOL].current, 0);
    x = must_malloc(a, 4000000);
    expect_memory("int64_2x2_with_x", a, 4000768, 23068672);
    mt_caching_allocator_free(a, t);
    mt_caching_allocator_free(a, x);
    mt_caching_allocator_destroy(a);

    a = fresh(0);
    t = must_malloc(a, 16);
    expect_memory("float32_2x2", a, 512, 2097152);
    mt_caching_allocator_free(a, t);
    mt_caching_allocator_destroy(a);
}

static void
check_large_examples(void)
{
    mt_caching_allocator *a = fresh(0);
    mt_allocator_stats s;
    void *p;
    void *blocks[5];
    int i;

    p = must_malloc(a, 12 * MiB);
    expect_memory("exactly_12MiB", a, 12582912, 12582912);
    mt_caching_allocator_free(a, p);
    mt_caching_allocator_empty_cache(a);
    expect_memory("exactly_12MiB_freed", a, 0, 0);

    p = must_malloc(a, ((size_t)5 * MiB + 1) * 4);
    expect_memory("float32_5MiB_plus_1", a, 20972032, 23068672);
    mt_caching_allocator_free(a, p);
    mt_caching_allocator_empty_cache(a);
    mt_caching_allocator_destroy(a);

    a = fresh(0);
    for (i = 0; i < 5; i++) {
        blocks[i] = must_malloc(a, 4000256);
    }
    expect_memory("five_4000256", a, 20971520, 20971520);
    s = stats_of(a);
    expect_i64("five_4000256 requested_bytes", s.requested_bytes[MT_STAT_ALL].current, 20001280);
    expect_i64("five_4000256 segments", s.segment[MT_STAT_ALL].current, 1);
    expect_i64("five_4000256 inactive_split", s.inactive_split[MT_STAT_ALL].current, 0);
    expect_true("five_4000256 the fifth block starts at 4*4000256",
                (char *)blocks[4] == (char *)blocks[0] + 4 * 4000256);
    mt_caching_allocator_free(a, blocks[4]);
    expect_i64("five_4000256 freeing the fifth returns its whole 4970496",
               allocated_now(a), 20971520 - 4970496);
    for (i = 0; i < 4; i++) {
        mt_caching_allocator_free(a, blocks[i]);
    }
    mt_caching_allocator_empty_cache(a);
    expect_memory("five_4000256_freed", a, 0, 0);
    mt_caching_allocator_destroy(a);
}

static void
check_rounding_table(void)
{
    static const struct {
        size_t request;
        int64_t allocated;
        int64_t reserved;
        int large;
        int64_t cached;
    } rows[] = {
        {1, 512, 2097152, 0, 2097152 - 512},
        {513, 1024, 2097152, 0, 2097152 - 1024},
        {1048576, 1048576, 2097152, 0, 1048576},
        {1048577, 1049088, 20971520, 1, 20971520 - 1049088},
        {10485760, 10485760, 10485760, 1, 0},
        {10485761, 10486272, 12582912, 1, 2096640},
    };
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        mt_caching_allocator *a = fresh(0);
        mt_allocator_stats s;
        char name[64];
        char what[128];
        void *p = must_malloc(a, rows[i].request);

        snprintf(name, sizeof(name), "round_%zu", rows[i].request);
        expect_memory(name, a, rows[i].allocated, rows[i].reserved);
        s = stats_of(a);
        snprintf(what, sizeof(what), "%s pool", name);
        expect_i64(what, s.allocated_bytes[rows[i].large ? MT_STAT_LARGE_POOL
                                                         : MT_STAT_SMALL_POOL].current,
                   rows[i].allocated);
        snprintf(what, sizeof(what), "%s cached split remainder", name);
        expect_i64(what, s.inactive_split_bytes[MT_STAT_ALL].current, rows[i].cached);
        mt_caching_allocator_free(a, p);
        mt_caching_allocator_empty_cache(a);
        snprintf(name, sizeof(name), "round_%zu_freed", rows[i].request);
        expect_memory(name, a, 0, 0);
        mt_caching_allocator_destroy(a);
    }
}

static void
check_best_fit_and_split(void)
{
    mt_caching_allocator *a = fresh(0);
    char *pa;
    char *pb;
    char *pc;
    char *pd;
    char *seps[4];
    char *p;
    char *q;
    int i;

    /* Four free holes in one small segment, each kept apart by an allocated 512-byte block:
     * a=4096, b=2048, c=8192, d=2048, then the segment's free tail. */
    pa = must_malloc(a, 4096);
    seps[0] = must_malloc(a, 512);
    pb = must_malloc(a, 2048);
    seps[1] = must_malloc(a, 512);
    pc = must_malloc(a, 8192);
    seps[2] = must_malloc(a, 512);
    pd = must_malloc(a, 2048);
    seps[3] = must_malloc(a, 512);
    mt_caching_allocator_free(a, pa);
    mt_caching_allocator_free(a, pb);
    mt_caching_allocator_free(a, pc);
    mt_caching_allocator_free(a, pd);
    expect_i64("best_fit four holes", stats_of(a).inactive_split[MT_STAT_ALL].current, 5);

    p = must_malloc(a, 1500);
    expect_true("best_fit 1500 -> smallest hole (2048), lower address of two (b)", p == pb);
    expect_i64("best_fit small split keeps 512 remainder: allocated", allocated_now(a),
               4 * 512 + 1536);
    q = must_malloc(a, 2048);
    expect_true("best_fit 2048 -> the exact 2048 hole d, not b's 512 rest", q == pd);
    mt_caching_allocator_free(a, q);
    q = must_malloc(a, 512);
    expect_true("best_fit 512 -> b's 512 remainder", q == pb + 1536);
    mt_caching_allocator_free(a, q);
    q = must_malloc(a, 3000);
    expect_true("best_fit 3000 (3072) -> hole a (4096)", q == pa);
    mt_caching_allocator_free(a, q);
    mt_caching_allocator_free(a, p);
    for (i = 0; i < 4; i++) {
        mt_caching_allocator_free(a, seps[i]);
    }
    expect_i64("best_fit all freed: one whole segment again",
               stats_of(a).inactive_split[MT_STAT_ALL].current, 0);
    mt_caching_allocator_empty_cache(a);
    expect_memory("best_fit_freed", a, 0, 0);
    mt_caching_allocator_destroy(a);

    /* Large pool: a remainder of exactly 1 MiB is not split off, 1 MiB + 512 is. */
    a = fresh(0);
    p = must_malloc(a, 19 * MiB);
    expect_memory("large_remainder_1MiB_not_split", a, 20971520, 20971520);
    mt_caching_allocator_free(a, p);
    p = must_malloc(a, 19 * MiB - 512);
    expect_memory("large_remainder_1MiB_plus_512_split", a, 19922432, 20971520);
    expect_i64("large split remainder cached", stats_of(a).inactive_split_bytes[MT_STAT_ALL].current,
               1049088);
    mt_caching_allocator_free(a, p);
    mt_caching_allocator_empty_cache(a);
    mt_caching_allocator_destroy(a);
}

static void
check_merge(void)
{
    mt_caching_allocator *a = fresh(0);
    mt_allocator_stats s;
    mt_allocator_snapshot snap;
    char *x;
    char *y;
    char *z;

    x = must_malloc(a, 4 * MiB);
    y = must_malloc(a, 4 * MiB);
    z = must_malloc(a, 4 * MiB);
    mt_caching_allocator_free(a, x);
    mt_caching_allocator_free(a, z); /* merges with the free tail */
    if (mt_caching_allocator_snapshot(a, &snap) == MT_ALLOC_OK) {
        expect_i64("merge snapshot segments", (int64_t)snap.nsegments, 1);
        expect_i64("merge snapshot blocks", (int64_t)snap.nblocks, 3);
        if (snap.nblocks == 3) {
            expect_i64("merge block0 size (x, free)", (int64_t)snap.blocks[0].size, 4 * MiB);
            expect_i64("merge block0 allocated", snap.blocks[0].allocated, 0);
            expect_i64("merge block1 size (y)", (int64_t)snap.blocks[1].size, 4 * MiB);
            expect_i64("merge block1 allocated", snap.blocks[1].allocated, 1);
            expect_i64("merge block2 size (z + tail)", (int64_t)snap.blocks[2].size,
                       20971520 - 8 * MiB);
            expect_true("merge block2 starts where z started",
                        snap.blocks[2].address == (uintptr_t)z);
        }
        expect_i64("merge segment allocated_size", (int64_t)snap.segments[0].allocated_size,
                   4 * MiB);
        expect_i64("merge segment total_size", (int64_t)snap.segments[0].total_size, 20971520);
        mt_allocator_snapshot_free(&snap);
    } else {
        expect_true("merge snapshot", 0);
    }
    s = stats_of(a);
    expect_i64("merge inactive_split", s.inactive_split[MT_STAT_ALL].current, 2);
    expect_i64("merge inactive_split_bytes", s.inactive_split_bytes[MT_STAT_ALL].current,
               20971520 - 4 * MiB);
    mt_caching_allocator_empty_cache(a);
    expect_memory("merge empty_cache keeps the split segment", a, 4 * MiB, 20971520);
    mt_caching_allocator_free(a, y);
    s = stats_of(a);
    expect_i64("merge all three into one block: inactive_split",
               s.inactive_split[MT_STAT_ALL].current, 0);
    expect_i64("merge inactive_split_bytes", s.inactive_split_bytes[MT_STAT_ALL].current, 0);
    if (mt_caching_allocator_snapshot(a, &snap) == MT_ALLOC_OK) {
        expect_i64("merge snapshot after: blocks", (int64_t)snap.nblocks, 1);
        expect_true("merge snapshot after: block is the segment",
                    snap.nblocks == 1 && snap.blocks[0].address == (uintptr_t)x
                    && snap.blocks[0].size == 20971520);
        mt_allocator_snapshot_free(&snap);
    }
    mt_caching_allocator_empty_cache(a);
    expect_memory("merge_released", a, 0, 0);
    mt_caching_allocator_destroy(a);
}

static const char *OOM_TAIL =
    " If reserved but unallocated memory is large try setting "
    "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation "
    "for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html"
    "#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)";

static void
check_oom(void)
{
    mt_caching_allocator *a = fresh(0);
    mt_allocator_stats s;
    char err[1024];
    char want[1024];
    void *p = (void *)1;
    void *big;
    void *x;
    void *y;
    void *y2 = NULL;
    int rc;

    rc = mt_caching_allocator_malloc(a, 2 * GiB, &p, err, sizeof(err));
    expect_i64("oom_2GiB return code", rc, MT_ALLOC_ERR_OOM);
    expect_true("oom_2GiB pointer is NULL", p == NULL);
    printf("oom_2GiB message=%s\n", err);
    snprintf(want, sizeof(want),
             "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
             "1024.00 MiB of which 1024.00 MiB is free. Of the allocated memory 0 bytes is "
             "allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.%s",
             OOM_TAIL);
    expect_str("oom_2GiB message", err, want);
    s = stats_of(a);
    expect_i64("oom_2GiB num_ooms", s.num_ooms, 1);
    expect_i64("oom_2GiB num_alloc_retries", s.num_alloc_retries, 1);
    expect_i64("oom_2GiB num_device_alloc", s.num_device_alloc, 0);
    p = must_malloc(a, 32);
    expect_memory("oom_then_small", a, 512, 2097152);
    mt_caching_allocator_free(a, p);
    mt_caching_allocator_empty_cache(a);

    /* A fuller device: 1000 MiB in use plus x and y sharing a 20 MiB segment; 16 MiB more fails
     * and the message reports the 16 MiB segment, 4 MiB free, and the split remainder. */
    big = must_malloc(a, 1000 * MiB);
    x = must_malloc(a, 4000000);
    y = must_malloc(a, 4000000);
    rc = mt_caching_allocator_malloc(a, 16 * MiB, &p, err, sizeof(err));
    expect_i64("oom_full return code", rc, MT_ALLOC_ERR_OOM);
    printf("oom_full message=%s\n", err);
    snprintf(want, sizeof(want),
             "CUDA out of memory. Tried to allocate 16.00 MiB. GPU 0 has a total capacity of "
             "1024.00 MiB of which 4.00 MiB is free. Of the allocated memory 1007.63 MiB is "
             "allocated by PyTorch, and 12.37 MiB is reserved by PyTorch but unallocated.%s",
             OOM_TAIL);
    expect_str("oom_full message", err, want);
    /* A request that fits the cached remainder of x's segment still works: 12000256 of its
     * 12971008 bytes, and the 970752 left is too small to split off, so the block is whole. */
    p = must_malloc(a, 12000000);
    expect_true("oom_full a request that fits the cached remainder still works", p != NULL);
    expect_i64("oom_full the remainder is handed out whole", allocated_now(a),
               1048576000 + 8000512 + 12971008);
    /* Now nothing is cached: a request under 10 MiB reports its 20 MiB segment, not its size. */
    rc = mt_caching_allocator_malloc(a, 6000000, &y2, err, sizeof(err));
    expect_i64("oom_20MiB return code", rc, MT_ALLOC_ERR_OOM);
    printf("oom_20MiB message=%s\n", err);
    expect_true("oom_20MiB message reports the 20 MiB segment",
                strncmp(err, "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
                        "capacity of 1024.00 MiB of which 4.00 MiB is free.", 117) == 0);
    s = stats_of(a);
    expect_i64("oom_full num_ooms", s.num_ooms, 3);
    expect_i64("oom_full num_alloc_retries", s.num_alloc_retries, 3);
    mt_caching_allocator_free(a, p);
    mt_caching_allocator_free(a, x);
    mt_caching_allocator_free(a, y);
    mt_caching_allocator_free(a, big);
    mt_caching_allocator_empty_cache(a);
    expect_memory("oom_freed", a, 0, 0);

    /* torch's separate check before the device allocator: no OOM is counted. */
    rc = mt_caching_allocator_malloc(a, (size_t)1 << 60, &p, err, sizeof(err));
    expect_i64("oom_1EB return code", rc, MT_ALLOC_ERR_OOM);
    expect_str("oom_1EB message", err, "CUDA out of memory. Tried to allocate more than 1EB memory.");
    expect_i64("oom_1EB num_ooms unchanged", stats_of(a).num_ooms, 3);
    rc = mt_caching_allocator_malloc(a, ((size_t)1 << 60) - 1, &p, err, sizeof(err));
    expect_i64("oom_just_under_1EB reaches the device and fails", rc, MT_ALLOC_ERR_OOM);
    expect_i64("oom_just_under_1EB counted", stats_of(a).num_ooms, 4);
    mt_caching_allocator_destroy(a);
}

static void
check_retry(void)
{
    mt_caching_allocator *a = fresh(0);
    mt_allocator_stats s;
    void *big;
    void *small;
    void *p;

    /* 600 MiB cached (freed, its segment whole) and a small block in use. 700 MiB fits in neither
     * the cache nor the 424 MiB left, so the cache is released and the raw malloc retried. */
    big = must_malloc(a, 600 * MiB);
    small = must_malloc(a, 1000);
    mt_caching_allocator_free(a, big);
    expect_memory("retry_cached", a, 1024, 600 * MiB + 2 * MiB);
    p = must_malloc(a, 700 * MiB);
    expect_true("retry 700 MiB succeeded", p != NULL);
    expect_memory("retry_after", a, 700 * MiB + 1024, 700 * MiB + 2 * MiB);
    s = stats_of(a);
    expect_i64("retry num_alloc_retries", s.num_alloc_retries, 1);
    expect_i64("retry num_ooms", s.num_ooms, 0);
    expect_i64("retry num_device_alloc", s.num_device_alloc, 3);
    expect_i64("retry num_device_free", s.num_device_free, 1);
    expect_i64("retry small segment (split, in use) kept", s.segment[MT_STAT_SMALL_POOL].current, 1);
    expect_i64("retry peak reserved", s.reserved_bytes[MT_STAT_ALL].peak, 700 * MiB + 2 * MiB);
    mt_caching_allocator_free(a, p);
    mt_caching_allocator_free(a, small);
    mt_caching_allocator_reset_peak(a);
    s = stats_of(a);
    expect_i64("reset_peak allocated peak == current", s.allocated_bytes[MT_STAT_ALL].peak, 0);
    expect_i64("reset_peak reserved peak == current", s.reserved_bytes[MT_STAT_ALL].peak,
               700 * MiB + 2 * MiB);
    mt_caching_allocator_reset_accumulated(a);
    s = stats_of(a);
    expect_i64("reset_accumulated num_alloc_retries", s.num_alloc_retries, 0);
    expect_i64("reset_accumulated allocation.allocated", s.allocation[MT_STAT_ALL].allocated, 0);
    expect_i64("reset_accumulated keeps current reserved", s.reserved_bytes[MT_STAT_ALL].current,
               700 * MiB + 2 * MiB);
    mt_caching_allocator_empty_cache(a);
    expect_memory("retry_freed", a, 0, 0);
    mt_caching_allocator_destroy(a);
}

static void
check_misc(void)
{
    mt_caching_allocator *a = fresh(0);
    const mt_runtime *rt = mt_simulated_runtime();
    char err[256];
    char *p = NULL;
    size_t free_before;
    size_t free_after;
    size_t total;
    int rc;

    rc = mt_caching_allocator_malloc(a, 0, (void **)&p, err, sizeof(err));
    expect_i64("size0 return code", rc, MT_ALLOC_OK);
    expect_true("size0 pointer NULL", p == NULL);
    expect_i64("size0 no allocation counted", stats_of(a).allocation[MT_STAT_ALL].allocated, 0);
    expect_i64("free(NULL)", mt_caching_allocator_free(a, NULL), MT_ALLOC_OK);
    p = must_malloc(a, 4096);
    /* Segments are 256-byte aligned (cudaMalloc's guarantee) and blocks sit at 512-byte offsets. */
    expect_true("block pointers are 256-byte aligned", ((uintptr_t)p % 256) == 0);
    rc = mt_caching_allocator_free(a, p + 512);
    expect_i64("free of a foreign pointer", rc, MT_ALLOC_ERR_INVALID_POINTER);
    mt_caching_allocator_last_error(a, err, sizeof(err));
    expect_true("invalid pointer message", strncmp(err, "invalid device pointer: ", 24) == 0);
    mt_caching_allocator_free(a, p);
    expect_i64("double free", mt_caching_allocator_free(a, p), MT_ALLOC_ERR_INVALID_POINTER);
    mt_caching_allocator_destroy(a);

    /* No-caching mode: raw malloc and free, statistics untouched. */
    a = mt_caching_allocator_new(rt, 0, 1);
    rt->mem_get_info(0, &free_before, &total);
    p = must_malloc(a, 4000000);
    rt->mem_get_info(0, &free_after, &total);
    expect_i64("no_caching raw allocation is the exact size", (int64_t)(free_before - free_after),
               4000000);
    expect_memory("no_caching", a, 0, 0);
    expect_i64("no_caching num_device_alloc", stats_of(a).num_device_alloc, 0);
    mt_caching_allocator_free(a, p);
    rt->mem_get_info(0, &free_after, &total);
    expect_i64("no_caching free returns it", (int64_t)free_after, (int64_t)free_before);
    rc = mt_caching_allocator_malloc(a, 2 * GiB, (void **)&p, err, sizeof(err));
    expect_i64("no_caching OOM is a runtime error", rc, MT_ALLOC_ERR_RUNTIME);
    expect_str("no_caching OOM message", err, "CUDA error: out of memory");
    expect_i64("no_caching num_ooms", stats_of(a).num_ooms, 0);
    mt_caching_allocator_empty_cache(a);
    expect_i64("no_caching empty_cache counts a sync", stats_of(a).num_sync_all_streams, 1);
    mt_caching_allocator_destroy(a);

    /* Device 1 is separate: its budget is its own. */
    a = fresh(1);
    p = must_malloc(a, 900 * MiB);
    rt->mem_get_info(1, &free_after, &total);
    expect_i64("device1 free after 900 MiB", (int64_t)free_after, 124 * (int64_t)MiB);
    rt->mem_get_info(0, &free_after, &total);
    expect_i64("device0 unaffected", (int64_t)free_after, (int64_t)GiB);
    mt_caching_allocator_free(a, p);
    mt_caching_allocator_destroy(a);
    rt->mem_get_info(1, &free_after, &total);
    expect_i64("destroy returns every segment", (int64_t)free_after, (int64_t)GiB);
}

static void
check_format_size(void)
{
    static const struct {
        uint64_t size;
        const char *text;
    } rows[] = {
        {0, "0 bytes"},
        {512, "512 bytes"},
        {1024, "1024 bytes"},
        {1025, "1.00 KiB"},
        {1048576, "1024.00 KiB"},
        {1048577, "1.00 MiB"},
        {20971520, "20.00 MiB"},
        {1073741824, "1024.00 MiB"},
        {1073741825, "1.00 GiB"},
        {2147483648ULL, "2.00 GiB"},
    };
    char buf[64];
    char what[64];
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        mt_format_size(rows[i].size, buf, sizeof(buf));
        snprintf(what, sizeof(what), "format_size(%" PRIu64 ")", rows[i].size);
        expect_str(what, buf, rows[i].text);
    }
}

static void
check_parser(void)
{
    static const struct {
        const char *text;
        int ok;
        uint64_t value;
    } rows[] = {
        {"16GiB", 1, 17179869184ULL},
        {"1gib", 1, 1073741824ULL},
        {"512 MiB", 1, 536870912ULL},
        {" 2GB ", 1, 2000000000ULL},
        {"3kb", 1, 3000ULL},
        {"1TiB", 1, 1099511627776ULL},
        {"1.5GiB", 1, 1610612736ULL},
        {"123", 1, 123ULL},
        {"4096B", 1, 4096ULL},
        {"abc", 0, 0},
        {"", 0, 0},
        {"0", 0, 0},
        {"1XB", 0, 0},
        {"12 GiB extra", 0, 0},
        {"-1GiB", 0, 0},
        {"99999999999999999999", 0, 0},
        {"20000000TiB", 0, 0},
    };
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        size_t value = 0;
        char what[96];
        int rc = mt_parse_memory_size(rows[i].text, &value);

        snprintf(what, sizeof(what), "parse \"%s\"", rows[i].text);
        if (rows[i].ok) {
            expect_i64(what, rc == 0 ? (int64_t)value : -1, (int64_t)rows[i].value);
        } else {
            expect_i64(what, rc, -1);
        }
    }
}

static void
check_runtime(void)
{
    const mt_runtime *rt = mt_simulated_runtime();
    mt_device_properties props;
    void *p = NULL;
    size_t free_bytes = 0;
    size_t total = 0;
    int count = 0;

    expect_i64("simulated requested", mt_simulated_requested(), 2);
    expect_i64("device_count rc", rt->device_count(&count), MT_RT_SUCCESS);
    expect_i64("device_count", count, 2);
    expect_i64("host_accessible", rt->host_accessible, 1);
    expect_i64("get_properties rc", rt->get_properties(0, &props), MT_RT_SUCCESS);
    expect_str("name", props.name, "minitorch simulated GPU");
    expect_i64("major", props.major, 9);
    expect_i64("minor", props.minor, 0);
    expect_i64("total_memory", (int64_t)props.total_memory, (int64_t)GiB);
    expect_i64("multi_processor_count", props.multi_processor_count, 132);
    expect_i64("invalid device", rt->get_properties(2, &props), MT_RT_ERROR_INVALID_DEVICE);
    expect_str("invalid device text", rt->error_string(MT_RT_ERROR_INVALID_DEVICE),
               "invalid device ordinal");
    expect_i64("raw malloc", rt->malloc(0, &p, 1000), MT_RT_SUCCESS);
    expect_true("raw malloc is 256-byte aligned", ((uintptr_t)p % 256) == 0);
    rt->mem_get_info(0, &free_bytes, &total);
    expect_i64("mem_get_info free", (int64_t)free_bytes, (int64_t)GiB - 1000);
    expect_i64("raw memset", rt->memset(0, p, 7, 1000), MT_RT_SUCCESS);
    expect_i64("raw free", rt->free(0, p), MT_RT_SUCCESS);
    expect_i64("raw double free refused", rt->free(0, p), MT_RT_ERROR_INVALID_VALUE);
    expect_i64("raw malloc over budget", rt->malloc(1, &p, GiB + 1), MT_RT_ERROR_MEMORY_ALLOCATION);
    expect_true("raw malloc over budget leaves NULL", p == NULL);
    expect_i64("raw malloc whole budget", rt->malloc(1, &p, GiB), MT_RT_SUCCESS);
    rt->free(1, p);
    expect_i64("raw malloc 0", rt->malloc(0, &p, 0), MT_RT_SUCCESS);
    expect_true("raw malloc 0 gives NULL", p == NULL);
}

/* ---- eight threads sharing one allocator ---- */

#define THREADS 8
#define ITERATIONS 3000
#define LIVE 4

typedef struct worker {
    mt_caching_allocator *a;
    int id;
    int errors;
    int64_t requested_total;
} worker;

static uint64_t
next_random(uint64_t *state)
{
    uint64_t x = *state;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

/* Stamps a block at both ends; a block that overlapped another would lose its stamps. */
static void
stamp(char *p, size_t size, uint64_t token)
{
    memcpy(p, &token, sizeof(token));
    memcpy(p + size - sizeof(token), &token, sizeof(token));
}

static int
stamp_intact(const char *p, size_t size, uint64_t token)
{
    uint64_t head;
    uint64_t tail;

    memcpy(&head, p, sizeof(head));
    memcpy(&tail, p + size - sizeof(tail), sizeof(tail));
    return head == token && tail == token;
}

static void *
worker_main(void *arg)
{
    worker *w = (worker *)arg;
    uint64_t state = 0x9e3779b97f4a7c15ULL * ((uint64_t)w->id + 1);
    char *ptrs[LIVE] = {NULL};
    size_t sizes[LIVE] = {0};
    uint64_t tokens[LIVE] = {0};
    char err[1024];
    int i;

    for (i = 0; i < ITERATIONS; i++) {
        int slot = (int)(next_random(&state) % LIVE);
        uint64_t r = next_random(&state);
        size_t size;
        void *p = NULL;

        if (ptrs[slot] != NULL) {
            if (!stamp_intact(ptrs[slot], sizes[slot], tokens[slot])) {
                w->errors++;
            }
            mt_caching_allocator_free(w->a, ptrs[slot]);
            ptrs[slot] = NULL;
        }
        /* Mostly small blocks, some large ones under and over 10 MiB. */
        switch (r % 8) {
        case 0:
            size = 1 * MiB + (size_t)(next_random(&state) % (8 * MiB));
            break;
        case 1:
            size = 10 * MiB + (size_t)(next_random(&state) % (4 * MiB));
            break;
        default:
            size = 16 + (size_t)(next_random(&state) % (1 * MiB));
            break;
        }
        if (mt_caching_allocator_malloc(w->a, size, &p, err, sizeof(err)) != MT_ALLOC_OK) {
            w->errors++;
            continue;
        }
        ptrs[slot] = (char *)p;
        sizes[slot] = size;
        tokens[slot] = next_random(&state);
        stamp(ptrs[slot], size, tokens[slot]);
        w->requested_total += (int64_t)size;
        if (w->id == 0 && i % 500 == 0) {
            mt_caching_allocator_empty_cache(w->a);
        }
    }
    for (i = 0; i < LIVE; i++) {
        if (ptrs[i] != NULL) {
            if (!stamp_intact(ptrs[i], sizes[i], tokens[i])) {
                w->errors++;
            }
            mt_caching_allocator_free(w->a, ptrs[i]);
        }
    }
    return NULL;
}

/* Random single-thread traffic, checking after every step that the statistics agree with the
 * blocks actually held (from the snapshot) and that no two free neighbours were left unmerged. */
static int
invariants_hold(mt_caching_allocator *a)
{
    mt_allocator_snapshot snap;
    mt_allocator_stats s = stats_of(a);
    int64_t reserved[2] = {0, 0};
    int64_t allocated = 0;
    int64_t requested = 0;
    int64_t nallocated = 0;
    int64_t split_free = 0;
    int64_t split_free_bytes = 0;
    int ok = 1;
    size_t i;
    size_t j;

    if (mt_caching_allocator_snapshot(a, &snap) != MT_ALLOC_OK) {
        return 0;
    }
    for (i = 0; i < snap.nsegments; i++) {
        const mt_segment_info *seg = &snap.segments[i];
        reserved[seg->is_large] += (int64_t)seg->total_size;
        for (j = 0; j < seg->nblocks; j++) {
            const mt_block_info *b = &snap.blocks[seg->first_block + j];
            if (b->allocated) {
                allocated += (int64_t)b->size;
                requested += (int64_t)b->requested_size;
                nallocated++;
            } else {
                if (seg->nblocks > 1) {
                    split_free++;
                    split_free_bytes += (int64_t)b->size;
                }
                if (j > 0 && !snap.blocks[seg->first_block + j - 1].allocated) {
                    ok = 0;
                }
            }
            if (j > 0) {
                const mt_block_info *p = &snap.blocks[seg->first_block + j - 1];
                if (p->address + p->size != b->address) {
                    ok = 0;
                }
            }
        }
    }
    ok = ok && (int64_t)snap.nsegments == s.segment[MT_STAT_ALL].current
         && reserved[0] == s.reserved_bytes[MT_STAT_SMALL_POOL].current
         && reserved[1] == s.reserved_bytes[MT_STAT_LARGE_POOL].current
         && reserved[0] + reserved[1] == s.reserved_bytes[MT_STAT_ALL].current
         && allocated == s.allocated_bytes[MT_STAT_ALL].current
         && allocated == s.active_bytes[MT_STAT_ALL].current
         && requested == s.requested_bytes[MT_STAT_ALL].current
         && nallocated == s.allocation[MT_STAT_ALL].current
         && split_free == s.inactive_split[MT_STAT_ALL].current
         && split_free_bytes == s.inactive_split_bytes[MT_STAT_ALL].current;
    mt_allocator_snapshot_free(&snap);
    return ok;
}

static void
check_random_invariants(void)
{
    mt_caching_allocator *a = fresh(1);
    uint64_t state = 12345;
    void *live[64] = {NULL};
    int broken_at = -1;
    int step;
    int i;

    for (step = 0; step < 20000 && broken_at < 0; step++) {
        uint64_t r = next_random(&state);
        int slot = (int)(r % 64);

        if (r % 97 == 0) {
            mt_caching_allocator_empty_cache(a);
        } else if (live[slot] != NULL) {
            mt_caching_allocator_free(a, live[slot]);
            live[slot] = NULL;
        } else {
            size_t size;
            switch ((r >> 8) % 6) {
            case 0:
                size = 1 * MiB + (size_t)(next_random(&state) % (9 * MiB));
                break;
            case 1:
                size = 10 * MiB + (size_t)(next_random(&state) % (6 * MiB));
                break;
            default:
                size = 1 + (size_t)(next_random(&state) % (1 * MiB + 1024));
                break;
            }
            live[slot] = must_malloc(a, size);
        }
        if (!invariants_hold(a)) {
            broken_at = step;
        }
    }
    expect_i64("random traffic: first step where statistics and blocks disagree", broken_at, -1);
    for (i = 0; i < 64; i++) {
        mt_caching_allocator_free(a, live[i]);
    }
    expect_true("random traffic: invariants after freeing all", invariants_hold(a));
    mt_caching_allocator_empty_cache(a);
    expect_memory("random_freed", a, 0, 0);
    mt_caching_allocator_destroy(a);
}

static void
check_threads(void)
{
    mt_caching_allocator *a = fresh(0);
    pthread_t threads[THREADS];
    worker workers[THREADS];
    mt_allocator_stats s;
    int64_t requested = 0;
    int errors = 0;
    int t;

    for (t = 0; t < THREADS; t++) {
        workers[t].a = a;
        workers[t].id = t;
        workers[t].errors = 0;
        workers[t].requested_total = 0;
        if (pthread_create(&threads[t], NULL, worker_main, &workers[t]) != 0) {
            printf("FAIL pthread_create\n");
            failures++;
            return;
        }
    }
    for (t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        errors += workers[t].errors;
        requested += workers[t].requested_total;
    }
    expect_i64("threads errors (failed mallocs or overlapping blocks)", errors, 0);
    s = stats_of(a);
    expect_i64("threads allocations made", s.allocation[MT_STAT_ALL].allocated,
               (int64_t)THREADS * ITERATIONS);
    expect_i64("threads requested_bytes.allocated", s.requested_bytes[MT_STAT_ALL].allocated,
               requested);
    expect_i64("threads allocated_bytes current", s.allocated_bytes[MT_STAT_ALL].current, 0);
    expect_i64("threads allocated_bytes allocated == freed",
               s.allocated_bytes[MT_STAT_ALL].allocated - s.allocated_bytes[MT_STAT_ALL].freed, 0);
    expect_i64("threads allocation current", s.allocation[MT_STAT_ALL].current, 0);
    expect_i64("threads active current", s.active[MT_STAT_ALL].current, 0);
    expect_i64("threads active_bytes current", s.active_bytes[MT_STAT_ALL].current, 0);
    expect_i64("threads requested_bytes current", s.requested_bytes[MT_STAT_ALL].current, 0);
    expect_i64("threads inactive_split current", s.inactive_split[MT_STAT_ALL].current, 0);
    expect_i64("threads inactive_split_bytes current", s.inactive_split_bytes[MT_STAT_ALL].current,
               0);
    expect_i64("threads small+large == all (allocations)",
               s.allocation[MT_STAT_SMALL_POOL].allocated + s.allocation[MT_STAT_LARGE_POOL].allocated,
               s.allocation[MT_STAT_ALL].allocated);
    expect_true("threads used both pools", s.allocation[MT_STAT_SMALL_POOL].allocated > 0
                && s.allocation[MT_STAT_LARGE_POOL].allocated > 0);
    mt_caching_allocator_empty_cache(a);
    s = stats_of(a);
    expect_i64("threads reserved after empty_cache", s.reserved_bytes[MT_STAT_ALL].current, 0);
    expect_i64("threads segments after empty_cache", s.segment[MT_STAT_ALL].current, 0);
    expect_i64("threads device allocs == device frees", s.num_device_alloc - s.num_device_free, 0);
    printf("threads allocated=%" PRId64 " reserved=%" PRId64 " allocations=%" PRId64
           " peak_reserved=%" PRId64 "\n", s.allocated_bytes[MT_STAT_ALL].current,
           s.reserved_bytes[MT_STAT_ALL].current, s.allocation[MT_STAT_ALL].allocated,
           s.reserved_bytes[MT_STAT_ALL].peak);
    mt_caching_allocator_destroy(a);
}

static int
config_report(void)
{
    const mt_runtime *rt = mt_simulated_runtime();
    const char *err = mt_simulated_config_error();
    mt_device_properties props;
    int count = -1;
    int rc = rt->device_count(&count);

    printf("requested=%d\n", mt_simulated_requested());
    printf("config_error=%s\n", err != NULL ? err : "");
    printf("device_count_rc=%d\n", rc);
    printf("device_count=%d\n", count);
    printf("error_string=%s\n", rt->error_string(rc));
    if (rt->get_properties(0, &props) == MT_RT_SUCCESS) {
        printf("total_memory=%zu\n", props.total_memory);
    }
    return 0;
}

int
main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "config") == 0) {
        return config_report();
    }
    setenv("MINITORCH_SIMULATE_GPU", "2", 1);
    setenv("MINITORCH_SIMULATE_GPU_MEMORY", "1GiB", 1);

    check_runtime();
    check_parser();
    check_format_size();
    check_randn_example();
    check_small_tensor();
    check_large_examples();
    check_rounding_table();
    check_best_fit_and_split();
    check_merge();
    check_oom();
    check_retry();
    check_misc();
    check_random_invariants();
    check_threads();

    if (failures == 0) {
        printf("ALL OK\n");
        return 0;
    }
    printf("%d FAILURES\n", failures);
    return 1;
}
