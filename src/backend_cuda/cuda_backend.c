/* gpux CUDA backend: driver start-up, devices, contexts, memory and events, and the
 * module's one exported symbol, gpux_cuda_backend_entry.
 *
 * Every driver call runs with the gpux context's CUDA context current: each entry point
 * makes it current on a thread that has none, or pushes it over another thread's current
 * context and pops it on the way out, so any host thread may use a context. The CUDA
 * context is the device's primary context (shared with the CUDA runtime, cuBLAS and the
 * host application). Each gpux context has a default queue, a non-blocking stream on it
 * (an adopted context: the application's stream), and may have more (queue_create): each
 * queue runs its work in order on its own stream, with scratch of its own, and queues are
 * ordered among themselves only by events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"

/* cuInit's outcome: CUDA_ERROR_NO_DEVICE leaves a usable backend with zero devices. */
static int gpux_cuda_initialized;
static CUresult gpux_cuda_init_result;

static gpux_status gpux_cuda_init(void) {
  gpux_status s;
  CUresult r;

  if (gpux_cuda_initialized) return GPUX_SUCCESS;
  s = gpux_cuda_load_driver();
  if (s != GPUX_SUCCESS) return s;
  r = gpux_cuda_drv.Init(0);
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_NO_DEVICE) {
    /* e.g. CUDA_ERROR_INSUFFICIENT_DRIVER, CUDA_ERROR_NOT_INITIALIZED, ... */
    s = gpux_cuda_error(GPUX_ERROR_BACKEND_UNAVAILABLE, r, "cuInit");
    gpux_cuda_unload_driver();
    return s;
  }
  gpux_cuda_init_result = r;
  gpux_cuda_initialized = 1;
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_device_count(int *count) {
  CUresult r;
  *count = 0;
  if (gpux_cuda_init_result == CUDA_ERROR_NO_DEVICE)
    return gpux_cuda_error(GPUX_ERROR_NO_DEVICE, gpux_cuda_init_result, "cuInit");
  r = gpux_cuda_drv.DeviceGetCount(count);
  if (r != CUDA_SUCCESS) {
    *count = 0;
    return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuDeviceGetCount");
  }
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_device_get(int index, CUdevice *dev) {
  int count = 0;
  gpux_status s = gpux_cuda_device_count(&count);
  CUresult r;
  if (s != GPUX_SUCCESS) return s;
  if (index < 0 || index >= count)
    return gpux_cuda_host->set_error(GPUX_ERROR_INVALID_DEVICE,
                                     "CUDA device %d requested, %d present", index, count);
  r = gpux_cuda_drv.DeviceGet(dev, index);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuDeviceGet(%d)", index);
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_device_info(int index, gpux__devinfo *info) {
  gpux_status s;
  CUresult r;
  CUdevice dev;
  int major = 0, minor = 0, mps = 0, drv = 0;
  size_t total = 0;

  memset(info, 0, sizeof *info);
  s = gpux_cuda_device_get(index, &dev);
  if (s != GPUX_SUCCESS) return s;
  info->backend = GPUX_BACKEND_CUDA;
  info->index = index;
  r = gpux_cuda_drv.DeviceGetName(info->name, (int)sizeof info->name, dev);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuDeviceGetName");
  info->name[sizeof info->name - 1] = '\0';
  r = gpux_cuda_drv.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  if (r == CUDA_SUCCESS)
    r = gpux_cuda_drv.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                         dev);
  if (r == CUDA_SUCCESS)
    r = gpux_cuda_drv.DeviceGetAttribute(&mps, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuDeviceGetAttribute");
  r = gpux_cuda_drv.DeviceTotalMem(&total, dev);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuDeviceTotalMem");
  r = gpux_cuda_drv.DriverGetVersion(&drv);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuDriverGetVersion");

  snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
  snprintf(info->platform, sizeof info->platform, "CUDA");
  snprintf(info->driver_version, sizeof info->driver_version, "%d.%d", drv / 1000,
           (drv % 1000) / 10);
  snprintf(info->version, sizeof info->version, "sm_%d%d", major, minor);
  info->global_mem_bytes = (uint64_t)total;
  info->max_alloc_bytes = (uint64_t)total;
  info->compute_units = mps;
  info->fp64 = 1;
  info->is_gpu = 1;
  return GPUX_SUCCESS;
}

/* The kernel families (GPUX__KERNEL_FAMILIES), set up with the context in this order and
 * unloaded in reverse. Each module is loaded on the first launch of one of its kernels
 * (gpux_cuda_resolve): a context loads only the copy family's, as a probe that the device
 * can run the fatbins (gpux_cuda_context_create), and resolves no kernel until it runs
 * something, and then only those of the kernels it runs. */
static const struct {
  const gpux_cuda_family *fam;
  const unsigned char *fatbin; /* embedded (cmake/embed.cmake); the x86-64 and AArch64 ABIs
                                  align arrays of 16 bytes or more to 16, as fatbins need */
  const char *what;
} gpux_cuda_families[GPUX_CUDA_FAM_COUNT] = {
#define GPUX_CUDA_FAM_ROW(f) {&gpux_cuda_fam_##f, gpux_cuda_fatbin_##f, #f ".fatbin"},
    GPUX__KERNEL_FAMILIES(GPUX_CUDA_FAM_ROW)
#undef GPUX_CUDA_FAM_ROW
};

static gpux_status gpux_cuda_init_families(gpux__bctx *b) {
  for (int f = 0; f < GPUX_CUDA_FAM_COUNT; f++) {
    const gpux_cuda_family *fam = gpux_cuda_families[f].fam;
    if (fam->state_size && !(b->fam[f] = calloc(1, fam->state_size)))
      return gpux_cuda_host->set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "CUDA %s state",
                                       gpux_cuda_families[f].what);
    gpux_status s = fam->init ? fam->init(b) : GPUX_SUCCESS;
    if (s != GPUX_SUCCESS) return s;
  }
  return GPUX_SUCCESS;
}

/* context current, every queue idle; only the modules that were loaded are unloaded */
static void gpux_cuda_unload_families(gpux__bctx *b) {
  for (int f = GPUX_CUDA_FAM_COUNT; f-- > 0;) {
    const gpux_cuda_family *fam = gpux_cuda_families[f].fam;
    if (fam->unload) fam->unload(b);
    if (b->mod[f]) (void)gpux_cuda_drv.ModuleUnload(b->mod[f]);
    b->mod[f] = NULL;
    free(b->fam[f]);
    b->fam[f] = NULL;
  }
}

gpux_status gpux_cuda_resolve(gpux__bctx *b, int fam, CUfunction *slot, const char *name,
                              gpux_cuda_kernel_init init, int i, int j, CUfunction *f) {
  gpux_status s = GPUX_SUCCESS;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(b, &pushed);
  *f = NULL;
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  pthread_mutex_lock(&b->load_lock);
  /* slots and modules are written only under this lock: read again, another thread may
   * have resolved this kernel while this one waited */
  CUfunction k = *slot;
  if (!k) {
    if (!b->mod[fam])
      s = gpux_cuda_module_load(&b->mod[fam], gpux_cuda_families[fam].fatbin,
                                gpux_cuda_families[fam].what);
    if (s == GPUX_SUCCESS) s = gpux_cuda_get_function(b->mod[fam], name, &k);
    if (s == GPUX_SUCCESS) {
      if (init) init(b, k, i, j);
      __atomic_store_n(slot, k, __ATOMIC_RELEASE); /* after init's writes */
    }
  }
  pthread_mutex_unlock(&b->load_lock);
  gpux_cuda_leave(pushed);
  *f = k;
  return s;
}

/* Frees q's scratch: each family's, then the host-result buffer (context current, q's
 * stream idle). */
static void gpux_cuda_queue_release(gpux__bq *q) {
  for (int f = GPUX_CUDA_FAM_COUNT; f-- > 0;) {
    const gpux_cuda_family *fam = gpux_cuda_families[f].fam;
    if (fam->queue_release) fam->queue_release(q);
  }
  if (q->result_host) (void)gpux_cuda_drv.MemFreeHost(q->result_host);
  q->result_host = NULL;
  q->result_dev = 0;
}

/* A zeroed context state with its lock; NULL when out of host memory. */
static gpux__bctx *gpux_cuda_bctx_new(void) {
  gpux__bctx *b = (gpux__bctx *)calloc(1, sizeof *b);
  if (!b) return NULL;
  if (pthread_mutex_init(&b->lock, NULL) != 0) {
    free(b);
    return NULL;
  }
  if (pthread_mutex_init(&b->load_lock, NULL) != 0) {
    pthread_mutex_destroy(&b->lock);
    free(b);
    return NULL;
  }
  b->q0.b = b;
  return b;
}

static void gpux_cuda_bctx_free(gpux__bctx *b) {
  pthread_mutex_destroy(&b->load_lock);
  pthread_mutex_destroy(&b->lock);
  free(b);
}

static gpux_status gpux_cuda_context_create(int index, gpux__bctx **out) {
  gpux_status s = GPUX_SUCCESS;
  gpux__bctx *b = NULL;
  CUresult r;
  int pushed = 0, entered = 0;

  *out = NULL;
  b = gpux_cuda_bctx_new();
  if (!b) return gpux_cuda_host->set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "CUDA context state");
  b->index = index;
  s = gpux_cuda_device_get(index, &b->dev);
  if (s != GPUX_SUCCESS) goto cleanup;
  r = gpux_cuda_drv.DevicePrimaryCtxRetain(&b->ctx, b->dev);
  if (r != CUDA_SUCCESS) {
    b->ctx = NULL;
    s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuDevicePrimaryCtxRetain(device %d)", index);
    goto cleanup;
  }
  r = gpux_cuda_enter(b, &pushed);
  if (r != CUDA_SUCCESS) {
    s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
    goto cleanup;
  }
  entered = 1;
  r = gpux_cuda_drv.StreamCreate(&b->q0.stream, CU_STREAM_NON_BLOCKING);
  if (r != CUDA_SUCCESS) {
    b->q0.stream = NULL;
    s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuStreamCreate");
    goto cleanup;
  }
  s = gpux_cuda_init_families(b);
  if (s != GPUX_SUCCESS) goto cleanup;
  /* Load one module now, the small copy family's (which most programs use), as a probe: a
   * device the fatbins have no code for (an older architecture, or a driver too old for
   * their PTX) fails here, where GPUX_BACKEND=auto can still move on to OpenCL, rather than
   * at a first launch. */
  s = gpux_cuda_module_load(&b->mod[GPUX_CUDA_FAM_copy],
                            gpux_cuda_families[GPUX_CUDA_FAM_copy].fatbin,
                            gpux_cuda_families[GPUX_CUDA_FAM_copy].what);
  if (s != GPUX_SUCCESS) goto cleanup;
  *out = b;
  b = NULL;

cleanup:
  if (b) {
    if (entered) {
      gpux_cuda_unload_families(b);
      if (b->q0.stream) (void)gpux_cuda_drv.StreamDestroy(b->q0.stream);
    }
    if (b->ctx) (void)gpux_cuda_drv.DevicePrimaryCtxRelease(b->dev);
    gpux_cuda_bctx_free(b);
  }
  gpux_cuda_leave(pushed);
  return s;
}

static void gpux_cuda_context_destroy(gpux__bctx *b) {
  int pushed = 0;
  if (!b) return;
  if (gpux_cuda_enter(b, &pushed) == CUDA_SUCCESS) {
    (void)gpux_cuda_drv.StreamSynchronize(b->q0.stream);
    gpux_cuda_queue_release(&b->q0);
    gpux_cuda_unload_families(b);
    if (!b->adopted) (void)gpux_cuda_drv.StreamDestroy(b->q0.stream);
    gpux_cuda_leave(pushed);
  }
  if (!b->adopted) (void)gpux_cuda_drv.DevicePrimaryCtxRelease(b->dev);
  gpux_cuda_bctx_free(b);
}

/* ---- queues --------------------------------------------------------------------------- */
static gpux__bq *gpux_cuda_queue_default(gpux__bctx *b) { return &b->q0; }

static gpux_status gpux_cuda_queue_create(gpux__bctx *b, gpux__bq **out) {
  int pushed = 0;
  CUresult r;
  gpux__bq *q = (gpux__bq *)calloc(1, sizeof *q);
  *out = NULL;
  if (!q) return gpux_cuda_host->set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "CUDA queue state");
  q->b = b;
  r = gpux_cuda_enter(b, &pushed);
  if (r != CUDA_SUCCESS) {
    free(q);
    return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  }
  r = gpux_cuda_drv.StreamCreate(&q->stream, CU_STREAM_NON_BLOCKING);
  gpux_cuda_leave(pushed);
  if (r != CUDA_SUCCESS) {
    free(q);
    return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuStreamCreate");
  }
  pthread_mutex_lock(&b->lock);
  q->next = b->q0.next;
  b->q0.next = q;
  pthread_mutex_unlock(&b->lock);
  *out = q;
  return GPUX_SUCCESS;
}

static void gpux_cuda_queue_destroy(gpux__bq *q) {
  gpux__bctx *b;
  int pushed = 0, entered;
  if (!q) return;
  b = q->b;
  entered = gpux_cuda_enter(b, &pushed) == CUDA_SUCCESS;
  /* idle before it leaves the list, so gpux_cuda_sync_all never misses work of q's */
  if (entered) (void)gpux_cuda_drv.StreamSynchronize(q->stream);
  pthread_mutex_lock(&b->lock);
  for (gpux__bq **p = &b->q0.next; *p; p = &(*p)->next)
    if (*p == q) {
      *p = q->next;
      break;
    }
  pthread_mutex_unlock(&b->lock);
  if (entered) {
    gpux_cuda_queue_release(q);
    (void)gpux_cuda_drv.StreamDestroy(q->stream);
    gpux_cuda_leave(pushed);
  }
  free(q);
}

/* Under the lock, so that a queue does not go while it is waited for. */
void gpux_cuda_sync_all(gpux__bctx *b) {
  pthread_mutex_lock(&b->lock);
  for (gpux__bq *q = &b->q0; q; q = q->next) (void)gpux_cuda_drv.StreamSynchronize(q->stream);
  pthread_mutex_unlock(&b->lock);
}

static gpux_status gpux_cuda_queue_native(gpux__bq *q, void **queue) {
  *queue = (void *)q->stream;
  return GPUX_SUCCESS;
}

/* ---- interop -------------------------------------------------------------------------- */
/* A context on the application's CUDA context and stream: the device is the context's. */
static gpux_status gpux_cuda_context_adopt(const gpux__native *n, gpux__bctx **out, int *device) {
  gpux_status s = GPUX_SUCCESS;
  int count = 0, pushed = 0;
  *out = NULL;
  s = gpux_cuda_device_count(&count);
  if (s != GPUX_SUCCESS) return s;
  gpux__bctx *b = gpux_cuda_bctx_new();
  if (!b) return gpux_cuda_host->set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "CUDA context state");
  b->ctx = (CUcontext)n->context;
  b->q0.stream = (CUstream)n->queue;
  b->adopted = 1;
  CUresult r = gpux_cuda_enter(b, &pushed);
  if (r != CUDA_SUCCESS) {
    gpux_cuda_bctx_free(b);
    return gpux_cuda_error(GPUX_ERROR_INVALID_ARGUMENT, r,
                           "cuCtxPushCurrent (the application's CUDA context)");
  }
  r = gpux_cuda_drv.CtxGetDevice(&b->dev);
  if (r != CUDA_SUCCESS) {
    s = gpux_cuda_error(GPUX_ERROR_INVALID_ARGUMENT, r, "cuCtxGetDevice (the application's CUDA context)");
  } else if ((int)b->dev < 0 || (int)b->dev >= count) {
    s = gpux_cuda_host->set_error(GPUX_ERROR_INVALID_ARGUMENT,
                                  "the CUDA context's device %d is not one of the %d devices",
                                  (int)b->dev, count);
  }
  b->index = (int)b->dev;
  if (s == GPUX_SUCCESS) s = gpux_cuda_init_families(b);
  if (s != GPUX_SUCCESS) {
    gpux_cuda_unload_families(b);
    gpux_cuda_leave(pushed);
    gpux_cuda_bctx_free(b);
    return s;
  }
  gpux_cuda_leave(pushed);
  *device = b->index;
  *out = b;
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_native_get(gpux__bctx *b, gpux__native *out) {
  out->context = b->ctx;
  out->device = NULL;
  out->ordinal = (int)b->dev;
  out->queue = b->q0.stream;
  return GPUX_SUCCESS;
}

/* The application's device memory: an address the driver knows (cuMemAlloc,
 * cuMemAllocManaged, mapped cuMemHostAlloc memory), of this context, with `bytes` bytes
 * from it inside its allocation. Asked with cuPointerGetAttributes, which succeeds (with
 * memory type 0) on addresses the driver does not know. */
static gpux_status gpux_cuda_mem_wrap(gpux__bctx *b, void *native, uint64_t bytes, void **buf) {
  const CUdeviceptr p = (CUdeviceptr)(uintptr_t)native;
  unsigned int type = 0;
  CUcontext owner = NULL;
  CUdeviceptr start = 0;
  size_t size = 0;
  CUpointer_attribute attrs[4] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_CONTEXT,
                                  CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                  CU_POINTER_ATTRIBUTE_RANGE_SIZE};
  void *data[4] = {&type, &owner, &start, &size};
  int pushed = 0;
  CUresult r = gpux_cuda_enter(b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.PointerGetAttributes(4, attrs, data, p);
  gpux_cuda_leave(pushed);
  if (r != CUDA_SUCCESS)
    return gpux_cuda_error(GPUX_ERROR_INVALID_ARGUMENT, r, "cuPointerGetAttributes(0x%llx)",
                           (unsigned long long)p);
  if (type == 0)
    return gpux_cuda_host->set_error(
        GPUX_ERROR_INVALID_ARGUMENT,
        "0x%llx is no memory the CUDA driver knows (cuMemAlloc, cuMemAllocManaged, "
        "cuMemHostAlloc)",
        (unsigned long long)p);
  if (owner && owner != b->ctx)
    return gpux_cuda_host->set_error(GPUX_ERROR_INVALID_ARGUMENT,
                                     "0x%llx belongs to another CUDA context than the gpux "
                                     "context's (make it with gpux_cuda_context_create on it)",
                                     (unsigned long long)p);
  if (size && (p < start || bytes > size - (p - start)))
    return gpux_cuda_host->set_error(
        GPUX_ERROR_INVALID_ARGUMENT,
        "the array needs %llu bytes from 0x%llx; its allocation ends %llu bytes after it",
        (unsigned long long)bytes, (unsigned long long)p,
        (unsigned long long)(p >= start && p - start <= size ? size - (p - start) : 0));
  *buf = native;
  return GPUX_SUCCESS;
}

static void gpux_cuda_mem_unwrap(gpux__bctx *b, void *buf) {
  (void)b;
  (void)buf; /* the application's memory: nothing of gpux's to drop */
}

static gpux_status gpux_cuda_synchronize(gpux__bq *q) {
  gpux_status s = GPUX_SUCCESS;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.StreamSynchronize(q->stream);
  if (r != CUDA_SUCCESS) {
    s = gpux_cuda_error(GPUX_ERROR_ASYNC, r, "cuStreamSynchronize");
  }
  gpux_cuda_leave(pushed);
  return s;
}

/* ---- memory --------------------------------------------------------------------------- */
static CUdeviceptr gpux_cuda_dptr(void *buf, size_t offset_bytes) {
  return (CUdeviceptr)(uintptr_t)buf + (CUdeviceptr)offset_bytes;
}

static gpux_status gpux_cuda_mem_alloc(gpux__bctx *b, size_t bytes, void **buf) {
  gpux_status s = GPUX_SUCCESS;
  CUdeviceptr p = 0;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(b, &pushed);
  *buf = NULL;
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.MemAlloc(&p, bytes ? bytes : 1);
  if (r == CUDA_SUCCESS) *buf = (void *)(uintptr_t)p;
  else s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuMemAlloc(%zu bytes)", bytes);
  gpux_cuda_leave(pushed);
  return s;
}

static void gpux_cuda_mem_free(gpux__bctx *b, void *buf) {
  int pushed = 0;
  if (!buf) return;
  if (gpux_cuda_enter(b, &pushed) != CUDA_SUCCESS) return;
  (void)gpux_cuda_drv.MemFree((CUdeviceptr)(uintptr_t)buf);
  gpux_cuda_leave(pushed);
}

/* Host -> device on q's stream. From pageable memory the driver stages the source before
 * cuMemcpyHtoDAsync returns (it may wait for the stream to do so), so the caller may reuse
 * it at once. Page-locked (registered / cuMemHostAlloc) sources are read later by the DMA
 * engine, so for those this waits for the copy. */
static gpux_status gpux_cuda_mem_upload(gpux__bq *q, void *buf, size_t offset_bytes,
                                        const void *src, size_t bytes) {
  gpux_status s = GPUX_SUCCESS;
  unsigned int mem_type = 0;
  int pushed = 0, pinned;
  CUresult r;
  if (bytes == 0) return GPUX_SUCCESS;
  r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  /* page-locked memory the driver knows is copied asynchronously, so the upload waits for it
   * (the caller may reuse the buffer on return); cuPointerGetAttributes, unlike the singular
   * call, succeeds with memory type 0 on pageable memory instead of failing (a failing call
   * would show in the user's compute-sanitizer reports) */
  CUpointer_attribute attr = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  void *data = &mem_type;
  r = gpux_cuda_drv.PointerGetAttributes(1, &attr, &data, (CUdeviceptr)(uintptr_t)src);
  pinned = r != CUDA_SUCCESS || mem_type != 0; /* unknown: wait, as for pinned memory */
  r = gpux_cuda_drv.MemcpyHtoDAsync(gpux_cuda_dptr(buf, offset_bytes), src, bytes, q->stream);
  if (r != CUDA_SUCCESS) {
    s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuMemcpyHtoDAsync(%zu bytes)", bytes);
    goto cleanup;
  }
  if (pinned) {
    r = gpux_cuda_drv.StreamSynchronize(q->stream);
    if (r != CUDA_SUCCESS) {
      s = gpux_cuda_error(GPUX_ERROR_ASYNC, r, "cuStreamSynchronize (after upload)");
    }
  }
cleanup:
  gpux_cuda_leave(pushed);
  return s;
}

static gpux_status gpux_cuda_mem_download(gpux__bq *q, void *buf, size_t offset_bytes,
                                          void *dst, size_t bytes) {
  gpux_status s = GPUX_SUCCESS;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  if (bytes) {
    r = gpux_cuda_drv.MemcpyDtoHAsync(dst, gpux_cuda_dptr(buf, offset_bytes), bytes, q->stream);
    if (r != CUDA_SUCCESS) {
      s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuMemcpyDtoHAsync(%zu bytes)", bytes);
      goto cleanup;
    }
  }
  r = gpux_cuda_drv.StreamSynchronize(q->stream);
  if (r != CUDA_SUCCESS) {
    s = gpux_cuda_error(GPUX_ERROR_ASYNC, r, "cuStreamSynchronize (download)");
  }
cleanup:
  gpux_cuda_leave(pushed);
  return s;
}

/* Page-locked memory every context can copy from and to at full speed (portable) */
static gpux_status gpux_cuda_host_alloc(gpux__bctx *b, size_t bytes, void **ptr, void **handle) {
  int pushed = 0;
  void *p = NULL;
  CUresult r = gpux_cuda_enter(b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.MemHostAlloc(&p, bytes, CU_MEMHOSTALLOC_PORTABLE);
  gpux_cuda_leave(pushed);
  if (r != CUDA_SUCCESS)
    return gpux_cuda_error(r == CUDA_ERROR_OUT_OF_MEMORY ? GPUX_ERROR_OUT_OF_HOST_MEMORY
                                                         : GPUX_ERROR_DRIVER,
                           r, "cuMemHostAlloc(%zu bytes)", bytes);
  *ptr = p;
  *handle = NULL;
  return GPUX_SUCCESS;
}

static void gpux_cuda_host_free(gpux__bctx *b, void *ptr, void *handle) {
  int pushed = 0;
  (void)handle;
  if (gpux_cuda_enter(b, &pushed) != CUDA_SUCCESS) return;
  (void)gpux_cuda_drv.MemFreeHost(ptr);
  gpux_cuda_leave(pushed);
}

/* cuPointerGetAttributes answers memory type 0 for pageable memory without failing (the
 * singular call fails, which the user's compute-sanitizer would report) */
static gpux_status gpux_cuda_host_pinned(gpux__bctx *b, const void *p, int *pinned) {
  int pushed = 0;
  unsigned int mem_type = 0;
  CUpointer_attribute attr = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  void *data = &mem_type;
  *pinned = 0;
  CUresult r = gpux_cuda_enter(b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.PointerGetAttributes(1, &attr, &data, (CUdeviceptr)(uintptr_t)p);
  gpux_cuda_leave(pushed);
  *pinned = r == CUDA_SUCCESS && mem_type == CU_MEMORYTYPE_HOST;
  return GPUX_SUCCESS;
}

/* Transfers that return once queued on q's stream (from pageable memory the driver may
 * stage or copy before returning) */
static gpux_status gpux_cuda_mem_upload_async(gpux__bq *q, void *buf, size_t offset_bytes,
                                              const void *src, size_t bytes) {
  int pushed = 0;
  CUresult r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.MemcpyHtoDAsync(gpux_cuda_dptr(buf, offset_bytes), src, bytes, q->stream);
  gpux_cuda_leave(pushed);
  if (r != CUDA_SUCCESS)
    return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuMemcpyHtoDAsync(%zu bytes)", bytes);
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_mem_download_async(gpux__bq *q, void *buf, size_t offset_bytes,
                                                void *dst, size_t bytes) {
  int pushed = 0;
  CUresult r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.MemcpyDtoHAsync(dst, gpux_cuda_dptr(buf, offset_bytes), bytes, q->stream);
  gpux_cuda_leave(pushed);
  if (r != CUDA_SUCCESS)
    return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuMemcpyDtoHAsync(%zu bytes)", bytes);
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_host_result(gpux__bq *q, size_t bytes, void **buf, void **host) {
  int pushed = 0;
  CUresult r;
  if (bytes > GPUX_CUDA_RESULT_BYTES)
    return gpux_cuda_host->set_error(GPUX_ERROR_UNSUPPORTED, "cuda: host result of %zu bytes",
                                     bytes);
  if (!q->result_host) {
    void *h = NULL;
    CUdeviceptr d = 0;
    r = gpux_cuda_enter(q->b, &pushed);
    if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
    r = gpux_cuda_drv.MemHostAlloc(&h, GPUX_CUDA_RESULT_BYTES, CU_MEMHOSTALLOC_DEVICEMAP);
    if (r == CUDA_SUCCESS) {
      r = gpux_cuda_drv.MemHostGetDevicePointer(&d, h, 0);
      if (r != CUDA_SUCCESS) (void)gpux_cuda_drv.MemFreeHost(h);
    }
    gpux_cuda_leave(pushed);
    if (r != CUDA_SUCCESS)
      return gpux_cuda_error(GPUX_ERROR_UNSUPPORTED, r, "cuMemHostAlloc(DEVICEMAP) for results");
    q->result_host = h;
    q->result_dev = d;
  }
  *buf = (void *)(uintptr_t)q->result_dev;
  *host = q->result_host;
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_mem_copy(gpux__bq *q, void *dst, size_t dst_offset_bytes,
                                      void *src, size_t src_offset_bytes, size_t bytes) {
  gpux_status s = GPUX_SUCCESS;
  int pushed = 0;
  CUresult r;
  if (bytes == 0) return GPUX_SUCCESS;
  r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.MemcpyDtoDAsync(gpux_cuda_dptr(dst, dst_offset_bytes),
                                    gpux_cuda_dptr(src, src_offset_bytes), bytes, q->stream);
  if (r != CUDA_SUCCESS)
    s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuMemcpyDtoDAsync(%zu bytes)", bytes);
  gpux_cuda_leave(pushed);
  return s;
}

/* ---- events --------------------------------------------------------------------------- */
/* timing 0: CU_EVENT_DISABLE_TIMING, which makes records and waits cheaper */
static gpux_status gpux_cuda_event_create(gpux__bctx *b, int timing, void **ev) {
  gpux_status s = GPUX_SUCCESS;
  CUevent e = NULL;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(b, &pushed);
  *ev = NULL;
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.EventCreate(&e, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING);
  if (r == CUDA_SUCCESS) *ev = (void *)e;
  else s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuEventCreate");
  gpux_cuda_leave(pushed);
  return s;
}

static void gpux_cuda_event_destroy(gpux__bctx *b, void *ev) {
  int pushed = 0;
  if (!ev) return;
  if (gpux_cuda_enter(b, &pushed) != CUDA_SUCCESS) return;
  (void)gpux_cuda_drv.EventDestroy((CUevent)ev);
  gpux_cuda_leave(pushed);
}

static gpux_status gpux_cuda_event_record(gpux__bq *q, void *ev) {
  gpux_status s = GPUX_SUCCESS;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.EventRecord((CUevent)ev, q->stream);
  if (r != CUDA_SUCCESS) s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuEventRecord");
  gpux_cuda_leave(pushed);
  return s;
}

static gpux_status gpux_cuda_event_synchronize(gpux__bctx *b, void *ev) {
  gpux_status s = GPUX_SUCCESS;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.EventSynchronize((CUevent)ev);
  if (r != CUDA_SUCCESS) {
    s = gpux_cuda_error(GPUX_ERROR_ASYNC, r, "cuEventSynchronize");
  }
  gpux_cuda_leave(pushed);
  return s;
}

/* cuEventQuery: CUDA_SUCCESS also for an event never recorded; CUDA_ERROR_NOT_READY is an
 * answer (work before the event runs), not an error */
static gpux_status gpux_cuda_event_query(gpux__bctx *b, void *ev, int *done) {
  gpux_status s = GPUX_SUCCESS;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(b, &pushed);
  *done = 0;
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.EventQuery((CUevent)ev);
  if (r == CUDA_SUCCESS) *done = 1;
  else if (r != CUDA_ERROR_NOT_READY) s = gpux_cuda_error(GPUX_ERROR_ASYNC, r, "cuEventQuery");
  gpux_cuda_leave(pushed);
  return s;
}

static gpux_status gpux_cuda_queue_wait_event(gpux__bq *q, void *ev) {
  gpux_status s = GPUX_SUCCESS;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.StreamWaitEvent(q->stream, (CUevent)ev, 0);
  if (r != CUDA_SUCCESS) s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuStreamWaitEvent");
  gpux_cuda_leave(pushed);
  return s;
}

static gpux_status gpux_cuda_event_elapsed_ms(gpux__bctx *b, void *start, void *end,
                                              double *ms) {
  gpux_status s = GPUX_SUCCESS;
  float f = 0.0f;
  int pushed = 0;
  CUresult r = gpux_cuda_enter(b, &pushed);
  *ms = 0.0;
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_drv.EventSynchronize((CUevent)end);
  if (r != CUDA_SUCCESS) {
    s = gpux_cuda_error(GPUX_ERROR_ASYNC, r, "cuEventSynchronize");
    goto cleanup;
  }
  r = gpux_cuda_drv.EventElapsedTime(&f, (CUevent)start, (CUevent)end);
  if (r != CUDA_SUCCESS) {
    /* CUDA_ERROR_INVALID_HANDLE: an event was never recorded */
    s = gpux_cuda_error(GPUX_ERROR_INVALID_ARGUMENT, r, "cuEventElapsedTime");
    goto cleanup;
  }
  *ms = (double)f;
cleanup:
  gpux_cuda_leave(pushed);
  return s;
}

/* ---- the interface -------------------------------------------------------------------- */
/* Every CUDA device runs every op of the interface for every dtype the front end passes,
 * float64 included, and has timing events and several queues (streams); matrix products
 * depend on the dtype and on cuBLAS. */
/* the family that answers each GPUX__Q_* query, if one does (filled with the interface) */
static gpux_status (*gpux_cuda_answer[GPUX__Q_COUNT])(gpux__bctx *b, const gpux__query *q,
                                                      char *why, size_t len);

static gpux_status gpux_cuda_supports(gpux__bctx *b, const gpux__query *q, char *why, size_t len) {
  if ((unsigned)q->family < GPUX__Q_COUNT && gpux_cuda_answer[q->family])
    return gpux_cuda_answer[q->family](b, q, why, len);
  if (q->family == GPUX__Q_PROGRAM && q->op == GPUX__LANG_OPENCL) {
    snprintf(why, len, "an OpenCL C source cannot be built on the CUDA backend: use "
             "GPUX_SOURCE_DIALECT (runs on both backends) or GPUX_SOURCE_CUDA");
    return GPUX_ERROR_UNSUPPORTED;
  }
  return GPUX_SUCCESS;
}

static const gpux__backend_iface gpux_cuda_iface_core = {
    .abi_version = GPUX_BACKEND_ABI_VERSION,
    .name = "cuda",
    .supports = gpux_cuda_supports,
    .init = gpux_cuda_init,
    .device_count = gpux_cuda_device_count,
    .device_info = gpux_cuda_device_info,
    .context_create = gpux_cuda_context_create,
    .context_destroy = gpux_cuda_context_destroy,
    .queue_default = gpux_cuda_queue_default,
    .queue_create = gpux_cuda_queue_create,
    .queue_destroy = gpux_cuda_queue_destroy,
    .synchronize = gpux_cuda_synchronize,
    .mem_alloc = gpux_cuda_mem_alloc,
    .mem_free = gpux_cuda_mem_free,
    .mem_upload = gpux_cuda_mem_upload,
    .mem_download = gpux_cuda_mem_download,
    .host_result = gpux_cuda_host_result,
    .mem_copy = gpux_cuda_mem_copy,
    /* the kernel families' entries: gpux_cuda_backend_entry installs them */
    .program_build = gpux_cuda_program_build,
    .program_release = gpux_cuda_program_release,
    .kernel_create = gpux_cuda_kernel_create,
    .kernel_release = gpux_cuda_kernel_release,
    .kernel_launch = gpux_cuda_kernel_launch,
    .host_alloc = gpux_cuda_host_alloc,
    .host_free = gpux_cuda_host_free,
    .host_pinned = gpux_cuda_host_pinned,
    .mem_upload_async = gpux_cuda_mem_upload_async,
    .mem_download_async = gpux_cuda_mem_download_async,
    .native_get = gpux_cuda_native_get,
    .queue_native = gpux_cuda_queue_native,
    .context_adopt = gpux_cuda_context_adopt,
    .mem_wrap = gpux_cuda_mem_wrap,
    .mem_unwrap = gpux_cuda_mem_unwrap,
    .event_create = gpux_cuda_event_create,
    .event_destroy = gpux_cuda_event_destroy,
    .event_record = gpux_cuda_event_record,
    .event_synchronize = gpux_cuda_event_synchronize,
    .event_query = gpux_cuda_event_query,
    .queue_wait_event = gpux_cuda_queue_wait_event,
    .event_elapsed_ms = gpux_cuda_event_elapsed_ms,
};

/* The one exported symbol of libgpux-cuda.so (default visibility only in the module build;
 * linked into libgpux it stays hidden). NULL for a host of another ABI version. */
#if defined(GPUX_CUDA_MODULE) && defined(__GNUC__)
__attribute__((visibility("default")))
#endif
const gpux__backend_iface *gpux_cuda_backend_entry(const gpux__host_iface *host);

const gpux__backend_iface *gpux_cuda_backend_entry(const gpux__host_iface *host) {
  if (!host || host->abi_version != GPUX_BACKEND_ABI_VERSION || !host->set_error) return NULL;
  static gpux__backend_iface it; /* the core entries and each family's (called once, under
                                    the core's lock) */
  gpux_cuda_host = host;
  it = gpux_cuda_iface_core;
  for (int f = 0; f < GPUX_CUDA_FAM_COUNT; f++) {
    const gpux_cuda_family *fam = gpux_cuda_families[f].fam;
    fam->install(&it);
    if (fam->supports && !gpux_cuda_answer[fam->query]) gpux_cuda_answer[fam->query] = fam->supports;
  }
  return &it;
}
