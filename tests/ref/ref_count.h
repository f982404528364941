/* gpux tests: CPU reference of the exact sums of scatter-add / weighted bincount (the exact
 * sum of every term, rounded once to nearest even to the dtype; gpux_scatter.h). */
#ifndef GPUX_REF_COUNT_H
#define GPUX_REF_COUNT_H
#include <stdint.h>
#include "ref.h"

#define REF_XSUM_DIGITS 80 /* 2560 bits from 2^-1100: float64's range and 2^300 of sums */
typedef struct ref_xsum {
  uint32_t d[REF_XSUM_DIGITS];
  int nan, pinf, ninf, nonneg_zero;
} ref_xsum;
void ref_xsum_init(ref_xsum *s);
/* x: a float of any dtype, exactly as a double */
void ref_xsum_add(ref_xsum *s, double x);
/* the sum rounded once to dt (float32, float64, float16, bfloat16) as a double (exact);
 * half_bits: the half's bits when dt is a half (may be NULL). NaN: NaN; both infinities:
 * NaN; a zero sum: -0.0 only when every term was -0.0. */
double ref_xsum_result(const ref_xsum *s, gpux_dtype dt, uint16_t *half_bits);
#endif
