/* gpux OpenCL backend: the elementwise family (kernels/cl/elementwise.cl: binary, unary,
 * where) and the copy family (kernels/cl/copy.cl: casts, n-d and tiled copies, fill, arange,
 * linspace): their kernel tables and launches.
 *
 * Kernel handles are resolved once per program into tables indexed by [op][dtype][layout]
 * (names generated from the lists of gpux_kernels.h), so a launch does no string work: it
 * looks the kernel up, sets its arguments and enqueues it, under the launch lock (the
 * interface entries at the end take it around the launch_* functions). Signatures are
 * documented at the top of kernels/cl/elementwise.cl and kernels/cl/copy.cl. */
#include <stdio.h>
#include <string.h>
#include "cl_internal.h"

/* ---------------------------------------------------------------- names from the lists */
typedef struct opdesc {
  const char *name;
  unsigned dtypes; /* bit per GPUX_KDT_* */
} opdesc;
#define DT_BIT(a, dt) | (1u << GPUX_KDT_##dt)
#define OP_DESC(op, id, DTLIST, RES) [id] = {#op, 0u DTLIST(DT_BIT, _)},
static const opdesc binary_ops[GPUX_BINARY_OP_COUNT] = {GPUX_BINARY_OPS(OP_DESC)};
static const opdesc unary_ops[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(OP_DESC)};
static const unsigned where_dtypes = 0u GPUX_DT_WHERE(DT_BIT, _);
static const unsigned ramp_dtypes = 0u GPUX_DT_STORAGE(DT_BIT, _); /* arange, linspace */
#define ELEM_SIZE(sz) sz,
static const int copy_sizes[GPUX_CL_NSIZES] = {GPUX_ELEM_SIZES(ELEM_SIZE)};
static const char layout_char[3] = {[GPUX_LAYOUT_C] = 'c', [GPUX_LAYOUT_S] = 's',
                                    [GPUX_LAYOUT_N] = 'n'};

#define IS_F64 GPUX_CL_IS_F64
#define TRY(expr)                        \
  do {                                   \
    if ((s = (expr)) != GPUX_SUCCESS) return s; \
  } while (0)

/* ---------------------------------------------------------------- kernel tables */
/* Both families are split by dtype (gpux_kernels.h: program parts): part is the dtype of
 * the kernels to resolve (casts: the source dtype), or GPUX_PART_NONE (the copies). */
static gpux_status resolve_elementwise(gpux__bctx *b, cl_program p, int part) {
  gpux_status s;
  const int dt = part;
  if (dt >= GPUX_KDT_COUNT) return GPUX_SUCCESS;
  for (int op = 0; op < GPUX_BINARY_OP_COUNT; op++)
    if (binary_ops[op].dtypes & (1u << dt))
      for (int l = 0; l < 3; l++)
        TRY(gpux_cl_resolve(b, p, &b->binary[op][dt][l], IS_F64(dt),
                            GPUX_KN_LAYOUT(GPUX_KN_BINARY("%s", "%s"), "%c"),
                            binary_ops[op].name, gpux_cl_dt_name[dt], layout_char[l]));
  for (int op = 0; op < GPUX_UNARY_OP_COUNT; op++)
    if (unary_ops[op].dtypes & (1u << dt))
      for (int l = 0; l < 3; l += 2) /* c, n */
        TRY(gpux_cl_resolve(b, p, &b->unary[op][dt][l], IS_F64(dt),
                            GPUX_KN_LAYOUT(GPUX_KN_UNARY("%s", "%s"), "%c"),
                            unary_ops[op].name, gpux_cl_dt_name[dt], layout_char[l]));
  for (int l = 0; l < 3 && (where_dtypes & (1u << dt)); l += 2)
    TRY(gpux_cl_resolve(b, p, &b->where[dt][l], IS_F64(dt),
                        GPUX_KN_LAYOUT(GPUX_KN_WHERE("%s"), "%c"), gpux_cl_dt_name[dt],
                        layout_char[l]));
  return GPUX_SUCCESS;
}

static gpux_status resolve_copy(gpux__bctx *b, cl_program p, int part) {
  gpux_status s;
  if (part == GPUX_PART_NONE) {
    for (int i = 0; i < GPUX_CL_NSIZES; i++) {
      TRY(gpux_cl_resolve(b, p, &b->copy_n[i], 0, GPUX_KN_COPY_N("%d"), copy_sizes[i]));
      TRY(gpux_cl_resolve(b, p, &b->copy_t[i], 0, GPUX_KN_COPY_T("%d"), copy_sizes[i]));
    }
    return GPUX_SUCCESS;
  }
  const int dt = part; /* the casts from dt, and dt's generators */
  for (int to = 0; to < GPUX_KDT_COUNT; to++)
    for (int l = 0; l < 3; l += 2)
      TRY(gpux_cl_resolve(b, p, &b->cast[dt][to][l], IS_F64(dt) || IS_F64(to),
                          GPUX_KN_LAYOUT(GPUX_KN_CAST("%s", "%s"), "%c"), gpux_cl_dt_name[dt],
                          gpux_cl_dt_name[to], layout_char[l]));
  TRY(gpux_cl_resolve(b, p, &b->fill[dt], IS_F64(dt), GPUX_KN_FILL("%s"), gpux_cl_dt_name[dt]));
  if (!(ramp_dtypes & (1u << dt))) return GPUX_SUCCESS; /* complex: no arange, linspace */
  TRY(gpux_cl_resolve(b, p, &b->arange[dt], IS_F64(dt), GPUX_KN_ARANGE("%s"),
                      gpux_cl_dt_name[dt]));
  TRY(gpux_cl_resolve(b, p, &b->linspace[dt], IS_F64(dt), GPUX_KN_LINSPACE("%s"),
                      gpux_cl_dt_name[dt]));
  return GPUX_SUCCESS;
}

#define RELEASE_TABLE(t) gpux_cl_release_kernels((cl_kernel *)(t), sizeof(t) / sizeof(cl_kernel))

static void release_elementwise(gpux__bctx *b) {
  RELEASE_TABLE(b->binary);
  RELEASE_TABLE(b->unary);
  RELEASE_TABLE(b->where);
}

static void release_copy(gpux__bctx *b) {
  RELEASE_TABLE(b->cast);
  RELEASE_TABLE(b->copy_n);
  RELEASE_TABLE(b->copy_t);
  RELEASE_TABLE(b->fill);
  RELEASE_TABLE(b->arange);
  RELEASE_TABLE(b->linspace);
}

static void plain_options(gpux__bctx *b, char *buf, size_t size) {
  snprintf(buf, size, "%s", b->build_options);
}


#define GET_KERNEL GPUX_CL_GET_KERNEL

/* ---------------------------------------------------------------- launches */
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

static gpux_status launch_binary(gpux__bq *q, int op, const gpux__launch *l) {
  gpux__bctx *b = q->b;
  int dt = l->opnd[1].dtype;
  cl_kernel k;
  GET_KERNEL(k, &gpux_cl_fam_elementwise, dt, b->binary[op][dt][l->layout], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  if (l->layout == GPUX_LAYOUT_S) {
    cl_int first = l->scalar_first != 0;
    gpux_cl_arg_c(&a, &l->opnd[0]);
    gpux_cl_arg_c(&a, &l->opnd[1]);
    gpux_cl_arg(&a, gpux_cl_dt_size[dt], &l->scalar);
    gpux_cl_arg(&a, sizeof first, &first);
    gpux_cl_arg_long(&a, l->n);
  } else {
    arg_operands(&a, l, 3);
  }
  return gpux_cl_enqueue(q, &a, l);
}

static gpux_status launch_unary(gpux__bq *q, int op, const gpux__launch *l) {
  gpux__bctx *b = q->b;
  int dt = l->opnd[1].dtype;
  cl_kernel k;
  GET_KERNEL(k, &gpux_cl_fam_elementwise, dt, b->unary[op][dt][l->layout], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  arg_operands(&a, l, 2);
  return gpux_cl_enqueue(q, &a, l);
}

static gpux_status launch_where(gpux__bq *q, const gpux__launch *l) {
  gpux__bctx *b = q->b;
  int dt = l->opnd[2].dtype;
  cl_kernel k;
  GET_KERNEL(k, &gpux_cl_fam_elementwise, dt, b->where[dt][l->layout], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  arg_operands(&a, l, 4);
  return gpux_cl_enqueue(q, &a, l);
}

static gpux_status launch_cast(gpux__bq *q, const gpux__launch *l) {
  gpux__bctx *b = q->b;
  int from = l->opnd[1].dtype, to = l->opnd[0].dtype;
  cl_kernel k;
  GET_KERNEL(k, &gpux_cl_fam_copy, from, b->cast[from][to][l->layout], IS_F64(from) || IS_F64(to));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  arg_operands(&a, l, 2);
  return gpux_cl_enqueue(q, &a, l);
}

/* copy_t takes the dims of nd reordered: 0 = the last (the output's fast dim), 1 = td,
 * then the batch dims in order; one work-group per tile, NDRange (tiles along tile_dim,
 * tiles along the last dim, batch), split so that no launch has more than 32768 groups
 * along dims 1 and 2 (NVIDIA's limit is 65535). */
static gpux_status enqueue_copy_t(gpux__bq *q, gpux_cl_args *a, const gpux_nd_params *nd,
                                  int td) {
  gpux_nd_params t = *nd;
  int order[GPUX_KMAX_DIMS], m = 2;
  order[0] = (int)nd->ndim - 1;
  order[1] = td;
  for (int d = 0; d < (int)nd->ndim - 1; d++)
    if (d != td) order[m++] = d;
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
      cl_int e = clEnqueueNDRangeKernel(q->queue, a->k, 3, offset, global, local, 0, NULL, NULL);
      if (e != CL_SUCCESS)
        return gpux_cl_kernel_error(a->k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
    }
  return GPUX_SUCCESS;
}

static gpux_status launch_copy(gpux__bq *q, int elem_size, const gpux__launch *l) {
  gpux__bctx *b = q->b;
  gpux_nd_params t = l->nd;
  const gpux_nd_params *nd = &t;
  /* buffer objects start aligned (CL_DEVICE_MEM_BASE_ADDR_ALIGN); pocl vectorizes 4-byte
   * lanes best (gpux_cl_copy_range) */
  elem_size = gpux__nd_widen(&t, elem_size, b->dev->is_gpu ? 16 : 4, 0);
  const int i = GPUX_ELEM_SIZE_INDEX(elem_size);
  /* the tiled (local-memory) transpose pays on GPUs; pocl runs it slower than copy_n */
  const int td = b->dev->is_gpu ? gpux__nd_tile_dim(nd) : -1, tiled = td >= 0;
  cl_kernel k;
  if (tiled)
    GET_KERNEL(k, &gpux_cl_fam_copy, GPUX_PART_NONE, b->copy_t[i], 0);
  else
    GET_KERNEL(k, &gpux_cl_fam_copy, GPUX_PART_NONE, b->copy_n[i], 0);
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_mem(&a, &l->opnd[0]);
  gpux_cl_arg_mem(&a, &l->opnd[1]);
  if (tiled) return enqueue_copy_t(q, &a, nd, td);
  gpux_cl_arg(&a, sizeof *nd, nd);
  return b->exact ? gpux_cl_enqueue_nd_exact(q, &a, nd, 2) : gpux_cl_enqueue_1d(q, &a, (size_t)nd->n);
}

/* A contiguous byte range on a CPU device (pocl): clEnqueueCopyBuffer is one thread's
 * memcpy there (12 GB/s on the 2-core CI machine, half of what the add kernel reaches), so
 * the range runs as a 1-d copy_n of 4-byte elements (or the widest that divides the
 * offsets and the length), one element per work-item, on every core. */
gpux_status gpux_cl_copy_range(gpux__bq *q, void *dst, size_t dst_offset, void *src,
                               size_t src_offset, size_t bytes) {
  int es = 4; /* pocl vectorizes 4-byte lanes across work-items best: 2^24 float32 at
                 21 GB/s, against 18 with 8- or 16-byte elements (and 16 for the copy command) */
  while (es > 1 && ((dst_offset | src_offset | bytes) & (size_t)(es - 1))) es /= 2;
  gpux__launch l;
  memset(&l, 0, sizeof l);
  l.layout = GPUX_LAYOUT_N;
  l.opnd[0].buf = dst;
  l.opnd[1].buf = src;
  l.n = l.nd.n = (int64_t)(bytes / (size_t)es);
  l.nd.ndim = 1;
  l.nd.tile_dim = -1;
  l.nd.shape[0] = l.nd.n;
  l.nd.stride[0][0] = l.nd.stride[1][0] = 1;
  l.nd.offset[0] = (int64_t)(dst_offset / (size_t)es);
  l.nd.offset[1] = (int64_t)(src_offset / (size_t)es);
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_copy(q, es, &l));
}

static gpux_status launch_fill(gpux__bq *q, const gpux__launch *l) {
  gpux__bctx *b = q->b;
  int dt = l->opnd[0].dtype;
  cl_kernel k;
  GET_KERNEL(k, &gpux_cl_fam_copy, dt, b->fill[dt], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &l->opnd[0]);
  gpux_cl_arg(&a, gpux_cl_dt_size[dt], &l->scalar);
  gpux_cl_arg_long(&a, l->n);
  return gpux_cl_enqueue(q, &a, l);
}

static gpux_status launch_arange(gpux__bq *q, const gpux__launch *l, double start, double step) {
  gpux__bctx *b = q->b;
  int dt = l->opnd[0].dtype;
  cl_kernel k;
  GET_KERNEL(k, &gpux_cl_fam_copy, dt, b->arange[dt], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &l->opnd[0]);
  gpux_cl_arg_real(&a, b, start);
  gpux_cl_arg_real(&a, b, step);
  gpux_cl_arg_long(&a, l->n);
  return gpux_cl_enqueue(q, &a, l);
}

static gpux_status launch_linspace(gpux__bq *q, const gpux__launch *l, double start, double step,
                                   double stop) {
  gpux__bctx *b = q->b;
  int dt = l->opnd[0].dtype;
  cl_kernel k;
  GET_KERNEL(k, &gpux_cl_fam_copy, dt, b->linspace[dt], IS_F64(dt));
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &l->opnd[0]);
  gpux_cl_arg_real(&a, b, start);
  gpux_cl_arg_real(&a, b, step);
  gpux_cl_arg_real(&a, b, stop);
  gpux_cl_arg_long(&a, l->n);
  return gpux_cl_enqueue(q, &a, l);
}

/* ---------------------------------------------------------------- the entries */
/* each launch under the launch lock, from its kernel lookup to its enqueue */
static gpux_status gpux_cl_binary(gpux__bq *q, int op, const gpux__launch *l) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_binary(q, op, l));
}
static gpux_status gpux_cl_unary(gpux__bq *q, int op, const gpux__launch *l) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_unary(q, op, l));
}
static gpux_status gpux_cl_where(gpux__bq *q, const gpux__launch *l) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_where(q, l));
}
static gpux_status gpux_cl_cast(gpux__bq *q, const gpux__launch *l) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_cast(q, l));
}
static gpux_status gpux_cl_copy(gpux__bq *q, int elem_size, const gpux__launch *l) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_copy(q, elem_size, l));
}
static gpux_status gpux_cl_fill(gpux__bq *q, const gpux__launch *l) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_fill(q, l));
}
static gpux_status gpux_cl_arange(gpux__bq *q, const gpux__launch *l, double start, double step) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_arange(q, l, start, step));
}
static gpux_status gpux_cl_linspace(gpux__bq *q, const gpux__launch *l, double start, double step,
                                    double stop) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_linspace(q, l, start, step, stop));
}

/* ---------------------------------------------------------------- the records */
static void install_elementwise(gpux__backend_iface *it) {
  it->binary = gpux_cl_binary;
  it->unary = gpux_cl_unary;
  it->where = gpux_cl_where;
}
const gpux_cl_family gpux_cl_fam_elementwise = {
    GPUX_CL_FAM_SOURCE(elementwise),
    .options = plain_options,
    .split = 1,
    .resolve = resolve_elementwise,
    .release = release_elementwise,
    .install = install_elementwise,
    .query = -1,
};

static void install_copy(gpux__backend_iface *it) {
  it->cast = gpux_cl_cast;
  it->copy = gpux_cl_copy;
  it->fill = gpux_cl_fill;
  it->arange = gpux_cl_arange;
  it->linspace = gpux_cl_linspace;
}
const gpux_cl_family gpux_cl_fam_copy = {
    GPUX_CL_FAM_SOURCE(copy),
    .options = plain_options,
    .split = 1,
    .resolve = resolve_copy,
    .release = release_copy,
    .install = install_copy,
    .query = -1,
};
