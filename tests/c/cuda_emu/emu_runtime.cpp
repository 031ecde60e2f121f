// The emulated CUDA runtime behind tests/c/cuda_emu/cuda_runtime.h: the runtime API calls minitorch's
// csrc/runtime/cuda_runtime.c and csrc/kernels/cuda/kernels.cu make, implemented on the host for
// machines without a GPU. No part of minitorch; built as libmt_cudart_emu.so by setup.py's
// MINITORCH_CUDA=emulate build (and compiled into tests/c/cuda_emu_check by test_cuda_emulation.py).
//
// Devices: MINITORCH_EMU_CUDA_DEVICES (default 1; 0 behaves like a machine without a GPU), each with
// MINITORCH_EMU_CUDA_MEMORY bytes (default 16 GiB; a plain byte count or a number with KiB/MiB/GiB);
// CUDA_VISIBLE_DEVICES hides some of them, roughly as CUDA does (a list of indices, "" for none).
//
// Device memory is its own mmap per allocation, kept PROT_NONE: the host can neither read nor write it,
// so C code that dereferences a device pointer on the host dies with SIGSEGV (and a line on stderr
// naming the device allocation), as it would with a real GPU's memory. It becomes readable and writable
// only while the emulation itself acts as the device: inside a copy or memset (just the allocations
// involved), while a kernel runs (only the allocations of the device it was launched on, so a kernel
// reading another device's memory faults too), and between emu_device_access_begin/end (the fake
// cuBLAS). One lock serializes all of it. Freed device memory is unmapped: a use after free faults.
//
// Asynchrony: like the legacy default stream, kernel launches, cudaMemset and cudaMemcpyAsync with a
// pinned host side are queued and return at once; the queue runs in order at the next call that waits
// for the device (cudaMemcpy, cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize,
// cudaFree, cudaFreeHost, a pageable cudaMemcpyAsync, the fake cuBLAS). cudaEventQuery answers
// cudaErrorNotReady while work recorded before the event is queued (and then lets the queue run, as a
// GPU makes progress). So host code that reads a non_blocking copy's pinned destination, or reuses its
// pinned source, before waiting sees what it would see on a GPU: stale data. CUDA_LAUNCH_BLOCKING=1
// runs everything at once.
//
// Misuse a real GPU would punish, often silently, aborts with a message on stderr: a host pointer where
// device memory is required (or the reverse), a copy running past the end of an allocation, a peer copy
// whose pointer belongs to another device than the one named. Kernels run their blocks one after
// another, the CUDA threads of a block as ucontext fibers that __syncthreads switches between (a thread
// that has returned counts as arrived).
#include "cuda_runtime.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <vector>

extern "C" {
emu_uint3 threadIdx;
emu_uint3 blockIdx;
emu_uint3 blockDim;
emu_uint3 gridDim;
int emu_launches = 0;
}

namespace {

#ifndef MT_EMU_CUDA_VERSION
#define MT_EMU_CUDA_VERSION 99000 // what cudaRuntimeGetVersion and cudaDriverGetVersion report ("99.0")
#endif

constexpr int kMaxDevices = 16;
constexpr size_t kGranularity = (size_t)2 << 20; // cudaMalloc's accounting granularity (2 MiB pages)
constexpr size_t kFiberStack = (size_t)256 << 10;

struct Allocation {
    char *base;
    size_t size;    // requested
    size_t mapped;  // page-rounded
    int device;
};

struct Config {
    int devices = 1;
    size_t memory = (size_t)16 << 30;
    bool blocking = false;
};

std::recursive_mutex lock_;
std::map<uintptr_t, Allocation> allocations; // by base address
std::map<uintptr_t, size_t> pinned;          // cudaHostAlloc blocks
size_t used[kMaxDevices];
thread_local int current_device = 0;
thread_local cudaError_t last_error = cudaSuccess;

[[noreturn]] void
die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "\n*** emulated CUDA: ");
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    std::fflush(stderr);
    std::abort();
}

size_t
parse_size(const char *text)
{
    char *end = nullptr;
    double v = std::strtod(text, &end);
    while (*end == ' ') {
        end++;
    }
    double unit = 1;
    if (!std::strncmp(end, "KiB", 3)) {
        unit = 1024.0;
    }
    else if (!std::strncmp(end, "MiB", 3)) {
        unit = 1024.0 * 1024;
    }
    else if (!std::strncmp(end, "GiB", 3)) {
        unit = 1024.0 * 1024 * 1024;
    }
    else if (*end != '\0' && std::strcmp(end, "B") != 0) {
        die("MINITORCH_EMU_CUDA_MEMORY=%s is not a size", text);
    }
    if (!(v > 0)) {
        die("MINITORCH_EMU_CUDA_MEMORY=%s is not a size", text);
    }
    return (size_t)(v * unit);
}

const Config &
config()
{
    static Config c = [] {
        Config out;
        const char *n = std::getenv("MINITORCH_EMU_CUDA_DEVICES");
        const char *m = std::getenv("MINITORCH_EMU_CUDA_MEMORY");
        if (n != nullptr && *n != '\0') {
            char *end = nullptr;
            long v = std::strtol(n, &end, 10);
            if (*end != '\0' || v < 0 || v > kMaxDevices) {
                die("MINITORCH_EMU_CUDA_DEVICES=%s is not a device count (0..%d)", n, kMaxDevices);
            }
            out.devices = (int)v;
        }
        if (m != nullptr && *m != '\0') {
            out.memory = parse_size(m);
        }
        const char *blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
        out.blocking = blocking != nullptr && std::strcmp(blocking, "1") == 0;
        // CUDA_VISIBLE_DEVICES as CUDA reads it: indices up to the first invalid one ("" hides them all)
        const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
        if (visible != nullptr) {
            int shown = 0;
            const char *p = visible;
            while (*p != '\0') {
                char *end = nullptr;
                long v = std::strtol(p, &end, 10);
                if (end == p || v < 0 || v >= out.devices) {
                    break;
                }
                shown++;
                p = end;
                while (*p == ' ') {
                    p++;
                }
                if (*p != ',') {
                    break;
                }
                p++;
            }
            out.devices = shown;
        }
        return out;
    }();
    return c;
}

cudaError_t
fail(cudaError_t err)
{
    last_error = err;
    return err;
}

bool
valid_device(int d)
{
    return d >= 0 && d < config().devices;
}

void
protect(const Allocation &a, bool accessible)
{
    if (mprotect(a.base, a.mapped, accessible ? PROT_READ | PROT_WRITE : PROT_NONE) != 0) {
        die("mprotect(%p, %zu) failed: %s", (void *)a.base, a.mapped, std::strerror(errno));
    }
}

// The allocation holding [p, p + n) (n may be 0: just p), or nullptr when p is in none. A range that
// starts inside an allocation and runs past its end is fatal.
const Allocation *
find(const void *p, size_t n, const char *what)
{
    uintptr_t addr = (uintptr_t)p;
    auto it = allocations.upper_bound(addr);
    if (it == allocations.begin()) {
        return nullptr;
    }
    --it;
    const Allocation &a = it->second;
    if (addr >= (uintptr_t)a.base + a.mapped) {
        return nullptr;
    }
    if (addr + n > (uintptr_t)a.base + a.size) {
        die("%s: %zu bytes at %p run past the end of the device allocation %p (%zu bytes, device %d)", what, n,
            p, (void *)a.base, a.size, a.device);
    }
    return &a;
}

const Allocation &
need_device(const void *p, size_t n, const char *what)
{
    const Allocation *a = find(p, n, what);
    if (a == nullptr) {
        die("%s: %p is not device memory (a host pointer where a device pointer belongs)", what, p);
    }
    return *a;
}

void
need_host(const void *p, size_t n, const char *what)
{
    if (find(p, n, what) != nullptr) {
        die("%s: %p is device memory where host memory belongs", what, p);
    }
}

// Makes allocations accessible for the lifetime of the object (the lock is held by the caller).
struct Access {
    std::vector<const Allocation *> open;
    void add(const Allocation &a)
    {
        for (const Allocation *o : open) {
            if (o == &a) {
                return;
            }
        }
        protect(a, true);
        open.push_back(&a);
    }
    void add_device(int device)
    {
        for (auto &kv : allocations) {
            if (kv.second.device == device) {
                add(kv.second);
            }
        }
    }
    ~Access()
    {
        for (const Allocation *o : open) {
            protect(*o, false);
        }
    }
};

// ---- SIGSEGV: name the device allocation a host access hit ------------------------------------------

struct sigaction previous_segv;

void
on_segv(int sig, siginfo_t *info, void *ctx)
{
    // best effort (the map is read without the lock; the process is dying anyway)
    uintptr_t addr = (uintptr_t)info->si_addr;
    auto it = allocations.upper_bound(addr);
    if (it != allocations.begin()) {
        --it;
        if (addr < (uintptr_t)it->second.base + it->second.mapped) {
            char msg[256];
            int n = std::snprintf(msg, sizeof(msg),
                                  "\n*** emulated CUDA: host access to device memory at %p (allocation %p of %zu "
                                  "bytes on device %d): a device pointer was dereferenced on the host\n",
                                  (void *)addr, (void *)it->second.base, it->second.size, it->second.device);
            if (n > 0) {
                ssize_t ignored = write(2, msg, (size_t)n);
                (void)ignored;
            }
        }
    }
    sigaction(SIGSEGV, &previous_segv, nullptr); // returning re-runs the access under the old handler
    (void)sig;
    (void)ctx;
}

void
install_segv_handler()
{
    static bool done = false;
    if (done) {
        return;
    }
    done = true;
    struct sigaction sa;
    std::memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous_segv);
}

// ---- the stream: queued work ------------------------------------------------------------------------

struct Work {
    enum Kind { kKernel, kCopy, kMemset } kind;
    int device;
    unsigned grid[3], block[3];
    void (*body)(void *);
    void *arg;
    void (*destroy)(void *);
    void *dst;
    const void *src;
    size_t count;
    int value;
};

std::deque<Work> queue;
uint64_t enqueued = 0;  // work items ever queued
uint64_t completed = 0; // ... and run

void run_kernel(const Work &w);

void
run(const Work &w)
{
    switch (w.kind) {
    case Work::kKernel:
        run_kernel(w);
        break;
    case Work::kCopy: {
        Access access;
        if (const Allocation *a = find(w.dst, w.count, "queued copy (destination)")) {
            access.add(*a);
        }
        if (const Allocation *a = find(w.src, w.count, "queued copy (source)")) {
            access.add(*a);
        }
        std::memmove(w.dst, w.src, w.count);
        break;
    }
    case Work::kMemset: {
        Access access;
        access.add(need_device(w.dst, w.count, "queued cudaMemset"));
        std::memset(w.dst, w.value, w.count);
        break;
    }
    }
}

// Runs everything queued (the lock is held by the caller).
void
drain()
{
    while (!queue.empty()) {
        Work w = queue.front();
        queue.pop_front();
        run(w);
        completed++;
    }
}

void
enqueue(const Work &w)
{
    queue.push_back(w);
    enqueued++;
    if (config().blocking) {
        drain();
    }
}

bool
is_pinned(const void *p, size_t n)
{
    uintptr_t addr = (uintptr_t)p;
    auto it = pinned.upper_bound(addr);
    if (it == pinned.begin()) {
        return false;
    }
    --it;
    return addr >= it->first && addr + n <= it->first + it->second;
}

// ---- the fiber scheduler ----------------------------------------------------------------------------

// A fiber waits at a block barrier (__syncthreads) or at its warp's (__syncwarp and the shuffles); the
// scheduler releases a barrier once every live fiber it concerns waits there, all of them at once.
enum FiberState { kIdle, kRunning, kWaitBlock, kWaitWarp, kReady, kDone };

// Switching fibers: on x86-64 a few instructions (callee-saved registers, SSE and x87 control words,
// stack pointer); ucontext elsewhere (correct, but each switch is two sigprocmask system calls).
#if defined(__x86_64__) && !defined(MT_EMU_UCONTEXT)
#define MT_EMU_FAST_SWITCH 1
extern "C" void emu_switch_stack(void **save_sp, void *load_sp);
asm(".text\n"
    ".p2align 4\n"
    ".hidden emu_switch_stack\n"
    ".globl emu_switch_stack\n"
    ".type emu_switch_stack,@function\n"
    "emu_switch_stack:\n"
    "    pushq %rbp\n"
    "    pushq %rbx\n"
    "    pushq %r12\n"
    "    pushq %r13\n"
    "    pushq %r14\n"
    "    pushq %r15\n"
    "    subq $8, %rsp\n"
    "    stmxcsr (%rsp)\n"
    "    fnstcw 4(%rsp)\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    ldmxcsr (%rsp)\n"
    "    fldcw 4(%rsp)\n"
    "    addq $8, %rsp\n"
    "    popq %r15\n"
    "    popq %r14\n"
    "    popq %r13\n"
    "    popq %r12\n"
    "    popq %rbx\n"
    "    popq %rbp\n"
    "    ret\n"
    ".size emu_switch_stack, .-emu_switch_stack\n");
#endif

struct Fiber {
#ifdef MT_EMU_FAST_SWITCH
    void *sp = nullptr;
#else
    ucontext_t ctx;
#endif
    char *stack = nullptr;
    FiberState state = kIdle;
    alignas(16) unsigned char slot[16]; // the value a shuffle offers to the other lanes
};

#ifdef MT_EMU_FAST_SWITCH
void *scheduler_sp = nullptr;
#else
ucontext_t scheduler;
#endif
std::vector<Fiber> fibers;
std::vector<char *> free_stacks;
size_t running = 0;
bool in_kernel = false;
void (*kernel_body)(void *) = nullptr;
void *kernel_arg = nullptr;

char *
take_stack()
{
    if (!free_stacks.empty()) {
        char *s = free_stacks.back();
        free_stacks.pop_back();
        return s;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *m = mmap(nullptr, kFiberStack + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED) {
        die("no memory for a fiber stack");
    }
    mprotect(m, page, PROT_NONE); // a guard page below the stack
    return (char *)m + page;
}

#ifdef MT_EMU_FAST_SWITCH
[[noreturn]] void
fiber_main()
{
    kernel_body(kernel_arg);
    Fiber &f = fibers[running];
    f.state = kDone;
    emu_switch_stack(&f.sp, scheduler_sp); // never resumed: the stack goes back to the pool
    die("a finished fiber was resumed");
}

// A fresh fiber's saved stack, as emu_switch_stack leaves it: control words, six registers, and
// fiber_main as the return address (16-byte aligned, so fiber_main starts as if called).
void *
initial_stack(char *stack)
{
    uintptr_t top = ((uintptr_t)stack + kFiberStack) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top;
    *--sp = 0;                              // padding: fiber_main's return slot sits at a 16-byte boundary
    *--sp = (uint64_t)(uintptr_t)&fiber_main;
    for (int i = 0; i < 6; i++) {
        *--sp = 0;                          // rbp, rbx, r12 .. r15
    }
    *--sp = (uint64_t)0x037f << 32 | 0x1f80; // x87 control word (high half) and MXCSR: the defaults
    return sp;
}
#else
void
fiber_main()
{
    kernel_body(kernel_arg);
    fibers[running].state = kDone;
    // returning resumes uc_link: the scheduler
}
#endif

void
set_thread_index(size_t t)
{
    threadIdx.x = (unsigned)(t % blockDim.x);
    threadIdx.y = (unsigned)(t / blockDim.x % blockDim.y);
    threadIdx.z = (unsigned)(t / ((size_t)blockDim.x * blockDim.y));
}

void run_block(size_t nthreads);

void
run_kernel(const Work &w)
{
    Access access;
    access.add_device(w.device);
    gridDim = {w.grid[0], w.grid[1], w.grid[2]};
    blockDim = {w.block[0], w.block[1], w.block[2]};
    kernel_body = w.body;
    kernel_arg = w.arg;
    in_kernel = true;
    size_t threads = (size_t)w.block[0] * w.block[1] * w.block[2];
    for (unsigned z = 0; z < w.grid[2]; z++) {
        for (unsigned y = 0; y < w.grid[1]; y++) {
            for (unsigned x = 0; x < w.grid[0]; x++) {
                blockIdx = {x, y, z};
                run_block(threads);
            }
        }
    }
    in_kernel = false;
    w.destroy(w.arg);
}

// Releases the fibers waiting at a barrier that every live fiber it concerns has reached: a warp's
// (32 consecutive threads) first, else the block's. Returns false when none can be released: threads
// wait at different barriers, a deadlock on a GPU too.
bool
release_barrier(size_t nthreads)
{
    bool released = false;
    for (size_t w = 0; w < nthreads; w += 32) {
        size_t end = w + 32 < nthreads ? w + 32 : nthreads;
        bool all = true, any = false;
        for (size_t t = w; t < end; t++) {
            all = all && (fibers[t].state == kWaitWarp || fibers[t].state == kDone);
            any = any || fibers[t].state == kWaitWarp;
        }
        if (all && any) {
            for (size_t t = w; t < end; t++) {
                if (fibers[t].state == kWaitWarp) {
                    fibers[t].state = kReady;
                }
            }
            released = true;
        }
    }
    if (released) {
        return true;
    }
    bool all = true, any = false;
    for (size_t t = 0; t < nthreads; t++) {
        all = all && (fibers[t].state == kWaitBlock || fibers[t].state == kDone);
        any = any || fibers[t].state == kWaitBlock;
    }
    if (!(all && any)) {
        return false;
    }
    for (size_t t = 0; t < nthreads; t++) {
        if (fibers[t].state == kWaitBlock) {
            fibers[t].state = kReady;
        }
    }
    return true;
}

void
run_block(size_t nthreads)
{
    fibers.assign(nthreads, Fiber());
    size_t remaining = nthreads;
    while (remaining > 0) {
        for (size_t t = 0; t < nthreads; t++) {
            Fiber &f = fibers[t];
            if (f.state != kIdle && f.state != kReady) {
                continue;
            }
            if (f.state == kIdle) {
                f.stack = take_stack();
#ifdef MT_EMU_FAST_SWITCH
                f.sp = initial_stack(f.stack);
#else
                getcontext(&f.ctx);
                f.ctx.uc_stack.ss_sp = f.stack;
                f.ctx.uc_stack.ss_size = kFiberStack;
                f.ctx.uc_link = &scheduler;
                makecontext(&f.ctx, fiber_main, 0);
#endif
            }
            running = t;
            set_thread_index(t);
            f.state = kRunning;
#ifdef MT_EMU_FAST_SWITCH
            emu_switch_stack(&scheduler_sp, f.sp);
#else
            swapcontext(&scheduler, &f.ctx);
#endif
            if (f.state == kDone) {
                free_stacks.push_back(f.stack);
                f.stack = nullptr;
                remaining--;
            }
        }
        if (remaining > 0 && !release_barrier(nthreads)) {
            die("a kernel's threads wait at different barriers (__syncthreads / warp operations): a deadlock");
        }
    }
}

// Leaves the running fiber waiting in `state` until the scheduler releases it.
void
wait_at(FiberState state)
{
    if (!in_kernel) {
        die("a barrier or warp operation outside a kernel");
    }
    Fiber &f = fibers[running];
    f.state = state;
#ifdef MT_EMU_FAST_SWITCH
    emu_switch_stack(&f.sp, scheduler_sp);
#else
    swapcontext(&f.ctx, &scheduler);
#endif
}

const char *
error_text(cudaError_t err)
{
    switch (err) {
    case cudaSuccess:
        return "no error";
    case cudaErrorInvalidValue:
        return "invalid argument";
    case cudaErrorMemoryAllocation:
        return "out of memory";
    case cudaErrorInitializationError:
        return "initialization error";
    case cudaErrorInvalidConfiguration:
        return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer:
        return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection:
        return "invalid copy direction for memcpy";
    case cudaErrorNoDevice:
        return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice:
        return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle:
        return "invalid resource handle";
    case cudaErrorNotReady:
        return "device not ready";
    case cudaErrorIllegalAddress:
        return "an illegal memory access was encountered";
    case cudaErrorNotSupported:
        return "operation not supported";
    default:
        return "unrecognized error code";
    }
}

const char *
error_name(cudaError_t err)
{
    switch (err) {
    case cudaSuccess:
        return "cudaSuccess";
    case cudaErrorInvalidValue:
        return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
        return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError:
        return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration:
        return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer:
        return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection:
        return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice:
        return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice:
        return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle:
        return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady:
        return "cudaErrorNotReady";
    case cudaErrorIllegalAddress:
        return "cudaErrorIllegalAddress";
    case cudaErrorNotSupported:
        return "cudaErrorNotSupported";
    default:
        return "cudaErrorUnknown";
    }
}

cudaError_t
checked_current()
{
    if (config().devices == 0) {
        return fail(cudaErrorNoDevice);
    }
    return valid_device(current_device) ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

cudaError_t
copy(void *dst, const void *src, size_t count, cudaMemcpyKind kind, const char *what)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    cudaError_t err = checked_current();
    if (err != cudaSuccess) {
        return err;
    }
    if (count == 0) {
        return cudaSuccess;
    }
    if (dst == nullptr || src == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    drain(); // a synchronous copy waits for the work queued before it
    Access access;
    switch (kind) {
    case cudaMemcpyHostToDevice:
        need_host(src, count, what);
        access.add(need_device(dst, count, what));
        break;
    case cudaMemcpyDeviceToHost:
        need_host(dst, count, what);
        access.add(need_device(src, count, what));
        break;
    case cudaMemcpyDeviceToDevice:
        access.add(need_device(dst, count, what));
        access.add(need_device(src, count, what));
        break;
    case cudaMemcpyHostToHost:
        need_host(dst, count, what);
        need_host(src, count, what);
        break;
    case cudaMemcpyDefault:
        if (const Allocation *a = find(dst, count, what)) {
            access.add(*a);
        }
        if (const Allocation *a = find(src, count, what)) {
            access.add(*a);
        }
        break;
    default:
        return fail(cudaErrorInvalidMemcpyDirection);
    }
    std::memmove(dst, src, count);
    return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t
cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

cudaError_t
cudaPeekAtLastError(void)
{
    return last_error;
}

const char *
cudaGetErrorString(cudaError_t err)
{
    return error_text(err);
}

const char *
cudaGetErrorName(cudaError_t err)
{
    return error_name(err);
}

cudaError_t
cudaGetDeviceCount(int *count)
{
    if (count == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    if (config().devices == 0) {
        return fail(cudaErrorNoDevice); // *count untouched, as CUDA leaves it
    }
    *count = config().devices;
    return cudaSuccess;
}

cudaError_t
cudaSetDevice(int device)
{
    if (config().devices == 0) {
        return fail(cudaErrorNoDevice);
    }
    if (!valid_device(device)) {
        return fail(cudaErrorInvalidDevice);
    }
    current_device = device;
    return cudaSuccess;
}

cudaError_t
cudaGetDevice(int *device)
{
    if (device == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    *device = current_device;
    return checked_current();
}

cudaError_t
cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    if (value == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    if (config().devices > 0 && !valid_device(device)) {
        return fail(cudaErrorInvalidDevice);
    }
    switch (attr) {
    case cudaDevAttrMultiProcessorCount:
        *value = 2; // a tiny GPU keeps the emulated grids small
        return cudaSuccess;
    default:
        return fail(cudaErrorInvalidValue);
    }
}

cudaError_t
cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    if (prop == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    if (config().devices == 0) {
        return fail(cudaErrorNoDevice);
    }
    if (!valid_device(device)) {
        return fail(cudaErrorInvalidDevice);
    }
    std::memset(prop, 0, sizeof(*prop));
    std::snprintf(prop->name, sizeof(prop->name), "minitorch emulated CUDA device");
    for (int i = 0; i < 16; i++) {
        prop->uuid.bytes[i] = (char)(0x5a ^ (i * 17) ^ (device * 31));
    }
    prop->totalGlobalMem = config().memory;
    prop->major = 9;
    prop->minor = 0;
    prop->multiProcessorCount = 2;
    prop->l2CacheSize = 50 << 20;
    prop->maxThreadsPerBlock = 1024;
    prop->warpSize = 32;
    return cudaSuccess;
}

cudaError_t
cudaDriverGetVersion(int *version)
{
    if (version == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    *version = MT_EMU_CUDA_VERSION;
    return cudaSuccess;
}

cudaError_t
cudaRuntimeGetVersion(int *version)
{
    if (version == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    *version = MT_EMU_CUDA_VERSION;
    return cudaSuccess;
}

cudaError_t
cudaDeviceSynchronize(void)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    cudaError_t err = checked_current();
    if (err == cudaSuccess) {
        drain();
    }
    return err;
}

// Streams: every stream shares the one queue (the legacy default stream's), so the work of each is
// ordered with all the others, as minitorch's blocking streams are with the legacy stream; a stream
// only remembers its device and priority.
struct emu_stream {
    int device;
    int priority;
};

cudaError_t
cudaStreamSynchronize(cudaStream_t stream)
{
    if (stream != nullptr && !valid_device(stream->device)) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    return cudaDeviceSynchronize();
}

cudaError_t
cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least == nullptr || greatest == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    *least = 0;
    *greatest = -5; // a Hopper card's range
    return checked_current();
}

cudaError_t
cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority)
{
    if (stream == nullptr || flags > cudaStreamNonBlocking) {
        return fail(cudaErrorInvalidValue);
    }
    cudaError_t err = checked_current();
    if (err != cudaSuccess) {
        return err;
    }
    // CUDA clamps the priority into its range
    *stream = new emu_stream{current_device, priority < -5 ? -5 : (priority > 0 ? 0 : priority)};
    return cudaSuccess;
}

cudaError_t
cudaStreamQuery(cudaStream_t stream)
{
    if (stream != nullptr && !valid_device(stream->device)) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    if (completed >= enqueued) {
        return cudaSuccess;
    }
    drain(); // not yet; the device makes progress meanwhile
    return fail(cudaErrorNotReady);
}

cudaError_t
cudaMalloc(void **ptr, size_t size)
{
    if (ptr == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    cudaError_t err = checked_current();
    if (err != cudaSuccess) {
        return err;
    }
    *ptr = nullptr;
    if (size == 0) {
        return cudaSuccess;
    }
    install_segv_handler();
    size_t charged = (size + kGranularity - 1) / kGranularity * kGranularity;
    if (size > config().memory || used[current_device] + charged > config().memory) {
        return fail(cudaErrorMemoryAllocation);
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t mapped = (size + page - 1) / page * page;
    void *m = mmap(nullptr, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        return fail(cudaErrorMemoryAllocation);
    }
    allocations[(uintptr_t)m] = Allocation{(char *)m, size, mapped, current_device};
    used[current_device] += charged;
    *ptr = m;
    return cudaSuccess;
}

cudaError_t
cudaFree(void *ptr)
{
    if (ptr == nullptr) {
        return cudaSuccess;
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    drain(); // cudaFree waits for the device
    auto it = allocations.find((uintptr_t)ptr);
    if (it == allocations.end()) {
        return fail(cudaErrorInvalidValue);
    }
    const Allocation &a = it->second;
    used[a.device] -= (a.size + kGranularity - 1) / kGranularity * kGranularity;
    munmap(a.base, a.mapped);
    allocations.erase(it);
    return cudaSuccess;
}

cudaError_t
cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    if (free_bytes == nullptr || total_bytes == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    cudaError_t err = checked_current();
    if (err != cudaSuccess) {
        return err;
    }
    *total_bytes = config().memory;
    *free_bytes = config().memory - used[current_device];
    return cudaSuccess;
}

cudaError_t
cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    return copy(dst, src, count, kind, "cudaMemcpy");
}

cudaError_t
cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind, cudaStream_t stream)
{
    if (stream != nullptr) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    if ((kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost) && count > 0 && dst != nullptr &&
        src != nullptr && checked_current() == cudaSuccess) {
        const void *host = kind == cudaMemcpyHostToDevice ? src : dst;
        const void *device = kind == cudaMemcpyHostToDevice ? dst : src;
        if (is_pinned(host, count)) {
            // truly asynchronous: queued; the pinned side is read or written when the queue runs
            need_device(device, count, "cudaMemcpyAsync");
            Work w;
            std::memset(&w, 0, sizeof(w));
            w.kind = Work::kCopy;
            w.device = current_device;
            w.dst = dst;
            w.src = src;
            w.count = count;
            enqueue(w);
            return cudaSuccess;
        }
    }
    // pageable host memory (or device to device): the copy is done when the call returns
    return copy(dst, src, count, kind, "cudaMemcpyAsync");
}

cudaError_t
cudaMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t count)
{
    if (!valid_device(dst_device) || !valid_device(src_device)) {
        return fail(cudaErrorInvalidDevice);
    }
    if (count == 0) {
        return cudaSuccess;
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    drain();
    const Allocation &d = need_device(dst, count, "cudaMemcpyPeer (destination)");
    const Allocation &s = need_device(src, count, "cudaMemcpyPeer (source)");
    if (d.device != dst_device || s.device != src_device) {
        die("cudaMemcpyPeer: named devices %d <- %d, but the pointers are on devices %d <- %d", dst_device,
            src_device, d.device, s.device);
    }
    Access access;
    access.add(d);
    access.add(s);
    std::memmove(dst, src, count);
    return cudaSuccess;
}

cudaError_t
cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, size_t count, cudaStream_t stream)
{
    if (stream != nullptr) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    return cudaMemcpyPeer(dst, dst_device, src, src_device, count);
}

cudaError_t
cudaMemset(void *ptr, int value, size_t count)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    cudaError_t err = checked_current();
    if (err != cudaSuccess) {
        return err;
    }
    if (count == 0) {
        return cudaSuccess;
    }
    need_device(ptr, count, "cudaMemset");
    Work w;
    std::memset(&w, 0, sizeof(w));
    w.kind = Work::kMemset;
    w.device = current_device;
    w.dst = ptr;
    w.count = count;
    w.value = value;
    enqueue(w);
    return cudaSuccess;
}

struct emu_event {
    int device;
    unsigned int flags;
    bool recorded;
    uint64_t target; // done once this many work items have run
    std::chrono::steady_clock::time_point when; // the host time of the last record (for elapsed time)
};

cudaError_t
cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (event == nullptr || flags > 0x0f) {
        return fail(cudaErrorInvalidValue);
    }
    cudaError_t err = checked_current();
    if (err != cudaSuccess) {
        return err;
    }
    if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)) {
        return fail(cudaErrorInvalidValue); // CUDA: an interprocess event keeps no time
    }
    *event = new emu_event{current_device, flags, false, 0, {}};
    return cudaSuccess;
}

cudaError_t
cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t
cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    if (event == nullptr) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    if (event->device != current_device || (stream != nullptr && stream->device != current_device)) {
        // CUDA: the event and the stream must belong to the same device
        return fail(cudaErrorInvalidResourceHandle);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    event->target = enqueued;
    event->recorded = true;
    event->when = std::chrono::steady_clock::now();
    return cudaSuccess;
}

cudaError_t
cudaEventQuery(cudaEvent_t event)
{
    if (event == nullptr) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    if (completed >= event->target) {
        return cudaSuccess;
    }
    drain(); // not yet; the device makes progress meanwhile
    return fail(cudaErrorNotReady);
}

cudaError_t
cudaEventSynchronize(cudaEvent_t event)
{
    if (event == nullptr) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    drain();
    return cudaSuccess;
}

cudaError_t
cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (ms == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    if (start == nullptr || end == nullptr || !start->recorded || !end->recorded ||
        ((start->flags | end->flags) & cudaEventDisableTiming)) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    if (completed < start->target || completed < end->target) {
        return fail(cudaErrorNotReady);
    }
    *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
    return cudaSuccess;
}

cudaError_t
cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    if (event == nullptr || (stream != nullptr && !valid_device(stream->device)) || flags != 0) {
        return fail(event == nullptr ? cudaErrorInvalidResourceHandle : cudaErrorInvalidValue);
    }
    return checked_current(); // one queue: the stream's later work already comes after the event
}

cudaError_t
cudaEventDestroy(cudaEvent_t event)
{
    if (event == nullptr) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    delete event;
    return cudaSuccess;
}

cudaError_t
cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    if (ptr == nullptr || flags > 0x0f) {
        return fail(cudaErrorInvalidValue);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    cudaError_t err = checked_current();
    if (err != cudaSuccess) {
        return err;
    }
    *ptr = nullptr;
    if (size == 0) {
        return cudaSuccess;
    }
    void *m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        return fail(cudaErrorMemoryAllocation);
    }
    pinned[(uintptr_t)m] = size;
    *ptr = m;
    return cudaSuccess;
}

cudaError_t
cudaFreeHost(void *ptr)
{
    if (ptr == nullptr) {
        return cudaSuccess;
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    drain(); // cudaFreeHost waits for the device
    auto it = pinned.find((uintptr_t)ptr);
    if (it == pinned.end()) {
        return fail(cudaErrorInvalidValue);
    }
    munmap(ptr, it->second);
    pinned.erase(it);
    return cudaSuccess;
}

cudaError_t
cudaPointerGetAttributes(cudaPointerAttributes *attr, const void *ptr)
{
    if (attr == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    std::lock_guard<std::recursive_mutex> g(lock_);
    std::memset(attr, 0, sizeof(*attr));
    attr->device = -2;
    if (const Allocation *a = find(ptr, 0, "cudaPointerGetAttributes")) {
        attr->type = cudaMemoryTypeDevice;
        attr->device = a->device;
        attr->devicePointer = (void *)ptr;
        return cudaSuccess;
    }
    uintptr_t p = (uintptr_t)ptr;
    auto it = pinned.upper_bound(p);
    if (it != pinned.begin() && p < std::prev(it)->first + std::prev(it)->second) {
        attr->type = cudaMemoryTypeHost;
        attr->device = 0;
        attr->devicePointer = (void *)ptr;
        attr->hostPointer = (void *)ptr;
        return cudaSuccess;
    }
    attr->type = cudaMemoryTypeUnregistered;
    attr->hostPointer = (void *)ptr;
    return cudaSuccess;
}

// ---- the emulation's own interface ------------------------------------------------------------------

int
emu_current_device(void)
{
    return current_device;
}

static thread_local int access_depth = 0;
static thread_local Access *device_access = nullptr;

void
emu_device_access_begin(int device)
{
    lock_.lock();
    drain(); // the library's work is ordered after everything queued before it
    if (access_depth++ == 0) {
        device_access = new Access();
        device_access->add_device(device);
    }
}

void
emu_device_access_end(void)
{
    if (--access_depth == 0) {
        delete device_access;
        device_access = nullptr;
    }
    lock_.unlock();
}

int
emu_is_device_range(const void *ptr, size_t nbytes, int device)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    const Allocation *a = find(ptr, nbytes, "emu_is_device_range");
    return a != nullptr && (device < 0 || a->device == device);
}

void
emu_launch_raw(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, void (*body)(void *),
               void *arg, void (*destroy)(void *))
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    emu_launches++;
    if (in_kernel) {
        die("a kernel launch from inside a kernel");
    }
    if (config().devices > 0 && !valid_device(current_device)) {
        destroy(arg);
        last_error = cudaErrorInvalidDevice;
        return;
    }
    uint64_t threads = (uint64_t)bx * by * bz;
    if (gx == 0 || gy == 0 || gz == 0 || threads == 0 || threads > 1024 || bz > 64 || gy > 65535 || gz > 65535 ||
        gx > 0x7fffffffu) {
        destroy(arg);
        last_error = cudaErrorInvalidConfiguration;
        return;
    }
    Work w;
    std::memset(&w, 0, sizeof(w));
    w.kind = Work::kKernel;
    w.device = current_device;
    w.grid[0] = gx;
    w.grid[1] = gy;
    w.grid[2] = gz;
    w.block[0] = bx;
    w.block[1] = by;
    w.block[2] = bz;
    w.body = body;
    w.arg = arg;
    w.destroy = destroy;
    enqueue(w);
}

void
emu_syncthreads(void)
{
    wait_at(kWaitBlock);
}

void
emu_syncwarp(void)
{
    wait_at(kWaitWarp);
}

void
emu_warp_exchange(const void *mine, void *theirs, size_t nbytes, int src_lane)
{
    if (nbytes > sizeof(fibers[0].slot)) {
        die("a warp shuffle of %zu bytes", nbytes);
    }
    std::memcpy(fibers[running].slot, mine, nbytes);
    wait_at(kWaitWarp); // every lane has offered its value
    size_t me = running;
    size_t src = me - me % 32 + (size_t)src_lane;
    if (src_lane >= 0 && src_lane < 32 && src < fibers.size() && fibers[src].state != kDone) {
        std::memcpy(theirs, fibers[src].slot, nbytes);
    }
    else {
        std::memcpy(theirs, mine, nbytes);
    }
    wait_at(kWaitWarp); // every lane has read before any offers its next value
}

} // extern "C"
