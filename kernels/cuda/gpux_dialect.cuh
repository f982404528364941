/* gpux kernel dialect, CUDA prelude (docs/kernels.md; the OpenCL one is
 * kernels/cl/gpux_dialect.h and defines the same names). The CUDA backend embeds this text
 * and puts it in front of every GPUX_SOURCE_DIALECT program it compiles with NVRTC,
 * followed by a #line directive, so compiler messages count lines in the caller's text.
 * Self-contained: NVRTC gets no include path. Names starting gpux__ are internal. */
#ifndef GPUX_DIALECT_CUH
#define GPUX_DIALECT_CUH

#define GPUX_CUDA 1
#define GPUX_HAS_FP64 1
#define GPUX_HAS_ATOMIC_I64 1

typedef signed char gpux_i8;
typedef unsigned char gpux_u8;
typedef short gpux_i16;
typedef unsigned short gpux_u16;
typedef int gpux_i32;
typedef unsigned int gpux_u32;
typedef long long gpux_i64;
typedef unsigned long long gpux_u64;
typedef float gpux_f32;
typedef double gpux_f64;

#define GPUX_KERNEL extern "C" __global__ void
#define GPUX_GLOBAL
#define GPUX_FUNC __device__ inline
#define GPUX_RESTRICT __restrict__
#define GPUX_LOCAL_ARRAY(T, name, n) __shared__ T name[n]
#define GPUX_LOCAL_PTR(T) gpux_local_ptr<T>

/* The dynamic shared memory of the launch. The backend puts the launch's shared_bytes
 * first, then each GPUX_LOCAL_PTR argument's block (16-byte aligned), and passes the
 * block's byte offset as the parameter: a 4-byte struct, so the kernel's parameter list
 * has the layout the backend fills. */
extern __shared__ __align__(16) unsigned char gpux__dyn_shared[];

template <class T> struct gpux_local_ptr {
  unsigned int off; /* bytes from the start of the dynamic shared memory */
  __device__ __forceinline__ T *get() const {
    return reinterpret_cast<T *>(gpux__dyn_shared + off);
  }
  /* used as a pointer: p[i], p + k, *p, T *q = p, atomics on p + i */
  __device__ __forceinline__ operator T *() const { return get(); }
  __device__ __forceinline__ T *operator->() const { return get(); }
  /* a template, so that no index type makes it ambiguous with the built-in subscript of
   * the converted pointer */
  template <class I> __device__ __forceinline__ T &operator[](I i) const { return get()[i]; }
};

/* ---- indexing: d is 0, 1 or 2; every value is a gpux_i64 */
__device__ __forceinline__ gpux_i64 gpux__pick(const uint3 &v, int d) {
  return (gpux_i64)(d == 0 ? v.x : (d == 1 ? v.y : v.z));
}
__device__ __forceinline__ gpux_i64 gpux__pick(const dim3 &v, int d) {
  return (gpux_i64)(d == 0 ? v.x : (d == 1 ? v.y : v.z));
}
#define GPUX_LOCAL_ID(d) gpux__pick(threadIdx, (d))
#define GPUX_GROUP_ID(d) gpux__pick(blockIdx, (d))
#define GPUX_LOCAL_SIZE(d) gpux__pick(blockDim, (d))
#define GPUX_NUM_GROUPS(d) gpux__pick(gridDim, (d))
#define GPUX_GLOBAL_ID(d) (GPUX_GROUP_ID(d) * GPUX_LOCAL_SIZE(d) + GPUX_LOCAL_ID(d))
#define GPUX_GLOBAL_SIZE(d) (GPUX_NUM_GROUPS(d) * GPUX_LOCAL_SIZE(d))

#define GPUX_BARRIER() __syncthreads()

/* ---- atomics: the old value. Functions rather than casts, so a pointer of the wrong
 * type is a compile error; local pointers (GPUX_LOCAL_ARRAY, GPUX_LOCAL_PTR) convert.
 * Templates (of nothing) so that only the ones a program uses are instantiated: CUDA's
 * atomics put a device global into every program that instantiates them. */
#define GPUX__ATOMIC template <int = 0> __device__ __forceinline__
GPUX__ATOMIC int gpux__atomic_add_i32(int *p, int v) { return atomicAdd(p, v); }
GPUX__ATOMIC unsigned int gpux__atomic_add_u32(unsigned int *p, unsigned int v) {
  return atomicAdd(p, v);
}
GPUX__ATOMIC int gpux__atomic_sub_i32(int *p, int v) { return atomicSub(p, v); }
GPUX__ATOMIC int gpux__atomic_min_i32(int *p, int v) { return atomicMin(p, v); }
GPUX__ATOMIC int gpux__atomic_max_i32(int *p, int v) { return atomicMax(p, v); }
GPUX__ATOMIC int gpux__atomic_xchg_i32(int *p, int v) { return atomicExch(p, v); }
GPUX__ATOMIC int gpux__atomic_cas_i32(int *p, int cmp, int v) { return atomicCAS(p, cmp, v); }
GPUX__ATOMIC float gpux__atomic_add_f32(float *p, float v) { return atomicAdd(p, v); }
GPUX__ATOMIC long long gpux__atomic_add_i64(long long *p, long long v) {
  /* two's complement: the unsigned sum has the signed sum's bits */
  return (long long)atomicAdd(reinterpret_cast<unsigned long long *>(p),
                              (unsigned long long)v);
}
#undef GPUX__ATOMIC
#define GPUX_ATOMIC_ADD_I32(p, v) gpux__atomic_add_i32((p), (v))
#define GPUX_ATOMIC_ADD_U32(p, v) gpux__atomic_add_u32((p), (v))
#define GPUX_ATOMIC_SUB_I32(p, v) gpux__atomic_sub_i32((p), (v))
#define GPUX_ATOMIC_MIN_I32(p, v) gpux__atomic_min_i32((p), (v))
#define GPUX_ATOMIC_MAX_I32(p, v) gpux__atomic_max_i32((p), (v))
#define GPUX_ATOMIC_XCHG_I32(p, v) gpux__atomic_xchg_i32((p), (v))
#define GPUX_ATOMIC_CAS_I32(p, cmp, v) gpux__atomic_cas_i32((p), (cmp), (v))
#define GPUX_ATOMIC_ADD_F32(p, v) gpux__atomic_add_f32((p), (v))
#define GPUX_ATOMIC_ADD_F32_LOCAL(p, v) gpux__atomic_add_f32((p), (v))
#define GPUX_ATOMIC_ADD_I64(p, v) gpux__atomic_add_i64((p), (v))

/* ---- math: CUDA has sqrt, rsqrt, exp, log, sin, cos, tan, tanh, fabs, floor, ceil, fmin,
 * fmax, pow, fma overloaded for float and double (rsqrt(float) too: crt/math_functions.hpp,
 * in every NVRTC), and min/max for integers: nothing to add */

#endif
