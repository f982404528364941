/* gpux CUDA kernels, select family: searchsorted and the radix select of top-k, partition,
 * median and quantile (the algorithm and the contracts: kernels/common/gpux_select.h; the
 * signatures: kernels/cl/select.cl, with long = long long and pointers already offset where
 * the OpenCL kernels take an offset argument, which the CUDA kernels take too, as 0 or the
 * element offset: the same parameter lists). The kernels are kernels/common/
 * gpux_select_kernels.h, the same text the OpenCL set compiles: this file defines the CUDA
 * dialect. Built with -fmad=false (qfin's interpolation: no contraction, as OpenCL's
 * FP_CONTRACT OFF). Blocks of GPUX_SEL_THREADS; hist takes 16 keys a thread (the OpenCL GPU
 * form's count). */
#include "gpux_kernels.h"
#include "gpux_half.h"
#include "gpux_sort.h"
#include "gpux_select.h"

#define GPUX_SEL_HE 16
#define GPUX_SEL_SERIAL 0
#define GPUX_SK extern "C" __global__ void __launch_bounds__(GPUX_SEL_THREADS)
#define GPUX_SG
#define GPUX_SL __shared__
#define GPUX_SLP
#define GPUX_SSYNC() __syncthreads()
#define GPUX_SGID() ((long long)blockIdx.x * blockDim.x + threadIdx.x)
#define GPUX_SGRP() ((long long)blockIdx.x)
#define GPUX_SLID() ((int)threadIdx.x)
#define GPUX_SATOM(p, v) atomicAdd((p), (v))
#define GPUX_SFN static __device__ __forceinline__
#define GPUX_SI64 long long
#define GPUX_SNAN_F32 __int_as_float(0x7fc00000)
#define GPUX_SNAN_F64 __longlong_as_double(0x7ff8000000000000LL)
#define GPUX_SEL_VAL_f32(b) __uint_as_float((unsigned)(b))
#define GPUX_SEL_VAL_f16(b) __uint_as_float(gpux_f16_to_f32((unsigned short)(b)))
#define GPUX_SEL_VAL_bf16(b) __uint_as_float(gpux_bf16_to_f32((unsigned short)(b)))
#define GPUX_SEL_VAL_f64(b) __longlong_as_double((long long)(b))
#define GPUX_SEL_VAL_i8(b) (double)(signed char)(b)
#define GPUX_SEL_VAL_i16(b) (double)(short)(b)
#define GPUX_SEL_VAL_i32(b) (double)(int)(b)
#define GPUX_SEL_VAL_i64(b) (double)(long long)(b)
#define GPUX_SEL_VAL_u8(b) (double)(unsigned)(b)
#define GPUX_SEL_VAL_b8(b) (double)(unsigned)(b)
#define GPUX_SEL_VAL_u16(b) (double)(unsigned)(b)
#define GPUX_SEL_VAL_u32(b) (double)(unsigned)(b)
#define GPUX_SEL_VAL_u64(b) (double)(b)
#define GPUX_SEL_QFIN_ON_f32(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_f16(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_bf16(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_f64(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_i8(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_i16(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_i32(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_i64(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_u8(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_b8(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_u16(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_u32(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_u64(M, dt) M(dt)

#include "gpux_select_kernels.h"
