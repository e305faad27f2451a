/* test_data.c - every problem under data/ parses and its main line replays
 * legally under the tsume rules.
 *
 * For each line: the SFEN parses (sfen_parse, tsume hand convention), every
 * move parses as a legal USI move (move_parse), every attacker move (plies 1,
 * 3, 5, ...) gives check and is one of gen_checks' moves, and every defender
 * move answers that check and is one of gen_evasions' moves.  ShogiBoardQ
 * lines must end in checkmate.  Edo and regression lines may end where only
 * futile drops remain: the test asserts that exactly the ids listed in
 * data/{edo,regressions}/EXCEPTIONS.tsv (kind futile_final) end so, and that
 * in each such final every legal reply is a drop that the attacker can take
 * back with check.  The data is read relative to the repository root (the
 * directory tests are run from); a missing file is a failure. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../host/sfen.h"
#include "../core/mate1.h"

#define LINE_MAX_LEN 8192
#define MAX_IDS 64

typedef struct {
    char id[MAX_IDS][32];
    char kind[MAX_IDS][32];
    int n;
} IdSet;

static int set_has(const IdSet *s, const char *id) {
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->id[i], id)) return 1;
    return 0;
}

static void set_add(IdSet *s, const char *id, const char *kind) {
    if (s->n == MAX_IDS) { fprintf(stderr, "  id set full\n"); test_failures_in_current++; return; }
    /* (a cut id could equal another one: a too long id or kind fails the test) */
    if (snprintf(s->id[s->n], sizeof s->id[0], "%s", id) >= (int)sizeof s->id[0] ||
        snprintf(s->kind[s->n], sizeof s->kind[0], "%s", kind ? kind : "") >= (int)sizeof s->kind[0]) {
        fprintf(stderr, "  id or kind too long: %s\n", id);
        test_failures_in_current++;
        return;
    }
    s->n++;
}

static FILE *open_data(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "  missing data file %s (tests run from the repository root)\n", path);
        test_failures_in_current++;
    }
    return f;
}

/* Reads one line without its newline; 0 at EOF.  Overlong lines fail. */
static int read_line(FILE *f, char *buf, size_t len, const char *path) {
    if (!fgets(buf, (int)len, f)) return 0;
    size_t n = strlen(buf);
    if (n == len - 1 && buf[n - 1] != '\n') {
        fprintf(stderr, "  %s: line longer than %zu bytes\n", path, len);
        test_failures_in_current++;
    }
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) buf[--n] = 0;
    return 1;
}

/* Splits buf at tabs in place; returns the number of fields. */
static int split_tabs(char *buf, char **field, int max) {
    int n = 0;
    char *p = buf;
    while (n < max) {
        field[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

static int count_words(const char *s) {
    int n = 0, in = 0;
    for (; *s; s++) {
        int sp = (*s == ' ' || *s == '\t');
        if (!sp && !in) n++;
        in = !sp;
    }
    return n;
}

static int contains(const MoveList *l, Move m) {
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m) return 1;
    return 0;
}

typedef enum { FINAL_MATE, FINAL_FUTILE, FINAL_BAD } Final;

static const char *final_name(Final f) {
    return f == FINAL_MATE ? "checkmate" : f == FINAL_FUTILE ? "futile_final" : "not mate";
}

/* In check, not checkmated: is every legal reply a drop (an interposition)
 * that the attacker can capture with a move that checks again?  That is the
 * shape of a futile interposition (無駄合); whether the capture goes on to mate
 * is a search question this test does not answer. */
static int all_replies_futile(Position *pos) {
    MoveList ev;
    gen_evasions(pos, &ev);
    if (!in_check(pos) || ev.count == 0) return 0;
    for (int i = 0; i < ev.count; i++) {
        if (!move_is_drop(ev.moves[i])) return 0;
        Undo u;
        MoveList checks;
        int recapture = 0;
        pos_do_move(pos, ev.moves[i], &u);
        gen_checks(pos, &checks);
        for (int j = 0; j < checks.count; j++)
            if (!move_is_drop(checks.moves[j]) && move_to(checks.moves[j]) == move_to(ev.moves[i])) recapture = 1;
        pos_undo_move(pos, ev.moves[i], &u);
        if (!recapture) return 0;
    }
    return 1;
}

/* Parses sfen and replays the space-separated USI moves with the tsume checks.
 * Returns -1 (reported) on any failure, else how the line ends. */
static int replay(const char *where, const char *sfen, const char *moves, int expect_plies) {
    Position pos;
    char err[ERR_MAX], tok[32];
    if (sfen_parse(sfen, &pos, 0, err, sizeof err)) {
        fprintf(stderr, "  %s: SFEN does not parse: %s\n", where, err);
        return -1;
    }
    Position strict;  /* every file writes the defender's hand out in full */
    if (sfen_parse(sfen, &strict, 1, err, sizeof err) || memcmp(strict.hand, pos.hand, sizeof pos.hand) ||
        memcmp(strict.board, pos.board, sizeof pos.board) || strict.side != pos.side || pos_key(&strict) != pos_key(&pos)) {
        fprintf(stderr, "  %s: hands as written differ from the tsume hand convention\n", where);
        return -1;
    }
    if (in_check(&pos)) {
        fprintf(stderr, "  %s: the attacker starts in check\n", where);
        return -1;
    }
    int attacker = pos.side, ply = 0;
    const char *p = moves;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        size_t n = strcspn(p, " \t");
        if (n >= sizeof tok) n = sizeof tok - 1;
        memcpy(tok, p, n);
        tok[n] = 0;
        p += strcspn(p, " \t");
        ply++;
        Move m;
        if (move_parse(&pos, tok, &m, err, sizeof err)) {
            fprintf(stderr, "  %s: ply %d: %s\n", where, ply, err);
            return -1;
        }
        MoveList l;
        if (pos.side == attacker) {
            gen_checks(&pos, &l);
            if (!contains(&l, m)) {
                fprintf(stderr, "  %s: ply %d: attacker move %s is not among gen_checks' moves\n", where, ply, tok);
                return -1;
            }
        } else {
            if (!in_check(&pos)) {
                fprintf(stderr, "  %s: ply %d: defender to move %s but not in check\n", where, ply, tok);
                return -1;
            }
            gen_evasions(&pos, &l);
            if (!contains(&l, m)) {
                fprintf(stderr, "  %s: ply %d: defender move %s is not among gen_evasions' moves\n", where, ply, tok);
                return -1;
            }
        }
        Undo u;
        pos_do_move(&pos, m, &u);
        if (pos_check(&pos)) {
            fprintf(stderr, "  %s: ply %d: inconsistent position after %s\n", where, ply, tok);
            return -1;
        }
        if (pos.side != attacker && !in_check(&pos)) {
            fprintf(stderr, "  %s: ply %d: attacker move %s does not give check\n", where, ply, tok);
            return -1;
        }
        int mover = pos.side ^ 1;  /* move_parse should exclude this */
        if (pos.king_sq[mover] != SQ_NONE && bb_any(attackers_to(&pos, pos.side, pos.king_sq[mover], pos.occupied))) {
            fprintf(stderr, "  %s: ply %d: move %s leaves the mover's king in check\n", where, ply, tok);
            return -1;
        }
    }
    if (ply != expect_plies) {
        fprintf(stderr, "  %s: %d moves, expected %d\n", where, ply, expect_plies);
        return -1;
    }
    if (ply % 2 == 0) {
        fprintf(stderr, "  %s: even number of moves (%d): the attacker must move last\n", where, ply);
        return -1;
    }
    if (is_checkmated(&pos)) return FINAL_MATE;
    return all_replies_futile(&pos) ? FINAL_FUTILE : FINAL_BAD;
}

/* Reads the ids of an EXCEPTIONS.tsv (id, kind, reason; '#' header/comments). */
static void load_exceptions(const char *path, IdSet *s) {
    char line[LINE_MAX_LEN], *f[4];
    s->n = 0;
    FILE *fp = open_data(path);
    if (!fp) return;
    while (read_line(fp, line, sizeof line, path)) {
        if (!line[0] || line[0] == '#') continue;
        if (split_tabs(line, f, 4) < 3 || !f[2][0]) {
            fprintf(stderr, "  %s: expected 'id<TAB>kind<TAB>reason': %s\n", path, line);
            test_failures_in_current++;
            continue;
        }
        if (strcmp(f[1], "futile_final")) {
            fprintf(stderr, "  %s: unknown exception kind '%s' for %s\n", path, f[1], f[0]);
            test_failures_in_current++;
            continue;
        }
        set_add(s, f[0], f[1]);
    }
    fclose(fp);
}

/* Checks a file's set of non-checkmate finals against the listed exceptions. */
static void compare_finals(const char *file, const IdSet *got, const IdSet *listed, const char *prefix) {
    for (int i = 0; i < got->n; i++)
        if (!set_has(listed, got->id[i])) {
            fprintf(stderr, "  %s: %s ends in %s but is not listed as an exception\n", file, got->id[i], got->kind[i]);
            test_failures_in_current++;
        } else {
            printf("    %s: %s ends with only futile drops (listed exception)\n", file, got->id[i]);
        }
    for (int i = 0; i < listed->n; i++)
        if ((!prefix || !strncmp(listed->id[i], prefix, strlen(prefix))) && !set_has(got, listed->id[i])) {
            fprintf(stderr, "  %s: listed exception %s does not end in a futile final\n", file, listed->id[i]);
            test_failures_in_current++;
        }
}

/* ---- ShogiBoardQ: `SFEN moves USI...`, length = the file's ply count, must end in mate */

static void check_shogiboardq(int plies) {
    char path[128], line[LINE_MAX_LEN], where[160];
    snprintf(path, sizeof path, "data/third_party/shogiboardq/tsume_%dply_1000_20261001.txt", plies);
    FILE *f = open_data(path);
    if (!f) return;
    int n = 0, bad = 0, lineno = 0;
    while (read_line(f, line, sizeof line, path)) {
        lineno++;
        if (!line[0] || line[0] == '#') continue;
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        char *mv = strstr(line, " moves ");
        if (!mv) {
            fprintf(stderr, "  %s: no ' moves ' in line\n", where);
            bad++;
            continue;
        }
        *mv = 0;
        n++;
        int r = replay(where, line, mv + 7, plies);
        if (r < 0) bad++;
        else if (r != FINAL_MATE) {
            fprintf(stderr, "  %s: final position is %s, expected checkmate\n", where, final_name((Final)r));
            bad++;
        }
    }
    fclose(f);
    printf("    %s: %d problems checked, %d bad\n", path, n, bad);
    CHECK(bad == 0);
    CHECK(n == 1000);  /* PROVENANCE.md: complete, 1,000 problems each */
}

TEST(data_shogiboardq_3ply) { check_shogiboardq(3); }
TEST(data_shogiboardq_5ply) { check_shogiboardq(5); }
TEST(data_shogiboardq_7ply) { check_shogiboardq(7); }
TEST(data_shogiboardq_11ply) { check_shogiboardq(11); }
TEST(data_shogiboardq_13ply) { check_shogiboardq(13); }

/* ---- Edo classics: TSV id, solution_moves, sfen, solution_usi */

static int check_edo_file(const char *path, const IdSet *listed, const char *prefix, int require_all_mate) {
    char line[LINE_MAX_LEN], *f[5], where[160];
    FILE *fp = open_data(path);
    if (!fp) return 0;
    int n = 0, bad = 0, mates = 0, lineno = 0;
    IdSet finals = {.n = 0};
    while (read_line(fp, line, sizeof line, path)) {
        lineno++;
        if (!line[0] || line[0] == '#') continue;
        if (split_tabs(line, f, 5) != 4) {
            fprintf(stderr, "  %s:%d: expected 4 tab-separated fields\n", path, lineno);
            bad++;
            continue;
        }
        n++;
        snprintf(where, sizeof where, "%.64s:%d (%.64s)", path, lineno, f[0]);  /* (a label: each part bounded, so it fits) */
        char *end;
        long len = strtol(f[1], &end, 10);
        if (*end || end == f[1] || len < 1) {
            fprintf(stderr, "  %s: bad solution_moves '%s'\n", where, f[1]);
            bad++;
            continue;
        }
        if (count_words(f[3]) != len) {
            fprintf(stderr, "  %s: solution_moves %ld but %d moves listed\n", where, len, count_words(f[3]));
            bad++;
            continue;
        }
        int r = replay(where, f[2], f[3], (int)len);
        if (r < 0) { bad++; continue; }
        if (r == FINAL_MATE) { mates++; continue; }
        if (r == FINAL_BAD || require_all_mate) {
            fprintf(stderr, "  %s: final position is %s\n", where, final_name((Final)r));
            bad++;
            continue;
        }
        set_add(&finals, f[0], final_name((Final)r));
    }
    fclose(fp);
    printf("    %s: %d problems checked, %d end in checkmate, %d end with only futile drops, %d bad\n", path, n,
           mates, finals.n, bad);
    if (!require_all_mate) compare_finals(path, &finals, listed, prefix);
    CHECK(bad == 0);
    return n;
}

TEST(data_edo_zukou_musou) {
    IdSet listed;
    load_exceptions("data/edo/EXCEPTIONS.tsv", &listed);
    CHECK_EQ_U64(check_edo_file("data/edo/zukou.tsv", &listed, "zukou-", 0), 100);
    CHECK_EQ_U64(check_edo_file("data/edo/musou.tsv", &listed, "musou-", 0), 50);
}

TEST(data_edo_cooks) {
    IdSet none = {.n = 0};
    CHECK_EQ_U64(check_edo_file("data/edo/cooks.tsv", &none, NULL, 1), 2);
}

/* The exceptions list agrees with the upstream flags it is drawn from. */
TEST(data_edo_exceptions_match_flags) {
    IdSet listed, flagged = {.n = 0};
    char line[LINE_MAX_LEN], *f[4];
    load_exceptions("data/edo/EXCEPTIONS.tsv", &listed);
    FILE *fp = open_data("data/edo/flags.tsv");
    if (!fp) return;
    while (read_line(fp, line, sizeof line, "data/edo/flags.tsv")) {
        if (line[0] == '#' || split_tabs(line, f, 4) < 2) continue;
        if (!strcmp(f[1], "futile_interposition_final")) set_add(&flagged, f[0], f[1]);
    }
    fclose(fp);
    CHECK(flagged.n == listed.n);
    for (int i = 0; i < flagged.n; i++) CHECK(set_has(&listed, flagged.id[i]));
}

/* ---- Regressions: TSV id, sfen, expected, source, note */

TEST(data_regressions) {
    static const char path[] = "data/regressions/positions.tsv";
    char line[LINE_MAX_LEN], *f[6], where[160], err[ERR_MAX];
    IdSet listed, finals = {.n = 0};
    load_exceptions("data/regressions/EXCEPTIONS.tsv", &listed);
    FILE *fp = open_data(path);
    if (!fp) return;
    int n = 0, lines = 0, bad = 0, mates = 0, lineno = 0;
    while (read_line(fp, line, sizeof line, path)) {
        lineno++;
        if (!line[0] || line[0] == '#') continue;
        if (split_tabs(line, f, 6) != 5) {
            fprintf(stderr, "  %s:%d: expected 5 tab-separated fields\n", path, lineno);
            bad++;
            continue;
        }
        n++;
        snprintf(where, sizeof where, "%.64s:%d (%.64s)", path, lineno, f[0]);  /* (a label: each part bounded, so it fits) */
        Position pos;
        if (sfen_parse(f[1], &pos, 0, err, sizeof err)) {
            fprintf(stderr, "  %s: SFEN does not parse: %s\n", where, err);
            bad++;
            continue;
        }
        /* "mate N: m1 m2 ..." gives a line to replay */
        const char *e = strstr(f[2], "mate ");
        char *end;
        if (!e) continue;
        long len = strtol(e + 5, &end, 10);
        if (end == e + 5 || *end != ':') continue;
        lines++;
        int r = replay(where, f[1], end + 1, (int)len);
        if (r < 0) bad++;
        else if (r == FINAL_MATE) mates++;
        else if (r == FINAL_BAD) {
            fprintf(stderr, "  %s: final position is not mate\n", where);
            bad++;
        } else set_add(&finals, f[0], final_name((Final)r));
    }
    fclose(fp);
    printf("    %s: %d positions parsed, %d lines replayed, %d end in checkmate, %d end with only futile drops, %d bad\n",
           path, n, lines, mates, finals.n, bad);
    compare_finals(path, &finals, &listed, NULL);
    CHECK(bad == 0);
    CHECK_EQ_U64(n, 21);  /* PROVENANCE.md: Count: 21 */
}
