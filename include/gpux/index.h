/* gpux: indexing -- gather (take, take_along_axis), assignment by index (put,
 * put_along_axis) and scatter with a combining op (scatter-add, -max, -min). NumPy's
 * semantics unless stated; every dtype gpux has; index arrays int32 or int64 of any shape.
 * Boolean masks (compress, nonzero, masked assignment) are in mask.h, counting (bincount,
 * histogram, digitize) in count.h.
 *
 * Index modes (gpux_index_mode), NumPy's modes of take / put:
 *   GPUX_INDEX_CHECKED  negative indices count from the end (-1 is the last
 *                       element); one outside [-n, n) is an error. The device cannot stop a kernel to report it, so the op
 *                       runs with every bad index read or written nowhere (the elements it
 *                       would have produced are unspecified), and the next call that waits
 *                       on that stream (a synchronize, a blocking download, a reduction to a
 *                       host scalar) returns GPUX_ERROR_INDEX_OUT_OF_RANGE, naming the op and
 *                       the first bad position of the index array in row-major order.
 *                       Never a read or a write out of bounds.
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

/* --- scatter with a combining op ------------------------------------------------------ */

#ifdef __cplusplus
}
#endif
#endif
