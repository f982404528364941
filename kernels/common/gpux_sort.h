/* gpux sort family (issue 25: sort, argsort, sort by key, top-k, unique, searchsorted, ...):
 * the ORDER every kernel set and the CPU reference share, written once and compiled as
 * OpenCL C (kernels/cl/), CUDA C++ (kernels/cuda/) and C (tests/ref, src/api). Include after
 * gpux_kernels.h.
 *
 * THE ORDER (NumPy's, with PyTorch's descending order):
 *   integers and bool by value; floats (float16, bfloat16, float32, float64) by value with
 *   -0.0 == +0.0, every NaN equal to every other and greater than +inf: ascending order puts
 *   NaNs last, descending order (the reverse of ascending, ties kept in input order) puts
 *   them first, as torch.sort(descending=True).
 *   A stable sort of that order has one right answer, so sort / argsort / sort by key give
 *   the same bits on every backend whatever the algorithm.
 *
 * KEY IMAGES: a radix sort sorts unsigned integers of the key's width whose unsigned order
 * is THE ORDER (gpux_so_img_<w>; widths 8, 16, 32 and 64 bits of the key's bits):
 *   unsigned integers and bool: the bits;
 *   signed integers: the sign bit flipped;
 *   floats: NaN -> all ones; otherwise, with EQZ, -0.0 -> +0.0 first; then negative values
 *     -> ~bits, non-negative -> bits | sign bit.
 *   Descending: ~image (a stable ascending sort of ~image is the stable descending sort).
 * EQZ (-0.0 and +0.0 one image) is what argsort, sort by key and every function that carries
 * positions use. A keys-only sort moves images and writes keys back from them
 * (gpux_so_unimg_<w>), so it sorts without EQZ: -0.0 sorts just before +0.0 (after it in
 * descending order) and every NaN is written as the canonical NaN of its dtype (positive,
 * quiet, no payload); each is the same position THE ORDER allows, with bits a keys-only
 * sort can reproduce on every backend.
 */
#ifndef GPUX_SORT_H
#define GPUX_SORT_H

#if defined(__OPENCL_VERSION__)
#define GPUX_SO_FN static inline
#define GPUX_SO_U8 uchar
#define GPUX_SO_U16 ushort
#define GPUX_SO_U32 uint
#define GPUX_SO_U64 ulong
#define GPUX_SO_C64(c) c##UL
#elif defined(__CUDACC__)
#define GPUX_SO_FN static __device__ __host__ __forceinline__
#define GPUX_SO_U8 unsigned char
#define GPUX_SO_U16 unsigned short
#define GPUX_SO_U32 unsigned
#define GPUX_SO_U64 unsigned long long
#define GPUX_SO_C64(c) c##ULL
#else
#include <stdint.h>
#define GPUX_SO_FN static inline
#define GPUX_SO_U8 uint8_t
#define GPUX_SO_U16 uint16_t
#define GPUX_SO_U32 uint32_t
#define GPUX_SO_U64 uint64_t
#define GPUX_SO_C64(c) c##ULL
#endif

/* key classes of an image: how the bits of a key of that width map */
#define GPUX_SO_UNSIGNED 0 /* uint8 / 16 / 32 / 64, bool */
#define GPUX_SO_SIGNED 1   /* int8 / 16 / 32 / 64 */
#define GPUX_SO_FLOAT 2    /* float16, bfloat16 (16 bits), float32, float64 */
/* flags */
#define GPUX_SO_DESC 1u /* descending: the complement of the image */
#define GPUX_SO_EQZ 2u  /* -0.0 and +0.0 one image (positions are carried) */

/* The image of a key's bits (w bits, given in the low bits of a word of type U) for class
 * cls: for floats, exp_mask is the exponent field and man_mask the significand field. One
 * body for every width, so that the four widths cannot drift apart (the per-width wrappers
 * below give the masks), expanded for 64-bit words (gpux_so_img) and for 32-bit ones
 * (gpux_so_img32, keys of up to 32 bits: half the instructions on a GPU, the same image). */
#define GPUX_SO_IMG_DEF(name, U)                                                               \
  GPUX_SO_FN U name(U b, int w, int cls, unsigned flags, U exp_mask, U man_mask) {             \
    const U all = w == (int)(8 * sizeof(U)) ? ~(U)0 : ((U)1 << w) - 1;                         \
    const U sg = (U)1 << (w - 1);                                                              \
    U k;                                                                                       \
    if (cls == GPUX_SO_UNSIGNED) {                                                             \
      k = b;                                                                                   \
    } else if (cls == GPUX_SO_SIGNED) {                                                        \
      k = b ^ sg;                                                                              \
    } else if ((b & exp_mask) == exp_mask && (b & man_mask)) {                                \
      k = all; /* NaN */                                                                       \
    } else {                                                                                   \
      if ((flags & GPUX_SO_EQZ) && b == sg) b = 0; /* -0.0 -> +0.0 */                          \
      k = (b & sg) ? (~b & all) : (b | sg);                                                    \
    }                                                                                          \
    return (flags & GPUX_SO_DESC) ? (~k & all) : k;                                            \
  }
GPUX_SO_IMG_DEF(gpux_so_img, GPUX_SO_U64)
GPUX_SO_IMG_DEF(gpux_so_img32, GPUX_SO_U32)

/* The key's bits back from an image made without EQZ (a keys-only sort): the inverse of
 * gpux_so_img, except that the NaN image gives canonical_nan. */
GPUX_SO_FN GPUX_SO_U64 gpux_so_unimg(GPUX_SO_U64 k, int w, int cls, unsigned flags,
                                     GPUX_SO_U64 canonical_nan) {
  const GPUX_SO_U64 all = w == 64 ? ~(GPUX_SO_U64)0 : ((GPUX_SO_U64)1 << w) - 1;
  const GPUX_SO_U64 sg = (GPUX_SO_U64)1 << (w - 1);
  if (flags & GPUX_SO_DESC) k = ~k & all;
  if (cls == GPUX_SO_UNSIGNED) return k;
  if (cls == GPUX_SO_SIGNED) return k ^ sg;
  if (k == all) return canonical_nan;
  return (k & sg) ? (k ^ sg) : (~k & all);
}

/* the per-dtype constants: exponent and significand masks, canonical NaN */
#define GPUX_SO_F16_EXP 0x7c00u
#define GPUX_SO_F16_MAN 0x03ffu
#define GPUX_SO_F16_NAN 0x7e00u
#define GPUX_SO_BF16_EXP 0x7f80u
#define GPUX_SO_BF16_MAN 0x007fu
#define GPUX_SO_BF16_NAN 0x7fc0u
#define GPUX_SO_F32_EXP 0x7f800000u
#define GPUX_SO_F32_MAN 0x007fffffu
#define GPUX_SO_F32_NAN 0x7fc00000u
#define GPUX_SO_F64_EXP GPUX_SO_C64(0x7ff0000000000000)
#define GPUX_SO_F64_MAN GPUX_SO_C64(0x000fffffffffffff)
#define GPUX_SO_F64_NAN GPUX_SO_C64(0x7ff8000000000000)

/* THE ORDER as a comparison of two keys' images (searchsorted, merges, the reference):
 * a before b. Equal images are equal keys. */
#define GPUX_SO_LESS(ka, kb) ((ka) < (kb))

/* The Onesweep pass's look-back word (gpux_kernels.h "Sort"), one per (tile, digit): 0 while
 * the tile has published nothing, then A | the tile's count of the digit (its aggregate),
 * then P | the count of the digit in this tile and every earlier one of its row's portion
 * (its inclusive prefix). One 32-bit word, so a reader never sees a flag without its count. */
#define GPUX_SO_LB_A 0x40000000u
#define GPUX_SO_LB_P 0x80000000u
#define GPUX_SO_LB_N 0x3fffffffu

#endif
