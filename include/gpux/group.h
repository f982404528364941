/* gpux: grouping -- unique values (numpy.unique with return_index / return_inverse /
 * return_counts) and group-by reductions (reduce_by_key: cuDF's groupby aggregate, CUB's
 * ReduceByKey). Both are compositions of gpux's own ops (a stable argsort, a gather, an
 * elementwise "differs from the previous key", a cumsum, nonzero, put, scatter, bincount;
 * docs/grouping.md): the same bits on every backend.
 *
 * Equality is THE ORDER's (kernels/common/gpux_sort.h, as gpux's sorts): integers and bool
 * by value; floats by value with -0.0 == +0.0 (one group: the value kept is the bits of its
 * FIRST occurrence in x, as NumPy's stable path keeps) and every NaN equal to every other
 * (one group, last, NumPy >= 1.21's equal_nan=True; the value kept is the first NaN's own
 * bits). Complex values (gpux_unique): two are equal when both parts are, each part by the
 * rules above (sorted lexicographically, real part first, as gpux_sort), so a complex with
 * one NaN part groups only with those of an equal other part and a NaN in the same place
 * (1+nanj with 1+nanj, not with 2+nanj nor nan+1j; NumPy's equal_nan merges every complex
 * holding a NaN into one). Complex keys of reduce_by_key: GPUX_ERROR_UNSUPPORTED_DTYPE.
 *
 * WHAT WAITS. The number of unique values depends on the data: both calls read it back (8
 * bytes, after the argsort and the comparison pass) before they allocate the results; the
 * rest is queued.
 *
 * Errors (nothing is returned, the context stays usable): NULL handles or outputs
 * (GPUX_ERROR_NULL_POINTER), arrays of two contexts (GPUX_ERROR_CONTEXT_MISMATCH), complex
 * keys of reduce_by_key or an op a value dtype does not take (GPUX_ERROR_UNSUPPORTED_DTYPE), keys or values
 * that are not 1-d (GPUX_ERROR_INVALID_SHAPE), values of another length than keys
 * (GPUX_ERROR_SHAPE_MISMATCH, naming both), an unknown op (GPUX_ERROR_INVALID_OP), ncols < 0
 * (GPUX_ERROR_INVALID_ARGUMENT); every message names the argument. */
#ifndef GPUX_GROUP_H
#define GPUX_GROUP_H
#include "array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* numpy.unique(x, return_index, return_inverse, return_counts) of x flattened (row-major;
 * any shape and view, 0-d included), every dtype (complex: see the equality above):
 *   *values   (required) 1-d of x's dtype: the distinct values in ascending order (NaN last)
 *   *index    (NULL: not wanted) int64 (nu,): the position in flattened x of each value's
 *             first occurrence
 *   *inverse  (NULL: not wanted) int64 of x's shape: values[inverse] == x (NumPy 2's shape)
 *   *counts   (NULL: not wanted) int64 (nu,): how many elements of x equal each value
 * An empty x gives nu == 0 (inverse: x's empty shape). On error every requested output is
 * NULL. */
GPUX_API gpux_status gpux_unique(gpux_array_t *values, gpux_array_t *index,
                                 gpux_array_t *inverse, gpux_array_t *counts, gpux_array_t x);

/* Values are stable ABI. */
typedef enum gpux_group_op {
  GPUX_GROUP_SUM = 0,
  GPUX_GROUP_MEAN = 1,
  GPUX_GROUP_MIN = 2,
  GPUX_GROUP_MAX = 3,
  GPUX_GROUP_COUNT = 4 /* the group's size (rows, NaN values included: pandas' size()) */
} gpux_group_op;
#define GPUX_GROUP_OP_COUNT 5

/* Group-by aggregation: keys 1-d (length n, any real dtype or bool; sorted or not), the
 * ncols (>= 0) value columns values[0..ncols), each 1-d of length n and any real dtype or
 * bool, and one op per column, ops[i] on values[i] (to aggregate a column twice, pass it
 * twice). Results:
 *   *keys_out (NULL: not wanted) 1-d, keys' dtype: the unique keys, ascending (gpux_unique)
 *   results[i] 1-d, one row per unique key, in that order:
 *     SUM   gpux_reduce's sum dtype (gpux_reduce_result_dtype): floats keep theirs, integers
 *           and bool give int64 (uint64: uint64, wrapping). Float sums are EXACT sums
 *           rounded once to the dtype (scatter-add, index.h): order-independent, the same
 *           bits everywhere; a group of only -0.0 sums to -0.0.
 *     MEAN  float64 for integers and float64 (integer values converted to float64 first),
 *           float32 for float32, float16 / bfloat16 for them: the exact sum rounded once
 *           to the dtype the division runs in (float32 for the halves), divided once by
 *           the count (one IEEE division), halves rounded back. bool: unsupported.
 *     MIN / MAX  the values' dtype; NaN in a group gives the canonical NaN; -0.0 < +0.0
 *           (scatter-max / -min's rules, index.h).
 *     COUNT int64
 * n == 0 gives empty results. On error nothing is returned (*keys_out and results[i] NULL). */
GPUX_API gpux_status gpux_reduce_by_key(gpux_array_t *keys_out, gpux_array_t *results,
                                        gpux_array_t keys, const gpux_array_t *values,
                                        const gpux_group_op *ops, int ncols);
/* "sum", "mean", "min", "max", "count"; NULL if unknown */
GPUX_API const char *gpux_group_op_name(gpux_group_op op);
/* The dtype results[i] gets for op on values of dtype dt (GPUX_ERROR_UNSUPPORTED_DTYPE,
 * GPUX_ERROR_INVALID_OP when none). */
GPUX_API gpux_status gpux_group_result_dtype(gpux_dtype *out, gpux_group_op op, gpux_dtype dt);

#ifdef __cplusplus
}
#endif
#endif
