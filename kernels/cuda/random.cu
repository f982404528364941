/* gpux CUDA kernels, random family: one kernel per (kind, dtype) of GPUX_RANDOM_KINDS
 * (kernels/common/gpux_random.h), named gpux_random_<kind>_<dt>:
 *   gpux_random_<kind>_<dt>(T *out, gpux_rparams p)      out already offset, contiguous
 * Thread t of the grid takes relative blocks j = t, t + stride, ... < p.nblocks (the host
 * launches about one wave of thread blocks): the four words of block j (one Philox block
 * when the draw starts on a block boundary, else two), then the VPB values
 * gpux_r_blk_<kind>_<dt> makes of them (rdraw). Every value comes from gpux_random.h,
 * which the host runs too: this file only distributes the blocks. Built with -fmad=false (and
 * the header uses the _rn intrinsics), so nothing is contracted into an FMA. */
#include "gpux_cuda.cuh"
#include "gpux_random.h"

#define GPUX_CU_RTHREADS 256 /* GPUX_CUDA_RANDOM_THREADS in cuda_random.c */
/* resident thread blocks per SM the register budget is set for (__launch_bounds__):
 * 6 (40 registers) where that needs no spills, else 5 */
#define GPUX_CU_RMB_uniform_f32 6
#define GPUX_CU_RMB_uniform_f64 6
#define GPUX_CU_RMB_normal_f32 6 /* the generic kernel's; the ziggurat's is below */
#define GPUX_CU_RMB_normal_f64 5
#define GPUX_CU_RMB_integers_i32 5
#define GPUX_CU_RMB_integers_i64 5
#define GPUX_CU_RMB_integers_u64 5
#define GPUX_CU_RMB_integers_u32 5
#define GPUX_CU_RMB_integers_i16 5
#define GPUX_CU_RMB_integers_u16 5
#define GPUX_CU_RMB_integers_i8 5
#define GPUX_CU_RMB_integers_u8 5
#define GPUX_CU_RMB_bernoulli_b8 6
/* float32 normals (zdraw): 4 (64 registers), not the 6 their shared memory allows (H200,
 * 2^28 values: 2.98 TB/s against 2.94-2.96 with 5 and 48 registers) */
#define GPUX_CU_RMB_zig 4
/* dynamic chunks (zloopd) shrink in the draw's last units: a chunk takes at most
 * 1 / (GPUX_CU_ZIG_GUIDE * grid) of the units left, so that the thread blocks finish together */
#define GPUX_CU_ZIG_GUIDE 2u

namespace gpux_cu {

/* the vector of VPB values of a block */
template <class T, int V> struct rvec;
template <> struct rvec<float, 4> { typedef float4 type; };
template <> struct rvec<double, 2> { typedef double2 type; };
template <> struct rvec<int, 2> { typedef int2 type; };
template <> struct rvec<long long, 1> { typedef long long type; };
template <> struct rvec<unsigned char, 4> { typedef uchar4 type; };
/* integers of up to 32 bits draw two values per block, 64-bit ones one (GPUX_R_WPV) */
template <> struct rvec<signed char, 2> { typedef char2 type; };
template <> struct rvec<unsigned char, 2> { typedef uchar2 type; };
template <> struct rvec<short, 2> { typedef short2 type; };
template <> struct rvec<unsigned short, 2> { typedef ushort2 type; };
template <> struct rvec<unsigned int, 2> { typedef uint2 type; };
template <> struct rvec<unsigned long long, 1> { typedef unsigned long long type; };

/* The draw, for K a tag with T, V (values per block) and blk = gpux_r_blk_<kind>_<dt>.
 * Blocks whose V values are all written go through one of two loops without a branch in
 * them (aligned draws: one Philox block each; others: two), with one vector store each
 * (streaming: the output is not read again here); then the last, partial block, if any,
 * and every block when out is not aligned for vectors, with bounded scalar stores. */
template <class K>
__device__ __forceinline__ void rdraw(typename K::T *out, const gpux_rparams &p) {
  typedef typename K::T T;
  typedef typename rvec<T, K::V>::type VT;
  const int V = K::V;
  const u64 stride = (u64)gridDim.x * blockDim.x;
  const u64 t0 = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  const u64 B0 = p.pos >> 2;
  const int sh = (int)(p.pos & 3u);
  const bool vec = ((unsigned long long)out & (sizeof(T) * V - 1)) == 0;
  const u64 nfull = vec ? p.n / (u64)V : 0;
  T v[V];
  if (sh == 0) {
    for (u64 j = t0; j < nfull; j += stride) {
      K::blk(v, gpux_r_block(B0 + j, p.stream, p.seed), p.pos + 4u * j, &p);
      VT x;
      memcpy(&x, v, sizeof x);
      __stcs(reinterpret_cast<VT *>(out + j * V), x);
    }
  } else {
    for (u64 j = t0; j < nfull; j += stride) {
      K::blk(v, gpux_r_words4(B0 + j, sh, p.stream, p.seed), p.pos + 4u * j, &p);
      VT x;
      memcpy(&x, v, sizeof x);
      __stcs(reinterpret_cast<VT *>(out + j * V), x);
    }
  }
  for (u64 j = nfull + t0; j < p.nblocks; j += stride) {
    K::blk(v, gpux_r_words4(B0 + j, sh, p.stream, p.seed), p.pos + 4u * j, &p);
#pragma unroll
    for (int k = 0; k < V; ++k)
      if (j * V + (u64)k < p.n) out[j * V + k] = v[k];
  }
}

/* ---- float32 normals: the ziggurat (gpux_r_zig_* of gpux_random.h) ----------------------
 * The aligned loop takes each value's fast path only (a gather of (KF(k_i), wl_i) from the
 * table's copy in shared memory, a funnel shift, the sign, one fma, a compare:
 * gpux_r_zig_fastf) and stores the whole float4; the blocks' Philox skips a multiply where
 * a thread's rounds share the counter's high word (gpux_r_block_hk). A Philox block with
 * one of the about 0.12% of values that need gpux_r_zig_slow goes to a queue in shared
 * memory (the block's index only: the branch to it is short, and leaves no words live);
 * after each chunk of `period` rounds the thread block checks whether
 * some entry landed at or past `threshold`; if so all threads resolve the queue together
 * (zfix: each entry's words again, then its slow values), writing after the barrier that
 * orders them after the float4 stores. A block past the capacity is fixed at once by its
 * thread (after its own store).
 * The settings come in p.pc (GPUX_R_ZIG_TUNE); period 0 fixes every such block inline.
 * Rounds: a static split (zloop), or for large draws chunks taken from a counter (zloopd,
 * GPUX_R_ZIG_DYN_BLOCKS). Standard normals (GPUX_R_STD_F32) have their own kernel without
 * the fma: a second loop in the same kernel made ptxas spill in both. Where a value is
 * computed never changes its bits. */
struct zqueue {
  unsigned n;
  u64 j[GPUX_R_ZQCAP]; /* relative Philox blocks with a value the fast path did not take */
};

/* The table's copy, (KF(k_i), wl_i) (GPUX_R_ZIG_KF, GPUX_R_ZIG_WL); 16-byte aligned for the
 * copy's vector stores */
__shared__ __align__(16) uint2 zt_s[GPUX_R_ZIG_N];
/* KF(k_i) of word a's layer, for the slow branch: the address computed inside the asm, which
 * keeps the compiler from hoisting it (and its registers) into the fast path; zb, the
 * table's shared address, is opaque for the same reason */
__device__ __forceinline__ unsigned zk(unsigned zb, unsigned a) {
  unsigned k;
  asm volatile("{\n\t.reg .u32 t;\n\tshl.b32 t, %1, 3;\n\tand.b32 t, t, 0x7ff8;\n\tadd.u32 t, t, %2;\n\t"
               "ld.shared.u32 %0, [t];\n\t}" : "=r"(k) : "r"(a), "r"(zb));
  return k;
}

/* Relative block j's values that the fast path did not take (its float4, stored, holds them
 * wrong): its words again, then those values one by one, each lane's first together with the
 * other lanes' (gpux_r_normal_f32 redoes the fast test and goes on to the slow path) */
__device__ __forceinline__ void zfix(float *out, u64 j, const gpux_rparams &p, unsigned zb) {
  const gpux_r4 w = gpux_r_words4((p.pos >> 2) + j, (int)(p.pos & 3u), p.stream, p.seed);
  unsigned slow = (unsigned)(GPUX_R_ZIG_FB(w.x) >= zk(zb, w.x)) |
                  (unsigned)(GPUX_R_ZIG_FB(w.y) >= zk(zb, w.y)) << 1 |
                  (unsigned)(GPUX_R_ZIG_FB(w.z) >= zk(zb, w.z)) << 2 |
                  (unsigned)(GPUX_R_ZIG_FB(w.w) >= zk(zb, w.w)) << 3;
  while (slow) { /* no array indexed at run time (it would live in local memory) */
    const int k = __ffs(slow) - 1;
    slow &= slow - 1u;
    const unsigned a = k == 0 ? w.x : k == 1 ? w.y : k == 2 ? w.z : w.w;
    const u64 i = 4 * j + (u64)k;
    out[i] = gpux_r_normal_f32(a, p.pos + i, &p);
  }
}

/* all threads: resolve the queue's first n entries (n uniform), each thread its share */
__device__ __forceinline__ void zflush(float *out, const zqueue &q, unsigned n,
                                       const gpux_rparams &p, unsigned zb) {
  for (unsigned e = threadIdx.x; e < n; e += GPUX_CU_RTHREADS) zfix(out, q.j[e], p, zb);
}

/* The loops' settings: the draw's mean and std, the queue's (p.pc, GPUX_R_ZIG_TUNE), and zb,
 * the table's shared address (opaque: see zk) */
struct zset {
  float mean, sd;
  unsigned period, thr, cap, zb;
};
__device__ __forceinline__ zset zsettings(const gpux_rparams &p) {
  zset z;
  z.mean = __uint_as_float((unsigned)p.pa);
  z.sd = __uint_as_float((unsigned)p.pb);
  z.period = (unsigned)p.pc & 255u;
  z.thr = (unsigned)(p.pc >> 8) & 4095u;
  z.cap = (unsigned)(p.pc >> 20) & 4095u;
  z.zb = (unsigned)__cvta_generic_to_shared(zt_s);
  asm volatile("" : "+r"(z.zb));
  return z;
}

/* all threads, after a chunk (want: this thread's entry reached the threshold): resolve the
 * queue when some thread wants it (block-uniform) */
__device__ __forceinline__ void zcheck(float *out, zqueue &q, const zset &z,
                                       const gpux_rparams &p, bool want) {
  if (__syncthreads_or(want)) {
    zflush(out, q, min(q.n, z.cap), p, z.zb);
    __syncthreads(); /* every thread has read q.n and its entries */
    if (threadIdx.x == 0) q.n = 0;
    __syncthreads();
  }
}

/* all threads, after the last chunk: the queue's rest */
__device__ __forceinline__ void zlast(float *out, zqueue &q, const zset &z,
                                      const gpux_rparams &p) {
  __syncthreads(); /* the last stores and entries */
  zflush(out, q, min(q.n, z.cap), p, z.zb);
  __syncthreads();
  if (threadIdx.x == 0) q.n = 0;
  __syncthreads();
}

/* Block j (Philox block ctr = pos / 4 + j, its words w, output o = out + 4j): its values by
 * the fast path, stored as one float4, its slow values queued or, past the capacity,
 * resolved here after the store. Sets *want when an entry reached the threshold (only
 * there, so that the fast path spends no instruction on it). */
template <bool Std>
__device__ __forceinline__ void zfast(float *out, float *o, u64 ctr, const gpux_r4 w,
                                      const gpux_rparams &p, zqueue &q, const zset &z,
                                      bool *want) {
  const unsigned a[4] = {w.x, w.y, w.z, w.w};
  float v[4];
  bool slow = false;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const uint2 e = zt_s[GPUX_R_ZIG_LAYER(a[k])];
    float zv;
    slow |= !gpux_r_zig_fastf(GPUX_R_ZIG_FB(a[k]), e.x, GPUX_R_ZIG_SW_WL(a[k], e.y), &zv);
    v[k] = Std ? zv : __fmaf_rn(zv, z.sd, z.mean);
  }
  /* a plain (write-back) store: with __stcs (evict-first) as in rdraw, 2^28 values took 6%
   * longer on the H200 (2.97 against 3.17 TB/s; smaller draws the same) */
  *reinterpret_cast<float4 *>(o) = make_float4(v[0], v[1], v[2], v[3]);
  if (slow) { /* rare */
    const u64 j = ctr - (p.pos >> 2);
    const unsigned s = z.period ? atomicAdd(&q.n, 1u) : z.cap;
    if (s < z.cap) {
      q.j[s] = j;
      if (s + 1 >= z.thr) *want = true;
    } else {
      zfix(out, j, p, z.zb);
    }
  }
}
/* The same with the block's words computed here. The first Philox round's product comes
 * from p.pd (GPUX_R_PRE): ptxas would otherwise redo it from the constant bank in every
 * round. */
template <bool Shifted, bool Std>
__device__ __forceinline__ void zblock(float *out, float *o, u64 ctr, const gpux_rparams &p,
                                       zqueue &q, const zset &z, bool *want) {
  const gpux_r4 w = Shifted ? gpux_r_words4_p(ctr, (int)(p.pos & 3u), p.pd, p.stream, p.seed)
                            : gpux_r_block_p(ctr, p.pd, p.stream, p.seed);
  zfast<Std>(out, o, ctr, w, p, q, z, want);
}

/* A chunk's rounds: blocks ctr + r * st, outputs o + 4 r st, for r < nu; those with r < nf
 * all exist (no bound test), the others exist while below j1. Four rounds a loop trip (the
 * loop's own instructions shared; H200, 2^28 values: two a trip were 0.5-1% faster than one,
 * four 0.5% more). Where the draw starts on a block boundary and the rounds r < nf share
 * the counter's high word (all but a chunk in 2^32 / st), their Philox blocks come from
 * gpux_r_block_hk. */
template <bool Shifted, bool Std>
__device__ __forceinline__ void zrounds(float *out, float *o, u64 ctr, u64 st, unsigned nf,
                                        unsigned nu, u64 j1, const gpux_rparams &p, zqueue &q,
                                        const zset &z, bool *want) {
  unsigned r = 0;
  if (!Shifted && nf > 0 && (ctr >> 32) == ((ctr + (u64)(nf - 1) * st) >> 32)) {
    const gpux_rkeys ks = gpux_r_keys(p.seed);
    const gpux_rhk h = gpux_r_hk((unsigned)(ctr >> 32), p.pd, p.stream, &ks);
    const u64 c0 = ctr, chi = ctr & 0xffffffff00000000ull;
    const unsigned s1 = (unsigned)st; /* exact where nf > 1: (nf - 1) st < 2^32 */
    unsigned lo = (unsigned)ctr;
    for (; r + 3 < nf; r += 4, lo += 4 * s1, o += 16 * st) {
      zfast<Std>(out, o, chi | lo, gpux_r_block_hk(lo, &h, &ks), p, q, z, want);
      zfast<Std>(out, o + 4 * st, chi | (lo + s1), gpux_r_block_hk(lo + s1, &h, &ks), p, q, z,
                 want);
      zfast<Std>(out, o + 8 * st, chi | (lo + 2 * s1), gpux_r_block_hk(lo + 2 * s1, &h, &ks), p,
                 q, z, want);
      zfast<Std>(out, o + 12 * st, chi | (lo + 3 * s1), gpux_r_block_hk(lo + 3 * s1, &h, &ks),
                 p, q, z, want);
    }
    for (; r < nf; ++r, lo += s1, o += 4 * st)
      zfast<Std>(out, o, chi | lo, gpux_r_block_hk(lo, &h, &ks), p, q, z, want);
    ctr = c0 + (u64)r * st;
  }
  for (; r + 3 < nf; r += 4, ctr += 4 * st, o += 16 * st) {
    zblock<Shifted, Std>(out, o, ctr, p, q, z, want);
    zblock<Shifted, Std>(out, o + 4 * st, ctr + st, p, q, z, want);
    zblock<Shifted, Std>(out, o + 8 * st, ctr + 2 * st, p, q, z, want);
    zblock<Shifted, Std>(out, o + 12 * st, ctr + 3 * st, p, q, z, want);
  }
  for (; r < nu; ++r, ctr += st, o += 4 * st)
    if (r < nf || ctr - (p.pos >> 2) < j1) zblock<Shifted, Std>(out, o, ctr, p, q, z, want);
}

/* Blocks j < j1, stored as float4. Thread block b's round r is blocks b * 256 + r * stride
 * + (0 .. 255); every thread runs every round (the rounds where all 256 blocks exist without a
 * bound test), a check after each `period` rounds, and a last flush. */
template <bool Shifted, bool Std>
__device__ __forceinline__ void zloop(float *out, const gpux_rparams &p, zqueue &q, u64 j1) {
  const zset z = zsettings(p);
  const u64 stride = (u64)gridDim.x * GPUX_CU_RTHREADS;
  const u64 base = (u64)blockIdx.x * GPUX_CU_RTHREADS;
  /* rounds, and the first round with blocks past j1: below 2^32 (cuda_random.c checks) */
  const unsigned rounds = j1 > base ? (unsigned)((j1 - base + stride - 1) / stride) : 0u;
  const unsigned rfull = j1 >= base + GPUX_CU_RTHREADS
                             ? (unsigned)((j1 - base - GPUX_CU_RTHREADS) / stride + 1) : 0u;
  const u64 j = base + threadIdx.x;
  /* the counter and the output advance with j (each add is cheaper than the index maths) */
  u64 ctr = (p.pos >> 2) + j;
  float *o = out + 4 * j;
  unsigned r = 0;
  while (r < rounds) {
    const unsigned rend = z.period && rounds - r > z.period ? r + z.period : rounds;
    const unsigned rf = min(rend, rfull);
    bool want = false;
    zrounds<Shifted, Std>(out, o, ctr, stride, rf > r ? rf - r : 0u, rend - r, j1, p, q, z,
                          &want);
    ctr += (rend - r) * stride;
    o += 4 * (rend - r) * stride;
    r = rend;
    if (z.period) zcheck(out, q, z, p, want);
  }
  if (z.period) zlast(out, q, z, p);
}

/* The same blocks j < j1, in units of 256 (unit u: blocks 256u + thread) taken by chunks of
 * up to `period` units from work[0] (GPUX_R_ZIG_DYN_BLOCKS), each a chunk ahead so that the
 * atomic's round trip overlaps the work; a chunk takes 1 / (GPUX_CU_ZIG_GUIDE * grid) of the
 * units left when that is less, so the last chunks are short. s_u[0] holds the first chunk's
 * start and s_u[2] its size (zdraw takes it); work[1] counts the blocks done, and the last
 * one zeroes both for the next launch (on the same stream). Needs period > 0, units and the
 * chunks taken below 2^32 (cuda_random.c checks). */
__device__ __forceinline__ unsigned zchunk(unsigned period, unsigned left) {
  return max(1u, min(period, left / (gridDim.x * GPUX_CU_ZIG_GUIDE)));
}
/* atomicAdd(work, n) where take, without a branch: in the chunk loop the result is waited for
 * where it is used, a chunk later. Set in a branch, nvcc copied it at once, which held thread
 * 0's warp for the atomic's round trip at every chunk while the other warps ran on to the
 * chunk's barrier. Undefined where !take. */
__device__ __forceinline__ unsigned zfetch(unsigned *work, unsigned n, bool take) {
  unsigned r;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %2, 0;\n\t@p atom.global.add.u32 %0, [%1], %3;\n\t}"
               : "=r"(r) : "l"(work), "r"((unsigned)take), "r"(n) : "memory");
  return r;
}
template <bool Shifted, bool Std>
__device__ __forceinline__ void zloopd(float *out, const gpux_rparams &p, zqueue &q, u64 j1,
                                       unsigned *work, unsigned *s_u) {
  const zset z = zsettings(p);
  const unsigned units = (unsigned)((j1 + GPUX_CU_RTHREADS - 1) / GPUX_CU_RTHREADS);
  const unsigned ufull = (unsigned)(j1 / GPUX_CU_RTHREADS);
  /* chunk c's start and size go through s_u[c & 1], s_u[2 + (c & 1)]: written before chunk
   * c's check barrier, last read after chunk c - 2's; `last`, thread 0's latest start */
  unsigned u0 = s_u[0], sz = s_u[2], last = u0;
  for (unsigned c = 1; u0 < units; ++c) {
    unsigned nsz = 0;
    if (threadIdx.x == 0) nsz = zchunk(z.period, units > last ? units - last : 0u);
    const unsigned nxt = zfetch(work, nsz, threadIdx.x == 0);
    const unsigned nf = ufull > u0 ? min(sz, ufull - u0) : 0u;
    const unsigned nu = min(sz, units - u0);
    const u64 j = (u64)u0 * GPUX_CU_RTHREADS + threadIdx.x;
    bool want = false;
    zrounds<Shifted, Std>(out, out + 4 * j, (p.pos >> 2) + j, GPUX_CU_RTHREADS, nf, nu, j1, p,
                          q, z, &want);
    if (threadIdx.x == 0) {
      s_u[c & 1] = nxt;
      s_u[2 + (c & 1)] = nsz;
    }
    zcheck(out, q, z, p, want);
    last = nxt;
    u0 = s_u[c & 1];
    sz = s_u[2 + (c & 1)];
  }
  zlast(out, q, z, p);
  if (threadIdx.x == 0) {
    __threadfence(); /* this block's takes before its count */
    if (atomicAdd(work + 1, 1u) == gridDim.x - 1) { /* every block has taken its last */
      atomicExch(work, 0u);
      atomicExch(work + 1, 0u);
    }
  }
}

/* float32 normals: the table's copy, the queue, the blocks stored as float4 (all of them
 * but the partial last when out is 16-byte aligned), then the rest with scalar stores. Shared
 * memory: 32 KB of table and 2 KB of queue a thread block. work: the dynamic chunks'
 * counter, or null for the static split. */
template <bool Std>
__device__ __forceinline__ void zdraw(float *out, const gpux_rparams &p, unsigned *work) {
  __shared__ unsigned s_u[4];
  __shared__ zqueue q;
  const bool vec = ((unsigned long long)out & 15u) == 0;
  const u64 nfull = vec ? p.n / 4u : 0;
  /* the dynamic loop's first chunk, taken before the copy so that the two overlap */
  unsigned fsz = 0;
  if (work && threadIdx.x == 0)
    fsz = zchunk((unsigned)p.pc & 255u,
                 (unsigned)((nfull + GPUX_CU_RTHREADS - 1) / GPUX_CU_RTHREADS));
  const unsigned first = zfetch(work, fsz, work && threadIdx.x == 0);
  { /* the table's copy: all of a thread's 16-byte loads before its stores */
    static_assert(GPUX_R_ZIG_N % (2 * GPUX_CU_RTHREADS) == 0, "the copy's pairs split evenly");
    constexpr int R = GPUX_R_ZIG_N / (2 * GPUX_CU_RTHREADS);
    const ulonglong2 *t2 = reinterpret_cast<const ulonglong2 *>(gpux_r_zig_tab);
    ulonglong2 e[R];
#pragma unroll
    for (int r = 0; r < R; ++r) e[r] = t2[threadIdx.x + r * GPUX_CU_RTHREADS];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const unsigned k = 2u * (threadIdx.x + r * GPUX_CU_RTHREADS);
      reinterpret_cast<uint4 *>(zt_s)[k / 2] =
          make_uint4(GPUX_R_ZIG_KF((unsigned)e[r].x), GPUX_R_ZIG_WL(k, e[r].x),
                     GPUX_R_ZIG_KF((unsigned)e[r].y), GPUX_R_ZIG_WL(k + 1, e[r].y));
    }
  }
  if (threadIdx.x == 0) {
    q.n = 0;
    s_u[0] = first;
    s_u[2] = fsz;
  }
  __syncthreads();
  const bool sh0 = (p.pos & 3u) == 0;
  if (work) {
    if (sh0) zloopd<false, Std>(out, p, q, nfull, work, s_u);
    else zloopd<true, Std>(out, p, q, nfull, work, s_u);
  } else {
    if (sh0) zloop<false, Std>(out, p, q, nfull);
    else zloop<true, Std>(out, p, q, nfull);
  }
  /* the partial last block, and every block when out is not aligned: scalar stores, the slow
   * path inline (at most one block per thread in aligned draws) */
  const u64 stride = (u64)gridDim.x * GPUX_CU_RTHREADS;
  for (u64 j = nfull + (u64)blockIdx.x * GPUX_CU_RTHREADS + threadIdx.x; j < p.nblocks; j += stride) {
    float v[4];
    gpux_r_blk_normal_f32(v, gpux_r_words4((p.pos >> 2) + j, (int)(p.pos & 3u), p.stream, p.seed),
                          p.pos + 4u * j, &p);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (j * 4 + (u64)k < p.n) out[j * 4 + k] = v[k];
  }
}

}  // namespace gpux_cu

#define GPUX_CU_RVPB(kind, dt) (4 / GPUX_R_WPV(GPUX_RKID_##kind, GPUX_KDT_##dt))
#define GPUX_CU_RANDOM_KERNEL(kind, dt)                                                    \
  namespace gpux_cu {                                                                      \
  struct rk_##kind##_##dt {                                                                \
    typedef GPUX_CU_T(dt) T;                                                               \
    static constexpr int V = GPUX_CU_RVPB(kind, dt);                                       \
    static __device__ __forceinline__ void blk(T *v, gpux_r4 w, u64 g0,                    \
                                               const gpux_rparams *p) {                    \
      gpux_r_blk_##kind##_##dt(v, w, g0, p);                                               \
    }                                                                                      \
  };                                                                                       \
  }                                                                                        \
  extern "C" __global__ void __launch_bounds__(GPUX_CU_RTHREADS, GPUX_CU_RMB_##kind##_##dt)                         \
      gpux_random_##kind##_##dt(GPUX_CU_T(dt) * out, gpux_rparams p) {                     \
    gpux_cu::rdraw<gpux_cu::rk_##kind##_##dt>(out, p);                                     \
  }
/* float32 normals: the ziggurat's loop (zdraw) instead of rdraw; the standard normal's own
 * kernel, gpux_random_normal_f32_std (cuda_random.c picks) */
#define GPUX_CU_RANDOM_KERNEL_normal_f32                                                   \
  extern "C" __global__ void __launch_bounds__(GPUX_CU_RTHREADS, GPUX_CU_RMB_zig)          \
      gpux_random_normal_f32(float *out, gpux_rparams p, unsigned *work) {                 \
    gpux_cu::zdraw<false>(out, p, work);                                                   \
  }                                                                                        \
  extern "C" __global__ void __launch_bounds__(GPUX_CU_RTHREADS, GPUX_CU_RMB_zig)          \
      gpux_random_normal_f32_std(float *out, gpux_rparams p, unsigned *work) {             \
    gpux_cu::zdraw<true>(out, p, work);                                                    \
  }
#define GPUX_CU_RANDOM_KERNEL_uniform_f32 GPUX_CU_RANDOM_KERNEL(uniform, f32)
#define GPUX_CU_RANDOM_KERNEL_uniform_f64 GPUX_CU_RANDOM_KERNEL(uniform, f64)
#define GPUX_CU_RANDOM_KERNEL_normal_f64 GPUX_CU_RANDOM_KERNEL(normal, f64)
#define GPUX_CU_RANDOM_KERNEL_integers_i32 GPUX_CU_RANDOM_KERNEL(integers, i32)
#define GPUX_CU_RANDOM_KERNEL_integers_i64 GPUX_CU_RANDOM_KERNEL(integers, i64)
#define GPUX_CU_RANDOM_KERNEL_integers_u32 GPUX_CU_RANDOM_KERNEL(integers, u32)
#define GPUX_CU_RANDOM_KERNEL_integers_u64 GPUX_CU_RANDOM_KERNEL(integers, u64)
#define GPUX_CU_RANDOM_KERNEL_integers_i16 GPUX_CU_RANDOM_KERNEL(integers, i16)
#define GPUX_CU_RANDOM_KERNEL_integers_u16 GPUX_CU_RANDOM_KERNEL(integers, u16)
#define GPUX_CU_RANDOM_KERNEL_integers_i8 GPUX_CU_RANDOM_KERNEL(integers, i8)
#define GPUX_CU_RANDOM_KERNEL_integers_u8 GPUX_CU_RANDOM_KERNEL(integers, u8)
#define GPUX_CU_RANDOM_KERNEL_bernoulli_b8 GPUX_CU_RANDOM_KERNEL(bernoulli, b8)
#define GPUX_CU_RANDOM_DT(kind, dt) GPUX_CU_RANDOM_KERNEL_##kind##_##dt
#define GPUX_CU_RANDOM_KIND(kind, id, dts) dts(GPUX_CU_RANDOM_DT, kind)
GPUX_RANDOM_KINDS(GPUX_CU_RANDOM_KIND)
