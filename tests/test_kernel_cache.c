/* gpux tests: the on-disk cache of user programs (include/gpux/kernel.h, src/api/cache.c).
 *
 * Every case points GPUX_CACHE_DIR at a fresh temporary directory of its own (the cache
 * reads the variable on each access), builds a dialect kernel, checks where the binary came
 * from (gpux_program_origin_of) and that the kernel computes the right values, and looks at
 * the directory: one valid entry per program, no temporary files left. gpux's cache is on
 * for every OpenCL device, pocl included, unless GPUX_CACHE_POCL=0: main() makes sure it is
 * on.
 *
 * The concurrent cases re-execute this binary (/proc/self/exe) with KC_CHILD_ENV set: each
 * child opens a context, reports ready, waits for a start file, then builds and runs the
 * kernel, so the builds into one cache directory overlap. */
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KC_N 1000
#define KC_BLOCK 64u
#define KC_A 2.0f
#define KC_CHILDREN 4
#define KC_CHILD_ENV "GPUX_TEST_KC_CHILD" /* the sync directory; set: run as a child */
#define KC_INDEX_ENV "GPUX_TEST_KC_INDEX"
#define KC_BARRIER_S 120.0 /* a child gives up waiting for the start file after this */

extern char **environ;

/* ------------------------------------------------------------------ the kernel */

/* y[i] = a * x[i] + (variant + KC_OFFSET + i % 7): every value an exact small float, so the
 * check is exact on any device. `variant` changes the source text, -DKC_OFFSET=k the
 * options. */
static char *kc_source(int variant) {
  static const char fmt[] =
      "#ifndef KC_OFFSET\n"
      "#define KC_OFFSET 0\n"
      "#endif\n"
      "GPUX_KERNEL kc_axpb(GPUX_GLOBAL const float *x, GPUX_GLOBAL float *y, const float a,\n"
      "                    const int n) {\n"
      "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
      "  if (i < n) y[i] = a * x[i] + (float)(%d + KC_OFFSET + (int)(i %% 7));\n"
      "}\n";
  size_t cap = sizeof fmt + 32;
  char *s = gt_malloc(cap);
  snprintf(s, cap, fmt, variant);
  return s;
}

static float kc_x(int i) { return (float)(i % 100) - 50.0f; }
static float kc_want(int i, int variant, int offset) {
  return KC_A * kc_x(i) + (float)(variant + offset + i % 7);
}

/* x, and y poisoned. Uploads only: a built-in kernel (fill) would be built and, on OpenCL,
 * cached too, adding entries to the directories under test. */
static void kc_inputs(float *x, float *y) {
  for (int i = 0; i < KC_N; i++) x[i] = kc_x(i);
  memset(y, GT_POISON_BYTE, KC_N * sizeof *y);
}

static const char *origin_str(gpux_program_origin o) {
  switch (o) {
    case GPUX_PROGRAM_COMPILED: return "COMPILED";
    case GPUX_PROGRAM_DISK_CACHE: return "DISK_CACHE";
    case GPUX_PROGRAM_MEMORY_CACHE: return "MEMORY_CACHE";
  }
  return "?";
}

/* ------------------------------------------------------------------ handles
 * Everything a case creates is tracked, so a failing check (which leaves the test through
 * cmocka's longjmp) still releases it in the teardown. */
#define KC_MAX 48
static struct {
  gpux_kernel_t k[KC_MAX];
  gpux_program_t p[KC_MAX];
  gpux_array_t a[KC_MAX];
  gpux_context_t c[KC_MAX];
  int nk, np, na, nc;
} tr;

static void tr_release_all(void) {
  for (int i = 0; i < tr.nk; i++) gpux_kernel_release(tr.k[i]);
  for (int i = 0; i < tr.na; i++) gpux_array_release(tr.a[i]);
  for (int i = 0; i < tr.np; i++) gpux_program_release(tr.p[i]);
  for (int i = 0; i < tr.nc; i++) gpux_context_release(tr.c[i]);
  memset(&tr, 0, sizeof tr);
}

#define TR_ADD(list, n, h)                                          \
  do {                                                              \
    GT_ASSERT((n) < KC_MAX, "test bug: more than %d handles", KC_MAX); \
    (list)[(n)++] = (h);                                            \
  } while (0)

/* A new context on gt_ctx's backend and device (a fresh memory cache). */
static gpux_context_t new_ctx(void) {
  gpux_context_t c = gt_context_new();
  TR_ADD(tr.c, tr.nc, c);
  return c;
}

/* Builds variant `variant` with `options` in c and checks the origin (want < 0: any). */
static gpux_program_t build(gpux_context_t c, int variant, const char *options, int want,
                            const char *label) {
  gpux_program_t p = NULL;
  char *src = kc_source(variant);
  gpux_status s = gpux_program_create(&p, c, GPUX_SOURCE_DIALECT, src, options);
  free(src);
  GT_ASSERT(s == GPUX_SUCCESS, "%s: gpux_program_create returned %s: %s", label,
            gpux_status_name(s), gpux_last_error_message());
  TR_ADD(tr.p, tr.np, p);
  gpux_program_origin o;
  GT_OK(gpux_program_origin_of(&o, p));
  if (want >= 0)
    GT_ASSERT((int)o == want, "%s: program origin %s, expected %s", label, origin_str(o),
              origin_str((gpux_program_origin)want));
  if (o == GPUX_PROGRAM_DISK_CACHE) { /* documented: "" when the binary came from a cache */
    const char *log = NULL;
    GT_OK(gpux_program_build_log(&log, p));
    GT_ASSERT(log && !log[0], "%s: a program from the disk cache has a build log: \"%s\"", label,
              log ? log : "(null)");
  }
  return p;
}

/* Runs kc_axpb of p on KC_N elements and checks every output against the host. */
static void run_check(gpux_context_t c, gpux_program_t p, int variant, int offset,
                      const char *label) {
  float x[KC_N], y[KC_N];
  int64_t shape[1] = {KC_N};
  kc_inputs(x, y);
  gpux_array_t ax = NULL, ay = NULL;
  gpux_kernel_t k = NULL;
  GT_OK(gpux_array_from_host(&ax, c, GPUX_FLOAT32, 1, shape, x));
  TR_ADD(tr.a, tr.na, ax);
  GT_OK(gpux_array_from_host(&ay, c, GPUX_FLOAT32, 1, shape, y));
  TR_ADD(tr.a, tr.na, ay);
  GT_OK(gpux_kernel_create(&k, p, "kc_axpb"));
  TR_ADD(tr.k, tr.nk, k);
  gpux_arg args[4] = {gpux_arg_array(ax), gpux_arg_array(ay), gpux_arg_f32(KC_A),
                      gpux_arg_i32(KC_N)};
  uint64_t grid[1] = {(KC_N + KC_BLOCK - 1) / KC_BLOCK};
  uint32_t block[1] = {KC_BLOCK};
  GT_OK(gpux_kernel_call(k, 1, grid, block, 4, args));
  GT_OK(gpux_array_read(ay, y, sizeof y));
  for (int i = 0; i < KC_N; i++)
    GT_ASSERT(y[i] == kc_want(i, variant, offset), "%s: y[%d] = %g, expected %g", label, i,
              (double)y[i], (double)kc_want(i, variant, offset));
}

/* A new context, build (origin checked), run and check. */
static void cycle(int variant, const char *options, int offset, int want, const char *label) {
  gpux_context_t c = new_ctx();
  gpux_program_t p = build(c, variant, options, want, label);
  run_check(c, p, variant, offset, label);
}

/* ------------------------------------------------------------------ files */

static void path_join(char *out, size_t cap, const char *dir, const char *name) {
  int n = snprintf(out, cap, "%s/%s", dir, name);
  GT_ASSERT(n > 0 && (size_t)n < cap, "test bug: path too long: %s/%s", dir, name);
}

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Counts the entries (*.bin) and temporary files (*.tmp.*) in dir; the first entry's path
 * goes to entry (when not NULL). A missing directory counts as empty. */
static void scan_dir(const char *dir, int *nbin, int *ntmp, char *entry, size_t cap) {
  *nbin = *ntmp = 0;
  if (entry) entry[0] = '\0';
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strstr(e->d_name, ".tmp.")) {
      (*ntmp)++;
    } else if (ends_with(e->d_name, ".bin")) {
      if (*nbin == 0 && entry) snprintf(entry, cap, "%s/%s", dir, e->d_name);
      (*nbin)++;
    }
  }
  closedir(d);
}

static void expect_entries(const char *dir, int want, const char *label) {
  int nbin, ntmp;
  scan_dir(dir, &nbin, &ntmp, NULL, 0);
  GT_ASSERT(nbin == want, "%s: %d entries in %s, expected %d", label, nbin, dir, want);
  GT_ASSERT(ntmp == 0, "%s: %d temporary files left in %s", label, ntmp, dir);
}

static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  GT_ASSERT(f != NULL, "cannot open %s: %s", path, strerror(errno));
  GT_ASSERT(fseek(f, 0, SEEK_END) == 0, "fseek %s", path);
  long n = ftell(f);
  GT_ASSERT(n >= 0, "ftell %s", path);
  rewind(f);
  unsigned char *buf = gt_malloc((size_t)n);
  size_t got = n ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  GT_ASSERT(got == (size_t)n, "short read of %s", path);
  *len = (size_t)n;
  return buf;
}

static void write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  GT_ASSERT(f != NULL, "cannot write %s: %s", path, strerror(errno));
  size_t put = len ? fwrite(data, 1, len, f) : 0;
  GT_ASSERT(fclose(f) == 0 && put == len, "writing %s failed", path);
}

/* The entry format of src/api/cache.c, checked independently: a 40-byte header (magic
 * "GPUXCAC1", the two key hashes that also name the file, the payload size, FNV-1a of the
 * payload) and exactly `size` bytes of payload. */
static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

static void expect_valid_entry(const char *path, const char *label) {
  size_t len;
  unsigned char *buf = read_file(path, &len);
  uint64_t hdr[4];
  int ok = len >= 40 && memcmp(buf, "GPUXCAC1", 8) == 0;
  if (ok) {
    memcpy(hdr, buf + 8, sizeof hdr);
    char name[64];
    snprintf(name, sizeof name, "%016llx%016llx.bin", (unsigned long long)hdr[0],
             (unsigned long long)hdr[1]);
    const char *base = strrchr(path, '/');
    ok = base && strcmp(base + 1, name) == 0 && hdr[2] == len - 40 && hdr[2] > 0 &&
         hdr[3] == fnv1a(buf + 40, len - 40);
  }
  free(buf);
  GT_ASSERT(ok, "%s: %s is not a valid cache entry (%zu bytes)", label, path, len);
}

/* The directory's one entry, checked valid. */
static void the_entry(const char *dir, char *entry, size_t cap, const char *label) {
  int nbin, ntmp;
  scan_dir(dir, &nbin, &ntmp, entry, cap);
  GT_ASSERT(nbin == 1 && ntmp == 0, "%s: %d entries and %d temporary files in %s, expected 1 and 0",
            label, nbin, ntmp, dir);
  expect_valid_entry(entry, label);
}

/* rm -r (directories made writable first: the read-only case) */
static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    chmod(path, 0755);
    DIR *d = opendir(path);
    if (d) {
      struct dirent *e;
      while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        remove_tree(sub);
      }
      closedir(d);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

/* Regular files anywhere below dir. */
static int count_files(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(sub, &st) != 0) continue;
    n += S_ISDIR(st.st_mode) ? count_files(sub) : 1;
  }
  closedir(d);
  return n;
}

static void make_dir(const char *path) {
  GT_ASSERT(mkdir(path, 0755) == 0, "mkdir %s: %s", path, strerror(errno));
}

static void sleep_ms(double ms) {
  struct timespec ts = {(time_t)(ms / 1000), (long)((ms - 1000.0 * (time_t)(ms / 1000)) * 1e6)};
  nanosleep(&ts, NULL);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* ------------------------------------------------------------------ fixture */

typedef struct kc_env {
  char *name, *value; /* value NULL: was unset */
} kc_env;
static kc_env g_saved[3] = {{"GPUX_CACHE_DIR", NULL}, {"HOME", NULL}, {"XDG_CACHE_HOME", NULL}};
static char g_tmp[1024];   /* this case's temporary directory */
static char g_cache[1200]; /* <tmp>/cache, GPUX_CACHE_DIR unless the case changes it */

static void set_cache_dir(const char *dir) { GT_ASSERT(setenv("GPUX_CACHE_DIR", dir, 1) == 0, "setenv"); }

static int setup(void **state) {
  (void)state;
  for (int i = 0; i < 3; i++) {
    const char *v = getenv(g_saved[i].name);
    g_saved[i].value = v ? strdup(v) : NULL;
  }
  const char *base = getenv("TMPDIR");
  snprintf(g_tmp, sizeof g_tmp, "%s/gpux-kc-XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(g_tmp)) {
    print_error("mkdtemp(%s): %s\n", g_tmp, strerror(errno));
    return -1;
  }
  snprintf(g_cache, sizeof g_cache, "%s/cache", g_tmp);
  if (mkdir(g_cache, 0755) != 0 || setenv("GPUX_CACHE_DIR", g_cache, 1) != 0) return -1;
  return 0;
}

static int teardown(void **state) {
  (void)state;
  tr_release_all();
  for (int i = 0; i < 3; i++) {
    if (g_saved[i].value) setenv(g_saved[i].name, g_saved[i].value, 1);
    else unsetenv(g_saved[i].name);
    free(g_saved[i].value);
    g_saved[i].value = NULL;
  }
  remove_tree(g_tmp);
  return 0;
}

/* ------------------------------------------------------------------ cases */

/* Cold build, then disk hits from new contexts; options and source are part of the key. */
static void test_cold_then_disk(void **state) {
  (void)state;
  expect_entries(g_cache, 0, "fresh directory");
  gpux_context_t c = new_ctx();
  gpux_program_t p = build(c, 1, NULL, GPUX_PROGRAM_COMPILED, "cold build");
  char entry[4096];
  the_entry(g_cache, entry, sizeof entry, "after the cold build");
  run_check(c, p, 1, 0, "cold build");

  cycle(1, NULL, 0, GPUX_PROGRAM_DISK_CACHE, "same source, new context");
  expect_entries(g_cache, 1, "after the disk hit");

  cycle(1, "-DKC_OFFSET=5", 5, GPUX_PROGRAM_COMPILED, "other options");
  expect_entries(g_cache, 2, "after other options");
  cycle(1, "-DKC_OFFSET=5", 5, GPUX_PROGRAM_DISK_CACHE, "other options, new context");

  cycle(2, NULL, 0, GPUX_PROGRAM_COMPILED, "other source");
  expect_entries(g_cache, 3, "after other source");
  cycle(2, NULL, 0, GPUX_PROGRAM_DISK_CACHE, "other source, new context");
  cycle(1, NULL, 0, GPUX_PROGRAM_DISK_CACHE, "first source again, new context");
  expect_entries(g_cache, 3, "at the end");
}

/* The same program twice in one context is built once, also after the first handle went. */
static void test_memory_cache(void **state) {
  (void)state;
  gpux_context_t c = new_ctx();
  gpux_program_t p1 = build(c, 3, NULL, GPUX_PROGRAM_COMPILED, "first build");
  gpux_program_t p2 = build(c, 3, NULL, GPUX_PROGRAM_MEMORY_CACHE, "same source, same context");
  run_check(c, p2, 3, 0, "memory hit");
  run_check(c, p1, 3, 0, "first handle");
  gpux_program_origin o;
  GT_OK(gpux_program_origin_of(&o, p1));
  GT_ASSERT(o == GPUX_PROGRAM_COMPILED, "the first handle's origin changed to %s", origin_str(o));
  tr_release_all(); /* handles and context gone; a new context has an empty memory cache */

  c = new_ctx();
  gpux_program_t p = build(c, 3, NULL, GPUX_PROGRAM_DISK_CACHE, "new context");
  gpux_program_release(p);
  tr.np--; /* released above: the context's memory cache still holds the program */
  p = build(c, 3, NULL, GPUX_PROGRAM_MEMORY_CACHE, "after releasing the only handle");
  run_check(c, p, 3, 0, "memory hit after release");
  build(c, 3, "-DKC_OFFSET=1", GPUX_PROGRAM_COMPILED, "other options, same context");
  expect_entries(g_cache, 2, "memory cache case");
}

/* Damages the directory's one entry with `damage`, then: a new context rebuilds (COMPILED,
 * right output), the entry is valid again, and the next context loads it. */
typedef enum { DMG_FLIP, DMG_HALF, DMG_TEN, DMG_ZERO, DMG_GARBAGE } damage_kind;
static const char *const damage_names[] = {"flipped bytes", "truncated to half",
                                           "truncated to 10 bytes", "truncated to 0 bytes",
                                           "random bytes"};

static void damage_entry(const char *entry, damage_kind dmg, uint64_t seed) {
  size_t len;
  unsigned char *buf = read_file(entry, &len);
  gt_rng r;
  gt_rng_seed(&r, seed);
  switch (dmg) {
    case DMG_FLIP:
      for (size_t i = len / 2; i < len / 2 + 16 && i < len; i++) buf[i] ^= 0x5A;
      break;
    case DMG_HALF: len /= 2; break;
    case DMG_TEN: len = len < 10 ? len : 10; break;
    case DMG_ZERO: len = 0; break;
    case DMG_GARBAGE:
      for (size_t i = 0; i < len; i++) buf[i] = (unsigned char)gt_rng_u64(&r);
      break;
  }
  write_file(entry, buf, len);
  free(buf);
}

static void test_damaged_entries(void **state) {
  (void)state;
  char entry[4096], again[4096], label[128];
  cycle(4, NULL, 0, GPUX_PROGRAM_COMPILED, "first build");
  the_entry(g_cache, entry, sizeof entry, "first build");
  for (int dmg = DMG_FLIP; dmg <= DMG_GARBAGE; dmg++) {
    damage_entry(entry, (damage_kind)dmg, 77 + (uint64_t)dmg);
    snprintf(label, sizeof label, "entry with %s", damage_names[dmg]);
    cycle(4, NULL, 0, GPUX_PROGRAM_COMPILED, label);
    the_entry(g_cache, again, sizeof again, label);
    GT_ASSERT(strcmp(entry, again) == 0, "%s: the entry was rewritten as %s, not %s", label,
              again, entry);
    snprintf(label, sizeof label, "after the entry with %s was rewritten", damage_names[dmg]);
    cycle(4, NULL, 0, GPUX_PROGRAM_DISK_CACHE, label);
    tr_release_all();
  }
}

/* GPUX_CACHE_DIR=off: nothing is read or written, neither there nor in the default places. */
static void test_cache_off(void **state) {
  (void)state;
  char home[1200], xdg[1200];
  path_join(home, sizeof home, g_tmp, "home");
  path_join(xdg, sizeof xdg, g_tmp, "xdg");
  make_dir(home);
  make_dir(xdg);
  GT_ASSERT(setenv("HOME", home, 1) == 0 && setenv("XDG_CACHE_HOME", xdg, 1) == 0, "setenv");
  set_cache_dir("off");
  cycle(5, NULL, 0, GPUX_PROGRAM_COMPILED, "cache off");
  gpux_context_t c = new_ctx();
  build(c, 5, NULL, GPUX_PROGRAM_COMPILED, "cache off, new context");
  gpux_program_t p = build(c, 5, NULL, GPUX_PROGRAM_MEMORY_CACHE, "cache off, same context");
  run_check(c, p, 5, 0, "cache off, memory hit");
  int n = count_files(g_tmp);
  GT_ASSERT(n == 0, "GPUX_CACHE_DIR=off: %d files were written below %s", n, g_tmp);
  /* and the directories a cache would default to were not made */
  char d1[1400], d2[1400];
  path_join(d1, sizeof d1, xdg, "gpux");
  path_join(d2, sizeof d2, home, ".cache");
  GT_ASSERT(!file_exists(d1) && !file_exists(d2), "GPUX_CACHE_DIR=off: a default cache directory was created");
}

/* A cache directory that does not exist yet is created (with its parents). */
static void test_missing_dir(void **state) {
  (void)state;
  char dir[1400];
  path_join(dir, sizeof dir, g_tmp, "not/there/yet");
  set_cache_dir(dir);
  cycle(6, NULL, 0, GPUX_PROGRAM_COMPILED, "missing directory");
  char entry[4096];
  the_entry(dir, entry, sizeof entry, "missing directory");
  cycle(6, NULL, 0, GPUX_PROGRAM_DISK_CACHE, "created directory, new context");
}

/* A cache directory below a regular file cannot exist: builds work, uncached, silently. */
static void test_unusable_dir(void **state) {
  (void)state;
  char file[1200], dir[1400];
  path_join(file, sizeof file, g_tmp, "file");
  write_file(file, "not a directory\n", 16);
  path_join(dir, sizeof dir, file, "sub");
  set_cache_dir(dir);
  cycle(7, NULL, 0, GPUX_PROGRAM_COMPILED, "unusable directory");
  cycle(7, NULL, 0, GPUX_PROGRAM_COMPILED, "unusable directory, new context");
  size_t len;
  unsigned char *buf = read_file(file, &len);
  int same = len == 16 && memcmp(buf, "not a directory\n", 16) == 0;
  free(buf);
  GT_ASSERT(same, "the regular file in the cache path was modified");
  /* and a usable directory afterwards works normally (the cache reads the variable each time) */
  set_cache_dir(g_cache);
  cycle(7, NULL, 0, GPUX_PROGRAM_COMPILED, "usable directory again");
  cycle(7, NULL, 0, GPUX_PROGRAM_DISK_CACHE, "usable directory again, new context");
}

/* A read-only directory: builds work; existing entries are still read. As root permissions
 * are not enforced, so then only "it works" is checked. */
static void test_readonly_dir(void **state) {
  (void)state;
  int root = geteuid() == 0;
  char ro[1200], entry[4096];
  /* (a) empty and read-only */
  path_join(ro, sizeof ro, g_tmp, "ro");
  make_dir(ro);
  GT_ASSERT(chmod(ro, 0555) == 0, "chmod %s: %s", ro, strerror(errno));
  set_cache_dir(ro);
  cycle(8, NULL, 0, GPUX_PROGRAM_COMPILED, "empty read-only directory");
  cycle(8, NULL, 0, root ? -1 : GPUX_PROGRAM_COMPILED, "empty read-only directory, new context");
  if (!root) expect_entries(ro, 0, "empty read-only directory");

  /* (b) a valid entry, then read-only: still a hit */
  set_cache_dir(g_cache);
  cycle(9, NULL, 0, GPUX_PROGRAM_COMPILED, "writable directory");
  the_entry(g_cache, entry, sizeof entry, "writable directory");
  GT_ASSERT(chmod(g_cache, 0555) == 0, "chmod %s: %s", g_cache, strerror(errno));
  cycle(9, NULL, 0, GPUX_PROGRAM_DISK_CACHE, "valid entry in a read-only directory");
  tr_release_all();

  /* (c) a corrupt entry in a read-only directory: it cannot be removed or replaced; the
   * build still works, every time */
  GT_ASSERT(chmod(g_cache, 0755) == 0, "chmod %s: %s", g_cache, strerror(errno));
  damage_entry(entry, DMG_FLIP, 1);
  GT_ASSERT(chmod(g_cache, 0555) == 0, "chmod %s: %s", g_cache, strerror(errno));
  cycle(9, NULL, 0, GPUX_PROGRAM_COMPILED, "corrupt entry in a read-only directory");
  cycle(9, NULL, 0, root ? -1 : GPUX_PROGRAM_COMPILED,
        "corrupt entry in a read-only directory, new context");
  GT_ASSERT(chmod(g_cache, 0755) == 0, "chmod %s: %s", g_cache, strerror(errno));
}

/* ------------------------------------------------------------------ concurrent processes */

#define KC_RACE_VARIANT 10

/* Child mode: open a context, say ready, wait for the start file, build and run. Exit 0 on
 * success, 1 on failure (printed), 77 without a device. */
static int child_main(const char *sync) {
  const char *idx = getenv(KC_INDEX_ENV);
  char ready[4200], start[4200];
  gpux_context_t c = NULL;
  gpux_program_t p = NULL;
  gpux_kernel_t k = NULL;
  gpux_array_t ax = NULL, ay = NULL;
  gpux_program_origin o = GPUX_PROGRAM_MEMORY_CACHE;
  float x[KC_N], y[KC_N];
  int64_t shape[1] = {KC_N};
  uint64_t grid[1] = {(KC_N + KC_BLOCK - 1) / KC_BLOCK};
  uint32_t block[1] = {KC_BLOCK};
  gpux_arg args[4];
  char *src = kc_source(KC_RACE_VARIANT);
  double t0;
  int rc = 1, fd;
  const char *what = "gpux_context_create";
  idx = idx ? idx : "?";
  snprintf(ready, sizeof ready, "%s/ready.%s", sync, idx);
  snprintf(start, sizeof start, "%s/start", sync);
  gpux_status s = gpux_context_create(&c, GPUX_BACKEND_DEFAULT, -1);
  if (s == GPUX_ERROR_BACKEND_UNAVAILABLE || s == GPUX_ERROR_NO_DEVICE) {
    rc = 77;
    goto done;
  }
  if (s != GPUX_SUCCESS) goto fail;
  kc_inputs(x, y);
  what = "gpux_array_from_host";
  if ((s = gpux_array_from_host(&ax, c, GPUX_FLOAT32, 1, shape, x)) != GPUX_SUCCESS ||
      (s = gpux_array_from_host(&ay, c, GPUX_FLOAT32, 1, shape, y)) != GPUX_SUCCESS)
    goto fail;
  what = "gpux_context_synchronize";
  if ((s = gpux_context_synchronize(c)) != GPUX_SUCCESS) goto fail;
  /* ready; then all build at once */
  if ((fd = open(ready, O_CREAT | O_WRONLY, 0644)) >= 0) close(fd);
  t0 = now_s();
  while (!file_exists(start)) {
    if (now_s() - t0 > KC_BARRIER_S) {
      fprintf(stderr, "child %s: no start file after %.0f s\n", idx, KC_BARRIER_S);
      goto done;
    }
    sleep_ms(0.2);
  }
  what = "gpux_program_create";
  if ((s = gpux_program_create(&p, c, GPUX_SOURCE_DIALECT, src, NULL)) != GPUX_SUCCESS) goto fail;
  gpux_program_origin_of(&o, p);
  what = "gpux_kernel_create";
  if ((s = gpux_kernel_create(&k, p, "kc_axpb")) != GPUX_SUCCESS) goto fail;
  args[0] = gpux_arg_array(ax);
  args[1] = gpux_arg_array(ay);
  args[2] = gpux_arg_f32(KC_A);
  args[3] = gpux_arg_i32(KC_N);
  what = "gpux_kernel_call";
  if ((s = gpux_kernel_call(k, 1, grid, block, 4, args)) != GPUX_SUCCESS) goto fail;
  what = "gpux_array_read";
  if ((s = gpux_array_read(ay, y, sizeof y)) != GPUX_SUCCESS) goto fail;
  for (int i = 0; i < KC_N; i++)
    if (y[i] != kc_want(i, KC_RACE_VARIANT, 0)) {
      fprintf(stderr, "child %s: y[%d] = %g, expected %g\n", idx, i, (double)y[i],
              (double)kc_want(i, KC_RACE_VARIANT, 0));
      goto done;
    }
  printf("child %s: built (%s) and ran correctly\n", idx, origin_str(o));
  fflush(stdout);
  rc = 0;
  goto done;
fail:
  fprintf(stderr, "child %s: %s failed: %s: %s\n", idx, what, gpux_status_name(s),
          gpux_last_error_message());
done:
  gpux_kernel_release(k);
  gpux_array_release(ax);
  gpux_array_release(ay);
  gpux_program_release(p);
  gpux_context_release(c);
  free(src);
  return rc;
}

/* Starts KC_CHILDREN children on GPUX_CACHE_DIR = g_cache, releases them at once, and
 * checks that all succeeded. */
static void race(const char *label) {
  char sync[1200], start[1400], self[4096];
  path_join(sync, sizeof sync, g_tmp, "sync");
  if (!file_exists(sync)) make_dir(sync);
  path_join(start, sizeof start, sync, "start");
  unlink(start);
  for (int i = 0; i < KC_CHILDREN; i++) {
    char r[1500];
    snprintf(r, sizeof r, "%s/ready.%d", sync, i);
    unlink(r);
  }
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  GT_ASSERT(sl > 0, "readlink /proc/self/exe: %s", strerror(errno));
  self[sl] = '\0';

  /* the children's environment: ours (GPUX_CACHE_DIR, GPUX_CACHE_POCL, GPUX_BACKEND, ...)
   * plus the child flags; built before fork, the child only calls execve */
  int nenv = 0;
  while (environ[nenv]) nenv++;
  char **envs[KC_CHILDREN];
  char flag[1400], index[KC_CHILDREN][32], pocl[KC_CHILDREN][1500];
  snprintf(flag, sizeof flag, "%s=%s", KC_CHILD_ENV, sync);
  pid_t pids[KC_CHILDREN];
  for (int i = 0; i < KC_CHILDREN; i++) {
    envs[i] = gt_malloc((size_t)(nenv + 4) * sizeof(char *));
    int m = 0;
    for (int j = 0; j < nenv; j++)
      if (strncmp(environ[j], KC_CHILD_ENV "=", strlen(KC_CHILD_ENV) + 1) &&
          strncmp(environ[j], KC_INDEX_ENV "=", strlen(KC_INDEX_ENV) + 1) &&
          strncmp(environ[j], "POCL_CACHE_DIR=", 15))
        envs[i][m++] = environ[j];
    snprintf(index[i], sizeof index[i], "%s=%d", KC_INDEX_ENV, i);
    envs[i][m++] = flag;
    envs[i][m++] = index[i];
    /* pocl's own kernel cache is not safe across processes that build the same program at
     * once (pocl issues #430, #1480: a child crashed in CI now and then); what races here is
     * gpux's cache, so each child gets a pocl cache of its own */
    char dir[1400];
    snprintf(dir, sizeof dir, "%s/pocl.%d", sync, i);
    if (!file_exists(dir)) make_dir(dir);
    snprintf(pocl[i], sizeof pocl[i], "POCL_CACHE_DIR=%s", dir);
    envs[i][m++] = pocl[i];
    envs[i][m] = NULL;
  }
  fflush(stdout);
  fflush(stderr);
  int started = 0;
  for (int i = 0; i < KC_CHILDREN; i++) {
    char *argv[] = {"test_kernel_cache", NULL};
    pid_t pid = fork();
    if (pid == 0) {
      execve(self, argv, envs[i]);
      _exit(127);
    }
    if (pid < 0) break;
    pids[started++] = pid;
  }
  for (int i = 0; i < KC_CHILDREN; i++) free(envs[i]);

  /* barrier: wait until every child has its context, then start them all */
  double t0 = now_s();
  int ready = 0;
  while (started == KC_CHILDREN && now_s() - t0 < KC_BARRIER_S) {
    ready = 0;
    for (int i = 0; i < KC_CHILDREN; i++) {
      char r[1500];
      snprintf(r, sizeof r, "%s/ready.%d", sync, i);
      ready += file_exists(r);
    }
    if (ready == KC_CHILDREN) break;
    sleep_ms(1);
  }
  int fd = open(start, O_CREAT | O_WRONLY, 0644);
  if (fd >= 0) close(fd);
  int bad = 0;
  for (int i = 0; i < started; i++) {
    int st = 0;
    if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      print_error("%s: child %d ended with %s %d\n", label, i,
                  WIFEXITED(st) ? "exit status" : "signal",
                  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
      bad++;
    }
  }
  GT_ASSERT(started == KC_CHILDREN, "%s: fork failed: %s", label, strerror(errno));
  GT_ASSERT(ready == KC_CHILDREN, "%s: only %d of %d children got ready", label, ready,
            KC_CHILDREN);
  GT_ASSERT(bad == 0, "%s: %d of %d children failed", label, bad, KC_CHILDREN);
}

static void test_concurrent_processes(void **state) {
  (void)state;
  char entry[4096];
  race("racing on an empty cache");
  the_entry(g_cache, entry, sizeof entry, "after the race");
  cycle(KC_RACE_VARIANT, NULL, 0, GPUX_PROGRAM_DISK_CACHE, "after the race");
}

static void test_concurrent_corrupt(void **state) {
  (void)state;
  char entry[4096];
  cycle(KC_RACE_VARIANT, NULL, 0, GPUX_PROGRAM_COMPILED, "before the race");
  the_entry(g_cache, entry, sizeof entry, "before the race");
  tr_release_all();
  damage_entry(entry, DMG_FLIP, 3);
  race("racing on a corrupt entry");
  the_entry(g_cache, entry, sizeof entry, "after the race on a corrupt entry");
  cycle(KC_RACE_VARIANT, NULL, 0, GPUX_PROGRAM_DISK_CACHE, "after the race on a corrupt entry");
}

int main(void) {
  /* gpux's cache on pocl too, whatever the environment says (before any context exists) */
  setenv("GPUX_CACHE_POCL", "1", 1);
  const char *sync = getenv(KC_CHILD_ENV);
  if (sync && *sync) return child_main(sync);
  gt_init("test_kernel_cache");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_cold_then_disk, setup, teardown),
      cmocka_unit_test_setup_teardown(test_memory_cache, setup, teardown),
      cmocka_unit_test_setup_teardown(test_damaged_entries, setup, teardown),
      cmocka_unit_test_setup_teardown(test_cache_off, setup, teardown),
      cmocka_unit_test_setup_teardown(test_missing_dir, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unusable_dir, setup, teardown),
      cmocka_unit_test_setup_teardown(test_readonly_dir, setup, teardown),
      cmocka_unit_test_setup_teardown(test_concurrent_processes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_concurrent_corrupt, setup, teardown),
  };
  int failed = gt_run("kernel_cache", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
