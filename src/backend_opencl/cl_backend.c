/* gpux OpenCL backend: devices, contexts, queues, memory, events and the backend entry point.
 * OpenCL 1.2 API through the ICD loader. Programs and launches are in cl_launch.c, each
 * kernel family in its own file (cl_elementwise.c, cl_reduce.c, cl_random.c, cl_gemm.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cl_internal.h"

const gpux__host_iface *gpux_cl_host;
#define SET_ERROR(...) gpux_cl_host->set_error(__VA_ARGS__)

/* ---------------------------------------------------------------- error codes */
const char *gpux_cl_error_name(cl_int e) {
  switch (e) {
#define C(x) \
  case x:    \
    return #x;
    C(CL_SUCCESS) C(CL_DEVICE_NOT_FOUND) C(CL_DEVICE_NOT_AVAILABLE) C(CL_COMPILER_NOT_AVAILABLE)
    C(CL_MEM_OBJECT_ALLOCATION_FAILURE) C(CL_OUT_OF_RESOURCES) C(CL_OUT_OF_HOST_MEMORY)
    C(CL_PROFILING_INFO_NOT_AVAILABLE) C(CL_MEM_COPY_OVERLAP) C(CL_IMAGE_FORMAT_MISMATCH)
    C(CL_IMAGE_FORMAT_NOT_SUPPORTED) C(CL_BUILD_PROGRAM_FAILURE) C(CL_MAP_FAILURE)
    C(CL_MISALIGNED_SUB_BUFFER_OFFSET) C(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    C(CL_COMPILE_PROGRAM_FAILURE) C(CL_LINKER_NOT_AVAILABLE) C(CL_LINK_PROGRAM_FAILURE)
    C(CL_DEVICE_PARTITION_FAILED) C(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) C(CL_INVALID_VALUE)
    C(CL_INVALID_DEVICE_TYPE) C(CL_INVALID_PLATFORM) C(CL_INVALID_DEVICE) C(CL_INVALID_CONTEXT)
    C(CL_INVALID_QUEUE_PROPERTIES) C(CL_INVALID_COMMAND_QUEUE) C(CL_INVALID_HOST_PTR)
    C(CL_INVALID_MEM_OBJECT) C(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) C(CL_INVALID_IMAGE_SIZE)
    C(CL_INVALID_SAMPLER) C(CL_INVALID_BINARY) C(CL_INVALID_BUILD_OPTIONS) C(CL_INVALID_PROGRAM)
    C(CL_INVALID_PROGRAM_EXECUTABLE) C(CL_INVALID_KERNEL_NAME) C(CL_INVALID_KERNEL_DEFINITION)
    C(CL_INVALID_KERNEL) C(CL_INVALID_ARG_INDEX) C(CL_INVALID_ARG_VALUE) C(CL_INVALID_ARG_SIZE)
    C(CL_INVALID_KERNEL_ARGS) C(CL_INVALID_WORK_DIMENSION) C(CL_INVALID_WORK_GROUP_SIZE)
    C(CL_INVALID_WORK_ITEM_SIZE) C(CL_INVALID_GLOBAL_OFFSET) C(CL_INVALID_EVENT_WAIT_LIST)
    C(CL_INVALID_EVENT) C(CL_INVALID_OPERATION) C(CL_INVALID_GL_OBJECT)
    C(CL_INVALID_BUFFER_SIZE) C(CL_INVALID_MIP_LEVEL) C(CL_INVALID_GLOBAL_WORK_SIZE)
    C(CL_INVALID_PROPERTY) C(CL_INVALID_IMAGE_DESCRIPTOR) C(CL_INVALID_COMPILER_OPTIONS)
    C(CL_INVALID_LINKER_OPTIONS) C(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef C
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    case -9999: return "NVIDIA_ILLEGAL_ADDRESS";
    default: return "unknown OpenCL error";
  }
}

gpux_status gpux_cl_status(cl_int e, gpux_status dflt) {
  if (e == CL_MEM_OBJECT_ALLOCATION_FAILURE) return GPUX_ERROR_OUT_OF_MEMORY;
  if (e == CL_OUT_OF_HOST_MEMORY) return GPUX_ERROR_OUT_OF_HOST_MEMORY;
  return dflt;
}

/* ---------------------------------------------------------------- devices */
static gpux_cl_device *g_devices;
static int g_ndevices;
static char g_nodevice_why[768]; /* why the list is empty */

/* String info into a fixed buffer, truncated; "" when the query fails. */
static void device_str(cl_device_id d, cl_device_info what, char *dst, size_t cap) {
  size_t n = 0;
  dst[0] = '\0';
  if (clGetDeviceInfo(d, what, 0, NULL, &n) != CL_SUCCESS || n == 0) return;
  char *tmp = malloc(n);
  if (!tmp) return;
  if (clGetDeviceInfo(d, what, n, tmp, NULL) == CL_SUCCESS) snprintf(dst, cap, "%s", tmp);
  free(tmp);
  for (size_t len = strlen(dst); len > 0 && dst[len - 1] == ' '; len--) dst[len - 1] = '\0';
}

static void platform_str(cl_platform_id p, cl_platform_info what, char *dst, size_t cap) {
  size_t n = 0;
  dst[0] = '\0';
  if (clGetPlatformInfo(p, what, 0, NULL, &n) != CL_SUCCESS || n == 0) return;
  char *tmp = malloc(n);
  if (!tmp) return;
  if (clGetPlatformInfo(p, what, n, tmp, NULL) == CL_SUCCESS) snprintf(dst, cap, "%s", tmp);
  free(tmp);
}

static int platform_is_pocl(cl_platform_id p) {
  char name[128], version[128];
  platform_str(p, CL_PLATFORM_NAME, name, sizeof name);
  platform_str(p, CL_PLATFORM_VERSION, version, sizeof version);
  return strstr(name, "Portable Computing Language") != NULL || strstr(version, "PoCL") != NULL ||
         strstr(version, "pocl") != NULL;
}

static int device_has_fp64(cl_device_id d) {
  cl_device_fp_config cfg = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof cfg, &cfg, NULL) == CL_SUCCESS && cfg)
    return 1;
  char ext[4096];
  device_str(d, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
  return strstr(ext, "cl_khr_fp64") != NULL;
}

/* Enumerates every platform's devices once: GPUs first, then the other devices, so index
 * 0 is a GPU when there is one. An empty list is not an error here: device_count reports it
 * with the reason (no platform, or pocl without its cache directory). */
static gpux_status be_init(void) {
  cl_uint nplat = 0;
  cl_platform_id *plats = NULL;
  gpux_status s = GPUX_SUCCESS;
  cl_int e = clGetPlatformIDs(0, NULL, &nplat);
  if (e != CL_SUCCESS || nplat == 0) {
    snprintf(g_nodevice_why, sizeof g_nodevice_why,
             "no OpenCL platform: clGetPlatformIDs: %s (%d); is an OpenCL driver (ICD) installed "
             "and registered in /etc/OpenCL/vendors or OCL_ICD_VENDORS?",
             gpux_cl_error_name(e), (int)e);
    return GPUX_SUCCESS;
  }
  plats = calloc(nplat, sizeof *plats);
  if (!plats) return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
  e = clGetPlatformIDs(nplat, plats, NULL);
  if (e != CL_SUCCESS) {
    s = SET_ERROR(GPUX_ERROR_BACKEND_UNAVAILABLE, "clGetPlatformIDs: %s (%d)",
                  gpux_cl_error_name(e), (int)e);
    goto done;
  }
  char why[512] = "";
  for (int pass = 0; pass < 2; pass++) { /* 0: GPUs, 1: the rest */
    for (cl_uint p = 0; p < nplat; p++) {
      cl_uint nd = 0;
      e = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
      if (e != CL_SUCCESS || nd == 0) {
        if (pass == 0) {
          char pname[128];
          platform_str(plats[p], CL_PLATFORM_NAME, pname, sizeof pname);
          size_t used = strlen(why);
          if (platform_is_pocl(plats[p]))
            snprintf(why + used, sizeof why - used,
                     "; platform '%s' (pocl) reports no device (clGetDeviceIDs: %s (%d)): pocl "
                     "could not create its kernel cache directory; set POCL_CACHE_DIR to a "
                     "writable directory",
                     pname, gpux_cl_error_name(e), (int)e);
          else
            snprintf(why + used, sizeof why - used,
                     "; platform '%s' reports no device (clGetDeviceIDs: %s (%d))", pname,
                     gpux_cl_error_name(e), (int)e);
        }
        continue;
      }
      cl_device_id *ids = calloc(nd, sizeof *ids);
      gpux_cl_device *grown = realloc(g_devices, (g_ndevices + nd) * sizeof *g_devices);
      if (!ids || !grown) {
        free(ids);
        if (grown) g_devices = grown;
        s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
        goto done;
      }
      g_devices = grown;
      if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL) == CL_SUCCESS) {
        for (cl_uint i = 0; i < nd; i++) {
          cl_device_type type = 0;
          clGetDeviceInfo(ids[i], CL_DEVICE_TYPE, sizeof type, &type, NULL);
          int is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
          if (is_gpu != (pass == 0)) continue;
          gpux_cl_device *d = &g_devices[g_ndevices++];
          d->platform = plats[p];
          d->device = ids[i];
          d->is_gpu = is_gpu;
          d->is_pocl = platform_is_pocl(plats[p]);
          d->fp64 = device_has_fp64(ids[i]);
        }
      }
      free(ids);
    }
  }
  if (g_ndevices == 0)
    snprintf(g_nodevice_why, sizeof g_nodevice_why, "no OpenCL device on %u platform(s)%s",
             (unsigned)nplat, why);
done:
  free(plats);
  return s;
}

static gpux_status be_device_count(int *count) {
  *count = g_ndevices;
  if (g_ndevices == 0) return SET_ERROR(GPUX_ERROR_NO_DEVICE, "opencl: %s", g_nodevice_why);
  return GPUX_SUCCESS;
}

static gpux_status be_device_info(int index, gpux__devinfo *info) {
  const gpux_cl_device *d = &g_devices[index];
  cl_ulong u = 0;
  cl_uint cu = 0;
  info->backend = GPUX_BACKEND_OPENCL;
  info->index = index;
  device_str(d->device, CL_DEVICE_NAME, info->name, sizeof info->name);
  device_str(d->device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
  platform_str(d->platform, CL_PLATFORM_NAME, info->platform, sizeof info->platform);
  device_str(d->device, CL_DRIVER_VERSION, info->driver_version, sizeof info->driver_version);
  device_str(d->device, CL_DEVICE_OPENCL_C_VERSION, info->version, sizeof info->version);
  if (clGetDeviceInfo(d->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof u, &u, NULL) == CL_SUCCESS)
    info->global_mem_bytes = u;
  if (clGetDeviceInfo(d->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof u, &u, NULL) == CL_SUCCESS)
    info->max_alloc_bytes = u;
  if (clGetDeviceInfo(d->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL) == CL_SUCCESS)
    info->compute_units = (int)cu;
  info->fp64 = d->fp64;
  info->is_gpu = d->is_gpu;
  return GPUX_SUCCESS;
}

/* ---------------------------------------------------------------- contexts */
static void be_context_destroy(gpux__bctx *b);

/* Markers normally carry profiling timestamps; where they do not, events are recorded
 * with a 1-byte fill of a scratch buffer, which every implementation profiles. */
static int markers_have_timestamps(gpux__bctx *b) {
  cl_event ev = NULL;
  cl_ulong t = 0;
  int ok = clEnqueueMarkerWithWaitList(b->q0.queue, 0, NULL, &ev) == CL_SUCCESS &&
           clWaitForEvents(1, &ev) == CL_SUCCESS &&
           clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL) ==
               CL_SUCCESS &&
           t != 0;
  if (ev) clReleaseEvent(ev);
  return ok;
}

/* every kernel family (GPUX__KERNEL_FAMILIES; cl_internal.h), in its slot's order */
static const gpux_cl_family *const families[GPUX_CL_FAM_COUNT] = {
#define FAMILY_ROW(f) &gpux_cl_fam_##f,
    GPUX__KERNEL_FAMILIES(FAMILY_ROW)
#undef FAMILY_ROW
};

/* A context on device `index`: its own OpenCL context and in-order queue (with profiling),
 * or the application's (user_ctx, user_queue: gpux holds a reference of its own to each). */
static gpux_status context_open(int index, cl_context user_ctx, cl_command_queue user_queue,
                                gpux__bctx **out) {
  const gpux_cl_device *d = &g_devices[index];
  gpux_status s = GPUX_SUCCESS;
  cl_int e = CL_SUCCESS;
  const char *what = "";
  gpux__bctx *b = calloc(1, sizeof *b);
  if (!b) return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
  /* first, so that be_context_destroy can always destroy them */
  if (pthread_mutex_init(&b->lock, NULL) != 0) {
    free(b);
    return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: pthread_mutex_init failed");
  }
  if (pthread_mutex_init(&b->touch_lock, NULL) != 0) {
    pthread_mutex_destroy(&b->lock);
    free(b);
    return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: pthread_mutex_init failed");
  }
  b->dev = d;
  b->q0.b = b;
  if (user_ctx) {
    what = "clRetainContext";
    if ((e = clRetainContext(user_ctx)) != CL_SUCCESS) goto fail;
    b->ctx = user_ctx;
    what = "clRetainCommandQueue";
    if ((e = clRetainCommandQueue(user_queue)) != CL_SUCCESS) goto fail;
    b->q0.queue = user_queue;
    cl_command_queue_properties qp = 0;
    what = "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)";
    e = clGetCommandQueueInfo(user_queue, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL);
    if (e != CL_SUCCESS) goto fail;
    b->profiling = (qp & CL_QUEUE_PROFILING_ENABLE) != 0;
    b->adopted = 1;
  } else {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)d->platform,
                                     0};
    b->ctx = clCreateContext(props, 1, &d->device, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
      what = "clCreateContext";
      goto fail;
    }
    b->q0.queue = clCreateCommandQueue(b->ctx, d->device, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) {
      what = "clCreateCommandQueue";
      goto fail;
    }
    b->profiling = 1;
  }
  b->touch_queue = clCreateCommandQueue(b->ctx, d->device, 0, &e);
  if (e != CL_SUCCESS) {
    what = "clCreateCommandQueue";
    goto fail;
  }
  b->scratch = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, 16, NULL, &e);
  if (e != CL_SUCCESS) {
    what = "clCreateBuffer(scratch)";
    goto fail;
  }
  e = clGetDeviceInfo(d->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof b->max_alloc, &b->max_alloc,
                      NULL);
  if (e != CL_SUCCESS) {
    what = "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE)";
    goto fail;
  }
  device_str(d->device, CL_DEVICE_NAME, b->device_name, sizeof b->device_name);
  device_str(d->device, CL_DRIVER_VERSION, b->driver_version, sizeof b->driver_version);
  device_str(d->device, CL_DEVICE_VERSION, b->device_version, sizeof b->device_version);
  cl_uint align_bits = 0;
  clGetDeviceInfo(d->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  b->base_align = align_bits >= 8 ? align_bits / 8 : 128; /* bits; 1024 (128 B) is common */

  /* Launch shape, fixed when the programs are built: on CPU devices (pocl) one element per
   * work-item, since pocl vectorizes across work-items and loops inside a work-item defeat
   * that; on GPUs 4 consecutive elements per work-item, read and written as vectors (on an
   * H200, float32 a + b at 2^28: 4.37 TB/s with 4, 4.18 with 8, 3.50 with 16). */
  b->epi = d->is_gpu ? 4 : 1;
  const char *env = getenv("GPUX_OPENCL_ELEMS_PER_ITEM"); /* tuning and tests: 1, 2, 4, 8, 16 */
  if (env && (!strcmp(env, "1") || !strcmp(env, "2") || !strcmp(env, "4") ||
              !strcmp(env, "8") || !strcmp(env, "16")))
    b->epi = atoi(env);
  /* CPU devices get exactly the work-items needed (a main launch of whole work-groups and
   * a tail launch with work-groups of 1) and kernels without bounds tests, which pocl
   * vectorizes about 3x better; GPUs round up to whole work-groups and test bounds. */
  b->exact = !d->is_gpu && b->epi == 1;
  /* Contiguous device copies (mem_copy): clEnqueueCopyBuffer on GPUs; on CPU devices a copy
   * kernel (gpux_cl_copy_range), since pocl's copy command is one thread's memcpy.
   * GPUX_OPENCL_COPY=buffer|kernel forces one (tuning and tests). */
  b->copy_kernel = !d->is_gpu;
  const char *cpy = getenv("GPUX_OPENCL_COPY");
  if (cpy && !strcmp(cpy, "buffer")) b->copy_kernel = 0;
  if (cpy && !strcmp(cpy, "kernel")) b->copy_kernel = 1;
  b->wg = 256;
  size_t maxwg = 0;
  if (clGetDeviceInfo(d->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL) ==
          CL_SUCCESS &&
      maxwg && maxwg < b->wg)
    b->wg = maxwg;
  cl_device_fp_config sp = 0;
  clGetDeviceInfo(d->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof sp, &sp, NULL);
  const char *cr_div = (sp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT)
                           ? " -cl-fp32-correctly-rounded-divide-sqrt"
                           : "";
  snprintf(b->build_options, sizeof b->build_options, "-cl-std=CL1.2 -DGPUX_ELEMS_PER_ITEM=%d%s%s",
           b->epi, b->exact ? " -DGPUX_EXACT_LAUNCH" : "", cr_div);
  /* dialect and ops programs: the OpenCL C the preludes are written in, and float division
   * and sqrt rounded as the built-in kernels (and CUDA's defaults) round them */
  snprintf(b->uprog_options, sizeof b->uprog_options, "-cl-std=CL1.2%s", cr_div);
  /* Reductions and scans: CPU devices get the CPU form of reduce.cl / scan.cl (a chunk per
   * work-item), GPUs the GPU form, which needs work-groups of 256 and 38 KB of local memory
   * (scan.cl); GPUX_OPENCL_REDUCE=gpu|cpu forces one where the device allows it (CI runs
   * the GPU form on pocl too). Both give the same bits. */
  size_t item_sizes[3] = {0, 0, 0};
  cl_ulong local_mem = 0;
  clGetDeviceInfo(d->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof item_sizes, item_sizes, NULL);
  clGetDeviceInfo(d->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL);
  b->local_mem = local_mem;
  int gpu_form_ok = b->wg >= GPUX_RED_LANES && item_sizes[0] >= GPUX_RED_LANES &&
                    local_mem >= 40 * 1024;
  b->red_cpu = !d->is_gpu || !gpu_form_ok;
  const char *form = getenv("GPUX_OPENCL_REDUCE");
  if (form && !strcmp(form, "cpu")) b->red_cpu = 1;
  if (form && !strcmp(form, "gpu") && gpu_form_ok) b->red_cpu = 0;
  b->red_local = b->red_cpu ? GPUX_CL_RED_CPU_LOCAL : GPUX_RED_LANES;
  snprintf(b->red_build_options, sizeof b->red_build_options, "%s%s", b->build_options,
           b->red_cpu ? " -DGPUX_CL_CPU=1" : "");
  /* Float32 normals on GPUs copy the ziggurat's 32 KB table into local memory next to their
   * 2 KB queue; devices with less local memory read the table from global memory instead
   * (kernels/cl/random.cl). GPUX_OPENCL_ZIG=global forces that (the tests run it on pocl). */
  const char *zig = getenv("GPUX_OPENCL_ZIG");
  const int zig_global = !b->exact && (local_mem < GPUX_CL_ZIG_LOCAL_BYTES ||
                                       (zig && !strcmp(zig, "global")));
  /* and they are launched in work-groups of b->wg, which their build is told of */
  snprintf(b->rand_build_options, sizeof b->rand_build_options,
           "%s%s -DGPUX_CL_ZIG_WG=%u", b->build_options,
           zig_global ? " -DGPUX_CL_ZIG_GLOBAL=1" : "", (unsigned)b->wg);
  b->marker_timing = b->profiling && markers_have_timestamps(b);
  for (int f = 0; f < GPUX_CL_FAM_COUNT; f++)
    if (families[f]->state_size && !(b->fam[f] = calloc(1, families[f]->state_size))) {
      be_context_destroy(b);
      return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
    }
  *out = b;
  return GPUX_SUCCESS;
fail:
  s = SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER), "%s: %s (%d)", what, gpux_cl_error_name(e),
                (int)e);
  be_context_destroy(b);
  return s;
}

static gpux_status be_context_create(int index, gpux__bctx **out) {
  return context_open(index, NULL, NULL, out);
}

/* ---------------------------------------------------------------- interop */
static gpux_status be_context_adopt(const gpux__native *n, gpux__bctx **out, int *device) {
  cl_context ctx = (cl_context)n->context, qctx = NULL;
  cl_device_id dev = (cl_device_id)n->device, qdev = NULL;
  cl_command_queue q = (cl_command_queue)n->queue;
  cl_command_queue_properties qp = 0;
  int index = -1;
  for (int i = 0; i < g_ndevices && index < 0; i++)
    if (g_devices[i].device == dev) index = i;
  if (index < 0)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT,
                     "the cl_device_id is none of the %d OpenCL devices gpux lists "
                     "(gpux_device_count; a sub-device is not one)",
                     g_ndevices);
  cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
  if (e == CL_SUCCESS) e = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
  if (e == CL_SUCCESS) e = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL);
  if (e != CL_SUCCESS)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "the command queue: clGetCommandQueueInfo: %s (%d)",
                     gpux_cl_error_name(e), (int)e);
  if (qctx != ctx || qdev != dev)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT,
                     "the command queue belongs to another %s than the one given",
                     qctx != ctx ? "context" : "device");
  if (qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT,
                     "the command queue runs out of order; gpux needs an in-order queue");
  *device = index;
  return context_open(index, ctx, q, out);
}

static gpux_status be_native_get(gpux__bctx *b, gpux__native *out) {
  out->context = b->ctx;
  out->device = b->dev->device;
  out->ordinal = 0;
  out->queue = b->q0.queue;
  return GPUX_SUCCESS;
}

/* the application's buffer, checked against this context, with a reference of gpux's own */
static gpux_status be_mem_wrap(gpux__bctx *b, void *native, uint64_t bytes, void **buf) {
  cl_mem m = (cl_mem)native;
  cl_context mctx = NULL;
  cl_mem_object_type type = 0;
  size_t size = 0;
  cl_int e = clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL);
  if (e == CL_SUCCESS) e = clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof mctx, &mctx, NULL);
  if (e == CL_SUCCESS) e = clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL);
  if (e != CL_SUCCESS)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "the cl_mem: clGetMemObjectInfo: %s (%d)",
                     gpux_cl_error_name(e), (int)e);
  if (type != CL_MEM_OBJECT_BUFFER)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "the cl_mem is an image, not a buffer");
  if (mctx != b->ctx)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT,
                     "the cl_mem belongs to another OpenCL context than the gpux context's "
                     "(make the gpux context with gpux_opencl_context_create on it)");
  if (bytes > size)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT,
                     "the array needs %llu bytes of the buffer, which has %zu",
                     (unsigned long long)bytes, size);
  e = clRetainMemObject(m);
  if (e != CL_SUCCESS)
    return SET_ERROR(GPUX_ERROR_DRIVER, "clRetainMemObject: %s (%d)", gpux_cl_error_name(e),
                     (int)e);
  *buf = m;
  return GPUX_SUCCESS;
}

static void be_mem_unwrap(gpux__bctx *b, void *buf) {
  (void)b;
  clReleaseMemObject((cl_mem)buf);
}

/* what the families keep in q (its work finished) */
static void queue_release_scratch(gpux__bq *q) {
  for (int f = 0; f < GPUX_CL_FAM_COUNT; f++)
    if (families[f]->queue_release) families[f]->queue_release(q);
}

static void be_context_destroy(gpux__bctx *b) {
  if (!b) return;
  if (b->q0.queue) clFinish(b->q0.queue);
  if (b->touch_queue) clFinish(b->touch_queue);
  queue_release_scratch(&b->q0);
  for (int f = 0; f < GPUX_CL_FAM_COUNT; f++) {
    if (b->fam[f] || !families[f]->state_size) gpux_cl_release_family(b, families[f]);
    free(b->fam[f]);
  }
  if (b->scratch) clReleaseMemObject(b->scratch);
  if (b->touch_queue) clReleaseCommandQueue(b->touch_queue);
  if (b->q0.queue) clReleaseCommandQueue(b->q0.queue);
  if (b->ctx) clReleaseContext(b->ctx);
  pthread_mutex_destroy(&b->touch_lock);
  pthread_mutex_destroy(&b->lock);
  free(b);
}

/* ---------------------------------------------------------------- queues */
static gpux__bq *be_queue_default(gpux__bctx *b) { return &b->q0; }

/* in order, like the default queue, and profiled where it is (timing events on it) */
static gpux_status be_queue_create(gpux__bctx *b, gpux__bq **out) {
  cl_int e;
  gpux__bq *q = calloc(1, sizeof *q);
  if (!q) return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
  q->b = b;
  q->queue = clCreateCommandQueue(b->ctx, b->dev->device,
                                  b->profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &e);
  if (e != CL_SUCCESS) {
    free(q);
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER), "clCreateCommandQueue: %s (%d)",
                     gpux_cl_error_name(e), (int)e);
  }
  *out = q;
  return GPUX_SUCCESS;
}

static void be_queue_destroy(gpux__bq *q) {
  if (!q) return;
  clFinish(q->queue);
  queue_release_scratch(q);
  clReleaseCommandQueue(q->queue);
  free(q);
}

static gpux_status be_queue_native(gpux__bq *q, void **queue) {
  *queue = q->queue;
  return GPUX_SUCCESS;
}

static gpux_status be_synchronize(gpux__bq *q) {
  cl_int e = clFinish(q->queue);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_ASYNC), "clFinish: %s (%d)",
                     gpux_cl_error_name(e), (int)e);
  return GPUX_SUCCESS;
}

/* ---------------------------------------------------------------- memory */
/* OpenCL implementations allocate lazily, at first use, so a buffer the device cannot hold
 * would fail later in an unrelated call. A new buffer from this size on is touched (a 1-byte
 * fill, waited for) on a second queue, which does not wait for the work queued before, so
 * that asking for more than the device has fails here with GPUX_ERROR_OUT_OF_MEMORY and the
 * context stays usable. Smaller buffers are not touched: their rare failure shows at the
 * next launch or synchronization. */
#define GPUX_CL_TOUCH_BYTES ((size_t)32 << 20)

/* Threads may allocate at once: touch_lock keeps one touch at a time on touch_queue, so a
 * touch that fails (out of memory) cannot fail the next one queued behind it. */
static gpux_status be_mem_alloc(gpux__bctx *b, size_t bytes, void **buf) {
  cl_int e;
  cl_event ev = NULL;
  const char *what = "clCreateBuffer";
  const cl_uchar zero = 0;
  /* bytes <= the device's largest allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE): the pool
   * asked for no more */
  cl_mem m = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
  if (e != CL_SUCCESS) goto fail;
  if (bytes >= GPUX_CL_TOUCH_BYTES) {
    cl_int st = CL_COMPLETE;
    what = "clEnqueueFillBuffer(first touch)";
    pthread_mutex_lock(&b->touch_lock);
    e = clEnqueueFillBuffer(b->touch_queue, m, &zero, 1, 0, 1, 0, NULL, &ev);
    if (e == CL_SUCCESS) e = clWaitForEvents(1, &ev);
    pthread_mutex_unlock(&b->touch_lock);
    if (e == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST &&
        clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) ==
            CL_SUCCESS &&
        st < 0)
      e = st;
  }
  if (ev) clReleaseEvent(ev);
  if (e != CL_SUCCESS) goto fail;
  *buf = m;
  return GPUX_SUCCESS;
fail:
  if (m) clReleaseMemObject(m);
  return SET_ERROR(e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES ||
                           e == CL_INVALID_BUFFER_SIZE
                       ? GPUX_ERROR_OUT_OF_MEMORY
                       : gpux_cl_status(e, GPUX_ERROR_DRIVER),
                   "%s(%zu bytes on %s): %s (%d)", what, bytes, b->device_name,
                   gpux_cl_error_name(e), (int)e);
}

static void be_mem_free(gpux__bctx *b, void *buf) {
  (void)b;
  /* queued commands that use it keep it alive until they finish */
  if (buf) clReleaseMemObject((cl_mem)buf);
}

/* clEnqueueWriteBuffer / clEnqueueReadBuffer on q, blocking or not: the transfers and their
 * asynchronous forms */
static gpux_status write_buffer(gpux__bq *q, void *buf, size_t offset, const void *src,
                                size_t bytes, cl_bool blocking) {
  cl_int e = clEnqueueWriteBuffer(q->queue, (cl_mem)buf, blocking, offset, bytes, src, 0, NULL,
                                  NULL);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_ASYNC), "clEnqueueWriteBuffer(%zu bytes): %s (%d)",
                     bytes, gpux_cl_error_name(e), (int)e);
  return GPUX_SUCCESS;
}
static gpux_status read_buffer(gpux__bq *q, void *buf, size_t offset, void *dst, size_t bytes,
                               cl_bool blocking) {
  cl_int e = bytes ? clEnqueueReadBuffer(q->queue, (cl_mem)buf, blocking, offset, bytes, dst, 0,
                                         NULL, NULL)
                   : clFinish(q->queue);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_ASYNC), "clEnqueueReadBuffer(%zu bytes): %s (%d)",
                     bytes, gpux_cl_error_name(e), (int)e);
  return GPUX_SUCCESS;
}

static gpux_status be_mem_upload(gpux__bq *q, void *buf, size_t offset, const void *src,
                                 size_t bytes) {
  return bytes ? write_buffer(q, buf, offset, src, bytes, CL_TRUE) : GPUX_SUCCESS;
}

/* Page-locked memory: a CL_MEM_ALLOC_HOST_PTR buffer (pinned by the implementations that pin
 * anything), mapped for the host for its whole life */
static gpux_status be_host_alloc(gpux__bctx *b, size_t bytes, void **ptr, void **handle) {
  cl_int e;
  cl_mem m = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER),
                     "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR, %zu bytes): %s (%d)", bytes,
                     gpux_cl_error_name(e), (int)e);
  void *p = clEnqueueMapBuffer(b->q0.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                               NULL, NULL, &e);
  if (e != CL_SUCCESS) {
    clReleaseMemObject(m);
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER), "clEnqueueMapBuffer(%zu bytes): %s (%d)",
                     bytes, gpux_cl_error_name(e), (int)e);
  }
  *ptr = p;
  *handle = m;
  return GPUX_SUCCESS;
}
static void be_host_free(gpux__bctx *b, void *ptr, void *handle) {
  cl_event ev = NULL;
  if (clEnqueueUnmapMemObject(b->q0.queue, (cl_mem)handle, ptr, 0, NULL, &ev) == CL_SUCCESS) {
    clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
  }
  clReleaseMemObject((cl_mem)handle);
}
/* the transfers that return once queued (the front end skips empty ones) */
static gpux_status be_mem_upload_async(gpux__bq *q, void *buf, size_t offset, const void *src,
                                       size_t bytes) {
  return write_buffer(q, buf, offset, src, bytes, CL_FALSE);
}
static gpux_status be_mem_download_async(gpux__bq *q, void *buf, size_t offset, void *dst,
                                         size_t bytes) {
  return read_buffer(q, buf, offset, dst, bytes, CL_FALSE);
}

static gpux_status be_mem_download(gpux__bq *q, void *buf, size_t offset, void *dst,
                                   size_t bytes) {
  return read_buffer(q, buf, offset, dst, bytes, CL_TRUE); /* 0 bytes: waits for the queue */
}

static gpux_status be_mem_copy(gpux__bq *q, void *dst, size_t dst_offset, void *src,
                               size_t src_offset, size_t bytes) {
  if (bytes == 0) return GPUX_SUCCESS;
  /* CPU devices: on every core (gpux_cl_copy_range); below 64 KiB the driver's one call */
  if (q->b->copy_kernel && bytes >= ((size_t)64 << 10))
    return gpux_cl_copy_range(q, dst, dst_offset, src, src_offset, bytes);
  cl_int e = clEnqueueCopyBuffer(q->queue, (cl_mem)src, (cl_mem)dst, src_offset, dst_offset, bytes,
                                 0, NULL, NULL);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_LAUNCH), "clEnqueueCopyBuffer(%zu bytes): %s (%d)",
                     bytes, gpux_cl_error_name(e), (int)e);
  return GPUX_SUCCESS;
}

/* ---------------------------------------------------------------- events
 * An event is a cl_event of a marker queued after the work so far. A timing event's
 * CL_PROFILING_COMMAND_END is the device time; where markers carry no timestamps, a timing
 * event is a 1-byte fill of the scratch buffer instead. */
typedef struct gpux_cl_event {
  cl_event ev; /* NULL until recorded */
  int timing;
} gpux_cl_event;

/* timing events only on a profiling context: supports (GPUX__Q_EVENTS) says so first */
static gpux_status be_event_create(gpux__bctx *b, int timing, void **out) {
  (void)b;
  gpux_cl_event *ev = calloc(1, sizeof *ev);
  if (!ev) return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
  ev->timing = timing;
  *out = ev;
  return GPUX_SUCCESS;
}

static void be_event_destroy(gpux__bctx *b, void *p) {
  (void)b;
  gpux_cl_event *ev = p;
  if (!ev) return;
  if (ev->ev) clReleaseEvent(ev->ev);
  free(ev);
}

/* Flushes q too: event_query polls, and some implementations (pocl) run a queue's work only
 * once it is flushed. */
static gpux_status be_event_record(gpux__bq *q, void *p) {
  const gpux__bctx *b = q->b;
  gpux_cl_event *ev = p;
  cl_event e2 = NULL;
  cl_int e;
  const cl_uchar zero = 0;
  const int marker = !ev->timing || b->marker_timing;
  if (marker)
    e = clEnqueueMarkerWithWaitList(q->queue, 0, NULL, &e2);
  else /* all writers write 0: queues may share the scratch byte */
    e = clEnqueueFillBuffer(q->queue, b->scratch, &zero, 1, 0, 1, 0, NULL, &e2);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER), "%s: %s (%d)",
                     marker ? "clEnqueueMarkerWithWaitList" : "clEnqueueFillBuffer",
                     gpux_cl_error_name(e), (int)e);
  if (ev->ev) clReleaseEvent(ev->ev);
  ev->ev = e2;
  e = clFlush(q->queue);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_ASYNC), "clFlush: %s (%d)",
                     gpux_cl_error_name(e), (int)e);
  return GPUX_SUCCESS;
}

static gpux_status wait_event(const gpux_cl_event *ev) {
  cl_int e = clWaitForEvents(1, &ev->ev);
  if (e == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
    cl_int st = 0;
    clGetEventInfo(ev->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (st < 0) e = st;
  }
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_ASYNC), "clWaitForEvents: %s (%d)",
                     gpux_cl_error_name(e), (int)e);
  return GPUX_SUCCESS;
}

static gpux_status be_event_synchronize(gpux__bctx *b, void *p) {
  (void)b;
  const gpux_cl_event *ev = p;
  return ev->ev ? wait_event(ev) : GPUX_SUCCESS;
}

static gpux_status be_event_query(gpux__bctx *b, void *p, int *done) {
  (void)b;
  const gpux_cl_event *ev = p;
  cl_int st = CL_COMPLETE;
  *done = 1;
  if (!ev->ev) return GPUX_SUCCESS;
  cl_int e = clGetEventInfo(ev->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER),
                     "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS): %s (%d)",
                     gpux_cl_error_name(e), (int)e);
  if (st < 0) /* the command, or work before it, failed */
    return SET_ERROR(gpux_cl_status(st, GPUX_ERROR_ASYNC), "event status: %s (%d)",
                     gpux_cl_error_name(st), (int)st);
  *done = st == CL_COMPLETE; /* else queued, submitted or running */
  return GPUX_SUCCESS;
}

static gpux_status be_queue_wait_event(gpux__bq *q, void *p) {
  const gpux_cl_event *ev = p;
  if (!ev->ev) return GPUX_SUCCESS;
  cl_int e = clEnqueueBarrierWithWaitList(q->queue, 1, &ev->ev, NULL);
  if (e != CL_SUCCESS)
    return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER),
                     "clEnqueueBarrierWithWaitList: %s (%d)", gpux_cl_error_name(e), (int)e);
  return GPUX_SUCCESS;
}

static gpux_status be_event_elapsed_ms(gpux__bctx *b, void *start, void *end, double *ms) {
  (void)b;
  const gpux_cl_event *e0 = start, *e1 = end;
  cl_ulong t0 = 0, t1 = 0;
  if (!e0->ev || !e1->ev)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "gpux_event_elapsed_ms: event not recorded");
  gpux_status s = wait_event(e1);
  if (s == GPUX_SUCCESS) s = wait_event(e0);
  if (s != GPUX_SUCCESS) return s;
  cl_int e = clGetEventProfilingInfo(e0->ev, CL_PROFILING_COMMAND_END, sizeof t0, &t0, NULL);
  if (e == CL_SUCCESS)
    e = clGetEventProfilingInfo(e1->ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  if (e != CL_SUCCESS)
    return SET_ERROR(GPUX_ERROR_DRIVER, "clGetEventProfilingInfo(CL_PROFILING_COMMAND_END): %s (%d)",
                     gpux_cl_error_name(e), (int)e);
  *ms = ((double)t1 - (double)t0) * 1e-6;
  return GPUX_SUCCESS;
}

/* Devices without cl_khr_fp64 compute nothing in float64 (fills write its bits through
 * integer kernels); matrix products depend on the dtype and on CLBlast. */
/* the family that answers each GPUX__Q_* query, if one does (filled with the interface) */
static gpux_status (*answer[GPUX__Q_COUNT])(gpux__bctx *b, const gpux__query *q, char *why,
                                            size_t len);

static gpux_status be_supports(gpux__bctx *b, const gpux__query *q, char *why, size_t len) {
  if (!b->dev->fp64 && q->family != GPUX__Q_FILL &&
      (q->dtype == GPUX_KDT_f64 || q->dtype2 == GPUX_KDT_f64)) {
    snprintf(why, len, "float64 needs cl_khr_fp64, which this device lacks");
    return GPUX_ERROR_UNSUPPORTED_DTYPE;
  }
  /* complex128's kernels (fill too: double2) compute in float64 */
  if (!b->dev->fp64 && (q->dtype == GPUX_KDT_c128 || q->dtype2 == GPUX_KDT_c128)) {
    snprintf(why, len, "complex128 needs cl_khr_fp64, which this device lacks");
    return GPUX_ERROR_UNSUPPORTED_DTYPE;
  }
  /* timing events need profiling; streams (GPUX__Q_STREAMS) only ordering events, which
   * every queue has */
  if (q->family == GPUX__Q_EVENTS && !b->profiling) {
    snprintf(why, len, "device events need a command queue with CL_QUEUE_PROFILING_ENABLE, "
             "which the application's queue lacks");
    return GPUX_ERROR_UNSUPPORTED;
  }
  if ((unsigned)q->family < GPUX__Q_COUNT && answer[q->family])
    return answer[q->family](b, q, why, len);
  if (q->family == GPUX__Q_PROGRAM && q->op == GPUX__LANG_CUDA) {
    snprintf(why, len, "a CUDA source (GPUX_SOURCE_CUDA) cannot be built on the OpenCL backend; "
             "write the kernel in the gpux dialect (GPUX_SOURCE_DIALECT), which both backends "
             "take, or in OpenCL C");
    return GPUX_ERROR_UNSUPPORTED;
  }
  return GPUX_SUCCESS;
}

/* ---------------------------------------------------------------- entry */
static const gpux__backend_iface be_iface_core = {
    .abi_version = GPUX_BACKEND_ABI_VERSION,
    .name = "opencl",
    .supports = be_supports,
    .init = be_init,
    .device_count = be_device_count,
    .device_info = be_device_info,
    .context_create = be_context_create,
    .context_destroy = be_context_destroy,
    .queue_default = be_queue_default,
    .queue_create = be_queue_create,
    .queue_destroy = be_queue_destroy,
    .synchronize = be_synchronize,
    .mem_alloc = be_mem_alloc,
    .mem_free = be_mem_free,
    .mem_upload = be_mem_upload,
    .mem_download = be_mem_download,
    .mem_copy = be_mem_copy,
    /* the kernel families' entries: gpux_opencl_backend_entry installs them */
    .program_build = gpux_cl_program_build,
    .program_release = gpux_cl_program_release,
    .kernel_create = gpux_cl_kernel_create,
    .kernel_release = gpux_cl_kernel_release,
    .kernel_launch = gpux_cl_kernel_launch,
    .host_alloc = be_host_alloc,
    .host_free = be_host_free,
    .mem_upload_async = be_mem_upload_async,
    .mem_download_async = be_mem_download_async,
    .native_get = be_native_get,
    .queue_native = be_queue_native,
    .context_adopt = be_context_adopt,
    .mem_wrap = be_mem_wrap,
    .mem_unwrap = be_mem_unwrap,
    .event_create = be_event_create,
    .event_destroy = be_event_destroy,
    .event_record = be_event_record,
    .event_synchronize = be_event_synchronize,
    .event_query = be_event_query,
    .queue_wait_event = be_queue_wait_event,
    .event_elapsed_ms = be_event_elapsed_ms,
};

__attribute__((visibility("default"))) const gpux__backend_iface *gpux_opencl_backend_entry(
    const gpux__host_iface *host) {
  if (!host || host->abi_version != GPUX_BACKEND_ABI_VERSION) return NULL;
  static gpux__backend_iface it; /* the core entries and each family's (called once, under
                                    the core's lock) */
  gpux_cl_host = host;
  it = be_iface_core;
  for (int f = 0; f < GPUX_CL_FAM_COUNT; f++) {
    families[f]->install(&it);
    if (families[f]->supports && !answer[families[f]->query])
      answer[families[f]->query] = families[f]->supports;
  }
  return &it;
}
