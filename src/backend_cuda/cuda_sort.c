/* gpux CUDA backend: sort (gpux__sort_pass; kernels/cuda/sort.cu). Blocks of
 * GPUX_SORT_THREADS; grids of at most GPUX_CUDA_SORT_MAX_GRID blocks (the kernels loop over
 * the rest). */
#include <stdio.h>
#include <string.h>

#include "cuda_backend.h"

#define GPUX_CUDA_SORT_MAX_GRID ((int64_t)1 << 20)

enum { SK_ONESWEEP, SK_LOCAL, SK_NW };
typedef struct gpux_cuda_sort_state {
  CUfunction img[GPUX_KDT_COUNT], imgh[GPUX_KDT_COUNT], out[GPUX_KDT_COUNT];
  CUfunction w[SK_NW][2]; /* [kind][W 32, 64] */
  CUfunction widen;
} gpux_cuda_sort_state;

static const char *const img_names[GPUX_KDT_COUNT] = {
#define SK_IMG(dt, w, W, cls, em, mm, nan) [GPUX_KDT_##dt] = GPUX_KN_SORT_IMG(#dt),
    GPUX_SORT_DTYPES(SK_IMG)
#undef SK_IMG
};
static const char *const imgh_names[GPUX_KDT_COUNT] = {
#define SK_IMGH(dt, w, W, cls, em, mm, nan) [GPUX_KDT_##dt] = GPUX_KN_SORT_IMGH(#dt),
    GPUX_SORT_DTYPES(SK_IMGH)
#undef SK_IMGH
};
static const char *const out_names[GPUX_KDT_COUNT] = {
#define SK_OUT(dt, w, W, cls, em, mm, nan) [GPUX_KDT_##dt] = GPUX_KN_SORT_OUT(#dt),
    GPUX_SORT_DTYPES(SK_OUT)
#undef SK_OUT
};
static const char *const w_names[SK_NW][2] = {
    {GPUX_KN_SORT_ONESWEEP("32"), GPUX_KN_SORT_ONESWEEP("64")},
    {GPUX_KN_SORT_LOCAL("32"), GPUX_KN_SORT_LOCAL("64")},
};

static gpux_status gpux_cuda_sort(gpux__bq *q, const gpux__sort_pass *p) {
  gpux__bctx *b = q->b;
  gpux_cuda_sort_state *st = (gpux_cuda_sort_state *)b->fam[GPUX_CUDA_FAM_sort];
  const int wi = p->width == 8;
  const int idt = p->width == 8 ? GPUX_KDT_u64 : GPUX_KDT_u32;
  long long n = (long long)(p->rows * p->len), len = (long long)p->len,
            rows = (long long)p->rows, hk = (long long)p->hk, gpr = (long long)p->gpr,
            ngroups = (long long)p->ngroups, pkeys = (long long)p->pkeys,
            p0 = (long long)p->p0, plen = (long long)p->plen, tpp = (long long)p->tpp;
  unsigned flags = p->flags;
  int pass = p->pass, npass = p->npass, portion = p->portion, nportions = p->nportions;
  CUdeviceptr keys = 0, img_in = 0, pos_in = 0, img_out = 0, pos_out = 0, aux = 0, aux2 = 0;
  /* ONESWEEP's fused ends and the key dtype's constants (the launch reads these after the
   * switch: they live here) */
  CUdeviceptr kin = 0, kout = 0, pos64 = 0;
  const gpux__sort_keycv cv = gpux__sort_keycv_of(p->dtype);
  int kw = cv.w, kcls = cv.cls;
  unsigned long long em = cv.em, mm = cv.mm, nan = cv.nan;
  CUfunction *slot;
  const char *name;
  void *args[24];
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
      blocks = (n + GPUX_SORT_ELEMS - 1) / GPUX_SORT_ELEMS;
      break;
    }
    case GPUX__SO_IMGH: {
      slot = &st->imgh[p->dtype];
      name = imgh_names[p->dtype];
      keys = gpux_cuda_opnd_ptr(&p->keys, p->dtype);
      img_out = gpux_cuda_opnd_ptr(&p->img_out, idt);
      aux = gpux_cuda_opnd_ptr(&p->bits, GPUX_KDT_u32);
      aux2 = gpux_cuda_opnd_ptr(&p->counts, GPUX_KDT_u32);
      void *a[11] = {&keys, &img_out, &aux, &aux2, &len, &hk, &gpr, &ngroups, &pkeys, &nportions, &flags};
      memcpy(args, a, sizeof a);
      blocks = ngroups;
      break;
    }
    case GPUX__SO_OUT: {
      slot = &st->out[p->dtype];
      name = out_names[p->dtype];
      img_in = gpux_cuda_opnd_ptr(&p->img_in, idt);
      keys = gpux_cuda_opnd_ptr(&p->keys, p->dtype);
      void *a[4] = {&img_in, &keys, &n, &flags};
      memcpy(args, a, sizeof a);
      blocks = (n + GPUX_SORT_ELEMS - 1) / GPUX_SORT_ELEMS;
      break;
    }
    case GPUX__SO_WIDEN: {
      slot = &st->widen;
      name = GPUX_KN_SORT_WIDEN;
      pos_in = gpux_cuda_opnd_ptr(&p->pos_in, GPUX_KDT_u32);
      aux = gpux_cuda_opnd_ptr(&p->out, GPUX_KDT_i64);
      void *a[4] = {&pos_in, &aux, &n, &len};
      memcpy(args, a, sizeof a);
      blocks = (n + GPUX_SORT_ELEMS - 1) / GPUX_SORT_ELEMS;
      break;
    }
    case GPUX__SO_ONESWEEP: {
      slot = &st->w[SK_ONESWEEP][wi];
      name = w_names[SK_ONESWEEP][wi];
      img_in = gpux_cuda_opnd_ptr(&p->img_in, idt);
      pos_in = gpux_cuda_opnd_ptr(&p->pos_in, GPUX_KDT_u32);
      img_out = gpux_cuda_opnd_ptr(&p->img_out, idt);
      pos_out = gpux_cuda_opnd_ptr(&p->pos_out, GPUX_KDT_u32);
      aux = gpux_cuda_opnd_ptr(&p->counts, GPUX_KDT_u32);
      aux2 = gpux_cuda_opnd_ptr(&p->lb, GPUX_KDT_u32);
      kin = gpux_cuda_opnd_ptr(&p->kin, p->dtype);
      kout = gpux_cuda_opnd_ptr(&p->kout, p->dtype);
      pos64 = gpux_cuda_opnd_ptr(&p->pos64, GPUX_KDT_i64);
      void *a[24] = {&img_in, &pos_in, &img_out, &pos_out, &aux,  &aux2, &rows, &len,
                     &p0,     &plen,   &tpp,     &pass,    &npass, &portion, &nportions,
                     &kin,    &kout,   &pos64,   &kw,      &kcls, &flags, &em, &mm, &nan};
      memcpy(args, a, sizeof a);
      blocks = rows * tpp; /* one block a tile; more than the cap take further ids */
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
