/* gpux tests: DLPack (include/gpux/dlpack.h), both ABIs. gpux -> DLPack -> gpux round trips
 * on the device (no copy: a write through one side shows on the other), host tensors copied
 * in, read-only tensors copied, every dtype, strided and reversed layouts, empty and 0-d
 * arrays, and the deleter's contract: once, after the last gpux reference; at once for a
 * copy; never on a refused tensor (but for another DLPack major version, given back). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#ifdef GPUX_TEST_HAVE_DLPACK
#include "gpux/dlpack.h"

/* ---- counting the deleter's calls ------------------------------------------------------ */
static int g_calls;
static void (*g_orig_v)(DLManagedTensorVersioned *);
static void (*g_orig_l)(DLManagedTensor *);
static void counting_v(DLManagedTensorVersioned *t) {
  g_calls++;
  if (g_orig_v) g_orig_v(t);
}
static void counting_l(DLManagedTensor *t) {
  g_calls++;
  if (g_orig_l) g_orig_l(t);
}
static DLManagedTensorVersioned *export_counted(gpux_array_t a) {
  DLManagedTensorVersioned *t = NULL;
  GT_OK(gpux_array_to_dlpack(&t, a));
  g_orig_v = t->deleter;
  t->deleter = counting_v;
  g_calls = 0;
  return t;
}
static DLManagedTensor *export_counted_l(gpux_array_t a) {
  DLManagedTensor *t = NULL;
  GT_OK(gpux_array_to_dlpack_legacy(&t, a));
  g_orig_l = t->deleter;
  t->deleter = counting_l;
  g_calls = 0;
  return t;
}

static int expected_device_type(void) {
  gpux_backend_kind k;
  GT_OK(gpux_context_backend(&k, gt_ctx));
  return k == GPUX_BACKEND_CUDA ? kDLCUDA : kDLOpenCL;
}

static void read_f32(gpux_array_t a, float *out, int64_t n) {
  gpux_array_t c = NULL;
  GT_OK(gpux_array_contiguous(&c, a));
  GT_OK(gpux_array_read(c, out, (size_t)n * 4));
  gpux_array_release(c);
}

/* ---- cases -------------------------------------------------------------------------------- */
/* A reversed-rows view exported: the fields, then imported back on the same memory */
static void test_round_trip(void **state) {
  (void)state;
  for (int legacy = 0; legacy < 2; legacy++) {
    const int64_t shape[2] = {3, 5}, n = 15;
    float h[15], got[15], got2[15];
    gt_fill_random(h, GPUX_FLOAT32, n, GT_DOM_ANY, 3 + legacy);
    gpux_array_t a = NULL, v = NULL, b = NULL, twice = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, shape, h));
    const int64_t start[2] = {-1, 0}, stop[2] = {INT64_MIN, 5}, step[2] = {-1, 1};
    GT_OK(gpux_array_slice(&v, a, start, stop, step));
    DLManagedTensorVersioned *tv = NULL;
    DLManagedTensor *tl = NULL;
    DLTensor *t;
    if (legacy) {
      tl = export_counted_l(v);
      t = &tl->dl_tensor;
    } else {
      tv = export_counted(v);
      t = &tv->dl_tensor;
      GT_ASSERT(tv->version.major == DLPACK_MAJOR_VERSION && tv->flags == 0, "version, flags");
    }
    GT_ASSERT(t->ndim == 2 && t->shape[0] == 3 && t->shape[1] == 5, "shape");
    GT_ASSERT(t->strides[0] == -5 && t->strides[1] == 1, "strides %lld %lld",
              (long long)t->strides[0], (long long)t->strides[1]);
    GT_ASSERT(t->dtype.code == kDLFloat && t->dtype.bits == 32 && t->dtype.lanes == 1, "dtype");
    GT_ASSERT((int)t->device.device_type == expected_device_type(), "device type %d",
              (int)t->device.device_type);
    GT_ASSERT(t->data != NULL && t->byte_offset == 10 * 4, "data, byte_offset %llu",
              (unsigned long long)t->byte_offset);
    /* the tensor keeps the memory: the arrays may go first */
    gpux_array_release(v);
    gpux_array_release(a);
    if (legacy) GT_OK(gpux_array_from_dlpack_legacy(&b, gt_ctx, tl));
    else GT_OK(gpux_array_from_dlpack(&b, gt_ctx, tv));
    read_f32(b, got, n);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 5; j++)
        GT_ASSERT(got[i * 5 + j] == h[(2 - i) * 5 + j], "[%d, %d]", i, j);
    /* the same memory: b = 2 b, seen through a second export of b */
    GT_OK(gpux_binary(&twice, GPUX_ADD, b, b));
    GT_OK(gpux_array_copy_into(b, twice));
    gpux_array_t b2 = NULL;
    DLManagedTensorVersioned *t2 = NULL;
    GT_OK(gpux_array_to_dlpack(&t2, b));
    GT_OK(gpux_array_from_dlpack(&b2, gt_ctx, t2));
    read_f32(b2, got2, n);
    for (int i = 0; i < 15; i++) GT_ASSERT(got2[i] == 2 * got[i], "shared memory");
    GT_ASSERT(g_calls == 0, "the deleter ran while gpux holds the tensor");
    gpux_array_release(b2);
    gpux_array_release(twice);
    gpux_array_release(b);
    GT_ASSERT(g_calls == 1, "the deleter ran %d times", g_calls);
  }
}

/* Every dtype, both ways */
static void test_dtypes(void **state) {
  (void)state;
#define DT_ITEM(a, dt) (gpux_dtype)GPUX_KDT_##dt,
  static const gpux_dtype dts[] = {GPUX_DT_CAST(DT_ITEM, _)}; /* every dtype, complex too */
#undef DT_ITEM
  for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
    const gpux_dtype dt = dts[k];
    if (!gt_dtype_available(dt)) continue;
    const int64_t n = 37;
    const size_t es = gpux_dtype_size(dt);
    unsigned char h[37 * 16], got[37 * 16];
    gt_fill_random(h, dt, n, GT_DOM_ANY, 50 + k);
    gpux_array_t a = NULL, b = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, h));
    DLManagedTensorVersioned *t = export_counted(a);
    GT_ASSERT(t->dl_tensor.dtype.bits == es * 8, "%s: bits", gt_dtype_str(dt));
    const int cplx = dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128;
    GT_ASSERT((t->dl_tensor.dtype.code == kDLComplex) == cplx, "%s: code %d", gt_dtype_str(dt),
              (int)t->dl_tensor.dtype.code);
    GT_OK(gpux_array_from_dlpack(&b, gt_ctx, t));
    gpux_dtype got_dt;
    GT_OK(gpux_array_dtype(&got_dt, b));
    GT_ASSERT(got_dt == dt, "%s came back as %s", gt_dtype_str(dt), gt_dtype_str(got_dt));
    GT_OK(gpux_array_read(b, got, (size_t)n * es));
    GT_ASSERT(!memcmp(got, h, (size_t)n * es), "%s: values", gt_dtype_str(dt));
    gpux_array_release(a);
    gpux_array_release(b);
    GT_ASSERT(g_calls == 1, "%s: deleter calls %d", gt_dtype_str(dt), g_calls);
  }
}

/* Host tensors (kDLCPU, kDLCUDAHost) are copied in and handed back at once */
typedef struct host_tensor {
  DLManagedTensorVersioned t;
  int64_t shape[2], strides[2];
  int32_t data[24];
} host_tensor;
static int g_host_calls;
static void host_deleter(DLManagedTensorVersioned *self) {
  g_host_calls++;
  memset(((host_tensor *)self)->data, 0, sizeof ((host_tensor *)self)->data);
}
static void make_host(host_tensor *h, int device_type) {
  memset(h, 0, sizeof *h);
  for (int i = 0; i < 24; i++) h->data[i] = i * 7 - 30;
  h->shape[0] = 4;
  h->shape[1] = 6;
  h->strides[0] = 1; /* the transpose of a 6 x 4 row-major block */
  h->strides[1] = 4;
  h->t.version.major = DLPACK_MAJOR_VERSION;
  h->t.version.minor = DLPACK_MINOR_VERSION;
  h->t.deleter = host_deleter;
  DLTensor *t = &h->t.dl_tensor;
  t->data = h->data;
  t->device.device_type = (DLDeviceType)device_type;
  t->device.device_id = 0;
  t->ndim = 2;
  t->dtype.code = kDLInt;
  t->dtype.bits = 32;
  t->dtype.lanes = 1;
  t->shape = h->shape;
  t->strides = h->strides;
}
static void test_import_host(void **state) {
  (void)state;
  static const int types[2] = {kDLCPU, kDLCUDAHost};
  for (int k = 0; k < 2; k++) {
    host_tensor h;
    make_host(&h, types[k]);
    int32_t want[24], got[24];
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 6; j++) want[i * 6 + j] = h.data[i + 4 * j];
    gpux_array_t a = NULL;
    g_host_calls = 0;
    GT_OK(gpux_array_from_dlpack(&a, gt_ctx, &h.t));
    GT_ASSERT(g_host_calls == 1, "the host tensor went back %d times", g_host_calls);
    GT_OK(gpux_array_read(a, got, sizeof got));
    GT_ASSERT(!memcmp(got, want, sizeof got), "host tensor contents");
    gpux_array_release(a);
  }
  /* legacy, NULL strides (contiguous), uint8 */
  uint8_t bytes[5] = {1, 2, 250, 0, 7}, back[5];
  int64_t sh = 5;
  DLManagedTensor l = {0};
  l.dl_tensor.data = bytes;
  l.dl_tensor.device.device_type = kDLCPU;
  l.dl_tensor.ndim = 1;
  l.dl_tensor.dtype.code = kDLUInt;
  l.dl_tensor.dtype.bits = 8;
  l.dl_tensor.dtype.lanes = 1;
  l.dl_tensor.shape = &sh;
  gpux_array_t a = NULL;
  GT_OK(gpux_array_from_dlpack_legacy(&a, gt_ctx, &l)); /* no deleter: nothing to call */
  GT_OK(gpux_array_read(a, back, sizeof back));
  GT_ASSERT(!memcmp(back, bytes, 5), "legacy host tensor");
  gpux_array_release(a);
}

/* A read-only device tensor is copied: the tensor goes back at once, writes stay apart */
/* a versioned host tensor (kDLCPU) with no deleter: it lives on the caller's stack */
static void dl_host(DLManagedTensorVersioned *m, void *data, uint8_t code, uint8_t bits,
                    int ndim, int64_t *shape, int64_t *strides) {
  memset(m, 0, sizeof *m);
  m->version.major = DLPACK_MAJOR_VERSION;
  m->version.minor = DLPACK_MINOR_VERSION;
  m->dl_tensor.data = data;
  m->dl_tensor.device.device_type = kDLCPU;
  m->dl_tensor.ndim = ndim;
  m->dl_tensor.dtype.code = code;
  m->dl_tensor.dtype.bits = bits;
  m->dl_tensor.dtype.lanes = 1;
  m->dl_tensor.shape = shape;
  m->dl_tensor.strides = strides;
}

/* a complex128 host tensor with transposed strides comes in as its values */
static void test_import_host_complex(void **state) {
  (void)state;
  if (!gt_dtype_available(GPUX_COMPLEX128)) skip();
  gpux_complex128 data[12], got[12];
  int64_t shape[2] = {3, 4}, strides[2] = {1, 3}; /* the transpose of a 4 x 3 block */
  for (int i = 0; i < 12; i++) data[i] = gpux_complex128_make(i * 1.5 - 4.0, -i * 0.25);
  DLManagedTensorVersioned m;
  dl_host(&m, data, kDLComplex, 128, 2, shape, strides);
  gpux_array_t a = NULL;
  GT_OK(gpux_array_from_dlpack(&a, gt_ctx, &m));
  gpux_dtype dt;
  GT_OK(gpux_array_dtype(&dt, a));
  assert_int_equal(dt, GPUX_COMPLEX128);
  GT_OK(gpux_array_read(a, got, sizeof got));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      GT_ASSERT(!memcmp(&got[i * 4 + j], &data[i + 3 * j], sizeof got[0]), "element (%d, %d)", i,
                j);
  gpux_array_release(a);
}

static void test_import_read_only(void **state) {
  (void)state;
  const int64_t n = 9;
  float h[9], got[9];
  gt_fill_random(h, GPUX_FLOAT32, n, GT_DOM_ANY, 9);
  gpux_array_t a = NULL, b = NULL, z = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 1, &n, h));
  DLManagedTensorVersioned *t = export_counted(a);
  t->flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
  GT_OK(gpux_array_from_dlpack(&b, gt_ctx, t));
  GT_ASSERT(g_calls == 1, "a copied tensor goes back at once (%d calls)", g_calls);
  GT_OK(gpux_array_zeros(&z, gt_ctx, GPUX_FLOAT32, 1, &n));
  GT_OK(gpux_array_copy_into(b, z));
  GT_OK(gpux_array_read(a, got, sizeof got));
  GT_ASSERT(!memcmp(got, h, sizeof got), "a write to the copy reached the original");
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(z);
}

/* A broadcast view (stride 0, as PyTorch's expand makes) is copied, on the device and from
 * the host */
static void test_import_broadcast(void **state) {
  (void)state;
  const int64_t n = 5;
  float h[5] = {1.5f, -2, 3, 0.25f, 8}, got[15];
  gpux_array_t a = NULL, b = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 1, &n, h));
  DLManagedTensorVersioned *t = export_counted(a);
  /* a (3, 5) view of the 5 values: rows repeat */
  int64_t shape[2] = {3, 5}, strides[2] = {0, 1};
  t->dl_tensor.ndim = 2;
  t->dl_tensor.shape = shape;
  t->dl_tensor.strides = strides;
  GT_OK(gpux_array_from_dlpack(&b, gt_ctx, t));
  GT_ASSERT(g_calls == 1, "a copied broadcast view goes back at once (%d calls)", g_calls);
  GT_OK(gpux_array_read(b, got, sizeof got));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 5; j++) GT_ASSERT(got[i * 5 + j] == h[j], "[%d, %d]", i, j);
  gpux_array_release(b);
  gpux_array_release(a);
  /* the same from host memory */
  DLManagedTensorVersioned ht;
  dl_host(&ht, h, kDLFloat, 32, 2, shape, strides);
  GT_OK(gpux_array_from_dlpack(&b, gt_ctx, &ht));
  GT_OK(gpux_array_read(b, got, sizeof got));
  for (int i = 0; i < 15; i++) GT_ASSERT(got[i] == h[i % 5], "host broadcast [%d]", i);
  gpux_array_release(b);
}

/* Empty and 0-d arrays */
static void test_empty_and_scalar(void **state) {
  (void)state;
  const int64_t zero[2] = {3, 0};
  gpux_array_t e = NULL, s = NULL, b = NULL;
  GT_OK(gpux_array_empty(&e, gt_ctx, GPUX_INT64, 2, zero));
  DLManagedTensorVersioned *t = export_counted(e);
  GT_ASSERT(t->dl_tensor.data == NULL && t->dl_tensor.shape[1] == 0, "empty: data NULL");
  GT_OK(gpux_array_from_dlpack(&b, gt_ctx, t));
  GT_ASSERT(g_calls == 1, "an empty tensor goes back at once");
  int64_t size = -1;
  GT_OK(gpux_array_size(&size, b));
  GT_ASSERT(size == 0, "empty size");
  gpux_array_release(b);
  gpux_array_release(e);
  const double v = 2.75;
  GT_OK(gpux_array_from_host(&s, gt_ctx, GPUX_FLOAT32, 0, NULL, &(float){(float)v}));
  t = export_counted(s);
  GT_ASSERT(t->dl_tensor.ndim == 0, "0-d");
  GT_OK(gpux_array_from_dlpack(&b, gt_ctx, t));
  float got = 0;
  GT_OK(gpux_array_read(b, &got, sizeof got));
  GT_ASSERT(got == 2.75f, "0-d value");
  gpux_array_release(s);
  gpux_array_release(b);
  GT_ASSERT(g_calls == 1, "0-d deleter calls %d", g_calls);
}

/* Refused tensors stay the caller's (no deleter call), but another major version */
static void test_import_errors(void **state) {
  (void)state;
  const int64_t n = 4;
  gpux_array_t a = NULL, b = NULL;
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_FLOAT32, 1, &n));
  DLManagedTensorVersioned *t = export_counted(a);
  DLTensor saved = t->dl_tensor;
  t->dl_tensor.dtype.lanes = 2;
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_array_from_dlpack(&b, gt_ctx, t));
  t->dl_tensor = saved;
  t->dl_tensor.dtype.code = kDLComplex; /* of 32 bits: no gpux dtype */
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_array_from_dlpack(&b, gt_ctx, t));
  t->dl_tensor = saved;
  t->dl_tensor.device.device_type = kDLVulkan;
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED, gpux_array_from_dlpack(&b, gt_ctx, t));
  t->dl_tensor = saved;
  t->dl_tensor.device.device_type =
      expected_device_type() == kDLCUDA ? kDLOpenCL : kDLCUDA; /* the other backend's */
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED, gpux_array_from_dlpack(&b, gt_ctx, t));
  t->dl_tensor = saved;
  t->dl_tensor.device.device_id += 1;
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_from_dlpack(&b, gt_ctx, t));
  t->dl_tensor = saved;
  t->dl_tensor.ndim = GPUX_MAX_DIMS + 1;
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_from_dlpack(&b, gt_ctx, t));
  t->dl_tensor = saved;
  t->dl_tensor.byte_offset = 2;
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_from_dlpack(&b, gt_ctx, t));
  t->dl_tensor = saved;
  int64_t big = (int64_t)1 << 24; /* more elements than the memory holds */
  t->dl_tensor.shape = &big;
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_from_dlpack(&b, gt_ctx, t));
  t->dl_tensor = saved;
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_array_from_dlpack(&b, gt_ctx, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_array_from_dlpack(NULL, gt_ctx, t));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_array_from_dlpack(&b, NULL, t));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_array_to_dlpack(NULL, a));
  GT_ASSERT(b == NULL && g_calls == 0, "a refused tensor was taken (%d deleter calls)", g_calls);
  /* another major version: given back */
  t->version.major = DLPACK_MAJOR_VERSION + 1;
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED, gpux_array_from_dlpack(&b, gt_ctx, t));
  GT_ASSERT(g_calls == 1, "a tensor of another major version went back %d times", g_calls);
  gpux_array_release(a);
}

int main(void) {
  gt_init("test_dlpack");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),        cmocka_unit_test(test_dtypes),
      cmocka_unit_test(test_import_host),       cmocka_unit_test(test_import_read_only),
      cmocka_unit_test(test_empty_and_scalar),  cmocka_unit_test(test_import_errors),
      cmocka_unit_test(test_import_broadcast),  cmocka_unit_test(test_import_host_complex),
  };
  int failed = gt_run("dlpack", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
#else
int main(void) {
  printf("test_dlpack: gpux was built without a DLPack 1.x header\n");
  return GT_EXIT_SKIP;
}
#endif
