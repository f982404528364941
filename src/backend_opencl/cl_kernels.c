/* gpux OpenCL backend: programs (built on first use of a family, once per context, with
 * the on-disk cache for non-pocl devices; gpux_cl_build is also the build path of user
 * programs, cl_program.c), kernel tables and launches.
 *
 * Kernel handles are resolved once per program into tables indexed by [op][dtype][layout]
 * (names generated from the lists of gpux_kernels.h), so a launch does no string work: it
 * looks the kernel up, sets its arguments and enqueues it. Signatures are documented at the
 * top of kernels/cl/elementwise.cl and kernels/cl/copy.cl. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cl_internal.h"

#define SET_ERROR(...) gpux_cl_host->set_error(__VA_ARGS__)

/* ---------------------------------------------------------------- names from the lists */
#define DT_NAME(a, dt) [GPUX_KDT_##dt] = #dt,
const char *const gpux_cl_dt_name[GPUX_KDT_COUNT] = {GPUX_DT_STORAGE(DT_NAME, _)};
static const size_t dt_size[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_KDT_SIZE_INIT)};

typedef struct opdesc {
  const char *name;
  unsigned dtypes; /* bit per GPUX_KDT_* */
} opdesc;
#define DT_BIT(a, dt) | (1u << GPUX_KDT_##dt)
#define OP_DESC(op, id, DTLIST, RES) [id] = {#op, 0u DTLIST(DT_BIT, _)},
static const opdesc binary_ops[GPUX_BINARY_OP_COUNT] = {GPUX_BINARY_OPS(OP_DESC)};
static const opdesc unary_ops[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(OP_DESC)};
/* the dtypes of where (the half dtypes only have casts and generators) */
static const unsigned where_dtypes = 0u GPUX_DT_ALL(DT_BIT, _);
#define ELEM_SIZE(sz) sz,
static const int copy_sizes[GPUX_CL_NSIZES] = {GPUX_ELEM_SIZES(ELEM_SIZE)};
static const char layout_char[3] = {[GPUX_LAYOUT_C] = 'c', [GPUX_LAYOUT_S] = 's',
                                    [GPUX_LAYOUT_N] = 'n'};

typedef struct family_source {
  const char *file;
  const unsigned char *text;
  const size_t *size;
  const char *sha256;
  int opts; /* which build options (below) */
} family_source;
enum { OPTS_PLAIN = 0, OPTS_RED = 1, OPTS_RAND = 2 }; /* b->build_options, red_, rand_ */
static const family_source families[GPUX_CL_FAM_COUNT] = {
    [GPUX_CL_FAM_ELEMENTWISE] = {"elementwise.cl", gpux_cl_src_elementwise,
                                 &gpux_cl_src_elementwise_size, gpux_cl_src_elementwise_sha256},
    [GPUX_CL_FAM_COPY] = {"copy.cl", gpux_cl_src_copy, &gpux_cl_src_copy_size,
                          gpux_cl_src_copy_sha256},
    [GPUX_CL_FAM_REDUCE] = {"reduce.cl", gpux_cl_src_reduce, &gpux_cl_src_reduce_size,
                            gpux_cl_src_reduce_sha256, OPTS_RED},
    [GPUX_CL_FAM_SCAN] = {"scan.cl", gpux_cl_src_scan, &gpux_cl_src_scan_size,
                          gpux_cl_src_scan_sha256, OPTS_RED},
    [GPUX_CL_FAM_RANDOM] = {"random.cl", gpux_cl_src_random, &gpux_cl_src_random_size,
                            gpux_cl_src_random_sha256, OPTS_RAND},
};

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

static gpux_status build_program(gpux__bctx *b, int fam, cl_program *out) {
  const family_source *f = &families[fam];
  const char *opts = f->opts == OPTS_RED    ? b->red_build_options
                     : f->opts == OPTS_RAND ? b->rand_build_options
                                            : b->build_options;
  return gpux_cl_build_source(b, f->file, f->text, *f->size, f->sha256, opts, out);
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

#define IS_F64 GPUX_CL_IS_F64
#define TRY(expr)                        \
  do {                                   \
    if ((s = (expr)) != GPUX_SUCCESS) return s; \
  } while (0)

static gpux_status resolve_elementwise(gpux__bctx *b, cl_program p) {
  gpux_status s;
  for (int op = 0; op < GPUX_BINARY_OP_COUNT; op++)
    for (int dt = 0; dt < GPUX_KDT_COUNT; dt++)
      if (binary_ops[op].dtypes & (1u << dt))
        for (int l = 0; l < 3; l++)
          TRY(gpux_cl_resolve(b, p, &b->binary[op][dt][l], IS_F64(dt), "gpux_binary_%s_%s_%c",
                              binary_ops[op].name, gpux_cl_dt_name[dt], layout_char[l]));
  for (int op = 0; op < GPUX_UNARY_OP_COUNT; op++)
    for (int dt = 0; dt < GPUX_KDT_COUNT; dt++)
      if (unary_ops[op].dtypes & (1u << dt))
        for (int l = 0; l < 3; l += 2) /* c, n */
          TRY(gpux_cl_resolve(b, p, &b->unary[op][dt][l], IS_F64(dt), "gpux_unary_%s_%s_%c",
                              unary_ops[op].name, gpux_cl_dt_name[dt], layout_char[l]));
  for (int dt = 0; dt < GPUX_KDT_COUNT; dt++)
    for (int l = 0; l < 3 && (where_dtypes & (1u << dt)); l += 2)
      TRY(gpux_cl_resolve(b, p, &b->where[dt][l], IS_F64(dt), "gpux_where_%s_%c",
                          gpux_cl_dt_name[dt], layout_char[l]));
  return GPUX_SUCCESS;
}

static gpux_status resolve_copy(gpux__bctx *b, cl_program p) {
  gpux_status s;
  for (int from = 0; from < GPUX_KDT_COUNT; from++)
    for (int to = 0; to < GPUX_KDT_COUNT; to++)
      for (int l = 0; l < 3; l += 2)
        TRY(gpux_cl_resolve(b, p, &b->cast[from][to][l], IS_F64(from) || IS_F64(to),
                            "gpux_cast_%s_%s_%c", gpux_cl_dt_name[from], gpux_cl_dt_name[to],
                            layout_char[l]));
  for (int i = 0; i < GPUX_CL_NSIZES; i++) {
    TRY(gpux_cl_resolve(b, p, &b->copy_n[i], 0, "gpux_copy_n_%d", copy_sizes[i]));
    TRY(gpux_cl_resolve(b, p, &b->copy_t[i], 0, "gpux_copy_t_%d", copy_sizes[i]));
  }
  for (int dt = 0; dt < GPUX_KDT_COUNT; dt++) {
    TRY(gpux_cl_resolve(b, p, &b->fill[dt], IS_F64(dt), "gpux_fill_%s", gpux_cl_dt_name[dt]));
    TRY(gpux_cl_resolve(b, p, &b->arange[dt], IS_F64(dt), "gpux_arange_%s",
                        gpux_cl_dt_name[dt]));
    TRY(gpux_cl_resolve(b, p, &b->linspace[dt], IS_F64(dt), "gpux_linspace_%s",
                        gpux_cl_dt_name[dt]));
  }
  return GPUX_SUCCESS;
}

/* *m: a buffer of the float32 normal kernels, initialised from host (bytes of it) */
static gpux_status zig_buffer(gpux__bctx *b, cl_mem *m, cl_mem_flags flags, void *host,
                              size_t bytes, const char *what) {
  cl_int e;
  *m = clCreateBuffer(b->ctx, flags | CL_MEM_COPY_HOST_PTR, bytes, host, &e);
  if (e == CL_SUCCESS) return GPUX_SUCCESS;
  *m = NULL;
  return SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER), "clCreateBuffer(%s, %zu bytes on %s): %s (%d)",
                   what, bytes, b->device_name, gpux_cl_error_name(e), (int)e);
}

/* gpux_random_<kind>_<dt> for GPUX_RANDOM_KINDS */
static gpux_status resolve_random(gpux__bctx *b, cl_program p) {
  b->zig_tune = gpux_r_zig_tune_env(getenv("GPUX_RANDOM_ZIG"));
  b->zig_dyn = gpux_r_zig_dyn_env(getenv("GPUX_RANDOM_ZIG_DYN"));
  gpux_status s = GPUX_SUCCESS;
#define RESOLVE(kind, dt)                                                                   \
  if (s == GPUX_SUCCESS)                                                                    \
    s = gpux_cl_resolve(b, p, &b->random[GPUX_RKID_##kind][GPUX_KDT_##dt],                  \
                        IS_F64(GPUX_KDT_##dt), "gpux_random_" #kind "_" #dt);
#define RESOLVE_KIND(kind, id, dts) dts(RESOLVE, kind)
  GPUX_RANDOM_KINDS(RESOLVE_KIND)
#undef RESOLVE_KIND
#undef RESOLVE
  if (s == GPUX_SUCCESS && !b->exact)
    s = gpux_cl_resolve(b, p, &b->zig_std, 0, "gpux_random_normal_f32_std");
  if (s == GPUX_SUCCESS && !b->exact && !b->zig_tab) {
    /* the GPU-form normal kernel's table: (k_i, wl_i) per layer, as kernels/cl/random.cl
     * reads it */
    cl_uint kwl[2 * GPUX_R_ZIG_N];
    for (int i = 0; i < GPUX_R_ZIG_N; i++) {
      kwl[2 * i] = (cl_uint)gpux_r_zig_tab[i];
      kwl[2 * i + 1] = GPUX_R_ZIG_WL(i, gpux_r_zig_tab[i]);
    }
    s = zig_buffer(b, &b->zig_tab, CL_MEM_READ_ONLY, kwl, sizeof kwl, "the ziggurat's table");
  }
  if (s == GPUX_SUCCESS && !b->exact && !b->zig_work) {
    /* the dynamic chunks' counter (kernels/cl/random.cl), zero: the kernels leave it so */
    cl_uint zero[2] = {0, 0};
    s = zig_buffer(b, &b->zig_work, CL_MEM_READ_WRITE, zero, sizeof zero,
                   "the float32 normals' chunk counter");
  }
  return s;
}

static void release_all(cl_kernel *k, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (k[i]) {
      clReleaseKernel(k[i]);
      k[i] = NULL;
    }
}
#define RELEASE_TABLE(t) release_all((cl_kernel *)(t), sizeof(t) / sizeof(cl_kernel))

static void release_family(gpux__bctx *b, int fam) {
  if (fam == GPUX_CL_FAM_ELEMENTWISE) {
    RELEASE_TABLE(b->binary);
    RELEASE_TABLE(b->unary);
    RELEASE_TABLE(b->where);
  } else if (fam == GPUX_CL_FAM_REDUCE) {
    RELEASE_TABLE(b->reduce);
    RELEASE_TABLE(b->reduce_cv);
  } else if (fam == GPUX_CL_FAM_SCAN) {
    RELEASE_TABLE(b->scan);
  } else if (fam == GPUX_CL_FAM_RANDOM) {
    RELEASE_TABLE(b->random);
    release_all(&b->zig_std, 1);
    if (b->zig_tab) clReleaseMemObject(b->zig_tab);
    b->zig_tab = NULL;
    if (b->zig_work) clReleaseMemObject(b->zig_work);
    b->zig_work = NULL;
  } else {
    RELEASE_TABLE(b->cast);
    RELEASE_TABLE(b->copy_n);
    RELEASE_TABLE(b->copy_t);
    RELEASE_TABLE(b->fill);
    RELEASE_TABLE(b->arange);
    RELEASE_TABLE(b->linspace);
  }
  if (b->program[fam]) {
    clReleaseProgram(b->program[fam]);
    b->program[fam] = NULL;
  }
}

gpux_status gpux_cl_build_family(gpux__bctx *b, int fam) {
  if (b->program[fam]) return GPUX_SUCCESS;
  cl_program p = NULL;
  gpux_status s = build_program(b, fam, &p);
  if (s != GPUX_SUCCESS) return s;
  b->program[fam] = p;
  switch (fam) {
    case GPUX_CL_FAM_ELEMENTWISE: s = resolve_elementwise(b, p); break;
    case GPUX_CL_FAM_COPY: s = resolve_copy(b, p); break;
    case GPUX_CL_FAM_REDUCE: s = gpux_cl_resolve_reduce(b, p); break;
    case GPUX_CL_FAM_RANDOM: s = resolve_random(b, p); break;
    default: s = gpux_cl_resolve_scan(b, p); break;
  }
  if (s != GPUX_SUCCESS) release_family(b, fam);
  return s;
}

void gpux_cl_release_programs(gpux__bctx *b) {
  for (int fam = 0; fam < GPUX_CL_FAM_COUNT; fam++) release_family(b, fam);
}

/* Slow path of a kernel lookup: builds the family on first use, then explains a kernel
 * that is still missing. */
gpux_status gpux_cl_need_kernel(gpux__bctx *b, int fam, cl_kernel *slot, int uses_f64,
                                cl_kernel *out) {
  gpux_status s = gpux_cl_build_family(b, fam);
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
                   families[fam].file);
}

#define GET_KERNEL GPUX_CL_GET_KERNEL

/* ---------------------------------------------------------------- launches */
gpux_status gpux_cl_kernel_error(cl_kernel k, const char *call, cl_int e, gpux_status dflt) {
  char name[128] = "?";
  clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
  name[sizeof name - 1] = '\0';
  return SET_ERROR(gpux_cl_status(e, dflt), "%s(%s): %s (%d)", call, name, gpux_cl_error_name(e),
                   (int)e);
}

/* Work-items per enqueue: global sizes stay below 2^31; larger launches are split with
 * the global work offset (the kernels index with get_global_id, which includes it). */
#define MAX_ITEMS ((size_t)1 << 30)

static gpux_status enqueue_1d(gpux__bctx *b, const gpux_cl_args *a, size_t items) {
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  const size_t wg = b->wg, chunk = MAX_ITEMS / wg * wg;
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
    cl_int e = clEnqueueNDRangeKernel(b->queue, a->k, 1, off ? &off : NULL, &global, &local, 0,
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
static gpux_status enqueue_nd3(gpux__bctx *b, cl_kernel k, cl_uint nd_arg,
                               const gpux_nd_params *sub) {
  cl_int e = clSetKernelArg(k, nd_arg, sizeof *sub, sub);
  if (e != CL_SUCCESS) return gpux_cl_kernel_error(k, "clSetKernelArg", e, GPUX_ERROR_LAUNCH);
  /* pocl compiles a kernel once per work-group size: three sizes at most */
  size_t n0 = (size_t)sub->shape[0], l0 = n0 >= b->wg ? b->wg : n0 >= 16 ? 16 : 1;
  size_t main0 = n0 / l0 * l0;
  size_t off[3] = {0, 0, 0}, local[3] = {l0, 1, 1};
  size_t global[3] = {main0, (size_t)sub->shape[1], (size_t)sub->shape[2]};
  e = clEnqueueNDRangeKernel(b->queue, k, 3, NULL, global, local, 0, NULL, NULL);
  if (e == CL_SUCCESS && main0 < n0) {
    off[0] = main0;
    global[0] = n0 - main0;
    local[0] = 1;
    e = clEnqueueNDRangeKernel(b->queue, k, 3, off, global, local, 0, NULL, NULL);
  }
  if (e != CL_SUCCESS)
    return gpux_cl_kernel_error(k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
  return GPUX_SUCCESS;
}

static gpux_status enqueue_nd_exact(gpux__bctx *b, const gpux_cl_args *a,
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
    gpux_status s = enqueue_nd3(b, a->k, nd_arg, &sub);
    if (s != GPUX_SUCCESS) return s;
    int d = lead - 1; /* the next leading index, row-major */
    while (d >= 0 && ++idx[d] == nd->shape[d]) idx[d--] = 0;
    if (d < 0) return GPUX_SUCCESS;
  }
}

/* Launch of a planned layout: contiguous kernels take epi elements per work-item, n-d
 * kernels one (1-d on GPUs, 3-d on CPUs). */
static gpux_status enqueue(gpux__bctx *b, const gpux_cl_args *a, const gpux__launch *l) {
  size_t n = (size_t)l->n;
  if (l->layout != GPUX_LAYOUT_N) return enqueue_1d(b, a, (n + (size_t)b->epi - 1) / (size_t)b->epi);
  if (b->exact) return enqueue_nd_exact(b, a, &l->nd, a->i - 1); /* nd: the last argument */
  return enqueue_1d(b, a, n);
}

/* Arguments of a C- or N-layout kernel over operands 0..nops-1: (buffer, offset) pairs and
 * n, or buffers and the n-d parameter block. */
static void arg_operands(gpux_cl_args *a, const gpux__launch *l, int nops) {
  for (int i = 0; i < nops; i++) {
    if (l->layout == GPUX_LAYOUT_N)
      gpux_cl_arg_mem(a, &l->opnd[i]);
    else
      gpux_cl_arg_c(a, &l->opnd[i]);
  }
  if (l->layout == GPUX_LAYOUT_N)
    gpux_cl_arg(a, sizeof l->nd, &l->nd);
  else
    gpux_cl_arg_long(a, l->n);
}

gpux_status gpux_cl_binary(gpux__bctx *b, int op, const gpux__launch *l) {
  if (l->n <= 0) return GPUX_SUCCESS;
  int dt = l->opnd[1].dtype;
  cl_kernel k;
  GET_KERNEL(k, GPUX_CL_FAM_ELEMENTWISE, b->binary[op][dt][l->layout], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  if (l->layout == GPUX_LAYOUT_S) {
    cl_int first = l->scalar_first != 0;
    gpux_cl_arg_c(&a, &l->opnd[0]);
    gpux_cl_arg_c(&a, &l->opnd[1]);
    gpux_cl_arg(&a, dt_size[dt], &l->scalar);
    gpux_cl_arg(&a, sizeof first, &first);
    gpux_cl_arg_long(&a, l->n);
  } else {
    arg_operands(&a, l, 3);
  }
  return enqueue(b, &a, l);
}

gpux_status gpux_cl_unary(gpux__bctx *b, int op, const gpux__launch *l) {
  if (l->n <= 0) return GPUX_SUCCESS;
  int dt = l->opnd[1].dtype;
  cl_kernel k;
  GET_KERNEL(k, GPUX_CL_FAM_ELEMENTWISE, b->unary[op][dt][l->layout], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  arg_operands(&a, l, 2);
  return enqueue(b, &a, l);
}

gpux_status gpux_cl_where(gpux__bctx *b, const gpux__launch *l) {
  if (l->n <= 0) return GPUX_SUCCESS;
  int dt = l->opnd[2].dtype;
  cl_kernel k;
  GET_KERNEL(k, GPUX_CL_FAM_ELEMENTWISE, b->where[dt][l->layout], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  arg_operands(&a, l, 4);
  return enqueue(b, &a, l);
}

gpux_status gpux_cl_cast(gpux__bctx *b, const gpux__launch *l) {
  if (l->n <= 0) return GPUX_SUCCESS;
  int from = l->opnd[1].dtype, to = l->opnd[0].dtype;
  cl_kernel k;
  GET_KERNEL(k, GPUX_CL_FAM_COPY, b->cast[from][to][l->layout], IS_F64(from) || IS_F64(to));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  arg_operands(&a, l, 2);
  return enqueue(b, &a, l);
}

/* copy_t takes the dims of nd reordered: 0 = the last (the output's fast dim), 1 = tile_dim,
 * then the batch dims in order; one work-group per tile, NDRange (tiles along tile_dim,
 * tiles along the last dim, batch), split so that no launch has more than 32768 groups
 * along dims 1 and 2 (NVIDIA's limit is 65535). */
static gpux_status enqueue_copy_t(gpux__bctx *b, gpux_cl_args *a, const gpux_nd_params *nd) {
  gpux_nd_params t = *nd;
  int order[GPUX_KMAX_DIMS], m = 2;
  order[0] = (int)nd->ndim - 1;
  order[1] = (int)nd->tile_dim;
  for (int d = 0; d < (int)nd->ndim - 1; d++)
    if (d != nd->tile_dim) order[m++] = d;
  for (int d = 0; d < (int)nd->ndim; d++) {
    t.shape[d] = nd->shape[order[d]];
    for (int o = 0; o < GPUX_KMAX_OPERANDS; o++) t.stride[o][d] = nd->stride[o][order[d]];
  }
  t.tile_dim = 1;
  gpux_cl_arg(a, sizeof t, &t);
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  const size_t T = GPUX_COPY_TILE, R = GPUX_COPY_TILE_ROWS, lim = 32768;
  size_t tiles_d = ((size_t)t.shape[1] + T - 1) / T, tiles_l = ((size_t)t.shape[0] + T - 1) / T;
  size_t batch = (size_t)(t.n / (t.shape[0] * t.shape[1]));
  size_t local[3] = {T, R, 1};
  for (size_t z = 0; z < batch; z += lim)
    for (size_t y = 0; y < tiles_l; y += lim) {
      size_t offset[3] = {0, y * R, z};
      size_t global[3] = {tiles_d * T, (tiles_l - y < lim ? tiles_l - y : lim) * R,
                          batch - z < lim ? batch - z : lim};
      cl_int e = clEnqueueNDRangeKernel(b->queue, a->k, 3, offset, global, local, 0, NULL, NULL);
      if (e != CL_SUCCESS)
        return gpux_cl_kernel_error(a->k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
    }
  return GPUX_SUCCESS;
}

gpux_status gpux_cl_copy(gpux__bctx *b, int elem_size, const gpux__launch *l) {
  const gpux_nd_params *nd = &l->nd;
  if (nd->n <= 0) return GPUX_SUCCESS;
  int i = elem_size == 1 ? 0 : elem_size == 2 ? 1 : elem_size == 4 ? 2 : 3;
  /* the tiled (local-memory) transpose pays on GPUs; pocl runs it slower than copy_n */
  int tiled = nd->tile_dim >= 0 && b->dev->is_gpu;
  cl_kernel k;
  if (tiled)
    GET_KERNEL(k, GPUX_CL_FAM_COPY, b->copy_t[i], 0);
  else
    GET_KERNEL(k, GPUX_CL_FAM_COPY, b->copy_n[i], 0);
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_mem(&a, &l->opnd[0]);
  gpux_cl_arg_mem(&a, &l->opnd[1]);
  if (tiled) return enqueue_copy_t(b, &a, nd);
  gpux_cl_arg(&a, sizeof *nd, nd);
  return b->exact ? enqueue_nd_exact(b, &a, nd, 2) : enqueue_1d(b, &a, (size_t)nd->n);
}

gpux_status gpux_cl_fill(gpux__bctx *b, const gpux__launch *l) {
  if (l->n <= 0) return GPUX_SUCCESS;
  int dt = l->opnd[0].dtype;
  cl_kernel k;
  GET_KERNEL(k, GPUX_CL_FAM_COPY, b->fill[dt], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &l->opnd[0]);
  gpux_cl_arg(&a, dt_size[dt], &l->scalar);
  gpux_cl_arg_long(&a, l->n);
  return enqueue(b, &a, l);
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

gpux_status gpux_cl_arange(gpux__bctx *b, const gpux__launch *l, double start, double step) {
  if (l->n <= 0) return GPUX_SUCCESS;
  int dt = l->opnd[0].dtype;
  cl_kernel k;
  GET_KERNEL(k, GPUX_CL_FAM_COPY, b->arange[dt], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &l->opnd[0]);
  gpux_cl_arg_real(&a, b, start);
  gpux_cl_arg_real(&a, b, step);
  gpux_cl_arg_long(&a, l->n);
  return enqueue(b, &a, l);
}

gpux_status gpux_cl_linspace(gpux__bctx *b, const gpux__launch *l, double start, double step,
                             double stop) {
  if (l->n <= 0) return GPUX_SUCCESS;
  int dt = l->opnd[0].dtype;
  cl_kernel k;
  GET_KERNEL(k, GPUX_CL_FAM_COPY, b->linspace[dt], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &l->opnd[0]);
  gpux_cl_arg_real(&a, b, start);
  gpux_cl_arg_real(&a, b, step);
  gpux_cl_arg_real(&a, b, stop);
  gpux_cl_arg_long(&a, l->n);
  return enqueue(b, &a, l);
}

/* one work-item per relative block of the draw (kernels/cl/random.cl) */
gpux_status gpux_cl_random(gpux__bctx *b, const gpux__random *r) {
  const int kind = r->kind, dt = r->out.dtype;
  if ((unsigned)kind >= GPUX_RANDOM_KIND_COUNT || (unsigned)dt >= GPUX_KDT_COUNT)
    return SET_ERROR(GPUX_ERROR_UNSUPPORTED_DTYPE, "opencl: no random kernel (%d, %d)", kind, dt);
  cl_kernel k;
  GET_KERNEL(k, GPUX_CL_FAM_RANDOM, b->random[kind][dt], IS_F64(dt));
  const int vpb = 4 / GPUX_R_WPV(kind, dt);
  const int vec = r->out.offset % vpb == 0; /* buffers start aligned to far more */
  /* the ziggurat's kernels (GPU form) */
  const int zig = !b->exact && kind == GPUX_RK_NORMAL && dt == GPUX_KDT_f32;
  gpux_rparams p = r->p;
  if (zig) {
    p.pc = b->zig_tune;          /* the queue */
    p.pd = GPUX_R_PRE(p.stream); /* the loop's Philox first-round product */
    if (GPUX_R_STD_F32(&p)) k = b->zig_std; /* no fma (resolved with the family) */
  }
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &r->out);
  gpux_cl_arg(&a, sizeof p, &p);
  gpux_cl_arg_int(&a, vec);
  if (b->exact) return enqueue_1d(b, &a, (size_t)r->p.nblocks); /* one block per item */
  /* GPUs: the kernels loop; about one wave of work-items (2048 per compute unit) */
  if (!b->compute_units) {
    cl_uint cu = 0;
    if (clGetDeviceInfo(b->dev->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL) !=
            CL_SUCCESS ||
        cu == 0)
      cu = 1;
    b->compute_units = cu;
  }
  uint64_t cap = (uint64_t)b->compute_units * 2048u;
  if (!zig) {
    const uint64_t items = r->p.nblocks < cap ? r->p.nblocks : cap;
    return enqueue_1d(b, &a, (size_t)items);
  }
  /* float32 normals: dynamic chunks (gpux_r_zig_dyn) in the full wave and one launch (the
   * counter's reset counts its groups), else the static split in whole groups */
  const uint64_t wg = b->wg;
  const uint64_t full = r->p.nblocks < cap ? r->p.nblocks : cap;
  const uint64_t groups = (full + wg - 1) / wg;
  cl_int dyn = groups * wg <= MAX_ITEMS &&
               gpux_r_zig_dyn(r->p.nblocks, groups, wg, b->zig_tune, b->zig_dyn);
  uint64_t items = full;
  if (!dyn) {
    const uint64_t whole = gpux_r_zig_static_groups(r->p.nblocks, wg) * wg;
    if (whole < items) items = whole;
    /* the static loop counts its units (wg Philox blocks) and steps over them in 32 bits
     * (kernels/cl/random.cl) */
    if (!gpux_r_zig_units_fit(r->p.nblocks, (items + wg - 1) / wg, wg, b->zig_tune))
      return SET_ERROR(GPUX_ERROR_SIZE_OVERFLOW,
                       "opencl: a draw of %llu values is too large for one launch",
                       (unsigned long long)r->p.n);
  }
  gpux_cl_arg(&a, sizeof b->zig_tab, &b->zig_tab);
  gpux_cl_arg(&a, sizeof b->zig_work, &b->zig_work);
  gpux_cl_arg(&a, sizeof dyn, &dyn);
  const gpux_rkeys ks = gpux_r_keys(p.seed); /* the Philox round keys */
  gpux_cl_arg(&a, sizeof ks, &ks);
  return enqueue_1d(b, &a, (size_t)items);
}
