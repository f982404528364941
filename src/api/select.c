/* Selection by order (include/gpux/select.h): searchsorted and the radix select of top-k,
 * partition / argpartition, median and quantile. The kernels' contracts and the algorithm:
 * kernels/common/gpux_select.h. Here: validation, the axis moved last (a contiguous rows x
 * len temporary unless x already is one), the passes, and results written back through a
 * view of the output when the axis is not the last. Rows go to the backend in chunks whose
 * histograms (257 uint32 a target) fit GPUX__SEL_HIST_BYTES. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define NEED(x, what) \
  if (!(x)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", fn, what)
#define OPND(a) gpux__operand_on(gpux__stream_cur((a)->ctx), (a))
#define GPUX__SEL_HIST_BYTES ((int64_t)64 << 20)
_Static_assert(GPUX_TOPK_MAX_SORTED == GPUX_SEL_RANK_MAX, "sorted top-k: the rank kernel's k");

static void rel(struct gpux_array **a) {
  gpux_array_release(*a);
  *a = NULL;
}

static gpux_status check_dtype(const struct gpux_array *x, const char *fn, const char *what) {
  if (gpux__dt_is_complex(x->dtype))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                           "%s: %s is %s; complex numbers have no order", fn, what,
                           gpux_dtype_name(x->dtype));
  return GPUX_SUCCESS;
}

static gpux_status same_ctx(const struct gpux_array *a, const struct gpux_array *b,
                            const char *fn) {
  if (a->ctx != b->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts",
                           fn);
  return GPUX_SUCCESS;
}

/* axis in [-ndim, ndim) -> [0, ndim) */
static gpux_status norm_axis(const struct gpux_array *x, int axis, int *ax, const char *fn) {
  if (x->ndim == 0 || axis < -x->ndim || axis >= x->ndim) {
    char b[256];
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s: axis %d is out of range for shape %s",
                           fn, axis, gpux__shape_str(b, sizeof b, x->ndim, x->shape));
  }
  *ax = axis < 0 ? axis + x->ndim : axis;
  return GPUX_SUCCESS;
}

/* the result shape: x's with axis `ax` of length len (len < 0: dropped) */
static int result_shape(const struct gpux_array *x, int ax, int64_t len, int64_t *shape) {
  int nd = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (d != ax) shape[nd++] = x->shape[d];
    else if (len >= 0) shape[nd++] = len;
  }
  return nd;
}

/* x with axis ax moved last, contiguous: x itself (*tmp NULL) or a copy in *tmp */
static gpux_status rows_of(const struct gpux_array *x, int ax, struct gpux_array **tmp,
                           const struct gpux_array **use) {
  *tmp = NULL;
  *use = x;
  if (ax == x->ndim - 1 && gpux__is_contiguous(x)) return GPUX_SUCCESS;
  int perm[GPUX_MAX_DIMS], n = 0;
  for (int d = 0; d < x->ndim; d++)
    if (d != ax) perm[n++] = d;
  perm[n] = ax;
  GPUX__CHECK(gpux_array_permute(tmp, (gpux_array_t)x, perm));
  *use = *tmp;
  return GPUX_SUCCESS;
}

/* a view of out (x's layout, the axis ax of it) with that axis moved last */
static gpux_status view_axis_last(struct gpux_array **v, const struct gpux_array *out, int ax) {
  GPUX__CHECK(gpux__array_view(v, out));
  struct gpux_array *w = *v;
  int n = 0;
  for (int d = 0; d < out->ndim; d++)
    if (d != ax) {
      w->shape[n] = out->shape[d];
      w->strides[n++] = out->strides[d];
    }
  w->shape[n] = out->shape[ax];
  w->strides[n] = out->strides[ax];
  return GPUX_SUCCESS;
}

/* The destination of a rows x len result: *dst = out when out is contiguous with the axis
 * last, else a new contiguous temporary (*tmp) to copy into out afterwards (finish). */
static gpux_status dest_of(struct gpux_array *out, int ax, struct gpux_array **tmp,
                           struct gpux_array **dst) {
  *tmp = NULL;
  *dst = out;
  if (out->size == 0 || ((ax < 0 || ax == out->ndim - 1) && gpux__is_contiguous(out)))
    return GPUX_SUCCESS;
  int64_t shape[GPUX_MAX_DIMS];
  int n = 0;
  for (int d = 0; d < out->ndim; d++)
    if (d != ax) shape[n++] = out->shape[d];
  if (ax >= 0) shape[n++] = out->shape[ax];
  GPUX__CHECK(gpux__array_new(tmp, out->ctx, out->dtype, n, shape));
  *dst = *tmp;
  return GPUX_SUCCESS;
}
static gpux_status finish(struct gpux_array *out, int ax, struct gpux_array *tmp) {
  if (!tmp) return GPUX_SUCCESS;
  gpux_status s;
  if (ax < 0) {
    s = gpux__copy_strided(out, tmp);
  } else {
    struct gpux_array *v = NULL;
    s = view_axis_last(&v, out, ax);
    if (s == GPUX_SUCCESS) s = gpux__copy_strided(v, tmp);
    gpux_array_release(v);
  }
  return s;
}

static gpux_status check_out(const struct gpux_array *o, gpux_dtype dt, int nd,
                             const int64_t *shape, const struct gpux_array *x, const char *fn,
                             const char *what) {
  GPUX__CHECK(same_ctx(o, x, fn));
  if (o->dtype != dt)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: %s is %s, it must be %s", fn, what,
                           gpux_dtype_name(o->dtype), gpux_dtype_name(dt));
  int same = o->ndim == nd;
  for (int d = 0; same && d < nd; d++) same = o->shape[d] == shape[d];
  if (!same) {
    char a[256], b[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: %s has shape %s, the result %s", fn,
                           what, gpux__shape_str(a, sizeof a, o->ndim, o->shape),
                           gpux__shape_str(b, sizeof b, nd, shape));
  }
  if (o->size && x->size && gpux__overlaps(o, x))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: %s overlaps the input", fn, what);
  return GPUX_SUCCESS;
}

static gpux_status run(struct gpux_context *ctx, const gpux__select *p) {
  return ctx->be->select(gpux__q(ctx), p);
}

static gpux_status new_from(struct gpux_array **a, struct gpux_context *ctx, gpux_dtype dt,
                            int64_t n, const void *host) {
  return gpux_array_from_host(a, ctx, dt, 1, &n, host);
}

/* *out = o when s is a success, else o released; returns s */
static gpux_status give(gpux_array_t *out, struct gpux_array *o, gpux_status s) {
  if (s != GPUX_SUCCESS) gpux_array_release(o);
  else *out = o;
  return s;
}

/* ---- searchsorted */

static gpux_status ss_check(const struct gpux_array *s, const struct gpux_array *q, int side,
                            const char *fn) {
  GPUX__CHECK(gpux__check_array(s, "sorted"));
  GPUX__CHECK(gpux__check_array(q, "queries"));
  GPUX__CHECK(same_ctx(s, q, fn));
  GPUX__CHECK(check_dtype(s, fn, "sorted"));
  if (s->dtype != q->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH,
                           "%s: sorted is %s and the queries %s; they must be one dtype", fn,
                           gpux_dtype_name(s->dtype), gpux_dtype_name(q->dtype));
  if (s->ndim != 1) {
    char b[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: sorted must be 1-d, not of shape %s",
                           fn, gpux__shape_str(b, sizeof b, s->ndim, s->shape));
  }
  if (side != GPUX_SIDE_LEFT && side != GPUX_SIDE_RIGHT)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: side %d is not LEFT or RIGHT", fn,
                           side);
  return GPUX_SUCCESS;
}

static gpux_status ss_run(struct gpux_array *out, struct gpux_array *s, struct gpux_array *q,
                          int side) {
  struct gpux_context *ctx = q->ctx;
  if (q->size == 0) return GPUX_SUCCESS;
  if (s->size == 0) { /* every query goes to 0 */
    struct gpux_array *z = NULL;
    GPUX__CHECK(gpux_array_zeros(&z, ctx, GPUX_INT64, out->ndim, out->shape));
    gpux_status st = gpux__copy_strided(out, z);
    gpux_array_release(z);
    return st;
  }
  GPUX__NEED(ctx, GPUX__Q_SELECT, 0, s->dtype, -1);
  struct gpux_array *sc = NULL, *qc = NULL, *otmp = NULL, *dst = NULL;
  const struct gpux_array *su = s, *qu = q;
  gpux_status st = rows_of(s, 0, &sc, &su);
  if (st == GPUX_SUCCESS) st = rows_of(q, q->ndim - 1, &qc, &qu);
  if (st == GPUX_SUCCESS) st = dest_of(out, -1, &otmp, &dst);
  if (st == GPUX_SUCCESS) {
    gpux__select p;
    memset(&p, 0, sizeof p);
    p.kind = 0;
    p.dtype = (int)s->dtype;
    p.len = s->size;
    p.n = q->size;
    p.right = side == GPUX_SIDE_RIGHT;
    p.x = OPND(su);
    p.q = OPND(qu);
    p.out = OPND(dst);
    st = run(ctx, &p);
  }
  if (st == GPUX_SUCCESS) st = finish(out, -1, otmp);
  rel(&sc);
  rel(&qc);
  rel(&otmp);
  return st;
}

gpux_status gpux_searchsorted_into(gpux_array_t out, gpux_array_t sorted, gpux_array_t queries,
                                   gpux_side side) {
  GPUX__API_FN();
  const char *fn = "gpux_searchsorted_into";
  NEED(out, "out");
  NEED(sorted, "sorted");
  NEED(queries, "queries");
  GPUX__CHECK(ss_check(sorted, queries, (int)side, fn));
  GPUX__CHECK(gpux__check_array(out, "out"));
  GPUX__CHECK(check_out(out, GPUX_INT64, queries->ndim, queries->shape, queries, fn, "out"));
  if (out->size && sorted->size && gpux__overlaps(out, sorted))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: out overlaps sorted", fn);
  return ss_run(out, sorted, queries, (int)side);
}

gpux_status gpux_searchsorted(gpux_array_t *out, gpux_array_t sorted, gpux_array_t queries,
                              gpux_side side) {
  GPUX__API_FN();
  const char *fn = "gpux_searchsorted";
  NEED(out, "out");
  *out = NULL;
  NEED(sorted, "sorted");
  NEED(queries, "queries");
  GPUX__CHECK(ss_check(sorted, queries, (int)side, fn));
  struct gpux_array *o = NULL;
  GPUX__CHECK(gpux__array_new(&o, queries->ctx, GPUX_INT64, queries->ndim, queries->shape));
  return give(out, o, ss_run(o, sorted, queries, (int)side));
}

/* ---- the radix select */

/* Scratch of one chunk of rows: the state (GPUX_SEL_ST uint64 a target), histograms. */
typedef struct scratch {
  struct gpux_array *st, *hist, *cnt, *rk;
} scratch;
static void scratch_free(scratch *s) {
  rel(&s->st);
  rel(&s->hist);
  rel(&s->cnt);
  rel(&s->rk);
}

/* rows per chunk for nt targets a row */
static int64_t chunk_rows(int64_t rows, int nt) {
  int64_t c = GPUX__SEL_HIST_BYTES / (4 * GPUX_SEL_BINS * (int64_t)nt);
  if (c < 1) c = 1;
  return c < rows ? c : rows;
}

/* The radix select of nt (<= GPUX_SEL_MAXT) targets of ranks rk[0..nt) in each of `rows`
 * rows of x (contiguous, from x.offset): afterwards st[row][t] = {image of rank rk[t], equal keys
 * before it in rank, NaN count, -}. The scratch is sized for `rows` rows. */
static gpux_status select_rows(struct gpux_context *ctx, gpux__operand x, int dtype,
                               int64_t rows, int64_t len, int nt, unsigned flags,
                               const scratch *sc) {
  const int w = (int)gpux_dtype_size((gpux_dtype)dtype) * 8;
  gpux__select p;
  memset(&p, 0, sizeof p);
  p.dtype = dtype;
  p.flags = flags;
  p.rows = rows;
  p.len = len;
  p.nt = nt;
  p.n = rows * nt;
  p.x = x;
  p.st = OPND(sc->st);
  p.hist = OPND(sc->hist);
  p.rk = OPND(sc->rk);
  for (int shift = w - 8; shift >= 0; shift -= 8) {
    p.shift = shift;
    p.first = shift == w - 8;
    p.kind = 1;
    GPUX__CHECK(run(ctx, &p));
    p.kind = GPUX__SEL_PICK;
    GPUX__CHECK(run(ctx, &p));
  }
  return GPUX_SUCCESS;
}

static gpux_status scratch_new(scratch *sc, struct gpux_context *ctx, int64_t rows, int nt,
                               const int64_t *rk, int64_t tpr, int64_t len) {
  memset(sc, 0, sizeof *sc);
  if (len > (int64_t)UINT32_MAX) /* the histograms count in uint32 */
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED,
                           "rows of %lld elements: the radix select takes up to 2^32 - 1 a row",
                           (long long)len);
  const int64_t nst = rows * nt * GPUX_SEL_ST, nh = rows * nt * GPUX_SEL_BINS;
  gpux_status s = gpux__array_new(&sc->st, ctx, GPUX_UINT64, 1, &nst);
  if (s == GPUX_SUCCESS) s = gpux_array_zeros(&sc->hist, ctx, GPUX_UINT32, 1, &nh);
  if (s == GPUX_SUCCESS) s = new_from(&sc->rk, ctx, GPUX_INT64, nt, rk);
  if (s == GPUX_SUCCESS && tpr > 0) {
    const int64_t nc = rows * tpr * 2;
    s = gpux__array_new(&sc->cnt, ctx, GPUX_INT64, 1, &nc);
  }
  if (s != GPUX_SUCCESS) scratch_free(sc);
  return s;
}

/* top-k / partition of a contiguous rows x len xr into rows x ostride results: vals / idx
 * (contiguous, either NULL). mode GPUX_SEL_TOPK (k results) or GPUX_SEL_PARTITION (rank
 * k of each row in its place). sorted: top-k results ranked (through temporaries). */
static gpux_status select_write_op(struct gpux_context *ctx, gpux__operand xo,
                                   gpux_dtype dtype, int64_t rows, int64_t len, int mode,
                                   int64_t k, unsigned flags, int sorted,
                                   const gpux__operand *vals, const gpux__operand *idx) {
  const int dt = (int)dtype;
  const int64_t tpr = (len + GPUX_SEL_TILE - 1) / GPUX_SEL_TILE;
  const int64_t ostride = mode == GPUX_SEL_TOPK ? k : len;
  const int64_t rank = mode == GPUX_SEL_TOPK ? k - 1 : k;
  const int64_t chunk = chunk_rows(rows, 1);
  scratch sc;
  struct gpux_array *tv = NULL, *ti = NULL;
  GPUX__CHECK(scratch_new(&sc, ctx, chunk, 1, &rank, tpr, len));
  gpux_status s = GPUX_SUCCESS;
  if (sorted) {
    const int64_t nt = chunk * k;
    s = gpux__array_new(&tv, ctx, dtype, 1, &nt);
    if (s == GPUX_SUCCESS) s = gpux__array_new(&ti, ctx, GPUX_INT64, 1, &nt);
  }
  for (int64_t r0 = 0; r0 < rows && s == GPUX_SUCCESS; r0 += chunk) {
    const int64_t nr = rows - r0 < chunk ? rows - r0 : chunk;
    gpux__operand x = xo;
    x.offset += r0 * len;
    s = select_rows(ctx, x, dt, nr, len, 1, flags, &sc);
    gpux__select p;
    memset(&p, 0, sizeof p);
    p.dtype = dt;
    p.flags = flags;
    p.rows = nr;
    p.len = len;
    p.k = mode == GPUX_SEL_TOPK ? k : len;
    p.mode = mode;
    p.x = x;
    p.st = OPND(sc.st);
    p.cnt = OPND(sc.cnt);
    p.kind = 2;
    if (s == GPUX_SUCCESS) s = run(ctx, &p);
    p.kind = GPUX__SEL_SCAN;
    if (s == GPUX_SUCCESS) s = run(ctx, &p);
    if (sorted) {
      p.vals = OPND(tv);
      p.idx = OPND(ti);
    } else {
      if (vals) {
        p.vals = *vals;
        p.vals.offset += r0 * ostride;
      }
      if (idx) {
        p.idx = *idx;
        p.idx.offset += r0 * ostride;
      }
    }
    p.kind = 3;
    if (s == GPUX_SUCCESS) s = run(ctx, &p);
    if (sorted && s == GPUX_SUCCESS) {
      gpux__select r;
      memset(&r, 0, sizeof r);
      r.kind = 4;
      r.dtype = dt;
      r.flags = flags;
      r.rows = nr;
      r.k = k;
      r.tv = OPND(tv);
      r.ti = OPND(ti);
      r.vals = *vals;
      r.vals.offset += r0 * k;
      r.idx = *idx;
      r.idx.offset += r0 * k;
      s = run(ctx, &r);
    }
  }
  scratch_free(&sc);
  rel(&tv);
  rel(&ti);
  return s;
}

static gpux_status select_write(const struct gpux_array *xr, int64_t rows, int64_t len,
                                int mode, int64_t k, unsigned flags, int sorted,
                                struct gpux_array *vals, struct gpux_array *idx) {
  gpux__operand v, i;
  if (vals) v = OPND(vals);
  if (idx) i = OPND(idx);
  return select_write_op(xr->ctx, OPND(xr), xr->dtype, rows, len, mode, k, flags, sorted,
                         vals ? &v : NULL, idx ? &i : NULL);
}

/* ---- top-k's candidate paths (gpux_select.h "ONE READ" and "TWO READS", docs/selection.md) */

/* GPUX_SELECT_TOPK_PATH, a test knob read at each call: "old" keeps every top-k on the radix
 * select of x; "cand" takes the two-read path wherever it can run (32- and 64-bit keys, up to
 * GPUX__CAND_ROWS rows, fewer than 2^30 candidates a row), whatever the sizes; "samp" the
 * one-read path there first (then "cand" where the sample's bound fails); "samp1" as samp,
 * the sample's bound falling short an error (tests: a broken bound would only cost time);
 * anything else (unset): samp_plan and cand_rule decide. */
#define GPUX__CAND_ROWS 8
#define GPUX__CAND_MIN_LEN ((int64_t)1 << 16)
#define GPUX__SAMP_CAPG 64                /* filt's listed positions a GPU-form group, at least */
static int cand_knob(void) {
  const char *e = getenv("GPUX_SELECT_TOPK_PATH");
  if (e && !strcmp(e, "old")) return -1;
  if (e && !strcmp(e, "cand")) return 1;
  if (e && !strcmp(e, "samp")) return 2;
  if (e && !strcmp(e, "samp1")) return 3;
  return 0;
}

/* whether a row of len keys with c candidates takes the candidate path: the path costs two
 * reads of x plus the radix select of the c candidates (about 6 reads of them, and writing
 * them with their int64 positions); the radix select of x, 6 reads of x (float32). c <=
 * len / 8 keeps it well ahead; short rows (len < 2^16) stay on the old path, where the
 * launches and the read of c cost more than the passes. */
static int cand_rule(int64_t len, int64_t c, int knob) {
  if (c >= (int64_t)GPUX_SO_LB_N) return 0; /* the gather sums a row's counts in 32 bits */
  return knob > 0 || (len >= GPUX__CAND_MIN_LEN && c <= len / 8);
}

/* a launch of the candidate paths on rows x len xr with flags fl */
static gpux__select cand_launch(const struct gpux_array *xr, int64_t rows, int64_t len,
                                unsigned fl) {
  gpux__select p;
  memset(&p, 0, sizeof p);
  p.dtype = (int)xr->dtype;
  p.flags = fl;
  p.rows = rows;
  p.len = len;
  p.x = OPND(xr);
  return p;
}

/* The candidates (gather: p holds x, rows, len, flags, pc, gc and the list; P every pcs
 * words of pc, tested against image >> shift) into cand / cpos of rows x cmax, then each
 * row's k results from its c[row] candidates: the select of the candidates (one row of c
 * keys, rank k - 1), its k indices into cand mapped to positions in x. */
static gpux_status cand_finish(const struct gpux_array *xr, gpux__select *p, int64_t pcs,
                               int shift, int64_t cmax, const int64_t *c, int64_t k,
                               unsigned fl, int sorted, struct gpux_array *vd,
                               struct gpux_array *id) {
  struct gpux_context *ctx = xr->ctx;
  struct gpux_array *cand = NULL, *cpos = NULL;
  const int64_t rows = p->rows, ncand = rows * cmax;
  gpux_status s = gpux__array_new(&cand, ctx, xr->dtype, 1, &ncand);
  if (s == GPUX_SUCCESS) s = gpux__array_new(&cpos, ctx, GPUX_INT64, 1, &ncand);
  if (s == GPUX_SUCCESS) {
    p->kind = 7;
    p->pcs = pcs;
    p->shift = shift;
    p->cand = OPND(cand);
    p->cpos = OPND(cpos);
    p->cstride = cmax;
    s = run(ctx, p);
  }
  for (int64_t r = 0; r < rows && s == GPUX_SUCCESS; r++) {
    gpux__operand co = OPND(cand), vo = OPND(vd), io = OPND(id);
    co.offset += r * cmax;
    vo.offset += r * k;
    io.offset += r * k;
    s = select_write_op(ctx, co, xr->dtype, 1, c[r], GPUX_SEL_TOPK, k, fl, sorted, &vo, &io);
    gpux__select m;
    memset(&m, 0, sizeof m);
    m.kind = GPUX__SEL_MAP;
    m.k = k;
    m.idx = io;
    m.cpos = OPND(cpos);
    m.cpos.offset += r * cmax;
    if (s == GPUX_SUCCESS) s = run(ctx, &m);
  }
  rel(&cand);
  rel(&cpos);
  return s;
}

/* The one-read path's sample: ns keys a row (up to ssel's GPUX_SEL_SNS_W(w) for keys of w
 * bits, len / 16 for shorter rows) and the rank r whose image bounds the k-th.
 * The sample holds about k ns / len of the row's k smallest images (kth's expected hits);
 * r = that + 4 of their standard deviations + 4 makes a sample of r + 1 of them (the bound
 * falling short: a fallback, never a wrong result) rare, and leaves about (r + 1) len / ns
 * candidates; r = ns when the margin passes the sample (no bound: every key a candidate,
 * which only a forced path takes). Returns 0 where the path does not pay (the candidates
 * over len / 8; rows shorter than GPUX__CAND_MIN_LEN unless forced).
 * GPUX_SELECT_SAMPLE_RANK (a test knob) sets r. */
static int samp_plan(int64_t len, int w, int64_t k, int knob, int64_t *ns, int64_t *r) {
  const int64_t nmax = GPUX_SEL_SNS_W(w);
  int64_t n = len / 16 < nmax ? len / 16 : nmax;
  if (n < 1) n = 1;
  const double hits = (double)k * (double)n / (double)len;
  int64_t rr = (int64_t)ceil(hits + 4.0 * sqrt(hits) + 4.0) - 1;
  const char *e = getenv("GPUX_SELECT_SAMPLE_RANK");
  if (e) rr = atoll(e);
  if (rr < 0) rr = 0;
  if (rr > n) rr = n; /* rank n, past the sample: no bound (ssel's T all ones) */
  *ns = n;
  *r = rr;
  if (knob >= 2) return 1;
  return len >= GPUX__CAND_MIN_LEN && (rr + 1) * (len / n) <= len / 8;
}

/* The one-read path (gpux_select.h "ONE READ") for rows x len xr: *done = 1 when it wrote
 * the results, 0 when the sample's bound fell short or let too many through (nothing
 * written; the caller goes on). */
static gpux_status topk_sample(const struct gpux_array *xr, int64_t rows, int64_t len,
                               int64_t k, unsigned fl, int sorted, struct gpux_array *vd,
                               struct gpux_array *id, int knob, int *done) {
  struct gpux_context *ctx = xr->ctx;
  int64_t ns, r;
  *done = 0;
  if (!samp_plan(len, (int)gpux_dtype_size(xr->dtype) * 8, k, knob, &ns, &r))
    return GPUX_SUCCESS;
  /* filt's groups (h12's, the GPU forms' count: no CPU form has more) and its list: at least
   * GPUX__SAMP_CAPG positions a group, or four times the expected candidates up to a word
   * for 16 keys. The words a group: GPUX_SELECT_CAPG (a test knob) */
  int64_t gpr;
  (void)gpux__sel_h12_plan(rows, len, 0, &gpr);
  int64_t ncb = rows * gpr * GPUX__SAMP_CAPG, want = rows * 4 * (r + 1) * (len / ns);
  if (want > rows * (len / 16)) want = rows * (len / 16); /* denser: groups read again */
  if (want > ncb) ncb = want;
  const char *e = getenv("GPUX_SELECT_CAPG");
  if (e) ncb = rows * gpr * atoll(e);
  const int64_t nst = rows * GPUX_SEL_ST, ngc = rows * gpr, ncb1 = ncb > 0 ? ncb : 1;
  struct gpux_array *st = NULL, *cb = NULL, *gc = NULL, *tot = NULL;
  gpux_status s = gpux__array_new(&st, ctx, GPUX_UINT64, 1, &nst);
  gpux__select p = cand_launch(xr, rows, len, fl);
  if (s == GPUX_SUCCESS) { /* the image of rank r of each row's sample: st[row] */
    p.kind = 8; /* ssel */
    p.n = ns;
    p.k = r;
    p.st = OPND(st);
    s = run(ctx, &p);
  }
  if (s == GPUX_SUCCESS) s = gpux__array_new(&cb, ctx, GPUX_UINT32, 1, &ncb1);
  if (s == GPUX_SUCCESS) s = gpux__array_new(&gc, ctx, GPUX_UINT32, 1, &ngc);
  if (s == GPUX_SUCCESS) s = gpux_array_zeros(&tot, ctx, GPUX_UINT32, 1, &rows);
  if (s == GPUX_SUCCESS) {
    p.kind = 9; /* filt */
    p.cb = OPND(cb);
    p.capg = ncb;
    p.gc = OPND(gc);
    p.tot = OPND(tot);
    s = run(ctx, &p);
  }
  uint32_t ht[GPUX__CAND_ROWS];
  int64_t c[GPUX__CAND_ROWS], cmax = 0;
  if (s == GPUX_SUCCESS)
    s = ctx->be->mem_download(gpux__q(ctx), tot->st->blk.buf, (size_t)tot->offset * 4u, ht,
                              (size_t)rows * 4u);
  int use = s == GPUX_SUCCESS;
  for (int64_t i = 0; i < rows && use; i++) {
    c[i] = (int64_t)ht[i];
    use = c[i] >= k && cand_rule(len, c[i], knob);
    if (c[i] > cmax) cmax = c[i];
    if (!use && knob == 3)
      s = gpux__set_error(GPUX_ERROR_UNSUPPORTED,
                          "gpux_topk: row %lld of %lld keys: %lld under the sample's bound "
                          "(rank %lld of %lld), k %lld (GPUX_SELECT_TOPK_PATH=samp1)",
                          (long long)i, (long long)len, (long long)c[i], (long long)r,
                          (long long)ns, (long long)k);
  }
  rel(&tot);
  if (use) { /* gather: P = the bound (st), the whole image, filt's list */
    p.pc = OPND(st);
    s = cand_finish(xr, &p, GPUX_SEL_ST, 0, cmax, c, k, fl, sorted, vd, id);
    *done = s == GPUX_SUCCESS;
  }
  rel(&cb);
  rel(&gc);
  rel(&st);
  return s;
}

/* the k results of each row of a contiguous rows x len xr (images with flags fl) into vd /
 * id, as select_write's top-k: through the candidates of one read, else of two, when the
 * rules say so, else the radix select of x. The same bits every way (the contract in
 * gpux_select.h). */
static gpux_status topk_write(const struct gpux_array *xr, int64_t rows, int64_t len, int64_t k,
                              unsigned fl, int sorted, struct gpux_array *vd,
                              struct gpux_array *id) {
  struct gpux_context *ctx = xr->ctx;
  const int w = (int)gpux_dtype_size(xr->dtype) * 8, knob = cand_knob();
  if (knob < 0 || w < 32 || rows > GPUX__CAND_ROWS || len > (int64_t)UINT32_MAX ||
      (knob == 0 && len < GPUX__CAND_MIN_LEN)) /* (the old path reports rows over 2^32) */
    return select_write(xr, rows, len, GPUX_SEL_TOPK, k, fl, sorted, vd, id);
  if (knob != 1) {
    int done = 0;
    gpux_status s = topk_sample(xr, rows, len, k, fl, sorted, vd, id, knob, &done);
    if (s != GPUX_SUCCESS || done) return s;
  }
  struct gpux_array *hist = NULL, *pc = NULL, *hb = NULL, *gc = NULL;
  /* h12's groups: the GPU forms' count, which no CPU form exceeds (gpux_backend.h) */
  int64_t gpr;
  (void)gpux__sel_h12_plan(rows, len, 0, &gpr);
  const int64_t nh = rows * GPUX_SEL_B12, npc = rows * 2, ngc = rows * gpr;
  const int64_t nhb = ngc * GPUX_SEL_B12;
  gpux_status s = gpux_array_zeros(&hist, ctx, GPUX_UINT32, 1, &nh);
  if (s == GPUX_SUCCESS) s = gpux__array_new(&pc, ctx, GPUX_UINT64, 1, &npc);
  if (s == GPUX_SUCCESS) s = gpux__array_new(&hb, ctx, GPUX_UINT32, 1, &nhb);
  gpux__select p = cand_launch(xr, rows, len, fl);
  p.k = k - 1; /* pick12's rank */
  if (s == GPUX_SUCCESS) {
    p.hist = OPND(hist);
    p.hb = OPND(hb);
    p.pc = OPND(pc);
    p.kind = 6;
    s = run(ctx, &p);
    p.kind = GPUX__SEL_PICK12;
    if (s == GPUX_SUCCESS) s = run(ctx, &p);
  }
  uint64_t hpc[2 * GPUX__CAND_ROWS];
  if (s == GPUX_SUCCESS)
    s = ctx->be->mem_download(gpux__q(ctx), pc->st->blk.buf, (size_t)pc->offset * 8u, hpc,
                              (size_t)npc * 8u);
  int use = s == GPUX_SUCCESS;
  int64_t cmax = 0, c[GPUX__CAND_ROWS];
  for (int64_t r = 0; r < rows && use; r++) {
    c[r] = (int64_t)hpc[2 * r + 1];
    use = cand_rule(len, c[r], knob);
    if (c[r] > cmax) cmax = c[r];
  }
  rel(&hist);
  if (s == GPUX_SUCCESS && !use) {
    rel(&pc);
    rel(&hb);
    return select_write(xr, rows, len, GPUX_SEL_TOPK, k, fl, sorted, vd, id);
  }
  if (s == GPUX_SUCCESS) s = gpux__array_new(&gc, ctx, GPUX_UINT32, 1, &ngc);
  if (s == GPUX_SUCCESS) {
    p.kind = GPUX__SEL_GCNT;
    p.gc = OPND(gc);
    s = run(ctx, &p);
  }
  rel(&hb);
  /* gather: P = pick12's prefix, the images' top 12 bits, no list */
  if (s == GPUX_SUCCESS) s = cand_finish(xr, &p, 2, w - 12, cmax, c, k, fl, sorted, vd, id);
  rel(&pc);
  rel(&gc);
  return s;
}

/* ---- top-k */

static gpux_status topk_check(const struct gpux_array *x, int64_t k, int axis, unsigned flags,
                              int *ax, const char *fn) {
  GPUX__CHECK(gpux__check_array(x, "x"));
  GPUX__CHECK(check_dtype(x, fn, "x"));
  GPUX__CHECK(norm_axis(x, axis, ax, fn));
  if (flags & ~(GPUX_TOPK_SMALLEST | GPUX_TOPK_SORTED))
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", fn, flags);
  if (k < 0 || k > x->shape[*ax])
    return gpux__set_error(GPUX_ERROR_INDEX_OUT_OF_RANGE,
                           "%s: k = %lld is outside [0, %lld], the length of axis %d", fn,
                           (long long)k, (long long)x->shape[*ax], *ax);
  return GPUX_SUCCESS;
}

static gpux_status topk_run(struct gpux_array *vals, struct gpux_array *idx,
                            const struct gpux_array *x, int64_t k, int ax, unsigned flags) {
  if (vals->size == 0) return GPUX_SUCCESS;
  struct gpux_context *ctx = x->ctx;
  GPUX__NEED(ctx, GPUX__Q_SELECT, 0, x->dtype, -1);
  const int64_t len = x->shape[ax], rows = x->size / len;
  struct gpux_array *xt = NULL, *vt = NULL, *it = NULL, *vd = NULL, *id = NULL;
  const struct gpux_array *xr = NULL;
  gpux_status s = rows_of(x, ax, &xt, &xr);
  if (s == GPUX_SUCCESS) s = dest_of(vals, ax, &vt, &vd);
  if (s == GPUX_SUCCESS) s = dest_of(idx, ax, &it, &id);
  const unsigned fl = GPUX_SO_EQZ | ((flags & GPUX_TOPK_SMALLEST) ? 0u : GPUX_SO_DESC);
  const int sorted = (flags & GPUX_TOPK_SORTED) != 0;
  if (sorted && k > GPUX_TOPK_MAX_SORTED) {
    /* beyond the rank kernel: the k results in position order, then the sort core's
     * stable sort by key (THE ORDER with -0.0 == +0.0, descending for the largest): equal
     * keys stay in position order, the rank kernel's tie rule, so both paths give the same
     * bits */
    struct gpux_array *tv = NULL, *ti = NULL;
    if (s == GPUX_SUCCESS) s = gpux__array_new(&tv, ctx, x->dtype, vd->ndim, vd->shape);
    if (s == GPUX_SUCCESS) s = gpux__array_new(&ti, ctx, GPUX_INT64, vd->ndim, vd->shape);
    if (s == GPUX_SUCCESS) s = topk_write(xr, rows, len, k, fl, 0, tv, ti);
    const gpux_array_t tiv[1] = {ti}, idv[1] = {id};
    if (s == GPUX_SUCCESS)
      s = gpux_sort_by_key_into(vd, idv, tv, tiv, 1, -1,
                                (flags & GPUX_TOPK_SMALLEST) ? 0u : GPUX_SORT_DESCENDING);
    rel(&tv);
    rel(&ti);
  } else if (s == GPUX_SUCCESS) {
    s = topk_write(xr, rows, len, k, fl, sorted, vd, id);
  }
  if (s == GPUX_SUCCESS) s = finish(vals, ax, vt);
  if (s == GPUX_SUCCESS) s = finish(idx, ax, it);
  rel(&xt);
  rel(&vt);
  rel(&it);
  return s;
}

/* topk's checks, the axis and the result's shape (*nd axes); values and indices: the
 * output handles (_into) or the pointers to them, checked for NULL */
static gpux_status topk_plan(const void *values, const void *indices, gpux_array_t x, int64_t k,
                             int axis, unsigned flags, int *ax, int64_t *shape, int *nd,
                             const char *fn) {
  NEED(values, "values");
  NEED(indices, "indices");
  NEED(x, "x");
  GPUX__CHECK(topk_check(x, k, axis, flags, ax, fn));
  *nd = result_shape(x, *ax, k, shape);
  return GPUX_SUCCESS;
}

gpux_status gpux_topk_into(gpux_array_t values, gpux_array_t indices, gpux_array_t x, int64_t k,
                           int axis, unsigned flags) {
  GPUX__API_FN();
  const char *fn = "gpux_topk_into";
  int ax = 0, nd = 0;
  int64_t shape[GPUX_MAX_DIMS];
  GPUX__CHECK(topk_plan(values, indices, x, k, axis, flags, &ax, shape, &nd, fn));
  GPUX__CHECK(gpux__check_array(values, "values"));
  GPUX__CHECK(gpux__check_array(indices, "indices"));
  GPUX__CHECK(check_out(values, x->dtype, nd, shape, x, fn, "values"));
  GPUX__CHECK(check_out(indices, GPUX_INT64, nd, shape, x, fn, "indices"));
  if (values->size && gpux__overlaps(values, indices))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: values overlaps indices", fn);
  return topk_run(values, indices, x, k, ax, flags);
}

gpux_status gpux_topk(gpux_array_t *values, gpux_array_t *indices, gpux_array_t x, int64_t k,
                      int axis, unsigned flags) {
  GPUX__API_FN();
  const char *fn = "gpux_topk";
  int ax = 0, nd = 0;
  int64_t shape[GPUX_MAX_DIMS];
  if (values) *values = NULL;
  if (indices) *indices = NULL;
  GPUX__CHECK(topk_plan(values, indices, x, k, axis, flags, &ax, shape, &nd, fn));
  struct gpux_array *v = NULL, *i = NULL;
  gpux_status s = gpux__array_new(&v, x->ctx, x->dtype, nd, shape);
  if (s == GPUX_SUCCESS) s = gpux__array_new(&i, x->ctx, GPUX_INT64, nd, shape);
  if (s == GPUX_SUCCESS) s = topk_run(v, i, x, k, ax, flags);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(v);
    gpux_array_release(i);
    return s;
  }
  *values = v;
  *indices = i;
  return GPUX_SUCCESS;
}

/* ---- partition / argpartition */

static gpux_status part_check(const struct gpux_array *x, int64_t *kth, int axis, int *ax,
                              const char *fn) {
  GPUX__CHECK(gpux__check_array(x, "x"));
  GPUX__CHECK(check_dtype(x, fn, "x"));
  GPUX__CHECK(norm_axis(x, axis, ax, fn));
  const int64_t len = x->shape[*ax];
  if (*kth < -len || *kth >= len)
    return gpux__set_error(GPUX_ERROR_INDEX_OUT_OF_RANGE,
                           "%s: kth = %lld is out of range for axis %d of length %lld", fn,
                           (long long)*kth, *ax, (long long)len);
  if (*kth < 0) *kth += len;
  return GPUX_SUCCESS;
}

static gpux_status part_run(struct gpux_array *out, const struct gpux_array *x, int64_t kth,
                            int ax, int arg) {
  if (out->size == 0) return GPUX_SUCCESS;
  struct gpux_context *ctx = x->ctx;
  GPUX__NEED(ctx, GPUX__Q_SELECT, 0, x->dtype, -1);
  const int64_t len = x->shape[ax], rows = x->size / len;
  struct gpux_array *xt = NULL, *ot = NULL, *od = NULL;
  const struct gpux_array *xr = NULL;
  gpux_status s = rows_of(x, ax, &xt, &xr);
  if (s == GPUX_SUCCESS) s = dest_of(out, ax, &ot, &od);
  if (s == GPUX_SUCCESS)
    s = select_write(xr, rows, len, GPUX_SEL_PARTITION, kth, GPUX_SO_EQZ, 0, arg ? NULL : od,
                     arg ? od : NULL);
  if (s == GPUX_SUCCESS) s = finish(out, ax, ot);
  rel(&xt);
  rel(&ot);
  return s;
}

static gpux_status part_new(gpux_array_t *out, gpux_array_t x, int64_t kth, int axis, int arg,
                            const char *fn) {
  NEED(out, "out");
  *out = NULL;
  NEED(x, "x");
  int ax = 0;
  GPUX__CHECK(part_check(x, &kth, axis, &ax, fn));
  struct gpux_array *o = NULL;
  GPUX__CHECK(gpux__array_new(&o, x->ctx, arg ? GPUX_INT64 : x->dtype, x->ndim, x->shape));
  return give(out, o, part_run(o, x, kth, ax, arg));
}

static gpux_status part_into(gpux_array_t out, gpux_array_t x, int64_t kth, int axis, int arg,
                             const char *fn) {
  NEED(out, "out");
  NEED(x, "x");
  int ax = 0;
  GPUX__CHECK(part_check(x, &kth, axis, &ax, fn));
  GPUX__CHECK(gpux__check_array(out, "out"));
  GPUX__CHECK(check_out(out, arg ? GPUX_INT64 : x->dtype, x->ndim, x->shape, x, fn, "out"));
  return part_run(out, x, kth, ax, arg);
}

gpux_status gpux_partition(gpux_array_t *out, gpux_array_t x, int64_t kth, int axis) {
  GPUX__API_FN();
  return part_new(out, x, kth, axis, 0, "gpux_partition");
}
gpux_status gpux_partition_into(gpux_array_t out, gpux_array_t x, int64_t kth, int axis) {
  GPUX__API_FN();
  return part_into(out, x, kth, axis, 0, "gpux_partition_into");
}
gpux_status gpux_argpartition(gpux_array_t *out, gpux_array_t x, int64_t kth, int axis) {
  GPUX__API_FN();
  return part_new(out, x, kth, axis, 1, "gpux_argpartition");
}
gpux_status gpux_argpartition_into(gpux_array_t out, gpux_array_t x, int64_t kth, int axis) {
  GPUX__API_FN();
  return part_into(out, x, kth, axis, 1, "gpux_argpartition_into");
}

/* ---- partition / argpartition with a list of kth */

/* the checks of the _multi forms; *k0: the first kth wrapped, *one: every kth names the
 * same position (then the result is gpux_partition's around it) */
static gpux_status pm_check(const struct gpux_array *x, const int64_t *kth, size_t nkth,
                            int axis, int *ax, int64_t *k0, int *one, const char *fn) {
  NEED(kth, "kth");
  if (nkth == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: nkth = 0, it must be >= 1", fn);
  GPUX__CHECK(gpux__check_array(x, "x"));
  GPUX__CHECK(check_dtype(x, fn, "x"));
  GPUX__CHECK(norm_axis(x, axis, ax, fn));
  const int64_t len = x->shape[*ax];
  *one = 1;
  for (size_t i = 0; i < nkth; i++) {
    if (kth[i] < -len || kth[i] >= len)
      return gpux__set_error(GPUX_ERROR_INDEX_OUT_OF_RANGE,
                             "%s: kth[%zu] = %lld is out of range for axis %d of length %lld",
                             fn, i, (long long)kth[i], *ax, (long long)len);
    const int64_t k = kth[i] < 0 ? kth[i] + len : kth[i];
    if (i == 0) *k0 = k;
    else if (k != *k0) *one = 0;
  }
  return GPUX_SUCCESS;
}

/* more than one distinct kth: the row stably sorted (the sort core, the keys' own bits) */
static gpux_status pm_run(struct gpux_array *out, struct gpux_array *x, int64_t k0, int one,
                          int ax, int arg) {
  if (one) return part_run(out, x, k0, ax, arg);
  if (arg) return gpux_argsort_into(out, x, ax, 0);
  return gpux_sort_by_key_into(out, NULL, x, NULL, 0, ax, 0);
}

static gpux_status pm_new(gpux_array_t *out, gpux_array_t x, const int64_t *kth, size_t nkth,
                          int axis, int arg, const char *fn) {
  NEED(out, "out");
  *out = NULL;
  NEED(x, "x");
  int ax = 0, one = 1;
  int64_t k0 = 0;
  GPUX__CHECK(pm_check(x, kth, nkth, axis, &ax, &k0, &one, fn));
  struct gpux_array *o = NULL;
  GPUX__CHECK(gpux__array_new(&o, x->ctx, arg ? GPUX_INT64 : x->dtype, x->ndim, x->shape));
  return give(out, o, pm_run(o, x, k0, one, ax, arg));
}

static gpux_status pm_into(gpux_array_t out, gpux_array_t x, const int64_t *kth, size_t nkth,
                           int axis, int arg, const char *fn) {
  NEED(out, "out");
  NEED(x, "x");
  int ax = 0, one = 1;
  int64_t k0 = 0;
  GPUX__CHECK(pm_check(x, kth, nkth, axis, &ax, &k0, &one, fn));
  GPUX__CHECK(gpux__check_array(out, "out"));
  GPUX__CHECK(check_out(out, arg ? GPUX_INT64 : x->dtype, x->ndim, x->shape, x, fn, "out"));
  return pm_run(out, x, k0, one, ax, arg);
}

gpux_status gpux_partition_multi(gpux_array_t *out, gpux_array_t x, const int64_t *kth,
                                 size_t nkth, int axis) {
  GPUX__API_FN();
  return pm_new(out, x, kth, nkth, axis, 0, "gpux_partition_multi");
}
gpux_status gpux_partition_multi_into(gpux_array_t out, gpux_array_t x, const int64_t *kth,
                                      size_t nkth, int axis) {
  GPUX__API_FN();
  return pm_into(out, x, kth, nkth, axis, 0, "gpux_partition_multi_into");
}
gpux_status gpux_argpartition_multi(gpux_array_t *out, gpux_array_t x, const int64_t *kth,
                                    size_t nkth, int axis) {
  GPUX__API_FN();
  return pm_new(out, x, kth, nkth, axis, 1, "gpux_argpartition_multi");
}
gpux_status gpux_argpartition_multi_into(gpux_array_t out, gpux_array_t x, const int64_t *kth,
                                         size_t nkth, int axis) {
  GPUX__API_FN();
  return pm_into(out, x, kth, nkth, axis, 1, "gpux_argpartition_multi_into");
}

/* ---- median, quantile, percentile */

static gpux_dtype q_dtype(gpux_dtype dt) {
  return dt == GPUX_FLOAT32 || dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16 ? GPUX_FLOAT32
                                                                          : GPUX_FLOAT64;
}

/* mode GPUX_SEL_MEDIAN (q unused, nq 1) or GPUX_SEL_QUANTILE; q already probabilities */
static gpux_status q_check(const struct gpux_array *x, const double *q, int nq, int axis,
                           int *ax, int mode, double scale, const char *fn) {
  GPUX__CHECK(gpux__check_array(x, "x"));
  GPUX__CHECK(check_dtype(x, fn, "x"));
  if (axis == GPUX_ALL_AXES) *ax = -1;
  else GPUX__CHECK(norm_axis(x, axis, ax, fn));
  if (mode == GPUX_SEL_QUANTILE) {
    if (!q) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: q is NULL", fn);
    if (nq < 1)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: nq = %d, it must be >= 1", fn,
                             nq);
    for (int i = 0; i < nq; i++)
      if (!(q[i] >= 0 && q[i] <= scale))
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                               "%s: q[%d] = %g is outside [0, %g]", fn, i, q[i], scale);
  }
  const int64_t len = *ax < 0 ? x->size : x->shape[*ax];
  if (len == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "%s: the %s is empty: no %s", fn,
                           *ax < 0 ? "array" : "axis", mode == GPUX_SEL_MEDIAN ? "median"
                                                                              : "quantile");
  return GPUX_SUCCESS;
}

/* result shape: (nq,) (quantile) + x's without the axis (all of it for ax < 0) */
static int q_shape(const struct gpux_array *x, int ax, int mode, int nq, int64_t *shape) {
  int nd = 0;
  if (mode == GPUX_SEL_QUANTILE) shape[nd++] = nq;
  if (ax >= 0) nd += result_shape(x, ax, -1, shape + nd);
  return nd;
}

static gpux_status q_run(struct gpux_array *out, const struct gpux_array *x, const double *q,
                         int nq, int ax, int mode, double scale) {
  if (out->size == 0) return GPUX_SUCCESS;
  struct gpux_context *ctx = x->ctx;
  GPUX__NEED(ctx, GPUX__Q_SELECT, 0, x->dtype, -1);
  const int64_t len = ax < 0 ? x->size : x->shape[ax], rows = x->size / len;
  struct gpux_array *xt = NULL, *ot = NULL, *od = NULL, *gam = NULL;
  const struct gpux_array *xr = NULL;
  gpux_status s;
  if (ax < 0) { /* flattened: row-major order, contiguous */
    s = gpux__contiguous_ref(&xt, x);
    xr = xt;
  } else {
    s = rows_of(x, ax, &xt, &xr);
  }
  /* the output as (nq, rows): contiguous, or a temporary copied back (q axis first, the
   * others in x's order: the same layout) */
  if (s == GPUX_SUCCESS) s = dest_of(out, -1, &ot, &od);
  const int per = GPUX_SEL_MAXT / 2; /* quantiles a select pass takes */
  const int64_t chunk = chunk_rows(rows, 2 * per);
  for (int q0 = 0; q0 < nq && s == GPUX_SUCCESS; q0 += per) {
    const int m = nq - q0 < per ? nq - q0 : per;
    int64_t rk[GPUX_SEL_MAXT];
    double g[GPUX_SEL_MAXT / 2];
    for (int i = 0; i < m; i++) {
      if (mode == GPUX_SEL_MEDIAN) {
        rk[2 * i] = (len - 1) / 2;
        rk[2 * i + 1] = len / 2;
        g[i] = 0.5;
        continue;
      }
      const double qq = q[q0 + i] / scale;
      const double v = ((double)len * qq + (1.0 + qq * -1.0)) - 1.0; /* NumPy's linear */
      double lo = floor(v);
      int64_t a = (int64_t)lo, b = a + 1;
      if (v < 0) a = b = 0;
      if (v >= (double)(len - 1)) a = b = len - 1;
      if (a < 0) a = 0;
      if (b > len - 1) b = len - 1;
      rk[2 * i] = a;
      rk[2 * i + 1] = b;
      g[i] = v - (double)a;
    }
    scratch sc;
    s = scratch_new(&sc, ctx, chunk, 2 * m, rk, 0, len);
    if (s == GPUX_SUCCESS) s = new_from(&gam, ctx, GPUX_FLOAT64, m, g);
    for (int64_t r0 = 0; r0 < rows && s == GPUX_SUCCESS; r0 += chunk) {
      const int64_t nr = rows - r0 < chunk ? rows - r0 : chunk;
      gpux__operand xo = OPND(xr);
      xo.offset += r0 * len;
      s = select_rows(ctx, xo, (int)x->dtype, nr, len, 2 * m, 0u, &sc);
      gpux__select p;
      memset(&p, 0, sizeof p);
      p.kind = 5;
      p.dtype = (int)x->dtype;
      p.rows = nr;
      p.nq = m;
      p.mode = mode;
      p.st = OPND(sc.st);
      p.rk = OPND(sc.rk);
      p.gam = OPND(gam);
      p.out = OPND(od);
      p.len = rows; /* out[q][row] of the whole (nq, rows) output */
      p.out.offset += (int64_t)q0 * rows + r0;
      if (s == GPUX_SUCCESS) s = run(ctx, &p);
    }
    scratch_free(&sc);
    rel(&gam);
  }
  if (s == GPUX_SUCCESS) s = finish(out, -1, ot);
  rel(&xt);
  rel(&ot);
  return s;
}

/* median / quantile / percentile: a new result in *outp (outp given), else into out */
static gpux_status q_call(gpux_array_t *outp, gpux_array_t out, gpux_array_t x,
                          const double *q, int nq, int axis, int mode, double scale,
                          const char *fn) {
  NEED(outp || out, "out"); /* the new form's out pointer, or the _into form's array */
  if (outp) *outp = NULL;
  NEED(x, "x");
  int ax = 0;
  if (mode == GPUX_SEL_MEDIAN) nq = 1;
  GPUX__CHECK(q_check(x, q, nq, axis, &ax, mode, scale, fn));
  if (!outp) GPUX__CHECK(gpux__check_array(out, "out"));
  int64_t shape[GPUX_MAX_DIMS + 1];
  const int nd = q_shape(x, ax, mode, nq, shape);
  if (nd > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "%s: the result has too many axes", fn);
  if (!outp) {
    GPUX__CHECK(check_out(out, q_dtype(x->dtype), nd, shape, x, fn, "out"));
    return q_run(out, x, q, nq, ax, mode, scale);
  }
  struct gpux_array *o = NULL;
  GPUX__CHECK(gpux__array_new(&o, x->ctx, q_dtype(x->dtype), nd, shape));
  return give(outp, o, q_run(o, x, q, nq, ax, mode, scale));
}

gpux_status gpux_median(gpux_array_t *out, gpux_array_t x, int axis) {
  GPUX__API_FN();
  return q_call(out, NULL, x, NULL, 1, axis, GPUX_SEL_MEDIAN, 1.0, "gpux_median");
}
gpux_status gpux_median_into(gpux_array_t out, gpux_array_t x, int axis) {
  GPUX__API_FN();
  return q_call(NULL, out, x, NULL, 1, axis, GPUX_SEL_MEDIAN, 1.0, "gpux_median_into");
}
gpux_status gpux_quantile(gpux_array_t *out, gpux_array_t x, const double *q, int nq, int axis) {
  GPUX__API_FN();
  return q_call(out, NULL, x, q, nq, axis, GPUX_SEL_QUANTILE, 1.0, "gpux_quantile");
}
gpux_status gpux_quantile_into(gpux_array_t out, gpux_array_t x, const double *q, int nq,
                               int axis) {
  GPUX__API_FN();
  return q_call(NULL, out, x, q, nq, axis, GPUX_SEL_QUANTILE, 1.0, "gpux_quantile_into");
}
gpux_status gpux_percentile(gpux_array_t *out, gpux_array_t x, const double *p, int np,
                            int axis) {
  GPUX__API_FN();
  return q_call(out, NULL, x, p, np, axis, GPUX_SEL_QUANTILE, 100.0, "gpux_percentile");
}
gpux_status gpux_percentile_into(gpux_array_t out, gpux_array_t x, const double *p, int np,
                                 int axis) {
  GPUX__API_FN();
  return q_call(NULL, out, x, p, np, axis, GPUX_SEL_QUANTILE, 100.0, "gpux_percentile_into");
}
