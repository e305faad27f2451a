/* verify_adapter.h - the exact verifier (tsume.h) behind the composer's VerifyFn. */
#ifndef TSUMEGEN_VERIFY_ADAPTER_H
#define TSUMEGEN_VERIFY_ADAPTER_H
#include <stddef.h>
#include "compose.h"

/* MiB of transposition table per thread (set before the first call). */
extern size_t verify_hash_mb;
/* One df-pn context per OpenMP thread, made on first use. */
int verify_for_compose(const Position *pos, uint64_t node_limit, Verdict *out);

#endif
