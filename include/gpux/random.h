/* gpux: random numbers. Counter-based (Philox4x32-10), so every value is a pure function
 * of (seed, stream, position, index) and is the same bits on the CUDA backend, the OpenCL
 * backend on any device (GPU or pocl) and the host (gpux_random_*_host), for any launch
 * shape. docs/random.md explains the method; kernels/common/gpux_random.h is the code.
 *
 * The engine: gpux_philox4x32_10 maps a 128-bit counter and a 64-bit key to four 32-bit
 * words (Random123's philox4x32 with 10 rounds; its published known-answer vectors hold).
 *
 * A generator is a host object holding (seed, stream, position). Its stream of 32-bit
 * words is: word g = word (g mod 4) of Philox(counter = {B lo, B hi, stream lo, stream hi},
 * key = {seed lo, seed hi}), B = g / 4. A draw of n values starts at word `position`,
 * value i using words position + w*i .. position + w*i + w - 1, where w (words per value)
 * is 1 for float32 uniform, float32 normal and bool, 2 for float64 uniform and int32, 4 for
 * int64; float64 normals come in pairs (4 words per pair; value 2m is the cosine branch of
 * pair m, 2m + 1 the sine branch). After the draw, position has advanced by the words it
 * used (gpux_random_words; whole pairs for float64 normals). So a draw of 2n values equals
 * two draws of n (n even for float64 normals), and splitting an array across calls or
 * devices never changes it. The generator is not bound to a context: one generator can
 * feed arrays of several contexts and backends. A generator is used by one thread at a time.
 *
 * Streams: any stream below 2^63 may be set; gpux_generator_split derives children whose
 * streams are drawn from the parent (2 words each, masked to 63 bits): independent
 * sequences with the parent's seed, reproducible from the parent's state.
 *
 * Distributions (values written in row-major order of the output array, which may be a
 * strided view; element i gets value i):
 *   uniform [low, high), float32 / float64: u = (top 24 bits of a word) * 2^-24 (float32)
 *     or (top 53 bits of two words) * 2^-53 (float64), so 0 is included and 1 excluded;
 *     then fma(u, d, low) in the dtype with low, high rounded to the dtype and d = high - low
 *     computed (rounded) in the dtype; a result rounded up to high becomes the largest value
 *     below high. low < high, finite in the dtype, and d finite.
 *   normal(mean, std): float32: the 4096-layer ziggurat, one word per value (12 bits of
 *     layer, a sign and a 19-bit magnitude; the rare values outside a layer's rectangle,
 *     about 0.12%, take the wedge or tail test with words of the value's own retry chain),
 *     |z| < 8.18; float64: Box-Muller
 *     pairs, |z| <= 8.57. Both use gpux's own ln / exp / sin / cos (polynomials evaluated
 *     with IEEE operations only, so no vendor math library is involved). Then
 *     fma(z, std, mean) in the dtype; std >= 0, both finite in it. docs/random.md has the
 *     exact mappings.
 *   normal(mean, std) to complex64 / complex128 ("complex normal", PyTorch's randn for
 *     complex: each part has variance std^2 / 2, so E|z - mean|^2 = std^2): value i is
 *     (re, im) = values 2i, 2i + 1 of the component dtype's (float32 / float64) normal draw
 *     from the same position with mean 0 and std' = std * 0.70710678118654752440 (the
 *     double nearest sqrt(1/2); the product rounded to double, then to the component dtype
 *     as any normal's std is), and mean, rounded to the component dtype, is then added to
 *     re (one correctly rounded add) when it is nonzero. The draw uses the words of the 2n
 *     component values (gpux_random_words). The other distributions reject complex.
 *   integers in [low, high), int32 / int64: Lemire's multiply-shift with rejection, no
 *     modulo bias (a 64-bit candidate per int32 value, 128-bit per int64). low < high, the
 *     range within the dtype (int32: low >= INT32_MIN, high <= 2^31). uint64's upper half
 *     is out of reach of int64 bounds: gpux_random_integers_u64 takes uint64 bounds, both
 *     included, [0, UINT64_MAX] the whole range.
 *   bernoulli(p) to bool: word < round(p * 2^32) (halves up), so p is quantized to
 *     multiples of 2^-32; 0 <= p <= 1.
 *   permutation: a random permutation of 0..n-1 (int64), Fisher-Yates computed on the host
 *     with 4-word (int64) draws, then uploaded.
 * All fills queue their work and return at once (except permutation, which uploads).
 * Errors (NULL, a wrong dtype, bad parameters, a position that would pass 2^64 words) leave
 * the generator unchanged. */
#ifndef GPUX_RANDOM_API_H
#define GPUX_RANDOM_API_H
#include <stdint.h>
#include "array.h"

typedef struct gpux_generator *gpux_generator_t;

/* A generator's whole state; save it with get_state, restore it with set_state. */
typedef struct gpux_rng_state {
  uint64_t seed;
  uint64_t stream;   /* < 2^63 */
  uint64_t position; /* in 32-bit words */
} gpux_rng_state;

/* Values are stable ABI (GPUX_RANDOM_KINDS in kernels/common/gpux_random.h). */
typedef enum gpux_random_kind {
  GPUX_RANDOM_UNIFORM = 0,
  GPUX_RANDOM_NORMAL = 1,
  GPUX_RANDOM_INTEGERS = 2,
  GPUX_RANDOM_BERNOULLI = 3
} gpux_random_kind;

#ifdef __cplusplus
extern "C" {
#endif

/* The engine on the host: out = Philox4x32-10(counter, key). */
GPUX_API gpux_status gpux_philox4x32_10(uint32_t out[4], const uint32_t counter[4],
                                        const uint32_t key[2]);

/* Generators: seed, stream 0, position 0. release accepts NULL. */
GPUX_API gpux_status gpux_generator_create(gpux_generator_t *out, uint64_t seed);
GPUX_API void gpux_generator_release(gpux_generator_t g);
GPUX_API gpux_status gpux_generator_get_state(gpux_rng_state *out, gpux_generator_t g);
/* stream >= 2^63 is GPUX_ERROR_INVALID_ARGUMENT */
GPUX_API gpux_status gpux_generator_set_state(gpux_generator_t g, const gpux_rng_state *state);
/* n (>= 1) new generators with g's seed, position 0, and streams drawn from g (which
 * advances 2n words). On failure none is created and g is unchanged. */
GPUX_API gpux_status gpux_generator_split(gpux_generator_t *children, int n, gpux_generator_t g);

/* Words a draw of n values of kind and dt uses (the generator's advance). */
GPUX_API gpux_status gpux_random_words(uint64_t *words, gpux_random_kind kind, gpux_dtype dt,
                                       int64_t n);

/* Fill an existing array (float32/float64; int32/int64; bool; normal also
 * complex64/complex128). */
GPUX_API gpux_status gpux_random_uniform(gpux_array_t out, gpux_generator_t g, double low,
                                         double high);
GPUX_API gpux_status gpux_random_normal(gpux_array_t out, gpux_generator_t g, double mean,
                                        double std);
GPUX_API gpux_status gpux_random_integers(gpux_array_t out, gpux_generator_t g, int64_t low,
                                          int64_t high);
GPUX_API gpux_status gpux_random_bernoulli(gpux_array_t out, gpux_generator_t g, double p);
/* uint64 integers in [low, high], both ends included (NumPy's endpoint=True), so that the
 * whole range [0, UINT64_MAX] can be asked for; the same values as gpux_random_integers(out,
 * g, low, high + 1) wherever that call is possible. out must be uint64 (else
 * GPUX_ERROR_DTYPE_MISMATCH); low > high is GPUX_ERROR_INVALID_ARGUMENT. */
GPUX_API gpux_status gpux_random_integers_u64(gpux_array_t out, gpux_generator_t g, uint64_t low,
                                              uint64_t high);

/* Create and fill: uniform [0, 1), standard normal, integers in [low, high). */
GPUX_API gpux_status gpux_rand(gpux_array_t *out, gpux_context_t ctx, gpux_generator_t g,
                               gpux_dtype dt, int ndim, const int64_t *shape);
GPUX_API gpux_status gpux_randn(gpux_array_t *out, gpux_context_t ctx, gpux_generator_t g,
                                gpux_dtype dt, int ndim, const int64_t *shape);
GPUX_API gpux_status gpux_randint(gpux_array_t *out, gpux_context_t ctx, gpux_generator_t g,
                                  gpux_dtype dt, int ndim, const int64_t *shape, int64_t low,
                                  int64_t high);
/* A 1-d int64 array holding a random permutation of 0 .. n-1 (n >= 0). */
GPUX_API gpux_status gpux_random_permutation(gpux_array_t *out, gpux_context_t ctx,
                                             gpux_generator_t g, int64_t n);

/* The same values on the host: values first .. first + n - 1 of a draw that starts at
 * *state (for example the state get_state returned just before a device draw), written to
 * dst (n elements of dt; bool as bytes 0 / 1). The state is not changed. */
GPUX_API gpux_status gpux_random_uniform_host(void *dst, gpux_dtype dt, int64_t first,
                                              int64_t n, const gpux_rng_state *state,
                                              double low, double high);
GPUX_API gpux_status gpux_random_normal_host(void *dst, gpux_dtype dt, int64_t first, int64_t n,
                                             const gpux_rng_state *state, double mean,
                                             double std);
GPUX_API gpux_status gpux_random_integers_host(void *dst, gpux_dtype dt, int64_t first,
                                               int64_t n, const gpux_rng_state *state,
                                               int64_t low, int64_t high);
GPUX_API gpux_status gpux_random_bernoulli_host(uint8_t *dst, int64_t first, int64_t n,
                                                const gpux_rng_state *state, double p);
GPUX_API gpux_status gpux_random_integers_u64_host(uint64_t *dst, int64_t first, int64_t n,
                                                   const gpux_rng_state *state, uint64_t low,
                                                   uint64_t high);

#ifdef __cplusplus
}
#endif
#endif
