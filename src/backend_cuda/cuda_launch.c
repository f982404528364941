/* gpux CUDA backend: what every kernel family shares, below all of them: element sizes,
 * loading an embedded fatbin and its kernels, the one-wave grid of looping kernels. The
 * family files (cuda_elementwise.c, cuda_reduce.c, cuda_gemm.c, cuda_random.c) call this
 * file; it calls none of them. */
#include "cuda_backend.h"

/* from the dtype record of gpux_kernels.h */
const int gpux_cuda_dt_size[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_KDT_SIZE_INIT)};
#define GPUX_CUDA_DT_KIND(dt, bytes, name, kind, digits, exp) [GPUX_KDT_##dt] = kind,
const char gpux_cuda_dt_kind[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_CUDA_DT_KIND)};
#undef GPUX_CUDA_DT_KIND

gpux_status gpux_cuda_module_load(CUmodule *m, const unsigned char *image, const char *what) {
  CUresult r = gpux_cuda_drv.ModuleLoadData(m, image);
  if (r != CUDA_SUCCESS) {
    *m = NULL;
    /* e.g. CUDA_ERROR_NO_BINARY_FOR_GPU (no SASS or PTX for this GPU),
     * CUDA_ERROR_UNSUPPORTED_PTX_VERSION (driver older than the toolkit) */
    return gpux_cuda_error(GPUX_ERROR_KERNEL_BUILD, r, "cuModuleLoadData(%s)", what);
  }
  return GPUX_SUCCESS;
}

gpux_status gpux_cuda_get_function(CUmodule m, const char *name, CUfunction *f) {
  CUresult r = gpux_cuda_drv.ModuleGetFunction(f, m, name);
  if (r != CUDA_SUCCESS) {
    *f = NULL;
    return gpux_cuda_error(GPUX_ERROR_KERNEL_NOT_FOUND, r, "cuModuleGetFunction(%s)", name);
  }
  return GPUX_SUCCESS;
}

unsigned gpux_cuda_one_wave(gpux__bctx *b, CUfunction f, unsigned threads) {
  int sms = 0, per_sm = 0;
  if (gpux_cuda_drv.DeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, b->dev) !=
          CUDA_SUCCESS ||
      sms <= 0)
    sms = 1;
  if (gpux_cuda_drv.OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, (int)threads, 0) !=
          CUDA_SUCCESS ||
      per_sm <= 0)
    per_sm = 1;
  return (unsigned)sms * (unsigned)per_sm;
}
