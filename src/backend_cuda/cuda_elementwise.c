/* gpux CUDA backend: the elementwise family (kernels/cuda/elementwise.cu: binary, unary,
 * where) and the copy family (kernels/cuda/copy.cu: casts, copies, fill, arange, linspace).
 * Their fatbins are embedded in this library. A context loads one with cuModuleLoadData on
 * the first launch of one of its kernels, and resolves each kernel on its own first launch
 * into tables indexed [op][dtype][layout] (gpux_cuda_resolve), so later launches do no
 * string work: look up the handle, fill the parameter array, cuLaunchKernel on the
 * queue's stream.
 *
 * Launch shapes (the kernels' contract is in kernels/cuda/gpux_cuda.cuh):
 *   contiguous (layouts C, S; cast C; fill, arange, linspace): GPUX_CUDA_BLOCK threads,
 *     each thread EPT elements (16-byte vectors, several in flight), grid = ceil(n / (BLOCK
 *     * EPT)) blocks, capped at 2^31 - 1 (the kernels loop over blocks);
 *   n-d (layout N, copy_n): GPUX_CUDA_BLOCK threads, one element each, grid-stride;
 *   copy_t: GPUX_COPY_TILE x GPUX_COPY_TILE_ROWS threads, two tiles per block pass,
 *     grid.x = half the tiles of the (tile_dim, last dim) plane, grid.y/z = batch (each
 *     <= 65535; the kernel loops). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"

#ifndef GPUX_CUDA_COPY_T_TILES
#define GPUX_CUDA_COPY_T_TILES 2 /* tiles per block pass: GPUX_CU_COPY_T_TILES in copy.cu */
#endif

/* ---- names, from the lists of gpux_kernels.h ------------------------------------------ */
#define GPUX_CUDA_DT_NAME(unused, dt) [GPUX_KDT_##dt] = #dt,
static const char *const gpux_cuda_dt_names[GPUX_KDT_COUNT] = {
    GPUX_DT_CAST(GPUX_CUDA_DT_NAME, _)};
#undef GPUX_CUDA_DT_NAME

#define GPUX_CUDA_BOP_ID(op, id, dts, res) GPUX_CUDA_BOP_##op = id,
#define GPUX_CUDA_UOP_ID(op, id, dts, res) GPUX_CUDA_UOP_##op = id,
enum { GPUX_BINARY_OPS(GPUX_CUDA_BOP_ID) GPUX_CUDA_BOP_END_ };
enum { GPUX_UNARY_OPS(GPUX_CUDA_UOP_ID) GPUX_CUDA_UOP_END_ };
#undef GPUX_CUDA_BOP_ID
#undef GPUX_CUDA_UOP_ID

/* base names ("gpux_binary_add_f32"); NULL where the op does not take the dtype */
#define GPUX_CUDA_BIN_NAME(op, dt) [GPUX_CUDA_BOP_##op][GPUX_KDT_##dt] = GPUX_KN_BINARY(#op, #dt),
#define GPUX_CUDA_BIN_OP(op, id, dts, res) dts(GPUX_CUDA_BIN_NAME, op)
static const char *const gpux_cuda_binary_names[GPUX_BINARY_OP_COUNT][GPUX_KDT_COUNT] = {
    GPUX_BINARY_OPS(GPUX_CUDA_BIN_OP)};
#undef GPUX_CUDA_BIN_OP
#undef GPUX_CUDA_BIN_NAME

#define GPUX_CUDA_UN_NAME(op, dt) [GPUX_CUDA_UOP_##op][GPUX_KDT_##dt] = GPUX_KN_UNARY(#op, #dt),
#define GPUX_CUDA_UN_OP(op, id, dts, res) dts(GPUX_CUDA_UN_NAME, op)
static const char *const gpux_cuda_unary_names[GPUX_UNARY_OP_COUNT][GPUX_KDT_COUNT] = {
    GPUX_UNARY_OPS(GPUX_CUDA_UN_OP)};
#undef GPUX_CUDA_UN_OP
#undef GPUX_CUDA_UN_NAME

static const char gpux_cuda_layout_suffix[GPUX_CUDA_NLAYOUTS] = {
    [GPUX_LAYOUT_C] = 'c', [GPUX_LAYOUT_S] = 's', [GPUX_LAYOUT_N] = 'n'};
#define GPUX_CUDA_ELEM_SIZE(sz) sz,
static const int gpux_cuda_elem_sizes[GPUX_CUDA_NSIZES] = {GPUX_ELEM_SIZES(GPUX_CUDA_ELEM_SIZE)};
#undef GPUX_CUDA_ELEM_SIZE

/* a kernel of a family, for names in messages (built only when needed) */
enum {
  GPUX_CUDA_K_BINARY,
  GPUX_CUDA_K_UNARY,
  GPUX_CUDA_K_WHERE,
  GPUX_CUDA_K_CAST,
  GPUX_CUDA_K_COPY_N,
  GPUX_CUDA_K_COPY_T,
  GPUX_CUDA_K_FILL,
  GPUX_CUDA_K_ARANGE,
  GPUX_CUDA_K_LINSPACE
};

static void gpux_cuda_kernel_name(char *buf, size_t size, int fam, int a, int b, int layout) {
  const char sfx = (unsigned)layout < GPUX_CUDA_NLAYOUTS ? gpux_cuda_layout_suffix[layout] : '?';
  switch (fam) {
    case GPUX_CUDA_K_BINARY:
      snprintf(buf, size, GPUX_KN_LAYOUT("%s", "%c"), gpux_cuda_binary_names[a][b], sfx);
      break;
    case GPUX_CUDA_K_UNARY:
      snprintf(buf, size, GPUX_KN_LAYOUT("%s", "%c"), gpux_cuda_unary_names[a][b], sfx);
      break;
    case GPUX_CUDA_K_WHERE:
      snprintf(buf, size, GPUX_KN_LAYOUT(GPUX_KN_WHERE("%s"), "%c"), gpux_cuda_dt_names[a], sfx);
      break;
    case GPUX_CUDA_K_CAST:
      snprintf(buf, size, GPUX_KN_LAYOUT(GPUX_KN_CAST("%s", "%s"), "%c"), gpux_cuda_dt_names[a],
               gpux_cuda_dt_names[b],
               sfx);
      break;
    case GPUX_CUDA_K_COPY_N:
      snprintf(buf, size, GPUX_KN_COPY_N("%d"), gpux_cuda_elem_sizes[a]);
      break;
    case GPUX_CUDA_K_COPY_T:
      snprintf(buf, size, GPUX_KN_COPY_T("%d"), gpux_cuda_elem_sizes[a]);
      break;
    case GPUX_CUDA_K_FILL:
      snprintf(buf, size, GPUX_KN_FILL("%s"), gpux_cuda_dt_names[a]);
      break;
    case GPUX_CUDA_K_ARANGE:
      snprintf(buf, size, GPUX_KN_ARANGE("%s"), gpux_cuda_dt_names[a]);
      break;
    default:
      snprintf(buf, size, GPUX_KN_LINSPACE("%s"), gpux_cuda_dt_names[a]);
      break;
  }
}

/* ---- loading ------------------------------------------------------------------------- */
/* The slow path of a lookup (a kernel's first launch in the context): its name, then
 * gpux_cuda_resolve in its family's module (K_BINARY to K_WHERE: elementwise.cu; the
 * others: copy.cu). */
static gpux_status gpux_cuda_ew_resolve(gpux__bctx *b, CUfunction *slot, int kind, int a,
                                        int c, int layout, CUfunction *f) {
  char name[96];
  gpux_cuda_kernel_name(name, sizeof name, kind, a, c, layout);
  return gpux_cuda_resolve(b,
                           kind <= GPUX_CUDA_K_WHERE ? GPUX_CUDA_FAM_elementwise
                                                     : GPUX_CUDA_FAM_copy,
                           slot, name, NULL, 0, 0, f);
}

/* ---- launching ----------------------------------------------------------------------- */
/* Launches the kernel in `slot` (fam, ka, kb, layout: which one, gpux_cuda_kernel_name) */
static gpux_status gpux_cuda_launch(gpux__bq *q, CUfunction *slot, gpux_cuda_grid g,
                                    void **args, int fam, int ka, int kb, int layout) {
  char name[96];
  int pushed = 0;
  CUfunction f;
  CUresult r;
  GPUX_CUDA_GET_KERNEL(f, slot, gpux_cuda_ew_resolve(q->b, slot, fam, ka, kb, layout, &f));
  r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  r = gpux_cuda_launch_current(q, f, g, args);
  gpux_cuda_leave(pushed);
  if (r == CUDA_SUCCESS) return GPUX_SUCCESS;
  gpux_cuda_kernel_name(name, sizeof name, fam, ka, kb, layout);
  return gpux_cuda_error(GPUX_ERROR_LAUNCH, r, "cuLaunchKernel(%s)", name);
}

static CUdeviceptr gpux_cuda_opnd_base(const gpux__operand *o) {
  return (CUdeviceptr)(uintptr_t)o->buf;
}

/* Contiguous kernels: mx = the largest element size among the pointer operands;
 * EPT = min(64 / mx, 32) elements per thread, as in kernels/cuda/gpux_cuda.cuh. */
static gpux_cuda_grid gpux_cuda_grid_c(int64_t n, int mx) {
  gpux_cuda_grid g = {1, 1, 1, GPUX_CUDA_BLOCK, 1};
  const uint64_t ept = mx >= 2 ? (uint64_t)(64 / mx) : 32u;
  const uint64_t epb = GPUX_CUDA_BLOCK * ept;
  const uint64_t blocks = ((uint64_t)n + epb - 1) / epb;
  g.gx = (unsigned)(blocks > GPUX_CUDA_MAX_GRID_X ? GPUX_CUDA_MAX_GRID_X : blocks ? blocks : 1);
  return g;
}

static gpux_cuda_grid gpux_cuda_grid_n(int64_t n) {
  gpux_cuda_grid g = {1, 1, 1, GPUX_CUDA_BLOCK, 1};
  uint64_t blocks = ((uint64_t)n + GPUX_CUDA_BLOCK - 1) / GPUX_CUDA_BLOCK;
  g.gx = (unsigned)(blocks > GPUX_CUDA_MAX_GRID_X ? GPUX_CUDA_MAX_GRID_X : blocks ? blocks : 1);
  return g;
}

static int gpux_cuda_max(int a, int b) { return a > b ? a : b; }

static gpux_status gpux_cuda_binary(gpux__bq *q, int op, const gpux__launch *l) {
  const int dt = l->opnd[1].dtype, lay = l->layout;
  CUfunction *slot = &q->b->binary[op][dt][lay];
  CUdeviceptr out, pa, pb;
  long long n;
  int so, sa, first;
  so = gpux_cuda_dt_size[l->opnd[0].dtype];
  sa = gpux_cuda_dt_size[dt];
  if (lay == GPUX_LAYOUT_N) {
    void *args[] = {&out, &pa, &pb, (void *)&l->nd};
    out = gpux_cuda_opnd_base(&l->opnd[0]);
    pa = gpux_cuda_opnd_base(&l->opnd[1]);
    pb = gpux_cuda_opnd_base(&l->opnd[2]);
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_n(l->nd.n), args, GPUX_CUDA_K_BINARY, op, dt,
                            lay);
  }
  n = (long long)l->n;
  out = gpux_cuda_opnd_ptr(&l->opnd[0], l->opnd[0].dtype);
  pa = gpux_cuda_opnd_ptr(&l->opnd[1], dt);
  if (lay == GPUX_LAYOUT_S) {
    void *args[] = {&out, &pa, (void *)&l->scalar, &first, &n};
    first = l->scalar_first ? 1 : 0;
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_c(n, gpux_cuda_max(so, sa)),
                            args, GPUX_CUDA_K_BINARY, op, dt, lay);
  } else {
    void *args[] = {&out, &pa, &pb, &n};
    pb = gpux_cuda_opnd_ptr(&l->opnd[2], dt);
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_c(n, gpux_cuda_max(so, sa)),
                            args, GPUX_CUDA_K_BINARY, op, dt, lay);
  }
}

static gpux_status gpux_cuda_unary(gpux__bq *q, int op, const gpux__launch *l) {
  const int dt = l->opnd[1].dtype, lay = l->layout;
  CUfunction *slot = &q->b->unary[op][dt][lay];
  CUdeviceptr out, pa;
  long long n;
  int so, sa;
  if (lay == GPUX_LAYOUT_N) {
    void *args[] = {&out, &pa, (void *)&l->nd};
    out = gpux_cuda_opnd_base(&l->opnd[0]);
    pa = gpux_cuda_opnd_base(&l->opnd[1]);
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_n(l->nd.n), args, GPUX_CUDA_K_UNARY, op, dt, lay);
  } else {
    void *args[] = {&out, &pa, &n};
    n = (long long)l->n;
    so = gpux_cuda_dt_size[l->opnd[0].dtype];
    sa = gpux_cuda_dt_size[dt];
    out = gpux_cuda_opnd_ptr(&l->opnd[0], l->opnd[0].dtype);
    pa = gpux_cuda_opnd_ptr(&l->opnd[1], dt);
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_c(n, gpux_cuda_max(so, sa)),
                            args, GPUX_CUDA_K_UNARY, op, dt, lay);
  }
}

static gpux_status gpux_cuda_where(gpux__bq *q, const gpux__launch *l) {
  const int dt = l->opnd[2].dtype, lay = l->layout;
  CUfunction *slot = &q->b->where[dt][lay];
  CUdeviceptr out, pc, pa, pb;
  long long n;
  if (lay == GPUX_LAYOUT_N) {
    void *args[] = {&out, &pc, &pa, &pb, (void *)&l->nd};
    out = gpux_cuda_opnd_base(&l->opnd[0]);
    pc = gpux_cuda_opnd_base(&l->opnd[1]);
    pa = gpux_cuda_opnd_base(&l->opnd[2]);
    pb = gpux_cuda_opnd_base(&l->opnd[3]);
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_n(l->nd.n), args, GPUX_CUDA_K_WHERE, dt, 0, lay);
  } else {
    void *args[] = {&out, &pc, &pa, &pb, &n};
    n = (long long)l->n;
    out = gpux_cuda_opnd_ptr(&l->opnd[0], dt);
    pc = gpux_cuda_opnd_ptr(&l->opnd[1], GPUX_KDT_b8);
    pa = gpux_cuda_opnd_ptr(&l->opnd[2], dt);
    pb = gpux_cuda_opnd_ptr(&l->opnd[3], dt);
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_c(n, gpux_cuda_dt_size[dt]), args,
                            GPUX_CUDA_K_WHERE, dt, 0, lay);
  }
}

static gpux_status gpux_cuda_cast(gpux__bq *q, const gpux__launch *l) {
  const int from = l->opnd[1].dtype, to = l->opnd[0].dtype, lay = l->layout;
  CUfunction *slot = &q->b->cast[from][to][lay];
  CUdeviceptr out, pa;
  long long n;
  if (lay == GPUX_LAYOUT_N) {
    void *args[] = {&out, &pa, (void *)&l->nd};
    out = gpux_cuda_opnd_base(&l->opnd[0]);
    pa = gpux_cuda_opnd_base(&l->opnd[1]);
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_n(l->nd.n), args, GPUX_CUDA_K_CAST, from, to,
                            lay);
  } else {
    void *args[] = {&out, &pa, &n};
    const int so = gpux_cuda_dt_size[to], sa = gpux_cuda_dt_size[from];
    n = (long long)l->n;
    out = gpux_cuda_opnd_ptr(&l->opnd[0], to);
    pa = gpux_cuda_opnd_ptr(&l->opnd[1], from);
    return gpux_cuda_launch(q, slot, gpux_cuda_grid_c(n, gpux_cuda_max(so, sa)),
                            args, GPUX_CUDA_K_CAST, from, to, lay);
  }
}

static gpux_status gpux_cuda_copy(gpux__bq *q, int elem_size, const gpux__launch *l) {
  gpux_nd_params t = l->nd; /* the plan, with tile_dim for copy_t */
  const gpux_nd_params *p = &t;
  CUdeviceptr out, in;
  void *args[] = {&out, &in, &t};
  /* element offsets are in p->offset; the kernels take base pointers */
  out = gpux_cuda_opnd_base(&l->opnd[0]);
  in = gpux_cuda_opnd_base(&l->opnd[1]);
  elem_size = gpux__nd_widen(&t, elem_size, 16, (uint64_t)(out | in));
  const int k = GPUX_ELEM_SIZE_INDEX(elem_size);
  t.tile_dim = gpux__nd_tile_dim(&t);
  if (p->tile_dim >= 0) {
    /* tiles of the (tile_dim, last dim) plane; the other dims are the batch */
    const uint64_t st = (uint64_t)p->shape[p->tile_dim], sl = (uint64_t)p->shape[p->ndim - 1];
    const uint64_t tiles = ((st + GPUX_COPY_TILE - 1) / GPUX_COPY_TILE) *
                           ((sl + GPUX_COPY_TILE - 1) / GPUX_COPY_TILE);
    const uint64_t nb = (uint64_t)p->n / (st * sl);
    gpux_cuda_grid g = {1, 1, 1, GPUX_COPY_TILE, GPUX_COPY_TILE_ROWS};
    uint64_t gy = nb > GPUX_CUDA_MAX_GRID_YZ ? GPUX_CUDA_MAX_GRID_YZ : nb;
    uint64_t gz = (nb + gy - 1) / gy;
    const uint64_t gx = (tiles + GPUX_CUDA_COPY_T_TILES - 1) / GPUX_CUDA_COPY_T_TILES;
    g.gx = (unsigned)(gx > GPUX_CUDA_MAX_GRID_X ? GPUX_CUDA_MAX_GRID_X : gx);
    g.gy = (unsigned)gy;
    g.gz = (unsigned)(gz > GPUX_CUDA_MAX_GRID_YZ ? GPUX_CUDA_MAX_GRID_YZ : gz);
    return gpux_cuda_launch(q, &q->b->copy_t[k], g, args, GPUX_CUDA_K_COPY_T, k, 0, 0);
  }
  return gpux_cuda_launch(q, &q->b->copy_n[k], gpux_cuda_grid_n(p->n), args, GPUX_CUDA_K_COPY_N,
                          k, 0, 0);
}

static gpux_status gpux_cuda_fill(gpux__bq *q, const gpux__launch *l) {
  const int dt = l->opnd[0].dtype;
  CUdeviceptr out;
  long long n = (long long)l->n;
  void *args[] = {&out, (void *)&l->scalar, &n};
  out = gpux_cuda_opnd_ptr(&l->opnd[0], dt);
  return gpux_cuda_launch(q, &q->b->fill[dt], gpux_cuda_grid_c(n, gpux_cuda_dt_size[dt]),
                          args, GPUX_CUDA_K_FILL, dt, 0, 0);
}

static gpux_status gpux_cuda_arange(gpux__bq *q, const gpux__launch *l, double start, double step) {
  const int dt = l->opnd[0].dtype;
  CUdeviceptr out;
  long long n = (long long)l->n;
  void *args[] = {&out, &start, &step, &n};
  out = gpux_cuda_opnd_ptr(&l->opnd[0], dt);
  return gpux_cuda_launch(q, &q->b->arange[dt], gpux_cuda_grid_c(n, gpux_cuda_dt_size[dt]),
                          args, GPUX_CUDA_K_ARANGE, dt, 0, 0);
}

static gpux_status gpux_cuda_linspace(gpux__bq *q, const gpux__launch *l, double start, double step,
                               double stop) {
  const int dt = l->opnd[0].dtype;
  CUdeviceptr out;
  long long n = (long long)l->n;
  void *args[] = {&out, &start, &step, &stop, &n};
  out = gpux_cuda_opnd_ptr(&l->opnd[0], dt);
  return gpux_cuda_launch(q, &q->b->linspace[dt], gpux_cuda_grid_c(n, gpux_cuda_dt_size[dt]),
                          args, GPUX_CUDA_K_LINSPACE, dt, 0, 0);
}

static void gpux_cuda_elementwise_install(gpux__backend_iface *it) {
  it->binary = gpux_cuda_binary;
  it->unary = gpux_cuda_unary;
  it->where = gpux_cuda_where;
}
const gpux_cuda_family gpux_cuda_fam_elementwise = {
    .install = gpux_cuda_elementwise_install,
    .query = -1,
};

static void gpux_cuda_copy_install(gpux__backend_iface *it) {
  it->cast = gpux_cuda_cast;
  it->copy = gpux_cuda_copy;
  it->fill = gpux_cuda_fill;
  it->arange = gpux_cuda_arange;
  it->linspace = gpux_cuda_linspace;
}
const gpux_cuda_family gpux_cuda_fam_copy = {
    .install = gpux_cuda_copy_install,
    .query = -1,
};
