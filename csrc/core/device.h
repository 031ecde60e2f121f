/* device.h: the `minitorch.device` type (parsed, printed, compared and hashed like torch.device) and
 * the plain C value `mt_device` that tensors and storages carry. Knows nothing about what devices exist;
 * that is the device layer's business (csrc/core/devices.c). */
#ifndef MT_DEVICE_H
#define MT_DEVICE_H

#include <Python.h>

/* A device type is its place in device.c's table of torch's names. Tensors live on cpu, cuda or meta: a
 * meta tensor has a shape, strides and a dtype but no memory (torch's meta device, for reasoning about
 * shapes without data). */
typedef enum {
    MT_DEVICE_CPU = 0,
    MT_DEVICE_CUDA = 1,
    MT_DEVICE_META = 16
} mt_device_type;

typedef struct {
    int type;   /* mt_device_type */
    int index;  /* -1: no index (only for device objects, never for a tensor's device) */
} mt_device;

typedef struct {
    PyObject_HEAD
    mt_device device;
} mt_DeviceObject;

extern PyTypeObject mt_DeviceType;

#define mt_Device_Check(o) PyObject_TypeCheck((o), &mt_DeviceType)

static inline mt_device
mt_cpu_device(void)
{
    mt_device d = {MT_DEVICE_CPU, -1};
    return d;
}

/* the one meta device: torch drops the index of 'meta:0' */
static inline mt_device
mt_meta_device(void)
{
    mt_device d = {MT_DEVICE_META, -1};
    return d;
}

static inline int
mt_device_equal(mt_device a, mt_device b)
{
    return a.type == b.type && a.index == b.index;
}

int mt_device_init(PyObject *module);

/* A device index given as a number (torch.device('cuda', 1)): 0 with *out set, or -1 with torch's
 * RuntimeError for a negative one; minitorch also refuses one past 127 (c10 keeps the index in an int8 and
 * silently wraps larger values: torch.device('cuda', 300) is cuda:44), as its string parser refuses
 * "cuda:300". */
int mt_device_index_checked(int64_t index, int *out);

/* New reference to a device object for `d`. */
PyObject *mt_device_new(mt_device d);

/* Parses what torch accepts where a device is expected: a device object, a string ("cpu", "cuda",
 * "cuda:1") or an int (a CUDA index). Does not check that the device exists. 0 or -1 with an error. */
int mt_device_from_object(PyObject *obj, mt_device *out);

/* The device the factories use when not given one (torch.set_default_device, or the innermost `with
 * device(...)` block of this thread): 1 with *out set, or 0 for none (the CPU). */
int mt_default_device(mt_device *out);

/* _set_default_device(device or None) and _default_device(). */
extern PyMethodDef mt_default_device_functions[];

/* Writes "cpu" / "cuda:0" into buf. */
void mt_device_format(mt_device d, char *buf, size_t len);

#endif
