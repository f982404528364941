/* gpux: indexing -- gather (take, take_along_axis), assignment by index (put,
 * put_along_axis) and scatter with a combining op (scatter-add, -max, -min). NumPy's
 * semantics unless stated; every dtype gpux has; index arrays int32 or int64 of any shape.
 * Boolean masks (compress, nonzero, masked assignment) are in mask.h, counting (bincount,
 * histogram, digitize) in count.h.
 *
 * Index modes (gpux_index_mode), NumPy's modes of take / put:
 *   GPUX_INDEX_CHECKED  negative indices count from the end (-1 is the last element); one
 *                       outside [-n, n) is an error, never a read or a write out of bounds.
 *                       Gather and put (take, take_along_axis, put, put_along_axis): the
 *                       device cannot stop a kernel to report it, so the op runs with every
 *                       bad index read or written nowhere (the elements it would have
 *                       produced are unspecified: a gather writes 0 bits there), and the
 *                       next call that waits on that stream (gpux_stream_synchronize,
 *                       gpux_context_synchronize, gpux_pool_trim, a blocking download, a
 *                       reduction to a host scalar, a DLPack import by copy) returns
 *                       GPUX_ERROR_INDEX_OUT_OF_RANGE with "<op>: index out of range at
 *                       position P of idx (value V, axis length N)": the first op queued on
 *                       the stream since its last such wait that met a bad index, and its
 *                       first bad position in row-major order of idx (put_along_axis: of
 *                       idx's own shape). That wait costs one 16-byte read, and only after
 *                       a checked op; gpux_event_synchronize does not report it. Releasing
 *                       the stream or context first drops the error. Scatter (below)
 *                       reports a bad index from the call itself instead, with a unchanged.
 *   GPUX_INDEX_WRAP     taken modulo n into [0, n) (mode='wrap'; -1 is the last element).
 *   GPUX_INDEX_CLIP     clamped to [0, n - 1] (mode='clip': as in NumPy, a negative index
 *                       becomes 0, not an element counted from the end).
 * An axis of length 0 admits no index: wrap and clip fail like checked when there is one.
 */
#ifndef GPUX_INDEX_H
#define GPUX_INDEX_H
#include "array.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gpux_index_mode {
  GPUX_INDEX_CHECKED = 0,
  GPUX_INDEX_WRAP = 1,
  GPUX_INDEX_CLIP = 2
} gpux_index_mode;

/* --- gather and put ------------------------------------------------------------------ */
/* Every function here checks all its arguments before it queues anything, and takes a and
 * idx (and values) as any views: strided, negative steps, broadcast. idx is int32 or int64
 * (GPUX_ERROR_UNSUPPORTED_DTYPE otherwise) of any shape, 0-d included, with fewer than 2^40
 * elements; a is any dtype and the result (or values) has a's dtype. axis may be negative
 * (-1 the last); GPUX_ALL_AXES works on a flattened (row-major) a. A non-empty idx into an
 * axis of length 0 fails at once with GPUX_ERROR_INDEX_OUT_OF_RANGE in every mode.
 * An out, a or values that shares memory with another operand: GPUX_ERROR_OVERLAP. */

/* numpy.take(a, idx, axis, mode): out[i..., j..., k...] = a[i..., idx[j...], k...].
 * Result shape: a.shape[:axis] + idx.shape + a.shape[axis+1:]; with GPUX_ALL_AXES,
 * idx.shape (a flattened). Result dtype: a's. */
GPUX_API gpux_status gpux_take(gpux_array_t *out, gpux_array_t a, gpux_array_t idx, int axis,
                               gpux_index_mode mode);
/* the same into out (that shape and dtype; any layout) */
GPUX_API gpux_status gpux_take_into(gpux_array_t out, gpux_array_t a, gpux_array_t idx,
                                    int axis, gpux_index_mode mode);

/* numpy.take_along_axis(a, idx, axis): idx has a's ndim; along every other axis a and idx
 * have the same length or one of them 1 (broadcast); out[..., j, ...] = a[..., idx[..., j,
 * ...], ...]. Result shape: the broadcast shape with idx's length along axis. With
 * GPUX_ALL_AXES idx must be 1-d and it is gpux_take of a flattened. Result dtype: a's. */
GPUX_API gpux_status gpux_take_along_axis(gpux_array_t *out, gpux_array_t a, gpux_array_t idx,
                                          int axis, gpux_index_mode mode);
GPUX_API gpux_status gpux_take_along_axis_into(gpux_array_t out, gpux_array_t a,
                                               gpux_array_t idx, int axis,
                                               gpux_index_mode mode);

/* numpy.put(a, idx, values, mode): a.flat[idx[j]] = values.flat[j % values.size] for every
 * position j of idx in row-major order (values cycle as in NumPy; values must not be empty
 * when idx is not). With repeated indices the last write in that order wins, the same on
 * every backend (a first kernel keeps, per element of a, the largest position that writes
 * it; only that one writes). Needs scratch of a.size int32 (int64 when idx has more than
 * 2^31 - 1 elements); a strided a goes through a contiguous copy. values: a's dtype. */
GPUX_API gpux_status gpux_put(gpux_array_t a, gpux_array_t idx, gpux_array_t values,
                              gpux_index_mode mode);
/* numpy.put_along_axis(a, idx, values, axis): idx as in gpux_take_along_axis; values
 * broadcast to the iteration shape (the broadcast of a and idx, idx's length along axis);
 * a[..., idx[..., j, ...], ...] = values[..., j, ...], the last write in row-major order of
 * that shape winning. With GPUX_ALL_AXES idx is 1-d, into a flattened. */
GPUX_API gpux_status gpux_put_along_axis(gpux_array_t a, gpux_array_t idx, gpux_array_t values,
                                         int axis, gpux_index_mode mode);

/* --- scatter with a combining op ------------------------------------------------------ */

/* a[target] = a[target] (op) value for every value, in place (NumPy's np.add.at /
 * np.maximum.at / np.minimum.at, PyTorch's index_add_ / scatter_reduce):
 *   axis == GPUX_ALL_AXES: the flattened form, np.add.at(a.ravel(), idx, values): idx of any
 *     shape indexes a's elements in row-major order; values broadcast to idx's shape (a 0-d
 *     array: one value for every index).
 *   axis in [-ndim, ndim): index_add_ along that axis: idx 1-d (length m); values broadcast
 *     to a's shape with that axis's length replaced by m; value (..., j, ...) goes to
 *     a[..., idx[j], ...].
 * idx int32 or int64; negative indices and out-of-range ones as `mode` says (see above).
 * GPUX_INDEX_CHECKED is validated by the scatter's own pass over the values, which notes
 * the first bad position of idx; its last pass then leaves a as it was, and the call waits
 * for the stream (an 8-byte read) and returns GPUX_ERROR_INDEX_OUT_OF_RANGE naming that
 * position and its value, with a unchanged. values has a's dtype. The dtypes:
 *   add: every numeric dtype (float32, float64, float16, bfloat16, the eight integers,
 *     complex64, complex128; bool: GPUX_ERROR_UNSUPPORTED_DTYPE). Integers wrap. Floats:
 *     each target is the EXACT sum of its initial value and every value sent to it,
 *     rounded once to nearest even to the dtype (overflow: +-inf) -- so the result does
 *     not depend on the order of the values or on the device: the same bits on CUDA, on
 *     OpenCL GPUs and on pocl (docs/counting.md: a fixed-point Kulisch accumulator). NaN
 *     anywhere, or +inf and -inf together: NaN (canonical: 0x7fc00000 for float32); an
 *     infinity: that infinity; a zero sum is -0.0 only when every term was -0.0. Complex:
 *     re and im each so. Memory: an accumulator of 120 bytes per element of a (float32,
 *     float16, bfloat16; 240 complex64) or 576 (float64; 1152 complex128) while the call's
 *     work runs; integers 4 or 8. Up to 2^31 values per target.
 *   max / min: the real numeric dtypes. NaN anywhere (a's or a value): the canonical NaN;
 *     -0.0 orders below +0.0 (max of the two is +0.0, min -0.0, in any order).
 * Empty idx: nothing happens. An axis of length 0 with indices: an error in every mode. */
typedef enum gpux_scatter_op {
  GPUX_SCATTER_ADD = 0,
  GPUX_SCATTER_MAX = 1,
  GPUX_SCATTER_MIN = 2
} gpux_scatter_op;

GPUX_API gpux_status gpux_scatter(gpux_array_t a, gpux_scatter_op op, gpux_array_t idx,
                                  gpux_array_t values, int axis, gpux_index_mode mode);
static inline gpux_status gpux_scatter_add(gpux_array_t a, gpux_array_t idx,
                                           gpux_array_t values, int axis, gpux_index_mode mode) {
  return gpux_scatter(a, GPUX_SCATTER_ADD, idx, values, axis, mode);
}
static inline gpux_status gpux_scatter_max(gpux_array_t a, gpux_array_t idx,
                                           gpux_array_t values, int axis, gpux_index_mode mode) {
  return gpux_scatter(a, GPUX_SCATTER_MAX, idx, values, axis, mode);
}
static inline gpux_status gpux_scatter_min(gpux_array_t a, gpux_array_t idx,
                                           gpux_array_t values, int axis, gpux_index_mode mode) {
  return gpux_scatter(a, GPUX_SCATTER_MIN, idx, values, axis, mode);
}

#ifdef __cplusplus
}
#endif
#endif
