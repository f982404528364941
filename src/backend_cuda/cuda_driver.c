/* gpux CUDA backend: loading the driver API at run time, and error reporting. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuda_backend.h"

gpux_cuda_driver gpux_cuda_drv;
const gpux__host_iface *gpux_cuda_host;

/* dlsym returns void *; ISO C has no conversion to a function pointer, so copy the bits.
 * alt (may be NULL) is tried when sym is absent (older drivers). */
int gpux_cuda_sym(void *lib, const char *sym, const char *alt, void *fn_slot,
                  size_t slot_size) {
  void *p = dlsym(lib, sym);
  if (!p && alt) p = dlsym(lib, alt);
  if (!p || slot_size != sizeof p) return 0;
  memcpy(fn_slot, &p, sizeof p);
  return 1;
}

void *gpux_cuda_dlopen_first(const char *const *names, size_t n, const char **soname,
                             char *why, size_t why_len) {
  size_t used = 0;
  if (why_len) why[0] = '\0';
  for (size_t i = 0; i < n; ++i) {
    (void)dlerror();
    void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      *soname = names[i];
      return lib;
    }
    const char *err = dlerror();
    if (used < why_len) {
      int w = snprintf(why + used, why_len - used, "%s%s", i ? "; " : "dlopen: ",
                       err ? err : names[i]);
      if (w > 0) used += (size_t)w;
    }
  }
  return NULL;
}

gpux_status gpux_cuda_load_driver(void) {
  gpux_status s = GPUX_SUCCESS;
  const char *missing = NULL;
  const char *err;
  void *lib;

  if (gpux_cuda_drv.lib) return GPUX_SUCCESS;
  (void)dlerror();
  lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    err = dlerror();
    return gpux_cuda_host->set_error(GPUX_ERROR_BACKEND_UNAVAILABLE,
                                     "dlopen(libcuda.so.1): %s (no NVIDIA driver installed?)",
                                     err ? err : "unknown error");
  }
  memset(&gpux_cuda_drv, 0, sizeof gpux_cuda_drv);
#define GPUX_CUDA_DRV_LOAD(field, sym, alt, pfn)                                          \
  if (!missing &&                                                                          \
      !gpux_cuda_sym(lib, sym, alt, &gpux_cuda_drv.field, sizeof gpux_cuda_drv.field))     \
    missing = sym;
  GPUX_CUDA_DRIVER_FUNCS(GPUX_CUDA_DRV_LOAD)
#undef GPUX_CUDA_DRV_LOAD
  if (missing) {
    err = dlerror();
    s = gpux_cuda_host->set_error(GPUX_ERROR_BACKEND_UNAVAILABLE,
                                  "dlsym(libcuda.so.1, %s): %s (driver too old?)", missing,
                                  err ? err : "symbol not found");
    goto cleanup;
  }
  (void)gpux_cuda_sym(lib, "cuFuncGetParamInfo", NULL, &gpux_cuda_drv.FuncGetParamInfo,
                      sizeof gpux_cuda_drv.FuncGetParamInfo);
  (void)gpux_cuda_sym(lib, "cuFuncGetParamCount", NULL, &gpux_cuda_drv.FuncGetParamCount,
                      sizeof gpux_cuda_drv.FuncGetParamCount);
  (void)gpux_cuda_sym(lib, "cuModuleGetFunctionCount", NULL,
                      &gpux_cuda_drv.ModuleGetFunctionCount,
                      sizeof gpux_cuda_drv.ModuleGetFunctionCount);
  (void)gpux_cuda_sym(lib, "cuModuleEnumerateFunctions", NULL,
                      &gpux_cuda_drv.ModuleEnumerateFunctions,
                      sizeof gpux_cuda_drv.ModuleEnumerateFunctions);
  (void)gpux_cuda_sym(lib, "cuFuncGetName", NULL, &gpux_cuda_drv.FuncGetName,
                      sizeof gpux_cuda_drv.FuncGetName);
  gpux_cuda_drv.lib = lib;
  lib = NULL;

cleanup:
  if (lib) {
    dlclose(lib);
    memset(&gpux_cuda_drv, 0, sizeof gpux_cuda_drv);
  }
  return s;
}

void gpux_cuda_unload_driver(void) {
  if (gpux_cuda_drv.lib) dlclose(gpux_cuda_drv.lib);
  memset(&gpux_cuda_drv, 0, sizeof gpux_cuda_drv);
}

const char *gpux_cuda_result_name(CUresult r) {
  const char *name = NULL;
  if (gpux_cuda_drv.GetErrorName && gpux_cuda_drv.GetErrorName(r, &name) == CUDA_SUCCESS &&
      name)
    return name;
  return "CUDA_ERROR_UNRECOGNIZED";
}

/* Errors that report a failure of earlier queued work; the context is usually unusable
 * afterwards (sticky), which the description says. */
static int gpux_cuda_is_async(CUresult r) {
  switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
      return 1;
    default:
      return 0;
  }
}

gpux_status gpux_cuda_error(gpux_status s, CUresult r, const char *fmt, ...) {
  char what[256];
  const char *desc = NULL;
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (s != GPUX_ERROR_ASYNC && s != GPUX_ERROR_BACKEND_UNAVAILABLE && s != GPUX_ERROR_NO_DEVICE) {
    if (r == CUDA_ERROR_OUT_OF_MEMORY) s = GPUX_ERROR_OUT_OF_MEMORY;
    else if (gpux_cuda_is_async(r)) s = GPUX_ERROR_ASYNC;
  }
  if (!gpux_cuda_drv.GetErrorString || gpux_cuda_drv.GetErrorString(r, &desc) != CUDA_SUCCESS)
    desc = NULL;
  return gpux_cuda_host->set_error(s, "%s: %s (%d)%s%s", what, gpux_cuda_result_name(r), (int)r,
                                   desc ? ": " : "", desc ? desc : "");
}
