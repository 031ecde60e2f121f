/* parallel.h: the host kernels' thread pool. One process-wide pool of persistent worker threads (POSIX
 * threads, started on first use and kept, never one thread per call) runs parallel regions for the GEMM,
 * the elementwise kernels and the reductions. The number of threads a region may use is torch's
 * intra-op setting (set_num_threads / get_num_threads). These functions never touch Python objects:
 * kernels call them with the GIL released. */
#ifndef MT_KERNELS_CPU_PARALLEL_H
#define MT_KERNELS_CPU_PARALLEL_H

#include <stdint.h>

/* torch's at::internal::GRAIN_SIZE: ops over fewer elements run on one thread. */
#define MT_PARALLEL_GRAIN_SIZE 32768

/* The threads a parallel region may use. Default: MINITORCH_NUM_THREADS if set (minitorch's own knob);
 * else torch's default: MKL_NUM_THREADS, else OMP_NUM_THREADS, capped at the physical cores; else the
 * physical cores. */
int mt_parallel_get_num_threads(void);

/* Sets the count (n >= 1; the caller has validated it). Takes effect at the next region. */
void mt_parallel_set_num_threads(int n);

/* The body of a region: called once on each of `nthreads` threads, tid 0 on the calling thread. */
typedef void (*mt_parallel_fn)(void *ctx, int tid, int nthreads);

/* Runs fn(ctx, tid, n) for tid = 0 .. n-1 concurrently (tid 0 on the caller) and returns n, after every
 * call has returned. n is either max_threads or 1: a region started while the pool is busy (from inside
 * another region, or while another thread's region runs), or when worker threads cannot be started,
 * runs on its caller alone. Work must therefore be divided by the n that fn receives. */
int mt_parallel_run(int max_threads, mt_parallel_fn fn, void *ctx);

/* fn(ctx, begin, end) over [0, n) in chunks of at least `grain` elements, on up to max_threads threads
 * (max_threads <= 0: the current setting); one call on the caller when n <= grain. Chunks are taken in
 * order from a shared counter, so a thread slowed by the rest of the machine takes fewer of them. */
typedef void (*mt_parallel_range_fn)(void *ctx, int64_t begin, int64_t end);
void mt_parallel_for(int64_t n, int64_t grain, int max_threads, mt_parallel_range_fn fn, void *ctx);

/* A barrier for the n threads of one region (spins briefly, then yields the CPU while it waits). */
typedef struct {
    int n;
    int count;                      /* atomic: arrivals in the current phase */
    unsigned phase;                 /* atomic */
} mt_barrier;

void mt_barrier_init(mt_barrier *b, int n);
void mt_barrier_wait(mt_barrier *b);

/* Physical cores (distinct thread-sibling sets among the online CPUs), as torch's cpuinfo counts them. */
int mt_parallel_physical_cores(void);

#endif
