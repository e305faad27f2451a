/* kif.c - KIF writer in the form common GUIs (Kifu for Windows, ShogiGUI,
 * KENTO, shogi-extend) read: BOD board, hands in kanji numerals, move lines
 * "   1 ２三銀打" with "(77)" origins, 同, 成/不成. */
#include "kif.h"
#include <string.h>
#include "../core/mate1.h"
#include "proofcheck.h"

const char *const KIF_FW_DIGIT[10] = {"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
static const char *const KANJI_NUM[19] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
                                          "十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八"};
/* one-character names for the diagram; move lines spell promoted minors as 成香 etc. */
static const char *const BOARD_NAME[PIECE_TYPE_NB] = {"", "歩", "香", "桂", "銀", "角", "飛", "金", "玉",
                                                      "と", "杏", "圭", "全", "馬", "龍"};
static const char *const MOVE_NAME[PIECE_TYPE_NB] = {"", "歩", "香", "桂", "銀", "角", "飛", "金", "玉",
                                                     "と", "成香", "成桂", "成銀", "馬", "龍"};

static void hand_line(FILE *f, const Position *pos, int c) {
    static const int ORDER[7] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};
    int any = 0;
    fputs(c == BLACK ? "先手の持駒：" : "後手の持駒：", f);
    for (int i = 0; i < 7; i++) {
        int k = pos->hand[c][ORDER[i]];
        if (!k) continue;
        fprintf(f, "%s%s　", BOARD_NAME[ORDER[i]], k > 1 ? KANJI_NUM[k] : "");
        any = 1;
    }
    fputs(any ? "\n" : "なし\n", f);
}

void kif_move_text(const Position *pos, Move m, int prev_to, char *buf, size_t len) {
    int to = move_to(m);
    char dest[16];
    if (to == prev_to) snprintf(dest, sizeof dest, "同　");
    else snprintf(dest, sizeof dest, "%s%s", KIF_FW_DIGIT[sq_file(to) + 1], KANJI_NUM[sq_rank(to) + 1]);
    if (move_is_drop(m)) {
        snprintf(buf, len, "%s%s打", dest, MOVE_NAME[move_drop_type(m)]);
        return;
    }
    int from = move_from(m), pt = piece_type(pos->board[from]), us = pos->side;
    const char *suffix = "";
    if (move_is_promo(m)) suffix = "成";
    else if (can_promote_type(pt) && (in_zone(us, from) || in_zone(us, to))) suffix = "不成";
    snprintf(buf, len, "%s%s%s(%d%d)", dest, MOVE_NAME[pt], suffix, sq_file(from) + 1, sq_rank(from) + 1);
}

/* One '*' line per line of comment (NULL: none). */
static void comment_lines(FILE *f, const char *comment) {
    for (const char *c = comment; c && *c;) {
        size_t line = strcspn(c, "\n");
        fprintf(f, "*%.*s\n", (int)line, c);
        c += line + (c[line] == '\n');
    }
}

/* Move lines numbered from first + 1, from pos (prev_to: the square of the move
 * before, for 同), then 詰み when the line mates; comment goes after the first line.
 * (No '+' after a move that has a branch, as Kakinoki's files have: python-shogi's
 * reader then drops the move, and the readers that build the tree go by 変化 lines.) */
static void move_lines(FILE *f, Position pos, int first, int prev_to, const Move *moves, int n, const char *comment) {
    for (int i = 0; i < n; i++) {
        char text[64];
        Undo u;
        kif_move_text(&pos, moves[i], prev_to, text, sizeof text);
        fprintf(f, "%4d %s\n", first + i + 1, text);
        if (i == 0) comment_lines(f, comment);
        prev_to = move_to(moves[i]);
        pos_do_move(&pos, moves[i], &u);
    }
    /* mate under the tsume rule too: in check with only futile drops left (合い効かず) */
    if (is_checkmated(&pos) || (in_check(&pos) && pc_final_mate(&pos, pos.side ^ 1, 0))) fprintf(f, "%4d 詰み\n", first + n + 1);
}

void kif_position_before(const Position *start, const Move *moves, int ply, Position *at, int *prev_to) {
    *at = *start;
    *prev_to = -1;
    for (int i = 0; i < ply - 1; i++) {
        Undo u;
        *prev_to = move_to(moves[i]);
        pos_do_move(at, moves[i], &u);
    }
}

/* (the parent line's position before, replayed up to i's ply) */
void kif_branch_position(const Position *start, const Move *main_line, const KifBranch *b, int i, Position *at,
                         int *prev_to) {
    int p = b[i].parent;
    if (p < 0) {
        kif_position_before(start, main_line, b[i].ply, at, prev_to);
        return;
    }
    Position from;
    kif_branch_position(start, main_line, b, p, &from, prev_to);
    kif_position_before(&from, b[p].moves, b[i].ply - b[p].ply + 1, at, prev_to);  /* (ply > the parent's) */
}

/* The branches of one line (parent: -1 the main line) at plies first..last, the
 * latest first: a reader attaches "変化：N手" to the last line written that
 * reaches ply N, so an earlier ply's branch must come after, and a branch's own
 * branches straight after it, before the next branch of its parent. */
static void write_branches(FILE *f, const Position *start, const Move *main_line, int parent, int first, int last,
                           const KifBranch *b, int nb) {
    for (int ply = last; ply >= first; ply--)
        for (int i = 0; i < nb; i++) {
            if (b[i].parent != parent || b[i].ply != ply || b[i].n < 1) continue;
            Position at;
            int prev_to;
            kif_branch_position(start, main_line, b, i, &at, &prev_to);
            fprintf(f, "\n変化：%d手\n", ply);
            move_lines(f, at, ply - 1, prev_to, b[i].moves, b[i].n, b[i].comment);
            write_branches(f, start, main_line, i, ply + 1, ply + b[i].n - 1, b, nb);
        }
}

int kif_write(FILE *f, const Position *start, const Move *moves, int n, const char *comment) {
    return kif_write_branches(f, start, moves, n, comment, NULL, 0);
}

int kif_write_branches(FILE *f, const Position *start, const Move *moves, int n, const char *comment,
                       const KifBranch *branches, int nb) {
    Position pos = *start;
    fputs("#KIF version=2.0 encoding=UTF-8\n", f);
    comment_lines(f, comment);
    hand_line(f, &pos, WHITE);
    fputs("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n", f);
    for (int r = 0; r < 9; r++) {
        fputc('|', f);
        for (int file = 8; file >= 0; file--) {
            int pc = pos.board[make_sq(file, r)];
            if (!pc) fputs(" ・", f);
            else fprintf(f, "%s%s", piece_color(pc) == WHITE ? "v" : " ", BOARD_NAME[piece_type(pc)]);
        }
        fprintf(f, "|%s\n", KANJI_NUM[r + 1]);
    }
    fputs("+---------------------------+\n", f);
    hand_line(f, &pos, BLACK);
    if (pos.side == WHITE) fputs("後手番\n", f);
    fputs("手数----指手---------消費時間--\n", f);
    move_lines(f, pos, 0, -1, moves, n, NULL);
    write_branches(f, start, moves, -1, 1, n, branches, nb);
    return ferror(f) ? -1 : 0;
}
