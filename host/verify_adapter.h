/* verify_adapter.h - the exact verifier (tsume.h) behind the composer's VerifyFn. */
#ifndef TSUMEGEN_VERIFY_ADAPTER_H
#define TSUMEGEN_VERIFY_ADAPTER_H
#include <stddef.h>
#include "compose.h"

/* MiB of transposition table per thread (set before the first call). */
extern size_t verify_hash_mb;
/* One df-pn context per OpenMP thread, made on first use. */
int verify_for_compose(const Position *pos, uint64_t node_limit, Verdict *out);
/* The independent proof checker (proofcheck.h) on a verdict's main line and proof
 * tree: 1 passed, 0 failed, 2 undecided (its node budget); msg says why not. */
int proofcheck_for_compose(const Position *pos, const Verdict *v, char *msg, size_t len);

#endif
