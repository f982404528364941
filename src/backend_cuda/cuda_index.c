/* gpux CUDA backend: the index family (kernels/cuda/index.cu): gather and put. Its kernel
 * table lives in the family's state; each kernel resolves on its first launch. */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_backend.h"

#define GPUX_CUDA_IX_THREADS 256u /* GPUX_CU_IX_THREADS in index.cu */
#define SZ GPUX_ELEM_SIZE_COUNT
typedef struct ix_state {
  /* [element size index][idx dtype: 0 int32, 1 int64][win dtype likewise] */
  CUfunction gather[SZ][2], take[SZ][2], put[SZ][2][2], mark[2][2], badval[2];
} ix_state;
#define IX_STATE(b) ((ix_state *)(b)->fam[GPUX_CUDA_FAM_index])
static const int k_sizes[SZ] = {
#define SIZE_ITEM(n) n,
    GPUX_ELEM_SIZES(SIZE_ITEM)
#undef SIZE_ITEM
};

static gpux_status gpux_cuda_index(gpux__bq *q, const gpux__index *p) {
  gpux__bctx *b = q->b;
  ix_state *st = IX_STATE(b);
  const int t = p->idx_dtype == GPUX_KDT_i64, w = p->win_dtype == GPUX_KDT_i64;
  const int z = GPUX_ELEM_SIZE_INDEX(p->elem_size);
  const char *it = t ? "i64" : "i32", *wt = w ? "i64" : "i32";
  char name[96];
  CUfunction f, *slot;
  CUdeviceptr out = (CUdeviceptr)(uintptr_t)p->out.buf, src = (CUdeviceptr)(uintptr_t)p->src.buf;
  CUdeviceptr idx = (CUdeviceptr)(uintptr_t)p->idx.buf, win = (CUdeviceptr)(uintptr_t)p->win.buf;
  CUdeviceptr err = (CUdeviceptr)(uintptr_t)p->err.buf;
  long long key = p->x.key;
  gpux_ix_params x = p->x;
  gpux_nd_params nd = p->nd;
  void *args[6];
  uint64_t per_block = GPUX_CUDA_IX_THREADS;
  switch (p->kind) {
  case GPUX__IX_GATHER:
    slot = &st->gather[z][t];
    snprintf(name, sizeof name, GPUX_KN_INDEX_GATHER("%d", "%s"), k_sizes[z], it);
    args[0] = &out, args[1] = &src, args[2] = &idx, args[3] = &err, args[4] = &x, args[5] = &nd;
    break;
  case GPUX__IX_TAKE:
    slot = &st->take[z][t];
    snprintf(name, sizeof name, GPUX_KN_INDEX_TAKE("%d", "%s"), k_sizes[z], it);
    args[0] = &out, args[1] = &src, args[2] = &idx, args[3] = &err, args[4] = &x;
    per_block *= GPUX_IX_TAKE_ITEMS;
    break;
  case GPUX__IX_MARK:
    slot = &st->mark[t][w];
    snprintf(name, sizeof name, GPUX_KN_INDEX_MARK("%s", "%s"), it, wt);
    args[0] = &win, args[1] = &idx, args[2] = &err, args[3] = &x, args[4] = &nd;
    break;
  case GPUX__IX_PUT:
    slot = &st->put[z][t][w];
    snprintf(name, sizeof name, GPUX_KN_INDEX_PUT("%d", "%s", "%s"), k_sizes[z], it, wt);
    args[0] = &out, args[1] = &src, args[2] = &idx, args[3] = &win, args[4] = &x, args[5] = &nd;
    break;
  default: /* GPUX__IX_BADVAL: one thread */
    slot = &st->badval[t];
    snprintf(name, sizeof name, GPUX_KN_INDEX_BADVAL("%s"), it);
    args[0] = &idx, args[1] = &err, args[2] = &key, args[3] = &nd;
    x.n = 1;
    break;
  }
  GPUX_CUDA_GET_KERNEL(f, slot,
                       gpux_cuda_resolve(b, GPUX_CUDA_FAM_index, slot, name, NULL, 0, 0, &f));
  const uint64_t blocks = ((uint64_t)x.n + per_block - 1) / per_block;
  if (blocks > GPUX_CUDA_MAX_GRID_X)
    return gpux_cuda_host->set_error(GPUX_ERROR_SIZE_OVERFLOW,
                                     "cuda: %lld elements are too many for one launch of %s",
                                     (long long)x.n, name);
  gpux_cuda_grid g = {(unsigned)blocks, 1, 1, GPUX_CUDA_IX_THREADS, 1};
  return gpux_cuda_launch_counted(q, f, g, args, name, (long long)x.n, "elements");
}

static void gpux_cuda_index_install(gpux__backend_iface *it) { it->index = gpux_cuda_index; }
const gpux_cuda_family gpux_cuda_fam_index = {
    .state_size = sizeof(ix_state),
    .install = gpux_cuda_index_install,
    .query = -1,
};
