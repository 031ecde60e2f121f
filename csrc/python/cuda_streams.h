/* cuda_streams.h: the private functions behind torch.cuda.Stream and torch.cuda.Event
 * (minitorch/cuda.py), over the device runtime's streams and events (runtime.h). */
#ifndef MT_PYTHON_CUDA_STREAMS_H
#define MT_PYTHON_CUDA_STREAMS_H

#include <Python.h>

extern PyMethodDef mt_cuda_stream_functions[];

#endif
