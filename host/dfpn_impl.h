/* dfpn_impl.h - internals shared by the df-pn search (dfpn.c), its futility
 * questions (dfpn_futile.c) and its tables (dfpn_table.c): limits, table entries,
 * the search context.  Not an API. */
#ifndef TSUMEGEN_DFPN_IMPL_H
#define TSUMEGEN_DFPN_IMPL_H
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include "dfpn.h"

#define INF ((uint64_t)1 << 48)
#define MAXPLY 2400
#define NO_LEN 32767
#define NOMATE_ABS 32000
#define DF_DREF 4  /* disproof flag: some defender refutation in its tree is a drop */
/* disproof flag: a drop refutes somewhere in its tree, table answers below
 * included (DF_DREF looks only down to absolute table answers); set wherever
 * DF_DREF is.  Without it the disproof holds whatever the defender holds in hand. */
#define DF_DDEEP 8
#define DF_DROPREF (DF_DREF | DF_DDEEP)
#define CLUSTER 4
#define SALT_PLAIN 0x9E3779B97F4A7C15ull
#define SALT_FUTILE 0xC2B2AE3D27D4EB4Full
#define SALT_NODROP 0x165667B19E3779F9ull
/* An internal third rule: the plain rule without the defender's drops.  Its
 * defender is weaker than under either real rule, so its "no mate within d" is a
 * plain disproof whose refutations are no drops, which both real rules take (see
 * dfpn.c, nodrop_disproves).  Its proofs and work numbers stay under their own keys. */
#define DF_NODROP 2

typedef struct {
    uint64_t pn, dn;
    uint32_t work;
    Move best;
    int16_t depth, mate_len, nomate, nomate_nd;  /* nomate_nd: disproof tree without drop refutations */
    uint8_t ah[8], dh[8];  /* dh[0] (no piece kind): ENTRY_STRICT */
} Entry;
/* The entry's nomate_nd disproof has no drop refutation anywhere (no DF_DDEEP). */
#define ENTRY_STRICT(e) ((e).dh[0])

/* A bucket of CLUSTER entries, keys and generations first: a probe reads one
 * cache line to find its matches (most probes of new children find none) and
 * touches an entry's body only on a match. */
typedef struct {
    uint64_t key[CLUSTER];
    uint16_t gen[CLUSTER];
    atomic_flag lock;  /* taken only while two contexts share the table (df_share_begin) */
    uint8_t pad[64 - CLUSTER * 10 - sizeof(atomic_flag)];  /* entries start on the next cache line */
    Entry e[CLUSTER];
} Cluster;
_Static_assert(sizeof(Entry) == 48 && sizeof(Cluster) == 256, "a cluster is four cache lines");

typedef struct {
    uint64_t key, mask, known;  /* bit j: j-th drop of gen_evasions is futile / was tested */
    int16_t le;                 /* L(E), -1 until computed */
    uint16_t gen;
} FutEntry;

typedef struct {
    MoveList ml;
    uint64_t pn[MAX_MOVES], dn[MAX_MOVES];
    int16_t len[MAX_MOVES];
    uint8_t flg[MAX_MOVES], act[MAX_MOVES];
    uint8_t ph[MAX_MOVES][8];  /* proven children: the attacker's proof hand */
    int16_t rl[MAX_MOVES];     /* DF_REP children: the lowest path index their disproof assumes */
    int16_t rh[MAX_MOVES];     /* ... and the highest */
} Frame;

/* Path-bound disproofs (DF_REP): valid wherever every path position they assumed
 * is on the path again.  Kept per position with the hash of the path prefix up to
 * the highest index assumed; more positions on the path only add attacker
 * failures, so a matching prefix is enough.  This stops df-pn re-searching the
 * same repetition-bound subtrees each time it re-descends the same path. */
typedef struct {
    uint64_t key, prefix;
    int16_t ref_lo, ref_hi, nomate;
    uint16_t gen;
} RepEntry;
#define REP_BITS 16
#define GB_MAX 256  /* nesting of giveback futility tests followed for cycles */

/* Two contexts sharing one table (df_share_begin): a thread that grows it waits for
 * the other to park at its next limit check (or to have left the search), swaps
 * both contexts' table, and lets it go on. */
typedef struct {
    atomic_int growing;    /* a thread is growing the table; the other parks */
    atomic_int parked[2];  /* by role: 0 the owner, 1 the helper */
    atomic_int active[2];  /* still searching (df_share_leave clears it) */
    DfCtx *ctx[2];
} ShareSync;

struct DfCtx {
    Cluster *tt;
    size_t nclusters;  /* any number: cluster_of maps a key onto them */
    FutEntry *fut;
    size_t fmask;
    RepEntry *rep;
    uint64_t rep_stored;  /* rep entries written in this generation: none (most searches), no probe */
    uint64_t prefix[MAXPLY + 4];  /* prefix[i]: hash of path[0..i] */
    uint16_t gen;
    Frame *frames[MAXPLY + 4];
    uint64_t path[MAXPLY + 4];
    int path_n, path_base;
    const uint64_t *forbid;
    int nforbid;
    uint64_t salt;  /* plain-mode key salt while a forbidden set is active */
    int attacker;
    uint64_t nodes, node_limit;
    double deadline;
    int aborted;
    int no_rep;  /* depth-limited queries: no path test, so every disproof is cacheable */
    uint64_t gb_key[GB_MAX];  /* the active giveback futility tests: position after the capture */
    int16_t gb_le[GB_MAX];    /* ... and its bound */
    int gb_n;
    int conv;    /* the hand convention holds (every piece kind complete): the defender's
                  * hand follows from the board and the attacker's, so entries key on the latter */
    uint8_t vanished[8];  /* pieces out of the game in the futility tests now running (a
                           * captured piece the attacker may not use): under conv the
                           * defender's hand is then the attacker's complement less these */
    int owns_tt;    /* 0: a helper on another context's table (df_new_helper) */
    int locking;    /* the table is shared right now: probes and stores lock their cluster */
    const atomic_int *stop;  /* set by the other thread of a shared search: abort */
    int past_interrupt;      /* df_past_interrupt: searches run on after df_interrupt */
    atomic_ullong helper_nodes;  /* owner: its sharing helper's nodes so far (progress only) */
    atomic_ullong *publish;      /* helper: where it puts its count every 1,024 nodes (NULL alone) */
    int find;    /* an unbounded plain search (finding a mate): new AND nodes' pn counts one
                  * interposition per square (see init_child) */
    int last_ply;  /* OR nodes one ply from the bound are settled by the mate-in-1 scan
                    * (or_last_ply), and with 2 (the default) those three plies from it
                    * too (or_three_ply); less only to compare (df_set_last_ply) */
    int eps_div;   /* the 1+epsilon trick's epsilon is 1/eps_div (df_set_epsilon) */
    int mate_found, at_least;  /* df_note_bounds */
    char phase[48];            /* df_set_phase */
    size_t grow_max;        /* df_set_grow: the most clusters; 0: the table is fixed */
    int grow_trace;         /* df_set_grow_trace */
    atomic_ullong evicted;  /* stores that evicted an entry of this generation since the table's
                             * size last changed (its own thread writes it, the other reads it) */
    ShareSync *sync;        /* while shared (df_share_begin): the pair's; else NULL */
    int role;               /* its index in sync */
    ShareSync share;        /* owner: the pair's sync (its helper points here) */
    DfProgressFn progress;  /* df_set_progress */
    void *progress_arg;
    uint64_t progress_mask;
};

/* The cluster of a key: its high bits scaled to the table (the product's top
 * word), so a table may have any size, --hash 6144 six gigabytes; a doubling
 * sends each cluster's keys to the two clusters 2i and 2i + 1. */
static inline Cluster *cluster_of(const DfCtx *c, uint64_t key) {
    return &c->tt[(size_t)(((unsigned __int128)key * c->nclusters) >> 64)];
}

/* A cluster's spin lock while two threads share the table: probes copy what they
 * need and stores write whole entries under it, so neither sees a half-written
 * entry (a torn proof would be a wrong verdict).  Held for a few loads, never two
 * at once. */
static inline void cl_lock(const DfCtx *c, const Cluster *cl) {
    if (!c->locking) return;
    atomic_flag *f = (atomic_flag *)&cl->lock;
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire)) {}
}
static inline void cl_unlock(const DfCtx *c, const Cluster *cl) {
    if (c->locking) atomic_flag_clear_explicit((atomic_flag *)&cl->lock, memory_order_release);
}

/* Hand a >= hand b in every piece kind (superiority of hands). */
static inline int hand_ge(const uint8_t *a, const uint8_t *b) {
    for (int k = PAWN; k <= GOLD; k++)
        if (a[k] < b[k]) return 0;
    return 1;
}

/* A plain "no mate within D" at a position whose defender holds h pieces in hand is
 * a futile-rule "no mate within the result": a futile-rule mate within d gives a
 * plain one within 2d + 2h + 2.  Why: in the plain game answer each futile drop by
 * its capture (2 plies) and go on with the futility witness, a futile-rule mate
 * within L(E), which is no more than the plies the drop's node had left; so a path
 * keeps at most d futile-rule plies, and its futile drops are at most h plus the
 * defender's captures on it (at most d/2), each adding 2.  So a deep plain disproof
 * with drop refutations (Zuko 6's settling searches that reach the 1001-ply bound)
 * still answers the futile rule's bounded queries: Zuko 6's walk alone 61.9 M nodes
 * against 215 M and unfinished without it, Zuko 24's 28.3 M against 31.5 M. */
static inline int futile_depth_of_plain(int plain_depth, int defender_hand) {
    return (plain_depth - 2 * defender_hand - 2) / 2;
}
/* Its inverse: the least plain depth that gives the futile rule d. */
static inline int plain_depth_of_futile(int futile_depth, int defender_hand) {
    return 2 * futile_depth + 2 * defender_hand + 2;
}

/* ph: for a proof, the attacker's proof hand (plain mode): the same board with at
 * least these pieces in the attacker's hand is mated within len as well. */
typedef struct { uint64_t pn, dn; int len, flags, rep, rep_hi; uint8_t ph[8]; } Nd;
#define REP_FORBID (-1)  /* a forbidden position: the cut never becomes path-free */

/* A table answer for one node: (pn, dn) of an equal entry, or a proof (len, best
 * move, proof hand) / disproof (flags) found by hand superiority. */
typedef struct { uint64_t pn, dn; int status, len, flags, hit; Move best; uint8_t ph[8]; } Probe;

/* The frame of a node at ply (allocated on first use); NULL and aborted past MAXPLY
 * or out of memory. */
static inline Frame *frame(DfCtx *c, int ply) {
    if (ply >= MAXPLY) { c->aborted = 1; return NULL; }
    if (!c->frames[ply]) {
        c->frames[ply] = malloc(sizeof(Frame));
        if (!c->frames[ply]) { c->aborted = 1; return NULL; }
    }
    return c->frames[ply];
}

/* ---- the search (dfpn.c) ---- */
/* df-pn from a root at ply with infinite thresholds: runs until the node is proven,
 * disproven or a limit stops it. */
void mid_solve(DfCtx *c, Position *pos, int depth, int mode, int ply, Nd *out);
/* c->conv for the root pos (the hand convention: see DfCtx). */
void set_conv(DfCtx *c, const Position *pos);

/* ---- the futile-interposition questions (dfpn_futile.c) ---- */
/* From this bound up, bounded queries cut repetitions and may ask the plain rule first. */
#define PLAIN_FIRST_DEPTH 32
/* "Mated within le?" by the unbounded plain rule where that answer is exact:
 * 1 (*r the answer) or -1 (search it). */
int plain_first(DfCtx *c, Position *pos, int le, int ply, int hands_whole, Nd *r);
/* Is drop dm futile against every L(E) up to bound: 1, 0, or -2 on a limit. */
int drop_futile_upto(DfCtx *c, Position *pos, Move dm, int bound, int ply);
/* Futility of the drops `which` of an AND node whose non-drops are proven (into the
 * futile cache): 0, -1 if a non-drop is not mated after all, -2 on a limit. */
int compute_futile(DfCtx *c, Position *pos, Frame *f, uint64_t key, int ply, uint64_t which,
                   uint64_t *mask_out, uint64_t *known_out);

/* ---- the tables (dfpn_table.c) ---- */
/* Key of pos in the main table under a rule mode (plain keys carry the forbidden-set salt). */
uint64_t node_key_(const DfCtx *c, const Position *pos, int mode);
#define node_key(pos, mode) node_key_(c, pos, mode)
void tt_probe(const DfCtx *c, uint64_t key, const Position *pos, int mode, int depth, Probe *p);
void tt_store(DfCtx *c, uint64_t key, const Position *pos, int mode, int depth, const Nd *r, Move best,
              uint32_t work);
void prefetch_child(const DfCtx *c, const Position *pos, Move m, int mode);
FutEntry *fut_probe(DfCtx *c, uint64_t key);
FutEntry *fut_slot(DfCtx *c, uint64_t key);
/* Path-bound disproofs: a stored one valid on the current path (1, out filled); store one. */
int rep_lookup(const DfCtx *c, const Position *pos, int mode, int depth, Nd *out);
void rep_store(DfCtx *c, const Position *pos, int mode, int depth, const Nd *r);
/* A record (key, entry of this generation) into its cluster: a free slot, else (evict)
 * over the entry of least work if it has more.  0: not put. */
int tt_put_record(DfCtx *c, uint64_t key, const Entry *e, int evict);
/* At a limit check (every 1,024 nodes) of a growing table: parks while the other
 * thread grows it, or grows it when its evictions say so. */
void tt_grow_point(DfCtx *c);
/* Doubles a growing table now (not while shared): 0 at its cap or out of memory. */
int tt_grow_now(DfCtx *c);

#endif
