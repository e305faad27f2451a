/* csa_read.c - CSA records as input (see csa_read.h).  A game is read whole first
 * (its position statements into a Setup, its move statements kept), then the
 * position goes through sfen_parse and the moves through move_parse, so that CSA
 * input is held to exactly the rules that SFEN and USI input are. */
#include "csa_read.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

struct CsaReader {
    char *text;  /* lines NUL-terminated in place */
    char **lines;
    int nlines, at;
};

/* CSA's two-letter piece names, by piece type (PAWN = 1 ... DRAGON = 14). */
static const char CSA_NAME[PIECE_TYPE_NB][3] = {"", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU",
                                                "TO", "NY", "NK", "NG", "UM", "RY"};
static const int SET_COUNT[HAND_TYPE_NB] = {SET_COUNT_LIST};

typedef struct {
    int board[SQ_NB];           /* make_piece(colour, type), 0 empty */
    int hand[COLOR_NB][HAND_TYPE_NB];
    int al;                     /* the colour given 00AL (every piece left), -1 none */
    int given;                  /* some position statement was read */
} Setup;

static int piece_of(const char *s) {
    for (int t = PAWN; t < PIECE_TYPE_NB; t++)
        if (s[0] == CSA_NAME[t][0] && s[1] == CSA_NAME[t][1]) return t;
    return 0;
}

/* "77" -> the square, "00" -> -2 (a hand), anything else -> -1. */
static int square_of(const char *s) {
    if (s[0] == '0' && s[1] == '0') return -2;
    if (s[0] < '1' || s[0] > '9' || s[1] < '1' || s[1] > '9') return -1;
    return make_sq(s[0] - '1', s[1] - '1');
}

static int fail(char *err, size_t len, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t len, int line, const char *fmt, ...) {
    int k = snprintf(err, len, "line %d: ", line);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < len) vsnprintf(err + k, len - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

/* The initial position (PI), before its removals. */
static void setup_hirate(Setup *s) {
    static const int BACK[9] = {LANCE, KNIGHT, SILVER, GOLD, KING, GOLD, SILVER, KNIGHT, LANCE};
    for (int f = 0; f < 9; f++) {
        s->board[make_sq(f, 0)] = make_piece(WHITE, BACK[f]);
        s->board[make_sq(f, 2)] = make_piece(WHITE, PAWN);
        s->board[make_sq(f, 6)] = make_piece(BLACK, PAWN);
        s->board[make_sq(f, 8)] = make_piece(BLACK, BACK[f]);
    }
    s->board[make_sq(7, 1)] = make_piece(WHITE, ROOK);    /* 8b */
    s->board[make_sq(1, 1)] = make_piece(WHITE, BISHOP);  /* 2b */
    s->board[make_sq(7, 7)] = make_piece(BLACK, BISHOP);  /* 8h */
    s->board[make_sq(1, 7)] = make_piece(BLACK, ROOK);    /* 2h */
}

/* One position statement (PI..., P1..P9, P+..., P-...) into s. */
static int position_statement(Setup *s, const char *t, int line, char *err, size_t el) {
    s->given = 1;
    if (t[1] == 'I') {
        setup_hirate(s);
        for (t += 2; *t; t += 4) {  /* removals: "82HI" */
            int sq = strlen(t) >= 4 ? square_of(t) : -1, pt = sq >= 0 ? piece_of(t + 2) : 0;
            if (sq < 0 || !pt || !s->board[sq] || piece_type(s->board[sq]) != pt)
                return fail(err, el, line, "PI: '%.4s' does not name a piece of the initial position", t);
            s->board[sq] = 0;
        }
        return 0;
    }
    if (t[1] >= '1' && t[1] <= '9') {
        int rank = t[1] - '1';
        size_t n = strlen(t);
        for (int i = 0; i < 9; i++) {  /* cells of three characters, file 9 first; a short line is empty at its end */
            const char *c = t + 2 + 3 * i;
            if ((size_t)(c - t) >= n || (c[0] == ' ' && (c[1] == '*' || c[1] == ' ' || !c[1]))) continue;
            int pt = (c[0] == '+' || c[0] == '-') && (size_t)(c - t) + 3 <= n ? piece_of(c + 1) : 0;
            if (!pt) return fail(err, el, line, "P%c: cell %d is '%.3s', not ' * ', +XX or -XX", t[1], i + 1, c);
            s->board[make_sq(8 - i, rank)] = make_piece(c[0] == '+' ? BLACK : WHITE, pt);
        }
        return 0;
    }
    int us = t[1] == '+' ? BLACK : WHITE;
    for (t += 2; *t; t += 4) {  /* "SSPP": a square and a piece, 00 for the hand, 00AL for the rest */
        if (strlen(t) < 4) return fail(err, el, line, "P%c: '%s' is not a square and a piece", us == BLACK ? '+' : '-', t);
        int sq = square_of(t);
        if (sq == -2 && t[2] == 'A' && t[3] == 'L') {
            if (t[4]) return fail(err, el, line, "00AL must end its line");
            s->al = us;
            continue;
        }
        int pt = piece_of(t + 2);
        if (sq == -1 || !pt || (sq == -2 && (pt == KING || pt > KING)))
            return fail(err, el, line, "P%c: '%.4s' is not a square and a piece", us == BLACK ? '+' : '-', t);
        if (sq == -2) s->hand[us][pt]++;
        else if (s->board[sq]) return fail(err, el, line, "P%c: square %.2s is taken twice", us == BLACK ? '+' : '-', t);
        else s->board[sq] = make_piece(us, pt);
    }
    return 0;
}

/* The SFEN text of s with side to move `side` (00AL filled in here, so that it
 * holds with strict hands too); sfen_parse judges the rest.  sfen_format reads only
 * the board, the hands and the side, which are all a Setup has.  -1 when s has more
 * of a kind than the set (a P row can name 81 pieces: the text would not fit). */
static int setup_sfen(Setup *s, int side, char *out, size_t len, int line, char *err, size_t el) {
    static const char *const KIND[HAND_TYPE_NB + 1] = {"", "pawns", "lances", "knights", "silvers", "bishops", "rooks", "golds", "kings"};
    int left[HAND_TYPE_NB + 1];
    memcpy(left, SET_COUNT, sizeof SET_COUNT);
    left[KING] = 2;
    for (int sq = 0; sq < SQ_NB; sq++)
        if (s->board[sq]) left[raw_type(piece_type(s->board[sq]))]--;
    for (int c = 0; c < COLOR_NB; c++)
        for (int pt = PAWN; pt <= GOLD; pt++) left[pt] -= s->hand[c][pt];
    for (int pt = PAWN; pt <= KING; pt++)
        if (left[pt] < 0) return fail(err, el, line, "position: more %s than a set has (%d)", KIND[pt], pt == KING ? 2 : SET_COUNT[pt]);
    for (int pt = PAWN; pt <= GOLD && s->al >= 0; pt++) s->hand[s->al][pt] += left[pt];
    Position p;
    memset(&p, 0, sizeof p);
    for (int sq = 0; sq < SQ_NB; sq++) p.board[sq] = (uint8_t)s->board[sq];
    for (int c = 0; c < COLOR_NB; c++)
        for (int pt = PAWN; pt <= GOLD; pt++) p.hand[c][pt] = (uint8_t)s->hand[c][pt];
    p.side = side;
    sfen_format(&p, out, len);
    return 0;
}

/* One move statement ("+7776FU") played on pos: 0 (*out the move) or -1.  The
 * move it names goes through move_parse as USI text, which judges its legality. */
static int move_statement(Position *pos, const char *t, int ply, int line, Move *out, char *err, size_t el) {
    int from = strlen(t) == 7 ? square_of(t + 1) : -1, to = strlen(t) == 7 ? square_of(t + 3) : -1;
    int pt = strlen(t) == 7 ? piece_of(t + 5) : 0;
    if (from == -1 || to < 0 || !pt) return fail(err, el, line, "move %d: '%s' is not a CSA move (+7776FU)", ply, t);
    if ((t[0] == '+') != (pos->side == BLACK))
        return fail(err, el, line, "move %d (%s): it is %s's turn", ply, t, pos->side == BLACK ? "black (+)" : "white (-)");
    Move named;
    if (from == -2) {
        if (pt > GOLD) return fail(err, el, line, "move %d (%s): only FU..KI can be dropped", ply, t);
        named = make_drop(pt, to);
    } else {
        int pc = pos->board[from], have = piece_type(pc);
        if (!pc || piece_color(pc) != pos->side)
            return fail(err, el, line, "move %d (%s): no piece of the side to move on %.2s", ply, t, t + 1);
        int promo = pt == have + PROMOTE && can_promote_type(have);
        if (pt != have && !promo)
            return fail(err, el, line, "move %d (%s): the piece on %.2s is %s, not %s", ply, t, t + 1, CSA_NAME[have], t + 5);
        named = make_move(from, to, promo);
    }
    char usi[8];
    move_format(named, usi);
    Move m;
    char why[ERR_MAX];
    if (move_parse(pos, usi, &m, why, sizeof why)) return fail(err, el, line, "move %d (%s): %s", ply, t, why);
    Undo u;
    pos_do_move(pos, m, &u);
    *out = m;
    return 0;
}

CsaReader *csa_reader_new(const char *data, size_t n) {
    if (n >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) data += 3, n -= 3;  /* (a UTF-8 byte order mark) */
    CsaReader *r = calloc(1, sizeof *r);
    if (!r || !(r->text = malloc(n + 1))) { free(r); return NULL; }
    memcpy(r->text, data, n);
    r->text[n] = 0;
    if (!(r->lines = util_split_lines(r->text, &r->nlines))) { csa_reader_free(r); return NULL; }
    return r;
}

void csa_reader_free(CsaReader *r) {
    if (!r) return;
    free(r->lines);
    free(r->text);
    free(r);
}

int csa_reader_next(CsaReader *r, int strict_hands, KifGame *out, char *err, size_t el) {
    for (;;) {
        if (r->at >= r->nlines) return 0;
        Setup s;
        memset(&s, 0, sizeof s);
        s.al = -1;
        int side = -1, ended = 0, nmoves = 0, first = r->at + 1, bad = 0;
        int move_line[1024];
        const char *move_text[1024];
        for (; r->at < r->nlines; r->at++) {
            char *l = r->lines[r->at];
            int line = r->at + 1;
            if (l[0] == '/' && !l[1]) { r->at++; break; }  /* (the next game) */
            if (l[0] == '\'' || bad) continue;
            for (char *t = l, *next; t; t = next) {  /* statements, apart by commas */
                next = strchr(t, ',');
                if (next) *next++ = 0;
                if (!*t || t[0] == 'V' || t[0] == 'N' || t[0] == '$' || t[0] == 'T') continue;
                if (t[0] == '%') { ended = 1; continue; }  /* %TORYO, %TSUMI, ...: no moves after it */
                if (t[0] == 'P' && (t[1] == 'I' || t[1] == '+' || t[1] == '-' || (t[1] >= '1' && t[1] <= '9'))) {
                    if (side >= 0) { bad = fail(err, el, line, "a position statement after the side to move"); break; }
                    if ((bad = position_statement(&s, t, line, err, el))) break;
                } else if ((t[0] == '+' || t[0] == '-') && !t[1]) {
                    if (side >= 0) { bad = fail(err, el, line, "a second side-to-move line"); break; }
                    side = t[0] == '+' ? BLACK : WHITE;
                } else if ((t[0] == '+' || t[0] == '-') && t[1] >= '0' && t[1] <= '9') {
                    if (ended) continue;
                    if (nmoves == 1024) { bad = fail(err, el, line, "more than 1024 moves"); break; }
                    move_line[nmoves] = line;
                    move_text[nmoves++] = t;
                } else {
                    bad = fail(err, el, line, "'%.12s' is not a CSA statement", t);
                    break;
                }
            }
        }
        if (bad) return -1;
        if (!s.given && side < 0 && !nmoves) continue;  /* (comments, headers or nothing) */
        if (!s.given) return fail(err, el, first, "a game with no position (PI or P1-P9)");
        if (side < 0) return fail(err, el, first, "no side-to-move line (+ or -) after the position");
        char sfen[SFEN_MAX + 64], why[ERR_MAX];
        if (setup_sfen(&s, side, sfen, sizeof sfen, first, err, el)) return -1;
        if (sfen_parse(sfen, &out->pos, strict_hands, why, sizeof why)) return fail(err, el, first, "position: %s", why);
        out->line = first;
        out->n = 0;
        Position p = out->pos;
        for (int i = 0; i < nmoves; i++) {
            if (move_statement(&p, move_text[i], i + 1, move_line[i], &out->moves[out->n], err, el)) return -1;
            out->n++;
        }
        return 1;
    }
}

/* P+/P- followed by a square and a piece ("P+00KI", "P-51OU"): not an SFEN line
 * that opens with a pawn and a promoted piece. */
static int pieces_line(const char *l) {
    return (l[1] == '+' || l[1] == '-') && l[2] >= '0' && l[2] <= '9' && l[3] >= '0' && l[3] <= '9' && l[4] >= 'A' &&
           l[4] <= 'Z' && l[5] >= 'A' && l[5] <= 'Z';
}

int csa_is_csa(const char *data, size_t n) {
    if (strstr(data, "+---------------------------+")) return 0;  /* (a KIF board frame) */
    for (size_t i = 0; i < n;) {
        const char *l = data + i;
        if ((l[0] == 'V' && (l[1] == '2' || l[1] == '3') && l[2] == '.') ||
            (l[0] == 'P' && ((l[1] == 'I' && (l[2] == '\n' || l[2] == '\r' || (l[2] >= '1' && l[2] <= '9') || !l[2])) ||
                             pieces_line(l) || (l[1] == '1' && (l[2] == ' ' || l[2] == '+' || l[2] == '-') && l[3] != 'b' && l[3] != 'w'))))
            return 1;
        const char *nl = memchr(l, '\n', n - i);
        if (!nl) break;
        i = (size_t)(nl - data) + 1;
    }
    return 0;
}
