/* gpux: the private interface between the front end (src/api) and a backend
 * (src/backend_cuda, src/backend_opencl). Never installed.
 *
 * The front end validates every argument, computes shapes, broadcasting and the launch
 * layout, and owns handles, errors and the memory pool. A backend only executes: it never
 * re-checks what the front end checked. An entry a backend leaves NULL makes the front end
 * return GPUX_ERROR_UNSUPPORTED.
 *
 * A backend is a module (libgpux-cuda.so, libgpux-opencl.so) exporting
 *   const gpux__backend_iface *gpux_<name>_backend_entry(const gpux__host_iface *host);
 * or, in a build without modules, the same function linked into libgpux. */
#ifndef GPUX_BACKEND_H
#define GPUX_BACKEND_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "gpux.h"
#include "../../kernels/common/gpux_kernels.h"
#include "../../kernels/common/gpux_random.h"
#include "../../kernels/common/gpux_scatter.h"
#include "../../kernels/common/gpux_sort.h"
#include "../../kernels/common/gpux_select.h"

/* 9: gpux__scalar holds complex128 (16 bytes), which moves every field of gpux__launch
 * after it; 10: gpux__gemm grew conj_a / conj_b (complex products); 11: the index
 * (gather and put), mask (boolean masks, gpux__mask_pass), scatter, bincount and search
 * entries (issue 24); 12: the sort and select entries (issue 25); 13: the exact sums' window
 * (gpux__scatter's SCAN stage, nt in APPLY, the accumulator's header); 15: gpux__select
 * grew top-k's candidate path (cstride, pc, lb, cand, cpos); 16: and its one-read path (pcs,
 * capg, cb, tot; h12's groups' hb, gc); 17: gpux__mask_pass's bits in place of the mask
 * (the flags and starts kinds) */
#define GPUX_BACKEND_ABI_VERSION 17u

/* Services of the core that backends use (a module cannot link to the core's hidden
 * symbols). */
typedef struct gpux__host_iface {
  uint32_t abi_version;
  /* Records the thread's error detail and returns s (printf-style). */
  gpux_status (*set_error)(gpux_status s, const char *fmt, ...)
#if defined(__GNUC__)
      __attribute__((format(printf, 2, 3)))
#endif
      ;
  /* On-disk cache of compiled binaries (GPUX_CACHE_DIR, default the XDG cache dir;
   * "off" disables it). The key is any bytes (source, options, device, driver); the cache
   * adds the gpux version, hashes it and checks a checksum on load. load returns 1 and a
   * malloc'd copy on a hit, 0 on a miss or any fault; store never fails loudly. */
  int (*cache_load)(const void *key, size_t key_len, void **data, size_t *size);
  void (*cache_store)(const void *key, size_t key_len, const void *data, size_t size);
} gpux__host_iface;

/* The backend's per-context state (device, modules/programs, the default queue). */
typedef struct gpux__bctx gpux__bctx;

/* A queue of a context: a CUDA stream or an OpenCL in-order command queue, with the scratch
 * that queued entries keep per queue (scan tile states, the random kernels' chunk counter,
 * the host-result buffer, a cuBLAS handle). Every queued entry runs on the queue it is
 * given; work on two queues is ordered only by events (queue_wait_event). A queue is used
 * by one thread at a time (the front end's rule for gpux streams); everything else in the
 * backend's context is shared by every queue and thread, so a backend guards what it
 * changes after context creation (lazily built programs, kernel arguments set before an
 * enqueue, lazily created library handles). */
typedef struct gpux__bq gpux__bq;

/* A scalar already converted to the operand's dtype (bool: b8 holds 0 or 1). */
typedef union gpux__scalar {
  float f32;
  double f64;
  int32_t i32;
  int64_t i64;
  uint8_t u8;
  uint8_t b8;
  uint16_t f16;  /* float16 bits */
  uint16_t bf16; /* bfloat16 bits */
  int8_t i8;
  int16_t i16;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  float c64[2];  /* complex64: re, im */
  double c128[2]; /* complex128: re, im */
} gpux__scalar;

/* One operand: a buffer from mem_alloc plus an offset in elements. */
typedef struct gpux__operand {
  void *buf;
  int64_t offset;
  int dtype; /* GPUX_KDT_* */
} gpux__operand;

/* One kernel launch as the front end planned it.
 * layout C: every operand contiguous, n elements, opnd[k].offset applies.
 * layout S: opnd[0] and opnd[1] contiguous; the second operand is `scalar`
 *           (scalar_first: computes scalar op a).
 * layout N: nd holds shape, strides and offsets (offsets also in opnd[].offset).
 * Every launch has n >= 1: the front end returns before calling on an empty output.
 *
 * THE N-D CONTRACT. nd is the front end's plan of the iteration, the same for every
 * backend: the output's shape with the operands broadcast, dims of size 1 dropped and
 * mergeable dims merged (row-major, ndim >= 1, n = the product), tile_dim = -1. What a
 * kernel's own parameter block looks like is the backend's: the CUDA kernels take the plan
 * as it is; the OpenCL CPU form re-lays it for a 3-d NDRange (cl_launch.c,
 * gpux_cl_enqueue_nd_exact) and the tiled copy reorders its dims (cl_elementwise.c).
 * Whether a copy runs as a tiled transpose is the backend's choice too
 * (gpux__nd_tile_dim below); the front end does not plan it. */
typedef struct gpux__launch {
  int layout;
  int scalar_first;
  int64_t n;
  gpux__operand opnd[GPUX_KMAX_OPERANDS];
  gpux__scalar scalar;
  gpux_nd_params nd;
} gpux__launch;

/* The dim of nd (below the last) along which input 1 is contiguous while the output walks
 * the last dim contiguously and input 1 does not: a transposing copy, where a tiled kernel
 * pays; -1 when there is none. For the copy launches of the backends that have one. */
static inline int gpux__nd_tile_dim(const gpux_nd_params *nd) {
  const int last = (int)nd->ndim - 1;
  if (last < 1 || nd->stride[0][last] != 1 || nd->stride[1][last] == 1) return -1;
  if (nd->shape[last] < 4) return -1;
  for (int d = 0; d < last; d++)
    if (nd->stride[1][d] == 1 && nd->shape[d] >= 4) return d;
  return -1;
}

/* A copy whose last dim is contiguous in both operands moves pairs of elements as one
 * element of twice the size while the pair stays whole (the last length, every other
 * stride and both offsets even) and aligned (`bases`: the operands' base addresses OR'ed,
 * 0 where the buffers are aligned anyway), up to max_size bytes: one index computation
 * per 16 bytes instead of per element (a concatenate along axis 1 of float32 rows copies
 * at 2x the rate). Returns the new element size; nd is updated to match. */
static inline int gpux__nd_widen(gpux_nd_params *nd, int elem_size, int max_size,
                                 uint64_t bases) {
  const int last = (int)nd->ndim - 1;
  if (last < 0 || nd->stride[0][last] != 1 || nd->stride[1][last] != 1) return elem_size;
  while (elem_size < max_size && !(nd->shape[last] & 1) &&
         !(bases & (uint64_t)(2 * elem_size - 1)) && !((nd->offset[0] | nd->offset[1]) & 1)) {
    int even = 1;
    for (int d = 0; d < last; d++) even &= !((nd->stride[0][d] | nd->stride[1][d]) & 1);
    if (!even) break;
    for (int d = 0; d < last; d++) {
      nd->stride[0][d] /= 2;
      nd->stride[1][d] /= 2;
    }
    nd->shape[last] /= 2;
    nd->offset[0] /= 2;
    nd->offset[1] /= 2;
    nd->n /= 2;
    elem_size *= 2;
  }
  return elem_size;
}

/* One reduction pass (kernels/common/gpux_kernels.h: "THE CANONICAL ORDER"). For each
 * output (o, i) the pass reduces the len elements in[o][r][i] (r = 0..len-1; inner == 1 for
 * layout ROW) chunk by chunk and writes nparts = ceil(len / GPUX_RED_CHUNK) values to
 * out[o][p][i] (p = 0..nparts-1), contiguous, in the kind's accumulator dtype. When nparts
 * is 1 the post op applies. len >= 1, outer >= 1, inner >= 1; nothing is empty.
 * out.dtype is the accumulator dtype (the front end derives it from the kind's list).
 *   in_idx:  argmin_p/argmax_p only: i64 indices beside in (same layout);
 *   out_idx: argmin/argmax/argmin_p/argmax_p: i64 indices beside out;
 *   aux:     ssd only: the mean of each output, [outer][inner], input dtype. */
typedef struct gpux__reduce_pass {
  int kind;   /* GPUX_REDUCE_KINDS id */
  int dtype;  /* input dtype (GPUX_KDT_*) */
  int layout; /* GPUX_RL_ROW or GPUX_RL_COL */
  int post;   /* GPUX_POST_* */
  double post_div;
  int64_t outer, len, inner;
  gpux__operand in, in_idx, out, out_idx, aux;
} gpux__reduce_pass;

/* One scan ("THE CANONICAL SCAN"): rows x len, input and output contiguous, the output in
 * the kind's accumulator dtype (out.dtype); rows >= 1, len >= 1. */
typedef struct gpux__scan_pass {
  int kind;  /* GPUX_SCAN_KINDS id */
  int dtype; /* input dtype */
  int exclusive;
  int64_t rows, len;
  gpux__operand in, out;
} gpux__scan_pass;

/* One stream compaction pass (include/gpux/mask.h; gpux_kernels.h "Boolean masks"): n >= 1
 * elements in ntiles = ceil(n / GPUX_MASK_TILE) tiles; bits holds ntiles * GPUX_MASK_WORDS
 * uint16 words, bit i % 16 of word i / 16 set when element i is selected. Every operand is
 * contiguous.
 *   flags:    element i of x (elem_size bytes: a bool mask, or nonzero's x) is selected when
 *             it has a bit of nzbits set (in either 8-byte word of a 16-byte element): writes
 *             bits (every word of every tile) and out[c] (int64) = tile c's selected count;
 *   starts:   as flags, element i of x (elem_size 1, 2, 4 or 8: a sorted array of a real
 *             dtype or bool whose gpux_so_img class and masks are kcls, em, mm) selected
 *             when it starts a run of equal keys (i = 0, or its image with GPUX_SO_EQZ
 *             differs from element i - 1's);
 * the others read bits and incl (ntiles int64, incl[c] = the selected elements of tiles
 * 0..c, so incl[ntiles - 1] is the total, which the front end has checked against out's or
 * vals' size):
 *   compress: out[k] = x[i] (elem_size bytes) for the k-th selected i;
 *   put:      x[i] = vals[k] (elem_size bytes) likewise;
 *   nonzero:  out[k * sp + d * sd] (int64) = coordinate d of the k-th selected i in
 *             nd.shape[0 .. nd.ndim) (row-major, nd.ndim >= 1; the other fields of nd are
 *             unused; x and elem_size unused);
 *   ids:      every element i (selected or not) writes out[perm[i]] (int64) = the selected
 *             elements at or before i, minus 1; perm (int64) is x, or i itself where x.buf
 *             is NULL (elem_size unused). */
typedef struct gpux__mask_pass {
  int kind;      /* GPUX_MASK_KINDS id */
  int elem_size; /* 1, 2, 4, 8 or 16 */
  int64_t n, ntiles;
  gpux__operand x, bits, vals, incl, out;
  uint64_t nzbits;
  int kcls;          /* starts: the keys' GPUX_SO_* class */
  uint64_t em, mm;   /* starts: their exponent and significand masks (floats) */
  int64_t sp, sd;
  gpux_nd_params nd;
} gpux__mask_pass;

/* One step of a sort (include/gpux/sort.h; gpux_kernels.h "Sort"; the images: gpux_sort.h).
 * rows x len keys (rows, len >= 1), every operand contiguous; images of W = 4 or 8 bytes
 * (GPUX_SORT_DTYPES' W / 8), positions uint32 within a row (len <= UINT32_MAX), or none
 * (keys-only sorts: pos_in and pos_out have buf NULL, and the kernels skip them). n = rows *
 * len. TILE = GPUX_SORT_TILE(8 * W), npass = W (8-bit digits). Operands by stage:
 *   IMG:     img_out[i] = gpux_so_img(keys[i], flags) (dtype's w bits, zero-extended to W);
 *            pos_out[i] = i % len (or none); bits (4 uint32 words, preset to 0, 0, ~0, ~0 by
 *            the front end): bits[0], bits[1] |= the low / high 32 bits of every image,
 *            bits[2], bits[3] &= them (W 4: the high words untouched), so a digit of no
 *            varying bit can be skipped;
 *   IMGH:    IMG without positions (img_out none: no images, only bits and counts; the
 *            first ONESWEEP then reads kin), and the digit counts of every pass: groups g < ngroups
 *            of hk keys (g = r * gpr + h: keys h * hk .. min(len, (h + 1) * hk) - 1 of row r;
 *            gpr = ceil(len / hk)); counts (uint32, rows x nportions x npass x RADIX, zeroed
 *            by the front end) += the group's keys whose digit (img >> 8 * pass) & 255 is d,
 *            at [r][0][pass][d] (slot 0: the whole row's, whatever portion a key lies in; the
 *            slots of portions p >= 1 are ONESWEEP's, as CUB's d_bins);
 *   ONESWEEP: one stable pass of the digit at shift = 8 * pass over portion `portion` of every
 *            row: the keys p0 .. p0 + plen - 1 of each row (p0 = portion * pkeys), tpp =
 *            ceil(plen / TILE) tiles a row; img_in / pos_in -> img_out / pos_out. A key of
 *            row r with digit d goes to row r at: the keys of row r of digit < d (the
 *            exclusive scan of counts[r][0][pass]) + those of digit d in earlier portions of
 *            this pass's input (counts[r][portion][pass][d]; 0 for portion 0) + those of
 *            digit d in earlier tiles of its portion (decoupled look-back over lb) + its
 *            stable rank among its tile's keys of digit d. The last tile of each row writes
 *            counts[r][portion + 1][pass][d] = the keys of digit d in portions 0 .. portion
 *            (when portion + 1 < nportions): a later pass's portions hold other keys than
 *            IMGH's, so only the launch before can count them. pos_in none with pos_out given:
 *            the positions are the keys' places in their row (the first pass). lb (uint32,
 *            rows * tpp * RADIX + 1 words, zeroed by the front end before each launch): the
 *            look-back words GPUX_SO_LB_* of tile (r, t) at [(r * tpp + t) * RADIX + d], the
 *            last word the counter that hands out tile ids in launch order;
 *   LOCAL:   len <= GPUX_SORT_LOCAL_MAX: each row of img_in / pos_in sorted by (image,
 *            position) into img_out / pos_out;
 *   OUT:     keys[i] (dtype) = gpux_so_unimg(img_in[i], flags);
 *   WIDEN:   out[i] (int64) = pos_in[i], or i % len when pos_in is none (no digit varied). */
/* the key dtype's row of GPUX_SORT_DTYPES: what ONESWEEP's fused ends pass to the kernels
 * for gpux_so_img / unimg */
typedef struct gpux__sort_keycv {
  int w, cls;
  uint64_t em, mm, nan;
} gpux__sort_keycv;
static inline gpux__sort_keycv gpux__sort_keycv_of(int dtype) {
  gpux__sort_keycv c = {0, 0, 0, 0, 0};
  switch (dtype) {
#define GPUX__SO_CV(dt, w_, W_, cls_, em_, mm_, nan_) \
  case GPUX_KDT_##dt:                                 \
    c.w = w_;                                         \
    c.cls = cls_;                                     \
    c.em = (uint64_t)(em_);                           \
    c.mm = (uint64_t)(mm_);                           \
    c.nan = (uint64_t)(nan_);                         \
    break;
    GPUX_SORT_DTYPES(GPUX__SO_CV)
#undef GPUX__SO_CV
  default: break;
  }
  return c;
}
#define GPUX__SO_IMG 0
#define GPUX__SO_IMGH 1
#define GPUX__SO_ONESWEEP 2
#define GPUX__SO_LOCAL 3
#define GPUX__SO_OUT 4
#define GPUX__SO_WIDEN 5
typedef struct gpux__sort_pass {
  int stage;      /* GPUX__SO_* */
  int dtype;      /* the keys' GPUX_KDT_* (IMG, IMGH, OUT) */
  int width;      /* image bytes: 4 or 8 */
  unsigned flags; /* GPUX_SO_DESC, GPUX_SO_EQZ (IMG, IMGH, OUT) */
  int pass, npass, portion, nportions; /* ONESWEEP (pass, portion), IMGH and ONESWEEP */
  int64_t rows, len;
  int64_t hk, gpr, ngroups, pkeys; /* IMGH (pkeys: ONESWEEP too) */
  int64_t p0, plen, tpp;           /* ONESWEEP */
  gpux__operand keys, img_in, pos_in, img_out, pos_out, counts, lb, bits, out;
  /* ONESWEEP's fused ends (buf NULL: unused): kin, the keys (dtype) read and imaged
   * (gpux_so_img, flags) in place of img_in (the first pass, so IMGH writes no images);
   * kout, the keys written back (OUT's gpux_so_unimg) in place of img_out, and pos64, the
   * positions widened to int64 (WIDEN's) in place of pos_out (the last pass). img_out may
   * be none in the last pass: no images written. */
  gpux__operand kin, kout, pos64;
} gpux__sort_pass;

/* One matrix product, or a batch of them, row-major (include/gpux/linalg.h). For
 * b = 0 .. batch-1:  C_b = alpha * op(A_b) @ op(B_b) + beta * C_b, where op(A_b) is m x k,
 * op(B_b) k x n and C_b m x n.
 *   A_b starts at a.offset + b * stride_a elements of a.buf (stride 0: one A for all b);
 *   element (i, l) of op(A_b) is A_b[i * lda + l] (trans_a == 0) or A_b[l * lda + i];
 *   B likewise with ldb and stride_b; C_b[i * ldc + j] (C is never transposed, and the C_b
 *   of different b never overlap).
 * The front end guarantees m, n, batch >= 1, k >= 0 (k == 0: C = beta * C), every ld >= 1
 * and at least the stored row length (lda >= k without trans_a, >= m with it; ldb likewise;
 * ldc >= n), all three operands of `dtype`, no overlap between C and A or B.
 * alpha/beta are in the compute type: f32 for f32, f16, bf16; f64; i32; i64 (integers wrap);
 * complex: c64 / c128 (re, im).
 * beta == 0 (complex: both parts): C is written without being read (NaN in C must not leak).
 * conj_a / conj_b (complex dtypes only, 0 when k == 0): the elements of A_b / B_b are
 * conjugated as they are read, whatever trans_a / trans_b say (trans 1 + conj 1 is BLAS's
 * 'C'; trans 0 + conj 1 has no BLAS op: vendor paths hand it to the native kernels).
 * path: GPUX_GEMM_VENDOR or GPUX_GEMM_NATIVE, one that supports (GPUX__Q_GEMM) accepted for
 * the dtype: the front end resolves auto by asking.
 * tf32: float32 on the vendor path may use TF32 tensor cores. */
typedef struct gpux__gemm {
  int dtype; /* GPUX_KDT_* of a, b and c */
  int trans_a, trans_b;
  int path; /* GPUX_GEMM_VENDOR or GPUX_GEMM_NATIVE */
  int tf32;
  int conj_a, conj_b;
  int64_t m, n, k, batch;
  int64_t lda, ldb, ldc;
  int64_t stride_a, stride_b, stride_c;
  gpux__scalar alpha, beta;
  gpux__operand a, b, c;
} gpux__gemm;

/* One random draw (include/gpux/random.h, kernels/common/gpux_random.h): the n values of
 * `kind` starting at word p.pos of (p.seed, p.stream), written contiguously to out (dtype
 * out.dtype, from the kind's list in GPUX_RANDOM_KINDS). The front end guarantees n >= 1,
 * p.n == n, p.nblocks == ceil(words / 4) and the parameters valid for the kind. */
typedef struct gpux__random {
  int kind; /* GPUX_RK_* */
  gpux_rparams p;
  gpux__operand out;
} gpux__random;

/* One launch of the index family (include/gpux/index.h; "Gather and put" in
 * kernels/common/gpux_kernels.h, which names the kernels and says what each computes):
 *   GPUX__IX_GATHER  gpux_index_gather_<elem_size>_<idx_dtype>: out, src, idx, err; x, nd
 *   GPUX__IX_TAKE    gpux_index_take_<elem_size>_<idx_dtype>: out, src, idx, err; x (out and
 *                    idx contiguous from x.off0 / x.off2, src from x.off1 with x.astride)
 *   GPUX__IX_MARK    gpux_index_mark_<idx_dtype>_<win_dtype>: win, idx, err; x, nd
 *   GPUX__IX_PUT     gpux_index_put_<elem_size>_<idx_dtype>_<win_dtype>: out (the
 *                    destination), src (the values), idx, win; x, nd
 *   GPUX__IX_BADVAL  gpux_index_badval_<idx_dtype>: idx, err; x.key, nd (idx's own layout
 *                    in shape / stride[0] / offset[0]); one work-item
 * Offsets are in x and nd (an operand's offset is not read); err is the stream's deferred
 * error words (src/api/deferred.c). The front end guarantees x.n >= 1, x.len >= 1, nd.n ==
 * x.n for the n-d kinds, every offset in range, positions below 2^GPUX_IX_POS_BITS and, for
 * MARK / PUT, win of a.size elements of win_dtype filled with -1 (int32 only where x.n <=
 * INT32_MAX). */
#define GPUX__IX_GATHER 0
#define GPUX__IX_TAKE 1
#define GPUX__IX_MARK 2
#define GPUX__IX_PUT 3
#define GPUX__IX_BADVAL 4
typedef struct gpux__index {
  int kind;      /* GPUX__IX_* */
  int elem_size; /* 1, 2, 4, 8 or 16 (GATHER, TAKE, PUT) */
  int idx_dtype; /* GPUX_KDT_i32 or GPUX_KDT_i64 */
  int win_dtype; /* GPUX_KDT_i32 or GPUX_KDT_i64 (MARK, PUT) */
  gpux_ix_params x;
  gpux_nd_params nd;
  gpux__operand out, src, idx, win, err;
} gpux__index;
/* One step of a scatter with a combining op (include/gpux/index.h; the arithmetic and the
 * accumulator layout: kernels/common/gpux_scatter.h). The front end runs INIT over the nt
 * targets, APPLY over the values, FIN over the targets, on one accumulator buffer acc of
 * gpux__scatter_acc_bytes(op, dtype, nt) bytes, whose header (gpux_scatter.h, THE HEADER)
 * the front end zeroes before INIT. The exact sums (ADD of a float dtype:
 * gpux__scatter_exact) also run SCAN over the values after INIT (the window's place).
 * Mode GPUX_SC_CHECKED: APPLY notes the first bad position of idx in the header, FIN then
 * writes nothing, and the front end reads the header's error word.
 *   dtype: the value dtype, one of GPUX_SCAT_DT (complex: its component's, with the inner
 *          extent doubled);
 *   INIT / FIN: a, nt targets contiguous (nt >= 1);
 *   SCAN: nv >= 1 values v contiguous;
 *   APPLY: nv >= 1 values v contiguous, shaped (nv / (m * post), m, post); value
 *          (p, j, q) goes to target (p * n + k) * post + q of a, k = idx[j] normalized by
 *          mode (GPUX_SC_CHECKED / WRAP / CLIP / SKIP; an index outside the range after it
 *          is skipped, never read or written); idx contiguous, idx_dtype i32 or i64. */
#define GPUX__SC_INIT 0
#define GPUX__SC_APPLY 1
#define GPUX__SC_FIN 2
#define GPUX__SC_SCAN 3
typedef struct gpux__scatter {
  int stage; /* GPUX__SC_* */
  int op;    /* GPUX_SC_ADD / MAX / MIN */
  int dtype;
  int idx_dtype;
  int mode;
  int64_t nt, nv, m, post, n;
  gpux__operand a, v, idx;
  void *acc; /* a buffer from mem_alloc */
} gpux__scatter;
/* 1 for the exact sums (ADD of the float dtypes) */
static inline int gpux__scatter_exact(int op, int dtype) {
  return op == GPUX_SC_ADD && (dtype == GPUX_KDT_f32 || dtype == GPUX_KDT_f64 ||
                               dtype == GPUX_KDT_f16 || dtype == GPUX_KDT_bf16);
}
/* the accumulator's bytes for nt targets (0: too many for size_t) */
static inline size_t gpux__scatter_acc_bytes(int op, int dtype, int64_t nt) {
  const int wide = dtype == GPUX_KDT_f64 || dtype == GPUX_KDT_i64 || dtype == GPUX_KDT_u64;
  size_t per = wide ? 8u : 4u;
  const size_t hdr = 8u * GPUX_SC_HDR;
  if (gpux__scatter_exact(op, dtype)) /* window and full accumulator (flags word last) */
    per = 8u * (GPUX_SC_W + (dtype == GPUX_KDT_f64 ? GPUX_SC_D_F64 : GPUX_SC_D_F32) + 1);
  if (nt < 0 || (uint64_t)nt > ((uint64_t)SIZE_MAX - hdr) / per) return 0;
  return hdr + (size_t)nt * per;
}
/* bincount: counts[k] += #(x == k) for k in [0, nbins) (values outside are skipped); x
 * contiguous (idx_dtype i32 or i64, n >= 1), counts int64, contiguous, nbins >= 1. err: one
 * uint64 word (preset to 0 by the front end) that gets the maximum of ~i over the positions
 * i of values outside [0, nbins) (so ~err is the first), or buf NULL (not checked). */
typedef struct gpux__bincount {
  int idx_dtype;
  int64_t n, nbins;
  gpux__operand x, counts, err;
} gpux__bincount;
/* search: out[i] (int64) = the count of gpux_search_<dt>'s mode (GPUX_SC_DIG_* / HIST) for
 * x[i] among the ne >= 1 edges (of the same dtype, monotonic as the mode says, no NaN); n
 * >= 1, every operand contiguous; dtype one of GPUX_SCAT_DT. */
typedef struct gpux__search {
  int dtype, mode;
  int64_t n, ne;
  gpux__operand x, edges, out;
} gpux__search;

/* One launch of the select family (include/gpux/select.h; what each kernel computes:
 * kernels/common/gpux_select.h). kind: a GPUX_SEL_KINDS id (the kernels of a dtype) or
 * GPUX__SEL_PICK / GPUX__SEL_SCAN. x, q, vals, idx, out, tv, ti: contiguous operands with
 * offsets; st, hist, cnt, rk, gam: scratch the front end allocated (offset 0). Every
 * count >= 1 (rows, len, n, k, nt, nq as the kind uses them).
 *   ss:   q (n queries) searched in x (len sorted keys), right, out (n int64)
 *   hist: x (rows x len), nt (<= 16) targets, shift, flags, st, hist
 *   PICK: st, hist, rk (nt ranks), n = rows * nt, nt, shift, first
 *   cnt:  x, rows, len, flags, st, cnt;  SCAN: cnt, st, rows, len
 *   emit: x, rows, len, flags, st, cnt, mode, k, vals / idx (buf NULL: not written)
 *   rank: tv, ti (rows x k), flags, vals, idx;  qfin: st, rk, gam, rows, nq, mode, out
 *         (out[q * len + row]: len is the output's stride between q)
 *   h12:  x, rows, len, flags, hist (rows x GPUX_SEL_B12, zeroed), hb (rows x
 *         gpux__sel_h12_plan's GPU-form groups x GPUX_SEL_B12 words: room for either form); the
 *         backend picks its groups (gpux__sel_h12_plan);  PICK12: hist, k (the rank), rows, pc
 *   GCNT: hb, pc, rows, len, gc (a word per h12 group);  gather: x, rows, len, flags, pc
 *         (its P every pcs words), shift (the predicate's), gc, cb and capg (capg: cb's words
 *         in all, 0: no list; the backend gives each of its groups capg / (rows x its
 *         groups a row), as filt), cand, cpos, cstride;  MAP: idx (n = k entries from its
 *         offset), cpos (from its offset)
 *   ssel: x, rows, len, n (the sample's keys a row, <= GPUX_SEL_SNS), k (the rank), flags,
 *         st (the image of rank k every GPUX_SEL_ST words)
 *   filt: x, rows, len, flags, st (the bound's image every GPUX_SEL_ST words), cb, capg (as
 *         gather's), gc, tot (rows words, zeroed) */
#define GPUX__SEL_PICK GPUX_SEL_KIND_COUNT
#define GPUX__SEL_SCAN (GPUX_SEL_KIND_COUNT + 1)
#define GPUX__SEL_PICK12 (GPUX_SEL_KIND_COUNT + 2)
#define GPUX__SEL_MAP (GPUX_SEL_KIND_COUNT + 3)
#define GPUX__SEL_GCNT (GPUX_SEL_KIND_COUNT + 4)
typedef struct gpux__select {
  int kind, dtype;
  unsigned flags;
  int shift, nt, nq, mode, right, first;
  int64_t rows, len, n, k, cstride, pcs, capg;
  gpux__operand x, q, out, vals, idx, tv, ti, st, hist, cnt, rk, gam, pc, hb, gc, cand, cpos, cb,
      tot;
} gpux__select;

/* h12's keys a group (a multiple of GPUX_SEL_THREADS, >= 16 a work-item): about `groups`
 * groups over all rows; each zeroes and flushes its 4097 bins, so a CPU device (few threads)
 * wants few groups, a GPU enough to fill it */
static inline int64_t gpux__sel_h12_keys(int64_t rows, int64_t len, int64_t groups) {
  int64_t hk = (rows * len + groups - 1) / groups;
  if (hk < 16 * GPUX_SEL_THREADS) hk = 16 * GPUX_SEL_THREADS;
  return (hk + GPUX_SEL_THREADS - 1) / GPUX_SEL_THREADS * GPUX_SEL_THREADS;
}
/* h12's (and gcnt's, gather's and filt's) keys a group, returned, and groups a row, *gpr: about 4096
 * groups in all on a GPU form, 64 on a CPU form (cpu), which has no more groups a row than a
 * GPU form */
static inline int64_t gpux__sel_h12_plan(int64_t rows, int64_t len, int cpu, int64_t *gpr) {
  /* GPUX_SELECT_H12_GROUPS (a test knob, read at each call): the groups in all, either form
   * (a few make the GPU forms' groups hold several tiles at test sizes) */
  const char *e = getenv("GPUX_SELECT_H12_GROUPS");
  const long long g = e ? atoll(e) : 0;
  const int64_t hk = gpux__sel_h12_keys(rows, len, g > 0 ? (int64_t)g : cpu ? 64 : 4096);
  *gpr = (len + hk - 1) / hk;
  return hk;
}

/* A launch in h12's groups (h12, gcnt, gather, filt): its keys a group (returned, 1 for any
 * other kind), groups a row (*gpr) and filt's / gather's list words a group (*capg: cb's
 * words spread over the form's groups), for a CPU form (cpu) or a GPU form */
static inline int64_t gpux__sel_groups(const gpux__select *p, int cpu, int64_t *gpr,
                                       int64_t *capg) {
  *gpr = 1;
  *capg = 0;
  if (p->kind != 6 && p->kind != 7 && p->kind != 9 && p->kind != GPUX__SEL_GCNT) return 1;
  const int64_t hk = gpux__sel_h12_plan(p->rows, p->len, cpu, gpr);
  *capg = p->capg / (p->rows * *gpr);
  return hk;
}

/* User programs and kernels (include/gpux/kernel.h), owned by the backend. */
typedef struct gpux__uprog gpux__uprog;
typedef struct gpux__ukern gpux__ukern;

/* Languages (gpux_source_lang) and build flags of program_build. */
#define GPUX__LANG_DIALECT 0
#define GPUX__LANG_CUDA 1
#define GPUX__LANG_OPENCL 2
#define GPUX__PROG_NO_CONTRACT 1u /* no FMA contraction (CUDA --fmad=false, OpenCL
                                     FP_CONTRACT OFF): elementwise expressions */
#define GPUX__PROG_OPS 2u         /* the ops prelude too (gpux_relu, ...): elementwise
                                     expressions */
#define GPUX__MAX_KPARAMS 128     /* parameters of a user kernel */
/* Internal argument kind beside GPUX_ARG_*: `size` bytes at (const void *)(uintptr_t)value,
 * passed by value (the struct parameter of generated kernels). */
#define GPUX__UARG_BYTES 16

/* One argument of a user kernel launch, as the front end checked it. */
typedef struct gpux__uarg {
  int kind;              /* GPUX_ARG_ARRAY, _SCALAR, _LOCAL or GPUX__UARG_BYTES */
  uint32_t size;         /* SCALAR: bytes of the value (1, 2, 4 or 8); BYTES: bytes */
  void *buf;             /* ARRAY: buffer from mem_alloc; NULL for an empty array */
  uint64_t offset_bytes; /* ARRAY: where the array's first element is in buf */
  uint64_t value;        /* SCALAR: the value's bytes, from the lowest address (memcpy) */
  uint64_t local_bytes;  /* LOCAL: bytes of local (shared) memory */
} gpux__uarg;

/* The capability query (supports): can this context's device run one op? The families are
 * the interface's kernel entries; op and the dtypes narrow it down where a backend's answer
 * can depend on them. X(ID, what it is in messages, whether backend `be` has its entries:
 * a family whose entries are NULL the front end answers itself). A new op family is one
 * line here. */
#define GPUX__QUERY_FAMILIES(X)                                                                \
  /* op: gpux_binary_op; dtype: the operands' */                                              \
  X(BINARY, "elementwise binary ops", 1)                                                      \
  /* op: gpux_unary_op; dtype: the operand's */                                               \
  X(UNARY, "elementwise unary ops", 1)                                                        \
  /* dtype: a's and b's */                                                                    \
  X(WHERE, "where", 1)                                                                        \
  /* dtype: the source's; dtype2: the destination's */                                        \
  X(CAST, "casts", 1)                                                                         \
  /* fill, arange, linspace; dtype: the output's */                                           \
  X(FILL, "fills", 1)                                                                         \
  /* op: gpux_reduce_op; dtype: the input's */                                                \
  X(REDUCE, "reductions", be->reduce != NULL)                                                 \
  /* op: gpux_scan_op; dtype: the input's */                                                  \
  X(SCAN, "scans", be->scan != NULL)                                                          \
  /* scatter, bincount, search; dtype: the values' (GPUX_SCAT_DT; -1: bincount) */         \
  X(SCATTER, "scatter, bincount, histogram and digitize",                                     \
    be->scatter && be->bincount && be->search)                                                \
  /* op: GPUX_GEMM_VENDOR or GPUX_GEMM_NATIVE; dtype: the operands' */                        \
  X(GEMM, "matrix products", be->gemm != NULL)                                                \
  /* op: GPUX_RK_*; dtype: the output's */                                                    \
  X(RANDOM, "random numbers", be->random != NULL)                                             \
  /* gather and put (op 0, dtype -1) */                                                        \
  X(INDEX, "gather and put", be->index != NULL)                                               \
  /* op: GPUX_MASK_KINDS id; dtype: -1 (the kernels go by element size) */                 \
  X(MASK, "boolean masks", be->mask != NULL)                                                  \
  /* op: GPUX__LANG_* (run-time compiled programs and their kernels) */                       \
  X(PROGRAM, "run-time compiled programs",                                                    \
    be->program_build && be->program_release && be->kernel_create && be->kernel_release &&    \
        be->kernel_launch)                                                                    \
  /* device-clock events (timing events: supports may say no where the queue cannot time) */ \
  X(EVENTS, "device events",                                                                  \
    be->event_create && be->event_destroy && be->event_record && be->event_synchronize &&     \
        be->event_elapsed_ms)                                                                 \
  /* more queues per context, ordered by events */                                            \
  X(STREAMS, "streams (several queues per context)",                                          \
    be->queue_create && be->queue_destroy && be->event_create && be->event_destroy &&         \
        be->event_record && be->event_query && be->queue_wait_event && be->event_synchronize) \
  /* native handles in and out (interop) */                                                   \
  X(INTEROP, "native handles (interop)",                                                      \
    be->native_get && be->queue_native && be->context_adopt && be->mem_wrap &&                \
        be->mem_unwrap)                                                                       \
  /* page-locked host memory and transfers that return once queued */                        \
  X(ASYNC_COPY, "page-locked host memory and asynchronous transfers",                         \
    be->host_alloc && be->host_free && be->mem_upload_async && be->mem_download_async) \
  /* dtype: the keys' */                                                                     \
  X(SORT, "sort", be->sort != NULL)                                                         \
  X(SELECT, "searchsorted, top-k, partition, median and quantile", be->select != NULL)
#define GPUX__Q_ENUM(id, what, has) GPUX__Q_##id,
enum { GPUX__QUERY_FAMILIES(GPUX__Q_ENUM) GPUX__Q_COUNT };
#undef GPUX__Q_ENUM
typedef struct gpux__query {
  int family; /* GPUX__Q_* */
  int op;     /* as the family says; 0 where it says nothing */
  int dtype;  /* GPUX_KDT_*, -1 where the family has none */
  int dtype2; /* GPUX__Q_CAST's destination; -1 otherwise */
} gpux__query;

/* The native handles of a context, as the application sees them (include/gpux/cuda.h,
 * opencl.h). CUDA: context = CUcontext, ordinal = the CUdevice, queue = CUstream; OpenCL:
 * context = cl_context, device = cl_device_id, queue = cl_command_queue. */
typedef struct gpux__native {
  void *context;
  void *device;
  int ordinal;
  void *queue;
} gpux__native;

/* Description of a device, filled by device_info. */
typedef gpux_device_info gpux__devinfo;

typedef struct gpux__backend_iface {
  uint32_t abi_version; /* GPUX_BACKEND_ABI_VERSION */
  const char *name;     /* "cuda", "opencl" */

  /* Optional: GPUX_SUCCESS when this context's device runs q, else the status a call would
   * fail with (GPUX_ERROR_UNSUPPORTED: the device or a library lacks it; ..._DTYPE: not for
   * this dtype) and the reason (a phrase; the front end adds the function, the dtype, the
   * backend and the device) in why[0..len). It sets no
   * error: asking is not failing. The front end asks before each call that a backend or
   * device may lack (a family whose entry is NULL it answers itself); left NULL, every
   * filled entry runs every dtype. */
  gpux_status (*supports)(gpux__bctx *b, const gpux__query *q, char *why, size_t len);

  /* Loads the driver and enumerates devices; called once, under the core's lock.
   * Failure: GPUX_ERROR_BACKEND_UNAVAILABLE with the reason (dlerror text, driver code). */
  gpux_status (*init)(void);
  gpux_status (*device_count)(int *count);
  gpux_status (*device_info)(int index, gpux__devinfo *info);

  gpux_status (*context_create)(int index, gpux__bctx **out);
  /* Waits for the default queue's work first; the front end destroys the other queues
   * before. */
  void (*context_destroy)(gpux__bctx *b);
  /* The queue the context was made with (for an adopted context, the application's stream
   * or queue); it lives as long as b. */
  gpux__bq *(*queue_default)(gpux__bctx *b);
  /* Optional (both or neither): another queue of b's device, with scratch of its own (CUDA:
   * a non-blocking stream; OpenCL: an in-order queue, with profiling where the default
   * queue has it). queue_destroy waits for q's work, then frees q. */
  gpux_status (*queue_create)(gpux__bctx *b, gpux__bq **out);
  void (*queue_destroy)(gpux__bq *q);
  /* Waits for q's queued work; an error raised by it returns GPUX_ERROR_ASYNC (or a more
   * precise status) with the native code in the message. */
  gpux_status (*synchronize)(gpux__bq *q);

  /* Device memory. Out of memory is GPUX_ERROR_OUT_OF_MEMORY; the context stays usable. */
  gpux_status (*mem_alloc)(gpux__bctx *b, size_t bytes, void **buf);
  void (*mem_free)(gpux__bctx *b, void *buf);
  /* Host -> device, queued in order on q; the host buffer may be reused when it returns. */
  gpux_status (*mem_upload)(gpux__bq *q, void *buf, size_t offset_bytes, const void *src,
                            size_t bytes);
  /* Device -> host; waits for the work queued on q before it and for the copy. */
  gpux_status (*mem_download)(gpux__bq *q, void *buf, size_t offset_bytes, void *dst,
                              size_t bytes);
  /* Optional: `bytes` (<= 4096) of page-locked host memory that kernels can write, for
   * results the host reads at once (gpux_reduce_scalar). *buf is an operand buffer; after
   * synchronize(q) its contents are at *host, with no copy. One per queue, reused. */
  gpux_status (*host_result)(gpux__bq *q, size_t bytes, void **buf, void **host);
  /* Optional (all four or none): page-locked host memory, and transfers that return once
   * queued (the host memory stays in use until the queue gets past them). host_alloc: bytes
   * (> 0) of page-locked memory that every context of the backend can copy from and to at
   * full speed, *ptr for the application, *handle for host_free (NULL if none). */
  gpux_status (*host_alloc)(gpux__bctx *b, size_t bytes, void **ptr, void **handle);
  void (*host_free)(gpux__bctx *b, void *ptr, void *handle);
  /* Optional: *pinned = 1 when the driver knows host memory p as page-locked (the
   * application's registered or page-locked memory; host_alloc's is known to the front
   * end), so that the front end copies it directly instead of through bounce buffers. */
  gpux_status (*host_pinned)(gpux__bctx *b, const void *p, int *pinned);
  gpux_status (*mem_upload_async)(gpux__bq *q, void *buf, size_t offset_bytes,
                                  const void *src, size_t bytes);
  gpux_status (*mem_download_async)(gpux__bq *q, void *buf, size_t offset_bytes, void *dst,
                                    size_t bytes);
  /* Device -> device, queued. */
  gpux_status (*mem_copy)(gpux__bq *q, void *dst, size_t dst_offset_bytes, void *src,
                          size_t src_offset_bytes, size_t bytes);

  /* Kernels (all queued). The dtype is opnd[1].dtype unless said otherwise. */
  gpux_status (*binary)(gpux__bq *q, int op, const gpux__launch *l);  /* layouts C, S, N */
  gpux_status (*unary)(gpux__bq *q, int op, const gpux__launch *l);   /* layouts C, N */
  gpux_status (*where)(gpux__bq *q, const gpux__launch *l);           /* 1 cond, 2 a, 3 b;
                                                                           dtype opnd[2] */
  gpux_status (*cast)(gpux__bq *q, const gpux__launch *l); /* opnd[1].dtype -> opnd[0] */
  /* layout N only: opnd[0] = opnd[1] elementwise, elem_size bytes per element (1, 2, 4 or
   * 8). The backend picks the kernel (a tiled transpose where gpux__nd_tile_dim finds one). */
  gpux_status (*copy)(gpux__bq *q, int elem_size, const gpux__launch *l);
  /* layout C on opnd[0] (dtype opnd[0].dtype); fill writes l->scalar. arange writes
   * start + i * step, linspace start + i * step with element n-1 = stop when n > 1 (n == 1
   * gives start); both computed in float64 where the device has it, then converted as casts
   * convert. */
  gpux_status (*fill)(gpux__bq *q, const gpux__launch *l);
  gpux_status (*arange)(gpux__bq *q, const gpux__launch *l, double start, double step);
  gpux_status (*linspace)(gpux__bq *q, const gpux__launch *l, double start, double step,
                          double stop);

  /* Reductions and scans (queued). A backend may keep scratch memory (scan tile states) in
   * its context; results never depend on the launch shape it picks. */
  gpux_status (*reduce)(gpux__bq *q, const gpux__reduce_pass *p);
  gpux_status (*scan)(gpux__bq *q, const gpux__scan_pass *p);

  /* Scatter with a combining op, bincount, the bin search (queued; gpux_scatter.h). */
  gpux_status (*scatter)(gpux__bq *q, const gpux__scatter *s);
  gpux_status (*bincount)(gpux__bq *q, const gpux__bincount *c);
  gpux_status (*search)(gpux__bq *q, const gpux__search *s);

  /* Matrix products (queued). */
  gpux_status (*gemm)(gpux__bq *q, const gpux__gemm *g);

  /* Random numbers (queued). */
  gpux_status (*random)(gpux__bq *q, const gpux__random *r);

  /* Gather and put (queued). */
  gpux_status (*index)(gpux__bq *q, const gpux__index *p);
  /* Boolean masks: one stream compaction pass (queued). */
  gpux_status (*mask)(gpux__bq *q, const gpux__mask_pass *p);
  /* Sort: one step (queued; gpux__sort_pass). */
  gpux_status (*sort)(gpux__bq *q, const gpux__sort_pass *p);
  /* Searchsorted and the radix select (queued). */
  gpux_status (*select)(gpux__bq *q, const gpux__select *p);

  /* User programs (include/gpux/kernel.h). program_build compiles src (len bytes, lang
   * GPUX__LANG_*): for the dialect the backend puts its prelude (kernels/<backend>/
   * gpux_dialect.*) in front, followed by a #line directive so the compiler's line numbers
   * count in the caller's text. It uses the disk cache (host->cache_load/store) with a key
   * of (language, flags, options, source, device, driver; the cache adds the gpux version).
   * names[0..nnames) are the kernel names the front end found in the source (CUDA C++ needs
   * them before compiling to find mangled names; a backend may ignore them). *log: the
   * compiler's log, malloc'd (NULL if empty), also on failure; *origin:
   * GPUX_PROGRAM_COMPILED or GPUX_PROGRAM_DISK_CACHE. A compile error is
   * GPUX_ERROR_KERNEL_BUILD (the front end adds the log to the message); a language the
   * backend does not take is GPUX_ERROR_UNSUPPORTED. */
  gpux_status (*program_build)(gpux__bctx *b, int lang, const char *src, size_t len,
                               const char *options, unsigned flags, const char *const *names,
                               int nnames, gpux__uprog **out, char **log, int *origin);
  void (*program_release)(gpux__bctx *b, gpux__uprog *p);
  /* The kernel `name`: GPUX_ERROR_KERNEL_NOT_FOUND if absent. *nparams: on entry the count
   * the front end read from a declaration it understood whole (-1 otherwise), which a
   * driver that cannot count parameters without a failing call may take; on return its
   * parameter count (<= GPUX__MAX_KPARAMS), or -1 when the driver cannot tell; param_size[i]: bytes of
   * parameter i as the driver reports it, 0 when unknown; *max_block: the largest block
   * (work-group) it can run. */
  gpux_status (*kernel_create)(gpux__bctx *b, gpux__uprog *p, const char *name,
                               gpux__ukern **out, int *nparams, uint32_t *param_size,
                               uint32_t *max_block);
  void (*kernel_release)(gpux__bctx *b, gpux__ukern *k);
  /* Queues k with args[0..nargs) (nargs == its parameter count, each checked), on grid x
   * block (all >= 1, block product <= max_block; grid within the device's limits as far as
   * the front end knows them). shared_bytes: CUDA dynamic shared memory for extern
   * __shared__ (the front end passes 0 on OpenCL). LOCAL arguments: OpenCL passes them as
   * __local sizes; CUDA lays them out after shared_bytes (16-byte aligned) in the dynamic
   * shared memory and passes each one's byte offset as a 32-bit parameter (the dialect's
   * gpux_local_ptr). */
  gpux_status (*kernel_launch)(gpux__bq *q, gpux__ukern *k, int nargs, const gpux__uarg *args,
                               const uint64_t grid[3], const uint32_t block[3],
                               size_t shared_bytes);

  /* Interop (optional; all five or none). native_get: this context's handles. context_adopt:
   * a context on the application's handles, which gpux uses and never destroys; *device is
   * the index device_info knows the device by. mem_wrap: an operand buffer for the
   * application's memory `native` (CUDA: a device address; OpenCL: a cl_mem) of which
   * `bytes` bytes from its start will be used, checked against the context and the device
   * (GPUX_ERROR_INVALID_ARGUMENT with the reason); mem_unwrap drops that buffer and never
   * frees the application's memory. */
  gpux_status (*native_get)(gpux__bctx *b, gpux__native *out);
  /* q's CUstream or cl_command_queue (no reference added) */
  gpux_status (*queue_native)(gpux__bq *q, void **queue);
  gpux_status (*context_adopt)(const gpux__native *n, gpux__bctx **out, int *device);
  gpux_status (*mem_wrap)(gpux__bctx *b, void *native, uint64_t bytes, void **buf);
  void (*mem_unwrap)(gpux__bctx *b, void *buf);

  /* Events. timing 1: device-clock events for event_elapsed_ms (OpenCL: only on a context
   * whose default queue has profiling, else GPUX_ERROR_UNSUPPORTED); timing 0: ordering
   * only (every context; CUDA: CU_EVENT_DISABLE_TIMING), what the memory pool and
   * stream waits use. event_record: ev marks the point after the work queued on q so far
   * (recording again moves it). queue_wait_event: work queued on q after the call waits
   * for ev's point (an event never recorded: no wait). event_query: *done = 1 when ev's
   * point is reached (or ev was never recorded), 0 while work before it runs; it never
   * waits. */
  gpux_status (*event_create)(gpux__bctx *b, int timing, void **ev);
  void (*event_destroy)(gpux__bctx *b, void *ev);
  gpux_status (*event_record)(gpux__bq *q, void *ev);
  gpux_status (*event_synchronize)(gpux__bctx *b, void *ev);
  gpux_status (*event_query)(gpux__bctx *b, void *ev, int *done);
  gpux_status (*queue_wait_event)(gpux__bq *q, void *ev);
  gpux_status (*event_elapsed_ms)(gpux__bctx *b, void *start, void *end, double *ms);
} gpux__backend_iface;

/* The entries every backend fills; the loader refuses a module that lacks one, naming it.
 * The others are optional: one left NULL makes the front end answer GPUX_ERROR_UNSUPPORTED
 * (through supports, below). */
#define GPUX__BACKEND_REQUIRED(X)                                                           \
  X(init) X(device_count) X(device_info) X(context_create) X(context_destroy)               \
  X(queue_default) X(synchronize)                                                           \
  X(mem_alloc) X(mem_free) X(mem_upload) X(mem_download) X(mem_copy) X(binary) X(unary)     \
  X(where) X(cast) X(copy) X(fill) X(arange) X(linspace)

typedef const gpux__backend_iface *(*gpux__backend_entry_fn)(const gpux__host_iface *host);

#endif
