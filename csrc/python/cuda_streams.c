/* cuda_streams.c (python): the private functions minitorch.cuda builds Stream and Event from. Each takes
 * plain ints (a device index already checked by the caller, a stream or event handle as the int the
 * runtime gave, 0 being the default stream), initialises CUDA as torch does, calls the device runtime
 * (the CUDA runtime or the simulated GPU's host clock) and turns its error codes into AcceleratorError.
 * torch's argument checks and messages live in minitorch/cuda.py; the pool of streams lives there too. */
#include "cuda_streams.h"

#include "../core/devices.h"
#include "../runtime/runtime.h"

/* Reads (device, handle[, handle]) as format ("iO" or "iOO") says; returns the runtime, or NULL with an
 * exception. A handle may be 0 (the default stream). */
static const mt_runtime *
parse(PyObject *args, const char *format, int *device, void **first, void **second)
{
    PyObject *a = NULL;
    PyObject *b = NULL;

    if (!PyArg_ParseTuple(args, format, device, &a, &b)) {
        return NULL;
    }
    *first = PyLong_AsVoidPtr(a);
    if (*first == NULL && PyErr_Occurred()) {
        return NULL;
    }
    if (second != NULL) {
        *second = PyLong_AsVoidPtr(b);
        if (*second == NULL && PyErr_Occurred()) {
            return NULL;
        }
    }
    return mt_cuda_initialized_runtime();
}

/* Reads a lone handle (an event) and returns the runtime, or NULL. */
static const mt_runtime *
parse_handle(PyObject *arg, void **handle)
{
    *handle = PyLong_AsVoidPtr(arg);
    if (*handle == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "a CUDA event handle cannot be 0");
        }
        return NULL;
    }
    return mt_cuda_initialized_runtime();
}

/* The answer of a query that set *done (the call is made before done is read). */
static PyObject *
done_or_error(int err, const int *done)
{
    return err != MT_RT_SUCCESS ? mt_cuda_runtime_error(err) : PyBool_FromLong(*done);
}

static PyObject *
none_or_error(int err)
{
    if (err != MT_RT_SUCCESS) {
        return mt_cuda_runtime_error(err);
    }
    Py_RETURN_NONE;
}

/* _cuda_streamPriorityRange(device) -> (least, greatest), as cudaDeviceGetStreamPriorityRange says */
static PyObject *
py_stream_priority_range(PyObject *self, PyObject *args)
{
    int device, least, greatest, err;
    const mt_runtime *rt;

    if (!PyArg_ParseTuple(args, "i", &device) || (rt = mt_cuda_initialized_runtime()) == NULL) {
        return NULL;
    }
    err = rt->stream_priority_range(device, &least, &greatest);
    return err != MT_RT_SUCCESS ? mt_cuda_runtime_error(err) : Py_BuildValue("(ii)", least, greatest);
}

/* _cuda_streamCreate(device, priority) -> handle (a stream that lives as long as the process) */
static PyObject *
py_stream_create(PyObject *self, PyObject *args)
{
    int device, priority, err;
    void *stream = NULL;
    const mt_runtime *rt;

    if (!PyArg_ParseTuple(args, "ii", &device, &priority) || (rt = mt_cuda_initialized_runtime()) == NULL) {
        return NULL;
    }
    err = rt->stream_create(device, priority, &stream);
    return err != MT_RT_SUCCESS ? mt_cuda_runtime_error(err) : PyLong_FromVoidPtr(stream);
}

/* _cuda_streamSynchronize(device, stream) */
static PyObject *
py_stream_synchronize(PyObject *self, PyObject *args)
{
    int device, err;
    void *stream;
    const mt_runtime *rt = parse(args, "iO", &device, &stream, NULL);

    if (rt == NULL) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    err = rt->stream_synchronize(device, stream);
    Py_END_ALLOW_THREADS
    return none_or_error(err);
}

/* _cuda_streamQuery(device, stream) -> True when all its work has finished */
static PyObject *
py_stream_query(PyObject *self, PyObject *args)
{
    int device, done = 0;
    void *stream;
    const mt_runtime *rt = parse(args, "iO", &device, &stream, NULL);

    return rt == NULL ? NULL : done_or_error(rt->stream_query(device, stream, &done), &done);
}

/* _cuda_streamWaitEvent(device, stream, event): the stream's later work waits for the event */
static PyObject *
py_stream_wait_event(PyObject *self, PyObject *args)
{
    int device;
    void *stream, *event;
    const mt_runtime *rt = parse(args, "iOO", &device, &stream, &event);

    return rt == NULL ? NULL : none_or_error(rt->stream_wait_event(device, stream, event));
}

/* _cuda_eventCreate(device, flags) -> handle */
static PyObject *
py_event_create(PyObject *self, PyObject *args)
{
    int device, err;
    unsigned int flags;
    void *event = NULL;
    const mt_runtime *rt;

    if (!PyArg_ParseTuple(args, "iI", &device, &flags) || (rt = mt_cuda_initialized_runtime()) == NULL) {
        return NULL;
    }
    err = rt->event_create(device, flags, &event);
    return err != MT_RT_SUCCESS ? mt_cuda_runtime_error(err) : PyLong_FromVoidPtr(event);
}

/* _cuda_eventDestroy(device, event) */
static PyObject *
py_event_destroy(PyObject *self, PyObject *args)
{
    int device;
    void *event;
    const mt_runtime *rt = parse(args, "iO", &device, &event, NULL);

    return rt == NULL ? NULL : none_or_error(rt->event_destroy(device, event));
}

/* _cuda_eventRecord(device, event, stream) */
static PyObject *
py_event_record(PyObject *self, PyObject *args)
{
    int device;
    void *event, *stream;
    const mt_runtime *rt = parse(args, "iOO", &device, &event, &stream);

    return rt == NULL ? NULL : none_or_error(rt->event_record(device, event, stream));
}

/* _cuda_eventQuery(event) -> True when the work before its last record has finished */
static PyObject *
py_event_query(PyObject *self, PyObject *arg)
{
    int done = 0;
    void *event;
    const mt_runtime *rt = parse_handle(arg, &event);

    return rt == NULL ? NULL : done_or_error(rt->event_query(event, &done), &done);
}

/* _cuda_eventSynchronize(event): waits for the work before its last record */
static PyObject *
py_event_synchronize(PyObject *self, PyObject *arg)
{
    int err;
    void *event;
    const mt_runtime *rt = parse_handle(arg, &event);

    if (rt == NULL) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    err = rt->event_synchronize(event);
    Py_END_ALLOW_THREADS
    return none_or_error(err);
}

/* _cuda_eventElapsedTime(start, end) -> milliseconds between the two records */
static PyObject *
py_event_elapsed_time(PyObject *self, PyObject *args)
{
    PyObject *a, *b;
    void *start, *end;
    float ms = 0.0f;
    int err;
    const mt_runtime *rt;

    if (!PyArg_ParseTuple(args, "OO", &a, &b)) {
        return NULL;
    }
    if (parse_handle(b, &end) == NULL || (rt = parse_handle(a, &start)) == NULL) {
        return NULL;
    }
    err = rt->event_elapsed_time(start, end, &ms);
    return err != MT_RT_SUCCESS ? mt_cuda_runtime_error(err) : PyFloat_FromDouble((double)ms);
}

PyMethodDef mt_cuda_stream_functions[] = {
    {"_cuda_streamPriorityRange", py_stream_priority_range, METH_VARARGS, NULL},
    {"_cuda_streamCreate", py_stream_create, METH_VARARGS, NULL},
    {"_cuda_streamSynchronize", py_stream_synchronize, METH_VARARGS, NULL},
    {"_cuda_streamQuery", py_stream_query, METH_VARARGS, NULL},
    {"_cuda_streamWaitEvent", py_stream_wait_event, METH_VARARGS, NULL},
    {"_cuda_eventCreate", py_event_create, METH_VARARGS, NULL},
    {"_cuda_eventDestroy", py_event_destroy, METH_VARARGS, NULL},
    {"_cuda_eventRecord", py_event_record, METH_VARARGS, NULL},
    {"_cuda_eventQuery", py_event_query, METH_O, NULL},
    {"_cuda_eventSynchronize", py_event_synchronize, METH_O, NULL},
    {"_cuda_eventElapsedTime", py_event_elapsed_time, METH_VARARGS, NULL},
    {NULL},
};
