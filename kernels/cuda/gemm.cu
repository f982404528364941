/* gpux CUDA kernel set: the native matrix product (gpux__gemm in src/api/gpux_backend.h).
 *
 *   C_b = alpha * op(A_b) @ op(B_b) + beta * C_b   (row-major, b = 0 .. batch-1)
 *
 * One kernel per dtype, gpux_gemm_<dt> (GPUX_GEMM_DT, GPUX_GEMM_DT_HALF and
 * GPUX_GEMM_DT_COMPLEX of gpux_kernels.h); the transposes (and, for complex, the
 * conjugations: flags GPUX_CU_GEMM_CONJ_*, applied as slices are loaded) are arguments and select one of four specialised bodies
 * with a branch that is uniform over the grid.
 *
 * Design (float32: 128 x 128 block tile, 8 x 8 outputs per thread, plain FFMA):
 *   - 256 threads = 8 warps as 2 (M) x 4 (N); a warp owns a 64 x 32 tile, its lanes an
 *     8 (M) x 4 (N) grid (lane_m = lane / 4, lane_n = lane % 4); a thread owns RM x RN
 *     sub-tiles of 4 x 4 outputs, spaced 32 rows and 16 columns apart, so its operand
 *     fragments are whole 16-byte vectors in shared memory, read without bank conflicts
 *     (the lanes of a warp read 8 resp. 4 distinct, contiguous vectors).
 *   - K is walked in slices of BK = 8. Both operands are staged in shared memory k-major
 *     (S[k][m] and S[k][n], rows padded by 4 elements), double buffered: the next slice is
 *     read from global memory into registers while the current one is multiplied, then
 *     stored to the other buffer; one __syncthreads per slice.
 *   - Global reads are 4-element vectors (16 bytes for float32) along the operand's
 *     contiguous axis when the host says the operand is aligned (base aligned, ld and batch
 *     stride multiples of 4: bit GPUX_CU_GEMM_VEC_*) and the vector is inside the matrix;
 *     otherwise element by element with bounds checks (zeros outside), so any m, n, k
 *     (k == 0 included) is correct.
 *   - An operand contiguous along k (A without transpose, B with) is transposed on its way
 *     into shared memory; the padding makes those 4-byte stores conflict-free.
 *   - Tiles are numbered in groups of GPUX_CU_GEMM_GROUP tile rows (column-major inside a
 *     group) for L2 reuse; blocks loop over tiles (grid.x) and batches (grid.y), so any grid
 *     is correct.
 *   - Epilogue: C = alpha * acc + beta * C; beta == 0 never reads C; k == 0 gives beta * C
 *     (alpha ignored, as BLAS). Integers compute in the unsigned type (two's complement
 *     wrap); float16 / bfloat16 are widened to float on their way into shared memory,
 *     accumulate in float and are rounded once (to nearest even) on the way out.
 *   8-byte types (float64, int64, complex64) use RN = 1: 128 x 64 tiles, 8 x 4 outputs per
 *   thread; complex128 RM = RN = 1: 64 x 64 tiles, 4 x 4 outputs. Complex types compute in
 *   cx<R> (component type R; products as four FMAs), alpha and beta complex.
 *
 * Kernel signature (src/backend_cuda/cuda_gemm.c launches it):
 *   gpux_gemm_<dt>(const T *a, const T *b, T *c,            pointers with offsets applied
 *                  long long m, n, k, lda, ldb, ldc,
 *                  long long stride_a, stride_b, stride_c,  elements between batch items
 *                  long long batch,
 *                  S alpha, S beta,                          S: float for f32/f16/bf16,
 *                                                            double, int, long long; complex:
 *                                                            cx (float2 / double2 layout)
 *                  int flags)                                GPUX_CU_GEMM_* bits
 *   blockDim = (256, 1, 1); grid.x = number of tiles (any count >= 1), grid.y = batch
 *   items (any count >= 1, <= 65535); tile sizes geo<T>::BM x BN below (the host mirrors
 *   them): 128 x 128, float64 / int64 / complex64 128 x 64, complex128 64 x 64.
 *   sm_90 (ptxas -v): 128 registers, no spills, 16.5 KiB static shared memory (8-byte
 *   types 25 KiB) for every dtype except int64 (one block per SM: 162 registers);
 *   complex64 168 registers (25 KiB), complex128 204 (34 KiB), one block per SM, no spills. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "gpux_kernels.h"

/* flags (mirrored in src/backend_cuda/cuda_gemm.c) */
#define GPUX_CU_GEMM_TRANS_A 1
#define GPUX_CU_GEMM_TRANS_B 2
#define GPUX_CU_GEMM_VEC_A 4
#define GPUX_CU_GEMM_VEC_B 8
#define GPUX_CU_GEMM_VEC_C 16
#define GPUX_CU_GEMM_CONJ_A 32 /* complex: conjugate A's elements as they are loaded */
#define GPUX_CU_GEMM_CONJ_B 64 /* likewise B's */

#define GPUX_CU_GEMM_THREADS 256
#define GPUX_CU_GEMM_BK 8
#define GPUX_CU_GEMM_PAD 4
#define GPUX_CU_GEMM_GROUP 8
/* blocks per SM that __launch_bounds__ asks for (all dtypes but int64): 2 caps registers
 * at 128 per thread. A tuning knob: GPUX_CUDA_NVCC_FLAGS=-DGPUX_CU_GEMM_MINB=1 lets ptxas
 * use up to 255 (one block of 8 warps per SM). */
#ifndef GPUX_CU_GEMM_MINB
#define GPUX_CU_GEMM_MINB 2
#endif

namespace gpux_cu_gemm {

typedef long long i64;
typedef unsigned long long u64;

constexpr int THREADS = GPUX_CU_GEMM_THREADS;
constexpr int BK = GPUX_CU_GEMM_BK;
constexpr int PAD = GPUX_CU_GEMM_PAD;
constexpr int LM = 8, LN = 4;   /* lanes of a warp along M and N */
constexpr int WGM = 2, WGN = 4; /* warps of a block along M and N */
constexpr int SUB_M = LM * 4;   /* distance between a thread's sub-tiles along M (32) */
constexpr int SUB_N = LN * 4;   /* ... along N (16) */
static_assert(LM * LN == 32 && WGM * WGN * 32 == THREADS, "thread layout");
static_assert(BK % 4 == 0, "BK must be a multiple of the vector width");

/* ---- complex compute type: (re, im) of R with the arithmetic the tile code uses ------- */
template <class R> struct __align__(2 * sizeof(R)) cx {
  R x, y;
  cx() = default; /* trivial: __shared__ arrays of it need no constructor */
  __device__ __forceinline__ cx(R r) : x(r), y(R(0)) {}
  __device__ __forceinline__ cx(R r, R i) : x(r), y(i) {}
};
template <class R> __device__ __forceinline__ cx<R> operator*(cx<R> a, cx<R> b) {
  return cx<R>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
template <class R> __device__ __forceinline__ cx<R> operator+(cx<R> a, cx<R> b) {
  return cx<R>(a.x + b.x, a.y + b.y);
}
template <class R> __device__ __forceinline__ bool operator!=(cx<R> a, cx<R> b) {
  return a.x != b.x || a.y != b.y;
}
/* conjugation in place on load: a no-op for the real compute types */
template <class A> __device__ __forceinline__ void conj_ip(A &) {}
template <class R> __device__ __forceinline__ void conj_ip(cx<R> &v) { v.y = -v.y; }

/* ---- dtype traits: storage type T, compute type A, argument type S ------------------ */
template <class T> struct tr;
template <> struct tr<float> {
  typedef float A;
  typedef float S;
  static constexpr int RM = 2, RN = 2, MINB = GPUX_CU_GEMM_MINB;
  static __device__ __forceinline__ A ld(float x) { return x; }
  static __device__ __forceinline__ float st(A v) { return v; }
  /* 4 elements at p (16-byte aligned) */
  static __device__ __forceinline__ void vld(A *r, const float *p) {
    const float4 v = *reinterpret_cast<const float4 *>(p);
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
  }
  static __device__ __forceinline__ void vst(float *p, const A *r) {
    *reinterpret_cast<float4 *>(p) = make_float4(r[0], r[1], r[2], r[3]);
  }
};
template <> struct tr<double> {
  typedef double A;
  typedef double S;
  static constexpr int RM = 2, RN = 1, MINB = GPUX_CU_GEMM_MINB;
  static __device__ __forceinline__ A ld(double x) { return x; }
  static __device__ __forceinline__ double st(A v) { return v; }
  static __device__ __forceinline__ void vld(A *r, const double *p) {
    const double2 v0 = reinterpret_cast<const double2 *>(p)[0];
    const double2 v1 = reinterpret_cast<const double2 *>(p)[1];
    r[0] = v0.x; r[1] = v0.y; r[2] = v1.x; r[3] = v1.y;
  }
  static __device__ __forceinline__ void vst(double *p, const A *r) {
    reinterpret_cast<double2 *>(p)[0] = make_double2(r[0], r[1]);
    reinterpret_cast<double2 *>(p)[1] = make_double2(r[2], r[3]);
  }
};
/* Integers up to 4 bytes: products in unsigned 32-bit (wrapping), stored as the low bits.
 * S, alpha's argument type: int for int32, else the dtype's value zero-extended to 32 bits
 * (only its low bits reach the result). Vectors of 4 elements are 4 * sizeof(T) bytes. */
template <class T, class S_> struct tr_int32 {
  typedef unsigned A; /* wraps */
  typedef S_ S;
  static constexpr int RM = 2, RN = 2, MINB = GPUX_CU_GEMM_MINB;
  static __device__ __forceinline__ A ld(T x) { return (A)x; }
  static __device__ __forceinline__ T st(A v) { return (T)v; }
  /* element j of a word holding 4 / sizeof(T) of them */
  static __device__ __forceinline__ A part(unsigned w, int j) {
    return (A)(T)(w >> (8 * sizeof(T) * j));
  }
  static __device__ __forceinline__ unsigned bits(A v) {
    return v & (sizeof(T) == 4 ? ~0u : (1u << (8 * sizeof(T))) - 1u);
  }
  static __device__ __forceinline__ void vld(A *r, const T *p) {
    if constexpr (sizeof(T) == 4) {
      const uint4 v = *reinterpret_cast<const uint4 *>(p);
      r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
    } else if constexpr (sizeof(T) == 2) {
      const uint2 v = *reinterpret_cast<const uint2 *>(p);
      r[0] = part(v.x, 0); r[1] = part(v.x, 1); r[2] = part(v.y, 0); r[3] = part(v.y, 1);
    } else {
      const unsigned v = *reinterpret_cast<const unsigned *>(p);
      r[0] = part(v, 0); r[1] = part(v, 1); r[2] = part(v, 2); r[3] = part(v, 3);
    }
  }
  static __device__ __forceinline__ void vst(T *p, const A *r) {
    if constexpr (sizeof(T) == 4) {
      *reinterpret_cast<uint4 *>(p) = make_uint4(r[0], r[1], r[2], r[3]);
    } else if constexpr (sizeof(T) == 2) {
      *reinterpret_cast<uint2 *>(p) =
          make_uint2(bits(r[0]) | bits(r[1]) << 16, bits(r[2]) | bits(r[3]) << 16);
    } else {
      *reinterpret_cast<unsigned *>(p) =
          bits(r[0]) | bits(r[1]) << 8 | bits(r[2]) << 16 | bits(r[3]) << 24;
    }
  }
};
template <> struct tr<int> : tr_int32<int, int> {};
template <> struct tr<unsigned> : tr_int32<unsigned, unsigned> {};
template <> struct tr<signed char> : tr_int32<signed char, unsigned> {};
template <> struct tr<unsigned char> : tr_int32<unsigned char, unsigned> {};
template <> struct tr<short> : tr_int32<short, unsigned> {};
template <> struct tr<unsigned short> : tr_int32<unsigned short, unsigned> {};
/* 8-byte integers: unsigned 64-bit */
template <class T> struct tr_int64 {
  typedef unsigned long long A; /* wraps */
  typedef T S;
  static constexpr int RM = 2, RN = 1, MINB = 1;
  static __device__ __forceinline__ A ld(T x) { return (A)x; }
  static __device__ __forceinline__ T st(A v) { return (T)v; }
  static __device__ __forceinline__ void vld(A *r, const T *p) {
    const ulonglong2 v0 = reinterpret_cast<const ulonglong2 *>(p)[0];
    const ulonglong2 v1 = reinterpret_cast<const ulonglong2 *>(p)[1];
    r[0] = v0.x; r[1] = v0.y; r[2] = v1.x; r[3] = v1.y;
  }
  static __device__ __forceinline__ void vst(T *p, const A *r) {
    reinterpret_cast<ulonglong2 *>(p)[0] = make_ulonglong2(r[0], r[1]);
    reinterpret_cast<ulonglong2 *>(p)[1] = make_ulonglong2(r[2], r[3]);
  }
};
template <> struct tr<long long> : tr_int64<long long> {};
template <> struct tr<unsigned long long> : tr_int64<unsigned long long> {};
template <> struct tr<__half> {
  typedef float A;
  typedef float S;
  static constexpr int RM = 2, RN = 2, MINB = GPUX_CU_GEMM_MINB;
  static __device__ __forceinline__ A ld(__half x) { return __half2float(x); }
  static __device__ __forceinline__ __half st(A v) { return __float2half_rn(v); }
  static __device__ __forceinline__ A bits(unsigned h) {
    return __half2float(__ushort_as_half((unsigned short)(h & 0xffffu)));
  }
  static __device__ __forceinline__ unsigned pack(A lo, A hi) {
    return (unsigned)__half_as_ushort(__float2half_rn(lo)) |
           ((unsigned)__half_as_ushort(__float2half_rn(hi)) << 16);
  }
  /* 4 elements at p (8-byte aligned) */
  static __device__ __forceinline__ void vld(A *r, const __half *p) {
    const uint2 v = *reinterpret_cast<const uint2 *>(p);
    r[0] = bits(v.x); r[1] = bits(v.x >> 16); r[2] = bits(v.y); r[3] = bits(v.y >> 16);
  }
  static __device__ __forceinline__ void vst(__half *p, const A *r) {
    *reinterpret_cast<uint2 *>(p) = make_uint2(pack(r[0], r[1]), pack(r[2], r[3]));
  }
};
template <> struct tr<__nv_bfloat16> {
  typedef float A;
  typedef float S;
  static constexpr int RM = 2, RN = 2, MINB = GPUX_CU_GEMM_MINB;
  static __device__ __forceinline__ A ld(__nv_bfloat16 x) { return __bfloat162float(x); }
  static __device__ __forceinline__ __nv_bfloat16 st(A v) { return __float2bfloat16_rn(v); }
  /* bfloat16 -> float is exact: the 16 bits become the high half of the float */
  static __device__ __forceinline__ A bits(unsigned h) { return __uint_as_float(h << 16); }
  static __device__ __forceinline__ unsigned pack(A lo, A hi) {
    return (unsigned)__bfloat16_as_ushort(__float2bfloat16_rn(lo)) |
           ((unsigned)__bfloat16_as_ushort(__float2bfloat16_rn(hi)) << 16);
  }
  static __device__ __forceinline__ void vld(A *r, const __nv_bfloat16 *p) {
    const uint2 v = *reinterpret_cast<const uint2 *>(p);
    r[0] = bits(v.x & 0xffffu); r[1] = bits(v.x >> 16);
    r[2] = bits(v.y & 0xffffu); r[3] = bits(v.y >> 16);
  }
  static __device__ __forceinline__ void vst(__nv_bfloat16 *p, const A *r) {
    *reinterpret_cast<uint2 *>(p) = make_uint2(pack(r[0], r[1]), pack(r[2], r[3]));
  }
};

/* Complex: storage float2 / double2, computing in cx<float> / cx<double> (the component
 * type: cgemm / zgemm accumulate so); alpha and beta arrive as cx (the layout of float2 /
 * double2). complex64 tiles are float64's (RM 2, RN 1: 128 x 64), complex128's 64 x 64
 * (RM = RN = 1); both ask one block per SM (__launch_bounds__: at two, complex64 spills). */
template <> struct tr<float2> {
  typedef cx<float> A;
  typedef cx<float> S;
  static constexpr int RM = 2, RN = 1, MINB = 1; /* 2 spills at 128 registers (sm_90) */
  static __device__ __forceinline__ A ld(float2 v) { return A(v.x, v.y); }
  static __device__ __forceinline__ float2 st(A v) { return make_float2(v.x, v.y); }
  /* 4 elements at p (16-byte aligned): two 16-byte loads */
  static __device__ __forceinline__ void vld(A *r, const float2 *p) {
    const float4 v0 = reinterpret_cast<const float4 *>(p)[0];
    const float4 v1 = reinterpret_cast<const float4 *>(p)[1];
    r[0] = A(v0.x, v0.y); r[1] = A(v0.z, v0.w); r[2] = A(v1.x, v1.y); r[3] = A(v1.z, v1.w);
  }
  static __device__ __forceinline__ void vst(float2 *p, const A *r) {
    reinterpret_cast<float4 *>(p)[0] = make_float4(r[0].x, r[0].y, r[1].x, r[1].y);
    reinterpret_cast<float4 *>(p)[1] = make_float4(r[2].x, r[2].y, r[3].x, r[3].y);
  }
};
template <> struct tr<double2> {
  typedef cx<double> A;
  typedef cx<double> S;
  static constexpr int RM = 1, RN = 1, MINB = 1;
  static __device__ __forceinline__ A ld(double2 v) { return A(v.x, v.y); }
  static __device__ __forceinline__ double2 st(A v) { return make_double2(v.x, v.y); }
  static __device__ __forceinline__ void vld(A *r, const double2 *p) {
#pragma unroll
    for (int j = 0; j < 4; ++j) r[j] = ld(p[j]);
  }
  static __device__ __forceinline__ void vst(double2 *p, const A *r) {
#pragma unroll
    for (int j = 0; j < 4; ++j) p[j] = st(r[j]);
  }
};

/* 4 compute-type elements from shared memory (16-byte aligned): one or two 16-byte loads */
template <class A> __device__ __forceinline__ void lds4(A *r, const A *p);
template <> __device__ __forceinline__ void lds4<float>(float *r, const float *p) {
  const float4 v = *reinterpret_cast<const float4 *>(p);
  r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
}
template <> __device__ __forceinline__ void lds4<unsigned>(unsigned *r, const unsigned *p) {
  const uint4 v = *reinterpret_cast<const uint4 *>(p);
  r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
}
template <> __device__ __forceinline__ void lds4<double>(double *r, const double *p) {
  const double2 v0 = reinterpret_cast<const double2 *>(p)[0];
  const double2 v1 = reinterpret_cast<const double2 *>(p)[1];
  r[0] = v0.x; r[1] = v0.y; r[2] = v1.x; r[3] = v1.y;
}
template <>
__device__ __forceinline__ void lds4<unsigned long long>(unsigned long long *r,
                                                         const unsigned long long *p) {
  const ulonglong2 v0 = reinterpret_cast<const ulonglong2 *>(p)[0];
  const ulonglong2 v1 = reinterpret_cast<const ulonglong2 *>(p)[1];
  r[0] = v0.x; r[1] = v0.y; r[2] = v1.x; r[3] = v1.y;
}
template <> __device__ __forceinline__ void lds4<cx<float>>(cx<float> *r, const cx<float> *p) {
  const float4 v0 = reinterpret_cast<const float4 *>(p)[0];
  const float4 v1 = reinterpret_cast<const float4 *>(p)[1];
  r[0] = cx<float>(v0.x, v0.y); r[1] = cx<float>(v0.z, v0.w);
  r[2] = cx<float>(v1.x, v1.y); r[3] = cx<float>(v1.z, v1.w);
}
template <>
__device__ __forceinline__ void lds4<cx<double>>(cx<double> *r, const cx<double> *p) {
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const double2 v = reinterpret_cast<const double2 *>(p)[j];
    r[j] = cx<double>(v.x, v.y);
  }
}
template <class A> __device__ __forceinline__ void sts4(A *p, const A *r);
template <> __device__ __forceinline__ void sts4<float>(float *p, const float *r) {
  *reinterpret_cast<float4 *>(p) = make_float4(r[0], r[1], r[2], r[3]);
}
template <> __device__ __forceinline__ void sts4<unsigned>(unsigned *p, const unsigned *r) {
  *reinterpret_cast<uint4 *>(p) = make_uint4(r[0], r[1], r[2], r[3]);
}
template <> __device__ __forceinline__ void sts4<double>(double *p, const double *r) {
  reinterpret_cast<double2 *>(p)[0] = make_double2(r[0], r[1]);
  reinterpret_cast<double2 *>(p)[1] = make_double2(r[2], r[3]);
}
template <>
__device__ __forceinline__ void sts4<unsigned long long>(unsigned long long *p,
                                                         const unsigned long long *r) {
  reinterpret_cast<ulonglong2 *>(p)[0] = make_ulonglong2(r[0], r[1]);
  reinterpret_cast<ulonglong2 *>(p)[1] = make_ulonglong2(r[2], r[3]);
}

template <> __device__ __forceinline__ void sts4<cx<float>>(cx<float> *p, const cx<float> *r) {
  reinterpret_cast<float4 *>(p)[0] = make_float4(r[0].x, r[0].y, r[1].x, r[1].y);
  reinterpret_cast<float4 *>(p)[1] = make_float4(r[2].x, r[2].y, r[3].x, r[3].y);
}
template <>
__device__ __forceinline__ void sts4<cx<double>>(cx<double> *p, const cx<double> *r) {
#pragma unroll
  for (int j = 0; j < 4; ++j) reinterpret_cast<double2 *>(p)[j] = make_double2(r[j].x, r[j].y);
}

/* tile geometry of a storage type */
template <class T> struct geo {
  static constexpr int RM = tr<T>::RM, RN = tr<T>::RN;
  static constexpr int WM = SUB_M * RM, WN = SUB_N * RN; /* warp tile */
  static constexpr int BM = WGM * WM, BN = WGN * WN;     /* block tile */
  static constexpr int LDA = BM + PAD, LDB = BN + PAD;   /* shared row lengths */
  static constexpr int SMEM = 2 * BK * (LDA + LDB);      /* compute-type elements */
};

/* One operand's slice loader. The operand X has R rows along its outer axis (m for A, n for
 * B) and K along k; element (o, kx) is X[o * ld + kx] when KC (contiguous along k) and
 * X[kx * ld + o] otherwise. A slice is D outer x BK k elements, moved as D * BK / 4 vectors
 * of 4 elements, PER per thread (threads past the count idle). In shared memory the slice
 * is S[kk * (D + PAD) + o]. */
template <class T, int D, bool KC> struct loader {
  typedef typename tr<T>::A A;
  static constexpr int NV = D * BK / 4;
  static constexpr int PER = (NV + THREADS - 1) / THREADS;
  static constexpr int LDS = D + PAD;
  static_assert(KC ? (BK / 4) * D == NV : (D / 4) * BK == NV, "slice shape");

  i64 off[PER];    /* element offset of the vector in the current slice */
  int o_off[PER];  /* outer index inside the tile */
  int k_off[PER];  /* k index inside the slice */
  int rem[PER];    /* valid outer elements from o (KC: 0 or 1..4 meaning "row valid") */
  A r[PER][4];

  __device__ __forceinline__ void init(int tid, i64 r0, i64 R, i64 ld, i64 base) {
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      const int v = tid + p * THREADS;
      if (KC) {
        o_off[p] = v / (BK / 4);
        k_off[p] = (v % (BK / 4)) * 4;
      } else {
        k_off[p] = v / (D / 4);
        o_off[p] = (v % (D / 4)) * 4;
      }
      const i64 o = r0 + o_off[p];
      const i64 left = R - o;
      rem[p] = (v < NV) ? (left >= 4 ? 4 : left <= 0 ? 0 : (int)left) : 0;
      off[p] = base + (KC ? o * ld + k_off[p] : (i64)k_off[p] * ld + o);
    }
  }

  /* the slice starting at k0 into registers (cj: conjugated, complex only) */
  __device__ __forceinline__ void load(const T *__restrict__ X, i64 k0, i64 K, bool vec,
                                       bool cj) {
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      const i64 kx = k0 + k_off[p];
      if (KC) {
        const bool row = rem[p] > 0;
        if (vec && row && kx + 3 < K) {
          tr<T>::vld(r[p], X + off[p]);
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            r[p][j] = (row && kx + j < K) ? tr<T>::ld(X[off[p] + j]) : A(0);
        }
      } else {
        const bool kin = kx < K;
        if (vec && kin && rem[p] == 4) {
          tr<T>::vld(r[p], X + off[p]);
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            r[p][j] = (kin && j < rem[p]) ? tr<T>::ld(X[off[p] + j]) : A(0);
        }
      }
      if (cj) {
#pragma unroll
        for (int j = 0; j < 4; ++j) conj_ip(r[p][j]);
      }
    }
  }

  __device__ __forceinline__ void advance(i64 ld) {
#pragma unroll
    for (int p = 0; p < PER; ++p) off[p] += KC ? (i64)BK : (i64)BK * ld;
  }

  __device__ __forceinline__ void store(A *S, int tid) const {
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      if (NV % THREADS != 0 && tid + p * THREADS >= NV) continue;
      if (KC) {
#pragma unroll
        for (int j = 0; j < 4; ++j) S[(k_off[p] + j) * LDS + o_off[p]] = r[p][j];
      } else {
        sts4<A>(S + k_off[p] * LDS + o_off[p], r[p]);
      }
    }
  }
};

template <class A> __device__ __forceinline__ A mad(A a, A b, A c) { return a * b + c; }
/* complex: four multiply-adds in the component type */
template <> __device__ __forceinline__ cx<float> mad<cx<float>>(cx<float> a, cx<float> b,
                                                               cx<float> c) {
  c.x = fmaf(a.x, b.x, c.x);
  c.y = fmaf(a.x, b.y, c.y);
  c.x = fmaf(-a.y, b.y, c.x);
  c.y = fmaf(a.y, b.x, c.y);
  return c;
}
template <> __device__ __forceinline__ cx<double> mad<cx<double>>(cx<double> a, cx<double> b,
                                                                  cx<double> c) {
  c.x = fma(a.x, b.x, c.x);
  c.y = fma(a.x, b.y, c.y);
  c.x = fma(-a.y, b.y, c.x);
  c.y = fma(a.y, b.x, c.y);
  return c;
}

/* one (batch item, tile) per call; S: the block's shared memory */
template <class T, bool TA, bool TB>
__device__ __forceinline__ void gemm_tile(const T *__restrict__ a, const T *__restrict__ b,
                                          T *__restrict__ c, i64 M, i64 N, i64 K, i64 lda,
                                          i64 ldb, i64 ldc, i64 za, i64 zb, i64 zc, i64 bm,
                                          i64 bn, typename tr<T>::A alpha,
                                          typename tr<T>::A beta, int flags,
                                          typename tr<T>::A *S) {
  typedef typename tr<T>::A A;
  typedef geo<T> G;
  constexpr int RM = G::RM, RN = G::RN, TM = 4 * RM, TN = 4 * RN;
  const int tid = (int)threadIdx.x;
  const int lane = tid & 31, warp = tid >> 5;
  const int tm0 = (warp / WGN) * G::WM + (lane >> 2) * 4; /* first row of the thread */
  const int tn0 = (warp % WGN) * G::WN + (lane & 3) * 4;  /* first column */
  A *const As = S;
  A *const Bs = S + 2 * BK * G::LDA;

  A acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = A(0);

  const i64 nk = (K + BK - 1) / BK;
  if (nk > 0) {
    loader<T, G::BM, !TA> la;
    loader<T, G::BN, TB> lb;
    const bool va = (flags & GPUX_CU_GEMM_VEC_A) != 0, vb = (flags & GPUX_CU_GEMM_VEC_B) != 0;
    const bool ca = (flags & GPUX_CU_GEMM_CONJ_A) != 0, cb = (flags & GPUX_CU_GEMM_CONJ_B) != 0;
    la.init(tid, bm * G::BM, M, lda, za);
    lb.init(tid, bn * G::BN, N, ldb, zb);
    la.load(a, 0, K, va, ca);
    lb.load(b, 0, K, vb, cb);
    la.store(As, tid);
    lb.store(Bs, tid);
    __syncthreads();
    for (i64 kt = 0; kt < nk; ++kt) {
      const int cur = (int)(kt & 1);
      const bool more = kt + 1 < nk;
      if (more) {
        la.advance(lda);
        lb.advance(ldb);
        la.load(a, (kt + 1) * BK, K, va, ca);
        lb.load(b, (kt + 1) * BK, K, vb, cb);
      }
      const A *as = As + cur * BK * G::LDA + tm0;
      const A *bs = Bs + cur * BK * G::LDB + tn0;
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
        A fa[TM], fb[TN];
#pragma unroll
        for (int g = 0; g < RM; ++g) lds4<A>(fa + 4 * g, as + kk * G::LDA + g * SUB_M);
#pragma unroll
        for (int g = 0; g < RN; ++g) lds4<A>(fb + 4 * g, bs + kk * G::LDB + g * SUB_N);
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = mad<A>(fa[i], fb[j], acc[i][j]);
      }
      if (more) {
        la.store(As + (cur ^ 1) * BK * G::LDA, tid);
        lb.store(Bs + (cur ^ 1) * BK * G::LDB, tid);
      }
      __syncthreads();
    }
  }

  /* epilogue */
  const bool has_k = K > 0;
  const bool read_c = beta != A(0);
  const bool vc = (flags & GPUX_CU_GEMM_VEC_C) != 0;
#pragma unroll
  for (int gi = 0; gi < RM; ++gi)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const i64 row = bm * G::BM + tm0 + gi * SUB_M + i;
      if (row >= M) continue;
      T *crow = c + zc + row * ldc;
#pragma unroll
      for (int gj = 0; gj < RN; ++gj) {
        const i64 col = bn * G::BN + tn0 + gj * SUB_N;
        if (col >= N) continue;
        A v[4], old[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) v[j] = has_k ? alpha * acc[gi * 4 + i][gj * 4 + j] : A(0);
        if (vc && col + 3 < N) {
          if (read_c) {
            tr<T>::vld(old, crow + col);
#pragma unroll
            for (int j = 0; j < 4; ++j) v[j] = has_k ? mad<A>(beta, old[j], v[j]) : beta * old[j];
          }
          tr<T>::vst(crow + col, v);
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            if (col + j >= N) break;
            A x = v[j];
            if (read_c) {
              const A o = tr<T>::ld(crow[col + j]);
              x = has_k ? mad<A>(beta, o, x) : beta * o;
            }
            crow[col + j] = tr<T>::st(x);
          }
        }
      }
    }
}

/* the whole launch: blocks loop over batch items (grid.y) and tiles (grid.x) */
template <class T, bool TA, bool TB>
__device__ __forceinline__ void gemm_all(const T *a, const T *b, T *c, i64 M, i64 N, i64 K,
                                         i64 lda, i64 ldb, i64 ldc, i64 sa, i64 sb, i64 sc,
                                         i64 batch, typename tr<T>::A alpha,
                                         typename tr<T>::A beta, int flags,
                                         typename tr<T>::A *S) {
  typedef geo<T> G;
  const u64 tiles_m = (u64)((M + G::BM - 1) / G::BM);
  const u64 tiles_n = (u64)((N + G::BN - 1) / G::BN);
  const u64 ntiles = tiles_m * tiles_n;
  const u64 group = (u64)GPUX_CU_GEMM_GROUP * tiles_n; /* tiles per group of tile rows */
  for (i64 z = blockIdx.y; z < batch; z += gridDim.y) {
    for (u64 t = blockIdx.x; t < ntiles; t += gridDim.x) {
      /* GROUP tile rows at a time, column by column inside the group */
      const u64 gid = t / group, in = t - gid * group;
      const u64 first = gid * GPUX_CU_GEMM_GROUP;
      const u64 gsize = tiles_m - first < (u64)GPUX_CU_GEMM_GROUP ? tiles_m - first
                                                                   : (u64)GPUX_CU_GEMM_GROUP;
      const i64 bm = (i64)(first + in % gsize);
      const i64 bn = (i64)(in / gsize);
      gemm_tile<T, TA, TB>(a, b, c, M, N, K, lda, ldb, ldc, z * sa, z * sb, z * sc, bm, bn,
                           alpha, beta, flags, S);
    }
  }
}

template <class T>
__device__ __forceinline__ void gemm_entry(const T *a, const T *b, T *c, i64 M, i64 N, i64 K,
                                           i64 lda, i64 ldb, i64 ldc, i64 sa, i64 sb, i64 sc,
                                           i64 batch, typename tr<T>::S alpha,
                                           typename tr<T>::S beta, int flags,
                                           typename tr<T>::A *S) {
  typedef typename tr<T>::A A;
  const A al = (A)alpha, be = (A)beta;
  switch (flags & (GPUX_CU_GEMM_TRANS_A | GPUX_CU_GEMM_TRANS_B)) {
    case 0:
      gemm_all<T, false, false>(a, b, c, M, N, K, lda, ldb, ldc, sa, sb, sc, batch, al, be,
                                flags, S);
      break;
    case GPUX_CU_GEMM_TRANS_A:
      gemm_all<T, true, false>(a, b, c, M, N, K, lda, ldb, ldc, sa, sb, sc, batch, al, be,
                               flags, S);
      break;
    case GPUX_CU_GEMM_TRANS_B:
      gemm_all<T, false, true>(a, b, c, M, N, K, lda, ldb, ldc, sa, sb, sc, batch, al, be,
                               flags, S);
      break;
    default:
      gemm_all<T, true, true>(a, b, c, M, N, K, lda, ldb, ldc, sa, sb, sc, batch, al, be,
                              flags, S);
      break;
  }
}

}  // namespace gpux_cu_gemm

/* storage types by dtype name */
typedef float gpux_gemm_t_f32;
typedef double gpux_gemm_t_f64;
typedef int gpux_gemm_t_i32;
typedef long long gpux_gemm_t_i64;
typedef signed char gpux_gemm_t_i8;
typedef unsigned char gpux_gemm_t_u8;
typedef short gpux_gemm_t_i16;
typedef unsigned short gpux_gemm_t_u16;
typedef unsigned gpux_gemm_t_u32;
typedef unsigned long long gpux_gemm_t_u64;
typedef __half gpux_gemm_t_f16;
typedef __nv_bfloat16 gpux_gemm_t_bf16;
typedef float2 gpux_gemm_t_c64;
typedef double2 gpux_gemm_t_c128;

/* MINB blocks per SM: two (at most 128 registers per thread), int64 one. */
#define GPUX_CU_GEMM_KERNEL(unused, dt)                                                    \
  extern "C" __global__ void __launch_bounds__(                                            \
      GPUX_CU_GEMM_THREADS, gpux_cu_gemm::tr<gpux_gemm_t_##dt>::MINB) gpux_gemm_##dt(      \
      const gpux_gemm_t_##dt *__restrict__ a, const gpux_gemm_t_##dt *__restrict__ b,      \
      gpux_gemm_t_##dt *__restrict__ c, long long m, long long n, long long k,             \
      long long lda, long long ldb, long long ldc, long long stride_a, long long stride_b, \
      long long stride_c, long long batch, gpux_cu_gemm::tr<gpux_gemm_t_##dt>::S alpha,    \
      gpux_cu_gemm::tr<gpux_gemm_t_##dt>::S beta, int flags) {                             \
    typedef gpux_cu_gemm::tr<gpux_gemm_t_##dt>::A A;                                       \
    __shared__ __align__(16) A smem[gpux_cu_gemm::geo<gpux_gemm_t_##dt>::SMEM];            \
    gpux_cu_gemm::gemm_entry<gpux_gemm_t_##dt>(a, b, c, m, n, k, lda, ldb, ldc, stride_a,  \
                                            stride_b, stride_c, batch, alpha, beta, flags, \
                                            smem);                                         \
  }
GPUX_GEMM_DT(GPUX_CU_GEMM_KERNEL, _)
GPUX_GEMM_DT_HALF(GPUX_CU_GEMM_KERNEL, _)
GPUX_GEMM_DT_COMPLEX(GPUX_CU_GEMM_KERNEL, _)
