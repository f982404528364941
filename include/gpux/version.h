/* gpux: version macros and the symbol export macro. */
#ifndef GPUX_VERSION_H
#define GPUX_VERSION_H

#define GPUX_VERSION_MAJOR 0
#define GPUX_VERSION_MINOR 1
#define GPUX_VERSION_PATCH 0
#define GPUX_VERSION_NUMBER \
  (GPUX_VERSION_MAJOR * 10000 + GPUX_VERSION_MINOR * 100 + GPUX_VERSION_PATCH)
#define GPUX__STR2(x) #x
#define GPUX__STR(x) GPUX__STR2(x)
#define GPUX_VERSION_STRING \
  GPUX__STR(GPUX_VERSION_MAJOR) "." GPUX__STR(GPUX_VERSION_MINOR) "." GPUX__STR(GPUX_VERSION_PATCH)

/* Symbols are hidden by default (-fvisibility=hidden); only GPUX_API ones are exported. */
#if defined(GPUX_STATIC_DEFINE)
#define GPUX_API
#elif defined(_WIN32)
#if defined(GPUX_BUILDING)
#define GPUX_API __declspec(dllexport)
#else
#define GPUX_API __declspec(dllimport)
#endif
#else
#define GPUX_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* "MAJOR.MINOR.PATCH" of the library actually loaded (may differ from the header). */
GPUX_API const char *gpux_version_string(void);
GPUX_API unsigned gpux_version_number(void);
#ifdef __cplusplus
}
#endif
#endif
