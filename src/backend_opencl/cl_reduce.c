/* gpux OpenCL backend: reductions and scans (kernels/cl/reduce.cl, kernels/cl/scan.cl).
 *
 * Both programs come in two forms, fixed per context when they are built (b->red_cpu, see
 * be_context_create): the GPU form (work-groups of 256, local memory) and the CPU form (a
 * whole chunk or tile per work-item, b->red_local work-items per group). The host picks the
 * launch shape and the kernel's mode/phase argument; every shape gives the canonical bits.
 * Kernels are resolved once per program into tables indexed by [kind][dtype][layout], and
 * the GPU form's vector column kernels (reduce.cl's _cv) into b->reduce_cv[kind][dtype].
 * A launch runs under the launch lock; the scan's scratch is its queue's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cl_internal.h"

#define SET_ERROR(...) gpux_cl_host->set_error(__VA_ARGS__)

/* ---------------------------------------------------------------- names from the lists */
typedef struct kinddesc {
  const char *name;
  unsigned dtypes; /* bit per GPUX_KDT_* */
} kinddesc;
#define DT_BIT(a, dt) | (1u << GPUX_KDT_##dt)
#define KIND_DESC(k, id, DTLIST, ACC) [id] = {#k, 0u DTLIST(DT_BIT, _)},
static const kinddesc reduce_kinds[GPUX_REDUCE_KIND_COUNT] = {GPUX_REDUCE_KINDS(KIND_DESC)};
static const kinddesc scan_kinds[GPUX_SCAN_KIND_COUNT] = {GPUX_SCAN_KINDS(KIND_DESC)};
static const char layout_char[2] = {[GPUX_RL_ROW] = 'r', [GPUX_RL_COL] = 'c'};

#define TRY(expr)                               \
  do {                                          \
    if ((s = (expr)) != GPUX_SUCCESS) return s; \
  } while (0)

/* The kinds and dtypes with vector column kernels (reduce.cl's _cv, GPUX_REDUCE_CV_KINDS) */
#define RK_ID(k, id, list, acc) RK_##k = id,
enum { GPUX_REDUCE_KINDS(RK_ID) RK_END_ };
#undef RK_ID
static int col_vec_kind(int kind, int dt) {
#define CV_KIND(k) [RK_##k] = 1,
  static const unsigned char kinds[GPUX_REDUCE_KIND_COUNT] = {GPUX_REDUCE_CV_KINDS(CV_KIND)};
#undef CV_KIND
  return kinds[kind] && ((0u GPUX_REDUCE_CV_DT(DT_BIT, _)) >> dt & 1u) &&
         (reduce_kinds[kind].dtypes & (1u << dt));
}

/* Both families are split by dtype (gpux_kernels.h: program parts): part is the input dtype
 * of the kernels to resolve. */
static gpux_status resolve_reduce(gpux__bctx *b, cl_program p, int part) {
  gpux_status s;
  const int dt = part;
  for (int k = 0; k < GPUX_REDUCE_KIND_COUNT; k++)
    if (dt < GPUX_KDT_COUNT && (reduce_kinds[k].dtypes & (1u << dt))) {
      for (int l = 0; l < 2; l++)
        TRY(gpux_cl_resolve(b, p, &b->reduce[k][dt][l], GPUX_CL_IS_F64(dt),
                            GPUX_KN_LAYOUT(GPUX_KN_REDUCE("%s", "%s"), "%c"), reduce_kinds[k].name,
                            gpux_cl_dt_name[dt], layout_char[l]));
      if (!b->red_cpu && col_vec_kind(k, dt)) /* the GPU form's vector columns */
        TRY(gpux_cl_resolve(b, p, &b->reduce_cv[k][dt], 0,
                            GPUX_KN_LAYOUT(GPUX_KN_REDUCE("%s", "%s"), "cv"),
                            reduce_kinds[k].name, gpux_cl_dt_name[dt]));
    }
  return GPUX_SUCCESS;
}

static gpux_status resolve_scan(gpux__bctx *b, cl_program p, int part) {
  gpux_status s;
  const int dt = part;
  for (int k = 0; k < GPUX_SCAN_KIND_COUNT; k++)
    if (dt < GPUX_KDT_COUNT && (scan_kinds[k].dtypes & (1u << dt)))
      TRY(gpux_cl_resolve(b, p, &b->scan[k][dt], GPUX_CL_IS_F64(dt), GPUX_KN_SCAN("%s", "%s"),
                          scan_kinds[k].name, gpux_cl_dt_name[dt]));
  return GPUX_SUCCESS;
}

#define RELEASE_TABLE(t) gpux_cl_release_kernels((cl_kernel *)(t), sizeof(t) / sizeof(cl_kernel))
static void release_reduce(gpux__bctx *b) {
  RELEASE_TABLE(b->reduce);
  RELEASE_TABLE(b->reduce_cv);
}
static void release_scan(gpux__bctx *b) { RELEASE_TABLE(b->scan); }

/* both programs take the form's options (b->red_cpu, fixed at context creation) */
static void red_options(gpux__bctx *b, char *buf, size_t size) {
  snprintf(buf, size, "%s", b->red_build_options);
}

/* the queue's scan scratch */
static void release_scan_scratch(gpux__bq *q) {
  if (q->scan_tiles) clReleaseMemObject(q->scan_tiles);
  q->scan_tiles = NULL;
  q->scan_tiles_bytes = 0;
}

/* ---------------------------------------------------------------- launches */
/* Launches `groups` work-groups of `local` work-items. The kernels number their groups
 * gbase + group_id(0) + group_id(1) * num_groups(0) (gbase: argument gbase_arg), so the
 * groups go out as 2-d NDRanges of up to 2^20 x 32768 groups (NVIDIA allows 65535 groups
 * along dims 1 and 2), a rectangle and then the remainder, and every launch covers exactly
 * the groups it names. */
#define GROUPS_DIM0 ((int64_t)1 << 20)
#define GROUPS_DIM1 ((int64_t)32768)

static gpux_status launch_groups(gpux__bq *q, gpux_cl_args *a, cl_uint gbase_arg,
                                 size_t local, int64_t groups) {
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  for (int64_t base = 0; base < groups;) {
    int64_t left = groups - base, g0, g1;
    if (left >= GROUPS_DIM0) {
      g0 = GROUPS_DIM0;
      g1 = left / GROUPS_DIM0 < GROUPS_DIM1 ? left / GROUPS_DIM0 : GROUPS_DIM1;
    } else {
      g0 = left;
      g1 = 1;
    }
    cl_long gb = (cl_long)base;
    cl_int e = clSetKernelArg(a->k, gbase_arg, sizeof gb, &gb);
    if (e != CL_SUCCESS) return gpux_cl_kernel_error(a->k, "clSetKernelArg", e, GPUX_ERROR_LAUNCH);
    size_t global[2] = {(size_t)g0 * local, (size_t)g1}, lsz[2] = {local, 1};
    e = clEnqueueNDRangeKernel(q->queue, a->k, 2, NULL, global, lsz, 0, NULL, NULL);
    if (e != CL_SUCCESS)
      return gpux_cl_kernel_error(a->k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
    base += g0 * g1;
  }
  return GPUX_SUCCESS;
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* ---------------------------------------------------------------- reduce */
#define RED_SHORT 32 /* GPU form, mode 1: one work-item per output up to this length */

/* CPU form, _c: columns per work-item, GPUX_RD_CW of reduce.cl: 512 bytes of accumulators
 * per lane, at most 128 columns. The accumulator is the pass's output dtype (acc); the arg
 * kinds carry (value, index) pairs of 16 bytes. */
static int64_t cpu_cols(int kind, int acc) {
  static const int dt_bytes[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_KDT_SIZE_INIT)};
  const int bytes = !strncmp(reduce_kinds[kind].name, "arg", 3) ? 16 : dt_bytes[acc];
  return 512 / bytes < 128 ? 512 / bytes : 128;
}

static gpux_status launch_reduce(gpux__bq *q, const gpux__reduce_pass *p) {
  gpux__bctx *b = q->b;
  const int dt = p->dtype;
  /* a column reduction over one column is a row reduction */
  const int layout = p->layout == GPUX_RL_COL && p->inner > 1 ? GPUX_RL_COL : GPUX_RL_ROW;
  const int64_t inner = layout == GPUX_RL_COL ? p->inner : 1;
  cl_kernel k;
  GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_reduce, dt, b->reduce[p->kind][dt][layout], GPUX_CL_IS_F64(dt));
  const int64_t nparts = ceil_div(p->len, GPUX_RED_CHUNK);
  int mode = 0;
  int64_t groups;
  if (b->red_cpu) { /* a work-item per (chunk, row) or (column block, chunk, row) */
    int64_t items = layout == GPUX_RL_ROW
                        ? p->outer * nparts
                        : ceil_div(inner, cpu_cols(p->kind, p->out.dtype)) * nparts * p->outer;
    groups = ceil_div(items, (int64_t)b->red_local);
  } else if (p->len <= RED_SHORT) { /* a work-item per output */
    mode = 1;
    groups = ceil_div(p->outer * inner, GPUX_RED_LANES);
  } else if (layout == GPUX_RL_ROW) { /* a group per (chunk, row) */
    groups = p->outer * nparts;
  } else if (b->reduce_cv[p->kind][dt] && inner % 4 == 0 && p->in.offset % 4 == 0 &&
             b->base_align % 16 == 0) {
    /* _cv, a group per (block of 32 columns, chunk, row): 4 adjacent columns read as one
     * 16-byte vector, so inner and the element offset are multiples of 4 and buffers are
     * aligned to 16 bytes (clCreateBuffer aligns to CL_DEVICE_MEM_BASE_ADDR_ALIGN); the
     * slot is set (when the program was built) only in the GPU form, for the kinds and
     * dtypes that have the kernel. The mode argument is ignored. */
    k = b->reduce_cv[p->kind][dt];
    groups = ceil_div(inner, 32) * nparts * p->outer;
  } else { /* _c, a group per (block of 16 columns, chunk, row) */
    groups = ceil_div(inner, 16) * nparts * p->outer;
  }
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &p->in);
  gpux_cl_arg_c(&a, &p->in_idx);
  gpux_cl_arg_c(&a, &p->out);
  gpux_cl_arg_c(&a, &p->out_idx);
  gpux_cl_arg_c(&a, &p->aux);
  gpux_cl_arg_long(&a, p->outer);
  gpux_cl_arg_long(&a, p->len);
  gpux_cl_arg_long(&a, inner);
  gpux_cl_arg_long(&a, nparts);
  gpux_cl_arg_int(&a, mode);
  gpux_cl_arg_int(&a, nparts == 1 ? p->post : GPUX_POST_NONE);
  gpux_cl_arg_real(&a, b, p->post_div);
  return launch_groups(q, &a, a.i, b->red_local, groups); /* gbase: the last argument */
}

static gpux_status gpux_cl_reduce(gpux__bq *q, const gpux__reduce_pass *p) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_reduce(q, p));
}

/* ---------------------------------------------------------------- scan */
#define SCAN_SHORT 16 /* phase 0: rows of up to GPUX_SCAN_ITEMS elements */

/* q's scratch for rows x ntiles accumulators, grown as needed; a buffer it replaces stays
 * alive until the kernels queued on it finish (OpenCL retains it for them). */
static gpux_status scan_scratch(gpux__bq *q, size_t bytes) {
  const gpux__bctx *b = q->b;
  if (bytes <= q->scan_tiles_bytes) return GPUX_SUCCESS;
  size_t want = bytes < 2 * q->scan_tiles_bytes ? 2 * q->scan_tiles_bytes : bytes;
  if (want > b->max_alloc) want = bytes;
  if (want > b->max_alloc)
    return SET_ERROR(GPUX_ERROR_OUT_OF_MEMORY,
                     "opencl: the scan needs %zu bytes of scratch; the largest allocation %s "
                     "allows is %llu bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                     bytes, b->device_name, (unsigned long long)b->max_alloc);
  cl_int e;
  cl_mem m = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, want, NULL, &e);
  if (e != CL_SUCCESS)
    return SET_ERROR(e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES ||
                             e == CL_INVALID_BUFFER_SIZE
                         ? GPUX_ERROR_OUT_OF_MEMORY
                         : gpux_cl_status(e, GPUX_ERROR_DRIVER),
                     "clCreateBuffer(scan scratch, %zu bytes on %s): %s (%d)", want,
                     b->device_name, gpux_cl_error_name(e), (int)e);
  release_scan_scratch(q);
  q->scan_tiles = m;
  q->scan_tiles_bytes = want;
  return GPUX_SUCCESS;
}

static gpux_status launch_scan(gpux__bq *q, const gpux__scan_pass *p) {
  gpux__bctx *b = q->b;
  const int dt = p->dtype;
  cl_kernel k;
  GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_scan, dt, b->scan[p->kind][dt], GPUX_CL_IS_F64(dt));
  const int64_t ntiles = ceil_div(p->len, GPUX_SCAN_TILE), local = (int64_t)b->red_local;
  const int multi = ntiles > 1; /* phases 1 and 2 and the scratch */
  if (multi) { /* accumulators of 8 bytes, or of the complex dtype's 16 */
    const size_t acc = gpux_cl_dt_size[dt] > 8 ? gpux_cl_dt_size[dt] : 8;
    gpux_status s = scan_scratch(q, (size_t)(p->rows * ntiles) * acc);
    if (s != GPUX_SUCCESS) return s;
  }
  cl_mem tiles = multi ? q->scan_tiles : NULL;
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &p->in);
  gpux_cl_arg_c(&a, &p->out);
  gpux_cl_arg(&a, sizeof tiles, &tiles);
  gpux_cl_arg_long(&a, p->rows);
  gpux_cl_arg_long(&a, p->len);
  gpux_cl_arg_long(&a, ntiles);
  const cl_uint phase_arg = a.i;
  gpux_cl_arg_int(&a, 0);
  gpux_cl_arg_int(&a, p->exclusive != 0);
  const cl_uint gbase_arg = a.i;
  int phases[3], nphases = 0;
  if (p->len <= SCAN_SHORT) {
    phases[nphases++] = 0;
  } else {
    if (multi) {
      phases[nphases++] = 1;
      phases[nphases++] = 2;
    }
    phases[nphases++] = 3;
  }
  for (int i = 0; i < nphases; i++) {
    /* GPU form: a work-item per row in phase 0, a group per (row, tile) in phases 1 and 3,
     * a group per row in phase 2; CPU form: a work-item per each of those */
    const cl_int ph = phases[i];
    int64_t groups = ph == 2 ? p->rows : p->rows * ntiles;
    if (ph == 0 || b->red_cpu) groups = ceil_div(groups, local);
    if (a.e == CL_SUCCESS) a.e = clSetKernelArg(k, phase_arg, sizeof ph, &ph);
    gpux_status s = launch_groups(q, &a, gbase_arg, b->red_local, groups);
    if (s != GPUX_SUCCESS) return s;
  }
  return GPUX_SUCCESS;
}

static gpux_status gpux_cl_scan(gpux__bq *q, const gpux__scan_pass *p) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_scan(q, p));
}

/* ---------------------------------------------------------------- the records */
static void install_reduce(gpux__backend_iface *it) { it->reduce = gpux_cl_reduce; }
const gpux_cl_family gpux_cl_fam_reduce = {
    GPUX_CL_FAM_SOURCE(reduce),
    .options = red_options,
    .split = 1,
    .resolve = resolve_reduce,
    .release = release_reduce,
    .install = install_reduce,
    .query = -1,
};

static void install_scan(gpux__backend_iface *it) { it->scan = gpux_cl_scan; }
const gpux_cl_family gpux_cl_fam_scan = {
    GPUX_CL_FAM_SOURCE(scan),
    .options = red_options,
    .split = 1,
    .resolve = resolve_scan,
    .release = release_scan,
    .queue_release = release_scan_scratch,
    .install = install_scan,
    .query = -1,
};
