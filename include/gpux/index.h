/* gpux: indexing -- gather (take, take_along_axis), assignment by index (put,
 * put_along_axis) and scatter with a combining op (scatter-add, -max, -min). NumPy's
 * semantics unless stated; every dtype gpux has; index arrays int32 or int64 of any shape.
 * Boolean masks (compress, nonzero, masked assignment) are in mask.h, counting (bincount,
 * histogram, digitize) in count.h.
 *
 * Index modes (gpux_index_mode). Negative indices count from the end in every mode, as in
 * NumPy (-1 is the last element); what happens to an index outside [-n, n) is the mode's:
 *   GPUX_INDEX_CHECKED  an error. The device cannot stop a kernel to report it, so the op
 *                       runs with every bad index read or written nowhere (the elements it
 *                       would have produced are unspecified), and the next call that waits
 *                       on that stream (a synchronize, a blocking download, a reduction to a
 *                       host scalar) returns GPUX_ERROR_INDEX_OUT_OF_RANGE, naming the op and
 *                       the first bad position of the index array in row-major order.
 *                       Never a read or a write out of bounds.
 *   GPUX_INDEX_WRAP     taken modulo n (NumPy's mode='wrap').
 *   GPUX_INDEX_CLIP     clamped to [0, n - 1] after the negative rule (NumPy's mode='clip'
 *                       clamps before it; gpux counts -1 as the last element in every mode).
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
