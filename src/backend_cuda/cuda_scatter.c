/* gpux CUDA backend: the scatter family (kernels/cuda/scatter.cu; the arithmetic is
 * kernels/common/gpux_scatter.h's, as on OpenCL): scatter init / apply / fin, bincount with
 * shared-memory counters, the bin search. Grid-stride kernels: at most one wave of blocks of
 * GPUX_SC_THREADS threads; bincount: about 8 blocks per SM, each a contiguous chunk. */
#include <stdio.h>
#include <stdlib.h>
#include "cuda_backend.h"

typedef struct scatter_state {
  CUfunction init[GPUX_KDT_COUNT], fin[GPUX_KDT_COUNT], search[GPUX_KDT_COUNT];
  CUfunction scan[GPUX_KDT_COUNT]; /* the float dtypes' */
  CUfunction apply[GPUX_KDT_COUNT][2];
  CUfunction bincount[2];
  unsigned wave; /* blocks of one wave (the first kernel's), 0 until known */
} scatter_state;
#define SC_STATE(b) ((scatter_state *)(b)->fam[GPUX_CUDA_FAM_scatter])
#define IXI(dt) ((dt) == GPUX_KDT_i64 ? 1 : 0)
#define GPUX_SC_CHECK(expr)                    \
  do {                                         \
    const gpux_status s_ = (expr);             \
    if (s_ != GPUX_SUCCESS) return s_;         \
  } while (0)

#define SHORT_NAME(dt, bytes, name, kind, digits, exp) [GPUX_KDT_##dt] = #dt,
static const char *const dt_short[GPUX_KDT_COUNT] = {GPUX_DTYPES(SHORT_NAME)};
#undef SHORT_NAME

static void wave_init(gpux__bctx *b, CUfunction f, int i, int j) {
  (void)i;
  (void)j;
  scatter_state *st = SC_STATE(b);
  if (!st->wave) st->wave = gpux_cuda_one_wave(b, f, GPUX_SC_THREADS);
}

/* the kernel named name (printf-formatted) in *slot */
static gpux_status get(gpux__bctx *b, CUfunction *slot, CUfunction *f, const char *name) {
  *f = gpux_cuda_kernel_get(slot);
  if (*f) return GPUX_SUCCESS;
  return gpux_cuda_resolve(b, GPUX_CUDA_FAM_scatter, slot, name, wave_init, 0, 0, f);
}

static gpux_status launch(gpux__bq *q, CUfunction f, uint64_t items, void **args,
                          const char *what, unsigned shared, uint64_t blocks_fixed) {
  gpux__bctx *b = q->b;
  uint64_t blocks = blocks_fixed ? blocks_fixed : (items + GPUX_SC_THREADS - 1) / GPUX_SC_THREADS;
  const uint64_t cap = SC_STATE(b)->wave ? (uint64_t)SC_STATE(b)->wave * 4u : 65535u;
  if (!blocks_fixed && blocks > cap) blocks = cap; /* the kernels loop */
  const gpux_cuda_grid g = {(unsigned)blocks, 1, 1, GPUX_SC_THREADS, 1};
  return gpux_cuda_launch_counted_shared(q, f, g, shared, args, what, (long long)items, "items");
}

static gpux_status gpux_cuda_scatter(gpux__bq *q, const gpux__scatter *s) {
  gpux__bctx *b = q->b;
  scatter_state *st = SC_STATE(b);
  const int dt = s->dtype;
  char name[64];
  CUfunction f;
  CUdeviceptr acc = (CUdeviceptr)(uintptr_t)s->acc;
  int op = s->op, mode = s->mode;
  if (s->stage == GPUX__SC_APPLY) {
    snprintf(name, sizeof name, "gpux_scatter_%s_%s", dt_short[dt], dt_short[s->idx_dtype]);
    GPUX_SC_CHECK(get(b, &st->apply[dt][IXI(s->idx_dtype)], &f, name));
    CUdeviceptr v = gpux_cuda_opnd_ptr(&s->v, dt), ix = gpux_cuda_opnd_ptr(&s->idx, s->idx_dtype);
    long long nv = s->nv, m = s->m, post = s->post, n = s->n, nt = s->nt;
    void *args[] = {&v, &ix, &acc, &nv, &m, &post, &n, &nt, &mode, &op};
    /* GPUX_SC_UNROLL values a thread */
    return launch(q, f, ((uint64_t)s->nv + GPUX_SC_UNROLL - 1) / GPUX_SC_UNROLL, args, name, 0, 0);
  }
  if (s->stage == GPUX__SC_SCAN) { /* the exact sums' window (float dtypes) */
    snprintf(name, sizeof name, "gpux_scatter_scan_%s", dt_short[dt]);
    GPUX_SC_CHECK(get(b, &st->scan[dt], &f, name));
    CUdeviceptr v = gpux_cuda_opnd_ptr(&s->v, dt);
    long long nv = s->nv;
    void *args[] = {&v, &nv, &acc};
    return launch(q, f, (uint64_t)s->nv, args, name, 0, 0);
  }
  const int init = s->stage == GPUX__SC_INIT;
  snprintf(name, sizeof name, "gpux_scatter_%s_%s", init ? "init" : "fin", dt_short[dt]);
  GPUX_SC_CHECK(get(b, init ? &st->init[dt] : &st->fin[dt], &f, name));
  CUdeviceptr a = gpux_cuda_opnd_ptr(&s->a, dt);
  long long nt = s->nt;
  void *args[] = {&a, &acc, &nt, &op};
  return launch(q, f, (uint64_t)s->nt, args, name, 0, 0);
}

static gpux_status gpux_cuda_bincount(gpux__bq *q, const gpux__bincount *c) {
  gpux__bctx *b = q->b;
  scatter_state *st = SC_STATE(b);
  char name[64];
  CUfunction f;
  snprintf(name, sizeof name, "gpux_bincount_%s", dt_short[c->idx_dtype]);
  GPUX_SC_CHECK(get(b, &st->bincount[IXI(c->idx_dtype)], &f, name));
  const int priv = c->nbins <= GPUX_SC_LOCAL_BINS;
  int64_t groups = st->wave ? (int64_t)st->wave * 2 : 1024;
  const int64_t min_chunk = GPUX_SC_THREADS * 16;
  if ((c->n + min_chunk - 1) / min_chunk < groups) groups = (c->n + min_chunk - 1) / min_chunk;
  if (groups < 1) groups = 1;
  int64_t chunk = (c->n + groups - 1) / groups;
  chunk = (chunk + GPUX_SC_THREADS - 1) / GPUX_SC_THREADS * GPUX_SC_THREADS;
  groups = (c->n + chunk - 1) / chunk;
  CUdeviceptr x = gpux_cuda_opnd_ptr(&c->x, c->idx_dtype), cnt = gpux_cuda_opnd_ptr(&c->counts, GPUX_KDT_i64),
              err = gpux_cuda_opnd_ptr(&c->err, GPUX_KDT_u64);
  long long n = c->n, ch = chunk, nb = c->nbins;
  void *args[] = {&x, &n, &ch, &cnt, &nb, &err, (void *)&priv};
  return launch(q, f, (uint64_t)c->n, args, name, priv ? (unsigned)(4 * c->nbins) : 0,
                (uint64_t)groups);
}

static gpux_status gpux_cuda_search(gpux__bq *q, const gpux__search *s) {
  gpux__bctx *b = q->b;
  char name[64];
  CUfunction f;
  snprintf(name, sizeof name, "gpux_search_%s", dt_short[s->dtype]);
  GPUX_SC_CHECK(get(b, &SC_STATE(b)->search[s->dtype], &f, name));
  CUdeviceptr x = gpux_cuda_opnd_ptr(&s->x, s->dtype), e = gpux_cuda_opnd_ptr(&s->edges, s->dtype),
              out = gpux_cuda_opnd_ptr(&s->out, GPUX_KDT_i64);
  long long n = s->n, ne = s->ne;
  int mode = s->mode;
  void *args[] = {&x, &n, &e, &ne, &mode, &out};
  return launch(q, f, (uint64_t)s->n, args, name, 0, 0);
}

static void gpux_cuda_scatter_install(gpux__backend_iface *it) {
  it->scatter = gpux_cuda_scatter;
  it->bincount = gpux_cuda_bincount;
  it->search = gpux_cuda_search;
}
const gpux_cuda_family gpux_cuda_fam_scatter = {
    .state_size = sizeof(scatter_state),
    .install = gpux_cuda_scatter_install,
    .query = -1,
};
