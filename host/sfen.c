/* sfen.c - SFEN and USI text <-> Position / Move, with the rejections of TSUME_RULES.md. */
#include "sfen.h"
#include <stdio.h>
#include <string.h>
#include "../core/movegen.h"
#include "util.h"

static const char PIECE_CHARS[] = ".PLNSBRGK";  /* index = piece type 1..8 */
static const int SET_COUNT[HAND_TYPE_NB + 1] = {SET_COUNT_LIST, 2};  /* (and two kings) */
static const char *const COLOR_NAME[2] = {"black", "white"};
static const char *const KIND_NAME[9] = {"", "pawns", "lances", "knights", "silvers", "bishops", "rooks", "golds", "kings"};

static int letter_type(char ch) {
    char u = (ch >= 'a' && ch <= 'z') ? (char)(ch - 32) : ch;
    const char *p = strchr(PIECE_CHARS + 1, u);
    return (p && u) ? (int)(p - PIECE_CHARS) : 0;
}

static void sq_name(int sq, char *buf) {
    buf[0] = (char)('1' + sq_file(sq));
    buf[1] = (char)('a' + sq_rank(sq));
    buf[2] = 0;
}

static int parse_board(const char *b, size_t n, Position *pos, char *err, size_t el) {
    int rank = 0, file = 8;
    for (size_t i = 0; i < n; i++) {
        char ch = b[i];
        if (ch == '/') {
            if (file != -1) return util_fail(err, el, "bad SFEN board: rank %d has %d squares (expected 9)", rank + 1, 8 - file);
            if (++rank > 8) return util_fail(err, el, "bad SFEN board: more than 9 ranks");
            file = 8;
        } else if (ch >= '1' && ch <= '9') {
            if (i > 0 && b[i - 1] >= '1' && b[i - 1] <= '9')
                return util_fail(err, el, "bad SFEN board: two digits in a row in rank %d", rank + 1);
            file -= ch - '0';
            if (file < -1) return util_fail(err, el, "bad SFEN board: rank %d has more than 9 squares", rank + 1);
        } else {
            int promo = 0;
            if (ch == '+') {
                promo = 1;
                if (++i >= n) return util_fail(err, el, "bad SFEN board: '+' at the end of the board");
                ch = b[i];
            }
            int pt = letter_type(ch);
            if (!pt) return util_fail(err, el, "bad SFEN board: unknown piece letter '%c'", ch);
            if (promo && !can_promote_type(pt))
                return util_fail(err, el, "bad SFEN board: '+%c' is not a piece (only P L N S B R promote)", ch);
            if (file < 0) return util_fail(err, el, "bad SFEN board: rank %d has more than 9 squares", rank + 1);
            int c = (ch >= 'a') ? WHITE : BLACK;
            int sq = make_sq(file, rank);
            if (pt == KING && pos->king_sq[c] != SQ_NONE) return util_fail(err, el, "more than one %s king", COLOR_NAME[c]);
            pos_put(pos, sq, make_piece(c, promo ? pt + PROMOTE : pt));
            file--;
        }
    }
    if (rank != 8) return util_fail(err, el, "bad SFEN board: %d ranks (expected 9)", rank + 1);
    if (file != -1) return util_fail(err, el, "bad SFEN board: rank 9 has %d squares (expected 9)", 8 - file);
    return 0;
}

static int parse_hand(const char *h, size_t n, Position *pos, char *err, size_t el) {
    int seen[2][HAND_TYPE_NB] = {{0}};
    if (n == 1 && h[0] == '-') return 0;
    for (size_t i = 0; i < n;) {
        int count = 1;
        if (h[i] >= '0' && h[i] <= '9') {
            if (h[i] == '0') return util_fail(err, el, "bad SFEN hand: count with a leading zero or zero count");
            count = 0;
            for (; i < n && h[i] >= '0' && h[i] <= '9'; i++)
                if (count < 1000) count = count * 10 + (h[i] - '0');  /* capped: any count this big is too many */
            if (count > 999) return util_fail(err, el, "bad SFEN hand: count too large (the set has 18 pawns at most)");
            if (i >= n) return util_fail(err, el, "bad SFEN hand: count %d without a piece letter", count);
            if (count < 2) return util_fail(err, el, "bad SFEN hand: count %d (write a single piece without a count)", count);
        }
        char ch = h[i++];
        int pt = letter_type(ch);
        if (!pt) return util_fail(err, el, "bad SFEN hand: unknown piece letter '%c'", ch);
        if (pt == KING) return util_fail(err, el, "bad SFEN hand: a king cannot be in hand");
        int c = (ch >= 'a') ? WHITE : BLACK;
        if (seen[c][pt]++) return util_fail(err, el, "bad SFEN hand: '%c' appears twice", ch);
        if (count > SET_COUNT[pt]) return util_fail(err, el, "too many %s: %d in hand (the set has %d)", KIND_NAME[pt], count, SET_COUNT[pt]);
        pos->hand[c][pt] = (uint8_t)count;
    }
    return 0;
}

/* Count every piece by unpromoted kind: board, both hands. */
static void count_set(const Position *pos, int total[9]) {
    for (int k = 0; k < 9; k++) total[k] = 0;
    for (int sq = 0; sq < SQ_NB; sq++)
        if (pos->board[sq]) total[raw_type(piece_type(pos->board[sq]))]++;
    for (int c = 0; c < 2; c++)
        for (int pt = PAWN; pt <= GOLD; pt++) total[pt] += pos->hand[c][pt];
}

static int validate(Position *pos, int strict_hands, char *err, size_t el) {
    int total[9], us = pos->side, them = us ^ 1;
    char sq[3];
    if (!strict_hands) {  /* hand convention: the defender holds every remaining piece */
        for (int pt = PAWN; pt <= GOLD; pt++) pos->hand[them][pt] = 0;
        count_set(pos, total);
        for (int pt = PAWN; pt <= GOLD; pt++)
            if (total[pt] < SET_COUNT[pt]) pos->hand[them][pt] = (uint8_t)(SET_COUNT[pt] - total[pt]);
    }
    count_set(pos, total);
    for (int pt = PAWN; pt <= GOLD; pt++)
        if (total[pt] > SET_COUNT[pt])
            return util_fail(err, el, "too many %s: %d on board and in hands (the set has %d)", KIND_NAME[pt], total[pt], SET_COUNT[pt]);
    if (pos->king_sq[them] == SQ_NONE) return util_fail(err, el, "the defender (%s, not to move) has no king", COLOR_NAME[them]);
    for (int s = 0; s < SQ_NB; s++) {
        int pc = pos->board[s];
        if (!pc) continue;
        int c = piece_color(pc), pt = piece_type(pc), r = rel_rank(c, s);
        sq_name(s, sq);
        if ((pt == PAWN || pt == LANCE) && r == 0)
            return util_fail(err, el, "%s %s on %s can never move (dead piece)", COLOR_NAME[c], pt == PAWN ? "pawn" : "lance", sq);
        if (pt == KNIGHT && r <= 1) return util_fail(err, el, "%s knight on %s can never move (dead piece)", COLOR_NAME[c], sq);
    }
    for (int c = 0; c < 2; c++)
        for (int f = 0; f < 9; f++)
            if (bb_count(bb_and(pieces_ct(pos, c, PAWN), bb_file(f))) > 1)
                return util_fail(err, el, "two %s pawns on file %d (nifu)", COLOR_NAME[c], f + 1);
    if (bb_any(attackers_to(pos, us, pos->king_sq[them], pos->occupied)))
        return util_fail(err, el, "the side not to move (%s) is in check", COLOR_NAME[them]);
    return 0;
}

int sfen_parse(const char *text, Position *pos, int strict_hands, char *err, size_t el) {
    const char *f[5];
    size_t fl[5];
    int nf = 0;
    pos_clear(pos);
    while (*text == ' ' || *text == '\t') text++;
    if (strncmp(text, "sfen ", 5) == 0) text += 5;
    if (strcmp(text, "startpos") == 0) text = SFEN_STARTPOS;
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) break;
        if (nf == 4) return util_fail(err, el, "bad SFEN: more than 4 fields");
        f[nf] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') p++;
        fl[nf] = (size_t)(p - f[nf]);
        nf++;
    }
    if (nf == 0) return util_fail(err, el, "bad SFEN: empty input");
    if (nf < 3) return util_fail(err, el, "bad SFEN: %d field%s (expected board, side, hand and optional move number)", nf, nf == 1 ? "" : "s");
    if (parse_board(f[0], fl[0], pos, err, el)) return -1;
    if (fl[1] != 1 || (f[1][0] != 'b' && f[1][0] != 'w'))
        return util_fail(err, el, "bad SFEN: side to move must be 'b' or 'w', got '%.*s'", (int)(fl[1] > 20 ? 20 : fl[1]), f[1]);
    pos->side = f[1][0] == 'b' ? BLACK : WHITE;
    if (parse_hand(f[2], fl[2], pos, err, el)) return -1;
    if (nf == 4) {
        for (size_t i = 0; i < fl[3]; i++)
            if (f[3][i] < '0' || f[3][i] > '9') return util_fail(err, el, "bad SFEN: move number '%.*s' is not a number", (int)(fl[3] > 20 ? 20 : fl[3]), f[3]);
        if (f[3][0] == '0') return util_fail(err, el, "bad SFEN: move number must be 1 or more (no leading zero)");
        if (fl[3] > 9) return util_fail(err, el, "bad SFEN: move number '%.20s...' is too large", f[3]);
    }
    if (validate(pos, strict_hands, err, el)) return -1;
    pos_compute_keys(pos, &pos->board_key, &pos->hand_key);
    return 0;
}

void sfen_format(const Position *pos, char *buf, size_t len) {
    char out[SFEN_MAX];
    size_t n = 0;
    for (int rank = 0; rank < 9; rank++) {
        int empty = 0;
        for (int file = 8; file >= 0; file--) {
            int pc = pos->board[make_sq(file, rank)];
            if (!pc) { empty++; continue; }
            if (empty) out[n++] = (char)('0' + empty), empty = 0;
            int pt = piece_type(pc);
            if (pt > KING) out[n++] = '+', pt -= PROMOTE;
            out[n++] = (char)(PIECE_CHARS[pt] + (piece_color(pc) == WHITE ? 32 : 0));
        }
        if (empty) out[n++] = (char)('0' + empty);
        if (rank < 8) out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = pos->side == BLACK ? 'b' : 'w';
    out[n++] = ' ';
    size_t hand_start = n;
    static const int ORDER[7] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 7; i++) {
            int pt = ORDER[i], k = pos->hand[c][pt];
            if (!k) continue;
            if (k > 1) n += (size_t)snprintf(out + n, sizeof out - n, "%d", k);
            out[n++] = (char)(PIECE_CHARS[pt] + (c == WHITE ? 32 : 0));
        }
    if (n == hand_start) out[n++] = '-';
    out[n] = 0;
    snprintf(buf, len, "%s 1", out);
}

void move_format(Move m, char *buf) {
    int to = move_to(m);
    if (move_is_drop(m)) {
        buf[0] = PIECE_CHARS[move_drop_type(m)];
        buf[1] = '*';
    } else {
        buf[0] = (char)('1' + sq_file(move_from(m)));
        buf[1] = (char)('a' + sq_rank(move_from(m)));
    }
    buf[2] = (char)('1' + sq_file(to));
    buf[3] = (char)('a' + sq_rank(to));
    buf[4] = move_is_promo(m) ? '+' : 0;
    buf[5] = 0;
}

static int parse_sq(const char *s) {
    if (s[0] < '1' || s[0] > '9' || s[1] < 'a' || s[1] > 'i') return -1;
    return make_sq(s[0] - '1', s[1] - 'a');
}

/* Says why m (well-formed, from a piece of the side to move or a drop of a
 * piece in hand onto an empty square) is not among the legal moves. */
static int explain_illegal(const Position *pos, Move m, const char *t, char *err, size_t el) {
    int us = pos->side, to = move_to(m);
    int pt = move_is_drop(m) ? move_drop_type(m) : piece_type(pos->board[move_from(m)]);
    if (move_is_drop(m)) {
        if (pt == PAWN && pawn_on_file(pos, us, sq_file(to)))
            return util_fail(err, el, "illegal move '%s': %s already has a pawn on file %d (nifu)", t, COLOR_NAME[us], sq_file(to) + 1);
    } else {
        int from = move_from(m), tc = pos->board[to];
        if (tc && piece_color(tc) == us) return util_fail(err, el, "illegal move '%s': %c%c holds a %s piece", t, t[2], t[3], COLOR_NAME[us]);
        if (!bb_test(piece_attack(us, pt, from, pos->occupied), to))
            return util_fail(err, el, "illegal move '%s': the piece on %.2s cannot reach %c%c", t, t, t[2], t[3]);
        if (move_is_promo(m) && !can_promote_type(pt))
            return util_fail(err, el, "illegal move '%s': this piece cannot promote", t);
        if (move_is_promo(m) && !in_zone(us, from) && !in_zone(us, to))
            return util_fail(err, el, "illegal move '%s': promotion needs a start or end in the promotion zone", t);
    }
    int r = rel_rank(us, to);
    if (!move_is_promo(m) && (((pt == PAWN || pt == LANCE) && r == 0) || (pt == KNIGHT && r <= 1)))
        return util_fail(err, el, "illegal move '%s': the piece could never move from %c%c (%s)", t, t[2], t[3],
                    move_is_drop(m) ? "dead drop" : "it must promote");
    Position after = *pos;
    Undo u;
    pos_do_move(&after, m, &u);
    int ksq = after.king_sq[us];
    if (ksq != SQ_NONE && bb_any(attackers_to(&after, us ^ 1, ksq, after.occupied)))
        return util_fail(err, el, "illegal move '%s': it leaves the %s king in check", t, COLOR_NAME[us]);
    if (move_is_drop(m) && pt == PAWN && in_check(&after) && is_pawn_drop_mate(pos, to))
        return util_fail(err, el, "illegal move '%s': pawn-drop mate (uchifuzume) is not allowed", t);
    return util_fail(err, el, "illegal move '%s' in this position", t);
}

int move_parse(const Position *pos, const char *t, Move *out, char *err, size_t el) {
    size_t n = strlen(t);
    int us = pos->side;
    Move m;
    if (n < 4 || n > 5) return util_fail(err, el, "bad USI move '%.12s': expected 4 or 5 characters like 7g7f, 8h2b+ or P*5e", t);
    int to = parse_sq(t + 2);
    if (to < 0) return util_fail(err, el, "bad USI move '%s': '%.2s' is not a square (1a..9i)", t, t + 2);
    if (t[1] == '*') {
        int pt = letter_type(t[0]);
        if (!pt || t[0] >= 'a' || pt == KING || n != 4) return util_fail(err, el, "bad USI move '%s': a drop is like P*5e (piece letter P L N S G B R)", t);
        if (!pos->hand[us][pt]) return util_fail(err, el, "illegal move '%s': no %.*s in %s's hand", t, (int)strlen(KIND_NAME[pt]) - 1, KIND_NAME[pt], COLOR_NAME[us]);
        if (pos->board[to]) return util_fail(err, el, "illegal move '%s': %c%c is occupied", t, t[2], t[3]);
        m = make_drop(pt, to);
    } else {
        int from = parse_sq(t);
        if (from < 0) return util_fail(err, el, "bad USI move '%s': '%.2s' is not a square (1a..9i)", t, t);
        if (n == 5 && t[4] != '+') return util_fail(err, el, "bad USI move '%s': only '+' may follow the destination", t);
        if (!pos->board[from]) return util_fail(err, el, "illegal move '%s': no piece on %.2s", t, t);
        if (piece_color(pos->board[from]) != us) return util_fail(err, el, "illegal move '%s': the piece on %.2s is not %s's", t, t, COLOR_NAME[us]);
        m = make_move(from, to, n == 5);
    }
    MoveList l;
    gen_legal(pos, &l);
    for (int i = 0; i < l.count; i++)
        if (l.moves[i] == m) { *out = m; return 0; }
    return explain_illegal(pos, m, t, err, el);
}

int sfen_play_moves(Position *pos, char *text, Move *out, int max, int *n, char *err, size_t el) {
    char why[ERR_MAX / 2], *save = NULL;
    *n = 0;
    for (char *t = text ? strtok_r(text, " \t", &save) : NULL; t; t = strtok_r(NULL, " \t", &save)) {
        Move m;
        if (out && *n >= max) return 1;
        if (move_parse(pos, t, &m, why, sizeof why)) return util_fail(err, el, "move %d (%.8s): %s", *n + 1, t, why);
        Undo u;
        pos_do_move(pos, m, &u);
        if (out) out[*n] = m;
        ++*n;
    }
    return 0;
}
