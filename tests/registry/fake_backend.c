/* A backend module that lacks a required interface entry (mem_copy), installed under the
 * name of the OpenCL backend in a directory of its own: test_registry points
 * GPUX_BACKEND_PATH there and checks that the loader refuses it by naming the entry. The
 * entries it has are never called. */
#include "gpux_backend.h"

static gpux_status fail(void) { return GPUX_ERROR_INTERNAL; }
#define STUB(name) ((void *)fail) /* never called: the loader stops first */

static gpux__backend_iface iface;

__attribute__((visibility("default"))) const gpux__backend_iface *gpux_opencl_backend_entry(
    const gpux__host_iface *host);

const gpux__backend_iface *gpux_opencl_backend_entry(const gpux__host_iface *host) {
  (void)host;
  iface.abi_version = GPUX_BACKEND_ABI_VERSION;
  iface.name = "opencl";
#define FILL(e) *(void **)&iface.e = STUB(e);
  GPUX__BACKEND_REQUIRED(FILL)
#undef FILL
  iface.mem_copy = NULL;
  return &iface;
}
