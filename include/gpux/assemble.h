/* gpux: assembling arrays -- concatenate, stack, split, tile, repeat, flip, roll, pad,
 * triu / tril, diag / diagonal, eye, and the broadcasting helpers (broadcast_to,
 * broadcast_arrays, meshgrid). NumPy's semantics; every dtype (complex included); the
 * results keep the input's dtype. docs/assembly.md has the details and the costs.
 *
 * Views and copies. split, array_split, split_at, flip, diagonal, broadcast_to,
 * broadcast_arrays and meshgrid return views that share the input's memory (strided; flip's
 * steps are negative; the broadcasting helpers' strides are 0, so write to them only through
 * a copy). Every other function makes a new contiguous row-major array, and has an _into
 * form that writes into an existing array `out` (which may be a strided view) of exactly the
 * result's shape and dtype, sharing no memory with an input (GPUX_ERROR_OVERLAP otherwise).
 *
 * Errors (every argument is checked before anything is allocated or queued; after any
 * error the context stays usable and nothing leaks): NULL handles or lists, GPUX_ERROR_NULL_POINTER; arrays of other contexts,
 * GPUX_ERROR_CONTEXT_MISMATCH; mixed dtypes, GPUX_ERROR_DTYPE_MISMATCH; shapes that do not
 * fit (concatenate, stack, _into outputs, broadcasting), GPUX_ERROR_SHAPE_MISMATCH, with the
 * shapes and the axis in the message; an axis out of range or repeated,
 * GPUX_ERROR_INVALID_AXIS; a negative count, width or section count, or more results than
 * GPUX_MAX_DIMS allows, GPUX_ERROR_INVALID_ARGUMENT / GPUX_ERROR_INVALID_SHAPE; a result
 * whose element or byte count overflows, GPUX_ERROR_SIZE_OVERFLOW.
 *
 * Device work: the results are strided copies (gpux_array_copy_into's kernels, or the
 * driver's copy of a contiguous range), a few per call -- concatenate one per input,
 * roll 2^naxes, pad 1 + 2 per padded axis, tile and scalar repeat one -- except
 * repeat_counts (one per run of neighbouring elements with equal counts) and triu / tril (a
 * mask from two small ramps, then gpux_where). */
#ifndef GPUX_ASSEMBLE_H
#define GPUX_ASSEMBLE_H
#include "array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Joins n >= 1 arrays of one dtype and context along an existing axis (negative counts from
 * the end); their shapes must be equal except along that axis. axis == GPUX_ALL_AXES joins
 * the arrays flattened (NumPy's axis=None): a 1-d result of the sum of their sizes. 0-d
 * arrays need GPUX_ALL_AXES. Result: the inputs' dtype, their shape with the axis's lengths
 * summed. One copy per input (a contiguous range when the axis is the first of contiguous
 * arrays). */
GPUX_API gpux_status gpux_concatenate(gpux_array_t *out, int n, const gpux_array_t *arrays,
                                      int axis);
GPUX_API gpux_status gpux_concatenate_into(gpux_array_t out, int n, const gpux_array_t *arrays,
                                           int axis);
/* Joins n >= 1 arrays of one shape along a new axis at position `axis` of the result
 * (-(ndim + 1) .. ndim): result shape the inputs' with n inserted there. */
GPUX_API gpux_status gpux_stack(gpux_array_t *out, int n, const gpux_array_t *arrays, int axis);
GPUX_API gpux_status gpux_stack_into(gpux_array_t out, int n, const gpux_array_t *arrays,
                                     int axis);

/* Views of nsections consecutive parts of a along axis, into outs[0 .. nsections).
 * gpux_split: the axis's length must divide into nsections equal parts
 * (GPUX_ERROR_SHAPE_MISMATCH otherwise); gpux_array_split: the first (length % nsections)
 * parts get one more element (NumPy's array_split; parts may be empty). nsections >= 1.
 * On an error every outs[i] is NULL. */
GPUX_API gpux_status gpux_split(gpux_array_t *outs, gpux_array_t a, int nsections, int axis);
GPUX_API gpux_status gpux_array_split(gpux_array_t *outs, gpux_array_t a, int nsections,
                                      int axis);
/* Views a[..., :idx[0]], a[..., idx[0]:idx[1]], ..., a[..., idx[nidx-1]:] along axis into
 * outs[0 .. nidx], as numpy.split with a list of indices: negative indices count from the
 * end, indices are clipped to 0..length, and a decreasing pair gives an empty part. */
GPUX_API gpux_status gpux_split_at(gpux_array_t *outs, gpux_array_t a, int nidx,
                                   const int64_t *idx, int axis);

/* a repeated reps[d] times along each axis (numpy.tile): the result has max(ndim, nreps)
 * axes; a shorter reps is padded with 1s in front, a shorter shape likewise; reps[d] >= 0.
 * One copy (a broadcast view of a onto the result viewed as (reps0, n0, reps1, n1, ...))
 * when that view has at most GPUX_MAX_DIMS axes, else one per repeated axis and repetition. */
GPUX_API gpux_status gpux_tile(gpux_array_t *out, gpux_array_t a, int nreps, const int64_t *reps);
GPUX_API gpux_status gpux_tile_into(gpux_array_t out, gpux_array_t a, int nreps,
                                    const int64_t *reps);
/* Each element repeated count >= 0 times along axis (numpy.repeat with a scalar count):
 * result shape a's with that axis count times longer; axis == GPUX_ALL_AXES: of the
 * flattened a (1-d result). One copy. */
GPUX_API gpux_status gpux_repeat(gpux_array_t *out, gpux_array_t a, int64_t count, int axis);
GPUX_API gpux_status gpux_repeat_into(gpux_array_t out, gpux_array_t a, int64_t count, int axis);
/* numpy.repeat with one count per element along axis: counts is host memory of ncounts
 * entries, each >= 0, ncounts == the axis's length (or 1: every element that many times);
 * the axis's result length is their sum. GPUX_ALL_AXES: of the flattened a. One copy per
 * run of neighbouring elements with equal counts (the host knows the result's shape before
 * any device work; long axes whose counts change often are slow: docs/assembly.md). */
GPUX_API gpux_status gpux_repeat_counts(gpux_array_t *out, gpux_array_t a, int64_t ncounts,
                                        const int64_t *counts, int axis);
GPUX_API gpux_status gpux_repeat_counts_into(gpux_array_t out, gpux_array_t a, int64_t ncounts,
                                             const int64_t *counts, int axis);

/* View of a with the listed axes reversed (numpy.flip): negative steps, no copy. naxes ==
 * GPUX_ALL_AXES reverses every axis (axes may then be NULL); repeated axes are an error. */
GPUX_API gpux_status gpux_flip(gpux_array_t *out, gpux_array_t a, int naxes, const int *axes);
/* Elements shifted by shifts[i] along axes[i] (numpy.roll): an element at index j moves to
 * (j + shift) mod length; shifts may be negative or larger than the length; an axis listed
 * twice adds its shifts. naxes == GPUX_ALL_AXES: shifts[0] on the flattened array (axes
 * unused), the result has a's shape. Result: a's shape and dtype; 2^(axes whose shift is not
 * a multiple of the length) copies. */
GPUX_API gpux_status gpux_roll(gpux_array_t *out, gpux_array_t a, int naxes,
                               const int64_t *shifts, const int *axes);
GPUX_API gpux_status gpux_roll_into(gpux_array_t out, gpux_array_t a, int naxes,
                                    const int64_t *shifts, const int *axes);

/* numpy.pad's "constant" and "edge" modes. widths holds 2 * ndim(a) entries >= 0: before
 * and after for each axis in order (widths[2 d], widths[2 d + 1]). Constant: the new
 * elements are value, converted to a's dtype as gpux_array_full converts it (complex: value
 * + 0i). Edge: each new element repeats the nearest element of a along the padded axis; an
 * empty axis cannot be padded that way (GPUX_ERROR_INVALID_ARGUMENT, as NumPy). Result
 * shape: n_d + before_d + after_d. */
typedef enum gpux_pad_mode { GPUX_PAD_CONSTANT = 0, GPUX_PAD_EDGE = 1 } gpux_pad_mode;
GPUX_API gpux_status gpux_pad(gpux_array_t *out, gpux_array_t a, const int64_t *widths,
                              gpux_pad_mode mode, double value);
GPUX_API gpux_status gpux_pad_into(gpux_array_t out, gpux_array_t a, const int64_t *widths,
                                   gpux_pad_mode mode, double value);

/* The upper (triu: j - i >= k) or lower (tril: j - i <= k) triangle of the last two axes
 * (i the row, j the column), the rest 0 (false for bool); any int64 k. As NumPy, a 1-d a of
 * length n is taken as the rows of an n x n result. Result: a's shape and dtype (1-d: n x n). */
GPUX_API gpux_status gpux_triu(gpux_array_t *out, gpux_array_t a, int64_t k);
GPUX_API gpux_status gpux_triu_into(gpux_array_t out, gpux_array_t a, int64_t k);
GPUX_API gpux_status gpux_tril(gpux_array_t *out, gpux_array_t a, int64_t k);
GPUX_API gpux_status gpux_tril_into(gpux_array_t out, gpux_array_t a, int64_t k);

/* View of the diagonal a[..., i, ..., i + offset, ...] of axes axis1 != axis2 (numpy.diagonal):
 * those axes removed and the diagonal appended as the last axis, of length
 * max(0, min(n1, n2 - offset)) for offset >= 0, max(0, min(n1 + offset, n2)) below. a has
 * ndim >= 2. */
GPUX_API gpux_status gpux_diagonal(gpux_array_t *out, gpux_array_t a, int64_t offset, int axis1,
                                   int axis2);
/* numpy.diag: a 1-d v of length n gives the (n + |k|) x (n + |k|) array with v on diagonal k
 * and zeros elsewhere; a 2-d v gives a contiguous copy of its diagonal k (gpux_diagonal is the
 * view). Other ndim: GPUX_ERROR_INVALID_SHAPE. */
GPUX_API gpux_status gpux_diag(gpux_array_t *out, gpux_array_t v, int64_t k);
GPUX_API gpux_status gpux_diag_into(gpux_array_t out, gpux_array_t v, int64_t k);
/* n x m (m < 0: n x n) array of dtype dt with ones on diagonal k and zeros elsewhere
 * (numpy.eye); n >= 0. _into: out (2-d, any dtype) gets the same for its shape. */
GPUX_API gpux_status gpux_eye(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt, int64_t n,
                              int64_t m, int64_t k);
GPUX_API gpux_status gpux_eye_into(gpux_array_t out, int64_t k);

/* View of a broadcast to shape (NumPy rules: a's axes align with the last ones of shape,
 * each of length 1 or equal): stride 0 along the broadcast axes. */
GPUX_API gpux_status gpux_broadcast_to(gpux_array_t *out, gpux_array_t a, int ndim,
                                       const int64_t *shape);
/* Views of the n >= 1 arrays broadcast against each other (numpy.broadcast_arrays) into
 * outs[0 .. n); they may differ in dtype. */
GPUX_API gpux_status gpux_broadcast_arrays(gpux_array_t *outs, int n, const gpux_array_t *arrays);
/* numpy.meshgrid(*xs, indexing=..., copy=False): n >= 1 1-d arrays of lengths l_0 .. l_{n-1}
 * give n views (outs[i] varies along axis i, stride 0 along the others) of shape
 * (l_0, ..., l_{n-1}) with GPUX_MESHGRID_IJ, or with the first two lengths swapped with
 * GPUX_MESHGRID_XY (NumPy's default; for n >= 2). gpux_array_contiguous makes dense copies. */
typedef enum gpux_meshgrid_indexing {
  GPUX_MESHGRID_XY = 0,
  GPUX_MESHGRID_IJ = 1
} gpux_meshgrid_indexing;
GPUX_API gpux_status gpux_meshgrid(gpux_array_t *outs, int n, const gpux_array_t *xs,
                                   gpux_meshgrid_indexing indexing);

#ifdef __cplusplus
}
#endif
#endif
