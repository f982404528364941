#pragma OPENCL FP_CONTRACT OFF
#include "gpux_kernels.h"
/* gpux OpenCL kernels, scan family (OpenCL C 1.2): cumulative sum and product along rows in
 * THE CANONICAL SCAN of gpux_kernels.h, bit for bit in either form below.
 *
 * Kernels: gpux_scan_<kind>_<dt>, one per (kind, dtype) of GPUX_SCAN_KINDS (float64 ones only
 * where cl_khr_fp64 is defined), all with the arguments (T the input dtype, A the
 * accumulator and O the output dtype: float, double, or int64 for integers, which
 * accumulate in ulong and wrap (uint64's output, uint64, holds the same bits); float16 /
 * bfloat16 accumulate in float and store each output rounded once to the dtype; offsets in
 * elements):
 *   (global const T *in, long in_off, global O *out, long out_off, global A *tiles,
 *    long rows, long len, long ntiles, int phase, int exclusive, long gbase)
 * ntiles = ceil(len / GPUX_SCAN_TILE); tiles holds rows * ntiles values (phases 1 and 2;
 * NULL when ntiles == 1). Work-groups have the linear index gbase + group_id(0) +
 * group_id(1) * num_groups(0), as in reduce.cl. The host runs
 *   len <= 16:      phase 0 (one work-item per row: all elements are thread 0's);
 *   ntiles == 1:    phase 3 (P_0 = e, tiles not read);
 *   otherwise:      phase 1 (tile aggregates A_c -> tiles), phase 2 (per row, in place:
 *                   tiles[c] = P_c, the serial chain P_c = P_{c-1} (+) A_{c-1}), phase 3.
 * GPU form (default; work-groups of GPUX_SCAN_THREADS = 256):
 *   phases 1, 3: one group per (row, tile), group = row * ntiles + c; the tile is staged in
 *     local memory (coalesced loads; a padded layout keeps thread j's 16 consecutive
 *     elements free of bank conflicts), the warp scans go through local memory with a
 *     barrier per step (OpenCL 1.2 promises nothing about warps), outputs leave through
 *     the stage again (coalesced stores). Complex128 (form GLOBAL below: a staged tile of
 *     16-byte accumulators would take 75 KB of local memory, past NVIDIA's 48 KB) is not
 *     staged: work-item j reads its 16 consecutive elements from global memory, in the same
 *     order, and writes its outputs there.
 *   phase 2: one group per row: tiles are staged 2048 at a time (complex128: 256) and
 *     work-item 0 runs the chain over them.
 * CPU form (-DGPUX_CL_CPU=1): one work-item per (row, tile) in phases 1 and 3 and per row in
 *   phase 2, serial code over private arrays: thread j's 16 elements are read and written
 *   contiguously (the 256 short chains overlap in the core), the warp steps are loops over
 *   the threads that LLVM vectorizes; any work-group size.
 */

#include "gpux_cl_prelude.h"
#include "gpux_half.h" /* float16 / bfloat16 rows: GPUX_RDX_<dt>, GPUX_FH_<dt> */

/* What a scan stores, by the dtype's class (GPUX_BYCLS): the accumulator as
 * GPUX_RDW_O(dt); float16 / bfloat16 rows (float32 accumulators) round each output once
 * to the dtype. */
#define GPUX_SC_O_F(dt) GPUX_RDW_O(dt)
#define GPUX_SC_O_S(dt) GPUX_RDW_O(dt)
#define GPUX_SC_O_U(dt) GPUX_RDW_O(dt)
#define GPUX_SC_O_H(dt) GPUX_T_##dt
#define GPUX_SC_OUT_F(dt, v) GPUX_RDW_OUT(dt, v)
#define GPUX_SC_OUT_S(dt, v) GPUX_RDW_OUT(dt, v)
#define GPUX_SC_OUT_U(dt, v) GPUX_RDW_OUT(dt, v)
#define GPUX_SC_OUT_H(dt, v) GPUX_FH_##dt(v)
#define GPUX_SC_O_C(dt) GPUX_RDW_O(dt) /* complex: the dtype itself */
#define GPUX_SC_OUT_C(dt, v) (v)

/* sd = gpux_sc_<kind>_<dt>: sd_t, sd_a, sd_o types; sd_e(), sd_ld(x), sd_op(a, b),
 * sd_out(v) (the accumulator stored as the output type) */
#define GPUX_SC_FNS(sd, dt, E, OPX)                                                           \
  typedef GPUX_T_##dt sd##_t;                                                                 \
  typedef GPUX_RDW_A(dt) sd##_a;                                                              \
  typedef GPUX_BYCLS(GPUX_SC_O_, dt)(dt) sd##_o;                                              \
  static inline sd##_a sd##_e(void) { return (E); }                                           \
  static inline sd##_a sd##_ld(GPUX_T_##dt x) { return (sd##_a)GPUX_RDX(dt, x); }             \
  static inline sd##_a sd##_op(sd##_a a, sd##_a b) { return (OPX); }                          \
  static inline sd##_o sd##_out(sd##_a v) { return GPUX_BYCLS(GPUX_SC_OUT_, dt)(dt, v); }
#define GPUX_SC_DEF_sum_(sd, dt) GPUX_SC_FNS(sd, dt, GPUX_RD_ZERO(dt), a + b)
#define GPUX_SC_DEF_prod_(sd, dt) GPUX_SC_FNS(sd, dt, GPUX_RD_ONE(dt), GPUX_RD_MUL(dt, a, b))

#define GPUX_SC_ARGS(sd)                                                                      \
  __global const sd##_t *in, long in_off, __global sd##_o *out, long out_off,                 \
      __global sd##_a *tiles, long rows, long len, long ntiles, int phase, int exclusive,     \
      long gbase
#define GPUX_SC_GROUP()                                                                       \
  (gbase + (long)get_group_id(0) + (long)get_group_id(1) * (long)get_num_groups(0))

/* phase 0 (len <= 16): base_0 = P_0 (+) E_0 = e (+) e; out_k = base_0 (+) s_k (inclusive)
 * or base_0 (+) s_{k-1} (exclusive, s_{-1} = e) */
#define GPUX_SC_SHORT(sd)                                                                     \
  {                                                                                           \
    const long row = GPUX_SC_GROUP() * (long)get_local_size(0) + (long)get_local_id(0);       \
    if (row < rows) {                                                                         \
      __global const sd##_t *x = in + in_off + row * len;                                     \
      __global sd##_o *y = out + out_off + row * len;                                         \
      const sd##_a e = sd##_e(), base = sd##_op(e, e);                                        \
      sd##_a s = e;                                                                           \
      for (int k = 0; k < (int)len; k++) {                                                    \
        const sd##_a sn = sd##_op(s, sd##_ld(x[k]));                                          \
        y[k] = sd##_out(sd##_op(base, exclusive ? s : sn));                                   \
        s = sn;                                                                               \
      }                                                                                       \
    }                                                                                         \
  }

/* (row, tile) of a phase 1 or 3 group / work-item index g */
#define GPUX_SC_ROW_TILE(g)                                                                   \
  const long row = ntiles > 1 ? (g) / ntiles : (g), c = (g) - row * ntiles;                   \
  const long t0 = c * GPUX_SCAN_TILE;                                                         \
  const int rem = (int)(len - t0 < GPUX_SCAN_TILE ? len - t0 : GPUX_SCAN_TILE);

/* The GPU form's way with a tile, by the dtype (GPUX_BYCLS): STAGE (the tile in local
 * memory) for accumulators of up to 8 bytes, GLOBAL for complex128's 16-byte ones */
#define GPUX_SC_FORM(dt) GPUX_BYCLS(GPUX_SC_FORM_, dt)(dt)
#define GPUX_SC_FORM_F(dt) STAGE
#define GPUX_SC_FORM_H(dt) STAGE
#define GPUX_SC_FORM_S(dt) STAGE
#define GPUX_SC_FORM_U(dt) STAGE
#define GPUX_SC_FORM_C(dt) GPUX_SC_FORM_##dt
#define GPUX_SC_FORM_c64 STAGE
#define GPUX_SC_FORM_c128 GLOBAL

#ifndef GPUX_CL_CPU
/* ---------------------------------------------------------------- GPU form */
#define GPUX_SC_PAD(i) ((i) + ((i) >> 5))
#define GPUX_SC_STAGE (GPUX_SCAN_TILE + GPUX_SCAN_TILE / 32)
/* per form F: the local array's size (accumulators), where the warp scan's two arrays of
 * GPUX_SCAN_THREADS start in it, and how many tile aggregates phase 2 stages at a time (it
 * needs twice that, plus one) */
#define GPUX_SC_LOCAL_STAGE (GPUX_SC_STAGE + 2 * GPUX_SCAN_THREADS)
#define GPUX_SC_WARPS_STAGE GPUX_SC_STAGE
#define GPUX_SC_CHAIN_N_STAGE 2048
#define GPUX_SC_LOCAL_GLOBAL (2 * GPUX_SCAN_THREADS + 1)
#define GPUX_SC_WARPS_GLOBAL 0
#define GPUX_SC_CHAIN_N_GLOBAL GPUX_SCAN_THREADS

#define GPUX_SC_LOAD(sd, k)                                                                   \
  {                                                                                           \
    const int idx = j + GPUX_SCAN_THREADS * (k);                                              \
    sm[GPUX_SC_PAD(idx)] = idx < rem ? sd##_ld(x[idx]) : e;                                   \
  }
#define GPUX_SC_SEQ(sd, k)                                                                    \
  run = sd##_op(run, sm[GPUX_SC_PAD(GPUX_SCAN_ITEMS * j + (k))]);                             \
  s[k] = run;
#define GPUX_SC_OUT(sd, k)                                                                    \
  sm[GPUX_SC_PAD(GPUX_SCAN_ITEMS * j + (k))] = sd##_op(base, exclusive ? run : s[k]);         \
  run = s[k];
#define GPUX_SC_STORE(sd, k)                                                                  \
  {                                                                                           \
    const int idx = j + GPUX_SCAN_THREADS * (k);                                              \
    if (idx < rem) y[idx] = sd##_out(sm[GPUX_SC_PAD(idx)]);                                   \
  }
/* form STAGE: the tile to local memory (coalesced), then run = t_j over it, s[k] = s_{j,k};
 * the outputs to the stage, then to y (coalesced) */
#define GPUX_SC_THREAD_STAGE(sd)                                                              \
  GPUX_REP16(GPUX_SC_LOAD, sd, 0)                                                             \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  sd##_a s[GPUX_SCAN_ITEMS], run = e;                                                         \
  GPUX_REP16(GPUX_SC_SEQ, sd, 0)
#define GPUX_SC_EMIT_STAGE(sd)                                                                \
  /* the stage was last read before the barriers of the warp scan */                          \
  run = e;                                                                                    \
  GPUX_REP16(GPUX_SC_OUT, sd, 0)                                                              \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  GPUX_REP16(GPUX_SC_STORE, sd, 0)
/* form GLOBAL: work-item j's own elements xj[0 .. own) in global memory (identities past
 * them): run = t_j; the outputs recompute s_{j,k} from them (the same operations) */
#define GPUX_SC_GSEQ(sd, k) run = sd##_op(run, (k) < own ? sd##_ld(xj[k]) : e);
#define GPUX_SC_GOUT(sd, k)                                                                   \
  if ((k) < own) {                                                                            \
    const sd##_a sk = sd##_op(run, sd##_ld(xj[k]));                                           \
    yj[k] = sd##_out(sd##_op(base, exclusive ? run : sk));                                    \
    run = sk;                                                                                 \
  }
#define GPUX_SC_THREAD_GLOBAL(sd)                                                             \
  const int own = rem - GPUX_SCAN_ITEMS * j; /* <= 0: none */                                 \
  __global const sd##_t *xj = x + GPUX_SCAN_ITEMS * j;                                        \
  sd##_a run = e;                                                                             \
  GPUX_REP16(GPUX_SC_GSEQ, sd, 0)
#define GPUX_SC_EMIT_GLOBAL(sd)                                                               \
  __global sd##_o *yj = y + GPUX_SCAN_ITEMS * j;                                              \
  run = e;                                                                                    \
  GPUX_REP16(GPUX_SC_GOUT, sd, 0)
/* warp step: W_j = q >= off ? W_{j-off} (+) W_j : W_j, reading the previous step (values
 * carried across barriers live in local memory or are set once: see the GPU form of
 * reduce.cl about pocl) */
#define GPUX_SC_WSTEP(sd, off, from, to)                                                      \
  to[j] = q >= (off) ? sd##_op(from[j - (off)], from[j]) : from[j];                           \
  barrier(CLK_LOCAL_MEM_FENCE);

#define GPUX_SC_TILE_GPU(sd, F)                                                               \
  {                                                                                           \
    const int j = (int)get_local_id(0), q = j & 31, w = j >> 5;                               \
    const long grp = GPUX_SC_GROUP();                                                         \
    GPUX_SC_ROW_TILE(grp)                                                                     \
    __global const sd##_t *x = in + in_off + row * len + t0;                                  \
    const sd##_a e = sd##_e();                                                                \
    GPUX_SC_THREAD_##F(sd)                                                                    \
    __local sd##_a *wa = sm + GPUX_SC_WARPS_##F, *wb = wa + GPUX_SCAN_THREADS;                \
    wa[j] = run; /* t_j */                                                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    GPUX_SC_WSTEP(sd, 1, wa, wb)                                                              \
    GPUX_SC_WSTEP(sd, 2, wb, wa)                                                              \
    GPUX_SC_WSTEP(sd, 4, wa, wb)                                                              \
    GPUX_SC_WSTEP(sd, 8, wb, wa)                                                              \
    GPUX_SC_WSTEP(sd, 16, wa, wb)                                                             \
    /* wb: W_j; T_v = wb[32v + 31]; X_0 = e, X_v = X_{v-1} (+) T_{v-1} */                     \
    if (phase == 1) {                                                                         \
      if (j == 0) {                                                                           \
        sd##_a X = e;                                                                         \
        for (int v = 0; v < 8; v++) X = sd##_op(X, wb[32 * v + 31]); /* X_7 (+) T_7 */        \
        tiles[row * ntiles + c] = X;                                                          \
      }                                                                                       \
    } else {                                                                                  \
      sd##_a X = e;                                                                           \
      for (int v = 0; v < w; v++) X = sd##_op(X, wb[32 * v + 31]);                            \
      const sd##_a E = q == 0 ? X : sd##_op(X, wb[j - 1]);                                    \
      const sd##_a P = ntiles > 1 ? tiles[row * ntiles + c] : e;                              \
      const sd##_a base = sd##_op(P, E);                                                      \
      __global sd##_o *y = out + out_off + row * len + t0;                                    \
      GPUX_SC_EMIT_##F(sd)                                                                    \
    }                                                                                         \
  }

/* phase 2: nch aggregates at a time in sm[0, nch), prefixes to sm[nch, 2 nch), the running
 * P in sm[2 nch] (not in a private variable across the barriers: see reduce.cl about
 * pocl); padding with e past the row's last tile only changes P after it, which nothing
 * reads */
#define GPUX_SC_CHAIN_LD(sd, k) v[k] = sm[i + (k)];
#define GPUX_SC_CHAIN_OP(sd, k)                                                               \
  sm[nch + i + (k)] = P;                                                                      \
  P = sd##_op(P, v[k]);
#define GPUX_SC_CHAIN_GPU(sd, F)                                                              \
  {                                                                                           \
    const int j = (int)get_local_id(0), nch = GPUX_SC_CHAIN_N_##F;                            \
    __global sd##_a *tl = tiles + GPUX_SC_GROUP() * ntiles;                                   \
    if (j == 0) sm[2 * nch] = sd##_e();                                                       \
    for (long b0 = 0; b0 < ntiles; b0 += nch) {                                               \
      const int cnt = (int)(ntiles - b0 < nch ? ntiles - b0 : nch);                           \
      for (int idx = j; idx < nch; idx += GPUX_SCAN_THREADS)                                  \
        sm[idx] = idx < cnt ? tl[b0 + idx] : sd##_e();                                        \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      if (j == 0) {                                                                           \
        sd##_a P = sm[2 * nch];                                                               \
        for (int i = 0; i < cnt; i += 16) {                                                   \
          sd##_a v[16];                                                                       \
          GPUX_REP16(GPUX_SC_CHAIN_LD, sd, 0)                                                 \
          GPUX_REP16(GPUX_SC_CHAIN_OP, sd, 0)                                                 \
        }                                                                                     \
        sm[2 * nch] = P;                                                                      \
      }                                                                                       \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      for (int idx = j; idx < cnt; idx += GPUX_SCAN_THREADS) tl[b0 + idx] = sm[nch + idx];    \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    }                                                                                         \
  }

#define GPUX_SC_KERNEL_(sd, kn, F)                                                            \
  __kernel void kn(GPUX_SC_ARGS(sd)) {                                                        \
    __local sd##_a sm[GPUX_SC_LOCAL_##F];                                                     \
    if (phase == 0)                                                                           \
      GPUX_SC_SHORT(sd)                                                                       \
    else if (phase == 2)                                                                      \
      GPUX_SC_CHAIN_GPU(sd, F)                                                                \
    else                                                                                      \
      GPUX_SC_TILE_GPU(sd, F)                                                                 \
  }

#else
/* ---------------------------------------------------------------- CPU form */
#define GPUX_SC_NT GPUX_SCAN_THREADS
#define GPUX_SC_IL 8 /* threads whose chains are interleaved (independent adds in flight) */
/* warp step from -> to (j >= off keeps every read inside the array; q >= off implies it) */
#define GPUX_SC_CWSTEP(sd, off, from, to)                                                     \
  for (int j = 0; j < (off); j++) to[j] = from[j];                                            \
  for (int j = (off); j < GPUX_SC_NT; j++)                                                    \
    to[j] = (j & 31) >= (off) ? sd##_op(from[j - (off)], from[j]) : from[j];

#define GPUX_SC_TILE_CPU(sd)                                                                  \
  {                                                                                           \
    const long g = GPUX_SC_GROUP() * (long)get_local_size(0) + (long)get_local_id(0);         \
    if (g < rows * ntiles) {                                                                  \
      GPUX_SC_ROW_TILE(g)                                                                     \
      __global const sd##_t *x = in + in_off + row * len + t0;                                \
      const sd##_a e = sd##_e();                                                              \
      sd##_a s[GPUX_SC_NT], W[GPUX_SC_NT], V[GPUX_SC_NT], X[8];                               \
      /* t_j = s_{j,15}: thread j's 16 consecutive elements in order (contiguous loads; the */ \
      /* threads' chains overlap in the core); missing elements are e                      */ \
      if (rem == GPUX_SCAN_TILE) {                                                            \
        for (int j = 0; j < GPUX_SC_NT; j += GPUX_SC_IL) {                                    \
          sd##_a r[GPUX_SC_IL];                                                               \
          for (int jj = 0; jj < GPUX_SC_IL; jj++) r[jj] = e;                                  \
          for (int k = 0; k < GPUX_SCAN_ITEMS; k++)                                           \
            for (int jj = 0; jj < GPUX_SC_IL; jj++)                                           \
              r[jj] = sd##_op(r[jj], sd##_ld(x[GPUX_SCAN_ITEMS * (j + jj) + k]));             \
          for (int jj = 0; jj < GPUX_SC_IL; jj++) s[j + jj] = r[jj];                          \
        }                                                                                     \
      } else {                                                                                \
        for (int j = 0; j < GPUX_SC_NT; j++) {                                                \
          sd##_a r = e;                                                                       \
          for (int k = 0; k < GPUX_SCAN_ITEMS; k++) {                                         \
            const int idx = GPUX_SCAN_ITEMS * j + k;                                          \
            r = sd##_op(r, idx < rem ? sd##_ld(x[idx]) : e);                                  \
          }                                                                                   \
          s[j] = r;                                                                           \
        }                                                                                     \
      }                                                                                       \
      GPUX_SC_CWSTEP(sd, 1, s, V)                                                             \
      GPUX_SC_CWSTEP(sd, 2, V, W)                                                             \
      GPUX_SC_CWSTEP(sd, 4, W, V)                                                             \
      GPUX_SC_CWSTEP(sd, 8, V, W)                                                             \
      GPUX_SC_CWSTEP(sd, 16, W, V)                                                            \
      /* V: W_j; X_0 = e, X_v = X_{v-1} (+) T_{v-1}; A_c = X_7 (+) T_7 */                     \
      X[0] = e;                                                                               \
      for (int v = 1; v < 8; v++) X[v] = sd##_op(X[v - 1], V[32 * v - 1]);                    \
      if (phase == 1) {                                                                       \
        tiles[row * ntiles + c] = sd##_op(X[7], V[255]);                                      \
      } else {                                                                                \
        const sd##_a P = ntiles > 1 ? tiles[row * ntiles + c] : e;                            \
        /* W: base_j = P (+) E_j */                                                           \
        W[0] = sd##_op(P, X[0]);                                                              \
        for (int j = 1; j < GPUX_SC_NT; j++)                                                  \
          W[j] = sd##_op(P, (j & 31) == 0 ? X[j >> 5] : sd##_op(X[j >> 5], V[j - 1]));        \
        __global sd##_o *y = out + out_off + row * len + t0;                                  \
        /* out_{16j+k} = base_j (+) s_{j,k} (inclusive) or base_j (+) s_{j,k-1} */            \
        if (rem == GPUX_SCAN_TILE) {                                                          \
          for (int j = 0; j < GPUX_SC_NT; j += GPUX_SC_IL) {                                  \
            sd##_a r[GPUX_SC_IL];                                                             \
            for (int jj = 0; jj < GPUX_SC_IL; jj++) r[jj] = e;                                \
            for (int k = 0; k < GPUX_SCAN_ITEMS; k++)                                         \
              for (int jj = 0; jj < GPUX_SC_IL; jj++) {                                       \
                const int idx = GPUX_SCAN_ITEMS * (j + jj) + k;                               \
                const sd##_a rn = sd##_op(r[jj], sd##_ld(x[idx]));                            \
                y[idx] = sd##_out(sd##_op(W[j + jj], exclusive ? r[jj] : rn));                \
                r[jj] = rn;                                                                   \
              }                                                                               \
          }                                                                                   \
        } else {                                                                              \
          for (int idx = 0, j = 0; j * GPUX_SCAN_ITEMS < rem; j++) {                          \
            sd##_a r = e;                                                                     \
            for (int k = 0; k < GPUX_SCAN_ITEMS && idx < rem; k++, idx++) {                   \
              const sd##_a rn = sd##_op(r, sd##_ld(x[idx]));                                  \
              y[idx] = sd##_out(sd##_op(W[j], exclusive ? r : rn));                           \
              r = rn;                                                                         \
            }                                                                                 \
          }                                                                                   \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }

#define GPUX_SC_CHAIN_CPU(sd)                                                                 \
  {                                                                                           \
    const long row = GPUX_SC_GROUP() * (long)get_local_size(0) + (long)get_local_id(0);       \
    if (row < rows) {                                                                         \
      __global sd##_a *tl = tiles + row * ntiles;                                             \
      sd##_a P = sd##_e();                                                                    \
      for (long c = 0; c < ntiles; c++) {                                                     \
        const sd##_a a = tl[c];                                                               \
        tl[c] = P;                                                                            \
        P = sd##_op(P, a);                                                                    \
      }                                                                                       \
    }                                                                                         \
  }

#define GPUX_SC_KERNEL_(sd, kn, F) /* one way for every dtype */                              \
  __kernel void kn(GPUX_SC_ARGS(sd)) {                                                        \
    if (phase == 0)                                                                           \
      GPUX_SC_SHORT(sd)                                                                       \
    else if (phase == 2)                                                                      \
      GPUX_SC_CHAIN_CPU(sd)                                                                   \
    else                                                                                      \
      GPUX_SC_TILE_CPU(sd)                                                                    \
  }
#endif

/* ------------------------------------------------------------------ kernels
 * kind names are pasted at once (K##_), as in reduce.cl */
#define GPUX_SC_KERNEL(Kx, dt)                                                                \
  GPUX_SC_DEF_##Kx(gpux_sc_##Kx##dt, dt)                                                      \
      GPUX_SC_KERNEL_F(gpux_sc_##Kx##dt, gpux_scan_##Kx##dt, GPUX_SC_FORM(dt))
#define GPUX_SC_KERNEL_F(sd, kn, F) GPUX_SC_KERNEL_(sd, kn, F) /* F expanded first */
#define GPUX_SC_DT(Kx, dt) GPUX_KON_##dt(GPUX_SC_KERNEL, Kx, dt)
#define GPUX_SC_KIND(K, id, DTLIST, ACC) DTLIST(GPUX_SC_DT, K##_)
GPUX_SCAN_KINDS(GPUX_SC_KIND)
