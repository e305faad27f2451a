/* proofcheck.h - an independent re-check of a mate verdict (seeds/001, Algorithm 1).
 *
 * It trusts neither the search's move generators nor its table: every attacker move
 * is taken from gen_legal and must leave the defender in check, every defender node
 * expands ALL legal moves (gen_legal, futile drops included: they must be mated too),
 * and every leaf must be in check with no legal move.  The search is only an oracle
 * that suggests which attacker move to try (df_search in plain mode), and the bound
 * (plain proof length) must fall at every attacker move, so the walk is finite.
 * The main line is replayed separately: each attacker move checks, each defender move
 * is legal, and the final position is mate under the futile-drop rule with L(E) = 0
 * (no defence but drops, each capturable with check and still mate without the piece). */
#ifndef TSUMEGEN_PROOFCHECK_H
#define TSUMEGEN_PROOFCHECK_H
#include <stddef.h>
#include "tsume.h"

/* 1 = verified, 0 = a check failed (msg says which), 2 = undecided (limit: the
 * checker's own node budget, or deadline in df_now() seconds, 0 = none). */
int pc_verify(DfCtx *c, Position *pos, const TsAnswer *a, double deadline, char *msg, size_t len);
/* Final-position test of the main line: in check and only futile drops left. */
int pc_final_mate(Position *pos, int attacker, int level);
/* The main line's replay from pos (pv, n plies): every move legal, every attacker
 * move a check, the last position mate (pc_final_mate).  NULL when it plays, else
 * why not; *at (when not NULL) is then the position the reason names. */
const char *pc_replay_line(const Position *pos, const Move *pv, int n, Position *at);

#endif
