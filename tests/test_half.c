/* gpux tests: the half-precision storage dtypes float16 and bfloat16 (issue 4), bit for bit
 * against the CPU reference (tests/ref: ref_half_*, ref_cast_bits):
 *   - every bit pattern written and read back, copies, views (reshape, slice, permute,
 *     transpose, copy_into with broadcasting);
 *   - gpux_array_full / ones / zeros / arange / linspace rounding (ties, subnormals,
 *     overflow, NaN, inf, -0.0);
 *   - gpux_array_cast from every dtype to f16/bf16 and back, layouts c (contiguous) and n
 *     (strided, reversed, broadcast views), sizes 1, 17, 4099 and 2^20 + 3, with random
 *     values that hit ties, subnormals, overflow, NaN payloads, infinities and -0.0;
 *   - the ops that do not take them (bitwise ops, reductions, scans) reject them with
 *     GPUX_ERROR_UNSUPPORTED_DTYPE and a message naming the dtype (reductions and scans:
 *     saying to cast to float32). Their elementwise ops and where are tested with every
 *     other dtype's in test_elementwise. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const gpux_dtype k_all[GT_STORAGE_DTYPES] = GT_STORAGE_DTYPE_INIT;
static const gpux_dtype k_half[2] = {GPUX_FLOAT16, GPUX_BFLOAT16};
static const int64_t k_sizes[4] = {1, 17, 4099, ((int64_t)1 << 20) + 3};

/* ------------------------------------------------------------------ helpers */

static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static double bits_f64(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}
static float bits_f32(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

/* The value of half h and of its successor (the next representable magnitude) */
static double half_val(gpux_dtype hdt, uint16_t h) {
  uint16_t b = h;
  return ref_load(hdt, &b, 0).f;
}

/* A float64 value that stresses the conversion to hdt: ties, near-ties, subnormals,
 * overflow thresholds, specials, random bits. */
static double gen_f64(gpux_dtype hdt, uint64_t *s) {
  const uint64_t r = rng_next(s);
  const int kind = (int)(r % 16);
  const uint16_t expmask = hdt == GPUX_FLOAT16 ? 0x7c00 : 0x7f80;
  /* a random finite half (not the largest), and the midpoint to its successor */
  uint16_t h = (uint16_t)(rng_next(s) & 0x7fff);
  if ((h & expmask) == expmask) h = (uint16_t)(h & ~0x4000u); /* finite */
  if (h == (uint16_t)(expmask - 1)) h--;
  const double sign = (r >> 20) & 1 ? -1.0 : 1.0;
  const double v0 = half_val(hdt, h), v1 = half_val(hdt, (uint16_t)(h + 1));
  const double mid = 0.5 * (v0 + v1); /* exact in double */
  switch (kind) {
    case 0:
    case 1:
    case 2: return sign * mid;                           /* a tie */
    case 3: return sign * nextafter(mid, INFINITY);      /* just above */
    case 4: return sign * nextafter(mid, -INFINITY);     /* just below */
    case 5: return sign * v0;                            /* exact */
    case 6: return sign * (v0 + (v1 - v0) * (double)(rng_next(s) >> 11) / 9007199254740992.0);
    case 7: { /* the subnormal range and below */
      const int e = hdt == GPUX_FLOAT16 ? -27 : -136;
      return sign * ldexp((double)(rng_next(s) >> 11) / 9007199254740992.0, e + (int)(r >> 40) % 14);
    }
    case 8: { /* overflow thresholds */
      static const double f16[] = {65504.0, 65519.0, 65519.999, 65520.0, 65520.001, 65536.0, 1e6, 1e300};
      static const double bf[] = {0x1.fep127, 0x1.fefffffffffffp127, 0x1.ffp127, 0x1.ff00000000001p127,
                                  0x1p128, 1e300, 3.3895313892515355e38, 3.4e38};
      return sign * (hdt == GPUX_FLOAT16 ? f16 : bf)[(r >> 32) % 8];
    }
    case 9: { /* specials */
      static const uint64_t sp[] = {0x0000000000000000ULL, 0x8000000000000000ULL,
                                    0x7ff0000000000000ULL, 0xfff0000000000000ULL,
                                    0x7ff8000000000000ULL, 0xfff8000000000000ULL,
                                    0x7ff0000000000001ULL, 0x7ff4000000000000ULL,
                                    0x7ffc0de000000000ULL, 0xfff123456789abcdULL,
                                    0x0000000000000001ULL, 0x8010000000000000ULL};
      return bits_f64(sp[(r >> 32) % 12]);
    }
    case 10: { /* a NaN with random payload */
      uint64_t b = 0x7ff0000000000000ULL | (rng_next(s) & 0x800fffffffffffffULL);
      if (!(b & 0xfffffffffffffULL)) b |= 1;
      return bits_f64(b);
    }
    case 11: return bits_f64(rng_next(s)); /* random bits */
    case 12: return sign * ldexp((double)(rng_next(s) >> 11) / 9007199254740992.0, (int)((r >> 32) % 40) - 20);
    default: return sign * (double)((int64_t)(rng_next(s) % 4001) - 2000) / 8.0;
  }
}

static float gen_f32(gpux_dtype hdt, uint64_t *s) {
  const uint64_t r = rng_next(s);
  if (r % 8 == 0) { /* random bits, NaN payloads included */
    return bits_f32((uint32_t)rng_next(s));
  }
  if (r % 8 == 1) { /* float32 subnormals (bfloat16 keeps them) */
    return bits_f32((uint32_t)(rng_next(s) & 0x807fffffu));
  }
  double d = gen_f64(hdt, s);
  if (isnan(d)) { /* a float32 NaN with payload */
    uint32_t b = 0x7f800000u | (uint32_t)(rng_next(s) & 0x807fffffu);
    if (!(b & 0x7fffffu)) b |= 0x400000u;
    return bits_f32(b);
  }
  if (fabs(d) > 3.4e38) return d > 0 ? INFINITY : -INFINITY;
  return (float)d; /* ties of f16/bf16 are exact in float */
}

static int64_t gen_int(gpux_dtype hdt, gpux_dtype dt, uint64_t *s) {
  const uint64_t r = rng_next(s);
  const int bits = dt == GPUX_INT32 ? 32 : 64;
  int64_t v;
  switch (r % 6) {
    case 0: v = (int64_t)rng_next(s); break; /* random bits */
    case 1: v = (int64_t)(rng_next(s) % 140000) - 70000; break;
    case 2: { /* ties and near-ties at a random scale: q.5 ulp of the half format */
      const int mb = hdt == GPUX_FLOAT16 ? 10 : 7;
      const int p = (int)((r >> 8) % (unsigned)(bits - 2 - mb)) + 1;
      const uint64_t q = (rng_next(s) & ((1ULL << (mb + 1)) - 1)) | (1ULL << mb);
      uint64_t u = (2 * q + 1) << (p - 1); /* exactly halfway at shift p */
      const int off = (int)((r >> 16) % 3) - 1;
      v = (int64_t)(u + (uint64_t)off);
      if ((r >> 24) & 1) v = -v;
      break;
    }
    case 3: {
      static const int64_t sp[] = {0, 1, -1, 65504, 65519, 65520, 65535, 65536, -65520,
                                   INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, 16777217};
      v = sp[(r >> 8) % 14];
      break;
    }
    default: v = (int64_t)(rng_next(s) >> (r % 60)) * ((r >> 7) & 1 ? -1 : 1); break;
  }
  if (bits == 32) v = (int64_t)(int32_t)(uint32_t)v;
  return v;
}

/* n random source values of dtype dt, aimed at conversions to hdt (for half sources: random
 * bit patterns, all NaN/inf/subnormal classes included). */
static void *gen_source(gpux_dtype dt, gpux_dtype hdt, int64_t n, uint64_t seed) {
  void *p = gt_malloc((size_t)n * ref_dtype_size(dt));
  uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 12345;
  for (int64_t i = 0; i < n; i++) {
    switch (dt) {
      case GPUX_FLOAT32: ((float *)p)[i] = gen_f32(hdt, &s); break;
      case GPUX_FLOAT64: ((double *)p)[i] = gen_f64(hdt, &s); break;
      case GPUX_INT32: ((int32_t *)p)[i] = (int32_t)gen_int(hdt, GPUX_INT32, &s); break;
      case GPUX_INT64: ((int64_t *)p)[i] = gen_int(hdt, GPUX_INT64, &s); break;
      case GPUX_UINT8: ((uint8_t *)p)[i] = (uint8_t)rng_next(&s); break;
      case GPUX_BOOL: ((uint8_t *)p)[i] = (uint8_t)(rng_next(&s) & 1); break;
      case GPUX_INT8:
      case GPUX_INT16:
      case GPUX_UINT16:
      case GPUX_UINT32:
      case GPUX_UINT64: { /* the int64 values wrapped (16 bits and less: every pattern once) */
        ref_value v;
        v.i = ref_wrap(dt, (uint64_t)gen_int(hdt, GPUX_INT64, &s));
        if (i < 65536 && n >= 65536 && ref_dtype_size(dt) <= 2) v.i = ref_wrap(dt, (uint64_t)i);
        ref_store(dt, p, i, v);
        break;
      }
      default: { /* a half: every bit pattern is a value to convert */
        uint16_t h = (uint16_t)rng_next(&s);
        if (i < 65536 && n >= 65536) h = (uint16_t)i; /* every pattern once */
        ((uint16_t *)p)[i] = h;
        break;
      }
    }
  }
  return p;
}

static void hexof(char *buf, size_t cap, const void *p, size_t es) {
  const unsigned char *b = p;
  size_t k = 0;
  buf[0] = '\0';
  for (size_t j = es; j-- > 0 && k + 3 < cap;) k += (size_t)snprintf(buf + k, cap - k, "%02x", b[j]);
}

/* Bit-for-bit comparison (NaN payloads are specified for the half conversions). */
static void expect_bits(const char *label, gpux_dtype from, gpux_dtype to, const void *src,
                        const void *got, const void *want, int64_t n) {
  const size_t es = ref_dtype_size(to), fs = ref_dtype_size(from);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    if (memcmp((const char *)got + (size_t)i * es, (const char *)want + (size_t)i * es, es) == 0)
      continue;
    if (bad < 8) {
      char a[40], g[40], w[40];
      hexof(a, sizeof a, (const char *)src + (size_t)i * fs, fs);
      hexof(g, sizeof g, (const char *)got + (size_t)i * es, es);
      hexof(w, sizeof w, (const char *)want + (size_t)i * es, es);
      print_error("%s: [%" PRId64 "] %s 0x%s -> %s: got 0x%s, expected 0x%s\n", label, i,
                  gt_dtype_str(from), a, gt_dtype_str(to), g, w);
    }
    bad++;
  }
  if (bad) GT_FAIL("%s: %" PRId64 " of %" PRId64 " elements differ", label, bad, n);
}

/* ------------------------------------------------------------------ basics */

static void test_dtype_info(void **state) {
  (void)state;
  assert_string_equal(gpux_dtype_name(GPUX_FLOAT16), "float16");
  assert_string_equal(gpux_dtype_name(GPUX_BFLOAT16), "bfloat16");
  assert_int_equal(gpux_dtype_size(GPUX_FLOAT16), 2);
  assert_int_equal(gpux_dtype_size(GPUX_BFLOAT16), 2);
  assert_int_equal(GPUX_DTYPE_COUNT, 15);
  assert_null(gpux_dtype_name((gpux_dtype)GPUX_DTYPE_COUNT));
  /* the reference itself, on values known by heart */
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 1.0), 0x3c00);
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 65504.0), 0x7bff);
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 65519.99), 0x7bff);
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 65520.0), 0x7c00);
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, -0.0), 0x8000);
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 0x1p-24), 0x0001);
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 0x1p-25), 0x0000);             /* tie -> even */
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 0x1.0000000000001p-25), 0x0001);
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 0x3p-25), 0x0002);             /* 1.5 ulp -> 2 */
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 2049.0), 0x6800);              /* tie -> even */
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, 2051.0), 0x6802);
  assert_int_equal(ref_half_from_f64(GPUX_FLOAT16, NAN), 0x7e00);
  assert_int_equal(ref_half_from_f64(GPUX_BFLOAT16, 1.0), 0x3f80);
  assert_int_equal(ref_half_from_f64(GPUX_BFLOAT16, 0x1.01p0), 0x3f80);          /* tie -> even */
  assert_int_equal(ref_half_from_f64(GPUX_BFLOAT16, 0x1.03p0), 0x3f82);
  assert_int_equal(ref_half_from_f64(GPUX_BFLOAT16, 0x1.ffp127), 0x7f80);        /* overflow */
  assert_int_equal(ref_half_from_f64(GPUX_BFLOAT16, 0x1.fefffffp127), 0x7f7f);
  assert_int_equal(ref_half_from_f32(GPUX_BFLOAT16, bits_f32(0x7f800001u)), 0x7fc0);
  assert_int_equal(ref_half_from_f32(GPUX_BFLOAT16, bits_f32(0xff812345u)), 0xffc1);
  assert_int_equal(ref_half_from_f32(GPUX_FLOAT16, bits_f32(0x7fa00000u)), 0x7f00);
  assert_int_equal(ref_half_from_i64(GPUX_BFLOAT16, (int64_t)0x2020001), 0x4c01); /* > tie */
  assert_int_equal(ref_half_from_i64(GPUX_BFLOAT16, (int64_t)0x2020000), 0x4c00); /* tie */
  /* uint64 beyond 2^63 in one rounding (through float32 it would round twice) */
  assert_int_equal(ref_half_from_u64(GPUX_BFLOAT16, UINT64_C(0x8080000000000001)), 0x5f01);
  assert_int_equal(ref_half_from_u64(GPUX_BFLOAT16, UINT64_C(0xff7fffffffffffff)), 0x5f7f);
  assert_true(ref_half_to_f32(GPUX_FLOAT16, 0x0001) == 0x1p-24f);
  assert_true(ref_half_to_f32(GPUX_BFLOAT16, 0x0001) == 0x1p-133f);
  assert_true(ref_half_to_f64(GPUX_FLOAT16, 0xfc00) == -INFINITY);
}

/* Every bit pattern uploads and downloads unchanged; copies, contiguous, copy_into. */
static void test_round_trip(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k_half[k];
    const int64_t n = 65536;
    uint16_t *src = gt_malloc(n * 2), *got = gt_malloc(n * 2);
    for (int64_t i = 0; i < n; i++) src[i] = (uint16_t)(i * 40503u); /* a permutation */
    int64_t shape[2] = {256, 256};
    gpux_array_t a = NULL, c = NULL, d = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 2, shape, src));
    gt_check_shape(a, dt, 2, shape, "from_host");
    size_t nb = 0;
    GT_OK(gpux_array_nbytes(&nb, a));
    assert_int_equal(nb, (size_t)n * 2);
    GT_OK(gpux_array_read(a, got, (size_t)n * 2));
    expect_bits("read", dt, dt, src, got, src, n);
    void *dl = NULL;
    size_t bytes = 0;
    GT_OK(gpux_array_download(&dl, &bytes, a));
    assert_int_equal(bytes, (size_t)n * 2);
    expect_bits("download", dt, dt, src, dl, src, n);
    gpux_host_free(dl);
    GT_OK(gpux_array_copy(&c, a));
    GT_OK(gpux_array_read(c, got, (size_t)n * 2));
    expect_bits("copy", dt, dt, src, got, src, n);
    GT_OK(gpux_array_empty(&d, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_copy_into(d, a));
    GT_OK(gpux_array_read(d, got, (size_t)n * 2));
    expect_bits("copy_into", dt, dt, src, got, src, n);
    /* write over an existing array, then cast to the same dtype (a bit copy) */
    for (int64_t i = 0; i < n; i++) src[i] = (uint16_t)(n - 1 - i);
    GT_OK(gpux_array_write(d, src, (size_t)n * 2));
    gpux_array_release(c);
    c = NULL;
    GT_OK(gpux_array_cast(&c, d, dt));
    GT_OK(gpux_array_read(c, got, (size_t)n * 2));
    expect_bits("write + cast to itself", dt, dt, src, got, src, n);
    gpux_array_release(a);
    gpux_array_release(c);
    gpux_array_release(d);
    free(src);
    free(got);
  }
}

/* reshape, slice, permute, transpose, contiguous, copy_into with broadcasting */
static void test_views(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k_half[k];
    const int64_t shape[3] = {5, 37, 66}, n = 5 * 37 * 66;
    uint16_t *src = gt_malloc(n * 2), *got = gt_malloc(n * 2), *want = gt_malloc(n * 2);
    for (int64_t i = 0; i < n; i++) src[i] = (uint16_t)(i * 2654435761u >> 7);
    gpux_array_t a = NULL, r = NULL, sl = NULL, p = NULL, t = NULL, c = NULL, row = NULL,
                 dst = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 3, shape, src));
    /* reshape (a view) */
    int64_t rs[2] = {-1, 66};
    GT_OK(gpux_array_reshape(&r, a, 2, rs));
    GT_OK(gpux_array_read(r, got, (size_t)n * 2));
    expect_bits("reshape", dt, dt, src, got, src, n);
    /* slice with negative steps, then contiguous */
    int64_t st[3] = {4, 1, -1}, sp[3] = {-6, 36, -67}, stp[3] = {-2, 3, -5};
    GT_OK(gpux_array_slice(&sl, a, st, sp, stp));
    int64_t sshape[3], first[3], sstr[3], base_str[3];
    ref_row_major_strides(3, shape, base_str);
    int64_t off = 0;
    for (int d = 0; d < 3; d++) {
      sshape[d] = ref_slice_dim(shape[d], st[d], sp[d], stp[d], &first[d]);
      off += first[d] * base_str[d];
      sstr[d] = base_str[d] * stp[d];
    }
    const int64_t sn = ref_shape_size(3, sshape);
    gt_check_shape(sl, dt, 3, sshape, "slice");
    ref_gather(want, src, 2, 3, sshape, sstr, off);
    GT_OK(gpux_array_read(sl, got, (size_t)sn * 2));
    expect_bits("slice read", dt, dt, src, got, want, sn);
    GT_OK(gpux_array_contiguous(&c, sl));
    GT_OK(gpux_array_read(c, got, (size_t)sn * 2));
    expect_bits("slice contiguous", dt, dt, src, got, want, sn);
    /* permute and transpose (the tiled copy for 2-byte elements) */
    const int axes[3] = {2, 0, 1};
    GT_OK(gpux_array_permute(&p, a, axes));
    ref_permute(want, src, 2, 3, shape, axes);
    GT_OK(gpux_array_read(p, got, (size_t)n * 2));
    expect_bits("permute", dt, dt, src, got, want, n);
    GT_OK(gpux_array_transpose(&t, r));
    const int ax2[2] = {1, 0};
    const int64_t rshape[2] = {5 * 37, 66};
    ref_permute(want, src, 2, 2, rshape, ax2);
    GT_OK(gpux_array_read(t, got, (size_t)n * 2));
    expect_bits("transpose", dt, dt, src, got, want, n);
    /* copy_into a strided view with a broadcast source row */
    int64_t rowshape[1] = {66};
    GT_OK(gpux_array_from_host(&row, gt_ctx, dt, 1, rowshape, src + 100));
    GT_OK(gpux_array_zeros(&dst, gt_ctx, dt, 3, shape));
    gpux_array_t dv = NULL;
    int64_t ds[3] = {0, 0, 0}, de[3] = {5, 37, 66}, dstep[3] = {2, 1, 1};
    GT_OK(gpux_array_slice(&dv, dst, ds, de, dstep));
    GT_OK(gpux_array_copy_into(dv, row));
    GT_OK(gpux_array_read(dst, got, (size_t)n * 2));
    for (int64_t i = 0; i < n; i++) {
      const int64_t b = i / (37 * 66);
      want[i] = b % 2 == 0 ? src[100 + i % 66] : 0;
    }
    expect_bits("copy_into broadcast", dt, dt, src, got, want, n);
    gpux_array_release(dv);
    gpux_array_release(a);
    gpux_array_release(r);
    gpux_array_release(sl);
    gpux_array_release(p);
    gpux_array_release(t);
    gpux_array_release(c);
    gpux_array_release(row);
    gpux_array_release(dst);
    free(src);
    free(got);
    free(want);
  }
}

/* ------------------------------------------------------------------ creation */

static void test_full(void **state) {
  (void)state;
  static const double vals[] = {0.0,         -0.0,           1.0,           -2.5,
                                65504.0,     65519.0,        65520.0,       -65520.0,
                                1e-8,        0x1p-25,        0x1.8p-24,     0x1p-149,
                                2049.0,      2051.0,         0x1.01p0,      0x1.03p0,
                                0x1.ffp127,  0x1.fefffffp127, 1e300,        -1e-300,
                                INFINITY,    -INFINITY,      NAN,           -NAN,
                                3.14159265358979, 0.1,       1.0 / 3.0,     65536.0};
  const int nv = (int)(sizeof vals / sizeof vals[0]);
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k_half[k];
    for (int v = 0; v < nv; v++) {
      for (int sz = 0; sz < 3; sz++) {
        const int64_t n = k_sizes[sz];
        gpux_array_t a = NULL;
        GT_OK(gpux_array_full(&a, gt_ctx, dt, 1, &n, vals[v]));
        uint16_t *got = gt_malloc((size_t)n * 2), *want = gt_malloc((size_t)n * 2);
        GT_OK(gpux_array_read(a, got, (size_t)n * 2));
        for (int64_t i = 0; i < n; i++) want[i] = ref_half_from_f64(dt, vals[v]);
        char label[96];
        snprintf(label, sizeof label, "full(%s, %a)", gt_dtype_str(dt), vals[v]);
        expect_bits(label, GPUX_FLOAT64, dt, &vals[v], got, want, 1);
        expect_bits(label, dt, dt, want, got, want, n);
        gpux_array_release(a);
        free(got);
        free(want);
      }
    }
    /* zeros, ones, and a 0-d array */
    gpux_array_t z = NULL, o = NULL, s = NULL;
    int64_t shape[2] = {3, 7};
    uint16_t got[21];
    GT_OK(gpux_array_zeros(&z, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_read(z, got, sizeof got));
    for (int i = 0; i < 21; i++) GT_ASSERT(got[i] == 0, "zeros[%d] = 0x%04x", i, got[i]);
    GT_OK(gpux_array_ones(&o, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_read(o, got, sizeof got));
    const uint16_t one = dt == GPUX_FLOAT16 ? 0x3c00 : 0x3f80;
    for (int i = 0; i < 21; i++) GT_ASSERT(got[i] == one, "ones[%d] = 0x%04x", i, got[i]);
    GT_OK(gpux_array_full(&s, gt_ctx, dt, 0, NULL, -1.5));
    GT_OK(gpux_array_read(s, got, 2));
    GT_ASSERT(got[0] == ref_half_from_f64(dt, -1.5), "0-d full = 0x%04x", got[0]);
    gpux_array_release(z);
    gpux_array_release(o);
    gpux_array_release(s);
  }
}

static void test_arange_linspace(void **state) {
  (void)state;
  typedef struct { double start, stop, step; } ar;
  static const ar cases[] = {{0, 70000, 1}, {-3, 3, 0.001}, {65000, 66000, 0.5},
                             {0, 1e-4, 1e-8}, {1, 2, 1.0 / 1024}, {-1e39, 1e39, 1.7e36}};
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k_half[k];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      if (!gt_info.fp64 && c == 5) continue; /* float arithmetic overflows: not comparable */
      gpux_array_t a = NULL;
      GT_OK(gpux_array_arange(&a, gt_ctx, dt, cases[c].start, cases[c].stop, cases[c].step));
      int64_t n = ref_arange_length(cases[c].start, cases[c].stop, cases[c].step);
      int64_t got_n = 0;
      GT_OK(gpux_array_size(&got_n, a));
      assert_int_equal(got_n, n);
      uint16_t *got = gt_malloc((size_t)n * 2), *want = gt_malloc((size_t)n * 2);
      GT_OK(gpux_array_read(a, got, (size_t)n * 2));
      for (int64_t i = 0; i < n; i++) {
        volatile double t = (double)i * cases[c].step; /* no contraction into an fma */
        double v = cases[c].start + t;
        if (!gt_info.fp64) v = (double)((float)cases[c].start + (float)i * (float)cases[c].step);
        want[i] = ref_half_from_f64(dt, v);
      }
      char label[96];
      snprintf(label, sizeof label, "arange(%s, %g, %g, %g)", gt_dtype_str(dt), cases[c].start,
               cases[c].stop, cases[c].step);
      if (gt_info.fp64) expect_bits(label, dt, dt, want, got, want, n);
      gpux_array_release(a);
      free(got);
      free(want);
    }
    /* linspace: the last element is stop exactly */
    const int64_t n = 4099;
    gpux_array_t l = NULL;
    GT_OK(gpux_array_linspace(&l, gt_ctx, dt, -70000.0, 1.0e-3, n));
    uint16_t *got = gt_malloc((size_t)n * 2), *want = gt_malloc((size_t)n * 2);
    GT_OK(gpux_array_read(l, got, (size_t)n * 2));
    const double step = (1.0e-3 - -70000.0) / (double)(n - 1);
    for (int64_t i = 0; i < n; i++) {
      volatile double t = (double)i * step;
      want[i] = ref_half_from_f64(dt, i == n - 1 ? 1.0e-3 : -70000.0 + t);
    }
    if (gt_info.fp64) expect_bits("linspace", dt, dt, want, got, want, n);
    GT_ASSERT(got[n - 1] == ref_half_from_f64(dt, 1.0e-3), "linspace: last = 0x%04x", got[n - 1]);
    gpux_array_release(l);
    free(got);
    free(want);
  }
}

/* ------------------------------------------------------------------ casts */

typedef struct cast_case {
  gpux_dtype from, to;
} cast_case;

/* One cast at one size, layout c (contiguous); returns after comparing every bit. */
static void cast_contiguous(gpux_dtype from, gpux_dtype to, int64_t n, uint64_t seed) {
  const gpux_dtype hdt = ref_dtype_is_half(to) ? to : from;
  void *src = gen_source(from, hdt, n, seed);
  const size_t es = ref_dtype_size(to);
  void *want = gt_malloc((size_t)n * es), *got = gt_malloc((size_t)n * es);
  ref_cast_bits(from, to, n, src, want);
  gpux_array_t a = NULL, b = NULL, c = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, from, 1, &n, src));
  GT_OK(gpux_array_cast(&b, a, to));
  gt_check_shape(b, to, 1, &n, "cast");
  GT_OK(gpux_array_read(b, got, (size_t)n * es));
  char label[128];
  snprintf(label, sizeof label, "cast %s -> %s, n = %" PRId64 " (layout c)", gt_dtype_str(from),
           gt_dtype_str(to), n);
  expect_bits(label, from, to, src, got, want, n);
  /* cast_into an offset view of a larger contiguous array (an odd element offset) */
  if (n <= 4099) {
    int64_t big = n + 3, st = 3, sp = n + 3, step = 1;
    GT_OK(gpux_array_empty(&c, gt_ctx, to, 1, &big));
    gpux_array_t v = NULL;
    GT_OK(gpux_array_slice(&v, c, &st, &sp, &step));
    GT_OK(gpux_array_cast_into(v, a));
    memset(got, 0, (size_t)n * es);
    GT_OK(gpux_array_read(v, got, (size_t)n * es));
    snprintf(label, sizeof label, "cast_into %s -> %s, n = %" PRId64 " (offset 3)",
             gt_dtype_str(from), gt_dtype_str(to), n);
    expect_bits(label, from, to, src, got, want, n);
    gpux_array_release(v);
  }
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
  free(src);
  free(want);
  free(got);
}

/* Layout n: strided and reversed source and destination views, and a broadcast source. */
static void cast_strided(gpux_dtype from, gpux_dtype to, uint64_t seed) {
  const gpux_dtype hdt = ref_dtype_is_half(to) ? to : from;
  const size_t es = ref_dtype_size(to), fs = ref_dtype_size(from);
  const int64_t shape[3] = {3, 17, 41}, n = 3 * 17 * 41;
  void *src = gen_source(from, hdt, n, seed);
  void *want = gt_malloc((size_t)n * es), *got = gt_malloc((size_t)n * es);
  ref_cast_bits(from, to, n, src, want);
  char label[128];
  for (int li = 0; li < 3; li++) {
    const gt_layout ls = (gt_layout)(li == 0 ? GT_STRIDED : li == 1 ? GT_REVERSED : GT_CONTIG);
    const gt_layout ld = (gt_layout)(li == 0 ? GT_REVERSED : li == 1 ? GT_CONTIG : GT_STRIDED);
    gt_view vs, vd;
    gt_view_make(&vs, from, 3, shape, ls, src);
    gt_view_make(&vd, to, 3, shape, ld, NULL);
    GT_OK(gpux_array_cast_into(vd.view, vs.view));
    snprintf(label, sizeof label, "cast %s -> %s (layout n: %s into %s)", gt_dtype_str(from),
             gt_dtype_str(to), gt_layout_str(ls), gt_layout_str(ld));
    gt_view_read(&vd, got, label);
    expect_bits(label, from, to, src, got, want, n);
    /* the strided source cast to a new (contiguous) array */
    gpux_array_t b = NULL;
    GT_OK(gpux_array_cast(&b, vs.view, to));
    GT_OK(gpux_array_read(b, got, (size_t)n * es));
    expect_bits(label, from, to, src, got, want, n);
    gpux_array_release(b);
    gt_view_free(&vs);
    gt_view_free(&vd);
  }
  /* broadcast: a (1, 41) row into (17, 41) */
  {
    const int64_t rs[2] = {1, 41}, ds[2] = {17, 41};
    gpux_array_t row = NULL, d = NULL;
    GT_OK(gpux_array_from_host(&row, gt_ctx, from, 2, rs, (const char *)src + 5 * fs));
    GT_OK(gpux_array_empty(&d, gt_ctx, to, 2, ds));
    GT_OK(gpux_array_cast_into(d, row));
    GT_OK(gpux_array_read(d, got, (size_t)17 * 41 * es));
    char *w = gt_malloc((size_t)17 * 41 * es);
    for (int r = 0; r < 17; r++) memcpy(w + (size_t)r * 41 * es, (char *)want + 5 * es, 41 * es);
    snprintf(label, sizeof label, "cast %s -> %s (broadcast row)", gt_dtype_str(from),
             gt_dtype_str(to));
    for (int r = 0; r < 17; r++)
      expect_bits(label, from, to, (const char *)src + 5 * fs, got + (size_t)r * 41 * es,
                  w + (size_t)r * 41 * es, 41);
    free(w);
    gpux_array_release(row);
    gpux_array_release(d);
  }
  free(src);
  free(want);
  free(got);
}

static void test_cast(void **state) {
  const cast_case *c = *state;
  if (!gt_dtype_available(c->from) || !gt_dtype_available(c->to)) skip();
  const uint64_t seed = (uint64_t)c->from * 131 + (uint64_t)c->to * 7 + 1;
  for (int s = 0; s < 4; s++) cast_contiguous(c->from, c->to, k_sizes[s], seed + (uint64_t)s);
  cast_strided(c->from, c->to, seed + 99);
}

/* f32 -> half -> f32 and f64 -> half -> f64 agree with the reference round trip */
static void test_cast_chain(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    const gpux_dtype hdt = k_half[k];
    const int64_t n = 4099;
    void *src = gen_source(GPUX_FLOAT32, hdt, n, 4242);
    gpux_array_t a = NULL, h = NULL, b = NULL, o = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 1, &n, src));
    GT_OK(gpux_array_cast(&h, a, hdt));
    GT_OK(gpux_array_cast(&b, h, GPUX_FLOAT32));
    const gpux_dtype other = hdt == GPUX_FLOAT16 ? GPUX_BFLOAT16 : GPUX_FLOAT16;
    GT_OK(gpux_array_cast(&o, h, other));
    uint16_t *hw = gt_malloc(n * 2), *ow = gt_malloc(n * 2), *og = gt_malloc(n * 2);
    float *bw = gt_malloc(n * 4), *bg = gt_malloc(n * 4);
    ref_cast_bits(GPUX_FLOAT32, hdt, n, src, hw);
    ref_cast_bits(hdt, GPUX_FLOAT32, n, hw, bw);
    ref_cast_bits(hdt, other, n, hw, ow);
    GT_OK(gpux_array_read(b, bg, (size_t)n * 4));
    GT_OK(gpux_array_read(o, og, (size_t)n * 2));
    expect_bits("f32 -> half -> f32", hdt, GPUX_FLOAT32, hw, bg, bw, n);
    expect_bits("f32 -> half -> other half", hdt, other, hw, og, ow, n);
    gpux_array_release(a);
    gpux_array_release(h);
    gpux_array_release(b);
    gpux_array_release(o);
    free(src);
    free(hw);
    free(ow);
    free(og);
    free(bw);
    free(bg);
  }
}

/* ------------------------------------------------------------------ errors */

static void expect_unsupported(gpux_status s, const char *what, gpux_dtype dt) {
  GT_ASSERT(s == GPUX_ERROR_UNSUPPORTED_DTYPE, "%s on %s: %s (%s), expected UNSUPPORTED_DTYPE",
            what, gt_dtype_str(dt), gpux_status_name(s), gpux_last_error_message());
  const char *msg = gpux_last_error_message();
  GT_ASSERT(msg && strstr(msg, gpux_dtype_name(dt)), "%s on %s: the message '%s' should name the dtype",
            what, gt_dtype_str(dt), msg ? msg : "(null)");
}

static void test_unsupported_ops(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k_half[k];
    int64_t shape[2] = {4, 5};
    gpux_array_t a = NULL, b = NULL, o = NULL, cond = NULL, r = NULL, bo = NULL;
    GT_OK(gpux_array_ones(&a, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_ones(&b, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_empty(&o, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_empty(&bo, gt_ctx, GPUX_BOOL, 2, shape));
    GT_OK(gpux_array_zeros(&cond, gt_ctx, GPUX_BOOL, 2, shape));
    /* the bit ops (the elementwise ops the half dtypes take: test_elementwise) */
    int nbits = 0;
    for (int op = 0; op < GT_BINARY_OPS; op++) {
      const int bits = op >= GPUX_BITWISE_AND;
      assert_int_equal(gpux_binary_op_supports((gpux_binary_op)op, dt), !bits);
      if (!bits) continue;
      nbits++;
      expect_unsupported(gpux_binary(&r, (gpux_binary_op)op, a, b), gt_binary_str((gpux_binary_op)op), dt);
      assert_null(r);
      expect_unsupported(gpux_binary_into(o, (gpux_binary_op)op, a, b),
                          gt_binary_str((gpux_binary_op)op), dt);
      expect_unsupported(gpux_binary_scalar(&r, (gpux_binary_op)op, a, 2.0),
                          gt_binary_str((gpux_binary_op)op), dt);
      assert_null(r);
      expect_unsupported(gpux_scalar_binary(&r, (gpux_binary_op)op, 2.0, a),
                          gt_binary_str((gpux_binary_op)op), dt);
    }
    for (int op = 0; op < GT_UNARY_OPS; op++) {
      const int bits = op == GPUX_BITWISE_NOT || op == GPUX_POPCOUNT;
      assert_int_equal(gpux_unary_op_supports((gpux_unary_op)op, dt), !bits);
      if (!bits) continue;
      nbits++;
      expect_unsupported(gpux_unary(&r, (gpux_unary_op)op, a), gt_unary_str((gpux_unary_op)op), dt);
      assert_null(r);
      expect_unsupported(gpux_unary_into(o, (gpux_unary_op)op, a), gt_unary_str((gpux_unary_op)op), dt);
    }
    assert_int_equal(nbits, 5 + 2); /* and, or, xor, two shifts; not, popcount */
    /* reductions and scans take them (float32 inside; test_reduce, test_scan check the
     * values): results of the half dtype, and the integer scalar form refuses them */
    for (int op = 0; op < GPUX_REDUCE_OP_COUNT; op++) {
      gpux_dtype rd = GPUX_FLOAT64, want = dt;
      if (op == GPUX_REDUCE_ARGMIN || op == GPUX_REDUCE_ARGMAX || op == GPUX_REDUCE_COUNT_NONZERO)
        want = GPUX_INT64;
      if (op == GPUX_REDUCE_ANY || op == GPUX_REDUCE_ALL) want = GPUX_BOOL;
      GT_OK(gpux_reduce_result_dtype(&rd, (gpux_reduce_op)op, dt));
      GT_ASSERT(rd == want, "%s of %s gives %s", gpux_reduce_op_name((gpux_reduce_op)op),
                gt_dtype_str(dt), gt_dtype_str(rd));
      int64_t iv = 0;
      if (want == dt)
        expect_unsupported(gpux_reduce_scalar_i64(&iv, (gpux_reduce_op)op, a), "reduce_scalar_i64",
                            dt);
    }
    double v = 0;
    GT_OK(gpux_reduce_scalar(&v, GPUX_REDUCE_SUM, a));
    GT_ASSERT(v == 20.0, "sum of 20 ones of %s: %g", gt_dtype_str(dt), v);
    GT_OK(gpux_scan(&r, GPUX_SCAN_SUM, a, 1, 0));
    uint16_t cs[20];
    GT_OK(gpux_array_read(r, cs, sizeof cs));
    for (int i = 0; i < 20; i++) {
      float f = (float)ref_load(dt, cs, i).f;
      GT_ASSERT(f == (float)(i % 5 + 1), "cumsum of ones of %s [%d] = %g", gt_dtype_str(dt), i, f);
    }
    gpux_array_release(r);
    r = NULL;
    /* the context still works, and so do the arrays */
    gt_smoke(gt_ctx);
    uint16_t got[20];
    GT_OK(gpux_array_read(a, got, sizeof got));
    const uint16_t one = dt == GPUX_FLOAT16 ? 0x3c00 : 0x3f80;
    for (int i = 0; i < 20; i++) GT_ASSERT(got[i] == one, "ones[%d] = 0x%04x", i, got[i]);
    /* mixed dtypes are a mismatch, not a crash */
    gpux_array_t f = NULL;
    GT_OK(gpux_array_ones(&f, gt_ctx, GPUX_FLOAT32, 2, shape));
    gpux_status s = gpux_binary(&r, GPUX_ADD, f, a);
    GT_ASSERT(s == GPUX_ERROR_DTYPE_MISMATCH || s == GPUX_ERROR_UNSUPPORTED_DTYPE,
              "float32 + %s: %s", gt_dtype_str(dt), gpux_status_name(s));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_array_copy_into(f, a));
    gpux_array_release(f);
    gpux_array_release(a);
    gpux_array_release(b);
    gpux_array_release(o);
    gpux_array_release(bo);
    gpux_array_release(cond);
  }
}

int main(void) {
  gt_init("test_half");
  static cast_case cc[GT_STORAGE_DTYPES * GT_STORAGE_DTYPES];
  static char names[GT_STORAGE_DTYPES * GT_STORAGE_DTYPES][64];
  struct CMUnitTest tests[16 + GT_STORAGE_DTYPES * GT_STORAGE_DTYPES];
  size_t n = 0;
#define ADD(f) tests[n++] = (struct CMUnitTest){#f, f, NULL, NULL, NULL}
  ADD(test_dtype_info);
  ADD(test_round_trip);
  ADD(test_views);
  ADD(test_full);
  ADD(test_arange_linspace);
  ADD(test_cast_chain);
  ADD(test_unsupported_ops);
#undef ADD
  int k = 0;
  for (int a = 0; a < GT_STORAGE_DTYPES; a++)
    for (int b = 0; b < GT_STORAGE_DTYPES; b++) {
      if (!ref_dtype_is_half(k_all[a]) && !ref_dtype_is_half(k_all[b])) continue;
      cc[k] = (cast_case){k_all[a], k_all[b]};
      snprintf(names[k], sizeof names[k], "cast_%s_to_%s", gt_dtype_str(k_all[a]),
               gt_dtype_str(k_all[b]));
      tests[n++] = (struct CMUnitTest){names[k], test_cast, NULL, NULL, &cc[k]};
      k++;
    }
  int failed = gt_run("half", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
