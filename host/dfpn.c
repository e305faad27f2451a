/* dfpn.c - depth-limited df-pn with hand superiority, path-exact repetition
 * handling and the futile-interposition rule (see dfpn.h for the semantics).
 *
 * Every visit of a node keeps its children's (pn, dn, len, flags) in a per-ply
 * frame on the heap.  Path-dependent disproofs (repetition, forbidden positions)
 * never enter the main table: repetition-bound ones go to a side table checked
 * against the current path (RepEntry), or become path-free (see mid). */
#include <stdlib.h>
#include <string.h>
#include "dfpn.h"
#include "util.h"

#define INF ((uint64_t)1 << 48)
#define MAXPLY 2400
#define NO_LEN 32767
#define NOMATE_ABS 32000
#define DF_DREF 4  /* disproof flag: some defender refutation in its tree is a drop */
#define CLUSTER 4
#define SALT_PLAIN 0x9E3779B97F4A7C15ull
#define SALT_FUTILE 0xC2B2AE3D27D4EB4Full

typedef struct {
    uint64_t pn, dn;
    uint32_t work;
    Move best;
    int16_t depth, mate_len, nomate, nomate_nd;  /* nomate_nd: disproof tree without drop refutations */
    uint8_t ah[8], dh[8];
} Entry;

/* A bucket of CLUSTER entries, keys and generations first: a probe reads one
 * cache line to find its matches (most probes of new children find none) and
 * touches an entry's body only on a match. */
typedef struct {
    uint64_t key[CLUSTER];
    uint16_t gen[CLUSTER];
    uint8_t pad[64 - CLUSTER * 10];  /* entries start on the next cache line */
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

struct DfCtx {
    Cluster *tt;
    size_t cmask;  /* number of clusters - 1 */
    FutEntry *fut;
    size_t fmask;
    RepEntry *rep;
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
    int conv;    /* the hand convention holds (every piece kind complete): the defender's
                  * hand follows from the board and the attacker's, so entries key on the latter */
};

/* ph: for a proof, the attacker's proof hand (plain mode): the same board with at
 * least these pieces in the attacker's hand is mated within len as well. */
typedef struct { uint64_t pn, dn; int len, flags, rep, rep_hi; uint8_t ph[8]; } Nd;
#define REP_FORBID (-1)  /* a forbidden position: the cut never becomes path-free */

double df_now(void) { return util_now(); }

DfCtx *df_new(size_t hash_mb) {
    DfCtx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (hash_mb < 1) hash_mb = 1;
    size_t bytes = hash_mb << 20, n = 1;
    while (n * 2 * sizeof(Cluster) <= bytes) n *= 2;
    c->tt = util_alloc_large(n * sizeof(Cluster));
    c->cmask = n - 1;
    c->fmask = (1u << 14) - 1;
    c->fut = calloc(c->fmask + 1, sizeof(FutEntry));
    c->rep = calloc((size_t)1 << REP_BITS, sizeof(RepEntry));
    if (!c->tt || !c->fut || !c->rep) { df_free(c); return NULL; }
    return c;
}

void df_free(DfCtx *c) {
    if (!c) return;
    for (int i = 0; i < MAXPLY + 4; i++) free(c->frames[i]);
    free(c->tt);
    free(c->fut);
    free(c->rep);
    free(c);
}

void df_begin(DfCtx *c, int attacker, uint64_t node_limit, double deadline) {
    c->gen++;
    if (c->gen == 0) {  /* wrapped: really clear */
        memset(c->tt, 0, (c->cmask + 1) * sizeof(Cluster));
        memset(c->fut, 0, (c->fmask + 1) * sizeof(FutEntry));
        memset(c->rep, 0, ((size_t)1 << REP_BITS) * sizeof(RepEntry));
        c->gen = 1;
    }
    c->attacker = attacker;
    c->nodes = 0;
    c->node_limit = node_limit;
    c->deadline = deadline;
    c->aborted = 0;
    c->path_n = c->path_base = 0;
    c->forbid = NULL;
    c->nforbid = 0;
}

int df_aborted(const DfCtx *c) { return c->aborted; }
void df_set_limits(DfCtx *c, uint64_t node_limit, double deadline) {
    c->node_limit = node_limit;
    c->deadline = deadline;
    c->aborted = 0;
}
uint64_t df_nodes(const DfCtx *c) { return c->nodes; }
void df_set_no_rep(DfCtx *c, int on) { c->no_rep = on; }
void df_set_forbidden(DfCtx *c, const uint64_t *keys, int n) {
    c->forbid = keys;
    c->nforbid = n;
    /* proofs found while avoiding these positions live in their own key space:
     * a table proof from an unrestricted search might pass through one of them */
    uint64_t h = 0x243F6A8885A308D3ull;
    for (int i = 0; i < n; i++) h = (h ^ keys[i]) * 0x100000001B3ull;
    c->salt = h | 1;
}

double df_hashfull(const DfCtx *c) {
    size_t used = 0, n = (c->cmask + 1) * CLUSTER, step = n / 4096 + 1, seen = 0;
    for (size_t i = 0; i < n; i += step, seen++) used += c->tt[i / CLUSTER].gen[i % CLUSTER] == c->gen;
    return seen ? (double)used / seen : 0;
}

/* ---- table ---- */

static uint64_t salt_of(const DfCtx *c) { return c->nforbid ? c->salt : 0; }
#define node_key(pos, mode) node_key_(c, pos, mode)
static uint64_t node_key_(const DfCtx *c, const Position *pos, int mode) {
    if (mode == DF_PLAIN) return pos->board_key ^ SALT_PLAIN ^ salt_of(c);
    return pos_key(pos) ^ SALT_FUTILE;
}

static void hands_of(const DfCtx *c, const Position *pos, int mode, uint8_t ah[8], uint8_t dh[8]) {
    if (mode != DF_FUTILE) {
        memcpy(ah, pos->hand[c->attacker], 8);
        if (c->conv) memset(dh, 0, 8);
        else memcpy(dh, pos->hand[c->attacker ^ 1], 8);
    } else {
        memset(ah, 0, 8);
        memset(dh, 0, 8);
    }
}

/* a >= b in every piece kind */
static int hand_ge(const uint8_t *a, const uint8_t *b) {
    for (int k = PAWN; k <= GOLD; k++)
        if (a[k] < b[k]) return 0;
    return 1;
}

/* The correction for drops (NOTES_VERIFIER 3): at a proven defender node in check
 * from a distant slider, a kind the defender does not hold but could interpose was
 * no defence only because the attacker keeps all of it; the proof hand must then
 * require every piece of that kind the attacker holds here. */
static void interpose_correction(const DfCtx *c, const Position *pos, uint8_t ph[8]) {
    int def = c->attacker ^ 1;
    if (pos->king_sq[def] == SQ_NONE) return;
    Bitboard chk = checkers_of(pos);
    if (!bb_any(chk) || bb_more_than_one(chk)) return;  /* double check: no interposition */
    Bitboard btw = between_bb(pos->king_sq[def], bb_lsb(chk));
    if (!bb_any(btw)) return;
    for (int k = PAWN; k <= GOLD; k++)
        if (!pos->hand[def][k] && pos->hand[c->attacker][k] > ph[k] && bb_any(drop_targets(pos, k, btw)))
            ph[k] = pos->hand[c->attacker][k];
}

/* Proof hand of an OR node proven by move m (played from pos) whose child has proof hand cph. */
static void or_proof_hand(const Position *pos, Move m, const uint8_t cph[8], uint8_t ph[8]) {
    memcpy(ph, cph, 8);
    if (move_is_drop(m)) ph[move_drop_type(m)]++;
    else if (pos->board[move_to(m)]) {
        int k = raw_type(piece_type(pos->board[move_to(m)]));
        if (ph[k]) ph[k]--;
    }
}

typedef struct { uint64_t pn, dn; int status, len, flags, hit; Move best; uint8_t ph[8]; } Probe;

/* Plain-rule entries of pos that hold under the futile rule, by hand superiority:
 * proofs within depth, and disproofs of at least depth that are absolute or
 * drop-free (nomate_nd).  (Asking the plain rule first for every futile-rule query,
 * to create such entries, measured 1.5-2x more nodes on the ShogiBoardQ sets.) */
static void borrow_plain(const DfCtx *c, const Position *pos, int depth, Probe *p, int *nomate) {
    uint8_t ah[8], dh[8];
    uint64_t key = node_key(pos, DF_PLAIN);
    hands_of(c, pos, DF_PLAIN, ah, dh);
    const Cluster *cl = &c->tt[key & c->cmask];
    const Entry *q = cl->e;
    for (int i = 0; i < CLUSTER; i++) {
        if (cl->gen[i] != c->gen || cl->key[i] != key) continue;
        if (q[i].mate_len <= depth && q[i].mate_len < p->len && hand_ge(ah, q[i].ah) &&
            hand_ge(q[i].dh, dh)) {
            p->len = q[i].mate_len;
            p->best = q[i].best;
            memcpy(p->ph, q[i].ah, 8);
        }
        int nm = q[i].nomate < NOMATE_ABS ? q[i].nomate_nd : q[i].nomate;
        if (nm >= depth && nm > *nomate && hand_ge(q[i].ah, ah) && hand_ge(dh, q[i].dh))
            *nomate = nm;
    }
}

static void tt_probe(const DfCtx *c, uint64_t key, const Position *pos, int mode, int depth, Probe *p) {
    p->pn = p->dn = 1;
    p->status = DF_UNKNOWN;
    p->len = NO_LEN;
    p->flags = 0;
    p->hit = 0;
    p->best = MOVE_NONE;
    memset(p->ph, 0, 8);
    uint8_t ah[8], dh[8];
    hands_of(c, pos, mode, ah, dh);
    const Cluster *cl = &c->tt[key & c->cmask];
    const Entry *e = cl->e;
    int nomate = -1, nomate_nd = -1;
    for (int i = 0; i < CLUSTER; i++) {
        if (cl->gen[i] != c->gen || cl->key[i] != key) continue;
        int same = !memcmp(e[i].ah, ah, 8) && !memcmp(e[i].dh, dh, 8);
        int strong = same || (mode != DF_FUTILE && hand_ge(ah, e[i].ah) && hand_ge(e[i].dh, dh));
        int weak = same || (mode != DF_FUTILE && hand_ge(e[i].ah, ah) && hand_ge(dh, e[i].dh));
        if (strong && e[i].mate_len <= depth && e[i].mate_len < p->len) {
            p->len = e[i].mate_len;
            p->best = e[i].best;
            memcpy(p->ph, e[i].ah, 8);
        }
        if (weak && e[i].nomate >= depth && e[i].nomate > nomate) nomate = e[i].nomate;
        if (weak && e[i].nomate_nd >= depth && e[i].nomate_nd > nomate_nd) nomate_nd = e[i].nomate_nd;
        if (same) {
            p->hit = 1;
            if (e[i].depth == depth) { p->pn = e[i].pn; p->dn = e[i].dn; }
            if (!p->best) p->best = e[i].best;
        }
    }
    /* Plain-rule answers hold under the futile rule (it only takes futile drops from the
     * defender, so lengths are never longer and mate / no mate is the same): a plain
     * proof, an absolute plain no-mate, and a plain "no mate within d" whose disproof
     * tree refutes with no drop (nomate_nd). */
    if (p->len == NO_LEN && mode == DF_FUTILE) {
        borrow_plain(c, pos, depth, p, &nomate);
        nomate_nd = nomate;  /* the drop flag is a plain-rule matter */
    }
    if (p->len != NO_LEN) {
        p->status = DF_PROVEN;
        p->pn = 0;
        p->dn = INF;
    } else if (nomate >= 0) {
        p->status = DF_DISPROVEN;
        p->pn = INF;
        p->dn = 0;
        p->flags = nomate >= NOMATE_ABS ? 0 : DF_DEPTH;
        if (nomate_nd < depth && nomate < NOMATE_ABS) p->flags |= DF_DREF;
    }
}

/* Starts loading the cluster of key into the cache (probes are random accesses,
 * and most of a node's time went into waiting for them one child at a time). */
static void prefetch_cluster(const DfCtx *c, uint64_t key) {
    const char *p = (const char *)&c->tt[key & c->cmask];
    __builtin_prefetch(p);
}

/* Prefetches what init_child will probe for the child after m: its own cluster
 * and, under the futile rule, the plain-rule cluster that borrow_plain reads. */
static void prefetch_child(const DfCtx *c, const Position *pos, Move m, int mode) {
    uint64_t bk, hk;
    pos_keys_after(pos, m, &bk, &hk);
    uint64_t plain = bk ^ SALT_PLAIN ^ salt_of(c);
    if (mode == DF_FUTILE) prefetch_cluster(c, (bk ^ hk) ^ SALT_FUTILE);
    prefetch_cluster(c, plain);
}

static void tt_store(DfCtx *c, uint64_t key, const Position *pos, int mode, int depth, const Nd *r,
                     Move best, uint32_t work) {
    if (r->dn == 0 && (r->flags & DF_REP)) return;  /* path-dependent: never cached */
    uint8_t ah[8], dh[8];
    hands_of(c, pos, mode, ah, dh);
    if (r->pn == 0 && mode != DF_FUTILE) memcpy(ah, r->ph, 8);  /* a proof holds for its proof hand */
    Cluster *cl = &c->tt[key & c->cmask];
    Entry *e = cl->e, *t = NULL;
    for (int i = 0; i < CLUSTER; i++)
        if (cl->gen[i] == c->gen && cl->key[i] == key && !memcmp(e[i].ah, ah, 8) && !memcmp(e[i].dh, dh, 8)) {
            t = &e[i];
            break;
        }
    if (!t) {
        int slot = 0;
        for (int i = 0; i < CLUSTER; i++) {
            if (cl->gen[i] != c->gen) { slot = i; break; }
            if (e[i].work < e[slot].work) slot = i;
        }
        t = &e[slot];
        memset(t, 0, sizeof *t);
        cl->key[slot] = key;
        cl->gen[slot] = c->gen;
        t->mate_len = NO_LEN;
        t->nomate = t->nomate_nd = -1;
        t->depth = -1;  /* no (pn, dn) yet */
        memcpy(t->ah, ah, 8);
        memcpy(t->dh, dh, 8);
    }
    t->work = t->work + work < t->work ? UINT32_MAX : t->work + work;
    if (best) t->best = best;
    if (r->pn == 0) {
        if (r->len < t->mate_len) { t->mate_len = (int16_t)r->len; t->best = best; }
    } else if (r->dn == 0) {
        int nm = (r->flags & DF_DEPTH) ? depth : NOMATE_ABS;
        if (nm > t->nomate) t->nomate = (int16_t)nm;
        if (!(r->flags & DF_DREF) && nm > t->nomate_nd) t->nomate_nd = (int16_t)nm;
    } else {
        t->depth = (int16_t)depth;
        t->pn = r->pn;
        t->dn = r->dn;
    }
}

static FutEntry *fut_probe(DfCtx *c, uint64_t key) {
    FutEntry *f = &c->fut[key & c->fmask];
    return f->gen == c->gen && f->key == key ? f : NULL;
}

static FutEntry *fut_slot(DfCtx *c, uint64_t key) {
    FutEntry *f = &c->fut[key & c->fmask];
    if (f->gen != c->gen || f->key != key) {
        f->key = key;
        f->mask = f->known = 0;
        f->le = -1;
        f->gen = c->gen;
    }
    return f;
}

/* ---- search ---- */

static Frame *frame(DfCtx *c, int ply) {
    if (ply >= MAXPLY) { c->aborted = 1; return NULL; }
    if (!c->frames[ply]) {
        c->frames[ply] = malloc(sizeof(Frame));
        if (!c->frames[ply]) { c->aborted = 1; return NULL; }
    }
    return c->frames[ply];
}

/* Index of k on the current path (OR positions), -1 if absent. */
static int on_path(const DfCtx *c, uint64_t k) {
    if (c->no_rep) return -1;
    for (int i = c->path_base; i < c->path_n; i++)
        if (c->path[i] == k) return i;
    return -1;
}

static int forbidden(const DfCtx *c, uint64_t k) {
    for (int i = 0; i < c->nforbid; i++)
        if (c->forbid[i] == k) return 1;
    return 0;
}

#define NO_CUT (-2)
/* Is reaching pk a failure for the attacker: REP_FORBID for a forbidden position
 * (plain rule), the path index it repeats (OR nodes only), else NO_CUT. */
static int path_cut(const DfCtx *c, uint64_t pk, int mode, int is_or) {
    if (mode == DF_PLAIN && forbidden(c, pk)) return REP_FORBID;
    int k = is_or ? on_path(c, pk) : -1;
    return k >= 0 ? k : NO_CUT;
}

static uint64_t rep_key(const Position *pos, int mode) { return pos_key(pos) ^ (mode ? SALT_FUTILE : SALT_PLAIN); }

/* A stored path-bound disproof of pos valid on the current path: 1 and out filled. */
static int rep_lookup(const DfCtx *c, const Position *pos, int mode, int depth, Nd *out) {
    if (c->no_rep || c->nforbid) return 0;
    uint64_t k = rep_key(pos, mode);
    const RepEntry *e = &c->rep[k & (((size_t)1 << REP_BITS) - 1)];
    if (e->gen != c->gen || e->key != k || e->nomate < depth || e->ref_lo < c->path_base || e->ref_hi >= c->path_n ||
        c->prefix[e->ref_hi] != e->prefix)
        return 0;
    out->pn = INF;
    out->dn = 0;
    out->flags = DF_REP | DF_DREF | (e->nomate < NOMATE_ABS ? DF_DEPTH : 0);
    out->rep = e->ref_lo;
    out->rep_hi = e->ref_hi;
    return 1;
}

static void rep_store(DfCtx *c, const Position *pos, int mode, int depth, const Nd *r) {
    if (c->no_rep || c->nforbid || r->rep < c->path_base || r->rep_hi >= c->path_n) return;
    uint64_t k = rep_key(pos, mode);
    RepEntry *e = &c->rep[k & (((size_t)1 << REP_BITS) - 1)];
    e->key = k;
    e->prefix = c->prefix[r->rep_hi];
    e->ref_lo = (int16_t)r->rep;
    e->ref_hi = (int16_t)r->rep_hi;
    e->nomate = (int16_t)((r->flags & DF_DEPTH) ? depth : NOMATE_ABS);
    e->gen = c->gen;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b >= INF ? INF : a + b; }
/* The 1+epsilon trick: a child may run until it is clearly worse than its best
 * sibling (not just by one), so the search does not flip between near-equal
 * siblings and re-expand their subtrees from the table each time. */
static uint64_t eps_up(uint64_t second) {
    return second >= INF ? INF : sat_add(second + 1, second / 4);  /* epsilon = 1/4 */
}

static void mid(DfCtx *c, Position *pos, int depth, int mode, uint64_t thpn, uint64_t thdn, int ply, Nd *out);

/* Fills child i of frame f (a node at `ply`) from the table or cheap tests. */
static void init_child(DfCtx *c, Position *pos, Frame *f, int i, int cdepth, int mode, int child_or) {
    Undo u;
    Move m = f->ml.moves[i];
    f->len[i] = NO_LEN;
    f->flg[i] = 0;
    memset(f->ph[i], 0, 8);
    pos_do_move(pos, m, &u);
    int cut;
    if (child_or && cdepth < 1) {
        f->pn[i] = INF; f->dn[i] = 0; f->flg[i] = DF_DEPTH;
    } else if ((cut = path_cut(c, pos_key(pos), mode, child_or)) != NO_CUT) {
        f->pn[i] = INF; f->dn[i] = 0; f->flg[i] = DF_REP;
        f->rl[i] = f->rh[i] = (int16_t)cut;
    } else {
        Probe p;
        Nd rn;
        if (rep_lookup(c, pos, mode, cdepth, &rn)) {
            f->pn[i] = INF; f->dn[i] = 0; f->flg[i] = (uint8_t)rn.flags;
            f->rl[i] = (int16_t)rn.rep; f->rh[i] = (int16_t)rn.rep_hi;
            pos_undo_move(pos, m, &u);
            return;
        }
        tt_probe(c, node_key(pos, mode), pos, mode, cdepth, &p);
        f->pn[i] = p.pn;
        f->dn[i] = p.dn;
        f->flg[i] = (uint8_t)p.flags;
        if (p.status == DF_PROVEN) { f->len[i] = (int16_t)p.len; memcpy(f->ph[i], p.ph, 8); }
        else if (!p.hit && !child_or) {  /* df-pn+: AND child's pn = number of evasions */
            MoveList ev;
            int n = gen_evasions(pos, &ev);
            int nondrop = mode != DF_FUTILE;
            for (int k = 0; k < n && !nondrop; k++) nondrop = !move_is_drop(ev.moves[k]);
            if (n == 0) { f->pn[i] = 0; f->dn[i] = INF; f->len[i] = 0; interpose_correction(c, pos, f->ph[i]); }
            else if (cdepth == 0 && nondrop) { f->pn[i] = INF; f->dn[i] = 0; f->flg[i] = DF_DEPTH; }
            else f->pn[i] = (uint64_t)n;
        }
    }
    pos_undo_move(pos, m, &u);
}

static int exact_or_at(DfCtx *c, Position *pos, int ub, int ply) {
    Nd r;
    mid(c, pos, ub, DF_FUTILE, INF, INF, ply, &r);
    if (c->aborted) return -2;
    if (r.pn != 0) return -1;
    int u = r.len;
    while (u - 2 >= 1) {
        mid(c, pos, u - 2, DF_FUTILE, INF, INF, ply, &r);
        if (c->aborted) return -2;
        if (r.pn != 0) break;
        if (r.len >= u) break;  /* cannot happen: a proof within u-2 is shorter */
        u = r.len;
    }
    return u;
}

/* Is drop dm futile: capture on its square (a checking move) and mate within le
 * plies without the captured piece?  giveback: the captured piece goes back to the
 * defender's hand (the strongest defender: success here means futile for every kind). */
static int futile_test(DfCtx *c, Position *pos, Move dm, int le, int ply, int giveback) {
    Undo u1;
    int s = move_to(dm), k = move_drop_type(dm), att = c->attacker, res = 0;
    pos_do_move(pos, dm, &u1);
    Frame *g = frame(c, ply + 1);
    if (g) {
        gen_checks(pos, &g->ml);
        for (int i = 0; i < g->ml.count && !res; i++) {
            Move cm = g->ml.moves[i];
            if (move_is_drop(cm) || move_to(cm) != s) continue;
            Undo u2;
            pos_do_move(pos, cm, &u2);
            pos->hand[att][k]--;
            pos->hand_key -= ZOBRIST_HAND[att][k];
            if (giveback) { pos->hand[att ^ 1][k]++; pos->hand_key += ZOBRIST_HAND[att ^ 1][k]; }
            Nd r;
            mid(c, pos, le, DF_FUTILE, INF, INF, ply + 2, &r);
            pos->hand[att][k]++;
            if (giveback) pos->hand[att ^ 1][k]--;
            pos_undo_move(pos, cm, &u2);
            if (c->aborted) res = -2;
            else if (r.pn == 0) res = 1;
        }
    }
    pos_undo_move(pos, dm, &u1);
    return c->aborted ? -2 : res;
}

/* The AND node of frame f has every non-drop defence proven (f->len holds proof
 * lengths).  Decides the futility of the drops selected by `which` (bit j = j-th
 * drop), computing L(E) first if needed; results go to the futile cache.
 * Returns 0, -1 if some non-drop defence turns out not mated, -2 on a limit. */
static int compute_futile(DfCtx *c, Position *pos, Frame *f, uint64_t key, int ply, uint64_t which,
                          uint64_t *mask_out) {
    int save_base = c->path_base, rc = 0;
    c->path_base = c->path_n;
    FutEntry *fe = fut_probe(c, key);
    int le = fe ? fe->le : -1, le_ub = 0;
    uint64_t mask = fe ? fe->mask : 0, known = fe ? fe->known : 0;
    for (int i = 0; i < f->ml.count; i++)
        if (!move_is_drop(f->ml.moves[i])) {
            int u = f->len[i] < NO_LEN ? f->len[i] : DF_MAX_DEPTH;
            if (1 + u > le_ub) le_ub = 1 + u;
        }
    /* Two rounds: a drop that is not futile against the upper bound le_ub of L(E) is
     * not futile at all (cheap); only the others need the exact L(E). */
    for (int round = 0; round < 2 && rc == 0; round++) {
        uint64_t todo = which & ~known;
        if (!todo) break;
        int bound;
        if (round == 0) {
            if (le >= 0) continue;
            bound = le_ub;
        } else {
            if (le < 0) {
                le = 0;
                for (int i = 0; i < f->ml.count && rc == 0; i++) {
                    Move m = f->ml.moves[i];
                    if (move_is_drop(m)) continue;
                    Undo u;
                    pos_do_move(pos, m, &u);
                    int ex = exact_or_at(c, pos, f->len[i] < NO_LEN ? f->len[i] : DF_MAX_DEPTH, ply + 1);
                    pos_undo_move(pos, m, &u);
                    if (ex < 0) rc = ex;  /* -1: this defence is not mated */
                    else if (1 + ex > le) le = 1 + ex;
                }
                if (rc) break;
            }
            bound = le;
        }
        signed char sq_all[SQ_NB];
        memset(sq_all, -1, sizeof sq_all);
        for (int i = 0, j = 0; i < f->ml.count && rc == 0; i++) {
            Move m = f->ml.moves[i];
            if (!move_is_drop(m)) continue;
            int jj = j++;
            if (jj >= 64 || !(todo >> jj & 1)) continue;
            int s = move_to(m), fut;
            if (sq_all[s] < 0) {
                int r = futile_test(c, pos, m, bound, ply, 1);
                if (r < 0) { rc = -2; break; }
                sq_all[s] = (signed char)r;
            }
            fut = sq_all[s] ? 1 : futile_test(c, pos, m, bound, ply, 0);
            if (fut < 0) { rc = -2; break; }
            if (round == 0) {
                if (!fut) known |= 1ull << jj;  /* not futile even against the upper bound */
            } else {
                known |= 1ull << jj;
                if (fut) mask |= 1ull << jj;
            }
        }
    }
    c->path_base = save_base;
    if (rc) return rc;
    fe = fut_slot(c, key);  /* the nested searches may have reused the slot */
    if (le >= 0) fe->le = (int16_t)le;
    fe->mask |= mask;
    fe->known |= known;
    *mask_out = fe->mask;
    return 0;
}

/* Interposition drops on one square are chained (NOTES_VERIFIER 6): only the first
 * unproven drop of each square counts towards the AND node's proof number and can
 * be chosen; the next kind joins when it is proven.  A disproved one always counts.
 * (Not under the futile rule: there the pending-drop logic orders drops, and
 * chaining measured worse on the ShogiBoardQ sets.) */
static void aggregate(const Frame *f, int n, int is_or, int delay, Nd *r, int *best, uint64_t *second) {
    uint64_t sum = 0, mn = INF + 1, mn2 = INF, seen[2] = {0, 0};
    int b = -1, len = is_or ? NO_LEN : 0, flags = 0, frank = 99, any = 0, rep = MAXPLY + 4, brep = -2;
    int rep_hi = -1, brep_hi = -1;
    for (int i = 0; i < n; i++) {
        if (f->act[i] != 1) continue;
        any = 1;
        if (delay && !is_or && f->pn[i] != 0 && f->dn[i] != 0 && move_is_drop(f->ml.moves[i])) {
            int s = move_to(f->ml.moves[i]);
            if (seen[s >> 6] >> (s & 63) & 1) continue;  /* waits behind an earlier kind */
            seen[s >> 6] |= 1ull << (s & 63);
        }
        uint64_t key = is_or ? f->pn[i] : f->dn[i], other = is_or ? f->dn[i] : f->pn[i];
        sum = sat_add(sum, other);
        if (key < mn || (key == mn && b >= 0 && f->len[i] < f->len[b])) { mn2 = mn < mn2 ? mn : mn2; mn = key; b = i; }
        else if (key < mn2) mn2 = key;
        if (is_or) {
            if (f->pn[i] == 0 && f->len[i] < len) len = f->len[i];
            if (f->dn[i] == 0) {
                flags |= f->flg[i];
                if ((f->flg[i] & DF_REP) && f->rl[i] < rep) rep = f->rl[i];
                if ((f->flg[i] & DF_REP) && f->rh[i] > rep_hi) rep_hi = f->rh[i];
            }
        } else {
            if (f->pn[i] == 0 && f->len[i] > len) len = f->len[i];
            if (f->dn[i] == 0) {
                /* the most general disproof: absolute, then depth-bound, then path-bound;
                 * among equals one whose refutations are no drops (see tt_probe) */
                int fl = f->flg[i] | (move_is_drop(f->ml.moves[i]) ? DF_DREF : 0);
                int rk = 2 * ((fl & DF_REP) ? 2 : (fl & DF_DEPTH) ? 1 : 0) + ((fl & DF_DREF) ? 1 : 0);
                int rl = (fl & DF_REP) ? f->rl[i] : MAXPLY + 4;  /* among path-bound ones: the most local */
                if (rk < frank || (rk == frank && rl > brep)) {
                    frank = rk; flags = fl; brep = rl;
                    brep_hi = (fl & DF_REP) ? f->rh[i] : -1;
                }
            }
        }
    }
    if (!any) {  /* AND node without defences left: mated */
        r->pn = is_or ? INF : 0; r->dn = is_or ? 0 : INF; r->len = 0; r->flags = 0; r->rep = MAXPLY + 4; r->rep_hi = -1;
        *best = -1; *second = INF;
        return;
    }
    if (mn > INF) mn = INF;
    if (is_or) { r->pn = mn; r->dn = sum; } else { r->pn = sum; r->dn = mn; }
    r->len = 1 + len;
    r->flags = flags;
    r->rep = is_or ? rep : brep;
    r->rep_hi = is_or ? rep_hi : brep_hi;
    *best = b;
    *second = mn2;
}

static void mid(DfCtx *c, Position *pos, int depth, int mode, uint64_t thpn, uint64_t thdn, int ply, Nd *out) {
    out->pn = out->dn = 1;
    out->len = NO_LEN;
    out->flags = 0;
    out->rep = out->rep_hi = REP_FORBID;
    memset(out->ph, 0, 8);
    if (c->aborted) return;
    c->nodes++;
    if ((c->node_limit && c->nodes > c->node_limit) ||
        ((c->nodes & 1023) == 0 && c->deadline > 0 && df_now() > c->deadline)) {
        c->aborted = 1;
        return;
    }
    int is_or = pos->side == c->attacker;
    uint64_t pk = pos_key(pos);
    int cut = path_cut(c, pk, mode, is_or);
    if (cut != NO_CUT) {
        out->pn = INF; out->dn = 0; out->flags = DF_REP;
        out->rep = out->rep_hi = cut;
        return;
    }
    if (is_or && depth < 1) { out->pn = INF; out->dn = 0; out->flags = DF_DEPTH; return; }
    uint64_t key = node_key(pos, mode);
    Probe p;
    if (rep_lookup(c, pos, mode, depth, out)) return;
    tt_probe(c, key, pos, mode, depth, &p);
    if (p.status == DF_PROVEN) { out->pn = 0; out->dn = INF; out->len = p.len; memcpy(out->ph, p.ph, 8); return; }
    if (p.status == DF_DISPROVEN) { out->pn = INF; out->dn = 0; out->flags = p.flags; return; }
    Frame *f = frame(c, ply);
    if (!f) return;
    int n = is_or ? gen_checks(pos, &f->ml) : gen_evasions(pos, &f->ml);
    uint64_t start_nodes = c->nodes;
    Nd r;
    memset(r.ph, 0, 8);
    if (n == 0) {
        if (is_or) { r.pn = INF; r.dn = 0; r.flags = 0; r.len = NO_LEN; }
        else { r.pn = 0; r.dn = INF; r.flags = 0; r.len = 0; interpose_correction(c, pos, r.ph); }
        tt_store(c, key, pos, mode, depth, &r, MOVE_NONE, 1);
        *out = r;
        return;
    }
    /* Futile rule (lazy): drops known to be futile are left out; a drop that is not
     * mated within depth-1 becomes pending (act = 2) and its futility is decided once
     * every other defence is proven.  act: 0 out, 1 active, 2 pending. */
    int fut_and = mode == DF_FUTILE && !is_or;
    uint64_t fmask = 0, fknown = 0;
    if (fut_and) {
        FutEntry *fe = fut_probe(c, key);
        if (fe) { fmask = fe->mask; fknown = fe->known; }
    }
    for (int i = 0; i < n; i++) prefetch_child(c, pos, f->ml.moves[i], mode);
    for (int i = 0, j = 0; i < n; i++) {
        f->act[i] = 1;
        if (fut_and && move_is_drop(f->ml.moves[i])) {
            if (j < 64 && (fknown >> j & 1) && (fmask >> j & 1)) f->act[i] = 0;
            j++;
        }
        if (f->act[i]) init_child(c, pos, f, i, depth - 1, mode, !is_or);
    }
    if (is_or) {
        c->prefix[c->path_n] = (c->path_n ? c->prefix[c->path_n - 1] * 0x9E3779B97F4A7C15ull : 0x51ED27ull) ^ pk;
        c->path[c->path_n++] = pk;
    }
    int best;
    uint64_t second;
    for (;;) {
        if (fut_and) {
            /* drops not mated within depth-1 wait for the futility test (pending);
             * a drop known to be non-futile stays: its disproof disproves the node */
            for (int i = 0, j = -1; i < n; i++) {
                if (!move_is_drop(f->ml.moves[i])) continue;
                j++;
                if (f->act[i] == 1 && f->dn[i] == 0 && !(j < 64 && (fknown >> j & 1))) f->act[i] = 2;
            }
        }
        aggregate(f, n, is_or, mode != DF_FUTILE, &r, &best, &second);
        if (fut_and && r.pn == 0) {
            uint64_t which = 0;
            for (int i = 0, j = 0; i < n; i++) {
                if (!move_is_drop(f->ml.moves[i])) continue;
                if (f->act[i] == 2 && j < 64) which |= 1ull << j;
                j++;
            }
            if (which) {
                int rc = compute_futile(c, pos, f, key, ply, which, &fmask);
                f = c->frames[ply];
                if (rc == -2 || c->aborted) break;
                if (rc == -1) fmask = 0;  /* table lost a proof: count every pending drop (never unsound) */
                fknown |= which;
                for (int i = 0, j = 0; i < n; i++) {
                    if (!move_is_drop(f->ml.moves[i])) continue;
                    if (f->act[i] == 2) f->act[i] = (j < 64 && (fmask >> j & 1)) ? 0 : 1;
                    j++;
                }
                continue;
            }
        }
        if (r.pn == 0 || r.dn == 0 || r.pn >= thpn || r.dn >= thdn) break;
        uint64_t cpn, cdn;
        if (is_or) {
            cpn = thpn < eps_up(second) ? thpn : eps_up(second);
            cdn = thdn >= INF ? INF : thdn - (r.dn - f->dn[best]);
        } else {
            cdn = thdn < eps_up(second) ? thdn : eps_up(second);
            cpn = thpn >= INF ? INF : thpn - (r.pn - f->pn[best]);
        }
        Undo u;
        Move m = f->ml.moves[best];
        Nd cr;
        pos_do_move(pos, m, &u);
        mid(c, pos, depth - 1, mode, cpn, cdn, ply + 1, &cr);
        pos_undo_move(pos, m, &u);
        f = c->frames[ply];
        f->pn[best] = cr.pn;
        f->dn[best] = cr.dn;
        f->len[best] = (int16_t)(cr.len < NO_LEN ? cr.len : NO_LEN);
        f->flg[best] = (uint8_t)cr.flags;
        f->rl[best] = (int16_t)cr.rep;
        f->rh[best] = (int16_t)cr.rep_hi;
        memcpy(f->ph[best], cr.ph, 8);
        if (c->aborted) break;
    }
    if (is_or) c->path_n--;
    if (c->aborted) return;
    /* A disproof that assumes only "coming back here fails" is path-free: a mate from
     * here, if any, has a shortest form that never returns here.  Then it is cached. */
    if (is_or && r.dn == 0 && (r.flags & DF_REP) && r.rep >= c->path_n) {
        r.flags &= ~DF_REP;
        r.rep = MAXPLY + 4;
    } else if (r.dn == 0 && (r.flags & DF_REP))
        rep_store(c, pos, mode, depth, &r);
    Move bm = MOVE_NONE;
    if (is_or && r.pn == 0) {
        for (int i = 0; i < n; i++)
            if (f->act[i] && f->pn[i] == 0 && 1 + f->len[i] == r.len) {
                bm = f->ml.moves[i];
                or_proof_hand(pos, bm, f->ph[i], r.ph);
                break;
            }
    } else if (best >= 0) bm = f->ml.moves[best];
    if (!is_or && r.pn == 0) {  /* every counted defence is proven: the union of their hands */
        memset(r.ph, 0, 8);
        for (int i = 0; i < n; i++)
            if (f->act[i] == 1)
                for (int k = PAWN; k <= GOLD; k++)
                    if (f->ph[i][k] > r.ph[k]) r.ph[k] = f->ph[i][k];
        interpose_correction(c, pos, r.ph);
    }
    uint64_t w = c->nodes - start_nodes + 1;
    tt_store(c, key, pos, mode, depth, &r, bm, w > UINT32_MAX ? UINT32_MAX : (uint32_t)w);
    *out = r;
}

/* Does every piece kind have its full count (board + hands)?  Then the defender's
 * hand is determined by the board and the attacker's hand (captures keep it so). */
static void set_conv(DfCtx *c, const Position *pos) {
    static const int full[8] = {0, 18, 4, 4, 4, 2, 2, 4};
    int cnt[8] = {0};
    for (int sq = 0; sq < SQ_NB; sq++) {
        int pt = piece_type(pos->board[sq]);
        if (pos->board[sq] && pt != KING) cnt[raw_type(pt)]++;
    }
    int conv = 1;
    for (int k = PAWN; k <= GOLD; k++) conv &= cnt[k] + pos->hand[0][k] + pos->hand[1][k] == full[k];
    c->conv = conv;
}

DfResult df_search(DfCtx *c, Position *pos, int depth, int mode) {
    DfResult res = {DF_UNKNOWN, 0, 0};
    if (c->aborted) return res;
    set_conv(c, pos);
    if (depth > DF_MAX_DEPTH) depth = DF_MAX_DEPTH;
    c->path_n = c->path_base = 0;
    Nd r;
    mid(c, pos, depth, mode, INF, INF, 0, &r);
    if (c->aborted) return res;
    if (r.pn == 0) { res.result = DF_PROVEN; res.len = r.len; }
    else if (r.dn == 0) { res.result = DF_DISPROVEN; res.flags = r.flags; }
    return res;
}

DfResult df_probe(DfCtx *c, const Position *pos, int depth, int mode) {
    DfResult res = {DF_UNKNOWN, 0, 0};
    Probe p;
    set_conv(c, pos);
    tt_probe(c, node_key(pos, mode), pos, mode, depth, &p);
    res.result = p.status;
    res.len = p.status == DF_PROVEN ? p.len : 0;
    res.flags = p.flags;
    return res;
}

/* Bottom-up: "mate within d?" for d = 1, 3, 5, ... until a proof; each disproof
 * raises the lower bound, so a limit still leaves a proven "no mate in < *lb". */
static int exact_or_up(DfCtx *c, Position *pos, int ub, int *lb) {
    for (int d = 1; d < ub; d += 2) {
        Nd r;
        mid(c, pos, d, DF_FUTILE, INF, INF, 0, &r);
        if (c->aborted) return -2;
        if (r.pn == 0) return r.len;
        *lb = d + 2;
    }
    return ub;  /* mated within ub (a plain proof of ub is a futile-rule proof within ub) */
}

int df_exact_or(DfCtx *c, Position *pos, int ub, int *lb) {
    if (c->aborted) return -2;
    if (ub > DF_MAX_DEPTH) ub = DF_MAX_DEPTH;
    set_conv(c, pos);
    c->path_n = c->path_base = 0;
    if (lb) {
        *lb = 1;
        return exact_or_up(c, pos, ub, lb);
    }
    return exact_or_at(c, pos, ub, 0);
}

int df_real_defences(DfCtx *c, Position *pos, int value, MoveList *out) {
    int n = gen_evasions(pos, out), ndrops = 0;
    for (int i = 0; i < n; i++) ndrops += move_is_drop(out->moves[i]);
    if (!ndrops || c->aborted) return c->aborted ? -2 : n;
    set_conv(c, pos);
    uint64_t key = node_key(pos, DF_FUTILE), mask = 0, all = ndrops >= 64 ? ~0ull : (1ull << ndrops) - 1;
    FutEntry *fe = fut_probe(c, key);
    if (fe && (fe->known & all) == all) mask = fe->mask;
    else {
        Frame *f = frame(c, 0);
        if (!f) return -2;
        f->ml = *out;
        for (int i = 0; i < n; i++) f->len[i] = (int16_t)(value > 0 && value - 1 < NO_LEN ? value - 1 : NO_LEN);
        c->path_n = c->path_base = 0;
        int rc = compute_futile(c, pos, f, key, 0, all, &mask);
        if (rc == -2) return -2;
        if (rc == -1) return n;
    }
    int k = 0;
    for (int i = 0, j = 0; i < n; i++) {
        Move m = out->moves[i];
        if (move_is_drop(m)) {
            int fut = j < 64 && (mask >> j & 1);
            j++;
            if (fut) continue;
        }
        out->moves[k++] = m;
    }
    out->count = k;
    return k;
}
