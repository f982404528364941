/* gpux tests: plain-C reference of the sort family (include/gpux/sort.h): a stable merge
 * sort of each row on the keys' images (kernels/common/gpux_sort.h, THE ORDER), compared as
 * integers, on row-major host buffers. */
#ifndef GPUX_TEST_REF_SORT_H
#define GPUX_TEST_REF_SORT_H
#include <stddef.h>
#include <stdint.h>
#include <gpux.h>

/* 1 when dt has a sort (every dtype: complex lexicographic, real part first, each part in
 * THE ORDER with -0.0 == +0.0; a keys-only sort of complex keys returns their own bits) */
int ref_sort_dtype(gpux_dtype dt);
/* the image of element i of x (dtype dt) with GPUX_SO_* flags */
uint64_t ref_sort_img(gpux_dtype dt, const void *x, int64_t i, unsigned flags);
/* perm[r * len + j] = the position (within row r) of the j-th key of row r of x (rows x
 * len, row-major) in the stable order; desc: descending; eqz: -0.0 == +0.0 (argsort, sort
 * by key; else keys-only images) */
void ref_sort_perm(gpux_dtype dt, int64_t rows, int64_t len, const void *x, int desc,
                   int eqz, int64_t *perm);
/* gpux_sort's result: the keys in the keys-only order, written back from their images
 * (canonical NaNs) */
void ref_sort_keys(gpux_dtype dt, int64_t rows, int64_t len, const void *x, int desc,
                   void *out);
/* both results along axis (negative: from the end) of x (nd dims of shape, row-major; nd 0:
 * one element), in x's layout: keys as ref_sort_keys (may be NULL), pos (int64, may be NULL)
 * as ref_sort_perm with eqz */
void ref_sort_along(gpux_dtype dt, int nd, const int64_t *shape, int axis, const void *x,
                    int desc, void *keys, int64_t *pos);
#endif
