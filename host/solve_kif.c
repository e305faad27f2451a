/* solve_kif.c - solve --kif: each mate as a KIF file, its flaws and 変化 as
 * comments and branches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kif.h"
#include "solve_jobs.h"
#include "util.h"

/* The KIF's '*' lines below the length: the flaws, so that a reader of the file
 * alone sees why a problem is not 完全作 (余詰 with its ply, move and length, the
 * first KIF_YOZUME_SHOWN of them; 駒余り; the 余詰 test's bound when it had one; an
 * analysis cut short or not run). */
#define KIF_YOZUME_SHOWN 8
static void kif_flaw_lines(const TsAnswer *a, const Position *start, int flaws_run, char *buf, size_t len) {
    size_t at = strlen(buf);
#define KIF_ADD(...) util_buf_add(buf, len, &at, __VA_ARGS__)
    if (!flaws_run) {
        KIF_ADD("\n余詰と駒余りは未検討（--no-flaws）");
        return;
    }
    if (a->nyozume) {
        KIF_ADD("\n余詰:");
        for (int i = 0; i < a->nyozume && i < KIF_YOZUME_SHOWN; i++) {
            Position pos;
            int prev_to, ply = a->yozume[i].ply;
            kif_position_before(start, a->pv, ply <= a->npv ? ply : a->npv + 1, &pos, &prev_to);
            char text[64];
            kif_move_text(&pos, a->yozume[i].move, prev_to, text, sizeof text);
            KIF_ADD("%s%d手目 %s（%d手以内）", i ? "、" : " ", a->yozume[i].ply, text, a->yozume[i].length);
        }
        if (a->nyozume > KIF_YOZUME_SHOWN) KIF_ADD("、ほか%d", a->nyozume - KIF_YOZUME_SHOWN);
    }
    if (a->leftover && !a->leftover_unproved) KIF_ADD("\n駒余り: 持駒%d枚", a->leftover);
    if (a->yozume_bound >= 0) KIF_ADD("\n余詰は各手の残り手数+%d手まで検討（--yozume-confirm で手数無制限）", a->yozume_bound);
    if (!a->complete) KIF_ADD("\n余詰・駒余りの検討は制限で未完了");
#undef KIF_ADD
}

/* A branch's 変化別詰 as a comment line (the first KIF_YOZUME_SHOWN of them): ply,
 * move and length, as 余詰 are given. */
static void kif_betsu_line(const Position *start, const Move *main_line, const KifBranch *br, int i,
                           const TsVariation *v, char *buf, size_t len) {
    if (!v->nbetsu) return;
    size_t at = strlen(buf);
    Position from, pos;
    int prev_to;
    kif_branch_position(start, main_line, br, i, &from, &prev_to);
    util_buf_add(buf, len, &at, "%s変化別詰:", at ? "\n" : "");
    for (int b = 0; b < v->nbetsu && b < KIF_YOZUME_SHOWN && b < TS_MAX_YOZUME; b++) {
        kif_position_before(&from, v->moves, v->betsu[b].ply - v->ply + 1, &pos, &prev_to);  /* (ply > v->ply) */
        char text[64];
        kif_move_text(&pos, v->betsu[b].move, prev_to, text, sizeof text);
        util_buf_add(buf, len, &at, "%s%d手目 %s（%d手）", b ? "、" : " ", v->betsu[b].ply, text, v->betsu[b].length);
    }
    if (v->nbetsu > KIF_YOZUME_SHOWN) util_buf_add(buf, len, &at, "、ほか%d", v->nbetsu - KIF_YOZUME_SHOWN);
}

void solve_write_kif(const Job *j, int idx, const SolveOpts *o) {
    const TsAnswer *a = &j->ans;
    int shown = a->npv ? a->npv : a->nline;  /* (a line is found only where the length is open) */
    if (!o->kif_dir || !j->ok || a->result != TS_MATE || !shown) return;
    char path[1024], comment[1024];
    snprintf(path, sizeof path, "%s/%04d.kif", o->kif_dir, idx + 1);
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "tsumegen solve: cannot write %s: %s\n", path, strerror(errno)); return; }
    if (a->npv) {
        snprintf(comment, sizeof comment, "%d手詰%s", a->length, a->perfect ? " 完全作" : "");
        kif_flaw_lines(a, &j->pos, o->flaws, comment, sizeof comment);  /* (perfect: the bound alone) */
    } else {
        snprintf(comment, sizeof comment, "%d手以内の詰（%d手以上、最短未証明、手順は一例）", a->length, a->length_lb);
    }
    /* one branch per variation, so that a variation's parent index is its branch's;
     * one without a mating line is an empty branch, which the writer leaves out.
     * Then one per refutation (紛れ): the wrong check and its reply, from the main line */
    int nv = j->vars.n, nr = j->refs.n, nb = nv + nr;
    KifBranch *br = nb ? calloc((size_t)nb, sizeof *br) : NULL;
    char (*brc)[512] = nb ? calloc((size_t)nb, sizeof *brc) : NULL;
    Move (*rm)[2] = nr ? calloc((size_t)nr, sizeof *rm) : NULL;
    int left_out = j->vars.cut || (nv && (!br || !brc));
    for (int i = 0; br && brc && rm && i < nr; i++) {
        const TsRefutation *r = &j->refs.r[i];
        rm[i][0] = r->move;
        rm[i][1] = r->reply;
        static const char *const WHY[] = {"", "成不成", "最終手", "迂回", "余詰の検討範囲より長い余詰", "迂回か余詰か未判定"};
        if (r->mates) snprintf(brc[nv + i], sizeof brc[nv + i], "この手でも詰む（%s）", WHY[r->mates]);
        else if (r->reply == MOVE_NONE) snprintf(brc[nv + i], sizeof brc[nv + i], "紛れ（応手は制限で未検討）");
        else if (r->within) snprintf(brc[nv + i], sizeof brc[nv + i], "紛れ（%d手以内の詰なし）", r->within);
        else snprintf(brc[nv + i], sizeof brc[nv + i], "紛れ（不詰）");
        br[nv + i] = (KifBranch){r->ply, rm[i], r->reply == MOVE_NONE ? 1 : 2, brc[nv + i], -1};
    }
    for (int i = 0; br && brc && i < nv; i++) {
        const TsVariation *v = &j->vars.v[i];
        if (v->result != TS_MATE) { left_out = 1; continue; }  /* (calloc: n = 0) */
        /* (as long as the line it leaves from its ply: 変同, the tie that line was chosen from) */
        const TsVariation *p = v->parent >= 0 ? &j->vars.v[v->parent] : NULL;
        int from_there = p ? p->length - (v->ply - p->ply) : a->length - v->ply + 1;
        if (!v->exact) snprintf(brc[i], sizeof brc[i], "この変化は最短未証明（%d手以内の詰）", v->length);
        else if (a->npv && v->length == from_there)
            snprintf(brc[i], sizeof brc[i], "変同（%sと同手数）", p ? "分岐元の変化" : "本手順");
        if (v->exact && v->leftover) {  /* (as a traditional answer says of such a variation) */
            size_t at = strlen(brc[i]);
            util_buf_add(brc[i], sizeof brc[i], &at, "%s駒余り（持駒%d枚）", at ? "\n" : "", v->leftover);
        }
        br[i] = (KifBranch){v->ply, v->moves, v->nmoves, NULL, v->parent};
        kif_betsu_line(&j->pos, a->npv ? a->pv : a->line, br, i, v, brc[i], sizeof brc[i]);
        br[i].comment = brc[i][0] ? brc[i] : NULL;
    }
    size_t at = strlen(comment);
    int betsu = 0, betsu_lines = 0;
    for (int i = 0; i < nv; i++) {
        betsu += j->vars.v[i].nbetsu;
        betsu_lines += j->vars.v[i].nbetsu > 0;
    }
    if (betsu) util_buf_add(comment, sizeof comment, &at, "\n変化別詰: %d変化に%d手（各変化の注記）", betsu_lines, betsu);
    if (left_out) util_buf_add(comment, sizeof comment, &at, "\n変化の一部は制限で未検討");
    if (j->refs.run) {
        util_buf_add(comment, sizeof comment, &at, "\n紛れ: %d手（各分岐に応手）", nr - j->refs.undecided - j->refs.mates);
        if (j->refs.mates) util_buf_add(comment, sizeof comment, &at, "、ほか%d手は詰む", j->refs.mates);
        if (j->refs.undecided) util_buf_add(comment, sizeof comment, &at, "、ほか%d手は制限で未検討", j->refs.undecided);
        if (j->refs.cut) util_buf_add(comment, sizeof comment, &at, "、中断");
    }
    kif_write_branches(f, &j->pos, a->npv ? a->pv : a->line, shown, comment, br, br && brc && (rm || !nr) ? nb : 0);
    free(br);
    free(brc);
    free(rm);
    fclose(f);
}

