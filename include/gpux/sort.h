/* gpux: sorting -- sort, argsort and sort by key along one axis, batched over the others.
 * NumPy's semantics (numpy.sort / argsort with kind='stable', axis -1 by default) with
 * PyTorch's descending order; every dtype (complex: lexicographic, real part first, as
 * NumPy); x may be any view (strided, negative steps).
 *
 * THE ORDER (kernels/common/gpux_sort.h): integers and bool by value; floats by value with
 * -0.0 == +0.0 and every NaN equal to every other and greater than +inf: ascending puts NaNs
 * last; GPUX_SORT_DESCENDING is the reverse order with ties kept in input order, so NaNs
 * come first (torch.sort(descending=True, stable=True)). Every sort is stable: equal keys
 * keep their input order, ascending and descending, so each call has one right answer and
 * gives the same bits on every backend.
 * A keys-only sort (gpux_sort) writes keys back from their images: -0.0 sorts just before
 * +0.0 (just after it descending) and every NaN is written as the canonical NaN of its
 * dtype (positive, quiet, no payload). argsort and sort by key compare -0.0 == +0.0 (input
 * order kept) and return the keys' own bits.
 * Complex keys compare lexicographically, the real parts, then the imaginary parts, each in
 * THE ORDER with -0.0 == +0.0 (NumPy's order: R + Rj, R + nanj, nan + Rj, nan + nanj); every
 * sort of complex keys, gpux_sort included, returns the keys' own bits (they are sorted as
 * positions: two stable passes, by the imaginary then the real parts).
 *
 * Shapes: the result has x's shape; each 1-d slice along `axis` (-1: the last) is sorted on
 * its own. A 0-d array sorts as one element (axis 0 or -1); an empty array gives an empty
 * result. Results of the plain forms are new contiguous arrays; outputs of the _into forms
 * may be any views (written through a temporary when they are not contiguous along the
 * axis); gpux_sort_into may sort in place (out the same view as x).
 *
 * Errors (nothing is written, the context stays usable): NULL handles
 * (GPUX_ERROR_NULL_POINTER), arrays of two contexts (GPUX_ERROR_CONTEXT_MISMATCH), a bad
 * axis (GPUX_ERROR_INVALID_AXIS), unknown flags (GPUX_ERROR_INVALID_ARGUMENT), an axis of
 * 2^32 or more elements
 * (GPUX_ERROR_UNSUPPORTED), outputs or values of another shape or dtype
 * (GPUX_ERROR_SHAPE_MISMATCH / GPUX_ERROR_DTYPE_MISMATCH, naming both), an output that
 * partially overlaps an input (GPUX_ERROR_OVERLAP). */
#ifndef GPUX_SORT_API_H
#define GPUX_SORT_API_H
#include "array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* flags: 0 (ascending) or GPUX_SORT_DESCENDING */
#define GPUX_SORT_DESCENDING 1u

/* numpy.sort(x, axis, kind='stable'). Result: x's shape and dtype. */
GPUX_API gpux_status gpux_sort(gpux_array_t *out, gpux_array_t x, int axis, unsigned flags);
GPUX_API gpux_status gpux_sort_into(gpux_array_t out, gpux_array_t x, int axis,
                                    unsigned flags);
/* numpy.argsort(x, axis, kind='stable'): int64 positions along the axis. Result: x's shape,
 * GPUX_INT64. */
GPUX_API gpux_status gpux_argsort(gpux_array_t *out, gpux_array_t x, int axis,
                                  unsigned flags);
GPUX_API gpux_status gpux_argsort_into(gpux_array_t out, gpux_array_t x, int axis,
                                       unsigned flags);
/* Sort by key (CUB's SortPairs, batched): the stable order of keys along the axis, applied
 * to keys and to each of the nvalues (>= 0) arrays values[0..nvalues), each of keys' shape
 * and any dtype (complex included); one sort serves them all. keys_out (may be NULL: not
 * wanted) gets the sorted keys (keys' shape and dtype, their own bits); values_out[i] the
 * sorted values[i] (its dtype). The _into form takes outputs of those shapes and dtypes
 * (keys_out NULL: not wanted). */
GPUX_API gpux_status gpux_sort_by_key(gpux_array_t *keys_out, gpux_array_t *values_out,
                                      gpux_array_t keys, const gpux_array_t *values,
                                      int nvalues, int axis, unsigned flags);
GPUX_API gpux_status gpux_sort_by_key_into(gpux_array_t keys_out,
                                           const gpux_array_t *values_out, gpux_array_t keys,
                                           const gpux_array_t *values, int nvalues, int axis,
                                           unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
