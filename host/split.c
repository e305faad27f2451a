/* split.c - the last bound of a bounded mate question split by root check (see
 * split.h). */
#include <stdlib.h>
#include "split.h"

#define SPLIT_FIRST_CAP 250000

/* "Mate within B - 2 after check m and defence d?" with cap more nodes: as
 * df_exact_or bottom up (B: none within B - 2; -2: the cap or a stop). */
static int split_probe(DfCtx *h, Position *pos, Move m, Move d, int B, uint64_t cap, double deadline, int *lb) {
    Undo u1, u2;
    pos_do_move(pos, m, &u1);
    pos_do_move(pos, d, &u2);
    df_set_limits(h, df_nodes(h) + cap, deadline);
    int L = df_exact_or(h, pos, B, lb);
    pos_undo_move(pos, d, &u2);
    pos_undo_move(pos, m, &u1);
    return L;
}

/* The defence of a check with the highest proved lower bound among those not
 * mated within the bound (the likeliest refutation), or -1 if all are mated. */
static int split_pick(const uint8_t *mated, const int16_t *lbs, int n) {
    int best = -1;
    for (int k = 0; k < n; k++)
        if (!mated[k] && (best < 0 || lbs[k] > lbs[best])) best = k;
    return best;
}

/* For each root check m some defence d must leave no mate within B - 2.  The first
 * round asks that of every (m, d) pair with a small node cap (df_exact_or bottom
 * up, so the lower bounds it proves serve the owner's earlier rounds too); each
 * later round doubles the cap and goes on with one pair per open check, the
 * defence with the highest lower bound so far; a check is closed once a defence
 * refutes it or every defence is mated.  (Every open pair in every round measured
 * 46 s against 39 s for the owner alone on Zuko 21's "mate within 15?"; one
 * defence per check: 31-35 s, and 72-79 s against 169 s within 17.) */
void split_last_bound(DfCtx *h, const Position *root, int B, double deadline) {
    Position pos = *root;
    MoveList *checks = malloc(sizeof *checks), *ev = NULL;
    uint8_t *done = NULL, (*mated)[MAX_MOVES] = NULL;
    int16_t (*lbs)[MAX_MOVES] = NULL;
    if (!checks) return;
    int n = gen_checks(&pos, checks), nn = n ? n : 1;
    ev = malloc(sizeof *ev * nn);
    done = calloc(nn, 1);
    mated = calloc(nn, sizeof *mated);
    lbs = calloc(nn, sizeof *lbs);
    if (!ev || !done || !mated || !lbs) goto out;
    for (int i = 0; i < n; i++) {  /* each check's defences, board moves first */
        Undo u;
        pos_do_move(&pos, checks->moves[i], &u);
        gen_evasions(&pos, &ev[i]);
        pos_undo_move(&pos, checks->moves[i], &u);
        int nb = 0;
        Move drops[MAX_MOVES];
        for (int k = 0, nd = 0; k < ev[i].count; k++) {
            Move d = ev[i].moves[k];
            if (move_is_drop(d)) drops[nd++] = d;
            else ev[i].moves[nb++] = d;
        }
        for (int k = nb; k < ev[i].count; k++) ev[i].moves[k] = drops[k - nb];
    }
    for (uint64_t cap = SPLIT_FIRST_CAP, round = 0;; cap *= 2, round++) {
        int open = 0;
        for (int i = 0; i < n; i++) {
            if (done[i]) continue;
            for (int k = round ? split_pick(mated[i], lbs[i], ev[i].count) : 0; k >= 0 && k < ev[i].count && !done[i];) {
                int lb = 1, L = split_probe(h, &pos, checks->moves[i], ev[i].moves[k], B, cap, deadline, &lb);
                if (df_stopped(h) || (deadline > 0 && df_now() >= deadline)) goto out;
                if (L == B) done[i] = 1;  /* no mate within B - 2 after (m, d): m is refuted */
                else if (L > 0) mated[i][k] = 1;
                if (lb > lbs[i][k]) lbs[i][k] = (int16_t)lb;
                k = round ? -1 : k + 1;
            }
            if (!done[i] && split_pick(mated[i], lbs[i], ev[i].count) < 0) done[i] = 1;  /* m mates within B */
            open += !done[i];
        }
        if (!open) break;
    }
out:
    free(checks);
    free(ev);
    free(done);
    free(mated);
    free(lbs);
}
