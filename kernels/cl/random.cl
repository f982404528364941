#include "gpux_kernels.h"
#include "gpux_cl_prelude.h"
/* gpux OpenCL kernels, random family (OpenCL C 1.2): one kernel per (kind, dtype) of
 * GPUX_RANDOM_KINDS (kernels/common/gpux_random.h), named gpux_random_<kind>_<dt>:
 *   gpux_random_<kind>_<dt>(global T *out, long out_off, gpux_rparams p, int vec)
 * A work-item makes relative blocks j of the draw (j < p.nblocks; GPUX_CL_RANDOM_BODY):
 * their four words, then the VPB values gpux_r_blk_<kind>_<dt> makes of them, stored as one
 * vector when the block is whole and vec says out + out_off is aligned for it (out_off a
 * multiple of VPB). The values come from gpux_random.h, which the CUDA kernels and the host
 * run too; FP_CONTRACT is off so that no a*b+c becomes an FMA. float64 kernels exist where
 * cl_khr_fp64 does. */
#pragma OPENCL FP_CONTRACT OFF
#include "gpux_random.h"

/* one vector store of the VPB values (VPB 4, 2 or 1) */
#define GPUX_CL_RSTORE_4(T, o, v) *(__global GPUX_CAT(T, 4) *)(o) = (GPUX_CAT(T, 4))(v[0], v[1], v[2], v[3])
#define GPUX_CL_RSTORE_2(T, o, v) *(__global GPUX_CAT(T, 2) *)(o) = (GPUX_CAT(T, 2))(v[0], v[1])
#define GPUX_CL_RSTORE_1(T, o, v) *(o) = v[0]

/* Block j: its words, its V values, stored (bounded scalar stores unless `whole`). */
#define GPUX_CL_RBLOCK(kind, dt, V, j, words, whole)                                        \
  do {                                                                                      \
    GPUX_T_##dt v[V];                                                                       \
    gpux_r_blk_##kind##_##dt(v, words, p.pos + 4u * (j), &p);                               \
    __global GPUX_T_##dt *o = out + out_off + (j) * V;                                      \
    if (whole) {                                                                            \
      GPUX_CAT(GPUX_CL_RSTORE_, V)(GPUX_T_##dt, o, v);                                      \
    } else {                                                                                \
      for (int k = 0; k < V; ++k)                                                           \
        if ((j) * V + k < p.n) o[k] = v[k];                                                 \
    }                                                                                       \
  } while (0)

/* CPU devices (exact launches): work-item j makes block j. GPUs: the host launches about one
 * wave of work-groups and work-items loop over the blocks, with the blocks whose values are
 * all stored as vectors in loops without a branch (aligned draws: one Philox block each),
 * then the rest. */
#ifdef GPUX_EXACT_LAUNCH
#define GPUX_CL_RANDOM_BODY(kind, dt, V)                                                    \
  const ulong j = get_global_id(0);                                                         \
  const gpux_r4 w = gpux_r_words4((p.pos >> 2) + j, (int)(p.pos & 3u), p.stream, p.seed);  \
  GPUX_CL_RBLOCK(kind, dt, V, j, w, vec && (j + 1) * V <= p.n);
#else
#define GPUX_CL_RANDOM_BODY(kind, dt, V)                                                    \
  const ulong t0 = get_global_id(0), stride = get_global_size(0), B0 = p.pos >> 2;          \
  const int sh = (int)(p.pos & 3u);                                                         \
  const ulong nfull = vec ? p.n / V : 0;                                                    \
  if (sh == 0) {                                                                            \
    for (ulong j = t0; j < nfull; j += stride)                                              \
      GPUX_CL_RBLOCK(kind, dt, V, j, gpux_r_block(B0 + j, p.stream, p.seed), 1);            \
  } else {                                                                                  \
    for (ulong j = t0; j < nfull; j += stride)                                              \
      GPUX_CL_RBLOCK(kind, dt, V, j, gpux_r_words4(B0 + j, sh, p.stream, p.seed), 1);       \
  }                                                                                         \
  for (ulong j = nfull + t0; j < p.nblocks; j += stride)                                    \
    GPUX_CL_RBLOCK(kind, dt, V, j, gpux_r_words4(B0 + j, sh, p.stream, p.seed), 0);
#endif

#define GPUX_CL_RANDOM_KERNEL(kind, dt, V)                                                 \
  __kernel void gpux_random_##kind##_##dt(__global GPUX_T_##dt *out, long out_off,          \
                                          gpux_rparams p, int vec) {                        \
    GPUX_CL_RANDOM_BODY(kind, dt, V)                                                        \
  }
/* kernels per (kind, dtype), with VPB as a literal (it is pasted into the vector store's
 * name); float32 normals on GPUs: the ziggurat's own kernel below */
#ifdef GPUX_EXACT_LAUNCH
#define GPUX_CL_RANDOM_ONE_normal_f32 GPUX_CL_RANDOM_KERNEL(normal, f32, 4)
#else
#define GPUX_CL_RANDOM_ONE_normal_f32
#endif
#define GPUX_CL_RANDOM_ONE_uniform_f32 GPUX_CL_RANDOM_KERNEL(uniform, f32, 4)
#define GPUX_CL_RANDOM_ONE_uniform_f64 GPUX_CL_RANDOM_KERNEL(uniform, f64, 2)
#define GPUX_CL_RANDOM_ONE_normal_f64 GPUX_CL_RANDOM_KERNEL(normal, f64, 2)
#define GPUX_CL_RANDOM_ONE_integers_i32 GPUX_CL_RANDOM_KERNEL(integers, i32, 2)
#define GPUX_CL_RANDOM_ONE_integers_i64 GPUX_CL_RANDOM_KERNEL(integers, i64, 1)
#define GPUX_CL_RANDOM_ONE_integers_u32 GPUX_CL_RANDOM_KERNEL(integers, u32, 2)
#define GPUX_CL_RANDOM_ONE_integers_u64 GPUX_CL_RANDOM_KERNEL(integers, u64, 1)
#define GPUX_CL_RANDOM_ONE_integers_i16 GPUX_CL_RANDOM_KERNEL(integers, i16, 2)
#define GPUX_CL_RANDOM_ONE_integers_u16 GPUX_CL_RANDOM_KERNEL(integers, u16, 2)
#define GPUX_CL_RANDOM_ONE_integers_i8 GPUX_CL_RANDOM_KERNEL(integers, i8, 2)
#define GPUX_CL_RANDOM_ONE_integers_u8 GPUX_CL_RANDOM_KERNEL(integers, u8, 2)
#define GPUX_CL_RANDOM_ONE_bernoulli_b8 GPUX_CL_RANDOM_KERNEL(bernoulli, b8, 4)
#define GPUX_CL_RANDOM_ONE(kind, dt) GPUX_CL_RANDOM_ONE_##kind##_##dt
#define GPUX_CL_RANDOM_DT(kind, dt) GPUX_ON_##dt(GPUX_CL_RANDOM_ONE, kind, dt)
#define GPUX_CL_RANDOM_KIND(kind, id, dts) dts(GPUX_CL_RANDOM_DT, kind)
GPUX_RANDOM_KINDS(GPUX_CL_RANDOM_KIND)

#ifndef GPUX_EXACT_LAUNCH
/* ---- float32 normals on GPUs: the ziggurat with a queue (as kernels/cuda/random.cu) -------
 * The table's (k_i, wl_i) (GPUX_R_ZIG_WL), in a buffer the host fills, is copied to local
 * memory (32 KB, with the queue's 2 KB within the 48 KB NVIDIA's OpenCL gives a work-group);
 * the loop over blocks takes each value's fast path only and stores the float4; the rare
 * blocks with a slow value go to a local queue (atomic_inc; entries: the block), whose
 * resolution computes their words again (gpux_cl_zfix). Every work-item runs the
 * work-group's chunks of `period` rounds (p.pc, GPUX_R_ZIG_TUNE); after each chunk a
 * work-item whose entry reached the threshold raises a flag, and after the barrier the whole
 * group resolves the queue. The flags rotate over three slots (check c reads slot c % 3 after
 * its barrier; work-item 0 clears slot (c + 2) % 3 then, which nobody reads or writes before
 * the next barrier), so one barrier per check suffices. A block past the capacity is fixed
 * by its work-item after its own store. The barriers fence global memory too: the queue's
 * scalar stores come after the float4 stores of the same addresses.
 * A work-item's round is one Philox block (a draw that starts mid-block stores its values one
 * by one), so the loop never holds two blocks' words. The chunks: a static split, or for
 * large draws (dyn, GPUX_R_ZIG_DYN_BLOCKS) taken from a counter in global memory. Standard
 * normals (GPUX_R_STD_F32) have their own kernel, gpux_random_normal_f32_std, without the
 * fma (as on CUDA, where one kernel with both loops spilled). The first Philox round's
 * product comes from p.pd (GPUX_R_PRE, set by the host). Where a value is computed never
 * changes its bits. */

/* Where the loop reads the table: a local copy, or (GPUX_CL_ZIG_GLOBAL, set by the host for
 * devices whose local memory cannot hold the copy and the queue) the buffer itself */
#ifdef GPUX_CL_ZIG_GLOBAL
#define GPUX_CL_ZT_AS __global
#else
#define GPUX_CL_ZT_AS __local
#endif

/* Philox block j's values that the fast path did not take (its stores, done, hold them
 * wrong): its words again, then those values one by one, each work-item's first together with
 * the others' (gpux_r_normal_f32 redoes the fast test and goes on to the slow path). Its values
 * are i = 4j + k - sh, those in [0, n). */
inline void gpux_cl_zfix(__global float *o, ulong j, const gpux_rparams *p,
                         GPUX_CL_ZT_AS const uint2 *zt, const gpux_rkeys *ks) {
  const gpux_r4 w = gpux_r_block_pk((p->pos >> 2) + j, p->pd, p->stream, ks);
  const int sh = (int)(p->pos & 3u);
  const ulong i0 = 4 * j - (ulong)sh; /* value k is i0 + k (wraps below 0 for j 0) */
  uint slow = 0;
  for (int k = 0; k < 4; ++k) {
    const uint a = k == 0 ? w.x : k == 1 ? w.y : k == 2 ? w.z : w.w;
    if ((a >> GPUX_R_ZIG_MSHIFT) >= zt[GPUX_R_ZIG_LAYER(a)].x && 4 * j + (ulong)k >= (ulong)sh &&
        i0 + (ulong)k < p->n)
      slow |= 1u << k;
  }
  while (slow) {
    const int k = (int)popcount((slow & (0u - slow)) - 1u); /* the lowest set bit */
    slow &= slow - 1u;
    const uint a = k == 0 ? w.x : k == 1 ? w.y : k == 2 ? w.z : w.w;
    const ulong i = i0 + (ulong)k;
    o[i] = gpux_r_normal_f32(a, p->pos + i, p);
  }
}

/* Philox block j of the draw (words w; its values are i = 4j + k - sh, those in [0, n)),
 * stored as one float4 when `whole` (aligned draws: sh 0, all four values exist), else
 * value by value. A block with a value the fast path did not take goes to the queue (or,
 * past its capacity, is fixed here). Returns 1 when an entry reached the threshold. std: a
 * literal (the kernel's), so each kernel keeps one form of the store. */
inline int gpux_cl_zblock(__global float *o, ulong j, int sh, int whole, gpux_r4 w,
                          const gpux_rparams *p, GPUX_CL_ZT_AS const uint2 *zt,
                          volatile __local uint *qn, __local ulong *qj, uint period, uint thr,
                          uint cap, const gpux_rkeys *ks, const int std) {
  const float mean = as_float((uint)p->pa), sd = as_float((uint)p->pb);
  const uint a0 = w.x, a1 = w.y, a2 = w.z, a3 = w.w;
  const uint2 e0 = zt[GPUX_R_ZIG_LAYER(a0)], e1 = zt[GPUX_R_ZIG_LAYER(a1)];
  const uint2 e2 = zt[GPUX_R_ZIG_LAYER(a2)], e3 = zt[GPUX_R_ZIG_LAYER(a3)];
  float z0, z1, z2, z3;
  const int fast = gpux_r_zig_fast(a0, e0.x, GPUX_R_ZIG_SW_WL(a0, e0.y), &z0) &
                   gpux_r_zig_fast(a1, e1.x, GPUX_R_ZIG_SW_WL(a1, e1.y), &z1) &
                   gpux_r_zig_fast(a2, e2.x, GPUX_R_ZIG_SW_WL(a2, e2.y), &z2) &
                   gpux_r_zig_fast(a3, e3.x, GPUX_R_ZIG_SW_WL(a3, e3.y), &z3);
  if (!std) {
    z0 = fma(z0, sd, mean);
    z1 = fma(z1, sd, mean);
    z2 = fma(z2, sd, mean);
    z3 = fma(z3, sd, mean);
  }
  const ulong i0 = 4 * j - (ulong)sh; /* value k is i0 + k (wraps below 0 for j 0) */
  if (whole) {
    *(__global float4 *)(o + i0) = (float4)(z0, z1, z2, z3);
  } else {
#define GPUX_CL_ZSTORE1(k, z) \
  if (4 * j + (k) >= (ulong)sh && i0 + (k) < p->n) o[i0 + (k)] = (z)
    GPUX_CL_ZSTORE1(0, z0);
    GPUX_CL_ZSTORE1(1, z1);
    GPUX_CL_ZSTORE1(2, z2);
    GPUX_CL_ZSTORE1(3, z3);
#undef GPUX_CL_ZSTORE1
  }
  int want = 0;
  if (!fast) { /* rare */
    const uint s = period ? atomic_inc(qn) : cap;
    if (s < cap) {
      qj[s] = j;
      want = s + 1 >= thr;
    } else {
      gpux_cl_zfix(o, j, p, zt, ks);
    }
  }
  return want;
}

/* the queue's first n entries, resolved by the work-group */
inline void gpux_cl_zflush(__global float *o, uint n, const gpux_rparams *p, __local ulong *qj,
                           GPUX_CL_ZT_AS const uint2 *zt, const gpux_rkeys *ks) {
  for (uint e = (uint)get_local_id(0); e < n; e += (uint)get_local_size(0))
    gpux_cl_zfix(o, qj[e], p, zt, ks);
}

/* The check after chunk c (want: this work-item's flag) */
#define GPUX_CL_ZCHECK(c)                                                                     \
  do {                                                                                        \
    if (want) zflag[(c) % 3u] = 1;                                                            \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                      \
    if (lid == 0) zflag[((c) + 2u) % 3u] = 0;                                                 \
    if (zflag[(c) % 3u]) { /* the same in every work-item */                                  \
      gpux_cl_zflush(o, min(*qn, cap), &p, qj, zt, ks);                                      \
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                    \
      if (lid == 0) *qn = 0;                                                                  \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    }                                                                                         \
  } while (0)

/* The draw (o: out + out_off); zt, qj, qn, zflag, zu0: the kernel's local memory (zt:
 * the table's buffer under GPUX_CL_ZIG_GLOBAL); work: the dynamic chunks' counter (2 words,
 * zero between launches: units taken, groups done), used when dyn; std: a literal.
 * Unit u is Philox blocks u * ls + lid of the draw (blocks B0 + j: one Philox block a
 * work-item and round, whatever sh); a chunk is `period` units u0, u0 + us, ...: static,
 * work-group g's units g, g + G, ... (us = G groups); dyn, consecutive units (us = 1) whose
 * start work-item 0 takes from work[0] one chunk ahead (chunk c's take goes through
 * zu0[c & 1]: written before chunk c's check barrier, read after it; the slot's previous
 * value was read before chunk c - 1's barrier), so the atomic's round trip overlaps the
 * chunk's work. One loop serves both, so the kernel's registers are those of one loop. */
inline void gpux_cl_zdraw(__global float *o, const gpux_rparams p, int vec,
                          __global const uint2 *ztab, GPUX_CL_ZT_AS uint2 *zt_rw,
                          __local ulong *qj, volatile __local uint *qn,
                          __local int *zflag, __local uint *zu0, __global uint *work, int dyn,
                          const gpux_rkeys *ks, const int std) {
  GPUX_CL_ZT_AS const uint2 *zt = zt_rw;
  const uint lid = (uint)get_local_id(0), ls = (uint)get_local_size(0);
  const uint period = (uint)p.pc & 255u, thr = (uint)(p.pc >> 8) & 4095u;
  const uint cap = (uint)(p.pc >> 20) & 4095u;
#ifndef GPUX_CL_ZIG_GLOBAL
  for (uint k = lid; k < (uint)GPUX_R_ZIG_N; k += ls) zt_rw[k] = ztab[k];
#endif
  if (lid == 0) {
    *qn = 0;
    zflag[0] = zflag[1] = zflag[2] = 0;
    if (dyn) zu0[0] = atomic_add(work, period); /* the first chunk, during the copy */
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const ulong B0 = p.pos >> 2;
  const int sh = (int)(p.pos & 3u);
  /* the Philox blocks the draw touches; the first nfull of them are stored whole */
  const ulong nblk = p.n ? (p.n + (ulong)sh + 3u) >> 2 : 0;
  const ulong nfull = vec && sh == 0 ? p.n >> 2 : 0;
  /* units, and the units taken or stepped over: below 2^32 (the host checks); period 0
   * (no queue, static only): one chunk of every unit */
  const uint units = (uint)((nblk + ls - 1) / ls), ufull = (uint)(nfull / ls);
  const uint per = period ? period : 0xffffffffu;
  const uint us = dyn ? 1u : (uint)get_num_groups(0);
  const ulong jstep = (ulong)us * ls;
  uint u0 = dyn ? zu0[0] : (uint)get_group_id(0), c = 1;
#define GPUX_CL_ZPHILOX(J) gpux_r_block_pk(B0 + (J), p.pd, p.stream, ks)
  while (u0 < units) {
    uint nxt = 0;
    if (dyn && lid == 0) nxt = atomic_add(work, period);
    /* rounds of this chunk: all, and those whose units hold only whole blocks */
    const uint nu = min(per, (units - u0 + us - 1) / us);
    const uint nf = ufull > u0 ? min(nu, (ufull - u0 + us - 1) / us) : 0u;
    ulong j = (ulong)u0 * ls + lid;
    uint r = 0;
    int want = 0;
    for (; r < nf; ++r, j += jstep)
      want |= gpux_cl_zblock(o, j, 0, 1, GPUX_CL_ZPHILOX(j), &p, zt,
                             qn, qj, period, thr, cap, ks, std);
    for (; r < nu; ++r, j += jstep)
      if (j < nblk)
        want |= gpux_cl_zblock(o, j, sh, j < nfull, GPUX_CL_ZPHILOX(j),
                               &p, zt, qn, qj, period, thr, cap, ks, std);
    if (dyn && lid == 0) zu0[c & 1u] = nxt;
    GPUX_CL_ZCHECK(c);
    u0 = dyn ? zu0[c & 1u] : nu < per ? units : u0 + per * us;
    ++c;
  }
#undef GPUX_CL_ZPHILOX
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* the last stores and entries */
  gpux_cl_zflush(o, min(*qn, cap), &p, qj, zt, ks);
  if (dyn && lid == 0) {
    /* every take of this group before its count; the last group zeroes the counter for the
     * next launch (the context's in-order queue) */
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (atomic_inc(work + 1) == (uint)get_num_groups(0) - 1u) {
      atomic_xchg(work, 0u);
      atomic_xchg(work + 1, 0u);
    }
  }
}

/* gpux_random_normal_f32 and gpux_random_normal_f32_std (GPUX_R_STD_F32: the host picks):
 *   (global float *out, long out_off, gpux_rparams p, int vec, global const uint2 *ztab,
 *    global uint *work, int dyn, gpux_rkeys ks)
 * ks: gpux_r_keys(p.seed), from the host, so that the loop reads the round keys from the
 * kernel's arguments (NVIDIA's compiler otherwise kept all 20 in registers: 60 a work-item,
 * four work-groups a compute unit) */
#ifdef GPUX_CL_ZIG_GLOBAL
#define GPUX_CL_ZT_DECL
#define GPUX_CL_ZT_ARG ((__global uint2 *)ztab) /* read only */
#else
#define GPUX_CL_ZT_DECL __local uint2 zt[GPUX_R_ZIG_N];
#define GPUX_CL_ZT_ARG zt
#endif
/* GPUX_CL_ZIG_WG: the work-group size, when the host launches the kernels with one it knows
 * when building them */
#ifdef GPUX_CL_ZIG_WG
#define GPUX_CL_ZIG_ATTR __attribute__((reqd_work_group_size(GPUX_CL_ZIG_WG, 1, 1)))
#else
#define GPUX_CL_ZIG_ATTR
#endif
#define GPUX_CL_ZIG_KERNEL(name, std)                                                         \
  __kernel GPUX_CL_ZIG_ATTR void name(__global float *out, long out_off, gpux_rparams p,      \
                                      int vec, __global const uint2 *ztab,                    \
                                      __global uint *work, int dyn, gpux_rkeys ks) {          \
    GPUX_CL_ZT_DECL                                                                           \
    __local ulong qj[GPUX_R_ZQCAP];                                                           \
    __local uint qn;                                                                          \
    __local int zflag[3];                                                                     \
    __local uint zu0[2];                                                                      \
    gpux_cl_zdraw(out + out_off, p, vec, ztab, GPUX_CL_ZT_ARG, qj, &qn, zflag, zu0, work, \
                  dyn, &ks, std);                                                             \
  }
GPUX_CL_ZIG_KERNEL(gpux_random_normal_f32, 0)
GPUX_CL_ZIG_KERNEL(gpux_random_normal_f32_std, 1)
#endif
