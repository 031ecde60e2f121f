/* generator.h: the random generators' state and which one a draw uses: the process's default CPU generator
 * (torch's mt19937, kernels/cpu/rng.h), a Philox key and offset per CUDA device and per Generator('cuda')
 * object, and the pair a generator= argument names. The draws themselves are the kernels'; torch's checks of
 * a generator against a result are the op layer's (ops/factory.c); the Python Generator is
 * csrc/python/generator.c. */
#ifndef MT_CORE_GENERATOR_H
#define MT_CORE_GENERATOR_H

#include <Python.h>
#include <stdint.h>

#include "device.h"

struct mt_cpu_generator;

/* A CUDA generator (torch's CUDAGeneratorImpl: a device's default one, or a Generator('cuda')): the Philox key
 * and the offset, counted in blocks of four 32-bit words (torch's state counts words: 4 * offset), where its
 * next draw starts (kernels/cpu/philox.h). */
typedef struct mt_cuda_generator {
    uint64_t seed;
    uint64_t offset;
} mt_cuda_generator;

/* The generator of a random op's generator= argument: a CPU one (mt19937) or a CUDA one (Philox), at most one
 * of the two set; both NULL when none was given, and the draw uses its device's default generator. Each draw
 * checks the kind against the result's device as torch's check_generator does. */
typedef struct {
    struct mt_cpu_generator *cpu;
    mt_cuda_generator *cuda;
} mt_generator;

/* The default CPU generator (torch's global one, seeded from /dev/urandom at its first use). */
struct mt_cpu_generator *mt_default_generator(void);

/* The most CUDA devices with a generator (the simulated GPU's limit too). */
#define MT_CUDA_MAX_GENERATORS 64

/* Device `index`'s default generator, seeded from /dev/urandom at its first use as torch's; NULL with
 * RuntimeError for an index past MT_CUDA_MAX_GENERATORS. */
mt_cuda_generator *mt_cuda_default_generator(int index);

/* The generator a CPU draw uses: gen.cpu when given (generator=), else the default one. */
struct mt_cpu_generator *mt_cpu_generator_or_default(mt_generator gen);

/* The CUDA generator a draw on `device` uses: gen.cuda when given, else the device's default; NULL with an
 * exception past the devices minitorch keeps generators for. */
mt_cuda_generator *mt_cuda_generator_or_default(mt_generator gen, mt_device device);

#endif
