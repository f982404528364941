/* gpux CUDA kernels, scan family: THE CANONICAL SCAN (gpux_kernels.h) for every (kind,
 * dtype) of GPUX_SCAN_KINDS, in a single pass. Compiled with -fmad=false.
 *
 * Signature (T = the input dtype's type; Out = float, double, long long for integers
 * (unsigned long long for uint64), or T for float16 / bfloat16, whose float32 sums are
 * rounded once per output, and for complex64 / complex128, float2 / double2 elements whose
 * sums and products are gpux_reduce.cuh's complex ones):
 *   gpux_scan_<kind>_<dt>(Out *out, const T *in, long long rows, long long len,
 *                         int exclusive, int variant, unsigned long long *state,
 *                         long long ntiles)
 * in and out are [rows][len], contiguous, already offset. Rows are independent.
 *
 * Variants (a uniform kernel argument; each reproduces the canonical tiles exactly; the host
 * picks, src/backend_cuda/cuda_reduce.c):
 *   SV_THREAD (len <= 16): one thread per row; only thread 0 of the one tile has elements,
 *     so out_k = (e (+) e) (+) s_{0,k} (inclusive) or (e (+) e) (+) s_{0,k-1}.
 *   SV_WARP (len <= 512): one warp per row (8 per block); only warp 0 of the one tile has
 *     elements, every X_w and P are e.
 *   SV_TILE (len <= 4096): one block per row, one tile, P = e.
 *   SV_LOOKBACK (len > 4096): one block per tile with decoupled look-back. Tile ids come
 *     from the counter state[0] (zeroed before the launch) in row-major (row, tile) order, so
 *     every earlier tile of the row belongs to a block that is already running: the
 *     look-back cannot deadlock. Blocks loop (take another id) until all rows*ntiles tiles
 *     are taken, so any grid size works.
 *   SV_PAIR (len > 4096): SV_LOOKBACK with two tiles per block at a time and one look-back
 *     per pair, the tiles moved in 16-byte vectors (scan_pairs: float32 on sm_90+; elsewhere
 *     it runs SV_LOOKBACK); the host launches one wave of blocks.
 * A variant asked for outside its range of len runs the block variants (SV_TILE, or
 * SV_LOOKBACK when len > 4096, which then needs the zeroed state).
 * The warp and block variants stage their tiles in shared memory (coalesced loads and
 * stores), except for 16-byte accumulators (complex128: staged<K>), whose threads read
 * their 16 consecutive items from global memory and write their outputs there; the
 * operations and their order are the same.
 * Tile states (zeroed before the launch, ntiles = rows * ceil(len / 4096) of them) start at
 * state + 32 (in 64-bit words):
 *   4-byte accumulators (float32): one 64-bit word per tile, flag << 32 | value bits;
 *   8- and 16-byte accumulators: flags[ntiles] (32-bit, in ntiles words), then agg[ntiles]
 *     and incl[ntiles] of VW = sizeof(A) / 8 words each (so at most 5 words a tile); a value
 *     is written, then __threadfence(), then its flag.
 * Flags: 0 not yet published, ST_AGG (the tile aggregate A_c), ST_INCL (P_c (+) A_c). */
#include "gpux_reduce.cuh"

#define GPUX_CU_SCAN_THREAD_MAX 16
#define GPUX_CU_SCAN_WARP_MAX 512 /* 32 threads x GPUX_SCAN_ITEMS */

namespace gpux_cu {

enum { SV_THREAD = 0, SV_WARP = 1, SV_TILE = 2, SV_LOOKBACK = 3, SV_PAIR = 4 };
enum { ST_AGG = 1, ST_INCL = 2 };
constexpr int NWARPS = GPUX_SCAN_THREADS / 32;
constexpr int ITEMS = GPUX_SCAN_ITEMS;
static_assert(GPUX_SCAN_THREADS * GPUX_SCAN_ITEMS == GPUX_SCAN_TILE, "tile shape");
static_assert(NWARPS * GPUX_CU_SCAN_WARP_MAX == GPUX_SCAN_TILE, "the warp rows fill a tile");

/* Whether SV_PAIR runs scan_pairs (below) on this GPU: sm_90+, where two staging buffers fit
 * next to the look-back's without costing blocks (5 blocks of 40 KB in 228 KB, as many as
 * the registers allow). sm_80 (164 KB) would drop from 5 blocks to 3 and sm_75/86/89 (100 KB
 * or less) to 2, unmeasured: SV_PAIR runs SV_LOOKBACK there. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GPUX_CU_SCAN_PAIR 1
#else
#define GPUX_CU_SCAN_PAIR 0
#endif

/* The kinds scan_pairs takes where GPUX_CU_SCAN_PAIR: float32 in and out (the input is the
 * accumulator, so a tile is copied straight into its staging slots by cp.async). */
template <class K> struct paired {
  static constexpr bool value = GPUX_CU_SCAN_PAIR && sizeof(typename K::A) == 4 &&
                                sizeof(typename K::T) == 4 && is_fp<typename K::T>::value &&
                                is_fp<typename K::A>::value;
};

/* What a scan stores: the accumulator as the kind's output type; float16 / bfloat16 rows
 * (float32 accumulators) each output rounded once to the dtype. */
template <class K, bool H = is_half<typename K::Dt>::value> struct sout {
  typedef typename K::Out type;
  static __device__ __forceinline__ type of(typename K::A a) { return (type)a; }
};
template <class K> struct sout<K, true> {
  typedef typename K::T type;
  static __device__ __forceinline__ type of(typename K::A a) { return comp<typename K::Dt>::back(a); }
};

template <class K> struct sargs {
  typename sout<K>::type *out;
  const typename K::T *in;
  u64 rows, len;
  int exclusive;
  u64 *state;
  u64 ntiles;
};

/* Shared staging: element e at e + e / PAD (one pad slot per 128 bytes), so that thread j
 * reading its 16 consecutive items 16j + k touches distinct banks (4-byte: per warp;
 * 8-byte: per half-warp). */
template <class A> struct stage {
  static constexpr bool STAGED = true;
  static constexpr unsigned PAD = 128 / sizeof(A);
  static constexpr unsigned SIZE = GPUX_SCAN_TILE + GPUX_SCAN_TILE / PAD;
  static constexpr unsigned WSIZE = GPUX_CU_SCAN_WARP_MAX + GPUX_CU_SCAN_WARP_MAX / PAD;
  static __device__ __forceinline__ unsigned at(unsigned e) { return e + e / PAD; }
  /* f(x) for thread j's items 16j .. 16j+15 in order; rewrite replaces each by f's result,
   * slot by slot (a slot's load after the previous slot's store: few registers), except for
   * 4-byte accumulators where scan_pairs runs: all 16 loaded first, all stored last. There,
   * slot by slot changed ptxas's allocation of the whole float32 kernel and made scan_pairs'
   * loop spill (H200, 2^28: 2.94 TB/s against 3.03-3.10); 8-byte values would spill. */
  template <class F> static __device__ __forceinline__ void each(const A *sh, unsigned j, F f) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) f(sh[at(ITEMS * j + k)]);
  }
  template <class F> static __device__ __forceinline__ void rewrite(A *sh, unsigned j, F f) {
    if constexpr (GPUX_CU_SCAN_PAIR && sizeof(A) <= 4) {
      A x[ITEMS];
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) x[k] = sh[at(ITEMS * j + k)];
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) x[k] = f(x[k]);
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) sh[at(ITEMS * j + k)] = x[k];
    } else {
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        A *slot = sh + at(ITEMS * j + k);
        *slot = f(*slot);
      }
    }
  }
};

/* Whether a kind's tiles are staged in shared memory: accumulators of up to 8 bytes (34 KB
 * a tile). A complex128 tile (4096 x 16 bytes = 64 KiB, more with the padding) would pass
 * the 48 KB of static shared memory, and sm_75 allows 64 KiB in all, the look-back's
 * buffer included: those kinds (dstage below) read each thread's items from global memory
 * and write its outputs there. */
template <class K> struct staged {
  static constexpr bool value = sizeof(typename K::A) <= 8;
};

/* Unstaged items (dstage): the n elements of a tile (or of a warp's row) at in, its outputs
 * at out. */
template <class K> struct dtile {
  const typename K::T *in;
  typename sout<K>::type *out;
  unsigned n;
};
/* stage's each and rewrite on a dtile: thread j's items 16j .. 16j+15 straight from global
 * memory (each a 16-byte load; the identity past n), in order, and its outputs straight to
 * it. Each item is read twice (thread_and_warp, then outputs): the second read mostly hits
 * the caches, and nothing is held in registers across the look-back. */
struct dstage {
  static constexpr bool STAGED = false;
  template <class K, class F>
  static __device__ __forceinline__ void each(const dtile<K> &d, unsigned j, F f) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const unsigned e = ITEMS * j + k;
      f(e < d.n ? K::conv(d.in[e], 0, 0, typename K::C()) : K::id());
    }
  }
  template <class K, class F>
  static __device__ __forceinline__ void rewrite(const dtile<K> &d, unsigned j, F f) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const unsigned e = ITEMS * j + k;
      if (e < d.n) d.out[e] = sout<K>::of(f(K::conv(d.in[e], 0, 0, typename K::C())));
    }
  }
};

#if GPUX_CU_SCAN_PAIR
/* scan_pairs' staging (float32): rows of 32 elements (128 bytes) 144 bytes apart. 16-byte
 * copies fill whole rows, and thread j's items (row j / 2, from column 16 (j % 2)) move as
 * four 16-byte vectors without bank conflicts: the 8 threads of each 16-byte access phase
 * meet the 8 distinct 16-byte bank groups. */
struct pstage {
  static constexpr unsigned ROW = 36;
  static constexpr unsigned SIZE = GPUX_SCAN_TILE / 32 * ROW;
  static __device__ __forceinline__ unsigned at(unsigned e) { return (e >> 5) * ROW + (e & 31); }
  /* stage's each and rewrite, the items moved as four float4s (all 16 loaded first, all
   * stored last) */
  template <class F>
  static __device__ __forceinline__ void each(const float *sh, unsigned j, F f) {
    const float4 *v = reinterpret_cast<const float4 *>(sh + at(ITEMS * j));
    float4 y[ITEMS / 4];
#pragma unroll
    for (int i = 0; i < ITEMS / 4; ++i) y[i] = v[i];
#pragma unroll
    for (int i = 0; i < ITEMS / 4; ++i) {
      f(y[i].x);
      f(y[i].y);
      f(y[i].z);
      f(y[i].w);
    }
  }
  template <class F> static __device__ __forceinline__ void rewrite(float *sh, unsigned j, F f) {
    float4 *v = reinterpret_cast<float4 *>(sh + at(ITEMS * j));
    float4 y[ITEMS / 4];
#pragma unroll
    for (int i = 0; i < ITEMS / 4; ++i) y[i] = v[i];
#pragma unroll
    for (int i = 0; i < ITEMS / 4; ++i) {
      y[i].x = f(y[i].x);
      y[i].y = f(y[i].y);
      y[i].z = f(y[i].z);
      y[i].w = f(y[i].w);
    }
#pragma unroll
    for (int i = 0; i < ITEMS / 4; ++i) v[i] = y[i];
  }
};
#endif

/* The per-thread part over the items in sh (layout S: staged, already converted, identities
 * past the end; or dstage's dtile): t_j = s_{j,15}, then the warp's inclusive scan W of
 * t_j. Returns W; *wp = W_{j-1} (meaningful for q > 0). The s_{j,k} are not kept: outputs()
 * recomputes them (the same operations, so the same bits), which keeps registers free
 * across the look-back. */
template <class K, class S = stage<typename K::A>, class H>
__device__ __forceinline__ typename K::A thread_and_warp(H sh, unsigned j, unsigned q,
                                                         typename K::A *wp) {
  typedef typename K::A A;
  A acc = K::id();
  S::each(sh, j, [&](A x) { acc = K::comb(acc, x); });
  A w = acc;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) { /* each step reads the previous step's values */
    const A y = shfl_up(w, (unsigned)off);
    if (q >= (unsigned)off) w = K::comb(y, w);
  }
  *wp = shfl_up(w, 1u);
  return w;
}

/* Thread j replaces its items 16j + k in sh by out_{16j+k} = base (+) s_{j,k} (inclusive)
 * or base (+) s_{j,k-1} (exclusive; s_{j,-1} = e); dstage writes them to the output. Only
 * its own slots: no barrier needed between the reads and the writes. */
template <class K, class S = stage<typename K::A>, class H>
__device__ __forceinline__ void outputs(H sh, unsigned j, typename K::A base,
                                        int exclusive) {
  typedef typename K::A A;
  A s = K::id();
  S::rewrite(sh, j, [&](A x) {
    const A sk = K::comb(s, x);
    const A o = K::comb(base, exclusive ? s : sk);
    s = sk;
    return o;
  });
}

/* ---- tile states ---------------------------------------------------------------------- */
/* An 8- or 16-byte accumulator as VW = sizeof(A) / 8 64-bit words, stored and loaded
 * relaxed: to_bits / from_bits, complex64 (float2) as re's bits | im's bits << 32,
 * complex128 (double2) as re's bits, then im's. */
template <class A> __device__ __forceinline__ void st_put(u64 *w, A v) {
  if constexpr (sizeof(A) == 16) {
    st_relaxed(w, (u64)__double_as_longlong(v.x));
    st_relaxed(w + 1, (u64)__double_as_longlong(v.y));
  } else if constexpr (is_cplx_acc<A>::value) {
    st_relaxed(w, (u64)__float_as_uint(v.x) | ((u64)__float_as_uint(v.y) << 32));
  } else {
    st_relaxed(w, to_bits<A>(v));
  }
}
template <class A> __device__ __forceinline__ A st_get(const u64 *w) {
  if constexpr (sizeof(A) == 16) {
    return make_double2(__longlong_as_double((long long)ld_relaxed(w)),
                        __longlong_as_double((long long)ld_relaxed(w + 1)));
  } else if constexpr (is_cplx_acc<A>::value) {
    const u64 b = ld_relaxed(w);
    return make_float2(__uint_as_float((unsigned)b), __uint_as_float((unsigned)(b >> 32)));
  } else {
    return from_bits<A>(ld_relaxed(w));
  }
}

template <class K>
__device__ __forceinline__ void publish(const sargs<K> &p, u64 g, unsigned flag,
                                        typename K::A agg, typename K::A incl) {
  typedef typename K::A A;
  u64 *base = p.state + 32;
  if constexpr (sizeof(A) == 4) {
    const A v = flag == ST_INCL ? incl : agg;
    st_relaxed(base + g, ((u64)flag << 32) | (to_bits<A>(v) & 0xffffffffULL));
  } else {
    constexpr unsigned VW = sizeof(A) / 8;
    unsigned *flags = reinterpret_cast<unsigned *>(base);
    u64 *aggv = base + p.ntiles, *inclv = aggv + VW * p.ntiles;
    st_put<A>(aggv + VW * g, agg); /* always valid once any flag is set */
    if (flag == ST_INCL) st_put<A>(inclv + VW * g, incl);
    __threadfence(); /* the values before the flag */
    st_relaxed(flags + g, flag);
  }
}

/* The flag of tile g; 4-byte accumulators also get the value the same word carries. */
template <class K>
__device__ __forceinline__ unsigned read_flag(const sargs<K> &p, u64 g, typename K::A &val) {
  typedef typename K::A A;
  const u64 *base = p.state + 32;
  if constexpr (sizeof(A) == 4) {
    const u64 w = ld_relaxed(base + g);
    val = from_bits<A>(w & 0xffffffffULL);
    return (unsigned)(w >> 32);
  } else {
    return ld_relaxed(reinterpret_cast<const unsigned *>(base) + g);
  }
}

/* 8- and 16-byte accumulators: the value of a tile whose flag was seen (after a fence) */
template <class K>
__device__ __forceinline__ typename K::A read_value(const sargs<K> &p, u64 g, bool incl) {
  typedef typename K::A A;
  constexpr unsigned VW = sizeof(A) / 8;
  const u64 *aggv = p.state + 32 + p.ntiles;
  return st_get<A>((incl ? aggv + VW * p.ntiles : aggv) + VW * g);
}

/* Relaxed loads at p + OFF bytes: the windows of a look-back round share one address
 * register (registers are tight: float32 kernels get 48). */
template <int OFF> __device__ __forceinline__ u64 ld_relaxed_at(const u64 *p) {
  u64 v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1+%2];" : "=l"(v) : "l"(p), "n"(OFF)
               : "memory");
  return v;
}
template <int OFF> __device__ __forceinline__ unsigned ld_relaxed_at(const unsigned *p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1+%2];" : "=r"(v) : "l"(p), "n"(OFF)
               : "memory");
  return v;
}
/* The flag of the tile at word (4-byte: 64-bit word, else 32-bit flag) w - 32 * G; 4-byte
 * accumulators also get its value. */
template <class K, int G, class W>
__device__ __forceinline__ unsigned read_flag_at(const W *w, typename K::A &val) {
  typedef typename K::A A;
  const auto x = ld_relaxed_at<-32 * G * (int)sizeof(W)>(w);
  if constexpr (sizeof(A) == 4) {
    val = from_bits<A>(x & 0xffffffffULL);
    return (unsigned)(x >> 32);
  } else {
    return x;
  }
}
template <class K, int G, class W>
__device__ __forceinline__ void poll_window(const W *w, unsigned d, unsigned c, unsigned *fl,
                                            typename K::A *val) {
  if constexpr (G >= 0) {
    poll_window<K, G - 1>(w, d, c, fl, val);
    if (d + 32 * G < c && fl[G] == 0) fl[G] = read_flag_at<K, G>(w, val[G]);
  }
}

/* Look-back shape. A round trip to L2 polls lb_g<K> windows of 32 tiles at once. A look-back
 * must cover the tiles started during its own look-back (about one L2 round trip of tile
 * starts, more than 32 at full bandwidth), else it lags further each tile and the depth
 * grows until every resident block is in it: 4 windows, 8 (256 tiles) on sm_90+ where they
 * fit without spilling. But the polls' own L2 traffic slows the tiles' loads, and the kinds
 * scan_pairs takes poll one window (the whole float32 kernel, SV_LOOKBACK too: a second
 * look-back shape in it made ptxas spill in scan_pairs' loop). H200, 2^28 float32, scan_pairs:
 * 8 windows 2.74 TB/s, 4 2.85, 2 2.97, 1 3.10; the polls read 23 M and 18 M sectors of L2 at
 * 8 and 1 windows, besides the data's 34 M. The aggregates seen on the way back are kept in
 * shared memory by distance d = c - 1 - tile (LB_N of them, enough for every resident block
 * on the GPUs of today) and one thread folds them forward serially; farther ones are read
 * again (a fallback). LB_N: 512 where 5 float blocks must fit 100 KB (sm_75, sm_86, sm_89). */
template <class K> struct lb_g {
  static constexpr int value = paired<K>::value ? 1 : GPUX_CU_SCAN_PAIR ? 8 : 4;
};
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900)
constexpr unsigned LB_N = 1024;
#else
constexpr unsigned LB_N = 512;
#endif
constexpr unsigned LB_SIZE = LB_N + 32; /* + one window of scratch for the fallback */

/* acc (+) lb[m - 1] (+) lb[m - 2] ... (+) lb[0], in that order: the aggregates in
 * increasing tile order. Only shared memory loads, independent of acc, so the adds run back
 * to back at their own latency: 4-byte accumulators read 16 bytes at a time (lb 16-byte
 * aligned), two groups ahead of the adds. Every add is one of the canonical chain's. */
template <class K>
__device__ __forceinline__ typename K::A fold_lb(typename K::A acc, const typename K::A *lb,
                                                 int m) {
  if (m <= 0) return acc;
  if constexpr (sizeof(typename K::A) == 4) {
    typedef typename K::A A;
    struct __align__(16) A4 { A x, y, z, w; };
    const A4 *v4 = reinterpret_cast<const A4 *>(lb);
    { /* the top group, partly: elements h .. 0 of group (m - 1) / 4 */
      const int h = (m - 1) & 3;
      const A4 v = v4[(m - 1) >> 2];
      if (h >= 3) acc = K::comb(acc, v.w);
      if (h >= 2) acc = K::comb(acc, v.z);
      if (h >= 1) acc = K::comb(acc, v.y);
      acc = K::comb(acc, v.x);
    }
    int g = (m - 1) >> 2; /* whole groups g - 1 .. 0 remain */
    A4 a = v4[g >= 1 ? g - 1 : 0], b = v4[g >= 2 ? g - 2 : 0];
#pragma unroll 4
    for (; g >= 1; --g) {
      const A4 n = v4[g >= 3 ? g - 3 : 0]; /* two groups ahead */
      acc = K::comb(acc, a.w);
      acc = K::comb(acc, a.z);
      acc = K::comb(acc, a.y);
      acc = K::comb(acc, a.x);
      a = b;
      b = n;
    }
  } else {
#pragma unroll 4
    for (int d = m - 1; d >= 0; --d) acc = K::comb(acc, lb[d]);
  }
  return acc;
}

/* Warp 0 of the block of tile c (global id gt) of its row, with the tile aggregate Ac and
 * lb[LB_SIZE] in shared memory: publishes A_c, finds P_c and publishes P_c (+) A_c; returns
 * P_c in lane 0. P_c is the canonical serial chain: from the nearest earlier tile c' whose
 * inclusive prefix is published, P = incl(c'), then P = P (+) A_i for i = c'+1 .. c-1 in
 * order. A tile re-read on the way forward (fallback) that has meanwhile published its
 * inclusive prefix may replace P (+) A_i by it: the same bits, by induction. */
template <class K>
__device__ __forceinline__ typename K::A look_back(const sargs<K> &p, u64 gt, u64 c,
                                                typename K::A ac, typename K::A *lb) {
  typedef typename K::A A;
  constexpr int G = lb_g<K>::value;
  constexpr bool PACKED = sizeof(A) == 4;
  const unsigned q = threadIdx.x & 31;
  if (c == 0) {
    if (q == 0) publish(p, gt, ST_INCL, ac, K::comb(K::id(), ac));
    return K::id();
  }
  if (q == 0) publish(p, gt, ST_AGG, ac, ac);
  const u64 tn = gt - 1; /* tile c - 1 (distance 0); tile 0 of the row publishes ST_INCL only */
  /* 1. back, G windows per round: lane q, window g looks at distance r0 + 32g + q, so a
   *    lane only ever meets distances d with d % 32 == q. A round is done when every tile
   *    nearer than its nearest inclusive one has published (or, without one, every tile). */
  /* distances fit 32 bits: the walk stops within the resident blocks (see LB_N) */
  const unsigned cn = c < 0xffffffffULL ? (unsigned)c : 0xffffffffu;
  unsigned r0 = 0, dmax;
  A start;
#pragma unroll 1
  for (;;) {
    A val[G];
    unsigned fl[G];
#pragma unroll
    for (int g = 0; g < G; ++g) {
      fl[g] = 0;
      val[g] = K::id();
    }
    int gs, ls;
#pragma unroll 1
    for (;;) {
      /* the loads first, then their uses; w is dereferenced only at valid distances */
      const u64 w = tn - r0 - q;
      if constexpr (PACKED)
        poll_window<K, G - 1>(p.state + 32 + w, r0 + q, cn, fl, val);
      else
        poll_window<K, G - 1>(reinterpret_cast<const unsigned *>(p.state + 32) + w, r0 + q,
                                 cn, fl, val);
      gs = -1;
      ls = 0;
      bool wait = false;
#pragma unroll
      for (int g = 0; g < G; ++g) {
        const unsigned d = r0 + 32 * g + q;
        const unsigned pub = __ballot_sync(FULL_MASK, d >= cn || fl[g] != 0);
        const unsigned inc = __ballot_sync(FULL_MASK, d < cn && fl[g] == ST_INCL);
        if (gs >= 0 || wait) continue;
        if (inc) {
          const unsigned below = (inc & (0u - inc)) - 1u; /* lanes nearer than it */
          if ((pub & below) == below) {
            gs = g;
            ls = __ffs((int)inc) - 1;
          } else {
            wait = true;
          }
        } else if (pub != FULL_MASK) {
          wait = true;
        }
      }
      if (!wait) break;
      __nanosleep(32); /* a predecessor is still loading: poll L2 less often */
    }
    if constexpr (!PACKED) {
      __threadfence(); /* the flags were seen: their values are written */
#pragma unroll
      for (int g = 0; g < G; ++g) {
        const unsigned d = r0 + 32 * g + q;
        if (d < cn && fl[g] != 0) val[g] = read_value(p, tn - d, fl[g] == ST_INCL);
      }
    }
#pragma unroll
    for (int g = 0; g < G; ++g) {
      const unsigned d = r0 + 32 * g + q;
      if (d < LB_N) lb[d] = val[g]; /* past the inclusive tile or c - 1: never read */
    }
    if (gs >= 0) {
      A v = val[0];
#pragma unroll
      for (int g = 1; g < G; ++g)
        if (g == gs) v = val[g];
      start = shfl_idx(v, ls); /* incl(c'), c' at distance dmax */
      dmax = r0 + 32 * (unsigned)gs + (unsigned)ls;
      break;
    }
    r0 += 32 * G;
  }
  __syncwarp(); /* lb */
  /* 2. forward, in increasing tile order (decreasing d), from incl(c') */
  A acc = start;
  if (dmax > LB_N) { /* fallback: d = dmax - 1 .. LB_N again from L2, a window at a time */
#pragma unroll 1
    for (unsigned b = (dmax - 1) & ~31u;; b -= 32) {
      const unsigned d = b + q; /* the lane that saw this tile's flag reads its value */
      A x = K::id();
      unsigned f = ST_AGG;
      if (d >= LB_N && d < dmax) {
        if constexpr (PACKED) f = read_flag(p, tn - d, x);
        else x = read_value(p, tn - d, false); /* A_i even where the tile is inclusive now */
      }
      const unsigned incm = __ballot_sync(FULL_MASK, f == ST_INCL);
      lb[LB_N + q] = x;
      __syncwarp();
      if (q == 0)
        for (int v = 31; v >= 0; --v)
          if (b + v >= LB_N && b + v < dmax) {
            const A xv = lb[LB_N + v];
            acc = (incm >> v) & 1u ? xv : K::comb(acc, xv);
          }
      __syncwarp();
      if (b <= LB_N) break;
    }
  }
  if (q == 0) {
    acc = fold_lb<K>(acc, lb, (int)(dmax < LB_N ? dmax : LB_N));
    publish(p, gt, ST_INCL, ac, K::comb(acc, ac));
  }
  return acc;
}

/* ---- variants ------------------------------------------------------------------------- */
template <class K> __device__ __forceinline__ void scan_thread(const sargs<K> &p) {
  typedef typename K::T T;
  typedef typename K::A A;
  constexpr int N = GPUX_CU_SCAN_THREAD_MAX;
  const unsigned len = (unsigned)p.len;
  for (u64 row = (u64)blockIdx.x * blockDim.x + threadIdx.x; row < p.rows;
       row += (u64)gridDim.x * blockDim.x) {
    const u64 e0 = row * len;
    T x[N];
#pragma unroll
    for (int k = 0; k < N; ++k)
      if ((unsigned)k < len) x[k] = p.in[e0 + k];
    const A base = K::comb(K::id(), K::id()); /* P_0 (+) E_0, E_0 = X_0 = e */
    A s = K::id();
#pragma unroll
    for (int k = 0; k < N; ++k)
      if ((unsigned)k < len) {
        const A sk = K::comb(s, K::conv(x[k], 0, 0, typename K::C()));
        p.out[e0 + k] = sout<K>::of(K::comb(base, p.exclusive ? s : sk));
        s = sk;
      }
  }
}

/* One row of up to 512 elements in warp 0 of its tile (lane q = thread j): every X_w and P
 * are e. Items in sh as in thread_and_warp. */
template <class K, class S = stage<typename K::A>, class H>
__device__ __forceinline__ void warp_row(H sh, unsigned q, int exclusive) {
  typedef typename K::A A;
  A wprev;
  (void)thread_and_warp<K, S>(sh, q, q, &wprev);
  const A X = K::id(); /* X_0 */
  const A E = q == 0 ? X : K::comb(X, wprev);
  const A base = K::comb(K::id(), E); /* P_0 = e */
  outputs<K, S>(sh, q, base, exclusive);
}

template <class K>
__device__ __forceinline__ void scan_warp(const sargs<K> &p, typename K::A *shall) {
  const unsigned q = threadIdx.x & 31, w = threadIdx.x >> 5;
  const unsigned n = (unsigned)p.len; /* <= 512 */
  for (u64 row = (u64)blockIdx.x * NWARPS + w; row < p.rows; row += (u64)gridDim.x * NWARPS) {
    const u64 e0 = row * n;
    if constexpr (!staged<K>::value) {
      (void)shall;
      const dtile<K> d = {p.in + e0, p.out + e0, n};
      warp_row<K, dstage>(d, q, p.exclusive);
    } else {
      typedef typename K::T T;
      typedef stage<typename K::A> S;
      typename K::A *sh = shall + w * S::WSIZE;
      T x[ITEMS];
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const unsigned e = q + 32 * i;
        if (e < n) x[i] = p.in[e0 + e];
      }
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const unsigned e = q + 32 * i;
        sh[S::at(e)] = e < n ? K::conv(x[i], 0, 0, typename K::C()) : K::id();
      }
      __syncwarp();
      warp_row<K>(sh, q, p.exclusive);
      __syncwarp();
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const unsigned e = q + 32 * i;
        if (e < n) p.out[e0 + e] = sout<K>::of(sh[S::at(e)]);
      }
      __syncwarp(); /* sh is reused */
    }
  }
}

/* Tile gt of the row-major (row, tile) order, per_row tiles a row (without look-back one
 * tile a row, gt = row): its index c in the row, its first element and its element count. */
struct tile_pos {
  u64 c, e0;
  unsigned n;
};
template <class K>
__device__ __forceinline__ tile_pos tile_of(const sargs<K> &p, u64 gt, u64 per_row) {
  tile_pos t;
  const u64 row = per_row == 1 ? gt : gt / per_row;
  t.c = gt - row * per_row;
  const u64 c0 = t.c * GPUX_SCAN_TILE;
  const u64 left = p.len - c0;
  t.e0 = row * p.len + c0;
  t.n = left < GPUX_SCAN_TILE ? (unsigned)left : GPUX_SCAN_TILE;
  return t;
}

/* the outputs of tile t from sh (layout S) to out, coalesced */
template <class K, class S = stage<typename K::A>>
__device__ __forceinline__ void store_tile(const sargs<K> &p, const typename K::A *sh,
                                           const tile_pos &t) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned e = threadIdx.x + GPUX_SCAN_THREADS * i;
    if (e < t.n) p.out[t.e0 + e] = sout<K>::of(sh[S::at(e)]);
  }
}

#if GPUX_CU_SCAN_PAIR
/* Whether tile t moves in 16-byte vectors: whole, and 16-byte aligned in in and out. */
template <class K> __device__ __forceinline__ bool tile_vec(const sargs<K> &p, const tile_pos &t) {
  return t.n == GPUX_SCAN_TILE &&
         (((unsigned long long)(p.in + t.e0) | (unsigned long long)(p.out + t.e0)) & 15) == 0;
}

/* Starts copying tile t into sh (pstage) with cp.async: the copies complete in the
 * background. A whole aligned tile: four 16-byte copies a thread, each 8 threads filling one
 * row; otherwise element by element, identities past the row's end stored at once. */
template <class K>
__device__ __forceinline__ void prefetch_tile(const sargs<K> &p, float *sh, const tile_pos &t) {
  const float *src = p.in + t.e0;
  const unsigned u = threadIdx.x;
  if (tile_vec(p, t)) {
#pragma unroll
    for (unsigned i = 0; i < GPUX_SCAN_TILE / 4 / GPUX_SCAN_THREADS; ++i) {
      const unsigned f = u + GPUX_SCAN_THREADS * i; /* 16-byte chunk f: elements 4f .. */
      cp_async16(sh + pstage::at(4 * f), src + 4 * f);
    }
    return;
  }
#pragma unroll
  for (unsigned i = 0; i < ITEMS; ++i) {
    const unsigned e = u + GPUX_SCAN_THREADS * i;
    if (e < t.n) cp_async4(sh + pstage::at(e), src + e);
    else sh[pstage::at(e)] = K::id();
  }
}

/* store_tile for sh in pstage: 16-byte stores where tile_vec */
template <class K>
__device__ __forceinline__ void store_tile_pair(const sargs<K> &p, const float *sh,
                                                const tile_pos &t) {
  if (tile_vec(p, t)) {
    float *dst = p.out + t.e0;
#pragma unroll
    for (unsigned i = 0; i < GPUX_SCAN_TILE / 4 / GPUX_SCAN_THREADS; ++i) {
      const unsigned f = threadIdx.x + GPUX_SCAN_THREADS * i;
      *reinterpret_cast<float4 *>(dst + 4 * f) =
          *reinterpret_cast<const float4 *>(sh + pstage::at(4 * f));
    }
    return;
  }
  store_tile<K, pstage>(p, sh, t);
}
#endif

/* A_c = X_7 (+) T_7 from the warp totals wt[0..7] */
template <class K>
__device__ __forceinline__ typename K::A tile_aggregate(const typename K::A *wt) {
  typename K::A x7 = K::id();
#pragma unroll
  for (int v = 0; v < NWARPS - 1; ++v) x7 = K::comb(x7, wt[v]);
  return K::comb(x7, wt[NWARPS - 1]);
}

/* The tile gt (position t) staged in sh (converted, identities past the end; a barrier
 * since), or in global memory (S = dstage, sh its dtile): thread and warp scans, the
 * aggregate, P (look-back, else P = e), the outputs, written to out through sh (dstage:
 * directly). Three barriers (dstage: two); sh, wt and sp may be rewritten after one
 * more. */
template <class K, class S = stage<typename K::A>, class H>
__device__ __forceinline__ void tile_body(const sargs<K> &p, H sh, typename K::A *wt,
                                          typename K::A *sp, typename K::A *lb, u64 gt,
                                          const tile_pos &t, bool lookback) {
  typedef typename K::A A;
  const unsigned j = threadIdx.x, q = j & 31, w = j >> 5;
  A wprev;
  const A wv = thread_and_warp<K, S>(sh, j, q, &wprev);
  if (q == 31) wt[w] = wv; /* T_w */
  __syncthreads();
  A X = K::id();
  for (unsigned v = 0; v < w; ++v) X = K::comb(X, wt[v]); /* X_w */
  const A E = q == 0 ? X : K::comb(X, wprev);
  A P = K::id();
  if (lookback) { /* block-uniform */
    if (w == 0) {
      const A pc = look_back(p, gt, t.c, tile_aggregate<K>(wt), lb);
      if (q == 0) *sp = pc;
    }
    __syncthreads();
    P = *sp;
  }
  const A base = K::comb(P, E);
  outputs<K, S>(sh, j, base, p.exclusive);
  if constexpr (S::STAGED) {
    __syncthreads();
    store_tile<K>(p, sh, t);
  }
}

/* One tile of a block, loaded (registers, then staged converted; unstaged kinds: read where
 * it lies) and scanned; with lookback gt is its global id, else its row. */
template <class K>
__device__ __forceinline__ void scan_tile(const sargs<K> &p, typename K::A *sh,
                                          typename K::A *wt, typename K::A *sp, typename K::A *lb,
                                          u64 gt, u64 per_row, bool lookback) {
  const tile_pos t = tile_of(p, gt, per_row);
  if constexpr (!staged<K>::value) {
    (void)sh;
    const dtile<K> d = {p.in + t.e0, p.out + t.e0, t.n};
    tile_body<K, dstage>(p, d, wt, sp, lb, gt, t, lookback);
  } else {
    typedef typename K::T T;
    typedef stage<typename K::A> S;
    const unsigned j = threadIdx.x;
    T x[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) { /* coalesced, all loads first */
      const unsigned e = j + GPUX_SCAN_THREADS * i;
      if (e < t.n) x[i] = p.in[t.e0 + e];
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned e = j + GPUX_SCAN_THREADS * i;
      sh[S::at(e)] = e < t.n ? K::conv(x[i], 0, 0, typename K::C()) : K::id();
    }
    __syncthreads();
    tile_body<K>(p, sh, wt, sp, lb, gt, t, lookback);
  }
  __syncthreads(); /* sh, wt, sp are reused */
}

template <class K>
__device__ __forceinline__ void scan_blocks(const sargs<K> &p, typename K::A *sh,
                                            typename K::A *lb, bool lookback) {
  typedef typename K::A A;
  __shared__ A wt[NWARPS];
  __shared__ A sp;
  __shared__ u64 tile;
  const u64 per_row = lookback ? (p.len + GPUX_SCAN_TILE - 1) / GPUX_SCAN_TILE : 1;
  const u64 total = p.rows * per_row;
  u64 gt = blockIdx.x; /* without look-back: one row per tile, grid-stride */
#pragma unroll 1
  for (;;) {
    if (lookback) {
      if (threadIdx.x == 0) tile = atomicAdd(p.state, 1ULL);
      __syncthreads();
      gt = tile; /* read before scan_tile's first barrier; rewritten after its last */
    }
    if (gt >= total) break;
    scan_tile<K>(p, sh, wt, &sp, lb, gt, per_row, lookback);
    gt += gridDim.x;
  }
}

#if GPUX_CU_SCAN_PAIR
/* SV_PAIR (paired<K>): a block takes two consecutive tile ids at once and copies both tiles
 * into its two staging buffers with cp.async (32 KB in flight per block, no registers held),
 * publishes both aggregates as soon as they are known, and looks back for the first tile
 * only: the second one's prefix follows from the first one's, P_{c+1} = P_c (+) A_c (or e
 * when it starts a row, whose inclusive prefix is then published at once). Half the
 * look-backs and twice the loads in flight per block of SV_LOOKBACK, and no tile id is held
 * while its aggregate waits on another tile's look-back. Ids are taken in increasing order
 * by running blocks and each look-back needs only smaller tiles: no deadlock, any grid size
 * (the host launches one wave). */
template <class K>
__device__ __forceinline__ void scan_pairs(const sargs<K> &p, float *sh0, float *lb) {
  typedef typename K::A A;
  __shared__ __align__(16) A sh1[pstage::SIZE];
  __shared__ A wt[2][NWARPS];
  __shared__ A sp[2];
  __shared__ u64 tile;
  const unsigned j = threadIdx.x, q = j & 31, w = j >> 5;
  const u64 per_row = (p.len + GPUX_SCAN_TILE - 1) / GPUX_SCAN_TILE;
  const u64 total = p.rows * per_row;
#pragma unroll 1
  for (;;) {
    if (j == 0) tile = atomicAdd(p.state, 2ULL);
    __syncthreads();
    const u64 g0 = tile; /* rewritten only after this iteration's last barrier */
    if (g0 >= total) break;
    const bool two = g0 + 1 < total; /* block-uniform */
    const tile_pos t0 = tile_of(p, g0, per_row);
    const tile_pos t1 = two ? tile_of(p, g0 + 1, per_row) : t0;
    prefetch_tile<K>(p, sh0, t0);
    if (two) prefetch_tile<K>(p, sh1, t1);
    cp_async_wait_all();
    __syncthreads();
    A wprev0, wprev1 = K::id();
    const A wv0 = thread_and_warp<K, pstage>(sh0, j, q, &wprev0);
    if (q == 31) wt[0][w] = wv0;
    if (two) {
      const A wv1 = thread_and_warp<K, pstage>(sh1, j, q, &wprev1);
      if (q == 31) wt[1][w] = wv1;
    }
    __syncthreads();
    if (w == 0) {
      const A a0 = tile_aggregate<K>(wt[0]);
      const bool cont = two && t0.c + 1 < per_row; /* the second tile continues the row */
      A a1 = K::id();
      if (two) {
        a1 = tile_aggregate<K>(wt[1]);
        if (q == 0) { /* its aggregate now; a row's first tile: its inclusive prefix */
          if (cont) publish(p, g0 + 1, ST_AGG, a1, a1);
          else publish(p, g0 + 1, ST_INCL, a1, K::comb(K::id(), a1));
        }
      }
      const A p0 = look_back(p, g0, t0.c, a0, lb);
      if (q == 0) {
        const A p1 = cont ? K::comb(p0, a0) : K::id(); /* P_{c+1} = P_c (+) A_c */
        if (cont) publish(p, g0 + 1, ST_INCL, a1, K::comb(p1, a1));
        sp[0] = p0;
        sp[1] = p1;
      }
    }
    __syncthreads();
    {
      A X = K::id();
      for (unsigned v = 0; v < w; ++v) X = K::comb(X, wt[0][v]); /* X_w */
      outputs<K, pstage>(sh0, j, K::comb(sp[0], q == 0 ? X : K::comb(X, wprev0)),
                         p.exclusive);
    }
    if (two) {
      A X = K::id();
      for (unsigned v = 0; v < w; ++v) X = K::comb(X, wt[1][v]);
      outputs<K, pstage>(sh1, j, K::comb(sp[1], q == 0 ? X : K::comb(X, wprev1)),
                         p.exclusive);
    }
    __syncthreads();
    store_tile_pair<K>(p, sh0, t0);
    if (two) store_tile_pair<K>(p, sh1, t1);
    __syncthreads(); /* sh0, sh1, wt, sp, tile are reused */
  }
}
#endif

template <class K> __device__ __forceinline__ void scan(const sargs<K> &p, int variant) {
  /* one staging buffer for the warp and block variants (34 KB for 8-byte accumulators; none
   * for unstaged kinds, whose shared memory is the look-back's 17 KB); the paired look-back
   * has a second. One look-back buffer for both look-back variants. */
  typedef typename K::A A;
#if GPUX_CU_SCAN_PAIR
  static_assert(pstage::SIZE >= stage<float>::SIZE, "sh also serves the float32 block variants");
  constexpr unsigned SH = !staged<K>::value  ? 1
                          : paired<K>::value ? pstage::SIZE
                                             : stage<A>::SIZE;
#else
  constexpr unsigned SH = !staged<K>::value ? 1 : stage<A>::SIZE;
#endif
  __shared__ __align__(16) A sh[SH];
  __shared__ __align__(16) A lb[LB_SIZE];
  if (variant == SV_THREAD && p.len <= GPUX_CU_SCAN_THREAD_MAX) scan_thread(p);
  else if (variant == SV_WARP && p.len <= GPUX_CU_SCAN_WARP_MAX) scan_warp(p, sh);
  else if (p.len <= GPUX_SCAN_TILE) scan_blocks(p, sh, lb, false);
  else { /* more than one tile: look back */
#if GPUX_CU_SCAN_PAIR
    if constexpr (paired<K>::value)
      if (variant == SV_PAIR) {
        scan_pairs(p, sh, lb);
        return;
      }
#endif
    scan_blocks(p, sh, lb, true);
  }
}

template <class K>
__device__ __forceinline__ sargs<K> make_sargs(typename sout<K>::type *out, const typename K::T *in,
                                               long long rows, long long len, int exclusive,
                                               unsigned long long *state, long long ntiles) {
  sargs<K> p;
  p.out = out;
  p.in = in;
  p.rows = (u64)rows;
  p.len = (u64)len;
  p.exclusive = exclusive;
  p.state = state;
  p.ntiles = (u64)ntiles;
  return p;
}

}  // namespace gpux_cu

/* ---- kernels -------------------------------------------------------------------------- */
/* Blocks per SM the registers must allow: float32 5 (48 registers; sm_75 has 1024 threads
 * per SM: 4), 8-byte accumulators 3 (80 registers; their staging takes 34 KB of shared
 * memory), complex128 2 (128 registers: its unstaged tiles keep a thread's 16 loads of 16
 * bytes in flight; at 80 the sums spilled 40 to 72 bytes). Left alone, ptxas takes up to
 * 128 registers here. At 48 the look-back costs a 16-byte spill where it polls 4 windows;
 * on sm_90 scan_pairs does not spill (one window a round) and SV_LOOKBACK (used there only
 * with GPUX_CUDA_SCAN=plain) spills about 130 bytes, in its loads. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define GPUX_CU_SCAN_MINB4 4
#else
#define GPUX_CU_SCAN_MINB4 5
#endif
#define GPUX_CU_SK(kind, dt) gpux_cu::rk_##kind<GPUX_CU_D(dt)>
#define GPUX_CU_SKERNEL(kind, dt)                                                       \
  extern "C" __global__ void __launch_bounds__(                                         \
      GPUX_SCAN_THREADS, sizeof(GPUX_CU_SK(kind, dt)::A) == 4    ? GPUX_CU_SCAN_MINB4    \
                         : sizeof(GPUX_CU_SK(kind, dt)::A) == 16 ? 2                     \
                                                                 : 3)
#define GPUX_CU_SCAN_KERNEL(kind, dt)                                                   \
  GPUX_CU_SKERNEL(kind, dt) gpux_scan_##kind##_##dt(                                   \
      gpux_cu::sout<GPUX_CU_SK(kind, dt)>::type *out,                                   \
                                          const GPUX_CU_T(dt) *__restrict__ in,         \
                                          long long rows, long long len, int exclusive, \
                                          int variant, unsigned long long *state,       \
                                          long long ntiles) {                           \
    gpux_cu::scan(gpux_cu::make_sargs<GPUX_CU_SK(kind, dt)>(out, in, rows, len,         \
                                                            exclusive, state, ntiles),  \
                  variant);                                                             \
  }
#define GPUX_CU_SCAN_KIND(kind, id, dts, acc) dts(GPUX_CU_SCAN_KERNEL, kind)
GPUX_SCAN_KINDS(GPUX_CU_SCAN_KIND)
