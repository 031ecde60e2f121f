/* The simulated GPU: an mt_runtime whose devices are host memory, presented when the user sets
 * MINITORCH_SIMULATE_GPU=N. It owns the parsing of MINITORCH_SIMULATE_GPU and
 * MINITORCH_SIMULATE_GPU_MEMORY, the per-device budget of raw allocations (so that out-of-memory
 * happens where it would on a card of that size), the fake device properties, and host-clock events. It
 * must behave like the CUDA runtime seen through runtime.h and nothing more: no caching (the caching
 * allocator above does that, exactly as on a real GPU), no kernels, no Python, and it never decides by
 * itself that simulation is on; the caller asks mt_simulated_requested(). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L /* posix_memalign under -std=c99 */
#endif

#include "runtime.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIM_MAX_DEVICES 64
#define SIM_DEFAULT_MEMORY ((size_t)16 << 30)
/* cudaMalloc guarantees 256-byte alignment; matching it keeps every block the allocator carves at
 * 512-byte offsets at least as aligned as on a real card (and well past what SIMD loads need). */
#define SIM_ALIGNMENT 256

/* A live raw allocation. The table of them lets free find the size to give back to the budget and
 * refuse pointers it never handed out (or already freed), as cudaFree does, without ever reading
 * memory that may be gone. */
typedef struct sim_allocation {
    void *ptr;
    size_t size;
    int device;
} sim_allocation;

typedef struct sim_config {
    int requested;          /* as mt_simulated_requested() returns it */
    int device_count;
    size_t total_memory;
    char error[320];        /* empty when the configuration is fine */
} sim_config;

static sim_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
/* One lock for all devices: the critical sections are a few additions, so sharing is cheaper than
 * initialising SIM_MAX_DEVICES mutexes, and it keeps every counter update atomic. */
static pthread_mutex_t sim_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t raw_allocated[SIM_MAX_DEVICES];
/* Open addressing keyed by pointer, at most half full; guarded by sim_lock. */
static sim_allocation *live;
static size_t live_capacity;
static size_t live_count;

static const char *
skip_spaces(const char *s)
{
    while (*s != '\0' && isspace((unsigned char)*s)) {
        s++;
    }
    return s;
}

static int
unit_multiplier(const char *unit, size_t len, uint64_t *mult)
{
    static const struct {
        const char *name;
        uint64_t mult;
    } units[] = {
        {"b", 1ULL},
        {"kib", 1ULL << 10}, {"mib", 1ULL << 20}, {"gib", 1ULL << 30}, {"tib", 1ULL << 40},
        {"kb", 1000ULL}, {"mb", 1000000ULL}, {"gb", 1000000000ULL}, {"tb", 1000000000000ULL},
    };
    char lower[4];
    size_t i;

    if (len == 0) {
        *mult = 1;
        return 0;
    }
    if (len > 3) {
        return -1;
    }
    for (i = 0; i < len; i++) {
        lower[i] = (char)tolower((unsigned char)unit[i]);
    }
    lower[len] = '\0';
    for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(lower, units[i].name) == 0) {
            *mult = units[i].mult;
            return 0;
        }
    }
    return -1;
}

int
mt_parse_memory_size(const char *text, size_t *out)
{
    const char *s;
    const char *unit;
    uint64_t whole = 0;
    uint64_t frac = 0;      /* up to nine digits after the point */
    uint64_t frac_scale = 1;
    uint64_t mult;
    uint64_t total;
    uint64_t frac_bytes;
    int digits = 0;

    if (text == NULL) {
        return -1;
    }
    s = skip_spaces(text);
    while (isdigit((unsigned char)*s)) {
        unsigned d = (unsigned)(*s - '0');
        if (whole > (UINT64_MAX - d) / 10) {
            return -1;
        }
        whole = whole * 10 + d;
        digits++;
        s++;
    }
    if (*s == '.') {
        s++;
        while (isdigit((unsigned char)*s)) {
            /* Nine digits are far below a byte for any unit up to TiB; later ones cannot matter. */
            if (frac_scale < 1000000000ULL) {
                frac = frac * 10 + (uint64_t)(*s - '0');
                frac_scale *= 10;
            }
            digits++;
            s++;
        }
    }
    if (digits == 0) {
        return -1;
    }
    s = skip_spaces(s);
    unit = s;
    while (isalpha((unsigned char)*s)) {
        s++;
    }
    if (unit_multiplier(unit, (size_t)(s - unit), &mult) != 0) {
        return -1;
    }
    if (*skip_spaces(s) != '\0') {
        return -1;
    }
    if (whole > UINT64_MAX / mult) {
        return -1;
    }
    total = whole * mult;
    /* frac/frac_scale * mult without overflow: split mult by frac_scale; frac < frac_scale keeps the
     * first product below mult and the second below 10^18. */
    frac_bytes = frac * (mult / frac_scale) + frac * (mult % frac_scale) / frac_scale;
    if (total > UINT64_MAX - frac_bytes) {
        return -1;
    }
    total += frac_bytes;
    if (total == 0 || total > (uint64_t)SIZE_MAX) {
        return -1;
    }
    *out = (size_t)total;
    return 0;
}

static int
parse_device_count(const char *text, int *count)
{
    const char *s = skip_spaces(text);
    long n = 0;

    if (*s == '\0') {
        *count = 0;
        return 0;
    }
    if (!isdigit((unsigned char)*s)) {
        return -1;
    }
    while (isdigit((unsigned char)*s)) {
        n = n * 10 + (*s - '0');
        if (n > SIM_MAX_DEVICES) {
            return -1;
        }
        s++;
    }
    if (*skip_spaces(s) != '\0') {
        return -1;
    }
    *count = (int)n;
    return 0;
}

static void
config_init(void)
{
    const char *devices = getenv("MINITORCH_SIMULATE_GPU");
    const char *memory = getenv("MINITORCH_SIMULATE_GPU_MEMORY");
    int count = 0;

    config.requested = 0;
    config.device_count = 0;
    config.total_memory = SIM_DEFAULT_MEMORY;
    config.error[0] = '\0';
    if (devices == NULL) {
        return;
    }
    if (parse_device_count(devices, &count) != 0) {
        snprintf(config.error, sizeof(config.error),
                 "MINITORCH_SIMULATE_GPU='%.64s' is not a device count "
                 "(expected an integer from 0 to %d)", devices, SIM_MAX_DEVICES);
        config.requested = -1;
        return;
    }
    if (count == 0) {
        return;
    }
    /* The memory size only matters once simulation is on; a stray bad value must not break a
     * plain CPU session. */
    if (memory != NULL && *skip_spaces(memory) != '\0') {
        if (mt_parse_memory_size(memory, &config.total_memory) != 0) {
            snprintf(config.error, sizeof(config.error),
                     "MINITORCH_SIMULATE_GPU_MEMORY='%.64s' is not a memory size (expected a "
                     "positive number of bytes, or a number with a unit such as 512MiB, 16GiB or "
                     "8GB)", memory);
            config.requested = -1;
            return;
        }
    }
    config.requested = count;
    config.device_count = count;
}

static const sim_config *
get_config(void)
{
    pthread_once(&config_once, config_init);
    return &config;
}

int
mt_simulated_requested(void)
{
    return get_config()->requested;
}

const char *
mt_simulated_config_error(void)
{
    const sim_config *c = get_config();

    return c->error[0] != '\0' ? c->error : NULL;
}

/* The check every device call starts with: a broken configuration fails every call, so the error
 * reaches the user at the first use instead of silently meaning "no GPU". */
static int
check_device(int device)
{
    const sim_config *c = get_config();

    if (c->requested < 0) {
        return MT_RT_ERROR_INVALID_CONFIG;
    }
    if (c->device_count == 0) {
        return MT_RT_ERROR_NO_DEVICE;
    }
    if (device < 0 || device >= c->device_count) {
        return MT_RT_ERROR_INVALID_DEVICE;
    }
    return MT_RT_SUCCESS;
}

static int
sim_device_count(int *count)
{
    const sim_config *c = get_config();

    *count = 0;
    if (c->requested < 0) {
        return MT_RT_ERROR_INVALID_CONFIG;
    }
    if (c->device_count == 0) {
        return MT_RT_ERROR_NO_DEVICE;
    }
    *count = c->device_count;
    return MT_RT_SUCCESS;
}

static size_t
live_hash(const void *p)
{
    /* Allocations are 256-byte aligned, so the low bits carry nothing; mix them all in. */
    uint64_t x = (uint64_t)(uintptr_t)p;

    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static void
live_put(sim_allocation entry)
{
    size_t mask = live_capacity - 1;
    size_t i = live_hash(entry.ptr) & mask;

    while (live[i].ptr != NULL) {
        i = (i + 1) & mask;
    }
    live[i] = entry;
    live_count++;
}

/* Makes room for one more entry. Called with sim_lock held. */
static int
live_reserve(void)
{
    sim_allocation *old = live;
    size_t old_capacity = live_capacity;
    size_t capacity;
    size_t i;

    if (live_count + 1 <= live_capacity / 2) {
        return 0;
    }
    capacity = live_capacity == 0 ? 256 : live_capacity * 2;
    if (capacity > SIZE_MAX / sizeof(sim_allocation)) {
        return -1;
    }
    live = (sim_allocation *)calloc(capacity, sizeof(sim_allocation));
    if (live == NULL) {
        live = old;
        return -1;
    }
    live_capacity = capacity;
    live_count = 0;
    for (i = 0; i < old_capacity; i++) {
        if (old[i].ptr != NULL) {
            live_put(old[i]);
        }
    }
    free(old);
    return 0;
}

/* Removes the entry for ptr into *out; -1 if there is none. Called with sim_lock held.
 * Backward-shift deletion keeps every probe chain unbroken without tombstones. */
static int
live_take(const void *ptr, sim_allocation *out)
{
    size_t mask;
    size_t i;
    size_t j;

    if (live_count == 0) {
        return -1;
    }
    mask = live_capacity - 1;
    i = live_hash(ptr) & mask;
    while (live[i].ptr != NULL && live[i].ptr != ptr) {
        i = (i + 1) & mask;
    }
    if (live[i].ptr == NULL) {
        return -1;
    }
    *out = live[i];
    j = i;
    for (;;) {
        size_t home;
        j = (j + 1) & mask;
        if (live[j].ptr == NULL) {
            break;
        }
        home = live_hash(live[j].ptr) & mask;
        if ((i < j) ? (home <= i || home > j) : (home <= i && home > j)) {
            live[i] = live[j];
            i = j;
        }
    }
    live[i].ptr = NULL;
    live_count--;
    return 0;
}

static int
sim_malloc(int device, void **ptr, size_t size)
{
    const sim_config *c = get_config();
    void *mem = NULL;
    sim_allocation entry;
    int err;

    *ptr = NULL;
    err = check_device(device);
    if (err != MT_RT_SUCCESS) {
        return err;
    }
    if (size == 0) {
        return MT_RT_SUCCESS;
    }
    /* Reserve the budget first, so that two threads cannot both pass the check. */
    pthread_mutex_lock(&sim_lock);
    if (size > c->total_memory - raw_allocated[device]) {
        pthread_mutex_unlock(&sim_lock);
        return MT_RT_ERROR_MEMORY_ALLOCATION;
    }
    raw_allocated[device] += size;
    pthread_mutex_unlock(&sim_lock);

    /* Pages are not touched here, so a large simulated card costs host memory only as it is used. */
    if (posix_memalign(&mem, SIM_ALIGNMENT, size) != 0 || mem == NULL) {
        pthread_mutex_lock(&sim_lock);
        raw_allocated[device] -= size;
        pthread_mutex_unlock(&sim_lock);
        return MT_RT_ERROR_MEMORY_ALLOCATION;
    }
    entry.ptr = mem;
    entry.size = size;
    entry.device = device;
    pthread_mutex_lock(&sim_lock);
    if (live_reserve() != 0) {
        raw_allocated[device] -= size;
        pthread_mutex_unlock(&sim_lock);
        free(mem);
        return MT_RT_ERROR_MEMORY_ALLOCATION;
    }
    live_put(entry);
    pthread_mutex_unlock(&sim_lock);
    *ptr = mem;
    return MT_RT_SUCCESS;
}

static int
sim_free(int device, void *ptr)
{
    sim_allocation entry;
    int err;

    err = check_device(device);
    if (err != MT_RT_SUCCESS) {
        return err;
    }
    if (ptr == NULL) {
        return MT_RT_SUCCESS;
    }
    pthread_mutex_lock(&sim_lock);
    if (live_take(ptr, &entry) != 0) {
        pthread_mutex_unlock(&sim_lock);
        return MT_RT_ERROR_INVALID_VALUE;
    }
    /* With unified addressing cudaFree frees a pointer whatever the current device is, so the
     * budget credited is the owning device's, not necessarily `device`. */
    raw_allocated[entry.device] -= entry.size;
    pthread_mutex_unlock(&sim_lock);
    free(ptr);
    return MT_RT_SUCCESS;
}

static int
sim_memcpy(void *dst, int dst_device, const void *src, int src_device, size_t nbytes,
           mt_memcpy_kind kind)
{
    int err = MT_RT_SUCCESS;

    switch (kind) {
    case MT_MEMCPY_HOST_TO_DEVICE:
        err = check_device(dst_device);
        break;
    case MT_MEMCPY_DEVICE_TO_HOST:
        err = check_device(src_device);
        break;
    case MT_MEMCPY_DEVICE_TO_DEVICE:
        err = check_device(dst_device);
        if (err == MT_RT_SUCCESS) {
            err = check_device(src_device);
        }
        break;
    default:
        err = MT_RT_ERROR_INVALID_VALUE;
        break;
    }
    if (err != MT_RT_SUCCESS) {
        return err;
    }
    if (nbytes == 0) {
        return MT_RT_SUCCESS;
    }
    if (dst == NULL || src == NULL) {
        return MT_RT_ERROR_INVALID_VALUE;
    }
    /* memmove: callers may copy within one buffer, and cudaMemcpy on a device tolerates that. */
    memmove(dst, src, nbytes);
    return MT_RT_SUCCESS;
}

static int
sim_memset(int device, void *ptr, int value, size_t nbytes)
{
    int err = check_device(device);

    if (err != MT_RT_SUCCESS) {
        return err;
    }
    if (nbytes == 0) {
        return MT_RT_SUCCESS;
    }
    if (ptr == NULL) {
        return MT_RT_ERROR_INVALID_VALUE;
    }
    memset(ptr, value, nbytes);
    return MT_RT_SUCCESS;
}

static int
sim_synchronize(int device)
{
    /* Work on a simulated device runs on the calling thread, so it is always complete. */
    return check_device(device);
}

static int
sim_get_properties(int device, mt_device_properties *props)
{
    const sim_config *c = get_config();
    int err = check_device(device);

    if (err != MT_RT_SUCCESS) {
        return err;
    }
    memset(props, 0, sizeof(*props));
    snprintf(props->name, sizeof(props->name), "%s", "minitorch simulated GPU");
    /* Hopper-like numbers: a plausible card, and sm_90 is a capability every kernel path accepts. */
    props->major = 9;
    props->minor = 0;
    props->total_memory = c->total_memory;
    props->multi_processor_count = 132;
    props->l2_cache_size = 50 * 1024 * 1024;
    /* A fixed, recognisable UUID per device ("minitorch-sim" + index), stable across runs. */
    memcpy(props->uuid, "minitorch-sim", 13);
    props->uuid[13] = 0;
    props->uuid[14] = (unsigned char)(device >> 8);
    props->uuid[15] = (unsigned char)device;
    return MT_RT_SUCCESS;
}

static int
sim_mem_get_info(int device, size_t *free_bytes, size_t *total_bytes)
{
    const sim_config *c = get_config();
    int err = check_device(device);

    if (err != MT_RT_SUCCESS) {
        return err;
    }
    pthread_mutex_lock(&sim_lock);
    *free_bytes = c->total_memory - raw_allocated[device];
    pthread_mutex_unlock(&sim_lock);
    *total_bytes = c->total_memory;
    return MT_RT_SUCCESS;
}

/* ---- streams and events ------------------------------------------------------------------------
 *
 * Work on a simulated device runs on the calling thread before the call that queued it returns, so
 * every stream is always idle and an event is complete as soon as it is recorded. An event keeps the
 * host's monotonic clock at its record, so elapsed_time measures the host time the work between two
 * records took (the CPU kernels', which is what a simulated GPU has). A stream is a small block that
 * names its device: its address is the handle, as a cudaStream_t is a pointer. */

typedef struct sim_stream {
    int device;
    int priority;
} sim_stream;

typedef struct sim_event {
    int device;
    unsigned int flags;
    int recorded;
    int64_t time_ns;
} sim_event;

static int
sim_stream_priority_range(int device, int *least, int *greatest)
{
    /* what cudaDeviceGetStreamPriorityRange says on a Hopper card */
    *least = 0;
    *greatest = -5;
    return check_device(device);
}

static int
sim_stream_create(int device, int priority, void **stream)
{
    sim_stream *st;
    int err = check_device(device);

    *stream = NULL;
    if (err != MT_RT_SUCCESS) {
        return err;
    }
    st = malloc(sizeof(*st));
    if (st == NULL) {
        return MT_RT_ERROR_MEMORY_ALLOCATION;
    }
    st->device = device;
    st->priority = priority;
    *stream = st;
    return MT_RT_SUCCESS;
}

static int
sim_stream_synchronize(int device, void *stream)
{
    (void)stream;
    return check_device(device);
}

static int
sim_stream_query(int device, void *stream, int *done)
{
    (void)stream;
    *done = 1;
    return check_device(device);
}

static int
sim_stream_wait_event(int device, void *stream, void *event)
{
    (void)stream;
    return event == NULL ? MT_RT_ERROR_INVALID_HANDLE : check_device(device);
}

static int
sim_event_create(int device, unsigned int flags, void **event)
{
    sim_event *ev;
    int err = check_device(device);

    *event = NULL;
    if (err != MT_RT_SUCCESS) {
        return err;
    }
    /* as cudaEventCreateWithFlags: an interprocess event must keep no time */
    if (flags > (MT_EVENT_BLOCKING_SYNC | MT_EVENT_DISABLE_TIMING | MT_EVENT_INTERPROCESS) ||
        ((flags & MT_EVENT_INTERPROCESS) && !(flags & MT_EVENT_DISABLE_TIMING))) {
        return MT_RT_ERROR_INVALID_VALUE;
    }
    ev = calloc(1, sizeof(*ev));
    if (ev == NULL) {
        return MT_RT_ERROR_MEMORY_ALLOCATION;
    }
    ev->device = device;
    ev->flags = flags;
    *event = ev;
    return MT_RT_SUCCESS;
}

static int
sim_event_destroy(int device, void *event)
{
    (void)device;
    if (event == NULL) {
        return MT_RT_ERROR_INVALID_HANDLE;
    }
    free(event);
    return MT_RT_SUCCESS;
}

static int
sim_event_record(int device, void *event, void *stream)
{
    sim_event *ev = event;
    struct timespec now;
    int err = check_device(device);

    if (err != MT_RT_SUCCESS) {
        return err;
    }
    if (ev == NULL || ev->device != device || (stream != NULL && ((sim_stream *)stream)->device != device)) {
        return MT_RT_ERROR_INVALID_HANDLE;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    ev->time_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    ev->recorded = 1;
    return MT_RT_SUCCESS;
}

static int
sim_event_query(void *event, int *done)
{
    *done = 1;
    return event == NULL ? MT_RT_ERROR_INVALID_HANDLE : MT_RT_SUCCESS;
}

static int
sim_event_synchronize(void *event)
{
    return event == NULL ? MT_RT_ERROR_INVALID_HANDLE : MT_RT_SUCCESS;
}

static int
sim_event_elapsed_time(void *start, void *end, float *ms)
{
    const sim_event *a = start;
    const sim_event *b = end;

    *ms = 0.0f;
    if (a == NULL || b == NULL || !a->recorded || !b->recorded || (a->flags & MT_EVENT_DISABLE_TIMING) ||
        (b->flags & MT_EVENT_DISABLE_TIMING)) {
        return MT_RT_ERROR_INVALID_HANDLE; /* cudaEventElapsedTime's answer to each of these */
    }
    *ms = (float)((double)(b->time_ns - a->time_ns) / 1e6);
    return MT_RT_SUCCESS;
}

static const char *
sim_error_string(int err)
{
    switch (err) {
    case MT_RT_SUCCESS:
        return "no error";
    case MT_RT_ERROR_INVALID_VALUE:
        return "invalid argument";
    case MT_RT_ERROR_MEMORY_ALLOCATION:
        return "out of memory";
    case MT_RT_ERROR_NO_DEVICE:
        return "no CUDA-capable device is detected";
    case MT_RT_ERROR_INVALID_DEVICE:
        return "invalid device ordinal";
    case MT_RT_ERROR_INVALID_HANDLE:
        return "invalid resource handle";
    case MT_RT_ERROR_NOT_READY:
        return "device not ready";
    case MT_RT_ERROR_NOT_SUPPORTED:
        return "operation not supported";
    case MT_RT_ERROR_INVALID_CONFIG: {
        const char *msg = mt_simulated_config_error();
        return msg != NULL ? msg : "invalid minitorch simulated GPU configuration";
    }
    default:
        return "unknown error";
    }
}

static const mt_runtime simulated_runtime = {
    .name = "simulated",
    .host_accessible = 1,
    .device_count = sim_device_count,
    .malloc = sim_malloc,
    .free = sim_free,
    .memcpy = sim_memcpy,
    .memset = sim_memset,
    .synchronize = sim_synchronize,
    .get_properties = sim_get_properties,
    .mem_get_info = sim_mem_get_info,
    .error_string = sim_error_string,
    .stream_priority_range = sim_stream_priority_range,
    .stream_create = sim_stream_create,
    .stream_synchronize = sim_stream_synchronize,
    .stream_query = sim_stream_query,
    .stream_wait_event = sim_stream_wait_event,
    .event_create = sim_event_create,
    .event_destroy = sim_event_destroy,
    .event_record = sim_event_record,
    .event_query = sim_event_query,
    .event_synchronize = sim_event_synchronize,
    .event_elapsed_time = sim_event_elapsed_time,
};

const mt_runtime *
mt_simulated_runtime(void)
{
    return &simulated_runtime;
}
