/* main.c - the tsumegen command: dispatch to subcommands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

static const Command COMMANDS[] = {
    {"perft", cmd_perft, "count legal move paths (movegen check)", USAGE_PERFT},
    {"moves", cmd_moves, "list legal, checking or evading moves", USAGE_MOVES},
    {"mate1", cmd_mate1, "list every mate-in-one", USAGE_MATE1},
    {"kif", cmd_kif, "write a position and moves as KIF", USAGE_KIF},
    {"sfen", cmd_sfen, "read KIF or CSA records as SFEN lines", USAGE_SFEN},
    {"solve", cmd_solve, "exact tsume verifier (df-pn): length, main line, flaws", USAGE_SOLVE},
    {"usi", cmd_usi, "USI tsume engine for shogi GUIs (go mate)", USAGE_USI},
    {"compose", cmd_compose, "compose perfect problems: ga (seeds/000), extend (逆算), random (seeds/002), reverse (seeds/004)", USAGE_COMPOSE},
    {"points", cmd_points, "learn a tsume-points filter from compose random's verdicts", USAGE_POINTS},
    {"bench", cmd_bench, "speed figures: perft, solve, screen, confirm", USAGE_BENCH},
    {"screen", cmd_screen, "screen boards: legality, checks, mate1, mate3, points", USAGE_SCREEN},
    {"devices", cmd_devices, "list OpenCL devices for screen", USAGE_DEVICES},
};
#define N_COMMANDS (int)(sizeof COMMANDS / sizeof COMMANDS[0])

static void usage(FILE *f) {
    fputs("usage: tsumegen COMMAND [options]   (tsumegen COMMAND --help for details)\n\ncommands:\n", f);
    for (int i = 0; i < N_COMMANDS; i++) fprintf(f, "  %-8s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fputs("\nPositions are SFEN; by the tsume hand convention every piece that is on neither\n"
          "the board nor the attacker's hand goes to the defender (--strict-hands keeps hands as given).\n"
          "Exit status: 0 success, 2 bad usage, bad input or output that could not be written\n(message on stderr).\n", f);
}

/* The part of a command's usage text that starts at the line "usage: tsumegen CMD SUB"
 * (or "... CMD [SUB]") and ends before the next usage line; 0 when there is none. */
static size_t usage_section(const char *usage, const char *cmd, const char *sub, const char **start) {
    char plain[96], optional[96];
    snprintf(plain, sizeof plain, "usage: tsumegen %s %s ", cmd, sub);
    snprintf(optional, sizeof optional, "usage: tsumegen %s [%s] ", cmd, sub);
    for (const char *line = usage; line; line = strchr(line, '\n')) {
        if (*line == '\n') line++;
        if (strncmp(line, plain, strlen(plain)) && strncmp(line, optional, strlen(optional))) continue;
        const char *end = strstr(line + 1, "\nusage: tsumegen ");
        *start = line;
        return end ? (size_t)(end + 1 - line) : strlen(line);
    }
    return 0;
}

/* `tsumegen CMD [SUB] --help`: SUB's own part of the usage when the text has one
 * (compose ga|extend|random|reverse, bench perft|screen|solve|confirm), else all of it. */
static void print_usage(const char *cmd, const char *usage, const char *sub) {
    const char *start = NULL;
    size_t n = sub && sub[0] != '-' ? usage_section(usage, cmd, sub, &start) : 0;
    if (!n || n == strlen(usage)) { fputs(usage, stdout); return; }
    while (n > 1 && start[n - 1] == '\n' && start[n - 2] == '\n') n--;  /* (the blank line between sections) */
    fwrite(start, 1, n, stdout);
    if (start[n - 1] != '\n') fputc('\n', stdout);
    printf("(tsumegen %s --help: every %s command and the options they share)\n", cmd, cmd);
}

/* Output that could not be written (a full disk, a closed stdout) is a failure,
 * not a silent success: stdio says so only when its buffer is flushed, here at the
 * end.  rc unless the output was lost, then EXIT_USAGE (Ctrl-C's 130 stays). */
static int output_written(const char *what, int rc) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    fprintf(stderr, "tsumegen%s%s: cannot write the output: %s\n", what ? " " : "", what ? what : "",
            errno ? strerror(errno) : "a write failed");
    return rc == EXIT_INTERRUPTED ? rc : EXIT_USAGE;
}

int main(int argc, char **argv) {
    if (argc < 2) { usage(stderr); return EXIT_USAGE; }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        if (argc > 2)
            for (int i = 0; i < N_COMMANDS; i++)
                if (!strcmp(argv[2], COMMANDS[i].name)) {
                    print_usage(COMMANDS[i].name, COMMANDS[i].usage, argc > 3 ? argv[3] : NULL);
                    return output_written(NULL, EXIT_OK);
                }
        usage(stdout);
        return output_written(NULL, EXIT_OK);
    }
    for (int i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], COMMANDS[i].name)) continue;
        if (cli_wants_help(argc - 1, argv + 1)) {
            print_usage(COMMANDS[i].name, COMMANDS[i].usage, argc > 2 ? argv[2] : NULL);
            return output_written(argv[1], EXIT_OK);
        }
        return output_written(argv[1], COMMANDS[i].run(argc - 1, argv + 1));
    }
    fprintf(stderr, "tsumegen: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
