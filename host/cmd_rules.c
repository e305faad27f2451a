/* cmd_rules.c - subcommands over the rules core: perft, moves, mate1, kif, sfen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "kif.h"
#include "kif_read.h"
#include "perft.h"
#include "../core/mate1.h"

const char USAGE_PERFT[] =
    "usage: tsumegen perft DEPTH [SFEN] [--divide] [--strict-hands]\n"
    "Counts legal move paths of DEPTH plies from SFEN (default: the initial position).\n"
    "--divide prints the count under each first move.  Last line: nodes N\n";
const char USAGE_MOVES[] =
    "usage: tsumegen moves [--checks|--evasions] [--strict-hands] [SFEN]\n"
    "Prints the legal moves of SFEN in USI on one line, separated by spaces.\n"
    "  --checks    only the side to move's checking moves (the attacker's moves in tsume)\n"
    "  --evasions  replies to check (the side to move must be in check)\n"
    "Without SFEN, reads one SFEN per line from stdin and prints one line each\n"
    "(a bad line prints 'error: ...' and the exit status becomes 2).\n";
const char USAGE_SFEN[] =
    "usage: tsumegen sfen [--strict-hands] [FILE ...]\n"
    "Reads KIF (Kakinoki: board diagrams as BOD, or 手合割：平手, and move lists;\n"
    "UTF-8 or Shift_JIS) or CSA (PI or P1-P9, P+/P- with 00AL, +7776FU moves, games\n"
    "apart by '/') from the files or stdin and prints one line per game:\n"
    "`SFEN` or `SFEN moves USI...` (the main line up to 詰み/投了/...; variations\n"
    "skipped), the input `solve` takes: tsumegen sfen problems.kif | tsumegen solve\n"
    "The defender's hand follows the hand convention unless --strict-hands (残り全部\n"
    "always does).  A bad game is reported as FILE:LINE on stderr and skipped; the\n"
    "exit status is then 2.\n";
const char USAGE_MATE1[] =
    "usage: tsumegen mate1 [--strict-hands] [SFEN]\n"
    "Prints every move that checkmates at once (no legal reply remains; pawn-drop\n"
    "mate excluded) on one line.  Without SFEN, reads one SFEN per line from stdin.\n";
const char USAGE_KIF[] =
    "usage: tsumegen kif [--strict-hands] [--comment TEXT] SFEN [moves] [USI ...]\n"
    "Writes the position and the legal move sequence as KIF (UTF-8) on stdout.\n";

typedef struct {
    char text[4096];   /* positional arguments joined by spaces */
    int strict_hands;
    int checks, evasions, divide;
    const char *comment;
} Args;

/* Collects flags and positional words; returns 0 or EXIT_USAGE after a message. */
static int parse_args(const char *cmd, int argc, char **argv, Args *a, int first_pos) {
    memset(a, 0, sizeof *a);
    for (int i = first_pos; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--strict-hands")) a->strict_hands = 1;
        else if (!strcmp(s, "--checks") && !strcmp(cmd, "moves")) a->checks = 1;
        else if (!strcmp(s, "--evasions") && !strcmp(cmd, "moves")) a->evasions = 1;
        else if (!strcmp(s, "--divide") && !strcmp(cmd, "perft")) a->divide = 1;
        else if (!strcmp(s, "--comment") && !strcmp(cmd, "kif")) {
            if (++i >= argc) return cli_error(cmd, "--comment needs a value");
            a->comment = argv[i];
        } else if (s[0] == '-' && s[1] == '-') return cli_error(cmd, "unknown option '%s' (see tsumegen %s --help)", s, cmd);
        else if (!s[strspn(s, " \t\r\n")]) return cli_error(cmd, "bad SFEN: empty input (an empty argument)");
        else {
            size_t n = strlen(a->text);
            if (n + strlen(s) + 2 > sizeof a->text) return cli_error(cmd, "arguments too long");
            if (n) strcat(a->text, " ");
            strcat(a->text, s);
        }
    }
    if (a->checks && a->evasions) return cli_error(cmd, "--checks and --evasions exclude each other");
    return 0;
}

/* Parses an SFEN, printing a message on failure. */
static int load(const char *cmd, const char *text, int strict, Position *pos) {
    char err[ERR_MAX];
    if (sfen_parse(text, pos, strict, err, sizeof err)) return cli_error(cmd, "%s", err);
    return 0;
}

static void print_moves(const MoveList *l) {
    char buf[8];
    for (int i = 0; i < l->count; i++) {
        move_format(l->moves[i], buf);
        printf(i ? " %s" : "%s", buf);
    }
    putchar('\n');
}

int cmd_perft(int argc, char **argv) {
    Args a;
    if (argc < 2) return cli_error("perft", "missing DEPTH (see tsumegen perft --help)");
    char *end;
    long depth = strtol(argv[1], &end, 10);
    if (*end || end == argv[1] || depth < 1 || depth > 12) return cli_error("perft", "DEPTH must be 1..12, got '%s'", argv[1]);
    if (parse_args("perft", argc, argv, &a, 2)) return EXIT_USAGE;
    Position pos;
    if (load("perft", a.text[0] ? a.text : "startpos", a.strict_hands, &pos)) return EXIT_USAGE;
    uint64_t total = 0;
    if (a.divide) {
        MoveList l;
        gen_legal(&pos, &l);
        for (int i = 0; i < l.count; i++) {
            Undo u;
            char buf[8];
            pos_do_move(&pos, l.moves[i], &u);
            uint64_t n = perft(&pos, (int)depth - 1);
            pos_undo_move(&pos, l.moves[i], &u);
            move_format(l.moves[i], buf);
            printf("%s %llu\n", buf, (unsigned long long)n);
            total += n;
        }
    } else {
        total = perft(&pos, (int)depth);
    }
    printf("nodes %llu\n", (unsigned long long)total);
    return EXIT_OK;
}

/* Runs fn on the SFEN in a.text, or on each stdin line when there is none. */
static int for_each_position(const char *cmd, const Args *a, int (*fn)(const char *, Position *, const Args *)) {
    Position pos;
    if (a->text[0]) {
        if (load(cmd, a->text, a->strict_hands, &pos)) return EXIT_USAGE;
        return fn(cmd, &pos, a);
    }
    char line[4096], err[ERR_MAX];
    int status = EXIT_OK;
    while (cli_read_line(stdin, line, sizeof line)) {
        if (line[0] == '\x01') strcpy(err, "input line too long");
        else if (sfen_parse(line, &pos, a->strict_hands, err, sizeof err)) {}
        else {
            if (fn(cmd, &pos, a)) status = EXIT_USAGE;  /* fn reported its own error */
            continue;
        }
        printf("error: %s\n", err);
        fprintf(stderr, "tsumegen %s: %s\n", cmd, err);
        status = EXIT_USAGE;
    }
    return status;
}

static int moves_one(const char *cmd, Position *pos, const Args *a) {
    MoveList l;
    if (a->evasions) {
        if (!in_check(pos)) {
            printf("error: --evasions: the side to move is not in check\n");
            return cli_error(cmd, "--evasions: the side to move is not in check");
        }
        gen_evasions(pos, &l);
    } else if (a->checks) {
        gen_checks(pos, &l);
    } else {
        gen_legal(pos, &l);
    }
    print_moves(&l);
    return 0;
}

static int mate1_one(const char *cmd, Position *pos, const Args *a) {
    MoveList l;
    (void)cmd, (void)a;
    gen_mate1(pos, &l);
    print_moves(&l);
    return 0;
}

int cmd_moves(int argc, char **argv) {
    Args a;
    if (parse_args("moves", argc, argv, &a, 1)) return EXIT_USAGE;
    int rc = for_each_position("moves", &a, moves_one);
    return rc;
}

int cmd_mate1(int argc, char **argv) {
    Args a;
    if (parse_args("mate1", argc, argv, &a, 1)) return EXIT_USAGE;
    return for_each_position("mate1", &a, mate1_one);
}

/* Splits "board side hand [number] [moves] m1 m2..." into SFEN and move words. */
static char *split_sfen_words(char *text) {
    char *moves = cli_split_moves(text);
    if (moves) return moves;
    int field = 0;
    for (char *p = text; *p; p++) {
        if (*p != ' ') continue;
        if (++field == 3) {  /* after board, side, hand: an optional move number */
            char *q = p + 1;
            while (*q >= '0' && *q <= '9') q++;
            if (q > p + 1 && (*q == ' ' || !*q)) p = q;
            if (!*p) return NULL;
            *p = 0;
            return p + 1;
        }
    }
    return NULL;
}

int cmd_kif(int argc, char **argv) {
    Args a;
    Move moves[1024];
    int n = 0;
    char err[ERR_MAX];
    if (parse_args("kif", argc, argv, &a, 1)) return EXIT_USAGE;
    if (!a.text[0]) return cli_error("kif", "missing SFEN (see tsumegen kif --help)");
    char *mv = split_sfen_words(a.text);
    Position pos, cur;
    if (load("kif", a.text, a.strict_hands, &pos)) return EXIT_USAGE;
    cur = pos;
    int rc = sfen_play_moves(&cur, mv, moves, 1024, &n, err, sizeof err);
    if (rc > 0) return cli_error("kif", "more than 1024 moves");
    if (rc) return cli_error("kif", "%s", err);
    return kif_write(stdout, &pos, moves, n, a.comment) ? cli_error("kif", "write error") : EXIT_OK;
}

/* kif_file_each's callback for sfen: the line on stdout, a bad game on stderr. */
static void print_game(void *bad, const char *line, const char *err) {
    if (line) puts(line);
    else {
        fprintf(stderr, "tsumegen sfen: %s\n", err);
        *(int *)bad = 1;
    }
}

int cmd_sfen(int argc, char **argv) {
    int strict = 0, nfiles = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--strict-hands")) strict = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_error("sfen", "unknown option '%s' (see tsumegen sfen --help)", argv[i]);
        else argv[1 + nfiles++] = argv[i];  /* (the files, in order, after the options) */
    }
    for (int i = 0; i < (nfiles ? nfiles : 1); i++) kif_file_each(nfiles ? argv[1 + i] : "-", strict, print_game, &bad);
    return bad ? EXIT_USAGE : EXIT_OK;
}
