/* gpux-omp-bench: the host's own figures for the pocl comparisons -- an OpenMP C loop on
 * every core (OMP_NUM_THREADS) over float32 data, as gpux-bench counts bytes:
 *
 *   gpux-omp-bench [n (default 2^24)] [reps (default 20)]
 *
 *   copy     b[i] = a[i]                                   2 n elements moved
 *   add      c[i] = a[i] + b[i]                            3 n
 *   concat   c = [a, b] (two arrays of n / 2, one loop)    2 n
 *   roll     c[i] = a[(i - n / 3) mod n]                   2 n
 *   pad      c = a (n - 2 w elements) with w copies of its edges on each side, w = min(4096,
 *            n / 4)                                        2 n - 2 w
 *   tile     c = [a, a] (a of n / 2)                       1.5 n
 *   repeat   c[i] = a[i / 2] (a of n / 2)                  1.5 n
 * (as gpux-bench's rows of the same names count them)
 *
 * Each loop runs reps times after 3 warm-up runs (pages touched, threads started); the figure
 * is the median GB/s (10^9 bytes per second). The buffers are first touched by the same
 * static schedule that runs the loops. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1L << 24;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  if (n < 2 || reps < 1) return 2;
  float *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n),
        *c = malloc(sizeof *c * (size_t)n);
  double *t = malloc(sizeof *t * (size_t)reps);
  if (!a || !b || !c || !t) return 1;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++) {
    a[i] = (float)(i & 1023);
    b[i] = 1.0f;
    c[i] = 0.0f;
  }
  static const char *names[7] = {"copy", "add", "concat", "roll", "pad", "tile", "repeat"};
  const long w = n / 4 < 4096 ? n / 4 : 4096, m = n - 2 * w, h = n / 2, s = n / 3;
  const double moved[7] = {2, 3, 2, 2, (double)(n + m) / (double)n, 1.5, 1.5};
  for (int op = 0; op < 7; op++) {
    for (int r = -3; r < reps; r++) {
      double t0 = now();
      if (op == 0) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) b[i] = a[i];
      } else if (op == 1) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
      } else if (op == 2) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = i < h ? a[i] : b[i - h];
      } else if (op == 3) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i >= s ? i - s : i - s + n];
      } else if (op == 4) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i < w ? 0 : i - w >= m ? m - 1 : i - w];
      } else if (op == 5) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i < h ? i : i - h];
      } else {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i / 2];
      }
      if (r >= 0) t[r] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    double med = t[reps / 2];
    printf("omp %-8s float32 n=%ld threads=%d median %.3f ms %.1f GB/s\n", names[op], n,
           omp_get_max_threads(), med * 1e3, moved[op] * 4.0 * (double)n / med / 1e9);
  }
  free(a);
  free(b);
  free(c);
  free(t);
  return 0;
}
