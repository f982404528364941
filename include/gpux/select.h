/* gpux: selection by order -- searchsorted, top-k, partition / argpartition, median,
 * quantile / percentile (issue 25). NumPy's semantics unless stated; every real dtype and
 * bool (complex: GPUX_ERROR_UNSUPPORTED_DTYPE); inputs may be strided or negative-step
 * views (copied to a contiguous temporary, the axis moved last, when they are not).
 *
 * THE ORDER (kernels/common/gpux_sort.h, the same as gpux's sorts): integers and bool by
 * value; floats by value with -0.0 == +0.0 and every NaN equal to every other and greater
 * than +inf (NaN sorts last, and is the LARGEST for top-k, as torch.topk). Every result is a
 * function of the inputs only: the same bits on every backend and every launch shape.
 *
 * Algorithm: searchsorted is one binary search per query; the others are a RADIX SELECT
 * (8-bit digits of the order-preserving key images, one histogram pass per digit, 1 / 2 /
 * 4 / 8 passes for 1- / 2- / 4- / 8-byte keys), never a full sort; docs/selection.md.
 *
 * Errors: NULL handles or outputs (GPUX_ERROR_NULL_POINTER), arrays of two contexts
 * (GPUX_ERROR_CONTEXT_MISMATCH), a bad axis (GPUX_ERROR_INVALID_AXIS), k or kth outside the
 * axis (GPUX_ERROR_INDEX_OUT_OF_RANGE), mismatched dtypes (GPUX_ERROR_DTYPE_MISMATCH) or
 * shapes of _into outputs (GPUX_ERROR_SHAPE_MISMATCH), q outside [0, 1] or NaN
 * (GPUX_ERROR_INVALID_ARGUMENT), an empty reduction (GPUX_ERROR_INVALID_SHAPE), a row of
 * 2^32 or more elements for the radix select (GPUX_ERROR_UNSUPPORTED: its counts are
 * 32-bit). After an error nothing was written and the context stays usable. Outputs of the
 * _into forms may be strided views but must not overlap the inputs (GPUX_ERROR_OVERLAP). */
#ifndef GPUX_SELECT_H_PUBLIC
#define GPUX_SELECT_H_PUBLIC
#include "array.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gpux_side {
  GPUX_SIDE_LEFT = 0, /* the first place where the query fits (numpy side='left') */
  GPUX_SIDE_RIGHT = 1 /* the last such place (side='right') */
} gpux_side;

/* numpy.searchsorted(sorted, queries, side): for each query, the int64 index i in
 * [0, len(sorted)] where inserting it keeps `sorted` in THE ORDER: LEFT: every element
 * before i is less than the query; RIGHT: less or equal. `sorted` is 1-d, ascending in THE
 * ORDER (NaNs last); queries of any shape and the same dtype. A NaN query goes after every
 * non-NaN (LEFT: before sorted's NaNs, RIGHT: after them); -0.0 equals +0.0. An unsorted
 * `sorted` is the caller's business: the result is then unspecified, but always in
 * [0, len(sorted)]. Result: int64, the queries' shape. */
GPUX_API gpux_status gpux_searchsorted(gpux_array_t *out, gpux_array_t sorted,
                                       gpux_array_t queries, gpux_side side);
GPUX_API gpux_status gpux_searchsorted_into(gpux_array_t out, gpux_array_t sorted,
                                            gpux_array_t queries, gpux_side side);

#define GPUX_TOPK_SMALLEST 1u /* the k smallest instead of the k largest */
#define GPUX_TOPK_SORTED 2u   /* results in order (largest first; smallest first) */
/* GPUX_TOPK_SORTED with k up to this ranks the k results in place (k^2 comparisons);
 * larger k sorts them with the sort core (sort.h). Both give the same bits. */
#define GPUX_TOPK_MAX_SORTED 4096
/* torch.topk(x, k, axis, largest, sorted): the k largest elements along `axis` (negative
 * counts from the end), or with GPUX_TOPK_SMALLEST the k smallest, for each position of
 * the other axes. *values: x's dtype, *indices: int64 positions along the axis; both of
 * x's shape with the axis's length k. 0 <= k <= x.shape[axis]; k == 0 gives empty arrays.
 * Without GPUX_TOPK_SORTED the k results are in the order of their positions in x; with
 * it, in THE ORDER (descending for the largest, ascending for the smallest), equal keys by
 * position. Ties at the k-th value: the equal elements at the lower positions are taken.
 * NaN is the largest value. -0.0 and +0.0 are equal (both kept as they are in x).
 * Any k in [0, x.shape[axis]], sorted or not. 0-d x: GPUX_ERROR_INVALID_AXIS. */
GPUX_API gpux_status gpux_topk(gpux_array_t *values, gpux_array_t *indices, gpux_array_t x,
                               int64_t k, int axis, unsigned flags);
/* the same into values (x's dtype) and indices (int64), both of the result's shape */
GPUX_API gpux_status gpux_topk_into(gpux_array_t values, gpux_array_t indices, gpux_array_t x,
                                    int64_t k, int axis, unsigned flags);

/* numpy.partition(x, kth, axis) for one kth (negative counts from the end): x's dtype and
 * shape, each row along `axis` rearranged so that position kth holds the element that a
 * stable sort in THE ORDER would put there, every element before it is <= it and every
 * element after it >= it. The exact order (deterministic, the same on every backend): the
 * elements less than it in the order of their positions, then the elements equal to it
 * (the kth among them) in position order, then the greater ones in position order. */
GPUX_API gpux_status gpux_partition(gpux_array_t *out, gpux_array_t x, int64_t kth, int axis);
GPUX_API gpux_status gpux_partition_into(gpux_array_t out, gpux_array_t x, int64_t kth,
                                         int axis);
/* numpy.argpartition: the int64 positions of gpux_partition's elements (same order) */
GPUX_API gpux_status gpux_argpartition(gpux_array_t *out, gpux_array_t x, int64_t kth,
                                       int axis);
GPUX_API gpux_status gpux_argpartition_into(gpux_array_t out, gpux_array_t x, int64_t kth,
                                            int axis);

/* numpy.partition(x, kth=[...], axis) / numpy.argpartition with a list of nkth >= 1
 * positions kth[0..nkth) (host memory; negative counts from the end; any order, repeats
 * allowed): each kth position holds the element a stable sort in THE ORDER puts there, and
 * the elements between two consecutive kth lie between them. The order inside each band
 * (deterministic, the same bits on every backend): when every kth names the same position
 * (after wrapping), exactly gpux_partition's / gpux_argpartition's result around it; with
 * two or more distinct kth, the row comes back FULLY SORTED, stable (THE ORDER with -0.0 ==
 * +0.0, equal elements in position order; the elements' own bits, as gpux_sort_by_key
 * gives them). Result: x's shape, x's dtype (partition) or int64 (argpartition). Errors:
 * kth NULL (GPUX_ERROR_NULL_POINTER), nkth == 0 (GPUX_ERROR_INVALID_ARGUMENT), a kth[i]
 * outside the axis (GPUX_ERROR_INDEX_OUT_OF_RANGE naming i), as gpux_partition otherwise. */
GPUX_API gpux_status gpux_partition_multi(gpux_array_t *out, gpux_array_t x,
                                          const int64_t *kth, size_t nkth, int axis);
GPUX_API gpux_status gpux_partition_multi_into(gpux_array_t out, gpux_array_t x,
                                               const int64_t *kth, size_t nkth, int axis);
GPUX_API gpux_status gpux_argpartition_multi(gpux_array_t *out, gpux_array_t x,
                                             const int64_t *kth, size_t nkth, int axis);
GPUX_API gpux_status gpux_argpartition_multi_into(gpux_array_t out, gpux_array_t x,
                                                  const int64_t *kth, size_t nkth, int axis);

/* numpy.median(x, axis): axis (negative counts from the end) or GPUX_ALL_AXES (the
 * flattened array; a 0-d result). The middle element, or the mean (a + b) * 0.5 of the two
 * middle ones for an even count, computed in the result dtype: float64 for float64,
 * integer and bool inputs, float32 for float32 -- and float32 for float16 and bfloat16
 * (NumPy gives float16: gpux computes and returns float32, exact for every half value).
 * A row holding a NaN gives NaN; an empty row is GPUX_ERROR_INVALID_SHAPE. Shape: x's
 * without the axis. */
GPUX_API gpux_status gpux_median(gpux_array_t *out, gpux_array_t x, int axis);
GPUX_API gpux_status gpux_median_into(gpux_array_t out, gpux_array_t x, int axis);
/* numpy.quantile(x, q, axis) with NumPy's default 'linear' method for the nq >= 1
 * probabilities q[0..nq) (host memory, each in [0, 1]): virtual index v = n q + (1 - q) - 1
 * (float64, as NumPy writes it), the order statistics a (rank floor(v)) and b (the next,
 * both clipped to [0, n - 1]), gamma = v - floor(v), and NumPy's _lerp in the result dtype:
 * gamma >= 0.5 ? b - (b - a)(1 - gamma) : a + (b - a) gamma (no fused multiply-add; gamma
 * rounded to float32 for float32 results; integers converted to float64 first, so int64 /
 * uint64 beyond 2^53 may differ from NumPy in the last bits). Result dtype and NaN / empty
 * rows as median; shape (nq,) followed by x's shape without the axis (NumPy's for an array
 * q). */
GPUX_API gpux_status gpux_quantile(gpux_array_t *out, gpux_array_t x, const double *q, int nq,
                                   int axis);
GPUX_API gpux_status gpux_quantile_into(gpux_array_t out, gpux_array_t x, const double *q,
                                        int nq, int axis);
/* numpy.percentile: gpux_quantile with q / 100 (each in [0, 100]) */
GPUX_API gpux_status gpux_percentile(gpux_array_t *out, gpux_array_t x, const double *p, int np,
                                     int axis);
GPUX_API gpux_status gpux_percentile_into(gpux_array_t out, gpux_array_t x, const double *p,
                                          int np, int axis);

#ifdef __cplusplus
}
#endif
#endif
