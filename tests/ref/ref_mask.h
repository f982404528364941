/* gpux tests: plain-C reference of the boolean-mask ops (include/gpux/mask.h), NumPy's
 * definitions element by element on row-major host buffers. The ops move bits: elements
 * are es bytes, whatever their dtype, and the tests compare bits. */
#ifndef GPUX_TEST_REF_MASK_H
#define GPUX_TEST_REF_MASK_H
#include <stddef.h>
#include <stdint.h>
#include <gpux.h>

/* x != 0 for element i of x (dtype dt): NaN is nonzero, -0.0 zero, complex when either part
 * is nonzero; computed with C's comparisons, not the kernels' bit masks */
int ref_mask_nonzero(gpux_dtype dt, const void *x, int64_t i);
/* x[mask]: the elements with mask[i] != 0 in order into out; returns their count */
int64_t ref_mask_compress(size_t es, int64_t n, const void *x, const uint8_t *mask, void *out);
/* x[mask] = vals: the k-th selected element gets vals[k]; returns the count */
int64_t ref_mask_put(size_t es, int64_t n, void *x, const uint8_t *mask, const void *vals);
/* numpy.argwhere of sel[0 .. prod(shape)) (sel[i] != 0): rows of nd coordinates into out;
 * returns the count */
int64_t ref_mask_argwhere(int nd, const int64_t *shape, const uint8_t *sel, int64_t *out);
#endif
