#include "gpux_kernels.h"
#include "gpux_cl_prelude.h"
#include "gpux_half.h"
#include "gpux_sort.h"
#include "gpux_select.h"
/* gpux OpenCL kernels, select family (OpenCL C 1.2): searchsorted and the radix select of
 * top-k, partition, median and quantile (the algorithm and every kernel's contract:
 * kernels/common/gpux_select.h). The kernels themselves are kernels/common/
 * gpux_select_kernels.h, the same text kernels/cuda/select.cu compiles: this file defines
 * the OpenCL dialect it is written in.
 * Keys are read as unsigned words of their width (U), offsets in elements.
 *
 *   gpux_select_ss_<dt>(global const U *s, long s_off, long ne, global const U *q,
 *       long q_off, long n, int right, global long *out, long o_off)
 *   gpux_select_hist_<dt>(global const U *x, long x_off, long len, long gpr, int nt,
 *       int shift, uint flags, global const ulong *st, global uint *hist)
 *   gpux_select_pick(global ulong *st, global uint *hist, global const long *rk, long n,
 *       int nt, int shift, int first)
 *   gpux_select_cnt_<dt>(global const U *x, long x_off, long len, long tpr, uint flags,
 *       global const ulong *st, global long *cnt, long rows)
 *   gpux_select_scan(global long *cnt, global ulong *st, long rows, long tpr)
 *   gpux_select_emit_<dt>(global const U *x, long x_off, long len, long tpr, uint flags,
 *       global const ulong *st, global const long *cnt, int mode, long k,
 *       global U *vals, long v_off, global long *idx, long i_off, int has_v, int has_i,
 *       long rows)
 *   gpux_select_rank_<dt>(global const U *tv, global const long *ti, long rows, long k,
 *       uint flags, global U *vals, long v_off, global long *idx, long i_off)
 *   gpux_select_h12_<dt>(global const U *x, long x_off, long len, long gpr, long hk,
 *       uint flags, global uint *hist, global uint *hb, long rows)
 *   gpux_select_pick12(global const uint *hist, long r, global ulong *pc, long rows)
 *   gpux_select_gcnt(global const uint *hb, global const ulong *pc, global uint *gc,
 *       long gpr, long rows)
 *   gpux_select_gather_<dt>(global const U *x, long x_off, long len, long gpr, long hk,
 *       uint flags, global const ulong *pc, long pcs, int s12, global const uint *gc,
 *       global const uint *cb, long capg, global U *cand, global long *cpos, long cstride,
 *       long rows)
 *   gpux_select_ssel_<dt>(global const U *x, long x_off, long len, long ns, long r,
 *       uint flags, global ulong *st, long rows)
 *   gpux_select_filt_<dt>(global const U *x, long x_off, long len, long gpr, long hk,
 *       uint flags, global const ulong *st, global uint *cb, long capg, global uint *gc,
 *       global uint *tot, long rows)
 *   gpux_select_map(global long *idx, long i_off, global const long *cpos, long c_off, long n)
 *   gpux_select_qfin_<dt>(global const ulong *st, global const long *rk,
 *       global const double *gam, long rows, int nq, int mode, global C *out, long o_off,
 *       long ostride)   out[o_off + q * ostride + row]
 * hist: work-groups of GPUX_SEL_THREADS, gpr groups a row (GPUX_SEL_HE keys a work-item:
 * 16 in the GPU form, 1 in the CPU form, where pocl vectorizes across work-items); cnt and
 * emit: a work-group of GPUX_SEL_THREADS per tile of GPUX_SEL_TILE keys (GPU form) or a
 * work-item per tile (CPU form); h12, gcnt, gather and filt: a work-group of
 * GPUX_SEL_THREADS per hk keys (GPU form) or a work-item (in work-groups of one) per hk keys
 * (CPU form); ssel: a work-group of GPUX_SEL_THREADS per row (both forms); ss, pick,
 * pick12, map, scan, rank, qfin: a work-item each. */
#pragma OPENCL FP_CONTRACT OFF

#if defined(GPUX_CL_CPU) && GPUX_CL_CPU
#define GPUX_SEL_HE 1
#define GPUX_SEL_SERIAL 1
#else
#define GPUX_SEL_HE 16
#define GPUX_SEL_SERIAL 0
#endif
#define GPUX_SK __kernel void
#define GPUX_SG __global
#define GPUX_SL __local
#define GPUX_SLP __local
#define GPUX_SSYNC() barrier(CLK_LOCAL_MEM_FENCE)
#define GPUX_SGID() ((long)get_global_id(0))
#define GPUX_SGRP() ((long)get_group_id(0))
#define GPUX_SLID() ((int)get_local_id(0))
#define GPUX_SATOM(p, v) atomic_add((p), (v))
#define GPUX_SFN static inline
#define GPUX_SI64 long
#define GPUX_SNAN_F32 as_float(0x7fc00000u)
#define GPUX_SNAN_F64 as_double(0x7ff8000000000000UL)
#define GPUX_SEL_VAL_f32(b) as_float((uint)(b))
#define GPUX_SEL_VAL_f16(b) as_float(gpux_f16_to_f32((ushort)(b)))
#define GPUX_SEL_VAL_bf16(b) as_float(gpux_bf16_to_f32((ushort)(b)))
#define GPUX_SEL_VAL_f64(b) as_double(b)
#define GPUX_SEL_VAL_i8(b) (double)(char)(b)
#define GPUX_SEL_VAL_i16(b) (double)(short)(b)
#define GPUX_SEL_VAL_i32(b) (double)(int)(b)
#define GPUX_SEL_VAL_i64(b) (double)(long)(b)
#define GPUX_SEL_VAL_u8(b) (double)(uint)(b)
#define GPUX_SEL_VAL_b8(b) (double)(uint)(b)
#define GPUX_SEL_VAL_u16(b) (double)(uint)(b)
#define GPUX_SEL_VAL_u32(b) (double)(uint)(b)
#define GPUX_SEL_VAL_u64(b) (double)(b)
/* qfin computes in double for every dtype but float32 and the halves */
#define GPUX_SEL_QFIN_ON_f32(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_f16(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_bf16(M, dt) M(dt)
#ifdef GPUX_HAVE_FP64
#define GPUX_SEL_QFIN_ON_D_(M, dt) M(dt)
#else
#define GPUX_SEL_QFIN_ON_D_(M, dt)
#endif
#define GPUX_SEL_QFIN_ON_f64(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_i8(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_i16(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_i32(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_i64(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_u8(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_b8(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_u16(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_u32(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_u64(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)

#include "gpux_select_kernels.h"
