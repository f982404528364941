/* gpux CUDA kernel set: what elementwise.cu and copy.cu share -- dtype tags, the
 * contiguous (layout C / S) and n-d (layout N) launch engines, and the cast rules.
 *
 * Launch contract (src/backend_cuda/cuda_launch.c computes the same numbers):
 *   contiguous kernels: blockDim.x == GPUX_CU_BLOCK; each thread handles EPT elements,
 *     EPT = min(64 / (largest element size among the pointer operands), 32) (float32
 *     a + b: 16 elements, four float4 per operand), as groups of G = 16 / (largest size)
 *     elements moved with 16-byte vectors (narrower chunks for narrower operands), all
 *     loads issued before the first use. Blocks loop with a stride of gridDim.x, so any
 *     grid size is correct; the host sizes the grid as ceil(n / (GPUX_CU_BLOCK * EPT)).
 *   n-d kernels: blockDim.x == GPUX_CU_BLOCK, one element per thread, grid-stride loop.
 *   copy_t: blockDim = (GPUX_COPY_TILE, GPUX_COPY_TILE_ROWS); see copy.cu. */
#ifndef GPUX_CUDA_CUH
#define GPUX_CUDA_CUH

#include "gpux_kernels.h"
#include "gpux_half.h"       /* float16 / bfloat16 conversions (bit work, as everywhere) */
#include "gpux_cuda_ops.cuh" /* the ops, and wrap_type: the type integers wrap in */

#define GPUX_CU_BLOCK 256

/* preprocessor helpers: a list macro used inside the expansion of the same list macro
 * (the casts: every pair of GPUX_DT_STORAGE) must be deferred and re-scanned. */
#define GPUX_CU_EMPTY()
#define GPUX_CU_EXPAND(...) __VA_ARGS__

namespace gpux_cu {

typedef unsigned long long u64;
typedef long long i64;

/* dtype tags: u8 and b8 share a C++ type but not their conversion rules, nor do uint16 and
 * the halves, float16 and bfloat16, which are unsigned short bit patterns
 * (kernels/common/gpux_half.h converts): whatever depends on the rules goes by the tag. */
enum Kind { K_FLOAT = 0, K_SINT = 1, K_UINT = 2, K_BOOL = 3, K_F16 = 4, K_BF16 = 5, K_CPLX = 6 };
struct d_f32 { typedef float T; static constexpr int kind = K_FLOAT; };
struct d_f64 { typedef double T; static constexpr int kind = K_FLOAT; };
struct d_i32 { typedef int T; static constexpr int kind = K_SINT; };
struct d_i64 { typedef long long T; static constexpr int kind = K_SINT; };
struct d_u8 { typedef unsigned char T; static constexpr int kind = K_UINT; };
struct d_b8 { typedef unsigned char T; static constexpr int kind = K_BOOL; };
struct d_f16 { typedef unsigned short T; static constexpr int kind = K_F16; };
struct d_bf16 { typedef unsigned short T; static constexpr int kind = K_BF16; };
struct d_i8 { typedef signed char T; static constexpr int kind = K_SINT; };
struct d_i16 { typedef short T; static constexpr int kind = K_SINT; };
struct d_u16 { typedef unsigned short T; static constexpr int kind = K_UINT; };
struct d_u32 { typedef unsigned int T; static constexpr int kind = K_UINT; };
struct d_u64 { typedef unsigned long long T; static constexpr int kind = K_UINT; };
/* complex: (re, im) as .x, .y of float2 / double2 (cuComplex's layout); comp the component
 * dtype's tag. For now only the copy family takes them (casts, fill, copies). */
struct d_c64 { typedef float2 T; typedef d_f32 comp; static constexpr int kind = K_CPLX; };
struct d_c128 { typedef double2 T; typedef d_f64 comp; static constexpr int kind = K_CPLX; };
template <class D> struct is_half { static constexpr bool value = D::kind == K_F16 || D::kind == K_BF16; };
template <class D> struct is_cplx { static constexpr bool value = D::kind == K_CPLX; };
#define GPUX_CU_D(dt) gpux_cu::d_##dt
#define GPUX_CU_T(dt) gpux_cu::d_##dt::T

/* The type a dtype computes in, C, with of(x) (a stored value in C) and back(c) (C rounded
 * once to the dtype): float16 / bfloat16 compute in float (of is exact), every other
 * dtype in its own type. */
template <class D, bool H = is_half<D>::value> struct comp {
  typedef typename D::T C;
  static __device__ __forceinline__ C of(typename D::T x) { return x; }
  static __device__ __forceinline__ C of_arith(typename D::T x) { return x; }
  static __device__ __forceinline__ typename D::T back(C x) { return x; }
};
template <class D> struct comp<D, true> {
  typedef float C;
  static __device__ __forceinline__ float of(unsigned short h) {
    return __uint_as_float(D::kind == K_F16 ? gpux_f16_to_f32(h) : gpux_bf16_to_f32(h));
  }
  /* of(h) where the value only enters an add or a multiply (sums, products): the bare
   * conversion, without of's NaN payload rule (the rule keeps casts bit-identical with the
   * host and OpenCL; NVIDIA's add and multiply return the canonical NaN for any NaN
   * operand, so the payload cannot reach the result). Two instructions an element fewer
   * in the sums of float16, which are bound by them at full bandwidth. */
  static __device__ __forceinline__ float of_arith(unsigned short h) {
    if constexpr (D::kind == K_F16) {
      float f;
      asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
      return f;
    } else {
      return __uint_as_float((unsigned)h << 16);
    }
  }
  static __device__ __forceinline__ unsigned short back(float x) {
    return D::kind == K_F16 ? gpux_f32_to_f16(__float_as_uint(x))
                            : gpux_f32_to_bf16(__float_as_uint(x));
  }
};

template <class T> struct is_fp { static constexpr bool value = false; };
template <> struct is_fp<float> { static constexpr bool value = true; };
template <> struct is_fp<double> { static constexpr bool value = true; };

/* result type of an op: GPUX_RES_SAME -> T, GPUX_RES_BOOL -> unsigned char, GPUX_RES_REAL
 * -> the component type of a complex T (float2 -> float, double2 -> double), else T */
template <class T> struct real_of { typedef T type; };
template <> struct real_of<float2> { typedef float type; };
template <> struct real_of<double2> { typedef double type; };
template <int R, class T> struct res_t { typedef T type; };
template <class T> struct res_t<GPUX_RES_BOOL, T> { typedef unsigned char type; };
template <class T> struct res_t<GPUX_RES_REAL, T> { typedef typename real_of<T>::type type; };

/* ---- 16-byte vector I/O of register arrays --------------------------------------- */
/* The integers without vectors of their own below move as the type of the same size and the
 * other signedness (an object may be accessed through either; the bits are the same). */
template <class T> struct twin;
template <> struct twin<signed char> { typedef unsigned char type; };
template <> struct twin<short> { typedef unsigned short type; };
template <> struct twin<unsigned int> { typedef int type; };
template <> struct twin<unsigned long long> { typedef long long type; };
template <class T> struct vio {
  typedef typename twin<T>::type W;
  static constexpr int N = 16 / (int)sizeof(T);
  static __device__ __forceinline__ void ld(T *r, const T *p) {
    vio<W>::ld(reinterpret_cast<W *>(r), reinterpret_cast<const W *>(p));
  }
  static __device__ __forceinline__ void st(T *p, const T *r) {
    vio<W>::st(reinterpret_cast<W *>(p), reinterpret_cast<const W *>(r));
  }
};
template <> struct vio<float> {
  static constexpr int N = 4;
  static __device__ __forceinline__ void ld(float *r, const float *p) {
    const float4 v = *reinterpret_cast<const float4 *>(p);
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
  }
  static __device__ __forceinline__ void st(float *p, const float *r) {
    *reinterpret_cast<float4 *>(p) = make_float4(r[0], r[1], r[2], r[3]);
  }
};
template <> struct vio<double> {
  static constexpr int N = 2;
  static __device__ __forceinline__ void ld(double *r, const double *p) {
    const double2 v = *reinterpret_cast<const double2 *>(p);
    r[0] = v.x; r[1] = v.y;
  }
  static __device__ __forceinline__ void st(double *p, const double *r) {
    *reinterpret_cast<double2 *>(p) = make_double2(r[0], r[1]);
  }
};
/* 16-byte vectors of unsigned short (eight per vector: uint16, float16, bfloat16) */
template <> struct vio<unsigned short> {
  static constexpr int N = 8;
  static __device__ __forceinline__ void ld(unsigned short *r, const unsigned short *p) {
    const uint4 v = *reinterpret_cast<const uint4 *>(p);
    const unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      r[2 * k] = (unsigned short)(w[k] & 0xffffu);
      r[2 * k + 1] = (unsigned short)(w[k] >> 16);
    }
  }
  static __device__ __forceinline__ void st(unsigned short *p, const unsigned short *r) {
    unsigned w[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) w[k] = (unsigned)r[2 * k] | ((unsigned)r[2 * k + 1] << 16);
    *reinterpret_cast<uint4 *>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  }
};
template <> struct vio<int> {
  static constexpr int N = 4;
  static __device__ __forceinline__ void ld(int *r, const int *p) {
    const int4 v = *reinterpret_cast<const int4 *>(p);
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
  }
  static __device__ __forceinline__ void st(int *p, const int *r) {
    *reinterpret_cast<int4 *>(p) = make_int4(r[0], r[1], r[2], r[3]);
  }
};
template <> struct vio<long long> {
  static constexpr int N = 2;
  static __device__ __forceinline__ void ld(long long *r, const long long *p) {
    const longlong2 v = *reinterpret_cast<const longlong2 *>(p);
    r[0] = v.x; r[1] = v.y;
  }
  static __device__ __forceinline__ void st(long long *p, const long long *r) {
    *reinterpret_cast<longlong2 *>(p) = make_longlong2(r[0], r[1]);
  }
};
template <> struct vio<unsigned char> {
  static constexpr int N = 16;
  static __device__ __forceinline__ unsigned pack(const unsigned char *r) {
    return (unsigned)r[0] | ((unsigned)r[1] << 8) | ((unsigned)r[2] << 16) |
           ((unsigned)r[3] << 24);
  }
  static __device__ __forceinline__ void unpack(unsigned char *r, unsigned w) {
    r[0] = (unsigned char)w; r[1] = (unsigned char)(w >> 8);
    r[2] = (unsigned char)(w >> 16); r[3] = (unsigned char)(w >> 24);
  }
  static __device__ __forceinline__ void ld(unsigned char *r, const unsigned char *p) {
    const uint4 v = *reinterpret_cast<const uint4 *>(p);
    unpack(r, v.x); unpack(r + 4, v.y); unpack(r + 8, v.z); unpack(r + 12, v.w);
  }
  static __device__ __forceinline__ void st(unsigned char *p, const unsigned char *r) {
    *reinterpret_cast<uint4 *>(p) = make_uint4(pack(r), pack(r + 4), pack(r + 8), pack(r + 12));
  }
};

/* complex: two float2 per vector, one double2 */
template <> struct vio<float2> {
  static constexpr int N = 2;
  static __device__ __forceinline__ void ld(float2 *r, const float2 *p) {
    const float4 v = *reinterpret_cast<const float4 *>(p);
    r[0] = make_float2(v.x, v.y); r[1] = make_float2(v.z, v.w);
  }
  static __device__ __forceinline__ void st(float2 *p, const float2 *r) {
    *reinterpret_cast<float4 *>(p) = make_float4(r[0].x, r[0].y, r[1].x, r[1].y);
  }
};
template <> struct vio<double2> {
  static constexpr int N = 1;
  static __device__ __forceinline__ void ld(double2 *r, const double2 *p) { r[0] = *p; }
  static __device__ __forceinline__ void st(double2 *p, const double2 *r) { *p = r[0]; }
};

/* Chunks narrower than 16 bytes (the narrow operands of mixed-size kernels): an unsigned
 * integer of that size, unpacked little-endian. */
template <int BYTES> struct chunk;
template <> struct chunk<1> { typedef unsigned char type; };
template <> struct chunk<2> { typedef unsigned short type; };
template <> struct chunk<4> { typedef unsigned int type; };
template <> struct chunk<8> { typedef unsigned long long type; };

template <class T> __device__ __forceinline__ unsigned long long to_bits(T v) {
  if constexpr (is_fp<T>::value && sizeof(T) == 8)
    return (unsigned long long)__double_as_longlong(v);
  else if constexpr (is_fp<T>::value) return (unsigned long long)__float_as_uint(v);
  else if constexpr (sizeof(T) == 4) return (unsigned long long)(unsigned)v;
  else return (unsigned long long)v;
}
template <class T> __device__ __forceinline__ T from_bits(unsigned long long b) {
  if constexpr (is_fp<T>::value && sizeof(T) == 8) return __longlong_as_double((long long)b);
  else if constexpr (is_fp<T>::value) return __uint_as_float((unsigned)b);
  else if constexpr (sizeof(T) == 4) return (T)(unsigned)b;
  else return (T)b;
}

/* G elements starting at a (G * sizeof(T))-aligned address: whole 16-byte vectors when the
 * group is 16 bytes or more, else one narrower chunk. */
template <int G, class T> __device__ __forceinline__ void ld_group(T (&r)[G], const T *p) {
  constexpr int BYTES = G * (int)sizeof(T);
  if constexpr (BYTES >= 16) {
#pragma unroll
    for (int k = 0; k < G; k += vio<T>::N) vio<T>::ld(&r[k], p + k);
  } else if constexpr (G == 1) {
    r[0] = *p;
  } else {
    typedef typename chunk<BYTES>::type C;
    const unsigned long long w = *reinterpret_cast<const C *>(p);
    constexpr int SB = (int)sizeof(T) * 8;
#pragma unroll
    for (int j = 0; j < G; ++j) r[j] = from_bits<T>((w >> (j * SB)) & ((1ULL << SB) - 1));
  }
}
template <int G, class T> __device__ __forceinline__ void st_group(T *p, const T (&r)[G]) {
  constexpr int BYTES = G * (int)sizeof(T);
  if constexpr (BYTES >= 16) {
#pragma unroll
    for (int k = 0; k < G; k += vio<T>::N) vio<T>::st(p + k, &r[k]);
  } else if constexpr (G == 1) {
    *p = r[0];
  } else {
    typedef typename chunk<BYTES>::type C;
    constexpr int SB = (int)sizeof(T) * 8;
    unsigned long long w = 0;
#pragma unroll
    for (int j = 0; j < G; ++j) w |= (to_bits<T>(r[j]) & ((1ULL << SB) - 1)) << (j * SB);
    *reinterpret_cast<C *>(p) = (C)w;
  }
}

/* ---- contiguous engine ------------------------------------------------------------ */
constexpr int cmin(int a, int b) { return a < b ? a : b; }
constexpr int cmax(int a, int b) { return a > b ? a : b; }

/* NIN pointer inputs (0..3); unused input types are char. A group is G = 16 / (largest
 * element size) consecutive elements, so the widest operand moves one 16-byte vector per
 * group and narrower ones a 1..8-byte chunk: every warp-wide access is contiguous. A thread
 * takes U groups, EPT = min(64 / largest size, 32) elements (four 16-byte vectors of the
 * widest operand; float32 a + b: 16 elements). HEAVY kernels (ops whose body is long:
 * division, pow, most transcendentals) take one group, so the body is not replicated many
 * times; they loop over more blocks instead (the host sizes the grid for the light shape,
 * every kernel is correct for any grid). */
template <int NIN, bool HEAVY, class To, class T1, class T2, class T3> struct cshape {
  static constexpr int s0 = (int)sizeof(To);
  static constexpr int s1 = NIN >= 1 ? (int)sizeof(T1) : s0;
  static constexpr int s2 = NIN >= 2 ? (int)sizeof(T2) : s0;
  static constexpr int s3 = NIN >= 3 ? (int)sizeof(T3) : s0;
  static constexpr int mx = cmax(cmax(s0, s1), cmax(s2, s3));
  static constexpr int G = 16 / mx;                              /* elements per group */
  static constexpr int EPT = HEAVY ? G : cmin(64 / mx, 32);      /* elements per thread */
  static constexpr int U = EPT / G;                              /* groups per thread */
};

/* f(x1.., e): e is the element index (generators use it). */
template <int NIN, class F, class A, class B, class C>
__device__ __forceinline__ auto call_r(const F &f, const A &a, const B &b, const C &c, int j,
                                       u64 e) {
  if constexpr (NIN == 0) return f(e);
  else if constexpr (NIN == 1) return f(a[j], e);
  else if constexpr (NIN == 2) return f(a[j], b[j], e);
  else return f(a[j], b[j], c[j], e);
}
template <int NIN, class F, class T1, class T2, class T3>
__device__ __forceinline__ auto call_p(const F &f, const T1 *p1, const T2 *p2, const T3 *p3,
                                       i64 i1, i64 i2, i64 i3, u64 e) {
  if constexpr (NIN == 0) return f(e);
  else if constexpr (NIN == 1) return f(p1[i1], e);
  else if constexpr (NIN == 2) return f(p1[i1], p2[i2], e);
  else return f(p1[i1], p2[i2], p3[i3], e);
}

/* Vector part: thread t of block b handles groups g = b * BLOCK * U + u * BLOCK + t
 * (u < U), i.e. elements [g * G, g * G + G); only whole groups of 16-byte aligned
 * operands. Scalar part: the rest (the tail of fewer than G elements, or everything when a
 * pointer is unaligned), one element per thread, grid-stride. The op body is instantiated
 * EPT + 1 times. */
template <int NIN, bool HEAVY, class F, class To, class T1, class T2, class T3>
__device__ __forceinline__ void map_c(const F &f, To *out, const T1 *p1, const T2 *p2,
                                      const T3 *p3, i64 n_) {
  typedef cshape<NIN, HEAVY, To, T1, T2, T3> S;
  constexpr int G = S::G, U = S::U, EPT = S::EPT;
  constexpr u64 EPB = (u64)GPUX_CU_BLOCK * EPT;
  const u64 n = (u64)n_;
  u64 addr = (u64)out;
  if constexpr (NIN >= 1) addr |= (u64)p1;
  if constexpr (NIN >= 2) addr |= (u64)p2;
  if constexpr (NIN >= 3) addr |= (u64)p3;
  const u64 nfull = (addr & 15) == 0 ? n / G * G : 0; /* uniform; G is a power of two */
  const u64 nblk = (nfull + EPB - 1) / EPB;            /* a shift */

  for (u64 blk = blockIdx.x; blk < nblk; blk += gridDim.x) {
    const u64 e0 = (blk * ((u64)GPUX_CU_BLOCK * U) + threadIdx.x) * G;
    T1 x1[U][G];
    T2 x2[U][G];
    T3 x3[U][G];
#pragma unroll
    for (int u = 0; u < U; ++u) { /* all loads first: U x NIN vectors in flight */
      const u64 e = e0 + (u64)u * GPUX_CU_BLOCK * G;
      if (e < nfull) {
        if constexpr (NIN >= 1) ld_group<G>(x1[u], p1 + e);
        if constexpr (NIN >= 2) ld_group<G>(x2[u], p2 + e);
        if constexpr (NIN >= 3) ld_group<G>(x3[u], p3 + e);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const u64 e = e0 + (u64)u * GPUX_CU_BLOCK * G;
      if (e < nfull) {
        To y[G];
#pragma unroll
        for (int j = 0; j < G; ++j) y[j] = call_r<NIN>(f, x1[u], x2[u], x3[u], j, e + j);
        st_group<G>(out + e, y);
      }
    }
  }
  const u64 stride = (u64)gridDim.x * GPUX_CU_BLOCK;
  for (u64 e = nfull + (u64)blockIdx.x * GPUX_CU_BLOCK + threadIdx.x; e < n; e += stride)
    out[e] = call_p<NIN>(f, p1, p2, p3, (i64)e, (i64)e, (i64)e, e);
}

/* ---- n-d engine --------------------------------------------------------------------- */
/* Element offsets of the NOP operands of linear (row-major) output index i: the dims are
 * walked innermost first, in a loop kept rolled (the parameter block is a
 * __grid_constant__ kernel parameter, so p.shape[d] with a run-time d is a constant-bank
 * load, not a copy). The outermost dim needs no division. */
template <int NOP, class I>
__device__ __forceinline__ void nd_offsets(const gpux_nd_params &p, I i, i64 (&off)[NOP]) {
#pragma unroll
  for (int k = 0; k < NOP; ++k) off[k] = p.offset[k];
#pragma unroll 1
  for (int d = (int)p.ndim - 1; d > 0; --d) {
    const I s = (I)p.shape[d];
    const I q = i / s;
    const I c = i - q * s;
    i = q;
#pragma unroll
    for (int k = 0; k < NOP; ++k) off[k] += (i64)c * p.stride[k][d];
  }
#pragma unroll
  for (int k = 0; k < NOP; ++k) off[k] += (i64)i * p.stride[k][0];
}

template <int K, int N> __device__ __forceinline__ i64 pick(const i64 (&off)[N]) {
  if constexpr (K < N) return off[K];
  else return 0;
}

/* operand 0 is out, 1..NIN the inputs; p must be the kernel's __grid_constant__ param */
template <int NIN, class F, class To, class T1, class T2, class T3>
__device__ __forceinline__ void map_n(const F &f, To *out, const T1 *p1, const T2 *p2,
                                      const T3 *p3, const gpux_nd_params &p) {
  const u64 n = (u64)p.n;
  const u64 stride = (u64)gridDim.x * GPUX_CU_BLOCK;
  const bool small = n <= 0x7fffffffULL; /* uniform: 32-bit index arithmetic */
  for (u64 i = (u64)blockIdx.x * GPUX_CU_BLOCK + threadIdx.x; i < n; i += stride) {
    i64 off[NIN + 1];
    if (small) nd_offsets<NIN + 1>(p, (unsigned)i, off);
    else nd_offsets<NIN + 1>(p, i, off);
    out[off[0]] = call_p<NIN>(f, p1, p2, p3, pick<1>(off), pick<2>(off), pick<3>(off), i);
  }
}

/* ---- casts (gpux_kernels.h rules) ----------------------------------------------------- */
template <class DF, class DT>
__device__ __forceinline__ typename DT::T cast(typename DF::T x) {
  typedef typename DF::T F;
  typedef typename DT::T To;
  if constexpr (DT::kind == K_BOOL) {
    return (To)(x != 0 ? 1 : 0); /* NaN != 0: true */
  } else if constexpr (DF::kind == K_BOOL) {
    return (To)(x != 0 ? 1 : 0);
  } else if constexpr (DT::kind == K_FLOAT) {
    return (To)x; /* round to nearest */
  } else if constexpr (DF::kind == K_FLOAT) {
    /* float -> int: NaN -> 0, truncate toward zero, saturate. The bounds are powers of two,
     * exact in either float type (2^64 too: (F)UINT64_MAX would round up to it) */
    typedef typename wrap_type<To>::type U;
    constexpr int bits = (int)sizeof(To) * 8;
    const F msb = (F)(1ULL << (bits - 1)); /* 2^(bits-1) */
    if (x != x) return (To)0;
    if constexpr (DT::kind == K_UINT) {
      if (x >= msb * (F)2) return (To)~0ULL; /* MAX */
      if (x <= (F)-1) return (To)0;
    } else {
      if (x >= msb) return (To)((1ULL << (bits - 1)) - 1); /* MAX */
      if (x <= -msb) return (To)(U)(1ULL << (bits - 1));   /* MIN */
    }
    /* the truncated value is in range (narrow targets: through int, where it fits) */
    if constexpr (sizeof(To) < 4) return (To)(int)x;
    else return (To)x;
  } else {
    /* int -> int: two's complement wrap */
    return (To)(typename wrap_type<To>::type)(u64)x;
  }
}

}  // namespace gpux_cu

#endif
