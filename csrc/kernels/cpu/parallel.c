/* parallel.c: the host kernels' thread pool (see parallel.h). It owns the worker threads, the intra-op
 * thread count and the hand-over of one region at a time to the workers. It must not touch Python
 * objects: regions run with the GIL released.
 *
 * Design. Workers 1..N-1 are started on first need and then live for the whole process (a fork()ed
 * child starts with none and starts its own). A region is published by bumping a 64-bit word that holds
 * a sequence number and the region's thread count; each worker spins on that word for a few tens of
 * microseconds after its last region (so back-to-back ops from a Python loop find it awake) and then
 * sleeps on a condition variable. The caller runs tid 0 itself and then waits for the others in the
 * same spin-then-sleep way. A team region (mt_parallel_run) needs all its threads; a work-sharing one
 * (mt_parallel_for) lets a worker join only while work is left, so on a busy machine a worker that
 * has not been scheduled yet never delays the caller: the caller just does the remaining chunks. One region runs at a time: a region requested while another one runs (from
 * another Python thread, or nested inside a region) simply runs on its caller alone, which every kernel
 * supports because results never depend on the thread count. */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1      /* pthread_sigmask, sched_yield under -std=c11 */
#endif
#include "parallel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>
#define PAR_HAVE_PTHREADS 1
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define PAR_PAUSE() _mm_pause()
#else
#define PAR_PAUSE() ((void)0)
#endif

#define PAR_MAX_THREADS 256
/* spins (each one `pause`, tens of cycles) before a waiting thread goes to sleep: some tens of us */
#define PAR_SPIN 4000

#define LOAD_ACQ(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define LOAD_RLX(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define STORE_RLX(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* ---- the thread count ----------------------------------------------------------------------------- */

static int par_num_threads = 0;     /* 0 until first read; atomic */

int
mt_parallel_physical_cores(void)
{
    static int cached = 0;
    long ncpu;
    char seen[256][64];
    int nseen = 0;

    if (cached > 0) {
        return cached;
    }
#if defined(PAR_HAVE_PTHREADS)
    ncpu = sysconf(_SC_NPROCESSORS_ONLN);
#else
    ncpu = 1;
#endif
    if (ncpu < 1) {
        ncpu = 1;
    }
    for (long c = 0; c < ncpu && c < 4096; c++) {
        char path[128], line[64];
        FILE *f;
        int dup = 0;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/thread_siblings_list", c);
        f = fopen(path, "r");
        if (f == NULL) {
            nseen = 0;
            break;
        }
        if (fgets(line, sizeof(line), f) == NULL) {
            line[0] = '\0';
        }
        fclose(f);
        for (int i = 0; i < nseen; i++) {
            if (strcmp(seen[i], line) == 0) {
                dup = 1;
                break;
            }
        }
        if (!dup) {
            if (nseen == 256) {
                nseen = 0;
                break;
            }
            snprintf(seen[nseen++], sizeof(seen[0]), "%s", line);
        }
    }
    cached = nseen > 0 ? nseen : (int)ncpu;
    return cached;
}

static int
env_positive(const char *name)
{
    const char *s = getenv(name);
    char *end;
    long v;

    if (s == NULL || *s == '\0') {
        return 0;
    }
    v = strtol(s, &end, 10);
    if (*end != '\0' || v <= 0) {
        return 0;
    }
    return v > PAR_MAX_THREADS ? PAR_MAX_THREADS : (int)v;
}

static int
default_num_threads(void)
{
    int n = env_positive("MINITORCH_NUM_THREADS");
    int cores;

    if (n > 0) {
        return n;
    }
    /* torch 2.13: MKL_NUM_THREADS wins over OMP_NUM_THREADS, and it never starts with more threads than
     * physical cores (checked against torch.get_num_threads()) */
    cores = mt_parallel_physical_cores();
    n = env_positive("MKL_NUM_THREADS");
    if (n <= 0) {
        n = env_positive("OMP_NUM_THREADS");
    }
    if (n <= 0 || n > cores) {
        n = cores;
    }
    return n > 0 ? n : 1;
}

int
mt_parallel_get_num_threads(void)
{
    int n = LOAD_RLX(&par_num_threads);

    if (n <= 0) {
        n = default_num_threads();
        STORE_RLX(&par_num_threads, n);
    }
    return n;
}

void
mt_parallel_set_num_threads(int n)
{
    STORE_RLX(&par_num_threads, n < 1 ? 1 : n > PAR_MAX_THREADS ? PAR_MAX_THREADS : n);
}

/* ---- barrier -------------------------------------------------------------------------------------- */

void
mt_barrier_init(mt_barrier *b, int n)
{
    b->n = n;
    b->count = 0;
    b->phase = 0;
}

void
mt_barrier_wait(mt_barrier *b)
{
    unsigned phase;

    if (b->n <= 1) {
        return;
    }
    phase = LOAD_ACQ(&b->phase);
    if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
        /* nobody can arrive at the next phase before the phase flips, so the reset is safe here */
        STORE_RLX(&b->count, 0);
        STORE_REL(&b->phase, phase + 1);
        return;
    }
    for (long spins = 0; LOAD_ACQ(&b->phase) == phase; spins++) {
#if defined(PAR_HAVE_PTHREADS)
        if (spins >= PAR_SPIN) {
            /* a participant was descheduled (the machine is busy): give the CPU away meanwhile */
            sched_yield();
            continue;
        }
#endif
        PAR_PAUSE();
    }
}

/* ---- the pool ------------------------------------------------------------------------------------- */

#if defined(PAR_HAVE_PTHREADS)

/* pool.word: region sequence << 17 | sharing << 16 | thread count.
 * pool.state: region sequence (low 32 bits) << 32 | STATE_OPEN | workers still to report. A team region
 * starts with count n - 1 and every worker tid < n must run it. A sharing region (parallel_for) starts
 * open with count 0: a worker joins only while it is open, and the caller closes it once all the work
 * has been taken, so a worker the OS has not scheduled yet never holds the caller up. */
#define STATE_OPEN ((uint64_t)1 << 31)
#define STATE_COUNT(v) ((v) & 0xffffffffu)

typedef struct {
    pthread_mutex_t region_lock;    /* held by the thread whose region runs */
    pthread_mutex_t m;              /* guards the sleep/wake hand-shakes below */
    pthread_cond_t work_cv;
    pthread_cond_t done_cv;
    int nworkers;                   /* workers started: tids 1..nworkers */
    int sleepers;                   /* workers waiting on work_cv (under m) */
    int caller_sleeping;            /* the caller waits on done_cv (under m) */
    uint64_t word;                  /* atomic, see above */
    uint64_t state;                 /* atomic, see above */
    mt_parallel_fn fn;
    void *ctx;
} par_pool;

static par_pool pool = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
    0, 0, 0, 0, 0, NULL, NULL,
};

/* set on workers for good and on a caller while its region runs: nested regions run inline */
static __thread int par_in_region = 0;
static pthread_once_t par_once = PTHREAD_ONCE_INIT;

typedef struct {
    int tid;
    uint64_t seen;
} worker_start;

static void
report_done(void)
{
    uint64_t v = __atomic_sub_fetch(&pool.state, 1, __ATOMIC_ACQ_REL);

    if (STATE_COUNT(v) == 0) {
        pthread_mutex_lock(&pool.m);
        if (pool.caller_sleeping) {
            pthread_cond_signal(&pool.done_cv);
        }
        pthread_mutex_unlock(&pool.m);
    }
}

/* A sharing region's worker joins while the region (sequence seq) is still open. */
static int
try_join(uint32_t seq)
{
    uint64_t v = LOAD_ACQ(&pool.state);

    for (;;) {
        if ((uint32_t)(v >> 32) != seq || !(v & STATE_OPEN)) {
            return 0;
        }
        if (__atomic_compare_exchange_n(&pool.state, &v, v + 1, 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            return 1;
        }
    }
}

static void *
worker_main(void *arg)
{
    worker_start start = *(worker_start *)arg;
    uint64_t seen = start.seen;
    int tid = start.tid;

    free(arg);
    par_in_region = 1;
    for (;;) {
        uint64_t w = LOAD_ACQ(&pool.word);
        int n;
        for (int i = 0; w == seen && i < PAR_SPIN; i++) {
            PAR_PAUSE();
            w = LOAD_ACQ(&pool.word);
        }
        if (w == seen) {
            pthread_mutex_lock(&pool.m);
            while ((w = LOAD_ACQ(&pool.word)) == seen) {
                pool.sleepers++;
                pthread_cond_wait(&pool.work_cv, &pool.m);
                pool.sleepers--;
            }
            pthread_mutex_unlock(&pool.m);
        }
        seen = w;
        n = (int)(w & 0xffff);
        if (tid >= n) {
            continue;
        }
        if ((w >> 16) & 1) {
            if (!try_join((uint32_t)(w >> 17))) {
                continue;
            }
        }
        /* a participant: the region cannot end (and fn/ctx cannot change) before it reports back */
        pool.fn(pool.ctx, tid, n);
        report_done();
    }
    return NULL;
}

/* The child of fork() has only the forking thread: forget the workers (it starts its own). */
static void
par_after_fork_child(void)
{
    pthread_mutex_init(&pool.region_lock, NULL);
    pthread_mutex_init(&pool.m, NULL);
    pthread_cond_init(&pool.work_cv, NULL);
    pthread_cond_init(&pool.done_cv, NULL);
    pool.nworkers = 0;
    pool.sleepers = 0;
    pool.caller_sleeping = 0;
    pool.state = 0;
    par_in_region = 0;
}

static void
par_init(void)
{
    pthread_atfork(NULL, NULL, par_after_fork_child);
}

/* Starts workers up to tid `want`; returns the number running. Called with region_lock held. */
static int
ensure_workers(int want)
{
    sigset_t all, old;

    if (want <= pool.nworkers) {
        return pool.nworkers;
    }
    /* workers never handle signals: Python expects them on its own threads */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (pool.nworkers < want) {
        pthread_t thread;
        pthread_attr_t attr;
        worker_start *start = malloc(sizeof *start);
        int rc;
        if (start == NULL) {
            break;
        }
        start->tid = pool.nworkers + 1;
        start->seen = LOAD_RLX(&pool.word);
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        rc = pthread_create(&thread, &attr, worker_main, start);
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            free(start);
            break;
        }
        pool.nworkers++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return pool.nworkers;
}

static int
run_region(int max_threads, int sharing, mt_parallel_fn fn, void *ctx)
{
    int n = max_threads > PAR_MAX_THREADS ? PAR_MAX_THREADS : max_threads;
    uint64_t seq;

    if (n <= 1 || par_in_region) {
        fn(ctx, 0, 1);
        return 1;
    }
    pthread_once(&par_once, par_init);
    if (pthread_mutex_trylock(&pool.region_lock) != 0) {
        fn(ctx, 0, 1);
        return 1;
    }
    if (ensure_workers(n - 1) < n - 1) {
        /* no more threads to be had: the caller alone, as promised (max_threads or 1) */
        pthread_mutex_unlock(&pool.region_lock);
        fn(ctx, 0, 1);
        return 1;
    }
    pool.fn = fn;
    pool.ctx = ctx;
    seq = (LOAD_RLX(&pool.word) >> 17) + 1;
    STORE_RLX(&pool.state, (seq & 0xffffffffu) << 32 | (sharing ? STATE_OPEN : (uint64_t)(n - 1)));
    STORE_REL(&pool.word, seq << 17 | (uint64_t)sharing << 16 | (uint64_t)n);
    pthread_mutex_lock(&pool.m);
    if (pool.sleepers > 0) {
        pthread_cond_broadcast(&pool.work_cv);
    }
    pthread_mutex_unlock(&pool.m);

    par_in_region = 1;
    fn(ctx, 0, n);
    par_in_region = 0;

    if (sharing) {
        /* all work is taken: workers that have not joined yet stay out */
        __atomic_fetch_and(&pool.state, ~STATE_OPEN, __ATOMIC_ACQ_REL);
    }
    for (int i = 0; STATE_COUNT(LOAD_ACQ(&pool.state)) != 0 && i < PAR_SPIN; i++) {
        PAR_PAUSE();
    }
    if (STATE_COUNT(LOAD_ACQ(&pool.state)) != 0) {
        pthread_mutex_lock(&pool.m);
        while (STATE_COUNT(LOAD_ACQ(&pool.state)) != 0) {
            pool.caller_sleeping = 1;
            pthread_cond_wait(&pool.done_cv, &pool.m);
        }
        pool.caller_sleeping = 0;
        pthread_mutex_unlock(&pool.m);
    }
    pthread_mutex_unlock(&pool.region_lock);
    return n;
}

int
mt_parallel_run(int max_threads, mt_parallel_fn fn, void *ctx)
{
    return run_region(max_threads, 0, fn, ctx);
}

#else /* no pthreads: everything runs on the caller */

static int
run_region(int max_threads, int sharing, mt_parallel_fn fn, void *ctx)
{
    (void)max_threads;
    (void)sharing;
    fn(ctx, 0, 1);
    return 1;
}

int
mt_parallel_run(int max_threads, mt_parallel_fn fn, void *ctx)
{
    return run_region(max_threads, 0, fn, ctx);
}

#endif

/* ---- parallel for --------------------------------------------------------------------------------- */

typedef struct {
    mt_parallel_range_fn fn;
    void *ctx;
    int64_t n;
    int64_t chunk;
    int64_t next;           /* atomic: the next chunk */
} par_for_job;

static void
par_for_body(void *vjob, int tid, int nthreads)
{
    par_for_job *job = vjob;
    (void)tid;
    (void)nthreads;

    for (;;) {
        int64_t c = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        int64_t begin = c * job->chunk;
        if (begin >= job->n) {
            break;
        }
        job->fn(job->ctx, begin, begin + job->chunk < job->n ? begin + job->chunk : job->n);
    }
}

void
mt_parallel_for(int64_t n, int64_t grain, int max_threads, mt_parallel_range_fn fn, void *ctx)
{
    par_for_job job;
    int64_t nt;

    if (n <= 0) {
        return;
    }
    if (grain < 1) {
        grain = 1;
    }
    if (max_threads <= 0) {
        max_threads = mt_parallel_get_num_threads();
    }
    nt = (n + grain - 1) / grain;
    if (nt > max_threads) {
        nt = max_threads;
    }
    if (nt <= 1) {
        fn(ctx, 0, n);
        return;
    }
    /* about four chunks per thread, none under `grain`; ranges of elements (grain >= 64) in multiples
     * of 64, i.e. whole cache lines of any element type */
    job.chunk = (n + 4 * nt - 1) / (4 * nt);
    if (job.chunk < grain) {
        job.chunk = grain;
    }
    if (grain >= 64) {
        job.chunk = (job.chunk + 63) & ~(int64_t)63;
    }
    job.fn = fn;
    job.ctx = ctx;
    job.n = n;
    job.next = 0;
    run_region((int)nt, 1, par_for_body, &job);
}
