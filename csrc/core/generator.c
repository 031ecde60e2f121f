/* generator.c: the default random generators (generator.h): torch's global CPU generator and one Philox
 * generator per CUDA device, each seeded from /dev/urandom at its first use, and the choice between them and
 * a generator= argument. It holds state only: no draws, no checks of a generator against a result. */
#include "generator.h"

#include "../kernels/cpu/rng.h"

static mt_cpu_generator cpu_generator;
static int cpu_generator_ready = 0;

/* The CUDA devices' default generators, one per device as torch's: each seeded from /dev/urandom at its
 * first use (torch's getDefaultCUDAGenerator), its offset advancing by the blocks each call consumes. */
static mt_cuda_generator cuda_generators[MT_CUDA_MAX_GENERATORS];
static int cuda_generator_ready[MT_CUDA_MAX_GENERATORS];

mt_cpu_generator *
mt_default_generator(void)
{
    if (!cpu_generator_ready) {
        /* torch seeds its global CPU generator from /dev/urandom; manual_seed makes it repeatable */
        mt_cpu_generator_init(&cpu_generator, mt_cpu_nondeterministic_seed());
        cpu_generator_ready = 1;
    }
    return &cpu_generator;
}

mt_cuda_generator *
mt_cuda_default_generator(int index)
{
    if (index < 0 || index >= MT_CUDA_MAX_GENERATORS) {
        PyErr_Format(PyExc_RuntimeError, "minitorch keeps CUDA generators for %d devices, not device %d",
                     MT_CUDA_MAX_GENERATORS, index);
        return NULL;
    }
    if (!cuda_generator_ready[index]) {
        cuda_generators[index].seed = mt_cpu_nondeterministic_seed();
        cuda_generators[index].offset = 0;
        cuda_generator_ready[index] = 1;
    }
    return &cuda_generators[index];
}

mt_cpu_generator *
mt_cpu_generator_or_default(mt_generator gen)
{
    return gen.cpu != NULL ? gen.cpu : mt_default_generator();
}

mt_cuda_generator *
mt_cuda_generator_or_default(mt_generator gen, mt_device device)
{
    return gen.cuda != NULL ? gen.cuda : mt_cuda_default_generator(device.index);
}
