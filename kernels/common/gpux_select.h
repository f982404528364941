/* gpux select family (issue 25: searchsorted, top-k, partition / argpartition, median,
 * quantile): the facts both kernel sets (kernels/cl/select.cl, kernels/cuda/select.cu), both
 * backends and the front end (src/api/select.c) share. Include after gpux_kernels.h and
 * gpux_sort.h (THE ORDER and the key images).
 *
 * Every op works on the keys' images (gpux_so_img, 64-bit words whatever the width), so
 * integer and float keys take one code path and the result is a function of the images:
 * the same bits on every backend, whatever the launch shape.
 *
 * RADIX SELECT (top-k, partition, median, quantile). The keys are rows x len, contiguous.
 * Each (row, target t) looks for the image of rank r_t (0-based, ascending images; top-k's
 * largest use GPUX_SO_DESC images, so the k largest are the k smallest images):
 *   hist_<dt>  pass p (digit shift s = w - 8 (p + 1), w the key's width): every key whose
 *              image agrees with the target's prefix above bit s + 8 adds 1 to
 *              hist[row][t][digit s of its image] (uint counts; bin 256: NaN images, on the
 *              first pass only, float dtypes only);
 *   pick       per (row, t): the digit d where the running count passes r_t; r_t -= the
 *              keys below d; prefix |= d << s; the histogram is zeroed for the next pass
 *              (st[row][t] = {prefix, r, nan count, -}: GPUX_SEL_ST words of uint64).
 * After w / 8 passes prefix is the image T of rank r_t, and r_t the number of keys equal to
 * T that come before it in rank. Histograms are integer counts: the order of the atomics
 * changes nothing.
 * Writing (top-k, partition; one target): keys split into less (< T), equal (== T) and
 * greater; tiles of GPUX_SEL_TILE keys:
 *   cnt_<dt>   per tile: (less, equal) counts -> cnt[row][tile][2] (int64);
 *   scan       per row: exclusive prefix sums of cnt over the row's tiles, in place; the
 *              row totals L (less) and E (equal) into st[row][2], st[row][3];
 *   emit_<dt>  per tile: each key's (less, equal) counts before it in its row (the tile's
 *              prefix plus a scan inside the tile), then
 *                top-k (mode 0): a less key, or an equal one among the first k - L equal
 *                  keys, goes to out[row][less before + min(equal before, k - L)]: the k
 *                  results in the order of their positions in the row;
 *                partition (mode 1): less keys to [0, L) in position order, equal keys to
 *                  [L, L + E), greater keys to [L + E, len), each in position order.
 *              Values (the keys' bits) to vals, positions (int64) to idx, either may be
 *              absent (a null buffer).
 *   rank_<dt>  top-k sorted: result j of a row goes to the place of its rank among the
 *              row's k results (the number of results before it in the images' order,
 *              ties by position), k <= GPUX_SEL_RANK_MAX.
 *   qfin_<dt>  median / quantile: from the images of ranks lo and hi (two targets per q)
 *              the value: NaN when the row holds a NaN; median: lo's value, or
 *              (a + b) * 0.5 when lo != hi; quantile: NumPy's linear _lerp with gamma
 *              (gam[q], float64; float32 for float32 / float16 / bfloat16 keys, which
 *              compute and return float32), no FMA contraction in either kernel set.
 * TWO READS (top-k of 32- and 64-bit keys, the front end's rule: src/api/select.c
 * cand_rule): the target's top 12 bits first, then only the keys that can be among the k:
 *   h12_<dt>   one pass: hist[row][top 12 bits of each image] += 1 (bin 4096: NaN images,
 *              float dtypes, ascending images only, as hist's first pass); groups of hk
 *              keys (gpux__sel_h12_groups: work-groups in the GPU forms, work-items in the
 *              CPU form) count locally, add their nonzero bins (integer sums: any order)
 *              and write their whole histogram to hb[group] (4097 words);
 *   pick12     per row: P, the 12-bit prefix where the running count passes rank r, and c,
 *              the keys whose prefix is <= P -> pc[row] = {P, c} (uint64); every key whose
 *              image is below the target's is among those c;
 *   gcnt       per group: gc[group] = its keys whose prefix is <= its row's P (hb's bins
 *              0 .. P): the candidates it holds;
 *   gather_<dt>  one stable pass: the candidates (image >> s12 <= P, P = pc[pcs * row]) of
 *              row `row` to cand[row * cstride + j] (their bits) and cpos[...] (their
 *              positions, int64), j = the candidates before them in the row: each h12 group
 *              writes its own keys' candidates in order from the sum of the earlier groups'
 *              gc (no group waits for another); inside a group, tiles of GPUX_SEL_TILE keys
 *              in order, each ranked by a scan of its work-items' runs (GPU forms) or a
 *              serial loop (CPU form); counts < 2^30 a row, which the front end ensures.
 *              A group whose gc is <= capg (> 0: ONE READ's filt listed its candidates' row
 *              positions in cb[group * capg ..]) copies those instead of reading its keys;
 *   map        idx[i] = cpos[idx[i]]: the select's results on cand (one row of c keys, the
 *              same rank and flags) mapped to positions in x.
 * cand keeps x's order, so ties at the target resolve by position as on x itself: the same
 * bits as the radix select of x.
 * ONE READ (top-k of 32- and 64-bit keys whose candidates a sample bounds: the front end's
 * topk_sample): a bound T on the target's image from a sample, then one pass over x:
 *   ssel_<dt>  a work-group per row: ns keys spread over the row (key j at j * s +
 *              (hash(j) mod s), s = len / ns: a sorted row gives the same spread of values
 *              as a shuffled one), their images in local memory (ns <= GPUX_SEL_SNS(dt):
 *              16 KB of them), and the image T of rank r among them (a local radix select;
 *              r = ns: all ones, no bound) -> st[row * GPUX_SEL_ST];
 *   filt_<dt>  groups as h12's: gc[group] = its keys with image <= T, tot[row] += gc (an
 *              integer sum), and the row positions of its first capg (cb's words / the
 *              groups) to cb[group * capg ..] in order (tiles in order; a tile with none
 *              costs its read and one barrier);
 *   gather with s12 = 0, P = T (pc = st, pcs = GPUX_SEL_ST) and cb: a group of <= capg
 *              candidates copies them, a fuller one reads its keys again.
 * Every key whose image is below the target's has image <= T whenever tot[row] >= k (k keys
 * are <= T, so the k-th is): the front end checks that (one read of tot) and otherwise, or
 * when the candidates are too many, falls back to TWO READS. cand keeps x's order here
 * too: the same bits as the radix select of x, whatever T the sample gave.
 * SEARCHSORTED: ss_<dt>: per query, a binary search on the images (GPUX_SO_EQZ) of the
 * sorted keys: left: the first i with img(s[i]) >= img(q); right: the first with >. */
#ifndef GPUX_SELECT_H
#define GPUX_SELECT_H

/* the dtypes: every real dtype and bool */
#define GPUX_SEL_DT(M, a) GPUX_DT_STORAGE(M, a)
#define GPUX_SEL_THREADS 256   /* work-group size of every kernel with a local scan */
#define GPUX_SEL_TILE 4096     /* keys per tile of cnt / emit (16 a work-item) */
#define GPUX_SEL_ST 4          /* uint64 words of state per (row, target) */
#define GPUX_SEL_BINS 257      /* 256 digits and the NaN count */
#define GPUX_SEL_RANK_MAX 4096 /* top-k sorted by ranks up to this k */
#define GPUX_SEL_MAXT 16       /* targets a hist launch takes (the front end batches) */
#define GPUX_SEL_B12 4097      /* hist12's bins: 4096 12-bit prefixes and the NaN count */
/* ssel's sample keys a row, at most: 16 KB of images (32-bit ones up to 32-bit keys) */
#define GPUX_SEL_SNS_W(w) ((w) > 32 ? 2048 : 4096)
#define GPUX_SEL_SNS(dt) GPUX_SEL_SNS_W(GPUX_SEL_W_##dt)
/* kernel names: gpux_select_<kind>_<dt>, and those of no dtype */
#define GPUX_KN_SELECT(kind, dt) "gpux_select_" kind "_" dt
#define GPUX_KN_SELECT_PICK "gpux_select_pick"
#define GPUX_KN_SELECT_SCAN "gpux_select_scan"
#define GPUX_KN_SELECT_PICK12 "gpux_select_pick12"
#define GPUX_KN_SELECT_MAP "gpux_select_map"
#define GPUX_KN_SELECT_GCNT "gpux_select_gcnt"
#define GPUX_SEL_KINDS(X)                                                                  \
  X(ss, 0) X(hist, 1) X(cnt, 2) X(emit, 3) X(rank, 4) X(qfin, 5) X(h12, 6) X(gather, 7)     \
  X(ssel, 8) X(filt, 9)
#define GPUX_SEL_KIND_COUNT 10
#define GPUX_KN_SEL_DT_(N, dt)                                                               \
  N(GPUX_KN_SELECT("ss", #dt)) N(GPUX_KN_SELECT("hist", #dt)) N(GPUX_KN_SELECT("cnt", #dt))  \
  N(GPUX_KN_SELECT("emit", #dt)) N(GPUX_KN_SELECT("rank", #dt))                              \
  N(GPUX_KN_SELECT("qfin", #dt)) N(GPUX_KN_SELECT("h12", #dt))                               \
  N(GPUX_KN_SELECT("gather", #dt)) N(GPUX_KN_SELECT("ssel", #dt))                            \
  N(GPUX_KN_SELECT("filt", #dt))
#define GPUX_KN_SELECT_LIST(N)                                                               \
  GPUX_SEL_DT(GPUX_KN_SEL_DT_, N) N(GPUX_KN_SELECT_PICK) N(GPUX_KN_SELECT_SCAN)              \
  N(GPUX_KN_SELECT_PICK12) N(GPUX_KN_SELECT_MAP) N(GPUX_KN_SELECT_GCNT)
/* qfin modes */
#define GPUX_SEL_MEDIAN 0
#define GPUX_SEL_QUANTILE 1
/* emit modes */
#define GPUX_SEL_TOPK 0
#define GPUX_SEL_PARTITION 1

/* each dtype's key: width in bits, image and inverse (THE ORDER, gpux_sort.h) */
#define GPUX_SEL_W_f32 32
#define GPUX_SEL_W_f64 64
#define GPUX_SEL_W_i32 32
#define GPUX_SEL_W_i64 64
#define GPUX_SEL_W_u8 8
#define GPUX_SEL_W_b8 8
#define GPUX_SEL_W_f16 16
#define GPUX_SEL_W_bf16 16
#define GPUX_SEL_W_i8 8
#define GPUX_SEL_W_i16 16
#define GPUX_SEL_W_u16 16
#define GPUX_SEL_W_u32 32
#define GPUX_SEL_W_u64 64
/* keys of up to 32 bits: the 32-bit image, widened */
#define GPUX_SEL_I32_(b, w, cls, fl, E, M) \
  ((GPUX_SO_U64)gpux_so_img32((GPUX_SO_U32)(b), w, cls, (fl), E, M))
#define GPUX_SEL_IMG_f32(b, fl) \
  GPUX_SEL_I32_(b, 32, GPUX_SO_FLOAT, fl, GPUX_SO_F32_EXP, GPUX_SO_F32_MAN)
#define GPUX_SEL_IMG_f64(b, fl) \
  gpux_so_img((b), 64, GPUX_SO_FLOAT, (fl), GPUX_SO_F64_EXP, GPUX_SO_F64_MAN)
#define GPUX_SEL_IMG_f16(b, fl) \
  GPUX_SEL_I32_(b, 16, GPUX_SO_FLOAT, fl, GPUX_SO_F16_EXP, GPUX_SO_F16_MAN)
#define GPUX_SEL_IMG_bf16(b, fl) \
  GPUX_SEL_I32_(b, 16, GPUX_SO_FLOAT, fl, GPUX_SO_BF16_EXP, GPUX_SO_BF16_MAN)
#define GPUX_SEL_IMG_i32(b, fl) GPUX_SEL_I32_(b, 32, GPUX_SO_SIGNED, fl, 0u, 0u)
#define GPUX_SEL_IMG_i64(b, fl) gpux_so_img((b), 64, GPUX_SO_SIGNED, (fl), 0, 0)
#define GPUX_SEL_IMG_i8(b, fl) GPUX_SEL_I32_(b, 8, GPUX_SO_SIGNED, fl, 0u, 0u)
#define GPUX_SEL_IMG_i16(b, fl) GPUX_SEL_I32_(b, 16, GPUX_SO_SIGNED, fl, 0u, 0u)
#define GPUX_SEL_IMG_u8(b, fl) GPUX_SEL_I32_(b, 8, GPUX_SO_UNSIGNED, fl, 0u, 0u)
#define GPUX_SEL_IMG_b8(b, fl) GPUX_SEL_I32_(b, 8, GPUX_SO_UNSIGNED, fl, 0u, 0u)
#define GPUX_SEL_IMG_u16(b, fl) GPUX_SEL_I32_(b, 16, GPUX_SO_UNSIGNED, fl, 0u, 0u)
#define GPUX_SEL_IMG_u32(b, fl) GPUX_SEL_I32_(b, 32, GPUX_SO_UNSIGNED, fl, 0u, 0u)
#define GPUX_SEL_IMG_u64(b, fl) gpux_so_img((b), 64, GPUX_SO_UNSIGNED, (fl), 0, 0)
/* whether the dtype has NaN (bin 256 counts them) */
#define GPUX_SEL_NAN_f32 1
#define GPUX_SEL_NAN_f64 1
#define GPUX_SEL_NAN_f16 1
#define GPUX_SEL_NAN_bf16 1
#define GPUX_SEL_NAN_i32 0
#define GPUX_SEL_NAN_i64 0
#define GPUX_SEL_NAN_i8 0
#define GPUX_SEL_NAN_i16 0
#define GPUX_SEL_NAN_u8 0
#define GPUX_SEL_NAN_b8 0
#define GPUX_SEL_NAN_u16 0
#define GPUX_SEL_NAN_u32 0
#define GPUX_SEL_NAN_u64 0

#endif
