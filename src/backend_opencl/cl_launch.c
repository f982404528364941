/* gpux OpenCL backend: what every kernel family shares, below all of them: the one build
 * path of programs (built-in families and user programs, cl_program.c), a family's build on
 * first use and its kernel lookups, kernel arguments and the enqueue shapes of planned
 * launches. The family files (cl_elementwise.c, cl_reduce.c, cl_random.c, cl_gemm.c) call
 * this file; it calls none of them (a family comes in as its gpux_cl_family record). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cl_internal.h"

#define SET_ERROR(...) gpux_cl_host->set_error(__VA_ARGS__)

/* from the records of gpux_kernels.h */
#define DT_NAME(a, dt) [GPUX_KDT_##dt] = #dt,
const char *const gpux_cl_dt_name[GPUX_KDT_COUNT] = {GPUX_DT_CAST(DT_NAME, _)};
const size_t gpux_cl_dt_size[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_KDT_SIZE_INIT)};
#define DT_KIND(dt, bytes, name, kind, digits, exp) [GPUX_KDT_##dt] = kind,
const char gpux_cl_dt_kind[GPUX_KDT_COUNT] = {GPUX_DTYPES(DT_KIND)};
#undef DT_KIND

/* ---------------------------------------------------------------- programs */
static char *build_log(cl_program p, cl_device_id dev) {
  size_t n = 0;
  char *log = NULL;
  if (clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS && n > 0 &&
      (log = malloc(n + 1)) != NULL) {
    if (clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL) != CL_SUCCESS) n = 0;
    log[n] = '\0';
  }
  return log;
}

/* Stores the program's binary in the host's on-disk cache (faults are ignored). */
static void cache_program(cl_program p, const char *key, size_t key_len) {
  size_t size = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
      size == 0)
    return;
  unsigned char *bin = malloc(size);
  if (!bin) return;
  if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS)
    gpux_cl_host->cache_store(key, key_len, bin, size);
  free(bin);
}

/* The one build path of every program, built-in families and user programs alike: from
 * the host's on-disk cache when key is not NULL and it holds a binary that still loads,
 * else from source (then stored there). `what` names the program in messages. log == NULL
 * (built-in families): a failed build's message carries the compiler's log; else *log gets
 * the log (malloc'd, NULL when empty; warnings too, also on failure) and the message is
 * short. *from_cache (may be NULL): 1 when the binary came from the cache. */
gpux_status gpux_cl_build(gpux__bctx *b, const char *what, const char *text, size_t len,
                          const char *options, const void *key, size_t key_len,
                          cl_program *out, char **log, int *from_cache) {
  cl_device_id dev = b->dev->device;
  gpux_status s = GPUX_SUCCESS;
  cl_program p = NULL;
  char *blog = NULL;
  cl_int e;
  if (log) *log = NULL;
  if (from_cache) *from_cache = 0;
  if (key && gpux_cl_host->cache_load && gpux_cl_host->cache_store) {
    void *bin = NULL;
    size_t bin_size = 0;
    if (gpux_cl_host->cache_load(key, key_len, &bin, &bin_size)) {
      const unsigned char *bp = bin;
      cl_int bin_status = CL_SUCCESS;
      p = clCreateProgramWithBinary(b->ctx, 1, &dev, &bin_size, &bp, &bin_status, &e);
      if (e == CL_SUCCESS && bin_status == CL_SUCCESS)
        e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
      if ((e != CL_SUCCESS || bin_status != CL_SUCCESS) && p) { /* stale: compile again */
        clReleaseProgram(p);
        p = NULL;
      }
      free(bin);
      if (p) {
        if (from_cache) *from_cache = 1;
        goto done;
      }
    }
  }
  p = clCreateProgramWithSource(b->ctx, 1, &text, &len, &e);
  if (e != CL_SUCCESS) {
    s = SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER), "clCreateProgramWithSource(%s): %s (%d)",
                  what, gpux_cl_error_name(e), (int)e);
    goto done;
  }
  e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
  if (e != CL_SUCCESS || log) blog = build_log(p, dev);
  if (e != CL_SUCCESS) {
    if (log)
      s = SET_ERROR(gpux_cl_status(e, GPUX_ERROR_KERNEL_BUILD), "clBuildProgram(%s, \"%s\"): %s (%d)",
                    what, options, gpux_cl_error_name(e), (int)e);
    else
      s = SET_ERROR(gpux_cl_status(e, GPUX_ERROR_KERNEL_BUILD),
                    "clBuildProgram(%s, \"%s\"): %s (%d): %.6000s", what, options,
                    gpux_cl_error_name(e), (int)e, blog ? blog : "(no build log)");
    goto done;
  }
  if (key && gpux_cl_host->cache_store) cache_program(p, key, key_len);
done:
  if (log && blog && blog[strspn(blog, " \t\r\n")] != '\0') { /* pocl says "\n" on success */
    *log = blog;
    blog = NULL;
  }
  free(blog);
  if (s != GPUX_SUCCESS && p) {
    clReleaseProgram(p);
    p = NULL;
  }
  *out = p;
  return s;
}

/* Builds one built-in program source with `options`, through the on-disk cache on non-pocl
 * devices (pocl keeps its own, faster cache). `file` names it in messages; `sha256` (of the
 * text) keys the cache. */
gpux_status gpux_cl_build_source(gpux__bctx *b, const char *file, const unsigned char *text_bytes,
                                 size_t len, const char *sha256, const char *options,
                                 cl_program *out) {
  char key[1024];
  int key_len = -1;
  if (!b->dev->is_pocl)
    key_len = snprintf(key, sizeof key, "gpux-opencl-program\n%s\n%s\n%s\n%s\n", sha256,
                       options, b->device_name, b->driver_version);
  int use_cache = key_len >= 0 && (size_t)key_len < sizeof key;
  return gpux_cl_build(b, file, (const char *)text_bytes, len, options, use_cache ? key : NULL,
                       use_cache ? (size_t)key_len : 0, out, NULL, NULL);
}

/* ---------------------------------------------------------------- families */
void gpux_cl_release_family(gpux__bctx *b, const gpux_cl_family *f) {
  f->release(b);
  for (int part = 0; part < GPUX_PART_COUNT; part++)
    if (b->program[f->id][part]) {
      clReleaseProgram(b->program[f->id][part]);
      b->program[f->id][part] = NULL;
    }
}

gpux_status gpux_cl_build_family(gpux__bctx *b, const gpux_cl_family *f, int part) {
  if (!f->split) part = 0;
  if (b->program[f->id][part]) return GPUX_SUCCESS;
  char options[512];
  f->options(b, options, sizeof options);
  if (f->split) {
    size_t len = strlen(options);
    snprintf(options + len, sizeof options - len, " -DGPUX_PART=%d", part);
  }
  cl_program p = NULL;
  gpux_status s = gpux_cl_build_source(b, f->file, f->text, *f->size, f->sha256, options, &p);
  if (s != GPUX_SUCCESS) return s;
  b->program[f->id][part] = p;
  s = f->resolve(b, p, part);
  if (s != GPUX_SUCCESS) gpux_cl_release_family(b, f); /* every part: built again on use */
  return s;
}

/* Slow path of a kernel lookup: builds the family on first use, then explains a kernel
 * that is still missing. The launch lock is held, so one thread builds a family and none
 * reads its tables half filled. */
gpux_status gpux_cl_need_kernel(gpux__bctx *b, const gpux_cl_family *f, int part,
                                cl_kernel *slot, int uses_f64, cl_kernel *out) {
  gpux_status s = gpux_cl_build_family(b, f, part);
  if (s != GPUX_SUCCESS) return s;
  if (*slot) {
    *out = *slot;
    return GPUX_SUCCESS;
  }
  if (uses_f64 && !b->dev->fp64)
    return SET_ERROR(GPUX_ERROR_UNSUPPORTED_DTYPE,
                     "opencl: float64 needs cl_khr_fp64, which %s does not support",
                     b->device_name);
  return SET_ERROR(GPUX_ERROR_KERNEL_NOT_FOUND, "opencl: no kernel for this op and dtype in %s",
                   f->file);
}

/* ---------------------------------------------------------------- kernel tables */
gpux_status gpux_cl_resolve(gpux__bctx *b, cl_program p, cl_kernel *slot, int uses_f64,
                            const char *fmt, ...) {
  char name[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  cl_int e;
  cl_kernel k = clCreateKernel(p, name, &e);
  if (e == CL_SUCCESS) {
    *slot = k;
    return GPUX_SUCCESS;
  }
  *slot = NULL;
  if (e == CL_INVALID_KERNEL_NAME && uses_f64 && !b->dev->fp64) return GPUX_SUCCESS;
  return SET_ERROR(e == CL_INVALID_KERNEL_NAME ? GPUX_ERROR_KERNEL_NOT_FOUND
                                               : gpux_cl_status(e, GPUX_ERROR_DRIVER),
                   "clCreateKernel(%s): %s (%d)", name, gpux_cl_error_name(e), (int)e);
}

void gpux_cl_release_kernels(cl_kernel *k, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (k[i]) {
      clReleaseKernel(k[i]);
      k[i] = NULL;
    }
}

/* ---------------------------------------------------------------- launches */
gpux_status gpux_cl_kernel_error(cl_kernel k, const char *call, cl_int e, gpux_status dflt) {
  char name[128] = "?";
  clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
  name[sizeof name - 1] = '\0';
  return SET_ERROR(gpux_cl_status(e, dflt), "%s(%s): %s (%d)", call, name, gpux_cl_error_name(e),
                   (int)e);
}

gpux_status gpux_cl_enqueue_1d(gpux__bq *q, const gpux_cl_args *a, size_t items) {
  const gpux__bctx *b = q->b;
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  const size_t wg = b->wg, chunk = GPUX_CL_MAX_ITEMS / wg * wg;
  for (size_t off = 0; off < items;) {
    size_t cnt = items - off < chunk ? items - off : chunk;
    size_t local = wg, global;
    if (!b->exact) {
      global = (cnt + wg - 1) / wg * wg; /* the kernels test bounds */
    } else if (cnt >= wg) {
      global = cnt = cnt / wg * wg; /* whole work-groups, then the tail */
    } else {
      global = cnt;
      local = 1; /* the tail: one work-group size for every tail length, so pocl compiles
                    one more variant of the kernel, not one per length */
    }
    cl_int e = clEnqueueNDRangeKernel(q->queue, a->k, 1, off ? &off : NULL, &global, &local, 0,
                                      NULL, NULL);
    if (e != CL_SUCCESS)
      return gpux_cl_kernel_error(a->k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
    off += cnt;
  }
  return GPUX_SUCCESS;
}

/* n-d launch on CPU devices (exact launches): the kernels take the last three dims
 * reversed into dims 0, 1, 2 of the parameter block (see GPUX_ND_BEGIN) and a 3-d NDRange
 * over them, with whole work-groups of 256, 16 or 1 along dim 0 and a tail with
 * work-groups of 1; arrays of more dims get one launch per index of their leading dims
 * (the front end has merged every dim it could). */
static gpux_status enqueue_nd3(gpux__bq *q, cl_kernel k, cl_uint nd_arg,
                               const gpux_nd_params *sub) {
  const gpux__bctx *b = q->b;
  cl_int e = clSetKernelArg(k, nd_arg, sizeof *sub, sub);
  if (e != CL_SUCCESS) return gpux_cl_kernel_error(k, "clSetKernelArg", e, GPUX_ERROR_LAUNCH);
  /* pocl compiles a kernel once per work-group size: three sizes at most */
  size_t n0 = (size_t)sub->shape[0], l0 = n0 >= b->wg ? b->wg : n0 >= 16 ? 16 : 1;
  size_t main0 = n0 / l0 * l0;
  size_t off[3] = {0, 0, 0}, local[3] = {l0, 1, 1};
  size_t global[3] = {main0, (size_t)sub->shape[1], (size_t)sub->shape[2]};
  e = clEnqueueNDRangeKernel(q->queue, k, 3, NULL, global, local, 0, NULL, NULL);
  if (e == CL_SUCCESS && main0 < n0) {
    off[0] = main0;
    global[0] = n0 - main0;
    local[0] = 1;
    e = clEnqueueNDRangeKernel(q->queue, k, 3, off, global, local, 0, NULL, NULL);
  }
  if (e != CL_SUCCESS)
    return gpux_cl_kernel_error(k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
  return GPUX_SUCCESS;
}

gpux_status gpux_cl_enqueue_nd_exact(gpux__bq *q, const gpux_cl_args *a,
                                    const gpux_nd_params *nd, cl_uint nd_arg) {
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  const int ndim = (int)nd->ndim, lead = ndim > 3 ? ndim - 3 : 0;
  gpux_nd_params sub;
  memset(&sub, 0, sizeof sub);
  sub.ndim = 3;
  sub.tile_dim = -1;
  sub.n = 1;
  for (int j = 0; j < 3; j++) {
    int d = ndim - 1 - j;
    sub.shape[j] = d >= 0 ? nd->shape[d] : 1;
    sub.n *= sub.shape[j];
    for (int k = 0; k < GPUX_KMAX_OPERANDS; k++) sub.stride[k][j] = d >= 0 ? nd->stride[k][d] : 0;
  }
  int64_t idx[GPUX_KMAX_DIMS] = {0};
  for (;;) {
    for (int k = 0; k < GPUX_KMAX_OPERANDS; k++) {
      sub.offset[k] = nd->offset[k];
      for (int d = 0; d < lead; d++) sub.offset[k] += idx[d] * nd->stride[k][d];
    }
    gpux_status s = enqueue_nd3(q, a->k, nd_arg, &sub);
    if (s != GPUX_SUCCESS) return s;
    int d = lead - 1; /* the next leading index, row-major */
    while (d >= 0 && ++idx[d] == nd->shape[d]) idx[d--] = 0;
    if (d < 0) return GPUX_SUCCESS;
  }
}

/* Launch of a planned layout: contiguous kernels take epi elements per work-item, n-d
 * kernels one (1-d on GPUs, 3-d on CPUs). */
gpux_status gpux_cl_enqueue(gpux__bq *q, const gpux_cl_args *a, const gpux__launch *l) {
  const gpux__bctx *b = q->b;
  size_t n = (size_t)l->n;
  if (l->layout != GPUX_LAYOUT_N) return gpux_cl_enqueue_1d(q, a, (n + (size_t)b->epi - 1) / (size_t)b->epi);
  if (b->exact) return gpux_cl_enqueue_nd_exact(q, a, &l->nd, a->i - 1); /* nd: the last argument */
  return gpux_cl_enqueue_1d(q, a, n);
}

/* arange and linspace compute in double where the device has fp64, else in float */
void gpux_cl_arg_real(gpux_cl_args *a, const gpux__bctx *b, double v) {
  if (b->dev->fp64) {
    cl_double d = v;
    gpux_cl_arg(a, sizeof d, &d);
  } else {
    cl_float f = (cl_float)v;
    gpux_cl_arg(a, sizeof f, &f);
  }
}

