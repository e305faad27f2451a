/* vcache.h - the composer's verdict cache: every board the GA has verified,
 * keyed by its exact SFEN, with the node budget that gave the verdict.
 *
 * A GA generation repeats many boards of earlier ones (parents survive crossover
 * unchanged, the archive feeds the same perfect problems back), and the verifier
 * is deterministic for a board and a budget, so a cached verdict is exactly what
 * a new call with the same budget would return; one from a larger budget (a
 * second look) is at least as decided.  The cache is append-only on disk
 * (OUT/verdicts.bin) so that --resume sees the same verdicts as a straight run. */
#ifndef TSUMEGEN_VCACHE_H
#define TSUMEGEN_VCACHE_H
#include <stdint.h>
#include <stdio.h>
#include "compose.h"

typedef struct VCache VCache;

VCache *vcache_new(void);
void vcache_free(VCache *c);
/* The verdict cached for sfen if it came from a budget of at least node_limit:
 * copied into *out (pv included), its budget returned; 0 when there is none. */
uint64_t vcache_get(const VCache *c, const char *sfen, uint64_t node_limit, Verdict *out);
/* The budget of the cached verdict for sfen (0: none). */
uint64_t vcache_budget(const VCache *c, const char *sfen);
/* Keeps v (from budget node_limit) unless a verdict from a larger budget is
 * cached.  Returns 0, or -1 when out of memory (the cache is then unchanged). */
int vcache_put(VCache *c, const char *sfen, const Verdict *v, uint64_t node_limit);
/* Appends the entries put since the last call (or since load) to f and flushes
 * it; returns 0, or -1 on a write error. */
int vcache_append(VCache *c, FILE *f);
/* Reads a file written by vcache_append (a truncated last record is ignored).
 * Returns the number of records read, or -1 when f is not a verdict cache. */
long vcache_load(VCache *c, FILE *f);
long vcache_size(const VCache *c);

#endif
