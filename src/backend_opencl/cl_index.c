/* gpux OpenCL backend: the index family (kernels/cl/index.cl): gather and put, built per
 * index dtype (the program part: GPUX_KDT_i32 or GPUX_KDT_i64) on first use; its kernel
 * tables in the family's state; the launches, all 1-d, under the launch lock. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cl_internal.h"

#define SZ GPUX_ELEM_SIZE_COUNT
typedef struct ix_state {
  /* [element size index][idx dtype: 0 int32, 1 int64][win dtype likewise] */
  cl_kernel gather[SZ][2], take[SZ][2], put[SZ][2][2], mark[2][2], badval[2];
  int atomics; /* the device's 64-bit atomics: 0 not asked yet, 1 present, 2 absent */
} ix_state;
#define IX_STATE(b) ((ix_state *)(b)->fam[GPUX_CL_FAM_index])
static int it_of(int dt) { return dt == GPUX_KDT_i64; }

static gpux_status resolve_index(gpux__bctx *b, cl_program p, int part) {
  ix_state *st = IX_STATE(b);
  const int t = it_of(part);
  const char *it = gpux_cl_dt_name[part];
  static const int sizes[SZ] = {
#define SIZE_ITEM(n) n,
      GPUX_ELEM_SIZES(SIZE_ITEM)
#undef SIZE_ITEM
  };
  gpux_status s = GPUX_SUCCESS;
  for (int z = 0; z < SZ && s == GPUX_SUCCESS; z++) {
    s = gpux_cl_resolve(b, p, &st->gather[z][t], 0, GPUX_KN_INDEX_GATHER("%d", "%s"), sizes[z], it);
    if (s == GPUX_SUCCESS)
      s = gpux_cl_resolve(b, p, &st->take[z][t], 0, GPUX_KN_INDEX_TAKE("%d", "%s"), sizes[z], it);
    for (int w = 0; w < 2 && s == GPUX_SUCCESS; w++)
      s = gpux_cl_resolve(b, p, &st->put[z][t][w], 0, GPUX_KN_INDEX_PUT("%d", "%s", "%s"),
                          sizes[z], it, w ? "i64" : "i32");
  }
  for (int w = 0; w < 2 && s == GPUX_SUCCESS; w++)
    s = gpux_cl_resolve(b, p, &st->mark[t][w], 0, GPUX_KN_INDEX_MARK("%s", "%s"), it,
                        w ? "i64" : "i32");
  if (s == GPUX_SUCCESS) s = gpux_cl_resolve(b, p, &st->badval[t], 0, GPUX_KN_INDEX_BADVAL("%s"), it);
  return s;
}

static void release_index(gpux__bctx *b) {
  ix_state *st = IX_STATE(b);
  if (st) gpux_cl_release_kernels((cl_kernel *)st, offsetof(ix_state, atomics) / sizeof(cl_kernel));
}

static void index_options(gpux__bctx *b, char *buf, size_t size) {
  snprintf(buf, size, "%s", b->build_options);
}

static gpux_status launch_index(gpux__bq *q, const gpux__index *p) {
  gpux__bctx *b = q->b;
  ix_state *st = IX_STATE(b);
  const int t = it_of(p->idx_dtype), w = it_of(p->win_dtype), part = p->idx_dtype;
  const int z = GPUX_ELEM_SIZE_INDEX(p->elem_size);
  cl_kernel k;
  gpux_cl_args a = {NULL, 0, CL_SUCCESS};
  size_t items = (size_t)p->x.n;
  switch (p->kind) {
  case GPUX__IX_GATHER:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_index, part, st->gather[z][t], 0);
    a.k = k;
    gpux_cl_arg_mem(&a, &p->out);
    gpux_cl_arg_mem(&a, &p->src);
    gpux_cl_arg_mem(&a, &p->idx);
    gpux_cl_arg_mem(&a, &p->err);
    gpux_cl_arg(&a, sizeof p->x, &p->x);
    gpux_cl_arg(&a, sizeof p->nd, &p->nd);
    break;
  case GPUX__IX_TAKE:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_index, part, st->take[z][t], 0);
    a.k = k;
    gpux_cl_arg_mem(&a, &p->out);
    gpux_cl_arg_mem(&a, &p->src);
    gpux_cl_arg_mem(&a, &p->idx);
    gpux_cl_arg_mem(&a, &p->err);
    gpux_cl_arg(&a, sizeof p->x, &p->x);
    /* the GPU form: GPUX_IX_TAKE_ITEMS elements per work-item (kernels/cl/index.cl) */
    if (b->epi != 1) items = (items + GPUX_IX_TAKE_ITEMS - 1) / GPUX_IX_TAKE_ITEMS;
    break;
  case GPUX__IX_MARK:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_index, part, st->mark[t][w], 0);
    a.k = k;
    gpux_cl_arg_mem(&a, &p->win);
    gpux_cl_arg_mem(&a, &p->idx);
    gpux_cl_arg_mem(&a, &p->err);
    gpux_cl_arg(&a, sizeof p->x, &p->x);
    gpux_cl_arg(&a, sizeof p->nd, &p->nd);
    break;
  case GPUX__IX_PUT:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_index, part, st->put[z][t][w], 0);
    a.k = k;
    gpux_cl_arg_mem(&a, &p->out);
    gpux_cl_arg_mem(&a, &p->src);
    gpux_cl_arg_mem(&a, &p->idx);
    gpux_cl_arg_mem(&a, &p->win);
    gpux_cl_arg(&a, sizeof p->x, &p->x);
    gpux_cl_arg(&a, sizeof p->nd, &p->nd);
    break;
  default: /* GPUX__IX_BADVAL */
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_index, part, st->badval[t], 0);
    a.k = k;
    gpux_cl_arg_mem(&a, &p->idx);
    gpux_cl_arg_mem(&a, &p->err);
    gpux_cl_arg_long(&a, p->x.key);
    gpux_cl_arg(&a, sizeof p->nd, &p->nd);
    items = 1;
    break;
  }
  return gpux_cl_enqueue_1d(q, &a, items);
}

static gpux_status gpux_cl_index(gpux__bq *q, const gpux__index *p) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_index(q, p));
}

/* the kernels take 64-bit atomic min / max (the error key, int64 winners) */
static gpux_status index_supports(gpux__bctx *b, const gpux__query *q, char *why, size_t len) {
  (void)q;
  ix_state *st = IX_STATE(b);
  int has = __atomic_load_n(&st->atomics, __ATOMIC_RELAXED);
  if (!has) {
    char ext[8192] = "";
    clGetDeviceInfo(b->dev->device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    has = strstr(ext, "cl_khr_int64_base_atomics") && strstr(ext, "cl_khr_int64_extended_atomics") ? 1 : 2;
    __atomic_store_n(&st->atomics, has, __ATOMIC_RELAXED);
  }
  if (has == 1) return GPUX_SUCCESS;
  snprintf(why, len, "gather and put need cl_khr_int64_base_atomics and "
                     "cl_khr_int64_extended_atomics, which the device lacks");
  return GPUX_ERROR_UNSUPPORTED;
}

static void install_index(gpux__backend_iface *it) { it->index = gpux_cl_index; }
const gpux_cl_family gpux_cl_fam_index = {
    GPUX_CL_FAM_SOURCE(index),
    .split = 1,
    .options = index_options,
    .resolve = resolve_index,
    .release = release_index,
    .state_size = sizeof(ix_state),
    .install = install_index,
    .query = GPUX__Q_INDEX,
    .supports = index_supports,
};
