/* cli.c - helpers shared by the subcommands: errors, help flags, numbers, input lines. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

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

int cli_parse_int(const char *cmd, const char *opt, const char *v, long long lo, long long hi, long long *out) {
    if (!v) return cli_error(cmd, "%s needs a value", opt);
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno) {
        /* 2e6 and the like, when whole and within the doubles' exact integers */
        errno = 0;
        double d = strtod(v, &end);
        if (end == v || *end || errno || d != floor(d) || fabs(d) > 9007199254740992.0)
            return cli_error(cmd, "%s must be a whole number in %lld..%lld, got '%s'", opt, lo, hi, v);
        x = (long long)d;
    }
    if (x < lo || x > hi) return cli_error(cmd, "%s must be a whole number in %lld..%lld, got '%s'", opt, lo, hi, v);
    *out = x;
    return 0;
}

int cli_parse_real(const char *cmd, const char *opt, const char *v, double lo, double hi, double *out) {
    if (!v) return cli_error(cmd, "%s needs a value", opt);
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    /* (!(x >= lo) also refuses nan) */
    if (end == v || *end || errno || !(x >= lo) || x > hi) return cli_error(cmd, "%s must be a number in %g..%g, got '%s'", opt, lo, hi, v);
    *out = x;
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

