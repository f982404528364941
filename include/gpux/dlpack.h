/* DLPack: gpux arrays to and from DLPack tensors, without a copy for device memory. Both ABIs:
 * the versioned one (DLPack 1.x, DLManagedTensorVersioned: what current PyTorch, CuPy and JAX
 * produce when asked for it) and the legacy DLManagedTensor. Includes dlpack/dlpack.h, which
 * must be DLPack 1.0 or later (docs/interop.md says where gpux's build takes it from); a
 * libgpux built without it answers GPUX_ERROR_UNSUPPORTED. */
#ifndef GPUX_DLPACK_H
#define GPUX_DLPACK_H
#include <dlpack/dlpack.h>
#include "../gpux.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A DLPack tensor on a's memory (no copy): a's shape, strides (always set), dtype, and the
 * device of a's context: kDLCUDA (data = the allocation's device address, device_id = the
 * CUDA device) or kDLOpenCL (data = the cl_mem, device_id = gpux's OpenCL device index), with
 * byte_offset to element [0, ..., 0]; an empty array has data NULL. The tensor keeps a's
 * memory and context alive until its deleter is called (by whoever consumes it, once); a may
 * be released at any time. gpux's queued work on the memory is not waited for: synchronize
 * (gpux_context_synchronize) before another stream or queue reads it. */
GPUX_API gpux_status gpux_array_to_dlpack(DLManagedTensorVersioned **out, gpux_array_t a);
GPUX_API gpux_status gpux_array_to_dlpack_legacy(DLManagedTensor **out, gpux_array_t a);

/* An array from a DLPack tensor, which gpux takes over on success:
 * - device memory of ctx's backend and device (kDLCUDA or kDLCUDAManaged on a CUDA context,
 *   kDLOpenCL on an OpenCL one): the array is on that memory (as gpux_cuda_array_wrap /
 *   gpux_opencl_array_wrap, with their checks), and the tensor's deleter is called when the
 *   last gpux reference goes;
 * - host memory (kDLCPU, kDLCUDAHost), a read-only tensor (DLPACK_FLAG_BITMASK_READ_ONLY),
 *   or a broadcast view (a stride of 0 on an axis longer than 1: gpux arrays never alias
 *   elements): copied into a new array on ctx's device, and the tensor's deleter is called
 *   before this returns.
 * On failure the caller keeps the tensor (and calls its deleter), except for a versioned
 * tensor of another DLPack major version, which DLPack says the consumer must give back:
 * gpux calls its deleter and fails. dtypes: every gpux dtype (bool; int and uint of 8, 16,
 * 32, 64 bits; float16, bfloat16, float32, float64; kDLComplex of 64 and 128 bits) with one
 * lane (GPUX_ERROR_UNSUPPORTED_DTYPE otherwise); strides may be
 * NULL (row-major contiguous, as before DLPack 1.2). */
GPUX_API gpux_status gpux_array_from_dlpack(gpux_array_t *out, gpux_context_t ctx,
                                            DLManagedTensorVersioned *tensor);
GPUX_API gpux_status gpux_array_from_dlpack_legacy(gpux_array_t *out, gpux_context_t ctx,
                                                   DLManagedTensor *tensor);

#ifdef __cplusplus
}
#endif
#endif
