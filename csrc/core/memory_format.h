/* memory_format.h: the `minitorch.memory_format` objects (contiguous_format, preserve_format,
 * channels_last, channels_last_3d), the argument parsing every memory_format= keyword shares, and the
 * stride rules of each format (c10/core/MemoryFormat.h). Owns no tensor; tensor.c builds tensors in a
 * format with these rules. */
#ifndef MT_MEMORY_FORMAT_H
#define MT_MEMORY_FORMAT_H

#include <Python.h>
#include <stdint.h>

typedef enum {
    MT_CONTIGUOUS_FORMAT = 0,
    MT_PRESERVE_FORMAT,
    MT_CHANNELS_LAST,
    MT_CHANNELS_LAST_3D,
    MT_NUM_MEMORY_FORMATS
} mt_memory_format;

extern PyTypeObject mt_MemoryFormatType;

/* Registers the type and adds the four singletons to `module`. */
int mt_memory_format_init(PyObject *module);

/* The format a minitorch.memory_format object stands for (obj must be one). */
mt_memory_format mt_memory_format_of(PyObject *obj);


/* Dense strides of `sizes` laid out in `format` (contiguous_format, channels_last or channels_last_3d),
 * torch's get_channels_last_strides_2d/3d. A channels-last format on the wrong rank raises torch's
 * "required rank 4 tensor to use channels_last format". Returns 0, or -1 with the exception. */
int mt_memory_format_strides(mt_memory_format format, int ndim, const int64_t *sizes, int64_t *strides);

/* is_contiguous(memory_format=format) for a geometry: the channels-last checks of c10, and plain
 * row-major contiguity for contiguous_format and preserve_format. */
int mt_memory_format_is_contiguous(mt_memory_format format, int ndim, const int64_t *sizes,
                                   const int64_t *strides);

/* The format a tensor's strides look like (torch's suggest_memory_format): channels_last for a 4-D
 * tensor whose strides order its dims as channels-last does (c10's is_channels_last_strides_2d, with
 * its tie-breaks towards contiguous), channels_last_3d likewise for 5-D, contiguous_format otherwise. */
mt_memory_format mt_memory_format_suggest(int ndim, const int64_t *sizes, const int64_t *strides);

/* "Preserve", "ChannelsLast": c10's names, for torch's messages. */
const char *mt_memory_format_c10_name(mt_memory_format format);

#endif
