/* dfpn_table.c - the df-pn engine's memory: the context's life cycle, the main
 * transposition table (clusters, hand-superiority lookups, prefetch), the futile-drop
 * cache and the side table of path-bound disproofs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dfpn_impl.h"
#include "util.h"
#ifdef _OPENMP
#include <omp.h>
#endif

double df_now(void) { return util_now(); }

/* One more entry of this generation evicted (its own thread alone writes the count:
 * a plain load and store, no locked add on the search's hot path). */
static inline void count_eviction(DfCtx *c) {
    atomic_store_explicit(&c->evicted, atomic_load_explicit(&c->evicted, memory_order_relaxed) + 1, memory_order_relaxed);
}

/* A context on table tt (nclusters clusters) with its own futility and repetition
 * caches; the stacks come per ply as needed.  On failure tt stays the caller's. */
static DfCtx *ctx_on(Cluster *tt, size_t nclusters, int owns_tt) {
    DfCtx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->tt = tt;
    c->nclusters = nclusters;
    c->owns_tt = owns_tt;
    c->last_ply = 2;
    c->eps_div = DF_EPSILON_DIV;
    c->fmask = (1u << 14) - 1;
    c->fut = calloc(c->fmask + 1, sizeof(FutEntry));
    c->rep = calloc((size_t)1 << REP_BITS, sizeof(RepEntry));
    if (!c->tt || !c->fut || !c->rep) {
        c->owns_tt = 0;
        df_free(c);
        return NULL;
    }
    return c;
}

/* The clusters of a table of mb MiB (4,096 a MiB). */
static size_t clusters_of_mb(size_t mb) { return ((mb ? mb : 1) << 20) / sizeof(Cluster); }

DfCtx *df_new(size_t hash_mb) {
    size_t n = clusters_of_mb(hash_mb);
    Cluster *tt = util_alloc_large(n * sizeof(Cluster));
    DfCtx *c = ctx_on(tt, n, 1);
    if (!c) util_free_large(tt, n * sizeof(Cluster));
    return c;
}

DfCtx *df_new_helper(DfCtx *owner) { return ctx_on(owner->tt, owner->nclusters, 0); }

void df_free(DfCtx *c) {
    if (!c) return;
    for (int i = 0; i < MAXPLY + 4; i++) free(c->frames[i]);
    if (c->owns_tt) util_free_large(c->tt, c->nclusters * sizeof(Cluster));
    free(c->fut);
    free(c->rep);
    free(c);
}

/* A new problem's search state (the table's generation aside). */
static void start_search(DfCtx *c, int attacker, uint64_t node_limit, double deadline) {
    c->attacker = attacker;
    c->nodes = 0;
    c->node_limit = node_limit;
    c->deadline = deadline;
    c->aborted = 0;
    c->path_n = c->path_base = 0;
    c->gb_n = 0;
    c->forbid = NULL;
    c->nforbid = 0;
    c->mate_found = 0;
    c->at_least = 1;
    c->phase[0] = 0;
}

void df_begin(DfCtx *c, int attacker, uint64_t node_limit, double deadline) {
    c->gen++;
    atomic_store_explicit(&c->evicted, 0, memory_order_relaxed);
    c->rep_stored = 0;
    if (c->gen == 0) {  /* wrapped: really clear */
        memset(c->tt, 0, c->nclusters * sizeof(Cluster));
        memset(c->fut, 0, (c->fmask + 1) * sizeof(FutEntry));
        memset(c->rep, 0, ((size_t)1 << REP_BITS) * sizeof(RepEntry));
        c->gen = 1;
    }
    start_search(c, attacker, node_limit, deadline);
}

void df_begin_keep(DfCtx *c, int attacker, uint64_t node_limit, double deadline) {
    start_search(c, attacker, node_limit, deadline);
}

void df_share_begin(DfCtx *owner, DfCtx *helper, const atomic_int *stop) {
    if (owner->gen <= helper->gen) {  /* the owner's generation wrapped: helper's caches are stale */
        memset(helper->fut, 0, (helper->fmask + 1) * sizeof(FutEntry));
        memset(helper->rep, 0, ((size_t)1 << REP_BITS) * sizeof(RepEntry));
    }
    helper->rep_stored = 0;  /* (wiped above, or of an older generation) */
    helper->tt = owner->tt;  /* (the owner's table may have grown since the last share) */
    helper->nclusters = owner->nclusters;
    helper->grow_max = owner->grow_max;
    helper->grow_trace = owner->grow_trace;
    atomic_store(&helper->evicted, 0);
    ShareSync *s = &owner->share;
    atomic_store(&s->growing, 0);
    for (int r = 0; r < 2; r++) {
        atomic_store(&s->parked[r], 0);
        atomic_store(&s->active[r], 1);
    }
    s->ctx[0] = owner;
    s->ctx[1] = helper;
    owner->sync = helper->sync = s;
    owner->role = 0;
    helper->role = 1;
    helper->gen = owner->gen;
    start_search(helper, owner->attacker, 0, owner->deadline);
    helper->no_rep = owner->no_rep;
    owner->locking = helper->locking = 1;
    owner->stop = helper->stop = stop;
    atomic_store(&owner->helper_nodes, 0);
    helper->publish = &owner->helper_nodes;
}

void df_share_end(DfCtx *owner, DfCtx *helper, uint64_t node_limit, double deadline) {
    owner->locking = helper->locking = 0;
    owner->sync = helper->sync = NULL;
    owner->stop = helper->stop = NULL;
    helper->publish = NULL;
    atomic_store(&owner->helper_nodes, 0);
    owner->nodes += helper->nodes;
    atomic_store(&owner->evicted, atomic_load(&owner->evicted) + atomic_load(&helper->evicted));
    atomic_store(&helper->evicted, 0);
    df_set_limits(owner, node_limit, deadline);
}

void df_share_leave(DfCtx *c) {
    if (c->sync) atomic_store(&c->sync->active[c->role], 0);
}

int df_share_run(DfCtx *owner, DfCtx *helper, void (*work)(void *arg, DfCtx *x, int me), void *arg) {
    atomic_int stop = 0;
    int threads = 1;
    double deadline = owner->deadline;
    df_share_begin(owner, helper, &stop);
#ifdef _OPENMP
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        if (me == 0) threads = omp_get_num_threads();
        if (omp_get_num_threads() == 1) df_share_leave(helper);  /* (no helper thread: the table must not wait for it) */
        work(arg, me ? helper : owner, me);
        df_share_leave(me ? helper : owner);
    }
#else
    df_share_leave(helper);
    work(arg, owner, 0);
    df_share_leave(owner);
#endif
    df_share_end(owner, helper, 0, deadline);
    return threads;
}

/* ---- a table that grows ---- */

void df_set_grow(DfCtx *c, size_t max_mb) {
    c->grow_max = max_mb ? clusters_of_mb(max_mb) : 0;
    if (c->grow_max < 2 * c->nclusters) c->grow_max = 0;  /* (no room to double) */
}

void df_set_grow_trace(DfCtx *c, int on) { c->grow_trace = on; }

int df_table_can_grow(const DfCtx *c) { return c->grow_max >= 2 * c->nclusters; }

size_t df_table_mb(const DfCtx *c) { return c->nclusters * sizeof(Cluster) >> 20; }

int tt_put_record(DfCtx *c, uint64_t key, const Entry *e, int evict) {
    Cluster *cl = cluster_of(c, key);
    int slot = -1;
    for (int i = 0; i < CLUSTER && slot < 0; i++)
        if (cl->gen[i] != c->gen) slot = i;
    if (slot < 0 && !evict) return 0;
    if (slot < 0) {
        slot = 0;
        for (int i = 1; i < CLUSTER; i++)
            if (cl->e[i].work < cl->e[slot].work) slot = i;
        if (cl->e[slot].work >= e->work) return 0;
    }
    cl->key[slot] = key;
    cl->gen[slot] = c->gen;
    cl->e[slot] = *e;
    return 1;
}

/* The table moved to tt (n clusters, more than now), this generation's entries
 * with it; the old one freed.  A doubling sends each old cluster's entries to two
 * new ones, so none is dropped. */
static void move_into(DfCtx *c, Cluster *tt, size_t n) {
    double t0 = util_now();
    Cluster *old = c->tt;
    size_t old_n = c->nclusters;
    c->tt = tt;
    c->nclusters = n;
    atomic_store(&c->evicted, 0);
    for (size_t ci = 0; ci < old_n; ci++)
        for (int i = 0; i < CLUSTER; i++)
            if (old[ci].gen[i] == c->gen) tt_put_record(c, old[ci].key[i], &old[ci].e[i], 1);
    util_free_large(old, old_n * sizeof(Cluster));
    if (c->grow_trace)
        fprintf(stderr, "trace: table grown to %zu MB after %.2f M nodes of this thread (%.2f s moving)\n",
                n * sizeof(Cluster) >> 20, c->nodes / 1e6, util_now() - t0);
}

/* The new table's memory (populated: seconds for gigabytes on a fresh VM); NULL
 * if the system will not give it, and the table stops growing. */
static Cluster *grow_alloc(DfCtx *c, size_t n) {
    Cluster *tt = util_alloc_large(n * sizeof(Cluster));
    if (!tt) c->grow_max = 0;
    return tt;
}

int tt_grow_now(DfCtx *c) {
    size_t n = c->nclusters * 2;
    Cluster *tt = df_table_can_grow(c) ? grow_alloc(c, n) : NULL;
    if (tt) move_into(c, tt, n);
    return tt != NULL;
}

/* ShareSync.growing: a growing thread allocates while the other searches on, then
 * moves the entries while the other is parked. */
enum { GROW_IDLE, GROW_ALLOC, GROW_MOVE };

/* Parks c until the other thread has moved the table (whose new place it wrote
 * into c). */
static void park(DfCtx *c) {
    ShareSync *s = c->sync;
    atomic_store(&s->parked[c->role], 1);
    while (atomic_load(&s->growing) == GROW_MOVE) util_sleep_ms(1);
    atomic_store(&s->parked[c->role], 0);
}

void tt_grow_point(DfCtx *c) {
    ShareSync *s = c->sync;
    if (s) {
        int state = atomic_load(&s->growing);
        if (state == GROW_MOVE) park(c);
        if (state != GROW_IDLE) return;
    }
    /* An eighth of the capacity evicted since the last size: the table is full and
     * losing answers.  One thread, no limit: Zuko 4's exact 39 in 25.1 M nodes, 43 s
     * (grown to 2 GB), against 32.0 M / 44 s in a fixed 1 GB table and 130 M / 154 s
     * in the fixed 32 MB that was the default; growing at a quarter full instead
     * took the table to 8 GB (as many entries as nodes) with no fewer nodes. */
    uint64_t evicted = atomic_load_explicit(&c->evicted, memory_order_relaxed);
    if (s) evicted += atomic_load_explicit(&s->ctx[c->role ^ 1]->evicted, memory_order_relaxed);
    if (evicted * 8 < (uint64_t)c->nclusters * CLUSTER || !df_table_can_grow(c)) return;
    if (!s) {
        tt_grow_now(c);
        return;
    }
    int idle = GROW_IDLE;
    if (!atomic_compare_exchange_strong(&s->growing, &idle, GROW_ALLOC)) return;  /* (the other grows it) */
    size_t n = c->nclusters * 2;
    Cluster *tt = grow_alloc(c, n);
    if (tt) {
        DfCtx *other = s->ctx[c->role ^ 1];
        atomic_store(&s->growing, GROW_MOVE);
        while (atomic_load(&s->active[other->role]) && !atomic_load(&s->parked[other->role])) {}
        move_into(c, tt, n);
        other->tt = c->tt;
        other->nclusters = c->nclusters;
        atomic_store(&other->evicted, 0);
    }
    atomic_store(&s->growing, GROW_IDLE);
}

/* (a lock-free atomic: stored from a signal handler) */
static atomic_int interrupted_all;
void df_interrupt(void) { atomic_store(&interrupted_all, 1); }
void df_clear_interrupt(void) { atomic_store(&interrupted_all, 0); }
int df_interrupted(void) { return atomic_load_explicit(&interrupted_all, memory_order_relaxed); }

int df_stopped(const DfCtx *c) {
    return (df_interrupted() && !c->past_interrupt) || (c->stop && atomic_load_explicit(c->stop, memory_order_relaxed));
}

void df_past_interrupt(DfCtx *c, int on) { c->past_interrupt = on; }

int df_aborted(const DfCtx *c) { return c->aborted; }
void df_set_limits(DfCtx *c, uint64_t node_limit, double deadline) {
    c->node_limit = node_limit;
    c->deadline = deadline;
    c->aborted = 0;
}
uint64_t df_nodes(const DfCtx *c) { return c->nodes; }

double df_deadline(const DfCtx *c) { return c->deadline; }

void df_note_bounds(DfCtx *c, int mate_found, int at_least) {
    if (mate_found > 0 && (!c->mate_found || mate_found < c->mate_found)) c->mate_found = mate_found;
    if (at_least > c->at_least) c->at_least = at_least;
}

void df_bounds_text(const DfCtx *c, char *buf, size_t len) {
    int mate = c->mate_found, at_least = c->at_least;
    if (mate && mate == at_least) snprintf(buf, len, "exact %d", mate);
    else if (mate) snprintf(buf, len, "mate %d found, at least %d", mate, at_least);
    else if (at_least > 1) snprintf(buf, len, "no mate below %d", at_least);
    else if (len) buf[0] = 0;
}
void df_set_phase(DfCtx *c, const char *what) { snprintf(c->phase, sizeof c->phase, "%s", what ? what : ""); }
const char *df_phase(const DfCtx *c) { return c->phase; }

void df_set_progress(DfCtx *c, DfProgressFn fn, void *arg, uint64_t every) {
    c->progress = fn;
    c->progress_arg = arg;
    c->progress_mask = every ? every - 1 : 0;
}
int df_set_no_rep(DfCtx *c, int on) {
    int was = c->no_rep;
    c->no_rep = on;
    return was;
}
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
    size_t used = 0, n = c->nclusters * CLUSTER, step = n / 4096 + 1, seen = 0;
    for (size_t i = 0; i < n; i += step, seen++) used += c->tt[i / CLUSTER].gen[i % CLUSTER] == c->gen;
    return seen ? (double)used / seen : 0;
}

/* ---- table ---- */

static uint64_t salt_of(const DfCtx *c) { return c->nforbid ? c->salt : 0; }
uint64_t node_key_(const DfCtx *c, const Position *pos, int mode) {
    if (mode == DF_PLAIN) return pos->board_key ^ SALT_PLAIN ^ salt_of(c);
    if (mode == DF_NODROP) return pos->board_key ^ SALT_NODROP ^ salt_of(c);
    return pos_key(pos) ^ SALT_FUTILE;
}

static void hands_of(const DfCtx *c, const Position *pos, int mode, uint8_t ah[8], uint8_t dh[8]) {
    if (mode != DF_FUTILE) {
        memcpy(ah, pos->hand[c->attacker], 8);
        if (c->conv || mode == DF_NODROP) memset(dh, 0, 8);  /* (a defender who never drops: its hand is no matter) */
        else memcpy(dh, pos->hand[c->attacker ^ 1], 8);
    } else {
        memset(ah, 0, 8);
        memset(dh, 0, 8);
    }
}

/* An entry's defender hand equals dh, the byte that holds ENTRY_STRICT aside. */
static int same_dh(const uint8_t *entry_dh, const uint8_t *dh) { return !memcmp(entry_dh + 1, dh + 1, 7); }

/* The least attacker hand a stored disproof must hold for to answer a position
 * with attacker hand ah.  Under the hand convention an entry's defender holds the
 * rest, which in a futility test with a vanished piece (captured, then out of the
 * game: see futile_test) is one piece more than the defender there holds; so the
 * entry must hold for that piece in the attacker's hand too, unless no drop refutes
 * anywhere in its tree (ENTRY_STRICT: then the defender's hand is no matter).  A
 * drop-free (nomate_nd) disproof is not enough: it may rest on absolute no-mates
 * that need drops.  Zuko 6's walk had borrowed such disproofs all the time: 72.0 M
 * nodes; without them, no answer in 300 s (215 M); with futile_depth_of_plain as
 * well, 61.9 M; with strict entries too, 53.0 M (Zuko 4 49.3 M, then 29.9 M). */
static void disproof_floor(const DfCtx *c, const uint8_t ah[8], uint8_t out[8]) {
    for (int k = 0; k < 8; k++) out[k] = (uint8_t)(ah[k] + (c->conv ? c->vanished[k] : 0));
}

/* A borrowed no-mate depth nm, or the futile rule's depth that a plain "no mate
 * within plain_d" gives (futile_depth_of_plain, hd the defender's pieces in hand;
 * -1: not used), whichever is deeper. */
static int deeper_by_plain(int nm, int plain_d, int hd) {
    if (hd < 0 || nm >= NOMATE_ABS) return nm;
    int fd = futile_depth_of_plain(plain_d, hd);
    return fd > nm ? fd : nm;
}

/* Plain-rule entries of pos that hold under the futile rule, by hand superiority:
 * proofs within depth, and disproofs of at least depth that are absolute or
 * drop-free (nomate_nd).  (Asking the plain rule first for every futile-rule query,
 * to create such entries, measured 1.5-2x more nodes on the ShogiBoardQ sets.)
 * "Drop-free" means: no drop refutes within the depth bound; an absolute no-mate
 * below may need drops (mate or no mate is the same question under every rule).
 * The no-drop rule (DF_NODROP) borrows the same way: its disproofs are then trees
 * of the same kind, which is all that its users and readers assume.
 * Under the futile rule a deep plain "no mate within D" holds too, whatever its
 * refutations, as "no mate within (D - 2h - 2) / 2" (futile_depth_of_plain). */
static void borrow_plain(const DfCtx *c, const Position *pos, int mode, int depth, Probe *p, int *nomate,
                         uint8_t nh[8], int *nomate_s, uint8_t nsh[8]) {
    uint8_t ah[8], dh[8], ahd[8];
    uint64_t key = node_key(pos, DF_PLAIN);
    hands_of(c, pos, DF_PLAIN, ah, dh);
    disproof_floor(c, ah, ahd);
    /* the defender's pieces in hand for futile_depth_of_plain; -1: not used (other
     * rules, and forbidden sets, whose positions the argument's captures and futility
     * witnesses would have to avoid too) */
    int hd = mode == DF_FUTILE && !c->nforbid ? hand_total(pos, c->attacker ^ 1) : -1;
    const Cluster *cl = cluster_of(c, key);
    const Entry *q = cl->e;
    cl_lock(c, cl);
    for (int i = 0; i < CLUSTER; i++) {
        if (cl->gen[i] != c->gen || cl->key[i] != key) continue;
        if (q[i].mate_len <= depth && q[i].mate_len < p->len && hand_ge(ah, q[i].ah) &&
            hand_ge(q[i].dh, dh)) {
            p->len = q[i].mate_len;
            p->best = q[i].best;
            memcpy(p->ph, q[i].ah, 8);
        }
        int nm = deeper_by_plain(q[i].nomate >= NOMATE_ABS ? NOMATE_ABS : q[i].nomate_nd, q[i].nomate, hd);
        if (nm >= depth && nm > *nomate && hand_ge(q[i].ah, ahd) && hand_ge(dh, q[i].dh)) {
            *nomate = nm;
            memcpy(nh, q[i].ah, 8);
        }
        /* a strict one holds whatever the defender holds: no vanished piece to add */
        int sn = ENTRY_STRICT(q[i]) ? deeper_by_plain(q[i].nomate_nd, q[i].nomate_nd, hd) : -1;
        if (sn >= depth && sn > *nomate_s && hand_ge(q[i].ah, ah) && hand_ge(dh, q[i].dh)) {
            *nomate_s = sn;
            memcpy(nsh, q[i].ah, 8);
        }
    }
    cl_unlock(c, cl);
}

int df_plain_depth_for_futile(const Position *pos, int d) {
    int D = plain_depth_of_futile(d, hand_total(pos, pos->side));
    return D < DF_MAX_DEPTH ? D : DF_MAX_DEPTH;
}

/* Work estimates (pn, dn) of an entry stored at remaining depth a serve a visit at
 * depth b >= a: an unbounded search reaches a position at many plies, and the next
 * "mate within d + 2" of the length search meets the nodes of "within d" again;
 * with exact depths each such visit restarted from (1, 1).  Only from shallower to
 * deeper: numbers then flow one way, so a cycle of positions cannot feed a node's
 * estimate back into itself (sharing every depth did, and pn sums blew up). */
static int pn_dn_usable(int stored, int wanted) { return stored >= 0 && stored <= wanted; }

void tt_probe(const DfCtx *c, uint64_t key, const Position *pos, int mode, int depth, Probe *p) {
    p->pn = p->dn = 1;
    p->status = DF_UNKNOWN;
    p->len = NO_LEN;
    p->flags = 0;
    p->hit = 0;
    p->best = MOVE_NONE;
    memset(p->ph, 0, 8);
    uint8_t ah[8], dh[8], ahd[8];
    hands_of(c, pos, mode, ah, dh);
    disproof_floor(c, ah, ahd);
    const Cluster *cl = cluster_of(c, key);
    const Entry *e = cl->e;
    int nomate = -1, nomate_nd = -1, nomate_s = -1;
    /* the attacker hands the nomate, nomate_nd and strict entries hold for */
    uint8_t nh[8] = {0}, ndh[8] = {0}, nsh[8] = {0};
    cl_lock(c, cl);
    for (int i = 0; i < CLUSTER; i++) {
        if (cl->gen[i] != c->gen || cl->key[i] != key) continue;
        int same = !memcmp(e[i].ah, ah, 8) && same_dh(e[i].dh, dh);
        /* (no superior-hand proofs while positions are forbidden: the same moves
         * with more pieces in hand pass through other positions, which may be
         * forbidden ones; a 1 MB table once reported a detour as 余詰) */
        int strong = same || (mode != DF_FUTILE && !c->nforbid && hand_ge(ah, e[i].ah) && hand_ge(e[i].dh, dh));
        int weak = mode == DF_FUTILE ? same : hand_ge(e[i].ah, ahd) && hand_ge(dh, e[i].dh);
        int strict = ENTRY_STRICT(e[i]) && (mode == DF_FUTILE ? same : hand_ge(e[i].ah, ah) && hand_ge(dh, e[i].dh));
        if (strong && e[i].mate_len <= depth && e[i].mate_len < p->len) {
            p->len = e[i].mate_len;
            p->best = e[i].best;
            memcpy(p->ph, e[i].ah, 8);
        }
        if (weak && e[i].nomate >= depth && e[i].nomate > nomate) {
            nomate = e[i].nomate;
            memcpy(nh, e[i].ah, 8);
        }
        if (weak && e[i].nomate_nd >= depth && e[i].nomate_nd > nomate_nd) {
            nomate_nd = e[i].nomate_nd;
            memcpy(ndh, e[i].ah, 8);
        }
        if (strict && e[i].nomate_nd >= depth && e[i].nomate_nd > nomate_s) {
            nomate_s = e[i].nomate_nd;
            memcpy(nsh, e[i].ah, 8);
        }
        if (same) {
            p->hit = 1;
            if (pn_dn_usable(e[i].depth, depth)) { p->pn = e[i].pn; p->dn = e[i].dn; }
            if (!p->best) p->best = e[i].best;
        }
    }
    cl_unlock(c, cl);
    /* Plain-rule answers hold under the futile rule (it only takes futile drops from the
     * defender, so lengths are never longer and mate / no mate is the same): a plain
     * proof, an absolute plain no-mate, and a plain "no mate within d" whose disproof
     * tree refutes with no drop (nomate_nd). */
    if (p->len == NO_LEN && mode != DF_PLAIN) {
        borrow_plain(c, pos, mode, depth, p, &nomate, nh, &nomate_s, nsh);
        nomate_nd = nomate;  /* the drop flag is a plain-rule matter */
        memcpy(ndh, nh, 8);
    }
    if (p->len != NO_LEN) {
        p->status = DF_PROVEN;
        p->pn = 0;
        p->dn = INF;
    } else if (nomate_s >= 0 && (nomate_s >= NOMATE_ABS || nomate < NOMATE_ABS)) {
        /* a strict disproof alone, unless another entry's is absolute */
        p->status = DF_DISPROVEN;
        p->pn = INF;
        p->dn = 0;
        p->flags = nomate_s >= NOMATE_ABS ? 0 : DF_DEPTH;
        memcpy(p->ph, nsh, 8);
    } else if (nomate >= 0) {
        p->status = DF_DISPROVEN;
        p->pn = INF;
        p->dn = 0;
        p->flags = (nomate >= NOMATE_ABS ? 0 : DF_DEPTH) | DF_DDEEP;
        if (nomate_nd < depth && nomate < NOMATE_ABS) p->flags |= DF_DREF;
        /* the disproof hand: what both entries behind the answer hold for */
        memcpy(p->ph, nh, 8);
        if (nomate < NOMATE_ABS && nomate_nd >= depth)
            for (int k = PAWN; k <= GOLD; k++)
                if (ndh[k] < p->ph[k]) p->ph[k] = ndh[k];
    }
}

/* Starts loading the cluster of key into the cache (probes are random accesses,
 * and most of a node's time went into waiting for them one child at a time). */
static void prefetch_cluster(const DfCtx *c, uint64_t key) {
    const char *p = (const char *)cluster_of(c, key);
    __builtin_prefetch(p);
}

/* The repetition cache's key of a position with full key (board ^ hand) under a
 * rule, and its slot: one definition for the lookup, the store and the prefetch. */
static uint64_t rep_key(uint64_t full_key, int mode) {
    return full_key ^ (mode == DF_FUTILE ? SALT_FUTILE : mode == DF_NODROP ? SALT_NODROP : SALT_PLAIN);
}
static RepEntry *rep_slot(const DfCtx *c, uint64_t rk) { return &c->rep[rk & (((size_t)1 << REP_BITS) - 1)]; }

/* Prefetches what init_child will probe for the child after m: its own cluster,
 * under the futile rule the plain-rule cluster that borrow_plain reads, and the
 * repetition cache's slot (rep_lookup comes first; its 2 MB miss the cache too:
 * 8 % of Zuko 11's profile, and the walk alone ran 0.85-0.98x the time with this,
 * nodes unchanged). */
void prefetch_child(const DfCtx *c, const Position *pos, Move m, int mode) {
    uint64_t bk, hk;
    pos_keys_after(pos, m, &bk, &hk);
    uint64_t plain = bk ^ SALT_PLAIN ^ salt_of(c);
    if (mode == DF_FUTILE) prefetch_cluster(c, (bk ^ hk) ^ SALT_FUTILE);
    if (mode == DF_NODROP) prefetch_cluster(c, bk ^ SALT_NODROP ^ salt_of(c));
    prefetch_cluster(c, plain);
    if (!c->no_rep && !c->nforbid && c->rep_stored) __builtin_prefetch(rep_slot(c, rep_key(bk ^ hk, mode)));
}

void tt_store(DfCtx *c, uint64_t key, const Position *pos, int mode, int depth, const Nd *r,
                     Move best, uint32_t work) {
    if (r->dn == 0 && (r->flags & DF_REP)) return;  /* path-dependent: never cached */
    /* A disproof whose tree refutes with no drop anywhere is a plain one too, and
     * holds for every smaller attacker hand.  The no-drop rule's are kept where all
     * rules look (the plain key, with hand superiority).  The futile rule's go there
     * as well and keep their own entry: Zuko 21's "no mate within 15 / 17" took
     * 0.70x the nodes either way, and the walk alone (Zuko 4, 6, 24) 1.03-1.21x
     * with the move only, 0.91-1.08x with both. */
    if (r->dn == 0 && mode == DF_FUTILE && !c->nforbid && !(r->flags & DF_DROPREF))
        tt_store(c, node_key(pos, DF_PLAIN), pos, DF_PLAIN, depth, r, best, work);
    if (mode == DF_NODROP && r->dn == 0) {
        mode = DF_PLAIN;
        key = node_key(pos, DF_PLAIN);
    }
    uint8_t ah[8], dh[8], own[8];
    hands_of(c, pos, mode, ah, dh);
    memcpy(own, ah, 8);
    /* a proof holds for its proof hand, a disproof for its disproof hand */
    if ((r->pn == 0 || r->dn == 0) && mode != DF_FUTILE && !c->nforbid) {
        TG_ASSERT(r->pn == 0 || hand_ge(r->ph, ah));
        memcpy(ah, r->ph, 8);
    }
    Cluster *cl = cluster_of(c, key);
    Entry *e = cl->e, *t = NULL, *work_entry = NULL;
    cl_lock(c, cl);
    for (int i = 0; i < CLUSTER; i++) {
        if (cl->gen[i] != c->gen || cl->key[i] != key || !same_dh(e[i].dh, dh)) continue;
        if (!memcmp(e[i].ah, ah, 8)) { t = &e[i]; break; }
        if (!memcmp(e[i].ah, own, 8) && e[i].mate_len == NO_LEN && e[i].nomate < 0) work_entry = &e[i];
    }
    /* A resolved node's entry under its own hand held only work numbers, now of no
     * use: it becomes the answer's entry (else the cluster holds both). */
    if (!t && work_entry) {
        t = work_entry;
        memcpy(t->ah, ah, 8);
        t->depth = -1;
    }
    if (!t) {
        int slot = 0;
        for (int i = 0; i < CLUSTER; i++) {
            if (cl->gen[i] != c->gen) { slot = i; break; }
            if (e[i].work < e[slot].work) slot = i;
        }
        if (cl->gen[slot] == c->gen) count_eviction(c);
        t = &e[slot];
        memset(t, 0, sizeof *t);
        cl->key[slot] = key;
        cl->gen[slot] = c->gen;
        t->mate_len = NO_LEN;
        t->nomate = t->nomate_nd = -1;
        t->depth = -1;  /* no (pn, dn) yet */
        memcpy(t->ah, ah, 8);
        memcpy(t->dh, dh, 8);
        ENTRY_STRICT(*t) = 0;
    }
    t->work = t->work + work < t->work ? UINT32_MAX : t->work + work;
    if (best) t->best = best;
    if (r->pn == 0) {
        if (r->len < t->mate_len) { t->mate_len = (int16_t)r->len; t->best = best; }
    } else if (r->dn == 0) {
        int nm = (r->flags & DF_DEPTH) ? depth : NOMATE_ABS;
        if (nm > t->nomate) t->nomate = (int16_t)nm;
        if (!(r->flags & DF_DREF)) {
            int strict = !(r->flags & DF_DDEEP);
            if (nm > t->nomate_nd) { t->nomate_nd = (int16_t)nm; ENTRY_STRICT(*t) = (uint8_t)strict; }
            else if (nm == t->nomate_nd && strict) ENTRY_STRICT(*t) = 1;
        }
    } else {
        t->depth = (int16_t)depth;
        t->pn = r->pn;
        t->dn = r->dn;
    }
    cl_unlock(c, cl);
}

FutEntry *fut_probe(DfCtx *c, uint64_t key) {
    FutEntry *f = &c->fut[key & c->fmask];
    return f->gen == c->gen && f->key == key ? f : NULL;
}

FutEntry *fut_slot(DfCtx *c, uint64_t key) {
    FutEntry *f = &c->fut[key & c->fmask];
    if (f->gen != c->gen || f->key != key) {
        f->key = key;
        f->mask = f->known = 0;
        f->le = -1;
        f->gen = c->gen;
    }
    return f;
}

/* A stored path-bound disproof of pos valid on the current path: 1 and out filled. */
int rep_lookup(const DfCtx *c, const Position *pos, int mode, int depth, Nd *out) {
    if (c->no_rep || c->nforbid || !c->rep_stored) return 0;
    uint64_t k = rep_key(pos_key(pos), mode);
    const RepEntry *e = rep_slot(c, k);
    if (e->gen != c->gen || e->key != k || e->nomate < depth || e->ref_lo < c->path_base || e->ref_hi >= c->path_n ||
        c->prefix[e->ref_hi] != e->prefix)
        return 0;
    out->pn = INF;
    out->dn = 0;
    out->flags = DF_REP | DF_DROPREF | (e->nomate < NOMATE_ABS ? DF_DEPTH : 0);
    out->rep = e->ref_lo;
    out->rep_hi = e->ref_hi;
    return 1;
}

void rep_store(DfCtx *c, const Position *pos, int mode, int depth, const Nd *r) {
    if (c->no_rep || c->nforbid || r->rep < c->path_base || r->rep_hi >= c->path_n) return;
    uint64_t k = rep_key(pos_key(pos), mode);
    RepEntry *e = rep_slot(c, k);
    e->key = k;
    e->prefix = c->prefix[r->rep_hi];
    e->ref_lo = (int16_t)r->rep;
    e->ref_hi = (int16_t)r->rep_hi;
    e->nomate = (int16_t)((r->flags & DF_DEPTH) ? depth : NOMATE_ABS);
    e->gen = c->gen;
    c->rep_stored++;
}
