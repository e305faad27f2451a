/* platform.h - the common subset of C11 and OpenCL C 1.2 that core/ is written in.
 *
 * Everything in core/ includes this first.  On the host it maps to <stdint.h> and
 * GCC builtins; under an OpenCL compiler it maps to the built-in vector-free types
 * and functions.  Rules for core code: fixed-width types only, no 128-bit integers,
 * no ctz (use lsb64 below), no VLAs, no recursion, no libc calls. */
#ifndef TSUMEGEN_PLATFORM_H
#define TSUMEGEN_PLATFORM_H

#ifdef __OPENCL_C_VERSION__
typedef uchar uint8_t;
typedef char int8_t;
typedef ushort uint16_t;
typedef short int16_t;
typedef uint uint32_t;
typedef int int32_t;
typedef ulong uint64_t;
typedef long int64_t;
/* Read-only tables live in constant memory, which serves one address per cycle:
 * lookups indexed by each work-item's own square serialise on GPUs.  With
 * program-scope global variables (OpenCL C 2.0, or 3.0 with that feature) the
 * host may build with -DTG_TABLES_GLOBAL to put them in global memory, read
 * through the cache like any buffer. */
#ifdef TG_TABLES_GLOBAL
#define TG_CONST __global const
#else
#define TG_CONST __constant
#endif
#define TG_INLINE static inline
#define TG_ASSERT(x) ((void)0)
static inline int popcount64(uint64_t x) { return (int)popcount(x); }
/* OpenCL C 1.2 has clz but no ctz: isolate the lowest bit, then count from the top. */
static inline int lsb64(uint64_t x) { return 63 - (int)clz(x & (0 - x)); }
static inline int msb64(uint64_t x) { return 63 - (int)clz(x); }
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#define TG_CONST const
#define TG_INLINE static inline
#ifdef TG_DEBUG
#include <assert.h>
#define TG_ASSERT(x) assert(x)
#else
#define TG_ASSERT(x) ((void)0)
#endif
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int lsb64(uint64_t x) { return __builtin_ctzll(x); }
static inline int msb64(uint64_t x) { return 63 - __builtin_clzll(x); }
#endif

#endif
