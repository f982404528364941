// Does compute-sanitizer's initcheck see cuBLAS's half-precision GEMM writes on the H200?
// C is allocated and never written by anyone but cublasGemmEx (beta = 0, so C is not read);
// then a plain kernel reads every element of C. With every write tracked, initcheck reports
// nothing. The f32 case is the control. Build: nvcc -arch=sm_90 initcheck_cublas.cu -lcublas
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cstdio>

__global__ void sum_half(const __half *c, int n, float *out) {
  float s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += __half2float(c[i]);
  atomicAdd(out, s);
}
__global__ void sum_float(const float *c, int n, float *out) {
  float s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += c[i];
  atomicAdd(out, s);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 64, nn = n * n;
  const bool half = argc > 2 && argv[2][0] == 'h';
  const size_t es = half ? 2 : 4;
  void *a, *b, *c;
  float *out, alpha = 1, beta = 0, host = 0;
  cudaMalloc(&a, nn * es);
  cudaMalloc(&b, nn * es);
  cudaMalloc(&c, nn * es);
  cudaMalloc(&out, sizeof(float));
  cudaMemset(a, 0x3c, nn * es); // 0x3c3c: a finite half; as float32 a small value
  cudaMemset(b, 0x3c, nn * es);
  cudaMemset(out, 0, sizeof(float));
  cublasHandle_t h;
  cublasCreate(&h);
  cudaDataType t = half ? CUDA_R_16F : CUDA_R_32F;
  cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, t, n, b, t,
                                   n, &beta, c, t, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (half) sum_half<<<1, 256>>>((const __half *)c, nn, out);
  else sum_float<<<1, 256>>>((const float *)c, nn, out);
  cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("n=%d %s cublasGemmEx status %d, sum of C %g\n", n, half ? "f16" : "f32", (int)st, host);
  cublasDestroy(h);
  return 0;
}
