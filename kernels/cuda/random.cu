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
#define GPUX_CU_RMB_normal_f32 6
#define GPUX_CU_RMB_normal_f64 5
#define GPUX_CU_RMB_integers_i32 5
#define GPUX_CU_RMB_integers_i64 5
#define GPUX_CU_RMB_bernoulli_b8 6

namespace gpux_cu {

/* the vector of VPB values of a block */
template <class T, int V> struct rvec;
template <> struct rvec<float, 4> { typedef float4 type; };
template <> struct rvec<double, 2> { typedef double2 type; };
template <> struct rvec<int, 2> { typedef int2 type; };
template <> struct rvec<long long, 1> { typedef long long type; };
template <> struct rvec<unsigned char, 4> { typedef uchar4 type; };

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
#define GPUX_CU_RANDOM_DT(kind, dt) GPUX_CU_RANDOM_KERNEL(kind, dt)
#define GPUX_CU_RANDOM_KIND(kind, id, dts) dts(GPUX_CU_RANDOM_DT, kind)
GPUX_RANDOM_KINDS(GPUX_CU_RANDOM_KIND)
