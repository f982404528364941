/* gpux CUDA backend: the select family (gpux__select; kernels/cuda/select.cu, whose
 * kernels are kernels/common/gpux_select_kernels.h, the OpenCL set's text). Blocks of
 * GPUX_SEL_THREADS: hist 16 keys a thread, cnt / emit a block per tile, h12 / gcnt / gather /
 * filt a block per h12 group, the others a thread per item. The kernels take the OpenCL
 * parameter lists (buffer, element offset). */
#include <stdio.h>
#include <string.h>

#include "cuda_backend.h"

typedef struct gpux_cuda_select_state {
  CUfunction k[GPUX_SEL_KIND_COUNT][GPUX_KDT_COUNT];
  CUfunction pick, scan, pick12, map, gcnt;
} gpux_cuda_select_state;

static const char *const sel_kind[GPUX_SEL_KIND_COUNT] = {
#define KNAME(k, id) [id] = #k,
    GPUX_SEL_KINDS(KNAME)
#undef KNAME
};
static const char *const sel_dt[GPUX_KDT_COUNT] = {
#define DNAME(a, dt) [GPUX_KDT_##dt] = #dt,
    GPUX_SEL_DT(DNAME, _)
#undef DNAME
};

#define SEL_HE 16 /* select.cu's GPUX_SEL_HE */

static gpux_status gpux_cuda_select(gpux__bq *q, const gpux__select *p) {
  gpux__bctx *b = q->b;
  gpux_cuda_select_state *st = (gpux_cuda_select_state *)b->fam[GPUX_CUDA_FAM_select];
  CUfunction *slot;
  char name[64];
  if (p->kind == GPUX__SEL_PICK) {
    slot = &st->pick;
    snprintf(name, sizeof name, "%s", GPUX_KN_SELECT_PICK);
  } else if (p->kind == GPUX__SEL_SCAN) {
    slot = &st->scan;
    snprintf(name, sizeof name, "%s", GPUX_KN_SELECT_SCAN);
  } else if (p->kind == GPUX__SEL_PICK12) {
    slot = &st->pick12;
    snprintf(name, sizeof name, "%s", GPUX_KN_SELECT_PICK12);
  } else if (p->kind == GPUX__SEL_MAP) {
    slot = &st->map;
    snprintf(name, sizeof name, "%s", GPUX_KN_SELECT_MAP);
  } else if (p->kind == GPUX__SEL_GCNT) {
    slot = &st->gcnt;
    snprintf(name, sizeof name, "%s", GPUX_KN_SELECT_GCNT);
  } else {
    slot = &st->k[p->kind][p->dtype];
    snprintf(name, sizeof name, GPUX_KN_SELECT("%s", "%s"), sel_kind[p->kind], sel_dt[p->dtype]);
  }
  CUfunction f;
  GPUX_CUDA_GET_KERNEL(f, slot,
                       gpux_cuda_resolve(b, GPUX_CUDA_FAM_select, slot, name, NULL, 0, 0, &f));
#define PTR(o) (CUdeviceptr)(uintptr_t)(o).buf
  CUdeviceptr x = PTR(p->x), qq = PTR(p->q), out = PTR(p->out), tv = PTR(p->tv),
              ti = PTR(p->ti), sst = PTR(p->st), hist = PTR(p->hist), cnt = PTR(p->cnt),
              rk = PTR(p->rk), gam = PTR(p->gam), pc = PTR(p->pc), hb = PTR(p->hb),
              gc = PTR(p->gc), cand = PTR(p->cand), cpos = PTR(p->cpos), tot = PTR(p->tot);
  /* gather's list: absent (capg 0) in the two-read path, then never read */
  CUdeviceptr cb = p->cb.buf ? PTR(p->cb) : gc;
  /* absent outputs: another buffer, never written */
  CUdeviceptr vals = p->vals.buf ? PTR(p->vals) : x, idx = p->idx.buf ? PTR(p->idx) : cnt;
#undef PTR
  long long x_off = p->x.offset, q_off = p->q.offset, o_off = p->out.offset,
            v_off = p->vals.buf ? p->vals.offset : 0, i_off = p->idx.buf ? p->idx.offset : 0;
  long long len = p->len, n = p->n, k = p->k, rows = p->rows, cstride = p->cstride,
            c_off = p->cpos.offset;
  /* h12, gcnt, gather, filt: about 4096 blocks (2^28 keys: 65536 a block, 256 a thread);
   * g12: h12's blocks a row, capg: filt's and gather's list words a block */
  int64_t g12, capg64;
  long long hk = gpux__sel_groups(p, 0, &g12, &capg64), capg = capg64, pcs = p->pcs;
  const long long gpr = (len + GPUX_SEL_THREADS * SEL_HE - 1) / (GPUX_SEL_THREADS * SEL_HE);
  const long long tpr = (len + GPUX_SEL_TILE - 1) / GPUX_SEL_TILE;
  unsigned flags = p->flags;
  int nt = p->nt, shift = p->shift, first = p->first, right = p->right, mode = p->mode,
      nq = p->nq, has_v = p->vals.buf != NULL, has_i = p->idx.buf != NULL;
  long long items = 0, groups = 0; /* a thread per item, or blocks */
  void *args[16];
  switch (p->kind) {
    case 0: { /* ss */
      void *a[] = {&x, &x_off, &len, &qq, &q_off, &n, &right, &out, &o_off};
      memcpy(args, a, sizeof a);
      items = n;
      break;
    }
    case 1: { /* hist */
      void *a[] = {&x, &x_off, &len, (void *)&gpr, &nt, &shift, &flags, &sst, &hist};
      memcpy(args, a, sizeof a);
      groups = rows * gpr;
      break;
    }
    case 2: { /* cnt */
      void *a[] = {&x, &x_off, &len, (void *)&tpr, &flags, &sst, &cnt, &rows};
      memcpy(args, a, sizeof a);
      groups = rows * tpr;
      break;
    }
    case 3: { /* emit */
      void *a[] = {&x,    &x_off, &len,  (void *)&tpr, &flags, &sst,  &cnt,  &mode,
                   &k,    &vals,  &v_off, &idx,        &i_off, &has_v, &has_i, &rows};
      memcpy(args, a, sizeof a);
      groups = rows * tpr;
      break;
    }
    case 4: { /* rank */
      void *a[] = {&tv, &ti, &rows, &k, &flags, &vals, &v_off, &idx, &i_off};
      memcpy(args, a, sizeof a);
      items = rows * k;
      break;
    }
    case 5: { /* qfin */
      void *a[] = {&sst, &rk, &gam, &rows, &nq, &mode, &out, &o_off, &len};
      memcpy(args, a, sizeof a);
      items = rows * nq;
      break;
    }
    case 6: { /* h12: a block per hk keys */
      void *a[] = {&x, &x_off, &len, (void *)&g12, &hk, &flags, &hist, &hb, &rows};
      memcpy(args, a, sizeof a);
      groups = rows * g12;
      break;
    }
    case 7: { /* gather: a block per h12 group */
      void *a[] = {&x,  &x_off, &len, (void *)&g12, &hk,   &flags, &pc,      &pcs,
                   &shift, &gc, &cb,  &capg,        &cand, &cpos,  &cstride, &rows};
      memcpy(args, a, sizeof a);
      groups = rows * g12;
      break;
    }
    case 8: { /* ssel: a block per row */
      void *a[] = {&x, &x_off, &len, &n, &k, &flags, &sst, &rows};
      memcpy(args, a, sizeof a);
      groups = rows;
      break;
    }
    case 9: { /* filt: a block per h12 group */
      void *a[] = {&x,  &x_off, &len, (void *)&g12, &hk, &flags,
                   &sst, &cb,   &capg, &gc,         &tot, &rows};
      memcpy(args, a, sizeof a);
      groups = rows * g12;
      break;
    }
    case GPUX__SEL_GCNT: { /* a block per h12 group */
      void *a[] = {&hb, &pc, &gc, (void *)&g12, &rows};
      memcpy(args, a, sizeof a);
      groups = rows * g12;
      break;
    }
    case GPUX__SEL_PICK12: {
      void *a[] = {&hist, &k, &pc, &rows};
      memcpy(args, a, sizeof a);
      items = rows;
      break;
    }
    case GPUX__SEL_MAP: {
      void *a[] = {&idx, &i_off, &cpos, &c_off, &k};
      memcpy(args, a, sizeof a);
      items = k;
      break;
    }
    case GPUX__SEL_PICK: {
      void *a[] = {&sst, &hist, &rk, &n, &nt, &shift, &first};
      memcpy(args, a, sizeof a);
      items = n;
      break;
    }
    default: { /* SCAN: a block per row */
      void *a[] = {&cnt, &sst, &rows, (void *)&tpr};
      memcpy(args, a, sizeof a);
      groups = rows;
      break;
    }
  }
  if (items) groups = (items + GPUX_SEL_THREADS - 1) / GPUX_SEL_THREADS;
  if (groups > 0x7fffffffLL)
    return gpux_cuda_error(GPUX_ERROR_LAUNCH, CUDA_SUCCESS, "%s: %lld blocks", name, groups);
  gpux_cuda_grid grid = {(unsigned)groups, 1, 1, GPUX_SEL_THREADS, 1};
  return gpux_cuda_launch_counted(q, f, grid, args, name, groups, "blocks");
}

static void gpux_cuda_select_install(gpux__backend_iface *it) { it->select = gpux_cuda_select; }
const gpux_cuda_family gpux_cuda_fam_select = {
    .state_size = sizeof(gpux_cuda_select_state),
    .install = gpux_cuda_select_install,
    .query = -1,
};
