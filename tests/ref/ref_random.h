/* gpux tests: an independent plain-C reference of the random numbers of include/gpux/random.h,
 * written from the documented algorithm (it does not include kernels/common/gpux_random.h):
 *   - Philox4x32-10 (Salmon et al., SC11; Random123's philox4x32 with 10 rounds),
 *   - the stream: word g of (seed, stream) = word g % 4 of
 *     Philox(counter {B lo, B hi, stream lo, stream hi}, key {seed lo, seed hi}), B = g / 4,
 *   - a draw that starts at word P: value i uses words P + w i .. P + w i + w - 1 (w words per
 *     value: float32 uniform and bool 1, float64 uniform and int32 2, int64 4); normals in
 *     pairs (pair m uses 2 w words from P + 2 w m; value 2m cosine, 2m + 1 sine branch),
 *   - the mappings: uniform (top 24 / 53 bits, fma(u, high - low, low) kept below high),
 *     integers (Lemire's multiply-shift with rejection, unsigned __int128, and the retry
 *     chain of kernels/common/gpux_random.h's header comment), bernoulli (word < round(p 2^32)).
 * Normals: the exact Box-Muller value computed in long double with libm (logl, sqrtl, cosl,
 * sinl) from the same words; gpux uses its own polynomials, so the tests compare within a
 * tolerance (rr_normal_tol), not bit for bit. */
#ifndef GPUX_TEST_REF_RANDOM_H
#define GPUX_TEST_REF_RANDOM_H
#include <stdint.h>
#include "gpux/array.h"

typedef struct rr_state {
  uint64_t seed, stream, pos; /* pos: the draw's first word P */
} rr_state;

/* The engine. */
void rr_philox(uint32_t out[4], const uint32_t ctr[4], const uint32_t key[2]);
/* Word g of the stream (seed, stream). */
uint32_t rr_word(uint64_t seed, uint64_t stream, uint64_t g);

/* Words per value (normals: per value of a pair); 0 for a dtype the kind does not take.
 * kind: 0 uniform, 1 normal, 2 integers, 3 bernoulli (gpux_random_kind values). */
int rr_wpv(int kind, gpux_dtype dt);
/* Words a draw of n values uses (normals: whole pairs); 0 for n <= 0. */
uint64_t rr_words(int kind, gpux_dtype dt, int64_t n);

/* Values first .. first + n - 1 of a draw starting at s, written to dst (dt's host type;
 * bool as bytes 0 / 1). Uniform: float32 / float64 with the constants low and high rounded
 * to the dtype from double, d = high - low computed in the dtype from them, and the value
 * below high nextafter(high, -inf): v = fma(u, d, low), v < high ? v : below. */
void rr_uniform(void *dst, gpux_dtype dt, int64_t first, int64_t n, rr_state s, double low,
                double high);
/* Integers in [low, high), int32 / int64. */
void rr_integers(void *dst, gpux_dtype dt, int64_t first, int64_t n, rr_state s, int64_t low,
                 int64_t high);
/* 1 when value i of an integer draw was rejected at first (it came from the retry chain). */
int rr_integers_rejected(gpux_dtype dt, int64_t i, rr_state s, int64_t low, int64_t high);
void rr_bernoulli(uint8_t *dst, int64_t first, int64_t n, rr_state s, double p);
/* The exact Box-Muller pair of the documented mapping (kernels/common/gpux_random.h) for the
 * words (a, b) (float32) or the 64-bit words (xa, xb) (float64): the radius and the point
 * (x0, x1) on the unit circle; the pair of normals is (r x0, r x1). */
void rr_bm_f32(uint32_t a, uint32_t b, long double *r, long double *x0, long double *x1);
void rr_bm_f64(uint64_t xa, uint64_t xb, long double *r, long double *x0, long double *x1);
/* Exact standard normals (long double) for values first .. first + n - 1 of a float32 or
 * float64 draw (the dtype fixes the words per pair and the bits used); also the radius of
 * each value's pair (the bound rr_normal_tol needs). */
void rr_normal_exact(long double *z, long double *radius, gpux_dtype dt, int64_t first,
                     int64_t n, rr_state s);
/* The tolerance of gpux's standard normal against the exact value z with pair radius r:
 *   float32: 2^-24 (4 |z| + 2 r) + 2^-60     (radius < 1 ulp = 2^-23 relative, one rounding of
 *                                             r * cos, |cos/sin error| < 1.5 2^-24 absolute)
 *   float64: 2^-53 (6 |z| + 2 r) + 2^-200    (radius < 1.7 ulp, one rounding, cos/sin error
 *                                             < 1.4 2^-53 absolute)
 * i.e. |z_gpux - z| <= 2^-p (k |z| + 2 r): the radius's relative error plus the final
 * rounding times |z|, plus r times the cos/sin absolute error, each with some margin. */
double rr_normal_tol(gpux_dtype dt, long double z, long double r);

/* The Fisher-Yates reference of gpux_random_permutation is built by the test from
 * rr_integers (its draw rule lives in src/api/random.c). */
#endif
