/* proofcheck.c - independent proof-tree walk and main-line replay (see proofcheck.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proofcheck.h"
#include "sfen.h"

#define PC_MEMO_BITS 18
#define PC_MAX_NODES 3000000
#define PC_FIRST_CAP 4096

/* one memo entry: live only when gen is the current walk's generation, so a walk
 * starts with an empty memo without clearing it */
typedef struct {
    uint64_t key;
    int32_t b;
    uint32_t gen;
} PcMemoEntry;

typedef struct {
    DfCtx *c;
    int attacker;
    PcMemoEntry *memo;
    uint32_t gen;
    uint64_t walked;
    uint64_t node_limit; /* the oracle's budget (absolute node count) */
    double deadline;
    int undecided;
    char *msg;
    size_t len;
} Pc;

/* memo: position key -> the smallest bound within which it was verified
 * (verified within b implies verified within any larger bound) */
static uint64_t memo_key(const Position *pos, int is_and) { return (pos_key(pos) ^ (is_and ? 0x5851F42D4C957F2Dull : 0)) | 1; }

static int memo_has(const Pc *p, uint64_t k, int b) {
    size_t mask = ((size_t)1 << PC_MEMO_BITS) - 1;
    for (size_t i = k & mask, n = 0; n < 32; i = (i + 1) & mask, n++) {
        const PcMemoEntry *e = &p->memo[i];
        if (e->gen != p->gen) return 0;  /* an empty slot ends the probe */
        if (e->key == k) return e->b <= b;
    }
    return 0;
}

static void memo_put(Pc *p, uint64_t k, int b) {
    size_t mask = ((size_t)1 << PC_MEMO_BITS) - 1;
    for (size_t i = k & mask, n = 0; n < 32; i = (i + 1) & mask, n++) {
        PcMemoEntry *e = &p->memo[i];
        if (e->gen != p->gen) { *e = (PcMemoEntry){k, b, p->gen}; return; }
        if (e->key == k) { if (b < e->b) e->b = b; return; }
    }
}

/* Each thread keeps its memo (4 MB, never freed) for the life of the process and
 * bumps the generation per walk: a zeroed allocation per walk was 8 % of compose
 * reverse's time, in memset (one-move problems walk a handful of nodes). */
static _Thread_local PcMemoEntry *thread_memo;
static _Thread_local uint32_t thread_memo_gen;

static PcMemoEntry *memo_acquire(uint32_t *gen) {
    if (!thread_memo) {
        thread_memo = calloc((size_t)1 << PC_MEMO_BITS, sizeof *thread_memo);
        if (!thread_memo) return NULL;
        thread_memo_gen = 0;
    }
    if (++thread_memo_gen == 0) {  /* wrapped: clear once, every 2^32 walks */
        memset(thread_memo, 0, ((size_t)1 << PC_MEMO_BITS) * sizeof *thread_memo);
        thread_memo_gen = 1;
    }
    *gen = thread_memo_gen;
    return thread_memo;
}

static void fail(Pc *p, const Position *pos, const char *what) {
    if (p->msg[0]) return;
    char sfen[SFEN_MAX + 8];
    sfen_format(pos, sfen, sizeof sfen);
    snprintf(p->msg, p->len, "%s at %s", what, sfen);
}

static int walk_and(Pc *p, Position *pos, int b);

static int walk_or(Pc *p, Position *pos, int b) {
    if (b < 1) { fail(p, pos, "proof bound exhausted"); return 0; }
    uint64_t mk = memo_key(pos, 0);
    if (memo_has(p, mk, b)) return 1;
    if (++p->walked > PC_MAX_NODES) { p->undecided = 1; return 0; }
    /* on the heap: the walk recurses as deep as the proof (611 plies for Zuko 100) */
    struct { MoveList ml; uint8_t open[MAX_MOVES]; } *w = malloc(sizeof *w);
    if (!w) { p->undecided = 1; return 0; }
    MoveList *ml = &w->ml;
    uint8_t *open = w->open;
    gen_legal(pos, ml);
    Move best = MOVE_NONE;
    int best_len = 1 << 30;
    /* a check that leaves no legal move mates at once: the walk sees that itself,
     * and asks the search nothing (the last attacker move of every line, and all of
     * a one-move problem); else the search is an oracle: first the checks its
     * table already proves */
    int nopen = 0;
    for (int i = 0; i < ml->count && best_len > 0; i++) {
        Undo u;
        pos_do_move(pos, ml->moves[i], &u);
        open[i] = (uint8_t)in_check(pos);
        if (open[i] && !has_legal_move(pos)) {
            best_len = 0, best = ml->moves[i];
        } else if (open[i]) {
            nopen++;
            DfResult r = df_probe(p->c, pos, b - 1, DF_PLAIN);
            if (r.result == DF_PROVEN && r.len < best_len) { best_len = r.len; best = ml->moves[i]; }
            if (r.result == DF_DISPROVEN) open[i] = 0, nopen--;
        }
        pos_undo_move(pos, ml->moves[i], &u);
    }
    /* else search the open checks in rounds with a node cap that grows fourfold: one
     * check searched to the end first can cost the whole budget on a bounded disproof
     * ("no mate within b - 1") while a sibling mates in a few thousand nodes */
    for (uint64_t cap = PC_FIRST_CAP; !best && nopen && !p->undecided; cap *= 4)
        for (int i = 0; i < ml->count && !best && !p->undecided; i++) {
            if (!open[i]) continue;
            uint64_t n0 = df_nodes(p->c), lim = n0 + cap < p->node_limit ? n0 + cap : p->node_limit;
            Undo u;
            pos_do_move(pos, ml->moves[i], &u);
            df_set_limits(p->c, lim, p->deadline);
            DfResult r = df_search(p->c, pos, b - 1, DF_PLAIN);
            pos_undo_move(pos, ml->moves[i], &u);
            if (r.result == DF_PROVEN) { best_len = r.len; best = ml->moves[i]; }
            else if (r.result == DF_DISPROVEN) open[i] = 0, nopen--;
            else if (lim == p->node_limit || (p->deadline > 0 && df_now() >= p->deadline) || df_stopped(p->c))
                p->undecided = 1;
        }
    df_set_limits(p->c, p->node_limit, p->deadline);
    free(w);
    if (p->undecided) return 0;
    if (!best) { fail(p, pos, "no mating check"); return 0; }
    if (best_len > b - 1) { fail(p, pos, "proof longer than bound"); return 0; }
    Undo u;
    pos_do_move(pos, best, &u);
    int ok = walk_and(p, pos, best_len);
    pos_undo_move(pos, best, &u);
    if (ok) memo_put(p, mk, best_len + 1);
    return ok;
}

static int walk_and(Pc *p, Position *pos, int b) {
    if (!in_check(pos)) { fail(p, pos, "attacker move does not check"); return 0; }
    uint64_t mk = memo_key(pos, 1);
    if (memo_has(p, mk, b)) return 1;
    if (++p->walked > PC_MAX_NODES) { p->undecided = 1; return 0; }
    MoveList *ml = malloc(sizeof *ml);
    if (!ml) { p->undecided = 1; return 0; }
    gen_legal(pos, ml);
    int ok = 1;
    if (ml->count && b < 2) { fail(p, pos, "defence left at a leaf"); ok = 0; }
    for (int i = 0; ok && i < ml->count; i++) {
        Undo u;
        pos_do_move(pos, ml->moves[i], &u);
        ok = walk_or(p, pos, b - 1);
        pos_undo_move(pos, ml->moves[i], &u);
    }
    free(ml);
    if (ok) memo_put(p, mk, b);
    return ok;
}

/* pc_final_mate's memo of one call: (position, level) -> mate or not.  Drops
 * taken in another order reach the same position at the same level (the
 * attacker's hand is left as it was, the defender's loses the same pieces), and
 * without it a line check with several kinds in hand cost millions of
 * positions (one-move problems reduced piece by piece: 5.6 M calls from 42 k). */
#define FM_MEMO_BITS 12

typedef struct {
    uint64_t key[1 << FM_MEMO_BITS];
    uint8_t mate[1 << FM_MEMO_BITS];
} FmMemo;

static uint64_t fm_key(const Position *pos, int level) { return (pos_key(pos) + 0x9E3779B97F4A7C15ull * (uint64_t)(level + 1)) | 1; }

static int fm_find(const FmMemo *m, uint64_t k, int *slot) {
    unsigned mask = (1u << FM_MEMO_BITS) - 1;
    *slot = -1;
    for (unsigned i = (unsigned)k & mask, n = 0; n < 16; i = (i + 1) & mask, n++) {
        if (m->key[i] == k) return *slot = (int)i, 1;
        if (!m->key[i]) return *slot = (int)i, 0;
    }
    return 0;  /* (a full run: not stored) */
}

static int final_mate(Position *pos, int attacker, int level, FmMemo **memo) {
    if (level > 12 || !in_check(pos)) return 0;
    MoveList ml, caps;
    gen_legal(pos, &ml);
    for (int i = 0; i < ml.count; i++)
        if (!move_is_drop(ml.moves[i])) return 0;  /* a real defence */
    if (!ml.count) return 1;
    /* only drops: each must be futile, which recurses */
    if (!*memo && !(*memo = calloc(1, sizeof **memo))) return 0;  /* (out of memory: not shown mate) */
    int slot;
    uint64_t k0 = fm_key(pos, level);
    if (fm_find(*memo, k0, &slot)) return (*memo)->mate[slot];
    int mate = 1;
    for (int i = 0; i < ml.count && mate; i++) {
        Move d = ml.moves[i];
        int s = move_to(d), k = move_drop_type(d), futile = 0;
        Undo u1;
        pos_do_move(pos, d, &u1);
        gen_legal(pos, &caps);
        for (int j = 0; j < caps.count && !futile; j++) {
            Move cm = caps.moves[j];
            if (move_is_drop(cm) || move_to(cm) != s) continue;
            Undo u2;
            pos_do_move(pos, cm, &u2);
            if (in_check(pos)) {
                pos->hand[attacker][k]--;
                pos->hand_key -= ZOBRIST_HAND[attacker][k];
                futile = final_mate(pos, attacker, level + 1, memo);
                pos->hand[attacker][k]++;
                pos->hand_key += ZOBRIST_HAND[attacker][k];
            }
            pos_undo_move(pos, cm, &u2);
        }
        pos_undo_move(pos, d, &u1);
        mate = futile;
    }
    if (fm_find(*memo, k0, &slot) || slot >= 0) (*memo)->key[slot] = k0, (*memo)->mate[slot] = (uint8_t)mate;
    return mate;
}

int pc_final_mate(Position *pos, int attacker, int level) {
    FmMemo *memo = NULL;
    int mate = final_mate(pos, attacker, level, &memo);
    free(memo);
    return mate;
}

const char *pc_replay_line(const Position *pos, const Move *pv, int n, Position *at) {
    Position q = *pos;
    MoveList ml;
    const char *why = NULL;
    for (int k = 0; k < n && !why; k++) {
        gen_legal(&q, &ml);
        if (!movelist_has(&ml, pv[k])) { why = "illegal main-line move"; break; }
        Undo u;
        pos_do_move(&q, pv[k], &u);
        if (k % 2 == 0 && !in_check(&q)) why = "main-line attacker move does not check";
    }
    if (!why && !pc_final_mate(&q, pos->side, 0)) why = "main line does not end in mate";
    if (why && at) *at = q;
    return why;
}

int pc_verify(DfCtx *c, Position *pos, const TsAnswer *a, double deadline, char *msg, size_t len) {
    msg[0] = 0;
    Pc p = {c, pos->side, NULL, 0, 0, 0, 0, 0, msg, len};
    /* main line replay */
    if (a->npv) {
        Position q;
        if (a->npv % 2 == 0) { snprintf(msg, len, "main line has even length"); return 0; }
        const char *why = pc_replay_line(pos, a->pv, a->npv, &q);
        if (why) { fail(&p, &q, why); return 0; }
    }
    /* proof tree walk */
    uint64_t budget = df_nodes(c) + (4 * df_nodes(c) > 8000000 ? 4 * df_nodes(c) : 8000000);
    df_set_limits(c, budget, deadline);
    p.node_limit = budget;
    p.deadline = deadline;
    p.memo = memo_acquire(&p.gen);
    if (!p.memo) return 2;
    int ok = walk_or(&p, pos, a->plain_len > 0 ? a->plain_len : DF_MAX_DEPTH);
    if (p.undecided) { snprintf(msg, len, "undecided (limit)"); return 2; }
    return ok ? 1 : 0;
}
