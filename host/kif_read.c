/* kif_read.c - KIF (Kakinoki) reader: the board diagrams (BOD) and move records
 * that GUIs and problem collections write, UTF-8 or Shift_JIS (CP932), to
 * positions and moves.  A position is assembled as an SFEN and goes through
 * sfen_parse, so a diagram gets exactly the checks (and the hand convention) of
 * an SFEN argument; a move goes through move_parse, so it must be legal. */
#include "kif_read.h"
#include <iconv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/movegen.h"
#include "kif.h"
#include "csa_read.h"
#include "util.h"

struct KifReader {
    char *text;     /* UTF-8, lines NUL-terminated in place */
    char **lines;
    int nlines, at;
};

/* Strict UTF-8 (no overlongs, no surrogates): KIF files are that or Shift_JIS. */
static int valid_utf8(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        int k = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (k < 0 || i + (size_t)k >= n + (k == 0)) return 0;
        unsigned v = k == 0 ? c : c & (0x3F >> k);
        for (int j = 1; j <= k; j++) {
            if ((s[i + j] & 0xC0) != 0x80) return 0;
            v = v << 6 | (s[i + j] & 0x3F);
        }
        static const unsigned MIN[4] = {0, 0x80, 0x800, 0x10000};
        if (v < MIN[k] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
        i += (size_t)k + 1;
    }
    return 1;
}

/* Shift_JIS (as Windows writes it, CP932) to UTF-8; NULL when it is not that either. */
static char *from_cp932(const char *in, size_t n) {
    iconv_t cd = iconv_open("UTF-8", "CP932");
    if (cd == (iconv_t)-1) cd = iconv_open("UTF-8", "SHIFT_JIS");
    if (cd == (iconv_t)-1) return NULL;
    size_t cap = 2 * n + 16, left_in = n, left_out = cap - 1;
    char *out = malloc(cap), *src = (char *)in, *dst = out;
    if (!out || iconv(cd, &src, &left_in, &dst, &left_out) == (size_t)-1) {
        free(out);
        out = NULL;
    } else
        *dst = 0;
    iconv_close(cd);
    return out;
}

KifReader *kif_reader_new(const char *data, size_t n, char *err, size_t errlen) {
    if (n >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) data += 3, n -= 3;  /* BOM */
    char *text;
    if (valid_utf8((const unsigned char *)data, n)) {
        if (!(text = malloc(n + 1))) return snprintf(err, errlen, "out of memory"), NULL;
        memcpy(text, data, n);
        text[n] = 0;
    } else if (!(text = from_cp932(data, n))) {
        snprintf(err, errlen, "neither UTF-8 nor Shift_JIS text");
        return NULL;
    }
    KifReader *r = calloc(1, sizeof *r);
    if (!r || !(r->lines = util_split_lines(text, &r->nlines))) {
        free(r);
        free(text);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->text = text;
    return r;
}

void kif_reader_free(KifReader *r) {
    if (!r) return;
    free(r->text);
    free(r->lines);
    free(r);
}

/* The first n characters of s (UTF-8, never cut inside one) for a message. */
static const char *excerpt(const char *s, int n, char buf[64]) {
    size_t at = 0;
    while (*s && n-- > 0 && at < 56) {
        do buf[at++] = *s++;
        while ((*s & 0xC0) == 0x80);
    }
    buf[at] = 0;
    return buf;
}

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* "   12 ７六歩(77)": a move number, then a space.  Some writers leave out the
 * 手数---- header; such lines are still moves, never header lines to pass over
 * (the diagram's column line "  ９ ８ ..." has full-width digits). */
static int numbered_line(const char *s) {
    while (*s == ' ') s++;
    if (*s < '0' || *s > '9') return 0;
    while (*s >= '0' && *s <= '9') s++;
    return *s == ' ' || starts(s, "\xe3\x80\x80");  /* (U+3000, the full-width space) */
}

/* Skips one prefix of `words` at *s; the index of the one found, or -1. */
static int eat(const char **s, const char *const *words, int n) {
    for (int i = 0; i < n; i++)
        if (words[i][0] && starts(*s, words[i])) {
            *s += strlen(words[i]);
            return i;
        }
    return -1;
}

static const char *const KANJI_DIGITS[10] = {"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"};

/* A file or rank 1-9: full-width or ASCII digit, or (kanji 1) a kanji numeral; 0 if none. */
static int eat_coord(const char **s, int kanji) {
    if (**s >= '1' && **s <= '9') return *(*s)++ - '0';
    int d = eat(s, KIF_FW_DIGIT, 10);
    if (d <= 0 && kanji) d = eat(s, KANJI_DIGITS, 10);
    return d > 0 ? d : 0;
}

/* A count in kanji numerals (一 ... 十八); 1 if none. */
static int eat_count(const char **s) {
    int ten = eat(s, (const char *const[]){"十"}, 1) == 0, d = eat(s, KANJI_DIGITS, 10);
    return ten ? 10 + (d > 0 ? d : 0) : d > 0 ? d : 1;
}

/* Piece names: the SFEN letter (promoted with '+') of each; two-character names
 * first so that 成銀 is not read as 成 + 銀. */
static const char *const PIECE_NAMES[] = {"成銀", "成桂", "成香", "玉", "王", "飛", "龍", "竜", "角", "馬", "金",
                                          "銀", "全", "桂", "圭", "香", "杏", "歩", "と"};
static const char *const PIECE_SFEN[] = {"+S", "+N", "+L", "K", "K", "R", "+R", "+R", "B", "+B", "G",
                                         "S", "+S", "N", "+N", "L", "+L", "P", "+P"};
#define N_PIECE_NAMES (int)(sizeof PIECE_NAMES / sizeof PIECE_NAMES[0])

/* The game being read: its diagram as SFEN parts, and where its move list stands. */
typedef struct {
    char rows[9][40];
    int nrows, border;  /* board rows read; "+---" lines seen (2: the board is complete) */
    int hand[2][7];     /* RBGSNLP */
    int hand_seen[2], rest_all, white_to_move, hirate, any;
    int moves_part, done;  /* in the move list; its end (a result, a variation) */
    int nmoves, prev_to_file, prev_to_rank;
} Game;

static const char HAND_LETTERS[] = "RBGSNLP";

static int fail(char *err, size_t errlen, int line, const char *fmt, ...) {
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "line %d: %s", line, msg);
    return -1;
}

/* "先手の持駒：飛　角二　歩十八" (or なし, or 残り全部 for the defender). */
static int hand_line(Game *g, int side, const char *s, int line, char *err, size_t errlen) {
    char ex[64];
    g->hand_seen[side] = 1;
    while (*s) {
        if (*s == ' ') { s++; continue; }
        if (starts(s, "　")) { s += strlen("　"); continue; }
        if (starts(s, "なし")) { s += strlen("なし"); continue; }
        if (starts(s, "残り全部")) { s += strlen("残り全部"); g->rest_all = 1; continue; }
        int k = eat(&s, PIECE_NAMES, N_PIECE_NAMES);
        const char *letter = k >= 0 ? strchr(HAND_LETTERS, PIECE_SFEN[k][0]) : NULL;
        if (!letter || PIECE_SFEN[k][0] == '+' || PIECE_SFEN[k][0] == 'K')
            return fail(err, errlen, line, "not a piece in hand: '%s'", k >= 0 ? PIECE_NAMES[k] : excerpt(s, 4, ex));
        int *have = &g->hand[side][letter - HAND_LETTERS];
        if ((*have += eat_count(&s)) > 18) return fail(err, errlen, line, "more than 18 of a piece in hand");
    }
    return 0;
}

/* "| ・ ・v香 ...|一": nine cells, each ' ' (or '^') for the first player or 'v'
 * for the second, and a piece name or '・'. */
static int board_row(Game *g, const char *s, int line, char *err, size_t errlen) {
    char ex[64];
    if (g->nrows == 9) return fail(err, errlen, line, "a tenth board row");
    char *out = g->rows[g->nrows];
    int empty = 0;
    s++;
    for (int file = 9; file >= 1; file--) {
        int white = *s == 'v';
        if (*s == 'v' || *s == ' ' || *s == '^') s++;
        if (starts(s, "・")) {
            s += strlen("・");
            empty++;
            continue;
        }
        int k = eat(&s, PIECE_NAMES, N_PIECE_NAMES);
        if (k < 0) return fail(err, errlen, line, "board row %d, file %d: not a piece: '%s'", g->nrows + 1, file, excerpt(s, 2, ex));
        if (empty) out += sprintf(out, "%d", empty), empty = 0;
        for (const char *p = PIECE_SFEN[k]; *p; p++) *out++ = (char)(white && *p != '+' ? *p - 'A' + 'a' : *p);
    }
    if (empty) out += sprintf(out, "%d", empty);
    *out = 0;
    if (*s != '|') return fail(err, errlen, line, "board row %d: expected '|' after nine cells", g->nrows + 1);
    g->nrows++;
    return 0;
}

/* Words that end a move list ("  22 詰み", "投了", ...). */
static const char *const RESULTS[] = {"投了", "中断", "詰み", "不詰", "千日手", "持将棋", "切れ負け", "反則勝ち",
                                      "反則負け", "入玉勝ち", "不戦勝", "不戦敗", "封じ手"};

/* One move line "  12 ２三銀成(34)   ( 0:01/00:00:05)": its USI text in usi (empty
 * for a line that ends the list or is no move).  Without an origin the move is
 * found among the legal ones. */
static int move_line(Game *g, const Position *cur, const char *s, char usi[8], int line, char *err, size_t errlen) {
    char ex[64];
    usi[0] = 0;
    while (*s == ' ') s++;
    int num = 0;
    const char *digits = s;
    for (; *s >= '0' && *s <= '9'; s++)
        if (num <= 100000) num = num * 10 + *s - '0';  /* capped: any number this big is wrong (fuzzer: 21 eights overflowed) */
    int ndigits = (int)(s - digits);
    if (s == digits) return 0;  /* no move number: not a move line ("  まで21手で詰み") */
    while (*s == ' ') s++;
    if (eat(&s, RESULTS, (int)(sizeof RESULTS / sizeof RESULTS[0])) >= 0) {
        g->done = 1;
        return 0;
    }
    if (num != g->nmoves + 1)
        return fail(err, errlen, line, "move number %.*s, expected %d", ndigits < 24 ? ndigits : 24, digits,
                    g->nmoves + 1);
    if (g->nmoves == 1024) return fail(err, errlen, line, "more than 1024 moves");
    int tf, tr;
    if (eat(&s, (const char *const[]){"同", "仝"}, 2) >= 0) {
        if (!g->prev_to_file) return fail(err, errlen, line, "同 with no previous move");
        tf = g->prev_to_file, tr = g->prev_to_rank;
        while (*s == ' ' || starts(s, "　")) s += *s == ' ' ? 1 : strlen("　");
    } else if (!(tf = eat_coord(&s, 0)) || !(tr = eat_coord(&s, 1)))
        return fail(err, errlen, line, "not a move: '%s'", excerpt(s, 12, ex));
    int k = eat(&s, PIECE_NAMES, N_PIECE_NAMES);
    if (k < 0) return fail(err, errlen, line, "no piece in the move: '%s'", excerpt(s, 12, ex));
    int drop = 0, promo = 0, ff = 0, fr = 0;
    for (;;) {
        static const char *const MODS[] = {"不成", "成", "打", "左", "右", "上", "引", "寄", "直", "行", "入"};
        int m = eat(&s, MODS, (int)(sizeof MODS / sizeof MODS[0]));
        if (m < 0) break;
        if (m == 1) promo = 1;
        if (m == 2) drop = 1;
    }
    if (s[0] == '(' && s[1] >= '1' && s[1] <= '9' && s[2] >= '1' && s[2] <= '9' && s[3] == ')') ff = s[1] - '0', fr = s[2] - '0';
    if (drop && PIECE_SFEN[k][0] == '+') return fail(err, errlen, line, "a promoted piece cannot be dropped");
    char piece = PIECE_SFEN[k][0] == '+' ? PIECE_SFEN[k][1] : PIECE_SFEN[k][0];
    if (drop) snprintf(usi, 8, "%c*%d%c", piece, tf, 'a' + tr - 1);
    else if (ff) snprintf(usi, 8, "%d%c%d%c%s", ff, 'a' + fr - 1, tf, 'a' + tr - 1, promo ? "+" : "");
    else {  /* no origin: the one legal move of that piece to that square, else a drop */
        MoveList ml;
        int found = 0;
        gen_legal(cur, &ml);
        for (int i = 0; i < ml.count; i++) {
            Move m = ml.moves[i];
            if (move_is_drop(m) || sq_file(move_to(m)) + 1 != tf || sq_rank(move_to(m)) + 1 != tr ||
                !!move_is_promo(m) != promo)
                continue;
            static const char *const SFEN_OF[PIECE_TYPE_NB] = {"", "P", "L", "N", "S", "B", "R", "G", "K",
                                                               "+P", "+L", "+N", "+S", "+B", "+R"};
            if (strcmp(SFEN_OF[piece_type(cur->board[move_from(m)])], PIECE_SFEN[k])) continue;
            if (found++) return fail(err, errlen, line, "ambiguous move without its origin square");
            move_format(m, usi);
        }
        if (!found) snprintf(usi, 8, "%c*%d%c", piece, tf, 'a' + tr - 1);
    }
    g->prev_to_file = tf, g->prev_to_rank = tr;
    g->nmoves++;
    return 0;
}

/* Does this line begin another game's diagram (or header)? */
static int new_game_line(const Game *g, const char *s) {
    if (!g->any) return 0;
    int hand = starts(s, "後手の持駒") || starts(s, "上手の持駒") ? 1 : starts(s, "先手の持駒") || starts(s, "下手の持駒") ? 0 : -1;
    if (hand >= 0) return g->moves_part || g->hand_seen[hand] || (hand == 1 && g->border);
    if (starts(s, "+---") || starts(s, "  ９ ８")) return g->moves_part || g->border == 2;
    if (starts(s, "手合割") || starts(s, "開始日時")) return g->moves_part || g->border == 2;
    return 0;
}

/* Why build_sfen found no position. */
static const char *no_position(const Game *g) {
    return g->nrows ? "the board diagram makes no position"
           : g->hirate < 0 ? "a handicap without a board diagram (only 平手 is known)"
                           : "no board diagram (nor 手合割：平手)";
}

/* The game's diagram as SFEN (into sfen, len bytes); -1 without one, or when it does
 * not fit (no legal position comes near: sfen_parse would reject it anyway). */
static int build_sfen(const Game *g, char *sfen, size_t len) {
    if (!g->nrows) {
        if (g->hirate != 1) return -1;
        snprintf(sfen, len, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        return 0;
    }
    size_t at = 0;
    int n = 0;
    for (int r = 0; r < 9 && n >= 0; r++) at += (size_t)(n = snprintf(sfen + at, len - at, "%s%s", r ? "/" : "", g->rows[r]));
    if (n < 0 || at >= len) return -1;
    at += (size_t)snprintf(sfen + at, len - at, " %c ", g->white_to_move ? 'w' : 'b');
    int any = 0;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < 7 && at < len; i++) {
            int c = g->hand[side][i];
            if (!c) continue;
            char letter = side ? (char)(HAND_LETTERS[i] - 'A' + 'a') : HAND_LETTERS[i];
            if (c > 1) at += (size_t)snprintf(sfen + at, len - at, "%d%c", c, letter);
            else at += (size_t)snprintf(sfen + at, len - at, "%c", letter);
            any = 1;
        }
    if (at < len) at += (size_t)snprintf(sfen + at, len - at, "%s 1", any ? "" : "-");
    return at < len ? 0 : -1;
}

int kif_reader_next(KifReader *r, int strict_hands, KifGame *out, char *err, size_t errlen) {
    Game *g = calloc(1, sizeof *g);
    if (!g) return snprintf(err, errlen, "out of memory"), -1;
    Position cur;  /* the position before the next move (once `started`) */
    char sfen[SFEN_MAX], perr[ERR_MAX];
    int first = 0, rc = 0, variation = 0, started = 0;
    for (; r->at < r->nlines && !rc; r->at++) {
        const char *s = r->lines[r->at];
        int line = r->at + 1;
        if (!*s || *s == '#' || *s == '*' || *s == '&') continue;
        if (new_game_line(g, s)) break;
        if (!g->any) first = line;
        g->any = 1;
        if (variation || g->done) {  /* only the main line is read: skip to the next game */
            variation |= starts(s, "変化");
            continue;
        }
        if (starts(s, "変化")) { variation = 1; continue; }
        if (starts(s, "後手の持駒") || starts(s, "上手の持駒") || starts(s, "先手の持駒") || starts(s, "下手の持駒")) {
            const char *p = strstr(s, "：");
            p = p ? p + strlen("：") : strchr(s, ':') ? strchr(s, ':') + 1 : "";
            rc = hand_line(g, starts(s, "後手") || starts(s, "上手"), p, line, err, errlen);
        } else if (starts(s, "+---")) {
            if (++g->border == 2 && g->nrows != 9) rc = fail(err, errlen, line, "the board diagram has %d rows, not 9 (not complete)", g->nrows);
        }
        else if (*s == '|') rc = g->border == 1 ? board_row(g, s, line, err, errlen) : fail(err, errlen, line, "a board row outside the board's frame");
        else if (starts(s, "後手番") || starts(s, "上手番")) g->white_to_move = 1;
        else if (starts(s, "先手番") || starts(s, "下手番")) g->white_to_move = 0;
        else if (starts(s, "手合割")) {
            const char *p = strstr(s, "：");
            p = p ? p + strlen("：") : "";
            if (starts(p, "平手")) g->hirate = 1;
            else if (!g->nrows) g->hirate = -1;  /* a handicap named, no diagram (yet) */
        } else if (starts(s, "手数")) {
            g->moves_part = 1;
        } else if ((g->moves_part && ((*s >= '0' && *s <= '9') || *s == ' ')) || numbered_line(s)) {
            if (!started) {  /* the position, once, before the first move line */
                if (g->border != 2 && g->nrows) rc = fail(err, errlen, line, "the board diagram is not complete");
                else if (build_sfen(g, sfen, sizeof sfen)) rc = fail(err, errlen, line, "%s", no_position(g));
                else if (sfen_parse(sfen, &out->pos, strict_hands && !g->rest_all, perr, sizeof perr)) rc = fail(err, errlen, first, "%s", perr);
                if (rc) break;
                cur = out->pos;
                started = 1;
            }
            char usi[8];
            rc = move_line(g, &cur, s, usi, line, err, errlen);
            if (!rc && usi[0]) {
                Move *m = &out->moves[g->nmoves - 1];
                if (move_parse(&cur, usi, m, perr, sizeof perr)) rc = fail(err, errlen, line, "%s: %s", s, perr);
                else {
                    Undo u;
                    pos_do_move(&cur, *m, &u);
                }
            }
        }
        /* other header lines (開始日時, 先手, 棋戦, ...) say nothing about the position */
    }
    if (!rc && g->any && !started) {  /* a diagram without moves */
        if (g->nrows && g->border != 2) rc = fail(err, errlen, first, "the board diagram is not complete");
        else if (build_sfen(g, sfen, sizeof sfen)) rc = fail(err, errlen, first, "%s", no_position(g));
        else if (sfen_parse(sfen, &out->pos, strict_hands && !g->rest_all, perr, sizeof perr)) rc = fail(err, errlen, first, "%s", perr);
    }
    if (rc)  /* skip the rest of this game */
        while (r->at < r->nlines && !new_game_line(g, r->lines[r->at])) r->at++;
    out->n = g->nmoves;
    out->line = first;
    int any = g->any;
    free(g);
    return rc ? -1 : any;
}

int kif_is_kif(const char *data, size_t n) {
    if (strstr(data, "+---------------------------+") || starts(data, "#KIF")) return 1;
    char err[8];
    KifReader *r = kif_reader_new(data, n, err, sizeof err);
    int kif = 0;
    for (int i = 0; r && i < r->nlines && !kif; i++)
        kif = starts(r->lines[i], "手数----") || starts(r->lines[i], "手合割") || starts(r->lines[i], "後手の持駒") ||
              starts(r->lines[i], "先手の持駒");
    kif_reader_free(r);
    return kif;
}

int kif_text_each(const char *name, const char *data, size_t n, int strict_hands,
                  void (*fn)(void *arg, const char *line, const char *err), void *arg) {
    char err[ERR_MAX + 64], msg[ERR_MAX + 1200];
    int csa = csa_is_csa(data, n);  /* (CSA records come the same way) */
    KifReader *r = csa ? NULL : kif_reader_new(data, n, err, sizeof err);
    CsaReader *cr = csa ? csa_reader_new(data, n) : NULL;
    if (csa && !cr) snprintf(err, sizeof err, "out of memory");
    KifGame *g = r || cr ? malloc(sizeof *g) : NULL;
    char *line = g ? malloc(SFEN_MAX + 7 * 1024 + 8) : NULL;
    if (!line) {
        snprintf(msg, sizeof msg, "%.1000s: %s", name, !r && !cr ? err : "out of memory");
        fn(arg, NULL, msg);
        free(g);
        kif_reader_free(r);
        csa_reader_free(cr);
        return 1;
    }
    int bad = 0, rc;
    while ((rc = csa ? csa_reader_next(cr, strict_hands, g, err, sizeof err) : kif_reader_next(r, strict_hands, g, err, sizeof err)) != 0) {
        if (rc < 0) {
            snprintf(msg, sizeof msg, "%.1000s: %s", name, err);
            fn(arg, NULL, msg);
            bad++;
            continue;
        }
        sfen_format(&g->pos, line, SFEN_MAX);
        size_t at = strlen(line);
        for (int i = 0; i < g->n; i++) {
            memcpy(line + at, i ? " " : " moves ", i ? 1 : 7);
            at += i ? 1 : 7;
            move_format(g->moves[i], line + at);
            at += strlen(line + at);
        }
        line[at] = 0;
        fn(arg, line, NULL);
    }
    free(line);
    free(g);
    kif_reader_free(r);
    csa_reader_free(cr);
    return bad;
}

int kif_file_each(const char *path, int strict_hands, void (*fn)(void *arg, const char *line, const char *err), void *arg) {
    const char *name = strcmp(path, "-") ? path : "stdin";
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    size_t n = 0;
    char *data = f ? util_slurp(f, &n) : NULL;
    if (f && f != stdin) fclose(f);
    if (!data) {
        char msg[1100];
        snprintf(msg, sizeof msg, "%.1000s: %s", name, f ? "read error" : "cannot open");
        fn(arg, NULL, msg);
        return 1;
    }
    int bad = kif_text_each(name, data, n, strict_hands, fn, arg);
    free(data);
    return bad;
}
