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
#define GPUX_CL_RANDOM_ONE(kind, dt) GPUX_CL_RANDOM_KERNEL(kind, dt, GPUX_CL_RVPB_##kind##_##dt)
/* VPB per kernel as a literal (it is pasted into the vector store's name) */
#define GPUX_CL_RVPB_uniform_f32 4
#define GPUX_CL_RVPB_uniform_f64 2
#define GPUX_CL_RVPB_normal_f32 4
#define GPUX_CL_RVPB_normal_f64 2
#define GPUX_CL_RVPB_integers_i32 2
#define GPUX_CL_RVPB_integers_i64 1
#define GPUX_CL_RVPB_bernoulli_b8 4
#define GPUX_CL_RANDOM_DT(kind, dt) GPUX_ON_##dt(GPUX_CL_RANDOM_ONE, kind, dt)
#define GPUX_CL_RANDOM_KIND(kind, id, dts) dts(GPUX_CL_RANDOM_DT, kind)
GPUX_RANDOM_KINDS(GPUX_CL_RANDOM_KIND)
