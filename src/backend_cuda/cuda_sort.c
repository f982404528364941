/* gpux CUDA backend: sort (gpux__sort_pass; kernels/cuda/sort.cu). Blocks of
 * GPUX_SORT_THREADS; grids of at most GPUX_CUDA_SORT_MAX_GRID blocks (the kernels loop over
 * the rest). */
#include <stdio.h>
#include <string.h>

#include "cuda_backend.h"

#define GPUX_CUDA_SORT_MAX_GRID ((int64_t)1 << 20)

enum { SK_HIST, SK_SCATTER, SK_LOCAL, SK_NW };
typedef struct gpux_cuda_sort_state {
  CUfunction img[GPUX_KDT_COUNT], out[GPUX_KDT_COUNT];
  CUfunction w[SK_NW][2]; /* [kind][W 32, 64] */
  CUfunction widen;
} gpux_cuda_sort_state;

static const char *const img_names[GPUX_KDT_COUNT] = {
#define SK_IMG(dt, w, W, cls, em, mm, nan) [GPUX_KDT_##dt] = GPUX_KN_SORT_IMG(#dt),
    GPUX_SORT_DTYPES(SK_IMG)
#undef SK_IMG
};
static const char *const out_names[GPUX_KDT_COUNT] = {
#define SK_OUT(dt, w, W, cls, em, mm, nan) [GPUX_KDT_##dt] = GPUX_KN_SORT_OUT(#dt),
    GPUX_SORT_DTYPES(SK_OUT)
#undef SK_OUT
};
static const char *const w_names[SK_NW][2] = {
    {GPUX_KN_SORT_HIST("32"), GPUX_KN_SORT_HIST("64")},
    {GPUX_KN_SORT_SCATTER("32"), GPUX_KN_SORT_SCATTER("64")},
    {GPUX_KN_SORT_LOCAL("32"), GPUX_KN_SORT_LOCAL("64")},
};

static gpux_status gpux_cuda_sort(gpux__bq *q, const gpux__sort_pass *p) {
  gpux__bctx *b = q->b;
  gpux_cuda_sort_state *st = (gpux_cuda_sort_state *)b->fam[GPUX_CUDA_FAM_sort];
  const int wi = p->width == 8;
  const int idt = p->width == 8 ? GPUX_KDT_u64 : GPUX_KDT_u32;
  long long n = (long long)(p->rows * p->len), len = (long long)p->len,
            ntiles = (long long)p->ntiles, tiles = (long long)(p->rows * p->ntiles),
            rows = (long long)p->rows;
  unsigned flags = p->flags;
  int shift = p->shift;
  CUdeviceptr keys = 0, img_in = 0, pos_in = 0, img_out = 0, pos_out = 0, aux = 0;
  CUfunction *slot;
  const char *name;
  void *args[9];
  int64_t blocks;
  switch (p->stage) {
    case GPUX__SO_IMG: {
      slot = &st->img[p->dtype];
      name = img_names[p->dtype];
      keys = gpux_cuda_opnd_ptr(&p->keys, p->dtype);
      img_out = gpux_cuda_opnd_ptr(&p->img_out, idt);
      pos_out = gpux_cuda_opnd_ptr(&p->pos_out, GPUX_KDT_u32);
      aux = gpux_cuda_opnd_ptr(&p->bits, GPUX_KDT_u32);
      void *a[7] = {&keys, &img_out, &pos_out, &aux, &n, &len, &flags};
      memcpy(args, a, sizeof a);
      blocks = (n + GPUX_SORT_TILE - 1) / GPUX_SORT_TILE;
      break;
    }
    case GPUX__SO_OUT: {
      slot = &st->out[p->dtype];
      name = out_names[p->dtype];
      img_in = gpux_cuda_opnd_ptr(&p->img_in, idt);
      keys = gpux_cuda_opnd_ptr(&p->keys, p->dtype);
      void *a[4] = {&img_in, &keys, &n, &flags};
      memcpy(args, a, sizeof a);
      blocks = (n + GPUX_SORT_TILE - 1) / GPUX_SORT_TILE;
      break;
    }
    case GPUX__SO_WIDEN: {
      slot = &st->widen;
      name = GPUX_KN_SORT_WIDEN;
      pos_in = gpux_cuda_opnd_ptr(&p->pos_in, GPUX_KDT_u32);
      aux = gpux_cuda_opnd_ptr(&p->out, GPUX_KDT_i64);
      void *a[3] = {&pos_in, &aux, &n};
      memcpy(args, a, sizeof a);
      blocks = (n + GPUX_SORT_TILE - 1) / GPUX_SORT_TILE;
      break;
    }
    case GPUX__SO_HIST: {
      slot = &st->w[SK_HIST][wi];
      name = w_names[SK_HIST][wi];
      img_in = gpux_cuda_opnd_ptr(&p->img_in, idt);
      aux = gpux_cuda_opnd_ptr(&p->counts, GPUX_KDT_i32);
      void *a[6] = {&img_in, &aux, &len, &ntiles, &shift, &tiles};
      memcpy(args, a, sizeof a);
      blocks = tiles;
      break;
    }
    case GPUX__SO_SCATTER: {
      slot = &st->w[SK_SCATTER][wi];
      name = w_names[SK_SCATTER][wi];
      img_in = gpux_cuda_opnd_ptr(&p->img_in, idt);
      pos_in = gpux_cuda_opnd_ptr(&p->pos_in, GPUX_KDT_u32);
      aux = gpux_cuda_opnd_ptr(&p->offs, GPUX_KDT_i64);
      img_out = gpux_cuda_opnd_ptr(&p->img_out, idt);
      pos_out = gpux_cuda_opnd_ptr(&p->pos_out, GPUX_KDT_u32);
      void *a[9] = {&img_in, &pos_in, &aux, &img_out, &pos_out, &len, &ntiles, &shift, &tiles};
      memcpy(args, a, sizeof a);
      blocks = tiles;
      break;
    }
    default: { /* GPUX__SO_LOCAL */
      slot = &st->w[SK_LOCAL][wi];
      name = w_names[SK_LOCAL][wi];
      img_in = gpux_cuda_opnd_ptr(&p->img_in, idt);
      pos_in = gpux_cuda_opnd_ptr(&p->pos_in, GPUX_KDT_u32);
      img_out = gpux_cuda_opnd_ptr(&p->img_out, idt);
      pos_out = gpux_cuda_opnd_ptr(&p->pos_out, GPUX_KDT_u32);
      void *a[6] = {&img_in, &pos_in, &img_out, &pos_out, &len, &rows};
      memcpy(args, a, sizeof a);
      blocks = rows;
      break;
    }
  }
  CUfunction f;
  GPUX_CUDA_GET_KERNEL(f, slot, gpux_cuda_resolve(b, GPUX_CUDA_FAM_sort, slot, name, NULL, 0, 0, &f));
  if (blocks > GPUX_CUDA_SORT_MAX_GRID) blocks = GPUX_CUDA_SORT_MAX_GRID;
  gpux_cuda_grid grid = {(unsigned)blocks, 1, 1, GPUX_SORT_THREADS, 1};
  return gpux_cuda_launch_counted(q, f, grid, args, name, n, "keys");
}

static void gpux_cuda_sort_install(gpux__backend_iface *it) { it->sort = gpux_cuda_sort; }
const gpux_cuda_family gpux_cuda_fam_sort = {
    .state_size = sizeof(gpux_cuda_sort_state),
    .install = gpux_cuda_sort_install,
    .query = -1,
};
