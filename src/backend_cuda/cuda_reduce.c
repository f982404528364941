/* gpux CUDA backend: reductions and scans. The fatbins of kernels/cuda/reduce.cu and scan.cu
 * are loaded per context on first use and each kernel is resolved on its first launch into
 * tables indexed [kind][dtype][layout] (reduce) and [kind][dtype] (scan), as
 * cuda_elementwise.c does for the other families; a pass looks up its handle, picks a
 * variant and a grid, and launches.
 *
 * Every variant computes the canonical order of gpux_kernels.h exactly, so the choices
 * below change speed only (the kernels' comments describe the variants):
 *   reduce, layout r: len <= 16: a thread per row; 16 < len <= 1024 with at least
 *     GPUX_CUDA_RED_WARP_MIN_ROWS rows: a warp per row; otherwise a block per (row, chunk).
 *   reduce, layout c: len <= 8: a thread per column; otherwise blocks of 16 columns x one
 *     chunk, or of 32 columns (two per thread, 8-byte loads) for the kinds and dtypes of
 *     GPUX_REDUCE_CV_KINDS / _CV_DT (4-byte inputs) with an even inner and an 8-byte
 *     aligned pointer.
 *   scan: len <= 16: a thread per row; <= 512: a warp per row; <= 4096: a block per row;
 *     longer rows: blocks that take tiles from a counter, with decoupled look-back, which
 *     needs the tile counter and tile states kept in the queue (q->scan_state, grown on
 *     demand, zeroed by cuMemsetD32Async on its stream before each such launch). The
 *     paired look-back (SV_PAIR: two tiles per block at a time; the kernel runs SV_LOOKBACK
 *     where it does not pair) launches one wave of blocks (b->scan_grid), the plain one a
 *     block per tile. GPUX_CUDA_SCAN=plain (read when the context is created) keeps the
 *     plain one: the benchmarks compare the two with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"


/* variant ids: RV_* in kernels/cuda/reduce.cu, SV_* in kernels/cuda/scan.cu */
enum {
  GPUX_CUDA_RV_THREAD = 0,
  GPUX_CUDA_RV_WARP = 1,
  GPUX_CUDA_RV_BLOCK = 2,
  GPUX_CUDA_RV_CVEC = 3,
  GPUX_CUDA_RV_CASYNC = 4
};
enum {
  GPUX_CUDA_SV_THREAD = 0,
  GPUX_CUDA_SV_WARP = 1,
  GPUX_CUDA_SV_TILE = 2,
  GPUX_CUDA_SV_LOOKBACK = 3,
  GPUX_CUDA_SV_PAIR = 4
};
/* the kernels' limits for their variants (a larger len falls back to the block variant) */
#define GPUX_CUDA_RED_THREAD_MAX_R 16 /* GPUX_CU_RED_THREAD_MAX */
#define GPUX_CUDA_RED_THREAD_MAX_C 8  /* GPUX_CU_RED_CTHREAD_MAX */
#define GPUX_CUDA_SCAN_THREAD_MAX 16  /* GPUX_CU_SCAN_THREAD_MAX */
#define GPUX_CUDA_SCAN_WARP_MAX 512   /* GPUX_CU_SCAN_WARP_MAX */
#define GPUX_CUDA_RC_COLS 16          /* GPUX_CU_RC_COLS: columns per block, layout c */
#define GPUX_CUDA_RCV_COLS 32         /* GPUX_CU_RCV_COLS: the same, RV_CVEC */
#define GPUX_CUDA_ROWS_PER_BLOCK 8    /* warp variants: one row per warp */
/* The warp variant (layout r) reads a row in ceil(len / 256) steps of 8 loads per thread;
 * up to 1024 that is at most two round trips, and with enough rows to fill the GPU it
 * beats a block per row (which leaves most of its threads idle on short rows). */
#define GPUX_CUDA_RED_WARP_MAX_LEN 1024
#define GPUX_CUDA_RED_WARP_MIN_ROWS 128
/* scan state: the tile counter, then the tile states from 64-bit word 32 on, at most
 * 5 words per tile (kernels/cuda/scan.cu: a flag word, then two values of up to 16 bytes);
 * the counter and the first word per tile (the flags) are zeroed before each look-back
 * launch */
#define GPUX_CUDA_SCAN_HEAD_WORDS 32u
#define GPUX_CUDA_SCAN_WORDS_PER_TILE 5u

_Static_assert(GPUX_CUDA_BLOCK == GPUX_RED_LANES && GPUX_CUDA_BLOCK == GPUX_SCAN_THREADS,
               "the reduce and scan kernels run 256-thread blocks");

/* ---- names, from the lists of gpux_kernels.h ------------------------------------------ */
#define GPUX_CUDA_RK_ID(kind, id, dts, acc) GPUX_CUDA_RK_##kind = id,
#define GPUX_CUDA_SK_ID(kind, id, dts, acc) GPUX_CUDA_SK_##kind = id,
enum { GPUX_REDUCE_KINDS(GPUX_CUDA_RK_ID) GPUX_CUDA_RK_END_ };
enum { GPUX_SCAN_KINDS(GPUX_CUDA_SK_ID) GPUX_CUDA_SK_END_ };
#undef GPUX_CUDA_RK_ID
#undef GPUX_CUDA_SK_ID

/* base names ("gpux_reduce_sum_f32"; + "_r" / "_c"); NULL where the kind lacks the dtype */
#define GPUX_CUDA_RED_NAME(kind, dt) \
  [GPUX_CUDA_RK_##kind][GPUX_KDT_##dt] = GPUX_KN_REDUCE(#kind, #dt),
#define GPUX_CUDA_RED_KIND(kind, id, dts, acc) dts(GPUX_CUDA_RED_NAME, kind)
static const char *const gpux_cuda_reduce_names[GPUX_REDUCE_KIND_COUNT][GPUX_KDT_COUNT] = {
    GPUX_REDUCE_KINDS(GPUX_CUDA_RED_KIND)};
#undef GPUX_CUDA_RED_KIND
#undef GPUX_CUDA_RED_NAME

#define GPUX_CUDA_SCAN_NAME(kind, dt) \
  [GPUX_CUDA_SK_##kind][GPUX_KDT_##dt] = GPUX_KN_SCAN(#kind, #dt),
#define GPUX_CUDA_SCAN_KIND(kind, id, dts, acc) dts(GPUX_CUDA_SCAN_NAME, kind)
static const char *const gpux_cuda_scan_names[GPUX_SCAN_KIND_COUNT][GPUX_KDT_COUNT] = {
    GPUX_SCAN_KINDS(GPUX_CUDA_SCAN_KIND)};
#undef GPUX_CUDA_SCAN_KIND
#undef GPUX_CUDA_SCAN_NAME

static const char gpux_cuda_rlayout_suffix[GPUX_CUDA_NRLAYOUTS] = {[GPUX_RL_ROW] = 'r',
                                                                    [GPUX_RL_COL] = 'c'};

/* ---- loading ------------------------------------------------------------------------- */
/* the slow path of a reduce kernel's lookup (its first launch in the context) */
static gpux_status gpux_cuda_reduce_resolve(gpux__bctx *b, int kind, int dt, int lay,
                                            CUfunction *f) {
  char name[96];
  snprintf(name, sizeof name, GPUX_KN_LAYOUT("%s", "%c"), gpux_cuda_reduce_names[kind][dt],
           gpux_cuda_rlayout_suffix[lay]);
  return gpux_cuda_resolve(b, GPUX_CUDA_FAM_reduce, &b->reduce[kind][dt][lay], name, NULL, 0,
                           0, f);
}

/* a scan kernel's first use (gpux_cuda_kernel_init), before any launch reads its grid */
static void gpux_cuda_scan_kernel_init(gpux__bctx *b, CUfunction f, int kind, int dt) {
  /* The paired scan's blocks hold two tiles in shared memory (40 KB a block for float32:
   * 5 blocks on an H200 only with the largest carveout). A hint: the kernels are right
   * under any carveout, so a refusal is not an error. Kinds with 16-byte accumulators
   * (complex128) stage no tiles (staged<K> in scan.cu: 17 KB a block) and read their items
   * through L1: they keep the driver's split, which leaves L1 the rest. */
  if (gpux_cuda_dt_size[dt] <= 8)
    (void)gpux_cuda_drv.FuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                         CU_SHAREDMEM_CARVEOUT_MAX_SHARED);
  /* the paired look-back's grid: its blocks loop over the tiles */
  b->scan_grid[kind][dt] = gpux_cuda_one_wave(b, f, GPUX_SCAN_THREADS);
}

/* with the context: the scan variant, the same for all its kernels */
static gpux_status gpux_cuda_scan_init(gpux__bctx *b) {
  /* SV_PAIR where the kernels pair tiles (sm_90+, GPUX_CU_SCAN_PAIR of scan.cu; elsewhere
   * the kernel would run SV_LOOKBACK, which wants a block per tile) */
  int major = 0;
  const char *e = getenv("GPUX_CUDA_SCAN");
  b->scan_pair = !(e && !strcmp(e, "plain"));
  if (gpux_cuda_drv.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                       b->dev) != CUDA_SUCCESS ||
      major < 9)
    b->scan_pair = 0;
  return GPUX_SUCCESS;
}

static void gpux_cuda_scan_queue_release(gpux__bq *q) {
  if (q->scan_state) (void)gpux_cuda_drv.MemFree(q->scan_state);
  q->scan_state = 0;
  q->scan_state_bytes = 0;
}

/* ---- launching ----------------------------------------------------------------------- */
static unsigned gpux_cuda_cap(uint64_t n, uint64_t max) {
  return (unsigned)(n > max ? max : n ? n : 1);
}
static uint64_t gpux_cuda_ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* the kinds and dtypes with an RV_CVEC variant (GPUX_REDUCE_CV_KINDS) */
static int gpux_cuda_cvec(int kind, int dt) {
#define GPUX_CUDA_CV_KIND(kind) [GPUX_CUDA_RK_##kind] = 1,
  static const unsigned char kinds[GPUX_REDUCE_KIND_COUNT] = {
      GPUX_REDUCE_CV_KINDS(GPUX_CUDA_CV_KIND)};
#undef GPUX_CUDA_CV_KIND
#define GPUX_CUDA_CV_DT(unused, dt) | (1u << GPUX_KDT_##dt)
  return kinds[kind] && ((0u GPUX_REDUCE_CV_DT(GPUX_CUDA_CV_DT, _)) >> dt & 1u);
#undef GPUX_CUDA_CV_DT
}

static gpux_status gpux_cuda_reduce(gpux__bq *q, const gpux__reduce_pass *p) {
  const int kind = p->kind, dt = p->dtype, lay = p->layout;
  gpux_cuda_grid g = {1, 1, 1, GPUX_CUDA_BLOCK, 1};
  CUdeviceptr out, out_idx, in, in_idx, aux;
  long long outer, len, inner;
  int variant, post;
  double post_div;
  uint64_t nparts;
  CUfunction f;
  void *args[] = {&out, &out_idx, &in, &in_idx, &aux, &outer, &len, &inner, &variant, &post,
                  &post_div};

  GPUX_CUDA_GET_KERNEL(f, &q->b->reduce[kind][dt][lay],
                       gpux_cuda_reduce_resolve(q->b, kind, dt, lay, &f));
  /* argmin/argmax may leave out the values (indices only); in_idx and aux only for the
   * kinds that read them */
  out = p->out.buf ? gpux_cuda_opnd_ptr(&p->out, p->out.dtype) : 0;
  out_idx = p->out_idx.buf ? gpux_cuda_opnd_ptr(&p->out_idx, GPUX_KDT_i64) : 0;
  in = gpux_cuda_opnd_ptr(&p->in, dt);
  in_idx = p->in_idx.buf ? gpux_cuda_opnd_ptr(&p->in_idx, GPUX_KDT_i64) : 0;
  aux = p->aux.buf ? gpux_cuda_opnd_ptr(&p->aux, p->aux.dtype) : 0;
  outer = (long long)p->outer;
  len = (long long)p->len;
  inner = lay == GPUX_RL_ROW ? 1 : (long long)p->inner;
  post = p->post;
  post_div = p->post_div;
  nparts = gpux_cuda_ceil_div((uint64_t)len, GPUX_RED_CHUNK);

  if (lay == GPUX_RL_ROW) {
    if (len <= GPUX_CUDA_RED_THREAD_MAX_R) {
      variant = GPUX_CUDA_RV_THREAD;
      g.gx = gpux_cuda_cap(gpux_cuda_ceil_div((uint64_t)outer, GPUX_CUDA_BLOCK),
                           GPUX_CUDA_MAX_GRID_X);
    } else if (len <= GPUX_CUDA_RED_WARP_MAX_LEN && outer >= GPUX_CUDA_RED_WARP_MIN_ROWS) {
      variant = GPUX_CUDA_RV_WARP;
      g.gx = gpux_cuda_cap(gpux_cuda_ceil_div((uint64_t)outer, GPUX_CUDA_ROWS_PER_BLOCK),
                           GPUX_CUDA_MAX_GRID_X);
    } else {
      variant = GPUX_CUDA_RV_BLOCK;
      /* inputs narrower than 4 bytes: a block takes 4 / size chunks at a time (reduce.cu's
       * packed lanes) */
      g.gx = gpux_cuda_cap(gpux_cuda_dt_size[dt] < 4
                               ? gpux_cuda_ceil_div(nparts, 4 / gpux_cuda_dt_size[dt])
                               : nparts,
                           GPUX_CUDA_MAX_GRID_X);
      g.gy = gpux_cuda_cap((uint64_t)outer, GPUX_CUDA_MAX_GRID_YZ);
    }
  } else if (len <= GPUX_CUDA_RED_THREAD_MAX_C) {
    variant = GPUX_CUDA_RV_THREAD;
    g.gx = gpux_cuda_cap(gpux_cuda_ceil_div((uint64_t)inner, GPUX_CUDA_BLOCK),
                         GPUX_CUDA_MAX_GRID_X);
    g.gy = gpux_cuda_cap((uint64_t)outer, GPUX_CUDA_MAX_GRID_YZ);
  } else if (gpux_cuda_cvec(kind, dt) &&
             (inner & 1) == 0 && (in & 7) == 0) {
    variant = GPUX_CUDA_RV_CVEC; /* the kernel's conditions (it checks them again) */
    /* float32 accumulators: rows streamed through shared memory (sm_80+; before that, and
     * for inner % 4 != 0, the kernel runs RV_CVEC; both have 32-column blocks) */
    if (dt == GPUX_KDT_f32 && p->out.dtype == GPUX_KDT_f32 && (inner & 3) == 0 && (in & 15) == 0)
      variant = GPUX_CUDA_RV_CASYNC;
    g.gx = gpux_cuda_cap(gpux_cuda_ceil_div((uint64_t)inner, GPUX_CUDA_RCV_COLS),
                         GPUX_CUDA_MAX_GRID_X);
    g.gy = gpux_cuda_cap(nparts, GPUX_CUDA_MAX_GRID_YZ);
    g.gz = gpux_cuda_cap((uint64_t)outer, GPUX_CUDA_MAX_GRID_YZ);
  } else {
    variant = GPUX_CUDA_RV_BLOCK;
    g.gx = gpux_cuda_cap(gpux_cuda_ceil_div((uint64_t)inner, GPUX_CUDA_RC_COLS),
                         GPUX_CUDA_MAX_GRID_X);
    g.gy = gpux_cuda_cap(nparts, GPUX_CUDA_MAX_GRID_YZ);
    g.gz = gpux_cuda_cap((uint64_t)outer, GPUX_CUDA_MAX_GRID_YZ);
  }
  return gpux_cuda_launch_counted(q, f, g, args, gpux_cuda_reduce_names[kind][dt],
                                  outer * len * inner,
                                  lay == GPUX_RL_ROW ? "elements, by rows" : "elements, by columns");
}

/* Makes room for `bytes` of q's scan state; context current. Work queued earlier on q may
 * still use the old buffer, so growing waits for q's stream first (rare: the state only
 * grows). */
static gpux_status gpux_cuda_scan_state(gpux__bq *q, size_t bytes) {
  size_t want = q->scan_state_bytes * 2;
  CUdeviceptr ptr = 0;
  CUresult r;
  if (bytes <= q->scan_state_bytes) return GPUX_SUCCESS;
  if (want < bytes) want = bytes;
  if (want < ((size_t)64 << 10)) want = (size_t)64 << 10;
  if (q->scan_state) {
    r = gpux_cuda_drv.StreamSynchronize(q->stream);
    if (r != CUDA_SUCCESS)
      return gpux_cuda_error(GPUX_ERROR_ASYNC, r, "cuStreamSynchronize (before growing the "
                                                  "scan state)");
    (void)gpux_cuda_drv.MemFree(q->scan_state);
    q->scan_state = 0;
    q->scan_state_bytes = 0;
  }
  r = gpux_cuda_drv.MemAlloc(&ptr, want);
  if (r == CUDA_ERROR_OUT_OF_MEMORY && want > bytes) {
    want = bytes; /* the headroom was too much; the exact size may still fit */
    r = gpux_cuda_drv.MemAlloc(&ptr, want);
  }
  if (r != CUDA_SUCCESS)
    return gpux_cuda_error(r == CUDA_ERROR_OUT_OF_MEMORY ? GPUX_ERROR_OUT_OF_MEMORY
                                                         : GPUX_ERROR_DRIVER,
                           r, "cuMemAlloc(%zu bytes of scan state)", want);
  q->scan_state = ptr;
  q->scan_state_bytes = want;
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_scan(gpux__bq *q, const gpux__scan_pass *p) {
  gpux__bctx *b = q->b;
  const int kind = p->kind, dt = p->dtype;
  gpux_cuda_grid g = {1, 1, 1, GPUX_CUDA_BLOCK, 1};
  gpux_status s = GPUX_SUCCESS;
  CUdeviceptr out, in, state = 0;
  long long rows, len, ntiles = 0;
  int exclusive, variant, pushed = 0;
  CUfunction f;
  CUresult r;
  void *args[] = {&out, &in, &rows, &len, &exclusive, &variant, &state, &ntiles};

  /* first: b->scan_grid[kind][dt] is set with the handle */
  GPUX_CUDA_GET_KERNEL(f, &b->scan[kind][dt],
                       gpux_cuda_resolve(b, GPUX_CUDA_FAM_scan, &b->scan[kind][dt],
                                         gpux_cuda_scan_names[kind][dt],
                                         gpux_cuda_scan_kernel_init, kind, dt, &f));
  out = gpux_cuda_opnd_ptr(&p->out, p->out.dtype);
  in = gpux_cuda_opnd_ptr(&p->in, dt);
  rows = (long long)p->rows;
  len = (long long)p->len;
  exclusive = p->exclusive ? 1 : 0;
  if (len <= GPUX_CUDA_SCAN_THREAD_MAX) {
    variant = GPUX_CUDA_SV_THREAD;
    g.gx = gpux_cuda_cap(gpux_cuda_ceil_div((uint64_t)rows, GPUX_CUDA_BLOCK),
                         GPUX_CUDA_MAX_GRID_X);
  } else if (len <= GPUX_CUDA_SCAN_WARP_MAX) {
    variant = GPUX_CUDA_SV_WARP;
    g.gx = gpux_cuda_cap(gpux_cuda_ceil_div((uint64_t)rows, GPUX_CUDA_ROWS_PER_BLOCK),
                         GPUX_CUDA_MAX_GRID_X);
  } else if (len <= GPUX_SCAN_TILE) {
    variant = GPUX_CUDA_SV_TILE;
    g.gx = gpux_cuda_cap((uint64_t)rows, GPUX_CUDA_MAX_GRID_X);
  } else {
    ntiles = (long long)((uint64_t)rows * gpux_cuda_ceil_div((uint64_t)len, GPUX_SCAN_TILE));
    variant = b->scan_pair ? GPUX_CUDA_SV_PAIR : GPUX_CUDA_SV_LOOKBACK;
    g.gx = gpux_cuda_cap((uint64_t)ntiles, GPUX_CUDA_MAX_GRID_X);
    if (b->scan_pair && b->scan_grid[kind][dt] < g.gx) g.gx = b->scan_grid[kind][dt];
  }

  r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  if (variant >= GPUX_CUDA_SV_LOOKBACK) {
    const size_t zero_words = GPUX_CUDA_SCAN_HEAD_WORDS + (size_t)ntiles;
    s = gpux_cuda_scan_state(q, 8 * (zero_words + (GPUX_CUDA_SCAN_WORDS_PER_TILE - 1) *
                                                      (size_t)ntiles));
    if (s != GPUX_SUCCESS) goto cleanup;
    state = q->scan_state;
    /* the counter and the flags start at zero; in order on the stream with the launch */
    r = gpux_cuda_drv.MemsetD32Async(state, 0, 2 * zero_words, q->stream);
    if (r != CUDA_SUCCESS) {
      s = gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuMemsetD32Async(%zu bytes of scan state)",
                          8 * zero_words);
      goto cleanup;
    }
  }
  r = gpux_cuda_launch_current(q, f, g, args);
  if (r != CUDA_SUCCESS)
    s = gpux_cuda_error(GPUX_ERROR_LAUNCH, r, "cuLaunchKernel(%s)", gpux_cuda_scan_names[kind][dt]);
cleanup:
  gpux_cuda_leave(pushed);
  return s;
}

static void gpux_cuda_reduce_install(gpux__backend_iface *it) { it->reduce = gpux_cuda_reduce; }
const gpux_cuda_family gpux_cuda_fam_reduce = {
    .install = gpux_cuda_reduce_install,
    .query = -1,
};

static void gpux_cuda_scan_install(gpux__backend_iface *it) { it->scan = gpux_cuda_scan; }
const gpux_cuda_family gpux_cuda_fam_scan = {
    .init = gpux_cuda_scan_init,
    .queue_release = gpux_cuda_scan_queue_release,
    .install = gpux_cuda_scan_install,
    .query = -1,
};
