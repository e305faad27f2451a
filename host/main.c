/* main.c - the tsumegen command: dispatch to subcommands. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

static const Command COMMANDS[] = {
    {"perft", cmd_perft, "count legal move paths (movegen check)", USAGE_PERFT},
    {"moves", cmd_moves, "list legal, checking or evading moves", USAGE_MOVES},
    {"mate1", cmd_mate1, "list every mate-in-one", USAGE_MATE1},
    {"kif", cmd_kif, "write a position and moves as KIF", USAGE_KIF},
    {"bench", cmd_bench, "speed figures (perft)", USAGE_BENCH},
};
#define N_COMMANDS (int)(sizeof COMMANDS / sizeof COMMANDS[0])

int cli_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "tsumegen %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

int cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 1;
    return 0;
}

int cli_read_line(FILE *f, char *buf, size_t len) {
    while (fgets(buf, (int)len, f)) {
        size_t n = strlen(buf);
        if (n == len - 1 && buf[n - 1] != '\n') {  /* overlong line: drop the rest, flag it */
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n') {}
            buf[0] = '\x01';
            buf[1] = 0;
            return 1;
        }
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        n = strlen(buf);
        while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t')) buf[--n] = 0;
        char *p = buf;
        while (*p == ' ' || *p == '\t') p++;
        if (*p) {
            memmove(buf, p, strlen(p) + 1);
            return 1;
        }
    }
    return 0;
}

char *cli_split_moves(char *line) {
    char *m = strstr(line, " moves");
    if (!m || (m[6] != 0 && m[6] != ' ')) return NULL;
    *m = 0;
    return m + 6;
}

static void usage(FILE *f) {
    fputs("usage: tsumegen COMMAND [options]   (tsumegen COMMAND --help for details)\n\ncommands:\n", f);
    for (int i = 0; i < N_COMMANDS; i++) fprintf(f, "  %-8s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fputs("\nPositions are SFEN; by the tsume hand convention every piece that is on neither\n"
          "the board nor the attacker's hand goes to the defender (--strict-hands keeps hands as given).\n"
          "Exit status: 0 success, 2 bad usage or bad input (message on stderr).\n", f);
}

int main(int argc, char **argv) {
    if (argc < 2) { usage(stderr); return EXIT_USAGE; }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        if (argc > 2)
            for (int i = 0; i < N_COMMANDS; i++)
                if (!strcmp(argv[2], COMMANDS[i].name)) { fputs(COMMANDS[i].usage, stdout); return EXIT_OK; }
        usage(stdout);
        return EXIT_OK;
    }
    for (int i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], COMMANDS[i].name)) continue;
        if (cli_wants_help(argc - 1, argv + 1)) { fputs(COMMANDS[i].usage, stdout); return EXIT_OK; }
        return COMMANDS[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "tsumegen: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
