/* screen.c - host side of the screening engine (see screen.h). */
#include "screen.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "sfen.h"
#include "util.h"
#include "points_default.inc"  /* POINTS_DEFAULT_TXT, generated from data/points_default.txt */
#include "points_learned.inc"  /* POINTS_LEARNED_TXT, from data/points_learned.txt */

const char *const SC_REASON_NAME[SC_REASON_NB] = {
    "ok", "sfen", "two_kings", "too_many_pieces", "no_defender_king",
    "dead_piece", "nifu", "defender_in_check", "bad_piece_code",
};

/* ---- lenient SFEN ------------------------------------------------------ */

static const char PIECE_LETTERS[] = ".PLNSBRGK";

static int letter_type(char ch) {
    char u = (char)toupper((unsigned char)ch);
    const char *p = u ? strchr(PIECE_LETTERS + 1, u) : NULL;
    return p ? (int)(p - PIECE_LETTERS) : 0;
}

static int parse_fail(ScBoard *b) {
    memset(b, 0, sizeof *b);
    return -1;
}

int screen_parse_sfen(const char *text, ScBoard *b) {
    const char *f[5];
    size_t fl[5];
    int nf = 0;
    memset(b, 0, sizeof *b);
    while (*text == ' ' || *text == '\t') text++;
    if (!strncmp(text, "sfen ", 5)) text += 5;
    if (!strcmp(text, "startpos")) text = SFEN_STARTPOS;
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) break;
        if (nf == 4) return parse_fail(b);
        f[nf] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') p++;
        fl[nf] = (size_t)(p - f[nf]);
        nf++;
    }
    if (nf < 3) return parse_fail(b);
    /* board */
    int rank = 0, file = 8;
    for (size_t i = 0; i < fl[0]; i++) {
        char ch = f[0][i];
        if (ch == '/') {
            if (file != -1 || ++rank > 8) return parse_fail(b);
            file = 8;
        } else if (ch >= '1' && ch <= '9') {
            if (i > 0 && f[0][i - 1] >= '1' && f[0][i - 1] <= '9') return parse_fail(b);
            file -= ch - '0';
            if (file < -1) return parse_fail(b);
        } else {
            int promo = 0;
            if (ch == '+') {
                promo = 1;
                if (++i >= fl[0]) return parse_fail(b);
                ch = f[0][i];
            }
            int pt = letter_type(ch);
            if (!pt || (promo && !can_promote_type(pt)) || file < 0) return parse_fail(b);
            int c = islower((unsigned char)ch) ? WHITE : BLACK;
            b->board[make_sq(file, rank)] = (uint8_t)make_piece(c, promo ? pt + PROMOTE : pt);
            file--;
        }
    }
    if (rank != 8 || file != -1) return parse_fail(b);
    /* side */
    if (fl[1] != 1 || (f[1][0] != 'b' && f[1][0] != 'w')) return parse_fail(b);
    b->side = f[1][0] == 'b' ? BLACK : WHITE;
    /* hand */
    if (!(fl[2] == 1 && f[2][0] == '-')) {
        int seen[2][8] = {{0}};
        for (size_t i = 0; i < fl[2];) {
            int count = 1;
            if (f[2][i] >= '0' && f[2][i] <= '9') {
                if (f[2][i] == '0') return parse_fail(b);
                count = 0;
                while (i < fl[2] && f[2][i] >= '0' && f[2][i] <= '9' && count < 100) count = count * 10 + (f[2][i++] - '0');
                if (i >= fl[2] || count < 2) return parse_fail(b);
            }
            char ch = f[2][i++];
            int pt = letter_type(ch);
            if (!pt || pt == KING) return parse_fail(b);
            int c = islower((unsigned char)ch) ? WHITE : BLACK;
            if (seen[c][pt]++) return parse_fail(b);
            b->hand[c][pt - 1] = (uint8_t)(count > 99 ? 99 : count);
        }
    }
    if (nf == 4) {
        for (size_t i = 0; i < fl[3]; i++)
            if (f[3][i] < '0' || f[3][i] > '9') return parse_fail(b);
        if (fl[3] > 9 || f[3][0] == '0') return parse_fail(b);
    }
    return 0;
}

/* ---- weights file ------------------------------------------------------ */

/* A range token: "*" (lo..hi), "N", or "A..B". */
static int parse_range(const char *t, int lo, int hi, int *a, int *b) {
    char *end;
    if (!strcmp(t, "*")) { *a = lo; *b = hi; return 0; }
    long x = strtol(t, &end, 10);
    if (end == t) return -1;
    long y = x;
    if (end[0] == '.' && end[1] == '.') {
        const char *s = end + 2;
        y = strtol(s, &end, 10);
        if (end == s) return -1;
    }
    if (*end || x < lo || y > hi || x > y) return -1;
    *a = (int)x; *b = (int)y;
    return 0;
}

/* Decimal with at most 3 fractional digits -> milli-points, exactly. */
static int parse_milli(const char *t, int32_t *out) {
    int neg = 0;
    long long ip = 0, frac = 0;
    int nd = 0, nfrac = 0;
    if (*t == '-' || *t == '+') neg = *t++ == '-';
    while (isdigit((unsigned char)*t)) { ip = ip * 10 + (*t++ - '0'); nd++; if (ip > 9999) return -1; }
    if (*t == '.') {
        t++;
        while (isdigit((unsigned char)*t)) {
            if (++nfrac > 3) return -1;
            frac = frac * 10 + (*t++ - '0');
            nd++;
        }
    }
    if (*t || !nd) return -1;
    while (nfrac++ < 3) frac *= 10;
    long long v = ip * 1000 + frac;
    *out = (int32_t)(neg ? -v : v);
    return 0;
}

static const char *const KIND_TOKENS[15] = {"", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R"};

static int parse_kind(const char *t, int max_kind, int *a, int *b) {
    if (!strcmp(t, "*")) { *a = 1; *b = max_kind; return 0; }
    for (int k = 1; k <= max_kind; k++)
        if (!strcmp(t, KIND_TOKENS[k])) { *a = *b = k; return 0; }
    return -1;
}

static int parse_owner(const char *t, int *a, int *b) {
    if (!strcmp(t, "att")) { *a = *b = 0; return 0; }
    if (!strcmp(t, "def")) { *a = *b = 1; return 0; }
    if (!strcmp(t, "*")) { *a = 0; *b = 1; return 0; }
    return -1;
}

int points_parse(const char *text, const char *name, int32_t *w, char *err, size_t errlen) {
    for (int i = 0; i < SC_W_NB; i++) w[i] = 0;
    int lineno = 0;
    const char *p = text;
    while (*p) {
        char line[512], *tok[8];
        size_t n = strcspn(p, "\n");
        lineno++;
        if (n >= sizeof line) { snprintf(err, errlen, "%s:%d: line too long", name, lineno); return -1; }
        memcpy(line, p, n);
        line[n] = 0;
        p += n + (p[n] == '\n');
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        int nt = 0;
        for (char *s = strtok(line, " \t\r"); s; s = strtok(NULL, " \t\r")) {
            if (nt == 8) { snprintf(err, errlen, "%s:%d: too many fields", name, lineno); return -1; }
            tok[nt++] = s;
        }
        if (!nt) continue;
        int32_t v;
        int o0, o1, k0, k1, f0, f1, r0, r1, bad = 0;
        if (parse_milli(tok[nt - 1], &v)) {
            snprintf(err, errlen, "%s:%d: '%s' is not a number below 10000 with at most 3 decimals", name, lineno, tok[nt - 1]);
            return -1;
        }
        if (!strcmp(tok[0], "bias") && nt == 2) {
            w[SC_W_BIAS] = v;
        } else if (!strcmp(tok[0], "king") && nt == 4) {
            bad = parse_range(tok[1], 1, 9, &f0, &f1) || parse_range(tok[2], 1, 9, &r0, &r1);
            for (int f = f0; !bad && f <= f1; f++)
                for (int r = r0; r <= r1; r++) w[SC_W_KING + make_sq(f - 1, r - 1)] = v;
        } else if (!strcmp(tok[0], "piece") && nt == 6) {
            bad = parse_owner(tok[1], &o0, &o1) || parse_kind(tok[2], 14, &k0, &k1) ||
                  parse_range(tok[3], -8, 8, &f0, &f1) || parse_range(tok[4], -8, 8, &r0, &r1);
            for (int o = o0; !bad && o <= o1; o++)
                for (int k = k0; k <= k1; k++)
                    for (int f = f0; f <= f1; f++)
                        for (int r = r0; r <= r1; r++) w[SC_W_PIECE + (o * 14 + k - 1) * SC_OFF_NB + sc_off_index(f, r)] = v;
        } else if (!strcmp(tok[0], "empty") && nt == 4) {
            bad = parse_range(tok[1], -8, 8, &f0, &f1) || parse_range(tok[2], -8, 8, &r0, &r1);
            for (int f = f0; !bad && f <= f1; f++)
                for (int r = r0; r <= r1; r++) w[SC_W_EMPTY + sc_off_index(f, r)] = v;
        } else if (!strcmp(tok[0], "hand") && nt == 4) {
            bad = parse_owner(tok[1], &o0, &o1) || parse_kind(tok[2], 7, &k0, &k1);
            for (int o = o0; !bad && o <= o1; o++)
                for (int k = k0; k <= k1; k++) w[SC_W_HAND + o * 7 + k - 1] = v;
        } else {
            snprintf(err, errlen, "%s:%d: expected 'bias V', 'king F R V', 'piece OWNER KIND DF DR V', "
                     "'empty DF DR V' or 'hand OWNER KIND V'", name, lineno);
            return -1;
        }
        if (bad) { snprintf(err, errlen, "%s:%d: bad owner, kind or range", name, lineno); return -1; }
    }
    sc_weights_finish(w);
    return 0;
}

/* The text of a points file: a built-in copy (static) or the file read (malloc'd,
 * *owned set); NULL with a message in err. */
static const char *points_text(const char *path, const char **name, int *owned, char *err, size_t errlen) {
    *owned = 0;
    if (!path || !strcmp(path, POINTS_BUILTIN_HAND)) return *name = "data/points_default.txt(built in)", POINTS_DEFAULT_TXT;
    if (!strcmp(path, POINTS_BUILTIN_LEARNED)) return *name = "data/points_learned.txt(built in)", POINTS_LEARNED_TXT;
    *name = path;
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errlen, "cannot open points file '%s'", path); return NULL; }
    size_t n;
    char *buf = util_slurp(f, &n);
    fclose(f);
    if (!buf) { snprintf(err, errlen, "cannot read points file '%s'", path); return NULL; }
    *owned = 1;
    return buf;
}

int points_load(const char *path, int32_t *w, char *err, size_t errlen) {
    const char *name;
    int owned;
    const char *text = points_text(path, &name, &owned, err, errlen);
    if (!text) return -1;
    int rc = points_parse(text, name, w, err, errlen);
    if (owned) free((char *)text);
    return rc;
}

int points_suggested_band(const char *path, int32_t *lo) {
    const char *name;
    char err[256];
    int owned, found = 0;
    const char *text = points_text(path, &name, &owned, err, sizeof err);
    static const char KEY[] = "\n# suggested: --band ";
    const char *p = text ? strstr(text, KEY) : NULL;
    if (p) {
        char *end;
        p += sizeof KEY - 1;
        double x = strtod(p, &end);
        if (end != p && *end == ':') *lo = (int32_t)lround(x * 1000), found = 1;
    }
    if (owned) free((char *)text);
    return found;
}

/* ---- CPU reference ----------------------------------------------------- */

/* One chunk of a generated stream on the calling thread; kept indices appended
 * to kept[*nk] while *nk < cap. */
static void gen_chunk(const ScGenJob *job, const int32_t *w, size_t lo, size_t hi, uint32_t *digest,
                      uint64_t *kept, size_t *nk, size_t cap, ScGenStats *st) {
    for (size_t i = lo; i < hi; i++) {
        ScBoard b;
        ScResult r;
        sc_gen_board(job->seed, job->base + i, &b);
        sc_screen(&b, &r, w, job->flags);
        if (digest) digest[i] = sc_result_digest(&r);
        st->legal += r.reason == SC_OK;
        st->mate1 += r.n_mate1 > 0;
        if (sc_gen_keep(&r, job->keep_mode, job->min_points)) {
            st->kept++;
            if (kept && *nk < cap) kept[(*nk)++] = job->base + i;
        }
    }
    st->boards += hi - lo;
}

void screen_gen_cpu(const ScGenJob *job, const int32_t *w, int threads, uint32_t *digest, uint64_t *kept,
                    size_t max_kept, ScGenStats *st) {
    memset(st, 0, sizeof *st);
    size_t nk = 0;
#ifdef _OPENMP
    if (threads != 1) {
        /* fixed chunks in index order, each with its own kept list, merged in
         * order: the same kept prefix as one thread gives */
        enum { CHUNK = 1024 };
        size_t nc = (job->n + CHUNK - 1) / CHUNK;
        int nt = threads > 0 ? threads : omp_get_max_threads();
        ScGenStats *cs = calloc(nc ? nc : 1, sizeof *cs);
        uint64_t *ck = kept ? malloc((nc ? nc : 1) * CHUNK * sizeof *ck) : NULL;
        size_t *cn = calloc(nc ? nc : 1, sizeof *cn);
        long long nn = (long long)nc;
#pragma omp parallel for schedule(dynamic, 4) num_threads(nt)
        for (long long c = 0; c < nn; c++) {
            size_t lo = (size_t)c * CHUNK, hi = lo + CHUNK < job->n ? lo + CHUNK : job->n;
            gen_chunk(job, w, lo, hi, digest, ck ? ck + lo : NULL, &cn[c], CHUNK, &cs[c]);
        }
        for (size_t c = 0; c < nc; c++) {
            st->boards += cs[c].boards; st->legal += cs[c].legal; st->mate1 += cs[c].mate1; st->kept += cs[c].kept;
            for (size_t k = 0; kept && k < cn[c] && nk < max_kept; k++) kept[nk++] = ck[c * CHUNK + k];
        }
        free(cs); free(ck); free(cn);
        return;
    }
#else
    (void)threads;
#endif
    gen_chunk(job, w, 0, job->n, digest, kept, &nk, kept ? max_kept : 0, st);
}

void screen_cpu(const ScBoard *in, ScResult *out, size_t n, const int32_t *w, int flags, int threads) {
    if (threads == 1) {
        for (size_t i = 0; i < n; i++) sc_screen(&in[i], &out[i], w, flags);
        return;
    }
#ifdef _OPENMP
    int nt = threads > 0 ? threads : omp_get_max_threads();
    long long nn = (long long)n;
#pragma omp parallel for schedule(dynamic, 256) num_threads(nt)
    for (long long i = 0; i < nn; i++) sc_screen(&in[i], &out[i], w, flags);
#else
    for (size_t i = 0; i < n; i++) sc_screen(&in[i], &out[i], w, flags);
#endif
}

int screen_mate1_all(const ScBoard *b, int flags, int futile, Move *out, int max) {
    Position pos;
    if (sc_setup(b, &pos, flags & SC_STRICT_HANDS) != SC_OK) return 0;
    CheckInfo ci;
    ScCheckIter it;
    Move m;
    int n = 0;
    checkinfo_init(&pos, &ci);
    sc_checks_init(&pos, &ci, &it);
    while ((m = sc_checks_next(&pos, &ci, &it)) != MOVE_NONE) {
        Undo u;
        pos_do_move(&pos, m, &u);
        int kind = sc_evasion_kind(&pos);
        int hit = futile ? kind == 2 && sc_futile_mate(&pos) : kind == 0;
        pos_undo_move(&pos, m, &u);
        if (hit && n < max) out[n++] = m;
    }
    return n;
}

/* ---- random boards ----------------------------------------------------- */

static uint64_t rnd(uint64_t *s) {  /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rndn(uint64_t *s, int n) { return (int)(rnd(s) % (uint64_t)n); }

void screen_random_boards(ScBoard *out, size_t n, uint64_t seed) {
    /* kinds for board pieces, weighted toward what tsume diagrams hold */
    static const uint8_t KINDS[] = {PAWN, PAWN, PAWN, LANCE, LANCE, KNIGHT, KNIGHT, SILVER, SILVER, SILVER,
                                    GOLD, GOLD, GOLD, BISHOP, BISHOP, ROOK, ROOK, PRO_PAWN, PRO_SILVER,
                                    HORSE, HORSE, DRAGON, DRAGON, PRO_LANCE, PRO_KNIGHT};
    static const uint8_t HAND_KINDS[] = {PAWN, LANCE, KNIGHT, SILVER, SILVER, GOLD, GOLD, GOLD, BISHOP, ROOK};
    for (size_t i = 0; i < n; i++) {
        uint64_t s = seed * 0x2545F4914F6CDD1Dull + i;
        rnd(&s);
        ScBoard *b = &out[i];
        /* redraw most boards that break a rule, keep about one in five of them */
        for (int attempt = 0; attempt < 8; attempt++) {
            memset(b, 0, sizeof *b);
            /* canonical: Black attacks, the White king mostly on ranks a-c */
            int kf = rndn(&s, 9), kr = rndn(&s, 10) < 8 ? rndn(&s, 3) : rndn(&s, 9);
            int ksq = make_sq(kf, kr);
            b->board[ksq] = (uint8_t)make_piece(WHITE, KING);
            int npieces = 1 + rndn(&s, 8);
            for (int p = 0; p < npieces; p++) {
                int sq, tries = 0;
                do {
                    if (rndn(&s, 4)) {
                        int d = 1 + rndn(&s, 3);
                        int f = kf + rndn(&s, 2 * d + 1) - d, r = kr + rndn(&s, 2 * d + 1) - d;
                        sq = (f >= 0 && f < 9 && r >= 0 && r < 9) ? make_sq(f, r) : -1;
                    } else {
                        sq = rndn(&s, 81);
                    }
                } while ((sq < 0 || b->board[sq]) && ++tries < 20);
                if (sq < 0 || b->board[sq]) continue;
                int c = rndn(&s, 100) < 55 ? BLACK : WHITE;
                int pt = KINDS[rndn(&s, (int)sizeof KINDS)];
                if (rndn(&s, 200) == 0) pt = KING;  /* the attacker's king, or a second defender king */
                b->board[sq] = (uint8_t)make_piece(c, pt);
            }
            int nhand = rndn(&s, 6);
            for (int h = 0; h < nhand; h++) b->hand[BLACK][HAND_KINDS[rndn(&s, (int)sizeof HAND_KINDS)] - 1]++;
            if (rndn(&s, 50) == 0) b->hand[WHITE][rndn(&s, 7)] = (uint8_t)(1 + rndn(&s, 3));
            b->side = BLACK;
            if (rndn(&s, 10) == 0) {  /* rotate: White attacks */
                ScBoard r;
                memset(&r, 0, sizeof r);
                for (int sq = 0; sq < 81; sq++)
                    if (b->board[sq]) r.board[80 - sq] = (uint8_t)(b->board[sq] ^ (1 << 4));
                for (int k = 0; k < 7; k++) { r.hand[0][k] = b->hand[1][k]; r.hand[1][k] = b->hand[0][k]; }
                r.side = WHITE;
                *b = r;
            }
            Position pos;
            if (sc_setup(b, &pos, 0) == SC_OK || rndn(&s, 5) == 0) break;
        }
    }
}

/* ---- JSON -------------------------------------------------------------- */

static void print_moves(FILE *f, const ScBoard *b, int flags, int futile, const uint16_t *slots, int nslots, int n) {
    Move all[MAX_MOVES];
    if (n > nslots) n = screen_mate1_all(b, flags, futile, all, MAX_MOVES);
    else for (int i = 0; i < n; i++) all[i] = slots[i];
    for (int i = 0; i < n; i++) {
        char buf[8];
        move_format(all[i], buf);
        fprintf(f, i ? ",\"%s\"" : "\"%s\"", buf);
    }
}

void screen_print_json(FILE *f, const ScBoard *b, const ScResult *r, int flags) {
    fprintf(f, "{\"legal\":%s,\"reason\":\"%s\",\"checks\":%u,\"mate1\":[", r->reason == SC_OK ? "true" : "false",
            r->reason < SC_REASON_NB ? SC_REASON_NAME[r->reason] : "?", (unsigned)r->checks);
    print_moves(f, b, flags, 0, r->mate1, SC_MATE1_SLOTS, r->n_mate1);
    fprintf(f, "],\"mate3\":%s,\"points\":", (r->flags & SC_FLAG_MATE3) ? (r->mate3 ? "true" : "false") : "null");
    int32_t p = r->points;
    unsigned long long a = p < 0 ? (unsigned long long)(-(long long)p) : (unsigned long long)p;
    fprintf(f, "%s%llu.%03llu,\"futile_mate1\":", p < 0 ? "-" : "", a / 1000, a % 1000);
    if (r->flags & SC_FLAG_FUTILE) {
        fputc('[', f);
        print_moves(f, b, flags, 1, r->futile, SC_FUTILE_SLOTS, r->n_futile);
        fputs("]}\n", f);
    } else {
        fputs("null}\n", f);
    }
}
