/* dlpack_abi.h: the part of the DLPack 1.x binary interface that minitorch exchanges, declared from the
 * published specification (https://dmlc.github.io/dlpack/latest/c_api.html and the array API's
 * "Data interchange mechanisms" page). The names and layouts are the standard's so that this header
 * can be swapped for the reference dlpack.h without touching interop.c; only the members minitorch
 * reads or writes are commented. It owns no code. */
#ifndef MT_DLPACK_ABI_H
#define MT_DLPACK_ABI_H

#include <stddef.h>
#include <stdint.h>

/* The ABI version minitorch speaks. A producer's capsule with another major version has a different
 * layout after `flags` and must not be read (only its deleter may be called). */
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

/* Device type codes; the values are fixed by the standard. */
typedef enum {
    kDLCPU = 1,
    kDLCUDA = 2,
    kDLCUDAHost = 3,          /* pinned host memory (cudaMallocHost): readable by the CPU */
    kDLOpenCL = 4,
    kDLVulkan = 7,
    kDLMetal = 8,
    kDLVPI = 9,
    kDLROCM = 10,
    kDLROCMHost = 11,
    kDLExtDev = 12,
    kDLCUDAManaged = 13,
    kDLOneAPI = 14,
    kDLWebGPU = 15,
    kDLHexagon = 16,
    kDLMAIA = 17
} DLDeviceType;

typedef struct {
    DLDeviceType device_type;
    int32_t device_id;        /* 0 for host memory */
} DLDevice;

/* Element type codes (DLDataType.code). */
typedef enum {
    kDLInt = 0U,
    kDLUInt = 1U,
    kDLFloat = 2U,
    kDLOpaqueHandle = 3U,
    kDLBfloat = 4U,
    kDLComplex = 5U,
    kDLBool = 6U              /* one byte per element (bits == 8) */
} DLDataTypeCode;

typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;           /* vector width; minitorch accepts only 1 */
} DLDataType;

typedef struct {
    void *data;               /* the element at index 0 is at data + byte_offset */
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;         /* in elements; NULL (legacy producers only) means compact row-major */
    uint64_t byte_offset;
} DLTensor;

/* The legacy (pre-1.0) managed tensor, carried by a capsule named "dltensor". */
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);   /* frees everything, `self` included; may be NULL */
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)

/* The 1.x managed tensor, carried by a capsule named "dltensor_versioned". Everything up to `flags`
 * keeps its layout across major versions, so that a consumer can always read the version and call
 * the deleter. */
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

#endif
