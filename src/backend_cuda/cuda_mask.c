/* gpux CUDA backend: boolean masks (gpux__mask_pass; kernels/cuda/mask.cu). Blocks of
 * GPUX_MASK_THREADS, a block per tile up to GPUX_CUDA_MASK_MAX_GRID blocks (the kernels loop
 * over the tiles past them). */
#include <stdio.h>
#include <string.h>

#include "cuda_backend.h"

#define GPUX_CUDA_MASK_MAX_GRID ((int64_t)1 << 20)

typedef struct gpux_cuda_mask_state {
  CUfunction k[GPUX_MASK_KIND_COUNT][GPUX_CUDA_NSIZES]; /* nonzero, ids: [.][0] only */
} gpux_cuda_mask_state;

#define GPUX_CUDA_MASK_NAMES_(kind)                                                        \
  {GPUX_KN_MASK(kind, "1"), GPUX_KN_MASK(kind, "2"), GPUX_KN_MASK(kind, "4"),              \
   GPUX_KN_MASK(kind, "8"), GPUX_KN_MASK(kind, "16")}
#define GPUX_CUDA_MASK_ID(k, id) GPUX_CUDA_MK_##k = id,
enum { GPUX_MASK_KINDS(GPUX_CUDA_MASK_ID) GPUX_CUDA_MK_END_ };
#undef GPUX_CUDA_MASK_ID
/* nonzero reads only the bits: one kernel for every element size */
static const char *const gpux_cuda_mask_names[GPUX_MASK_KIND_COUNT][GPUX_CUDA_NSIZES] = {
    [GPUX_CUDA_MK_compress] = GPUX_CUDA_MASK_NAMES_("compress"),
    [GPUX_CUDA_MK_put] = GPUX_CUDA_MASK_NAMES_("put"),
    [GPUX_CUDA_MK_nonzero] = {GPUX_KN_MASK_NONZERO},
    [GPUX_CUDA_MK_flags] = GPUX_CUDA_MASK_NAMES_("flags"),
    /* real keys and bool only: no 16-byte kernel */
    [GPUX_CUDA_MK_starts] = {GPUX_KN_MASK("starts", "1"), GPUX_KN_MASK("starts", "2"),
                             GPUX_KN_MASK("starts", "4"), GPUX_KN_MASK("starts", "8")},
    [GPUX_CUDA_MK_ids] = {GPUX_KN_MASK_IDS}};
#undef GPUX_CUDA_MASK_NAMES_

static gpux_status gpux_cuda_mask(gpux__bq *q, const gpux__mask_pass *p) {
  gpux__bctx *b = q->b;
  gpux_cuda_mask_state *st = (gpux_cuda_mask_state *)b->fam[GPUX_CUDA_FAM_mask];
  const int si = p->kind == GPUX_CUDA_MK_nonzero || p->kind == GPUX_CUDA_MK_ids
                     ? 0
                     : GPUX_ELEM_SIZE_INDEX(p->elem_size);
  const char *name = gpux_cuda_mask_names[p->kind][si];
  CUfunction f;
  GPUX_CUDA_GET_KERNEL(f, &st->k[p->kind][si],
                       gpux_cuda_resolve(b, GPUX_CUDA_FAM_mask, &st->k[p->kind][si], name, NULL,
                                         0, 0, &f));
  /* the operands' element sizes: x, out and vals elem_size bytes (offsets in elements), bits
   * uint16, incl, flags' counts and nonzero's out int64 */
  CUdeviceptr x = (CUdeviceptr)(uintptr_t)p->x.buf + (CUdeviceptr)(p->x.offset * p->elem_size);
  CUdeviceptr bits = gpux_cuda_opnd_ptr(&p->bits, GPUX_KDT_u16);
  CUdeviceptr incl = gpux_cuda_opnd_ptr(&p->incl, GPUX_KDT_i64);
  long long n = (long long)p->n, ntiles = (long long)p->ntiles, sp = (long long)p->sp,
            sd = (long long)p->sd;
  unsigned long long nzbits = (unsigned long long)p->nzbits;
  CUdeviceptr out = 0, vals = 0, perm = 0;
  void *args[8];
  int kcls = p->kcls;
  unsigned long long em = (unsigned long long)p->em, mm = (unsigned long long)p->mm;
  if (p->kind == GPUX_CUDA_MK_flags) {
    out = gpux_cuda_opnd_ptr(&p->out, GPUX_KDT_i64);
    void *a[6] = {&x, &nzbits, &bits, &out, &n, &ntiles};
    memcpy(args, a, sizeof a);
  } else if (p->kind == GPUX_CUDA_MK_starts) {
    out = gpux_cuda_opnd_ptr(&p->out, GPUX_KDT_i64);
    void *a[8] = {&x, &kcls, &em, &mm, &bits, &out, &n, &ntiles};
    memcpy(args, a, sizeof a);
  } else if (p->kind == GPUX_CUDA_MK_nonzero) {
    out = gpux_cuda_opnd_ptr(&p->out, GPUX_KDT_i64);
    void *a[8] = {&bits, &incl, &out, &n, &ntiles, &sp, &sd, (void *)&p->nd};
    memcpy(args, a, sizeof a);
  } else if (p->kind == GPUX_CUDA_MK_ids) { /* x: perm, int64 (a NULL buffer: none) */
    perm = p->x.buf ? gpux_cuda_opnd_ptr(&p->x, GPUX_KDT_i64) : 0;
    out = gpux_cuda_opnd_ptr(&p->out, GPUX_KDT_i64);
    void *a[6] = {&bits, &incl, &perm, &out, &n, &ntiles};
    memcpy(args, a, sizeof a);
  } else if (p->kind == GPUX_CUDA_MK_compress) {
    out = (CUdeviceptr)(uintptr_t)p->out.buf + (CUdeviceptr)(p->out.offset * p->elem_size);
    void *a[6] = {&x, &bits, &incl, &out, &n, &ntiles};
    memcpy(args, a, sizeof a);
  } else {
    vals = (CUdeviceptr)(uintptr_t)p->vals.buf + (CUdeviceptr)(p->vals.offset * p->elem_size);
    void *a[6] = {&x, &bits, &incl, &vals, &n, &ntiles};
    memcpy(args, a, sizeof a);
  }
  const int64_t blocks = p->ntiles < GPUX_CUDA_MASK_MAX_GRID ? p->ntiles : GPUX_CUDA_MASK_MAX_GRID;
  gpux_cuda_grid grid = {(unsigned)blocks, 1, 1, GPUX_MASK_THREADS, 1};
  return gpux_cuda_launch_counted(q, f, grid, args, name, n, "elements");
}

static void gpux_cuda_mask_install(gpux__backend_iface *it) { it->mask = gpux_cuda_mask; }
const gpux_cuda_family gpux_cuda_fam_mask = {
    .state_size = sizeof(gpux_cuda_mask_state),
    .install = gpux_cuda_mask_install,
    .query = -1,
};
