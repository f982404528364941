/* gpux: counting -- bincount, histogram, digitize (NumPy's semantics unless stated; see
 * docs/counting.md). Counts are int64. Sums of float weights are exact sums rounded once to
 * the weights' dtype (as scatter-add in index.h): the same bits on every backend and in any
 * order.
 */
#ifndef GPUX_COUNT_H
#define GPUX_COUNT_H
#include "array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* numpy.bincount(x, weights, minlength). x: any integer dtype, any shape (flattened), values
 * >= 0 (a negative one: GPUX_ERROR_INDEX_OUT_OF_RANGE naming its first position). The
 * result is 1-d of length max(max(x) + 1, minlength) (0 for an empty x with minlength 0):
 * int64 counts, or with weights (x's shape; NULL: none) sums in the weights' dtype (any
 * numeric dtype but bool; NumPy gives float64: cast the weights first for that).
 * The length needs max(x): the call reads min and max of x (a wait on the stream). Counting
 * uses per-work-group counters in local / shared memory where the bins fit (4096). */
GPUX_API gpux_status gpux_bincount(gpux_array_t *out, gpux_array_t x, gpux_array_t weights,
                                   int64_t minlength);
/* The same into out (1-d, contiguous or not, int64 without weights, the weights' dtype with
 * them), whose length is the number of bins: a value outside [0, len(out)) is
 * GPUX_ERROR_INDEX_OUT_OF_RANGE (found before anything is queued, out unchanged). */
GPUX_API gpux_status gpux_bincount_into(gpux_array_t out, gpux_array_t x, gpux_array_t weights);

/* numpy.histogram(x, bins, range=(lo, hi), weights): bins >= 1 equal bins over [lo, hi]
 * (lo < hi, both finite; the edges are numpy.linspace(lo, hi, bins + 1) in float64, and a
 * value is counted in bin k when edge[k] <= x < edge[k + 1], the last bin closed on the
 * right: the bins NumPy's uniform fast path gives). Values outside [lo, hi] and NaN are not
 * counted. x: any real numeric dtype (compared in float64; int64 values beyond 2^53 are
 * rounded first, as NumPy does). counts: 1-d of length bins, int64, or the weights' dtype
 * with weights (x's shape, NULL: none). density is not supported: divide by the bin width
 * and the total. */
GPUX_API gpux_status gpux_histogram(gpux_array_t *counts, gpux_array_t x, int64_t bins,
                                    double lo, double hi, gpux_array_t weights);
GPUX_API gpux_status gpux_histogram_into(gpux_array_t counts, gpux_array_t x, double lo,
                                         double hi, gpux_array_t weights);
/* numpy.histogram(x, bins=edges): edges 1-d of x's dtype, at least 2, increasing (equal
 * neighbours allowed), no NaN; bin k is [edges[k], edges[k+1]), the last closed. The edges
 * are checked on the host (one read of the edges). counts: length len(edges) - 1. */
GPUX_API gpux_status gpux_histogram_edges(gpux_array_t *counts, gpux_array_t x,
                                          gpux_array_t edges, gpux_array_t weights);
GPUX_API gpux_status gpux_histogram_edges_into(gpux_array_t counts, gpux_array_t x,
                                               gpux_array_t edges, gpux_array_t weights);

/* numpy.digitize(x, bins, right): for each x, the index i such that bins[i-1] <= x <
 * bins[i] (increasing bins; right != 0: bins[i-1] < x <= bins[i]) or bins[i-1] > x >=
 * bins[i] (decreasing; right: bins[i-1] >= x > bins[i]). x any real numeric dtype and shape,
 * bins 1-d of x's dtype, monotonic, no NaN (checked on the host: one read of bins; a
 * constant bins counts as increasing, as NumPy's). Result: int64, x's shape. NaN x: len(bins)
 * for increasing bins, 0 for decreasing (NumPy's). float16 / bfloat16 compare as float32. */
GPUX_API gpux_status gpux_digitize(gpux_array_t *out, gpux_array_t x, gpux_array_t bins,
                                   int right);
GPUX_API gpux_status gpux_digitize_into(gpux_array_t out, gpux_array_t x, gpux_array_t bins,
                                        int right);

#ifdef __cplusplus
}
#endif
#endif
