/* gpux: boolean masks -- x[mask] (compress, also along one axis), nonzero / argwhere, and
 * masked assignment (x[mask] = scalar, x[mask] = values). NumPy's semantics unless stated;
 * every dtype gpux has; x and the mask may be strided or negative-step views.
 * (count_nonzero is a reduction: reduce.h; cumsum of a bool mask: gpux_scan.)
 *
 * Masks are GPUX_BOOL arrays of exactly x's shape, as NumPy's x[mask] requires (no
 * broadcasting; compress_axis: a 1-d mask of the axis's length). "Selected" elements are
 * those where the mask is true, taken in row-major order; nonzero and argwhere select the
 * nonzero elements of an array of any dtype: x != 0, tested on the bits (NaN counts as
 * nonzero, -0.0 as zero, a complex element is nonzero when either part is).
 *
 * WHAT WAITS. The size of x[mask], nonzero and argwhere depends on the data: these calls,
 * and x[mask] = values (whose size must match it), count the selected elements first and
 * return after ONE small device-to-host read: 8 bytes, the total, which waits for the work
 * queued before the call on the current stream and for the count itself (a pass that reads
 * the mask, or nonzero's x, once and writes the selection as bits, 1 bit an element, with
 * each tile's count; then a scan of one int64 per 4096 elements). Then they allocate the
 * exact result, queue the pass that moves the data (one read of the bits, of x for x[mask]
 * or of the values for x[mask] = values, one write of the result) and return without waiting
 * for it. x[mask] =
 * scalar does not wait (it is gpux_where in place). Counting first costs n / 8 bytes of
 * scratch and 2 n / 8 of traffic (for float32 data and a half-true mask, 7 bytes an element
 * move) and saves the memory of a worst-case result (as large as x, alive as long as the
 * result, or a copy of its first part); the _into forms take a buffer of capacity >= the
 * count instead and still return the count (they wait for it the same way).
 *
 * Views. Strided and negative-step x and masks are copied to contiguous temporaries first
 * (one more pass over them); contiguous ones are read in place. Results are new contiguous
 * arrays; outputs of the _into forms may be strided views (written through a temporary).
 * Outputs must not overlap the inputs (GPUX_ERROR_OVERLAP), except x of the assignments,
 * which may be the mask's own memory only as the same view (x[x] = 0 for a bool x).
 *
 * Errors: NULL handles (GPUX_ERROR_NULL_POINTER), arrays of two contexts
 * (GPUX_ERROR_CONTEXT_MISMATCH), a mask that is not bool (GPUX_ERROR_DTYPE_MISMATCH), a
 * mask of another shape (GPUX_ERROR_SHAPE_MISMATCH, naming both shapes and the first axis
 * that differs, as NumPy's IndexError), a bad axis (GPUX_ERROR_INVALID_AXIS), values of
 * another dtype (GPUX_ERROR_DTYPE_MISMATCH: gpux never casts silently) or another count
 * (GPUX_ERROR_SHAPE_MISMATCH, naming both counts), an out of another dtype or too small
 * (GPUX_ERROR_DTYPE_MISMATCH / GPUX_ERROR_SHAPE_MISMATCH), a scalar the dtype cannot hold
 * exactly (GPUX_ERROR_INVALID_ARGUMENT, as the strict elementwise scalars:
 * docs/semantics.md). After an error nothing was written and the context stays usable. */
#ifndef GPUX_MASK_H
#define GPUX_MASK_H
#include "array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x[mask]: a new 1-d array of x's dtype, shape (count,), the selected elements of x in
 * row-major order (count 0: an empty array). mask: bool, x's shape. Waits for the count. */
GPUX_API gpux_status gpux_compress(gpux_array_t *out, gpux_array_t x, gpux_array_t mask);
/* x[mask] into out, a 1-d array of x's dtype with out.size >= count (its capacity): writes
 * out[0 .. count) and *count, leaves out[count ..] as it was. count > out.size is
 * GPUX_ERROR_SHAPE_MISMATCH (nothing written; *count is still set). Waits for the count. */
GPUX_API gpux_status gpux_compress_into(gpux_array_t out, int64_t *count, gpux_array_t x,
                                        gpux_array_t mask);
/* numpy.compress(mask, x, axis) = x[..., mask, ...]: the slices of x along `axis` (negative
 * counts from the end) where the 1-d bool mask of length x.shape[axis] is true, in order. A
 * new array of x's dtype and shape with that axis's length the mask's count. (NumPy's
 * compress also takes a shorter mask, as if padded with false; gpux asks for the exact
 * length, as NumPy's boolean indexing does.) The mask is broadcast to x's shape in a
 * temporary (x.size bytes) and x compressed by it: the same one pass over x. Waits for the
 * count. */
GPUX_API gpux_status gpux_compress_axis(gpux_array_t *out, gpux_array_t x, gpux_array_t mask,
                                        int axis);

/* numpy.nonzero(x): out[d] (d = 0 .. x.ndim - 1; out has room for x.ndim handles) is a new
 * int64 array of shape (count,), coordinate d of each nonzero element of x, in row-major
 * order. The x.ndim arrays are views of one (ndim, count) int64 array (each releases on
 * its own). x of any dtype, ndim >= 1: a 0-d x is GPUX_ERROR_INVALID_ARGUMENT, as NumPy 2
 * raises (use a reshape to (1,)). On error every out[d] is NULL. Waits for the count. */
GPUX_API gpux_status gpux_nonzero(gpux_array_t *out, gpux_array_t x);
/* numpy.argwhere(x): a new int64 array of shape (count, x.ndim), row k the coordinates of
 * the k-th nonzero element in row-major order (0-d x: shape (count, 0), count 0 or 1, as
 * NumPy). Waits for the count. */
GPUX_API gpux_status gpux_argwhere(gpux_array_t *out, gpux_array_t x);
/* argwhere into out, int64 of shape (capacity, x.ndim) with capacity >= count: writes rows
 * 0 .. count - 1 and *count, leaves the other rows as they were; count > capacity is
 * GPUX_ERROR_SHAPE_MISMATCH (nothing written; *count set). x.ndim >= 1. Waits for the
 * count. */
GPUX_API gpux_status gpux_argwhere_into(gpux_array_t out, int64_t *count, gpux_array_t x);

/* x[mask] = value, in place (x may be a strided view): value converted to x's dtype as the
 * strict elementwise scalars are (integer and bool dtypes take only values they hold
 * exactly, else GPUX_ERROR_INVALID_ARGUMENT; floats round as casts do; complex: value +
 * 0i). Queued: it is gpux_where_into(x, mask, value, x), and nothing waits. */
GPUX_API gpux_status gpux_mask_fill(gpux_array_t x, gpux_array_t mask, double value);
/* the same with a complex value (a real x takes only im == 0, as gpux_array_full_complex) */
GPUX_API gpux_status gpux_mask_fill_complex(gpux_array_t x, gpux_array_t mask,
                                            gpux_complex128 value);
/* x[mask] = values, in place: the k-th selected element of x (row-major) gets values[k].
 * values: 1-d, x's dtype, exactly count elements (another count: GPUX_ERROR_SHAPE_MISMATCH
 * naming both, nothing written), any view; it may overlap x (it is then copied first).
 * Waits for the count (to check it), then queues the write. */
GPUX_API gpux_status gpux_mask_put(gpux_array_t x, gpux_array_t mask, gpux_array_t values);

#ifdef __cplusplus
}
#endif
#endif
