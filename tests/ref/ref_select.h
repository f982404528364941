/* CPU references of the select family (include/gpux/select.h): a stable sort of the keys'
 * images (kernels/common/gpux_sort.h), then what each op takes from it. Host buffers are
 * contiguous, rows x len. */
#ifndef GPUX_REF_SELECT_H
#define GPUX_REF_SELECT_H
#include <stdint.h>
#include "gpux.h"

/* the image of element i of buf (dtype dt) with gpux_sort.h's flags */
uint64_t ref_sel_img(gpux_dtype dt, const void *buf, int64_t i, unsigned flags);
/* numpy.searchsorted on images (EQZ) */
void ref_searchsorted(gpux_dtype dt, const void *s, int64_t ne, const void *q, int64_t n,
                      int right, int64_t *out);
/* top-k of each row: vals (dt) and idx, rows x k */
void ref_topk(gpux_dtype dt, const void *x, int64_t rows, int64_t len, int64_t k,
              int smallest, int sorted, void *vals, int64_t *idx);
/* partition of each row around rank kth: vals (dt) and idx, rows x len */
void ref_partition(gpux_dtype dt, const void *x, int64_t rows, int64_t len, int64_t kth,
                   void *vals, int64_t *idx);
/* median (mode 0) or quantiles q[0..nq) (mode 1) of each row: out[q * rows + row], float32
 * for float32 / float16 / bfloat16, else float64 */
void ref_quantile(gpux_dtype dt, const void *x, int64_t rows, int64_t len, const double *q,
                  int nq, int mode, void *out);
#endif
