/* gpux OpenCL backend: the random family (kernels/cl/random.cl; the values are
 * kernels/common/gpux_random.h's): its kernel table, the GPU form's ziggurat buffers (the
 * table in the context, the chunk counter in each queue), and the launches (under the
 * launch lock). */
#include <stdio.h>
#include <stdlib.h>
#include "cl_internal.h"

#define SET_ERROR(...) gpux_cl_host->set_error(__VA_ARGS__)
#define IS_F64 GPUX_CL_IS_F64

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
static gpux_status resolve_random(gpux__bctx *b, cl_program p, int part) {
  (void)part; /* one program */
  b->zig_tune = gpux_r_zig_tune_env(getenv("GPUX_RANDOM_ZIG"));
  b->zig_dyn = gpux_r_zig_dyn_env(getenv("GPUX_RANDOM_ZIG_DYN"));
  gpux_status s = GPUX_SUCCESS;
#define RESOLVE(kind, dt)                                                                   \
  if (s == GPUX_SUCCESS)                                                                    \
    s = gpux_cl_resolve(b, p, &b->random[GPUX_RKID_##kind][GPUX_KDT_##dt],                  \
                        IS_F64(GPUX_KDT_##dt), GPUX_KN_RANDOM(#kind, #dt));
#define RESOLVE_KIND(kind, id, dts) dts(RESOLVE, kind)
  GPUX_RANDOM_KINDS(RESOLVE_KIND)
#undef RESOLVE_KIND
#undef RESOLVE
  if (s == GPUX_SUCCESS && !b->exact)
    s = gpux_cl_resolve(b, p, &b->zig_std, 0, GPUX_KN_RANDOM_NORMAL_STD);
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
  if (s == GPUX_SUCCESS && !b->exact) {
    /* GPUs: the kernels loop over about one wave of work-items (launch_random) */
    cl_uint cu = 0;
    if (clGetDeviceInfo(b->dev->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL) !=
            CL_SUCCESS ||
        cu == 0)
      cu = 1;
    b->compute_units = cu;
  }
  return s;
}

static void release_random(gpux__bctx *b) {
  gpux_cl_release_kernels((cl_kernel *)b->random, sizeof b->random / sizeof(cl_kernel));
  gpux_cl_release_kernels(&b->zig_std, 1);
  if (b->zig_tab) clReleaseMemObject(b->zig_tab);
  b->zig_tab = NULL;
}

/* the queue's chunk counter */
static void release_zig_work(gpux__bq *q) {
  if (q->zig_work) clReleaseMemObject(q->zig_work);
  q->zig_work = NULL;
}

static void random_options(gpux__bctx *b, char *buf, size_t size) {
  snprintf(buf, size, "%s", b->rand_build_options);
}


/* one work-item per relative block of the draw (kernels/cl/random.cl) */
static gpux_status launch_random(gpux__bq *q, const gpux__random *r) {
  gpux__bctx *b = q->b;
  const int kind = r->kind, dt = r->out.dtype;
  cl_kernel k;
  GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_random, 0, b->random[kind][dt], IS_F64(dt));
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
  if (b->exact) return gpux_cl_enqueue_1d(q, &a, (size_t)r->p.nblocks); /* one block per item */
  /* GPUs: the kernels loop; about one wave of work-items (2048 per compute unit) */
  uint64_t cap = (uint64_t)b->compute_units * 2048u;
  if (!zig) {
    const uint64_t items = r->p.nblocks < cap ? r->p.nblocks : cap;
    return gpux_cl_enqueue_1d(q, &a, (size_t)items);
  }
  /* float32 normals: dynamic chunks (gpux_r_zig_dyn) in the full wave and one launch (the
   * counter's reset counts its groups), else the static split in whole groups */
  const uint64_t wg = b->wg;
  const uint64_t full = r->p.nblocks < cap ? r->p.nblocks : cap;
  const uint64_t groups = (full + wg - 1) / wg;
  cl_int dyn = groups * wg <= GPUX_CL_MAX_ITEMS &&
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
  if (!q->zig_work) {
    /* the queue's dynamic chunks' counter (kernels/cl/random.cl), zero: the kernels leave
     * it so */
    cl_uint zero[2] = {0, 0};
    gpux_status s = zig_buffer(b, &q->zig_work, CL_MEM_READ_WRITE, zero, sizeof zero,
                               "the float32 normals' chunk counter");
    if (s != GPUX_SUCCESS) return s;
  }
  gpux_cl_arg(&a, sizeof b->zig_tab, &b->zig_tab);
  gpux_cl_arg(&a, sizeof q->zig_work, &q->zig_work);
  gpux_cl_arg(&a, sizeof dyn, &dyn);
  const gpux_rkeys ks = gpux_r_keys(p.seed); /* the Philox round keys */
  gpux_cl_arg(&a, sizeof ks, &ks);
  return gpux_cl_enqueue_1d(q, &a, (size_t)items);
}

static gpux_status gpux_cl_random(gpux__bq *q, const gpux__random *r) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_random(q, r));
}

static void install_random(gpux__backend_iface *it) { it->random = gpux_cl_random; }
const gpux_cl_family gpux_cl_fam_random = {
    GPUX_CL_FAM_SOURCE(random),
    .options = random_options,
    .resolve = resolve_random,
    .release = release_random,
    .queue_release = release_zig_work,
    .install = install_random,
    .query = -1,
};
