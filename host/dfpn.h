/* dfpn.h - depth-limited df-pn mate search with a shared transposition table.
 *
 * One engine answers "can the attacker mate within D plies?" for an OR node
 * (attacker to move) or "is every defence mated within D plies?" for an AND node.
 * Two rule modes share the table (entries are keyed apart):
 *   DF_PLAIN   every legal evasion is a defence (ordinary mate).  Entries are keyed by
 *              board+side and carry hands, so lookups use hand superiority (more
 *              attacker pieces: still mate; fewer: still no mate).  A proof is stored
 *              with its proof hand (the pieces the attacker needs), with the drop
 *              correction: at a defender node in check from a distant slider, a kind
 *              the defender could interpose but does not hold makes the proof need all
 *              of the attacker's pieces of that kind.  When every piece kind is complete
 *              (the hand convention) the defender's hand follows from the attacker's and
 *              is not compared.  Interposing drops on one square are searched one kind
 *              at a time (the next joins when the previous is proven).
 *   DF_FUTILE  TSUME_RULES.md's futile-interposition rule: drops between king and a
 *              distant slider that the attacker can capture and then mate within L(E)
 *              without the captured piece are not defences.  Exact keys only (lengths
 *              under this rule are not monotone in the attacker's hand).
 * Mate/no-mate is the same in both modes (a futile drop is still mated); lengths
 * under DF_FUTILE are never longer than under DF_PLAIN.  So a futile-rule lookup
 * also takes plain proofs, plain absolute no-mates, and plain "no mate within d"
 * entries whose disproof never used a drop as the refuting defence (tracked per
 * entry): the futile rule only takes drops away from the defender.
 *
 * Internally a third rule, the plain rule without the defender's drops, answers
 * "no mate within d" first in the length search and the futility tests: its
 * disproofs hold under both rules above, found with hand superiority and no
 * futility test (dfpn.c, nodrop_disproves).
 *
 * Repetition: an OR node whose position already lies on the current path (or in the
 * caller's forbidden set) is a failure for the attacker.  Disproofs that depend on
 * such a cut (flag DF_REP) are path-dependent and are never stored in the table;
 * disproofs that hit the depth bound (DF_DEPTH) are stored as "no mate within d" only.
 * A root disproof with neither flag is an absolute no-mate; with DF_REP only it is
 * still exact for the root (a shortest mate never repeats a position), never cached. */
#ifndef TSUMEGEN_DFPN_H
#define TSUMEGEN_DFPN_H
#include <stdatomic.h>
#include <stddef.h>
#include "../core/movegen.h"

enum { DF_PLAIN = 0, DF_FUTILE = 1 };
enum { DF_UNKNOWN = 0, DF_PROVEN = 1, DF_DISPROVEN = 2 };
enum { DF_REP = 1, DF_DEPTH = 2 };
#define DF_MAX_DEPTH 1001   /* deepest "mate within" bound a query may ask */

typedef struct {
    int result;   /* DF_PROVEN, DF_DISPROVEN or DF_UNKNOWN (node/time limit, ply stack) */
    int len;      /* proven: the length of the proof found (an upper bound of the exact length) */
    int flags;    /* disproven: DF_REP / DF_DEPTH as above */
    Move best;    /* df_probe of a proof: the move it starts with, where the entry keeps one */
} DfResult;

typedef struct DfCtx DfCtx;

/* A context owns one table (hash_mb MiB) and per-ply buffers; one per thread. */
DfCtx *df_new(size_t hash_mb);
void df_free(DfCtx *c);
/* A second context on owner's table (its own stacks, futility and repetition
 * caches), for a second thread on the same problem; freed with df_free, before
 * its owner. */
DfCtx *df_new_helper(DfCtx *owner);
/* Between these two calls owner and helper search one problem at once: the
 * helper takes owner's generation, attacker, deadline and repetition mode (no
 * node limit), the table locks each cluster it touches, and either context
 * aborts once *stop is non-zero.  End: helper's nodes count as owner's, owner's
 * abort flag is cleared and its limits are (node_limit, deadline). */
void df_share_begin(DfCtx *owner, DfCtx *helper, const atomic_int *stop);
void df_share_end(DfCtx *owner, DfCtx *helper, uint64_t node_limit, double deadline);
/* A thread of a shared search is done with the table (before it waits for the
 * other): a table that grows meanwhile need not wait for it. */
void df_share_leave(DfCtx *c);
/* work(arg, x, me) on owner (me 0) and helper (me 1) at once, two threads sharing
 * owner's table (df_share_begin to df_share_end; owner's limits after: no node
 * limit, its deadline before).  Returns the threads the runtime gave: 2, or 1, and
 * then owner alone ran work, which must take every item itself (a queue both
 * threads draw from does). */
int df_share_run(DfCtx *owner, DfCtx *helper, void (*work)(void *arg, DfCtx *x, int me), void *arg);
/* The table grows (doubling, up to max_mb) whenever its stores have evicted an
 * eighth of its capacity since it last changed; 0 (the default): fixed.  For a lone
 * problem, whose search length nobody knows ahead; a sharing helper follows. */
void df_set_grow(DfCtx *c, size_t max_mb);
/* Each growth said on stderr ("trace: table grown to ..."; solve --trace). */
void df_set_grow_trace(DfCtx *c, int on);
/* df_set_grow's table has room to grow still. */
int df_table_can_grow(const DfCtx *c);
/* The table's size in MiB (df_new's hash_mb, or what growth made of it). */
size_t df_table_mb(const DfCtx *c);
/* The other thread of a shared search asked this one to stop, or df_interrupt ran. */
int df_stopped(const DfCtx *c);
/* Stops every search of every context at its next limit check, as a limit would
 * (their answers are unknown), for the rest of the process: solve's Ctrl-C.  Safe
 * in a signal handler. */
void df_interrupt(void);
/* Undoes df_interrupt; only while no search runs (usi: before each go mate). */
void df_clear_interrupt(void);
int df_interrupted(void);
/* on: c's searches run on to their own limits after df_interrupt (the last short
 * searches that finish an answer: the found mate's line after usi's stop); off
 * (the default) again after them. */
void df_past_interrupt(DfCtx *c, int on);
/* Starts a new problem: attacker colour, limits (0 = none; deadline in seconds of
 * CLOCK_MONOTONIC, 0 = none).  Old table entries are invalidated (generation). */
void df_begin(DfCtx *c, int attacker, uint64_t node_limit, double deadline);
/* df_begin without the new generation: the entries stay (df_table_load's). */
void df_begin_keep(DfCtx *c, int attacker, uint64_t node_limit, double deadline);
/* A problem's table on disk (dfpn_file.c, solve --table).  df_table_tag: the key a
 * file must carry to be read for root (its position, this build's entry layout and
 * Zobrist keys).  df_table_save writes the current generation's entries (path.tmp,
 * then renamed): their count, or -1 with a message in err.  df_table_load, after
 * df_begin for root: the entries put in the table (*dropped: those a smaller table
 * had no room for), -2 when path does not exist, -1 with a message (a damaged file,
 * another problem's: nothing of it stays in the table). */
uint64_t df_table_tag(const Position *root);
long long df_table_save(const DfCtx *c, const char *path, uint64_t tag, char *err, size_t errlen);
long long df_table_load(DfCtx *c, const char *path, uint64_t tag, long long *dropped, char *err, size_t errlen);
/* True once a limit was hit: every later query answers DF_UNKNOWN. */
int df_aborted(const DfCtx *c);
/* New limits (total nodes of this problem, absolute deadline) and a cleared abort flag. */
void df_set_limits(DfCtx *c, uint64_t node_limit, double deadline);
uint64_t df_nodes(const DfCtx *c);
/* The deadline of c's searches (df_begin's or df_set_limits'; 0 = none). */
double df_deadline(const DfCtx *c);
/* fn(arg, nodes) from inside the search each time this context's node count is a
 * multiple of every (a power of two; fn NULL: none), for a progress display; nodes
 * include a sharing helper's as it last published them.  It runs on the searching
 * thread and must be quick. */
typedef void (*DfProgressFn)(void *arg, uint64_t nodes);
void df_set_progress(DfCtx *c, DfProgressFn fn, void *arg, uint64_t every);
/* The root's length bounds so far, for that display: df_note_bounds keeps the
 * shortest mate found (0: none) and the highest proven "no mate in fewer plies"
 * (1: nothing yet) it is told of; df_begin resets them.  The exact length is
 * mate_found == at_least.  df_bounds_text says what they prove ("exact 45", "mate
 * 29 found, at least 15", "no mate below 7"; "" when nothing yet). */
void df_note_bounds(DfCtx *c, int mate_found, int at_least);
void df_bounds_text(const DfCtx *c, char *buf, size_t len);
/* What the search does after the length, for that display too ("余詰 test, ply 3
 * 2b3b"; NULL or "": nothing named); df_begin clears it. */
void df_set_phase(DfCtx *c, const char *what);
const char *df_phase(const DfCtx *c);

/* The query: mate within `depth` plies from pos (OR if pos->side is the attacker). */
DfResult df_search(DfCtx *c, Position *pos, int depth, int mode);
/* Table lookup only (no search): DF_PROVEN / DF_DISPROVEN if an entry settles it. */
DfResult df_probe(DfCtx *c, const Position *pos, int depth, int mode);
/* The plain bound whose "no mate within" at defender node pos (the defender to move)
 * the table hands to the futile rule's "no mate within d" there: 2d + 2h + 2, h the
 * defender's pieces in hand (a futile-rule mate within d is a plain one within
 * that); at most DF_MAX_DEPTH. */
int df_plain_depth_for_futile(const Position *pos, int d);
/* Forbidden positions (full pos_key) for the next queries: reaching one is a
 * failure for the attacker (used for the detour test of 余詰).  n = 0 clears. */
void df_set_forbidden(DfCtx *c, const uint64_t *keys, int n);
/* on = 1: queries skip the path-repetition test (only for bounded depths: every
 * disproof is then a plain "no mate within d" and is cached).  Returns the
 * previous setting. */
int df_set_no_rep(DfCtx *c, int on);
/* How OR nodes near the bound of a query are settled (the same answers; other
 * levels are for tests and measurements): 0 searched like any other node, 1 one
 * ply from the bound by the mate-in-1 scan, 2 (the default) also three plies from
 * it, by the scan after each check and defence. */
void df_set_last_ply(DfCtx *c, int level);
/* The 1+epsilon trick's epsilon, 1/div (default 4: 1/4): how far a child's numbers
 * may pass its best sibling's before the search switches.  A larger epsilon (div 1)
 * re-expands less where a disproof is expected (the walk's settling searches). */
#define DF_EPSILON_DIV 4  /* the default: epsilon 1/4 */
void df_set_epsilon(DfCtx *c, int div);
/* Exact shortest mate length (DF_FUTILE rule) of an OR node known to be mated
 * within ub; -1 if not mated within ub, -2 if a limit was hit.  lb NULL: top
 * down (prove within ub, then within the proof's length - 2, until a disproof);
 * else bottom up from 1, and *lb is the proven lower bound when a limit hits. */
int df_exact_or(DfCtx *c, Position *pos, int ub, int *lb);
/* The defences that count at an AND node under the futile rule (all evasions minus
 * futile drops); value = a bound on the node's mate length (0 = unknown).  Returns the count, -2 if a limit was hit.  For an AND node where
 * some non-drop defence is not mated at all, futile drops cannot be decided and
 * every evasion is returned. */
int df_real_defences(DfCtx *c, Position *pos, int value, MoveList *out);
/* Seconds of CLOCK_MONOTONIC. */
double df_now(void);
double df_hashfull(const DfCtx *c);

#endif
