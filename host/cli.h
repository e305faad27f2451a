/* cli.h - shared helpers for the tsumegen subcommands. */
#ifndef TSUMEGEN_CLI_H
#define TSUMEGEN_CLI_H
#include <stdio.h>
#include "sfen.h"

#define EXIT_OK 0
#define EXIT_FAIL 1   /* ran, but the answer is "no" (reserved for solve/verify) */
#define EXIT_USAGE 2  /* bad usage or bad input */
#define EXIT_INTERRUPTED 130  /* stopped by Ctrl-C (128 + SIGINT, as the shell reports it) */

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const char *usage;  /* full --help text */
} Command;

/* Prints "tsumegen NAME: message" on stderr and returns EXIT_USAGE. */
int cli_error(const char *cmd, const char *fmt, ...);
/* True if argv holds -h or --help. */
int cli_wants_help(int argc, char **argv);
/* Reads the next input line into buf (strips newline and "#" comments); 0 at EOF. */
int cli_read_line(FILE *f, char *buf, size_t len);
/* Reads option opt's value v as a whole number in lo..hi: decimal digits, or an
 * exponent form that is whole (2e6).  0 with *out set, or EXIT_USAGE after a message
 * naming cmd, opt and v (v NULL: the value is missing). */
int cli_parse_int(const char *cmd, const char *opt, const char *v, long long lo, long long hi, long long *out);
/* The same for a real number in [lo, hi] (rates, points). */
int cli_parse_real(const char *cmd, const char *opt, const char *v, double lo, double hi, double *out);
/* Splits "SFEN [moves m1 m2 ...]" into the SFEN text and the moves part (NULL if none). */
char *cli_split_moves(char *line);

int cmd_perft(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_mate1(int argc, char **argv);
int cmd_kif(int argc, char **argv);
int cmd_sfen(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_screen(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int bench_screen(int argc, char **argv);  /* `bench screen ...` (host/cmd_screen.c) */
extern const char USAGE_SCREEN[], USAGE_DEVICES[];
int cmd_solve(int argc, char **argv);
int cmd_usi(int argc, char **argv);
extern const char USAGE_USI[];
extern const char USAGE_SOLVE[];
int cmd_compose(int argc, char **argv);
int cmd_points(int argc, char **argv);
extern const char USAGE_POINTS[];
extern const char USAGE_COMPOSE[];
int bench_solve(int count, int threads, const char *peer, int variations);  /* bench_solve.c: `tsumegen bench solve` */
/* A peer solver's sums over one run (bench solve --peer). */
typedef struct {
    int lines, mate, nomate, unknown;
    unsigned long long nodes;
    double ms;      /* the sum of its own "ms" fields (its search time as it reports it) */
    double wall_s;  /* the whole run, start-up included */
} PeerTotals;
/* Runs the shell command cmd with the n lines on its stdin and sums the JSON lines it
 * prints ("result", "nodes", "ms" each).  0 when it exits 0 with one answer per line;
 * else -1 and a message in err. */
int bench_peer_run(const char *cmd, char *const *lines, int n, PeerTotals *t, char *err, size_t errlen);
extern const char USAGE_PERFT[], USAGE_MOVES[], USAGE_MATE1[], USAGE_KIF[], USAGE_SFEN[], USAGE_BENCH[];

#endif
