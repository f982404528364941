/* On-disk cache of compiled kernel binaries, offered to backends through gpux__host_iface.
 * Directory: GPUX_CACHE_DIR ("off" disables), else $XDG_CACHE_HOME/gpux, else ~/.cache/gpux.
 * An entry is written to a temporary file and renamed, so concurrent processes never see
 * half a file; a header with the key hash, the size and a checksum is verified on load and
 * a bad entry is removed. Any fault costs speed only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

static const char magic[8] = {'G', 'P', 'U', 'X', 'C', 'A', 'C', '1'};

typedef struct header {
  char magic[8];
  uint64_t key_a, key_b, size, checksum;
} header;

uint64_t gpux__fnv1a(const void *p, size_t n, uint64_t h) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

static void key_hash(const void *key, size_t len, uint64_t *a, uint64_t *b) {
  static const char ver[] = GPUX_VERSION_STRING;
  *a = gpux__fnv1a(ver, sizeof ver, gpux__fnv1a(key, len, 14695981039346656037ull));
  *b = gpux__fnv1a(ver, sizeof ver, gpux__fnv1a(key, len, 0x9e3779b97f4a7c15ull));
}

/* mkdir -p; returns 0 when the directory exists afterwards */
static int make_dirs(char *path) {
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        *p = '/';
        return -1;
      }
      *p = '/';
    }
  return (mkdir(path, 0755) == 0 || errno == EEXIST) ? 0 : -1;
}

static int cache_dir(char *out, size_t len) {
  const char *env = getenv("GPUX_CACHE_DIR");
  if (env && *env) {
    if (strcmp(env, "off") == 0) return -1;
    snprintf(out, len, "%s", env);
  } else if ((env = getenv("XDG_CACHE_HOME")) && *env) {
    snprintf(out, len, "%s/gpux", env);
  } else if ((env = getenv("HOME")) && *env) {
    snprintf(out, len, "%s/.cache/gpux", env);
  } else {
    return -1;
  }
  return make_dirs(out);
}

static int entry_path(char *out, size_t len, uint64_t a, uint64_t b) {
  char dir[3072];
  if (cache_dir(dir, sizeof dir) != 0) return -1;
  int n = snprintf(out, len, "%s/%016llx%016llx.bin", dir, (unsigned long long)a, (unsigned long long)b);
  return n > 0 && (size_t)n < len ? 0 : -1;
}

int gpux__cache_load(const void *key, size_t key_len, void **data, size_t *size) {
  uint64_t a, b;
  char path[4096];
  key_hash(key, key_len, &a, &b);
  if (entry_path(path, sizeof path, a, b) != 0) return 0;
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  header h;
  void *buf = NULL;
  int ok = 0;
  if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, magic, sizeof magic) || h.key_a != a ||
      h.key_b != b || h.size == 0 || h.size > ((uint64_t)1 << 32))
    goto done;
  buf = malloc((size_t)h.size);
  if (!buf || fread(buf, 1, (size_t)h.size, f) != h.size || fgetc(f) != EOF ||
      gpux__fnv1a(buf, (size_t)h.size, 14695981039346656037ull) != h.checksum)
    goto done;
  ok = 1;
done:
  fclose(f);
  if (!ok) {
    free(buf);
    unlink(path); /* corrupt or truncated: rebuild next time */
    return 0;
  }
  *data = buf;
  *size = (size_t)h.size;
  return 1;
}

void gpux__cache_store(const void *key, size_t key_len, const void *data, size_t size) {
  uint64_t a, b;
  char path[4096], tmp[4200];
  if (!data || !size) return;
  key_hash(key, key_len, &a, &b);
  if (entry_path(path, sizeof path, a, b) != 0) return;
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%p", path, (long)getpid(), (void *)&a);
  FILE *f = fopen(tmp, "wb");
  if (!f) return;
  header h;
  memcpy(h.magic, magic, sizeof magic);
  h.key_a = a;
  h.key_b = b;
  h.size = size;
  h.checksum = gpux__fnv1a(data, size, 14695981039346656037ull);
  int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(data, 1, size, f) == size;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) unlink(tmp);
}
