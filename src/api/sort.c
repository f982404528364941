/* Sort (include/gpux/sort.h): validation, and the steps of gpux__sort_pass.
 *
 * Every sort runs along the last axis of a contiguous rows x len array (x itself when its
 * axis is last and it is contiguous, else a copy with the axis moved last: one more pass,
 * and the result moved back by the output's copy), in these steps:
 *   1. rows of up to GPUX_SORT_LOCAL_MAX keys: IMG, the keys' images (THE ORDER as unsigned
 *      integers, gpux_sort.h; EQZ where positions are carried) and uint32 positions; then
 *      LOCAL, one work-group per row (a bitonic sort of (image, position), which is stable
 *      because the positions break ties);
 *   2. longer rows: IMGH, the OR / AND of every image and the digit counts of every pass
 *      by row and portion (one read of the keys; the images too where an output shares x's
 *      buffer); then the Onesweep passes,
 *      GPUX_SORT_BITS bits each, for the digits that vary (OR ^ AND, read back in one
 *      16-byte wait; bool, small integers and 8- / 16-bit keys skip the rest): ONESWEEP a
 *      portion (GPUX_SORT_PORTION_TILES tiles of each row, or the environment variable of
 *      that name: a test knob, portion_tiles) at a time, each tile ranked
 *      stably in local memory and placed by the counts and a decoupled look-back over the
 *      earlier tiles of its row (tiles never straddle rows, so many long rows sort in the
 *      same launches as one). The first pass makes the positions (IMGH writes none) and
 *      images the keys as it reads them; the last writes the outputs: keys back from their
 *      images, positions as int64, straight into the output when it is contiguous with the
 *      axis last;
 *   3. where no pass ran (the local path, or no digit varied): OUT (keys back from their
 *      images) and / or WIDEN (positions to int64; i % len when no digit varied).
 * Sort by key is an argsort (EQZ) and one gather per array (gpux_take_along_axis): any
 * number of value arrays of any dtype cost one sort. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define NEED(x, what) \
  if (!(x)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", fn, what)
#define OPND(a) gpux__operand_on(gpux__stream_cur((a)->ctx), (a))
/* the positions buffer i, or none (buf NULL: keys-only) */
#define PP(i) (pp[i] ? OPND(pp[i]) : (gpux__operand){NULL, 0, GPUX_UINT32})

/* image bytes by dtype (0: no sort for it) */
static const int img_width[GPUX_DTYPE_COUNT] = {
#define SO_W(dt, w, W, cls, em, mm, nan) [GPUX_KDT_##dt] = W / 8,
    GPUX_SORT_DTYPES(SO_W)
#undef SO_W
};

/* ---- checks */

static gpux_status check_keys(const struct gpux_array *x, int *axis, unsigned flags,
                              const char *fn) {
  if (flags & ~GPUX_SORT_DESCENDING)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "%s: unknown flags 0x%x (0 or GPUX_SORT_DESCENDING)", fn, flags);
  if (!img_width[x->dtype] && !gpux__dt_is_complex(x->dtype))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s: %s keys are not supported", fn,
                           gpux_dtype_name(x->dtype));
  const int nd = x->ndim ? x->ndim : 1;
  if (*axis < -nd || *axis >= nd)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS,
                           "%s: axis %d is out of range for %d dimensions", fn, *axis,
                           x->ndim);
  if (*axis < 0) *axis += nd;
  if (x->ndim && x->shape[*axis] > (int64_t)UINT32_MAX)
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED,
                           "%s: axis %d has %lld elements; sorts take fewer than 2^32", fn,
                           *axis, (long long)x->shape[*axis]);
  return GPUX_SUCCESS;
}

/* out: x's shape, dtype dt, same context, no partial overlap with x (the same view is
 * allowed when same_ok) */
static gpux_status check_out(const struct gpux_array *out, const struct gpux_array *x,
                             gpux_dtype dt, int same_ok, const char *what, const char *fn) {
  if (out->ctx != x->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts", fn);
  if (out->dtype != dt)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: %s is %s, the result is %s", fn, what,
                           gpux_dtype_name(out->dtype), gpux_dtype_name(dt));
  if (!gpux__same_shape(out, x)) {
    char a[256], b[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: %s has shape %s, the keys' shape is %s",
                           fn, what, gpux__shape_str(a, sizeof a, out->ndim, out->shape),
                           gpux__shape_str(b, sizeof b, x->ndim, x->shape));
  }
  if (same_ok ? gpux__partial_overlap(out, x) : gpux__overlaps(out, x))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: %s overlaps the keys", fn, what);
  return GPUX_SUCCESS;
}

/* ---- the steps */

static gpux_status flat_new(struct gpux_array **out, struct gpux_context *ctx, gpux_dtype dt,
                            int64_t n) {
  return gpux__array_new(out, ctx, dt, 1, &n);
}

/* One output of the sort: its axis-last view, written directly when contiguous, else
 * through a temporary (res) copied into it after. */
typedef struct sort_dst {
  struct gpux_array view, *tmp;
  const struct gpux_array *use;
} sort_dst;
static gpux_status dst_open(sort_dst *d, struct gpux_array *out, int axis) {
  d->view = gpux__axis_last_view(out, axis);
  d->tmp = NULL;
  d->use = &d->view;
  if (gpux__is_contiguous(&d->view)) return GPUX_SUCCESS;
  GPUX__CHECK(gpux__array_new(&d->tmp, out->ctx, out->dtype, d->view.ndim, d->view.shape));
  d->use = d->tmp;
  return GPUX_SUCCESS;
}
static gpux_status dst_close(sort_dst *d, gpux_status s) {
  if (s == GPUX_SUCCESS && d->tmp) s = gpux__copy_strided(&d->view, d->tmp);
  gpux_array_release(d->tmp);
  d->tmp = NULL;
  return s;
}

/* Tiles of a portion (gpux__sort_pass ONESWEEP): GPUX_SORT_PORTION_TILES, or the environment
 * variable of that name when it is a power of two from 1 to GPUX_SORT_PORTION_TILES (read at
 * each call). A test knob: real portions are 2^28 keys, so only tests with small arrays can
 * cover several portions and their count offsets; anything else is ignored (more would let
 * a portion's counts reach the look-back word's 2^30). */
static int64_t portion_tiles(void) {
  const char *e = getenv("GPUX_SORT_PORTION_TILES");
  if (e && *e) {
    char *end = NULL;
    const long long v = strtoll(e, &end, 10);
    if (*end == '\0' && v >= 1 && v <= GPUX_SORT_PORTION_TILES && !(v & (v - 1))) return v;
  }
  return GPUX_SORT_PORTION_TILES;
}

/* the first n words of the uint32 array a set to 0 */
static gpux_status zero_u32(struct gpux_array *a, int64_t n) {
  gpux__launch l;
  memset(&l, 0, sizeof l);
  l.layout = GPUX_LAYOUT_C;
  l.n = n;
  l.opnd[0] = OPND(a);
  l.scalar = gpux__scalar_from_parts(0.0, 0.0, GPUX_UINT32);
  return a->ctx->be->fill(gpux__q(a->ctx), &l);
}

/* The Onesweep passes' fused ends (the first reads the keys, the last writes the outputs):
 * on, unless the environment variable GPUX_SORT_FUSED is 0 (a benchmark knob: IMGH's images,
 * OUT and WIDEN instead, the same results; read at each call) */
static int fused_ends(void) {
  const char *e = getenv("GPUX_SORT_FUSED");
  return !(e && e[0] == '0' && e[1] == '\0');
}

/* Sorts x along axis into keys (x's dtype; NULL: not wanted) and / or pos (int64; NULL: not
 * wanted). eqz: -0.0 == +0.0 (positions carried). Arguments checked.
 * pay (NULL, or with pos NULL and rows longer than GPUX_SORT_LOCAL_MAX): an array of x's
 * shape and 4-byte elements carried through the radix passes in place of the positions (the
 * passes are stable whatever they carry) into pay_out (pay's dtype and shape): sort by key's
 * one value array without positions and gathers. */
static gpux_status sort_run_pay(const struct gpux_array *x, int axis, unsigned flags,
                                struct gpux_array *keys, struct gpux_array *pos, int eqz,
                                const struct gpux_array *pay, struct gpux_array *pay_out) {
  struct gpux_context *ctx = x->ctx;
  if (x->size == 0) return GPUX_SUCCESS;
  GPUX__NEED(ctx, GPUX__Q_SORT, 0, x->dtype, -1);
  const int64_t n = x->size, len = x->ndim ? x->shape[axis] : 1, rows = n / len;
  const int W = img_width[x->dtype];
  const gpux_dtype idt = W == 8 ? GPUX_UINT64 : GPUX_UINT32;
  const int local = len <= GPUX_SORT_LOCAL_MAX;
  if (!local) GPUX__NEED(ctx, GPUX__Q_FILL, 0, GPUX_UINT32, -1);
  struct gpux_array xv = gpux__axis_last_view(x, axis);
  struct gpux_array *xc = NULL, *img[2] = {NULL, NULL}, *pp[2] = {NULL, NULL}, *bits = NULL,
                    *counts = NULL, *lb = NULL, *pc = NULL;
  struct gpux_array pv;
  sort_dst dk = {0}, dp = {0};
  gpux_status s = GPUX_SUCCESS;
  gpux__bq *q = gpux__q(ctx);
#define SO_TRY(e)                   \
  do {                              \
    s = (e);                        \
    if (s != GPUX_SUCCESS) goto done; \
  } while (0)
  SO_TRY(gpux__contiguous_ref(&xc, &xv));
  /* positions only where they are returned: a keys-only sort needs no tie-break (equal
   * images are equal bits without EQZ) */
  for (int i = 0; i < 2; i++) {
    SO_TRY(flat_new(&img[i], ctx, idt, n));
    if (pos || pay) SO_TRY(flat_new(&pp[i], ctx, GPUX_UINT32, n));
  }
  if (pay) {
    pv = gpux__axis_last_view(pay, axis);
    SO_TRY(gpux__contiguous_ref(&pc, &pv));
    SO_TRY(dst_open(&dp, pay_out, axis));
  }
  {
    const int64_t four = 4;
    SO_TRY(gpux__array_new(&bits, ctx, GPUX_UINT32, 1, &four));
    const uint32_t init[4] = {0u, 0u, ~0u, ~0u};
    SO_TRY(ctx->be->mem_upload(q, bits->st->blk.buf, (size_t)bits->offset * 4, init,
                               sizeof init));
  }
  gpux__sort_pass p;
  memset(&p, 0, sizeof p);
  p.dtype = (int)x->dtype;
  p.width = W;
  p.flags = (flags & GPUX_SORT_DESCENDING ? GPUX_SO_DESC : 0u) | (eqz ? GPUX_SO_EQZ : 0u);
  p.rows = rows;
  p.len = len;
  p.npass = W;
  p.keys = OPND(xc);
  p.img_out = OPND(img[0]);
  p.bits = OPND(bits);
  int cur = 0, first = 1, kread = 0;
  const gpux__operand none = {NULL, 0, (int)x->dtype},
                      none32 = {NULL, 0, GPUX_UINT32};
  if (local) { /* 1. images and positions; 2a. one work-group a row */
    p.stage = GPUX__SO_IMG;
    p.pos_out = PP(0);
    SO_TRY(ctx->be->sort(q, &p));
    p.stage = GPUX__SO_LOCAL;
    p.img_in = OPND(img[0]);
    p.pos_in = PP(0);
    p.img_out = OPND(img[1]);
    p.pos_out = PP(1);
    SO_TRY(ctx->be->sort(q, &p));
    cur = 1;
    first = 0;
  } else { /* 1. every pass's digit counts; 2b. a Onesweep pass a varying digit */
    const int64_t tile = GPUX_SORT_TILE(8 * W), ptiles = portion_tiles();
    const int64_t htiles = ptiles < GPUX_SORT_HIST_TILES ? ptiles : GPUX_SORT_HIST_TILES;
    p.pkeys = ptiles * tile;
    p.hk = htiles * tile;
    p.gpr = (len + p.hk - 1) / p.hk;
    p.ngroups = rows * p.gpr;
    p.nportions = (int)((len + p.pkeys - 1) / p.pkeys);
    const int64_t ncounts = rows * p.nportions * p.npass * GPUX_SORT_RADIX;
    SO_TRY(gpux_array_zeros(&counts, ctx, GPUX_UINT32, 1, &ncounts));
    /* the first pass images the keys as it reads them, the last writes the outputs (keys
     * back from their images, positions as int64): no IMGH images, OUT or WIDEN. Not where
     * an output shares x's buffer (the last pass could overwrite keys the first has yet to
     * read when they are one pass): IMGH writes the images then. */
    if (keys) SO_TRY(dst_open(&dk, keys, axis));
    if (pos) SO_TRY(dst_open(&dp, pos, axis));
    const void *xbuf = xc->st->blk.buf;
    const int fuse = fused_ends();
    kread = fuse && !((keys && dk.use->st->blk.buf == xbuf) ||
                      ((pos || pay) && dp.use->st->blk.buf == xbuf));
    if (kread) p.img_out = none;
    p.stage = GPUX__SO_IMGH;
    p.counts = OPND(counts);
    SO_TRY(ctx->be->sort(q, &p));
    uint32_t b[4];
    SO_TRY(ctx->be->mem_download(q, bits->st->blk.buf, (size_t)bits->offset * 4, b, sizeof b));
    const uint64_t vary = (((uint64_t)b[1] << 32) | b[0]) ^ (((uint64_t)b[3] << 32) | b[2]);
    /* the look-back words of the largest portion (the first), and the tile counter */
    const int64_t tpp_max = ((len < p.pkeys ? len : p.pkeys) + tile - 1) / tile;
    SO_TRY(flat_new(&lb, ctx, GPUX_UINT32, rows * tpp_max * GPUX_SORT_RADIX + 1));
    p.stage = GPUX__SO_ONESWEEP;
    p.lb = OPND(lb);
    int last = -1; /* the last pass that runs: it writes a payload straight to its output */
    for (int pass = 0; pass < p.npass; pass++)
      if ((vary >> (GPUX_SORT_BITS * pass)) & (GPUX_SORT_RADIX - 1)) last = pass;
    for (int pass = 0; pass < p.npass; pass++) {
      if (!((vary >> (GPUX_SORT_BITS * pass)) & (GPUX_SORT_RADIX - 1))) continue;
      const int fin = pass == last, fo = fuse && fin; /* fo: the last pass writes the outputs */
      p.pass = pass;
      p.kin = first && kread ? OPND(xc) : none;
      p.img_in = first && kread ? none : OPND(img[cur]);
      p.pos_in = !first ? PP(cur) : pay ? OPND(pc) : none32;
      p.kout = fo && keys ? OPND(dk.use) : none;
      p.img_out = fo ? none : OPND(img[cur ^ 1]);
      p.pos64 = fo && pos ? OPND(dp.use) : none;
      p.pos_out = fin && pay ? OPND(dp.use) : fo ? none32 : PP(cur ^ 1);
      for (int portion = 0; portion < p.nportions; portion++) {
        p.portion = portion;
        p.p0 = portion * p.pkeys;
        p.plen = len - p.p0 < p.pkeys ? len - p.p0 : p.pkeys;
        p.tpp = (p.plen + tile - 1) / tile;
        SO_TRY(zero_u32(lb, rows * p.tpp * GPUX_SORT_RADIX + 1));
        SO_TRY(ctx->be->sort(q, &p));
      }
      cur ^= 1;
      first = 0;
    }
    p.kin = p.kout = p.pos64 = none;
    if (!first && fuse) { /* the last pass wrote the outputs (dp: positions or payload) */
      s = dst_close(&dk, GPUX_SUCCESS);
      s = dst_close(&dp, s);
      goto done;
    } else if (kread && keys) { /* no digit varied: the images OUT reads */
      p.stage = GPUX__SO_IMG;
      p.img_out = OPND(img[0]);
      p.pos_out = none32;
      SO_TRY(ctx->be->sort(q, &p));
    }
  }
  /* 3. the outputs (no digit varied: the images, positions i % len) */
  p.img_in = OPND(img[cur]);
  p.pos_in = first ? none32 : PP(cur);
  if (keys) {
    if (!dk.use) SO_TRY(dst_open(&dk, keys, axis));
    p.stage = GPUX__SO_OUT;
    p.keys = OPND(dk.use);
    s = dst_close(&dk, ctx->be->sort(q, &p));
    if (s != GPUX_SUCCESS) goto done;
  }
  if (pos) {
    if (!dp.use) SO_TRY(dst_open(&dp, pos, axis));
    p.stage = GPUX__SO_WIDEN;
    p.out = OPND(dp.use);
    s = dst_close(&dp, ctx->be->sort(q, &p));
  }
  if (pay) { /* the last pass wrote dp.use; no pass: the payload as it was */
    if (first)
      s = ctx->be->mem_copy(q, dp.use->st->blk.buf, (size_t)dp.use->offset * 4u,
                            pc->st->blk.buf, (size_t)pc->offset * 4u, (size_t)n * 4u);
    s = dst_close(&dp, s);
  }
#undef SO_TRY
done:
  gpux_array_release(dk.tmp);
  gpux_array_release(dp.tmp);
  gpux_array_release(lb);
  gpux_array_release(counts);
  gpux_array_release(bits);
  for (int i = 0; i < 2; i++) {
    gpux_array_release(img[i]);
    gpux_array_release(pp[i]);
  }
  gpux_array_release(pc);
  gpux_array_release(xc);
  return s;
}
static gpux_status sort_run(const struct gpux_array *x, int axis, unsigned flags,
                            struct gpux_array *keys, struct gpux_array *pos, int eqz) {
  return sort_run_pay(x, axis, flags, keys, pos, eqz, NULL, NULL);
}

/* dst = src permuted by perm along axis (take_along_axis; 1-d: take, its faster equal; a 0-d
 * array: a copy) */
static gpux_status carry(struct gpux_array *dst, struct gpux_array *src, struct gpux_array *perm,
                         int axis) {
  if (src->ndim == 0) return gpux__copy_strided(dst, src);
  if (src->ndim == 1) return gpux_take_into(dst, src, perm, 0, GPUX_INDEX_WRAP);
  return gpux_take_along_axis_into(dst, src, perm, axis, GPUX_INDEX_WRAP);
}

/* Complex keys: lexicographic (the real parts, then the imaginary parts; NumPy's order, each
 * part in THE ORDER with EQZ), by two stable sorts: the positions sorted by the imaginary
 * parts, then stably by the real parts taken in that order; the two permutations compose.
 * keys (may be NULL): x gathered by the permutation (its own bits); pos (may be NULL): the
 * permutation. */
static gpux_status sort_cx(struct gpux_array *x, int axis, unsigned flags,
                           struct gpux_array *keys, struct gpux_array *pos) {
  struct gpux_context *ctx = x->ctx;
  if (x->size == 0) return GPUX_SUCCESS;
  gpux_status s = GPUX_SUCCESS;
  if (x->ndim == 0) { /* one element: as a 1-d array of one */
    const int64_t one = 1;
    struct gpux_array *v[3] = {NULL, NULL, NULL};
    s = gpux_array_reshape(&v[0], x, 1, &one);
    if (s == GPUX_SUCCESS && keys) s = gpux_array_reshape(&v[1], keys, 1, &one);
    if (s == GPUX_SUCCESS && pos) s = gpux_array_reshape(&v[2], pos, 1, &one);
    if (s == GPUX_SUCCESS) s = sort_cx(v[0], 0, flags, v[1], v[2]);
    for (int i = 0; i < 3; i++) gpux_array_release(v[i]);
    return s;
  }
  const gpux_dtype pdt = x->dtype == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64;
  struct gpux_array *re = NULL, *im = NULL, *p1 = NULL, *re2 = NULL, *p2 = NULL, *perm = NULL,
                    *tmp = NULL;
#define CX_TRY(e)                     \
  do {                                \
    s = (e);                          \
    if (s != GPUX_SUCCESS) goto done; \
  } while (0)
  CX_TRY(gpux_unary(&re, GPUX_REAL, x));
  CX_TRY(gpux_unary(&im, GPUX_IMAG, x));
  CX_TRY(gpux__array_new(&p1, ctx, GPUX_INT64, x->ndim, x->shape));
  CX_TRY(sort_run(im, axis, flags, NULL, p1, 1));
  CX_TRY(gpux__array_new(&re2, ctx, pdt, x->ndim, x->shape));
  CX_TRY(carry(re2, re, p1, axis));
  CX_TRY(gpux__array_new(&p2, ctx, GPUX_INT64, x->ndim, x->shape));
  CX_TRY(sort_run(re2, axis, flags, NULL, p2, 1));
  if (pos) CX_TRY(carry(pos, p1, p2, axis));
  if (keys) {
    CX_TRY(gpux__array_new(&perm, ctx, GPUX_INT64, x->ndim, x->shape));
    CX_TRY(carry(perm, p1, p2, axis));
    if (gpux__overlaps(keys, x)) { /* in place: through a temporary */
      CX_TRY(gpux__array_new(&tmp, ctx, x->dtype, x->ndim, x->shape));
      CX_TRY(carry(tmp, x, perm, axis));
      CX_TRY(gpux__copy_strided(keys, tmp));
    } else {
      CX_TRY(carry(keys, x, perm, axis));
    }
  }
#undef CX_TRY
done:
  gpux_array_release(tmp);
  gpux_array_release(perm);
  gpux_array_release(p2);
  gpux_array_release(re2);
  gpux_array_release(p1);
  gpux_array_release(im);
  gpux_array_release(re);
  return s;
}

/* every key dtype: sort_run, or sort_cx for complex keys */
static gpux_status sort_any(struct gpux_array *x, int axis, unsigned flags,
                            struct gpux_array *keys, struct gpux_array *pos, int eqz) {
  if (gpux__dt_is_complex(x->dtype)) return sort_cx(x, axis, flags, keys, pos);
  return sort_run(x, axis, flags, keys, pos, eqz);
}

/* ---- the sorted keys and their positions at once (group.c) */

gpux_status gpux__sort_keys_pos(const struct gpux_array *x, struct gpux_array *keys,
                                struct gpux_array *pos) {
  return sort_run(x, 0, 0, keys, pos, 1);
}

/* ---- sort and argsort */

/* arg: 0 sort, 1 argsort; exactly one of outp / out */
static gpux_status sort_api(gpux_array_t *outp, struct gpux_array *out, struct gpux_array *x,
                            int axis, unsigned flags, int arg, const char *fn) {
  if (outp) {
    *outp = NULL;
  } else {
    NEED(out, "out");
  }
  NEED(x, "x");
  GPUX__CHECK(check_keys(x, &axis, flags, fn));
  const gpux_dtype rdt = arg ? GPUX_INT64 : x->dtype;
  if (out) {
    GPUX__CHECK(check_out(out, x, rdt, !arg, "the output", fn));
    return sort_any(x, axis, flags, arg ? NULL : out, arg ? out : NULL, arg);
  }
  GPUX__CHECK(gpux__array_new(&out, x->ctx, rdt, x->ndim, x->shape));
  gpux_status s = sort_any(x, axis, flags, arg ? NULL : out, arg ? out : NULL, arg);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(out);
    return s;
  }
  *outp = out;
  return GPUX_SUCCESS;
}

/* (a NULL out of the plain forms reaches sort_api as a NULL out of the _into forms: the same
 * error) */
GPUX_API gpux_status gpux_sort(gpux_array_t *out, gpux_array_t x, int axis, unsigned flags) {
  GPUX__API_FN();
  return sort_api(out, NULL, x, axis, flags, 0, "gpux_sort");
}
GPUX_API gpux_status gpux_sort_into(gpux_array_t out, gpux_array_t x, int axis,
                                    unsigned flags) {
  GPUX__API_FN();
  return sort_api(NULL, out, x, axis, flags, 0, "gpux_sort_into");
}
GPUX_API gpux_status gpux_argsort(gpux_array_t *out, gpux_array_t x, int axis,
                                  unsigned flags) {
  GPUX__API_FN();
  return sort_api(out, NULL, x, axis, flags, 1, "gpux_argsort");
}
GPUX_API gpux_status gpux_argsort_into(gpux_array_t out, gpux_array_t x, int axis,
                                       unsigned flags) {
  GPUX__API_FN();
  return sort_api(NULL, out, x, axis, flags, 1, "gpux_argsort_into");
}

/* ---- sort by key */

static gpux_status by_key(gpux_array_t *keys_outp, gpux_array_t *values_outp,
                          struct gpux_array *keys_out, const gpux_array_t *values_out,
                          struct gpux_array *keys, const gpux_array_t *values, int nvalues,
                          int axis, unsigned flags, const char *fn) {
  const int into = keys_outp == NULL && values_outp == NULL;
  NEED(keys, "keys");
  if (nvalues < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: nvalues is %d", fn, nvalues);
  if (nvalues > 0) {
    NEED(values, "values");
    if (into) {
      NEED(values_out, "values_out");
    } else {
      NEED(values_outp, "values_out");
    }
  }
  GPUX__CHECK(check_keys(keys, &axis, flags, fn));
  for (int i = 0; i < nvalues; i++) {
    char what[48];
    snprintf(what, sizeof what, "values[%d]", i);
    if (!values[i]) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", fn, what);
    if (values[i]->ctx != keys->ctx)
      return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts", fn);
    if (!gpux__same_shape(values[i], keys)) {
      char a[256], b[256];
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: %s has shape %s, the keys' shape is %s",
                             fn, what, gpux__shape_str(a, sizeof a, values[i]->ndim, values[i]->shape),
                             gpux__shape_str(b, sizeof b, keys->ndim, keys->shape));
    }
    if (into) {
      snprintf(what, sizeof what, "values_out[%d]", i);
      if (!values_out[i]) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", fn, what);
      GPUX__CHECK(check_out(values_out[i], values[i], values[i]->dtype, 0, what, fn));
      if (gpux__overlaps(values_out[i], keys))
        return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: %s overlaps the keys", fn, what);
    }
  }
  if (into && keys_out) GPUX__CHECK(check_out(keys_out, keys, keys->dtype, 0, "keys_out", fn));
  if (!into) {
    if (keys_outp) *keys_outp = NULL;
    for (int i = 0; i < nvalues; i++) values_outp[i] = NULL;
  }
  struct gpux_context *ctx = keys->ctx;
  struct gpux_array *perm = NULL, *made[1 + 64] = {NULL};
  struct gpux_array **mv = NULL;
  /* One value array of 4-byte elements under integer (or bool) keys in rows for the radix
   * passes: the values ride the passes in the positions' place (no positions, no gathers),
   * and the keys come back from their images, which are exact for integers. */
  const int pay = nvalues == 1 && (gpux__dt_is_int(keys->dtype) || keys->dtype == GPUX_BOOL) &&
                  gpux_dtype_size(values[0]->dtype) == 4 && keys->ndim &&
                  keys->shape[axis] > GPUX_SORT_LOCAL_MAX;
  gpux_status s = pay ? GPUX_SUCCESS
                      : gpux__array_new(&perm, ctx, GPUX_INT64, keys->ndim, keys->shape);
  if (s != GPUX_SUCCESS) return s;
  if (!into) {
    mv = nvalues + 1 <= (int)(sizeof made / sizeof made[0])
             ? made
             : (struct gpux_array **)calloc((size_t)nvalues + 1, sizeof *mv);
    if (!mv) {
      gpux_array_release(perm);
      return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "%s: %d value arrays", fn, nvalues);
    }
  }
  /* integer and bool keys come back from their images exactly: the sort that makes the
   * positions writes the sorted keys too (no gather); floats' images merge -0.0 and +0.0,
   * so their keys are gathered with their own bits */
  struct gpux_array *kdst = NULL;
  if (!pay && (gpux__dt_is_int(keys->dtype) || keys->dtype == GPUX_BOOL)) {
    if (into) {
      kdst = keys_out;
    } else if (keys_outp) {
      s = gpux__array_new(&mv[0], ctx, keys->dtype, keys->ndim, keys->shape);
      kdst = mv[0];
    }
  }
  if (!pay && s == GPUX_SUCCESS) s = sort_any(keys, axis, flags, kdst, perm, 1);
  const int kax = keys->ndim ? axis : 0;
  /* the keys, then each value array (pay: the outputs of one sort) */
  struct gpux_array *dsts[2] = {NULL, NULL};
  for (int i = kdst ? 0 : -1; i < nvalues && s == GPUX_SUCCESS; i++) {
    struct gpux_array *src = i < 0 ? keys : values[i], *dst;
    if (into) {
      dst = i < 0 ? keys_out : values_out[i];
      if (!dst) continue;
    } else {
      if (i < 0 && !keys_outp) continue;
      s = gpux__array_new(&mv[i + 1], ctx, src->dtype, src->ndim, src->shape);
      if (s != GPUX_SUCCESS) break;
      dst = mv[i + 1];
    }
    if (pay) dsts[i + 1] = dst;
    else if (src->size) s = carry(dst, src, perm, kax);
  }
  if (pay && s == GPUX_SUCCESS && keys->size)
    s = sort_run_pay(keys, axis, flags, dsts[0], NULL, 0, values[0], dsts[1]);
  gpux_array_release(perm);
  if (!into) {
    for (int i = -1; i < nvalues; i++) {
      if (s != GPUX_SUCCESS) {
        gpux_array_release(mv[i + 1]);
      } else if (i >= 0) {
        values_outp[i] = mv[i + 1];
      } else if (keys_outp) {
        *keys_outp = mv[0];
      }
    }
    if (mv != made) free(mv);
  }
  return s;
}

GPUX_API gpux_status gpux_sort_by_key(gpux_array_t *keys_out, gpux_array_t *values_out,
                                      gpux_array_t keys, const gpux_array_t *values,
                                      int nvalues, int axis, unsigned flags) {
  GPUX__API_FN();
  const char *fn = "gpux_sort_by_key";
  if (!keys_out && nvalues > 0 && !values_out)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: values_out is NULL", fn);
  if (!keys_out && nvalues <= 0)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: keys_out is NULL and there are no values", fn);
  gpux_array_t dummy = NULL;
  return by_key(keys_out, values_out ? values_out : &dummy, NULL, NULL, keys, values, nvalues,
                axis, flags, fn);
}
GPUX_API gpux_status gpux_sort_by_key_into(gpux_array_t keys_out,
                                           const gpux_array_t *values_out, gpux_array_t keys,
                                           const gpux_array_t *values, int nvalues, int axis,
                                           unsigned flags) {
  GPUX__API_FN();
  return by_key(NULL, NULL, keys_out, values_out, keys, values, nvalues, axis, flags,
                "gpux_sort_by_key_into");
}
