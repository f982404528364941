/* gpux tests: plain-C reference of the assembly ops (include/gpux/assemble.h), NumPy's
 * definitions written element by element. These ops move bits: every function works on
 * row-major host buffers of elements of es bytes, whatever their dtype, and the tests
 * compare bits. Shapes are row-major (nd <= GPUX_MAX_DIMS; 0-d: nd 0). */
#ifndef GPUX_TEST_REF_ASSEMBLE_H
#define GPUX_TEST_REF_ASSEMBLE_H
#include <stddef.h>
#include <stdint.h>

/* n arrays of shapes[i] (equal except along axis) joined along axis; axis -1: flattened */
void ref_asm_concat(size_t es, int n, const void *const *in, int nd, const int64_t *const *shapes,
                    int axis, void *out);
/* [lo, hi) of axis (0 <= lo <= hi <= shape[axis]) */
void ref_asm_slice(size_t es, int nd, const int64_t *shape, const void *in, int axis, int64_t lo,
                   int64_t hi, void *out);
/* numpy.tile (the result has max(nd, nreps) axes) */
void ref_asm_tile(size_t es, int nd, const int64_t *shape, const void *in, int nreps,
                  const int64_t *reps, void *out);
/* numpy.repeat along axis with counts[shape[axis]] */
void ref_asm_repeat(size_t es, int nd, const int64_t *shape, const void *in,
                    const int64_t *counts, int axis, void *out);
/* numpy.flip of the axes with which[d] != 0 */
void ref_asm_flip(size_t es, int nd, const int64_t *shape, const void *in, const int *which,
                  void *out);
/* numpy.roll by shift[d] (any int64) along each axis */
void ref_asm_roll(size_t es, int nd, const int64_t *shape, const void *in, const int64_t *shift,
                  void *out);
/* numpy.pad, widths[2 d], widths[2 d + 1]; edge != 0: "edge", else "constant" with the
 * element *value */
void ref_asm_pad(size_t es, int nd, const int64_t *shape, const void *in, const int64_t *widths,
                 int edge, const void *value, void *out);
/* numpy.triu (upper) / tril with k over the last two axes; a 1-d in gives n x n. Elements
 * outside the triangle are zero bytes. */
void ref_asm_tri(size_t es, int nd, const int64_t *shape, const void *in, int64_t k, int upper,
                 void *out);
/* numpy.diagonal(in, off, a1, a2): *len the diagonal's length; out holds the other axes
 * then the diagonal */
void ref_asm_diagonal(size_t es, int nd, const int64_t *shape, const void *in, int64_t off,
                      int a1, int a2, int64_t *len, void *out);
/* in broadcast to (ond, oshape) */
void ref_asm_broadcast(size_t es, int nd, const int64_t *shape, const void *in, int ond,
                       const int64_t *oshape, void *out);

#endif
