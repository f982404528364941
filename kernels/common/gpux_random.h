/* gpux random numbers: the Philox4x32-10 engine and every mapping from its 32-bit words to
 * values, written once and compiled three ways: C11 (libgpux's host implementation, which
 * the public gpux_random_*_host calls and the tests use), CUDA C++ (kernels/cuda/random.cu)
 * and OpenCL C (kernels/cl/random.cl). Because all three run this same text, and it uses
 * only operations IEEE 754 defines exactly (integer arithmetic, float add / multiply /
 * fma rounded to nearest, conversions of integers that are exact, and for float64 also
 * division and square root, which OpenCL requires to be correctly rounded in double), a
 * value is the same bits on every backend, device and host. No vendor math library
 * function is called and nothing depends on a*b+c contraction: CUDA uses the _rn
 * intrinsics, OpenCL turns FP_CONTRACT off, C builds this file with -ffp-contract=off.
 *
 * THE STREAM (include/gpux/random.h documents it for users). A generator is (seed, stream,
 * position). Word g (g = 0, 1, 2, ...) of the stream is word g % 4 of
 *     Philox4x32-10(counter = {B lo, B hi, stream lo, stream hi}, key = {seed lo, seed hi}),
 *     B = g / 4 (64-bit).
 * A draw of n values starts at word P = position; value i uses the words
 *     P + WPV * i ... P + WPV * i + WPV - 1            (WPV words per value)
 * except float64 normals, made in pairs: pair m = i / 2 uses the 4 words from P + 4m, and
 * gives value 2m (cosine branch) and 2m + 1 (sine branch). The draw consumes WPV * n words
 * (float64 normals: whole pairs) and the position advances by that much. Value i therefore
 * depends only on (seed, stream, P, i).
 * Streams are below 2^63: counters with the top bit of word 3 set are the retry space of
 * integer draws (below).
 *
 * Mappings (a, b, c, d: consecutive words; x64 = a | b << 32):
 *   uniform float32  [0, 1):  (a >> 8) * 2^-24                         (WPV 1)
 *   uniform float64  [0, 1):  (x64 >> 11) * 2^-53                      (WPV 2)
 *     [low, high): fma(u, high - low, low), and high itself (a rounding) replaced by the
 *     largest value below it; the three constants are the dtype's (host-rounded).
 *   normal float32 (WPV 1): the 4096-layer ziggurat (gpux_r_zig_*): layer a & 4095, sign
 *     bit 12, m = a >> 13; accepted at once (m < k_i, about 99.88%) as +-m w_i (rounded; +0
 *     for m = 0 whatever the sign), else the wedge or tail test and new candidates from the
 *     value's retry chain (below, as for integers), with gpux's own ln and exp (polynomials,
 *     tools/random_poly.py); then fma(z, std, mean).
 *   normal float64 (pairs, 4 words): Box-Muller, u1 = ((x64(a,b) >> 11) | 1) 2^-53 in (0, 1),
 *     r = sqrt(-2 ln u1); the angle from (c, d): an octant (bits 31, 30 of d: signs, bit 29:
 *     swap) and phi = (pi / 2) y, y = ((x64(c,d) >> 11) & (2^50 - 1)) 2^-51 in [0, 1/2);
 *     values r x0, r x1 for the point (x0, x1) = (+-cos phi, +-sin phi) or (+-sin phi,
 *     +-cos phi); ln through s = f / (2 + f) (double division and sqrt are correctly
 *     rounded everywhere), sin and cos polynomials in y^2; then fma(z, std, mean).
 *   integers in [low, low + range), Lemire's multiply-shift with rejection (no modulo
 *     bias): dtypes of up to 32 bits (int8 ... uint32: the same values as int32 for the
 *     same range, stored in the dtype): a 64-bit candidate x = x64 (WPV 2): value
 *     low + hi64(x * range),
 *     rejected when lo64(x * range) < 2^64 mod range (probability < 2^-32); int64: a
 *     128-bit candidate from 4 words (WPV 4; uint64 too), value low + floor(x * range / 2^128),
 *     rejected when (x * range) mod 2^128 < 2^128 mod range (probability < 2^-64); range
 *     2^64 (uint64's whole range, held as 0): the value is low + hi64 of x, never rejected.
 *     A rejected value i draws again from its retry chain: counter {g lo, g hi, stream lo,
 *     stream hi | 2^31} with g = P + WPV * i, then each next block's counter is the last
 *     output with bit 31 of word 3 set; candidates are taken from each block in order.
 *     (Float32 normals use the same chains: block 0's words y, z are the auxiliary uniforms
 *     of the value's own word; block k >= 1 gives a new candidate x and its auxiliaries.)
 *   bernoulli(p): a < t, t = round(p * 2^32) in [0, 2^32]                 (WPV 1)
 */
#ifndef GPUX_RANDOM_H
#define GPUX_RANDOM_H

/* ---- portability ---------------------------------------------------------------------- */
#if defined(__OPENCL_VERSION__)
#define GPUX_RFN static inline
typedef uint gpux_u32;
typedef ulong gpux_u64;
typedef int gpux_i32;
typedef long gpux_i64;
typedef char gpux_r_i8;
typedef short gpux_r_i16;
typedef uchar gpux_r_u8;
typedef ushort gpux_r_u16;
#define GPUX_R_MULHI32(a, b) mul_hi((uint)(a), (uint)(b))
#define GPUX_R_MULHI64(a, b) mul_hi((ulong)(a), (ulong)(b))
#define GPUX_R_F2U(x) as_uint(x)
#define GPUX_R_U2F(x) as_float(x)
#define GPUX_R_FMUL(a, b) ((a) * (b))
#define GPUX_R_FADD(a, b) ((a) + (b))
#define GPUX_R_FMA(a, b, c) fma((float)(a), (float)(b), (float)(c))
#define GPUX_R_RINT(a) rint((float)(a))
#ifdef GPUX_HAVE_FP64
#define GPUX_R_HAVE_F64 1
#define GPUX_R_D2U(x) as_ulong(x)
#define GPUX_R_U2D(x) as_double(x)
#define GPUX_R_DMUL(a, b) ((a) * (b))
#define GPUX_R_DADD(a, b) ((a) + (b))
#define GPUX_R_DDIV(a, b) ((a) / (b))
#define GPUX_R_DSQRT(a) sqrt((double)(a))
#define GPUX_R_DFMA(a, b, c) fma((double)(a), (double)(b), (double)(c))
#endif
#elif defined(__CUDACC__)
#define GPUX_RFN static __device__ __forceinline__
typedef unsigned int gpux_u32;
typedef unsigned long long gpux_u64;
typedef int gpux_i32;
typedef long long gpux_i64;
typedef signed char gpux_r_i8;
typedef short gpux_r_i16;
typedef unsigned char gpux_r_u8;
typedef unsigned short gpux_r_u16;
#define GPUX_R_MULHI32(a, b) __umulhi((a), (b))
#define GPUX_R_MULHI64(a, b) __umul64hi((a), (b))
#define GPUX_R_F2U(x) __float_as_uint(x)
#define GPUX_R_U2F(x) __uint_as_float(x)
#define GPUX_R_FMUL(a, b) __fmul_rn((a), (b))
#define GPUX_R_FADD(a, b) __fadd_rn((a), (b))
#define GPUX_R_FMA(a, b, c) __fmaf_rn((a), (b), (c))
#define GPUX_R_RINT(a) rintf(a)
#define GPUX_R_HAVE_F64 1
#define GPUX_R_D2U(x) ((unsigned long long)__double_as_longlong(x))
#define GPUX_R_U2D(x) __longlong_as_double((long long)(x))
#define GPUX_R_DMUL(a, b) __dmul_rn((a), (b))
#define GPUX_R_DADD(a, b) __dadd_rn((a), (b))
#define GPUX_R_DDIV(a, b) __ddiv_rn((a), (b))
#define GPUX_R_DSQRT(a) __dsqrt_rn(a)
#define GPUX_R_DFMA(a, b, c) __fma_rn((a), (b), (c))
#else /* C11 host */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "gpux_random.h needs float and double evaluated in their own precision (FLT_EVAL_METHOD 0)"
#endif
#define GPUX_RFN static inline
typedef uint32_t gpux_u32;
typedef uint64_t gpux_u64;
typedef int32_t gpux_i32;
typedef int64_t gpux_i64;
typedef int8_t gpux_r_i8;
typedef int16_t gpux_r_i16;
typedef uint8_t gpux_r_u8;
typedef uint16_t gpux_r_u16;
#define GPUX_R_MULHI32(a, b) ((gpux_u32)(((gpux_u64)(a) * (gpux_u64)(b)) >> 32))
#define GPUX_R_MULHI64(a, b) gpux_r_mulhi64_host((a), (b))
static inline gpux_u64 gpux_r_mulhi64_host(gpux_u64 a, gpux_u64 b) {
#if defined(__SIZEOF_INT128__)
  return (gpux_u64)(((unsigned __int128)a * b) >> 64);
#else
  const gpux_u64 al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
  const gpux_u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  const gpux_u64 mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}
static inline gpux_u32 gpux_r_f2u_host(float x) {
  gpux_u32 u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static inline float gpux_r_u2f_host(gpux_u32 u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}
static inline gpux_u64 gpux_r_d2u_host(double x) {
  gpux_u64 u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static inline double gpux_r_u2d_host(gpux_u64 u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}
#define GPUX_R_F2U(x) gpux_r_f2u_host(x)
#define GPUX_R_U2F(x) gpux_r_u2f_host(x)
#define GPUX_R_FMUL(a, b) ((float)(a) * (float)(b))
#define GPUX_R_FADD(a, b) ((float)(a) + (float)(b))
#define GPUX_R_FMA(a, b, c) fmaf((a), (b), (c))
#define GPUX_R_RINT(a) rintf(a) /* the default rounding mode: to nearest even */
#define GPUX_R_HAVE_F64 1
#define GPUX_R_D2U(x) gpux_r_d2u_host(x)
#define GPUX_R_U2D(x) gpux_r_u2d_host(x)
#define GPUX_R_DMUL(a, b) ((double)(a) * (double)(b))
#define GPUX_R_DADD(a, b) ((double)(a) + (double)(b))
#define GPUX_R_DDIV(a, b) ((double)(a) / (double)(b))
#define GPUX_R_DSQRT(a) sqrt(a)
#define GPUX_R_DFMA(a, b, c) fma((a), (b), (c))
#endif

#include "gpux_ziggurat.h"

/* ---- draw kinds, words per value -------------------------------------------------------- */
/* X(kind, id, dtype list). Kernels: gpux_random_<kind>_<dt>. ids equal GPUX_RANDOM_* of
 * include/gpux/random.h. */
#define GPUX_DT_RINT(M, a) GPUX_DT_INTEGER(M, a)
#define GPUX_DT_RBOOL(M, a) M(a, b8)
#define GPUX_RANDOM_KINDS(X)       \
  X(uniform, 0, GPUX_DT_FLOAT)     \
  X(normal, 1, GPUX_DT_FLOAT)      \
  X(integers, 2, GPUX_DT_RINT)     \
  X(bernoulli, 3, GPUX_DT_RBOOL)
#define GPUX_RANDOM_KIND_COUNT 4
#define GPUX_RKID_uniform 0
#define GPUX_RKID_normal 1
#define GPUX_RKID_integers 2
#define GPUX_RKID_bernoulli 3
#define GPUX_RK_UNIFORM 0
#define GPUX_RK_NORMAL 1
#define GPUX_RK_INTEGERS 2
#define GPUX_RK_BERNOULLI 3

/* Words per value (normals: per value of a pair). One Philox block (4 words) gives
 * 4 / GPUX_R_WPV values. dt: GPUX_KDT_* ids. */
#define GPUX_R_WPV(kind, dt)                                                          \
  ((kind) == GPUX_RK_BERNOULLI ? 1                                                     \
   : (kind) == GPUX_RK_INTEGERS ? ((dt) == GPUX_KDT_i64 || (dt) == GPUX_KDT_u64 ? 4 : 2) \
                                : ((dt) == GPUX_KDT_f64 ? 2 : 1))

/* Launch parameters, passed by value to every random kernel; only 64-bit fields so the
 * host, CUDA and OpenCL layouts agree. Float parameters travel as the bits of the output
 * dtype (float32 in the low 32 bits), so OpenCL devices without fp64 can take the struct. */
typedef struct gpux_rparams {
  gpux_u64 n;       /* values to write */
  gpux_u64 nblocks; /* relative blocks: ceil(words / 4) */
  gpux_u64 pos;     /* first word P */
  gpux_u64 stream;  /* < 2^63 */
  gpux_u64 seed;
  gpux_u64 pa, pb, pc, pd; /* uniform: low, high - low, high, the largest value below
                              high; normal: mean, std (bits of the output dtype);
                              float32 normal: pc, the GPU kernels' queue settings
                              (GPUX_R_ZIG_TUNE, set by the backends; no effect on values)
                              and pd = GPUX_R_PRE(stream) (set by the backends too) */
  gpux_u64 low;        /* integers: low (two's complement) */
  gpux_u64 range;      /* integers: high - low (>= 1; 0 stands for 2^64, 128-bit path) */
  gpux_u64 thr;        /* integers: 2^64 (int32) / 2^128 (int64) mod range;
                          bernoulli: round(p * 2^32) */
} gpux_rparams;

/* ---- the engine ------------------------------------------------------------------------- */
/* OpenCL with -DGPUX_CL_NO_STRUCT_RETURN (tests/oclgrind.sh): a vector (the same members
 * x, y, z, w). A function that returns a struct gets an sret pointer there, which LLVM's
 * inliner marks with llvm.experimental.noalias.scope.decl, and oclgrind 21.10 cannot run
 * that; vectors are returned as values. Devices keep the struct (the measured speed). */
#if defined(__OPENCL_VERSION__) && defined(GPUX_CL_NO_STRUCT_RETURN)
typedef uint4 gpux_r4;
#else
typedef struct gpux_r4 {
  gpux_u32 x, y, z, w;
} gpux_r4;
#endif
/* two words as one 64-bit value, the first the low half */
GPUX_RFN gpux_u64 gpux_r_x64(gpux_u32 lo, gpux_u32 hi) { return (gpux_u64)lo | ((gpux_u64)hi << 32); }

#define GPUX_R_PHILOX_M0 0xD2511F53u
#define GPUX_R_PHILOX_M1 0xCD9E8D57u
#define GPUX_R_PHILOX_W0 0x9E3779B9u
#define GPUX_R_PHILOX_W1 0xBB67AE85u
/* one round with key (k0, k1) */
#define GPUX_R_PHILOX_ROUND(c, k0, k1)                                  \
  do {                                                                  \
    const gpux_u32 lo0_ = GPUX_R_PHILOX_M0 * (c).x;                     \
    const gpux_u32 hi0_ = GPUX_R_MULHI32(GPUX_R_PHILOX_M0, (c).x);      \
    const gpux_u32 lo1_ = GPUX_R_PHILOX_M1 * (c).z;                     \
    const gpux_u32 hi1_ = GPUX_R_MULHI32(GPUX_R_PHILOX_M1, (c).z);      \
    (c).x = hi1_ ^ (c).y ^ (k0);                                        \
    (c).y = lo1_;                                                       \
    (c).z = hi0_ ^ (c).w ^ (k1);                                        \
    (c).w = lo0_;                                                       \
  } while (0)

/* The first round's product of the counter's word z, (M1 * z) as hi:lo. Where z is the same
 * for many blocks (the stream's low word), a caller passes it precomputed (the *_p forms):
 * the GPU kernels' float32 normals get it in p->pd (GPUX_R_PRE_PD), which saves their loop
 * the two multiplies a block that ptxas would otherwise redo in every round. */
#define GPUX_R_PRE(z) ((gpux_u64)GPUX_R_PHILOX_M1 * (gpux_u64)(gpux_u32)(z))

/* The ten rounds' keys of a key (k0, k1) = (low, high word of the seed): round r's are
 * k0 + r W0, k1 + r W1. Loops that make many blocks of one seed compute them once, or take
 * them from the host (kernels/cl/random.cl). */
typedef struct gpux_rkeys {
  gpux_u32 k[20];
} gpux_rkeys;
GPUX_RFN gpux_rkeys gpux_r_keys(gpux_u64 seed) {
  gpux_rkeys ks;
  int r;
  for (r = 0; r < 10; ++r) {
    ks.k[2 * r] = (gpux_u32)seed + (gpux_u32)r * GPUX_R_PHILOX_W0;
    ks.k[2 * r + 1] = (gpux_u32)(seed >> 32) + (gpux_u32)r * GPUX_R_PHILOX_W1;
  }
  return ks;
}

/* Rounds 3 to 10 of Philox4x32-10 (keys ks->k[4 ..]) */
GPUX_RFN gpux_r4 gpux_r_philox_tail(gpux_r4 c, const gpux_rkeys *ks) {
  GPUX_R_PHILOX_ROUND(c, ks->k[4], ks->k[5]);
  GPUX_R_PHILOX_ROUND(c, ks->k[6], ks->k[7]);
  GPUX_R_PHILOX_ROUND(c, ks->k[8], ks->k[9]);
  GPUX_R_PHILOX_ROUND(c, ks->k[10], ks->k[11]);
  GPUX_R_PHILOX_ROUND(c, ks->k[12], ks->k[13]);
  GPUX_R_PHILOX_ROUND(c, ks->k[14], ks->k[15]);
  GPUX_R_PHILOX_ROUND(c, ks->k[16], ks->k[17]);
  GPUX_R_PHILOX_ROUND(c, ks->k[18], ks->k[19]);
  return c;
}

/* Philox4x32-10 (Salmon et al., SC11; Random123's philox4x32 with 10 rounds), with the first
 * round's product pre = GPUX_R_PRE(c.z) and the round keys ks */
GPUX_RFN gpux_r4 gpux_r_philox_pk(gpux_r4 c, gpux_u64 pre, const gpux_rkeys *ks) {
  { /* GPUX_R_PHILOX_ROUND(c, k0, k1), M1 * c.z from pre */
    const gpux_u32 lo0 = GPUX_R_PHILOX_M0 * c.x, hi0 = GPUX_R_MULHI32(GPUX_R_PHILOX_M0, c.x);
    c.x = (gpux_u32)(pre >> 32) ^ c.y ^ ks->k[0];
    c.y = (gpux_u32)pre;
    c.z = hi0 ^ c.w ^ ks->k[1];
    c.w = lo0;
  }
  GPUX_R_PHILOX_ROUND(c, ks->k[2], ks->k[3]);
  return gpux_r_philox_tail(c, ks);
}
GPUX_RFN gpux_r4 gpux_r_philox(gpux_r4 c, gpux_u32 k0, gpux_u32 k1) {
  const gpux_rkeys ks = gpux_r_keys(gpux_r_x64(k0, k1));
  return gpux_r_philox_pk(c, GPUX_R_PRE(c.z), &ks);
}

/* The stream's Philox block B (words 4B .. 4B + 3); pre = GPUX_R_PRE(stream), ks =
 * gpux_r_keys(seed). */
GPUX_RFN gpux_r4 gpux_r_block_pk(gpux_u64 B, gpux_u64 pre, gpux_u64 stream, const gpux_rkeys *ks) {
  gpux_r4 c;
  c.x = (gpux_u32)B;
  c.y = (gpux_u32)(B >> 32);
  c.z = (gpux_u32)stream;
  c.w = (gpux_u32)(stream >> 32);
  return gpux_r_philox_pk(c, pre, ks);
}
GPUX_RFN gpux_r4 gpux_r_block_p(gpux_u64 B, gpux_u64 pre, gpux_u64 stream, gpux_u64 seed) {
  const gpux_rkeys ks = gpux_r_keys(seed);
  return gpux_r_block_pk(B, pre, stream, &ks);
}
GPUX_RFN gpux_r4 gpux_r_block(gpux_u64 B, gpux_u64 stream, gpux_u64 seed) {
  return gpux_r_block_p(B, GPUX_R_PRE(stream), stream, seed);
}

/* The stream's blocks whose counter has the high word hi. Philox's first round gives them
 * all the same x and y words, so the second round's product of x is theirs too: gpux_r_hk
 * computes it once (with the key and stream words the first two rounds fold in), and
 * gpux_r_block_hk(lo, ...) is then block B = hi << 32 | lo with one multiply of the 20 fewer
 * (the GPU loops of float32 normals). pre = GPUX_R_PRE(stream), ks = gpux_r_keys(seed). */
typedef struct gpux_rhk {
  gpux_u32 z1k; /* round 1: z = hi(M0 x) ^ z1k */
  gpux_u32 x2k; /* round 2: x = hi(M1 z) ^ x2k */
  gpux_u32 z2k; /* round 2: z = w ^ z2k */
  gpux_u32 w2;  /* round 2: w */
} gpux_rhk;
GPUX_RFN gpux_rhk gpux_r_hk(gpux_u32 hi, gpux_u64 pre, gpux_u64 stream, const gpux_rkeys *ks) {
  const gpux_u32 x1 = (gpux_u32)(pre >> 32) ^ hi ^ ks->k[0];
  gpux_rhk h;
  h.z1k = (gpux_u32)(stream >> 32) ^ ks->k[1];
  h.x2k = (gpux_u32)pre ^ ks->k[2];
  h.z2k = GPUX_R_MULHI32(GPUX_R_PHILOX_M0, x1) ^ ks->k[3];
  h.w2 = GPUX_R_PHILOX_M0 * x1;
  return h;
}
GPUX_RFN gpux_r4 gpux_r_block_hk(gpux_u32 lo, const gpux_rhk *h, const gpux_rkeys *ks) {
  const gpux_u32 z1 = GPUX_R_MULHI32(GPUX_R_PHILOX_M0, lo) ^ h->z1k;
  gpux_r4 c;
  c.x = GPUX_R_MULHI32(GPUX_R_PHILOX_M1, z1) ^ h->x2k;
  c.y = GPUX_R_PHILOX_M1 * z1;
  c.z = GPUX_R_PHILOX_M0 * lo ^ h->z2k;
  c.w = h->w2;
  return gpux_r_philox_tail(c, ks);
}

/* Words g .. g + 3 of the stream, g = 4B + sh (0 <= sh < 4): one block when sh == 0, else
 * the tail of block B and the head of block B + 1. */
GPUX_RFN gpux_r4 gpux_r_words4_p(gpux_u64 B, int sh, gpux_u64 pre, gpux_u64 stream,
                                 gpux_u64 seed) {
  gpux_r4 a = gpux_r_block_p(B, pre, stream, seed);
  if (sh != 0) {
    const gpux_r4 b = gpux_r_block_p(B + 1u, pre, stream, seed);
    gpux_r4 r;
    r.x = sh == 1 ? a.y : sh == 2 ? a.z : a.w;
    r.y = sh == 1 ? a.z : sh == 2 ? a.w : b.x;
    r.z = sh == 1 ? a.w : sh == 2 ? b.x : b.y;
    r.w = sh == 1 ? b.x : sh == 2 ? b.y : b.z;
    a = r;
  }
  return a;
}
GPUX_RFN gpux_r4 gpux_r_words4(gpux_u64 B, int sh, gpux_u64 stream, gpux_u64 seed) {
  return gpux_r_words4_p(B, sh, GPUX_R_PRE(stream), stream, seed);
}

/* ---- uniform ---------------------------------------------------------------------------- */
GPUX_RFN float gpux_r_u01_f32(gpux_u32 a) { return (float)(a >> 8) * 0x1p-24f; }
/* u in [0, 1) -> [low, high): fma(u, d, low); a result rounded up to high becomes below,
 * the largest value under high (never for [0, 1)) */
GPUX_RFN float gpux_r_uniform_f32(gpux_u32 a, float low, float d, float high, float below) {
  const float v = GPUX_R_FMA(gpux_r_u01_f32(a), d, low);
  return v < high ? v : below;
}

/* ---- retry chains ------------------------------------------------------------------------ */
/* the first counter of value g's retry chain (g: the value's first word) */
GPUX_RFN gpux_r4 gpux_r_retry_ctr(gpux_u64 g, gpux_u64 stream) {
  gpux_r4 c;
  c.x = (gpux_u32)g;
  c.y = (gpux_u32)(g >> 32);
  c.z = (gpux_u32)stream;
  c.w = (gpux_u32)(stream >> 32) | 0x80000000u;
  return c;
}
#define GPUX_R_RETRY_BLOCKS 64 /* 128 (int32) / 64 (int64) more candidates: never all fail */

/* ---- normal, float32: the ziggurat ------------------------------------------------------
 * Marsaglia & Tsang's ziggurat with GPUX_R_ZIG_N = 4096 layers (the table in gpux_ziggurat.h,
 * made by tools/random_poly.py), the layer from bits separate from the value's (Doornik). A
 * word a gives layer i = a & 4095, sign bit 12, m = a >> 13 (19 bits; GPUX_R_ZIG_BITS sets
 * the split); when m < k_i (about 99.88% of words) the value is +-m w_i, one float multiply.
 * Otherwise the value comes from gpux_r_zig_slow: the wedge test (layers 1..4095) or
 * Marsaglia's tail method (layer 0) with the auxiliary words of retry block 0, then, until
 * one is accepted, a new candidate from each next block of the value's retry chain (word x;
 * auxiliaries y, z). */

/* ln(u) for u = ((a >> 8) | 1) 2^-24, the odd multiples in (0, 1): u = 2^e m with m in
 * [sqrt(1/2), sqrt(2)), ln u = (e - 24) ln 2 + log1p(m - 1), log1p by f + f^2 R(f)
 * (tools/random_poly.py); within 1 ulp (tests/test_random.c checks every input) */
GPUX_RFN float gpux_r_ln24(gpux_u32 a) {
  const gpux_u32 bits = GPUX_R_F2U((float)((a >> 8) | 1u)); /* exact */
  gpux_u32 mb = (bits & 0x007fffffu) | 0x3f800000u;
  int e = (int)(bits >> 23) - 127;
  const int big = mb > 0x3fb504f3u; /* m > sqrt(2) (rounded down) */
  mb = big ? mb - 0x00800000u : mb;
  e += big;
  {
    const float f = GPUX_R_FADD(GPUX_R_U2F(mb), -1.0f); /* exact */
    float p = -0x1.4237fep-4f;
    p = GPUX_R_FMA(p, f, 0x1.06970ep-3f);
    p = GPUX_R_FMA(p, f, -0x1.0c524cp-3f);
    p = GPUX_R_FMA(p, f, 0x1.22973ap-3f);
    p = GPUX_R_FMA(p, f, -0x1.548882p-3f);
    p = GPUX_R_FMA(p, f, 0x1.99a3ecp-3f);
    p = GPUX_R_FMA(p, f, -0x1.000206p-2f);
    p = GPUX_R_FMA(p, f, 0x1.55554ep-2f);
    p = GPUX_R_FMA(p, f, -0x1.fffffep-2f);
    {
      const float l1p = GPUX_R_FMA(GPUX_R_FMUL(f, f), p, f);
      const float k = (float)(e - 24); /* -24 .. 0, exact */
      /* ln 2 = LN2_HI + LN2_LO, LN2_HI with 16 bits so k * LN2_HI is exact */
      return GPUX_R_FADD(GPUX_R_FMUL(k, 0x1.62e4p-1f), GPUX_R_FMA(k, 0x1.7f7d1cp-20f, l1p));
    }
  }
}

/* exp(-q) for 0 <= q < 64: q = k ln 2 + t, |t| <= ln 2 / 2, exp(-t) by a polynomial
 * (tools/random_poly.py), times 2^-k through the exponent bits; within 2 ulp */
GPUX_RFN float gpux_r_expneg(float q) {
  const float kf = GPUX_R_RINT(GPUX_R_FMUL(q, 0x1.715476p+0f));
  float t = GPUX_R_FMA(-kf, 0x1.62e4p-1f, q);
  t = GPUX_R_FMA(-kf, 0x1.7f7d1cp-20f, t);
  {
    float e = 0x1.6da758p-10f;
    e = GPUX_R_FMA(e, t, -0x1.126facp-7f);
    e = GPUX_R_FMA(e, t, 0x1.555464p-5f);
    e = GPUX_R_FMA(e, t, -0x1.555404p-3f);
    e = GPUX_R_FMA(e, t, 0x1.0p-1f);
    e = GPUX_R_FMA(e, t, -1.0f);
    e = GPUX_R_FMA(e, t, 1.0f);
    return GPUX_R_FMUL(e, GPUX_R_U2F((gpux_u32)(127 - (int)kf) << 23));
  }
}

/* The table: [i] = k_i | bits(w_i) << 32 for the GPUX_R_ZIG_N layers (32 KB). The GPU loops
 * read (k_i, wl_i) pairs (GPUX_R_ZIG_WL) from shared / local memory instead (scattered reads
 * of constant memory serialize); the slow path reads this one. */
#if defined(__OPENCL_VERSION__)
__constant gpux_u64 gpux_r_zig_tab[GPUX_R_ZIG_N] = GPUX_R_ZIG_TAB;
#elif defined(__CUDACC__)
/* 16-byte aligned: the kernels copy it in pairs */
__device__ __align__(16) const gpux_u64 gpux_r_zig_tab[GPUX_R_ZIG_N] = GPUX_R_ZIG_TAB;
#else
static const gpux_u64 gpux_r_zig_tab[GPUX_R_ZIG_N] = GPUX_R_ZIG_TAB;
#endif
#define GPUX_R_ZIG_LAYER(a) ((a) & (gpux_u32)(GPUX_R_ZIG_N - 1))
/* the sign bit of word a moved to bit 31 */
#define GPUX_R_ZIG_SIGN(a) (((a) << (31 - GPUX_R_ZIG_BITS)) & 0x80000000u)

/* The value of word a when accepted at once (returns 1), else 0 (*z then meaningless):
 * k, the threshold k_i of layer i = a & 4095, and sw, the bits of +-w_i 2^23 with the value's
 * sign (GPUX_R_ZIG_SW). With f = 1 + m 2^-23 (exact: m < 2^19; its bits are GPUX_R_ZIG_FB),
 * fma(f, sw, -sw) = (f - 1) sw = +-m w_i rounded once, which is the float product m * w_i
 * bit for bit without converting m to float; only m = 0 gives +0 whatever the sign. The
 * test m < k is FB(a) < KF(k). gpux_r_zig_fastf takes FB(a) and KF(k_i) (the GPU kernels
 * keep KF(k_i) in their copy of the table). */
#define GPUX_R_ZIG_ONE 0x3f800000u /* the bits of 1.0f */
#if defined(__CUDACC__) /* one funnel shift: (ONE:a) >> 13 */
#define GPUX_R_ZIG_FB(a) \
  __funnelshift_r((a), GPUX_R_ZIG_ONE >> (32 - GPUX_R_ZIG_MSHIFT), GPUX_R_ZIG_MSHIFT)
#else
#define GPUX_R_ZIG_FB(a) (((a) >> GPUX_R_ZIG_MSHIFT) | GPUX_R_ZIG_ONE)
#endif
#define GPUX_R_ZIG_KF(k) ((k) + GPUX_R_ZIG_ONE)
GPUX_RFN int gpux_r_zig_fastf(gpux_u32 fb, gpux_u32 kf, gpux_u32 sw, float *z) {
  const float s = GPUX_R_U2F(sw);
  *z = GPUX_R_FMA(GPUX_R_U2F(fb), s, -s);
  return fb < kf;
}
GPUX_RFN int gpux_r_zig_fast(gpux_u32 a, gpux_u32 k, gpux_u32 sw, float *z) {
  return gpux_r_zig_fastf(GPUX_R_ZIG_FB(a), GPUX_R_ZIG_KF(k), sw, z);
}
/* bits(w 2^23) = bits(w) + (23 << 23): the table's w_i are normal floats far from overflow */
#define GPUX_R_ZIG_W23(e) ((gpux_u32)((e) >> 32) + ((gpux_u32)23 << 23))
/* sw of gpux_r_zig_fast from the table's entry e of layer a & 4095 */
#define GPUX_R_ZIG_SW(a, e) (GPUX_R_ZIG_W23(e) ^ GPUX_R_ZIG_SIGN(a))
/* The GPU kernels' copy of the table holds, for layer i, k_i (or KF(k_i)) and
 * wl = bits(w_i 2^23) - (i << 19) (mod 2^32): then wl + (a << 19) is sw, the layer bits of a
 * cancelling and its sign bit landing on bit 31 (adding 2^31 flips it), one shift-add (an
 * IMAD on sm_90) for the shift, mask and xor of GPUX_R_ZIG_SW. */
#define GPUX_R_ZIG_WL(i, e) (GPUX_R_ZIG_W23(e) - ((gpux_u32)(i) << (31 - GPUX_R_ZIG_BITS)))
#define GPUX_R_ZIG_SW_WL(a, wl) ((wl) + ((a) << (31 - GPUX_R_ZIG_BITS)))

/* f(x) = exp(-x^2/2) at the float edge x_i = w_i 2^19 of layer i (x_N = 0: 1): the heights
 * of the wedges, from the same float edges as the fast path (no second table) */
GPUX_RFN float gpux_r_zig_f(gpux_u32 i) {
  if (i >= (gpux_u32)GPUX_R_ZIG_N) return 1.0f;
  {
    const float x = GPUX_R_FMUL(GPUX_R_U2F((gpux_u32)(gpux_r_zig_tab[i] >> 32)),
                                (float)(1 << (31 - GPUX_R_ZIG_BITS))); /* exact */
    return gpux_r_expneg(GPUX_R_FMUL(GPUX_R_FMUL(0.5f, x), x));
  }
}

/* the value of word a (the stream's word g) when gpux_r_zig_fast did not accept it */
GPUX_RFN float gpux_r_zig_slow(gpux_u32 a, gpux_u64 g, gpux_u64 stream, gpux_u64 seed) {
  gpux_r4 c = gpux_r_retry_ctr(g, stream);
  float z = 0.0f;
  int it;
  for (it = 0; it < GPUX_R_RETRY_BLOCKS; ++it) {
    c = gpux_r_philox(c, (gpux_u32)seed, (gpux_u32)(seed >> 32));
    if (it > 0) { /* a new candidate: word x of this block, its auxiliaries y and z */
      const gpux_u64 e = gpux_r_zig_tab[GPUX_R_ZIG_LAYER(c.x)];
      a = c.x;
      if (gpux_r_zig_fast(a, (gpux_u32)e, GPUX_R_ZIG_SW(a, e), &z)) return z;
    }
    {
      const gpux_u32 i = GPUX_R_ZIG_LAYER(a), sign = GPUX_R_ZIG_SIGN(a);
      if (i == 0u) { /* beyond r: t = -ln(u1) / r, accepted when -2 ln(u2) > t^2 */
        const float t = GPUX_R_FMUL(-gpux_r_ln24(c.y), GPUX_R_ZIG_RINV);
        const float y = -gpux_r_ln24(c.z);
        if (GPUX_R_FADD(y, y) > GPUX_R_FMUL(t, t))
          return GPUX_R_U2F(GPUX_R_F2U(GPUX_R_FADD(GPUX_R_ZIG_R, t)) ^ sign);
      } else { /* the wedge: a height uniform in [f_i, f_{i+1}) below f(x) */
        const float x = GPUX_R_FMUL((float)(int)(a >> GPUX_R_ZIG_MSHIFT),
                                    GPUX_R_U2F((gpux_u32)(gpux_r_zig_tab[i] >> 32)));
        const float fi = gpux_r_zig_f(i), df = GPUX_R_FADD(gpux_r_zig_f(i + 1u), -fi);
        const float u = GPUX_R_FMUL((float)(int)(c.y >> 8), 0x1p-24f); /* exact */
        const float h = GPUX_R_FMA(u, df, fi);
        if (h < gpux_r_expneg(GPUX_R_FMUL(GPUX_R_FMUL(0.5f, x), x)))
          return GPUX_R_U2F(GPUX_R_F2U(x) ^ sign);
      }
    }
    c.w |= 0x80000000u;
  }
  return z; /* 64 blocks all rejected: probability below 2^-300 */
}

/* One float32 normal from word a (the stream's word g): fma(z, std, mean). */
/* Whether a float32 normal draw is the standard one (mean 0, std 1): its value is z itself.
 * fma(z, 1, 0) would only turn -0 into +0; the GPU kernels' loops skip the fma and the two
 * parameters then. */
#define GPUX_R_STD_F32(p) ((gpux_u32)(p)->pa == 0u && (gpux_u32)(p)->pb == 0x3f800000u)
GPUX_RFN float gpux_r_normal_f32(gpux_u32 a, gpux_u64 g, const gpux_rparams *p) {
  const gpux_u64 e = gpux_r_zig_tab[GPUX_R_ZIG_LAYER(a)];
  float z;
  if (!gpux_r_zig_fast(a, (gpux_u32)e, GPUX_R_ZIG_SW(a, e), &z))
    z = gpux_r_zig_slow(a, g, p->stream, p->seed);
  return GPUX_R_STD_F32(p) ? z : GPUX_R_FMA(z, GPUX_R_U2F((gpux_u32)p->pb), GPUX_R_U2F((gpux_u32)p->pa));
}

/* The GPU kernels' queue of slow values (kernels/cuda/random.cu, kernels/cl/random.cl):
 * p->pc of a float32 normal draw carries its settings, packed by gpux_r_zig_tune:
 *   bits 0..7    period: rounds of the block loop between checks of the queue (0: no queue,
 *                the slow path inline in the loop: the earlier form, kept to compare)
 *   bits 8..19   threshold: the queue is resolved at a check when it holds this many
 *   bits 20..31  capacity used (<= GPUX_R_ZQCAP): a block past it is fixed inline
 * An entry is a Philox block with a slow value (its 4 values: rarely more than one slow).
 * Settings change the speed only, never the values. A thread block of 256 threads meets
 * about 1.2 such blocks per round (1024 values, 0.12% slow), so the default checks every 32
 * rounds (few barriers; about 40 arrivals between checks) and resolves 192 entries at once
 * (6 of the 8 warps busy), leaving 64 entries of margin before the capacity; the queue's
 * 2 KB with the table's 32 KB fit 6 thread blocks in an SM. On the H200, 2^28 values:
 * 32,192,256 2.58 TB/s (CUDA) / 2.22 (OpenCL), 8,192,256 2.50 / 2.11, 2,192,256
 * 2.32 / 1.81, inline 2.30 / 1.98 (bench/results/h200.md). */
#define GPUX_R_ZQCAP 256
/* GPU launches of float32 normals give each thread at least this many rounds: every thread
 * block first copies the 32 KB table, which small draws spread over a full wave of blocks
 * spent most of their time on (H200, 2^20 values: 12.8 us CUDA, 57 us OpenCL) */
#define GPUX_R_ZIG_MIN_ROUNDS 16u
/* Draws of at least this many Philox blocks (2^26 values) with a queue (period > 0) take
 * their chunks of `period` units (one block per thread of a group) from a counter in device
 * memory instead of a static split: the warp schedulers favour some groups, which with a
 * static split finish early and leave the SMs a long tail with few warps (measured on the
 * H200: 52% of the warp slots busy against 75% possible, 2.58 -> 2.78 TB/s). Below it the
 * static split, whose small draws spread over all SMs, is faster. The counter holds two
 * words, zero between launches: chunks taken, and groups done (the last one zeroes both). */
#define GPUX_R_ZIG_DYN_BLOCKS ((gpux_u64)1 << 24)
#define GPUX_R_ZIG_TUNE(period, thr, cap) \
  ((gpux_u64)(period) | (gpux_u64)(thr) << 8 | (gpux_u64)(cap) << 20)
#define GPUX_R_ZIG_TUNE_DEFAULT GPUX_R_ZIG_TUNE(32, 192, 256)
/* the CUDA backend's default: its dynamic chunks (a chunk is `period` rounds) balance better
 * when short: 8 (H200, 2^28 values: 2.88-2.89 TB/s against 2.86 with 16 and 2.82-2.83 with
 * 24; 6 and 12 about as 8) */
#define GPUX_R_ZIG_TUNE_CUDA GPUX_R_ZIG_TUNE(8, 192, 256)

/* ---- float64 ---------------------------------------------------------------------------- */
#ifdef GPUX_R_HAVE_F64
GPUX_RFN double gpux_r_u01_f64(gpux_u32 a, gpux_u32 b) {
  return (double)(gpux_r_x64(a, b) >> 11) * 0x1p-53;
}
GPUX_RFN double gpux_r_uniform_f64(gpux_u32 a, gpux_u32 b, double low, double d, double high,
                                   double below) {
  const double v = GPUX_R_DFMA(gpux_r_u01_f64(a, b), d, low);
  return v < high ? v : below;
}

/* The Box-Muller radius sqrt(-2 ln u1), u1 = ((x64(a, b) >> 11) | 1) 2^-53, the odd
 * multiples, 0 < u1 < 1 */
GPUX_RFN double gpux_r_bm_radius_f64(gpux_u32 a, gpux_u32 b) {
  const gpux_u64 bits = GPUX_R_D2U((double)((gpux_r_x64(a, b) >> 11) | 1u)); /* exact */
  gpux_u64 mb = (bits & 0x000fffffffffffffu) | 0x3ff0000000000000u;
  int e = (int)(bits >> 52) - 1023;
  const int big = mb > 0x3ff6a09e667f3bcdu; /* m > sqrt(2) */
  mb = big ? mb - 0x0010000000000000u : mb;
  e += big;
  {
    const double f = GPUX_R_DADD(GPUX_R_U2D(mb), -1.0); /* exact */
    const double s = GPUX_R_DDIV(f, GPUX_R_DADD(2.0, f));
    const double z = GPUX_R_DMUL(s, s);
    double p = 0x1.2b5baa716e7eap-3;
    p = GPUX_R_DFMA(p, z, 0x1.39fe142880193p-3);
    p = GPUX_R_DFMA(p, z, 0x1.7462b73112de7p-3);
    p = GPUX_R_DFMA(p, z, 0x1.c71c62dba6605p-3);
    p = GPUX_R_DFMA(p, z, 0x1.2492492df9f94p-2);
    p = GPUX_R_DFMA(p, z, 0x1.9999999995288p-2);
    p = GPUX_R_DFMA(p, z, 0x1.5555555555558p-1);
    {
      /* log1p(f) = 2 atanh(s) = 2s + s z T(z) */
      const double l1p = GPUX_R_DFMA(GPUX_R_DMUL(s, z), p, GPUX_R_DMUL(2.0, s));
      const double k = (double)(e - 53); /* -53 .. 0, exact */
      const double lnu = GPUX_R_DADD(GPUX_R_DMUL(k, 0x1.62e42fefa3800p-1),
                                     GPUX_R_DFMA(k, 0x1.ef35793c76730p-45, l1p));
      return GPUX_R_DSQRT(GPUX_R_DMUL(-2.0, lnu)); /* > 0: u1 < 1 */
    }
  }
}

#if defined(__OPENCL_VERSION__) && defined(GPUX_CL_NO_STRUCT_RETURN)
typedef double2 gpux_rd2; /* a value, not a struct: see gpux_r4 */
#else
typedef struct gpux_rd2 {
  double x, y;
} gpux_rd2;
#endif

/* A point (x0, x1) on the unit circle at a uniform angle, from x = x64(c0, d0):
 * y = ((x >> 11) & (2^50 - 1)) 2^-51 in [0, 1/2), phi = (pi / 2) y, sin(phi) = y S(y^2),
 * cos(phi) = C(y^2); bit 29 of d0 swaps (cos, sin), bits 31 and 30 of d0 are the signs */
GPUX_RFN gpux_rd2 gpux_r_cossin_f64(gpux_u32 c0, gpux_u32 d0) {
  const double y =
      (double)(gpux_i64)((gpux_r_x64(c0, d0) >> 11) & 0x3ffffffffffffu) * 0x1p-51; /* exact */
  const double x = GPUX_R_DMUL(y, y);
  double s = 0x1.a7789010a2292p-38, c = 0x1.1e2a6dd1e3ce6p-34;
  s = GPUX_R_DFMA(s, x, -0x1.6faa7e9ae683ap-31);
  s = GPUX_R_DFMA(s, x, 0x1.e8f4318c1b84ep-25);
  s = GPUX_R_DFMA(s, x, -0x1.e3074fdc9bffep-19);
  s = GPUX_R_DFMA(s, x, 0x1.50783487edcdbp-13);
  s = GPUX_R_DFMA(s, x, -0x1.32d2cce62bd82p-8);
  s = GPUX_R_DFMA(s, x, 0x1.466bc6775aae2p-4);
  s = GPUX_R_DFMA(s, x, -0x1.4abbce625be53p-1);
  s = GPUX_R_DFMA(s, x, 0x1.921fb54442d18p+0);
  s = GPUX_R_DMUL(s, y);
  c = GPUX_R_DFMA(c, x, -0x1.b6dd6d0986909p-28);
  c = GPUX_R_DFMA(c, x, 0x1.f9d385482ba83p-22);
  c = GPUX_R_DFMA(c, x, -0x1.a6d1f29f1c94dp-16);
  c = GPUX_R_DFMA(c, x, 0x1.e1f5068919a8bp-11);
  c = GPUX_R_DFMA(c, x, -0x1.55d3c7e3cbfedp-6);
  c = GPUX_R_DFMA(c, x, 0x1.03c1f081b5ac4p-2);
  c = GPUX_R_DFMA(c, x, -0x1.3bd3cc9be45dep+0);
  c = GPUX_R_DFMA(c, x, 1.0);
  {
    const int swap = (d0 & 0x20000000u) != 0u;
    gpux_rd2 r;
    r.x = GPUX_R_U2D(GPUX_R_D2U(swap ? s : c) ^ ((gpux_u64)(d0 & 0x80000000u) << 32));
    r.y = GPUX_R_U2D(GPUX_R_D2U(swap ? c : s) ^ ((gpux_u64)((d0 << 1) & 0x80000000u) << 32));
    return r;
  }
}

GPUX_RFN gpux_rd2 gpux_r_normal2_f64(gpux_r4 w) {
  const double r = gpux_r_bm_radius_f64(w.x, w.y);
  gpux_rd2 cs = gpux_r_cossin_f64(w.z, w.w);
  cs.x = GPUX_R_DMUL(r, cs.x);
  cs.y = GPUX_R_DMUL(r, cs.y);
  return cs;
}
#endif /* GPUX_R_HAVE_F64 */

/* ---- integers --------------------------------------------------------------------------- */

/* int32 candidates: 64-bit x; 1 and the offset (hi64(x * range)) when accepted */
GPUX_RFN int gpux_r_lemire64(gpux_u64 x, gpux_u64 range, gpux_u64 thr, gpux_u64 *off) {
  *off = GPUX_R_MULHI64(x, range);
  return x * range >= thr;
}
/* a value in [low, low + range), range <= 2^32, from words (a, b) of word index g */
GPUX_RFN gpux_u64 gpux_r_int32(gpux_u32 a, gpux_u32 b, gpux_u64 g, const gpux_rparams *p) {
  gpux_u64 off;
  if (!gpux_r_lemire64(gpux_r_x64(a, b), p->range, p->thr, &off)) {
    gpux_r4 c = gpux_r_retry_ctr(g, p->stream);
    int it;
    for (it = 0; it < GPUX_R_RETRY_BLOCKS; ++it) {
      c = gpux_r_philox(c, (gpux_u32)p->seed, (gpux_u32)(p->seed >> 32));
      if (gpux_r_lemire64(gpux_r_x64(c.x, c.y), p->range, p->thr, &off)) break;
      if (gpux_r_lemire64(gpux_r_x64(c.z, c.w), p->range, p->thr, &off)) break;
      c.w |= 0x80000000u;
    }
  }
  return p->low + off;
}

/* int64 candidates: 128-bit x = (xl, xh); the offset floor(x * range / 2^128). range 0
 * stands for 2^64 (uint64's whole range, gpux_random_integers_u64): the offset is xh, and
 * every candidate is taken. */
GPUX_RFN int gpux_r_lemire128(gpux_u64 xl, gpux_u64 xh, gpux_u64 range, gpux_u64 thr,
                              gpux_u64 *off) {
  if (range == 0u) {
    *off = xh;
    return 1;
  }
  const gpux_u64 p0l = xl * range, p0h = GPUX_R_MULHI64(xl, range);
  const gpux_u64 p1l = xh * range, p1h = GPUX_R_MULHI64(xh, range);
  const gpux_u64 mid = p1l + p0h;
  *off = p1h + (mid < p1l ? 1u : 0u);
  return mid != 0u || p0l >= thr; /* (mid, p0l) >= thr, thr < 2^64 */
}
GPUX_RFN gpux_u64 gpux_r_int64(gpux_r4 w, gpux_u64 g, const gpux_rparams *p) {
  gpux_u64 off;
  if (!gpux_r_lemire128(gpux_r_x64(w.x, w.y), gpux_r_x64(w.z, w.w), p->range, p->thr, &off)) {
    gpux_r4 c = gpux_r_retry_ctr(g, p->stream);
    int it;
    for (it = 0; it < GPUX_R_RETRY_BLOCKS; ++it) {
      c = gpux_r_philox(c, (gpux_u32)p->seed, (gpux_u32)(p->seed >> 32));
      if (gpux_r_lemire128(gpux_r_x64(c.x, c.y), gpux_r_x64(c.z, c.w), p->range, p->thr, &off))
        break;
      c.w |= 0x80000000u;
    }
  }
  return p->low + off;
}

/* ---- bernoulli -------------------------------------------------------------------------- */
GPUX_RFN unsigned char gpux_r_bernoulli(gpux_u32 a, gpux_u64 thr) {
  return (gpux_u64)a < thr ? (unsigned char)1 : (unsigned char)0;
}

/* ---- one block of a draw -----------------------------------------------------------------
 * Relative block j of a draw (its words P + 4j .. P + 4j + 3, from gpux_r_words4 with
 * B = P / 4 + j, sh = P % 4) gives values j * VPB .. j * VPB + VPB - 1, VPB = 4 / WPV
 * (normals: 4 / WPV as well, pairs included). The kernels and the host run these same
 * functions, gpux_r_blk_<kind>_<dt>(values, words, g0, params); g0 = P + 4j is the absolute
 * word of the block (the integers' retry chains use it). */
GPUX_RFN void gpux_r_blk_uniform_f32(float *v, gpux_r4 w, gpux_u64 g0,
                                     const gpux_rparams *p) {
  (void)g0;
  if (p->pa == 0u && p->pb == 0x3f800000u) { /* [0, 1): fma(u, 1, 0) is u, always below 1 */
    v[0] = gpux_r_u01_f32(w.x);
    v[1] = gpux_r_u01_f32(w.y);
    v[2] = gpux_r_u01_f32(w.z);
    v[3] = gpux_r_u01_f32(w.w);
    return;
  }
  const float lo = GPUX_R_U2F((gpux_u32)p->pa), d = GPUX_R_U2F((gpux_u32)p->pb);
  const float hi = GPUX_R_U2F((gpux_u32)p->pc), below = GPUX_R_U2F((gpux_u32)p->pd);
  v[0] = gpux_r_uniform_f32(w.x, lo, d, hi, below);
  v[1] = gpux_r_uniform_f32(w.y, lo, d, hi, below);
  v[2] = gpux_r_uniform_f32(w.z, lo, d, hi, below);
  v[3] = gpux_r_uniform_f32(w.w, lo, d, hi, below);
}
GPUX_RFN void gpux_r_blk_normal_f32(float *v, gpux_r4 w, gpux_u64 g0,
                                    const gpux_rparams *p) {
  v[0] = gpux_r_normal_f32(w.x, g0, p);
  v[1] = gpux_r_normal_f32(w.y, g0 + 1u, p);
  v[2] = gpux_r_normal_f32(w.z, g0 + 2u, p);
  v[3] = gpux_r_normal_f32(w.w, g0 + 3u, p);
}
#ifdef GPUX_R_HAVE_F64
GPUX_RFN void gpux_r_blk_uniform_f64(double *v, gpux_r4 w, gpux_u64 g0,
                                     const gpux_rparams *p) {
  (void)g0;
  const double lo = GPUX_R_U2D(p->pa), d = GPUX_R_U2D(p->pb);
  const double hi = GPUX_R_U2D(p->pc), below = GPUX_R_U2D(p->pd);
  v[0] = gpux_r_uniform_f64(w.x, w.y, lo, d, hi, below);
  v[1] = gpux_r_uniform_f64(w.z, w.w, lo, d, hi, below);
}
GPUX_RFN void gpux_r_blk_normal_f64(double *v, gpux_r4 w, gpux_u64 g0,
                                    const gpux_rparams *p) {
  (void)g0;
  const double mean = GPUX_R_U2D(p->pa), sd = GPUX_R_U2D(p->pb);
  const gpux_rd2 a = gpux_r_normal2_f64(w);
  v[0] = GPUX_R_DFMA(a.x, sd, mean);
  v[1] = GPUX_R_DFMA(a.y, sd, mean);
}
#endif
/* integers of up to 32 bits: two values of the 32-bit path (the low bits of low + offset,
 * a value of the dtype); 64-bit ones: one of the 128-bit path */
#define GPUX_R_DEF_BLK_INT32(dt, T)                                                         \
  GPUX_RFN void gpux_r_blk_integers_##dt(T *v, gpux_r4 w, gpux_u64 g0,                       \
                                         const gpux_rparams *p) {                            \
    v[0] = (T)gpux_r_int32(w.x, w.y, g0, p);                                                 \
    v[1] = (T)gpux_r_int32(w.z, w.w, g0 + 2u, p);                                            \
  }
GPUX_R_DEF_BLK_INT32(i32, gpux_i32)
GPUX_R_DEF_BLK_INT32(u32, gpux_u32)
GPUX_R_DEF_BLK_INT32(i16, gpux_r_i16)
GPUX_R_DEF_BLK_INT32(u16, gpux_r_u16)
GPUX_R_DEF_BLK_INT32(i8, gpux_r_i8)
GPUX_R_DEF_BLK_INT32(u8, gpux_r_u8)
GPUX_RFN void gpux_r_blk_integers_i64(gpux_i64 *v, gpux_r4 w, gpux_u64 g0,
                                      const gpux_rparams *p) {
  v[0] = (gpux_i64)gpux_r_int64(w, g0, p);
}
GPUX_RFN void gpux_r_blk_integers_u64(gpux_u64 *v, gpux_r4 w, gpux_u64 g0,
                                      const gpux_rparams *p) {
  v[0] = gpux_r_int64(w, g0, p);
}
GPUX_RFN void gpux_r_blk_bernoulli_b8(unsigned char *v, gpux_r4 w, gpux_u64 g0,
                                      const gpux_rparams *p) {
  (void)g0;
  v[0] = gpux_r_bernoulli(w.x, p->thr);
  v[1] = gpux_r_bernoulli(w.y, p->thr);
  v[2] = gpux_r_bernoulli(w.z, p->thr);
  v[3] = gpux_r_bernoulli(w.w, p->thr);
}

#if !defined(__OPENCL_VERSION__) && !defined(__CUDACC__)
#include <stdlib.h>
/* The queue settings of the GPU kernels (GPUX_R_ZIG_TUNE) from GPUX_RANDOM_ZIG, which the
 * backends read once per context: "inline" (no queue), or "period,threshold,capacity" with
 * period 1..255, 1 <= threshold <= capacity <= GPUX_R_ZQCAP; else the default. */
static inline gpux_u64 gpux_r_zig_tune_env(const char *s) {
  unsigned long v[3];
  char *e;
  int k;
  if (!s) return GPUX_R_ZIG_TUNE_DEFAULT;
  if (!strcmp(s, "inline")) return GPUX_R_ZIG_TUNE(0, 1, 1);
  for (k = 0; k < 3; ++k) {
    v[k] = strtoul(s, &e, 10);
    if (e == s || *e != (k < 2 ? ',' : '\0')) return GPUX_R_ZIG_TUNE_DEFAULT;
    s = e + 1;
  }
  if (v[0] < 1 || v[0] > 255 || v[1] < 1 || v[1] > v[2] || v[2] > GPUX_R_ZQCAP)
    return GPUX_R_ZIG_TUNE_DEFAULT;
  return GPUX_R_ZIG_TUNE(v[0], v[1], v[2]);
}
/* The least draw (Philox blocks) whose float32 normals take their chunks dynamically
 * (GPUX_R_ZIG_DYN_BLOCKS) from GPUX_RANDOM_ZIG_DYN, read once per context: a number of
 * blocks (0: every draw), else the default. */
static inline gpux_u64 gpux_r_zig_dyn_env(const char *s) {
  char *e;
  unsigned long long v;
  if (!s || !*s) return GPUX_R_ZIG_DYN_BLOCKS;
  v = strtoull(s, &e, 10);
  return *e ? GPUX_R_ZIG_DYN_BLOCKS : (gpux_u64)v;
}
/* Whether 32 bits hold the units (`group` Philox blocks each) of a draw of nblocks blocks
 * plus the chunks of `period` units (tune) that `groups` groups take or step over past them
 * (at most one a group; two for margin): the dynamic chunks' counter, and the OpenCL kernel's
 * static split. */
static inline int gpux_r_zig_units_fit(gpux_u64 nblocks, gpux_u64 groups, gpux_u64 group,
                                       gpux_u64 tune) {
  return nblocks / group + 1 + groups * (2 * (tune & 255u)) < 0xffffffffu;
}
/* Whether a GPU launch of `groups` groups of `group` threads for a float32 normal draw of
 * nblocks Philox blocks takes dynamic chunks: a queue (period > 0 in tune), at least dyn_min
 * blocks, and a counter that holds them (gpux_r_zig_units_fit). */
static inline int gpux_r_zig_dyn(gpux_u64 nblocks, gpux_u64 groups, gpux_u64 group,
                                 gpux_u64 tune, gpux_u64 dyn_min) {
  return (tune & 255u) && nblocks >= dyn_min && gpux_r_zig_units_fit(nblocks, groups, group, tune);
}
/* The groups (of `group` threads) of a static split: GPUX_R_ZIG_MIN_ROUNDS rounds a thread */
static inline gpux_u64 gpux_r_zig_static_groups(gpux_u64 nblocks, gpux_u64 group) {
  const gpux_u64 per = (gpux_u64)GPUX_R_ZIG_MIN_ROUNDS * group;
  return (nblocks + per - 1) / per;
}
#endif
#endif
