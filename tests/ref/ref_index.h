/* gpux tests: CPU reference of gather and put (include/gpux/index.h), sequential, on
 * row-major host buffers of es-byte elements; indices as int64. */
#ifndef GPUX_REF_INDEX_H
#define GPUX_REF_INDEX_H
#include <stddef.h>
#include <stdint.h>

/* NumPy's modes: the index in [0, n), or -1 for a bad one (checked) */
int64_t ref_ix_resolve(int64_t v, int64_t n, int mode);
/* numpy.take; axis -1: a flattened. Bad indices give 0 bytes. Returns the first bad
 * position of idx (row-major), -1 if none. */
int64_t ref_take(void *out, const void *a, size_t es, int nd, const int64_t *shape,
                 const int64_t *idx, int64_t nidx, int axis, int mode);
/* numpy.take_along_axis: idx of shape ishape (a's ndim), broadcast; out of the broadcast
 * shape oshape. Returns the first bad position of idx, -1 if none. */
int64_t ref_take_along(void *out, const void *a, size_t es, int nd, const int64_t *shape,
                       const int64_t *idx, const int64_t *ishape, int axis, int mode);
/* numpy.put (values cycled), in order: the last write wins. Returns the first bad
 * position, -1 if none (bad ones write nothing). */
int64_t ref_put(void *a, size_t es, int64_t n, const int64_t *idx, int64_t nidx,
                const void *values, int64_t nvalues, int mode);
/* numpy.put_along_axis: values (already broadcast) of the iteration shape (ishape with
 * a's lengths where idx has 1), in row-major order of it */
int64_t ref_put_along(void *a, size_t es, int nd, const int64_t *shape, const int64_t *idx,
                      const int64_t *ishape, const void *values, int axis, int mode);
#endif
