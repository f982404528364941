/* gpux kernel dialect, OpenCL prelude (docs/kernels.md): put in front of every
 * GPUX_SOURCE_DIALECT program by the OpenCL backend (embedded at build time), followed by
 * a #line directive. kernels/cuda/gpux_dialect.cuh defines the same names for CUDA.
 * OpenCL C 1.2, no variadic macros (NVIDIA's compiler rejects them). */
#ifndef GPUX_DIALECT_H
#define GPUX_DIALECT_H
#define GPUX_OPENCL 1

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define GPUX_HAS_FP64 1
#else
#define GPUX_HAS_FP64 0
#endif
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define GPUX_HAS_ATOMIC_I64 1
#else
#define GPUX_HAS_ATOMIC_I64 0
#endif

typedef char gpux_i8;
typedef short gpux_i16;
typedef int gpux_i32;
typedef long gpux_i64;
typedef uchar gpux_u8;
typedef ushort gpux_u16;
typedef uint gpux_u32;
typedef ulong gpux_u64;
typedef float gpux_f32;
#if GPUX_HAS_FP64
typedef double gpux_f64;
#endif

#define GPUX_KERNEL __kernel void
#define GPUX_GLOBAL __global
#define GPUX_LOCAL_PTR(T) __local T *
#define GPUX_LOCAL_ARRAY(T, name, n) __local T name[n]
#define GPUX_FUNC inline
#define GPUX_RESTRICT restrict

/* no global work offset is ever used, so get_global_id(d) == group id * local size + local
 * id, as on CUDA */
#define GPUX_GLOBAL_ID(d) ((gpux_i64)get_global_id(d))
#define GPUX_LOCAL_ID(d) ((gpux_i64)get_local_id(d))
#define GPUX_GROUP_ID(d) ((gpux_i64)get_group_id(d))
#define GPUX_LOCAL_SIZE(d) ((gpux_i64)get_local_size(d))
#define GPUX_NUM_GROUPS(d) ((gpux_i64)get_num_groups(d))
#define GPUX_GLOBAL_SIZE(d) ((gpux_i64)get_global_size(d))

#define GPUX_BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

/* Atomics return the old value. The integer ones are OpenCL's overloaded atomic_* (global
 * and local pointers alike). */
#define GPUX_ATOMIC_ADD_I32(p, v) atomic_add((p), (int)(v))
#define GPUX_ATOMIC_ADD_U32(p, v) atomic_add((p), (uint)(v))
#define GPUX_ATOMIC_SUB_I32(p, v) atomic_sub((p), (int)(v))
#define GPUX_ATOMIC_MIN_I32(p, v) atomic_min((p), (int)(v))
#define GPUX_ATOMIC_MAX_I32(p, v) atomic_max((p), (int)(v))
#define GPUX_ATOMIC_XCHG_I32(p, v) atomic_xchg((p), (int)(v))
#define GPUX_ATOMIC_CAS_I32(p, cmp, val) atomic_cmpxchg((p), (int)(cmp), (int)(val))
/* float add: OpenCL 1.2 has none; a compare-exchange loop on the bits (bits, not values,
 * are compared, so a NaN in memory cannot make it spin) */
#define GPUX__ATOMIC_ADD_F32_DEF(name, AS)                                              \
  static inline float name(volatile AS float *p, float v) {                            \
    volatile AS uint *u = (volatile AS uint *)p;                                       \
    uint old = *u, seen;                                                               \
    do {                                                                               \
      seen = old;                                                                      \
      old = atomic_cmpxchg(u, seen, as_uint(as_float(seen) + v));                      \
    } while (old != seen);                                                             \
    return as_float(old);                                                              \
  }
GPUX__ATOMIC_ADD_F32_DEF(gpux__atomic_add_f32_global, __global)
GPUX__ATOMIC_ADD_F32_DEF(gpux__atomic_add_f32_local, __local)
#undef GPUX__ATOMIC_ADD_F32_DEF
#define GPUX_ATOMIC_ADD_F32(p, v) gpux__atomic_add_f32_global((p), (float)(v))
#define GPUX_ATOMIC_ADD_F32_LOCAL(p, v) gpux__atomic_add_f32_local((p), (float)(v))
#if GPUX_HAS_ATOMIC_I64
#define GPUX_ATOMIC_ADD_I64(p, v) atom_add((p), (long)(v))
#endif

/* Math: OpenCL C has the overloads the dialect lists (sqrt, rsqrt, exp, ..., min, max). */
#endif
