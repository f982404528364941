/* gpux CUDA kernels, reduce family: one pass of THE CANONICAL ORDER (gpux_kernels.h) for
 * every (kind, dtype, layout) of GPUX_REDUCE_KINDS. Compiled with -fmad=false.
 *
 * Signature (T = the input dtype's type, Out = the kind's output type, see gpux_reduce.cuh):
 *   gpux_reduce_<kind>_<dt>_<r|c>(Out *out, long long *out_idx, const T *in,
 *                                 const long long *in_idx, const C *aux, long long outer,
 *                                 long long len, long long inner, int variant, int post,
 *                                 double post_div)
 * Pointers are already offset. Layout r: in[outer][len] (inner is 1), layout c:
 * in[outer][len][inner]; out[outer][nparts][inner], nparts = ceil(len / 4096). out_idx:
 * argmin/argmax kinds (out may be NULL there: indices only); in_idx: argmin_p/argmax_p;
 * aux[outer][inner]: ssd's means, of the compute type C (float for float16 / bfloat16 inputs,
 * whose kinds compute and write float32). The post op applies when nparts == 1.
 *
 * Variants (a uniform kernel argument; each computes the canonical order exactly, so the
 * choice changes speed, never bits; the host picks, see src/backend_cuda/cuda_reduce.c):
 *   RV_THREAD (len <= 16 for layout r, 8 for layout c): one thread per output; the lanes
 *     >= len hold the identity, so only the tree levels s < 16 (8) do anything. Layout r:
 *     grid-stride over outer (blockIdx.x); layout c: blockIdx.x over inner, blockIdx.y
 *     over outer.
 *   RV_WARP (layout r, len <= 4096): one warp per row (8 rows per block, grid-stride over
 *     outer); lane t of the warp owns canonical lanes t + 32m (m = 0..7).
 *   RV_BLOCK: layout r: one block per (row, chunk) (inputs narrower than 4 bytes: V = 4 /
 *     size full chunks c + g gridDim.x at a time, packed lanes (red_r_packed) on a 4-byte
 *     aligned row, else two chunks): blockIdx.x over chunks, blockIdx.y over rows.
 *     Layout c: 16 columns x 16 lane groups per block: blockIdx.x over column blocks,
 *     blockIdx.y over chunks, blockIdx.z over outer.
 *   RV_CVEC (layout c, 4-byte inputs, inner even, pointer 8-byte aligned, kinds of cvec_ok;
 *     otherwise RV_BLOCK): RV_BLOCK with 32 columns per block, two per thread.
 * Every loop strides by its grid dimension, so any grid is correct. A variant asked for
 * outside its range of len falls back to RV_BLOCK (still correct). */
#include "gpux_reduce.cuh"

/* RV_THREAD's largest len (powers of two): layout r 16, layout c 8 (its addresses are
 * 64-bit strided, and the kernel's register count is the largest of its variants') */
#define GPUX_CU_RED_THREAD_MAX 16
#define GPUX_CU_RED_CTHREAD_MAX 8

namespace gpux_cu {

enum { RV_THREAD = 0, RV_WARP = 1, RV_BLOCK = 2, RV_CVEC = 3, RV_CASYNC = 4 };

template <class K> struct rargs {
  typename K::Out *out;
  long long *out_idx;
  const typename K::T *in;
  const long long *in_idx;
  const typename K::C *aux;
  u64 outer, len, inner;
  int post;
  double div;
};

/* post ops, final pass only. float32: (float)((double)v / d), (float)sqrt((double)v) */
template <class A> __device__ __forceinline__ A post_op(A v, int post, double d) {
  if constexpr (is_fp<A>::value && sizeof(A) == 4) {
    if (post == GPUX_POST_DIV) return __double2float_rn(__ddiv_rn((double)v, d));
    if (post == GPUX_POST_SQRT) return __double2float_rn(__dsqrt_rn((double)v));
    if (post == GPUX_POST_DIV_SQRT) {
      const float r = __double2float_rn(__ddiv_rn((double)v, d));
      return __double2float_rn(__dsqrt_rn((double)r));
    }
    return v;
  } else if constexpr (is_fp<A>::value) {
    if (post == GPUX_POST_DIV) return __ddiv_rn(v, d);
    if (post == GPUX_POST_SQRT) return __dsqrt_rn(v);
    if (post == GPUX_POST_DIV_SQRT) return __dsqrt_rn(__ddiv_rn(v, d));
    return v;
  } else {
    return v;
  }
}

/* complex (mean): the post op of the component dtype on each component */
__device__ __forceinline__ float2 post_op(float2 v, int post, double d) {
  return make_float2(post_op(v.x, post, d), post_op(v.y, post, d));
}
__device__ __forceinline__ double2 post_op(double2 v, int post, double d) {
  return make_double2(post_op(v.x, post, d), post_op(v.y, post, d));
}

template <class K>
__device__ __forceinline__ void put(const rargs<K> &p, u64 off, typename K::A a, bool final) {
  if constexpr (K::ARG) {
    if (p.out) p.out[off] = a.v;
    if (p.out_idx) p.out_idx[off] = a.i;
  } else {
    if (final && p.post != GPUX_POST_NONE) a = post_op(a, p.post, p.div);
    p.out[off] = (typename K::Out)a;
  }
}

/* one element (and its carried index) */
template <class K>
__device__ __forceinline__ void ld(const rargs<K> &p, u64 e, typename K::T &x, long long &xi) {
  x = p.in[e];
  if constexpr (K::IDX_IN) xi = p.in_idx[e];
}

template <class K> __device__ __forceinline__ typename K::C mean_of(const rargs<K> &p, u64 o) {
  if constexpr (K::AUX) return p.aux[o];
  else return typename K::C();
}

/* The lane tree over a[0..N) in registers: levels s = N/2 .. 1, a[j] (+)= a[j + s].
 * RV_THREAD uses it for lanes 0..N-1: the lanes >= N hold the identity, which the levels
 * s >= N would only combine with (a (+) e == a). */
template <class K, int S, int N>
__device__ __forceinline__ void tree_level(typename K::A (&a)[N]) {
#pragma unroll
  for (int j = 0; j < S; ++j) a[j] = K::comb(a[j], a[j + S]);
  if constexpr (S > 1) tree_level<K, S / 2>(a);
}
template <class K, int N>
__device__ __forceinline__ typename K::A tree_regs(typename K::A (&a)[N]) {
  static_assert(N >= 2 && (N & (N - 1)) == 0, "a power of two");
  tree_level<K, N / 2>(a); /* s = N/2 .. 1, all indices constant: registers only */
  return a[0];
}

/* levels s = W/2 .. 1 by shuffles: lane q < s computes a_q (+) a_{q+s} (other lanes compute
 * values nobody reads); the result is valid in lanes q % W == 0 */
template <class K, int W> __device__ __forceinline__ typename K::A warp_tree(typename K::A a) {
#pragma unroll
  for (int lv = 2; lv <= W; lv <<= 1) {
    const typename K::A b = shfl_down(a, (unsigned)(W / lv));
    a = K::comb(a, b);
  }
  return a;
}

/* The fold of NA = K::ORDERED ? N : 1 accumulators (see rk_base::ORDERED): with one, every
 * lane of a thread folds into acc[0]. */
template <class K, int N> struct nacc {
  static constexpr int value = K::ORDERED ? N : 1;
};
template <class K, int N>
__device__ __forceinline__ typename K::A fold_accs(typename K::A (&a)[N]) {
  if constexpr (N == 1) return a[0];
  else return tree_regs<K>(a);
}

/* ---- layout r -------------------------------------------------------------------------- */
template <class K> __device__ __forceinline__ void red_r_thread(const rargs<K> &p) {
  typedef typename K::T T;
  typedef typename K::A A;
  constexpr int N = GPUX_CU_RED_THREAD_MAX, NA = nacc<K, N>::value;
  const unsigned len = (unsigned)p.len;
  for (u64 o = (u64)blockIdx.x * blockDim.x + threadIdx.x; o < p.outer;
       o += (u64)gridDim.x * blockDim.x) {
    const u64 row = o * len;
    const typename K::C m = mean_of(p, o);
    T x[N];
    long long xi[N];
    A a[NA];
#pragma unroll
    for (int j = 0; j < N; ++j) {
      xi[j] = 0;
      if ((unsigned)j < len) ld(p, row + j, x[j], xi[j]);
    }
#pragma unroll
    for (int j = 0; j < NA; ++j) a[j] = K::id();
#pragma unroll
    for (int j = 0; j < N; ++j)
      if ((unsigned)j < len) a[j % NA] = K::comb(a[j % NA], K::conv(x[j], j, xi[j], m));
    put(p, o, fold_accs<K>(a), true);
  }
}

template <class K> __device__ __forceinline__ void red_r_warp(const rargs<K> &p) {
  typedef typename K::T T;
  typedef typename K::A A;
  constexpr int NA = nacc<K, 8>::value;
  const unsigned t = threadIdx.x & 31, w = threadIdx.x >> 5;
  const unsigned len = (unsigned)p.len; /* <= 4096 */
  const unsigned nk = (len + GPUX_RED_LANES - 1) / GPUX_RED_LANES;
  for (u64 o = (u64)blockIdx.x * (GPUX_RED_LANES / 32) + w; o < p.outer;
       o += (u64)gridDim.x * (GPUX_RED_LANES / 32)) { /* warp-uniform */
    const u64 row = o * len;
    const typename K::C m = mean_of(p, o);
    A acc[NA];
#pragma unroll
    for (int j = 0; j < NA; ++j) acc[j] = K::id();
    /* lane t + 32j folds x[t + 32j + 256k] in k order; two k at a time: 16 loads in flight */
#pragma unroll 1
    for (unsigned k = 0; k < nk; k += 2) {
      T x[2][8];
      long long xi[2][8];
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const unsigned r = (k + h) * GPUX_RED_LANES + 32 * j + t;
          xi[h][j] = 0;
          if (r < len) ld(p, row + r, x[h][j], xi[h][j]);
        }
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const unsigned r = (k + h) * GPUX_RED_LANES + 32 * j + t;
          if (r < len) acc[j % NA] = K::comb(acc[j % NA], K::conv(x[h][j], r, xi[h][j], m));
        }
    }
    /* levels s = 128, 64, 32 pair lanes of the same thread (j with j + 4, 2, 1), then
     * s = 16 .. 1 across the warp */
    const A a = warp_tree<K, 32>(fold_accs<K>(acc));
    if (t == 0) put(p, o, a, true);
  }
}

/* the lane tree of a 256-thread block; the result is valid in thread 0 */
template <class K>
__device__ __forceinline__ typename K::A tree_block(typename K::A a, typename K::A *sh) {
  typedef typename K::A A;
  const unsigned l = threadIdx.x;
  sh[l] = a;
  __syncthreads();
  if (l < 128) {
    a = K::comb(a, sh[l + 128]);
    sh[l] = a;
  }
  __syncthreads();
  if (l < 64) {
    a = K::comb(a, sh[l + 64]);
    sh[l] = a;
  }
  __syncthreads();
  if (l < 32) {
    a = K::comb(a, sh[l + 32]);
    a = warp_tree<K, 32>(a);
  }
  __syncthreads(); /* sh is reused by the next chunk */
  return a;
}

/* levels S .. 1 of a (value, 32-bit index) tree, all indices constant (registers only) */
template <class K, int S, int N>
__device__ __forceinline__ void arg_tree(typename K::C (&v)[N], int (&ki)[N]) {
#pragma unroll
  for (int k = 0; k < S; ++k) {
    const bool tb = K::take_b(v[k], ki[k], v[k + S], ki[k + S]);
    v[k] = tb ? v[k + S] : v[k];
    ki[k] = tb ? ki[k + S] : ki[k];
  }
  if constexpr (S > 1) arg_tree<K, S / 2>(v, ki);
}

/* One chunk's 16 elements of a thread (lane l: x[k] at row position r0 + 256k) folded in k
 * order. Unordered kinds (rk_base::ORDERED false) combine them as a tree instead: the same
 * result, 4 dependent steps instead of 16. argmin/argmax without carried indices compare the
 * 32-bit k there (its order is the order of r0 + 256k) and widen once. */
template <class K>
__device__ __forceinline__ typename K::A fold16(const typename K::T (&x)[GPUX_RED_ROWS],
                                                const long long (&xi)[GPUX_RED_ROWS], u64 r0,
                                                typename K::C m) {
  typedef typename K::T T;
  typedef typename K::A A;
  if constexpr (K::ORDERED) {
    A a = K::id();
#pragma unroll
    for (int k = 0; k < GPUX_RED_ROWS; ++k)
      a = K::comb(a, K::conv(x[k], (long long)(r0 + (u64)k * GPUX_RED_LANES), xi[k], m));
    return a;
  } else if constexpr (K::ARG && !K::IDX_IN) {
    typename K::C v[GPUX_RED_ROWS];
    int ki[GPUX_RED_ROWS];
#pragma unroll
    for (int k = 0; k < GPUX_RED_ROWS; ++k) {
      v[k] = K::val(x[k]);
      ki[k] = k;
    }
    arg_tree<K, GPUX_RED_ROWS / 2>(v, ki);
    A a;
    a.v = v[0];
    a.i = (long long)(r0 + (u64)(unsigned)ki[0] * GPUX_RED_LANES);
    return a;
  } else {
    A a[GPUX_RED_ROWS];
#pragma unroll
    for (int k = 0; k < GPUX_RED_ROWS; ++k)
      a[k] = K::conv(x[k], (long long)(r0 + (u64)k * GPUX_RED_LANES), xi[k], m);
    return tree_regs<K>(a);
  }
}

/* Packed lanes (inputs narrower than 4 bytes, a 4-byte aligned row, V = 4 / sizeof(T) full
 * chunks c + g gridDim.x, g = 0..V-1, block-uniform): the U = 256 / V threads u of group g
 * own lanes Vu .. Vu + V-1 of chunk g and read them as one 4-byte word per k, 16 words, the
 * loads float32's path makes. Each lane folds its 16 elements in k order as alone, and the V
 * lane trees run side by side after one barrier: the lanes go to shared memory (shv: V
 * chunks x 256 lanes, as U packs of V lanes per chunk), then warp h < V takes chunk h as
 * red_r_warp does a row: lane q reads lanes q + 32m (m = 0..7), levels s = 128, 64, 32 pair
 * them in registers (tree_regs: m with m + 4, 2, 1, i.e. lane i with i + s, the lower lane
 * left), levels 16 .. 1 are warp_tree's shuffles: tree_block's combines for each chunk, in
 * its operand order. shv is double-buffered (NB = 2, the buffer alternating per call) where
 * that costs at most 16 KB: a write of call n + 2 comes after every thread has passed call
 * n + 1's barrier, so after call n's reads, and one barrier serves V chunks (tree_block: 4
 * each). Else (argmin/argmax of 1-byte inputs, 16-byte accumulators: 32 KB would cut the
 * blocks per SM) a second barrier closes the call.
 * An integer sum (exact, any order) folds a thread's 16 V elements in 32 bits (they fit: 16 V
 * elements of at most 16 bits), each warp adds its 32 totals, and warp h's first lane adds
 * the U / 32 warp totals of chunk h (shs, double-buffered likewise): the chunk's exact sum
 * (|sum| < 4096 * 2^16 = 2^28: 32 bits hold it), sign-extended to 64 bits as the wrapping u64
 * accumulator's sum of the sign- or zero-extended elements. One barrier per V chunks. */
template <class K> struct packed {
  typedef typename K::A A;
  static constexpr int V = sizeof(typename K::T) < 4 && !K::IDX_IN ? 4 / sizeof(typename K::T) : 1;
  static constexpr bool ISUM32 = V > 1 && K::ISUM;
  static constexpr int NB = 2 * V * GPUX_RED_LANES * sizeof(A) <= 16384 ? 2 : 1;
  /* V lanes of one thread: one store (up to 16 bytes) where the alignment allows */
  struct alignas(V * sizeof(A) <= 16 ? V * sizeof(A) : alignof(A)) pack {
    A a[V];
  };
};
template <class K> __device__ __forceinline__ int isum32(const unsigned (&w)[GPUX_RED_ROWS]) {
  typedef typename K::T T;
  constexpr bool SIGNED = (T)-1 < (T)0;
  int s = 0;
#pragma unroll
  for (int k = 0; k < GPUX_RED_ROWS; ++k) {
    if constexpr (sizeof(T) == 1)
      s = SIGNED ? __dp4a((int)w[k], 0x01010101, s)
                 : (int)__dp4a(w[k], 0x01010101u, (unsigned)s);
    else
      s += SIGNED ? (int)(short)(w[k] & 0xffffu) + ((int)w[k] >> 16)
                  : (int)(w[k] & 0xffffu) + (int)(w[k] >> 16);
  }
  return s; /* an unsigned s is below 2^31 */
}
/* the sum of a warp's 32 values, in every lane (modulo 2^32) */
__device__ __forceinline__ unsigned warp_add(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(FULL_MASK, v);
#else
#pragma unroll
  for (int s = 16; s >= 1; s >>= 1) v += __shfl_xor_sync(FULL_MASK, v, s);
  return v;
#endif
}
template <class K>
__device__ __forceinline__ void red_r_packed(const rargs<K> &p, u64 o, u64 c, u64 nparts,
                                             typename K::C m, typename packed<K>::pack *shv,
                                             int *shs, unsigned par) {
  typedef typename K::T T;
  typedef typename K::A A;
  typedef typename packed<K>::pack P;
  constexpr int V = packed<K>::V, U = GPUX_RED_LANES / V; /* threads per chunk */
  constexpr int NW = GPUX_RED_LANES / 32, WPC = U / 32;   /* warps, per chunk */
  static_assert(U % 32 == 0, "a chunk's threads are whole warps");
  const unsigned l = threadIdx.x, g = l / U, u = l % U, w = l / 32, q = l % 32;
  const u64 cg = c + (u64)g * gridDim.x, c0 = cg * GPUX_RED_CHUNK;
  const unsigned *wb = (const unsigned *)(p.in + (o * p.len + c0)) + u;
  unsigned x[GPUX_RED_ROWS];
#pragma unroll
  for (int k = 0; k < GPUX_RED_ROWS; ++k) x[k] = wb[(unsigned)k * U];
  if constexpr (packed<K>::ISUM32) {
    int *ws = shs + par * NW;
    const unsigned s = warp_add((unsigned)isum32<K>(x)); /* warp w's total, chunk w / WPC */
    if (q == 0) ws[w] = (int)s;
    __syncthreads();
    if (w < V && q == 0) {
      unsigned t = 0;
#pragma unroll
      for (int i = 0; i < WPC; ++i) t += (unsigned)ws[w * WPC + i];
      put(p, o * nparts + c + (u64)w * gridDim.x, (A)(long long)(int)t, nparts == 1);
    }
  } else {
    P pk;
#pragma unroll
    for (int j = 0; j < V; ++j) {
      A a = K::id();
      const u64 r0 = c0 + (u64)(V * u + j);
#pragma unroll
      for (int k = 0; k < GPUX_RED_ROWS; ++k)
        a = K::comb(a, K::conv((T)(x[k] >> (8 * sizeof(T) * j)),
                               (long long)(r0 + (u64)k * GPUX_RED_LANES), 0, m));
      pk.a[j] = a;
    }
    P *sb = shv + (packed<K>::NB == 2 ? par : 0u) * GPUX_RED_LANES; /* V U packs a buffer */
    sb[g * U + u] = pk;
    __syncthreads();
    if (w < V) { /* chunk w's lane tree (see above) */
      A y[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const unsigned i = q + 32 * j;
        y[j] = sb[w * U + i / V].a[i % V];
      }
      const A b = warp_tree<K, 32>(tree_regs<K>(y));
      if (q == 0) put(p, o * nparts + c + (u64)w * gridDim.x, b, nparts == 1);
    }
    if constexpr (packed<K>::NB == 1) __syncthreads(); /* shv is reused by the next call */
  }
}

template <class K> __device__ __forceinline__ void red_r_block(const rargs<K> &p) {
  typedef typename K::T T;
  typedef typename K::A A;
  constexpr int V = packed<K>::V;
  constexpr bool PK = V > 1 && !packed<K>::ISUM32;
  __shared__ A sh[GPUX_RED_LANES];
  __shared__ typename packed<K>::pack shv[PK ? packed<K>::NB * GPUX_RED_LANES : 1];
  __shared__ int shs[packed<K>::ISUM32 ? 2 * GPUX_RED_LANES / 32 : 1];
  unsigned par = 0; /* red_r_packed's buffer */
  const unsigned l = threadIdx.x;
  const u64 len = p.len;
  const u64 nparts = (len + GPUX_RED_CHUNK - 1) / GPUX_RED_CHUNK;
  for (u64 o = blockIdx.y; o < p.outer; o += gridDim.y) {
    const u64 row = o * len;
    const typename K::C m = mean_of(p, o);
    const bool aligned = ((size_t)(p.in + row) & 3) == 0; /* row-uniform */
    for (u64 c = blockIdx.x; c < nparts; c += gridDim.x) {
      const u64 c0 = c * GPUX_RED_CHUNK, r0 = c0 + l;
      if constexpr (V > 1) {
        const u64 cl = c + (u64)(V - 1) * gridDim.x; /* the group's last chunk */
        if (aligned && cl < nparts && len - cl * GPUX_RED_CHUNK >= GPUX_RED_CHUNK) {
          red_r_packed<K>(p, o, c, nparts, m, shv, shs, par);
          par ^= 1u;
          c = cl; /* the loop's step moves past all V */
          continue;
        }
      }
      if constexpr (sizeof(T) < 4 && !K::IDX_IN) {
        /* Inputs narrower than 4 bytes: 16 loads are too few bytes in flight, so a block
         * takes two full chunks at a time (c and c + gridDim.x, block-uniform), 32 loads,
         * each chunk folded and reduced exactly as alone. */
        const u64 c1 = c + gridDim.x;
        if (c1 < nparts && len - c1 * GPUX_RED_CHUNK >= GPUX_RED_CHUNK) {
          const u64 r1 = c1 * GPUX_RED_CHUNK + l;
          const T *xb = p.in + (row + r0), *yb = p.in + (row + r1);
          T x[GPUX_RED_ROWS], y[GPUX_RED_ROWS];
          const long long xi[GPUX_RED_ROWS] = {};
#pragma unroll
          for (int k = 0; k < GPUX_RED_ROWS; ++k) {
            x[k] = xb[(unsigned)k * GPUX_RED_LANES];
            y[k] = yb[(unsigned)k * GPUX_RED_LANES];
          }
          A a = fold16<K>(x, xi, r0, m), b = fold16<K>(y, xi, r1, m);
          a = tree_block<K>(a, sh);
          if (l == 0) put(p, o * nparts + c, a, nparts == 1);
          b = tree_block<K>(b, sh);
          if (l == 0) put(p, o * nparts + c1, b, nparts == 1);
          c = c1; /* the loop's step moves past both */
          continue;
        }
      }
      T x[GPUX_RED_ROWS];
      long long xi[GPUX_RED_ROWS];
      A a;
      if (len - c0 >= GPUX_RED_CHUNK) { /* a full chunk (block-uniform): no bounds checks,
                                         * 32-bit offsets from the thread's first element */
        const T *xb = p.in + (row + r0);
#pragma unroll
        for (int k = 0; k < GPUX_RED_ROWS; ++k) x[k] = xb[(unsigned)k * GPUX_RED_LANES];
#pragma unroll
        for (int k = 0; k < GPUX_RED_ROWS; ++k) xi[k] = 0;
        if constexpr (K::IDX_IN) {
          const long long *ib = p.in_idx + (row + r0);
#pragma unroll
          for (int k = 0; k < GPUX_RED_ROWS; ++k) xi[k] = ib[(unsigned)k * GPUX_RED_LANES];
        }
        a = fold16<K>(x, xi, r0, m);
      } else {
#pragma unroll
        for (int k = 0; k < GPUX_RED_ROWS; ++k) { /* all 16 loads first (coalesced) */
          const u64 r = r0 + (u64)k * GPUX_RED_LANES;
          xi[k] = 0;
          if (r < len) ld(p, row + r, x[k], xi[k]);
        }
        a = K::id();
#pragma unroll
        for (int k = 0; k < GPUX_RED_ROWS; ++k) {
          const u64 r = r0 + (u64)k * GPUX_RED_LANES;
          if (r < len) a = K::comb(a, K::conv(x[k], (long long)r, xi[k], m));
        }
      }
      a = tree_block<K>(a, sh);
      if (l == 0) put(p, o * nparts + c, a, nparts == 1);
    }
  }
}

/* ---- layout c -------------------------------------------------------------------------- */
template <class K> __device__ __forceinline__ void red_c_thread(const rargs<K> &p) {
  typedef typename K::T T;
  typedef typename K::A A;
  constexpr int N = GPUX_CU_RED_CTHREAD_MAX, NA = nacc<K, N>::value;
  const unsigned len = (unsigned)p.len;
  const u64 inner = p.inner;
  for (u64 o = blockIdx.y; o < p.outer; o += gridDim.y)
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < inner;
         i += (u64)gridDim.x * blockDim.x) {
      const T *xp = p.in + o * len * inner + i; /* consecutive threads: consecutive columns */
      const typename K::C m = mean_of(p, o * inner + i);
      T x[N];
      long long xi[N];
      A a[NA];
#pragma unroll
      for (int j = 0; j < N; ++j) {
        xi[j] = 0;
        if ((unsigned)j < len) {
          x[j] = xp[(u64)j * inner];
          if constexpr (K::IDX_IN) xi[j] = p.in_idx[(u64)(xp - p.in) + (u64)j * inner];
        }
      }
#pragma unroll
      for (int j = 0; j < NA; ++j) a[j] = K::id();
#pragma unroll
      for (int j = 0; j < N; ++j)
        if ((unsigned)j < len) a[j % NA] = K::comb(a[j % NA], K::conv(x[j], j, xi[j], m));
      put(p, o * inner + i, fold_accs<K>(a), true);
    }
}

/* 16 columns x 16 groups: thread (i, g) owns lanes l = g + 16j (j = 0..15) of its column:
 * it reads rows g + 16j + 256k (64 bytes or more of consecutive columns per row and
 * half-warp) into acc[j]. Levels s >= 16 pair lanes of one thread (j with j + s/16),
 * levels s = 8 .. 1 pair groups: through shared memory, then shuffles inside half-warps. */
#define GPUX_CU_RC_COLS 16
#define GPUX_CU_RC_GROUPS 16
template <class K> __device__ __forceinline__ void red_c_block(const rargs<K> &p) {
  typedef typename K::T T;
  typedef typename K::A A;
  constexpr int C = GPUX_CU_RC_COLS, G = GPUX_CU_RC_GROUPS, J = GPUX_RED_LANES / G;
  constexpr int NA = nacc<K, J>::value;
  __shared__ A sh[G][C + 1];
  const unsigned tx = threadIdx.x % C, g = threadIdx.x / C;
  const u64 len = p.len, inner = p.inner;
  const u64 nparts = (len + GPUX_RED_CHUNK - 1) / GPUX_RED_CHUNK;
  const u64 ncb = (inner + C - 1) / C;
  const u64 step = (u64)G * inner; /* elements from lane g + 16j to g + 16(j + 1) */
  for (u64 o = blockIdx.z; o < p.outer; o += gridDim.z)
    for (u64 c = blockIdx.y; c < nparts; c += gridDim.y)
      for (u64 cb = blockIdx.x; cb < ncb; cb += gridDim.x) {
        const u64 i = cb * C + tx;
        const bool colok = i < inner;
        const typename K::C m = colok ? mean_of(p, o * inner + i) : typename K::C();
        const u64 r0 = c * GPUX_RED_CHUNK;
        const unsigned left = (unsigned)min(len - r0, (u64)GPUX_RED_CHUNK); /* rows, >= 1 */
        u64 e = (o * len + r0 + g) * inner + i; /* element of (row r0 + g, column i) */
        A acc[NA];
#pragma unroll
        for (int j = 0; j < NA; ++j) acc[j] = K::id();
#pragma unroll 1
        for (unsigned k = 0; k * GPUX_RED_LANES < left; ++k) { /* block-uniform */
          T x[J];
          long long xi[J];
#pragma unroll
          for (int j = 0; j < J; ++j) { /* J loads in flight */
            const unsigned rr = k * GPUX_RED_LANES + G * j + g;
            xi[j] = 0;
            if (colok && rr < left) ld(p, e + (u64)j * step, x[j], xi[j]);
          }
#pragma unroll
          for (int j = 0; j < J; ++j) {
            const unsigned rr = k * GPUX_RED_LANES + G * j + g;
            if (colok && rr < left)
              acc[j % NA] = K::comb(acc[j % NA], K::conv(x[j], (long long)(r0 + rr), xi[j], m));
          }
          e += (u64)J * step;
        }
        /* s = 128, 64, 32, 16: lane g + 16j with lane g + 16(j + s/16) */
        sh[g][tx] = fold_accs<K>(acc);
        __syncthreads();
        /* warp w takes columns 2w, 2w + 1, a half-warp each; lane gg holds a_gg */
        const unsigned q = threadIdx.x & 31, gg = q % G;
        const unsigned col = 2 * (threadIdx.x >> 5) + q / G;
        const A a = warp_tree<K, G>(sh[gg][col]); /* gg < s reads gg + s: same half */
        const u64 ic = cb * C + col;
        if (gg == 0 && ic < inner) put(p, (o * nparts + c) * inner + ic, a, nparts == 1);
        __syncthreads(); /* sh is reused */
      }
}
static_assert(GPUX_CU_RC_COLS * GPUX_CU_RC_GROUPS == GPUX_RED_LANES, "one lane tree per block");
static_assert(GPUX_RED_LANES / 32 * 2 == GPUX_CU_RC_COLS, "two columns per warp");

/* RV_CVEC: red_c_block with two adjacent columns per thread (8-byte vector loads of 4-byte
 * elements; the host asks for it, the kernel checks that inner is even and the pointer
 * 8-byte aligned, else it runs red_c_block): 32 columns x 16 groups, so a half-warp reads
 * 128 bytes of one row per load and a thread keeps 16 vectors in flight. Each column folds
 * exactly as in red_c_block (lanes g + 16j of thread g, acc[j], same tree). */
#define GPUX_CU_RCV_COLS 32
template <class T> struct vec2_of;
template <> struct vec2_of<float> { typedef float2 type; };
template <> struct vec2_of<int> { typedef int2 type; };
/* The kinds and dtypes of GPUX_REDUCE_CV_KINDS and GPUX_REDUCE_CV_DT (4-byte inputs). min,
 * max, amax, any, all and cnt are left out: with two columns per thread their kernels
 * spilled a few bytes (ptxas 12.x, sm_80 .. sm_90). */
template <class K> struct cv_kind { static constexpr bool value = false; };
#define GPUX_CU_CV_KIND(kind)                                                           \
  template <class D> struct cv_kind<rk_##kind<D>> { static constexpr bool value = true; };
GPUX_REDUCE_CV_KINDS(GPUX_CU_CV_KIND)
#undef GPUX_CU_CV_KIND
template <class D> struct cv_dt { static constexpr bool value = false; };
#define GPUX_CU_CV_DT(unused, dt)                                                       \
  template <> struct cv_dt<GPUX_CU_D(dt)> { static constexpr bool value = true; };
GPUX_REDUCE_CV_DT(GPUX_CU_CV_DT, _)
#undef GPUX_CU_CV_DT
template <class K> struct cvec_ok {
  static constexpr bool value = cv_kind<K>::value && cv_dt<typename K::Dt>::value;
};
template <class K> __device__ __forceinline__ void red_c_vec(const rargs<K> &p) {
  typedef typename K::T T;
  typedef typename K::A A;
  typedef typename vec2_of<T>::type V;
  constexpr int C = GPUX_CU_RCV_COLS, P = C / 2, G = GPUX_RED_LANES / P;
  constexpr int J = GPUX_RED_LANES / G, NA = nacc<K, J>::value;
  static_assert(G == GPUX_CU_RC_GROUPS, "16 groups, 16 lanes each");
  __shared__ A sh[G][C + 1];
  const unsigned tx = threadIdx.x % P, g = threadIdx.x / P;
  const u64 len = p.len, inner = p.inner;
  const u64 nparts = (len + GPUX_RED_CHUNK - 1) / GPUX_RED_CHUNK;
  const u64 ncb = (inner + C - 1) / C;
  const u64 step = (u64)G * inner;
  for (u64 o = blockIdx.z; o < p.outer; o += gridDim.z)
    for (u64 c = blockIdx.y; c < nparts; c += gridDim.y)
      for (u64 cb = blockIdx.x; cb < ncb; cb += gridDim.x) {
        const u64 i = cb * C + 2 * tx; /* columns i, i + 1 (inner even: both or neither) */
        const bool colok = i < inner;
        const typename K::C m0 = colok ? mean_of(p, o * inner + i) : typename K::C();
        const typename K::C m1 = colok ? mean_of(p, o * inner + i + 1) : typename K::C();
        const u64 r0 = c * GPUX_RED_CHUNK;
        const unsigned left = (unsigned)min(len - r0, (u64)GPUX_RED_CHUNK);
        const T *xp = p.in + ((o * len + r0 + g) * inner + i);
        A acc0[NA], acc1[NA];
#pragma unroll
        for (int j = 0; j < NA; ++j) {
          acc0[j] = K::id();
          acc1[j] = K::id();
        }
#pragma unroll 1
        for (unsigned k = 0; k * GPUX_RED_LANES < left; ++k) { /* block-uniform */
          V x[J];
#pragma unroll
          for (int j = 0; j < J; ++j) {
            const unsigned rr = k * GPUX_RED_LANES + G * j + g;
            if (colok && rr < left) x[j] = *reinterpret_cast<const V *>(xp + (u64)j * step);
          }
#pragma unroll
          for (int j = 0; j < J; ++j) {
            const unsigned rr = k * GPUX_RED_LANES + G * j + g;
            if (colok && rr < left) {
              const long long r = (long long)(r0 + rr);
              acc0[j % NA] = K::comb(acc0[j % NA], K::conv(x[j].x, r, 0, m0));
              acc1[j % NA] = K::comb(acc1[j % NA], K::conv(x[j].y, r, 0, m1));
            }
          }
          xp += (u64)J * step;
        }
        /* s = 128, 64, 32, 16 in registers, then s = 8 .. 1 per column in a half-warp */
        sh[g][2 * tx] = fold_accs<K>(acc0);
        sh[g][2 * tx + 1] = fold_accs<K>(acc1);
        __syncthreads();
        const unsigned gg = threadIdx.x % G, h = threadIdx.x / G; /* 16 half-warps */
#pragma unroll
        for (int cc = 0; cc < C / 16; ++cc) {
          const unsigned col = h + 16 * cc;
          const A a = warp_tree<K, G>(sh[gg][col]);
          const u64 ic = cb * C + col;
          if (gg == 0 && ic < inner) put(p, (o * nparts + c) * inner + ic, a, nparts == 1);
        }
        __syncthreads(); /* sh is reused */
      }
}
static_assert(GPUX_RED_LANES / GPUX_CU_RC_GROUPS == 16, "16 half-warps");

/* RV_CASYNC (sm_80+, the kinds of cvec_ok, inner % 4 == 0, input 16-byte aligned; else the
 * host's other choices): 32 columns x 8 lane groups per block, rows streamed through shared
 * memory by cp.async in stages of 64 rows (8 KB), CA_STAGES - 1 stages in flight, so a
 * block keeps 32 KB of loads going without holding them in registers. Thread (g, i) owns
 * lanes l = g + 8j (j = 0..31) of column i: stage st holds chunk rows 64 st + g + 8t
 * (t = 0..7), i.e. lanes 64 (st % 4) + g + 8t, acc[8 (st % 4) + t], in increasing k. Levels
 * s = 128 .. 8 pair accumulators of one thread (tree_regs), s = 4, 2, 1 the 8 groups of a
 * column, through shared memory: the canonical order as in red_c_block. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define GPUX_CU_CASYNC 1
#define GPUX_CU_CA_COLS 32
#define GPUX_CU_CA_ROWS 64
#define GPUX_CU_CA_STAGES 5
template <class K> __device__ __forceinline__ void red_c_async(const rargs<K> &p) {
  typedef typename K::T T;
  typedef typename K::A A;
  constexpr int C = GPUX_CU_CA_COLS, R = GPUX_CU_CA_ROWS, NS = GPUX_CU_CA_STAGES;
  constexpr int G = GPUX_RED_LANES / C, J = GPUX_RED_LANES / G, NA = nacc<K, J>::value;
  constexpr int SPK = GPUX_RED_LANES / R; /* stages per 256 rows */
  static_assert(G == 8 && J == 32 && SPK == 4 && R % G == 0, "the lane shape above");
  __shared__ __align__(16) T buf[NS][R][C];
  __shared__ A sh[G][C + 1];
  const unsigned tx = threadIdx.x % C, g = threadIdx.x / C;
  const unsigned cr = threadIdx.x / (C / 4), cq = threadIdx.x % (C / 4); /* copies: 4 columns */
  constexpr unsigned CROWS = GPUX_RED_LANES / (C / 4);                     /* 32 rows per pass */
  const u64 len = p.len, inner = p.inner;
  const u64 nparts = (len + GPUX_RED_CHUNK - 1) / GPUX_RED_CHUNK;
  const u64 ncb = (inner + C - 1) / C;
  for (u64 o = blockIdx.z; o < p.outer; o += gridDim.z)
    for (u64 c = blockIdx.y; c < nparts; c += gridDim.y)
      for (u64 cb = blockIdx.x; cb < ncb; cb += gridDim.x) {
        const u64 i = cb * C + tx;
        const bool colok = i < inner;
        const typename K::C m = colok ? mean_of(p, o * inner + i) : typename K::C();
        const u64 r0 = c * GPUX_RED_CHUNK;
        const unsigned left = (unsigned)min(len - r0, (u64)GPUX_RED_CHUNK);
        const unsigned nst = (left + R - 1) / R;
        const bool cpok = cb * C + 4 * cq < inner; /* inner % 4 == 0: all 4 columns or none */
        const T *src = p.in + ((o * len + r0) * inner + cb * C + 4 * cq);
        auto issue = [&](unsigned st) {
          if (st < nst) {
#pragma unroll
            for (unsigned h = 0; h < R / CROWS; ++h) {
              const unsigned rr = st * R + cr + CROWS * h;
              if (cpok && rr < left)
                cp_async16(&buf[st % NS][cr + CROWS * h][4 * cq], src + (u64)rr * inner);
            }
          }
          asm volatile("cp.async.commit_group;" ::: "memory"); /* empty groups keep count */
        };
#pragma unroll
        for (unsigned st = 0; st < NS - 1; ++st) issue(st);
        A acc[NA];
#pragma unroll
        for (int j = 0; j < NA; ++j) acc[j] = K::id();
#pragma unroll 1
        for (unsigned k = 0; k * SPK < nst; ++k) { /* block-uniform */
#pragma unroll
          for (unsigned q = 0; q < SPK; ++q) {
            const unsigned st = k * SPK + q;
            asm volatile("cp.async.wait_group %0;" ::"n"(NS - 2) : "memory");
            __syncthreads(); /* stage st visible to all; stage st - 1 read by all */
            issue(st + NS - 1);
            if (st < nst) {
              const T(*b)[C] = buf[st % NS];
#pragma unroll
              for (unsigned t = 0; t < R / G; ++t) {
                const unsigned rr = st * R + g + G * t;
                if (colok && rr < left) {
                  const int j = (int)(q * (R / G) + t) % NA;
                  acc[j] = K::comb(acc[j], K::conv(b[g + G * t][tx], (long long)(r0 + rr), 0, m));
                }
              }
            }
          }
        }
        sh[g][tx] = fold_accs<K>(acc); /* s = 128 .. 8 */
        __syncthreads();
        if (g == 0) {
          A v[G];
#pragma unroll
          for (int gg = 0; gg < G; ++gg) v[gg] = sh[gg][tx];
          if (colok) put(p, (o * nparts + c) * inner + i, tree_regs<K>(v), nparts == 1);
        }
        __syncthreads(); /* sh and buf are reused */
      }
}
#else
#define GPUX_CU_CASYNC 0
#endif

template <class K> __device__ __forceinline__ void red_r(const rargs<K> &p, int variant) {
  if (variant == RV_THREAD && p.len <= GPUX_CU_RED_THREAD_MAX) red_r_thread(p);
  else if (variant == RV_WARP && p.len <= GPUX_RED_CHUNK) red_r_warp(p);
  else red_r_block(p);
}
template <class K> __device__ __forceinline__ void red_c(const rargs<K> &p, int variant) {
  if (variant == RV_THREAD && p.len <= GPUX_CU_RED_CTHREAD_MAX) {
    red_c_thread(p);
    return;
  }
  if constexpr (cvec_ok<K>::value) {
#if GPUX_CU_CASYNC
    if constexpr (sizeof(typename K::A) == 4) /* its 40 KB of stages fit beside the others */
      if (variant == RV_CASYNC && (p.inner & 3) == 0 && ((unsigned long long)p.in & 15) == 0) {
        red_c_async(p);
        return;
      }
#endif
    if ((variant == RV_CVEC || variant == RV_CASYNC) && (p.inner & 1) == 0 &&
        ((unsigned long long)p.in & 7) == 0) {
      red_c_vec(p);
      return;
    }
  }
  red_c_block(p);
}

template <class K>
__device__ __forceinline__ rargs<K> make_rargs(typename K::Out *out, long long *out_idx,
                                               const typename K::T *in,
                                               const long long *in_idx,
                                               const typename K::C *aux, long long outer,
                                               long long len, long long inner, int post,
                                               double div) {
  rargs<K> p;
  p.out = out;
  p.out_idx = out_idx;
  p.in = in;
  p.in_idx = in_idx;
  p.aux = aux;
  p.outer = (u64)outer;
  p.len = (u64)len;
  p.inner = (u64)inner;
  p.post = post;
  p.div = div;
  return p;
}

}  // namespace gpux_cu

/* ---- kernels -------------------------------------------------------------------------- */
#define GPUX_CU_RKERNEL extern "C" __global__ void __launch_bounds__(GPUX_RED_LANES)
#define GPUX_CU_RK(kind, dt) gpux_cu::rk_##kind<GPUX_CU_D(dt)>
#define GPUX_CU_RED_PARAMS(kind, dt)                                                    \
  GPUX_CU_RK(kind, dt)::Out *out, long long *out_idx,                                   \
      const GPUX_CU_T(dt) *__restrict__ in, const long long *__restrict__ in_idx,       \
      const GPUX_CU_RK(kind, dt)::C *__restrict__ aux, long long outer, long long len,  \
      long long inner, int variant, int post, double post_div
#define GPUX_CU_RED_KERNELS(kind, dt)                                                   \
  GPUX_CU_RKERNEL gpux_reduce_##kind##_##dt##_r(GPUX_CU_RED_PARAMS(kind, dt)) {         \
    gpux_cu::red_r(gpux_cu::make_rargs<GPUX_CU_RK(kind, dt)>(out, out_idx, in, in_idx,  \
                                                             aux, outer, len, inner,    \
                                                             post, post_div),           \
                   variant);                                                            \
  }                                                                                     \
  GPUX_CU_RKERNEL gpux_reduce_##kind##_##dt##_c(GPUX_CU_RED_PARAMS(kind, dt)) {         \
    gpux_cu::red_c(gpux_cu::make_rargs<GPUX_CU_RK(kind, dt)>(out, out_idx, in, in_idx,  \
                                                             aux, outer, len, inner,    \
                                                             post, post_div),           \
                   variant);                                                            \
  }
#define GPUX_CU_RED_KIND(kind, id, dts, acc) dts(GPUX_CU_RED_KERNELS, kind)
GPUX_REDUCE_KINDS(GPUX_CU_RED_KIND)
