/* gpux OpenCL backend: the scatter family (kernels/cl/scatter.cl; the arithmetic is
 * kernels/common/gpux_scatter.h's): scatter-add / -max / -min, bincount and the bin search
 * of histogram and digitize. Built per dtype part (the bincount kernels in the parts of
 * their index dtypes, i32 and i64). The kernels need 64-bit atomics
 * (cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics): supports says no on a
 * device without them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cl_internal.h"

#define SET_ERROR(...) gpux_cl_host->set_error(__VA_ARGS__)
#define IS_F64 GPUX_CL_IS_F64

typedef struct scatter_state {
  cl_kernel init[GPUX_KDT_COUNT], fin[GPUX_KDT_COUNT], search[GPUX_KDT_COUNT];
  cl_kernel scan[GPUX_KDT_COUNT]; /* the float dtypes' */
  cl_kernel apply[GPUX_KDT_COUNT][2]; /* [dt][0: i32, 1: i64] */
  cl_kernel bincount[2];
} scatter_state;
#define SC_STATE(b) ((scatter_state *)(b)->fam[GPUX_CL_FAM_scatter])
#define IXI(dt) ((dt) == GPUX_KDT_i64 ? 1 : 0)

static gpux_status resolve_scatter(gpux__bctx *b, cl_program p, int part) {
  scatter_state *st = SC_STATE(b);
  gpux_status s = GPUX_SUCCESS;
#define R(slot, f64, ...) \
  if (s == GPUX_SUCCESS) s = gpux_cl_resolve(b, p, &(slot), f64, __VA_ARGS__);
#define RESOLVE_IX(dt, ix) R(st->apply[GPUX_KDT_##dt][IXI(GPUX_KDT_##ix)], IS_F64(GPUX_KDT_##dt), "gpux_scatter_" #dt "_" #ix)
#define RESOLVE(a, dt)                                                                    \
  if (part == GPUX_KDT_##dt) {                                                            \
    R(st->init[GPUX_KDT_##dt], IS_F64(GPUX_KDT_##dt), "gpux_scatter_init_" #dt)           \
    R(st->fin[GPUX_KDT_##dt], IS_F64(GPUX_KDT_##dt), "gpux_scatter_fin_" #dt)             \
    R(st->search[GPUX_KDT_##dt], IS_F64(GPUX_KDT_##dt), "gpux_search_" #dt)               \
    GPUX_SCAT_IX(RESOLVE_IX, dt)                                                            \
  }
  GPUX_SCAT_DT(RESOLVE, _)
#define RESOLVE_SCAN(a, dt) \
  if (part == GPUX_KDT_##dt) R(st->scan[GPUX_KDT_##dt], IS_F64(GPUX_KDT_##dt), "gpux_scatter_scan_" #dt)
  GPUX_SCAT_FDT(RESOLVE_SCAN, _)
#undef RESOLVE_SCAN
#define RESOLVE_BC(a, ix) \
  if (part == GPUX_KDT_##ix) R(st->bincount[IXI(GPUX_KDT_##ix)], 0, "gpux_bincount_" #ix)
  GPUX_SCAT_IX(RESOLVE_BC, _)
#undef RESOLVE_BC
#undef RESOLVE
#undef RESOLVE_IX
#undef R
  return s;
}

static void release_scatter(gpux__bctx *b) {
  scatter_state *st = SC_STATE(b);
  if (st) gpux_cl_release_kernels((cl_kernel *)st, sizeof *st / sizeof(cl_kernel));
}

static void scatter_options(gpux__bctx *b, char *buf, size_t size) {
  snprintf(buf, size, "%s", b->build_options);
}

/* a, its arguments set, over global work-items in work-groups of local */
static gpux_status enqueue_groups(gpux__bq *q, const gpux_cl_args *a, size_t global, size_t local) {
  if (a->e != CL_SUCCESS) return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  cl_int e = clEnqueueNDRangeKernel(q->queue, a->k, 1, NULL, &global, &local, 0, NULL, NULL);
  if (e != CL_SUCCESS) return gpux_cl_kernel_error(a->k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
  return GPUX_SUCCESS;
}

/* The exact sums' scan: work-groups of GPUX_SC_THREADS (CPU form: 1) over chunks of
 * values (on GPUs 16 a work-item, about 2^12 a work-group; on CPUs 2^12 a work-item). */
static gpux_status launch_scan(gpux__bq *q, const gpux__scatter *s) {
  gpux__bctx *b = q->b;
  const int dt = s->dtype;
  cl_kernel k;
  GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_scatter, dt, SC_STATE(b)->scan[dt], IS_F64(dt));
  const size_t local = b->exact ? 1 : GPUX_SC_THREADS;
  const int64_t chunk = b->exact ? 4096 : 16, per = chunk * (int64_t)local;
  const size_t global = (size_t)((s->nv + per - 1) / per) * local;
  cl_mem acc = (cl_mem)s->acc;
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &s->v);
  gpux_cl_arg_long(&a, s->nv);
  gpux_cl_arg(&a, sizeof acc, &acc);
  gpux_cl_arg_long(&a, chunk);
  gpux_cl_arg(&a, local * 8u, NULL); /* the work-group's maxima */
  return enqueue_groups(q, &a, global, local);
}

static gpux_status launch_scatter(gpux__bq *q, const gpux__scatter *s) {
  gpux__bctx *b = q->b;
  const int dt = s->dtype;
  cl_kernel k;
  cl_mem acc = (cl_mem)s->acc;
  if (s->stage == GPUX__SC_APPLY) {
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_scatter, dt, SC_STATE(b)->apply[dt][IXI(s->idx_dtype)], IS_F64(dt));
    gpux_cl_args a = {k, 0, CL_SUCCESS};
    gpux_cl_arg_c(&a, &s->v);
    gpux_cl_arg_c(&a, &s->idx);
    gpux_cl_arg(&a, sizeof acc, &acc);
    gpux_cl_arg_long(&a, s->nv);
    gpux_cl_arg_long(&a, s->m);
    gpux_cl_arg_long(&a, s->post);
    gpux_cl_arg_long(&a, s->n);
    gpux_cl_arg_long(&a, s->nt);
    gpux_cl_arg_int(&a, s->mode);
    gpux_cl_arg_int(&a, s->op);
    return gpux_cl_enqueue_1d(q, &a, (size_t)s->nv);
  }
  if (s->stage == GPUX__SC_SCAN) return launch_scan(q, s);
  if (s->stage == GPUX__SC_INIT)
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_scatter, dt, SC_STATE(b)->init[dt], IS_F64(dt));
  else
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_scatter, dt, SC_STATE(b)->fin[dt], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &s->a);
  gpux_cl_arg(&a, sizeof acc, &acc);
  gpux_cl_arg_long(&a, s->nt);
  gpux_cl_arg_int(&a, s->op);
  return gpux_cl_enqueue_1d(q, &a, (size_t)s->nt);
}

static gpux_status gpux_cl_scatter(gpux__bq *q, const gpux__scatter *s) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_scatter(q, s));
}

/* Work-groups of GPUX_SC_THREADS (CPU form: 1) each count a contiguous chunk: on GPUs about
 * 8 groups per compute unit, on CPUs chunks of at least 2^16 values. */
static gpux_status launch_bincount(gpux__bq *q, const gpux__bincount *c) {
  gpux__bctx *b = q->b;
  cl_kernel k;
  GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_scatter, c->idx_dtype, SC_STATE(b)->bincount[IXI(c->idx_dtype)], 0);
  cl_uint cu = 0;
  if (clGetDeviceInfo(b->dev->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL) !=
          CL_SUCCESS || cu == 0)
    cu = 1;
  const size_t local = b->exact ? 1 : GPUX_SC_THREADS;
  const int priv = c->nbins <= GPUX_SC_LOCAL_BINS &&
                   (cl_ulong)c->nbins * 4u <= b->local_mem;
  int64_t groups = b->exact ? (int64_t)cu * 4 : (int64_t)cu * 8;
  const int64_t min_chunk = b->exact ? ((int64_t)1 << 16) : (int64_t)local * 16;
  if ((c->n + min_chunk - 1) / min_chunk < groups) groups = (c->n + min_chunk - 1) / min_chunk;
  if (groups < 1) groups = 1;
  int64_t chunk = (c->n + groups - 1) / groups;
  if (!b->exact) chunk = (chunk + (int64_t)local - 1) / (int64_t)local * (int64_t)local;
  groups = (c->n + chunk - 1) / chunk;
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &c->x);
  gpux_cl_arg_long(&a, c->n);
  gpux_cl_arg_long(&a, chunk);
  gpux_cl_arg_c(&a, &c->counts);
  gpux_cl_arg_long(&a, c->nbins);
  gpux_cl_arg_c(&a, &c->err);
  gpux_cl_arg(&a, priv ? (size_t)c->nbins * 4u : 4u, NULL); /* local counters */
  gpux_cl_arg_int(&a, priv);
  return enqueue_groups(q, &a, (size_t)groups * local, local);
}

static gpux_status gpux_cl_bincount(gpux__bq *q, const gpux__bincount *c) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_bincount(q, c));
}

static gpux_status launch_search(gpux__bq *q, const gpux__search *s) {
  gpux__bctx *b = q->b;
  const int dt = s->dtype;
  cl_kernel k;
  GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_scatter, dt, SC_STATE(b)->search[dt], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &s->x);
  gpux_cl_arg_long(&a, s->n);
  gpux_cl_arg_c(&a, &s->edges);
  gpux_cl_arg_long(&a, s->ne);
  gpux_cl_arg_int(&a, s->mode);
  gpux_cl_arg_c(&a, &s->out);
  return gpux_cl_enqueue_1d(q, &a, (size_t)s->n);
}

static gpux_status gpux_cl_search(gpux__bq *q, const gpux__search *s) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_search(q, s));
}

/* every kernel of the family uses 64-bit atomics (bincount's counts, the exact sums) */
static gpux_status scatter_supports(gpux__bctx *b, const gpux__query *q, char *why, size_t len) {
  (void)q;
  char ext[8192] = "";
  clGetDeviceInfo(b->dev->device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
  if (!strstr(ext, "cl_khr_int64_base_atomics") || !strstr(ext, "cl_khr_int64_extended_atomics")) {
    snprintf(why, len, "the scatter kernels need cl_khr_int64_base_atomics and "
             "cl_khr_int64_extended_atomics, which this device lacks");
    return GPUX_ERROR_UNSUPPORTED;
  }
  return GPUX_SUCCESS;
}

static void install_scatter(gpux__backend_iface *it) {
  it->scatter = gpux_cl_scatter;
  it->bincount = gpux_cl_bincount;
  it->search = gpux_cl_search;
}
const gpux_cl_family gpux_cl_fam_scatter = {
    GPUX_CL_FAM_SOURCE(scatter),
    .split = 1,
    .options = scatter_options,
    .resolve = resolve_scatter,
    .release = release_scatter,
    .state_size = sizeof(scatter_state),
    .install = install_scatter,
    .query = GPUX__Q_SCATTER,
    .supports = scatter_supports,
};
