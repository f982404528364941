/* gpux tests: an independent plain-C reference of the random numbers of include/gpux/random.h,
 * written from the documented algorithm (it does not include kernels/common/gpux_random.h):
 *   - Philox4x32-10 (Salmon et al., SC11; Random123's philox4x32 with 10 rounds),
 *   - the stream: word g of (seed, stream) = word g % 4 of
 *     Philox(counter {B lo, B hi, stream lo, stream hi}, key {seed lo, seed hi}), B = g / 4,
 *   - a draw that starts at word P: value i uses words P + w i .. P + w i + w - 1 (w words per
 *     value: float32 uniform, float32 normal and bool 1, float64 uniform and int32 2, int64
 *     4); float64 normals in pairs (pair m uses 4 words from P + 4m; value 2m cosine, 2m + 1
 *     sine branch),
 *   - the mappings: uniform (top 24 / 53 bits, fma(u, high - low, low) kept below high),
 *     integers (Lemire's multiply-shift with rejection, unsigned __int128, and the retry
 *     chain of kernels/common/gpux_random.h's header comment), bernoulli (word < round(p 2^32)).
 * Normals: the exact value computed in long double with libm from the same words (float32:
 * the ziggurat, its layers rebuilt here; float64: Box-Muller); gpux uses its own
 * polynomials, so the tests compare within a tolerance (rr_normal_tol), not bit for bit. */
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

/* Words per value (float64 normals: per value of a pair); 0 for a dtype the kind does not take.
 * kind: 0 uniform, 1 normal, 2 integers, 3 bernoulli (gpux_random_kind values). */
int rr_wpv(int kind, gpux_dtype dt);
/* Words a draw of n values uses (float64 normals: whole pairs); 0 for n <= 0. */
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
/* uint64 in [low, high], both included (range high - low + 1, 2^64 for the whole range). */
void rr_integers_u64(uint64_t *dst, int64_t first, int64_t n, rr_state s, uint64_t low,
                     uint64_t high);
/* 1 when value i of an integer draw was rejected at first (it came from the retry chain). */
int rr_integers_rejected(gpux_dtype dt, int64_t i, rr_state s, int64_t low, int64_t high);
void rr_bernoulli(uint8_t *dst, int64_t first, int64_t n, rr_state s, double p);
/* The exact float64 Box-Muller pair of the documented mapping (kernels/common/gpux_random.h)
 * for the 64-bit words (xa, xb): the radius and the point (x0, x1) on the unit circle; the
 * pair of normals is (r x0, r x1). */
void rr_bm_f64(uint64_t xa, uint64_t xb, long double *r, long double *x0, long double *x1);
/* The float32 ziggurat: layer i's right edge x_i (long double, rebuilt from r and v; x_4096
 * = 0), its threshold k_i (gpux_ziggurat.h), and the exact value of the word a (the stream's
 * word g) with *ambiguous set when a wedge or tail test was too close to call in float32. */
long double rr_zig_x(int i);
uint32_t rr_zig_k(int i);
long double rr_zig_value(uint32_t a, uint64_t g, uint64_t seed, uint64_t stream, int *ambiguous);
/* rr_normal_exact, also flagging float32 values whose accept/reject test was ambiguous */
void rr_normal_exact2(long double *z, long double *radius, unsigned char *ambiguous,
                      gpux_dtype dt, int64_t first, int64_t n, rr_state s);
/* Exact standard normals (long double) for values first .. first + n - 1 of a float32 or
 * float64 draw (the dtype fixes the words and the method); also the radius of each value's
 * pair (float32: |z|; the bound rr_normal_tol needs). */
void rr_normal_exact(long double *z, long double *radius, gpux_dtype dt, int64_t first,
                     int64_t n, rr_state s);
/* The tolerance of gpux's standard normal against the exact value z with pair radius r
 * (float32: r = |z|):
 *   float32: 2^-24 (4 |z| + 2 r) + 2^-60     (the ziggurat: m w_i with w_i rounded, one
 *                                             rounding of the product: 1 ulp; the tail
 *                                             r + t with t from ln within 1 ulp)
 *   float64: 2^-53 (6 |z| + 2 r) + 2^-200    (radius < 1.7 ulp, one rounding, cos/sin error
 *                                             < 1.4 2^-53 absolute)
 * i.e. |z_gpux - z| <= 2^-p (k |z| + 2 r): the radius's relative error plus the final
 * rounding times |z|, plus r times the cos/sin absolute error, each with some margin. */
double rr_normal_tol(gpux_dtype dt, long double z, long double r);

/* The Fisher-Yates reference of gpux_random_permutation is built by the test from
 * rr_integers (its draw rule lives in src/api/random.c). */
#endif
